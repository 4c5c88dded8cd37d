/* stream.c: the two passes of stream.h over a spreadsheet spec.
 *
 * Pass 1 compiles each row with a compile context of its own (rc), whose
 * errors and warnings go to the row's sheet record (qr_srows) and are
 * replayed into the main context by qr_cc_stream_replay() when the sheet is
 * compiled, with the same caps the main context applies. Kept rows live in
 * the document's arena; the others in a scratch arena emptied every
 * SCRATCH_ROWS rows. Pass 2 compiles the rows again into the scratch arena
 * and hands them on.
 */
#include "stream.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "json_parse.h"

#define SCRATCH_ROWS 4096u

struct qr_stream {
    qr_cc_stream cs;
    qr_doc *doc;      /* pass 1's document until the compiler takes it */
    qr_cc rc;         /* the rows' compile context */
    qr_limits lim;    /* the rows' limits: cells are counted at the replay */
    qr_arena scratch; /* rows not kept */
    size_t in_scratch;
    size_t cur; /* the sheet rc reports to, or SIZE_MAX */
    size_t max_depth;
    size_t hold;       /* rows kept per sheet: QR_STREAM_HOLD, or all (QR_STREAM_ALL) */
    qr_errlist *warns; /* pass 1: the caller wants warnings */
    /* pass 2 */
    const qr_doc *out;
    size_t *seen; /* rows handed on, per sheet */
    qr_row_emit emit;
    void *ectx;
    qr_status st2;
    char why[160];
};

qr_stream *qr_stream_new(void)
{
    qr_stream *s = calloc(1, sizeof *s);
    if (s) s->cur = SIZE_MAX;
    return s;
}

void qr_stream_free(qr_stream *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->cs.n_sheets; i++) {
        free(s->cs.sheets[i].held);
        qr_errlist_clear(&s->cs.sheets[i].errs);
        qr_errlist_clear(&s->cs.sheets[i].warns);
    }
    free(s->cs.sheets);
    qr_cc_fmts_free(&s->cs.fmts);
    qr_doc_free(s->doc);
    qr_arena_free(&s->scratch);
    free(s->rc.path);
    free(s->rc.cnotes);
    free(s->rc.fnames);
    free(s->seen);
    free(s);
}

/* ---- pass 1 -------------------------------------------------------------------------- */

/* The record of sheet i, growing the table. */
static qr_srows *record(qr_stream *s, size_t i)
{
    if (i >= s->cs.n_sheets) {
        size_t n = i + 1 > s->cs.n_sheets * 2 ? i + 1 : s->cs.n_sheets * 2;
        qr_srows *t = realloc(s->cs.sheets, n * sizeof *t);
        if (!t) return NULL;
        memset(t + s->cs.n_sheets, 0, (n - s->cs.n_sheets) * sizeof *t);
        s->cs.sheets = t;
        s->cs.n_sheets = n;
    }
    return &s->cs.sheets[i];
}

/* rc reports to sheet i from here on: its counters and path are the sheet's. */
static void to_sheet(qr_stream *s, size_t i, qr_srows *sr)
{
    if (s->cur == i) return;
    s->cur = i; /* take_row keeps the old sheet's counters current */
    s->rc.errs = &sr->errs;
    s->rc.warns = s->warns ? &sr->warns : NULL;
    s->rc.n_errors = sr->n_errors;
    s->rc.n_suppressed = sr->n_suppressed;
    s->rc.n_warnings = sr->n_warnings;
    s->rc.limit = sr->limit;
    qr_cc_pop(&s->rc, 0);
    qr_cc_push_key(&s->rc, "sheets");
    qr_cc_push_index(&s->rc, i);
    qr_cc_push_key(&s->rc, "rows");
}

/* Containers nested in v, v included. */
static size_t depth_of(const json_t *v)
{
    size_t most = 0;
    if (json_is_array(v)) {
        for (size_t k = 0; k < json_array_size(v); k++) {
            size_t d = depth_of(json_array_get(v, k));
            if (d > most) most = d;
        }
    } else if (json_is_object(v)) {
        const char *key;
        json_t *m;
        json_object_foreach((json_t *)v, key, m)
        {
            size_t d = depth_of(m);
            if (d > most) most = d;
        }
    } else {
        return 0;
    }
    return most + 1;
}

/* Compile into the arena a (the document's or the scratch one). */
static void use_arena(qr_stream *s, qr_arena *a)
{
    if (s->rc.a == a) return;
    s->rc.a = a;
    s->rc.pool = NULL;
    s->rc.pool_left = 0;
}

/* After SCRATCH_ROWS rows in the scratch arena, empty it. */
static void scratch_done(qr_stream *s)
{
    if (++s->in_scratch < SCRATCH_ROWS) return;
    s->in_scratch = 0;
    if (s->rc.a == &s->scratch) s->rc.pool = NULL, s->rc.pool_left = 0;
    qr_arena_free(&s->scratch);
}

static int needs_eval(const qr_row *row)
{
    for (uint32_t c = 0; c < row->n; c++)
        if (row->cells[c].type == QR_CELL_FORMULA && !row->cells[c].v.formula->has_value) return 1;
    return 0;
}

/* The element hook of pass 1: rows[r] of sheet i. */
static int take_row(void *ctx, size_t i, size_t r, json_t *row)
{
    qr_stream *s = ctx;
    qr_srows *sr = record(s, i);
    if (!sr) {
        json_decref(row);
        return -1;
    }
    to_sheet(s, i, sr);
    /* root, sheets, the sheet and rows hold the row: 4 levels above it */
    if (s->max_depth && s->max_depth <= 2048 && 4 + depth_of(row) > s->max_depth)
        s->cs.fallback = 1;
    qr_row tmp = {0}, *dst = &tmp;
    if (r < s->hold) {
        if (r == sr->cap_held) {
            size_t cap = sr->cap_held ? sr->cap_held * 2 : 256;
            if (cap > s->hold) cap = s->hold;
            qr_row *h = realloc(sr->held, cap * sizeof *h);
            if (!h) {
                json_decref(row);
                return -1;
            }
            sr->held = h;
            sr->cap_held = cap;
        }
        dst = &sr->held[r];
        *dst = (qr_row){0};
        sr->n_held = r + 1;
        use_arena(s, &s->doc->arena);
    } else {
        use_arena(s, &s->scratch);
    }
    size_t before = s->rc.n_cells;
    qr_cc_sheet_row(&s->rc, &s->cs.fmts, row, r, dst, &sr->n_cols);
    json_decref(row);
    sr->cells += s->rc.n_cells - before;
    if (dst->outline > sr->outline) sr->outline = dst->outline;
    sr->n_json = r + 1;
    sr->n_errors = s->rc.n_errors; /* the replay reads them: keep them current */
    sr->n_suppressed = s->rc.n_suppressed;
    sr->n_warnings = s->rc.n_warnings;
    sr->limit = s->rc.limit;
    if (!s->cs.all && needs_eval(dst)) s->cs.fallback = 1; /* with all rows kept, it can */
    if (s->rc.policy_later) s->cs.fallback = 1; /* "allow_external" decides: the tree path */
    if (s->rc.n_cnotes || s->rc.n_fnames)
        s->cs.fallback = 1; /* links and comments: the tree path keeps them */
    if (r >= s->hold) scratch_done(s);
    return s->rc.nomem ? -1 : 0;
}

const qr_srows *qr_cc_stream_rows(qr_cc *cc, size_t i)
{
    qr_cc_stream *cs = cc->stream;
    if (!cs || i >= cs->n_sheets || cs->sheets[i].n_json == 0) return NULL;
    return &cs->sheets[i];
}

void qr_cc_stream_replay(qr_cc *cc, const qr_srows *sr, qr_row *out)
{
    /* as compile_cc.c's add(): past QR_CC_MAX_ERRORS only counted */
    for (size_t k = 0; k < sr->errs.count; k++) {
        const qr_error *e = &sr->errs.items[k];
        cc->n_errors++;
        if (e->code == QR_E_LIMIT) cc->limit = 1;
        if (cc->n_errors > QR_CC_MAX_ERRORS)
            cc->n_suppressed++;
        else
            qr_errlist_add(cc->errs, e->code, e->path, e->message, e->hint);
    }
    cc->n_errors += sr->n_suppressed;
    cc->n_suppressed += sr->n_suppressed;
    if (sr->limit) cc->limit = 1;
    if (sr->errs.oom) cc->nomem = 1;
    /* as compile_warn.c: a warning is recorded while fewer than the cap were */
    if (cc->warns) {
        for (size_t k = 0; k < sr->warns.count; k++) {
            const qr_error *w = &sr->warns.items[k];
            if (cc->n_warnings++ < QR_CC_MAX_WARNINGS)
                qr_errlist_add(cc->warns, QR_OK, w->path, w->message, w->hint);
        }
        cc->n_warnings += sr->n_warnings - sr->warns.count;
    }
    /* The tree path stops a sheet's rows where max_cells is passed: which
     * errors it reports then depends on the order, so it compiles this one. */
    if (cc->cells_over || (cc->lim->max_cells && cc->n_cells + sr->cells > cc->lim->max_cells))
        cc->stream->fallback = 1;
    else
        cc->n_cells += sr->cells;
    if (sr->n_held) memcpy(out, sr->held, sr->n_held * sizeof *out);
}

int qr_stream_compile(qr_stream *s, qr_read_fn read, void *ctx, const qr_compile_opts *opts,
                      int how, qr_doc **doc, qr_errlist *errs, qr_status *st)
{
    *doc = NULL;
    int force = how & QR_STREAM_FORCE;
    s->cs.all = (how & QR_STREAM_ALL) != 0;
    s->hold = s->cs.all ? SIZE_MAX : QR_STREAM_HOLD;
    qr_arena a = {0};
    s->doc = qr_arena_alloc(&a, sizeof *s->doc);
    if (!s->doc) {
        qr_arena_free(&a);
        return 0;
    }
    s->doc->arena = a;
    s->lim = opts->limits;
    s->lim.max_cells = 0;
    s->max_depth = opts->limits.max_depth;
    s->cs.fmts.a = &s->doc->arena;
    if (qr_cc_fmt_add(&s->cs.fmts, "General", 7) != 0) return 0;
    s->rc = (qr_cc){.doc = s->doc,
                    .a = &s->doc->arena,
                    .lim = &s->lim,
                    .base_dir = opts->base_dir,
                    .kind = QR_KIND_SPREADSHEET,
                    .allow_external = -1};
    qr_errlist e1 = {0}, w1 = {0};
    s->warns = opts->warnings ? &w1 : NULL;
    qr_compile_opts o = *opts;
    o.warnings = s->warns;
    qr_jp_hook hook = {"sheets", "rows", take_row, s};
    *st = qr_compile_stream(read, ctx, &o, &s->cs, &s->doc, &hook, doc, &e1);
    if (s->cs.fallback) {
        qr_doc_free(*doc);
        *doc = NULL;
        qr_errlist_clear(&e1);
        qr_errlist_clear(&w1);
        return 0;
    }
    qr_errlist_move(errs, &e1);
    if (opts->warnings) qr_errlist_move(opts->warnings, &w1);
    if (*st != QR_OK || !*doc || s->cs.all) return 1;
    /* Stream when some sheet has rows that were not kept (or when asked):
     * then every sheet, so one reader writes them all, in order. */
    qr_sheet *ss = (qr_sheet *)(*doc)->sheets;
    int any = 0;
    for (size_t i = 0; i < (*doc)->n_sheets; i++) {
        const qr_srows *sr = i < s->cs.n_sheets ? &s->cs.sheets[i] : NULL;
        if (sr && sr->n_json && (force || sr->n_json > sr->n_held)) any = 1;
    }
    for (size_t i = 0; any && i < (*doc)->n_sheets; i++) {
        const qr_srows *sr = i < s->cs.n_sheets ? &s->cs.sheets[i] : NULL;
        ss[i].streamed = 1;
        if (!sr || !sr->n_json) { /* nothing streamed: every row is held */
            ss[i].n_held = ss[i].n_rows;
            ss[i].stream_from = ss[i].n_rows;
        }
    }
    return 1;
}

int qr_stream_needed(const qr_doc *doc)
{
    return doc && doc->n_sheets && doc->sheets[0].streamed;
}

/* ---- pass 2 -------------------------------------------------------------------------- */

static int changed(qr_stream *s, const char *why)
{
    if (s->st2 == QR_OK) {
        s->st2 = QR_E_SPEC;
        snprintf(s->why, sizeof s->why, "%s", why);
    }
    return -1;
}

/* The element hook of pass 2. */
static int emit_row(void *ctx, size_t i, size_t r, json_t *row)
{
    qr_stream *s = ctx;
    const qr_doc *doc = s->out;
    if (i >= doc->n_sheets || r != s->seen[i] ||
        r >= doc->sheets[i].n_rows - doc->sheets[i].stream_from) {
        json_decref(row);
        return changed(s, "it has other rows than when it was checked");
    }
    qr_row tmp = {0};
    size_t n_cols = 0, n_formats = s->cs.fmts.n, n_looks = s->cs.fmts.n_keys;
    int bad = qr_cc_sheet_row(&s->rc, &s->cs.fmts, row, r, &tmp, &n_cols) < 0;
    json_decref(row);
    if (bad || s->rc.n_errors || s->rc.nomem || s->cs.fmts.n != n_formats ||
        s->cs.fmts.n_keys != n_looks || n_cols > doc->sheets[i].n_cols)
        return changed(s,
                       s->rc.nomem ? "out of memory" : "its rows changed since they were checked");
    s->seen[i]++;
    int stop = s->emit(s->ectx, i, r, &tmp);
    scratch_done(s);
    if (stop) {
        if (s->st2 == QR_OK) s->st2 = QR_E_RENDER;
        return -1;
    }
    return 0;
}

qr_status qr_stream_rows(qr_stream *s, const qr_doc *doc, qr_read_fn read, void *ctx,
                         size_t max_input, qr_row_emit emit, void *ectx)
{
    s->out = doc;
    s->emit = emit;
    s->ectx = ectx;
    s->st2 = QR_OK;
    s->why[0] = '\0';
    free(s->seen);
    s->seen = calloc(doc->n_sheets ? doc->n_sheets : 1, sizeof *s->seen);
    if (!s->seen) return QR_E_NOMEM;
    qr_errlist errs = {0};
    free(s->rc.path);
    free(s->rc.cnotes);
    free(s->rc.fnames);
    s->rc = (qr_cc){.doc = (qr_doc *)doc,
                    .a = &s->scratch,
                    .errs = &errs,
                    .lim = &s->lim,
                    .kind = QR_KIND_SPREADSHEET,
                    .allow_external = 1}; /* pass 1 checked the formulas */
    qr_cc_push_key(&s->rc, "sheets");
    s->in_scratch = 0;
    qr_jp_hook hook = {"sheets", "rows", emit_row, s};
    qr_status st;
    json_t *root = qr_json_read_hook(read, ctx, max_input, 0, &hook, &errs, &st);
    json_decref(root);
    qr_errlist_clear(&errs);
    qr_arena_free(&s->scratch);
    if (qr_json_alloc_on()) qr_json_alloc_thread_done();
    if (s->st2 != QR_OK) return s->st2;
    if (!root) {
        if (st == QR_E_IO) return QR_E_IO;
        changed(s, "it is no longer the JSON that was checked");
        return s->st2;
    }
    for (size_t i = 0; i < doc->n_sheets; i++)
        if (s->seen[i] != doc->sheets[i].n_rows - doc->sheets[i].stream_from) {
            changed(s, "it has other rows than when it was checked");
            return s->st2;
        }
    return QR_OK;
}

const char *qr_stream_why(const qr_stream *s)
{
    return s->why;
}
