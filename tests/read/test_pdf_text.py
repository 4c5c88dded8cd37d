"""PDF text right (issue 38): Hebrew and Arabic PDFs that quire renders, and
LibreOffice's PDFs of the same text (from quire's docx), read back in
logical order, every line (poppler selects a right-to-left page from its
top right), lines that mix both directions too (poppler's right-to-left
words: one character each in quire's PDFs, whole words in LibreOffice's); line-end hyphens rejoined where the word continues, form
fields' values and annotations' text read (PDFs written here); a letter-spaced Japanese line (LibreOffice's
PDF of a flat ODT with fo:letter-spacing) read as text, not as a table of
single characters. Spec, markdown and text."""
import json
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
from shared import finish, need_tool  # noqa: E402
from office import soffice_convert  # noqa: E402

passed = failed = 0


def expect(name, cond, detail=""):
    global passed, failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail), flush=True)
    if cond:
        passed += 1
    else:
        failed += 1


def read(path, to="spec"):
    r = subprocess.run([QUIRE, "read", path, "--to", to], capture_output=True, text=True,
                       timeout=60)
    if r.returncode != 0:
        print("read %s --to %s: exit %d %s" % (path, to, r.returncode, r.stderr))
    return r.stdout


HEBREW = ["שלום עולם, זהו מסמך בעברית.", "השורה השנייה של המסמך.",
          "שורה שלישית עם מילים נוספות.", "והשורה הרביעית והאחרונה."]
ARABIC = ["مرحبا بالعالم، هذه وثيقة باللغة العربية.", "السطر الثاني من الوثيقة."]
# Lines of both directions: right-to-left with Latin words, numbers and
# brackets inside, left-to-right with right-to-left words inside.
MIXED = ["שלום world 123 עולם", "The word שלום עולם means hello world.",
         "العربية (Arabic) سنة 2024 و PDF 1.7", "Version 3.2 of مرحبا بالعالم is out.",
         "מחיר: 45.50 ₪ (כולל מע\"מ)"]


def pdf_lines(lines, annots=(), page=""):
    """A one-page PDF of Helvetica lines, 12.5 pt apart from y 720; annots:
    annotation dictionaries (a widget's /FT makes it a form field, in the
    AcroForm); page: more keys of the page's dictionary."""
    content = "BT /F1 11 Tf 72 720 Td 12.5 TL " + " ".join(
        "(%s) '" % ln.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        for ln in lines) + " ET"
    refs = " ".join("%d 0 R" % (6 + i) for i in range(len(annots)))
    fields = " ".join("%d 0 R" % (6 + i) for i, a in enumerate(annots) if "/FT" in a)
    objs = ["<< /Type /Catalog /Pages 2 0 R%s >>"
            % (" /AcroForm << /Fields [%s] /DA (/Helv 0 Tf 0 g) >>" % fields if fields else ""),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
            "/Resources << /Font << /F1 5 0 R >> >>%s%s >>"
            % (" /Annots [%s]" % refs if refs else "", page),
            "<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"]
    objs += [a.replace("PAGE", "3 0 R") for a in annots]
    out = b"%PDF-1.4\n"
    offs = []
    for i, o in enumerate(objs):
        offs.append(len(out))
        out += ("%d 0 obj\n%s\nendobj\n" % (i + 1, o)).encode("latin-1")
    xref = len(out)
    out += ("xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)).encode()
    out += "".join("%010d 00000 n \n" % o for o in offs).encode()
    out += ("trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(objs) + 1, xref)).encode()
    return out


def paragraphs(spec_text):
    return [b.get("text") for b in json.loads(spec_text or "{}").get("blocks", [])
            if b.get("type") == "paragraph"]


with tempfile.TemporaryDirectory() as tmp:
    # Right-to-left: quire's PDF and LibreOffice's PDF of quire's docx.
    for lang, texts in (("he", HEBREW), ("ar", ARABIC), ("en", MIXED)):
        spec = os.path.join(tmp, lang + ".json")
        with open(spec, "w") as f:
            json.dump({"lang": lang, "blocks": [{"type": "paragraph", "text": t}
                                                for t in texts]}, f, ensure_ascii=False)
        pdf = os.path.join(tmp, lang + ".pdf")
        subprocess.run([QUIRE, "render", spec, "-o", pdf], capture_output=True, check=True)
        expect("quire's %s PDF: every line in logical order" % lang,
               paragraphs(read(pdf)) == texts, read(pdf))
        txt = read(pdf, "text")
        expect("quire's %s PDF: text" % lang, all(t in txt for t in texts), txt)
        md = read(pdf, "markdown")
        expect("quire's %s PDF: markdown" % lang, all(t in md for t in texts), md)
        if need_tool("soffice"):
            docx = os.path.join(tmp, lang + "-lo.docx")
            subprocess.run([QUIRE, "render", spec, "-o", docx], capture_output=True, check=True)
            lo = os.path.join(tmp, "lo")
            soffice_convert("pdf", [docx], lo, timeout=300)
            lopdf = os.path.join(lo, lang + "-lo.pdf")
            got = paragraphs(read(lopdf)) if os.path.exists(lopdf) else None
            expect("LibreOffice's %s PDF: every line in logical order" % lang, got == texts,
                   json.dumps(got, ensure_ascii=False))
            txt = read(lopdf, "text") if os.path.exists(lopdf) else ""
            expect("LibreOffice's %s PDF: text" % lang, all(t in txt for t in texts), txt)

    # Lam-alef: one glyph for two letters, which poppler gives reversed;
    # quire's PDF (one glyph per word) reads them in order, on a
    # right-to-left page and in a left-to-right line alike.
    for lang in ("ar", "en"):
        lam = ["السلام عليكم ولا شيء للاختبار.", "لا إله"]
        spec = os.path.join(tmp, "lam-%s.json" % lang)
        with open(spec, "w") as f:
            json.dump({"lang": lang, "title": "T", "blocks": [
                {"type": "paragraph", "text": t} for t in lam]}, f, ensure_ascii=False)
        pdf = os.path.join(tmp, "lam-%s.pdf" % lang)
        subprocess.run([QUIRE, "render", spec, "-o", pdf], capture_output=True, check=True)
        got = paragraphs(read(pdf))
        expect("quire's %s PDF: lam-alef in order" % lang, got == lam,
               json.dumps(got, ensure_ascii=False))

    # Line-end hyphens.
    hy = os.path.join(tmp, "hyphens.pdf")
    with open(hy, "wb") as f:
        f.write(pdf_lines(["The inter-", "preter reads a well-", "Known name on pages 10-",
                           "12 and a co-", "operative plan."]))
    got = paragraphs(read(hy))
    want = ["The interpreter reads a well- Known name on pages 10- 12 and a cooperative plan."]
    expect("hyphens: rejoined where the word continues, kept elsewhere", got == want,
           json.dumps(got))
    expect("hyphens: text", "interpreter" in read(hy, "text"))
    expect("hyphens: markdown", "cooperative" in read(hy, "markdown"))

    # Text outside the crop box (inside the media box), as pdftotext reads it.
    cr = os.path.join(tmp, "crop.pdf")
    with open(cr, "wb") as f:
        f.write(pdf_lines(["Above the crop box.", "Still above it.", "Inside the crop box."],
                          page=" /CropBox [0 0 612 700]"))
    got = paragraphs(read(cr))
    expect("text outside the crop box: read", got == [
        "Above the crop box. Still above it. Inside the crop box."], json.dumps(got))
    expect("text outside the crop box: text", "Above the crop box" in read(cr, "text"))

    # Form fields and annotations: a filled text field, a list with a chosen
    # item, a free-text annotation and a sticky note, beside the page's text.
    fo = os.path.join(tmp, "form.pdf")
    with open(fo, "wb") as f:
        f.write(pdf_lines(["Application form"], annots=[
            "<< /Type /Annot /Subtype /Widget /FT /Tx /T (name) /V (Ada Lovelace) "
            "/Rect [72 600 300 620] /P PAGE /F 4 >>",
            "<< /Type /Annot /Subtype /Widget /FT /Ch /Ff 131072 /T (city) /Opt [(Paris) "
            "(London)] /V (London) /Rect [72 560 300 580] /P PAGE /F 4 >>",
            "<< /Type /Annot /Subtype /FreeText /Contents (Reviewed by the board) "
            "/Rect [72 500 300 520] /DA (/Helv 10 Tf 0 g) /P PAGE >>",
            "<< /Type /Annot /Subtype /Text /Contents (Check the date) "
            "/Rect [400 700 420 720] /P PAGE >>"]))
    got = paragraphs(read(fo))
    expect("form fields and annotations: read as text, top to bottom", got == [
        "Check the date", "Application form", "Ada Lovelace", "London",
        "Reviewed by the board"], json.dumps(got))
    txt = read(fo, "text")
    expect("form fields and annotations: text", "Ada Lovelace" in txt and "London" in txt, txt)
    expect("form fields and annotations: markdown", "Reviewed by the board" in read(fo, "markdown"))

    # A letter-spaced Japanese line from LibreOffice.
    if need_tool("soffice"):
        jp = "日本語の文書を読む"
        fodt = os.path.join(tmp, "spaced.fodt")
        with open(fodt, "w", encoding="utf-8") as f:
            f.write(
                '<?xml version="1.0" encoding="UTF-8"?>'
                '<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
                ' xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"'
                ' xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
                ' xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"'
                ' office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">'
                '<office:automatic-styles><style:style style:name="P1" style:family="paragraph">'
                '<style:text-properties fo:letter-spacing="0.4cm" style:font-name-asian='
                '"Noto Serif CJK JP" style:font-size-asian="12pt"/></style:style>'
                '</office:automatic-styles><office:body><office:text>'
                '<text:p text:style-name="P1">%s</text:p>'
                '</office:text></office:body></office:document>' % jp)
        lo = os.path.join(tmp, "lo")
        soffice_convert("pdf", [fodt], lo, timeout=300)
        sp = os.path.join(lo, "spaced.pdf")
        spec = read(sp) if os.path.exists(sp) else ""
        blocks = json.loads(spec or "{}").get("blocks", [])
        expect("letter-spaced Japanese: one paragraph of text, no table",
               blocks and blocks[0]["type"] == "paragraph"
               and blocks[0]["text"].startswith(jp)
               and not any(b["type"] == "table" for b in blocks), spec)
        expect("letter-spaced Japanese: text", jp in (read(sp, "text") if spec else ""))

sys.exit(finish(passed, failed))
