/* test_cellfmt.c: number formats as displayed (layout/cellfmt.h), against
 * what Excel shows for the same value and format. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cellfmt.h"

static const struct {
    const char *fmt;
    double v;
    const char *want;
} cases[] = {
    {"General", 1200.5, "1200.5"},
    {"General", 1000, "1000"},
    {"General", 0.1 + 0.2, "0.3"},
    {"General", 1e21, "1E+21"},
    {"General", 5e-324, "5E-324"},
    {"General", 9007199254740991.0, "9.0072E+15"},
    {"General", 1e-7, "0.0000001"},
    {"General", -5, "-5"},
    {NULL, 3.14, "3.14"},
    {"0", 2.5, "3"},
    {"0", -2.5, "-3"},
    {"0.00", 3.14159, "3.14"},
    {"0.00", -0.001, "0.00"},
    {"#,##0", 1234567, "1,234,567"},
    {"#,##0", -1234.5, "-1,235"},
    {"#,##0.00", 1234.5, "1,234.50"},
    {"#,##0.00", 0.5, "0.50"},
    {"#.00", 0.5, ".50"},
    {"0.0%", 0.25, "25.0%"},
    {"0%", 0.125, "13%"},
    {"0.00E+00", 0.000123, "1.23E-04"},
    {"0.00E+00", 123456, "1.23E+05"},
    {"$#,##0.00", 1234.5, "$1,234.50"},
    {"#,##0;(#,##0)", -1234, "(1,234)"},
    {"#,##0.00;[Red](#,##0.00)", -5, "(5.00)"},
    {"$#,##0_);($#,##0)", -42, "($42)"},
    {"$#,##0_);($#,##0)", 42, "$42 "},
    {"0.00;-0.00;\"zero\"", 0, "zero"},
    {"\"USD \"#,##0", 1500, "USD 1,500"},
    {"[$\xE2\x82\xAC-407] #,##0.00", 12.5, "\xE2\x82\xAC 12.50"},
    {"#,##0,\"K\"", 1500000, "1,500K"},
    {"00000", 123, "00123"},
    {"yyyy-mm-dd", 46356, "2026-11-30"},
    {"dd/mm/yyyy", 45351, "29/02/2024"},
    {"yyyy-mm-dd hh:mm:ss", 46356.573263888889, "2026-11-30 13:45:30"},
    {"d mmm yyyy", 46356, "30 Nov 2026"},
    {"mmmm d, yyyy", 46356, "November 30, 2026"},
    {"dddd", 46356, "Monday"},
    {"h:mm AM/PM", 0.75, "6:00 PM"},
    {"m/d/yy", 60, "2/29/00"},
    {"hh:mm", 0.5, "12:00"},
    /* fractions (issue 36: "# ?/?" of 1.75 showed "02") */
    {"# ?/?", 1.75, "1 3/4"},
    {"# ?/?", -1.75, "-1 3/4"},
    {"# ?/?", 0.5, " 1/2"},
    {"# ?/?", 2, "2    "},
    {"# ?\?/?\?", 3.14159, "3 14/99"}, /* "?\?": not a trigraph */
    {"?/?", 1.75, "7/4"},
    {"?/8", 1.75, "14/8"},
    {"# ?/8", 0.26, " 2/8"},
    {"# ?/4", 1.99, "2    "},
    {"0 ?/?", 0.25, "0 1/4"},
    /* finance models' formats (tests/sheets/test_finance_model.py): a
     * multiple's unquoted x, the accounting format's '?' places (spaces
     * where a digit would be an insignificant zero; its fill is nothing) */
    {"0.0x", 12.345, "12.3x"},
    {"0.0\"x\"", 12.345, "12.3x"},
    {"#,##0.0,,\" M\"", 1234567.891, "1.2 M"},
    {"_($* #,##0_);_($* (#,##0);_($* \"-\"?\?_);_(@_)", 0, " $-   "},
    {"_($* #,##0_);_($* (#,##0);_($* \"-\"?\?_);_(@_)", -98765.4, " $(98,765)"},
    {"0.0?", 1.5, "1.5 "},
    {"0.0?", 1.25, "1.25"},
    {"?.00", 0.5, " .50"},
    {"?\?0", 5, "  5"},
    {"?0", 5, " 5"},
    {"0?", 5, "05"},
    /* a colour section's text is its text */
    {"[Red]0.00", 1.5, "1.50"},
    {"0;[Red]-0", -3, "-3"},
};

static void test_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        qr_cellfmt_number(cases[i].fmt, cases[i].v, buf, sizeof buf);
        if (strcmp(buf, cases[i].want) != 0)
            fail_msg("format %s of %.17g: got \"%s\", want \"%s\"",
                     cases[i].fmt ? cases[i].fmt : "NULL", cases[i].v, buf, cases[i].want);
    }
}

/* The largest double under "#,##0": 309 digits and 102 commas, whole
 * (the digits were once gathered in a 400-byte buffer). */
static void test_huge(void **state)
{
    (void)state;
    char buf[1024];
    size_t n = qr_cellfmt_number("#,##0", 1.7976931348623157e308, buf, sizeof buf);
    assert_int_equal(n, 309 + 102);
    assert_int_equal(strncmp(buf, "179,769,313,486,231,57", 22), 0);
    n = qr_cellfmt_number("?\?#,##0.0?", 1e308, buf, sizeof buf);
    assert_true(n > 411);
}

/* Where a fill goes: the accounting format's "$* " fills after the $. */
static void test_fill(void **state)
{
    (void)state;
    char buf[64], ch = 'z';
    size_t at = 0;
    const char *acct = "_($* #,##0_);_($* (#,##0);_($* \"-\"?\?_);_(@_)";
    qr_cellfmt_number_fill(acct, 1234.4, buf, sizeof buf, &at, &ch);
    assert_string_equal(buf, " $1,234 ");
    assert_int_equal(at, 2);
    assert_int_equal(ch, ' ');
    qr_cellfmt_number_fill(acct, -5, buf, sizeof buf, &at, &ch);
    assert_string_equal(buf, " $(5)");
    assert_int_equal(at, 2);
    qr_cellfmt_number_fill("0.00*-", 1.5, buf, sizeof buf, &at, &ch);
    assert_string_equal(buf, "1.50");
    assert_int_equal(at, 4);
    assert_int_equal(ch, '-');
    qr_cellfmt_number_fill("#,##0", 1.5, buf, sizeof buf, &at, &ch);
    assert_true(at == (size_t)-1);
    qr_cellfmt_number_fill("General", 1.5, buf, sizeof buf, &at, &ch);
    assert_true(at == (size_t)-1);
    qr_cellfmt_number_fill("**0", 7, buf, sizeof buf, &at, &ch); /* a fill of '*' */
    assert_string_equal(buf, "7");
    assert_int_equal(at, 0);
    assert_int_equal(ch, '*');
}

static void test_colors(void **state)
{
    (void)state;
    uint32_t c = 7;
    assert_int_equal(qr_cellfmt_color("#,##0.00;[Red](#,##0.00)", -5, &c), 1);
    assert_int_equal(c, 0xFF0000);
    assert_int_equal(qr_cellfmt_color("#,##0.00;[Red](#,##0.00)", 5, &c), 0);
    assert_int_equal(qr_cellfmt_color("[Blue]0;[Red]-0;[Green]0", 0, &c), 1);
    assert_int_equal(c, 0x00FF00);
    assert_int_equal(qr_cellfmt_color("[color3]0", 1, &c), 1);
    assert_int_equal(c, 0xFF0000);
    assert_int_equal(qr_cellfmt_color("[$\xE2\x82\xAC-407] 0", 1, &c), 0);
    assert_int_equal(qr_cellfmt_color("\"[Red]\"0", 1, &c), 0);
    assert_int_equal(qr_cellfmt_color(NULL, 1, &c), 0);
}

static void test_is_date(void **state)
{
    (void)state;
    assert_true(qr_cellfmt_is_date("yyyy-mm-dd"));
    assert_true(qr_cellfmt_is_date("h:mm"));
    assert_false(qr_cellfmt_is_date("0.00E+00"));
    assert_false(qr_cellfmt_is_date("\"days\" 0"));
    assert_false(qr_cellfmt_is_date("General"));
    assert_false(qr_cellfmt_is_date("[Red]#,##0"));
}

static void test_small_buffer(void **state)
{
    (void)state;
    char buf[4];
    size_t n = qr_cellfmt_number("#,##0.00", 1234567.5, buf, sizeof buf);
    assert_int_equal(n, 3);
    assert_string_equal(buf, "1,2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),  cmocka_unit_test(test_huge),
        cmocka_unit_test(test_fill),   cmocka_unit_test(test_is_date),
        cmocka_unit_test(test_colors), cmocka_unit_test(test_small_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
