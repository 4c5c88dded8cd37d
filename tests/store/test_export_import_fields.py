#!/usr/bin/env python3
"""test_export_import_fields.py: two small breakages of issue 31.

- `quire export ID --version N -o v3.pdf` of a document wrote docx bytes
  under a .pdf name with exit 0: now a usage error (exit 2) naming the
  format the artifact exports as (and how to get another), nothing written;
  its own extension (any case), or a name of no format quire writes,
  still exports.
- `quire import`'s result lacked filename, mime_type, size, pages: it now
  carries every field of create's result (and "source").
Both backends.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE, call as run, close_all, new_store  # noqa: E402


def main():
    tmp = tempfile.mkdtemp(prefix="quire-exim-")
    try:
        store = new_store(tmp)
        S = ["--store", store]
        spec = os.path.join(tmp, "s.json")
        with open(spec, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "hello"}]}, f)
        rc, c = run("create", "-k", "document", "--id", "d1", "--title", "Report", *S, spec)
        assert rc == 0, c
        for name in ("v1.pdf", "v1.xlsx", "v1.PNG", "v1.html"):
            out = os.path.join(tmp, name)
            rc, r = run("export", "d1", "--version", "1", "-o", out, *S)
            assert rc == 2 and r["code"] == "usage" and ".docx" in r["error"], (name, r)
            assert not os.path.exists(out), name
        for name in ("v1.DOCX", "v1.bin", "v1"):  # its own format, or a name of no format
            rc, r = run("export", "d1", "--version", "1", "-o", os.path.join(tmp, name), *S)
            assert rc == 0 and r["size"] == c["size"], (name, r)
        print("export -o named for another format: exit 2, nothing written; .DOCX, .bin, none export")

        docx = os.path.join(tmp, "in.docx")
        p = subprocess.run([QUIRE, "render", spec, "-o", docx], capture_output=True, text=True)
        assert p.returncode == 0, p.stdout
        rc, imp = run("import", docx, "--owner", "u1", *S)
        assert rc == 0, imp
        missing = set(c) - set(imp)
        assert not missing, missing
        assert imp["filename"].endswith(".docx") and imp["size"] == os.path.getsize(docx), imp
        assert imp["mime_type"] == c["mime_type"] and imp["pages"] == c["pages"] and imp["head"] == 1, imp
        assert imp["action"] == "import" and imp["owner"] == "u1" and imp["source"] == docx, imp
        print("import: every field of create's result:", sorted(imp))
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
