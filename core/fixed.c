/* fixed.c: "%.Nf", "%d" and zero-padded "%x", "%u", "%ld" the way glibc's printf writes them,
 * without printf's general machinery (fixed.h).
 *
 * cairo writes every number of a PDF page through snprintf ("%f", "%.*f",
 * "%.18f", "%d"); glibc's printf_fp turns the double into a multi-precision
 * number for each. Here v = m * 2^e (m < 2^53) is exact: v * 10^prec is
 * m * 10^prec (below 2^113) shifted right by -e in 128-bit integers, the
 * bits shifted out decide the rounding (half to even on the exact value, as
 * glibc does in the default rounding mode), and the quotient and remainder
 * by 10^prec are the integer and fraction digits. Anything else (prec above
 * 18, |v| >= 2^63, NaN, infinities) is left to snprintf (-1).
 */
#include "fixed.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const uint64_t p10[19] = {1ULL,
                                 10ULL,
                                 100ULL,
                                 1000ULL,
                                 10000ULL,
                                 100000ULL,
                                 1000000ULL,
                                 10000000ULL,
                                 100000000ULL,
                                 1000000000ULL,
                                 10000000000ULL,
                                 100000000000ULL,
                                 1000000000000ULL,
                                 10000000000000ULL,
                                 100000000000000ULL,
                                 1000000000000000ULL,
                                 10000000000000000ULL,
                                 100000000000000000ULL,
                                 1000000000000000000ULL};

/* Copy len bytes of text into buf as snprintf would (cut to n - 1, ended
 * with NUL when n > 0); returns len. */
static int put(char *buf, size_t n, const char *text, size_t len)
{
    if (n) {
        size_t k = len < n - 1 ? len : n - 1;
        memcpy(buf, text, k);
        buf[k] = '\0';
    }
    return (int)len;
}

/* The decimal digits of v, most significant first, at end (backwards);
 * returns where they start. */
static char *digits(char *end, unsigned __int128 v)
{
    do {
        *--end = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    return end;
}

int qr_fmt_fixed(char *buf, size_t n, double v, int prec)
{
    if (prec < 0 || prec > 18 || !isfinite(v)) return -1;
    int neg = signbit(v) != 0;
    double x = fabs(v);
    if (x >= 9223372036854775808.0) return -1; /* 2^63 */
    uint64_t P = p10[prec];
    unsigned __int128 q; /* round(x * 10^prec) */
    if (x == 0) {
        q = 0;
    } else {
        int e;
        double f = frexp(x, &e); /* x = f * 2^e, f in [0.5, 1) */
        uint64_t m = (uint64_t)ldexp(f, 53);
        e -= 53; /* x = m * 2^e exactly */
        unsigned __int128 prod = (unsigned __int128)m * P;
        if (e >= 0) {
            q = prod << e; /* x < 2^63: below 2^123 */
        } else if (-e >= 120) {
            q = 0; /* x * 10^prec < 2^113 / 2^120: below a half */
        } else {
            int s = -e;
            q = prod >> s;
            unsigned __int128 r = prod & (((unsigned __int128)1 << s) - 1);
            unsigned __int128 half = (unsigned __int128)1 << (s - 1);
            if (r > half || (r == half && (q & 1))) q++;
        }
    }
    char tmp[64], *end = tmp + sizeof tmp;
    char *p = end;
    if (prec) {
        uint64_t frac = (uint64_t)(q % P);
        for (int i = 0; i < prec; i++) {
            *--p = (char)('0' + (int)(frac % 10));
            frac /= 10;
        }
        *--p = '.';
    }
    p = digits(p, q / P);
    if (neg) *--p = '-';
    return put(buf, n, p, (size_t)(end - p));
}

int qr_fmt_radix(char *buf, size_t n, unsigned long long mag, int neg, unsigned base, int width)
{
    if ((base != 10 && base != 16) || width < 0 || width > 64) return -1;
    char tmp[96], *end = tmp + sizeof tmp, *p = end;
    do {
        *--p = "0123456789abcdef"[mag % base];
        mag /= base;
    } while (mag);
    while (end - p + neg < width)
        *--p = '0';
    if (neg) *--p = '-';
    return put(buf, n, p, (size_t)(end - p));
}

int qr_fmt_int(char *buf, size_t n, int v)
{
    char tmp[16], *end = tmp + sizeof tmp;
    long long w = v;
    char *p = digits(end, (unsigned __int128)(w < 0 ? -w : w));
    if (w < 0) *--p = '-';
    return put(buf, n, p, (size_t)(end - p));
}
