/* load.c: qr_rd_pdf(), the PDF reader as libquire links it (poppler.c
 * called directly) or as the CLI has it (QUIRE_READ_PDF_MODULE: the module
 * quire-read-pdf.so opened on the first PDF, beside the binary or in
 * <libdir>/quire), or absent when poppler-glib was not found at build time. */
#include <stdio.h>
#include <string.h>

#include "../read_int.h"
#include "pdf_read.h"

#if defined(QUIRE_READ_PDF_MODULE)
#include <pthread.h>

#include "module.h"

#define MODULE_FILE "quire-read-pdf.so"

typedef int (*pdf_fn)(const void *, size_t, qr_buf *, char *, size_t, const char **);
static pdf_fn module_fn;
static char module_error[256];
static pthread_once_t module_once = PTHREAD_ONCE_INIT;

static void module_load(void)
{
    static const qr_stamp mine = QR_READ_PDF_MODULE_STAMP;
    module_fn =
        (pdf_fn)qr_module_open(MODULE_FILE, QUIRE_PDF_MODULE_RELDIR, &mine,
                               "qr_read_pdf_module_json", module_error, sizeof module_error);
}
#endif

qr_status qr_rd_pdf(qr_rd *r, const void *data, size_t len)
{
    r->kind = QR_KIND_DOCUMENT;
#if defined(QUIRE_READ_PDF_MODULE)
    pthread_once(&module_once, module_load);
    pdf_fn fn = module_fn;
    if (!fn && *module_error)
        return qr_rd_fail(r, QR_E_UNSUPPORTED, "",
                          "reinstall quire so that the binary and its modules come from one build",
                          "%s", module_error);
    if (!fn)
        return qr_rd_fail(r, QR_E_UNSUPPORTED, "", "install quire with its PDF reading module",
                          "cannot load %s, which reads PDFs", MODULE_FILE);
#elif defined(QUIRE_HAVE_POPPLER)
    int (*fn)(const void *, size_t, qr_buf *, char *, size_t, const char **) = qr_rd_pdf_json;
#else
    (void)data, (void)len;
    return qr_rd_fail(r, QR_E_UNSUPPORTED, "", "rebuild quire with libpoppler-glib-dev installed",
                      "this quire was built without PDF reading (poppler-glib)");
#endif
#if defined(QUIRE_READ_PDF_MODULE) || defined(QUIRE_HAVE_POPPLER)
    char msg[512] = "";
    const char *hint = NULL;
    if (fn(data, len, &r->spec, msg, sizeof msg, &hint) != 0)
        return qr_rd_fail(r, r->spec.oom ? QR_E_NOMEM : QR_E_SPEC, "", hint, "%s",
                          *msg ? msg : "out of memory");
    return QR_OK;
#endif
}
