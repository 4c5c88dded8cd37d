#!/usr/bin/env bash
# Install dependencies, build quire, and render the showcase fixtures into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)"
mkdir -p out
for spec in fixtures/*/spec.json; do
  case=$(basename "$(dirname "$spec")")
  if grep -q '"slides"' "$spec"; then exts="pptx"
  elif grep -q '"sheets"' "$spec"; then exts="xlsx"
  else exts="docx pdf html"; fi
  for ext in $exts; do
    ./build/quire render "$spec" -o "out/$case.$ext" >/dev/null || echo "showcase: $case.$ext failed" >&2
  done
done
ls out | wc -l | xargs echo "showcase: files in out/:"
