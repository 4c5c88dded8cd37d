#!/usr/bin/python3
"""Tagged PDF (issue 18 item 6): over every document fixture, quire's PDF
has a structure tree with one H<level> element per heading, one Figure with
/Alt (the image's alt text) per image, one Table per table whose first row
holds TH cells when the table has headers, one L per top-level list, and the
catalog's /Lang is the spec's lang (else "en"); /DisplayDocTitle when there
is a title; qpdf --check finds nothing wrong; no text outside marked content
(a qpdf QDF scan of every page's content), the page footer a pagination
artifact (issue 36 item 4)."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402


class TaggedPdf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def check(self, name, spec, path=None):
        out = os.path.join(self.tmp, name + ".pdf")
        fid.render(path or spec, out, "pdf")
        chk = subprocess.run(["qpdf", "--check", out], capture_output=True, text=True)
        self.assertEqual(chk.returncode, 0, name + ": " + chk.stdout + chk.stderr)
        objs = fid.pdf_objects(out)
        cat = fid.catalog(objs)
        self.assertEqual(cat.get("/MarkInfo", {}).get("/Marked"), True, name)
        self.assertEqual(fid.pdf_text_string(cat["/Lang"]), spec.get("lang") or "en", name)
        if spec.get("title"):
            self.assertEqual(cat["/ViewerPreferences"]["/DisplayDocTitle"], True, name)
        els = fid.struct_elements(objs)
        self.assertEqual(els[0][0], "Document", name)
        blocks = fid.spec_blocks(spec)
        # "notes": "endnotes" (issue 32) closes the document with a "Notes" H2
        endnotes = spec.get("notes") == "endnotes" and '"footnote"' in json.dumps(spec)
        for lv in range(1, 7):
            want = sum(1 for b in blocks if b.get("type") == "heading" and
                       min(max(int(b.get("level", 2 if spec.get("kind") == "html" else 1)), 1), 6) == lv)
            want += 1 if endnotes and lv == 2 else 0
            want += 1 if spec.get("title") and lv == 1 else 0  # the title is an H1
            got = sum(1 for t, _ in els if t == "H%d" % lv)
            self.assertEqual(got, want, "%s: H%d" % (name, lv))
        # images and charts (test_tagged_charts.py: a chart's alt falls back to its title)
        images = [b for b in blocks if b.get("type") in ("image", "chart")]
        figures = [e for t, e in els if t == "Figure"]
        self.assertEqual(len(figures), len(images), name)
        for im, fe in zip(images, figures):
            if im.get("alt"):
                alt = "".join(" " if ord(ch) < 32 else ch for ch in im["alt"])
                self.assertEqual(fid.pdf_text_string(fe["/Alt"]), alt, name)
        # a table with neither headers nor rows is drawn nowhere (layout/style.h);
        # a chart's data table (its cells' /ActualText) is test_tagged_charts.py's
        tables = [b for b in blocks if b.get("type") == "table" and (b.get("headers") or b.get("rows"))]
        tels = [e for t, e in els if t == "Table" and not fid.is_chart_data(objs, e)]
        self.assertEqual(len(tels), len(tables), name)
        for tb, te in zip(tables, tels):
            kids = te["/K"] if isinstance(te["/K"], list) else [te["/K"]]
            rows = [objs[k] for k in kids if isinstance(k, str) and objs.get(k, {}).get("/S") == "/TR"]
            cells = lambda r: [objs[k]["/S"] for k in (r["/K"] if isinstance(r["/K"], list) else [r["/K"]])
                               if isinstance(k, str) and isinstance(objs.get(k), dict) and "/S" in objs[k]]
            th_rows = [r for r in rows if "/TH" in cells(r)]
            # "header_rows" (issue 32) counts the header rows, "headers" included
            heads = 1 if tb.get("headers") else 0
            self.assertEqual(len(th_rows), tb.get("header_rows", heads), name)
            self.assertEqual(len(rows), len(tb.get("rows") or []) + heads, name)
        lists = [b for b in blocks if b.get("type") == "list"]
        top_l = [e for t, e in els if t == "L" and objs.get(e.get("/P"), {}).get("/S") == "/Document"]
        self.assertEqual(len(top_l), len(lists), name)
        # every text inside marked content: a structure element's (an MCID)
        # or an artifact, never both; the page footer a pagination artifact
        pages = fid.marked_text(out, self.tmp)
        footers = 0
        for no, ops in enumerate(pages, 1):
            for op, stack in ops:
                mcid = [tag for tag, props in stack if "/MCID" in props]
                art = [props for tag, props in stack if tag == "/Artifact"]
                self.assertTrue(mcid or art, "%s page %d: %s outside marked content" % (name, no, op))
                self.assertFalse(mcid and art, "%s page %d: an artifact inside %r" % (name, no, stack))
                # a footer, or a header and a footer in one text object
                footers += any("/Pagination" in p and "/Header" not in p for p in art)
        if spec.get("page", {}).get("footer", True) is not False:
            self.assertGreaterEqual(footers, len(pages) - 1, "%s: footers as artifacts" % name)
        return els

    def test_every_document_fixture(self):
        n = 0
        for name, spec, path in fid.document_fixtures():
            with self.subTest(fixture=name):
                self.check(name, spec, path)
                n += 1
        self.assertGreater(n, 5)

    def test_lang_alt_and_list_items(self):
        png = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
        spec = {"title": "Rapport", "lang": "fr-CA", "blocks": [
            {"type": "heading", "text": "Un", "level": 3},
            {"type": "list", "ordered": True, "items": ["a", {"text": "b", "items": ["c", "d"]}, "e"]},
            {"type": "image", "src": "data:image/png;base64," + png, "alt": "Graphique « été » 📈"},
            {"type": "table", "headers": ["x", "y"], "rows": [["1", "2"], ["3", "4"]]}]}
        els = self.check("inline", spec)
        kinds = [t for t, _ in els]
        self.assertEqual(kinds.count("LI"), 5)
        self.assertEqual(kinds.count("Lbl"), 5)
        self.assertEqual(kinds.count("L"), 2)  # the nested list sits in an LBody
        self.assertEqual(kinds.count("TD"), 4)
        self.assertEqual(kinds.count("TH"), 2)


    def test_title_posing_as_catalog(self):
        # the info dictionary's title comes before the catalog: it must not
        # receive the catalog's /Lang
        spec = {"title": "x\n<< /Type /Catalog\n) (<< /Type /StructElem\n   /S /Figure\n", "lang": "de",
                "blocks": [{"type": "paragraph", "text": "hi"}]}
        self.check("hostile-title", spec)

    def test_figure_first_on_a_page(self):
        # cairo 1.16 failed the whole PDF when a page began with a Figure
        png = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4"
               "nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")
        spec = {"blocks": [{"type": "image", "src": png, "alt": "first"},
                           {"type": "page_break"},
                           {"type": "image", "src": png, "alt": "second"},
                           {"type": "paragraph", "text": "after"}]}
        self.check("figure-first", spec)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
