#!/usr/bin/env python3
"""test_pg_migrate.py: a PostgreSQL store of schema version 2 (idempotency
keys, before owners' quotas and the trash) is brought to version 4 by the
first quire that opens it, and keeps everything it held.

The version 2 database is made the way version 2 quire left it: a store
created now, with quire's version 3 and 4 additions dropped (quire_owners'
max_artifacts and max_bytes, quire_artifacts' deleted, quire_keys' action,
and quire_keys' foreign key put back) and quire_schema set back to 2. A
read (`quire list`, which opens existing stores only) migrates it: schema
version 4, the columns there, the foreign key gone, every artifact, version
and key as before, fsck clean, an owner quota set and enforced on it, and a
keyed purge whose key answers after the artifact is gone.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import call as run, close_all, server  # noqa: E402


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
                 "ALTER TABLE quire_artifacts DROP COLUMN deleted; ALTER TABLE quire_keys DROP COLUMN action, "
                 "ADD CONSTRAINT quire_keys_artifact_id_fkey FOREIGN KEY (artifact_id) REFERENCES quire_artifacts (id) "
                 "ON DELETE CASCADE; UPDATE quire_schema SET version = 2", db=db)
        cols = ("SELECT count(*) FROM information_schema.columns WHERE column_name IN ('max_artifacts', 'max_bytes', "
                "'deleted') OR (table_name = 'quire_keys' AND column_name = 'action')")
        fkeys = "SELECT count(*) FROM pg_constraint WHERE conname = 'quire_keys_artifact_id_fkey'"
        assert (srv.psql(cols, db=db).strip(), srv.psql(fkeys, db=db).strip()) == ("0", "1")

        rc, r = run("list", *S)
        assert rc == 0 and r["count"] == 3, r
        assert srv.psql("SELECT version FROM quire_schema", db=db).strip() == "4"
        assert srv.psql(cols, db=db).strip() == "4" and srv.psql(fkeys, db=db).strip() == "0"
        for i in range(3):
            assert run("log", "m%d" % i, *S)[1]["versions"] == before[i]
        rc, r = run("edit", "m0", "--append", app, "--key", "mk-1", *S)  # the key still answers
        assert rc == 0 and r.get("replayed") and r["version"] == 2, r
        rc, r = run("fsck", *S)
        assert rc == 0 and not r["problems"], r
        print("schema 2 -> 4 on first open: 3 artifacts, their logs and a key kept, fsck clean")

        rc, r = run("store", "quota", "m1", "--artifacts", "4", *S)
        assert rc == 0 and r["artifacts"] == 3 and r["max_artifacts"] == 4, r
        rc, r = run("create", "-k", "document", "--owner", "m1", *S, spec)
        assert rc == 0, r
        rc, r = run("create", "-k", "document", "--owner", "m1", *S, spec)
        assert rc == 4 and r["code"] == "quota", r
        print("the migrated store keeps an owner quota: 4 of 4, then quota")

        rc, r = run("delete", "m2", "--purge", "--key", "mk-purge", *S)
        assert rc == 0 and r["purged"], r
        rc, r = run("delete", "m2", "--purge", "--key", "mk-purge", *S)
        assert rc == 0 and r["replayed"] and r["head"] == 1, r
        assert srv.psql("SELECT count(*) FROM quire_keys WHERE artifact_id = 'm2'", db=db).strip() == "1"
        print("a keyed purge on the migrated store: its key answers after the artifact is gone")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
