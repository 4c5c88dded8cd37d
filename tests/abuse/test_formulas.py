#!/usr/bin/python3
"""Abuse, formulas (issue 37 rows 3, 4, 18, 19): every input generated here.
Row 3: a 1.4 KB spec of chained CONCAT formulas renders to xlsx, PDF and PNG
within the CPU budget and 1.5 GiB of RSS (the strings stop at 32,767
characters: #VALUE! past them). Row 4: 10,000 SUM(A1:A1048576) over a
200,001-row sheet exits 4 naming max_work (the range costs its rows and
cells). Row 18: DDE, WEBSERVICE, a file: HYPERLINK and an external
reference exit 1 with the formula's pointer and a hint naming
allow_external; "SUM((", "1+" and ")))" do not pass check. Row 19: no cached
string passes 32,767 characters, and quire read reads the workbook back."""
import json
import os
import re
import sys
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import MEM_SLOW, Case  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

GiB = (1 << 30) * MEM_SLOW


def concat_chain(n=40):
    rows = [["0123456789"]] + [[{"formula": "CONCAT(A%d,A%d)" % (r, r)}] for r in range(1, n)]
    return {"sheets": [{"name": "S", "rows": rows}]}


class Formulas(Case):
    def test_concat_chain(self):  # rows 3 and 19
        p = self.spec("chain.json", concat_chain())
        self.assertLess(os.path.getsize(p), 1500)
        for out in ("chain.xlsx", "chain.pdf", "chain.png"):
            run = self.quire("render", "chain.json", "-o", out)
            self.assertEqual(run.code, 0, run.out + run.err)
            self.assertLess(run.rss, 1.5 * GiB, "%s: peak RSS %.0f MiB" % (out, run.rss / 2**20))
        with zipfile.ZipFile(self.path("chain.xlsx")) as z:
            sheet = z.read("xl/worksheets/sheet1.xml").decode()
        texts = re.findall(r"<is><t[^>]*>([^<]*)</t></is>|<v>([^<]*)</v>", sheet)
        longest = max(len(a or b) for a, b in texts)
        self.assertLessEqual(longest, 32767)
        self.assertIn("#VALUE!", sheet)
        run = self.quire("read", "chain.xlsx", "-o", "back.json")
        self.assertEqual(run.code, 0, run.out + run.err)

    def test_sum_of_whole_columns(self):  # row 4
        rows = [[1] + [{"formula": "SUM(A1:A1048576)"}] * 100] * 100 + [[]] * 200000 + [[5]]
        self.spec("sum.json", {"sheets": [{"name": "S", "rows": rows}]})
        run = self.quire("render", "sum.json", "-o", "sum.xlsx")
        self.assertEqual(run.code, 4, run.out)
        self.assertEqual(run.paths(), ["/sheets"])
        self.assertIn("limit max_work is 268435456 units", run.messages()[0])
        self.assertIn("--max-work", run.result["errors"][0]["hint"])
        self.assertLess(run.rss, 1.5 * GiB)
        self.assertFalse(os.path.exists(self.path("sum.xlsx")))
        # a budget that covers it computes it
        small = [[1] + [{"formula": "SUM(A1:A1048576)"}] * 10] * 10 + [[]] * 1000 + [[5]]
        self.spec("small.json", {"sheets": [{"name": "S", "rows": small}]})
        run = self.quire("render", "small.json", "-o", "small.xlsx", "--max-work", "2000000")
        self.assertEqual(run.code, 0, run.out)
        run = self.quire("render", "small.json", "-o", "small2.xlsx", "--max-work", "1000")
        self.assertEqual(run.code, 4, run.out)

    def test_policy(self):  # row 18
        cases = {"cmd|' /C calc'!A0": "DDE", 'WEBSERVICE("http://evil.example/x")': "WEBSERVICE",
                 'HYPERLINK("file:///etc/passwd","x")': "HYPERLINK", "[1]Sheet1!A1": "another workbook",
                 'FILTERXML(A1,"//a")': "FILTERXML"}
        for i, (f, word) in enumerate(cases.items()):
            self.spec("p.json", {"sheets": [{"rows": [[1, {"formula": f}]]}]})
            for cmd in (["check", "p.json"], ["render", "p.json", "-o", "p.xlsx"]):
                run = self.quire(*cmd)
                self.assertEqual(run.code, 1, run.out)
                self.assertEqual(run.paths(), ["/sheets/0/rows/0/1/formula"])
                self.assertIn(word, run.messages()[0])
                self.assertIn("allow_external", run.result["errors"][0]["hint"])
            self.spec("ok.json", {"allow_external": True, "sheets": [{"rows": [[1, {"formula": f}]]}]})
            run = self.quire("render", "ok.json", "-o", "ok%d.xlsx" % i)
            self.assertEqual(run.code, 0, run.out)
        for f in ("SUM((", "1+", ")))"):
            self.spec("s.json", {"sheets": [{"rows": [[{"formula": f}]]}]})
            run = self.quire("check", "s.json")
            self.assertEqual(run.code, 1, run.out)
            self.assertEqual(run.paths(), ["/sheets/0/rows/0/0/formula"])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
