/* render.c: the public API. Compile, pick the backend, render to memory or
 * atomically to a file. Joins spec/ and the backends; writes no store. */
#include <quire/quire.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic.h"
#include "backends.h"
#include "compile.h"
#include "contrast.h"
#include "page_report.h"
#include "fonts.h"
#include "formula.h"
#include "kind_sniff.h"
#include "report.h"
#include "sheet_fit.h"
#include "slide_continue.h"
#include "stream.h"
#include "text.h"
#include "thread.h"

static const struct {
    const char *ext, *mime;
    qr_kind kind;
} formats[] = {
    [QR_FORMAT_DOCX] = {"docx",
                        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                        QR_KIND_DOCUMENT},
    [QR_FORMAT_XLSX] = {"xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                        QR_KIND_SPREADSHEET},
    [QR_FORMAT_PPTX] = {"pptx",
                        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
                        QR_KIND_PRESENTATION},
    [QR_FORMAT_PDF] = {"pdf", "application/pdf", QR_KIND_PDF},
    [QR_FORMAT_HTML] = {"html", "text/html", QR_KIND_HTML},
    [QR_FORMAT_PNG] = {"png", "image/png", QR_KIND_PDF},
};
_Static_assert(sizeof formats / sizeof formats[0] == QR_FORMAT_COUNT, "one entry per format");

const char *qr_format_ext(qr_format f)
{
    return (unsigned)f < QR_FORMAT_COUNT ? formats[f].ext : NULL;
}

const char *qr_format_mime(qr_format f)
{
    return (unsigned)f < QR_FORMAT_COUNT ? formats[f].mime : NULL;
}

qr_kind qr_format_kind(qr_format f)
{
    return (unsigned)f < QR_FORMAT_COUNT ? formats[f].kind : QR_KIND_DOCUMENT;
}

qr_format qr_kind_format(qr_kind k)
{
    switch (k) {
    case QR_KIND_DOCUMENT:
        return QR_FORMAT_DOCX;
    case QR_KIND_SPREADSHEET:
        return QR_FORMAT_XLSX;
    case QR_KIND_PRESENTATION:
        return QR_FORMAT_PPTX;
    case QR_KIND_PDF:
        return QR_FORMAT_PDF;
    case QR_KIND_HTML:
        return QR_FORMAT_HTML;
    case QR_KIND_COUNT:
        break;
    }
    return QR_FORMAT_DOCX;
}

int qr_format_from_path(const char *path, qr_format *f)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (!dot) return -1;
    for (int i = 0; i < QR_FORMAT_COUNT; i++) {
        if (strcasecmp(dot + 1, formats[i].ext) == 0) {
            *f = (qr_format)i;
            return 0;
        }
    }
    if (strcasecmp(dot + 1, "htm") == 0) {
        *f = QR_FORMAT_HTML;
        return 0;
    }
    return -1;
}

const char *qr_kind_str(qr_kind k)
{
    return (unsigned)k < QR_KIND_COUNT ? qr_kind_name(k) : NULL;
}

int qr_kind_from_str(const char *name, qr_kind *kind)
{
    return qr_kind_parse(name, kind);
}

int qr_format_available(qr_format f)
{
    return qr_backend_for(f) != NULL;
}

/* Which formats a kind's spec can render to: the document vocabulary
 * (document, pdf, html) goes to docx, pdf, png and html; presentations to
 * pptx, spreadsheets to xlsx, and both to pdf and png as previews. */
static int kind_accepts(qr_kind k, qr_format f)
{
    switch (k) {
    case QR_KIND_DOCUMENT:
    case QR_KIND_PDF:
    case QR_KIND_HTML:
        return f == QR_FORMAT_DOCX || f == QR_FORMAT_PDF || f == QR_FORMAT_PNG ||
               f == QR_FORMAT_HTML;
    case QR_KIND_PRESENTATION: /* .pdf and .png: previews (pdf/slides.c) */
        return f == QR_FORMAT_PPTX || f == QR_FORMAT_PDF || f == QR_FORMAT_PNG;
    case QR_KIND_SPREADSHEET: /* .pdf and .png: previews (pdf/sheet.c) */
        return f == QR_FORMAT_XLSX || f == QR_FORMAT_PDF || f == QR_FORMAT_PNG;
    case QR_KIND_COUNT:
        break;
    }
    return 0;
}

static void result_init(qr_result *res)
{
    memset(res, 0, sizeof *res);
}

void qr_result_free(qr_result *res)
{
    if (!res) return;
    free(res->data);
    qr_errlist_clear(&res->errors);
    qr_errlist_clear(&res->warnings);
    qr_layout_clear(&res->layout);
    res->data = NULL;
    res->size = 0;
}

static qr_status finish(qr_result *res, qr_status st)
{
    res->status = st;
    return st;
}

static void compile_opts(qr_compile_opts *co, const qr_render_opts *opts)
{
    qr_compile_opts_default(co);
    if (!opts) return;
    co->base_dir = opts->base_dir;
    if (opts->max_input) co->limits.max_input = opts->max_input;
    if (opts->max_output) co->limits.max_output = opts->max_output;
    if (opts->max_work) co->limits.max_work = opts->max_work;
}

/* The layout report's missing glyphs: the text layer's warnings (text.h),
 * one per character, each at the first value that holds it. */
static void missing_glyphs(qr_result *res)
{
    for (size_t i = 0; i < res->warnings.count; i++) {
        const qr_error *w = &res->warnings.items[i];
        const char *u =
            w->hint && strcmp(w->hint, QR_TEXT_MISSING_HINT) == 0 ? strstr(w->message, "U+") : NULL;
        if (!u) continue;
        /* a deck's value names its slide: "/slides/N/..." is slide N + 1 */
        int slide = 0;
        if (strncmp(w->path, "/slides/", 8) == 0) slide = atoi(w->path + 8) + 1;
        qr_layout_add(&res->layout, QR_LAYOUT_MISSING_GLYPH, w->path, 0, slide,
                      (double)strtoul(u + 2, NULL, 16), w->message);
    }
}

/* opts->strict_layout: the chosen kinds of layout report items become
 * errors (QR_E_SPEC), at their pointers. */
static qr_status strict_layout(qr_result *res, unsigned kinds)
{
    qr_status st = QR_OK;
    for (size_t i = 0; i < res->layout.count; i++) {
        const qr_layout_item *it = &res->layout.items[i];
        if (!(kinds & (1u << it->kind))) continue;
        char where[32] = "";
        if (it->slide)
            snprintf(where, sizeof where, " (slide %d)", it->slide);
        else if (it->page)
            snprintf(where, sizeof where, " (page %d)", it->page);
        st = qr_errlist_addf(&res->errors, QR_E_SPEC, it->path,
                             "fix the spec, or leave this kind out of the strict list",
                             "layout report, %s%s: %s", qr_layout_kind_str(it->kind), where,
                             it->detail);
    }
    return st == QR_OK ? QR_OK : qr_fail(st);
}

/* opts->strict: warnings become errors (QR_E_SPEC). */
static qr_status strict_check(qr_result *res)
{
    if (!res->warnings.count) return QR_OK;
    qr_errlist_move(&res->errors, &res->warnings);
    return qr_fail(QR_E_SPEC);
}

qr_status qr_check(const char *spec, size_t len, qr_kind kind, qr_result *res)
{
    return qr_check_opts(spec, len, kind, NULL, res);
}

qr_status qr_check_opts(const char *spec, size_t len, qr_kind kind, const qr_render_opts *opts,
                        qr_result *res)
{
    result_init(res);
    if ((unsigned)kind >= QR_KIND_COUNT) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "unknown kind", NULL);
        return finish(res, QR_E_USAGE);
    }
    qr_compile_opts co;
    compile_opts(&co, opts);
    co.warnings = &res->warnings;
    qr_doc *doc = NULL;
    qr_status st = qr_compile(spec, len, kind, &co, &doc, &res->errors);
    qr_doc_free(doc);
    if (st == QR_OK && opts && opts->strict) st = strict_check(res);
    return finish(res, st);
}

/* Where a spec comes from: text in memory, or a reader (read != NULL). */
typedef struct spec_in {
    const char *text;
    size_t len;
    qr_read_fn read;
    void *ctx;
    int (*rewind)(void *ctx); /* a file that can be read again from its start, or NULL */
    size_t file_size;
} spec_in;

/* ---- spreadsheets streamed from a file (spec/stream.h) ------------------------- */

/* Specs from this size on stream when rendered from a file to .xlsx; the
 * other spreadsheets compile their rows as read, in one pass that keeps
 * them all (QR_STREAM_ALL). qr_render_opts.xlsx_stream ALWAYS streams every
 * one from a file, ALL takes the one pass, NEVER the tree path (tests
 * compare them; the CLI sets it from QUIRE_XLSX_STREAM=1, all or 0). */
#define STREAM_MIN ((size_t)32 << 20)

typedef struct text_in {
    const char *p;
    size_t len, pos;
} text_in;

static size_t text_read(void *ctx, char *buf, size_t size)
{
    text_in *t = ctx;
    size_t n = t->len - t->pos < size ? t->len - t->pos : size;
    memcpy(buf, t->p + t->pos, n);
    t->pos += n;
    return n;
}

typedef struct streamed {
    qr_stream *s;
    const spec_in *in;
    size_t max_input;
    const qr_doc *doc; /* pass 1's */
    qr_row_source src;
} streamed;

static qr_status stream_run(void *src, qr_row_emit emit, void *ectx)
{
    streamed *sd = src;
    if (sd->in->rewind(sd->in->ctx) != 0) return QR_E_IO;
    return qr_stream_rows(sd->s, sd->doc, sd->in->read, sd->in->ctx, sd->max_input, emit, ectx);
}

/* Pass 1 when the spec streams: 1 with *doc and *st (errors reported), or
 * 0 when the tree path compiles it (the file rewound). */
static int stream_compile(const spec_in *in, qr_format format, const qr_compile_opts *co, int mode,
                          streamed *sd, qr_doc **doc, qr_result *res, qr_status *st)
{
    if (mode == QR_XLSX_STREAM_NEVER) return 0;
    int force = mode == QR_XLSX_STREAM_ALWAYS, all = mode == QR_XLSX_STREAM_ALL;
    int how =
        in->rewind && format == QR_FORMAT_XLSX && !all && (force || in->file_size >= STREAM_MIN)
            ? (force ? QR_STREAM_FORCE : 0)
            : QR_STREAM_ALL;
    if (how == QR_STREAM_ALL && !in->rewind && !in->text) return 0; /* a pipe: read once */
    if (!in->read && (*st = qr_input_size_check(in->len, &co->limits, &res->errors)) != QR_OK)
        return 1; /* as qr_compile: before parsing */
    if (!(sd->s = qr_stream_new())) return 0;
    sd->in = in;
    sd->max_input = co->limits.max_input;
    sd->src = (qr_row_source){stream_run, sd};
    text_in t = {in->text, in->len, 0};
    int done = in->read
                   ? qr_stream_compile(sd->s, in->read, in->ctx, co, how, doc, &res->errors, st)
                   : qr_stream_compile(sd->s, text_read, &t, co, how, doc, &res->errors, st);
    if (done) return 1;
    qr_stream_free(sd->s);
    sd->s = NULL;
    if (in->read && in->rewind(in->ctx) != 0) {
        *st = qr_errlist_add(&res->errors, QR_E_IO, "", "cannot read the spec", NULL);
        return 1;
    }
    return 0;
}

/* Whether a document has a toc block (the docx then needs page numbers). */
static int has_toc(const qr_doc *doc)
{
    for (size_t i = 0; i < doc->n_blocks; i++)
        if (doc->blocks[i].type == QR_BLOCK_TOC) return 1;
    return 0;
}

/* A docx's table of contents shows quire's own page numbers: the PDF
 * layout's (measure and paginate, nothing painted or written: the PDF
 * backend's layout_only). It runs on a thread of its own while the docx
 * writes its body, which leaves the numbers as holes and asks for them
 * when the body is done (block_pages_wait; ooxml/docx_document.c). The
 * layout reads the tree, which nothing changes during a render, and
 * reports into lists of its own (the docx reports the same things itself);
 * of the document's work budget (core/budget.h, not thread-safe) only the
 * layout draws, the docx takes none. */
struct doc_words;

typedef struct toc_pass {
    const qr_backend *pdf;
    qr_render_ctx lc;
    size_t *pages, *last; /* where each block starts and ends (last: the layout report's) */
    qr_errlist warnings, errors;
    qr_layout_list layout;
    qr_render_stats stats; /* the layout's and its warm-up's: toc_fontconfig */
    qr_status st;
    pthread_t th;
    int running; /* the thread is started and not joined */
    /* The layout report's words (NULL: none to measure), measured by
     * whichever thread is free first: the pass's once it is done, or the
     * one that waits for it (toc_wait) before it blocks; the docx body is
     * written by then, and until then the pass has the other core. Set
     * after the pass has started, hence atomic. */
    struct doc_words *_Atomic words;
    /* Started early (toc_early: the spec's text names a toc while it is
     * read), the thread loads the PDF backend and opens its faces
     * (toc_warm) while the spec compiles, then waits: go 1, the pass
     * (toc_start), or -1, none (toc_cancel: no toc block after all, or the
     * spec failed). */
    int early, hinted; /* hinted: started early (the result's stats.toc_early) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int go; /* under mu */
} toc_pass;

static void toc_run(toc_pass *t)
{
    qr_buf nb = {0};
    qr_sink ns;
    qr_sink_init_buf(&ns, &nb);
    t->st = t->pdf->render(&t->lc, &ns);
    qr_buf_free(&nb);
}

/* What the early thread lays out while the spec compiles: a document in
 * the default theme with a line of each kind of text a document has
 * (title, headings, body in each weight and style, code, footnotes, a
 * table of words and numbers and its caption), long enough to wrap. The
 * faces it opens stay open for the process (pdf/simple_text.c, their
 * answers from the font cache's side file or from fontconfig), so the pass
 * finds them ready; a PDF's warm-up (fonts_ready) also gives pango its
 * font map, which starts fontconfig. A document in another theme finds
 * fewer of its faces ready, nothing else. */
#define WARM_WORDS "a0 a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a "
static const char warm_spec[] =
    "{\"title\": \"" WARM_WORDS "\", \"blocks\": ["
    "{\"type\": \"toc\", \"title\": \"a\", \"levels\": 3},"
    "{\"type\": \"heading\", \"level\": 1, \"text\": \"" WARM_WORDS "\"},"
    "{\"type\": \"heading\", \"level\": 2, \"text\": \"" WARM_WORDS "\"},"
    "{\"type\": \"heading\", \"level\": 3, \"text\": \"" WARM_WORDS "\"},"
    "{\"type\": \"paragraph\", \"runs\": [\"" WARM_WORDS "\", "
    "{\"text\": \"" WARM_WORDS "\", \"bold\": true}, "
    "{\"text\": \"" WARM_WORDS "\", \"italic\": true}, "
    "{\"text\": \"" WARM_WORDS "\", \"bold\": true, \"italic\": true}, "
    "{\"text\": \"" WARM_WORDS "\", \"code\": true}, "
    "{\"footnote\": \"" WARM_WORDS "\"}, \"a\"]},"
    "{\"type\": \"table\", \"headers\": [\"" WARM_WORDS "\", \"a\"], \"caption\": \"" WARM_WORDS
    "\", \"rows\": [[\"" WARM_WORDS "\", 55], [\"a\", 227.9]]}]}";

/* The PDF backend loaded and this thread's font map made, and warm: the
 * layout of warm_spec (nothing kept but the map, which the pass then uses
 * on this thread, or which goes back to pdf.c's pool when the thread ends:
 * pdf_warm). fonts_ready: the map readied for pango too (fontconfig
 * started), for a PDF that will paint; the pass's warm-up leaves that to
 * the first text that needs pango, if any (pdf.c qr_pdf_fonts_ready). */
static void toc_warm(int fonts_ready, qr_render_stats *stats)
{
    const qr_backend *pdf = qr_backend_for(QR_FORMAT_PDF);
    if (!pdf) return;
    qr_doc empty;
    memset(&empty, 0, sizeof empty);
    empty.kind = QR_KIND_DOCUMENT;
    qr_errlist warnings = {0}, errors = {0};
    qr_layout_list layout = {0};
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    co.warnings = &warnings;
    qr_doc *sample = NULL;
    if (qr_compile(warm_spec, sizeof warm_spec - 1, QR_KIND_DOCUMENT, &co, &sample, &errors) !=
        QR_OK) {
        qr_doc_free(sample);
        sample = NULL;
    }
    qr_render_ctx c = {0};
    c.doc = sample ? sample : &empty;
    c.fonts = qr_fonts_default();
    c.warnings = &warnings;
    c.errors = &errors;
    c.layout = &layout;
    c.threads = 1;
    c.layout_only = 1;
    c.fonts_ready = fonts_ready;
    c.stats = stats;
    qr_buf nb = {0};
    qr_sink ns;
    qr_sink_init_buf(&ns, &nb);
    pdf->render(&c, &ns);
    qr_buf_free(&nb);
    qr_doc_free(sample);
    qr_errlist_clear(&warnings);
    qr_errlist_clear(&errors);
    qr_layout_clear(&layout);
}

static void doc_words_measure_pending(struct doc_words *dw);

static void *toc_main(void *arg)
{
    toc_pass *t = arg;
    if (t->early) {
        toc_warm(0, &t->stats);
        pthread_mutex_lock(&t->mu);
        while (!t->go)
            pthread_cond_wait(&t->cv, &t->mu);
        int go = t->go;
        pthread_mutex_unlock(&t->mu);
        if (go < 0) return NULL;
    }
    toc_run(t);
    struct doc_words *dw = atomic_load(&t->words);
    if (dw) doc_words_measure_pending(dw);
    return NULL;
}

/* Start the thread early (t zeroed before): 0, or -1 when it cannot be
 * (then toc_start starts it as usual). */
static int toc_early(toc_pass *t)
{
    if (pthread_mutex_init(&t->mu, NULL) != 0) return -1;
    if (pthread_cond_init(&t->cv, NULL) != 0) {
        pthread_mutex_destroy(&t->mu);
        return -1;
    }
    t->early = 1;
    if (qr_thread_create(&t->th, toc_main, t) == 0) {
        t->running = 1;
        t->hinted = 1;
        return 0;
    }
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    t->early = 0;
    return -1;
}

/* Tell an early thread whether to run the pass (go 1) or end (-1). */
static void toc_go(toc_pass *t, int go)
{
    pthread_mutex_lock(&t->mu);
    t->go = go;
    pthread_cond_signal(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

/* An early thread with no pass to run: ended and joined. */
static void toc_cancel(toc_pass *t)
{
    if (!t->early) return;
    toc_go(t, -1);
    if (t->running) pthread_join(t->th, NULL);
    t->running = 0;
    pthread_cond_destroy(&t->cv);
    pthread_mutex_destroy(&t->mu);
    t->early = 0;
}

/* ---- a PDF's font map warmed while the spec compiles ------------------------------ */

/* A big document's PDF: the compile (a Markdown one's above all) runs on
 * the main thread while the other core waits for the backend's measuring
 * helper. A thread started before the compile loads the PDF backend
 * (dlopen of quire-pdf.so and its libraries), starts fontconfig and warms
 * a font map (toc_warm), then ends: pdf.c's pool hands that map to the
 * first thread that asks for one, the main thread when the backend
 * starts. Output does not depend on a map's history (fonts are matched
 * and opened the same way warm or cold): only when the work is done
 * moves. Small specs skip it: their compile leaves nothing to overlap. */
#define BIG_INPUT (96 * 1024)

typedef struct pdf_warm {
    pthread_t th;
    int running;
} pdf_warm;

static void *pdf_warm_main(void *arg)
{
    (void)arg;
    toc_warm(1, NULL);
    return NULL;
}

/* A spec of at least BIG_INPUT bytes, and more than one thread allowed. */
static int big_input(const spec_in *in, const qr_render_opts *opts)
{
    return (in->read ? in->file_size : in->len) >= BIG_INPUT && !(opts && opts->threads == 1);
}

static void pdf_warm_start(pdf_warm *w, const spec_in *in, qr_kind kind, qr_format format,
                           const qr_render_opts *opts)
{
    w->running = format == QR_FORMAT_PDF && (kind == QR_KIND_DOCUMENT || kind == QR_KIND_PDF) &&
                 big_input(in, opts) && qr_thread_create(&w->th, pdf_warm_main, NULL) == 0;
}

/* Joined: its map is in the pool once the thread has ended. */
static void pdf_warm_join(pdf_warm *w)
{
    if (w->running) pthread_join(w->th, NULL);
    w->running = 0;
}

/* ---- the layout report's words measured while the pages are laid out ------------ */

/* A big document's layout report measures every word of its text
 * (layout/doc_report.c): on a thread of its own while the backend lays
 * out and writes, the items placed on their pages once it is done. A
 * docx whose table of contents waits for the PDF layout's pages measures
 * them instead on its own thread while it waits (toc_wait): three threads
 * on two cores would slow the pass, which the whole render waits for. */
typedef struct doc_words {
    const qr_doc *doc;
    qr_doc_words w;
    pthread_t th;
    int running;        /* on its thread, not joined */
    atomic_int pending; /* to be measured by the first to claim it (doc_words_measure_pending) */
} doc_words;

static void *doc_words_main(void *arg)
{
    doc_words *dw = arg;
    qr_doc_words_measure(dw->doc, &dw->w);
    return NULL;
}

static void doc_words_start(doc_words *dw, const qr_doc *doc)
{
    dw->doc = doc;
    dw->running = qr_thread_create(&dw->th, doc_words_main, dw) == 0;
    atomic_store(&dw->pending, !dw->running); /* no thread to be had: measured at the end */
}

/* Measured by the toc pass's thread once it is done, or by whoever waits
 * for it first. */
static void doc_words_defer(doc_words *dw, const qr_doc *doc, toc_pass *t)
{
    dw->doc = doc;
    atomic_store(&dw->pending, 1);
    atomic_store(&t->words, dw);
}

/* Measured here if no other thread has claimed them. */
static void doc_words_measure_pending(doc_words *dw)
{
    if (atomic_exchange(&dw->pending, 0)) qr_doc_words_measure(dw->doc, &dw->w);
}

/* Its items appended to l as qr_doc_report appends them (l NULL: the
 * render failed, nothing placed); ended (dw->doc NULL). */
static void doc_words_end(doc_words *dw, const size_t *first, const size_t *last, qr_layout_list *l)
{
    if (dw->running) pthread_join(dw->th, NULL);
    dw->running = 0;
    if (l) doc_words_measure_pending(dw);
    atomic_store(&dw->pending, 0);
    if (l) qr_doc_words_place(dw->doc, &dw->w, first, last, l);
    qr_doc_words_free(&dw->w);
    dw->doc = NULL;
}

/* ---- noticing a toc while the spec is read ------------------------------------- */

/* A docx spec's text is looked at as it is read for the string "toc" (in
 * quotes: the block's type, or a text that says it): then the pass's
 * thread starts before the compile (toc_early). It is a hint, never a
 * decision: the pass runs only for a compiled toc block, and a thread
 * started for a text that only says "toc" is ended unused. */
typedef struct toc_sniff {
    qr_read_fn read;
    void *ctx;
    toc_pass *t;
    char tail[4]; /* the last bytes read, for a "toc" across two reads */
    size_t n_tail;
    int seen;
} toc_sniff;

/* 1 when p[0..n) holds "toc" with its quotes. */
static int has_quoted_toc(const char *p, size_t n)
{
    for (const char *q = p, *end = p + n; end - q >= 5; q++) {
        q = memchr(q, '"', (size_t)(end - q) - 4);
        if (!q) return 0;
        if (memcmp(q, "\"toc\"", 5) == 0) return 1;
    }
    return 0;
}

static void sniff_bytes(toc_sniff *s, const char *p, size_t n)
{
    if (s->seen || !n) return;
    char edge[8]; /* the last bytes before p, then p's first */
    size_t k = n < 4 ? n : 4;
    memcpy(edge, s->tail, s->n_tail);
    memcpy(edge + s->n_tail, p, k);
    if (has_quoted_toc(edge, s->n_tail + k) || has_quoted_toc(p, n)) {
        s->seen = 1;
        toc_early(s->t);
        return;
    }
    if (n >= 4) {
        memcpy(s->tail, p + n - 4, 4);
        s->n_tail = 4;
    } else {
        size_t all = s->n_tail + n, keep = all < 4 ? all : 4;
        memcpy(s->tail, edge + all - keep, keep);
        s->n_tail = keep;
    }
}

static size_t sniff_read(void *ctx, char *buf, size_t size)
{
    toc_sniff *s = ctx;
    size_t n = s->read(s->ctx, buf, size);
    if (n && n != (size_t)-1) sniff_bytes(s, buf, n);
    return n;
}

/* The pages, once the layout is done; NULL when it failed. */
static const size_t *toc_wait(void *ud)
{
    toc_pass *t = ud;
    struct doc_words *dw = atomic_load(&t->words);
    if (t->running && dw) doc_words_measure_pending(dw);
    if (t->running) pthread_join(t->th, NULL);
    t->running = 0;
    return t->st == QR_OK ? t->pages : NULL;
}

/* Start the layout for ctx's table of contents: on a thread, the docx
 * waiting through ctx->block_pages_wait, or (one thread asked for, or no
 * thread to be had) here, into ctx->block_pages. */
static void toc_start(toc_pass *t, qr_render_ctx *ctx)
{
    int early = t->early;
    if (!early) memset(t, 0, sizeof *t);
    t->st = QR_E_RENDER;
    t->pdf = qr_backend_for(QR_FORMAT_PDF);
    t->pages = calloc(ctx->doc->n_blocks, sizeof *t->pages);
    t->last = calloc(ctx->doc->n_blocks, sizeof *t->last);
    if (!t->pdf || !t->pages || !t->last) {
        toc_cancel(t);
        return;
    }
    t->lc = *ctx;
    t->lc.warnings = &t->warnings;
    t->lc.errors = &t->errors;
    t->lc.layout = &t->layout;
    t->lc.stats = &t->stats;
    t->lc.block_pages_out = t->pages;
    t->lc.block_last_out = t->last;
    t->lc.layout_only = 1;
    /* one thread: the docx body has the other core, and the layout's
     * simple texts (pdf/simple_text.c) cost less than a second font map
     * takes to warm up (D1r: 702 M instructions in all, against 906 M
     * with a measuring helper, callgrind) */
    t->lc.threads = 1;
    if (early) {
        toc_go(t, 1);
        ctx->block_pages_wait = toc_wait;
        ctx->block_pages_ud = t;
        return;
    }
    if (ctx->threads != 1 && qr_thread_create(&t->th, toc_main, t) == 0) {
        t->running = 1;
        ctx->block_pages_wait = toc_wait;
        ctx->block_pages_ud = t;
        return;
    }
    toc_run(t);
    if (t->st == QR_OK) ctx->block_pages = t->pages;
}

static void toc_end(toc_pass *t)
{
    toc_wait(t);
    if (t->early) {
        pthread_cond_destroy(&t->cv);
        pthread_mutex_destroy(&t->mu);
    }
    free(t->pages);
    free(t->last);
    qr_errlist_clear(&t->warnings);
    qr_errlist_clear(&t->errors);
    qr_layout_clear(&t->layout);
}

/* A document laid out on pages by the PDF backend (and a PDF or html spec
 * rendered to pages). */
static int is_document(const qr_doc *doc)
{
    return doc->kind == QR_KIND_DOCUMENT || doc->kind == QR_KIND_PDF || doc->kind == QR_KIND_HTML;
}

/* Compile and run the backend into sink. */
static qr_status render_to(const spec_in *in, qr_kind kind, qr_format format,
                           const qr_render_opts *opts, qr_sink *sink, qr_result *res)
{
    if ((unsigned)kind >= QR_KIND_COUNT || (unsigned)format >= QR_FORMAT_COUNT) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "unknown kind or format", NULL);
        return QR_E_USAGE;
    }
    /* .pdf and .png fit every kind: the pdf kind they imply gives way to the
     * spec's shape ("slides", "sheets"; kind_sniff.h). */
    qr_sniff_reader sr = {0};
    int sniffed = 0;
    if (kind == QR_KIND_PDF && (format == QR_FORMAT_PDF || format == QR_FORMAT_PNG)) {
        sniffed = in->read != NULL;
        kind = sniffed ? qr_sniff_reader_open(&sr, in->read, in->ctx)
                       : qr_kind_sniff(in->text, in->len);
    }
    res->kind = kind;
    if (!kind_accepts(kind, format)) {
        qr_errlist_addf(&res->errors, QR_E_USAGE, "",
                        "use .docx, .pdf, .png or .html for documents, .pptx, .pdf or .png for "
                        "presentations, .xlsx, .pdf or .png for spreadsheets",
                        "a %s spec cannot be rendered as .%s", qr_kind_name(kind),
                        qr_format_ext(format));
        return QR_E_USAGE;
    }
    /* Spec errors come first: they are what the caller can fix. */
    qr_compile_opts co;
    compile_opts(&co, opts);
    co.warnings = &res->warnings;
    co.canonical = format == QR_FORMAT_PNG; /* the PNG layout cache's key (pdf/pdf.c) */
    qr_doc *doc = NULL;
    qr_status st = QR_OK;
    streamed sd = {0};
    /* a docx with a table of contents: its layout's thread may start while
     * the spec is read (toc_sniff) */
    toc_pass toc;
    memset(&toc, 0, sizeof toc);
    toc_sniff sn = {in->read, in->ctx, &toc, {0}, 0, 0};
    int sniff = format == QR_FORMAT_DOCX && kind != QR_KIND_SPREADSHEET &&
                kind != QR_KIND_PRESENTATION && !(opts && opts->threads == 1) && !sniffed;
    if (sniff && !in->read) sniff_bytes(&sn, in->text, in->len);
    pdf_warm warm;
    pdf_warm_start(&warm, in, kind, format, opts);
    int by_stream =
        kind == QR_KIND_SPREADSHEET && !sniffed &&
        stream_compile(in, format, &co, opts ? opts->xlsx_stream : 0, &sd, &doc, res, &st);
    if (!by_stream)
        st = sniffed ? qr_compile_reader(qr_sniff_read, &sr, kind, &co, &doc, &res->errors)
             : in->read
                 ? qr_compile_reader(sniff ? sniff_read : in->read, sniff ? (void *)&sn : in->ctx,
                                     kind, &co, &doc, &res->errors)
                 : qr_compile(in->text, in->len, kind, &co, &doc, &res->errors);
    qr_sniff_reader_free(&sr);
    pdf_warm_join(&warm);
    /* Formulas get their computed values as cached values (layout/formula.h);
     * a streamed workbook has none to compute (spec/stream.h). */
    if (st == QR_OK && doc->kind == QR_KIND_SPREADSHEET && !qr_stream_needed(doc))
        st = qr_formula_eval_doc(doc, qr_output_epoch(), &res->warnings, &res->errors);
    int with_toc = st == QR_OK && format == QR_FORMAT_DOCX && has_toc(doc);
    if (!with_toc) toc_cancel(&toc);
    res->stats.toc_early = toc.hinted;
    if (st != QR_OK) {
        qr_doc_free(doc);
        qr_stream_free(sd.s);
        return st;
    }
    const qr_backend *be = qr_backend_for(format);
    if (!be) {
        toc_cancel(&toc);
        qr_doc_free(doc);
        qr_stream_free(sd.s);
        const char *why = qr_backend_error(format);
        if (*why) /* a module that is absent, broken or from another build */
            return qr_errlist_addf(&res->errors, QR_E_UNSUPPORTED, "",
                                   "reinstall quire so that the binary and its modules come from "
                                   "one build",
                                   "%s", why);
        qr_errlist_addf(&res->errors, QR_E_UNSUPPORTED, "",
                        "this build of quire has no such backend", "the .%s backend is not built",
                        qr_format_ext(format));
        return QR_E_RENDER;
    }

    qr_render_ctx ctx = {0};
    ctx.doc = doc;
    /* A deck's content that does not fit continues on new slides, the same
     * for the .pptx and its previews (layout/slide_continue.h). */
    qr_doc deck;
    qr_arena cont = {0};
    if (doc->kind == QR_KIND_PRESENTATION) {
        qr_slide_geom g;
        qr_slide_geom_init(&g, doc->wide);
        deck = *doc;
        if (qr_slide_continue(doc, &g, &cont, &deck.slides, &deck.n_slides, &res->layout) !=
            QR_OK) {
            qr_arena_free(&cont);
            qr_doc_free(doc);
            qr_stream_free(sd.s);
            qr_errlist_add(&res->errors, QR_E_NOMEM, "", "out of memory", NULL);
            return qr_fail(QR_E_NOMEM);
        }
        ctx.doc = &deck;
    }
    /* The font set costs a fontconfig load on first use: only the backends
     * that choose fonts per run get it (html and xlsx leave fonts to the reader). */
    ctx.fonts = format == QR_FORMAT_HTML || format == QR_FORMAT_XLSX ? NULL : qr_fonts_default();
    ctx.warnings = &res->warnings;
    ctx.errors = &res->errors;
    ctx.layout = &res->layout;
    ctx.png_page = opts && opts->png_page > 0 ? opts->png_page : 1;
    ctx.png_dpi = opts && opts->png_dpi > 0 ? opts->png_dpi : 96;
    ctx.png_contact = opts && opts->png_contact;
    ctx.notes = opts && opts->notes;
    ctx.page_first = opts && opts->page_first > 0 ? opts->page_first : 0;
    ctx.page_last = opts && opts->page_last >= ctx.page_first ? opts->page_last : 0;
    ctx.epoch = qr_output_epoch();
    ctx.threads = opts && opts->threads > 0 ? opts->threads : 0;
    ctx.stats = &res->stats;
    sd.doc = doc;
    ctx.rows_src = qr_stream_needed(doc) ? &sd.src : NULL;
    if (with_toc) toc_start(&toc, &ctx);
    doc_words words = {0};
    if (format != QR_FORMAT_HTML && is_document(ctx.doc) && big_input(in, opts)) {
        if (with_toc && ctx.block_pages_wait)
            doc_words_defer(&words, ctx.doc, &toc);
        else
            doc_words_start(&words, ctx.doc);
    }
    /* a PDF or PNG of a document: where each block starts and ends, the
     * layout report's pages (a docx with a toc: its layout's) */
    size_t *pages = NULL, *last = NULL;
    const size_t *rep_first = NULL, *rep_last = NULL;
    if (!with_toc && st == QR_OK && doc->n_blocks && is_document(doc) &&
        (format == QR_FORMAT_PDF || format == QR_FORMAT_PNG)) {
        pages = calloc(doc->n_blocks, sizeof *pages);
        last = calloc(doc->n_blocks, sizeof *last);
        if (pages && last) {
            ctx.block_pages_out = pages;
            ctx.block_last_out = last;
        }
    }
    sink->limit = co.limits.max_output;
    /* a workbook's column widths: measured once for the backend and the report */
    if (doc->kind == QR_KIND_SPREADSHEET) ctx.sheet_fits = qr_sheet_fits_new(doc);
    st = be->render(&ctx, sink);
    if (with_toc && toc_wait(&toc)) {
        rep_first = toc.pages;
        rep_last = toc.last;
    }
    if (with_toc)
        res->stats.toc_fontconfig = toc.stats.toc_fontconfig; /* joined */
    else if (st == QR_OK && pages && last) {
        rep_first = pages;
        rep_last = last;
    }
    if (st != QR_OK && sd.s && qr_stream_why(sd.s)[0])
        qr_errlist_addf(&res->errors, QR_E_SPEC, "", "render it again once it is written whole",
                        "the spec file changed while it was read: %s", qr_stream_why(sd.s));
    qr_stream_free(sd.s);
    if (st == QR_OK && sink->status != QR_OK) st = sink->status;
    if (st == QR_OK) {
        qr_contrast_report(ctx.doc, &res->layout); /* a deck: as continued */
        /* documents on pages (html flows: no lines to break) and sheets */
        if (words.doc)
            doc_words_end(&words, rep_first, rep_last, &res->layout);
        else if (format != QR_FORMAT_HTML)
            qr_doc_report(ctx.doc, rep_first, rep_last, &res->layout);
        qr_sheet_report(ctx.doc, ctx.sheet_fits, &res->layout);
        qr_contrast_accent_warn(ctx.doc, &res->warnings);
        missing_glyphs(res);
    }
    if (st == QR_OK && opts && opts->strict) st = strict_check(res);
    if (st == QR_OK && opts && opts->strict_layout)
        st = strict_layout(res, opts->strict_layout & QR_LAYOUT_ALL);
    if (st == QR_E_LIMIT && res->errors.count == 0)
        qr_errlist_addf(&res->errors, QR_E_LIMIT, "", "raise qr_render_opts.max_output",
                        "the output is larger than the limit of %zu bytes", sink->limit);
    else if (st != QR_OK && res->errors.count == 0)
        qr_errlist_addf(&res->errors, st, "", NULL, "the %s backend failed: %s", be->name,
                        qr_status_str(st));
    if (words.doc) doc_words_end(&words, NULL, NULL, NULL);
    res->pages = ctx.pages;
    qr_sheet_fits_free(ctx.sheet_fits);
    if (with_toc) toc_end(&toc);
    free(pages);
    free(last);
    qr_arena_free(&cont);
    qr_doc_free(doc);
    return st;
}

qr_status qr_render_mem(const char *spec, size_t len, qr_kind kind, qr_format format,
                        const qr_render_opts *opts, qr_result *res)
{
    result_init(res);
    qr_buf out = {0};
    qr_sink sink;
    qr_sink_init_buf(&sink, &out);
    spec_in in = {.text = spec, .len = len};
    qr_status st = render_to(&in, kind, format, opts, &sink, res);
    if (st == QR_OK && out.oom) st = QR_E_NOMEM;
    if (st == QR_OK) {
        res->data = (unsigned char *)qr_buf_steal(&out, &res->size);
    } else {
        qr_buf_free(&out);
    }
    return finish(res, st);
}

/* ---- atomic file output ----------------------------------------------------- */

static qr_status atomic_sink_write(void *closure, const void *data, size_t n)
{
    return qr_atomic_write(closure, data, n) == 0 ? QR_OK : QR_E_IO;
}

/* Render to path atomically (res already initialised): core/atomic.h's
 * file, unnamed until complete where the kernel allows, so a render that
 * fails or is killed by any signal leaves no file behind. */
static qr_status render_file(const spec_in *in, qr_kind kind, qr_format format, const char *path,
                             const qr_render_opts *opts, qr_result *res)
{
    size_t plen = strlen(path);
    if (plen == 0 || plen + 16 > PATH_MAX) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "output path is empty or too long", NULL);
        return finish(res, QR_E_USAGE);
    }
    qr_atomic out;
    /* The file is synced before its rename, so after a crash it is whole or
     * absent (DESIGN.md: atomic). The folder is not synced: that would only
     * make the new name durable, which the contract does not ask of -o
     * files (the store syncs its folders), and cost a second journal flush
     * (2-8 ms of I/O wait, issue 22). */
    if (qr_atomic_begin_path(&out, path, QR_SYNC_FILE) != 0) {
        qr_errlist_addf(&res->errors, QR_E_IO, "", "check that the folder exists and is writable",
                        "cannot create a file next to %s: %s", path, strerror(errno));
        return finish(res, QR_E_IO);
    }
    qr_sink sink = {0};
    sink.write = atomic_sink_write;
    sink.closure = &out;
    qr_status st = render_to(in, kind, format, opts, &sink, res);
    if (st == QR_OK && qr_atomic_commit(&out) != 0) {
        st = QR_E_IO;
    } else if (st != QR_OK) {
        qr_atomic_abort(&out);
    }
    if (st == QR_E_IO && res->errors.count == 0)
        qr_errlist_addf(&res->errors, QR_E_IO, "", NULL, "cannot write %s: %s", path,
                        strerror(errno));
    if (st == QR_OK) res->size = sink.bytes;
    return finish(res, st);
}

qr_status qr_render_file(const char *spec, size_t len, qr_kind kind, qr_format format,
                         const char *path, const qr_render_opts *opts, qr_result *res)
{
    result_init(res);
    spec_in in = {.text = spec, .len = len};
    return render_file(&in, kind, format, path, opts, res);
}

/* ---- spec from a file --------------------------------------------------------- */

/* Reads a file descriptor in 64 KiB gulps, handed out as the compiler asks. */
typedef struct fd_reader {
    int fd;
    int err; /* errno of a failed read, else 0 */
    char *buf;
    size_t pos, len;
    struct timespec deadline; /* read_timeout: when the input must be whole; 0: none */
    int timed_out;
} fd_reader;

/* Milliseconds left before r's deadline (at least 0); -1: no deadline. */
static int ms_left(const fd_reader *r)
{
    if (!r->deadline.tv_sec) return -1;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long long ms = (long long)(r->deadline.tv_sec - now.tv_sec) * 1000 +
                   (r->deadline.tv_nsec - now.tv_nsec) / 1000000;
    return ms < 0 ? 0 : ms > INT_MAX ? INT_MAX : (int)ms;
}

static size_t fd_read(void *ctx, char *out, size_t size)
{
    fd_reader *r = ctx;
    if (r->timed_out) return (size_t)-1;
    if (r->pos == r->len) {
        ssize_t n;
        if (ms_left(r) >= 0) { /* wait for bytes no later than the deadline */
            struct pollfd pfd = {.fd = r->fd, .events = POLLIN};
            int ready;
            do
                ready = poll(&pfd, 1, ms_left(r));
            while (ready < 0 && errno == EINTR);
            if (ready == 0) {
                r->timed_out = 1;
                return (size_t)-1;
            }
        }
        do
            n = read(r->fd, r->buf, 65536);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
            r->err = errno ? errno : EIO;
            return (size_t)-1;
        }
        r->pos = 0;
        r->len = (size_t)n;
        if (n == 0) return 0;
    }
    size_t n = r->len - r->pos < size ? r->len - r->pos : size;
    memcpy(out, r->buf + r->pos, n);
    r->pos += n;
    return n;
}

static int fd_rewind(void *ctx)
{
    fd_reader *r = ctx;
    r->pos = r->len = 0;
    return lseek(r->fd, 0, SEEK_SET) == 0 ? 0 : -1;
}

qr_status qr_render_path(const char *spec_path, qr_kind kind, qr_format format,
                         const char *out_path, const qr_render_opts *opts, qr_result *res)
{
    result_init(res);
    if (!spec_path || !out_path) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "qr_render_path: name the spec and the output",
                       NULL);
        return finish(res, QR_E_USAGE);
    }
    int is_stdin = strcmp(spec_path, "-") == 0;
    int fd = is_stdin ? STDIN_FILENO : open(spec_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        qr_errlist_addf(&res->errors, QR_E_IO, "", NULL, "cannot open %s: %s", spec_path,
                        strerror(errno));
        return finish(res, QR_E_IO);
    }
    /* A file's size is known: past max_input it fails before a byte is read. */
    qr_compile_opts co;
    compile_opts(&co, opts);
    struct stat sb = {0};
    qr_status st;
    if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) &&
        (st = qr_input_size_check((size_t)sb.st_size, &co.limits, &res->errors)) != QR_OK) {
        if (!is_stdin) close(fd);
        return finish(res, st);
    }
    fd_reader r = {.fd = fd, .buf = malloc(65536)};
    if (opts && opts->read_timeout > 0) {
        clock_gettime(CLOCK_MONOTONIC, &r.deadline);
        r.deadline.tv_sec += opts->read_timeout;
    }
    if (!r.buf) {
        if (!is_stdin) close(fd);
        qr_errlist_add(&res->errors, QR_E_NOMEM, "", "out of memory", NULL);
        return finish(res, QR_E_NOMEM);
    }
    spec_in in = {.read = fd_read, .ctx = &r};
    if (S_ISREG(sb.st_mode)) { /* a file: a big sheet can stream (spec/stream.h) */
        in.rewind = fd_rewind;
        in.file_size = (size_t)sb.st_size;
    }
    st = render_file(&in, kind, format, out_path, opts, res);
    if (r.timed_out && st != QR_OK) {
        /* the stalled input, whatever the compiler made of its end */
        qr_errlist_clear(&res->errors);
        st = qr_errlist_addf(&res->errors, QR_E_LIMIT, "",
                             "raise qr_render_opts.read_timeout, or check what writes the input",
                             "%s did not arrive whole within %d s (the limit read_timeout)",
                             is_stdin ? "the spec on stdin" : spec_path, opts->read_timeout);
    } else if (r.err && st == QR_E_IO) {
        /* the compiler's "cannot read the spec", with the file named */
        qr_errlist_clear(&res->errors);
        qr_errlist_addf(&res->errors, QR_E_IO, "", NULL, "cannot read %s", spec_path);
    }
    free(r.buf);
    if (!is_stdin) close(fd);
    return finish(res, st);
}
