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
#include <quire.h>
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
"$tmp/use"
test -x "$tmp/prefix/bin/quire"
"$tmp/prefix/bin/quire" --version | grep -q '^quire '
for h in quire.h quire_store.h error.h quire_export.h; do test -f "$tmp/prefix/include/quire/$h"; done
echo "1 passed, 0 failed"
