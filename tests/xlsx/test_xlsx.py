#!/usr/bin/python3
"""test_xlsx.py: the .xlsx backend, end to end through the quire CLI.

Every fixtures/sheet-*/spec.json is rendered and then:
- validated with ../shared/tools/ooxml-validate (schema, sheet names, row and
  cell order, shared-string and style indexes), all files in one call;
- read back with openpyxl, every cell compared with what the spec asks for:
  numbers as numbers, booleans, text exactly as given (injection strings
  included: data type 's', no added apostrophe, quotePrefix set), dates as
  datetimes, formulas as "=...", number formats, bold header, freeze panes,
  column widths, autofilter; the expectations are computed from the JSON;
- opened by LibreOffice (one office-smoke batch) and the exported PDF text
  checked for computed formulas and literal injection text;
- rendered twice: the same bytes.
Also: bad sheet specs exit 1 with the offending path, and a large sheet
renders in memory bounded by the parsed spec plus a constant.

env: QUIRE (the built binary), QUIRE_SOURCE_DIR, QUIRE_SHARED.
"""
import datetime
import glob
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile

import openpyxl
from openpyxl.utils import get_column_letter

QUIRE = os.environ.get("QUIRE")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import SHARED, assert_ooxml_valid, require, unittest_exit  # noqa: E402
FIX = os.path.join(SRC, "fixtures")
TMP = tempfile.mkdtemp(prefix="quire-xlsx-")

FIXTURES = sorted(os.path.basename(d) for d in glob.glob(os.path.join(FIX, "sheet-*"))
                  if os.path.isfile(os.path.join(d, "spec.json")))


def run(args, **kw):
    return subprocess.run([QUIRE] + args, capture_output=True, **kw)


def render(spec_path, out):
    p = run(["render", spec_path, "-o", out])
    lines = p.stdout.decode().splitlines()
    assert len(lines) == 1, "expected one JSON line, got %r (stderr %r)" % (p.stdout, p.stderr)
    return p.returncode, json.loads(lines[0])


def write_spec(spec, name):
    path = os.path.join(TMP, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, ensure_ascii=False)
    return path


# ---- expectations from the spec -------------------------------------------------------

def xml_text(s):
    """Text as XML can carry it: C0 controls but tab, LF, CR, and U+FFFE/U+FFFF
    become U+FFFD (the project's rule for XML-illegal characters)."""
    return "".join("\ufffd" if (ord(ch) < 0x20 and ch not in "\t\n\r") or ch in "\ufffe\uffff"
                   else ch for ch in s)


def openpyxl_text(s):
    """What openpyxl 3.0.9 reads for a spec string. The part holds a literal
    "_xHHHH_" as "_x005F_xHHHH_" (ST_Xstring escaping), which Excel and
    LibreOffice decode back to the text as typed (checked in the PDF below).
    openpyxl only deletes every "x005F_" from a shared string, which gives
    the typed text back except for a typed "_x005F_" itself."""
    return re.sub(r"_(?=x[0-9A-Fa-f]{4}_)", "_x005F_", xml_text(s)).replace("x005F_", "")


def needs_quote(s):
    return s[:1] in ("=", "+", "-", "@", "\t", "\r", "\n")


def parse_date(s):
    if "T" in s:
        return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S")
    return datetime.datetime.strptime(s, "%Y-%m-%d")


def sheets_of(spec):
    """[(name, rows, header, freeze, widths)] as the backend should lay them out."""
    out = []
    for i, sh in enumerate(spec.get("sheets", [])):
        rows = [list(r) for r in sh.get("rows", [])]
        if "columns" in sh:
            rows.insert(0, list(sh["columns"]))
        header = sh.get("header", "columns" in sh)
        freeze = sh.get("freeze", "A2" if header else None)
        if freeze in ("A1",):
            freeze = None
        out.append((sh.get("name") or "Sheet%d" % (i + 1), rows, header, freeze, sh.get("widths")))
    if not out:
        out.append(("Sheet1", [], False, None, None))
    return out


class Xlsx(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        assert QUIRE, "set QUIRE to the quire binary"
        cls.out = {}
        for name in FIXTURES:
            out = os.path.join(TMP, name + ".xlsx")
            rc, res = render(os.path.join(FIX, name, "spec.json"), out)
            assert rc == 0, (name, res)
            cls.out[name] = out

    def spec(self, name):
        with open(os.path.join(FIX, name, "spec.json"), encoding="utf-8") as f:
            return json.load(f)

    def test_fixtures_exist(self):
        for need in ("sheet-docsgpt-q3", "sheet-cell-types", "sheet-injection", "sheet-multi",
                     "sheet-ragged", "sheet-unicode", "sheet-empty-workbook", "sheet-empty-sheet"):
            self.assertIn(need, FIXTURES)

    def test_validate(self):
        assert_ooxml_valid(self, *[self.out[n] for n in FIXTURES])

    def test_result_line(self):
        rc, res = render(os.path.join(FIX, "sheet-multi", "spec.json"), os.path.join(TMP, "m.xlsx"))
        self.assertEqual(res["status"], "ok")
        self.assertEqual(res["kind"], "spreadsheet")
        self.assertEqual(res["pages"], 5)
        rc, res = render(os.path.join(FIX, "sheet-empty-workbook", "spec.json"),
                         os.path.join(TMP, "e.xlsx"))
        self.assertEqual(res["pages"], 1)

    def test_deterministic(self):
        for name in FIXTURES:
            again = os.path.join(TMP, name + ".again.xlsx")
            rc, _ = render(os.path.join(FIX, name, "spec.json"), again)
            self.assertEqual(rc, 0)
            with open(self.out[name], "rb") as a, open(again, "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def check_cell(self, where, cell, v):
        if v is None:
            self.assertIsNone(cell.value, where)
            return
        fmt = "General"
        if isinstance(v, dict):
            fmt = v.get("format", fmt)
            if "date" in v:
                self.assertIsInstance(cell.value, datetime.datetime, where)
                self.assertEqual(cell.value, parse_date(v["date"]), where)
                if "format" not in v:
                    fmt = "yyyy-mm-dd hh:mm:ss" if "T" in v["date"] else "yyyy-mm-dd"
                self.assertEqual(cell.number_format, fmt, where)
                return
            if "formula" in v:
                self.assertEqual(cell.data_type, "f", where)
                self.assertEqual(cell.value, "=" + v["formula"].lstrip("="), where)
                self.assertEqual(cell.number_format, fmt, where)
                return
            v = v["value"]
        self.assertEqual(cell.number_format, fmt, where)
        if isinstance(v, bool):
            self.assertEqual(cell.data_type, "b", where)
            self.assertIs(cell.value, v, where)
        elif isinstance(v, (int, float)):
            self.assertEqual(cell.data_type, "n", where)
            self.assertNotIsInstance(cell.value, bool, where)
            self.assertEqual(cell.value, v, where)
        else:
            self.assertEqual(cell.data_type, "s", where)
            self.assertEqual(cell.value, openpyxl_text(v), where)
            self.assertEqual(bool(cell.quotePrefix), needs_quote(v), where)
            self.assertEqual(bool(cell.alignment.wrap_text), "\n" in v, where)

    def test_readback(self):
        for name in FIXTURES:
            with self.subTest(fixture=name):
                wb = openpyxl.load_workbook(self.out[name])
                want = sheets_of(self.spec(name))
                self.assertEqual(wb.sheetnames, [w[0] for w in want])
                for ws, (sname, rows, header, freeze, widths) in zip(wb.worksheets, want):
                    n_cols = max([len(r) for r in rows] + [0])
                    for r, row in enumerate(rows):
                        for c in range(n_cols):
                            v = row[c] if c < len(row) else None
                            cell = ws.cell(row=r + 1, column=c + 1)
                            where = "%s!%s" % (sname, cell.coordinate)
                            self.check_cell(where, cell, v)
                            if v is not None:
                                self.assertEqual(bool(cell.font.b), bool(header and r == 0), where)
                    # nothing beyond the spec's cells
                    self.assertLessEqual(ws.max_row, max(len(rows), 1))
                    self.assertLessEqual(ws.max_column, max(n_cols, 1))
                    self.assertEqual(ws.freeze_panes, freeze, sname)
                    if header and rows and n_cols:
                        self.assertEqual(ws.auto_filter.ref,
                                         "A1:%s%d" % (get_column_letter(n_cols), len(rows)), sname)
                    else:
                        self.assertIsNone(ws.auto_filter.ref, sname)
                    for i, w in enumerate(widths or []):
                        self.assertEqual(ws.column_dimensions[get_column_letter(i + 1)].width, w, sname)

    def test_injection_is_text(self):
        """DocsGPT reference §9, done better: the value is intact, not "'" + value."""
        wb = openpyxl.load_workbook(self.out["sheet-injection"])
        ws = wb.active
        got = {ws.cell(row=r, column=1).value: ws.cell(row=r, column=1) for r in range(2, ws.max_row + 1)}
        for s in ('=HYPERLINK("http://x","y")', "+1+1", "-5", "@cmd", "\tTab", "\nNL", "-danger"):
            self.assertIn(s, got)
            self.assertEqual(got[s].data_type, "s")
            self.assertTrue(got[s].quotePrefix, s)
        self.assertFalse(got["safe text"].quotePrefix)
        self.assertEqual(ws["B2"].value, -5)
        self.assertEqual(ws["B3"].value, 3.14)
        with zipfile.ZipFile(self.out["sheet-injection"]) as z:
            sheet = z.read("xl/worksheets/sheet1.xml").decode()
        self.assertNotIn("<f>", sheet)  # never a formula

    def test_workbook_parts(self):
        with zipfile.ZipFile(self.out["sheet-multi"]) as z:
            wbx = z.read("xl/workbook.xml").decode()
            self.assertIn('<calcPr calcId="191029" fullCalcOnLoad="1"/>', wbx)
            self.assertIn('<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'
                          "'Summary'!$A$1:$C$5</definedName>", wbx)
            self.assertIn("'It''s, quoted'!$A$1:$B$2", wbx)
            names = z.namelist()
            # styles and shared strings are produced after the sheets that fill them
            self.assertLess(names.index("xl/worksheets/sheet5.xml"), names.index("xl/styles.xml"))
            self.assertLess(names.index("xl/styles.xml"), names.index("xl/sharedStrings.xml"))
        for name in FIXTURES:
            with zipfile.ZipFile(self.out[name]) as z:
                names = z.namelist()
                sst = z.read("xl/sharedStrings.xml").decode()
                m = re.search(r'count="(\d+)" uniqueCount="(\d+)"', sst)
                refs = sum(len(re.findall(r't="s"', z.read(n).decode()))
                           for n in names if n.startswith("xl/worksheets/"))
                self.assertEqual(int(m.group(1)), refs, name)
                self.assertEqual(int(m.group(2)), sst.count("<si>"), name)
                if name == "sheet-ragged":  # "one" twice: deduplicated
                    self.assertEqual(int(m.group(2)), refs - 1)

    def test_libreoffice(self):
        """LibreOffice opens every fixture and computes the formulas."""
        keep = os.path.join(TMP, "pdf")
        p = subprocess.run([require(self, "tools/office-smoke"), "--keep", keep] +
                           [self.out[n] for n in FIXTURES], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)

        def text(name):
            pdf = os.path.join(keep, name + ".xlsx.pdf")
            t = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
            return re.sub(r"\s+", " ", t)

        multi = text("sheet-multi")
        self.assertIn("Total 300 335.5", multi)  # SUM(B2:B4), SUM(C2:C4) with no cached value
        types = text("sheet-cell-types")
        self.assertIn("sum 40.14 40.14", types)  # 42 + -5 + 3.14
        self.assertIn("integer-negative", types)  # A2&"-"&A3
        self.assertIn("314.00", types)  # ROUND(B4*100,0) in format 0.00
        self.assertIn("1,234,567", types)
        self.assertIn("25.0%", types)
        self.assertIn("2026-11-30", types)
        self.assertIn("29/02/2024", types)
        inj = text("sheet-injection")
        self.assertIn("=HYPERLINK", inj)
        self.assertIn("+1+1", inj)
        self.assertIn("@cmd", inj)
        uni = text("sheet-unicode")
        self.assertIn("_x0041_ and _x005F_ stay as typed", uni)
        self.assertIn("<&> \"quotes\" 'apos' ]]> </sheetData>", uni)
        self.assertIn("你好，世界", uni)

    def test_bad_specs(self):
        """The compiler's errors reach the CLI: exit 1, the offending path, no file."""
        rows = [[i, "x"] for i in range(12)] + [[1, 2, 3, [4]]]
        cases = [
            ({"sheets": [{"name": "a[1]", "rows": []}]}, "/sheets/0/name"),
            ({"sheets": [{"name": "Data", "rows": []}, {"name": "DATA", "rows": []}]}, "/sheets/1/name"),
            ({"sheets": [{"name": "x" * 32, "rows": []}]}, "/sheets/0/name"),
            ({"sheets": [{"rows": rows}]}, "/sheets/0/rows/12/3"),
            ({"sheets": [{"rows": [[{"value": 1, "colour": "red"}]]}]}, "/sheets/0/rows/0/0/colour"),
        ]
        for i, (spec, path) in enumerate(cases):
            with self.subTest(path=path):
                out = os.path.join(TMP, "bad-%d.xlsx" % i)
                rc, res = render(write_spec(spec, "bad-%d.json" % i), out)
                self.assertEqual(rc, 1, res)
                self.assertEqual(res["status"], "error")
                self.assertIn(path, [e["path"] for e in res["errors"]], res)
                self.assertFalse(os.path.exists(out))

    def test_streaming_memory(self):
        """A 300,000-row sheet: peak memory of render minus that of check (compile
        only) stays below a constant plus the compressed output (the packager
        assembles the zip in memory); the XML itself is never held."""
        path = os.path.join(TMP, "big.json")
        with open(path, "w") as f:
            f.write('{"sheets":[{"name":"Big","columns":["a","b","c","d","e","f","g","h","i","j"],"rows":[\n')
            f.write(",\n".join('[%d,"s%d",%d.25,"k%d",%d,true,null,"t",%d.5,-%d]' % (i, i % 1000, i, i % 7, i * 3, i, i)
                               for i in range(300000)))
            f.write("]}]}\n")

        def peak(args):
            p = subprocess.run(["/usr/bin/time", "-f", "%M", QUIRE] + args, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            return int(p.stderr.strip().splitlines()[-1]) * 1024

        out = os.path.join(TMP, "big.xlsx")
        r = peak(["render", path, "-o", out])
        c = peak(["check", path, "-k", "spreadsheet"])
        size = os.path.getsize(out)
        with zipfile.ZipFile(out) as z:
            xml = z.getinfo("xl/worksheets/sheet1.xml").file_size
        self.assertGreater(xml, 60 << 20)
        self.assertLess(r - c, (24 << 20) + 2 * size, "render %d, check %d, zip %d" % (r, c, size))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(verbosity=2, exit=False).result))
