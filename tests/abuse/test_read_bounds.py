#!/usr/bin/python3
"""Abuse, read (issue 37 rows 1, 2, 6, 7, 8): what `quire read` of a small
hostile file may cost. Every input is generated here (zip + XML by hand,
PDFs written byte by byte); each run ends within its time and RSS bound,
with exit 4 naming the limit where one is passed, or a read with a warning.
  1. an xlsx whose cells all name one 32,000-character shared string
  2. one cell at XFD1048576; cells at XFD1 and A10000
  6. 29 nested form XObjects each drawn twice; a Flate stream of 800 MB
  7. an element with 200,000 attributes
  8. a docx whose text passes --max-output"""
import os
import random
import sys
import unittest
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "read"))
from abuse import MEM_SLOW, SLOW, Case  # noqa: E402
import ooxml_make as m  # noqa: E402

MiB = (1 << 20) * MEM_SLOW


def pdf(objs):
    out = bytearray(b"%PDF-1.4\n")
    offs = []
    for i, o in enumerate(objs):
        offs.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    x = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offs:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, x)
    return bytes(out)


def stream(data, extra=b""):
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


HEAD = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"]
FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def xobject_bomb(depth):
    objs = HEAD + [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font "
                   b"<< /F1 4 0 R >> /XObject << /X 5 0 R >> >> /Contents %d 0 R >>"
                   % (5 + depth + 1), FONT]
    for k in range(depth + 1):
        if k < depth:
            body, res = b"q /X Do /X Do Q", b"/Resources << /XObject << /X %d 0 R >> >>" % (6 + k)
        else:
            body, res = b"BT /F1 12 Tf 72 700 Td (deep) Tj ET", b"/Resources << /Font << /F1 4 0 R >> >>"
        objs.append(stream(body, b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] " + res))
    objs.append(stream(b"/X Do"))
    return pdf(objs)


def flate_bomb(mb):
    z = zlib.compressobj(9)
    comp = b"".join(z.compress(b"\0" * (1 << 20)) for _ in range(mb)) + z.flush()
    return pdf(HEAD + [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 5 0 R >>",
                       FONT, stream(comp, b"/Filter /FlateDecode")])


class ReadBounds(Case):
    def limit(self, run, name):
        self.assertEqual(run.code, 4, run.out + run.err)
        self.assertIn(name, run.result["error"])
        self.assertEqual(run.result["code"], "limit")

    def test_1_shared_string_expansion(self):
        rows = "".join('<row r="%d">%s</row>' % (r, '<c t="s"><v>0</v></c>' * 20)
                       for r in range(1, 5001))
        m.xlsx(self.path("sst.xlsx"), rows, shared=["y" * 32000])
        self.assertLess(os.path.getsize(self.path("sst.xlsx")), 64 << 10)
        for to in ("spec", "markdown", "text"):
            run = self.quire("read", "sst.xlsx", "--to", to)
            self.limit(run, "max_output")
            self.assertLess(run.rss, 400 * MiB, "peak RSS %.0f MiB" % (run.rss / 2**20))
        run = self.quire("read", "sst.xlsx", "--max-output", "1000000")
        self.limit(run, "1000000 bytes")

    def test_2_far_cells(self):
        m.xlsx(self.path("far.xlsx"), '<row r="1"><c r="A1"><v>7</v></c></row><row r="1048576">'
               '<c r="XFD1048576"><v>1</v></c></row>')
        for to in ("spec", "markdown", "text"):
            run = self.quire("read", "far.xlsx", "--to", to, "-o", "out")
            self.assertEqual(run.code, 0, run.out)
            self.assertIn("XFD1048576", run.result["warnings"][0]["message"])
            self.assertLess(os.path.getsize(self.path("out")), 200)
            self.assertLess(run.rss, 100 * MiB)
        m.xlsx(self.path("two.xlsx"), '<row r="1"><c r="XFD1"><v>1</v></c></row><row r="10000">'
               '<c r="A10000"><v>2</v></c></row><row r="1048576"/>')
        run = self.quire("read", "two.xlsx", "--to", "spec", "-o", "out")
        self.assertEqual(run.code, 0, run.out)
        self.assertLess(os.path.getsize(self.path("out")), 1 << 20)
        for to in ("markdown", "text"):  # the rectangle: 164 M cells, stopped at the cap
            run = self.quire("read", "two.xlsx", "--to", to)
            self.limit(run, "max_output")
            self.assertLess(run.rss, 400 * MiB)

    def test_23_repeated_rows(self):
        """Row 23: a <row r> given again goes on in place (it was read as the
        next rows); a cell before one already read (a column again, a row
        number going back) is not read, with a warning naming it."""
        import json
        m.xlsx(self.path("rep.xlsx"),
               '<row r="5"><c r="A5"><v>1</v></c></row><row r="5"><c r="B5"><v>2</v></c></row>'
               '<row r="5"><c r="A5"><v>3</v></c><c><v>4</v></c></row><row><c><v>9</v></c></row>'
               '<row r="3"><c r="A3"><v>8</v></c></row><row r="7"><c r="B7"><v>6</v></c></row>')
        run = self.quire("read", "rep.xlsx", "--to", "spec", "-o", "rep.json")
        self.assertEqual(run.code, 0, run.out)
        with open(self.path("rep.json")) as f:
            rows = json.load(f)["sheets"][0]["rows"]
        self.assertEqual(rows, [[], [], [], [], [1, 2, 4], [9], [None, 6]])
        [w] = run.result["warnings"]
        self.assertIn('sheet "S": 2 cells (first A5) not read: the file gives them after a cell '
                      'that comes later on the sheet', w["message"])

    def test_6_pdf_work(self):
        self.write("xo.pdf", xobject_bomb(29))
        self.assertLess(os.path.getsize(self.path("xo.pdf")), 8 << 10)
        run = self.quire("read", "xo.pdf", "--max-seconds", "3")
        self.limit(run, "3 s (the limit max_seconds)")
        self.assertLess(run.wall, 30 * SLOW)
        self.write("xo4.pdf", xobject_bomb(4))  # the same shape, small: read
        run = self.quire("read", "xo4.pdf", "--to", "text")
        self.assertEqual(run.code, 0, run.err)
        self.assertIn("deep", run.out)
        self.write("fl.pdf", flate_bomb(800))
        self.assertLess(os.path.getsize(self.path("fl.pdf")), 1 << 20)
        run = self.quire("read", "fl.pdf", "--max-unzipped", "100000000")
        self.limit(run, "max_unzipped")
        self.assertLess(run.cpu, 3 * SLOW)
        self.assertLess(run.rss, 200 * MiB)

    def test_7_attributes(self):
        attrs = " ".join('a%d="1"' % i for i in range(200000))
        m.docx(self.path("attrs.docx"), '<w:p %s><w:r><w:t>x</w:t></w:r></w:p>' % attrs)
        run = self.quire("read", "attrs.docx")
        self.limit(run, "more than 1024 attributes")
        self.assertLess(run.cpu, 2 * SLOW)

    def test_8_docx_output(self):
        rnd = random.Random(1)
        words = ["".join(rnd.choice("abcdefghij") for _ in range(7)) for _ in range(3000)]
        body = "".join('<w:p><w:r><w:t>%s</w:t></w:r></w:p>'
                       % " ".join(rnd.choice(words) for _ in range(30)) for _ in range(5000))
        m.docx(self.path("big.docx"), body)
        run = self.quire("read", "big.docx", "--to", "text", "--max-output", "200000")
        self.limit(run, "200000 bytes")
        self.assertLess(run.rss, 100 * MiB)
        run = self.quire("read", "big.docx", "--to", "text")
        self.assertEqual(run.code, 0, run.err[-300:])


if __name__ == "__main__":
    unittest.main()
