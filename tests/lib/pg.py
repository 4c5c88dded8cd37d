"""A throwaway PostgreSQL server for the store tests, and the store location
a test runs against.

The store tests run once per backend: tests/CMakeLists.txt registers each
tests/store/test_*.py (and the binding test) a second time, as *_pg, with
QUIRE_STORE_BACKEND=pg. A test asks for its stores through new_store():

    from pg import new_store, backend, close_all
    store = new_store(tmp, "count")     # a folder path, or a fresh database's URI
    ...
    close_all()                         # in a finally: stops the server

With the pg backend the first new_store() starts a server: initdb into a
temp folder, pg_ctl start listening only on a Unix socket in that folder
(no TCP port), as the user `postgres` through runuser when the test runs as
root (initdb refuses root); each new_store() then creates its own database.
The binaries are PostgreSQL 15's (/usr/lib/postgresql/15/bin, or $PG_BIN).
A watchdog stops the server and removes its folder if the test process
dies without closing it.
"""
import atexit
import os
import shutil
import subprocess
import tempfile

PG_BIN = os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin")


def backend():
    """"pg" or "folder" (QUIRE_STORE_BACKEND)."""
    return "pg" if os.environ.get("QUIRE_STORE_BACKEND") == "pg" else "folder"


def _as_owner(cmd):
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--"] + cmd
    return cmd


class Server:
    """One server in a temp folder; .uri(db) names a database on it."""

    def __init__(self, password_user=None, fsync=False):
        self.dir = tempfile.mkdtemp(prefix="quire-pg-")
        os.chmod(self.dir, 0o755)
        self.data = os.path.join(self.dir, "data")
        self.sock = self.dir
        self.user = "postgres" if os.geteuid() == 0 else os.environ.get("USER", "postgres")
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self.n = 0
        self.running = False
        subprocess.run(_as_owner([os.path.join(PG_BIN, "initdb"), "-D", self.data, "-U", self.user,
                                  "--auth-local=trust", "--auth-host=reject", "-E", "UTF8",
                                  "--locale=C", "--no-sync"]),
                       check=True, capture_output=True)
        with open(os.path.join(self.data, "postgresql.conf"), "a") as f:
            f.write("\nlisten_addresses = ''\nunix_socket_directories = '%s'\nfsync = %s\n"
                    "max_connections = 200\nshared_buffers = 32MB\n" % (self.sock, "on" if fsync else "off"))
        if password_user:
            # password auth for one user over the socket, trust for the rest
            hba = os.path.join(self.data, "pg_hba.conf")
            with open(hba) as f:
                rest = f.read()
            with open(hba, "w") as f:
                f.write("local all %s scram-sha-256\n" % password_user + rest)
        self.start()
        # a watchdog: if this test process dies without close() (killed by a
        # timeout, say), the server is stopped and its folder removed
        stop = " ".join(_as_owner([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop"]))
        subprocess.Popen(["sh", "-c", "while kill -0 %d 2>/dev/null; do sleep 1; done; "
                          "[ -d %s ] && { %s; rm -rf %s; }" % (os.getpid(), self.data, stop, self.dir)],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)

    def start(self):
        subprocess.run(_as_owner([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-w", "-l",
                                  os.path.join(self.dir, "log"), "start"]),
                       check=True, capture_output=True)
        self.running = True

    def stop(self, mode="fast"):
        if self.running:
            subprocess.run(_as_owner([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-w", "-m",
                                      mode, "stop"]), capture_output=True)
            self.running = False

    def psql(self, sql, db="postgres"):
        p = subprocess.run(_as_owner([os.path.join(PG_BIN, "psql"), "-h", self.sock, "-U", self.user,
                                      "-d", db, "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql]),
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("psql: " + p.stderr)
        return p.stdout

    def psql_raw(self, sql, db="postgres"):
        """Rows separated by 0x1e and fields by 0x1f, values as stored."""
        p = subprocess.run(_as_owner([os.path.join(PG_BIN, "psql"), "-h", self.sock, "-U", self.user,
                                      "-d", db, "-v", "ON_ERROR_STOP=1", "-qAt", "-F", "\x1f", "-R", "\x1e",
                                      "-c", sql]),
                           capture_output=True)
        if p.returncode != 0:
            raise RuntimeError("psql: " + p.stderr.decode("utf-8", "replace"))
        out = p.stdout.decode("utf-8")
        return out[:-1] if out.endswith("\n") else out

    def new_db(self):
        self.n += 1
        name = "quire_test_%d" % self.n
        self.psql("CREATE DATABASE %s" % name)
        return name

    def uri(self, db, user=None, password=None):
        cred = user or self.user
        if password is not None:
            cred += ":" + password
        return "postgresql://%s@/%s?host=%s" % (cred, db, self.sock)

    def close(self):
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


_server = None


def server():
    """The shared throwaway server of this test process (started on first use)."""
    global _server
    if _server is None:
        _server = Server()
        atexit.register(close_all)
    return _server


def new_store(tmp, name="store"):
    """A new, empty store: a folder under tmp, or a fresh database's URI."""
    if backend() == "pg":
        return server().uri(server().new_db())
    return os.path.join(tmp, name)


def close_all():
    global _server
    _specs.clear()
    if _server is not None:
        _server.close()
        _server = None


def spec_text(quire, store, aid, version):
    """Version VERSION's stored spec text: the file itself in a folder store,
    the row itself for PostgreSQL (the tests compare it with `quire show`
    for a sample)."""
    if backend() == "folder":
        with open(os.path.join(store, aid, "v%06d.json" % version), encoding="utf-8") as f:
            return f.read()
    key = (store, aid)
    if version not in _specs.get(key, {}):
        # every version in one query (one psql instead of one `quire show` each)
        out = server().psql_raw("SELECT version, spec FROM quire_versions WHERE artifact_id = '%s' "
                                "ORDER BY version" % aid.replace("'", "''"), db=_db_of(store))
        _specs[key] = {int(v): t for v, t in (r.split("\x1f", 1) for r in out.split("\x1e") if r)}
    return _specs[key][version]


_specs = {}


def _db_of(store):
    return store.split("@/", 1)[1].split("?", 1)[0]


def artifact_ids(store):
    """The ids the store holds, sorted (folder names, or table rows)."""
    if backend() == "folder":
        if not os.path.isdir(store):
            return []
        return sorted(n for n in os.listdir(store) if not n.startswith(".") and n != "blobs")
    out = server().psql("SELECT id FROM quire_artifacts ORDER BY id", db=_db_of(store))
    return sorted(out.split())


def owner_bytes(store, owner):
    """What the owner's quota ledger charges, in bytes."""
    if backend() == "folder":
        import json
        d = os.path.join(store, ".owners")
        for name in sorted(os.listdir(d)):
            if name.endswith(".json"):
                with open(os.path.join(d, name)) as f:
                    ledger = json.load(f)
                if ledger.get("owner") == owner:
                    return ledger["bytes"]
        raise KeyError(owner)
    return int(server().psql("SELECT bytes FROM quire_owners WHERE owner = '%s'" % owner,
                             db=_db_of(store)))


def sql(store, text):
    """Run SQL on a PostgreSQL store's database (psql -At output)."""
    return server().psql(text, db=_db_of(store))
