#!/usr/bin/python3
"""The smaller items of issue 36 (point 8), each failing before its fix:

- a heading's own numbering ("1. Parties") is no "markdown list number":
  no warning for a heading block or a legacy section heading, while a
  paragraph starting "1. " still gets one."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402


class SmallItems(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def warnings(self, spec, kind="pdf"):
        out = os.path.join(self.tmp, "w." + ("pdf" if kind == "pdf" else "docx"))
        p = fid.render(spec, out, kind)
        return json.loads(p.stdout)["warnings"]

    def test_numbered_heading_is_no_list(self):
        w = self.warnings({"blocks": [
            {"type": "heading", "text": "1. Parties"},
            {"type": "heading", "text": "12) Term", "level": 2},
            {"type": "paragraph", "text": "1. looks like a list"}]})
        self.assertEqual([x["path"] for x in w], ["/blocks/2/text"], w)
        w = self.warnings({"sections": [{"heading": "2. Payment", "paragraphs": ["Due in 30 days."]}]},
                          "document")
        self.assertEqual(w, [])


if __name__ == "__main__":
    unittest.main()
