#!/usr/bin/python3
"""Abuse, the CLI's inputs and outputs (issue 37 rows 13, 14, 22, 23),
inputs generated here. Row 13: read -o naming the file read (by another
path too) exits 2 and leaves the file as it was. Row 14: read, fmt, schema,
list, show, render and version with stdout on /dev/full exit 3 and say "no
space left". Row 22: read and import of a FIFO (no writer) or a device exit
2 at once. Row 23: the store's global options (--store, --max-bytes) work
before the command."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case, collect, spawn  # noqa: E402
import time  # noqa: E402

DOC = {"title": "T", "blocks": [{"type": "paragraph", "text": "hello"}]}


class CliIO(Case):
    def full(self, *args):
        """Run quire with stdout on /dev/full: (exit code, stderr)."""
        fd = os.open("/dev/full", os.O_WRONLY)
        t0 = time.monotonic()
        r_out, w_out = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.chdir(self.dir)
                os.dup2(fd, 1)
                os.dup2(w_out, 2)
                os.execv(os.environ.get("QUIRE", "build/quire"), ["quire"] + list(args))
            finally:
                os._exit(127)
        os.close(w_out)
        os.close(fd)
        err = b""
        while True:
            d = os.read(r_out, 65536)
            if not d:
                break
            err += d
        os.close(r_out)
        _, status = os.waitpid(pid, 0)
        self.assertLess(time.monotonic() - t0, 60)
        return os.waitstatus_to_exitcode(status), err.decode()

    def test_read_o_own_input(self):  # row 13
        self.spec("d.json", DOC)
        self.assertEqual(self.quire("render", "d.json", "-o", "d.docx").code, 0)
        with open(self.path("d.docx"), "rb") as f:
            before = f.read()
        os.symlink("d.docx", self.path("link.docx"))
        for args in (["d.docx", "-o", "d.docx"], ["link.docx", "-o", "./d.docx"],
                     ["d.docx", "-o", "link.docx"]):
            run = self.quire("read", *args)
            self.assertEqual(run.code, 2, run.out)
            self.assertIn("is the file being read", run.out)
        with open(self.path("d.docx"), "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertEqual(self.quire("read", "d.docx", "-o", "d2.json").code, 0)

    def test_stdout_full(self):  # row 14
        self.spec("d.json", DOC)
        self.assertEqual(self.quire("render", "d.json", "-o", "d.docx").code, 0)
        store = self.path("st")
        self.assertEqual(self.quire("create", "d.json", "-k", "document", "--store", store).code, 0)
        aid = self.quire("list", "--store", store).result["artifacts"][0]["artifact_id"]
        for args in (["read", "d.docx"], ["fmt", "d.json"], ["schema", "-k", "document"],
                     ["list", "--store", store], ["show", aid, "--store", store],
                     ["render", "d.json", "-o", "e.docx"], ["version"], ["check", "d.json"]):
            code, err = self.full(*args)
            self.assertEqual(code, 3, "%s: %s" % (args, err))
            self.assertIn("No space left on device", err)

    def test_fifo_and_device(self):  # row 22
        os.mkfifo(self.path("f.docx"))
        for args in (["read", "f.docx"], ["import", "f.docx", "--store", self.path("st")],
                     ["read", "/dev/zero"], ["import", "/dev/zero", "--store", self.path("st")]):
            run = self.quire(*args)
            self.assertEqual(run.code, 2, run.out)
            self.assertRegex(run.out, "is a (FIFO|device), not a file")
        self.assertFalse(os.path.exists(self.path("st")))

    def test_global_options_first(self):  # row 23
        self.spec("d.json", DOC)
        store = self.path("st")
        run = self.quire("--store", store, "--max-bytes", "1000000", "create", "d.json", "-k", "document")
        self.assertEqual(run.code, 0, run.out)
        run = self.quire("--max-bytes=1000000", "--store=" + store, "list")
        self.assertEqual((run.code, run.result["count"]), (0, 1), run.out)

    def test_title_and_reserved_id(self):  # row 23
        self.spec("d.json", DOC)
        store = self.path("st")
        run = self.quire("create", "d.json", "-k", "document", "--store", store, "--title",
                         b"\xff\xfe".decode("latin-1").encode("latin-1").decode("utf-8", "surrogateescape"))
        self.assertEqual(run.code, 2, run.out)
        self.assertIn("not valid UTF-8", run.out)
        run = self.quire("create", "d.json", "-k", "document", "--store", store, "--id", "blobs")
        self.assertEqual(run.code, 2, run.out)
        self.assertIn("reserved id", run.out)
        self.assertFalse(os.path.exists(store))

    def test_edit_racing_a_delete(self):  # row 23
        """An edit that waits for the artifact's lock while a delete holds it
        and removes the artifact says so (exit 5, not_found), not "run quire
        fsck". The delete is played by hand, step for step as
        qr_folder_delete_if does it under the lock: the folder renamed out
        of the store, emptied, removed."""
        import fcntl
        self.spec("d.json", DOC)
        self.spec("app.json", {"blocks": [{"type": "paragraph", "text": "more"}]})
        store = self.path("st")
        run = self.quire("create", "d.json", "-k", "document", "--id", "a", "--store", store)
        self.assertEqual(run.code, 0, run.out)
        for cmd in (["edit", "a", "--append", "app.json"], ["delete", "a"]):
            if not os.path.isdir(os.path.join(store, "a")):
                run = self.quire("create", "d.json", "-k", "document", "--id", "a", "--store", store)
                self.assertEqual(run.code, 0, run.out)
            lock = os.open(os.path.join(store, "a", ".lock"), os.O_RDWR | os.O_CREAT)
            fcntl.flock(lock, fcntl.LOCK_EX)
            t0 = time.monotonic()
            pid, r_out, r_err = spawn(cmd + ["--store", store], self.dir)
            time.sleep(1.5)  # it renders (edit) and waits for the lock
            gone = os.path.join(store, ".tmp.del.a.test")
            os.rename(os.path.join(store, "a"), gone)
            for name in os.listdir(gone):
                os.unlink(os.path.join(gone, name))
            os.rmdir(gone)
            os.close(lock)
            run = collect(pid, r_out, r_err, t0)
            self.assertEqual(run.code, 5, run.out + run.err)
            self.assertEqual(run.result["code"], "not_found")
            self.assertEqual(run.result["error"],
                             'artifact "a" was deleted by another command while this one waited for it')
            self.assertNotIn("fsck", run.out + run.err)
            self.assertIn("quire list", run.err)


if __name__ == "__main__":
    unittest.main(verbosity=2)
