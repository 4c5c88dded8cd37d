#!/usr/bin/python3
"""Tagged PDF languages and the title (issue 36 item 4): in an English
document, each paragraph and heading whose letters are in another language
carries that language's /Lang (Arabic ar, Urdu ur, Persian fa, Pashto ps,
Sindhi sd, Hebrew he, Japanese ja, Hindi hi), English ones none; Urdu,
Persian, Pashto and Sindhi are told apart from Arabic by their letters in
the PDF, the docx (w:lang w:bidi) and html (lang); the title is an H1; qpdf
--check finds nothing wrong."""
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


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
