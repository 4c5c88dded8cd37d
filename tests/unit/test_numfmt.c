/* test_numfmt.c: qr_fmt_double (core/numfmt.c). Exact strings for the
 * JavaScript-style layout, and round trips of special and random doubles:
 * strtod(qr_fmt_double(x)) == x, with no more significant digits than the
 * shortest %.{1..17}g that reads back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "compile.h"

static void expect(double v, const char *want)
{
    char buf[32];
    int n = qr_fmt_double(v, buf);
    if (strcmp(buf, want) != 0) print_message("%.17g -> \"%s\", wanted \"%s\"\n", v, buf, want);
    assert_string_equal(buf, want);
    assert_int_equal(n, (int)strlen(want));
}

static void test_exact(void **state)
{
    expect(0.0, "0");
    expect(-0.0, "-0");
    expect(1, "1");
    expect(-1, "-1");
    expect(1000, "1000");
    expect(1200.5, "1200.5");
    expect(-1200.5, "-1200.5");
    expect(0.1, "0.1");
    expect(0.2, "0.2");
    expect(0.1 + 0.2, "0.30000000000000004");
    expect(1.0 / 3, "0.3333333333333333");
    expect(2.0 / 3, "0.6666666666666666");
    expect(3.14, "3.14");
    expect(1234.5678, "1234.5678");
    expect(0.000123, "0.000123");
    expect(1e-6, "0.000001");
    expect(1.5e-6, "0.0000015");
    expect(1e-7, "1e-7");
    expect(1.23e-7, "1.23e-7");
    expect(5e-324, "5e-324");
    expect(2.2250738585072014e-308, "2.2250738585072014e-308");
    expect(1.7976931348623157e308, "1.7976931348623157e+308");
    expect(1.5e300, "1.5e+300");
    expect(1e21, "1e+21");
    expect(1.5e21, "1.5e+21");
    expect(1e20, "100000000000000000000");
    expect(123456789012345680000.0, "123456789012345680000");
    expect(9007199254740992.0, "9007199254740992");
    expect(9007199254740993.0, "9007199254740992");
    expect(9007199254740994.0, "9007199254740994");
    expect(-9007199254740992.0, "-9007199254740992");
    expect(9223372036854775808.0, "9223372036854776000");
    expect(4503599627370495.5, "4503599627370495.5");
    expect(0.1 * 3, "0.30000000000000004");
    expect(100.0 / 3, "33.333333333333336");
    expect(1e15 + 0.3, "1000000000000000.2");
    expect(123.456, "123.456");
    expect(1e-5, "0.00001");
    expect(12.5e-3, "0.0125");
    expect(NAN, "NaN");
    expect(INFINITY, "Infinity");
    expect(-INFINITY, "-Infinity");
}

/* The fewest significant digits printf can read back with. */
static int shortest_printf_digits(double v)
{
    char buf[64];
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        if (strtod(buf, NULL) == v) return p;
    }
    return 17;
}

static int sig_digits(const char *s)
{
    /* digits of the mantissa without leading or trailing zeros */
    char d[40];
    int k = 0;
    for (const char *p = s; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') d[k++] = *p;
    int a = 0;
    while (a < k && d[a] == '0')
        a++;
    while (k > a && d[k - 1] == '0')
        k--;
    return k - a;
}

static void round_trip(double v)
{
    char buf[32];
    int n = qr_fmt_double(v, buf);
    assert_true(n > 0 && n < 32);
    assert_int_equal((size_t)n, strlen(buf));
    double back = strtod(buf, NULL);
    if (memcmp(&back, &v, sizeof v) != 0) {
        print_message("%.17g -> \"%s\" -> %.17g\n", v, buf, back);
        fail();
    }
    int mine = sig_digits(buf), best = shortest_printf_digits(fabs(v));
    if (v != 0 && mine > best) {
        print_message("%.17g -> \"%s\": %d digits, printf needs %d\n", v, buf, mine, best);
        fail();
    }
    /* JavaScript layout: exponent only for |v| >= 1e21 or < 1e-6 */
    int has_e = strchr(buf, 'e') != NULL;
    double a = fabs(v);
    if (a != 0) assert_int_equal(has_e, a >= 1e21 || a < 1e-6);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void test_round_trip_special(void **state)
{
    const double vs[] = {0.1,
                         0.2,
                         0.3,
                         1e21,
                         1e-7,
                         5e-324,
                         1e-323,
                         4.9406564584124654e-324,
                         2.2250738585072009e-308,
                         2.2250738585072014e-308,
                         1.7976931348623157e308,
                         9007199254740992.0,
                         9007199254740991.0,
                         -0.0,
                         0.0,
                         1200.5,
                         0.30000000000000004,
                         123456789.123456789,
                         1e22,
                         1e23,
                         5e-7,
                         999999999999999999999.0,
                         0.000001,
                         0.0000009999999999999999,
                         1.0000000000000002,
                         0.9999999999999999,
                         4294967296.0,
                         18446744073709551616.0,
                         1e308,
                         1e-308,
                         3.0e-310};
    for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) {
        round_trip(vs[i]);
        round_trip(-vs[i]);
    }
}

static void test_round_trip_random(void **state)
{
    /* random bit patterns: every exponent range */
    for (int i = 0; i < 40000; i++) {
        uint64_t bits = next();
        double v;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v)) continue;
        round_trip(v);
    }
    /* "human" numbers: few decimals, the fast path */
    for (int i = 0; i < 40000; i++) {
        int dec = (int)(next() % 8);
        double v = (double)(int64_t)(next() % 2000000001ull - 1000000000) / pow(10, dec);
        round_trip(v);
    }
    /* uniform doubles in [0, 1) and scaled */
    for (int i = 0; i < 20000; i++) {
        double v = (double)(next() >> 11) / 9007199254740992.0;
        round_trip(v);
        round_trip(v * 1e10);
        round_trip(v * 1e-10);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_round_trip_special),
        cmocka_unit_test(test_round_trip_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
