/* chart.c: charts in the PDF/PNG backend. Measuring lays the chart out
 * with the chart model (layout/chart.h), measuring every label with pango
 * (qr_pdf_text: any script, the fonts/ fallback, RTL); placing turns the
 * labels into ordinary text lines (OP_LINE, so they are recorded, replayed
 * and extracted like body text) after one OP_CHART box; painting draws the
 * box's shapes (bars, lines, areas, slices, markers, gridlines) with cairo.
 * For the structure tree it also lists a chart's data as table cells (the
 * same table html hides for screen readers). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "compile.h"
#include "pdf_int.h"

typedef struct measurer {
    pd_ctx *c;
    const char *path;
    const pd_text **texts;
    size_t n, cap;
    int failed;
} measurer;

static double width(void *ctx, const char *s, size_t n, double size, int bold)
{
    measurer *m = ctx;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        const pd_text **nt = realloc(m->texts, cap * sizeof *nt);
        if (!nt) {
            m->failed = 1;
            return 0;
        }
        m->texts = nt;
        m->cap = cap;
    }
    pd_style st = {.size = size, .bold = bold ? 1 : 0};
    pd_text *t = qr_pdf_text(m->c, NULL, s, n, &st, 0, m->path);
    m->texts[m->n++] = t;
    return t ? t->width : 0; /* its layout's logical width (text.c), laid out or not */
}

qr_status qr_pdf_measure_chart(pd_ctx *c, pd_block *b, const qr_chart *ch)
{
    double w, h;
    qr_chart_default_size(c->width, &w, &h);
    measurer m = {.c = c, .path = ch->path};
    qr_chart_measure ms = {width, &m};
    qr_chart_plot p;
    if (qr_chart_layout(ch, w, h, &ms, &c->style, &p) != 0 || m.failed) {
        free(m.texts);
        return qr_pdf_fail(c, QR_E_NOMEM, ch->path, "out of memory");
    }
    /* Keep the plot in the scratch arena: it lives as long as the blocks. */
    qr_chart_plot *kp = qr_arena_alloc(&c->arena, sizeof *kp);
    const pd_text **texts = qr_arena_array(&c->arena, m.n ? m.n : 1, sizeof *texts);
    qr_chart_shape *shapes = qr_arena_array(&c->arena, p.n ? p.n : 1, sizeof *shapes);
    double *pts = qr_arena_array(&c->arena, p.n_pts ? p.n_pts : 1, sizeof *pts);
    if (kp && texts && shapes && pts) {
        *kp = p;
        if (p.n) memcpy(shapes, p.shapes, p.n * sizeof *shapes);
        if (p.n_pts) memcpy(pts, p.pts, p.n_pts * sizeof *pts);
        if (m.n) memcpy(texts, m.texts, m.n * sizeof *texts);
        kp->shapes = shapes;
        kp->pts = pts;
        kp->texts = NULL; /* pd_texts replace them */
        kp->chars = NULL;
        kp->n_texts = m.n;
        kp->texts = qr_arena_array(&c->arena, p.n_texts ? p.n_texts : 1, sizeof *kp->texts);
        if (kp->texts && p.n_texts) memcpy(kp->texts, p.texts, p.n_texts * sizeof *kp->texts);
        b->chart = ch;
        b->plot = kp;
        b->chart_texts = texts;
        b->img_w = w;
        b->img_h = h;
    }
    qr_chart_plot_free(&p);
    free(m.texts);
    if (!b->plot || !b->plot->texts) return qr_pdf_fail(c, QR_E_NOMEM, ch->path, "out of memory");
    return c->status;
}

static void rgba(cairo_t *cr, uint32_t c, double a)
{
    cairo_set_source_rgba(cr, ((c >> 16) & 0xFF) / 255.0, ((c >> 8) & 0xFF) / 255.0,
                          (c & 0xFF) / 255.0, a);
}

/* Clockwise from 12 o'clock (chart.h) to cairo's angles (from 3 o'clock, y down). */
static double cairo_angle(double a)
{
    return a - M_PI / 2;
}

/* Draw p's shapes (not its labels) with the plot's top-left at (x, y). */
static void paint_shapes(cairo_t *cr, const qr_chart_plot *p, double x, double y)
{
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (size_t i = 0; i < p->n; i++) {
        const qr_chart_shape *s = &p->shapes[i];
        rgba(cr, s->color, s->alpha);
        switch ((qr_chart_shape_kind)s->kind) {
        case QR_CS_RECT:
            cairo_rectangle(cr, s->x, s->y, s->w, s->h);
            cairo_fill(cr);
            break;
        case QR_CS_LINE:
            cairo_set_line_width(cr, s->lw);
            cairo_move_to(cr, s->x, s->y);
            cairo_line_to(cr, s->x2, s->y2);
            cairo_stroke(cr);
            break;
        case QR_CS_PATH:
            for (size_t k = 0; k < s->n_pts; k++) {
                const double *q = &p->pts[2 * (s->pts + k)];
                if (k)
                    cairo_line_to(cr, q[0], q[1]);
                else
                    cairo_move_to(cr, q[0], q[1]);
            }
            if (s->fill) {
                cairo_close_path(cr);
                cairo_fill(cr);
            } else {
                cairo_set_line_width(cr, s->lw);
                cairo_stroke(cr);
            }
            break;
        case QR_CS_SECTOR:
            if (s->a1 - s->a0 >= 2 * M_PI - 1e-9) {
                cairo_arc(cr, s->x, s->y, s->r, 0, 2 * M_PI);
                if (s->r0 > 0) {
                    cairo_new_sub_path(cr);
                    cairo_arc_negative(cr, s->x, s->y, s->r0, 2 * M_PI, 0);
                }
            } else {
                cairo_arc(cr, s->x, s->y, s->r, cairo_angle(s->a0), cairo_angle(s->a1));
                if (s->r0 > 0)
                    cairo_arc_negative(cr, s->x, s->y, s->r0, cairo_angle(s->a1),
                                       cairo_angle(s->a0));
                else
                    cairo_line_to(cr, s->x, s->y);
                cairo_close_path(cr);
            }
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
            cairo_fill(cr);
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
            break;
        case QR_CS_CIRCLE:
            cairo_arc(cr, s->x, s->y, s->r, 0, 2 * M_PI);
            cairo_fill(cr);
            break;
        case QR_CS_TEXT:
            break; /* OP_LINE ops draw the labels */
        }
    }
    cairo_restore(cr);
}

void qr_pdf_paint_chart(cairo_t *cr, const pd_op *o)
{
    paint_shapes(cr, o->blk->plot, o->x, o->y);
}

qr_status qr_pdf_draw_chart(pd_ctx *c, cairo_t *cr, const qr_chart *ch, double x, double y,
                            double w, double h, const qr_style *st)
{
    measurer m = {.c = c, .path = ch->path};
    qr_chart_measure ms = {width, &m};
    qr_chart_plot p;
    if (qr_chart_layout(ch, w, h, &ms, st, &p) != 0 || m.failed) {
        free(m.texts);
        return qr_pdf_fail(c, QR_E_NOMEM, ch->path, "out of memory");
    }
    paint_shapes(cr, &p, x, y);
    /* the labels where place_chart (layout.c) puts a document chart's */
    for (size_t i = 0; i < p.n && c->status == QR_OK; i++) {
        const qr_chart_shape *s = &p.shapes[i];
        const pd_text *t = s->kind == QR_CS_TEXT ? m.texts[s->text] : NULL;
        if (!t || !t->n_lines) continue;
        rgba(cr, s->color, 1);
        cairo_move_to(cr, x + s->x - p.texts[s->text].width * s->anchor / 2 + t->lines[0].x,
                      y + s->y);
        pango_cairo_show_layout_line(cr, t->lines[0].line);
    }
    qr_chart_plot_free(&p);
    free(m.texts);
    return c->status;
}

int qr_pdf_chart_grid(const qr_chart *ch, size_t *rows, size_t *cols)
{
    size_t per = ch->type == QR_CHART_SCATTER ? 2 : 1;
    *rows = 1 + ch->n_points;
    *cols = 1 + per * ch->n_series;
    return *rows * *cols <= QR_PDF_CHART_CELLS;
}

static void cell_value(qr_buf *b, double v)
{
    char n[40];
    int k = qr_fmt_double(v, n);
    qr_buf_append(b, n, (size_t)k);
}

static void cell_series(qr_buf *b, const qr_series *s, size_t i, const char *suffix)
{
    if (*s->name)
        qr_buf_puts(b, s->name);
    else
        qr_buf_printf(b, "Series %zu", i + 1);
    qr_buf_puts(b, suffix);
}

void qr_pdf_chart_cells(const qr_chart *ch, qr_buf *b)
{
    int sc = ch->type == QR_CHART_SCATTER;
    qr_buf_puts(b, sc ? "#" : ch->x_title ? ch->x_title : "");
    qr_buf_putc(b, '\0');
    for (size_t s = 0; s < ch->n_series; s++) {
        if (sc) {
            cell_series(b, &ch->series[s], s, " x");
            qr_buf_putc(b, '\0');
        }
        cell_series(b, &ch->series[s], s, sc ? " y" : "");
        qr_buf_putc(b, '\0');
    }
    for (size_t i = 0; i < ch->n_points; i++) {
        if (sc)
            qr_buf_printf(b, "%zu", i + 1);
        else
            qr_buf_puts(b, ch->categories[i]);
        qr_buf_putc(b, '\0');
        for (size_t s = 0; s < ch->n_series; s++) {
            const qr_series *se = &ch->series[s];
            if (sc) {
                if (i < se->n) cell_value(b, se->x[i]);
                qr_buf_putc(b, '\0');
            }
            if (i < se->n) cell_value(b, se->values[i]);
            qr_buf_putc(b, '\0');
        }
    }
}
