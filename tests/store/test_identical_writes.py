#!/usr/bin/env python3
"""test_identical_writes.py: writers whose rendered bytes are identical, at once.

Issue 31 found, on PostgreSQL, that two writes of one owner rendering the
same bytes at the same moment could both see the blob as new to the owner
(the check read a snapshot taken before waiting for the owner's lock): the
second failed with exit 3 and "already has a version N (run quire fsck)",
or "already exists" for a create. Here, through the command (`quire`):

- 8 artifacts of one owner with the same spec and title; 8 processes, one
  per artifact, each applying the same sequence of edits, so at every step
  eight writers store identical bytes for one owner: 0 failures, every
  artifact ends at the same head with the same output sha256 per version;
- 8 processes creating the same spec for one owner at once, 10 rounds:
  0 failures, 80 artifacts;
- `quire fsck` is clean (the owner's ledger equals a recount: each blob
  charged once).

Runs on both backends (tests/CMakeLists.txt adds the _pg twin).
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, artifact_ids, close_all, new_store  # noqa: E402

PROCS, STEPS, ROUNDS = 8, 8, 10

# One writer: argv = quire, store, id (or "" to create), steps, tmp, w.
WRITER = r'''
import json, subprocess, sys
quire, store, aid, steps, tmp, w = sys.argv[1:7]
fails = []
for i in range(int(steps)):
    path = "%s/append-%s-%d.json" % (tmp, w, i)
    with open(path, "w") as f:
        json.dump({"blocks": [{"type": "paragraph", "text": "step %d" % i}]}, f)
    p = subprocess.run([quire, "edit", aid, "--append", path, "--store", store],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fails.append([p.returncode, p.stdout, p.stderr])
print(json.dumps(fails))
'''

SPEC = {"title": "Same", "blocks": [{"type": "heading", "level": 1, "text": "Same bytes"},
                                     {"type": "paragraph", "text": "Every writer renders this."}]}


def quire(store, *args, check=True):
    p = subprocess.run([QUIRE, *args, "--store", store], capture_output=True, text=True)
    if check:
        assert p.returncode == 0, (args, p.returncode, p.stdout, p.stderr)
    return p


def main():
    tmp = tempfile.mkdtemp(prefix="quire-same-")
    try:
        store = new_store(tmp)
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump(SPEC, f)
        ids = ["same%d" % i for i in range(PROCS)]
        for aid in ids:
            quire(store, "create", "-k", "document", "--title", "Same", "--id", aid, "--owner", "acme", spec)

        procs = [subprocess.Popen([sys.executable, "-c", WRITER, QUIRE, store, aid, str(STEPS), tmp, str(w)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for w, aid in enumerate(ids)]
        fails = []
        for p in procs:
            out, err = p.communicate()
            assert p.returncode == 0, err
            fails += json.loads(out)
        assert fails == [], "%d of %d identical edits failed: %s" % (len(fails), PROCS * STEPS, fails[:3])
        logs = []
        for aid in ids:
            r = json.loads(quire(store, "log", aid).stdout)
            logs.append([v["sha256"] for v in r["versions"]])
        assert all(len(lg) == STEPS + 1 for lg in logs), [len(lg) for lg in logs]
        assert all(lg == logs[0] for lg in logs), "identical edits rendered different bytes"
        print("identical edits: %d x %d, 0 failures" % (PROCS, STEPS))

        # identical creates, 8 at once, 10 rounds
        creator = ("import subprocess, sys\n"
                   "p = subprocess.run([sys.argv[1], 'create', '-k', 'document', '--title', 'Same', '--owner',"
                   " 'acme', sys.argv[3], '--store', sys.argv[2]], capture_output=True, text=True)\n"
                   "print(p.returncode, p.stdout.strip(), p.stderr.strip())\n")
        bad = []
        for _ in range(ROUNDS):
            ps = [subprocess.Popen([sys.executable, "-c", creator, QUIRE, store, spec], stdout=subprocess.PIPE,
                                   text=True) for _ in range(PROCS)]
            for p in ps:
                out, _ = p.communicate()
                if not out.startswith("0 "):
                    bad.append(out)
        assert bad == [], "%d of %d identical creates failed: %s" % (len(bad), PROCS * ROUNDS, bad[:3])
        assert len(artifact_ids(store)) == PROCS + PROCS * ROUNDS
        print("identical creates: %d x %d, 0 failures" % (PROCS, ROUNDS))

        r = quire(store, "fsck", check=False)
        assert r.returncode == 0, r.stdout + r.stderr
        fsck = json.loads(r.stdout)
        assert not fsck.get("stray"), fsck
    finally:
        close_all()
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
