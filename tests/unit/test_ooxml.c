/* test_ooxml.c: the shared OOXML core: XML writer and OPC packager. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "package.h"
#include "xml.h"

/* Run a writer script and compare the XML with want. */
static void assert_xml(void (*script)(qr_xml *), const char *want)
{
    qr_buf out = {0};
    qr_xml *x = qr_xml_new(&out);
    assert_non_null(x);
    script(x);
    assert_int_equal(qr_xml_free(x), QR_OK);
    assert_string_equal(out.data, want);
    qr_buf_free(&out);
}

static void s_basic(qr_xml *x)
{
    qr_xml_decl(x);
    qr_xml_start(x, "w:p");
    qr_xml_attr(x, "a", "1");
    qr_xml_leaf(x, "w:b", NULL);
    qr_xml_leaf(x, "w:sz", "w:val", "24", NULL);
    qr_xml_end(x);
}

static void test_xml_basic(void **state)
{
    (void)state;
    assert_xml(s_basic, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                        "<w:p a=\"1\"><w:b/><w:sz w:val=\"24\"/></w:p>");
}

static void s_escape(qr_xml *x)
{
    qr_xml_start(x, "t");
    qr_xml_attr(x, "v", "a\"b<c>&d");
    qr_xml_text_str(x, "x < y && z > ]]> <script>");
    qr_xml_end(x);
}

static void test_xml_escape(void **state)
{
    (void)state;
    assert_xml(s_escape, "<t v=\"a&quot;b&lt;c&gt;&amp;d\">x &lt; y &amp;&amp; z &gt; ]]&gt; &lt;script&gt;</t>");
}

static void s_illegal(qr_xml *x)
{
    qr_xml_start(x, "t");
    /* NUL inside, C0 controls, U+FFFE, a stray continuation byte; tab and LF stay. */
    static const char text[] = "a\x01" "b\x1f" "c\xEF\xBF\xBE" "d\x80" "e\tf\ng";
    qr_xml_text(x, text, sizeof text - 1);
    qr_xml_end(x);
}

static void test_xml_illegal_chars(void **state)
{
    (void)state;
    assert_xml(s_illegal, "<t>a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD" "d\xEF\xBF\xBD" "e\tf\ng</t>");
}

static void test_xml_escape_fast_path(void **state)
{
    (void)state;
    qr_buf b = {0};
    assert_int_equal(qr_xml_escape(&b, "<a href=\"x\">&\x02</a>", 18, 1), 0);
    assert_string_equal(b.data, "&lt;a href=&quot;x&quot;&gt;&amp;\xEF\xBF\xBD&lt;/a&gt;");
    b.len = 0;
    assert_int_equal(qr_xml_escape(&b, "q\"\r", 3, 0), 0);
    assert_string_equal(b.data, "q\"&#13;");
    qr_buf_free(&b);
    assert_true(qr_xml_needs_preserve(" a", 2));
    assert_true(qr_xml_needs_preserve("a  b", 4));
    assert_true(qr_xml_needs_preserve("a\tb", 3));
    assert_false(qr_xml_needs_preserve("a b", 3));
}

/* ---- package ------------------------------------------------------------------ */

typedef struct counter {
    int chunks;
} counter;

static qr_status fill_rows(void *ctx, qr_buf *chunk, int *done)
{
    counter *c = ctx;
    qr_buf_printf(chunk, "<row r=\"%d\"/>", ++c->chunks);
    if (c->chunks == 1000) *done = 1;
    return QR_OK;
}

static void build(qr_buf *out)
{
    qr_package *p = qr_package_new();
    assert_non_null(p);
    const char *doc = "<?xml version=\"1.0\"?><doc/>";
    char *d = strdup(doc);
    assert_int_equal(qr_package_add_part(p, "word/document.xml", "application/x-doc+xml", d, strlen(d)), QR_OK);
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', 1, 2, 3};
    assert_int_equal(qr_package_add_media(p, "word/media/image1.png", png, sizeof png), QR_OK);
    counter c = {0};
    assert_int_equal(qr_package_add_stream(p, "word/big.xml", "application/x-big+xml", fill_rows, &c), QR_OK);
    assert_string_equal(qr_package_rel(p, "", QR_REL_OFFICE_DOCUMENT, "word/document.xml", 0), "rId1");
    assert_string_equal(qr_package_rel(p, "word/document.xml", QR_REL_HYPERLINK, "https://example.com/?a=1&b=2", 1), "rId1");
    assert_string_equal(qr_package_rel(p, "word/document.xml", QR_REL_IMAGE, "media/image1.png", 0), "rId2");
    assert_int_equal(qr_package_set_title(p, "T <&>"), QR_OK);
    qr_sink sink;
    qr_sink_init_buf(&sink, out);
    assert_int_equal(qr_package_write(p, 1767225600LL, &sink), QR_OK);
    assert_int_equal(c.chunks, 1000);
    qr_package_free(p);
}

static char *entry(zip_t *za, const char *name, size_t *len)
{
    zip_stat_t st;
    if (zip_stat(za, name, 0, &st) != 0) return NULL;
    zip_file_t *f = zip_fopen(za, name, 0);
    char *data = calloc(1, st.size + 1);
    zip_fread(f, data, st.size);
    zip_fclose(f);
    *len = st.size;
    return data;
}

static void test_package_layout(void **state)
{
    (void)state;
    qr_buf out = {0};
    build(&out);
    zip_error_t err;
    zip_source_t *src = zip_source_buffer_create(out.data, out.len, 0, &err);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &err);
    assert_non_null(za);
    const char *order[] = {"[Content_Types].xml", "_rels/.rels", "docProps/core.xml", "docProps/app.xml",
                           "word/document.xml", "word/_rels/document.xml.rels",
                           "word/media/image1.png", "word/big.xml"};
    assert_int_equal(zip_get_num_entries(za, 0), 8);
    for (int i = 0; i < 8; i++) {
        assert_string_equal(zip_get_name(za, (zip_uint64_t)i, 0), order[i]);
        zip_stat_t st;
        zip_stat_index(za, (zip_uint64_t)i, 0, &st);
        assert_int_equal(st.comp_method, i == 6 ? ZIP_CM_STORE : ZIP_CM_DEFLATE);
    }
    size_t len;
    char *ct = entry(za, "[Content_Types].xml", &len);
    assert_non_null(strstr(ct, "<Default Extension=\"png\" ContentType=\"image/png\"/>"));
    assert_non_null(strstr(ct, "<Override PartName=\"/word/document.xml\" ContentType=\"application/x-doc+xml\"/>"));
    assert_null(strstr(ct, "image1.png\""));
    free(ct);
    char *rels = entry(za, "word/_rels/document.xml.rels", &len);
    assert_non_null(strstr(rels, "Target=\"https://example.com/?a=1&amp;b=2\" TargetMode=\"External\""));
    free(rels);
    char *root = entry(za, "_rels/.rels", &len);
    assert_non_null(strstr(root, "<Relationship Id=\"rId1\" Type=\"" QR_REL_OFFICE_DOCUMENT "\" Target=\"word/document.xml\"/>"));
    assert_non_null(strstr(root, "Id=\"rId2\" Type=\"" QR_REL_CORE "\""));
    free(root);
    char *core = entry(za, "docProps/core.xml", &len);
    assert_non_null(strstr(core, "<dc:title>T &lt;&amp;&gt;</dc:title>"));
    assert_non_null(strstr(core, "<dcterms:created xsi:type=\"dcterms:W3CDTF\">2026-01-01T00:00:00Z</dcterms:created>"));
    free(core);
    char *big = entry(za, "word/big.xml", &len);
    assert_true(strncmp(big, "<row r=\"1\"/><row r=\"2\"/>", 24) == 0);
    assert_non_null(strstr(big, "<row r=\"1000\"/>"));
    free(big);
    zip_close(za);
    qr_buf_free(&out);
}

static void test_package_deterministic(void **state)
{
    (void)state;
    qr_buf a = {0}, b = {0};
    build(&a);
    build(&b);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    /* Entries are dated 1980-01-01 00:00 (DOS date 0x21, time 0) in the local headers. */
    assert_int_equal((unsigned char)a.data[10] | ((unsigned char)a.data[11] << 8), 0);
    assert_int_equal((unsigned char)a.data[12] | ((unsigned char)a.data[13] << 8), 0x21);
    qr_buf_free(&a);
    qr_buf_free(&b);
}

static qr_status fill_fail(void *ctx, qr_buf *chunk, int *done)
{
    (void)ctx;
    (void)chunk;
    (void)done;
    return QR_E_LIMIT;
}

static void test_package_stream_failure(void **state)
{
    (void)state;
    qr_package *p = qr_package_new();
    qr_package_add_stream(p, "x.xml", "application/xml", fill_fail, NULL);
    qr_buf out = {0};
    qr_sink sink;
    qr_sink_init_buf(&sink, &out);
    assert_int_equal(qr_package_write(p, 0, &sink), QR_E_LIMIT);
    assert_int_equal(out.len, 0);
    qr_package_free(p);
    qr_buf_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_basic),
        cmocka_unit_test(test_xml_escape),
        cmocka_unit_test(test_xml_illegal_chars),
        cmocka_unit_test(test_xml_escape_fast_path),
        cmocka_unit_test(test_package_layout),
        cmocka_unit_test(test_package_deterministic),
        cmocka_unit_test(test_package_stream_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
