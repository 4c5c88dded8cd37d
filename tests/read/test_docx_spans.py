"""Merged Word cells read back as the spec's spans (issue 38 with issue 32's
cell spans): w:gridSpan as "colspan", a w:vMerge restart and the continues
below it as "rowspan" (the covered positions left out of the rows, as the
spec has them), leading w:tblHeader rows as "header_rows", a body cell's
shading as "fill". Three files: quire's own docx of a table with every kind
of span (read back equal to its spec, and read again after rendering what
was read: the same spec), a python-docx table with merges made in the test,
and LibreOffice's re-save of quire's docx. Each read as spec, markdown and
text."""
import copy
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from roundtrip import normalize  # noqa: E402
from shared import finish, need_tool  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
passed = failed = 0


def expect(name, cond, detail=""):
    global passed, failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    passed += bool(cond)
    failed += not cond


def read(path, to="spec"):
    r = subprocess.run([QUIRE, "read", path, "--to", to], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        print("read %s --to %s: exit %d %s" % (path, to, r.returncode, r.stderr))
    return r


def render(spec_path, out):
    r = subprocess.run([QUIRE, "render", spec_path, "-o", out], capture_output=True, text=True)
    if r.returncode != 0:
        print("render %s: %s" % (spec_path, r.stdout + r.stderr))
    return r.returncode == 0


def tables(spec):
    return [normalize({"blocks": [b]}, "document")["blocks"][0][1]
            for b in spec.get("blocks", []) if b.get("type") == "table"]


with tempfile.TemporaryDirectory() as tmp:
    # quire's own: the docs-rowspan fixture without its caption (read back
    # elsewhere), so the table is all there is to compare.
    spec = json.load(open(os.path.join(SRC, "fixtures", "docs-rowspan", "spec.json")))
    for b in spec["blocks"]:
        b.pop("caption", None)
    sp = os.path.join(tmp, "spans.json")
    json.dump(spec, open(sp, "w"))
    dx = os.path.join(tmp, "spans.docx")
    render(sp, dx)
    r = read(dx)
    back = json.loads(r.stdout) if r.returncode == 0 else {}
    expect("quire's docx: the spans, header rows and fills read back",
           tables(back) == tables(spec) and tables(spec), json.dumps(tables(back)))
    expect("quire's docx: no warning about merged cells", "merged" not in r.stderr, r.stderr)
    # what was read renders and reads back to itself
    sp2 = os.path.join(tmp, "back.json")
    open(sp2, "w").write(r.stdout)
    dx2 = os.path.join(tmp, "back.docx")
    expect("read's spec renders", render(sp2, dx2))
    r2 = read(dx2)
    expect("read's spec reads back to itself", r2.stdout == r.stdout, r2.stdout[:400])
    md = read(dx, "markdown").stdout
    expect("quire's docx: markdown gives a spanning cell's text once, in its first position",
           "| **North** | Q1 | 120 | 1440 |" in md and "|  | Q2 | 130 | 1560 |  |" in md, md)
    txt = read(dx, "text").stdout
    expect("quire's docx: text", "585 units, 7,020 EUR in all" in txt, txt)

    # python-docx: a 4 x 3 table, a merge across the top row's first two
    # cells, one down the last column's lower three.
    pd = os.path.join(tmp, "pydocx.docx")
    made = subprocess.run(["/usr/bin/python3", "-c", """
import sys, docx
d = docx.Document()
t = d.add_table(rows=4, cols=3)
for r in range(4):
    for c in range(3):
        t.cell(r, c).text = "r%dc%d" % (r, c)
a = t.cell(0, 0).merge(t.cell(0, 1))
a.text = "wide"
b = t.cell(1, 2).merge(t.cell(3, 2))
b.text = "tall"
d.save(sys.argv[1])
""", pd], capture_output=True, text=True)
    expect("python-docx made its file", made.returncode == 0, made.stderr)
    r = read(pd)
    blocks = json.loads(r.stdout)["blocks"] if r.returncode == 0 else []
    expect("python-docx merges: colspan and rowspan", blocks == [{"type": "table", "rows": [
        [{"text": "wide", "colspan": 2}, "r0c2"],
        ["r1c0", "r1c1", {"text": "tall", "rowspan": 3}],
        ["r2c0", "r2c1"], ["r3c0", "r3c1"]]}], json.dumps(blocks))
    md = read(pd, "markdown").stdout
    expect("python-docx merges: markdown", "| wide |  | r0c2 |" in md
           and "| r2c0 | r2c1 |  |" in md, md)
    expect("python-docx merges: text", "tall" in read(pd, "text").stdout)

    # LibreOffice's re-save of quire's docx keeps the same spans.
    if need_tool("soffice"):
        sys.path.insert(0, os.path.join(HERE, "..", "lib"))
        from office import soffice_convert  # noqa: E402
        lo = os.path.join(tmp, "lo")
        os.mkdir(lo)
        cp = os.path.join(tmp, "lo-in.docx")
        open(cp, "wb").write(open(dx, "rb").read())
        soffice_convert("docx:MS Word 2007 XML", [cp], lo)
        out = os.path.join(lo, "lo-in.docx")
        expect("LibreOffice re-saved the docx", os.path.exists(out))
        if os.path.exists(out):
            r = read(out)
            lb = json.loads(r.stdout) if r.returncode == 0 else {}
            want = copy.deepcopy(tables(spec))
            got = tables(lb)
            for t in want + got:
                t["widths"] = None  # LibreOffice's grid rounds the widths
            expect("LibreOffice's docx: the same spans", got == want, json.dumps(got))

sys.exit(finish(passed, failed))
