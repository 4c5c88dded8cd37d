/* fonts_int.h: what the fonts/ files share (never installed).
 *
 * A qr_fonts is built once and is read-only afterwards, so itemization needs
 * no lock. It is built from the font table (table.c): every family with its
 * faces, the coverage of its regular face, the FcFontSort fallback order,
 * asked of fontconfig once and kept as flat bytes, which the process-wide
 * set reads from a cache file instead while the configuration is unchanged
 * (cache.c), so a render whose fonts are known never starts fontconfig. The
 * hot path only looks up code points in coverage tables that never change.
 */
#ifndef QR_FONTS_INT_H
#define QR_FONTS_INT_H

#include <fontconfig/fontconfig.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
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

/* ---- coverage ------------------------------------------------------------------ */

/* The code points a face covers, as fontconfig's FcCharSet holds them: the
 * 256-code-point pages that have any, in ascending order, each a record of
 * 9 words: the page (cp >> 8), then 8 words of bits (bit cp & 31 of word
 * (cp & 255) >> 5). The records live in the font table's bytes. */
typedef struct qr_cover {
    const uint32_t *pages;
    uint32_t n;
} qr_cover;

static inline int qr_cover_has(const qr_cover *c, uint32_t cp)
{
    uint32_t page = cp >> 8, lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        const uint32_t *r = c->pages + (size_t)mid * 9;
        if (r[0] == page) return (r[1 + ((cp & 0xFF) >> 5)] >> (cp & 31)) & 1;
        if (r[0] < page)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* ---- the font table (table.c) ----------------------------------------------------- */

typedef struct qr_face {
    const char *file; /* in the table's strings */
    int index;
    int weight, slant, width;
} qr_face;

/** The face of faces[0..n) closest to bold/italic: normal width first, then
 *  weight, then slant, so bold italic falls back to bold, then italic, then
 *  regular; the first of equals. NULL when n is 0. */
const qr_face *qr_fonts_best_face(const qr_face *faces, size_t n, int bold, int italic);

/* The table as bytes (all words native 32-bit, offsets from its start):
 * a qr_fblob_head, then the records its fields locate. Whatever builds or
 * reads one, the qr_fonts made from it answers the same. Bump
 * QR_FBLOB_VERSION when the layout or what table.c puts in it changes. */
#define QR_FBLOB_MAGIC "QRFONTS"
#define QR_FBLOB_VERSION 1u
#define QR_FBLOB_NONE 0xFFFFFFFFu

typedef struct qr_fblob_head {
    char magic[8];
    uint32_t version, order; /* order: 0x01020304, this machine's byte order */
    uint32_t size;           /* of the whole table */
    uint32_t key, key_len;   /* the cache key (cache.c), text; key_len 0 when none */
    uint32_t fams, n_fams;   /* qr_fblob_fam records, in fontconfig's listing order */
    uint32_t faces, n_faces; /* qr_fblob_face records, each family's in a row */
    uint32_t covers, n_covers;
    uint32_t pages, n_pages;       /* 9-word page records (qr_cover) */
    uint32_t sorted, n_sorted;     /* family names (string offsets) in FcFontSort order */
    uint32_t any;                  /* cover of the union of every family, or QR_FBLOB_NONE */
    uint32_t strings, strings_len; /* NUL-terminated strings; the last byte is NUL */
} qr_fblob_head;

typedef struct qr_fblob_fam {
    uint32_t name;          /* string */
    uint32_t face, n_faces; /* the family's faces, sorted by file and index */
    uint32_t reg;           /* the regular face, counted from face */
    uint32_t cover;         /* of the regular face */
} qr_fblob_fam;

typedef struct qr_fblob_face {
    uint32_t file; /* string */
    int32_t index, weight, slant, width;
} qr_fblob_face;

typedef struct qr_fblob_cover {
    uint32_t page, n; /* the first page record and how many */
} qr_fblob_cover;

/** Ask fontconfig for cfg's font table: every outline face with its
 *  families, style, file and charset (FcFontList), and the FcFontSort order
 *  of a sans-serif text in English. key (key_len bytes, may be 0) is stored
 *  with it. Returns 0, or -1 when out of memory or fontconfig fails. */
int qr_fonts_table_build(FcConfig *cfg, const char *key, size_t key_len, qr_buf *out);

/** Is blob[0..size) a whole table, every offset inside it? 0 or -1. Reads
 *  the records, never trusts them (a cache file may be damaged). */
int qr_fonts_table_check(const void *blob, size_t size);

/* ---- the cache file (cache.c) -------------------------------------------------------- */

/** The cache key of cfg: fontconfig's version, the environment variables
 *  that choose its configuration, and the state (type, mtime, inode, size;
 *  or absence) of each of its configuration files and folders, the user's
 *  configuration places, and its font folders (listed ones that do not
 *  exist too). The same test as fontconfig's own caches: a font added or
 *  removed changes its folder's mtime. Returns 0, or -1 when a path changed
 *  in the last two seconds (it may have changed while fontconfig read it:
 *  no cache then) or memory ran out. */
int qr_fonts_cache_key(FcConfig *cfg, qr_buf *out);

/** Does key (from a cache file) still describe this system? stat()s each
 *  path; never calls fontconfig. 1 or 0. */
int qr_fonts_cache_key_holds(const char *key, size_t len);

/** The cache file for this environment in out: $QUIRE_FONT_CACHE ("off" or
 *  empty: no cache), else fonts-V-HASH.bin (V the table version, HASH of the
 *  environment part of the key) in $XDG_CACHE_HOME/quire or ~/.cache/quire.
 *  0, or -1 when there is none. */
int qr_fonts_cache_path(char *out, size_t n);

/** Read the table at path when it is whole and its key holds. 0 (*blob is
 *  malloc'd) or -1. */
int qr_fonts_cache_read(const char *path, void **blob, size_t *size);

/** Write the table to path atomically (a temporary file, fsync, rename),
 *  making its folder; failures leave no file and are not errors. */
void qr_fonts_cache_write(const char *path, const void *blob, size_t size);

/* ---- the font set (fonts.c) -------------------------------------------------- */

typedef struct qr_family {
    const char *name;
    const qr_face *faces;
    size_t n_faces;
    const qr_cover *cs; /* of the regular face; NULL for a placeholder (not installed) */
    const char *file;   /* of the regular face; "" for a placeholder */
    int index;
} qr_family;

/* Fallbacks tried, in order, after the script's own family. */
enum { QR_CHAIN_BASE, QR_CHAIN_MATH, QR_CHAIN_SYMBOLS2, QR_CHAIN_SYMBOLS, QR_CHAIN_COUNT };

struct qr_fonts {
    void *blob;      /* the table; every string and page points into it */
    qr_family *fams; /* sorted by name; placeholders included */
    size_t n_fams;
    qr_face *faces;
    qr_cover *covers;
    /* The fallback of last resort: families in FcFontSort order and the
     * union of their coverage (NULL: none). */
    int *sorted;
    size_t n_sorted;
    const qr_cover *any;
    int chain[QR_CHAIN_COUNT];
    int cjk[QR_CJK_COUNT];
    int *script_fam; /* per qr_fonts_scripts entry: family index, -1 = base */
    int ascii_ok;    /* the base family covers U+0020..U+007E */
    int is_default;
    char *cache_path; /* the cache file it was opened with (side files beside it), or NULL */
};

/** A font set from the table at path (a cache file) when it holds, else from
 *  the configuration make_cfg(arg) returns (a reference the set drops),
 *  whose table is then written to path. path NULL: no cache. *from_cache
 *  (may be NULL) says which. NULL when fontconfig cannot start. */
qr_fonts *qr_fonts_open_cached(const char *path, FcConfig *(*make_cfg)(void *), void *arg,
                               int *from_cache);

/** The index of a family by exact name, or -1. */
int qr_fonts_family_index(const qr_fonts *f, const char *name);

/** Does family fam cover cp? (placeholders cover nothing) */
static inline int qr_fonts_covers(const qr_fonts *f, int fam, uint32_t cp)
{
    const qr_cover *cs = f->fams[fam].cs;
    return cs && qr_cover_has(cs, cp);
}

/** The first family after the fixed chain that covers cp (FcFontSort order),
 *  or -1. */
int qr_fonts_last_resort(const qr_fonts *f, uint32_t cp);

#endif
