"""Cell comments of a workbook openpyxl writes (issue 38, then issue 33): the
spec gives each back as its cell's "comment" (an empty commented cell
becomes {"comment": ...} where it stands); markdown and text keep the
cells."""
import json
import os
import subprocess
import sys
import tempfile

QUIRE = os.environ.get("QUIRE", "build/quire")
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


try:
    import openpyxl
    from openpyxl.comments import Comment
except ImportError:
    print("skipped: openpyxl is not installed")
    sys.exit(77)

with tempfile.TemporaryDirectory() as tmp:
    x = os.path.join(tmp, "comments.xlsx")
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    ws.append(["Region", "Sales"])
    ws.append(["North", 120])
    ws["B2"].comment = Comment("Includes the March correction.", "Ann")
    ws["D9"].comment = Comment("A note on an empty cell", "Bob")
    wb.create_sheet("Clean").append(["no comments"])
    wb.save(x)
    for to in ("spec", "markdown", "text"):
        r = subprocess.run([QUIRE, "read", x, "--to", to], capture_output=True, text=True,
                           timeout=60)
        expect("%s: read" % to, r.returncode == 0, r.stderr)
        if to == "spec":
            sheets = json.loads(r.stdout)["sheets"]
            want = [["Region", "Sales"],
                    ["North", {"value": 120, "comment": "Includes the March correction."}],
                    [], [], [], [], [], [],
                    [None, None, None, {"comment": "A note on an empty cell"}]]
            expect("spec: the comments on their cells", sheets[0]["rows"] == want, r.stdout)
            expect("spec: no warning", "cell comment" not in r.stderr, r.stderr)
        else:
            expect("%s: the cells" % to, "North" in r.stdout and "120" in r.stdout, r.stdout)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
