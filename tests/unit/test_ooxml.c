/* test_ooxml.c: the shared OOXML core: XML writer and OPC packager. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <zip.h>
#include <zlib.h>

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
    assert_xml(
        s_escape,
        "<t v=\"a&quot;b&lt;c&gt;&amp;d\">x &lt; y &amp;&amp; z &gt; ]]&gt; &lt;script&gt;</t>");
}

static void s_illegal(qr_xml *x)
{
    qr_xml_start(x, "t");
    /* NUL inside, C0 controls, U+FFFE, a stray continuation byte; tab and LF stay. */
    static const char text[] = "a\x01"
                               "b\x1f"
                               "c\xEF\xBF\xBE"
                               "d\x80"
                               "e\tf\ng";
    qr_xml_text(x, text, sizeof text - 1);
    qr_xml_end(x);
}

static void test_xml_illegal_chars(void **state)
{
    (void)state;
    assert_xml(s_illegal, "<t>a\xEF\xBF\xBD"
                          "b\xEF\xBF\xBD"
                          "c\xEF\xBF\xBD"
                          "d\xEF\xBF\xBD"
                          "e\tf\ng</t>");
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
    assert_int_equal(
        qr_package_add_part(p, "word/document.xml", "application/x-doc+xml", d, strlen(d)), QR_OK);
    static const unsigned char png[] = {0x89, 'P', 'N', 'G', 1, 2, 3};
    assert_int_equal(qr_package_add_media(p, "word/media/image1.png", png, sizeof png), QR_OK);
    counter c = {0};
    assert_int_equal(
        qr_package_add_stream(p, "word/big.xml", "application/x-big+xml", fill_rows, &c), QR_OK);
    assert_string_equal(qr_package_rel(p, "", QR_REL_OFFICE_DOCUMENT, "word/document.xml", 0),
                        "rId1");
    assert_string_equal(
        qr_package_rel(p, "word/document.xml", QR_REL_HYPERLINK, "https://example.com/?a=1&b=2", 1),
        "rId1");
    assert_string_equal(qr_package_rel(p, "word/document.xml", QR_REL_IMAGE, "media/image1.png", 0),
                        "rId2");
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
    const char *order[] = {"[Content_Types].xml",   "_rels/.rels",
                           "docProps/core.xml",     "docProps/app.xml",
                           "word/document.xml",     "word/_rels/document.xml.rels",
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
    assert_non_null(strstr(
        ct, "<Override PartName=\"/word/document.xml\" ContentType=\"application/x-doc+xml\"/>"));
    assert_null(strstr(ct, "image1.png\""));
    free(ct);
    char *rels = entry(za, "word/_rels/document.xml.rels", &len);
    assert_non_null(
        strstr(rels, "Target=\"https://example.com/?a=1&amp;b=2\" TargetMode=\"External\""));
    free(rels);
    char *root = entry(za, "_rels/.rels", &len);
    assert_non_null(strstr(root, "<Relationship Id=\"rId1\" Type=\"" QR_REL_OFFICE_DOCUMENT
                                 "\" Target=\"word/document.xml\"/>"));
    assert_non_null(strstr(root, "Id=\"rId2\" Type=\"" QR_REL_CORE "\""));
    free(root);
    char *core = entry(za, "docProps/core.xml", &len);
    assert_non_null(strstr(core, "<dc:title>T &lt;&amp;&gt;</dc:title>"));
    assert_non_null(strstr(
        core,
        "<dcterms:created xsi:type=\"dcterms:W3CDTF\">2026-01-01T00:00:00Z</dcterms:created>"));
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

/* ---- parallel deflate ------------------------------------------------------------ */

/* Pseudo-random XML-ish bytes (compressible, but not trivially): n bytes from seed. */
static unsigned char *make_data(size_t n, unsigned seed)
{
    unsigned char *d = malloc(n);
    assert_non_null(d);
    unsigned x = seed * 2654435761u + 1;
    size_t i = 0;
    while (i < n) {
        x = x * 1103515245u + 12345u;
        int len = snprintf((char *)d + i, n - i, "<c r=\"A%u\"><v>%u</v></c>", (x >> 8) % 100000,
                           x >> 20);
        if (len < 0 || (size_t)len >= n - i) {
            while (i < n)
                d[i++] = 'x';
            break;
        }
        i += (size_t)len;
    }
    return d;
}

/* A streamed source over a byte array: chunks of odd, varying sizes; fails
 * with QR_E_LIMIT after fail_at bytes (0: never). */
typedef struct feeder {
    const unsigned char *data;
    size_t len, pos, fail_at;
    int calls;
} feeder;

static qr_status fill_feed(void *ctx, qr_buf *chunk, int *done)
{
    feeder *f = ctx;
    if (f->fail_at && f->pos >= f->fail_at) return QR_E_LIMIT;
    size_t n = 1000 + (size_t)(f->calls++ * 7919) % 300000;
    if (n > f->len - f->pos) n = f->len - f->pos;
    qr_buf_append(chunk, f->data + f->pos, n);
    f->pos += n;
    if (f->pos == f->len) *done = 1;
    return QR_OK;
}

/* Write a package of one streamed part (and the same bytes as a ready part
 * when ready is set) with threads, and return the zip. */
static qr_status build_big(qr_buf *out, const unsigned char *data, size_t len, size_t fail_at,
                           int threads, int ready)
{
    qr_package *p = qr_package_new();
    assert_non_null(p);
    qr_package_set_threads(p, threads);
    feeder f = {data, len, 0, fail_at, 0};
    assert_int_equal(
        qr_package_add_stream(p, "xl/worksheets/sheet1.xml", "application/xml", fill_feed, &f),
        QR_OK);
    if (ready) {
        char *copy = malloc(len);
        assert_non_null(copy);
        memcpy(copy, data, len);
        assert_int_equal(qr_package_add_part(p, "xl/ready.xml", "application/xml", copy, len),
                         QR_OK);
    }
    qr_sink sink;
    qr_sink_init_buf(&sink, out);
    qr_status st = qr_package_write(p, 0, &sink);
    qr_package_free(p);
    return st;
}

/* Read entry name back with libzip; check size, CRC (central directory vs
 * zlib's crc32 of the data) and bytes. */
static void check_entry(zip_t *za, const char *name, const unsigned char *data, size_t len)
{
    zip_stat_t st;
    assert_int_equal(zip_stat(za, name, 0, &st), 0);
    assert_int_equal(st.comp_method, ZIP_CM_DEFLATE);
    assert_int_equal(st.size, len);
    assert_true(st.comp_size < len / 2);
    assert_int_equal(st.crc, (zip_uint32_t)crc32(crc32(0, NULL, 0), data, (uInt)len));
    size_t got_len;
    char *got = entry(za, name, &got_len);
    assert_non_null(got);
    assert_int_equal(got_len, len);
    assert_memory_equal(got, data, len);
    free(got);
}

static void test_package_parallel_roundtrip(void **state)
{
    (void)state;
    /* 5 MB and change: ten blocks and a partial one, streamed and ready. */
    size_t len = 5 * 1024 * 1024 + 12345;
    unsigned char *data = make_data(len, 1);
    qr_buf out = {0};
    assert_int_equal(build_big(&out, data, len, 0, 4, 1), QR_OK);
    zip_error_t err;
    zip_source_t *src = zip_source_buffer_create(out.data, out.len, 0, &err);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    assert_non_null(za);
    check_entry(za, "xl/worksheets/sheet1.xml", data, len);
    check_entry(za, "xl/ready.xml", data, len);
    /* The streamed and the ready copy deflate to the same bytes. */
    zip_stat_t a, b;
    zip_stat(za, "xl/worksheets/sheet1.xml", 0, &a);
    zip_stat(za, "xl/ready.xml", 0, &b);
    assert_int_equal(a.comp_size, b.comp_size);
    zip_close(za);
    /* Every local header: dated 1980-01-01 00:00, no data descriptor, sizes
     * known up front (no zip64 extra field), and the entries in order. */
    const char *order[] = {"[Content_Types].xml",      "_rels/.rels",
                           "docProps/core.xml",        "docProps/app.xml",
                           "xl/worksheets/sheet1.xml", "xl/ready.xml"};
    const unsigned char *z = (const unsigned char *)out.data;
    size_t off = 0;
    for (int i = 0; i < 6; i++) {
        assert_true(off + 30 <= out.len);
        assert_memory_equal(z + off, "PK\x03\x04", 4);
        unsigned flags = z[off + 6] | (z[off + 7] << 8);
        unsigned method = z[off + 8] | (z[off + 9] << 8);
        unsigned dtime = z[off + 10] | (z[off + 11] << 8), ddate = z[off + 12] | (z[off + 13] << 8);
        size_t csize = z[off + 18] | (z[off + 19] << 8) | ((size_t)z[off + 20] << 16) |
                       ((size_t)z[off + 21] << 24);
        size_t nlen = z[off + 26] | (z[off + 27] << 8), xlen = z[off + 28] | (z[off + 29] << 8);
        assert_int_equal(flags & 0x8, 0);
        assert_int_equal(method, 8);
        assert_int_equal(dtime, 0);
        assert_int_equal(ddate, 0x21);
        assert_int_equal(nlen, strlen(order[i]));
        assert_memory_equal(z + off + 30, order[i], nlen);
        if (i >= 4) {
            assert_int_equal(flags & 0x6, 0x4); /* deflated "fast", as libzip marks level 1 */
            assert_int_equal(xlen, 0);
            assert_int_equal(csize, a.comp_size);
        }
        off += 30 + nlen + xlen + csize;
    }
    qr_buf_free(&out);
    free(data);
}

static void test_package_parallel_deterministic(void **state)
{
    (void)state;
    /* Sizes around the block boundary: empty, one byte, exactly one and
     * two blocks, one byte over, and several blocks. */
    const size_t block = 512 * 1024;
    const size_t sizes[] = {0, 1, block - 1, block, block + 1, 2 * block, 3 * block + 77};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t len = sizes[k];
        unsigned char *data = make_data(len ? len : 1, (unsigned)k + 7);
        qr_buf one = {0}, four = {0}, again = {0}, two = {0};
        assert_int_equal(build_big(&one, data, len, 0, 1, 0), QR_OK);
        assert_int_equal(build_big(&four, data, len, 0, 4, 0), QR_OK);
        assert_int_equal(build_big(&two, data, len, 0, 2, 0), QR_OK);
        assert_int_equal(build_big(&again, data, len, 0, 4, 0), QR_OK);
        assert_int_equal(one.len, four.len);
        assert_memory_equal(one.data, four.data, one.len);
        assert_int_equal(one.len, two.len);
        assert_memory_equal(one.data, two.data, one.len);
        assert_int_equal(one.len, again.len);
        assert_memory_equal(one.data, again.data, one.len);
        zip_error_t err;
        zip_source_t *src = zip_source_buffer_create(one.data, one.len, 0, &err);
        zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
        assert_non_null(za);
        zip_stat_t st;
        assert_int_equal(zip_stat(za, "xl/worksheets/sheet1.xml", 0, &st), 0);
        assert_int_equal(st.size, len);
        assert_int_equal(st.crc, (zip_uint32_t)crc32(crc32(0, NULL, 0), data, (uInt)len));
        if (len) {
            size_t got_len;
            char *got = entry(za, "xl/worksheets/sheet1.xml", &got_len);
            assert_int_equal(got_len, len);
            assert_memory_equal(got, data, len);
            free(got);
        }
        zip_close(za);
        qr_buf_free(&one);
        qr_buf_free(&four);
        qr_buf_free(&two);
        qr_buf_free(&again);
        free(data);
    }
}

static void test_package_parallel_fill_failure(void **state)
{
    (void)state;
    size_t len = 4 * 1024 * 1024;
    unsigned char *data = make_data(len, 3);
    for (int threads = 1; threads <= 4; threads += 3) {
        qr_buf out = {0};
        /* Fails with several blocks already queued or deflated. */
        assert_int_equal(build_big(&out, data, len, 3 * 1024 * 1024 + 5, threads, 1), QR_E_LIMIT);
        assert_int_equal(out.len, 0);
        qr_buf_free(&out);
    }
    free(data);
}

/* Relationship ids count per source, and each part's .rels holds its own
 * relationships in call order, however many sources there are. */
static void test_package_many_rels(void **state)
{
    (void)state;
    qr_package *p = qr_package_new();
    char name[64], target[64];
    for (int i = 1; i <= 300; i++) {
        snprintf(name, sizeof name, "ppt/slides/slide%d.xml", i);
        assert_int_equal(qr_package_add_part(p, name, "application/xml", strdup("<s/>"), 4), QR_OK);
        snprintf(target, sizeof target, "slides/slide%d.xml", i);
        snprintf(name, sizeof name, "rId%d", i);
        assert_string_equal(qr_package_rel(p, "ppt/presentation.xml", QR_REL_SLIDE, target, 0),
                            name);
    }
    for (int i = 1; i <= 300; i++) {
        snprintf(name, sizeof name, "ppt/slides/slide%d.xml", i);
        assert_string_equal(
            qr_package_rel(p, name, QR_REL_SLIDE_LAYOUT, "../slideLayouts/slideLayout1.xml", 0),
            "rId1");
        if (i % 3 == 0)
            assert_string_equal(
                qr_package_rel(p, name, QR_REL_NOTES_SLIDE, "../notesSlides/n.xml", 0), "rId2");
    }
    qr_buf out = {0};
    qr_sink sink;
    qr_sink_init_buf(&sink, &out);
    assert_int_equal(qr_package_write(p, 0, &sink), QR_OK);
    qr_package_free(p);
    zip_error_t err;
    zip_source_t *src = zip_source_buffer_create(out.data, out.len, 0, &err);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY, &err);
    assert_non_null(za);
    /* 4 generated + 300 slides + 300 .rels; presentation.xml is not a part. */
    assert_int_equal(zip_get_num_entries(za, 0), 604);
    size_t len;
    char *r3 = entry(za, "ppt/slides/_rels/slide3.xml.rels", &len);
    assert_non_null(r3);
    assert_non_null(strstr(r3, "<Relationship Id=\"rId1\" Type=\"" QR_REL_SLIDE_LAYOUT "\""));
    assert_non_null(strstr(r3, "<Relationship Id=\"rId2\" Type=\"" QR_REL_NOTES_SLIDE "\""));
    free(r3);
    char *r4 = entry(za, "ppt/slides/_rels/slide4.xml.rels", &len);
    assert_null(strstr(r4, "rId2"));
    free(r4);
    assert_int_equal(zip_name_locate(za, "ppt/_rels/presentation.xml.rels", 0), -1);
    zip_close(za);
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
        cmocka_unit_test(test_package_parallel_roundtrip),
        cmocka_unit_test(test_package_parallel_deterministic),
        cmocka_unit_test(test_package_parallel_fill_failure),
        cmocka_unit_test(test_package_many_rels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
