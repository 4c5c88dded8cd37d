/* backends.c: the list of backends. A backend is added by declaring its
 * constant here and putting it in the table; a format without one answers
 * "not built" (exit 3), never a placeholder file.
 *
 * Built twice. In libquire (QUIRE_HAVE_PDF) the PDF and PNG backends are
 * linked in. In the quire CLI (QUIRE_PDF_MODULE) they live in quire-pdf.so,
 * loaded the first time a PDF or PNG is asked for, so that docx, xlsx, pptx
 * and html start without cairo, pango and the two dozen libraries they pull
 * in (about 7 ms of every run). The module is looked for beside the binary
 * (the build tree), then at QUIRE_PDF_MODULE_RELDIR from the binary's folder
 * (an install, wherever its prefix was moved). */
#include "backends.h"

#if defined(QUIRE_PDF_MODULE)
#include <pthread.h>

#include "module.h"
#include "pdf_module.h"

#define MODULE_FILE "quire-pdf.so"

static const qr_backend *const *module_backends; /* {pdf, png}, or NULL */
static char module_error[256];
static pthread_once_t module_once = PTHREAD_ONCE_INIT;

static void module_load(void)
{
    static const qr_stamp mine = QR_PDF_MODULE_STAMP;
    module_backends = (const qr_backend *const *)qr_module_open(
        MODULE_FILE, QUIRE_PDF_MODULE_RELDIR, &mine, "qr_pdf_module_backends", module_error,
        sizeof module_error);
}

const char *qr_backend_error(qr_format f)
{
    if (f != QR_FORMAT_PDF && f != QR_FORMAT_PNG) return "";
    pthread_once(&module_once, module_load);
    return module_error;
}

static const qr_backend *pdf_backend(int png)
{
    pthread_once(&module_once, module_load);
    return module_backends ? module_backends[png] : NULL;
}
#elif defined(QUIRE_HAVE_PDF)
static const qr_backend *pdf_backend(int png)
{
    return png ? &qr_backend_png : &qr_backend_pdf;
}
#else
static const qr_backend *pdf_backend(int png)
{
    (void)png;
    return NULL;
}
#endif
#if !defined(QUIRE_PDF_MODULE)
const char *qr_backend_error(qr_format f)
{
    (void)f;
    return "";
}
#endif

const qr_backend *qr_backend_for(qr_format f)
{
    switch (f) {
    case QR_FORMAT_HTML:
        return &qr_backend_html;
    case QR_FORMAT_DOCX:
        return &qr_backend_docx;
    case QR_FORMAT_XLSX:
        return &qr_backend_xlsx;
    case QR_FORMAT_PPTX:
        return &qr_backend_pptx;
    case QR_FORMAT_PDF:
        return pdf_backend(0);
    case QR_FORMAT_PNG:
        return pdf_backend(1);
    case QR_FORMAT_COUNT:
        break;
    }
    return NULL;
}
