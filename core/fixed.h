/* fixed.h: printf's "%.Nf" and "%d" without printf (fixed.c). */
#ifndef QR_FIXED_H
#define QR_FIXED_H

#include <stddef.h>

/** The text snprintf(buf, n, "%.*f", prec, v) writes in the C locale (with
 *  the default rounding mode), exactly: v rounded half to even on its exact
 *  binary value, "-" for a negative v (also "-0.000"). Returns the length
 *  snprintf would return (the text is cut to n - 1 bytes and ended like
 *  snprintf's), or -1 when this function does not handle v and prec
 *  (prec outside 0..18, v not finite, |v| >= 2^63): then call snprintf. */
int qr_fmt_fixed(char *buf, size_t n, double v, int prec);

/** snprintf(buf, n, "%d", v): the length snprintf would return. */
int qr_fmt_int(char *buf, size_t n, int v);

#endif
