/* backends.h: the backend constants and the table of those built into this
 * library (render/backends.c). Each constant is defined in its backend's
 * folder: html in render/html.c, docx/xlsx/pptx in ooxml/, pdf and png in
 * pdf/pdf.c (linked into libquire, or loaded from quire-pdf.so by the CLI). */
#ifndef QR_BACKENDS_H
#define QR_BACKENDS_H

#include "backend.h"

extern const qr_backend qr_backend_html;
extern const qr_backend qr_backend_docx;
extern const qr_backend qr_backend_xlsx;
extern const qr_backend qr_backend_pptx;
extern const qr_backend qr_backend_pdf;
extern const qr_backend qr_backend_png;

/** The backend for a format, or NULL when this build has none. */
const qr_backend *qr_backend_for(qr_format f);

#endif
