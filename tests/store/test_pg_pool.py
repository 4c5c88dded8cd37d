#!/usr/bin/env python3
"""test_pg_pool.py: the PostgreSQL connection pool of one store handle.

- A long-lived process (the binding) whose pooled connections all died in
  a server restart: once the server is back, 8 threads x 5 calls fail 0
  times (a dead idle connection is replaced before use; issue 31 saw the
  first 8 calls fail, one per pooled connection).
- 32 threads writing at once through one handle never hold more than 16
  connections (the documented cap; pg_stat_activity sampled meanwhile).
- statement_timeout is overridable in the URI: with options=-c
  statement_timeout=500 an edit that waits on a row lock held elsewhere
  fails within a second as "unavailable" (exit 7, retryable), nothing
  written; connect_timeout in the URI is accepted and kept.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pg import PG_BIN, _as_owner  # noqa: E402
from store import BINDING_DIR, QUIRE, close_all, server  # noqa: E402

sys.path.insert(0, BINDING_DIR)
import quire  # noqa: E402

SPEC = {"title": "T", "blocks": [{"type": "paragraph", "text": "x"}]}


def threads(n, fn):
    errors = []

    def run(i):
        try:
            fn(i)
        except Exception as e:  # noqa: BLE001 - counted, then reported
            errors.append(repr(e))
    ts = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return errors


def main():
    tmp = tempfile.mkdtemp(prefix="quire-pool-")
    try:
        srv = server()
        db = srv.new_db()
        uri = srv.uri(db)
        st = quire.Store(uri, no_sync=True)
        for i in range(32):
            st.create("html", SPEC, id="p%d" % i)

        def edits(i, n=5):
            for k in range(n):
                st.edit("p%d" % i, append={"blocks": [{"type": "paragraph", "text": "%d-%d" % (i, k)}]})
        assert threads(8, edits) == []
        srv.stop("fast")
        srv.start()
        errors = threads(8, edits)
        assert errors == [], "%d calls failed after the restart: %s" % (len(errors), errors[:2])
        assert st.fsck()["problems"] == []
        print("restart: 8 threads x 5 edits after the server came back, 0 failed")

        # the cap: 32 writers, one handle
        peak = [0]
        stop = threading.Event()

        def sample():
            while not stop.is_set():
                n = int(srv.psql("SELECT count(*) FROM pg_stat_activity WHERE datname = '%s' "
                                 "AND pid <> pg_backend_pid()" % db))
                peak[0] = max(peak[0], n)
        s = threading.Thread(target=sample)
        s.start()
        errors = threads(32, lambda i: edits(i, 3))
        stop.set()
        s.join()
        assert errors == [], errors[:2]
        assert 1 <= peak[0] <= 16, peak[0]
        st.close()
        print("cap: 32 threads through one handle, at most %d connections seen (cap 16)" % peak[0])

        # statement_timeout from the URI
        short = uri + "&options=-c%20statement_timeout%3D500&connect_timeout=3"
        hold = subprocess.Popen(_as_owner([os.path.join(PG_BIN, "psql"), "-h", srv.sock, "-U", srv.user, "-d", db,
                                           "-qAt", "-c", "BEGIN; SELECT 1 FROM quire_artifacts WHERE id = 'p0' "
                                           "FOR UPDATE; SELECT pg_sleep(4); COMMIT;"]),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        app = os.path.join(tmp, "a.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "late"}]}, f)
        t0 = time.time()
        p = subprocess.run([QUIRE, "edit", "p0", "--append", app, "--store", short], capture_output=True, text=True)
        took = time.time() - t0
        hold.wait()
        r = json.loads(p.stdout)
        assert p.returncode == 7 and r["code"] == "unavailable" and r["retryable"], (p.returncode, r)
        assert "statement_timeout" in r["error"] and took < 2.5, (took, r)
        assert "connect_timeout" not in r["error"], r
        heads = srv.psql("SELECT head FROM quire_artifacts WHERE id = 'p0'", db=db).strip()
        p = subprocess.run([QUIRE, "edit", "p0", "--append", app, "--store", short], capture_output=True, text=True)
        assert p.returncode == 0 and json.loads(p.stdout)["version"] == int(heads) + 1, p.stdout
        print("statement_timeout=500 from the URI: exit 7 after %.1f s, nothing written; then ok" % took)
    finally:
        close_all()
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
