/* test_formula_check.c: the formula syntax and policy check
 * (spec/formula_check.h) and the evaluator's budget and string cap
 * (spec/formula.h, spec/budget.h; issue 37 rows 3, 4, 18, 19). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "formula.h"
#include "formula_check.h"

static int check(const char *f, int allow)
{
    qr_fcheck why;
    return qr_formula_check(f, strlen(f), allow, &why);
}

static void test_parses(void **state)
{
    (void)state;
    const char *ok[] = {"SUM(B2:B9)",
                        "A1*2",
                        "-A1%",
                        "IF(A1,,1)",
                        "NOW()",
                        "SUM(A:A)+SUM(1:1)",
                        "Table1[Col]+Table1[[#Totals],[A]]",
                        "{1,2;3,4}",
                        "A1:B2 B1:C3",
                        "'My sheet'!A1&\"x\"\"y\"",
                        "Sheet2!$A$1",
                        "#N/A",
                        "IFERROR(1/0,#DIV/0!)",
                        "SUM((A1,B1))",
                        "_xlfn.CONCAT(\"a\",\"b\")",
                        "1.5E+3",
                        "A1#",
                        "@A1:A3",
                        "HYPERLINK(\"https://example.com/\"&A1,\"x\")",
                        "LET(x,1,x+1)",
                        NULL};
    for (int i = 0; ok[i]; i++) {
        qr_fcheck why;
        int r = qr_formula_check(ok[i], strlen(ok[i]), 0, &why);
        if (r) fail_msg("%s: %s", ok[i], why.message);
    }
    const char *bad[] = {"SUM((", "1+",   ")))",    "SUM(1,2", "\"abc", "1 2 +",
                         "A1,B1", "(1))", "'Sheet", "1;2",     "*2",    NULL};
    for (int i = 0; bad[i]; i++)
        if (check(bad[i], 0) != QR_FC_SYNTAX) fail_msg("%s parsed", bad[i]);
}

static void test_policy(void **state)
{
    (void)state;
    const char *refused[] = {"cmd|' /C calc'!A0",
                             "WEBSERVICE(\"http://x\")",
                             "_xlfn.WEBSERVICE(\"http://x\")",
                             "FILTERXML(A1,\"//a\")",
                             "HYPERLINK(\"file:///etc/passwd\")",
                             "HYPERLINK(\"javascript:alert(1)\",\"x\")",
                             "IMAGE(A1)",
                             "[1]Sheet1!A1",
                             "'[book.xlsx]Sheet1'!A1",
                             "'C:\\x\\[b.xlsx]S'!A1",
                             NULL};
    for (int i = 0; refused[i]; i++) {
        if (check(refused[i], 0) != QR_FC_POLICY) fail_msg("%s allowed", refused[i]);
        if (check(refused[i], 1) != QR_FC_OK)
            fail_msg("%s refused with allow_external", refused[i]);
    }
    /* the compiler: a pointer and a hint; 300 parentheses do not parse */
    char json[2000];
    snprintf(json, sizeof json, "{\"sheets\":[{\"rows\":[[1,{\"formula\":\"WEBSERVICE(1)\"}]]}]}");
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    assert_int_equal(qr_compile(json, strlen(json), QR_KIND_SPREADSHEET, &co, &doc, &errs),
                     QR_E_SPEC);
    assert_string_equal(errs.items[0].path, "/sheets/0/rows/0/1/formula");
    assert_non_null(strstr(errs.items[0].hint, "allow_external"));
    qr_errlist_clear(&errs);
    snprintf(
        json, sizeof json,
        "{\"allow_external\":true,\"sheets\":[{\"rows\":[[1,{\"formula\":\"WEBSERVICE(1)\"}]]}]}");
    assert_int_equal(qr_compile(json, strlen(json), QR_KIND_SPREADSHEET, &co, &doc, &errs), QR_OK);
    assert_true(doc->allow_external);
    qr_doc_free(doc);
    size_t n = (size_t)snprintf(json, sizeof json, "{\"sheets\":[{\"rows\":[[{\"formula\":\"");
    for (int i = 0; i < 300; i++)
        json[n++] = '(';
    json[n++] = '1';
    for (int i = 0; i < 300; i++)
        json[n++] = ')';
    snprintf(json + n, sizeof json - n, "\"}]]}]}");
    assert_int_equal(qr_compile(json, strlen(json), QR_KIND_SPREADSHEET, &co, &doc, &errs),
                     QR_E_SPEC);
    qr_errlist_clear(&errs);
}

static qr_doc *compile_with(const char *json, size_t max_work)
{
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    co.limits.max_work = max_work;
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    assert_int_equal(qr_compile(json, strlen(json), QR_KIND_SPREADSHEET, &co, &doc, &errs), QR_OK);
    return doc;
}

static void test_string_cap(void **state)
{
    (void)state;
    /* A(r+1) = CONCAT(A(r), A(r)): 10 characters doubled past 32,767 */
    char json[8000];
    size_t n = (size_t)snprintf(json, sizeof json, "{\"sheets\":[{\"rows\":[[\"0123456789\"]");
    for (int r = 1; r < 40; r++)
        n += (size_t)snprintf(json + n, sizeof json - n, ",[{\"formula\":\"CONCAT(A%d,A%d)\"}]", r,
                              r);
    snprintf(json + n, sizeof json - n, "]}]}");
    qr_doc *d = compile_with(json, 0);
    assert_int_equal(qr_formula_eval_doc(d, 0, NULL, NULL), QR_OK);
    const qr_formula *f = d->sheets[0].rows[12].cells[0].v.formula; /* 10 * 2^12 = 40,960 */
    assert_true(f->has_value && f->is_error);
    assert_string_equal(f->str, "#VALUE!");
    f = d->sheets[0].rows[11].cells[0].v.formula; /* 20,480 */
    assert_false(f->is_error);
    assert_int_equal(strlen(f->str), 20480);
    f = d->sheets[0].rows[39].cells[0].v.formula;
    assert_string_equal(f->str, "#VALUE!");
    qr_doc_free(d);
    /* & chains are capped the same way */
    qr_doc *e = compile_with("{\"sheets\":[{\"rows\":[[1]]}]}", 0);
    static char text[9000];
    size_t m = 0;
    for (int i = 0; i < 600; i++)
        m += (size_t)snprintf(text + m, sizeof text - m, "%s\"0123456789\"", i ? "&" : "");
    qr_fresult r = qr_formula_eval(e, 0, text, 0);
    assert_int_equal(r.kind, QR_FR_TEXT);
    assert_int_equal(strlen(r.str), 6000);
    qr_doc_free(e);
}

static void test_range_budget(void **state)
{
    (void)state;
    /* 200 x SUM over 1,000 rows: 200,000+ units; a budget of 50,000 runs out */
    size_t cap = 400000, n = 0;
    char *json = malloc(cap);
    n += (size_t)snprintf(json + n, cap - n, "{\"sheets\":[{\"rows\":[[1");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(json + n, cap - n, ",{\"formula\":\"SUM(A1:A1048576)\"}");
    n += (size_t)snprintf(json + n, cap - n, "]");
    for (int r = 1; r < 1000; r++)
        n += (size_t)snprintf(json + n, cap - n, ",[%d]", r);
    snprintf(json + n, cap - n, "]}]}");
    qr_doc *d = compile_with(json, 50000);
    qr_errlist errs = {0};
    assert_int_equal(qr_formula_eval_doc(d, 0, NULL, &errs), QR_E_LIMIT);
    assert_non_null(strstr(errs.items[0].message, "max_work is 50000 units"));
    qr_errlist_clear(&errs);
    qr_doc_free(d);
    d = compile_with(json, 0); /* the default budget: plenty */
    assert_int_equal(qr_formula_eval_doc(d, 0, NULL, &errs), QR_OK);
    assert_true(d->sheets[0].rows[0].cells[1].v.formula->num == 499501);
    assert_true(d->work.used > 200000);
    qr_doc_free(d);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parses),
        cmocka_unit_test(test_policy),
        cmocka_unit_test(test_string_cap),
        cmocka_unit_test(test_range_budget),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
