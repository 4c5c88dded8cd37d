#!/usr/bin/python3
"""The sheet preview tells the truth (issue 36, item 2): for every fixture
with sheets, quire's preview (PDF) and LibreOffice's rendering of quire's
.xlsx agree.

- No "##" run in the preview where LibreOffice shows a value: the preview's
  all-'#' words are no more than LibreOffice's PDF has (pdftotext; a
  fixture's own "#" text counts on both sides).
- The columns of the first sheet's first page are as wide in the preview
  (its grid lines, found in a 144 dpi raster of page 1) as LibreOffice lays
  them out (its flat ODS export: style:column-width), within 1 pt.
- The number formats the .xlsx declares show the same text in both:
  fractions ("# ?/?" of 1.75 is "1 3/4") and colour sections (the text of
  "[Red](#,##0.00)" in red in the preview) (fixtures/sheet-preview-fit).

One soffice run converts every .xlsx to PDF, one to ODS (about 15 s)."""
import json
import os
import re
import subprocess
import sys
import unittest
from xml.etree import ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402

DPI = 144
MARGIN_X, MARGIN_Y = 50.4, 54.0  # pdf/sheet.c
NS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
      "style": "urn:oasis:names:tc:opendocument:xmlns:style:1.0"}


def sheet_fixtures():
    out = []
    for name in sorted(os.listdir(fid.FIXTURES)):
        p = os.path.join(fid.FIXTURES, name, "spec.json")
        if not os.path.isfile(p):
            continue
        try:
            with open(p) as f:
                spec = json.load(f)
        except ValueError:
            continue
        if isinstance(spec, dict) and spec.get("sheets"):
            out.append((name, spec, p))
    return out


def hash_runs(pdf):
    t = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True, timeout=120).stdout
    return len(re.findall(r"(?<![^\s])##+(?![^\s])", t))


def length_pt(v):
    m = re.match(r"([\d.]+)(in|cm|mm|pt)", v)
    k = {"in": 72.0, "cm": 72 / 2.54, "mm": 72 / 25.4, "pt": 1.0}[m.group(2)]
    return float(m.group(1)) * k


def lo_widths(fods):
    """The first table's column widths in points (repeats expanded, at most 64)."""
    root = ET.parse(fods).getroot()
    widths = {}
    for st in root.iter("{%s}style" % NS["style"]):
        col = st.find("style:table-column-properties", NS)
        if col is not None and col.get("{%s}column-width" % NS["style"]):
            widths[st.get("{%s}name" % NS["style"])] = length_pt(col.get("{%s}column-width" % NS["style"]))
    table = next(root.iter("{%s}table" % NS["table"]))
    out = []
    for c in table.iter("{%s}table-column" % NS["table"]):
        n = int(c.get("{%s}number-columns-repeated" % NS["table"], "1"))
        out += [widths.get(c.get("{%s}style-name" % NS["table"]))] * min(n, 64)
        if len(out) >= 64:
            break
    return out


def preview_widths(pdf, stem):
    """Column widths of page 1's grid in points: the vertical grid lines
    crossing a pixel row just under the grid's top line."""
    subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile", pdf,
                    stem], check=True, timeout=120)
    with open(stem + ".pgm", "rb") as f:
        data = f.read()
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    w = int(m.group(1))
    px = data[m.end():]
    y = int((MARGIN_Y + 1.5) * DPI / 72)
    row = px[y * w:(y + 1) * w]
    xs, run = [], []
    for x in range(int(MARGIN_X * DPI / 72) - 3, w):
        if row[x] < 245:
            run.append(x)
        elif run:
            xs.append(sum(run) / len(run))
            run = []
    return [(b - a) * 72.0 / DPI for a, b in zip(xs, xs[1:])]


class SheetPreview(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not fid.have("soffice") or not fid.have("pdftoppm"):
            raise unittest.SkipTest("soffice or pdftoppm not installed")
        cls.tmp = fid.tmpdir()
        cls.cases = []
        xlsx = []
        for name, spec, path in sheet_fixtures():
            x = os.path.join(cls.tmp, name + ".xlsx")
            q = os.path.join(cls.tmp, name + "-quire.pdf")
            fid.render(path, x, "spreadsheet")
            fid.render(path, q, "pdf")
            xlsx.append(x)
            cls.cases.append((name, spec, x, q))
        cls.lo = os.path.join(cls.tmp, "lo")
        os.makedirs(cls.lo, exist_ok=True)
        prof = os.path.join(cls.tmp, "profile")
        fid.soffice_convert("pdf", xlsx, cls.lo, profile=prof)
        fid.soffice_convert("fods", xlsx, cls.lo, profile=prof)

    def test_no_hashes_where_libreoffice_shows_a_value(self):
        for name, spec, x, q in self.cases:
            with self.subTest(fixture=name):
                lpdf = os.path.join(self.lo, name + ".pdf")
                if not os.path.exists(lpdf):
                    continue  # an empty workbook prints nothing in LibreOffice
                self.assertLessEqual(hash_runs(q), hash_runs(lpdf), name + ": '##' in the preview")

    def test_widths_within_1pt(self):
        checked = 0
        for name, spec, x, q in self.cases:
            first = spec["sheets"][0]
            ncols = max([len(r) for r in first.get("rows") or [[]]] + [len(first.get("columns") or [])])
            if not ncols or not first.get("rows"):
                continue
            if first.get("merge") or first.get("hidden_columns"):
                continue  # no plain grid to measure: merged and hidden cells are
                # tests/xlsx/test_styles.py's (openpyxl) and the goldens' (looked at)
            if first.get("print"):
                continue  # a print setup moves, scales or hides the grid: tests/xlsx/test_print.py's
            with self.subTest(fixture=name):
                lw = lo_widths(os.path.join(self.lo, name + ".fods"))
                qw = preview_widths(q, os.path.join(self.tmp, name))
                n = min(ncols, len(qw))
                self.assertGreater(n, 0, name + ": no grid found")
                for i in range(n):
                    self.assertLess(abs(qw[i] - lw[i]), 1.0, "%s column %d: %.2f pt (preview) vs %.2f pt"
                                    " (LibreOffice)" % (name, i + 1, qw[i], lw[i]))
                checked += 1
        self.assertGreater(checked, 3)

    def test_formats_shown_alike(self):
        q = [c for c in self.cases if c[0] == "sheet-preview-fit"][0]
        qt = subprocess.run(["pdftotext", "-layout", q[3], "-"], capture_output=True, text=True).stdout
        lt = subprocess.run(["pdftotext", "-layout", os.path.join(self.lo, "sheet-preview-fit.pdf"), "-"],
                            capture_output=True, text=True).stdout
        for want in ("1 3/4", "3 14/99", "(1,234.50)", "1,234.50", "2026-11-30",
                     "https://example.com/a/long/path"):
            self.assertIn(want, qt, "the preview")
            self.assertIn(want, lt, "LibreOffice")
        # the red section in red: the preview's raster has red pixels in the loss row
        stem = os.path.join(self.tmp, "fit-colour")
        subprocess.run(["pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-singlefile", q[3], stem],
                       check=True)
        with open(stem + ".ppm", "rb") as f:
            data = f.read()
        m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
        px = data[m.end():]
        red = sum(1 for i in range(0, len(px), 3) if px[i] > 180 and px[i + 1] < 90 and px[i + 2] < 90)
        self.assertGreater(red, 10, "no red text in the preview")


if __name__ == "__main__":
    unittest.main()
