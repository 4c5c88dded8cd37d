/* entry.c: the one name the PDF module (quire-pdf.so) exports, and the
 * CLI's malloc setting for PDF work.
 *
 * The quire CLI is built without cairo and pango: it loads this module the
 * first time a PDF or PNG is asked for (render/backends.c) and takes the two
 * backends from this table. libquire links the PDF backend directly and does
 * not use the module. */
#include <malloc.h>

#include "backend.h"
#include <quire/export.h>

QR_EXPORT const qr_backend *const qr_pdf_module_backends[2] = {&qr_backend_pdf, &qr_backend_png};

/* cairo subsets a CFF font (Noto Sans CJK) from a copy of its whole CFF
 * table, 19-20 MB, taken once when a face is first drawn and again when the
 * PDF is finished. The CLI's mallopt() calls (cli/cli.c) turn glibc's
 * sliding mmap threshold off, so each copy was a fresh mmap of 5,000
 * zeroed pages: M1 took 58,000 page faults. With the threshold above those
 * sizes the copies reuse the heap: 19,000 faults, about a tenth of M1's CPU
 * time; peak RSS 187 -> 198 MB. Set when the module loads, so only a
 * process that renders a PDF or PNG has it. */
__attribute__((constructor)) static void pdf_malloc(void)
{
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
}
