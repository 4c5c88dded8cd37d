#!/usr/bin/env bash
# Install every build and test dependency of quire from Debian 12 packages.
# Idempotent: when every package is already there it only checks (no apt-get update).
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config clang clang-format llvm libclang-rt-14-dev
  libjansson-dev libxml2-dev libzip-dev zlib1g-dev
  libcairo2-dev libpango1.0-dev libharfbuzz-dev libfontconfig-dev libfreetype-dev libfribidi-dev
  libcmocka-dev libpq-dev postgresql-15 libpoppler-glib-dev
  libcmark-gfm-dev libcmark-gfm-extensions-dev
  fonts-dejavu-core fonts-dejavu-extra fonts-noto-core fonts-noto-cjk
  poppler-utils qpdf libxml2-utils
  python3 python3-docx python3-openpyxl python3-html5lib python3-jsonschema
  libreoffice-writer libreoffice-calc libreoffice-impress
  time valgrind strace
  locales
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# A comma-decimal locale for tests/unit/test_locale.c (a host that called
# setlocale(LC_ALL, "") in German must get the same bytes as under C).
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO sed -i 's/^# *\(de_DE.UTF-8 UTF-8\)/\1/' /etc/locale.gen
  grep -q '^de_DE.UTF-8 UTF-8' /etc/locale.gen || echo 'de_DE.UTF-8 UTF-8' | $SUDO tee -a /etc/locale.gen >/dev/null
  $SUDO locale-gen >/dev/null
fi
