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

/** An integer the way snprintf's "%0*llu" (base 10) or "%0*llx" (base 16,
 *  lowercase) writes it, with a "-" first when neg (as "%0*lld" writes a
 *  negative number: the sign, then zeros up to width in all): mag's digits
 *  zero-padded to width characters (0: no padding). Returns the length
 *  snprintf would return, the text cut and ended like snprintf's; -1 when
 *  base is neither 10 nor 16 or width is outside 0..64. */
int qr_fmt_radix(char *buf, size_t n, unsigned long long mag, int neg, unsigned base, int width);

#endif
