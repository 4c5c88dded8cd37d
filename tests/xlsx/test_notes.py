#!/usr/bin/python3
"""test_notes.py: cell links and comments of a workbook (issue 33), end to end.

fixtures/notes-sheet has web, mail and in-workbook links (to another
sheet, to this sheet, to a range on a quoted sheet name), comments on
values and on empty cells, and a cell that is both. Checked here:
- openpyxl reads every hyperlink (target or location) and comment back,
  linked cells blue and underlined unless they set their own colour;
  ooxml-validate passes (hyperlink relationships, comments part, the VML
  note shapes);
- quire read gives "link" and "comment" back on the cells, and the spec
  it reads renders the same links and comments again;
- LibreOffice opens and saves it, and quire read of its file gives the
  same links and comments (LibreOffice understood each one);
- the PDF preview has link annotations (URIs and the page of a place in
  the workbook) and draws the red note marker; the PNG shows the marker;
- links and comments keep a spec off the streamed path: the same bytes
  through the three compile paths;
- bad links and comments: errors with paths and hints (did-you-mean for a
  sheet), the same through the streamed and the tree compile.

env: QUIRE, QUIRE_SOURCE_DIR, QUIRE_SHARED.
"""
import os
import re
import subprocess
import sys
import unittest
import zlib

import openpyxl

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import assert_ooxml_valid, require, unittest_exit  # noqa: E402
from sheets import (fixture, libreoffice_resave, read_spec, render, scratch,  # noqa: E402
                    stream_modes, write_spec)

TMP = scratch("notes")
FIX = fixture("notes-sheet")

LINKS = {("Sizing", "D2"): ("https://example.com/census/2025?table=B12&lang=en", None),
         ("Sizing", "D3"): ("https://example.com/notes/mid-market", None),
         ("Sizing", "D4"): ("mailto:research@example.com", None),
         ("Sizing", "A5"): (None, "Assumptions!A1"),
         ("Sizing", "D5"): (None, "A1"),
         ("Assumptions", "A2"): (None, "'Sizing'!B2:B4")}
COMMENTS = {("Sizing", "B2"): "Registered companies with 10-49 staff, 2025 census",
            ("Sizing", "C3"): "List price; deals close about 15% below",
            ("Sizing", "C5"): "Prices exclude VAT",
            ("Assumptions", "B1"): "Five-year average; see the census"}


def notes_of(spec):
    """{(sheet, "B2"): (link, comment)} of a spec's cell objects."""
    out = {}
    for sh in spec["sheets"]:
        rows = ([sh["columns"]] if "columns" in sh else []) + sh["rows"]
        for r, row in enumerate(rows):
            cells = row["cells"] if isinstance(row, dict) else row
            for c, cell in enumerate(cells):
                if isinstance(cell, dict) and ("link" in cell or "comment" in cell):
                    out[(sh["name"], "%s%d" % (chr(65 + c), r + 1))] = (cell.get("link"),
                                                                        cell.get("comment"))
    return out


class Notes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out = os.path.join(TMP, "notes.xlsx")
        rc, res = render(FIX, cls.out)
        assert rc == 0, res

    def test_openpyxl(self):
        assert_ooxml_valid(self, self.out)
        wb = openpyxl.load_workbook(self.out)
        links, comments = {}, {}
        for ws in wb:
            for row in ws.iter_rows():
                for c in row:
                    if c.hyperlink:
                        links[(ws.title, c.coordinate)] = (c.hyperlink.target,
                                                           c.hyperlink.location)
                    if c.comment:
                        comments[(ws.title, c.coordinate)] = c.comment.text
                        self.assertEqual(c.comment.author, "quire")
        self.assertEqual(links, LINKS)
        self.assertEqual(comments, COMMENTS)
        ws = wb["Sizing"]
        self.assertEqual(ws["D2"].font.color.rgb[-6:], "0563C1")
        self.assertEqual(ws["D2"].font.u, "single")
        self.assertEqual(ws["D4"].value, "research@example.com")  # a link alone shows its address
        self.assertEqual(ws["D5"].font.color.rgb[-6:], "7F7F7F")  # its own colour wins
        self.assertIsNone(ws["C5"].value)  # a comment on an empty cell

    def test_quire_read_round_trip(self):
        spec = read_spec(self.out)
        want = {k: (v[0] or "#" + v[1], None) for k, v in LINKS.items()}
        for k, v in COMMENTS.items():
            want[k] = (want.get(k, (None,))[0], v)
        self.assertEqual(notes_of(spec), want)
        again = os.path.join(TMP, "again.xlsx")
        rc, res = render(write_spec(os.path.join(TMP, "again.json"), spec), again)
        self.assertEqual(rc, 0, res)
        self.assertEqual(notes_of(read_spec(again)), want)

    def test_libreoffice_keeps_them(self):
        lo = libreoffice_resave(self.out, os.path.join(TMP, "lo"))
        if lo is None:
            self.skipTest("soffice is not installed")
        self.assertEqual(notes_of(read_spec(lo)), notes_of(read_spec(self.out)))

    def test_pdf_links_and_markers(self):
        pdf = os.path.join(TMP, "notes.pdf")
        rc, res = render(FIX, pdf)
        self.assertEqual(rc, 0, res)
        p = subprocess.run([require(self, "tools/pdf-check"), pdf], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(pdf, "rb") as f:
            data = f.read()
        text = data
        for m in re.finditer(rb"stream\r?\n(.*?)endstream", data, re.S):
            try:
                text += zlib.decompress(m.group(1))
            except zlib.error:
                pass
        uris = set(re.findall(rb"/URI \(([^)]*)\)", text))
        self.assertEqual(uris, {b"https://example.com/census/2025?table=B12&lang=en",
                                b"https://example.com/notes/mid-market",
                                b"mailto:research@example.com"})
        self.assertEqual(len(re.findall(rb"/Dest \(p[12]\)", text)), 3)  # the places in the workbook
        png = os.path.join(TMP, "notes.png")
        rc, res = render(FIX, png, args=["--dpi", "100"])
        self.assertEqual(rc, 0, res)
        ppm = os.path.join(TMP, "p")
        subprocess.run(["pdftoppm", "-r", "100", "-f", "1", "-l", "1", pdf, ppm], check=True)
        with open([os.path.join(TMP, f) for f in os.listdir(TMP) if f.startswith("p-")][0],
                  "rb") as f:
            px = f.read().split(b"\n", 3)[3]
        reds = sum(1 for i in range(0, len(px), 3) if px[i] > 180 and px[i + 1] < 40 and
                   px[i + 2] < 40)
        self.assertGreater(reds, 10)  # the note markers

    def test_streamed_same_bytes(self):
        rows = ",".join('["r%d", %d]' % (i, i) for i in range(25000))
        path = write_spec(os.path.join(TMP, "big.json"),
                          '{"sheets": [{"columns": ["A", "B"], "rows": [%s, [{"value": "end", '
                          '"link": "https://example.com/end"}, {"value": 1, "comment": "last"}]]}]}'
                          % rows)
        got = stream_modes(path, TMP, "big")
        for rc, res, data in got:
            self.assertEqual(rc, 0, res)
        self.assertEqual(got[0][2], got[1][2])
        self.assertEqual(got[0][2], got[2][2])

    def test_errors(self):
        rows = ",".join('[%d]' % i for i in range(100))
        path = write_spec(os.path.join(TMP, "bad.json"),
                          '{"sheets": [{"name": "Data", "rows": [%s, [{"value": 1, "link": '
                          '"#Dta!A1"}, {"value": 2, "link": "ftp://example.com"}, {"link": '
                          '"#A0"}, {"value": 3, "comment": 7}, {"value": 4, "link": '
                          '"#\'Data!A1"}]]}]}' % rows)
        got = stream_modes(path, TMP, "bad", modes=("0", "1"))
        for rc, res, data in got:
            self.assertEqual(rc, 1)
            self.assertIsNone(data)
        self.assertEqual(got[0][1]["errors"], got[1][1]["errors"])
        errs = {e["path"]: e for e in got[0][1]["errors"]}
        self.assertEqual(sorted(errs), ["/sheets/0/rows/100/0/link", "/sheets/0/rows/100/1/link",
                                        "/sheets/0/rows/100/2/link",
                                        "/sheets/0/rows/100/3/comment",
                                        "/sheets/0/rows/100/4/link"])
        self.assertEqual(errs["/sheets/0/rows/100/0/link"]["hint"], 'did you mean "Data"?')
        self.assertIn("mailto:", errs["/sheets/0/rows/100/1/link"]["hint"])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
