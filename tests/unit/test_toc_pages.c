/* test_toc_pages.c: the pages a docx's table of contents shows come from
 * the PDF backend's layout-only pass (render.c: layout_only, nothing
 * painted), which measures less than the PDF render does (no line edges,
 * no paint attributes, each layout dropped once measured: pdf/text.c). Its
 * page of every block must be the page the PDF itself puts the block on:
 * for every document fixture, and for a long document with every kind of
 * run (links, colours, lines, marks, footnotes, sup and sub, code) that the
 * layout measures on two threads. Its simple texts are checked line by
 * line against pango's (QUIRE_SIMPLE_TEXT=check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "buf.h"
#include "compile.h"
#include "fonts.h"
#include "report.h"

/* The page each block starts on, and the page count, from the PDF backend
 * with or without layout_only. */
static size_t *block_pages(const qr_doc *doc, int layout_only, int *n_pages, int *threads)
{
    size_t *pages = calloc(doc->n_blocks ? doc->n_blocks : 1, sizeof *pages);
    assert_non_null(pages);
    qr_buf out = {0};
    qr_sink sink;
    qr_sink_init_buf(&sink, &out);
    qr_errlist warnings = {0}, errors = {0};
    qr_layout_list layout = {0};
    qr_render_stats stats = {0};
    qr_render_ctx ctx = {0};
    ctx.doc = doc;
    ctx.fonts = qr_fonts_default();
    ctx.warnings = &warnings;
    ctx.errors = &errors;
    ctx.layout = &layout;
    ctx.stats = &stats;
    ctx.epoch = qr_output_epoch();
    ctx.block_pages_out = pages;
    ctx.layout_only = layout_only;
    assert_int_equal(qr_backend_pdf.render(&ctx, &sink), QR_OK);
    assert_int_equal(errors.count, 0);
    assert_true(layout_only ? out.len == 0 : out.len > 0);
    *n_pages = ctx.pages;
    *threads = stats.threads;
    qr_buf_free(&out);
    qr_errlist_clear(&warnings);
    qr_errlist_clear(&errors);
    qr_layout_clear(&layout);
    return pages;
}

static void append(qr_buf *b, const char *s)
{
    qr_buf_append(b, s, strlen(s));
}

/* The layout-only pass's pages are the PDF's; returns the page count and
 * sets *threads to the threads that measured the PDF (the pass measures
 * with the same code, layout() in pdf/pdf.c). */
static int assert_same_pages(const char *json, size_t len, const char *base_dir, const char *name,
                             int *threads)
{
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    o.base_dir = base_dir;
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    if (qr_compile(json, len, QR_KIND_DOCUMENT, &o, &doc, &errs) != QR_OK) {
        qr_errlist_clear(&errs); /* an errors fixture, or not a document */
        return 0;
    }
    int n_pdf = 0, n_only = 0, t_only = 0;
    size_t *pdf = block_pages(doc, 0, &n_pdf, threads);
    size_t *only = block_pages(doc, 1, &n_only, &t_only);
    if (n_pdf != n_only)
        fail_msg("%s: %d pages in the PDF, %d laid out alone", name, n_pdf, n_only);
    for (size_t i = 0; i < doc->n_blocks; i++)
        if (pdf[i] != only[i])
            fail_msg("%s: block %zu on page %zu in the PDF, %zu laid out alone", name, i, pdf[i],
                     only[i]);
    free(pdf);
    free(only);
    qr_doc_free(doc);
    qr_errlist_clear(&errs);
    return n_pdf;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    qr_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        qr_buf_append(&b, chunk, n);
    fclose(f);
    qr_buf_append(&b, "", 1);
    *len = b.len - 1;
    return qr_buf_steal(&b, NULL);
}

static void test_every_document_fixture(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/fixtures", QR_SOURCE_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int documents = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        char base[4096 + 256], path[4096 + 512];
        snprintf(base, sizeof base, "%s/%s", dir, e->d_name);
        snprintf(path, sizeof path, "%s/spec.json", base);
        size_t len;
        char *json = slurp(path, &len);
        if (!json) continue;
        int threads;
        if (strstr(json, "\"blocks\""))
            documents += assert_same_pages(json, len, base, e->d_name, &threads) > 0;
        free(json);
    }
    closedir(d);
    assert_true(documents >= 30);
}

/* Words of varied length from a fixed generator: every paragraph wraps
 * at other places. */
static void words(qr_buf *b, unsigned *seed, int n)
{
    static const char *const vocab[] = {"a",
                                        "of",
                                        "the",
                                        "page",
                                        "report",
                                        "quarterly",
                                        "measurement",
                                        "internationalisation",
                                        "line",
                                        "breaks",
                                        "figure",
                                        "is",
                                        "consistently",
                                        "wide"};
    for (int i = 0; i < n; i++) {
        *seed = *seed * 1103515245u + 12345u;
        append(b, vocab[(*seed >> 16) % (sizeof vocab / sizeof *vocab)]);
        append(b, " ");
    }
}

/* A report of about 230 KB of text (two measuring threads), every run kind
 * in it, a contents block first. */
static void test_long_rich_document(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "{\"text\":\"a link to the docs \",\"link\":\"https://example.com/docs\"}",
        "{\"text\":\"bold words \",\"bold\":true}",
        "{\"text\":\"italic words \",\"italic\":true}",
        "{\"text\":\"underlined \",\"underline\":true}",
        "{\"text\":\"struck \",\"strike\":true}",
        "{\"text\":\"coloured \",\"color\":\"#C0392B\"}",
        "{\"text\":\"highlighted \",\"highlight\":\"#FFF59D\"}",
        "{\"text\":\"x2\",\"sup\":true}",
        "{\"text\":\"i \",\"sub\":true}",
        "{\"text\":\"code_span() \",\"code\":true}",
        "{\"text\":\"back to the section \",\"link\":\"#s3\"}",
    };
    const int n_runs = (int)(sizeof runs / sizeof *runs);
    qr_buf b = {0};
    unsigned seed = 32;
    append(&b, "{\"title\":\"Report\",\"blocks\":[{\"type\":\"toc\",\"levels\":3},");
    char tmp[256];
    for (int i = 0; i < 600; i++) {
        if (i % 20 == 0) {
            snprintf(tmp, sizeof tmp,
                     "{\"type\":\"heading\",\"level\":%d,\"text\":\"Section %d\"%s},",
                     1 + i / 20 % 3, i / 20, i == 60 ? ",\"id\":\"s3\"" : "");
            append(&b, tmp);
        }
        append(&b, "{\"type\":\"paragraph\",\"runs\":[\"");
        words(&b, &seed, 10 + i % 17);
        append(&b, "\",");
        for (int r = i % 4; r < n_runs; r += 1 + i % 3) {
            append(&b, runs[r]);
            append(&b, ",\"");
            words(&b, &seed, 3 + (i + r) % 7);
            append(&b, "\",");
        }
        if (i % 3 == 0) {
            snprintf(tmp, sizeof tmp, "{\"footnote\":\"Note on paragraph %d, with its source.\"},",
                     i);
            append(&b, tmp);
        }
        append(&b, "\"End.\"]},");
        if (i % 50 == 25)
            append(&b, "{\"type\":\"table\",\"caption\":\"Figures\",\"headers\":[\"a\",\"b\"],"
                       "\"rows\":[[\"one\",1],[\"two\",2],[\"three\",3]]},"
                       "{\"type\":\"code\",\"text\":\"int main(void)\\n{\\n    return 0;\\n}\"},"
                       "{\"type\":\"list\",\"items\":[\"first item\",\"second item\"]},");
    }
    append(&b, "{\"type\":\"paragraph\",\"text\":\"The end.\"}]}");
    assert_false(b.oom);
    assert_true(b.len > 200 * 1024);
    int threads = 0;
    assert_true(assert_same_pages(b.data, b.len, NULL, "long rich document", &threads) > 40);
    assert_int_equal(threads, 2);
    qr_buf_free(&b);
}

int main(void)
{
    /* every simple text the layout-only pass breaks without pango
     * (pdf/simple_text.c) is laid out by pango too and must give the same
     * lines, else the process stops */
    setenv("QUIRE_SIMPLE_TEXT", "check", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_document_fixture),
        cmocka_unit_test(test_long_rich_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
