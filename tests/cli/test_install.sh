#!/usr/bin/env bash
# The install target and the pkg-config file: install into a temp prefix,
# build a program against libquire with `pkg-config quire`, run it.
set -euo pipefail
BIN=${QUIRE_BINARY_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$BIN" --prefix "$tmp/prefix" >/dev/null
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
cat > "$tmp/use.c" <<'C'
#include <quire/quire.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    const char *s = "{\"blocks\":[{\"type\":\"paragraph\",\"text\":\"installed\"}]}";
    qr_result r;
    qr_status st = qr_render_mem(s, strlen(s), QR_KIND_HTML, QR_FORMAT_HTML, NULL, &r);
    int ok = st == QR_OK && r.size > 0 && strstr((const char *)r.data, "installed") != NULL;
    qr_result_free(&r);
    puts(ok ? "ok" : "bad");
    return ok ? 0 : 1;
}
C
cc "$tmp/use.c" $(pkg-config --cflags --libs quire) -Wl,-rpath,"$tmp/prefix/lib" -o "$tmp/use"
# <quire/...> beside the C library's own <error.h>: -I${includedir} puts no quire
# header ahead of a system one, so a program may include both (issue 15 item 6).
grep -qx 'Cflags: -I${includedir}' "$tmp/prefix/lib/pkgconfig/quire.pc"
cat > "$tmp/both.c" <<'C'
#include <error.h>
#include <quire/quire.h>
#include <quire/store.h>
int both(void);
int both(void)
{
    error(0, 0, "%s", qr_status_str(QR_E_SPEC)); /* glibc's error() and quire's statuses */
    return (int)QR_FORMAT_DOCX + (int)QR_KIND_DOCUMENT + qr_status_exit(QR_E_LIMIT);
}
C
cc $(pkg-config --cflags quire) -Wall -Werror -c "$tmp/both.c" -o "$tmp/both.o"
test -s "$tmp/both.o"
"$tmp/use"
# Statically against libquire.a: `pkg-config --static` lists what it needs
# (issue 31: libpq's own private -lpgport and -lgssapi_krb5 are not shipped
# for linking on Debian; libquire needs only -lpq).
cc "$tmp/use.c" $(pkg-config --cflags quire) -Wl,-Bstatic $(pkg-config --libs-only-L quire) -lquire \
    -Wl,-Bdynamic $(pkg-config --static --libs quire | sed 's/ -lquire / /') -o "$tmp/use-static"
"$tmp/use-static"
! ldd "$tmp/use-static" | grep -q libquire
test -x "$tmp/prefix/bin/quire"
"$tmp/prefix/bin/quire" --version | grep -q '^quire '
# The installed CLI finds its PDF module (<libdir>/quire/quire-pdf.so) from its own folder.
if [ -f "$BIN/quire-pdf.so" ]; then
    test -f "$tmp/prefix/lib/quire/quire-pdf.so"
    echo '{"blocks":[{"type":"paragraph","text":"installed pdf"}]}' > "$tmp/spec.json"
    "$tmp/prefix/bin/quire" render "$tmp/spec.json" -o "$tmp/out.pdf" | grep -q '"pages":1'
    pdftotext "$tmp/out.pdf" - | grep -q 'installed pdf'
    # without its module the CLI answers exit 3 ("not built") and writes nothing
    mkdir "$tmp/alone" && cp "$BIN/quire" "$tmp/alone/"
    set +e
    "$tmp/alone/quire" render "$tmp/spec.json" -o "$tmp/alone/out.pdf" > "$tmp/alone/res.json"
    rc=$?
    set -e
    test "$rc" = 3 && grep -q 'not built' "$tmp/alone/res.json" && test ! -e "$tmp/alone/out.pdf"
    # html starts without cairo and pango
    if ldd "$tmp/prefix/bin/quire" | grep -Eq 'libcairo|libpango'; then
        echo "the CLI links cairo or pango"; exit 1
    fi
fi
for h in quire.h store.h error.h export.h; do test -f "$tmp/prefix/include/quire/$h"; done
# nothing of quire lands directly in <includedir>
test "$(ls "$tmp/prefix/include")" = quire
# the installed headers are self-contained: no pointer to files outside the
# install (DESIGN.md, spec/...), no internal declaration (qr_fail)
if grep -nE 'DESIGN\.md|qr_fail|(spec|core|layout|render|store|ooxml|pdf)/[a-z_]+\.[ch]\b' \
    "$tmp/prefix/include/quire/"*.h; then
  echo "an installed header points inside the source tree or declares an internal name"; exit 1
fi
echo "1 passed, 0 failed"
