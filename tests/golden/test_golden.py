#!/usr/bin/python3
"""Golden fixtures: render every fixtures/<case>/spec.json with every backend
that applies and is built, and compare with fixtures/<case>/expected/<format>/.

- OOXML (docx, xlsx, pptx): parts.txt (every zip entry, with the sha256 of
  binary entries) and each XML part canonicalised (attributes sorted, one
  element per line, text kept) as expected/<format>/<part>.
- pdf: expected/pdf/pdf.txt: page count, fonts (pdffonts, subset tags
  removed) and the text (pdftotext, whitespace folded).
- html: expected/html/page.html, the file itself.
- png (fixtures/theme-*, docs-* and md-* only: the look of each theme, of
  issue 32's blocks and of each Markdown construct; and PNG_CASES, the look of issue 34's
  slide layouts): expected/png/page1.png,
  quire's own PNG of page 1 (a deck: its contact sheet) at PNG_DPI, compared
  byte for byte.
Every output is also rendered twice (same bytes) and the OOXML files go
through ../shared/tools/ooxml-validate, the PDFs through pdf-check.

QUIRE_UPDATE_GOLDEN=1 rewrites the expected files.
QUIRE_GOLDEN_FORMATS=docx,pdf limits the formats; QUIRE_GOLDEN_CASES=a,b the cases.
Ends with the line "N passed, N failed".
"""
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from xml.etree import ElementTree as ET

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import SHARED, finish, missing, need  # noqa: E402
UPDATE = os.environ.get("QUIRE_UPDATE_GOLDEN") == "1"
FIXTURES = os.path.join(SRC, "fixtures")

FORMATS_BY_KIND = {
    "document": ["docx", "pdf", "html"],
    "presentation": ["pptx"],
    "spreadsheet": ["xlsx"],
}


def kind_of(spec):
    if isinstance(spec, str):
        try:
            spec = json.loads(spec)
        except ValueError:
            return "document"
    if isinstance(spec, dict):
        if "slides" in spec:
            return "presentation"
        if "sheets" in spec:
            return "spreadsheet"
    return "document"


PNG_DPI = "60"
PNG_CASES = ("deck-structural", "deck-columns", "deck-ground-logo", "cont-agenda", "cond-sheet", "notes-sheet",
             "tables-sheet", "sheets-finance-model", "print-sheet", "print-fit-sheet")


def render(spec_path, out_path, fmt, spec_kind="document"):
    kind = {"docx": "document", "pdf": "pdf", "html": "html", "pptx": "presentation", "xlsx": "spreadsheet",
            "png": "pdf" if spec_kind == "document" else spec_kind}[fmt]
    extra = ["--dpi", PNG_DPI] if fmt == "png" else []
    if fmt == "png" and spec_kind == "presentation":
        extra.append("--contact")  # every slide: the title, content and section treatments
    p = subprocess.run([QUIRE, "render", spec_path, "-o", out_path, "-k", kind] + extra,
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, SOURCE_DATE_EPOCH="1767225600"))
    return p


def canonical_xml(data):
    """One element per line, attributes sorted, text kept exactly (JSON-quoted),
    names written with the prefixes the part itself declares."""
    prefixes = {}
    try:
        for _, (prefix, uri) in ET.iterparse(io.BytesIO(data), events=("start-ns",)):
            prefixes.setdefault(uri, prefix)
        root = ET.fromstring(data)
    except ET.ParseError as e:
        return "NOT WELL-FORMED: %s\n" % e
    prefixes.setdefault("http://www.w3.org/XML/1998/namespace", "xml")

    def name(n):
        if n.startswith("{"):
            uri, local = n[1:].split("}", 1)
            p = prefixes.get(uri)
            if p is None:
                return n
            return "%s:%s" % (p, local) if p else local
        return n
    out = []

    def walk(el, depth):
        attrs = " ".join('%s="%s"' % (name(k), v) for k, v in sorted(el.attrib.items(), key=lambda kv: name(kv[0])))
        line = "  " * depth + "<" + name(el.tag) + (" " + attrs if attrs else "") + ">"
        if el.text and (el.text.strip() or len(el) == 0):
            line += json.dumps(el.text, ensure_ascii=False)
        out.append(line)
        for ch in el:
            walk(ch, depth + 1)
            if ch.tail and ch.tail.strip():
                out.append("  " * (depth + 1) + "tail " + json.dumps(ch.tail, ensure_ascii=False))
    walk(root, 0)
    return "\n".join(out) + "\n"


def ooxml_expected(path):
    files = {}
    parts = []
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            data = z.read(info.filename)
            if info.filename.endswith(".xml") or info.filename.endswith(".rels"):
                parts.append(info.filename)
                files[info.filename + ".txt"] = canonical_xml(data)
            else:
                parts.append("%s sha256=%s" % (info.filename, hashlib.sha256(data).hexdigest()))
    files["parts.txt"] = "\n".join(parts) + "\n"
    return files


def pdf_expected(path):
    info = subprocess.run(["pdfinfo", path], capture_output=True, text=True).stdout
    pages = re.search(r"^Pages:\s+(\d+)", info, re.M)
    fonts = subprocess.run(["pdffonts", path], capture_output=True, text=True).stdout.splitlines()[2:]
    names = sorted({re.sub(r"^[A-Z]{6}\+", "", l.split()[0]) for l in fonts if l.strip()})
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", path, "-"], capture_output=True, text=True).stdout
    text = re.sub(r"\s+", " ", text).strip()
    # Wrap the folded text so diffs stay readable.
    lines = [text[i:i + 100] for i in range(0, len(text), 100)]
    return {"pdf.txt": "pages: %s\nfonts: %s\ntext:\n%s\n" % (pages.group(1) if pages else "?", ", ".join(names), "\n".join(lines))}


def html_expected(path):
    with open(path, encoding="utf-8") as f:
        return {"page.html": f.read()}


def png_expected(path):
    with open(path, "rb") as f:
        return {"page1.png": f.read()}


EXPECTED = {"docx": ooxml_expected, "xlsx": ooxml_expected, "pptx": ooxml_expected,
            "pdf": pdf_expected, "html": html_expected, "png": png_expected}


def compare(case, fmt, got):
    exp_dir = os.path.join(FIXTURES, case, "expected", fmt)
    if UPDATE:
        if os.path.isdir(exp_dir):
            shutil.rmtree(exp_dir)
        for name, content in got.items():
            p = os.path.join(exp_dir, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            if isinstance(content, bytes):
                with open(p, "wb") as f:
                    f.write(content)
            else:
                with open(p, "w", encoding="utf-8") as f:
                    f.write(content)
        return []
    problems = []
    if not os.path.isdir(exp_dir):
        return ["no expected/%s (run with QUIRE_UPDATE_GOLDEN=1)" % fmt]
    want = {}
    for dirpath, _, names in os.walk(exp_dir):
        for n in names:
            p = os.path.join(dirpath, n)
            with open(p, "rb" if n.endswith(".png") else "r", **({} if n.endswith(".png") else {"encoding": "utf-8"})) as f:
                want[os.path.relpath(p, exp_dir)] = f.read()
    for name in sorted(set(want) | set(got)):
        if name not in got:
            problems.append("%s: expected but not produced" % name)
        elif name not in want:
            problems.append("%s: produced but not expected" % name)
        elif isinstance(got[name], bytes):
            if want[name] != got[name]:
                problems.append("%s differs: %d bytes expected, %d rendered (QUIRE_UPDATE_GOLDEN=1 after "
                                "looking at it)" % (name, len(want[name]), len(got[name])))
        elif want[name] != got[name]:
            import difflib
            d = "".join(list(difflib.unified_diff(want[name].splitlines(True), got[name].splitlines(True),
                                                  "expected/" + name, "got/" + name, n=1))[:40])
            problems.append("%s differs:\n%s" % (name, d))
    return problems


def available(fmt, tmp):
    """A backend that is not built answers exit 3 with 'not built'."""
    spec = {"docx": '{"blocks":[]}', "pdf": '{"blocks":[]}', "html": '{"blocks":[]}',
            "pptx": '{"slides":[]}', "xlsx": '{"sheets":[]}', "png": '{"blocks":[]}'}[fmt]
    sp = os.path.join(tmp, "probe.json")
    with open(sp, "w") as f:
        f.write(spec)
    p = render(sp, os.path.join(tmp, "probe." + fmt), fmt)
    return not (p.returncode == 3 and "not built" in p.stdout)


def main():
    only_formats = [f for f in os.environ.get("QUIRE_GOLDEN_FORMATS", "").split(",") if f]
    only_cases = [c for c in os.environ.get("QUIRE_GOLDEN_CASES", "").split(",") if c]
    passed = failed = 0
    tmp = tempfile.mkdtemp(prefix="quire-golden-")
    built = {f: available(f, tmp) for f in EXPECTED}
    print("backends built: " + ", ".join(f for f in built if built[f]))
    for f in built:
        if not built[f]:
            missing("the .%s backend is not built" % f)
    to_validate = {"ooxml": [], "pdf": []}
    cases = sorted(c for c in os.listdir(FIXTURES)
                   if c != "errors" and os.path.isfile(os.path.join(FIXTURES, c, "spec.json")))
    for case in cases:
        if only_cases and case not in only_cases:
            continue
        spec_path = os.path.join(FIXTURES, case, "spec.json")
        with open(spec_path, encoding="utf-8") as f:
            try:
                spec = json.load(f)
            except ValueError:
                spec = None
        formats = FORMATS_BY_KIND[kind_of(spec)] + (["png"] if case.startswith(("theme-", "docs-", "md-")) or case in PNG_CASES else [])
        for fmt in formats:
            if only_formats and fmt not in only_formats:
                continue
            if not built[fmt]:
                continue
            out = os.path.join(tmp, "%s.%s" % (case, fmt))
            p = render(spec_path, out, fmt, kind_of(spec))
            problems = []
            if p.returncode != 0:
                problems.append("render failed (exit %d): %s %s" % (p.returncode, p.stdout.strip(), p.stderr.strip()[:500]))
            else:
                again = os.path.join(tmp, "%s.again.%s" % (case, fmt))
                render(spec_path, again, fmt, kind_of(spec))
                with open(out, "rb") as a, open(again, "rb") as b:
                    if a.read() != b.read():
                        problems.append("not deterministic: two renders differ")
                problems += compare(case, fmt, EXPECTED[fmt](out))
                if fmt in ("docx", "xlsx", "pptx"):
                    to_validate["ooxml"].append(out)
                elif fmt == "pdf":
                    to_validate["pdf"].append(out)
            name = "%s/%s" % (case, fmt)
            if problems:
                failed += 1
                print("FAIL %s\n  %s" % (name, "\n  ".join(problems)))
            else:
                passed += 1
                print("ok   %s" % name)
    validate, pdf_check = need("tools/ooxml-validate"), need("tools/pdf-check")
    if to_validate["ooxml"] and validate:
        p = subprocess.run([validate, "-q"] + to_validate["ooxml"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            failed += 1
            print("FAIL ooxml-validate\n" + p.stdout + p.stderr)
        else:
            passed += 1
            print("ok   ooxml-validate (%d files)" % len(to_validate["ooxml"]))
    if to_validate["pdf"] and pdf_check:
        p = subprocess.run([pdf_check, "-q"] + to_validate["pdf"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            failed += 1
            print("FAIL pdf-check\n" + p.stdout + p.stderr)
        else:
            passed += 1
            print("ok   pdf-check (%d files)" % len(to_validate["pdf"]))
    shutil.rmtree(tmp, ignore_errors=True)
    return finish(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
