#!/usr/bin/python3
"""One house style per theme (issue 24): for each document theme (plain,
report) and each document fixture (doc-*, docx-*, pdf-*), quire's PDF and
LibreOffice's PDF export of quire's .docx agree on page 1:

- the same lines of text in the same order (pdftotext -layout, whitespace and
  control characters folded; over the lines both pages hold, since the two
  paginate on their own; a line with right-to-left text compares its
  characters, as the producers store bidi text in different orders, and a
  line one side splits at a combining mark is joined again);
- every heading on both pages at the same size within 2 pt (the width of the
  same words in the same face is proportional to the size; quire's own size
  is the style table's, checked against the body text's height);
- the title with the same alignment (centred or at the left margin), the
  theme's;
- the heading colour equal within a small tolerance (the darkest pixels of
  the heading's box in PNGs of both pages at 100 dpi), the theme's.

The deck themes (light, dark): the .pptx as LibreOffice draws it and quire's
slide preview have the same slide ground, the accent bar along the top of
title and content slides, the title in the theme's title colour and the
section slide filled with the accent, its title in the text-on-accent colour.

And the report theme keeps every script's face: LibreOffice's PDF of the
multi-script fixture in report embeds DejaVu Serif and the same non-Latin
faces as quire's. Every .docx and .pptx goes through ONE soffice run (about
20 s for 32 files; the whole test about 50 s)."""
import base64
import json
import os
import re
import subprocess
import sys
import unicodedata
import unittest
from xml.etree import ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

# What the style table (layout/style.c) says: size of heading levels 1-6, the
# heading colour and the title's alignment per theme.
# Deck themes: slide ground, title colour, accent (layout/style.c).
DECKS = {
    "light": {"background": 0xFFFFFF, "title": 0x111827, "accent": 0x2563EB, "on_accent": 0xFFFFFF},
    "dark": {"background": 0x111827, "title": 0xFFFFFF, "accent": 0x2563EB, "on_accent": 0xFFFFFF},
}
DECK = {"title": "Deck", "slides": [
    {"layout": "title", "title": "Quarterly Review", "subtitle": "Q3 2026, Finance"},
    {"title": "Title and content", "bullets": ["First point", {"text": "Second", "items": ["Detail"]}]},
    {"layout": "section", "title": "Part Two", "subtitle": "Regional results"}]}
THEMES = {
    "plain": {"heading_pt": [20, 16, 14, 12, 11, 11], "heading": 0x000000, "title": "center"},
    "report": {"heading_pt": [18, 15, 13, 12, 11, 11], "heading": 0x1F4E79, "title": "center"},
}
BODY_PT = 11
DPI = 100
COLOUR_TOLERANCE = 40  # per channel, 0-255
RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def fold(s):
    """No whitespace, no control/format characters, no replacement glyphs."""
    return "".join(ch for ch in s if not ch.isspace() and ch != "\ufffd" and
                   unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cn"))


def page1_lines(pdf):
    t = subprocess.run(["pdftotext", "-layout", "-f", "1", "-l", "1", pdf, "-"], capture_output=True,
                       text=True, timeout=120).stdout
    lines = [fold(ln) for ln in t.splitlines()]
    lines = [ln for ln in lines if ln]
    return lines[:-1]  # the footer "1 / N": each its own page count (test_cross_format)


def key(line):
    return "".join(sorted(line)) if RTL.search(line) else line


def same_lines(a, b):
    """None when a and b agree line by line over the lines both hold, else
    the first disagreement."""
    i = j = 0
    while i < len(a) and j < len(b):
        if key(a[i]) == key(b[j]):
            i, j = i + 1, j + 1
            continue
        # one side split a line (a combining mark, a line separator): join up to 3 more
        joined = False
        for (x, xi, y, yi) in ((a, i, b, j), (b, j, a, i)):
            acc = x[xi]
            for k in range(1, 4):
                if xi + k >= len(x):
                    break
                acc += x[xi + k]
                if "".join(sorted(acc)) == "".join(sorted(y[yi])):
                    if x is a:
                        i, j = i + k + 1, j + 1
                    else:
                        i, j = i + 1, j + k + 1
                    joined = True
                    break
            if joined:
                break
        if not joined:
            return "line %d: %r (quire) vs %r (LibreOffice)" % (i + 1, a[i], b[j])
    return None


def bbox_lines(pdf):
    """Page 1's lines: (text without spaces, xMin, yMin, xMax, yMax, [word widths]), page width."""
    return bbox_lines_page(pdf, 1)


def bbox_lines_page(pdf, n):
    p = subprocess.run(["pdftotext", "-bbox-layout", "-f", str(n), "-l", str(n), pdf, "-"],
                       capture_output=True, text=True, timeout=120)
    xml = re.sub(r"<!DOCTYPE[^>]*>", "", p.stdout).replace(' xmlns="http://www.w3.org/1999/xhtml"', "")
    root = ET.fromstring(xml)
    page = root.find(".//page")
    out = []
    for ln in page.iter("line"):
        words = list(ln.iter("word"))
        text = fold("".join(w.text or "" for w in words))
        f = [float(ln.get(k)) for k in ("xMin", "yMin", "xMax", "yMax")]
        widths = [(fold(w.text or ""), float(w.get("xMax")) - float(w.get("xMin"))) for w in words]
        out.append((text, f[0], f[1], f[2], f[3], widths))
    return out, float(page.get("width"))


def find_line(lines, text):
    t = fold(text)
    for ln in lines:
        if ln[0] == t or (RTL.search(t) and sorted(ln[0]) == sorted(t)):
            return ln
    return None


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    w, h = int(m.group(1)), int(m.group(2))
    return w, h, data[m.end():]


def ink(ppm, box):
    """The mean colour of the darkest tenth of the pixels in box (points)."""
    w, h, px = ppm
    s = DPI / 72.0
    x0, y0, x1, y1 = (int(box[0] * s), int(box[1] * s), int(box[2] * s) + 1, int(box[3] * s) + 1)
    pix = []
    for y in range(max(y0, 0), min(y1, h)):
        for x in range(max(x0, 0), min(x1, w)):
            o = 3 * (y * w + x)
            pix.append((px[o] + px[o + 1] + px[o + 2], px[o], px[o + 1], px[o + 2]))
    pix.sort()
    dark = pix[:max(1, len(pix) // 10)]
    return tuple(sum(p[c] for p in dark) // len(dark) for c in (1, 2, 3))


def far_ink(ppm, box, bg):
    """The mean colour of the tenth of the pixels in box (points) farthest from bg."""
    w, h, px = ppm
    sc = DPI / 72.0
    x0, y0, x1, y1 = (int(box[0] * sc), int(box[1] * sc), int(box[2] * sc) + 1, int(box[3] * sc) + 1)
    pix = []
    for y in range(max(y0, 0), min(y1, h)):
        for x in range(max(x0, 0), min(x1, w)):
            o = 3 * (y * w + x)
            c = (px[o], px[o + 1], px[o + 2])
            pix.append((-sum(abs(a - b) for a, b in zip(c, bg)), c))
    pix.sort()
    far = [c for _, c in pix[:max(1, len(pix) // 10)]]
    return tuple(sum(c[i] for c in far) // len(far) for i in range(3))


def pixel(ppm, fx, fy):
    """The colour at fractions fx, fy of the page."""
    w, h, px = ppm
    o = 3 * (int(fy * (h - 1)) * w + int(fx * (w - 1)))
    return (px[o], px[o + 1], px[o + 2])


def close(a, b):
    return all(abs(x - y) <= COLOUR_TOLERANCE for x, y in zip(a, b))


def rgb(c):
    return ((c >> 16) & 255, (c >> 8) & 255, c & 255)


def headings(spec):
    """(text, level) of the spec's headings with plain-string text."""
    out = []
    for b in fid.spec_blocks(spec):
        if isinstance(b, dict) and b.get("type") == "heading" and isinstance(b.get("text"), str):
            out.append((b["text"], min(max(int(b.get("level", 1)), 1), 6)))
    return out


def embed_images(spec, folder):
    """Images as data: URIs, so the spec renders from another folder."""
    for b in spec.get("blocks") or []:
        src = b.get("src") if isinstance(b, dict) else None
        if isinstance(src, str) and not src.startswith("data:"):
            with open(os.path.join(folder, src), "rb") as f:
                mime = "image/png" if src.lower().endswith(".png") else "image/jpeg"
                b["src"] = "data:%s;base64,%s" % (mime, base64.b64encode(f.read()).decode())


class Themes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not fid.have("soffice"):
            raise unittest.SkipTest("soffice not installed")
        cls.tmp = fid.tmpdir()
        cls.cases = []
        for name, spec, path in fid.document_fixtures():
            if not name.startswith(("doc-", "docx-", "pdf-")):
                continue
            for theme in THEMES:
                s = json.loads(json.dumps(spec))
                s["theme"] = theme
                embed_images(s, os.path.dirname(path))
                base = os.path.join(cls.tmp, "%s--%s" % (name, theme))
                fid.render(s, base + ".pdf", "pdf")
                fid.render(s, base + ".docx", "document")
                cls.cases.append((name, theme, s, base))
        cls.decks = []
        for theme in DECKS:
            base = os.path.join(cls.tmp, "deck--" + theme)
            fid.render(dict(DECK, theme=theme), base + ".pdf", "pdf")  # quire's slide preview
            fid.render(dict(DECK, theme=theme), base + ".pptx", "presentation")
            cls.decks.append((theme, base))
        prof = "file://" + os.path.join(cls.tmp, "lo-profile")
        lo = os.path.join(cls.tmp, "lo")
        subprocess.run(["soffice", "-env:UserInstallation=" + prof, "--headless", "--convert-to", "pdf",
                        "--outdir", lo] + [c[3] + ".docx" for c in cls.cases] +
                       [b + ".pptx" for _, b in cls.decks], capture_output=True, timeout=600)
        cls.lo = {c[3]: os.path.join(lo, os.path.basename(c[3]) + ".pdf") for c in cls.cases}

    def each(self):
        """(name, theme, spec, quire's PDF, LibreOffice's PDF) of every case."""
        self.assertGreater(len(self.cases), 20)
        for name, theme, spec, base in self.cases:
            self.assertTrue(os.path.exists(self.lo[base]), "LibreOffice could not convert " + base)
        return [(n, t, s, b + ".pdf", self.lo[b]) for n, t, s, b in self.cases]

    def test_same_lines(self):
        for name, theme, spec, q, lo in self.each():
            with self.subTest(fixture=name, theme=theme):
                a, b = page1_lines(q), page1_lines(lo)
                self.assertGreater(min(len(a), len(b)), 3)
                self.assertIsNone(same_lines(a, b))

    def test_heading_sizes(self):
        checked = 0
        for name, theme, spec, q, lo in self.each():
            with self.subTest(fixture=name, theme=theme):
                ql, _ = bbox_lines(q)
                ll, _ = bbox_lines(lo)
                body = None
                for text, level in headings(spec):
                    a, b = find_line(ql, text), find_line(ll, text)
                    if not a or not b or RTL.search(text):
                        continue  # not on both first pages (or reordered words)
                    latin = all(ord(ch) < 0x250 for ch in text)
                    want = THEMES[theme]["heading_pt"][level - 1]
                    # quire draws the table's size: its box height against a body line's
                    if body is None:
                        body = next((ln for ln in ql if len(ln[0]) > 20 and ln[4] - ln[2] < 16 and
                                     all(ord(ch) < 0x250 for ch in ln[0])), None)
                    if body and latin:  # a CJK face's box is taller
                        got = BODY_PT * (a[4] - a[2]) / (body[4] - body[2])
                        self.assertLess(abs(got - want), 1.0, "quire's %r is %.1f pt" % (text, got))
                    # the same words at the same size have the same width
                    wa = sum(w for _, w in a[5])
                    wb = sum(w for _, w in b[5])
                    lo_pt = want * wb / wa
                    if os.environ.get("QUIRE_THEMES_VERBOSE"):
                        print("%s/%s %r: %.2f pt vs %.2f pt" % (name, theme, text, want, lo_pt))
                    self.assertLessEqual(abs(lo_pt - want), 2.0,
                                         "%r: %.1f pt in LibreOffice, %.1f pt in quire" % (text, lo_pt, want))
                    checked += 1
        self.assertGreater(checked, 10)

    def test_title_alignment(self):
        checked = 0
        for name, theme, spec, q, lo in self.each():
            with self.subTest(fixture=name, theme=theme):
                title = spec.get("title")
                if not isinstance(title, str) or not title.strip() or fold(title) != re.sub(r"\s", "", title):
                    continue  # control characters: each draws (or drops) them its own way
                got = []
                for pdf in (q, lo):
                    lines, width = bbox_lines(pdf)
                    ln = find_line(lines, title)
                    self.assertIsNotNone(ln, "no title line in " + pdf)
                    mid = (ln[1] + ln[3]) / 2
                    got.append("center" if abs(mid - width / 2) < 6 else "left" if ln[1] < 80 else "other")
                self.assertEqual(got, [THEMES[theme]["title"]] * 2)
                checked += 1
        self.assertGreater(checked, 10)

    def test_heading_colour(self):
        checked = 0
        for name, theme, spec, q, lo in self.each():
            with self.subTest(fixture=name, theme=theme):
                hs = [(t, lv) for t, lv in headings(spec) if not RTL.search(t)]
                if not hs:
                    continue
                boxes = []
                for pdf in (q, lo):
                    lines, _ = bbox_lines(pdf)
                    boxes.append([find_line(lines, t) for t, _ in hs])
                pair = next(((a, b) for a, b in zip(*boxes) if a and b), None)
                if not pair:
                    continue
                colours = []
                for pdf, box in zip((q, lo), pair):
                    out = pdf[:-4] + "-page"
                    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile", pdf, out],
                                   check=True, timeout=120)
                    colours.append(ink(read_ppm(out + ".ppm"), box[1:5]))
                want = rgb(THEMES[theme]["heading"])
                if os.environ.get("QUIRE_THEMES_VERBOSE"):
                    print("%s/%s heading ink %s (quire) %s (LibreOffice)" % (name, theme, colours[0], colours[1]))
                for c in colours:
                    self.assertTrue(all(abs(x - y) <= COLOUR_TOLERANCE for x, y in zip(c, want)),
                                    "%s: heading %r drawn in %s, the theme's is %s" % (name, pair[0][0], c, want))
                checked += 1
        self.assertGreater(checked, 10)

    def test_deck_themes(self):
        """light and dark: the pptx as LibreOffice draws it and quire's preview
        have the same ground, accent bar, title colour and section slide."""
        for theme, base in self.decks:
            want = {k: rgb(v) for k, v in DECKS[theme].items()}
            lo = os.path.join(self.tmp, "lo", os.path.basename(base) + ".pdf")
            self.assertTrue(os.path.exists(lo))
            for pdf in (base + ".pdf", lo):
                with self.subTest(theme=theme, pdf=os.path.basename(os.path.dirname(pdf))):
                    pages = []
                    for n in (1, 2, 3):
                        out = "%s-s%d" % (pdf[:-4], n)
                        subprocess.run(["pdftoppm", "-r", str(DPI), "-f", str(n), "-l", str(n), "-singlefile",
                                        pdf, out], check=True, timeout=120)
                        pages.append(read_ppm(out + ".ppm"))
                    title, content, section = pages
                    # the ground, below the text
                    self.assertTrue(close(pixel(content, 0.5, 0.9), want["background"]))
                    self.assertTrue(close(pixel(title, 0.5, 0.9), want["background"]))
                    # the accent bar along the top of title and content slides
                    for page in (title, content):
                        self.assertTrue(close(pixel(page, 0.5, 0.004), want["accent"]),
                                        pixel(page, 0.5, 0.004))
                    # the section slide filled with the accent
                    self.assertTrue(close(pixel(section, 0.5, 0.9), want["accent"]))
                    self.assertTrue(close(pixel(section, 0.05, 0.1), want["accent"]))
                    # the content slide's title in the title colour
                    lines, _ = bbox_lines_page(pdf, 2)
                    ln = find_line(lines, "Title and content")
                    self.assertIsNotNone(ln)
                    ink_c = far_ink(content, ln[1:5], want["background"])
                    self.assertTrue(close(ink_c, want["title"]), (ink_c, want["title"]))
                    # the section title in the text on the accent
                    lines, _ = bbox_lines_page(pdf, 3)
                    ln = find_line(lines, "Part Two")
                    self.assertIsNotNone(ln)
                    ink_s = far_ink(section, ln[1:5], want["accent"])
                    self.assertTrue(close(ink_s, want["on_accent"]), (ink_s, want["on_accent"]))

    def test_report_keeps_every_script(self):
        base = next(c[3] for c in self.cases if c[0] == "doc-multiscript" and c[1] == "report")

        def fonts(pdf):
            out = subprocess.run(["pdffonts", pdf], capture_output=True, text=True).stdout.splitlines()[2:]
            return {re.sub(r"^[A-Z]{6}\+", "", ln.split()[0]).split("-")[0] for ln in out if ln.strip()}

        q, lo = fonts(base + ".pdf"), fonts(self.lo[base])
        self.assertIn("DejaVuSerif", q)
        self.assertIn("DejaVuSerif", lo)
        for face in ("NotoSansArabic", "NotoSansDevanagari", "NotoSansHebrew"):
            self.assertIn(face, q)
            self.assertIn(face, lo)
        # the CJK faces share one collection: LibreOffice names its first face
        self.assertTrue(any(f.startswith("NotoSansCJK") for f in q))
        self.assertTrue(any(f.startswith("NotoSansCJK") for f in lo))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
