#!/usr/bin/env python3
"""test_quota.py: owner quotas hold exactly under 8 concurrent creators;
bad ids are refused and nothing leaves the store; a failed edit, rewrite or
over-quota write appends no version.

  - artifact count: --max-artifacts 5, 8 processes x 3 `quire create` at
    once: exactly 5 succeed, 19 fail with exit 4 and DocsGPT's message;
  - total bytes: each create costs exactly C bytes (spec + rendered file);
    with --max-bytes 7.5 C and 24 concurrent creates exactly 7 succeed;
  - per-file cap: --max-version-bytes below the rendered size: exit 4;
  - ids "../x", "/abs/x", "", "a/b", 65 characters: exit 2 for every command,
    and no file appears outside the store folder;
  - after all of that `quire fsck` passes: the ledgers equal a recount.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, artifact_ids, backend, close_all, new_store, owner_bytes, run  # noqa: E402


CREATOR = r'''
import json, subprocess, sys
quire, store, spec_dir, w = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
extra = sys.argv[5:]
res = []
for i in range(3):
    p = subprocess.run([quire, "create", "-k", "html", "--owner", "olga", "--store", store, *extra,
                        "%s/s%d-%d.json" % (spec_dir, w, i)], capture_output=True, text=True)
    res.append([p.returncode, p.stdout])
print(json.dumps(res))
'''


def write_specs(d):
    for w in range(8):
        for i in range(3):
            with open(os.path.join(d, "s%d-%d.json" % (w, i)), "w") as f:
                json.dump({"title": "T%d%d" % (w, i), "blocks": [{"type": "paragraph", "text": "same length"}]}, f)


def creators(store, spec_dir, extra):
    procs = [subprocess.Popen([sys.executable, "-c", CREATOR, QUIRE, store, spec_dir, str(w), *extra],
                              stdout=subprocess.PIPE, text=True) for w in range(8)]
    results = []
    for p in procs:
        out, _ = p.communicate()
        assert p.returncode == 0
        results += json.loads(out)
    return results


def artifacts_in(store):
    return artifact_ids(store)


def fsck_ok(store):
    rc, out, err = run("fsck", "--store", store)
    r = json.loads(out)
    assert rc == 0 and r["status"] == "ok" and r["problems"] == [] and r["stray"] == [], out


def main():
    tmp = tempfile.mkdtemp(prefix="quire-quota-")
    try:
        specs = os.path.join(tmp, "specs")
        os.mkdir(specs)
        write_specs(specs)

        # -- artifact count
        print("backend: %s" % backend())
        store = new_store(tmp, "count")
        res = creators(store, specs, ["--max-artifacts", "5"])
        ok = [r for r in res if r[0] == 0]
        over = [r for r in res if r[0] != 0]
        assert len(ok) == 5, [r[0] for r in res]
        for rc, out in over:
            assert rc == 4, (rc, out)
            r = json.loads(out)
            assert r["error"] == "artifact count quota reached (5); delete artifacts to free space", r
            assert r["errors"][0]["message"] == r["error"]
        assert len(artifacts_in(store)) == 5
        fsck_ok(store)
        print("count quota: 5 of 24 concurrent creates succeeded")

        # -- total bytes: measure one create's cost
        probe = new_store(tmp, "probe")
        rc, out, err = run("create", "-k", "html", "--id", "p", "--store", probe, os.path.join(specs, "s0-0.json"))
        assert rc == 0, err
        rc, out, err = run("log", "p", "--store", probe)
        v1 = json.loads(out)["versions"][0]
        meta = {"spec_size": v1["spec_size"], "output": {"size": v1["size"]}}
        if backend() == "folder":
            with open(os.path.join(probe, "p", "v000001.meta")) as f:
                on_disk = json.load(f)
            assert (on_disk["spec_size"], on_disk["output"]["size"]) == (v1["spec_size"], v1["size"])
        cost = meta["spec_size"] + meta["output"]["size"]
        store = new_store(tmp, "bytes")
        limit = 7 * cost + cost // 2
        res = creators(store, specs, ["--max-bytes", str(limit)])
        ok = [json.loads(r[1]) for r in res if r[0] == 0]
        over = [r for r in res if r[0] != 0]
        assert len(ok) == 7, [r[0] for r in res]
        assert all(r["size"] + 0 == meta["output"]["size"] for r in ok)
        for rc, out in over:
            assert rc == 4, (rc, out)
            assert json.loads(out)["error"] == \
                "artifact storage quota reached (%d bytes); delete artifacts to free space" % limit
        assert owner_bytes(store, "olga") == 7 * cost
        fsck_ok(store)
        print("byte quota: 7 of 24 concurrent creates fit in %d bytes (%d each)" % (limit, cost))

        # -- per-file cap, and a failed write appends nothing
        store = new_store(tmp, "cap")
        rc, out, err = run("create", "-k", "html", "--id", "a", "--store", store, os.path.join(specs, "s0-0.json"))
        assert rc == 0, err
        size = json.loads(out)["size"]
        big = os.path.join(tmp, "big.json")
        with open(big, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "z" * 5000}]}, f)
        rc, out, err = run("edit", "a", "--append", big, "--store", store, "--max-version-bytes", str(size + 100))
        assert rc == 4, out
        assert json.loads(out)["error"].startswith("artifact is too large: "), out
        assert json.loads(out)["error"].endswith(" bytes exceeds the %d-byte per-file cap" % (size + 100)), out
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump([{"op": "add", "path": "/blocks/0/level", "value": 1}], f)
        rc, out, err = run("edit", "a", "--ops", bad, "--store", store)
        assert rc == 1, out
        assert json.loads(out)["errors"][0]["path"] == "/blocks/0/level", out
        with open(bad, "w") as f:
            json.dump({"title": "x", "blocks": [{"type": "heading", "text": "h", "level": 7}]}, f)
        rc, out, err = run("rewrite", "a", bad, "--store", store)
        assert rc == 1 and json.loads(out)["errors"][0]["path"] == "/blocks/0/level", out
        rc, out, err = run("log", "a", "--store", store)
        assert json.loads(out)["head"] == 1, out
        fsck_ok(store)

        # -- ids
        outside = os.path.join(tmp, "outside")
        os.mkdir(outside)
        store = os.path.join(outside, "store") if backend() == "folder" else new_store(tmp)
        spec = os.path.join(specs, "s0-0.json")
        for bad_id in ("../x", "/abs/x", os.path.join(tmp, "abs"), "", "a/b", ".", "..", "x" * 65):
            for cmd in (["create", "-k", "html", "--id", bad_id, spec], ["show", bad_id], ["log", bad_id],
                        ["edit", bad_id, "--append", big], ["rewrite", bad_id, spec], ["restore", bad_id, "1"],
                        ["export", bad_id, "-o", os.path.join(tmp, "o.html")], ["diff", bad_id, "1", "1"]):
                rc, out, err = run(*cmd, "--store", store)
                assert rc == 2, (cmd, rc, out)
                assert "invalid artifact id" in json.loads(out)["error"], out
        assert sorted(os.listdir(outside)) == (["store"] if backend() == "folder" else []), os.listdir(outside)
        assert not os.path.exists(os.path.join(tmp, "x")) and not os.path.exists(os.path.join(tmp, "abs"))
        assert artifacts_in(store) == []
        rc, out, err = run("create", "-k", "html", "--id", "x" * 64, spec, "--store", store)
        assert rc == 0, out
        print("ids: bad ones refused by every command; nothing outside the store")
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
