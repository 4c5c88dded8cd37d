/* entry.c: the names the PDF module (quire-pdf.so) exports: its backends and
 * its build stamp. (The CLI's malloc setting for PDF work is in
 * cli/process.c.)
 *
 * The quire CLI is built without cairo and pango: it loads this module the
 * first time a PDF or PNG is asked for (render/backends.c) and takes the two
 * backends from this table. libquire links the PDF backend directly and does
 * not use the module. */
#include "pdf_module.h"
#include <quire/export.h>

QR_EXPORT const qr_backend *const qr_pdf_module_backends[2] = {&qr_backend_pdf, &qr_backend_png};
/* what the loader checks first (render/module.c) */
QR_EXPORT const qr_stamp qr_module_stamp = QR_PDF_MODULE_STAMP;
