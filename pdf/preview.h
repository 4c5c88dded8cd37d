/* preview.h: the PDF and PNG previews of presentations and spreadsheets
 * (never installed; pdf/ only). pdf.c's two backends hand a presentation
 * to slides.c and a spreadsheet to sheet.c; both draw on the same pango
 * context and text layouts (text.c) as documents.
 */
#ifndef QR_PDF_PREVIEW_H
#define QR_PDF_PREVIEW_H

#include "pdf_int.h"

/** Open a render context (geometry from the doc's page, a PangoContext on
 *  this thread's font map); close it with qr_pdf_ctx_close even on failure. */
qr_status qr_pdf_ctx_open(pd_ctx *c, qr_render_ctx *rc, int for_png);
void qr_pdf_ctx_close(pd_ctx *c);

/** A presentation: one page per slide at the slide's size (960 x 540 pt
 *  for 16:9, 720 x 540 pt for 4:3), every shape where the .pptx puts it
 *  (layout/slide_layout.h); with rc->notes, notes pages (540 x 720 pt).
 *  png: draw slide rc->png_page at rc->png_dpi. */
qr_status qr_pdf_slides_render(qr_render_ctx *rc, qr_sink *out, int png);

/** A spreadsheet: each sheet as a printed grid (sheet.c). png: draw page
 *  rc->png_page at rc->png_dpi, laying out only the rows it needs. */
qr_status qr_pdf_sheet_render(qr_render_ctx *rc, qr_sink *out, int png);

/* ---- shared by slides.c and sheet.c (preview.c) ---------------------------------- */

/* A PDF stream to a sink through a 64 KiB buffer. */
typedef struct pv_out {
    qr_sink *sink;
    qr_pdf_dedup dd; /* one key per image in a page's resources (xobjects.c) */
    size_t n;
    unsigned char data[64 * 1024];
} pv_out;

/** A PDF surface of w x h points writing to o (dates from rc->epoch, the
 *  doc's title as metadata). */
cairo_surface_t *qr_pv_pdf_surface(pv_out *o, qr_render_ctx *rc, double w, double h);
/** Is page p (0-based) in rc's page range (every page when none)? */
int qr_pv_in_range(const qr_render_ctx *rc, size_t p);
/** Finish and destroy a PDF surface, flush o; the status (c->status first). */
qr_status qr_pv_pdf_finish(pd_ctx *c, cairo_surface_t *s, pv_out *o);
/** Check page (1-based) against n pages and the pixel size against the
 *  PNG limit; QR_OK or a usage/limit error in rc->errors. */
qr_status qr_pv_png_check(qr_render_ctx *rc, size_t page, size_t n, double w, double h);
/** An RGB image surface for a w x h point page at rc->png_dpi, white,
 *  scaled to points. */
cairo_surface_t *qr_pv_png_surface(qr_render_ctx *rc, double w, double h, cairo_t **cr);
/** Write the image surface as PNG to out and destroy it and cr. */
qr_status qr_pv_png_finish(pd_ctx *c, cairo_surface_t *s, cairo_t *cr, qr_sink *out);
/** Draw line i of t with its baseline at (x + the line's own offset, y). */
void qr_pv_line(cairo_t *cr, const pd_text *t, size_t i, double x, double y);

/* ---- the contact sheet (contact.c) --------------------------------------------------- */

/** Paint page i (0-based) of w x h points on cr, in points. */
typedef void (*pv_paint_fn)(pd_ctx *c, cairo_t *cr, size_t i, void *ud);

/** A PNG of pages [0, n) as numbered thumbnails of a w x h point page, on a
 *  grid at most 2000 px on its long side (at most QR_PV_CONTACT_MAX
 *  pages). Lays out text in c. */
#define QR_PV_CONTACT_MAX 400
#define QR_PV_CONTACT_PAGES 16 /* pages of a document or workbook */
qr_status qr_pv_contact(pd_ctx *c, qr_sink *out, double w, double h, size_t n, pv_paint_fn paint,
                        void *ud);

#endif
