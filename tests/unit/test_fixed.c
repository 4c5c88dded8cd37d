/* test_fixed.c: qr_fmt_fixed and qr_fmt_int (core/fixed.c) give exactly
 * what glibc's snprintf gives for "%.*f" and "%d": the numbers cairo writes
 * into every PDF page (pdf/memo/printf_fast.c). Random doubles of every
 * magnitude, exact ties (k + 1/2 at each precision), negative zero, cut
 * buffers, and the cases left to snprintf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>

#include <cmocka.h>

#include "fixed.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* v at prec as snprintf and as qr_fmt_fixed, into buffers of n bytes. */
static void same(double v, int prec, size_t n)
{
    char want[512], got[512];
    memset(want, 'x', sizeof want);
    memset(got, 'x', sizeof got);
    int wn = snprintf(want, n, "%.*f", prec, v);
    int gn = qr_fmt_fixed(got, n, v, prec);
    if (gn < 0) return; /* left to snprintf */
    if (wn != gn || memcmp(want, got, n) != 0)
        print_message("%.17g at %d: snprintf \"%s\", qr_fmt_fixed \"%s\"\n", v, prec, want, got);
    assert_int_equal(wn, gn);
    assert_memory_equal(want, got, n);
}

static void test_exact(void **state)
{
    (void)state;
    char b[64];
    assert_int_equal(qr_fmt_fixed(b, sizeof b, 1.5, 6), 8);
    assert_string_equal(b, "1.500000");
    assert_int_equal(qr_fmt_fixed(b, sizeof b, -0.0, 3), 6);
    assert_string_equal(b, "-0.000");
    qr_fmt_fixed(b, sizeof b, 0.5, 0);
    assert_string_equal(b, "0"); /* half to even */
    qr_fmt_fixed(b, sizeof b, 2.5, 0);
    assert_string_equal(b, "2");
    qr_fmt_fixed(b, sizeof b, 3.5, 0);
    assert_string_equal(b, "4");
    qr_fmt_fixed(b, sizeof b, 792, 6);
    assert_string_equal(b, "792.000000");
    /* what snprintf does itself */
    assert_int_equal(qr_fmt_fixed(b, sizeof b, NAN, 6), -1);
    assert_int_equal(qr_fmt_fixed(b, sizeof b, INFINITY, 6), -1);
    assert_int_equal(qr_fmt_fixed(b, sizeof b, 1.0, 19), -1);
    assert_int_equal(qr_fmt_fixed(b, sizeof b, 1e19, 6), -1);
    assert_int_equal(qr_fmt_int(b, sizeof b, INT_MIN), 11);
    assert_string_equal(b, "-2147483648");
}

static void test_ties(void **state)
{
    (void)state;
    /* k / 2^j: exact ties at many precisions */
    for (int j = 1; j <= 30; j++)
        for (int k = -300; k <= 300; k++)
            for (int prec = 0; prec <= 18; prec++)
                same(ldexp((double)k, -j), prec, 64);
    for (int k = 0; k < 2000; k++)
        for (int prec = 0; prec <= 18; prec++)
            same(k + 0.5, prec, 64), same(-(k + 0.5), prec, 64);
}

static void test_random(void **state)
{
    (void)state;
    for (int i = 0; i < 150000; i++) {
        uint64_t bits = next();
        double v;
        memcpy(&v, &bits, sizeof v);
        same(v, (int)(next() % 19), 512);
        /* the magnitudes cairo writes: page coordinates, scales, tiny values */
        double u = (double)(next() >> 11) / 9007199254740992.0;
        int ex = (int)(next() % 90) - 70;
        double w = ldexp(u, ex) * ((next() & 1) ? -1 : 1);
        same(w, 6, 64);
        same(w, 3, 64);
        same(w, 18, 64);
        same(w, (int)(next() % 19), 64);
        same((double)(int64_t)(next() >> 12) / 1024.0, 6, 64);
    }
}

static void test_cut(void **state)
{
    (void)state;
    for (size_t n = 0; n < 12; n++) {
        same(-1234.5678, 6, n);
        same(0.000123, 18, n);
        char want[16], got[16];
        memset(want, 'x', sizeof want);
        memset(got, 'x', sizeof got);
        int wn = snprintf(want, n, "%d", -98765);
        int gn = qr_fmt_int(got, n, -98765);
        assert_int_equal(wn, gn);
        assert_memory_equal(want, got, sizeof want);
    }
}

static void test_int(void **state)
{
    (void)state;
    int edge[] = {0, 1, -1, 9, 10, -10, 99, 100, INT_MAX, INT_MIN, INT_MIN + 1};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++) {
        char want[32], got[32];
        int wn = snprintf(want, sizeof want, "%d", edge[i]);
        assert_int_equal(qr_fmt_int(got, sizeof got, edge[i]), wn);
        assert_string_equal(got, want);
    }
    for (int i = 0; i < 200000; i++) {
        int v = (int)(uint32_t)next();
        if (i & 1) v %= 100000;
        char want[32], got[32];
        int wn = snprintf(want, sizeof want, "%d", v);
        assert_int_equal(qr_fmt_int(got, sizeof got, v), wn);
        assert_string_equal(got, want);
    }
}

/* qr_fmt_radix against the formats cairo's PDF writer hands snprintf. */
static void radix_same(int hex, long long v, int width, size_t n)
{
    char want[96], got[96];
    memset(want, 'x', sizeof want);
    memset(got, 'x', sizeof got);
    int wn, gn;
    if (hex) {
        wn = snprintf(want, n, "%0*llx", width, (unsigned long long)v);
        gn = qr_fmt_radix(got, n, (unsigned long long)v, 0, 16, width);
    } else {
        wn = snprintf(want, n, "%0*lld", width, v);
        unsigned long long mag = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
        gn = qr_fmt_radix(got, n, mag, v < 0, 10, width);
    }
    assert_int_equal(wn, gn);
    assert_memory_equal(want, got, sizeof want);
}

static void test_radix(void **state)
{
    (void)state;
    long long edge[] = {0,       1,       -1,        9,         10,           -10,
                        15,      16,      255,       256,       65535,        65536,
                        INT_MAX, INT_MIN, LLONG_MAX, LLONG_MIN, LLONG_MIN + 1};
    for (size_t i = 0; i < sizeof edge / sizeof *edge; i++)
        for (int w = 0; w <= 24; w++) {
            radix_same(0, edge[i], w, 96);
            if (edge[i] >= 0) radix_same(1, edge[i], w, 96);
        }
    for (int i = 0; i < 200000; i++) {
        long long v = (long long)next();
        if (i & 1) v %= 1000000;
        int w = (int)(next() % 20);
        radix_same(0, v, w, 96);
        radix_same(1, v < 0 ? -(v + 1) : v, w, 96);
    }
    for (size_t n = 0; n < 14; n++) { /* cut buffers */
        radix_same(0, -98765, 10, n);
        radix_same(1, 0xbeef, 8, n);
    }
    char b[8];
    assert_int_equal(qr_fmt_radix(b, sizeof b, 1, 0, 8, 0), -1);
    assert_int_equal(qr_fmt_radix(b, sizeof b, 1, 0, 10, 65), -1);
    assert_int_equal(qr_fmt_radix(b, sizeof b, 1, 0, 10, -1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact), cmocka_unit_test(test_ties), cmocka_unit_test(test_random),
        cmocka_unit_test(test_cut),   cmocka_unit_test(test_int),  cmocka_unit_test(test_radix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
