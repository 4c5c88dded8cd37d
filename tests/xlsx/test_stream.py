#!/usr/bin/python3
"""Streamed spreadsheets (spec/stream.h) against the tree path.

Every case is rendered from a file three times, QUIRE_XLSX_STREAM=0 (the
tree path), =1 (streamed, whatever the size) and =all (one pass keeping every
row, the default for spreadsheets below 32 MiB), and must give the same exit code,
the same JSON result line (errors and warnings: paths, messages, hints,
order) and the same .xlsx bytes. Cases: the spreadsheet golden fixtures,
every error fixture as a spreadsheet, and generated sheets past the 20,000
rows pass 1 keeps (formats, dates, cached formula values, ragged rows, a
late longer row, warnings, keys in other orders, errors deep in the rows,
more than 1,000 errors, a truncated file, the fallbacks: charts, a formula
without a value, a too-deep cell). Then the memory: a ~35 MB sheet renders
streamed by default (no environment) with a peak RSS well below the tree
path's, read back with openpyxl. Ends with "N passed, N failed"."""
import json
import os
import random
import subprocess
import sys
import tempfile
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TMP = tempfile.mkdtemp(prefix="quire-stream-")
passed = failed = 0


def run(spec_path, mode, extra=(), out_name="out.xlsx"):
    """(exit code, stdout, output bytes or None, peak RSS KB) of one render."""
    out = os.path.join(TMP, "%s-%s" % (mode, out_name))
    if os.path.exists(out):
        os.unlink(out)
    env = dict(os.environ)
    # an ASan build keeps 256 MB of freed memory in quarantine: the peak RSS
    # would be that, not the program's
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=16").lstrip(":")
    if mode is None:
        env.pop("QUIRE_XLSX_STREAM", None)
    else:
        env["QUIRE_XLSX_STREAM"] = mode
    # /usr/bin/time measures the peak RSS: a child forked from this (big)
    # Python process would count its parent's pages until exec
    rss_file = os.path.join(TMP, "rss")
    p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, QUIRE, "render", spec_path, "-o", out,
                        "-k", "spreadsheet"] + list(extra), capture_output=True, env=env, timeout=600)
    stdout, code = p.stdout, p.returncode
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    data = None
    if os.path.exists(out):
        with open(out, "rb") as f:
            data = f.read()
    return code, stdout.decode("utf-8", "replace").replace(out, "OUT"), data, rss


def check(name, ok, why=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: %s" % (name, why))


def same(name, spec_path, extra=(), want_exit=None):
    a = run(spec_path, "0", extra)
    b = run(spec_path, "1", extra)
    problems = compare(a, b, want_exit)
    # the one pass that keeps every row (QUIRE_XLSX_STREAM=all, the default below 32 MiB)
    problems += ["one pass: " + p for p in compare(a, run(spec_path, "all", extra), None)]
    check(name, not problems, "; ".join(problems))
    return a


def compare(a, b, want_exit):
    problems = []
    if a[0] != b[0]:
        problems.append("exit %d (tree) vs %d (streamed)" % (a[0], b[0]))
    if a[1] != b[1]:
        problems.append("result differs:\n  tree:     %s\n  streamed: %s" % (a[1][:600], b[1][:600]))
    if a[2] != b[2]:
        problems.append("xlsx bytes differ (%s vs %s bytes)" % (a[2] and len(a[2]), b[2] and len(b[2])))
    if want_exit is not None and a[0] != want_exit:
        problems.append("exit %d, expected %d: %s" % (a[0], want_exit, a[1][:300]))
    return problems


def write(name, text):
    path = os.path.join(TMP, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def rows_text(rows):
    return ",\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in rows)


def mixed_rows(n, seed, width=6):
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        k = rng.randrange(12)
        r = [i + 1, "SKU-%05d" % rng.randrange(40000), round(rng.uniform(-500, 5000), 2)]
        if k == 0:
            r.append({"value": rng.random(), "format": "0.0%"})
        elif k == 1:
            r.append({"date": "2026-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))})
        elif k == 2:
            r.append({"date": "2025-03-04T10:%02d:00" % rng.randrange(60), "format": "d mmm yyyy hh:mm"})
        elif k == 3:
            r.append({"formula": "C%d*2" % (i + 2), "value": r[2] * 2})
        elif k == 4:
            r.append({"formula": "=IF(C%d>0,\"up\",\"down\")" % (i + 2), "value": "up" if r[2] > 0 else "down"})
        elif k == 5:
            r.append(rng.random() < 0.5)
        elif k == 6:
            r.append(None)
        elif k == 7:
            r.append("=not a formula" if rng.random() < 0.5 else "-dash")
        elif k == 8:
            r.append("two\nlines\nhere")
        elif k == 9:
            r.append({"value": rng.randint(0, 10**6), "format": "#,##0"})
        elif k == 10:
            r.append("Ünïcødé ✓ 日本語 %d" % rng.randrange(100))
        else:
            r.append("980" if rng.random() < 0.3 else "note %d" % rng.randrange(500))
        rows.append((r + ["x"] * width)[:rng.randint(2, width)])
    return rows


def workbook(sheets_text, before="", after=""):
    return '{%s"sheets":[%s]%s}\n' % (before, ",".join(sheets_text), after)


def main():
    # 1. golden spreadsheet fixtures
    fx = os.path.join(SRC, "fixtures")
    for case in sorted(os.listdir(fx)):
        spec = os.path.join(fx, case, "spec.json")
        if os.path.isdir(os.path.join(fx, case, "expected", "xlsx")) and os.path.exists(spec):
            same("fixture " + case, spec, want_exit=0)
    # 2. every error fixture, as a spreadsheet
    er = os.path.join(fx, "errors")
    for case in sorted(os.listdir(er)):
        same("error fixture " + case, os.path.join(er, case, "spec.json"))

    # 3. generated sheets past the kept rows (20,000)
    big = mixed_rows(26000, 1)
    big[23999] = big[23999] + ["late", "and", "longer", "row", 1, 2, 3, 4]  # n_cols changes late
    s1 = '{"rows":[%s],"columns":["id","sku","amount","mixed","e","f"],"freeze":"B2","widths":[6],"name":"Data"}' % rows_text(big)
    s2 = '{"rows":[%s]}' % rows_text(mixed_rows(21000, 2, 4))
    s3 = '{"name":"Empty","columns":["a","b"],"rows":[]}'
    s4 = '{"header":true,"rows":[["h1","h2"],[1,2],[3,{"value":4,"format":"0.000"}]]}'
    path = write("mixed", workbook([s1, s2, s3, s4], after=',"title":"Streamed","lang":"en"'))
    same("generated mixed workbook", path, want_exit=0)
    try:
        import openpyxl
        wb = openpyxl.load_workbook(os.path.join(TMP, "1-out.xlsx"))  # the streamed one
        ws = wb["Data"]
        check("openpyxl: the header", [c.value for c in ws[1]][:3] == ["id", "sku", "amount"], "")
        check("openpyxl: rows and the late longer row", ws.max_row == 26001 and ws.cell(24001, 14).value == 4,
              "max_row %d, N24001 %r" % (ws.max_row, ws.cell(24001, 14).value))
        want = big[25999]
        got = [c.value for c in ws[26001]][: len(want)]
        check("openpyxl: the last row's plain values", got[:3] == want[:3], "%r vs %r" % (got, want))
        check("openpyxl: four sheets", wb.sheetnames == ["Data", "Sheet2", "Empty", "Sheet4"], repr(wb.sheetnames))
    except ImportError:
        check("openpyxl is installed (tests need it)", False, "python3-openpyxl missing")
    same("generated mixed workbook, --strict (its warnings fail it)", path, ["--strict"], want_exit=1)
    same("--max-output below the size (the writer thread stops)", path, ["--max-output", "100000"], want_exit=4)

    # errors deep in the rows, in every part of the spec, keys after the rows
    bad = mixed_rows(25000, 3)
    bad[123] = [1, {"value": [1]}]
    bad[21000] = [1, 2, {"date": "2026-02-30"}]
    bad[24999] = [1, {"valeu": 3}]
    sb = '{"rows":[%s],"freeze":"A0","name":"Bad[1]"}' % rows_text(bad)
    path = write("errors", workbook([sb, '{"rows":[[1,{"formula":""}]]}'], before='"titel":"x",', after=',"theme":"nope"'))
    a = same("errors deep in the rows", path, want_exit=1)
    check("errors name their JSON pointers", "/sheets/0/rows/21000/2/date" in a[1] and "/sheets/0/rows/24999/1/valeu" in a[1], a[1][:400])

    many = [[i, {"date": "no"}] for i in range(1500)] + [[1]] * 20000
    path = write("many", workbook(['{"rows":[%s]}' % rows_text(many)]))
    a = same("more than 1,000 errors", path, want_exit=1)
    check("the error cap", "\"error\":\"1001 spec errors\"" in a[1], a[1][:100])

    text = workbook(['{"rows":[%s]}' % rows_text(mixed_rows(22000, 4))])
    path = write("truncated", text[: len(text) - 40])
    same("a truncated file", path, want_exit=1)
    same("--max-input below the size", write("limit", text), ["--max-input", "100000"], want_exit=4)

    # fallbacks: the tree path renders these
    rows = [[i, i * 2.5] for i in range(21000)]
    chart = '"charts":[{"chart":"line","categories":"Data!A2:A40","series":[{"name":"v","values":"Data!B2:B40"}]}]'
    path = write("chart", workbook(['{"name":"Data","rows":[%s],%s}' % (rows_text(rows), chart)]))
    same("sheet charts (tree path)", path, want_exit=0)
    rows[20500] = [1, 2, {"formula": "SUM(C1:C9)"}]
    path = write("formula", workbook(['{"rows":[%s]}' % rows_text(rows)]))
    same("a formula without a value (tree path)", path, want_exit=0)
    deep = 1
    for _ in range(70):
        deep = [deep]
    rows[20500] = [1, {"value": 1, "format": "0"}, deep]
    path = write("deep", workbook(['{"rows":[%s]}' % rows_text(rows)]))
    same("a value nested too deep (tree path)", path, want_exit=4)

    # 4. memory: ~35 MB streams by default (no environment)
    rng = random.Random(7)
    notes = ["note %d" % i for i in range(500)]
    with open(os.path.join(TMP, "mem.json"), "w") as f:
        f.write('{"sheets":[{"name":"Data","columns":["id","sku","region","qty","price","d","total","s","score","note"],"rows":[\n')
        for i in range(440000):
            q, p = rng.randint(1, 1000), round(rng.uniform(0.5, 2000.0), 2)
            f.write('%s[%d,"SKU-%07d","EMEA",%d,%s,%s,%s,"open",%d,"%s"]' % (",\n" if i else "", i + 1, rng.randint(0, 9999999), q, p, round(rng.random() * 0.3, 3), round(q * p, 2), rng.randint(0, 100), rng.choice(notes)))
        f.write("\n]}]}\n")
    mem = os.path.join(TMP, "mem.json")
    tree = run(mem, "0")
    auto = run(mem, None)
    forced = run(mem, "1")
    print("35 MB sheet: peak RSS forced streaming %d KB" % forced[3])
    check("35 MB sheet: same bytes", tree[2] is not None and tree[2] == auto[2], "%s / %s" % (tree[1][:200], auto[1][:200]))
    check("35 MB sheet: streamed RSS below 60%% of the tree path's (%d KB vs %d KB)" % (auto[3], tree[3]),
          auto[3] > 0 and auto[3] < 0.6 * tree[3], "")
    print("35 MB sheet: peak RSS tree %d KB, streamed %d KB" % (tree[3], auto[3]))
    with zipfile.ZipFile(os.path.join(TMP, "None-out.xlsx")) as z:
        xml = z.read("xl/worksheets/sheet1.xml")
    check("35 MB sheet: every row written", b'<dimension ref="A1:J440001"/>' in xml[:600] and b'<row r="440001">' in xml[-3000:], "")

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
