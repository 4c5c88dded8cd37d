/* fuzz_chart.c: bytes as a spec (the first byte picks document, presentation
 * or spreadsheet), compiled; every chart it holds is laid out
 * (layout/chart.h) with the estimating measurer, and the bytes read as
 * doubles go through the axis ticks: no overflow, no huge allocation
 * (issue 37 row 12), within the fuzzer's RSS limit and timeout. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "compile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void lay_out(const qr_chart *ch)
{
    qr_chart_plot p;
    if (qr_chart_layout(ch, 432, 252, NULL, NULL, &p) == 0) qr_chart_plot_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536) return 0;
    /* the raw bytes as value ranges */
    for (size_t i = 0; i + 16 <= size && i < 256; i += 16) {
        double lo, hi;
        memcpy(&lo, data + i, 8);
        memcpy(&hi, data + i + 8, 8);
        qr_ticks t;
        qr_chart_ticks(lo, hi, 1 + (int)(data[i] % 8), &t);
        if (t.n < 1 || t.n > 1000 || !isfinite(t.lo) || !isfinite(t.hi)) abort();
    }
    static const qr_kind kinds[] = {QR_KIND_DOCUMENT, QR_KIND_PRESENTATION, QR_KIND_SPREADSHEET};
    qr_kind kind = kinds[data[0] % 3];
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    if (qr_compile((const char *)data + 1, size - 1, kind, &co, &doc, &errs) == QR_OK) {
        for (size_t i = 0; i < doc->n_blocks; i++)
            if (doc->blocks[i].type == QR_BLOCK_CHART) lay_out(&doc->blocks[i].u.chart);
        for (size_t i = 0; i < doc->n_slides; i++)
            if (doc->slides[i].chart) lay_out(doc->slides[i].chart);
        for (size_t s = 0; s < doc->n_sheets; s++)
            for (size_t i = 0; i < doc->sheets[s].n_charts; i++)
                lay_out(&doc->sheets[s].charts[i]);
    }
    qr_errlist_clear(&errs);
    qr_doc_free(doc);
    return 0;
}
