#!/usr/bin/env python3
"""test_list_delete.py: `quire list` and `quire delete` (both backends).

3 owners x 20 artifacts (one owner a UTF-8 id with "|" and "@"), then:
  - every version's log entry has its page count and warnings; `log --limit 1`
    gives the head only, with "head" still the number of versions;
  - `quire list --owner O --limit 7` pages 7, 7, 6 with a cursor, newest
    first, no artifact twice and none missing; `--limit 0` lists all 60 and
    `-k` filters by kind;
  - deleting one artifact (2 versions, sharing no rendered file with the
    owner's others) frees exactly its bytes and count in the owner's quota,
    measured with --max-bytes / --max-artifacts right at the limit: after the
    delete the same create fits again;
  - a deleted id answers "not found" (exit 3) to show, log, edit and delete;
  - fsck passes, nothing stray (the unused blobs were removed).
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import backend, close_all, new_store, owner_bytes, run  # noqa: E402

OWNERS = ["alice", "google-oauth2|1234", "bob@example.com"]


def ok(*args):
    rc, out, err = run(*args)
    assert rc == 0, (args, rc, out, err)
    return json.loads(out)


def main():
    tmp = tempfile.mkdtemp(prefix="quire-list-")
    print("backend: %s" % backend())
    try:
        store = new_store(tmp)
        ids = {o: [] for o in OWNERS}
        for i in range(20):
            for k, o in enumerate(OWNERS):
                spec = os.path.join(tmp, "s.json")
                with open(spec, "w") as f:
                    json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "%s %d" % (o, i)}]}, f)
                kind = "pdf" if (i % 5 == 0 and k == 0) else "html"
                aid = "a%02d%d" % (i, k)
                ok("create", "-k", kind, "--id", aid, "--owner", o, "--store", store, spec)
                ids[o].append(aid)
        for o in OWNERS:
            seen, cursor, sizes = [], None, []
            while True:
                args = ["list", "--owner", o, "--limit", "7", "--store", store]
                if cursor:
                    args += ["--cursor", cursor]
                page = ok(*args)
                sizes.append(page["count"])
                assert all(a["owner"] == o for a in page["artifacts"]), page
                seen += [a["artifact_id"] for a in page["artifacts"]]
                cursor = page["next"]
                if not cursor:
                    break
            assert sizes == [7, 7, 6], (o, sizes)
            # newest first: created descending, then id descending
            assert sorted(seen) == sorted(ids[o]) and len(set(seen)) == 20, (o, seen)
            full = ok("list", "--owner", o, "--store", store)["artifacts"]
            keys = [(a["created"], a["artifact_id"]) for a in full]
            assert keys == sorted(keys, reverse=True), keys
            assert [a["artifact_id"] for a in full] == seen
        assert ok("list", "--store", store, "--limit", "0")["count"] == 60
        pdfs = ok("list", "-k", "pdf", "--store", store)["artifacts"]
        assert sorted(a["artifact_id"] for a in pdfs) == ["a%02d0" % i for i in (0, 5, 10, 15)], pdfs
        # every version keeps its page count and warnings
        v = ok("log", "a000", "--store", store)["versions"][0]
        assert v["pages"] == 1 and v["warnings"] == [], v
        rc, out, err = run("list", "--cursor", "nonsense", "--store", store)
        assert rc == 2, out
        print("list: 3 owners x 20 artifacts paged by 7 (7, 7, 6), newest first, kinds filtered")

        # delete frees exactly the artifact's bytes and count
        o = OWNERS[1]
        victim = ids[o][3]
        app = os.path.join(tmp, "app.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "second version"}]}, f)
        ok("edit", victim, "--append", app, "--store", store)
        last = ok("log", victim, "--limit", "1", "--store", store)
        assert last["head"] == 2 and last["count"] == 1 and [v["version"] for v in last["versions"]] == [2], last
        before = owner_bytes(store, o)
        log = ok("log", victim, "--store", store)["versions"]
        cost = sum(v["spec_size"] + v["size"] for v in log)
        # full: the owner is exactly at a byte limit of `before` and a count limit of 20
        limits = ["--max-bytes", str(before), "--max-artifacts", "20"]
        again = os.path.join(tmp, "again.json")
        with open(again, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "%s 3" % o}]}, f)
        rc, out, err = run("create", "-k", "html", "--id", "new1", "--owner", o, "--store", store, *limits, again)
        assert rc == 4, out
        # (delete moves to the trash, which still counts: test_trash.py; --purge frees at once)
        d = ok("delete", victim, "--purge", "--store", store)
        assert d["deleted"] and d["purged"] and d["owner"] == o and d["versions"] == 2, d
        assert owner_bytes(store, o) == before - cost, (before, cost, owner_bytes(store, o))
        # what it freed is enough for a create of the same cost as its version 1, and no more
        r = ok("create", "-k", "html", "--id", "new1", "--owner", o, "--store", store, *limits, again)
        assert r["size"] == log[0]["size"], (r, log[0])
        rc, out, err = run("create", "-k", "html", "--id", "new2", "--owner", o, "--store", store, *limits, again)
        assert rc == 4, out
        print("delete: freed %d bytes and 1 artifact, exactly" % cost)

        for cmd in (["show", victim], ["log", victim], ["edit", victim, "--append", app], ["delete", victim]):
            rc, out, err = run(*cmd, "--store", store)
            assert rc == 5 and json.loads(out)["code"] == "not_found", (cmd, rc, out)
            assert json.loads(out)["error"].startswith('no artifact "%s" in the ' % victim), out
        assert victim not in [a["artifact_id"] for a in ok("list", "--owner", o, "--store", store)["artifacts"]]
        r = ok("fsck", "--store", store)
        assert r["problems"] == [] and r["stray"] == [], r
        assert r["artifacts"] == 60, r
        print("ok: a deleted id answers not found; fsck clean")
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
