/* simple_draw.c: what pango draws for a line simple_text.c laid out.
 *
 * A simple text painted without a PangoLayout (text.c) is recorded for
 * the replay (replay.c) as pango_renderer_draw_layout_line() would draw
 * its line (pango 1.50, pango-renderer.c): its runs (simple_text.c's
 * qr_simple_runs, split where a colour or a line starts or ends, as
 * pango_glyph_item_apply_attrs() splits them), each with the colours and
 * lines text.c's attributes give it (pd_paint); a ground drawn over the
 * line's logical height before its glyphs; lines under and through the
 * words joined across runs and drawn when they end or change colour, at
 * the font's underline and strikethrough metrics. The recording is the
 * same bytes pango's would be (QUIRE_SIMPLE_TEXT=check compares them).
 */
#include <string.h>

#include "pdf_int.h"
#include "simple_text.h"

/* The colours and lines of the run starting at byte a. */
typedef struct run_paint {
    PangoColor fg, bg;
    int has_fg, has_bg, underline, strike;
} run_paint;

static PangoColor color_of(uint32_t rgb)
{
    PangoColor c = {(guint16)(((rgb >> 16) & 0xFF) * 257), (guint16)(((rgb >> 8) & 0xFF) * 257),
                    (guint16)((rgb & 0xFF) * 257)};
    return c;
}

static run_paint paint_at(const pd_text *t, int a)
{
    run_paint p = {{0}, {0}, 0, 0, 0, 0};
    for (size_t k = 0; k < t->n_paint; k++) {
        const pd_paint *q = &t->paint[k];
        if (a < q->start || a >= q->end) continue;
        switch (q->kind) {
        case PD_PAINT_FG:
            p.fg = color_of(q->rgb);
            p.has_fg = 1;
            break;
        case PD_PAINT_BG:
            p.bg = color_of(q->rgb);
            p.has_bg = 1;
            break;
        case PD_PAINT_UNDERLINE:
            p.underline = 1;
            break;
        default:
            p.strike = 1;
            break;
        }
    }
    return p;
}

/* One renderer colour part (pango_renderer_set_color's state). */
typedef struct part {
    int set;
    PangoColor c;
} part;

/* Would setting part p to c (NULL: none) change it (part_changed)? */
static int differs(const part *p, const PangoColor *c)
{
    if (!c) return p->set;
    return !p->set || p->c.red != c->red || p->c.green != c->green || p->c.blue != c->blue;
}

static void set_part(part *p, const PangoColor *c)
{
    p->set = c != NULL;
    if (c) p->c = *c;
}

/* pango-renderer.c's LineState, and the renderer's colour parts. */
typedef struct line_state {
    qr_buf *out;
    int underline; /* pending */
    PangoRectangle ul;
    int strike, strike_glyphs;
    PangoRectangle st;
    int logical_rect_end;
    part fg, bg, ulc, stc;
} line_state;

static const PangoColor *part_color(const part *p)
{
    return p->set ? &p->c : NULL;
}

static void draw_underline(line_state *s)
{
    int u = s->underline;
    s->underline = 0;
    if (u)
        qr_pdf_rec_rect(s->out, part_color(&s->ulc), s->ul.x, s->ul.y, s->ul.width, s->ul.height);
}

static void draw_strikethrough(line_state *s)
{
    PangoRectangle *r = &s->st;
    if (s->strike && s->strike_glyphs > 0)
        qr_pdf_rec_rect(s->out, part_color(&s->stc), r->x, r->y / s->strike_glyphs, r->width,
                        r->height / s->strike_glyphs);
    s->strike = 0;
    s->strike_glyphs = 0;
    r->x += r->width;
    r->width = 0;
    r->y = 0;
    r->height = 0;
}

static void add_underline(line_state *s, PangoFontMetrics *m, int base_x, int base_y,
                          const PangoRectangle *ink, const PangoRectangle *log)
{
    PangoRectangle n;
    n.x = base_x + MIN(ink->x, log->x);
    n.width = MAX(ink->width, log->width);
    n.height = pango_font_metrics_get_underline_thickness(m);
    n.y = base_y - pango_font_metrics_get_underline_position(m);
    if (s->underline && n.y == s->ul.y && n.height == s->ul.height) {
        s->ul.width = n.x + n.width - s->ul.x;
    } else {
        draw_underline(s);
        s->ul = n;
        s->underline = 1;
    }
}

static void add_strikethrough(line_state *s, PangoFontMetrics *m, int base_x, int base_y,
                              const PangoRectangle *ink, int num_glyphs)
{
    PangoRectangle n;
    n.x = base_x + ink->x;
    n.width = ink->width;
    n.y = (base_y - pango_font_metrics_get_strikethrough_position(m)) * num_glyphs;
    n.height = pango_font_metrics_get_strikethrough_thickness(m) * num_glyphs;
    if (s->strike) {
        s->st.width = n.x + n.width - s->st.x;
        s->st.y += n.y;
        s->st.height += n.height;
        s->strike_glyphs += num_glyphs;
    } else {
        s->st = n;
        s->strike = 1;
        s->strike_glyphs = num_glyphs;
    }
}

/* pango_renderer_default_prepare_run(): the run's colour parts, each
 * change ending a pending line in the old colour (handle_line_state_change). */
static void prepare_run(line_state *s, const run_paint *p)
{
    const PangoColor *fg = p->has_fg ? &p->fg : NULL;
    set_part(&s->fg, fg);
    set_part(&s->bg, p->has_bg ? &p->bg : NULL);
    if (differs(&s->ulc, fg) && s->underline) {
        s->ul.width = s->logical_rect_end - s->ul.x;
        draw_underline(s);
        s->underline = p->underline;
        s->ul.x = s->logical_rect_end;
        s->ul.width = 0;
    }
    set_part(&s->ulc, fg);
    if (differs(&s->stc, fg) && s->strike) {
        s->st.width = s->logical_rect_end - s->st.x;
        draw_strikethrough(s);
        s->strike = p->strike;
    }
    set_part(&s->stc, fg);
}

static PangoGlyphString glyph_string(const qr_simple_run *r)
{
    PangoGlyphString g = {r->n_glyphs, (PangoGlyphInfo *)r->glyphs, (int *)r->log_clusters,
                          r->n_glyphs};
    return g;
}

/* The line's runs: qr_simple_runs() for line i of t. */
static long line_runs(const pd_text *t, size_t i, const qr_simple_run **runs)
{
    const pd_line *ln = &t->lines[i];
    size_t n = t->simple_items[t->n_simple_items - 1].end;
    return qr_simple_runs(t->owner->simple, t->simple, n, t->simple_items, t->n_simple_items,
                          ln->start, ln->length, i + 1 < t->n_lines, t->cuts, t->n_cuts, runs);
}

/* pango_layout_line_get_extents()' logical rectangle's y and height. */
static void line_logical(const qr_simple_run *runs, long nr, int *y, int *height)
{
    PangoRectangle lr = {0, 0, 0, 0};
    for (long k = 0; k < nr; k++) {
        PangoGlyphString g = glyph_string(&runs[k]);
        PangoRectangle log;
        pango_glyph_string_extents(&g, runs[k].font, NULL, &log);
        int top = MIN(lr.y, log.y);
        lr.height = MAX(lr.y + lr.height, log.y + log.height) - top;
        lr.y = top;
    }
    *y = lr.y;
    *height = lr.height;
}

int qr_pdf_simple_record(const pd_text *t, size_t i, qr_buf *out)
{
    const qr_simple_run *runs;
    long nr = line_runs(t, i, &runs);
    if (nr < 0) return -1;
    size_t at = out->len;
    line_state s;
    memset(&s, 0, sizeof s);
    s.out = out;
    int x_off = 0, got_overall = 0, oy = 0, oh = 0;
    for (long k = 0; k < nr; k++) {
        const qr_simple_run *r = &runs[k];
        run_paint p = paint_at(t, r->start);
        prepare_run(&s, &p);
        PangoGlyphString g = glyph_string(r);
        PangoRectangle ink, log;
        int lines = p.underline || p.strike, width = 0;
        if (lines) {
            pango_glyph_string_extents(&g, r->font, &ink, &log);
            width = log.width;
        } else {
            for (int j = 0; j < r->n_glyphs; j++)
                width += r->glyphs[j].geometry.width;
        }
        s.logical_rect_end = x_off + width;
        if (p.has_bg) {
            if (!got_overall) line_logical(runs, nr, &oy, &oh);
            got_overall = 1;
            qr_pdf_rec_rect(out, &p.bg, x_off, oy, width, oh);
        }
        qr_pdf_rec_glyph_run(out, p.has_fg ? &p.fg : NULL, r->font, x_off, 0, t->simple + r->start,
                             r->length, r->glyphs, r->log_clusters, r->n_glyphs);
        if (lines) {
            PangoFontMetrics *m = pango_font_get_metrics(r->font, r->language);
            if (p.underline) add_underline(&s, m, x_off, 0, &ink, &log);
            if (p.strike) add_strikethrough(&s, m, x_off, 0, &ink, r->n_glyphs);
            pango_font_metrics_unref(m);
        }
        if (!p.underline && s.underline) draw_underline(&s);
        if (!p.strike && s.strike) draw_strikethrough(&s);
        x_off += width;
    }
    draw_underline(&s);
    draw_strikethrough(&s);
    qr_pdf_rec_line_end(out);
    if (!out->oom) return 0;
    out->len = at;
    out->oom = 0;
    return -1;
}

int qr_pdf_simple_x_ranges(const pd_text *t, size_t i, int s, int e, int **ranges, int *n)
{
    const qr_simple_run *runs;
    long nr = line_runs(t, i, &runs);
    *ranges = NULL;
    *n = 0;
    if (nr < 0) return -1;
    *ranges = g_new(int, 2 * (2 + nr));
    int acc = 0, count = 0;
    for (long k = 0; k < nr; k++) {
        const qr_simple_run *r = &runs[k];
        PangoGlyphString g = glyph_string(r);
        if (s < r->start + r->length && e > r->start) {
            int rs = MAX(s, r->start), re = MIN(e, r->start + r->length) - 1, xs, xe;
            PangoAnalysis an = {0};
            an.font = r->font;
            pango_glyph_string_index_to_x(&g, (char *)t->simple + r->start, r->length, &an,
                                          rs - r->start, FALSE, &xs);
            pango_glyph_string_index_to_x(&g, (char *)t->simple + r->start, r->length, &an,
                                          re - r->start, TRUE, &xe);
            (*ranges)[2 * count] = acc + MIN(xs, xe);
            (*ranges)[2 * count + 1] = acc + MAX(xs, xe);
            count++;
        }
        if (k + 1 < nr) acc += pango_glyph_string_get_width(&g);
    }
    *n = count;
    return 0;
}
