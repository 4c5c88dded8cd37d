/* test_docx.c: the Word backend's element writers against exact strings
 * (as libxlsxwriter's test_styles_write_border.c does), the column grid, and
 * whole renders: numbering that restarts, deterministic bytes, coverage
 * warnings once per code point. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "backends.h"
#include "compile.h"
#include "docx_int.h"

/* The XML an element writer produces, without the declaration. Caller frees. */
typedef void (*writer_fn)(qr_xml *x, const void *arg);

static char *written(writer_fn fn, const void *arg)
{
    qr_buf out = {0};
    qr_xml *x = qr_xml_new(&out);
    assert_non_null(x);
    fn(x, arg);
    assert_int_equal(qr_xml_free(x), QR_OK);
    qr_buf_append(&out, "", 0);
    return qr_buf_steal(&out, NULL);
}

static void assert_written(writer_fn fn, const void *arg, const char *want)
{
    char *got = written(fn, arg);
    assert_string_equal(got, want);
    free(got);
}

static void w_rpr(qr_xml *x, const void *arg)
{
    qr_docx_write_w_rpr(x, arg);
}

static void w_ppr(qr_xml *x, const void *arg)
{
    qr_docx_write_w_ppr(x, arg);
}

static void w_sectpr(qr_xml *x, const void *arg)
{
    qr_docx_write_w_sectpr(x, arg, NULL);
}

typedef struct num_args {
    int num_id, abstract_id, restart;
} num_args;

static void w_num(qr_xml *x, const void *arg)
{
    const num_args *a = arg;
    qr_docx_write_w_num(x, a->num_id, a->abstract_id, a->restart, 0);
}

/* ---- <w:rPr> -------------------------------------------------------------------- */

static void test_rpr_bold_italic_arabic(void **state)
{
    (void)state;
    qr_docx_rpr p = {0};
    p.complex = "Noto Sans Arabic";
    p.bold = 1;
    p.italic = 1;
    p.rtl = 1;
    p.cs = 1;
    p.lang_bidi = "ar";
    assert_written(w_rpr, &p,
                   "<w:rPr><w:rFonts w:cs=\"Noto Sans Arabic\"/><w:b/><w:bCs/><w:i/><w:iCs/>"
                   "<w:rtl/><w:cs/><w:lang w:bidi=\"ar\"/></w:rPr>");
}

static void test_rpr_cjk(void **state)
{
    (void)state;
    qr_docx_rpr p = {0};
    p.hint = "eastAsia";
    p.east_asian = "Noto Sans CJK JP";
    p.lang_ea = "ja-JP";
    assert_written(w_rpr, &p,
                   "<w:rPr><w:rFonts w:hint=\"eastAsia\" w:eastAsia=\"Noto Sans CJK JP\"/>"
                   "<w:lang w:eastAsia=\"ja-JP\"/></w:rPr>");
}

/* Every property at once: schema order rStyle, rFonts, b, bCs, i, iCs,
 * strike, u, shd, rtl, cs, lang (EG_RPrBase). */
static void test_rpr_all_in_schema_order(void **state)
{
    (void)state;
    qr_docx_rpr p = {0};
    p.style = "Hyperlink";
    p.ascii = "DejaVu Sans Mono";
    p.bold = p.italic = p.strike = p.underline = 1;
    p.shading = "F2F2F2";
    p.lang = "en-GB";
    assert_written(w_rpr, &p,
                   "<w:rPr><w:rStyle w:val=\"Hyperlink\"/>"
                   "<w:rFonts w:ascii=\"DejaVu Sans Mono\" w:hAnsi=\"DejaVu Sans Mono\"/>"
                   "<w:b/><w:bCs/><w:i/><w:iCs/><w:strike/><w:u w:val=\"single\"/>"
                   "<w:shd w:val=\"clear\" w:color=\"auto\" w:fill=\"F2F2F2\"/>"
                   "<w:lang w:val=\"en-GB\"/></w:rPr>");
}

static void test_rpr_empty(void **state)
{
    (void)state;
    qr_docx_rpr p = {0};
    assert_written(w_rpr, &p, "");
}

/* ---- <w:pPr> -------------------------------------------------------------------- */

static void test_ppr_rtl_list_item(void **state)
{
    (void)state;
    qr_docx_ppr p = {0};
    p.style = "ListParagraph";
    p.num_id = 3;
    p.ilvl = 2;
    p.bidi = 1;
    assert_written(w_ppr, &p,
                   "<w:pPr><w:pStyle w:val=\"ListParagraph\"/><w:numPr><w:ilvl w:val=\"2\"/>"
                   "<w:numId w:val=\"3\"/></w:numPr><w:bidi/></w:pPr>");
}

static void test_ppr_number_cell(void **state)
{
    (void)state;
    qr_docx_ppr p = {0};
    p.style = "TableContents";
    p.jc = "right";
    assert_written(w_ppr, &p,
                   "<w:pPr><w:pStyle w:val=\"TableContents\"/><w:jc w:val=\"right\"/></w:pPr>");
}

/* ---- <w:sectPr> ----------------------------------------------------------------- */

static void test_sectpr_a4_landscape(void **state)
{
    (void)state;
    qr_page pg = {0};
    pg.width = 841.89;
    pg.height = 595.28;
    pg.landscape = 1;
    pg.margin_top = pg.margin_right = pg.margin_bottom = pg.margin_left = 72;
    pg.size_name = "A4";
    assert_written(w_sectpr, &pg,
                   "<w:sectPr><w:pgSz w:w=\"16838\" w:h=\"11906\" w:orient=\"landscape\"/>"
                   "<w:pgMar w:top=\"1440\" w:right=\"1440\" w:bottom=\"1440\" w:left=\"1440\" "
                   "w:header=\"720\" w:footer=\"720\" w:gutter=\"0\"/></w:sectPr>");
}

static void test_sectpr_letter_narrow_margins(void **state)
{
    (void)state;
    qr_page pg = {0};
    pg.width = 612;
    pg.height = 792;
    pg.margin_top = 18;
    pg.margin_bottom = 18;
    pg.margin_left = pg.margin_right = 36.5;
    assert_written(w_sectpr, &pg,
                   "<w:sectPr><w:pgSz w:w=\"12240\" w:h=\"15840\"/>"
                   "<w:pgMar w:top=\"360\" w:right=\"730\" w:bottom=\"360\" w:left=\"730\" "
                   "w:header=\"180\" w:footer=\"180\" w:gutter=\"0\"/></w:sectPr>");
}

/* ---- numbering ---------------------------------------------------------------- */

static void test_num_start_override(void **state)
{
    (void)state;
    num_args a = {4, QR_DOCX_ABSTRACT_DECIMAL, 1};
    char want[2048] = "<w:num w:numId=\"4\"><w:abstractNumId w:val=\"1\"/>";
    for (int l = 0; l < 9; l++)
        snprintf(want + strlen(want), sizeof want - strlen(want),
                 "<w:lvlOverride w:ilvl=\"%d\"><w:startOverride w:val=\"1\"/></w:lvlOverride>", l);
    strcat(want, "</w:num>");
    assert_written(w_num, &a, want);
}

static void test_num_bullets(void **state)
{
    (void)state;
    num_args a = {QR_DOCX_BULLET_NUM, QR_DOCX_ABSTRACT_BULLET, 0};
    assert_written(w_num, &a, "<w:num w:numId=\"1\"><w:abstractNumId w:val=\"0\"/></w:num>");
}

static void w_abstract(qr_xml *x, const void *arg)
{
    qr_docx_write_w_abstractnum(x, 1, *(const int *)arg, 0, 18);
}

static void test_abstractnum_decimal(void **state)
{
    (void)state;
    int ordered = 1;
    char *got = written(w_abstract, &ordered);
    const char *head = "<w:abstractNum w:abstractNumId=\"1\"><w:nsid w:val=\"51A3B7C1\"/>"
                       "<w:multiLevelType w:val=\"hybridMultilevel\"/>"
                       "<w:lvl w:ilvl=\"0\"><w:start w:val=\"1\"/><w:numFmt w:val=\"decimal\"/>"
                       "<w:lvlText w:val=\"%1.\"/><w:lvlJc w:val=\"left\"/>"
                       "<w:pPr><w:ind w:left=\"360\" w:hanging=\"360\"/></w:pPr></w:lvl>";
    assert_memory_equal(got, head, strlen(head));
    /* layout/style.h: 1. a. i. by depth, then again */
    assert_non_null(strstr(got, "<w:lvl w:ilvl=\"1\"><w:start w:val=\"1\"/><w:numFmt "
                                "w:val=\"lowerLetter\"/><w:lvlText w:val=\"%2.\"/>"));
    assert_non_null(strstr(got, "<w:lvl w:ilvl=\"3\"><w:start w:val=\"1\"/><w:numFmt "
                                "w:val=\"decimal\"/><w:lvlText w:val=\"%4.\"/>"));
    assert_non_null(strstr(got, "<w:lvl w:ilvl=\"8\"><w:start w:val=\"1\"/><w:numFmt "
                                "w:val=\"lowerRoman\"/><w:lvlText w:val=\"%9.\"/>"));
    free(got);
}

/* ---- grid ---------------------------------------------------------------------- */

static void test_grid(void **state)
{
    (void)state;
    long cols[4];
    const double w31[] = {0.75, 0.25};
    qr_docx_grid(9026, w31, 2, cols);
    assert_int_equal(cols[0], 6770);
    assert_int_equal(cols[1], 2256);
    qr_docx_grid(10000, NULL, 3, cols);
    assert_int_equal(cols[0], 3333);
    assert_int_equal(cols[1], 3334);
    assert_int_equal(cols[2], 3333);
    const double w4[] = {4, 1, 2, 3}; /* not normalised: proportions still hold */
    qr_docx_grid(1000, w4, 4, cols);
    assert_int_equal(cols[0] + cols[1] + cols[2] + cols[3], 1000);
    assert_int_equal(cols[0], 400);
    assert_int_equal(cols[3], 300);
}

/* ---- whole renders -------------------------------------------------------------- */

typedef struct rendered {
    qr_buf bytes;
    qr_errlist warnings, errors;
} rendered;

static void render_spec(const char *json, qr_fonts *fonts, rendered *out)
{
    memset(out, 0, sizeof *out);
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    assert_int_equal(qr_compile(json, strlen(json), QR_KIND_DOCUMENT, &o, &doc, &errs), QR_OK);
    qr_sink sink;
    qr_sink_init_buf(&sink, &out->bytes);
    qr_render_ctx ctx = {0};
    ctx.doc = doc;
    ctx.fonts = fonts ? fonts : qr_fonts_default();
    ctx.warnings = &out->warnings;
    ctx.errors = &out->errors;
    ctx.epoch = qr_output_epoch();
    assert_int_equal(qr_backend_docx.render(&ctx, &sink), QR_OK);
    assert_int_equal(out->errors.count, 0);
    qr_doc_free(doc);
    qr_errlist_clear(&errs);
}

static void rendered_free(rendered *r)
{
    qr_buf_free(&r->bytes);
    qr_errlist_clear(&r->warnings);
    qr_errlist_clear(&r->errors);
}

/* One part of a package, NUL-terminated. Caller frees. */
static char *part(const qr_buf *zipped, const char *name)
{
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t *src = zip_source_buffer_create(zipped->data, zipped->len, 0, &err);
    assert_non_null(src);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &err);
    assert_non_null(za);
    zip_stat_t st;
    assert_int_equal(zip_stat(za, name, 0, &st), 0);
    char *data = calloc(1, st.size + 1);
    zip_file_t *f = zip_fopen(za, name, 0);
    assert_non_null(f);
    assert_int_equal(zip_fread(f, data, st.size), (zip_int64_t)st.size);
    zip_fclose(f);
    zip_close(za);
    zip_error_fini(&err);
    return data;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

static void test_render_lists_restart(void **state)
{
    (void)state;
    const char *spec = "{\"title\": \"Lists\", \"blocks\": ["
                       "{\"type\": \"list\", \"ordered\": true, \"items\": [\"a\", \"b\"]},"
                       "{\"type\": \"list\", \"items\": [\"dot\"]},"
                       "{\"type\": \"list\", \"ordered\": true, \"items\": [\"c\"]}]}";
    rendered r;
    render_spec(spec, NULL, &r);
    char *doc = part(&r.bytes, "word/document.xml");
    char *num = part(&r.bytes, "word/numbering.xml");
    assert_int_equal(count(doc, "<w:numId w:val=\"2\"/>"), 2);
    assert_int_equal(count(doc, "<w:numId w:val=\"1\"/>"), 1);
    assert_int_equal(count(doc, "<w:numId w:val=\"3\"/>"), 1);
    assert_non_null(strstr(num, "<w:num w:numId=\"2\"><w:abstractNumId w:val=\"1\"/>"
                                "<w:lvlOverride w:ilvl=\"0\"><w:startOverride w:val=\"1\"/>"));
    assert_non_null(strstr(num, "<w:num w:numId=\"3\"><w:abstractNumId w:val=\"1\"/>"
                                "<w:lvlOverride w:ilvl=\"0\"><w:startOverride w:val=\"1\"/>"));
    assert_non_null(strstr(doc, "<w:pStyle w:val=\"Title\"/>"));
    free(doc);
    free(num);
    rendered_free(&r);
}

static void test_render_deterministic(void **state)
{
    (void)state;
    const char *spec = "{\"title\": \"Same\", \"page\": {\"size\": \"A5\"}, \"blocks\": ["
                       "{\"type\": \"paragraph\", \"runs\": [\"a \", {\"text\": \"link\", "
                       "\"link\": \"https://example.com\"}, {\"text\": \"again\", "
                       "\"link\": \"https://example.com\"}]},"
                       "{\"type\": \"table\", \"headers\": [\"x\", \"y\"], \"rows\": [[1, 2]]}]}";
    rendered a, b;
    render_spec(spec, NULL, &a);
    render_spec(spec, NULL, &b);
    assert_int_equal(a.bytes.len, b.bytes.len);
    assert_memory_equal(a.bytes.data, b.bytes.data, a.bytes.len);
    /* One relationship per distinct URL. */
    char *rels = part(&a.bytes, "word/_rels/document.xml.rels");
    assert_int_equal(count(rels, "Target=\"https://example.com\""), 1);
    free(rels);
    rendered_free(&a);
    rendered_free(&b);
}

static void test_render_warns_once_per_code_point(void **state)
{
    (void)state;
    qr_fonts *dejavu = qr_fonts_new_dir("/usr/share/fonts/truetype/dejavu");
    assert_non_null(dejavu);
    /* U+4F60 (Han) is in no DejaVu font: one warning, naming the first text. */
    const char *spec = "{\"blocks\": [{\"type\": \"heading\", \"text\": \"ok\"},"
                       "{\"type\": \"paragraph\", \"text\": \"\xE4\xBD\xA0\xE4\xBD\xA0\"},"
                       "{\"type\": \"paragraph\", \"text\": \"x \xE4\xBD\xA0\"}]}";
    rendered r;
    render_spec(spec, dejavu, &r);
    assert_int_equal(r.warnings.count, 1);
    assert_string_equal(r.warnings.items[0].message, "no installed font covers U+4F60");
    assert_string_equal(r.warnings.items[0].path, "/blocks/1/text");
    rendered_free(&r);
    qr_fonts_free(dejavu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rpr_bold_italic_arabic),
        cmocka_unit_test(test_rpr_cjk),
        cmocka_unit_test(test_rpr_all_in_schema_order),
        cmocka_unit_test(test_rpr_empty),
        cmocka_unit_test(test_ppr_rtl_list_item),
        cmocka_unit_test(test_ppr_number_cell),
        cmocka_unit_test(test_sectpr_a4_landscape),
        cmocka_unit_test(test_sectpr_letter_narrow_margins),
        cmocka_unit_test(test_num_start_override),
        cmocka_unit_test(test_num_bullets),
        cmocka_unit_test(test_abstractnum_decimal),
        cmocka_unit_test(test_grid),
        cmocka_unit_test(test_render_lists_restart),
        cmocka_unit_test(test_render_deterministic),
        cmocka_unit_test(test_render_warns_once_per_code_point),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
