#!/usr/bin/env python3
"""test_concurrency.py: 8 processes x 100 edits on one artifact.

The 8 writer processes edit through libquire (the Python binding, so the
test measures the store, not 800 process start-ups of the CLI on a shared
2-core machine); then 8 processes x 5 `quire edit` commands run at once
too, so the command's path is covered the same way. The library writers
skip fsync (no_sync): the locks under test do not depend on it, and on the
CI disk each fsync costs ~5 ms (800 x 6 of them would take the whole time
budget); the commands, and test_crash.py, write with fsync. Each edit appends one paragraph naming its writer and step, so every edit
changes the spec. Afterwards: 800 new versions (801 in all), numbered 1..801
without gaps or duplicates, each version's parent the one before it; every
edit's reported version is distinct; version n holds exactly n-1 appended
paragraphs (so no update was lost: each edit saw the previous head); the
head holds all 800, once each; every version reads back (`quire show`,
`quire export` for a sample) and `quire fsck` passes with nothing stray.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, SRC, backend, close_all, new_store, run, spec_text  # noqa: E402

PROCS, EDITS = 8, 100

CLI_EDITS = 5

# A writer through the library: argv = store, id, writer number, edits.
LIB_WRITER = r'''
import json, sys
sys.path.insert(0, sys.argv[5])
import quire
store, aid, w, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
st = quire.Store(store, no_sync=True)
versions = []
for i in range(n):
    r = st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "w%d-%d" % (w, i)}]})
    assert r["status"] == "ok" and not r["unchanged"], r
    versions.append(r["version"])
print(json.dumps(versions))
'''

# A writer through the command: argv = quire, store, id, writer number, edits, tmp.
CLI_WRITER = r'''
import json, subprocess, sys
quire, store, aid, w, n, tmp = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
path = "%s/append-%d.json" % (tmp, w)
versions = []
for i in range(n):
    with open(path, "w") as f:
        json.dump({"blocks": [{"type": "paragraph", "text": "c%d-%d" % (w, i)}]}, f)
    p = subprocess.run([quire, "edit", aid, "--append", path, "--store", store], capture_output=True, text=True)
    if p.returncode != 0:
        print("FAIL", p.returncode, p.stdout, p.stderr, file=sys.stderr)
        sys.exit(1)
    r = json.loads(p.stdout)
    assert r["status"] == "ok" and not r["unchanged"], r
    versions.append(r["version"])
print(json.dumps(versions))
'''


def run_writers(argvs):
    procs = [subprocess.Popen([sys.executable, "-c", *a], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for a in argvs]
    reported = []
    for p in procs:
        out, err = p.communicate()
        assert p.returncode == 0, err
        reported += json.loads(out)
    return reported


def main():
    tmp = tempfile.mkdtemp(prefix="quire-conc-")
    store = new_store(tmp)
    print("backend: %s" % backend())
    try:
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump({"title": "Shared", "blocks": []}, f)
        rc, out, err = run("create", "-k", "html", "--id", "shared", "--store", store, spec)
        assert rc == 0, (rc, out, err)
        t0 = time.time()
        bindings = os.path.join(SRC, "bindings", "python")
        reported = run_writers([[LIB_WRITER, store, "shared", str(w), str(EDITS), bindings] for w in range(PROCS)])
        t1 = time.time()
        reported += run_writers([[CLI_WRITER, QUIRE, store, "shared", str(w), str(CLI_EDITS), tmp]
                                 for w in range(PROCS)])
        print("%d library edits by %d processes in %.1f s; %d quire edit commands by %d processes in %.1f s"
              % (PROCS * EDITS, PROCS, t1 - t0, PROCS * CLI_EDITS, PROCS, time.time() - t1))
        total = PROCS * (EDITS + CLI_EDITS)
        # every edit got its own version, 2..total+1
        assert sorted(reported) == list(range(2, total + 2)), "duplicate or missing versions"

        rc, out, err = run("log", "shared", "--store", store)
        assert rc == 0, err
        log = json.loads(out)
        assert log["head"] == total + 1, log["head"]
        assert [v["version"] for v in log["versions"]] == list(range(1, total + 2))
        assert [v["parent"] for v in log["versions"]] == [None] + list(range(1, total + 1))

        # each version readable (the files directly; `quire show` for a sample),
        # holding exactly the paragraphs of the versions before it
        texts = {}
        for v in range(1, total + 2):
            texts[v] = spec_text(QUIRE, store, "shared", v)
            blocks = json.loads(texts[v])["blocks"]
            assert len(blocks) == v - 1, (v, len(blocks))
        for v in (1, 2, 3, 100, 401, 800, total, total + 1):
            rc, out, err = run("show", "shared", "--version", str(v), "--store", store)
            assert rc == 0, (v, err)
            assert out == texts[v]
        head_texts = [b["text"] for b in json.loads(out)["blocks"]]
        want = sorted(["w%d-%d" % (w, i) for w in range(PROCS) for i in range(EDITS)] +
                      ["c%d-%d" % (w, i) for w in range(PROCS) for i in range(CLI_EDITS)])
        assert sorted(head_texts) == want, "an update was lost or duplicated"
        # per writer, its paragraphs appear in the order it wrote them
        for w in range(PROCS):
            mine = [t for t in head_texts if t.startswith("w%d-" % w)]
            assert mine == ["w%d-%d" % (w, i) for i in range(EDITS)], w
        for v in (1, 2, 400, total + 1):
            out_file = os.path.join(tmp, "v%d.html" % v)
            rc, out, err = run("export", "shared", "--version", str(v), "-o", out_file, "--store", store)
            assert rc == 0, err
            assert os.path.getsize(out_file) == log["versions"][v - 1]["size"]

        rc, out, err = run("fsck", "--store", store)
        r = json.loads(out)
        assert rc == 0 and r["status"] == "ok", out
        assert r["versions"] == total + 1 and r["stray"] == [], out
        print("ok: %d versions, gapless, none lost; fsck clean" % r["versions"])
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
