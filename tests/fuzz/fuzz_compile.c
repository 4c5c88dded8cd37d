/* fuzz_compile.c: bytes through the spec compiler for every kind, and
 * through the canonical formatter. The first byte picks the kind. */
#include <stddef.h>
#include <stdint.h>

#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    qr_kind kind = (qr_kind)(data[0] % QR_KIND_COUNT);
    const char *spec = (const char *)data + 1;
    size_t len = size - 1;
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    o.base_dir = NULL; /* never touch the file system */
    qr_errlist errs = {0};
    qr_doc *doc = NULL;
    qr_compile(spec, len, kind, &o, &doc, &errs);
    qr_doc_free(doc);
    qr_errlist_clear(&errs);

    qr_buf out = {0};
    if (qr_canonical(spec, len, &out, &errs) == QR_OK) {
        /* fmt(fmt(x)) == fmt(x) */
        qr_buf again = {0};
        qr_errlist e2 = {0};
        if (qr_canonical(out.data, out.len, &again, &e2) != QR_OK || again.len != out.len ||
            __builtin_memcmp(again.data, out.data, out.len) != 0)
            __builtin_trap();
        qr_buf_free(&again);
        qr_errlist_clear(&e2);
    }
    qr_buf_free(&out);
    qr_errlist_clear(&errs);
    return 0;
}
