/* pdf.c: the PDF and PNG backends (cairo + pango + HarfBuzz).
 *
 * Passes (like cairo's paginated surfaces: measure, then paint):
 *
 *   1. measure (layout.c): every block of the tree becomes a pd_block; each
 *      text is itemized by fonts/ (one family per script span), turned into a
 *      PangoLayout at its final width (text column, list indent, table
 *      column) and its lines measured once. Pango shapes with HarfBuzz, runs
 *      bidi (fribidi) and breaks lines (UAX #14). A big document is measured
 *      on two threads: the blocks are cut into chunks of about equal text
 *      that this thread and a helper with its own PangoContext claim in
 *      order (the output does not depend on who measured what).
 *   2. paginate (layout.c): a cursor walks the measured blocks and emits
 *      positioned boxes (pd_op: text lines, fills, grid lines, images,
 *      outline destinations) page by page. Text breaks between lines (with
 *      widow and orphan control); a table row moves whole to the next page
 *      with the header row repeated (a row taller than a page continues line
 *      by line); a heading keeps with the next block. The page count is
 *      known here.
 *   3. paint (paint.c): PDF replays every page's boxes on a cairo PDF surface,
 *      with the footer "N / M", link annotations and the outline (for a big
 *      document, a helper thread does pango's half of each page ahead of the
 *      main thread, which replays the recorded cairo calls: replay.c); PNG replays
 *      one page (ctx->png_page) on an image surface at ctx->png_dpi, from a
 *      layout kept per thread so `--pages all` lays the document out once.
 *
 * Typography: DejaVu Sans 11 pt body (fonts/ picks the family per script),
 * title 24 pt bold centred, headings 20/16/14/12/11/11 pt bold (level 6 bold
 * italic), tables 10 pt with a shaded bold header row and 0.5 pt grid, code
 * 9 pt DejaVu Sans Mono on a light grey box. List markers cycle by depth:
 * bullets "•", "◦", "▪"; ordered lists "1.", "a.", "i." (as Word and browsers
 * do; no "1.1" outline numbering). Right-to-left paragraphs are right
 * aligned, RTL list items hang from the right edge, and a table whose first
 * strong text is RTL runs its columns right to left. JPEG images go into the
 * PDF as their own bytes (DCTDecode); a PNG preview, having no JPEG decoder,
 * draws a light box with the alt text in their place.
 *
 * Same spec, same bytes: the PDF dates come from ctx->epoch, pango runs with
 * hinting off and unrounded glyph positions (so the PDF and the PNG share one
 * layout whatever the resolution), cairo's font subset tags derive from the
 * subset's content, and nothing depends on the locale or on time.
 *
 * Threads: a PangoFontMap is not thread-safe, so each thread holds its own
 * (borrowed from a pool on first use, returned when the thread exits, freed
 * only at process exit); fontconfig's configuration underneath is shared.
 * Each render has its own PangoContext.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-pdf.h>

#include "backend.h"
#include "pdf_int.h"
#include "sha256.h"
#include "simple_text.h"
#include "thread.h"
#include "walk.h"
#include "preview.h"

qr_status qr_pdf_fail(pd_ctx *c, qr_status st, const char *path, const char *fmt, ...)
{
    if (c->status != QR_OK) return c->status;
    c->status = qr_fail(st);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    qr_errlist_add(c->rc->errors, st, path ? path : "", msg, NULL);
    return st;
}

/* ---- per-thread font map ---------------------------------------------------------- */

/* A thread borrows a font map on first use and gives it back to a pool when
 * it exits; maps are destroyed only at process exit. Destroying one while
 * another thread renders is not safe with cairo 1.16: the last unref closes
 * FreeType faces that cairo-ft shares between font maps (seen as a crash in
 * cairo_scaled_font_glyph_extents on the main thread while a finished
 * measuring thread dropped its map). Reuse also spares a new thread the
 * font map's warm-up. */
static pthread_key_t map_key;
static pthread_once_t map_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static PangoFontMap **pool_free; /* maps no thread holds */
static size_t pool_n_free;
static PangoFontMap **pool_all; /* every map made, for the exit */
static size_t pool_n_all, pool_cap;

/* Thread exit: the map goes back to the pool, alive. */
static void map_release(void *p)
{
    if (!p) return;
    pthread_mutex_lock(&pool_lock);
    pool_free[pool_n_free++] = p; /* pool_free has room for every map made */
    pthread_mutex_unlock(&pool_lock);
}

/* LeakSanitizer's runtime, when the process has one (an ASan build). */
void __lsan_enable(void) __attribute__((weak));

/* Process exit under LeakSanitizer: every map is dropped, so that it sees
 * them freed (fontconfig points from a pattern to its elements by offset,
 * so a live map's patterns look leaked to it). Without one the maps are
 * left to the process's end, which takes their memory back at once:
 * dropping them one object at a time cost 1.0 ms of a D1r docx render's
 * exit (median of 20 runs), on the path every render waits for. No render
 * may run then. */
static void maps_at_exit(void)
{
    pthread_mutex_lock(&pool_lock);
    for (size_t i = 0; i < pool_n_all; i++)
        g_object_unref(pool_all[i]);
    free(pool_all);
    free(pool_free);
    pool_all = pool_free = NULL;
    pool_n_all = pool_n_free = pool_cap = 0;
    pthread_mutex_unlock(&pool_lock);
}

static void map_key_init(void)
{
    pthread_key_create(&map_key, map_release);
    if (__lsan_enable) atexit(maps_at_exit);
}

/* Room for one more map in both lists; 0 or -1 (pool_lock held). */
static int pool_grow(void)
{
    if (pool_n_all < pool_cap) return 0;
    size_t cap = pool_cap ? pool_cap * 2 : 8;
    PangoFontMap **all = realloc(pool_all, cap * sizeof *all);
    if (!all) return -1;
    pool_all = all;
    PangoFontMap **fr = realloc(pool_free, cap * sizeof *fr);
    if (!fr) return -1;
    pool_free = fr;
    pool_cap = cap;
    return 0;
}

/* The calling thread's font map: its own, one from the pool, or a new one. */
static PangoFontMap *thread_font_map(void)
{
    pthread_once(&map_once, map_key_init);
    PangoFontMap *m = pthread_getspecific(map_key);
    if (m) return m;
    pthread_mutex_lock(&pool_lock);
    if (pool_n_free) {
        m = pool_free[--pool_n_free];
    } else if (pool_grow() == 0 && (m = pango_cairo_font_map_new()) != NULL) {
        pango_cairo_font_map_set_resolution(PANGO_CAIRO_FONT_MAP(m), 72.0);
        pool_all[pool_n_all++] = m;
    }
    pthread_mutex_unlock(&pool_lock);
    if (m) pthread_setspecific(map_key, m);
    return m;
}

/* ---- context ------------------------------------------------------------------------ */

/* Page geometry and inputs: everything but pango. */
static void ctx_geom(pd_ctx *c, qr_render_ctx *rc, int for_png)
{
    memset(c, 0, sizeof *c);
    c->rc = rc;
    c->doc = rc->doc;
    c->style = qr_style_of(rc->doc);
    c->fonts = rc->fonts ? rc->fonts : qr_fonts_default();
    c->lang = rc->doc->lang;
    qr_text_ctx_init(&c->text, c->fonts, c->lang, rc->warnings);
    c->text.segs.spans.cjk_lang = qr_fonts_doc_cjk_lang(rc->doc);
    c->text.body_face = c->style.body_face;
    c->for_png = for_png;

    const qr_page *pg = &rc->doc->page;
    c->page_w = pg->width > 0 ? pg->width : 612;
    c->page_h = pg->height > 0 ? pg->height : 792;
    c->left = pg->margin_left >= 0 ? pg->margin_left : 72;
    c->top = pg->margin_top >= 0 ? pg->margin_top : 72;
    double mr = pg->margin_right >= 0 ? pg->margin_right : 72;
    double mb = pg->margin_bottom >= 0 ? pg->margin_bottom : 72;
    c->width = c->page_w - c->left - mr;
    c->bottom = c->page_h - mb;
    /* Margins that leave (almost) no room are the compiler's to refuse;
     * here we only make sure the layout can make progress. */
    if (c->width < 36) {
        c->left = (c->page_w - 36) / 2 > 0 ? (c->page_w - 36) / 2 : 0;
        c->width = c->page_w - 2 * c->left;
    }
    if (c->bottom - c->top < 36) {
        c->top = (c->page_h - 36) / 2 > 0 ? (c->page_h - 36) / 2 : 0;
        c->bottom = c->page_h - c->top;
    }
}

/* Making a font map starts fontconfig (its XML configuration, ~27 M
 * instructions on a thread of pango's), and a docx's measure pass whose
 * texts are all simple and whose faces are answered from disk
 * (simple_text.c, face_answers.h) asks pango for no font: it never needs
 * one. So a context that only measures (layout_only) starts without a
 * font map and gets the thread's here, before pango loads its first font. */
void qr_pdf_fonts_ready(PangoContext *pc)
{
    if (pango_context_get_font_map(pc)) return;
    PangoFontMap *map = thread_font_map();
    if (map) pango_context_set_font_map(pc, map); /* else pango finds no font, as below */
}

void qr_pdf_context_setup(PangoContext *pc, const char *lang)
{
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    pango_cairo_context_set_font_options(pc, fo);
    cairo_font_options_destroy(fo);
    pango_cairo_context_set_resolution(pc, 72.0);
    pango_context_set_round_glyph_positions(pc, FALSE);
    pango_context_set_base_dir(pc, PANGO_DIRECTION_LTR);
    pango_context_set_language(pc, pango_language_from_string(lang ? lang : "en"));
}

/* The PangoContext: on the calling thread's font map, or (measuring alone)
 * on none until pango needs one (qr_pdf_fonts_ready). */
static qr_status ctx_pango(pd_ctx *c)
{
    int later = c->rc && c->rc->layout_only && !c->rc->fonts_ready;
    PangoFontMap *map = later ? NULL : thread_font_map();
    if (!later && !map) return qr_pdf_fail(c, QR_E_RENDER, "", "pango has no font map");
    c->pc = map ? pango_font_map_create_context(map) : pango_context_new();
    if (!c->pc) return qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
    qr_pdf_context_setup(c->pc, c->lang);
    return QR_OK;
}

static qr_status ctx_init(pd_ctx *c, qr_render_ctx *rc, int for_png)
{
    ctx_geom(c, rc, for_png);
    return ctx_pango(c);
}

static void pipe_free(pd_ctx *c);
static pd_ctx *pipe_footer_ctx(pd_ctx *c);
static void ctx_free(pd_ctx *c);

/* For the slide and sheet previews (preview.h). */
qr_status qr_pdf_ctx_open(pd_ctx *c, qr_render_ctx *rc, int for_png)
{
    return ctx_init(c, rc, for_png);
}

void qr_pdf_ctx_close(pd_ctx *c)
{
    ctx_free(c);
}

static void ctx_free(pd_ctx *c)
{
    pipe_free(c);
    if (c->helper) {
        ctx_free(c->helper);
        free(c->helper);
        c->helper = NULL;
    }
    qr_errlist_clear(&c->helper_warnings);
    qr_errlist_clear(&c->helper_errors);
    for (size_t i = 0; i < c->n_layouts; i++)
        if (c->layouts[i]) g_object_unref(c->layouts[i]);
    free(c->layouts);
    for (size_t i = 0; i < c->n_surfaces; i++)
        cairo_surface_destroy(c->surfaces[i]);
    free(c->surfaces);
    qr_simple_free(c->simple);
    if (c->pc) g_object_unref(c->pc);
    free(c->ops);
    free(c->page_start);
    free(c->seg_off);
    free(c->span_langs);
    qr_buf_free(&c->tbuf);
    qr_text_ctx_free(&c->text);
    qr_arena_free(&c->arena);
}

/* Unref a context's layouts (and its helper's) now: the rest goes with
 * ctx_free. */
static void drop_layouts(pd_ctx *c)
{
    pd_ctx *all[3] = {c, c->helper, pipe_footer_ctx(c)};
    for (size_t k = 0; k < 3; k++) {
        pd_ctx *x = all[k];
        for (size_t i = 0; x && i < x->n_layouts; i++)
            if (x->layouts[i]) g_object_unref(x->layouts[i]);
        if (x) x->n_layouts = 0;
    }
}

static void *drop_layouts_main(void *c)
{
    drop_layouts(c);
    return NULL;
}

static cairo_status_t sink_write(void *closure, const unsigned char *data, unsigned int len)
{
    return qr_sink_write(closure, data, len) == QR_OK ? CAIRO_STATUS_SUCCESS
                                                      : CAIRO_STATUS_WRITE_ERROR;
}

/* cairo's PDF surface writes in pieces of a few bytes (one per operator or
 * number); a file sink would make a write(2) for each. The PDF goes through
 * this buffer instead and reaches the sink in 64 KB pieces, the same bytes
 * in the same order. */
#define PDF_OUT_BUF (64 * 1024)

typedef struct out_buf {
    qr_sink *sink;
    size_t n;
    size_t total;     /* bytes cairo wrote so far */
    qr_buf *tail;     /* not NULL: keep what cairo writes here (tagged.c patches it) */
    qr_buf *page;     /* not NULL: keep what cairo writes for a page here (its footer: tagged.c) */
    pd_shifts shifts; /* what the pages' patches moved, for the cross-reference table */
    qr_pdf_dedup dd;  /* one key per image in a page's resources (xobjects.c) */
    struct pd_writer *writer; /* not NULL: pages and what lies between go to it */
    unsigned char data[PDF_OUT_BUF];
} out_buf;

/* Hand the buffered bytes to the sink; its sticky status. */
static qr_status out_flush(out_buf *ob)
{
    size_t n = ob->n;
    ob->n = 0;
    return n ? qr_sink_write(ob->sink, ob->data, n) : ob->sink->status;
}

static cairo_status_t out_put(out_buf *ob, const unsigned char *data, size_t len);
static int writer_failed(struct pd_writer *w);
static qr_buf *writer_loose(struct pd_writer *w);

/* What cairo writes, past the xobjects dedup (same lengths): counted, kept
 * for the tail or a page, or buffered to the sink. */
static cairo_status_t out_keep(void *closure, const unsigned char *data, unsigned int len)
{
    out_buf *ob = closure;
    if (ob->writer ? writer_failed(ob->writer) : ob->sink->status != QR_OK)
        return CAIRO_STATUS_WRITE_ERROR;
    ob->total += len;
    qr_buf *keep = ob->tail     ? ob->tail
                   : ob->page   ? ob->page
                   : ob->writer ? writer_loose(ob->writer)
                                : NULL;
    if (keep)
        return qr_buf_append(keep, data, len) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_NO_MEMORY;
    return out_put(ob, data, len);
}

/* Write len bytes out through the buffer (whatever cairo counted). */
static cairo_status_t out_put(out_buf *ob, const unsigned char *data, size_t len)
{
    if (len > PDF_OUT_BUF - ob->n) {
        if (out_flush(ob) != QR_OK) return CAIRO_STATUS_WRITE_ERROR;
        if (len >= PDF_OUT_BUF)
            return qr_sink_write(ob->sink, data, len) == QR_OK ? CAIRO_STATUS_SUCCESS
                                                               : CAIRO_STATUS_WRITE_ERROR;
    }
    memcpy(ob->data + ob->n, data, len);
    ob->n += len;
    return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t out_write(void *closure, const unsigned char *data, unsigned int len)
{
    out_buf *ob = closure;
    return qr_pdf_dedup_write(&ob->dd, data, len, out_keep, ob);
}

/* ---- one deflate per page -------------------------------------------------------------- */

/* The quire executable's qr_pdf_deflate_store() (pdf/memo/deflate_once.c),
 * or NULL (libquire): on around cairo_show_page(), cairo stores the page's
 * content stream and qr_pdf_artifact_page() deflates it, once. */
typedef void (*switch_fn)(int);
static switch_fn deflate_store, fast_printf;
static pthread_once_t switch_once = PTHREAD_ONCE_INIT;

/* And its qr_pdf_fast_printf() (pdf/memo/printf_fast.c), or NULL: on while
 * cairo writes (cairo_show_page(), cairo_surface_finish()), the numbers it
 * formats with snprintf are formatted by core/fixed.c, the same text. */
static void find_switches(void)
{
    deflate_store = (switch_fn)dlsym(RTLD_DEFAULT, "qr_pdf_deflate_store");
    fast_printf = (switch_fn)dlsym(RTLD_DEFAULT, "qr_pdf_fast_printf");
}

static void writing(int on)
{
    pthread_once(&switch_once, find_switches);
    if (fast_printf) fast_printf(on);
}

/* cairo_show_page(), the content stream stored when the executable can. */
static void show_page(cairo_t *cr)
{
    writing(1);
    if (deflate_store) deflate_store(1);
    cairo_show_page(cr);
    if (deflate_store) deflate_store(0);
    writing(0);
}

/* ---- the page writer ------------------------------------------------------------------ */

/* cairo's bytes for page p reach the sink through a thread of their own
 * for a big document: it makes the page's furniture artifacts (tagged.c:
 * inflate, scan, deflate again) and writes, while the main thread paints
 * page p + 1 and cairo writes it. Every byte cairo writes while the writer
 * runs is queued in order (a page's bytes, or a piece between pages), so
 * the sink sees the same bytes as without it; the shifts and the sink are
 * the writer's until it is joined. */
#define WR_MAX_QUEUED 32

typedef struct wr_item {
    qr_buf bytes;
    size_t at;   /* a page's: its first byte's offset in what cairo wrote */
    int is_page; /* 1: a page's bytes (made artifacts), 0: written as they are */
} wr_item;

typedef struct pd_writer {
    out_buf *ob;
    double top, bottom;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    wr_item *q; /* a ring of WR_MAX_QUEUED */
    size_t head, n;
    int closing;       /* no more items (under mu) */
    atomic_int failed; /* 0, or the writer's qr_status (QR_E_NOMEM, a sink failure) */
    qr_buf loose;      /* what cairo wrote outside a page since the last item (main thread) */
} pd_writer;

static void *writer_main(void *arg)
{
    pd_writer *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->mu);
        while (!w->n && !w->closing)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->n) {
            pthread_mutex_unlock(&w->mu);
            return NULL;
        }
        wr_item it = w->q[w->head];
        pthread_mutex_unlock(&w->mu);
        if (!atomic_load(&w->failed)) {
            if (it.is_page &&
                (it.bytes.oom ||
                 qr_pdf_artifact_page(&it.bytes, it.at, w->top, w->bottom, &w->ob->shifts) != 0))
                atomic_store(&w->failed, QR_E_NOMEM);
            else if (out_put(w->ob, (const unsigned char *)it.bytes.data, it.bytes.len) !=
                     CAIRO_STATUS_SUCCESS)
                atomic_store(&w->failed,
                             w->ob->sink->status != QR_OK ? w->ob->sink->status : QR_E_IO);
        }
        qr_buf_free(&it.bytes);
        pthread_mutex_lock(&w->mu);
        w->head = (w->head + 1) % WR_MAX_QUEUED;
        w->n--;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
    }
}

/* Queue bytes (taken over: *b is emptied) for the writer; waits while the
 * queue is full. */
static void writer_push(pd_writer *w, qr_buf *b, size_t at, int is_page)
{
    pthread_mutex_lock(&w->mu);
    while (w->n == WR_MAX_QUEUED)
        pthread_cond_wait(&w->cv, &w->mu);
    w->q[(w->head + w->n) % WR_MAX_QUEUED] = (wr_item){*b, at, is_page};
    w->n++;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    *b = (qr_buf){0};
}

/* The writer for ob's pages, or NULL (then the main thread writes them). */
static pd_writer *writer_start(out_buf *ob, double top, double bottom)
{
    pd_writer *w = calloc(1, sizeof *w);
    wr_item *q = calloc(WR_MAX_QUEUED, sizeof *q);
    if (!w || !q) {
        free(w);
        free(q);
        return NULL;
    }
    w->ob = ob;
    w->top = top;
    w->bottom = bottom;
    w->q = q;
    atomic_init(&w->failed, 0);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (qr_thread_create(&w->th, writer_main, w) != 0) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
        free(q);
        free(w);
        return NULL;
    }
    return w;
}

static int writer_failed(pd_writer *w)
{
    return atomic_load(&w->failed) != 0;
}

static qr_buf *writer_loose(pd_writer *w)
{
    return &w->loose;
}

/* Write what is queued, join the writer; its failure (QR_OK: none). */
static qr_status writer_stop(pd_writer *w)
{
    if (w->loose.len || w->loose.oom) {
        if (w->loose.oom) atomic_store(&w->failed, QR_E_NOMEM);
        writer_push(w, &w->loose, 0, 0);
    }
    pthread_mutex_lock(&w->mu);
    w->closing = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    qr_status st = (qr_status)atomic_load(&w->failed);
    qr_buf_free(&w->loose);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w->q);
    free(w);
    return st;
}

/* The sink's status when it failed, else a render failure for cairo's. */
static qr_status cairo_fail(pd_ctx *c, qr_sink *out, cairo_status_t cs)
{
    if (out->status != QR_OK) return c->status = out->status;
    if (cs == CAIRO_STATUS_NO_MEMORY) return qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
    return qr_pdf_fail(c, QR_E_RENDER, "", "cairo failed: %s", cairo_status_to_string(cs));
}

/* ---- pass 1: measure (on two threads for big documents), paginate ----------------------- */

/* Below this much text a second thread costs more (its own font map to
 * warm up) than it saves. */
#define PARALLEL_MIN_BYTES (96 * 1024)

/* Roughly the pango work a block takes: its text bytes (spec/walk.h
 * visits them; alt texts and chart labels are not counted: a block's own
 * estimate covers them). */
static int cost_text(void *ud, const qr_walk_text *t)
{
    if (t->role == QR_WALK_ALT || t->role == QR_WALK_CHART_TITLE || t->role == QR_WALK_LABEL)
        return 0;
    size_t *n = ud;
    *n += 16;
    for (size_t i = 0; i < t->text->n; i++)
        *n += t->text->runs[i].len;
    return 0;
}

static int cost_block(void *ud, const qr_block *b, int exit)
{
    size_t *n = ud;
    if (exit) return 0;
    if (b->type == QR_BLOCK_IMAGE) *n += 64;
    if (b->type == QR_BLOCK_PAGE_BREAK) *n += 1;
    if (b->type == QR_BLOCK_CHART) *n += 256 + 16 * b->u.chart.n_points * b->u.chart.n_series;
    return 0;
}

static size_t block_cost(const qr_block *b)
{
    size_t n = 0;
    qr_walker w = {.block = cost_block, .text = cost_text, .ud = &n};
    qr_block_walk(b, &w);
    return n;
}

/* The blocks go to the two threads in chunks of about equal text, claimed
 * in order from a shared counter, so neither thread waits for the other at
 * the end (a fixed half split left one idle for up to a third of the pass:
 * the helper also warms up its own font map). Each chunk's warnings are kept
 * apart and merged in document order afterwards. */
#define PAR_CHUNKS 64

typedef struct par {
    pd_block *out; /* block i goes to out[i] */
    size_t n_chunks;
    size_t *end;           /* chunk k: blocks [end[k-1], end[k]) */
    unsigned char *owner;  /* chunk k: 0 main, 1 helper */
    size_t *w_from, *w_to; /* chunk k: its warnings in its owner's list */
    atomic_size_t next;    /* the next chunk to claim */
    atomic_int stop;       /* a chunk failed: claim no more */
    size_t fail_chunk[2];  /* the chunk each thread failed in, or SIZE_MAX */
    pd_ctx *ctx[2];
    qr_errlist *warnings[2]; /* each thread's own */
    const pd_needs *needs;   /* the document's fonts (pin_document_faces) */
} par;

/* Claim chunks until none is left; returns when done or stopped. */
static void par_work(par *p, int who)
{
    pd_ctx *c = p->ctx[who];
    for (;;) {
        if (atomic_load(&p->stop)) return;
        size_t k = atomic_fetch_add(&p->next, 1);
        if (k >= p->n_chunks) return;
        size_t from = k ? p->end[k - 1] : 0, to = p->end[k];
        p->owner[k] = (unsigned char)who;
        p->w_from[k] = p->warnings[who]->count;
        qr_pdf_measure_blocks(c, p->out + from, from, to);
        p->w_to[k] = p->warnings[who]->count;
        if (c->status != QR_OK) {
            p->fail_chunk[who] = k;
            atomic_store(&p->stop, 1);
            return;
        }
    }
}

static void *helper_main(void *arg)
{
    par *p = arg;
    /* Without a PangoContext of its own the helper claims nothing and the
     * main thread measures every chunk. Its font map has none of the
     * document's fontsets yet: asking for them all at once lets fontconfig
     * sort them side by side. */
    if (ctx_pango(p->ctx[1]) != QR_OK) return NULL;
    qr_pdf_needs_prefetch(p->needs, p->ctx[1]->pc);
    par_work(p, 1);
    return NULL;
}

/* Bring both threads' warnings into rc, chunk by chunk in document order,
 * up to chunk last (where measuring failed, else the last chunk), as one
 * thread would have. (No "no installed font covers" warning can come from
 * here, which each thread would give once for its own chunks: a document
 * with an uncovered character stays on one thread, see pin_document_faces().) */
static void par_merge(par *p, qr_render_ctx *rc, size_t last)
{
    for (size_t k = 0; k <= last && k < p->n_chunks; k++) {
        const qr_errlist *l = p->warnings[p->owner[k]];
        for (size_t i = p->w_from[k]; i < p->w_to[k]; i++) {
            const qr_error *w = &l->items[i];
            qr_errlist_add(rc->warnings, w->code, w->path, w->message, w->hint);
        }
    }
}

/* Measure the title (into *title, when not NULL) and the blocks on this
 * thread and a helper; 0, or -1 when no helper could be started (nothing
 * measured then). The helper starts first, so it warms up its font map while
 * this thread sets the title. */
static int layout_parallel(pd_ctx *c, pd_block *title, pd_block *out, const pd_needs *nd)
{
    const qr_doc *d = c->doc;
    size_t total = 0;
    for (size_t i = 0; i < d->n_blocks; i++)
        total += block_cost(&d->blocks[i]);
    par p = {.out = out, .needs = nd};
    size_t n = d->n_blocks < PAR_CHUNKS ? d->n_blocks : PAR_CHUNKS;
    p.end = calloc(n, sizeof *p.end);
    p.owner = calloc(n, 1);
    p.w_from = calloc(n, sizeof *p.w_from);
    p.w_to = calloc(n, sizeof *p.w_to);
    pd_ctx *h = malloc(sizeof *h);
    int ret = -1;
    if (!p.end || !p.owner || !p.w_from || !p.w_to || !h) goto out;
    /* chunk boundaries: every total / n bytes of text, at least one block each */
    size_t acc = 0;
    for (size_t i = 0; i < d->n_blocks; i++) {
        acc += block_cost(&d->blocks[i]);
        if (p.n_chunks < n - 1 && acc >= (p.n_chunks + 1) * (total / n))
            p.end[p.n_chunks++] = i + 1;
    }
    p.end[p.n_chunks++] = d->n_blocks;
    p.fail_chunk[0] = p.fail_chunk[1] = SIZE_MAX;
    atomic_init(&p.next, 0);
    atomic_init(&p.stop, 0);

    /* each thread warns and fails into lists of its own, merged below */
    qr_render_ctx *rc = c->rc;
    qr_render_ctx main_rc = *rc;
    qr_errlist main_warnings = {0}, main_errors = {0};
    main_rc.warnings = &main_warnings;
    main_rc.errors = &main_errors;
    c->helper_rc = *rc;
    c->helper_rc.warnings = &c->helper_warnings;
    c->helper_rc.errors = &c->helper_errors;
    ctx_geom(h, &c->helper_rc, c->for_png);
    h->simple_paint = c->simple_paint;
    p.ctx[0] = c;
    p.ctx[1] = h;
    p.warnings[0] = &main_warnings;
    p.warnings[1] = &c->helper_warnings;
    pthread_t th;
    if (qr_thread_create(&th, helper_main, &p) != 0) goto out;
    c->helper = h;
    h = NULL;
    ret = 0;
    if (title && qr_pdf_measure_title(c, title) != QR_OK) {
        /* the title failed first: nothing after it counts */
        atomic_store(&p.stop, 1);
        pthread_join(th, NULL);
        goto out;
    }
    c->rc = &main_rc;
    par_work(&p, 0);
    pthread_join(th, NULL);
    c->rc = rc;
    pd_ctx *hc = c->helper;
    c->has_links |= hc->has_links;
    /* the first failure in document order wins */
    size_t f0 = p.fail_chunk[0], f1 = p.fail_chunk[1];
    par_merge(&p, rc, f0 < f1 ? f0 : f1);
    if (f1 < f0) {
        c->status = hc->status;
        qr_errlist_move(rc->errors, &c->helper_errors);
    } else if (f0 != SIZE_MAX) {
        qr_errlist_move(rc->errors, &main_errors);
    }
    qr_errlist_clear(&main_warnings);
    qr_errlist_clear(&main_errors);
out:
    free(h);
    free(p.end);
    free(p.owner);
    free(p.w_from);
    free(p.w_to);
    return ret;
}

/* cairo 1.16's FreeType backend keeps at most 10 faces open; opening one
 * more closes a face it reads as unused without taking that face's lock, so
 * with two threads shaping text in many fonts the face it closes could be in
 * use on the other thread. Before the threads start, the main thread
 * therefore gathers every (family, language) the document's text is set in,
 * with its characters, and opens and pins the faces pango picks for them
 * (faces.c): neither thread opens a face after that, so cairo closes none.
 * A character no font covers sends pango looking through other fonts, and
 * its warning would come once per thread: such a document stays on one
 * thread. */
/* The style flags of a text: its block's (pd_style in layout.c). */
enum { N_BOLD = 1, N_ITALIC = 2, N_MONO = 4 };

static int needs_text(pd_ctx *c, pd_needs *nd, const qr_text *t, const char *s, size_t n, int flags)
{
    qr_run plain;
    qr_text one = t ? *t : qr_text_plain(&plain, s, n, NULL);
    qr_errlist *warnings = c->text.warnings;
    c->text.warnings = NULL; /* the layout warns, later */
    const qr_segs *sg;
    qr_status st = qr_text_segments(&c->text, &one, &sg);
    c->text.warnings = warnings;
    if (st != QR_OK || sg->spans.n_missing) return 0;
    for (size_t i = 0, next; i < sg->n; i = next) {
        const qr_seg *g = &sg->items[i];
        for (next = i + 1; next < sg->n && sg->items[next].span == g->span; next++)
            ;
        size_t len = sg->items[next - 1].start + sg->items[next - 1].len - g->start;
        int mono = (flags & N_MONO) || g->code;
        int bold = (flags & N_BOLD) || g->bold, italic = (flags & N_ITALIC) || g->italic;
        /* the mono face replaces DejaVu Sans in code (text.c, code_family) */
        const char *fam = mono && g->slot == QR_SLOT_LATIN && strncmp(g->family, "DejaVu", 6) == 0
                              ? qr_fonts_mono_family()
                              : g->family;
        if (qr_pdf_needs_add(nd, fam, g->lang, bold, italic, g->text, len) != 0) return 0;
    }
    return 1;
}

typedef struct needs_walk {
    pd_ctx *c;
    pd_needs *nd;
} needs_walk;

/* Each text in the style its block sets it in (layout.c): a failure (0
 * from needs_text) stops the walk. */
static int needs_walked(void *ud, const qr_walk_text *t)
{
    needs_walk *nw = ud;
    int flags = 0;
    switch (t->role) {
    case QR_WALK_TITLE:
    case QR_WALK_HEADER_CELL:
    case QR_WALK_CHART_TITLE: /* the chart's title is bold, the axis titles too */
        flags = N_BOLD;
        break;
    case QR_WALK_HEADING:
        flags = N_BOLD | (t->block->u.heading.level == 6 ? N_ITALIC : 0);
        break;
    case QR_WALK_CODE:
        flags = N_MONO;
        break;
    default:
        break;
    }
    return !needs_text(nw->c, nw->nd, t->text, NULL, 0, flags);
}

/* What quire itself adds in DejaVu Sans: list markers (numbers, bullets,
 * the right-to-left mark), footers "N / M", the "image" placeholder. */
static const char own_text[] =
    "0123456789./ image \xE2\x80\xA2\xE2\x97\xA6\xE2\x96\xAA\xE2\x80\x8F";

/* Open and pin every face the document needs; the needs (free them), or
 * NULL when it must stay on one thread (a character no font covers, or out
 * of memory). */
static pd_needs *pin_document_faces(pd_ctx *c)
{
    const qr_doc *d = c->doc;
    pd_needs *nd = qr_pdf_needs_new();
    int ok =
        nd && qr_pdf_needs_add(nd, "DejaVu Sans", NULL, 0, 0, own_text, sizeof own_text - 1) == 0;
    needs_walk nw = {c, nd};
    qr_walker w = {.text = needs_walked, .ud = &nw};
    if (ok) ok = qr_doc_walk(d, &w) == 0;
    if (ok) qr_pdf_needs_pin(nd, c->pc);
    if (ok) return nd;
    qr_pdf_needs_free(nd);
    return NULL;
}

static qr_status layout(pd_ctx *c)
{
    const qr_doc *d = c->doc;
    size_t title = d->title.n ? 1 : 0;
    c->n_blocks = d->n_blocks + title;
    c->blocks = qr_arena_array(&c->arena, c->n_blocks ? c->n_blocks : 1, sizeof *c->blocks);
    if (!c->blocks) return qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
    pd_block *tb = title ? &c->blocks[0] : NULL, *out = c->blocks + title;

    size_t total = 0;
    for (size_t i = 0; i < d->n_blocks && total < PARALLEL_MIN_BYTES; i++)
        total += block_cost(&d->blocks[i]);
    int done = 0;
    pd_needs *nd = total >= PARALLEL_MIN_BYTES && d->n_blocks >= 2 && c->rc->threads != 1
                       ? pin_document_faces(c)
                       : NULL;
    if (nd) {
        c->pins_before = qr_pdf_pinned_count();
        done = layout_parallel(c, tb, out, nd) == 0;
    }
    qr_pdf_needs_free(nd);
    if (!done) {
        if (tb && qr_pdf_measure_title(c, tb) != QR_OK) return c->status;
        if (qr_pdf_measure_blocks(c, out, 0, d->n_blocks) != QR_OK) return c->status;
    }
    if (c->status != QR_OK) return c->status;
    /* pagination alone (a docx's table of contents) needs the images'
     * boxes, not their pixels */
    if (!c->rc->layout_only && qr_pdf_decode_images(c) != QR_OK) return c->status;
    return qr_pdf_paginate(c);
}

int qr_pdf_work(pd_ctx *c, uint64_t units, const char *path, const char *what)
{
    if (c->status != QR_OK) return -1;
    /* the budget belongs to the render: the document is const to backends
     * only so that they leave its content alone */
    qr_budget *b = c->rc && c->rc->doc ? (qr_budget *)&c->rc->doc->work : NULL;
    if (!qr_budget_take(b, units)) return 0;
    c->status = qr_fail(QR_E_LIMIT);
    qr_budget_error(b, c->rc->errors, path, what);
    return -1;
}

/* ---- the paint pass's recording helper ------------------------------------------ */

/* While the main thread replays page p on the PDF surface and cairo writes
 * it, a helper records the pango half of the pages after it (replay.c).
 * Pango is then used on the helper only: the main thread makes cairo calls
 * alone until the helper has stopped (the end, a cut mark, a failure). */
typedef struct pd_pipe {
    pd_ctx *c;
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    qr_buf *pages;   /* page p's recording */
    size_t done;     /* pages recorded (under mu) */
    size_t painted;  /* pages the main thread has painted (under mu) */
    int stopped;     /* the helper is done recording (under mu) */
    int joined;      /* the main thread has joined it: pango is its own again */
    atomic_int quit; /* the main thread asks it to stop */
    pd_ctx f;        /* footers are laid out here, on the main context's PangoContext */
    qr_render_ctx f_rc;
    qr_errlist f_warnings, f_errors;
} pd_pipe;

/* The text an op draws, if any. */
static const pd_text *op_text(const pd_op *o)
{
    return o->kind == OP_LINE ? o->text : o->kind == OP_IMAGE ? o->blk->alt : NULL;
}

/* Every page recorded without a cut mark: the main thread makes cairo
 * calls only from now on, so the layouts of the pages it has painted are
 * freed here meanwhile (cairo keeps copies of what it drew), not all after
 * the last page. */
static void drop_painted(pd_pipe *pp)
{
    pd_ctx *c = pp->c;
    for (size_t p = 0; p < c->n_pages; p++) /* each text's last page */
        for (size_t i = c->page_start[p]; i < c->page_start[p + 1]; i++) {
            const pd_text *t = op_text(&c->ops[i]);
            if (t) ((pd_text *)t)->last_page = p;
        }
    for (size_t p = 0; p < c->n_pages; p++) {
        pthread_mutex_lock(&pp->mu);
        while (pp->painted <= p && !atomic_load(&pp->quit))
            pthread_cond_wait(&pp->cv, &pp->mu);
        int go = pp->painted > p;
        pthread_mutex_unlock(&pp->mu);
        if (!go) return;
        for (size_t i = c->page_start[p]; i < c->page_start[p + 1]; i++) {
            const pd_text *t = op_text(&c->ops[i]);
            if (!t || t->last_page != p) continue;
            for (size_t k = t->slot; k < t->slot + t->n_slots; k++) {
                if (!t->owner->layouts[k]) continue;
                g_object_unref(t->owner->layouts[k]);
                t->owner->layouts[k] = NULL;
            }
        }
    }
}

static void *pipe_main(void *arg)
{
    pd_pipe *pp = arg;
    pd_ctx *c = pp->c;
    PangoRenderer *r = qr_pdf_rec_renderer_new();
    for (size_t p = 0; r && p < c->n_pages && !atomic_load(&pp->quit); p++) {
        int rc = qr_pdf_record_page(c, &pp->f, r, p, &pp->pages[p]);
        if (pp->pages[p].oom) {
            /* out of memory: a cut mark, if even that fits, else none */
            pp->pages[p].len = 0;
            pp->pages[p].oom = 0;
            qr_pdf_rec_cut(&pp->pages[p]);
            rc = -1;
        }
        pthread_mutex_lock(&pp->mu);
        pp->done = p + 1;
        pthread_cond_broadcast(&pp->cv);
        pthread_mutex_unlock(&pp->mu);
        if (rc != 0) break;
    }
    if (r) g_object_unref(r);
    pthread_mutex_lock(&pp->mu);
    int all = pp->done == c->n_pages && !atomic_load(&pp->quit);
    pp->stopped = 1;
    pthread_cond_broadcast(&pp->cv);
    pthread_mutex_unlock(&pp->mu);
    if (all) drop_painted(pp);
    return NULL;
}

/* Start the helper for a big document; without one, pages are painted
 * with pango on this thread. */
static void pipe_start(pd_ctx *c)
{
    pd_pipe *pp = calloc(1, sizeof *pp);
    if (!pp) return;
    pp->pages = calloc(c->n_pages ? c->n_pages : 1, sizeof *pp->pages);
    if (!pp->pages) {
        free(pp);
        return;
    }
    pp->c = c;
    pthread_mutex_init(&pp->mu, NULL);
    pthread_cond_init(&pp->cv, NULL);
    atomic_init(&pp->quit, 0);
    pp->f_rc = *c->rc;
    pp->f_rc.warnings = &pp->f_warnings;
    pp->f_rc.errors = &pp->f_errors;
    ctx_geom(&pp->f, &pp->f_rc, 0);
    pp->f.pc = g_object_ref(c->pc);
    if (qr_thread_create(&pp->th, pipe_main, pp) != 0) {
        g_object_unref(pp->f.pc);
        pthread_mutex_destroy(&pp->mu);
        pthread_cond_destroy(&pp->cv);
        free(pp->pages);
        free(pp);
        return;
    }
    c->pipe = pp;
}

/* Page p's recording once the helper has it, or NULL: paint it with pango. */
static pd_recread *pipe_page(pd_ctx *c, size_t p, pd_recread *rd)
{
    pd_pipe *pp = c->pipe;
    if (!pp) return NULL;
    pthread_mutex_lock(&pp->mu);
    while (pp->done <= p && !pp->stopped)
        pthread_cond_wait(&pp->cv, &pp->mu);
    int have = pp->done > p;
    pthread_mutex_unlock(&pp->mu);
    if (!have) {
        qr_pdf_pipe_stop(c);
        return NULL;
    }
    rd->data = (const unsigned char *)pp->pages[p].data;
    rd->len = pp->pages[p].len;
    rd->pos = 0;
    return rd;
}

/* Page p is painted: its recording is no longer needed. */
static void pipe_page_done(pd_ctx *c, size_t p)
{
    pd_pipe *pp = c->pipe;
    if (!pp || pp->joined) return;
    qr_buf_free(&pp->pages[p]);
    pthread_mutex_lock(&pp->mu);
    pp->painted = p + 1;
    pthread_cond_broadcast(&pp->cv);
    pthread_mutex_unlock(&pp->mu);
}

void qr_pdf_pipe_stop(pd_ctx *c)
{
    pd_pipe *pp = c->pipe;
    if (!pp || pp->joined) return;
    pthread_mutex_lock(&pp->mu);
    atomic_store(&pp->quit, 1);
    pthread_cond_broadcast(&pp->cv);
    pthread_mutex_unlock(&pp->mu);
    pthread_join(pp->th, NULL);
    pp->joined = 1; /* joined: pango is this thread's again */
    if (pp->f.status != QR_OK && c->status == QR_OK) {
        c->status = pp->f.status;
        qr_errlist_move(c->rc->errors, &pp->f_errors);
    }
}

static pd_ctx *pipe_footer_ctx(pd_ctx *c)
{
    return c->pipe ? &c->pipe->f : NULL;
}

/* After painting: the helper is stopped; its footers live until pipe_free. */
static void pipe_free(pd_ctx *c)
{
    pd_pipe *pp = c->pipe;
    if (!pp) return;
    qr_pdf_pipe_stop(c);
    for (size_t p = 0; p < c->n_pages; p++)
        qr_buf_free(&pp->pages[p]);
    free(pp->pages);
    ctx_free(&pp->f);
    qr_errlist_clear(&pp->f_warnings);
    qr_errlist_clear(&pp->f_errors);
    pthread_mutex_destroy(&pp->mu);
    pthread_cond_destroy(&pp->cv);
    free(pp);
    c->pipe = NULL;
}

/* ---- PDF ------------------------------------------------------------------------------ */

/* A chart's Figure /Alt: its alt text, else its title (as html's aria-label). */
static const char *chart_alt(const qr_chart *ch)
{
    return *ch->alt ? ch->alt : ch->title ? ch->title : "chart";
}

/* The catalog's /Lang and title preference, each Figure's /Alt. */
static int tag_patch(pd_ctx *c, qr_buf *tail, size_t base, const pd_shifts *pre, const pd_xmp *xmp)
{
    const qr_doc *d = c->doc;
    size_t n = 0;
    for (size_t i = 0; i < d->n_blocks; i++)
        n += d->blocks[i].type == QR_BLOCK_IMAGE || d->blocks[i].type == QR_BLOCK_CHART;
    const char **alts = calloc(n ? n : 1, sizeof *alts);
    if (!alts) return -1;
    for (size_t i = 0, k = 0; i < d->n_blocks; i++)
        if (d->blocks[i].type == QR_BLOCK_IMAGE)
            alts[k++] = qr_plain(&d->blocks[i].u.image.alt);
        else if (d->blocks[i].type == QR_BLOCK_CHART)
            alts[k++] = chart_alt(&d->blocks[i].u.chart);
    /* the charts' data tables (layout.c's tag_chart_data), cell by cell */
    qr_buf cb = {0};
    size_t nc = 0, rows, cols;
    for (size_t i = 0; i < d->n_blocks; i++)
        if (d->blocks[i].type == QR_BLOCK_CHART &&
            qr_pdf_chart_grid(&d->blocks[i].u.chart, &rows, &cols)) {
            qr_pdf_chart_cells(&d->blocks[i].u.chart, &cb);
            nc += rows * cols;
        }
    const char **cells = calloc(nc ? nc : 1, sizeof *cells);
    if (!cells || cb.oom) {
        free(cells);
        qr_buf_free(&cb);
        free(alts);
        return -1;
    }
    for (size_t k = 0, at = 0; k < nc && at < cb.len; k++) {
        cells[k] = cb.data + at;
        at += strlen(cells[k]) + 1;
    }
    /* the paragraphs and headings in another language (layout.c's
     * PD_TAG_LANG_*), in document order */
    size_t nl = 0;
    for (size_t i = 0; i < c->n_blocks; i++)
        nl += c->blocks[i].kind == PB_TEXT && c->blocks[i].text && c->blocks[i].text->lang;
    const char **langs = calloc(nl ? nl : 1, sizeof *langs);
    if (!langs) {
        free(cells);
        qr_buf_free(&cb);
        free(alts);
        return -1;
    }
    for (size_t i = 0, k = 0; i < c->n_blocks; i++)
        if (c->blocks[i].kind == PB_TEXT && c->blocks[i].text && c->blocks[i].text->lang)
            langs[k++] = c->blocks[i].text->lang;
    int r = qr_pdf_tag_patch(tail, base, d->lang, d->title.n != 0, alts, n, cells, nc, langs, nl,
                             c->span_langs, c->n_span_langs, pre, xmp);
    free(langs);
    free(cells);
    qr_buf_free(&cb);
    free(alts);
    return r;
}

/* Where each block starts and ends (layout.c), for the docx's table of
 * contents and the layout report's pages, when the caller asks. */
static void block_pages(const pd_ctx *c, qr_render_ctx *rc)
{
    size_t title = rc->doc->title.n ? 1 : 0;
    for (size_t i = 0; i < rc->doc->n_blocks && i + title < c->n_blocks; i++) {
        if (rc->block_pages_out) rc->block_pages_out[i] = c->blocks[i + title].page;
        if (rc->block_last_out) rc->block_last_out[i] = c->blocks[i + title].last_page;
    }
}

static qr_status pdf_render(qr_render_ctx *rc, qr_sink *out)
{
    if (rc->doc->kind == QR_KIND_PRESENTATION) return qr_pdf_slides_render(rc, out, 0);
    if (rc->doc->kind == QR_KIND_SPREADSHEET) return qr_pdf_sheet_render(rc, out, 0);
    if (rc->page_first) {
        qr_errlist_add(rc->errors, QR_E_USAGE, "",
                       "--pages A-B makes a PDF of some pages of a presentation or spreadsheet; "
                       "a document's PDF has every page",
                       "use -o OUT.png --pages A-B for some pages of a document");
        return qr_fail(QR_E_USAGE);
    }
    pd_ctx c;
    qr_status st = ctx_init(&c, rc, 0);
    c.simple_paint = 1; /* paint.c draws simple_text.c's lines */
    if (st == QR_OK) st = layout(&c);
    if (st != QR_OK) {
        ctx_free(&c);
        return st;
    }
    rc->pages = (int)c.n_pages;
    block_pages(&c, rc);
    if (rc->layout_only) {
        if (rc->stats)
            rc->stats->toc_fontconfig |= pango_context_get_font_map(c.pc) != NULL ||
                                         (c.simple && qr_simple_asked_fontconfig(c.simple));
        ctx_free(&c);
        return QR_OK;
    }

    out_buf *ob = malloc(sizeof *ob);
    if (!ob) {
        qr_pdf_fail(&c, QR_E_NOMEM, "", "out of memory");
        ctx_free(&c);
        return QR_E_NOMEM;
    }
    ob->sink = out;
    ob->n = 0;
    ob->total = 0;
    ob->tail = NULL;
    ob->page = NULL;
    memset(&ob->shifts, 0, sizeof ob->shifts);
    memset(&ob->dd, 0, sizeof ob->dd);
    ob->writer = NULL;
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(out_write, ob, c.page_w, c.page_h);
    char date[32];
    qr_format_epoch(rc->epoch, date, sizeof date);
    if (c.doc->prop_date) /* the document's own date, midnight UTC when it has no time */
        snprintf(date, sizeof date, "%s%s", c.doc->prop_date,
                 strlen(c.doc->prop_date) == 10 ? "T00:00:00Z" : "");
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "quire");
    /* "properties": author, subject and keywords in the info dictionary */
    const char *meta[3] = {c.doc->author, c.doc->subject, c.doc->keywords};
    const cairo_pdf_metadata_t keys[3] = {CAIRO_PDF_METADATA_AUTHOR, CAIRO_PDF_METADATA_SUBJECT,
                                          CAIRO_PDF_METADATA_KEYWORDS};
    for (int k = 0; k < 3; k++) {
        if (!meta[k]) continue;
        size_t n = strlen(meta[k]);
        char *t = qr_arena_alloc(&c.arena, QR_TEXT_CLEAN_MAX(n) + 1);
        if (!t) continue;
        t[qr_text_clean(t, meta[k], n)] = '\0';
        cairo_pdf_surface_set_metadata(s, keys[k], t);
    }
    if (c.doc->title.n) {
        size_t n = qr_plain_len(&c.doc->title);
        char *t = qr_arena_alloc(&c.arena, QR_TEXT_CLEAN_MAX(n) + 1);
        if (t) {
            t[qr_text_clean(t, qr_plain(&c.doc->title), n)] = '\0';
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, t);
        }
    }
    cairo_t *cr = cairo_create(s);
    /* A tagged PDF: every page inside one "Document" structure element, the
     * blocks' elements (tagged.c) inside it. (It also keeps cairo 1.16's
     * link annotations whole: it writes their structure elements only
     * within a tree of its own.) */
    cairo_tag_begin(cr, "Document", "");
    pd_outline ol = {0};
    if (c.helper) {
        pipe_start(&c);
        ob->writer = writer_start(ob, c.top, c.bottom);
    }
    for (size_t p = 0; p < c.n_pages && c.status == QR_OK; p++) {
        pd_recread rd;
        qr_pdf_paint_page(&c, cr, p, &ol, pipe_page(&c, p, &rd));
        pipe_page_done(&c, p);
        /* cairo writes the page's content at cairo_show_page: kept, what
         * is drawn in its margins made an artifact (tagged.c), then written
         * (by the writer, when there is one) */
        qr_buf pg = {0};
        size_t at = ob->total;
        ob->page = &pg;
        show_page(cr);
        ob->page = NULL;
        if (ob->writer) {
            pd_writer *w = ob->writer;
            if (w->loose.len || w->loose.oom) { /* written before the page */
                if (w->loose.oom) atomic_store(&w->failed, QR_E_NOMEM);
                writer_push(w, &w->loose, 0, 0);
            }
            writer_push(w, &pg, at, 1);
            if (writer_failed(w) || cairo_status(cr) != CAIRO_STATUS_SUCCESS) break;
            continue;
        }
        if (pg.oom || qr_pdf_artifact_page(&pg, at, c.top, c.bottom, &ob->shifts) != 0) {
            qr_buf_free(&pg);
            qr_pdf_fail(&c, QR_E_NOMEM, "", "out of memory");
            break;
        }
        cairo_status_t ws = out_put(ob, (const unsigned char *)pg.data, pg.len);
        qr_buf_free(&pg);
        if (ws != CAIRO_STATUS_SUCCESS) break;
        if (cairo_status(cr) != CAIRO_STATUS_SUCCESS || out->status != QR_OK) break;
    }
    if (ob->writer) {
        qr_status ws = writer_stop(ob->writer);
        ob->writer = NULL;
        if (ws == QR_E_NOMEM && c.status == QR_OK) qr_pdf_fail(&c, QR_E_NOMEM, "", "out of memory");
    }
    qr_pdf_pipe_stop(&c);
    cairo_tag_end(cr, "Document");
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    /* Every page is painted: the layouts (tens of thousands of pango
     * objects) are freed on another core while cairo writes the fonts.
     * cairo holds no reference into them, and no pango call runs here. */
    pthread_t th;
    int dropping = c.helper && qr_thread_create(&th, drop_layouts_main, &c) == 0;
    /* cairo writes the structure tree and the catalog while finishing:
     * those bytes are kept, completed by tagged.c, then written. */
    qr_buf tail = {0};
    out_flush(ob);
    size_t base = ob->total;
    ob->tail = &tail;
    writing(1);
    cairo_surface_finish(s);
    writing(0);
    qr_pdf_dedup_end(&ob->dd, out_keep, ob);
    if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (cs == CAIRO_STATUS_SUCCESS && out->status == QR_OK) {
        char producer[96]; /* the info dictionary's, which cairo writes */
        snprintf(producer, sizeof producer, "cairo %s (https://cairographics.org)",
                 cairo_version_string());
        pd_xmp xmp = {c.doc->title.n ? qr_plain(&c.doc->title) : NULL,
                      c.doc->author,
                      c.doc->subject,
                      c.doc->keywords,
                      date,
                      producer};
        if (tag_patch(&c, &tail, base, &ob->shifts, &xmp) != 0)
            qr_pdf_fail(&c, QR_E_NOMEM, "", "out of memory");
        else
            qr_sink_write(out, tail.data, tail.len);
    }
    qr_buf_free(&tail);
    free(ob->shifts.items);
    free(ob);
    if (dropping) pthread_join(th, NULL);
    /* how many faces the two threads (measuring, then painting) had to pin
     * themselves: 0 unless the gathering missed one (qr_result.stats) */
    if (c.helper && rc->stats) {
        rc->stats->threads = 2;
        rc->stats->faces_pinned = (int)c.pins_before;
        rc->stats->faces_pinned_late = (int)(qr_pdf_pinned_count() - c.pins_before);
    }
    if (c.status == QR_OK && (cs != CAIRO_STATUS_SUCCESS || out->status != QR_OK))
        cairo_fail(&c, out, cs);
    st = c.status;
    ctx_free(&c);
    return st;
}

/* The largest preview we draw: 200 megapixels (800 MB of ARGB). */
#define PNG_MAX_PIXELS 200000000.0

/* ---- the PNG layout cache ----------------------------------------------------------- */

/* `quire render --pages all` asks for one page per call. Each thread keeps
 * the layout of the last document it rendered to PNG, keyed by all the
 * spec says (its canonical JSON, spec/compile.h) plus what the spec only
 * names (the bytes of its image files, as SHA-256) and the font set, so
 * page N+1 of the same spec is painted from the layout page N made instead
 * of laying the whole document out again, and any change to the spec (a
 * theme, an accent, a new field) is a new key. The cached context holds no
 * pointer into the document it came from (the tree is freed after each
 * call); its warnings are kept and reported again on each hit. One entry
 * per thread, freed at exit. */
typedef struct png_cache {
    qr_buf key;
    pd_ctx *ctx;
    qr_errlist warnings;
} png_cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;

static void cache_drop(png_cache *pc)
{
    if (pc->ctx) {
        ctx_free(pc->ctx);
        free(pc->ctx);
        pc->ctx = NULL;
    }
    qr_buf_free(&pc->key);
    qr_errlist_clear(&pc->warnings);
}

static void cache_free(void *p)
{
    if (!p) return;
    cache_drop(p);
    free(p);
}

/* Like the font maps: the thread that calls exit() drops its cache too. */
static void cache_at_exit(void)
{
    png_cache *pc = pthread_getspecific(cache_key);
    pthread_setspecific(cache_key, NULL);
    cache_free(pc);
}

static void cache_key_init(void)
{
    pthread_key_create(&cache_key, cache_free);
    atexit(cache_at_exit);
}

static png_cache *thread_cache(void)
{
    pthread_once(&cache_once, cache_key_init);
    png_cache *pc = pthread_getspecific(cache_key);
    if (!pc) {
        pc = calloc(1, sizeof *pc);
        if (pc && pthread_setspecific(cache_key, pc) != 0) {
            free(pc);
            pc = NULL;
        }
    }
    return pc;
}

/* The key's image part: each image block's bytes as SHA-256. */
static int key_image(void *ud, const qr_block *b, int exit)
{
    if (exit || b->type != QR_BLOCK_IMAGE) return 0;
    unsigned char digest[32];
    qr_sha256 h;
    qr_sha256_init(&h);
    qr_sha256_update(&h, b->u.image.data, b->u.image.size);
    qr_sha256_final(&h, digest);
    qr_buf_append(ud, digest, sizeof digest);
    return 0;
}

/* The layout cache key of rc's document into *key; 0 when the document
 * has no canonical JSON (compiled without qr_compile_opts.canonical: not
 * cached) or on OOM. */
static int cache_key_of(const qr_render_ctx *rc, qr_buf *key)
{
    const qr_doc *d = rc->doc;
    if (!d->canonical) return 0;
    uintptr_t fonts = (uintptr_t)rc->fonts;
    qr_buf_append(key, &fonts, sizeof fonts);
    qr_buf_append(key, &d->kind, sizeof d->kind);
    /* The resolved style too: the test hook's override is not in the JSON.
     * Its strings are static, so its bytes (pointers included) name it;
     * padding that differs could only cost a miss, never a stale page. */
    qr_style st = qr_style_of(d);
    qr_buf_append(key, &st, sizeof st);
    qr_walker w = {.block = key_image, .ud = key};
    qr_doc_walk(d, &w);
    qr_buf_append(key, d->canonical, d->canonical_len);
    return !key->oom;
}

/* Cut the laid-out context loose from the document, which is freed after
 * this call: painting needs only the boxes, the layouts and the fonts. */
static void ctx_detach(pd_ctx *c)
{
    if (c->lang) c->lang = qr_arena_strdup(&c->arena, c->lang);
    c->doc = NULL;
}

/* ---- PNG ------------------------------------------------------------------------------ */

static qr_status png_paint(pd_ctx *c, qr_render_ctx *rc, qr_sink *out)
{
    rc->pages = (int)c->n_pages;
    int page = rc->png_page > 0 ? rc->png_page : 1;
    if ((size_t)page > c->n_pages) {
        char hint[96];
        if (c->n_pages == 1)
            snprintf(hint, sizeof hint, "the only page is 1: use --page 1 (or leave --page out)");
        else
            snprintf(hint, sizeof hint, "pages are 1 to %zu: use --page N with N in that range",
                     c->n_pages);
        qr_errlist_addf(rc->errors, QR_E_USAGE, "", hint,
                        "page %d is out of range: the document has %zu page%s", page, c->n_pages,
                        c->n_pages == 1 ? "" : "s");
        return qr_fail(QR_E_USAGE);
    }
    double dpi = rc->png_dpi > 0 ? rc->png_dpi : 96;
    double sc = dpi / 72.0;
    double wpx = ceil(c->page_w * sc - 1e-6), hpx = ceil(c->page_h * sc - 1e-6);
    if (wpx < 1) wpx = 1;
    if (hpx < 1) hpx = 1;
    if (wpx > 32767 || hpx > 32767 || wpx * hpx > PNG_MAX_PIXELS) {
        qr_errlist_addf(rc->errors, QR_E_LIMIT, "", "lower --dpi",
                        "a %.0f x %.0f pixel page is larger than the PNG limit", wpx, hpx);
        return qr_fail(QR_E_LIMIT);
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)wpx, (int)hpx);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_scale(cr, sc, sc);
    qr_pdf_paint_page(c, cr, (size_t)(page - 1), NULL, NULL);
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_write_to_png_stream(s, sink_write, out);
    cairo_surface_destroy(s);
    if (c->status == QR_OK && (cs != CAIRO_STATUS_SUCCESS || out->status != QR_OK))
        cairo_fail(c, out, cs);
    return c->status;
}

static void doc_page(pd_ctx *c, cairo_t *cr, size_t i, void *ud)
{
    (void)ud;
    if (i < c->n_pages) qr_pdf_paint_page(c, cr, i, NULL, NULL);
}

/* A document's contact sheet: its first pages (contact.c). */
static qr_status doc_contact(qr_render_ctx *rc, qr_sink *out)
{
    pd_ctx c;
    qr_status st = ctx_init(&c, rc, 1);
    if (st == QR_OK) st = layout(&c);
    if (st == QR_OK) {
        rc->pages = (int)c.n_pages;
        block_pages(&c, rc);
        size_t n = c.n_pages < QR_PV_CONTACT_PAGES ? c.n_pages : QR_PV_CONTACT_PAGES;
        st = qr_pv_contact(&c, out, c.page_w, c.page_h, n, doc_page, NULL);
    }
    ctx_free(&c);
    return st;
}

static qr_status png_render(qr_render_ctx *rc, qr_sink *out)
{
    if (rc->doc->kind == QR_KIND_PRESENTATION) return qr_pdf_slides_render(rc, out, 1);
    if (rc->doc->kind == QR_KIND_SPREADSHEET) return qr_pdf_sheet_render(rc, out, 1);
    if (rc->png_contact) return doc_contact(rc, out);
    qr_buf key = {0};
    int keyed = cache_key_of(rc, &key);
    png_cache *pc = keyed ? thread_cache() : NULL;
    if (pc && pc->ctx && pc->key.len == key.len && memcmp(pc->key.data, key.data, key.len) == 0) {
        qr_buf_free(&key);
        pd_ctx *c = pc->ctx;
        c->rc = rc;
        for (size_t i = 0; i < pc->warnings.count; i++) {
            const qr_error *w = &pc->warnings.items[i];
            qr_errlist_add(rc->warnings, w->code, w->path, w->message, w->hint);
        }
        block_pages(c, rc);
        qr_status st = png_paint(c, rc, out);
        if (c->status != QR_OK) cache_drop(pc); /* sticky failure: don't keep it */
        return st;
    }
    if (pc) cache_drop(pc);

    pd_ctx *c = malloc(sizeof *c);
    if (!c) {
        qr_buf_free(&key);
        qr_errlist_add(rc->errors, QR_E_NOMEM, "", "out of memory", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    size_t w0 = rc->warnings->count;
    qr_status st = ctx_init(c, rc, 1);
    if (st == QR_OK) st = layout(c);
    if (st != QR_OK) {
        qr_buf_free(&key);
        ctx_free(c);
        free(c);
        return st;
    }
    ctx_detach(c);
    block_pages(c, rc);
    st = png_paint(c, rc, out);
    if (pc && c->status == QR_OK) {
        pc->ctx = c;
        pc->key = key;
        key = (qr_buf){0};
        for (size_t i = w0; i < rc->warnings->count; i++) {
            const qr_error *w = &rc->warnings->items[i];
            qr_errlist_add(&pc->warnings, w->code, w->path, w->message, w->hint);
        }
    } else {
        ctx_free(c);
        free(c);
    }
    qr_buf_free(&key);
    return st;
}

const qr_backend qr_backend_pdf = {.name = "pdf", .format = QR_FORMAT_PDF, .render = pdf_render};
const qr_backend qr_backend_png = {.name = "png", .format = QR_FORMAT_PNG, .render = png_render};
