#!/usr/bin/python3
"""The smaller items of issue 36 (point 8), each failing before its fix:

- a heading's own numbering ("1. Parties") is no "markdown list number":
  no warning for a heading block or a legacy section heading, while a
  paragraph starting "1. " still gets one;
- a link's underline starts under its first letter, not under the space
  the linked run starts with (the PDF at 144 dpi: the underline's pixels
  begin where the link's letters do, within a pixel);
- an empty table row keeps a line's height in html (an empty cell holds a
  no-break space), as in the PDF and the docx;
- a right-to-left chart title reads right to left in the html SVG
  (direction rtl) and the docx chart (a:pPr rtl), as in the PDF;
- a character no format shows (a C0 control other than tab and line
  breaks, DEL, a C1 control, a noncharacter) is U+FFFD in the PDF (its
  text), the docx, the pptx and the html alike, with one warning naming
  the text (text/text.h's one rule; the PDF drew a blank before);
- a link's or underlined run's underline spares the spaces it starts or
  ends with in the docx (those spaces' runs w:u none inside the
  hyperlink) and the html (the spaces outside <a>/<u>), as in the PDF;
- a right-to-left item in a left-to-right html list (or the reverse)
  hangs from its own side, its marker inside the column (li.flip moves the
  list's indent to the item's start side);
- an empty sheet prints no page in the sheet PDF, as LibreOffice prints
  the .xlsx (a workbook of empty sheets is one blank page)."""
import json
import os
import re
import subprocess
import sys
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402


class SmallItems(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def warnings(self, spec, kind="pdf"):
        out = os.path.join(self.tmp, "w." + ("pdf" if kind == "pdf" else "docx"))
        p = fid.render(spec, out, kind)
        return json.loads(p.stdout)["warnings"]

    def test_numbered_heading_is_no_list(self):
        w = self.warnings({"blocks": [
            {"type": "heading", "text": "1. Parties"},
            {"type": "heading", "text": "12) Term", "level": 2},
            {"type": "paragraph", "text": "1. looks like a list"}]})
        self.assertEqual([x["path"] for x in w], ["/blocks/2/text"], w)
        w = self.warnings({"sections": [{"heading": "2. Payment", "paragraphs": ["Due in 30 days."]}]},
                          "document")
        self.assertEqual(w, [])

    def test_link_underline_spares_leading_space(self):
        spec = {"blocks": [{"type": "paragraph", "runs": [
            "See", {"text": "   the site   ", "link": "https://example.com"}, "now."]}]}
        pdf = os.path.join(self.tmp, "u.pdf")
        fid.render(spec, pdf, "pdf")
        subprocess.run(["pdftoppm", "-r", "144", "-f", "1", "-l", "1", pdf,
                        os.path.join(self.tmp, "u")], check=True)
        ppm = [f for f in os.listdir(self.tmp) if f.startswith("u-") and f.endswith(".ppm")][0]
        with open(os.path.join(self.tmp, ppm), "rb") as f:
            data = f.read()
        # P6 width height 255, then RGB bytes
        head = data.split(b"\n", 3)
        w, h = (int(v) for v in head[1].split())
        px = head[3]

        def link_blue(x, y):
            r, g, b = px[3 * (y * w + x): 3 * (y * w + x) + 3]
            return b > 120 and r < 90 and b - r > 80  # plain's link colour, #0645AD

        rows = {}
        for y in range(h // 4):  # the paragraph is near the top
            xs = [x for x in range(w) if link_blue(x, y)]
            if xs:
                rows[y] = xs
        self.assertTrue(rows, "no link-coloured pixels")
        # the underline: the row with the longest unbroken run of link colour
        def longest(xs):
            best, start, prev = (0, 0), xs[0], xs[0]
            for x in xs[1:] + [None]:
                if x is None or x != prev + 1:
                    best = max(best, (prev - start + 1, start))
                    if x is not None:
                        start = x
                if x is not None:
                    prev = x
            return best
        uy = max(rows, key=lambda y: longest(rows[y])[0])
        under_left = longest(rows[uy])[1]
        glyph_left = min(min(xs) for y, xs in rows.items() if y < uy - 2)
        self.assertGreaterEqual(under_left, glyph_left - 1, (under_left, glyph_left))

    def test_empty_table_row_keeps_its_height_in_html(self):
        out = os.path.join(self.tmp, "t.html")
        fid.render({"blocks": [{"type": "table", "headers": ["a", "b"],
                                "rows": [["1", "2"], ["", ""], ["3", "4"]]}]}, out, "html")
        with open(out, encoding="utf-8") as f:
            page = f.read()
        self.assertIn("<tr><td></td><td></td></tr>", page)
        self.assertIn('td:empty::after{content:"\\00a0"}', page)

    def test_rtl_chart_title(self):
        spec = {"blocks": [{"type": "chart", "chart": "column", "title": "المبيعات 2024",
                            "categories": ["a", "b"], "series": [{"name": "s", "values": [1, 2]}]}]}
        out = os.path.join(self.tmp, "c.html")
        fid.render(spec, out, "html")
        with open(out, encoding="utf-8") as f:
            page = f.read()
        title = [t for t in re.findall(r"<text[^>]*>[^<]*</text>", page) if "المبيعات" in t]
        self.assertTrue(title, "no title text in the SVG")
        self.assertIn('direction="rtl"', title[0])
        docx = os.path.join(self.tmp, "c.docx")
        fid.render(spec, docx, "document")
        with zipfile.ZipFile(docx) as z:
            xml = z.read("word/charts/chart1.xml").decode()
        self.assertRegex(xml, r'<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr rtl="1"')

    def test_control_characters_one_rule(self):
        raw = "A\u0007B\u0085C\u007fD\ufdd0E\tF"
        want = "A\ufffdB\ufffdC\ufffdD\ufffdE"
        spec = {"blocks": [{"type": "paragraph", "text": raw}]}
        msgs = {}
        pdf = os.path.join(self.tmp, "k.pdf")
        msgs["pdf"] = json.loads(fid.render(spec, pdf, "pdf").stdout)["warnings"]
        txt = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True,
                             text=True, check=True).stdout
        self.assertIn(want, txt)
        docx = os.path.join(self.tmp, "k.docx")
        msgs["docx"] = json.loads(fid.render(spec, docx, "document").stdout)["warnings"]
        with zipfile.ZipFile(docx) as z:
            xml = z.read("word/document.xml").decode()
        self.assertIn(want, "".join(re.findall(r"<w:t[^>]*>([^<]*)</w:t>", xml)))
        html = os.path.join(self.tmp, "k.html")
        fid.render(spec, html, "html")
        with open(html, encoding="utf-8") as f:
            self.assertIn(want, f.read())
        pptx = os.path.join(self.tmp, "k.pptx")
        deck = {"slides": [{"title": "t", "bullets": [raw]}]}
        msgs["pptx"] = json.loads(fid.render(deck, pptx, "presentation").stdout)["warnings"]
        with zipfile.ZipFile(pptx) as z:
            xml = z.read("ppt/slides/slide1.xml").decode()
        self.assertIn(want, "".join(re.findall(r"<a:t>([^<]*)</a:t>", xml)))
        for kind, w in msgs.items():
            ours = [x for x in w if "U+0007" in x["message"]]
            self.assertEqual(len(ours), 1, (kind, w))
            self.assertIn("U+FFFD", ours[0]["message"])
        self.assertEqual(msgs["pdf"][0]["path"], "/blocks/0/text")
        self.assertEqual(msgs["pdf"], msgs["docx"])

    def test_link_underline_spares_spaces_in_docx_and_html(self):
        spec = {"blocks": [{"type": "paragraph", "runs": [
            "See", {"text": "  the site ", "link": "https://example.com"}, "now, ",
            {"text": " under ", "underline": True}, "done."]}]}
        docx = os.path.join(self.tmp, "ul.docx")
        fid.render(spec, docx, "document")
        with zipfile.ZipFile(docx) as z:
            xml = z.read("word/document.xml").decode()
        link = re.search(r"<w:hyperlink [^>]*>(.*?)</w:hyperlink>", xml).group(1)
        runs = re.findall(r"<w:r>(.*?)</w:r>", link)
        texts = [re.search(r"<w:t[^>]*>([^<]*)</w:t>", r).group(1) for r in runs]
        self.assertEqual(texts, ["  ", "the site", " "])
        self.assertIn('<w:u w:val="none"/>', runs[0])
        self.assertNotIn("<w:u ", runs[1])
        self.assertIn('<w:u w:val="none"/>', runs[2])
        under = [r for r in re.findall(r"<w:r>(.*?)</w:r>", xml) if "under" in r]
        self.assertEqual(len(under), 1)
        self.assertIn('<w:u w:val="single"/>', under[0])
        self.assertRegex(under[0], r"<w:t[^>]*>under</w:t>")
        html = os.path.join(self.tmp, "ul.html")
        fid.render(spec, html, "html")
        with open(html, encoding="utf-8") as f:
            page = f.read()
        self.assertIn('See  <a href="https://example.com" rel="noopener noreferrer">the site</a> now,  '
                      '<u>under</u> done.', page)

    def test_rtl_item_in_ltr_html_list(self):
        spec = {"blocks": [{"type": "list", "ordered": True, "items": [
            "First item", "البند الثاني", "Third item"]}]}
        html = os.path.join(self.tmp, "li.html")
        fid.render(spec, html, "html")
        with open(html, encoding="utf-8") as f:
            page = f.read()
        self.assertIn('<li class="flip" dir="rtl">', page)
        self.assertEqual(page.count('class="flip"'), 1)
        m = re.search(r"li\.flip\{margin-inline-start:([\d.]+)pt;margin-inline-end:-([\d.]+)pt\}", page)
        self.assertTrue(m, "no li.flip rule")
        indent = re.search(r"ul,ol\{padding-inline-start:([\d.]+)pt", page).group(1)
        self.assertEqual(m.group(1), indent)
        self.assertEqual(m.group(2), indent)
        # a list of one direction needs no rule
        fid.render({"blocks": [{"type": "list", "items": ["a", "b"]}]}, html, "html")
        with open(html, encoding="utf-8") as f:
            self.assertNotIn("flip", f.read())

    def test_empty_sheet_prints_no_page(self):
        spec = {"sheets": [{"name": "Data", "rows": [["a", "b"], [1, 2]]},
                           {"name": "Empty", "rows": []},
                           {"name": "More", "rows": [["x"]]}]}
        pdf = os.path.join(self.tmp, "sh.pdf")
        res = json.loads(fid.render(spec, pdf, "pdf").stdout)
        self.assertEqual(res["pages"], 2)
        txt = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
        self.assertNotIn("Empty", txt)
        self.assertIn("More", txt)
        # only empty sheets: one blank page
        res = json.loads(fid.render({"sheets": [{"name": "E", "rows": []}]}, pdf, "pdf").stdout)
        self.assertEqual(res["pages"], 1)


if __name__ == "__main__":
    unittest.main()
