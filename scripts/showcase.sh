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
# The themes (README "Themes"): the same page and the same deck in each,
# as PNG: out/theme-<name>-doc.png (page 1) and out/theme-<name>-deck.png
# (every slide). The specs differ only in their "theme".
for theme in plain report light dark; do
  ./build/quire render "fixtures/theme-$theme-doc/spec.json" -o "out/theme-$theme-doc.png" \
    --dpi 60 >/dev/null || echo "showcase: theme-$theme-doc.png failed" >&2
  ./build/quire render "fixtures/theme-$theme-deck/spec.json" -o "out/theme-$theme-deck.png" \
    --dpi 60 --contact >/dev/null || echo "showcase: theme-$theme-deck.png failed" >&2
done
ls out | wc -l | xargs echo "showcase: files in out/:"
