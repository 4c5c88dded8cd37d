#!/usr/bin/python3
"""PDF line height fixed per paragraph (issue 18 item 2), over the fixture
pdf-mixed-scripts: in pdftotext -bbox of its mixed Latin / Arabic / Thai /
Devanagari paragraph, every baseline-to-baseline gap is the paragraph's
line height (1.25 x 11 pt = 13.75 pt) within 0.5 pt, whatever scripts each
line holds; the cells of each table row (Latin, Arabic, Thai, Devanagari)
start on one baseline (the text matrices of the TH/TD marked content in
qpdf --qdf's content stream)."""
import html
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

LINE = 11 * 1.25
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


class LineHeight(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()
        cls.pdf = os.path.join(cls.tmp, "mixed.pdf")
        fid.render(os.path.join(fid.FIXTURES, "pdf-mixed-scripts", "spec.json"), cls.pdf, "pdf")

    def test_paragraph_baselines(self):
        out = os.path.join(self.tmp, "bbox.html")
        subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", self.pdf, out], check=True)
        with open(out, encoding="utf-8") as f:
            words = [(float(a), float(b), float(c), float(d), html.unescape(w))
                     for a, b, c, d, w in WORD.findall(f.read())]
        # The first paragraph's Latin words: DejaVu Sans 11 pt boxes are
        # 12.79 pt tall (the title is 24 pt, the table 10 pt), so each one's
        # yMax is its baseline plus the same descent.
        latin = [w for w in words if re.fullmatch(r"[A-Za-z]{2,}", w[4]) and abs(w[3] - w[1] - 12.793) < 0.05]
        para_bottom = min(w[1] for w in words if w[4] == "Region")  # the table's header row
        latin = [w for w in latin if w[3] < para_bottom]
        base = []
        for y in sorted(w[3] for w in latin):
            if not base or y - base[-1] > 0.2:
                base.append(y)
        self.assertGreaterEqual(len(base), 4, base)
        gaps = [b - a for a, b in zip(base, base[1:])]
        for g in gaps:
            self.assertAlmostEqual(g, LINE, delta=0.5, msg="baseline gaps %r" % gaps)
        # and the lines do mix scripts: Arabic, Thai and Devanagari on most of them
        for rng, name in (((0x600, 0x6FF), "Arabic"), ((0xE00, 0xE7F), "Thai"), ((0x900, 0x97F), "Devanagari")):
            lines = {min(range(len(base)), key=lambda i: abs(base[i] - w[3] + 2))
                     for w in words if w[3] < para_bottom and w[1] > base[0] - 20 and
                     any(rng[0] <= ord(ch) <= rng[1] for ch in w[4])}
            self.assertGreaterEqual(len(lines), len(base) - 1, name)

    def test_table_rows_share_a_baseline(self):
        qdf = os.path.join(self.tmp, "mixed-qdf.pdf")
        subprocess.run(["qpdf", "--qdf", "--object-streams=disable", self.pdf, qdf], check=True)
        with open(qdf, "rb") as f:
            content = f.read().decode("latin-1")
        cells = []
        for m in re.finditer(r"/(TH|TD) << /MCID \d+ >> BDC\n(.*?)EMC\n(?=/T[HD] <<|[^/])", content, re.S):
            tm = re.search(r"[\d.-]+ 0 0 -[\d.]+ ([\d.-]+) ([\d.-]+) Tm", m.group(2))
            if tm:
                cells.append((m.group(1), float(tm.group(2))))
        self.assertEqual(len(cells), 12, cells)  # 3 rows of 4 cells, none empty
        for r in range(3):
            row = cells[4 * r:4 * r + 4]
            self.assertEqual(len({kind for kind, _ in row}), 1, row)
            ys = [y for _, y in row]
            self.assertLess(max(ys) - min(ys), 0.01, "row %d baselines %r" % (r, ys))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
