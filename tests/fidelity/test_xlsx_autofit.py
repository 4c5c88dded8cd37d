#!/usr/bin/python3
"""xlsx without widths (issue 18 item 5): every column the spec gives no
width gets one from its content, so LibreOffice's PDF export of the sheet
shows every label whole and no "###" (pdftotext); a row with a multi-line
cell is as tall as its lines; a column the spec gives a width keeps it; a
column of short values keeps the default width (no <col>)."""
import os
import re
import subprocess
import sys
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

LABELS = ["Region name", "Growth percentage", "Signed on", "Revenue (EUR)",
          "Europe, Middle East and Africa", "Asia Pacific", "Wednesday shipments",
          "Growth per quarter", "WWWWWWWWWWMMMMMMMMMM", "日本語のラベル"]


def spec():
    return {"sheets": [{"name": "Data", "header": True, "rows": [
        ["Region name", "Growth percentage", "Signed on", "Revenue (EUR)", "Long date", "Flag"],
        ["Europe, Middle East and Africa", {"value": 0.1234, "format": "0.00%"}, {"date": "2025-09-30"},
         {"value": 1234567.891, "format": "#,##0.00"}, {"date": "2025-09-30", "format": "dddd, mmmm d, yyyy"},
         True],
        ["Asia Pacific", {"value": -0.05, "format": "0.0%"}, {"date": "2026-01-02"},
         {"value": 98765432.1, "format": "#,##0.00"}, {"date": "2026-11-30", "format": "dddd, mmmm d, yyyy"},
         False],
        ["Wednesday shipments", 1.5, {"date": "2024-12-31"}, -4500000, None, None],
        ["Growth per quarter", 123456789012, {"date": "2024-02-29"}, 0.000123, None, None],
        ["WWWWWWWWWWMMMMMMMMMM", "日本語のラベル", None, None, None, None]]}]}


class XlsxAutofit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def test_libreoffice_shows_every_label_whole(self):
        if not fid.have("soffice"):
            self.skipTest("soffice not installed")
        out = os.path.join(self.tmp, "fit.xlsx")
        fid.render(spec(), out, "spreadsheet")
        pdf = fid.soffice_pdf(out, self.tmp)
        text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
        self.assertNotIn("###", text)
        for label in LABELS:
            self.assertIn(label, text)
        for shown in ("12.34%", "1,234,567.89", "98,765,432.10", "2025-09-30", "123456789012",
                      "-4500000", "TRUE", "FALSE"):
            self.assertIn(shown, text)
        self.assertRegex(text, r"Tuesday, September 30, 2025")
        self.assertRegex(text, r"Monday, November 30, 2026")

    def test_widths_and_row_heights(self):
        s = spec()
        s["sheets"][0]["rows"].append(["one\ntwo\nthree", "x"])
        s["sheets"][0]["widths"] = [12, 30]  # A and B given, C.. fitted
        out = os.path.join(self.tmp, "w.xlsx")
        fid.render(s, out, "spreadsheet")
        with zipfile.ZipFile(out) as z:
            xml = z.read("xl/worksheets/sheet1.xml").decode()
        cols = {int(m.group(1)): float(m.group(2))
                for m in re.finditer(r'<col min="(\d+)" max="\d+" width="([0-9.]+)"', xml)}
        self.assertEqual(cols[1], 12)  # given: kept, even when the content is wider
        self.assertEqual(cols[2], 30)
        self.assertGreater(cols[4], len("98,765,432.10"))
        self.assertGreater(cols[5], len("Wednesday, September 30, 2025"))
        self.assertLess(cols[5], 60)
        self.assertIn('<row r="7" ht="45" customHeight="1">', xml)  # three lines of 15 pt
        self.assertIn('<row r="2">', xml)
        short = os.path.join(self.tmp, "short.xlsx")
        fid.render({"sheets": [{"rows": [["a", 1], ["b", 2]]}]}, short, "spreadsheet")
        with zipfile.ZipFile(short) as z:
            self.assertNotIn("<cols>", z.read("xl/worksheets/sheet1.xml").decode())


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
