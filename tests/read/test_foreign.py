"""Files quire did not write: localized heading styles (recognised by
outline level), openpyxl workbooks in the 1900 and 1904 date systems, merged
ranges reported as warnings, a list numbering that restarts."""
import datetime
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
PY = "/usr/bin/python3"
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


def read(path, *args):
    r = subprocess.run([QUIRE, "read", path] + list(args), capture_output=True, text=True)
    return r


with tempfile.TemporaryDirectory() as tmp:
    # German heading styles: names and ids changed, the outline level kept.
    spec = os.path.join(tmp, "s.json")
    json.dump({"blocks": [{"type": "heading", "text": "Einleitung", "level": 1},
                          {"type": "paragraph", "text": "Text."},
                          {"type": "heading", "text": "Details", "level": 2}]}, open(spec, "w"))
    docx = os.path.join(tmp, "de.docx")
    subprocess.run([QUIRE, "render", spec, "-o", docx], check=True, capture_output=True)
    out = io.BytesIO()
    with zipfile.ZipFile(docx) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename).decode("utf-8")
            if item.filename in ("word/styles.xml", "word/document.xml"):
                data = re.sub(r"Heading(\d)", r"berschrift\1", data)
                data = re.sub(r'w:val="heading (\d)"', r'w:val="Überschrift \1"', data)
            zout.writestr(item.filename, data)
    de = os.path.join(tmp, "de2.docx")
    open(de, "wb").write(out.getvalue())
    styles = zipfile.ZipFile(de).read("word/styles.xml").decode()
    expect("the fixture has no English heading names left", "heading 1" not in styles and
           "Überschrift 1" in styles and "outlineLvl" in styles)
    blocks = json.loads(read(de).stdout)["blocks"]
    expect("localized headings by outline level",
           blocks == [{"type": "heading", "level": 1, "text": "Einleitung"},
                      {"type": "paragraph", "text": "Text."},
                      {"type": "heading", "level": 2, "text": "Details"}], json.dumps(blocks))

    # openpyxl: dates in both date systems, a merged range, a formula.
    code = r'''
import sys, datetime, openpyxl
from openpyxl.utils.datetime import CALENDAR_MAC_1904
for path, epoch in ((sys.argv[1], None), (sys.argv[2], CALENDAR_MAC_1904)):
    wb = openpyxl.Workbook()
    if epoch: wb.epoch = epoch
    ws = wb.active
    ws.title = "Dates"
    ws.append(["when", "at"])
    ws.append([datetime.date(2026, 11, 30), datetime.datetime(1999, 12, 31, 23, 59, 59)])
    ws["C1"] = "merged"
    ws.merge_cells("C1:D1")
    ws["E2"] = "=1+1"
    wb.save(path)
'''
    x1900, x1904 = os.path.join(tmp, "d1900.xlsx"), os.path.join(tmp, "d1904.xlsx")
    r = subprocess.run([PY, "-c", code, x1900, x1904], capture_output=True, text=True)
    expect("openpyxl wrote the workbooks", r.returncode == 0, r.stderr[-300:])
    for path, system in ((x1900, "1900"), (x1904, "1904")):
        rd = read(path)
        sheet = json.loads(rd.stdout)["sheets"][0]
        row = sheet["rows"][1]
        expect("dates in the %s system" % system,
               row[0].get("date") == "2026-11-30" and row[1].get("date") == "1999-12-31T23:59:59",
               json.dumps(sheet["rows"]))
        expect("a formula without a cached value (%s)" % system,
               row[4] == {"formula": "1+1"}, json.dumps(row))
        expect("merged range comes back (%s)" % system, sheet.get("merge") == ["C1:D1"],
               json.dumps(sheet.get("merge")))
    # The markdown shows the dates as ISO dates.
    md = read(x1904, "--to", "markdown").stdout
    expect("1904 dates in markdown", "| 2026-11-30 | 1999-12-31T23:59:59 |" in md, md)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
