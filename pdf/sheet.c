/* sheet.c: a spreadsheet as printed pages (PDF) or one page of them (PNG).
 *
 * Each sheet is a grid on Letter portrait pages with Excel's default
 * margins (0.7 in left and right, 0.75 in top and bottom): the columns as
 * wide and the rows as tall as the .xlsx declares them (layout/sheet_fit.h,
 * the one computation both use: the spec's widths, else the autofit's from
 * the cells as shown), rows 15 pt a line, text with line breaks drawn
 * wrapped, as the .xlsx asks. Pages run
 * across, then down. The header row (or the frozen rows) is repeated at
 * the top of every page, the frozen columns at the left. Values are shown
 * as displayed: numbers and dates under their number format (spec/
 * cellfmt.h), right-aligned, "###" when they do not fit; booleans TRUE and
 * FALSE centred; formulas by their value (layout/formula.h). Text spills
 * into empty cells to its right, as Excel draws it, and is clipped at the
 * next filled cell. Cell looks (tree.h's qr_cellstyle, merged by
 * qr_sheet_cell_style) are drawn: fills under the grid, borders over it,
 * bold, italic, underline, text colour, horizontal and vertical alignment,
 * wrapping and a look's number format.
 * The footer holds the sheet's name and the page number.
 * A sheet's print setup (tree.h's qr_sheet_print) changes this: its paper,
 * orientation and margins make the page (a PDF's pages differ in size
 * when its sheets do), its fit scales the cells (drawn through the cairo
 * matrix) until they take the pages it asks for, its repeated rows and
 * columns replace the header's and frozen ones, its area limits the cells,
 * gridlines false drops the grid, and its header and footer replace the
 * preview's footer.
 * A sheet's charts are drawn at their anchor cell, as large as the .xlsx
 * anchors them (432 x 252 pt by default), on a white chart area (pdf/
 * chart.c draws them); the pages reach as far as the charts do, and a chart
 * larger than a page's cells goes on over the next pages, as Excel prints.
 *
 * Only row heights are computed for the whole sheet (a scan of its text
 * cells for line breaks, no text layout), so a PNG of page 1 of a
 * 100,000-row sheet lays out one page of cells.
 */
#include <cairo-pdf.h>
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cellfmt.h"
#include "cellstyle.h"
#include "formula.h"
#include "preview.h"
#include "sheet_cond.h"
#include "sheet_fit.h"

#define PAGE_W 612.0
#define PAGE_H 792.0
#define MARGIN_X 50.4 /* 0.7 in */
#define MARGIN_Y 54.0 /* 0.75 in */
#define ROW_H QR_SHEET_LINE_PT
#define FONT 9.0
#define PAD 2.5

/* Printable ASCII cells skip pango: cairo sets them in DejaVu Sans (the
 * face fonts/ picks for Latin) from its own glyph cache, a fraction of a
 * layout's cost, so a 2,000-page workbook prints in seconds. */
typedef struct afont {
    PangoFont *font[2];         /* regular, bold: pango's own, so the faces are the ones it uses */
    cairo_font_face_t *face[2]; /* theirs, not referenced */
    cairo_font_options_t *opt;
    double ascent, height; /* at FONT, points */
} afont;

static int afont_open(afont *a, pd_ctx *c)
{
    memset(a, 0, sizeof *a);
    a->opt = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(a->opt, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(a->opt, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_antialias(a->opt, CAIRO_ANTIALIAS_GRAY);
    for (int b = 0; b < 2; b++) {
        PangoFontDescription *d = pango_font_description_from_string("DejaVu Sans");
        pango_font_description_set_absolute_size(d, FONT * PANGO_SCALE);
        pango_font_description_set_weight(d, b ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
        qr_pdf_fonts_ready(c->pc);
        a->font[b] = pango_context_load_font(c->pc, d);
        pango_font_description_free(d);
        cairo_scaled_font_t *sf =
            a->font[b] ? pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(a->font[b])) : NULL;
        if (!sf) return -1;
        a->face[b] = cairo_scaled_font_get_font_face(sf);
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create(s);
    cairo_set_font_face(cr, a->face[0]);
    cairo_set_font_size(cr, FONT);
    cairo_set_font_options(cr, a->opt);
    cairo_font_extents_t fe;
    cairo_font_extents(cr, &fe);
    a->ascent = fe.ascent;
    a->height = fe.ascent + fe.descent;
    int ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return ok ? 0 : -1;
}

static void afont_close(afont *a)
{
    for (int b = 0; b < 2; b++)
        if (a->font[b]) g_object_unref(a->font[b]);
    if (a->opt) cairo_font_options_destroy(a->opt);
}

static int ascii_only(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7E) return 0;
    return 1;
}

typedef struct splan {
    const qr_sheet *sh;
    size_t nc;    /* columns drawn (at least 1) */
    double *colw; /* nc widths, points */
    /* the page: its size, margins (top, right, bottom, left) and the scale
     * the cells are drawn at (a print setup's fit; 1 without) */
    double pw, ph, mg[4], scale;
    /* repeated rows and columns: [rr0, rr1), [rc0, rc1) (none when equal),
     * at the top (left) of every page whose band starts below (right of) them */
    size_t rr0, rr1, rc0, rc1;
    size_t *cband; /* column band k: columns [cband[k], cband[k+1]) */
    size_t n_cb;
    size_t *rband; /* row band k: rows [rband[k], rband[k+1]) */
    size_t n_rb;
    size_t first_page; /* 0-based page number of its first page */
    const afont *af;   /* NULL: every cell through pango */
    /* the grid reaches as far as the sheet's charts: nr rows (n_rows or
     * more), nc columns; colx[i]: the sheet x of column i (nc + 1),
     * band_y[k]: the sheet y of row band k (n_rb + 1), chart_y[i]: of
     * chart i's anchor row */
    size_t nr;
    double *colx, *band_y, *chart_y;
    qr_cf_scale *cf;         /* the conditional formats' numbers (sheet_cond.h), or NULL */
    qr_formula_session *fs;  /* its formula rules' evaluations, or NULL */
    size_t index;            /* the sheet's in the workbook */
    const struct splan *all; /* every sheet's plan (links to other sheets), n_all of them */
    size_t n_all;
    int whole; /* every page is in the output: links to pages may be written */
} splan;

/* Column c's width in points: the .xlsx's (fit: the sheet's n_fit widths in
 * characters from qr_sheet_col_widths; past them the default). */
static double sheet_col_w(const double *fit, size_t n_fit, size_t c)
{
    return qr_sheet_col_pt(c < n_fit ? fit[c] : QR_SHEET_DEFAULT_WIDTH);
}

static double chart_w(const qr_chart *ch)
{
    return ch->width > 0 ? ch->width : 432; /* as xlsx_chart.c anchors it */
}

static double chart_h(const qr_chart *ch)
{
    return ch->height > 0 ? ch->height : 252;
}

static double row_height(const qr_sheet *sh, size_t r)
{
    if (r < sh->n_rows && sh->rows[r].hidden) return 0;
    /* below the data, under a chart: an empty row */
    return qr_sheet_row_pt(r < sh->n_rows ? &sh->rows[r] : NULL);
}

/* The size of items [rep0, rep1). */
static double rep_size(size_t rep0, size_t rep1, const double *sizes, const qr_sheet *sh)
{
    double size = 0;
    for (size_t i = rep0; i < rep1; i++)
        size += sizes ? sizes[i] : row_height(sh, i);
    return size;
}

/* Split items [from, to) of sizes size(i) into bands of at most room,
 * items [rep0, rep1) repeated at the start of every band that starts at
 * or past rep1. */
static size_t *bands(size_t from, size_t to, size_t rep0, size_t rep1, double room,
                     const double *sizes, const qr_sheet *sh, size_t *n_out)
{
    size_t cap = 16, nb = 0;
    size_t *b = malloc(cap * sizeof *b);
    if (!b) return NULL;
    double rep = rep_size(rep0, rep1, sizes, sh);
    b[nb++] = from;
    double used = from >= rep1 ? rep : 0;
    size_t in_band = 0;
    for (size_t i = from; i < to; i++) {
        double s = sizes ? sizes[i] : row_height(sh, i);
        if (in_band && used + s > room) {
            if (nb + 1 >= cap) {
                cap *= 2;
                size_t *nbp = realloc(b, cap * sizeof *b);
                if (!nbp) return free(b), NULL;
                b = nbp;
            }
            b[nb++] = i;
            used = i >= rep1 ? rep : 0;
            in_band = 0;
        }
        used += s;
        in_band++;
    }
    b[nb] = to;
    *n_out = nb;
    return b;
}

static int plan_sheet(splan *p, const qr_doc *d, size_t index, long long epoch, qr_sheet_fits *fits)
{
    const qr_sheet *sh = &d->sheets[index];
    memset(p, 0, sizeof *p);
    p->sh = sh;
    p->index = index;
    for (size_t i = 0; i < sh->n_conds && !p->fs; i++)
        if (sh->conds[i].rule == QR_CF_FORMULA) {
            /* the evaluator caches values in the document (its arena, its budget) */
            p->fs = qr_formula_session_open((qr_doc *)d, epoch);
            if (!p->fs) return -1;
        }
    p->nc = sh->n_cols ? sh->n_cols : 1;
    p->nr = sh->n_rows;
    /* the widths the .xlsx declares, for the sheet's own columns */
    size_t n_fit = sh->n_cols > sh->n_widths ? sh->n_cols : sh->n_widths;
    if (n_fit > 16384) n_fit = 16384;
    double *fit = malloc((n_fit ? n_fit : 1) * sizeof *fit);
    if (!fit) return -1;
    qr_sheet_col_widths(fits, sh, d->formats, d->n_formats, fit, n_fit); /* the render's */
    for (size_t i = 0; i < sh->n_charts; i++) {
        const qr_chart *ch = &sh->charts[i];
        size_t c = ch->anchor_col, r = ch->anchor_row;
        for (double x = 0; x < chart_w(ch); c++)
            x += sheet_col_w(fit, n_fit, c);
        for (double y = 0; y < chart_h(ch); r++)
            y += row_height(sh, r);
        if (c > p->nc) p->nc = c;
        if (r > p->nr) p->nr = r;
    }
    p->cf = qr_cf_scales(sh);
    if (sh->n_conds && !p->cf) return free(fit), -1;
    p->colw = malloc(p->nc * sizeof *p->colw);
    p->colx = malloc((p->nc + 1) * sizeof *p->colx);
    p->chart_y = malloc((sh->n_charts ? sh->n_charts : 1) * sizeof *p->chart_y);
    if (!p->colw || !p->colx || !p->chart_y) return free(fit), -1;
    p->colx[0] = 0;
    for (size_t c = 0; c < p->nc; c++) {
        p->colw[c] = sheet_col_w(fit, n_fit, c);
        if (c < sh->n_col_flags && (sh->col_flags[c] & QR_COL_HIDDEN)) p->colw[c] = 0;
        p->colx[c + 1] = p->colx[c] + p->colw[c];
    }
    free(fit);
    /* the page, the repeated rows and columns, the cells printed */
    const qr_sheet_print *pr = sh->print;
    qr_print_paper_pt(pr ? pr->paper : 0, pr && pr->orientation == 2, &p->pw, &p->ph);
    static const double def_mg[4] = {MARGIN_Y, MARGIN_X, MARGIN_Y, MARGIN_X};
    memcpy(p->mg, pr && pr->has_margins ? pr->margins : def_mg, sizeof p->mg);
    p->scale = 1;
    if (pr && pr->has_rows) {
        p->rr0 = pr->rows0;
        p->rr1 = (size_t)pr->rows1 + 1;
    } else if (!pr) {
        p->rr1 = sh->freeze_row > 0 ? (size_t)sh->freeze_row : sh->header ? 1 : 0;
    }
    if (pr && pr->has_cols) {
        p->rc0 = pr->cols0;
        p->rc1 = (size_t)pr->cols1 + 1;
    } else if (!pr) {
        p->rc1 = sh->freeze_col > 0 ? (size_t)sh->freeze_col : 0;
    }
    if (p->rc1 > p->nc) p->rc0 = p->rc1 = 0;
    if (p->rr1 > p->nr) p->rr0 = p->rr1 = 0;
    size_t r_from = 0, r_to = p->nr, c_from = 0, c_to = p->nc;
    if (pr && pr->has_area) { /* the area's cells on the sheet's grid */
        r_from = pr->area.r0 < p->nr ? pr->area.r0 : p->nr;
        r_to = (size_t)pr->area.r1 + 1 < p->nr ? (size_t)pr->area.r1 + 1 : p->nr;
        c_from = pr->area.c0 < p->nc ? pr->area.c0 : p->nc;
        c_to = (size_t)pr->area.c1 + 1 < p->nc ? (size_t)pr->area.c1 + 1 : p->nc;
        if (c_from >= c_to) c_from = c_to = 0, r_to = r_from; /* nothing printed */
    }
    double room_w = p->pw - p->mg[1] - p->mg[3], room_h = p->ph - p->mg[0] - p->mg[2];
    /* too big to repeat: the repeated items take half a page at most */
    if (rep_size(p->rc0, p->rc1, p->colw, sh) > room_w / 2) p->rc0 = p->rc1 = 0;
    if (rep_size(p->rr0, p->rr1, NULL, sh) > room_h / 2) p->rr0 = p->rr1 = 0;
    /* fit to pages: the cells scaled down (to 10% at most, as Excel) until
     * they take fit_width pages across and fit_height down */
    if (pr && (pr->fit_width || pr->fit_height) && r_to > r_from) {
        /* the rows' heights once (a fit down only: the rows are many) */
        double *rh = pr->fit_height ? malloc(r_to * sizeof *rh) : NULL;
        if (pr->fit_height && !rh) return -1;
        double w = p->colx[c_to] - p->colx[c_from], h = 0;
        for (size_t r = 0; rh && r < r_to; r++) {
            rh[r] = row_height(sh, r);
            if (r >= r_from) h += rh[r];
        }
        double s = 1;
        if (pr->fit_width && w > room_w * pr->fit_width) s = room_w * pr->fit_width / w;
        if (pr->fit_height && h * s > room_h * pr->fit_height) s = room_h * pr->fit_height / h;
        for (int k = 0; k < 200 && s > 0.1; k++, s *= 0.98) {
            size_t ncb = 0, nrb = 0;
            size_t *cb = pr->fit_width
                             ? bands(c_from, c_to, p->rc0, p->rc1, room_w / s, p->colw, sh, &ncb)
                             : NULL;
            size_t *rb = rh ? bands(r_from, r_to, p->rr0, p->rr1, room_h / s, rh, sh, &nrb) : NULL;
            free(cb);
            free(rb);
            if ((pr->fit_width && !cb) || (rh && !rb)) return free(rh), -1;
            if ((!pr->fit_width || ncb <= pr->fit_width) &&
                (!pr->fit_height || nrb <= pr->fit_height))
                break;
        }
        free(rh);
        p->scale = s < 0.1 ? 0.1 : s;
    }
    p->cband = bands(c_from, c_to, p->rc0, p->rc1, room_w / p->scale, p->colw, sh, &p->n_cb);
    if (r_to <= r_from) {
        /* an empty sheet (no rows, no chart) prints no page, as LibreOffice
         * prints the workbook; only a workbook of empty sheets is one blank
         * page */
        p->rband = malloc(2 * sizeof *p->rband);
        if (p->rband) p->rband[0] = 0, p->rband[1] = 0, p->n_rb = 0;
    } else {
        p->rband = bands(r_from, r_to, p->rr0, p->rr1, room_h / p->scale, NULL, sh, &p->n_rb);
    }
    if (!p->cband || !p->rband) return -1;
    p->band_y = malloc((p->n_rb + 1) * sizeof *p->band_y);
    if (!p->band_y) return -1;
    /* one pass over the rows: where each band and each chart starts */
    double y = 0;
    size_t k = 0;
    for (size_t r = 0; r <= p->nr; r++) {
        for (; k <= p->n_rb && p->rband[k] == r; k++)
            p->band_y[k] = y;
        for (size_t i = 0; i < sh->n_charts; i++)
            if (sh->charts[i].anchor_row == r) p->chart_y[i] = y;
        y += row_height(sh, r);
    }
    return 0;
}

static void free_plans(splan *p, size_t n)
{
    for (size_t i = 0; p && i < n; i++) {
        free(p[i].colw);
        free(p[i].colx);
        free(p[i].band_y);
        free(p[i].chart_y);
        free(p[i].cband);
        free(p[i].rband);
        free(p[i].cf);
        qr_formula_session_close(p[i].fs);
    }
    free(p);
}

/* ---- cells ----------------------------------------------------------------------------- */

enum { AL_L, AL_R, AL_C };

/* What the cell shows: text (into buf when formatted), its alignment, the
 * colour its number format's section names ([Red]; *has_ink 1) and where
 * the format's fill goes (*fill_at, (size_t)-1 for none; cellfmt.h). */
static const char *cell_display(const qr_doc *d, const qr_cell *c, unsigned fmt_i, char *buf,
                                size_t cap, size_t *len, int *align, int *number, uint32_t *ink,
                                int *has_ink, size_t *fill_at, char *fill)
{
    *has_ink = 0;
    *fill_at = (size_t)-1;
    const char *fmt = fmt_i && fmt_i < d->n_formats ? d->formats[fmt_i] : NULL;
    *number = 0;
    *align = AL_L;
    int type = c->type;
    double num = c->v.num;
    const char *str = c->v.str;
    size_t slen = c->len;
    if (type == QR_CELL_FORMULA) {
        const qr_formula *f = c->v.formula;
        if (!f || !f->has_value) return *len = 0, "";
        type = f->value_type;
        num = f->num;
        str = f->str ? f->str : "";
        slen = strlen(str);
        if (f->is_error) {
            *align = AL_C;
            return *len = slen, str;
        }
    }
    switch (type) {
    case QR_CELL_NUMBER:
    case QR_CELL_DATE:
        *number = 1;
        *align = AL_R;
        if (fmt && strcmp(fmt, "@") == 0) fmt = NULL;
        *len = qr_cellfmt_number_fill(fmt, num, buf, cap, fill_at, fill);
        *has_ink = qr_cellfmt_color(fmt, num, ink);
        return buf;
    case QR_CELL_BOOL:
        *align = AL_C;
        *len = num != 0 ? 4 : 5;
        return num != 0 ? "TRUE" : "FALSE";
    case QR_CELL_TEXT:
        *len = slen;
        return str ? str : "";
    default:
        break;
    }
    *len = 0;
    return "";
}

static int cell_empty(const qr_sheet *sh, size_t r, size_t c)
{
    if (r >= sh->n_rows || c >= sh->rows[r].n) return 1;
    const qr_cell *cell = &sh->rows[r].cells[c];
    if (cell->type == QR_CELL_EMPTY) return 1;
    if (cell->type == QR_CELL_TEXT && cell->len == 0) return 1;
    return 0;
}

/* ---- a page ------------------------------------------------------------------------------ */

/* The rows (or columns) of band k with the repeated ones, [rep0, rep1), first
 * when the band starts past them. */
static size_t band_items(size_t k, const size_t *b, size_t rep0, size_t rep1, size_t *items,
                         size_t cap)
{
    size_t n = 0;
    if (b[k] >= rep1)
        for (size_t i = rep0; i < rep1 && n < cap; i++)
            items[n++] = i;
    for (size_t i = b[k]; i < b[k + 1] && n < cap; i++)
        items[n++] = i;
    return n;
}

/* The cells page (rb, cb) of p draws (as paint_page counts them). */
static uint64_t band_cells(const splan *p, size_t rb, size_t cb)
{
    size_t rows[256], cols[256];
    size_t nr = p->n_rb ? band_items(rb, p->rband, p->rr0, p->rr1, rows, 256) : 0;
    size_t nc = band_items(cb, p->cband, p->rc0, p->rc1, cols, 256);
    return (uint64_t)nr * nc;
}

static void set_rgb(cairo_t *cr, uint32_t c)
{
    cairo_set_source_rgb(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                         (c & 255) / 255.0);
}

/* ASCII text at (x, base) in the current font, as glyphs with their text. */
static void show_ascii(cairo_t *cr, const char *s, double x, double base)
{
    cairo_glyph_t *g = NULL;
    cairo_text_cluster_t *cl = NULL;
    int ng = 0, ncl = 0;
    cairo_text_cluster_flags_t fl;
    if (cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), x, base, s, -1, &g, &ng, &cl,
                                         &ncl, &fl) == CAIRO_STATUS_SUCCESS)
        cairo_show_text_glyphs(cr, s, -1, g, ng, cl, ncl, fl);
    cairo_glyph_free(g);
    cairo_text_cluster_free(cl);
}

static void paint_cell(pd_ctx *c, cairo_t *cr, const splan *p, size_t r, size_t ci, double x,
                       double y, double w, double h, double spill, const qr_cellstyle *cs)
{
    const qr_sheet *sh = p->sh;
    if (r >= sh->n_rows || ci >= sh->rows[r].n) return;
    const qr_cell *cell = &sh->rows[r].cells[ci];
    char buf[256];
    size_t len;
    int align, number;
    unsigned fmt = cell->fmt;
    if (!fmt && (cs->set & QR_SX_FORMAT)) fmt = cs->fmt;
    uint32_t fmt_ink = 0;
    int has_fmt_ink;
    size_t fill_at;
    char fill;
    const char *s = cell_display(c->doc, cell, fmt, buf, sizeof buf, &len, &align, &number,
                                 &fmt_ink, &has_fmt_ink, &fill_at, &fill);
    if (!len) return;
    int bold = cs->bold;
    int wrap = (cell->type == QR_CELL_TEXT && memchr(s, '\n', len) != NULL) ||
               (cs->wrap && cell->type == QR_CELL_TEXT);
    if (cs->align == QR_HA_LEFT) align = AL_L;
    if (cs->align == QR_HA_CENTER) align = AL_C;
    if (cs->align == QR_HA_RIGHT) align = AL_R;
    uint32_t ink = qr_cellstyle_rgb(&c->style, cs->color, 0x000000);
    if (has_fmt_ink) ink = fmt_ink; /* the format's colour section wins, as in Excel */
    double ind = cs->indent * 7.5;  /* Excel indents by three character widths, about 7.5 pt */
    if (ind > 0 && align == AL_L) x += ind, w -= ind;
    if (ind > 0 && align == AL_R) w -= ind;
    if (w < 2) w = 2;
    pd_style st = {.size = FONT, .bold = bold, .italic = cs->italic, .has_rgb = 1, .rgb = ink};
    st.align = align == AL_R ? PD_ALIGN_END : align == AL_C ? PD_ALIGN_CENTER : PD_ALIGN_START;
    double inner = w - 2 * PAD;
    if (inner < 1) inner = 1;
    if (p->af && !wrap && !cs->italic && !cs->underline && len < sizeof buf && ascii_only(s, len)) {
        char txt[256], hashes[128];
        memcpy(txt, s, len);
        txt[len] = '\0';
        cairo_save(cr);
        cairo_set_font_face(cr, p->af->face[bold]);
        cairo_set_font_size(cr, FONT);
        cairo_set_font_options(cr, p->af->opt);
        cairo_text_extents_t ex;
        cairo_text_extents(cr, txt, &ex);
        const char *show = txt;
        double tw = ex.x_advance;
        if (number && tw > inner + 0.01) {
            size_t n = (size_t)(inner / (FONT * 0.84));
            if (n < 1) n = 1;
            if (n >= sizeof hashes) n = sizeof hashes - 1;
            memset(hashes, '#', n);
            hashes[n] = '\0';
            cairo_text_extents(cr, hashes, &ex);
            show = hashes;
            tw = ex.x_advance;
        }
        double tx = align == AL_R ? x + w - PAD - tw : align == AL_C ? x + (w - tw) / 2 : x + PAD;
        cairo_rectangle(cr, x, y, align == AL_L ? w + spill : w, h);
        cairo_clip(cr);
        set_rgb(cr, ink);
        double base = y + (h - p->af->height) / 2 + p->af->ascent;
        if (show == txt && fill_at < len) {
            /* a fill ("$* #,##0"): what comes before it at the cell's left,
             * the rest at its right, its character repeated between */
            char before[256], run[256];
            memcpy(before, txt, fill_at);
            before[fill_at] = '\0';
            cairo_text_extents_t eb, ea, ef;
            cairo_text_extents(cr, before, &eb);
            cairo_text_extents(cr, txt + fill_at, &ea);
            show_ascii(cr, before, x + PAD, base);
            show_ascii(cr, txt + fill_at, x + w - PAD - ea.x_advance, base);
            char one[2] = {fill, '\0'};
            cairo_text_extents(cr, one, &ef);
            double gap = w - 2 * PAD - eb.x_advance - ea.x_advance;
            if (fill != ' ' && ef.x_advance > 0 && gap >= ef.x_advance) {
                size_t n = (size_t)(gap / ef.x_advance);
                if (n >= sizeof run) n = sizeof run - 1;
                memset(run, fill, n);
                run[n] = '\0';
                show_ascii(cr, run, x + PAD + eb.x_advance, base);
            }
        } else {
            show_ascii(cr, show, tx, base);
        }
        cairo_restore(cr);
        return;
    }
    if (wrap && cs->valign != QR_VA_CENTER &&
        !(cs->valign == QR_VA_BOTTOM && cs->set & QR_SX_VALIGN)) {
        /* anchored at the top and clipped to h: only the lines that can show
         * are laid out. Each line of the text is one line or more, none
         * lower than FONT / 2, so the first h / (FONT / 2) + 2 lines hold
         * all that shows (200 cells of 16,000 lines took 27 s of CPU). */
        size_t keep = (size_t)(h / (FONT / 2)) + 2, lines = 0, cut = 0;
        while (cut < len && lines < keep) {
            const char *nl = memchr(s + cut, '\n', len - cut);
            cut = nl ? (size_t)(nl - s) + 1 : len;
            lines++;
        }
        len = cut;
    }
    pd_text *t = qr_pdf_text(c, NULL, s, len, &st, wrap ? inner : 0, sh->path);
    if (!t) return;
    if (number && t->n_lines && t->width > inner + 0.01) {
        /* a number that does not fit: ### across the cell, as Excel shows */
        char hashes[128];
        size_t n = (size_t)(inner / (FONT * 0.84)); /* the advance of # in DejaVu Sans */
        if (n < 1) n = 1;
        if (n >= sizeof hashes) n = sizeof hashes - 1;
        memset(hashes, '#', n);
        t = qr_pdf_text(c, NULL, hashes, n, &st, 0, sh->path);
        if (!t) return;
    }
    double tx = x + PAD; /* unwrapped lines are placed here, wrapped ones by pango */
    if (!wrap && align == AL_R) tx = x + w - PAD - t->width;
    if (!wrap && align == AL_C) tx = x + (w - t->width) / 2;
    cairo_save(cr);
    double clip_w = align == AL_L && !wrap ? w + spill : w;
    cairo_rectangle(cr, x, y, clip_w, h);
    cairo_clip(cr);
    set_rgb(cr, ink);
    double th = 0;
    for (size_t l = 0; l < t->n_lines; l++)
        th += t->lines[l].height;
    double top = wrap ? y + 2 : y + (h - (t->n_lines ? t->lines[0].height : FONT)) / 2;
    if (cs->valign == QR_VA_TOP) top = y + 2;
    if (cs->valign == QR_VA_CENTER && wrap) top = y + (h - th) / 2;
    if (cs->valign == QR_VA_BOTTOM && cs->set & QR_SX_VALIGN && wrap) top = y + h - 2 - th;
    for (size_t l = 0; l < t->n_lines; l++)
        qr_pv_line(cr, t, l, tx, top + t->lines[l].top + t->lines[l].ascent);
    if (cs->underline && t->n_lines && !wrap) { /* one line under the text */
        double base = top + t->lines[0].top + t->lines[0].ascent + 1.2;
        set_rgb(cr, ink);
        cairo_set_line_width(cr, 0.6);
        cairo_move_to(cr, tx, base);
        cairo_line_to(cr, tx + t->width, base);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

/* A cell's borders: each side its kind (double: two thin lines). */
static void paint_borders(cairo_t *cr, const qr_style *st, const qr_cellstyle *cs, double x0,
                          double y0, double x1, double y1)
{
    if (!(cs->border[0] | cs->border[1] | cs->border[2] | cs->border[3])) return;
    set_rgb(cr, qr_cellstyle_rgb(st, cs->border_color, 0x000000));
    for (int s = 0; s < 4; s++) {
        int kind = cs->border[s];
        double lw = qr_cellstyle_border_pt(kind);
        if (lw <= 0) continue;
        double ax = s == 1 ? x1 : x0, ay = s == 3 ? y1 : y0;
        double bx = s == 0 ? x0 : x1, by = s == 2 ? y0 : y1;
        double dash[] = {kind == QR_BORDER_DOTTED ? 0.8 : 3, kind == QR_BORDER_DOTTED ? 1.2 : 1.5};
        cairo_set_dash(cr, dash, kind == QR_BORDER_DASHED || kind == QR_BORDER_DOTTED ? 2 : 0, 0);
        if (kind == QR_BORDER_DOUBLE) {
            double off = 0.9; /* two 0.5 pt lines 1.8 pt apart, across the edge */
            int vert = s < 2;
            cairo_set_line_width(cr, 0.5);
            cairo_move_to(cr, ax - (vert ? off : 0), ay - (vert ? 0 : off));
            cairo_line_to(cr, bx - (vert ? off : 0), by - (vert ? 0 : off));
            cairo_move_to(cr, ax + (vert ? off : 0), ay + (vert ? 0 : off));
            cairo_line_to(cr, bx + (vert ? off : 0), by + (vert ? 0 : off));
        } else {
            cairo_set_line_width(cr, lw);
            cairo_move_to(cr, ax, ay);
            cairo_line_to(cr, bx, by);
        }
        cairo_stroke(cr);
    }
    cairo_set_dash(cr, NULL, 0, 0);
}

/* The charts over page (rb, cb), each where its anchor cell is, drawn
 * whole and clipped to the page's band of cells (a chart wider or taller
 * than a page goes on over the next pages, as Excel prints it). */
static void paint_charts(pd_ctx *c, cairo_t *cr, const splan *p, size_t rb, size_t cb)
{
    const qr_sheet *sh = p->sh;
    double x0 = p->colx[p->cband[cb]], x1 = p->colx[p->cband[cb + 1]];
    double y0 = p->band_y[rb], y1 = p->band_y[rb + 1];
    /* where the band's first cell sits on the page: after the repeated ones */
    double bx = p->cband[cb] >= p->rc1 ? p->colx[p->rc1] - p->colx[p->rc0] : 0, by = 0;
    for (size_t r = p->rr0; p->rband[rb] >= p->rr1 && r < p->rr1; r++)
        by += row_height(sh, r);
    /* the white ground of a sheet in every theme: the chart ink of a light one */
    qr_style ink = qr_style_sheet(&c->style);
    for (size_t i = 0; i < sh->n_charts && c->status == QR_OK; i++) {
        const qr_chart *ch = &sh->charts[i];
        double w = chart_w(ch), h = chart_h(ch);
        double cx = p->colx[ch->anchor_col], cy = p->chart_y[i];
        if (cx >= x1 || cx + w <= x0 || cy >= y1 || cy + h <= y0) continue;
        double x = bx + cx - x0, y = by + cy - y0;
        cairo_save(cr);
        cairo_rectangle(cr, bx, by, x1 - x0, y1 - y0);
        cairo_clip(cr);
        cairo_rectangle(cr, x, y, w, h);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
        cairo_set_line_width(cr, 0.75);
        cairo_stroke(cr);
        qr_pdf_draw_chart(c, cr, ch, x, y, w, h, &ink);
        cairo_restore(cr);
    }
}

static void paint_notes(cairo_t *cr, const splan *p, const size_t *rows, size_t nr,
                        const size_t *cols, size_t nc, const double *xs, const double *ys);

/* A print header's or footer's sections (left, center, right; NULL none)
 * with their fields filled in ({page}, {pages}: over the whole workbook, as
 * the default footer counts; {sheet}), the first line's baseline at y
 * (0.3 in from the paper's edge, as Excel prints them; a footer's last). */
static void paint_hf(pd_ctx *c, cairo_t *cr, const splan *p, const char *const sec[3], double y,
                     size_t page, size_t pages)
{
    static const int align[3] = {PD_ALIGN_START, PD_ALIGN_CENTER, PD_ALIGN_END};
    double w = p->pw - p->mg[1] - p->mg[3];
    for (int k = 0; k < 3; k++) {
        if (!sec[k]) continue;
        qr_buf b = {0};
        for (const char *s = sec[k]; *s;) {
            if ((s[0] == '{' || s[0] == '}') && s[1] == s[0]) {
                qr_buf_putc(&b, *s);
                s += 2;
            } else if (strncmp(s, "{page}", 6) == 0) {
                qr_buf_printf(&b, "%zu", page + 1);
                s += 6;
            } else if (strncmp(s, "{pages}", 7) == 0) {
                qr_buf_printf(&b, "%zu", pages);
                s += 7;
            } else if (strncmp(s, "{sheet}", 7) == 0) {
                qr_buf_puts(&b, p->sh->name ? p->sh->name : "");
                s += 7;
            } else {
                qr_buf_putc(&b, *s++);
            }
        }
        pd_style fs = {.size = 9, .align = align[k]};
        pd_text *t =
            b.data && b.len ? qr_pdf_text(c, NULL, b.data, b.len, &fs, w, p->sh->path) : NULL;
        cairo_set_source_rgb(cr, 0, 0, 0);
        /* a header's lines go down from y, a footer's up to it */
        double y0 = y > p->ph / 2 && t ? y - 11.0 * (double)(t->n_lines - 1) : y;
        for (size_t i = 0; t && i < t->n_lines; i++)
            qr_pv_line(cr, t, i, p->mg[3], y0 + 11.0 * (double)i + (y > p->ph / 2 ? 0 : 8));
        qr_buf_free(&b);
    }
}

static void paint_page(pd_ctx *c, cairo_t *cr, const splan *p, size_t rb, size_t cb, size_t page,
                       size_t pages)
{
    const qr_sheet *sh = p->sh;
    size_t rows[256], cols[256];
    size_t nr = p->n_rb ? band_items(rb, p->rband, p->rr0, p->rr1, rows, 256) : 0;
    size_t nc = band_items(cb, p->cband, p->rc0, p->rc1, cols, 256);
    double xs[257], ys[257];
    /* the cells in sheet points from the page's top-left margin corner, at
     * the print setup's scale */
    cairo_save(cr);
    cairo_translate(cr, p->mg[3], p->mg[0]);
    cairo_scale(cr, p->scale, p->scale);
    xs[0] = 0;
    for (size_t k = 0; k < nc; k++)
        xs[k + 1] = xs[k] + p->colw[cols[k]];
    ys[0] = 0;
    for (size_t k = 0; k < nr; k++)
        ys[k + 1] = ys[k] + row_height(sh, rows[k]);
    /* the grid, over the sheet's own cells (not the room its charts take) */
    size_t gr = 0, gc = 0;
    while (gr < nr && rows[gr] < sh->n_rows)
        gr++;
    while (gc < nc && cols[gc] < (sh->n_cols ? sh->n_cols : 1))
        gc++;
    /* merged areas on this page: mg[i * nc + k] = the merge's index + 1 */
    uint32_t *mg = sh->n_merges ? calloc(nr * nc > 0 ? nr * nc : 1, sizeof *mg) : NULL;
    for (size_t m = 0; mg && m < sh->n_merges; m++) {
        const qr_range *rg = &sh->merges[m];
        for (size_t i = 0; i < nr; i++) {
            if (rows[i] < rg->r0 || rows[i] > rg->r1) continue;
            for (size_t k = 0; k < nc; k++)
                if (cols[k] >= rg->c0 && cols[k] <= rg->c1) mg[i * nc + k] = (uint32_t)m + 1;
        }
    }
    /* the cells' looks: fills under the grid, borders over it; a merged
     * area shows its top-left cell's look, its borders on the outer edges */
    const qr_doc *doc = c->doc;
    int looks = doc->n_looks > 1 || mg || sh->n_conds;
    qr_cellstyle *css = looks ? calloc(nr * nc > 0 ? nr * nc : 1, sizeof *css) : NULL;
    if (looks && !css) looks = 0;
    for (size_t i = 0; looks && i < nr; i++) {
        const qr_row *row = rows[i] < sh->n_rows ? &sh->rows[rows[i]] : NULL;
        for (size_t k = 0; k < nc; k++) {
            const qr_cell *cell = row && cols[k] < row->n ? &row->cells[cols[k]] : NULL;
            if (rows[i] >= sh->n_rows) continue;
            qr_cellstyle *cs = &css[i * nc + k];
            size_t r = rows[i], col = cols[k];
            const qr_range *rg = mg && mg[i * nc + k] ? &sh->merges[mg[i * nc + k] - 1] : NULL;
            if (rg) {
                const qr_row *tr = rg->r0 < sh->n_rows ? &sh->rows[rg->r0] : NULL;
                const qr_cell *tc = tr && rg->c0 < tr->n ? &tr->cells[rg->c0] : NULL;
                *cs = qr_sheet_cell_style(doc, sh, rg->r0, tr, rg->c0, tc);
                if (col != rg->c0) cs->border[0] = 0;
                if (col != rg->c1) cs->border[1] = 0;
                if (r != rg->r0) cs->border[2] = 0;
                if (r != rg->r1) cs->border[3] = 0;
            } else {
                *cs = qr_sheet_cell_style(doc, sh, r, row, col, cell);
            }
            /* conditional formats: the computed result over the look */
            qr_cf_hit hit = {-1, 0};
            if (sh->n_conds)
                hit = rg ? qr_cf_apply(doc, p->index, p->cf, p->fs, rg->r0, rg->c0,
                                       rg->r0 < sh->n_rows && rg->c0 < sh->rows[rg->r0].n
                                           ? &sh->rows[rg->r0].cells[rg->c0]
                                           : NULL,
                                       cs)
                         : qr_cf_apply(doc, p->index, p->cf, p->fs, r, col, cell, cs);
            if (cs->fill) {
                set_rgb(cr, qr_cellstyle_rgb(&c->style, cs->fill, 0xFFFFFF));
                cairo_rectangle(cr, xs[k], ys[i], xs[k + 1] - xs[k], ys[i + 1] - ys[i]);
                cairo_fill(cr);
            }
            if (hit.bar > 0 && xs[k + 1] - xs[k] > 4) {
                /* a data bar: its colour fading to white, as Excel draws it */
                double bw = (xs[k + 1] - xs[k] - 4) * hit.bar;
                uint32_t b = hit.bar_rgb;
                cairo_pattern_t *g = cairo_pattern_create_linear(xs[k] + 2, 0, xs[k] + 2 + bw, 0);
                cairo_pattern_add_color_stop_rgb(g, 0, (b >> 16 & 255) / 255.0,
                                                 (b >> 8 & 255) / 255.0, (b & 255) / 255.0);
                cairo_pattern_add_color_stop_rgb(g, 1, 0.5 + (b >> 16 & 255) / 510.0,
                                                 0.5 + (b >> 8 & 255) / 510.0,
                                                 0.5 + (b & 255) / 510.0);
                cairo_set_source(cr, g);
                cairo_rectangle(cr, xs[k] + 2, ys[i] + 2, bw, ys[i + 1] - ys[i] - 4);
                cairo_fill(cr);
                cairo_pattern_destroy(g);
            }
        }
    }
    if (gr && gc && !(sh->print && sh->print->gridlines == 1)) {
        cairo_set_line_width(cr, 0.5);
        uint32_t g = c->style.sheet_grid;
        cairo_set_source_rgb(cr, ((g >> 16) & 255) / 255.0, ((g >> 8) & 255) / 255.0,
                             (g & 255) / 255.0);
        for (size_t k = 0; k <= gc; k++) {
            cairo_move_to(cr, xs[k], ys[0]);
            cairo_line_to(cr, xs[k], ys[gr]);
        }
        for (size_t k = 0; k <= gr; k++) {
            cairo_move_to(cr, xs[0], ys[k]);
            cairo_line_to(cr, xs[gc], ys[k]);
        }
        cairo_stroke(cr);
    }
    /* a merged area: its inner grid lines covered, its top-left cell's
     * text over the whole of it (the part on this page) */
    for (size_t i = 0; mg && i < nr && c->status == QR_OK; i++)
        for (size_t k = 0; k < nc; k++) {
            uint32_t m = mg[i * nc + k];
            if (!m || (i > 0 && mg[(i - 1) * nc + k] == m) || (k > 0 && mg[i * nc + k - 1] == m))
                continue; /* not the first visible cell of its merge */
            size_t i1 = i, k1 = k;
            while (i1 + 1 < nr && mg[(i1 + 1) * nc + k] == m)
                i1++;
            while (k1 + 1 < nc && mg[i * nc + k1 + 1] == m)
                k1++;
            const qr_cellstyle *cs = &css[i * nc + k];
            set_rgb(cr, cs->fill ? qr_cellstyle_rgb(&c->style, cs->fill, 0xFFFFFF)
                                 : c->style.background);
            cairo_rectangle(cr, xs[k] + 0.25, ys[i] + 0.25, xs[k1 + 1] - xs[k] - 0.5,
                            ys[i1 + 1] - ys[i] - 0.5);
            cairo_fill(cr);
            const qr_range *rg = &sh->merges[m - 1];
            if (rows[i] == rg->r0 && cols[k] == rg->c0)
                paint_cell(c, cr, p, rows[i], cols[k], xs[k], ys[i], xs[k1 + 1] - xs[k],
                           ys[i1 + 1] - ys[i], 0, cs);
        }
    for (size_t i = 0; i < nr && c->status == QR_OK; i++) {
        for (size_t k = 0; k < nc; k++) {
            if (mg && mg[i * nc + k]) continue; /* drawn with its merge */
            if (xs[k + 1] - xs[k] <= 0 || ys[i + 1] - ys[i] <= 0) continue; /* hidden */
            /* room to spill into: the empty cells to the right on this page */
            double spill = 0;
            size_t j = k + 1;
            for (; j < nc && cell_empty(sh, rows[i], cols[j]); j++)
                spill += p->colw[cols[j]];
            if (j == nc) /* past the last column, to the right margin */
                spill += (p->pw - p->mg[1] - p->mg[3]) / p->scale - xs[nc];
            qr_cellstyle none = {0};
            none.bold = sh->header && rows[i] == 0; /* a tree without looks */
            paint_cell(c, cr, p, rows[i], cols[k], xs[k], ys[i], xs[k + 1] - xs[k],
                       ys[i + 1] - ys[i], spill, css ? &css[i * nc + k] : &none);
        }
    }
    for (size_t i = 0; css && i < nr; i++)
        for (size_t k = 0; k < nc; k++)
            paint_borders(cr, &c->style, &css[i * nc + k], xs[k], ys[i], xs[k + 1], ys[i + 1]);
    paint_notes(cr, p, rows, nr, cols, nc, xs, ys);
    free(css);
    free(mg);
    paint_charts(c, cr, p, rb, cb);
    cairo_restore(cr);
    if (sh->print) { /* the print setup's header and footer, if it has them */
        paint_hf(c, cr, p, sh->print->header, 21.6, page, pages);
        paint_hf(c, cr, p, sh->print->footer, p->ph - 21.6, page, pages);
        return;
    }
    /* the footer: sheet name and page number */
    char foot[512];
    snprintf(foot, sizeof foot, "%s \xE2\x80\x94 page %zu of %zu", sh->name ? sh->name : "",
             page + 1, pages);
    pd_style fs = {.size = 8, .align = PD_ALIGN_CENTER};
    pd_text *t = qr_pdf_text(c, NULL, foot, strlen(foot), &fs, p->pw - 2 * MARGIN_X, sh->path);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    if (t && t->n_lines) qr_pv_line(cr, t, 0, MARGIN_X, p->ph - 21.6);
}

static void drop_layouts(pd_ctx *c)
{
    for (size_t k = 0; k < c->n_layouts; k++)
        if (c->layouts[k]) g_object_unref(c->layouts[k]);
    c->n_layouts = 0;
}

typedef struct plans {
    const splan *p;
    size_t n, total;
    double cw, ch; /* a contact sheet's page (pages of another size fit in it), or 0 */
} plans_t;

/* The page (0-based, over all sheets) showing cell (row, col) of sheet p,
 * or SIZE_MAX. */
static size_t page_of(const splan *p, size_t row, size_t col)
{
    size_t rb = 0, cb = 0;
    while (rb < p->n_rb && !(row >= p->rband[rb] && row < p->rband[rb + 1]))
        rb++;
    while (cb < p->n_cb && !(col >= p->cband[cb] && col < p->cband[cb + 1]))
        cb++;
    if (rb == p->n_rb) rb = 0;
    if (cb == p->n_cb) cb = 0;
    if (!p->n_rb || !p->n_cb) return SIZE_MAX;
    return p->first_page + rb * p->n_cb + cb;
}

/* cairo's attribute strings quote with ' and escape with \; a URI keeps
 * 7-bit ASCII without ( ) \ (cairo 1.16 writes it unescaped). */
static void put_link_uri(qr_buf *b, const char *u)
{
    static const char hex[] = "0123456789ABCDEF";
    qr_buf_putc(b, '\'');
    for (const unsigned char *q = (const unsigned char *)u; *q; q++) {
        unsigned char ch = *q;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            (ch && strchr("-._~:/?#[]@!$&*+,;=%", ch))) {
            qr_buf_putc(b, (char)ch);
        } else {
            char e[3] = {'%', hex[ch >> 4], hex[ch & 15]};
            qr_buf_append(b, e, 3);
        }
    }
    qr_buf_putc(b, '\'');
}

/* A cell's link (a PDF link annotation over the cell: the web address, or
 * the page showing the place in the workbook) and comment (Excel's note
 * marker: a small red triangle in the cell's top right corner). */
static void paint_note(cairo_t *cr, const splan *p, const qr_cell_note *nt, double x0, double y0,
                       double x1, double y1)
{
    if (nt->comment && x1 - x0 > 6 && y1 - y0 > 6) {
        cairo_set_source_rgb(cr, 0.8, 0.0, 0.0);
        cairo_move_to(cr, x1 - 5, y0);
        cairo_line_to(cr, x1, y0);
        cairo_line_to(cr, x1, y0 + 5);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
    if (!nt->link) return;
    qr_buf b = {0};
    /* cairo takes the rectangle in page points, whatever the transformation */
    cairo_user_to_device(cr, &x0, &y0);
    cairo_user_to_device(cr, &x1, &y1);
    qr_buf_printf(&b, "rect=[%.2f %.2f %.2f %.2f] ", x0, y0, x1 - x0, y1 - y0);
    if (nt->link[0] != '#') {
        qr_buf_puts(&b, "uri=");
        put_link_uri(&b, nt->link);
    } else {
        /* "#Sheet!A1" or "#A1": the page of that cell, when every page is out */
        const char *place = nt->link + 1, *bang = strrchr(place, '!');
        const splan *to = p;
        char sheet[128];
        size_t k = 0;
        if (bang) {
            const char *q = place;
            int quoted = *q == '\'';
            for (q += quoted; q < bang && k + 1 < sizeof sheet; q++) {
                if (quoted && *q == '\'' && q[1] == '\'')
                    q++;
                else if (quoted && *q == '\'')
                    break;
                sheet[k++] = *q;
            }
            sheet[k] = '\0';
            to = NULL;
            for (size_t i = 0; i < p->n_all; i++)
                if (p->all[i].sh->name && strcasecmp(p->all[i].sh->name, sheet) == 0)
                    to = &p->all[i];
            place = bang + 1;
        }
        size_t col = 0, row = 0, i = 0;
        while (place[i] == '$')
            i++;
        for (; isalpha((unsigned char)place[i]); i++)
            col = col * 26 + (size_t)(toupper((unsigned char)place[i]) - 'A' + 1);
        while (place[i] == '$')
            i++;
        for (; isdigit((unsigned char)place[i]); i++)
            row = row * 10 + (size_t)(place[i] - '0');
        size_t pg = to && col && row ? page_of(to, row - 1, col - 1) : SIZE_MAX;
        if (!p->whole || pg == SIZE_MAX) {
            qr_buf_free(&b);
            return;
        }
        qr_buf_printf(&b, "dest='p%zu'", pg + 1); /* named: cairo 1.16 drops forward pages */
    }
    if (!b.oom) {
        cairo_tag_begin(cr, CAIRO_TAG_LINK, b.data);
        cairo_tag_end(cr, CAIRO_TAG_LINK);
    }
    qr_buf_free(&b);
}

/* The notes of the cells on a page. */
static void paint_notes(cairo_t *cr, const splan *p, const size_t *rows, size_t nr,
                        const size_t *cols, size_t nc, const double *xs, const double *ys)
{
    const qr_sheet *sh = p->sh;
    for (size_t i = 0; i < nr && sh->n_notes; i++) {
        /* the first note on row rows[i]: notes are in row order */
        size_t lo = 0, hi = sh->n_notes;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sh->notes[mid].row < rows[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        for (size_t n = lo; n < sh->n_notes && sh->notes[n].row == rows[i]; n++)
            for (size_t k = 0; k < nc; k++)
                if (cols[k] == sh->notes[n].col && xs[k + 1] > xs[k] && ys[i + 1] > ys[i])
                    paint_note(cr, p, &sh->notes[n], xs[k], ys[i], xs[k + 1], ys[i + 1]);
    }
}

/* Paint page i (0-based, over all sheets). */
static void paint_nth(pd_ctx *c, cairo_t *cr, size_t i, void *ud)
{
    const plans_t *ps = ud;
    for (size_t s = 0; s < ps->n; s++) {
        const splan *p = &ps->p[s];
        if (i < p->first_page || i >= p->first_page + p->n_rb * p->n_cb) continue;
        size_t k = i - p->first_page;
        if (ps->cw > 0 && (p->pw != ps->cw || p->ph != ps->ch)) {
            /* a page of another size on a contact sheet: as large as fits, centred */
            double f = ps->cw / p->pw < ps->ch / p->ph ? ps->cw / p->pw : ps->ch / p->ph;
            cairo_save(cr);
            cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
            cairo_paint(cr);
            cairo_translate(cr, (ps->cw - p->pw * f) / 2, (ps->ch - p->ph * f) / 2);
            cairo_scale(cr, f, f);
            cairo_rectangle(cr, 0, 0, p->pw, p->ph);
            cairo_set_source_rgb(cr, 1, 1, 1);
            cairo_fill(cr);
            paint_page(c, cr, p, k / p->n_cb, k % p->n_cb, i, ps->total);
            cairo_restore(cr);
            continue;
        }
        paint_page(c, cr, p, k / p->n_cb, k % p->n_cb, i, ps->total);
    }
}

qr_status qr_pdf_sheet_render(qr_render_ctx *rc, qr_sink *out, int png)
{
    const qr_doc *d = rc->doc;
    size_t ns = d->n_sheets;
    splan *plans = calloc(ns ? ns : 1, sizeof *plans);
    if (!plans) {
        qr_errlist_add(rc->errors, QR_E_NOMEM, "", "out of memory", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    size_t pages = 0;
    for (size_t i = 0; i < ns; i++) {
        if (plan_sheet(&plans[i], d, i, rc->epoch, rc->sheet_fits)) {
            free_plans(plans, ns);
            qr_errlist_add(rc->errors, QR_E_NOMEM, d->sheets[i].path, "out of memory", NULL);
            return qr_fail(QR_E_NOMEM);
        }
        plans[i].first_page = pages;
        pages += plans[i].n_rb * plans[i].n_cb;
    }
    size_t total = pages ? pages : 1;
    rc->pages = (int)total;
    pd_ctx c;
    afont af = {0};
    qr_status st = qr_pdf_ctx_open(&c, rc, png);
    if (st != QR_OK) {
        qr_pdf_ctx_close(&c);
        free_plans(plans, ns);
        return st;
    }
    int have_af = afont_open(&af, &c) == 0;
    for (size_t i = 0; i < ns; i++) {
        plans[i].af = have_af ? &af : NULL;
        plans[i].all = plans;
        plans[i].n_all = ns;
        plans[i].whole = !png && rc->page_first <= 0;
    }
    plans_t ps = {plans, ns, total, 0, 0};
    if (png && rc->png_contact) {
        /* the first sheet's page size (Letter portrait without a print setup) */
        ps.cw = ns ? plans[0].pw : PAGE_W;
        ps.ch = ns ? plans[0].ph : PAGE_H;
        st = qr_pv_contact(&c, out, ps.cw, ps.ch,
                           total < QR_PV_CONTACT_PAGES ? total : QR_PV_CONTACT_PAGES, paint_nth,
                           &ps);
        afont_close(&af);
        qr_pdf_ctx_close(&c);
        free_plans(plans, ns);
        return st;
    }
    if (png) {
        size_t page = rc->png_page > 0 ? (size_t)rc->png_page : 1;
        /* the page's own size */
        double pw = PAGE_W, ph = PAGE_H;
        for (size_t i = 0; i < ns; i++)
            if (page - 1 >= plans[i].first_page &&
                page - 1 < plans[i].first_page + plans[i].n_rb * plans[i].n_cb)
                pw = plans[i].pw, ph = plans[i].ph;
        st = qr_pv_png_check(rc, page, total, pw, ph);
        if (st == QR_OK) {
            cairo_t *cr;
            cairo_surface_t *s = qr_pv_png_surface(rc, pw, ph, &cr);
            paint_nth(&c, cr, page - 1, &ps);
            st = qr_pv_png_finish(&c, s, cr, out);
        }
        afont_close(&af);
        qr_pdf_ctx_close(&c);
        free_plans(plans, ns);
        return st;
    }
    /* the pages this PDF shows, their cells paid for before any is drawn */
    uint64_t cost = 0;
    const char *where = ns ? d->sheets[0].path : "/sheets";
    for (size_t i = 0; i < ns; i++) {
        const splan *p = &plans[i];
        for (size_t rb = 0; rb < p->n_rb; rb++)
            for (size_t cb = 0; cb < p->n_cb; cb++) {
                if (!qr_pv_in_range(rc, p->first_page + rb * p->n_cb + cb)) continue;
                if (cost <= c.rc->doc->work.limit) where = d->sheets[i].path;
                cost += QR_WORK_PAGE + band_cells(p, rb, cb) * (uint64_t)QR_WORK_CELL_DRAWN;
            }
    }
    if (qr_pdf_work(&c, cost, where, "the pages")) {
        afont_close(&af);
        qr_pdf_ctx_close(&c);
        free_plans(plans, ns);
        return QR_E_LIMIT;
    }
    pv_out *o = malloc(sizeof *o);
    if (!o) {
        afont_close(&af);
        qr_pdf_ctx_close(&c);
        free_plans(plans, ns);
        qr_errlist_add(rc->errors, QR_E_NOMEM, "", "out of memory", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    o->sink = out;
    /* the surface starts at the first page's size (cairo 1.16 breaks a
     * tagged PDF whose first page changes it) */
    const splan *p0 = ns ? &plans[0] : NULL;
    for (size_t i = 0; i < ns; i++) {
        size_t n = plans[i].n_rb * plans[i].n_cb, k = 0;
        while (k < n && !qr_pv_in_range(rc, plans[i].first_page + k))
            k++;
        if (k < n) {
            p0 = &plans[i];
            break;
        }
    }
    double cur_w = p0 ? p0->pw : PAGE_W, cur_h = p0 ? p0->ph : PAGE_H;
    cairo_surface_t *s = qr_pv_pdf_surface(o, rc, cur_w, cur_h);
    cairo_t *cr = cairo_create(s);
    /* cells with links: the pages inside one "Document" structure element,
     * which keeps cairo 1.16's link annotations whole (see pdf.c) */
    int tagged = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t k = 0; k < d->sheets[i].n_notes && !tagged; k++)
            tagged = d->sheets[i].notes[k].link != NULL;
    if (tagged) cairo_tag_begin(cr, "Document", "");
    size_t shown = 0;
    for (size_t i = 0; i < ns && c.status == QR_OK; i++) {
        const splan *p = &plans[i];
        for (size_t rb = 0; rb < p->n_rb && c.status == QR_OK; rb++)
            for (size_t cb = 0; cb < p->n_cb && c.status == QR_OK; cb++) {
                size_t pg = p->first_page + rb * p->n_cb + cb;
                if (!qr_pv_in_range(rc, pg)) continue;
                shown++;
                if (p->pw != cur_w || p->ph != cur_h) { /* each sheet its paper */
                    cairo_pdf_surface_set_size(s, p->pw, p->ph);
                    cur_w = p->pw;
                    cur_h = p->ph;
                }
                if (tagged) { /* each page a named destination for the links to it */
                    char dest[64];
                    snprintf(dest, sizeof dest, "name='p%zu' x=0 y=0", pg + 1);
                    cairo_tag_begin(cr, CAIRO_TAG_DEST, dest);
                    cairo_tag_end(cr, CAIRO_TAG_DEST);
                }
                paint_page(&c, cr, p, rb, cb, pg, total);
                cairo_show_page(cr);
                drop_layouts(&c);
                if (cairo_status(cr) != CAIRO_STATUS_SUCCESS || out->status != QR_OK) break;
            }
    }
    if (!shown) cairo_show_page(cr); /* no sheets (or an empty range): one blank page */
    if (tagged) cairo_tag_end(cr, "Document");
    cairo_destroy(cr);
    st = qr_pv_pdf_finish(&c, s, o);
    free(o);
    afont_close(&af);
    qr_pdf_ctx_close(&c);
    free_plans(plans, ns);
    return st;
}
