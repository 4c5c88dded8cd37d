#!/usr/bin/env python3
"""test_idempotency_trash.py: idempotency keys on delete, undelete and
delete --purge (issue 31 item 2), on both backends.

  - the same key with the same request answers as the first call did
    ("replayed": true, the same id; "head" as it is now) and changes
    nothing: a repeated keyed delete after an undelete does not delete
    again, a repeated keyed purge answers after the artifact is gone;
  - the same key with another request (another id, --if-version, another
    command, or a key an edit used) is exit 6, code conflict;
  - 8 processes sending one keyed delete (and one keyed purge) at once:
    all answer ok, exactly one without "replayed", one effect;
  - a retry after the first answer was lost: keyed deletes and undeletes
    killed (SIGKILL) at random moments, each repeated with its key until it
    answers: each artifact ends where the keys put it, and the first key
    repeated afterwards is still a replay;
  - PostgreSQL: keyed deletes and undeletes from 4 threads while the
    server is stopped and started 3 times, each repeated with its key until
    it answers: never not_found (a committed move answers as a replay), every
    artifact live at the end, and a call that lost its connection while
    committing says that repeating with the same key is safe;
  - folder store: a record left pending by a writer killed after its
    commit point is honoured while the marker vouches for it, is marked
    done by the next undelete and by fsck --repair (which then removes the
    leftover), and a pending record whose commit never happened is not
    honoured (the retry does the work);
  - fsck is clean afterwards.
"""
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import (QUIRE, backend, call, close_all, new_store, repeat_keyed,  # noqa: E402
                   under_restarts, write)


def spawn(args):
    return subprocess.Popen([QUIRE, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def burst(args, n=8):
    """n processes running quire ARGS at once: [(exit code, result)]."""
    procs = [spawn(args) for _ in range(n)]
    outs = []
    for p in procs:
        out, _ = p.communicate()
        outs.append((p.returncode, json.loads(out)))
    return outs


def live(store):
    return [a["artifact_id"] for a in call("list", "--store", store)[1]["artifacts"]]


def trashed(store):
    return [a["artifact_id"] for a in call("list", "--trash", "--store", store)[1]["artifacts"]]


def until_answered(args):
    """Repeat quire ARGS until it answers (a killed store may be busy)."""
    for _ in range(50):
        rc, r = call(*args)
        if rc == 0:
            return r
        assert rc == 7, (args, r)  # only an unavailable store is worth repeating
        time.sleep(0.1)
    raise AssertionError(("never answered", args, r))


def main():
    tmp = tempfile.mkdtemp(prefix="quire-tkey-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = write(os.path.join(tmp, "s.json"), {"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]})
        app = write(os.path.join(tmp, "a.json"), {"blocks": [{"type": "paragraph", "text": "more"}]})
        for i in ("a", "b", "c"):
            rc, r = call("create", "-k", "document", "--id", i, *S, spec)
            assert rc == 0, r

        # delete: repeated -> replayed, the artifact stays in the trash once
        rc, d1 = call("delete", "a", "--key", "del-a", *S)
        assert rc == 0 and d1["trash"] and "replayed" not in d1, d1
        rc, d2 = call("delete", "a", "--key", "del-a", *S)
        assert rc == 0 and d2["replayed"] is True and d2["artifact_id"] == "a" and d2["trash"], d2
        for k in ("kind", "owner", "head", "versions"):
            assert d1[k] == d2[k], (k, d1, d2)
        rc, r = call("delete", "a", *S)  # unkeyed: it is in the trash
        assert rc == 5 and r["code"] == "not_found", r
        # the same key, another request
        for other in (["delete", "b", "--key", "del-a"], ["delete", "a", "--key", "del-a", "--if-version", "1"],
                      ["undelete", "a", "--key", "del-a"], ["delete", "a", "--purge", "--key", "del-a"],
                      ["edit", "b", "--append", app, "--key", "del-a"]):
            rc, r = call(*other, *S)
            assert rc == 6 and r["code"] == "conflict" and "another request" in r["error"], (other, r)
        assert live(store) == ["c", "b"] and trashed(store) == ["a"]
        # an edit's key is not a delete's
        rc, r = call("edit", "b", "--append", app, "--key", "edit-b", *S)
        assert rc == 0 and r["version"] == 2, r
        rc, r = call("delete", "b", "--key", "edit-b", *S)
        assert rc == 6 and r["code"] == "conflict", r
        print("delete: repeated -> replayed, nothing more; other requests under the key -> exit 6")

        # undelete, then the delete's key again: a replay, not a second delete
        rc, u1 = call("undelete", "a", "--key", "undel-a", *S)
        assert rc == 0 and u1["undeleted"] and "replayed" not in u1, u1
        rc, u2 = call("undelete", "a", "--key", "undel-a", *S)
        assert rc == 0 and u2["replayed"] and u2["undeleted"], u2
        rc, d3 = call("delete", "a", "--key", "del-a", *S)
        assert rc == 0 and d3["replayed"], d3
        assert "a" in live(store) and trashed(store) == [], (live(store), trashed(store))
        print("undelete: repeated -> replayed; the delete's key after it -> replayed, a stays live")

        # purge: the key answers after the artifact is gone
        rc, p1 = call("delete", "c", "--purge", "--key", "purge-c", *S)
        assert rc == 0 and p1["purged"] and "replayed" not in p1, p1
        rc, p2 = call("delete", "c", "--purge", "--key", "purge-c", *S)
        assert rc == 0 and p2["purged"] and p2["replayed"] and p2["artifact_id"] == "c" and p2["head"] == 1, p2
        assert "kind" not in p2, p2  # gone: the id and the head it had
        rc, r = call("delete", "c", "--purge", *S)
        assert rc == 5, r
        rc, r = call("create", "-k", "document", "--id", "c", *S, spec)  # the id is free again
        assert rc == 0, r
        rc, r = call("delete", "c", "--purge", "--key", "purge-c", *S)  # still the first purge's answer
        assert rc == 0 and r["replayed"] and "c" in live(store), r
        # a purged artifact's delete key still answers (it is the first answer)
        rc, r = call("delete", "b", "--key", "del-b", *S)
        assert rc == 0, r
        rc, r = call("delete", "b", "--purge", *S)
        assert rc == 0, r
        rc, r = call("delete", "b", "--key", "del-b", *S)
        assert rc == 0 and r["replayed"], r
        # bad keys: usage
        for bad in ("", "a b", "x" * 256):
            rc, r = call("delete", "a", "--key", bad, *S)
            assert rc == 2 and r["code"] == "usage", (bad, r)
        print("delete --purge: repeated -> replayed after the artifact is gone (also once its id is reused)")

        # 8 processes, one keyed delete; 8 processes, one keyed purge
        for i in range(2):
            rc, r = call("create", "-k", "document", "--id", "burst%d" % i, *S, spec)
            assert rc == 0, r
        outs = burst(["delete", "burst0", "--key", "burst-del", *S])
        assert all(rc == 0 for rc, _ in outs), outs
        assert sum(1 for _, r in outs if not r.get("replayed")) == 1, outs
        assert "burst0" in trashed(store)
        outs = burst(["delete", "burst1", "--purge", "--key", "burst-purge", *S])
        assert all(rc == 0 and r["purged"] for rc, r in outs), outs
        assert sum(1 for _, r in outs if not r.get("replayed")) == 1, outs
        rc, r = call("store", "quota", "default", *S)
        print("8 concurrent identical keyed deletes: 1 effect, 7 replays; the same for a keyed purge")

        # SIGKILL at random moments, then the same key until it answers
        rng = random.Random(31)
        n = 8
        for i in range(n):
            rc, r = call("create", "-k", "document", "--id", "k%d" % i, *S, spec)
            assert rc == 0, r
        committed = 0
        for i in range(n):
            for cmd, key in (("delete", "kd-%d" % i), ("undelete", "ku-%d" % i)):
                args = [cmd, "k%d" % i, "--key", key, *S]
                p = subprocess.Popen([QUIRE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(rng.uniform(0.0, 0.04))
                p.send_signal(signal.SIGKILL)
                p.wait()
                committed += bool(until_answered(args).get("replayed"))
            # the delete's key again, after the undelete: still a replay
            r = until_answered(["delete", "k%d" % i, "--key", "kd-%d" % i, *S])
            assert r["replayed"], r
        assert all("k%d" % i in live(store) for i in range(n)), live(store)
        assert not [t for t in trashed(store) if t.startswith("k")], trashed(store)
        print("SIGKILL x %d keyed deletes and undeletes, then the same key: each once (%d had committed)"
              % (2 * n, committed))

        if backend() == "folder":
            folder_pending(store, S, spec)
        else:
            restart_round(store, S, spec)

        rc, r = call("fsck", *S)
        assert rc == 0 and not r["problems"], r
        print("fsck clean")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


def restart_round(store, S, spec):
    """Keyed deletes and undeletes from 4 threads while the server stops and
    starts again: every call repeated with its key until it answers."""
    ids = ["rs%d" % i for i in range(24)]
    for aid in ids:
        rc, r = call("create", "-k", "document", "--id", aid, *S, spec)
        assert rc == 0, r
    moves, unknown, errors = [], [], []

    def mover(w, stop):
        mine = ids[w::4]
        rnd = 0
        while not stop.is_set() and not errors:
            for aid in mine:
                for cmd in ("delete", "undelete"):
                    key = "%s-%s-%d" % (cmd, aid, rnd)
                    rc, r = repeat_keyed((cmd, aid, "--key", key, *S), unknown)
                    if rc != 0:
                        errors.append((cmd, aid, rc, r))
                        return
                    moves.append(key)
            rnd += 1

    under_restarts(mover, settle=0.5)
    assert not errors, errors[:3]
    assert sorted(a for a in live(store) if a.startswith("rs")) == sorted(ids), live(store)
    for r in unknown:
        assert "the same --key" in r["errors"][0]["hint"], r
    # every key, repeated now, is a replay
    for key in moves[::7]:
        cmd, aid = key.split("-")[0], key.split("-")[1]
        rc, r = call(cmd, aid, "--key", key, *S)
        assert rc == 0 and r["replayed"], (key, r)
    print("server restarted 3 times under 4 threads of keyed deletes and undeletes: %d moves, never "
          "not_found, all live; %d lost-while-committing answers repeated safely" % (len(moves), len(unknown)))


def record(store, key):
    import hashlib
    return os.path.join(store, ".keys", hashlib.sha256(key.encode()).hexdigest() + ".json")


def set_done(path, done):
    with open(path) as f:
        j = json.load(f)
    j["done"] = done
    with open(path, "w") as f:
        json.dump(j, f)
    return j


def done(path):
    with open(path) as f:
        return json.load(f)["done"]


def folder_pending(store, S, spec):
    """Records as a writer killed between its commit point and its "done"
    leaves them, and one killed before its commit point."""
    rc, r = call("create", "-k", "document", "--id", "p1", *S, spec)
    assert rc == 0, r
    # killed after the marker: pending, the marker vouches
    rc, r = call("delete", "p1", "--key", "pend-del", *S)
    assert rc == 0, r
    set_done(record(store, "pend-del"), False)
    rc, r = call("delete", "p1", "--key", "pend-del", *S)
    assert rc == 0 and r["replayed"], r
    # an undelete takes the marker away: it marks the delete done first
    rc, r = call("undelete", "p1", *S)
    assert rc == 0, r
    assert done(record(store, "pend-del")) is True
    rc, r = call("delete", "p1", "--key", "pend-del", *S)
    assert rc == 0 and r["replayed"] and "p1" in live(store), r
    # killed before the marker: pending, nothing vouches: the retry deletes
    j = set_done(record(store, "pend-del"), False)
    j["key"] = "pend-del-2"
    with open(record(store, "pend-del-2"), "w") as f:
        json.dump(j, f)
    rc, r = call("delete", "p1", "--key", "pend-del-2", *S)
    assert rc == 0 and "replayed" not in r and "p1" in trashed(store), r  # the retry does the work
    # a keyed undelete killed after its rename: "undeleted" vouches; fsck --repair settles it
    rc, r = call("create", "-k", "document", "--id", "p2", *S, spec)
    rc, r = call("delete", "p2", *S)
    assert rc == 0, r
    rc, r = call("undelete", "p2", "--key", "pend-undel", *S)
    assert rc == 0, r
    rec = set_done(record(store, "pend-undel"), False)
    import hashlib
    with open(os.path.join(store, "p2", "undeleted"), "w") as f:
        json.dump({"deleted": "2026-01-01T00:00:00Z", "undelete_key": hashlib.sha256(b"pend-undel").hexdigest()}, f)
    rc, r = call("undelete", "p2", "--key", "pend-undel", *S)
    assert rc == 0 and r["replayed"], r
    rc, r = call("fsck", *S)
    assert rc == 0 and "p2/undeleted" in [s["path"] for s in r["stray"]] and not r["problems"], r
    rc, r = call("fsck", "--repair", *S)
    assert rc == 0 and r["repaired"] >= 1, r
    assert done(record(store, "pend-undel")) is True and not os.path.exists(os.path.join(store, "p2", "undeleted"))
    rc, r = call("undelete", "p2", "--key", "pend-undel", *S)
    assert rc == 0 and r["replayed"], r
    # a keyed purge killed after its rename: the moved folder vouches; fsck --repair settles it
    rc, r = call("create", "-k", "document", "--id", "p3", *S, spec)
    rc, r = call("delete", "p3", "--purge", "--key", "pend-purge", *S)
    assert rc == 0, r
    j = set_done(record(store, "pend-purge"), False)
    os.mkdir(os.path.join(store, j["moved_to"]))
    rc, r = call("delete", "p3", "--purge", "--key", "pend-purge", *S)
    assert rc == 0 and r["replayed"], r
    rc, r = call("fsck", "--repair", *S)
    assert rc == 0, r
    assert done(record(store, "pend-purge")) is True and not glob.glob(os.path.join(store, ".tmp.del.*"))
    rc, r = call("delete", "p3", "--purge", "--key", "pend-purge", *S)
    assert rc == 0 and r["replayed"], r
    # ... and with neither its folder nor "done": not honoured
    set_done(record(store, "pend-purge"), False)
    rc, r = call("delete", "p3", "--purge", "--key", "pend-purge", *S)
    assert rc == 5 and r["code"] == "not_found", r
    print("folder: pending records honoured while their marker vouches; undelete and fsck --repair mark "
          "them done; an unvouched one is not honoured")


if __name__ == "__main__":
    main()
