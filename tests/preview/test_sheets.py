#!/usr/bin/python3
"""Sheet previews (.pdf, .png) against LibreOffice's displayed values.

For every fixtures/sheet-*/spec.json:
- `quire render spec.json -o sheet.pdf` (no -k: the kind comes from the
  spec's shape) prints each sheet as a grid, the footer naming the sheet
  and the page;
- LibreOffice converts quire's .xlsx of the same spec to CSV with the cells
  "as shown" (every sheet, once): every displayed value (number formats
  applied, formulas by value) is in pdftotext of quire's preview of that
  sheet, except numbers too wide for their column (Excel shows ### or fewer
  General digits there, depending on the width);
- widths are honoured: the right edge of a right-aligned number lies at its
  column's right edge computed from the width in characters;
- a 150-row sheet with a header row: the header is on every page; a wide
  sheet with a frozen column: that column is on every page across;
- PNG: page 1 at 96 dpi is 816 x 1056 (Letter), --page past the end fails.
S1 --pages 1-10 makes a 10-page PDF. Reports (does not assert) S1's PNG
page 1, first-10-pages PDF and whole PDF times.
"""
import csv
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unicodedata

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from checks import check, done  # noqa: E402
from office import soffice_convert  # noqa: E402
from shared import need  # noqa: E402


def run(args, **kw):
    return subprocess.run([QUIRE] + args, capture_output=True, text=True, **kw)


def pages_text(pdf):
    out = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True).stdout
    return out.split("\f")


def squash(s):
    return re.sub(r"\s+", "", s)


def visible(s):
    """The characters a PDF's text can be asked to hold: no controls, format
    characters (zero widths, BOM), emoji and their modifiers, U+FFFD."""
    return "".join(ch for ch in squash(s) if unicodedata.category(ch) not in ("Cc", "Cf", "So", "Sk", "Mn")
                   and ch != "\ufffd")


NUMBER = re.compile(r"^[-+(]?[\d.,]+(E[-+]\d+)?\)?%?$")

WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


def words(pdf, page):
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), pdf, "-"],
                         capture_output=True, text=True).stdout
    return [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in WORD.findall(out)]


def col_points(chars):
    """A column as layout/sheet_fit.h sizes it, LibreOffice's layout: 6.3 pt a character."""
    return chars * 6.3


def png_size(path):
    with open(path, "rb") as f:
        return struct.unpack(">II", f.read(24)[16:24])


def main():
    tmp = tempfile.mkdtemp(prefix="quire-sheets-")
    xlsx = []
    specs = {}
    for d in sorted(glob.glob(os.path.join(SRC, "fixtures", "sheet-*"))):
        case = os.path.basename(d)
        path = os.path.join(d, "spec.json")
        with open(path, encoding="utf-8") as f:
            specs[case] = json.load(f)
        pdf = os.path.join(tmp, case + ".pdf")
        p = run(["render", path, "-o", pdf])
        if not check(p.returncode == 0, "%s: render .pdf without -k: %s" % (case, p.stdout + p.stderr)):
            continue
        out = os.path.join(tmp, case + ".xlsx")
        if check(run(["render", path, "-o", out]).returncode == 0, "%s: render .xlsx" % case):
            xlsx.append(out)
        # every page's footer names its sheet and its number
        pages = pages_text(pdf)
        n = json.loads(p.stdout)["pages"]
        for k in range(n if specs[case].get("sheets") else 0):  # no sheets: one blank page
            check(re.search(r"page %d of %d" % (k + 1, n), pages[k]) is not None, "%s: page %d footer" % (case, k + 1))

    csvdir = os.path.join(tmp, "csv")
    soffice_convert("csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1",
                    xlsx, csvdir, timeout=600)
    compared = 0
    for case, spec in specs.items():
        pdf = os.path.join(tmp, case + ".pdf")
        if not os.path.exists(pdf):
            continue
        pages = pages_text(pdf)
        for i, sh in enumerate(spec.get("sheets", [])):
            name = sh.get("name") or "Sheet%d" % (i + 1)
            f = os.path.join(csvdir, "%s-%s.csv" % (case, name))
            if not os.path.exists(f) and len(spec["sheets"]) == 1:
                f = os.path.join(csvdir, "%s.csv" % case)
            if not sh.get("rows") and not sh.get("columns"):
                continue
            if not check(os.path.exists(f), "%s: LibreOffice wrote %s" % (case, os.path.basename(f))):
                continue
            text = visible("".join(pg for pg in pages if re.search(r"%s — page" % re.escape(name), pg)))
            with open(f, encoding="utf-8", newline="") as fh:
                for row in csv.reader(fh):
                    for v in row:
                        if not v.strip() or (NUMBER.match(v) and len(v) > 11):
                            continue
                        compared += 1
                        # a wrapped cell's lines (and words, in a narrow column) sit on lines of their own
                        parts = v.split() if "\n" in v else [v]
                        check(all(visible(w) in text for w in parts), "%s/%s: %r is shown" % (case, name, v))
    check(compared > 60, "displayed values compared: %d" % compared)

    # widths: sheet-multi "Summary" has widths 20, 12, 12 (characters)
    pdf = os.path.join(tmp, "sheet-multi.pdf")
    ws = words(pdf, 1)
    right = 50.4 + col_points(20) + col_points(12) - 2.5
    w100 = [w for w in ws if w[4] == "100"]
    check(w100 and abs(w100[0][2] - right) < 1.0, "widths: 100 ends at %.1f, want %.1f" % (w100[0][2] if w100 else -1, right))
    region = [w for w in ws if w[4] == "Region"]
    check(region and abs(region[0][0] - 52.9) < 1.0, "widths: Region starts in column A")

    # header on every page, frozen columns on every page across
    spec = {"sheets": [{"name": "Long", "header": True, "rows": [["Item", "Amount"]] +
                        [["row %d" % i, {"value": i * 1.5, "format": "#,##0.00"}] for i in range(1, 151)]},
                       {"name": "Wide", "freeze": "B1", "widths": [10] + [30] * 12,
                        "rows": [["key"] + ["col %d" % c for c in range(12)], ["k1"] + list(range(12))]}]}
    sp = os.path.join(tmp, "long.json")
    with open(sp, "w") as f:
        json.dump(spec, f)
    pdf = os.path.join(tmp, "long.pdf")
    p = run(["render", sp, "-o", pdf])
    check(p.returncode == 0, "long: render")
    pages = pages_text(pdf)
    long_pages = [pg for pg in pages if "Long — page" in pg]
    wide_pages = [pg for pg in pages if "Wide — page" in pg]
    check(len(long_pages) >= 3, "long: %d pages" % len(long_pages))
    for k, pg in enumerate(long_pages):
        first = [ln for ln in pg.splitlines() if ln.strip()][0].split()
        check(first[:2] == ["Item", "Amount"], "long: page %d starts with the header row: %r" % (k + 1, first))
    check("224.00" in squash(long_pages[-1]) or "225.00" in squash(long_pages[-1]), "long: the last row is on the last page")
    check(len(wide_pages) >= 3, "wide: %d pages across" % len(wide_pages))
    for k, pg in enumerate(wide_pages):
        check("key" in pg and "k1" in pg, "wide: page %d repeats the frozen column" % (k + 1))

    pdf2 = os.path.join(tmp, "long2.pdf")
    run(["render", sp, "-o", pdf2])
    with open(pdf, "rb") as a, open(pdf2, "rb") as b:
        check(a.read() == b.read(), "long: same spec, same bytes")

    png = os.path.join(tmp, "p.png")
    p = run(["render", sp, "-o", png])
    check(p.returncode == 0 and png_size(png) == (816, 1056), "png: Letter at 96 dpi is 816 x 1056")
    p = run(["render", sp, "-o", png, "--page", "999"])
    check(p.returncode == 2 and "out of range" in p.stdout + p.stderr, "png: --page 999 is out of range")

    gen = need("bench/gen_specs.py")
    if gen:
        subprocess.run([sys.executable, gen, tmp, "S1"], check=True, capture_output=True)
        s1 = os.path.join(tmp, "S1.json")
        for out, extra in (("s1.png", []), ("s1-10.pdf", ["--pages", "1-10"]), ("s1.pdf", [])):
            t0 = time.perf_counter()
            p = run(["render", s1, "-o", os.path.join(tmp, out)] + extra)
            check(p.returncode == 0, "S1 -> %s" % out)
            if extra:
                info = subprocess.run(["pdfinfo", os.path.join(tmp, out)], capture_output=True, text=True).stdout
                check(re.search(r"^Pages:\s+10$", info, re.M) is not None, "S1 --pages 1-10: 10 pages")
            print("report: S1 -> %s %.0f ms (%s pages)" % (out, (time.perf_counter() - t0) * 1000,
                                                        json.loads(p.stdout)["pages"] if p.returncode == 0 else "?"))
    shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
