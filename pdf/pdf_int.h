/* pdf_int.h: internals of the PDF/PNG backend, shared by pdf.c (the passes
 * and the two backends), text.c (PangoLayouts from qr_text), layout.c
 * (measure and paginate) and paint.c (draw one page on a cairo_t).
 *
 * Never installed; nothing outside pdf/ includes it. The only place in the
 * library that sees cairo or pango.
 */
#ifndef QR_PDF_INT_H
#define QR_PDF_INT_H

#include <cairo.h>
#include <pango/pangocairo.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "backend.h"
#include "buf.h"
#include "fonts.h"
#include "text.h"
#include "style.h"

/* ---- laid-out text ---------------------------------------------------------- */

/* A link inside a text: a byte range of the layout's text and its URI. */
typedef struct pd_link {
    int start, end;
    const char *uri;    /* an external link, or NULL for an internal one: */
    const char *anchor; /* the target block's id; layout.c resolves it after pagination */
    size_t page;        /* 1-based page of the target, 0: not resolved (no annotation) */
    double x, y;        /* the target's top-left on that page */
} pd_link;

struct pd_text;
/* A footnote reference inside a text: its byte offset and the note's text
 * laid out at the column width ("N" and the note), placed at the foot of
 * the page where the line holding the reference lands. */
typedef struct pd_note {
    int at;
    const struct pd_text *text;
    const qr_text *src; /* the note */
    unsigned no;
} pd_note;

/* One line of a layout, measured once (points, relative to the layout's top-left). */
typedef struct pd_line {
    PangoLayoutLine *line; /* owned by the layout; NULL when only measured (layout_only) */
    size_t base;        /* the text's byte where line's layout starts (a huge text has several) */
    int start, length;  /* the line's bytes in its layout's text (line->start_index, length) */
    double x;           /* left of the line's logical box (alignment included) */
    double top, height; /* logical box */
    double ascent;      /* baseline - top */
} pd_line;

/* A run of a text in another language than its element's (an Arabic or
 * Japanese phrase in a Latin paragraph): bytes [start, end) of the layout's
 * text, tagged as a Span with its own /Lang in the tagged PDF. */
typedef struct pd_span {
    int start, end;
    const char *lang;
} pd_span;

/* A paragraph-like text laid out at a fixed width. */
typedef struct pd_text {
    PangoLayout *layout; /* the first of n_slots layouts; unreffed by pd_ctx_free */
    pd_line *lines;
    size_t n_lines;
    double width, height; /* width: the wrap width (or the ink width when unwrapped) */
    pd_link *links;
    size_t n_links;
    pd_note *notes; /* footnote references (page-foot notes only) */
    size_t n_notes;
    int rtl;          /* the paragraph direction quire chose (fonts/) */
    const char *lang; /* the language of most of its letters when not the document's, or NULL */
    pd_span *spans;   /* its runs in another language than lang (else the document's) */
    size_t n_spans;
    int has_rgb; /* pd_style's colour */
    uint32_t rgb;
    /* layout == owner->layouts[slot]; last_page: the last page that draws
     * it (set by the PDF paint pass's helper, which frees it after that);
     * a huge text's pieces are owner->layouts[slot .. slot + n_slots) */
    struct pd_ctx *owner;
    size_t slot, n_slots, last_page;
    /* laid out by simple_text.c without a PangoLayout (its lines' line is
     * NULL): its text and faces, for qr_pdf_simple_record(); else NULL */
    const char *simple;
    const struct qr_simple_item *simple_items;
    size_t n_simple_items;
    const struct pd_paint *paint; /* what pango paints over its glyphs (simple_draw.c) */
    size_t n_paint;
    const int *cuts; /* the paint's edges, increasing (the runs split there) */
    size_t n_cuts;
} pd_text;

/* An attribute pango paints with over bytes [start, end) of a simple text:
 * text_attrs()' colours and lines, as simple_draw.c draws them. */
enum { PD_PAINT_FG, PD_PAINT_BG, PD_PAINT_UNDERLINE, PD_PAINT_STRIKE };
typedef struct pd_paint {
    int start, end;
    int kind;     /* PD_PAINT_* */
    uint32_t rgb; /* FG, BG: 0xRRGGBB */
} pd_paint;

/* How a text is set. */
typedef struct pd_style {
    double size; /* points */
    unsigned bold : 1, italic : 1, mono : 1, has_rgb : 1;
    int align;    /* PD_ALIGN_* */
    uint32_t rgb; /* with has_rgb: the text's colour, else the theme's text colour */
    int linked;   /* links are added to it after measuring (a TOC entry): pango lays it out */
} pd_style;

enum { PD_ALIGN_START, PD_ALIGN_CENTER, PD_ALIGN_END };

/* Line pitch of every text: layout/rhythm.h's, fixed per paragraph (text.c).
 * DejaVu Sans (and Sans Mono) ascent and ascent + descent, in em
 * (1901 and 1901 + 483 of 2048 units): where the baseline sits in a line. */
#define PD_BASE_ASCENT (1901.0 / 2048.0)
#define PD_BASE_HEIGHT (2384.0 / 2048.0)

/* ---- measured blocks ---------------------------------------------------------- */

typedef enum pb_kind {
    PB_TEXT,
    PB_LIST,
    PB_TABLE,
    PB_CODE,
    PB_IMAGE,
    PB_BREAK,
    PB_CHART,
    PB_QUOTE,   /* text indented beside a bar, attribution (text2) below */
    PB_CALLOUT, /* title (text2) and text in a tinted box with a bar in the tone's ink */
    PB_RULE,
    PB_TOC /* title (text), then entries with their page numbers */
} pb_kind;

/* One entry of a table of contents: its text, the block it
 * points at (an index of c->blocks) and, after pagination, its page number. */
typedef struct pd_entry {
    const pd_text *text;
    double indent;
    size_t target;
    const pd_text *num; /* laid out after pagination */
} pd_entry;

/* One list item, flattened: its marker and body, placed at an indent. */
typedef struct pd_item {
    const pd_text *marker;
    const pd_text *body;
    double body_x, marker_x; /* from the text column's left edge */
    int depth;               /* 0-based nesting depth (for the structure tree) */
} pd_item;

typedef struct pd_block {
    pb_kind kind;
    const char *path;
    double space_before, space_after;
    int heading;         /* 1..6 for headings (keep with next, outline entry), 0 otherwise */
    int rule;            /* the title: a rule in the theme's accent below it */
    int title;           /* the document's title: tagged H1 */
    const char *outline; /* the heading's text for the outline */
    const pd_text *text; /* PB_TEXT, PB_CODE */
    pd_item *items;      /* PB_LIST */
    size_t n_items;
    /* PB_TABLE */
    size_t n_cols, n_rows;
    double *col_x, *col_w;
    const pd_text **header; /* n_cols, or NULL */
    const pd_text **cells;  /* n_rows * n_cols */
    /* PB_IMAGE */
    cairo_surface_t *surface; /* NULL: draw a placeholder box */
    const qr_image *png;      /* a PNG that images.c decodes after measuring, or NULL */
    double img_w, img_h;
    int img_align;      /* qr_align: an image's place across the column */
    const pd_text *alt; /* placeholder label */
    /* PB_CHART (img_w x img_h): the chart (alt text and data, for a
     * Figure and a Table in a structure tree), its layout and its labels'
     * texts, plot->texts[i] measured as chart_texts[i] */
    const struct qr_chart *chart;
    const struct qr_chart_plot *plot;
    const pd_text **chart_texts;
    /* issue 32 */
    const pd_text *text2;   /* PB_QUOTE: the attribution; PB_CALLOUT: the title */
    uint32_t ink, fill;     /* PB_QUOTE, PB_CALLOUT: bar and ground */
    const pd_text *caption; /* tables (above), images, charts, code (below), or NULL */
    /* PB_TABLE cell looks: per position the columns its cell spans (0:
     * covered by a span, NULL: all 1) and its ground (0: none), header row
     * then body rows; head_rows: body rows repeated with the header */
    const uint16_t *head_span, *span;
    const uint32_t *head_fill, *cell_fill;
    size_t head_rows;
    /* row spans (NULL when none): per position the rows its cell spans
     * (1 for most; a position a rowspan above covers has PD_MERGED in its
     * span, with the spanning cell's colspan), header row then body rows;
     * per grid row (the header row first) its height when its rows are
     * kept together, and where the group of rows spans bind it to ends */
    const uint16_t *head_rspan, *rspan;
    const double *row_h;
    const size_t *group_end;
    pd_entry *entries; /* PB_TOC */
    size_t n_entries;
    const char *id;    /* the block's id (a link target), or NULL */
    size_t page;       /* where pagination placed the block's start: 1-based page, */
    double at_x, at_y; /* and its top-left */
    size_t last_page;  /* the page pagination was on once it placed the block (a table's
                          rows continued past page: a larger number) */
} pd_block;

/* ---- positioned boxes: what pass 1 produces, pass 2 paints ---------------------- */

typedef enum pd_op_kind {
    OP_LINE,   /* a text line: x, y = its baseline origin */
    OP_FILL,   /* a filled rectangle */
    OP_STROKE, /* a rectangle outline */
    OP_IMAGE,  /* blk's image in x, y, w, h */
    OP_DEST,   /* blk is a heading that starts at x, y: an outline entry */
    OP_CHART,  /* blk's chart shapes in x, y, w, h (its labels follow as OP_LINE) */
    OP_TAG     /* a structure tag (tagged PDF): color = PD_TAG_*, line = 1 begin, 0 end */
} pd_op_kind;

/* The structure elements of a tagged PDF (tagged.c names them). */
enum {
    PD_TAG_P,
    PD_TAG_H1, /* H1..H6 follow in order */
    PD_TAG_H6 = PD_TAG_H1 + 5,
    PD_TAG_L,
    PD_TAG_LI,
    PD_TAG_LBL,
    PD_TAG_LBODY,
    PD_TAG_TABLE,
    PD_TAG_TR,
    PD_TAG_TH,
    PD_TAG_TD,
    PD_TAG_CODE,
    PD_TAG_FIGURE,  /* an image or a chart, whose alt text tagged.c adds */
    PD_TAG_DATA_TH, /* a cell of a chart's data table: no content, its text */
    PD_TAG_DATA_TD, /* added by tagged.c as /ActualText (then a TH or a TD) */
    PD_TAG_BLOCKQUOTE,
    PD_TAG_CAPTION,
    PD_TAG_NOTE,
    PD_TAG_TOC,
    PD_TAG_TOCI,
    PD_TAG_DIV,     /* a callout */
    PD_TAG_SPAN,    /* a callout's title */
    PD_TAG_LANG_P,  /* a P in another language than the document's (its /Lang: tagged.c) */
    PD_TAG_LANG_H1, /* H1..H6 in another language follow in order */
    PD_TAG_LANG_H6 = PD_TAG_LANG_H1 + 5,
    PD_TAG_LANG_SPAN /* a span in another language inside a line (its /Lang: tagged.c) */
};

typedef struct pd_op {
    uint8_t kind;
    uint32_t color; /* 0xRRGGBB for FILL/STROKE */
    double x, y, w, h;
    const pd_text *text; /* OP_LINE */
    size_t line;
    const pd_block *blk; /* OP_IMAGE, OP_DEST */
} pd_op;

/* ---- the render context ---------------------------------------------------------- */

typedef struct pd_ctx {
    qr_render_ctx *rc;
    const qr_doc *doc;
    qr_style style; /* the spec's theme (layout/style.h): sizes and colours */
    qr_fonts *fonts;
    const char *lang;
    qr_arena arena; /* scratch: pd_text, pd_block, lines... */
    PangoContext *pc;
    int for_png;   /* images: PNG previews cannot draw JPEG mime data */
    int has_links; /* some text holds a link */

    /* page geometry, points */
    double page_w, page_h, left, top, width, bottom;

    pd_block *blocks;
    size_t n_blocks;

    pd_op *ops;
    size_t n_ops, cap_ops;
    size_t *page_start; /* ops of page p: [page_start[p], page_start[p+1]) */
    size_t n_pages, cap_pages;

    /* owned objects, released by pd_ctx_free */
    PangoLayout **layouts;
    size_t n_layouts, cap_layouts;
    cairo_surface_t **surfaces;
    size_t n_surfaces, cap_surfaces;

    /* simple_text.c's words and faces for pc (made on first use), or NULL */
    struct qr_simple *simple;
    size_t simple_pinned; /* its faces pinned so far (faces.c) */
    /* a document's PDF: simple texts are painted without a PangoLayout too
     * (text.c), not only measured (layout_only) */
    int simple_paint;

    /* scratch, reused for every text */
    qr_text_ctx text; /* the text layer (text/): segments, missing-glyph warnings */
    qr_buf tbuf;
    size_t *seg_off; /* each segment's offset in tbuf (and the end after the last) */
    size_t cap_seg_off;

    qr_status status; /* sticky: the first failure wins */

    /* pagination's footnotes of the page being filled (layout.c): their
     * texts, their height with the separator's, and the page's text bottom
     * without them (c->bottom rises as notes are added) */
    struct pd_foot {
        const pd_text **notes;
        size_t n, cap;
        double h, bottom;
    } foot;

    /* slides.c: a deck's pictures, each source decoded once per render */
    struct pd_pics *pics;

    /* the languages of the spans the paint pass tagged (PD_TAG_LANG_SPAN),
     * in painting order: tagged.c gives each its /Lang */
    const char **span_langs;
    size_t n_span_langs, cap_span_langs;
    /* the PDF paint pass's recording helper (pdf.c), or NULL */
    struct pd_pipe *pipe;

    /* the helper that measured part of the blocks (its layouts and arena
     * live until this context is freed), or NULL */
    struct pd_ctx *helper;
    qr_render_ctx helper_rc;
    qr_errlist helper_warnings, helper_errors;
    size_t pins_before; /* faces pinned when the helper started (QUIRE_PDF_FACE_TRACE) */
} pd_ctx;

/* pdf.c */
qr_status qr_pdf_fail(pd_ctx *c, qr_status st, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/** Draw units from the render's work budget (core/budget.h, the document's
 *  qr_doc.work) for what ("the pages", "the images") at path: 0, or -1
 *  once the budget is spent, with c->status QR_E_LIMIT and the budget's
 *  error naming max_work (added once). Main thread only. */
int qr_pdf_work(pd_ctx *c, uint64_t units, const char *path, const char *what);

/* xobjects.c */
/* One key per image in a page's /XObject resources: the PDF's bytes pass
 * through qr_pdf_dedup_write on their way to the sink (next), which blanks
 * the repeated keys cairo 1.16 writes when a page paints one picture twice,
 * the same number of bytes in the same places. Zero-initialised. */
typedef struct qr_pdf_dedup {
    int on;      /* inside "/XObject << ... >>" */
    qr_buf held; /* its entries so far */
} qr_pdf_dedup;

cairo_status_t qr_pdf_dedup_write(qr_pdf_dedup *d, const unsigned char *data, unsigned int len,
                                  cairo_write_func_t next, void *closure);
/** Hand on anything still held and free d's buffer (the surface is
 *  finished). */
cairo_status_t qr_pdf_dedup_end(qr_pdf_dedup *d, cairo_write_func_t next, void *closure);

/* text.c */
/** Lay out a qr_text (or, when t is NULL, the plain UTF-8 string s of n
 *  bytes) at width points (<= 0: unwrapped). Warns about uncovered code
 *  points under path. Returns NULL on failure (c->status is set). */
pd_text *qr_pdf_text(pd_ctx *c, const qr_text *t, const char *s, size_t n, const pd_style *st,
                     double width, const char *path);
/** A footnote laid out at the column width in the footnote size: its
 *  number raised, a space, the note's runs. NULL on failure. */
pd_text *qr_pdf_note_text(pd_ctx *c, const qr_text *note, unsigned no, const char *path);
/* simple_draw.c */
/** Record line i of t, laid out by simple_text.c (t->simple), as
 *  qr_pdf_rec_line() would record pango's: 0, or -1 out of memory (nothing
 *  appended). Only one thread at a time may use t's owner's cache. */
int qr_pdf_simple_record(const pd_text *t, size_t i, qr_buf *out);
/** pango_layout_line_get_x_ranges() of line i of t over its bytes [s, e)
 *  (inside the line): *ranges (g_free) and *n; -1 out of memory. */
int qr_pdf_simple_x_ranges(const pd_text *t, size_t i, int s, int e, int **ranges, int *n);
/** Keep a layout until pd_ctx_free. Returns 0, or -1 on OOM. */
int qr_pdf_keep_layout(pd_ctx *c, PangoLayout *l);

/* layout.c */
/** Pass 1a: measure the title into *b. */
qr_status qr_pdf_measure_title(pd_ctx *c, pd_block *b);
/** Pass 1a: measure the document's blocks [from, to) into out[0..to-from). */
qr_status qr_pdf_measure_blocks(pd_ctx *c, pd_block *out, size_t from, size_t to);
/** Keep a cairo surface until pd_ctx_free. Returns 0, or -1 on OOM. */
int qr_pdf_keep_surface(pd_ctx *c, cairo_surface_t *s);
/** Pass 1b: paginate c->blocks into c->ops / c->page_start. */
qr_status qr_pdf_paginate(pd_ctx *c);

/* chart.c */
struct qr_chart;
/** Pass 1a: lay out a chart block (labels measured with pango) into *b. */
qr_status qr_pdf_measure_chart(pd_ctx *c, pd_block *b, const struct qr_chart *ch);
/** Pass 2: draw an OP_CHART box's shapes (not its labels). */
void qr_pdf_paint_chart(cairo_t *cr, const pd_op *o);
/* images.c */
/** Pass 1a, after measuring: decode the PNG images of c->blocks (those
 *  with png set) into their surfaces, each distinct one once, downsampled
 *  to the resolution it is drawn at, within the document's budgets; a
 *  warning for each image downsampled or skipped (a placeholder). */
qr_status qr_pdf_decode_images(pd_ctx *c);
/* The resolution an image is kept at for its drawn size, and the pixels a
 * render may decode in all (8 images of 8000 x 8000: about 1 s of CPU each on
 * a 2-core machine, so a render stays within the abuse suite's 10 s). */
#define QR_PDF_IMAGE_DPI 300.0
#define QR_PDF_DECODE_BUDGET 512e6
/** s resampled to w x h pixels (no larger than s): each pixel the mean of
 *  the source pixels its box covers. A new surface, or NULL. */
cairo_surface_t *qr_pdf_downsample(cairo_surface_t *s, int w, int h);
/* A chart's data as a table in the structure tree: at most this many cells
 * (else the Figure's /Alt only). */
#define QR_PDF_CHART_CELLS 4096
/** The table of ch's data: *rows x *cols cells (a header row; a first
 *  column of categories, or point numbers for scatter). 0 when it has more
 *  than QR_PDF_CHART_CELLS cells (no table then). */
int qr_pdf_chart_grid(const struct qr_chart *ch, size_t *rows, size_t *cols);
/** Append the table's cells to b row by row, each NUL-terminated: the
 *  category axis title (scatter: "#") and the series' names ("Series N"
 *  when unnamed; scatter: "name x", "name y"), then per point its category
 *  and each series' value (empty past a short series). */
void qr_pdf_chart_cells(const struct qr_chart *ch, qr_buf *b);
/** Lay out and draw chart ch, labels included, in the w x h point box at
 *  (x, y) on cr at once (slide and sheet previews), in the ink of st. */
qr_status qr_pdf_draw_chart(pd_ctx *c, cairo_t *cr, const struct qr_chart *ch, double x, double y,
                            double w, double h, const qr_style *st);

/* replay.c */
/* The records of a page's recording. */
enum { REC_GLYPHS = 1, REC_RECT, REC_LINE_END, REC_TAG, REC_FOOTER, REC_CUT };
/** A recording PangoRenderer (g_object_unref it). */
PangoRenderer *qr_pdf_rec_renderer_new(void);
/** Append what pango_cairo_show_layout_line(line) would draw on a PDF
 *  surface to out. Returns 0, or -1 when only pango can draw the line (a
 *  REC_CUT mark is appended instead: the reader paints from there itself). */
int qr_pdf_rec_line(PangoRenderer *r, qr_buf *out, PangoLayoutLine *line);
/** Append what rec_line records for a left-to-right glyph item without a
 *  colour of its own (font's glyphs[0..n) at (x, y) pango units, each
 *  glyph's first byte log_clusters[i] from text, text_len bytes): a line
 *  simple_text.c laid out, with no PangoLayoutLine; then its end. */
void qr_pdf_rec_glyph_run(qr_buf *out, const PangoColor *fg, PangoFont *font, int x, int y,
                          const char *text, int text_len, const PangoGlyphInfo *glyphs,
                          const int *log_clusters, int n);
/** What rec_line records for a rectangle (a run's ground, a line under or
 *  through it) in colour c (NULL: none), pango units. */
void qr_pdf_rec_rect(qr_buf *out, const PangoColor *c, int x, int y, int width, int height);
void qr_pdf_rec_line_end(qr_buf *out);
/** 0 when recordings a and b of one line are the same, each glyph run's
 *  text pointer taken from its own base (QUIRE_SIMPLE_TEXT=check). */
int qr_pdf_rec_compare(const qr_buf *a, const char *base_a, const qr_buf *b, const char *base_b);
/** Append a link tag's attributes, the footer's origin, or a cut mark. */
void qr_pdf_rec_tag(qr_buf *out, const char *attrs);
void qr_pdf_rec_footer(qr_buf *out, double x, double y);
void qr_pdf_rec_cut(qr_buf *out);

/* A reader over one page's recording. */
typedef struct pd_recread {
    const unsigned char *data;
    size_t len, pos;
} pd_recread;

/** The kind of the next record, or 0 at the end. */
int qr_pdf_rec_next(pd_recread *rd);
/** Replay the next line at cr's current point, as pango would draw it;
 *  -1 at a cut mark (nothing read). */
int qr_pdf_rec_replay_line(pd_recread *rd, cairo_t *cr);
/** The same, calling at(arg, text) before each glyph run is drawn, with the
 *  run's first byte in its layout's text (paint.c opens and closes a
 *  language span's tag there). */
int qr_pdf_rec_replay_line_at(pd_recread *rd, cairo_t *cr, void (*at)(void *, const char *),
                              void *arg);
/* Glyph runs waiting to be drawn by one cairo_show_text_glyphs() call: the
 * runs of consecutive lines in the same scaled font, colour and
 * transformation, their glyphs, clusters and text joined. cairo's work per
 * call (its recording, the analysis replay's extents and region, the text
 * operators' set-up) is then paid per batch, not per run; the content it
 * writes is the same, glyph by glyph (replay.c keeps apart the runs cairo
 * would not write when drawn alone). Zero-initialise and set the page's
 * size; the painter flushes it before anything else is drawn or tagged. */
typedef struct pd_batch {
    cairo_scaled_font_t *font;
    double rgba[4];
    cairo_matrix_t ctm;
    qr_buf glyphs, clusters, text; /* cairo_glyph_t, cairo_text_cluster_t, UTF-8 */
    size_t n_glyphs, n_clusters;
    double page_w, page_h; /* the page (set by the painter): runs off it are drawn alone */
    cairo_scaled_font_t *margin_font; /* the font whose margin is known */
    double margin;
} pd_batch;
/** qr_pdf_rec_replay_line(), its glyph runs added to b (a run that must be
 *  drawn alone flushes b and is drawn; a rectangle flushes b first). */
int qr_pdf_rec_replay_line_batch(pd_recread *rd, cairo_t *cr, pd_batch *b);
/** Draw b's runs, if any, and empty it. */
void qr_pdf_batch_flush(pd_batch *b, cairo_t *cr);
void qr_pdf_batch_free(pd_batch *b);
/** The next link tag's attributes, or NULL when the next record is not one. */
const char *qr_pdf_rec_replay_tag(pd_recread *rd);
/** The footer line's origin: 0, or -1 when the next record is not one. */
int qr_pdf_rec_replay_footer(pd_recread *rd, double *x, double *y);

/* pdf.c: the recording helper of a PDF's paint pass. */
/** Stop it (wait for its thread); later pages are painted with pango here. */
void qr_pdf_pipe_stop(pd_ctx *c);

/* paint.c */
/* The open outline entries while painting a PDF: parents of the next one. */
typedef struct pd_outline {
    int id[8], level[8];
    int depth;
} pd_outline;

/** Pass 2: paint page p (0-based) on cr, in points, with its footer. ol !=
 *  NULL: cr's target is a PDF surface; also write link annotations and the
 *  outline entries of the headings on this page. */
void qr_pdf_paint_page(pd_ctx *c, cairo_t *cr, size_t p, pd_outline *ol, pd_recread *rd);
/** The pango half of painting page p of a PDF, on a helper thread: record
 *  into out what qr_pdf_paint_page() then replays with rd (footer texts are
 *  laid out in f). Returns 0, or -1 after a cut mark (stop recording). */
int qr_pdf_record_page(pd_ctx *c, pd_ctx *f, PangoRenderer *r, size_t p, qr_buf *out);

/* ---- tagged.c: the tagged PDF ------------------------------------------------ */

/* A change of length in the bytes cairo wrote: at original offset pos,
 * delta bytes more (or fewer). */
typedef struct pd_shift {
    size_t pos;
    long long delta;
} pd_shift;

typedef struct pd_shifts {
    pd_shift *items; /* in increasing pos */
    size_t n, cap;
} pd_shifts;

/** The page furniture of one page as artifacts: page holds the bytes cairo
 *  wrote at cairo_show_page (from file offset at); in the page's content
 *  stream (FlateDecode, starting with cairo's "1 0 0 -1 0 " flip) each text
 *  object whose baselines lie in the top margin (y < top) or the bottom
 *  one (y > bottom) is wrapped in "/Artifact << /Type /Pagination /Subtype
 *  /Header|/Footer >> BDC ... EMC" (moved after the page's last marked
 *  content when drawn inside a structure element left open at the page's
 *  end), other text outside marked content in "/Artifact BMC ... EMC"
 *  (cairo 1.16 writes no artifacts); the stream is recompressed and its
 *  length object rewritten, the shifts appended to sh. A page not laid out
 *  so is left as it was. Returns 0, or -1 on OOM. */
int qr_pdf_artifact_page(qr_buf *page, size_t at, double top, double bottom, pd_shifts *sh);

/** The structure type of PD_TAG_* tag ("P", "H1", "Figure"...). */
const char *qr_pdf_tag_name(int tag);
/** Paint an OP_TAG op on a PDF surface (cairo_tag_begin/end). */
void qr_pdf_tag_paint(cairo_t *cr, const pd_op *o);
/** Complete what cairo 1.16 cannot write itself, in the bytes it wrote
 *  while finishing the surface (tail, which started at file offset base):
 *  /Lang lang and, with a title, /ViewerPreferences /DisplayDocTitle in the
 *  catalog, /Alt on each Figure element (alts[k] for the k-th, in document
 *  order), each chart data cell (PD_TAG_DATA_TH/TD) made a TH or TD with
 *  /ActualText cells[k] (the k-th, in document order), each paragraph or
 *  heading tagged PD_TAG_LANG_P..H6 made a P or Hn with /Lang langs[k] (the
 *  k-th, in document order), each PD_TAG_LANG_SPAN made a Span with /Lang
 *  spans[k] (the k-th painted: pd_ctx.span_langs), and with xmp an XMP
 *  metadata stream (a new
 *  object before the cross-reference table, /Metadata in the catalog: dc
 *  title, creator, description and subject, pdf Keywords, xmp CreateDate,
 *  ModifyDate and CreatorTool), the cross-reference offsets moved to match
 *  (and by pre's shifts, made before the tail). Returns 0, or -1 on OOM
 *  (tail is left as it was). */
/* The document's metadata for the XMP stream (each NULL when not set;
 * keywords joined with ", "; date W3CDTF, as the info dictionary's). */
typedef struct pd_xmp {
    const char *title, *author, *subject, *keywords, *date;
    const char *producer; /* as cairo writes it in the info dictionary */
} pd_xmp;

int qr_pdf_tag_patch(qr_buf *tail, size_t base, const char *lang, int has_title,
                     const char *const *alts, size_t n_alts, const char *const *cells,
                     size_t n_cells, const char *const *langs, size_t n_langs,
                     const char *const *spans, size_t n_spans, const pd_shifts *pre,
                     const pd_xmp *xmp);

/* ---- faces.c ---------------------------------------------------------------- */

/** Keep the FreeType face of every font lay draws with open for the life of
 *  the process (see faces.c: cairo 1.16 closes unlocked faces past 10). */
void qr_pdf_pin_faces(PangoLayout *lay);
/** The same for one font. */
/** Give pc the thread's font map if it has none yet (a context that only
 *  measures starts without one: pdf.c ctx_pango); every PangoLayout,
 *  fontset and font asked of a context first calls it. Cheap when done. */
void qr_pdf_fonts_ready(PangoContext *pc);

/** pc set up as the backend lays out: font options (no hinting, metrics
 *  unhinted, grey antialiasing), 72 dpi, glyph positions not rounded, left
 *  to right, language lang (NULL: "en"). */
void qr_pdf_context_setup(PangoContext *pc, const char *lang);

void qr_pdf_pin_font(PangoFont *font);
/** Faces pinned so far in the process (QUIRE_PDF_FACE_TRACE counts those a
 *  two-thread measure pinned late). */
size_t qr_pdf_pinned_count(void);

/** The faces a document needs: (family, language) pairs with the characters
 *  set in each, gathered before the threads start. */
typedef struct pd_needs pd_needs;
pd_needs *qr_pdf_needs_new(void);
/** Note that the UTF-8 text s[0..n) is set in family (in lang, or NULL for
 *  the context's), bold and/or italic. Returns 0, or -1 out of memory. */
int qr_pdf_needs_add(pd_needs *nd, const char *family, const char *lang, int bold, int italic,
                     const char *s, size_t n);
/** Open and pin every face pango picks for those characters, on pc's font
 *  map. */
void qr_pdf_needs_pin(pd_needs *nd, PangoContext *pc);
/** Ask pc's font map for the fontset of every need (fontconfig sorts new
 *  fontsets on pango's own threads) without opening a face: a second
 *  thread's map, before it measures. */
void qr_pdf_needs_prefetch(const pd_needs *nd, PangoContext *pc);
void qr_pdf_needs_free(pd_needs *nd);

#endif
