/* test_json_parse.c: spec/json_parse.c against jansson's own loader.
 * Every valid text must give the values jansson gives (types, key order,
 * numbers bit for bit), whatever size of pieces the reader hands over;
 * every invalid text must fail with the error's place and message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"
#include "json_parse.h"

typedef struct pieces {
    const char *p;
    size_t left, size;
} pieces;

static size_t read_pieces(void *buf, size_t len, void *data)
{
    pieces *s = data;
    size_t n = s->size < len ? s->size : len;
    if (n > s->left) n = s->left;
    memcpy(buf, s->p, n);
    s->p += n;
    s->left -= n;
    return n;
}

static json_t *jansson(const char *text, size_t len)
{
    return json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
}

/* Same values, same types, same key order (dumps compare order). */
static void assert_same(json_t *want, json_t *got)
{
    assert_non_null(got);
    assert_true(json_equal(want, got));
    char *a = json_dumps(want, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    char *b = json_dumps(got, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
    assert_string_equal(a, b);
    free(a);
    free(b);
}

/* Parse text whole and in pieces of 1, 2, 3, 7 and 4096 bytes; each must equal jansson's. */
static void check_valid(const char *text, size_t len)
{
    json_t *want = jansson(text, len);
    if (!want) print_message("jansson rejects: %.*s\n", (int)len, text);
    assert_non_null(want);
    qr_jp_error e;
    json_t *got = qr_jp_loadb(text, len, &e);
    if (!got) print_message("rejected: %s in %.*s\n", e.text, (int)len, text);
    assert_same(want, got);
    json_decref(got);
    static const size_t sizes[] = {1, 2, 3, 7, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        pieces s = {text, len, sizes[i]};
        got = qr_jp_load(read_pieces, &s, &e);
        assert_same(want, got);
        json_decref(got);
    }
    json_decref(want);
}

static void valid(const char *text)
{
    check_valid(text, strlen(text));
}

static void test_values(void **state)
{
    (void)state;
    valid("{}");
    valid("[]");
    valid(" \t\r\n{ \"a\" : [ 1 , 2.5 , -3e2 , true , false , null , \"x\" ] } \n");
    valid("\"top string\"");
    valid("42");
    valid("-0");
    valid("0.0");
    valid("-0.0");
    valid("1E+2");
    valid("1e-2");
    valid("123456789.123456789e-3");
    valid("9223372036854775807");
    valid("-9223372036854775808");
    valid("1e-400"); /* underflow reads as 0 */
    valid("[0.1, 0.2, 0.30000000000000004, 5e-324, 1.7976931348623157e308]");
    valid("{\"b\":1,\"a\":2,\"c\":{\"z\":[],\"y\":{}}}"); /* order kept */
    valid("[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]");
    valid("[\"\\u00e9\\u4e2d\\uD83D\\uDE00\\u0041\"]");
    valid("[\"a\\u0000b\"]"); /* NUL inside a value string */
    valid("[\"caf\xc3\xa9 \xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80\"]");
    valid("[[[[[[[[[[\"deep\"]]]]]]]]]]");
    valid("{\"\":\"empty key\"}");
}

/* A deterministic random document: every kind of value, escapes, long strings. */
static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng = rng * 1103515245u + 12345u;
    return rng >> 8;
}

static void gen(qr_buf *b, int depth)
{
    static const char *const words[] = {"alpha",  "\\u00e9t\\u00e9",  "\xe4\xb8\xad",   "q\\\"t",
                                        "tab\\t", "\xf0\x9f\x98\x80", "\\uD834\\uDD1E", ""};
    switch (depth > 4 ? rnd() % 4 : rnd() % 6) {
    case 0:
        qr_buf_printf(b, "%d", (int)(rnd() % 200000) - 100000);
        break;
    case 1:
        qr_buf_printf(b, "%d.%de%d", (int)(rnd() % 1000) - 500, (int)(rnd() % 1000),
                      (int)(rnd() % 40) - 20);
        break;
    case 2: {
        qr_buf_putc(b, '"');
        int n = (int)(rnd() % 6);
        for (int i = 0; i < n; i++)
            qr_buf_puts(b, words[rnd() % 8]);
        if (rnd() % 10 == 0)
            for (int i = 0; i < 3000; i++)
                qr_buf_putc(b, (char)('a' + i % 26));
        qr_buf_putc(b, '"');
        break;
    }
    case 3:
        qr_buf_puts(b, rnd() % 3 == 0 ? "true" : rnd() % 2 ? "false" : "null");
        break;
    case 4: {
        qr_buf_puts(b, "[ ");
        int n = (int)(rnd() % 6);
        for (int i = 0; i < n; i++) {
            if (i) qr_buf_puts(b, rnd() % 2 ? "," : " ,\n ");
            gen(b, depth + 1);
        }
        qr_buf_putc(b, ']');
        break;
    }
    default: {
        qr_buf_putc(b, '{');
        int n = (int)(rnd() % 6);
        for (int i = 0; i < n; i++) {
            if (i) qr_buf_putc(b, ',');
            qr_buf_printf(b, "\n  \"k%d%s\" :", i, words[rnd() % 8]);
            gen(b, depth + 1);
        }
        qr_buf_putc(b, '}');
    }
    }
}

static void test_random_documents(void **state)
{
    (void)state;
    for (int round = 0; round < 300; round++) {
        qr_buf b = {0};
        qr_buf_putc(&b, '[');
        for (int i = 0; i < 20; i++) {
            if (i) qr_buf_putc(&b, ',');
            gen(&b, 0);
        }
        qr_buf_putc(&b, ']');
        assert_false(b.oom);
        check_valid(b.data, b.len);
        qr_buf_free(&b);
    }
}

/* The text must fail (jansson agrees) with this line, column, message start and kind. */
static void invalid_as(const char *text, size_t len, qr_jp_fail fail, int line, int column,
                       const char *message)
{
    json_t *j = jansson(text, len);
    if (j) print_message("jansson accepts: %.*s\n", (int)len, text);
    assert_null(j);
    static const size_t sizes[] = {0, 1, 3};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        qr_jp_error e;
        json_t *got;
        if (sizes[i] == 0) {
            got = qr_jp_loadb(text, len, &e);
        } else {
            pieces s = {text, len, sizes[i]};
            got = qr_jp_load(read_pieces, &s, &e);
        }
        if (got) print_message("accepted: %.*s\n", (int)len, text);
        assert_null(got);
        if (e.fail != fail || e.line != line || e.column != column ||
            strncmp(e.text, message, strlen(message)) != 0)
            print_message("%.*s: got %d at %d:%d \"%s\"\n", (int)len, text, e.fail, e.line,
                          e.column, e.text);
        assert_int_equal(e.fail, fail);
        assert_int_equal(e.line, line);
        assert_int_equal(e.column, column);
        assert_true(strncmp(e.text, message, strlen(message)) == 0);
    }
}

static void invalid(const char *text, int line, int column, const char *message)
{
    invalid_as(text, strlen(text), QR_JP_SYNTAX, line, column, message);
}

static void test_errors(void **state)
{
    (void)state;
    invalid("", 1, 1, "the text is empty");
    invalid("  \n ", 2, 2, "the text holds no JSON value");
    invalid("{\"blocks\": [],}", 1, 15, "trailing comma before '}'");
    invalid("[1,2,]", 1, 6, "trailing comma before ']'");
    invalid("{\"blocks\": [", 1, 13, "the text ends where a value should be");
    invalid("{'a': 1}", 1, 2, "single quote where a member name should be");
    invalid("{\"a\": 'x'}", 1, 7, "single quote where a value should be");
    invalid("{\"a\": [] /* c */}", 1, 10, "',' or '}' expected after a member, found '/'");
    invalid("[NaN]", 1, 2, "invalid word 'NaN'");
    invalid("[1, Infinity]", 1, 5, "invalid word 'Infinity'");
    invalid("[True]", 1, 2, "invalid word 'True'");
    invalid("{\"a\": 1} x", 1, 10, "text after the end of the JSON value, starting with 'x'");
    invalid("{\"a\": 1,\n \"a\": 2}", 2, 2, "duplicate object key \"a\"");
    invalid("[01]", 1, 2, "invalid number '01'");
    invalid("[1.]", 1, 2, "invalid number '1.'");
    invalid("[.5]", 1, 2, "a value expected, found '.'");
    invalid("[+1]", 1, 2, "a value expected, found '+'");
    invalid("[1e]", 1, 2, "invalid number '1e'");
    invalid("[-]", 1, 2, "invalid number '-'");
    invalid("[9223372036854775808]", 1, 2, "too big integer");
    invalid("[-9223372036854775809]", 1, 2, "too big negative integer");
    invalid("[1e400]", 1, 2, "real number overflow");
    invalid("[\"a\nb\"]", 1, 4, "raw control character U+000A inside a string");
    invalid("[\"a\\x\"]", 1, 5, "invalid escape: backslash before 'x'");
    invalid("[\"\\u12G4\"]", 1, 7, "\\u needs four hex digits");
    invalid("[\"\\uDE00\"]", 1, 9, "lone surrogate \\uDE00");
    invalid("[\"\\uD800x\"]", 1, 10, "lone surrogate \\uD800");
    invalid("[\"\\uD800\\u0041\"]", 1, 15, "lone surrogate \\uD800");
    invalid("[\"open", 1, 7, "the text ends inside a string");
    invalid("{\"a\" 1}", 1, 6, "':' expected after the member name, found '1'");
    invalid("{\"a\":1 \"b\":2}", 1, 8, "',' or '}' expected after a member, found '\"'");
    invalid("[1 2]", 1, 4, "',' or ']' expected after an element, found '2'");
    invalid("{1:2}", 1, 2, "a member name expected, found '1'");
    invalid("[1,2", 1, 5, "',' or ']' expected after an element, found the end of the text");
    invalid_as("{\"a\\u0000\":1}", 13, QR_JP_SYNTAX, 1, 11, "member name with a \\u0000");
    invalid_as("[\x01]", 3, QR_JP_SYNTAX, 1, 2, "a value expected, found 0x01");
}

static void test_depth(void **state)
{
    (void)state;
    size_t n = QR_JP_MAX_DEPTH;
    char *t = malloc(2 * n + 4);
    memset(t, '[', n);
    memset(t + n, ']', n);
    check_valid(t, 2 * n); /* at the limit */
    memset(t, '[', n + 1);
    memset(t + n + 1, ']', n + 1);
    qr_jp_error e;
    assert_null(qr_jp_loadb(t, 2 * n + 2, &e));
    assert_int_equal(e.fail, QR_JP_DEPTH);
    assert_int_equal(e.column, QR_JP_MAX_DEPTH + 1);
    free(t);
}

static size_t read_fails(void *buf, size_t len, void *data)
{
    int *calls = data;
    if ((*calls)++ == 0) {
        memcpy(buf, "[1,", 3);
        return 3;
    }
    (void)len;
    return (size_t)-1;
}

static void test_read_failure(void **state)
{
    (void)state;
    int calls = 0;
    qr_jp_error e;
    assert_null(qr_jp_load(read_fails, &calls, &e));
    assert_int_equal(e.fail, QR_JP_READ);
}

/* ---- the element hook ------------------------------------------------------------- */

/* What the hook took, put back: each element appended to root.sheets[i].rows. */
typedef struct taken {
    json_t *list;      /* [[i, r, element], ...] */
    size_t stop_after; /* 0: never stop */
} taken;

static int take(void *ctx, size_t i, size_t r, json_t *e)
{
    taken *t = ctx;
    json_array_append_new(t->list, json_pack("[IIo]", (json_int_t)i, (json_int_t)r, e));
    return t->stop_after && json_array_size(t->list) == t->stop_after ? -1 : 0;
}

static json_t *put_back(json_t *root, json_t *list)
{
    size_t k;
    json_t *e;
    json_array_foreach(list, k, e)
    {
        size_t i = (size_t)json_integer_value(json_array_get(e, 0));
        size_t r = (size_t)json_integer_value(json_array_get(e, 1));
        json_t *rows = json_object_get(json_array_get(json_object_get(root, "sheets"), i), "rows");
        assert_non_null(rows);
        assert_int_equal(json_array_size(rows), r); /* in order, none skipped */
        json_array_append(rows, json_array_get(e, 2));
    }
    return root;
}

/* Hooked parses in pieces of 1..4096 bytes: the skeleton plus what the hook
 * took is what a plain parse gives; expect_taken elements were taken. */
static void check_hooked(const char *text, size_t len, size_t expect_taken)
{
    json_t *want = jansson(text, len);
    assert_non_null(want);
    static const size_t sizes[] = {1, 2, 3, 5, 64, 4096};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        taken t = {json_array(), 0};
        qr_jp_hook h = {"sheets", "rows", take, &t};
        pieces s = {text, len, sizes[k]};
        qr_jp_error e;
        json_t *got = qr_jp_load_hook(read_pieces, &s, &h, &e);
        if (!got) print_message("rejected: %s\n", e.text);
        assert_non_null(got);
        assert_int_equal(json_array_size(t.list), expect_taken);
        assert_same(want, put_back(got, t.list));
        json_decref(got);
        json_decref(t.list);
    }
    json_decref(want);
}

static void hooked(const char *text, size_t expect_taken)
{
    check_hooked(text, strlen(text), expect_taken);
}

/* Reals through the fast path (json_parse.c's fast_real) and past its edges: bit for bit strtod's.
 */
static void test_reals(void **state)
{
    (void)state;
    valid("[0.1,-0.0,0.0,1e22,1e23,1e-22,1e-23,123456789012345.6,1234567890123456.7,0.000001,"
          "9007199254740993.0,-2.5e-3,5e+2,1E1,0.30000000000000004,1.7976931348623157e308,"
          "4.9e-324,2.2250738585072014e-308,1234.56,-999999999999999e-22,100000000000000000000.5,"
          "0.0000000000000000000000001,123e-5,7e21,7e22,7.0e22,70e21]");
    for (int round = 0; round < 2000; round++) {
        char text[64];
        snprintf(text, sizeof text, "[%u.%0*ue%d]", rnd() % 100000, (int)(rnd() % 9) + 1,
                 rnd() % 100000000u, (int)(rnd() % 60) - 30);
        valid(text);
    }
}

static void test_hook(void **state)
{
    (void)state;
    hooked("{\"sheets\":[{\"rows\":[[1,2],[3],[]]}]}", 3);
    hooked("{\"title\":\"t\",\"sheets\":[{\"name\":\"a\",\"rows\":[[1]]},{\"rows\":[]},"
           "{\"columns\":[\"x\"],\"rows\":[[{\"value\":1,\"format\":\"0\"}],\"s\",null]}],"
           "\"theme\":\"dark\"}",
           4);
    /* other shapes are parsed as usual: nothing taken */
    hooked("[{\"sheets\":[{\"rows\":[[1]]}]}]", 0);
    hooked("{\"sheets\":{\"rows\":[[1]]}}", 0);
    hooked("{\"sheets\":[[{\"rows\":[[1]]}]]}", 0);
    hooked("{\"sheets\":[{\"rows\":{\"a\":[1]}}]}", 0);
    hooked("{\"rows\":[[1]],\"sheet\":[{\"rows\":[[1]]}]}", 0);
    hooked("{\"spec\":{\"sheets\":[{\"rows\":[[1]]}]}}", 0);
    hooked("{\"sheets\":[{\"row\":[[1]],\"rowsx\":[[1]],\"x\":{\"rows\":[[1]]}}]}", 0);
    /* random rows, in a sheet */
    for (int round = 0; round < 100; round++) {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"sheets\":[{\"name\":\"s\",\"rows\":[");
        for (int i = 0; i < 20; i++) {
            if (i) qr_buf_puts(&b, ",\n");
            gen(&b, 0);
        }
        qr_buf_puts(&b, "]},{\"rows\":[[1]]}]}");
        assert_false(b.oom);
        check_hooked(b.data, b.len, 21);
        qr_buf_free(&b);
    }
}

static void test_hook_errors(void **state)
{
    (void)state;
    /* an error after taken rows is the error a plain parse gives */
    const char *text = "{\"sheets\":[{\"rows\":[[1],[2],[3,]]}]}";
    taken t = {json_array(), 0};
    qr_jp_hook h = {"sheets", "rows", take, &t};
    qr_jp_error e, e2;
    assert_null(qr_jp_load_hook(read_pieces, &(pieces){text, strlen(text), 3}, &h, &e));
    assert_null(qr_jp_loadb(text, strlen(text), &e2));
    assert_int_equal(e.fail, QR_JP_SYNTAX);
    assert_string_equal(e.text, e2.text);
    assert_int_equal(e.position, e2.position);
    assert_int_equal(json_array_size(t.list), 2);
    json_decref(t.list);
    /* a duplicate "rows" is still a duplicate */
    text = "{\"sheets\":[{\"rows\":[[1]],\"rows\":[[2]]}]}";
    t.list = json_array();
    assert_null(qr_jp_load_hook(read_pieces, &(pieces){text, strlen(text), 4096}, &h, &e));
    assert_string_equal(e.text, "duplicate object key \"rows\"");
    json_decref(t.list);
    /* the hook stops the parse */
    text = "{\"sheets\":[{\"rows\":[[1],[2],[3]]}]}";
    t = (taken){json_array(), 2};
    assert_null(qr_jp_load_hook(read_pieces, &(pieces){text, strlen(text), 1}, &h, &e));
    assert_int_equal(e.fail, QR_JP_STOP);
    assert_int_equal(json_array_size(t.list), 2);
    json_decref(t.list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),       cmocka_unit_test(test_random_documents),
        cmocka_unit_test(test_errors),       cmocka_unit_test(test_depth),
        cmocka_unit_test(test_read_failure), cmocka_unit_test(test_hook),
        cmocka_unit_test(test_reals),        cmocka_unit_test(test_hook_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
