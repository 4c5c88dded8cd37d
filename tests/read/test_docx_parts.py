"""What Word files hold beside the body's plain flow (issue 38), each in a
file made here (zip + XML by hand, tests/read/ooxml_make.py) and read back
as spec, markdown and text: tracked changes read as accepted (insertions and
moved-to text kept, deletions and moved-from text dropped); a sub-list with
its own numbering nested in its list; lists inside table cells kept as
marked lines; comments, page headers and footers as warnings that name
their part (a document spec has no place for them)."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ooxml_make as m  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


def read(path, to="spec"):
    r = subprocess.run([QUIRE, "read", path, "--to", to], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        print("read %s --to %s: exit %d %s" % (path, to, r.returncode, r.stderr))
    return r


def wr(text, props=""):
    return '<w:r><w:rPr>%s</w:rPr><w:t xml:space="preserve">%s</w:t></w:r>' % (props, text)


def para(runs, ppr=""):
    return '<w:p><w:pPr>%s</w:pPr>%s</w:p>' % (ppr, runs)


def num(num_id, ilvl):
    return '<w:numPr><w:ilvl w:val="%d"/><w:numId w:val="%d"/></w:numPr>' % (ilvl, num_id)


def abstract(aid, fmts):
    return ('<w:abstractNum w:abstractNumId="%d">' % aid + ''.join(
        '<w:lvl w:ilvl="%d"><w:start w:val="1"/><w:numFmt w:val="%s"/></w:lvl>' % (i, f)
        for i, f in enumerate(fmts)) + '</w:abstractNum>')


# Two numberings: 1 is a bullet list (bullets at every level), 2 counts
# (decimal, then lower letters).
NUMBERING = (m.CT + '<w:numbering xmlns:w="%s">' % m.W + abstract(0, ["bullet"] * 3)
             + abstract(1, ["decimal", "lowerLetter", "lowerRoman"])
             + '<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>'
             '<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>')
NUM_PARTS = dict(extra=[("word/numbering.xml", NUMBERING)],
                 rels=[("rId8", "numbering", "numbering.xml", False)])

with tempfile.TemporaryDirectory() as tmp:
    # Tracked changes: an insertion, a deletion, a move (from and to).
    d = os.path.join(tmp, "tracked.docx")
    ins = '<w:ins w:id="1" w:author="A" w:date="2026-01-01T00:00:00Z">%s</w:ins>'
    dele = ('<w:del w:id="2" w:author="A" w:date="2026-01-01T00:00:00Z"><w:r><w:delText>'
            'old words </w:delText></w:r></w:del>')
    m.docx(d, para(wr("Kept ") + ins % wr("inserted ") + dele + wr("end."))
           + '<w:moveFromRangeStart w:id="3" w:name="move1"/>'
           + para('<w:moveFrom w:id="4" w:author="A">' + wr("Moved paragraph.") + '</w:moveFrom>')
           + '<w:moveFromRangeEnd w:id="3"/>' + para(wr("Middle."))
           + '<w:moveToRangeStart w:id="5" w:name="move1"/>'
           + para('<w:moveTo w:id="6" w:author="A">' + wr("Moved paragraph.") + '</w:moveTo>')
           + '<w:moveToRangeEnd w:id="5"/>')
    blocks = json.loads(read(d).stdout or "{}").get("blocks")
    expect("tracked changes: read as accepted, the move once", blocks == [
        {"type": "paragraph", "text": "Kept inserted end."},
        {"type": "paragraph", "text": "Middle."},
        {"type": "paragraph", "text": "Moved paragraph."}], json.dumps(blocks))
    md = read(d, "markdown").stdout
    expect("tracked changes: markdown", md.strip() ==
           "Kept inserted end.\n\nMiddle.\n\nMoved paragraph.", md)
    txt = read(d, "text").stdout
    expect("tracked changes: text", txt.count("Moved paragraph.") == 1
           and "old words" not in txt, txt)

    # A bullet list with a counted sub-list of its own numbering (numId 2
    # at level 1), then the bullets again.
    d = os.path.join(tmp, "nested.docx")
    m.docx(d, para(wr("Fruit"), num(1, 0)) + para(wr("Apples"), num(2, 1))
           + para(wr("Pears"), num(2, 1)) + para(wr("Vegetables"), num(1, 0))
           + para(wr("after")), **NUM_PARTS)
    blocks = json.loads(read(d).stdout or "{}").get("blocks")
    expect("sub-list with its own numbering: nested, not a new list", blocks == [
        {"type": "list", "items": [{"text": "Fruit", "items": ["Apples", "Pears"]},
                                   "Vegetables"]},
        {"type": "paragraph", "text": "after"}], json.dumps(blocks))
    md = read(d, "markdown").stdout
    expect("sub-list: markdown", "- Fruit\n  - Apples\n  - Pears\n- Vegetables" in md, md)
    txt = read(d, "text").stdout
    expect("sub-list: text", "Apples" in txt and txt.index("Fruit") < txt.index("Apples")
           < txt.index("Vegetables"), txt)

    # Lists inside table cells: a bullet list, and a counted list with a
    # second level.
    d = os.path.join(tmp, "celllists.docx")

    def tc(paras):
        return '<w:tc><w:tcPr/>%s</w:tc>' % paras
    m.docx(d, '<w:tbl><w:tblPr/><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/>'
           '</w:tblGrid><w:tr>' + tc(para(wr("Needs"))) + tc(para(wr("Steps"))) + '</w:tr><w:tr>'
           + tc(para(wr("milk"), num(1, 0)) + para(wr("eggs"), num(1, 0)))
           + tc(para(wr("First:")) + para(wr("mix"), num(2, 0)) + para(wr("slowly"), num(2, 1))
                + para(wr("bake"), num(2, 0)))
           + '</w:tr></w:tbl>', **NUM_PARTS)
    blocks = json.loads(read(d).stdout or "{}").get("blocks")
    expect("lists in cells: kept as marked lines (levels counted in digits)", blocks == [
        {"type": "table", "rows": [["Needs", "Steps"], [
            "\u2022 milk\n\u2022 eggs", "First:\n1. mix\n  1. slowly\n2. bake"]]}],
           json.dumps(blocks, ensure_ascii=False))
    md = read(d, "markdown").stdout
    expect("lists in cells: markdown", "\u2022 milk" in md and "2. bake" in md, md)
    txt = read(d, "text").stdout
    expect("lists in cells: text", "\u2022 eggs" in txt and "1. mix" in txt, txt)

    # Comments, a page header (default and first page, same text), a
    # footer with text and a page-number footer.
    d = os.path.join(tmp, "parts.docx")
    comments = (m.CT + '<w:comments xmlns:w="%s">' % m.W
                + ''.join('<w:comment w:id="%d" w:author="Ann"><w:p>%s</w:p></w:comment>'
                          % (i, wr(t)) for i, t in enumerate(["Check this figure.",
                                                              "Source?"])) + '</w:comments>')

    def hf(el, text):
        return (m.CT + '<w:%s xmlns:w="%s"><w:p>%s</w:p></w:%s>' % (el, m.W, text, el))
    page = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE '
            '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
            + wr("1") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
    m.docx(d, para(wr("Body ") + '<w:commentRangeStart w:id="0"/>' + wr("figure")
                   + '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r>'
                   + wr(" text.") + '<w:r><w:commentReference w:id="1"/></w:r>'),
           extra=[("word/comments.xml", comments),
                  ("word/header1.xml", hf("hdr", wr("Acme Ltd \u2014 Confidential"))),
                  ("word/header2.xml", hf("hdr", wr("Acme Ltd \u2014 Confidential"))),
                  ("word/footer1.xml", hf("ftr", wr("Draft 3"))),
                  ("word/footer2.xml", hf("ftr", page))],
           rels=[("rId4", "comments", "comments.xml", False),
                 ("rId5", "header", "header1.xml", False),
                 ("rId6", "header", "header2.xml", False),
                 ("rId7", "footer", "footer1.xml", False),
                 ("rId8", "footer", "footer2.xml", False)])
    r = read(d)
    blocks = json.loads(r.stdout or "{}").get("blocks")
    expect("comments: the body reads without them",
           blocks == [{"type": "paragraph", "text": "Body figure text."}], json.dumps(blocks))
    expect("comments: a warning counts them and their words",
           "word/comments.xml: 2 comments (4 words) not read" in r.stderr, r.stderr)
    expect("header: a warning with its text, once",
           r.stderr.count("the page header \"Acme Ltd \u2014 Confidential\" not read") == 1,
           r.stderr)
    expect("footer: a warning with its text", "word/footer1.xml: the page footer \"Draft 3\""
           in r.stderr, r.stderr)
    expect("footer: a page number alone is no warning", "footer2" not in r.stderr, r.stderr)
    for to in ("markdown", "text"):
        r = read(d, to)
        expect("comments, header, footer: %s reads the body and warns" % to,
               r.stdout.strip() == "Body figure text." and "2 comments" in r.stderr
               and "Draft 3" in r.stderr, r.stdout + r.stderr)

    # An equation (OMML): e_i = sum_{j=1}^{n} e_j R_ij, then a fraction, a
    # radical with a degree and a bracketed pair.
    M = "http://schemas.openxmlformats.org/officeDocument/2006/math"

    def mr(t):
        return '<m:r><m:t>%s</m:t></m:r>' % t

    def ssub(base, sub):
        return '<m:sSub><m:e>%s</m:e><m:sub>%s</m:sub></m:sSub>' % (mr(base), mr(sub))
    eq = ('<m:oMath>' + ssub("e", "i") + mr("=")
          + '<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>' + mr("j=1")
          + '</m:sub><m:sup>' + mr("n") + '</m:sup><m:e>' + ssub("e", "j") + ssub("R", "ij")
          + '</m:e></m:nary></m:oMath>')
    eq2 = ('<m:oMath><m:f><m:num>' + mr("α+1") + '</m:num><m:den>' + mr("2")
           + '</m:den></m:f>' + mr("+") + '<m:rad><m:deg>' + mr("3") + '</m:deg><m:e>'
           + mr("x") + '</m:e></m:rad>' + mr("+")
           + '<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/></m:dPr><m:e>' + mr("a")
           + '</m:e><m:e>' + mr("b") + '</m:e></m:d>'
           + '<m:sSup><m:e>' + mr("y") + '</m:e><m:sup>' + mr("2") + '</m:sup></m:sSup>'
           + '<m:nary><m:sub>' + mr("0") + '</m:sub><m:sup>' + mr("1") + '</m:sup><m:e>'
           + mr("f") + '</m:e></m:nary></m:oMath>')
    d = os.path.join(tmp, "math.docx")
    m.docx(d, ('<w:p xmlns:m="%s">' % M) + wr("Energy ") + eq + wr(" holds.") + '</w:p>'
           + ('<w:p xmlns:m="%s"><m:oMathPara>' % M) + eq2 + '</m:oMathPara></w:p>')
    blocks = json.loads(read(d).stdout or "{}").get("blocks")
    expect("equation: linear text, every symbol, scripts as runs", blocks == [
        {"type": "paragraph", "runs": [
            "Energy e", {"text": "i", "sub": True}, "=∑", {"text": "j=1", "sub": True},
            {"text": "n", "sup": True}, "e", {"text": "j", "sub": True}, "R",
            {"text": "ij", "sub": True}, " holds."]},
        {"type": "paragraph", "runs": [
            "(α+1)/(2)+", {"text": "3", "sup": True}, "√(x)+[a|b]y",
            {"text": "2", "sup": True}, "∫", {"text": "0", "sub": True},
            {"text": "1", "sup": True}, "f"]}], json.dumps(blocks, ensure_ascii=False))
    md = read(d, "markdown").stdout
    expect("equation: markdown", "Energy e<sub>i</sub>=∑<sub>j=1</sub><sup>n</sup>e<sub>j"
           "</sub>R<sub>ij</sub> holds." in md, md)
    txt = read(d, "text").stdout
    expect("equation: text", "Energy e" in txt and "=\u2211" in txt and "\u221a(x)" in txt
           and "y\u00b2" in txt, txt)

    # A drop cap: Word's framed first letter joins its paragraph.
    d = os.path.join(tmp, "dropcap.docx")
    m.docx(d, para(wr("O"), '<w:framePr w:dropCap="drop" w:lines="3" w:wrap="around" '
                   'w:vAnchor="text" w:hAnchor="text"/>')
           + para(wr("nce upon a time, a drop cap.")) + para(wr("Next paragraph.")))
    blocks = json.loads(read(d).stdout or "{}").get("blocks")
    expect("drop cap: joined to its paragraph", blocks == [
        {"type": "paragraph", "text": "Once upon a time, a drop cap."},
        {"type": "paragraph", "text": "Next paragraph."}], json.dumps(blocks))
    expect("drop cap: text", read(d, "text").stdout.startswith("Once upon"))
    expect("drop cap: markdown", read(d, "markdown").stdout.startswith("Once upon"))

    # Word's own page furniture (issue 32): the body's sectPr names a default
    # header and footer and a first-page pair (titlePg); the default ones
    # read back as the page's templates, PAGE and NUMPAGES fields (complex
    # and simple) as {page} and {pages}, a DATE field as its shown text.
    d = os.path.join(tmp, "furniture.docx")

    def fld(instr, shown):
        return ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space='
                '"preserve"> %s </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/>'
                '</w:r>%s<w:r><w:fldChar w:fldCharType="end"/></w:r>' % (instr, wr(shown)))
    sect = ('<w:sectPr><w:headerReference w:type="default" r:id="rId5"/>'
            '<w:headerReference w:type="first" r:id="rId6"/>'
            '<w:footerReference w:type="default" r:id="rId7"/>'
            '<w:footerReference w:type="first" r:id="rId8"/>'
            '<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" '
            'w:left="1440"/><w:titlePg/></w:sectPr>')
    m.docx(d, para(wr("Body.")) + sect,
           extra=[("word/header1.xml", hf("hdr", wr("Acme \u2014 ") + fld('DATE \\@ "yyyy"', "2026"))),
                  ("word/header2.xml", hf("hdr", wr("Cover"))),
                  ("word/footer1.xml", hf("ftr", wr("Page ") + fld("PAGE \\* MERGEFORMAT", "3")
                                          + wr(" of ") + '<w:fldSimple w:instr=" NUMPAGES ">'
                                          + wr("9") + '</w:fldSimple>')),
                  ("word/footer2.xml", hf("ftr", ""))],
           rels=[("rId5", "header", "header1.xml", False),
                 ("rId6", "header", "header2.xml", False),
                 ("rId7", "footer", "footer1.xml", False),
                 ("rId8", "footer", "footer2.xml", False)])
    r = read(d)
    page = json.loads(r.stdout or "{}").get("page")
    expect("furniture: the default header and footer as templates, titlePg as first_page",
           page == {"size": "A4", "header": "Acme \u2014 2026", "footer": "Page {page} of {pages}",
                    "first_page": False}, json.dumps(page, ensure_ascii=False))
    expect("furniture: the first-page header is still named", "Cover" in r.stderr, r.stderr)

    # python-docx's first-page and even-page headers (issue 32): a first page
    # unlike the others reads as bare (first_page: false) with a warning for
    # its own text; one like the others, or no first page of its own, reads
    # as nothing; even pages unlike the odd ones (settings' evenAndOddHeaders)
    # read as the odd ones with a warning naming the even part's text.
    import docx as pydocx

    def made(first=None, even=None, odd_even=True):
        p = os.path.join(tmp, "pydocx.docx")
        doc = pydocx.Document()
        sec = doc.sections[0]
        sec.header.paragraphs[0].text = "Acme report"
        sec.footer.paragraphs[0].text = "Confidential"
        if first is not None:
            sec.different_first_page_header_footer = True
            sec.first_page_header.paragraphs[0].text = first[0]
            sec.first_page_footer.paragraphs[0].text = first[1]
        if even is not None:
            doc.settings.odd_and_even_pages_header_footer = odd_even
            sec.even_page_header.paragraphs[0].text = even
            sec.even_page_footer.paragraphs[0].text = "Confidential"
        doc.add_paragraph("Body.")
        doc.save(p)
        r = read(p)
        return json.loads(r.stdout or "{}").get("page", {}), r.stderr
    page, err = made(first=("Cover letterhead", ""), even="Acme report (even)")
    expect("python-docx first page: bare, the default pair as templates",
           page.get("first_page") is False and page.get("header") == "Acme report"
           and page.get("footer") == "Confidential", json.dumps(page))
    expect("python-docx first page: its own header named precisely",
           "the first page's own header \"Cover letterhead\" not read (page 1 reads as bare"
           in err and err.count("first page") == 1, err)
    expect("python-docx even pages: named with the odd pages' text",
           "the even pages' own header \"Acme report (even)\" not read (they read as the odd "
           "pages' \"Acme report\")" in err and "even pages' own footer" not in err, err)
    page, err = made(first=("", ""))
    expect("python-docx empty first page: first_page false, no warning",
           page.get("first_page") is False and "warning" not in err, json.dumps(page) + err)
    page, err = made(first=("Acme report", "Confidential"), even="Acme report (even)",
                     odd_even=False)
    expect("python-docx first page like the others, even pages off: nothing to say",
           "first_page" not in page and page.get("header") == "Acme report" and "warning" not in err,
           json.dumps(page) + err)

    # Word's bookmarks, internal hyperlinks and cross-references (issue 32):
    # a bookmark is its block's id (a hidden "_Ref" one only once something
    # links to it, without its underscore), a REF field whose result is the
    # target heading's text a ref, a hyperlink to a bookmark a "#id" link,
    # one to no bookmark its text.
    d = os.path.join(tmp, "xref.docx")

    def bm(i, name, inner):
        return ('<w:bookmarkStart w:id="%d" w:name="%s"/>%s<w:bookmarkEnd w:id="%d"/>'
                % (i, name, inner, i))

    def anchor(name, text):
        return '<w:hyperlink w:anchor="%s">%s</w:hyperlink>' % (name, wr(text))
    ref = ('<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">'
           ' REF _Ref12 \\h </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>'
           + wr("Scope") + '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
    m.docx(d, para(bm(0, "_Ref12", wr("Scope")), '<w:outlineLvl w:val="0"/>')
           + para(bm(1, "_GoBack", "") + bm(2, "intro", wr("Intro text.")))
           + para(wr("See ") + ref + wr(", ") + anchor("intro", "the intro") + wr(", ")
                  + anchor("nowhere", "gone") + wr(".")))
    r = read(d)
    blocks = json.loads(r.stdout or "{}").get("blocks")
    expect("cross-references: ids, a ref, a #id link, a dangling link as text", blocks == [
        {"type": "heading", "level": 1, "text": "Scope", "id": "Ref12"},
        {"type": "paragraph", "text": "Intro text.", "id": "intro"},
        {"type": "paragraph", "runs": ["See ", {"ref": "Ref12"}, ", ",
                                       {"text": "the intro", "link": "#intro"}, ", gone."]}],
           json.dumps(blocks) + r.stderr)

    # A table of contents reads back as a toc block (issue 32): its title
    # unless it is the language's default, the TOC field's levels, and not
    # its entries (the field's cached result) as text.
    for spec, want in (
            ({"title": "T", "blocks": [{"type": "toc", "levels": 2},
                                       {"type": "heading", "text": "One"},
                                       {"type": "heading", "text": "Two", "level": 2}]},
             [{"type": "toc", "levels": 2}, {"type": "heading", "level": 1, "text": "One"},
              {"type": "heading", "level": 2, "text": "Two"}]),
            ({"lang": "de", "blocks": [{"type": "toc", "title": "Übersicht"},
                                       {"type": "heading", "text": "Eins"}]},
             [{"type": "toc", "title": "Übersicht"}, {"type": "heading", "level": 1, "text": "Eins"}])):
        sp, d = os.path.join(tmp, "toc.json"), os.path.join(tmp, "toc.docx")
        with open(sp, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        subprocess.run([QUIRE, "render", sp, "-o", d], capture_output=True, check=True)
        blocks = json.loads(read(d).stdout or "{}").get("blocks")
        expect("toc: read back as a block (%s)" % spec["blocks"][0], blocks == want,
               json.dumps(blocks, ensure_ascii=False))

    # Captions read back (issue 32): quire's bold label ("Tabelle 1: ", "表1：")
    # dropped, above a table or below an image, chart or code block.
    cases = {"docs-captions-de": [("table", "Gebühren"), ("image", "Ein Testbild"),
                                  ("chart", [{"text": "Umsatz", "italic": True}, " je Quartal"]),
                                  ("code", "Ein Programm"), ("table", "Zweite Tabelle")],
             "docs-captions-ja": [("table", "料金表")]}
    for case, want in cases.items():
        d = os.path.join(tmp, case + ".docx")
        subprocess.run([QUIRE, "render", os.path.join(SRC, "fixtures", case, "spec.json"), "-o", d],
                       capture_output=True, check=True)
        blocks = json.loads(read(d).stdout or "{}").get("blocks", [])
        got = [(b["type"], b["caption"]) for b in blocks if "caption" in b]
        expect("captions: %s" % case, got == want, json.dumps(got, ensure_ascii=False))
        if case == "docs-captions-de":
            md = read(d, "markdown").stdout
            expect("captions: markdown shows them where the document does",
                   "**Tabelle 1:** Gebühren\n\n| Posten" in md and
                   "![Testbild](image1.png)\n\n**Abbildung 1:** Ein Testbild" in md, md[:400])
        expect("captions: %s has no caption paragraph left" % case,
               not any(b["type"] == "paragraph" and ": " in json.dumps(b, ensure_ascii=False)
                       and "Tabelle 1: " in json.dumps(b, ensure_ascii=False) for b in blocks),
               json.dumps(blocks, ensure_ascii=False)[:300])

print("%d failed" % failed)
sys.exit(1 if failed else 0)
