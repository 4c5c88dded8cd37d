"""Hostile files for `quire read`: a zip bomb stops at a cap (exit 4 naming
it), XXE and billion laughs are refused before any entity is used, an OLE
(encrypted) file, a truncated zip and a part that is not XML fail with exit
1 and a clear message; each in under 1 s and 100 MB."""
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
failed = 0
# An address-space cap as a backstop, except under ASan, which reserves terabytes
# of shadow memory; the peak RSS is checked either way.
ASAN = "asan" in subprocess.run(["ldd", QUIRE], capture_output=True, text=True).stdout
CAP = [] if ASAN else ["/usr/bin/prlimit", "--as=%d" % (400 << 20)]


def run(path, *extra):
    t = time.monotonic()
    r = subprocess.run(CAP + [QUIRE, "read", path] + list(extra), capture_output=True, text=True,
                       timeout=20)
    return r, time.monotonic() - t


def check(name, path, code, needle, *extra):
    global failed
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    r, secs = run(path, *extra)
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    needles = needle if isinstance(needle, tuple) else (needle,)
    ok = r.returncode == code and any(n in r.stdout for n in needles) and secs < (5.0 if ASAN else 1.0)
    try:
        res = json.loads(r.stdout)
        ok = ok and res["status"] == "error"
    except ValueError:
        ok = False
    # KiB; a high-water mark over all children so far (ASan's shadow counts: 400 MB there)
    ok = ok and rss < (400 if ASAN else 100) * 1024
    print("%s %s: exit %d in %.2f s, peak %d MB: %s" % ("ok  " if ok else "FAIL", name, r.returncode,
                                                       secs, rss // 1024, r.stdout.strip()[:200]))
    if not ok:
        failed += 1


def docx_with(document_xml, extra=None):
    """A real quire docx with word/document.xml replaced."""
    tmp = os.path.join(TMP, "base.docx")
    subprocess.run([QUIRE, "render", os.path.join(SRC, "fixtures/doc-every-block/spec.json"),
                    "-o", tmp], check=True, capture_output=True)
    out = io.BytesIO()
    with zipfile.ZipFile(tmp) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "word/document.xml":
                data = document_xml
            zout.writestr(item.filename, data)
        for name, data in (extra or {}).items():
            zout.writestr(name, data)
    return out.getvalue()


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


with tempfile.TemporaryDirectory() as TMP:
    # A zip bomb: 512 MB of zeros, deflated (about 0.5 MB), as the document part.
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("_rels/.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>')
        with z.open("word/document.xml", "w", force_zip64=True) as f:
            chunk = b"\0" * (1 << 24)
            for _ in range(32):
                f.write(chunk)
    path = write("bomb.docx", bomb.getvalue())
    check("zip bomb (ratio)", path, 4, "max_ratio")
    check("zip bomb (total)", path, 4, "max_unzipped", "--max-ratio", "0", "--max-unzipped",
          "50000000")

    xxe = (b'<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
           b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
           b'<w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body></w:document>')
    check("XXE", write("xxe.docx", docx_with(xxe)), 1, "DOCTYPE")
    r, _ = run(os.path.join(TMP, "xxe.docx"))
    if "root:" in r.stdout:
        print("FAIL XXE: /etc/passwd leaked")
        failed += 1

    lol = b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    for i in range(1, 10):
        prev = "lol" if i == 1 else "lol%d" % (i - 1)
        lol += ('<!ENTITY lol%d "%s">' % (i, ("&%s;" % prev) * 10)).encode()
    lol += (b']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
            b'<w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>')
    # libxml2 may refuse the entity declarations themselves: either way, nothing expands.
    check("billion laughs", write("lol.docx", docx_with(lol)), 1, ("DOCTYPE", "not well-formed"))

    # The same in a sheet, which streams through the SAX path.
    base_x = os.path.join(TMP, "base.xlsx")
    subprocess.run([QUIRE, "render", os.path.join(SRC, "fixtures/sheet-ragged/spec.json"), "-o",
                    base_x], check=True, capture_output=True)
    sheet_xxe = xxe.replace(b"w:document", b"worksheet").replace(
        b"<w:body><w:p><w:r><w:t>&x;</w:t></w:r></w:p></w:body>",
        b'<sheetData><row><c t="inlineStr"><is><t>&x;</t></is></c></row></sheetData>')
    out = io.BytesIO()
    with zipfile.ZipFile(base_x) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = sheet_xxe
            zout.writestr(item.filename, data)
    check("XXE in a sheet", write("xxe.xlsx", out.getvalue()), 1, "DOCTYPE")

    ole = bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) + b"\0" * 4096
    check("encrypted (OLE)", write("enc.docx", ole), 1, "encrypted")

    whole = docx_with(open(os.path.join(SRC, "fixtures/doc-every-block/spec.json"), "rb").read())
    good = open(os.path.join(TMP, "base.docx"), "rb").read()
    check("truncated zip", write("cut.docx", good[: len(good) // 2]), 1, "package")
    check("a part that is not XML", write("notxml.docx", docx_with(b"\x89PNG not xml at all")), 1,
          "not well-formed XML")
    # PDFs: a password-protected copy (qpdf) and a truncated one.
    pdf = os.path.join(TMP, "m.pdf")
    subprocess.run([QUIRE, "render", os.path.join(SRC, "fixtures/pdf-lists/spec.json"), "-o", pdf],
                   check=True, capture_output=True)
    enc = os.path.join(TMP, "enc.pdf")
    subprocess.run(["qpdf", "--encrypt", "pw", "pw", "256", "--", pdf, enc], check=True)
    check("password PDF", enc, 1, "password-protected")
    whole_pdf = open(pdf, "rb").read()
    check("truncated PDF", write("cut.pdf", whole_pdf[: len(whole_pdf) // 3]), 1, "damaged")
    check("not an Office file", write("x.docx", b"hello world"), 1, "not a .docx")
    check("an empty file", write("empty.docx", b""), 1, "not a .docx")

print("%d failed" % failed)
sys.exit(1 if failed else 0)
