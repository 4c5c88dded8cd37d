/* test_package_split.c: a package part whose beginning waits (package.h:
 * qr_package_add_split), as a docx's document.xml waits for its table of
 * contents' page numbers. The part goes in with one-byte holes near its
 * start; settle fills them with numbers of one to four digits. What the
 * zip holds must inflate to the filled bytes, with the CRC and size of the
 * filled bytes, as one deflate stream; the bytes must not depend on the
 * threads, nor on whether the part waited (settle) or came final (settle
 * NULL); a part too short to cut gives the bytes qr_package_add_part gives;
 * settle is given the beginning alone; a settle that fails fails the
 * write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>
#include <zlib.h>

#include "package.h"

#define HOLE '\x01'
#define NAME "word/document.xml"
#define CT "application/x-doc+xml"

/* A document of about len bytes: n_holes holes, one per entry, in its
 * first entries, then paragraphs of varied text. *head: just after the
 * last hole. */
static char *make_part(size_t len, size_t n_holes, size_t *out_len, size_t *head)
{
    qr_buf b = {0};
    qr_buf_puts(&b, "<?xml version=\"1.0\"?><doc><toc>");
    for (size_t i = 0; i < n_holes; i++) {
        qr_buf_printf(&b, "<e n=\"%zu\">Section %zu<t>", i, i);
        qr_buf_putc(&b, HOLE);
        qr_buf_puts(&b, "</t></e>");
    }
    *head = b.len;
    qr_buf_puts(&b, "</toc>");
    unsigned x = 12345;
    while (b.len < len) {
        x = x * 1103515245u + 12345u;
        qr_buf_printf(&b, "<p id=\"%u\">word %u and %u more</p>", x >> 16, (x >> 8) % 977, x % 31);
    }
    qr_buf_puts(&b, "</doc>");
    assert_false(b.oom);
    return qr_buf_steal(&b, out_len);
}

/* The settle of the tests: hole k of the beginning becomes the number
 * 1 + k * 37. */
typedef struct filler {
    int calls;
    size_t given;   /* the length of the beginning it was given */
    qr_status fail; /* return this instead */
} filler;

static qr_status fill(void *ctx, const char *data, size_t head, char **out, size_t *out_len)
{
    filler *f = ctx;
    f->calls++;
    f->given = head;
    if (f->fail != QR_OK) return f->fail;
    qr_buf b = {0};
    size_t k = 0;
    for (size_t i = 0; i < head; i++) {
        if (data[i] == HOLE)
            qr_buf_printf(&b, "%zu", 1 + 37 * k++);
        else
            qr_buf_putc(&b, data[i]);
    }
    if (b.oom) return QR_E_NOMEM;
    *out = qr_buf_steal(&b, out_len);
    return QR_OK;
}

/* The part filled as fill() fills its beginning, and its head. */
static char *filled(const char *data, size_t len, size_t head, size_t *out_len, size_t *out_head)
{
    filler f = {0};
    char *out = NULL;
    assert_int_equal(fill(&f, data, head, &out, out_head), QR_OK);
    qr_buf b = {0};
    qr_buf_append(&b, out, *out_head);
    qr_buf_append(&b, data + head, len - head);
    assert_false(b.oom);
    free(out);
    return qr_buf_steal(&b, out_len);
}

static char *copy_of(const char *data, size_t len)
{
    char *d = malloc(len ? len : 1);
    assert_non_null(d);
    memcpy(d, data, len);
    return d;
}

/* How the part goes in. */
enum { AS_WAITING, AS_SETTLED, AS_PLAIN };

/* Write a package of one part (and a small one after it) and return the
 * write's status; the zip in out. */
static qr_status build(qr_buf *out, int how, const char *data, size_t len, size_t head, int threads,
                       filler *f)
{
    qr_package *p = qr_package_new();
    assert_non_null(p);
    qr_package_set_threads(p, threads);
    char *d = copy_of(data, len);
    if (how == AS_WAITING)
        assert_int_equal(qr_package_add_split(p, NAME, CT, d, len, head, fill, f), QR_OK);
    else if (how == AS_SETTLED)
        assert_int_equal(qr_package_add_split(p, NAME, CT, d, len, head, NULL, NULL), QR_OK);
    else
        assert_int_equal(qr_package_add_part(p, NAME, CT, d, len), QR_OK);
    assert_int_equal(qr_package_add_part(p, "word/styles.xml", CT, strdup("<styles/>"), 9), QR_OK);
    qr_sink sink;
    qr_sink_init_buf(&sink, out);
    qr_status st = qr_package_write(p, 0, &sink);
    qr_package_free(p);
    return st;
}

/* The entry NAME of zip z: its size and CRC are want's, libzip reads back
 * want, and its deflated bytes are one raw deflate stream that ends
 * exactly at the entry's end and inflates to want. */
static void check_part(const qr_buf *z, const char *want, size_t want_len)
{
    zip_error_t err;
    zip_source_t *src = zip_source_buffer_create(z->data, z->len, 0, &err);
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &err);
    assert_non_null(za);
    zip_stat_t st;
    assert_int_equal(zip_stat(za, NAME, 0, &st), 0);
    assert_int_equal(st.comp_method, ZIP_CM_DEFLATE);
    assert_int_equal(st.size, want_len);
    assert_int_equal(st.crc, (zip_uint32_t)crc32(0, (const Bytef *)want, (uInt)want_len));
    char *got = malloc(want_len + 1);
    assert_non_null(got);
    zip_file_t *f = zip_fopen(za, NAME, 0);
    assert_non_null(f);
    assert_int_equal(zip_fread(f, got, want_len + 1), (zip_int64_t)want_len);
    zip_fclose(f);
    assert_memory_equal(got, want, want_len);

    unsigned char *comp = malloc(st.comp_size);
    assert_non_null(comp);
    f = zip_fopen(za, NAME, ZIP_FL_COMPRESSED);
    assert_non_null(f);
    assert_int_equal(zip_fread(f, comp, st.comp_size), (zip_int64_t)st.comp_size);
    zip_fclose(f);
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    assert_int_equal(inflateInit2(&zs, -15), Z_OK);
    zs.next_in = comp;
    zs.avail_in = (uInt)st.comp_size;
    zs.next_out = (Bytef *)got;
    zs.avail_out = (uInt)want_len + 1;
    assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
    assert_int_equal(zs.avail_in, 0);
    assert_int_equal(zs.total_out, want_len);
    assert_memory_equal(got, want, want_len);
    inflateEnd(&zs);
    free(comp);
    free(got);
    zip_close(za);
}

static void assert_same(const qr_buf *a, const qr_buf *b)
{
    assert_int_equal(a->len, b->len);
    assert_memory_equal(a->data, b->data, a->len);
}

/* A big part with holes near its start: the tail is deflated before the
 * wait; the zip holds the filled bytes; the same bytes on 1, 2 and 4
 * threads and when the part came final; not those of a plain part (the
 * stream is cut). */
static void test_split_big(void **state)
{
    (void)state;
    size_t len, head, flen, fhead;
    /* 3 MiB and change: the cut falls inside the first block, several
     * tail blocks follow; 120 holes take one to four digits each. */
    char *data = make_part(3 * 1024 * 1024 + 4321, 120, &len, &head);
    char *want = filled(data, len, head, &flen, &fhead);
    qr_buf one = {0}, two = {0}, four = {0}, settled = {0}, plain = {0};
    filler f1 = {0}, f2 = {0}, f4 = {0};
    assert_int_equal(build(&one, AS_WAITING, data, len, head, 1, &f1), QR_OK);
    assert_int_equal(build(&two, AS_WAITING, data, len, head, 2, &f2), QR_OK);
    assert_int_equal(build(&four, AS_WAITING, data, len, head, 4, &f4), QR_OK);
    assert_int_equal(f1.calls + f2.calls + f4.calls, 3); /* settle once each */
    assert_int_equal(f2.given, head);                    /* the beginning alone */
    assert_int_equal(build(&settled, AS_SETTLED, want, flen, fhead, 2, NULL), QR_OK);
    assert_int_equal(build(&plain, AS_PLAIN, want, flen, 0, 2, NULL), QR_OK);
    check_part(&two, want, flen);
    check_part(&plain, want, flen);
    assert_same(&one, &two);
    assert_same(&four, &two);
    assert_same(&settled, &two);
    assert_true(plain.len != two.len || memcmp(plain.data, two.data, two.len) != 0);
    qr_buf_free(&one);
    qr_buf_free(&two);
    qr_buf_free(&four);
    qr_buf_free(&settled);
    qr_buf_free(&plain);
    free(want);
    free(data);
}

/* The cut at every edge: a tail of exactly the window (not cut), one byte
 * more (cut, a one-byte stream after it), a cut on a block boundary of
 * the filled part, and holes that push a part of at most 1 MiB over it
 * (cut after the wait). Each inflates to the filled bytes and matches the
 * part that came final; a cut on a block boundary gives a plain part's
 * bytes (its blocks are cut there too, and sync-flushed). */
static void test_split_edges(void **state)
{
    (void)state;
    const size_t window = 32 * 1024, block = 512 * 1024, big = 1024 * 1024;
    size_t len, head, flen, fhead;
    char *base = make_part(2 * big, 40, &len, &head);
    free(filled(base, len, head, &flen, &fhead));
    const size_t extra = fhead - head; /* the digits past one per hole */
    assert_true(extra > 10);
    struct {
        size_t part_len, tail; /* the part's bytes taken from base, its tail's */
    } cases[] = {
        {2 * big, window},
        {2 * big, window + 1},
        {2 * big, 2 * big + extra - block + window}, /* filled: cut == block */
        {big - extra / 2, big - extra / 2 - head},   /* 1 MiB at most until filled */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        size_t plen = cases[c].part_len, phead = plen - cases[c].tail;
        assert_true(plen <= len && phead >= head && phead < plen);
        char *want = filled(base, plen, phead, &flen, &fhead);
        if (c == 2) assert_int_equal(fhead + window, block);
        if (c == 3) assert_true(plen <= big && flen > big);
        qr_buf waited = {0}, settled = {0}, plain = {0};
        filler f = {0};
        assert_int_equal(build(&waited, AS_WAITING, base, plen, phead, 2, &f), QR_OK);
        assert_int_equal(f.calls, 1);
        assert_int_equal(build(&settled, AS_SETTLED, want, flen, fhead, 1, NULL), QR_OK);
        assert_int_equal(build(&plain, AS_PLAIN, want, flen, 0, 1, NULL), QR_OK);
        check_part(&waited, want, flen);
        assert_same(&waited, &settled);
        if (c == 0 || c == 2) /* not cut; cut where a plain part's blocks are cut anyway */
            assert_same(&waited, &plain);
        else
            assert_true(waited.len != plain.len || memcmp(waited.data, plain.data, plain.len));
        qr_buf_free(&waited);
        qr_buf_free(&settled);
        qr_buf_free(&plain);
        free(want);
    }
    free(base);
}

/* A part of at most 1 MiB (a short document) is deflated whole after the
 * wait, as a plain part: the same zip bytes. */
static void test_split_short(void **state)
{
    (void)state;
    size_t len, head, flen, fhead;
    char *data = make_part(200 * 1024, 30, &len, &head);
    char *want = filled(data, len, head, &flen, &fhead);
    qr_buf waited = {0}, plain = {0};
    filler f = {0};
    assert_int_equal(build(&waited, AS_WAITING, data, len, head, 2, &f), QR_OK);
    assert_int_equal(f.calls, 1);
    assert_int_equal(build(&plain, AS_PLAIN, want, flen, 0, 2, NULL), QR_OK);
    assert_same(&waited, &plain);
    check_part(&waited, want, flen);
    qr_buf_free(&waited);
    qr_buf_free(&plain);
    free(want);
    free(data);
}

/* A settle that fails fails the write, with its status, and writes
 * nothing. */
static void test_split_bad_settle(void **state)
{
    (void)state;
    size_t len, head;
    char *data = make_part(2 * 1024 * 1024, 10, &len, &head);
    for (int threads = 1; threads <= 2; threads++) {
        qr_buf out = {0};
        filler failing = {0, 0, QR_E_LIMIT};
        assert_int_equal(build(&out, AS_WAITING, data, len, head, threads, &failing), QR_E_LIMIT);
        assert_int_equal(failing.calls, 1);
        assert_int_equal(out.len, 0);
        qr_buf_free(&out);
    }
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_big),
        cmocka_unit_test(test_split_edges),
        cmocka_unit_test(test_split_short),
        cmocka_unit_test(test_split_bad_settle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
