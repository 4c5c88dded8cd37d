#!/usr/bin/python3
"""test_styles.py: cell styles, merges, filters, tab colours and outline
groups of a workbook (issue 33), end to end.

fixtures/styles-sheet is rendered and read back with openpyxl: built-in
styles in the theme's colours (input on the accent's tint, good/bad/neutral
in Excel's colours, total bold between a thin and a double rule, the header
row bold), a user style laid over a built-in (total with a format and a
fill), column styles (their number format on the column's cells and on
<col style>), direct properties (bold, italic, underline, colour, fill,
borders, alignment, wrap, indent, rotation), a styled empty cell and a row
style; ooxml-validate passes; the "report" theme recolours the built-ins.
A 25,000-row sheet with a styled header, column styles and a total row,
its styles before or after its sheets, gives the same bytes streamed and
through the tree path. Bad styles fail with paths and did-you-mean hints.

env: QUIRE, QUIRE_SOURCE_DIR, QUIRE_SHARED.
"""
import json
import os
import subprocess
import sys
import unittest

import openpyxl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import assert_ooxml_valid, unittest_exit  # noqa: E402
from sheets import QUIRE, SRC, render, same_on_every_path, scratch  # noqa: E402

TMP = scratch("styles")
FIX = os.path.join(SRC, "fixtures", "styles-sheet", "spec.json")



def rgb(color):
    return (color.rgb or "")[-6:].upper() if color is not None else ""


class Styles(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(TMP, "styles.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res
        cls.ws = openpyxl.load_workbook(cls.out)["Budget"]

    def test_header_and_builtins(self):
        ws = self.ws
        self.assertTrue(ws["A1"].font.b)
        self.assertEqual(rgb(ws["A2"].font.color), "2563EB")  # input: the accent
        self.assertEqual(rgb(ws["A2"].fill.fgColor), "DEE8FC")  # on its 15% tint
        self.assertEqual(ws["A2"].fill.fill_type, "solid")
        self.assertTrue(ws["D2"].font.i)  # note
        self.assertEqual(rgb(ws["D2"].font.color), "595959")
        self.assertEqual(rgb(ws["C3"].fill.fgColor), "FFC7CE")  # bad
        self.assertEqual(rgb(ws["C3"].font.color), "9C0006")
        self.assertEqual(rgb(ws["A5"].fill.fgColor), "C6EFCE")  # good
        self.assertEqual(rgb(ws["B5"].fill.fgColor), "FFEB9C")  # neutral

    def test_total_row(self):
        ws = self.ws
        for ref in ("A6", "B6", "C6"):
            c = ws[ref]
            self.assertTrue(c.font.b, ref)
            self.assertEqual(c.border.top.style, "thin", ref)
            self.assertEqual(c.border.bottom.style, "double", ref)
            self.assertEqual(rgb(c.fill.fgColor), "F2F2F2", ref)  # the user's fill over it
        self.assertEqual(ws["B6"].number_format, "#,##0")
        self.assertEqual(ws["B6"].value, "=SUM(B2:B5)")
        self.assertTrue(ws.row_dimensions[6].s)  # the row's own xf, for its blank cells

    def test_columns_and_direct(self):
        ws = self.ws
        self.assertEqual(ws["C2"].number_format, "#,##0.00")  # column style "money"
        self.assertEqual(ws["B3"].number_format, "#,##0.00")
        self.assertTrue(ws["D3"].font.b)
        self.assertEqual(rgb(ws["D3"].font.color), "C00000")
        self.assertEqual(ws["D3"].border.bottom.style, "medium")
        self.assertEqual(rgb(ws["D3"].border.bottom.color), "C00000")
        self.assertEqual(ws["A4"].alignment.horizontal, "center")
        self.assertTrue(ws["A4"].font.i)
        self.assertEqual(rgb(ws["B4"].fill.fgColor), "DDEBF7")
        for side in ("left", "right", "top", "bottom"):
            self.assertEqual(getattr(ws["B4"].border, side).style, "thin", side)
        self.assertEqual(ws["B4"].number_format, "#,##0.00")  # the column's, under the cell's look
        self.assertTrue(ws["C4"].font.b)
        self.assertEqual(ws["C4"].font.u, "single")
        self.assertTrue(ws["D4"].alignment.wrap_text)
        self.assertEqual(ws["D4"].alignment.vertical, "top")
        self.assertEqual(ws["A5"].alignment.indent, 1)
        self.assertEqual(ws["C5"].alignment.textRotation, 45)
        self.assertIsNone(ws["D5"].value)  # a styled blank
        self.assertEqual(rgb(ws["D5"].fill.fgColor), "DEE8FC")

    def test_validate(self):
        assert_ooxml_valid(self, self.out)

    def test_theme(self):
        with open(FIX) as f:
            spec = json.load(f)
        spec["theme"] = "report"
        path = os.path.join(TMP, "report.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        out = os.path.join(TMP, "report.xlsx")
        rc, res = render(path, out)
        self.assertEqual(rc, 0, res)
        ws = openpyxl.load_workbook(out)["Budget"]
        self.assertEqual(rgb(ws["A2"].font.color), "1F4E79")  # report's accent

    def test_streamed_same_bytes(self):
        rows = ",".join('["item %d", %d, %d.5, "x"]' % (i, i, i) for i in range(25000))
        sheet = ('{"name": "Big", "columns": ["Item", "A", "B", "Note"], '
                 '"column_styles": [null, "money", {"fill": "#FFF2CC"}], "rows": [%s, '
                 '{"style": "total", "cells": ["Total", {"formula": "SUM(B2:B25001)", "value": 1}]}]}'
                 % rows)
        styles = '"styles": {"header": {"fill": "#1F4E79", "color": "#FFFFFF"}, "money": {"format": "#,##0"}}'
        for name, text in (("before", '{%s, "sheets": [%s]}' % (styles, sheet)),
                           ("after", '{"sheets": [%s], %s}' % (sheet, styles))):
            rc, res, _ = same_on_every_path(self, TMP, name, text, modes=("0", "1"))[0]
            self.assertEqual(rc, 0, res)
        ws = openpyxl.load_workbook(os.path.join(TMP, "after-1.xlsx"), read_only=True)["Big"]
        first = next(ws.iter_rows(min_row=1, max_row=1))
        self.assertEqual(rgb(first[0].fill.fgColor), "1F4E79")
        self.assertEqual(rgb(first[0].font.color), "FFFFFF")
        self.assertTrue(first[0].font.b)  # the built-in header under the user's

    def test_merge_filter_groups(self):
        out = os.path.join(TMP, "merge.xlsx")
        rc, res = render(os.path.join(SRC, "fixtures", "merge-sheet", "spec.json"), out)
        self.assertEqual(rc, 0, res)
        assert_ooxml_valid(self, out)
        wb = openpyxl.load_workbook(out)
        ws = wb["Report"]
        self.assertEqual(sorted(str(r) for r in ws.merged_cells.ranges), ["A1:E1", "E3:E5"])
        self.assertEqual(ws.auto_filter.ref, "A2:D6")
        self.assertEqual(rgb(ws.sheet_properties.tabColor), "C00000")
        self.assertTrue(ws.row_dimensions[5].hidden)
        self.assertEqual(ws.row_dimensions[4].outlineLevel, 1)
        self.assertEqual(ws.row_dimensions[5].outlineLevel, 1)
        self.assertTrue(ws.column_dimensions["F"].hidden)
        self.assertEqual(ws.column_dimensions["C"].outlineLevel, 1)
        self.assertEqual(ws.column_dimensions["D"].outlineLevel, 1)
        self.assertEqual(ws["A1"].alignment.horizontal, "center")
        self.assertEqual(wb["Second"].auto_filter.ref, "A1:B2")
        self.assertEqual(rgb(wb["Second"].sheet_properties.tabColor), "00B050")

    def test_streamed_merges(self):
        """A merge past the rows pass 1 keeps: the tree path compiles it, same
        bytes; a merge hiding a value there is the same error both ways."""
        rows = ",".join('["r%d", %d]' % (i, i) for i in range(25000))
        for merge, hides in (("A24001:B24001", True), ("C24001:D24002", False)):
            text = '{"sheets": [{"rows": [%s], "merge": ["%s"]}]}' % (rows, merge)
            rc = same_on_every_path(self, TMP, "m", text, modes=("0", "1"))[0][0]
            self.assertEqual(rc, 1 if hides else 0, merge)

    def test_quire_read(self):
        """quire read gives the looks back as cell properties, merges and the tab colour
        as sheet keys; the spec it reads renders to the same looks again."""
        rd = subprocess.run([QUIRE, "read", self.out], capture_output=True, text=True)
        self.assertEqual(rd.returncode, 0, rd.stdout)
        rows = json.loads(rd.stdout)["sheets"][0]["rows"]
        self.assertEqual(rows[1][0], {"value": "Rent", "color": "#2563EB", "fill": "#DEE8FC"})
        self.assertEqual(rows[2][3], {"value": "over budget", "bold": True, "color": "#C00000",
                                      "border": {"bottom": "medium", "color": "#C00000"}})
        self.assertEqual(rows[3][0], {"value": "Centered", "italic": True, "align": "center"})
        self.assertEqual(rows[4][2], {"value": "Rotated", "rotate": 45})
        self.assertEqual(rows[4][3], {"color": "#2563EB", "fill": "#DEE8FC"})
        self.assertEqual(rows[0][0], "Item")  # the header row's bold is the sheet's header
        back = os.path.join(TMP, "back.json")
        with open(back, "w") as f:
            f.write(rd.stdout)
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(back, again)
        self.assertEqual(rc, 0, res)
        ws = openpyxl.load_workbook(again)["Budget"]
        self.assertEqual(rgb(ws["C3"].fill.fgColor), "FFC7CE")
        self.assertEqual(ws["D3"].border.bottom.style, "medium")
        out = os.path.join(TMP, "merge-read.xlsx")
        render(os.path.join(SRC, "fixtures", "merge-sheet", "spec.json"), out)
        sheet = json.loads(subprocess.run([QUIRE, "read", out], capture_output=True,
                                          text=True).stdout)["sheets"][0]
        self.assertEqual(sheet["merge"], ["A1:E1", "E3:E5"])
        self.assertEqual(sheet["tab_color"], "#C00000")

    def test_errors(self):
        path = os.path.join(TMP, "bad.json")
        with open(path, "w") as f:
            json.dump({"styles": {"money": {"format": "#,##0", "colour": "#000000"}},
                       "sheets": [{"rows": [[{"value": 1, "style": "mony"}],
                                            {"style": "totl", "cells": [1]}]}]}, f)
        rc, res = render(path, os.path.join(TMP, "bad.xlsx"))
        self.assertEqual(rc, 1)
        errs = {e["path"]: e for e in res["errors"]}
        self.assertIn('did you mean "money"', errs["/sheets/0/rows/0/0/style"]["hint"])
        self.assertIn('did you mean "total"', errs["/sheets/0/rows/1/style"]["hint"])
        self.assertIn("/styles/money/colour", errs)
        self.assertFalse(os.path.exists(os.path.join(TMP, "bad.xlsx")))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
