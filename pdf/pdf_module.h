/* pdf_module.h: the build stamp of quire-pdf.so (core/stamp.h), computed
 * alike by the module (pdf/module/entry.c) and by the CLI's backend table
 * (render/backends.c) that loads it: the size of every struct the CLI hands
 * the PDF backend (the context, the tree, the font set, the error list). */
#ifndef QR_PDF_MODULE_H
#define QR_PDF_MODULE_H

#include "backend.h"
#include "fonts_int.h"
#include "stamp.h"

#define QR_PDF_MODULE_STAMP                                                                        \
    QR_STAMP(sizeof(qr_backend), sizeof(qr_render_ctx), sizeof(qr_doc), sizeof(qr_block),          \
             sizeof(qr_text), sizeof(qr_run), sizeof(qr_item), sizeof(qr_table), sizeof(qr_tcell), \
             sizeof(qr_image), sizeof(qr_chart), sizeof(qr_series), sizeof(qr_slide),              \
             sizeof(qr_sheet), sizeof(qr_row), sizeof(qr_cell), sizeof(qr_page),                   \
             sizeof(struct qr_fonts), sizeof(qr_errlist), sizeof(qr_error), sizeof(qr_sink),       \
             sizeof(qr_buf), sizeof(qr_row_source))

#endif
