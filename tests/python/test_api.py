#!/usr/bin/python3
"""The binding's public surface (issue 31 item 9): every public name of the
module is in __all__ and every name in __all__ exists; every public
function and Store method carries type hints on each parameter and its
return; read() has one return type per mode (to="spec": a (kind, dict)
tuple, "json": a dict, "markdown" and "text": a str) and read_chunks() a
list of {"headings", "text", "chars"}.

With QUIRE_API_INSTALLED=1 it imports the installed package (the venv
install test runs it so) instead of bindings/python/quire.py."""
import inspect
import os
import sys

if os.environ.get("QUIRE_API_INSTALLED") != "1":
    SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    sys.path.insert(0, os.path.join(SRC, "bindings", "python"))
import quire  # noqa: E402

failures = []


def expect(name, cond, detail=""):
    print("%s %s %s" % ("ok  " if cond else "FAIL", name, "" if cond else detail))
    if not cond:
        failures.append(name)


# __all__ is the public surface, exactly.
public = {n for n, v in vars(quire).items()
          if not n.startswith("_") and not inspect.ismodule(v)
          and getattr(v, "__module__", "quire") == "quire"
          and n not in ("annotations",)}
# typing's names imported for the hints are not quire's own
public -= {"Any", "Callable", "Dict", "Iterable", "List", "Optional", "Tuple", "Union", "overload",
           "Literal", "TypedDict"}
missing = sorted(public - set(quire.__all__))
expect("every public name is in __all__", not missing, "missing: %s" % missing)
absent = sorted(n for n in quire.__all__ if not hasattr(quire, n))
expect("every name in __all__ exists", not absent, "absent: %s" % absent)
expect("read and schema are exported", {"read", "read_chunks", "schema"} <= set(quire.__all__))


def unhinted(fn, skip_self):
    sig = inspect.signature(fn)
    bad = [p.name for i, p in enumerate(sig.parameters.values())
           if p.annotation is inspect.Parameter.empty and not (skip_self and i == 0)
           and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    if sig.return_annotation is inspect.Signature.empty:
        bad.append("return")
    return bad


for name in quire.__all__:
    obj = getattr(quire, name)
    if inspect.isfunction(obj):
        bad = unhinted(obj, False)
        expect("%s() is type-hinted" % name, not bad, "unhinted: %s" % bad)
    elif inspect.isclass(obj) and not issubclass(obj, BaseException) and name not in ("Chunk",):
        for mname, m in vars(obj).items():
            if inspect.isfunction(m) and (not mname.startswith("_") or mname in ("__init__", "__enter__")):
                bad = unhinted(m, True)
                expect("%s.%s() is type-hinted" % (name, mname), not bad, "unhinted: %s" % bad)

# One return type per read() mode.
spec = {"title": "T", "blocks": [{"type": "heading", "text": "H"},
                                 {"type": "paragraph", "text": "One. Two."}]}
docx = quire.render(spec, "document")
got = quire.read(docx)
expect("read() is a (kind, dict) tuple", isinstance(got, tuple) and len(got) == 2 and got[0] == "document"
       and isinstance(got[1], dict), repr(got))
expect("read(to='spec') is the same tuple", quire.read(docx, to="spec") == got)
expect("read(to='json') is a dict", isinstance(quire.read(docx, to="json"), dict))
for mode in ("markdown", "text"):
    v = quire.read(docx, to=mode)
    expect("read(to=%r) is a str" % mode, isinstance(v, str) and "One. Two." in v, repr(v))
ch = quire.read_chunks(docx, 5)
expect("read_chunks() is a list of chunk dicts",
       isinstance(ch, list) and all(set(c) == {"headings", "text", "chars"} for c in ch)
       and [c["text"] for c in ch] == ["T", "H", "One.", "Two."], repr(ch))
try:
    quire.read(docx, to="pdf")
    expect("read(to='pdf') raises UsageError", False)
except quire.UsageError:
    expect("read(to='pdf') raises UsageError", True)
try:
    quire.read(docx, "text", 5)  # the chunks= argument moved to read_chunks()
    expect("read() takes no chunks argument", False)
except TypeError:
    expect("read() takes no chunks argument", True)

print("%d failed" % len(failures))
sys.exit(1 if failures else 0)
