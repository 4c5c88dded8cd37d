#!/usr/bin/python3
"""Charts read in every theme (issue 36, items 1, 3 and 7).

Every chart type (bar, column, line, area, pie, doughnut, scatter; with
data labels, stacked where the type stacks) in every theme (plain, report,
light, dark) rendered to .docx, .pptx and .xlsx: the chart XML paints the
chart area in the ground it sits on (the theme's page or slide colour; a
sheet's white) and colours every text it holds, each at least 4.5:1 (WCAG
AA) against what it is drawn on: the chart title, axis labels and titles,
the legend and outside data labels against the ground, a label inside a pie
slice or a stacked bar against that slice's or bar's fill. The sizes are
the preview's: title 14 pt, every other text 10 pt.

Then LibreOffice draws a horizontal bar chart of the dark theme from the
.docx, the .pptx and the .xlsx (one soffice run): its categories come in
the same order top to bottom as in quire's own PDF of the same spec (the
first category at the bottom), the chart title is as tall as quire's (14
pt: the same word as wide within 4%; a category label too), and the title and a category label, as LibreOffice
paints them, stand out from the ground around them by 4.5:1 or more."""
import io
import json
import os
import re
import subprocess
import sys
import unittest
import zipfile
from xml.etree import ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

NS = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
      "a": "http://schemas.openxmlformats.org/drawingml/2006/main"}
THEMES = {"plain": 0xFFFFFF, "report": 0xFFFFFF, "light": 0xFFFFFF, "dark": 0x111827}
TYPES = ["bar", "column", "line", "area", "pie", "doughnut", "scatter"]
CATS = ["North", "South", "East", "West"]
DPI = 200
KIND = {"docx": "document", "pptx": "presentation", "xlsx": "spreadsheet"}


def lum(c):
    out = []
    for sh in (16, 8, 0):
        v = ((c >> sh) & 255) / 255.0
        out.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
    return 0.2126 * out[0] + 0.7152 * out[1] + 0.0722 * out[2]


def contrast(a, b):
    la, lb = lum(a), lum(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def chart_spec(kind):
    if kind == "scatter":
        return {"chart": "scatter", "title": "Spread", "series": [
            {"name": "A", "x": [1, 2, 3, 4], "y": [3, 5, 4, 6]},
            {"name": "B", "x": [1, 2, 3, 4], "y": [2, 3, 5, 4]}],
            "x_title": "Size", "y_title": "Cost", "labels": True, "legend": "bottom"}
    c = {"chart": kind, "title": "Sales by region", "categories": CATS,
         "series": [{"name": "2025", "values": [12, 9, 7, 4]},
                    {"name": "2026", "values": [14, 10, 6, 5]}],
         "labels": True, "legend": "right"}
    if kind in ("bar", "column", "area"):
        c["stacked"] = kind != "bar"
    if kind in ("pie", "doughnut"):
        c["series"] = c["series"][:1]
    else:
        c["x_title"], c["y_title"] = "Region", "Units"
    return c


def spec_for(fmt, theme, chart):
    if fmt == "docx":
        return {"title": "Charts", "theme": theme,
                "blocks": [dict(chart, type="chart", alt="a chart")]}
    if fmt == "pptx":
        return {"title": "Charts", "theme": theme,
                "slides": [{"title": "Chart", "chart": dict(chart, alt="a chart")}]}
    return {"title": "Charts", "theme": theme, "sheets": [
        {"name": "Data", "rows": [["x", 1]], "charts": [dict(chart, anchor="D2")]}]}


def solid(el):
    """The srgbClr of el's a:solidFill child, or None."""
    c = el.find("a:solidFill/a:srgbClr", NS)
    return int(c.get("val"), 16) if c is not None else None


class ChartThemes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def chart_xml(self, fmt, theme, kind):
        out = os.path.join(self.tmp, "%s-%s.%s" % (kind, theme, fmt))
        fid.render(spec_for(fmt, theme, chart_spec(kind)), out, KIND[fmt])
        with zipfile.ZipFile(out) as z:
            name = [n for n in z.namelist() if re.search(r"charts/chart1\.xml$", n)][0]
            return ET.fromstring(z.read(name))

    def check_chart(self, fmt, theme, kind):
        root = self.chart_xml(fmt, theme, kind)
        where = "%s %s %s" % (kind, theme, fmt)
        ground = solid(root.find("c:spPr", NS))
        want = THEMES[theme] if fmt != "xlsx" else 0xFFFFFF
        self.assertEqual(ground, want, where + ": the chart area's fill")
        # fills a data label can sit on: slices (dPt idx) and series (stacked bars)
        slices = {}
        for dpt in root.iter("{%s}dPt" % NS["c"]):
            slices[dpt.find("c:idx", NS).get("val")] = solid(dpt.find("c:spPr", NS))
        texts = 0
        for parent in root.iter():
            tag = parent.tag.split("}")[1]
            if tag == "title":
                runs = parent.findall(".//a:rPr", NS) + parent.findall(".//a:defRPr", NS)
                self.assertTrue(runs, where + ": a title without run properties")
                for r in runs:
                    col = solid(r)
                    self.assertIsNotNone(col, where + ": a title without a colour")
                    self.assertGreaterEqual(contrast(col, ground), 4.5, where + ": title ink")
                    texts += 1
                continue
            tp = parent.find("c:txPr", NS)
            if tp is None:
                continue
            d = tp.find(".//a:defRPr", NS)
            col = solid(d)
            self.assertIsNotNone(col, where + ": " + tag + " text without a colour")
            self.assertEqual(d.get("sz"), "1000", where + ": " + tag + " text size")
            on = ground
            if tag == "dLbl":
                on = slices[parent.find("c:idx", NS).get("val")]
            elif tag == "dLbls" and root.find(".//c:grouping[@val='stacked']", NS) is not None:
                ser = [s for s in root.iter("{%s}ser" % NS["c"]) if s.find("c:dLbls", NS) is parent]
                if ser:
                    on = solid(ser[0].find("c:spPr", NS))
            elif tag == "dLbls" and parent.find("c:dLbl", NS) is not None:
                continue  # a pie's series default: each point's own dLbl holds
            self.assertGreaterEqual(contrast(col, on), 4.5,
                                    "%s: %s text %06X on %06X" % (where, tag, col, on))
            texts += 1
        chart_title = root.find("c:chart/c:title//a:rPr", NS)
        self.assertEqual(chart_title.get("sz"), "1400", where + ": the chart title's size")
        self.assertGreaterEqual(texts, 3, where)

    def test_every_type_theme_format(self):
        for fmt in ("docx", "pptx", "xlsx"):
            for theme in THEMES:
                for kind in TYPES:
                    with self.subTest(fmt=fmt, theme=theme, kind=kind):
                        self.check_chart(fmt, theme, kind)

    def test_docx_ground_is_the_page(self):
        out = os.path.join(self.tmp, "ground.docx")
        fid.render(spec_for("docx", "dark", chart_spec("line")), out, "document")
        with zipfile.ZipFile(out) as z:
            doc = z.read("word/document.xml").decode()
        self.assertIn('w:background w:color="111827"', doc)

    def test_libreoffice_bar_order_and_ink(self):
        if not fid.have("soffice") or not fid.have("pdftoppm"):
            raise unittest.SkipTest("soffice or pdftoppm not installed")
        chart = chart_spec("bar")
        chart["categories"] = ["Alpha", "Bravo", "Charlie", "Delta"]
        chart["title"] = "Orders"
        files, quire_pdfs = [], {}
        for fmt in ("docx", "pptx", "xlsx"):
            spec = spec_for(fmt, "dark", chart)
            out = os.path.join(self.tmp, "order-%s.%s" % (fmt, fmt))
            fid.render(spec, out, KIND[fmt])
            files.append(out)
            q = os.path.join(self.tmp, "order-%s-quire.pdf" % fmt)
            fid.render(spec, q, "pdf")
            quire_pdfs[fmt] = q
        lo = os.path.join(self.tmp, "lo")
        os.makedirs(lo, exist_ok=True)
        fid.soffice_convert("pdf", files, lo)
        for fmt in ("docx", "pptx", "xlsx"):
            with self.subTest(fmt=fmt):
                lpdf = os.path.join(lo, "order-%s.pdf" % fmt)
                self.assertTrue(os.path.exists(lpdf), "LibreOffice did not convert " + fmt)
                lw, qw = words(lpdf), words(quire_pdfs[fmt])
                self.assertEqual(order(lw, chart["categories"]), order(qw, chart["categories"]),
                                 fmt + ": category order, LibreOffice vs quire (top to bottom)")
                self.assertEqual(order(qw, chart["categories"])[-1], "Alpha",
                                 fmt + ": the first category at the bottom")
                for word in ("Orders", "Alpha"):  # 14 pt and 10 pt: the same width
                    lwid, qwid = lw[word][2] - lw[word][0], qw[word][2] - qw[word][0]
                    self.assertLess(abs(lwid - qwid) / qwid, 0.04,
                                    "%s: %s %.1f pt wide (LibreOffice) vs %.1f (quire)" %
                                    (fmt, word, lwid, qwid))
                png = raster(lpdf, os.path.join(self.tmp, "lo-" + fmt))
                for word in ("Orders", "Charlie"):
                    self.assertGreaterEqual(ink_contrast(png, lw[word]), 4.5,
                                            "%s: %s as LibreOffice draws it" % (fmt, word))


def words(pdf):
    """{word: (xMin, yMin, xMax, yMax)} of page 1 (the first of each)."""
    p = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", pdf, "-"], capture_output=True,
                       text=True, timeout=120)
    out = {}
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                         r'([^<]*)</word>', p.stdout):
        out.setdefault(m.group(5), tuple(float(m.group(i)) for i in range(1, 5)))
    return out


def order(ws, cats):
    return [c for c in sorted((c for c in cats if c in ws), key=lambda c: ws[c][1])]


def raster(pdf, stem):
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile", pdf, stem],
                   check=True, timeout=120)
    with open(stem + ".ppm", "rb") as f:
        data = f.read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    return int(m.group(1)), int(m.group(2)), data[m.end():]


def ink_contrast(png, box):
    """The contrast of the text in box against its ground: the box's most
    common colour is the ground, the pixel farthest from it the ink."""
    w, h, px = png
    s = DPI / 72.0
    x0, y0, x1, y1 = (int(box[0] * s), int(box[1] * s), int(box[2] * s) + 1, int(box[3] * s) + 1)
    counts, cols = {}, []
    for y in range(max(y0, 0), min(y1, h)):
        for x in range(max(x0, 0), min(x1, w)):
            i = 3 * (y * w + x)
            c = px[i] << 16 | px[i + 1] << 8 | px[i + 2]
            counts[c] = counts.get(c, 0) + 1
            cols.append(c)
    ground = max(counts, key=counts.get)
    return max(contrast(c, ground) for c in cols)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False).result))
