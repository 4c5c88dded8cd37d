#!/usr/bin/python3
"""test_rowspan.py: table cells spanning rows (issue 32) across PDF pages.

  1. A long table of groups (a cell spanning 4 rows each): every group's
     rows are on one page in quire's PDF (a group that would straddle a
     page starts the next), and the spanning cell's text is on that page.
  2. A group taller than a page: it splits like plain rows, no text lost.
  3. The docx of (1) has one w:vMerge restart per group and three
     continuations; html has one rowspan="4" per group.
Ends with "N passed, N failed".
"""
import json
import os
import subprocess
import sys
import tempfile
import zipfile

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
sys.path.insert(0, os.path.join(SRC, "tests", "lib"))
from shared import finish  # noqa: E402

passed = failed = 0


def check(ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {msg}", flush=True)


def render(spec, out):
    sp = out + ".json"
    with open(sp, "w") as f:
        json.dump(spec, f)
    p = subprocess.run([QUIRE, "render", sp, "-o", out], capture_output=True, text=True,
                       timeout=120)
    if p.returncode != 0:
        raise AssertionError(p.stdout + p.stderr)


def pages(pdf):
    t = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True,
                       timeout=60).stdout
    return t.split("\f")


def main():
    tmp = tempfile.mkdtemp(prefix="quire-rowspan-")
    rows = []
    groups = 30
    for g in range(groups):
        for j in range(4):
            row = [f"g{g}r{j}", str(g * 4 + j)]
            if j == 0:
                row.insert(0, {"text": f"Group{g}", "rowspan": 4})
            rows.append(row)
    spec = {"title": "Groups", "blocks": [
        {"type": "paragraph", "text": "Intro. " * 40},
        {"type": "table", "headers": ["Group", "Row", "N"], "rows": rows}]}
    pdf = os.path.join(tmp, "groups.pdf")
    render(spec, pdf)
    ps = pages(pdf)
    check(len([p for p in ps if p.strip()]) >= 3, f"{len(ps)} pages: the table should span 3+")
    for g in range(groups):
        where = {k for k, p in enumerate(ps) for j in range(4) if f"g{g}r{j}" in p.split()}
        label = [k for k, p in enumerate(ps) if f"Group{g}" in p.split()]
        check(len(where) == 1 and label == sorted(where), f"group {g}: rows on pages {where}, "
              f"its label on {label}")
    # the header row repeats on each page
    check(all("Group" in p.split() for p in ps if p.strip()), "header row on every page")
    dx = os.path.join(tmp, "groups.docx")
    render(spec, dx)
    xml = zipfile.ZipFile(dx).read("word/document.xml").decode()
    check(xml.count('<w:vMerge w:val="restart"/>') == groups, "vMerge restarts")
    check(xml.count("<w:vMerge/>") == 3 * groups, "vMerge continuations")
    ht = os.path.join(tmp, "groups.html")
    render(spec, ht)
    with open(ht, encoding="utf-8") as f:
        check(f.read().count('rowspan="4"') == groups, "html rowspans")

    # a group taller than a page
    n = 90
    tall = [[{"text": "Tall", "rowspan": n}, "t0"]] + [[f"t{k}"] for k in range(1, n)]
    big = {"title": "Tall", "blocks": [{"type": "table", "rows": tall}]}
    pdf = os.path.join(tmp, "tall.pdf")
    render(big, pdf)
    words = " ".join(pages(pdf)).split()
    check(len(pages(pdf)) >= 2, "the tall group should take 2+ pages")
    check(all(f"t{k}" in words for k in range(n)) and "Tall" in words, "text lost")
    sys.exit(finish(passed, failed))


if __name__ == "__main__":
    main()
