#!/usr/bin/python3
"""test_tables.py: Excel tables (ListObjects) of a workbook (issue 33), end to end.

fixtures/tables-sheet has a table with a totals row (a label, sum,
count_nums, average) and a second sheet whose formulas use structured
references (Sales[Revenue], SUBTOTAL) beside a table without totals.
Checked here:
- openpyxl reads each table back (name, ref with the totals row, style,
  columns with their totals function or label); ooxml-validate passes;
- the totals row's cells are SUBTOTAL formulas over Name[Column] with
  cached values quire computed, and the structured references elsewhere
  are computed too; LibreOffice, recalculating, gets the same values;
- quire read gives "tables" back (the totals row's cells left to the
  table) and the spec it reads renders the same tables;
- errors: names (a cell reference, taken by another table or a defined
  name), header cells (empty, repeated), overlaps (tables, merges, the
  sheet's autofilter), totals (unknown column or function, did-you-mean;
  a value in the totals row), styles.

env: QUIRE, QUIRE_SOURCE_DIR, QUIRE_SHARED.
"""
import json
import os
import sys
import unittest

import openpyxl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import assert_ooxml_valid, unittest_exit  # noqa: E402
from sheets import (fixture, libreoffice_resave, read_spec, render, scratch,  # noqa: E402
                    write_spec)

TMP = scratch("tables")
FIX = fixture("tables-sheet")
VALUES = {("Sales", "B6"): 3950.75, ("Sales", "C6"): 4, ("Sales", "D6"): 0.2725,
          ("Summary", "B1"): 3950.75, ("Summary", "B2"): 12, ("Summary", "B3"): 4,
          ("Summary", "B4"): 3950.75}


def tables_of(path):
    wb = openpyxl.load_workbook(path)
    out = {}
    for ws in wb:
        for t in ws.tables.values():
            out[t.name] = (ws.title, t.ref, t.totalsRowCount, t.tableStyleInfo.name if
                           t.tableStyleInfo else None,
                           [(c.name, c.totalsRowFunction, c.totalsRowLabel) for c in t.tableColumns])
    return out


class Tables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(TMP, "tables.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res

    def test_openpyxl(self):
        assert_ooxml_valid(self, self.out)
        self.assertEqual(tables_of(self.out), {
            "Sales": ("Sales", "A1:D6", 1, "TableStyleMedium2",
                      [("Region", None, "Total"), ("Revenue", "sum", None),
                       ("Units", "countNums", None), ("Margin", "average", None)]),
            "Targets": ("Summary", "D1:E3", None, "TableStyleLight9",
                        [("Region", None, None), ("Target", None, None)])})
        wb = openpyxl.load_workbook(self.out)
        self.assertEqual(wb["Sales"]["B6"].value, "=SUBTOTAL(109,Sales[Revenue])")
        cached = openpyxl.load_workbook(self.out, data_only=True)
        for (sheet, ref), want in VALUES.items():
            self.assertAlmostEqual(cached[sheet][ref].value, want, places=9, msg=ref)

    def test_libreoffice_recalculates_the_same(self):
        lo = libreoffice_resave(self.out, os.path.join(TMP, "lo"))
        if lo is None:
            self.skipTest("soffice is not installed")
        cached = openpyxl.load_workbook(lo, data_only=True)  # LibreOffice recalculated on open
        for (sheet, ref), want in VALUES.items():
            self.assertAlmostEqual(cached[sheet][ref].value, want, places=9, msg=ref)
        self.assertEqual(sorted(tables_of(lo)), ["Sales", "Targets"])

    def test_quire_read_round_trip(self):
        spec = read_spec(self.out)
        sales = spec["sheets"][0]
        self.assertEqual(sales["tables"], [{"name": "Sales", "range": "A1:D5", "style": "medium2",
                                            "totals": {"Region": {"label": "Total"},
                                                       "Revenue": "sum", "Units": "count_nums",
                                                       "Margin": "average"}}])
        self.assertEqual(len(sales["rows"]), 5)  # the totals row is the table's
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(write_spec(os.path.join(TMP, "again.json"), spec), again)
        self.assertEqual(rc, 0, res)
        self.assertEqual(tables_of(again), tables_of(self.out))

    def check(self, spec):
        path = write_spec(os.path.join(TMP, "bad.json"), spec)
        rc, res = render(path, os.path.join(TMP, "bad.xlsx"))
        self.assertEqual(rc, 1, res)
        return {e["path"]: e for e in res["errors"]}

    def test_errors(self):
        rows = [["A", "B", "a"], [1, 2, 3], [4, 5, 6], [7, 8]]
        errs = self.check({"names": {"Revenue": "S!A1"}, "sheets": [
            {"name": "S", "merge": ["E1:F1"], "rows": rows, "tables": [
                {"range": "A1:C3", "name": "Dup"},
                {"range": "A1:B3", "name": "T1"},
                {"range": "E1:F2", "name": "Merged"},
                {"range": "A1:B2", "name": "Ok", "style": "medium99"}]},
            {"name": "U", "rows": [["a", "b"], [1, 2], [3, 4]], "tables": [
                {"range": "A1:B2", "name": "Revenue", "totals": {"a": "summ"}},
                {"range": "A1:B2", "name": "Good", "totals": {"bb": "max"}}]}]})
        self.assertIn("repeats", errs["/sheets/0/tables/0/range"]["message"])
        self.assertIn("cell reference", errs["/sheets/0/tables/1/name"]["message"])
        self.assertIn("merge", errs["/sheets/0/tables/2/range"]["message"])
        self.assertIn("medium99", errs["/sheets/0/tables/3/style"]["message"])
        self.assertEqual(errs["/sheets/1/tables/0/totals/a"]["hint"], 'did you mean "sum"?')
        self.assertEqual(errs["/sheets/1/tables/1/totals/bb"]["hint"], 'did you mean "b"?')
        errs = self.check({"names": {"Revenue": "S!A1"}, "sheets": [
            {"name": "S", "rows": [["a", "b"], [1, 2], [3, 4]], "autofilter": "A1:B3",
             "tables": [{"range": "A1:B2", "name": "Filtered"}]},
            {"name": "U", "rows": [["a", "b", None, "c", "d"], [1, 2, None, 3, 4]],
             "tables": [{"range": "A1:B2", "name": "Same"}, {"range": "D1:E2", "name": "same"}]},
            {"name": "V", "rows": [["a", "b"], [1, 2]],
             "tables": [{"range": "A1:B2", "name": "revenue"}]}]})
        self.assertIn("autofilter", errs["/sheets/0/tables/0/range"]["message"])
        self.assertIn("another table", errs["/sheets/1/tables/1/name"]["message"])
        self.assertIn("defined name", errs["/sheets/2/tables/0/name"]["message"])
        errs = self.check({"sheets": [{"rows": [["a", "b"], [1, 2], [3, 4]],
                                       "tables": [{"range": "A1:B2", "name": "Hides",
                                                   "totals": {"a": "sum"}}]}]})
        self.assertIn("would hide", errs["/sheets/0/tables/0/totals"]["message"])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
