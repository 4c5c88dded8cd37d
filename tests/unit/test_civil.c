/* test_civil.c: core/civil.c, the one day-count <-> date conversion the
 * formula engine, the cell formats and the readers share: known dates,
 * Excel's epoch, leap rules, and a round trip over ±2000 years of days. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "civil.h"

static void test_known_dates(void **state)
{
    assert_int_equal(qr_days_from_civil(1970, 1, 1), 0);
    assert_int_equal(qr_days_from_civil(1969, 12, 31), -1);
    assert_int_equal(qr_days_from_civil(2000, 3, 1), 11017);
    assert_int_equal(qr_days_from_civil(1899, 12, 30), QR_EXCEL_EPOCH);
    assert_int_equal(qr_days_from_civil(1900, 3, 1) - QR_EXCEL_EPOCH, 61); /* Excel serial 61 */
    assert_int_equal(qr_days_from_civil(2026, 12, 1) - QR_EXCEL_EPOCH, 46357);
    assert_int_equal(qr_days_from_civil(2000, 3, 1) - qr_days_from_civil(2000, 2, 28), 2);
    assert_int_equal(qr_days_from_civil(1900, 3, 1) - qr_days_from_civil(1900, 2, 28), 1);
    long long y;
    unsigned m, d;
    qr_civil_from_days(QR_EXCEL_EPOCH + 2958465, &y, &m, &d); /* Excel's last day */
    assert_int_equal(y, 9999);
    assert_int_equal(m, 12);
    assert_int_equal(d, 31);
    qr_civil_from_days(-719468, &y, &m, &d);
    assert_int_equal(y, 0);
    assert_int_equal(m, 3);
    assert_int_equal(d, 1);
}

static void test_round_trip(void **state)
{
    long long py = 0;
    unsigned pm = 0, pd = 0;
    for (long long z = -730000; z <= 730000; z++) {
        long long y;
        unsigned m, d;
        qr_civil_from_days(z, &y, &m, &d);
        assert_true(m >= 1 && m <= 12 && d >= 1 && d <= 31);
        assert_int_equal(qr_days_from_civil(y, m, d), z);
        if (z > -730000) /* the next day: d + 1, or the 1st of the next month */
            assert_true(
                (y == py && m == pm && d == pd + 1) ||
                (d == 1 && ((y == py && m == pm + 1) || (y == py + 1 && m == 1 && pm == 12))));
        py = y, pm = m, pd = d;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_dates),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
