#!/usr/bin/python3
"""Seeds for the fuzz targets whose input is more than one spec, built from
fixtures/ (scripts/fuzz.sh calls it; nothing generated is committed).

    make_seeds.py fuzz_edit OUTDIR    fixture spec + patch/append/ops parts
    make_seeds.py fuzz_store OUTDIR   a well-formed store artifact per fixture

The part separator is the byte 0x1e; see tests/fuzz/fuzz_edit.c and
tests/fuzz/fuzz_store.c for the layouts."""
import glob
import hashlib
import json
import os
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
RS = b"\x1e"
MAX = 60000  # below scripts/fuzz.sh's -max_len


def fixtures():
    for path in sorted(glob.glob(os.path.join(SRC, "fixtures", "*", "spec.json"))):
        data = open(path, "rb").read()
        if len(data) > MAX // 3:
            continue
        try:
            spec = json.loads(data)
        except ValueError:
            continue
        yield os.path.basename(os.path.dirname(path)), data, spec


def edits_for(spec):
    """(patch, append, ops) triples that make sense for this spec."""
    top = next((k for k in ("blocks", "slides", "sheets", "sections") if k in spec), "blocks")
    item = {"blocks": {"type": "paragraph", "text": "added"}, "slides": {"title": "New"},
            "sheets": {"name": "New", "rows": [[1, "a"]]},
            "sections": {"heading": "H", "paragraphs": ["p"]}}[top]
    yield {"title": "Edited"}, None, None
    yield {"title": None, "lang": "ar"}, None, None
    yield None, {top: [item]}, None
    yield None, None, [{"op": "add", "path": "/%s/-" % top, "value": item}]
    yield None, None, [{"op": "test", "path": "/%s/0" % top, "value": item},
                       {"op": "remove", "path": "/%s/0" % top}]
    yield None, None, [{"op": "copy", "from": "/%s/0" % top, "path": "/%s/0" % top},
                       {"op": "move", "from": "/%s/1" % top, "path": "/%s/-" % top},
                       {"op": "replace", "path": "/title", "value": "a~b/c"}]
    yield {"title": "T"}, {top: [item]}, [{"op": "add", "path": "/x~1y~0z", "value": [1, {"a": None}]}]
    # the parts sent as JSON strings, as models do
    yield json.dumps({"title": "S"}), json.dumps({top: [item]}), json.dumps([{"op": "remove", "path": "/title"}])


def enc(v):
    return b"" if v is None else json.dumps(v, ensure_ascii=False).encode()


def make_edit(out):
    n = 0
    for name, data, spec in fixtures():
        for i, (p, a, o) in enumerate(edits_for(spec)):
            sel = (1 if p is not None else 0) | (2 if a is not None else 0) | (4 if o is not None else 0)
            kind = {"slides": 2, "sheets": 1}.get(next((k for k in ("slides", "sheets") if k in spec), ""), 0)
            sel |= kind << 3
            blob = bytes([sel]) + data + RS + enc(p) + RS + enc(a) + RS + enc(o)
            open(os.path.join(out, "%s.%d" % (name, i)), "wb").write(blob)
            n += 1
    return n


def canonical(spec):
    return (json.dumps(spec, ensure_ascii=False, indent=2) + "\n").encode()


def dump(obj):
    return (json.dumps(obj, ensure_ascii=False, indent=2) + "\n").encode()


def vmeta(v, spec_bytes, out_bytes, action, name, mime):
    return dump({"version": v, "action": action, "parent": v - 1 if v > 1 else None,
                 "created": "2026-07-01T12:00:00Z",
                 "spec_sha256": hashlib.sha256(spec_bytes).hexdigest(), "spec_size": len(spec_bytes),
                 "output": {"sha256": hashlib.sha256(out_bytes).hexdigest(), "size": len(out_bytes),
                            "name": name, "mime_type": mime}})


def make_store(out):
    n = 0
    for name, data, spec in fixtures():
        kind = "presentation" if "slides" in spec else "spreadsheet" if "sheets" in spec else "document"
        ext = {"presentation": "pptx", "spreadsheet": "xlsx", "document": "docx"}[kind]
        mime = "application/octet-stream"
        v1 = canonical(spec)
        edited = dict(spec)
        edited["title"] = "Edited"
        v2 = canonical(edited)
        blob = b"rendered " + name.encode()
        fname = "artifact." + ext
        # 16 / 32: v000002.json a FIFO / a folder (its part left empty); 64: list + delete
        for sel, versions in ((0, 1), (1 | 4, 2), (2 | 8, 2), (3 | 4 | 8, 2), (2 | 16, 2), (2 | 4 | 32, 2),
                              (64, 1), (64 | 8, 2)):
            meta = dump({"id": "a", "kind": kind, "title": spec.get("title", "") if isinstance(spec.get("title"), str) else "",
                         "owner": "o", "filename": fname, "mime_type": mime,
                         "created": "2026-07-01T12:00:00Z", "head": versions})
            bytes_total = len(v1) + (len(v2) if versions == 2 else 0) + len(blob)
            ledger = dump({"owner": "o", "artifacts": 1, "bytes": bytes_total})
            parts = [meta, v1, vmeta(1, v1, blob, "create", fname, mime),
                     v2 if versions == 2 and not sel & 48 else b"",
                     vmeta(2, v2, blob, "edit", fname, mime) if versions == 2 else b"",
                     ledger, blob]
            open(os.path.join(out, "%s.%d" % (name, sel)), "wb").write(bytes([sel]) + RS.join(parts))
            n += 1
    return n


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("fuzz_edit", "fuzz_store"):
        print(__doc__)
        return 2
    os.makedirs(sys.argv[2], exist_ok=True)
    n = (make_edit if sys.argv[1] == "fuzz_edit" else make_store)(sys.argv[2])
    print("%s: %d seeds" % (sys.argv[1], n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
