#!/usr/bin/python3
"""Abuse, the work budget on pages, slides and pictures (issue 37 "one work
budget", rows 9 and 24), inputs generated here.

Pages laid out for PDF or PNG draw on the render's work budget (core/
budget.h: QR_WORK_PAGE a page or slide, QR_WORK_CELL_DRAWN each cell of a
sheet's printed page, one unit per QR_WORK_PIXELS pixels decoded), beside
formulas and charts. A sheet's printed pages are paid for before the first
is drawn: a 500,000-row sheet to PDF exits 4 naming max_work at once (a
1,000,000-row one ran 12.9 s of CPU and wrote 22,223 pages), while its
first pages (--pages 1-2) and a 100,000-row sheet (tests/abuse/
test_sheet_cells.py) render. A document's pages and a deck's slides stop
at the budget, and so do pictures (named by their pointer). `quire read`
of a PDF whose inline images claim 10^10 bytes each (poppler skips them a
byte at a time) ends at --max-seconds with exit 4."""
import os
import sys
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import SLOW, Case, png  # noqa: E402
from test_read_bounds import pdf  # noqa: E402
import base64  # noqa: E402


def uri(data):
    return "data:image/png;base64," + base64.b64encode(data).decode()


class Work(Case):
    def limit(self, run, path, what):
        self.assertEqual(run.code, 4, run.out + run.err)
        self.assertEqual(run.result["code"], "limit")
        err = run.result["errors"][0]
        self.assertEqual(err["path"], path)
        self.assertIn(what + " need more work than the budget", err["message"])
        self.assertIn("max_work", err["message"])
        self.assertIn("--max-work", err["hint"])

    def test_sheet_pages(self):
        rows = [["a", "b", "c"]] + [[i, "r%d" % i, i * 1.5] for i in range(500000)]
        self.spec("rows.json", {"sheets": [{"name": "S", "rows": rows}]})
        run = self.quire("render", "rows.json", "-o", "rows.pdf", cpu_budget=4)
        self.limit(run, "/sheets/0", "the pages")
        self.assertFalse(os.path.exists(self.path("rows.pdf")))
        run = self.quire("render", "rows.json", "-o", "two.pdf", "--pages", "1-2", cpu_budget=4)
        self.assertEqual(run.code, 0, run.out)
        run = self.quire("render", "rows.json", "-o", "p1.png", cpu_budget=4)
        self.assertEqual(run.code, 0, run.out)

    def test_document_pages(self):
        blocks = []
        for i in range(300):
            blocks += [{"type": "paragraph", "text": "page %d" % i}, {"type": "page_break"}]
        self.spec("doc.json", {"blocks": blocks})
        run = self.quire("render", "doc.json", "-o", "doc.pdf")
        self.assertEqual((run.code, run.result["pages"]), (0, 301), run.out)
        for out in ("small.pdf", "small.png"):
            run = self.quire("render", "doc.json", "-o", out, "--max-work", "100000")
            self.limit(run, "/blocks", "the pages")

    def test_slides(self):
        self.spec("deck.json", {"slides": [{"title": "S%d" % i} for i in range(300)]})
        run = self.quire("render", "deck.json", "-o", "deck.pdf", "--max-work", "100000")
        self.limit(run, "/slides", "the slides")
        run = self.quire("render", "deck.json", "-o", "deck.pdf", "--max-work", "400000")
        self.assertEqual((run.code, run.result["pages"]), (0, 300), run.out)

    def test_pictures(self):
        src = uri(png(2000, 2000))  # 4 megapixels: 250,000 units
        doc = {"blocks": [{"type": "image", "src": src, "alt": "p"}]}
        deck = {"slides": [{"title": "S", "image": {"src": src, "alt": "p"}}]}
        for name, spec, path in (("doc", doc, "/blocks/0"), ("deck", deck, "/slides/0/image")):
            self.spec(name + ".json", spec)
            run = self.quire("render", name + ".json", "-o", name + ".pdf", "--max-work", "200000")
            self.limit(run, path, "the images")
            run = self.quire("render", name + ".json", "-o", name + ".pdf", "--max-work", "400000")
            self.assertEqual(run.code, 0, run.out)

    def test_read_pdf_inline_image_bomb(self):
        data = zlib.compress(b"\0" * 100)
        content = b"BT /F1 12 Tf 72 700 Td (hello) Tj ET\n" + (
            b"q BI /W 100000 /H 100000 /BPC 8 /CS /G /F /Fl ID " + data + b" EI Q\n") * 20
        self.write("ii.pdf", pdf([
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]))
        self.assertLess(os.path.getsize(self.path("ii.pdf")), 4 << 10)
        run = self.quire("read", "ii.pdf", "--max-seconds", "2")
        self.assertEqual(run.code, 4, run.out + run.err)
        self.assertIn("2 s (the limit max_seconds)", run.result["error"])
        self.assertLess(run.wall, 20 * SLOW)


if __name__ == "__main__":
    unittest.main(verbosity=2)
