#!/usr/bin/python3
"""The bad-input catalogue: every case is a spec quire must refuse, the kind it
is checked as, the exit code and the exact list of error paths (JSON pointers).

`python3 tests/errors/catalogue.py write` (re)writes fixtures/errors/<case>/
{spec.json, expect.json}; test_errors.py renders each case and compares.
The catalogue is the truth: expect.json is derived from it, never from output.
"""
import json
import os
import sys

D, S, P, PDF, H = "document", "spreadsheet", "presentation", "pdf", "html"

PNG_1x1 = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8"
           "/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==")


def deep(n):
    v = "x"
    for _ in range(n):
        v = [v]
    return v


def nested_items(depth):
    item = "leaf"
    for _ in range(depth):
        item = {"text": "level", "items": [item]}
    return [item]


# (case name, kind, spec: str = raw bytes/text, else JSON-encoded; exit code; paths)
CASES = [
    # ---- syntax and encoding ----
    ("syntax-trailing-comma", D, '{"blocks": [],}', 1, [""]),
    ("syntax-unclosed-array", D, '{"blocks": [', 1, [""]),
    ("syntax-empty-input", D, '', 1, [""]),
    ("syntax-only-whitespace", D, '   \n  ', 1, [""]),
    ("syntax-single-quotes", D, "{'blocks': []}", 1, [""]),
    ("syntax-comment", D, '{"blocks": [] /* c */}', 1, [""]),
    ("syntax-nan-literal", S, '{"sheets":[{"rows":[[NaN]]}]}', 1, [""]),
    ("syntax-infinity-literal", S, '{"sheets":[{"rows":[[Infinity]]}]}', 1, [""]),
    ("syntax-garbage-after", D, '{"blocks": []} x', 1, [""]),
    ("syntax-duplicate-key", D, '{"blocks": [], "blocks": []}', 1, [""]),
    ("utf8-invalid-byte", D, b'{"blocks":[{"type":"paragraph","text":"a\xff"}]}', 1, [""]),
    ("utf8-overlong", D, b'{"blocks":[{"type":"paragraph","text":"\xc0\xaf"}]}', 1, [""]),
    ("utf8-surrogate-bytes", D, b'{"blocks":[{"type":"paragraph","text":"\xed\xa0\x80"}]}', 1, [""]),
    ("utf8-truncated", D, b'{"blocks":[{"type":"paragraph","text":"\xe2\x82"}]}', 1, [""]),
    # ---- top level ----
    ("top-array", D, [1, 2], 1, [""]),
    ("top-number", D, 42, 1, [""]),
    ("top-null", D, None, 1, [""]),
    ("top-string-not-object", D, "just words", 1, [""]),
    ("top-string-holding-array", D, json.dumps(["a"]), 1, [""]),
    ("doc-missing-blocks", D, {"title": "x"}, 1, [""]),
    ("doc-unknown-top-key", D, {"sections": [], "bogus": 1}, 1, ["/bogus"]),
    ("doc-theme-unknown", D, {"sections": [], "theme": "nope"}, 1, ["/theme"]),
    ("doc-accent-bad", D, {"sections": [], "accent": "blue"}, 1, ["/accent"]),
    ("deck-theme-typo", P, {"slides": [], "theme": "drak"}, 1, ["/theme"]),
    ("doc-title-not-string", D, {"title": 5, "blocks": []}, 1, ["/title"]),
    ("doc-blocks-not-array", D, {"blocks": {"type": "paragraph"}}, 1, ["/blocks"]),
    ("doc-footnotes", D, {"blocks": [], "footnotes": []}, 1, ["/footnotes"]),
    ("doc-lang-not-string", D, {"blocks": [], "lang": ["en"]}, 1, ["/lang"]),
    # ---- blocks ----
    ("block-not-object", D, {"blocks": ["text"]}, 1, ["/blocks/0"]),
    ("block-missing-type", D, {"blocks": [{"text": "x"}]}, 1, ["/blocks/0/type"]),
    ("block-unknown-type", D, {"blocks": [{"type": "headng", "text": "x"}]}, 1, ["/blocks/0/type"]),
    ("block-type-not-string", D, {"blocks": [{"type": 3}]}, 1, ["/blocks/0/type"]),
    ("block-footnote-type", D, {"blocks": [{"type": "footnote", "text": "x"}]}, 1, ["/blocks/0/type"]),
    ("heading-level-9", D, {"blocks": [{"type": "heading", "text": "x", "level": 9}]}, 1, ["/blocks/0/level"]),
    ("heading-level-0", D, {"blocks": [{"type": "heading", "text": "x", "level": 0}]}, 1, ["/blocks/0/level"]),
    ("heading-level-string", D, {"blocks": [{"type": "heading", "text": "x", "level": "two"}]}, 1, ["/blocks/0/level"]),
    ("heading-level-float", D, {"blocks": [{"type": "heading", "text": "x", "level": 1.5}]}, 1, ["/blocks/0/level"]),
    ("heading-no-text", D, {"blocks": [{"type": "heading", "level": 1}]}, 1, ["/blocks/0"]),
    ("html-level-9", H, {"blocks": [{"type": "heading", "text": "x", "level": 9}]}, 1, ["/blocks/0/level"]),
    ("pdf-level-9", PDF, {"blocks": [{"type": "heading", "text": "x", "level": 9}]}, 1, ["/blocks/0/level"]),
    ("html-unknown-block-key", H, {"blocks": [{"type": "paragraph", "text": "x", "colour": "red"}]}, 1, ["/blocks/0/colour"]),
    ("paragraph-text-and-runs", D, {"blocks": [{"type": "paragraph", "text": "a", "runs": ["b"]}]}, 1, ["/blocks/0"]),
    ("paragraph-text-number", D, {"blocks": [{"type": "paragraph", "text": 12}]}, 1, ["/blocks/0/text"]),
    ("paragraph-runs-not-array", D, {"blocks": [{"type": "paragraph", "runs": "abc"}]}, 1, ["/blocks/0/runs"]),
    ("run-unknown-key-bolt", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "bolt": True}]}]}, 1, ["/blocks/0/runs/0/bolt"]),
    ("run-bold-string", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "bold": "yes"}]}]}, 1, ["/blocks/0/runs/0/bold"]),
    ("run-missing-text", D, {"blocks": [{"type": "paragraph", "runs": [{"bold": True}]}]}, 1, ["/blocks/0/runs/0/text"]),
    ("run-number", D, {"blocks": [{"type": "paragraph", "runs": [5]}]}, 1, ["/blocks/0/runs/0"]),
    ("run-nested-array", D, {"blocks": [{"type": "paragraph", "runs": [["a"]]}]}, 1, ["/blocks/0/runs/0"]),
    ("link-javascript", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": "javascript:alert(1)"}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("link-data-uri", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": "data:text/html,<b>x</b>"}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("link-file", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": "file:///etc/passwd"}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("link-relative", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": "/docs/x"}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("link-vbscript-mixed-case", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": "VBScript:x"}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("link-not-string", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": True}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("html-link-javascript", H, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "link": "javascript:x"}]}]}, 1, ["/blocks/0/runs/0/link"]),
    ("run-footnote-key", D, {"blocks": [{"type": "paragraph", "runs": [{"text": "a", "footnote": "b"}]}]}, 1, ["/blocks/0/runs/0/footnote"]),
    ("three-errors-reported", D, {"blocks": [{"type": "heading", "text": "x", "level": 7},
                                             {"type": "paragraph", "text": 1},
                                             {"type": "list", "items": "x"}]}, 1,
     ["/blocks/0/level", "/blocks/1/text", "/blocks/2/items"]),
    # ---- lists ----
    ("list-items-missing", D, {"blocks": [{"type": "list"}]}, 1, ["/blocks/0/items"]),
    ("list-items-not-array", D, {"blocks": [{"type": "list", "items": "a"}]}, 1, ["/blocks/0/items"]),
    ("list-ordered-string", D, {"blocks": [{"type": "list", "ordered": "yes", "items": ["a"]}]}, 1, ["/blocks/0/ordered"]),
    ("list-item-number", D, {"blocks": [{"type": "list", "items": [1]}]}, 1, ["/blocks/0/items/0"]),
    ("list-item-unknown-key", D, {"blocks": [{"type": "list", "items": [{"text": "a", "children": []}]}]}, 1, ["/blocks/0/items/0/children"]),
    ("list-depth-10", D, {"blocks": [{"type": "list", "items": nested_items(10)}]}, 1,
     ["/blocks/0/items/0" + "/items/0" * 9]),
    # ---- tables ----
    ("table-rows-missing", D, {"blocks": [{"type": "table", "headers": ["a"]}]}, 1, ["/blocks/0/rows"]),
    ("table-row-not-array", D, {"blocks": [{"type": "table", "rows": ["a"]}]}, 1, ["/blocks/0/rows/0"]),
    ("table-cell-nested-array", D, {"blocks": [{"type": "table", "rows": [["a", ["b"]]]}]}, 1, ["/blocks/0/rows/0/1"]),
    ("table-cell-unknown-object", D, {"blocks": [{"type": "table", "rows": [[{"value": 1}]]}]}, 1, ["/blocks/0/rows/0/0/value"]),
    ("table-widths-wrong-count", D, {"blocks": [{"type": "table", "rows": [["a", "b"]], "widths": [1]}]}, 1, ["/blocks/0/widths"]),
    ("table-widths-negative", D, {"blocks": [{"type": "table", "rows": [["a", "b"]], "widths": [1, -1]}]}, 1, ["/blocks/0/widths/1"]),
    ("table-widths-zero", D, {"blocks": [{"type": "table", "rows": [["a"]], "widths": [0]}]}, 1, ["/blocks/0/widths/0"]),
    ("table-widths-string", D, {"blocks": [{"type": "table", "rows": [["a"]], "widths": ["1"]}]}, 1, ["/blocks/0/widths/0"]),
    ("table-headers-not-array", D, {"blocks": [{"type": "table", "headers": "a", "rows": []}]}, 1, ["/blocks/0/headers"]),
    ("html-table-unknown-key", H, {"blocks": [{"type": "table", "rows": [], "caption": "x"}]}, 1, ["/blocks/0/caption"]),
    # ---- code, image, page ----
    ("code-text-missing", D, {"blocks": [{"type": "code"}]}, 1, ["/blocks/0/text"]),
    ("code-text-array", D, {"blocks": [{"type": "code", "text": ["a"]}]}, 1, ["/blocks/0/text"]),
    ("image-src-missing", D, {"blocks": [{"type": "image", "alt": "x"}]}, 1, ["/blocks/0/src"]),
    ("image-absolute-path", D, {"blocks": [{"type": "image", "src": "/etc/passwd"}]}, 1, ["/blocks/0/src"]),
    ("image-dotdot", D, {"blocks": [{"type": "image", "src": "../secret.png"}]}, 1, ["/blocks/0/src"]),
    ("image-missing-file", D, {"blocks": [{"type": "image", "src": "nope.png"}]}, 1, ["/blocks/0/src"]),
    ("image-not-an-image", D, {"blocks": [{"type": "image", "src": "data:image/png;base64,aGVsbG8="}]}, 1, ["/blocks/0/src"]),
    ("image-bad-base64", D, {"blocks": [{"type": "image", "src": "data:image/png;base64,@@@"}]}, 1, ["/blocks/0/src"]),
    ("image-svg", D, {"blocks": [{"type": "image", "src": "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="}]}, 1, ["/blocks/0/src"]),
    ("image-http-url", D, {"blocks": [{"type": "image", "src": "https://example.com/a.png"}]}, 1, ["/blocks/0/src"]),
    ("image-alt-number", D, {"blocks": [{"type": "image", "src": PNG_1x1, "alt": 5}]}, 1, ["/blocks/0/alt"]),
    ("page-break-extra-key", D, {"blocks": [{"type": "page_break", "text": "x"}]}, 1, ["/blocks/0/text"]),
    ("page-size-unknown", D, {"blocks": [], "page": {"size": "B7"}}, 1, ["/page/size"]),
    ("page-orientation-bad", D, {"blocks": [], "page": {"orientation": "sideways"}}, 1, ["/page/orientation"]),
    ("page-margins-negative", D, {"blocks": [], "page": {"margins": -5}}, 1, ["/page/margins"]),
    ("page-margins-too-big", D, {"blocks": [], "page": {"margins": 400}}, 1, ["/page/margins"]),
    ("page-unknown-key", D, {"blocks": [], "page": {"sise": "A4"}}, 1, ["/page/sise"]),
    # ---- legacy sections ----
    ("sections-not-array", D, {"sections": {"heading": "x"}}, 1, ["/sections"]),
    ("sections-paragraph-number", D, {"sections": [{"heading": "h", "paragraphs": [1]}]}, 1, ["/sections/0/paragraphs/0"]),
    ("sections-unknown-key", D, {"sections": [{"heading": "h", "body": "x"}]}, 1, ["/sections/0/body"]),
    ("sections-heading-array", D, {"sections": [{"heading": ["h"]}]}, 1, ["/sections/0/heading"]),
    # ---- presentation ----
    ("deck-missing-slides", P, {"title": "x"}, 1, [""]),
    ("deck-slides-not-array", P, {"slides": "x"}, 1, ["/slides"]),
    ("deck-slide-not-object", P, {"slides": ["x"]}, 1, ["/slides/0"]),
    ("deck-unknown-slide-key", P, {"slides": [{"title": "x", "bulets": ["a"]}]}, 1, ["/slides/0/bulets"]),
    ("deck-bullet-number", P, {"slides": [{"bullets": [3]}]}, 1, ["/slides/0/bullets/0"]),
    ("deck-bullets-depth-10", P, {"slides": [{"bullets": nested_items(10)}]}, 1,
     ["/slides/0/bullets/0" + "/items/0" * 9]),
    ("deck-layout-unknown", P, {"slides": [{"layout": "two_column"}]}, 1, ["/slides/0/layout"]),
    ("deck-size-unknown", P, {"size": "21:9", "slides": []}, 1, ["/size"]),
    ("deck-notes-array", P, {"slides": [{"notes": ["a"]}]}, 1, ["/slides/0/notes"]),
    ("deck-title-object", P, {"slides": [{"title": {"text": "x"}}]}, 1, ["/slides/0/title"]),
    ("deck-table-cell-array", P, {"slides": [{"table": {"rows": [[["x"]]]}}]}, 1, ["/slides/0/table/rows/0/0"]),
    ("deck-image-bad", P, {"slides": [{"image": {"src": "data:image/png;base64,aGVsbG8="}}]}, 1, ["/slides/0/image/src"]),
    ("deck-link-javascript", P, {"slides": [{"bullets": [{"runs": [{"text": "a", "link": "javascript:x"}]}]}]}, 1, ["/slides/0/bullets/0/runs/0/link"]),
    ("deck-top-unknown", P, {"slides": [], "skin": "dark"}, 1, ["/skin"]),
    # ---- spreadsheet ----
    ("sheet-missing-sheets", S, {}, 1, [""]),
    ("sheet-sheets-string", S, {"sheets": "Q3"}, 1, ["/sheets"]),
    ("sheet-rows-missing", S, {"sheets": [{"name": "a"}]}, 1, ["/sheets/0/rows"]),
    ("sheet-row-not-array", S, {"sheets": [{"rows": ["a"]}]}, 1, ["/sheets/0/rows/0"]),
    ("sheet-name-too-long", S, {"sheets": [{"name": "x" * 32, "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-bracket", S, {"sheets": [{"name": "a[1]", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-slash", S, {"sheets": [{"name": "a/b", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-colon", S, {"sheets": [{"name": "a:b", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-star-question", S, {"sheets": [{"name": "a*?", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-blank", S, {"sheets": [{"name": "   ", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-empty", S, {"sheets": [{"name": "", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-apostrophe", S, {"sheets": [{"name": "'quoted'", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-history", S, {"sheets": [{"name": "History", "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-name-duplicate-case", S, {"sheets": [{"name": "Data", "rows": []}, {"name": "DATA", "rows": []}]}, 1, ["/sheets/1/name"]),
    ("sheet-name-number", S, {"sheets": [{"name": 7, "rows": []}]}, 1, ["/sheets/0/name"]),
    ("sheet-cell-nested-array", S, {"sheets": [{"rows": [["a", "b", "c", ["d"]]]}]}, 1, ["/sheets/0/rows/0/3"]),
    ("sheet-cell-unknown-key", S, {"sheets": [{"rows": [[{"value": 1, "colour": "red"}]]}]}, 1, ["/sheets/0/rows/0/0/colour"]),
    ("sheet-cell-empty-object", S, {"sheets": [{"rows": [[{}]]}]}, 1, ["/sheets/0/rows/0/0"]),
    ("sheet-cell-path-row-12", S, {"sheets": [{"rows": [[1]] * 12 + [[1, 2, 3, {"bogus": 1}]]}]}, 1, ["/sheets/0/rows/12/3/bogus"]),
    ("sheet-date-invalid", S, {"sheets": [{"rows": [[{"date": "2026-13-45"}]]}]}, 1, ["/sheets/0/rows/0/0/date"]),
    ("sheet-date-words", S, {"sheets": [{"rows": [[{"date": "yesterday"}]]}]}, 1, ["/sheets/0/rows/0/0/date"]),
    ("sheet-date-feb-30", S, {"sheets": [{"rows": [[{"date": "2026-02-30"}]]}]}, 1, ["/sheets/0/rows/0/0/date"]),
    ("sheet-date-before-1900", S, {"sheets": [{"rows": [[{"date": "1899-01-01"}]]}]}, 1, ["/sheets/0/rows/0/0/date"]),
    ("sheet-formula-empty", S, {"sheets": [{"rows": [[{"formula": ""}]]}]}, 1, ["/sheets/0/rows/0/0/formula"]),
    ("sheet-formula-number", S, {"sheets": [{"rows": [[{"formula": 5}]]}]}, 1, ["/sheets/0/rows/0/0/formula"]),
    ("sheet-value-array", S, {"sheets": [{"rows": [[{"value": [1]}]]}]}, 1, ["/sheets/0/rows/0/0/value"]),
    ("sheet-format-number", S, {"sheets": [{"rows": [[{"value": 1, "format": 2}]]}]}, 1, ["/sheets/0/rows/0/0/format"]),
    ("sheet-huge-integer", S, {"sheets": [{"rows": [[9007199254740993]]}]}, 1, ["/sheets/0/rows/0/0"]),
    ("sheet-widths-negative", S, {"sheets": [{"rows": [], "widths": [-1]}]}, 1, ["/sheets/0/widths/0"]),
    ("sheet-freeze-bad", S, {"sheets": [{"rows": [], "freeze": "2A"}]}, 1, ["/sheets/0/freeze"]),
    ("sheet-header-string", S, {"sheets": [{"rows": [], "header": "yes"}]}, 1, ["/sheets/0/header"]),
    ("sheet-columns-number", S, {"sheets": [{"rows": [], "columns": [1]}]}, 1, ["/sheets/0/columns/0"]),
    ("sheet-unknown-key", S, {"sheets": [{"rows": [], "colour": "red"}]}, 1, ["/sheets/0/colour"]),
    ("sheet-top-unknown", S, {"sheets": [], "charts": []}, 1, ["/charts"]),
    # ---- limits (exit 4) ----
    ("limit-json-depth", D, {"blocks": [{"type": "table", "rows": [[deep(100)]]}]}, 4, [""]),
    ("limit-string-length", D, {"blocks": [{"type": "paragraph", "text": "a" * (1024 * 1024 + 1)}]}, 4, ["/blocks/0/text"]),
    # ---- kinds ----
    ("kind-deck-as-document", D, {"slides": [{"title": "x"}]}, 1, ["", "/slides"]),
    ("kind-sheet-as-deck", P, {"sheets": []}, 1, ["", "/sheets"]),
    # ---- charts (issue 21) ----
    ("chart-unknown-type", D, {"blocks": [{"type": "chart", "chart": "colum", "series": [{"values": [1]}]}]}, 1, ["/blocks/0/chart"]),
    ("chart-missing-series", D, {"blocks": [{"type": "chart", "chart": "bar"}]}, 1, ["/blocks/0/series"]),
    ("chart-length-mismatch", D, {"blocks": [{"type": "chart", "chart": "column", "categories": ["a", "b", "c"],
                                              "series": [{"values": [1, 2, 3]}, {"values": [1, 2]}]}]}, 1, ["/blocks/0/series/1/values"]),
    ("chart-value-string", D, {"blocks": [{"type": "chart", "chart": "line", "series": [{"values": [1, "2", 3]}]}]}, 1, ["/blocks/0/series/0/values/1"]),
    ("chart-value-huge", D, {"blocks": [{"type": "chart", "chart": "line", "series": [{"values": [1, 1e308, 3]}]}]}, 1, ["/blocks/0/series/0/values/1"]),
    ("chart-too-many-series", D, {"blocks": [{"type": "chart", "chart": "line", "series": [{"values": [1]}] * 256}]}, 1, ["/blocks/0/series"]),
    ("chart-too-many-points", D, {"blocks": [{"type": "chart", "chart": "line", "series": [{"values": [1] * 4001}]}]}, 1, ["/blocks/0/series/0/values"]),
    ("chart-stacked-pie", D, {"blocks": [{"type": "chart", "chart": "pie", "stacked": True, "series": [{"values": [1]}]}]}, 1, ["/blocks/0/stacked"]),
    ("chart-pie-negative", D, {"blocks": [{"type": "chart", "chart": "pie", "series": [{"values": [1, -2]}]}]}, 1, ["/blocks/0/series/0/values/1"]),
    ("chart-scatter-values", D, {"blocks": [{"type": "chart", "chart": "scatter", "series": [{"values": [1]}]}]}, 1, ["/blocks/0/series/0/values"]),
    ("chart-bad-color", D, {"blocks": [{"type": "chart", "chart": "bar", "series": [{"values": [1], "color": "blue"}]}]}, 1, ["/blocks/0/series/0/color"]),
    ("chart-series-unknown-key", D, {"blocks": [{"type": "chart", "chart": "bar", "series": [{"valuez": [1]}]}]}, 1, ["/blocks/0/series/0/valuez"]),
    ("chart-slide-legend", P, {"slides": [{"chart": {"chart": "bar", "legend": "middle", "series": [{"values": [1]}]}}]}, 1, ["/slides/0/chart/legend"]),
    ("chart-sheet-bad-range", S, {"sheets": [{"name": "Q3", "rows": [[1]], "charts": [{"chart": "bar", "series": [{"values": "Q3!B2:C9"}]}]}]}, 1, ["/sheets/0/charts/0/series/0/values"]),
    ("chart-sheet-no-sheet", S, {"sheets": [{"name": "Q3", "rows": [[1]], "charts": [{"chart": "bar", "series": [{"values": "Q4!A1:A1"}]}]}]}, 1, ["/sheets/0/charts/0/series/0/values"]),
    ("chart-sheet-text-cell", S, {"sheets": [{"name": "Q3", "rows": [["x"]], "charts": [{"chart": "bar", "series": [{"values": "Q3!A1:A1"}]}]}]}, 1, ["/sheets/0/charts/0/series/0/values"]),
    ("chart-sheet-anchor", S, {"sheets": [{"rows": [[1]], "charts": [{"chart": "bar", "anchor": "1A", "series": [{"values": [1]}]}]}]}, 1, ["/sheets/0/charts/0/anchor"]),
]


def fixture_dir(root, name):
    return os.path.join(root, "fixtures", "errors", name)


def write(root):
    for name, kind, spec, code, paths in CASES:
        d = fixture_dir(root, name)
        os.makedirs(d, exist_ok=True)
        if isinstance(spec, bytes):
            data = spec
        elif isinstance(spec, str) and name.startswith(("syntax-", "utf8-")):
            data = spec.encode("utf-8")
        else:
            data = json.dumps(spec, ensure_ascii=False).encode("utf-8")
        with open(os.path.join(d, "spec.json"), "wb") as f:
            f.write(data)
        with open(os.path.join(d, "expect.json"), "w") as f:
            json.dump({"kind": kind, "exit": code, "paths": paths}, f, indent=2)
            f.write("\n")
    print("wrote %d error fixtures" % len(CASES))


if __name__ == "__main__":
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if len(sys.argv) > 1 and sys.argv[1] == "write":
        write(root)
    else:
        print("%d cases; run with 'write' to (re)write fixtures/errors" % len(CASES))
