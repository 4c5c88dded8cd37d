"""quire read gives issue 34's column, picture and agenda layouts back: from
quire's own .pptx exactly (the spec's slides, as `quire fmt` writes them),
and as a best guess from a deck quire did not write (PowerPoint's Two Content
and Comparison layouts, a picture across the slide, an autonumbered list)."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


def run(*args):
    return subprocess.run([QUIRE] + list(args), capture_output=True, text=True)


def untyped(v):
    """The reader names a slide table's and image's "type"; a spec may leave it out."""
    if isinstance(v, dict):
        return {k: untyped(x) for k, x in v.items() if k != "type"}
    if isinstance(v, list):
        return [untyped(x) for x in v]
    return v


def fmt(tmp, spec):
    p = os.path.join(tmp, "fmt.json")
    with open(p, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    r = run("fmt", p)
    return json.loads(r.stdout)


with open(os.path.join(SRC, "fixtures", "deck-columns", "spec.json"), encoding="utf-8") as f:
    COLUMNS = json.load(f)
PIC = COLUMNS["slides"][3]["left"]["image"]["src"]

with tempfile.TemporaryDirectory() as tmp:
    # ---- quire's own pptx: every new layout back as written ----
    slides = [s for s in COLUMNS["slides"] if "chart" not in json.dumps(s)]
    for s in slides:
        s.pop("footer", None)  # furniture is the deck's, not read back
    slides.append({"layout": "two_content", "title": "Picture and table",
                   "left": {"image": {"src": PIC, "alt": "Hills"}},
                   "right": {"table": {"headers": ["Q", "Revenue"], "rows": [["Q1", 100], ["Q2", 112]]}}})
    slides.append({"layout": "agenda", "title": "Agenda", "items": ["One", "Two"]})
    spec = {"title": "Layouts", "slides": slides}
    sp = os.path.join(tmp, "own.json")
    with open(sp, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    deck = os.path.join(tmp, "own.pptx")
    r = run("render", sp, "-o", deck)
    expect("own: render", r.returncode == 0, r.stdout + r.stderr)
    r = run("read", deck)
    expect("own: read", r.returncode == 0, r.stderr)
    got = untyped(json.loads(r.stdout)["slides"])
    want = untyped(fmt(tmp, spec)["slides"])
    for i, (g, w) in enumerate(zip(got, want)):
        expect("own: slide %d (%s) reads back as written" % (i + 1, w.get("layout")), g == w,
               "\n    got  %s\n    want %s" % (json.dumps(g)[:400], json.dumps(w)[:400]))
    expect("own: slide count", len(got) == len(want), "%d vs %d" % (len(got), len(want)))
    # a read deck renders again (the spec it gives is valid)
    rp = os.path.join(tmp, "read.json")
    with open(rp, "w", encoding="utf-8") as f:
        f.write(r.stdout)
    r2 = run("render", rp, "-o", os.path.join(tmp, "again.pptx"))
    expect("own: the read spec renders", r2.returncode == 0, r2.stdout + r2.stderr)

    # a column holding a chart (charts are not read): the rest, as title_content
    chart = COLUMNS["slides"][3]
    sp2 = os.path.join(tmp, "chart.json")
    with open(sp2, "w", encoding="utf-8") as f:
        json.dump({"slides": [chart]}, f)
    run("render", sp2, "-o", os.path.join(tmp, "chart.pptx"))
    r = run("read", os.path.join(tmp, "chart.pptx"))
    s = json.loads(r.stdout)["slides"][0]
    expect("chart column: not read as two_content", s.get("layout") not in ("two_content", "comparison"),
           json.dumps(s)[:200])
    expect("chart column: the picture kept", "image" in s, json.dumps(s)[:200])

    # the deck's logo comes back once, at the top; the ground picture is not slide content
    gp = os.path.join(SRC, "fixtures", "deck-ground-logo", "spec.json")
    run("render", gp, "-o", os.path.join(tmp, "ground.pptx"))
    r = run("read", os.path.join(tmp, "ground.pptx"))
    d = json.loads(r.stdout) if r.returncode == 0 else {}
    with open(gp, encoding="utf-8") as f:
        gspec = json.load(f)
    expect("logo: read back at the top", untyped(d.get("logo")) == untyped(gspec["logo"]),
           json.dumps(d.get("logo"))[:200])
    expect("logo: no slide holds a picture", not any("image" in s for s in d.get("slides", [])),
           json.dumps(d)[:300])

    # ---- a deck quire did not write: PowerPoint's layouts and placeholders ----
    A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' \
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' \
        'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
    REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

    def sp(i, ph, paras, num=False):
        ps = "".join('<a:p>%s<a:r><a:rPr lang="en-US"/><a:t>%s</a:t></a:r></a:p>'
                     % ('<a:pPr marL="457200" indent="-457200"><a:buAutoNum type="arabicPeriod"/></a:pPr>'
                        if num else "", t) for t in paras)
        return ('<p:sp><p:nvSpPr><p:cNvPr id="%d" name="Placeholder %d"/><p:cNvSpPr/><p:nvPr>%s</p:nvPr>'
                '</p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>%s</p:txBody></p:sp>' % (i, i, ph, ps))

    def slide(shapes):
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><p:sld %s><p:cSld><p:spTree>'
                '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>'
                '%s</p:spTree></p:cSld></p:sld>' % (A, "".join(shapes)))

    title = lambda t: sp(2, '<p:ph type="title"/>', [t])  # noqa: E731
    pic = ('<p:pic><p:nvPicPr><p:cNvPr id="3" name="Picture 2" descr="A view"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>'
           '<p:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>'
           '<p:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="12192000" cy="6858000"/></a:xfrm>'
           '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>')
    foreign = [
        ("twoObj", slide([title("Two sides"), sp(3, '<p:ph sz="half" idx="1"/>', ["Left one", "Left two"]),
                          sp(4, '<p:ph sz="half" idx="2"/>', ["Right one"])])),
        ("twoTxTwoObj", slide([title("Pros and cons"), sp(3, '<p:ph type="body" sz="quarter" idx="1"/>', ["Pros"]),
                               sp(4, '<p:ph sz="quarter" idx="2"/>', ["Fast"]),
                               sp(5, '<p:ph type="body" sz="quarter" idx="3"/>', ["Cons"]),
                               sp(6, '<p:ph sz="quarter" idx="4"/>', ["Costly"])])),
        ("blank", slide([pic])),
        ("obj", slide([title("Plan"), sp(3, '<p:ph idx="1"/>', ["Intro", "Results", "Next"], num=True)])),
        ("obj", slide([title("Plain"), sp(3, '<p:ph idx="1"/>', ["A point", "Another"])])),
    ]
    png = base64.b64decode(PIC.split(",", 1)[1])
    fp = os.path.join(tmp, "foreign.pptx")
    with zipfile.ZipFile(fp, "w") as z:
        ct = ['<Override PartName="/ppt/slides/slide%d.xml" ContentType="application/vnd.openxmlformats-'
              'officedocument.presentationml.slide+xml"/>' % (i + 1) for i in range(len(foreign))]
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
                   'relationships+xml"/><Default Extension="png" ContentType="image/png"/>'
                   '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-'
                   'officedocument.presentationml.presentation.main+xml"/>%s</Types>' % "".join(ct))
        z.writestr("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
                   'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="%s'
                   'officeDocument" Target="ppt/presentation.xml"/></Relationships>' % REL)
        z.writestr("ppt/presentation.xml", '<?xml version="1.0" encoding="UTF-8"?><p:presentation %s>'
                   '<p:sldIdLst>%s</p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/></p:presentation>'
                   % (A, "".join('<p:sldId id="%d" r:id="rId%d"/>' % (256 + i, i + 1) for i in range(len(foreign)))))
        z.writestr("ppt/_rels/presentation.xml.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships '
                   'xmlns="http://schemas.openxmlformats.org/package/2006/relationships">%s</Relationships>'
                   % "".join('<Relationship Id="rId%d" Type="%sslide" Target="slides/slide%d.xml"/>'
                             % (i + 1, REL, i + 1) for i in range(len(foreign))))
        z.writestr("ppt/media/image1.png", png)
        for i, (lay, xml) in enumerate(foreign):
            z.writestr("ppt/slides/slide%d.xml" % (i + 1), xml)
            z.writestr("ppt/slides/_rels/slide%d.xml.rels" % (i + 1),
                       '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.'
                       'org/package/2006/relationships"><Relationship Id="rIdL" Type="%sslideLayout" '
                       'Target="../slideLayouts/slideLayout%d.xml"/><Relationship Id="rIdImg" Type="%simage" '
                       'Target="../media/image1.png"/></Relationships>' % (REL, i + 1, REL))
            z.writestr("ppt/slideLayouts/slideLayout%d.xml" % (i + 1),
                       '<?xml version="1.0" encoding="UTF-8"?><p:sldLayout %s type="%s"><p:cSld><p:spTree/>'
                       '</p:cSld></p:sldLayout>' % (A, lay))
    r = run("read", fp)
    expect("foreign: read", r.returncode == 0, r.stdout + r.stderr)
    got = json.loads(r.stdout)["slides"] if r.returncode == 0 else []
    want = [
        {"layout": "two_content", "title": "Two sides", "left": {"bullets": ["Left one", "Left two"]},
         "right": {"bullets": ["Right one"]}},
        {"layout": "comparison", "title": "Pros and cons", "left": {"heading": "Pros", "bullets": ["Fast"]},
         "right": {"heading": "Cons", "bullets": ["Costly"]}},
        {"layout": "image_full", "image": {"src": PIC, "alt": "A view"}},
        {"layout": "agenda", "title": "Plan", "items": ["Intro", "Results", "Next"]},
        {"title": "Plain", "bullets": ["A point", "Another"]},
    ]
    for i, w in enumerate(want):
        g = untyped(got[i]) if i < len(got) else None
        expect("foreign: slide %d guessed as %s" % (i + 1, w.get("layout", "title_content")), g == w,
               "\n    got  %s\n    want %s" % (json.dumps(g)[:400], json.dumps(w)[:400]))

print("%d failed" % failed)
sys.exit(1 if failed else 0)
