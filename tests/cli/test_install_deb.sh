#!/usr/bin/env bash
# The Debian package (issue 31 item 10): cpack -G DEB on this build makes
# quire_<version>_amd64.deb; its control file declares a dependency for
# every library its ELF files need (each NEEDED library's owning Debian
# package is in Depends); it holds the command, the modules, libquire, the
# headers, quire.pc, the man pages and the completion; dpkg installs it into
# a scratch root (--root with its own admin folder, --force-not-root when not
# root, --force-depends since the scratch root has no libc of its own: the
# libraries come from the host, which has them; --force-script-chrootless:
# the package's postinst and postrm do nothing, so none needs a shell inside
# the root; checked to work as an unprivileged user too) and the installed command
# renders every format (docx, xlsx, pptx, pdf, html, png) and reads one back;
# a program builds against the installed pkg-config file; dpkg -r removes
# every file again. Named *install* so .ci/run's ASan step leaves it out.
set -euo pipefail
BIN=${QUIRE_BINARY_DIR:?}
for t in cpack dpkg dpkg-deb; do
    if ! command -v "$t" >/dev/null; then
        echo "SKIP: no $t"
        [ "${QUIRE_REQUIRE_TOOLS:-}" = 1 ] && exit 1
        exit 77
    fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
version=$(sed -n 's/^project(quire VERSION \([0-9.]*\).*/\1/p' "${QUIRE_SOURCE_DIR:?}/CMakeLists.txt")
arch=$(dpkg --print-architecture)
(cd "$tmp" && cpack --config "$BIN/CPackConfig.cmake" -G DEB -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1) ||
    { cat "$tmp/cpack.log"; exit 1; }
deb="$tmp/pkg/quire_${version}_${arch}.deb"
test -f "$deb" || { echo "no $deb:"; ls "$tmp/pkg"; exit 1; }
echo "$(basename "$deb"): $(stat -c %s "$deb") bytes"
test "$(dpkg-deb -f "$deb" Package)" = quire
test "$(dpkg-deb -f "$deb" Version)" = "$version"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"

# The files.
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$tmp/files"
for f in /usr/bin/quire /usr/lib/libquire.so.0 /usr/lib/libquire.so /usr/lib/libquire.a \
    /usr/lib/quire/quire-pdf.so /usr/lib/quire/quire-pg.so /usr/include/quire/quire.h \
    /usr/include/quire/store.h /usr/include/quire/error.h /usr/include/quire/export.h \
    /usr/lib/pkgconfig/quire.pc /usr/share/man/man1/quire.1 /usr/share/man/man5/quire-spec.5 \
    /usr/share/bash-completion/completions/quire; do
    grep -qx -- "$f" "$tmp/files" || { echo "the package lacks $f"; exit 1; }
done

# Install into a scratch root.
root="$tmp/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
DPKG=(dpkg --root="$root" --admindir="$root/var/lib/dpkg" --log=/dev/null --force-depends
    --force-script-chrootless)
[ "$(id -u)" = 0 ] || DPKG+=(--force-not-root)
"${DPKG[@]}" -i "$deb" > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; exit 1; }
Q="$root/usr/bin/quire"
"$Q" --version | grep -q "^quire $version"
# its maintainer scripts do nothing (the loader cache is libc-bin's ldconfig trigger)
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./triggers | grep -qx 'activate-noawait ldconfig'
if dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./postinst ./postrm | grep -v '^#' | grep -qv '^set -e$\|^exit 0$'; then
    echo "a maintainer script does something"; exit 1
fi

# Every library an installed ELF file needs comes from a package in Depends.
dep_names=$(echo "$depends" | tr ',' '\n' | sed 's/(.*//; s/ //g')
for elf in "$Q" "$root"/usr/lib/libquire.so.0 "$root"/usr/lib/quire/*.so; do
    for lib in $(objdump -p "$elf" | awk '$1 == "NEEDED" {print $2}'); do
        case $lib in ld-linux*) lib=libc.so.6 ;; esac # the loader is libc6's
        path=$(ldd "$elf" | awk -v l="$lib" '$1 == l {print $3}')
        [ -n "$path" ] || { echo "$elf: $lib not found"; exit 1; }
        real=$(readlink -f "$path")
        pkg=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$real" 2>/dev/null || dpkg -S "${path#/usr}" 2>/dev/null ||
            dpkg -S "/usr$path" 2>/dev/null) || { echo "$lib: no Debian package owns $path"; exit 1; }
        pkg=${pkg%%:*}
        # a here-string, not a pipe: grep -q stops at the match, and with pipefail the
        # writer's SIGPIPE on the lines after it failed this check now and then
        grep -qx -- "$pkg" <<<"$dep_names" || { echo "$(basename "$elf") needs $lib from $pkg, not in Depends"; exit 1; }
    done
done
grep -qx fonts-dejavu-core <<<"$dep_names"

# The installed command renders every format and reads one back.
cd "$tmp"
cat > doc.json <<'J'
{"title": "Installed from the .deb", "blocks": [{"type": "paragraph", "text": "deb render"}]}
J
echo '{"sheets": [{"name": "S", "rows": [["a", 1], ["b", 2]]}]}' > sheet.json
echo '{"title": "Deck", "slides": [{"title": "One", "bullets": ["x"]}]}' > deck.json
"$Q" render doc.json -o out.docx > r.json && grep -q '"status":"ok"' r.json
"$Q" render sheet.json -k spreadsheet -o out.xlsx > r.json && grep -q '"status":"ok"' r.json
"$Q" render deck.json -k presentation -o out.pptx > r.json && grep -q '"status":"ok"' r.json
"$Q" render doc.json -o out.pdf > r.json && grep -q '"pages":1' r.json
"$Q" render doc.json -o out.html > r.json && grep -q '"status":"ok"' r.json
"$Q" render doc.json -o out.png > r.json && grep -q '"status":"ok"' r.json
for f in docx xlsx pptx; do unzip -tq "out.$f" >/dev/null; done
head -c 4 out.pdf | grep -q '%PDF'
head -c 8 out.png | od -An -c | grep -q 'P   N   G'
grep -q 'deb render' out.html
if command -v pdftotext >/dev/null; then pdftotext out.pdf - | grep -q 'deb render'; fi
"$Q" read out.docx --to text | grep -q 'deb render'
"$Q" read out.pdf --to text | grep -q 'deb render'
# a store, through the installed PostgreSQL-free path (the folder store)
"$Q" --store "$tmp/store" create -k document doc.json --title t > c.json && grep -q '"version":1' c.json
man -l "$root/usr/share/man/man1/quire.1" 2>/dev/null | grep -q quire || test -s "$root/usr/share/man/man1/quire.1"
bash -n "$root/usr/share/bash-completion/completions/quire"

# A program against the installed library, through its pkg-config file.
cat > use.c <<'C'
#include <quire/quire.h>
#include <string.h>
int main(void)
{
    const char *s = "{\"blocks\":[{\"type\":\"paragraph\",\"text\":\"x\"}]}";
    qr_result r;
    qr_status st = qr_render_mem(s, strlen(s), QR_KIND_HTML, QR_FORMAT_HTML, NULL, &r);
    int ok = st == QR_OK && r.size > 0;
    qr_result_free(&r);
    return ok ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$root/usr/lib/pkgconfig"
cc use.c $(pkg-config --cflags --libs quire) -o use
LD_LIBRARY_PATH="$root/usr/lib" ./use

# Removed, nothing of it stays.
"${DPKG[@]}" -r quire > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; exit 1; }
left=$( (find "$root/usr" -type f -o -type l 2>/dev/null || true) | head -5)
[ -z "$left" ] || { echo "left after dpkg -r: $left"; exit 1; }
echo "deb test: $(($(date +%s) - start)) s"
echo "1 passed, 0 failed"
