/* scripts.c: the script table: for each Unicode script its name, the family
 * quire prefers, the OOXML font slot and the BCP 47 lang of its spans.
 *
 * Slots follow Word's rFonts classes: Han, kana, hangul and bopomofo are
 * eastAsia; the right-to-left and shaped (Indic, Southeast Asian) scripts are
 * cs; everything else is ascii/hAnsi (LATIN). Armenian, Georgian, Ethiopic and
 * Cherokee are LATIN on purpose: Word draws them with the hAnsi font and
 * does not apply complex-script properties to them.
 */
#include <hb.h>
#include <string.h>

#include "fonts_int.h"

#define LAT QR_SLOT_LATIN
#define EA QR_SLOT_EAST_ASIAN
#define CS QR_SLOT_COMPLEX

const qr_script_info qr_fonts_scripts[] = {
    {HB_SCRIPT_LATIN, "latin", NULL, LAT, NULL, NULL, 0},
    {HB_SCRIPT_COMMON, "common", NULL, LAT, NULL, NULL, 0},
    {HB_SCRIPT_INHERITED, "inherited", NULL, LAT, NULL, NULL, 0},
    {HB_SCRIPT_UNKNOWN, "unknown", NULL, LAT, NULL, NULL, 0},
    {HB_SCRIPT_GREEK, "greek", NULL, LAT, "el", "el grc", 0},
    {HB_SCRIPT_CYRILLIC, "cyrillic", NULL, LAT, "ru",
     "ru uk be bg sr mk kk ky mn tg tt ba cv os ab ce", 0},
    {HB_SCRIPT_ARMENIAN, "armenian", "Noto Sans Armenian", LAT, "hy", "hy", 0},
    {HB_SCRIPT_GEORGIAN, "georgian", "Noto Sans Georgian", LAT, "ka", "ka", 0},
    {HB_SCRIPT_ETHIOPIC, "ethiopic", "Noto Sans Ethiopic", LAT, "am", "am ti gez", 0},
    {HB_SCRIPT_CHEROKEE, "cherokee", "Noto Sans Cherokee", LAT, "chr", "chr", 0},
    {HB_SCRIPT_ARABIC, "arabic", "Noto Sans Arabic", CS, "ar", "ar fa ur ps ku sd ug", 0},
    {HB_SCRIPT_HEBREW, "hebrew", "Noto Sans Hebrew", CS, "he", "he iw yi", 0},
    {HB_SCRIPT_SYRIAC, "syriac", "Noto Sans Syriac", CS, "syr", "syr", 0},
    {HB_SCRIPT_THAANA, "thaana", "Noto Sans Thaana", CS, "dv", "dv", 0},
    {HB_SCRIPT_NKO, "nko", "Noto Sans NKo", CS, "nqo", "nqo", 0},
    {HB_SCRIPT_DEVANAGARI, "devanagari", "Noto Sans Devanagari", CS, "hi",
     "hi mr ne sa kok mai bho", 0},
    {HB_SCRIPT_BENGALI, "bengali", "Noto Sans Bengali", CS, "bn", "bn as", 0},
    {HB_SCRIPT_GURMUKHI, "gurmukhi", "Noto Sans Gurmukhi", CS, "pa", "pa", 0},
    {HB_SCRIPT_GUJARATI, "gujarati", "Noto Sans Gujarati", CS, "gu", "gu", 0},
    {HB_SCRIPT_ORIYA, "oriya", "Noto Sans Oriya", CS, "or", "or", 0},
    {HB_SCRIPT_TAMIL, "tamil", "Noto Sans Tamil", CS, "ta", "ta", 0},
    {HB_SCRIPT_TELUGU, "telugu", "Noto Sans Telugu", CS, "te", "te", 0},
    {HB_SCRIPT_KANNADA, "kannada", "Noto Sans Kannada", CS, "kn", "kn", 0},
    {HB_SCRIPT_MALAYALAM, "malayalam", "Noto Sans Malayalam", CS, "ml", "ml", 0},
    {HB_SCRIPT_SINHALA, "sinhala", "Noto Sans Sinhala", CS, "si", "si", 0},
    {HB_SCRIPT_THAI, "thai", "Noto Sans Thai", CS, "th", "th", 0},
    {HB_SCRIPT_LAO, "lao", "Noto Sans Lao", CS, "lo", "lo", 0},
    {HB_SCRIPT_KHMER, "khmer", "Noto Sans Khmer", CS, "km", "km", 0},
    {HB_SCRIPT_MYANMAR, "myanmar", "Noto Sans Myanmar", CS, "my", "my", 0},
    {HB_SCRIPT_TIBETAN, "tibetan", "Noto Serif Tibetan", CS, "bo", "bo dz", 0},
    {HB_SCRIPT_MONGOLIAN, "mongolian", "Noto Sans Mongolian", CS, NULL, NULL, 0},
    {HB_SCRIPT_HAN, "han", NULL, EA, NULL, NULL, 1},
    {HB_SCRIPT_HIRAGANA, "hiragana", NULL, EA, NULL, NULL, 1},
    {HB_SCRIPT_KATAKANA, "katakana", NULL, EA, NULL, NULL, 1},
    {HB_SCRIPT_HANGUL, "hangul", NULL, EA, NULL, NULL, 1},
    {HB_SCRIPT_BOPOMOFO, "bopomofo", NULL, EA, NULL, NULL, 1},
    {HB_SCRIPT_YI, "yi", "Noto Sans Yi", EA, "ii", "ii", 0},
    /* Names only: these scripts take the fallback chain. */
    {HB_SCRIPT_BRAILLE, "braille", NULL, LAT, NULL, NULL, 0},
    {HB_SCRIPT_COPTIC, "coptic", "Noto Sans Coptic", LAT, NULL, NULL, 0},
    {HB_SCRIPT_RUNIC, "runic", "Noto Sans Runic", LAT, NULL, NULL, 0},
    {HB_SCRIPT_OGHAM, "ogham", "Noto Sans Ogham", LAT, NULL, NULL, 0},
    {HB_SCRIPT_TIFINAGH, "tifinagh", "Noto Sans Tifinagh", LAT, "zgh", "zgh ber", 0},
    {HB_SCRIPT_CANADIAN_SYLLABICS, "canadian-aboriginal", "Noto Sans Canadian Aboriginal", LAT,
     "iu", "iu cr", 0},
    {HB_SCRIPT_VAI, "vai", "Noto Sans Vai", LAT, "vai", "vai", 0},
    {HB_SCRIPT_ADLAM, "adlam", "Noto Sans Adlam", CS, NULL, NULL, 0},
    {HB_SCRIPT_JAVANESE, "javanese", "Noto Sans Javanese", CS, "jv", NULL, 0},
    {HB_SCRIPT_BALINESE, "balinese", "Noto Sans Balinese", CS, "ban", NULL, 0},
    {HB_SCRIPT_SUNDANESE, "sundanese", "Noto Sans Sundanese", CS, "su", NULL, 0},
    {HB_SCRIPT_TAI_THAM, "tai-tham", "Noto Sans Tai Tham", CS, NULL, NULL, 0},
    {HB_SCRIPT_OL_CHIKI, "ol-chiki", "Noto Sans Ol Chiki", LAT, "sat", NULL, 0},
    {HB_SCRIPT_SAMARITAN, "samaritan", "Noto Sans Samaritan", CS, NULL, NULL, 0},
    {HB_SCRIPT_MANDAIC, "mandaic", "Noto Sans Mandaic", CS, NULL, NULL, 0},
};
const size_t qr_fonts_n_scripts = sizeof qr_fonts_scripts / sizeof qr_fonts_scripts[0];

const char *const qr_fonts_cjk_family[QR_CJK_COUNT] = {"Noto Sans CJK SC", "Noto Sans CJK TC",
                                                       "Noto Sans CJK JP", "Noto Sans CJK KR"};
static const char *const cjk_lang[QR_CJK_COUNT] = {"zh-CN", "zh-TW", "ja-JP", "ko-KR"};
static const char *const cjk_primary[QR_CJK_COUNT] = {"zh", "zh", "ja", "ko"};

const qr_script_info *qr_fonts_script_info(uint32_t script)
{
    /* Latin and Common come first: the common case costs one compare. */
    for (size_t i = 0; i < qr_fonts_n_scripts; i++)
        if (qr_fonts_scripts[i].script == script) return &qr_fonts_scripts[i];
    return NULL;
}

const char *qr_script_name(uint32_t script)
{
    const qr_script_info *si = qr_fonts_script_info(script);
    return si ? si->name : "other";
}

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* Length of the primary subtag of a BCP 47 tag ("zh-Hant-TW" -> 2). */
static size_t primary_len(const char *lang)
{
    size_t n = 0;
    while (lang[n] && lang[n] != '-' && lang[n] != '_')
        n++;
    return n;
}

/* Does lang (any case) contain the subtag sub after its primary subtag? */
static int has_subtag(const char *lang, const char *sub)
{
    size_t k = strlen(sub);
    for (const char *p = lang; *p; p++) {
        if (*p != '-' && *p != '_') continue;
        size_t i = 0;
        while (i < k && p[1 + i] && lower((unsigned char)p[1 + i]) == lower((unsigned char)sub[i]))
            i++;
        if (i == k && (p[1 + k] == '\0' || p[1 + k] == '-' || p[1 + k] == '_')) return 1;
    }
    return 0;
}

static int primary_is(const char *lang, const char *p)
{
    size_t n = primary_len(lang), k = strlen(p);
    if (n != k) return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)lang[i]) != p[i]) return 0;
    return 1;
}

int qr_fonts_lang_flavour(const char *lang)
{
    if (!lang || !*lang) return QR_CJK_AUTO;
    if (primary_is(lang, "ja")) return QR_CJK_JP;
    if (primary_is(lang, "ko")) return QR_CJK_KR;
    if (primary_is(lang, "zh") || primary_is(lang, "yue") || primary_is(lang, "cmn")) {
        if (has_subtag(lang, "hant") || has_subtag(lang, "tw") || has_subtag(lang, "hk") ||
            has_subtag(lang, "mo"))
            return QR_CJK_TC;
        return QR_CJK_SC;
    }
    return QR_CJK_AUTO;
}

/* Is the primary subtag of lang one of the space-separated words of list? */
static int in_list(const char *lang, const char *list)
{
    size_t n = primary_len(lang);
    if (!list || n == 0) return 0;
    for (const char *p = list; *p;) {
        size_t k = 0;
        while (p[k] && p[k] != ' ')
            k++;
        if (k == n) {
            size_t i = 0;
            while (i < n && lower((unsigned char)lang[i]) == p[i])
                i++;
            if (i == n) return 1;
        }
        p += k;
        while (*p == ' ')
            p++;
    }
    return 0;
}

/* Is lang a language the table writes in a script other than Latin? */
static int non_latin_lang(const char *lang)
{
    if (qr_fonts_lang_flavour(lang) != QR_CJK_AUTO) return 1;
    for (size_t i = 0; i < qr_fonts_n_scripts; i++)
        if (in_list(lang, qr_fonts_scripts[i].langs)) return 1;
    return 0;
}

const char *qr_fonts_span_lang(const qr_script_info *si, uint32_t script, int flavour,
                               const char *doc_lang)
{
    if (doc_lang && !*doc_lang) doc_lang = NULL;
    if (si && si->cjk) {
        int fl = flavour < QR_CJK_COUNT ? flavour : QR_CJK_SC;
        if (doc_lang && primary_is(doc_lang, cjk_primary[fl]) &&
            qr_fonts_lang_flavour(doc_lang) == fl)
            return doc_lang;
        return cjk_lang[fl];
    }
    if (!si) return NULL;
    if (script == HB_SCRIPT_LATIN || script == HB_SCRIPT_COMMON || script == HB_SCRIPT_INHERITED ||
        script == HB_SCRIPT_UNKNOWN) {
        /* Latin and neutral text: the document's language unless it is one
         * written in another script (English words in an Arabic document). */
        return doc_lang && !non_latin_lang(doc_lang) ? doc_lang : NULL;
    }
    if (doc_lang && in_list(doc_lang, si->langs)) return doc_lang;
    return si->lang;
}
