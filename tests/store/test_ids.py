#!/usr/bin/env python3
"""test_ids.py: artifact ids compare case-insensitively and start with a
letter or digit (issue 17 item 13), on both backends.

  - after `create --id dup`, `create --id DUP` (and "Dup") is refused with
    exit 2 "already exists", also when 8 processes create "dup"/"DUP"/... at
    once: exactly one succeeds;
  - `show DUP`, `log Dup`, `edit DUP` reach "dup" (its stored spelling);
  - ids starting with "-" or "_" are refused with exit 2 (`--id -rf`);
    nothing is stored.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, artifact_ids, backend, close_all, new_store, run  # noqa: E402


def main():
    tmp = tempfile.mkdtemp(prefix="quire-ids-")
    print("backend: %s" % backend())
    try:
        store = new_store(tmp)
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": []}, f)
        rc, out, err = run("create", "-k", "html", "--id", "dup", "--store", store, spec)
        assert rc == 0, out
        for other in ("DUP", "Dup", "dUp"):
            rc, out, err = run("create", "-k", "html", "--id", other, "--store", store, spec)
            assert rc == 6 and json.loads(out)["error"] == 'artifact "%s" already exists' % other, out
            assert json.loads(out)["code"] == "conflict", out
        assert artifact_ids(store) == ["dup"]
        rc, out, err = run("show", "DUP", "--store", store)
        assert rc == 0 and json.loads(out)["title"] == "T", out
        app = os.path.join(tmp, "a.json")
        with open(app, "w") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": "x"}]}, f)
        rc, out, err = run("edit", "Dup", "--append", app, "--store", store)
        assert rc == 0 and json.loads(out)["artifact_id"] == "dup" and json.loads(out)["version"] == 2, out
        rc, out, err = run("log", "dUP", "--store", store)
        assert rc == 0 and json.loads(out)["head"] == 2, out
        print("case: DUP, Dup refused beside dup; show/edit/log DUP reach dup")

        procs = [subprocess.Popen([QUIRE, "create", "-k", "html", "--id", name, "--store", store, spec],
                                  stdout=subprocess.PIPE, text=True)
                 for name in ("race", "RACE", "Race", "rAce", "raCe", "racE", "RAce", "raCE")]
        codes = [p.wait() for p in procs]
        for p in procs:
            p.stdout.close()
        assert sorted(codes) == [0] + [6] * 7, codes  # one wins, the others: conflict
        assert [i for i in artifact_ids(store) if i.lower() == "race"] != [] and \
            len([i for i in artifact_ids(store) if i.lower() == "race"]) == 1, artifact_ids(store)
        print("race: 8 concurrent creates of race/RACE/...: exactly one stored")

        for bad in ("-rf", "_x", "-", "_"):
            rc, out, err = run("create", "-k", "html", "--id", bad, "--store", store, spec)
            assert rc == 2 and "invalid artifact id" in json.loads(out)["error"], (bad, out)
            assert "starting with a letter or digit" in json.loads(out)["errors"][0]["hint"], out
        assert len(artifact_ids(store)) == 2
        rc, out, err = run("fsck", "--store", store)
        assert rc == 0 and json.loads(out)["problems"] == [], out
        print("ok: ids starting with - or _ refused")
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
