#!/usr/bin/python3
"""PDF and PNG backend (issue 7): every document fixture renders to a valid PDF
with every font embedded and every text extractable; the multi-script fixture
embeds a Noto font per non-Latin script; PNG previews match stored goldens;
nothing is laid out outside the page's margins; same spec, same bytes.

Env (set by ctest): QUIRE (the binary), QUIRE_SOURCE_DIR, QUIRE_SHARED.
QR_UPDATE_GOLDEN=1 rewrites tests/pdf/golden/*.png.
"""
import glob
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unicodedata
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import big_spec  # noqa: E402  (the big DejaVu document, shared with .ci/run)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.normpath(os.path.join(HERE, "..", "..")))
QUIRE = os.environ.get("QUIRE", os.path.join(SRC, "build", "quire"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import require, unittest_exit  # noqa: E402
GOLDEN = os.path.join(HERE, "golden")
GOLDEN_CASES = ["pdf-multiscript", "pdf-tables", "pdf-lists", "pdf-mixed-scripts"]
MY_CASES = ["pdf-tables", "pdf-lists", "pdf-multiscript", "pdf-edge-cases"]


def document_fixtures():
    out = []
    for path in sorted(glob.glob(os.path.join(SRC, "fixtures", "*", "spec.json"))):
        try:
            with open(path, encoding="utf-8") as f:
                spec = json.load(f)
        except (ValueError, OSError):
            continue
        if isinstance(spec, dict) and ("blocks" in spec or "sections" in spec):
            out.append((os.path.basename(os.path.dirname(path)), path, spec))
    return out


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def render(spec_path, out, *extra, env=None):
    p = run([QUIRE, "render", spec_path, "-o", out] + list(extra),
            env=dict(os.environ, **env) if env else None)
    line = p.stdout.decode("utf-8", "replace").strip().splitlines()
    res = json.loads(line[-1]) if line else {}
    return p.returncode, res


# ---- expected texts ---------------------------------------------------------------

def text_of(v):
    """The display text of a spec text value (string, runs object, run list)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e16:
            return str(int(v))
        return repr(v)
    if isinstance(v, str):
        return v
    if isinstance(v, list):
        return "".join(text_of(r) for r in v)
    if isinstance(v, dict):
        if "runs" in v:
            return text_of(v["runs"])
        return text_of(v.get("text", ""))
    return str(v)


def generated(v):
    """Whether text value v holds runs whose printed form quire makes: a
    cross-reference ({"ref"}: "Table 1") or a footnote mark. Their texts are
    checked by tests/docs/test_docs.py, which knows the labels."""
    if isinstance(v, list):
        return any(generated(r) for r in v)
    if isinstance(v, dict):
        return "ref" in v or "footnote" in v or generated(v.get("runs"))
    return False


def expected_texts(spec):
    """(kind, text) of every title, heading, paragraph, list item, table cell,
    code (a text with generated runs aside)."""
    out = []
    if spec.get("title"):
        out.append(("title", spec["title"]))
    for s in spec.get("sections", []) or []:
        out.append(("heading", text_of(s.get("heading"))))
        for p in s.get("paragraphs", []) or []:
            out.append(("paragraph", text_of(p)))

    def items(lst):
        for it in lst:
            if isinstance(it, dict):
                out.append(("item", text_of(it)))
                items(it.get("items", []) or [])
            else:
                out.append(("item", text_of(it)))

    for b in spec.get("blocks", []) or []:
        t = b.get("type")
        if t in ("heading", "paragraph") and not generated(b):
            out.append((t, text_of(b)))
        elif t == "list":
            items(b.get("items", []))
        elif t == "table":
            for h in b.get("headers", []) or []:
                out.append(("cell", text_of(h)))
            for row in b.get("rows", []):
                for c in row:
                    # a cell spanning rows wraps beside them: its lines come
                    # back between theirs, so its words are checked
                    spans = isinstance(c, dict) and c.get("rowspan", 1) > 1
                    out.append(("spanning" if spans else "cell", text_of(c)))
        elif t == "code":
            out.append(("code", b.get("text", "")))
    return [(k, t) for k, t in out if t.strip()]


def clean(s):
    """NFC; control characters become spaces (the backend draws them as
    spaces), noncharacters U+FFFD; format characters (ZWNJ, bidi marks
    poppler inserts) go."""
    s = unicodedata.normalize("NFC", s)
    out = []
    for ch in s:
        cat = unicodedata.category(ch)
        if cat == "Cf":
            continue
        cp = ord(ch)
        if 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE:
            ch = "\ufffd"  # noncharacters are drawn as U+FFFD
        out.append(" " if cat == "Cc" else ch)
    return "".join(out)


def ws(s):
    return " ".join(s.split())


def nows(s):
    return "".join(s.split())


# Scripts pdftotext cannot give back verbatim: it reorders right-to-left text
# into visual runs, decomposes the lam-alef ligature, and splits Khmer coeng
# clusters. Their texts are checked word by word instead.
LOOSE = re.compile("[\u0590-\u05FF\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\u1780-\u17FF"
                   "\uFB1D-\uFB4F\uFB50-\uFDFF\uFE70-\uFEFF]")
FOOTER = re.compile(r"^\s*\d+\s*/\s*\d+\s*$")


def pdf_text(pdf):
    """pdftotext of the whole file, page furniture (the "N / M" footers) removed."""
    p = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
    assert p.returncode == 0, p.stderr
    pages = p.stdout.decode("utf-8").split("\f")
    keep = []
    for pg in pages:
        keep.extend(l for l in pg.splitlines() if not FOOTER.match(l))
    return clean("\n".join(keep))


def missing_texts(spec, pdf):
    hay = pdf_text(pdf)
    hay_ws, hay_nows = ws(hay), nows(hay)
    bad = []
    for kind, t in expected_texts(spec):
        t = clean(t)
        if LOOSE.search(t):
            words = [w.strip(".,;:!?()«»\"'") for w in t.split()]
            words = [w for w in words if len(w) >= 2]
            found = sum(1 for w in words if w in hay_nows)
            if words and found * 2 < len(words):
                # Khmer has no spaces: its clusters come back split and
                # reordered, so at least every letter must be there
                lost = sorted(set(ch for ch in nows(t) if ch not in hay_nows))
                if lost:
                    bad.append((kind, t, "%d of %d words; lost %r" % (found, len(words), lost)))
            continue
        if kind in ("code", "spanning"):
            # pdftotext reads code lines split at tabs in another order: each
            # token must be there
            lost = [w for w in t.split() if w not in hay_nows]
            if lost:
                bad.append((kind, t[:80], "lost %r" % lost[:5]))
            continue
        if ws(t) in hay_ws:
            continue
        # wrapped by character (long words) or between CJK/Thai characters,
        # where the line break is no space in the spec
        if nows(t) in hay_nows:
            continue
        bad.append((kind, t[:80], "not found"))
    return bad


# ---- PNG decoding (no PIL: zlib + unfilter) ----------------------------------------

def png_decode(data):
    """(width, height, channels, rows as bytearrays) of an 8-bit non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if typ == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif typ == b"IDAT":
            idat.append(body)
        elif typ == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = ihdr
    assert depth == 8 and interlace == 0, "only 8-bit non-interlaced PNGs"
    ch = {0: 1, 2: 3, 4: 2, 6: 4}[ctype]
    raw = zlib.decompress(b"".join(idat))
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(ch, stride):
                line[i] = (line[i] + line[i - ch]) & 0xFF
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xFF
        elif f == 3:
            for i in range(stride):
                left = line[i - ch] if i >= ch else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif f == 4:
            for i in range(stride):
                a = line[i - ch] if i >= ch else 0
                b = prev[i]
                c = prev[i - ch] if i >= ch else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 0xFF
        rows.append(line)
        prev = line
    return w, h, ch, rows


def png_diff(a, b):
    """(mean absolute difference per channel, fraction of pixels differing by
    more than 48 in some channel) of two PNGs of the same size (RGB compared)."""
    wa, ha, ca, ra = png_decode(a)
    wb, hb, cb, rb = png_decode(b)
    if (wa, ha) != (wb, hb):
        return 255.0, 1.0
    total, differing = 0, 0
    for y in range(ha):
        la, lb = ra[y], rb[y]
        if la == lb and ca == cb:
            continue
        for x in range(wa):
            pa, pb = la[x * ca:x * ca + 3], lb[x * cb:x * cb + 3]
            d = [abs(pa[i] - pb[i]) for i in range(3)]
            total += sum(d)
            if max(d) > 48:
                differing += 1
    return total / (wa * ha * 3.0), differing / float(wa * ha)


# ---- the tests ---------------------------------------------------------------------

class PdfBackend(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="quire-pdf-")
        cls.fixtures = document_fixtures()
        cls.pdfs = {}
        cls.results = {}
        for name, path, spec in cls.fixtures:
            out = os.path.join(cls.tmp, name + ".pdf")
            rc, res = render(path, out)
            cls.results[name] = (rc, res)
            if rc == 0:
                cls.pdfs[name] = out

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_fixtures_present(self):
        names = [n for n, _, _ in self.fixtures]
        for n in MY_CASES:
            self.assertIn(n, names)

    def test_every_fixture_renders_and_passes_pdf_check(self):
        for name, _, _ in self.fixtures:
            rc, res = self.results[name]
            self.assertEqual(rc, 0, "%s: %s" % (name, res))
            self.assertEqual(res.get("status"), "ok", name)
            self.assertGreaterEqual(res.get("pages", 0), 1, name)
            p = run([require(self, "tools/pdf-check"), "--pages", str(res["pages"]), self.pdfs[name]])
            self.assertEqual(p.returncode, 0, "%s: %s" % (name, p.stdout.decode() + p.stderr.decode()))

    def test_every_text_is_extractable(self):
        for name, _, spec in self.fixtures:
            if name not in self.pdfs:
                continue
            bad = missing_texts(spec, self.pdfs[name])
            self.assertEqual(bad, [], name)

    def test_multiscript_fonts(self):
        p = run(["pdffonts", self.pdfs["pdf-multiscript"]])
        names = set()
        for line in p.stdout.decode().splitlines()[2:]:
            names.add(re.sub(r"^[A-Z]{6}\+", "", line.split()[0]))
        for fam in ["NotoSansArabic", "NotoSansHebrew", "NotoSansDevanagari", "NotoSansBengali",
                    "NotoSansTamil", "NotoSansThai", "NotoSansKhmer", "NotoSansEthiopic",
                    "NotoSansCJKsc", "NotoSansCJKjp", "NotoSansCJKkr", "DejaVuSans"]:
            self.assertTrue(any(n.startswith(fam + "-") or n == fam for n in names),
                            "%s not embedded: %s" % (fam, sorted(names)))
        # bold CJK is a real bold face, not a synthesized one
        self.assertTrue(any(n.startswith("NotoSansCJK") and n.endswith("-Bold") for n in names),
                        sorted(names))
        # every other font is DejaVu (Latin, Greek, Cyrillic, symbols)
        for n in names:
            self.assertTrue(n.startswith("Noto") or n.startswith("DejaVuSans"), n)
        # Latin, Greek, Cyrillic and symbols are DejaVu, not a Noto face
        self.assertIn("DejaVuSans-Bold", names)

    def test_links_and_outline(self):
        with open(self.pdfs["pdf-lists"], "rb") as f:
            data = f.read()
        self.assertIn(b"/URI (https://example.com/lists)", data)
        p = run(["qpdf", "--json", "--json-key=outlines", self.pdfs["pdf-lists"]])
        outl = json.loads(p.stdout.decode())["outlines"]
        titles = [o["title"] for o in outl]
        self.assertEqual(titles, ["Unordered, nine levels", "Ordered, nine levels"])
        self.assertEqual([k["title"] for k in outl[1]["kids"]], ["Long and styled items"])
        info = run(["pdfinfo", self.pdfs["pdf-lists"]]).stdout.decode()
        self.assertRegex(info, r"Title:\s+Lists")
        self.assertRegex(info, r"CreationDate:.*2026")

    def test_odd_links_and_outline_titles(self):
        # cairo writes a link's URI unescaped into a PDF string: parentheses,
        # backslashes and non-ASCII letters are percent-encoded first
        spec = {"title": "Outline (test) \\ back", "blocks": [
            {"type": "heading", "text": "عنوان عربي", "level": 1},
            {"type": "heading", "text": "日本語の見出し (2)", "level": 2},
            {"type": "paragraph", "runs": [
                {"text": "odd", "link": "https://example.com/a)b(c\\d'e\"f?x=1&y=%20"},
                " and ", {"text": "space", "link": "https://example.com/a b\u00e9"}]}]}
        path = os.path.join(self.tmp, "links.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        out = os.path.join(self.tmp, "links.pdf")
        rc, res = render(path, out)
        self.assertEqual(rc, 0, res)
        p = run([require(self, "tools/pdf-check"), out])
        self.assertEqual(p.returncode, 0, p.stdout.decode() + p.stderr.decode())
        with open(out, "rb") as f:
            data = f.read()
        self.assertIn(b"/URI (https://example.com/a%29b%28c%5Cd'e%22f?x=1&y=%20)", data)
        self.assertIn(b"/URI (https://example.com/a%20b%C3%A9)", data)
        outl = json.loads(run(["qpdf", "--json", "--json-key=outlines", out]).stdout.decode())
        self.assertEqual(outl["outlines"][0]["title"], "عنوان عربي")
        self.assertEqual(outl["outlines"][0]["kids"][0]["title"], "日本語の見出し (2)")

    def test_words_inside_margins(self):
        tol = 3.0
        for name, _, spec in self.fixtures:
            page = spec.get("page") or {}
            # margins of their own; a header or footer of its own (in the margins)
            if name not in self.pdfs or {"margins", "header", "footer"} & set(page):
                continue
            out = os.path.join(self.tmp, name + ".html")
            run(["pdftotext", "-bbox", self.pdfs[name], out])
            with open(out, encoding="utf-8") as f:
                doc = f.read()
            for page in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>',
                                    doc, re.S):
                pw, ph = float(page.group(1)), float(page.group(2))
                for m in re.finditer(r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" '
                                     r'yMax="([\d.-]+)">(.*?)</word>', page.group(3)):
                    x0, y0, x1, y1 = (float(m.group(i)) for i in range(1, 5))
                    word = html.unescape(m.group(5))
                    in_footer = y0 >= ph - 72 and re.match(r"^[\d/]+$", word)
                    self.assertGreaterEqual(x0, 72 - tol, "%s: %r" % (name, word))
                    self.assertLessEqual(x1, pw - 72 + tol, "%s: %r" % (name, word))
                    # the top: a line of a tall font keeps the rhythm's pitch
                    # (layout/rhythm.h) and pdftotext's box is the font's ascent
                    # (Noto Sans Arabic's, 1.4 em), which reaches up to 0.5 em (12 pt
                    # of a 24 pt title) above the line; the letters stay lower
                    self.assertGreaterEqual(y0, 72 - 12.0, "%s: %r" % (name, word))
                    if not in_footer:
                        self.assertLessEqual(y1, ph - 72 + tol, "%s: %r" % (name, word))
                    else:
                        self.assertLessEqual(y1, ph, "%s: %r" % (name, word))

    def test_edge_cases_laid_out(self):
        rc, res = self.results["pdf-edge-cases"]
        self.assertEqual(rc, 0)
        # the 10,000-letter word breaks by character: no hyphen is added
        hay = nows(pdf_text(self.pdfs["pdf-edge-cases"]))
        self.assertIn("abcdefghij" * 1000, hay)
        # the image larger than the page is scaled into the text box: one image
        # per page at most, and pdfimages sees it
        p = run(["pdfimages", "-list", self.pdfs["pdf-edge-cases"]])
        rows = [l.split() for l in p.stdout.decode().splitlines()[2:]]
        self.assertTrue(any(r[3] == "1400" and r[4] == "2200" for r in rows), rows)
        self.assertTrue(any(r[2] == "image" and r[8] == "jpeg" for r in rows), rows)

    def test_png_bomb_is_not_decoded(self):
        # 20000 x 20000 pixels in a few hundred bytes: a placeholder and a warning
        def chunk(t, d):
            c = struct.pack(">I", len(d)) + t + d
            return c + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
        w = h = 20000
        co = zlib.compressobj(9)
        raw = b"".join(co.compress(b"\x00" * (w * 3 + 1)) for _ in range(4)) + co.flush()
        png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
               chunk(b"IDAT", raw) + chunk(b"IEND", b""))
        import base64
        spec = {"blocks": [{"type": "image", "alt": "bomb",
                            "src": "data:image/png;base64," + base64.b64encode(png).decode()}]}
        path = os.path.join(self.tmp, "bomb.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        out = os.path.join(self.tmp, "bomb.pdf")
        rc, res = render(path, out)
        if rc != 0:  # the compiler may refuse such an image itself: fine too
            self.assertEqual(res["status"], "error")
            return
        self.assertIn("megapixels", json.dumps(res["warnings"]))
        self.assertEqual(run([require(self, "tools/pdf-check"), out]).returncode, 0)

    def test_table_header_repeats(self):
        path = self.pdfs["pdf-tables"]
        rc, res = self.results["pdf-tables"]
        self.assertGreater(res["pages"], 10)
        for page in range(2, res["pages"]):
            p = run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), "-enc", "UTF-8",
                     path, "-"])
            text = ws(p.stdout.decode())
            self.assertTrue(text.startswith("# Item Note Amount Paid"), (page, text[:60]))

    def words(self, pdf):
        """[(page, xMin, yMin, xMax, yMax, word)] from pdftotext -bbox."""
        out = pdf + ".bbox.html"
        run(["pdftotext", "-bbox", pdf, out])
        with open(out, encoding="utf-8") as f:
            doc = f.read()
        res = []
        for n, page in enumerate(re.finditer(r"<page [^>]*>(.*?)</page>", doc, re.S), 1):
            for m in re.finditer(r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" '
                                 r'yMax="([\d.-]+)">(.*?)</word>', page.group(1)):
                res.append((n, float(m.group(1)), float(m.group(2)), float(m.group(3)),
                            float(m.group(4)), html.unescape(m.group(5))))
        return res

    def test_rtl_right_aligned(self):
        words = self.words(self.pdfs["pdf-multiscript"])
        hebrew = [w for w in words if re.search("[\u0590-\u05FF]", w[5])]
        arabic = [w for w in words if re.search("[\u0600-\u06FF]", w[5])]
        self.assertTrue(hebrew and arabic)
        # right-to-left paragraphs end at the right margin (612 - 72)
        self.assertAlmostEqual(max(w[3] for w in hebrew), 540, delta=3)
        for a in arabic:
            mid = (a[2] + a[4]) / 2
            on_line = [w for w in words if w[0] == a[0] and abs((w[2] + w[4]) / 2 - mid) < 4]
            if any(w[5] == "Version" for w in on_line):
                # "Version 2 (نسخه) ..." starts with a Latin letter: left to right
                self.assertAlmostEqual(min(w[1] for w in on_line), 72, delta=1)
            else:
                self.assertAlmostEqual(max(w[3] for w in on_line), 540, delta=3)

    def test_heading_never_ends_a_page(self):
        blocks = []
        for k in range(40):
            blocks.append({"type": "heading", "text": "Heading %d" % k, "level": 1 + k % 3})
            for j in range(1 + k % 3):
                blocks.append({"type": "paragraph",
                               "text": " ".join(["word%d" % i for i in range((k * 7 + j * 13) % 90 + 5)])})
        path = os.path.join(self.tmp, "keep.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"blocks": blocks}, f)
        pdf = os.path.join(self.tmp, "keep.pdf")
        rc, res = render(path, pdf)
        self.assertEqual(rc, 0, res)
        self.assertGreater(res["pages"], 3)
        words = self.words(pdf)
        for page in range(1, res["pages"] + 1):
            body = [w for w in words if w[0] == page and w[2] < 792 - 72]
            last_y = max(w[2] for w in body)
            last_line = [w[5] for w in sorted(body, key=lambda w: w[1]) if abs(w[2] - last_y) < 1]
            self.assertNotEqual(last_line[0], "Heading", (page, last_line))
        # and nothing was lost
        text = ws(pdf_text(pdf))
        for k in range(40):
            self.assertIn("Heading %d " % k, text + " ")

    def test_same_bytes(self):
        for name in MY_CASES:
            spec = os.path.join(SRC, "fixtures", name, "spec.json")
            for ext in ("pdf", "png"):
                a = os.path.join(self.tmp, "a." + ext)
                b = os.path.join(self.tmp, "b." + ext)
                self.assertEqual(render(spec, a)[0], 0)
                self.assertEqual(render(spec, b)[0], 0)
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    self.assertTrue(fa.read() == fb.read(), "%s.%s differs" % (name, ext))

    def test_png_pages_and_errors(self):
        spec = os.path.join(SRC, "fixtures", "pdf-tables", "spec.json")
        out = os.path.join(self.tmp, "p.png")
        rc, res = render(spec, out, "--page", "3", "--dpi", "50")
        self.assertEqual(rc, 0, res)
        self.assertEqual(res["pages"], self.results["pdf-tables"][1]["pages"])
        with open(out, "rb") as f:
            w, h, _, _ = png_decode(f.read())
        self.assertEqual((w, h), (425, 550))  # Letter at 50 dpi
        rc, res = render(spec, out, "--page", "99")
        self.assertEqual(rc, 2, res)
        self.assertEqual(res["status"], "error")
        msg = json.dumps(res)
        self.assertIn("page 99", msg)
        self.assertIn("%d pages" % self.results["pdf-tables"][1]["pages"], msg)

    def test_png_all_pages(self):
        # --pages all paints every page from one layout (cached per thread):
        # each page is the same as a render of that page alone, and the
        # layout's warnings are reported with the last page too
        spec = {"title": "t", "blocks": [
            {"type": "paragraph", "text": "private \ue000 use"}, {"type": "page_break"},
            {"type": "paragraph", "text": "second page"}, {"type": "page_break"},
            {"type": "paragraph", "text": "third page"}]}
        path = os.path.join(self.tmp, "all.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        out = os.path.join(self.tmp, "all.png")
        rc, res = render(path, out, "--pages", "all", "--dpi", "40")
        self.assertEqual(rc, 0, res)
        self.assertEqual((res["pages"], res["files"]), (3, 3))
        self.assertIn("U+E000", json.dumps(res["warnings"]))
        for p in (1, 2, 3):
            one = os.path.join(self.tmp, "one.png")
            self.assertEqual(render(path, one, "--page", str(p), "--dpi", "40")[0], 0)
            with open(one, "rb") as a, open(os.path.join(self.tmp, "all-%d.png" % p), "rb") as b:
                self.assertTrue(a.read() == b.read(), "page %d differs" % p)

    def test_uncovered_code_point_warns_once(self):
        spec = {"title": "t", "blocks": [
            {"type": "paragraph", "text": "private \ue000 use \ue000"},
            {"type": "paragraph", "runs": ["again \ue000"]}]}
        path = os.path.join(self.tmp, "warn.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(spec, f)
        rc, res = render(path, os.path.join(self.tmp, "warn.pdf"))
        self.assertEqual(rc, 0, res)
        warns = [w for w in res.get("warnings", []) if "U+E000" in json.dumps(w)]
        self.assertEqual(len(warns), 1, res)
        self.assertIn("/blocks/0", json.dumps(warns[0]))
        self.assertIn("no installed font covers U+E000", json.dumps(warns[0]))

    def test_big_document_warns_in_order(self):
        # Over 96 KB of text is measured on two threads in chunks: the
        # warnings still come once per code point, at its first block, in
        # document order, and the bytes are the same run after run.
        def font_warnings(res):
            out = []
            for w in res.get("warnings", []):
                m = re.search(r"no installed font covers U\+([0-9A-F]+)", w.get("message", ""))
                if m:
                    out.append((w.get("path"), int(m.group(1), 16)))
            return out

        words = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu "
                 "nu xi omicron pi rho sigma tau upsilon phi chi psi omega ") * 6
        blocks, first_at = [], {0xE000: "/title"}
        for i in range(400):
            cp = 0xE000 + (i * 7) % 53 if i % 3 == 0 else None
            if i % 50 == 10:
                cell = "\U000F0001" if i == 210 else "z"
                blocks.append({"type": "table", "headers": ["a", "b"],
                               "rows": [[words[:90], cell]] * 4})
                if i == 210:
                    first_at.setdefault(0xF0001, "/blocks/%d" % i)
                continue
            blocks.append({"type": "paragraph", "text": words + ("x %s y" % chr(cp) if cp else "")})
            if cp:
                first_at.setdefault(cp, "/blocks/%d" % i)
        # which of these code points no installed font covers: ask a small
        # document (measured on one thread)
        small = os.path.join(self.tmp, "small.json")
        with open(small, "w", encoding="utf-8") as f:
            json.dump({"blocks": [{"type": "paragraph", "text": " ".join(map(chr, first_at))}]}, f)
        rc, res = render(small, os.path.join(self.tmp, "small.pdf"))
        self.assertEqual(rc, 0, res)
        uncovered = {cp for _, cp in font_warnings(res)}
        self.assertIn(0xE000, uncovered, res)
        want = sorted(((first_at[cp], cp) for cp in uncovered),
                      key=lambda e: -1 if e[0] == "/title" else int(e[0].split("/")[2]))

        path = os.path.join(self.tmp, "big.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"title": "Big \ue000", "blocks": blocks}, f)
        first = None
        for k in range(4):
            out = os.path.join(self.tmp, "big%d.pdf" % k)
            rc, res = render(path, out)
            self.assertEqual(rc, 0, res)
            got = font_warnings(res)
            self.assertEqual([g[1] for g in got], [w[1] for w in want], res)
            for g, w in zip(got, want):
                self.assertTrue(g[0] == w[0] or g[0].startswith(w[0] + "/"), (g, w))
            with open(out, "rb") as f:
                data = f.read()
            if first is None:
                first = data
            self.assertTrue(data == first, "run %d differs" % k)

    def test_big_document_styles_and_links(self):
        # A big document is painted with pango's half on a helper thread and
        # replayed on the PDF surface: links, underlines, strikes, code
        # backgrounds, placeholders and outlines come out as they do in a
        # small one, the file is valid, and the bytes are the same each run.
        path = os.path.join(self.tmp, "styled.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(big_spec.spec(), f)
        first = None
        for k in range(3):
            out = os.path.join(self.tmp, "styled%d.pdf" % k)
            rc, res = render(path, out)
            self.assertEqual(rc, 0, res)
            with open(out, "rb") as f:
                data = f.read()
            if first is None:
                first = data
                self.assertEqual(run([require(self, "tools/pdf-check"), out]).returncode, 0)
                for i in (0, 225, 449):
                    self.assertIn(b"/URI (https://example.com/b/%d)" % i, data)
                text = ws(pdf_text(out))
                self.assertIn("link 449 bold code() gone under", text)
                outl = json.loads(run(["qpdf", "--json", "--json-key=outlines",
                                       out]).stdout.decode())["outlines"]
                self.assertEqual(outl[0]["title"], "Part 0")
            self.assertTrue(data == first, "run %d differs" % k)
        # The two-thread paint replays pango's renderer (pdf/replay.c): the
        # bytes must be those pango itself paints on one thread. (The
        # multi-script document: test_pdf_threads.py.)
        out = os.path.join(self.tmp, "styled-one-thread.pdf")
        rc, res = render(path, out, env={"QUIRE_PDF_THREADS": "1"})
        self.assertEqual(rc, 0, res)
        with open(out, "rb") as f:
            self.assertTrue(f.read() == first, "one thread and two threads paint different bytes")

    def test_png_goldens(self):
        update = os.environ.get("QR_UPDATE_GOLDEN") == "1"
        os.makedirs(GOLDEN, exist_ok=True)
        for name in GOLDEN_CASES:
            out = os.path.join(self.tmp, name + ".png")
            rc, res = render(os.path.join(SRC, "fixtures", name, "spec.json"), out)
            self.assertEqual(rc, 0, res)
            ref = os.path.join(GOLDEN, name + ".png")
            if update or not os.path.exists(ref):
                shutil.copyfile(out, ref)
                if not update:
                    self.fail("no golden for %s: wrote %s, check it and commit it" % (name, ref))
                continue
            with open(out, "rb") as a, open(ref, "rb") as b:
                mean, frac = png_diff(a.read(), b.read())
            self.assertLess(mean, 1.0, "%s: mean difference %.3f" % (name, mean))
            self.assertLess(frac, 0.005, "%s: %.4f of pixels differ" % (name, frac))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
