/* contact.c: the contact sheet (`quire render SPEC -o sheet.png --contact`):
 * every slide, or the first pages of a document or workbook, as numbered
 * thumbnails on one PNG of at most 2000 px on its long side, so a model can
 * look at a whole deck in one image.
 *
 * A document or workbook shows its first QR_PV_CONTACT_PAGES pages.
 * The grid takes the column count that gives the largest thumbnails within
 * 2000 x 2000 px (thumbnails at most 480 px wide); each page is painted by
 * its kind's painter, scaled into its cell, framed, with its number below.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "preview.h"

#define LONG_SIDE 2000.0
#define GAP 12.0
#define LABEL 18.0
#define THUMB_MAX 480.0

/* Unref the layouts made since keep (those of one thumbnail). */
static void drop_since(pd_ctx *c, size_t keep)
{
    for (size_t k = keep; k < c->n_layouts; k++)
        if (c->layouts[k]) g_object_unref(c->layouts[k]);
    c->n_layouts = keep;
}

qr_status qr_pv_contact(pd_ctx *c, qr_sink *out, double w, double h, size_t n, pv_paint_fn paint,
                        void *ud)
{
    if (n == 0) n = 1; /* an empty deck or workbook: one blank page */
    if (n > QR_PV_CONTACT_MAX) n = QR_PV_CONTACT_MAX;
    /* the column count with the widest thumbnails that fit */
    size_t best_cols = 1;
    double best_tw = 0, best_side = 0;
    for (size_t cols = 1; cols <= n; cols++) {
        size_t rows = (n + cols - 1) / cols;
        double tw = (LONG_SIDE - GAP * (double)(cols + 1)) / (double)cols;
        double th_room =
            (LONG_SIDE - GAP * (double)(rows + 1) - LABEL * (double)rows) / (double)rows;
        if (tw * h / w > th_room) tw = th_room * w / h;
        if (tw > THUMB_MAX) tw = THUMB_MAX;
        tw = floor(tw);
        /* the widest thumbnails; of equal ones, the grid with the shorter long side */
        double W = GAP * (double)(cols + 1) + tw * (double)cols;
        double H = GAP * (double)(rows + 1) + (floor(tw * h / w) + LABEL) * (double)rows;
        double side = W > H ? W : H;
        if (tw > best_tw || (tw == best_tw && side < best_side))
            best_tw = tw, best_cols = cols, best_side = side;
    }
    double tw = floor(best_tw), th = floor(tw * h / w);
    if (tw < 1) tw = 1;
    if (th < 1) th = 1;
    size_t cols = best_cols, rows = (n + cols - 1) / cols;
    int W = (int)(GAP * (double)(cols + 1) + tw * (double)cols);
    int H = (int)(GAP * (double)(rows + 1) + (th + LABEL) * (double)rows);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
    cairo_paint(cr);
    double k = tw / w;
    size_t keep = c->n_layouts; /* a document's own layouts stay */
    for (size_t i = 0; i < n && c->status == QR_OK; i++) {
        double x = GAP + (double)(i % cols) * (tw + GAP);
        double y = GAP + (double)(i / cols) * (th + LABEL + GAP);
        cairo_save(cr);
        cairo_rectangle(cr, x, y, tw, th);
        cairo_clip(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_paint(cr);
        cairo_translate(cr, x, y);
        cairo_scale(cr, k, k);
        paint(c, cr, i, ud);
        cairo_restore(cr);
        cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
        cairo_set_line_width(cr, 1);
        cairo_rectangle(cr, x - 0.5, y - 0.5, tw + 1, th + 1);
        cairo_stroke(cr);
        char num[32];
        snprintf(num, sizeof num, "%zu", i + 1);
        pd_style st = {.size = 11, .bold = 1, .align = PD_ALIGN_CENTER};
        pd_text *t = qr_pdf_text(c, NULL, num, strlen(num), &st, tw, "");
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        if (t && t->n_lines) qr_pv_line(cr, t, 0, x, y + th + 14);
        drop_since(c, keep);
    }
    return qr_pv_png_finish(c, s, cr, out);
}
