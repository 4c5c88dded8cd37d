#!/usr/bin/python3
"""Abuse, charts (issue 37 rows 5, 12), inputs generated here.
Row 12: every chart fixture with its values made extreme (+-1e300, 1e-300,
stacked over many series) renders to html, PDF and PNG (under ASan in CI's
sanitizer step), and the html's SVG labels are the PDF's: the same ticks and
values drawn; 9e307 (past +-1e300) is a spec error at check as at render,
never an out-of-memory and never a chart dropped from the html. Row 5: a
sheet chart's series naming a 1,048,576-row range is refused (4,000 points
per series), 1,001 charts are refused, and many charts repeating one range
run out of the work budget: exit 4 naming max_work, within the CPU budget."""
import glob
import html as htmllib
import json
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abuse import MEM_SLOW, Case  # noqa: E402

GiB = (1 << 30) * MEM_SLOW
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
EXTREMES = [1e300, -1e300, 1e-300, -7.5e299, 0, 3]


def extreme(chart, k):
    """The chart with its literal values replaced by extreme ones."""
    chart = json.loads(json.dumps(chart))
    pie = chart.get("chart") in ("pie", "doughnut")
    for s, ser in enumerate(chart.get("series", [])):
        for key in ("values", "y", "x"):
            if isinstance(ser.get(key), list):
                ser[key] = [abs(EXTREMES[(i + s + k) % len(EXTREMES)]) if pie else
                            EXTREMES[(i + s + k) % len(EXTREMES)] for i in range(len(ser[key]))]
    return chart


def svg_labels(html):
    texts = (htmllib.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", html))
    return set(t for t in texts if re.fullmatch(r"[-+0-9.,e% ]*\d[-+0-9.,e% ]*", t))


class Charts(Case):
    def test_fixtures_extreme(self):  # row 12
        n = 0
        for spec_path in sorted(glob.glob(os.path.join(SRC, "fixtures", "chart-*", "spec.json"))):
            with open(spec_path) as f:
                spec = json.load(f)
            blocks = [b for b in spec.get("blocks", []) if b.get("type") == "chart"]
            blocks += [s["chart"] for s in spec.get("slides", []) if "chart" in s]
            for k, b in enumerate(blocks):
                chart = extreme(b, k)
                chart["type"] = "chart"
                self.spec("x.json", {"blocks": [chart]})
                for out in ("x.html", "x.pdf", "x.png"):
                    run = self.quire("render", "x.json", "-o", out)
                    self.assertEqual(run.code, 0, "%s: %s" % (spec_path, run.out))
                    self.assertLess(run.rss, 1.5 * GiB)
                with open(self.path("x.html")) as f:
                    labels = svg_labels(f.read())
                if chart.get("chart") not in ("pie", "doughnut"):
                    self.assertTrue(labels, spec_path)
                text = subprocess.run(["pdftotext", self.path("x.pdf"), "-"], capture_output=True,
                                      text=True, check=True).stdout
                flat = "".join(text.split())  # pdftotext joins labels drawn side by side
                missing = [t for t in labels if "".join(t.split()) not in flat]
                self.assertEqual(missing, [], "%s chart %d: html labels not in the PDF" % (spec_path, k))
                n += 1
        self.assertGreaterEqual(n, 10)

    def test_past_the_range(self):  # row 12: a spec error, not an OOM or a silent drop
        for v in (9e307, -9e307, 1.5e300):
            self.spec("big.json", {"blocks": [{"type": "chart", "chart": "column", "categories": ["a", "b"],
                                               "series": [{"name": "s", "values": [v, 1]}]}]})
            for cmd in (["check", "big.json"], ["render", "big.json", "-o", "big.html"],
                        ["render", "big.json", "-o", "big.pdf"]):
                run = self.quire(*cmd)
                self.assertEqual(run.code, 1, run.out)
                self.assertEqual(run.paths(), ["/blocks/0/series/0/values/0"])
                self.assertIn("1e300", run.result["errors"][0]["hint"])
        # a sheet cell in a chart's range: the same rule
        self.spec("cell.json", {"sheets": [{"name": "S", "rows": [["a", 9e307], ["b", 1]],
                                            "charts": [{"chart": "column", "categories": "S!A1:A2",
                                                        "series": [{"name": "s", "values": "S!B1:B2"}]}]}]})
        run = self.quire("render", "cell.json", "-o", "cell.pdf")
        self.assertEqual(run.code, 1, run.out)
        self.assertIn("S!B1", run.messages()[0])

    def test_ranges_and_chart_counts(self):  # row 5
        rows = [[i] for i in range(4000)]
        whole = {"chart": "line", "series": [{"name": "s", "values": "S!A1:A1048576"}]}
        self.spec("whole.json", {"sheets": [{"name": "S", "rows": rows, "charts": [whole]}]})
        run = self.quire("render", "whole.json", "-o", "whole.pdf")
        self.assertEqual(run.code, 1, run.out)
        self.assertIn("at most 4000", run.messages()[0])
        many = {"chart": "line", "series": [{"name": "s", "values": "S!A1:A4000"}] * 255}
        self.spec("many.json", {"sheets": [{"name": "S", "rows": rows, "charts": [many] * 8}]})
        self.assertLess(os.path.getsize(self.path("many.json")), 128000)
        for out in ("many.pdf", "many.xlsx", "many.png"):
            run = self.quire("render", "many.json", "-o", out)
            self.assertEqual(run.code, 4, run.out)
            self.assertIn("max_work", run.messages()[0])
            self.assertIn("--max-work", run.result["errors"][0]["hint"])
            self.assertLess(run.rss, 1.5 * GiB)
        small = {"chart": "column", "categories": ["a"], "series": [{"name": "s", "values": [1]}]}
        self.spec("count.json", {"blocks": [dict(small, type="chart")] * 1001})
        run = self.quire("check", "count.json")
        self.assertEqual(run.code, 1, run.out)
        self.assertEqual(run.paths(), ["/blocks/1000"])
        self.assertIn("at most 1000", run.messages()[0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
