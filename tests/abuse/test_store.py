#!/usr/bin/python3
"""Abuse, the store (issue 37 rows 15, 16, 17), stores made here.

Row 15: a password planted in every form a store location can carry it
(a URI's user:password@, ?password=, a libpq keyword string, quoted or not,
percent-encoded, "postgresql:" without "//", an upper-case scheme, a
mistyped "passwd=") never appears in anything any store command prints,
with the location given as --store, --store=, before the command, or as
QUIRE_STORE, and as store copy's --from and --to; also against a real
server that asks for the password (right and wrong ones).
Row 16: none of those locations becomes a folder (the current folder stays
empty); read-only and updating commands on a missing store folder exit 5
(not_found) and create nothing; on a database without quire's tables they
exit 5 and create no table; store copy from a missing store exits 5.
Row 17: a blob two artifacts share survives fsck --repair and delete when
the other artifact's version record is a symlink, a FIFO or garbage, when
its meta.json is unreadable, and when its record sits past a numbering gap."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
from shared import unittest_exit  # noqa: E402

QUIRE = os.path.abspath(os.environ.get("QUIRE", "build/quire"))
SECRET = "Pl4nted-S3cret"
SPEC = {"title": "T", "blocks": [{"type": "paragraph", "text": "hello"}]}
PG_BIN = os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin")


def locations(host="127.0.0.1", port="1"):
    """Every form of a location with SECRET in it; nothing listens at host:port."""
    enc = SECRET.replace("-", "%2D")
    return [
        "postgresql://u:%s@%s:%s/db" % (SECRET, host, port),
        "postgresql://u@%s:%s/db?password=%s" % (host, port, SECRET),
        "postgres://u@%s:%s/db?sslmode=disable&password=%s" % (host, port, SECRET),
        "postgresql://u:%s@%s:%s/db" % (enc, host, port),
        "host=%s port=%s user=u password=%s" % (host, port, SECRET),
        " dbname=db password = %s host=%s port=%s" % (SECRET, host, port),
        "host=%s port=%s password='%s and more'" % (host, port, SECRET),
        "dbname=db passwd=%s" % SECRET,
        "postgresql:%s" % SECRET,
        "postgres:u:%s@%s/db" % (SECRET, host),
        "POSTGRESQL://u:%s@%s:%s/db" % (SECRET, host, port),
    ]


class Store(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="quire-abuse-store-")
        self.cwd = os.path.join(self.dir, "cwd")
        os.mkdir(self.cwd)
        self.spec = os.path.join(self.dir, "s.json")
        with open(self.spec, "w") as f:
            json.dump(SPEC, f)
        self.docx = os.path.join(self.dir, "d.docx")
        subprocess.run([QUIRE, "render", self.spec, "-o", self.docx], check=True, capture_output=True)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_q(self, *args, env=None, secret=SECRET):
        e = dict(os.environ)
        e.pop("QUIRE_STORE", None)
        e.update(env or {})
        p = subprocess.run([QUIRE, *args], cwd=self.cwd, env=e, capture_output=True, timeout=60)
        out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
        what = "quire %s" % " ".join(args)
        for text in (out, err):
            self.assertNotIn(secret, text, "%s printed the password" % what)
        self.assertGreaterEqual(p.returncode, 0, "%s died of a signal" % what)
        return p.returncode, out, err

    def commands(self, loc):
        """(args, env) of every command, the location given every way."""
        out = os.path.join(self.dir, "out.html")
        folder = os.path.join(self.dir, "folder")
        cmds = [["list"], ["log", "a"], ["show", "a"], ["diff", "a", "1", "2"],
                ["export", "a", "-o", out], ["fsck"], ["fsck", "--repair"], ["delete", "a"],
                ["edit", "a", "--patch", self.spec], ["rewrite", "a", self.spec],
                ["restore", "a", "1"], ["create", "-k", "html", "--id", "a", self.spec],
                ["import", self.docx], ["store", "init"]]
        runs = [(c + ["--store", loc], None) for c in cmds]
        runs += [(["--store=" + loc, "list"], None), (["--store", loc, "log", "a"], None),
                 (["list"], {"QUIRE_STORE": loc}), (["create", "-k", "html", self.spec], {"QUIRE_STORE": loc}),
                 (["store", "copy", "--from", loc, "--to", folder], None),
                 (["store", "copy", "--from", folder, "--to", loc], None)]
        return runs

    def test_no_password_no_folder(self):  # rows 15, 16
        # a store folder to copy from
        folder = os.path.join(self.dir, "folder")
        rc, out, _ = self.run_q("create", "-k", "html", "--id", "f", self.spec, "--store", folder)
        self.assertEqual(rc, 0, out)
        for loc in locations():
            for args, env in self.commands(loc):
                rc, out, err = self.run_q(*args, env=env)
                self.assertIn(rc, (2, 7), (loc, args, out, err))  # usage, or unavailable
                self.assertEqual(os.listdir(self.cwd), [], (loc, args))
        # a folder whose name starts with a keyword is reached by ./
        rc, out, _ = self.run_q("create", "-k", "html", self.spec, "--store", "./host=x")
        self.assertEqual(rc, 0, out)
        self.assertEqual(os.listdir(self.cwd), ["host=x"])

    def test_missing_folder(self):  # row 16
        missing = os.path.join(self.dir, "missing")
        empty = os.path.join(self.dir, "empty")
        os.mkdir(empty)
        for store in (missing, empty):
            for args in (["list"], ["log", "a"], ["show", "a"], ["diff", "a", "1", "2"],
                         ["export", "a", "-o", os.path.join(self.dir, "x.html")], ["fsck"],
                         ["fsck", "--repair"], ["delete", "a"], ["edit", "a", "--patch", self.spec],
                         ["rewrite", "a", self.spec], ["restore", "a", "1"]):
                rc, out, err = self.run_q(*(args + ["--store", store]))
                self.assertEqual(rc, 5, (args, out, err))
                res = json.loads(out.splitlines()[-1])
                self.assertEqual(res["code"], "not_found")
                self.assertIn("no store at", res["error"])
                self.assertIn("quire store init", res["errors"][0]["hint"])
            self.assertFalse(os.path.exists(missing))
            self.assertEqual(os.listdir(empty), [])
        target = os.path.join(self.dir, "target")
        rc, out, err = self.run_q("store", "copy", "--from", missing, "--to", target)
        self.assertEqual(rc, 5, out)
        self.assertNotIn("verified", out)
        self.assertFalse(os.path.exists(missing))
        self.assertFalse(os.path.exists(target))
        self.assertEqual(self.run_q("create", "-k", "html", self.spec, "--store", missing)[0], 0)
        self.assertEqual(self.run_q("list", "--store", missing)[0], 0)

    @unittest.skipUnless(os.path.exists(os.path.join(PG_BIN, "initdb")), "PostgreSQL 15 is not installed")
    def test_server(self):  # rows 15, 16 against a server that wants a password
        from pg import Server
        srv = Server(password_user="pw")
        try:
            srv.psql("CREATE ROLE pw LOGIN PASSWORD '%s'" % SECRET)
            srv.psql("CREATE DATABASE pwdb OWNER pw")
            srv.psql("CREATE DATABASE fresh OWNER pw")
            sock = srv.sock
            good = ["postgresql://pw:%s@/pwdb?host=%s" % (SECRET, sock),
                    "postgresql://pw@/pwdb?host=%s&password=%s" % (sock, SECRET),
                    "host=%s dbname=pwdb user=pw password=%s" % (sock, SECRET),
                    "host=%s dbname=pwdb user=pw password='%s'" % (sock, SECRET)]
            wrong = ["postgresql://pw:%s@/pwdb?host=%s" % (SECRET[::-1], sock),
                     "host=%s dbname=pwdb user=pw password=%s" % (sock, SECRET[::-1])]
            # read-only on a database without quire's tables: exit 5, no table made
            fresh = "host=%s dbname=fresh user=pw password=%s" % (sock, SECRET)
            for args in (["list"], ["log", "a"], ["fsck"], ["store", "copy", "--from", fresh, "--to",
                                                           os.path.join(self.dir, "t")]):
                rc, out, _ = self.run_q(*(args if args[0] == "store" else args + ["--store", fresh]))
                self.assertEqual(rc, 5, (args, out))
                self.assertIn("no quire store in the PostgreSQL database", out)
            self.assertEqual(srv.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
                                      db="fresh").strip(), "0")
            self.assertFalse(os.path.exists(os.path.join(self.dir, "t")))
            rc, out, _ = self.run_q("create", "-k", "html", "--id", "a", self.spec, "--store", good[0])
            self.assertEqual(rc, 0, out)
            for loc in good:
                for args, env in self.commands(loc):
                    self.run_q(*args, env=env)
                    self.assertEqual(os.listdir(self.cwd), [], (loc, args))
                rc, out, _ = self.run_q("show", "nope", "--store", loc)
                self.assertEqual(rc, 5, out)
                self.assertIn("no artifact", out)
            for loc in wrong:
                rc, out, _ = self.run_q("list", "--store", loc, secret=SECRET[::-1])
                self.assertEqual(rc, 2, out)
                self.assertIn("password authentication failed", out)
            self.assertEqual(os.listdir(self.cwd), [])
        finally:
            srv.close()


class Blobs(unittest.TestCase):
    """Row 17: a blob stays while any record may use it."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="quire-abuse-blobs-")
        self.store = os.path.join(self.dir, "st")
        self.spec = os.path.join(self.dir, "s.json")
        with open(self.spec, "w") as f:
            json.dump(SPEC, f)

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def q(self, *args):
        p = subprocess.run([QUIRE, *args, "--store", self.store], capture_output=True, timeout=60)
        return p.returncode, p.stdout.decode("utf-8", "replace")

    def shared_blob(self):
        """a and b, each one version of the same bytes: one blob."""
        for id_ in ("a", "b"):
            self.assertEqual(self.q("create", "-k", "html", "--id", id_, self.spec)[0], 0)
        blobs = [n for n in os.listdir(os.path.join(self.store, "blobs")) if not n.startswith(".")]
        self.assertEqual(len(blobs), 1)
        return blobs[0]

    def damage(self, how):
        rec = os.path.join(self.store, "b", "v000001.meta")
        keep = os.path.join(self.dir, "record")
        shutil.copy(rec, keep)
        os.unlink(rec)
        if how == "symlink":
            os.symlink(keep, rec)
        elif how == "fifo":
            os.mkfifo(rec)
        elif how == "garbage":
            with open(rec, "w") as f:
                f.write("{not json")
        elif how == "meta":  # the record is fine; b's meta.json is a FIFO
            shutil.copy(keep, rec)
            meta = os.path.join(self.store, "b", "meta.json")
            os.unlink(meta)
            os.mkfifo(meta)
        return rec, keep

    def test_damaged_records_keep_blobs(self):
        for how in ("symlink", "fifo", "garbage", "meta"):
            shutil.rmtree(self.store, ignore_errors=True)
            blob = os.path.join(self.store, "blobs", self.shared_blob())
            rec, keep = self.damage(how)
            rc, out = self.q("fsck", "--repair")
            self.assertEqual(rc, 3, (how, out))
            self.assertTrue(os.path.exists(blob), "fsck --repair removed a blob a uses (%s)" % how)
            rc, out = self.q("delete", "a", "--purge")  # a trashed a still uses its blobs
            self.assertEqual(rc, 0, (how, out))
            self.assertTrue(os.path.exists(blob), "delete a removed the blob b may use (%s)" % how)
            rc, out = self.q("fsck", "--repair")
            self.assertEqual(rc, 3, (how, out))
            self.assertTrue(os.path.exists(blob), "fsck --repair removed a blob b may use (%s)" % how)
            if how == "meta":
                continue
            self.assertIn("kept 1 blob that no readable version references", out)
            os.unlink(rec)
            shutil.copy(keep, rec)
            rc, out = self.q("export", "b", "-o", os.path.join(self.dir, "b.html"))
            self.assertEqual(rc, 0, (how, out))

    def test_record_past_a_gap(self):
        self.assertEqual(self.q("create", "-k", "html", "--id", "b", self.spec)[0], 0)
        with open(self.spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "two"}]}, f)
        self.assertEqual(self.q("rewrite", "b", self.spec)[0], 0)
        with open(os.path.join(self.store, "b", "v000002.meta")) as f:
            sha = json.load(f)["output"]["sha256"]
        os.unlink(os.path.join(self.store, "b", "v000001.meta"))
        rc, out = self.q("fsck", "--repair")
        self.assertEqual(rc, 3, out)
        self.assertTrue(os.path.exists(os.path.join(self.store, "blobs", sha)), out)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
