#!/usr/bin/python3
"""Abuse, one picture drawn twice on a page (a known bug), made here.

cairo 1.16 lists a picture in a page's /XObject resources once per time the
page paints it: a document showing one PNG twice on a page, or a slide
whose picture is also the deck's logo, had "/XObject << /x9 9 0 R /x9 9 0 R
>>", a duplicated key (qpdf: "dictionary has duplicated key"). pdf/
xobjects.c blanks the repeats byte for byte on the way out: qpdf --check
finds no warning (its cross-reference offsets still right), the picture
is embedded once and drawn at every place."""
import base64
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case, png  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import require_tool, unittest_exit  # noqa: E402


def uri(data):
    return "data:image/png;base64," + base64.b64encode(data).decode()


class XObjects(Case):
    def check(self, name, uses):
        require_tool(self, "qpdf")
        require_tool(self, "pdfimages")
        q = subprocess.run(["qpdf", "--check", self.path(name)], capture_output=True, text=True)
        self.assertEqual(q.returncode, 0, q.stdout + q.stderr)
        self.assertNotIn("WARNING", q.stdout + q.stderr)
        with open(self.path(name), "rb") as f:
            pdf = f.read()
        for d in re.findall(rb"/XObject << ([^>]*)>>", pdf):
            keys = re.findall(rb"/x\d+", d)
            self.assertEqual(len(keys), len(set(keys)), d)
        lines = subprocess.run(["pdfimages", "-list", self.path(name)], capture_output=True, text=True,
                               check=True).stdout.splitlines()[2:]
        objects = [ln.split()[10] for ln in lines]
        self.assertEqual(len(objects), uses, lines)
        self.assertEqual(len(set(objects)), 1, lines)  # embedded once

    def test_document_image_twice_on_a_page(self):
        src = uri(png(40, 30))
        blocks = [{"type": "image", "src": src, "alt": "a%d" % i} for i in range(3)]
        self.spec("d.json", {"blocks": blocks + [{"type": "paragraph", "text": "after"}]})
        run = self.quire("render", "d.json", "-o", "d.pdf")
        self.assertEqual((run.code, run.result["pages"]), (0, 1), run.out)
        self.check("d.pdf", 3)

    def test_slide_picture_is_the_logo(self):
        src = uri(png(60, 60, (20, 90, 200)))
        self.spec("k.json", {"logo": {"src": src, "alt": "logo"},
                             "slides": [{"title": "One", "image": {"src": src, "alt": "pic"}},
                                        {"title": "Two", "image": {"src": src, "alt": "pic"}}]})
        run = self.quire("render", "k.json", "-o", "k.pdf")
        self.assertEqual((run.code, run.result["pages"]), (0, 2), run.out)
        self.check("k.pdf", 4)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False).result))
