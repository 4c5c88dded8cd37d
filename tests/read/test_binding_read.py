"""quire.read() in the Python binding: the spec, markdown, chunks, and a
clean QuireError for a hostile file."""
import os
import sys

SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
sys.path.insert(0, os.path.join(SRC, "bindings", "python"))
import quire  # noqa: E402

failed = 0


def expect(name, cond, detail=""):
    global failed
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    failed += not cond


spec = {"title": "T", "blocks": [{"type": "heading", "text": "H"},
                                 {"type": "paragraph", "text": "One. Two."}]}
docx = quire.render(spec, "document")
kind, back = quire.read(docx)
expect("read spec", kind == "document" and back["title"] == "T" and
       back["blocks"][1] == {"type": "paragraph", "text": "One. Two."}, repr(back))
md = quire.read(docx, to="markdown")
expect("read markdown", md == "# T\n\n## H\n\nOne. Two.\n", repr(md))
ch = quire.read_chunks(docx, 5)
expect("read chunks", [c["text"] for c in ch] == ["T", "H", "One.", "Two."] and
       ch[3]["headings"] == ["T", "H"], repr(ch))
js = quire.read(docx, to="json")
expect("read json is a dict", isinstance(js, dict), repr(type(js)))
expect("read text is a str", isinstance(quire.read(docx, to="text"), str), repr(quire.read(docx, to="text")))
xlsx = quire.render({"sheets": [{"name": "S", "rows": [["a", 1]]}]}, "spreadsheet")
kind, back = quire.read(xlsx)
expect("read xlsx", kind == "spreadsheet" and back["sheets"][0]["rows"] == [["a", 1]], repr(back))
try:
    quire.read(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    expect("encrypted raises", False)
except quire.QuireError as e:
    expect("encrypted raises", e.exit_code == 1 and "encrypted" in str(e), str(e))
sys.exit(1 if failed else 0)
