/* fuzz_compile.c: bytes through the spec compiler for every kind, and
 * through the canonical formatter. The first byte picks the kind. The JSON
 * reader (spec/json_parse.c) is also checked against jansson's own loader:
 * on valid UTF-8 both accept or both reject, and accepted values are equal.
 * Spreadsheets are compiled streamed too (spec/stream.h, both passes): unless
 * the stream hands the spec to the tree path, the status, every error and
 * warning, and every sheet and row must be the tree path's. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "compile_int.h"
#include "json_parse.h"
#include "stream.h"

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

typedef struct mem {
    const char *p;
    size_t left;
} mem;

static size_t mem_read(void *ctx, char *buf, size_t size)
{
    mem *m = ctx;
    size_t n = size < m->left ? size : m->left;
    memcpy(buf, m->p, n);
    m->p += n;
    m->left -= n;
    return n;
}

static void same_errors(const qr_errlist *a, const qr_errlist *b)
{
    if (a->count != b->count) __builtin_trap();
    for (size_t i = 0; i < a->count; i++) {
        const qr_error *x = &a->items[i], *y = &b->items[i];
        if (x->code != y->code || strcmp(x->path, y->path) || strcmp(x->message, y->message) ||
            strcmp(x->hint ? x->hint : "", y->hint ? y->hint : ""))
            __builtin_trap();
    }
}

static void same_row(const qr_row *a, const qr_row *b)
{
    if (a->n != b->n) __builtin_trap();
    for (uint32_t c = 0; c < a->n; c++) {
        const qr_cell *x = &a->cells[c], *y = &b->cells[c];
        if (x->type != y->type || x->fmt != y->fmt) __builtin_trap();
        if (x->type == QR_CELL_TEXT && (x->len != y->len || memcmp(x->v.str, y->v.str, x->len)))
            __builtin_trap();
        if ((x->type == QR_CELL_NUMBER || x->type == QR_CELL_DATE || x->type == QR_CELL_BOOL) &&
            memcmp(&x->v.num, &y->v.num, sizeof x->v.num))
            __builtin_trap();
        if (x->type == QR_CELL_FORMULA && strcmp(x->v.formula->text, y->v.formula->text))
            __builtin_trap();
    }
}

/* Pass 2's rows against the tree's. */
static int same_streamed_row(void *ctx, size_t i, size_t r, const qr_row *row)
{
    const qr_doc *tree = ctx;
    const qr_sheet *sh = &tree->sheets[i];
    same_row(&sh->rows[sh->stream_from + r], row);
    return 0;
}

static void same_as_tree(const char *spec, size_t len)
{
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    o.base_dir = NULL;
    qr_errlist e1 = {0}, w1 = {0}, e2 = {0}, w2 = {0};
    o.warnings = &w1;
    qr_doc *tree = NULL, *doc = NULL;
    qr_status st1 = qr_compile(spec, len, QR_KIND_SPREADSHEET, &o, &tree, &e1);
    o.warnings = &w2;
    qr_stream *s = qr_stream_new();
    mem m = {spec, len};
    qr_status st2;
    if (s && qr_stream_compile(s, mem_read, &m, &o, 1, &doc, &e2, &st2)) {
        if (st1 != st2) __builtin_trap();
        same_errors(&e1, &e2);
        same_errors(&w1, &w2);
        if (st1 == QR_OK) {
            if (tree->n_sheets != doc->n_sheets || tree->n_formats != doc->n_formats)
                __builtin_trap();
            for (size_t f = 0; f < tree->n_formats; f++)
                if (strcmp(tree->formats[f], doc->formats[f])) __builtin_trap();
            for (size_t i = 0; i < tree->n_sheets; i++) {
                const qr_sheet *a = &tree->sheets[i], *b = &doc->sheets[i];
                if (strcmp(a->name, b->name) || a->n_rows != b->n_rows || a->n_cols != b->n_cols ||
                    a->header != b->header || a->freeze_row != b->freeze_row ||
                    a->freeze_col != b->freeze_col ||
                    (qr_stream_needed(doc) && (!b->streamed || b->n_held > a->n_rows)))
                    __builtin_trap();
                for (size_t r = 0; b->streamed && r < b->n_held; r++)
                    same_row(&a->rows[r], &b->rows[r]);
            }
            /* tree's sheets read with the streamed offsets */
            for (size_t i = 0; i < tree->n_sheets; i++)
                ((qr_sheet *)tree->sheets)[i].stream_from = doc->sheets[i].stream_from;
            m = (mem){spec, len};
            if (qr_stream_needed(doc) &&
                qr_stream_rows(s, doc, mem_read, &m, 0, same_streamed_row, tree) != QR_OK)
                __builtin_trap();
        }
    }
    qr_stream_free(s);
    qr_doc_free(tree);
    qr_doc_free(doc);
    qr_errlist_clear(&e1);
    qr_errlist_clear(&w1);
    qr_errlist_clear(&e2);
    qr_errlist_clear(&w2);
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
    if (kind == QR_KIND_SPREADSHEET) same_as_tree(spec, len);

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
