#!/usr/bin/python3
"""CJK flavour per run and Persian (issue 18 item 3): without a spec lang,
a Han-only sentence after kana in the same paragraph, and a Han-only table
cell in a mostly Japanese document, are set in the Japanese face (docx
w:eastAsia font and lang ja-JP on every East Asian run; the PDF embeds no
Chinese face); a Han-only text in a mostly Korean document is Korean;
Persian text is tagged fa (w:lang w:bidi), Arabic stays ar; a spec lang
still decides; html wraps CJK and right-to-left spans in <span lang>."""
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

JA = {"blocks": [{"type": "paragraph", "text": "これは日本語です。東京都。"},
                 {"type": "paragraph", "text": "日本語の文書"},
                 {"type": "table", "headers": ["名前", "都市"], "rows": [["山田", "大阪"]]},
                 {"type": "paragraph", "text": "من می‌خواهم این متن فارسی را بخوانم."},
                 {"type": "paragraph", "text": "مرحبا بالعالم"}]}


def docx_xml(spec, tmp, name):
    out = os.path.join(tmp, name + ".docx")
    fid.render(spec, out, "document")
    with zipfile.ZipFile(out) as z:
        return z.read("word/document.xml").decode()


class CjkPersian(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def test_japanese_document(self):
        xml = docx_xml(JA, self.tmp, "ja")
        ea = re.findall(r'w:eastAsia="([^"]+)"', xml)
        self.assertTrue(ea)
        self.assertEqual({v for v in ea if v.startswith("Noto")}, {"Noto Sans CJK JP"})
        self.assertEqual({v for v in ea if not v.startswith("Noto")}, {"ja-JP"})
        bidi = re.findall(r'w:bidi="([^"]+)"', xml)
        self.assertEqual(bidi, ["fa", "ar"])
        pdf = os.path.join(self.tmp, "ja.pdf")
        fid.render(JA, pdf, "pdf")
        fonts = subprocess.run(["pdffonts", pdf], capture_output=True, text=True).stdout
        self.assertIn("NotoSansCJKjp", fonts)
        self.assertNotIn("NotoSansCJKsc", fonts)

    def test_html_span_lang(self):
        out = os.path.join(self.tmp, "ja.html")
        fid.render(JA, out, "html")
        with open(out, encoding="utf-8") as f:
            h = f.read()
        self.assertIn('<html lang="en"', h)
        self.assertIn('<p><span lang="ja-JP">これは日本語です。東京都。</span></p>', h)
        self.assertIn('<td><span lang="ja-JP">山田</span></td>', h)
        self.assertIn('<span lang="fa">من می‌خواهم این متن فارسی را بخوانم.</span>', h)
        self.assertIn('<span lang="ar">مرحبا بالعالم</span>', h)
        # the page's own language needs no span
        ar = {"lang": "ar", "blocks": [{"type": "paragraph", "text": "مرحبا بالعالم and English"}]}
        out = os.path.join(self.tmp, "ar.html")
        fid.render(ar, out, "html")
        with open(out, encoding="utf-8") as f:
            self.assertNotIn("<span", f.read())

    def test_korean_document_and_spec_lang(self):
        ko = {"blocks": [{"type": "paragraph", "text": "안녕하세요 세계. 이것은 한국어 텍스트입니다."},
                         {"type": "paragraph", "text": "大韓民國"}]}
        ea = set(re.findall(r'w:eastAsia="(Noto[^"]+)"', docx_xml(ko, self.tmp, "ko")))
        self.assertEqual(ea, {"Noto Sans CJK KR"})
        zh = dict(JA, lang="zh-CN")
        ea = set(re.findall(r'w:eastAsia="(Noto[^"]+)"', docx_xml(zh, self.tmp, "zh")))
        self.assertEqual(ea, {"Noto Sans CJK SC"})
        # no kana or hangul anywhere: Chinese
        han = {"blocks": [{"type": "paragraph", "text": "你好，世界。"}]}
        ea = set(re.findall(r'w:eastAsia="(Noto[^"]+)"', docx_xml(han, self.tmp, "han")))
        self.assertEqual(ea, {"Noto Sans CJK SC"})
        # Urdu letters: not Persian
        ur = {"blocks": [{"type": "paragraph", "text": "یہ اردو ہے، ٹھیک ہے۔"}]}
        self.assertNotIn('w:bidi="fa"', docx_xml(ur, self.tmp, "ur"))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
