/* html_chart.c: charts as inline SVG plus a visually hidden data table
 * (see html_chart.h). Every spec string goes through html.c's escaper
 * (qr_html_esc_attr); numbers are written without the C locale. */
#include "html_chart.h"
#include "style.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "compile.h"
#include "fonts.h"

static void escz(qr_buf *b, const char *s)
{
    qr_html_esc_attr(b, s, strlen(s));
}

/* A coordinate with at most two decimals, locale-free. */
static void num(qr_buf *b, double v)
{
    long long h = llround(v * 100);
    if (h < 0) {
        qr_buf_putc(b, '-');
        h = -h;
    }
    qr_buf_printf(b, "%lld", h / 100);
    if (h % 100) {
        if (h % 10)
            qr_buf_printf(b, ".%02lld", h % 100);
        else
            qr_buf_printf(b, ".%lld", (h % 100) / 10);
    }
}

static void attr(qr_buf *b, const char *name, double v)
{
    qr_buf_printf(b, " %s=\"", name);
    num(b, v);
    qr_buf_putc(b, '"');
}

static void color(qr_buf *b, const char *name, uint32_t c)
{
    qr_buf_printf(b, " %s=\"#%06X\"", name, c & 0xFFFFFF);
}

static void pt(qr_buf *b, char cmd, double x, double y)
{
    qr_buf_putc(b, cmd);
    num(b, x);
    qr_buf_putc(b, ' ');
    num(b, y);
}

/* A point at angle a (clockwise from 12 o'clock) on radius r. */
static void polar(qr_buf *b, char cmd, const qr_chart_shape *s, double r, double a)
{
    pt(b, cmd, s->x + r * sin(a), s->y - r * cos(a));
}

static void arc(qr_buf *b, double r, int large, int sweep, const qr_chart_shape *s, double a)
{
    qr_buf_putc(b, 'A');
    num(b, r);
    qr_buf_putc(b, ' ');
    num(b, r);
    qr_buf_printf(b, " 0 %d %d ", large, sweep);
    num(b, s->x + r * sin(a));
    qr_buf_putc(b, ' ');
    num(b, s->y - r * cos(a));
}

static void sector(qr_buf *b, const qr_chart_shape *s)
{
    double span = s->a1 - s->a0;
    if (span >= 2 * 3.14159265358979 - 1e-9) {
        /* a whole ring or disc: two half arcs each */
        polar(b, 'M', s, s->r, 0);
        arc(b, s->r, 0, 1, s, 3.14159265358979);
        arc(b, s->r, 0, 1, s, 0);
        if (s->r0 > 0) {
            polar(b, 'M', s, s->r0, 0);
            arc(b, s->r0, 0, 0, s, 3.14159265358979);
            arc(b, s->r0, 0, 0, s, 0);
        }
        qr_buf_putc(b, 'Z');
        return;
    }
    int large = span > 3.14159265358979;
    polar(b, 'M', s, s->r, s->a0);
    arc(b, s->r, large, 1, s, s->a1);
    if (s->r0 > 0) {
        polar(b, 'L', s, s->r0, s->a1);
        arc(b, s->r0, large, 0, s, s->a0);
    } else {
        pt(b, 'L', s->x, s->y);
    }
    qr_buf_putc(b, 'Z');
}

static void svg(qr_buf *b, const qr_chart *ch, const qr_chart_plot *p)
{
    const char *label = *ch->alt ? ch->alt : ch->title ? ch->title : "chart";
    qr_buf_puts(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"");
    escz(b, label);
    qr_buf_puts(b, "\" viewBox=\"0 0 ");
    num(b, p->width);
    qr_buf_putc(b, ' ');
    num(b, p->height);
    qr_buf_putc(b, '"');
    attr(b, "width", p->width * 4 / 3);
    attr(b, "height", p->height * 4 / 3);
    qr_buf_puts(b, " style=\"max-width:100%;height:auto\"><title>");
    escz(b, label);
    qr_buf_puts(b, "</title>\n");
    for (size_t i = 0; i < p->n; i++) {
        const qr_chart_shape *s = &p->shapes[i];
        switch ((qr_chart_shape_kind)s->kind) {
        case QR_CS_RECT:
            qr_buf_puts(b, "<rect");
            attr(b, "x", s->x);
            attr(b, "y", s->y);
            attr(b, "width", s->w);
            attr(b, "height", s->h);
            color(b, "fill", s->color);
            qr_buf_puts(b, "/>\n");
            break;
        case QR_CS_LINE:
            qr_buf_puts(b, "<line");
            attr(b, "x1", s->x);
            attr(b, "y1", s->y);
            attr(b, "x2", s->x2);
            attr(b, "y2", s->y2);
            color(b, "stroke", s->color);
            attr(b, "stroke-width", s->lw);
            qr_buf_puts(b, "/>\n");
            break;
        case QR_CS_PATH:
            qr_buf_puts(b, "<path d=\"");
            for (size_t k = 0; k < s->n_pts; k++) {
                const double *q = &p->pts[2 * (s->pts + k)];
                pt(b, k ? 'L' : 'M', q[0], q[1]);
            }
            if (s->fill) {
                qr_buf_puts(b, "Z\"");
                color(b, "fill", s->color);
                if (s->alpha < 1) attr(b, "fill-opacity", s->alpha);
            } else {
                qr_buf_puts(b, "\" fill=\"none\" stroke-linejoin=\"round\"");
                color(b, "stroke", s->color);
                attr(b, "stroke-width", s->lw);
            }
            qr_buf_puts(b, "/>\n");
            break;
        case QR_CS_SECTOR:
            qr_buf_puts(b, "<path d=\"");
            sector(b, s);
            qr_buf_puts(b, "\" fill-rule=\"evenodd\"");
            color(b, "fill", s->color);
            qr_buf_puts(b, "/>\n");
            break;
        case QR_CS_CIRCLE:
            qr_buf_puts(b, "<circle");
            attr(b, "cx", s->x);
            attr(b, "cy", s->y);
            attr(b, "r", s->r);
            color(b, "fill", s->color);
            qr_buf_puts(b, "/>\n");
            break;
        case QR_CS_TEXT: {
            static const char *const anchors[] = {"start", "middle", "end"};
            const qr_chart_text *t = &p->texts[s->text];
            qr_buf_puts(b, "<text");
            attr(b, "x", s->x);
            attr(b, "y", s->y);
            attr(b, "font-size", t->size);
            if (t->bold) qr_buf_puts(b, " font-weight=\"bold\"");
            /* right-to-left text (an Arabic title) reads right to left, as
             * in the PDF: its start is its right end, so start and end
             * anchors swap to keep the box layout/chart.c placed */
            const char *str = qr_chart_text_of(p, s->text);
            int rtl = qr_fonts_direction(str, t->len) == QR_DIR_RTL;
            int anchor = rtl && s->anchor != 1 ? 2 - s->anchor : s->anchor;
            if (anchor) qr_buf_printf(b, " text-anchor=\"%s\"", anchors[anchor]);
            if (rtl) qr_buf_puts(b, " direction=\"rtl\" unicode-bidi=\"embed\"");
            color(b, "fill", s->color);
            qr_buf_putc(b, '>');
            qr_html_esc_attr(b, qr_chart_text_of(p, s->text), t->len);
            qr_buf_puts(b, "</text>\n");
            break;
        }
        }
    }
    qr_buf_puts(b, "</svg>\n");
}

static void value(qr_buf *b, double v)
{
    char n[40];
    int k = qr_fmt_double(v, n);
    qr_buf_append(b, n, (size_t)k);
}

static void series_name(qr_buf *b, const qr_series *s, size_t i)
{
    if (*s->name)
        escz(b, s->name);
    else
        qr_buf_printf(b, "Series %zu", i + 1);
}

/* The data for screen readers: a table kept off screen (not display:none,
 * which would hide it from them too). */
static void table(qr_buf *b, const qr_chart *ch)
{
    int sc = ch->type == QR_CHART_SCATTER;
    qr_buf_puts(b, "<table class=\"chart-data\" style=\"position:absolute;width:1px;height:1px;"
                   "padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);"
                   "clip-path:inset(50%);white-space:nowrap;border:0\">");
    if (ch->title) {
        qr_buf_puts(b, "<caption>");
        escz(b, ch->title);
        qr_buf_puts(b, "</caption>");
    }
    qr_buf_puts(b, "<thead><tr><th scope=\"col\">");
    if (sc)
        qr_buf_puts(b, "#");
    else if (ch->x_title)
        escz(b, ch->x_title);
    qr_buf_puts(b, "</th>");
    /* one column per coordinate of a series: x and y for a scatter, else y */
    for (size_t s = 0; s < ch->n_series; s++)
        for (int y = !sc; y < 2; y++) {
            qr_buf_puts(b, "<th scope=\"col\">");
            series_name(b, &ch->series[s], s);
            if (sc) qr_buf_puts(b, y ? " y" : " x");
            qr_buf_puts(b, "</th>");
        }
    qr_buf_puts(b, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < ch->n_points; i++) {
        qr_buf_puts(b, "<tr><th scope=\"row\">");
        if (sc)
            qr_buf_printf(b, "%zu", i + 1);
        else
            escz(b, ch->categories[i]);
        qr_buf_puts(b, "</th>");
        for (size_t s = 0; s < ch->n_series; s++)
            for (int y = !sc; y < 2; y++) { /* a scatter's x, then every chart's y */
                const qr_series *se = &ch->series[s];
                qr_buf_puts(b, "<td>");
                if (i < se->n) value(b, y ? se->values[i] : se->x[i]);
                qr_buf_puts(b, "</td>");
            }
        qr_buf_puts(b, "</tr>\n");
    }
    qr_buf_puts(b, "</tbody></table>");
}

int qr_html_chart(qr_buf *b, const qr_chart *ch, const qr_style *st)
{
    double w, h;
    qr_chart_default_size(468, &w, &h);
    qr_chart_plot p;
    if (qr_chart_layout(ch, w, h, NULL, st, &p) != 0) return -1;
    qr_buf_puts(b, "<figure class=\"chart\" style=\"position:relative\">");
    svg(b, ch, &p);
    table(b, ch);
    qr_buf_puts(b, "</figure>\n");
    qr_chart_plot_free(&p);
    return b->oom ? -1 : 0;
}
