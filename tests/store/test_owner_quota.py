#!/usr/bin/env python3
"""test_owner_quota.py: per-owner quotas kept in the store (quire store quota
OWNER --artifacts N --bytes B; qr_store_quota_set/get), enforced exactly
across processes and replicas.

- `store quota OWNER` shows the limits in force, whether each is the
  owner's own or the handle's default (--max-artifacts / QUIRE_MAX_ARTIFACTS),
  and the usage; `--artifacts default` goes back to the default.
- 8 concurrent writers in two "replicas" (2 x 4 CLI processes, each its own
  connection pool) create artifacts of an owner whose own quota is 10:
  exactly 10 are accepted, every other attempt is exit 4, code "quota".
- Two binding processes (separate stores, each with its pool) x 4 threads
  against a byte quota of the first artifact plus 6 more specs: exactly 7.
- Another owner keeps the process-wide default; fsck is clean after.
- Under --owner a quota cannot be set (usage), and only the owner's shown.
Both backends.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, binding_env, call as run, close_all, new_store  # noqa: E402


# one "replica": 4 writers, each its own process (so its own pool), 4 creates each
REPLICA = r"""
import json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
quire, store, spec, tag = sys.argv[1:5]
def writer(w):
    out = []
    for i in range(4):
        p = subprocess.run([quire, "create", "-k", "document", "--owner", "q1", "--id",
                            "%s-%d-%d" % (tag, w, i), "--store", store, spec],
                           capture_output=True, text=True)
        out.append((p.returncode, json.loads(p.stdout).get("code")))
    return out
with ThreadPoolExecutor(4) as ex:
    print(json.dumps([r for rs in ex.map(writer, range(4)) for r in rs]))
"""

# one binding "replica": a Store (its own pool) shared by 4 threads
BINDING = r"""
import json, os, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.join(os.environ["QUIRE_SOURCE_DIR"], "bindings", "python"))
import quire
store, spec, tag = sys.argv[1:4]
st = quire.Store(store, no_sync=True)
spec = json.load(open(spec))
def writer(w):
    out = []
    for i in range(3):
        try:
            st.create("document", spec, id="%s-%d-%d" % (tag, w, i), owner="q2")
            out.append("ok")
        except quire.QuotaError as e:
            out.append("quota")
    return out
with ThreadPoolExecutor(4) as ex:
    print(json.dumps([r for rs in ex.map(writer, range(4)) for r in rs]))
"""


def main():
    tmp = tempfile.mkdtemp(prefix="quire-oquota-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]}, f)

        rc, r = run("create", "-k", "document", "--owner", "q1", "--id", "first", *S, spec)
        assert rc == 0, r
        rc, r = run("store", "quota", "q1", *S)
        assert rc == 0 and r["max_artifacts"] == 5000 and r["own"] == {"artifacts": False, "bytes": False}, r
        assert r["artifacts"] == 1 and r["bytes"] > 0, r
        rc, r = run("store", "quota", "q1", "--max-artifacts", "7", *S)  # the handle's default shows
        assert r["max_artifacts"] == 7 and not r["own"]["artifacts"], r
        rc, r = run("store", "quota", "q1", "--artifacts", "10", *S)
        assert rc == 0 and r["max_artifacts"] == 10 and r["own"]["artifacts"] and not r["own"]["bytes"], r
        rc, r = run("store", "quota", "q1", "--max-artifacts", "3", *S)  # the owner's own wins
        assert r["max_artifacts"] == 10, r
        for bad in (["--artifacts", "-1"], ["--bytes", "lots"]):
            rc, r = run("store", "quota", "q1", *bad, *S)
            assert rc == 2 and r["code"] == "usage", (bad, r)
        rc, r = run("store", "quota", "q1", "--artifacts", "5", "--owner", "q1", *S)
        assert rc == 2 and r["code"] == "usage", r
        rc, r = run("store", "quota", "q1", "--owner", "q1", *S)
        assert rc == 0 and r["max_artifacts"] == 10, r
        rc, r = run("store", "quota", "q1", "--owner", "q2", *S)
        assert rc == 2 and r["code"] == "usage", r
        print("store quota: shown, set, own vs default; refused under --owner")

        # 2 replicas x 4 writers x 4 creates against 10 (1 used): exactly 9 more
        procs = [subprocess.Popen([sys.executable, "-c", REPLICA, QUIRE, store, spec, tag],
                                  stdout=subprocess.PIPE, text=True) for tag in ("ra", "rb")]
        results = []
        for p in procs:
            out, _ = p.communicate(timeout=300)
            assert p.returncode == 0, out
            results += json.loads(out)
        ok = sum(1 for rc, code in results if rc == 0)
        refused = sum(1 for rc, code in results if rc == 4 and code == "quota")
        assert len(results) == 32 and ok == 9 and refused == 23, results
        rc, r = run("store", "quota", "q1", *S)
        assert r["artifacts"] == 10, r
        rc, r = run("list", "--owner", "q1", *S)
        assert r["count"] == 10, r
        print("artifacts: 8 writers on 2 replicas, 32 creates against quota 10: exactly %d accepted, %d quota" % (ok + 1, refused))

        # the default stays for owners without their own
        rc, r = run("create", "-k", "document", "--owner", "other", *S, spec, "--max-artifacts", "1")
        assert rc == 0, r
        rc, r = run("create", "-k", "document", "--owner", "other", *S, spec, "--max-artifacts", "1")
        assert rc == 4 and r["code"] == "quota", r
        rc, r = run("store", "quota", "q1", "--artifacts", "default", *S)
        assert rc == 0 and r["max_artifacts"] == 5000 and not r["own"]["artifacts"], r
        print("owners without their own quota: the process-wide default")

        # bytes: identical specs share one rendered file; each more costs its spec bytes
        rc, r = run("create", "-k", "document", "--owner", "q2", "--id", "q2first", *S, spec)
        assert rc == 0, r
        rc, q = run("store", "quota", "q2", *S)
        rc, lg = run("log", "q2first", *S)
        spec_size = lg["versions"][0]["spec_size"]
        limit = q["bytes"] + 6 * spec_size
        rc, r = run("store", "quota", "q2", "--bytes", str(limit), *S)
        assert rc == 0 and r["max_bytes"] == limit and r["own"]["bytes"], r
        lib = os.environ.get("QUIRE_LIB")
        if lib:
            env = binding_env()
            procs = [subprocess.Popen([sys.executable, "-c", BINDING, store, spec, tag], env=env,
                                      stdout=subprocess.PIPE, text=True) for tag in ("ba", "bb")]
            results = []
            for p in procs:
                out, _ = p.communicate(timeout=300)
                assert p.returncode == 0, out
                results += json.loads(out)
            assert len(results) == 24 and results.count("ok") == 6 and results.count("quota") == 18, results
        else:  # no library to load: the same race from 8 CLI processes
            def one(i):
                return run("create", "-k", "document", "--owner", "q2", "--id", "c%d" % i, *S, spec)[0]
            with ThreadPoolExecutor(8) as ex:
                rcs = list(ex.map(one, range(24)))
            assert rcs.count(0) == 6 and rcs.count(4) == 18, rcs
        rc, r = run("store", "quota", "q2", *S)
        assert r["artifacts"] == 7 and r["bytes"] == limit, r
        print("bytes: 2 binding replicas x 4 threads, 24 creates against first + 6 specs: exactly 7, usage == limit")

        rc, r = run("fsck", *S)
        assert rc == 0 and not r["problems"], r
        rc, r = run("fsck", "--repair", *S)  # a rebuilt ledger keeps the owners' quotas
        rc, r = run("store", "quota", "q2", *S)
        assert r["max_bytes"] == limit and r["own"]["bytes"], r
        print("fsck clean; --repair keeps the quotas")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
