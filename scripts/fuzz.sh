#!/usr/bin/env bash
# Build the libFuzzer targets (clang, ASan + UBSan) and run each for a while,
# seeded from fixtures/. FUZZ_SECONDS per target (default 60); the corpus
# grows in build-fuzz/corpus/<target>. Crashes land in build-fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${FUZZ_SECONDS:-60}
CC=clang cmake -S . -B build-fuzz -DQUIRE_FUZZ=ON -DQUIRE_TESTS=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-fuzz -j"$(nproc)" >/dev/null
mkdir -p build-fuzz/crashes
status=0
for bin in build-fuzz/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name=$(basename "$bin")
  corpus=build-fuzz/corpus/$name
  mkdir -p "$corpus"
  # Seeds: every fixture spec, prefixed with each selector byte 0..5.
  for spec in fixtures/*/spec.json fixtures/errors/*/spec.json; do
    [ -f "$spec" ] || continue
    [ "$(stat -c %s "$spec")" -lt 200000 ] || continue
    base=$(echo "$spec" | tr '/' '_')
    for sel in 0 1 2 3 4 5; do
      [ -f "$corpus/$base.$sel" ] || { printf "\\x3$sel"; cat "$spec"; } > "$corpus/$base.$sel"
    done
  done
  if [ -d "tests/fuzz/seeds/$name" ]; then cp -n tests/fuzz/seeds/$name/* "$corpus/" 2>/dev/null || true; fi
  echo "fuzz: $name for ${SECS}s"
  if ! ASAN_OPTIONS=detect_leaks=1 "$bin" "$corpus" -dict=tests/fuzz/json.dict -max_total_time="$SECS" \
      -max_len=65536 -timeout=20 -rss_limit_mb=2048 -artifact_prefix=build-fuzz/crashes/$name- \
      -print_final_stats=1 >build-fuzz/$name.log 2>&1; then
    echo "fuzz: $name FAILED"; tail -60 build-fuzz/$name.log; status=1
  else
    grep -E "^stat::number_of_executed_units|cov:" build-fuzz/$name.log | tail -2
  fi
done
exit $status
