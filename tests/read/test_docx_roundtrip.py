"""A document with every feature of issue 32 round-trips through its docx:
spec -> docx -> `quire read` -> docx gives the same docx bytes, and reading
that docx again gives the same spec (the read spec is a fixed point). The
features: footnotes (and, in a second pass, endnotes), a toc, headings with
ids, sup/sub/colour/highlight runs, refs to a table, an image, a chart, a
code block and a heading, "#id" links, a quote, a callout of every tone, a
rule, captions on table, image, chart and code, a table with header rows,
colspan, rowspan, fill and bold cells, an ordered list with a start, task
items, a page header and footer with fields and first_page: false, and the
document's properties. (`quire read` reads docx structure; its html is not
read and its PDF reading is text only, so the docx is the round trip.) Every
docs-* fixture round-trips to the same bytes too, and edits of the features
are checked like any spec (a ref to a missing id refused at its pointer)."""
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

QUIRE = os.environ.get("QUIRE", "build/quire")
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


def png(w, h, rgb):
    raw = b"".join(b"\0" + bytes(rgb) * w for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


IMG = "data:image/png;base64," + base64.b64encode(png(40, 20, (30, 90, 200))).decode()
SPEC = {
    "title": "Round trip",
    "properties": {"author": "Ann Lee", "subject": "Every feature", "keywords": ["quire", "test"],
                   "date": "2026-03-01"},
    "page": {"size": "A4", "header": "{title} \u00b7 {date}", "footer": "Page {page} of {pages}",
             "first_page": False},
    "blocks": [
        {"type": "toc", "title": "Inhalt", "levels": 2},
        {"type": "heading", "text": "Methods", "id": "methods"},
        {"type": "paragraph", "runs": [
            "E = mc", {"text": "2", "sup": True}, ", H", {"text": "2", "sub": True}, "O, ",
            {"text": "red", "color": "#B91C1C"}, ", ", {"text": "marked", "highlight": "#FEF08A"},
            ". A claim", {"footnote": "The source, p. 14."}, " and another",
            {"footnote": ["See ", {"text": "Knuth", "italic": True}, "."]}, "; see ",
            {"ref": "fees"}, ", ", {"ref": "pic"}, ", ", {"ref": "plot"}, ", ", {"ref": "prog"},
            ", ", {"ref": "results"}, " and ", {"text": "the methods", "link": "#methods"}, "."]},
        {"type": "heading", "text": "Results", "level": 2, "id": "results"},
        {"type": "table", "id": "fees", "caption": "Fees", "header_rows": 2,
         "headers": ["Item", {"text": "Cost", "colspan": 2}],
         "rows": [["", "Net", "Gross"],
                  [{"text": "Setup", "rowspan": 2}, 1000, 1190],
                  [200, 238],
                  [{"text": "Total", "bold": True, "fill": "#FEF08A"}, 1200, 1428]]},
        {"type": "image", "id": "pic", "src": IMG, "alt": "A blue box", "caption": "A box"},
        {"type": "chart", "id": "plot", "chart": "column", "title": "Sales",
         "categories": ["Q1", "Q2"], "series": [{"name": "2026", "values": [3, 5]}],
         "caption": "Sales by quarter"},
        {"type": "code", "id": "prog", "text": "print(1)", "caption": "A program"},
        {"type": "quote", "text": "Simplicity is prerequisite for reliability.",
         "attribution": "E. W. Dijkstra"},
        {"type": "callout", "tone": "note", "text": "A note."},
        {"type": "callout", "tone": "tip", "title": "Pro tip",
         "runs": ["A ", {"text": "tip", "bold": True}, "."]},
        {"type": "callout", "tone": "warning", "text": "Back up first."},
        {"type": "callout", "tone": "important", "id": "imp", "text": "Read this."},
        {"type": "rule"},
        {"type": "list", "ordered": True, "start": 4, "items": ["Four", "Five"]},
        {"type": "list", "items": [{"text": "Done", "checked": True},
                                   {"text": "Open", "checked": False}, "Plain"]},
        {"type": "paragraph", "runs": ["Back to ", {"text": "the results", "link": "#results"},
                                       " and ", {"text": "the warning", "link": "#imp"}, "."]}]}


def run(*args, **kw):
    return subprocess.run([QUIRE] + list(args), capture_output=True, text=True, timeout=120, **kw)


with tempfile.TemporaryDirectory() as tmp:
    for notes in ("footnotes", "endnotes"):
        spec = dict(SPEC, notes=notes)
        src = os.path.join(tmp, "spec.json")
        with open(src, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        one, two = os.path.join(tmp, "one.docx"), os.path.join(tmp, "two.docx")
        r = run("render", src, "-o", one)
        expect("%s: renders" % notes, r.returncode == 0, r.stdout + r.stderr)
        r = run("read", one)
        expect("%s: reads back without warnings" % notes, r.returncode == 0 and not r.stderr,
               r.stderr)
        back = json.loads(r.stdout or "{}")
        blocks = back.get("blocks", [])
        expect("%s: ids back on heading, table, image, chart, code, callout" % notes,
               [b.get("id") for b in blocks if "id" in b]
               == ["methods", "results", "fees", "pic", "plot", "prog", "imp"],
               json.dumps([b.get("id") for b in blocks]))
        para = json.dumps(blocks[2:3], ensure_ascii=False)
        expect("%s: refs back as refs, links as #id links" % notes,
               all('{"ref": "%s"}' % i in para for i in ("fees", "pic", "plot", "prog", "results"))
               and '"link": "#methods"' in para, para)
        expect("%s: callouts of every tone back" % notes,
               [(b.get("tone"), b.get("title")) for b in blocks if b["type"] == "callout"]
               == [("note", None), ("tip", "Pro tip"), ("warning", None), ("important", None)],
               json.dumps(blocks, ensure_ascii=False)[:300])
        expect("%s: notes, properties and page back" % notes,
               back.get("properties") == spec["properties"]
               and back.get("page", {}).get("first_page") is False
               and (notes == "footnotes") == ("notes" not in back), json.dumps(back)[:300])
        # render what was read: the same docx, byte for byte
        again = os.path.join(tmp, "back.json")
        with open(again, "w", encoding="utf-8") as f:
            f.write(r.stdout)
        r2 = run("render", again, "-o", two)
        with open(one, "rb") as f1, open(two, "rb") as f2:
            same = f1.read() == f2.read()
        expect("%s: spec -> docx -> read -> docx gives the same bytes" % notes,
               r2.returncode == 0 and same, r2.stdout + r2.stderr)
        # and the read spec is a fixed point
        r3 = run("read", two)
        expect("%s: reading the second docx gives the same spec" % notes,
               r3.stdout == r.stdout, r3.stdout[:300])

    # Edits know the features: an edit of a callout's tone and a new ref is
    # a new version; a ref to a missing id is refused at its pointer with
    # the nearest id as a hint.
    store = os.path.join(tmp, "store")
    src_spec = os.path.join(tmp, "spec.json")
    r = run("--store", store, "create", src_spec, "-k", "document", "--owner", "u1",
            "--title", "rt")
    art = json.loads(r.stdout or "{}").get("artifact_id")
    n_runs = len(SPEC["blocks"][2]["runs"])
    ops = os.path.join(tmp, "ops.json")
    for ref, want in (("feez", "error"), ("fees", "ok")):
        with open(ops, "w") as f:
            json.dump([{"op": "replace", "path": "/blocks/10/tone", "value": "tip"},
                       {"op": "add", "path": "/blocks/2/runs/-", "value": {"ref": ref}}], f)
        e = json.loads(run("--store", store, "edit", art or "none", "--ops", ops, "--owner", "u1")
                       .stdout or "{}")
        if want == "error":
            err = (e.get("errors") or [{}])[0]
            expect("edit: a ref to a missing id names its pointer and the nearest id",
                   e.get("status") == "error" and err.get("path") == "/blocks/2/runs/%d/ref"
                   % n_runs and "fees" in err.get("hint", ""), json.dumps(e))
        else:
            shown = json.loads(run("--store", store, "show", art or "none", "--owner", "u1").stdout
                               or "{}")
            expect("edit: the tone and the ref are in the new version",
                   e.get("status") == "ok" and e.get("version") == 2
                   and shown["blocks"][10]["tone"] == "tip"
                   and shown["blocks"][2]["runs"][-1] == {"ref": "fees"}, json.dumps(e)[:300])

    # Every docs-* fixture round-trips to the same docx bytes too (numbered
    # headings, captions in German and Japanese, notes in table cells, image
    # sizes and places, spans and aligned columns, lists, page furniture).
    src = os.environ.get("QUIRE_SOURCE_DIR", ".")
    for case in sorted(c for c in os.listdir(os.path.join(src, "fixtures"))
                       if c.startswith("docs-")):
        one, two = os.path.join(tmp, "f1.docx"), os.path.join(tmp, "f2.docx")
        folder = os.path.join(src, "fixtures", case)
        r = run("render", os.path.join(folder, "spec.json"), "-o", one)
        back = os.path.join(tmp, "f.json")
        with open(back, "w", encoding="utf-8") as f:
            f.write(run("read", one).stdout)
        r2 = subprocess.run([os.path.abspath(QUIRE), "render", back, "-o", two], cwd=folder,
                            capture_output=True, text=True, timeout=120)
        with open(one, "rb") as f1, open(two, "rb") as f2:
            same = f1.read() == f2.read()
        expect("%s: docx -> read -> docx gives the same bytes" % case,
               r.returncode == 0 and r2.returncode == 0 and same, r2.stdout + r2.stderr)

print("%d failed" % failed)
sys.exit(1 if failed else 0)
