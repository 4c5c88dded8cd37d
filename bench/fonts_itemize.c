/* fonts_itemize.c: timings of fonts/ (not a test; nothing asserts on time).
 *
 * Measures the first call (fontconfig load + family table + FcFontSort),
 * a warm D1-sized workload (1,500 paragraphs of ~60 ASCII words in runs,
 * 60 headings), a warm multi-script workload, and the throughput of one
 * paragraph of 1 MB and 4 MB of mixed-script text (linear time check).
 * With FILE, also itemizes each line of FILE as one paragraph.
 *
 * Built by CMake as build/bench/fonts_itemize; by hand:
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Ispec -Ifonts bench/fonts_itemize.c \
 *      build-NAME/libquire.a $(pkg-config --libs fontconfig harfbuzz freetype2 fribidi \
 *      jansson libxml-2.0 libzip cairo pangocairo pangoft2) -lpthread -lm -o fonts_itemize
 *   ./fonts_itemize [FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fonts.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const char *const words[] = {
    "report", "quarter",  "revenue", "growth", "customer", "market",  "analysis",  "the",    "of",
    "and",    "strategy", "product", "team",   "delivery", "results", "operating", "margin", "plan",
    "review", "forecast", "budget",  "risk",   "pipeline", "release", "quality",   "support"};

static const char *const mixed =
    "Quarterly report — Отчёт за квартал, Ελληνικά: x − y → z ≤ 5 ≥ 1 ≠ ∞ ✓ €. "
    "हिन्दी में (नमस्ते), বাংলা, ਪੰਜਾਬੀ, ગુજરાતી, தமிழ், తెలుగు, ಕನ್ನಡ, മലയാളം, සිංහල. "
    "ภาษาไทย ພາສາລາວ ភាសាខ្មែរ မြန်မာ አማርኛ Հայերեն ქართული. "
    "العربية 123 (فارسی می‌خواهم) עברית. "
    "季度报告。四半期レポート。분기 보고서. ＡＢＣ「引用」 ⭐ 😀\n";

static unsigned rng_state = 12345;
static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 16) % n;
}

/* Itemize one paragraph of len bytes of mixed text; returns seconds. */
static double big(qr_fonts *f, size_t len, size_t *spans)
{
    size_t unit = strlen(mixed);
    char *s = malloc(len + unit + 1);
    size_t n = 0;
    while (n < len) {
        memcpy(s + n, mixed, unit);
        n += unit;
    }
    qr_spans sp = {0};
    double t0 = now();
    qr_fonts_itemize(f, s, n, NULL, &sp);
    double t = now() - t0;
    *spans = sp.n;
    qr_spans_free(&sp);
    free(s);
    return t;
}

int main(int argc, char **argv)
{
    double t0 = now();
    qr_fonts *f = qr_fonts_default();
    double t_load = now() - t0;
    qr_spans sp = {0};
    t0 = now();
    qr_fonts_itemize(f, "Hello हिन्दी", strlen("Hello हिन्दी"), NULL, &sp);
    double t_first = now() - t0;
    printf("first call: qr_fonts_default %.1f ms, first itemize %.3f ms\n", t_load * 1e3,
           t_first * 1e3);

    /* D1-like: 1,500 paragraphs of ~60 words in 3-14 word runs + 60 headings. */
    enum { PARAS = 1500 };
    qr_text *texts = calloc(PARAS + 60, sizeof *texts);
    size_t bytes = 0;
    for (int p = 0; p < PARAS + 60; p++) {
        int total = p < PARAS ? 52 + (int)rnd(17) : 2 + (int)rnd(5);
        qr_run *runs = calloc(16, sizeof *runs);
        size_t nr = 0;
        while (total > 0 && nr < 16) {
            int k = 3 + (int)rnd(12);
            if (k > total || nr == 15) k = total;
            total -= k;
            char *buf = malloc(16 * (size_t)k + 2), *q = buf;
            for (int w = 0; w < k; w++)
                q += sprintf(q, "%s ", words[rnd(26)]);
            runs[nr].text = buf;
            runs[nr].len = (size_t)(q - buf);
            runs[nr].bold = rnd(4) == 0;
            bytes += runs[nr].len;
            nr++;
        }
        texts[p].runs = runs;
        texts[p].n = nr;
        texts[p].path = "/blocks/0";
    }
    double best = 1e9;
    size_t total_spans = 0;
    for (int rep = 0; rep < 20; rep++) {
        t0 = now();
        total_spans = 0;
        for (int p = 0; p < PARAS + 60; p++) {
            qr_spans_reset(&sp);
            qr_fonts_itemize_text(f, &texts[p], "en", &sp);
            qr_fonts_text_direction(&texts[p]);
            total_spans += sp.n;
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("warm D1-like text (%d paragraphs, %zu KB, %zu spans): %.3f ms\n", PARAS + 60,
           bytes / 1024, total_spans, best * 1e3);

    /* Warm multi-script paragraphs. */
    size_t mlen = strlen(mixed);
    best = 1e9;
    for (int rep = 0; rep < 20; rep++) {
        t0 = now();
        for (int p = 0; p < 1000; p++) {
            qr_spans_reset(&sp);
            qr_fonts_itemize(f, mixed, mlen, NULL, &sp);
        }
        double t = now() - t0;
        if (t < best) best = t;
    }
    printf("warm mixed paragraph (%zu bytes, %zu spans): %.2f us each, %.1f MB/s\n", mlen, sp.n,
           best / 1000 * 1e6, (double)mlen * 1000 / best / 1e6);

    for (size_t mb = 1; mb <= 4; mb *= 2) {
        size_t spans;
        double t = big(f, mb << 20, &spans);
        printf("one %zu MB mixed paragraph: %.1f ms (%.1f MB/s, %zu spans)\n", mb, t * 1e3,
               (double)mb / t, spans);
    }
    {
        size_t spans;
        double t = big(f, 4u << 20, &spans);
        printf("one 4 MB mixed paragraph (again): %.1f ms (%.1f MB/s)\n", t * 1e3, 4.0 / t);
    }

    if (argc > 1) {
        FILE *fp = fopen(argv[1], "rb");
        if (!fp) {
            perror(argv[1]);
            return 1;
        }
        char *line = NULL;
        size_t cap = 0, lines = 0, fbytes = 0, miss = 0;
        ssize_t n;
        double t = 0;
        while ((n = getline(&line, &cap, fp)) > 0) {
            qr_spans_reset(&sp);
            t0 = now();
            qr_fonts_itemize(f, line, (size_t)n, NULL, &sp);
            t += now() - t0;
            lines++;
            fbytes += (size_t)n;
            miss += sp.n_missing;
        }
        free(line);
        fclose(fp);
        printf("%s: %zu paragraphs, %zu KB, %.3f ms, %zu missing\n", argv[1], lines, fbytes / 1024,
               t * 1e3, miss);
    }
    qr_spans_free(&sp);
    return 0;
}
