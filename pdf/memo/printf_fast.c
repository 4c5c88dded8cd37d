/* printf_fast.c: the numbers cairo writes into a PDF page, formatted
 * without glibc's printf machinery (the quire CLI only).
 *
 * cairo 1.16 formats every number of its PDF output with snprintf:
 * "%f", "%.*f" and "%.18f" for coordinates and matrices (_cairo_dtostr),
 * "%d", "%04x", "%0*x", "%010ld" and the like for the rest (its own printf
 * hands each conversion to snprintf).
 * glibc's printf_fp builds a multi-precision number for each: D1's pages
 * made 206,000 such calls, 285 M instructions on the main thread, 5% of the
 * whole render.
 *
 * The executable defines __snprintf_chk() (what cairo's fortified snprintf
 * calls are) and exports it, as shape_memo.c does hb_shape(). While the PDF
 * backend has turned it on for the calling thread (qr_pdf_fast_printf(1)
 * around cairo_show_page() and cairo_surface_finish(), found with dlsym),
 * exactly those three float formats and the integers (d, u, x, with "l",
 * zero-padded to a width or none) go to core/fixed.c, which writes what
 * glibc writes (tests/unit/test_fixed.c compares them over random numbers
 * of every magnitude, every precision and width cairo uses); every other
 * call, thread and format, and a locale whose decimal point is not ".",
 * goes to glibc's __vsnprintf_chk() unchanged.
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

/* An integer conversion of cairo's ("%d", "%ld", "%lu", "%u", "%04x",
 * "%0*x", "%010ld", ...: an optional zero flag with a width or "*", an
 * optional "l", then d, u or x) written by qr_fmt_radix(); -1 for any other
 * format (glibc writes it). */
static int fmt_integer(char *s, size_t maxlen, const char *f, va_list ap)
{
    int zero = 0, width = 0, star = 0, lng = 0;
    if (*f == '0') zero = 1, f++;
    if (*f == '*') {
        star = 1, f++;
    } else {
        while (*f >= '0' && *f <= '9' && width <= 64)
            width = width * 10 + (*f++ - '0');
    }
    if (*f == 'l') lng = 1, f++;
    char conv = *f;
    if ((conv != 'd' && conv != 'u' && conv != 'x') || f[1] != '\0') return -1;
    if (star) width = va_arg(ap, int);
    if (width < 0 || width > 64 || (width && !zero)) return -1; /* spaces, or "-" */
    unsigned long long mag;
    int neg = 0;
    if (conv == 'd') {
        long long v = lng ? va_arg(ap, long) : va_arg(ap, int);
        neg = v < 0;
        mag = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    } else {
        mag = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
    }
    return qr_fmt_radix(s, maxlen, mag, neg, conv == 'x' ? 16 : 10, width);
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
        if (fmt[1] == 'f' && fmt[2] == '\0') {
            r = qr_fmt_fixed(s, maxlen, va_arg(aq, double), 6);
        } else if (fmt[1] == '.') {
            if (strcmp(fmt, "%.*f") == 0) {
                int prec = va_arg(aq, int);
                r = qr_fmt_fixed(s, maxlen, va_arg(aq, double), prec);
            } else if (strcmp(fmt, "%.18f") == 0) {
                r = qr_fmt_fixed(s, maxlen, va_arg(aq, double), 18);
            }
        } else {
            r = fmt_integer(s, maxlen, fmt + 1, aq);
        }
        va_end(aq);
    }
    if (r < 0) r = __vsnprintf_chk(s, maxlen, flag, slen, fmt, ap);
    va_end(ap);
    return r;
}
