#!/usr/bin/env bash
# Install what is missing (Debian 12; quick when all is there), build quire and
# run the whole test suite (unit, golden, CLI, readback, validators).
#   scripts/test.sh              release build in build/
#   BUILD=build-asan CMAKE_ARGS=-DQUIRE_SANITIZE=ON scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD=${BUILD:-build}
JOBS=${JOBS:-$(nproc)}
cmake -S . -B "$BUILD" ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j"$JOBS"
ctest --test-dir "$BUILD" --output-on-failure -j"${CTEST_JOBS:-2}" ${CTEST_ARGS:-}
