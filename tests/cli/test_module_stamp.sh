#!/usr/bin/env bash
# A module of the quire CLI from another build (build/stale/: the same code
# with a skewed build stamp) beside the binary is refused with exit 2 and a
# message naming it, never called; the modules of this build load.
set -uo pipefail
QUIRE=${QUIRE:?} BIN=${QUIRE_BINARY_DIR:?}
if [ ! -f "$BIN/stale/quire-pdf.so" ]; then
  echo "build/stale/ not built (QUIRE_PDF_MODULE off): nothing to test"; exit 77
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$QUIRE" "$tmp/quire"
printf '{"title":"T","blocks":[{"type":"paragraph","text":"x"}]}' > "$tmp/d.json"
pass=0 fail=0
check() { # name, want exit, want text, command...
  local name=$1 code=$2 text=$3; shift 3
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" = "$code" ] && grep -qF -- "$text" <<<"$out"; then pass=$((pass+1))
  else fail=$((fail+1)); echo "FAIL $name: exit $rc (want $code), output: $out"; fi
}
cp "$BIN/stale/quire-pdf.so" "$BIN/stale/quire-pg.so" "$tmp/"
check "stale pdf module" 2 'quire-pdf.so is from another build of quire' \
  "$tmp/quire" render "$tmp/d.json" -o "$tmp/d.pdf"
[ -e "$tmp/d.pdf" ] && { fail=$((fail+1)); echo "FAIL a file was written"; }
check "stale png preview" 2 'from another build' "$tmp/quire" render "$tmp/d.json" -o "$tmp/d.png"
check "docx needs no module" 0 '"status":"ok"' "$tmp/quire" render "$tmp/d.json" -o "$tmp/d.docx"
check "stale pg module" 2 'quire-pg.so is from another build of quire' \
  "$tmp/quire" list --store "postgresql:///quire_none?host=$tmp"
cp "$BIN/quire-pdf.so" "$tmp/"
check "this build's pdf module" 0 '"status":"ok"' "$tmp/quire" render "$tmp/d.json" -o "$tmp/d.pdf"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
