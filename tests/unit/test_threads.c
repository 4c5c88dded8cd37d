/* test_threads.c: 8 threads render different specs of every kind through the
 * library at once; each output must equal the same spec rendered alone.
 * Run under ThreadSanitizer in CI (QUIRE_TSAN). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <quire/quire.h>

typedef struct job {
    const char *spec;
    qr_kind kind;
    qr_format format;
    unsigned char *want;
    size_t want_size;
    int failures;
} job;

static job jobs[] = {
    {"{\"title\":\"T\",\"blocks\":[{\"type\":\"heading\",\"text\":\"Fees\"},{\"type\":"
     "\"paragraph\",\"runs\":[\"The \",{\"text\":\"Client\",\"bold\":true},\" pays. "
     "\\u0645\\u0631\\u062d\\u0628\\u0627 "
     "\\u4f60\\u597d\"]},{\"type\":\"table\",\"headers\":[\"a\",\"b\"],\"rows\":[[1,2]]}]}",
     QR_KIND_DOCUMENT, QR_FORMAT_DOCX},
    {"{\"sheets\":[{\"name\":\"Q3\",\"rows\":[[\"Region\",\"Revenue\"],[\"EMEA\",1200.5],[\"=x\",{"
     "\"formula\":\"SUM(B2:B2)\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_XLSX},
    {"{\"title\":\"Q3\",\"slides\":[{\"title\":\"Revenue\",\"bullets\":[\"Up "
     "12%\",{\"text\":\"EMEA\",\"items\":[\"DE\"]}],\"notes\":\"n\"}]}",
     QR_KIND_PRESENTATION, QR_FORMAT_PPTX},
    {"{\"title\":\"P\",\"blocks\":[{\"type\":\"heading\",\"text\":"
     "\"\\u0928\\u092e\\u0938\\u094d\\u0924\\u0947\"},{\"type\":\"paragraph\",\"text\":"
     "\"\\u05e9\\u05dc\\u05d5\\u05dd world "
     "\\u65e5\\u672c\\u8a9e\"},{\"type\":\"list\",\"items\":[\"a\",\"b\"]}]}",
     QR_KIND_PDF, QR_FORMAT_PDF},
    /* docx with a table of contents: each lays its pages out on a thread of
     * its own, on a context without a font map, its faces kept for the
     * process (pdf/simple_text.c), list labels and notes measured too */
    {"{\"title\":\"T\",\"blocks\":[{\"type\":\"toc\"},{\"type\":\"heading\",\"text\":\"One\"},{"
     "\"type\":\"paragraph\",\"runs\":[\"A paragraph with a note\",{\"footnote\":\"The "
     "note.\"},\" and more words.\"]},{\"type\":\"list\",\"items\":[\"a\",{\"text\":\"b\","
     "\"items\":[\"c\"]}]},{\"type\":\"heading\",\"text\":\"Two\"}]}",
     QR_KIND_DOCUMENT, QR_FORMAT_DOCX},
    {"{\"title\":\"U\",\"blocks\":[{\"type\":\"toc\"},{\"type\":\"heading\",\"text\":\"Terms\"},"
     "{\"type\":\"list\",\"ordered\":true,\"items\":[\"First, bold words\",\"Second\"]},{"
     "\"type\":\"table\",\"headers\":[\"k\",\"v\"],\"rows\":[[\"x\",3.5]],\"caption\":\"Rates\"},"
     "{\"type\":\"heading\",\"level\":2,\"text\":\"Notes\"},{\"type\":\"code\",\"text\":\"let x = "
     "1;\"}]}",
     QR_KIND_DOCUMENT, QR_FORMAT_DOCX},
    {"{\"title\":\"H\",\"blocks\":[{\"type\":\"paragraph\",\"text\":\"<script>x</"
     "script>\"},{\"type\":\"code\",\"text\":\"a\\tb\"}]}",
     QR_KIND_HTML, QR_FORMAT_HTML},
    {"{\"blocks\":[{\"type\":\"paragraph\",\"text\":\"png "
     "\\u0627\\u0644\\u0633\\u0644\\u0627\\u0645\"}]}",
     QR_KIND_DOCUMENT, QR_FORMAT_PNG},
    /* string results of formulas (&, TEXT, CONCAT: layout/formula.c's number
     * to text) and number formats, three workbooks of other numbers at once */
    {"{\"sheets\":[{\"name\":\"S\",\"rows\":[[1.5,2.25,1e20],[{\"formula\":\"A1&\\\"-\\\"&B1&\\\"/"
     "\\\"&C1\"},{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},{\"formula\":"
     "\"CONCAT(A1,B1,C1,A1/"
     "7)\"}],[{\"value\":1.5,\"format\":\"#,##0.00\"},{\"value\":2.25,\"format\":\"0.0E+00\"},{"
     "\"formula\":\"A1*B1\",\"format\":\"0.000\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_XLSX},
    {"{\"sheets\":[{\"name\":\"S\",\"rows\":[[0.1,-3.75,123456789.125],[{\"formula\":\"A1&\\\"-"
     "\\\"&B1&\\\"/"
     "\\\"&C1\"},{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},{\"formula\":"
     "\"CONCAT(A1,B1,C1,A1/"
     "7)\"}],[{\"value\":0.1,\"format\":\"#,##0.00\"},{\"value\":-3.75,\"format\":\"0.0E+00\"},{"
     "\"formula\":\"A1*B1\",\"format\":\"0.000\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_XLSX},
    {"{\"sheets\":[{\"name\":\"S\",\"rows\":[[7,0.0625,-1e-7],[{\"formula\":\"A1&\\\"-\\\"&B1&\\\"/"
     "\\\"&C1\"},{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},{\"formula\":"
     "\"CONCAT(A1,B1,C1,A1/"
     "7)\"}],[{\"value\":7,\"format\":\"#,##0.00\"},{\"value\":0.0625,\"format\":\"0.0E+00\"},{"
     "\"formula\":\"A1*B1\",\"format\":\"0.000\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_XLSX},
    {"{\"sheets\":[{\"name\":\"S\",\"rows\":[[1.5,2.25,1e20],[{\"formula\":\"A1&\\\"-\\\"&B1&\\\"/"
     "\\\"&C1\"},{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},{\"formula\":"
     "\"CONCAT(A1,B1,C1,A1/"
     "7)\"}],[{\"value\":1.5,\"format\":\"#,##0.00\"},{\"value\":2.25,\"format\":\"0.0E+00\"},{"
     "\"formula\":\"A1*B1\",\"format\":\"0.000\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_PDF},
    {"{\"sheets\":[{\"name\":\"S\",\"rows\":[[0.1,-3.75,123456789.125],[{\"formula\":\"A1&\\\"-"
     "\\\"&B1&\\\"/"
     "\\\"&C1\"},{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},{\"formula\":"
     "\"CONCAT(A1,B1,C1,A1/"
     "7)\"}],[{\"value\":0.1,\"format\":\"#,##0.00\"},{\"value\":-3.75,\"format\":\"0.0E+00\"},{"
     "\"formula\":\"A1*B1\",\"format\":\"0.000\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_PDF},
    {"{\"sheets\":[{\"name\":\"S\",\"rows\":[[7,0.0625,-1e-7],[{\"formula\":\"A1&\\\"-\\\"&B1&\\\"/"
     "\\\"&C1\"},{\"formula\":\"TEXT(A1,\\\"0.00%\\\")&TEXT(B1,\\\"#,##0.0\\\")\"},{\"formula\":"
     "\"CONCAT(A1,B1,C1,A1/"
     "7)\"}],[{\"value\":7,\"format\":\"#,##0.00\"},{\"value\":0.0625,\"format\":\"0.0E+00\"},{"
     "\"formula\":\"A1*B1\",\"format\":\"0.000\"}]]}]}",
     QR_KIND_SPREADSHEET, QR_FORMAT_PDF},
};
enum { N_JOBS = sizeof jobs / sizeof jobs[0], N_THREADS = 8, ROUNDS = 4 };

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    for (int r = 0; r < ROUNDS; r++) {
        for (int k = 0; k < N_JOBS; k++) {
            job *j = &jobs[(k + t + r) % N_JOBS];
            if (!j->want) continue;
            qr_result res;
            qr_status st = qr_render_mem(j->spec, strlen(j->spec), j->kind, j->format, NULL, &res);
            if (st != QR_OK || res.size != j->want_size || memcmp(res.data, j->want, res.size) != 0)
                __atomic_add_fetch(&j->failures, 1, __ATOMIC_SEQ_CST);
            qr_result_free(&res);
        }
    }
    return NULL;
}

static void test_threads_render_alike(void **state)
{
    (void)state;
    int built = 0;
    for (int k = 0; k < N_JOBS; k++) {
        if (!qr_format_available(jobs[k].format)) {
            printf("# format %s not built: not exercised\n", qr_format_ext(jobs[k].format));
            continue;
        }
        qr_result res;
        qr_status st = qr_render_mem(jobs[k].spec, strlen(jobs[k].spec), jobs[k].kind,
                                     jobs[k].format, NULL, &res);
        if (st != QR_OK && res.errors.count)
            printf("# %s: %s: %s\n", qr_format_ext(jobs[k].format), res.errors.items[0].path,
                   res.errors.items[0].message);
        assert_int_equal(st, QR_OK);
        jobs[k].want = res.data;
        jobs[k].want_size = res.size;
        res.data = NULL;
        qr_result_free(&res);
        built++;
    }
    assert_true(built >= 1);
    pthread_t th[N_THREADS];
    for (int t = 0; t < N_THREADS; t++)
        assert_int_equal(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t), 0);
    for (int t = 0; t < N_THREADS; t++)
        pthread_join(th[t], NULL);
    for (int k = 0; k < N_JOBS; k++) {
        if (jobs[k].failures)
            printf("# %s: %d renders differed\n", qr_format_ext(jobs[k].format), jobs[k].failures);
        assert_int_equal(jobs[k].failures, 0);
        free(jobs[k].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_render_alike),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
