"""Cell comments of a workbook openpyxl writes (issue 38 with issue 33's
cell comments): each reads as its cell's "comment" (the author left out),
an empty commented cell as a cell of only a comment, with no warning; spec,
markdown and text."""
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
        expect("%s: no warning about comments" % to, "comment" not in r.stderr, r.stderr)
        if to == "spec":
            rows = json.loads(r.stdout)["sheets"][0]["rows"]
            expect("spec: the comments on their cells", len(rows) == 9 and rows[:2] == [
                ["Region", "Sales"],
                ["North", {"value": 120, "comment": "Includes the March correction."}]]
                and rows[8] == [None, None, None, {"comment": "A note on an empty cell"}]
                and all(not any(x) for x in rows[2:8]), r.stdout)
        else:
            expect("%s: the cells" % to, "North" in r.stdout and "120" in r.stdout, r.stdout)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
