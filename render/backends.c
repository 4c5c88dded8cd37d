/* backends.c: the list of backends. A backend is added by declaring its
 * constant here and putting it in the table; a format without one answers
 * "not built" (exit 3), never a placeholder file. */
#include "backends.h"

extern const qr_backend qr_backend_html;
extern const qr_backend qr_backend_docx;
extern const qr_backend qr_backend_xlsx;
extern const qr_backend qr_backend_pptx;
#ifdef QUIRE_HAVE_PDF
extern const qr_backend qr_backend_pdf, qr_backend_png;
#endif

const qr_backend *qr_backend_for(qr_fmt f)
{
    switch (f) {
    case QR_FMT_HTML:
        return &qr_backend_html;
    case QR_FMT_DOCX:
        return &qr_backend_docx;
    case QR_FMT_XLSX:
        return &qr_backend_xlsx;
    case QR_FMT_PPTX:
        return &qr_backend_pptx;
#ifdef QUIRE_HAVE_PDF
    case QR_FMT_PDF:
        return &qr_backend_pdf;
    case QR_FMT_PNG:
        return &qr_backend_png;
#else
    case QR_FMT_PDF:
        return NULL;
    case QR_FMT_PNG:
        return NULL;
#endif
    case QR_FMT_COUNT:
        break;
    }
    return NULL;
}
