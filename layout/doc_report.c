/* doc_report.c: a document's layout report items (page_report.h): words
 * wider than their lines, tables narrower than their content, pictures
 * drawn past their pixels. Text is measured as the slides measure it
 * (slide_layout.h's DejaVu Sans estimate, the widest of the faces quire
 * draws documents in), at the theme's sizes, in the widths the .docx and
 * the PDF share: the page's text width, a list depth's indent, a quote's
 * bar, a callout's box, a table column's share (fixed in both) less the
 * cell padding. */
#include "page_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "slide_layout.h"
#include "style.h"

/* the PDF's quote bar and callout box (pdf/layout.c), points */
#define BAR 13.0 /* the bar and its gap */
#define BOX 19.0 /* the bar and the box's padding on both sides */

typedef struct dr {
    const qr_doc *doc;
    qr_style st;
    double W; /* the page's text width, points */
    qr_layout_list *l;
} dr;

static int hundredths(double f)
{
    return f < 1e6 ? (int)(f * 100.0 + 0.5) : 99999999;
}

/* The widest word of t at pt points (bold: 8 % wider), in points. */
static double word_pt(const qr_text *t, double pt, int bold, const char **at, size_t *len)
{
    long long w = qr_slide_widest_word(t, at, len);
    if (bold) w = w * 108 / 100;
    return (double)w * pt / 1000.0;
}

/* A word_broken item when t's widest word at pt is wider than avail points. */
static void text_word(dr *d, const qr_text *t, double pt, int bold, double avail, const char *path)
{
    const char *at;
    size_t len;
    double w = word_pt(t, pt, bold, &at, &len);
    if (!at || !(avail > 0) || w <= avail + 0.01) return;
    double f = w / avail;
    int h = hundredths(f);
    size_t shown = qr_slide_clip_utf8(at, len, 40);
    qr_layout_addf(d->l, QR_LAYOUT_WORD_BROKEN, t->path ? t->path : path, 0, 0, f,
                   "\"%.*s%s\" is %d.%02d times as wide as its %d pt line and breaks across lines",
                   (int)shown, at, shown < len ? "..." : "", h / 100, h % 100, (int)(avail + 0.5));
}

static void items(dr *d, const qr_item *it, size_t n, int depth, const char *path)
{
    double avail = d->W - d->st.list_indent * (depth + 1);
    for (size_t i = 0; i < n; i++) {
        text_word(d, &it[i].text, d->st.body_pt, 0, avail, path);
        if (depth < 64) items(d, it[i].items, it[i].n_items, depth + 1, path);
    }
}

/* A column's first cell with a word wider than its line, and how many. */
typedef struct col_acc {
    double cw;   /* the column's width, points */
    double need; /* its widest word plus the padding, points: its least width */
    const char *path, *at;
    size_t len, n;
    double f;
} col_acc;

static void cell(dr *d, const qr_table *t, col_acc *cols, size_t c, const qr_tcell *tc, int bold)
{
    if (!tc || qr_tcell_covered(tc) || tc->kind == QR_TCELL_EMPTY) return;
    unsigned span = tc->colspan ? tc->colspan : 1;
    double avail = 0;
    for (size_t k = c; k < c + span && k < t->n_cols; k++)
        avail += cols[k].cw;
    double pad = 2 * d->st.cell_pad;
    avail -= pad;
    const char *at;
    size_t len;
    double w = word_pt(&tc->text, d->st.table_pt, bold || tc->bold, &at, &len);
    if (!at) return;
    if (span == 1 && w + pad > cols[c].need) cols[c].need = w + pad;
    if (w <= avail + 0.01) return;
    col_acc *a = &cols[c];
    if (!a->n++) {
        a->path = tc->text.path ? tc->text.path : t->path;
        a->at = at;
        a->len = len;
        a->f = avail > 0 ? w / avail : 1e6;
    }
}

static void table(dr *d, const qr_table *t, const char *bpath)
{
    size_t nc = t->n_cols;
    if (!nc) return;
    col_acc *cols = calloc(nc, sizeof *cols);
    if (!cols) {
        d->l->oom = 1;
        return;
    }
    for (size_t c = 0; c < nc; c++) {
        double f = t->widths ? t->widths[c] : 1.0 / (double)nc;
        cols[c].cw = f >= 0 ? f * d->W : 0;
    }
    for (size_t c = 0; t->headers && c < t->n_headers && c < nc; c++)
        cell(d, t, cols, c, &t->headers[c], 1);
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < nc; c++)
            cell(d, t, cols, c, &t->rows[r][c], r < t->body_header_rows);
    const char *tp = t->path ? t->path : bpath;
    size_t broken = 0;
    double need = 0;
    for (size_t c = 0; c < nc; c++) {
        col_acc *a = &cols[c];
        need += a->need; /* the least it takes without breaking a word */
        if (!a->n) continue;
        broken++;
        int h = hundredths(a->f);
        size_t shown = qr_slide_clip_utf8(a->at, a->len, 40);
        char more[64] = "";
        if (a->n > 1)
            snprintf(more, sizeof more, "; %zu more %s of it", a->n - 1,
                     a->n > 2 ? "cells" : "cell");
        qr_layout_addf(d->l, QR_LAYOUT_WORD_BROKEN, a->path, 0, 0, a->f,
                       "\"%.*s%s\" is %d.%02d times as wide as its line in column %zu (%d pt) "
                       "and breaks across lines%s",
                       (int)shown, a->at, shown < a->len ? "..." : "", h / 100, h % 100, c + 1,
                       (int)(a->cw + 0.5), more);
    }
    if (broken) {
        double f = d->W > 0 ? need / d->W : 1;
        if (f > 1.0001)
            qr_layout_addf(d->l, QR_LAYOUT_TABLE_CUT, tp, 0, 0, f,
                           "%zu of its %zu columns are narrower than their longest words: they "
                           "need %d pt, the page's text is %d pt wide",
                           broken, nc, (int)(need + 0.5), (int)(d->W + 0.5));
        else
            qr_layout_addf(d->l, QR_LAYOUT_TABLE_CUT, tp, 0, 0, f,
                           "%zu of its %zu columns are narrower than their longest words (their "
                           "cells break them); other \"widths\" fit them in its %d pt",
                           broken, nc, (int)(d->W + 0.5));
    }
    free(cols);
}

/* A picture drawn wider than its pixels at 96 dpi, sized as the .docx and
 * the PDF size it (style.h's qr_look_image_width, the page's height). */
static void image(dr *d, const qr_image *im, const char *bpath)
{
    if (!im->width_px || !im->height_px) return;
    double dx = im->dpi_x > 0 ? im->dpi_x : 96, dy = im->dpi_y > 0 ? im->dpi_y : 96;
    double w = im->width_px * 72.0 / dx, h = im->height_px * 72.0 / dy;
    double k = qr_look_image_width(im, w, d->W, 1.0) / w;
    const qr_page *pg = &d->doc->page;
    double page_h = pg->height - pg->margin_top - pg->margin_bottom;
    if (page_h > 0 && h * k > page_h) k = page_h / h;
    double px = w * k * 96.0 / 72.0; /* pixels it covers at 96 dpi */
    double f = px / (double)im->width_px;
    if (!(f > 1.01)) return;
    int tenths = f < 1e6 ? (int)(f * 10.0 + 0.5) : 9999999;
    qr_layout_addf(d->l, QR_LAYOUT_IMAGE_UPSCALED, im->path ? im->path : bpath, 0, 0, f,
                   "a %u px wide image drawn %d px wide at 96 dpi (scaled up %d.%d times)",
                   (unsigned)im->width_px, (int)(px + 0.5), tenths / 10, tenths % 10);
}

/* A table laid out over more than one page (from page first to last): one
 * continued item, at the page its rows continue on. */
static void table_continued(dr *d, const qr_table *t, const char *bpath, size_t first, size_t last)
{
    if (!first || last <= first) return;
    char pages[64];
    if (last == first + 1)
        snprintf(pages, sizeof pages, "page %zu", last);
    else
        snprintf(pages, sizeof pages, "pages %zu to %zu", first + 1, last);
    qr_layout_addf(d->l, QR_LAYOUT_CONTINUED, t->path ? t->path : bpath, (int)first + 1, 0,
                   (double)(first + 1), "its rows continue on %s%s", pages,
                   t->headers || t->body_header_rows ? ", under the header row again" : "");
}

void qr_doc_words_measure(const qr_doc *doc, qr_doc_words *w)
{
    memset(w, 0, sizeof *w);
    if (!doc) return;
    if (doc->kind != QR_KIND_DOCUMENT && doc->kind != QR_KIND_PDF && doc->kind != QR_KIND_HTML)
        return; /* the html kind too, when it is rendered to pages */
    dr d = {.doc = doc, .st = qr_style_of(doc), .l = &w->l};
    d.W = doc->page.width - doc->page.margin_left - doc->page.margin_right;
    if (!(d.W > 0)) return;
    w->ends = calloc(doc->n_blocks + 1, sizeof *w->ends);
    if (!w->ends) {
        w->l.oom = 1;
        return;
    }
    const qr_style *s = &d.st;
    if (doc->title.n) text_word(&d, &doc->title, s->title_pt, 1, d.W, "/title");
    w->ends[0] = w->l.count;
    for (size_t i = 0; i < doc->n_blocks; i++) {
        const qr_block *b = &doc->blocks[i];
        switch (b->type) {
        case QR_BLOCK_HEADING: {
            int lv = b->u.heading.level >= 1 && b->u.heading.level <= 6 ? b->u.heading.level : 2;
            text_word(&d, &b->u.heading.text, s->heading_pt[lv - 1], 1, d.W, b->path);
            break;
        }
        case QR_BLOCK_PARAGRAPH:
            text_word(&d, &b->u.paragraph.text, s->body_pt, 0, d.W, b->path);
            break;
        case QR_BLOCK_LIST:
            items(&d, b->u.list.items, b->u.list.n_items, 0, b->path);
            break;
        case QR_BLOCK_TABLE:
            table(&d, &b->u.table, b->path);
            break;
        case QR_BLOCK_IMAGE:
            image(&d, &b->u.image, b->path);
            break;
        case QR_BLOCK_QUOTE:
            text_word(&d, &b->u.quote.text, s->body_pt, 0, d.W - BAR, b->path);
            text_word(&d, &b->u.quote.attribution, s->table_pt, 0, d.W - BAR, b->path);
            break;
        case QR_BLOCK_CALLOUT:
            text_word(&d, &b->u.callout.title, s->body_pt, 1, d.W - BOX, b->path);
            text_word(&d, &b->u.callout.text, s->body_pt, 0, d.W - BOX, b->path);
            break;
        default: /* code keeps its lines (a long one wraps, as code does); charts, rules, toc */
            break;
        }
        if (b->caption.n) text_word(&d, &b->caption, s->table_pt, 0, d.W, b->path);
        w->ends[i + 1] = w->l.count;
    }
}

void qr_doc_words_place(const qr_doc *doc, qr_doc_words *w, const size_t *first, const size_t *last,
                        qr_layout_list *l)
{
    if (!l) return;
    if (w->l.oom) l->oom = 1;
    if (!w->ends) return;
    dr d = {.doc = doc, .l = l};
    size_t k = 0;
    /* the title's on page 1, each block's where the block starts (a
     * table's cell may lie further on) */
    for (; k < w->ends[0]; k++) {
        const qr_layout_item *it = &w->l.items[k];
        qr_layout_add(l, it->kind, it->path, first ? 1 : 0, it->slide, it->value, it->detail);
    }
    for (size_t i = 0; i < doc->n_blocks; i++) {
        int page = first && first[i] < 100000000 ? (int)first[i] : 0;
        for (; k < w->ends[i + 1]; k++) {
            const qr_layout_item *it = &w->l.items[k];
            qr_layout_add(l, it->kind, it->path, page, it->slide, it->value, it->detail);
        }
        const qr_block *b = &doc->blocks[i];
        if (first && b->type == QR_BLOCK_TABLE)
            table_continued(&d, &b->u.table, b->path, first[i], last[i]);
    }
}

void qr_doc_words_free(qr_doc_words *w)
{
    qr_layout_clear(&w->l);
    free(w->ends);
    w->ends = NULL;
}

void qr_doc_report(const qr_doc *doc, const size_t *first, const size_t *last, qr_layout_list *l)
{
    if (!l) return;
    qr_doc_words w;
    qr_doc_words_measure(doc, &w);
    qr_doc_words_place(doc, &w, first, last, l);
    qr_doc_words_free(&w);
}
