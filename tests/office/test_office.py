#!/usr/bin/python3
"""Every fixture of every OOXML kind opens in LibreOffice: render each
fixtures/<case>/spec.json to its OOXML format (slides -> .pptx, sheets ->
.xlsx, the document vocabulary -> .docx), then run ../shared/tools/
office-smoke once per format on the whole batch (one soffice start per
kind). Each file must render, load and export a PDF with pages.
QUIRE_OFFICE_FORMATS=docx,xlsx limits the formats. Ends with
"N passed, N failed"."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import SHARED, SKIP, need, skipped, unittest_exit  # noqa: E402
KIND = {"docx": "document", "xlsx": "spreadsheet", "pptx": "presentation"}


def format_of(spec):
    if isinstance(spec, str):  # a spec sent as a JSON string
        try:
            spec = json.loads(spec)
        except ValueError:
            return "docx"
    if isinstance(spec, dict) and "slides" in spec:
        return "pptx"
    if isinstance(spec, dict) and "sheets" in spec:
        return "xlsx"
    return "docx"


def main():
    if not shutil.which("soffice") and not shutil.which("libreoffice"):
        print("LibreOffice (soffice) is not installed: bash scripts/setup.sh installs it")
        return 1
    SMOKE = need("tools/office-smoke")
    if not SMOKE:
        return SKIP
    want = set(os.environ.get("QUIRE_OFFICE_FORMATS", "docx,xlsx,pptx").split(","))
    root = os.path.join(SRC, "fixtures")
    tmp = tempfile.mkdtemp(prefix="quire-office-")
    passed = failed = 0
    batches = {}
    try:
        for case in sorted(os.listdir(root)):
            path = os.path.join(root, case, "spec.json")
            if case == "errors" or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                fmt = format_of(json.loads(f.read().decode("utf-8")))
            if fmt not in want:
                continue
            out = os.path.join(tmp, fmt, case + "." + fmt)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            p = subprocess.run([QUIRE, "render", path, "-o", out, "-k", KIND[fmt]], capture_output=True, timeout=300)
            if p.returncode != 0 or not os.path.exists(out):
                failed += 1
                print("FAIL %s.%s: render exit %d: %s" % (case, fmt, p.returncode,
                                                         p.stdout.decode("utf-8", "replace")[:300]))
                continue
            batches.setdefault(fmt, []).append(out)
        for fmt in sorted(batches):
            files = batches[fmt]
            profile = os.path.join(tmp, "profile-" + fmt)
            p = subprocess.run([SMOKE, "--profile", profile] + files, capture_output=True, timeout=1800)
            text = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
            for f in files:
                name = os.path.basename(f)
                ok = re.search(r"^ok \S*%s \(" % re.escape(name), text, re.M)
                if ok and p.returncode in (0, 1):
                    passed += 1
                    print("ok   %s" % name)
                else:
                    failed += 1
                    lines = [l for l in text.splitlines() if name in l] or text.splitlines()[-3:]
                    print("FAIL %s: %s" % (name, " | ".join(lines)[:500]))
            if p.returncode not in (0, 1):
                failed += 1
                print("FAIL office-smoke %s exited %d: %s" % (fmt, p.returncode, text[-500:]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
