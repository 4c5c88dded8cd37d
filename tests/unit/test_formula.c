/* test_formula.c: the formula evaluator (layout/formula.h) on compiled
 * workbooks: values, errors, cycles, depth, TODAY, spec values, _xlfn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "compile.h"
#include "formula.h"

static qr_doc *compile(const char *json)
{
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    qr_status st = qr_compile(json, strlen(json), QR_KIND_SPREADSHEET, &co, &doc, &errs);
    qr_errlist_clear(&errs);
    assert_int_equal(st, QR_OK);
    return doc;
}

static const qr_formula *formula_at(qr_doc *d, size_t s, size_t r, size_t c)
{
    const qr_cell *cell = &d->sheets[s].rows[r].cells[c];
    assert_int_equal(cell->type, QR_CELL_FORMULA);
    return cell->v.formula;
}

static void test_values(void **state)
{
    (void)state;
    qr_doc *d =
        compile("{\"sheets\":[{\"name\":\"S\",\"rows\":[[1,2,{\"formula\":\"A1+B1*2\"},"
                "{\"formula\":\"C1/0\"},{\"formula\":\"IF(C1>4,\\\"big\\\",\\\"small\\\")\"},"
                "{\"formula\":\"D1&\\\"x\\\"\"},{\"formula\":\"B1=2\"}]]}]}");
    assert_int_equal(qr_formula_eval_doc(d, 0, NULL, NULL), QR_OK);
    const qr_formula *f = formula_at(d, 0, 0, 2);
    assert_true(f->has_value);
    assert_int_equal(f->value_type, QR_CELL_NUMBER);
    assert_true(f->num == 5);
    f = formula_at(d, 0, 0, 3);
    assert_true(f->has_value && f->is_error);
    assert_string_equal(f->str, "#DIV/0!");
    f = formula_at(d, 0, 0, 4);
    assert_int_equal(f->value_type, QR_CELL_TEXT);
    assert_string_equal(f->str, "big");
    f = formula_at(d, 0, 0, 5);
    assert_true(f->is_error); /* the error propagates through & */
    f = formula_at(d, 0, 0, 6);
    assert_int_equal(f->value_type, QR_CELL_BOOL);
    assert_true(f->num == 1);
    qr_doc_free(d);
}

static void test_cycle_and_spec_value(void **state)
{
    (void)state;
    qr_doc *d = compile("{\"sheets\":[{\"name\":\"S\",\"rows\":[[{\"formula\":\"B1\"},"
                        "{\"formula\":\"A1\"},{\"formula\":\"A1+1\"},"
                        "{\"formula\":\"1+1\",\"value\":7},{\"formula\":\"D1*2\"}]]}]}");
    qr_errlist w = {0};
    assert_int_equal(qr_formula_eval_doc(d, 0, &w, NULL), QR_OK);
    assert_false(formula_at(d, 0, 0, 0)->has_value);
    assert_false(formula_at(d, 0, 0, 1)->has_value);
    assert_false(formula_at(d, 0, 0, 2)->has_value);
    assert_true(formula_at(d, 0, 0, 3)->num == 7); /* the spec's value wins */
    assert_true(formula_at(d, 0, 0, 4)->num == 14);
    assert_int_equal(w.count, 1);
    assert_non_null(strstr(w.items[0].message, "S!A1"));
    qr_errlist_clear(&w);
    qr_doc_free(d);
}

static void test_deep_chain(void **state)
{
    (void)state;
    /* A(r) = A(r+1)+1 down to A5000 = 1: each needs the one below it, 5 x MAX_DEPTH deep */
    char json[200000];
    size_t n = 0;
    n += (size_t)snprintf(json + n, sizeof json - n, "{\"sheets\":[{\"name\":\"S\",\"rows\":[");
    for (int r = 1; r <= 5000; r++) {
        char f[32];
        if (r < 5000)
            snprintf(f, sizeof f, "A%d+1", r + 1);
        else
            snprintf(f, sizeof f, "1");
        n += (size_t)snprintf(json + n, sizeof json - n, "%s[{\"formula\":\"%s\"}]",
                              r > 1 ? "," : "", f);
    }
    snprintf(json + n, sizeof json - n, "]}]}");
    qr_doc *d = compile(json);
    assert_int_equal(qr_formula_eval_doc(d, 0, NULL, NULL), QR_OK); /* no stack overflow */
    for (size_t r = 0; r < 5000; r++) {
        const qr_formula *f = formula_at(d, 0, r, 0);
        assert_true(f->has_value);
        assert_true(f->num == (double)(5000 - r));
    }
    qr_doc_free(d);
}

static void test_today_and_dates(void **state)
{
    (void)state;
    qr_doc *d = compile("{\"sheets\":[{\"rows\":[[1]]}]}");
    qr_fresult r = qr_formula_eval(d, 0, "TODAY()", 1767225600); /* 2026-01-01 */
    assert_int_equal(r.kind, QR_FR_NUMBER);
    assert_true(r.num == 46023);
    r = qr_formula_eval(d, 0, "DATE(2026,11,30)", 0);
    assert_true(r.num == 46356);
    r = qr_formula_eval(d, 0, "YEAR(46356)&\"-\"&MONTH(46356)&\"-\"&DAY(46356)", 0);
    assert_string_equal(r.str, "2026-11-30");
    /* Excel's calendar has a 29 February 1900 (serial 60), and DATE counts
     * days on from the month's first in it (LibreOffice's gives 61) */
    r = qr_formula_eval(d, 0, "DATE(1900,2,29)", 0);
    assert_true(r.num == 60);
    r = qr_formula_eval(d, 0, "DATE(1900,3,0)", 0);
    assert_true(r.num == 60);
    r = qr_formula_eval(d, 0, "DATE(1900,3,1)", 0);
    assert_true(r.num == 61);
    r = qr_formula_eval(d, 0, "DATE(1900,1,100)", 0);
    assert_true(r.num == 100);
    r = qr_formula_eval(d, 0, "DATE(1900,2,1)", 0);
    assert_true(r.num == 32);
    r = qr_formula_eval(d, 0, "DATE(1900,1,0)", 0);
    assert_true(r.num == 0);
    r = qr_formula_eval(d, 0, "DATE(1900,0,1)", 0);
    assert_string_equal(r.str, "#NUM!");
    r = qr_formula_eval(d, 0, "DATE(2027,14,1)", 0);
    assert_true(r.num == 46784);
    r = qr_formula_eval(d, 0, "_xlfn.CONCAT(\"a\",\"b\")", 0);
    assert_string_equal(r.str, "ab");
    r = qr_formula_eval(d, 0, "VLOOKUP(1,A1:A2,1)", 0);
    assert_int_equal(r.kind, QR_FR_NONE);
    r = qr_formula_eval(d, 0, "NOSUCH(1)", 0);
    assert_string_equal(r.str, "#NAME?");
    r = qr_formula_eval(d, 0, "Missing!A1", 0);
    assert_string_equal(r.str, "#REF!");
    r = qr_formula_eval(d, 0, "1+", 0);
    assert_int_equal(r.kind, QR_FR_NONE);
    qr_doc_free(d);
}

/* Excel tables: structured references and the totals row's SUBTOTAL. */
/* Comparisons round both numbers to 15 significant digits, as Excel does: a
 * model's balance check (=SUM(...)=total) holds where the sums differ in
 * the last bit; a difference is not rounded. */
static void test_compare_15_digits(void **state)
{
    (void)state;
    qr_doc *d = compile("{\"sheets\":[{\"rows\":[[0.1,0.2,{\"formula\":\"A1+B1\"}]]}]}");
    static const struct {
        const char *f;
        int want;
    } cases[] = {{"0.1+0.2=0.3", 1},
                 {"0.1+0.2<>0.3", 0},
                 {"0.1+0.2>0.3", 0},
                 {"0.1+0.2<=0.3", 1},
                 {"C1=0.3", 1},
                 {"0.1+0.2-0.3=0", 0},
                 {"1+1E-14=1", 0},
                 {"1+1E-16=1", 1},
                 {"-0.3=-(0.1+0.2)", 1},
                 {"1E+300*10>1E+300", 1},
                 {"0.30000000000001>0.3", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        qr_fresult r = qr_formula_eval(d, 0, cases[i].f, 0);
        if (r.kind != QR_FR_BOOL || (int)r.num != cases[i].want)
            fail_msg("%s: got kind %d value %g, want %d", cases[i].f, (int)r.kind, r.num,
                     cases[i].want);
    }
    qr_doc_free(d);
}

static void test_tables(void **state)
{
    (void)state;
    qr_doc *d = compile("{\"sheets\":[{\"name\":\"S\",\"rows\":[[\"Item\",\"Cost [EUR]\"],"
                        "[\"a\",10],[\"b\",32],[\"c\",\"x\"]],\"tables\":[{\"range\":\"A1:B4\","
                        "\"name\":\"Costs\",\"totals\":{\"Item\":\"count\",\"Cost [EUR]\":"
                        "\"sum\"}}]}]}");
    const qr_formula *f = formula_at(d, 0, 4, 1);
    assert_string_equal(f->text, "SUBTOTAL(109,Costs[Cost '[EUR']])");
    assert_int_equal(qr_formula_eval_doc(d, 0, NULL, NULL), QR_OK);
    assert_true(f->has_value && f->num == 42);
    assert_true(formula_at(d, 0, 4, 0)->num == 3); /* COUNTA of the items */
    qr_fresult r = qr_formula_eval(d, 0, "AVERAGE(Costs[Cost '[EUR']])", 0);
    assert_true(r.kind == QR_FR_NUMBER && r.num == 21);
    r = qr_formula_eval(d, 0, "COUNTA(Costs[#All])", 0);
    assert_true(r.kind == QR_FR_NUMBER && r.num == 10);
    r = qr_formula_eval(d, 0, "SUM(Costs[#Totals])", 0);
    assert_true(r.kind == QR_FR_NUMBER && r.num == 45);
    r = qr_formula_eval(d, 0, "SUBTOTAL(4,Costs[#Data])", 0);
    assert_true(r.kind == QR_FR_NUMBER && r.num == 32);
    r = qr_formula_eval(d, 0, "SUM(Costs[Nope])", 0);
    assert_string_equal(r.str, "#REF!");
    r = qr_formula_eval(d, 0, "SUM(Other[Cost])", 0);
    assert_int_equal(r.kind, QR_FR_NONE); /* a table quire does not know: not computed */
    qr_doc_free(d);
}

static void test_file_text(void **state)
{
    (void)state;
    qr_buf b = {0};
    assert_int_equal(qr_formula_file_text("SUM(A1:A3)", &b), 0);
    assert_int_equal(b.len, 0);
    assert_int_equal(qr_formula_file_text("CONCAT(\"CONCAT(\",A1)&_xlfn.IFS(1,2)&ifs(1,2)", &b), 1);
    assert_int_equal(qr_buf_append(&b, "", 1), 0);
    assert_string_equal(b.data, "_xlfn.CONCAT(\"CONCAT(\",A1)&_xlfn.IFS(1,2)&_xlfn.ifs(1,2)");
    qr_buf_free(&b);
}

/* 4,000 nested parentheses and 8,000 signs: no stack overflow (a
 * fuzz_formula crash); the evaluator leaves them uncomputed, while a
 * formula nested 200 deep is computed. */
static void test_deep_nesting(void **state)
{
    (void)state;
    /* the evaluator's own bound (qr_formula_eval reads any text; the compiler
     * refuses more than 256 open parentheses: test_policy) */
    static char text[20000];
    qr_doc *d = compile("{\"sheets\":[{\"name\":\"S\",\"rows\":[[1]]}]}");
    const char *open[] = {"(", "-", "("}, *close[] = {")", "", ")"};
    const int depth[] = {4000, 8000, 200};
    for (int c = 0; c < 3; c++) {
        size_t n = 0;
        for (int i = 0; i < depth[c]; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s", open[c]);
        n += (size_t)snprintf(text + n, sizeof text - n, "1");
        for (int i = 0; i < depth[c]; i++)
            n += (size_t)snprintf(text + n, sizeof text - n, "%s", close[c]);
        qr_fresult r = qr_formula_eval(d, 0, text, 0);
        if (c < 2) {
            assert_int_equal(r.kind, QR_FR_NONE); /* no stack overflow, no value */
        } else {
            assert_int_equal(r.kind, QR_FR_NUMBER);
            assert_true(r.num == 1.0);
        }
    }
    qr_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_cycle_and_spec_value),
        cmocka_unit_test(test_deep_chain),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_today_and_dates),
        cmocka_unit_test(test_file_text),
        cmocka_unit_test(test_compare_15_digits),
        cmocka_unit_test(test_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
