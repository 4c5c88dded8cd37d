"""The round trip of `quire read`: read(render(spec)) == fmt(spec), modulo
the losses README.md lists under "Reading files back" (each rule here is one
of them, by number). normalize() applies them to both sides."""
import copy
import json

DEFAULT_MARGINS = {"top": 72, "right": 72, "bottom": 72, "left": 72}


def runs_of(v):
    """A text value (a string, or an object with text/runs) as merged runs (loss 1)."""
    if isinstance(v, str):
        runs = [{"text": v}]
    elif "runs" in v:
        runs = [{"text": r} if isinstance(r, str) else dict(r) for r in v["runs"]]
    else:
        runs = [{"text": v.get("text", "")}]
    out = []
    for r in runs:
        if "footnote" in r:
            fn = r["footnote"]
            out.append(("", {"footnote": runs_of(fn if isinstance(fn, str) else {"runs": fn})}))
            continue
        flags = {k: r[k] for k in r if k != "text" and r[k]}
        if not r.get("text"):
            continue
        if out and out[-1][1] == flags:
            out[-1] = (out[-1][0] + r["text"], flags)
        else:
            out.append((r["text"], flags))
    return out


def text_of(v):
    return "".join(t for t, _ in runs_of(v))


def cell(v, header):
    if v is None or v == "":
        return None  # loss 5: empty text and null are one empty cell
    if isinstance(v, bool):
        return str(v).lower()  # loss 6: booleans in tables come back as text
    if isinstance(v, (int, float)):
        return float(v)
    span = {k: v[k] for k in ("colspan", "rowspan") if isinstance(v, dict) and v.get(k, 1) > 1}
    if isinstance(v, dict) and v.get("fill") and not header:
        span["fill"] = v["fill"].upper()  # loss 7: a header cell's fill is the theme's
    runs = runs_of(v)
    if isinstance(v, dict) and v.get("bold"):  # a bold cell is bold runs
        runs = [(t, dict(fl, bold=True)) for t, fl in runs]
    if header:  # loss 7: header cells are bold anyway
        runs = [(t, {k: f for k, f in fl.items() if k != "bold"}) for t, fl in runs]
    if all(not fl for _, fl in runs):
        value = "".join(t for t, _ in runs)
    else:
        value = runs
    if span:
        return dict(span, value=value or None)
    return value


def trim(row):
    row = list(row)
    while row and row[-1] is None:  # loss 4: ragged rows are padded
        row.pop()
    return row


def widths(w, n):
    if not w:
        return None
    s = sum(w)
    w = [round(x / s, 2) for x in w]
    return None if len(set(w)) == 1 else w  # loss 3: equal widths are no widths


def shortest_number(v):
    """v is a plain text cell written as the shortest form of a number."""
    if not isinstance(v, str):
        return False
    try:
        f = float(v)
    except ValueError:
        return False
    r = repr(f)
    return (r[:-2] if r.endswith(".0") else r) == v


def right_numbers(t):
    """Loss 24: in a column aligned right, a text cell written as a number
    ("900") reads back as the number (the docx's only mark of one); in a
    column aligned left or center, a number reads back as its text. A cell's
    column is its grid position (spans above and to the left taken)."""
    al = t.get("align") or []
    below = {}  # grid column -> rows a rowspan above still covers

    def fix(row):
        out, pos = [], 0
        covered = {k for k, n in below.items() if n > 0}
        for k in covered:
            below[k] -= 1
        for v in row:
            while pos in covered:
                pos += 1
            a = al[pos] if pos < len(al) else None
            span = v.get("colspan", 1) if isinstance(v, dict) else 1
            rows = v.get("rowspan", 1) if isinstance(v, dict) else 1
            for k in range(pos, pos + span):
                if rows > 1:
                    below[k] = rows - 1
            pos += span
            if a == "right" and shortest_number(v):
                v = float(v)
            elif a in ("left", "center") and isinstance(v, (int, float)) \
                    and not isinstance(v, bool):
                v = json.dumps(v)
            out.append(v)
        return out
    if t.get("headers"):
        fix(t["headers"])
    return [fix(r) for r in t.get("rows", [])]


def table(t):
    hr = t.get("header_rows", 1 if t.get("headers") else 0)
    rows = right_numbers(t)
    headers = t.get("headers")
    if not headers and hr >= 1 and rows:
        # the first header row is the spec's "headers" or its first row alike
        headers, rows = rows[0], rows[1:]
    return {"headers": trim(cell(c, True) for c in headers) if headers else None,
            "header_rows": hr if hr > 1 else None,
            "rows": [trim(cell(c, i + 1 < hr) for c in r) for i, r in enumerate(rows)],
            "widths": widths(t.get("widths"), 0)}


def items(its):
    return [{"runs": runs_of(i), "items": items(i.get("items", []) if isinstance(i, dict) else [])}
            for i in its]


def caption(b):
    """A caption as merged runs (loss 1), or None."""
    c = b.get("caption")
    return None if c is None else runs_of(c if isinstance(c, str) else {"runs": c})


# The default callout titles (spec/words.c) of the fixtures' languages.
TONE_NAMES = {"en": ("Note", "Tip", "Warning", "Important"),
              "de": ("Hinweis", "Tipp", "Warnung", "Wichtig"),
              "ja": ("\u6ce8", "\u30d2\u30f3\u30c8", "\u8b66\u544a", "\u91cd\u8981")}


def doc(spec):
    blocks = []
    for s in spec.get("sections", []):  # loss 9: legacy sections become blocks
        if s.get("heading"):
            blocks.append({"type": "heading", "text": s["heading"], "level": 1})
        for p in s.get("paragraphs", []):
            blocks.append({"type": "paragraph", "text": p})
    blocks += spec.get("blocks", [])
    out = []
    for b in blocks:
        t = b["type"]
        if t == "heading":
            if text_of(b):
                out.append(("heading", b.get("level", 1), runs_of(b)))
        elif t == "paragraph":
            if text_of(b):  # loss 8: empty paragraphs and headings are dropped
                out.append(("paragraph", runs_of(b)))
        elif t == "list":
            o = bool(b.get("ordered"))
            # loss 2: adjacent lists of one kind (bullets) merge
            if out and out[-1][0] == "list" and out[-1][1] == o and not o:
                out[-1][2].extend(items(b["items"]))
            else:
                out.append(("list", o, items(b["items"])))
        elif t == "table":
            out.append(("table", table(b), caption(b)))
        elif t == "code":
            out.append(("code", b["text"], caption(b)))
        elif t == "image":
            out.append(("image", b.get("alt", ""), caption(b)))
        elif t == "page_break":
            out.append(("page_break",))
        elif t == "quote":
            if text_of(b):
                out.append(("quote", runs_of(b), b.get("attribution")))
        elif t == "callout":
            # a title that is the tone's name (the default) reads back as none
            title = b.get("title")
            if title in TONE_NAMES.get((spec.get("lang") or "en")[:2], ()):
                title = None
            out.append(("callout", b.get("tone", "note"), title, runs_of(b)))
        elif t == "rule":
            out.append(("rule",))
        elif t == "toc":
            out.append(("toc", b.get("title"), b.get("levels", 3)))
    page = dict(spec.get("page", {}))
    # loss 25: {title} and {date} read back as text; the house footer and
    # "footer": "" as none
    date = (spec.get("properties") or {}).get("date", "2026-01-01")[:10]
    for k in ("header", "footer"):
        if k in page:
            page[k] = page[k].replace("{title}", spec.get("title") or "").replace("{date}", date)
    if page.get("footer") in ("", "{page} / {pages}"):
        del page["footer"]
    if not page.get("header", True):
        del page["header"]
    page.setdefault("size", "Letter")
    page.setdefault("orientation", "portrait")
    page["margins"] = dict(DEFAULT_MARGINS, **page.get("margins", {}))
    lang = spec.get("lang")
    if lang == "en-US":
        lang = None  # loss 10: en-US is the default language
    return {"title": spec.get("title") or None, "lang": lang, "page": page, "blocks": out}


# loss 21: a cell's look reads back as properties, not style names (test_styles checks them)
LOOK_KEYS = ("style", "bold", "italic", "underline", "color", "fill", "border", "align", "valign",
             "wrap", "indent", "rotate")


def sheet_cell(v):
    if isinstance(v, dict):
        v = {k: x for k, x in v.items() if k not in LOOK_KEYS}
        if not v:
            return None  # a styled blank
        if isinstance(v.get("formula"), str) and v["formula"].startswith("="):
            v["formula"] = v["formula"][1:]  # loss 14: a formula's leading = is not stored
        if v.get("format") == "General":
            del v["format"]  # loss 11: General is no format
        link = v.get("link")
        if isinstance(link, str) and "value" not in v and "formula" not in v:
            # loss 26: a link without a value shows (and reads back) its address
            v["value"] = link[7:] if link.startswith("mailto:") else link.lstrip("#")
        if "value" in v and set(v) == {"value"}:
            v = v["value"]
    if v == "":
        return None
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return v


def with_style_formats(spec, sheet, row):
    """Loss 23: a style's number format reads back as the format of each number, date or
    formula cell it reaches (cell style, then row style, then column style)."""
    styles = spec.get("styles") or {}

    def fmt(st):
        if isinstance(st, str):
            return (styles.get(st) or {}).get("format")
        return st.get("format") if isinstance(st, dict) else None
    row_fmt = fmt(row.get("style")) if isinstance(row, dict) else None
    cells = row["cells"] if isinstance(row, dict) else row
    cols = sheet.get("column_styles") or []
    out = []
    for c, v in enumerate(cells):
        f = fmt(v.get("style")) if isinstance(v, dict) else None
        f = f or row_fmt or (fmt(cols[c]) if c < len(cols) else None)
        num = isinstance(v, (int, float)) and not isinstance(v, bool) or (
            isinstance(v, dict) and ("formula" in v or isinstance(v.get("value"), (int, float))))
        if f and num and not (isinstance(v, dict) and ("format" in v or "date" in v)):
            v = dict(v) if isinstance(v, dict) else {"value": v}
            v["format"] = f
        out.append(v)
    return out


def sheets(spec):
    out = []
    for i, s in enumerate(spec.get("sheets", [])):
        rows = [with_style_formats(spec, s, r) for r in s.get("rows", [])]
        # loss 22: an autofilter reads back as a header row
        header = bool(s.get("header")) or s.get("autofilter") not in (None, False)
        if "columns" in s:  # loss 15: legacy columns are the header row
            rows = [s["columns"]] + rows
            header = s.get("header", True)
        rows = [trim(sheet_cell(c) for c in r) for r in rows]
        while rows and not rows[-1]:
            rows.pop()  # loss 12: trailing empty rows are not stored
        freeze = s.get("freeze") or ("A2" if header else None)
        if not rows:
            header = False  # loss 16: an empty sheet has no header row to mark
        out.append({"name": s.get("name") or "Sheet%d" % (i + 1), "rows": rows,
                    "header": header, "freeze": freeze, "widths": s.get("widths")})
    if not out:  # loss 17: a workbook has at least one sheet
        out.append({"name": "Sheet1", "rows": [], "header": False, "freeze": None,
                    "widths": None})
    return {"title": spec.get("title") or None, "sheets": out}


def deck(spec):
    slides = []
    for s in spec.get("slides", []):
        slides.append({
            "layout": s.get("layout", "title_content"),
            "title": runs_of(s["title"]) if s.get("title") else [],
            "subtitle": runs_of(s["subtitle"]) if s.get("subtitle") else [],
            "bullets": items(s.get("bullets", [])),
            "table": table(s["table"]) if s.get("table") and s["table"].get("rows") else None,
            "image": s["image"].get("alt", "") if s.get("image") else None,
            "notes": (s.get("notes") or "").rstrip("\n") or None})
    return {"title": spec.get("title") or None, "size": spec.get("size", "16:9"), "slides": slides}


def clean(v):
    """Loss 13: characters XML cannot hold read back as U+FFFD; CR LF and CR as LF."""
    if isinstance(v, str):
        v = v.replace("\r\n", "\n").replace("\r", "\n")
        return "".join("\ufffd" if (ord(c) < 32 and c not in "\t\n") or c in "\ufffe\uffff" else c
                       for c in v)
    if isinstance(v, list):
        return [clean(x) for x in v]
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    return v


def normalize(spec, kind):
    spec = clean(copy.deepcopy(spec))
    if kind == "document":
        return doc(spec)
    if kind == "spreadsheet":
        return sheets(spec)
    return deck(spec)


def first_difference(a, b, path=""):
    if type(a) != type(b):
        return "%s: %r != %r" % (path or "/", a, b)
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            d = first_difference(a.get(k), b.get(k), path + "/" + str(k))
            if d:
                return d
        return None
    if isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s/%d" % (path, i))
            if d:
                return d
        if len(a) != len(b):
            return "%s: length %d != %d" % (path or "/", len(a), len(b))
        return None
    if isinstance(a, float) and isinstance(b, float):
        return None if abs(a - b) <= 1e-9 * max(1, abs(a)) else "%s: %r != %r" % (path, a, b)
    return None if a == b else "%s: %r != %r" % (path or "/", a, b)


def drop_computed(spec, back):
    """Loss 18: a formula cell the spec gave no value reads back with the value
    quire computed for it (its cached <v>): drop that value from back.
    Loss 19: a sheet without widths reads back with the widths quire fitted."""
    for s_sheet, b_sheet in zip(spec.get("sheets", []), back.get("sheets", [])):
        if "widths" not in s_sheet:
            b_sheet.pop("widths", None)
        b_rows = b_sheet.get("rows", [])
        if "columns" in s_sheet:
            b_rows = b_rows[1:]  # back's first row is the spec's "columns"
        for s_row, b_row in zip(s_sheet.get("rows", []), b_rows):
            if isinstance(s_row, dict):
                s_row = s_row.get("cells", [])  # a row object: its cells
            for s_cell, b_cell in zip(s_row, b_row):
                if (isinstance(s_cell, dict) and "formula" in s_cell and "value" not in s_cell
                        and isinstance(b_cell, dict)):
                    b_cell.pop("value", None)
