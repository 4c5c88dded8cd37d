/* cellstyle.h: the colours of a cell look (tree.h's qr_cellstyle) in a
 * theme. A look's colour is an RGB value or a slot of the theme's style
 * table (the built-in styles use slots, so a workbook's header, total and
 * input cells follow its theme and accent); backends ask here. */
#ifndef QR_CELLSTYLE_H
#define QR_CELLSTYLE_H

#include <stdint.h>

#include "style.h"
#include "tree.h"

/** The 0xRRGGBB of look colour c (QR_SX_RGB | rgb or QR_SX_THEME | slot)
 *  in theme st; def when c is 0 (unset). */
uint32_t qr_cellstyle_rgb(const qr_style *st, uint32_t c, uint32_t def);

/** The width in points a preview strokes a border kind with (0: none). */
double qr_cellstyle_border_pt(int kind);

#endif
