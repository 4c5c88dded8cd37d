#!/usr/bin/python3
"""pptx backend, end to end (python3 standard library only: zipfile + xml.etree).

For every fixtures/deck-*/spec.json:
- render it (twice: same bytes), validate with ../shared/tools/ooxml-validate;
- read the package back and compare with the spec: one slide per spec slide,
  in order, on the right layout; each title, subtitle and bullet (with its
  level) equal to the spec text exactly; notes one paragraph per line;
- LibreOffice (../shared/tools/office-smoke, one batch) opens every deck and
  exports one PDF page per slide (a deck with 0 slides exports 1 empty page:
  Impress always has a page), and each page's text holds its slide's title
  and bullets (whitespace removed; right-to-left text compared as a multiset
  of characters, since PDF text of RTL lines comes out in visual order).
Then per-fixture checks: scripts (a:ea/a:cs, lang, rtl), injection payloads
literal, notes, 8 levels, table and image, layouts, 4:3, shrink to fit,
runs and links, the DocsGPT example, coverage warnings.
Reports (does not assert) the P1 benchmark time. Ends with "N passed, N failed".
"""
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata
import zipfile
from xml.etree import ElementTree as ET

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from checks import check, done  # noqa: E402
from shared import need, need_tool  # noqa: E402

NS = {
    "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
    "p": "http://schemas.openxmlformats.org/presentationml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}
A = "{%s}" % NS["a"]
R = "{%s}" % NS["r"]

def eq(got, want, what):
    return check(got == want, "%s: got %r, want %r" % (what, got, want))


# ---- the spec side -----------------------------------------------------------------


def spec_text(v):
    """A text value (string, {text}, {runs}) as the string the slide must hold."""
    if isinstance(v, str):
        return v
    if "text" in v:
        return v["text"]
    return "".join(r if isinstance(r, str) else r["text"] for r in v.get("runs", []))


def flatten(items, lvl=0):
    out = []
    for it in items or []:
        out.append((spec_text(it), lvl))
        if isinstance(it, dict):
            out += flatten(it.get("items"), lvl + 1)
    return out


def body_of(slide):
    """(text, level) of the body placeholder: subtitle first, then the bullets."""
    out = []
    if "subtitle" in slide:
        out.append((slide["subtitle"], 0))
    out += flatten(slide.get("bullets"))
    return out


# ---- the package side -------------------------------------------------------------------


def rels(z, part):
    d, f = part.rsplit("/", 1)
    name = "%s/_rels/%s.rels" % (d, f)
    if name not in z.namelist():
        return {}
    out = {}
    for r in ET.fromstring(z.read(name)):
        tgt = r.get("Target")
        if r.get("TargetMode") != "External":
            tgt = os.path.normpath(os.path.join(d, tgt))
        out[r.get("Id")] = (r.get("Type").rsplit("/", 1)[1], tgt)
    return out


def para_text(p):
    s = ""
    for el in p:
        if el.tag == A + "r":
            s += el.find("a:t", NS).text or ""
        elif el.tag == A + "br":
            s += "\n"
    return s


def para_info(p):
    ppr = p.find("a:pPr", NS)
    attrs = dict(ppr.attrib) if ppr is not None else {}
    bu = ppr.find("a:buChar", NS) if ppr is not None else None
    return {"text": para_text(p), "lvl": int(attrs.get("lvl", "0")), "ppr": attrs,
            "bu": bu.get("char") if bu is not None else None, "el": p}


class Slide:
    def __init__(self, z, part):
        self.part = part
        self.xml = z.read(part)
        self.root = ET.fromstring(self.xml)
        self.rels = rels(z, part)
        self.layout = next((t for k, t in self.rels.values() if k == "slideLayout"), None)
        self.shapes = []
        tree = self.root.find("p:cSld/p:spTree", NS)
        for el in tree:
            tag = el.tag.split("}")[1]
            if tag in ("nvGrpSpPr", "grpSpPr"):
                continue
            info = {"tag": tag, "el": el}
            if tag == "sp":
                info["name"] = el.find("p:nvSpPr/p:cNvPr", NS).get("name")
                ph = el.find("p:nvSpPr/p:nvPr/p:ph", NS)
                info["ph"] = None if ph is None else (ph.get("type", "obj"), ph.get("idx", "0"))
                info["paras"] = [para_info(p) for p in el.findall("p:txBody/a:p", NS)]
                info["autofit"] = el.find("p:txBody/a:bodyPr/a:normAutofit", NS)
            self.shapes.append(info)
        notes = next((t for k, t in self.rels.values() if k == "notesSlide"), None)
        self.notes = None
        if notes:
            nroot = ET.fromstring(z.read(notes))
            body = [sp for sp in nroot.iter("{%s}sp" % NS["p"])
                    if sp.find("p:nvSpPr/p:nvPr/p:ph", NS) is not None
                    and sp.find("p:nvSpPr/p:nvPr/p:ph", NS).get("type") == "body"][0]
            self.notes = [para_text(p) for p in body.findall("p:txBody/a:p", NS)]
            self.notes_xml = z.read(notes)

    def shape(self, name):
        return next((s for s in self.shapes if s.get("name") == name), None)

    def texts(self):
        """Every a:t text in the slide."""
        return [t.text or "" for t in self.root.iter(A + "t")]


class Deck:
    def __init__(self, path):
        self.z = zipfile.ZipFile(path)
        self.names = self.z.namelist()
        self.pres = ET.fromstring(self.z.read("ppt/presentation.xml"))
        prels = rels(self.z, "ppt/presentation.xml")
        self.slides = []
        for sid in self.pres.findall("p:sldIdLst/p:sldId", NS):
            self.slides.append(Slide(self.z, prels[sid.get(R + "id")][1]))
        sz = self.pres.find("p:sldSz", NS)
        self.size = (int(sz.get("cx")), int(sz.get("cy")), sz.get("type"))
        core = ET.fromstring(self.z.read("docProps/core.xml"))
        t = core.find("{http://purl.org/dc/elements/1.1/}title")
        self.title = t.text if t is not None else None


LAYOUT_FILE = {"title": "slideLayout1.xml", "title_content": "slideLayout2.xml",
               "section": "slideLayout3.xml", "blank": "slideLayout4.xml",
               # issue 34's layouts: text boxes on the blank layout
               "quote": "slideLayout4.xml", "stats": "slideLayout4.xml", "closing": "slideLayout4.xml",
               "two_content": "slideLayout4.xml", "comparison": "slideLayout4.xml",
               "image_full": "slideLayout4.xml", "agenda": "slideLayout4.xml"}


def render(spec_path, out, env_extra=None):
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
    p = subprocess.run([QUIRE, "render", spec_path, "-o", out], capture_output=True, text=True,
                       timeout=120, env=env)
    return p


# ---- generic readback --------------------------------------------------------------------


def readback(case, spec, deck):
    slides = spec["slides"]
    eq(len(deck.slides), len(slides), "%s: slide count" % case)
    eq(deck.title, spec.get("title"), "%s: core title" % case)
    for i, (s, sl) in enumerate(zip(slides, deck.slides)):
        where = "%s slide %d" % (case, i + 1)
        layout = s.get("layout", "title_content")
        check(sl.layout and sl.layout.endswith(LAYOUT_FILE[layout]), "%s: layout %s -> %s" % (where, layout, sl.layout))
        title = sl.shape("Title (closing)" if layout == "closing" else "Title")
        if "title" in s:
            check(title is not None, where + ": title shape")
            if title:
                eq("\n".join(p["text"] for p in title["paras"]), s["title"], where + ": title text")
                if layout in ("title", "title_content", "section"):
                    eq(title["ph"][0], "ctrTitle" if layout == "title" else "title", where + ": title placeholder")
        else:
            check(title is None, where + ": no title shape")
        want = body_of(s)
        body = sl.shape("Content")
        if want:
            check(body is not None, where + ": body shape")
            if body:
                eq([p["text"] for p in body["paras"]], [t for t, _ in want], where + ": body texts")
                if "bullets" in s and layout in ("title_content", "blank") and "subtitle" not in s:
                    eq([p["lvl"] for p in body["paras"]], [min(l, 8) for _, l in want], where + ": levels")
                    check(all(p["bu"] for p in body["paras"]), where + ": every bullet has a glyph")
        else:
            check(body is None, where + ": no body shape")
        if "notes" in s:
            eq(sl.notes, re.split(r"\r\n|\r|\n", s["notes"]), where + ": notes lines")
        else:
            check(sl.notes is None, where + ": no notes slide")
        cols = [s[k] for k in ("left", "right") if k in s]
        eq(sum(1 for sh in sl.shapes if sh["tag"] == "graphicFrame"),
           sum(1 for o in [s] + cols for k in ("table", "chart") if k in o), where + ": tables and charts")
        logo = 1 if "logo" in spec and s.get("footer") is not False else 0  # the deck's, on each slide
        eq(sum(1 for sh in sl.shapes if sh["tag"] == "pic"), sum(1 for o in [s] + cols if "image" in o) + logo,
           where + ": pictures")
    has_notes = any("notes" in s for s in slides)
    eq(any(n.startswith("ppt/notesMasters/") for n in deck.names), has_notes, case + ": notes master iff notes")
    eq(deck.pres.find("p:notesMasterIdLst", NS) is not None, has_notes, case + ": notesMasterIdLst iff notes")


# ---- per-fixture checks --------------------------------------------------------------------


def runs_of(sl, name):
    sh = sl.shape(name)
    out = []
    for p in sh["paras"]:
        for r in p["el"].findall("a:r", NS):
            out.append((r.find("a:t", NS).text, r.find("a:rPr", NS)))
    return out


def check_multiscript(deck):
    ar, he, ja, ko, mixed = deck.slides
    for sl, fam, lang in ((ar, "Noto Sans Arabic", "ar"), (he, "Noto Sans Hebrew", "he")):
        for name in ("Title", "Content"):
            for p in sl.shape(name)["paras"]:
                eq((p["ppr"].get("rtl"), p["ppr"].get("algn")), ("1", "r"), "multiscript %s %s: rtl paragraph" % (lang, name))
        for text, rpr in runs_of(sl, "Content"):
            if re.search(r"[\u0590-\u06ff]", text):
                cs = rpr.find("a:cs", NS)
                check(cs is not None and cs.get("typeface") == fam, "multiscript %s: a:cs %s for %r" % (lang, fam, text))
                eq(rpr.get("lang"), lang, "multiscript %s: lang of %r" % (lang, text))
    # Without a spec lang the CJK flavour is chosen per sentence (fonts/):
    # kana -> JP, hangul -> KR; Han alone ("日本語") is SC.
    for sl, fam, lang, mark in ((ja, "Noto Sans CJK JP", "ja", r"[\u3040-\u30ff]"),
                                (ko, "Noto Sans CJK KR", "ko", r"[\uac00-\ud7a3]")):
        for text, rpr in runs_of(sl, "Content") + runs_of(sl, "Title"):
            if re.search(mark, text):
                ea = rpr.find("a:ea", NS)
                check(ea is not None and ea.get("typeface") == fam, "multiscript %s: a:ea %s for %r" % (lang, fam, text))
                check((rpr.get("lang") or "").startswith(lang), "multiscript %s: lang of %r is %r" % (lang, text, rpr.get("lang")))
        for p in sl.shape("Content")["paras"]:
            check(p["ppr"].get("rtl") is None, "multiscript %s: not rtl" % lang)
    # Mixed: "Version 2 (نسخه)" is LTR (first strong is Latin), the runs split by script.
    paras = mixed.shape("Content")["paras"]
    check(paras[1]["ppr"].get("rtl") is None, "multiscript mixed: LTR paragraph with Persian")
    slots = [[c.tag.split("}")[1] for c in r.find("a:rPr", NS) if c.tag.split("}")[1] in ("latin", "ea", "cs")]
             for r in paras[0]["el"].findall("a:r", NS)]
    check(["cs"] in slots and ["ea"] in slots and ["latin"] in slots, "multiscript mixed: latin, cs and ea runs: %r" % slots)


PAYLOADS = ["<script>alert(1)</script>", "__import__('os').system('x')", "{{7*7}}", "${7*7}"]


def check_injection(deck, spec):
    s1 = deck.slides[0]
    eq(s1.texts()[0], PAYLOADS[0], "injection: title a:t equals the payload")
    for pl in PAYLOADS:
        check(pl in s1.texts(), "injection: %r literal in a:t" % pl)
    check(b"<script>" not in s1.xml and b"&lt;script&gt;" in s1.xml, "injection: markup escaped in the XML")
    eq(s1.notes, ["__import__('os').system('x')", "${7*7}"], "injection: notes literal")
    eq(deck.slides[1].shape("Content")["paras"][0]["text"], "{{7*7}}", "injection: subtitle literal")
    eq(deck.slides[2].shape("Content")["paras"][0]["text"], "${7*7} and <i>x</i>", "injection: runs literal")
    eq(deck.title, "<b>Injection</b> & {{7*7}}", "injection: core title literal")


def check_levels(deck):
    paras = deck.slides[0].shape("Content")["paras"]
    eq([p["lvl"] for p in paras], [0, 1, 2, 3, 4, 5, 6, 7, 0], "levels: a:pPr lvl")
    eq([p["bu"] for p in paras], ["\u2022", "\u25e6", "\u25aa", "\u2022", "\u25e6", "\u25aa", "\u2022", "\u25e6", "\u2022"],
       "levels: bullet glyphs")
    marl = [int(p["ppr"]["marL"]) for p in paras[:8]]
    check(marl == sorted(marl) and len(set(marl)) == 8, "levels: marL grows per level %r" % marl)
    check(all(int(p["ppr"]["indent"]) < 0 for p in paras), "levels: hanging indent")


def check_table_image(deck, spec):
    s1 = deck.slides[0]
    frame = [s for s in s1.shapes if s["tag"] == "graphicFrame"][0]["el"]
    tbl = frame.find(".//a:tbl", NS)
    eq(tbl.find("a:tblPr", NS).get("firstRow"), "1", "table: firstRow")
    cols = [int(g.get("w")) for g in tbl.findall("a:tblGrid/a:gridCol", NS)]
    check(abs(cols[0] - 2 * cols[1]) <= 2 and abs(cols[1] - cols[2]) <= 2, "table: widths 2:1:1 %r" % cols)
    eq(sum(cols), 10515600, "table: grid spans the content area")
    rows = tbl.findall("a:tr", NS)
    t = spec["slides"][0]["table"]
    eq(len(rows), 1 + len(t["rows"]), "table: rows")
    cells = [[para_text(tc.find("a:txBody/a:p", NS)) for tc in tr.findall("a:tc", NS)] for tr in rows]
    eq(cells[0], t["headers"], "table: header texts")
    eq(cells[1], ["EMEA", "1200.5", "+12%"], "table: row 1")
    eq(cells[3], ["APAC", "640", ""], "table: null cell empty")
    eq(cells[4], ["Total", "2820.5", "true"], "table: boolean cell")
    hdr_rpr = [r.find("a:rPr", NS) for r in rows[0].iter(A + "r")]
    check(hdr_rpr and all(r.get("b") == "1" for r in hdr_rpr), "table: header runs bold")
    num_p = rows[1].findall("a:tc", NS)[1].find("a:txBody/a:p/a:pPr", NS)
    check(num_p is not None and num_p.get("algn") == "r", "table: numbers right-aligned")
    # image slide
    s2 = deck.slides[1]
    pic = [s for s in s2.shapes if s["tag"] == "pic"][0]["el"]
    eq(pic.find("p:nvPicPr/p:cNvPr", NS).get("descr"), spec["slides"][1]["image"]["alt"], "image: descr = alt")
    rid = pic.find("p:blipFill/a:blip", NS).get(R + "embed")
    kind, target = s2.rels[rid]
    eq((kind, target), ("image", "ppt/media/image1.png"), "image: r:embed to ppt/media")
    check(target in deck.names, "image: media part exists")
    ext = pic.find("p:spPr/a:xfrm/a:ext", NS)
    off = pic.find("p:spPr/a:xfrm/a:off", NS)
    cx, cy = int(ext.get("cx")), int(ext.get("cy"))
    check(abs(cx * 40 - cy * 64) <= 64 * 2, "image: aspect ratio 64:40 kept (%d x %d)" % (cx, cy))
    x, y = int(off.get("x")), int(off.get("y"))
    check(x >= 838200 and y >= 1825625 and x + cx <= 838200 + 10515600 + 1 and y + cy <= 1825625 + 4351338 + 1,
          "image: inside the content area")
    # bullets left, visual right
    s3 = deck.slides[2]
    body = s3.shape("Content")["el"].find("p:spPr/a:xfrm", NS)
    frame = [s for s in s3.shapes if s["tag"] == "graphicFrame"][0]["el"].find("p:xfrm", NS)
    bx = int(body.find("a:off", NS).get("x")) + int(body.find("a:ext", NS).get("cx"))
    fx = int(frame.find("a:off", NS).get("x"))
    check(int(body.find("a:ext", NS).get("cx")) < 10515600 / 2 and fx > bx, "table-image: bullets left, table right")


def check_layouts(deck):
    s = deck.slides
    eq(s[0].shape("Content")["ph"], ("subTitle", "1"), "layouts: subtitle placeholder")
    eq(s[2].shape("Title")["ph"], ("title", "0"), "layouts: section title")
    eq(s[2].shape("Content")["ph"], ("body", "1"), "layouts: section body placeholder")
    eq(s[3].shape("Title")["ph"], None, "layouts: blank title is a text box")
    sz = [r.find("a:rPr", NS).get("sz") for r in s[3].shape("Content")["el"].iter(A + "r")]
    eq(sz, ["2800", "2800"], "layouts: blank text box has explicit sizes")
    eq(s[4].shapes, [], "layouts: empty blank slide has no shapes")
    eq(s[5].shapes, [], "layouts: empty slide object has no shapes")
    names = set(deck.names)
    for n in range(1, 5):
        check("ppt/slideLayouts/slideLayout%d.xml" % n in names, "layouts: layout %d written" % n)


def check_overflow(deck):
    af = deck.slides[0].shape("Content")["autofit"]
    scale = int(af.get("fontScale", "100000"))
    check(scale < 100000, "overflow: normAutofit fontScale %d < 100000" % scale)
    check(int(af.get("lnSpcReduction", "0")) > 0, "overflow: lnSpcReduction set")
    eq(len(deck.slides[0].shape("Content")["paras"]), 9, "overflow: 9 paragraphs (shrunk above the 60 % floor: no continuation)")


def check_docsgpt(deck):
    eq(deck.title, "Q3", "docsgpt: title is metadata")
    eq(len(deck.slides), 1, "docsgpt: no title slide, one slide")
    eq(deck.size, (12192000, 6858000, None), "docsgpt: 16:9 by default")
    eq(deck.slides[0].notes, ["Mention churn"], "docsgpt: notes")


def check_43(deck):
    eq(deck.size, (9144000, 6858000, "screen4x3"), "4:3: sldSz")
    off = deck.slides[1].shape("Content")["el"].find("p:spPr/a:xfrm/a:ext", NS)
    check(int(off.get("cx")) < 9144000, "4:3: content fits the narrower slide")


def check_runs(deck):
    sl = deck.slides[0]
    runs = runs_of(sl, "Content")
    byt = {}
    for text, rpr in runs:
        byt.setdefault(text, rpr)
    eq(byt["bold"].get("b"), "1", "runs: bold")
    eq(byt["italic"].get("i"), "1", "runs: italic")
    eq(byt["underlined"].get("u"), "sng", "runs: underline")
    eq(byt["struck"].get("strike"), "sngStrike", "runs: strike")
    eq(byt["print(1)"].find("a:latin", NS).get("typeface"), "DejaVu Sans Mono", "runs: code font")
    eq(byt["bold"].get("lang"), "en-US", "runs: lang from the spec")
    links = {t: r.find("a:hlinkClick", NS) for t, r in runs if r.find("a:hlinkClick", NS) is not None}
    eq(sorted(links), ["example", "example.com", "mail"], "runs: linked runs")
    ids = {t: l.get(R + "id") for t, l in links.items()}
    eq(ids["example"], ids["example.com"], "runs: one relationship per URL")
    eq(sl.rels[ids["example.com"]], ("hyperlink", "https://example.com/"), "runs: external link target")
    eq(sl.rels[ids["mail"]], ("hyperlink", "mailto:team@example.com"), "runs: mailto target")
    last = sl.shape("Content")["paras"][3]["el"]
    check(last.find("a:br", NS) is not None, "runs: newline is a:br")
    # element order inside a:rPr (CT_TextCharacterProperties): latin/ea/cs before hlinkClick
    for _, rpr in runs:
        tags = [c.tag.split("}")[1] for c in rpr]
        order = ["ln", "solidFill", "effectLst", "highlight", "uLnTx", "uLn", "uFillTx", "uFill",
                 "latin", "ea", "cs", "sym", "hlinkClick", "hlinkMouseOver", "rtl", "extLst"]
        check([order.index(t) for t in tags] == sorted(order.index(t) for t in tags), "runs: rPr child order %r" % tags)


def check_notes(deck):
    eq(deck.slides[0].notes, ["First line", "Second line", "", "After a blank line", "  indented line"], "notes: lines")
    eq(deck.slides[2].notes, ["One", "Two", "Three"], "notes: CRLF lines")
    eq(deck.slides[1].notes, None, "notes: slide without notes")


def check_empty(deck):
    eq(deck.slides, [], "empty: no slides")
    check(deck.pres.find("p:sldIdLst", NS) is None, "empty: no sldIdLst")
    eq(deck.title, "Nothing yet", "empty: title")


def check_structural(deck, spec):
    """The quote and stats layouts: one named text box per text, centred, the
    stat values bold in the accent; every box inside the slide."""
    for s, sl in zip(spec["slides"], deck.slides):
        if s.get("layout") == "quote":
            q = sl.shape("Quote")
            eq(q and q["paras"][0]["text"], s["quote"], "structural: the quote's text box")
            a = sl.shape("Attribution")
            eq(a and a["paras"][0]["text"], s["attribution"], "structural: the attribution's text box")
        if s.get("layout") == "stats":
            for i, st in enumerate(s["stats"]):
                for k in ("value", "label", "caption"):
                    box = sl.shape("Stat %d %s" % (i + 1, k.capitalize()))
                    eq(box and box["paras"][0]["text"], st.get(k), "structural: stat %d %s" % (i + 1, k))
        # the furniture: none where "footer" is false, else the date, the footer and the number
        n = deck.slides.index(sl) + 1
        foot = sl.shape("Footer")
        if s.get("footer") is False:
            check(foot is None and sl.shape("Slide Number") is None, "structural: slide %d has no furniture" % n)
        else:
            eq(foot and foot["paras"][0]["text"], s.get("footer") or spec["footer"], "structural: slide %d footer" % n)
            num = sl.shape("Slide Number")
            eq(num and num["paras"][0]["text"], str(n), "structural: slide %d number" % n)
            dt = sl.shape("Date")
            eq(dt and dt["paras"][0]["text"], spec["date"], "structural: slide %d date" % n)
        xml = ET.tostring(sl.root).decode()
        if s.get("layout") == "stats":
            check('b="1"' in xml and 'val="accent1"' in xml, "structural: stat values bold, in accent1")


EXTRA = {
    "deck-structural": check_structural,
    "deck-multiscript": lambda d, s: check_multiscript(d),
    "deck-injection": check_injection,
    "deck-levels": lambda d, s: check_levels(d),
    "deck-table-image": check_table_image,
    "deck-layouts": lambda d, s: check_layouts(d),
    "deck-overflow": lambda d, s: check_overflow(d),
    "deck-docsgpt": lambda d, s: check_docsgpt(d),
    "deck-4x3": lambda d, s: check_43(d),
    "deck-runs": lambda d, s: check_runs(d),
    "deck-notes": lambda d, s: check_notes(d),
    "deck-empty": lambda d, s: check_empty(d),
}

# ---- LibreOffice -------------------------------------------------------------------------

BIDI = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")
RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def squash(s):
    return re.sub(r"\s+", "", BIDI.sub("", unicodedata.normalize("NFKC", s)))


def in_page(text, page):
    t, p = squash(text), squash(page)
    if not RTL.search(t):
        return t in p
    # visual-order extraction: every character must be on the page
    need, have = collections.Counter(t), collections.Counter(p)
    return all(have[c] >= n for c, n in need.items())


def office(specs, files, tmp):
    if not need_tool("soffice"):
        return
    smoke = need("tools/office-smoke")
    if not smoke:
        return
    outdir = os.path.join(tmp, "pdf")
    p = subprocess.run([smoke, "--keep", outdir] + files,
                       capture_output=True, text=True, timeout=600)
    check(p.returncode == 0, "office-smoke: %s %s" % (p.stdout[-2000:], p.stderr[-2000:]))
    for case, path in zip(specs, files):
        spec = specs[case]
        pdf = os.path.join(outdir, os.path.basename(path) + ".pdf")
        if not check(os.path.exists(pdf), "%s: LibreOffice exported a PDF" % case):
            continue
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
        pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
        # Impress always has at least one page: a deck of 0 slides exports one empty page.
        eq(pages, max(1, len(spec["slides"])), "%s: PDF pages" % case)
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True).stdout
        page_texts = text.split("\f")
        for i, s in enumerate(spec["slides"]):
            page = page_texts[i] if i < len(page_texts) else ""
            want = ([s["title"]] if "title" in s else []) + [t for t, _ in body_of(s)]
            for w in want:
                check(in_page(w, page), "%s: slide %d PDF text holds %r" % (case, i + 1, w))


# ---- coverage warnings, P1 ------------------------------------------------------------------


def check_warnings(tmp):
    spec = {"slides": [{"title": "x \U000F0000 y", "bullets": ["\U000F0000 again", "\ue000 pua"],
                        "notes": "n \ue000"}]}
    sp = os.path.join(tmp, "warn.json")
    with open(sp, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    p = render(sp, os.path.join(tmp, "warn.pptx"))
    eq(p.returncode, 0, "warnings: render ok")
    res = json.loads(p.stdout)
    got = [(w["path"], w["message"]) for w in res["warnings"]]
    eq(got, [("/slides/0/title", "no installed font covers U+F0000"),
             ("/slides/0/bullets/1", "no installed font covers U+E000")], "warnings: path, message, once per code point")


def report_p1(tmp):
    gen = need("bench/gen_specs.py")
    if not gen:
        return
    subprocess.run([sys.executable, gen, tmp, "P1"], check=True, capture_output=True)
    spec = os.path.join(tmp, "P1.json")
    out = os.path.join(tmp, "p1.pptx")
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        p = render(spec, out)
        times.append(time.perf_counter() - t0)
    times.sort()
    check(p.returncode == 0, "P1 renders")
    print("report: P1 (300 slides) median %.0f ms over 5 runs (pptxgenjs: 780 ms)" % (times[2] * 1000))


def main():
    tmp = tempfile.mkdtemp(prefix="quire-pptx-")
    specs, files = {}, []
    for d in sorted(glob.glob(os.path.join(SRC, "fixtures", "deck-*"))):
        case = os.path.basename(d)
        sp = os.path.join(d, "spec.json")
        with open(sp, encoding="utf-8") as f:
            spec = json.load(f)
        out = os.path.join(tmp, case + ".pptx")
        p = render(sp, out)
        if not check(p.returncode == 0, "%s: render: %s %s" % (case, p.stdout, p.stderr)):
            continue
        res = json.loads(p.stdout)
        eq(res.get("pages", 0), len(spec["slides"]), case + ": pages = slides")
        again = os.path.join(tmp, case + ".again.pptx")
        render(sp, again)
        with open(out, "rb") as a, open(again, "rb") as b:
            check(a.read() == b.read(), case + ": same spec, same bytes")
        specs[case] = spec
        files.append(out)
        deck = Deck(out)
        readback(case, spec, deck)
        if case in EXTRA:
            EXTRA[case](deck, spec)
    for case in EXTRA:
        check(case in specs, "fixture %s exists and renders" % case)
    validate = need("tools/ooxml-validate")
    if validate:
        p = subprocess.run([validate, "-q"] + files, capture_output=True, text=True)
        check(p.returncode == 0, "ooxml-validate:\n" + p.stdout + p.stderr)
    office(specs, files, tmp)
    check_warnings(tmp)
    report_p1(tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
