/* entry.c: the one name the PDF module (quire-pdf.so) exports.
 *
 * The quire CLI is built without cairo and pango: it loads this module the
 * first time a PDF or PNG is asked for (render/backends.c) and takes the two
 * backends from this table. libquire links the PDF backend directly and does
 * not use the module. */
#include "backends.h"
#include <quire/export.h>

QR_EXPORT const qr_backend *const qr_pdf_module_backends[2] = {&qr_backend_pdf, &qr_backend_png};
