#!/usr/bin/python3
"""test_html.py: the html backend, end to end through the quire CLI.

Every output is parsed with html5lib in strict mode (any parse error fails),
and compared as an element tree (tag names + attribute names, in order) with
the tree the spec asks for, so no spec text can become markup. Also: the
DocsGPT injection cases (reference §9), direction on right-to-left blocks,
runs, nested lists, table widths, images as data: URIs, page breaks, legacy
sections, control characters, determinism and the D1 timing.

env: QUIRE (the built binary), QUIRE_SOURCE_DIR, QUIRE_SHARED.
"""
import base64
import ctypes
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import unittest

import html5lib

QUIRE = os.environ.get("QUIRE")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "bindings", "python"))
import quire as quire_binding  # noqa: E402
from shared import SHARED, require, unittest_exit  # noqa: E402
FIX = os.path.join(SRC, "fixtures")

PNG_URI = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAJ0lEQVR42g3HMQE"
           "AMAwDoAirnIiosIpA1sZHEhMbF0lNbV1/GJbjASxeEklrMvvnAAAAAElFTkSuQmCC")

TMP = tempfile.mkdtemp(prefix="quire-html-")


def run(args, **kw):
    return subprocess.run([QUIRE] + args, capture_output=True, **kw)


def render_file(spec_path, out=None, extra=()):
    """Render spec_path to html; return (exit code, result dict, bytes or None)."""
    if out is None:
        out = os.path.join(TMP, "out-%d.html" % time.monotonic_ns())
    p = run(["render", spec_path, "-o", out] + list(extra))
    lines = p.stdout.decode().splitlines()
    assert len(lines) == 1, "expected one JSON line, got %r (stderr %r)" % (p.stdout, p.stderr)
    res = json.loads(lines[0])
    data = None
    if os.path.exists(out):
        with open(out, "rb") as f:
            data = f.read()
    return p.returncode, res, data


def render_spec(spec, extra=()):
    path = os.path.join(TMP, "spec-%d.json" % time.monotonic_ns())
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, ensure_ascii=False)
    return render_file(path, extra=extra)


def parse_strict(data):
    """Parse bytes as HTML5; any parse error raises. Returns the etree root."""
    text = data.decode("utf-8")  # strict: must be UTF-8
    parser = html5lib.HTMLParser(strict=True, tree=html5lib.getTreeBuilder("etree"),
                                 namespaceHTMLElements=False)
    return parser.parse(text)


def elements(root):
    """All elements in document order as (tag, (attribute names...))."""
    out = []
    for el in root.iter():
        tag = el.tag if isinstance(el.tag, str) else "#comment"
        out.append((tag, tuple(el.attrib.keys())))
    return out


def text_of(el):
    return "".join(el.itertext())


def body_of(root):
    return root.find("body")


def ok_html(tc, spec_or_path, extra=()):
    if isinstance(spec_or_path, str):
        rc, res, data = render_file(spec_or_path, extra=extra)
    else:
        rc, res, data = render_spec(spec_or_path, extra=extra)
    tc.assertEqual(rc, 0, res)
    tc.assertEqual(res["status"], "ok")
    tc.assertEqual(res["mime_type"], "text/html")
    tc.assertEqual(res["size"], len(data))
    return data, parse_strict(data)


HEAD = [("html", ("lang",)), ("head", ()), ("meta", ("charset",)), ("meta", ("name", "content")),
        ("title", ()), ("style", ()), ("body", ())]


def fixture(name):
    return os.path.join(FIX, name, "spec.json")


def load_fixture(name):
    with open(fixture(name), encoding="utf-8") as f:
        return json.load(f)


class Injection(unittest.TestCase):
    """Reference §9: markup in any spec text is shown literally."""

    def test_injection_fixture_tree(self):
        data, root = ok_html(self, fixture("doc-injection"))
        want = HEAD + [
            ("h1", ()),
            ("h2", ()),
            ("p", ()),
            ("p", ()), ("em", ()), ("code", ()), ("a", ("href", "rel")),
            ("ul", ()), ("li", ()), ("li", ()), ("ul", ()), ("li", ()),
            ("table", ()), ("thead", ()), ("tr", ()), ("th", ()), ("th", ()),
            ("tbody", ()), ("tr", ()), ("td", ()), ("td", ()),
            ("tr", ()), ("td", ()), ("strong", ()), ("td", ()),
            ("pre", ()), ("code", ()),
            ("figure", ()), ("img", ("src", "alt", "width", "height")),
            ("p", ()),
        ]
        self.assertEqual(elements(root), want)

    def test_injection_fixture_text_is_literal(self):
        spec = load_fixture("doc-injection")
        data, root = ok_html(self, fixture("doc-injection"))
        b = spec["blocks"]
        self.assertEqual(root.find("head/title").text, spec["title"])
        body = body_of(root)
        self.assertEqual(text_of(body.find("h1")), spec["title"])
        self.assertEqual(text_of(body.find("h2")), b[0]["text"])
        ps = body.findall("p")
        self.assertEqual(text_of(ps[0]), b[1]["text"])
        runs = b[2]["runs"]
        self.assertEqual(text_of(ps[1].find("em")), runs[0]["text"])
        self.assertEqual(text_of(ps[1].find("code")), runs[1]["text"])
        a = ps[1].find("a")
        self.assertEqual(a.get("href"), runs[2]["link"])
        self.assertEqual(a.get("rel"), "noopener noreferrer")
        self.assertEqual(text_of(a), runs[2]["text"])
        self.assertEqual(text_of(ps[2]), b[7]["text"])
        lis = body.findall(".//li")
        self.assertEqual(lis[0].text, b[3]["items"][0])
        self.assertEqual(lis[1].text, b[3]["items"][1]["text"])
        self.assertEqual(text_of(lis[2]), b[3]["items"][1]["items"][0])
        ths = [text_of(t) for t in body.findall(".//th")]
        self.assertEqual(ths, b[4]["headers"])
        tds = [text_of(t) for t in body.findall(".//td")]
        self.assertEqual(tds, [b[4]["rows"][0][0], b[4]["rows"][0][1],
                               b[4]["rows"][1][0]["runs"][0]["text"], b[4]["rows"][1][1]])
        self.assertEqual(text_of(body.find("pre/code")), b[5]["text"])
        self.assertEqual(body.find("figure/img").get("alt"), b[6]["alt"])
        # Nothing active anywhere.
        for tag, attrs in elements(root):
            self.assertNotIn(tag, ("script", "iframe", "svg", "object", "embed", "link", "style_", "#comment"))
            for at in attrs:
                self.assertFalse(at.lower().startswith("on"), (tag, at))
        # The raw bytes escape all five characters inside text.
        self.assertIn(b"&lt;script&gt;alert(1)&lt;/script&gt;", data)
        self.assertIn(b"&quot;&gt;&lt;svg onload=alert(3)&gt;", data)
        self.assertIn(b"&amp;x=&#39;y&#39;", data)
        self.assertIn(b"&amp;amp; &amp;lt;", data)

    def test_docsgpt_cases_in_every_position(self):
        payloads = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
                    "</code></pre><script>x()</script>", "<b>bold</b><i>i</i><u>u</u><em>e</em>",
                    "\"'><a href=javascript:alert(1)>x</a>"]
        for s in payloads:
            spec = {"title": s, "blocks": [
                {"type": "heading", "text": s, "level": 3},
                {"type": "paragraph", "runs": [{"text": s, "bold": True}, {"text": s, "code": True}]},
                {"type": "list", "items": [s, {"text": s, "items": [s]}]},
                {"type": "table", "headers": [s], "rows": [[s], [{"runs": [{"text": s, "italic": True}]}]]},
                {"type": "code", "text": s}]}
            data, root = ok_html(self, spec)
            want = HEAD + [("h1", ()), ("h4", ()), ("p", ()), ("strong", ()), ("code", ()),
                           ("ul", ()), ("li", ()), ("li", ()), ("ul", ()), ("li", ()),
                           ("table", ()), ("thead", ()), ("tr", ()), ("th", ()), ("tbody", ()),
                           ("tr", ()), ("td", ()), ("tr", ()), ("td", ()), ("em", ()),
                           ("pre", ()), ("code", ())]
            self.assertEqual(elements(root), want, s)
            body = body_of(root)
            self.assertEqual(root.find("head/title").text, s)
            for path in ("h1", "h4", "p/strong", "p/code", "table/thead/tr/th", "pre/code"):
                self.assertEqual(text_of(body.find(path)), s, path)
            self.assertEqual([li.text for li in body.iter("li")], [s, s, s])
            self.assertEqual([text_of(td) for td in body.iter("td")], [s, s])

    def test_unsafe_links_rejected_at_compile_time(self):
        for url in ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>x</script>",
                    "vbscript:msgbox(1)", "file:///etc/passwd"]:
            spec = {"blocks": [{"type": "paragraph", "runs": [{"text": "x", "link": url}]}]}
            out = os.path.join(TMP, "bad-link.html")
            path = os.path.join(TMP, "bad-link.json")
            with open(path, "w") as f:
                json.dump(spec, f)
            rc, res, data = render_file(path, out=out)
            self.assertEqual(rc, 1, (url, res))
            self.assertEqual(res["status"], "error")
            self.assertIn("/blocks/0/runs/0/link", [e["path"] for e in res["errors"]], res)
            self.assertIsNone(data, "no output file may be left")


class Validity(unittest.TestCase):
    def doc_fixtures(self):
        names = []
        for name in sorted(os.listdir(FIX)):
            p = fixture(name)
            if not os.path.isfile(p):
                continue
            with open(p, encoding="utf-8") as f:
                try:
                    spec = json.load(f)
                except ValueError:
                    continue
            if isinstance(spec, dict) and ("blocks" in spec or "sections" in spec) \
                    and "slides" not in spec and "sheets" not in spec:
                names.append(name)
        return names

    def test_every_document_fixture_is_strict_html5_and_deterministic(self):
        names = self.doc_fixtures()
        for mine in ("doc-every-block", "doc-injection", "doc-multiscript", "doc-legacy-sections",
                     "doc-legacy-plus-blocks", "doc-services-agreement"):
            self.assertIn(mine, names)
        for name in names:
            with self.subTest(fixture=name):
                a, root = ok_html(self, fixture(name))
                b, _ = ok_html(self, fixture(name))
                self.assertEqual(a, b, "same spec, same bytes")
                self.assertTrue(a.startswith(b"<!doctype html>\n<html lang=\""))
                # the document's properties (issue 32) add <meta name=...> after
                # the title: the head is otherwise always the same
                els = elements(root)
                props = [e for e in els[5:] if e == ("meta", ("name", "content"))]
                self.assertEqual([e for e in els[:5]] + [e for e in els[5:] if e not in props][:2],
                                 HEAD, name)
                # Self-contained: nothing is fetched from outside.
                for el in root.iter():
                    if not isinstance(el.tag, str):
                        continue
                    self.assertNotIn(el.tag, ("script", "link", "iframe", "object", "embed"))
                    if el.tag == "img":
                        self.assertTrue(el.get("src").startswith(("data:image/png;base64,",
                                                                  "data:image/jpeg;base64,")))
                    if el.tag == "a" and el.get("href", "").startswith("#"):
                        # an internal link (issue 32: "#id", footnotes, the
                        # contents): its target is in the page
                        target = el.get("href")[1:]
                        self.assertTrue(any(e.get("id") == target for e in root.iter()
                                            if isinstance(e.tag, str)), target)
                    elif el.tag == "a":
                        self.assertRegex(el.get("href"), r"^(?i:https?:|mailto:)")
                        self.assertEqual(el.get("rel"), "noopener noreferrer")

    def test_control_characters_are_replaced(self):
        bad = "a\u0001b\u000bc\u000cd\u007fe\u0085f\ufffeg\uffffh\ufdd0i\U0001fffej\u001fk"
        want = "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf\ufffdg\ufffdh\ufffdi\ufffdj\ufffdk"
        spec = {"title": bad, "blocks": [
            {"type": "paragraph", "text": bad + "\tz"},
            {"type": "code", "text": bad + "\r\nz\rw"},
            {"type": "image", "src": PNG_URI, "alt": bad},
            {"type": "table", "rows": [[bad]]}]}
        data, root = ok_html(self, spec)
        text = data.decode("utf-8")
        self.assertIsNone(re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff"
                                    "\U0001fffe\U0001ffff]", text))
        self.assertNotIn("\r", text)
        body = body_of(root)
        self.assertEqual(root.find("head/title").text, want)
        self.assertEqual(text_of(body.find("h1")), want)
        self.assertEqual(text_of(body.find("p")), want + "\tz")
        self.assertEqual(text_of(body.find("pre/code")), want + "\nz\nw")
        self.assertEqual(body.find("figure/img").get("alt"), want)
        self.assertEqual(text_of(body.find(".//td")), want)


class Direction(unittest.TestCase):
    def test_multiscript_rtl_exactly_on_arabic_persian_hebrew(self):
        spec = load_fixture("doc-multiscript")
        data, root = ok_html(self, fixture("doc-multiscript"))
        rtl_texts = []
        for blk in spec["blocks"]:
            t = blk.get("text", "")
            if re.search("[\u0590-\u05ff\u0600-\u06ff]", t):
                rtl_texts.append(t)
        self.assertGreaterEqual(len(rtl_texts), 3, "the fixture has Arabic, Persian and Hebrew")
        got = []
        for el in root.iter():
            if isinstance(el.tag, str) and "dir" in el.attrib:
                self.assertEqual(el.get("dir"), "rtl", el.tag)
                got.append(text_of(el))
        self.assertEqual(got, rtl_texts)
        # ZWNJ survives in the Persian paragraph.
        self.assertTrue(any("\u200c" in t for t in got))
        # Every paragraph of the spec is there, in order.
        body = body_of(root)
        self.assertEqual([text_of(p) for p in body.findall("p")],
                         [b["text"] for b in spec["blocks"] if b["type"] == "paragraph"])

    def test_rtl_lists_and_tables(self):
        spec = {"blocks": [
            {"type": "list", "items": ["שלום", "עולם", {"text": "English item", "items": ["עברית"]}]},
            {"type": "list", "items": ["one", "مرحبا", "123"]},
            {"type": "table", "headers": ["الاسم", "Name"], "rows": [["علي", 5]]},
            {"type": "heading", "text": "123 سلام world"},
            {"type": "paragraph", "text": "Version 2 (نسخه)"}]}
        data, root = ok_html(self, spec)
        body = body_of(root)
        ul1, ul2 = body.findall("ul")
        self.assertEqual(ul1.get("dir"), "rtl")
        li = ul1.findall("li")
        self.assertEqual([x.get("dir") for x in li], [None, None, "ltr"])
        inner = li[2].find("ul")
        self.assertEqual(inner.get("dir"), "rtl")
        self.assertIsNone(inner.find("li").get("dir"))
        self.assertIsNone(ul2.get("dir"))
        self.assertEqual([x.get("dir") for x in ul2.findall("li")], [None, "rtl", None])
        table = body.find("table")
        self.assertEqual(table.get("dir"), "rtl")
        self.assertEqual([c.get("dir") for c in table.iter("th")], [None, "ltr"])
        tds = list(table.iter("td"))
        self.assertIsNone(tds[0].get("dir"))
        self.assertEqual(tds[1].get("class"), "num")
        self.assertEqual(body.find("h3").get("dir"), "rtl")
        self.assertIsNone(body.find("p").get("dir"))

    def test_lang(self):
        data, root = ok_html(self, {"lang": "fa-IR", "blocks": []})
        self.assertEqual(root.get("lang"), "fa-IR")
        data, root = ok_html(self, {"blocks": []})
        self.assertEqual(root.get("lang"), "en")
        self.assertEqual(root.find("head/title").text, "Report")
        self.assertEqual(list(body_of(root)), [])


class Blocks(unittest.TestCase):
    def test_every_block(self):
        spec = load_fixture("doc-every-block")
        data, root = ok_html(self, fixture("doc-every-block"))
        body = body_of(root)
        kids = list(body)
        self.assertEqual(root.get("lang"), "en")
        self.assertEqual(root.find("head/title").text, "Every block")
        # Title, then heading levels 1..6 -> h2..h6 (capped), default level 2 -> h3.
        self.assertEqual([(k.tag, text_of(k)) for k in kids[:8]], [
            ("h1", "Every block"), ("h2", "Heading one"), ("h3", "Heading two"),
            ("h4", "Heading three"), ("h5", "Heading four"), ("h6", "Heading five"),
            ("h6", "Heading six"), ("h3", "Default level with bold")])
        self.assertEqual(elements(kids[7]), [("h3", ()), ("strong", ())])
        # Every run flag.
        runs_p = kids[9]
        self.assertEqual(elements(runs_p), [
            ("p", ()), ("strong", ()), ("em", ()), ("u", ()), ("s", ()), ("code", ()),
            ("a", ("href", "rel")), ("a", ("href", "rel")),
            ("a", ("href", "rel")), ("strong", ()), ("em", ()), ("u", ()), ("s", ()), ("code", ())])
        self.assertEqual(text_of(runs_p), "".join(r if isinstance(r, str) else r["text"]
                                                  for r in spec["blocks"][8]["runs"]))
        self.assertEqual([a.get("href") for a in runs_p.iter("a")],
                         ["https://example.com/a?b=1&c=2", "mailto:someone@example.com", "http://example.org/"])
        self.assertIn(b'href="https://example.com/a?b=1&amp;c=2"', data)
        # A newline in running text is a line break.
        self.assertEqual(elements(kids[10]), [("p", ()), ("br", ())])
        self.assertEqual(text_of(kids[10]), "Line oneLine two")
        # Lists: unordered with a child list, ordered, 9 levels deep.
        self.assertEqual(elements(kids[11]), [("ul", ()), ("li", ()), ("li", ()), ("ul", ()),
                                              ("li", ()), ("li", ())])
        self.assertEqual(elements(kids[12]), [("ol", ()), ("li", ()), ("li", ()), ("strong", ()),
                                              ("ol", ()), ("li", ()), ("li", ())])
        deep, depth, el = kids[13], 0, kids[13]
        while el is not None:
            depth += 1
            self.assertEqual(text_of(el.find("li")).split("level")[1].split()[0], str(depth))
            el = el.find("li/ul")
        self.assertEqual(depth, 9)
        # Table with widths, numbers right-aligned, ragged rows padded.
        t = kids[14]
        self.assertEqual(t.tag, "table")
        self.assertEqual([c.get("style") for c in t.iter("col")], ["width:60%", "width:20%", "width:20%"])
        self.assertEqual([text_of(c) for c in t.iter("th")], ["Service", "Fee (EUR)", "Included"])
        rows = [[(text_of(c), c.get("class")) for c in tr.iter("td")] for tr in t.find("tbody")]
        self.assertEqual(rows, [
            [("Setup", None), ("1000", "num"), ("true", None)],
            [("Support", None), ("250.5", "num"), ("", None)],
            [("Hosting", None), ("", None), ("false", None)],
            [("Extra", None), ("-3", "num"), ("maybe", None)]])
        self.assertIsNotNone(t.find("tbody/tr/td/em"))
        t2 = kids[15]
        self.assertIsNone(t2.find("thead"))
        self.assertIsNone(t2.find("colgroup"))
        self.assertEqual([[text_of(c) for c in tr] for tr in t2.find("tbody")],
                         [["no", "header"], ["ragged", ""]])
        # Code keeps tabs and spaces.
        self.assertEqual(elements(kids[16]), [("pre", ()), ("code", ())])
        self.assertEqual(text_of(kids[16]), spec["blocks"][15]["text"])
        # The image, inline, with its alt text and size.
        self.assertEqual(kids[17].tag, "figure")
        img = kids[17].find("img")
        self.assertEqual(img.get("src"), PNG_URI)
        self.assertEqual(base64.b64decode(img.get("src").split(",", 1)[1])[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(img.get("alt"), "A 4 by 3 test image")
        self.assertEqual((img.get("width"), img.get("height")), ("4", "3"))
        # The page break, then the last paragraph.
        self.assertEqual((kids[18].tag, kids[18].get("class")), ("div", "page-break"))
        self.assertEqual(text_of(kids[19]), "After the page break.")
        self.assertEqual(len(kids), 20)
        css = root.find("head/style").text
        self.assertRegex(css, r"@media print\{[^@]*\.page-break\{[^}]*break-after:page")
        self.assertRegex(css, r"@page\{size:595\.\d+pt 841\.\d+pt;margin:")

    def test_font_stack(self):
        data, root = ok_html(self, fixture("doc-services-agreement"))
        css = root.find("head/style").text
        body_rule = re.search(r"(?:^|\})body\{font-family:([^;]*);", css).group(1)
        fams = [f.strip().strip('"') for f in body_rule.split(",")]
        for fam in ["DejaVu Sans", "Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew",
                    "Noto Sans Devanagari", "Noto Sans CJK SC", "Noto Sans CJK JP",
                    "Noto Sans CJK KR", "system-ui", "sans-serif"]:
            self.assertIn(fam, fams)
        self.assertEqual(fams[0], "DejaVu Sans")
        self.assertEqual(fams[-2:], ["system-ui", "sans-serif"])
        code_rule = re.search(r"(?:^|\})code\{font-family:([^;}]*)", css).group(1)
        self.assertTrue(code_rule.startswith('"DejaVu Sans Mono"'))
        # DocsGPT's CSS baseline.
        for rule in ["line-height:1.6", "color:#1a1a1a", "max-width:800px", "padding:24px",
                     "border-collapse:collapse", "border:1px solid #d0d0d0", "padding:6px 10px",
                     "background:#f5f5f5", "padding:12px", "border-radius:6px"]:
            self.assertIn(rule, css)

    def test_services_agreement(self):
        data, root = ok_html(self, fixture("doc-services-agreement"))
        body = body_of(root)
        self.assertEqual(elements(body), [
            ("body", ()), ("h1", ()), ("h2", ()), ("p", ()), ("strong", ()),
            ("ol", ()), ("li", ()), ("li", ()), ("ol", ()), ("li", ()),
            ("table", ("class",)), ("colgroup", ()), ("col", ("style",)), ("col", ("style",)),
            ("thead", ()), ("tr", ()), ("th", ()), ("th", ()), ("tbody", ()), ("tr", ()),
            ("td", ()), ("td", ("class",)),
            ("pre", ()), ("code", ()), ("figure", ()), ("img", ("src", "alt", "width", "height")),
            ("div", ("class",))])
        self.assertEqual([c.get("style") for c in body.iter("col")], ["width:75%", "width:25%"])
        self.assertEqual(text_of(body.find("p")), "The Client pays.")
        self.assertEqual(text_of(body.find("pre/code")), "print(1)")

    def test_legacy_sections(self):
        data, root = ok_html(self, fixture("doc-legacy-sections"))
        self.assertEqual([(k.tag, text_of(k)) for k in body_of(root)], [
            ("h1", "Quarterly Report"), ("h2", "Summary"), ("p", "Revenue grew 12%."),
            ("p", "Costs fell."), ("h2", "Outlook"), ("p", "Steady."),
            ("p", "A section without a heading.")])

    def test_legacy_plus_blocks(self):
        data, root = ok_html(self, fixture("doc-legacy-plus-blocks"))
        self.assertEqual([(k.tag, text_of(k)) for k in body_of(root)], [
            ("h1", "Quarterly Report"), ("h2", "Summary"), ("p", "Revenue grew 12%."),
            ("h2", "Appendix"), ("p", "Added with spec_append.")])

    def test_heading_default_level_depends_on_kind(self):
        spec = {"title": "", "blocks": [{"type": "heading", "text": "H"}]}
        data, root = ok_html(self, spec)
        self.assertEqual([k.tag for k in body_of(root)], ["h3"])  # html: level 2 -> h3
        data, root = ok_html(self, spec, extra=["-k", "document"])
        self.assertEqual([k.tag for k in body_of(root)], ["h2"])  # document: level 1 -> h2

    def test_code_keeps_leading_newline_and_whitespace(self):
        code = "\n\n  indented\n\tTabbed \t end  \n"
        data, root = ok_html(self, {"blocks": [{"type": "code", "text": code}]})
        self.assertEqual(text_of(body_of(root).find("pre/code")), code)

    def test_empty_runs_and_texts(self):
        spec = {"blocks": [{"type": "paragraph", "text": ""},
                           {"type": "paragraph", "runs": [{"text": "", "bold": True}, "x"]},
                           {"type": "table", "rows": [[None, ""]]}]}
        data, root = ok_html(self, spec)
        self.assertEqual(elements(body_of(root)), [
            ("body", ()), ("p", ()), ("p", ()), ("table", ()), ("tbody", ()), ("tr", ()),
            ("td", ()), ("td", ())])


QR_KIND_HTML = 4
QR_FORMAT_HTML = 4


def asan_runtime(lib_path):
    """The libasan that lib_path links against, or None."""
    out = subprocess.run(["ldd", lib_path], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if "libasan" in line and "=>" in line:
            return line.split("=>")[1].split("(")[0].strip()
    return None


class Speed(unittest.TestCase):
    """D1 (1,500 paragraphs, 40 lists, 30 tables) to html. DESIGN's target for the
    whole command is 50 ms; the command is compile + font set + backend + atomic
    write, so the test times the parts: the backend's own share in process (through
    libquire: render_mem minus check, fonts already loaded) and the whole command."""

    @classmethod
    def setUpClass(cls):
        gen = require(cls, "bench/gen_specs.py")
        d = os.path.join(TMP, "bench")
        subprocess.run([sys.executable, gen, d, "D1"], check=True, capture_output=True)
        cls.spec = os.path.join(d, "D1.json")

    def test_in_process_render_matches_cli(self):
        lib_path = os.environ.get("QUIRE_LIB")
        self.assertTrue(lib_path and os.path.exists(lib_path), "QUIRE_LIB names libquire.so")
        asan = asan_runtime(lib_path)
        if asan and os.environ.get("LD_PRELOAD", "") != asan:
            # A sanitizer build of libquire can only be loaded into python with
            # the ASan runtime preloaded: run this test again in such a process
            # (python's own allocations are not ours to leak-check).
            env = dict(os.environ, LD_PRELOAD=asan, ASAN_OPTIONS="detect_leaks=0")
            p = subprocess.run([sys.executable, os.path.abspath(__file__),
                                "Speed.test_in_process_render_matches_cli"],
                               capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(p.returncode, 0, p.stdout[-2000:] + p.stderr[-2000:])
            return
        # the binding's structures: one mirror of quire.h's qr_result (a copy
        # here went stale when qr_render_stats grew, and libquire wrote past it)
        lib = quire_binding._L()
        Result = quire_binding._Result
        with open(self.spec, "rb") as f:
            text = f.read()

        def render():
            r = Result()
            st = lib.qr_render_mem(text, len(text), QR_KIND_HTML, QR_FORMAT_HTML, None, ctypes.byref(r))
            out = ctypes.string_at(r.data, r.size) if st == 0 else None
            lib.qr_result_free(ctypes.byref(r))
            return st, out

        def check():
            r = Result()
            st = lib.qr_check(text, len(text), QR_KIND_HTML, ctypes.byref(r))
            lib.qr_result_free(ctypes.byref(r))
            return st

        st, first = render()  # loads the font set once
        self.assertEqual(st, 0)
        best_r = best_c = None
        for _ in range(7):
            t0 = time.perf_counter()
            st, out = render()
            t1 = time.perf_counter()
            self.assertEqual(st, 0)
            self.assertEqual(out, first, "same spec, same bytes")
            self.assertEqual(check(), 0)
            t2 = time.perf_counter()
            best_r = t1 - t0 if best_r is None else min(best_r, t1 - t0)
            best_c = t2 - t1 if best_c is None else min(best_c, t2 - t1)
        share = (best_r - best_c) * 1000
        sys.stderr.write("D1 in process: render %.1f ms, compile only %.1f ms, html backend %.1f ms\n"
                         % (best_r * 1000, best_c * 1000, share))
        # Valid, and every block is there.
        root = parse_strict(first)
        with open(self.spec, encoding="utf-8") as f:
            blocks = json.load(f)["blocks"]
        body = body_of(root)
        for tag, typ in (("table", "table"), ("pre", "code"), ("p", "paragraph")):
            self.assertEqual(len(body.findall(tag)), sum(b["type"] == typ for b in blocks), tag)

    def test_whole_command_deterministic(self):
        out = os.path.join(TMP, "d1.html")
        best = None
        for _ in range(5):
            t0 = time.perf_counter()
            p = run(["render", self.spec, "-o", out])
            dt = time.perf_counter() - t0
            self.assertEqual(p.returncode, 0, p.stdout)
            best = dt if best is None else min(best, dt)
        with open(out, "rb") as f:
            first = f.read()
        run(["render", self.spec, "-o", out])
        with open(out, "rb") as f:
            self.assertEqual(f.read(), first, "same spec, same bytes")
        sys.stderr.write("D1 -> html, whole command: best of 5 %.1f ms, %d bytes\n"
                         % (best * 1000, len(first)))
        # Speed is measured by bench/run, never asserted in a test.


if __name__ == "__main__":
    if not QUIRE:
        sys.exit("set QUIRE to the built quire binary")
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
