/* test_casefold.c: core/casefold.c, the case folding of sheet names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "casefold.h"

static void test_letters(void **state)
{
    (void)state;
    static const uint32_t pairs[][2] = {
        {'A', 'a'},         {'Z', 'z'},       {0xC9, 0xE9},     {0xDE, 0xFE},     {0x100, 0x101},
        {0x178, 0xFF},      {0x17F, 's'},     {0x1C4, 0x1C6},   {0x1C5, 0x1C6},   {0x1CD, 0x1CE},
        {0x386, 0x3AC},     {0x391, 0x3B1},   {0x3A3, 0x3C3},   {0x3C2, 0x3C3},   {0x401, 0x451},
        {0x414, 0x434},     {0x4C1, 0x4C2},   {0x531, 0x561},   {0x10A0, 0x2D00}, {0x1E9E, 0xDF},
        {0x1EA0, 0x1EA1},   {0x1F08, 0x1F00}, {0x1FFA, 0x1F7C}, {0x2160, 0x2170}, {0xFF21, 0xFF41},
        {0x10400, 0x10428},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        assert_int_equal(qr_casefold(pairs[i][0]), pairs[i][1]);
        assert_int_equal(qr_casefold(pairs[i][1]), pairs[i][1]); /* small letters stay */
    }
    /* not letters, or not cased: unchanged */
    static const uint32_t same[] = {'0', '_', 0xD7, 0xDF, 0x131, 0x3A2, 0x4E00, 0x0627, 0x1F600};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        assert_int_equal(qr_casefold(same[i]), same[i]);
}

static void test_utf8(void **state)
{
    (void)state;
    const char *in = "\xC3\x89t\xC3\xA9 \xCE\xA3\xCE\xBF \xD0\x94"
                     "A";
    char *s = qr_casefold_utf8(in, strlen(in));
    assert_string_equal(s, "\xC3\xA9t\xC3\xA9 \xCF\x83\xCE\xBF \xD0\xB4"
                           "a");
    free(s);
    s = qr_casefold_utf8("A\xFF"
                         "B",
                         3); /* a bad byte is kept */
    assert_memory_equal(s,
                        "a\xFF"
                        "b",
                        4);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_letters), cmocka_unit_test(test_utf8)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
