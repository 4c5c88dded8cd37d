/* test_xlsx.c: the .xlsx backend's element writers against exact strings
 * (a row with every cell type, the sheet head and tail, styles), the
 * shared-string hash table, ST_Xstring escaping, number text, and the
 * threaded sheet producer giving the same bytes as the single-threaded one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "xlsx_int.h"

static const char *const formats[] = {"General", "0.0%", "yyyy-mm-dd", "0.00"};

static void test_col_names(void **state)
{
    (void)state;
    char b[16];
    const struct {
        uint32_t col;
        const char *want;
    } cases[] = {{0, "A"},   {25, "Z"},   {26, "AA"},   {51, "AZ"},
                 {52, "BA"}, {701, "ZZ"}, {702, "AAA"}, {16383, "XFD"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(qr_xlsx_col_name(cases[i].col, b), (int)strlen(cases[i].want));
        assert_string_equal(b, cases[i].want);
    }
    qr_xlsx_cell_ref(1, 11, b);
    assert_string_equal(b, "B12");
    qr_xlsx_cell_ref(16383, 1048575, b);
    assert_string_equal(b, "XFD1048576");
}

static void test_fmt_num(void **state)
{
    (void)state;
    /* Same text as qr_fmt_double for every value: integers take the inline path. */
    double vals[] = {0,
                     -0.0,
                     1,
                     -1,
                     42,
                     980,
                     1200.5,
                     3.14,
                     -5,
                     0.1,
                     0.25,
                     1e-7,
                     1e15,
                     1e21,
                     9007199254740992.0,
                     123456789012345.0,
                     -999999999999999.0,
                     0.000123,
                     1.0 / 3};
    char a[32], b[32];
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        qr_xlsx_fmt_num(vals[i], a);
        qr_fmt_double(vals[i], b);
        assert_string_equal(a, b);
    }
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 100000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double)(int64_t)(x % 2000000001ull) - 1e9;
        if (i % 3 == 0) v /= 100;
        if (i % 3 == 1) v = (double)(x >> 11) * 0x1.0p-53 * 1e6;
        qr_xlsx_fmt_num(v, a);
        qr_fmt_double(v, b);
        assert_string_equal(a, b);
    }
    qr_xlsx_fmt_num(1200.5, a);
    assert_string_equal(a, "1200.5");
}

static void test_needs_quote(void **state)
{
    (void)state;
    const char *yes[] = {"=1", "+1+1", "-5", "@cmd", "\tx", "\rx", "\nx", "-"};
    const char *no[] = {"", "a=b", "safe", " =1", "5-"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_true(qr_xlsx_needs_quote(yes[i], strlen(yes[i])));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(qr_xlsx_needs_quote(no[i], strlen(no[i])));
}

static void test_escape(void **state)
{
    (void)state;
    qr_buf b = {0};
    assert_int_equal(qr_xlsx_escape(&b, "a<b&c>\"d\"", 9), 0);
    assert_string_equal(b.data, "a&lt;b&amp;c&gt;\"d\"");
    b.len = 0;
    const char *s = "_x0041_ _x005F_ _x12_ _xZZZZ_ x_";
    qr_xlsx_escape(&b, s, strlen(s));
    assert_string_equal(b.data, "_x005F_x0041_ _x005F_x005F_ _x12_ _xZZZZ_ x_");
    b.len = 0;
    qr_xlsx_escape(&b, "bell\x07!", 6);
    assert_string_equal(b.data, "bell\xEF\xBF\xBD!");
    b.len = 0;
    qr_xlsx_escape(&b, "cr\rlf\n", 6);
    assert_string_equal(b.data, "cr&#13;lf\n");
    qr_buf_free(&b);
}

static void test_sst(void **state)
{
    (void)state;
    qr_xlsx_sst s;
    assert_int_equal(qr_xlsx_sst_init(&s), 0);
    assert_int_equal(qr_xlsx_sst_add(&s, "a", 1), 0);
    assert_int_equal(qr_xlsx_sst_add(&s, " b", 2), 1);
    assert_int_equal(qr_xlsx_sst_add(&s, "a", 1), 0);
    assert_int_equal(qr_xlsx_sst_add(&s, "", 0), 2);
    assert_int_equal(qr_xlsx_sst_add(&s, "ab", 1), 0); /* len counts, not the NUL */
    assert_int_equal(s.count, 5);
    assert_int_equal(s.n, 3);
    qr_buf out = {0};
    int done = 0;
    while (!done)
        assert_int_equal(qr_xlsx_sst_fill(&s, &out, &done), QR_OK);
    assert_string_equal(out.data,
                        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                        "<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
                        "count=\"5\" uniqueCount=\"3\"><si><t>a</t></si>"
                        "<si><t xml:space=\"preserve\"> b</t></si><si><t></t></si></sst>");
    qr_buf_free(&out);
    qr_xlsx_sst_free(&s);

    /* Many strings: the table grows, indexes stay those of first use. */
    enum { N = 200000 };
    char *keys = malloc((size_t)N * 12);
    assert_non_null(keys);
    assert_int_equal(qr_xlsx_sst_init(&s), 0);
    for (int i = 0; i < N; i++) {
        int n = snprintf(keys + (size_t)i * 12, 12, "k%d", i);
        assert_int_equal(qr_xlsx_sst_add(&s, keys + (size_t)i * 12, (uint32_t)n), i);
    }
    for (int i = N - 1; i >= 0; i -= 7)
        assert_int_equal(
            qr_xlsx_sst_add(&s, keys + (size_t)i * 12, (uint32_t)strlen(keys + (size_t)i * 12)), i);
    assert_int_equal(s.n, N);
    assert_true(s.mask + 1 >= 2u * N);
    qr_xlsx_sst_free(&s);
    free(keys);
    assert_int_equal(qr_xlsx_hash("", 0), 2166136261u);
    assert_int_equal(qr_xlsx_hash("a", 1), 0xe40c292cu); /* FNV-1a test vector */
}

static qr_cell num(double v, uint16_t fmt)
{
    qr_cell c = {.type = QR_CELL_NUMBER, .fmt = fmt};
    c.v.num = v;
    return c;
}

static qr_cell text(const char *s)
{
    qr_cell c = {.type = QR_CELL_TEXT, .len = (uint32_t)strlen(s)};
    c.v.str = s;
    return c;
}

static void test_row_every_type(void **state)
{
    (void)state;
    qr_xlsx_sst sst;
    qr_xlsx_styles st;
    assert_int_equal(qr_xlsx_sst_init(&sst), 0);
    assert_int_equal(qr_xlsx_styles_init(&st, formats, 4), 0);
    qr_formula sum = {.text = "SUM(A1:A11)"};
    qr_formula txt = {
        .text = "\"x\"&\"<y\"", .has_value = 1, .value_type = QR_CELL_TEXT, .str = "x<y"};
    qr_formula yes = {.text = "1>0", .has_value = 1, .value_type = QR_CELL_BOOL, .num = 1};
    qr_formula dbl = {.text = "A12*2", .has_value = 1, .value_type = QR_CELL_NUMBER, .num = 2401};
    qr_cell cells[13];
    cells[0] = num(1200.5, 0);
    cells[1] = (qr_cell){.type = QR_CELL_BOOL};
    cells[1].v.num = 1;
    cells[2] = text("EMEA");
    cells[3] = (qr_cell){.type = QR_CELL_EMPTY};
    cells[4] = text("=1+1");
    cells[5] = text("a\nb");
    cells[6] = num(0.25, 1);
    cells[7] = (qr_cell){.type = QR_CELL_DATE, .fmt = 2};
    cells[7].v.num = 46356;
    cells[8] = (qr_cell){.type = QR_CELL_FORMULA};
    cells[8].v.formula = &sum;
    cells[9] = (qr_cell){.type = QR_CELL_FORMULA};
    cells[9].v.formula = &txt;
    cells[10] = (qr_cell){.type = QR_CELL_FORMULA};
    cells[10].v.formula = &yes;
    cells[11] = (qr_cell){.type = QR_CELL_FORMULA, .fmt = 3};
    cells[11].v.formula = &dbl;
    cells[12] = text("EMEA");
    qr_row row = {cells, 13};
    qr_buf b = {0};
    assert_int_equal(qr_xlsx_write_row(&b, &row, 11, 0, &sst, &st), 0);
    assert_string_equal(
        b.data, "<row r=\"12\" ht=\"30\" customHeight=\"1\"><c r=\"A12\"><v>1200.5</v></c><c "
                "r=\"B12\" t=\"b\"><v>1</v></c>"
                "<c r=\"C12\" t=\"s\"><v>0</v></c><c r=\"E12\" s=\"1\" t=\"s\"><v>1</v></c>"
                "<c r=\"F12\" s=\"2\" t=\"s\"><v>2</v></c><c r=\"G12\" s=\"3\"><v>0.25</v></c>"
                "<c r=\"H12\" s=\"4\"><v>46356</v></c><c r=\"I12\"><f>SUM(A1:A11)</f></c>"
                "<c r=\"J12\" t=\"str\"><f>\"x\"&amp;\"&lt;y\"</f><v>x&lt;y</v></c>"
                "<c r=\"K12\" t=\"b\"><f>1&gt;0</f><v>1</v></c>"
                "<c r=\"L12\" s=\"5\"><f>A12*2</f><v>2401</v></c>"
                "<c r=\"M12\" t=\"s\"><v>0</v></c></row>");
    assert_int_equal(sst.count, 4);
    assert_int_equal(sst.n, 3);

    /* The header row: bold on every cell; an empty row writes nothing. */
    b.len = 0;
    qr_cell hdr[3] = {text("Region"), text("-5"), num(7, 0)};
    qr_row hrow = {hdr, 3};
    assert_int_equal(qr_xlsx_write_row(&b, &hrow, 0, 1, &sst, &st), 0);
    assert_string_equal(
        b.data, "<row r=\"1\"><c r=\"A1\" s=\"6\" t=\"s\"><v>3</v></c>"
                "<c r=\"B1\" s=\"7\" t=\"s\"><v>4</v></c><c r=\"C1\" s=\"6\"><v>7</v></c></row>");
    b.len = 0;
    qr_cell none[2] = {{.type = QR_CELL_EMPTY}, {.type = QR_CELL_EMPTY}};
    qr_row erow = {none, 2};
    assert_int_equal(qr_xlsx_write_row(&b, &erow, 5, 0, &sst, &st), 0);
    assert_int_equal(b.len, 0);

    /* styles.xml: the combinations in first-use order. */
    b.len = 0;
    assert_int_equal(qr_xlsx_styles_write(&st, &b), QR_OK);
    const char *xfs = strstr(b.data, "<cellXfs");
    assert_non_null(xfs);
    const char *want_xfs =
        "<cellXfs count=\"8\">"
        "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\"/>"
        "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" quotePrefix=\"1\"/>"
        "<xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" "
        "applyAlignment=\"1\">"
        "<alignment wrapText=\"1\"/></xf>"
        "<xf numFmtId=\"164\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" "
        "applyNumberFormat=\"1\"/>"
        "<xf numFmtId=\"165\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" "
        "applyNumberFormat=\"1\"/>"
        "<xf numFmtId=\"2\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" "
        "applyNumberFormat=\"1\"/>"
        "<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" applyFont=\"1\"/>"
        "<xf numFmtId=\"0\" fontId=\"1\" fillId=\"0\" borderId=\"0\" xfId=\"0\" quotePrefix=\"1\" "
        "applyFont=\"1\"/>"
        "</cellXfs>";
    assert_memory_equal(xfs, want_xfs, strlen(want_xfs));
    assert_non_null(strstr(b.data,
                           "<numFmts count=\"2\"><numFmt numFmtId=\"164\" formatCode=\"0.0%\"/>"
                           "<numFmt numFmtId=\"165\" formatCode=\"yyyy-mm-dd\"/></numFmts>"));
    assert_non_null(strstr(b.data,
                           "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill>"
                           "<fill><patternFill patternType=\"gray125\"/></fill></fills>"));
    qr_buf_free(&b);
    qr_xlsx_styles_free(&st);
    qr_xlsx_sst_free(&sst);
}

static void test_sheet_head_tail(void **state)
{
    (void)state;
    double widths[] = {18, 12.5, 0};
    qr_sheet sh = {.name = "Q3",
                   .n_rows = 3,
                   .n_cols = 2,
                   .header = 1,
                   .widths = widths,
                   .n_widths = 3,
                   .freeze_row = 1};
    qr_buf b = {0};
    assert_int_equal(qr_xlsx_write_sheet_head(&b, &sh, 1), 0);
    assert_string_equal(
        b.data,
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
        "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
        "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\">"
        "<dimension ref=\"A1:B3\"/><sheetViews><sheetView tabSelected=\"1\" workbookViewId=\"0\">"
        "<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"
        "<selection pane=\"bottomLeft\" activeCell=\"A2\" sqref=\"A2\"/></sheetView></sheetViews>"
        "<sheetFormatPr defaultColWidth=\"8.43\" defaultRowHeight=\"15\"/>"
        "<cols><col min=\"1\" max=\"1\" width=\"18\" customWidth=\"1\"/>"
        "<col min=\"2\" max=\"2\" width=\"12.5\" customWidth=\"1\"/></cols><sheetData>");
    b.len = 0;
    assert_int_equal(qr_xlsx_write_sheet_tail(&b, &sh, NULL), 0);
    assert_string_equal(
        b.data, "</sheetData><autoFilter ref=\"A1:B3\"/><pageMargins left=\"0.7\" right=\"0.7\" "
                "top=\"0.75\" bottom=\"0.75\" header=\"0.3\" footer=\"0.3\"/></worksheet>");

    /* Both panes frozen, an empty sheet, not the first. */
    qr_sheet sh2 = {.name = "E", .freeze_row = 2, .freeze_col = 1};
    b.len = 0;
    qr_xlsx_write_sheet_head(&b, &sh2, 0);
    assert_non_null(strstr(
        b.data,
        "<dimension ref=\"A1\"/><sheetViews><sheetView workbookViewId=\"0\">"
        "<pane xSplit=\"1\" ySplit=\"2\" topLeftCell=\"B3\" activePane=\"bottomRight\" "
        "state=\"frozen\"/>"
        "<selection pane=\"topRight\" activeCell=\"B1\" sqref=\"B1\"/>"
        "<selection pane=\"bottomLeft\" activeCell=\"A3\" sqref=\"A3\"/>"
        "<selection pane=\"bottomRight\" activeCell=\"B3\" sqref=\"B3\"/></sheetView></sheetViews>"
        "<sheetFormatPr defaultColWidth=\"8.43\" defaultRowHeight=\"15\"/><sheetData>"));
    b.len = 0;
    qr_xlsx_write_sheet_tail(&b, &sh2, NULL);
    assert_null(strstr(b.data, "autoFilter"));
    qr_buf_free(&b);
}

static void test_workbook(void **state)
{
    (void)state;
    qr_sheet sheets[2] = {{.name = "Data", .n_rows = 10, .n_cols = 3},
                          {.name = "It's", .n_rows = 4, .n_cols = 28, .header = 1}};
    qr_buf b = {0};
    assert_int_equal(qr_xlsx_workbook_write(sheets, 2, NULL, 0, &b), QR_OK);
    assert_non_null(strstr(b.data,
                           "<sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/>"
                           "<sheet name=\"It's\" sheetId=\"2\" r:id=\"rId2\"/></sheets>"
                           "<definedNames><definedName name=\"_xlnm._FilterDatabase\" "
                           "localSheetId=\"1\" hidden=\"1\">'It''s'!$A$1:$AB$4</definedName>"
                           "</definedNames><calcPr calcId=\"191029\" fullCalcOnLoad=\"1\"/>"
                           "</workbook>"));
    qr_buf_free(&b);
}

/* Stream a whole sheet through the fill callback. */
static char *stream_sheet(const qr_sheet *sh, int threaded, size_t *len, qr_xlsx_sst *sst)
{
    qr_xlsx_styles st;
    assert_int_equal(qr_xlsx_styles_init(&st, formats, 4), 0);
    assert_int_equal(qr_xlsx_sst_init(sst), 0);
    qr_xlsx_sheet w;
    qr_xlsx_sheet_init(&w, sh, 1, sst, &st);
    w.threaded = threaded;
    qr_buf all = {0}, chunk = {0};
    int done = 0, calls = 0;
    while (!done) {
        chunk.len = 0;
        assert_int_equal(qr_xlsx_sheet_fill(&w, &chunk, &done), QR_OK);
        qr_buf_append(&all, chunk.data, chunk.len);
        calls++;
    }
    assert_true(calls > 1); /* produced in blocks, never whole */
    assert_null(w.prod);    /* the producer is joined when the part is done */
    qr_xlsx_sheet_fini(&w);
    qr_xlsx_styles_free(&st);
    qr_buf_free(&chunk);
    return qr_buf_steal(&all, len);
}

static void test_stream_threaded_same_bytes(void **state)
{
    (void)state;
    enum { ROWS = 60000, COLS = 10 };
    qr_cell *cells = calloc((size_t)ROWS * COLS, sizeof *cells);
    qr_row *rows = calloc(ROWS, sizeof *rows);
    static const char *words[] = {"alpha", "beta", "=gamma", "delta\nx"};
    assert_non_null(cells);
    assert_non_null(rows);
    for (size_t r = 0; r < ROWS; r++) {
        rows[r].cells = cells + r * COLS;
        rows[r].n = COLS - (uint32_t)(r % 3); /* ragged */
        for (size_t c = 0; c < COLS; c++) {
            qr_cell *x = &rows[r].cells[c];
            if (c % 4 == 1)
                *x = text(words[(r + c) % 4]);
            else if (c == 9)
                x->type = QR_CELL_EMPTY;
            else
                *x = num((double)r * 1.25 - (double)c, (uint16_t)(c % 4));
        }
    }
    qr_sheet sh = {.name = "Big", .rows = rows, .n_rows = ROWS, .n_cols = COLS, .header = 1};
    qr_xlsx_sst s1, s2;
    size_t n1, n2;
    char *a = stream_sheet(&sh, 0, &n1, &s1);
    char *b = stream_sheet(&sh, 1, &n2, &s2);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    assert_int_equal(s1.count, s2.count);
    assert_int_equal(s1.n, s2.n);
    assert_int_equal(s1.n, 4);
    assert_true(n1 > 1000000);
    assert_non_null(strstr(a + n1 - 2000, "<row r=\"60000\">"));
    qr_xlsx_sst_free(&s1);
    qr_xlsx_sst_free(&s2);

    /* The packager gives up after one block: fini stops and joins the
     * producer, which is blocked on a full queue (no hang, no leak). */
    qr_xlsx_styles st;
    qr_xlsx_sst s3;
    assert_int_equal(qr_xlsx_styles_init(&st, formats, 4), 0);
    assert_int_equal(qr_xlsx_sst_init(&s3), 0);
    qr_xlsx_sheet w;
    qr_xlsx_sheet_init(&w, &sh, 1, &s3, &st);
    qr_buf chunk = {0};
    int done = 0;
    assert_int_equal(qr_xlsx_sheet_fill(&w, &chunk, &done), QR_OK);
    assert_false(done);
    assert_non_null(w.prod);
    qr_xlsx_sheet_fini(&w);
    assert_null(w.prod);
    qr_buf_free(&chunk);
    qr_xlsx_sst_free(&s3);
    qr_xlsx_styles_free(&st);
    free(a);
    free(b);
    free(rows);
    free(cells);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_col_names),
        cmocka_unit_test(test_fmt_num),
        cmocka_unit_test(test_needs_quote),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_sst),
        cmocka_unit_test(test_row_every_type),
        cmocka_unit_test(test_sheet_head_tail),
        cmocka_unit_test(test_workbook),
        cmocka_unit_test(test_stream_threaded_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
