#!/usr/bin/env bash
# scripts/read-corpus.sh over a folder made here: a docx and a PDF quire
# renders (ok) and a file that is no document (a clear error): the table,
# its counts, the percentile rows and the error list are checked.
set -euo pipefail
Q="${QUIRE:-build/quire}"
SRC="${QUIRE_SOURCE_DIR:-.}"
t="$(mktemp -d)"
trap 'rm -rf "$t"' EXIT
mkdir "$t/c"
echo '{"blocks":[{"type":"paragraph","text":"Hello corpus"}]}' > "$t/s.json"
"$Q" render "$t/s.json" -o "$t/c/a.docx" > /dev/null
"$Q" render "$t/s.json" -o "$t/c/b.pdf" > /dev/null
head -c 2000 /dev/zero > "$t/c/zero.bin"
out="$(bash "$SRC/scripts/read-corpus.sh" "$t/c" --quire "$Q" --timeout 20)"
echo "$out"
fail=0
grep -q '^| ok | 2 | 66.7% |$' <<< "$out" || { echo "FAIL ok count"; fail=1; }
grep -q '^| error | 1 | 33.3% |$' <<< "$out" || { echo "FAIL error count"; fail=1; }
grep -q '^| crash | 0 |' <<< "$out" || { echo "FAIL crash count"; fail=1; }
grep -q '^| time s | ' <<< "$out" || { echo "FAIL time row"; fail=1; }
grep -q '^| peak RSS MB | ' <<< "$out" || { echo "FAIL rss row"; fail=1; }
grep -q 'zero.bin (exit 1' <<< "$out" || { echo "FAIL error list"; fail=1; }
bash "$SRC/scripts/read-corpus.sh" /nonexistent > /dev/null 2>&1 && { echo "FAIL no dir"; fail=1; }
echo "$((fail)) failed"
exit $fail
