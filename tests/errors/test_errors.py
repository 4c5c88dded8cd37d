#!/usr/bin/python3
"""The bad-input catalogue (fixtures/errors/, written by catalogue.py): every
case must exit with its code, report exactly its error paths (as a set, in the
compiler's order), leave no output file, and print the messages recorded in
errors.txt (QUIRE_UPDATE_GOLDEN=1 rewrites errors.txt). Ends with
"N passed, N failed"."""
import json
import os
import subprocess
import sys
import tempfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
UPDATE = os.environ.get("QUIRE_UPDATE_GOLDEN") == "1"
EXT = {"document": "docx", "spreadsheet": "xlsx", "presentation": "pptx", "pdf": "pdf", "html": "html"}


def main():
    root = os.path.join(SRC, "fixtures", "errors")
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="quire-errors-")
    for case in sorted(os.listdir(root)):
        d = os.path.join(root, case)
        with open(os.path.join(d, "expect.json")) as f:
            exp = json.load(f)
        out = os.path.join(tmp, "out." + EXT[exp["kind"]])
        p = subprocess.run([QUIRE, "render", os.path.join(d, "spec.json"), "-o", out, "-k", exp["kind"]],
                           capture_output=True, timeout=60)
        problems = []
        lines = p.stdout.decode("utf-8", "replace").splitlines()
        res = None
        if len(lines) != 1:
            problems.append("expected one JSON line, got %r" % lines[:3])
        else:
            try:
                res = json.loads(lines[0])
            except ValueError as e:
                problems.append("result is not JSON: %s" % e)
        if p.returncode != exp["exit"]:
            problems.append("exit %d, expected %d" % (p.returncode, exp["exit"]))
        if p.returncode < 0:
            problems.append("crashed with signal %d" % -p.returncode)
        if os.path.exists(out):
            problems.append("an output file was written")
            os.unlink(out)
        if [n for n in os.listdir(tmp) if n.startswith(".")]:
            problems.append("a temp file was left behind")
        if res is not None:
            errs = res.get("errors", [])
            got = sorted(e["path"] for e in errs)
            if res.get("status") != "error":
                problems.append("status %r" % res.get("status"))
            if got != sorted(exp["paths"]):
                problems.append("paths %r, expected %r" % (got, sorted(exp["paths"])))
            text = "".join("%s: %s%s\n" % (e["path"], e["message"], " (%s)" % e["hint"] if e.get("hint") else "")
                           for e in errs)
            golden = os.path.join(d, "errors.txt")
            if UPDATE:
                with open(golden, "w", encoding="utf-8") as f:
                    f.write(text)
            elif not os.path.exists(golden):
                problems.append("no errors.txt (run with QUIRE_UPDATE_GOLDEN=1)")
            else:
                with open(golden, encoding="utf-8") as f:
                    want = f.read()
                if want != text:
                    problems.append("messages differ:\n    want: %r\n    got:  %r" % (want, text))
        if problems:
            failed += 1
            print("FAIL %s: %s" % (case, "; ".join(problems)))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
