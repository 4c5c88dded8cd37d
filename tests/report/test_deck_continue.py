#!/usr/bin/env python3
"""Continuation (issue 34): a 40-slide deck with every layout (the eleven,
columns with bullets, a table and a picture, a full picture, an agenda),
overflowing bullets and a 60-row table.
- continuation slides are there ("Title (cont.)"), the table's header row on each;
- no text lies outside its shape in LibreOffice's PDF of quire's .pptx
  (pdftotext -bbox against each slide's shape boxes: left, right and top with
  2 pt slack, the middle of each word above the box's bottom);
- the layout report lists exactly the shrinks (the shapes the .pptx writes a
  fontScale for) and the continuations (the "(cont.)" slides), nothing else;
- a 16-item agenda continues as bullets do: "Agenda 32 (cont.)", numbered on
  (a:buAutoNum startAt), its current item (the 14th) highlighted on the
  slide holding it, a "continued" item at its /items;
- the preview (.pdf) has the same pages and the same report."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import struct
import zipfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from office import soffice_convert  # noqa: E402

QUIRE = os.environ.get("QUIRE", "quire")
fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        fails.append(what)
    return cond


LONG = "a long bullet that keeps going with enough words to wrap over more than one line on the slide"
tmp = tempfile.mkdtemp(prefix="qr-cont-")


def png(w, h):
    """A w x h RGB PNG, a gradient (no picture is drawn past its pixels here)."""
    line = bytes(v for x in range(w) for v in (x * 255 // w, 96, 160))
    raw = b"".join(b"\x00" + line for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


with open(os.path.join(tmp, "wide.png"), "wb") as f:
    f.write(png(1400, 800))
PIC = {"src": "wide.png", "alt": "a gradient"}
slides = []
for i in range(37):
    k = i % 11
    if k == 0:
        slides.append({"title": "Point %d" % i, "bullets": ["first", "second", {"text": "third", "items": ["a", "b"]}]})
    elif k == 1:
        slides.append({"layout": "section", "title": "Part %d" % i, "subtitle": "about it"})
    elif k == 2:
        slides.append({"layout": "quote", "quote": "Simple things should be simple.", "attribution": "Alan Kay"})
    elif k == 3:
        slides.append({"layout": "stats", "title": "Numbers %d" % i,
                       "stats": [{"value": "42%", "label": "Growth"}, {"value": "7", "label": "Regions"}]})
    elif k == 4:
        slides.append({"layout": "title", "title": "Chapter %d" % i, "subtitle": "and more"})
    elif k == 5:
        slides.append({"layout": "blank", "title": "Blank %d" % i, "bullets": ["x", "y"]})
    elif k == 6:
        slides.append({"layout": "closing", "title": "Thanks %d" % i, "subtitle": "bye"})
    elif k == 7:
        slides.append({"layout": "two_content", "title": "Two %d" % i, "left": {"bullets": ["left one", "left two"]},
                       "right": {"image": PIC} if i % 2 else
                       {"table": {"headers": ["Region", "Revenue"], "rows": [["EMEA", 12], ["APAC", 9]]}}})
    elif k == 8:
        slides.append({"layout": "comparison", "title": "Compare %d" % i,
                       "left": {"heading": "Build", "bullets": ["control", "cost"]},
                       "right": {"heading": "Buy", "bullets": ["ready", "support"]}})
    elif k == 9:
        slides.append({"layout": "image_full", "title": "Full %d" % i, "caption": "a caption", "image": PIC})
    elif i == 32:  # more items than fit: they continue
        slides.append({"layout": "agenda", "title": "Agenda %d" % i, "current": 13,
                       "items": ["Item %d of the long agenda" % (n + 1) for n in range(16)]})
    else:
        slides.append({"layout": "agenda", "title": "Agenda %d" % i, "items": ["Where", "What", "Next"],
                       "current": i % 3})
# overflowing bullets: 9 shrink above the floor, 40 continue
slides.insert(5, {"title": "Nine", "bullets": ["%d %s" % (n, LONG) for n in range(9)]})
slides.insert(12, {"title": "Forty", "bullets": ["%d %s" % (n, LONG) for n in range(40)]})
rows = [["row %d" % r, "value %d" % (r * 7), "note %d" % r] for r in range(60)]
slides.insert(20, {"title": "Sixty rows", "table": {"headers": ["Name", "Value", "Note"], "rows": rows}})
spec = {"title": "Continuation", "slides": slides}
LAYOUTS = {"title_content", "section", "quote", "stats", "title", "blank", "closing", "two_content", "comparison",
           "image_full", "agenda"}
check({s_.get("layout", "title_content") for s_ in slides} == LAYOUTS, "every layout is in the deck")
sp = os.path.join(tmp, "deck.json")
with open(sp, "w") as f:
    json.dump(spec, f)
out = os.path.join(tmp, "deck.pptx")
r = subprocess.run([QUIRE, "render", sp, "-o", out], capture_output=True, text=True)
res = json.loads(r.stdout)
check(r.returncode == 0, "render .pptx")
n = res["pages"]

z = zipfile.ZipFile(out)
xml = [z.read("ppt/slides/slide%d.xml" % i).decode() for i in range(1, n + 1)]
TITLE = re.compile(r'name="Title[^"]*".*?</p:sp>', re.S)


def texts(x):
    return "".join(re.findall(r"<a:t>([^<]*)</a:t>", x))


titles = [texts(m.group(0)) if (m := TITLE.search(x)) else "" for x in xml]
cont = [i + 1 for i, t in enumerate(titles) if t.endswith("(cont.)")]
check(len(spec["slides"]) == 40 and len(spec["slides"]) < n, "more slides than the spec's %d: %d" % (len(spec["slides"]), n))
check(any(t == "Forty (cont.)" for t in titles), "the forty bullets continue on \"Forty (cont.)\"")
check(titles.count("Sixty rows (cont.)") >= 2, "the 60 rows continue on \"Sixty rows (cont.)\" slides")
for i, t in enumerate(titles):
    if t == "Sixty rows (cont.)":
        check("<a:t>Name</a:t>" in xml[i], "slide %d repeats the table's header row" % (i + 1))
body = "".join(texts(x) for x in xml)
for b in range(40):
    check(("%d %s" % (b, LONG)) in body, "bullet %d is in the deck" % b) if b % 13 == 0 else None
check(all(("row %d" % r) in body for r in range(60)), "all 60 rows are in the deck")

# the long agenda: continued, numbered on, the current item where it lands
ag = [i for i, s_ in enumerate(spec["slides"]) if s_.get("title") == "Agenda 32"][0]
first = titles.index("Agenda 32")
check(titles[first + 1] == "Agenda 32 (cont.)", "the long agenda continues on \"Agenda 32 (cont.)\"")
body_ag = texts(xml[first]) + texts(xml[first + 1])
check(all(("Item %d of the long agenda" % (n + 1)) in body_ag for n in range(16)), "all 16 items are on the two slides")
m = re.search(r'<a:buAutoNum type="arabicPeriod" startAt="(\d+)"/>', xml[first + 1])
kept = xml[first].count("<a:buAutoNum")
check(m and int(m.group(1)) == kept + 1, "the continuation is numbered on from %d: %s" % (kept + 1, m and m.group(1)))
check("startAt" not in xml[first], "the first agenda slide numbers from 1")
holder = first if kept >= 14 else first + 1
check(re.search(r'b="1"[^>]*>(?:(?!</a:r>).)*<a:t>Item 14 of the long agenda</a:t>', xml[holder], re.S) is not None,
      "item 14 (current) is bold on slide %d" % (holder + 1))
check(all('b="1"' not in r_ for r_ in re.findall(r"<a:r>.*?</a:r>", xml[first + (holder == first)], re.S)
          if "long agenda" in r_), "no item is highlighted on the other agenda slide")

# the report: exactly the shrinks and the continuations
want_shrink = set()
for i, x in enumerate(xml):
    for sp_ in re.findall(r"<p:sp>.*?</p:sp>", x, re.S):
        if "fontScale=" in sp_ or "lnSpcReduction=" in sp_:
            want_shrink.add(i + 1)
got = res["layout"]
check(sorted({i["slide"] for i in got if i["kind"] == "shrink"}) == sorted(want_shrink),
      "shrink items on exactly the slides with a fontScale: %s" % sorted(want_shrink))
check(sorted(i["slide"] for i in got if i["kind"] == "continued") == cont,
      "continued items on exactly the (cont.) slides: %s" % cont)
check({i["kind"] for i in got} <= {"shrink", "continued"}, "nothing else reported: %s" % {i["kind"] for i in got})
forty = [i for i in got if i["kind"] == "continued" and i["path"] == "/slides/12/bullets"]
check(forty and all(i["path"] == "/slides/12/bullets" for i in forty), "continuations point at /slides/12/bullets")
check(any(i["path"] == "/slides/20/table" for i in got if i["kind"] == "continued"),
      "table continuations point at /slides/20/table")
check([i["slide"] for i in got if i["kind"] == "continued" and i["path"] == "/slides/%d/items" % ag] == [first + 2],
      "the agenda's continuation is reported at /slides/%d/items, slide %d" % (ag, first + 2))

# the preview: the same slides, the same report
pdf = os.path.join(tmp, "deck.pdf")
r = subprocess.run([QUIRE, "render", sp, "-o", pdf], capture_output=True, text=True)
pres = json.loads(r.stdout)
check(pres["pages"] == n, "preview: %d pages" % n)
check(pres["layout"] == res["layout"], "preview: the same layout report")

# LibreOffice: every word inside a shape of its slide
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
BOX = re.compile(r'<a:off x="(\d+)" y="(\d+)"/>\s*<a:ext cx="(\d+)" cy="(\d+)"/>')
if shutil.which("soffice"):
    soffice_convert("pdf", [out], os.path.join(tmp, "lo"))
    lo = os.path.join(tmp, "lo", "deck.pdf")
    if check(os.path.exists(lo), "LibreOffice exported a PDF"):
        bb = subprocess.run(["pdftotext", "-bbox", lo, "-"], capture_output=True, text=True).stdout
        pages = PAGE.findall(bb)
        check(len(pages) == n, "LibreOffice: %d pages" % len(pages))
        outside = []
        for i, (w, h, body_) in enumerate(pages):
            boxes = [tuple(int(v) / 12700 for v in m) for m in BOX.findall(xml[i])]
            for x0, y0, x1, y1, word in WORD.findall(body_):
                x0, y0, x1, y1 = float(x0), float(y0), float(x1), float(y1)
                # the bottom of a word's box is the embedded font's descent as LibreOffice's
                # font descriptor gives it (up to 0.3 em): its middle must be inside
                if not any(x0 >= bx - 2 and x1 <= bx + bw + 2 and y0 >= by - 2 and (y0 + y1) / 2 <= by + bh
                           for bx, by, bw, bh in boxes):
                    outside.append((i + 1, word, (x0, y0, x1, y1)))
        check(not outside, "no word outside its shape in LibreOffice's PDF: %s" % outside[:5])
else:
    check(False, "soffice is installed")
sys.exit(1 if fails else 0)
