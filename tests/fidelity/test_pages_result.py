#!/usr/bin/python3
"""`quire render --pages all` (issue 18 item 7): the result's "paths" lists
every file written and "path" is the first of them (both exist); a page out
of range fails with exit 2 and a hint naming the valid range."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402


class PagesResult(unittest.TestCase):
    def test_paths_and_range_hint(self):
        tmp = fid.tmpdir()
        spec = {"blocks": [{"type": "paragraph", "text": "one"}, {"type": "page_break"},
                           {"type": "paragraph", "text": "two"}]}
        out = os.path.join(tmp, "q.png")
        res = json.loads(fid.render(spec, out, "pdf", "--pages", "all").stdout)
        want = [os.path.join(tmp, "q-%d.png" % p) for p in (1, 2)]
        self.assertEqual(res["paths"], want)
        self.assertEqual(res["path"], want[0])
        for p in res["paths"]:
            self.assertTrue(os.path.isfile(p), p)
        self.assertFalse(os.path.exists(out))
        p = subprocess.run([fid.QUIRE, "render", out + ".json", "-o", out, "-k", "pdf", "--page", "5"],
                           capture_output=True, text=True, env=fid.ENV)
        self.assertEqual(p.returncode, 2)
        err = json.loads(p.stdout)["errors"][0]
        self.assertEqual(err["message"], "page 5 is out of range: the document has 2 pages")
        self.assertEqual(err["hint"], "pages are 1 to 2: use --page N with N in that range")
        self.assertFalse(os.path.exists(os.path.join(tmp, "q-5.png")))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
