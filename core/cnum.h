/* cnum.h: printf and strtod for numbers, whatever the process's locale.
 *
 * A host of libquire may call setlocale(LC_ALL, "") in a locale whose
 * decimal separator is a comma; snprintf("%.15G") and strtod() would then
 * write and read "1,5". Every number quire formats or parses as text goes
 * through these instead (or through qr_fmt_double, numfmt.h, built on
 * them), so outputs are the same bytes in every locale. Thread-safe: the
 * C locale is switched per thread (uselocale) for the call only. */
#ifndef QR_CNUM_H
#define QR_CNUM_H

#include <stddef.h>

/** snprintf in the C locale. */
int qr_snprintf_c(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** strtod in the C locale. */
double qr_strtod_c(const char *s, char **end);

#endif
