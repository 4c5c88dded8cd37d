#!/usr/bin/python3
"""The CLI's shaping memo (pdf/memo/shape_memo.c, issue 22): pango shapes each
text item two or three times while it breaks lines, and the quire executable
answers the repeats from the last shaping HarfBuzz did (all of it, or the
glyphs of a run cut where HarfBuzz marks the cut safe). It must not change a
byte: every document and chart fixture, the big Latin and multi-script
documents (two threads), one thread, and a PNG page render the same bytes
with the memo turned off (QUIRE_SHAPE_MEMO=0), and the memo answers most of
the repeats (QUIRE_SHAPE_TRACE=1 counts them). The word cache beside it
(an item of simple-script text assembled from its words, each shaped once
per font) and the colour answers per face go off with the memo; the word
cache alone goes off with QUIRE_SHAPE_WORDS=0, and must not change a byte
either: the Latin document (a long Markdown report) and the multi-script one.

Env (set by ctest): QUIRE, QUIRE_SOURCE_DIR.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import big_spec  # noqa: E402
import multi_spec  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.normpath(os.path.join(HERE, "..", "..")))
QUIRE = os.environ.get("QUIRE", os.path.join(SRC, "build", "quire"))
TRACE = re.compile(r"quire: hb_shape: (\d+) calls, (\d+) answered whole and (\d+) as a run")
WORDS = re.compile(r"quire: hb_shape: (\d+) calls answered word by word, (\d+) words shaped")


def render(spec, out, env, *args):
    p = subprocess.run([QUIRE, "render", spec, "-o", out] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=dict(os.environ, **env))
    if p.returncode != 0:
        raise AssertionError("%s: exit %d: %s" % (spec, p.returncode, p.stderr.decode()))
    with open(out, "rb") as f:
        return f.read(), p.stderr.decode("utf-8", "replace")


class ShapeMemo(unittest.TestCase):
    def setUp(self):
        self.tmpd = tempfile.TemporaryDirectory()
        self.tmp = self.tmpd.name

    def tearDown(self):
        self.tmpd.cleanup()

    def same_bytes(self, spec, ext="pdf", env=None, args=()):
        """The render with the memo and without it; returns the memo's counts."""
        env = env or {}
        on, err = render(spec, os.path.join(self.tmp, "on." + ext),
                         dict(env, QUIRE_SHAPE_TRACE="1"), *args)
        off, _ = render(spec, os.path.join(self.tmp, "off." + ext),
                        dict(env, QUIRE_SHAPE_MEMO="0"), *args)
        self.assertEqual(on, off, "%s: the memo changed the %s" % (spec, ext))
        m = TRACE.search(err)
        self.assertIsNotNone(m, err)
        return int(m.group(1)), int(m.group(2)), int(m.group(3))

    def write(self, name, spec):
        path = os.path.join(self.tmp, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        return path

    def test_fixtures_same_bytes(self):
        fx = os.path.join(SRC, "fixtures")
        n = 0
        for case in sorted(os.listdir(fx)):
            spec = os.path.join(fx, case, "spec.json")
            if not case.startswith(("doc-", "pdf-", "docx-", "chart-", "docs-", "md-")) or \
                    not os.path.exists(spec):
                continue
            with self.subTest(case=case):
                self.same_bytes(spec)
                n += 1
        self.assertGreater(n, 20)

    def test_multi_script_two_threads(self):
        # Arabic and Hebrew (right to left), Devanagari, Thai, CJK: runs cut
        # only where HarfBuzz says both sides shape the same
        calls, whole, run = self.same_bytes(self.write("multi.json", multi_spec.spec()))
        self.assertGreater(whole, 0)
        self.assertGreater(run, 0)
        self.assertGreater(whole + run, calls // 4)

    def test_multi_script_one_thread(self):
        self.same_bytes(self.write("multi.json", multi_spec.spec()), env={"QUIRE_PDF_THREADS": "1"})

    def test_big_latin(self):
        calls, whole, run = self.same_bytes(self.write("big.json", big_spec.spec()))
        # most repeats are answered: a line's part of an item, then the rest
        self.assertGreater(whole + run, calls // 3)

    def words_same(self, spec, env=None):
        """The render with the word cache and without it (the memo on in
        both); returns (calls answered word by word, words shaped)."""
        env = env or {}
        on, err = render(spec, os.path.join(self.tmp, "won.pdf"), dict(env, QUIRE_SHAPE_TRACE="1"))
        off, err_off = render(spec, os.path.join(self.tmp, "woff.pdf"),
                              dict(env, QUIRE_SHAPE_WORDS="0", QUIRE_SHAPE_TRACE="1"))
        self.assertEqual(on, off, "%s: the word cache changed the PDF" % spec)
        m, m_off = WORDS.search(err), WORDS.search(err_off)
        self.assertIsNotNone(m, err)
        self.assertEqual(m_off.group(1), "0")
        return int(m.group(1)), int(m.group(2))

    def test_words_latin(self):
        # a long Markdown report (the bench's D1 shape): most items are
        # answered from their words, each word shaped once per font and thread
        md = ["---", "title: Words", "---", ""]
        for i in range(120):
            md.append("## Section %d" % i)
            md.append("The **quick brown** fox jumps over the *lazy* dog near the office, "
                      "again and again; affine fluffy waffles (%d) cost $%d.50 today. " % (i, i) * 3)
            md.append("- a list item with `code` and [a link](https://example.com/%d)" % i)
            md.append("")
        path = os.path.join(self.tmp, "words.md")
        with open(path, "w") as f:
            f.write("\n".join(md))
        # pango shapes every text with QUIRE_SIMPLE_TEXT=0; by default the
        # simple ones (pdf/simple_text.c) never reach it, and fewer words repeat
        calls, shaped = self.words_same(path, {"QUIRE_SIMPLE_TEXT": "0"})
        self.assertGreater(calls, 100)
        self.assertLess(shaped, calls)
        self.words_same(path)
        self.words_same(path, {"QUIRE_PDF_THREADS": "1"})

    def test_words_multi_script(self):
        # right-to-left and complex scripts go to HarfBuzz whole; their
        # Latin neighbours may come from words
        self.words_same(self.write("multi.json", multi_spec.spec()))

    def test_png_page(self):
        spec = os.path.join(SRC, "fixtures", "pdf-mixed-scripts", "spec.json")
        self.same_bytes(spec, "png", args=("--page", "1"))

    def test_off_is_off(self):
        spec = os.path.join(SRC, "fixtures", "pdf-lists", "spec.json")
        _, err = render(spec, os.path.join(self.tmp, "x.pdf"),
                        {"QUIRE_SHAPE_MEMO": "0", "QUIRE_SHAPE_TRACE": "1"})
        m = TRACE.search(err)
        self.assertIsNotNone(m, err)
        self.assertEqual((m.group(2), m.group(3)), ("0", "0"))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False).result))
