#!/usr/bin/env python3
"""test_owners.py: a store opened for an owner (--owner O on every store
command, qr_store_opts.owner, owner= in the binding) sees and changes only
O's artifacts.

Another owner's artifact answers show, log, diff, export, edit, rewrite,
restore and delete with exit 5, code not_found, and the very result line a
missing id gets (the id aside): nothing tells "someone else's" from "no such
artifact", not even the head. list shows only O's (list for another owner
shows nothing); create makes O's; fsck and store copy, which see every
owner, are usage errors under --owner. Without --owner every artifact is
seen, as before (the admin view). The binding's Store(owner=...) raises
NotFoundError alike. Both backends.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import binding, close_all, new_store, run_json as run  # noqa: E402


def main():
    tmp = tempfile.mkdtemp(prefix="quire-owners-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]}, f)
        app = os.path.join(tmp, "a.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "more"}]}, f)

        rc, r, _ = run("create", "-k", "document", "--id", "alice1", "--owner", "alice", *S, spec)
        assert rc == 0 and r["version"] == 1, r
        rc, r, _ = run("edit", "alice1", "--append", app, "--owner", "alice", *S)
        assert rc == 0 and r["version"] == 2, r
        rc, r, _ = run("create", "-k", "document", "--id", "bob1", "--owner", "bob", *S, spec)
        assert rc == 0, r
        # an owner that is not an id (an OAuth subject) scopes the same way
        rc, r, _ = run("create", "-k", "document", "--id", "carol1", "--owner", "google-oauth2|12 ü", *S, spec)
        assert rc == 0 and r["head"] == 1, r

        out = os.path.join(tmp, "x.docx")
        cmds = [["show", "{id}"], ["show", "{id}", "--json"], ["log", "{id}"], ["diff", "{id}", "1", "2"],
                ["export", "{id}", "-o", out], ["edit", "{id}", "--append", app],
                ["edit", "{id}", "--append", app, "--if-version", "2"], ["rewrite", "{id}", spec],
                ["restore", "{id}", "1"], ["delete", "{id}"], ["delete", "{id}", "--if-version", "2"]]
        checked = 0
        for owner in ("bob", "google-oauth2|12 ü"):
            for cmd in cmds:
                for other, missing in (("alice1", "nosuch1"), ("ALICE1", "NOSUCH1")):
                    a = [c.format(id=other) for c in cmd]
                    m = [c.format(id=missing) for c in cmd]
                    rc, r, err = run(*a, "--owner", owner, *S)
                    rc2, r2, err2 = run(*m, "--owner", owner, *S)
                    assert rc == 5 and r["code"] == "not_found" and "head" not in r, (a, rc, r)
                    # the same line and stderr as a missing id, the id aside
                    same = json.dumps(r2).replace(missing, other)
                    assert json.dumps(r) == same, (a, r, r2)
                    assert err == err2.replace(missing, other), (err, err2)
                    checked += 1
        assert not os.path.exists(out)
        print("another owner's artifact: %d commands answer exactly as for a missing id (exit 5)" % checked)

        # nothing was changed by those attempts
        rc, r, _ = run("log", "alice1", *S)
        assert rc == 0 and r["head"] == 2 and r["owner"] == "alice", r
        # the owner itself sees and changes it
        rc, r, _ = run("show", "ALICE1", "--json", "--owner", "alice", *S)
        assert rc == 0 and r["head"] == 2 and r["owner"] == "alice", r
        rc, r, _ = run("restore", "alice1", "1", "--owner", "alice", *S)
        assert rc == 0 and r["version"] == 3, r
        rc, r, _ = run("diff", "alice1", "1", "3", "--owner", "alice", *S)
        assert rc == 0, r
        rc, r, _ = run("export", "alice1", "-o", out, "--owner", "alice", *S)
        assert rc == 0 and os.path.getsize(out) > 0, r

        # list: the owner's only; another owner named: nothing
        rc, r, _ = run("list", "--owner", "bob", *S)
        assert rc == 0 and [a["artifact_id"] for a in r["artifacts"]] == ["bob1"], r
        rc, r, _ = run("list", *S)  # the admin view: everyone's
        assert rc == 0 and sorted(a["artifact_id"] for a in r["artifacts"]) == ["alice1", "bob1", "carol1"], r
        rc, r, _ = run("list", "--owner", "google-oauth2|12 ü", *S)
        assert rc == 0 and [a["artifact_id"] for a in r["artifacts"]] == ["carol1"], r
        print("list --owner O: only O's; without --owner: all three")

        # create under --owner makes the owner's; an id another owner holds is still taken
        rc, r, _ = run("create", "-k", "document", "--id", "bob2", "--owner", "bob", *S, spec)
        assert rc == 0 and r["head"] == 1, r
        rc, r, _ = run("log", "bob2", *S)
        assert r["owner"] == "bob", r
        rc, r, _ = run("create", "-k", "document", "--id", "alice1", "--owner", "bob", *S, spec)
        assert rc == 6 and r["code"] == "conflict", r

        # keys: an owner's key reused by another owner is a conflict that names nothing
        rc, r, _ = run("edit", "alice1", "--append", app, "--key", "k-1", "--owner", "alice", *S)
        assert rc == 0 and r["version"] == 4, r
        rc, r, _ = run("edit", "alice1", "--append", app, "--key", "k-1", "--owner", "alice", *S)
        assert rc == 0 and r.get("replayed") and r["version"] == 4, r
        rc, r, _ = run("edit", "alice1", "--append", app, "--key", "k-1", "--owner", "bob", *S)
        assert rc == 6 and r["code"] == "conflict" and "alice1" not in json.dumps(r), r
        print("keys: replay for the owner; another owner's reuse is a conflict naming nothing")

        # what sees every owner is refused under --owner
        rc, r, _ = run("fsck", "--owner", "bob", *S)
        assert rc == 2 and r["code"] == "usage", r
        rc, r, _ = run("fsck", *S)
        assert rc == 0 and r["artifacts"] == 4, r
        rc, r, _ = run("delete", "bob1", "--owner", "bob", *S)
        assert rc == 0 and r["deleted"], r
        print("fsck --owner: usage (exit 2); the owner deletes its own")

        # the binding
        lib = os.environ.get("QUIRE_LIB")
        if lib:
            code = r"""
st = quire.Store(sys.argv[1], owner="bob", no_sync=True)
n = 0
for call in (lambda: st.get("alice1"), lambda: st.log("alice1"), lambda: st.export("alice1"),
             lambda: st.edit("alice1", append={"blocks": [{"type": "page_break"}]}),
             lambda: st.delete("alice1"), lambda: st.diff("alice1", 1, 2)):
    try:
        call()
        raise SystemExit("another owner's artifact was reached")
    except quire.NotFoundError as e:
        assert "alice1" in str(e) and e.head is None, e
        n += 1
assert [a["artifact_id"] for a in st.list()["artifacts"]] == ["bob2"], st.list()
assert [a["artifact_id"] for a in st.list(owner="alice")["artifacts"]] == []
r = st.create("document", {"title": "B", "blocks": []}, id="bob3")
assert r["owner"] == "bob", r
admin = quire.Store(sys.argv[1], no_sync=True)
assert admin.get("alice1")["owner"] == "alice"
print(n)
"""
            p = binding(code, store)
            assert p.returncode == 0 and p.stdout.strip() == "6", (p.stdout, p.stderr)
            print("binding Store(owner='bob'): 6 calls on alice's artifact raise NotFoundError")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
