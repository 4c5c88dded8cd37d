/* numfmt.c: qr_fmt_double, the shortest decimal that reads back to the
 * same double, printed the way JavaScript's Number.prototype.toString does
 * ("1200.5", "1000", "1e+21", "1e-7", "-0"), independent of the locale.
 *
 * Three paths, fastest first:
 *  1. integers below 2^53: digits of an int64;
 *  2. Clinger's exact fast path: the smallest k <= 17 with m = round(v*10^k)
 *     below 2^53 and m / 10^k == v. Both m and 10^k (k <= 22) are exact
 *     doubles, so the division is correctly rounded and the check is exact:
 *     "m e-k" reads back as v. The smallest k gives the fewest digits;
 *  3. otherwise "%.{p-1}e" for p = 15, 16, 17 (1..17 for subnormals),
 *     keeping the first that strtod reads back. For a normal double at most
 *     one 15-digit decimal lies within half an ulp, so when any decimal of
 *     15 digits or fewer rounds to v, %.14e finds it; so this is shortest.
 *     Both run in the C locale (cnum.h), whatever the host's LC_NUMERIC. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "cnum.h"

static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#define TWO53 9007199254740992.0

/* Write the decimal digits of u (> 0) to buf; return their count. */
static int utoa(uint64_t u, char *buf)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

/* JavaScript's layout of digits d[0..k) with value 0.d * 10^e (so the point
 * sits after e digits). */
static int layout(int neg, const char *d, int k, int e, char *buf)
{
    char *p = buf;
    if (neg) *p++ = '-';
    if (k <= e && e <= 21) {
        memcpy(p, d, (size_t)k);
        p += k;
        for (int i = k; i < e; i++)
            *p++ = '0';
    } else if (0 < e && e <= 21) {
        memcpy(p, d, (size_t)e);
        p += e;
        *p++ = '.';
        memcpy(p, d + e, (size_t)(k - e));
        p += k - e;
    } else if (-6 < e && e <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -e; i++)
            *p++ = '0';
        memcpy(p, d, (size_t)k);
        p += k;
    } else {
        *p++ = d[0];
        if (k > 1) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)(k - 1));
            p += k - 1;
        }
        *p++ = 'e';
        int x = e - 1;
        *p++ = x < 0 ? '-' : '+';
        p += utoa((uint64_t)(x < 0 ? -x : x), p);
    }
    *p = '\0';
    return (int)(p - buf);
}

int qr_fmt_double(double v, char *buf)
{
    if (isnan(v)) return (int)(strcpy(buf, "NaN"), 3);
    if (isinf(v))
        return v < 0 ? (int)(strcpy(buf, "-Infinity"), 9) : (int)(strcpy(buf, "Infinity"), 8);
    int neg = signbit(v) != 0;
    double a = fabs(v);
    if (a == 0) return neg ? (int)(strcpy(buf, "-0"), 2) : (int)(strcpy(buf, "0"), 1);

    char d[32];
    int k, e;
    /* 1. integers */
    if (a < TWO53 && a == floor(a)) {
        k = utoa((uint64_t)a, d);
        return layout(neg, d, k, k, buf);
    }
    /* 2. exact fast path */
    if (a < TWO53) {
        for (int p = 1; p <= 17; p++) {
            double s = a * pow10[p];
            if (s >= TWO53) break;
            double m = floor(s + 0.5);
            if (m / pow10[p] == a) {
                uint64_t u = (uint64_t)m;
                k = utoa(u, d);
                /* strip trailing zeros (m may end in 0 when s rounded up) */
                int z = 0;
                while (k - z > 1 && d[k - 1 - z] == '0')
                    z++;
                e = k - p;
                return layout(neg, d, k - z, e, buf);
            }
        }
    }
    /* 3. printf and read back */
    char tmp[48];
    int start = a < 2.2250738585072014e-308 ? 1 : 15;
    for (int p = start; p <= 17; p++) {
        qr_snprintf_c(tmp, sizeof tmp, "%.*e", p - 1, a);
        if (p < 17 && qr_strtod_c(tmp, NULL) != a) continue;
        /* digits before 'e', skipping the radix character */
        k = 0;
        const char *q = tmp;
        for (; *q && *q != 'e' && *q != 'E'; q++)
            if (*q >= '0' && *q <= '9') d[k++] = *q;
        int x = atoi(q + 1);
        while (k > 1 && d[k - 1] == '0')
            k--;
        return layout(neg, d, k, x + 1, buf);
    }
    return 0; /* not reached: %.16e always reads back */
}
