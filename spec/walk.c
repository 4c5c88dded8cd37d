/* walk.c: qr_doc_walk(), every block and every text of a tree (walk.h). */
#include "walk.h"

#include <stdio.h>
#include <string.h>

typedef struct wk {
    const qr_walker *w;
    qr_walk_text at; /* the context of the texts being visited */
} wk;

static int text(wk *k, qr_walk_role role, const qr_text *t)
{
    if (!k->w->text) return 0;
    qr_walk_text at = k->at;
    at.role = role;
    at.text = t;
    int r = k->w->text(k->w->ud, &at);
    /* the footnotes referenced in t (a note holds no notes) */
    for (size_t i = 0; !r && role != QR_WALK_NOTE && i < t->n; i++)
        if (t->runs[i].note) r = text(k, QR_WALK_NOTE, t->runs[i].note);
    return r;
}

/* A plain string as a one-run label at base + suffix. */
static int label_as(wk *k, qr_walk_role role, const char *s, const char *base, const char *fmt,
                    size_t a, size_t b)
{
    if (!s || !k->w->text) return 0;
    char path[512], tail[64];
    snprintf(tail, sizeof tail, fmt, a, b);
    snprintf(path, sizeof path, "%s%s", base ? base : "", tail);
    qr_run r = {0};
    r.text = s;
    r.len = strlen(s);
    qr_text t = {&r, r.len ? 1 : 0, path};
    return text(k, role, &t);
}

static int label(wk *k, const char *s, const char *base, const char *fmt, size_t a, size_t b)
{
    return label_as(k, QR_WALK_LABEL, s, base, fmt, a, b);
}

static int items(wk *k, const qr_item *it, size_t n, int depth)
{
    for (size_t i = 0; i < n; i++) {
        k->at.depth = depth;
        int r = text(k, QR_WALK_ITEM, &it[i].text);
        /* the compiler allows 9 levels; the guard keeps a bad tree finite */
        if (!r && depth < 64) r = items(k, it[i].items, it[i].n_items, depth + 1);
        if (r) return r;
    }
    k->at.depth = 0;
    return 0;
}

static int table(wk *k, const qr_table *t)
{
    int r = 0;
    for (size_t c = 0; !r && t->headers && c < t->n_headers; c++) {
        k->at.cell = &t->headers[c];
        r = text(k, QR_WALK_HEADER_CELL, &t->headers[c].text);
    }
    for (size_t row = 0; !r && row < t->n_rows; row++)
        for (size_t c = 0; !r && c < t->n_cols; c++) {
            k->at.cell = &t->rows[row][c];
            r = text(k, QR_WALK_CELL, &t->rows[row][c].text);
        }
    k->at.cell = NULL;
    return r;
}

static int image(wk *k, const qr_image *im)
{
    k->at.image = im;
    int r = text(k, QR_WALK_ALT, &im->alt);
    k->at.image = NULL;
    return r;
}

static int chart(wk *k, const qr_chart *c)
{
    k->at.chart = c;
    int r = label_as(k, QR_WALK_CHART_TITLE, c->title, c->path, "/title", 0, 0);
    if (!r) r = label_as(k, QR_WALK_CHART_TITLE, c->x_title, c->path, "/x_title", 0, 0);
    if (!r) r = label_as(k, QR_WALK_CHART_TITLE, c->y_title, c->path, "/y_title", 0, 0);
    for (size_t i = 0; !r && c->categories && i < c->n_categories; i++)
        r = label(k, c->categories[i], c->path, "/categories/%zu", i, 0);
    for (size_t i = 0; !r && i < c->n_series; i++)
        r = label(k, c->series[i].name, c->series[i].path, "/name", 0, 0);
    k->at.chart = NULL;
    return r;
}

static int block(wk *k, const qr_block *b)
{
    const qr_walker *w = k->w;
    int r = w->block ? w->block(w->ud, b, 0) : 0;
    if (r) return r;
    k->at.block = b;
    switch (b->type) {
    case QR_BLOCK_HEADING:
        r = text(k, QR_WALK_HEADING, &b->u.heading.text);
        break;
    case QR_BLOCK_PARAGRAPH:
        r = text(k, QR_WALK_PARAGRAPH, &b->u.paragraph.text);
        break;
    case QR_BLOCK_LIST:
        r = items(k, b->u.list.items, b->u.list.n_items, 1);
        break;
    case QR_BLOCK_TABLE:
        r = table(k, &b->u.table);
        break;
    case QR_BLOCK_CODE:
        r = text(k, QR_WALK_CODE, &b->u.code.text);
        break;
    case QR_BLOCK_IMAGE:
        r = image(k, &b->u.image);
        break;
    case QR_BLOCK_PAGE_BREAK:
        break;
    case QR_BLOCK_CHART:
        r = chart(k, &b->u.chart);
        break;
    case QR_BLOCK_QUOTE:
        r = text(k, QR_WALK_QUOTE, &b->u.quote.text);
        if (!r && b->u.quote.attribution.n)
            r = text(k, QR_WALK_ATTRIBUTION, &b->u.quote.attribution);
        break;
    case QR_BLOCK_CALLOUT:
        r = text(k, QR_WALK_CALLOUT_TITLE, &b->u.callout.title);
        if (!r) r = text(k, QR_WALK_CALLOUT, &b->u.callout.text);
        break;
    case QR_BLOCK_RULE:
        break;
    case QR_BLOCK_TOC:
        r = text(k, QR_WALK_TOC_TITLE, &b->u.toc.title);
        break;
    }
    if (!r && b->caption.n) r = text(k, QR_WALK_CAPTION, &b->caption);
    k->at.block = NULL;
    if (!r && w->block) r = w->block(w->ud, b, 1);
    return r;
}

static int slide(wk *k, const qr_slide *s)
{
    const qr_walker *w = k->w;
    int r = w->slide ? w->slide(w->ud, s, 0) : 0;
    if (r) return r;
    k->at.slide = s;
    if (s->has_title) r = text(k, QR_WALK_SLIDE_TITLE, &s->title);
    if (!r && s->has_subtitle) r = text(k, QR_WALK_SUBTITLE, &s->subtitle);
    if (!r) r = items(k, s->bullets, s->n_bullets, 1);
    if (!r && s->footer_mode == QR_FOOTER_OWN) r = text(k, QR_WALK_SUBTITLE, &s->footer);
    if (!r && s->has_quote) r = text(k, QR_WALK_SUBTITLE, &s->quote);
    if (!r && s->has_attribution) r = text(k, QR_WALK_SUBTITLE, &s->attribution);
    for (size_t i = 0; !r && i < s->n_stats; i++) {
        r = text(k, QR_WALK_SUBTITLE, &s->stats[i].value);
        if (!r && s->stats[i].label.n) r = text(k, QR_WALK_SUBTITLE, &s->stats[i].label);
        if (!r && s->stats[i].caption.n) r = text(k, QR_WALK_SUBTITLE, &s->stats[i].caption);
    }
    if (!r && s->table) r = table(k, s->table);
    if (!r && s->image) r = image(k, s->image);
    if (!r && s->chart) r = chart(k, s->chart);
    if (!r && s->has_caption) r = text(k, QR_WALK_SUBTITLE, &s->caption);
    for (size_t i = 0; !r && i < s->n_agenda; i++)
        r = text(k, QR_WALK_SUBTITLE, &s->agenda[i]);
    for (size_t i = 0; !r && i < 2; i++) {
        const qr_column *c = &s->cols[i];
        if (c->has_heading) r = text(k, QR_WALK_SUBTITLE, &c->heading);
        if (!r) r = items(k, c->bullets, c->n_bullets, 1);
        if (!r && c->table) r = table(k, c->table);
        if (!r && c->image) r = image(k, c->image);
        if (!r && c->chart) r = chart(k, c->chart);
    }
    if (!r && s->has_notes) r = text(k, QR_WALK_NOTES, &s->notes);
    k->at.slide = NULL;
    if (!r && w->slide) r = w->slide(w->ud, s, 1);
    return r;
}

static int sheet(wk *k, const qr_sheet *sh)
{
    k->at.sheet = sh;
    int r = label(k, sh->name, sh->path, "/name", 0, 0);
    for (size_t row = 0; !r && row < sh->n_rows; row++)
        for (uint32_t c = 0; !r && c < sh->rows[row].n; c++) {
            const qr_cell *cell = &sh->rows[row].cells[c];
            if (cell->type != QR_CELL_TEXT) continue;
            char path[512];
            snprintf(path, sizeof path, "%s/rows/%zu/%u", sh->path ? sh->path : "", row,
                     (unsigned)c);
            qr_run run = {0};
            run.text = cell->v.str;
            run.len = cell->len;
            qr_text t = {&run, run.len ? 1 : 0, path};
            r = text(k, QR_WALK_LABEL, &t);
        }
    for (size_t i = 0; !r && i < sh->n_charts; i++)
        r = chart(k, &sh->charts[i]);
    k->at.sheet = NULL;
    return r;
}

int qr_block_walk(const qr_block *b, const qr_walker *w)
{
    if (!b || !w) return 0;
    wk k;
    memset(&k, 0, sizeof k);
    k.w = w;
    return block(&k, b);
}

int qr_doc_walk(const qr_doc *d, const qr_walker *w)
{
    if (!d || !w) return 0;
    wk k;
    memset(&k, 0, sizeof k);
    k.w = w;
    int r = d->title.n ? text(&k, QR_WALK_TITLE, &d->title) : 0;
    for (size_t i = 0; !r && i < d->n_blocks; i++)
        r = block(&k, &d->blocks[i]);
    for (size_t i = 0; !r && i < d->n_slides; i++)
        r = slide(&k, &d->slides[i]);
    for (size_t i = 0; !r && w->sheet_cells && i < d->n_sheets; i++)
        r = sheet(&k, &d->sheets[i]);
    return r;
}
