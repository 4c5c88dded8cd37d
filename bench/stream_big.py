#!/usr/bin/python3
"""By hand: a big spreadsheet spec rendered streamed (spec/stream.h), its peak
RSS and times measured.

Usage: bench/stream_big.py [--mb 200] [--tree] [--keep]

Writes a workbook of S2-like rows (1,000,000 rows per sheet at most, as Excel
allows; 108 bytes a row, so that 200 MB stay below the 20,000,000 cells of
qr_limits.max_cells) of about --mb megabytes into bench/work/, renders it
with `quire render ... --max-input` raised past its size, and prints wall,
user and system time and the peak RSS of the process (wait4), then checks
the .xlsx: every sheet's <dimension> and last <row>. --tree renders it on the
tree path too (QUIRE_XLSX_STREAM=0: several GB for 200 MB) and compares the
bytes. Too slow for CI: tests/xlsx/test_stream.py has a 35 MB case.
"""
import argparse
import os
import random
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
QUIRE = os.environ.get("QUIRE", os.path.join(os.path.dirname(HERE), "build", "quire"))
ROW_BYTES = 108  # S2's rows with longer notes: 200 MB stay below max_cells (20,000,000)
SHEET_ROWS = 1_000_000


def generate(path, mb):
    rng = random.Random(22)
    notes = ["a longer note, number %d of 500" % i for i in range(500)]
    regions = ["EMEA", "APAC", "AMER", "LATAM"]
    total = mb * 1_000_000 // ROW_BYTES
    sheets = []
    with open(path, "w") as f:
        f.write('{"title":"stream_big","sheets":[')
        s = 0
        while total > 0:
            n = min(total, SHEET_ROWS)
            total -= n
            f.write('%s{"name":"Data%d","columns":["id","sku","region","qty","price","discount","total","status","score","note"],"rows":[\n' % ("," if s else "", s + 1))
            for i in range(n):
                q, p = rng.randint(1, 1000), round(rng.uniform(0.5, 2000.0), 2)
                d = round(rng.random() * 0.3, 3)
                f.write('%s[%d,"SKU-%07d","%s",%d,%s,%s,%s,"%s",%d,"%s"]' % (
                    ",\n" if i else "", i + 1, rng.randint(0, 9999999), rng.choice(regions), q, p, d,
                    round(q * p * (1 - d), 2), rng.choice(["open", "paid", "late"]), rng.randint(0, 100),
                    rng.choice(notes)))
            f.write("\n]}")
            sheets.append(n)
            s += 1
        f.write("]}\n")
    return sheets


def render(spec, out, mode):
    env = dict(os.environ)
    env["QUIRE_XLSX_STREAM"] = mode
    t = time.time()
    p = subprocess.Popen([QUIRE, "render", spec, "-o", out, "--max-input", str(os.path.getsize(spec) + 1)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    so, se = p.stdout.read(), p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.time() - t
    code = os.waitstatus_to_exitcode(status)
    print("%s: exit %d, wall %.2f s, user %.2f s, sys %.2f s, peak RSS %d MB" % (
        "streamed" if mode == "1" else "tree", code, wall, ru.ru_utime, ru.ru_stime, ru.ru_maxrss // 1024))
    if code != 0:
        print(so.decode()[:2000], se.decode()[:2000])
    return code


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--tree", action="store_true")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    work = os.path.join(HERE, "work")
    os.makedirs(work, exist_ok=True)
    spec = os.path.join(work, "big_%dmb.json" % a.mb)
    out = os.path.join(work, "big_%dmb.xlsx" % a.mb)
    t = time.time()
    sheets = generate(spec, a.mb)
    print("spec: %s, %.1f MB, sheets of %s rows (%.0f s to write)" % (spec, os.path.getsize(spec) / 1e6, sheets, time.time() - t))
    if render(spec, out, "1") != 0:
        return 1
    print("xlsx: %.1f MB" % (os.path.getsize(out) / 1e6))
    ok = True
    with zipfile.ZipFile(out) as z:
        for k, n in enumerate(sheets):
            with z.open("xl/worksheets/sheet%d.xml" % (k + 1)) as f:
                head = f.read(4096)
            info = z.getinfo("xl/worksheets/sheet%d.xml" % (k + 1))
            with z.open(info) as f:
                f.seek(max(0, info.file_size - 4096))
                tail = f.read()
            want = b'<dimension ref="A1:J%d"/>' % (n + 1)
            last = b'<row r="%d">' % (n + 1)
            good = want in head and last in tail
            ok = ok and good
            print("sheet %d: %d rows, %s" % (k + 1, n, "ok" if good else "WRONG"))
    if a.tree:
        tree_out = out + ".tree.xlsx"
        if render(spec, tree_out, "0") == 0:
            with open(out, "rb") as x, open(tree_out, "rb") as y:
                same = x.read() == y.read()
            print("tree path bytes: %s" % ("the same" if same else "DIFFERENT"))
            ok = ok and same
            os.unlink(tree_out)
    if not a.keep:
        os.unlink(spec)
        os.unlink(out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
