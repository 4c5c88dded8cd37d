#!/usr/bin/env python3
"""test_idempotency.py: idempotency keys (--key K) on create, import, edit,
rewrite and restore, on both backends.

  - the same key with the same request answers with the first result (same
    artifact id, same version, "replayed": true) and writes nothing;
  - the same key with another request is exit 6, code "conflict", naming
    the artifact and version the key wrote; nothing is written;
  - an invalid key is a usage error (exit 2); an edit's key on a delete
    is a conflict (keyed deletes: test_idempotency_trash.py);
  - 8 processes sending one keyed edit at once add exactly one version and
    all answer with it; 8 identical keyed creates without --id make one
    artifact and all answer with its id;
  - keyed edits killed (SIGKILL) at random moments, each then repeated with
    its key until it answers: exactly one version per key;
  - PostgreSQL: keyed edits while the server is stopped and started again,
    each repeated with its key until it answers: exactly one version per
    key, and a call that lost its connection while committing says that
    repeating with the same key is safe;
  - fsck is clean afterwards.
"""
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
from store import (QUIRE, backend, close_all, new_store, repeat_keyed, run_json as run, texts,  # noqa: E402
                   under_restarts, versions, write)


def main():
    tmp = tempfile.mkdtemp(prefix="quire-key-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = write(os.path.join(tmp, "s.json"), {"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]})
        spec2 = write(os.path.join(tmp, "s2.json"), {"title": "T", "blocks": [{"type": "paragraph", "text": "two"}]})
        app = write(os.path.join(tmp, "a.json"), {"blocks": [{"type": "paragraph", "text": "more"}]})
        app2 = write(os.path.join(tmp, "a2.json"), {"blocks": [{"type": "paragraph", "text": "other"}]})

        # create: the same request twice, then another request under the key
        rc, r1, _ = run("create", "-k", "document", "--title", "K", "--key", "c-1", *S, spec)
        assert rc == 0 and r1["version"] == 1 and "replayed" not in r1, r1
        rc, r2, _ = run("create", "-k", "document", "--title", "K", "--key", "c-1", *S, spec)
        assert rc == 0 and r2["replayed"] is True, r2
        for k in ("artifact_id", "version", "head", "filename", "size", "kind", "title", "action"):
            assert r1[k] == r2[k], (k, r1, r2)
        rc, r, err = run("create", "-k", "document", "--title", "other", "--key", "c-1", *S, spec)
        assert rc == 6 and r["code"] == "conflict", r
        assert r["error"] == ('the idempotency key "c-1" was used for another request (artifact "%s" version 1)'
                              % r1["artifact_id"]), r
        rc, r, _ = run("list", *S)
        assert len(r["artifacts"]) == 1, r
        aid = r1["artifact_id"]
        print("create: repeated -> same id and version, replayed; other request -> exit 6 conflict")

        # edit, rewrite, restore
        rc, e1, _ = run("edit", aid, "--append", app, "--key", "e-1", *S)
        assert rc == 0 and e1["version"] == 2, e1
        rc, e2, _ = run("edit", aid, "--append", app, "--key", "e-1", *S)
        assert rc == 0 and e2["version"] == 2 and e2["replayed"] and e2["head"] == 2, e2
        rc, r, _ = run("edit", aid, "--append", app2, "--key", "e-1", *S)
        assert rc == 6 and r["code"] == "conflict", r
        rc, r, _ = run("edit", aid, "--append", app, "--key", "e-1", "--if-version", "2", *S)
        assert rc == 6 and "another request" in r["error"], r  # if_version is part of the request
        rc, w1, _ = run("rewrite", aid, spec2, "--key", "w-1", *S)
        assert rc == 0 and w1["version"] == 3, w1
        rc, w2, _ = run("rewrite", aid, spec2, "--key", "w-1", *S)
        assert rc == 0 and w2["version"] == 3 and w2["replayed"], w2
        rc, x1, _ = run("restore", aid, "1", "--key", "r-1", *S)
        assert rc == 0 and x1["version"] == 4, x1
        rc, x2, _ = run("restore", aid, "1", "--key", "r-1", *S)
        assert rc == 0 and x2["version"] == 4 and x2["replayed"] and x2["action"] == "restore", x2
        # an earlier key still answers with its version; head says where the artifact is now
        rc, e3, _ = run("edit", aid, "--append", app, "--key", "e-1", *S)
        assert rc == 0 and e3["version"] == 2 and e3["head"] == 4 and e3["replayed"], e3
        assert len(versions(store, aid)) == 4
        print("edit, rewrite, restore: repeated -> the first version, nothing written")

        # import
        docx = os.path.join(tmp, "x.docx")
        rc, r, _ = run("export", aid, "--version", "1", "-o", docx, *S)
        assert rc == 0, r
        rc, i1, _ = run("import", docx, "--key", "i-1", *S)
        assert rc == 0 and i1["version"] == 1, i1
        rc, i2, _ = run("import", docx, "--key", "i-1", *S)
        assert rc == 0 and i2["artifact_id"] == i1["artifact_id"] and i2["replayed"], i2
        rc, r, _ = run("import", docx, "--key", "i-1", "--owner", "someone", *S)
        assert rc == 6 and r["code"] == "conflict", r
        print("import: repeated -> the same artifact")

        # bad keys; an edit's key on a delete (test_idempotency_trash.py: keyed deletes)
        for bad in ("", "a b", "x" * 256, "caf\u00e9"):
            rc, r, _ = run("edit", aid, "--append", app, "--key", bad, *S)
            assert rc == 2 and r["code"] == "usage", (bad, r)
        rc, r, _ = run("delete", aid, "--key", "e-1", *S)
        assert rc == 6 and r["code"] == "conflict", r
        assert len(versions(store, aid)) == 4
        print("invalid keys: exit 2; an edit's key on a delete: exit 6; nothing written")

        # 8 processes, one keyed edit
        procs = [subprocess.Popen([QUIRE, "edit", aid, "--append", app2, "--key", "burst", *S],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(8)]
        outs = [(p.wait(), p.stdout.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        assert all(rc == 0 for rc, _ in outs), outs
        got = {json.loads(o)["version"] for _, o in outs}
        assert got == {5}, outs
        assert sum(1 for _, o in outs if not json.loads(o).get("replayed")) == 1, outs
        assert len(versions(store, aid)) == 5
        # 8 identical keyed creates without an id
        procs = [subprocess.Popen([QUIRE, "create", "-k", "document", "--key", "burst-c", *S, spec],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(8)]
        outs = [(p.wait(), p.stdout.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        assert all(rc == 0 for rc, _ in outs), outs
        ids = {json.loads(o)["artifact_id"] for _, o in outs}
        assert len(ids) == 1, outs
        rc, r, _ = run("list", *S)
        assert len(r["artifacts"]) == 3, r  # aid, the import, this one
        print("8 concurrent identical keyed edits: 1 version; 8 keyed creates: 1 artifact")

        # SIGKILL at random moments, then the same key again until it answers
        rng = random.Random(31)
        before = len(versions(store, aid))
        n_keys = 12
        killed_done = 0
        for i in range(n_keys):
            f = write(os.path.join(tmp, "k%d.json" % i), {"blocks": [{"type": "paragraph", "text": "kill-%d" % i}]})
            args = [QUIRE, "edit", aid, "--append", f, "--key", "kill-%d" % i, *S]
            p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(rng.uniform(0.0, 0.1))
            p.send_signal(signal.SIGKILL)
            p.wait()
            for attempt in range(50):
                rc, r, _ = run(*args[1:])
                if rc == 0:
                    break
                assert rc == 7, r  # only an unavailable store is worth repeating
                time.sleep(0.1)
            assert rc == 0, r
            killed_done += bool(r.get("replayed"))
        vs = versions(store, aid)
        assert len(vs) == before + n_keys, (len(vs), before)
        t = texts(store, aid)
        for i in range(n_keys):
            assert t.count("kill-%d" % i) == 1, (i, t)
        print("SIGKILL x %d then the same key: one version per key (%d had committed before the kill)"
              % (n_keys, killed_done))

        if backend() == "pg":
            restart_round(tmp, store, aid)

        rc, r, _ = run("fsck", *S)
        assert rc == 0 and not r["problems"], r
        print("fsck clean")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


def restart_round(tmp, store, aid):
    """Keyed edits from 4 threads while the server stops and starts again."""
    S = ["--store", store]
    before = len(versions(store, aid))
    done, unknown, errors = [], [], []

    def writer(w, stop):
        i = 0
        while not stop.is_set():
            key = "rs-%d-%d" % (w, i)
            f = write(os.path.join(tmp, "%s.json" % key), {"blocks": [{"type": "paragraph", "text": key}]})
            rc, r = repeat_keyed(("edit", aid, "--append", f, "--key", key, *S), unknown)
            if rc != 0:
                errors.append((rc, r, key))
                return
            done.append(key)
            i += 1

    under_restarts(writer)
    assert not errors, errors[:3]
    vs = versions(store, aid)
    assert len(vs) == before + len(done), (len(vs), before, len(done))
    t = texts(store, aid)
    for key in done:
        assert t.count(key) == 1, (key, t.count(key))
    for r in unknown:
        assert "the same --key" in r["errors"][0]["hint"], r
    print("server restarted 3 times under 4 keyed writers: %d keys, %d versions, %d lost-while-committing "
          "answers repeated safely" % (len(done), len(vs) - before, len(unknown)))


if __name__ == "__main__":
    main()
