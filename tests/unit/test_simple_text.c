/* test_simple_text.c: pdf/simple_text.c breaks a simple text into exactly
 * the lines a PangoLayout set up as pdf/text.c sets it up (WRAP_WORD_CHAR,
 * insert-hyphens off, one font attribute and language per run) breaks it
 * into, or gives up: over thousands of random ASCII paragraphs (words,
 * numbers, punctuation, quotes, brackets, hyphens, slashes, runs of
 * spaces, long words) in random faces, sizes and widths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"
#include "simple_text.h"

/* The PangoContext pdf.c makes (ctx_pango). */
static PangoContext *new_context(void)
{
    PangoFontMap *map = pango_cairo_font_map_new();
    pango_cairo_font_map_set_resolution(PANGO_CAIRO_FONT_MAP(map), 72.0);
    PangoContext *pc = pango_font_map_create_context(map);
    g_object_unref(map);
    qr_pdf_context_setup(pc, NULL);
    return pc;
}

/* A PangoLayout made as text.c's piece_layout makes one. */
static PangoLayout *pango_layout(PangoContext *pc, const char *t, size_t n,
                                 const qr_simple_item *it, size_t n_it, double base_size, int width)
{
    PangoLayout *lay = pango_layout_new(pc);
    PangoAttrList *al = pango_attr_list_new();
    PangoAttribute *a = pango_attr_insert_hyphens_new(FALSE);
    a->start_index = 0;
    a->end_index = (guint)n;
    pango_attr_list_insert(al, a);
    for (size_t i = 0; i < n_it; i++) {
        PangoFontDescription *fd = pango_font_description_new();
        pango_font_description_set_family(fd, it[i].family);
        pango_font_description_set_weight(fd, it[i].bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
        pango_font_description_set_style(fd,
                                         it[i].italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
        a = pango_attr_font_desc_new(fd);
        a->start_index = (guint)it[i].start;
        a->end_index = (guint)it[i].end;
        pango_attr_list_insert(al, a);
        pango_font_description_free(fd);
        if (it[i].size != it[0].size) {
            /* raised at 70 %, as text.c sets a superscript */
            a = pango_attr_rise_new(3000);
            a->start_index = (guint)it[i].start;
            a->end_index = (guint)it[i].end;
            pango_attr_list_insert(al, a);
            a = pango_attr_scale_new(0.7);
            a->start_index = (guint)it[i].start;
            a->end_index = (guint)it[i].end;
            pango_attr_list_insert(al, a);
        }
        if (it[i].lang) {
            a = pango_attr_language_new(pango_language_from_string(it[i].lang));
            a->start_index = (guint)it[i].start;
            a->end_index = (guint)it[i].end;
            pango_attr_list_insert(al, a);
        }
    }
    PangoFontDescription *base = pango_font_description_new();
    pango_font_description_set_family(base, "DejaVu Sans");
    pango_font_description_set_absolute_size(base, base_size);
    pango_layout_set_font_description(lay, base);
    pango_font_description_free(base);
    pango_layout_set_auto_dir(lay, TRUE);
    pango_layout_set_width(lay, width);
    pango_layout_set_wrap(lay, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_text(lay, t, (int)n);
    pango_layout_set_attributes(lay, al);
    pango_attr_list_unref(al);
    return lay;
}

/* The lines of that layout, each with its logical width (what a
 * right-aligned line's left edge is placed by). */
static int pango_lines(PangoContext *pc, const char *t, size_t n, const qr_simple_item *it,
                       size_t n_it, double base_size, int width, qr_simple_line *out, int room)
{
    PangoLayout *lay = pango_layout(pc, t, n, it, n_it, base_size, width);
    int k = 0;
    for (GSList *l = pango_layout_get_lines_readonly(lay); l && k < room; l = l->next, k++) {
        PangoLayoutLine *line = l->data;
        PangoRectangle log;
        pango_layout_line_get_extents(line, NULL, &log);
        out[k] = (qr_simple_line){line->start_index, line->length, log.width};
    }
    g_object_unref(lay);
    return k;
}

static uint64_t rng = 88172645463325252ull;
static int same_size;    /* random_text(): every run in the base size */
static int numbers_only; /* random_text(): a few numbers, as a table cell holds */
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

static const char *const WORDS[] = {
    "the",
    "layout",
    "of",
    "Table",
    "AVATAR",
    "Wave",
    "office",
    "fjord",
    "flow",
    "x",
    "I",
    "a",
    "quire",
    "LTA",
    "To",
    "Yo",
    "well-",
    "known",
    "e.g.",
    "U.S.",
    "3.14",
    "1,000",
    "$5",
    "50%",
    "(see",
    "below)",
    "[1]",
    "{x}",
    "a/b",
    "http://example.com/a-b",
    "\"quoted\"",
    "'tis",
    "it's",
    "--",
    "-",
    "end.",
    "stop,",
    "semi;",
    "co:lon",
    "why?",
    "wow!",
    "#tag",
    "@who",
    "a&b",
    "x*y",
    "1+2=3",
    "<tag>",
    "~t",
    "^",
    "_u_",
    "`c`",
    "|pipe|",
    "back\\s",
    "A.",
    "10-20",
    "-5",
    "+7",
    "(12)",
    "3/4",
    "ff",
    "ffi",
    "Wa",
    "Tj",
    "supercalifragilisticexpialidocious",
    "pneumonoultramicroscopicsilicovolcanoconiosis",
};

static const char *const FAMILIES[] = {"DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif",
                                       "Noto Sans"};

/* Run languages: Latin ones, and ones whose script is not Latin (pango
 * then itemizes Latin letters in another language). */
static const char *const LANGS[] = {"de", "fr", "ru", "ar", "ja", "zh-cn"};

/* A random paragraph into t (room 4096), its runs into it; returns n. */
static size_t random_text(char *t, qr_simple_item *it, size_t *n_it, double size)
{
    size_t n = 0, words = numbers_only ? 1 + rnd(3) : 1 + rnd(rnd(4) ? 40 : 200);
    if (rnd(8) == 0) t[n++] = ' ';
    for (size_t w = 0; w < words && n < 3800; w++) {
        const char *s = WORDS[rnd(sizeof WORDS / sizeof *WORDS)];
        if (numbers_only) {
            /* figures with separators: 7, 12.5, 1,234,567.89, .5, 3., 1 000 */
            size_t k = 1 + rnd(12);
            for (size_t i = 0; i < k; i++)
                t[n++] = rnd(5) ? (char)('0' + rnd(10)) : ".,  "[rnd(4)];
        } else if (rnd(6) == 0) {
            /* a made-up token of any printable characters */
            size_t k = 1 + rnd(8);
            for (size_t i = 0; i < k; i++)
                t[n++] = (char)(0x21 + rnd(94));
        } else {
            size_t k = strlen(s);
            memcpy(t + n, s, k);
            n += k;
        }
        if (w + 1 < words || rnd(4) == 0) {
            size_t sp = rnd(10) == 0 ? 2 + rnd(3) : rnd(12) == 0 ? 0 : 1;
            for (size_t i = 0; i < sp; i++)
                t[n++] = ' ';
        }
    }
    /* runs: cut anywhere (mostly after a space), each a random face */
    size_t k = 0, from = 0;
    while (from < n) {
        size_t to = rnd(3) == 0 ? n : from + 1 + rnd(60);
        if (to > n) to = n;
        if (rnd(3) && to < n) {
            while (to < n && t[to - 1] != ' ')
                to++;
        }
        int f = rnd(5) ? 0 : (int)rnd(4);
        /* the first run keeps the base size (pango_lines tells the others by it) */
        int sz = qr_simple_size(size, k && !same_size && rnd(8) == 0 ? 0.7 : 1);
        it[k] = (qr_simple_item){
            from, to, FAMILIES[f], sz, rnd(3) == 0, rnd(4) == 0, rnd(5) ? NULL : LANGS[rnd(6)]};
        k++;
        from = to;
    }
    *n_it = k;
    return n;
}

/* rounds random paragraphs against pango's lines; fresh: each with a new
 * qr_simple, so every piece of it is new (shaped with the paragraph's other
 * new pieces of its face, simple_text.c batch_shape) rather than kept;
 * widths_only: faces opened without pango (simple_text.c face_open_fc) */
static void random_paragraphs(int rounds, int fresh, int widths_only)
{
    PangoContext *pc = new_context();
    qr_simple *s = qr_simple_new(pc, widths_only, NULL);
    assert_non_null(s);
    static char t[4096];
    static qr_simple_item it[4096];
    static qr_simple_line want[4096];
    const double sizes[] = {6, 8, 9, 10, 10.5, 11, 12, 14, 17.3, 24};
    int tried = 0, answered = 0;
    for (int round = 0; round < rounds; round++) {
        double size = sizes[rnd(10)];
        size_t n_it, n = random_text(t, it, &n_it, size);
        int width = (int)((20 + rnd(480) + rnd(100) / 100.0) * PANGO_SCALE);
        if (fresh) {
            qr_simple_free(s);
            s = qr_simple_new(pc, widths_only, NULL);
            assert_non_null(s);
        }
        const qr_simple_line *got;
        long nl = qr_simple_break(s, t, n, it, n_it, width, &got);
        tried++;
        if (nl < 0) continue;
        answered++;
        int nw = pango_lines(pc, t, n, it, n_it, size * PANGO_SCALE, width, want, 4096);
        if (nl != nw || memcmp(got, want, (size_t)nw * sizeof *want) != 0) {
            fprintf(stderr, "round %d: width %d, %zu runs, %ld lines, pango %d: \"%.*s\"\n", round,
                    width, n_it, nl, nw, (int)n, t);
            for (long i = 0; i < nl || i < nw; i++)
                fprintf(stderr, "  line %ld: %d+%d w %d / pango %d+%d w %d\n", i,
                        i < nl ? got[i].start : -1, i < nl ? got[i].length : -1,
                        i < nl ? got[i].width : -1, i < nw ? want[i].start : -1,
                        i < nw ? want[i].length : -1, i < nw ? want[i].width : -1);
            fail();
        }
    }
    fprintf(stderr, "simple_text: %d of %d random paragraphs answered (%s%s), all as pango\n",
            answered, tried, fresh ? "each piece new" : "pieces kept",
            widths_only ? ", faces without pango" : "");
    /* most paragraphs are simple: the fast path must answer them */
    assert_true(answered * 2 > tried);
    qr_simple_free(s);
    g_object_unref(pc);
}

static void test_random_paragraphs(void **state)
{
    (void)state;
    random_paragraphs(3000, 0, 0);
}

static void test_random_paragraphs_new_pieces(void **state)
{
    (void)state;
    random_paragraphs(1500, 1, 0);
}

/* The same with the faces opened without pango (the docx's measure pass),
 * each also opened by pango and compared (QUIRE_SIMPLE_TEXT=check: the
 * font file, HarfBuzz scale, size, slant, features, language, script). */
static void test_random_paragraphs_widths_only(void **state)
{
    (void)state;
    random_paragraphs(3000, 0, 1);
    random_paragraphs(300, 1, 1);
}

/* Numbers alone (table cells, note and page numbers: simple_text.c's
 * number_widths(), without HarfBuzz in faces where figures do not kern),
 * against pango's lines, kept and new, with and without pango's faces. */
static void test_numbers(void **state)
{
    (void)state;
    numbers_only = 1;
    random_paragraphs(2000, 0, 1);
    random_paragraphs(300, 1, 1);
    random_paragraphs(1000, 0, 0);
    numbers_only = 0;
}

/* Per face: the widths of texts set alone on one unbounded line, with the
 * face opened by pango and without it, over random faces, sizes (raised
 * at 70 % too) and languages. */
static void test_faces_without_pango(void **state)
{
    (void)state;
    PangoContext *pc = new_context();
    qr_simple *p = qr_simple_new(pc, 0, NULL), *w = qr_simple_new(pc, 1, NULL);
    assert_non_null(p);
    assert_non_null(w);
    static char t[4096];
    const double sizes[] = {6, 8, 9, 10, 10.5, 11, 12, 14, 17.3, 24};
    int faces = 0;
    for (int round = 0; round < 400; round++) {
        size_t n = 1 + rnd(60);
        for (size_t i = 0; i < n; i++)
            t[i] = (char)(0x21 + rnd(94)); /* no space: one line */
        qr_simple_item it = {0,
                             n,
                             FAMILIES[rnd(sizeof FAMILIES / sizeof *FAMILIES)],
                             qr_simple_size(sizes[rnd(10)], rnd(4) ? 1 : 0.7),
                             rnd(2),
                             rnd(2),
                             rnd(3) ? NULL : LANGS[rnd(6)]};
        const qr_simple_line *a, *b;
        long na = qr_simple_break(p, t, n, &it, 1, 1 << 30, &a);
        long nb = qr_simple_break(w, t, n, &it, 1, 1 << 30, &b);
        assert_int_equal(na, nb);
        if (na == 1) assert_int_equal(a[0].width, b[0].width);
    }
    faces = (int)qr_simple_n_faces(w);
    fprintf(stderr, "simple_text: %d faces opened without pango, widths as pango's\n", faces);
    assert_true(faces > 20);
    qr_simple_free(p);
    qr_simple_free(w);
    g_object_unref(pc);
}

/* A text of words made of letters and digits, most ending in stops
 * (. , : ; ! ?), some numbers (digits parted by . , : ;), some of these
 * followed by letters, a few with any printable character anywhere: the
 * words qr_simple_breaks() answers without pango, and their near misses. */
static size_t word_text(char *t)
{
    static const char alnum[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static const char stops[] = ".,:;!?";
    size_t n = 0, words = 1 + rnd(12);
    for (size_t w = 0; w < words; w++) {
        if (w) t[n++] = ' ';
        if (!rnd(4)) {
            /* a number, its digits parted by stops: 12,534.5 */
            for (size_t parts = 1 + rnd(4); parts; parts--) {
                for (size_t k = 1 + rnd(4); k; k--)
                    t[n++] = (char)('0' + rnd(10));
                if (parts > 1) t[n++] = stops[rnd(4)];
            }
        }
        for (size_t k = rnd(4) ? 1 + rnd(9) : 0; k; k--)
            t[n++] = alnum[rnd(sizeof alnum - 1)];
        for (size_t k = rnd(3) ? rnd(3) : 0; k; k--)
            t[n++] = stops[rnd(sizeof stops - 1)];
        if (!rnd(8)) t[n++] = rnd(2) ? alnum[rnd(sizeof alnum - 1)] : (char)(0x21 + rnd(94));
        if (!rnd(8)) t[n++] = (char)(0x21 + rnd(94));
    }
    return n;
}

/* What a line draws: the glyph runs qr_simple_runs() gives, recorded as
 * the PDF's paint pass records them (pdf/replay.c), are pango's own
 * recording of the layout's line, byte for byte (fonts, glyphs, offsets,
 * clusters, the wrapped lines' final space not drawn): random paragraphs
 * in one size per paragraph (a raised run is painted by pango). */
static void test_random_runs(void **state)
{
    (void)state;
    PangoContext *pc = new_context();
    qr_simple *s = qr_simple_new(pc, 0, NULL);
    assert_non_null(s);
    PangoRenderer *r = qr_pdf_rec_renderer_new();
    static char t[4096];
    static qr_simple_item it[4096];
    const double sizes[] = {6, 8, 9, 10, 10.5, 11, 12, 14, 17.3, 24};
    int answered = 0, lines = 0;
    same_size = 1;
    for (int round = 0; round < 1500; round++) {
        double size = sizes[rnd(10)];
        size_t n_it, n = random_text(t, it, &n_it, size);
        int width = (int)((20 + rnd(480) + rnd(100) / 100.0) * PANGO_SCALE);
        const qr_simple_line *got;
        long nl = qr_simple_break(s, t, n, it, n_it, width, &got);
        if (nl < 0) continue;
        answered++;
        qr_simple_line *ln = malloc((size_t)nl * sizeof *ln);
        assert_non_null(ln);
        memcpy(ln, got, (size_t)nl * sizeof *ln);
        PangoLayout *lay = pango_layout(pc, t, n, it, n_it, size * PANGO_SCALE, width);
        assert_int_equal(pango_layout_get_line_count(lay), nl);
        for (long k = 0; k < nl; k++, lines++) {
            qr_buf want = {0}, have = {0};
            assert_int_equal(qr_pdf_rec_line(r, &want, pango_layout_get_line_readonly(lay, k)), 0);
            const qr_simple_run *runs;
            long nr = qr_simple_runs(s, t, n, it, n_it, ln[k].start, ln[k].length, k + 1 < nl, NULL,
                                     0, &runs);
            assert_true(nr > 0);
            for (long i = 0; i < nr; i++)
                qr_pdf_rec_glyph_run(&have, NULL, runs[i].font, runs[i].x, 0, t + runs[i].start,
                                     runs[i].length, runs[i].glyphs, runs[i].log_clusters,
                                     runs[i].n_glyphs);
            qr_pdf_rec_line_end(&have);
            if (qr_pdf_rec_compare(&want, pango_layout_get_text(lay), &have, t) != 0) {
                fprintf(stderr, "round %d line %ld (%d+%d of %ld): \"%.*s\"\n", round, k,
                        ln[k].start, ln[k].length, nl, (int)n, t);
                for (size_t i = 0; i < n_it; i++)
                    fprintf(stderr, "  item %zu-%zu %s %d %d %d %s\n", it[i].start, it[i].end,
                            it[i].family, it[i].size, it[i].bold, it[i].italic,
                            it[i].lang ? it[i].lang : "-");
                for (long i = 0; i < nr; i++)
                    fprintf(stderr, "  run %d+%d x %d: %d glyphs\n", runs[i].start, runs[i].length,
                            runs[i].x, runs[i].n_glyphs);
                for (GSList *l = pango_layout_get_line_readonly(lay, k)->runs; l; l = l->next) {
                    PangoGlyphItem *gi = l->data;
                    fprintf(stderr, "  pango run %d+%d: %d glyphs:", gi->item->offset,
                            gi->item->length, gi->glyphs->num_glyphs);
                    for (int g = 0; g < gi->glyphs->num_glyphs; g++)
                        fprintf(stderr, " %u/%d/%d", gi->glyphs->glyphs[g].glyph,
                                gi->glyphs->glyphs[g].geometry.width, gi->glyphs->log_clusters[g]);
                    fprintf(stderr, "\n");
                }
                for (long i = 0; i < nr; i++) {
                    fprintf(stderr, "  mine:");
                    for (int g = 0; g < runs[i].n_glyphs; g++)
                        fprintf(stderr, " %u/%d/%d", runs[i].glyphs[g].glyph,
                                runs[i].glyphs[g].geometry.width, runs[i].log_clusters[g]);
                    fprintf(stderr, "\n");
                }
                fail();
            }
            qr_buf_free(&want);
            qr_buf_free(&have);
        }
        g_object_unref(lay);
        free(ln);
    }
    same_size = 0;
    fprintf(stderr, "simple_text: %d paragraphs, %d lines drawn as pango draws them\n", answered,
            lines);
    assert_true(answered > 500);
    g_object_unref(r);
    qr_simple_free(s);
    g_object_unref(pc);
}

/* The break opportunities, word by word, are pango_get_log_attrs()' over
 * the whole text: random texts of words, of letters and digits with stops
 * after them, and of any printable characters, and every pair of
 * characters around a space. */
static void test_breaks(void **state)
{
    (void)state;
    PangoContext *pc = new_context();
    qr_simple *s = qr_simple_new(pc, 0, NULL);
    static char t[4096];
    static qr_simple_item it[4096];
    static unsigned char brk[4096];
    static PangoLogAttr la[4097];
    PangoLanguage *en = pango_language_from_string("en");
    for (int round = 0; round < 20000; round++) {
        size_t n_it, n;
        if (round < 95 * 95) {
            /* "p f" and "p fx" for every printable p and f (simple_text.c's
             * first_break() table), one to three spaces between */
            size_t sp = 1 + rnd(3);
            t[0] = (char)(0x20 + round / 95);
            memset(t + 1, ' ', sp);
            t[1 + sp] = (char)(0x20 + round % 95);
            t[2 + sp] = (char)(0x21 + rnd(94));
            n = 2 + sp + rnd(2);
        } else if (round % 3 == 0) {
            n = word_text(t);
        } else if (round % 2) {
            n = random_text(t, it, &n_it, 10);
        } else {
            n = 1 + rnd(60);
            for (size_t i = 0; i < n; i++)
                t[i] = rnd(4) ? (char)(0x21 + rnd(94)) : ' ';
        }
        assert_int_equal(qr_simple_breaks(s, t, n, brk), 0);
        /* pango 1.50 leaves the first position's is_line_break as it was
         * (never a break: UAX #14 LB2) */
        memset(la, 0, ((size_t)n + 1) * sizeof *la);
        pango_get_log_attrs(t, (int)n, -1, en, la, (int)n + 1);
        for (size_t i = 0; i < n; i++)
            if (brk[i] != la[i].is_line_break) {
                fprintf(stderr, "\"%.*s\" at %zu: %d, pango %d\n", (int)n, t, i, brk[i],
                        la[i].is_line_break);
                fail();
            }
    }
    qr_simple_free(s);
    g_object_unref(pc);
}

/* A context as pdf.c makes one to measure alone (layout_only): the same
 * settings, no font map until pango needs one (qr_pdf_fonts_ready). */
static PangoContext *bare_context(void)
{
    PangoContext *pc = pango_context_new();
    qr_pdf_context_setup(pc, NULL);
    return pc;
}

/* A list's labels (pdf/layout.c lays them out with no width: their widths
 * set the list's indents): qr_simple_width() gives what an unwrapped
 * PangoLayout gives, with faces opened by pango, without it on a context
 * with a font map, and without it on one with none (test_face_answers.c
 * shows that one never gets a map). */
static void test_label_widths(void **state)
{
    (void)state;
    static const char *const labels[] = {
        "1.",           "12.",          "307.",         "a.",           "zz.",
        "xiv.",         "mmmcdxliv.",   "\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA",
        "\xE2\x98\x90", "\xE2\x98\x91", "1. 2"};
    static const char *const langs[] = {NULL, "de", "ja", "ar"};
    const double sizes[] = {7, 9, 10.5, 11, 14, 24};
    PangoContext *pc = new_context(), *bare = bare_context();
    qr_simple *sp = qr_simple_new(pc, 0, NULL), *sw = qr_simple_new(pc, 1, NULL);
    qr_simple *sb = qr_simple_new(bare, 1, NULL);
    assert_true(sp && sw && sb);
    int measured = 0, labels_measured = 0;
    for (size_t fam = 0; fam < 3; fam++) /* the DejaVu families: no map needed */
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
            for (int style = 0; style < 4; style++)
                for (size_t l = 0; l < sizeof langs / sizeof *langs; l++)
                    for (size_t k = 0; k < sizeof labels / sizeof *labels; k++) {
                        const char *t = labels[k];
                        size_t n = strlen(t);
                        qr_simple_item it = {
                            0,         n,          FAMILIES[fam], qr_simple_size(sizes[z], 1),
                            style & 1, style >> 1, langs[l]};
                        qr_simple_line pl[2];
                        assert_int_equal(pango_lines(pc, t, n, &it, 1, it.size, -1, pl, 2), 1);
                        long w[3] = {qr_simple_width(sp, t, n, &it, 1),
                                     qr_simple_width(sw, t, n, &it, 1),
                                     qr_simple_width(sb, t, n, &it, 1)};
                        for (int i = 0; i < 3; i++) {
                            if (w[i] < 0) continue;
                            if (w[i] != pl[0].width) {
                                fprintf(stderr, "\"%s\" in %s %g %d %s: %ld, pango %d\n", t,
                                        FAMILIES[fam], sizes[z], style, langs[l] ? langs[l] : "-",
                                        w[i], pl[0].width);
                                fail();
                            }
                            measured++;
                            labels_measured += (unsigned char)t[0] >= 0x80;
                        }
                    }
    fprintf(stderr, "simple_text: %d label widths as pango's (%d bullets and boxes)\n", measured,
            labels_measured);
    assert_true(measured > 4000);
    assert_true(labels_measured > 1500);
    /* not a label: pango's */
    qr_simple_item it = {0, 2, "DejaVu Sans", 11 * PANGO_SCALE, 0, 0, NULL};
    assert_int_equal(qr_simple_width(sb, "\xE2\x86\x92", 3, &it, 1), -1);
    assert_int_equal(qr_simple_width(sb, "\xC3\xA9", 2, &it, 1), -1);
    qr_simple_free(sp);
    qr_simple_free(sw);
    qr_simple_free(sb);
    g_object_unref(bare);
    g_object_unref(pc);
}

/* Non-ASCII, tabs and newlines are never simple. */
static void test_not_simple(void **state)
{
    (void)state;
    /* the break scan refuses them too, wherever they stand in a word */
    PangoContext *pc = new_context();
    qr_simple *s = qr_simple_new(pc, 1, NULL);
    assert_non_null(s);
    static const char *const bad[] = {"a\tb", "ab c\n", "\x01x", "caf\xc3\xa9 au lait",
                                      "x (y\x7f)"};
    unsigned char brk[32];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = strlen(bad[i]);
        assert_int_equal(qr_simple_breaks(s, bad[i], n, brk), -1);
        qr_simple_item it = {0, n, "DejaVu Sans", 10 * PANGO_SCALE, 0, 0, NULL};
        const qr_simple_line *ln;
        assert_int_equal(qr_simple_break(s, bad[i], n, &it, 1, 100 * PANGO_SCALE, &ln), -1);
    }
    qr_simple_free(s);
    g_object_unref(pc);
    assert_false(qr_simple_ascii("a\tb", 3));
    assert_false(qr_simple_ascii("a\nb", 3));
    assert_false(qr_simple_ascii("caf\xc3\xa9", 5));
    assert_false(qr_simple_ascii("", 0));
    assert_true(qr_simple_ascii("plain text, 100%.", 17));
}

int main(void)
{
    setenv("QUIRE_SIMPLE_TEXT", "check", 1); /* simple_text.c's face_check() */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_simple),
        cmocka_unit_test(test_breaks),
        cmocka_unit_test(test_random_paragraphs),
        cmocka_unit_test(test_random_paragraphs_new_pieces),
        cmocka_unit_test(test_random_paragraphs_widths_only),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_faces_without_pango),
        cmocka_unit_test(test_label_widths),
        cmocka_unit_test(test_random_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
