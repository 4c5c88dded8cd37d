"""Files other tools write that quire read refused whole (issue 38): an
Excel shared formula, a Word table on a grid with gridBefore/gridAfter,
gridSpan and vMerge (read as colspan and rowspan), a slide whose last
shapes are an empty group, a PDF with bytes before its header. Each file is made here (zip + XML by hand,
tests/read/ooxml_make.py; the PDF by quire), and read back as spec,
markdown and text."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ooxml_make as m  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


def read(path, to="spec", *args):
    return subprocess.run([QUIRE, "read", path, "--to", to] + list(args), capture_output=True,
                          text=True, timeout=60)


def tc(t, pr=""):
    return ('<w:tc><w:tcPr>%s</w:tcPr><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:tc>' % (pr, t))


with tempfile.TemporaryDirectory() as tmp:
    # Excel fills a formula down as one shared formula.
    x = os.path.join(tmp, "shared.xlsx")
    m.xlsx(x, '<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>A1*2</f><v>2</v></c></row>'
              '<row r="2"><c r="A2"><v>5</v></c><c r="B2"><f t="shared" si="0" ref="B2:B4">'
              'A2*2+$A$1+SUM(A$1:A2)+LOG10(A2)</f><v>11</v></c></row>'
              '<row r="3"><c r="A3"><v>6</v></c><c r="B3"><f t="shared" si="0"/><v>13</v></c>'
              '</row><row r="4"><c r="A4"><v>7</v></c><c r="B4"><f t="shared" si="0"/>'
              '<v>15</v></c><c r="C4"><f t="shared" si="7"/><v>3</v></c></row>'
              '<row r="9"/><row r="1048576"/>')
    r = read(x)
    expect("shared formulas: read", r.returncode == 0, r.stderr)
    rows = json.loads(r.stdout)["sheets"][0]["rows"] if r.returncode == 0 else []
    expect("shared formulas: moved by their offset, cached values kept", rows == [
        [1, {"formula": "A1*2", "value": 2}],
        [5, {"formula": "A2*2+$A$1+SUM(A$1:A2)+LOG10(A2)", "value": 11}],
        [6, {"formula": "A3*2+$A$1+SUM(A$1:A3)+LOG10(A3)", "value": 13}],
        [7, {"formula": "A4*2+$A$1+SUM(A$1:A4)+LOG10(A4)", "value": 15}, 3]], json.dumps(rows))
    expect("shared formulas: a missing first cell is a warning naming the cell",
           "C4 has an empty formula" in r.stderr, r.stderr)
    md = read(x, "markdown").stdout
    expect("shared formulas: markdown shows the values", "| 7 | 15 | 3 |" in md, md)
    txt = read(x, "text").stdout
    expect("shared formulas: text", "15" in txt and "13" in txt, txt)

    # A Word table on a 3-column grid whose rows hold 2 cells each.
    d = os.path.join(tmp, "grid.docx")
    grid = '<w:tblGrid>' + ''.join('<w:gridCol w:w="%d"/>' % w for w in (1000, 2000, 1000))
    m.docx(d, '<w:tbl><w:tblPr/>' + grid + '</w:tblGrid>'
           '<w:tr>' + tc("A", '<w:gridSpan w:val="2"/>') + tc("C") + '</w:tr>'
           '<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>'
           + tc("wide", '<w:gridSpan w:val="2"/>') + '</w:tr>'
           '<w:tr><w:trPr><w:gridAfter w:val="1"/></w:trPr>' + tc("e")
           + tc("f", '<w:vMerge w:val="restart"/>') + '</w:tr>'
           '<w:tr>' + tc("g") + tc("", '<w:vMerge/>') + '</w:tr>'
           '</w:tbl><w:p><w:r><w:t>after</w:t></w:r></w:p>')
    r = read(d)
    expect("grid table: read", r.returncode == 0, r.stderr)
    blocks = json.loads(r.stdout)["blocks"] if r.returncode == 0 else []
    expect("grid table: cells on the grid as spans, widths from tblGrid", blocks == [
        {"type": "table", "rows": [[{"text": "A", "colspan": 2}, "C"],
                                   [None, {"text": "wide", "colspan": 2}],
                                   ["e", {"text": "f", "rowspan": 2}, None], ["g", None]],
         "widths": [1, 2, 1]},
        {"type": "paragraph", "text": "after"}], json.dumps(blocks))
    expect("grid table: no warning, the spans are the spec's",
           "merged" not in r.stderr, r.stderr)
    md = read(d, "markdown").stdout
    expect("grid table: markdown", "|  | wide |  |" in md and "after" in md, md)
    expect("grid table: text", "wide" in read(d, "text").stdout)

    # A slide ending in a group of empty shapes, with a group inside.
    p = os.path.join(tmp, "group.pptx")

    def grp(inner):
        return ('<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="G"/><p:cNvGrpSpPr/><p:nvPr/>'
                '</p:nvGrpSpPr><p:grpSpPr/>%s</p:grpSp>' % inner)
    m.pptx(p, [m.sp("Title 1", ["Hello"], ph="title") + m.sp("Body", ["one", "two"], ph="body")
               + grp(grp(m.sp("in", ["deep text"])) + m.sp("e1", [""]) + m.sp("e2", ["", ""]))])
    r = read(p)
    expect("group shapes: read", r.returncode == 0, r.stderr)
    slides = json.loads(r.stdout)["slides"] if r.returncode == 0 else []
    expect("group shapes: every group's text", slides == [
        {"title": "Hello", "bullets": ["one", "two", "deep text"]}], json.dumps(slides))
    md = read(p, "markdown").stdout
    expect("group shapes: markdown", "deep text" in md and "Hello" in md, md)
    expect("group shapes: text", "deep text" in read(p, "text").stdout)

    # A PDF with bytes before %PDF- (poppler reads it).
    spec = os.path.join(tmp, "p.json")
    json.dump({"blocks": [{"type": "paragraph", "text": "Hello PDF"}]}, open(spec, "w"))
    pdf = os.path.join(tmp, "p.pdf")
    subprocess.run([QUIRE, "render", spec, "-o", pdf], check=True, capture_output=True)
    for n in (20, 3000):
        j = os.path.join(tmp, "junk%d.pdf" % n)
        open(j, "wb").write(b"X" * (n - 2) + b"\r\n" + open(pdf, "rb").read())
        r = read(j)
        expect("pdf after %d bytes: read" % n, r.returncode == 0, r.stderr)
        expect("pdf after %d bytes: spec" % n, r.returncode == 0 and json.loads(r.stdout)
               ["blocks"] == [{"type": "paragraph", "text": "Hello PDF"}], r.stdout)
        expect("pdf after %d bytes: markdown and text" % n,
               read(j, "markdown").stdout.strip() == "Hello PDF" and
               read(j, "text").stdout.strip() == "Hello PDF")
    r = read(os.path.join(tmp, "shared.xlsx"), "spec", "--max-output", "100")
    expect("--max-output: exit 4 naming the limit", r.returncode == 4 and "max_output" in r.stdout,
           r.stdout)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
