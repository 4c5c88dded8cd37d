#!/usr/bin/env python3
"""The layout report (issue 34): each kind provoked and found with its JSON
pointer and slide, in the CLI's result line, the library (through the Python
binding) and every format that lays the spec out; empty for specs with
nothing to report; --strict=KINDS turns chosen kinds into errors (exit 1, no
file)."""
import base64
import os
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from report import binding, check, done, png, render, scratch  # noqa: E402

quire = binding()
tmp = scratch("qr-report-")


def items(res, kind):
    return [(i["path"], i.get("slide", 0)) for i in res.get("layout", []) if i["kind"] == kind]


LONG = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
tiny = "data:image/png;base64," + base64.b64encode(png(40, 30)).decode()

# shrink: with its scale, the same from the .pptx and its preview
deck = {"title": "T", "slides": [{"title": "Fine", "bullets": ["a", "b"]},
                                 {"title": "Dense", "bullets": [LONG] * 7}]}
for ext in ("pptx", "pdf"):
    rc, res, _ = render(deck, ext)
    check(rc == 0 and items(res, "shrink") == [("/slides/1/bullets", 2)], ext + ": shrink at /slides/1/bullets")
    sh = [i for i in res["layout"] if i["kind"] == "shrink"]
    check(sh and 0.25 <= sh[0]["value"] < 1 and "%" in sh[0]["detail"], ext + ": shrink carries its scale")

# small text and a cut table: one row too long for the slide even at 8 pt (rows that
# merely do not fit continue on new slides: test_deck_continue.py)
rows = [["row", " ".join([LONG] * 40)]]
deck = {"title": "T", "slides": [{"title": "Table", "table": {"headers": ["a", "b"], "rows": rows}}]}
rc, res, _ = render(deck, "pptx")
check(("/slides/0/table", 1) in items(res, "small_text"), "small_text at /slides/0/table")
check(items(res, "table_cut") == [("/slides/0/table", 1)], "table_cut at /slides/0/table")

# an image drawn larger than its pixels
deck = {"title": "T", "slides": [{"title": "Pic", "image": {"src": tiny, "alt": "dot"}}]}
rc, res, _ = render(deck, "pptx")
up = [i for i in res["layout"] if i["kind"] == "image_upscaled"]
check(items(res, "image_upscaled") == [("/slides/0/image", 1)] and up[0]["value"] > 10,
      "image_upscaled at /slides/0/image, with its factor")

# a word wider than its line, broken inside: a stat's value in a narrow column, a long
# compound in one of six table columns; the pptx and its preview say the same; none for
# words that fit (the slide just before)
deck = {"title": "T", "slides": [
    {"title": "Fits", "bullets": ["short words only"]},
    {"layout": "stats", "title": "N", "stats": [{"value": "1,234,567,890"}, {"value": "2"},
                                                {"value": "3"}, {"value": "4"}]},
    {"title": "Table", "table": {"headers": list("ABCDEF"),
                                 "rows": [["Donaudampfschifffahrtsgesellschaftskapitän"] + list("xyzwv")]}}]}
for ext in ("pptx", "pdf"):
    rc, res, _ = render(deck, ext)
    check(items(res, "word_broken") == [("/slides/1/stats/0/value", 2), ("/slides/2/table/rows/0/0", 3)],
          ext + ": word_broken at the stat's value and the table cell: %s" % items(res, "word_broken"))
    wb = [i for i in res["layout"] if i["kind"] == "word_broken"]
    check(wb and wb[0]["value"] > 1 and "1,234,567,890" in wb[0]["detail"], ext + ": word_broken names the word")
rc, res, ok = render(deck, "pptx", "--strict=word_broken")
check(rc == 1 and not ok, "--strict=word_broken: exit 1, no file")

# contrast: a yellow accent the report theme draws its headings and title in is
# darkened for the text until it reads (issue 37 row 20): a warning, no item
doc = {"title": "Yellow", "theme": "report", "accent": "#FFEE00",
       "blocks": [{"type": "heading", "text": "H", "level": 1}, {"type": "paragraph", "text": "p"}]}
for ext in ("docx", "pdf"):
    rc, res, _ = render(doc, ext)
    check(items(res, "contrast") == [] and [w["path"] for w in res["warnings"]] == ["/accent"],
          "yellow accent: a warning at /accent, no contrast item (%s)" % ext)
# contrast: a mid-grey accent under a slide table's header text
deck = {"title": "T", "accent": "#777777",
        "slides": [{"title": "Tab", "table": {"headers": ["a", "b"], "rows": [["1", "2"]]}}]}
for ext in ("pptx", "pdf"):
    rc, res, _ = render(deck, ext)
    check(items(res, "contrast") and items(res, "contrast")[0][0] == "/accent", "contrast at /accent (%s)" % ext)

# contrast: a slide's own background under the theme's text, in the pptx and the preview
deck = {"title": "T", "slides": [{"title": "Pale", "background": "#F5F5DC"},
                                 {"title": "Dark", "bullets": ["x"], "background": "#0F172A"}]}
for ext in ("pptx", "pdf"):
    rc, res, _ = render(deck, ext)
    check(items(res, "contrast") == [("/slides/1/background", 2)], ext + ": contrast at /slides/1/background, slide 2")
with zipfile.ZipFile(os.path.join(tmp, "out.pptx")) as z:
    check('<a:srgbClr val="0F172A"/>' in z.read("ppt/slides/slide2.xml").decode(), "pptx: the slide's p:bg")

# a missing glyph: U+F0000 (private use) is in no font
doc = {"title": "T", "blocks": [{"type": "paragraph", "text": "x \U000F0000"}]}
for ext in ("docx", "pdf"):
    rc, res, _ = render(doc, ext)
    mg = [i for i in res["layout"] if i["kind"] == "missing_glyph"]
    check(len(mg) == 1 and mg[0]["path"].startswith("/blocks/0") and mg[0]["value"] == 0xF0000,
          ext + ": missing_glyph at /blocks/0 with its code point")
deck = {"title": "T", "slides": [{"title": "a"}, {"title": "x \U000F0000"}]}
rc, res, _ = render(deck, "pptx")
check(items(res, "missing_glyph") == [("/slides/1/title", 2)], "missing_glyph at /slides/1/title, slide 2")

# nothing to report: an empty list, in every format
plain_doc = {"title": "T", "blocks": [{"type": "paragraph", "text": "Hello"}]}
plain_sheet = {"title": "T", "sheets": [{"name": "S", "rows": [["a", 1]]}]}
plain_deck = {"title": "T", "slides": [{"title": "Hi", "bullets": ["one"]}]}
for spec, ext in ((plain_doc, "docx"), (plain_doc, "pdf"), (plain_doc, "html"), (plain_sheet, "xlsx"),
                  (plain_sheet, "pdf"), (plain_deck, "pptx"), (plain_deck, "png")):
    rc, res, _ = render(spec, ext)
    check(rc == 0 and res.get("layout") == [], "%s: empty layout report" % ext)

# --strict=KINDS: those kinds are errors, at their pointers, with no file
dense = {"title": "T", "slides": [{"title": "Dense", "bullets": [LONG] * 7}]}
rc, res, made = render(dense, "pptx", "--strict=shrink")
check(rc == 1 and not made and res["errors"][0]["path"] == "/slides/0/bullets" and
      "shrink" in res["errors"][0]["message"], "--strict=shrink: exit 1 at /slides/0/bullets, no file")
rc, res, made = render(dense, "pptx", "--strict=contrast,small_text")
check(rc == 0 and made, "--strict=contrast,small_text leaves a shrink alone")
rc, res, made = render(dense, "pptx", "--strict=layout")
check(rc == 1 and not made, "--strict=layout: every kind")
rc, res, made = render(dense, "pptx", "--strict=shrnk")
check(rc == 2 and not made, "--strict=shrnk: a usage error")

# the library, through the binding: the same list
out = quire.render(dense, "presentation", "pptx")
check([(i["kind"], i["path"], i.get("slide")) for i in out.layout] == [("shrink", "/slides/0/bullets", 1)],
      "binding: Rendered.layout")
try:
    quire.render(dense, "presentation", "pptx", strict_layout=["shrink"])
    check(False, "binding: strict_layout raises")
except quire.QuireError as e:
    check(e.errors and e.errors[0]["path"] == "/slides/0/bullets", "binding: strict_layout raises at the pointer")
check(quire.render(plain_doc, "document", "docx").layout == [], "binding: empty report")

done()
