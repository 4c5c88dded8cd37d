#!/usr/bin/env python3
"""test_if_version.py: expected versions (--if-version N, if_version=) on edit,
rewrite, restore and delete.

A write whose --if-version is not the head is refused with exit 6, code
"conflict", a message naming the head and "head" in the result line; with
the right version it is applied. Every result carries "head", as does
`quire show --json`. 8 processes editing with --if-version 1 at once: one
wins, seven get a conflict (the check is made under the artifact's lock).
The binding raises ConflictError with .head. Both backends.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import BINDING_DIR, QUIRE, call as run, close_all, new_store  # noqa: E402


def main():
    tmp = tempfile.mkdtemp(prefix="quire-ifv-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]}, f)
        spec2 = os.path.join(tmp, "s2.json")
        with open(spec2, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "two"}]}, f)
        app = os.path.join(tmp, "a.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "more"}]}, f)

        rc, r = run("create", "-k", "document", "--id", "a1", *S, spec)
        assert rc == 0 and r["version"] == 1 and r["head"] == 1, r
        rc, r = run("edit", "a1", "--append", app, "--if-version", "1", *S)
        assert rc == 0 and r["version"] == 2 and r["head"] == 2, r

        def refused(args, head):
            rc, r = run(*args, *S)
            assert rc == 6 and r["code"] == "conflict" and r["head"] == head, (args, rc, r)
            assert r["error"] == 'artifact "a1" is at version %d, not 1' % head, r
            assert "quire show ID --json" in r["errors"][0]["hint"], r
        for args in (["edit", "a1", "--append", app, "--if-version", "1"],
                     ["rewrite", "a1", spec2, "--if-version", "1"],
                     ["restore", "a1", "1", "--if-version", "1"],
                     ["delete", "a1", "--if-version", "1"]):
            refused(args, 2)
        rc, r = run("log", "a1", *S)
        assert len(r["versions"]) == 2, r  # nothing was written
        print("stale --if-version: exit 6, conflict naming head 2, nothing written")

        rc, r = run("show", "a1", "--json", *S)
        assert rc == 0 and r["head"] == 2 and r["version"] == 2 and r["spec"]["blocks"][1]["text"] == "more", r
        rc, r = run("show", "a1", "--version", "1", "--json", *S)
        assert r["head"] == 2 and r["version"] == 1, r
        rc, r = run("rewrite", "a1", spec2, "--if-version", "2", *S)
        assert rc == 0 and r["version"] == 3 and r["head"] == 3, r
        rc, r = run("restore", "a1", "1", "--if-version", "3", *S)
        assert rc == 0 and r["version"] == 4 and r["head"] == 4, r
        rc, r = run("export", "a1", "-o", os.path.join(tmp, "x.docx"), *S)
        assert rc == 0 and r["head"] == 4, r
        refused(["delete", "a1", "--if-version", "1"], 4)
        rc, r = run("delete", "a1", "--if-version", "4", *S)
        assert rc == 0 and r["deleted"] and r["head"] == 4, r
        rc, r = run("edit", "a1", "--append", app, "--if-version", "4", *S)
        assert rc == 5 and r["code"] == "not_found", r
        print("right --if-version: rewrite, restore, delete applied; head in every result")

        # 8 writers who all read version 1: one wins
        rc, r = run("create", "-k", "document", "--id", "race", *S, spec)
        assert rc == 0, r
        procs = [subprocess.Popen([QUIRE, "edit", "race", "--append", app, "--if-version", "1", *S],
                                  stdout=subprocess.PIPE, text=True) for _ in range(8)]
        codes = sorted(p.wait() for p in procs)
        for p in procs:
            p.stdout.close()
        assert codes == [0] + [6] * 7, codes
        rc, r = run("log", "race", *S)
        assert len(r["versions"]) == 2, r
        print("8 writers at --if-version 1: 1 applied, 7 conflicts")

        sys.path.insert(0, BINDING_DIR)
        import quire
        st = quire.Store(store)
        got = st.get("race")
        assert got["head"] == 2 and got["spec"]["title"] == "T", got
        try:
            st.edit("race", append={"blocks": [{"type": "paragraph", "text": "x"}]}, if_version=1)
            raise AssertionError("stale if_version accepted")
        except quire.ConflictError as e:
            assert e.head == 2 and e.exit_code == 6, (e.head, e)
        r = st.edit("race", append={"blocks": [{"type": "paragraph", "text": "x"}]}, if_version=got["head"])
        assert r["version"] == 3 and r["head"] == 3, r
        try:
            st.delete("race", if_version=2)
            raise AssertionError("stale delete accepted")
        except quire.ConflictError as e:
            assert e.head == 3, e.head
        assert st.delete("race", if_version=3)["deleted"]
        st.close()
        print("binding: ConflictError.head, get()[\"head\"]")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
