#!/usr/bin/python3
"""Abuse, a full disk under the store (issue 37 row 23), made here: quire
runs with a preloaded shim (compiled by the test with cc) whose write()
fails with ENOSPC on every file but stdin, stdout and stderr, as on a full
disk. `quire create` exits 3 saying the disk is full ("No space left on
device", the hint: free space), never "check permissions", and leaves no
artifact behind. The shim cannot be preloaded under ASan, so .ci/run's
sanitizer step leaves this suite out."""
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import Case  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import require_tool, unittest_exit  # noqa: E402

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>
ssize_t write(int fd, const void *b, size_t n)
{
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (fd > 2) {
        errno = ENOSPC;
        return -1;
    }
    return real(fd, b, n);
}
"""

DOC = {"title": "T", "blocks": [{"type": "paragraph", "text": "hello"}]}


class FullDisk(Case):
    def test_create_on_a_full_disk(self):
        require_tool(self, "cc")
        with open(self.path("shim.c"), "w") as f:
            f.write(SHIM)
        subprocess.run(["cc", "-shared", "-fPIC", "-o", self.path("shim.so"), self.path("shim.c"), "-ldl"],
                       check=True)
        self.spec("d.json", DOC)
        store = self.path("st")
        run = self.quire("store", "init", "--store", store)
        self.assertEqual(run.code, 0, run.out + run.err)
        os.environ["LD_PRELOAD"] = self.path("shim.so")
        try:
            run = self.quire("create", "d.json", "-k", "document", "--store", store)
        finally:
            del os.environ["LD_PRELOAD"]
        self.assertEqual(run.code, 3, run.out + run.err)
        err = run.result["errors"][0]
        self.assertIn("No space left on device", err["message"])
        self.assertIn("the disk holding the store is full", err["hint"])
        self.assertNotIn("permission", err["hint"])
        run = self.quire("list", "--store", store)
        self.assertEqual((run.code, run.result["count"]), (0, 0), run.out)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False).result))
