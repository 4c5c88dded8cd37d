/* test_face_answers.c: the faces' fontconfig answers kept beside the font
 * cache (pdf/face_answers.c), and the measuring without fontconfig they
 * allow (pdf/simple_text.c, pdf/pdf.c).
 *
 * - An empty set reads back empty; answers added and saved read back field
 *   for field (family names with spaces, files, hexadecimal floats,
 *   features); nothing is written when nothing was added; a truncated or
 *   damaged file, or one written under another program name, reads empty.
 * - A context that only measures (no font map, as pdf.c makes it) measures
 *   a paragraph in every style and a list's labels without getting a font
 *   map: nothing asks pango for a font.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "face_answers.h"
#include "fonts_int.h"
#include "pdf_int.h"
#include "simple_text.h"

static char tmp[64], cache[128], faces[160];

static qr_face_answer answer(const char *family, int size, int found)
{
    qr_face_answer a = {0};
    a.family = family;
    a.lang = pango_language_to_string(pango_language_from_string("en"));
    a.size = size;
    a.bold = size & 1;
    a.italic = (size >> 1) & 1;
    a.dpi = 72;
    a.options = 0x11002;
    a.found = found;
    if (found) {
        a.file = "/fonts/Some Face.ttf";
        a.index = 2;
        a.scale_x = size;
        a.scale_y = size + 1;
        a.ptem = (float)size / 1024.f;
        a.slant = 0.2f;
        a.ok = 1;
        a.has_a = 1;
        a.labels = 0x15;
        hb_feature_from_string("kern", -1, &a.features[0]);
        hb_feature_from_string("-liga", -1, &a.features[1]);
        hb_feature_from_string("aalt=2", -1, &a.features[2]);
        a.n_features = 3;
    }
    return a;
}

static void same_answer(const qr_face_answer *x, const qr_face_answer *y)
{
    assert_string_equal(x->family, y->family);
    assert_ptr_equal(x->lang, y->lang);
    assert_int_equal(x->size, y->size);
    assert_int_equal(x->bold, y->bold);
    assert_int_equal(x->italic, y->italic);
    assert_true(x->dpi == y->dpi);
    assert_int_equal(x->options, y->options);
    assert_int_equal(x->found, y->found);
    if (!x->found) return;
    assert_string_equal(x->file, y->file);
    assert_int_equal(x->index, y->index);
    assert_int_equal(x->scale_x, y->scale_x);
    assert_int_equal(x->scale_y, y->scale_y);
    assert_true(x->ptem == y->ptem);
    assert_true(x->slant == y->slant);
    assert_int_equal(x->ok, y->ok);
    assert_int_equal(x->has_a, y->has_a);
    assert_int_equal(x->has_0, y->has_0);
    assert_int_equal(x->labels, y->labels);
    assert_int_equal(x->n_features, y->n_features);
    assert_memory_equal(x->features, y->features, x->n_features * sizeof *x->features);
}

static void test_round_trip(void **state)
{
    (void)state;
    qr_fonts *f = qr_fonts_default();
    assert_non_null(f->cache_path);
    qr_face_answers *fa = qr_face_answers_load(f);
    assert_non_null(fa);
    qr_face_answer q = answer("DejaVu Sans", 11264, 1);
    assert_null(qr_face_answers_find(fa, &q));
    qr_face_answers_save(fa, FcConfigGetCurrent()); /* nothing added: no file */
    struct stat st;
    assert_int_not_equal(stat(faces, &st), 0);
    qr_face_answer in[3] = {answer("DejaVu Sans", 11264, 1), answer("A family, with spaces", 7, 1),
                            answer("Missing", 9000, 0)};
    for (int i = 0; i < 3; i++)
        assert_int_equal(qr_face_answers_add(fa, &in[i]), 0);
    qr_face_answers_save(fa, FcConfigGetCurrent());
    qr_face_answers_free(fa);
    assert_int_equal(stat(faces, &st), 0);

    fa = qr_face_answers_load(f);
    for (int i = 0; i < 3; i++) {
        const qr_face_answer *got = qr_face_answers_find(fa, &in[i]);
        assert_non_null(got);
        same_answer(&in[i], got);
    }
    q = answer("DejaVu Sans", 11265, 1); /* another size */
    assert_null(qr_face_answers_find(fa, &q));
    qr_face_answers_free(fa);

    /* truncated mid-line: none of it */
    assert_int_equal(truncate(faces, st.st_size - 5), 0);
    fa = qr_face_answers_load(f);
    assert_null(qr_face_answers_find(fa, &in[0]));
    qr_face_answers_free(fa);

    /* another program name (pango's pattern carries it): none */
    fa = qr_face_answers_load(f);
    assert_int_equal(qr_face_answers_add(fa, &in[0]), 0);
    qr_face_answers_save(fa, FcConfigGetCurrent());
    qr_face_answers_free(fa);
    fa = qr_face_answers_load(f);
    assert_non_null(qr_face_answers_find(fa, &in[0]));
    qr_face_answers_free(fa);
    g_set_prgname("another");
    fa = qr_face_answers_load(f);
    assert_null(qr_face_answers_find(fa, &in[0]));
    qr_face_answers_free(fa);
    g_set_prgname(NULL);
    unlink(faces);
}

static void test_no_font_map(void **state)
{
    (void)state;
    PangoContext *pc = pango_context_new(); /* pdf.c's for measuring alone (ctx_pango) */
    qr_pdf_context_setup(pc, NULL);
    qr_simple *s = qr_simple_new(pc, 1, qr_fonts_default());
    assert_non_null(s);
    const char *t = "A paragraph of words, numbers like 3.14 and 1,000, and (brackets).";
    size_t n = strlen(t);
    static const char *const fams[] = {"DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"};
    /* (DejaVu Serif has no task box: pango's, with a fallback font) */
    static const char *const labels[] = {"1.",           "b.",           "iii.",
                                         "\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA"};
    for (int fam = 0; fam < 3; fam++)
        for (int style = 0; style < 4; style++) {
            qr_simple_item it = {
                0,         n,          fams[fam], qr_simple_size(11, style == 3 ? 0.7 : 1),
                style & 1, style >> 1, NULL};
            const qr_simple_line *ln;
            assert_true(qr_simple_break(s, t, n, &it, 1, 120 * PANGO_SCALE, &ln) > 1);
            for (size_t k = 0; k < sizeof labels / sizeof *labels; k++) {
                qr_simple_item lt = it;
                lt.end = strlen(labels[k]);
                assert_true(qr_simple_width(s, labels[k], lt.end, &lt, 1) > 0);
            }
        }
    assert_null(pango_context_get_font_map(pc));
    assert_true(qr_simple_asked_fontconfig(s)); /* the answers were not kept yet */
    qr_simple_free(s);                          /* now they are */
    s = qr_simple_new(pc, 1, qr_fonts_default());
    qr_simple_item it = {0, n, "DejaVu Sans", 11 * PANGO_SCALE, 0, 0, NULL};
    const qr_simple_line *ln;
    assert_true(qr_simple_break(s, t, n, &it, 1, 120 * PANGO_SCALE, &ln) > 1);
    assert_false(qr_simple_asked_fontconfig(s));
    qr_simple_free(s);
    struct stat st;
    assert_int_equal(stat(faces, &st), 0);
    /* pango asked for a font: the context gets the thread's map first */
    qr_pdf_fonts_ready(pc);
    assert_non_null(pango_context_get_font_map(pc));
    g_object_unref(pc);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/quire-faces-XXXXXX");
    if (!mkdtemp(tmp)) return 1;
    snprintf(cache, sizeof cache, "%s/fonts.bin", tmp);
    snprintf(faces, sizeof faces, "%s.faces", cache);
    setenv("QUIRE_FONT_CACHE", cache, 1);
    qr_fonts_enable_cache();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_no_font_map),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(faces);
    unlink(cache);
    rmdir(tmp);
    return rc;
}
