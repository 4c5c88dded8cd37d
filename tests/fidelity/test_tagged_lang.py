#!/usr/bin/python3
"""Tagged PDF languages and the title (issue 36 item 4): in an English
document, each paragraph and heading whose letters are in another language
carries that language's /Lang (Arabic ar, Urdu ur, Persian fa, Pashto ps,
Sindhi sd, Hebrew he, Japanese ja, Hindi hi), English ones none; Urdu,
Persian, Pashto and Sindhi are told apart from Arabic by their letters in
the PDF, the docx (w:lang w:bidi) and html (lang); the title is an H1; qpdf
--check finds nothing wrong. A phrase in another language inside a
paragraph (Arabic, Japanese in an English one; English in an Arabic one) is
a Span with its own /Lang, its glyphs exactly in that Span's marked
content, the rest of the paragraph in plain Spans (no text of the
paragraph outside marked content); the docx gives the phrase's run its
w:lang, the html its span's lang."""
import os
import re
import subprocess
import sys
import unittest
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

TEXTS = [
    ("en", "The parties agree to the terms below."),
    ("ar", "يتفق الطرفان على الشروط التالية."),
    ("ur", "دونوں فریق درج ذیل شرائط پر متفق ہیں۔ یہ ٹھیک ہے"),
    ("fa", "طرفین با شرایط زیر موافقت می‌کنند. این کتاب خوب است"),
    ("ps", "دواړه خواوې په لاندې شرطونو موافق دي"),
    ("sd", "ٻئي ڌريون هيٺين شرطن تي متفق آهن"),
    ("he", "הצדדים מסכימים לתנאים הבאים."),
    ("ja", "両当事者は以下の条件に同意します。ひらがな"),
    ("hi", "दोनों पक्ष निम्नलिखित शर्तों पर सहमत हैं।"),
]


class TaggedLang(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()
        blocks = [{"type": "heading", "text": "عنوان عربي", "level": 2}]
        blocks += [{"type": "paragraph", "text": t} for _, t in TEXTS]
        cls.spec = {"title": "Languages", "lang": "en", "blocks": blocks}

    def test_pdf_lang_on_foreign_elements(self):
        out = os.path.join(self.tmp, "lang.pdf")
        fid.render(self.spec, out, "pdf")
        chk = subprocess.run(["qpdf", "--check", out], capture_output=True, text=True)
        self.assertEqual(chk.returncode, 0, chk.stdout + chk.stderr)
        objs = fid.pdf_objects(out)
        els = fid.struct_elements(objs)
        kinds = [t for t, _ in els]
        self.assertNotIn("WP", kinds)  # every stand-in replaced
        heads = [e for t, e in els if t in ("H1", "H2")]
        self.assertEqual(len(heads), 2)  # the title is an H1, then the Arabic H2
        self.assertNotIn("/Lang", heads[0])
        self.assertEqual(fid.pdf_text_string(heads[1]["/Lang"]), "ar")
        paras = [e for t, e in els if t == "P"]
        self.assertEqual(len(paras), len(TEXTS))
        for (lang, _), e in zip(TEXTS, paras):
            with self.subTest(lang=lang):
                got = fid.pdf_text_string(e["/Lang"]) if "/Lang" in e else None
                self.assertEqual(got and got.split("-")[0], None if lang == "en" else lang)

    def test_docx_and_html_tell_arabic_script_languages_apart(self):
        docx = os.path.join(self.tmp, "lang.docx")
        fid.render(self.spec, docx, "document")
        with zipfile.ZipFile(docx) as z:
            doc = z.read("word/document.xml").decode()
        html = os.path.join(self.tmp, "lang.html")
        fid.render(self.spec, html, "html")
        with open(html, encoding="utf-8") as f:
            page = f.read()
        for lang in ("ar", "ur", "fa", "ps", "sd"):
            with self.subTest(lang=lang):
                self.assertRegex(doc, r'<w:lang w:bidi="%s(-[A-Za-z]+)?"' % lang)
                self.assertRegex(page, r'lang="%s(-[A-Za-z]+)?"' % lang)
        # Urdu's own letters are not read as Persian or Arabic
        urdu = [p for p in re.findall(r"<w:p>.*?</w:p>", doc) if "ٹھیک" in p]
        self.assertTrue(urdu)
        self.assertNotIn('w:bidi="fa', urdu[0])
        self.assertNotIn('w:bidi="ar', urdu[0])

    def test_lang_on_spans_inside_paragraphs(self):
        spec = {"title": "Spans", "lang": "en", "blocks": [
            {"type": "paragraph",
             "text": "Peace is سلام in Arabic and こんにちは is hello, twice."},
            {"type": "paragraph", "text": "Plain English only."},
            {"type": "paragraph", "text": "مرحبا بالعالم هذه فقرة عربية فيها كلمة English واحدة."}]}
        out = os.path.join(self.tmp, "spans.pdf")
        fid.render(spec, out, "pdf")
        chk = subprocess.run(["qpdf", "--check", out], capture_output=True, text=True)
        self.assertEqual(chk.returncode, 0, chk.stdout + chk.stderr)
        objs = fid.pdf_objects(out)
        els = fid.struct_elements(objs)
        self.assertNotIn("Quote", [t for t, _ in els])  # every stand-in replaced
        paras = [e for t, e in els if t == "P"]
        self.assertEqual(len(paras), 3)

        def kids(e):
            k = e.get("/K")
            return [objs[r] for r in (k if isinstance(k, list) else [k]) if isinstance(r, str)]

        def langs(e):
            return [(k["/S"], fid.pdf_text_string(k["/Lang"]).split("-")[0] if "/Lang" in k else None)
                    for k in kids(e)]
        self.assertEqual(langs(paras[0]), [("/Span", None), ("/Span", "ar"), ("/Span", None),
                                           ("/Span", "ja"), ("/Span", None)])
        self.assertEqual(kids(paras[1]), [])  # no span: the P holds its content itself
        self.assertEqual(fid.pdf_text_string(paras[2]["/Lang"]), "ar")
        self.assertIn(("/Span", "en"), langs(paras[2]))
        self.assertNotIn(("/Span", "ar"), langs(paras[2]))  # its own language: plain Spans
        # the content: each MCID's text; the Latin words of the first
        # paragraph are in its plain Spans, none in the Arabic or Japanese one
        qdf = os.path.join(self.tmp, "spans-qdf.pdf")
        subprocess.run(["qpdf", "--qdf", "--object-streams=disable", out, qdf], check=True)
        with open(qdf, "rb") as f:
            content = "".join(re.findall(r"%% Contents for page \d+\n.*?\nstream\n(.*?)endstream",
                                         f.read().decode("latin-1"), re.S))
        marked, depth, loose = {}, 0, []
        mcid = None
        for tok in re.finditer(r"<< /MCID (\d+) >> BDC|BDC|BMC|EMC|\((?:[^()\\]|\\.)*\)|<[0-9a-fA-F]+>", content):
            t = tok.group(0)
            if tok.group(1):
                depth, mcid = depth + 1, int(tok.group(1))
            elif t in ("BDC", "BMC"):
                depth += 1
            elif t == "EMC":
                depth -= 1
                if depth == 0:
                    mcid = None
            elif depth and mcid is not None:
                marked.setdefault(mcid, []).append(t)
            elif not depth:
                loose.append(t)
        ar, ja = [k for k in kids(paras[0]) if "/Lang" in k][:2]
        latin = lambda m: "".join(x[1:-1] for x in marked.get(m, []) if x.startswith("("))
        self.assertEqual(latin(ar["/K"]).strip(), "")
        self.assertEqual(latin(ja["/K"]).strip(), "")
        self.assertTrue(marked.get(ar["/K"]) and marked.get(ja["/K"]))
        plain = "".join(latin(k["/K"]) for k in kids(paras[0]) if "/Lang" not in k)
        for w in ("Peace", "in Arabic and", "is hello, twice."):
            self.assertIn(w, plain.replace(")", "").replace("(", ""))
        en = [k for k in kids(paras[2]) if "/Lang" in k][0]
        self.assertIn("English", latin(en["/K"]))
        # no text outside marked content (the page footer is an artifact)
        self.assertEqual([x for x in loose if x.startswith("(")], [], loose)
        # docx: the phrases' runs carry their language; html: their spans
        docx = os.path.join(self.tmp, "spans.docx")
        fid.render(spec, docx, "document")
        with zipfile.ZipFile(docx) as z:
            doc = z.read("word/document.xml").decode()
        self.assertRegex(doc, r'<w:lang w:bidi="ar"')
        self.assertRegex(doc, r'<w:lang [^>]*w:eastAsia="ja(-JP)?"')
        html = os.path.join(self.tmp, "spans.html")
        fid.render(spec, html, "html")
        with open(html, encoding="utf-8") as f:
            page = f.read()
        self.assertRegex(page, r'<span lang="ar"[^>]*>[^<]*سلام')
        self.assertRegex(page, r'<span lang="ja(-JP)?"[^>]*>[^<]*こんにちは')


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
