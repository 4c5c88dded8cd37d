/* rhythm.h: the vertical rhythm of documents, decided once.
 *
 * How far apart lines are, the space before and after each kind of block,
 * the gap between list items, the padding above and below table cells, and
 * the page-break rules (a heading keeps with what follows it; no paragraph
 * leaves its first line alone at the foot of a page or its last line alone
 * at the top of the next). pdf/layout.c paginates with these numbers and
 * the docx writer declares exactly the same ones (exact line spacing,
 * w:spacing before and after, w:keepNext, w:widowControl, cell margins),
 * so LibreOffice's and Word's pagination of quire's .docx is quire's PDF's.
 *
 * The line pitch is a fixed multiple of the paragraph's size whatever
 * script a line holds (Arabic, Devanagari, Thai and CJK fonts are taller
 * than Latin ones; their lines stay on the same pitch), so the gap
 * between two paragraphs is the same in every script.
 */
#ifndef QR_RHYTHM_H
#define QR_RHYTHM_H

#include "style.h"

/* Line pitch, in em of the paragraph's size (baseline to baseline). */
#define QR_RHYTHM_LINE 1.25

/** The baseline-to-baseline distance of a paragraph of size pt. */
double qr_rhythm_pitch(double size_pt);

/** The same in twentieths of a point (docx w:line with lineRule exact). */
long qr_rhythm_pitch_twips(double size_pt);

typedef enum qr_rhythm_kind {
    QR_RHYTHM_TITLE,
    QR_RHYTHM_HEADING, /* level 1..6 */
    QR_RHYTHM_PARAGRAPH,
    QR_RHYTHM_LIST,
    QR_RHYTHM_TABLE,
    QR_RHYTHM_CODE,
    QR_RHYTHM_IMAGE,
    QR_RHYTHM_CHART,
    QR_RHYTHM_QUOTE,
    QR_RHYTHM_CALLOUT,
    QR_RHYTHM_RULE,
    QR_RHYTHM_TOC
} qr_rhythm_kind;

/* Space around a block, points. Two blocks are the larger of the first's
 * space after and the second's space before apart (qr_rhythm_gap: the
 * spaces collapse, as LibreOffice spaces a .docx's paragraphs and CSS its
 * margins); a block at the top of a page loses its space before. */
typedef struct qr_rhythm_space {
    double before, after;
} qr_rhythm_space;

/** The space around a block of kind k (level: a heading's, 1..6) in style s. */
qr_rhythm_space qr_rhythm_block(const qr_style *s, qr_rhythm_kind k, int level);

/** The space between a block with space after `after` and the next block
 *  with space before `before`: the larger. */
double qr_rhythm_gap(double after, double before);

/** The gap between two items of a list (any depth), points. */
double qr_rhythm_list_gap(const qr_style *s);

/** The padding above and below a table cell's text, points (left and
 *  right: s->cell_pad as well). */
double qr_rhythm_cell_pad(const qr_style *s);

/* Widow and orphan control: a paragraph broken across pages keeps at least
 * this many lines on each side (code blocks break anywhere). */
#define QR_RHYTHM_WIDOWS 2

#endif
