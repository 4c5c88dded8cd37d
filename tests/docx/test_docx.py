#!/usr/bin/env python3
"""test_docx.py: every document fixture through the Word backend, checked
against the spec itself.

For each fixtures/*/spec.json of the document vocabulary ("blocks" or the
legacy "sections"):
  1. `quire render` it to .docx twice: exit 0, status ok, identical bytes;
  2. ooxml-validate --werror passes on all of them (one call);
  3. python-docx reads each back, and the body equals what the spec says,
     block by block: the Title paragraph, "Heading N" styles, paragraph
     texts, list items (level, bullet or decimal, a fresh numbering that
     restarts at 1 for every ordered list), tables (cell texts, header row
     repeated, a fixed grid over the text width in the spec's proportions,
     numbers right-aligned), hyperlink texts and targets, code, images
     (alt text, fitted to the text width) and page breaks; page size,
     orientation and margins; core title; per-script run properties
     (w:rtl/w:cs and the cs font for Arabic, Hebrew and Indic text,
     w:eastAsia for CJK, w:bidi on right-to-left paragraphs);
  4. LibreOffice opens every file and exports a PDF (one office-smoke
     batch) whose text holds every heading.

Expected texts are computed here from the spec JSON, with the sanitising the
backend promises: characters XML forbids become U+FFFD, tab is a tab,
LF / CR LF / CR a line break.
"""
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import unicodedata

import docx
from docx.table import Table
from docx.text.paragraph import Paragraph

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import SHARED, finish, need, unittest_exit  # noqa: E402

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"

PAGE_SIZES = {"letter": (612, 792), "a4": (595.28, 841.89), "a5": (419.53, 595.28),
              "legal": (612, 1008)}

failures = []
n_checks = [0]


def fail(name, msg):
    failures.append(f"{name}: {msg}")


def check(name, cond, msg):
    n_checks[0] += 1
    if not cond:
        fail(name, msg)
    return cond


# ---- expectations from the spec ------------------------------------------------

def illegal(c):
    o = ord(c)
    return (o < 0x20 and c not in "\t\n\r") or o in (0xFFFE, 0xFFFF)


def clean_attr(s):
    """An attribute or core-property value: only XML-illegal characters change."""
    return "".join("\ufffd" if illegal(c) else c for c in s)


def clean(s):
    """Run text as read back: CR LF and CR are line breaks like LF."""
    return clean_attr(s.replace("\r\n", "\n").replace("\r", "\n"))


def text_of(v):
    if isinstance(v, str):
        return v
    if "text" in v:
        return v["text"]
    return "".join(r if isinstance(r, str) else r.get("text", "") for r in v.get("runs", []))


def links_of(v):
    if isinstance(v, str) or "runs" not in v:
        return []
    return [(clean(r["text"]), r["link"]) for r in v["runs"]
            if isinstance(r, dict) and r.get("link") and r.get("text")]


def cell_text(v):
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        r = repr(v)
        return r[:-2] if r.endswith(".0") else r
    return clean(text_of(v))


def first_strong(s):
    for c in s:
        d = unicodedata.bidirectional(c)
        if d in ("R", "AL"):
            return "rtl"
        if d == "L":
            return "ltr"
    return None


def expected_body(spec):
    """The body as a list of items, in order."""
    seq = []
    title = spec.get("title")
    if isinstance(title, str) and title:
        seq.append(("p", "Title", clean(title), []))
    for s in spec.get("sections") or []:
        h = s.get("heading")
        if isinstance(h, str) and h:
            seq.append(("p", "Heading 1", clean(h), []))
        for para in s.get("paragraphs") or []:
            seq.append(("p", "Normal", clean(para), []))
    blocks = spec.get("blocks") or []
    n_lists = 0
    for i, b in enumerate(blocks):
        t = b["type"]
        if t == "heading":
            seq.append(("p", "Heading %d" % b.get("level", 1), clean(text_of(b)), links_of(b)))
        elif t == "paragraph":
            seq.append(("p", "Normal", clean(text_of(b)), links_of(b)))
        elif t == "list":
            n_lists += 1

            def walk(items, level):
                for it in items:
                    seq.append(("li", level, bool(b.get("ordered", False)), n_lists,
                                clean(text_of(it)), links_of(it)))
                    if isinstance(it, dict) and it.get("items"):
                        walk(it["items"], level + 1)
            walk(b["items"], 0)
        elif t == "table":
            seq.append(("tbl", b))
            if i + 1 == len(blocks) or blocks[i + 1]["type"] == "table":
                seq.append(("p", "Normal", "", []))
        elif t == "code":
            seq.append(("p", "Code", clean(b["text"]), []))
        elif t == "image":
            seq.append(("img", clean_attr(b.get("alt", ""))))
        elif t == "page_break":
            seq.append(("pb",))
        elif t == "chart":  # issue 21; tests/charts checks the chart part itself
            seq.append(("chart", clean_attr(b.get("alt", ""))))
        else:
            raise AssertionError("unknown block type " + t)
    return seq


def page_of(spec):
    page = spec.get("page") or {}
    w, h = PAGE_SIZES[(page.get("size") or "Letter").lower()]
    if (page.get("orientation") or "portrait") == "landscape":
        w, h = max(w, h), min(w, h)
    m = page.get("margins", 72)
    if isinstance(m, dict):
        margins = [m.get(k, 72) for k in ("top", "right", "bottom", "left")]
    else:
        margins = [m] * 4
    return w, h, margins


def twips(pt):
    return int(math.floor(pt * 20 + 0.5))


# ---- reading the docx ------------------------------------------------------------

def ptext(el):
    out = []
    for e in el.iter(W + "t", W + "tab", W + "br", W + "cr"):
        if e.tag == W + "t":
            out.append(e.text or "")
        elif e.tag == W + "tab":
            out.append("\t")
        elif e.get(W + "type") != "page":
            out.append("\n")
    return "".join(out)


def plinks(p, part):
    out = []
    for h in p.iter(W + "hyperlink"):
        rel = part.rels[h.get(R + "id")]
        out.append((ptext(h), rel.target_ref, rel.is_external))
    return out


def actual_body(document):
    seq = []
    body = document.element.body
    for child in body.iterchildren():
        if child.tag == W + "p":
            para = Paragraph(child, document)
            drawings = list(child.iter(WP + "docPr"))
            pbreaks = [b for b in child.iter(W + "br") if b.get(W + "type") == "page"]
            num = child.find(W + "pPr/" + W + "numPr")
            charts = list(child.iter("{http://schemas.openxmlformats.org/drawingml/2006/chart}chart"))
            if charts:
                seq.append(("chart", drawings[0].get("descr", ""), charts[0]))
            elif drawings:
                seq.append(("img", drawings[0].get("descr", ""), child))
            elif pbreaks:
                seq.append(("pb", child))
            elif num is not None:
                seq.append(("li", int(num.find(W + "ilvl").get(W + "val")),
                            int(num.find(W + "numId").get(W + "val")), ptext(child), para, child))
            else:
                seq.append(("p", para.style.name, ptext(child), para, child))
        elif child.tag == W + "tbl":
            seq.append(("tbl", Table(child, document), child))
        elif child.tag == W + "sectPr":
            seq.append(("sectPr", child))
    return seq


def numbering_info(document):
    """numId -> (abstractNumId, numFmt of level 0, {ilvl: startOverride})."""
    el = document.part.numbering_part.element
    fmts = {}
    for an in el.iter(W + "abstractNum"):
        lvl0 = [l for l in an.iter(W + "lvl") if l.get(W + "ilvl") == "0"][0]
        fmts[an.get(W + "abstractNumId")] = lvl0.find(W + "numFmt").get(W + "val")
    out = {}
    for n in el.iter(W + "num"):
        aid = n.find(W + "abstractNumId").get(W + "val")
        overrides = {int(o.get(W + "ilvl")): int(o.find(W + "startOverride").get(W + "val"))
                     for o in n.iter(W + "lvlOverride") if o.find(W + "startOverride") is not None}
        out[int(n.get(W + "numId"))] = (aid, fmts[aid], overrides)
    return out


# ---- checks ---------------------------------------------------------------------

SCRIPT_COMPLEX = ("ARABIC", "HEBREW", "DEVANAGARI", "BENGALI", "TAMIL", "THAI", "KHMER")
SCRIPT_EA = ("CJK UNIFIED", "HIRAGANA", "KATAKANA", "HANGUL")


def check_runs(name, p_el, rtl_expected):
    """Per-script run properties of one paragraph."""
    bidi = p_el.find(W + "pPr/" + W + "bidi") is not None
    if rtl_expected is not None:
        check(name, bidi == rtl_expected,
              f"paragraph {ptext(p_el)[:40]!r}: w:bidi is {bidi}, expected {rtl_expected}")
    for r in p_el.iter(W + "r"):
        text = "".join(t.text or "" for t in r.iter(W + "t"))
        rpr = r.find(W + "rPr")
        fonts = rpr.find(W + "rFonts") if rpr is not None else None
        names = {unicodedata.name(c, "").split(" ")[0] for c in text if ord(c) > 0x7F}
        names |= {" ".join(unicodedata.name(c, "").split(" ")[:2]) for c in text if ord(c) > 0x7F}
        if names & set(SCRIPT_COMPLEX):
            check(name, rpr is not None and rpr.find(W + "cs") is not None,
                  f"complex-script run {text!r} lacks w:cs")
            check(name, fonts is not None and fonts.get(W + "cs"),
                  f"complex-script run {text!r} names no cs font")
            if names & {"ARABIC", "HEBREW"}:
                check(name, rpr.find(W + "rtl") is not None, f"run {text!r} lacks w:rtl")
                lang = rpr.find(W + "lang")
                check(name, lang is not None and lang.get(W + "bidi"),
                      f"run {text!r} lacks w:lang/@w:bidi")
        if names & set(SCRIPT_EA):
            check(name, fonts is not None and fonts.get(W + "eastAsia"),
                  f"CJK run {text!r} names no eastAsia font")
            check(name, fonts is None or fonts.get(W + "ascii") is None or
                  "Mono" in (fonts.get(W + "ascii") or ""),
                  f"CJK run {text!r} changes ascii/hAnsi (only eastAsia should change)")


def check_table(name, b, tbl, tbl_el, text_width):
    headers = b.get("headers")
    rows = b.get("rows") or []
    n_cols = max([len(headers or [])] + [len(r) for r in rows] + [1])
    exp_rows = []
    if headers is not None:
        exp_rows.append([cell_text(c) for c in headers] + [""] * (n_cols - len(headers)))
    for r in rows:
        exp_rows.append([cell_text(c) for c in r] + [""] * (n_cols - len(r)))
    if not exp_rows:
        exp_rows.append([""] * n_cols)
    got = [[ptext(c._tc) for c in row.cells] for row in tbl.rows]
    check(name, got == exp_rows, f"table {b.get('headers')}: cells {got} != {exp_rows}")
    # links in cells
    exp_links = [l for r in ([headers] if headers else []) + rows for c in r
                 if isinstance(c, dict) for l in links_of(c)]
    got_links = [(t, u) for t, u, ext in plinks(tbl_el, tbl.part)]
    check(name, got_links == exp_links, f"table links {got_links} != {exp_links}")
    # the header row repeats and stays whole
    trs = tbl_el.findall(W + "tr")
    for i, tr in enumerate(trs):
        is_header = tr.find(W + "trPr/" + W + "tblHeader") is not None
        check(name, is_header == (i == 0 and headers is not None), f"row {i}: tblHeader {is_header}")
    # fixed grid over the text width, in the spec's proportions
    grid = [int(g.get(W + "w")) for g in tbl_el.iter(W + "gridCol")]
    check(name, len(grid) == n_cols, f"grid has {len(grid)} columns, expected {n_cols}")
    check(name, sum(grid) == text_width, f"grid sums to {sum(grid)}, text width is {text_width}")
    widths = b.get("widths") or [1] * n_cols
    total = float(sum(widths))
    for g, wdt in zip(grid, widths):
        check(name, abs(g - text_width * wdt / total) <= 1.0,
              f"column of {g} twips for share {wdt}/{total} of {text_width}")
    layout = tbl_el.find(W + "tblPr/" + W + "tblLayout")
    check(name, layout is not None and layout.get(W + "type") == "fixed", "tblLayout is not fixed")
    tblw = tbl_el.find(W + "tblPr/" + W + "tblW")
    check(name, tblw is not None and tblw.get(W + "type") == "dxa" and
          int(tblw.get(W + "w")) == text_width, "tblW is not the text width in dxa")
    check(name, tbl_el.find(W + "tblPr/" + W + "tblBorders") is not None, "table has no borders")
    # cell widths match the grid; numbers are right-aligned
    src_rows = ([headers + [None] * (n_cols - len(headers))] if headers is not None else []) + \
        [r + [None] * (n_cols - len(r)) for r in rows]
    for tr, src in zip(trs, src_rows):
        for c, (tc, v) in enumerate(zip(tr.findall(W + "tc"), src)):
            tcw = tc.find(W + "tcPr/" + W + "tcW")
            check(name, tcw is not None and int(tcw.get(W + "w")) == grid[c] and
                  tcw.get(W + "type") == "dxa", f"cell width differs from grid column {c}")
            jc = tc.find(W + "p/" + W + "pPr/" + W + "jc")
            numeric = isinstance(v, (int, float)) and not isinstance(v, bool)
            check(name, (jc is not None and jc.get(W + "val") == "right") == numeric,
                  f"cell {v!r}: right-aligned must mean numeric")
            for p in tc.findall(W + "p"):
                check_runs(name, p, first_strong(ptext(p)) == "rtl" if first_strong(ptext(p)) else None)


def check_doc(name, spec, path, warnings):
    document = docx.Document(path)
    w, h, margins = page_of(spec)
    text_width = max(720, twips(w) - twips(margins[3]) - twips(margins[1]))
    exp = expected_body(spec)
    got = actual_body(document)
    check(name, got and got[-1][0] == "sectPr", "the body does not end with w:sectPr")
    sect = got[-1][1] if got else None
    got = got[:-1]
    if not check(name, [g[0] for g in got] == [e[0] for e in exp],
                 f"body shape {[g[0] for g in got]} != {[e[0] for e in exp]}"):
        return
    numbering = numbering_info(document) if any(e[0] == "li" for e in exp) else {}
    list_nums = {}  # spec list index -> numId
    part = document.part
    for e, g in zip(exp, got):
        kind = e[0]
        if kind == "p":
            _, style, text, links = e
            _, gstyle, gtext, para, el = g
            check(name, gstyle == style, f"{text[:40]!r}: style {gstyle!r}, expected {style!r}")
            check(name, gtext == text, f"paragraph text {gtext!r} != {text!r}")
            if el.find(W + "hyperlink") is None:
                check(name, para.text == gtext, f"python-docx reads {para.text!r}, XML has {gtext!r}")
            got_links = plinks(el, part)
            check(name, [(t, u) for t, u, x in got_links] == links,
                  f"links {got_links} != {links}")
            check(name, all(x for t, u, x in got_links), "a hyperlink is not external")
            check_runs(name, el, None if style == "Code" else (first_strong(text) == "rtl")
                       if first_strong(text) else None)
            if style == "Code":
                check(name, el.find(W + "pPr/" + W + "bidi") is None, "code paragraph is bidi")
                for r in el.iter(W + "r"):
                    f = r.find(W + "rPr/" + W + "rFonts")
                    latin = [c for c in "".join(t.text or "" for t in r.iter(W + "t"))
                             if c.isascii() and c.isalnum()]
                    if latin:
                        check(name, f is not None and f.get(W + "ascii") == "DejaVu Sans Mono",
                              "code run is not monospace")
        elif kind == "li":
            _, level, ordered, list_index, text, links = e
            _, glevel, num_id, gtext, para, el = g
            check(name, glevel == level, f"list item {text!r}: ilvl {glevel}, expected {level}")
            check(name, gtext == text, f"list item text {gtext!r} != {text!r}")
            check(name, para.style.name == "List Paragraph", f"list item style {para.style.name}")
            check(name, [(t, u) for t, u, x in plinks(el, part)] == links, "list item links")
            check_runs(name, el, (first_strong(text) == "rtl") if first_strong(text) else None)
            prev = list_nums.setdefault(list_index, num_id)
            check(name, prev == num_id, f"list item {text!r} switches numbering {prev} -> {num_id}")
            aid, fmt, overrides = numbering[num_id]
            check(name, fmt == ("decimal" if ordered else "bullet"),
                  f"list item {text!r}: numFmt {fmt}")
            if ordered:
                check(name, overrides.get(0) == 1 and overrides.get(level) == 1,
                      f"ordered list numId {num_id} does not restart at 1: {overrides}")
        elif kind == "tbl":
            check_table(name, e[1], g[1], g[2], text_width)
        elif kind == "chart":
            check(name, g[1] == e[1], f"chart alt {g[1]!r} != {e[1]!r}")
            rel = part.rels[g[2].get(R + "id")]
            check(name, rel.reltype.endswith("/chart"), f"chart relationship {rel.reltype}")
        elif kind == "img":
            alt, el = e[1], g[2]
            check(name, g[1] == alt, f"image alt {g[1]!r} != {alt!r}")
            ext = el.find(".//" + WP + "extent")
            check(name, 0 < int(ext.get("cx")) <= text_width * 635,
                  f"image {alt!r} is {ext.get('cx')} EMU wide, text width {text_width * 635}")
            blip = el.find(".//{http://schemas.openxmlformats.org/drawingml/2006/main}blip")
            rel = part.rels[blip.get(R + "embed")]
            check(name, rel.target_part.content_type in ("image/png", "image/jpeg"),
                  "image part is not PNG or JPEG")
    # lists: each list its own numbering when ordered
    ordered_ids = [n for i, n in list_nums.items()
                   if any(e[0] == "li" and e[3] == i and e[2] for e in exp)]
    check(name, len(set(ordered_ids)) == len(ordered_ids), "two ordered lists share a numId")
    # page
    pgsz = sect.find(W + "pgSz")
    check(name, int(pgsz.get(W + "w")) == twips(w) and int(pgsz.get(W + "h")) == twips(h),
          f"page {pgsz.get(W + 'w')}x{pgsz.get(W + 'h')} != {twips(w)}x{twips(h)}")
    check(name, (pgsz.get(W + "orient") == "landscape") == (w > h), "page orientation")
    pgmar = sect.find(W + "pgMar")
    for side, m in zip(("top", "right", "bottom", "left"), margins):
        check(name, int(pgmar.get(W + side)) == twips(m), f"margin {side}")
    # core properties
    title = spec.get("title")
    core = document.core_properties.title
    check(name, (core or None) == (clean_attr(title) if title else None),
          f"core title {core!r} != {title!r}")
    # styles Word's navigation pane needs
    for lvl in range(1, 7):
        st = document.styles["Heading %d" % lvl]
        ol = st.element.find(W + "pPr/" + W + "outlineLvl")
        check(name, ol is not None and ol.get(W + "val") == str(lvl - 1),
              f"Heading {lvl} has no outline level {lvl - 1}")
    # warnings: one per uncovered code point, named by path, and at most
    # one for a character no format shows (text/text.h)
    seen = set()
    unshown = [wn for wn in warnings if "a control character no format shows" in wn.get("message", "")]
    check(name, len(unshown) <= 1, f"the unshown-character warning repeated: {unshown}")
    for wn in warnings:
        if wn in unshown:
            continue
        m = re.fullmatch(r"no installed font covers U\+([0-9A-F]{4,6})", wn.get("message", ""))
        check(name, m is not None, f"unexpected warning {wn}")
        if m:
            check(name, m.group(1) not in seen, f"warning repeated for U+{m.group(1)}")
            seen.add(m.group(1))
            check(name, wn.get("path", "").startswith("/"), f"warning without a path: {wn}")


def headings_of(spec):
    out = []
    for s in spec.get("sections") or []:
        if isinstance(s.get("heading"), str) and s["heading"]:
            out.append(s["heading"])
    for b in spec.get("blocks") or []:
        if b["type"] == "heading":
            out.append(text_of(b))
    return out


def norm(s):
    return " ".join(s.split())


def main():
    specs = []
    for path in sorted(glob.glob(os.path.join(SRC, "fixtures", "*", "spec.json"))):
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        if isinstance(spec, str):
            spec = json.loads(spec)
        if os.path.basename(os.path.dirname(path)).startswith("docs-"):
            continue  # issue 32's vocabulary: tests/docs/test_docs.py reads those back
        if isinstance(spec, dict) and any(isinstance(b, dict) and b.get("type") == "markdown"
                                          for b in spec.get("blocks", [])):
            continue  # markdown blocks: tests/markdown/test_markdown.py (same bytes as blocks)
        if isinstance(spec, dict) and ("blocks" in spec or "sections" in spec):
            specs.append((os.path.basename(os.path.dirname(path)), path, spec))
    if not specs:
        print("no document fixtures found")
        return 1
    out_dir = tempfile.mkdtemp(prefix="quire-docx-")
    outputs = []
    for name, path, spec in specs:
        out = os.path.join(out_dir, name + ".docx")
        again = os.path.join(out_dir, name + ".again.docx")
        results = []
        for o in (out, again):
            p = subprocess.run([QUIRE, "render", path, "-o", o], capture_output=True, text=True)
            if p.returncode != 0:
                fail(name, f"quire render exited {p.returncode}: {p.stdout} {p.stderr}")
                break
            results.append(json.loads(p.stdout.strip().splitlines()[-1]))
        if len(results) < 2:
            continue
        check(name, results[0]["status"] == "ok", f"status {results[0]}")
        with open(out, "rb") as a, open(again, "rb") as b:
            check(name, a.read() == b.read(), "rendering twice gave different bytes")
        os.unlink(again)
        outputs.append((name, spec, out, results[0].get("warnings", [])))

    validate = need("tools/ooxml-validate")
    if validate:
        p = subprocess.run([validate, "--werror", "-q"] + [o for _, _, o, _ in outputs],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail("ooxml-validate", (p.stdout + p.stderr).strip())

    for name, spec, out, warnings in outputs:
        try:
            check_doc(name, spec, out, warnings)
        except Exception as e:  # a crash in readback is a failure, with its cause
            import traceback
            fail(name, "readback raised " + "".join(traceback.format_exception(e)))

    pdf_dir = os.path.join(out_dir, "pdf")
    os.makedirs(pdf_dir)
    smoke = need("tools/office-smoke")
    if smoke:
        p = subprocess.run([smoke, "--keep", pdf_dir] + [o for _, _, o, _ in outputs],
                           capture_output=True, text=True)
        if p.returncode != 0:
            fail("office-smoke", (p.stdout + p.stderr).strip())
    for name, spec, out, _ in outputs if smoke else []:
        pdf = os.path.join(pdf_dir, os.path.basename(out) + ".pdf")
        if not os.path.exists(pdf):
            fail(name, "LibreOffice wrote no PDF")
            continue
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True,
                              text=True).stdout
        flat = norm(text)
        for hd in headings_of(spec):
            want = norm(clean(hd).replace("\ufffd", " "))
            # pdftotext writes right-to-left words in visual order: compare
            # those headings by their words, in any order.
            if first_strong(want) == "rtl" or any(unicodedata.bidirectional(c) in ("R", "AL")
                                                  for c in want):
                ok = all(word in flat or word[::-1] in flat for word in want.split())
            else:
                # a heading wider than the line with no space in it (the
                # hostile fixture's markup) wraps anywhere: compare without
                # the line breaks
                ok = want in flat or want.replace(" ", "") in flat.replace(" ", "")
            check(name, ok, f"the PDF from LibreOffice lacks the heading {want!r}")

    print(f"{len(outputs)} document fixtures rendered to .docx in {out_dir}")
    if failures:
        for f in failures:
            print("FAIL", f)
        print(f"{len(failures)} failures")
        return 1
    return finish(n_checks[0], 0)


if __name__ == "__main__":
    sys.exit(main())
