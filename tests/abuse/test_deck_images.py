#!/usr/bin/python3
"""Abuse, a deck's pictures (issue 37 row 9), images generated here.

20 slides showing one 8000 x 8000 PNG: decoded once per render and
downsampled to the box it is drawn in at 300 dpi, in the PDF (one image
object shared by the 20 pages, 1428 x 1428 pixels), a PNG preview and a
contact sheet, within 10 s of CPU and 1 GiB of peak RSS (it took 35-60 s and
wrote a 9.3 MB PDF before); one warning says so. 12 distinct ones: the
decode budget (512 megapixels) draws the last four as placeholders, each
with a warning. A small picture is embedded untouched."""
import base64
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import MEM_SLOW, Case, big_png, png  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

GiB = (1 << 30) * MEM_SLOW


def uri(data):
    return "data:image/png;base64," + base64.b64encode(data).decode()


def images(pdf):
    lines = subprocess.run(["pdfimages", "-list", pdf], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    return [ln.split() for ln in lines]


class DeckImages(Case):
    def test_one_big_picture_on_twenty_slides(self):
        src = uri(big_png(7))
        self.spec("deck.json", {"slides": [{"title": "S%d" % i, "image": {"src": src, "alt": "pic"}}
                                           for i in range(20)]})
        run = self.quire("render", "deck.json", "-o", "deck.pdf")
        self.assertEqual(run.code, 0, run.out)
        self.assertLess(run.rss, 1 * GiB, "peak RSS %.0f MiB" % (run.rss / 2**20))
        self.assertEqual(run.result["pages"], 20)
        self.assertEqual([w["message"] for w in run.result["warnings"]],
                         ["the PNG image (8000 x 8000 pixels) was downsampled to 1428 x 1428 "
                          "pixels, 300 dpi at its drawn size"])
        self.assertEqual(run.result["warnings"][0]["path"], "/slides/0/image")
        info = images(self.path("deck.pdf"))
        self.assertEqual(len(info), 20)
        self.assertEqual({ln[10] for ln in info}, {info[0][10]}, "one image object for 20 pages")
        self.assertEqual({tuple(ln[3:5]) for ln in info}, {("1428", "1428")})
        self.assertLess(os.path.getsize(self.path("deck.pdf")), 1 << 20)
        for args in (["--page", "20"], ["--contact"]):
            run = self.quire("render", "deck.json", "-o", "deck.png", *args)
            self.assertEqual(run.code, 0, (args, run.out))
            self.assertLess(run.rss, 1 * GiB)

    def test_decode_budget(self):
        slides = [{"title": "S%d" % i, "image": {"src": uri(big_png(i)), "alt": "picture %d" % i}}
                  for i in range(12)]
        self.spec("many.json", {"slides": slides})
        run = self.quire("render", "many.json", "-o", "many.pdf")
        self.assertEqual(run.code, 0, run.out)
        self.assertLess(run.rss, 1 * GiB)
        warn = run.result["warnings"]
        skipped = [w["path"] for w in warn if "was skipped" in w["message"]]
        self.assertEqual(skipped, ["/slides/%d/image" % i for i in range(8, 12)], warn)
        self.assertEqual(len(images(self.path("many.pdf"))), 8)
        text = subprocess.run(["pdftotext", self.path("many.pdf"), "-"], capture_output=True, text=True,
                              check=True).stdout
        self.assertIn("picture 11", text)  # the placeholder's alt text

    def test_small_picture_untouched(self):
        self.spec("small.json", {"slides": [{"title": "S", "image": {"src": uri(png(300, 200)), "alt": "s"}}]})
        run = self.quire("render", "small.json", "-o", "small.pdf")
        self.assertEqual((run.code, run.result["warnings"]), (0, []), run.out)
        self.assertEqual(images(self.path("small.pdf"))[0][3:5], ["300", "200"])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
