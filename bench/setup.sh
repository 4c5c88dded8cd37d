#!/usr/bin/env bash
# Install the benchmark peers: Debian packages (python-docx, openpyxl, reportlab,
# libxlsxwriter, pandoc, node) and the npm peers (docx, exceljs, pptxgenjs) pinned by
# ../shared/bench/package-lock.json, into bench/work/npm. Idempotent.
#   bench/setup.sh           everything
#   bench/setup.sh --debian  only the Debian packages (what bench/run --quick uses)
set -euo pipefail
cd "$(dirname "$0")"
SHARED=${QUIRE_SHARED:-../../shared}
PKGS=(python3 python3-docx python3-openpyxl python3-reportlab python3-bidi python3-arabic-reshaper
      libxlsxwriter-dev libjansson-dev
      pandoc time gzip)
if [ "${1:-}" != "--debian" ] && ! command -v node >/dev/null; then PKGS+=(nodejs npm); fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
mkdir -p work/bin
cc -O2 -o work/bin/xlsxwriter_c "$SHARED/bench/peers/xlsxwriter_c.c" -lxlsxwriter -ljansson
cc -O2 -o work/bin/parse_jansson "$SHARED/bench/peers/parse_jansson.c" -ljansson
if [ "${1:-}" != "--debian" ] && command -v npm >/dev/null; then
  mkdir -p work/npm
  cp "$SHARED/bench/package.json" "$SHARED/bench/package-lock.json" work/npm/
  if [ ! -d work/npm/node_modules/pptxgenjs ]; then
    (cd work/npm && npm ci --no-audit --no-fund --loglevel=error)
  fi
  # Typst (the PDF peer): the runner loads the compiler from ../typst/node_modules
  # beside its own folder, so both are laid out as in ../shared/bench.
  mkdir -p work/typst-peer/peers work/typst-peer/typst
  cp "$SHARED/bench/peers/typst_pdf.js" work/typst-peer/peers/
  cp "$SHARED/bench/typst/package.json" "$SHARED/bench/typst/package-lock.json" work/typst-peer/typst/
  if [ ! -d work/typst-peer/typst/node_modules/@myriaddreamin/typst-ts-node-compiler ]; then
    (cd work/typst-peer/typst && npm ci --no-audit --no-fund --loglevel=error)
  fi
fi
echo "bench/setup: ok"
