"""Constructs quire read used to skip or change (issue 38), each in a file
made here (zip + XML by hand, tests/read/ooxml_make.py) and read back as
spec, markdown and text: superscript and subscript runs (docx w:vertAlign,
pptx baseline); docx footnotes and endnotes as footnote runs; xlsx times,
durations and custom date formats in both date systems."""
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


def read(path, to="spec"):
    r = subprocess.run([QUIRE, "read", path, "--to", to], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        print("read %s --to %s: exit %d %s" % (path, to, r.returncode, r.stderr))
    return r.stdout


def wr(text, props=""):
    return '<w:r><w:rPr>%s</w:rPr><w:t xml:space="preserve">%s</w:t></w:r>' % (props, text)


SUP = '<w:vertAlign w:val="superscript"/>'
SUB = '<w:vertAlign w:val="subscript"/>'
RUNS = ["Area m", {"text": "2", "sup": True}, ", index m", {"text": "2", "sub": True},
        ", x", {"text": "n+1", "sup": True}, ", the 1", {"text": "st", "sup": True}]

with tempfile.TemporaryDirectory() as tmp:
    d = os.path.join(tmp, "scripts.docx")
    m.docx(d, '<w:p>' + wr("Area m") + wr("2", SUP) + wr(", index m") + wr("2", SUB)
           + wr(", x") + wr("n+1", SUP) + wr(", the 1") + wr("st", SUP) + '</w:p>')
    blocks = json.loads(read(d) or "{}").get("blocks")
    expect("docx sup/sub: spec runs", blocks == [{"type": "paragraph", "runs": RUNS}],
           json.dumps(blocks))
    md = read(d, "markdown").strip()
    expect("docx sup/sub: markdown", md == "Area m<sup>2</sup>, index m<sub>2</sub>, "
           "x<sup>n+1</sup>, the 1<sup>st</sup>", md)
    txt = read(d, "text").strip()
    expect("docx sup/sub: text keeps m² and m₂ apart", txt == "Area m², index m₂, xⁿ⁺¹, the 1st",
           txt)

    p = os.path.join(tmp, "scripts.pptx")

    def ar(text, base=None):
        return '<a:r><a:rPr%s/><a:t>%s</a:t></a:r>' % (
            ' baseline="%d"' % base if base else "", text)
    body = ('<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/>'
            '</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:p>' + ar("Area m")
            + ar("2", 30000) + ar(", index m") + ar("2", -25000) + ar(", x") + ar("n+1", 30000)
            + ar(", the 1") + ar("st", 30000) + '</a:p></p:txBody></p:sp>')
    m.pptx(p, [m.sp("Title 1", ["Scripts"], ph="title") + body])
    slides = json.loads(read(p) or "{}").get("slides")
    expect("pptx sup/sub: spec runs", slides == [{"title": "Scripts", "bullets": [
        {"runs": RUNS}]}], json.dumps(slides))
    expect("pptx sup/sub: markdown", "m<sup>2</sup>, index m<sub>2</sub>" in read(p, "markdown"))
    expect("pptx sup/sub: text", "Area m², index m₂, xⁿ⁺¹" in read(p, "text"))

    # Footnotes (with Word's separator notes) and endnotes.
    def notes_part(el, notes):
        sep = ''.join('<w:%s w:type="%s" w:id="%d"><w:p><w:r><w:separator/></w:r></w:p></w:%s>'
                      % (el, t, i, el) for i, t in ((-1, "separator"),
                                                    (0, "continuationSeparator")))
        body = ''.join('<w:%s w:id="%d"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/>'
                       '</w:rPr><w:%sRef/></w:r>%s</w:p></w:%s>' % (el, i, el, runs, el)
                       for i, runs in notes)
        return (m.CT + '<w:%ss xmlns:w="%s">%s%s</w:%ss>' % (el, m.W, sep, body, el))

    def ref(el, i):
        return ('<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:%sReference w:id="%d"/>'
                '</w:r>' % (el, i))
    for el in ("footnote", "endnote"):
        d = os.path.join(tmp, el + ".docx")
        m.docx(d, '<w:p>' + wr("A claim") + ref(el, 1) + wr(" and another") + ref(el, 2)
               + wr(".") + '</w:p>',
               extra=[("word/%ss.xml" % el, notes_part(el, [
                   (1, wr(" The source.")),
                   (2, wr(" See ") + wr("page 3", "<w:b/>") + wr("."))]))],
               rels=[("rId9", el + "s", el + "s.xml", False)])
        spec = json.loads(read(d) or "{}")
        want = {"blocks": [{"type": "paragraph", "runs": [
            "A claim", {"footnote": "The source."}, " and another",
            {"footnote": ["See ", {"text": "page 3", "bold": True}, "."]}, "."]}]}
        if el == "endnote":
            want["notes"] = "endnotes"
        expect("%ss: spec footnote runs" % el, spec == want, json.dumps(spec))
        md = read(d, "markdown").strip()
        expect("%ss: markdown [^N]" % el, md == "A claim[^1] and another[^2].\n\n"
               "[^1]: The source.\n[^2]: See **page 3**.", md)
        txt = read(d, "text").strip()
        expect("%ss: text" % el, txt == "A claim¹ and another².\n\n¹ The source.\n² See page 3.",
               txt)

    styles = ('<styleSheet xmlns="%s"><numFmts count="2"><numFmt numFmtId="164" '
              'formatCode="dd/mm/yyyy hh:mm"/><numFmt numFmtId="165" formatCode="[h]:mm:ss"/>'
              '</numFmts><cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="20"/>'
              '<xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="14"/></cellXfs></styleSheet>'
              % m.SS)
    for system, day in (("1900", 46000), ("1904", 46000 - 1462)):
        x = os.path.join(tmp, "times%s.xlsx" % system)
        m.xlsx(x, '<row r="1"><c r="A1" s="1"><v>0.5</v></c><c r="B1" s="2"><v>%d.75</v></c>'
               '<c r="C1" s="3"><v>1.25</v></c><c r="D1" s="4"><v>%d</v></c></row>' % (day, day),
               styles=styles, date1904=system == "1904")
        rows = json.loads(read(x) or "{}").get("sheets", [{}])[0].get("rows")
        expect("xlsx %s: a time and a duration stay numbers, dates are dates" % system, rows == [[
            {"value": 0.5, "format": "h:mm"},
            {"date": "2025-12-09T18:00:00", "format": "dd/mm/yyyy hh:mm"},
            {"value": 1.25, "format": "[h]:mm:ss"}, {"date": "2025-12-09", "format": "mm-dd-yy"}]],
            json.dumps(rows))
        md = read(x, "markdown")
        expect("xlsx %s: markdown shows 12:00 and 30:00:00" % system,
               "| 12:00 | 2025-12-09T18:00:00 | 30:00:00 | 2025-12-09 |" in md, md)
        expect("xlsx %s: text" % system,
               "12:00\t2025-12-09T18:00:00\t30:00:00\t2025-12-09" in read(x, "text"))

print("%d failed" % failed)
sys.exit(1 if failed else 0)
