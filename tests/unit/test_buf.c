/* test_buf.c: core/buf.c's JSON string escaper, the one canonical JSON, the
 * readers and the CLI's result line share: exact bytes for every control
 * character, quotes and backslashes, UTF-8 kept as it is, and with
 * QR_JSON_SANITIZE DEL escaped and bad bytes replaced by U+FFFD; every
 * output parses back (jansson) to the input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "buf.h"

static char *esc(const char *s, size_t n, int flags)
{
    qr_buf b = {0};
    qr_buf_json_str(&b, s, n, flags);
    assert_false(b.oom);
    return qr_buf_steal(&b, NULL);
}

static void check(const char *in, size_t n, int flags, const char *want)
{
    char *got = esc(in, n, flags);
    assert_string_equal(got, want);
    free(got);
}

static void test_exact_bytes(void **state)
{
    check("", 0, 0, "\"\"");
    check("plain", 5, 0, "\"plain\"");
    check("a\"b\\c/d", 7, 0, "\"a\\\"b\\\\c/d\"");
    check("\n\r\t\b\f", 5, 0, "\"\\n\\r\\t\\b\\f\"");
    check("\x01\x1f\x0b", 3, 0, "\"\\u0001\\u001f\\u000b\"");
    check("x\0y", 3, 0, "\"x\\u0000y\"");
    check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, 0,
          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    check("\x7f", 1, 0, "\"\x7f\"");
    check("\xff\xfe", 2, 0, "\"\xff\xfe\""); /* bytes are copied unless sanitizing */
    /* quotes left off: pieces of one string */
    qr_buf b = {0};
    qr_buf_putc(&b, '"');
    qr_buf_json_chars(&b, "a\"", 2, 0);
    qr_buf_json_chars(&b, "\n", 1, 0);
    qr_buf_putc(&b, '"');
    assert_string_equal(b.data, "\"a\\\"\\n\"");
    qr_buf_free(&b);
}

static void test_sanitize(void **state)
{
    check("ok \xc3\xa9", 5, QR_JSON_SANITIZE, "\"ok \xc3\xa9\"");
    check("\x7f", 1, QR_JSON_SANITIZE, "\"\\u007f\"");
    check("a\xffz", 3, QR_JSON_SANITIZE, "\"a\xef\xbf\xbdz\"");
    check("\xc3", 1, QR_JSON_SANITIZE, "\"\xef\xbf\xbd\""); /* cut sequence */
    check("\xed\xa0\x80", 3, QR_JSON_SANITIZE,
          "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""); /* surrogate */
    check("\t\"", 2, QR_JSON_SANITIZE, "\"\\t\\\"\"");
}

/* Every byte value below 0x80, alone and between letters, parses back to itself. */
static void test_round_trip(void **state)
{
    for (int flags = 0; flags <= QR_JSON_SANITIZE; flags++) {
        for (int c = 0; c < 0x80; c++) {
            char in[3] = {'a', (char)c, 'z'};
            char *got = esc(in, 3, flags);
            json_error_t err;
            json_t *j = json_loads(got, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
            assert_non_null(j);
            assert_int_equal(json_string_length(j), 3);
            assert_memory_equal(json_string_value(j), in, 3);
            json_decref(j);
            free(got);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_bytes),
        cmocka_unit_test(test_sanitize),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
