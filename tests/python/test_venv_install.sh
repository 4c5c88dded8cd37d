#!/usr/bin/env bash
# The Python package (issue 31 item 9): from a plain `git clone` of this
# tree, `pip install ./bindings/python` in a fresh `python3 -m venv` (Debian's
# python3: pip and setuptools, no wheel) with pip's build isolation on and no
# package index (PIP_NO_INDEX, no pip config): the in-tree backend
# (bindings/python/backend/quire_backend.py) builds libquire with CMake and
# puts it in the package. Then, with QUIRE_LIB unset and from another folder,
# `import quire` loads the library from inside the package and renders every
# format, and tests/python/test_api.py runs against the installed package.
# It builds its own libquire (about 30 s of CPU), so it stays out of .ci/run's
# ASan step (its name matches "python" there).
set -euo pipefail
SRC=${QUIRE_SOURCE_DIR:?}
PY=/usr/bin/python3
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
    git clone --quiet --no-hardlinks "$SRC" "$tmp/src" # the committed tree, as a user gets it
else # an unpacked tarball: the tree without build folders
    mkdir "$tmp/src" && tar -C "$SRC" --exclude='./build*' -cf - . | tar -C "$tmp/src" -xf -
fi
"$PY" -m venv "$tmp/venv"
V="$tmp/venv/bin/python"
# what a fresh venv has: pip, (setuptools), no wheel
if "$V" -c 'import wheel' 2>/dev/null; then echo "the fresh venv has wheel"; exit 1; fi
cd "$tmp"
env -u QUIRE_LIB -u PYTHONPATH PIP_NO_INDEX=1 PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 \
    QUIRE_WHEEL_JOBS="${QUIRE_WHEEL_JOBS:-2}" "$V" -m pip install --quiet ./src/bindings/python \
    > "$tmp/pip.log" 2>&1 || { cat "$tmp/pip.log"; exit 1; }
built=$(date +%s)
site=$("$V" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
test -f "$site/quire/__init__.py"
test -f "$site/quire/libquire.so"
test -f "$site/quire/py.typed"
mkdir "$tmp/elsewhere" && cd "$tmp/elsewhere"
env -u QUIRE_LIB -u PYTHONPATH "$V" - "$site" <<'PY'
import os, sys
import quire
site = sys.argv[1]
assert quire.__file__ == os.path.join(site, "quire", "__init__.py"), quire.__file__
assert quire._find_library() == os.path.join(site, "quire", "libquire.so"), quire._find_library()
doc = {"title": "Installed", "blocks": [{"type": "paragraph", "text": "from the venv"}]}
sheet = {"sheets": [{"name": "S", "rows": [["a", 1], ["b", 1e308]]}]}
deck = {"title": "Deck", "slides": [{"title": "One", "bullets": ["x"]}]}
magic = {"docx": b"PK", "xlsx": b"PK", "pptx": b"PK", "pdf": b"%PDF", "html": b"<!doctype html>",
         "png": b"\x89PNG"}
for spec, kind, fmt in ((doc, "document", "docx"), (sheet, "spreadsheet", "xlsx"),
                        (deck, "presentation", "pptx"), (doc, "document", "pdf"),
                        (doc, "document", "html"), (doc, "document", "png")):
    out = quire.render(spec, kind, fmt)
    assert out.startswith(magic[fmt]), (fmt, out[:16])
    print("%-5s %6d bytes, %d pages" % (fmt, len(out), out.pages))
kind, back = quire.read(quire.render(doc, "document"))
assert kind == "document" and back["title"] == "Installed", back
with quire.Store(os.path.join(os.getcwd(), "store")) as st:
    a = st.create("document", doc, title="t")
    assert st.export(a["artifact_id"]).startswith(b"PK")
print("import quire: rendered every format, read back, stored")
PY
QUIRE_API_INSTALLED=1 env -u QUIRE_LIB -u PYTHONPATH "$V" "$tmp/src/tests/python/test_api.py" > "$tmp/api.log" \
    || { cat "$tmp/api.log"; exit 1; }
tail -1 "$tmp/api.log"
# pip uninstall leaves nothing of the package behind
"$V" -m pip uninstall --quiet --yes quire
test ! -e "$site/quire"
end=$(date +%s)
echo "venv install: $((built - start)) s to clone, make the venv and build; $((end - start)) s in all"
echo "1 passed, 0 failed"
