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

int qr_pdf_rec_replay_line(pd_recread *rd, cairo_t *cr)
{
    return qr_pdf_rec_replay_line_at(rd, cr, NULL, NULL);
}

int qr_pdf_rec_replay_line_at(pd_recread *rd, cairo_t *cr, void (*at)(void *, const char *),
                              void *arg)
{
    if (qr_pdf_rec_next(rd) == REC_CUT) return -1;
    const unsigned char *d = rd->data;
    int had = cairo_has_current_point(cr);
    double x_offset, y_offset;
    cairo_get_current_point(cr, &x_offset, &y_offset);
    cairo_glyph_t stack[256];
    while (rd->pos < rd->len) {
        int kind = d[rd->pos++];
        if (kind == REC_LINE_END) break;
        if (kind == REC_RECT) {
            rec_rect r;
            memcpy(&r, d + rd->pos, sizeof r);
            rd->pos += sizeof r;
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
            cairo_glyph_t *gl = stack;
            if (h.n_glyphs > 256) gl = malloc((size_t)h.n_glyphs * sizeof *gl);
            for (int i = 0; gl && i < h.n_glyphs; i++) {
                rec_glyph g;
                memcpy(&g, d + rd->pos, sizeof g);
                rd->pos += sizeof g;
                gl[i].index = g.index;
                gl[i].x = base_x + (double)g.dx / PANGO_SCALE;
                gl[i].y = g.dy == 0 ? base_y : base_y + (double)g.dy / PANGO_SCALE;
            }
            if (!gl) rd->pos += (size_t)h.n_glyphs * sizeof(rec_glyph);
            cairo_text_cluster_t *cl = NULL;
            if (h.n_clusters) {
                cl = malloc((size_t)h.n_clusters * sizeof *cl);
                if (cl) memcpy(cl, d + rd->pos, (size_t)h.n_clusters * sizeof *cl);
            }
            rd->pos += (size_t)h.n_clusters * sizeof(cairo_text_cluster_t);
            cairo_text_cluster_t one;
            cairo_save(cr);
            set_color(cr, &h.color);
            cairo_set_scaled_font(cr, h.font);
            if (gl)
                cairo_show_text_glyphs(cr, h.text, h.text_len, gl, h.n_glyphs, cl ? cl : &one,
                                       h.n_clusters,
                                       h.backward ? CAIRO_TEXT_CLUSTER_FLAG_BACKWARD : 0);
            cairo_restore(cr);
            free(cl);
            if (gl != stack) free(gl);
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
