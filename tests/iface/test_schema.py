#!/usr/bin/python3
"""quire schema: the exported JSON Schema of every kind (and of the edit
payload) is valid draft 2020-12 (jsonschema's meta-schema check), every
fixture validates against it, and every error fixture the compiler rejects
for its shape is rejected by the schema too. The library's qr_schema() gives
the same text as the command."""
import ctypes
import glob
import json
import os
import subprocess
import sys

import jsonschema

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
LIB = os.environ.get("QUIRE_LIB")
KINDS = ["document", "spreadsheet", "presentation", "pdf", "html"]

# Error fixtures whose fault is not the JSON's shape: the compiler checks
# them against files, content, the calendar, other values or limits, which a
# JSON Schema cannot say. Each is listed with why; every other error fixture
# must be rejected by the schema.
NOT_SHAPE = {
    "duplicate-id": "ids unique across the document",
    "link-missing-id": "a \"#id\" link against the document's ids",
    "ref-missing-id": "a ref against the document's ids",
    "ref-no-label": "a ref against what its target block is",
    "footnote-in-footnote": "a note's runs share the run schema, which allows a footnote",
    "table-span-past-edge": "a colspan against the table's column count",
    "table-rowspan-overlap": "a colspan against the positions a rowspan above covers",
    "table-rowspan-past-bottom": "a rowspan against the table's row count",
    "table-rowspan-header": "a header cell's rowspan against header_rows",
    "list-start-bullets": "start against the list's ordered",
    "list-checked-ordered": "a task item against its list's ordered",
    "image-bad-width": "a percentage's range inside a string",
    "deck-bullets-depth-10": "nesting past max_list_depth, a limit",
    "deck-markdown-refused": "the bullets a slide's Markdown makes against its layout",
    "list-depth-10": "nesting past max_list_depth, a limit",
    "limit-string-length": "a string past max_string, a limit",
    "deck-image-bad": "the image bytes are not PNG or JPEG",
    "image-not-an-image": "the image bytes are not PNG or JPEG",
    "image-bad-base64": "the data: URI's base64 is broken",
    "image-svg": "the data: URI's media type",
    "image-absolute-path": "a path rule checked against the base folder",
    "image-dotdot": "a path rule checked against the base folder",
    "image-http-url": "remote images are not fetched",
    "image-missing-file": "the file does not exist",
    "page-margins-too-big": "margins against the page size",
    "sheet-date-before-1900": "the 1900 date system",
    "sheet-date-feb-30": "the calendar",
    "sheet-date-invalid": "the calendar",
    "sheet-name-blank": "a name of spaces",
    "sheet-name-duplicate-case": "names unique across sheets",
    "sheet-name-history": "a name Excel reserves",
    "sheet-style-unknown": "a style name against the workbook's styles",
    "sheet-merge-overlap": "merges against each other",
    "sheet-merge-hides-value": "a merge against the cells under it",
    "sheet-cond-formula-bad": "formula syntax",
    "sheet-cond-range-bad": "a range's corners in order",
    "sheet-cond-stray-key": "the keys a conditional rule takes against its rule",
    "sheet-cond-style-unknown": "a style name against the workbook's styles",
    "sheet-valid-overlap": "validations against each other",
    "sheet-formula-unknown-name": "a formula's names against the workbook's names and tables",
    "sheet-names-duplicate": "names unique ignoring case",
    "sheet-names-shadow-ref": "a name against cell references",
    "sheet-print-area-bad": "a range's corners in order",
    "sheet-print-repeat-past": "repeated rows against the sheet's rows",
    "sheet-print-header-field": "a header's {fields} against the known ones",
    "sheet-print-margins": "margins against the paper's size",
    "table-widths-wrong-count": "widths against the column count",
    "syntax-duplicate-key": "JSON syntax (Python's parser keeps the last key)",
    "syntax-infinity-literal": "JSON syntax (Python's parser accepts Infinity)",
    "syntax-nan-literal": "JSON syntax (Python's parser accepts NaN)",
    "chart-length-mismatch": "values against the count of categories",
    "chart-pie-negative": "a value's sign against the chart type",
    "chart-scatter-values": "series keys against the chart type",
    "chart-stacked-pie": "stacked against the chart type",
    "chart-sheet-bad-range": "a range's shape (one row or column)",
    "chart-sheet-no-sheet": "a range against the workbook's sheet names",
    "chart-sheet-text-cell": "a range against the cells it names",
    "chart-value-huge": "a number past Excel's range (1e308), which JSON Schema cannot bound exactly",
    "slide-agenda-current": "an index against the count of items",
    "sheet-huge-integer": "an integer written in digits past +-2^53 (a JSON Schema sees the value, "
                          "which 9007199254740993.0, a real quire takes, has too)",
}

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def schema_text(args):
    p = subprocess.run([QUIRE, "schema"] + args, capture_output=True, timeout=30)
    if p.returncode != 0:
        fail("quire schema %s: exit %d" % (args, p.returncode))
    return p.stdout


def kind_of(spec):
    if "slides" in spec:
        return "presentation"
    if "sheets" in spec:
        return "spreadsheet"
    return "document"


validators = {}
for kind in KINDS:
    text = schema_text(["-k", kind])
    schema = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)  # raises when invalid
    if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        fail("%s: $schema is %r" % (kind, schema.get("$schema")))
    if schema.get("additionalProperties") is not False:
        fail("%s: the top level allows unknown keys" % kind)
    validators[kind] = jsonschema.Draft202012Validator(schema)
    if kind == "document" and len(text) >= 16384:
        fail("the document schema is %d bytes, not under 16 KB" % len(text))
    print("%-12s %5d bytes, %d $defs" % (kind, len(text), len(schema.get("$defs", {}))))

# Every object schema forbids unknown keys, as the compiler does.
doc = json.loads(schema_text(["-k", "document"]))
for name, d in doc["$defs"].items():
    if d.get("type") == "object" and d.get("additionalProperties") is not False:
        fail("$defs/%s allows unknown keys" % name)
if not doc["properties"]["page"].get("x-quire-extension"):
    fail("page is not marked as an extension")
if doc["properties"]["sections"].get("x-quire-extension"):
    fail("sections (DocsGPT's own) is marked as an extension")

# The edit payload.
edit = json.loads(schema_text(["--edit"]))
jsonschema.Draft202012Validator.check_schema(edit)
ev = jsonschema.Draft202012Validator(edit)
good = {"spec_patch": {"title": "New"}, "spec_append": {"blocks": [{"type": "page_break"}]},
        "ops": [{"op": "replace", "path": "/slides/0/title", "value": "Q4"}]}
for bad in ({"patch": {}}, {"ops": [{"op": "frobnicate", "path": "/a"}]}, {"ops": [{"path": "/a"}]},
            {"spec_append": {"blocks": {}}}):
    if ev.is_valid(bad):
        fail("the edit schema accepts %s" % json.dumps(bad))
if not ev.is_valid(good):
    fail("the edit schema rejects %s: %s" % (json.dumps(good), next(ev.iter_errors(good)).message))

# spec_append typed by kind (issue 31 item 8): the kind's top-level lists,
# their items checked as the spec schema checks them, any other key refused.
APPLY = []
APPEND = {"document": ("blocks", {"type": "page_break"}, {"type": "slide_break"}),
          "pdf": ("blocks", {"type": "heading", "text": "T"}, {"type": "heading"}),
          "html": ("sections", {"heading": "H", "paragraphs": ["p"]}, {"heading": "H", "blocks": []}),
          "spreadsheet": ("sheets", {"name": "More", "rows": [[1, 1e308]]}, {"name": "X", "rows": 3}),
          "presentation": ("slides", {"title": "Q4", "bullets": ["a"]}, {"title": 4})}
for kind, (key, item, bad_item) in APPEND.items():
    es = json.loads(schema_text(["--edit", "-k", kind]))
    jsonschema.Draft202012Validator.check_schema(es)
    v = jsonschema.Draft202012Validator(es)
    if es["$id"] != "urn:quire:schema:edit:" + kind:
        fail("--edit -k %s: $id %r" % (kind, es["$id"]))
    if not v.is_valid({"spec_append": {key: [item]}}):
        fail("--edit -k %s rejects spec_append %s: %s" % (kind, key, next(v.iter_errors(
            {"spec_append": {key: [item]}})).message))
    if v.is_valid({"spec_append": {key: [bad_item]}}):
        fail("--edit -k %s accepts the item %s" % (kind, json.dumps(bad_item)))
    if v.is_valid({"spec_append": {"nonsense": [1]}}):
        fail("--edit -k %s accepts spec_append of a key the kind has no list for" % kind)
    # every item the compiler takes passes: the fixtures' own lists, appended whole
    for path in sorted(glob.glob(os.path.join(SRC, "fixtures", "*", "spec.json"))):
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
        if kind_of(spec) != {"pdf": "document", "html": "document"}.get(kind, kind):
            continue
        lists = {k: spec[k] for k in ("blocks", "sections", "sheets", "slides") if k in spec}
        errs = list(v.iter_errors({"spec_append": lists}))
        if errs:
            fail("--edit -k %s: %s's lists as spec_append: %s" % (kind, path, errs[0].message[:160]))
    # and quire's edit engine applies the item the schema accepts (checked below)
    APPLY.append((kind, key, item, {"document": {"blocks": []}, "pdf": {"blocks": []}, "html": {"sections": []},
            "spreadsheet": {"sheets": [{"name": "S", "rows": []}]},
            "presentation": {"slides": [{"title": "a"}]}}[kind]))
print("--edit -k KIND types spec_append for %d kinds" % len(APPEND))

# Numbers in sheets: what the compiler accepts (1e308, -1e308, 2^53 as
# digits), the schema accepts; past 2^53 as digits is refused by the
# compiler only (NOT_SHAPE's sheet-huge-integer).
nums = {"sheets": [{"name": "N", "rows": [[1e308, -1e308, 9007199254740992, -9007199254740992,
                                            1.5e-300, {"value": 1e308}]]}]}
p = subprocess.run([QUIRE, "check", "-k", "spreadsheet", "-"], input=json.dumps(nums).encode(),
                   capture_output=True, timeout=30)
if p.returncode != 0:
    fail("quire check refuses %s: %s" % (json.dumps(nums), p.stdout[:200]))
if not validators["spreadsheet"].is_valid(nums):
    fail("the spreadsheet schema rejects %s" % json.dumps(nums))

# Every fixture validates.
n_ok = 0
for path in sorted(glob.glob(os.path.join(SRC, "fixtures", "*", "spec.json"))):
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    kind = kind_of(spec)
    errs = sorted(validators[kind].iter_errors(spec), key=lambda e: list(e.absolute_path))
    if errs:
        fail("%s: %s at /%s" % (path, errs[0].message[:160],
                                "/".join(str(p) for p in errs[0].absolute_path)))
    n_ok += 1
print("%d fixtures validate" % n_ok)

# Every shape-error fixture is rejected.
n_rej = 0
seen = set()
for d in sorted(glob.glob(os.path.join(SRC, "fixtures", "errors", "*", ""))):
    name = os.path.basename(os.path.dirname(d))
    with open(os.path.join(d, "expect.json")) as f:
        exp = json.load(f)
    raw = open(os.path.join(d, "spec.json"), "rb").read()
    try:
        spec = json.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        continue  # not JSON (syntax, UTF-8): nothing for a schema to judge
    if name in NOT_SHAPE:
        seen.add(name)
        continue
    if exp.get("exit") not in (1, 4):
        continue
    if validators[exp["kind"]].is_valid(spec):
        fail("%s: the compiler rejects it, the schema accepts it" % name)
    n_rej += 1
for name in sorted(set(NOT_SHAPE) - seen):
    fail("NOT_SHAPE names %s, which is not an error fixture any more" % name)
print("%d shape-error fixtures rejected by the schema" % n_rej)

# qr_schema() in the library gives the command's text.
if LIB and os.path.exists(LIB):
    lib = ctypes.CDLL(LIB)

    # qr_result as the binding declares it (one definition to keep in step).
    sys.path.insert(0, os.path.join(SRC, "bindings", "python"))
    from quire import _Result as Result  # noqa: E402

    for i, kind in enumerate(KINDS):
        r = Result()
        st = lib.qr_schema(i, 0, ctypes.byref(r))
        text = ctypes.string_at(r.data, r.size) if r.data else b""
        lib.qr_result_free(ctypes.byref(r))
        if st != 0 or text != schema_text(["-k", kind]):
            fail("qr_schema(%s) differs from quire schema -k %s" % (kind, kind))
    print("qr_schema() matches the command for every kind")
else:
    fail("QUIRE_LIB is not set: qr_schema() not checked")

# The Python binding's quire.schema() gives the same schema.
sys.path.insert(0, os.path.join(SRC, "bindings", "python"))
import quire  # noqa: E402

for kind in KINDS:
    if quire.schema(kind) != json.loads(schema_text(["-k", kind])):
        fail("quire.schema(%r) differs from quire schema -k %s" % (kind, kind))
if quire.schema(edit=True) != json.loads(schema_text(["--edit"])):
    fail("quire.schema(edit=True) differs from quire schema --edit")
for kind, key, item, base in APPLY:
    try:
        out = quire.spec_edit(base, kind, append={key: [item]})
        if len(out[key]) != len(base[key]) + 1:
            fail("spec_edit(%s) did not append %s" % (kind, key))
    except quire.QuireError as e:
        fail("spec_edit(%s) refuses the appended %s the edit schema accepts: %s" % (kind, key, e))
print("quire.schema() in the binding matches; spec_edit applies each typed append")

if failures:
    print("%d failures" % len(failures))
    sys.exit(1)
print("ok")
