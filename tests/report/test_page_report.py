#!/usr/bin/env python3
"""The layout report for documents and spreadsheets (issue 34): a word wider
than its line (a paragraph, a narrow table column, a wrapped sheet cell), a
table narrower than its content (a document table whose columns break words,
sheet text cut off by a filled neighbour, a number shown as ###) and a
picture drawn past its pixels, each provoked and found at its JSON pointer,
the same from the file and its preview; none for words that fit, text that
spills over empty cells, Thai (which breaks between words without spaces) or
a URL (which breaks after its slashes); --strict=KINDS refuses them."""
import base64
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from report import QUIRE, binding, check, done, png, render, scratch  # noqa: E402

quire = binding()
tmp = scratch("qr-page-report-")


def items(res, kind):
    return [i["path"] for i in res.get("layout", []) if i["kind"] == kind]


def item(res, kind, path):
    return next((i for i in res.get("layout", []) if i["kind"] == kind and i["path"] == path), None)


LONG = "Donaudampfschifffahrtsgesellschaftskapitän"
MID = "Haftpflichtversicherung"  # wider than a tenth of the page, narrower than the page
small = "data:image/png;base64," + base64.b64encode(png(40, 30)).decode()

# ---- documents: the .docx and its PDF say the same ----
doc = {"title": "T", "blocks": [
    {"type": "paragraph", "text": "Short words only, and a URL: https://example.com/a/b/c/d/e/f/g/h/i/j/k/l/m/"
                                  "n/o/p/q/r/s/t/u/v/w/x/y/z/one/two/three/four/five/six"},
    {"type": "paragraph", "text": "A run of letters " + "abcdefghij" * 12 + " breaks inside"},
    {"type": "table", "headers": ["Name", "Note", "Value"], "widths": [0.1, 0.6, 0.3],
     "rows": [[MID, "fits", 1], ["also " + MID, "fits", 2], ["a", "b", 3]]},
    {"type": "table", "headers": ["A", "B"], "rows": [["short", "words"]]},
    {"type": "table", "headers": ["ภาษา", "ข้อความ"],
     "rows": [["ไทย", "ภาษาไทยเขียนติดกันโดยไม่เว้นวรรคระหว่างคำในประโยคยาวๆแบบนี้"]]},
    {"type": "list", "items": [{"text": "item", "items": ["nested " + "x" * 90]}]},
    {"type": "image", "src": small, "alt": "a dot", "width": 300},
    {"type": "image", "src": small, "alt": "as it is"},
]}
for ext in ("docx", "pdf"):
    rc, res, _ = render(doc, ext)
    wb = items(res, "word_broken")
    check(rc == 0 and wb == ["/blocks/1/text", "/blocks/2/rows/0/0", "/blocks/5/items/0/items/0"],
          ext + ": word_broken in the paragraph, the narrow column's first cell, the nested item: %s" % wb)
    first = item(res, "word_broken", "/blocks/2/rows/0/0")
    check(first and first["value"] > 1 and MID in first["detail"] and "1 more cell" in first["detail"],
          ext + ": the column's item names its word and the other cell")
    check(items(res, "table_cut") == ["/blocks/2"], ext + ": table_cut at /blocks/2 only")
    tc = item(res, "table_cut", "/blocks/2")
    check(tc and tc["value"] < 1 and "other \"widths\"" in tc["detail"],
          ext + ": the table would fit with other widths (value below 1)")
    up = items(res, "image_upscaled")
    check(up == ["/blocks/6"] and item(res, "image_upscaled", "/blocks/6")["value"] >= 9.9,
          ext + ": image_upscaled at /blocks/6 (300 pt of a 40 px picture), not its natural-size twin")
    check(all(i.get("slide", 0) == 0 for i in res["layout"]), ext + ": no slide numbers on a document's items")
    if ext == "docx":  # no table of contents: the docx is not laid out on pages
        check(all(i.get("page", 0) == 0 for i in res["layout"]), "docx: no page numbers without a toc")
    else:
        check([i.get("page", 0) for i in res["layout"]] == [1, 1, 1, 1, 2],
              "pdf: the items on page 1, the 300 pt picture on page 2")

# ---- pages: each kind on the page its block starts on (PDF, PNG, a docx with a toc) ----
rows = [["row %d" % r, "value %d" % r] for r in range(90)]
paged = {"title": "Paged", "blocks": [
    {"type": "paragraph", "text": "Page one."},
    {"type": "page_break"},
    {"type": "paragraph", "text": "Marktwo " + "abcdefghij" * 12},                          # 2: word_broken
    {"type": "page_break"},
    {"type": "table", "caption": "Markthree", "headers": list("ABCDEFGH"), "rows": [[LONG] * 8]},  # 4
    {"type": "page_break"},
    {"type": "paragraph", "text": "Markfour"},
    {"type": "image", "src": small, "alt": "a dot", "width": 300},                          # 7: image_upscaled
    {"type": "page_break"},
    {"type": "table", "caption": "Markfive", "headers": ["Name", "Value"], "rows": rows},    # 9: continued
    {"type": "paragraph", "text": "Marklast"},
]}
WANT = [("word_broken", "/blocks/2/text", "Marktwo"), ("table_cut", "/blocks/4", "Markthree"),
        ("word_broken", "/blocks/4/rows/0/0", "Markthree"), ("image_upscaled", "/blocks/7", "Markfour"),
        ("continued", "/blocks/9", "Markfive")]
rc, res, _ = render(paged, "pdf")
pdf = os.path.join(tmp, "paged.pdf")
os.replace(os.path.join(tmp, "out.pdf"), pdf)


def page_of(word):
    """The PDF's page holding word (pdftotext, page by page)."""
    for n in range(1, res["pages"] + 1):
        t = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), pdf, "-"], capture_output=True, text=True)
        if word in t.stdout:
            return n
    return 0


pages = {w: page_of(w) for _, _, w in WANT}
check([pages[w] for w in ("Marktwo", "Markthree", "Markfour", "Markfive")] == [2, 3, 4, 5],
      "the marks are on pages 2 to 5: %s" % pages)
last = page_of("Marklast")
check(last > 5, "the 90 rows run past page 5 (the last paragraph on page %d)" % last)
toc = dict(paged, blocks=[{"type": "toc", "title": "Contents"}] + paged["blocks"])
for ext, spec, shift in (("pdf", paged, 0), ("png", paged, 0), ("docx", toc, 1)):
    rc, res, _ = render(spec, ext)
    check(rc == 0, ext + ": rendered")
    for kind, path, word in WANT:
        if shift:
            path = "/blocks/%d%s" % (int(path.split("/")[2]) + shift, path[len("/blocks/") + len(path.split("/")[2]):])
        it = item(res, kind, path)
        want = pages[word] + (1 if kind == "continued" else 0)
        check(it is not None and it.get("page") == want,
              "%s: %s at %s on page %d: %s" % (ext, kind, path, want, it and it.get("page")))
    cont = [i for i in res["layout"] if i["kind"] == "continued"]
    check(len(cont) == 1 and cont[0]["value"] == cont[0]["page"] and
          "under the header row again" in cont[0]["detail"] and "to %d" % last in cont[0]["detail"],
          ext + ": one continued item for the long table, its value the page, to page %d: %s" % (last, cont))
rc, res, _ = render(paged, "docx")
check(rc == 0 and not items(res, "continued") and all(i.get("page", 0) == 0 for i in res["layout"]),
      "docx without a toc: no pages, no continued item (nothing lays it out)")

# a table whose words need more than the page: the value says how much
wide = {"title": "T", "blocks": [{"type": "table", "headers": list("ABCDEFGH"),
                                  "rows": [[LONG] * 8]}]}
rc, res, _ = render(wide, "docx")
tc = item(res, "table_cut", "/blocks/0")
check(tc and tc["value"] > 1.5 and "8 of its 8 columns" in tc["detail"], "table_cut: 8 columns need more than the page")
check(len(items(res, "word_broken")) == 8, "one word_broken per column")

# the PDF breaks where the report says: the long word spans lines there
subprocess.run([QUIRE, "render", os.path.join(tmp, "spec.json"), "-o", os.path.join(tmp, "w.pdf")],
               capture_output=True)
txt = subprocess.run(["pdftotext", os.path.join(tmp, "w.pdf"), "-"], capture_output=True, text=True).stdout
check(LONG not in txt.replace("\n", " "), "the PDF breaks the word inside")

rc, res, made = render(doc, "docx", "--strict=table_cut")
check(rc == 1 and not made and res["errors"][0]["path"] == "/blocks/2", "--strict=table_cut: exit 1 at /blocks/2, no file")

# html flows: no page lines, no items of these kinds
rc, res, _ = render(doc, "html")
check(rc == 0 and not items(res, "word_broken") and not items(res, "table_cut"), "html: no line items")

# ---- spreadsheets: the .xlsx and its preview say the same ----
sheet = {"title": "S", "sheets": [{"name": "Data", "columns": ["Region", "Note", "Amount"], "widths": [8, 10, 6],
                                   "rows": [["EMEA", "a rather long note that does not fit in ten", 123456789.5],
                                            ["APAC", "short", 1],
                                            ["LATAM and more text that spills", None, 2],
                                            ["x", {"value": "Kraftfahrzeughaftpflichtversicherung ok", "wrap": True}, 3],
                                            ["EMEA", "another rather long note, cut too", 4],
                                            ["spills over empty cells", None, None]]}]}
for ext in ("xlsx", "pdf"):
    rc, res, _ = render(sheet, ext)
    tc = items(res, "table_cut")
    check(rc == 0 and tc == ["/sheets/0/rows/2/0", "/sheets/0/rows/0/1", "/sheets/0/rows/0/2"],
          ext + ": table_cut at the clipped texts and the ### number: %s" % tc)
    b = item(res, "table_cut", "/sheets/0/rows/0/1")
    check(b and "B2" in b["detail"] and "1 more cell" in b["detail"] and b["value"] > 2,
          ext + ": the column's item names its cell, counts the other one")
    c = item(res, "table_cut", "/sheets/0/rows/0/2")
    check(c and "###" in c["detail"], ext + ": a number too wide shows ###")
    wb = items(res, "word_broken")
    check(wb == ["/sheets/0/rows/3/1"] and "Kraftfahrzeug" in item(res, "word_broken", wb[0])["detail"],
          ext + ": word_broken in the wrapped cell")

# the columns header row has its own pointer; autofit columns show everything
hdr = {"title": "S", "sheets": [{"name": "H", "columns": ["A very long column heading", "B"], "widths": [5],
                                 "rows": [["x", "y"]]}]}
rc, res, _ = render(hdr, "xlsx")
check(items(res, "table_cut") == ["/sheets/0/columns/0"], "a columns header at /sheets/0/columns/0")
auto = {"title": "S", "sheets": [{"name": "A", "rows": [["Region", "Note"], ["EMEA", "a long note " * 5],
                                                        ["x", 12345678.25]]}]}
rc, res, _ = render(auto, "xlsx")
check(rc == 0 and res["layout"] == [], "autofit widths: nothing to report")

rc, res, made = render(sheet, "xlsx", "--strict=word_broken")
check(rc == 1 and not made and res["errors"][0]["path"] == "/sheets/0/rows/3/1", "--strict=word_broken on a sheet")

# a big document: its words are measured on a thread of their own while the
# pages are laid out (render/render.c), the same items as on one thread
big = {"title": "T " + LONG * 2, "blocks": []}
for i in range(60):
    big["blocks"] += [{"type": "paragraph", "text": "words " * 150 + LONG},
                      {"type": "table", "headers": ["A", "B " + LONG], "widths": [0.1, 0.9],
                       "rows": [[MID, "x"] for _ in range(40)]},
                      {"type": "list", "items": [{"text": "item", "items": ["nested " + LONG]}]}]
check(len(json.dumps(big)) > 96 * 1024, "the big document is past render.c's BIG_INPUT")
# (a docx with a toc measures them while it waits for the toc's pages)
big_toc = dict(big, blocks=[{"type": "toc", "title": "Contents"}] + big["blocks"])
for ext, spec in (("pdf", big), ("docx", big), ("docx", big_toc)):
    rc, res, _ = render(spec, ext)
    os.environ["QUIRE_THREADS"] = "1"
    rc1, res1, _ = render(spec, ext)
    del os.environ["QUIRE_THREADS"]
    pages = {i.get("page", 0) for i in res.get("layout", [])}
    paged_out = ext == "pdf" or spec is big_toc
    check(rc == rc1 == 0 and res["layout"] == res1["layout"] and len(res["layout"]) > 100 and
          (not paged_out or len(pages) > 20),
          ext + (" with a toc" if spec is big_toc else "") +
          ": a big document's report on two threads is the report on one")

# the library, through the binding: the same list
out = quire.render(sheet, "spreadsheet", "xlsx")
check([i["path"] for i in out.layout if i["kind"] == "table_cut"] ==
      ["/sheets/0/rows/2/0", "/sheets/0/rows/0/1", "/sheets/0/rows/0/2"], "binding: Rendered.layout of a sheet")

done()
