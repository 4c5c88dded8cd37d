#!/usr/bin/python3
"""A financial model as an agent is asked for it (issue 33's acceptance:
fixtures/sheets-finance-model: Inputs with validation and comments,
Calculations through defined names and other sheets, Outputs with a merged
title, a total row, red negatives, colour scales and a filter; every sheet
with a print setup) looks and computes the same in LibreOffice as in quire.

- Values: LibreOffice recalculates quire's .xlsx (a copy without the cached
  values, so nothing is taken from quire) and every formula cell's value
  equals quire's cached one (numbers within 1e-9 relative, texts exactly).
- Pages: the print setup (landscape, one page wide, a print area, a footer
  with the sheet and page fields) makes as many pages in both, of one
  size, with the same footer words.
- Texts: LibreOffice's PDF of the .xlsx (recalculating on load) and quire's
  PDF preview show the same words per sheet, row by row (a sheet's row is its
  line on each of the sheet's pages, put together: where the two cut the
  columns over pages does not matter).
- Numbers end where LibreOffice's end (within 4 pt), and an accounting
  format's $ starts where LibreOffice's does (its fill sets it at the
  cell's left).
- Fills: under every word, the cell's ground (the commonest colour in the
  word's box, at 144 dpi) is the same colour in both, within 24 per channel
  (the colour scales' shades included).
- Borders: a dark rule across a word, just above or below it (the total row's top and
  double bottom, the title's bottom) is in both or in neither.
- Merged areas: the merged title's fill runs, in both, from the left of the
  first column's text to the right of the last one's (the row below), and
  is as wide in both within 3 pt.

Two soffice runs (PDF, re-saved .xlsx) of about 5 s each."""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from office import soffice_convert  # noqa: E402
from sheets import QUIRE, fixture, scratch  # noqa: E402
from shared import require_tool, unittest_exit  # noqa: E402

CASE = "sheets-finance-model"
DPI = 144
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
# LibreOffice recalculates every .xlsx on load (Tools > Options > Calc >
# Formula: "Recalculation on file load", Excel 2007 and newer: always).
RECALC_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
"""


def render(out, kind):
    p = subprocess.run([QUIRE, "render", fixture(CASE), "-o", out, "-k", kind], capture_output=True,
                       text=True, timeout=120, env=ENV)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout.splitlines()[0])


def strip_cached(src, dst):
    """A copy of the .xlsx whose formula cells hold no cached value and whose
    workbook asks for a full calculation on load."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if re.match(r"xl/worksheets/sheet\d+\.xml$", info.filename):
                text = data.decode("utf-8")
                text = re.sub(r'(<c [^>]*?) t="(?:str|e|b|n)"([^>]*><f)', r"\1\2", text)
                text = re.sub(r"(<f>[^<]*</f>|<f [^>]*/>|<f [^>]*>[^<]*</f>)<v>[^<]*</v>", r"\1", text)
                data = text.encode("utf-8")
            elif info.filename == "xl/workbook.xml":
                text = data.decode("utf-8")
                if "<calcPr" in text:
                    text = re.sub(r"<calcPr([^>]*?)/>", r'<calcPr\1 fullCalcOnLoad="1"/>', text)
                    text = text.replace('fullCalcOnLoad="1" fullCalcOnLoad="1"', 'fullCalcOnLoad="1"')
                else:
                    text = text.replace("</workbook>", '<calcPr fullCalcOnLoad="1"/></workbook>')
                data = text.encode("utf-8")
            zout.writestr(info, data)


def words_by_page(pdf):
    """pdftotext -bbox: per page (width, height, [(x0, y0, x1, y1, word)]) in points."""
    html = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True,
                          timeout=60).stdout
    pages = []
    for m in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html, re.S):
        ws = []
        for w in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">'
                             r'(.*?)</word>', m.group(3)):
            t = w.group(5).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
            t = t.replace("&quot;", '"').replace("&apos;", "'")
            ws.append((float(w.group(1)), float(w.group(2)), float(w.group(3)), float(w.group(4)), t))
        pages.append((float(m.group(1)), float(m.group(2)), ws))
    return pages


def furniture(w, h):
    """A word of the page's header or footer: its middle in the top or bottom
    margin (Excel's 0.75 in; the cells print between them)."""
    c = (w[1] + w[3]) / 2
    return c < 54 or c > h - 54


def lines(ws):
    """Words grouped into lines (vertical centres within 3 pt), top to
    bottom, each left to right."""
    out = []
    for w in sorted(ws, key=lambda w: ((w[1] + w[3]) / 2, w[0])):
        c = (w[1] + w[3]) / 2
        if out and abs(out[-1][0] - c) < 3:
            out[-1][1].append(w)
        else:
            out.append([c, [w]])
    return [sorted(l[1], key=lambda w: w[0]) for l in out]


def raster(pdf, stem):
    """Every page at DPI: a list of PIL images."""
    from PIL import Image
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", pdf, stem], check=True, timeout=120)
    d = os.path.dirname(stem)
    files = sorted((f for f in os.listdir(d) if f.startswith(os.path.basename(stem) + "-")),
                   key=lambda f: int(re.search(r"-(\d+)\.png$", f).group(1)))
    return [Image.open(os.path.join(d, f)).convert("RGB") for f in files]


def px_box(w):
    k = DPI / 72.0
    return int(w[0] * k), int(w[1] * k), int(w[2] * k) + 1, int(w[3] * k) + 1


def ground(img, w):
    """The commonest colour in the word's box: its cell's fill."""
    x0, y0, x1, y1 = px_box(w)
    counts = img.crop((x0, y0, x1, y1)).getcolors(1 << 20)
    return max(counts)[1]


def dark(p):
    return p[0] + p[1] + p[2] < 3 * 110


def rules(img, w, prev_c, next_c):
    """(a dark rule above the word, one below): a pixel row dark over 95 % of
    the word's width between its line's text and the neighbouring line's
    (its text taken as 4 pt either side of the line's centre; with no
    neighbour, up to 9 pt away)."""
    x0, _, x1, _ = px_box(w)
    c = (w[1] + w[3]) / 2
    px = img.load()
    k = DPI / 72.0

    def has(top, bottom):
        for y in range(int(top * k), int(bottom * k) + 1):
            if 0 <= y < img.height and sum(1 for x in range(x0, x1) if dark(px[x, y])) >= 0.95 * (x1 - x0):
                return True
        return False
    up = (prev_c if prev_c is not None else c - 13) + 4
    down = (next_c if next_c is not None else c + 13) - 4
    return has(up, c - 4), has(c + 4, down)


def fill_run(img, w, page_words, fill):
    """The horizontal extent (pixels) of FILL through the word's vertical
    centre, stepping over the line's word boxes."""
    k = DPI / 72.0
    y = int((w[1] + w[3]) / 2 * k)
    boxes = [px_box(v) for v in page_words if v[1] <= w[3] and v[3] >= w[1]]
    px = img.load()

    def ok(x):
        p = px[x, y]
        if max(abs(p[i] - fill[i]) for i in range(3)) <= 24:
            return True
        return any(b[0] <= x < b[2] for b in boxes)
    x = int(w[0] * k)
    left = x
    while left > 0 and ok(left - 1):
        left -= 1
    right = int(w[2] * k)
    while right < img.width - 1 and ok(right + 1):
        right += 1
    return left, right


class FinanceModel(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        require_tool(cls, "soffice")
        require_tool(cls, "pdftotext")
        require_tool(cls, "pdftoppm")
        cls.tmp = scratch("finance-model")
        with open(fixture(CASE)) as f:
            cls.spec = json.load(f)
        cls.xlsx = os.path.join(cls.tmp, "model.xlsx")
        cls.qpdf = os.path.join(cls.tmp, "quire.pdf")
        render(cls.xlsx, "spreadsheet")
        render(cls.qpdf, "pdf")
        recalc = os.path.join(cls.tmp, "recalc.xlsx")
        strip_cached(cls.xlsx, recalc)
        prof = os.path.join(cls.tmp, "profile")
        os.makedirs(os.path.join(prof, "user"))
        with open(os.path.join(prof, "user", "registrymodifications.xcu"), "w") as f:
            f.write(RECALC_XCU)
        cls.lo = os.path.join(cls.tmp, "lo")
        os.makedirs(cls.lo)
        soffice_convert("pdf", [cls.xlsx], cls.lo, timeout=300, profile=prof)
        soffice_convert("xlsx:Calc MS Excel 2007 XML", [recalc], cls.lo, timeout=300, profile=prof)
        cls.lpdf = os.path.join(cls.lo, "model.pdf")
        cls.lxlsx = os.path.join(cls.lo, "recalc.xlsx")
        cls.qpages = words_by_page(cls.qpdf)
        cls.lpages = words_by_page(cls.lpdf)
        cls.qimg = raster(cls.qpdf, os.path.join(cls.tmp, "q"))
        cls.limg = raster(cls.lpdf, os.path.join(cls.lo, "l"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    # -- values --------------------------------------------------------------

    def test_recalculated_values_equal_cached(self):
        import openpyxl
        formulas = openpyxl.load_workbook(self.xlsx)
        cached = openpyxl.load_workbook(self.xlsx, data_only=True)
        lo = openpyxl.load_workbook(self.lxlsx, data_only=True)
        n = 0
        for ws in formulas.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if not (isinstance(c.value, str) and c.value.startswith("=")):
                        continue
                    q = cached[ws.title][c.coordinate].value
                    v = lo[ws.title][c.coordinate].value
                    where = "%s!%s %s" % (ws.title, c.coordinate, c.value)
                    self.assertIsNotNone(q, where + ": quire cached no value")
                    self.assertIsNotNone(v, where + ": LibreOffice computed no value")
                    if isinstance(q, (int, float)) and not isinstance(q, bool):
                        self.assertIsInstance(v, (int, float), where)
                        self.assertLessEqual(abs(q - v), 1e-9 * max(1.0, abs(q), abs(v)),
                                             "%s: quire %r, LibreOffice %r" % (where, q, v))
                    else:
                        self.assertEqual(q, v, where)
                    n += 1
        self.assertGreater(n, 100, "formula cells compared")

    # -- the two PDFs --------------------------------------------------------

    def sheet_rows(self, pages, names):
        """Per sheet, its rows of words: line i of each of the sheet's pages,
        put together. The page's furniture (header and footer: words in the
        top and bottom margins) is left out; a page belongs to the sheet its
        furniture names (quire's always does), else, in order, to the sheet
        most of whose words it shows."""
        quire = pages is self.qpages
        out = {n: [] for n in names}
        owner = []
        qwords = {n: set() for n in names}
        if not quire:
            for (_, h, ws), n in zip(self.qpages, self.qowner):
                qwords[n].update(w[4] for w in ws if not furniture(w, h))
        i = 0
        for _, h, ws in pages:
            furn = {w[4].strip(":,.") for w in ws if furniture(w, h)}
            named = [n for n in names if n in furn]
            if named:
                best = named[0]
            else:
                self.assertFalse(quire, "a page of quire's preview names no sheet in its footer")
                words = [w[4] for w in ws]
                score = {n: sum(1 for t in words if t in qwords[n]) for n in names[i:]}
                best = max(names[i:], key=lambda n: (score[n], -names.index(n)))
            i = names.index(best)
            owner.append(best)
        for (_, h, ws), n in zip(pages, owner):
            body = [w for w in ws if not furniture(w, h)]
            for j, line in enumerate(lines(body)):
                if j == len(out[n]):
                    out[n].append([])
                out[n][j].append(line)
        if quire:
            self.qowner = owner
        return out, owner

    def matched(self):
        names = [s["name"] for s in self.spec["sheets"]]
        q, qo = self.sheet_rows(self.qpages, names)
        l, lo = self.sheet_rows(self.lpages, names)
        return names, q, qo, l, lo

    def test_same_pages(self):
        """The print setup honoured alike: as many pages, each of the same
        size (landscape Letter), with the same header and footer words."""
        self.assertEqual(len(self.qpages), len(self.lpages), "pages: quire, LibreOffice")
        for i, (q, l) in enumerate(zip(self.qpages, self.lpages)):
            self.assertLess(abs(q[0] - l[0]) + abs(q[1] - l[1]), 2, "page %d's size" % (i + 1))
            self.assertEqual([w[4] for w in q[2] if furniture(w, q[1])],
                             [w[4] for w in l[2] if furniture(w, l[1])], "page %d's header and footer" % (i + 1))
        self.assertGreater(self.qpages[0][0], self.qpages[0][1], "landscape")

    def test_same_words_per_row(self):
        names, q, _, l, _ = self.matched()
        for n in names:
            qt = [[w[4] for part in row for w in part] for row in q[n]]
            lt = [[w[4] for part in row for w in part] for row in l[n]]
            self.assertEqual(qt, lt, "sheet %s: quire's rows, then LibreOffice's" % n)
        self.assertIn("1,012,204", str(qt + lt))
        self.assertIn("1.9x", str(qt + lt))

    def test_numbers_anchored_alike(self):
        """A number ends where LibreOffice's ends (both right-aligned in the
        same columns, within 4 pt); an accounting format's $ starts where
        LibreOffice's starts (the fill sets it at the cell's left)."""
        import openpyxl
        num = re.compile(r"^[($-]*[0-9][0-9,.]*[%x)]*$")
        in_text = set()  # the words of texts ("BASE: -3.3% margin" starts where its cell does)
        for ws in openpyxl.load_workbook(self.xlsx, data_only=True).worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if isinstance(c.value, str) and " " in c.value.strip():
                        in_text.update(c.value.split())
        seen = dollars = 0
        for n, r, p, qw, qi, lw, li in self.pairs():
            if qw[4] in in_text:
                continue
            if qw[4] == "$":
                self.assertLess(abs(qw[0] - lw[0]), 4, "%s row %d: the $ at x %.1f (quire), %.1f (LibreOffice)"
                                % (n, r + 1, qw[0], lw[0]))
                dollars += 1
            elif num.match(qw[4]):
                self.assertLess(abs(qw[2] - lw[2]), 4, "%s row %d %r ends at x %.1f (quire), %.1f (LibreOffice)"
                                % (n, r + 1, qw[4], qw[2], lw[2]))
                seen += 1
        self.assertGreater(seen, 100)
        self.assertGreater(dollars, 5)

    def pairs(self):
        """(sheet, quire word, its page image, LibreOffice word, its image)
        over the words of every row, matched in order, with the neighbour
        lines' limits for the rule search."""
        names, q, qo, l, lo = self.matched()
        qimg = {}
        limg = {}
        for idx, n in enumerate(qo):
            qimg.setdefault(n, []).append(self.qimg[idx])
        for idx, n in enumerate(lo):
            limg.setdefault(n, []).append(self.limg[idx])
        out = []
        for n in names:
            for r, (qrow, lrow) in enumerate(zip(q[n], l[n])):
                for p, (qpart, lpart) in enumerate(zip(qrow, lrow)):
                    for qw, lw in zip(qpart, lpart):
                        out.append((n, r, p, qw, qimg[n][p], lw, limg[n][p]))
        return out

    def test_same_fills(self):
        checked = filled = 0
        for n, r, p, qw, qi, lw, li in self.pairs():
            a, b = ground(qi, qw), ground(li, lw)
            self.assertLessEqual(max(abs(a[i] - b[i]) for i in range(3)), 24,
                                 "%s row %d %r: quire's ground %s, LibreOffice's %s" % (n, r + 1, qw[4], a, b))
            checked += 1
            filled += a != (255, 255, 255)
        self.assertGreater(filled, 30, "filled cells compared")

    def test_same_rules(self):
        seen = 0
        by = {}
        for n, r, p, qw, qi, lw, li in self.pairs():
            by.setdefault((n, p), []).append((r, qw, qi, lw, li))
        for (n, p), items in by.items():
            qc = {r: (qw[1] + qw[3]) / 2 for r, qw, _, _, _ in items}
            lc = {r: (lw[1] + lw[3]) / 2 for r, _, _, lw, _ in items}
            for r, qw, qi, lw, li in items:
                a = rules(qi, qw, qc.get(r - 1), qc.get(r + 1))
                b = rules(li, lw, lc.get(r - 1), lc.get(r + 1))
                self.assertEqual(a, b, "%s row %d %r: rules above/below in quire %s, in LibreOffice %s"
                                 % (n, r + 1, qw[4], a, b))
                seen += a[0] + a[1]
        self.assertGreater(seen, 10, "ruled words compared")

    def test_merged_title_spans_its_columns(self):
        sheet = next(s for s in self.spec["sheets"] if s.get("merge"))
        title = sheet["rows"][0][0]["value"].split()[0]
        widths = []
        for pages, imgs in ((self.qpages, self.qimg), (self.lpages, self.limg)):
            for (_, h, ws), img in zip(pages, imgs):
                ls = lines([w for w in ws if not furniture(w, h)])
                hit = [i for i, line in enumerate(ls) if line[0][4] == title]
                if not hit:
                    continue
                line, below = ls[hit[0]], ls[hit[0] + 1]
                fill = ground(img, line[0])
                left, right = fill_run(img, line[0], ws, fill)
                k = DPI / 72.0
                self.assertLessEqual(left, below[0][0] * k, "the title's fill starts left of column A's text")
                self.assertGreaterEqual(right, below[-1][2] * k - 1, "the title's fill reaches the last column")
                widths.append((right - left) / k)
                break
        self.assertEqual(len(widths), 2, "the title found in both PDFs")
        self.assertLess(abs(widths[0] - widths[1]), 3.0, "merged title width, quire vs LibreOffice: %s" % widths)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False).result))
