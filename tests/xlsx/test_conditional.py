#!/usr/bin/python3
"""test_conditional.py: conditional formats of a sheet (issue 33), end to end.

fixtures/cond-sheet holds every rule quire writes: cell comparisons (<, >,
= a text, between), a formula rule, a three-colour and a two-colour scale
and a data bar. Checked here:
- openpyxl reads each rule back (type, operator, formula, priority, the
  dxf's font and fill, the scale's and bar's colours); ooxml-validate passes;
- quire read gives the "conditional" list back exactly, and the spec it
  reads renders the same sheet and styles XML again;
- LibreOffice opens it and saves it, and quire read of its file gives the
  same rules (LibreOffice understood every one);
- quire's preview draws the computed result: the fills of the matching
  cells (bad red, good green, the between fill) and the data bar's colour
  appear, and vanish without the rules;
- a 25,000-row sheet with three rules and a filter gives the same bytes
  streamed and through the tree path, the rules before or after the rows.
Errors (paths, did-you-mean) are fixtures/errors/sheet-cond-*.

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

TMP = scratch("cond")
FIX = os.path.join(SRC, "fixtures", "cond-sheet", "spec.json")



def read_conditional(path):
    return read_spec(path)["sheets"][0].get("conditional")


def ppm_colors(pdf):
    """The set of (r, g, b) of page 1 of a PDF at 50 dpi (pdftoppm's PPM)."""
    base = os.path.join(TMP, "page")
    subprocess.run(["pdftoppm", "-r", "50", "-f", "1", "-l", "1", pdf, base], check=True)
    ppm = [f for f in os.listdir(TMP) if f.startswith("page") and f.endswith(".ppm")][0]
    with open(os.path.join(TMP, ppm), "rb") as f:
        data = f.read()
    os.remove(os.path.join(TMP, ppm))
    parts = data.split(b"\n", 3)  # P6, "w h", maxval, pixels
    px = parts[3]
    return {px[i:i + 3] for i in range(0, len(px), 3)}


def has_color(colors, hexrgb, tol=3):
    """Whether a pixel within tol of hexrgb (each channel) is among colors."""
    want = bytes.fromhex(hexrgb)
    return any(all(abs(a - b) <= tol for a, b in zip(c, want)) for c in colors)


class Conditional(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(FIX) as f:
            cls.spec = json.load(f)
        cls.out = os.path.join(TMP, "cond.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res

    def test_openpyxl(self):
        assert_ooxml_valid(self, self.out)
        ws = openpyxl.load_workbook(self.out)["Projects"]
        rules = []
        for cf in ws.conditional_formatting:
            for r in cf.rules:
                rules.append((str(cf.sqref), r))
        rules.sort(key=lambda x: x[1].priority)
        self.assertEqual([(s, r.type, r.operator) for s, r in rules], [
            ("D2:D7", "cellIs", "lessThan"), ("D2:D7", "cellIs", "greaterThan"),
            ("B2:B7", "cellIs", "equal"), ("C2:C7", "cellIs", "between"),
            ("E2:E7", "colorScale", None), ("F2:F7", "dataBar", None),
            ("C2:C7", "colorScale", None), ("A2:A7", "expression", None)])
        self.assertEqual([r.priority for _, r in rules], list(range(1, 9)))
        self.assertEqual(rules[0][1].formula, ["0"])
        self.assertEqual(rules[2][1].formula, ['"Late"'])
        self.assertEqual(rules[3][1].formula, ["50000", "150000"])
        self.assertEqual(rules[7][1].formula, ["$F2>=0.9"])
        bad = rules[0][1].dxf
        self.assertEqual(bad.fill.bgColor.rgb[-6:], "FFC7CE")
        self.assertEqual(bad.font.color.rgb[-6:], "9C0006")
        late = rules[2][1].dxf
        self.assertTrue(late.font.b)
        self.assertEqual(late.font.color.rgb[-6:], "C00000")
        self.assertTrue(rules[7][1].dxf.font.i)
        scale = rules[4][1].colorScale
        self.assertEqual([c.rgb[-6:] for c in scale.color], ["F8696B", "FFEB84", "63BE7B"])
        self.assertEqual([v.type for v in scale.cfvo], ["min", "percentile", "max"])
        self.assertEqual([c.rgb[-6:] for c in rules[6][1].colorScale.color], ["FFFFFF", "F8696B"])
        self.assertEqual(rules[5][1].dataBar.color.rgb[-6:], "5B9BD5")

    def test_quire_read(self):
        """quire read gives the rules back as the spec wrote them (the looks
        of named styles as their properties); its spec renders the same XML."""
        got = read_conditional(self.out)
        want = self.spec["sheets"][0]["conditional"]
        looks = {"bad": {"color": "#9C0006", "fill": "#FFC7CE"},
                 "good": {"color": "#006100", "fill": "#C6EFCE"},
                 "late": {"bold": True, "color": "#C00000"}}
        expect = []
        for r in want:
            r = dict(r)
            if "style" in r:
                r.update(looks[r.pop("style")])
            expect.append(r)
        self.assertEqual(got, expect)
        rd = subprocess.run([QUIRE, "read", self.out], capture_output=True, text=True)
        path = os.path.join(TMP, "read.json")
        with open(path, "w") as f:
            f.write(rd.stdout)
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(path, again)
        self.assertEqual(rc, 0, res)
        with zipfile.ZipFile(self.out) as a, zipfile.ZipFile(again) as b:
            for part in ("xl/worksheets/sheet1.xml", "xl/styles.xml"):
                ta, tb = a.read(part).decode(), b.read(part).decode()
                self.assertEqual(ta[ta.index("</sheetData>"):] if "sheet" in part else
                                 ta[ta.index("<dxfs"):],
                                 tb[tb.index("</sheetData>"):] if "sheet" in part else
                                 tb[tb.index("<dxfs"):], part)

    def test_libreoffice_keeps_them(self):
        if not shutil.which("soffice"):
            self.skipTest("soffice is not installed")
        sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
        from office import soffice_convert
        outdir = os.path.join(TMP, "lo")
        os.makedirs(outdir, exist_ok=True)
        soffice_convert('xlsx:Calc MS Excel 2007 XML', [self.out], outdir, timeout=300)
        self.assertEqual(read_conditional(os.path.join(outdir, "cond.xlsx")),
                         read_conditional(self.out))

    def test_preview_draws_results(self):
        if not shutil.which("pdftoppm"):
            self.skipTest("pdftoppm is not installed")
        pdf = os.path.join(TMP, "cond.pdf")
        rc, res = render(FIX, pdf)
        self.assertEqual(rc, 0, res)
        colors = ppm_colors(pdf)
        for hexrgb in ("FFC7CE", "C6EFCE", "FFF2CC", "5B9BD5", "63BE7B"):
            self.assertTrue(has_color(colors, hexrgb), hexrgb)
        plain = json.loads(json.dumps(self.spec))
        del plain["sheets"][0]["conditional"]
        path = os.path.join(TMP, "plain.json")
        with open(path, "w") as f:
            json.dump(plain, f)
        rc, res = render(path, pdf)
        self.assertEqual(rc, 0, res)
        colors = ppm_colors(pdf)
        for hexrgb in ("FFC7CE", "C6EFCE", "FFF2CC", "5B9BD5"):
            self.assertFalse(has_color(colors, hexrgb), hexrgb)

    def test_streamed_same_bytes(self):
        rows = ",".join('["item %d", %d, %d.5, %d]' % (i, i - 12500, i, i % 100)
                        for i in range(25000))
        cond = ('"conditional": [{"range": "B2:B25001", "rule": "cell", "op": "<", "value": 0, '
                '"style": "bad"}, {"range": "C2:C25001", "rule": "color_scale"}, '
                '{"range": "D2:D25001", "rule": "data_bar"}, {"range": "A2:A25001", '
                '"rule": "formula", "formula": "$D2>90", "bold": true}], "autofilter": true')
        for name, text in (
                ("before", '{"sheets": [{"columns": ["Item", "A", "B", "C"], %s, "rows": [%s]}]}'
                 % (cond, rows)),
                ("after", '{"sheets": [{"columns": ["Item", "A", "B", "C"], "rows": [%s], %s}]}'
                 % (rows, cond))):
            rc, res, _ = same_on_every_path(self, TMP, name, text)[0]
            self.assertEqual(rc, 0, res)
        ws = openpyxl.load_workbook(os.path.join(TMP, "after-1.xlsx"))["Sheet1"]
        self.assertEqual(len(ws.conditional_formatting), 4)

    def test_errors_both_paths(self):
        """A bad rule is the same error streamed and whole."""
        rows = ",".join('[%d]' % i for i in range(100))
        path = os.path.join(TMP, "bad.json")
        with open(path, "w") as f:
            f.write('{"sheets": [{"rows": [%s], "conditional": [{"range": "A1:A9", "rule": "cell", '
                    '"op": "=>", "value": 1, "style": "god"}]}]}' % rows)
        got = []
        for mode in ("0", "1"):
            out = os.path.join(TMP, "bad-%s.xlsx" % mode)
            rc, res = render(path, out, {"QUIRE_XLSX_STREAM": mode})
            self.assertEqual(rc, 1)
            self.assertFalse(os.path.exists(out))
            got.append(res["errors"])
        self.assertEqual(got[0], got[1])
        errs = {e["path"]: e for e in got[0]}
        self.assertIn('did you mean ">="', errs["/sheets/0/conditional/0/op"]["hint"])
        self.assertIn('did you mean "good"', errs["/sheets/0/conditional/0/style"]["hint"])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
