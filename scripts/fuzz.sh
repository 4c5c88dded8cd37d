#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan) and run each for a while,
# one after the other, seeded from fixtures/. The corpus grows in
# build-fuzz/corpus/<target>; crashes land in build-fuzz/crashes/.
#
#   FUZZ_SECONDS=60        seconds per target (CI); 600 for the long run
#   FUZZ_TARGETS="a b"     run only these targets (default: every fuzz_*)
#   FUZZ_JOBS=2            build parallelism (default: nproc)
#   FUZZ_BUILD=build-fuzz  build folder
#
# Targets: fuzz_compile (compiler + canonical JSON, every kind), fuzz_render
# (compile + render into memory; the first byte picks docx/xlsx/pptx/pdf/
# html/png), fuzz_edit (merge patch, spec_append, JSON Patch, then compile),
# fuzz_store (damaged meta/version/ledger files through show/log/diff/edit/
# fsck), fuzz_read (a file through qr_read_mem; the first byte picks the
# output form), fuzz_markdown (Markdown as a document, a deck, its blocks
# written out, and the blocks alone; spec/markdown.h), fuzz_formula (a formula's
# text evaluated, rewritten and checked for syntax and policy), fuzz_chart (a
# spec's charts laid out, the bytes as doubles through the axis ticks). Every
# target runs with -rss_limit_mb=2048 and -timeout=20 (seconds per input). Prints executions and coverage per target; exits 1 if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${FUZZ_SECONDS:-60}
B=${FUZZ_BUILD:-build-fuzz}
CC=clang cmake -S . -B "$B" -DQUIRE_FUZZ=ON -DQUIRE_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if [ -n "${FUZZ_TARGETS:-}" ]; then
  extra=""
  [[ " $FUZZ_TARGETS " == *" fuzz_read "* ]] && extra="quire"  # renders fuzz_read's seeds
  cmake --build "$B" -j"${FUZZ_JOBS:-$(nproc)}" --target $FUZZ_TARGETS $extra >/dev/null
else
  cmake --build "$B" -j"${FUZZ_JOBS:-$(nproc)}" >/dev/null
fi
mkdir -p "$B/crashes"
status=0
for bin in "$B"/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  if [ -n "${FUZZ_TARGETS:-}" ] && ! [[ " $FUZZ_TARGETS " == *" $name "* ]]; then continue; fi
  corpus=$B/corpus/$name
  mkdir -p "$corpus"
  case $name in
    fuzz_read)
      # Every fixture rendered to docx, xlsx, pptx and pdf by the fuzz build's
      # quire (files up to the input size cap), behind each selector byte.
      for spec in fixtures/*/spec.json; do
        base=$(echo "$spec" | tr '/' '_')
        for ext in docx xlsx pptx pdf; do
          out=$B/seed-read.$ext
          "$B/quire" render "$spec" -o "$out" >/dev/null 2>&1 || continue
          [ "$(stat -c %s "$out")" -lt 65536 ] || continue
          for sel in 0 1 2 3 4; do
            [ -f "$corpus/$base.$ext.$sel" ] || { printf "\\x3$sel"; cat "$out"; } > "$corpus/$base.$ext.$sel"
          done
        done
      done ;;
    fuzz_markdown)
      # The Markdown of every md-* fixture and the test documents, behind each selector.
      python3 - "$corpus" <<'PY'
import json, glob, os, sys
out = sys.argv[1]
texts = []
for p in sorted(glob.glob("fixtures/md-*/spec.json")):
    s = json.load(open(p))
    texts += [b["text"] for b in s.get("blocks", []) if b.get("type") == "markdown"]
    texts += [sl["markdown"] for sl in s.get("slides", []) if "markdown" in sl]
for i, t in enumerate(texts):
    for sel in "0123":
        path = os.path.join(out, "md%d.%s" % (i, sel))
        if not os.path.exists(path):
            open(path, "wb").write(sel.encode() + t.encode())
PY
      ;;
    fuzz_edit|fuzz_store)
      # Multi-part inputs: fixture specs with edits, or whole store artifacts.
      python3 tests/fuzz/seeds/make_seeds.py "$name" "$corpus" >/dev/null ;;
    *)
      # Every fixture spec, prefixed with each selector byte '0'..'5'.
      for spec in fixtures/*/spec.json fixtures/errors/*/spec.json; do
        [ -f "$spec" ] || continue
        [ "$(stat -c %s "$spec")" -lt 200000 ] || continue
        base=$(echo "$spec" | tr '/' '_')
        for sel in 0 1 2 3 4 5; do
          [ -f "$corpus/$base.$sel" ] || { printf "\\x3$sel"; cat "$spec"; } > "$corpus/$base.$sel"
        done
      done ;;
  esac
  # Committed seeds (regressions found by earlier runs).
  if [ -d "tests/fuzz/seeds/$name" ]; then cp -n "tests/fuzz/seeds/$name"/* "$corpus/" 2>/dev/null || true; fi
  # Leaks are checked after every input, except in fuzz_render: pango keeps
  # each thread's font map (and fontconfig patterns) alive between renders, and
  # fontconfig links a pattern to its elements by offset, not pointer, so
  # LeakSanitizer calls every live pattern leaked. Render leaks are checked
  # instead where the caches are freed: the golden and error suites under
  # ASan at process exit (.ci/run).
  leaks=1
  [ "$name" = fuzz_render ] && leaks=0
  dict=tests/fuzz/json.dict
  [ "$name" = fuzz_markdown ] && dict=tests/fuzz/markdown.dict
  echo "fuzz: $name for ${SECS}s"
  start=$(date +%s)
  if ! ASAN_OPTIONS=detect_leaks=$leaks LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp \
      "$bin" "$corpus" -dict="$dict" -max_total_time="$SECS" -detect_leaks=$leaks \
      -max_len=65536 -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$B/crashes/$name-" \
      -print_final_stats=1 >"$B/$name.log" 2>&1; then
    echo "fuzz: $name FAILED"; tail -60 "$B/$name.log"; status=1
  else
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$name.log" | tail -1)
    cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[0-9a-zA-Z]+' "$B/$name.log" | tail -1)
    echo "fuzz: $name ok: $execs executions in $(( $(date +%s) - start ))s, $cov"
  fi
done
exit $status
