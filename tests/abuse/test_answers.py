#!/usr/bin/python3
"""Abuse, wrong answers (issue 17 items 10, 11): check and create read image
files from the spec's folder (or --base-dir) as render does; a stored
version holds its images, so export renders the same bytes after the file
is gone; a failed edit changes no version. Sheet names collide ignoring
case across Unicode; a cell holds at most 32,767 characters."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case, png  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402


class Images(Case):
    def setUp(self):
        super().setUp()
        self.write("img/a.png", png(20, 10))
        self.spec("one.json", {"title": "One", "blocks": [{"type": "paragraph", "text": "hi"},
                                                          {"type": "image", "src": "img/a.png", "alt": "a"}]})

    def test_check_reads_the_spec_folder(self):
        self.assertEqual(self.quire("check", "one.json", "-k", "document").code, 0)
        os.mkdir(self.path("sub"))
        os.rename(self.path("one.json"), self.path("sub/one.json"))
        run = self.quire("check", "sub/one.json", "-k", "document")
        self.assertEqual((run.code, run.paths()), (1, ["/blocks/1/src"]), run.out)
        self.assertEqual(self.quire("check", "sub/one.json", "-k", "document", "--base-dir", ".").code, 0)

    def test_stored_version_keeps_its_images(self):
        st = ["--store", "st"]
        run = self.quire("create", "-k", "document", "--id", "one", *st, "one.json")
        self.assertEqual(run.code, 0, run.out)
        run = self.quire("show", "one", *st)
        self.assertEqual(run.code, 0)
        stored = json.loads(run.out)
        self.assertTrue(stored["blocks"][1]["src"].startswith("data:image/png;base64,iVBORw0KGgo"))
        self.assertEqual(self.quire("export", "one", *st, "-o", "before.docx").code, 0)
        os.remove(self.path("img/a.png"))
        self.assertEqual(self.quire("export", "one", *st, "-o", "after.docx").code, 0)
        with open(self.path("before.docx"), "rb") as a, open(self.path("after.docx"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        # an edit naming a missing file fails at its path and makes no version
        self.spec("patch.json", {"blocks": [{"type": "image", "src": "img/gone.png"}]})
        run = self.quire("edit", "one", *st, "--patch", "patch.json")
        self.assertEqual((run.code, run.paths()), (1, ["/blocks/0/src"]), run.out)
        # edit and rewrite take files in too (relative to --base-dir)
        self.write("pics/b.png", png(8, 8, (0, 0, 255)))
        self.spec("patch2.json", {"blocks": [{"type": "image", "src": "b.png"}]})
        run = self.quire("edit", "one", *st, "--patch", "patch2.json", "--base-dir", "pics")
        self.assertEqual((run.code, run.result["version"]), (0, 2), run.out)
        self.spec("pics/two.json", {"blocks": [{"type": "image", "src": "b.png"}]})
        run = self.quire("rewrite", "one", "pics/two.json", *st)
        self.assertEqual((run.code, run.result["version"]), (0, 3), run.out)
        os.remove(self.path("pics/b.png"))
        for v in ("2", "3"):
            run = self.quire("show", "one", *st, "--version", v)
            self.assertIn("data:image/png;base64,", run.out)
            self.assertEqual(self.quire("export", "one", *st, "--version", v, "-o", "v%s.docx" % v).code, 0)

    def test_create_refuses_a_fifo(self):
        os.mkfifo(self.path("img/f"))
        self.spec("f.json", {"blocks": [{"type": "image", "src": "img/f"}]})
        run = self.quire("create", "-k", "document", "--store", "st", "f.json")
        self.assertEqual((run.code, run.paths()), (1, ["/blocks/0/src"]), run.out)


class Sheets(Case):
    def test_names_ignore_case_across_unicode(self):
        for a, b in (("É", "é"), ("Straße", "STRASSE".lower().replace("ss", "ß")), ("Σ", "σ"),
                     ("Данные", "данные"), ("Ｘ", "ｘ")):
            self.spec("s.json", {"sheets": [{"name": a, "rows": [[1]]}, {"name": b, "rows": [[2]]}]})
            run = self.quire("render", "s.json", "-o", "s.xlsx")
            self.assertEqual((run.code, run.paths()), (1, ["/sheets/1/name"]), (a, b, run.out))
        self.spec("s.json", {"sheets": [{"name": "É", "rows": [[1]]}, {"name": "E", "rows": [[2]]}]})
        self.assertEqual(self.quire("render", "s.json", "-o", "s.xlsx").code, 0)

    def test_cell_length(self):
        self.spec("c.json", {"sheets": [{"name": "S", "rows": [["x" * 32767, "\U0001F600" * 16383]]}]})
        self.assertEqual(self.quire("render", "c.json", "-o", "c.xlsx").code, 0)
        for cell in ("x" * 32768, "\U0001F600" * 16384, {"value": "y" * 40000}):
            self.spec("c.json", {"sheets": [{"name": "S", "rows": [["ok", cell]]}]})
            run = self.quire("render", "c.json", "-o", "c.xlsx")
            self.assertEqual(run.code, 1, run.out)
            self.assertEqual(run.paths()[0][:18], "/sheets/0/rows/0/1")
            self.assertIn("at most 32,767 characters", run.messages()[0])


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
