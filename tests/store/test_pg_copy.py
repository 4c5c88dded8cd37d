#!/usr/bin/env python3
"""test_pg_copy.py: `quire store copy --from DIR --to URI`.

A folder store of 50 artifacts x 5 versions (create, 3 edits, a restore;
kinds html, pdf and document; several owners) is copied into a fresh
PostgreSQL database. Then, for every artifact: `quire log` on both agrees
version by version (action, parent, restored_from, created, sizes, spec and
output sha256), `quire show` of every version gives the same text, and the
exported bytes of a sample hash to the logged sha256. `quire list` lists the
same artifacts in the same order; fsck is clean on the target; a second copy
skips all 50; a copy into a database holding one of the ids with other
versions fails with exit 2.
"""
import hashlib
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import close_all, run, server  # noqa: E402

N = 50


def ok(*args):
    rc, out, err = run(*args)
    assert rc == 0, (args, rc, out, err)
    return out


def main():
    tmp = tempfile.mkdtemp(prefix="quire-copy-")
    try:
        folder = os.path.join(tmp, "store")
        kinds = ["html", "pdf", "document"]
        for i in range(N):
            spec = os.path.join(tmp, "s.json")
            with open(spec, "w") as f:
                json.dump({"title": "Doc %d" % i, "blocks": [{"type": "paragraph", "text": "start %d" % i}]}, f)
            aid = "art%02d" % i
            ok("create", "-k", kinds[i % 3], "--id", aid, "--owner", "owner-%d" % (i % 4), "--title", "T %d" % i,
               "--store", folder, spec)
            for e in range(3):
                app = os.path.join(tmp, "a.json")
                with open(app, "w") as f:
                    json.dump({"blocks": [{"type": "paragraph", "text": "edit %d of %d" % (e, i)}]}, f)
                ok("edit", aid, "--append", app, "--store", folder)
            ok("restore", aid, "2", "--store", folder)
        srv = server()
        uri = srv.uri(srv.new_db())
        r = json.loads(ok("store", "copy", "--from", folder, "--to", uri))
        assert r == {"status": "ok", "artifacts": N, "versions": N * 5, "skipped": 0, "verified": True}, r

        def listing(store):
            return [(a["artifact_id"], a["kind"], a["title"], a["owner"], a["created"], a["head"])
                    for a in json.loads(ok("list", "--store", store))["artifacts"]]
        assert listing(folder) == listing(uri)
        for i in range(N):
            aid = "art%02d" % i
            la, lb = json.loads(ok("log", aid, "--store", folder)), json.loads(ok("log", aid, "--store", uri))
            assert la == lb, (aid, la, lb)
            assert [v["action"] for v in la["versions"]] == ["create", "edit", "edit", "edit", "restore"]
            for v in range(1, 6):
                a = ok("show", aid, "--version", str(v), "--store", folder)
                b = ok("show", aid, "--version", str(v), "--store", uri)
                assert a == b, (aid, v)
            if i % 7 == 0:
                for v in (1, 5):
                    out = os.path.join(tmp, "x.bin")
                    ok("export", aid, "--version", str(v), "-o", out, "--store", uri)
                    with open(out, "rb") as f:
                        assert hashlib.sha256(f.read()).hexdigest() == la["versions"][v - 1]["sha256"]
        r = json.loads(ok("fsck", "--store", uri))
        assert r["versions"] == N * 5 and r["problems"] == [] and r["stray"] == [], r
        print("copied %d artifacts x 5 versions: logs, specs and output sha256s agree" % N)

        r = json.loads(ok("store", "copy", "--from", folder, "--to", uri))
        assert r["artifacts"] == 0 and r["skipped"] == N, r
        other = srv.uri(srv.new_db())
        spec = os.path.join(tmp, "s.json")
        ok("create", "-k", "html", "--id", "art10", "--store", other, spec)
        rc, out, err = run("store", "copy", "--from", folder, "--to", other)
        assert rc == 2 and 'already holds artifact "art10"' in json.loads(out)["error"], (rc, out)
        print("ok: a second copy skips all; a clashing id stops the copy with exit 2")
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
