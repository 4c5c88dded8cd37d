#!/usr/bin/python3
"""The accent recolours the theme as a whole (issue 36, item 6):

- a light accent (#FACC15) on a deck: the table header's text sits on the
  accent in lt2, the theme's text-on-accent colour, at least 4.5:1 against
  the accent (it was the table style's white, about 1.5:1);
- report + an accent: the title and the table header's ground follow the
  accent (no navy title beside a red table), the body text on that ground
  at least 4.5:1;
- chart series start from the accent, in the Office chart and in quire's
  drawing (the html SVG)."""
import os
import re
import sys
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
from test_chart_themes import contrast  # noqa: E402

CHART = {"chart": "column", "categories": ["x", "y"], "series": [{"name": "s", "values": [1, 2]}]}


class Accent(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def test_light_accent_table_header(self):
        out = os.path.join(self.tmp, "deck.pptx")
        fid.render({"title": "D", "theme": "light", "accent": "#FACC15", "slides": [
            {"title": "T", "table": {"headers": ["Region", "Sales"], "rows": [["EMEA", "1"]]}}]},
            out, "presentation")
        with zipfile.ZipFile(out) as z:
            slide = z.read("ppt/slides/slide1.xml").decode()
            theme = z.read("ppt/theme/theme1.xml").decode()
        head = slide[slide.index("<a:tr"):slide.index("</a:tr>")]
        self.assertIn('<a:schemeClr val="lt2"/>', head)
        lt2 = int(re.search(r'<a:lt2><a:srgbClr val="([0-9A-F]{6})"', theme).group(1), 16)
        self.assertGreaterEqual(contrast(lt2, 0xFACC15), 4.5)

    def test_report_follows_the_accent(self):
        out = os.path.join(self.tmp, "report.docx")
        fid.render({"title": "R", "theme": "report", "accent": "#8B0000", "blocks": [
            {"type": "table", "headers": ["A", "B"], "rows": [["1", "2"]]}, dict(CHART, type="chart")]},
            out, "document")
        with zipfile.ZipFile(out) as z:
            styles = z.read("word/styles.xml").decode()
            doc = z.read("word/document.xml").decode()
            chart = z.read("word/charts/chart1.xml").decode()
        title = styles[styles.index('w:styleId="Title"'):]
        title = title[:title.index("</w:style>")]
        self.assertIn('w:color w:val="8B0000"', title)
        fill = int(re.search(r'w:fill="([0-9A-F]{6})"', doc).group(1), 16)
        self.assertNotEqual(fill, 0xDCE6F0, "the report's light blue header under a red accent")
        self.assertGreaterEqual(contrast(fill, 0x1A1A1A), 4.5)
        ser = chart[chart.index("<c:ser>"):]
        self.assertEqual(re.search(r'srgbClr val="([0-9A-F]{6})"', ser).group(1), "8B0000")

    def test_series_start_from_the_accent_in_the_drawing(self):
        out = os.path.join(self.tmp, "page.html")
        fid.render({"title": "H", "accent": "#0F766E", "blocks": [dict(CHART, type="chart")]}, out, "html")
        with open(out) as f:
            svg = f.read()
        svg = svg[svg.index("<svg"):svg.index("</svg>")].upper()
        self.assertIn("#0F766E", svg)


if __name__ == "__main__":
    unittest.main()
