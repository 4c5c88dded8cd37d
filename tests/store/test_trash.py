#!/usr/bin/env python3
"""test_trash.py: delete moves an artifact to the trash; undelete takes it
back; store purge removes what is past the retention; delete --purge at once.

- After `delete`, every command answers not_found (exit 5) on the id, as for
  a missing one; list leaves it out and `list --trash` shows it with
  "deleted"; the id stays taken; undelete brings it back with every version.
- The trash counts against the owner's quotas until it is purged: an owner
  at its quota of 2 with one in the trash still cannot create; after
  `store purge --trash-retention 0` it can.
- Retention by the store's clock (the binding's now=): an artifact deleted
  at T stays through T + 30 days - 1 s and is purged at T + 30 days; one
  undeleted meanwhile stays.
- `delete --purge` removes at once (from the trash too); fsck counts the
  trash and is clean throughout; --if-version on delete and undelete.
Both backends.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import binding, call as run, close_all, has_binding, new_store  # noqa: E402


CLOCK = r"""
T = 1_800_000_000
DAY = 86400
store = sys.argv[1]
spec = {"title": "R", "blocks": [{"type": "paragraph", "text": "r"}]}
def at(t):
    return quire.Store(store, no_sync=True, now=lambda: t)
s = at(T)
s.create("document", spec, id="r1", owner="clock")
s.create("document", spec, id="r2", owner="clock")
s.delete("r1")
s.delete("r2")
assert sorted(a["artifact_id"] for a in s.list(trash=True)["artifacts"]) == ["r1", "r2"]
p = at(T + 30 * DAY - 1).purge()
assert p["purged"] == 0 and p["kept"] == 2, p
at(T + DAY).undelete("r2")
p = at(T + 30 * DAY).purge()
assert p["purged"] == 1 and p["kept"] == 0, p
assert p["cutoff"] == "2027-01-15T08:00:00Z", p
s = at(T + 30 * DAY)
try:
    s.undelete("r1")
    raise SystemExit("r1 came back")
except quire.NotFoundError:
    pass
assert s.get("r2")["head"] == 1
# a shorter retention of the handle
s.delete("r2")
assert at(T + 30 * DAY + 10).purge() == {"purged": 0, "kept": 1, "cutoff": "2027-01-15T08:00:10Z"}
q = quire.Store(store, no_sync=True, now=lambda: T + 30 * DAY + 10, trash_retention=10).purge()
assert q["purged"] == 1, q
assert s.fsck()["trashed"] == 0
print("ok")
"""


def main():
    tmp = tempfile.mkdtemp(prefix="quire-trash-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]}, f)
        app = os.path.join(tmp, "a.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "more"}]}, f)
        out = os.path.join(tmp, "x.docx")

        rc, r = run("create", "-k", "document", "--id", "t1", "--owner", "u", *S, spec)
        assert rc == 0, r
        rc, r = run("edit", "t1", "--append", app, *S)
        assert rc == 0 and r["version"] == 2, r
        rc, r = run("create", "-k", "document", "--id", "t2", "--owner", "u", *S, spec)
        assert rc == 0, r
        rc, r = run("delete", "t1", "--if-version", "1", *S)
        assert rc == 6 and r["code"] == "conflict" and r["head"] == 2, r
        rc, r = run("delete", "t1", "--if-version", "2", *S)
        assert rc == 0 and r["deleted"] and r["trash"] and r["head"] == 2, r

        for cmd in (["show", "{id}"], ["log", "{id}"], ["diff", "{id}", "1", "2"], ["export", "{id}", "-o", out],
                    ["edit", "{id}", "--append", app], ["rewrite", "{id}", spec], ["restore", "{id}", "1"],
                    ["delete", "{id}"]):
            rc, r = run(*[c.format(id="t1") for c in cmd], *S)
            rc2, r2 = run(*[c.format(id="zz9") for c in cmd], *S)
            assert rc == 5 and r["code"] == "not_found", (cmd, r)
            assert json.dumps(r) == json.dumps(r2).replace("zz9", "t1"), (r, r2)
        rc, r = run("list", *S)
        assert [a["artifact_id"] for a in r["artifacts"]] == ["t2"], r
        rc, r = run("list", "--trash", *S)
        assert [a["artifact_id"] for a in r["artifacts"]] == ["t1"] and r["artifacts"][0]["deleted"], r
        rc, r = run("create", "-k", "document", "--id", "t1", *S, spec)  # the id stays taken
        assert rc == 6 and r["code"] == "conflict", r
        rc, r = run("fsck", *S)
        assert rc == 0 and r["trashed"] == 1 and r["artifacts"] == 2 and not r["problems"], r
        print("delete: in the trash, not_found for 8 commands as a missing id; list --trash shows it")

        rc, r = run("undelete", "t2", *S)  # not in the trash
        assert rc == 5 and r["code"] == "not_found", r
        rc, r = run("undelete", "t1", "--if-version", "1", *S)
        assert rc == 6 and r["code"] == "conflict", r
        rc, r = run("undelete", "t1", *S)
        assert rc == 0 and r["undeleted"] and r["head"] == 2, r
        rc, r = run("log", "t1", *S)
        assert rc == 0 and len(r["versions"]) == 2, r
        rc, r = run("list", "--trash", *S)
        assert r["count"] == 0, r
        print("undelete: back with both versions")

        # the trash counts against quotas until purged
        rc, r = run("store", "quota", "u", "--artifacts", "2", *S)
        assert rc == 0, r
        rc, r = run("delete", "t2", *S)
        assert rc == 0, r
        rc, r = run("create", "-k", "document", "--owner", "u", *S, spec)
        assert rc == 4 and r["code"] == "quota", r
        rc, r = run("store", "purge", *S)  # 30 days have not passed
        assert rc == 0 and r["purged"] == 0 and r["kept"] == 1, r
        rc, r = run("store", "purge", "--owner", "u", "--trash-retention", "0", *S)
        assert rc == 2 and r["code"] == "usage", r
        rc, r = run("store", "purge", "--trash-retention", "0", *S)
        assert rc == 0 and r["purged"] == 1 and r["kept"] == 0, r
        rc, r = run("create", "-k", "document", "--owner", "u", "--id", "t3", *S, spec)
        assert rc == 0, r
        rc, r = run("undelete", "t2", *S)
        assert rc == 5, r
        print("quota: the trash counts until purge (quota 2: refused, then accepted after purge)")

        # delete --purge: at once, live or from the trash
        rc, r = run("delete", "t3", "--purge", *S)
        assert rc == 0 and r["purged"], r
        rc, r = run("delete", "t1", *S)
        rc, r = run("delete", "t1", "--purge", *S)
        assert rc == 0 and r["purged"], r
        rc, r = run("store", "quota", "u", *S)
        assert r["artifacts"] == 0 and r["bytes"] == 0, r
        rc, r = run("fsck", *S)
        assert rc == 0 and r["artifacts"] == 0 and r["trashed"] == 0 and not r["problems"], r
        print("delete --purge: removed at once, quota back to 0, fsck clean")

        # owners: another owner's trash is as missing
        rc, r = run("create", "-k", "document", "--id", "o1", "--owner", "v", *S, spec)
        rc, r = run("delete", "o1", "--owner", "v", *S)
        assert rc == 0, r
        rc, r = run("undelete", "o1", "--owner", "w", *S)
        assert rc == 5, r
        rc, r = run("list", "--trash", "--owner", "w", *S)
        assert r["count"] == 0, r
        rc, r = run("undelete", "o1", "--owner", "v", *S)
        assert rc == 0, r

        if has_binding():
            p = binding(CLOCK, store)
            assert p.returncode == 0 and p.stdout.strip() == "ok", (p.stdout, p.stderr)
            print("retention by the store's clock: kept at T+30d-1s, purged at T+30d; an undeleted one stays")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
