#!/usr/bin/env bash
# read-corpus.sh DIR [--to FORMAT] [--timeout S] [--quire PATH]: run `quire read`
# over every file under DIR, one at a time, and print the outcome table:
#   ok     exit 0 with some text
#   empty  exit 0 with no text (only blank lines)
#   error  a clear error: exit 1-4 with a JSON error line
#   crash  killed by a signal, or an exit outside 0-4 (or no JSON on a failure)
#   hang   still running at the timeout (killed)
# then the time and peak RSS percentiles (p50, p90, p99, max) over all files,
# and the files of each bad outcome. Needs GNU time (/usr/bin/time).
set -uo pipefail
dir="" to="markdown" timeout=30 quire="${QUIRE:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --to) to="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --quire) quire="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) dir="$1"; shift ;;
  esac
done
if [ -z "$dir" ] || [ ! -d "$dir" ]; then
  echo "usage: scripts/read-corpus.sh DIR [--to spec|json|markdown|text] [--timeout S] [--quire PATH]" >&2
  exit 2
fi
if [ -z "$quire" ]; then
  here="$(cd "$(dirname "$0")/.." && pwd)"
  for q in "$here/build/quire" "$(command -v quire 2>/dev/null)"; do
    [ -n "$q" ] && [ -x "$q" ] && quire="$q" && break
  done
fi
[ -x "$quire" ] || { echo "read-corpus: no quire binary (build first or pass --quire)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "read-corpus: needs GNU time at /usr/bin/time" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
rows="$tmp/rows"
: > "$rows"
while IFS= read -r -d '' f; do
  /usr/bin/time -f '%e %M' -o "$tmp/time" timeout -s KILL "$timeout" \
    "$quire" read "$f" --to "$to" > "$tmp/out" 2> "$tmp/err" < /dev/null
  rc=$?
  read -r secs kb < <(tail -n 1 "$tmp/time" 2>/dev/null || echo "0 0")
  case "$secs" in ''|*[!0-9.]*) secs=0 ;; esac
  case "$kb" in ''|*[!0-9]*) kb=0 ;; esac
  if [ "$rc" -eq 137 ] && awk -v s="$secs" -v t="$timeout" 'BEGIN { exit !(s >= t - 0.5) }'; then
    outcome=hang
  elif [ "$rc" -eq 0 ]; then
    if grep -q '[^[:space:]]' "$tmp/out"; then outcome=ok; else outcome=empty; fi
  elif [ "$rc" -ge 1 ] && [ "$rc" -le 4 ] && grep -q '"status":"error"' "$tmp/out"; then
    outcome=error
  else
    outcome=crash
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$outcome" "$rc" "$secs" "$kb" "$f" >> "$rows"
done < <(find "$dir" -type f -print0 | sort -z)

n=$(wc -l < "$rows")
if [ "$n" -eq 0 ]; then echo "read-corpus: no files under $dir" >&2; exit 2; fi
echo "quire read --to $to over $n files under $dir (timeout ${timeout} s)"
echo
echo "| outcome | files | share |"
echo "|---|---:|---:|"
for o in ok empty error crash hang; do
  c=$(awk -F'\t' -v o="$o" '$1 == o' "$rows" | wc -l)
  awk -v o="$o" -v c="$c" -v n="$n" 'BEGIN { printf "| %s | %d | %.1f%% |\n", o, c, 100 * c / n }'
done
echo
pct() { # column, scale, unit
  cut -f "$1" "$rows" | sort -g | awk -v s="$2" -v u="$3" '
    { v[NR] = $1 }
    END { split("50 90 99", p, " "); line = ""
          for (i = 1; i <= 3; i++) { k = int((NR * p[i] + 99) / 100); if (k < 1) k = 1
                                     line = line sprintf(" | %.3g", v[k] * s) }
          printf "%s%s | %.3g |\n", u, line, v[NR] * s }'
}
echo "| measure | p50 | p90 | p99 | max |"
echo "|---|---:|---:|---:|---:|"
pct 3 1 "| time s"
pct 4 0.0009765625 "| peak RSS MB"
for o in crash hang empty error; do
  if awk -F'\t' -v o="$o" '$1 == o { f = 1 } END { exit !f }' "$rows"; then
    echo
    echo "$o:"
    awk -F'\t' -v o="$o" '$1 == o { printf "  %s (exit %s, %s s)\n", $5, $2, $3 }' "$rows" | head -50
  fi
done
awk -F'\t' '$1 == "crash" || $1 == "hang" { bad = 1 } END { exit bad }' "$rows"
