/* text.c: turn a qr_text into a measured PangoLayout.
 *
 * Spec text is never parsed as markup: the text layer's segments (text/)
 * are concatenated into one UTF-8 buffer and every style is a
 * PangoAttribute over a byte range. The font of each piece is the family
 * fonts/ chose for its script span (one PangoAttrFontDesc per span), so the
 * PDF embeds exactly the fonts fonts/ names; tabs and line breaks stay
 * characters, which pango sets as tab stops and new lines. Pango then shapes each item with
 * HarfBuzz, runs the Unicode bidi algorithm (fribidi) and breaks lines (UAX #14, dictionary breaks
 * for Thai and Khmer); we only measure the resulting lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"
#include "rhythm.h"
#include "simple_text.h"

int qr_pdf_keep_layout(pd_ctx *c, PangoLayout *l)
{
    if (c->n_layouts == c->cap_layouts) {
        size_t cap = c->cap_layouts ? c->cap_layouts * 2 : 256;
        PangoLayout **p = realloc(c->layouts, cap * sizeof *p);
        if (!p) return -1;
        c->layouts = p;
        c->cap_layouts = cap;
    }
    c->layouts[c->n_layouts++] = l;
    return 0;
}

/* Append n bytes of s for pango and cairo: what no format shows as U+FFFD
 * (text/text.h's one rule), in pieces of at most 64 KiB cut between
 * characters, so a huge text reserves little more than its own size. */
static void put_clean(qr_buf *b, const char *s, size_t n)
{
    while (n) {
        size_t k = n;
        if (k > 65536) {
            k = 65536;
            while (k > 65532 && ((unsigned char)s[k] & 0xC0) == 0x80)
                k--;
        }
        char *d = qr_buf_reserve(b, QR_TEXT_CLEAN_MAX(k));
        if (!d) return;
        b->len += qr_text_clean(d, s, k);
        b->data[b->len] = '\0';
        s += k;
        n -= k;
    }
}

/* The mono face replaces the Latin base face in code; other scripts keep
 * the family fonts/ chose (DejaVu Sans Mono has no Arabic or Han). */
static const char *code_family(const qr_seg *s)
{
    if (s->slot == QR_SLOT_LATIN && strncmp(s->family, "DejaVu", 6) == 0)
        return qr_fonts_mono_family();
    return s->family;
}

/* The bytes of the text one layout holds: attributes are clipped to it and
 * shifted to its start. */
typedef struct window {
    size_t start, end;
} window;

static void insert(PangoAttrList *al, const window *w, PangoAttribute *a, size_t start, size_t end)
{
    if (start < w->start) start = w->start;
    if (end > w->end) end = w->end;
    if (start > end) {
        pango_attribute_destroy(a);
        return;
    }
    a->start_index = (guint)(start - w->start);
    a->end_index = (guint)(end - w->start);
    pango_attr_list_insert(al, a);
}

/* The font of segments g[0..n) of one span, bytes [a, e) of the text. */
static void insert_font(PangoAttrList *al, const window *w, const qr_seg *g, size_t a, size_t e,
                        int bold, int italic, int mono)
{
    if (e < w->start || a > w->end) return;
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family_static(fd, mono ? code_family(g) : g->family);
    pango_font_description_set_weight(fd, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(fd, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    insert(al, w, pango_attr_font_desc_new(fd), a, e);
    pango_font_description_free(fd);
    if (g->lang) insert(al, w, pango_attr_language_new(pango_language_from_string(g->lang)), a, e);
}

static PangoAttribute *color_attr(int bg, uint32_t rgb)
{
    guint16 r = (guint16)(((rgb >> 16) & 0xFF) * 257), g = (guint16)(((rgb >> 8) & 0xFF) * 257),
            b = (guint16)((rgb & 0xFF) * 257);
    return bg ? pango_attr_background_new(r, g, b) : pango_attr_foreground_new(r, g, b);
}

/* The direction pango's auto-dir gives the first paragraph of a text: its
 * first strong character, up to the first newline (pango_find_base_dir). */
static int first_dir_rtl(const char *s, size_t n)
{
    const char *nl = memchr(s, '\n', n);
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    PangoDirection d = pango_find_base_dir(s, (int)(nl ? (size_t)(nl - s) : n));
    G_GNUC_END_IGNORE_DEPRECATIONS
    return d == PANGO_DIRECTION_RTL;
}

/* HarfBuzz positions each mark of a cluster against the marks before it,
 * so a letter carrying 100,000 combining marks shapes in quadratic time.
 * An attribute edge after every MARK_RUN marks of a run cuts it into items
 * that are shaped apart (the marks past the edge stack on their own). */
#define MARK_RUN 256

static void cut_mark_runs(PangoAttrList *al, const window *w, const char *s)
{
    size_t run = 0, from = w->start;
    for (size_t i = w->start; i < w->end;) {
        const char *p = s + i;
        gunichar u = g_utf8_get_char_validated(p, (gssize)(w->end - i));
        size_t len = (size_t)(g_utf8_next_char(p) - p);
        if (u == (gunichar)-1 || u == (gunichar)-2) len = 1;
        run = u != (gunichar)-1 && u != (gunichar)-2 && g_unichar_ismark(u) ? run + 1 : 0;
        i += len;
        if (run == MARK_RUN) {
            insert(al, w, pango_attr_letter_spacing_new(0), from, i);
            from = i;
            run = 0;
        }
    }
}

/* The attributes of the text's window w (c->tbuf holds the text, sg its
 * segments, starting at c->seg_off[]), inserted in increasing start order
 * so each insert appends: per run its link, underline, strike and code
 * colours, then the font of each of its spans. */
static PangoAttrList *text_attrs(pd_ctx *c, const qr_segs *sg, const pd_style *st, const window *w)
{
    PangoAttrList *al = pango_attr_list_new();
    /* A word broken by character (a 10,000-letter word, a URL) gets no
     * inserted hyphen: the extracted text stays the text of the spec. */
    insert(al, w, pango_attr_insert_hyphens_new(FALSE), 0, c->tbuf.len);
    const size_t *so = c->seg_off;
    for (size_t i = 0, next; i < sg->n; i = next) {
        const qr_seg *r = &sg->items[i];
        for (next = i + 1; next < sg->n && sg->items[next].run == r->run; next++)
            ;
        size_t off = so[i], end = so[next];
        int bold = st->bold || r->bold, italic = st->italic || r->italic;
        int mono = st->mono || r->code;
        /* colours, lines under and through the words: painting only
         * (pango breaks lines and sets item boundaries without them:
         * pango-layout.c's affects_itemization, affects_break_or_shape) */
        if (end >= w->start && off <= w->end && !c->rc->layout_only) {
            if (r->link) insert(al, w, color_attr(0, c->style.link), off, end);
            if (r->underline || r->link) {
                /* the line under the words only: not under the spaces a
                 * run starts or ends with (" the site " linked), the text
                 * layer's bare segments */
                size_t u0 = end, u1 = off;
                for (size_t k = i; k < next; k++)
                    if (!sg->items[k].bare) {
                        if (so[k] < u0) u0 = so[k];
                        if (so[k + 1] > u1) u1 = so[k + 1];
                    }
                if (u1 > u0)
                    insert(al, w, pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), u0, u1);
            }
            if (r->strike) insert(al, w, pango_attr_strikethrough_new(TRUE), off, end);
            if (r->code) insert(al, w, color_attr(1, c->style.code_fill), off, end);
            if (r->anchor && !r->link) {
                insert(al, w, color_attr(0, c->style.link), off, end);
            } else if (r->color && !r->link) {
                insert(al, w, color_attr(0, r->color & 0xFFFFFF), off, end);
            }
            if (r->highlight) insert(al, w, color_attr(1, r->highlight & 0xFFFFFF), off, end);
        }
        if (end >= w->start && off <= w->end && (r->sup || r->sub)) {
            /* raised a third of the size (lowered a fifth), at 70 % */
            double rise = st->size * (r->sup ? 0.33 : -0.2) * PANGO_SCALE;
            insert(al, w, pango_attr_rise_new((int)rise), off, end);
            insert(al, w, pango_attr_scale_new(0.7), off, end);
        }
        for (size_t k = i, kn; k < next; k = kn) {
            for (kn = k + 1; kn < next && sg->items[kn].span == sg->items[k].span; kn++)
                ;
            insert_font(al, w, &sg->items[k], so[k], so[kn], bold, italic, mono);
        }
    }
    cut_mark_runs(al, w, c->tbuf.data);
    return al;
}

/* One PangoLayout over the window w of the text, kept by c; NULL on OOM. */
static PangoLayout *piece_layout(pd_ctx *c, const qr_segs *sg, const pd_style *st, double width,
                                 int rtl, const window *w)
{
    PangoAttrList *al = text_attrs(c, sg, st, w);
    qr_pdf_fonts_ready(c->pc);
    PangoLayout *lay = pango_layout_new(c->pc);
    if (qr_pdf_keep_layout(c, lay) != 0) {
        g_object_unref(lay);
        pango_attr_list_unref(al);
        return NULL;
    }
    PangoFontDescription *base = pango_font_description_new();
    const char *body = c->style.body_face ? c->style.body_face : "DejaVu Sans";
    pango_font_description_set_family_static(base, st->mono ? qr_fonts_mono_family() : body);
    pango_font_description_set_absolute_size(base, st->size * PANGO_SCALE);
    pango_font_description_set_weight(base, st->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(base, st->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    pango_layout_set_font_description(lay, base);
    pango_font_description_free(base);
    pango_layout_set_auto_dir(lay, TRUE);
    if (width > 0) {
        pango_layout_set_width(lay, (int)(width * PANGO_SCALE));
        pango_layout_set_wrap(lay, PANGO_WRAP_WORD_CHAR);
    }
    const char *text = c->tbuf.data + w->start;
    size_t len = w->end - w->start;
    pango_layout_set_text(lay, text, (int)len);
    pango_layout_set_attributes(lay, al);
    pango_attr_list_unref(al);
    if (st->align == PD_ALIGN_CENTER) {
        pango_layout_set_alignment(lay, PANGO_ALIGN_CENTER);
    } else {
        /* With auto-dir, pango swaps LEFT and RIGHT in a paragraph it finds
         * right-to-left. fonts/ decides the direction: where pango's own
         * guess differs, ask for the other side so the swap lands right. */
        int pango_rtl = first_dir_rtl(text, len);
        int end = st->align == PD_ALIGN_END;
        int want_right = rtl ? !end : end;
        int right = pango_rtl ? !want_right : want_right;
        if (right) pango_layout_set_alignment(lay, PANGO_ALIGN_RIGHT);
    }
    return lay;
}

/* Measure the lines of lay into out (room for all of them), y0 points
 * below the text's top, base its first byte in the text. Returns the count. */
/* A line's baseline below its top at quire's fixed pitch for size. */
static double line_ascent(double size)
{
    return size * PD_BASE_ASCENT + (qr_rhythm_pitch(size) - size * PD_BASE_HEIGHT) / 2;
}

/* One line pitch per paragraph, from its base font and size, whatever
 * script each line holds (layout/rhythm.h: pango's own line boxes grow with
 * the fonts a line falls back to, 12.8 pt for a Latin line of 11 pt DejaVu,
 * 20-23 pt with Noto Sans Arabic). Baselines sit where the base font's
 * ascent puts them, the leading split evenly above and below, as an
 * absolute line-height attribute (pango 1.50) sets a line of the base font.
 * Taller marks (Arabic, Thai) reach into the space around the paragraph as
 * they do in Word and LibreOffice with exact line spacing, which the docx
 * declares: a paragraph's box, and so the gap between two paragraphs, is
 * the same in every script. Lines are drawn at these baselines (paint.c):
 * the layout's own line positions are not used. Fills out[0..room) from y0;
 * returns the lines measured. */
static size_t measure_lines(pd_ctx *c, PangoLayout *lay, pd_line *out, size_t room, double y0,
                            size_t base, double size)
{
    /* pagination alone (layout_only: the docx's table of contents) needs no
     * line's left edge, and no layout once measured (qr_pdf_text drops it) */
    const int paint = !c->rc->layout_only;
    const double pitch = qr_rhythm_pitch(size);
    const double asc = line_ascent(size);
    PangoLayoutIter *it = pango_layout_get_iter(lay);
    size_t k = 0;
    do {
        if (k >= room) break;
        pd_line *ln = &out[k];
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
        ln->line = paint ? line : NULL;
        ln->start = line->start_index;
        ln->length = line->length;
        ln->base = base;
        ln->x = 0;
        if (paint) {
            PangoRectangle log;
            pango_layout_iter_get_line_extents(it, NULL, &log);
            ln->x = (double)log.x / PANGO_SCALE;
        }
        ln->top = y0 + (double)k * pitch;
        ln->ascent = asc;
        ln->height = pitch;
        k++;
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
    qr_pdf_pin_faces(lay);
    return k;
}

/* Pango measures a line in 32-bit units of 1/1024 point and breaks an item
 * by shaping what is left of it again: one layout of 360,000 characters
 * overflows (it keeps 8 words) and a 1 MiB code line takes minutes. A text
 * longer than PIECE_FROM bytes is laid out PIECE_LEN bytes at a time: each
 * piece keeps its lines but the last one (cut short by the piece's end),
 * where the next piece starts, so the lines are those one layout would
 * break, in time linear in the text. */
#define PIECE_FROM 16384
#define PIECE_LEN 1024

static int lay_pieces(pd_ctx *c, pd_text *pt, const qr_segs *sg, const pd_style *st, double width)
{
    size_t len = c->tbuf.len, cap = 0, nv = 0, from = 0;
    pd_line *v = NULL;
    double y0 = 0;
    while (from < len) {
        window w = {from, from + PIECE_LEN < len ? from + PIECE_LEN : len};
        while (w.end < len && ((unsigned char)c->tbuf.data[w.end] & 0xC0) == 0x80)
            w.end++; /* never inside a UTF-8 sequence */
        PangoLayout *lay = piece_layout(c, sg, st, width, pt->rtl, &w);
        if (!lay) goto oom;
        if (!pt->layout) pt->layout = lay;
        pt->n_slots++;
        size_t nl = (size_t)pango_layout_get_line_count(lay);
        if (nv + nl + 1 > cap) {
            size_t ncap = (nv + nl + 1) * 2;
            pd_line *p = realloc(v, ncap * sizeof *p);
            if (!p) goto oom;
            v = p, cap = ncap;
        }
        size_t k = measure_lines(c, lay, v + nv, nl, y0, w.start, st->size);
        if (w.end < len && k > 1) {
            k--; /* the next piece starts with this line */
            from = w.start + (size_t)v[nv + k].start;
        } else {
            from = w.end;
        }
        nv += k;
        if (k) y0 = v[nv - 1].top + v[nv - 1].height;
    }
    pt->lines = qr_arena_array(&c->arena, nv ? nv : 1, sizeof *pt->lines);
    if (!pt->lines) goto oom;
    if (nv) memcpy(pt->lines, v, nv * sizeof *v);
    free(v);
    pt->n_lines = nv;
    pt->height = y0;
    return 0;
oom:
    free(v);
    return -1;
}

/* What simple_text.c and simple_draw.c need of a simple text, in one walk
 * over its runs. */
typedef struct {
    qr_simple_item *items; /* the runs with their faces, as text_attrs() sets them */
    size_t n_items;
    pd_paint *paint; /* what pango paints over the glyphs (paint only) */
    size_t n_paint;
    int *cuts; /* the paint's edges, increasing */
    size_t n_cuts;
} simple_runs;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The runs of the text with their faces into out->items, as text_attrs()
 * sets them (one font attribute per span of a run; a raised or lowered run
 * at 70 %: its rise moves it, not its neighbours); with paint, what pango
 * paints over their glyphs (the same ranges and colours) into out->paint
 * and the edges into out->cuts. 1, 0 when simple_draw.c cannot draw it (a
 * run with two grounds, an empty run with a colour), -1 out of memory. */
static int simple_walk(pd_ctx *c, const qr_segs *sg, const pd_style *st, int paint,
                       simple_runs *out)
{
    memset(out, 0, sizeof *out);
    qr_simple_item *v = qr_arena_array(&c->arena, sg->n ? sg->n : 1, sizeof *v);
    pd_paint *pv = paint ? qr_arena_array(&c->arena, 4 * sg->n + 1, sizeof *pv) : NULL;
    if (!v || (paint && !pv)) return -1;
    size_t n = 0, np = 0;
    const size_t *so = c->seg_off;
    for (size_t i = 0, next; i < sg->n; i = next) {
        const qr_seg *r = &sg->items[i];
        for (next = i + 1; next < sg->n && sg->items[next].run == r->run; next++)
            ;
        int size = qr_simple_size(st->size, r->sup || r->sub ? 0.7 : 1);
        int mono = st->mono || r->code;
        for (size_t k = i, kn; k < next; k = kn) {
            for (kn = k + 1; kn < next && sg->items[kn].span == sg->items[k].span; kn++)
                ;
            if (so[kn] == so[k]) continue;
            const qr_seg *g = &sg->items[k];
            v[n++] = (qr_simple_item){so[k],
                                      so[kn],
                                      mono ? code_family(g) : g->family,
                                      size,
                                      st->bold || r->bold,
                                      st->italic || r->italic,
                                      g->lang};
        }
        if (!paint) continue;
        int off = (int)so[i], end = (int)so[next];
        int any = r->link || r->underline || r->strike || r->code || r->anchor || r->color ||
                  r->highlight;
        if (!any) continue;
        if (off == end || (r->code && r->highlight)) return 0;
        if (r->link) pv[np++] = (pd_paint){off, end, PD_PAINT_FG, c->style.link};
        if (r->underline || r->link) {
            size_t u0 = (size_t)end, u1 = (size_t)off;
            for (size_t k = i; k < next; k++)
                if (!sg->items[k].bare) {
                    if (so[k] < u0) u0 = so[k];
                    if (so[k + 1] > u1) u1 = so[k + 1];
                }
            if (u1 > u0) pv[np++] = (pd_paint){(int)u0, (int)u1, PD_PAINT_UNDERLINE, 0};
        }
        if (r->strike) pv[np++] = (pd_paint){off, end, PD_PAINT_STRIKE, 0};
        if (r->code) pv[np++] = (pd_paint){off, end, PD_PAINT_BG, c->style.code_fill};
        if (r->anchor && !r->link)
            pv[np++] = (pd_paint){off, end, PD_PAINT_FG, c->style.link};
        else if (r->color && !r->link)
            pv[np++] = (pd_paint){off, end, PD_PAINT_FG, r->color & 0xFFFFFF};
        if (r->highlight) pv[np++] = (pd_paint){off, end, PD_PAINT_BG, r->highlight & 0xFFFFFF};
    }
    out->items = v;
    out->n_items = n;
    if (!paint) return 1;
    int *cuts = qr_arena_array(&c->arena, 2 * np + 1, sizeof *cuts);
    if (!cuts) return -1;
    size_t nc = 0;
    for (size_t k = 0; k < np; k++) {
        cuts[nc++] = pv[k].start;
        cuts[nc++] = pv[k].end;
    }
    qsort(cuts, nc, sizeof *cuts, cmp_int);
    size_t u = 0;
    for (size_t k = 0; k < nc; k++)
        if (!u || cuts[u - 1] != cuts[k]) cuts[u++] = cuts[k];
    out->paint = pv;
    out->n_paint = np;
    out->cuts = cuts;
    out->n_cuts = u;
    return 1;
}

/* QUIRE_SIMPLE_TEXT=check, a text painted without a PangoLayout: line k
 * of lay and of pt draw the same (pango's recording against
 * qr_pdf_simple_record()'s); 0 or -1. */
static int simple_check_paint(const pd_text *pt, PangoLayout *lay, PangoLayoutIter *it, size_t k)
{
    PangoRectangle log;
    pango_layout_iter_get_line_extents(it, NULL, &log);
    if ((double)log.x / PANGO_SCALE != pt->lines[k].x) return -1;
    PangoRenderer *r = qr_pdf_rec_renderer_new();
    qr_buf a = {0}, b = {0};
    int same = r && qr_pdf_rec_line(r, &a, pango_layout_iter_get_line_readonly(it)) == 0 &&
               qr_pdf_simple_record(pt, k, &b) == 0 && !a.oom && !b.oom &&
               qr_pdf_rec_compare(&a, pango_layout_get_text(lay), &b, pt->simple) == 0;
    if (r) g_object_unref(r);
    qr_buf_free(&a);
    qr_buf_free(&b);
    /* the links' rectangles (paint.c's link_attrs) */
    const pd_line *ln = &pt->lines[k];
    for (size_t i = 0; same && i < pt->n_links; i++) {
        int ls = ln->start, le = ls + ln->length;
        int s0 = pt->links[i].start > ls ? pt->links[i].start : ls;
        int e0 = pt->links[i].end < le ? pt->links[i].end : le;
        if (s0 >= e0) continue;
        int *want = NULL, *got = NULL, nw = 0, ng = 0;
        pango_layout_line_get_x_ranges(pango_layout_iter_get_line_readonly(it), s0, e0, &want, &nw);
        same = qr_pdf_simple_x_ranges(pt, k, s0, e0, &got, &ng) == 0 && nw == ng &&
               memcmp(want, got, 2 * (size_t)nw * sizeof *want) == 0;
        g_free(want);
        g_free(got);
    }
    return same ? 0 : -1;
}

/* QUIRE_SIMPLE_TEXT=check: lay the text out with pango too and stop the
 * process where the lines differ (or, painted, what they draw). */
static void simple_check(pd_ctx *c, const qr_segs *sg, const pd_style *st, double width,
                         const pd_text *pt)
{
    window all = {0, c->tbuf.len};
    PangoLayout *lay = piece_layout(c, sg, st, width, pt->rtl, &all);
    if (!lay) return;
    size_t k = 0;
    int same = 1;
    const char *what = "lines";
    PangoLayoutIter *it = pango_layout_get_iter(lay);
    do {
        PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
        if (k >= pt->n_lines || line->start_index != pt->lines[k].start ||
            line->length != pt->lines[k].length) {
            same = 0;
        } else if (pt->simple && simple_check_paint(pt, lay, it, k) != 0) {
            same = 0;
            what = "glyph runs";
        }
        k++;
    } while (same && pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
    if (!same || k != pt->n_lines) {
        fprintf(stderr, "quire: QUIRE_SIMPLE_TEXT=check: %s differ from pango's at width %g: %s\n",
                what, width, c->tbuf.data);
        abort();
    }
    g_object_unref(lay); /* piece_layout kept it last */
    c->n_layouts--;
}

/* May a text be painted from simple_text.c's lines: left aligned (or right
 * aligned without links: table cells of numbers), left to right, no raised
 * or lowered run, note or language span (paint.c asks the layout for
 * those); its colours and lines are simple_walk()'s. */
static int simple_paintable(const pd_text *pt, const qr_segs *sg, const pd_style *st)
{
    if (st->align == PD_ALIGN_CENTER || st->linked || pt->rtl || pt->n_spans || pt->n_notes)
        return 0;
    for (size_t i = 0; i < sg->n; i++) {
        const qr_seg *g = &sg->items[i];
        if (g->kind != QR_SEG_TEXT || g->sup || g->sub || g->note) return 0;
        /* a link's rectangles are qr_pdf_simple_x_ranges()', from the
         * line's left edge: on a left-aligned line only */
        if (st->align == PD_ALIGN_END && g->link) return 0;
    }
    return 1;
}

/* c's simple text cache, made on first use; NULL out of memory. */
static qr_simple *simple_of(pd_ctx *c)
{
    if (!c->simple) c->simple = qr_simple_new(c->pc, c->rc->layout_only, c->fonts);
    return c->simple;
}

/* A simple text's lines from simple_text.c, no PangoLayout: for pagination
 * alone (layout_only), or painted too (paint: qr_pdf_simple_record() draws
 * them). 1 done, 0 not simple (pango's turn), -1 out of memory. */
static int simple_lines(pd_ctx *c, pd_text *pt, const qr_segs *sg, const pd_style *st, double width,
                        int paint)
{
    int mode = qr_simple_mode();
    if (!mode || !qr_simple_ascii(c->tbuf.data, c->tbuf.len)) return 0;
    if (!simple_of(c)) return -1;
    simple_runs sr;
    int w = simple_walk(c, sg, st, paint, &sr);
    if (w <= 0) return w;
    const int wrap = (int)(width * PANGO_SCALE);
    const qr_simple_line *ln;
    long nl =
        qr_simple_break(c->simple, c->tbuf.data, c->tbuf.len, sr.items, sr.n_items, wrap, &ln);
    if (nl <= 0) return 0;
    pt->lines = qr_arena_array(&c->arena, (size_t)nl, sizeof *pt->lines);
    if (!pt->lines) return -1;
    const double pitch = qr_rhythm_pitch(st->size);
    const double asc = line_ascent(st->size);
    /* a right-aligned line's left edge, as pango places it (pango-layout.c
     * get_x_offset): the layout's width less the line's logical width (its
     * glyphs' advances, a wrapped line's final space at zero) */
    const int right = paint && st->align == PD_ALIGN_END;
    for (long k = 0; k < nl; k++)
        pt->lines[k] = (pd_line){NULL,
                                 0,
                                 ln[k].start,
                                 ln[k].length,
                                 right ? (double)(wrap - ln[k].width) / PANGO_SCALE : 0,
                                 (double)k * pitch,
                                 pitch,
                                 asc};
    pt->n_lines = (size_t)nl;
    pt->height = pt->lines[nl - 1].top + pt->lines[nl - 1].height; /* as measure_lines' */
    if (paint) {
        pt->paint = sr.paint;
        pt->n_paint = sr.n_paint;
        pt->cuts = sr.cuts;
        pt->n_cuts = sr.n_cuts;
        char *text = qr_arena_alloc(&c->arena, c->tbuf.len + 1);
        if (!text) return -1;
        memcpy(text, c->tbuf.data, c->tbuf.len + 1);
        pt->simple = text;
        pt->simple_items = sr.items;
        pt->n_simple_items = sr.n_items;
        /* the faces it draws with stay open (faces.c), as measure_lines' */
        for (size_t n = qr_simple_n_faces(c->simple); c->simple_pinned < n; c->simple_pinned++)
            qr_pdf_pin_font(qr_simple_face_font(c->simple, c->simple_pinned));
    }
    if (mode == 2) simple_check(c, sg, st, width, pt);
    return 1;
}

/* An unwrapped text's one line from simple_text.c, no PangoLayout, for
 * pagination alone (layout_only: a list's markers, whose widths set its
 * indents). 1 done, 0 pango's turn, -1 out of memory. */
static int simple_width(pd_ctx *c, pd_text *pt, const qr_segs *sg, const pd_style *st)
{
    int mode = qr_simple_mode();
    if (!mode || !c->tbuf.len) return 0;
    if (!simple_of(c)) return -1;
    simple_runs sr;
    int w = simple_walk(c, sg, st, 0, &sr);
    if (w <= 0) return w;
    long lw = qr_simple_width(c->simple, c->tbuf.data, c->tbuf.len, sr.items, sr.n_items);
    if (lw < 0) return 0;
    pt->lines = qr_arena_array(&c->arena, 1, sizeof *pt->lines);
    if (!pt->lines) return -1;
    const double pitch = qr_rhythm_pitch(st->size);
    pt->lines[0] = (pd_line){NULL, 0, 0, (int)c->tbuf.len, 0, 0, pitch, line_ascent(st->size)};
    pt->n_lines = 1;
    pt->height = pitch;
    pt->width = (double)lw / PANGO_SCALE;
    if (mode == 2) {
        window all = {0, c->tbuf.len};
        PangoLayout *lay = piece_layout(c, sg, st, 0, pt->rtl, &all);
        if (!lay) return -1;
        PangoRectangle log;
        pango_layout_get_extents(lay, NULL, &log);
        if (pango_layout_get_line_count(lay) != 1 || log.width != lw) {
            fprintf(stderr,
                    "quire: QUIRE_SIMPLE_TEXT=check: width %ld differs from pango's %d: %s\n", lw,
                    log.width, c->tbuf.data);
            abort();
        }
        g_object_unref(lay); /* piece_layout kept it last */
        c->n_layouts--;
    }
    return 1;
}

pd_text *qr_pdf_note_text(pd_ctx *c, const qr_text *note, unsigned no, const char *path)
{
    /* "N" raised, a space, then the note's runs, at the footnote size */
    qr_run *runs = qr_arena_array(&c->arena, note->n + 2, sizeof *runs);
    char *num = qr_arena_alloc(&c->arena, 16);
    if (!runs || !num) {
        qr_pdf_fail(c, QR_E_NOMEM, path ? path : "", "out of memory");
        return NULL;
    }
    memset(runs, 0, 2 * sizeof *runs);
    runs[0].len = (size_t)snprintf(num, 16, "%u", no);
    runs[0].text = num;
    runs[0].sup = 1;
    runs[1].text = " ";
    runs[1].len = 1;
    memcpy(runs + 2, note->runs, note->n * sizeof *runs);
    qr_text t = {runs, note->n + 2, note->path};
    pd_style st = {.size = c->style.body_pt * 0.8};
    return qr_pdf_text(c, &t, NULL, 0, &st, c->width, path);
}

/* Lay out the notes qr_pdf_text found in pt (after its own layout: the
 * scratch buffers are free again). */
static pd_text *measure_notes(pd_ctx *c, pd_text *pt)
{
    for (size_t i = 0; i < pt->n_notes; i++) {
        pd_note *nt = &pt->notes[i];
        nt->text = qr_pdf_note_text(c, nt->src, nt->no, nt->src->path);
        if (!nt->text) return NULL;
    }
    return pt;
}

/* Pagination alone (layout_only) keeps the lines' numbers, not pt's
 * layouts: they go as soon as they are measured, on the thread that made
 * them, so their memory is used again by the next text. An unwrapped text
 * (a list marker, a chart's label: few) keeps its layout, which a chart
 * measures again (chart.c). */
static void drop_measured(pd_ctx *c, pd_text *pt, double width)
{
    if (!c->rc->layout_only || width <= 0) return;
    for (size_t k = pt->slot; k < c->n_layouts; k++)
        g_object_unref(c->layouts[k]);
    c->n_layouts = pt->slot;
    pt->layout = NULL;
    pt->n_slots = 0;
}

/* 1 when BCP 47 tags a and b name one language (their first subtags). */
static int same_language(const char *a, const char *b)
{
    size_t i = 0;
    for (; a[i] && a[i] != '-' && b[i] && b[i] != '-'; i++) {
        char x = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] + 32) : a[i];
        char y = b[i] >= 'A' && b[i] <= 'Z' ? (char)(b[i] + 32) : b[i];
        if (x != y) return 0;
    }
    return (!a[i] || a[i] == '-') && (!b[i] || b[i] == '-');
}

/* The language most of a text's letters are in (fonts/' span languages:
 * ar, fa, ur, he, hi, th, ja, zh-CN...), when it is not the document's
 * (doc_lang, else en); NULL otherwise. Tagged PDF: the element's /Lang. */
static const char *foreign_lang(const qr_segs *sg, const char *doc_lang)
{
    const char *best = NULL;
    size_t best_n = 0;
    for (size_t i = 0; i < sg->n; i++) {
        const char *l = sg->items[i].lang;
        uint32_t sc = sg->items[i].script;
        if (!l || sc == HB_SCRIPT_COMMON || sc == HB_SCRIPT_INHERITED) continue;
        size_t n = 0;
        for (size_t j = 0; j < sg->n; j++)
            if (sg->items[j].lang && strcmp(sg->items[j].lang, l) == 0) n += sg->items[j].len;
        if (n > best_n) best = l, best_n = n;
    }
    if (!best || same_language(best, doc_lang && *doc_lang ? doc_lang : "en")) return NULL;
    return best;
}

/* The runs of a text in another language than elem (its element's, else
 * the document's): maximal stretches of segments whose letters fonts/ gave
 * one such language, neutral characters (spaces, digits, punctuation)
 * between two of them included; into pt->spans (c's arena). -1 on OOM. */
static int foreign_spans(pd_ctx *c, pd_text *pt, const qr_segs *sg, const char *elem)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const char *cur = NULL;
        size_t start = 0, end = 0;
        n = 0;
        for (size_t i = 0; i <= sg->n; i++) {
            const qr_seg *g = i < sg->n ? &sg->items[i] : NULL;
            if (g && g->kind == QR_SEG_TEXT &&
                (g->script == HB_SCRIPT_COMMON || g->script == HB_SCRIPT_INHERITED))
                continue; /* neutral: joins the span around it, if any */
            const char *l = g && g->kind == QR_SEG_TEXT ? g->lang : NULL;
            int foreign = l && !same_language(l, elem);
            if (cur && foreign && strcmp(l, cur) == 0) {
                end = c->seg_off[i + 1];
                continue;
            }
            if (cur) {
                if (pass) pt->spans[n] = (pd_span){(int)start, (int)end, cur};
                n++;
                cur = NULL;
            }
            if (foreign) {
                cur = l;
                start = c->seg_off[i];
                end = c->seg_off[i + 1];
            }
        }
        if (!n) return 0;
        if (!pass) {
            pt->spans = qr_arena_array(&c->arena, n, sizeof *pt->spans);
            if (!pt->spans) return -1;
        }
    }
    pt->n_spans = n;
    return 0;
}

pd_text *qr_pdf_text(pd_ctx *c, const qr_text *t, const char *s, size_t n, const pd_style *st,
                     double width, const char *path)
{
    if (c->status != QR_OK) return NULL;
    qr_run plain;
    qr_text one = t ? *t : qr_text_plain(&plain, s, n, NULL);
    if (path && !(t && t->path && *t->path)) one.path = path; /* the text's own, as docx's */
    /* the thread's warning list (pdf.c's parallel layout swaps c->rc) */
    c->text.warnings = c->rc->warnings;
    c->text.lang = c->lang;
    const qr_segs *sg;
    if (qr_text_segments(&c->text, &one, &sg) != QR_OK) goto oom;
    if (sg->n + 1 > c->cap_seg_off) {
        size_t cap = sg->n + 16;
        size_t *p = realloc(c->seg_off, cap * sizeof *p);
        if (!p) goto oom;
        c->seg_off = p;
        c->cap_seg_off = cap;
    }
    c->tbuf.len = 0;
    if (qr_buf_reserve(&c->tbuf, 1) == NULL) goto oom;
    c->tbuf.data[0] = '\0';
    for (size_t i = 0; i < sg->n; i++) {
        c->seg_off[i] = c->tbuf.len;
        put_clean(&c->tbuf, sg->items[i].text, sg->items[i].len);
    }
    c->seg_off[sg->n] = c->tbuf.len; /* segment i is [seg_off[i], seg_off[i + 1]) */
    if (c->tbuf.oom) goto oom;

    pd_text *pt = qr_arena_alloc(&c->arena, sizeof *pt);
    if (!pt) goto oom;
    memset(pt, 0, sizeof *pt);
    pt->has_rgb = st->has_rgb;
    pt->rgb = st->rgb;
    pt->lang = foreign_lang(sg, c->lang);
    if (foreign_spans(c, pt, sg, pt->lang ? pt->lang : c->lang && *c->lang ? c->lang : "en") != 0)
        goto oom;

    /* one link per linked run (an external link, or an internal one to a block's id) */
    size_t n_links = 0, n_notes = 0;
    for (size_t i = 0; i < sg->n; i++) {
        int first = i == 0 || sg->items[i - 1].run != sg->items[i].run;
        n_links += (sg->items[i].link || sg->items[i].anchor) && first;
        n_notes += sg->items[i].note && first && !c->doc->endnotes;
    }
    if (n_links) {
        c->has_links = 1;
        pt->links = qr_arena_array(&c->arena, n_links, sizeof *pt->links);
        if (!pt->links) goto oom;
        for (size_t i = 0, next; i < sg->n; i = next) {
            const qr_seg *g = &sg->items[i];
            for (next = i + 1; next < sg->n && sg->items[next].run == g->run; next++)
                ;
            if (!g->link && !g->anchor) continue;
            pd_link *lk = &pt->links[pt->n_links++];
            memset(lk, 0, sizeof *lk);
            lk->start = (int)c->seg_off[i];
            lk->end = (int)c->seg_off[next];
            lk->uri = g->link;
            lk->anchor = g->link ? NULL : g->anchor;
        }
    }

    if (n_notes) {
        pt->notes = qr_arena_array(&c->arena, n_notes, sizeof *pt->notes);
        if (!pt->notes) goto oom;
        for (size_t i = 0; i < sg->n; i++)
            if (sg->items[i].note && (i == 0 || sg->items[i - 1].run != sg->items[i].run)) {
                pd_note *nt = &pt->notes[pt->n_notes++];
                nt->at = (int)c->seg_off[i];
                nt->src = sg->items[i].note;
                nt->no = sg->items[i].note_no;
            }
    }
    pt->rtl = sg->dir == QR_DIR_RTL;
    pt->owner = c;
    pt->slot = c->n_layouts;
    pt->last_page = SIZE_MAX;
    int paint = !c->rc->layout_only && c->simple_paint && simple_paintable(pt, sg, st);
    if (width > 0 && (c->rc->layout_only || paint) && c->tbuf.len <= PIECE_FROM) {
        int r = simple_lines(c, pt, sg, st, width, paint);
        if (r < 0) goto oom;
        if (r > 0) {
            pt->width = width;
            return measure_notes(c, pt);
        }
    }
    if (width <= 0 && c->rc->layout_only) {
        int r = simple_width(c, pt, sg, st);
        if (r < 0) goto oom;
        if (r > 0) return measure_notes(c, pt);
    }
    if (width > 0 && c->tbuf.len > PIECE_FROM) {
        if (lay_pieces(c, pt, sg, st, width) != 0) goto oom;
        pt->width = width;
        drop_measured(c, pt, width);
        return measure_notes(c, pt);
    }
    window all = {0, c->tbuf.len};
    PangoLayout *lay = piece_layout(c, sg, st, width, pt->rtl, &all);
    if (!lay) goto oom;
    pt->layout = lay;
    pt->n_slots = 1;
    /* Measure every line once. */
    int nl = pango_layout_get_line_count(lay);
    pt->lines = qr_arena_array(&c->arena, nl > 0 ? (size_t)nl : 1, sizeof *pt->lines);
    if (!pt->lines) goto oom;
    pt->n_lines = measure_lines(c, lay, pt->lines, nl > 0 ? (size_t)nl : 0, 0, 0, st->size);
    pt->height =
        pt->n_lines ? pt->lines[pt->n_lines - 1].top + pt->lines[pt->n_lines - 1].height : 0;
    if (width > 0) {
        pt->width = width;
    } else {
        PangoRectangle log;
        pango_layout_get_extents(lay, NULL, &log);
        pt->width = (double)log.width / PANGO_SCALE;
    }
    drop_measured(c, pt, width);
    return measure_notes(c, pt);
oom:
    if (c->status == QR_OK) qr_pdf_fail(c, QR_E_NOMEM, path ? path : "", "out of memory");
    return NULL;
}
