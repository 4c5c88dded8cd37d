#!/usr/bin/python3
"""Charts (issue 21), end to end, over every fixtures/chart-*/spec.json:

- every .docx/.pptx/.xlsx passes ../shared/tools/ooxml-validate (dml-chart.xsd
  included) and opens in LibreOffice (office-smoke), whose PDF shows each
  chart's title and category labels (pdftotext);
- readback: python-docx finds the chart part, its cached values and labels
  equal the spec's, and the embedded workbook (openpyxl) holds the same
  numbers; the same for pptx (zip + lxml); openpyxl reads a sheet's charts
  with series referring to the sheet's cells;
- quire's own PDF shows titles and category labels; PNG goldens per fixture
  (fixtures/<case>/expected/png/page1.png, compared pixel by pixel with a
  small tolerance; QUIRE_UPDATE_GOLDEN=1 rewrites them);
- html: the page parses with html5lib in strict mode, each chart is an
  <svg role="img"> with its alt text, and the hidden table holds every value;
- charts take part in store edits (ops on /blocks/N/series/0/values/2).
"""
import glob
import io
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zipfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import require, unittest_exit  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
UPDATE = os.environ.get("QUIRE_UPDATE_GOLDEN") == "1"
C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
R_CHART = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart"
R_PACKAGE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/package"
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")


def fixtures():
    out = []
    for d in sorted(glob.glob(os.path.join(SRC, "fixtures", "chart-*"))):
        with open(os.path.join(d, "spec.json"), encoding="utf-8") as f:
            spec = json.load(f)
        kind = "presentation" if "slides" in spec else "spreadsheet" if "sheets" in spec else "document"
        out.append((os.path.basename(d), d, spec, kind))
    return out


def charts_of(spec):
    """The chart objects of a spec in document order."""
    if "blocks" in spec:
        return [b for b in spec["blocks"] if b.get("type") == "chart"]
    if "slides" in spec:
        return [s["chart"] for s in spec["slides"] if "chart" in s]
    return [c for sh in spec["sheets"] for c in sh.get("charts", [])]


def render(spec_path, out, kind, *extra):
    p = subprocess.run([QUIRE, "render", spec_path, "-o", out, "-k", kind, *extra],
                       capture_output=True, text=True, env=ENV, timeout=120)
    if p.returncode != 0:
        raise AssertionError("render %s -> %s: %s %s" % (spec_path, out, p.stdout, p.stderr))


def fold(s):
    return re.sub(r"\s+", "", s)


BAD_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")


def clean(s):
    """s as the backends write it: forbidden characters become U+FFFD."""
    return BAD_CHARS.sub("\ufffd", s)


def plain(s):
    """Whether s survives every backend unchanged (text checks skip the rest)."""
    return not BAD_CHARS.search(s)


def pdftext(path):
    return subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True).stdout


def cached(ser, tag):
    """(formula, [values]) of a c:ser's c:val/c:cat/c:xVal/c:yVal."""
    el = ser.find(C + tag)
    f = el.find(".//" + C + "f")
    pts = sorted(el.iter(C + "pt"), key=lambda p: int(p.get("idx")))
    return (f.text if f is not None else None), [p.find(C + "v").text for p in pts]


def series_values(s, chart):
    return s["y"] if chart["chart"] == "scatter" else s["values"]


# ---- PNG decoding (no PIL here): 8-bit RGB/RGBA, non-interlaced ----------------------

def png_pixels(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "unsupported PNG"
            bpp = 3 if ctype == 2 else 4
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif f == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def png_diff(a, b):
    """The share of pixels that differ by more than 48 in some channel."""
    wa, ha, ba, ra = png_pixels(a)
    wb, hb, bb, rb = png_pixels(b)
    if (wa, ha) != (wb, hb):
        return 1.0
    bad = 0
    for y in range(ha):
        la, lb = ra[y], rb[y]
        if la == lb:
            continue
        for x in range(wa):
            pa, pb = la[x * ba:x * ba + 3], lb[x * bb:x * bb + 3]
            if any(abs(pa[i] - pb[i]) > 48 for i in range(3)):
                bad += 1
    return bad / float(wa * ha)


class Charts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="quire-charts-")
        cls.outs = {}  # (case, fmt) -> path
        for case, d, spec, kind in fixtures():
            fmts = {"document": ["docx", "pdf", "html"], "presentation": ["pptx"],
                    "spreadsheet": ["xlsx"]}[kind]
            for fmt in fmts:
                out = os.path.join(cls.tmp, "%s.%s" % (case, fmt))
                k = {"docx": "document", "pdf": "pdf", "html": "html"}.get(fmt, kind)
                render(os.path.join(d, "spec.json"), out, k)
                cls.outs[(case, fmt)] = out

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def ooxml_files(self):
        return [p for (c, f), p in sorted(self.outs.items()) if f in ("docx", "pptx", "xlsx")]

    def test_fixtures_cover_the_issue(self):
        specs = [s for _, _, s, _ in fixtures()]
        charts = [c for s in specs for c in charts_of(s)]
        kinds = {c["chart"] for c in charts}
        self.assertEqual(kinds, {"bar", "column", "line", "area", "pie", "doughnut", "scatter"})
        self.assertTrue(any(c.get("stacked") for c in charts))
        self.assertTrue(any(c.get("percent") for c in charts))
        self.assertTrue(any(len(c["series"]) > 1 for c in charts))
        self.assertTrue(any(min(series_values(s, c)) < 0 for c in charts for s in c["series"]
                            if not isinstance(series_values(s, c), str)))
        self.assertTrue(any(len(c.get("categories", [0, 0])) == 1 for c in charts))
        self.assertTrue(any(isinstance(s.get("values"), str) for c in charts for s in c["series"]))
        text = json.dumps(specs, ensure_ascii=False)
        self.assertTrue(re.search("[\u0600-\u06ff]", text) and re.search("[\u4e00-\u9fff]", text))

    def test_ooxml_validate(self):
        tool = require(self, "tools/ooxml-validate")
        p = subprocess.run([tool] + self.ooxml_files(), capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

    def test_office_smoke_shows_titles_and_categories(self):
        tool = require(self, "tools/office-smoke")
        keep = os.path.join(self.tmp, "lo")
        os.makedirs(keep, exist_ok=True)
        files = self.ooxml_files()
        p = subprocess.run([tool, "--keep", keep] + files, capture_output=True, text=True,
                           timeout=600)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for case, d, spec, kind in fixtures():
            fmt = {"document": "docx", "presentation": "pptx", "spreadsheet": "xlsx"}[kind]
            text = fold(pdftext(os.path.join(keep, "%s.%s.pdf" % (case, fmt))))
            for ch in charts_of(spec):
                if "title" in ch:
                    self.assertIn(fold(ch["title"]), text, "%s: title %r" % (case, ch["title"]))
                cats = ch.get("categories", [])
                if isinstance(cats, list):
                    for cat in filter(plain, cats):
                        self.assertIn(fold(cat), text, "%s: category %r" % (case, cat))

    def check_chart_xml(self, case, xml, ch, embedded):
        from lxml import etree
        root = etree.fromstring(xml)
        sers = root.findall(".//" + C + "ser")
        self.assertEqual(len(sers), len(ch["series"]), case)
        title = root.find(C + "chart/" + C + "title")
        if "title" in ch:
            self.assertEqual("".join(title.itertext()), ch["title"])
        for i, (ser, s) in enumerate(zip(sers, ch["series"])):
            tag = "yVal" if ch["chart"] == "scatter" else "val"
            f, vals = cached(ser, tag)
            want = series_values(s, ch)
            if isinstance(want, list):
                self.assertEqual([float(v) for v in vals], [float(v) for v in want], case)
            if embedded:
                self.assertTrue(f.startswith("Sheet1!$"), f)
            if ch["chart"] == "scatter":
                _, xs = cached(ser, "xVal")
                self.assertEqual([float(v) for v in xs], [float(v) for v in s["x"]])
            elif isinstance(ch.get("categories"), list):
                _, cats = cached(ser, "cat")
                self.assertEqual(cats, [clean(c) for c in ch["categories"]])
        return sers

    def check_workbook(self, data, ch):
        import openpyxl
        wb = openpyxl.load_workbook(io.BytesIO(data))
        ws = wb["Sheet1"]
        for i, s in enumerate(ch["series"]):
            if ch["chart"] == "scatter":
                xs = [ws.cell(row=r + 2, column=2 * i + 1).value for r in range(len(s["x"]))]
                ys = [ws.cell(row=r + 2, column=2 * i + 2).value for r in range(len(s["y"]))]
                self.assertEqual(xs, s["x"])
                self.assertEqual(ys, s["y"])
                self.assertEqual(ws.cell(row=1, column=2 * i + 2).value, s.get("name", "Series %d" % (i + 1)))
            else:
                vals = [ws.cell(row=r + 2, column=i + 2).value for r in range(len(s["values"]))]
                self.assertEqual(vals, s["values"])
                self.assertEqual(ws.cell(row=1, column=i + 2).value, s.get("name", "Series %d" % (i + 1)))
        if isinstance(ch.get("categories"), list):
            cats = [ws.cell(row=r + 2, column=1).value for r in range(len(ch["categories"]))]
            self.assertEqual(cats, [clean(c) for c in ch["categories"]])

    def test_docx_readback(self):
        import docx
        n = 0
        for case, d, spec, kind in fixtures():
            if kind != "document":
                continue
            doc = docx.Document(self.outs[(case, "docx")])
            parts = [r.target_part for r in doc.part.rels.values() if r.reltype == R_CHART]
            parts.sort(key=lambda p: int(re.search(r"(\d+)\.xml$", str(p.partname)).group(1)))
            charts = charts_of(spec)
            self.assertEqual(len(parts), len(charts), case)
            for part, ch in zip(parts, charts):
                self.check_chart_xml(case, part.blob, ch, True)
                emb = [r.target_part for r in part.rels.values() if r.reltype == R_PACKAGE]
                self.assertEqual(len(emb), 1)
                self.check_workbook(emb[0].blob, ch)
                n += 1
        self.assertGreaterEqual(n, 12)

    def test_pptx_readback(self):
        for case, d, spec, kind in fixtures():
            if kind != "presentation":
                continue
            z = zipfile.ZipFile(self.outs[(case, "pptx")])
            charts = charts_of(spec)
            for i, ch in enumerate(charts):
                xml = z.read("ppt/charts/chart%d.xml" % (i + 1))
                self.check_chart_xml(case, xml, ch, True)
                rels = z.read("ppt/charts/_rels/chart%d.xml.rels" % (i + 1)).decode()
                self.assertIn(R_PACKAGE, rels)
                self.check_workbook(z.read("ppt/embeddings/Microsoft_Excel_Worksheet%d.xlsx" % (i + 1)), ch)
            slides = [n for n in z.namelist() if re.match(r"ppt/slides/_rels/slide\d+\.xml\.rels$", n)]
            self.assertEqual(sum(z.read(n).decode().count(R_CHART + '"') for n in slides), len(charts))

    def test_xlsx_sheet_charts(self):
        import openpyxl
        for case, d, spec, kind in fixtures():
            if kind != "spreadsheet":
                continue
            path = self.outs[(case, "xlsx")]
            wb = openpyxl.load_workbook(path)
            z = zipfile.ZipFile(path)
            k = 0
            for sh in spec["sheets"]:
                ws = wb[sh["name"]]
                self.assertEqual(len(ws._charts), len(sh.get("charts", [])))
                for ch in sh.get("charts", []):
                    k += 1
                    sers = self.check_chart_xml(case, z.read("xl/charts/chart%d.xml" % k), ch, False)
                    for ser, s in zip(sers, ch["series"]):
                        f, vals = cached(ser, "val")
                        if isinstance(s["values"], str):
                            # the formula names the sheet's own cells, which hold the cached numbers
                            m = re.match(r"'?([^'!]+)'?!\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)$", f)
                            self.assertIsNotNone(m, f)
                            cells = wb[m.group(1)]["%s%s:%s%s" % m.groups()[1:]]
                            nums = [c.value for row in cells for c in row]
                            self.assertEqual([float(v) for v in vals], [float(v) for v in nums])
                        else:
                            self.assertIsNone(f)  # literal values
                            self.assertEqual([float(v) for v in vals], [float(v) for v in s["values"]])
                if sh.get("charts"):
                    self.assertIn("<drawing r:id=", z.read("xl/worksheets/sheet%d.xml" % (spec["sheets"].index(sh) + 1)).decode())

    def test_pdf_text(self):
        for case, d, spec, kind in fixtures():
            if kind != "document":
                continue
            text = fold(pdftext(self.outs[(case, "pdf")]))
            for ch in charts_of(spec):
                want = [ch.get("title"), ch.get("x_title"), ch.get("y_title")] + ch.get("categories", [])
                if ch["chart"] not in ("pie", "doughnut") and ch.get("legend") != "none":
                    want += [s.get("name") for s in ch["series"]]  # the legend
                for t in want:
                    if t and plain(t):
                        self.assertIn(fold(t), text, "%s: %r" % (case, t))

    def test_png_goldens(self):
        bad = []
        for case, d, spec, kind in fixtures():
            if kind != "document":
                continue
            out = os.path.join(self.tmp, case + ".png")
            render(os.path.join(d, "spec.json"), out, "pdf", "--dpi", "50")
            golden = os.path.join(d, "expected", "png", "page1.png")
            with open(out, "rb") as f:
                got = f.read()
            if UPDATE:
                os.makedirs(os.path.dirname(golden), exist_ok=True)
                with open(golden, "wb") as f:
                    f.write(got)
                continue
            self.assertTrue(os.path.exists(golden), "no %s (QUIRE_UPDATE_GOLDEN=1)" % golden)
            with open(golden, "rb") as f:
                want = f.read()
            if got != want:
                share = png_diff(got, want)
                if share > 0.005:
                    bad.append("%s: %.2f%% of the pixels differ" % (case, share * 100))
        self.assertEqual(bad, [])

    def test_html(self):
        import html5lib
        svg = "{http://www.w3.org/2000/svg}"
        for case, d, spec, kind in fixtures():
            if kind != "document":
                continue
            with open(self.outs[(case, "html")], "rb") as f:
                data = f.read()
            tree = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(data)
            figs = [f for f in tree.iter("figure") if f.get("class") == "chart"]
            charts = charts_of(spec)
            self.assertEqual(len(figs), len(charts), case)
            for fig, ch in zip(figs, charts):
                s = fig.find(svg + "svg")
                self.assertIsNotNone(s, case)
                self.assertEqual(s.get("role"), "img")
                self.assertEqual(s.get("aria-label"), clean(ch.get("alt") or ch.get("title") or "chart"))
                self.assertGreater(len(list(s.iter(svg + "text"))), 0)
                table = fig.find("table")
                self.assertIn("position:absolute", table.get("style"))
                cells = [float(td.text) for td in table.iter("td") if td.text]
                want = []
                for i in range(max(len(series_values(x, ch)) for x in ch["series"])):
                    for x in ch["series"]:
                        if i < len(series_values(x, ch)):
                            if ch["chart"] == "scatter":
                                want.append(float(x["x"][i]))
                            want.append(float(series_values(x, ch)[i]))
                self.assertEqual(cells, want, case)
                heads = [th.text for th in table.iter("th") if th.get("scope") == "row"]
                if "categories" in ch:
                    self.assertEqual(heads, [clean(c) for c in ch["categories"]])

    def test_edit_ops(self):
        store = os.path.join(self.tmp, "store")
        spec = os.path.join(SRC, "fixtures", "chart-column", "spec.json")
        env = dict(ENV, QUIRE_STORE=store)

        def q(*args):
            return subprocess.run([QUIRE] + list(args), capture_output=True, text=True, env=env)

        p = q("create", "-k", "document", spec)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        doc_id = json.loads(p.stdout)["artifact_id"]
        ops = os.path.join(self.tmp, "ops.json")
        with open(ops, "w") as f:
            json.dump([{"op": "replace", "path": "/blocks/1/series/0/values/2", "value": 1999},
                       {"op": "add", "path": "/blocks/1/categories/-", "value": "LATAM"},
                       {"op": "add", "path": "/blocks/1/series/0/values/-", "value": 10},
                       {"op": "add", "path": "/blocks/1/series/1/values/-", "value": 20}], f)
        p = q("edit", doc_id, "--ops", ops)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        out = os.path.join(self.tmp, "edited.docx")
        p = q("export", doc_id, "-o", out)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        z = zipfile.ZipFile(out)
        from lxml import etree
        root = etree.fromstring(z.read("word/charts/chart1.xml"))
        _, vals = cached(root.findall(".//" + C + "ser")[0], "val")
        self.assertEqual(vals, ["1200", "980", "1999", "10"])
        # a bad edit is refused with the value's pointer and changes nothing
        with open(ops, "w") as f:
            json.dump([{"op": "replace", "path": "/blocks/1/series/0/values/0", "value": "lots"}], f)
        p = q("edit", doc_id, "--ops", ops)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("/blocks/1/series/0/values/0", p.stdout + p.stderr)

    def test_fmt_is_stable(self):
        for case, d, spec, kind in fixtures():
            p1 = subprocess.run([QUIRE, "fmt", os.path.join(d, "spec.json")], capture_output=True)
            self.assertEqual(p1.returncode, 0, p1.stderr)
            p2 = subprocess.run([QUIRE, "fmt", "-"], input=p1.stdout, capture_output=True)
            self.assertEqual(p1.stdout, p2.stdout, case)
            self.assertEqual(json.loads(p1.stdout), spec)


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=2).result
    sys.exit(unittest_exit(r))
