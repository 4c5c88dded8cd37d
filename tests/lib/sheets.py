"""sheets.py: what the spreadsheet tests (tests/xlsx) share: the quire
binary and source folder from the environment, a scratch folder, render
and read through the CLI, the three compile paths of a spec file, and a
LibreOffice re-save.

    from sheets import QUIRE, SRC, fixture, render, read_spec, scratch
    TMP = scratch("notes")
    rc, res = render(fixture("notes-sheet"), os.path.join(TMP, "n.xlsx"))

env: QUIRE (default build/quire), QUIRE_SOURCE_DIR.
"""
import json
import os
import shutil
import subprocess
import tempfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR",
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def scratch(name):
    """A new temporary folder for one test file."""
    return tempfile.mkdtemp(prefix="quire-%s-" % name)


def fixture(case):
    """fixtures/<case>/spec.json."""
    return os.path.join(SRC, "fixtures", case, "spec.json")


def render(spec_path, out, env=None, args=()):
    """quire render spec_path -o out: (exit code, the JSON result line)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([QUIRE, "render", spec_path, "-o", out] + list(args), capture_output=True,
                       env=e)
    return p.returncode, json.loads(p.stdout.decode().splitlines()[0])


def read_text(path, *args):
    """quire read path: its output text (the read must succeed)."""
    p = subprocess.run([QUIRE, "read", path] + list(args), capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout


def read_spec(path):
    """quire read path as a spec (a dict)."""
    return json.loads(read_text(path))


def write_spec(path, spec):
    """Write a spec (a dict, or JSON text) to path; returns path."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(spec if isinstance(spec, str) else json.dumps(spec))
    return path


def stream_modes(spec_path, tmp, name, modes=("0", "1", "all")):
    """Render spec_path to .xlsx through each compile path (QUIRE_XLSX_STREAM):
    a list of (exit code, result, the file's bytes or None)."""
    got = []
    for mode in modes:
        out = os.path.join(tmp, "%s-%s.xlsx" % (name, mode))
        if os.path.exists(out):
            os.remove(out)
        rc, res = render(spec_path, out, {"QUIRE_XLSX_STREAM": mode})
        data = None
        if os.path.exists(out):
            with open(out, "rb") as f:
                data = f.read()
        got.append((rc, res, data))
    return got


def same_on_every_path(test, tmp, name, text, modes=("0", "1", "all")):
    """Write the spec text to tmp/name.json and render it through each compile
    path: the test fails unless every path answers alike (exit code, errors,
    the file's bytes). Returns stream_modes' list for further checks."""
    got = stream_modes(write_spec(os.path.join(tmp, name + ".json"), text), tmp, name, modes)
    first = got[0]
    for mode, g in zip(modes[1:], got[1:]):
        test.assertEqual((g[0], g[1].get("errors"), g[2]),
                         (first[0], first[1].get("errors"), first[2]), "%s, path %s" % (name, mode))
    return got


def libreoffice_resave(xlsx, outdir, timeout=300):
    """LibreOffice opens xlsx and saves it as .xlsx into outdir: the new
    file's path, or None when soffice is not installed."""
    if not shutil.which("soffice"):
        return None
    from office import soffice_convert
    os.makedirs(outdir, exist_ok=True)
    soffice_convert("xlsx:Calc MS Excel 2007 XML", [xlsx], outdir, timeout=timeout)
    return os.path.join(outdir, os.path.basename(xlsx))


def pdf_page_sizes(pdf, last):
    """The sizes of pages 1..last of a PDF in whole points, [(w, h), ...] (pdfinfo)."""
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", str(last), pdf], capture_output=True,
                          text=True).stdout
    sizes = [line.split(":", 1)[1].split("pts")[0].split(" x ")
             for line in info.splitlines() if line.startswith("Page") and "size" in line]
    return [(round(float(w)), round(float(h))) for w, h in sizes]


def pdf_page_text(pdf, n):
    """Page n of a PDF as text laid out as on the page (pdftotext -layout)."""
    return subprocess.run(["pdftotext", "-layout", "-f", str(n), "-l", str(n), pdf, "-"],
                          capture_output=True, text=True).stdout
