#!/usr/bin/python3
"""The PDF backend's two threads on multi-script documents (issue 22): cairo
1.16 closes FreeType faces past ten without their lock, so before the threads
start the main thread opens and pins every face the document needs
(pdf/pdf.c pin_document_faces, pdf/faces.c). A document in more than ten
faces takes the two-thread path with no face left for the threads to open,
paints the bytes one thread paints, and M1 renders again and again, three
processes at a time, without a crash.

Env (set by ctest): QUIRE, QUIRE_SOURCE_DIR, QUIRE_SHARED.
QUIRE_PDF_STRESS_COUNT: how many M1 renders (30 by default; 300 by hand).
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
import multi_spec  # noqa: E402  (the big multi-script document, shared with .ci/run)

SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.normpath(os.path.join(HERE, "..", "..")))
QUIRE = os.environ.get("QUIRE", os.path.join(SRC, "build", "quire"))
SHARED = os.environ.get("QUIRE_SHARED", os.path.normpath(os.path.join(SRC, "..", "shared")))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
from shared import require, unittest_exit  # noqa: E402

TRACE = re.compile(r"quire: pdf: (\d+) faces pinned before the threads, (\d+) by them")


def render(spec, out, env=None):
    return subprocess.run([QUIRE, "render", spec, "-o", out], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, env=dict(os.environ, **(env or {})))


def trace(p):
    """(faces pinned before the threads, by them), or None: one thread."""
    m = TRACE.search(p.stderr.decode("utf-8", "replace"))
    return (int(m.group(1)), int(m.group(2))) if m else None


class PdfThreads(unittest.TestCase):
    def setUp(self):
        self.tmpd = tempfile.TemporaryDirectory()
        self.tmp = self.tmpd.name

    def tearDown(self):
        self.tmpd.cleanup()

    def test_multi_script_two_threads_same_bytes(self):
        path = os.path.join(self.tmp, "multi.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(multi_spec.spec(), f, ensure_ascii=False)
        two = os.path.join(self.tmp, "two.pdf")
        p = render(path, two, {"QUIRE_PDF_FACE_TRACE": "1"})
        self.assertEqual(p.returncode, 0, p.stderr)
        t = trace(p)
        self.assertIsNotNone(t, "the multi-script document stayed on one thread")
        before, late = t
        self.assertGreater(before, 10, "fewer faces than cairo keeps open: no proof")
        self.assertEqual(late, 0, "a thread opened a face the gathering missed")
        # every face really is in the file: one per family and style
        fonts = subprocess.run(["pdffonts", two], stdout=subprocess.PIPE).stdout.decode()
        for name in ("DejaVuSans-Bold", "DejaVuSansMono", "NotoSansArabic-Bold",
                     "NotoSansHebrew-Regular", "NotoSansDevanagari-Bold", "NotoSansThai-Regular",
                     "NotoSansCJKsc-Regular", "NotoSansCJKjp-Regular", "NotoSansCJKkr-Regular"):
            self.assertIn(name, fonts)
        self.assertEqual(subprocess.run([require(self, "tools/pdf-check"), two]).returncode, 0)
        text = subprocess.run(["pdftotext", two, "-"], stdout=subprocess.PIPE).stdout.decode()
        self.assertIn("link 419", text)
        self.assertIn(multi_spec.TEXT[9][1].split()[0], text)
        # the same bytes on one thread, and run after run on two
        one = os.path.join(self.tmp, "one.pdf")
        p1 = render(path, one, {"QUIRE_PDF_THREADS": "1", "QUIRE_PDF_FACE_TRACE": "1"})
        self.assertEqual(p1.returncode, 0, p1.stderr)
        self.assertIsNone(trace(p1))
        with open(two, "rb") as a, open(one, "rb") as b:
            self.assertTrue(a.read() == b.read(), "one thread and two threads paint different bytes")
        again = os.path.join(self.tmp, "again.pdf")
        self.assertEqual(render(path, again).returncode, 0)
        with open(two, "rb") as a, open(again, "rb") as b:
            self.assertTrue(a.read() == b.read(), "two runs differ")

    def test_m1_concurrent_stress(self):
        count = int(os.environ.get("QUIRE_PDF_STRESS_COUNT", "30"))
        gen = require(self, "bench/gen_specs.py")
        subprocess.run([sys.executable, gen, self.tmp, "M1"], check=True, stdout=subprocess.PIPE)
        m1 = os.path.join(self.tmp, "M1.json")
        first = os.path.join(self.tmp, "first.pdf")
        p = render(m1, first, {"QUIRE_PDF_FACE_TRACE": "1"})
        self.assertEqual(p.returncode, 0, p.stderr)
        t = trace(p)
        self.assertIsNotNone(t, "M1 stayed on one thread")
        self.assertGreater(t[0], 10)
        self.assertEqual(t[1], 0)
        with open(first, "rb") as f:
            want = f.read()
        one = os.path.join(self.tmp, "one.pdf")
        self.assertEqual(render(m1, one, {"QUIRE_PDF_THREADS": "1"}).returncode, 0)
        with open(one, "rb") as f:
            self.assertTrue(f.read() == want, "M1: one thread and two threads paint different bytes")
        done = 0
        while done < count:
            batch = []
            for k in range(min(3, count - done)):
                out = os.path.join(self.tmp, "m1-%d.pdf" % k)
                batch.append((out, subprocess.Popen([QUIRE, "render", m1, "-o", out],
                                                    stdout=subprocess.DEVNULL,
                                                    stderr=subprocess.PIPE)))
            for out, proc in batch:
                _, err = proc.communicate()
                self.assertEqual(proc.returncode, 0,
                                 "render %d: exit %d %s" % (done, proc.returncode, err[-400:]))
                with open(out, "rb") as f:
                    self.assertTrue(f.read() == want, "render %d: other bytes" % done)
                done += 1


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
