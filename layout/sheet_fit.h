/* sheet_fit.h: the sizes of a sheet's columns and rows, computed once for
 * the .xlsx (ooxml/xlsx_sheet.c writes them as <col width> and <row ht>)
 * and for the sheet preview (pdf/sheet.c draws its grid with them), so the
 * preview shows a value wherever the file, opened in an office suite,
 * shows it.
 *
 *     double w[8];
 *     qr_sheet_col_widths(NULL, sh, doc->formats, doc->n_formats, w, 8);  // characters
 *     double x = qr_sheet_col_pt(w[0]);                             // points
 */
#ifndef QR_SHEET_FIT_H
#define QR_SHEET_FIT_H

#include <stddef.h>

#include "tree.h"

/* The default column width, in characters (digit widths of Calibri 11). */
#define QR_SHEET_DEFAULT_WIDTH 8.43
/* One character of column width in points, as LibreOffice lays a column
 * out (the digit of the face it draws Calibri 11 in, Noto Sans or Carlito
 * class: 0.0875 in). Excel's 7 px + 5 px of padding gives 48 pt for 8.43
 * characters, LibreOffice 53 pt; the preview follows the latter, the wider. */
#define QR_SHEET_CHAR_PT 6.3
/* A row: 15 pt a line of its tallest text cell, at most 27 lines (409 pt,
 * Excel's limit). */
#define QR_SHEET_LINE_PT 15.0
#define QR_SHEET_MAX_LINES 27u

/** Widths (in characters) for columns 0..n-1 of sh from their content, as
 *  Excel's autofit would give; 0 where the default width does. */
void qr_sheet_autofit(const qr_sheet *sh, const char *const *formats, size_t n_formats, double *w,
                      size_t n);

/* The autofit widths of a workbook's sheets, each measured once, when
 * first asked for: the .xlsx writer, the preview and the layout report of
 * one render share them (render.c makes them; qr_render_ctx.sheet_fits). */
typedef struct qr_sheet_fits qr_sheet_fits;

/** qr_sheet_autofit's widths of columns 0..n-1 of sh: fits' (measured
 *  once for the render) when it has them all, else measured here (fits
 *  NULL: always measured here). */
void qr_sheet_autofit_shared(qr_sheet_fits *fits, const qr_sheet *sh, const char *const *formats,
                             size_t n_formats, double *w, size_t n);

/** The width of each column 0..n-1 in characters, as the .xlsx declares
 *  it: the spec's width, else the autofit's (qr_sheet_autofit_shared),
 *  else the default 8.43; at most 255. */
void qr_sheet_col_widths(qr_sheet_fits *fits, const qr_sheet *sh, const char *const *formats,
                         size_t n_formats, double *w, size_t n);

/** The cache for doc's sheets (nothing measured yet); NULL on OOM. */
qr_sheet_fits *qr_sheet_fits_new(const qr_doc *doc);
/** qr_sheet_autofit's widths of sheet sh (one of the document's sheets)
 *  for its columns 0..n-1, n = qr_sheet_fit_cols(sh) (every column any
 *  user of them reads); NULL on OOM, or when f is NULL or sh is not one of
 *  its document's sheets. */
const double *qr_sheet_fits_get(qr_sheet_fits *f, const qr_sheet *sh, size_t *n);
/** The columns qr_sheet_fits_get measures: the longest of the rows, the
 *  widths, the column styles and the hidden or grouped columns (16,384 at
 *  most). */
size_t qr_sheet_fit_cols(const qr_sheet *sh);
void qr_sheet_fits_free(qr_sheet_fits *f);

/** A column width in characters as points on the page. */
double qr_sheet_col_pt(double chars);

/** The height of a row in points (row NULL: an empty row, 15 pt). */
double qr_sheet_row_pt(const qr_row *row);

/** A text's width in digit widths of the default font (its widest line). */
double qr_sheet_text_width(const char *s, size_t n);

/** The lines of the row's tallest text cell (1 when none has a newline). */
unsigned qr_sheet_row_lines(const qr_row *row);

#endif
