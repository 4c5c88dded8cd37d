#!/usr/bin/python3
"""test_print.py: a sheet's print setup (issue 33, README "Print setup"), end to end.

fixtures/print-sheet has two sheets: "Budget" (landscape A4, one page wide,
row 1 and column A repeated, no gridlines, a print area, a header by
sections, a footer with {page} and {pages}, its own margins) and
"Contacts" (portrait Letter, row 2 repeated, gridlines, a header with an
"&" and literal braces, a footer by sections). Checked here:
- openpyxl reads orientation, paper, fit, fitToPage, print titles, print
  area, margins, gridlines, header and footer back;
- quire read gives "print" back as the spec wrote it (Excel's defaults,
  portrait and Letter, left out), and the spec it reads renders the same
  print parts again;
- quire read of openpyxl's own print setup;
- LibreOffice's PDF export of the .xlsx: A4 landscape pages for Budget,
  one page wide (page 1 shows column A and the Total column), the header
  row repeated on page 2, the header and footer texts with their fields
  filled in, Letter portrait pages for Contacts with row 2 repeated;
- a 25,000-row sheet with a print setup gives the same bytes streamed and
  through the tree path (print before or after the rows), and a bad one
  the same errors both ways;
- quire's own PDF preview: the same pages as LibreOffice's (A4 landscape,
  Letter portrait), header and footer filled in, the titles repeated, and
  fixtures/print-fit-sheet's 27 columns scaled onto one page, its print
  area's rows only.
Errors (paths, hints) are fixtures/errors/sheet-print-*.

env: QUIRE, QUIRE_SOURCE_DIR, QUIRE_SHARED.
"""
import json
import os
import shutil
import subprocess
import sys
import unittest
import zipfile

import openpyxl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import assert_ooxml_valid, require, unittest_exit  # noqa: E402
from sheets import (QUIRE, fixture, pdf_page_sizes, pdf_page_text, read_spec, render,  # noqa: E402
                    scratch, write_spec)

TMP = scratch("print")
FIX = fixture("print-sheet")


def print_parts(xml, defaults=False):
    """A worksheet's XML from <printOptions> (or <pageMargins>) to <headerFooter>'s end;
    defaults: without a portrait Letter <pageSetup> (quire read leaves Excel's defaults out)."""
    start = xml.find("<printOptions")
    if start < 0:
        start = xml.index("<pageMargins")
    end = xml.find("</headerFooter>")
    part = xml[start:end]
    if defaults:
        part = part.replace('<pageSetup paperSize="1" orientation="portrait"/>', "")
    return part


class Print(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(FIX) as f:
            cls.spec = json.load(f)
        cls.out = os.path.join(TMP, "print.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res

    def test_openpyxl(self):
        assert_ooxml_valid(self, self.out)
        wb = openpyxl.load_workbook(self.out)
        ws = wb["Budget"]
        ps = ws.page_setup
        self.assertEqual(ps.orientation, "landscape")
        self.assertEqual(int(ps.paperSize), 9)  # A4
        self.assertEqual((int(ps.fitToWidth), int(ps.fitToHeight)), (1, 0))
        self.assertTrue(ws.sheet_properties.pageSetUpPr.fitToPage)
        self.assertEqual(ws.print_title_rows, "$1:$1")
        self.assertEqual(ws.print_title_cols, "$A:$A")
        self.assertIn(ws.print_area, (["$A$1:$N$50"], "'Budget'!$A$1:$N$50"))  # by version
        self.assertFalse(ws.print_options.gridLines)
        m = ws.page_margins
        self.assertAlmostEqual(m.top, 40 / 72)
        self.assertAlmostEqual(m.bottom, 40 / 72)
        self.assertAlmostEqual(m.left, 0.7)
        self.assertEqual(ws.oddHeader.left.text, "FY2027 budget && plan")
        self.assertEqual(ws.oddHeader.right.text, "&A")
        self.assertEqual(ws.oddFooter.center.text, "Page &P of &N")
        wc = wb["Contacts"]
        self.assertEqual(wc.page_setup.orientation, "portrait")
        self.assertEqual(int(wc.page_setup.paperSize), 1)  # Letter
        self.assertEqual(wc.print_title_rows, "$2:$2")
        self.assertIsNone(wc.print_title_cols)
        self.assertTrue(wc.print_options.gridLines)
        self.assertEqual(wc.oddHeader.center.text, "Contacts && owners {internal}")
        self.assertEqual((wc.oddFooter.left.text, wc.oddFooter.right.text), ("&A", "&P/&N"))

    def test_quire_read(self):
        got = read_spec(self.out)["sheets"]
        want0 = dict(self.spec["sheets"][0]["print"])
        want0["margins"] = {"top": 40, "right": 50.4, "bottom": 40, "left": 50.4}
        self.assertEqual(got[0]["print"], want0)
        want1 = dict(self.spec["sheets"][1]["print"])
        del want1["orientation"], want1["paper"]  # Excel's defaults
        self.assertEqual(got[1]["print"], want1)
        path = write_spec(os.path.join(TMP, "read.json"), {"sheets": got})
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(path, again)
        self.assertEqual(rc, 0, res)
        with zipfile.ZipFile(self.out) as a, zipfile.ZipFile(again) as b:
            for part in ("xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"):
                self.assertEqual(print_parts(a.read(part).decode(), True),
                                 print_parts(b.read(part).decode()), part)
            wa, wb = a.read("xl/workbook.xml").decode(), b.read("xl/workbook.xml").decode()
            self.assertEqual(wa[wa.index("<definedNames>"):], wb[wb.index("<definedNames>"):])

    def test_read_openpyxl_file(self):
        wb = openpyxl.Workbook()
        ws = wb.active
        ws.title = "Data"
        for r in range(1, 31):
            ws.append(["row %d" % r, r, r * 2, r * 3])
        ws.page_setup.orientation = "landscape"
        ws.page_setup.paperSize = ws.PAPERSIZE_A3
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 2
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.print_title_rows = "1:2"
        ws.print_title_cols = "B:C"
        ws.print_area = "A1:D30"
        ws.print_options.gridLines = True
        ws.page_margins.left = 0.5
        ws.oddHeader.center.text = "Report &[Page]"  # openpyxl writes &P
        ws.oddHeader.center.size = 14
        ws.oddHeader.right.text = "&D"  # the date: the spec has no field, dropped
        ws.oddFooter.left.text = "&F"
        ws.oddFooter.right.text = "Page &P of &N"
        path = os.path.join(TMP, "openpyxl.xlsx")
        wb.save(path)
        got = read_spec(path)["sheets"][0]["print"]
        self.assertEqual(got, {
            "orientation": "landscape", "paper": "a3", "fit_width": 1, "fit_height": 2,
            "repeat_rows": 2, "repeat_cols": "B:C", "gridlines": True, "area": "A1:D30",
            "header": "Report {page}", "footer": {"right": "Page {page} of {pages}"},
            "margins": {"top": 72, "right": 54, "bottom": 72, "left": 36}})  # openpyxl's 1, 0.75 in
        # and quire renders what it read
        spec = write_spec(os.path.join(TMP, "openpyxl.json"), read_spec(path))
        rc, res = render(spec, os.path.join(TMP, "openpyxl-again.xlsx"))
        self.assertEqual(rc, 0, res)

    def test_libreoffice_pdf(self):
        if not shutil.which("soffice"):
            self.skipTest("soffice is not installed")
        from office import soffice_convert
        outdir = os.path.join(TMP, "lo")
        os.makedirs(outdir, exist_ok=True)
        soffice_convert("pdf", [self.out], outdir, timeout=300)
        pdf = os.path.join(outdir, "print.pdf")
        sizes = pdf_page_sizes(pdf, 9)
        # Budget: 49 rows on A4 landscape, one page wide: 2 pages; Contacts: Letter portrait
        self.assertEqual(sizes, [(842, 595), (842, 595), (612, 792), (612, 792)])

        def page(n):
            return pdf_page_text(pdf, n)

        p1, p2, p3, p4 = page(1), page(2), page(3), page(4)
        self.assertIn("FY2027 budget & plan", p1)
        self.assertIn("Page 1 of 4", p1)
        first = [ln for ln in p1.splitlines() if "Salaries 1" in ln][0]
        self.assertIn("15858", first)  # the Total column on the same page: one page wide
        self.assertRegex(p2.splitlines()[0] + p2, r"Line\s+Jan")  # row 1 repeated
        self.assertIn("Total", p2)
        self.assertIn("Page 2 of 4", p2)
        self.assertIn("Contacts & owners {internal}", p3)
        self.assertIn("Contacts", p4)
        self.assertIn("4/4", p4)
        self.assertRegex(p4, r"Name\s+Team\s+Email")  # row 2 repeated
        self.assertNotIn("Contacts and owners", p4)  # row 1 is not

    def test_quire_preview(self):
        pdf = os.path.join(TMP, "preview.pdf")
        rc, res = render(FIX, pdf)
        self.assertEqual(rc, 0, res)
        self.assertEqual(res["pages"], 4)  # as LibreOffice prints it
        sizes = pdf_page_sizes(pdf, 4)
        self.assertEqual(sizes, [(842, 595), (842, 595), (612, 792), (612, 792)])

        def page(n):
            return pdf_page_text(pdf, n)

        p1, p2, p4 = page(1), page(2), page(4)
        self.assertIn("FY2027 budget & plan", p1)
        self.assertIn("Page 1 of 4", p1)
        self.assertIn("Budget", p1.splitlines()[0])  # {sheet} at the right
        first = [ln for ln in p1.splitlines() if "Salaries 1" in ln][0]
        self.assertIn("15858", first)
        self.assertRegex(p2, r"Line\s+Jan")  # row 1 repeated
        self.assertIn("Page 2 of 4", p2)
        self.assertIn("Contacts & owners {internal}", page(3))
        self.assertRegex(p4, r"Name\s+Team\s+Email")  # row 2 repeated
        self.assertNotIn("Contacts and owners", p4)
        self.assertIn("4/4", p4)
        # fit to width: 27 columns scaled onto one Letter landscape page, the area's 61 rows
        pdf2 = os.path.join(TMP, "fit.pdf")
        rc, res = render(fixture("print-fit-sheet"), pdf2)
        self.assertEqual((rc, res["pages"]), (0, 1), res)
        text = subprocess.run(["pdftotext", "-layout", pdf2, "-"], capture_output=True,
                              text=True).stdout
        self.assertRegex(text, r"Store\s+W01\s+W02.*W26")
        self.assertIn("Store 60", text)
        self.assertNotIn("Store 61", text)  # past the area
        self.assertIn("Page 1 of 1", text)
        # sheets of other sizes with links (tagged): a sound PDF whichever sheet comes first
        check = require(self, "tools/pdf-check")
        for k, sheets in enumerate((
                [{"name": "E", "rows": []},
                 {"name": "L", "rows": [["a", {"value": "web", "link": "https://example.com/"}]],
                  "print": {"orientation": "landscape"}}],
                [{"name": "L", "rows": [["a", {"value": "to M", "link": "#M!A1"}]],
                  "print": {"orientation": "landscape", "paper": "a4"}},
                 {"name": "M", "rows": [["b", {"value": "to L", "link": "#L!A1"}]]}])):
            spec = write_spec(os.path.join(TMP, "links%d.json" % k), {"sheets": sheets})
            out = os.path.join(TMP, "links%d.pdf" % k)
            rc, res = render(spec, out)
            self.assertEqual(rc, 0, res)
            p = subprocess.run([check, out], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        # the contact sheet and a PNG page draw without trouble
        rc, res = render(FIX, os.path.join(TMP, "contact.png"), args=["--contact"])
        self.assertEqual(rc, 0, res)

    def test_streamed_same_bytes(self):
        rows = ",".join('["t%d", "Open", 0.5, %d]' % (i, i) for i in range(25000))
        pr = ('"print": {"orientation": "landscape", "fit_width": 1, "repeat_rows": "1:2", '
              '"area": "A1:D25001", "footer": "{page}/{pages}", "gridlines": true}')
        for name, text in (
                ("before", '{"sheets": [{"columns": ["T", "S", "F", "N"], %s, "rows": [%s]}]}'
                 % (pr, rows)),
                ("after", '{"sheets": [{"columns": ["T", "S", "F", "N"], "rows": [%s], %s}]}'
                 % (rows, pr))):
            path = write_spec(os.path.join(TMP, name + ".json"), text)
            outs = []
            for mode in ("0", "1", "all"):
                out = os.path.join(TMP, "%s-%s.xlsx" % (name, mode))
                rc, res = render(path, out, {"QUIRE_XLSX_STREAM": mode})
                self.assertEqual(rc, 0, res)
                with open(out, "rb") as f:
                    outs.append(f.read())
            self.assertEqual(outs[0], outs[1], name)
            self.assertEqual(outs[0], outs[2], name)
            with zipfile.ZipFile(os.path.join(TMP, "%s-1.xlsx" % name)) as z:
                xml = z.read("xl/worksheets/sheet1.xml").decode()
            self.assertIn('<pageSetup fitToWidth="1" fitToHeight="0" orientation="landscape"/>',
                          xml)

    def test_errors_both_paths(self):
        rows = ",".join('[%d]' % i for i in range(100))
        path = write_spec(os.path.join(TMP, "bad.json"),
                          '{"sheets": [{"rows": [%s], "print": {"repeat_rows": 101, '
                          '"orientation": "landscpe", "header": "{pages} {shet}"}}]}' % rows)
        got = []
        for mode in ("0", "1"):
            out = os.path.join(TMP, "bad-%s.xlsx" % mode)
            rc, res = render(path, out, {"QUIRE_XLSX_STREAM": mode})
            self.assertEqual(rc, 1)
            self.assertFalse(os.path.exists(out))
            got.append(res["errors"])
        self.assertEqual(got[0], got[1])
        by = {e["path"]: e for e in got[0]}
        self.assertEqual(sorted(by), ["/sheets/0/print/header", "/sheets/0/print/orientation",
                                      "/sheets/0/print/repeat_rows"])
        self.assertEqual(by["/sheets/0/print/orientation"]["hint"], 'did you mean "landscape"?')
        self.assertEqual(by["/sheets/0/print/header"]["hint"], 'did you mean "{sheet}"?')
        self.assertIn("past the sheet's 100 rows", by["/sheets/0/print/repeat_rows"]["message"])

    def test_canonical_order(self):
        spec = {"sheets": [{"rows": [[1]], "print": {
            "margins": {"left": 36, "top": 20}, "footer": "x", "header": {"right": "b", "left": "a"},
            "area": "A1:A1", "gridlines": False, "fit_height": 2, "fit_width": 1,
            "orientation": "landscape"}}]}
        path = write_spec(os.path.join(TMP, "canon.json"), spec)
        p = subprocess.run([QUIRE, "fmt", path], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        pr = p.stdout[p.stdout.index('"print"'):]
        keys = ["orientation", "fit_width", "fit_height", "gridlines", "area", "header", "left",
                "right", "footer", "margins", "top", "left"]
        at = [pr.index('"%s"' % k, pr.index('"%s"' % keys[i - 1]) if i else 0)
              for i, k in enumerate(keys)]
        self.assertEqual(at, sorted(at))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
