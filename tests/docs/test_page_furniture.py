#!/usr/bin/python3
"""test_page_furniture.py: the page header and footer (issue 32's "page":
{"header", "footer", "first_page"}) in every format.

fixtures/docs-page-furniture (a header and a footer with {title}, {date},
{page} and {pages} on every page) and docs-page-first-bare ("first_page":
false, the house footer):
  1. docx: python-docx reads the header's text and the footer's text around
     its PAGE and NUMPAGES fields; "first_page": false is w:titlePg with
     empty first-page parts; ooxml-validate passes.
  2. PDF: each page's first and last lines are its header and footer, with
     the page's own number (page 1 bare for first_page false); pdf-check
     passes; the PNG of page 2 is drawn from the same layout (its size).
  3. html: print CSS @page margin boxes with counter(page) and
     counter(pages), and @page:first emptied for first_page false.
  4. LibreOffice's PDF of the docx shows the same header and footer lines on
     the same pages as quire's PDF.
  5. {date} without a properties date is the output's fixed date
     (SOURCE_DATE_EPOCH); a field quire does not know is an error naming
     /page/footer with a did-you-mean.
Ends with "N passed, N failed".
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

import docx

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
from shared import finish, need  # noqa: E402
from office import soffice_convert  # noqa: E402

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
passed = failed = 0

# per case: the header and footer lines of each page (None: none)
EXPECT = {
    "docs-page-furniture": [("Quarterly Review · 2026-03-31", "Page 1 of 2"),
                            ("Quarterly Review · 2026-03-31", "Page 2 of 2")],
    "docs-page-first-bare": [(None, None), ("Confidential: Proposal", "2 / 2")],
}


def check(name, ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {msg}", flush=True)
    return ok


def render(spec_path, out, env=None, extra=()):
    return subprocess.run([QUIRE, "render", spec_path, "-o", out] + list(extra),
                          capture_output=True, text=True, timeout=120, env=env)


def pdf_pages(pdf):
    """Each page's non-empty lines, spaces collapsed."""
    p = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                       timeout=60)
    pages = p.stdout.split("\f")
    if pages and not pages[-1].strip():
        pages.pop()
    return [[" ".join(ln.split()) for ln in pg.splitlines() if ln.strip()] for pg in pages]


def sq(s):
    return s.replace(" ", "")


def check_docx(case, path, expect):
    d = docx.Document(path)
    sec = d.sections[0]
    head, foot = expect[-1]
    check(case, sec.header.paragraphs[0].text == head,
          f"docx header {sec.header.paragraphs[0].text!r}, want {head!r}")
    with zipfile.ZipFile(path) as z:
        ftr = z.read("word/footer1.xml").decode()
        doc = z.read("word/document.xml").decode()
        names = z.namelist()
    instr = re.findall(r'w:instr="([^"]*)"', ftr)
    check(case, [i.strip() for i in instr] == ["PAGE", "NUMPAGES"], f"footer fields {instr}")
    # the footer's text with each field's cached "1" in place of the field
    text = "".join(re.findall(r"<w:t[^>]*>([^<]*)</w:t>", ftr))
    want = re.sub(r"\d+", "1", foot)
    check(case, text == want, f"footer text {text!r}, want {want!r}")
    bare = expect[0] == (None, None)
    check(case, sec.different_first_page_header_footer == bare,
          f"titlePg {sec.different_first_page_header_footer}, want {bare}")
    if bare:
        check(case, "word/header2.xml" in names and "word/footer2.xml" in names, f"parts {names}")
        check(case, all(not p.text for p in sec.first_page_header.paragraphs) and
              all(not p.text for p in sec.first_page_footer.paragraphs),
              "the first-page header and footer are not empty")
    check(case, doc.count("w:headerReference") == (2 if bare else 1), "headerReference count")


def check_pdf(case, path, expect, tool):
    if tool:
        p = subprocess.run([tool, path], capture_output=True, text=True, timeout=120)
        check(case, p.returncode == 0, f"pdf-check: {p.stdout} {p.stderr}")
    pages = pdf_pages(path)
    if not check(case, len(pages) == len(expect), f"{len(pages)} pages, want {len(expect)}"):
        return pages
    for i, (pg, (h, f)) in enumerate(zip(pages, expect)):
        if h:
            check(case, pg[0] == h, f"page {i + 1} header {pg[0]!r}, want {h!r}")
        else:
            check(case, not any("Confidential" in ln or "/" in ln for ln in pg),
                  f"page {i + 1} is not bare: {pg}")
        if f:
            # (pdftotext may drop the narrow spaces of the 9 pt "2 / 2")
            check(case, sq(pg[-1]) == sq(f), f"page {i + 1} footer {pg[-1]!r}, want {f!r}")
    return pages


def check_html(case, path, expect):
    with open(path, encoding="utf-8") as f:
        html = f.read()
    page = re.search(r"@page\{[^@]*(@top-center\{[^}]*\})?(@bottom-center\{[^}]*\})?\}", html)
    check(case, page is not None, "no @page rule")
    if not page:
        return
    head, foot = expect[-1]
    top = page.group(1) or ""
    bottom = page.group(2) or ""
    check(case, head in top if head else not top, f"@top-center {top!r}")
    check(case, "counter(page)" in bottom and "counter(pages)" in bottom,
          f"@bottom-center {bottom!r}")
    bare = expect[0] == (None, None)
    check(case, ("@page:first{@top-center{content:none}@bottom-center{content:none}}" in html) == bare,
          "@page:first")


def main():
    tool = need("tools/pdf-check")
    validate = need("tools/ooxml-validate")
    tmp = tempfile.mkdtemp(prefix="quire-furniture-")
    fx = os.path.join(SRC, "fixtures")
    docxs = []
    quire_pages = {}
    for case, expect in EXPECT.items():
        sp = os.path.join(fx, case, "spec.json")
        out = {ext: os.path.join(tmp, f"{case}.{ext}") for ext in ("docx", "pdf", "html")}
        for o in out.values():
            p = render(sp, o)
            check(case, p.returncode == 0, f"render {o}: {p.stdout} {p.stderr}")
        docxs.append(out["docx"])
        check_docx(case, out["docx"], expect)
        quire_pages[case] = check_pdf(case, out["pdf"], expect, tool)
        check_html(case, out["html"], expect)
        png = os.path.join(tmp, f"{case}.png")
        p = render(sp, png, extra=["--page", "2"])
        check(case, p.returncode == 0 and json.loads(p.stdout).get("pages") == 2,
              f"png page 2: {p.stdout}")
    if validate:
        p = subprocess.run([validate, "-q"] + docxs, capture_output=True, text=True, timeout=300)
        check("ooxml-validate", p.returncode == 0, p.stdout + p.stderr)

    # 4. LibreOffice paginates the docx's header and footer fields itself
    lo = os.path.join(tmp, "lo")
    os.makedirs(lo, exist_ok=True)
    r = soffice_convert("pdf", docxs, lo)
    for case, expect in EXPECT.items():
        lpdf = os.path.join(lo, f"{case}.pdf")
        if not check(case, os.path.exists(lpdf), f"LibreOffice made no PDF: {r.stderr}"):
            continue
        lp = pdf_pages(lpdf)
        qp = quire_pages[case]
        check(case, len(lp) == len(qp), f"LibreOffice {len(lp)} pages, quire {len(qp)}")
        for i, (lpg, qpg, (h, f)) in enumerate(zip(lp, qp, expect)):
            if h:
                check(case, lpg[0] == qpg[0] == h, f"page {i + 1} header: LO {lpg[0]!r} quire {qpg[0]!r}")
            else:
                check(case, lpg[0] == qpg[0], f"page {i + 1} first line: LO {lpg[0]!r} quire {qpg[0]!r}")
            if f:
                check(case, sq(lpg[-1]) == sq(qpg[-1]) == sq(f), f"page {i + 1} footer: LO {lpg[-1]!r} quire {qpg[-1]!r}")
            else:
                check(case, lpg[-1] == qpg[-1], f"page {i + 1} last line: LO {lpg[-1]!r} quire {qpg[-1]!r}")

    # 5. {date} from the output's date; an unknown field
    sp = os.path.join(tmp, "date.json")
    with open(sp, "w") as f:
        json.dump({"page": {"footer": "{date} | {page}"}, "blocks": [{"type": "paragraph", "text": "x"}]}, f)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")
    pdf = os.path.join(tmp, "date.pdf")
    render(sp, pdf, env=env)
    check("date", pdf_pages(pdf)[0][-1] == "2026-01-01 | 1", f"{pdf_pages(pdf)}")
    env["SOURCE_DATE_EPOCH"] = "1780000000"  # 2026-05-28
    render(sp, pdf, env=env)
    check("date", pdf_pages(pdf)[0][-1] == "2026-05-28 | 1", f"{pdf_pages(pdf)}")
    with open(sp, "w") as f:
        json.dump({"page": {"footer": "{pages} {titel}"}, "blocks": [{"type": "paragraph", "text": "x"}]}, f)
    bad = os.path.join(tmp, "bad.docx")
    p = render(sp, bad)
    res = json.loads(p.stdout)
    check("unknown field", p.returncode == 1 and not os.path.exists(bad) and
          res["errors"][0]["path"] == "/page/footer" and "{title}" in res["errors"][0]["hint"],
          p.stdout)
    sys.exit(finish(passed, failed))


if __name__ == "__main__":
    main()
