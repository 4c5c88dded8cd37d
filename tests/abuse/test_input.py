#!/usr/bin/python3
"""Abuse, input as it arrives (issue 37 row 21), inputs generated here.

--max-input holds as the bytes arrive: an endless pipe with a 1,000,000
byte limit costs render, check, fmt, read and import at most twice the
limit (1 MiB past it at most), not the 64 MiB they drained before. A pipe
that stalls (its writer alive, silent), empty or after half a spec, is cut
by --read-timeout (also written --read-timeout=N, before the command, or as
QUIRE_READ_TIMEOUT): exit 4 naming read_timeout with the CLI's hint, within
a second or two of the limit, and no file written."""
import json
import os
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

LIMIT = 1000000
DOC = {"title": "T", "blocks": [{"type": "paragraph", "text": "hello " * 50}]}


class Writer(threading.Thread):
    """Writes data (once) or zeros (forever) into a pipe, counting the bytes
    the reader took; stall=True keeps the pipe open after data."""

    def __init__(self, data=None, stall=False):
        super().__init__(daemon=True)
        self.r, self.w = os.pipe()
        self.data, self.stall, self.sent = data, stall, 0
        self.done = threading.Event()

    def run(self):
        try:
            if self.data is not None:
                os.write(self.w, self.data)
                self.sent = len(self.data)
                if self.stall:
                    self.done.wait(120)
                return
            block = b"\0" * 65536
            while not self.done.is_set():
                self.sent += os.write(self.w, block)
        except OSError:
            pass  # the reader closed its end
        finally:
            os.close(self.w)

    def stop(self):
        self.done.set()
        self.join(10)


class Input(Case):
    def through(self, writer, *args, env=None):
        writer.start()
        try:
            if env:
                old = {k: os.environ.get(k) for k in env}
                os.environ.update(env)
            t0 = time.monotonic()
            run = self.quire(*args, stdin_fd=writer.r)
            run.elapsed = time.monotonic() - t0
        finally:
            if env:
                for k, v in old.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            os.close(writer.r)
            writer.stop()
        return run

    def commands(self):
        return [["render", "-", "-o", "z.pdf"], ["render", "-", "-o", "z.docx"],
                ["check", "-"], ["fmt", "-"], ["read", "-"],
                ["import", "-", "--store", "st"]]

    def test_endless_pipe_costs_twice_the_limit(self):
        for args in self.commands():
            w = Writer()
            run = self.through(w, *(args + ["--max-input", str(LIMIT)]))
            self.assertEqual(run.code, 4, (args, run.out))
            self.assertIn("max_input", run.messages()[0])
            # what the pipe holds (64 KiB) and one read's gulp are the slack
            self.assertLess(w.sent, 2 * LIMIT + (256 << 10), (args, w.sent))
            self.assertFalse(os.path.exists(self.path("z.pdf")))

    def test_stalled_pipe_times_out(self):
        half = json.dumps(DOC).encode()[:40]
        forms = [(["--read-timeout", "1"], None), (["--read-timeout=1"], None),
                 ([], {"QUIRE_READ_TIMEOUT": "1"})]
        cases = [(args, data, forms[0]) for args in self.commands() for data in (b"", half)]
        cases += [(self.commands()[0], half, f) for f in forms[1:]]
        for args, data, (extra, env) in cases:
            if True:
                if True:
                    w = Writer(data, stall=True)
                    run = self.through(w, *(extra + args if extra and data else args + extra), env=env)
                    self.assertEqual(run.code, 4, (args, extra, run.out))
                    self.assertIn("(the limit read_timeout)", run.messages()[0])
                    self.assertIn("--read-timeout SECONDS", run.result["errors"][0]["hint"])
                    self.assertLess(run.elapsed, 1 + 20, (args, run.elapsed))
                    self.assertFalse(os.path.exists(self.path("z.pdf")))
                    self.assertFalse(os.path.exists(self.path("z.docx")))

    def test_a_spec_in_time_renders(self):
        w = Writer(json.dumps(DOC).encode())
        run = self.through(w, "render", "-", "-o", "z.pdf", "--read-timeout", "30")
        self.assertEqual(run.code, 0, run.out)
        self.assertTrue(os.path.exists(self.path("z.pdf")))

    def test_bad_values(self):
        for v in ("x", "-1", "1.5", "86401"):
            run = self.quire("check", "-", "--read-timeout", v)
            self.assertEqual(run.code, 2, run.out)
            self.assertIn("--read-timeout needs whole seconds", run.out)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
