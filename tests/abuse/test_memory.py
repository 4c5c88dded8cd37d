#!/usr/bin/python3
"""Abuse, memory (issue 17 items 8, 9): 50 distinct 8000 x 8000 PNGs in one
document render within 1.5 GiB of peak RSS and 10 s of CPU, each image
downsampled to the resolution it is drawn at or skipped past the decode
budget, with a warning that says which; 20 copies of one image are decoded
once; a PNG asking for 109 million dpi renders (the dpi is clamped)."""
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


class Memory(Case):
    def test_fifty_distinct_big_images(self):
        blocks = [{"type": "image", "src": uri(big_png(i)), "alt": "image %d" % i} for i in range(50)]
        self.spec("big.json", {"title": "Fifty", "blocks": blocks})
        run = self.quire("render", "big.json", "-o", "big.pdf")
        self.assertEqual(run.code, 0, run.out)
        self.assertLess(run.rss, 1.5 * GiB, "peak RSS %.0f MiB" % (run.rss / 2**20))
        self.assertEqual(run.result["pages"], 50)
        # warnings name each image: downsampled ones first, then skipped ones
        warn = run.result["warnings"]
        shown = len(warn)
        self.assertEqual(shown + run.result.get("warnings_omitted", 0), 50)
        self.assertEqual(warn[0]["path"], "/blocks/0")
        self.assertEqual(warn[0]["message"], "the PNG image (8000 x 8000 pixels) was downsampled to "
                         "1950 x 1950 pixels, 300 dpi at its drawn size")
        self.assertEqual(warn[-1]["path"], "/blocks/%d" % (shown - 1))
        self.assertRegex(warn[-1]["message"], r"^the PNG image \(8000 x 8000 pixels\) was skipped: the "
                         r"document's images already decoded \d+ of a budget of \d+ megapixels; a "
                         r"placeholder is drawn$")
        # the drawn images are the downsampled pixels
        info = subprocess.run(["pdfimages", "-list", self.path("big.pdf")], capture_output=True,
                              text=True, check=True).stdout.splitlines()[2:]
        self.assertGreaterEqual(len(info), 5)
        for line in info:
            self.assertEqual(line.split()[3:5], ["1950", "1950"], line)
        text = subprocess.run(["pdftotext", self.path("big.pdf"), "-"], capture_output=True, text=True,
                              check=True).stdout
        self.assertIn("image 49", text)  # a skipped image's placeholder

    def test_twenty_copies_decode_once(self):
        src = uri(big_png(7))
        self.spec("same.json", {"blocks": [{"type": "image", "src": src}] * 20})
        run = self.quire("render", "same.json", "-o", "same.pdf")
        self.assertEqual(run.code, 0, run.out)
        self.assertLess(run.rss, 1 * GiB)
        self.assertEqual(len(run.result["warnings"]), 1, run.result["warnings"])
        self.assertIn("downsampled to 1950 x 1950", run.result["warnings"][0]["message"])
        self.assertEqual(run.result["pages"], 20)

    def test_small_images_untouched(self):
        self.spec("small.json", {"blocks": [{"type": "image", "src": uri(png(300, 200))}]})
        run = self.quire("render", "small.json", "-o", "small.pdf")
        self.assertEqual((run.code, run.result["warnings"]), (0, []), run.out)
        info = subprocess.run(["pdfimages", "-list", self.path("small.pdf")], capture_output=True,
                              text=True, check=True).stdout.splitlines()[2:]
        self.assertEqual(info[0].split()[3:5], ["300", "200"])

    def test_huge_phys(self):
        for ppm in (4294967295, 1):
            self.spec("phys.json", {"blocks": [{"type": "paragraph", "text": "dpi"},
                                               {"type": "image", "src": uri(png(10, 10, ppm=ppm))}]})
            for out in ("phys.png", "phys.pdf", "phys.docx", "phys.html"):
                run = self.quire("render", "phys.json", "-o", out)
                self.assertEqual(run.code, 0, run.out)
                self.assertGreater(os.path.getsize(self.path(out)), 100)
            with open(self.path("phys.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
