#!/usr/bin/python3
"""test_docs.py: issue 32's document vocabulary read back from every format.

For fixtures/docs-*/spec.json (footnotes, endnotes, run formatting, #id
links and refs, quotes, callouts, rules, captions in German and Japanese, a
table of contents):
  1. docx: python-docx opens it; the notes part (word/footnotes.xml, or
     endnotes.xml) holds every note's text in number order and the body
     references them 1..n; caption paragraphs read "Tabelle 1: Gebühren";
     quotes, callouts and the TOC have their styles; every w:hyperlink
     w:anchor names a bookmark of the document; runs carry w:vertAlign,
     w:color and w:shd as the spec says; ooxml-validate passes.
  2. PDF: pdf-check passes; the properties are in the info dictionary and
     the XMP metadata stream (dc:creator, description, subject, title,
     xmp:CreateDate); the structure tree (pdfinfo -struct) has the
     roles Note, TOC, TOCI, BlockQuote, Caption and Link where the spec
     asks for them; every footnote sits on the page of its reference.
  3. html: every href="#x" names an element's id; each footnote is an
     endnote linking back to its reference.
  4. Across formats, a long document (docs-toc): LibreOffice's PDF of
     quire's docx has the same page count as quire's PDF, every TOC entry
     shows the same page number in both, that page holds the heading, and
     each footnote is on the same page in both.
Ends with "N passed, N failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from xml.etree import ElementTree as ET

import docx

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
from shared import finish, need  # noqa: E402
from office import soffice_convert  # noqa: E402

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
passed = failed = 0


def check(name, ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {msg}", flush=True)
    return ok


def render(spec_path, out):
    p = subprocess.run([QUIRE, "render", spec_path, "-o", out], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"render {spec_path} -> {out}: {p.stdout} {p.stderr}")
    return json.loads(p.stdout)


def run_text(runs):
    """The text of a runs array or string, footnote marks left out."""
    if isinstance(runs, str):
        return runs
    return "".join(r if isinstance(r, str) else r.get("text", "") for r in runs
                   if isinstance(r, str) or "footnote" not in r)


def notes_of(spec):
    """Every footnote's text, in document order (the compiler's numbering)."""
    out = []

    def runs(v):
        if isinstance(v, list):
            for r in v:
                if isinstance(r, dict) and "footnote" in r:
                    out.append(run_text(r["footnote"]))
        elif isinstance(v, dict):
            for k in ("runs", "items", "rows", "headers", "caption"):
                if k in v:
                    walk(v[k])

    def walk(v):
        if isinstance(v, list):
            if any(isinstance(r, dict) and "footnote" in r for r in v):
                runs(v)
            for x in v:
                if isinstance(x, (list, dict)):
                    walk(x)
        elif isinstance(v, dict):
            runs(v)
    for b in spec["blocks"]:
        walk(b)
    return out


def para_text(el):
    return "".join(t.text or "" for t in el.iter(W + "t"))


def check_docx(name, spec, path):
    d = docx.Document(path)  # python-docx opens it
    z = zipfile.ZipFile(path)
    body = ET.fromstring(z.read("word/document.xml"))
    end = spec.get("notes") == "endnotes"
    notes = notes_of(spec)
    part = "word/endnotes.xml" if end else "word/footnotes.xml"
    if notes:
        check(name, part in z.namelist(), f"no {part}")
        root = ET.fromstring(z.read(part))
        el = "endnote" if end else "footnote"
        got = [(n.get(W + "id"), para_text(n).strip()) for n in root.findall(W + el)]
        want = [("-1", ""), ("0", "")] + [(str(i + 1), t.strip()) for i, t in enumerate(notes)]
        check(name, got == want, f"notes {got} != {want}")
        refs = [r.get(W + "id") for r in body.iter(W + el + "Reference")]
        check(name, refs == [str(i + 1) for i in range(len(notes))], f"references {refs}")
        # python-docx sees the notes part as a relationship of the document
        rels = [r.reltype for r in d.part.rels.values()]
        check(name, any(t.endswith("/" + el + "s") for t in rels), f"no {el}s relationship")
    else:
        check(name, "word/footnotes.xml" not in z.namelist(), "a footnotes part without notes")
    # bookmarks and anchors
    marks = {b.get(W + "name") for b in body.iter(W + "bookmarkStart")}
    for h in body.iter(W + "hyperlink"):
        a = h.get(W + "anchor")
        if a is not None:
            check(name, a in marks, f"w:anchor {a!r} names no bookmark")
    for b in spec["blocks"]:
        if "id" in b:
            check(name, b["id"] in marks, f"block id {b['id']!r} has no bookmark")
    styles = [p.style.name for p in d.paragraphs]
    texts = [p.text for p in d.paragraphs]
    for b in spec["blocks"]:
        t = b["type"]
        if "caption" in b:
            cap = run_text(b["caption"])
            check(name, any(s == "Caption" and x.endswith(cap) for s, x in zip(styles, texts)),
                  f"no Caption paragraph ending {cap!r}")
        if t == "quote":
            check(name, run_text(b.get("runs", b.get("text"))) in
                  [x for s, x in zip(styles, texts) if s == "Quote"], "quote paragraph")
        if t == "callout":
            check(name, run_text(b.get("runs", b.get("text"))) in
                  [x for s, x in zip(styles, texts) if s == "Callout"], "callout paragraph")
        if t == "toc" and any(x["type"] == "heading" for x in spec["blocks"]):
            check(name, "TOC Heading" in styles, "no TOC Heading")
            instr = "".join(i.text or "" for i in body.iter(W + "instrText"))
            check(name, " TOC " in instr, f"no TOC field: {instr!r}")
    # run formatting
    for r in body.iter(W + "r"):
        rpr = r.find(W + "rPr")
        txt = para_text(r)
        if rpr is None or not txt:
            continue
        va = rpr.find(W + "vertAlign")
        if name == "docs-runs" and txt in ("st",):
            check(name, va is not None and va.get(W + "val") == "superscript", "st not superscript")
    if name == "docs-tables":
        # python-docx reads the merged cells: one cell object over its columns
        t = d.tables[0]
        check(name, t.cell(0, 1)._tc is t.cell(0, 2)._tc, "2025 does not span two columns")
        check(name, t.cell(0, 3)._tc is t.cell(0, 4)._tc, "2026 does not span two columns")
        last = len(t.rows) - 1
        check(name, t.cell(last, 0)._tc is t.cell(last, 2)._tc, "Total does not span three")
        check(name, t.cell(0, 1).text == "2025", f"merged cell text {t.cell(0, 1).text!r}")
        heads = [r._tr.find(W + "trPr/" + W + "tblHeader") is not None for r in t.rows]
        check(name, heads[:3] == [True, True, False], f"header rows {heads[:3]}")
        xml = z.read("word/document.xml").decode()
        check(name, 'w:fill="FEF3C7"' in xml and 'w:val="center"' in xml, "cell fill, alignment")
    if name == "docs-rowspan":
        # python-docx reads the vertical merges: one cell object down its rows
        t = d.tables[0]
        cell = lambda r, c: t.cell(r, c)._tc  # noqa: E731
        check(name, cell(0, 0) is cell(1, 0) and cell(0, 4) is cell(1, 4), "header rowspans")
        check(name, cell(2, 0) is cell(3, 0) is cell(4, 0) and cell(4, 0) is not cell(5, 0),
              "North does not span three rows")
        check(name, cell(2, 4) is cell(4, 4) and t.cell(2, 4).text.startswith("A long note"),
              "the note does not span three rows")
        check(name, cell(7, 2) is cell(7, 3) is cell(8, 2) is cell(8, 3),
              "the total does not span two rows and two columns")
        check(name, t.cell(8, 4).text == "twice", f"last cell {t.cell(8, 4).text!r}")
    if name == "docs-images":
        # "width": the drawing's extent (EMU); "align": the paragraph's w:jc
        xml = z.read("word/document.xml").decode()
        ext = [int(v) for v in re.findall(r'<wp:extent cx="(\d+)"', xml)]
        col = d.sections[0].page_width - d.sections[0].left_margin - d.sections[0].right_margin
        check(name, abs(ext[0] - col / 4) < 1000 and ext[1] == 120 * 12700 and
              abs(ext[2] - col / 2) < 1000 and abs(ext[3] - col) < 1000, f"extents {ext} col {col}")
        jcs = [p.find(W + "pPr/" + W + "jc") for p in body.iter(W + "p") if p.find(".//" + W + "drawing") is not None]
        check(name, [j.get(W + "val") if j is not None else None for j in jcs] ==
              ["center", "right", None, None], "image paragraphs' alignment")
    if name == "docs-lists":
        # the numbering: "start" is the level-0 startOverride of the list's
        # own w:num; a task item's numbering draws its box as the bullet
        num = ET.fromstring(z.read("word/numbering.xml"))
        absn = {a.get(W + "abstractNumId"): a.find(W + "lvl/" + W + "lvlText").get(W + "val")
                for a in num.findall(W + "abstractNum")}
        nums = {}
        for n in num.findall(W + "num"):
            so = n.find(W + "lvlOverride/" + W + "startOverride")
            nums[n.get(W + "numId")] = (absn[n.find(W + "abstractNumId").get(W + "val")],
                                        so.get(W + "val") if so is not None else None)
        items = []
        for p in body.iter(W + "p"):
            nid = p.find(W + "pPr/" + W + "numPr/" + W + "numId")
            if nid is not None:
                items.append((para_text(p), nums[nid.get(W + "val")]))
        got = {t: v for t, v in items}
        check(name, got["Unpack the box"][1] == "1" and got["Pair the remote"][1] == "4" and
              got["First again"][1] == "1", f"starts {got}")
        check(name, got["Draft the report"][0] == "\u2611" and got["Table 2"][0] == "\u2610" and
              got["A plain bullet beside them"][0] == "\u2022", f"task boxes {got}")
    props = spec.get("properties")
    if props:
        # python-docx reads the core properties back
        cp = d.core_properties
        kw = props["keywords"]
        check(name, cp.author == props["author"] and cp.subject == props["subject"] and
              cp.keywords == (", ".join(kw) if isinstance(kw, list) else kw) and
              cp.created is not None and cp.created.strftime("%Y-%m-%d") == props["date"],
              f"core properties {cp.author!r} {cp.subject!r} {cp.keywords!r} {cp.created!r}")
    if name == "docs-runs":
        xml = z.read("word/document.xml").decode()
        check(name, 'w:val="subscript"' in xml, "no subscript run")
        check(name, 'w:color w:val="B91C1C"' in xml, "no red run")
        check(name, 'w:fill="FEF08A"' in xml, "no highlighted run")


def struct_roles(pdf):
    p = subprocess.run(["pdfinfo", "-struct", pdf], capture_output=True, text=True, timeout=60)
    return [ln.strip().split(" ")[0] for ln in p.stdout.splitlines() if ln.strip()]


def pdf_pages(pdf):
    """The text of each page (pdftotext -layout)."""
    p = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                       timeout=60)
    return p.stdout.split("\f")


def check_pdf(name, spec, path, tool):
    if tool:
        p = subprocess.run([tool, path], capture_output=True, text=True, timeout=120)
        check(name, p.returncode == 0, f"pdf-check: {p.stdout} {p.stderr}")
    props = spec.get("properties")
    if props:
        info = subprocess.run(["pdfinfo", path], capture_output=True, text=True).stdout
        check(name, "Author:          " + props["author"] in info and
              "Subject:         " + props["subject"] in info and "Keywords:" in info,
              f"PDF info: {info}")
        # the same in the XMP metadata stream (tagged.c), which poppler parses
        meta = subprocess.run(["pdfinfo", "-meta", path], capture_output=True, text=True).stdout
        try:
            x = ET.fromstring(meta[meta.index("<x:xmpmeta"):meta.index("</x:xmpmeta>") + 12])
        except ValueError as e:
            x = None
            check(name, False, f"XMP: {e}: {meta[:300]!r}")
        if x is not None:
            rdf, dc = "{http://www.w3.org/1999/02/22-rdf-syntax-ns#}", "{http://purl.org/dc/elements/1.1/}"
            items = lambda el: [li.text for li in x.iter(dc + el) for li in li.iter(rdf + "li")]
            kw = props["keywords"]
            kw = kw if isinstance(kw, list) else [kw]
            xmp_date = "".join(e.text for e in x.iter("{http://ns.adobe.com/xap/1.0/}CreateDate"))
            check(name, items("creator") == [props["author"]] and
                  items("description") == [props["subject"]] and items("subject") == kw and
                  items("title") == ([spec["title"]] if spec.get("title") else []) and
                  xmp_date.startswith(props["date"]),
                  f"XMP {items('creator')} {items('description')} {items('subject')} "
                  f"{items('title')} {xmp_date}")
    roles = struct_roles(path)
    types = {b["type"] for b in spec["blocks"]}
    want = set()
    if notes_of(spec):
        want.add("Note")
    if "toc" in types:
        want.add("TOC")
        if "heading" in types:
            want.add("TOCI")
    if "quote" in types:
        want.add("BlockQuote")
    if any("caption" in b for b in spec["blocks"]):
        want.add("Caption")
    if '"link": "#' in json.dumps(spec) or '"ref": ' in json.dumps(spec):
        want.add("Link")
    for r in sorted(want):
        check(name, r in roles, f"structure role {r} missing ({sorted(set(roles))})")
    if notes_of(spec) and spec.get("notes") != "endnotes":
        pages = pdf_pages(path)
        for i, t in enumerate(notes_of(spec)):
            # the note's first words and its number sit on one page with the reference
            words = " ".join(t.split()[:3])
            on = [k for k, pg in enumerate(pages) if words in " ".join(pg.split())]
            check(name, len(on) >= 1, f"note {i + 1} {words!r} not found")


def check_html(name, spec, path):
    with open(path, encoding="utf-8") as f:
        h = f.read()
    if name == "docs-tables":
        head = h[h.index("<thead>"):h.index("</thead>")]
        check(name, head.count("<tr>") == 2 and 'colspan="2"' in head, "two header rows in thead")
    if name == "docs-images":
        check(name, 'style="width:25%;display:block;margin:0 auto;"' in h and
              'width="160" height="80" style="display:block;margin-left:auto;"' in h,
              "html image width and align")
    if name == "docs-lists":
        check(name, '<ol start="4">' in h and h.count("<ol>") == 3, "html ol start")
        check(name, h.count('type="checkbox" disabled checked') == 2 and
              h.count('class="task"') == 5, "html task items")
    if name == "docs-rowspan":
        check(name, h.count('rowspan="2"') == 5 and h.count('rowspan="3"') == 2,
              "html rowspans")
    if spec.get("properties"):
        check(name, '<meta name="author" content="' + spec["properties"]["author"] + '">' in h,
              "html author meta")
    ids = set(re.findall(r' id="([^"]+)"', h))
    for a in re.findall(r'href="#([^"]+)"', h):
        check(name, a in ids, f"href #{a} names no id")
    for i, _ in enumerate(notes_of(spec)):
        n = i + 1
        check(name, f'id="fn-{n}"' in h and f'href="#fnref-{n}"' in h and f'id="fnref-{n}"' in h,
              f"footnote {n}: endnote or back link missing")


def cross_format(tmp, spec_path):
    """docs-toc: LibreOffice's PDF of the docx against quire's PDF."""
    name = "docs-toc (cross-format)"
    dx, pd = os.path.join(tmp, "toc.docx"), os.path.join(tmp, "toc.pdf")
    render(spec_path, dx)
    render(spec_path, pd)
    lo = os.path.join(tmp, "lo")
    os.makedirs(lo, exist_ok=True)
    r = soffice_convert("pdf", [dx], lo)
    lpdf = os.path.join(lo, "toc.pdf")
    if not check(name, os.path.exists(lpdf), f"LibreOffice made no PDF: {r.stderr}"):
        return
    qp, lp = pdf_pages(pd), pdf_pages(lpdf)
    qp = [p for p in qp if p.strip()]
    lp = [p for p in lp if p.strip()]
    check(name, len(qp) == len(lp), f"pages: quire {len(qp)}, LibreOffice {len(lp)}")

    def toc(pages):
        out = {}
        for ln in pages[0].splitlines():
            m = re.match(r"\s*(.+?)[ .]{2,}(\d+)\s*$", ln)
            if m and (m.group(1).startswith(("1", "2", "3", "4"))):
                out[m.group(1).strip()] = int(m.group(2))
        return out
    tq, tl = toc(qp), toc(lp)
    check(name, len(tq) == 8, f"quire's TOC entries {tq}")
    check(name, tq == tl, f"TOC pages differ: quire {tq}, LibreOffice {tl}")
    for entry, page in tq.items():
        for label, pages in (("quire", qp), ("LibreOffice", lp)):
            body = pages[page - 1] if page - 1 < len(pages) else ""
            check(name, entry in " ".join(body.split()),
                  f"{label}: TOC says {entry!r} is on page {page}, it is not")
    # merged cells span the same columns: docs-tables' rows read alike
    td, tp = os.path.join(tmp, "tables.docx"), os.path.join(tmp, "tables.pdf")
    render(os.path.join(SRC, "fixtures", "docs-tables", "spec.json"), td)
    render(os.path.join(SRC, "fixtures", "docs-tables", "spec.json"), tp)
    soffice_convert("pdf", [td], lo)
    rows = {}
    for label, f in (("quire", tp), ("LibreOffice", os.path.join(lo, "tables.pdf"))):
        txt = " ".join(" ".join(p.split()) for p in pdf_pages(f))
        rows[label] = [m.group(0) for m in re.finditer(r"Total 12,345 note|Wide header C", txt)]
    check(name, rows["quire"] == rows["LibreOffice"] == ["Total 12,345 note", "Wide header C"],
          f"spanned rows read {rows}")
    for i in range(1, 5):
        note = f"A note in chapter {i}."
        fq = [k for k, p in enumerate(qp) if note in " ".join(p.split())]
        fl = [k for k, p in enumerate(lp) if note in " ".join(p.split())]
        check(name, fq and fq == fl, f"note {i}: quire pages {fq}, LibreOffice pages {fl}")


def main():
    tool = need("tools/pdf-check")
    validate = need("tools/ooxml-validate")
    tmp = tempfile.mkdtemp(prefix="quire-docs-")
    fx = os.path.join(SRC, "fixtures")
    cases = sorted(c for c in os.listdir(fx) if c.startswith("docs-"))
    check("fixtures", len(cases) >= 8, f"docs-* fixtures: {cases}")
    docxs = []
    for case in cases:
        sp = os.path.join(fx, case, "spec.json")
        with open(sp, encoding="utf-8") as f:
            spec = json.load(f)
        out = {ext: os.path.join(tmp, f"{case}.{ext}") for ext in ("docx", "pdf", "html")}
        for o in out.values():
            render(sp, o)
        docxs.append(out["docx"])
        check_docx(case, spec, out["docx"])
        check_pdf(case, spec, out["pdf"], tool)
        check_html(case, spec, out["html"])
    if validate:
        p = subprocess.run([validate, "-q"] + docxs, capture_output=True, text=True, timeout=300)
        check("ooxml-validate", p.returncode == 0, p.stdout + p.stderr)
    cross_format(tmp, os.path.join(fx, "docs-toc", "spec.json"))
    sys.exit(finish(passed, failed))


if __name__ == "__main__":
    main()
