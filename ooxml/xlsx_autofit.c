/* xlsx_autofit.c: widths for the columns a spec gives none, from content.
 *
 * Like Excel's "AutoFit Column Width": each cell's display text is measured
 * in the unit of column widths (the width of the default font's digit "0";
 * Calibri 11 here), the column gets its widest cell plus padding, capped,
 * and never less than the default width 8.43. Measuring uses character
 * classes with each class's advance over the digit's, taken as the larger
 * of Calibri's and DejaVu Sans' (LibreOffice draws Calibri with DejaVu Sans
 * when Carlito is missing), so a label fits in either. Numbers are measured
 * as their number format shows them (decimals, grouping, percent,
 * literals), dates as their date format, so none shows "####".
 * Only the first AUTOFIT_ROWS rows are measured, so a million-row sheet
 * costs a fixed amount of time.
 */
#include <math.h>
#include <string.h>

#include "utf8.h"
#include "xlsx_int.h"

#define AUTOFIT_ROWS 20000
#define WIDTH_MIN 8.43
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

double qr_xlsx_text_width(const char *s, size_t n)
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

/* The first section of a number format (up to an unquoted ';'), measured
 * for value v. */
static double number_width(double v, const char *fmt)
{
    char num[32];
    if (!fmt || !*fmt || strcmp(fmt, "General") == 0) {
        int n = qr_xlsx_fmt_num(v, num);
        return qr_xlsx_text_width(num, (size_t)(n > 11 ? 11 : n));
    }
    int decimals = 0, group = 0, percent = 0, expo = 0, after_point = 0;
    double lit = 0;
    for (const char *p = fmt; *p && *p != ';'; p++) {
        char ch = *p;
        if (ch == '"') {
            const char *q = strchr(p + 1, '"');
            size_t len = q ? (size_t)(q - p - 1) : strlen(p + 1);
            lit += qr_xlsx_text_width(p + 1, len);
            if (!q) break;
            p = q;
        } else if (ch == '\\' && p[1]) {
            lit += char_w((unsigned char)*++p);
        } else if (ch == '[') {
            const char *q = strchr(p, ']');
            if (!q) break;
            if (p[1] == '$') lit += 1.2; /* a currency: [$€-407] */
            p = q;
        } else if (ch == '_' && p[1]) {
            lit += 0.6;
            p++;
        } else if (ch == '*' && p[1]) {
            p++;
        } else if (ch == '.') {
            after_point = 1;
            lit += 0.55;
        } else if (ch == '0' || ch == '#' || ch == '?') {
            if (after_point) decimals++;
        } else if (ch == ',') {
            if (!after_point) group = 1;
        } else if (ch == '%') {
            percent = 1;
            lit += 1.6;
        } else if (ch == 'E' || ch == 'e') {
            expo = 1;
        } else {
            lit += char_w((unsigned char)ch);
        }
    }
    if (expo) return 10 + lit;
    double a = fabs(v) * (percent ? 100 : 1);
    double digits = a >= 1 ? floor(log10(a)) + 1 : 1;
    if (digits > 15) digits = 15;
    double w = digits + decimals + lit;
    if (group) w += 0.55 * floor((digits - 1) / 3);
    if (v < 0) w += 0.7;
    return w;
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
            w += qr_xlsx_text_width(p + 1, (size_t)(q - p - 1));
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
        return qr_xlsx_text_width(c->v.str, c->len);
    case QR_CELL_NUMBER:
        return number_width(c->v.num, fmt);
    case QR_CELL_DATE:
        return date_width(fmt);
    case QR_CELL_BOOL:
        return 5 * 1.25; /* FALSE */
    case QR_CELL_FORMULA: {
        const qr_formula *f = c->v.formula;
        if (!f || !f->has_value) return 0;
        if (f->value_type == QR_CELL_TEXT && f->str)
            return qr_xlsx_text_width(f->str, strlen(f->str));
        if (f->value_type == QR_CELL_BOOL) return 5 * 1.25;
        return number_width(f->num, fmt);
    }
    case QR_CELL_EMPTY:
        break;
    }
    return 0;
}

void qr_xlsx_autofit(const qr_sheet *sh, const char *const *formats, size_t n_formats, double *w,
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

unsigned qr_xlsx_row_lines(const qr_row *row)
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
