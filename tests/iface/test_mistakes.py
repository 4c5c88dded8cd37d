#!/usr/bin/python3
"""Thirty-odd mistakes models really make, each through `quire check`: the
expected warning (status ok) or error, at the expected path, with a hint
that says what to send instead. Warnings never fail a check unless
--strict."""
import json
import os
import subprocess
import sys

QUIRE = os.environ.get("QUIRE", "build/quire")


def doc(*blocks):
    return {"title": "T", "blocks": list(blocks)}


def para(text):
    return {"type": "paragraph", "text": text}


def sheet(*cells):
    return {"sheets": [{"name": "S", "rows": [["Item", "Value"], list(cells)]}]}


# (name, extra args, spec, "warning" | "error", path, in the message, in the hint)
CASES = [
    ("markdown bold", [], doc(para("The **fee** is due")), "warning", "/blocks/0/text",
     "markdown bold", "bold\": true"),
    ("markdown heading", [], doc(para("## Introduction")), "warning", "/blocks/0/text",
     "heading marks", "heading block"),
    ("markdown heading in a heading", [], doc({"type": "heading", "text": "# Fees"}), "warning",
     "/blocks/0/text", "heading marks", "heading block"),
    ("dash list in a paragraph", [], doc(para("- first point")), "warning", "/blocks/0/text",
     "list marker", "list block"),
    ("numbered list in a paragraph", [], doc(para("1. Open the file")), "warning",
     "/blocks/0/text", "list number", "\"ordered\": true"),
    ("backticks", [], doc(para("Run `make test` first")), "warning", "/blocks/0/text",
     "markdown code", "\"code\": true"),
    ("markdown link", [], doc(para("See [the docs](https://example.com)")), "warning",
     "/blocks/0/text", "markdown link", "\"link\""),
    ("underscore bold", [], doc(para("This is __important__")), "warning", "/blocks/0/text",
     "__...__", "bold"),
    ("star bullets inside list items", [], doc({"type": "list", "items": ["* apples", "pears"]}),
     "warning", "/blocks/0/items/0", "list marker", "list block"),
    ("markdown in a run", [], doc({"type": "paragraph", "runs": ["Plain ", {"text": "**x**"}]}),
     "warning", "/blocks/0/runs/1/text", "markdown bold", "runs"),
    ("markdown in a table cell", [], doc({"type": "table", "rows": [["**Total**", 3]]}),
     "warning", "/blocks/0/rows/0/0", "markdown bold", "runs"),
    ("markdown in slide bullets", ["-k", "presentation"],
     {"slides": [{"title": "Q3", "bullets": ["**Revenue** up 12%"]}]}, "warning",
     "/slides/0/bullets/0", "markdown bold", "runs"),
    ("markdown in legacy sections", [], {"sections": [{"heading": "Scope",
                                                      "paragraphs": ["## Scope"]}]},
     "warning", "/sections/0/paragraphs/0", "heading marks", "heading block"),
    ("number as a string", [], sheet("Units", "980"), "warning", "/sheets/0/rows/1/1",
     "reads as a number", "JSON number"),
    ("number with thousands separators", [], sheet("Fee", "1,200.50"), "warning",
     "/sheets/0/rows/1/1", "reads as a number", "JSON number"),
    ("negative number as a string", [], sheet("Delta", "-3.5"), "warning", "/sheets/0/rows/1/1",
     "reads as a number", "JSON number"),
    ("formula as a string", [], sheet("Total", "=SUM(B2:B3)"), "warning", "/sheets/0/rows/1/1",
     "stored as text, not a formula", "\"formula\""),
    ("percentage as a string", [], sheet("Share", "12%"), "warning", "/sheets/0/rows/1/1",
     "percentage", "\"format\": \"0%\""),
    ("date as a string", [], sheet("Due", "2026-11-30"), "warning", "/sheets/0/rows/1/1",
     "reads as a date", "\"date\""),
    ("heading level 0", [], doc({"type": "heading", "text": "x", "level": 0}), "error",
     "/blocks/0/level", "from 1 to 6", "from 1 to 6"),
    ("heading level as a string", [], doc({"type": "heading", "text": "x", "level": "2"}),
     "error", "/blocks/0/level", "the string \"2\"", "without quotes"),
    ("the whole tool call as the spec", [], {"kind": "document", "spec": doc(para("x"))},
     "error", "", "wrapped in {\"kind\", \"spec\"}", "inner object"),
    ("an array around the spec", [], [doc(para("x"))], "error", "", "got an array",
     "without the array"),
    ("block type typo", [], doc({"type": "paragrah", "text": "x"}), "error", "/blocks/0/type",
     "unknown block type", "did you mean \"paragraph\""),
    ("footnote block", [], doc({"type": "footnote", "text": "x"}), "error", "/blocks/0/type",
     "unknown block type", "a footnote is a run"),
    ("bold as a string", [], doc({"type": "paragraph", "runs": [{"text": "x", "bold": "yes"}]}),
     "error", "/blocks/0/runs/0/bold", "expected", "true"),
    ("javascript link", [], doc({"type": "paragraph",
                                 "runs": [{"text": "x", "link": "javascript:alert(1)"}]}),
     "error", "/blocks/0/runs/0/link", "not allowed", "https:"),
    ("bold on the paragraph", [], doc({"type": "paragraph", "text": "x", "bold": True}),
     "error", "/blocks/0/bold", "unknown key", "belongs on a run"),
    ("unknown key", [], doc({"type": "heading", "text": "x", "size": 2}), "error",
     "/blocks/0/size", "unknown key", "takes"),
    ("blocks as a string", [], {"blocks": "Hello"}, "error", "/blocks",
     "expected an array of blocks", "blocks is"),
    ("slides keys on a document", ["-k", "document"], {"title": "Q3", "slides": []}, "error", "/slides",
     "unknown key", "presentation"),
    ("layout with a dash", ["-k", "presentation"],
     {"slides": [{"title": "x", "layout": "title-content"}]}, "error", "/slides/0/layout",
     "unknown layout", "did you mean \"title_content\""),
    ("formula as a number", [], {"sheets": [{"rows": [[{"formula": 5}]]}]}, "error",
     "/sheets/0/rows/0/0/formula", "expected a string", "SUM"),
    ("rows as an object", [], {"sheets": [{"rows": {"A1": 1}}]}, "error", "/sheets/0/rows",
     "expected an array of rows", "[["),
    ("missing text", [], doc({"type": "paragraph"}), "error", "/blocks/0",
     "missing \"text\"", "\"text\""),
    ("warnings fail under --strict", ["--strict"], doc(para("**x**")), "error",
     "/blocks/0/text", "markdown bold", "bold"),
]

# Usage mistakes: (name, args, in the error, in the hint)
USAGE = [
    ("-k word", ["-k", "word"], "unknown kind \"word\"", "did you mean -k document?"),
    ("-k docx", ["-k", "docx"], "unknown kind \"docx\"", "did you mean -k document?"),
    ("-k slides", ["-k", "slides"], "unknown kind", "did you mean -k presentation?"),
    ("-k spreadshet", ["-k", "spreadshet"], "unknown kind", "did you mean -k spreadsheet?"),
]


def check(args, spec):
    p = subprocess.run([QUIRE, "check", "-"] + args, input=json.dumps(spec).encode(),
                       capture_output=True, timeout=60)
    return p.returncode, json.loads(p.stdout.decode())


failures = []
for name, args, spec, want, path, msg, hint in CASES:
    code, res = check(args, spec)
    items = res.get("warnings" if want == "warning" else "errors", [])
    hit = [e for e in items if e["path"] == path and msg in e["message"]]
    ok = bool(hit) and hint in (hit[0].get("hint") or "") and hit[0].get("hint")
    if want == "warning":
        ok = ok and code == 0 and res["status"] == "ok"
    else:
        ok = ok and code == 1 and res["status"] == "error"
    print("%-4s %-36s %s" % ("ok" if ok else "FAIL", name, json.dumps(hit[0] if hit else res)[:150]))
    if not ok:
        failures.append(name)
    # every error and warning in the result has a hint
    for e in res.get("errors", []) + res.get("warnings", []):
        if not e.get("hint"):
            failures.append("%s: no hint for %s" % (name, e))

for name, args, msg, hint in USAGE:
    code, res = check(args, doc(para("x")))
    ok = code == 2 and msg in res.get("error", "") and hint in res.get("hint", "")
    print("%-4s %-36s %s" % ("ok" if ok else "FAIL", name, json.dumps(res)[:150]))
    if not ok:
        failures.append(name)

# Format mistakes in render: (name, args, in the error, in the hint)
RENDER = [
    ("-o x.doc", ["-o", "x.doc"], "extension \"doc\"", "did you mean .docx?"),
    ("-o x.pfd", ["-o", "x.pfd"], "extension \"pfd\"", "did you mean .pdf?"),
    ("--to word", ["-o", "-", "--to", "word"], "--to \"word\"", "did you mean --to docx?"),
    ("--to excel", ["-o", "-", "--to", "excel"], "--to \"excel\"", "did you mean --to xlsx?"),
]
for name, args, msg, hint in RENDER:
    p = subprocess.run([QUIRE, "render", "-"] + args, input=json.dumps(doc(para("x"))).encode(),
                       capture_output=True, timeout=60)
    res = json.loads(p.stdout.decode())
    ok = p.returncode == 2 and msg in res.get("error", "") and hint in res.get("hint", "")
    print("%-4s %-36s %s" % ("ok" if ok else "FAIL", name, json.dumps(res)[:150]))
    if not ok:
        failures.append(name)
USAGE += RENDER

# Text that only looks like markdown gets no warning.
for text in ["2 * 3 = 6", "snake_case names", "a - b", "Price: $5", "C# and F#", "#hashtag",
             "__import__('os')", "2**3**4", "x[0](1)", "-5 degrees", "3.14 is pi"]:
    code, res = check([], doc(para(text)))
    if res.get("warnings"):
        failures.append("false warning for %r: %s" % (text, res["warnings"]))
for value in ["007", "+1 555 0100", "v1.2", "2026", "Q3"]:
    code, res = check([], sheet("x", value))
    if value != "2026" and res.get("warnings"):
        failures.append("false warning for cell %r: %s" % (value, res["warnings"]))

n = len(CASES) + len(USAGE)
if failures:
    print("%d of %d failed: %s" % (len(failures), n, failures))
    sys.exit(1)
print("%d mistakes, each with its warning or error and a hint" % n)
