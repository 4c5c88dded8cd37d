/* layout.c: pass 1 of the PDF/PNG backend: measure, then paginate.
 *
 * measure: every block becomes a pd_block whose texts are laid out once at
 * their final width (the text column, a list indent, a table column), so each
 * line's height is known. paginate: a cursor walks the blocks top to bottom
 * and emits positioned boxes (pd_op) page by page: text lines, fills, grid
 * lines, images and outline destinations. Text breaks between lines; table
 * rows move whole to the next page, repeating the header row, unless a row is
 * taller than a page, in which case its cells continue line by line.
 * Headings keep with the next block. Nothing is drawn here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "rhythm.h"
#include "style.h"
#include "pdf_int.h"
#include "walk.h"
#include "words.h"

/* Type scale and spacing (points): the theme's (layout/style.h, c->style). */
#define BODY_SIZE (c->style.body_pt)
#define TITLE_SIZE (c->style.title_pt)
#define TABLE_SIZE (c->style.table_pt)
#define CODE_SIZE (c->style.code_pt)
#define PARA_AFTER (c->style.para_after)
#define LIST_INDENT (c->style.list_indent)
#define CELL_PAD (c->style.cell_pad)
#define CODE_PAD (c->style.code_pad)
#define MAX_PNG_PIXELS 64e6 /* decoded PNG images: 256 MB of ARGB at most */

#define HEADER_BG (c->style.header_fill)
#define GRID_RGB (c->style.grid)
#define CODE_BG (c->style.code_fill)
#define TITLE_RULE (c->style.title_rule_pt)

/* Quote and callout insets: the bar's width, and the gap from bar to text. */
#define BAR_W 3.0
#define BAR_GAP 10.0
#define BOX_PAD 8.0

/* ---- measure -------------------------------------------------------------------- */

/* The block's space before and after: layout/rhythm.h's, as the docx's. */
static void space(pd_block *b, qr_rhythm_space r)
{
    b->space_before = r.before;
    b->space_after = r.after;
}

/* The marker of item n (1-based) at depth d (0-based): layout/style.h's
 * labels, shared with the other backends. */
static void marker_text(int ordered, int depth, unsigned n, char *out)
{
    qr_look_label(ordered, depth, n, out);
}

typedef struct list_acc {
    pd_item *items;
    size_t n, cap;
    const qr_item **src; /* the item of each entry */
    int *depth;
    /* the markers laid out so far, shared by every item that shows the
     * same one (a document's lists count 1., 2., 3. again and again) */
    struct {
        char text[48];
        const pd_text *t;
    } marker[32];
    size_t n_marker;
    double step[9]; /* indent of each depth: the widest marker there, or more */
} list_acc;

/* The layout of marker m (body size, no width), shared; NULL on failure. */
static const pd_text *marker_layout(pd_ctx *c, list_acc *acc, const char *m, const char *path)
{
    size_t n = strlen(m), k = 0;
    for (; k < acc->n_marker; k++)
        if (strcmp(acc->marker[k].text, m) == 0) return acc->marker[k].t;
    pd_style st = {.size = BODY_SIZE};
    const pd_text *t = qr_pdf_text(c, NULL, m, n, &st, 0, path);
    if (t && n < sizeof acc->marker[0].text &&
        acc->n_marker < sizeof acc->marker / sizeof *acc->marker) {
        memcpy(acc->marker[acc->n_marker].text, m, n + 1);
        acc->marker[acc->n_marker++].t = t;
    }
    return t;
}

/* First pass over a list: one entry per item in reading order, with its
 * marker laid out, so each depth's indent can fit its widest marker. first:
 * the number of the first item (an ordered list's "start" at depth 0). A
 * task item's marker is its box. */
static qr_status list_markers(pd_ctx *c, list_acc *acc, const qr_item *items, size_t n, int ordered,
                              int depth, unsigned first, const char *path)
{
    for (size_t i = 0; i < n && c->status == QR_OK; i++) {
        const qr_item *it = &items[i];
        if (acc->n == acc->cap) {
            size_t cap = acc->cap ? acc->cap * 2 : 16;
            pd_item *p = realloc(acc->items, cap * sizeof *p);
            const qr_item **q = realloc(acc->src, cap * sizeof *q);
            int *dp = realloc(acc->depth, cap * sizeof *dp);
            if (p) acc->items = p;
            if (q) acc->src = q;
            if (dp) acc->depth = dp;
            if (!p || !q || !dp) return qr_pdf_fail(c, QR_E_NOMEM, path, "out of memory");
            acc->cap = cap;
        }
        size_t k = acc->n++;
        pd_item *pi = &acc->items[k];
        memset(pi, 0, sizeof *pi);
        acc->src[k] = it;
        acc->depth[k] = depth < 9 ? depth : 8;
        char m[48];
        if (ordered && qr_fonts_text_direction(&it->text) == QR_DIR_RTL) {
            /* U+200F RIGHT-TO-LEFT MARK: the number reads right to left
             * ("1." shows as ".1"), as in an Arabic or Hebrew list */
            memcpy(m, "\xE2\x80\x8F", 3);
            marker_text(ordered, depth, first + (unsigned)i, m + 3);
        } else {
            marker_text(ordered, depth, first + (unsigned)i, m);
        }
        if (it->task) strcpy(m, qr_look_task(it->task == QR_TASK_DONE));
        pi->marker = marker_layout(c, acc, m, it->text.path);
        if (!pi->marker) return c->status;
        double need = pi->marker->width + 6;
        if (need > acc->step[acc->depth[k]]) acc->step[acc->depth[k]] = need;
        if (it->n_items) {
            qr_status st2 =
                list_markers(c, acc, it->items, it->n_items, ordered, depth + 1, 1, path);
            if (st2 != QR_OK) return st2;
        }
    }
    return c->status;
}

/* Second pass: lay out each item's body at its depth's indent. A body in a
 * right-to-left paragraph hangs from the right edge, its marker on the right. */
static qr_status list_bodies(pd_ctx *c, list_acc *acc)
{
    pd_style st = {.size = BODY_SIZE};
    double indent[9], x = 0;
    for (int d = 0; d < 9; d++) {
        x += acc->step[d] > LIST_INDENT ? acc->step[d] : LIST_INDENT;
        /* Keep at least a third of the column for the text, however deep. */
        indent[d] = x < c->width * 2 / 3 ? x : c->width * 2 / 3;
    }
    for (size_t k = 0; k < acc->n && c->status == QR_OK; k++) {
        pd_item *pi = &acc->items[k];
        const qr_item *it = acc->src[k];
        double in = indent[acc->depth[k]];
        pi->depth = acc->depth[k];
        pi->body = qr_pdf_text(c, &it->text, NULL, 0, &st, c->width - in, it->text.path);
        if (!pi->body) return c->status;
        double gap = 5.0;
        if (pi->body->rtl) {
            pi->body_x = 0;
            pi->marker_x = c->width - in + gap;
        } else {
            pi->body_x = in;
            pi->marker_x = in - gap - pi->marker->width;
        }
    }
    return c->status;
}

static void image_destroy_data(void *p)
{
    (void)p; /* the bytes live in the document's arena */
}

int qr_pdf_keep_surface(pd_ctx *c, cairo_surface_t *s)
{
    if (c->n_surfaces == c->cap_surfaces) {
        size_t cap = c->cap_surfaces ? c->cap_surfaces * 2 : 8;
        cairo_surface_t **p = realloc(c->surfaces, cap * sizeof *p);
        if (!p) return -1;
        c->surfaces = p;
        c->cap_surfaces = cap;
    }
    c->surfaces[c->n_surfaces++] = s;
    return 0;
}

/* Size an image's box from its header; a PNG is decoded later, once the
 * whole document is measured (images.c), JPEG bytes go to the PDF as they are. */
static qr_status measure_image(pd_ctx *c, pd_block *b, const qr_image *im, const char *path)
{
    double dx = im->dpi_x > 0 ? im->dpi_x : 96, dy = im->dpi_y > 0 ? im->dpi_y : 96;
    double w = im->width_px * 72.0 / dx, h = im->height_px * 72.0 / dy;
    cairo_surface_t *s = NULL;
    if (im->type == QR_IMAGE_PNG && (double)im->width_px * im->height_px > MAX_PNG_PIXELS) {
        /* A small file can claim a huge canvas (a "PNG bomb"): cairo would
         * decode it into width * height * 4 bytes. */
        qr_errlist_addf(c->rc->warnings, QR_OK, path, "scale the image down before embedding it",
                        "the PNG image is %u x %u pixels, more than %.0f megapixels; a "
                        "placeholder is drawn",
                        (unsigned)im->width_px, (unsigned)im->height_px, MAX_PNG_PIXELS / 1e6);
    } else if (im->type == QR_IMAGE_PNG) {
        b->png = im;
    } else if (!c->for_png) {
        /* A 1x1 surface carrying the JPEG file: cairo's PDF surface writes the
         * bytes as a DCTDecode image and draws it in the surface's unit square,
         * scaled to the box. No decoding, no re-encoding. */
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
        if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS &&
            cairo_surface_set_mime_data(s, CAIRO_MIME_TYPE_JPEG, im->data, im->size,
                                        image_destroy_data, NULL) == CAIRO_STATUS_SUCCESS) {
            /* keep */
        } else {
            cairo_surface_destroy(s);
            s = NULL;
        }
    }
    if (s && qr_pdf_keep_surface(c, s) != 0) {
        cairo_surface_destroy(s);
        return qr_pdf_fail(c, QR_E_NOMEM, path, "out of memory");
    }
    if (!(w > 0) || !(h > 0)) w = h = 72;
    /* Its "width" (layout/style.h), scaled to fit the text width and the
     * page's text height. */
    double page_h = c->bottom - c->top;
    double k = qr_look_image_width(im, w, c->width, 1.0) / w;
    if (h * k > page_h) k = page_h / h;
    b->img_w = w * k;
    b->img_h = h * k;
    b->img_align = im->align;
    b->surface = s;
    if (!s && !b->png) {
        /* PNG preview of a JPEG (no decoder here) or a PNG too big to
         * decode: a light box with the alt text. */
        pd_style st = {.size = 9, .align = PD_ALIGN_CENTER};
        const char *label = im->alt.n ? qr_plain(&im->alt) : "image";
        double lw = b->img_w - 8 > 8 ? b->img_w - 8 : 8;
        b->alt = qr_pdf_text(c, NULL, label, strlen(label), &st, lw, path);
        if (!b->alt) return c->status;
    }
    return QR_OK;
}

/* A position a rowspan above covers: its span is its cell's colspan with
 * this bit set (drawn by the spanning cell when its rows stay together). */
#define PD_MERGED 0x8000u

/* The width of a cell at column i spanning span columns (0: covered). */
static double span_w(const pd_block *b, size_t i, unsigned span)
{
    double w = 0;
    span &= ~PD_MERGED;
    for (size_t k = 0; k < (span ? span : 1) && i + k < b->n_cols; k++)
        w += b->col_w[i + k];
    return w;
}

/* The spans and grounds of a table's cells, when any cell has one. */
static qr_status table_looks(pd_ctx *c, pd_block *b, const qr_table *t)
{
    size_t nc = b->n_cols, any = 0, rows = 0;
    for (size_t i = 0; t->headers && i < t->n_headers; i++) {
        any |= t->headers[i].colspan != 1 || t->headers[i].fill;
        rows |= qr_tcell_rows(&t->headers[i]) > 1;
    }
    for (size_t r = 0; r < t->n_rows && !rows; r++)
        for (size_t i = 0; i < nc; i++) {
            any |= t->rows[r][i].colspan != 1 || t->rows[r][i].fill;
            rows |= qr_tcell_rows(&t->rows[r][i]) > 1;
        }
    if (!any && !rows) return QR_OK;
    uint16_t *hs = qr_arena_array(&c->arena, nc, sizeof *hs);
    uint32_t *hf = qr_arena_array(&c->arena, nc, sizeof *hf);
    uint16_t *bs = qr_arena_array(&c->arena, t->n_rows * nc + 1, sizeof *bs);
    uint32_t *bf = qr_arena_array(&c->arena, t->n_rows * nc + 1, sizeof *bf);
    if (!hs || !hf || !bs || !bf) return qr_pdf_fail(c, QR_E_NOMEM, t->path, "out of memory");
    for (size_t i = 0; i < nc; i++) {
        const qr_tcell *hc = t->headers && i < t->n_headers ? &t->headers[i] : NULL;
        hs[i] = (uint16_t)(hc ? hc->colspan | (hc->merged_above ? PD_MERGED : 0) : 1);
        hf[i] = hc ? hc->fill : 0;
    }
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t i = 0; i < nc; i++) {
            const qr_tcell *cl = &t->rows[r][i];
            bs[r * nc + i] = (uint16_t)(cl->colspan | (cl->merged_above ? PD_MERGED : 0));
            bf[r * nc + i] = cl->fill;
        }
    b->head_span = hs;
    b->head_fill = hf;
    b->span = bs;
    b->cell_fill = bf;
    if (!rows) return QR_OK;
    uint16_t *hr = qr_arena_array(&c->arena, nc, sizeof *hr);
    uint16_t *br = qr_arena_array(&c->arena, t->n_rows * nc + 1, sizeof *br);
    if (!hr || !br) return qr_pdf_fail(c, QR_E_NOMEM, t->path, "out of memory");
    for (size_t i = 0; i < nc; i++)
        hr[i] = (uint16_t)(t->headers && i < t->n_headers ? qr_tcell_rows(&t->headers[i]) : 1);
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t i = 0; i < nc; i++)
            br[r * nc + i] = (uint16_t)qr_tcell_rows(&t->rows[r][i]);
    b->head_rspan = hr;
    b->rspan = br;
    return QR_OK;
}

/* Grid row g of a table (the header row first): its texts, spans, row spans. */
static const pd_text *const *grid_cells(const pd_block *b, size_t g)
{
    if (b->header) {
        if (g == 0) return b->header;
        g--;
    }
    return b->cells + g * b->n_cols;
}

static const uint16_t *grid_rspan(const pd_block *b, size_t g)
{
    if (b->header) {
        if (g == 0) return b->head_rspan;
        g--;
    }
    return b->rspan + g * b->n_cols;
}

static double row_ascent(const pd_text *const *cells, size_t nc);
static double cell_shift(const pd_text *t, double ascent);

/* With row spans: each grid row's height when its group stays together
 * (its own cells', the last row of a span taking what the spanning cell
 * needs beyond its rows), and where each row's group ends. */
static qr_status table_rows(pd_ctx *c, pd_block *b)
{
    if (!b->rspan) return QR_OK;
    size_t nc = b->n_cols, ng = b->n_rows + (b->header ? 1 : 0);
    double *h = qr_arena_array(&c->arena, ng + 1, sizeof *h);
    size_t *end = qr_arena_array(&c->arena, ng + 1, sizeof *end);
    if (!h || !end) return qr_pdf_fail(c, QR_E_NOMEM, b->path, "out of memory");
    for (size_t g = 0; g < ng; g++) {
        const pd_text *const *cells = grid_cells(b, g);
        const uint16_t *rs = grid_rspan(b, g);
        double a = row_ascent(cells, nc), m = 0;
        for (size_t i = 0; i < nc; i++) {
            double v = cells[i]->height + cell_shift(cells[i], a);
            if (rs[i] <= 1 && v > m) m = v;
        }
        h[g] = m + 2 * CELL_PAD;
    }
    for (size_t g = 0; g < ng; g++) {
        const pd_text *const *cells = grid_cells(b, g);
        const uint16_t *rs = grid_rspan(b, g);
        double a = row_ascent(cells, nc);
        for (size_t i = 0; i < nc; i++) {
            if (rs[i] <= 1) continue;
            size_t last = g + rs[i] - 1 < ng ? g + rs[i] - 1 : ng - 1;
            double need = cells[i]->height + cell_shift(cells[i], a) + 2 * CELL_PAD, sum = 0;
            for (size_t k = g; k <= last; k++)
                sum += h[k];
            if (need > sum) h[last] += need - sum;
        }
    }
    for (size_t g = 0; g < ng;) {
        size_t e = g + 1;
        for (size_t k = g; k < e; k++) {
            const uint16_t *rs = grid_rspan(b, k);
            for (size_t i = 0; i < nc; i++)
                if (k + rs[i] > e) e = k + rs[i] < ng ? k + rs[i] : ng;
        }
        for (size_t k = g; k < e; k++)
            end[k] = e;
        g = e;
    }
    b->row_h = h;
    b->group_end = end;
    return QR_OK;
}

static qr_status measure_table(pd_ctx *c, pd_block *b, const qr_table *t)
{
    size_t nc = t->n_cols ? t->n_cols : 1;
    b->n_cols = nc;
    b->n_rows = t->n_rows;
    b->col_x = qr_arena_array(&c->arena, nc, sizeof *b->col_x);
    b->col_w = qr_arena_array(&c->arena, nc, sizeof *b->col_w);
    if (!b->col_x || !b->col_w) return qr_pdf_fail(c, QR_E_NOMEM, t->path, "out of memory");
    /* A table whose first strong text (headers, then rows) is right to left
     * runs its columns right to left, as Word's bidi tables do. */
    qr_dir dir = QR_DIR_NEUTRAL;
    for (size_t i = 0; t->headers && i < t->n_headers && dir == QR_DIR_NEUTRAL; i++)
        dir = qr_fonts_text_direction(&t->headers[i].text);
    for (size_t r = 0; r < t->n_rows && r < 8 && dir == QR_DIR_NEUTRAL; r++)
        for (size_t i = 0; i < nc && dir == QR_DIR_NEUTRAL; i++)
            dir = qr_fonts_text_direction(&t->rows[r][i].text);
    double x = 0;
    for (size_t i = 0; i < nc; i++) {
        double f = t->widths ? t->widths[i] : 1.0 / (double)nc;
        if (!(f >= 0)) f = 0;
        b->col_w[i] = f * c->width;
        b->col_x[i] = dir == QR_DIR_RTL ? c->width - x - b->col_w[i] : x;
        x += b->col_w[i];
    }
    pd_style head = {.size = TABLE_SIZE, .bold = 1};
    pd_style body = {.size = TABLE_SIZE};
    b->head_rows = t->body_header_rows;
    if (table_looks(c, b, t) != QR_OK) return c->status;
    if (t->headers) {
        b->header = qr_arena_array(&c->arena, nc, sizeof *b->header);
        if (!b->header) return qr_pdf_fail(c, QR_E_NOMEM, t->path, "out of memory");
        for (size_t i = 0; i < nc; i++) {
            double cw = b->col_w[i] - 2 * CELL_PAD;
            if (cw < 1) cw = 1;
            static const qr_text empty = {0};
            const qr_tcell *hc = i < t->n_headers ? &t->headers[i] : NULL;
            const qr_text *tx = hc && hc->colspan ? &hc->text : &empty;
            if (hc) cw = span_w(b, i, hc->colspan) - 2 * CELL_PAD;
            if (cw < 1) cw = 1;
            qr_align ha = qr_tcell_align(hc, t->col_align, i);
            head.align = ha == QR_ALIGN_RIGHT    ? PD_ALIGN_END
                         : ha == QR_ALIGN_CENTER ? PD_ALIGN_CENTER
                                                 : PD_ALIGN_START;
            b->header[i] = qr_pdf_text(c, tx, NULL, 0, &head, cw, t->path);
            if (!b->header[i]) return c->status;
        }
    }
    if (t->n_rows) {
        if (t->n_rows > SIZE_MAX / nc)
            return qr_pdf_fail(c, QR_E_LIMIT, t->path, "table too large");
        b->cells = qr_arena_array(&c->arena, t->n_rows * nc, sizeof *b->cells);
        if (!b->cells) return qr_pdf_fail(c, QR_E_NOMEM, t->path, "out of memory");
    }
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t i = 0; i < nc; i++) {
            const qr_tcell *cell = &t->rows[r][i];
            double cw = span_w(b, i, cell->colspan) - 2 * CELL_PAD;
            if (cw < 1) cw = 1;
            qr_align al = qr_tcell_align(cell, t->col_align, i);
            body.align = al == QR_ALIGN_RIGHT    ? PD_ALIGN_END
                         : al == QR_ALIGN_CENTER ? PD_ALIGN_CENTER
                                                 : PD_ALIGN_START;
            body.bold = cell->bold || r < t->body_header_rows;
            static const qr_text none = {0};
            const qr_text *tx = cell->colspan ? &cell->text : &none;
            const pd_text *pt = qr_pdf_text(c, tx, NULL, 0, &body, cw, cell->text.path);
            if (!pt) return c->status;
            b->cells[r * nc + i] = pt;
        }
    return table_rows(c, b);
}

/* Plain text of the text qr_pdf_text() just laid out (c->tbuf: its
 * segments joined, cleaned) for the outline: whitespace and control
 * characters folded to spaces. */
static const char *outline_text(pd_ctx *c)
{
    size_t n = c->tbuf.len;
    if (n > 512) n = 512; /* an outline entry is a label */
    char *s = qr_arena_alloc(&c->arena, n + 1);
    if (!s) return NULL;
    size_t k = n;
    if (n) memcpy(s, c->tbuf.data, n);
    /* Don't end inside a UTF-8 sequence. */
    size_t e = k;
    while (e > 0 && ((unsigned char)s[e - 1] & 0xC0) == 0x80)
        e--;
    if (e > 0) {
        unsigned char lead = (unsigned char)s[e - 1];
        size_t len = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        if (k - (e - 1) < len) k = e - 1;
    }
    for (size_t i = 0; i < k; i++)
        if (s[i] == '\n' || s[i] == '\t') s[i] = ' ';
    s[k] = '\0';
    return s;
}

qr_status qr_pdf_measure_title(pd_ctx *c, pd_block *b)
{
    pd_style st = {.size = TITLE_SIZE,
                   .bold = 1,
                   .align = c->style.title_align == QR_STYLE_CENTER ? PD_ALIGN_CENTER : 0,
                   .has_rgb = 1,
                   .rgb = c->style.title};
    b->kind = PB_TEXT;
    b->path = "/title";
    b->title = 1;
    space(b, qr_rhythm_block(&c->style, QR_RHYTHM_TITLE, 0));
    b->rule = c->style.title_rule;
    b->text = qr_pdf_text(c, &c->doc->title, NULL, 0, &st, c->width, NULL);
    return c->status;
}

/* Quote and callout insets: the bar's width, and the gap from bar to text. */

/* A table of contents: one entry per heading of level 1..levels, indented
 * per level; the page numbers are laid out after pagination. */
static void measure_toc(pd_ctx *c, pd_block *b, const qr_block *qb, size_t title)
{
    const qr_doc *d = c->doc;
    int levels = qb->u.toc.levels;
    pd_style ts = {
        .size = c->style.heading_pt[1], .bold = 1, .has_rgb = 1, .rgb = c->style.heading};
    b->text = qr_pdf_text(c, &qb->u.toc.title, NULL, 0, &ts, c->width, qb->path);
    size_t n = 0;
    for (size_t i = 0; i < d->n_blocks; i++)
        n += d->blocks[i].type == QR_BLOCK_HEADING && d->blocks[i].u.heading.level <= levels;
    b->entries = n ? qr_arena_array(&c->arena, n, sizeof *b->entries) : NULL;
    if (n && !b->entries) {
        qr_pdf_fail(c, QR_E_NOMEM, qb->path, "out of memory");
        return;
    }
    pd_style es = {.size = BODY_SIZE, .linked = 1};
    for (size_t i = 0; i < d->n_blocks && c->status == QR_OK; i++) {
        const qr_block *h = &d->blocks[i];
        if (h->type != QR_BLOCK_HEADING || h->u.heading.level > levels) continue;
        pd_entry *e = &b->entries[b->n_entries++];
        e->indent = (h->u.heading.level - 1) * LIST_INDENT;
        e->target = i + title;
        /* the heading's text without its footnote marks */
        qr_text t = h->u.heading.text;
        qr_run *rs = t.n ? qr_arena_array(&c->arena, t.n, sizeof *rs) : NULL;
        size_t k = 0;
        for (size_t r = 0; rs && r < t.n; r++)
            if (!t.runs[r].note) {
                rs[k] = t.runs[r];
                rs[k].anchor = NULL;
                rs[k].link = NULL;
                k++;
            }
        t.runs = rs;
        t.n = k;
        double w = c->width - e->indent - 36;
        e->text = qr_pdf_text(c, &t, NULL, 0, &es, w > 36 ? w : 36, qb->path);
    }
}

/* A caption in the body size, its label bold (the compiler's first run). */
static const pd_text *measure_caption(pd_ctx *c, const qr_block *qb)
{
    pd_style st = {.size = c->style.table_pt, .italic = 0};
    return qr_pdf_text(c, &qb->caption, NULL, 0, &st, c->width, qb->caption.path);
}

qr_status qr_pdf_measure_blocks(pd_ctx *c, pd_block *out, size_t from, size_t to)
{
    const qr_doc *d = c->doc;
    size_t k = 0;
    list_acc acc = {0};
    for (size_t i = from; i < to && c->status == QR_OK; i++) {
        const qr_block *qb = &d->blocks[i];
        pd_block *b = &out[k++];
        b->path = qb->path;
        switch (qb->type) {
        case QR_BLOCK_HEADING: {
            int lv = qb->u.heading.level;
            if (lv < 1) lv = 1;
            if (lv > 6) lv = 6;
            pd_style st = {.size = c->style.heading_pt[lv - 1],
                           .bold = 1,
                           .italic = lv >= c->style.italic_from,
                           .has_rgb = 1,
                           .rgb = c->style.heading};
            b->kind = PB_TEXT;
            b->heading = lv;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_HEADING, lv));
            b->text = qr_pdf_text(c, &qb->u.heading.text, NULL, 0, &st, c->width, qb->path);
            b->outline = b->text ? outline_text(c) : NULL;
            break;
        }
        case QR_BLOCK_PARAGRAPH: {
            pd_style st = {.size = BODY_SIZE};
            b->kind = PB_TEXT;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_PARAGRAPH, 0));
            b->text = qr_pdf_text(c, &qb->u.paragraph.text, NULL, 0, &st, c->width, qb->path);
            break;
        }
        case QR_BLOCK_LIST:
            b->kind = PB_LIST;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_LIST, 0));
            acc.n = 0;
            memset(acc.step, 0, sizeof acc.step);
            if (list_markers(c, &acc, qb->u.list.items, qb->u.list.n_items, qb->u.list.ordered, 0,
                             qb->u.list.start ? qb->u.list.start : 1, qb->path) == QR_OK &&
                list_bodies(c, &acc) == QR_OK && acc.n) {
                b->items = qr_arena_array(&c->arena, acc.n, sizeof *b->items);
                if (!b->items) {
                    qr_pdf_fail(c, QR_E_NOMEM, qb->path, "out of memory");
                    break;
                }
                memcpy(b->items, acc.items, acc.n * sizeof *b->items);
                b->n_items = acc.n;
            }
            break;
        case QR_BLOCK_TABLE:
            b->kind = PB_TABLE;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_TABLE, 0));
            measure_table(c, b, &qb->u.table);
            break;
        case QR_BLOCK_CODE: {
            pd_style st = {.size = CODE_SIZE, .mono = 1};
            b->kind = PB_CODE;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_CODE, 0));
            double w = c->width - 2 * CODE_PAD;
            b->text = qr_pdf_text(c, &qb->u.code.text, NULL, 0, &st, w > 1 ? w : 1, NULL);
            break;
        }
        case QR_BLOCK_IMAGE:
            b->kind = PB_IMAGE;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_IMAGE, 0));
            measure_image(c, b, &qb->u.image, qb->path);
            break;
        case QR_BLOCK_PAGE_BREAK:
            b->kind = PB_BREAK;
            break;
        case QR_BLOCK_CHART:
            b->kind = PB_CHART;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_CHART, 0));
            qr_pdf_measure_chart(c, b, &qb->u.chart);
            break;
        case QR_BLOCK_QUOTE: {
            pd_style st = {.size = BODY_SIZE, .italic = 1};
            pd_style at = {.size = c->style.table_pt};
            double w = c->width - BAR_W - BAR_GAP;
            b->kind = PB_QUOTE;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_QUOTE, 0));
            b->ink = c->style.grid;
            b->text = qr_pdf_text(c, &qb->u.quote.text, NULL, 0, &st, w, qb->path);
            if (qb->u.quote.attribution.n) {
                /* "— Name" */
                const qr_text *a = &qb->u.quote.attribution;
                qr_run *rs = qr_arena_array(&c->arena, a->n + 1, sizeof *rs);
                if (!rs) {
                    qr_pdf_fail(c, QR_E_NOMEM, qb->path, "out of memory");
                    break;
                }
                memset(rs, 0, sizeof *rs);
                rs[0].text = "\xE2\x80\x94 ";
                rs[0].len = 4;
                memcpy(rs + 1, a->runs, a->n * sizeof *rs);
                qr_text t = {rs, a->n + 1, a->path};
                b->text2 = qr_pdf_text(c, &t, NULL, 0, &at, w, a->path);
            }
            break;
        }
        case QR_BLOCK_CALLOUT: {
            qr_tone tone = qb->u.callout.tone;
            pd_style ts = {.size = BODY_SIZE, .bold = 1, .has_rgb = 1, .rgb = qr_tone_ink(tone)};
            pd_style st = {.size = BODY_SIZE};
            double w = c->width - BAR_W - 2 * BOX_PAD;
            b->kind = PB_CALLOUT;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_CALLOUT, 0));
            b->ink = qr_tone_ink(tone);
            b->fill = qr_tone_fill(tone, c->style.background);
            b->text2 = qr_pdf_text(c, &qb->u.callout.title, NULL, 0, &ts, w, qb->path);
            if (b->text2) b->text = qr_pdf_text(c, &qb->u.callout.text, NULL, 0, &st, w, qb->path);
            break;
        }
        case QR_BLOCK_RULE:
            b->kind = PB_RULE;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_RULE, 0));
            break;
        case QR_BLOCK_TOC:
            b->kind = PB_TOC;
            space(b, qr_rhythm_block(&c->style, QR_RHYTHM_TOC, 0));
            measure_toc(c, b, qb, c->doc->title.n ? 1 : 0);
            break;
        }
        b->id = qb->id;
        if (qb->caption.n && c->status == QR_OK) b->caption = measure_caption(c, qb);
    }
    free(acc.items);
    free(acc.src);
    free(acc.depth);
    return c->status;
}

/* ---- paginate -------------------------------------------------------------------- */

typedef struct flow {
    pd_ctx *c;
    double y;
    int fresh;    /* nothing placed on this page yet (below a repeated header) */
    int untagged; /* placing a repeated header row: no structure tags */
    int body_p;   /* a list item with a sub-list: its own text in a P inside its LBody */
} flow;

/* Footnotes of the page being filled (c->foot): add_line adds the notes
 * referenced in each line it places and raises the page's text bottom by
 * their height; new_page (and the end) places them at the foot. */
#define NOTE_SEP 9.0 /* the separator rule's room above the notes */

static void flush_notes(pd_ctx *c);

static pd_op *op_add(pd_ctx *c, pd_op_kind kind)
{
    if (c->status != QR_OK) return NULL;
    if (c->n_ops == c->cap_ops) {
        size_t cap = c->cap_ops ? c->cap_ops * 2 : 1024;
        pd_op *p = realloc(c->ops, cap * sizeof *p);
        if (!p) {
            qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
            return NULL;
        }
        c->ops = p;
        c->cap_ops = cap;
    }
    pd_op *o = &c->ops[c->n_ops++];
    memset(o, 0, sizeof *o);
    o->kind = (uint8_t)kind;
    return o;
}

static void new_page(flow *f)
{
    pd_ctx *c = f->c;
    if (c->status != QR_OK) return;
    if (c->n_pages + 1 >= c->cap_pages) {
        size_t cap = c->cap_pages ? c->cap_pages * 2 : 64;
        size_t *p = realloc(c->page_start, cap * sizeof *p);
        if (!p) {
            qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
            return;
        }
        c->page_start = p;
        c->cap_pages = cap;
    }
    if (qr_pdf_work(c, QR_WORK_PAGE, "/blocks", "the pages")) return;
    flush_notes(c);
    c->page_start[c->n_pages++] = c->n_ops;
    f->y = c->top;
    f->fresh = 1;
}

static int page_empty(const flow *f)
{
    return f->c->page_start[f->c->n_pages - 1] == f->c->n_ops;
}

/* The bytes of line i of t: [*a, *z). */
static void line_span(const pd_text *t, size_t i, int *a, int *z)
{
    const pd_line *ln = &t->lines[i];
    *a = (int)ln->base + ln->start;
    *z = *a + ln->length;
    if (i + 1 == t->n_lines) *z = 1 << 30; /* a trailing reference belongs to the last line */
}

/* The height the footnotes referenced in line i of t add to the page. */
static double line_notes_h(const pd_text *t, size_t i, int first_on_page)
{
    if (!t->n_notes) return 0;
    int a, z;
    line_span(t, i, &a, &z);
    double h = 0;
    for (size_t k = 0; k < t->n_notes; k++)
        if (t->notes[k].at >= a && t->notes[k].at < z && t->notes[k].text)
            h += t->notes[k].text->height;
    return h && first_on_page ? h + NOTE_SEP : h;
}

static void add_line_notes(pd_ctx *c, const pd_text *t, size_t i)
{
    struct pd_foot *ft = &c->foot;
    int a, z;
    line_span(t, i, &a, &z);
    for (size_t k = 0; k < t->n_notes; k++) {
        const pd_note *nt = &t->notes[k];
        if (nt->at < a || nt->at >= z || !nt->text) continue;
        if (ft->n == ft->cap) {
            size_t cap = ft->cap ? ft->cap * 2 : 16;
            const pd_text **p = realloc(ft->notes, cap * sizeof *p);
            if (!p) {
                qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
                return;
            }
            ft->notes = p;
            ft->cap = cap;
        }
        double h = nt->text->height + (ft->n ? 0 : NOTE_SEP);
        ft->notes[ft->n++] = nt->text;
        ft->h += h;
        c->bottom -= h;
    }
}

static void add_line(pd_ctx *c, const pd_text *t, size_t i, double x, double y_top)
{
    if (t->n_notes) add_line_notes(c, t, i);
    pd_op *o = op_add(c, OP_LINE);
    if (!o) return;
    o->text = t;
    o->line = i;
    o->x = x + t->lines[i].x;
    o->y = y_top + t->lines[i].top + t->lines[i].ascent;
}

/* A structure tag (PD_TAG_*) opens (begin = 1) or closes here. */
static void add_tag(pd_ctx *c, int tag, int begin)
{
    pd_op *o = op_add(c, OP_TAG);
    if (!o) return;
    o->color = (uint32_t)tag;
    o->line = (size_t)begin;
}

static void add_rect(pd_ctx *c, pd_op_kind k, uint32_t rgb, double x, double y, double w, double h)
{
    pd_op *o = op_add(c, k);
    if (!o) return;
    o->color = rgb;
    o->x = x;
    o->y = y;
    o->w = w;
    o->h = h;
}

/* Place a text box at column offset x, flowing its lines across pages.
 * bg != 0: a fill of colour bg behind each page's part, padded by pad.
 * marker: drawn beside the first line, at marker_x. dest: the heading block
 * whose outline entry points at the first line. */
static void place_text(flow *f, const pd_text *t, double x, uint32_t bg, double pad,
                       const pd_text *marker, double marker_x, const pd_block *dest)
{
    pd_ctx *c = f->c;
    size_t i = 0;
    while (i < t->n_lines && c->status == QR_OK) {
        double avail = c->bottom - f->y - 2 * pad;
        size_t j = i;
        double h = 0, nh = 0;
        while (j < t->n_lines &&
               h + t->lines[j].height + nh + line_notes_h(t, j, c->foot.n == 0 && nh == 0) <=
                   avail + 0.01) {
            nh += line_notes_h(t, j, c->foot.n == 0 && nh == 0);
            h += t->lines[j++].height;
        }
        if (j == i) {
            if (!f->fresh) {
                new_page(f);
                continue;
            }
            h += t->lines[j++].height; /* a line taller than a page: place it anyway */
        } else if (j < t->n_lines && !bg) {
            /* Widow and orphan control (layout/rhythm.h, as the docx's
             * w:widowControl in Word and LibreOffice): at least
             * QR_RHYTHM_WIDOWS lines of a paragraph at the foot of a page
             * and at the top of the next; a paragraph too short for both
             * moves whole. Code blocks break anywhere. */
            size_t keep = QR_RHYTHM_WIDOWS, rest = t->n_lines - j;
            while (rest < keep && j > i) {
                h -= t->lines[--j].height;
                rest++;
            }
            if (i == 0 && j < keep && !f->fresh) {
                new_page(f);
                continue;
            }
            if (j == i) h += t->lines[j++].height; /* a page holds no more: place one anyway */
        }
        if (bg) add_rect(c, OP_FILL, bg, c->left + x - pad, f->y, t->width + 2 * pad, h + 2 * pad);
        double y0 = f->y + pad - t->lines[i].top;
        if (dest && i == 0) {
            pd_op *o = op_add(c, OP_DEST);
            if (o) {
                o->blk = dest;
                o->x = c->left;
                o->y = f->y;
            }
        }
        for (size_t k = i; k < j; k++) {
            if (k == 0 && marker) {
                /* marker baseline on the first line's baseline; in the
                 * structure tree the item's label, then its body */
                add_tag(c, PD_TAG_LBL, 1);
                double base = y0 + t->lines[0].top + t->lines[0].ascent;
                if (marker->n_lines)
                    add_line(c, marker, 0, c->left + marker_x,
                             base - marker->lines[0].top - marker->lines[0].ascent);
                add_tag(c, PD_TAG_LBL, 0);
                add_tag(c, PD_TAG_LBODY, 1);
                if (f->body_p) add_tag(c, PD_TAG_P, 1);
            }
            add_line(c, t, k, c->left + x, y0);
        }
        f->y += h + 2 * pad;
        f->fresh = 0;
        i = j;
        if (i < t->n_lines) new_page(f);
    }
    if (t->n_lines == 0) {
        f->fresh = 0;
        if (marker) {
            add_tag(c, PD_TAG_LBL, 1);
            add_tag(c, PD_TAG_LBL, 0);
            add_tag(c, PD_TAG_LBODY, 1);
            if (f->body_p) add_tag(c, PD_TAG_P, 1);
        }
    }
    /* cairo 1.16 marks only the content of an element without children:
     * an item's text beside its sub-list goes into a P of its own */
    if (marker && f->body_p) add_tag(c, PD_TAG_P, 0);
}

/* The height a text needs at the foot of a page: its first line, or its
 * first two when orphan control would not leave one line alone there. */
static double text_first(const pd_text *t)
{
    if (!t || !t->n_lines) return 0;
    if (t->n_lines == 1) return t->lines[0].height;
    return t->lines[0].height + t->lines[1].height;
}

/* The cells of a row share their first baseline: the lowest one (a cell
 * whose first line reaches higher, with Arabic or Thai marks, sets it). */
static double row_ascent(const pd_text *const *cells, size_t nc)
{
    double a = 0;
    for (size_t i = 0; i < nc; i++)
        if (cells[i]->n_lines && cells[i]->lines[0].ascent > a) a = cells[i]->lines[0].ascent;
    return a;
}

/* How far cell i moves down to share the row's first baseline. */
static double cell_shift(const pd_text *t, double ascent)
{
    return t->n_lines ? ascent - t->lines[0].ascent : 0;
}

static double row_height(const pd_ctx *c, const pd_text *const *cells, size_t nc)
{
    double h = 0, a = row_ascent(cells, nc);
    for (size_t i = 0; i < nc; i++)
        if (cells[i]->height + cell_shift(cells[i], a) > h)
            h = cells[i]->height + cell_shift(cells[i], a);
    return h + 2 * CELL_PAD;
}

/* The height the first unbreakable piece of a block needs, for keep-with-next. */
static double first_piece(const pd_ctx *c, const pd_block *b)
{
    switch (b->kind) {
    case PB_TEXT:
        return b->space_before + text_first(b->text);
    case PB_CODE:
        return b->space_before + text_first(b->text) + 2 * CODE_PAD;
    case PB_LIST:
        return b->space_before + (b->n_items ? text_first(b->items[0].body) : 0);
    case PB_TABLE: {
        double h = b->space_before;
        if (b->header) h += row_height(c, b->header, b->n_cols);
        if (b->n_rows) h += row_height(c, b->cells, b->n_cols);
        return h;
    }
    case PB_IMAGE:
    case PB_CHART:
        return b->space_before + b->img_h;
    case PB_BREAK:
        return 0;
    case PB_QUOTE:
        return b->space_before + text_first(b->text);
    case PB_CALLOUT:
        return b->space_before + text_first(b->text2) + 2 * BOX_PAD;
    case PB_RULE:
        return b->space_before + 1;
    case PB_TOC:
        return b->space_before + text_first(b->text) +
               (b->n_entries ? text_first(b->entries[0].text) : 0);
    }
    return 0;
}

/* One table row, placed whole when it fits (on this page or the next), else
 * split line by line across pages. */
static void place_row(flow *f, const pd_block *b, const pd_text *const *cells, int is_header,
                      int repeat_header, int grouped);

/* The left of a cell at column i spanning span columns (right-to-left
 * tables run their columns from the right: the leftmost spanned one). */
static double cell_x(const pd_block *b, size_t i, unsigned span)
{
    double x = b->col_x[i];
    for (size_t k = 1; k < span && i + k < b->n_cols; k++)
        if (b->col_x[i + k] < x) x = b->col_x[i + k];
    return x;
}

static void table_new_page(flow *f, const pd_block *b, int repeat_header)
{
    new_page(f);
    if (repeat_header && (b->header || b->head_rows)) {
        f->untagged++;
        if (b->header) place_row(f, b, b->header, 1, 0, 1);
        for (size_t r = 0; r < b->head_rows && r < b->n_rows; r++)
            place_row(f, b, b->cells + r * b->n_cols, 1, 0, 1);
        f->untagged--;
        f->fresh = 1; /* a page with only the header still counts as empty */
    }
}

/* Whether position i of a row draws a cell: not when a colspan covers it,
 * nor (grouped) when a rowspan above does. */
static int draws(const uint16_t *spans, size_t i, int grouped)
{
    if (!spans) return 1;
    if (spans[i] & PD_MERGED) return !grouped;
    return spans[i] != 0;
}

/* The height cell i of grid row g draws: the rows it spans when grouped. */
static double cell_h(const pd_block *b, size_t g, const uint16_t *rspans, size_t i, int grouped,
                     double fh)
{
    if (!grouped || rspans[i] <= 1) return fh;
    double h = fh;
    for (size_t k = g + 1; k < g + rspans[i] && k < b->group_end[g]; k++)
        h += b->row_h[k];
    return h;
}

/* grouped: the row's group (rows bound by row spans) is placed whole on
 * this page: a spanning cell is drawn over its rows from its first, the
 * positions it covers below draw nothing, the row is row_h high. Else a
 * spanning cell is drawn in its first row only and the positions below
 * are empty cells. */
static void place_row(flow *f, const pd_block *b, const pd_text *const *cells, int is_header,
                      int repeat_header, int grouped)
{
    pd_ctx *c = f->c;
    size_t nc = b->n_cols;
    double h = row_height(c, cells, nc);
    /* this row's grid index and row spans (NULL: none) */
    size_t g = cells == b->header ? 0 : (size_t)(cells - b->cells) / nc + (b->header ? 1 : 0);
    const uint16_t *rspans = b->rspan ? grid_rspan(b, g) : NULL;
    if (!rspans) grouped = 0;
    if (grouped) h = b->row_h[g];
    double head_h = repeat_header && b->header ? row_height(c, b->header, nc) : 0;
    if (f->y + h > c->bottom + 0.01 && !f->fresh && h <= c->bottom - c->top - head_h)
        table_new_page(f, b, repeat_header);
    size_t next_stack[16], take_stack[16];
    size_t *next = next_stack, *take = take_stack;
    if (nc > 16) {
        next = calloc(nc, sizeof *next);
        take = calloc(nc, sizeof *take);
    }
    if (!next || !take) {
        qr_pdf_fail(c, QR_E_NOMEM, b->path, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < nc; i++)
        next[i] = 0;
    int tagged = !f->untagged;
    /* this row's spans and grounds (NULL: every cell its own column, no ground) */
    const uint16_t *spans = NULL;
    const uint32_t *fills = NULL;
    if (b->span) {
        if (cells == b->header) {
            spans = b->head_span;
            fills = b->head_fill;
        } else {
            size_t r = (size_t)(cells - b->cells) / nc;
            spans = b->span + r * nc;
            fills = b->cell_fill + r * nc;
        }
    }
    if (tagged) add_tag(c, PD_TAG_TR, 1);
    double row_asc = row_ascent(cells, nc);
    while (c->status == QR_OK) {
        double avail = c->bottom - f->y - 2 * CELL_PAD;
        double frag = 0;
        int any = 0, left = 0;
        for (size_t i = 0; i < nc; i++) {
            const pd_text *t = cells[i];
            size_t j = next[i];
            if (grouped && rspans[i] > 1) { /* its rows fit: all of it, not in this row */
                take[i] = t->n_lines;
                any |= t->n_lines > j;
                continue;
            }
            double hh = j == 0 ? cell_shift(t, row_asc) : 0;
            while (j < t->n_lines && hh + t->lines[j].height <= avail + 0.01)
                hh += t->lines[j++].height;
            if (j == next[i] && j < t->n_lines && f->fresh) hh += t->lines[j++].height;
            if (j > next[i]) any = 1;
            take[i] = j;
            if (hh > frag) frag = hh;
        }
        int done_before = 1;
        for (size_t i = 0; i < nc; i++)
            if (next[i] < cells[i]->n_lines) done_before = 0;
        if (!any && !done_before) {
            table_new_page(f, b, repeat_header);
            continue;
        }
        double top = f->y;
        double fh = frag + 2 * CELL_PAD;
        if (grouped && fh < b->row_h[g]) fh = b->row_h[g];
        /* what each position draws: nothing (covered), its own height, or
         * (grouped) the height of the rows it spans */
        for (size_t i = 0; i < nc; i++) {
            uint32_t bg = fills && fills[i] ? fills[i] & 0xFFFFFF : is_header ? HEADER_BG : 0;
            if (!bg || !draws(spans, i, grouped)) continue;
            add_rect(c, OP_FILL, bg, c->left + cell_x(b, i, spans ? spans[i] : 1), top,
                     span_w(b, i, spans ? spans[i] : 1), cell_h(b, g, rspans, i, grouped, fh));
        }
        for (size_t i = 0; i < nc; i++) {
            const pd_text *t = cells[i];
            if (!draws(spans, i, grouped)) continue;
            if (next[i] >= t->n_lines) continue;
            double y0 = top + CELL_PAD - t->lines[next[i]].top;
            if (next[i] == 0) y0 += cell_shift(t, row_asc);
            if (tagged) add_tag(c, is_header ? PD_TAG_TH : PD_TAG_TD, 1);
            for (size_t k = next[i]; k < take[i]; k++)
                add_line(c, t, k, c->left + cell_x(b, i, spans ? spans[i] : 1) + CELL_PAD, y0);
            if (tagged) add_tag(c, is_header ? PD_TAG_TH : PD_TAG_TD, 0);
        }
        for (size_t i = 0; i < nc; i++)
            if (draws(spans, i, grouped))
                add_rect(c, OP_STROKE, GRID_RGB, c->left + cell_x(b, i, spans ? spans[i] : 1), top,
                         span_w(b, i, spans ? spans[i] : 1), cell_h(b, g, rspans, i, grouped, fh));
        f->y += fh;
        f->fresh = 0;
        for (size_t i = 0; i < nc; i++) {
            next[i] = take[i];
            if (next[i] < cells[i]->n_lines) left = 1;
        }
        if (!left) break;
        table_new_page(f, b, repeat_header);
    }
    if (tagged) add_tag(c, PD_TAG_TR, 0);
out:
    if (next != next_stack) free(next);
    if (take != take_stack) free(take);
}

static void place_table(flow *f, const pd_block *b)
{
    pd_ctx *c = f->c;
    double content = c->bottom - c->top;
    double head_h = b->header ? row_height(c, b->header, b->n_cols) : 0;
    for (size_t r = 0; r < b->head_rows && r < b->n_rows; r++)
        head_h += row_height(c, b->cells + r * b->n_cols, b->n_cols);
    /* Repeat the header rows on each page unless they are most of a page. */
    int repeat = (b->header || b->head_rows) && head_h <= content / 3;
    double first = b->n_rows > b->head_rows
                       ? row_height(c, b->cells + b->head_rows * b->n_cols, b->n_cols)
                       : 0;
    if (!f->fresh && f->y + head_h + first > c->bottom && head_h + first <= content) new_page(f);
    add_tag(c, PD_TAG_TABLE, 1);
    if (b->header) place_row(f, b, b->header, 1, 0, 1);
    size_t hdr = b->header ? 1 : 0;
    int grouped = 0;
    for (size_t r = 0; r < b->n_rows && c->status == QR_OK; r++) {
        size_t g = r + hdr;
        if (b->row_h && r >= b->head_rows && (g == 0 || b->group_end[g - 1] == g)) {
            /* a group of rows bound by row spans starts: on one page when
             * it fits on one (else its spanning cells stay in their first
             * rows) */
            double gh = 0, room = content - (repeat ? head_h : 0);
            for (size_t k = g; k < b->group_end[g]; k++)
                gh += b->row_h[k];
            grouped = gh <= room;
            if (grouped && b->group_end[g] > g + 1 && !f->fresh && f->y + gh > c->bottom + 0.01)
                table_new_page(f, b, repeat);
        } else if (b->row_h && r < b->head_rows) {
            grouped = 1;
        }
        place_row(f, b, b->cells + r * b->n_cols, r < b->head_rows, r < b->head_rows ? 0 : repeat,
                  grouped);
    }
    add_tag(c, PD_TAG_TABLE, 0);
}

/* A list's items in the structure tree: L, LI (Lbl, LBody), a nested list
 * as an L inside its parent item's LBody. */
static void place_list(flow *f, const pd_block *b)
{
    pd_ctx *c = f->c;
    int cur = -1; /* depth of the open item */
    add_tag(c, PD_TAG_L, 1);
    for (size_t k = 0; k < b->n_items && c->status == QR_OK; k++) {
        const pd_item *it = &b->items[k];
        if (cur >= 0 && it->depth > cur) {
            add_tag(c, PD_TAG_L, 1);
            cur++;
        } else if (cur >= 0) {
            add_tag(c, PD_TAG_LBODY, 0);
            add_tag(c, PD_TAG_LI, 0);
            for (; cur > it->depth; cur--) {
                add_tag(c, PD_TAG_L, 0);
                add_tag(c, PD_TAG_LBODY, 0);
                add_tag(c, PD_TAG_LI, 0);
            }
        } else {
            cur = 0;
        }
        if (k && !f->fresh)
            f->y += qr_rhythm_list_gap(&c->style); /* inside the gap after the list */
        add_tag(c, PD_TAG_LI, 1);
        f->body_p = k + 1 < b->n_items && b->items[k + 1].depth > it->depth;
        place_text(f, it->body, it->body_x, 0, 0, it->marker, it->marker_x, NULL);
        f->body_p = 0;
    }
    for (; cur >= 0; cur--) {
        add_tag(c, PD_TAG_LBODY, 0);
        add_tag(c, PD_TAG_LI, 0);
        if (cur > 0) add_tag(c, PD_TAG_L, 0);
    }
    add_tag(c, PD_TAG_L, 0);
}

static void place_image(flow *f, const pd_block *b)
{
    pd_ctx *c = f->c;
    if (f->y + b->img_h > c->bottom + 0.01 && !f->fresh) new_page(f);
    pd_op *o = op_add(c, OP_IMAGE);
    if (!o) return;
    o->blk = b;
    o->x = c->left;
    if (b->img_align == QR_ALIGN_CENTER) o->x += (c->width - b->img_w) / 2;
    if (b->img_align == QR_ALIGN_RIGHT) o->x += c->width - b->img_w;
    o->y = f->y;
    o->w = b->img_w;
    o->h = b->img_h;
    f->y += b->img_h;
    f->fresh = 0;
}

/* A chart: its shapes, then each label as a text line at its baseline. */
static void place_chart(flow *f, const pd_block *b)
{
    pd_ctx *c = f->c;
    if (f->y + b->img_h > c->bottom + 0.01 && !f->fresh) new_page(f);
    pd_op *o = op_add(c, OP_CHART);
    if (!o) return;
    o->blk = b;
    o->x = c->left;
    o->y = f->y;
    o->w = b->img_w;
    o->h = b->img_h;
    const qr_chart_plot *p = b->plot;
    for (size_t i = 0; i < p->n; i++) {
        const qr_chart_shape *s = &p->shapes[i];
        const pd_text *t = s->kind == QR_CS_TEXT ? b->chart_texts[s->text] : NULL;
        if (!t || !t->n_lines) continue;
        pd_op *l = op_add(c, OP_LINE);
        if (!l) return;
        l->text = t;
        l->color = s->color;
        l->x = c->left + s->x - p->texts[s->text].width * s->anchor / 2 + t->lines[0].x;
        l->y = f->y + s->y;
    }
    f->y += b->img_h;
    f->fresh = 0;
}

/* A chart's data after its Figure: a Table of cells without content, whose
 * texts tagged.c adds (qr_pdf_chart_cells, in the same order). */
static void tag_chart_data(pd_ctx *c, const qr_chart *ch)
{
    size_t rows, cols;
    if (!qr_pdf_chart_grid(ch, &rows, &cols)) return;
    add_tag(c, PD_TAG_TABLE, 1);
    for (size_t r = 0; r < rows; r++) {
        add_tag(c, PD_TAG_TR, 1);
        for (size_t k = 0; k < cols; k++) {
            int tag = r == 0 || k == 0 ? PD_TAG_DATA_TH : PD_TAG_DATA_TD;
            add_tag(c, tag, 1);
            add_tag(c, tag, 0);
        }
        add_tag(c, PD_TAG_TR, 0);
    }
    add_tag(c, PD_TAG_TABLE, 0);
}

/* The footnotes of the page just filled, at its foot: a short rule, then
 * each note, the text bottom back where it was. */
static void flush_notes(pd_ctx *c)
{
    struct pd_foot *ft = &c->foot;
    if (!c->n_pages || !ft->n) {
        c->bottom = ft->bottom;
        return;
    }
    double y = ft->bottom - ft->h;
    add_rect(c, OP_FILL, c->style.grid, c->left, y + NOTE_SEP / 2 - 0.25, c->width / 3, 0.5);
    y += NOTE_SEP;
    for (size_t k = 0; k < ft->n && c->status == QR_OK; k++) {
        const pd_text *t = ft->notes[k];
        add_tag(c, PD_TAG_NOTE, 1);
        for (size_t i = 0; i < t->n_lines; i++) {
            pd_op *o = op_add(c, OP_LINE);
            if (!o) return;
            o->text = t;
            o->line = i;
            o->x = c->left + t->lines[i].x;
            o->y = y + t->lines[i].top + t->lines[i].ascent;
        }
        add_tag(c, PD_TAG_NOTE, 0);
        y += t->height;
    }
    ft->n = 0;
    ft->h = 0;
    c->bottom = ft->bottom;
}

/* The page (0-based) holding op k. */
static size_t op_page(const pd_ctx *c, size_t k)
{
    size_t lo = 0, hi = c->n_pages;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (c->page_start[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Where block b begins: its first drawing op from op index `from`. */
static void block_at(pd_ctx *c, pd_block *b, size_t from)
{
    for (size_t k = from; k < c->n_ops; k++) {
        const pd_op *o = &c->ops[k];
        if (o->kind == OP_TAG) continue;
        b->page = op_page(c, k) + 1;
        b->at_x = c->left;
        b->at_y = o->y;
        if (o->kind == OP_LINE) b->at_y -= o->text->lines[o->line].ascent;
        return;
    }
}

/* Insert a filled rectangle as op `at` (painted before the ops after it). */
static void insert_fill(pd_ctx *c, size_t at, uint32_t rgb, double x, double y, double w, double h)
{
    if (!op_add(c, OP_FILL)) return;
    memmove(&c->ops[at + 1], &c->ops[at], (c->n_ops - 1 - at) * sizeof *c->ops);
    pd_op *o = &c->ops[at];
    memset(o, 0, sizeof *o);
    o->kind = OP_FILL;
    o->color = rgb;
    o->x = x;
    o->y = y;
    o->w = w;
    o->h = h;
    for (size_t q = 0; q < c->n_pages; q++)
        if (c->page_start[q] > at) c->page_start[q]++;
}

/* The ground of ops [first, last) (a quote's bar, a callout's box and bar),
 * page by page, under the text lines there (footnotes flushed in between
 * are not the block's). */
static void ground(pd_ctx *c, const pd_block *b, size_t first, size_t last, double pad)
{
    if (last <= first || c->status != QR_OK) return;
    size_t p0 = op_page(c, first), p1 = op_page(c, last - 1);
    for (size_t p = p1 + 1; p-- > p0;) {
        size_t a = c->page_start[p] > first ? c->page_start[p] : first;
        size_t z = p + 1 < c->n_pages && c->page_start[p + 1] < last ? c->page_start[p + 1] : last;
        double top = 1e300, bot = -1e300;
        int in_note = 0;
        for (size_t k = a; k < z; k++) {
            const pd_op *o = &c->ops[k];
            if (o->kind == OP_TAG && o->color == PD_TAG_NOTE) in_note = (int)o->line;
            if (o->kind != OP_LINE || in_note) continue;
            const pd_line *ln = &o->text->lines[o->line];
            double t = o->y - ln->ascent;
            if (t < top) top = t;
            if (t + ln->height > bot) bot = t + ln->height;
        }
        if (top > bot) continue;
        top -= pad;
        bot += pad;
        insert_fill(c, a, b->ink, c->left, top, BAR_W, bot - top);
        if (b->kind == PB_CALLOUT) insert_fill(c, a, b->fill, c->left, top, c->width, bot - top);
    }
}

/* A text beside a bar (quote: the text, then the attribution) or in a
 * tinted box under its title (callout). */
static void place_inset(flow *f, const pd_block *b)
{
    pd_ctx *c = f->c;
    int callout = b->kind == PB_CALLOUT;
    double x = BAR_W + (callout ? BOX_PAD : BAR_GAP);
    double pad = callout ? BOX_PAD : 0;
    const pd_text *parts[2] = {callout ? b->text2 : b->text, callout ? b->text : b->text2};
    size_t first = c->n_ops;
    add_tag(c, callout ? PD_TAG_DIV : PD_TAG_BLOCKQUOTE, 1);
    if (!f->fresh) f->y += pad;
    for (int k = 0; k < 2; k++) {
        const pd_text *t = parts[k];
        if (!t || !t->n_lines) continue;
        if (k == 1 && parts[0] && parts[0]->n_lines) f->y += callout ? 2 : 4;
        add_tag(c, PD_TAG_P, 1);
        place_text(f, t, x, 0, 0, NULL, 0, NULL);
        add_tag(c, PD_TAG_P, 0);
    }
    f->y += pad;
    add_tag(c, callout ? PD_TAG_DIV : PD_TAG_BLOCKQUOTE, 0);
    ground(c, b, first, c->n_ops, pad);
}

/* A caption: a Caption element of its own. */
static void place_caption(flow *f, const pd_text *t, double before)
{
    pd_ctx *c = f->c;
    if (!t) return;
    if (!f->fresh) f->y += before;
    add_tag(c, PD_TAG_CAPTION, 1);
    place_text(f, t, 0, 0, 0, NULL, 0, NULL);
    add_tag(c, PD_TAG_CAPTION, 0);
}

/* A table of contents: its title, then per entry its text and a page
 * number placeholder (an OP_LINE with line SIZE_MAX, blk the toc and w the
 * entry's index) that fill_toc_numbers sets once every page is known. */
static void place_toc(flow *f, const pd_block *b)
{
    pd_ctx *c = f->c;
    add_tag(c, PD_TAG_TOC, 1);
    if (b->text && b->text->n_lines) {
        add_tag(c, PD_TAG_P, 1);
        place_text(f, b->text, 0, 0, 0, NULL, 0, NULL);
        add_tag(c, PD_TAG_P, 0);
        f->y += 6;
    }
    for (size_t i = 0; i < b->n_entries && c->status == QR_OK; i++) {
        const pd_entry *e = &b->entries[i];
        if (!e->text || !e->text->n_lines) continue;
        add_tag(c, PD_TAG_TOCI, 1);
        place_text(f, e->text, e->indent, 0, 0, NULL, 0, NULL);
        pd_op *o = op_add(c, OP_LINE);
        if (o) {
            const pd_line *ln = &e->text->lines[e->text->n_lines - 1];
            o->text = e->text;
            o->line = SIZE_MAX;
            o->blk = b;
            o->w = (double)i;
            o->y = f->y - ln->height + ln->ascent; /* the last line's baseline */
        }
        add_tag(c, PD_TAG_TOCI, 0);
        f->y += 3;
    }
    add_tag(c, PD_TAG_TOC, 0);
}

/* The page numbers of the tables of contents, right-aligned on their
 * entries' last baselines; each entry links to its heading. */
static void fill_toc_numbers(pd_ctx *c)
{
    pd_style st = {.size = BODY_SIZE};
    for (size_t k = 0; k < c->n_ops && c->status == QR_OK; k++) {
        pd_op *o = &c->ops[k];
        if (o->kind != OP_LINE || o->line != SIZE_MAX) continue;
        pd_block *toc = (pd_block *)o->blk;
        pd_entry *e = &toc->entries[(size_t)o->w];
        const pd_block *h = &c->blocks[e->target];
        char num[24];
        int n = snprintf(num, sizeof num, "%zu", h->page);
        const pd_text *t = qr_pdf_text(c, NULL, num, (size_t)n, &st, 0, "");
        if (!t || !t->n_lines) return;
        e->num = t;
        o->text = t;
        o->line = 0;
        o->blk = NULL;
        o->w = 0;
        o->x = c->left + c->width - t->width + t->lines[0].x;
        /* the entry's text links to the heading */
        pd_text *et = (pd_text *)e->text;
        if (!et->links) {
            et->links = qr_arena_array(&c->arena, 1, sizeof *et->links);
            if (!et->links) {
                qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
                return;
            }
            memset(et->links, 0, sizeof *et->links);
            et->links[0].end = 1 << 30;
            et->links[0].page = h->page;
            et->links[0].x = h->at_x;
            et->links[0].y = h->at_y;
            et->n_links = 1;
            c->has_links = 1;
        }
    }
}

/* Every internal link ("#id", refs) gets its target's page and place. */
static void resolve_links(pd_ctx *c)
{
    for (size_t k = 0; k < c->n_ops; k++) {
        const pd_op *o = &c->ops[k];
        if (o->kind != OP_LINE || !o->text->n_links) continue;
        pd_text *t = (pd_text *)o->text;
        for (size_t i = 0; i < t->n_links; i++) {
            pd_link *lk = &t->links[i];
            if (!lk->anchor || lk->page) continue;
            for (size_t b = 0; b < c->n_blocks; b++)
                if (c->blocks[b].id && strcmp(c->blocks[b].id, lk->anchor) == 0) {
                    lk->page = c->blocks[b].page;
                    lk->x = c->blocks[b].at_x;
                    lk->y = c->blocks[b].at_y;
                    break;
                }
        }
    }
}

/* Endnotes ("notes": "endnotes"): the notes in number order. */
typedef struct note_acc {
    const qr_text **notes;
    size_t n;
} note_acc;

static int collect_note(void *ud, const qr_walk_text *t)
{
    note_acc *acc = ud;
    for (size_t i = 0; t->role != QR_WALK_NOTE && i < t->text->n; i++) {
        const qr_run *r = &t->text->runs[i];
        if (r->note && r->note_no >= 1 && r->note_no <= acc->n)
            acc->notes[r->note_no - 1] = r->note;
    }
    return 0;
}

static void place_endnotes(flow *f)
{
    pd_ctx *c = f->c;
    const qr_doc *d = c->doc;
    note_acc acc = {calloc(d->n_notes, sizeof *acc.notes), d->n_notes};
    if (!acc.notes) {
        qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
        return;
    }
    qr_walker w = {.text = collect_note, .ud = &acc};
    qr_doc_walk(d, &w);
    const char *title = qr_word(d->lang, QR_WORD_NOTES);
    pd_style hs = {
        .size = c->style.heading_pt[1], .bold = 1, .has_rgb = 1, .rgb = c->style.heading};
    const pd_text *ht = qr_pdf_text(c, NULL, title, strlen(title), &hs, c->width, "");
    if (ht) {
        if (!f->fresh) f->y += c->style.heading_before[1];
        add_tag(c, PD_TAG_H1 + 1, 1);
        place_text(f, ht, 0, 0, 0, NULL, 0, NULL);
        add_tag(c, PD_TAG_H1 + 1, 0);
        f->y += c->style.heading_after[1];
    }
    for (size_t i = 0; i < acc.n && c->status == QR_OK; i++) {
        if (!acc.notes[i]) continue;
        const pd_text *t = qr_pdf_note_text(c, acc.notes[i], (unsigned)(i + 1), acc.notes[i]->path);
        if (!t) break;
        add_tag(c, PD_TAG_NOTE, 1);
        place_text(f, t, 0, 0, 0, NULL, 0, NULL);
        add_tag(c, PD_TAG_NOTE, 0);
        f->y += 3;
    }
    free(acc.notes);
}

/* The space between a block with space after `after` and the next with
 * space before `before` (layout/rhythm.h). */
static double gap(double after, double before)
{
    return qr_rhythm_gap(after, before);
}

static void paginate(pd_ctx *c)
{
    flow f = {.c = c};
    double pending = 0; /* the space after the last block */
    c->foot.n = 0;
    c->foot.h = 0;
    c->foot.bottom = c->bottom;
    new_page(&f);
    for (size_t i = 0; i < c->n_blocks && c->status == QR_OK; i++) {
        pd_block *b = &c->blocks[i];
        size_t first_op = c->n_ops;
        if (b->kind == PB_BREAK) {
            if (!page_empty(&f)) new_page(&f);
            continue;
        }
        /* two blocks are the larger of the space after the one and before
         * the other apart (layout/rhythm.h, as LibreOffice spaces the
         * docx's paragraphs); none at the top of a page */
        if (!f.fresh) f.y += gap(pending, b->space_before);
        pending = 0;
        if (b->heading && i + 1 < c->n_blocks) {
            /* keep with next: the heading and the next block's first piece */
            const pd_block *nb = &c->blocks[i + 1];
            double need = b->text->height + gap(b->space_after, nb->space_before) +
                          first_piece(c, nb) - nb->space_before;
            if (!f.fresh && f.y + need > c->bottom && need <= c->bottom - c->top) new_page(&f);
        }
        switch (b->kind) {
        case PB_TEXT: {
            /* the title is the document's first-level heading (PDF/UA:
             * not a P; PDF 1.7 has no Title type) */
            int tag = b->heading ? PD_TAG_H1 + b->heading - 1 : b->title ? PD_TAG_H1 : PD_TAG_P;
            if (b->text && b->text->lang) /* its /Lang: tagged.c */
                tag = tag == PD_TAG_P ? PD_TAG_LANG_P : PD_TAG_LANG_H1 + (tag - PD_TAG_H1);
            add_tag(c, tag, 1);
            place_text(&f, b->text, 0, 0, 0, NULL, 0, b->heading ? b : NULL);
            add_tag(c, tag, 0);
            if (b->rule) {
                add_rect(c, OP_FILL, c->style.accent, c->left, f.y + 4, c->width, TITLE_RULE);
                f.y += 4 + TITLE_RULE;
            }
            break;
        }
        case PB_CODE:
            add_tag(c, PD_TAG_CODE, 1);
            place_text(&f, b->text, CODE_PAD, CODE_BG, CODE_PAD, NULL, 0, NULL);
            add_tag(c, PD_TAG_CODE, 0);
            break;
        case PB_LIST:
            place_list(&f, b);
            break;
        case PB_TABLE:
            if (b->caption) {
                place_caption(&f, b->caption, 0);
                f.y += 4;
            }
            if (b->n_rows || b->header) place_table(&f, b); /* style.h: else nothing */
            break;
        case PB_IMAGE:
            add_tag(c, PD_TAG_FIGURE, 1);
            place_image(&f, b);
            add_tag(c, PD_TAG_FIGURE, 0);
            break;
        case PB_CHART:
            add_tag(c, PD_TAG_FIGURE, 1); /* its alt text: tagged.c */
            place_chart(&f, b);
            add_tag(c, PD_TAG_FIGURE, 0);
            tag_chart_data(c, b->chart);
            break;
        case PB_BREAK:
            break;
        case PB_QUOTE:
        case PB_CALLOUT:
            place_inset(&f, b);
            break;
        case PB_RULE:
            if (f.y + 1 > c->bottom && !f.fresh) new_page(&f);
            add_rect(c, OP_FILL, c->style.grid, c->left, f.y, c->width, 0.75);
            f.y += 0.75;
            f.fresh = 0;
            break;
        case PB_TOC:
            place_toc(&f, b);
            break;
        }
        if (b->caption && b->kind != PB_TABLE) place_caption(&f, b->caption, 4);
        block_at(c, b, first_op);
        b->last_page = c->n_pages;
        pending = b->space_after;
    }
    if (c->status == QR_OK && c->doc->endnotes && c->doc->n_notes) place_endnotes(&f);
    flush_notes(c);
    if (c->status == QR_OK) c->page_start[c->n_pages] = c->n_ops; /* sentinel */
    /* the numbers are only drawn: a layout_only pass wants the pages */
    if (c->status == QR_OK && !c->rc->layout_only) fill_toc_numbers(c);
    if (c->status == QR_OK) resolve_links(c);
    free(c->foot.notes);
    memset(&c->foot, 0, sizeof c->foot);
}

qr_status qr_pdf_paginate(pd_ctx *c)
{
    paginate(c);
    return c->status;
}
