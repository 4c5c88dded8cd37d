/* test_chart_ticks.c: axis ticks never overflow (layout/chart.h, issue 37
 * row 12): values at the compiler's bound give nice finite ticks, and
 * numbers past it (a tree built without the compiler) one interval, never a
 * tick count from an overflow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>

#include "chart.h"
#include "tree.h"

static void test_bounds(void **state)
{
    (void)state;
    qr_ticks t;
    qr_chart_ticks(-QR_CHART_MAX_VALUE * 255, QR_CHART_MAX_VALUE * 255, 8, &t);
    assert_true(isfinite(t.lo) && isfinite(t.hi) && isfinite(t.step));
    assert_true(t.n >= 2 && t.n <= 16);
    assert_true(t.lo <= -QR_CHART_MAX_VALUE * 255 && t.hi >= QR_CHART_MAX_VALUE * 255);
    const double odd[][2] = {
        {-9e307, 9e307}, {-DBL_MAX, DBL_MAX}, {0, INFINITY}, {-INFINITY, 0}, {NAN, 1}, {0, NAN}};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        qr_chart_ticks(odd[i][0], odd[i][1], 8, &t);
        assert_true(t.n >= 1 && t.n <= 1000);
        assert_true(isfinite(t.lo) && isfinite(t.hi) && t.hi > t.lo);
    }
    qr_chart_ticks(0, 1430, 8, &t);
    assert_true(t.lo == 0 && t.hi == 1600 && t.step == 200 && t.n == 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_bounds)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
