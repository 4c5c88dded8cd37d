#!/usr/bin/python3
"""Themes at the CLI (issue 24): `quire schema -k KIND` lists "theme" (the
four built-in names) and "accent" (#RRGGBB) for every kind; an unknown theme
is a spec error at /theme naming every theme, exit 1, no file written; a
typo is answered with the nearest name; a bad accent names its format;
"numbered_headings" numbers the headings in the PDF and the docx alike."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

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

    def test_numbered_headings(self):
        spec = {"theme": "report", "numbered_headings": True, "title": "T", "blocks": [
            {"type": "heading", "text": "Intro"}, {"type": "paragraph", "text": "x"},
            {"type": "heading", "text": "Scope", "level": 2}, {"type": "heading", "text": "Limits", "level": 2},
            {"type": "heading", "text": "Deep", "level": 3}, {"type": "heading", "text": "Results"}]}
        path = os.path.join(self.tmp, "n.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        want = ["1 Intro", "1.1 Scope", "1.2 Limits", "1.2.1 Deep", "2 Results"]
        pdf = os.path.join(self.tmp, "n.pdf")
        self.assertEqual(run("render", path, "-o", pdf).returncode, 0)
        text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
        self.assertEqual([ln for ln in text.splitlines() if ln in want], want)
        import zipfile
        docx = os.path.join(self.tmp, "n.docx")
        self.assertEqual(run("render", path, "-o", docx).returncode, 0)
        with zipfile.ZipFile(docx) as z:
            body = z.read("word/document.xml").decode()
        self.assertIn('<w:t xml:space="preserve">1.2.1 </w:t>', body)
        html = os.path.join(self.tmp, "n.html")
        self.assertEqual(run("render", path, "-o", html, "-k", "document").returncode, 0)
        # without the key nothing is numbered; a non-boolean is an error at its path
        del spec["numbered_headings"]
        with open(path, "w") as f:
            json.dump(spec, f)
        self.assertEqual(run("render", path, "-o", pdf).returncode, 0)
        text = subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True).stdout
        self.assertIn("Scope", text.splitlines())
        p, out = self.render("document", numbered_headings="yes")
        self.assertEqual(p.returncode, 1)
        self.assertEqual(json.loads(p.stdout)["errors"][0]["path"], "/numbered_headings")

    def test_every_theme_renders_every_kind(self):
        for kind in SPECS:
            for theme in THEMES:
                with self.subTest(kind=kind, theme=theme):
                    p, out = self.render(kind, theme=theme, accent="#7B1FA2")
                    self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                    self.assertGreater(os.path.getsize(out), 1000)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
