/* test_chart.c: the chart model (layout/chart.h) and the chart compiler:
 * nice ticks (0..1430 -> 0, 200, ..., 1600), number formats, A1 and range
 * references, the palette, the layout's shapes, and compiled charts
 * (values, sheet ranges resolved to the cells' numbers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "chart.h"
#include "compile.h"
#include "style.h"

static void ticks(double lo, double hi, int n, double want_lo, double want_hi, double want_step)
{
    qr_ticks t;
    qr_chart_ticks(lo, hi, n, &t);
    if (fabs(t.lo - want_lo) > 1e-9 || fabs(t.hi - want_hi) > 1e-9 ||
        fabs(t.step - want_step) > 1e-9)
        print_message("%g..%g in %d: %g..%g step %g\n", lo, hi, n, t.lo, t.hi, t.step);
    assert_true(fabs(t.lo - want_lo) < 1e-9);
    assert_true(fabs(t.hi - want_hi) < 1e-9);
    assert_true(fabs(t.step - want_step) < 1e-9);
    assert_int_equal(t.n, (int)llround((want_hi - want_lo) / want_step));
}

static void test_ticks(void **state)
{
    (void)state;
    /* the example: 0, 200, ..., 1600 */
    ticks(0, 1430, 8, 0, 1600, 200);
    qr_ticks t;
    qr_chart_ticks(0, 1430, 8, &t);
    char buf[32];
    const char *want[] = {"0", "200", "400", "600", "800", "1000", "1200", "1400", "1600"};
    assert_int_equal(t.n, 8);
    for (int i = 0; i <= t.n; i++) {
        qr_chart_format(t.lo + t.step * i, NULL, buf, sizeof buf);
        assert_string_equal(buf, want[i]);
    }
    ticks(0, 1610, 5, 0, 2000, 500);
    ticks(0, 100, 5, 0, 100, 20);
    ticks(0, 1, 4, 0, 1, 0.25);
    ticks(-420, 910, 6, -500, 1000, 250);
    ticks(0, 0.07, 7, 0, 0.07, 0.01);
    ticks(12, 61, 5, 0, 80, 20); /* zero is always on the axis */
    ticks(-5, -1, 5, -5, 0, 1);
    ticks(0, 0, 5, 0, 1, 0.2); /* an empty range */
    ticks(3, 3, 4, 0, 3, 1);
}

static void fmt(double v, const char *f, const char *want)
{
    char buf[64];
    size_t n = qr_chart_format(v, f, buf, sizeof buf);
    if (strcmp(buf, want)) print_message("%g with %s -> \"%s\", wanted \"%s\"\n", v, f, buf, want);
    assert_string_equal(buf, want);
    assert_int_equal(n, strlen(want));
}

static void test_format(void **state)
{
    (void)state;
    fmt(1430, NULL, "1430");
    fmt(0.1 + 0.2, NULL, "0.3");
    fmt(-0.0, NULL, "0");
    fmt(1234567.891, "#,##0", "1,234,568");
    fmt(-1234.5, "#,##0.00", "-1,234.50");
    fmt(0.256, "0%", "26%");
    fmt(0.256, "0.0%", "25.6%");
    fmt(12.5, "\"$\"#,##0.0", "$12.5");
    fmt(42, "0 \"k\"", "42 k");
    fmt(-420, "#,##0;-#,##0", "-420");
    fmt(999.5, "0", "1000");
    fmt(7, "General", "7");
    fmt(1e20, NULL, "100000000000000000000");
}

static void test_refs(void **state)
{
    (void)state;
    char a1[16];
    qr_chart_a1(0, 0, 0, a1);
    assert_string_equal(a1, "A1");
    qr_chart_a1(8, 1, 1, a1);
    assert_string_equal(a1, "$B$9");
    qr_chart_a1(0, 26, 0, a1);
    assert_string_equal(a1, "AA1");
    qr_chart_a1(1048575, 16383, 0, a1);
    assert_string_equal(a1, "XFD1048576");
    char f[64];
    qr_chart_ref r = {"Q3", 1, 1, 8, 1};
    qr_chart_ref_text(&r, f, sizeof f);
    assert_string_equal(f, "Q3!$B$2:$B$9");
    qr_chart_ref r2 = {"Q3 data's", 0, 0, 0, 3};
    qr_chart_ref_text(&r2, f, sizeof f);
    assert_string_equal(f, "'Q3 data''s'!$A$1:$D$1");
    assert_int_equal(qr_chart_palette(0, NULL), 0x2563EB);
    assert_int_equal(qr_chart_palette(6, NULL) != qr_chart_palette(0, NULL), 1);
    /* series start from the theme's accent (a spec's accent included), then the palette */
    qr_style acc = qr_style_get(QR_THEME_LIGHT, QR_STYLE_ACCENT_SET | 0xC2410C);
    assert_int_equal(qr_chart_palette(0, &acc), 0xC2410C);
    assert_int_equal(qr_chart_palette(1, &acc), qr_style_series[1]);
}

static qr_doc *compile(const char *json, qr_kind kind)
{
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    qr_status st = qr_compile(json, strlen(json), kind, &o, &doc, &errs);
    for (size_t i = 0; i < errs.count; i++)
        print_message("%s: %s\n", errs.items[i].path, errs.items[i].message);
    qr_errlist_clear(&errs);
    return st == QR_OK ? doc : NULL;
}

static void test_compile_block(void **state)
{
    (void)state;
    qr_doc *d =
        compile("{\"blocks\": [{\"type\": \"chart\", \"chart\": \"bar\", \"title\": \"R\","
                "\"categories\": [\"EMEA\", \"APAC\", \"AMER\"],"
                "\"series\": [{\"name\": \"2025\", \"values\": [1200, 980, 1430]},"
                "{\"name\": \"2026\", \"values\": [1350, 1010, 1610], \"color\": \"#112233\"}],"
                "\"legend\": \"none\", \"labels\": true, \"percent\": true}]}",
                QR_KIND_DOCUMENT);
    assert_non_null(d);
    assert_int_equal(d->n_blocks, 1);
    const qr_chart *c = &d->blocks[0].u.chart;
    assert_int_equal(d->blocks[0].type, QR_BLOCK_CHART);
    assert_int_equal(c->type, QR_CHART_BAR);
    assert_int_equal(c->n_series, 2);
    assert_int_equal(c->n_points, 3);
    assert_string_equal(c->categories[2], "AMER");
    assert_true(c->series[1].values[2] == 1610);
    assert_int_equal(qr_chart_series_color(c, 0, NULL), qr_chart_palette(0, NULL));
    assert_int_equal(c->series[1].color, 0x112233);
    assert_int_equal(c->legend, QR_LEGEND_NONE);
    assert_true(c->stacked && c->percent && c->labels);
    assert_string_equal(c->path, "/blocks/0");
    assert_string_equal(c->series[1].path, "/blocks/0/series/1");

    /* the layout: 6 bars, labels for every value, nothing outside the box */
    qr_chart_plot p;
    assert_int_equal(qr_chart_layout(c, 400, 240, NULL, NULL, &p), 0);
    size_t rects = 0, texts = 0;
    for (size_t i = 0; i < p.n; i++) {
        const qr_chart_shape *s = &p.shapes[i];
        if (s->kind == QR_CS_RECT) {
            rects++;
            assert_true(s->x >= 0 && s->y >= 0 && s->x + s->w <= 400.01 && s->y + s->h <= 240.01);
        }
        if (s->kind == QR_CS_TEXT) texts++;
    }
    assert_int_equal(rects, 6);
    /* title, 3 categories, the percent ticks, 6 data labels */
    assert_true(texts >= 1 + 3 + 3 + 6);
    qr_chart_plot_free(&p);
    qr_doc_free(d);
}

static void test_compile_sheet_ranges(void **state)
{
    (void)state;
    qr_doc *d =
        compile("{\"sheets\": [{\"name\": \"Q3\", \"rows\": [[\"W\", \"EMEA\"], [\"W1\", 120],"
                "[\"W2\", {\"formula\": \"B2*2\", \"value\": 240}], [\"W3\", 99.5]],"
                "\"charts\": [{\"chart\": \"line\", \"categories\": \"Q3!A2:A4\","
                "\"series\": [{\"name\": \"EMEA\", \"values\": \"'Q3'!$B$2:$B$4\"}],"
                "\"anchor\": \"D2\"}]}]}",
                QR_KIND_SPREADSHEET);
    assert_non_null(d);
    const qr_sheet *sh = &d->sheets[0];
    assert_int_equal(sh->n_charts, 1);
    const qr_chart *c = &sh->charts[0];
    assert_int_equal(c->n_points, 3);
    assert_string_equal(c->categories[1], "W2");
    assert_true(c->series[0].values[0] == 120);
    assert_true(c->series[0].values[1] == 240);
    assert_true(c->series[0].values[2] == 99.5);
    assert_non_null(c->series[0].values_ref);
    assert_int_equal(c->anchor_row, 1);
    assert_int_equal(c->anchor_col, 3);
    char f[64];
    qr_chart_ref_text(c->series[0].values_ref, f, sizeof f);
    assert_string_equal(f, "Q3!$B$2:$B$4");
    qr_doc_free(d);
}

/* A chart drawn in a theme takes the theme's ink: on the dark theme every
 * label reads against the page (WCAG AA) and the gridlines are its own. */
static void test_layout_theme_ink(void **state)
{
    (void)state;
    qr_doc *d = compile("{\"theme\": \"dark\", \"blocks\": [{\"type\": \"chart\", "
                        "\"chart\": \"line\", \"title\": \"Revenue\", \"y_title\": \"EUR k\","
                        "\"categories\": [\"Q1\", \"Q2\"],"
                        "\"series\": [{\"name\": \"EMEA\", \"values\": [310, 335]}]}]}",
                        QR_KIND_DOCUMENT);
    assert_non_null(d);
    qr_style st = qr_style_of(d);
    assert_true(qr_style_dark(&st));
    qr_chart_plot p;
    assert_int_equal(qr_chart_layout(&d->blocks[0].u.chart, 400, 240, NULL, &st, &p), 0);
    size_t texts = 0, grids = 0;
    for (size_t i = 0; i < p.n; i++) {
        const qr_chart_shape *s = &p.shapes[i];
        if (s->kind == QR_CS_TEXT) {
            texts++;
            assert_true(qr_style_contrast(s->color, st.background) >= 4.5);
        }
        if (s->kind == QR_CS_LINE && s->color == st.chart_grid) grids++;
    }
    assert_true(texts >= 1 + 1 + 2 + 1); /* title, axis title, categories, legend */
    assert_true(grids >= 2);
    qr_chart_plot_free(&p);
    /* the plain theme (NULL) keeps its dark ink on white */
    qr_style plain = qr_style_get(QR_THEME_PLAIN, 0);
    assert_int_equal(qr_chart_layout(&d->blocks[0].u.chart, 400, 240, NULL, NULL, &p), 0);
    for (size_t i = 0; i < p.n; i++)
        if (p.shapes[i].kind == QR_CS_TEXT)
            assert_true(qr_style_contrast(p.shapes[i].color, plain.background) >= 4.5);
    qr_chart_plot_free(&p);
    qr_doc_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ticks),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_refs),
        cmocka_unit_test(test_compile_block),
        cmocka_unit_test(test_compile_sheet_ranges),
        cmocka_unit_test(test_layout_theme_ink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
