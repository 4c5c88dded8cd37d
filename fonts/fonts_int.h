/* fonts_int.h: what the fonts/ files share (never installed).
 *
 * A qr_fonts is built once and is read-only afterwards, so itemization needs
 * no lock: fontconfig is asked everything at construction (every face with
 * its charset, the FcFontSort fallback order, the family chosen for every
 * script in the table), and the hot path only does FcCharSetHasChar lookups
 * on charsets that never change.
 */
#ifndef QR_FONTS_INT_H
#define QR_FONTS_INT_H

#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "fonts.h"

/* ---- UTF-8 ---------------------------------------------------------------- */

/* Decode one code point at s[0..n), n > 0. Invalid or truncated sequences
 * decode as U+FFFD and consume one byte. Returns the byte length. */
static inline size_t qr_fonts_utf8(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF && n >= 2 && (s[1] & 0xC0) == 0x80) {
        *cp = ((c & 0x1Fu) << 6) | (s[1] & 0x3Fu);
        return 2;
    }
    if (c >= 0xE0 && c <= 0xEF && n >= 3 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80) {
        uint32_t v = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
        if (v >= 0x800 && (v < 0xD800 || v > 0xDFFF)) {
            *cp = v;
            return 3;
        }
    }
    if (c >= 0xF0 && c <= 0xF4 && n >= 4 && (s[1] & 0xC0) == 0x80 && (s[2] & 0xC0) == 0x80 &&
        (s[3] & 0xC0) == 0x80) {
        uint32_t v =
            ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
        if (v >= 0x10000 && v <= 0x10FFFF) {
            *cp = v;
            return 4;
        }
    }
    *cp = 0xFFFD;
    return 1;
}

/* ---- scripts (scripts.c) --------------------------------------------------- */

/* CJK flavours, in the order of the "Noto Sans CJK XX" families. */
enum { QR_CJK_SC, QR_CJK_TC, QR_CJK_JP, QR_CJK_KR, QR_CJK_COUNT, QR_CJK_AUTO = 0xFF };

typedef struct qr_script_info {
    uint32_t script;    /* hb_script_t */
    const char *name;   /* "arabic" */
    const char *family; /* preferred family, NULL: the base (DejaVu Sans) or, for CJK, by flavour */
    qr_font_slot slot;
    const char *lang;  /* default BCP 47 tag, NULL for none */
    const char *langs; /* space-separated primary subtags written in this script */
    unsigned cjk : 1;  /* Han, kana, hangul, bopomofo: the family depends on the flavour */
} qr_script_info;

extern const qr_script_info qr_fonts_scripts[];
extern const size_t qr_fonts_n_scripts;

/** The table entry of a script, or NULL when the table does not name it. */
const qr_script_info *qr_fonts_script_info(uint32_t script);

/** The CJK flavour a BCP 47 tag asks for (ja -> JP, ko -> KR, zh-TW/-Hant/-HK/-MO
 *  -> TC, zh -> SC), or QR_CJK_AUTO when lang is NULL or another language. */
int qr_fonts_lang_flavour(const char *lang);

/** The lang of a span of script si (NULL: unknown script) and flavour, given
 *  the document lang (which is returned itself when it suits the script). */
const char *qr_fonts_span_lang(const qr_script_info *si, uint32_t script, int flavour,
                               const char *doc_lang);

extern const char *const qr_fonts_cjk_family[QR_CJK_COUNT];

/* ---- the font set (fonts.c) -------------------------------------------------- */

typedef struct qr_face {
    const char *file; /* owned by the FcFontSet of the qr_fonts */
    int index;
    int weight, slant, width;
    const FcCharSet *cs;
} qr_face;

typedef struct qr_family {
    char *name;
    qr_face *faces;
    size_t n_faces, cap_faces;
    const FcCharSet *cs; /* of the regular face; NULL for a placeholder (not installed) */
    const char *file;    /* of the regular face; "" for a placeholder */
    int index;
} qr_family;

/* Fallbacks tried, in order, after the script's own family. */
enum { QR_CHAIN_BASE, QR_CHAIN_MATH, QR_CHAIN_SYMBOLS2, QR_CHAIN_SYMBOLS, QR_CHAIN_COUNT };

struct qr_fonts {
    FcConfig *cfg;
    FcFontSet *list; /* every face; the qr_face pointers point into it */
    qr_family *fams; /* sorted by name; placeholders included */
    size_t n_fams;
    /* The fallback of last resort, built on first need (most documents never
     * need it): families in FcFontSort order and the union of their charsets. */
    pthread_mutex_t sorted_lock;
    atomic_int sorted_ready; /* sorted and any are set (or failed: any NULL) */
    int *sorted;
    size_t n_sorted;
    FcCharSet *any;
    int chain[QR_CHAIN_COUNT];
    int cjk[QR_CJK_COUNT];
    int *script_fam; /* per qr_fonts_scripts entry: family index, -1 = base */
    int ascii_ok;    /* the base family covers U+0020..U+007E */
    int has_lock;    /* sorted_lock is initialised */
    int is_default;
};

/** The index of a family by exact name, or -1. */
int qr_fonts_family_index(const qr_fonts *f, const char *name);

/** Does family fam cover cp? (placeholders cover nothing) */
static inline int qr_fonts_covers(const qr_fonts *f, int fam, uint32_t cp)
{
    const FcCharSet *cs = f->fams[fam].cs;
    return cs && FcCharSetHasChar(cs, cp);
}

/** The first family after the fixed chain that covers cp (FcFontSort order),
 *  or -1. The first call asks fontconfig for that order (thread-safe). */
int qr_fonts_last_resort(const qr_fonts *f, uint32_t cp);

#endif
