#!/usr/bin/python3
"""Themes at the CLI (issue 24): `quire schema -k KIND` lists "theme" (the
four built-in names) and "accent" (#RRGGBB) for every kind; an unknown theme
is a spec error at /theme naming every theme, exit 1, no file written; a
typo is answered with the nearest name; a bad accent names its format."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

QUIRE = os.environ.get("QUIRE", "build/quire")
THEMES = ["plain", "report", "light", "dark"]
SPECS = {"document": {"blocks": []}, "presentation": {"slides": []},
         "spreadsheet": {"sheets": [{"name": "S", "rows": []}]}}
EXT = {"document": "docx", "presentation": "pptx", "spreadsheet": "xlsx"}


def run(*args):
    return subprocess.run([QUIRE] + list(args), capture_output=True, text=True, timeout=60)


class ThemesCli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="quire-themes-")

    def render(self, kind, **keys):
        spec = dict(SPECS[kind], **keys)
        path = os.path.join(self.tmp, kind + ".json")
        with open(path, "w") as f:
            json.dump(spec, f)
        out = os.path.join(self.tmp, "out." + EXT[kind])
        p = run("render", path, "-o", out, "-k", kind)
        return p, out

    def test_schema_lists_theme_and_accent(self):
        for kind in SPECS:
            with self.subTest(kind=kind):
                p = run("schema", "-k", kind)
                self.assertEqual(p.returncode, 0, p.stderr)
                props = json.loads(p.stdout)["properties"]
                self.assertEqual(props["theme"]["enum"], THEMES)
                self.assertEqual(props["accent"]["pattern"], "^#[0-9A-Fa-f]{6}$")

    def test_unknown_theme(self):
        for kind in SPECS:
            with self.subTest(kind=kind):
                p, out = self.render(kind, theme="nope")
                self.assertEqual(p.returncode, 1)
                self.assertFalse(os.path.exists(out))
                err = json.loads(p.stdout)["errors"][0]
                self.assertEqual(err["path"], "/theme")
                self.assertEqual(err["message"],
                                 'unknown theme "nope"; the themes are plain, report, light, dark')
                self.assertIn('"plain", "report", "light" or "dark"', err["hint"])

    def test_typo_and_bad_accent(self):
        p, _ = self.render("presentation", theme="drak")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(json.loads(p.stdout)["errors"][0]["hint"], 'did you mean "dark"?')
        p, out = self.render("document", accent="blue")
        self.assertEqual(p.returncode, 1)
        err = json.loads(p.stdout)["errors"][0]
        self.assertEqual(err["path"], "/accent")
        self.assertIn("#RRGGBB", err["hint"])
        self.assertFalse(os.path.exists(out))

    def test_every_theme_renders_every_kind(self):
        for kind in SPECS:
            for theme in THEMES:
                with self.subTest(kind=kind, theme=theme):
                    p, out = self.render(kind, theme=theme, accent="#7B1FA2")
                    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                    self.assertGreater(os.path.getsize(out), 1000)


if __name__ == "__main__":
    r = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if r.wasSuccessful() else 1)
