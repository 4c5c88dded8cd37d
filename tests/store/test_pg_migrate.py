#!/usr/bin/env python3
"""test_pg_migrate.py: a PostgreSQL store of schema version 2 (idempotency
keys, before owners' quotas and the trash) is brought to version 3 by the
first quire that opens it, and keeps everything it held.

The version 2 database is made the way version 2 quire left it: a store
created now, with quire's version 3 additions dropped (quire_owners'
max_artifacts and max_bytes, quire_artifacts' deleted) and quire_schema set
back to 2. A read (`quire list`, which opens existing stores only) migrates
it: schema version 3, the columns there, every artifact, version and key as
before, fsck clean, and an owner quota set and enforced on it.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pg import close_all, server  # noqa: E402

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")


def run(*args):
    p = subprocess.run([QUIRE, *args], capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout) if p.stdout.startswith("{") else p.stdout


def main():
    tmp = tempfile.mkdtemp(prefix="quire-migrate-")
    try:
        srv = server()
        db = srv.new_db()
        uri = srv.uri(db)
        S = ["--store", uri]
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]}, f)
        app = os.path.join(tmp, "a.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "more"}]}, f)
        for i in range(3):
            rc, r = run("create", "-k", "document", "--owner", "m1", "--id", "m%d" % i, *S, spec)
            assert rc == 0, r
        rc, r = run("edit", "m0", "--append", app, "--key", "mk-1", *S)
        assert rc == 0 and r["version"] == 2, r
        before = {i: run("log", "m%d" % i, *S)[1]["versions"] for i in range(3)}

        # back to what version 2 made
        srv.psql("DROP INDEX quire_artifacts_deleted; "
                 "ALTER TABLE quire_owners DROP COLUMN max_artifacts, DROP COLUMN max_bytes; "
                 "ALTER TABLE quire_artifacts DROP COLUMN deleted; UPDATE quire_schema SET version = 2", db=db)
        cols = "SELECT count(*) FROM information_schema.columns WHERE column_name IN ('max_artifacts', 'max_bytes', 'deleted')"
        assert srv.psql(cols, db=db).strip() == "0"

        rc, r = run("list", *S)
        assert rc == 0 and r["count"] == 3, r
        assert srv.psql("SELECT version FROM quire_schema", db=db).strip() == "3"
        assert srv.psql(cols, db=db).strip() == "3"
        for i in range(3):
            assert run("log", "m%d" % i, *S)[1]["versions"] == before[i]
        rc, r = run("edit", "m0", "--append", app, "--key", "mk-1", *S)  # the key still answers
        assert rc == 0 and r.get("replayed") and r["version"] == 2, r
        rc, r = run("fsck", *S)
        assert rc == 0 and not r["problems"], r
        print("schema 2 -> 3 on first open: 3 artifacts, their logs and a key kept, fsck clean")

        rc, r = run("store", "quota", "m1", "--artifacts", "4", *S)
        assert rc == 0 and r["artifacts"] == 3 and r["max_artifacts"] == 4, r
        rc, r = run("create", "-k", "document", "--owner", "m1", *S, spec)
        assert rc == 0, r
        rc, r = run("create", "-k", "document", "--owner", "m1", *S, spec)
        assert rc == 4 and r["code"] == "quota", r
        print("the migrated store keeps an owner quota: 4 of 4, then quota")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
