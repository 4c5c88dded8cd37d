/* text.h: a qr_text as the styled segments every backend writes.
 *
 * The one place that walks a text's runs for output. fonts/ splits the text
 * into spans of one script and one font; here each span is cut again at
 * tabs and line breaks, and every piece carries what a backend needs to
 * write it: the run's flags, its link (checked once, scheme compared
 * without case: "HTTPS://x" and "MAILTO:a@b" are links), the span's
 * script, family, file, slot, direction and language. The paragraph's base
 * direction (first strong character, fonts/) comes with the segments.
 * Characters no installed font covers are warned about here, once per code
 * point per qr_text_ctx (one per document), with one message and one hint.
 *
 * Usage (a backend writing one paragraph):
 *
 *     qr_text_ctx tc;                              // once per document
 *     qr_text_ctx_init(&tc, fonts, doc->lang, ctx->warnings);
 *     tc.segs.spans.cjk_lang = qr_fonts_doc_cjk_lang(doc);
 *     if (qr_text_segments(&tc, &para, &segs) != QR_OK) fail(QR_E_NOMEM);
 *     if (segs->dir == QR_DIR_RTL) ...              // the paragraph's direction
 *     for (size_t i = 0; i < segs->n; i++) {
 *         const qr_seg *g = &segs->items[i];
 *         switch (g->kind) { TEXT: write g->text, g->len in g->family; TAB; BREAK }
 *     }
 *     qr_text_ctx_free(&tc);                        // at the end of the document
 */
#ifndef QR_TEXT_H
#define QR_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "fonts.h"
#include <quire/error.h>
#include "tree.h"

typedef enum qr_seg_kind {
    QR_SEG_TEXT, /* text with no tab, LF or CR in it */
    QR_SEG_TAB,  /* one tab character */
    QR_SEG_BREAK /* a line break: LF, CR LF or CR (len says which) */
} qr_seg_kind;

typedef struct qr_seg {
    qr_seg_kind kind;
    uint32_t run;       /* index into the text's runs */
    uint32_t span;      /* index of the fonts/ span it comes from: segments of one span
                           share font and style (a backend may write them as one run) */
    const char *text;   /* the bytes, inside runs[run].text */
    size_t start, len;  /* their offset in runs[run].text and their length */
    uint32_t script;    /* hb_script_t of the span ('Latn', 'Arab', 'Hani'...) */
    const char *family; /* fonts/' family for the span, never NULL */
    const char *file;   /* its regular face's file, or "" */
    const char *lang;   /* the span's BCP 47 tag, or NULL */
    qr_font_slot slot;  /* OOXML font slot of the script */
    unsigned rtl : 1;   /* the script is right to left */
    unsigned bold : 1, italic : 1, underline : 1, strike : 1, code : 1;
    /* the spaces a linked or underlined run starts or ends with, cut into
     * segments of their own: no underline under them in any format (the
     * line runs under the words only) */
    unsigned bare : 1;
    const char *link; /* the run's link when its scheme is http:, https: or mailto:, else NULL */
    unsigned sup : 1, sub : 1; /* the run's (a footnote reference is sup) */
    uint32_t color, highlight; /* the run's: QR_RGB_SET | 0xRRGGBB, or 0 */
    const char *anchor;        /* the run's internal link target (a block's id), or NULL */
    const qr_text *note;       /* a footnote reference: the note (text is its number) */
    unsigned note_no;
} qr_seg;

typedef struct qr_segs {
    qr_seg *items;
    size_t n, cap;
    qr_dir dir;     /* the paragraph's base direction (qr_fonts_text_direction) */
    qr_spans spans; /* scratch: the fonts/ spans of the last text (set spans.cjk_lang once) */
} qr_segs;

/* The per-document state: fonts, language, warnings and the code points
 * already warned about. */
typedef struct qr_text_ctx {
    qr_fonts *fonts;       /* NULL: qr_fonts_default() */
    const char *lang;      /* the document's BCP 47 tag, or NULL */
    qr_errlist *warnings;  /* NULL: no missing-glyph warnings (html) */
    const char *body_face; /* a theme's Latin body face (layout/style.h), or NULL: fonts/' own */
    qr_segs segs;          /* the segments of the last text, reused */
    uint32_t *warned;      /* sorted code points already reported */
    size_t n_warned, cap_warned;
    int warned_unshown; /* the unshown-character warning was given */
} qr_text_ctx;

/* The warning for a character no installed font covers. */
#define QR_TEXT_MISSING_MESSAGE "no installed font covers U+%04X"
#define QR_TEXT_MISSING_HINT                                                                       \
    "install a font that has this character (Debian: fonts-noto-core, fonts-noto-cjk) or remove "  \
    "it"

/* The warning for a character no format shows (qr_text_unshown). */
#define QR_TEXT_UNSHOWN_MESSAGE                                                                    \
    "the text holds U+%04X, a control character no format shows: it is written as U+FFFD"
#define QR_TEXT_UNSHOWN_HINT "remove it; write \\t for a tab and \\n for a line break"

/** 1 when no format shows code point cp: a C0 control other than tab, line
 *  feed and carriage return, DEL, a C1 control (U+0080-U+009F), or a
 *  noncharacter (U+FDD0-U+FDEF, U+nFFFE, U+nFFFF). The one rule of every
 *  backend (docx, pptx, xlsx through ooxml/xml.c, html, PDF/PNG): such a
 *  character is written as U+FFFD, and qr_text_segments() warns once per
 *  document. */
int qr_text_unshown(uint32_t cp);

/** The length of s[0..n)'s first run of printable ASCII (0x20-0x7E), read
 *  eight bytes at a time: every format takes those as they are. */
size_t qr_text_printable_prefix(const char *s, size_t n);

/** The most bytes qr_text_clean() writes for n bytes (a 1-byte control
 *  becomes the 3 bytes of U+FFFD). */
#define QR_TEXT_CLEAN_MAX(n) (3 * (n))

/** Copy n bytes of UTF-8 s to d (room for QR_TEXT_CLEAN_MAX(n) bytes) with
 *  each unshown character (qr_text_unshown) and each invalid byte as
 *  U+FFFD, and a CR as a space (pango would break the line there, where
 *  the layout saw none). Returns the bytes written (no NUL is added). */
size_t qr_text_clean(char *d, const char *s, size_t n);

/** Start a document's text state. warnings may be NULL. */
void qr_text_ctx_init(qr_text_ctx *c, qr_fonts *fonts, const char *lang, qr_errlist *warnings);
void qr_text_ctx_free(qr_text_ctx *c);

/** The segments of t, in logical order, into c->segs (returned in *out).
 *  Empty runs give no segment. Warns (t->path) about each character no
 *  installed font covers, the first time the document meets it; characters
 *  XML forbids (controls, U+FFFE, U+FFFF) are never warned about as
 *  missing: backends write them as U+FFFD, and the first unshown character
 *  of the document (qr_text_unshown) is warned about once, at its text's
 *  path. QR_E_NOMEM only. */
qr_status qr_text_segments(qr_text_ctx *c, const qr_text *t, const qr_segs **out);

/** A one-run text over a plain string (titles of charts, a backend's own
 *  labels): run must live as long as the text. */
qr_text qr_text_plain(qr_run *run, const char *s, size_t len, const char *path);

#endif
