/* sheet_cond.h: a sheet's conditional formats as a preview draws them
 * (tree.h's qr_cond): the computed result, so the cell a rule marks red is
 * red in the PDF and PNG as in an office suite.
 *
 *     qr_cf_scale *sc = qr_cf_scales(sh);          // once per sheet: lows, middles, highs
 *     qr_cf_hit h = qr_cf_apply(doc, sh, sc, r, c, cell, &look);
 *     if (h.bar >= 0) draw a bar h.bar of the cell's width in h.bar_rgb
 *
 * Cell rules compare a cell's number (a number, date, or a formula's
 * cached number) or its text (= and != against a text, ignoring case, as
 * Excel does); a colour scale interpolates between the range's lowest,
 * 50th percentile (three colours) and highest number; a data bar is as
 * long as the number's place between the lowest (a tenth of the cell, as
 * Excel's shortest bar) and the highest (the whole cell). A formula rule
 * holds where its formula, written for the range's top-left cell and moved
 * to the cell (relative references), is TRUE or a number other than 0 in
 * quire's evaluator (layout/formula.h); one it cannot compute is not drawn.
 */
#ifndef QR_SHEET_COND_H
#define QR_SHEET_COND_H

#include <stddef.h>

#include "formula.h"
#include "tree.h"

/* One rule's numbers over its range. */
typedef struct qr_cf_scale {
    double lo, mid, hi;
    int any; /* the range holds a number */
} qr_cf_scale;

/** The scales of sh's rules (n_conds entries; malloc'd, free() it), NULL
 *  when it has none or out of memory. */
qr_cf_scale *qr_cf_scales(const qr_sheet *sh);

typedef struct qr_cf_hit {
    double bar;       /* a data bar's length, 0..1, or -1: none */
    uint32_t bar_rgb; /* 0xRRGGBB */
} qr_cf_hit;

/** Lay the rules of doc's sheet `sheet` that hold for cell (r, c) over
 *  *look: what the first (highest priority) rule sets wins; cell may be
 *  NULL (empty). sc from qr_cf_scales (NULL: colour scales and bars not
 *  drawn); fs evaluates formula rules (NULL: they are not drawn). */
qr_cf_hit qr_cf_apply(const qr_doc *doc, size_t sheet, const qr_cf_scale *sc,
                      qr_formula_session *fs, size_t r, size_t c, const qr_cell *cell,
                      qr_cellstyle *look);

/** The number a rule reads from a cell: 1 and *v, or 0 (text, empty, error). */
int qr_cf_number(const qr_cell *cell, double *v);

#endif
