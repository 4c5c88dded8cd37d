/* test_fonts.c: script itemization, font choice, CJK flavour and direction.
 *
 * Every itemization goes through check_spans(), which asserts the contract
 * of fonts.h: spans tile each run in order without crossing run boundaries,
 * and every visible character either has a glyph in its span's font file
 * (checked with FreeType, independently of fontconfig) or is listed in
 * missing, in which case no installed font covers it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fonts.h"

/* ---- helpers ----------------------------------------------------------------- */

static FT_Library ft;

typedef struct ft_cache {
    char file[512];
    int index;
    FT_Face face;
} ft_cache;
static ft_cache faces[64];
static int n_faces;

static FT_Face face_for(const char *file, int index)
{
    for (int i = 0; i < n_faces; i++)
        if (faces[i].index == index && strcmp(faces[i].file, file) == 0) return faces[i].face;
    if (!ft) assert_int_equal(FT_Init_FreeType(&ft), 0);
    FT_Face fc = NULL;
    if (FT_New_Face(ft, file, index, &fc) != 0) fail_msg("FreeType cannot open %s", file);
    assert_true(n_faces < 64);
    snprintf(faces[n_faces].file, sizeof faces[n_faces].file, "%s", file);
    faces[n_faces].index = index;
    faces[n_faces].face = fc;
    n_faces++;
    return fc;
}

static size_t utf8_next(const char *s, size_t n, size_t i, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s + i;
    unsigned c = p[0];
    size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    assert_true(i + k <= n);
    uint32_t v = k == 1 ? c : k == 2 ? (c & 0x1F) : k == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t j = 1; j < k; j++)
        v = (v << 6) | (p[j] & 0x3F);
    *cp = v;
    return k;
}

static int invisible(uint32_t cp)
{
    hb_unicode_general_category_t gc =
        hb_unicode_general_category(hb_unicode_funcs_get_default(), cp);
    return gc == HB_UNICODE_GENERAL_CATEGORY_CONTROL || gc == HB_UNICODE_GENERAL_CATEGORY_FORMAT ||
           (cp >= 0xFE00 && cp <= 0xFE0F);
}

static int in_missing(const qr_spans *sp, uint32_t run, uint32_t cp)
{
    for (size_t i = 0; i < sp->n_missing; i++)
        if (sp->missing[i].run == run && sp->missing[i].cp == cp) return 1;
    return 0;
}

/* Does any font of the system configuration cover cp? */
static int system_covers(uint32_t cp)
{
    FcPattern *pat = FcPatternCreate();
    FcCharSet *cs = FcCharSetCreate();
    FcCharSetAddChar(cs, cp);
    FcPatternAddCharSet(pat, FC_CHARSET, cs);
    FcObjectSet *os = FcObjectSetBuild(FC_FILE, (char *)0);
    FcFontSet *set = FcFontList(NULL, pat, os);
    int n = set ? set->nfont : 0;
    if (set) FcFontSetDestroy(set);
    FcObjectSetDestroy(os);
    FcCharSetDestroy(cs);
    FcPatternDestroy(pat);
    return n > 0;
}

/* The contract, for a text itemized with fonts f (system = f is the default set). */
static void check_spans(qr_fonts *f, const qr_text *t, const qr_spans *sp, int system)
{
    size_t k = 0;
    for (size_t r = 0; r < t->n; r++) {
        size_t pos = 0;
        while (k < sp->n && sp->items[k].run == r) {
            const qr_span *s = &sp->items[k];
            assert_int_equal(s->start, pos);
            assert_true(s->len > 0);
            assert_non_null(s->family);
            assert_non_null(s->file);
            pos += s->len;
            assert_true(pos <= t->runs[r].len);
            int idx = qr_fonts_face_index(f, s->family, 0, 0);
            for (size_t i = s->start; i < s->start + s->len;) {
                uint32_t cp;
                i += utf8_next(t->runs[r].text, t->runs[r].len, i, &cp);
                if (invisible(cp)) continue;
                int covered =
                    s->file[0] && idx >= 0 && FT_Get_Char_Index(face_for(s->file, idx), cp) != 0;
                if (covered) continue;
                if (!in_missing(sp, (uint32_t)r, cp) && cp != ' ')
                    fail_msg("U+%04X in run %zu (%s) is neither covered nor missing", cp, r,
                             s->family);
                if (system && system_covers(cp))
                    fail_msg("U+%04X is reported missing but an installed font covers it", cp);
            }
            k++;
        }
        assert_int_equal(pos, t->runs[r].len);
    }
    assert_int_equal(k, sp->n);
}

/* Itemize one string with the default set and check the contract. */
static void itemize(const char *s, const char *lang, qr_spans *out)
{
    qr_spans_reset(out);
    assert_int_equal(qr_fonts_itemize(qr_fonts_default(), s, strlen(s), lang, out), QR_OK);
    qr_run run = {0};
    run.text = s;
    run.len = strlen(s);
    qr_text t = {&run, 1, "/t"};
    check_spans(qr_fonts_default(), &t, out, 1);
}

/* The span holding the first byte of needle in s. */
static const qr_span *span_at(const char *s, const qr_spans *sp, const char *needle)
{
    const char *p = strstr(s, needle);
    if (!p) fail_msg("%s not in %s", needle, s);
    size_t off = (size_t)(p - s);
    for (size_t i = 0; i < sp->n; i++)
        if (off >= sp->items[i].start && off < sp->items[i].start + sp->items[i].len)
            return &sp->items[i];
    fail_msg("no span at %zu", off);
    return NULL;
}

/* The text of a span as a NUL-terminated copy in buf. */
static const char *span_text(const char *s, const qr_span *x, char *buf, size_t n)
{
    snprintf(buf, n, "%.*s", (int)x->len, s + x->start);
    return buf;
}

#define TAG(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (d))

/* ---- direction ------------------------------------------------------------------ */

static void test_direction(void **state)
{
    (void)state;
    const char *a = "123 سلام world", *b = "Version 2 (نسخه)";
    assert_int_equal(qr_fonts_direction(a, strlen(a)), QR_DIR_RTL);
    assert_int_equal(qr_fonts_direction(b, strlen(b)), QR_DIR_LTR);
    assert_int_equal(qr_fonts_direction("123", 3), QR_DIR_NEUTRAL);
    assert_int_equal(qr_fonts_direction("", 0), QR_DIR_NEUTRAL);
    assert_int_equal(qr_fonts_direction(NULL, 0), QR_DIR_NEUTRAL);
    const char *he = "(שלום) world";
    assert_int_equal(qr_fonts_direction(he, strlen(he)), QR_DIR_RTL);
    const char *syr = "ܫܠܡܐ";
    assert_int_equal(qr_fonts_direction(syr, strlen(syr)), QR_DIR_RTL);
    const char *dv = "ދިވެހި";
    assert_int_equal(qr_fonts_direction(dv, strlen(dv)), QR_DIR_RTL);
    /* P2: text inside an isolate (RLI ... PDI) is skipped. */
    const char *iso = "\xE2\x81\xA7سلام\xE2\x81\xA9 hello";
    assert_int_equal(qr_fonts_direction(iso, strlen(iso)), QR_DIR_LTR);
    /* An unterminated isolate hides everything after it. */
    const char *open = "\xE2\x81\xA6hello";
    assert_int_equal(qr_fonts_direction(open, strlen(open)), QR_DIR_NEUTRAL);
    /* Embedding controls are not strong. */
    const char *rle = "\xE2\x80\xAB"
                      "12 שלום";
    assert_int_equal(qr_fonts_direction(rle, strlen(rle)), QR_DIR_RTL);

    qr_run runs[2] = {{0}};
    runs[0].text = "123 - ";
    runs[0].len = strlen(runs[0].text);
    runs[1].text = "مرحبا world";
    runs[1].len = strlen(runs[1].text);
    qr_text t = {runs, 2, "/x"};
    assert_int_equal(qr_fonts_text_direction(&t), QR_DIR_RTL);
    t.n = 1;
    assert_int_equal(qr_fonts_text_direction(&t), QR_DIR_NEUTRAL);
    t.n = 0;
    assert_int_equal(qr_fonts_text_direction(&t), QR_DIR_NEUTRAL);
}

/* ---- every script of the table --------------------------------------------------------- */

typedef struct script_case {
    const char *text;
    uint32_t script;
    const char *name;
    const char *family;
    qr_font_slot slot;
    int rtl;
    const char *lang;
} script_case;

static const script_case scripts[] = {
    {"Bonjour", TAG('L', 'a', 't', 'n'), "latin", "DejaVu Sans", QR_SLOT_LATIN, 0, NULL},
    {"Ελληνικά", TAG('G', 'r', 'e', 'k'), "greek", "DejaVu Sans", QR_SLOT_LATIN, 0, "el"},
    {"Отчёт", TAG('C', 'y', 'r', 'l'), "cyrillic", "DejaVu Sans", QR_SLOT_LATIN, 0, "ru"},
    {"العربية", TAG('A', 'r', 'a', 'b'), "arabic", "Noto Sans Arabic", QR_SLOT_COMPLEX, 1, "ar"},
    {"עברית", TAG('H', 'e', 'b', 'r'), "hebrew", "Noto Sans Hebrew", QR_SLOT_COMPLEX, 1, "he"},
    {"ܫܠܡܐ", TAG('S', 'y', 'r', 'c'), "syriac", "Noto Sans Syriac", QR_SLOT_COMPLEX, 1, "syr"},
    {"ދިވެހި", TAG('T', 'h', 'a', 'a'), "thaana", "Noto Sans Thaana", QR_SLOT_COMPLEX, 1, "dv"},
    {"ߒߞߏ", TAG('N', 'k', 'o', 'o'), "nko", "Noto Sans NKo", QR_SLOT_COMPLEX, 1, "nqo"},
    {"हिन्दी", TAG('D', 'e', 'v', 'a'), "devanagari", "Noto Sans Devanagari", QR_SLOT_COMPLEX, 0,
     "hi"},
    {"বাংলা", TAG('B', 'e', 'n', 'g'), "bengali", "Noto Sans Bengali", QR_SLOT_COMPLEX, 0, "bn"},
    {"ਪੰਜਾਬੀ", TAG('G', 'u', 'r', 'u'), "gurmukhi", "Noto Sans Gurmukhi", QR_SLOT_COMPLEX, 0, "pa"},
    {"ગુજરાતી", TAG('G', 'u', 'j', 'r'), "gujarati", "Noto Sans Gujarati", QR_SLOT_COMPLEX, 0, "gu"},
    {"ଓଡ଼ିଆ", TAG('O', 'r', 'y', 'a'), "oriya", "Noto Sans Oriya", QR_SLOT_COMPLEX, 0, "or"},
    {"தமிழ்", TAG('T', 'a', 'm', 'l'), "tamil", "Noto Sans Tamil", QR_SLOT_COMPLEX, 0, "ta"},
    {"తెలుగు", TAG('T', 'e', 'l', 'u'), "telugu", "Noto Sans Telugu", QR_SLOT_COMPLEX, 0, "te"},
    {"ಕನ್ನಡ", TAG('K', 'n', 'd', 'a'), "kannada", "Noto Sans Kannada", QR_SLOT_COMPLEX, 0, "kn"},
    {"മലയാളം", TAG('M', 'l', 'y', 'm'), "malayalam", "Noto Sans Malayalam", QR_SLOT_COMPLEX, 0,
     "ml"},
    {"සිංහල", TAG('S', 'i', 'n', 'h'), "sinhala", "Noto Sans Sinhala", QR_SLOT_COMPLEX, 0, "si"},
    {"ภาษาไทย", TAG('T', 'h', 'a', 'i'), "thai", "Noto Sans Thai", QR_SLOT_COMPLEX, 0, "th"},
    {"ພາສາລາວ", TAG('L', 'a', 'o', 'o'), "lao", "Noto Sans Lao", QR_SLOT_COMPLEX, 0, "lo"},
    {"ភាសាខ្មែរ", TAG('K', 'h', 'm', 'r'), "khmer", "Noto Sans Khmer", QR_SLOT_COMPLEX, 0, "km"},
    {"မြန်မာ", TAG('M', 'y', 'm', 'r'), "myanmar", "Noto Sans Myanmar", QR_SLOT_COMPLEX, 0, "my"},
    {"አማርኛ", TAG('E', 't', 'h', 'i'), "ethiopic", "Noto Sans Ethiopic", QR_SLOT_LATIN, 0, "am"},
    {"Հայերեն", TAG('A', 'r', 'm', 'n'), "armenian", "Noto Sans Armenian", QR_SLOT_LATIN, 0, "hy"},
    {"ქართული", TAG('G', 'e', 'o', 'r'), "georgian", "Noto Sans Georgian", QR_SLOT_LATIN, 0, "ka"},
    {"漢字", TAG('H', 'a', 'n', 'i'), "han", "Noto Sans CJK SC", QR_SLOT_EAST_ASIAN, 0, "zh-CN"},
    {"ひらがな", TAG('H', 'i', 'r', 'a'), "hiragana", "Noto Sans CJK JP", QR_SLOT_EAST_ASIAN, 0,
     "ja-JP"},
    {"カタカナ", TAG('K', 'a', 'n', 'a'), "katakana", "Noto Sans CJK JP", QR_SLOT_EAST_ASIAN, 0,
     "ja-JP"},
    {"한국어", TAG('H', 'a', 'n', 'g'), "hangul", "Noto Sans CJK KR", QR_SLOT_EAST_ASIAN, 0,
     "ko-KR"},
};

static void test_every_script(void **state)
{
    (void)state;
    qr_spans sp = {0};
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++) {
        const script_case *c = &scripts[i];
        itemize(c->text, NULL, &sp);
        if (sp.n != 1) fail_msg("%s: %zu spans", c->text, sp.n);
        const qr_span *s = &sp.items[0];
        assert_int_equal(s->len, strlen(c->text));
        if (s->script != c->script) fail_msg("%s: script %s", c->text, qr_script_name(s->script));
        assert_string_equal(qr_script_name(s->script), c->name);
        assert_string_equal(s->family, c->family);
        assert_true(strlen(s->file) > 0);
        assert_int_equal(s->slot, c->slot);
        assert_int_equal(s->rtl, c->rtl);
        if (c->lang)
            assert_string_equal(s->lang, c->lang);
        else
            assert_null(s->lang);
        assert_int_equal(sp.n_missing, 0);
        /* With spaces and punctuation around it, the word keeps its script. */
        char buf[128];
        snprintf(buf, sizeof buf, "%s %s, %s.", c->text, c->text, c->text);
        itemize(buf, NULL, &sp);
        for (size_t k = 0; k < sp.n; k++)
            assert_int_equal(sp.items[k].script, c->script);
        assert_int_equal(sp.items[0].start, 0);
        assert_string_equal(sp.items[0].family, c->family);
    }
    qr_spans_free(&sp);
}

/* ---- DocsGPT's script_of expectations, as spans ------------------------------------------ */

static void test_docsgpt_script_of(void **state)
{
    (void)state;
    qr_spans sp = {0};
    char buf[64];

    itemize("٣", NULL, &sp); /* Arabic-Indic digit three */
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "arabic");
    assert_string_equal(sp.items[0].family, "Noto Sans Arabic");

    itemize("ﺍ", NULL, &sp); /* presentation form alef */
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "arabic");
    assert_int_equal(sp.items[0].rtl, 1);

    /* 。 has no script of its own: it joins its neighbour's run. */
    const char *s = "季度报告。";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(span_text(s, &sp.items[0], buf, sizeof buf), s);
    assert_string_equal(qr_script_name(sp.items[0].script), "han");
    s = "。报告";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "han");
    /* Alone, it is set in a CJK font in the East Asian slot. */
    itemize("。", NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(sp.items[0].family, "Noto Sans CJK SC");
    assert_int_equal(sp.items[0].slot, QR_SLOT_EAST_ASIAN);
    /* After Latin, it stays in the Latin run but takes the CJK font. */
    s = "Report。";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 2);
    assert_string_equal(span_text(s, &sp.items[1], buf, sizeof buf), "。");
    assert_string_equal(sp.items[1].family, "Noto Sans CJK SC");
    assert_int_equal(sp.items[1].slot, QR_SLOT_EAST_ASIAN);

    /* Fullwidth Latin letters are CJK text. */
    itemize("Ａ", NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "han");
    assert_int_equal(sp.items[0].slot, QR_SLOT_EAST_ASIAN);
    assert_string_equal(sp.items[0].family, "Noto Sans CJK SC");
    s = "ＡＢＣ株式会社";
    itemize(s, "ja", &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(sp.items[0].family, "Noto Sans CJK JP");

    /* CJK Extension B: Han, in a CJK run; no installed font has U+20000. */
    itemize("𠀀", NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "han");
    assert_int_equal(sp.items[0].slot, QR_SLOT_EAST_ASIAN);
    assert_int_equal(sp.n_missing, 1);
    assert_int_equal(sp.missing[0].cp, 0x20000);

    /* Danda (U+0964) has no script: it stays in the Devanagari run. */
    s = "नमस्ते। धन्यवाद।";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "devanagari");
    qr_spans_free(&sp);
}

/* ---- common characters join a neighbour -------------------------------------------------- */

static void test_brackets_and_digits(void **state)
{
    (void)state;
    qr_spans sp = {0};
    char buf[128];

    /* At the start of a word, a bracket goes with the next letter. */
    const char *s = "(हिन्दी";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "devanagari");
    assert_string_equal(sp.items[0].family, "Noto Sans Devanagari");

    s = "Hello (हिन्दी) world";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 3);
    assert_string_equal(span_text(s, &sp.items[0], buf, sizeof buf), "Hello ");
    assert_string_equal(span_text(s, &sp.items[1], buf, sizeof buf), "(हिन्दी) ");
    assert_string_equal(span_text(s, &sp.items[2], buf, sizeof buf), "world");

    /* Inside a word, punctuation stays with the previous letter. */
    s = "abc-हिन्दी";
    itemize(s, NULL, &sp);
    assert_string_equal(span_text(s, &sp.items[0], buf, sizeof buf), "abc-");

    /* Digits and spaces at the start take the next letter's script. */
    s = "123 سلام world";
    itemize(s, NULL, &sp);
    assert_int_equal(span_at(s, &sp, "123")->script, TAG('A', 'r', 'a', 'b'));
    assert_int_equal(span_at(s, &sp, "world")->script, TAG('L', 'a', 't', 'n'));

    s = "Version 2 (نسخه)";
    itemize(s, NULL, &sp);
    const qr_span *v = span_at(s, &sp, "Version");
    assert_string_equal(span_text(s, v, buf, sizeof buf), "Version 2 ");
    assert_int_equal(span_at(s, &sp, "(")->script, TAG('A', 'r', 'a', 'b'));
    assert_int_equal(span_at(s, &sp, ")")->script, TAG('A', 'r', 'a', 'b'));
    assert_int_equal(span_at(s, &sp, "(")->rtl, 1);

    /* RTL text with digits and brackets: one script run throughout; every
     * span is Arabic and right to left (fonts may differ where Noto Sans
     * Arabic lacks a bracket). */
    s = "سلام 123 (٣) دنیا، 45%";
    itemize(s, NULL, &sp);
    for (size_t i = 0; i < sp.n; i++) {
        assert_int_equal(sp.items[i].script, TAG('A', 'r', 'a', 'b'));
        assert_int_equal(sp.items[i].rtl, 1);
        assert_int_equal(sp.items[i].slot, QR_SLOT_COMPLEX);
    }
    assert_string_equal(span_at(s, &sp, "سلام")->family, "Noto Sans Arabic");
    assert_string_equal(span_at(s, &sp, "٣")->family, "Noto Sans Arabic");
    assert_string_equal(span_at(s, &sp, "دنیا")->family, "Noto Sans Arabic");

    /* Hebrew with Latin digits: Noto Sans Hebrew has no digits, so they get
     * DejaVu Sans but stay in the Hebrew run (RTL, complex slot). */
    s = "שלום 2024 עולם";
    itemize(s, NULL, &sp);
    const qr_span *d = span_at(s, &sp, "2024");
    assert_int_equal(d->script, TAG('H', 'e', 'b', 'r'));
    assert_string_equal(d->family, "DejaVu Sans");
    assert_int_equal(d->rtl, 1);
    assert_string_equal(span_at(s, &sp, "עולם")->family, "Noto Sans Hebrew");

    /* Text with no letter at all is Common, in the base font. */
    itemize("12:30 - 45%", NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(qr_script_name(sp.items[0].script), "common");
    assert_string_equal(sp.items[0].family, "DejaVu Sans");
    qr_spans_free(&sp);
}

/* ---- joiners stay inside words --------------------------------------------------------------- */

static void test_joiners(void **state)
{
    (void)state;
    qr_spans sp = {0};
    /* Persian with ZWNJ (U+200C). */
    const char *s = "می‌خواهم";
    assert_non_null(strstr(s, "\xE2\x80\x8C"));
    itemize(s, "fa", &sp);
    assert_int_equal(sp.n, 1);
    assert_int_equal(sp.items[0].len, strlen(s));
    assert_string_equal(sp.items[0].family, "Noto Sans Arabic");
    assert_string_equal(sp.items[0].lang, "fa"); /* the document's lang when it fits */
    assert_int_equal(sp.n_missing, 0);

    /* Devanagari with ZWJ (eyelash ra) and ZWNJ. */
    const char *zwj = "र्\xE2\x80\x8Dय क्\xE2\x80\x8Cष";
    itemize(zwj, NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_int_equal(sp.items[0].len, strlen(zwj));
    assert_string_equal(sp.items[0].family, "Noto Sans Devanagari");

    /* Combining marks after Latin stay Latin; Arabic harakat stay Arabic. */
    s = "e\xCC\x81t\xC3\xA9 كَتَبَ";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 2);
    assert_string_equal(span_at(s, &sp, "e")->family, "DejaVu Sans");
    assert_int_equal(span_at(s, &sp, "كَ")->script, TAG('A', 'r', 'a', 'b'));
    assert_int_equal(sp.items[1].start + sp.items[1].len, strlen(s));

    /* Arabic tatweel (Common) and an emoji ZWJ sequence: never split. */
    s = "عـــربي";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 1);
    qr_spans_free(&sp);
}

/* ---- emoji and symbols ---------------------------------------------------------------------- */

static void test_emoji_and_symbols(void **state)
{
    (void)state;
    qr_spans sp = {0};
    /* DocsGPT's symbol line: all in DejaVu Sans. */
    const char *s = "x − y → z ≤ 5 ≥ 1 ≠ ∞ ✓ €";
    itemize(s, NULL, &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(sp.items[0].family, "DejaVu Sans");
    assert_int_equal(sp.n_missing, 0);

    /* What DejaVu lacks comes from Noto Sans Math / Symbols2. */
    s = "Sum 𝐀 star ⭐";
    itemize(s, NULL, &sp);
    assert_string_equal(span_at(s, &sp, "𝐀")->family, "Noto Sans Math");
    assert_string_equal(span_at(s, &sp, "⭐")->family, "Noto Sans Symbols2");
    assert_int_equal(span_at(s, &sp, "⭐")->script, TAG('L', 'a', 't', 'n'));

    /* Emoji join the neighbour's run; each gets a font that has it, or is
     * reported (check_spans verifies which). Variation selectors and ZWJ in
     * emoji sequences are never reported. */
    s = "Great 😀 job 👍 \xE2\x9D\xA4\xEF\xB8\x8F 👨\xE2\x80\x8D👩\xE2\x80\x8D👧";
    itemize(s, NULL, &sp);
    for (size_t i = 0; i < sp.n_missing; i++) {
        assert_int_not_equal(sp.missing[i].cp, 0xFE0F);
        assert_int_not_equal(sp.missing[i].cp, 0x200D);
    }
    for (size_t i = 0; i < sp.n; i++)
        assert_int_equal(sp.items[i].script, TAG('L', 'a', 't', 'n'));

    /* A flag: regional indicators no font here covers are reported once each. */
    s = "🇺🇸🇺🇸";
    itemize(s, NULL, &sp);
    int seen_u = 0, seen_s = 0;
    for (size_t i = 0; i < sp.n_missing; i++) {
        seen_u += sp.missing[i].cp == 0x1F1FA;
        seen_s += sp.missing[i].cp == 0x1F1F8;
    }
    if (!system_covers(0x1F1FA)) {
        assert_int_equal(seen_u, 1);
        assert_int_equal(seen_s, 1);
    }
    qr_spans_free(&sp);
}

/* ---- CJK flavour --------------------------------------------------------------------------- */

static void test_cjk_flavour(void **state)
{
    (void)state;
    qr_spans sp = {0};
    const char *s = "季度报告。四半期レポート。분기";
    itemize(s, NULL, &sp);
    assert_string_equal(span_at(s, &sp, "季度")->family, "Noto Sans CJK SC");
    assert_string_equal(span_at(s, &sp, "季度")->lang, "zh-CN");
    assert_string_equal(span_at(s, &sp, "。四")->family, "Noto Sans CJK SC");
    assert_string_equal(span_at(s, &sp, "四半期")->family, "Noto Sans CJK JP");
    assert_string_equal(span_at(s, &sp, "四半期")->lang, "ja-JP");
    assert_string_equal(span_at(s, &sp, "レポート")->family, "Noto Sans CJK JP");
    assert_string_equal(span_at(s, &sp, "분기")->family, "Noto Sans CJK KR");
    assert_string_equal(span_at(s, &sp, "분기")->lang, "ko-KR");
    for (size_t i = 0; i < sp.n; i++)
        assert_int_equal(sp.items[i].slot, QR_SLOT_EAST_ASIAN);

    /* Hangul with Han in one sentence: the Han is SC, the hangul always KR. */
    s = "한국 漢字.";
    itemize(s, NULL, &sp);
    assert_string_equal(span_at(s, &sp, "한국")->family, "Noto Sans CJK KR");
    assert_string_equal(span_at(s, &sp, "漢字")->family, "Noto Sans CJK SC");

    /* Kana anywhere in the sentence makes its Han Japanese, even before it. */
    s = "東京で会う";
    itemize(s, NULL, &sp);
    assert_string_equal(span_at(s, &sp, "東京")->family, "Noto Sans CJK JP");

    /* The document's lang fixes the flavour. */
    struct {
        const char *lang, *family, *span_lang;
    } langs[] = {
        {"ja", "Noto Sans CJK JP", "ja"},
        {"ja-JP", "Noto Sans CJK JP", "ja-JP"},
        {"ko", "Noto Sans CJK KR", "ko"},
        {"zh", "Noto Sans CJK SC", "zh"},
        {"zh-CN", "Noto Sans CJK SC", "zh-CN"},
        {"zh-TW", "Noto Sans CJK TC", "zh-TW"},
        {"zh-Hant", "Noto Sans CJK TC", "zh-Hant"},
        {"zh-HK", "Noto Sans CJK TC", "zh-HK"},
        {"zh_hant_tw", "Noto Sans CJK TC", "zh_hant_tw"},
        {"en", "Noto Sans CJK SC", "zh-CN"},
    };
    s = "季度报告";
    for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++) {
        itemize(s, langs[i].lang, &sp);
        assert_int_equal(sp.n, 1);
        assert_string_equal(sp.items[0].family, langs[i].family);
        assert_string_equal(sp.items[0].lang, langs[i].span_lang);
    }
    /* With lang ja, hangul is set in the JP font too (it covers hangul). */
    itemize("분기", "ja", &sp);
    assert_string_equal(sp.items[0].family, "Noto Sans CJK JP");
    qr_spans_free(&sp);
}

/* ---- languages of spans ------------------------------------------------------------------------
 */

static void test_span_lang(void **state)
{
    (void)state;
    qr_spans sp = {0};
    itemize("Hello world", "en-US", &sp);
    assert_int_equal(sp.n, 1);
    assert_string_equal(sp.items[0].lang, "en-US");
    itemize("Hello world", "ar", &sp); /* English words in an Arabic document */
    assert_null(sp.items[0].lang);
    itemize("Hello world", NULL, &sp);
    assert_null(sp.items[0].lang);
    itemize("Привет мир", "uk", &sp);
    assert_string_equal(sp.items[0].lang, "uk");
    itemize("Привет мир", "en", &sp);
    assert_string_equal(sp.items[0].lang, "ru");
    itemize("नमस्ते", "mr", &sp);
    assert_string_equal(sp.items[0].lang, "mr");
    itemize("سلام", "ur-PK", &sp);
    assert_string_equal(sp.items[0].lang, "ur-PK");
    itemize("سلام", "en", &sp);
    assert_string_equal(sp.items[0].lang, "ar");
    itemize("ሰላም", NULL, &sp);
    assert_string_equal(sp.items[0].lang, "am");
    qr_spans_free(&sp);
}

/* ---- a multi-script paragraph: fonts cover their spans ----------------------------------------
 */

static const char *const mixed =
    "Quarterly report — Отчёт за квартал, Ελληνικά: x − y → z ≤ 5 ≥ 1 ≠ ∞ ✓ €. "
    "हिन्दी में (नमस्ते), বাংলা, ਪੰਜਾਬੀ, ગુજરાતી, ଓଡ଼ିଆ, தமிழ், తెలుగు, ಕನ್ನಡ, മലയാളം, සිංහල. "
    "ภาษาไทย ພາສາລາວ ភាសាខ្មែរ မြန်မာ አማርኛ Հայերեն ქართული. "
    "العربية 123 (فارسی می‌خواهم) עברית ܫܠܡܐ. "
    "季度报告。四半期レポート。분기 보고서. 𠮟 ＡＢＣ「引用」 ⭐ 𝐀 😀";

static void test_mixed_paragraph(void **state)
{
    (void)state;
    qr_spans sp = {0};
    itemize(mixed, NULL, &sp);
    assert_true(sp.n > 20);
    assert_int_equal(sp.n_missing, 0);
    /* Adjacent spans always differ in script, font, lang or slot. */
    for (size_t i = 1; i < sp.n; i++) {
        const qr_span *a = &sp.items[i - 1], *b = &sp.items[i];
        assert_true(a->script != b->script || strcmp(a->family, b->family) != 0 ||
                    a->lang != b->lang || a->slot != b->slot);
    }
    /* Deterministic: the same text gives the same spans. */
    qr_spans again = {0};
    assert_int_equal(qr_fonts_itemize(qr_fonts_default(), mixed, strlen(mixed), NULL, &again),
                     QR_OK);
    assert_int_equal(again.n, sp.n);
    for (size_t i = 0; i < sp.n; i++) {
        assert_int_equal(again.items[i].start, sp.items[i].start);
        assert_int_equal(again.items[i].len, sp.items[i].len);
        assert_string_equal(again.items[i].family, sp.items[i].family);
    }
    qr_spans_free(&again);
    qr_spans_free(&sp);
}

/* ---- runs: context crosses them, spans never do
 * -------------------------------------------------- */

static void test_runs(void **state)
{
    (void)state;
    qr_run runs[4] = {{0}};
    const char *parts[4] = {"Read (", "हिन्दी", ") and 中", "文 now"};
    for (int i = 0; i < 4; i++) {
        runs[i].text = parts[i];
        runs[i].len = strlen(parts[i]);
    }
    runs[1].bold = 1;
    qr_text t = {runs, 4, "/blocks/0/runs"};
    qr_spans sp = {0};
    assert_int_equal(qr_fonts_itemize_text(qr_fonts_default(), &t, NULL, &sp), QR_OK);
    check_spans(qr_fonts_default(), &t, &sp, 1);
    /* "(" at the end of run 0 belongs to the Devanagari word in run 1. */
    const qr_span *last0 = NULL;
    for (size_t i = 0; i < sp.n; i++)
        if (sp.items[i].run == 0) last0 = &sp.items[i];
    assert_non_null(last0);
    assert_int_equal(last0->start, 5);
    assert_int_equal(last0->len, 1);
    assert_string_equal(qr_script_name(last0->script), "devanagari");
    /* ") " at the start of run 2 stays with the Devanagari. */
    for (size_t i = 0; i < sp.n; i++)
        if (sp.items[i].run == 2 && sp.items[i].start == 0) {
            assert_string_equal(qr_script_name(sp.items[i].script), "devanagari");
            assert_int_equal(sp.items[i].len, 2);
        }
    /* Appending: a second call adds after the first. */
    size_t n1 = sp.n;
    assert_int_equal(qr_fonts_itemize_text(qr_fonts_default(), &t, NULL, &sp), QR_OK);
    assert_int_equal(sp.n, 2 * n1);
    qr_spans_reset(&sp);
    assert_int_equal(sp.n, 0);

    /* An empty text and empty runs give no spans. */
    qr_text empty = {runs, 0, "/e"};
    assert_int_equal(qr_fonts_itemize_text(qr_fonts_default(), &empty, NULL, &sp), QR_OK);
    assert_int_equal(sp.n, 0);
    qr_run blank[2] = {{0}};
    blank[0].text = "";
    blank[1].text = "abc";
    blank[1].len = 3;
    qr_text bt = {blank, 2, "/b"};
    assert_int_equal(qr_fonts_itemize_text(qr_fonts_default(), &bt, NULL, &sp), QR_OK);
    assert_int_equal(sp.n, 1);
    assert_int_equal(sp.items[0].run, 1);
    assert_int_equal(qr_fonts_itemize(qr_fonts_default(), "", 0, NULL, &sp), QR_OK);
    assert_int_equal(sp.n, 1);
    qr_spans_free(&sp);
}

/* ---- invalid UTF-8 does not crash
 * ----------------------------------------------------------------- */

static void test_invalid_utf8(void **state)
{
    (void)state;
    const char bad[] = "ab\xC3(\xF0\x9F\x98 \xED\xA0\x80 \xFF\xFE\x80 سلام";
    qr_spans sp = {0};
    assert_int_equal(qr_fonts_itemize(qr_fonts_default(), bad, sizeof bad - 1, NULL, &sp), QR_OK);
    size_t pos = 0;
    for (size_t i = 0; i < sp.n; i++) {
        assert_int_equal(sp.items[i].start, pos);
        pos += sp.items[i].len;
    }
    assert_int_equal(pos, sizeof bad - 1);
    qr_spans_free(&sp);
}

/* ---- faces
 * --------------------------------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void test_faces(void **state)
{
    (void)state;
    qr_fonts *f = qr_fonts_default();
    const char *p;
    assert_non_null(p = qr_fonts_face_file(f, "DejaVu Sans", 0, 0));
    assert_true(ends_with(p, "/DejaVuSans.ttf"));
    assert_non_null(p = qr_fonts_face_file(f, "DejaVu Sans", 1, 0));
    assert_true(ends_with(p, "/DejaVuSans-Bold.ttf"));
    assert_non_null(p = qr_fonts_face_file(f, "DejaVu Sans", 0, 1));
    assert_true(ends_with(p, "/DejaVuSans-Oblique.ttf"));
    assert_non_null(p = qr_fonts_face_file(f, "DejaVu Sans", 1, 1));
    assert_true(ends_with(p, "/DejaVuSans-BoldOblique.ttf"));
    assert_non_null(p = qr_fonts_face_file(f, "Noto Sans Arabic", 1, 0));
    assert_true(ends_with(p, "/NotoSansArabic-Bold.ttf"));
    /* Syriac has no bold: the regular file; Devanagari has no italic: bold. */
    assert_non_null(p = qr_fonts_face_file(f, "Noto Sans Syriac", 1, 0));
    assert_true(ends_with(p, "/NotoSansSyriac-Regular.ttf"));
    assert_non_null(p = qr_fonts_face_file(f, "Noto Sans Devanagari", 1, 1));
    assert_true(ends_with(p, "/NotoSansDevanagari-Bold.ttf"));
    /* CJK: real bold, a face inside a collection. */
    assert_non_null(p = qr_fonts_face_file(f, "Noto Sans CJK JP", 1, 0));
    assert_true(ends_with(p, "/NotoSansCJK-Bold.ttc"));
    int jp = qr_fonts_face_index(f, "Noto Sans CJK JP", 0, 0);
    int kr = qr_fonts_face_index(f, "Noto Sans CJK KR", 0, 0);
    assert_true(jp >= 0 && kr >= 0 && jp != kr);
    FT_Face fc = face_for(qr_fonts_face_file(f, "Noto Sans CJK JP", 0, 0), jp);
    assert_string_equal(fc->family_name, "Noto Sans CJK JP");
    assert_null(qr_fonts_face_file(f, "No Such Family", 0, 0));
    assert_int_equal(qr_fonts_face_index(f, "No Such Family", 0, 0), -1);
    assert_true(qr_fonts_has_char(f, "Noto Sans Arabic", 0x0633));
    assert_false(qr_fonts_has_char(f, "Noto Sans Arabic", 0x4E00));
    assert_false(qr_fonts_has_char(f, "No Such Family", 'a'));
    assert_string_equal(qr_fonts_mono_family(), "DejaVu Sans Mono");
    assert_non_null(qr_fonts_face_file(f, qr_fonts_mono_family(), 0, 0));
    /* The span's file is the regular face's. */
    qr_spans sp = {0};
    itemize("abc é", NULL, &sp);
    assert_string_equal(sp.items[0].file, qr_fonts_face_file(f, "DejaVu Sans", 0, 0));
    qr_spans_free(&sp);
    assert_ptr_equal(qr_fonts_default(), f);
    qr_fonts_free(f); /* a no-op on the default set */
    assert_string_equal(qr_script_name(TAG('T', 'f', 'n', 'g')), "tifinagh");
    assert_string_equal(qr_script_name(TAG('Z', 'z', 'z', 'q')), "other");
}

/* ---- a private set holding only DejaVu Sans -----------------------------------------------------
 */

static void test_only_dejavu(void **state)
{
    (void)state;
    char dir[] = "/tmp/qr_fonts_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char link[600];
    snprintf(link, sizeof link, "%s/DejaVuSans.ttf", dir);
    const char *src = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    assert_int_equal(symlink(src, link), 0);

    qr_fonts *f = qr_fonts_new_dir(dir);
    assert_non_null(f);
    assert_ptr_not_equal(f, qr_fonts_default());
    const char *s = "Hello नमस्ते 中文 Привет";
    qr_spans sp = {0};
    assert_int_equal(qr_fonts_itemize(f, s, strlen(s), NULL, &sp), QR_OK);
    qr_run run = {0};
    run.text = s;
    run.len = strlen(s);
    qr_text t = {&run, 1, "/x"};
    check_spans(f, &t, &sp, 0);
    const qr_span *hello = span_at(s, &sp, "Hello");
    assert_string_equal(hello->family, "DejaVu Sans");
    assert_true(ends_with(hello->file, "DejaVuSans.ttf"));
    assert_string_equal(span_at(s, &sp, "Привет")->family, "DejaVu Sans");
    /* The Devanagari and Han runs keep their scripts and slots; their
     * families are not installed here, so the file is "". */
    const qr_span *deva = span_at(s, &sp, "नमस्ते");
    assert_string_equal(qr_script_name(deva->script), "devanagari");
    assert_int_equal(deva->slot, QR_SLOT_COMPLEX);
    assert_string_equal(deva->file, "");
    const qr_span *han = span_at(s, &sp, "中文");
    assert_int_equal(han->slot, QR_SLOT_EAST_ASIAN);
    /* Every Devanagari and Han character is reported, once. */
    uint32_t want[] = {0x0928, 0x092E, 0x0938, 0x094D, 0x0924, 0x0947, 0x4E2D, 0x6587};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!in_missing(&sp, 0, want[i])) fail_msg("U+%04X not reported", want[i]);
    assert_int_equal(sp.n_missing, sizeof want / sizeof want[0]);
    assert_true(ends_with(qr_fonts_face_file(f, "DejaVu Sans", 1, 0), "DejaVuSans.ttf"));
    assert_null(qr_fonts_face_file(f, "Noto Sans Arabic", 0, 0));
    qr_spans_free(&sp);
    qr_fonts_free(f);

    unlink(link);
    /* A folder with no font is refused. */
    assert_null(qr_fonts_new_dir(dir));
    rmdir(dir);
    assert_null(qr_fonts_new_dir("/nonexistent/qr_fonts"));
    assert_null(qr_fonts_new_dir(NULL));
}

/* ---- threads ------------------------------------------------------------------------------------
 */

typedef struct thread_arg {
    size_t n_spans;
    size_t n_missing;
    int ok;
} thread_arg;

static void *thread_main(void *p)
{
    thread_arg *a = p;
    qr_spans sp = {0};
    a->ok = 1;
    for (int i = 0; i < 200; i++) {
        qr_spans_reset(&sp);
        if (qr_fonts_itemize(qr_fonts_default(), mixed, strlen(mixed), NULL, &sp) != QR_OK)
            a->ok = 0;
        if (i > 0 && (sp.n != a->n_spans || sp.n_missing != a->n_missing)) a->ok = 0;
        a->n_spans = sp.n;
        a->n_missing = sp.n_missing;
    }
    qr_spans_free(&sp);
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    pthread_t th[4];
    thread_arg args[4];
    memset(args, 0, sizeof args);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &args[i]), 0);
    for (int i = 0; i < 4; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) {
        assert_true(args[i].ok);
        assert_int_equal(args[i].n_spans, args[0].n_spans);
    }
}

/* ---- a megabyte of mixed text ------------------------------------------------------------------
 */

static void test_large(void **state)
{
    (void)state;
    size_t unit = strlen(mixed), n = (1u << 20) / (unit + 1) + 1;
    char *big = malloc(n * (unit + 1) + 1);
    assert_non_null(big);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(big + len, mixed, unit);
        len += unit;
        big[len++] = '\n';
    }
    big[len] = '\0';
    qr_spans sp = {0};
    assert_int_equal(qr_fonts_itemize(qr_fonts_default(), big, len, NULL, &sp), QR_OK);
    size_t pos = 0;
    for (size_t i = 0; i < sp.n; i++) {
        assert_int_equal(sp.items[i].start, pos);
        pos += sp.items[i].len;
    }
    assert_int_equal(pos, len);
    assert_int_equal(sp.n_missing, 0);
    qr_spans_free(&sp);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direction),
        cmocka_unit_test(test_every_script),
        cmocka_unit_test(test_docsgpt_script_of),
        cmocka_unit_test(test_brackets_and_digits),
        cmocka_unit_test(test_joiners),
        cmocka_unit_test(test_emoji_and_symbols),
        cmocka_unit_test(test_cjk_flavour),
        cmocka_unit_test(test_span_lang),
        cmocka_unit_test(test_mixed_paragraph),
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_faces),
        cmocka_unit_test(test_only_dejavu),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
