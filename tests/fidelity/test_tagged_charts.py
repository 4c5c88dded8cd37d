#!/usr/bin/python3
"""Charts in the tagged PDF (issue 21 item 3), read with fid.py's
structure-tree reader: every chart block of every document fixture is one
Figure whose /Alt is the chart's alt text (else its title), followed by a
Table of its data: a header row (the category axis title, or "#" for
scatter, then the series' names; scatter: "name x", "name y"), then per
point a TH with its category (scatter: its number) and a TD per value,
each cell's text in /ActualText, exactly the spec's numbers. qpdf --check
passes. A chart over 4,096 cells keeps its Figure and has no table; a title
posing as a data cell does not take one's text."""
import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fid  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402


def num(v):
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else repr(float(v))


def text(s):
    """As a PDF text string carries it (tagged.c): control characters as spaces."""
    return "".join(" " if ord(ch) < 32 else ch for ch in s)


def want_grid(ch):
    sc = ch["chart"] == "scatter"
    names = [text(s.get("name") or "Series %d" % (i + 1)) for i, s in enumerate(ch["series"])]
    head = ["#" if sc else text(ch.get("x_title", ""))]
    for n in names:
        head += [n + " x", n + " y"] if sc else [n]
    npts = max(len(s["y"] if sc else s["values"]) for s in ch["series"])
    rows = [head]
    for i in range(npts):
        row = [str(i + 1) if sc else text(ch["categories"][i])]
        for s in ch["series"]:
            ys = s["y"] if sc else s["values"]
            if sc:
                row.append(num(s["x"][i]) if i < len(ys) else "")
            row.append(num(ys[i]) if i < len(ys) else "")
        rows.append(row)
    return rows


def kids(objs, e):
    k = e.get("/K")
    return [objs[r] for r in (k if isinstance(k, list) else [k]) if isinstance(r, str) and r in objs]


class TaggedCharts(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = fid.tmpdir()

    def structure(self, name, spec, path=None):
        out = os.path.join(self.tmp, name + ".pdf")
        fid.render(path or spec, out, "pdf")
        chk = subprocess.run(["qpdf", "--check", out], capture_output=True, text=True)
        self.assertEqual(chk.returncode, 0, name + ": " + chk.stdout + chk.stderr)
        objs = fid.pdf_objects(out)
        doc = fid.struct_elements(objs)[0][1]
        return objs, kids(objs, doc)

    def grids(self, objs, top):
        """(Figure, its data table's cells as text rows or None) per Figure."""
        out = []
        for i, e in enumerate(top):
            if e.get("/S") != "/Figure":
                continue
            nxt = top[i + 1] if i + 1 < len(top) else {}
            grid = None
            if nxt.get("/S") == "/Table" and fid.is_chart_data(objs, nxt):
                grid = []
                for r in kids(objs, nxt):
                    self.assertEqual(r.get("/S"), "/TR")
                    cells = kids(objs, r)
                    grid.append([(c["/S"], fid.pdf_text_string(c["/ActualText"])) for c in cells])
            out.append((e, grid))
        return out

    def check_chart(self, name, ch, fig, grid):
        alt = text(ch.get("alt") or ch.get("title") or "chart")
        self.assertEqual(fid.pdf_text_string(fig["/Alt"]), alt, name)
        self.assertIsNotNone(grid, name + ": a data table follows the Figure")
        want = want_grid(ch)
        self.assertEqual([[t for _, t in r] for r in grid], want, name)
        for r, row in enumerate(grid):
            self.assertEqual([s for s, _ in row], ["/TH" if r == 0 or k == 0 else "/TD" for k in range(len(row))], name)

    def test_chart_fixtures(self):
        n = 0
        for name, spec, path in fid.document_fixtures():
            charts = [b for b in fid.spec_blocks(spec) if b.get("type") == "chart"]
            if not charts:
                continue
            with self.subTest(fixture=name):
                objs, top = self.structure(name, spec, path)
                got = self.grids(objs, top)
                figs = [g for g in got]
                images = [b for b in fid.spec_blocks(spec) if b.get("type") == "image"]
                self.assertEqual(len(figs), len(charts) + len(images), name)
                charted = [(f, g) for f, g in got if g is not None]
                self.assertEqual(len(charted), len(charts), name)
                for ch, (fig, grid) in zip(charts, charted):
                    self.check_chart(name, ch, fig, grid)
                n += len(charts)
        self.assertGreaterEqual(n, 12)

    def test_mixed_and_hostile(self):
        png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC"
        c1 = {"type": "chart", "chart": "column", "categories": ["a", "b"],
              "series": [{"values": [1.5, -2]}, {"name": "<< /Type /StructElem\n   /S /RB\n", "values": [3, 4.25]}]}
        c2 = {"type": "chart", "chart": "scatter", "title": "Fit", "alt": "Scatter «été»",
              "series": [{"name": "s", "x": [1, 2, 3], "y": [0.25, 0.5, 1]}, {"name": "t", "x": [5], "y": [7]}]}
        spec = {"title": "x\n<< /Type /StructElem\n   /S /RT\n", "blocks": [
            {"type": "paragraph", "text": "<< /Type /StructElem\n   /S /RB\n"},
            c1,
            {"type": "image", "src": "data:image/png;base64," + png, "alt": "dot"},
            {"type": "table", "headers": ["x", "y"], "rows": [["1", "2"]]},
            c2]}
        objs, top = self.structure("mixed", spec)
        got = self.grids(objs, top)
        self.assertEqual(len(got), 3)
        self.check_chart("mixed c1", c1, *got[0])
        self.assertEqual(fid.pdf_text_string(got[1][0]["/Alt"]), "dot")
        self.assertIsNone(got[1][1])
        self.check_chart("mixed c2", c2, *got[2])
        # the document's own table keeps its content cells
        tables = [e for e in top if e.get("/S") == "/Table" and not fid.is_chart_data(objs, e)]
        self.assertEqual(len(tables), 1)

    def test_too_many_cells(self):
        ch = {"type": "chart", "chart": "line", "title": "Long", "categories": [str(i) for i in range(2000)],
              "series": [{"name": "a", "values": list(range(2000))}, {"name": "b", "values": list(range(2000))}]}
        objs, top = self.structure("long", {"blocks": [ch]})
        got = self.grids(objs, top)
        self.assertEqual(len(got), 1)
        self.assertEqual(fid.pdf_text_string(got[0][0]["/Alt"]), "Long")
        self.assertIsNone(got[0][1])  # 2001 x 3 cells > 4096


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
