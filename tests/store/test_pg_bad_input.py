#!/usr/bin/env python3
"""test_pg_bad_input.py: bad store locations and owners get a clear error
and change nothing.

  - a URI libpq refuses ("postgresql://[bad", an unknown parameter), a
    server that is not there (a socket folder with no server), a database
    that does not exist: exit 3, "cannot connect to the PostgreSQL store: ...";
  - a wrong password (the server asks for one for user `pw`): exit 3 and
    the message names the failure, never the password (neither the one
    given nor the real one), on stdout or stderr;
  - a database of another schema version (quire_schema says 99): exit 3,
    "schema version 99", and no table is created or changed;
  - an owner of 300 bytes, and owners with control characters or bad UTF-8:
    exit 2 with "invalid owner", nothing stored; an owner of 256 bytes of
    UTF-8 (with "|", "@", accents) works, and list --owner finds it.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, Server, close_all, server  # noqa: E402

SECRET = "s3cr3t-Pa55word"


def run(*args):
    p = subprocess.run([QUIRE, *args], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main():
    tmp = tempfile.mkdtemp(prefix="quire-pgbad-")
    pw = None
    try:
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": []}, f)
        srv = server()
        empty = tempfile.mkdtemp(prefix="quire-nosrv-")
        for uri in ("postgresql://[bad", "postgresql:///x?nonsense=1"):
            rc, out, err = run("create", "-k", "html", "--store", uri, spec)
            assert rc == 2 and json.loads(out)["code"] == "usage", (uri, rc, out)
            assert json.loads(out)["error"].startswith("not a PostgreSQL URI: "), out
        for uri, rc_want, code in (("postgres:///x?host=%s" % empty, 7, "unavailable"),
                                   (srv.uri("no_such_db"), 2, "usage")):
            rc, out, err = run("create", "-k", "html", "--store", uri, spec)
            assert rc == rc_want and json.loads(out)["code"] == code, (uri, rc, out)
            msg = json.loads(out)["error"]
            assert msg.startswith("cannot connect to the PostgreSQL database: "), msg
        shutil.rmtree(empty)
        print("bad URIs: exit 2 (usage); no server: exit 7 (unavailable)")

        # a server that wants a password from `pw`
        pw = Server(password_user="pw")
        pw.psql("CREATE ROLE pw LOGIN PASSWORD 'the-real-%s'" % SECRET)
        pw.psql("CREATE DATABASE pwdb OWNER pw")
        good = pw.uri("pwdb", user="pw", password="the-real-" + SECRET)
        rc, out, err = run("create", "-k", "html", "--id", "a", "--store", good, spec)
        assert rc == 0, (out, err)
        for wrong in (SECRET, "x%zz" + SECRET, ""):
            uri = pw.uri("pwdb", user="pw", password=wrong)
            rc, out, err = run("log", "a", "--store", uri)
            assert rc == 2, (rc, out)
            assert "password authentication failed" in out or "invalid percent-encoded" in out \
                or "no password supplied" in out, out
            for text in (out, err):
                assert SECRET not in text, text
        print("wrong password: exit 2, the password never printed")

        # another schema version
        uri = srv.uri(srv.new_db())
        rc, out, err = run("store", "init", "--store", uri)
        assert rc == 0 and json.loads(out)["schema_version"] == 3, out
        db = uri.split("@/")[1].split("?")[0]
        srv.psql("UPDATE quire_schema SET version = 99", db=db)
        tables = srv.psql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                          "WHERE schemaname = 'public'", db=db)
        for cmd in (["create", "-k", "html", spec], ["list"], ["store", "init"]):
            rc, out, err = run(*cmd, "--store", uri)
            assert rc == 3, (cmd, rc, out)
            assert json.loads(out)["error"] == ("the database holds a quire store of schema version 99; "
                                                "this quire reads version 4"), out
        assert srv.psql("SELECT version FROM quire_schema", db=db).strip() == "99"
        assert srv.psql("SELECT count(*) FROM quire_artifacts", db=db).strip() == "0"
        assert srv.psql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                        "WHERE schemaname = 'public'", db=db) == tables
        print("schema version 99: refused, nothing changed")

        # owners
        uri = srv.uri(srv.new_db())
        folder = os.path.join(tmp, "folder")
        for store in (uri, folder):
            for bad in ("o" * 300, "a\x01b", "tab\there", "caf\udce9"):
                arg = bad.encode("utf-8", "surrogateescape")
                p = subprocess.run([QUIRE.encode(), b"create", b"-k", b"html", b"--owner", arg, b"--store",
                                    store.encode(), spec.encode()], capture_output=True)
                assert p.returncode == 2, (store, bad[:10], p.stdout)
                assert "invalid owner" in json.loads(p.stdout)["error"], p.stdout
            # refused before the store is opened: nothing was made
            rc, out, err = run("list", "--store", store)
            assert rc == 5 and json.loads(out)["code"] == "not_found", out
            owner = ("Zoë|google-oauth2|1234@exämple.com " * 8).encode()[:256].decode("utf-8", "ignore")
            assert len(owner.encode()) <= 256
            rc, out, err = run("create", "-k", "html", "--id", "mine", "--owner", owner, "--store", store, spec)
            assert rc == 0, out
            rc, out, err = run("list", "--owner", owner, "--store", store)
            got = json.loads(out)["artifacts"]
            assert [a["artifact_id"] for a in got] == ["mine"] and got[0]["owner"] == owner, out
            rc, out, err = run("fsck", "--store", store)
            assert rc == 0 and json.loads(out)["problems"] == [], out
        print("ok: owners of 300 bytes or with control characters refused; 256 bytes of UTF-8 kept")
    finally:
        if pw:
            pw.close()
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
