/* fuzz_markdown.c: bytes as Markdown through every path that reads it. The
 * first byte picks: '0' a document (qr_md_spec, then the compiler: the
 * markdown block compiled in place, with warnings), '1' a deck (slides
 * split at headings and breaks, each "markdown" body compiled), '2' the
 * blocks written out (`quire read x.md`) compiled as a spec of their own,
 * which must compile exactly when '0' does (the same blocks), '3' the
 * blocks alone with heading_offset 2 and nesting limited to 3. Any crash,
 * leak, hang or disagreement is a finding. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "markdown.h"

static qr_status compile(const char *spec, size_t len, qr_kind kind)
{
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    qr_errlist errs = {0}, warns = {0};
    o.warnings = &warns;
    qr_doc *doc = NULL;
    qr_status st = qr_compile(spec, len, kind, &o, &doc, &errs);
    if ((st == QR_OK) != (doc != NULL)) __builtin_trap();
    qr_doc_free(doc);
    qr_errlist_clear(&errs);
    qr_errlist_clear(&warns);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    int sel = data[0] & 3;
    const char *md = (const char *)data + 1;
    size_t n = size - 1;
    qr_errlist errs = {0};
    size_t len = 0;
    if (sel == 3) {
        qr_md_opts o = {.heading_offset = 2, .max_depth = 3, .path = "/x"};
        qr_md_loc *locs = NULL;
        json_t *bl = qr_md_blocks(md, n, &o, &locs, &errs);
        if (!bl != (errs.count > 0)) __builtin_trap();
        json_decref(bl);
        free(locs);
        qr_errlist_clear(&errs);
        return 0;
    }
    qr_kind kind = sel == 1 ? QR_KIND_PRESENTATION : QR_KIND_DOCUMENT;
    char *spec = qr_md_spec(md, n, kind, 0, &len, &errs);
    if (!spec != (errs.count > 0)) __builtin_trap();
    qr_errlist_clear(&errs);
    if (!spec) return 0;
    qr_status a = compile(spec, len, kind);
    free(spec);
    if (sel == 2) {
        char *blocks = qr_md_spec(md, n, kind, 1, &len, &errs);
        qr_errlist_clear(&errs);
        if (blocks) {
            qr_status b = compile(blocks, len, kind);
            /* the blocks compile exactly when the markdown block does */
            if ((a == QR_OK) != (b == QR_OK)) __builtin_trap();
            free(blocks);
        } else if (a == QR_OK) {
            __builtin_trap();
        }
    }
    return 0;
}
