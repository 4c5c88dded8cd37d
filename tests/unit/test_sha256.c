/* test_sha256.c: SHA-256 against the FIPS 180-2 appendix B vectors, the
 * empty message, and streaming in odd-sized pieces; the whole group runs
 * twice, on the SHA extensions where the CPU has them and on the portable
 * code, and the two compare over pseudo-random data of every length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sha256.h"

static void test_empty(void **state)
{
    char hex[65];
    qr_sha256_hex("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

static void test_abc(void **state)
{
    char hex[65];
    qr_sha256_hex("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_two_blocks(void **state)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char hex[65];
    qr_sha256_hex(m, strlen(m), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_million_a(void **state)
{
    /* One million 'a', fed in pieces of 1, 63, 64, 65 ... bytes. */
    char *m = malloc(1000000);
    memset(m, 'a', 1000000);
    qr_sha256 c;
    qr_sha256_init(&c);
    size_t off = 0, step = 1;
    while (off < 1000000) {
        size_t n = step < 1000000 - off ? step : 1000000 - off;
        qr_sha256_update(&c, m + off, n);
        off += n;
        step = step * 7 % 131 + 1;
    }
    unsigned char d[32];
    char hex[65];
    qr_sha256_final(&c, d);
    qr_sha256_tohex(d, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    qr_sha256_hex(m, 1000000, hex);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(m);
}

static void test_padding_edges(void **state)
{
    /* 55, 56 and 64 bytes hit the padding boundaries; compare with one-shot
     * against byte-by-byte streaming (and known values for 56 'a'). */
    char m[200];
    memset(m, 'a', sizeof m);
    char hex[65], hex2[65];
    qr_sha256_hex(m, 56, hex);
    assert_string_equal(hex, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    for (size_t n = 0; n < sizeof m; n++) {
        qr_sha256 c;
        unsigned char d[32];
        qr_sha256_init(&c);
        for (size_t i = 0; i < n; i++)
            qr_sha256_update(&c, m + i, 1);
        qr_sha256_final(&c, d);
        qr_sha256_tohex(d, hex2);
        qr_sha256_hex(m, n, hex);
        assert_string_equal(hex, hex2);
    }
}

static void test_accel_matches_portable(void **state)
{
    (void)state;
    size_t cap = 70000;
    unsigned char *m = malloc(cap);
    assert_non_null(m);
    uint32_t x = 2463534242u;
    for (size_t i = 0; i < cap; i++) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        m[i] = (unsigned char)x;
    }
    char a[65], b[65];
    for (size_t n = 0; n < cap; n = n < 300 ? n + 1 : n * 3 + 7) {
        qr_sha256_accel(1);
        qr_sha256_hex(m, n, a);
        qr_sha256_accel(0);
        qr_sha256_hex(m, n, b);
        assert_string_equal(a, b);
    }
    qr_sha256_accel(1);
    free(m);
}

static int portable(void **state)
{
    (void)state;
    qr_sha256_accel(0);
    return 0;
}

static int accel(void **state)
{
    (void)state;
    qr_sha256_accel(1);
    return 0;
}

int main(void)
{
    int fails = 0;
    const struct CMUnitTest pair[] = {cmocka_unit_test(test_accel_matches_portable)};
    fails += cmocka_run_group_tests_name("portable vs accelerated", pair, NULL, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),         cmocka_unit_test(test_abc),
        cmocka_unit_test(test_two_blocks),    cmocka_unit_test(test_million_a),
        cmocka_unit_test(test_padding_edges),
    };
    fails += cmocka_run_group_tests_name("portable", tests, portable, NULL);
    fails += cmocka_run_group_tests_name("accelerated", tests, accel, NULL);
    return fails;
}
