/* sheet_fit.c: the sizes of a sheet's columns and rows, as the .xlsx
 * declares them and the sheet preview draws them (sheet_fit.h): one
 * computation for both, so the preview shows what the file shows.
 *
 * A column the spec gives no width gets one from its content, like Excel's
 * "AutoFit Column Width": each cell's display text is measured in the unit
 * of column widths (the width of the default font's digit "0"; Calibri 11
 * here), the column gets its widest cell plus padding, capped, and never
 * less than the default width 8.43. Measuring uses character classes with
 * each class's advance over the digit's, taken as the larger of Calibri's
 * and DejaVu Sans' (LibreOffice draws Calibri with DejaVu Sans when Carlito
 * is missing), so a label fits in either. Numbers are measured as their
 * number format shows them (cellfmt.h: decimals, grouping, percent,
 * fractions, literals), dates as their date format, so none shows "####".
 * Only the first AUTOFIT_ROWS rows are measured, so a million-row sheet
 * costs a fixed amount of time. Rows are 15 pt a line, as tall as their
 * tallest text cell's lines.
 */
#include "sheet_fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cellfmt.h"
#include "numfmt.h"
#include "utf8.h"

#define AUTOFIT_ROWS 20000
#define WIDTH_MIN QR_SHEET_DEFAULT_WIDTH
#define WIDTH_MAX 100.0
#define WIDTH_PAD 1.5 /* cell margins and the grid line, in digit widths */
#define BOLD_SCALE 1.1

/* The advance of a character over the digit's. */
static double char_w(uint32_t cp)
{
    if (cp >= '0' && cp <= '9') return 1.0;
    if (cp == ' ' || cp == '.' || cp == ',' || cp == ':' || cp == ';' || cp == '\'' || cp == '!' ||
        cp == '|' || cp == 'i' || cp == 'j' || cp == 'l' || cp == 'I')
        return 0.55;
    if (cp == 'f' || cp == 't' || cp == 'r' || cp == '(' || cp == ')' || cp == '-' || cp == '/')
        return 0.7;
    if (cp == 'm' || cp == 'w' || cp == 'M' || cp == 'W' || cp == '@' || cp == '%') return 1.6;
    if (cp >= 'A' && cp <= 'Z') return 1.25;
    if (cp < 0x80) return 1.0;
    /* East Asian wide: Hangul Jamo, CJK, Hangul syllables, fullwidth forms */
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
        (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2.0;
    if (cp >= 0x0300 && cp <= 0x036F) return 0; /* combining marks */
    return 1.2;
}

double qr_sheet_text_width(const char *s, size_t n)
{
    double w = 0, line = 0;
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = qr_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k == 0) {
            cp = 0xFFFD;
            k = 1;
        }
        i += k;
        if (cp == '\n') {
            if (line > w) w = line;
            line = 0;
            continue;
        }
        line += char_w(cp);
    }
    return line > w ? line : w;
}

/* A number as the sheet shows it under fmt (cellfmt.h, the preview's own
 * formatting: sections, fractions, literals, dates), measured. */
static double number_width(double v, const char *fmt)
{
    char shown[256];
    if (fmt && strcmp(fmt, "@") == 0) fmt = NULL;
    size_t n = qr_cellfmt_number(fmt, v, shown, sizeof shown);
    return qr_sheet_text_width(shown, n);
}

/* A date format as it shows: month and day names at their longest. */
static double date_width(const char *fmt)
{
    if (!fmt || !*fmt) return 10;
    double w = 0;
    for (const char *p = fmt; *p && *p != ';'; p++) {
        char ch = (char)(*p | 0x20);
        size_t run = 1;
        while (p[run] && (p[run] | 0x20) == ch)
            run++;
        if ((ch == 'm' || ch == 'd') && run >= 4) {
            w += 9 * 1.25; /* "September", "Wednesday" */
            p += run - 1;
        } else if ((ch == 'm' || ch == 'd') && run == 3) {
            w += 3 * 1.25;
            p += run - 1;
        } else if (*p == '"') {
            const char *q = strchr(p + 1, '"');
            if (!q) break;
            w += qr_sheet_text_width(p + 1, (size_t)(q - p - 1));
            p = q;
        } else if (*p == '\\' && p[1]) {
            w += char_w((unsigned char)*++p);
        } else if (*p == '[') {
            const char *q = strchr(p, ']');
            if (!q) break;
            p = q;
        } else if (strncmp(p, "AM/PM", 5) == 0) {
            w += 2 * 1.25;
            p += 4;
        } else {
            w += char_w((unsigned char)*p);
        }
    }
    return w;
}

static double cell_width(const qr_cell *c, const char *const *formats, size_t n_formats)
{
    const char *fmt = c->fmt < n_formats && formats ? formats[c->fmt] : NULL;
    switch ((qr_cell_type)c->type) {
    case QR_CELL_TEXT:
        return qr_sheet_text_width(c->v.str, c->len);
    case QR_CELL_NUMBER:
        return number_width(c->v.num, fmt);
    case QR_CELL_DATE: {
        double a = date_width(fmt), b = number_width(c->v.num, fmt);
        return a > b ? a : b;
    }
    case QR_CELL_BOOL:
        return 5 * 1.25; /* FALSE */
    case QR_CELL_FORMULA: {
        const qr_formula *f = c->v.formula;
        if (!f || !f->has_value) return 0;
        if (f->value_type == QR_CELL_TEXT && f->str)
            return qr_sheet_text_width(f->str, strlen(f->str));
        if (f->value_type == QR_CELL_BOOL) return 5 * 1.25;
        return number_width(f->num, fmt);
    }
    case QR_CELL_EMPTY:
        break;
    }
    return 0;
}

void qr_sheet_autofit(const qr_sheet *sh, const char *const *formats, size_t n_formats, double *w,
                      size_t n)
{
    for (size_t i = 0; i < n; i++)
        w[i] = 0;
    size_t have =
        sh->streamed ? sh->n_held : sh->n_rows; /* a streamed sheet holds its first rows */
    size_t rows = !sh->rows ? 0 : have < AUTOFIT_ROWS ? have : AUTOFIT_ROWS;
    for (size_t r = 0; r < rows; r++) {
        const qr_row *row = &sh->rows[r];
        double k = sh->header && r == 0 ? BOLD_SCALE : 1.0;
        for (size_t c = 0; c < row->n && c < n; c++) {
            if (row->cells[c].type == QR_CELL_EMPTY) continue;
            double cw = cell_width(&row->cells[c], formats, n_formats) * k;
            if (cw > w[c]) w[c] = cw;
        }
    }
    for (size_t i = 0; i < n; i++) {
        double x = w[i] > 0 ? w[i] + WIDTH_PAD : 0;
        if (x > WIDTH_MAX) x = WIDTH_MAX;
        /* two decimals, so the XML does not depend on rounding noise */
        w[i] = x > WIDTH_MIN ? ceil(x * 4) / 4 : 0;
    }
}

unsigned qr_sheet_row_lines(const qr_row *row)
{
    unsigned most = 1;
    for (uint32_t c = 0; c < row->n; c++) {
        const qr_cell *cell = &row->cells[c];
        if (cell->type != QR_CELL_TEXT || !cell->len) continue;
        unsigned n = 1;
        const char *s = cell->v.str, *e = s + cell->len;
        while ((s = memchr(s, '\n', (size_t)(e - s))) != NULL) {
            n++;
            s++;
        }
        if (n > most) most = n;
    }
    return most;
}

void qr_sheet_col_widths(qr_sheet_fits *fits, const qr_sheet *sh, const char *const *formats,
                         size_t n_formats, double *w, size_t n)
{
    qr_sheet_autofit_shared(fits, sh, formats, n_formats, w, n);
    size_t given = sh->widths ? sh->n_widths : 0;
    for (size_t i = 0; i < n; i++) {
        double g = i < given ? sh->widths[i] : 0;
        if (g > 0) w[i] = g;
        if (!(w[i] > 0)) w[i] = QR_SHEET_DEFAULT_WIDTH;
        if (w[i] > 255) w[i] = 255;
    }
}

struct qr_sheet_fits {
    const qr_doc *doc;
    double **fit; /* per sheet: NULL until measured */
    size_t *n;
};

qr_sheet_fits *qr_sheet_fits_new(const qr_doc *doc)
{
    qr_sheet_fits *f = calloc(1, sizeof *f);
    size_t ns = doc->n_sheets ? doc->n_sheets : 1;
    if (f) f->fit = calloc(ns, sizeof *f->fit), f->n = calloc(ns, sizeof *f->n);
    if (f && (!f->fit || !f->n)) qr_sheet_fits_free(f), f = NULL;
    if (f) f->doc = doc;
    return f;
}

size_t qr_sheet_fit_cols(const qr_sheet *sh)
{
    size_t n = sh->n_cols;
    if (sh->widths && sh->n_widths > n) n = sh->n_widths;
    if (sh->n_col_looks > n) n = sh->n_col_looks;
    if (sh->n_col_flags > n) n = sh->n_col_flags;
    return n > 16384 ? 16384 : n;
}

const double *qr_sheet_fits_get(qr_sheet_fits *f, const qr_sheet *sh, size_t *n)
{
    if (!f || sh < f->doc->sheets || sh >= f->doc->sheets + f->doc->n_sheets) return NULL;
    size_t i = (size_t)(sh - f->doc->sheets);
    if (!f->fit[i]) {
        size_t k = qr_sheet_fit_cols(sh);
        f->fit[i] = malloc((k ? k : 1) * sizeof **f->fit);
        if (!f->fit[i]) return NULL;
        qr_sheet_autofit(sh, f->doc->formats, f->doc->n_formats, f->fit[i], k);
        f->n[i] = k;
    }
    *n = f->n[i];
    return f->fit[i];
}

void qr_sheet_autofit_shared(qr_sheet_fits *fits, const qr_sheet *sh, const char *const *formats,
                             size_t n_formats, double *w, size_t n)
{
    size_t have = 0;
    const double *shared = qr_sheet_fits_get(fits, sh, &have);
    if (shared && have >= n)
        memcpy(w, shared, n * sizeof *w);
    else
        qr_sheet_autofit(sh, formats, n_formats, w, n);
}

void qr_sheet_fits_free(qr_sheet_fits *f)
{
    if (!f) return;
    for (size_t i = 0; f->fit && f->doc && i < f->doc->n_sheets; i++)
        free(f->fit[i]);
    free(f->fit);
    free(f->n);
    free(f);
}

double qr_sheet_col_pt(double chars)
{
    return chars * QR_SHEET_CHAR_PT;
}

double qr_sheet_row_pt(const qr_row *row)
{
    unsigned lines = row ? qr_sheet_row_lines(row) : 1;
    if (lines > QR_SHEET_MAX_LINES) lines = QR_SHEET_MAX_LINES;
    return QR_SHEET_LINE_PT * lines;
}
