/* cellfmt.h: a cell's value as a spreadsheet displays it under its number
 * format ("0.0%", "#,##0.00", "dd/mm/yyyy", "$#,##0;($#,##0)", "0.00E+00",
 * "@", "General"), for the sheet preview (pdf/sheet.c). Locale-free: '.'
 * decimals and ',' thousands, as the format codes are written. */
#ifndef QR_CELLFMT_H
#define QR_CELLFMT_H

#include <stddef.h>
#include <stdint.h>

/** Write v under format code fmt (NULL or "General": Excel's General) to
 *  out, NUL-terminated, at most cap - 1 bytes; returns the length. Sections
 *  (positive;negative;zero;text) are honoured; a negative value in a
 *  format with a negative section is written without its minus sign, as
 *  Excel does ("(1,234)" from "#,##0;(#,##0)"). Colours and conditions in
 *  brackets are skipped; [$€-407] writes its symbol. Fractions show as
 *  Excel shows them: 1.75 under "# ?/?" is "1 3/4", under "?/8" "14/8"
 *  (the closest fraction with as many denominator digits as the format
 *  has placeholders, or the format's own denominator). Whether the result
 *  fits its column (else "###") is the caller's to decide. */
size_t qr_cellfmt_number(const char *fmt, double v, char *out, size_t cap);

/** qr_cellfmt_number, and where the shown section's fill goes ("*c": the
 *  character c repeated over the rest of the cell, the accounting format's
 *  "_($* #,##0_)" that sets the $ at the cell's left and the number at its
 *  right): *fill_at is its byte offset in out and *fill the character, or
 *  *fill_at is (size_t)-1 when the section has none (qr_cellfmt_number
 *  writes no fill). */
size_t qr_cellfmt_number_fill(const char *fmt, double v, char *out, size_t cap, size_t *fill_at,
                              char *fill);

/** The colour of the section of fmt that shows v ("[Red]", "[Blue]", ...,
 *  "[Color3]") into *rgb (0xRRGGBB): 1, or 0 when it names none. */
int qr_cellfmt_color(const char *fmt, double v, uint32_t *rgb);

/** Is fmt a date or time format (it holds y, m, d, h or s outside quotes)? */
int qr_cellfmt_is_date(const char *fmt);

#endif
