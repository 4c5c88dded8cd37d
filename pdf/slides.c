/* slides.c: a presentation as PDF pages or a PNG, one page per slide at the
 * slide's size, drawn from the same plan the .pptx writer writes
 * (layout/slide_layout.h): placeholder boxes, paragraph sizes, bullet
 * indents, the estimated normAutofit fontScale and lnSpcReduction, the
 * table grid, the picture box and the chart box (a chart drawn as
 * pdf/chart.c draws a document's, from the same chart model).
 *
 * Text is set as PowerPoint sets a text body: inside the box's insets,
 * anchored top, middle or bottom, each paragraph at its size times
 * fontScale, lines at 1.2 em times the line spacing (90 % less
 * lnSpcReduction: the pitch the estimate assumed), space before each
 * paragraph but the first, the bullet glyph hanging 0.25 in left of the
 * text. Tables follow the "Medium Style 2 - Accent 1" style the .pptx
 * names: an accent header row with white bold text, banded rows, white
 * rules. Colours are the theme's (pptx_theme.c): text dk1, accent1 2563EB.
 *
 * With --notes each page is the slide's notes page instead, laid out as the
 * .pptx's notes slides are: the slide above, its speaker notes below.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "preview.h"
#include "sha256.h"
#include "slide_layout.h"

/* The theme's colours (layout/style.h, c->style), as the .pptx's theme
 * holds them: dk1 the darker of text and background, lt1 the lighter. */
#define ACCENT (c->style.accent)
#define DK1 (qr_style_dark(&c->style) ? c->style.background : c->style.text)
#define LT1 (qr_style_dark(&c->style) ? c->style.text : c->style.background)

/* accent1 at pct % over white: the table style's bands */
static uint32_t tint(uint32_t rgb, int pct)
{
    uint32_t out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        unsigned v = (rgb >> sh) & 255;
        out |= (uint32_t)((v * pct + 255 * (100 - pct) + 50) / 100) << sh;
    }
    return out;
}
#define BAND1 tint(ACCENT, 30)
#define BAND2 tint(ACCENT, 15)

static double pt(long long emu)
{
    return (double)emu / QR_SLIDE_EMU_PER_PT;
}

static void set_rgb(cairo_t *cr, uint32_t rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0,
                         (rgb & 255) / 255.0);
}

/* ---- text shapes ------------------------------------------------------------------ */

/* Lay out and draw one text shape (cr NULL: lay out only). */
static void paint_shape(pd_ctx *c, cairo_t *cr, const qr_slide_shape *sh, const char *path,
                        uint32_t rgb)
{
    if (!sh->n) return;
    double scale = sh->font_scale / 100000.0;
    double ln = ((sh->line ? sh->line : QR_SLIDE_LINE) - sh->ln_reduction) / 100000.0;
    double ix = pt(sh->box.x + QR_SLIDE_INS_LR), iy = pt(sh->box.y + QR_SLIDE_INS_TB);
    double iw = pt(sh->box.cx - 2 * QR_SLIDE_INS_LR), ih = pt(sh->box.cy - 2 * QR_SLIDE_INS_TB);
    const pd_text **texts = qr_arena_array(&c->arena, sh->n, sizeof *texts);
    const pd_text **marks = qr_arena_array(&c->arena, sh->n, sizeof *marks);
    if (!texts || !marks) {
        qr_pdf_fail(c, QR_E_NOMEM, path, "out of memory");
        return;
    }
    double total = 0;
    for (size_t i = 0; i < sh->n; i++) {
        const qr_slide_para *p = &sh->paras[i];
        double size = p->sz / 100.0 * scale;
        double marl = pt(qr_slide_para_marl(p));
        pd_style st = {.size = size, .bold = p->bold};
        st.align = p->algn == QR_SLIDE_ALGN_CTR ? PD_ALIGN_CENTER
                   : p->algn == QR_SLIDE_ALGN_R ? PD_ALIGN_END
                                                : PD_ALIGN_START;
        texts[i] = qr_pdf_text(c, p->text, NULL, 0, &st, iw - marl > 1 ? iw - marl : 1,
                               p->text->path ? p->text->path : path);
        marks[i] = NULL;
        if (p->bullet == QR_SLIDE_BULLET_CHAR) {
            const char *g = qr_slide_level_char(p->lvl);
            pd_style bs = {.size = size};
            marks[i] = qr_pdf_text(c, NULL, g, strlen(g), &bs, 0, path);
        } else if (p->bullet == QR_SLIDE_BULLET_NUM) {
            char num[16];
            int nl = snprintf(num, sizeof num, "%d.", p->num);
            pd_style bs = {.size = size, .bold = p->bold};
            marks[i] = qr_pdf_text(c, NULL, num, (size_t)nl, &bs, 0, path);
        }
        if (!texts[i] || c->status != QR_OK) return;
        if (i > 0) total += p->space_before / 100.0 * scale;
        total += (double)texts[i]->n_lines * size * 1.2 * ln;
    }
    if (!cr) return;
    double y = iy;
    if (sh->anchor == QR_SLIDE_ANCHOR_CTR) y += (ih - total) / 2;
    if (sh->anchor == QR_SLIDE_ANCHOR_B) y += ih - total;
    set_rgb(cr, rgb);
    for (size_t i = 0; i < sh->n; i++) {
        const qr_slide_para *p = &sh->paras[i];
        double size = p->sz / 100.0 * scale, pitch = size * 1.2 * ln;
        double marl = pt(qr_slide_para_marl(p));
        double hang = p->bullet == QR_SLIDE_BULLET_NUM ? -marl : pt(qr_slide_level_indent(p->lvl));
        if (i > 0) y += p->space_before / 100.0 * scale;
        set_rgb(cr, p->accent == QR_SLIDE_INK_WHITE ? 0xFFFFFF : p->accent ? c->style.accent : rgb);
        /* the baseline sits where DejaVu's ascent (0.93 of its 1.16 em line) puts it */
        for (size_t l = 0; l < texts[i]->n_lines; l++) {
            double base = y + pitch * 0.8;
            if (l == 0 && marks[i]) {
                double bx = ix + marl + hang;
                if (texts[i]->rtl) bx = ix + iw - marl - hang - marks[i]->width;
                qr_pv_line(cr, marks[i], 0, bx, base);
            }
            qr_pv_line(cr, texts[i], l, texts[i]->rtl ? ix : ix + marl, base);
            y += pitch;
        }
    }
}

/* ---- tables ----------------------------------------------------------------------- */

static void paint_table(pd_ctx *c, cairo_t *cr, const qr_table *t, const qr_slide_grid *g)
{
    if (!g->nr) return;
    double size = g->sz / 100.0;
    double mx = pt(QR_SLIDE_CELL_MAR_LR), my = pt(QR_SLIDE_CELL_MAR_TB);
    double y = pt(g->box.y);
    for (size_t r = 0; r < g->nr; r++) {
        int header = t->headers && r == 0;
        size_t band = t->headers ? r - 1 : r;
        /* a row grows to its text, as PowerPoint's rows do */
        const pd_text **cells = qr_arena_array(&c->arena, g->nc, sizeof *cells);
        if (!cells) {
            qr_pdf_fail(c, QR_E_NOMEM, t->path, "out of memory");
            return;
        }
        double h = pt(g->rows[r]);
        for (size_t k = 0; k < g->nc; k++) {
            const qr_tcell *cell = qr_slide_table_cell(t, r, k);
            pd_style st = {.size = size, .bold = header};
            if (cell && cell->kind == QR_TCELL_NUMBER) st.align = PD_ALIGN_END;
            double w = pt(g->cols[k]) - 2 * mx;
            cells[k] =
                cell ? qr_pdf_text(c, &cell->text, NULL, 0, &st, w > 1 ? w : 1, t->path) : NULL;
            if (c->status != QR_OK) return;
            if (cells[k] && cells[k]->height + 2 * my > h) h = cells[k]->height + 2 * my;
        }
        if (!cr) {
            y += h;
            continue;
        }
        double x = pt(g->box.x);
        for (size_t k = 0; k < g->nc; k++) {
            double w = pt(g->cols[k]);
            set_rgb(cr, header ? ACCENT : band % 2 == 0 ? BAND1 : BAND2);
            cairo_rectangle(cr, x, y, w, h);
            cairo_fill(cr);
            set_rgb(cr, LT1);
            cairo_set_line_width(cr, 1);
            cairo_rectangle(cr, x, y, w, h);
            cairo_stroke(cr);
            const pd_text *tx = cells[k];
            if (tx) {
                set_rgb(cr, header ? c->style.on_accent : DK1); /* on the accent: by contrast */
                for (size_t l = 0; l < tx->n_lines; l++)
                    qr_pv_line(cr, tx, l, x + mx, y + my + tx->lines[l].top + tx->lines[l].ascent);
            }
            x += w;
        }
        y += h;
    }
}

/* ---- pictures ---------------------------------------------------------------------- */

typedef struct png_src {
    const unsigned char *p;
    size_t n, pos;
} png_src;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int len)
{
    png_src *s = closure;
    if (s->n - s->pos < len) return CAIRO_STATUS_READ_ERROR;
    memcpy(data, s->p + s->pos, len);
    s->pos += len;
    return CAIRO_STATUS_SUCCESS;
}

/* A deck's pictures (c->pics): each source (by its bytes' sha256) decoded
 * once per render and downsampled to the largest box it has been drawn in
 * so far at QR_PDF_IMAGE_DPI, so 20 slides showing one 8000 x 8000 PNG
 * decode it once and keep ~2000 x 2000 pixels (and the PDF embeds it once:
 * cairo writes a surface drawn again as one image). A JPEG in a PDF is one
 * 1x1 surface carrying its bytes. Pixels decoded in all are bounded by
 * QR_PDF_DECODE_BUDGET: past it a picture is its placeholder, with a
 * warning. The surfaces belong to the context (qr_pdf_keep_surface). */
typedef struct pic {
    unsigned char sha[32];
    int w, h;           /* the kept surface's pixels (the source's when not downsampled) */
    cairo_surface_t *s; /* NULL: could not decode, or past the budget */
} pic;

struct pd_pics {
    pic *v;
    size_t n, cap;
    double decoded; /* pixels decoded so far */
};

static void pics_free(pd_ctx *c)
{
    if (!c->pics) return;
    free(c->pics->v);
    free(c->pics);
    c->pics = NULL;
}

/* The surface for im drawn over w x h points, from the cache or decoded
 * now; NULL: draw the placeholder (a warning says why). Borrowed. */
static cairo_surface_t *picture(pd_ctx *c, const qr_image *im, double w, double h)
{
    if (!c->pics && !(c->pics = calloc(1, sizeof *c->pics))) return NULL;
    struct pd_pics *ps = c->pics;
    qr_sha256 hs;
    unsigned char sha[32];
    qr_sha256_init(&hs);
    qr_sha256_update(&hs, im->data, im->size);
    qr_sha256_final(&hs, sha);
    /* the pixels this box needs: its size at the kept resolution, at least 1 */
    double k = QR_PDF_IMAGE_DPI / 72.0;
    int need_w = w * k < 1 ? 1 : w * k > 1e6 ? 1000000 : (int)ceil(w * k);
    int need_h = h * k < 1 ? 1 : h * k > 1e6 ? 1000000 : (int)ceil(h * k);
    pic *p = NULL;
    for (size_t i = 0; i < ps->n && !p; i++)
        if (!memcmp(ps->v[i].sha, sha, 32)) p = &ps->v[i];
    int full =
        p && p->s &&
        (im->type != QR_IMAGE_PNG || (p->w >= (int)im->width_px && p->h >= (int)im->height_px));
    if (p && (!p->s || full || (p->w >= need_w && p->h >= need_h))) return p->s;
    if (!p) {
        if (ps->n == ps->cap) {
            size_t cap = ps->cap ? ps->cap * 2 : 8;
            pic *v = realloc(ps->v, cap * sizeof *v);
            if (!v) return NULL;
            ps->v = v;
            ps->cap = cap;
        }
        p = &ps->v[ps->n++];
        memset(p, 0, sizeof *p);
        memcpy(p->sha, sha, 32);
    }
    cairo_surface_t *s = NULL;
    if (im->type == QR_IMAGE_PNG) {
        double px = (double)im->width_px * im->height_px;
        if (ps->decoded + px > QR_PDF_DECODE_BUDGET) {
            qr_errlist_addf(c->rc->warnings, QR_OK, im->path,
                            "use fewer or smaller images, scaled down before embedding",
                            "the PNG image (%u x %u pixels) was skipped: the deck's images "
                            "already decoded %.0f of a budget of %.0f megapixels; a placeholder "
                            "is drawn",
                            (unsigned)im->width_px, (unsigned)im->height_px, ps->decoded / 1e6,
                            QR_PDF_DECODE_BUDGET / 1e6);
            p->s = NULL;
            p->w = p->h = 0;
            return NULL;
        }
        if (qr_pdf_work(c, (uint64_t)(px / QR_WORK_PIXELS), im->path, "the images")) return NULL;
        ps->decoded += px;
        png_src src = {im->data, im->size, 0};
        s = cairo_image_surface_create_from_png_stream(png_read, &src);
        if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
            cairo_surface_destroy(s);
            return NULL; /* a placeholder, as before */
        }
        int sw = cairo_image_surface_get_width(s), sh = cairo_image_surface_get_height(s);
        /* the larger of what this box needs and what the cache held */
        int tw = need_w > p->w ? need_w : p->w, th = need_h > p->h ? need_h : p->h;
        if (tw < sw || th < sh) {
            cairo_surface_t *d = qr_pdf_downsample(s, tw < sw ? tw : sw, th < sh ? th : sh);
            cairo_surface_destroy(s);
            if (!d) return NULL;
            s = d;
            if (!p->w) /* the first time: later boxes only ask for more pixels */
                qr_errlist_addf(c->rc->warnings, QR_OK, im->path,
                                "scale the image down before embedding it",
                                "the PNG image (%d x %d pixels) was downsampled to %d x %d "
                                "pixels, %.0f dpi at its drawn size",
                                sw, sh, cairo_image_surface_get_width(s),
                                cairo_image_surface_get_height(s), QR_PDF_IMAGE_DPI);
        }
    } else if (!c->for_png) {
        /* a 1x1 surface carrying the JPEG: the PDF gets its own bytes (DCTDecode) */
        s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
        unsigned char *copy = malloc(im->size);
        if (copy) memcpy(copy, im->data, im->size);
        if (!copy || cairo_surface_set_mime_data(s, CAIRO_MIME_TYPE_JPEG, copy, im->size, free,
                                                 copy) != CAIRO_STATUS_SUCCESS) {
            free(copy);
            cairo_surface_destroy(s);
            return NULL;
        }
    } else {
        return NULL; /* no JPEG decoder in a PNG preview */
    }
    if (qr_pdf_keep_surface(c, s) != 0) {
        cairo_surface_destroy(s);
        return NULL;
    }
    p->s = s;
    p->w = cairo_image_surface_get_width(s);
    p->h = cairo_image_surface_get_height(s);
    if (im->type != QR_IMAGE_PNG) p->w = (int)im->width_px, p->h = (int)im->height_px;
    return s;
}

/* The picture im drawn over box b, clipped to clip (a picture cropped to
 * cover it: image_full) unless clip is NULL. */
static void paint_image(pd_ctx *c, cairo_t *cr, const qr_image *im, qr_slide_box b,
                        const qr_slide_box *clip)
{
    double x = pt(b.x), y = pt(b.y), w = pt(b.cx), h = pt(b.cy);
    cairo_surface_t *s = picture(c, im, w, h);
    if (s && cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
        double sw = cairo_image_surface_get_width(s), sh = cairo_image_surface_get_height(s);
        cairo_save(cr);
        if (clip) {
            cairo_rectangle(cr, pt(clip->x), pt(clip->y), pt(clip->cx), pt(clip->cy));
            cairo_clip(cr);
        }
        cairo_translate(cr, x, y);
        cairo_scale(cr, w / sw, h / sh);
        cairo_set_source_surface(cr, s, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_paint(cr);
        cairo_restore(cr);
    } else {
        /* no decoder here (a JPEG in a PNG preview): a light box with the alt text */
        set_rgb(cr, c->style.placeholder_fill);
        cairo_rectangle(cr, x, y, w, h);
        cairo_fill(cr);
        const char *alt = im->alt.n ? qr_plain(&im->alt) : "image";
        pd_style st = {.size = 12, .align = PD_ALIGN_CENTER};
        pd_text *t = qr_pdf_text(c, NULL, alt, strlen(alt), &st, w > 12 ? w - 12 : 1, im->path);
        cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
        for (size_t l = 0; t && l < t->n_lines; l++)
            qr_pv_line(cr, t, l, x + 6,
                       y + (h - t->height) / 2 + t->lines[l].top + t->lines[l].ascent);
    }
}

/* ---- slides ----------------------------------------------------------------------------- */

/* Draw slide i on cr (in points); report: add the slide's layout report
 * (the slides a preview draws as pages, once each). */
static void paint_slide(pd_ctx *c, cairo_t *cr, const qr_slide_geom *g, size_t i, int report)
{
    const qr_slide *sl = &c->doc->slides[i];
    qr_slide_plan plan;
    if (qr_slide_plan_make(&plan, g, sl) != QR_OK) {
        qr_pdf_fail(c, QR_E_NOMEM, sl->path, "out of memory");
        return;
    }
    if (qr_slide_plan_furniture(&plan, c->doc, g, (int)i + 1) != QR_OK) {
        qr_slide_plan_free(&plan);
        qr_pdf_fail(c, QR_E_NOMEM, sl->path, "out of memory");
        return;
    }
    if (report) qr_slide_plan_report(&plan, (int)i + 1, c->rc->layout);
    /* the theme's ground and decorations, as the .pptx's master and layouts */
    int filled = sl->layout == QR_LAYOUT_SECTION && c->style.section_fill;
    uint32_t ink = filled ? c->style.on_accent : c->style.text;
    if (cr) {
        uint32_t ground = plan.has_ground ? plan.ground
                          : filled        ? c->style.accent
                                          : c->style.background;
        if (ground != 0xFFFFFF) { /* the page is white already */
            set_rgb(cr, ground);
            cairo_rectangle(cr, 0, 0, pt(g->sw), pt(g->sh));
            cairo_fill(cr);
        }
        if (plan.ground_image) {
            qr_slide_box all = {0, 0, g->sw, g->sh};
            paint_image(c, cr, plan.ground_image, plan.ground_src, &all);
        }
        if (c->style.accent_bar) {
            const qr_slide_box *bar[2] = {&g->accent_bar, &g->title_rule};
            for (int k = 0; k < (sl->layout == QR_LAYOUT_TITLE ? 2 : 1); k++) {
                set_rgb(cr, c->style.accent);
                cairo_rectangle(cr, pt(bar[k]->x), pt(bar[k]->y), pt(bar[k]->cx), pt(bar[k]->cy));
                cairo_fill(cr);
            }
        }
    }
    int full = sl->layout == QR_LAYOUT_IMAGE_FULL; /* the picture under everything */
    for (size_t k = 0; full && k < plan.n_vis && c->status == QR_OK; k++)
        if (plan.vis[k].image && cr)
            paint_image(c, cr, plan.vis[k].image, plan.vis[k].src, &plan.vis[k].box);
    if (plan.scrim && cr) {
        cairo_set_source_rgba(cr, 0, 0, 0, 0.55);
        cairo_rectangle(cr, pt(plan.scrim_box.x), pt(plan.scrim_box.y), pt(plan.scrim_box.cx),
                        pt(plan.scrim_box.cy));
        cairo_fill(cr);
    }
    paint_shape(c, cr, &plan.title, sl->path, filled ? ink : c->style.title);
    paint_shape(c, cr, &plan.body, sl->path, ink);
    for (size_t k = 0; k < plan.n_extra && c->status == QR_OK; k++)
        paint_shape(c, cr, &plan.extra[k], sl->path, ink);
    if (sl->table && c->status == QR_OK) paint_table(c, cr, sl->table, &plan.table);
    for (size_t k = 0; !full && k < plan.n_vis && c->status == QR_OK; k++) {
        const qr_slide_vis *v = &plan.vis[k];
        if (v->image && cr) paint_image(c, cr, v->image, v->box, NULL);
        if (v->table) paint_table(c, cr, v->table, &v->grid);
        if (v->chart && cr)
            qr_pdf_draw_chart(c, cr, v->chart, pt(v->box.x), pt(v->box.y), pt(v->box.cx),
                              pt(v->box.cy), &c->style);
    }
    if (sl->image && !full && c->status == QR_OK) paint_image(c, cr, sl->image, plan.image, NULL);
    if (plan.logo && cr && c->status == QR_OK) paint_image(c, cr, plan.logo, plan.logo_box, NULL);
    if (sl->chart && c->status == QR_OK)
        qr_pdf_draw_chart(c, cr, sl->chart, pt(plan.chart.x), pt(plan.chart.y), pt(plan.chart.cx),
                          pt(plan.chart.cy), &c->style);
    qr_slide_plan_free(&plan);
}

/* Layouts of a slide are no longer needed once it is painted. */
static void drop_layouts(pd_ctx *c)
{
    for (size_t k = 0; k < c->n_layouts; k++)
        if (c->layouts[k]) g_object_unref(c->layouts[k]);
    c->n_layouts = 0;
}

/* A notes page (--notes): slide i scaled into the slide image's box of the
 * .pptx's notes page, framed, and its notes below in 12 pt, line by line. */
static void paint_notes_page(pd_ctx *c, cairo_t *cr, const qr_slide_geom *g, size_t i)
{
    qr_slide_box img, body;
    qr_slide_notes_boxes(g, &img, &body);
    if (i < c->doc->n_slides) {
        cairo_save(cr);
        cairo_translate(cr, pt(img.x), pt(img.y));
        cairo_scale(cr, (double)img.cx / (double)g->sw, (double)img.cy / (double)g->sh);
        cairo_rectangle(cr, 0, 0, pt(g->sw), pt(g->sh));
        cairo_clip(cr);
        paint_slide(c, cr, g, i, 1);
        cairo_restore(cr);
    }
    cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
    cairo_set_line_width(cr, 0.75);
    cairo_rectangle(cr, pt(img.x), pt(img.y), pt(img.cx), pt(img.cy));
    cairo_stroke(cr);
    const qr_text *notes = i < c->doc->n_slides ? &c->doc->slides[i].notes : NULL;
    if (!notes || !notes->n) return;
    pd_style st = {.size = QR_SLIDE_SZ_NOTES / 100.0};
    double x = pt(body.x + QR_SLIDE_INS_LR), y = pt(body.y + QR_SLIDE_INS_TB);
    pd_text *t = qr_pdf_text(c, notes, NULL, 0, &st, pt(body.cx - 2 * QR_SLIDE_INS_LR), NULL);
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (size_t l = 0; t && l < t->n_lines; l++)
        qr_pv_line(cr, t, l, x, y + t->lines[l].top + t->lines[l].ascent);
}

static void contact_paint(pd_ctx *c, cairo_t *cr, size_t i, void *ud)
{
    if (i < c->doc->n_slides) paint_slide(c, cr, ud, i, 0);
}

qr_status qr_pdf_slides_render(qr_render_ctx *rc, qr_sink *out, int png)
{
    const qr_doc *d = rc->doc;
    qr_slide_geom g;
    qr_slide_geom_init(&g, d->wide);
    double w = pt(g.sw), h = pt(g.sh);
    int notes = rc->notes && !rc->png_contact;
    if (notes) w = pt(QR_SLIDE_NOTES_CX), h = pt(QR_SLIDE_NOTES_CY);
    size_t n = d->n_slides;
    rc->pages = (int)(n ? n : 1);
    pd_ctx c;
    qr_status st = qr_pdf_ctx_open(&c, rc, png);
    if (st != QR_OK) {
        pics_free(&c);
        qr_pdf_ctx_close(&c);
        return st;
    }
    if (png && rc->png_contact) {
        st = qr_pv_contact(&c, out, w, h, n, contact_paint, &g);
        pics_free(&c);
        qr_pdf_ctx_close(&c);
        return st;
    }
    if (png) {
        size_t page = rc->png_page > 0 ? (size_t)rc->png_page : 1;
        st = qr_pv_png_check(rc, page, n ? n : 1, w, h);
        if (st == QR_OK) {
            cairo_t *cr;
            cairo_surface_t *s = qr_pv_png_surface(rc, w, h, &cr);
            if (notes)
                paint_notes_page(&c, cr, &g, page - 1);
            else if (n)
                paint_slide(&c, cr, &g, page - 1, 1);
            st = qr_pv_png_finish(&c, s, cr, out);
        }
        pics_free(&c);
        qr_pdf_ctx_close(&c);
        return st;
    }
    /* the slides this PDF shows, paid for before any is drawn */
    size_t in_range = 0;
    for (size_t i = 0; i < n; i++)
        in_range += qr_pv_in_range(rc, i) != 0;
    if (qr_pdf_work(&c, in_range * (uint64_t)QR_WORK_PAGE, "/slides", "the slides")) {
        pics_free(&c);
        qr_pdf_ctx_close(&c);
        return QR_E_LIMIT;
    }
    pv_out *o = malloc(sizeof *o);
    if (!o) {
        pics_free(&c);
        qr_pdf_ctx_close(&c);
        qr_errlist_add(rc->errors, QR_E_NOMEM, "", "out of memory", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    o->sink = out;
    cairo_surface_t *s = qr_pv_pdf_surface(o, rc, w, h);
    cairo_t *cr = cairo_create(s);
    size_t shown = 0;
    for (size_t i = 0; i < n && c.status == QR_OK; i++) {
        if (!qr_pv_in_range(rc, i)) continue;
        shown++;
        if (notes)
            paint_notes_page(&c, cr, &g, i);
        else
            paint_slide(&c, cr, &g, i, 1);
        cairo_show_page(cr);
        drop_layouts(&c);
        if (cairo_status(cr) != CAIRO_STATUS_SUCCESS || out->status != QR_OK) break;
    }
    if (!shown) cairo_show_page(cr); /* an empty deck (or range): one blank slide */
    cairo_destroy(cr);
    st = qr_pv_pdf_finish(&c, s, o);
    free(o);
    pics_free(&c);
    qr_pdf_ctx_close(&c);
    return st;
}
