#!/usr/bin/env python3
"""test_big_edit.py: an ops edit of a big sheet stores the bytes it always
did (issue 22 item 5: the edit now parses once and writes canonical JSON
from the tree; the sha256 runs on the CPU's SHA extensions), on both
backends.

A 30,000-row sheet of every scalar kind (integers, short, long, tiny and
integral reals, strings with quotes, tabs and non-ASCII, booleans, nulls),
made by a fixed generator, is created; then one ops edit replaces a cell
and appends a row. Checked:
  - version 2's spec has the sha256 the store wrote before this work
    (GOLDEN_V2, from the binary of the branch point), and is exactly
    `quire fmt` (the text path) of the same edit applied in Python;
  - the log's spec_sha256 and sha256 are hashlib's over the stored spec and
    the exported file (the SHA extensions against Python's SHA-256);
  - the stored output is byte for byte `quire render` of version 2's spec.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, backend, close_all, new_store  # noqa: E402

ROWS = 30000
GOLDEN_V1 = "4b02e24bc1d40230efe2b445c44aa9cfc83263c2e9736f05336cf44da0312857"
GOLDEN_V2 = "75e98edee63ce3835a2ce27275ff9ca818f7631a7d68ca610a48464255c0d6a6"
OPS = [{"op": "replace", "path": "/sheets/0/rows/7/1", "value": "edited"},
       {"op": "add", "path": "/sheets/0/rows/-", "value": [30001, "x", None, 1, 2.5, 0.1, 3.0, True, "é", -1e-9]}]


def sheet(rows):
    out = []
    x = 12345
    for i in range(rows):
        x = (x * 1103515245 + 12345) % 2147483648
        out.append([i + 1, "SKU-%07d" % (x % 9999999), ["North", "Süd", "Ōsaka", "tab\there"][x % 4],
                    x % 1000, (x % 100000) / 100.0, x / 2147483648.0, float(x % 7), x % 3 == 0,
                    None if x % 5 == 0 else "note \"%d\"" % (x % 97), -(x % 1000) * 1e-7])
    return {"title": "Big", "sheets": [{"name": "Data", "columns": ["id", "sku", "region", "qty", "price", "ratio",
                                                                   "whole", "flag", "note", "tiny"], "rows": out}]}


def run(*args):
    p = subprocess.run([QUIRE, *args], capture_output=True)
    return p.returncode, p.stdout, p.stderr


def main():
    tmp = tempfile.mkdtemp(prefix="quire-bigedit-")
    print("backend: %s" % backend())
    try:
        store = new_store(tmp)
        spec = sheet(ROWS)
        path = os.path.join(tmp, "big.json")
        with open(path, "w") as f:
            json.dump(spec, f, ensure_ascii=False)
        ops = os.path.join(tmp, "ops.json")
        with open(ops, "w") as f:
            json.dump(OPS, f)
        rc, out, err = run("create", "-k", "spreadsheet", "--id", "big", "--store", store, path)
        assert rc == 0, (out, err)
        rc, out, err = run("edit", "big", "--ops", ops, "--store", store)
        assert rc == 0 and json.loads(out)["version"] == 2, (out, err)

        rc, v1, err = run("show", "big", "--version", "1", "--store", store)
        assert rc == 0, err
        rc, v2, err = run("show", "big", "--store", store)
        assert rc == 0, err
        assert hashlib.sha256(v1).hexdigest() == GOLDEN_V1, hashlib.sha256(v1).hexdigest()
        assert hashlib.sha256(v2).hexdigest() == GOLDEN_V2, hashlib.sha256(v2).hexdigest()
        print("golden: versions 1 and 2 have the sha256 they had before (%d bytes)" % len(v2))

        spec["sheets"][0]["rows"][7][1] = "edited"
        spec["sheets"][0]["rows"].append(OPS[1]["value"])
        edited = os.path.join(tmp, "edited.json")
        with open(edited, "w") as f:
            json.dump(spec, f, ensure_ascii=False)
        rc, fmt, err = run("fmt", edited)
        assert rc == 0, err
        assert fmt == v2, "the edit's spec differs from quire fmt of the same edit"
        print("text path: version 2 is quire fmt of the edit applied in Python")

        rc, out, err = run("log", "big", "--store", store)
        assert rc == 0, err
        head = json.loads(out)["versions"][-1]
        assert head["spec_sha256"] == hashlib.sha256(v2).hexdigest() and head["spec_size"] == len(v2), head
        got = os.path.join(tmp, "export.xlsx")
        rc, out, err = run("export", "big", "-o", got, "--store", store)
        assert rc == 0, (out, err)
        with open(got, "rb") as f:
            data = f.read()
        assert head["sha256"] == hashlib.sha256(data).hexdigest() and head["size"] == len(data), head
        print("hashes: the log's spec_sha256 and sha256 are hashlib's")

        with open(os.path.join(tmp, "v2.json"), "wb") as f:
            f.write(v2)
        fresh = os.path.join(tmp, "fresh.xlsx")
        rc, out, err = run("render", os.path.join(tmp, "v2.json"), "-o", fresh)
        assert rc == 0, (out, err)
        with open(fresh, "rb") as f:
            assert f.read() == data, "the stored output differs from a render of its spec"
        print("output: the stored file is quire render of version 2's spec")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
