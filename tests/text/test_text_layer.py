#!/usr/bin/python3
"""The text layer (text/): one spec with HTTPS:/MAILTO: links, tabs, line
breaks and code runs, rendered to docx, pptx, pdf and html; each output must
hold the same links, tabs and breaks, and code in the monospace font.

- docx, pptx: zipfile + ElementTree (w:hyperlink / a:hlinkClick and their
  relationships, w:tab / tab characters in a:t, w:br / a:br, w:rFonts /
  a:latin of code runs).
- pdf: the link annotations' /URI, pdffonts, and pdftotext -bbox for where
  words sit (a tab moves the next word to a tab stop, a break to a new line).
- html: html.parser (<a href>, tab characters, <br>, <code>).
Also: a character no font covers gives the same warning (path, message,
hint) from every backend, once per document.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from html.parser import HTMLParser
from xml.etree import ElementTree as ET

QUIRE = os.environ.get("QUIRE", "build/quire")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import finish, need  # noqa: E402

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"
MONO = "DejaVu Sans Mono"

LINKS = [("the site", "HTTPS://example.com/site"), ("write", "MAILTO:team@example.com")]
# The three paragraphs, as the text each output must give back: tabs as \t,
# line breaks as \n (CR LF in the spec is one break).
P_LINKS = ["Go to ", {"text": "the site", "link": LINKS[0][1]}, " or ",
           {"text": "write", "link": LINKS[1][1]}, "."]
P_TABS = ["A\tB", {"text": "\tcode()", "code": True}, " ", {"text": "\u0633\u0644\u0627\u0645", "code": True}]
P_BREAKS = ["first line\nsecond", {"text": " line\r\nthird", "bold": True}]
WANT = ["Go to the site or write.", "A\tB\tcode() \u0633\u0644\u0627\u0645",
        "first line\nsecond line\nthird"]

failed = checks = 0


def check(ok, what):
    global failed, checks
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    checks += 1
    if not ok:
        failed += 1


def render(spec, out, kind):
    sp = out + ".json"
    with open(sp, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    p = subprocess.run([QUIRE, "render", sp, "-o", out, "-k", kind], capture_output=True)
    if p.returncode != 0:
        sys.exit("render %s failed: %s" % (kind, p.stderr.decode()))
    return json.loads(p.stdout)


def doc_spec():
    return {"blocks": [{"type": "paragraph", "runs": P_LINKS}, {"type": "paragraph", "runs": P_TABS},
                       {"type": "paragraph", "runs": P_BREAKS}]}


def deck_spec():
    return {"slides": [{"title": "Text", "bullets": [{"runs": P_LINKS}, {"runs": P_TABS},
                                                     {"runs": P_BREAKS}]}]}


def rels(z, part):
    d, f = os.path.split(part)
    root = ET.fromstring(z.read("%s/_rels/%s.rels" % (d, f)))
    return {r.get("Id"): r.get("Target") for r in root.iter(PR + "Relationship")}


# ---- docx -------------------------------------------------------------------------------


def docx_read(path):
    """Paragraph texts (tabs, breaks), links (text, target) and code runs' fonts."""
    z = zipfile.ZipFile(path)
    rel = rels(z, "word/document.xml")
    body = ET.fromstring(z.read("word/document.xml")).find(W + "body")
    paras, links, code_fonts = [], [], []
    for p in body.iter(W + "p"):
        text = []
        for el in p.iter():
            if el.tag == W + "t":
                text.append(el.text or "")
            elif el.tag == W + "tab" and el.get(W + "val") is None:
                text.append("\t")
            elif el.tag == W + "br":
                text.append("\n")
            elif el.tag == W + "hyperlink":
                links.append(("".join(t.text or "" for t in el.iter(W + "t")), rel[el.get(R + "id")]))
            elif el.tag == W + "r":
                fonts = el.find(W + "rPr/" + W + "rFonts")
                t = "".join(x.text or "" for x in el.iter(W + "t"))
                if el.find(W + "rPr/" + W + "shd") is not None:
                    code_fonts.append((t, fonts.get(W + "ascii") if fonts is not None else None))
        paras.append("".join(text))
    return paras, links, code_fonts


# ---- pptx -------------------------------------------------------------------------------


def pptx_read(path):
    z = zipfile.ZipFile(path)
    part = "ppt/slides/slide1.xml"
    rel = rels(z, part)
    root = ET.fromstring(z.read(part))
    paras, links, latin = [], [], []
    for p in root.iter(A + "p"):
        text = []
        for el in p:
            if el.tag == A + "r":
                t = el.find(A + "t").text or ""
                text.append(t)
                rpr = el.find(A + "rPr")
                h = rpr.find(A + "hlinkClick") if rpr is not None else None
                if h is not None:
                    links.append((t, rel[h.get(R + "id")]))
                lat = rpr.find(A + "latin") if rpr is not None else None
                latin.append((t, lat.get("typeface") if lat is not None else None))
            elif el.tag == A + "br":
                text.append("\n")
        paras.append("".join(text))
    merged = []
    for t, u in links:  # one link over several <a:r> (spans) is one link
        if merged and merged[-1][1] == u:
            merged[-1] = (merged[-1][0] + t, u)
        else:
            merged.append((t, u))
    return paras, merged, latin


# ---- html -------------------------------------------------------------------------------


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.paras, self.links, self.code = [], [], []
        self.cur = None
        self.href = None
        self.in_code = 0

    def handle_starttag(self, tag, attrs):
        if tag == "p":
            self.cur = []
        elif tag == "br" and self.cur is not None:
            self.cur.append("\n")
        elif tag == "a":
            self.href = [dict(attrs)["href"], ""]
        elif tag == "code":
            self.in_code += 1
            self.code.append("")

    def handle_endtag(self, tag):
        if tag == "p" and self.cur is not None:
            self.paras.append("".join(self.cur))
            self.cur = None
        elif tag == "a" and self.href:
            self.links.append((self.href[1], self.href[0]))
            self.href = None
        elif tag == "code":
            self.in_code -= 1

    def handle_data(self, data):
        if self.cur is not None:
            self.cur.append(data)
        if self.href:
            self.href[1] += data
        if self.in_code:
            self.code[-1] += data


# ---- pdf --------------------------------------------------------------------------------


def pdf_words(path):
    out = subprocess.run(["pdftotext", "-bbox", path, "-"], capture_output=True, check=True).stdout
    words = []
    for m in re.finditer(rb'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out):
        words.append((m.group(5).decode(), float(m.group(1)), float(m.group(2)), float(m.group(3))))
    return words


def pdf_uris(data):
    return [m.decode() for m in re.findall(rb"/URI \(([^)]*)\)", data)]


def main():
    tmp = tempfile.mkdtemp(prefix="quire-text-")
    outs = {}
    for fmt, kind, spec in (("docx", "document", doc_spec()), ("pdf", "pdf", doc_spec()),
                            ("html", "html", doc_spec()), ("pptx", "presentation", deck_spec())):
        outs[fmt] = os.path.join(tmp, "t." + fmt)
        render(spec, outs[fmt], kind)

    # docx
    paras, links, code = docx_read(outs["docx"])
    check(paras == WANT, "docx: paragraphs with tabs and breaks %r" % paras)
    check(links == LINKS, "docx: HTTPS: and MAILTO: links %r" % links)
    check(code and all(f == MONO for _, f in code) and [t for t, _ in code] == ["code()", "\u0633\u0644\u0627\u0645"],
          "docx: code runs in %s in the ascii slot %r" % (MONO, code))

    # pptx
    paras, links, latin = pptx_read(outs["pptx"])
    check(paras[1:] == WANT, "pptx: paragraphs with tabs and breaks %r" % paras[1:])
    check(links == LINKS, "pptx: HTTPS: and MAILTO: links %r" % links)
    code_latin = [f for t, f in latin if t in ("\tcode()", "\u0633\u0644\u0627\u0645")]
    check(code_latin == [MONO, MONO], "pptx: code runs take %s in a:latin, Arabic too %r" % (MONO, code_latin))
    z = zipfile.ZipFile(outs["pptx"])
    slide = z.read("ppt/slides/slide1.xml").decode()
    check(re.search(r'<a:latin typeface="%s"/><a:cs typeface="[^"]+"/>' % MONO, slide) is not None,
          "pptx: the Arabic code run keeps its script font in a:cs")

    # html
    page = Page()
    with open(outs["html"], encoding="utf-8") as f:
        page.feed(f.read())
    check(page.paras == WANT, "html: paragraphs with tabs and breaks %r" % page.paras)
    check(page.links == LINKS, "html: HTTPS: and MAILTO: links %r" % page.links)
    check(page.code == ["\tcode()", "\u0633\u0644\u0627\u0645"], "html: code runs in <code> %r" % page.code)

    # pdf
    with open(outs["pdf"], "rb") as f:
        data = f.read()
    uris = pdf_uris(data)
    check(sorted(uris) == sorted(u for _, u in LINKS), "pdf: HTTPS: and MAILTO: link annotations %r" % uris)
    fonts = subprocess.run(["pdffonts", outs["pdf"]], capture_output=True, check=True).stdout.decode()
    check("DejaVuSansMono" in fonts, "pdf: code runs embed DejaVu Sans Mono")
    words = pdf_words(outs["pdf"])
    by = {w[0]: w for w in words}
    space = by["to"][1] - by["Go"][3]  # one space at the body size
    gap_ab = by["B"][1] - by["A"][3]
    check(all(k in by for k in ("A", "B", "code()", "first", "second", "third")), "pdf: every word is there")
    check(gap_ab > 3 * space, "pdf: a tab moves B to a tab stop (gap %.1f pt, a space %.1f pt)" % (gap_ab, space))
    check(by["code()"][1] - by["B"][3] > 2 * space, "pdf: the tab in the code run too")
    ys = [by[k][2] for k in ("first", "second", "third")]
    check(ys[0] < ys[1] < ys[2] and abs(by["first"][1] - by["second"][1]) < 0.5 and
          abs(by["second"][1] - by["third"][1]) < 0.5,
          "pdf: each break starts a new line at the left edge %r" % ys)
    check(abs(by["A"][2] - by["code()"][2]) < 0.5, "pdf: tabs stay on their line")

    # one missing-glyph warning, the same from every backend
    warn = {"blocks": [{"type": "paragraph", "text": "x \ue000 y"}, {"type": "paragraph", "text": "\ue000 again"}]}
    deck = {"slides": [{"title": "x \ue000 y", "bullets": ["\ue000 again"]}]}
    got = {}
    for fmt, kind, spec in (("docx", "document", warn), ("pdf", "pdf", warn), ("pptx", "presentation", deck)):
        res = render(spec, os.path.join(tmp, "w." + fmt), kind)
        got[fmt] = [(w["message"], w.get("hint")) for w in res["warnings"] if "U+E000" in w["message"]]
    check(len(got["docx"]) == 1 and got["docx"] == got["pdf"] == got["pptx"],
          "one missing-glyph warning, one message and hint in docx, pdf and pptx %r" % got)

    ov = need("tools/ooxml-validate")
    if ov:
        for fmt in ("docx", "pptx"):
            p = subprocess.run([ov, outs[fmt]], capture_output=True)
            check(p.returncode == 0, "ooxml-validate %s %s" % (fmt, p.stdout.decode()[-300:]))
    sys.exit(finish(checks - failed, failed))


if __name__ == "__main__":
    main()
