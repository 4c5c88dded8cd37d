#!/usr/bin/python3
"""Abuse, hangs (issue 17 items 1, 2, 4): an image src that is a FIFO or a
socket, endless input from a file and from a pipe, and a letter carrying
half a million combining marks, each answered at once (abuse.py checks the
CPU, the exit code, temp files and untouched files of every run)."""
import json
import os
import socket
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case, png  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402


class Hangs(Case):
    def image_spec(self, src):
        return self.spec("doc.json", {"blocks": [{"type": "paragraph", "text": "x"},
                                                 {"type": "image", "src": src}]})

    def test_fifo_image(self):
        os.mkdir(self.path("img"))
        os.mkfifo(self.path("img/fifo"))
        self.image_spec("img/fifo")
        for out in ("doc.pdf", "doc.docx", "doc.html"):
            run = self.quire("render", "doc.json", "-o", out)
            self.assertEqual(run.code, 1, run.out)
            self.assertEqual(run.paths(), ["/blocks/1/src"])
            self.assertEqual(run.messages(), ['cannot read image "img/fifo": not a regular file'])
            self.assertLess(run.wall, 10)
            self.assertFalse(os.path.exists(self.path(out)))
        run = self.quire("check", "doc.json", "-k", "document")
        self.assertEqual((run.code, run.paths()), (1, ["/blocks/1/src"]), run.out)

    def test_socket_image(self):
        os.mkdir(self.path("img"))
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(self.path("img/sock"))
        try:
            self.image_spec("img/sock")
            run = self.quire("render", "doc.json", "-o", "doc.pdf")
            self.assertEqual(run.code, 1, run.out)
            self.assertEqual(run.messages(), ['cannot read image "img/sock": not a regular file'])
        finally:
            s.close()

    def test_a_regular_image_still_reads(self):
        self.write("img/a.png", png(4, 4))
        self.image_spec("img/a.png")
        run = self.quire("render", "doc.json", "-o", "doc.pdf")
        self.assertEqual(run.code, 0, run.out)

    def test_endless_file(self):
        run = self.quire("render", "/dev/zero", "-o", "z.docx", "--max-input", "1000000")
        self.assertEqual(run.code, 4, run.out)
        self.assertIn("the limit max_input is 1000000 bytes", run.messages()[0])
        self.assertFalse(os.path.exists(self.path("z.docx")))

    def test_endless_file_every_command(self):
        for args in (["check", "/dev/zero", "-k", "document"], ["fmt", "/dev/zero"],
                     ["create", "-k", "document", "--store", "st", "/dev/zero"],
                     ["fonts", "--spec", "/dev/zero"]):
            run = self.quire(*args)
            self.assertIn(run.code, (3, 4), (args, run.out))
            self.assertIn("max_input", run.messages()[0])

    def test_endless_pipe(self):
        cat = subprocess.Popen(["cat", "/dev/zero"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            run = self.quire("render", "-", "-o", "z.docx", stdin_fd=cat.stdout.fileno())
        finally:
            cat.kill()
            cat.wait()
            cat.stdout.close()
        self.assertEqual(run.code, 4, run.out)
        self.assertRegex(run.messages()[0],
                         r"^input is more than \d+ bytes; the limit max_input is 67108864 bytes$")

    def test_endless_pipe_small_limit(self):
        with open("/dev/zero", "rb") as z:
            run = self.quire("render", "-", "-o", "z.pdf", "--max-input", "5000", stdin_fd=z.fileno())
        self.assertEqual(run.code, 4, run.out)
        self.assertFalse(os.path.exists(self.path("z.pdf")))

    def test_finite_pipe_names_its_size(self):
        """Over the limit but finite: the whole size is still named."""
        spec = json.dumps({"blocks": [{"type": "paragraph", "text": "y" * 3000}]})
        self.write("in.json", spec)
        with open(self.path("in.json"), "rb") as f:
            run = self.quire("render", "-", "-o", "z.pdf", "--max-input", "2000", stdin_fd=f.fileno())
        self.assertEqual(run.code, 4, run.out)
        self.assertEqual(run.messages(), ["input is %d bytes; the limit max_input is 2000 bytes" % len(spec)])

    def test_combining_marks(self):
        # 500,000 marks (1,000,001 bytes, inside max_string): was quadratic,
        # 44 s for 100,000
        self.spec("marks.json", {"blocks": [{"type": "paragraph", "text": "a" + "\u0301" * 500000},
                                            {"type": "paragraph", "text": "after the marks"}]})
        for out in ("marks.pdf", "marks.png"):
            run = self.quire("render", "marks.json", "-o", out, cpu_budget=5)
            self.assertEqual(run.code, 0, run.out)
        text = subprocess.run(["pdftotext", self.path("marks.pdf"), "-"], capture_output=True,
                              text=True, check=True).stdout
        self.assertIn("after the marks", text)
        # pdftotext drops characters drawn on top of each other: stacked
        # marks are only seen to be there
        self.assertIn("a\u0301", text)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
