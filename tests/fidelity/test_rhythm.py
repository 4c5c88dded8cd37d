#!/usr/bin/python3
"""One vertical rhythm (issue 36 item 5, layout/rhythm.h): quire's PDF and
LibreOffice's PDF of quire's .docx paginate alike.

- A long mixed-script document (headings, paragraphs in Latin, Arabic,
  Devanagari, CJK and Thai, lists, tables; about 30 pages): the same page
  count, and the same first words on every page (pdftotext), in both.
- Paragraph gaps do not depend on the script: Latin paragraphs of two
  lines alternate with one-line paragraphs of each script; the distance
  from one Latin paragraph's first line to the next one's is the same
  (within 1 pt) whatever script the paragraph between them holds, in
  quire's PDF and in LibreOffice's.
"""
import html
import os
import random
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from office import soffice_convert  # noqa: E402
from shared import unittest_exit  # noqa: E402

LAT = ("the parties agree that the services described in this schedule are delivered on the dates "
       "shown and paid within thirty days of each invoice unless stated otherwise").split()
ARA = ("يتفق الطرفان على أن الخدمات الموصوفة في هذا الجدول تقدم في المواعيد المبينة وتدفع خلال "
       "ثلاثين يوما من تاريخ كل فاتورة").split()
DEV = ("दोनों पक्ष सहमत हैं कि इस अनुसूची में वर्णित सेवाएं दिखाई गई तिथियों पर दी जाएंगी और "
       "प्रत्येक चालान के तीस दिनों के भीतर भुगतान किया जाएगा").split()
CJK = "双方同意本附表所述服务按所示日期提供并在每张发票开具后三十天内付款除非另有说明"
THAI = "ทั้งสองฝ่ายตกลงว่าบริการที่อธิบายไว้ในตารางนี้จะส่งมอบตามวันที่ที่แสดง และชำระภายในสามสิบวัน"


def long_spec():
    rnd = random.Random(36)

    def words(ws, n):
        return " ".join(rnd.choice(ws) for _ in range(n)).capitalize() + "."

    blocks = []
    for sec in range(1, 52):
        blocks.append({"type": "heading", "text": "%d. Section %d" % (sec, sec), "level": 1})
        for k in range(4):
            s = rnd.randrange(5)
            if s == 0 or k == 0:
                t = words(LAT, rnd.randrange(30, 90))
            elif s == 1:
                t = words(ARA, rnd.randrange(20, 60))
            elif s == 2:
                t = words(DEV, rnd.randrange(20, 60))
            elif s == 3:
                t = CJK * rnd.randrange(2, 6)
            else:
                t = THAI * rnd.randrange(1, 4)
            blocks.append({"type": "paragraph", "text": t})
        if sec % 3 == 0:
            blocks.append({"type": "heading", "text": "Details of part %d" % sec, "level": 2})
            blocks.append({"type": "list", "ordered": sec % 2 == 0,
                           "items": [words(LAT, rnd.randrange(4, 25)) for _ in range(4)]})
        if sec % 4 == 0:
            blocks.append({"type": "table", "headers": ["Item", "Amount"],
                           "rows": [[words(LAT, 3), rnd.randrange(100, 9999)] for _ in range(5)]})
    return {"title": "Long mixed-script agreement", "lang": "en", "blocks": blocks}


def gaps_spec():
    """Latin paragraphs (two lines, each starting with a marker word)
    around one-line paragraphs of every script."""
    lat = " ".join(LAT) + " " + " ".join(LAT[:8])
    others = [" ".join(LAT[:8]), " ".join(ARA[:8]), " ".join(DEV[:8]), CJK[:20], THAI[:40]]
    blocks = []
    for i, o in enumerate(others):
        blocks.append({"type": "paragraph", "text": "Mark%d %s" % (i, lat)})
        blocks.append({"type": "paragraph", "text": o})
    blocks.append({"type": "paragraph", "text": "Mark%d %s" % (len(others), lat)})
    return {"title": "Gaps", "lang": "en", "blocks": blocks}


def first_words(pdf):
    """The first three words of every page's text (the page footer aside)."""
    out = []
    for page in fid.pdftotext(pdf).split("\f"):
        lines = [ln for ln in page.splitlines() if ln.strip()]
        if lines and re.fullmatch(r"\s*\d+ / \d+\s*", lines[-1]):
            lines.pop()
        if not lines:
            continue
        # pdftotext wraps right-to-left lines in bidi marks
        out.append(re.sub(r"[\u200e\u200f\u202a-\u202e]", "", lines[0]).split()[:3])
    return out


def page_count(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


WORD = re.compile(r'yMax="([\d.]+)">(.*?)</word>')


def marks(pdf):
    """Page 1: the bottom of each MarkN word, by N."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", pdf, "-"],
                         capture_output=True, text=True).stdout
    return {html.unescape(w): float(y) for y, w in WORD.findall(out) if w.startswith("Mark")}


class Rhythm(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not fid.have("soffice") or not fid.have("pdftotext"):
            raise unittest.SkipTest("soffice or pdftotext not installed")
        cls.tmp = fid.tmpdir()
        cls.pdf, cls.lo = {}, {}
        docx = []
        for name, spec in (("long", long_spec()), ("gaps", gaps_spec())):
            cls.pdf[name] = os.path.join(cls.tmp, name + ".pdf")
            fid.render(spec, cls.pdf[name], "pdf")
            docx.append(os.path.join(cls.tmp, name + ".docx"))
            fid.render(spec, docx[-1], "document")
        outdir = os.path.join(cls.tmp, "lo")
        soffice_convert("pdf", docx, outdir, timeout=300, profile=os.path.join(cls.tmp, "prof"))
        for name in cls.pdf:
            cls.lo[name] = os.path.join(outdir, name + ".pdf")

    def test_long_document_paginates_alike(self):
        q, lo = self.pdf["long"], self.lo["long"]
        self.assertTrue(os.path.exists(lo), "LibreOffice could not convert the docx")
        n = page_count(q)
        self.assertGreaterEqual(n, 25)
        self.assertEqual(page_count(lo), n)
        qf, lf = first_words(q), first_words(lo)
        self.assertEqual(len(qf), n)
        for i, (a, b) in enumerate(zip(qf, lf)):
            self.assertEqual(a, b, "first words of page %d" % (i + 1))

    def test_gaps_do_not_depend_on_script(self):
        for which, pdf in (("quire", self.pdf["gaps"]), ("LibreOffice", self.lo["gaps"])):
            with self.subTest(pdf=which):
                m = marks(pdf)
                ys = [m.get("Mark%d" % i) for i in range(6)]
                self.assertNotIn(None, ys, "every marker on page 1: %r" % m)
                steps = [b - a for a, b in zip(ys, ys[1:])]
                # Latin, Arabic, Devanagari, CJK, Thai between the markers
                self.assertLessEqual(max(steps) - min(steps), 1.0, "%s: %r" % (which, steps))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
