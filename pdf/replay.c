/* replay.c: what pango_cairo_show_layout_line() draws, recorded on one
 * thread and replayed on another.
 *
 * Painting a PDF page is two kinds of work: pango walks each layout line
 * (runs, clusters, underline and background rectangles) and calls cairo,
 * and cairo records those calls and, at cairo_show_page(), writes the page.
 * The PDF backend runs the pango half on a helper thread, page ahead of page,
 * while the main thread replays the calls on the PDF surface and writes the
 * pages. The recording renderer is a PangoRenderer that keeps, for each
 * drawing call pango's cairo renderer (pangocairo-render.c, pango 1.50)
 * would make, its integer inputs (pango units) and colour state; the replay
 * makes the same cairo calls from them with the same arithmetic, so cairo
 * receives the same operations in the same order and writes the same bytes.
 * What the recorder cannot reproduce (hex boxes for glyphs no font has,
 * shapes, error underlines) makes it give up: the caller then paints that
 * line, and the rest, with pango itself.
 */
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"

/* The colour state of a part when pango's set_color() would run. */
typedef struct rec_color {
    uint16_t r, g, b, a;
    uint8_t has_color;
} rec_color;

typedef struct rec_glyphs {
    cairo_scaled_font_t *font;
    rec_color color;
    int x, y;
    int n_glyphs, n_clusters, text_len, backward;
    const char *text;
} rec_glyphs;

typedef struct rec_glyph {
    uint32_t index;
    int dx, dy; /* pango units from the run's origin (x_position + x_offset, y_offset) */
} rec_glyph;

typedef struct rec_rect {
    rec_color color;
    int x, y, w, h;
} rec_rect;

/* ---- recording ---------------------------------------------------------------- */

typedef struct RecRenderer {
    PangoRenderer parent;
    qr_buf *out;
    int bad; /* met something only pango can draw */
} RecRenderer;

typedef struct RecRendererClass {
    PangoRendererClass parent_class;
} RecRendererClass;

GType qr_pdf_rec_renderer_get_type(void);
G_DEFINE_TYPE(RecRenderer, qr_pdf_rec_renderer, PANGO_TYPE_RENDERER)

static void put(qr_buf *b, int kind, const void *p, size_t n)
{
    unsigned char k = (unsigned char)kind;
    qr_buf_append(b, (const char *)&k, 1);
    if (n) qr_buf_append(b, p, n);
}

static rec_color part_color(PangoRenderer *r, PangoRenderPart part)
{
    rec_color c = {0};
    PangoColor *pc = pango_renderer_get_color(r, part);
    if (pc) {
        c.has_color = 1;
        c.r = pc->red;
        c.g = pc->green;
        c.b = pc->blue;
    }
    c.a = pango_renderer_get_alpha(r, part);
    return c;
}

static void rec_draw_glyph_item(PangoRenderer *renderer, const char *text,
                                PangoGlyphItem *glyph_item, int x, int y)
{
    RecRenderer *rr = (RecRenderer *)renderer;
    if (rr->bad) return;
    PangoFont *font = glyph_item->item->analysis.font;
    PangoGlyphString *glyphs = glyph_item->glyphs;
    PangoItem *item = glyph_item->item;
    int backward = (item->analysis.level & 1) != 0;
    cairo_scaled_font_t *sf =
        font ? pango_cairo_font_get_scaled_font((PangoCairoFont *)font) : NULL;
    if (!sf || cairo_scaled_font_status(sf) != CAIRO_STATUS_SUCCESS) {
        rr->bad = 1; /* pango would draw hex boxes */
        return;
    }
    for (int i = 0; i < glyphs->num_glyphs; i++) {
        PangoGlyph g = glyphs->glyphs[i].glyph;
        if (g != PANGO_GLYPH_EMPTY && (g & PANGO_GLYPH_UNKNOWN_FLAG) &&
            g != (0x20 | PANGO_GLYPH_UNKNOWN_FLAG)) {
            rr->bad = 1; /* a hex box */
            return;
        }
    }

    rec_glyphs h = {.font = sf,
                    .color = part_color(renderer, PANGO_RENDER_PART_FOREGROUND),
                    .x = x,
                    .y = y,
                    .backward = backward,
                    .text = text + item->offset,
                    .text_len = item->length};
    size_t at = rr->out->len;
    put(rr->out, REC_GLYPHS, &h, sizeof h);

    int x_position = 0, count = 0;
    for (int i = 0; i < glyphs->num_glyphs; i++) {
        PangoGlyphInfo *gi = &glyphs->glyphs[i];
        if (gi->glyph != PANGO_GLYPH_EMPTY && !(gi->glyph & PANGO_GLYPH_UNKNOWN_FLAG)) {
            rec_glyph g = {gi->glyph, x_position + gi->geometry.x_offset, gi->geometry.y_offset};
            qr_buf_append(rr->out, (const char *)&g, sizeof g);
            count++;
        }
        x_position += gi->geometry.width;
    }

    int n_clusters = 0;
    PangoGlyphItemIter iter;
    if (pango_glyph_item_iter_init_start(&iter, glyph_item, text)) {
        do {
            int num_bytes = iter.end_index - iter.start_index;
            int num_glyphs =
                backward ? iter.start_glyph - iter.end_glyph : iter.end_glyph - iter.start_glyph;
            int lo = iter.start_glyph < iter.end_glyph + 1 ? iter.start_glyph : iter.end_glyph + 1;
            int hi = iter.start_glyph + 1 > iter.end_glyph ? iter.start_glyph + 1 : iter.end_glyph;
            for (int i = lo; i < hi; i++) {
                PangoGlyph g = glyphs->glyphs[i].glyph;
                if (g == PANGO_GLYPH_EMPTY || (g & PANGO_GLYPH_UNKNOWN_FLAG)) num_glyphs--;
            }
            cairo_text_cluster_t cl = {num_bytes, num_glyphs};
            qr_buf_append(rr->out, (const char *)&cl, sizeof cl);
            n_clusters++;
        } while (pango_glyph_item_iter_next_cluster(&iter));
    }
    if (!rr->out->oom) {
        rec_glyphs *hp = (rec_glyphs *)(void *)(rr->out->data + at + 1);
        rec_glyphs tmp;
        memcpy(&tmp, hp, sizeof tmp);
        tmp.n_glyphs = count;
        tmp.n_clusters = n_clusters;
        memcpy(hp, &tmp, sizeof tmp);
    }
}

static void rec_draw_glyphs(PangoRenderer *renderer, PangoFont *font, PangoGlyphString *glyphs,
                            int x, int y)
{
    (void)font, (void)glyphs, (void)x, (void)y;
    ((RecRenderer *)renderer)->bad = 1; /* not reached from a layout line */
}

static void rec_draw_rectangle(PangoRenderer *renderer, PangoRenderPart part, int x, int y,
                               int width, int height)
{
    RecRenderer *rr = (RecRenderer *)renderer;
    if (rr->bad) return;
    rec_rect r = {part_color(renderer, part), x, y, width, height};
    put(rr->out, REC_RECT, &r, sizeof r);
}

static void rec_draw_trapezoid(PangoRenderer *renderer, PangoRenderPart part, double y1_,
                               double x11, double x21, double y2, double x12, double x22)
{
    (void)part, (void)y1_, (void)x11, (void)x21, (void)y2, (void)x12, (void)x22;
    ((RecRenderer *)renderer)->bad = 1;
}

static void rec_draw_error_underline(PangoRenderer *renderer, int x, int y, int width, int height)
{
    (void)x, (void)y, (void)width, (void)height;
    ((RecRenderer *)renderer)->bad = 1;
}

static void rec_draw_shape(PangoRenderer *renderer, PangoAttrShape *attr, int x, int y)
{
    (void)attr, (void)x, (void)y;
    ((RecRenderer *)renderer)->bad = 1;
}

static void qr_pdf_rec_renderer_init(RecRenderer *r)
{
    (void)r;
}

static void qr_pdf_rec_renderer_class_init(RecRendererClass *klass)
{
    PangoRendererClass *rc = PANGO_RENDERER_CLASS(klass);
    rc->draw_glyphs = rec_draw_glyphs;
    rc->draw_glyph_item = rec_draw_glyph_item;
    rc->draw_rectangle = rec_draw_rectangle;
    rc->draw_trapezoid = rec_draw_trapezoid;
    rc->draw_error_underline = rec_draw_error_underline;
    rc->draw_shape = rec_draw_shape;
}

PangoRenderer *qr_pdf_rec_renderer_new(void)
{
    return g_object_new(qr_pdf_rec_renderer_get_type(), NULL);
}

int qr_pdf_rec_line(PangoRenderer *r, qr_buf *out, PangoLayoutLine *line)
{
    RecRenderer *rr = (RecRenderer *)r;
    size_t at = out->len;
    rr->out = out;
    rr->bad = 0;
    pango_renderer_draw_layout_line(r, line, 0, 0);
    rr->out = NULL;
    if (rr->bad || out->oom) {
        out->len = at;
        out->oom = 0;
        put(out, REC_CUT, NULL, 0);
        return -1;
    }
    put(out, REC_LINE_END, NULL, 0);
    return 0;
}

void qr_pdf_rec_tag(qr_buf *out, const char *attrs)
{
    size_t n = strlen(attrs);
    put(out, REC_TAG, &n, sizeof n);
    qr_buf_append(out, attrs, n + 1);
}

void qr_pdf_rec_footer(qr_buf *out, double x, double y)
{
    double xy[2] = {x, y};
    put(out, REC_FOOTER, xy, sizeof xy);
}

void qr_pdf_rec_cut(qr_buf *out)
{
    put(out, REC_CUT, NULL, 0);
}

/* ---- recording a line drawn without pango (simple_text.c's) ------------------------ */

/* The colour state part_color() reads: fg (NULL: none), no alpha. */
static rec_color plain_color(const PangoColor *fg)
{
    rec_color c = {0};
    if (fg) {
        c.has_color = 1;
        c.r = fg->red;
        c.g = fg->green;
        c.b = fg->blue;
    }
    return c;
}

/* What rec_draw_glyph_item() records for a left-to-right glyph item in
 * foreground fg (NULL: none): the same bytes, from the glyphs themselves. */
void qr_pdf_rec_glyph_run(qr_buf *out, const PangoColor *fg, PangoFont *font, int x, int y,
                          const char *text, int text_len, const PangoGlyphInfo *glyphs,
                          const int *log_clusters, int n)
{
    rec_glyphs h = {.font = pango_cairo_font_get_scaled_font((PangoCairoFont *)font),
                    .color = plain_color(fg),
                    .x = x,
                    .y = y,
                    .text = text,
                    .text_len = text_len};
    size_t at = out->len;
    put(out, REC_GLYPHS, &h, sizeof h);
    int x_position = 0, count = 0, n_clusters = 0;
    for (int i = 0; i < n; i++) {
        const PangoGlyphInfo *gi = &glyphs[i];
        if (gi->glyph != PANGO_GLYPH_EMPTY && !(gi->glyph & PANGO_GLYPH_UNKNOWN_FLAG)) {
            rec_glyph g = {gi->glyph, x_position + gi->geometry.x_offset, gi->geometry.y_offset};
            qr_buf_append(out, (const char *)&g, sizeof g);
            count++;
        }
        x_position += gi->geometry.width;
    }
    /* pango_glyph_item_iter's clusters, left to right */
    for (int i = 0, j; i < n; i = j) {
        int drawn = 0;
        for (j = i; j < n && log_clusters[j] == log_clusters[i]; j++)
            drawn += glyphs[j].glyph != PANGO_GLYPH_EMPTY &&
                     !(glyphs[j].glyph & PANGO_GLYPH_UNKNOWN_FLAG);
        cairo_text_cluster_t cl = {(j < n ? log_clusters[j] : text_len) - log_clusters[i], drawn};
        qr_buf_append(out, (const char *)&cl, sizeof cl);
        n_clusters++;
    }
    if (!out->oom) {
        h.n_glyphs = count;
        h.n_clusters = n_clusters;
        memcpy(out->data + at + 1, &h, sizeof h);
    }
}

/* What rec_draw_rectangle() records for a part in colour c (NULL: none). */
void qr_pdf_rec_rect(qr_buf *out, const PangoColor *c, int x, int y, int width, int height)
{
    rec_rect r = {plain_color(c), x, y, width, height};
    put(out, REC_RECT, &r, sizeof r);
}

void qr_pdf_rec_line_end(qr_buf *out)
{
    put(out, REC_LINE_END, NULL, 0);
}

static int same_color(const rec_color *a, const rec_color *b)
{
    return a->has_color == b->has_color && a->r == b->r && a->g == b->g && a->b == b->b &&
           a->a == b->a;
}

/* Compare two recordings of one line, each glyph run's text as bytes from
 * its own base: 0 the same. */
int qr_pdf_rec_compare(const qr_buf *a, const char *base_a, const qr_buf *b, const char *base_b)
{
    if (a->len != b->len) return -1;
    size_t i = 0;
    while (i < a->len) {
        int kind = (unsigned char)a->data[i];
        if (kind != (unsigned char)b->data[i]) return -1;
        i++;
        if (kind == REC_LINE_END) continue;
        if (kind == REC_RECT) {
            rec_rect ra, rb;
            memcpy(&ra, a->data + i, sizeof ra);
            memcpy(&rb, b->data + i, sizeof rb);
            if (ra.x != rb.x || ra.y != rb.y || ra.w != rb.w || ra.h != rb.h ||
                !same_color(&ra.color, &rb.color))
                return -1;
            i += sizeof ra;
            continue;
        }
        if (kind != REC_GLYPHS) return memcmp(a->data + i - 1, b->data + i - 1, a->len - i + 1);
        rec_glyphs ha, hb;
        memcpy(&ha, a->data + i, sizeof ha);
        memcpy(&hb, b->data + i, sizeof hb);
        if (ha.text - base_a != hb.text - base_b || ha.font != hb.font || ha.x != hb.x ||
            ha.y != hb.y || ha.n_glyphs != hb.n_glyphs || ha.n_clusters != hb.n_clusters ||
            ha.text_len != hb.text_len || ha.backward != hb.backward ||
            !same_color(&ha.color, &hb.color))
            return -1;
        i += sizeof ha;
        size_t rest = (size_t)ha.n_glyphs * sizeof(rec_glyph) +
                      (size_t)ha.n_clusters * sizeof(cairo_text_cluster_t);
        if (i + rest > a->len || memcmp(a->data + i, b->data + i, rest) != 0) return -1;
        i += rest;
    }
    return 0;
}

/* ---- replaying ---------------------------------------------------------------- */

/* pango's set_color(), from the recorded state. */
static void set_color(cairo_t *cr, const rec_color *c)
{
    if (!c->a && !c->has_color) return;
    double red, green, blue, alpha;
    if (c->has_color) {
        red = c->r / 65535.;
        green = c->g / 65535.;
        blue = c->b / 65535.;
        alpha = 1.;
    } else {
        cairo_pattern_t *pattern = cairo_get_source(cr);
        if (pattern && cairo_pattern_get_type(pattern) == CAIRO_PATTERN_TYPE_SOLID) {
            cairo_pattern_get_rgba(pattern, &red, &green, &blue, &alpha);
        } else {
            red = green = blue = 0.;
            alpha = 1.;
        }
    }
    if (c->a) alpha = c->a / 65535.;
    cairo_set_source_rgba(cr, red, green, blue, alpha);
}

int qr_pdf_rec_next(pd_recread *rd)
{
    if (rd->pos >= rd->len) return 0;
    return rd->data[rd->pos];
}

/* The colour set_color() would leave as the source, in *rgba; -1 when the
 * source is not a solid colour (the run is then drawn alone). */
static int run_rgba(cairo_t *cr, const rec_color *c, double rgba[4])
{
    if (c->has_color) {
        rgba[0] = c->r / 65535.;
        rgba[1] = c->g / 65535.;
        rgba[2] = c->b / 65535.;
        rgba[3] = 1.;
    } else {
        cairo_pattern_t *pattern = cairo_get_source(cr);
        if (!pattern || cairo_pattern_get_type(pattern) != CAIRO_PATTERN_TYPE_SOLID) return -1;
        cairo_pattern_get_rgba(pattern, &rgba[0], &rgba[1], &rgba[2], &rgba[3]);
    }
    if (c->a) rgba[3] = c->a / 65535.;
    return 0;
}

void qr_pdf_batch_flush(pd_batch *b, cairo_t *cr)
{
    if (!b->n_clusters) return;
    cairo_save(cr);
    cairo_set_source_rgba(cr, b->rgba[0], b->rgba[1], b->rgba[2], b->rgba[3]);
    cairo_set_scaled_font(cr, b->font);
    cairo_show_text_glyphs(cr, b->text.data, (int)b->text.len,
                           (const cairo_glyph_t *)(void *)b->glyphs.data, (int)b->n_glyphs,
                           (const cairo_text_cluster_t *)(void *)b->clusters.data,
                           (int)b->n_clusters, 0);
    cairo_restore(cr);
    b->glyphs.len = b->clusters.len = b->text.len = 0;
    b->n_glyphs = b->n_clusters = 0;
}

void qr_pdf_batch_free(pd_batch *b)
{
    qr_buf_free(&b->glyphs);
    qr_buf_free(&b->clusters);
    qr_buf_free(&b->text);
    memset(b, 0, sizeof *b);
}

/* Whether a code point surely has a glyph with ink: not a space, a
 * control or a default-ignorable character. */
static int inked_cp(uint32_t u)
{
    if (u <= 0x20 || (u >= 0x7F && u <= 0xA0) || u == 0xAD || u == 0x34F || u == 0x61C ||
        u == 0x115F || u == 0x1160 || u == 0x1680 || u == 0x17B4 || u == 0x17B5 ||
        (u >= 0x180B && u <= 0x180F) || (u >= 0x2000 && u <= 0x200F) ||
        (u >= 0x2028 && u <= 0x202F) || (u >= 0x205F && u <= 0x206F) || u == 0x3000 ||
        u == 0x3164 || (u >= 0xFE00 && u <= 0xFE0F) || u == 0xFEFF || u == 0xFFA0 ||
        (u >= 0xFFF0 && u <= 0xFFFB) || (u >= 0x1BCA0 && u <= 0x1BCA3) ||
        (u >= 0x1D173 && u <= 0x1D17A) || (u >= 0xE0000 && u <= 0xE0FFF))
        return 0;
    return 1;
}

/* Whether text holds a character whose glyph surely has ink. */
static int surely_inked(const char *text, int len)
{
    const unsigned char *p = (const unsigned char *)text, *e = p + len;
    while (p < e) {
        unsigned c = *p;
        if (c > 0x20 && c < 0x7F) return 1;
        uint32_t u = c;
        int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (n > 1) u = c & (0x3F >> (n - 1));
        for (int i = 1; i < n && p + i < e; i++)
            u = (u << 6) | (p[i] & 0x3F);
        if (c >= 0x80 && inked_cp(u)) return 1;
        p += n;
    }
    return 0;
}

/* Whether a run may join a batch: cairo drops a call whose glyphs' box
 * (their ink, each rounded out to whole device units) is empty or off the
 * page, so a run of spaces drawn alone writes nothing or not, as its
 * position falls, and a run off the page nothing; joined to others such a
 * run would be written. A run joins when one of its characters has ink
 * (not a space, a control or a default-ignorable) and every glyph's origin
 * lies inside the page by more than the font's height and widest advance;
 * any other run is drawn alone, and cairo decides as before. */
static int run_joins(pd_batch *b, const cairo_matrix_t *ctm, const rec_glyphs *h,
                     const unsigned char *d, double base_x, double base_y)
{
    if (!surely_inked(h->text, h->text_len)) return 0;
    const cairo_matrix_t m = *ctm;
    if (m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || m.x0 != 0 || m.y0 != 0)
        return 0; /* the page's bounds are in device space */
    if (b->margin_font != h->font) {
        cairo_font_extents_t fe;
        cairo_scaled_font_extents(h->font, &fe);
        b->margin = fe.height > fe.max_x_advance ? fe.height : fe.max_x_advance;
        b->margin_font = h->font;
    }
    double lo_x = b->margin, hi_x = b->page_w - b->margin;
    double lo_y = b->margin, hi_y = b->page_h - b->margin;
    for (int i = 0; i < h->n_glyphs; i++) {
        rec_glyph g;
        memcpy(&g, d + (size_t)i * sizeof g, sizeof g);
        double x = base_x + (double)g.dx / PANGO_SCALE, y = base_y + (double)g.dy / PANGO_SCALE;
        if (!(x >= lo_x && x <= hi_x && y >= lo_y && y <= hi_y)) return 0;
    }
    return 1;
}

/* The glyphs of run h (recorded at d) into gl at their page positions,
 * the run's origin being (base_x, base_y). */
static void decode_glyphs(cairo_glyph_t *gl, const rec_glyphs *h, const unsigned char *d,
                          double base_x, double base_y)
{
    for (int i = 0; i < h->n_glyphs; i++) {
        rec_glyph g;
        memcpy(&g, d + (size_t)i * sizeof g, sizeof g);
        gl[i].index = g.index;
        gl[i].x = base_x + (double)g.dx / PANGO_SCALE;
        gl[i].y = g.dy == 0 ? base_y : base_y + (double)g.dy / PANGO_SCALE;
    }
}

/* Add run h (its glyphs and clusters at d) to batch b: 0, or -1 when it
 * must be drawn alone (backward, without clusters, a source that is not a
 * solid colour, out of memory; b is flushed then). A run in another font,
 * colour or transformation flushes b first. */
static int batch_add(pd_batch *b, cairo_t *cr, const rec_glyphs *h, const unsigned char *d,
                     double base_x, double base_y)
{
    if (!h->n_glyphs && h->n_clusters)
        return 0; /* cairo draws nothing for a call without glyphs (a line's last space) */
    double rgba[4];
    cairo_matrix_t ctm;
    cairo_get_matrix(cr, &ctm);
    if (h->backward || !h->n_clusters || run_rgba(cr, &h->color, rgba) != 0 ||
        !run_joins(b, &ctm, h, d, base_x, base_y)) {
        qr_pdf_batch_flush(b, cr);
        return -1;
    }
    if (b->n_clusters && (b->font != h->font || memcmp(b->rgba, rgba, sizeof rgba) != 0 ||
                          memcmp(&b->ctm, &ctm, sizeof ctm) != 0))
        qr_pdf_batch_flush(b, cr);
    size_t gsz = (size_t)h->n_glyphs * sizeof(cairo_glyph_t);
    size_t csz = (size_t)h->n_clusters * sizeof(cairo_text_cluster_t);
    cairo_glyph_t *gl = (cairo_glyph_t *)(void *)qr_buf_reserve(&b->glyphs, gsz + 1);
    char *cl = qr_buf_reserve(&b->clusters, csz + 1);
    char *tx = qr_buf_reserve(&b->text, (size_t)h->text_len + 1);
    if (!gl || !cl || !tx) {
        b->glyphs.oom = b->clusters.oom = b->text.oom = 0;
        qr_pdf_batch_flush(b, cr);
        return -1;
    }
    if (!b->n_clusters) {
        b->font = h->font;
        memcpy(b->rgba, rgba, sizeof rgba);
        b->ctm = ctm;
    }
    decode_glyphs(gl, h, d, base_x, base_y);
    memcpy(cl, d + (size_t)h->n_glyphs * sizeof(rec_glyph), csz);
    memcpy(tx, h->text, (size_t)h->text_len);
    b->glyphs.len += gsz;
    b->clusters.len += csz;
    b->text.len += (size_t)h->text_len;
    b->n_glyphs += (size_t)h->n_glyphs;
    b->n_clusters += (size_t)h->n_clusters;
    return 0;
}

/* One glyph run drawn as pango's cairo renderer draws it: a call of its own. */
static void show_run(cairo_t *cr, const rec_glyphs *h, const unsigned char *d, double base_x,
                     double base_y)
{
    cairo_glyph_t stack[256];
    cairo_glyph_t *gl = stack;
    if (h->n_glyphs > 256) gl = malloc((size_t)h->n_glyphs * sizeof *gl);
    if (!gl) return;
    decode_glyphs(gl, h, d, base_x, base_y);
    cairo_text_cluster_t *cl = NULL, one;
    if (h->n_clusters) {
        cl = malloc((size_t)h->n_clusters * sizeof *cl);
        if (cl)
            memcpy(cl, d + (size_t)h->n_glyphs * sizeof(rec_glyph),
                   (size_t)h->n_clusters * sizeof *cl);
    }
    cairo_save(cr);
    set_color(cr, &h->color);
    cairo_set_scaled_font(cr, h->font);
    cairo_show_text_glyphs(cr, h->text, h->text_len, gl, h->n_glyphs, cl ? cl : &one, h->n_clusters,
                           h->backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : 0);
    cairo_restore(cr);
    free(cl);
    if (gl != stack) free(gl);
}

static int replay(pd_recread *rd, cairo_t *cr, void (*at)(void *, const char *), void *arg,
                  pd_batch *b)
{
    if (qr_pdf_rec_next(rd) == REC_CUT) return -1;
    const unsigned char *d = rd->data;
    int had = cairo_has_current_point(cr);
    double x_offset, y_offset;
    cairo_get_current_point(cr, &x_offset, &y_offset);
    while (rd->pos < rd->len) {
        int kind = d[rd->pos++];
        if (kind == REC_LINE_END) break;
        if (kind == REC_RECT) {
            rec_rect r;
            memcpy(&r, d + rd->pos, sizeof r);
            rd->pos += sizeof r;
            if (b) qr_pdf_batch_flush(b, cr);
            cairo_save(cr);
            set_color(cr, &r.color);
            cairo_rectangle(cr, x_offset + (double)r.x / PANGO_SCALE,
                            y_offset + (double)r.y / PANGO_SCALE, (double)r.w / PANGO_SCALE,
                            (double)r.h / PANGO_SCALE);
            cairo_fill(cr);
            cairo_restore(cr);
        } else if (kind == REC_GLYPHS) {
            rec_glyphs h;
            memcpy(&h, d + rd->pos, sizeof h);
            rd->pos += sizeof h;
            if (at) at(arg, h.text);
            double base_x = x_offset + (double)h.x / PANGO_SCALE;
            double base_y = y_offset + (double)h.y / PANGO_SCALE;
            if (!b || batch_add(b, cr, &h, d + rd->pos, base_x, base_y) != 0)
                show_run(cr, &h, d + rd->pos, base_x, base_y);
            rd->pos += (size_t)h.n_glyphs * sizeof(rec_glyph) +
                       (size_t)h.n_clusters * sizeof(cairo_text_cluster_t);
        } else {
            break; /* not expected */
        }
    }
    if (had)
        cairo_move_to(cr, x_offset, y_offset);
    else
        cairo_new_sub_path(cr);
    return 0;
}

int qr_pdf_rec_replay_line(pd_recread *rd, cairo_t *cr)
{
    return replay(rd, cr, NULL, NULL, NULL);
}

int qr_pdf_rec_replay_line_at(pd_recread *rd, cairo_t *cr, void (*at)(void *, const char *),
                              void *arg)
{
    return replay(rd, cr, at, arg, NULL);
}

int qr_pdf_rec_replay_line_batch(pd_recread *rd, cairo_t *cr, pd_batch *b)
{
    return replay(rd, cr, NULL, NULL, b);
}

const char *qr_pdf_rec_replay_tag(pd_recread *rd)
{
    if (qr_pdf_rec_next(rd) != REC_TAG) return NULL;
    size_t n;
    memcpy(&n, rd->data + rd->pos + 1, sizeof n);
    rd->pos += 1 + sizeof n;
    const char *s = (const char *)rd->data + rd->pos;
    rd->pos += n + 1; /* the recorder stores a NUL after it */
    return s;
}

int qr_pdf_rec_replay_footer(pd_recread *rd, double *x, double *y)
{
    if (qr_pdf_rec_next(rd) != REC_FOOTER) return -1;
    double xy[2];
    memcpy(xy, rd->data + rd->pos + 1, sizeof xy);
    rd->pos += 1 + sizeof xy;
    *x = xy[0];
    *y = xy[1];
    return 0;
}
