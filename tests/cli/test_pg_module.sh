#!/usr/bin/env bash
# The CLI opens the PostgreSQL store backend from quire-pg.so on the first
# postgresql:// location (issue 22: libpq's 21 libraries cost every other
# call ~3.7 ms): the binary does not link libpq; beside the binary (build
# tree) and installed in <libdir>/quire the module is found and libpq answers
# (a server that is not there: "cannot connect", exit 3); without the module
# the CLI says so, exit 3, and stores nothing; folder stores need no module.
set -euo pipefail
BIN=${QUIRE_BINARY_DIR:?}
Q=${QUIRE:?}
[ -f "$BIN/quire-pg.so" ] || { echo "no quire-pg.so (QUIRE_PDF_MODULE off)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if readelf -d "$Q" | grep -q 'libpq'; then
    echo "the CLI links libpq"; exit 1
fi
readelf -d "$BIN/quire-pg.so" | grep -q 'libpq'
echo '{"title":"T","blocks":[]}' > "$tmp/s.json"
mkdir "$tmp/nosrv"
uri="postgresql:///x?host=$tmp/nosrv"
expect() { # expect RC TEXT BINARY...
    local want=$1 text=$2
    shift 2
    set +e
    "$@" create -k html --store "$uri" "$tmp/s.json" > "$tmp/res.json" 2> "$tmp/err.txt"
    local rc=$?
    set -e
    if [ "$rc" != "$want" ] || ! grep -q "$text" "$tmp/res.json"; then
        echo "$*: exit $rc, want $want and '$text':"; cat "$tmp/res.json" "$tmp/err.txt"; exit 1
    fi
}
expect 7 'cannot connect to the PostgreSQL database' "$Q"
cmake --install "$BIN" --prefix "$tmp/prefix" >/dev/null
test -f "$tmp/prefix/lib/quire/quire-pg.so"
expect 7 'cannot connect to the PostgreSQL database' "$tmp/prefix/bin/quire"
mkdir "$tmp/alone" && cp "$Q" "$tmp/alone/"
expect 3 'cannot load quire-pg.so, which opens PostgreSQL stores' "$tmp/alone/quire"
grep -q 'install quire with its PostgreSQL module' "$tmp/res.json"
# the folder store works without the module
"$tmp/alone/quire" create -k html --id a --store "$tmp/store" "$tmp/s.json" | grep -q '"status":"ok"'
test -d "$tmp/store"
echo "1 passed, 0 failed"
