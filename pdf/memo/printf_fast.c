/* printf_fast.c: the numbers cairo writes into a PDF page, formatted
 * without glibc's printf machinery (the quire CLI only).
 *
 * cairo 1.16 formats every number of its PDF output with snprintf:
 * "%f", "%.*f" and "%.18f" for coordinates and matrices (_cairo_dtostr),
 * "%d" for the rest (its own printf hands each conversion to snprintf).
 * glibc's printf_fp builds a multi-precision number for each: D1's pages
 * made 206,000 such calls, 285 M instructions on the main thread, 5% of the
 * whole render.
 *
 * The executable defines __snprintf_chk() (what cairo's fortified snprintf
 * calls are) and exports it, as shape_memo.c does hb_shape(). While the PDF
 * backend has turned it on for the calling thread (qr_pdf_fast_printf(1)
 * around cairo_show_page() and cairo_surface_finish(), found with dlsym),
 * exactly those four formats go to core/fixed.c, which writes what glibc
 * writes (tests/unit/test_fixed.c compares them over random doubles of every
 * magnitude and every precision cairo uses); every other call, thread and
 * format, and a locale whose decimal point is not ".", goes to glibc's
 * __vsnprintf_chk() unchanged.
 */
#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "fixed.h"

#define QR_WRAP __attribute__((visibility("default")))

int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap);
QR_WRAP int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...);
QR_WRAP void qr_pdf_fast_printf(int on);

static _Thread_local int fast; /* on for this thread, in a "." locale */

/* on: this thread's snprintf calls of cairo's number formats are ours;
 * off: glibc's. */
QR_WRAP void qr_pdf_fast_printf(int on)
{
    const char *dp = on ? localeconv()->decimal_point : NULL;
    fast = on && dp && dp[0] == '.' && dp[1] == '\0';
}

QR_WRAP int __snprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = -1;
    /* maxlen > slen: glibc's own check fails the call, as it must */
    if (fast && maxlen <= slen && fmt[0] == '%') {
        va_list aq;
        va_copy(aq, ap);
        if (strcmp(fmt, "%f") == 0) {
            r = qr_fmt_fixed(s, maxlen, va_arg(aq, double), 6);
        } else if (strcmp(fmt, "%.*f") == 0) {
            int prec = va_arg(aq, int);
            r = qr_fmt_fixed(s, maxlen, va_arg(aq, double), prec);
        } else if (strcmp(fmt, "%.18f") == 0) {
            r = qr_fmt_fixed(s, maxlen, va_arg(aq, double), 18);
        } else if (strcmp(fmt, "%d") == 0) {
            r = qr_fmt_int(s, maxlen, va_arg(aq, int));
        }
        va_end(aq);
    }
    if (r < 0) r = __vsnprintf_chk(s, maxlen, flag, slen, fmt, ap);
    va_end(ap);
    return r;
}
