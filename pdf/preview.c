/* preview.c: what the slide and sheet previews share (preview.h): a PDF
 * surface over a buffered sink with deterministic metadata, a PNG page at
 * a resolution with its limits, and drawing one measured text line. */
#include <math.h>
#include <string.h>

#include <cairo-pdf.h>

#include "preview.h"

/* The largest preview we draw: 200 megapixels (as pdf.c). */
#define PV_MAX_PIXELS 200000000.0

static qr_status pv_flush(pv_out *o)
{
    size_t n = o->n;
    o->n = 0;
    return n ? qr_sink_write(o->sink, o->data, n) : o->sink->status;
}

static cairo_status_t pv_put(void *closure, const unsigned char *data, unsigned int len)
{
    pv_out *o = closure;
    if (o->sink->status != QR_OK) return CAIRO_STATUS_WRITE_ERROR;
    if (len > sizeof o->data - o->n) {
        if (pv_flush(o) != QR_OK) return CAIRO_STATUS_WRITE_ERROR;
        if (len >= sizeof o->data)
            return qr_sink_write(o->sink, data, len) == QR_OK ? CAIRO_STATUS_SUCCESS
                                                              : CAIRO_STATUS_WRITE_ERROR;
    }
    memcpy(o->data + o->n, data, len);
    o->n += len;
    return CAIRO_STATUS_SUCCESS;
}

static cairo_status_t pv_write(void *closure, const unsigned char *data, unsigned int len)
{
    pv_out *o = closure;
    return qr_pdf_dedup_write(&o->dd, data, len, pv_put, o);
}

cairo_surface_t *qr_pv_pdf_surface(pv_out *o, qr_render_ctx *rc, double w, double h)
{
    o->n = 0;
    memset(&o->dd, 0, sizeof o->dd);
    cairo_surface_t *s = cairo_pdf_surface_create_for_stream(pv_write, o, w, h);
    char date[32];
    qr_format_epoch(rc->epoch, date, sizeof date);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
    cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "quire");
    const char *title = qr_plain(&rc->doc->title);
    if (*title) {
        size_t n = strlen(title);
        char buf[1024];
        if (n >= sizeof buf) n = sizeof buf - 1;
        while (n && ((unsigned char)title[n] & 0xC0) == 0x80) /* whole characters only */
            n--;
        qr_pdf_clean(buf, title, n);
        buf[n] = '\0';
        cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, buf);
    }
    return s;
}

int qr_pv_in_range(const qr_render_ctx *rc, size_t p)
{
    if (rc->page_first <= 0) return 1;
    return p + 1 >= (size_t)rc->page_first &&
           (rc->page_last <= 0 || p + 1 <= (size_t)rc->page_last);
}

qr_status qr_pv_pdf_finish(pd_ctx *c, cairo_surface_t *s, pv_out *o)
{
    cairo_surface_finish(s);
    qr_pdf_dedup_end(&o->dd, pv_put, o);
    cairo_status_t cs = cairo_surface_status(s);
    cairo_surface_destroy(s);
    pv_flush(o);
    if (c->status != QR_OK) return c->status;
    if (o->sink->status != QR_OK) return c->status = o->sink->status;
    if (cs != CAIRO_STATUS_SUCCESS)
        return qr_pdf_fail(c, cs == CAIRO_STATUS_NO_MEMORY ? QR_E_NOMEM : QR_E_RENDER, "",
                           "cairo failed: %s", cairo_status_to_string(cs));
    return QR_OK;
}

qr_status qr_pv_png_check(qr_render_ctx *rc, size_t page, size_t n, double w, double h)
{
    if (page < 1 || page > n) {
        qr_errlist_addf(rc->errors, QR_E_USAGE, "", "use --page 1 to choose a page that exists",
                        "page %zu is out of range: the document has %zu page%s", page, n,
                        n == 1 ? "" : "s");
        return qr_fail(QR_E_USAGE);
    }
    double sc = (rc->png_dpi > 0 ? rc->png_dpi : 96) / 72.0;
    double wpx = ceil(w * sc - 1e-6), hpx = ceil(h * sc - 1e-6);
    if (wpx > 32767 || hpx > 32767 || wpx * hpx > PV_MAX_PIXELS) {
        qr_errlist_addf(rc->errors, QR_E_LIMIT, "", "lower --dpi",
                        "a %.0f x %.0f pixel page is larger than the PNG limit", wpx, hpx);
        return qr_fail(QR_E_LIMIT);
    }
    return QR_OK;
}

cairo_surface_t *qr_pv_png_surface(qr_render_ctx *rc, double w, double h, cairo_t **cr)
{
    double sc = (rc->png_dpi > 0 ? rc->png_dpi : 96) / 72.0;
    double wpx = ceil(w * sc - 1e-6), hpx = ceil(h * sc - 1e-6);
    if (wpx < 1) wpx = 1;
    if (hpx < 1) hpx = 1;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)wpx, (int)hpx);
    *cr = cairo_create(s);
    cairo_set_source_rgb(*cr, 1, 1, 1);
    cairo_paint(*cr);
    cairo_scale(*cr, sc, sc);
    return s;
}

static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int len)
{
    return qr_sink_write(closure, data, len) == QR_OK ? CAIRO_STATUS_SUCCESS
                                                      : CAIRO_STATUS_WRITE_ERROR;
}

qr_status qr_pv_png_finish(pd_ctx *c, cairo_surface_t *s, cairo_t *cr, qr_sink *out)
{
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    if (cs == CAIRO_STATUS_SUCCESS && c->status == QR_OK)
        cs = cairo_surface_write_to_png_stream(s, png_write, out);
    cairo_surface_destroy(s);
    if (c->status != QR_OK) return c->status;
    if (out->status != QR_OK) return c->status = out->status;
    if (cs != CAIRO_STATUS_SUCCESS)
        return qr_pdf_fail(c, cs == CAIRO_STATUS_NO_MEMORY ? QR_E_NOMEM : QR_E_RENDER, "",
                           "cairo failed: %s", cairo_status_to_string(cs));
    return QR_OK;
}

void qr_pv_line(cairo_t *cr, const pd_text *t, size_t i, double x, double y)
{
    if (!t || i >= t->n_lines) return;
    cairo_move_to(cr, x + t->lines[i].x, y);
    pango_cairo_show_layout_line(cr, t->lines[i].line);
}
