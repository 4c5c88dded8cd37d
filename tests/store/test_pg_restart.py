#!/usr/bin/env python3
"""test_pg_restart.py: the PostgreSQL server restarted under 8 writers.

8 writer processes run `quire edit ID --append` in a loop (2 writers per
artifact, 4 artifacts), each edit appending a paragraph naming its writer
and attempt. After a while the server is stopped (fast: connections are
cut), kept down, started again, and the writers go on. Then:
  - every edit exited 0 or 3, never anything else; while the server was
    down the writers got exit 7 (code "unavailable") naming the PostgreSQL database;
  - edits succeed again after the restart;
  - every acknowledged edit (exit 0 with its version) is present: its
    version holds its paragraph last; versions are 1..head without gaps,
    version v holds v-1 paragraphs, all distinct (no half version);
  - fsck is clean.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, close_all, run, server  # noqa: E402

WRITER = r'''
import json, subprocess, sys, time, os
quire, store, aid, w, tmp, stop = sys.argv[1:7]
res = []
i = 0
while not os.path.exists(stop):
    path = "%s/w%s.json" % (tmp, w)
    with open(path, "w") as f:
        json.dump({"blocks": [{"type": "paragraph", "text": "w%s-%d" % (w, i)}]}, f)
    t = time.time()
    p = subprocess.run([quire, "edit", aid, "--append", path, "--store", store], capture_output=True, text=True)
    r = json.loads(p.stdout) if p.stdout.startswith("{") else {}
    res.append([i, p.returncode, r.get("version"), r.get("error", ""), t, r.get("code")])
    i += 1
    if p.returncode != 0:
        time.sleep(0.05)
print(json.dumps(res))
'''


def main():
    tmp = tempfile.mkdtemp(prefix="quire-restart-")
    try:
        srv = server()
        store = srv.uri(srv.new_db())
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "R", "blocks": []}, f)
        for a in range(4):
            rc, out, err = run("create", "-k", "html", "--id", "r%d" % a, "--store", store, spec)
            assert rc == 0, out
        stop = os.path.join(tmp, "stop")
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, QUIRE, store, "r%d" % (w % 4), str(w), tmp, stop],
                                  stdout=subprocess.PIPE, text=True) for w in range(8)]
        def heads():
            n = 0
            for a in range(4):
                rc, out, err = run("log", "r%d" % a, "--store", store, "--limit", "1")
                n += json.loads(out).get("head", 0) if rc == 0 else 0
            return n

        def wait_for_edits(base, more, limit=300.0):
            # the writers' pace depends on the machine (a sanitizer build is
            # many times slower): wait for acknowledged edits, not a fixed time
            t0 = time.time()
            while heads() < base + more and time.time() - t0 < limit:
                time.sleep(0.2)

        wait_for_edits(4, 8)
        t_down = time.time()
        srv.stop("fast")
        time.sleep(2.0)
        srv.start()
        t_up = time.time()
        wait_for_edits(heads(), 8)
        open(stop, "w").close()
        results = {}
        for w, p in enumerate(procs):
            out, _ = p.communicate()
            assert p.returncode == 0
            results[w] = json.loads(out)
        codes = [r[1] for rs in results.values() for r in rs]
        assert set(codes) <= {0, 7}, sorted(set(codes))
        down = [r for rs in results.values() for r in rs if r[1] == 7]
        assert down, "no writer saw the server down"
        assert all("PostgreSQL database" in r[3] and r[5] == "unavailable" for r in down), down[:3]
        after = [r for rs in results.values() for r in rs if r[1] == 0 and r[4] > t_up]
        before = [r for rs in results.values() for r in rs if r[1] == 0 and r[4] < t_down]
        assert after and before, (len(before), len(after))
        print("%d edits: %d ok before the stop, %d ok after the restart, %d got exit 7"
              % (len(codes), len(before), len(after), len(down)))

        for a in range(4):
            aid = "r%d" % a
            rc, out, err = run("log", aid, "--store", store)
            assert rc == 0, out
            head = json.loads(out)["head"]
            assert [v["version"] for v in json.loads(out)["versions"]] == list(range(1, head + 1))
            texts_at = {}
            for v in range(1, head + 1):
                rc, out, err = run("show", aid, "--version", str(v), "--store", store)
                texts = [b["text"] for b in json.loads(out)["blocks"]]
                assert len(texts) == v - 1 and len(set(texts)) == len(texts), (aid, v)
                texts_at[v] = texts
            for w in (a, a + 4):
                for i, code, version, _, _, _ in results[w]:
                    if code == 0:
                        assert texts_at[version][-1] == "w%d-%d" % (w, i), (aid, w, i, version)
        rc, out, err = run("fsck", "--store", store)
        r = json.loads(out)
        assert rc == 0 and r["problems"] == [], out
        print("ok: every acknowledged edit present, versions gapless, fsck clean")
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
