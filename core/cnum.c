/* cnum.c: locale-free number text (cnum.h), over one C locale object made
 * once per process. */
#define _GNU_SOURCE /* strtod_l, newlocale, uselocale */
#include "cnum.h"

#include <locale.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static locale_t c_locale;
static pthread_once_t c_once = PTHREAD_ONCE_INIT;

static void c_init(void)
{
    c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

int qr_snprintf_c(char *buf, size_t size, const char *fmt, ...)
{
    pthread_once(&c_once, c_init);
    /* without the object (out of memory at the first call) the thread's own
     * locale stays, which is C unless the host changed it */
    locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    if (old) uselocale(old);
    return n;
}

double qr_strtod_c(const char *s, char **end)
{
    pthread_once(&c_once, c_init);
    return c_locale ? strtod_l(s, end, c_locale) : strtod(s, end);
}
