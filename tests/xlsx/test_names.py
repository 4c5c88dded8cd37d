#!/usr/bin/python3
"""test_names.py: defined names of a workbook (issue 33), end to end.

fixtures/names-sheet defines workbook names (a range, a quoted sheet, one
cell) and a sheet's own name, used in formulas. Checked here:
- openpyxl reads the names back (workbook and sheet scoped, their
  references); ooxml-validate passes;
- quire's evaluator computes the formulas through the names (cached values
  4500, 2800, 1700, 1275, 1200), and LibreOffice, recalculating on open,
  gets the same value on every formula cell;
- quire read gives "names" back (the workbook's and the sheet's) and its
  spec renders the same workbook.xml again.
Errors (a name shadowing a cell reference, a bad target, an unknown sheet
with did-you-mean, duplicates) are fixtures/errors/sheet-names-*.

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
from shared import assert_ooxml_valid, unittest_exit  # noqa: E402
from sheets import QUIRE, SRC, render, same_on_every_path, scratch  # noqa: E402

TMP = scratch("names")
FIX = os.path.join(SRC, "fixtures", "names-sheet", "spec.json")
VALUES = {"B2": 4500, "B3": 2800, "B4": 1700, "B5": 1275, "B6": 1200}



def read(path):
    p = subprocess.run([QUIRE, "read", path], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


class Names(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(TMP, "names.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res

    def test_openpyxl_and_values(self):
        assert_ooxml_valid(self, self.out)
        wb = openpyxl.load_workbook(self.out)
        if hasattr(wb.defined_names, "definedName"):  # openpyxl 3.0: one list, scoped by localSheetId
            every = wb.defined_names.definedName
            names = {d.name: d.attr_text for d in every if d.localSheetId is None}
            local = {d.name: d.attr_text for d in every if d.localSheetId == 1}
        else:  # 3.1: the workbook's and each sheet's
            names = {n: d.attr_text for n, d in wb.defined_names.items()}
            local = {n: d.attr_text for n, d in wb["Summary"].defined_names.items()}
        self.assertEqual(names, {"Revenue": "'Data'!$B$2:$B$4", "Costs": "'Data'!$C$2:$C$4",
                                 "FirstMonth": "'Data'!$B$2"})
        self.assertEqual(local, {"TaxRate": "'Summary'!$B$1"})
        cached = openpyxl.load_workbook(self.out, data_only=True)["Summary"]
        for ref, v in VALUES.items():
            self.assertEqual(cached[ref].value, v, ref)

    def test_libreoffice_same_values(self):
        if not shutil.which("soffice"):
            self.skipTest("soffice is not installed")
        from office import soffice_convert
        outdir = os.path.join(TMP, "lo")
        os.makedirs(outdir, exist_ok=True)
        soffice_convert('xlsx:Calc MS Excel 2007 XML', [self.out], outdir, timeout=300)
        lo = openpyxl.load_workbook(os.path.join(outdir, "names.xlsx"), data_only=True)["Summary"]
        for ref, v in VALUES.items():
            self.assertEqual(lo[ref].value, v, ref)  # LibreOffice recalculated them on open
        spec = json.loads(read(os.path.join(outdir, "names.xlsx")))
        self.assertEqual(sorted(spec["names"]), ["Costs", "FirstMonth", "Revenue"])
        self.assertEqual(list(spec["sheets"][1]["names"]), ["TaxRate"])

    def test_quire_read(self):
        text = read(self.out)
        spec = json.loads(text)
        self.assertEqual(spec["names"], {"Revenue": "'Data'!$B$2:$B$4",
                                         "Costs": "'Data'!$C$2:$C$4",
                                         "FirstMonth": "'Data'!$B$2"})
        self.assertEqual(spec["sheets"][1]["names"], {"TaxRate": "'Summary'!$B$1"})
        path = os.path.join(TMP, "read.json")
        with open(path, "w") as f:
            f.write(text)
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(path, again)
        self.assertEqual(rc, 0, res)
        with zipfile.ZipFile(self.out) as a, zipfile.ZipFile(again) as b:
            self.assertEqual(a.read("xl/workbook.xml"), b.read("xl/workbook.xml"))

    def test_unknown_name_is_an_error(self):
        """A formula using a name (or table) no one defined: an error at its
        /formula with a did-you-mean, the same streamed and not, no file."""
        rows = ",".join('["m%d", %d]' % (i, i) for i in range(30000))
        text = ('{"names": {"Revenue": "Data!$B$2:$B$9"}, "sheets": [{"name": "Data", '
                '"rows": [%s, ["t", {"formula": "SUM(Revnue)", "value": 1}], '
                '["u", {"formula": "SUM(Revenue)+\\"Revnue\\"", "value": 1}]]}]}' % rows)
        rc, res, data = same_on_every_path(self, TMP, "unknown", text, modes=("0", "1"))[0]
        self.assertEqual(rc, 1, res)
        self.assertIsNone(data)
        self.assertEqual([(e["path"], e["hint"]) for e in res["errors"]],
                         [("/sheets/0/rows/30000/1/formula", 'did you mean "Revenue"?')])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
