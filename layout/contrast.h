/* contrast.h: the contrast items of the layout report (quire.h's
 * QR_LAYOUT_CONTRAST): the theme's text colours on their grounds, with the
 * spec's accent, below WCAG 2 AA. */
#ifndef QR_CONTRAST_H
#define QR_CONTRAST_H

#include <quire/quire.h>

#include "tree.h"

/** Add a contrast item to l (may be NULL) for each pair of colours doc's
 *  theme draws text in whose contrast is below AA (4.5:1, 3:1 for large
 *  text), at "/accent" when the spec's accent chose a colour, else "/theme". */
void qr_contrast_report(const qr_doc *doc, qr_layout_list *l);

/** Add a warning to warnings at "/accent" when doc is a document (docx,
 *  pdf, html) whose accent was too close to the page's ground for the text
 *  drawn in it (qr_style_accent_text): what was drawn in its place. */
void qr_contrast_accent_warn(const qr_doc *doc, qr_errlist *warnings);

#endif
