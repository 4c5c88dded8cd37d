/* test_toc_early.c: a docx whose spec says "toc" starts its table of
 * contents' layout thread while the spec is read (render.c: toc_sniff,
 * toc_early), before the compile. The hint changes when the layout runs,
 * never what it gives: each docx here is byte for byte the one rendered
 * with one thread (no early start, the layout inline), whether the spec
 * comes from memory or from a file (read 64 KiB at a time, the word cut
 * across two reads), whether the toc block is there or only a text that
 * says "toc" (the thread is ended unused), and when the spec fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <quire/quire.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A document: a toc (when toc) and sections of paragraphs, after pad
 * spaces (so that a word can be put across a 64 KiB read). */
static char *spec_text(int toc, size_t pad, const char *said)
{
    size_t cap = pad + 65536;
    char *s = malloc(cap);
    assert_non_null(s);
    size_t n = (size_t)snprintf(s, cap, "{");
    memset(s + n, ' ', pad);
    n += pad;
    n += (size_t)snprintf(s + n, cap - n, "\"blocks\": [%s{\"type\": \"paragraph\", \"text\": %s}",
                          toc ? "{\"type\": \"toc\"}, " : "", said);
    for (int k = 0; k < 12; k++) {
        n += (size_t)snprintf(s + n, cap - n,
                              ", {\"type\": \"heading\", \"level\": 1, \"text\": "
                              "\"Section %d\"}",
                              k + 1);
        for (int p = 0; p < 8; p++)
            n += (size_t)snprintf(s + n, cap - n,
                                  ", {\"type\": \"paragraph\", \"text\": \"Paragraph %d of section "
                                  "%d, long enough to wrap over two lines of the page at the "
                                  "body size, with words and numbers like 3.14 and 1,000.\"}",
                                  p + 1, k + 1);
    }
    snprintf(s + n, cap - n, "]}");
    return s;
}

/* The docx of spec from memory, with threads (0: as many as the CPUs). */
static unsigned char *render(const char *spec, int threads, size_t *size, int *early)
{
    qr_render_opts o = {0};
    o.threads = threads;
    qr_result res;
    assert_int_equal(qr_render_mem(spec, strlen(spec), QR_KIND_DOCUMENT, QR_FORMAT_DOCX, &o, &res),
                     QR_OK);
    unsigned char *d = res.data;
    *size = res.size;
    *early = res.stats.toc_early;
    res.data = NULL;
    qr_result_free(&res);
    return d;
}

/* The docx of spec from a file, read as it streams. */
static unsigned char *render_path(const char *spec, size_t *size, int *early)
{
    char in[] = "/tmp/quire-toc-early-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    size_t len = strlen(spec);
    assert_int_equal(write(fd, spec, len), (ssize_t)len);
    close(fd);
    char out[64];
    snprintf(out, sizeof out, "%s.docx", in);
    qr_result res;
    assert_int_equal(qr_render_path(in, QR_KIND_DOCUMENT, QR_FORMAT_DOCX, out, NULL, &res), QR_OK);
    *early = res.stats.toc_early;
    qr_result_free(&res);
    FILE *f = fopen(out, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *d = malloc(*size);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, *size, f), *size);
    fclose(f);
    unlink(in);
    unlink(out);
    return d;
}

static void same(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
}

static void check(int toc, size_t pad, const char *said, int want_early)
{
    char *spec = spec_text(toc, pad, said);
    size_t n1, n, np;
    int e1, e, ep;
    unsigned char *one = render(spec, 1, &n1, &e1);
    unsigned char *mem = render(spec, 0, &n, &e);
    unsigned char *file = render_path(spec, &np, &ep);
    assert_int_equal(e1, 0); /* one thread: the layout inline, never early */
    assert_int_equal(e, want_early);
    assert_int_equal(ep, want_early);
    same(one, n1, mem, n);
    same(one, n1, file, np);
    free(one);
    free(mem);
    free(file);
    free(spec);
}

/* A toc block: started early, same bytes; its "toc" across a 64 KiB read. */
static void test_toc(void **state)
{
    (void)state;
    check(1, 0, "\"Contents follow.\"", 1);
    /* {, pad spaces, then "blocks": [{"type": "toc" with its first quote
     * at 65531 to 65536: the word ends, or is cut, at every byte of the
     * first 64 KiB read's end */
    size_t at = strlen("\"blocks\": [{\"type\": ");
    for (size_t q = 65531; q <= 65536; q++)
        check(1, q - 1 - at, "\"Contents follow.\"", 1);
}

/* No toc block, a text that says "toc": the thread starts on the hint and
 * ends unused; no hint, no thread. */
static void test_hint_only(void **state)
{
    (void)state;
    check(0, 0, "\"toc\"", 1);
    check(0, 0, "\"no table of contents\"", 0);
}

/* A spec that fails after the hint: the error, and the thread ended. */
static void test_failed_spec(void **state)
{
    (void)state;
    const char *bad = "{\"blocks\": [{\"type\": \"toc\"}, {\"type\": \"paragraph\", \"text\": 5}]}";
    qr_result res;
    assert_int_not_equal(
        qr_render_mem(bad, strlen(bad), QR_KIND_DOCUMENT, QR_FORMAT_DOCX, NULL, &res), QR_OK);
    assert_true(res.errors.count > 0);
    qr_result_free(&res);
}

int main(void)
{
    if (!qr_format_available(QR_FORMAT_PDF)) {
        printf("# the PDF backend is not built: no table of contents' layout\n");
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toc),
        cmocka_unit_test(test_hint_only),
        cmocka_unit_test(test_failed_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
