#!/usr/bin/python3
"""bench/charts.py: the chart workload of issue 21: one document with 100
charts of 4 series x 12 points (column, line, bar, area in turn), rendered
to docx and pdf by the built quire; prints the median, min and max wall time
of N runs (default 5). Not a test: nothing here asserts a time.

    python3 bench/charts.py [--quire build/quire] [--runs 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time

KINDS = ["column", "line", "bar", "area"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def spec():
    blocks = []
    for i in range(100):
        series = [{"name": "Series %d" % (s + 1),
                   "values": [((i * 37 + s * 11 + m * 7) % 97) * 10 + 50 for m in range(12)]}
                  for s in range(4)]
        blocks.append({"type": "heading", "level": 2, "text": "Chart %d" % (i + 1)})
        blocks.append({"type": "chart", "chart": KINDS[i % 4], "title": "Monthly figures %d" % (i + 1),
                       "categories": MONTHS, "series": series, "y_title": "EUR k",
                       "number_format": "#,##0", "alt": "Chart %d" % (i + 1)})
    return {"title": "100 charts", "blocks": blocks}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quire", default="build/quire")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "charts.json")
        with open(path, "w") as f:
            json.dump(spec(), f)
        for fmt, kind in (("docx", "document"), ("pdf", "pdf"), ("html", "html")):
            out = os.path.join(d, "out." + fmt)
            times = []
            for _ in range(a.runs):
                t = time.perf_counter()
                subprocess.run([a.quire, "render", path, "-o", out, "-k", kind], check=True,
                               stdout=subprocess.DEVNULL)
                times.append(time.perf_counter() - t)
            print("100 charts 4x12 -> %-4s median %.3f s  min %.3f  max %.3f  (%d KB)" %
                  (fmt, statistics.median(times), min(times), max(times), os.path.getsize(out) // 1024))


if __name__ == "__main__":
    main()
