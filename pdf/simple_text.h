/* simple_text.h: the lines pango would break a simple text into, without a
 * PangoLayout.
 *
 * A simple text is printable ASCII only (no tab, no newline), left to
 * right, each byte range in one face (family, weight, style, size,
 * language) and nothing else that changes how pango shapes or breaks it:
 * the measure pass (text.c) of the docx's table of contents asks for the
 * lines of most paragraphs this way, and a document's PDF asks for the
 * lines and the glyph runs they draw (qr_simple_runs) of the texts with
 * nothing on them but glyphs. Everything else goes through pango.
 *
 * The answer is pango 1.50's own, not an imitation of it: the break
 * opportunities are pango_default_break()'s, asked once per word (whether
 * spaces follow) and kept (a word of letters and digits, stops . , : ; ! ?
 * at most at its end, has none inside by UAX #14 LB13, LB23, LB25 and
 * LB28: not asked); the one at a word's start after spaces depends only on
 * its first character and the one before the spaces (LB13-LB15, LB18: a
 * table, compared with pango's for every pair by the tests); the widths
 * are pango_shape_with_flags()'s on the same
 * font, language and script an itemization of the text gives, per piece of
 * text between two break opportunities, kept per face (a paragraph's new
 * pieces of one face are shaped in one HarfBuzz buffer, and each keeps its
 * advances from there where HarfBuzz flags both its edges safe to break:
 * the same numbers as shaped alone, at a fraction of the calls); the line
 * filling is pango-layout.c's process_line() and process_item() step by step over
 * those numbers (WRAP_WORD_CHAR, insert-hyphens off, no indent, no tabs),
 * which it only reads where a piece starts or ends: a piece is kept as its
 * width and its last character's.
 * The pieces add up exactly when the font does not kern, ligate or
 * otherwise join the two characters across a break opportunity: that is
 * checked per font and character pair, and a text where it fails (or where
 * pango would break inside a word: a word wider than the line) is left to
 * pango. tests/unit/test_simple_text.c compares the lines with pango's over
 * random texts, faces and widths.
 *
 * A qr_simple keeps its words and faces for one PangoContext: one per
 * thread (each pd_ctx has its own), no locks.
 */
#ifndef QR_PDF_SIMPLE_TEXT_H
#define QR_PDF_SIMPLE_TEXT_H

#include <pango/pango.h>
#include <stddef.h>

#include "fonts.h"

typedef struct qr_simple qr_simple;

/* One face over text bytes [start, end): what text.c's font attributes set.
 * family and lang (NULL: the context's) must live until the call returns. */
typedef struct qr_simple_item {
    size_t start, end;
    const char *family;
    int size; /* pango units, as the item's font description holds it (qr_simple_size) */
    int bold, italic;
    const char *lang;
} qr_simple_item;

/* One line: bytes [start, start + length) of the text, and its logical
 * width in pango units as a PangoLayout draws it: its characters' logical
 * widths (the glyphs' advances qr_simple_runs() gives), a wrapped line's
 * final space at zero (pango-layout.c zero_line_final_space). */
typedef struct qr_simple_line {
    int start, length;
    int width;
} qr_simple_line;

/** A cache for the context pc (kept referenced); NULL out of memory.
 *  widths_only: only qr_simple_break() and qr_simple_breaks() will be
 *  asked (the docx's measure pass): a face is then opened without pango
 *  where it can be (its font file matched as pango matches it, its hb_font
 *  made as pango makes it), which spares pango's fontset and the fallback
 *  sort fontconfig runs for it; and where fonts (may be NULL) was opened
 *  with a cache, what fontconfig answered is kept beside it for the next
 *  process (face_answers.h), which then asks fontconfig nothing. */
qr_simple *qr_simple_new(PangoContext *pc, int widths_only, const qr_fonts *fonts);
void qr_simple_free(qr_simple *s);

/** The size pango gives a run of a layout whose font description has the
 *  absolute size pt points, scaled by scale (1: no PangoAttrScale; text.c
 *  sets superscripts and subscripts at 0.7): pango-attributes.c
 *  pango_attr_iterator_get_font(). */
int qr_simple_size(double pt, double scale);

/** 1 when s[0..n) is printable ASCII (n > 0). */
int qr_simple_ascii(const char *s, size_t n);

/** Break text[0..n) (printable ASCII) set in items (in order, covering it
 *  with no gap) into lines width pango units wide, as a PangoLayout with
 *  PANGO_WRAP_WORD_CHAR would: *lines (valid until the next call) and
 *  their count, or -1 when pango must do it (see above; also out of
 *  memory). */
long qr_simple_break(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                     size_t n_items, int width, const qr_simple_line **lines);

/** The logical width in pango units of text[0..n) set in items (in order,
 *  covering it) as a PangoLayout with no width lays it out, on one line:
 *  printable ASCII (qr_simple_break()'s one line), or one character a
 *  list's label may be alone (a bullet, a task box) in a face whose first
 *  font has it, shaped alone; -1 when pango must do it (also out of
 *  memory). */
long qr_simple_width(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                     size_t n_items);

/** The break opportunities of printable ASCII t[0..n): brk[i] = 1 when
 *  pango_default_break() gives position i is_line_break (the lines use
 *  these; tests compare them with pango's over whole texts). 0 or -1. */
int qr_simple_breaks(qr_simple *s, const char *t, size_t n, unsigned char *brk);

/** Did s ask fontconfig for a face (its answer not kept yet)? 1 or 0. */
int qr_simple_asked_fontconfig(const qr_simple *s);

/** QUIRE_SIMPLE_TEXT: 0 off, 1 on (the default), 2 ("check") on and every
 *  answer compared with pango's by the caller. */
int qr_simple_mode(void);

/* ---- what a line draws (the PDF's paint pass) ------------------------------------ */

/* One glyph run of a line: what pango's renderer hands
 * pango_renderer_draw_glyph_item() for a run of a PangoLayoutLine. */
typedef struct qr_simple_run {
    PangoFont *font;              /* the face's, on the cache's context (not referenced) */
    PangoLanguage *language;      /* its item's (font metrics) */
    int start, length;            /* the run's bytes in the text */
    int x;                        /* pango units from the line's origin */
    const PangoGlyphInfo *glyphs; /* n_glyphs, as pango shapes them */
    const int *log_clusters;      /* per glyph: its first byte, from start */
    int n_glyphs;
} qr_simple_run;

/** The glyph runs a PangoLayout would draw for the line [start, start +
 *  length) of text[0..n) set in items, as qr_simple_break() gave it at
 *  some width (wrapped: a line after it follows; pango then draws no
 *  final space), into *runs (valid until the next call) and their count
 *  (left to right, one per item the line touches, each split again at
 *  the byte positions cuts[0..n_cuts) inside it, in increasing order: the
 *  edges of what pango_glyph_item_apply_attrs() splits runs by: colours,
 *  lines); -1 out of memory. Each
 *  piece between two break opportunities is shaped alone
 *  (pango_shape_with_flags) and kept per face, as its widths are. */
long qr_simple_runs(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                    size_t n_items, int start, int length, int wrapped, const int *cuts,
                    size_t n_cuts, const qr_simple_run **runs);

/** The faces s has opened so far, and the font of face i (to pin; NULL
 *  for a face opened without pango). */
size_t qr_simple_n_faces(const qr_simple *s);
PangoFont *qr_simple_face_font(const qr_simple *s, size_t i);

#endif
