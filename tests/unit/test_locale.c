/* test_locale.c: a host that called setlocale(LC_ALL, "de_DE.UTF-8") (a comma
 * for the decimal point) gets the same bytes as under "C": a workbook with
 * number formats and string formulas (xlsx and its PDF preview), a document
 * with numbers in a table and a chart (html, docx). core/cnum.h is why.
 * The locale comes from scripts/setup.sh; without it the test is skipped
 * (exit 77) unless QUIRE_REQUIRE_TOOLS=1, as in CI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <quire/quire.h>

static const char sheet[] =
    "{\"sheets\":[{\"name\":\"S\",\"rows\":[[1.5,2.25,1e20,-0.000123],"
    "[{\"formula\":\"A1&\\\"-\\\"&B1&\\\"/\\\"&C1&D1\"},"
    "{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},"
    "{\"formula\":\"CONCAT(A1,B1,C1,A1/7)\"},{\"formula\":\"VALUE(\\\"2.5\\\")*2\"}],"
    "[{\"value\":1234.5,\"format\":\"#,##0.00\"},{\"value\":2.25,\"format\":\"0.0E+00\"},"
    "{\"formula\":\"A1*B1\",\"format\":\"0.000\"},{\"value\":0.375,\"format\":\"0.0%\"}]]}]}";

static const char doc[] =
    "{\"title\":\"Numbers\",\"blocks\":[{\"type\":\"table\",\"headers\":[\"a\",\"b\"],"
    "\"rows\":[[1.5,-2.25],[1e21,0.1]]},{\"type\":\"chart\",\"chart\":\"column\","
    "\"categories\":[\"x\",\"y\"],\"series\":[{\"name\":\"s\",\"values\":[1.25,3.5]}],"
    "\"number_format\":\"0.0\"}]}";

typedef struct render {
    const char *spec;
    qr_kind kind;
    qr_format format;
} render;

static const render renders[] = {
    {sheet, QR_KIND_SPREADSHEET, QR_FORMAT_XLSX},
    {sheet, QR_KIND_SPREADSHEET, QR_FORMAT_PDF},
    {doc, QR_KIND_HTML, QR_FORMAT_HTML},
    {doc, QR_KIND_DOCUMENT, QR_FORMAT_DOCX},
    {doc, QR_KIND_PDF, QR_FORMAT_PDF},
};
enum { N = sizeof renders / sizeof renders[0] };

static unsigned char *bytes(const render *r, size_t *size)
{
    qr_result res;
    qr_status st = qr_render_mem(r->spec, strlen(r->spec), r->kind, r->format, NULL, &res);
    if (st != QR_OK && res.errors.count)
        printf("# %s: %s: %s\n", qr_format_ext(r->format), res.errors.items[0].path,
               res.errors.items[0].message);
    assert_int_equal(st, QR_OK);
    unsigned char *d = res.data;
    *size = res.size;
    res.data = NULL;
    qr_result_free(&res);
    return d;
}

static void test_same_bytes_in_german(void **state)
{
    (void)state;
    unsigned char *want[N];
    size_t want_size[N];
    for (int i = 0; i < N; i++)
        want[i] = qr_format_available(renders[i].format) ? bytes(&renders[i], &want_size[i]) : NULL;
    assert_non_null(setlocale(LC_ALL, "de_DE.UTF-8"));
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    assert_string_equal(probe, "1,5"); /* the locale really has a decimal comma */
    for (int i = 0; i < N; i++) {
        if (!want[i]) continue;
        size_t size;
        unsigned char *got = bytes(&renders[i], &size);
        if (size != want_size[i] || memcmp(got, want[i], size) != 0)
            printf("# .%s differs under de_DE.UTF-8\n", qr_format_ext(renders[i].format));
        assert_int_equal(size, want_size[i]);
        assert_memory_equal(got, want[i], size);
        free(got);
        free(want[i]);
    }
    setlocale(LC_ALL, "C");
}

int main(void)
{
    if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
        const char *req = getenv("QUIRE_REQUIRE_TOOLS");
        printf("%s: the de_DE.UTF-8 locale is not installed (scripts/setup.sh makes it)\n",
               req && strcmp(req, "1") == 0 ? "FAIL" : "skipped");
        return req && strcmp(req, "1") == 0 ? 1 : 77;
    }
    setlocale(LC_ALL, "C");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bytes_in_german),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
