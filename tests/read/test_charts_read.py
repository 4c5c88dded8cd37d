"""SmartArt text as bullets, and charts read back into chart specs from their cached data (issue 38), and
every table and chart of a slide: a PowerPoint-style chart part written by
hand here (formula references with string and number caches, a point left
out, a stacked bar, a scatter), two tables and two charts on one slide (the
second of each onto a slide of its own, with a warning), a radar chart (a
warning naming the part), and quire's own docx and pptx charts (every key
back). Spec, markdown and text."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ooxml_make as m  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


def run(*args):
    return subprocess.run([QUIRE] + list(args), capture_output=True, text=True, timeout=60)


def read(path, to="spec"):
    r = run("read", path, "--to", to)
    if r.returncode != 0:
        print("read %s --to %s: exit %d %s" % (path, to, r.returncode, r.stderr))
    return r


C = "http://schemas.openxmlformats.org/drawingml/2006/chart"


def str_ref(f, pts):
    return ('<c:strRef><c:f>%s</c:f><c:strCache><c:ptCount val="%d"/>' % (f, len(pts))
            + ''.join('<c:pt idx="%d"><c:v>%s</c:v></c:pt>' % (i, v) for i, v in enumerate(pts))
            + '</c:strCache></c:strRef>')


def num_ref(f, pts, skip=()):
    return ('<c:numRef><c:f>%s</c:f><c:numCache><c:formatCode>General</c:formatCode>'
            '<c:ptCount val="%d"/>' % (f, len(pts))
            + ''.join('<c:pt idx="%d"><c:v>%s</c:v></c:pt>' % (i, v) for i, v in enumerate(pts)
                      if i not in skip) + '</c:numCache></c:numRef>')


def rich(text):
    return ('<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>%s</a:t></a:r></a:p></c:rich>'
            '</c:tx><c:overlay val="0"/></c:title>' % text)


def chart_part(plot, title=None, axes="", legend="r"):
    return (m.CT + '<c:chartSpace xmlns:c="%s" xmlns:a="%s" xmlns:r="%s"><c:chart>' % (C, m.A, m.R)
            + (rich(title) if title else '<c:autoTitleDeleted val="1"/>')
            + '<c:plotArea><c:layout/>' + plot + axes + '</c:plotArea>'
            + ('<c:legend><c:legendPos val="%s"/></c:legend>' % legend if legend else '')
            + '<c:plotVisOnly val="1"/></c:chart></c:chartSpace>')


def ser(i, name, cats, vals, skip=()):
    return ('<c:ser><c:idx val="%d"/><c:order val="%d"/><c:tx>%s</c:tx><c:cat>%s</c:cat>'
            '<c:val>%s</c:val></c:ser>' % (i, i, str_ref("Sheet1!$%s$1" % "BC"[i], [name]),
                                           str_ref("Sheet1!$A$2:$A$4", cats),
                                           num_ref("Sheet1!$B$2:$B$4", vals, skip)))


AXES = ('<c:catAx><c:axId val="1"/>%s<c:crossAx val="2"/></c:catAx>'
        '<c:valAx><c:axId val="2"/>%s<c:numFmt formatCode="#,##0.0" sourceLinked="0"/>'
        '<c:crossAx val="1"/></c:valAx>' % (rich("Quarter"), rich("Units")))
CATS = ["Q1", "Q2", "Q3"]
BAR = ('<c:barChart><c:barDir val="bar"/><c:grouping val="stacked"/><c:varyColors val="0"/>'
       + ser(0, "North", CATS, [10, 12.5, 14]) + ser(1, "South", CATS, [7, 0, 9], skip=(1,))
       + '<c:dLbls><c:showVal val="1"/></c:dLbls><c:overlap val="100"/><c:axId val="1"/>'
       '<c:axId val="2"/></c:barChart>')
SCATTER = ('<c:scatterChart><c:scatterStyle val="lineMarker"/><c:ser><c:idx val="0"/>'
           '<c:order val="0"/><c:tx><c:v>Trial</c:v></c:tx><c:xVal>'
           + num_ref("S!$A$1:$A$3", [1, 2.5, 4]) + '</c:xVal><c:yVal>'
           + num_ref("S!$B$1:$B$3", [3, 5, 4.25]) + '</c:yVal></c:ser><c:axId val="1"/>'
           '<c:axId val="2"/></c:scatterChart>'
           '<c:valAx><c:axId val="1"/>%s<c:crossAx val="2"/></c:valAx>'
           '<c:valAx><c:axId val="2"/>%s<c:crossAx val="1"/></c:valAx>'
           % (rich("Dose"), rich("Effect")))
RADAR = ('<c:radarChart><c:radarStyle val="marker"/>' + ser(0, "A", CATS, [1, 2, 3])
         + '<c:axId val="1"/><c:axId val="2"/></c:radarChart>')


def frame(rid, name, descr=""):
    return ('<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="%s" descr="%s"/>'
            '<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic>'
            '<a:graphicData uri="%s"><c:chart xmlns:c="%s" r:id="%s"/></a:graphicData>'
            '</a:graphic></p:graphicFrame>' % (name, descr, C, C, rid))


def table(rows):
    return ('<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="6" name="Table"/>'
            '<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic>'
            '<a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>'
            '<a:tblPr/><a:tblGrid><a:gridCol w="100"/><a:gridCol w="100"/></a:tblGrid>'
            + ''.join('<a:tr h="10">' + ''.join('<a:tc><a:txBody><a:bodyPr/><a:p><a:r><a:t>%s'
                                                 '</a:t></a:r></a:p></a:txBody></a:tc>' % c
                                                 for c in row) + '</a:tr>' for row in rows)
            + '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>')


def chart_rel(n):
    return [("rId%d" % n, "chart", "../charts/chart%d.xml" % n, False)]


with tempfile.TemporaryDirectory() as tmp:
    p = os.path.join(tmp, "charts.pptx")
    parts = [("ppt/charts/chart1.xml", chart_part(BAR, "Units sold", AXES, "t")),
             ("ppt/charts/chart2.xml", chart_part(SCATTER, None, "", None)),
             ("ppt/charts/chart3.xml", chart_part(RADAR, "Radar")),
             ("ppt/charts/chart4.xml", chart_part(SCATTER, "Second", "", None))]
    slides = [m.sp("Title 1", ["Sales"], ph="title") + frame("rId1", "Chart 1", "Units by quarter"),
              m.sp("Title 1", ["Dose"], ph="title") + frame("rId2", "Chart 2"),
              m.sp("Title 1", ["Radar"], ph="title") + frame("rId3", "Chart 3"),
              m.sp("Title 1", ["Two of each"], ph="title") + table([["a", "b"], ["1", "2"]])
              + frame("rId1", "Chart 1") + table([["c", "d"], ["3", "4"]])
              + frame("rId4", "Chart 4")]
    rels = {0: chart_rel(1), 1: chart_rel(2), 2: chart_rel(3), 3: chart_rel(1) + chart_rel(4)}
    m.pptx(p, slides, extra=parts, slide_rels=rels)
    r = read(p)
    slides = json.loads(r.stdout or "{}").get("slides", [])
    bar = {"chart": "bar", "title": "Units sold", "categories": CATS,
           "series": [{"name": "North", "values": [10, 12.5, 14]},
                      {"name": "South", "values": [7, 0, 9]}],
           "x_title": "Quarter", "y_title": "Units", "legend": "top",
           "number_format": "#,##0.0", "labels": True, "stacked": True}
    expect("pptx chart: a stacked bar from its caches",
           len(slides) > 0 and slides[0].get("chart") == dict(bar, alt="Units by quarter"),
           json.dumps(slides[:1]))
    expect("pptx chart: a missing point reads as 0, with a warning",
           "ppt/charts/chart1.xml: 1 missing or non-numeric point read as 0" in r.stderr,
           r.stderr)
    scatter = {"chart": "scatter", "series": [{"name": "Trial", "x": [1, 2.5, 4],
                                               "y": [3, 5, 4.25]}],
               "x_title": "Dose", "y_title": "Effect"}
    expect("pptx chart: a scatter's x and y, axis titles by axis",
           len(slides) > 1 and slides[1].get("chart") == scatter, json.dumps(slides[1:2]))
    expect("pptx chart: a radar chart is a warning naming its part",
           len(slides) > 2 and "chart" not in slides[2]
           and "ppt/charts/chart3.xml: a radarChart not read" in r.stderr, r.stderr)
    expect("two tables and two charts: the second of each on a slide of its own", slides[3:] == [
        {"title": "Two of each", "table": {"type": "table", "rows": [["a", "b"], ["1", "2"]]},
         "chart": bar},
        {"title": "Two of each", "table": {"type": "table", "rows": [["c", "d"], ["3", "4"]]}},
        {"title": "Two of each", "chart": dict(scatter, title="Second")}],
        json.dumps(slides[3:]))
    expect("two tables and two charts: a warning says where they went",
           "ppt/slides/slide4.xml: 1 more table and 1 more chart read onto slides of their own"
           in r.stderr, r.stderr)
    md = read(p, "markdown").stdout
    expect("pptx chart: markdown table of the data",
           "**Units sold**\n\n|  | North | South |\n| --- | --- | --- |\n| Q1 | 10 | 7 |\n"
           "| Q2 | 12.5 | 0 |\n| Q3 | 14 | 9 |" in md, md)
    expect("pptx chart: markdown of a scatter", "| series | Dose | Effect |" in md
           and "| Trial | 2.5 | 5 |" in md, md)
    txt = read(p, "text").stdout
    expect("pptx chart: text", "Units sold\n\n\tNorth\tSouth\nQ1\t10\t7" in txt
           and "| c |" not in txt and "c\td" in txt, txt)

    # SmartArt: a process of three steps, the second with two sub-points,
    # beside a bullet of the slide's own body.
    DGM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"

    def pt(mid, text=None, kind=None):
        t = ('<dgm:t><a:bodyPr/><a:p><a:r><a:t>%s</a:t></a:r></a:p></dgm:t>' % text
             if text is not None else '')
        return '<dgm:pt modelId="%s"%s><dgm:prSet/>%s</dgm:pt>' % (
            mid, ' type="%s"' % kind if kind else '', t)

    def cxn(i, src, dest, ordv, kind=None):
        return '<dgm:cxn modelId="c%d" srcId="%s" destId="%s" srcOrd="%d"%s/>' % (
            i, src, dest, ordv, ' type="%s"' % kind if kind else '')
    data = (m.CT + '<dgm:dataModel xmlns:dgm="%s" xmlns:a="%s"><dgm:ptLst>' % (DGM, m.A)
            + pt("0", kind="doc") + pt("1", "Plan") + pt("2", "Build") + pt("3", "Ship")
            + pt("4", "Code") + pt("5", "Test") + pt("t1", "", kind="parTrans")
            + pt("p1", kind="pres") + '</dgm:ptLst><dgm:cxnLst>'
            + cxn(1, "0", "3", 2) + cxn(2, "0", "1", 0) + cxn(3, "0", "2", 1)
            + cxn(4, "2", "5", 1) + cxn(5, "2", "4", 0) + cxn(6, "1", "p1", 0, "presOf")
            + '</dgm:cxnLst></dgm:dataModel>')
    sa = ('<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Diagram 3"/>'
          '<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic>'
          '<a:graphicData uri="%s"><dgm:relIds xmlns:dgm="%s" r:dm="rId2" r:lo="rId3" '
          'r:qs="rId4" r:cs="rId5"/></a:graphicData></a:graphic></p:graphicFrame>' % (DGM, DGM))
    s = os.path.join(tmp, "smartart.pptx")
    m.pptx(s, [m.sp("Title 1", ["Process"], ph="title") + m.sp("Body", ["Overview"], ph="body")
               + sa], extra=[("ppt/diagrams/data1.xml", data)],
           slide_rels={0: [("rId2", "diagramData", "../diagrams/data1.xml", False)]})
    slides = json.loads(read(s).stdout or "{}").get("slides")
    expect("SmartArt: its text as bullets, nested and in order", slides == [
        {"title": "Process", "bullets": ["Overview", "Plan",
                                         {"text": "Build", "items": ["Code", "Test"]}, "Ship"]}],
        json.dumps(slides))
    md = read(s, "markdown").stdout
    expect("SmartArt: markdown", "- Plan\n- Build\n  - Code\n  - Test\n- Ship" in md, md)
    expect("SmartArt: text", "Test" in read(s, "text").stdout)

    # quire's own charts: a document's and a deck's, every key back.
    for case, fmt in (("chart-bar", "docx"), ("chart-area-stacked", "docx"),
                      ("chart-deck", "pptx")):
        spec = os.path.join(SRC, "fixtures", case, "spec.json")
        out = os.path.join(tmp, "%s.%s" % (case, fmt))
        rr = run("render", spec, "-o", out)
        if rr.returncode != 0:
            expect("render " + case, False, rr.stderr)
            continue
        want = json.loads(run("fmt", spec).stdout)
        got = json.loads(read(out).stdout or "{}")
        if fmt == "docx":
            w = [b for b in want["blocks"] if b["type"] == "chart"]
            g = [b for b in got.get("blocks", []) if b["type"] == "chart"]
        else:
            w = [s["chart"] for s in want["slides"] if "chart" in s]
            g = [s["chart"] for s in got.get("slides", []) if "chart" in s]
        # defaults fmt keeps explicit ("legend": "bottom", false flags) read back as absent
        for c in w:
            for k, v in list(c.items()):
                if v is False or (k == "legend" and v == "bottom"):
                    del c[k]
        expect("quire's own %s chart (%s) reads back whole" % (fmt, case), g == w,
               json.dumps(g) + "\n" + json.dumps(w))

print("%d failed" % failed)
sys.exit(1 if failed else 0)
