#!/usr/bin/python3
"""Abuse, an accent too close to the page (issue 37 row 20), specs made here.

A report whose accent is #FFFFFF drew its headings and title white on white
with no warning. Now the text drawn in the accent is moved towards the ink
that reads on the page until it meets WCAG AA (layout/style.c, one rule for
docx, PDF, PNG and html): the same colour in the docx's heading style, the
html's CSS and the PDF's drawing, a warning at /accent naming the colour
drawn, and no contrast item left in the layout report. A theme whose
headings are not in the accent keeps them; an accent that reads is drawn as
given, silently; --strict refuses the adjusted one."""
import os
import re
import sys
import unittest
import zipfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case  # noqa: E402


def lum(c):
    ch = []
    for sh in (16, 8, 0):
        v = ((c >> sh) & 255) / 255.0
        ch.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]


def contrast(a, b):
    la, lb = sorted((lum(a), lum(b)))
    return (lb + 0.05) / (la + 0.05)


def pdf_fills(path):
    """Every 'r g b rg' fill colour in the PDF's content streams, as 0xRRGGBB."""
    with open(path, "rb") as f:
        data = f.read()
    out = set()
    for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
        try:
            s = zlib.decompress(m.group(1))
        except zlib.error:
            s = m.group(1)
        for g in re.finditer(rb"([\d.]+) ([\d.]+) ([\d.]+) rg", s):
            out.add(sum(round(float(g.group(i + 1)) * 255) << (16 - 8 * i) for i in range(3)))
    return out


def spec(theme, accent):
    return {"title": "Quarterly", "theme": theme, "accent": accent,
            "blocks": [{"type": "heading", "text": "Fees"}, {"type": "paragraph", "text": "Body."},
                       {"type": "heading", "text": "Terms", "level": 3}]}


class Accent(Case):
    def render(self, name, out, *extra):
        run = self.quire("render", name, "-o", out, *extra)
        return run

    def test_white_accent_on_a_white_page(self):
        self.spec("w.json", spec("report", "#FFFFFF"))
        drawn = None
        for out in ("w.pdf", "w.html", "w.docx", "w.png"):
            run = self.render("w.json", out)
            self.assertEqual(run.code, 0, run.out)
            [w] = run.result["warnings"]
            self.assertEqual(w["path"], "/accent")
            m = re.search(r"the accent #FFFFFF has a contrast of 1.00:1 on the page's #FFFFFF, too "
                          r"low to read: headings and the title are drawn in #([0-9A-F]{6}) instead",
                          w["message"])
            self.assertTrue(m, w["message"])
            self.assertIn("4.5:1", w["hint"])
            if drawn is None:
                drawn = int(m.group(1), 16)
            self.assertEqual(int(m.group(1), 16), drawn)
            self.assertEqual([i for i in run.result["layout"] if i["kind"] == "contrast"], [])
        self.assertGreaterEqual(contrast(drawn, 0xFFFFFF), 4.5)
        hexd = "%06X" % drawn
        with open(self.path("w.html")) as f:
            html = f.read()
        self.assertIn("h2{color:#%s" % hexd, html)
        self.assertNotIn("color:#FFFFFF", html)
        with zipfile.ZipFile(self.path("w.docx")) as z:
            styles = z.read("word/styles.xml").decode()
        for sid in ("Title", "Heading1"):
            st = re.search(r'<w:style [^>]*w:styleId="%s".*?</w:style>' % sid, styles, re.S).group(0)
            self.assertIn('w:color w:val="%s"' % hexd, st)
        fills = pdf_fills(self.path("w.pdf"))
        self.assertIn(drawn, fills)
        run = self.render("w.json", "strict.pdf", "--strict")
        self.assertNotEqual(run.code, 0, run.out)

    def test_plain_headings_keep_their_ink(self):
        self.spec("p.json", spec("plain", "#FFFFFF"))  # plain's headings are not in the accent
        run = self.render("p.json", "p.html")
        self.assertEqual((run.code, run.result["warnings"]), (0, []), run.out)

    def test_readable_accent_as_given(self):
        self.spec("r.json", spec("report", "#8B0000"))
        for out in ("r.html", "r.pdf"):
            run = self.render("r.json", out)
            self.assertEqual((run.code, run.result["warnings"]), (0, []), run.out)
        with open(self.path("r.html")) as f:
            self.assertIn("h2{color:#8B0000", f.read())
        self.assertIn(0x8B0000, pdf_fills(self.path("r.pdf")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
