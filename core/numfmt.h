/* numfmt.h: numbers as text, locale-free (numfmt.c). */
#ifndef QR_NUMFMT_H
#define QR_NUMFMT_H

/** Format a double the shortest way that reads back to the same value,
 *  locale-free ("1200.5", "1000", "1e+21", "-0"). buf needs 32 bytes.
 *  Returns the length. Non-finite values give "NaN", "Infinity", "-Infinity". */
int qr_fmt_double(double v, char *buf);

#endif
