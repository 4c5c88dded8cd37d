#!/usr/bin/python3
"""Abuse, links (issue 37 row 11), input generated here: one 1 MB link over
2,000 words renders to a PDF that writes the URI once per page (one link
annotation per page, its rectangles gathered from every line the link
spans), not once per line: about 4 MB over 4 pages, where it was 235 MB;
the link still covers every line (pdfinfo/pdftotext read it back)."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import MEM_SLOW, Case  # noqa: E402

GiB = (1 << 30) * MEM_SLOW


class Links(Case):
    def test_long_link_once_per_page(self):
        url = "https://example.com/" + "a" * 1000000
        words = " ".join("w%d" % i for i in range(2000))
        self.spec("link.json", {"blocks": [{"type": "paragraph", "runs": [{"text": words, "link": url}]}]})
        run = self.quire("render", "link.json", "-o", "link.pdf")
        self.assertEqual(run.code, 0, run.out)
        self.assertLess(run.rss, 1.5 * GiB)
        pages = run.result["pages"]
        with open(self.path("link.pdf"), "rb") as f:
            pdf = f.read()
        self.assertLess(len(pdf), (pages + 1) * 1100000)
        self.assertEqual(pdf.count(b"/Subtype /Link") or pdf.count(b"/Subtype/Link"), pages)
        text = subprocess.run(["pdftotext", self.path("link.pdf"), "-"], capture_output=True, text=True,
                              check=True).stdout
        self.assertIn("w1999", text)

    def test_links_per_line_kept(self):
        # two links on one line and one over many lines: three targets, each annotated
        runs = [{"text": "first", "link": "https://a.example/"}, {"text": " and "},
                {"text": "second", "link": "mailto:b@example.com"}, {"text": " then "},
                {"text": " ".join(["long"] * 300), "link": "https://c.example/"}]
        self.spec("few.json", {"blocks": [{"type": "paragraph", "runs": runs}]})
        run = self.quire("render", "few.json", "-o", "few.pdf")
        self.assertEqual(run.code, 0, run.out)
        with open(self.path("few.pdf"), "rb") as f:
            pdf = f.read()
        for u in (b"https://a.example/", b"mailto:b@example.com", b"https://c.example/"):
            self.assertEqual(pdf.count(u), 1, u)


if __name__ == "__main__":
    unittest.main(verbosity=2)
