/* backend.h: the interface between the tree and the backends.
 *
 * A backend turns a compiled qr_doc into bytes written to a qr_sink. It never
 * sees JSON and never parses anything. Each backend is one constant, defined
 * with designated initialisers in its own folder, declared in
 * render/backends.h and listed in render/backends.c:
 *
 *     const qr_backend qr_backend_docx = {
 *         .name = "docx", .format = QR_FORMAT_DOCX, .render = docx_render,
 *     };
 */
#ifndef QR_BACKEND_H
#define QR_BACKEND_H

#include "buf.h"
#include <quire/error.h>
#include "tree.h"

struct qr_fonts;

/* The rows of streamed sheets (tree.h's qr_sheet.streamed), read again
 * from the spec: run() hands each to emit in order (sheet index, the row's
 * index among the spec's rows) and returns QR_OK once the spec has been
 * read whole, or the failure (emit returning -1 stops it). */
typedef int (*qr_row_emit)(void *ctx, size_t sheet, size_t r, const qr_row *row);
typedef struct qr_row_source {
    qr_status (*run)(void *src, qr_row_emit emit, void *ctx);
    void *src;
} qr_row_source;

/* Everything a backend gets besides the tree. */
typedef struct qr_render_ctx {
    const qr_doc *doc;
    struct qr_fonts
        *fonts; /* the font set (qr_fonts_default()); NULL for html and xlsx, which need none */
    qr_errlist *warnings;   /* add warnings here (QR_OK code), e.g. uncovered characters */
    qr_errlist *errors;     /* add render errors here, with the failing block's path */
    qr_layout_list *layout; /* the layout report (spec/report.h): what laying out took */
    int png_page;           /* PNG: 1-based page to render */
    double png_dpi;         /* PNG: resolution */
    int png_contact;        /* PNG: a contact sheet of the pages instead of one (pdf/contact.c) */
    int notes;              /* presentations as PDF/PNG: notes pages (pdf/slides.c) */
    int page_first, page_last; /* previews as PDF: only these pages (1-based); 0, 0: all */
    int pages;                 /* set by the backend: pages, slides or sheets */
    long long epoch;           /* SOURCE_DATE_EPOCH or the constant: the dates written in outputs */
    const qr_row_source *rows_src; /* xlsx: the rows of streamed sheets, or NULL */
    int threads;                   /* qr_render_opts.threads: 0 = the CPUs, 1 = none */
    qr_render_stats *stats;        /* how it ran, for the result */
    /* documents with a table of contents: the 1-based page on which the PDF
     * layout starts each of doc->blocks (docx's cached page numbers), or
     * NULL. The PDF backend fills block_pages_out when it is set (n_blocks
     * entries) and, with layout_only, stops after paginating. The layout
     * report's pages (render.c) come from the same arrays: block_last_out,
     * when set, gets the page each block ends on. */
    const size_t *block_pages;
    size_t *block_pages_out;
    size_t *block_last_out;
    int layout_only;
    /* with layout_only: leave the font map ready for pango all the same
     * (render.c's warm-up before a PDF, which will paint with it) */
    int fonts_ready;
    /* or, while that layout runs on another thread (render.c), a call that
     * waits for it and returns block_pages (NULL when it failed): the docx
     * writes its body meanwhile and asks when the body is done */
    const size_t *(*block_pages_wait)(void *ud);
    void *block_pages_ud;
    /* spreadsheets: the sheets' autofit widths, measured once for the
     * writer, the preview and the layout report (layout/sheet_fit.h), or
     * NULL (each measures its own) */
    struct qr_sheet_fits *sheet_fits;
} qr_render_ctx;

typedef struct qr_backend {
    const char *name; /* "docx" */
    qr_format format; /* the public enum of quire/quire.h (via tree.h) */
    /* Write the whole output to out. Return QR_OK, or a failure status with
     * an error added to ctx->errors. Must not leave anything allocated. */
    qr_status (*render)(qr_render_ctx *ctx, qr_sink *out);
} qr_backend;

/* The fixed timestamp every output carries: SOURCE_DATE_EPOCH when set and
 * valid, else 2026-01-01T00:00:00Z (so the same spec gives the same bytes). */
long long qr_output_epoch(void);

/* Format an epoch as W3CDTF / ISO 8601 UTC: "2026-01-01T00:00:00Z". buf: 21+ bytes. */
void qr_format_epoch(long long epoch, char *buf, size_t size);

/* The backends, each defined in its own folder: html in html/html.c,
 * docx/xlsx/pptx in ooxml/, pdf and png in pdf/pdf.c (linked into
 * libquire, or loaded from quire-pdf.so by the CLI). */
extern const qr_backend qr_backend_html;
extern const qr_backend qr_backend_docx;
extern const qr_backend qr_backend_xlsx;
extern const qr_backend qr_backend_pptx;
extern const qr_backend qr_backend_pdf;
extern const qr_backend qr_backend_png;

#endif
