#!/usr/bin/python3
"""test_validation.py: data validation of a sheet (issue 33), end to end.

fixtures/valid-sheet has a list, a number range, a whole-number lower bound
with blanks refused and a date range, with prompts and error messages.
Checked here:
- openpyxl reads each validation back (type, operator, formulas, the
  messages, allow_blank); ooxml-validate passes;
- quire read gives the "validation" list back as the spec wrote it, and the
  spec it reads renders the same sheet XML again;
- LibreOffice opens and saves it, and quire read of its file gives the same
  validations (LibreOffice understood every one);
- a 25,000-row sheet with validations gives the same bytes streamed and
  through the tree path, the validations before or after the rows; a bad
  one is the same error both ways.
Errors (paths, hints) are fixtures/errors/sheet-valid-*.

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
from sheets import QUIRE, SRC, read_spec, render, same_on_every_path, scratch  # noqa: E402

TMP = scratch("valid")
FIX = os.path.join(SRC, "fixtures", "valid-sheet", "spec.json")



def read_valid(path):
    return read_spec(path)["sheets"][0].get("validation")


class Validation(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(FIX) as f:
            cls.spec = json.load(f)
        cls.out = os.path.join(TMP, "valid.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res

    def test_openpyxl(self):
        assert_ooxml_valid(self, self.out)
        ws = openpyxl.load_workbook(self.out)["Tasks"]
        dvs = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
        self.assertEqual(sorted(dvs), ["B2:B100", "C2:C100", "D2:D100", "E2:E100"])
        lst = dvs["B2:B100"]
        self.assertEqual((lst.type, lst.formula1), ("list", '"Open,Doing,Done"'))
        self.assertEqual(lst.prompt, "Pick a status")
        self.assertEqual(lst.error, "A status is Open, Doing or Done")
        self.assertTrue(lst.allow_blank)
        num = dvs["C2:C100"]
        self.assertEqual((num.type, num.operator, num.formula1, num.formula2),
                         ("decimal", "between", "0", "1"))
        whole = dvs["D2:D100"]
        self.assertEqual((whole.type, whole.operator, whole.formula1),
                         ("whole", "greaterThanOrEqual", "0"))
        self.assertFalse(whole.allow_blank)
        date = dvs["E2:E100"]
        self.assertEqual((date.type, date.formula1, date.formula2), ("date", "46023", "46387"))
        self.assertEqual(date.prompt, 'A date in 2026 ("FY26") & no later')

    def test_quire_read(self):
        got = read_valid(self.out)
        self.assertEqual(got, self.spec["sheets"][0]["validation"])
        rd = subprocess.run([QUIRE, "read", self.out], capture_output=True, text=True)
        path = os.path.join(TMP, "read.json")
        with open(path, "w") as f:
            f.write(rd.stdout)
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(path, again)
        self.assertEqual(rc, 0, res)
        with zipfile.ZipFile(self.out) as a, zipfile.ZipFile(again) as b:
            ta = a.read("xl/worksheets/sheet1.xml").decode()
            tb = b.read("xl/worksheets/sheet1.xml").decode()
            self.assertEqual(ta[ta.index("<dataValidations"):], tb[tb.index("<dataValidations"):])

    def test_libreoffice_keeps_them(self):
        if not shutil.which("soffice"):
            self.skipTest("soffice is not installed")
        from office import soffice_convert
        outdir = os.path.join(TMP, "lo")
        os.makedirs(outdir, exist_ok=True)
        soffice_convert('xlsx:Calc MS Excel 2007 XML', [self.out], outdir, timeout=300)
        self.assertEqual(read_valid(os.path.join(outdir, "valid.xlsx")), read_valid(self.out))

    def test_streamed_same_bytes(self):
        rows = ",".join('["t%d", "Open", 0.5, %d]' % (i, i) for i in range(25000))
        valid = ('"validation": [{"range": "B2:B25001", "list": ["Open", "Done"], "error": "no"}, '
                 '{"range": "C2:C25001", "number": {"min": 0, "max": 1}}]')
        for name, text in (
                ("before", '{"sheets": [{"columns": ["T", "S", "F", "N"], %s, "rows": [%s]}]}'
                 % (valid, rows)),
                ("after", '{"sheets": [{"columns": ["T", "S", "F", "N"], "rows": [%s], %s}]}'
                 % (rows, valid))):
            rc, res, _ = same_on_every_path(self, TMP, name, text)[0]
            self.assertEqual(rc, 0, res)

    def test_errors_both_paths(self):
        rows = ",".join('[%d]' % i for i in range(100))
        text = ('{"sheets": [{"rows": [%s], "validation": [{"range": "A1:A9", "list": ["a,b"]},'
                ' {"range": "A2", "number": {"mni": 1}}]}]}' % rows)
        rc, res, data = same_on_every_path(self, TMP, "bad", text, modes=("0", "1"))[0]
        self.assertEqual(rc, 1)
        self.assertIsNone(data)
        paths = [e["path"] for e in res["errors"]]
        self.assertIn("/sheets/0/validation/0/list/0", paths)
        self.assertIn("/sheets/0/validation/1/number/mni", paths)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
