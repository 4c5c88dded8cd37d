#!/usr/bin/python3
"""The formula evaluator (layout/formula.c) against LibreOffice.

A table of formulas over a data sheet is rendered to .xlsx by quire, which
writes each computed value as the formula's cached <v>. The test then:
- reads quire's cached values back with openpyxl (data_only=True);
- strips every cached value from a copy of the workbook and lets LibreOffice
  compute them (soffice --convert-to xlsx, once), reads those back too;
- compares each formula's value: numbers to 1e-9 (relative), text, booleans
  and errors (#DIV/0!, #REF!, #NAME?, #VALUE!) exactly.
Then: a spec-given value wins; a cycle gets no cached value and a warning;
an unsupported function gets none either; TODAY is the output epoch's day.
"""
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))

import openpyxl  # noqa: E402
from checks import check, done  # noqa: E402
from office import soffice_convert  # noqa: E402


# The data sheet: A1:A5 numbers, B1:B5 text, C1:C3 booleans, D1 a date, E empty.
DATA = [
    [10, "apple", True, {"date": "2026-03-15"}, None, "3"],
    [20, "Banana", False, None, None, " 4 "],
    [30.5, "kiwi", True],
    [-4, "cherry"],
    [0, "DATE"],
]

FORMULAS = [
    "1+2", "2*3+4", "2+3*4", "(2+3)*4", "10/4", "7-10", "-2^2", "2^10", "2^0.5", "50%",
    "1/0", "0/0", "5%*200", "Data!A1+Data!A2", "Data!A1*Data!A3", "Data!A1/Data!A5", "Data!E1+1",
    "Data!F1+1", "Data!F2*2", "Data!B1+1", "\"3\"+\"4\"", "TRUE+TRUE", "\"a\"&\"b\"", "Data!B1&\"-\"&Data!B2",
    "1&2", "0.1+0.2&\"\"", "1/3&\"\"", "Data!E1&\"z\"",
    "1=1", "1<>1", "2<10", "\"a\"<\"B\"", "\"abc\"=\"ABC\"", "1<\"1\"", "Data!E1=0", "Data!E1=\"\"",
    "3>=3", "3<=2",
    "SUM(Data!A1:A5)", "SUM(1,2,3)", "SUM(Data!A1:A5,100)", "SUM(TRUE,1)",
    "AVERAGE(Data!A1:A5)", "AVERAGE(Data!E1:E3)", "AVERAGE(1,2)", "MIN(Data!A1:A5)", "MAX(Data!A1:A5)",
    "MIN(Data!E1:E3)", "MAX(Data!A1:A5,99)", "COUNT(1,\"2\",\"x\")", "COUNTA(Data!A1:C5)",
    "COUNTA(Data!B1:B5)", "COUNT(Data!E1:E5)",
    "ROUND(2.675,2)", "ROUND(-2.5,0)", "ROUND(1234.567,-2)", "ROUND(0.125,2)", "ROUND(Data!A3,0)",
    "ABS(-3.5)", "ABS(Data!A4)",
    "IF(1>0,\"yes\",\"no\")", "IF(0,1,2)", "IF(Data!C1,Data!A1,Data!A2)", "IF(FALSE,1)", "IF(\"x\",1,2)",
    "IFERROR(1/0,\"div\")", "IFERROR(5,0)", "IFERROR(Data!B1+1,-1)",
    "AND(TRUE,1)", "AND(TRUE,0)", "OR(FALSE,0)", "OR(Data!C1:C3)", "AND(Data!C1:C3)", "NOT(TRUE)", "NOT(0)",
    "CONCAT(Data!B1:B2)", "CONCATENATE(\"x\",\"y\",\"z\")", "CONCATENATE(Data!A1,\"%\")",
    "LEN(\"hello\")", "LEN(Data!B2)", "LEN(123.5)", "UPPER(\"MiXed\")", "LOWER(Data!B2)", "UPPER(Data!B3)",
    "DATE(2026,3,15)", "DATE(2026,14,1)", "DATE(2024,2,30)", "DATE(1900,3,1)", "DATE(99,1,1)",
    "YEAR(Data!D1)", "MONTH(Data!D1)", "DAY(Data!D1)", "YEAR(DATE(2000,12,31))", "MONTH(46000)", 
    "FOOBAR(1)", "'Data'!A2*2",  # a name no one defined is a spec error (test_names)
    "SUM(Data!A1:A2)*AVERAGE(Data!A1:A2)-MAX(Data!A1:A5)", "IF(SUM(Data!A1:A2)>25,UPPER(\"big\"),\"small\")",
    "ROUND(AVERAGE(Data!A1:A5)/3,4)", "\"n=\"&COUNT(Data!A1:A5)", "LEN(CONCAT(Data!B1:B5))",
]


# Where LibreOffice departs from Excel, the value Excel documents.
EXCEL = [
    ("TRUE&\"x\"", "TRUEx", "Excel writes a boolean as TRUE in text; LibreOffice as 1"),
    ("TRUE>1", True, "Excel orders booleans above numbers; LibreOffice compares 1 > 1"),
    ("SUM(Data!A1:C5)", 56.5, "Excel's SUM ignores booleans in a range; LibreOffice adds them"),
    ("COUNT(Data!A1:C5)", 5, "Excel's COUNT ignores booleans in a range"),
    ("SUM(\"5\",1)", 6, "Excel converts numeric text given directly; LibreOffice's default does not"),
    ("DAY(60)", 29, "Excel's serial 60 is 29 February 1900 (the Lotus bug); LibreOffice has no such day"),
    ("YEAR(-1)", "#NUM!", "Excel has no negative serials; LibreOffice counts back from 1899-12-30"),
    ("Nope!A1", "#REF!", "a sheet the workbook lacks is #REF! in Excel; LibreOffice says #NAME?"),
    ("'No sheet'!A1+1", "#REF!", "as above"),
    ("CONCAT(\"a\",1,TRUE)", "a1TRUE", "as TRUE&\"x\""),
    ("CONCAT(Data!B1:B2)&LEN(\"\")", "appleBanana0", "CONCAT is written _xlfn.CONCAT"),
]


def spec():
    rows = [[{"value": "formula"}, {"value": "value"}]]
    for f in FORMULAS:
        rows.append([f, {"formula": f}])
    for f, _, _ in EXCEL:
        rows.append([f, {"formula": f}])
    return {"sheets": [
        {"name": "F", "rows": rows},
        {"name": "Data", "rows": DATA},
        {"name": "Loops", "rows": [[{"formula": "B1+1"}, {"formula": "A1*2"}, {"formula": "A1+1"}],
                                   [{"formula": "VLOOKUP(1,Data!A1:B5,2,FALSE)"}, {"formula": "TODAY()"},
                                    {"formula": "1+1", "value": 7}]]},
    ]}


def values(path, sheet):
    wb = openpyxl.load_workbook(path, data_only=True)
    ws = wb[sheet]
    return [[c.value for c in row] for row in ws.iter_rows()]


def strip_cached(src, dst):
    """A copy of src whose formula cells carry no cached value."""
    with zipfile.ZipFile(src) as zi, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zo:
        for item in zi.infolist():
            data = zi.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                xml = data.decode("utf-8")
                xml = re.sub(r'(<c [^>]*?) t="(?:str|e|b)"(>\s*<f>)', r"\1\2", xml)
                xml = re.sub(r"(</f>)\s*<v>.*?</v>", r"\1", xml, flags=re.S)
                data = xml.encode("utf-8")
            zo.writestr(item, data)


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b and type(a) == type(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))
    if isinstance(a, datetime.datetime) or isinstance(b, datetime.datetime):
        return a == b
    return a == b


def main():
    tmp = tempfile.mkdtemp(prefix="quire-formula-")
    sp = os.path.join(tmp, "f.json")
    with open(sp, "w", encoding="utf-8") as f:
        json.dump(spec(), f)
    out = os.path.join(tmp, "f.xlsx")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")  # 2026-01-01
    p = subprocess.run([QUIRE, "render", sp, "-o", out], capture_output=True, text=True, env=env)
    if not check(p.returncode == 0, "render: %s %s" % (p.stdout, p.stderr)):
        sys.exit(1)
    res = json.loads(p.stdout)
    ours = values(out, "F")
    check(len(FORMULAS) >= 80 and len(set(FORMULAS)) == len(FORMULAS), "at least 80 formulas (%d)" % len(FORMULAS))

    # LibreOffice computes the same workbook without cached values
    bare = os.path.join(tmp, "bare.xlsx")
    strip_cached(out, bare)
    check(values(bare, "F")[1][1] is None, "the stripped copy has no cached values")
    lo = os.path.join(tmp, "lo")
    soffice_convert("xlsx", [bare], lo, timeout=600)
    lop = os.path.join(lo, "bare.xlsx")
    if check(os.path.exists(lop), "LibreOffice converted the workbook"):
        theirs = values(lop, "F")
        for i, f in enumerate(FORMULAS, start=1):
            a = ours[i][1]
            b = theirs[i][1] if i < len(theirs) else "<missing>"
            check(a is not None, "%s: quire computed a value" % f)
            check(same(a, b), "%s: quire %r, LibreOffice %r" % (f, a, b))

    for j, (f, want, why) in enumerate(EXCEL, start=len(FORMULAS) + 1):
        check(same(ours[j][1], want), "%s: quire %r, Excel %r (%s)" % (f, ours[j][1], want, why))

    loops = values(out, "Loops")
    check(loops[0][0] is None and loops[0][1] is None, "a cycle has no cached value: %r" % loops[0])
    check(loops[0][2] is None, "a formula on a cycle has no cached value")
    warn = [w["message"] for w in res["warnings"]]
    check(any("cycle" in m and "Loops!A1" in m for m in warn), "the cycle is warned about: %r" % warn)
    check(loops[1][0] is None, "an unsupported function (VLOOKUP) keeps no cached value")
    check(loops[1][1] == 46023, "TODAY() is the output epoch's day (46023 = 2026-01-01): %r" % loops[1][1])
    check(loops[1][2] == 7, "a spec-given value wins: %r" % loops[1][2])
    with zipfile.ZipFile(out) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
    check('t="e"><f>1/0</f><v>#DIV/0!</v>' in xml, "an error is written as t=\"e\" with its text")
    p2 = subprocess.run([QUIRE, "render", sp, "-o", os.path.join(tmp, "g.xlsx")], capture_output=True, env=env)
    with open(out, "rb") as a, open(os.path.join(tmp, "g.xlsx"), "rb") as b:
        check(p2.returncode == 0 and a.read() == b.read(), "same spec, same bytes")
    shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
