"""Files made by other tools read with the same words, in the same order,
as python-docx and openpyxl read them: the bench peers' outputs of the
../shared/bench/gen_specs.py workloads (D1, P1, and S1 cut to its first
2,000 rows), each peer skipped when it is not installed, and LibreOffice's
re-saves of quire's own files."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from office import soffice_convert  # noqa: E402
from shared import SKIP, need, skipped  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
PY = "/usr/bin/python3"
failed = 0
ran = 0
missing = []


def q(*args):
    return subprocess.run([QUIRE] + list(args), capture_output=True, text=True)


def json_texts(v, out):
    """Every text of quire's --to json output, in reading order."""
    if isinstance(v, dict):
        for k in ("title", "subtitle", "text", "headers", "items", "bullets", "rows", "blocks",
                  "slides", "sheets", "table", "notes", "name"):
            if k in v and not (k == "name" and "rows" not in v):
                json_texts(v[k], out)
    elif isinstance(v, list):
        for x in v:
            json_texts(x, out)
    elif v is not None and not isinstance(v, bool):
        out.append(str(v))
    return out


def quire_words(path, skip_names=False):
    r = q("read", path, "--to", "json")
    if r.returncode != 0:
        return None, r.stdout
    doc = json.loads(r.stdout)
    if skip_names:
        for s in doc.get("sheets", []):
            s.pop("name", None)
    return " ".join(json_texts(doc, [])).split(), ""


def docx_words(path):
    """python-docx: the body in order, paragraphs (all their w:t, so hyperlink
    text counts) and table cells row by row; the core title first."""
    code = r'''
import sys, docx
from docx.table import Table
d = docx.Document(sys.argv[1])
out = []
def para(p): return "".join(t.text or "" for t in p.iter("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}t"))
first = next((para(el) for el in d.element.body.iterchildren() if el.tag.endswith("}p") and para(el)), None)
# The title once: the core title, unless the first paragraph (the Title) says it.
if d.core_properties.title and d.core_properties.title != first: out.append(d.core_properties.title)
for el in d.element.body.iterchildren():
    tag = el.tag.split("}")[1]
    if tag == "p": out.append(para(el))
    elif tag == "tbl":
        for row in Table(el, d).rows:
            for c in row.cells: out.append("\n".join(para(p._p) for p in c.paragraphs))
print("\n".join(out))
'''
    r = subprocess.run([PY, "-c", code, path], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else None


def xlsx_words(path):
    code = r'''
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
out = []
for ws in wb:
    for row in ws.iter_rows(values_only=True):
        for v in row:
            if v is None: continue
            if isinstance(v, float) and v == int(v) and abs(v) < 1e15: v = int(v)
            out.append(str(v))
print("\n".join(out))
'''
    r = subprocess.run([PY, "-c", code, path], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else None


def compare(name, ours, theirs):
    global failed, ran
    ran += 1
    if ours is None or theirs is None:
        print("FAIL %s: could not read (%s)" % (name, "quire" if ours is None else "peer reader"))
        failed += 1
        return
    if ours == theirs:
        print("ok   %s: %d words" % (name, len(ours)))
        return
    i = next((k for k, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    print("FAIL %s: words differ at %d: quire %r, peer %r (%d vs %d words)" %
          (name, i, ours[i:i + 6], theirs[i:i + 6], len(ours), len(theirs)))
    failed += 1


def have(cmd):
    if shutil.which(cmd):
        return True
    missing.append(cmd)
    return False


def run_peer(argv, env=None):
    r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    return r.returncode == 0


gen = need("bench/gen_specs.py")
if not gen:
    sys.exit(SKIP)
peers = os.path.join(os.path.dirname(gen), "peers")
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([PY, gen, tmp, "D1", "S1", "P1"], check=True, capture_output=True)
    s1 = json.load(open(os.path.join(tmp, "S1.json")))
    for sh in s1["sheets"]:
        sh["rows"] = sh["rows"][:2000]
    json.dump(s1, open(os.path.join(tmp, "S1s.json"), "w"))
    D1, S1, P1 = (os.path.join(tmp, n + ".json") for n in ("D1", "S1s", "P1"))
    out = lambda n: os.path.join(tmp, n)  # noqa: E731

    # python-docx and openpyxl write; python-docx and openpyxl read.
    if run_peer([PY, os.path.join(peers, "py_docx.py"), D1, out("pd.docx")]):
        compare("python-docx D1.docx", quire_words(out("pd.docx"))[0], docx_words(out("pd.docx")))
    if run_peer([PY, os.path.join(peers, "py_openpyxl.py"), S1, out("po.xlsx")]):
        compare("openpyxl S1.xlsx", quire_words(out("po.xlsx"), True)[0], xlsx_words(out("po.xlsx")))
    # libxlsxwriter (bench/setup.sh builds it into bench/work/bin).
    xw = os.path.join(SRC, "bench", "work", "bin", "xlsxwriter_c")
    if os.path.exists(xw) and run_peer([xw, S1, out("xw.xlsx")]):
        compare("libxlsxwriter S1.xlsx", quire_words(out("xw.xlsx"), True)[0], xlsx_words(out("xw.xlsx")))
    else:
        missing.append("libxlsxwriter peer")
    # The npm peers, from bench/work/npm (bench/setup.sh).
    npm = os.path.join(SRC, "bench", "work", "npm", "node_modules")
    if os.path.isdir(npm) and have("node"):
        env = dict(os.environ, NODE_PATH=npm)
        if run_peer(["node", os.path.join(peers, "js_docx.js"), D1, out("jd.docx")], env):
            compare("docx (npm) D1.docx", quire_words(out("jd.docx"))[0], docx_words(out("jd.docx")))
        if run_peer(["node", os.path.join(peers, "js_exceljs.js"), S1, out("je.xlsx")], env):
            compare("exceljs S1.xlsx", quire_words(out("je.xlsx"), True)[0], xlsx_words(out("je.xlsx")))
        if run_peer(["node", os.path.join(peers, "js_pptx.js"), P1, out("jp.pptx")], env):
            spec_words = " ".join(json_texts(json.load(open(P1)), [])).split()
            compare("pptxgenjs P1.pptx (against the spec's words)",
                    quire_words(out("jp.pptx"))[0], spec_words)
    else:
        missing.append("npm peers (bench/setup.sh)")
    # pandoc, from the Markdown spec2md.py makes.
    if have("pandoc"):
        subprocess.run([PY, os.path.join(peers, "spec2md.py"), D1, out("d1.md")], check=True)
        if run_peer(["pandoc", out("d1.md"), "-o", out("pan.docx")]):
            compare("pandoc D1.docx", quire_words(out("pan.docx"))[0], docx_words(out("pan.docx")))
        subprocess.run([PY, os.path.join(peers, "spec2md.py"), P1, out("p1.md")], check=True)
        if run_peer(["pandoc", out("p1.md"), "-o", out("pan.pptx")]):
            ours = quire_words(out("pan.pptx"))[0]
            p1 = json.load(open(P1))
            # pandoc opens the deck with a title slide holding the title.
            spec_words = p1["title"].split() + " ".join(json_texts(p1, [])).split()
            compare("pandoc P1.pptx (against the spec's words and pandoc's title slide)", ours,
                    spec_words)
    # LibreOffice re-saves of quire's files.
    if have("soffice"):
        p1_words = lambda path: quire_words(out("q.pptx"))[0]  # noqa: E731 quire's own file
        for spec, ext, reader in ((D1, "docx", docx_words), (S1, "xlsx", xlsx_words),
                                  (P1, "pptx", p1_words)):
            mine = out("q." + ext)
            q("render", spec, "-o", mine)
            lo = os.path.join(tmp, "lo")
            os.makedirs(lo, exist_ok=True)
            r = soffice_convert(ext, [mine], lo, timeout=300, profile=tmp + "/profile")
            resaved = os.path.join(lo, "q." + ext)
            if r.returncode != 0 or not os.path.exists(resaved):
                print("FAIL LibreOffice re-save of %s: %s" % (ext, r.stderr[-300:]))
                failed += 1
                continue
            compare("LibreOffice re-save of quire's " + ext,
                    quire_words(resaved, ext == "xlsx")[0], reader(resaved))

for m in missing:
    print("skipped: %s not installed" % m)
print("%d comparisons, %d failed" % (ran, failed))
sys.exit(1 if failed else SKIP if ran == 0 else 0)
