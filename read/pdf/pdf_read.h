/* pdf_read.h: the PDF reader's interface, kept to plain buffers so that it
 * can live in a module (quire-read-pdf.so) as well as in libquire. */
#ifndef QR_READ_PDF_INT_H
#define QR_READ_PDF_INT_H

#include <stddef.h>

#include "buf.h"
#include "stamp.h"

/** Append the compact JSON of a document spec read from a PDF to b.
 *  Returns 0, or -1 with a message in msg and a hint (static text). */
int qr_rd_pdf_json(const void *data, size_t len, qr_buf *b, char *msg, size_t msgsz,
                   const char **hint);

/* The build stamp of quire-read-pdf.so (core/stamp.h): what crosses is a
 * qr_buf. */
#define QR_READ_PDF_MODULE_STAMP QR_STAMP(sizeof(qr_buf))

#endif
