#!/usr/bin/python3
"""One document, the same in every format (issue 18 item 1): over every
document fixture, quire's PDF and LibreOffice's PDF of quire's .docx have
the same page-number footer on page 1 ("1 / N", N each's own page count),
the same list labels in the same order (pdftotext: "1." "a." "i." "•" "◦"
"▪" at the start of a line), and the same number of tables (Table elements
of both tagged PDFs). The html of the same spec numbers nested lists with
the same formats (<ol type>)."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

LABEL = re.compile(r"^\s*([\u2022\u25e6\u25aa]|\d{1,3}\.|[a-z]{1,3}\.)\s+\S", re.M)
LO_TAGGED = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"}}'


def page_count(pdf):
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", out, re.M).group(1))


def footer(pdf):
    lines = [ln.strip() for ln in fid.pdftotext(pdf, "-f", "1", "-l", "1").splitlines() if ln.strip()]
    # pdftotext wraps text on a page with right-to-left lines in bidi
    # embedding marks: not part of the footer
    return re.sub(r"[\s\u200e\u200f\u202a-\u202e]+", "", lines[-1]) if lines else ""


def labels(pdf):
    return LABEL.findall(fid.pdftotext(pdf))


def tables(pdf):
    objs = fid.pdf_objects(pdf)
    if "/StructTreeRoot" not in fid.catalog(objs):
        return 0
    # a chart's data table (for screen readers) is no table on the page
    return sum(1 for t, e in fid.struct_elements(objs)
               if t == "Table" and not fid.is_chart_data(objs, e))


class CrossFormat(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not fid.have("soffice"):
            raise unittest.SkipTest("soffice not installed")
        cls.tmp = fid.tmpdir()

    def lo_pdf(self, docx):
        outdir = os.path.join(self.tmp, "lo")
        fid.soffice_convert(LO_TAGGED, [docx], outdir, timeout=300,
                            profile=os.path.join(self.tmp, "lo-profile"))
        out = os.path.join(outdir, os.path.splitext(os.path.basename(docx))[0] + ".pdf")
        self.assertTrue(os.path.exists(out), "LibreOffice could not convert " + docx)
        return out

    def test_every_document_fixture(self):
        n = 0
        for name, spec, path in fid.document_fixtures():
            with self.subTest(fixture=name):
                qpdf = os.path.join(self.tmp, name + ".pdf")
                docx = os.path.join(self.tmp, name + ".docx")
                fid.render(path, qpdf, "pdf")
                fid.render(path, docx, "document")
                lo = self.lo_pdf(docx)
                page = spec.get("page") if isinstance(spec.get("page"), dict) else {}
                if page.get("first_page") is False:
                    pass  # page 1 is bare: its last line is the body's
                elif "footer" in page:  # the spec's own footer: the same in both
                    self.assertEqual(footer(qpdf), footer(lo))
                else:
                    self.assertEqual(footer(qpdf), "1/%d" % page_count(qpdf))
                    self.assertEqual(footer(lo), "1/%d" % page_count(lo))
                self.assertEqual(labels(qpdf), labels(lo))
                self.assertEqual(tables(qpdf), tables(lo))
                n += 1
        self.assertGreater(n, 5)

    def test_nested_labels_and_empty_tables(self):
        spec = {"title": "ليست", "blocks": [
            {"type": "list", "ordered": True, "items": [
                {"text": "one", "items": [{"text": "two", "items": [{"text": "three", "items": ["four"]}]}]},
                "five"]},
            {"type": "table", "rows": []},
            {"type": "table", "headers": ["only"], "rows": []},
            {"type": "paragraph", "text": "end"}]}
        qpdf = os.path.join(self.tmp, "nested.pdf")
        docx = os.path.join(self.tmp, "nested.docx")
        html = os.path.join(self.tmp, "nested.html")
        fid.render(spec, qpdf, "pdf")
        fid.render(spec, docx, "document")
        fid.render(spec, html, "html")
        want = ["1.", "a.", "i.", "1.", "2."]
        self.assertEqual(labels(qpdf), want)
        self.assertEqual(labels(self.lo_pdf(docx)), want)
        self.assertEqual(tables(qpdf), 1)  # the table with neither header nor rows is drawn nowhere
        self.assertEqual(tables(self.lo_pdf(docx)), 1)
        with open(html) as f:
            h = f.read()
        css = {}
        for sels, typ in re.findall(r"([a-z ,]+)\{list-style-type:([a-z-]+)\}", h):
            for sel in sels.split(","):
                css[sel] = typ
        self.assertEqual(css.get("ol ol"), "lower-alpha")
        self.assertEqual(css.get("ol ol ol"), "lower-roman")
        self.assertEqual(css.get("ol ol ol ol"), "decimal")
        self.assertEqual(css.get("ol ol ol ol ol ol ol ol ol"), "lower-roman")
        self.assertEqual(h.count("<table"), 1)
        # the title: plain's size and centring (layout/style.h, put_theme_css)
        self.assertIn("h1{color:#000000;font-size:2.18em;text-align:center;", h)
        self.assertIn("overflow-wrap:anywhere}", h.split("}")[0] + "}")  # on body: every text
        import zipfile
        with zipfile.ZipFile(docx) as z:
            doc = z.read("word/document.xml").decode()
            self.assertIn('<w:jc w:val="center"/>', doc.split("</w:p>")[0])  # the RTL title is centred
            ftr = z.read("word/footer1.xml").decode()
        self.assertIn('w:instr=" PAGE "', ftr)
        self.assertIn('w:instr=" NUMPAGES "', ftr)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
