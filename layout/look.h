/* look.h: the house style every document backend follows (pdf, docx, html,
 * pptx), decided here once so the same spec looks the same in each format.
 *
 *   - List labels by nesting depth: ordered lists cycle decimal "1.",
 *     lower-alpha "a.", lower-roman "i.", then again; bullets cycle
 *     "•" "◦" "▪". (Word's and browsers' defaults for nested lists.)
 *   - The title is centred, whatever the direction of its text.
 *   - Tabs in code blocks stop every QR_LOOK_TAB_COLUMNS columns of the
 *     monospace font.
 *   - A table with neither a header row nor body rows is not drawn at all.
 */
#ifndef QR_LOOK_H
#define QR_LOOK_H

#include "tree.h"

typedef enum qr_label_format {
    QR_LABEL_BULLET,
    QR_LABEL_DECIMAL,
    QR_LABEL_LOWER_ALPHA,
    QR_LABEL_LOWER_ROMAN
} qr_label_format;

/** The label format of a list item at depth (0-based). */
qr_label_format qr_look_label_format(int ordered, int depth);
/** The bullet of an unordered item at depth: UTF-8 "•", "◦" or "▪". */
const char *qr_look_bullet(int depth);
/** The label of item n (1-based) at depth: "3.", "c.", "iii." or a bullet;
 *  out holds at least 32 bytes. */
void qr_look_label(int ordered, int depth, unsigned n, char *out);

/* Tab stops in code blocks, in columns of the monospace font. */
#define QR_LOOK_TAB_COLUMNS 8
/* The advance of DejaVu Sans Mono (fonts/' monospace family), in em:
 * 1233/2048. A tab stop is QR_LOOK_TAB_COLUMNS of these. */
#define QR_LOOK_MONO_ADVANCE (1233.0 / 2048.0)

/** 1 when a table is drawn nowhere: no header row and no body rows. */
int qr_look_table_skipped(const qr_table *t);

#endif
