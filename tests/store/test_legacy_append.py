#!/usr/bin/env python3
"""test_legacy_append.py: a legacy `sections` document extended with
`spec_append: {"blocks": [...]}` renders the sections, then the blocks.

For each of docx (kind document), pdf (kind pdf) and html (kind html) that
this libquire can render (qr_format_available through the Python binding;
the ones checked and the ones not built are printed, html must be there):
`quire create` the legacy spec, `quire edit --append` two blocks,
`quire export` both versions, and read the text back in order
(python-docx, pdftotext, the HTML's text): version 1 has the sections only;
version 2 has the sections' headings and paragraphs, then the blocks.
A format that is not built must fail `quire create` with exit 3 and leave
no artifact behind.
"""
import html.parser
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import BINDING_DIR, artifact_ids, backend, close_all, new_store, run  # noqa: E402
sys.path.insert(0, BINDING_DIR)
import quire  # noqa: E402

LEGACY = {"title": "Legacy Report",
          "sections": [{"heading": "Alpha section", "paragraphs": ["Alpha one.", "Alpha two."]},
                       {"heading": "Beta section", "paragraphs": ["Beta one."]}]}
APPEND = {"blocks": [{"type": "heading", "text": "Gamma block", "level": 1},
                     {"type": "paragraph", "text": "Gamma paragraph."}]}
SECTIONS = ["Alpha section", "Alpha one.", "Alpha two.", "Beta section", "Beta one."]
BLOCKS = ["Gamma block", "Gamma paragraph."]


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script", "head"):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "script", "head"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.parts.append(data.strip())


def text_of(fmt, path):
    if fmt == "html":
        p = Text()
        with open(path, encoding="utf-8") as f:
            p.feed(f.read())
        return "\n".join(p.parts)
    if fmt == "docx":
        import docx
        return "\n".join(p.text for p in docx.Document(path).paragraphs)
    out = subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True, check=True).stdout
    return out


def in_order(text, items):
    pos = -1
    for it in items:
        i = text.find(it, pos + 1)
        if i < 0:
            return "%r missing or out of order in %r" % (it, text[:400])
        pos = i
    return None


def main():
    tmp = tempfile.mkdtemp(prefix="quire-legacy-")
    store = new_store(tmp)
    print("backend: %s" % backend())
    checked, missing = [], []
    try:
        spec = os.path.join(tmp, "legacy.json")
        app = os.path.join(tmp, "append.json")
        with open(spec, "w") as f:
            json.dump(LEGACY, f)
        with open(app, "w") as f:
            json.dump(APPEND, f)
        for fmt, kind in (("docx", "document"), ("pdf", "pdf"), ("html", "html")):
            if not quire.format_available(fmt):
                # a kind whose backend is not built fails cleanly and stores nothing
                rc, out, err = run("create", "-k", kind, "--id", "legacy-" + fmt, "--store", store, spec)
                assert rc == 3 and json.loads(out)["status"] == "error", (fmt, rc, out)
                assert "legacy-" + fmt not in artifact_ids(store)
                missing.append(fmt)
                continue
            rc, out, err = run("create", "-k", kind, "--title", "Legacy Report", "--id", "legacy-" + fmt,
                               "--store", store, spec)
            assert rc == 0, (fmt, out, err)
            rc, out, err = run("edit", "legacy-" + fmt, "--append", app, "--store", store)
            assert rc == 0, (fmt, out, err)
            r = json.loads(out)
            assert r["version"] == 2 and r["filename"] == ("report.html" if fmt == "html" else "Legacy_Report." + fmt), r
            rc, out, err = run("show", "legacy-" + fmt, "--store", store)
            shown = json.loads(out)
            assert shown["sections"] == LEGACY["sections"] and shown["blocks"] == APPEND["blocks"], shown
            for v in (1, 2):
                path = os.path.join(tmp, "v%d.%s" % (v, fmt))
                rc, out, err = run("export", "legacy-" + fmt, "--version", str(v), "-o", path, "--store", store)
                assert rc == 0, (fmt, out, err)
                text = text_of(fmt, path)
                problem = in_order(text, SECTIONS + (BLOCKS if v == 2 else []))
                assert problem is None, (fmt, v, problem)
                if v == 1:
                    assert "Gamma" not in text, (fmt, text)
            checked.append(fmt)
        print("legacy + spec_append checked in: %s; not built: %s" % (", ".join(checked), ", ".join(missing) or "none"))
        assert "html" in checked
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
