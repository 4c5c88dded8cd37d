/* fuzz_compile.c: bytes through the spec compiler for every kind, and
 * through the canonical formatter. The first byte picks the kind. The JSON
 * reader (spec/json_parse.c) is also checked against jansson's own loader:
 * on valid UTF-8 both accept or both reject, and accepted values are equal. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compile_int.h"
#include "json_parse.h"

static void same_as_jansson(const char *text, size_t len)
{
    if (qr_utf8_check(text, len) != (size_t)-1) return; /* the reader's promise */
    if (memchr(text, '\0', len)) return; /* jansson skips raw NUL bytes; quire rejects them */
    size_t open = 0;
    for (size_t i = 0; i < len; i++)
        open += text[i] == '[' || text[i] == '{';
    if (open > QR_JP_MAX_DEPTH - 8) return; /* the two count depth a little differently */
    json_t *want =
        json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
    qr_jp_error e;
    json_t *got = qr_jp_loadb(text, len, &e);
    if (!want != !got || (want && !json_equal(want, got))) __builtin_trap();
    json_decref(want);
    json_decref(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    qr_kind kind = (qr_kind)(data[0] % QR_KIND_COUNT);
    const char *spec = (const char *)data + 1;
    size_t len = size - 1;
    same_as_jansson(spec, len);
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    o.base_dir = NULL; /* never touch the file system */
    qr_errlist errs = {0}, warns = {0};
    o.warnings = &warns; /* the warnings for likely mistakes (compile_warn.c) too */
    qr_doc *doc = NULL;
    qr_compile(spec, len, kind, &o, &doc, &errs);
    qr_doc_free(doc);
    qr_errlist_clear(&errs);
    qr_errlist_clear(&warns);

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
