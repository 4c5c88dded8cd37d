"""Helpers of the cross-format fidelity tests (issue 18): render a spec,
read a PDF's structure tree with qpdf's JSON output, export an Office file
to PDF with LibreOffice, and list the document fixtures."""
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from office import soffice_convert  # noqa: E402
from shared import need_tool  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FIXTURES = os.path.join(SRC, "fixtures")
ENV = dict(os.environ, SOURCE_DATE_EPOCH="1767225600")


def render(spec, out, kind, *extra):
    """Render spec (a path or a dict) to out with -k kind; the CLI's result."""
    path = spec
    if isinstance(spec, dict):
        path = out + ".json"
        with open(path, "w") as f:
            json.dump(spec, f)
    p = subprocess.run([QUIRE, "render", path, "-o", out, "-k", kind] + list(extra),
                       capture_output=True, text=True, timeout=300, env=ENV)
    if p.returncode != 0:
        raise AssertionError("quire render %s failed: %s" % (path, p.stdout + p.stderr))
    return p


def has_markdown(spec):
    """Whether a document spec holds a markdown block: what it expands to is
    checked block for block by tests/markdown/test_markdown.py (the same bytes
    as the blocks written out), so the checks that read a spec's blocks
    directly leave such a fixture to it."""
    return any(isinstance(b, dict) and b.get("type") == "markdown" for b in spec.get("blocks", []))


def document_fixtures():
    """(name, spec dict, spec path) of every fixture whose spec is a document
    (a markdown block's fixtures aside: has_markdown)."""
    out = []
    for name in sorted(os.listdir(FIXTURES)):
        p = os.path.join(FIXTURES, name, "spec.json")
        if not os.path.isfile(p):
            continue
        with open(p) as f:
            try:
                spec = json.load(f)
            except ValueError:
                continue
        if (isinstance(spec, dict) and "slides" not in spec and "sheets" not in spec
                and not has_markdown(spec)):
            out.append((name, spec, p))
    return out


def spec_blocks(spec):
    """The blocks a document spec compiles to (legacy sections expanded)."""
    blocks = []
    for s in spec.get("sections") or []:
        if s.get("heading"):
            blocks.append({"type": "heading", "text": s["heading"], "level": 1})
        for p in s.get("paragraphs") or []:
            blocks.append({"type": "paragraph", "text": p})
    return blocks + list(spec.get("blocks") or [])


def pdf_objects(pdf):
    """qpdf --json's objects: {"12 0 R": value}."""
    p = subprocess.run(["qpdf", "--json", pdf], capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 3):
        raise AssertionError("qpdf --json failed: " + p.stderr)
    j = json.loads(p.stdout)
    objs = {}
    for k, v in j["qpdf"][1].items():
        if k.startswith("obj:"):
            objs[k[4:]] = v.get("value", v.get("stream", {}).get("dict"))
    return objs


def catalog(objs):
    for v in objs.values():
        if isinstance(v, dict) and v.get("/Type") == "/Catalog":
            return v
    raise AssertionError("no catalog")


def struct_elements(objs):
    """The structure tree's elements in document order: (type, dict)."""
    root = objs[catalog(objs)["/StructTreeRoot"]]
    out = []

    def walk(ref):
        if not isinstance(ref, str) or not ref.endswith(" R"):
            return
        e = objs.get(ref)
        if not isinstance(e, dict) or e.get("/Type") not in ("/StructElem", None) or "/S" not in e:
            return
        out.append((e["/S"][1:], e))
        kids = e.get("/K")
        for k in kids if isinstance(kids, list) else [kids]:
            walk(k)

    kids = root.get("/K")
    for k in kids if isinstance(kids, list) else [kids]:
        walk(k)
    return out


def is_chart_data(objs, table):
    """A chart's data table: its first row's cells carry /ActualText (no content)."""
    kids = table.get("/K")
    rows = [objs.get(k) for k in (kids if isinstance(kids, list) else [kids]) if isinstance(k, str)]
    if not rows or not isinstance(rows[0], dict):
        return False
    cells = rows[0].get("/K")
    cells = [objs.get(k) for k in (cells if isinstance(cells, list) else [cells]) if isinstance(k, str)]
    return bool(cells) and all(isinstance(c, dict) and "/ActualText" in c for c in cells)


def pdf_text_string(v):
    """qpdf JSON's string value ("u:text" or "b:hex") as text."""
    if v.startswith("u:"):
        return v[2:]
    if v.startswith("b:"):
        return bytes.fromhex(v[2:]).decode("latin-1")
    return v


def soffice_pdf(path, outdir):
    """LibreOffice's PDF of an Office file (its own profile in outdir)."""
    p = soffice_convert("pdf", [path], outdir, timeout=300, profile=os.path.join(outdir, "lo-profile"))
    out = os.path.join(outdir, os.path.splitext(os.path.basename(path))[0] + ".pdf")
    if not os.path.exists(out):
        raise AssertionError("soffice could not convert %s: %s" % (path, p.stdout + p.stderr))
    return out


def pdftotext(pdf, *args):
    return subprocess.run(["pdftotext", "-layout"] + list(args) + [pdf, "-"], capture_output=True,
                          text=True, timeout=120).stdout


def have(tool):
    """Whether TOOL is installed; when not, the step is skipped by the one
    skip policy (tests/lib/shared.py: a failure in CI)."""
    return need_tool(tool) is not None


def tmpdir():
    return tempfile.mkdtemp(prefix="quire-fid-")


_TOKEN = re.compile(r"\((?:[^()\\]|\\.)*\)|<<.*?>>|<[0-9A-Fa-f\s]*>|\[|\]|/[^\s/\[\]()<>]+|[^\s/\[\]()<>]+", re.S)


def marked_text(pdf, tmp):
    """Each page's text-showing operators (qpdf QDF), in order, each with the
    marked-content sequences around it: [[(operator, [(tag, properties)])]]
    (properties: the BDC dictionary's text, or "")."""
    qdf = os.path.join(tmp, os.path.basename(pdf) + ".qdf")
    subprocess.run(["qpdf", "--qdf", "--object-streams=disable", pdf, qdf], check=True)
    with open(qdf, "rb") as f:
        data = f.read().decode("latin-1")
    pages = []
    for body in re.findall(r"%% Contents for page \d+\n.*?\nstream\n(.*?)endstream", data, re.S):
        ops, stack, args = [], [], []
        for m in _TOKEN.finditer(body):
            t = m.group(0)
            if t[0] in "(</[]" or re.fullmatch(r"[-+.\d]+", t):
                args.append(t)
                continue
            if t == "BDC":
                stack.append((args[-2] if len(args) > 1 else "", args[-1] if args else ""))
            elif t == "BMC":
                stack.append((args[-1] if args else "", ""))
            elif t == "EMC":
                if stack:
                    stack.pop()
            elif t in ("Tj", "TJ", "'", '"'):
                ops.append((t, list(stack)))
            args = []
        pages.append(ops)
    return pages
