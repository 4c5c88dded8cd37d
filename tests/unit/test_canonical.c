/* test_canonical.c: canonical JSON (spec/canonical.c) and qr_kind_guess.
 * Exact output for each kind's shape, idempotence, number and string forms,
 * and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile.h"

static char *canon(const char *in)
{
    qr_buf b = {0};
    qr_errlist e = {0};
    qr_status st = qr_canonical(in, strlen(in), &b, &e);
    if (st != QR_OK)
        for (size_t i = 0; i < e.count; i++)
            print_message("%s\n", e.items[i].message);
    assert_int_equal(st, QR_OK);
    assert_int_equal(e.count, 0);
    qr_errlist_clear(&e);
    /* idempotent */
    qr_buf b2 = {0};
    assert_int_equal(qr_canonical(b.data, b.len, &b2, &e), QR_OK);
    if (strcmp(b.data, b2.data) != 0)
        print_message("not idempotent:\n%s\n---\n%s\n", b.data, b2.data);
    assert_string_equal(b.data, b2.data);
    qr_buf_free(&b2);
    return b.data;
}

static void expect(const char *in, const char *want)
{
    char *out = canon(in);
    if (strcmp(out, want) != 0) print_message("got:\n%s\nwanted:\n%s\n", out, want);
    assert_string_equal(out, want);
    free(out);
}

static void test_document(void **state)
{
    expect(
        "{\"blocks\":[{\"text\":\"Fees\",\"level\":1,\"type\":\"heading\"},"
        "{\"runs\":[\"The "
        "\",{\"link\":\"https://"
        "x.org\",\"bold\":true,\"text\":\"Client\"}],\"type\":\"paragraph\"},"
        "{\"items\":[\"a\",{\"items\":[\"b\"],\"text\":\"c\"}],\"ordered\":true,\"type\":\"list\"},"
        "{\"widths\":[3,1],\"rows\":[[\"Setup\",1000],[\"x\",{\"text\":\"y\"}]],\"headers\":[\"S\","
        "\"F\"],\"type\":\"table\"},"
        "{\"type\":\"page_break\"}],"
        "\"zeta\":1,\"alpha\":{},\"page\":{\"margins\":{\"left\":1,\"top\":2},\"size\":\"A4\"},"
        "\"sections\":[{\"paragraphs\":[],\"heading\":\"H\"}],\"lang\":\"en\",\"title\":\"T\"}",
        "{\n"
        "  \"title\": \"T\",\n"
        "  \"lang\": \"en\",\n"
        "  \"page\": {\n"
        "    \"size\": \"A4\",\n"
        "    \"margins\": {\n"
        "      \"top\": 2,\n"
        "      \"left\": 1\n"
        "    }\n"
        "  },\n"
        "  \"sections\": [\n"
        "    {\n"
        "      \"heading\": \"H\",\n"
        "      \"paragraphs\": []\n"
        "    }\n"
        "  ],\n"
        "  \"blocks\": [\n"
        "    {\n"
        "      \"type\": \"heading\",\n"
        "      \"level\": 1,\n"
        "      \"text\": \"Fees\"\n"
        "    },\n"
        "    {\n"
        "      \"type\": \"paragraph\",\n"
        "      \"runs\": [\n"
        "        \"The \",\n"
        "        {\n"
        "          \"text\": \"Client\",\n"
        "          \"bold\": true,\n"
        "          \"link\": \"https://x.org\"\n"
        "        }\n"
        "      ]\n"
        "    },\n"
        "    {\n"
        "      \"type\": \"list\",\n"
        "      \"ordered\": true,\n"
        "      \"items\": [\n"
        "        \"a\",\n"
        "        {\n"
        "          \"text\": \"c\",\n"
        "          \"items\": [\"b\"]\n"
        "        }\n"
        "      ]\n"
        "    },\n"
        "    {\n"
        "      \"type\": \"table\",\n"
        "      \"headers\": [\"S\", \"F\"],\n"
        "      \"rows\": [\n"
        "        [\"Setup\", 1000],\n"
        "        [\n"
        "          \"x\",\n"
        "          {\n"
        "            \"text\": \"y\"\n"
        "          }\n"
        "        ]\n"
        "      ],\n"
        "      \"widths\": [3, 1]\n"
        "    },\n"
        "    {\n"
        "      \"type\": \"page_break\"\n"
        "    }\n"
        "  ],\n"
        "  \"alpha\": {},\n"
        "  \"zeta\": 1\n"
        "}\n");
}

static void test_presentation(void **state)
{
    expect("{\"slides\":[{\"notes\":\"n\",\"table\":{\"rows\":[[1]],\"type\":\"table\"},\"image\":{"
           "\"alt\":\"a\",\"src\":\"x.png\"},"
           "\"bullets\":[{\"items\":[\"d\"],\"runs\":[{\"italic\":true,\"text\":\"e\"}]}],"
           "\"subtitle\":\"s\",\"title\":\"t\",\"layout\":\"title\"},{}],"
           "\"size\":\"4:3\",\"title\":\"Q3\"}",
           "{\n"
           "  \"title\": \"Q3\",\n"
           "  \"size\": \"4:3\",\n"
           "  \"slides\": [\n"
           "    {\n"
           "      \"layout\": \"title\",\n"
           "      \"title\": \"t\",\n"
           "      \"subtitle\": \"s\",\n"
           "      \"bullets\": [\n"
           "        {\n"
           "          \"runs\": [\n"
           "            {\n"
           "              \"text\": \"e\",\n"
           "              \"italic\": true\n"
           "            }\n"
           "          ],\n"
           "          \"items\": [\"d\"]\n"
           "        }\n"
           "      ],\n"
           "      \"image\": {\n"
           "        \"src\": \"x.png\",\n"
           "        \"alt\": \"a\"\n"
           "      },\n"
           "      \"table\": {\n"
           "        \"type\": \"table\",\n"
           "        \"rows\": [\n"
           "          [1]\n"
           "        ]\n"
           "      },\n"
           "      \"notes\": \"n\"\n"
           "    },\n"
           "    {}\n"
           "  ]\n"
           "}\n");
}

static void test_spreadsheet(void **state)
{
    expect("{\"sheets\":[{\"rows\":[[\"Region\",\"Revenue\",null,true],[\"EMEA\",1200.5,{"
           "\"format\":\"0.0%\",\"value\":0.25}],"
           "[{\"format\":\"d\",\"date\":\"2026-11-30\"},{\"value\":1,\"formula\":\"SUM(A1)\"}],[]],"
           "\"columns\":[\"a\",\"b\"],\"widths\":[18,12.5],\"freeze\":\"A2\",\"header\":true,"
           "\"name\":\"Q3\"}],\"title\":\"B\"}",
           "{\n"
           "  \"title\": \"B\",\n"
           "  \"sheets\": [\n"
           "    {\n"
           "      \"name\": \"Q3\",\n"
           "      \"header\": true,\n"
           "      \"freeze\": \"A2\",\n"
           "      \"widths\": [18, 12.5],\n"
           "      \"columns\": [\"a\", \"b\"],\n"
           "      \"rows\": [\n"
           "        [\"Region\", \"Revenue\", null, true],\n"
           "        [\n"
           "          \"EMEA\",\n"
           "          1200.5,\n"
           "          {\n"
           "            \"value\": 0.25,\n"
           "            \"format\": \"0.0%\"\n"
           "          }\n"
           "        ],\n"
           "        [\n"
           "          {\n"
           "            \"date\": \"2026-11-30\",\n"
           "            \"format\": \"d\"\n"
           "          },\n"
           "          {\n"
           "            \"value\": 1,\n"
           "            \"formula\": \"SUM(A1)\"\n"
           "          }\n"
           "        ],\n"
           "        []\n"
           "      ]\n"
           "    }\n"
           "  ]\n"
           "}\n");
}

static void test_scalars(void **state)
{
    /* reals stay reals; integers stay integers */
    expect("[1.0, 10, -0.0, 0.1, 1e21, 1E-7, 2.50, 100000000000000000000.0, -5, 1200.5e0, "
           "0.30000000000000004]",
           "[1.0, 10, -0.0, 0.1, 1e+21, 1e-7, 2.5, 100000000000000000000.0, -5, 1200.5, "
           "0.30000000000000004]\n");
    expect("[9223372036854775807, -9223372036854775808]",
           "[9223372036854775807, -9223372036854775808]\n");
    /* strings: UTF-8 unescaped; only ", \\ and controls escaped */
    expect("[\"\\u00e9\\u65e5\", \"é/<>\", \"q\\\"b\\\\n\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f\", "
           "\"\\u0000x\", \"\\ud83d\\ude00\"]",
           "[\"é日\", \"é/<>\", \"q\\\"b\\\\n\\n\\t\\r\\b\\f\\u0001\\u001f\x7f\", \"\\u0000x\", "
           "\"\xF0\x9F\x98\x80\"]\n");
    expect("\"just a string\"", "\"just a string\"\n");
    expect("true", "true\n");
    expect("[]", "[]\n");
    expect("{}", "{}\n");
    expect("[[], {}, [[1]]]", "[\n  [],\n  {},\n  [\n    [1]\n  ]\n]\n");
    /* unknown objects: keys sorted by bytes, "type" first */
    expect("{\"b\": {\"z\": 1, \"type\": 2, \"a\": 3}, \"B\": 0}",
           "{\n  \"B\": 0,\n  \"b\": {\n    \"type\": 2,\n    \"a\": 3,\n    \"z\": 1\n  }\n}\n");
}

static void test_string_spec(void **state)
{
    /* a spec sent as a string is unwrapped */
    expect("\"{\\\"slides\\\": [], \\\"title\\\": \\\"x\\\"}\"",
           "{\n  \"title\": \"x\",\n  \"slides\": []\n}\n");
}

static void test_errors(void **state)
{
    qr_buf b = {0};
    qr_errlist e = {0};
    assert_int_equal(qr_canonical("{\"a\": }", 7, &b, &e), QR_E_JSON);
    assert_int_equal(e.count, 1);
    assert_non_null(strstr(e.items[0].message, "line 1"));
    qr_errlist_clear(&e);
    assert_int_equal(qr_canonical("{\"a\": 1, \"a\": 2}", 16, &b, &e), QR_E_JSON);
    qr_errlist_clear(&e);
    assert_int_equal(qr_canonical("[\"\xff\"]", 5, &b, &e), QR_E_UTF8);
    assert_string_equal(e.items[0].message, "invalid UTF-8 at byte 2");
    qr_errlist_clear(&e);
    assert_int_equal(qr_canonical(NULL, 3, &b, &e), QR_E_USAGE);
    qr_errlist_clear(&e);
    assert_null(b.data);
}

/* The canonical form of a valid spec is a valid spec with the same tree. */
static void test_canonical_compiles(void **state)
{
    const char *spec = "{\"blocks\":[{\"type\":\"table\",\"rows\":[[1.5,\"a\"]],\"widths\":[1,3]},"
                       "{\"level\":2,\"type\":\"heading\",\"text\":\"H\"}],\"title\":\"T\"}";
    char *c = canon(spec);
    qr_errlist e = {0};
    qr_doc *d1 = NULL, *d2 = NULL;
    assert_int_equal(qr_compile(spec, strlen(spec), QR_KIND_DOCUMENT, NULL, &d1, &e), QR_OK);
    assert_int_equal(qr_compile(c, strlen(c), QR_KIND_DOCUMENT, NULL, &d2, &e), QR_OK);
    assert_int_equal(d1->n_blocks, d2->n_blocks);
    assert_string_equal(qr_plain(&d2->title), "T");
    assert_true(d2->blocks[0].u.table.widths[1] == 0.75);
    assert_int_equal(d2->blocks[1].u.heading.level, 2);
    qr_doc_free(d1);
    qr_doc_free(d2);
    free(c);
}

static void test_kind_guess(void **state)
{
    qr_kind k = QR_KIND_COUNT;
    assert_int_equal(qr_kind_guess("{\"slides\": []}", 14, &k), 0);
    assert_int_equal(k, QR_KIND_PRESENTATION);
    assert_int_equal(qr_kind_guess("{\"sheets\": []}", 14, &k), 0);
    assert_int_equal(k, QR_KIND_SPREADSHEET);
    assert_int_equal(qr_kind_guess("{\"blocks\": []}", 14, &k), 0);
    assert_int_equal(k, QR_KIND_DOCUMENT);
    assert_int_equal(qr_kind_guess("{}", 2, &k), 0);
    assert_int_equal(k, QR_KIND_DOCUMENT);
    const char *wrapped = "\"{\\\"sheets\\\": []}\"";
    assert_int_equal(qr_kind_guess(wrapped, strlen(wrapped), &k), 0);
    assert_int_equal(k, QR_KIND_SPREADSHEET);
    assert_int_equal(qr_kind_guess("[1]", 3, &k), -1);
    assert_int_equal(qr_kind_guess("\"x\"", 3, &k), -1);
    assert_int_equal(qr_kind_guess("{", 1, &k), -1);
    assert_int_equal(qr_kind_guess("", 0, &k), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_document),           cmocka_unit_test(test_presentation),
        cmocka_unit_test(test_spreadsheet),        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_string_spec),        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_canonical_compiles), cmocka_unit_test(test_kind_guess),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
