"""Every fixture rendered to its Office format and read back with `quire
read` equals `quire fmt` of the fixture, modulo the documented losses
(tests/read/roundtrip.py, README "Reading files back")."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roundtrip import drop_computed, first_difference, normalize  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
EXT = {"document": "docx", "spreadsheet": "xlsx", "presentation": "pptx"}


def kind_of(spec):
    if "sheets" in spec:
        return "spreadsheet"
    if "slides" in spec:
        return "presentation"
    return "document"


# What fixtures hold that the reader does not read back yet (the features of
# issue 28's rich documents and styled workbooks): such a fixture is checked
# for a clean, canonical read only, and listed as partial.
UNREAD_BLOCKS = set()
# Captions read back from docx (tests/read/test_docx_parts.py), not from
# pptx; a slide's columns (two_content, comparison) are not compared yet.
UNREAD_KEYS = {"style", "styles"}
UNREAD_DECK_KEYS = {"caption", "left", "right"}


def unread(v, found, found_in=()):
    if isinstance(v, dict):
        if v.get("type") in UNREAD_BLOCKS:
            found.add(v["type"])
        for k, x in v.items():
            if k in UNREAD_KEYS or ("slides" in found_in and k in UNREAD_DECK_KEYS):
                found.add(k)
            unread(x, found, found_in)
    elif isinstance(v, list):
        for x in v:
            unread(x, found, found_in)
    return found


def md_blocks(text, tmp):
    """The blocks a Markdown text stands for (`quire read x.md`)."""
    path = os.path.join(tmp, "expand.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    r = subprocess.run([QUIRE, "read", path], capture_output=True, text=True)
    return json.loads(r.stdout)["blocks"] if r.returncode == 0 else []


def expand_markdown(spec, tmp):
    """Markdown blocks and slide bodies (issue 35) written out as the blocks,
    bullets, table and image they compile to (spec/markdown.h's mapping)."""
    if isinstance(spec.get("blocks"), list):
        out = []
        for b in spec["blocks"]:
            if isinstance(b, dict) and b.get("type") == "markdown":
                for g in md_blocks(b.get("text", ""), tmp):
                    if g["type"] == "heading":
                        g["level"] = min(6, g["level"] + b.get("heading_offset", 0))
                    out.append(g)
            else:
                out.append(b)
        spec["blocks"] = out
    for sl in spec.get("slides", []) if isinstance(spec.get("slides"), list) else []:
        if not isinstance(sl, dict) or "markdown" not in sl:
            continue
        bullets = []
        for g in md_blocks(sl.pop("markdown"), tmp):
            if g["type"] == "list":
                bullets += g["items"]
            elif g["type"] in ("paragraph", "heading"):
                bullets.append(g["text"] if "text" in g else {"runs": g["runs"]})
            elif g["type"] == "code":
                bullets += [{"runs": [{"text": ln or " ", "code": True}]} for ln in g["text"].split("\n")]
            elif g["type"] in ("table", "image"):
                sl[g["type"]] = {k: v for k, v in g.items() if k != "type"}
        if bullets:
            sl["bullets"] = bullets


def main():
    failed, checked = 0, 0
    fixtures = os.path.join(SRC, "fixtures")
    with tempfile.TemporaryDirectory() as tmp:
        for case in sorted(os.listdir(fixtures)):
            path = os.path.join(fixtures, case, "spec.json")
            if not os.path.isfile(path):
                continue
            fmt = subprocess.run([QUIRE, "fmt", path], capture_output=True, text=True)
            if fmt.returncode != 0:
                continue
            spec = json.loads(fmt.stdout)
            expand_markdown(spec, tmp)
            kind = kind_of(spec)
            out = os.path.join(tmp, case + "." + EXT[kind])
            r = subprocess.run([QUIRE, "render", path, "-o", out, "-k", kind],
                               capture_output=True, text=True)
            if r.returncode != 0:
                continue  # a fixture of another kind (pdf-only, html)
            cont = any(i.get("kind") == "continued" for i in json.loads(r.stdout).get("layout", []))
            rd = subprocess.run([QUIRE, "read", out], capture_output=True, text=True)
            checked += 1
            if rd.returncode != 0:
                print("FAIL %s: read exited %d: %s" % (case, rd.returncode, rd.stdout.strip()))
                failed += 1
                continue
            back = json.loads(rd.stdout)
            # read's spec is canonical: fmt of it changes nothing.
            again = subprocess.run([QUIRE, "fmt", "-"], input=rd.stdout, capture_output=True,
                                   text=True)
            if again.stdout != rd.stdout:
                print("FAIL %s: read's output is not canonical" % case)
                failed += 1
            partial = unread(spec, set(), ("slides",) if kind == "presentation" else ())
            if cont:  # slides that continued read back as the slides written (cont-agenda)
                partial = partial | {"continued slides"}
            if partial:
                print("part %s (%s): read cleanly; not compared (not read back yet: %s)"
                      % (case, kind, ", ".join(sorted(partial))))
                continue
            drop_computed(spec, back)
            d = first_difference(normalize(spec, kind), normalize(back, kind))
            if d:
                print("FAIL %s (%s): %s" % (case, kind, d))
                failed += 1
            else:
                print("ok   %s (%s)" % (case, kind))
    print("%d fixtures read back, %d failed" % (checked, failed))
    sys.exit(1 if failed or checked < 20 else 0)


main()
