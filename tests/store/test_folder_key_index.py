#!/usr/bin/env python3
"""test_folder_key_index.py: the folder store's index of idempotency keys
(README.md "Idempotency keys"): a write that adds a version writes its key's
record STORE/.keys/<sha256>.json before the version's commit point without
an fsync (the version's .meta, fsynced, carries the key and vouches for the
record), and the first keyed call after a crash of the machine (another
boot than the one STORE/.keys/boot names) rebuilds the records from the
.meta files of the versions within the retention.

  - a keyed edit does as many fsyncs as an unkeyed one (strace -c);
  - a keyed edit killed (SIGKILL from strace's fault injection) at each of
    its writes, fsyncs and renames, then repeated with its key: exactly one
    version; killed at the fsync after the .meta's rename (past the commit
    point) the repeat answers "replayed";
  - the same crash points, then a crash of the machine simulated (the
    record lost, STORE/.keys/boot naming another boot):
    exactly one version again;
  - a machine crash simulated after keyed create, import, edit, rewrite
    and restore (records lost, or left empty as a delayed allocation
    leaves them): each repeat answers "replayed" with its first version
    and writes nothing; the key with another request is a conflict naming
    that version; STORE/.keys/boot names this boot again;
  - fsck --repair removes an expired record that has no lock file (a
    rebuilt one); fsck is clean.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, backend, close_all, new_store, run_json as run, versions, write  # noqa: E402

BOOT = "/proc/sys/kernel/random/boot_id"
# quire under strace: LeakSanitizer cannot run under ptrace (CI's ASan step
# would fail every traced run at exit), so a traced run checks no leaks; the
# untraced runs of this test still do.
TRACED_ENV = dict(os.environ)
if "ASAN_OPTIONS" in TRACED_ENV:
    TRACED_ENV["ASAN_OPTIONS"] += ":detect_leaks=0"


def fsyncs(args):
    """The fsync and fdatasync calls of quire ARGS (which must exit 0)."""
    p = subprocess.run(["strace", "-f", "-qq", "-c", "-U", "name,calls", "-e", "trace=fsync,fdatasync",
                        QUIRE, *args], capture_output=True, text=True, env=TRACED_ENV)
    assert p.returncode == 0, (args, p.stdout, p.stderr)
    n = 0
    for line in p.stderr.splitlines():
        f = line.split()
        if len(f) == 2 and f[0] in ("fsync", "fdatasync"):
            n += int(f[1])
    return n


def killed_at(call, n, args):
    """quire ARGS killed by SIGKILL when it enters its n-th `call`: True when
    it was killed, False when it finished first (it has fewer)."""
    p = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=" + call,
                        "-e", "inject=%s:signal=SIGKILL:when=%d" % (call, n), QUIRE, *args],
                       capture_output=True, text=True, env=TRACED_ENV)
    return p.returncode != 0


def record(store, key):
    import hashlib
    return os.path.join(store, ".keys", hashlib.sha256(key.encode()).hexdigest())


def machine_crash(store, keys, empty=False):
    """What a crash of the machine may leave of keys' records written
    without an fsync: none (or empty files), and a boot file naming the
    boot before."""
    for k in keys:
        if empty:
            open(record(store, k) + ".json", "w").close()
        elif os.path.exists(record(store, k) + ".json"):
            os.unlink(record(store, k) + ".json")
    with open(os.path.join(store, ".keys", "boot"), "w") as f:
        f.write(str(uuid.uuid4()) + "\n")


def this_boot():
    with open(BOOT) as f:
        return f.read()


def main():
    if backend() != "folder":
        return 77
    if not os.path.exists(BOOT):  # not Linux: every record is fsynced, nothing to rebuild
        print("no %s: records are fsynced" % BOOT)
        return 77
    tmp = tempfile.mkdtemp(prefix="quire-keyidx-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = write(os.path.join(tmp, "s.json"), {"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]})
        spec2 = write(os.path.join(tmp, "s2.json"), {"title": "T", "blocks": [{"type": "paragraph", "text": "two"}]})
        rc, c, _ = run("create", "-k", "document", "--title", "K", "--key", "c-1", *S, spec)
        assert rc == 0, c
        aid = c["artifact_id"]
        with open(os.path.join(store, ".keys", "boot")) as f:
            assert f.read() == this_boot()
        print("the first keyed call writes STORE/.keys/boot: this boot")

        # fsyncs: the same for a keyed edit and an unkeyed one
        counts = {}
        for i, k in enumerate(["", "f-1", "", "f-2"]):
            app = write(os.path.join(tmp, "f%d.json" % i), {"blocks": [{"type": "paragraph", "text": "f%d" % i}]})
            args = ["edit", aid, "--append", app, *S] + (["--key", k] if k else [])
            counts.setdefault(bool(k), []).append(fsyncs(args))
        assert counts[True] == counts[False], counts
        print("fsyncs of an edit: unkeyed %s, keyed %s" % (counts[False], counts[True]))

        # SIGKILL at each fsync and rename of a keyed edit, then the key again
        points, past_commit = 0, {}
        for call in ("write", "fsync", "renameat"):
            for crash in (False, True):
                past_commit[call, crash] = 0
                n = 1
                while True:
                    key = "kill-%s-%d-%d" % (call, crash, n)
                    app = write(os.path.join(tmp, key + ".json"), {"blocks": [{"type": "paragraph", "text": key}]})
                    args = ["edit", aid, "--append", app, "--key", key, *S]
                    before = len(versions(store, aid))
                    killed = killed_at(call, n, args)
                    committed = len(versions(store, aid)) - before
                    assert committed in (0, 1), committed
                    if crash:
                        machine_crash(store, [key])
                    rc, r, _ = run(*args)
                    assert rc == 0, (key, r)
                    assert len(versions(store, aid)) == before + 1, (key, killed, committed)
                    assert bool(r.get("replayed")) == bool(committed), (key, committed, r)
                    if not killed:
                        break
                    points += 1
                    past_commit[call, crash] += committed
                    n += 1
        # killed at the fsync of the artifact's folder after the .meta's rename
        assert past_commit["fsync", False] >= 1 and past_commit["fsync", True] >= 1, past_commit
        print("a keyed edit killed at each of its writes, fsyncs and renames (%d points, %d past the commit), alone "
              "and with a machine crash after it: the key repeated gives one version"
              % (points, sum(past_commit.values())))

        # a machine crash after every kind of keyed write that adds a version
        app = write(os.path.join(tmp, "a.json"), {"blocks": [{"type": "paragraph", "text": "more"}]})
        rc, e1, _ = run("edit", aid, "--append", app, "--key", "e-1", *S)
        rc, w1, _ = run("rewrite", aid, spec2, "--key", "w-1", *S)
        rc, x1, _ = run("restore", aid, "1", "--key", "r-1", *S)
        docx = os.path.join(tmp, "x.docx")
        rc, r, _ = run("export", aid, "--version", "1", "-o", docx, *S)
        assert rc == 0, r
        rc, i1, _ = run("import", docx, "--key", "i-1", *S)
        assert rc == 0 and i1["version"] == 1, i1
        first = {"c-1": (c, ["create", "-k", "document", "--title", "K", "--key", "c-1", *S, spec]),
                 "e-1": (e1, ["edit", aid, "--append", app, "--key", "e-1", *S]),
                 "w-1": (w1, ["rewrite", aid, spec2, "--key", "w-1", *S]),
                 "r-1": (x1, ["restore", aid, "1", "--key", "r-1", *S]),
                 "i-1": (i1, ["import", docx, "--key", "i-1", *S])}
        head = len(versions(store, aid))
        for empty in (False, True):
            machine_crash(store, first, empty=empty)
            for k, (r1, args) in first.items():
                rc, r2, _ = run(*args)
                assert rc == 0 and r2.get("replayed") is True, (k, r2)
                assert (r2["artifact_id"], r2["version"]) == (r1["artifact_id"], r1["version"]), (k, r1, r2)
            assert len(versions(store, aid)) == head
            rc, r, _ = run("list", *S)
            assert len(r["artifacts"]) == 2, r
            with open(os.path.join(store, ".keys", "boot")) as f:
                assert f.read() == this_boot()
        machine_crash(store, ["e-1"])
        rc, r, _ = run("edit", aid, "--append", spec, "--key", "e-1", *S)
        assert rc == 6 and r["code"] == "conflict", r
        assert r["error"].endswith('(artifact "%s" version %d)' % (aid, e1["version"])), r
        assert len(versions(store, aid)) == head
        print("a machine crash simulated after keyed create, import, edit, rewrite, restore (records lost, "
              "or empty): each repeat replays its version, another request is a conflict, nothing written")

        # a rebuilt record has no lock: fsck --repair still removes it once expired
        old = record(store, "old-key") + ".json"
        with open(old, "w") as f:
            json.dump({"request": "0" * 64, "artifact_id": aid, "version": 1, "created": "2020-01-01T00:00:00Z"}, f)
        rc, r, _ = run("fsck", "--repair", *S)
        assert rc == 0 and not os.path.exists(old), r
        assert os.path.exists(record(store, "e-1") + ".json")  # rebuilt, lock-less, within the retention
        rc, r, _ = run("fsck", *S)
        assert rc == 0 and not r["problems"], r
        print("fsck --repair removes an expired lock-less record; fsck clean")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
