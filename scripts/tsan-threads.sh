#!/usr/bin/env bash
# Run test_threads under ThreadSanitizer N times in a row (default 50) and stop
# at the first failure, as .ci/run runs it once:
#   bash scripts/tsan-threads.sh [N]
# G_SLICE=always-malloc: GLib's slab allocator recycles blocks across threads
# under a lock TSan cannot see (see tests/tsan.supp).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-50}
cmake -S . -B build-tsan -DQUIRE_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-tsan -j"$(nproc)" --target test_threads >/dev/null
export G_SLICE=always-malloc QUIRE_SOURCE_DIR=$PWD
export TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/tests/tsan.supp"
for i in $(seq "$N"); do
  if ! build-tsan/tests/test_threads >build-tsan/test_threads.log 2>&1; then
    echo "run $i of $N failed:"; tail -40 build-tsan/test_threads.log; exit 1
  fi
done
echo "test_threads under TSan: $N runs in a row passed"
