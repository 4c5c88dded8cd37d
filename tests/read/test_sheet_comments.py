"""Cell comments of a workbook openpyxl writes (issue 38): a sheet spec has
no place for them yet, so the cells read as before and a warning counts the
comments and their words and names their cells, for spec, markdown and
text alike."""
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
        expect("%s: one warning counts the comments, their words and cells" % to,
               r.stderr.count("cell comment") == 1 and
               'sheet "Data": 2 cell comments (10 words) not read: B2, D9' in r.stderr, r.stderr)
        if to == "spec":
            sheets = json.loads(r.stdout)["sheets"]
            expect("spec: the cells as before, no row padded to the empty commented cell",
                   sheets[0]["rows"] == [["Region", "Sales"], ["North", 120]], r.stdout)
        else:
            expect("%s: the cells" % to, "North" in r.stdout and "120" in r.stdout, r.stdout)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
