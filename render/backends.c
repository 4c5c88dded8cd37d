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
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MODULE_FILE "quire-pdf.so"

static const qr_backend *const *module_backends; /* {pdf, png}, or NULL */
static pthread_once_t module_once = PTHREAD_ONCE_INIT;

static void *open_in(const char *dir, int dir_len, const char *sub)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s/%s" MODULE_FILE, dir_len, dir, sub);
    if (n < 0 || (size_t)n >= sizeof path) return NULL;
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

static void module_load(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    const char *slash = strrchr(exe, '/');
    if (!slash) return;
    int dir_len = (int)(slash - exe);
    void *h = open_in(exe, dir_len, "");
    if (!h) h = open_in(exe, dir_len, QUIRE_PDF_MODULE_RELDIR "/");
    if (h) module_backends = (const qr_backend *const *)dlsym(h, "qr_pdf_module_backends");
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
