/* fonts.h: script itemization, font choice per run, paragraph direction.
 *
 * One text layer for every backend, so a Hindi word gets the same font in
 * the PDF, the .docx and the .pptx. The only place that uses fontconfig.
 *
 * Usage (a backend writing one paragraph):
 *
 *     qr_fonts *f = qr_fonts_default();           // process-wide, never freed by you
 *     qr_spans spans = {0};
 *     qr_fonts_itemize_text(f, &para_text, doc->lang, &spans);
 *     int rtl = qr_fonts_text_direction(&para_text) == QR_DIR_RTL;
 *     for (size_t i = 0; i < spans.n; i++) {
 *         const qr_span *s = &spans.items[i];
 *         const qr_run *run = &para_text.runs[s->run];
 *         // write run->text + s->start, s->len bytes with font s->family ...
 *     }
 *     // spans.missing lists code points no installed font covers: warn.
 *     qr_spans_free(&spans);
 */
#ifndef QR_FONTS_H
#define QR_FONTS_H

#include <stddef.h>
#include <stdint.h>

#include <quire/error.h>
#include "tree.h"

/* Which OOXML font slot a run belongs in: docx w:rFonts ascii/hAnsi, eastAsia
 * or cs; pptx a:latin, a:ea or a:cs. */
typedef enum qr_font_slot {
    QR_SLOT_LATIN,      /* Latin, Greek, Cyrillic, symbols, digits... */
    QR_SLOT_EAST_ASIAN, /* Han, kana, hangul, CJK punctuation */
    QR_SLOT_COMPLEX     /* Arabic, Hebrew, Indic, Thai, Khmer...: w:cs, w:rtl for RTL */
} qr_font_slot;
/* Armenian, Georgian, Ethiopic and Cherokee are LATIN: Word sets them with the
 * hAnsi font. Common characters only a CJK font has (。 after Latin text,
 * fullwidth digits) are EAST_ASIAN. Spans give the regular face's file; for
 * bold or italic runs ask qr_fonts_face_file(). */

typedef enum qr_dir { QR_DIR_NEUTRAL = -1, QR_DIR_LTR = 0, QR_DIR_RTL = 1 } qr_dir;

/* A run of one script with one font. Spans never cross a run boundary. */
typedef struct qr_span {
    uint32_t run;       /* index into the qr_text's runs (0 for plain strings) */
    size_t start, len;  /* byte range inside that run's text */
    uint32_t script;    /* ISO 15924 tag as HarfBuzz's hb_script_t ('Latn', 'Arab', 'Hani'...) */
    const char *family; /* "DejaVu Sans", "Noto Sans Arabic", "Noto Sans CJK JP"... never NULL */
    const char *file;   /* the font file fontconfig resolved for family (regular face), or "" */
    qr_font_slot slot;
    unsigned rtl : 1; /* the script is written right to left */
    const char
        *lang; /* BCP 47 tag for w:lang/lang ("ar", "he", "hi", "ja", "zh-CN", "ko"...), or NULL */
} qr_span;

/* A code point no installed font covers, with the run it came from. */
typedef struct qr_missing {
    uint32_t run;
    uint32_t cp;
} qr_missing;

typedef struct qr_spans {
    qr_span *items;
    size_t n, cap;
    qr_missing *missing;
    size_t n_missing, cap_missing;
    /* The document's dominant CJK language ("ja", "ko" or NULL, from
     * qr_fonts_doc_cjk_lang): the flavour of Han text with no kana or
     * hangul in its paragraph when lang is NULL. Set once by the caller;
     * qr_spans_reset keeps it. */
    const char *cjk_lang;
} qr_spans;

typedef struct qr_fonts qr_fonts;

/** The process-wide font set (the system's fontconfig configuration), loaded
 *  once on first use and thread-safe. Never NULL; never free it. */
qr_fonts *qr_fonts_default(void);

/** Let qr_fonts_default() read its table from a cache file, and write it
 *  there, instead of starting fontconfig while the configuration is
 *  unchanged (fonts/cache.c: $QUIRE_FONT_CACHE, else
 *  $XDG_CACHE_HOME/quire or ~/.cache/quire; QUIRE_FONT_CACHE=off: never).
 *  For short-lived processes (the CLI); call before the first
 *  qr_fonts_default(). A host that adds fonts to fontconfig's current
 *  configuration itself must not: the cache knows only the system's. */
void qr_fonts_enable_cache(void);

struct _FcConfig;

/** Answers a backend derives from fontconfig's configuration and would
 *  rather not ask it again (pdf/: the faces it opens without pango), kept
 *  in a file of their own beside the cache file f was read from or written
 *  to (its name with ".name" after it) under the same key, so they hold
 *  exactly as long as the table does. Only for a set opened with a cache
 *  (qr_fonts_default() after qr_fonts_enable_cache()).
 *  qr_fonts_side_read: name's body (malloc'd, *len bytes, a NUL after
 *  them) when its file is whole and its key holds; 0, else -1.
 *  qr_fonts_side_write: body as name's, keyed by cfg's configuration (the
 *  one the answers came from), atomically but not synced (a file lost in
 *  a crash is only asked again); nothing when the cache is off or cfg's
 *  key cannot be had. */
int qr_fonts_side_read(const qr_fonts *f, const char *name, char **body, size_t *len);
void qr_fonts_side_write(const qr_fonts *f, const char *name, struct _FcConfig *cfg,
                         const void *body, size_t len);

/** A private font set holding only the fonts in dir (tests: "only DejaVu").
 *  Returns NULL when dir holds no font. Free with qr_fonts_free(). */
qr_fonts *qr_fonts_new_dir(const char *dir);
void qr_fonts_free(qr_fonts *f);

/** Split a text into spans of one script and one font each.
 *  lang (BCP 47, may be NULL) picks the CJK flavour; without it the flavour
 *  is chosen per sentence: kana -> JP, hangul without Han -> KR; a sentence
 *  of Han only takes the flavour of the nearest kana or hangul before it in
 *  the paragraph, else out->cjk_lang's, else SC. Arabic-script text with
 *  Persian letters (پ چ ژ گ ی ک) or digits and no Urdu letters is tagged
 *  "fa" unless lang names an Arabic-script language.
 *  Appends to out (which must be zeroed or previously used). QR_E_NOMEM only. */
qr_status qr_fonts_itemize_text(qr_fonts *f, const qr_text *text, const char *lang, qr_spans *out);

/** The same for one plain UTF-8 string (spans get run = 0). */
qr_status qr_fonts_itemize(qr_fonts *f, const char *utf8, size_t len, const char *lang,
                           qr_spans *out);

/** The dominant CJK language of a document's texts: "ja" when kana
 *  outnumber ten times the hangul and the Han of texts with neither, "ko" the
 *  other way round, else NULL (a mix, or Chinese). */
const char *qr_fonts_doc_cjk_lang(const qr_doc *doc);

/** Empty the list, keeping its memory for reuse. */
void qr_spans_reset(qr_spans *s);
void qr_spans_free(qr_spans *s);

/** Paragraph base direction from the first strong character (UAX #9 P2-P3):
 *  "123 سلام world" is RTL, "Version 2 (نسخه)" is LTR, "123" is NEUTRAL. */
qr_dir qr_fonts_direction(const char *utf8, size_t len);
qr_dir qr_fonts_text_direction(const qr_text *text);

/** The family of span s (of run text text) under a theme's body face (layout/style.h
 *  body_face): face when s is a Latin span in the default "DejaVu Sans" and face
 *  covers each of its characters, else s->family (face NULL: always s->family). */
const char *qr_fonts_body_face(qr_fonts *f, const qr_span *s, const char *text, const char *face);

/** The family quire uses for monospace (code) text: "DejaVu Sans Mono". */
const char *qr_fonts_mono_family(void);

/** A short lowercase name for a script tag ("latin", "arabic", "han");
 *  "other" for a script the table does not name. */
const char *qr_script_name(uint32_t script);

/** The file of family's face closest to bold/italic, for embedding (PDF).
 *  Real bold and italic faces are used where the family has them; a missing
 *  face falls back bold italic -> bold -> italic -> regular, so the caller
 *  synthesises what the file lacks. Faces of normal width are preferred
 *  ("DejaVu Sans" bold is DejaVuSans-Bold.ttf, not the condensed one).
 *  Returns NULL when family is not installed in f. The string lives as long
 *  as f (forever for qr_fonts_default()).
 *      qr_fonts_face_file(f, "DejaVu Sans", 1, 1) -> ".../DejaVuSans-BoldOblique.ttf" */
const char *qr_fonts_face_file(qr_fonts *f, const char *family, int bold, int italic);

/** The face index inside that file (collections: "Noto Sans CJK JP" is one
 *  face of NotoSansCJK-Regular.ttc), or -1 when the family is not installed. */
int qr_fonts_face_index(qr_fonts *f, const char *family, int bold, int italic);

/** Does the regular face of family cover code point cp? 0 when the family is
 *  not installed. */
int qr_fonts_has_char(qr_fonts *f, const char *family, uint32_t cp);

#endif
