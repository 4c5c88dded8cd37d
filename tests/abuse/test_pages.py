#!/usr/bin/python3
"""Abuse, --pages (issue 37 row 10), inputs generated here: a spec of 116
pages with --pages all exits 4 naming max_pages and writes no PNG (the
default cap is 100); --max-pages 200 writes all 116; a run killed by SIGTERM
or SIGKILL half way leaves no PNG of the set (the pages are unnamed temp
files until every page is written); --pages A-B names the files it wrote."""
import glob
import os
import signal
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import MEM_SLOW, Case, collect, spawn  # noqa: E402

GiB = (1 << 30) * MEM_SLOW
SPEC = {"blocks": [{"type": "paragraph", "text": "word " * 40} for _ in range(1500)]}


class Pages(Case):
    def pngs(self):
        return sorted(glob.glob(self.path("p-*.png")))

    def test_cap(self):
        self.spec("pages.json", SPEC)
        run = self.quire("render", "pages.json", "-o", "p.png", "--pages", "all")
        self.assertEqual(run.code, 4, run.out)
        self.assertIn("max_pages", run.messages()[0])
        self.assertIn("--max-pages", run.result["errors"][0]["hint"])
        self.assertEqual(self.pngs(), [])
        run = self.quire("render", "pages.json", "-o", "p.png", "--pages", "all", "--max-pages", "200",
                         cpu_budget=60)
        self.assertEqual(run.code, 0, run.out)
        self.assertEqual(len(self.pngs()), 116)
        self.assertEqual(len(run.result["paths"]), 116)
        self.assertLess(run.rss, 1.5 * GiB)

    def test_range_names_its_files(self):
        self.spec("pages.json", SPEC)
        run = self.quire("render", "pages.json", "-o", "p.png", "--pages", "5-7")
        self.assertEqual(run.code, 0, run.out)
        self.assertEqual(run.result["paths"], ["p-5.png", "p-6.png", "p-7.png"])
        self.assertEqual(self.pngs(), [self.path("p-%d.png" % i) for i in (5, 6, 7)])

    def test_killed_half_way(self):
        self.spec("pages.json", SPEC)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            t0 = time.monotonic()
            pid, r_out, r_err = spawn(["render", "pages.json", "-o", "p.png", "--pages", "all",
                                       "--max-pages", "200"], self.dir, cpu_budget=120)
            time.sleep(1.0)
            os.kill(pid, sig)
            collect(pid, r_out, r_err, t0)
            self.assertEqual(self.pngs(), [], "killed by %s" % sig.name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
