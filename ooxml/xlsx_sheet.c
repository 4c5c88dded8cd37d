/* xlsx_sheet.c: one worksheet part, streamed row by row.
 *
 * The packager pulls the part through qr_xlsx_sheet_fill() while it
 * deflates it into the zip, so a sheet never exists whole as XML: each call
 * hands over the next block of rows (about 256 KiB of markup). Rows are
 * written straight into the buffer with hand-made cell references ("B12"),
 * a fast shortest-round-trip number formatter and qr_xml_escape for formula
 * text; no xmlTextWriter in the hot loop. Texts go to the shared-string
 * table (xlsx_sst.c), cell looks to the cellXfs table (xlsx_styles.c).
 *
 * Big sheets are produced by a second thread while the packager's thread
 * deflates: the producer writes blocks into a ring of QUEUE_LEN buffers and
 * fill() takes them in order, so the XML is the same bytes as the
 * single-threaded path and memory stays at QUEUE_LEN blocks. The producer is
 * the only one touching the sst and styles tables while it runs; fill()
 * joins it before reporting the part done, so the parts written after the
 * sheets (styles, shared strings) see its work.
 *
 * Numbers: the compiler rejects integers beyond 2^53 and JSON has no NaN or
 * Infinity, so every number cell holds a finite double; it is written
 * shortest round-trip and locale-free (qr_fmt_double, or the equivalent
 * fast path below).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h" /* qr_fmt_double */
#include "formula.h"
#include "sheet_fit.h"
#include "thread.h"
#include "xlsx_int.h"
#include "xml.h" /* QR_NS_REL */

#define BLOCK_BYTES (256u * 1024u)
#define QUEUE_LEN 4
/* Sheets with fewer cells are written by the packager's thread. */
#define THREAD_MIN_CELLS 50000u

/* ---- small writers -------------------------------------------------------------- */

int qr_xlsx_col_name(uint32_t col, char *buf)
{
    char tmp[4];
    int n = 0;
    uint32_t c = col + 1;
    while (c && n < 3) {
        tmp[n++] = (char)('A' + (c - 1) % 26);
        c = (c - 1) / 26;
    }
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return n;
}

/* Decimal digits of u at p; returns the end. */
static char *put_u64(char *p, uint64_t u)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        *p++ = tmp[--n];
    return p;
}

static char *put_col(char *p, uint32_t col)
{
    if (col < 26) {
        *p++ = (char)('A' + col);
        return p;
    }
    return p + qr_xlsx_col_name(col, p);
}

int qr_xlsx_cell_ref(uint32_t col, size_t row, char *buf)
{
    char *p = put_col(buf, col);
    p = put_u64(p, (uint64_t)row + 1);
    *p = '\0';
    return (int)(p - buf);
}

int qr_xlsx_fmt_num(double v, char *buf)
{
    /* Integers below 1e15 print as their digits, as qr_fmt_double does;
     * everything else (its own fast path covers short decimals) goes there. */
    if (fabs(v) < 1e15 && v == (double)(int64_t)v && !(v == 0 && signbit(v))) {
        char *p = buf;
        int64_t i = (int64_t)v;
        if (i < 0) *p++ = '-';
        p = put_u64(p, (uint64_t)(i < 0 ? -i : i));
        *p = '\0';
        return (int)(p - buf);
    }
    return qr_fmt_double(v, buf);
}

int qr_xlsx_needs_quote(const char *s, size_t len)
{
    if (!len) return 0;
    switch (s[0]) {
    case '=':
    case '+':
    case '-':
    case '@':
    case '\t':
    case '\r':
    case '\n':
        return 1;
    default:
        return 0;
    }
}

void qr_xlsx_used_range(const qr_sheet *sh, char *buf, size_t size)
{
    if (!sh->n_rows || !sh->n_cols || size < 32) {
        if (size) buf[0] = '\0';
        return;
    }
    size_t rows = sh->n_rows < QR_XLSX_MAX_ROWS ? sh->n_rows : QR_XLSX_MAX_ROWS;
    uint32_t cols = sh->n_cols < QR_XLSX_MAX_COLS ? (uint32_t)sh->n_cols : QR_XLSX_MAX_COLS;
    char *p = buf;
    memcpy(p, "A1:", 3);
    p += 3;
    p += qr_xlsx_cell_ref(cols - 1, rows - 1, p);
}

void qr_xlsx_filter_range(const qr_sheet *sh, char *buf, size_t size)
{
    if (size) buf[0] = '\0';
    if (sh->autofilter == QR_FILTER_NONE || size < 32) return;
    if (sh->autofilter == QR_FILTER_AUTO) {
        if (!sh->header) return;
        qr_xlsx_used_range(sh, buf, size);
        if (!strchr(buf, ':')) buf[0] = '\0';
        return;
    }
    const qr_range *f = &sh->filter;
    char *p = buf;
    p += qr_xlsx_cell_ref(f->c0 < QR_XLSX_MAX_COLS ? f->c0 : 0, f->r0, p);
    *p++ = ':';
    qr_xlsx_cell_ref(f->c1 < QR_XLSX_MAX_COLS ? f->c1 : QR_XLSX_MAX_COLS - 1,
                     f->r1 < QR_XLSX_MAX_ROWS ? f->r1 : QR_XLSX_MAX_ROWS - 1, p);
}

/* ---- the worksheet around the rows ---------------------------------------------- */

/* <x:sheetPr>: the tab's colour; summary rows and columns of outline
 * groups after their details, as Excel's default. */
static void write_sheet_pr(qr_buf *b, const qr_sheet *sh)
{
    const qr_sheet_print *p = sh->print;
    int fit = p && (p->fit_width || p->fit_height);
    if (!sh->tab_color && !fit) return;
    qr_buf_puts(b, "<sheetPr>");
    if (sh->tab_color) qr_buf_printf(b, "<tabColor rgb=\"FF%06X\"/>", sh->tab_color & 0xFFFFFF);
    if (fit) qr_buf_puts(b, "<pageSetUpPr fitToPage=\"1\"/>");
    qr_buf_puts(b, "</sheetPr>");
}

/* <x:dimension> */
static void write_dimension(qr_buf *b, const qr_sheet *sh)
{
    char range[32];
    qr_xlsx_used_range(sh, range, sizeof range);
    qr_buf_printf(b, "<dimension ref=\"%s\"/>", range[0] ? range : "A1");
}

/* <x:selection> */
static void write_selection(qr_buf *b, const char *pane, const char *cell)
{
    qr_buf_printf(b, "<selection pane=\"%s\" activeCell=\"%s\" sqref=\"%s\"/>", pane, cell, cell);
}

/* <x:pane> and its selections: rows above and columns left of the top-left
 * cell of the bottom-right pane stay in place. */
static void write_pane(qr_buf *b, uint32_t rows, uint32_t cols)
{
    char tl[16], top_right[16], bottom_left[16];
    qr_xlsx_cell_ref(cols, rows, tl);
    qr_xlsx_cell_ref(cols, 0, top_right);
    qr_xlsx_cell_ref(0, rows, bottom_left);
    const char *active = rows && cols ? "bottomRight" : rows ? "bottomLeft" : "topRight";
    qr_buf_puts(b, "<pane");
    if (cols) qr_buf_printf(b, " xSplit=\"%u\"", cols);
    if (rows) qr_buf_printf(b, " ySplit=\"%u\"", rows);
    qr_buf_printf(b, " topLeftCell=\"%s\" activePane=\"%s\" state=\"frozen\"/>", tl, active);
    if (rows && cols) {
        write_selection(b, "topRight", top_right);
        write_selection(b, "bottomLeft", bottom_left);
    }
    write_selection(b, active, tl);
}

/* <x:sheetViews> */
static void write_sheet_views(qr_buf *b, const qr_sheet *sh, int first)
{
    uint32_t rows = sh->freeze_row > 0 ? (uint32_t)sh->freeze_row : 0;
    uint32_t cols = sh->freeze_col > 0 ? (uint32_t)sh->freeze_col : 0;
    if (rows >= QR_XLSX_MAX_ROWS) rows = QR_XLSX_MAX_ROWS - 1;
    if (cols >= QR_XLSX_MAX_COLS) cols = QR_XLSX_MAX_COLS - 1;
    qr_buf_puts(b, "<sheetViews><sheetView");
    if (first) qr_buf_puts(b, " tabSelected=\"1\"");
    qr_buf_puts(b, " workbookViewId=\"0\"");
    if (!rows && !cols) {
        qr_buf_puts(b, "/></sheetViews>");
        return;
    }
    qr_buf_putc(b, '>');
    write_pane(b, rows, cols);
    qr_buf_puts(b, "</sheetView></sheetViews>");
}

/* <x:sheetFormatPr> */
static void write_sheet_format_pr(qr_buf *b, const qr_sheet *sh)
{
    unsigned rows = sh->row_outline, cols = 0;
    for (size_t c = 0; c < sh->n_col_flags; c++)
        if ((sh->col_flags[c] & 7u) > cols) cols = sh->col_flags[c] & 7u;
    /* the default width said, so every app starts from the width the preview draws */
    qr_buf_puts(b, "<sheetFormatPr defaultColWidth=\"8.43\" defaultRowHeight=\"15\"");
    if (rows) qr_buf_printf(b, " outlineLevelRow=\"%u\"", rows);
    if (cols) qr_buf_printf(b, " outlineLevelCol=\"%u\"", cols);
    qr_buf_puts(b, "/>");
}

/* The xf of a look alone (a column's or a row's), with its number format. */
static uint32_t look_xf(qr_xlsx_styles *st, const qr_cellstyle *l)
{
    return qr_xlsx_style_xf_look(st, l->set & QR_SX_FORMAT ? l->fmt : 0, 0, l);
}

/* <x:cols>: one <col> per given width, in characters (Excel's maximum is
 * 255); a column the spec gives no width gets one from its content
 * (layout/sheet_fit.c) when that is wider than the default. */
static void write_cols(qr_buf *b, const qr_sheet *sh, const char *const *formats, size_t n_formats,
                       qr_xlsx_styles *styles)
{
    const qr_doc *doc = styles ? styles->doc : NULL;
    size_t n_cl = doc && doc->n_looks > 1 ? sh->n_col_looks : 0;
    int any = 0;
    size_t n = sh->n_cols > QR_XLSX_MAX_COLS ? QR_XLSX_MAX_COLS : sh->n_cols;
    size_t given = sh->widths ? sh->n_widths : 0;
    if (given > QR_XLSX_MAX_COLS) given = QR_XLSX_MAX_COLS;
    if (given > n) n = given;
    if (n_cl > n) n = n_cl;
    if (sh->n_col_flags > n) n = sh->n_col_flags;
    double *fit = n ? malloc(n * sizeof *fit) : NULL; /* the render's autofit, else our own */
    if (fit) qr_sheet_autofit_shared(styles ? styles->fits : NULL, sh, formats, n_formats, fit, n);
    for (size_t i = 0; i < n; i++) {
        double w = i < given ? sh->widths[i] : 0;
        if (!(w > 0)) w = fit ? fit[i] : 0;
        uint32_t xf = 0;
        if (i < n_cl && sh->col_looks[i] && sh->col_looks[i] < doc->n_looks)
            xf = look_xf(styles, &doc->looks[sh->col_looks[i]]);
        unsigned fl = i < sh->n_col_flags ? sh->col_flags[i] : 0;
        if (!(w > 0) && !xf && !fl) continue;
        if (!(w > 0)) w = 8.43; /* Excel's default */
        if (w > 255) w = 255;
        char num[32];
        qr_xlsx_fmt_num(w, num);
        if (!any) qr_buf_puts(b, "<cols>");
        any = 1;
        /* <x:col> */
        qr_buf_printf(b, "<col min=\"%zu\" max=\"%zu\" width=\"%s\"", i + 1, i + 1, num);
        if (xf) qr_buf_printf(b, " style=\"%u\"", xf);
        if (fl & QR_COL_HIDDEN) qr_buf_puts(b, " hidden=\"1\"");
        qr_buf_puts(b, " customWidth=\"1\"");
        if (fl & 7u) qr_buf_printf(b, " outlineLevel=\"%u\"", fl & 7u);
        qr_buf_puts(b, "/>");
    }
    if (any) qr_buf_puts(b, "</cols>");
    free(fit);
}

static int head(qr_buf *b, const qr_sheet *sh, int first, const char *const *formats,
                size_t n_formats, qr_xlsx_styles *styles);

/* <x:worksheet> up to <x:sheetData> */
int qr_xlsx_write_sheet_head(qr_buf *b, const qr_sheet *sh, int first)
{
    return qr_xlsx_write_sheet_head_fmt(b, sh, first, NULL, 0);
}

int qr_xlsx_write_sheet_head_fmt(qr_buf *b, const qr_sheet *sh, int first,
                                 const char *const *formats, size_t n_formats)
{
    return head(b, sh, first, formats, n_formats, NULL);
}

int qr_xlsx_write_sheet_head_st(qr_buf *b, const qr_sheet *sh, int first, qr_xlsx_styles *styles)
{
    return head(b, sh, first, styles->formats, styles->n_formats, styles);
}

static int head(qr_buf *b, const qr_sheet *sh, int first, const char *const *formats,
                size_t n_formats, qr_xlsx_styles *styles)
{
    qr_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                   "<worksheet xmlns=\"" QR_NS_SML "\" xmlns:r=\"" QR_NS_REL "\">");
    write_sheet_pr(b, sh);
    write_dimension(b, sh);
    write_sheet_views(b, sh, first);
    write_sheet_format_pr(b, sh);
    write_cols(b, sh, formats, n_formats, styles);
    qr_buf_puts(b, "<sheetData>");
    return b->oom ? -1 : 0;
}

/* <x:autoFilter> */
static void write_auto_filter(qr_buf *b, const qr_sheet *sh)
{
    char range[40];
    qr_xlsx_filter_range(sh, range, sizeof range);
    if (range[0]) qr_buf_printf(b, "<autoFilter ref=\"%s\"/>", range);
}

/* <x:mergeCells> */
static void write_merge_cells(qr_buf *b, const qr_sheet *sh)
{
    if (!sh->n_merges) return;
    qr_buf_printf(b, "<mergeCells count=\"%zu\">", sh->n_merges);
    for (size_t i = 0; i < sh->n_merges; i++) {
        const qr_range *m = &sh->merges[i];
        char a[16], z[16];
        qr_xlsx_cell_ref(m->c0, m->r0, a);
        qr_xlsx_cell_ref(m->c1, m->r1, z);
        /* <x:mergeCell> */
        qr_buf_printf(b, "<mergeCell ref=\"%s:%s\"/>", a, z);
    }
    qr_buf_puts(b, "</mergeCells>");
}

/* A formula of a rule as the file stores it (escaped, _xlfn. prefixes). */
static void put_formula(qr_buf *b, const char *text)
{
    qr_buf ft = {0};
    if (qr_formula_file_text(text, &ft) && !ft.oom)
        qr_xml_escape(b, ft.data, ft.len, 0);
    else
        qr_xml_escape(b, text, strlen(text), 0);
    qr_buf_free(&ft);
}

/* <x:cfvo> and <x:color> of a colour scale or data bar */
static void put_scale(qr_buf *b, const qr_cond *cf)
{
    qr_buf_puts(b, "<cfvo type=\"min\"/>");
    if (cf->n_colors == 3) qr_buf_puts(b, "<cfvo type=\"percentile\" val=\"50\"/>");
    qr_buf_puts(b, "<cfvo type=\"max\"/>");
    for (int i = 0; i < cf->n_colors; i++)
        qr_buf_printf(b, "<color rgb=\"FF%06X\"/>", cf->colors[i] & 0xFFFFFF);
}

/* <x:conditionalFormatting>: one per rule, priorities in spec order. */
static void write_conditional(qr_buf *b, const qr_sheet *sh, const qr_xlsx_styles *st)
{
    static const char *const ops[] = {
        "lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual",
        "equal",    "notEqual",        "between",     "notBetween"};
    for (size_t i = 0; i < sh->n_conds; i++) {
        const qr_cond *cf = &sh->conds[i];
        char a[16], z[16], num[32];
        qr_xlsx_cell_ref(cf->range.c0, cf->range.r0, a);
        qr_xlsx_cell_ref(cf->range.c1, cf->range.r1, z);
        if (strcmp(a, z) == 0)
            qr_buf_printf(b, "<conditionalFormatting sqref=\"%s\">", a);
        else
            qr_buf_printf(b, "<conditionalFormatting sqref=\"%s:%s\">", a, z);
        switch (cf->rule) {
        case QR_CF_CELL:
            /* <x:cfRule> */
            qr_buf_printf(b,
                          "<cfRule type=\"cellIs\" dxfId=\"%u\" priority=\"%zu\" "
                          "operator=\"%s\"><formula>",
                          qr_xlsx_dxf_id(st, cf->look), i + 1, ops[cf->op]);
            if (cf->text) {
                /* a text compared: a string literal, its quotes doubled */
                qr_buf_puts(b, "&quot;");
                for (const char *t = cf->text; *t; t++) {
                    const char *q = strchr(t, '"');
                    size_t n = q ? (size_t)(q - t) : strlen(t);
                    qr_xml_escape(b, t, n, 0);
                    t += n;
                    if (!q) break;
                    qr_buf_puts(b, "&quot;&quot;");
                }
                qr_buf_puts(b, "&quot;");
            } else {
                qr_xlsx_fmt_num(cf->value, num);
                qr_buf_puts(b, num);
            }
            qr_buf_puts(b, "</formula>");
            if (cf->op == QR_CF_BETWEEN || cf->op == QR_CF_NOT_BETWEEN) {
                qr_xlsx_fmt_num(cf->value2, num);
                qr_buf_printf(b, "<formula>%s</formula>", num);
            }
            qr_buf_puts(b, "</cfRule>");
            break;
        case QR_CF_FORMULA:
            qr_buf_printf(b,
                          "<cfRule type=\"expression\" dxfId=\"%u\" priority=\"%zu\">"
                          "<formula>",
                          qr_xlsx_dxf_id(st, cf->look), i + 1);
            put_formula(b, cf->formula);
            qr_buf_puts(b, "</formula></cfRule>");
            break;
        case QR_CF_SCALE:
            qr_buf_printf(b, "<cfRule type=\"colorScale\" priority=\"%zu\"><colorScale>", i + 1);
            put_scale(b, cf);
            qr_buf_puts(b, "</colorScale></cfRule>");
            break;
        case QR_CF_BAR:
            qr_buf_printf(b, "<cfRule type=\"dataBar\" priority=\"%zu\"><dataBar>", i + 1);
            put_scale(b, cf);
            qr_buf_puts(b, "</dataBar></cfRule>");
            break;
        }
        qr_buf_puts(b, "</conditionalFormatting>");
    }
}

/* <x:dataValidations> */
static void write_validations(qr_buf *b, const qr_sheet *sh)
{
    static const char *const types[] = {"list", "decimal", "whole", "date"};
    if (!sh->n_valids) return;
    qr_buf_printf(b, "<dataValidations count=\"%zu\">", sh->n_valids);
    for (size_t i = 0; i < sh->n_valids; i++) {
        const qr_valid *dv = &sh->valids[i];
        char a[16], z[16], num[32];
        qr_xlsx_cell_ref(dv->range.c0, dv->range.r0, a);
        qr_xlsx_cell_ref(dv->range.c1, dv->range.r1, z);
        /* <x:dataValidation> (attributes in schema order) */
        qr_buf_printf(b, "<dataValidation type=\"%s\"", types[dv->type]);
        if (dv->type != QR_DV_LIST)
            qr_buf_puts(b, dv->has_min && dv->has_max ? " operator=\"between\""
                           : dv->has_min              ? " operator=\"greaterThanOrEqual\""
                                                      : " operator=\"lessThanOrEqual\"");
        if (dv->blank) qr_buf_puts(b, " allowBlank=\"1\"");
        qr_buf_puts(b, " showInputMessage=\"1\" showErrorMessage=\"1\"");
        if (dv->error) {
            qr_buf_puts(b, " error=\"");
            qr_xml_escape(b, dv->error, strlen(dv->error), 1);
            qr_buf_putc(b, '"');
        }
        if (dv->prompt) {
            qr_buf_puts(b, " prompt=\"");
            qr_xml_escape(b, dv->prompt, strlen(dv->prompt), 1);
            qr_buf_putc(b, '"');
        }
        if (strcmp(a, z) == 0)
            qr_buf_printf(b, " sqref=\"%s\">", a);
        else
            qr_buf_printf(b, " sqref=\"%s:%s\">", a, z);
        if (dv->type == QR_DV_LIST) {
            qr_buf_puts(b, "<formula1>&quot;");
            qr_xml_escape(b, dv->list, strlen(dv->list), 0);
            qr_buf_puts(b, "&quot;</formula1>");
        } else {
            /* one bound: formula1 only, the operator says which */
            qr_xlsx_fmt_num(dv->has_min ? dv->min : dv->max, num);
            qr_buf_printf(b, "<formula1>%s</formula1>", num);
            if (dv->has_min && dv->has_max) {
                qr_xlsx_fmt_num(dv->max, num);
                qr_buf_printf(b, "<formula2>%s</formula2>", num);
            }
        }
        qr_buf_puts(b, "</dataValidation>");
    }
    qr_buf_puts(b, "</dataValidations>");
}

/* <x:pageMargins>: Excel's defaults, so printing looks as Excel's own files. */
/* </x:sheetData> to </x:worksheet> */
int qr_xlsx_write_sheet_tail(qr_buf *b, const qr_sheet *sh, const qr_xlsx_styles *st)
{
    qr_buf_puts(b, "</sheetData>");
    write_auto_filter(b, sh);
    write_merge_cells(b, sh);
    write_conditional(b, sh, st);
    write_validations(b, sh);
    qr_xlsx_write_hyperlinks(b, sh);
    qr_xlsx_write_print(b, sh);                                   /* xlsx_print.c */
    if (sh->n_charts) qr_buf_puts(b, "<drawing r:id=\"rId1\"/>"); /* xlsx_chart.c */
    qr_xlsx_write_legacy_drawing(b, sh);
    qr_xlsx_write_table_parts(b, sh);
    qr_buf_puts(b, "</worksheet>");
    return b->oom ? -1 : 0;
}

/* ---- rows: the hot loop ----------------------------------------------------------- */

/* Room for one cell's markup besides formula text:
 * <c r="XFD1048576" s="4294967295" t="str"><v>32 bytes</v></c> */
#define CELL_MAX 128

static char *put_lit(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}
#define PUT(p, lit) put_lit((p), (lit), sizeof(lit) - 1)

static char *put_num(char *p, double v)
{
    return p + qr_xlsx_fmt_num(v, p);
}

/* <x:c> (and its <x:f>, <x:v>) */
static int write_c(qr_buf *b, const qr_cell *cell, uint32_t col, const char *rn, size_t rl,
                   unsigned flags, const qr_cellstyle *look, qr_xlsx_sst *sst,
                   qr_xlsx_styles *styles)
{
    char *p = qr_buf_reserve(b, CELL_MAX);
    if (!p) return -1;
    p = PUT(p, "<c r=\"");
    p = put_col(p, col);
    p = put_lit(p, rn, rl);
    *p++ = '"';
    int64_t si = 0;
    if (cell->type == QR_CELL_TEXT) {
        const char *s = cell->v.str;
        if (qr_xlsx_needs_quote(s, cell->len)) flags |= QR_XLSX_QUOTE;
        if (cell->len && memchr(s, '\n', cell->len)) flags |= QR_XLSX_WRAP;
        si = qr_xlsx_sst_add(sst, s ? s : "", s ? cell->len : 0);
        if (si < 0) return -1;
    }
    uint32_t fmt = cell->fmt;
    if (look && !fmt && (look->set & QR_SX_FORMAT) && cell->type != QR_CELL_TEXT) fmt = look->fmt;
    if (fmt || flags || (look && look->set)) {
        uint32_t xf = look && look->set ? qr_xlsx_style_xf_look(styles, fmt, flags, look)
                                        : qr_xlsx_style_xf(styles, fmt, flags);
        if (styles->oom) return -1;
        if (xf) {
            p = PUT(p, " s=\"");
            p = put_u64(p, xf);
            *p++ = '"';
        }
    }
    switch ((qr_cell_type)cell->type) {
    case QR_CELL_TEXT:
        p = PUT(p, " t=\"s\"><v>");
        p = put_u64(p, (uint64_t)si);
        p = PUT(p, "</v></c>");
        break;
    case QR_CELL_NUMBER:
    case QR_CELL_DATE:
        p = PUT(p, "><v>");
        p = put_num(p, cell->v.num);
        p = PUT(p, "</v></c>");
        break;
    case QR_CELL_BOOL:
        p = PUT(p, " t=\"b\"><v>");
        *p++ = cell->v.num != 0 ? '1' : '0';
        p = PUT(p, "</v></c>");
        break;
    case QR_CELL_FORMULA: {
        const qr_formula *f = cell->v.formula;
        int vt = f && f->has_value ? (int)f->value_type : -1;
        if (vt == QR_CELL_TEXT && f->is_error) /* #DIV/0! and friends (layout/formula.h) */
            p = PUT(p, " t=\"e\"");
        else if (vt == QR_CELL_TEXT)
            p = PUT(p, " t=\"str\"");
        else if (vt == QR_CELL_BOOL)
            p = PUT(p, " t=\"b\"");
        p = PUT(p, "><f>");
        b->len = (size_t)(p - b->data);
        const char *ft = f && f->text ? f->text : "";
        qr_buf xl = {0}; /* _xlfn. names (layout/formula.h) */
        if (qr_formula_file_text(ft, &xl)) {
            if (xl.oom) return qr_buf_free(&xl), -1;
            int bad = qr_xlsx_escape(b, xl.data, xl.len);
            qr_buf_free(&xl);
            if (bad) return -1;
        } else if (qr_xlsx_escape(b, ft, strlen(ft))) {
            return -1;
        }
        if (qr_buf_append(b, "</f>", 4)) return -1;
        if (vt == QR_CELL_TEXT) {
            const char *s = f->str ? f->str : "";
            if (qr_buf_append(b, "<v>", 3) || qr_xlsx_escape(b, s, strlen(s)) ||
                qr_buf_append(b, "</v>", 4))
                return -1;
        }
        p = qr_buf_reserve(b, CELL_MAX);
        if (!p) return -1;
        if (vt == QR_CELL_NUMBER || vt == QR_CELL_DATE) {
            p = PUT(p, "<v>");
            p = put_num(p, f->num);
            p = PUT(p, "</v>");
        } else if (vt == QR_CELL_BOOL) {
            p = PUT(p, "<v>");
            *p++ = f->num != 0 ? '1' : '0';
            p = PUT(p, "</v>");
        }
        p = PUT(p, "</c>");
        break;
    }
    case QR_CELL_EMPTY: /* a styled blank */
        p = PUT(p, "/>");
        break;
    }
    b->len = (size_t)(p - b->data);
    *p = '\0';
    return 0;
}

/* <x:row>: its attributes (r, a height for wrapped lines, its look's xf,
 * hidden, outline level) */
static int open_row(qr_buf *b, const qr_row *row, const char *rn, size_t rl, uint32_t row_xf)
{
    char *p = qr_buf_reserve(b, 160);
    if (!p) return -1;
    p = PUT(p, "<row r=\"");
    p = put_lit(p, rn, rl);
    /* a wrapped cell's lines all show: 15 pt (the default row) each */
    unsigned lines = qr_sheet_row_lines(row);
    if (row_xf) {
        p = PUT(p, "\" s=\"");
        p = put_u64(p, row_xf);
        p = PUT(p, "\" customFormat=\"1");
    }
    if (lines > 1) {
        p = PUT(p, "\" ht=\"");
        p = put_u64(p, 15u * (lines < 409 / 15 ? lines : 409 / 15));
        p = PUT(p, "\" customHeight=\"1");
    }
    if (row->hidden) p = PUT(p, "\" hidden=\"1");
    if (row->outline) {
        p = PUT(p, "\" outlineLevel=\"");
        p = put_u64(p, row->outline);
    }
    p = PUT(p, "\">");
    b->len = (size_t)(p - b->data);
    return 0;
}

static int write_row_looks(qr_buf *b, const qr_sheet *sh, const qr_row *row, size_t r, int bold,
                           qr_xlsx_sst *sst, qr_xlsx_styles *styles)
{
    char rn[24];
    size_t rl = (size_t)(put_u64(rn, (uint64_t)r + 1) - rn);
    int open = 0;
    uint32_t n = row->n < QR_XLSX_MAX_COLS ? row->n : QR_XLSX_MAX_COLS;
    const qr_doc *doc = styles->doc;
    int looks = sh && doc && doc->n_looks > 1;
    unsigned flags = bold && !looks ? QR_XLSX_BOLD : 0;
    /* a row with nothing styled but its cells' own looks: the fast path */
    int plain = !looks || (!sh->n_col_looks && !row->look && !(sh->header && r == 0));
    uint32_t row_xf = 0;
    if (looks && row->look && row->look < doc->n_looks) {
        row_xf = look_xf(styles, &doc->looks[row->look]);
        if (styles->oom) return -1;
    }
    if (row_xf || row->hidden || row->outline) {
        if (open_row(b, row, rn, rl, row_xf)) return -1;
        open = 1;
    }
    for (uint32_t c = 0; c < n; c++) {
        const qr_cell *cell = &row->cells[c];
        unsigned lk = qr_cell_look(cell);
        if (cell->type == QR_CELL_EMPTY && !lk) continue;
        if (!open) {
            if (open_row(b, row, rn, rl, 0)) return -1;
            open = 1;
        }
        qr_cellstyle cs, *look = NULL;
        if (looks && (!plain || lk)) {
            cs = qr_sheet_cell_style(doc, sh, r, row, c, cell);
            look = &cs;
        }
        if (write_c(b, cell, c, rn, rl, flags, look, sst, styles)) return -1;
    }
    if (open && qr_buf_append(b, "</row>", 6)) return -1;
    return 0;
}

int qr_xlsx_write_row(qr_buf *b, const qr_row *row, size_t r, int bold, qr_xlsx_sst *sst,
                      qr_xlsx_styles *styles)
{
    return write_row_looks(b, NULL, row, r, bold, sst, styles);
}

int qr_xlsx_write_sheet_row(qr_buf *b, const qr_sheet *sh, const qr_row *row, size_t r,
                            qr_xlsx_sst *sst, qr_xlsx_styles *styles)
{
    return write_row_looks(b, sh, row, r, sh->header && r == 0, sst, styles);
}

/* ---- streaming ---------------------------------------------------------------------- */

/* Append the next part of the sheet to b until it holds at least target
 * bytes or the sheet ends (stage 3). */
static qr_status gen_block(qr_xlsx_sheet *w, qr_buf *b, size_t target)
{
    const qr_sheet *sh = w->sh;
    if (w->stage == 0) {
        if (qr_xlsx_write_sheet_head_st(b, sh, w->first, w->styles)) return qr_fail(QR_E_NOMEM);
        w->stage = 1;
        w->next_row = 0;
    }
    if (w->stage == 1) {
        size_t n_rows = sh->n_rows < QR_XLSX_MAX_ROWS ? sh->n_rows : QR_XLSX_MAX_ROWS;
        while (w->next_row < n_rows && b->len < target) {
            size_t r = w->next_row++;
            if (qr_xlsx_write_sheet_row(b, sh, &sh->rows[r], r, w->sst, w->styles))
                return qr_fail(QR_E_NOMEM);
        }
        if (w->next_row >= n_rows) w->stage = 2;
    }
    if (w->stage == 2) {
        if (qr_xlsx_write_sheet_tail(b, sh, w->styles)) return qr_fail(QR_E_NOMEM);
        w->stage = 3;
    }
    return QR_OK;
}

struct qr_xlsx_producer {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    qr_buf q[QUEUE_LEN];
    unsigned head, count; /* the oldest full slot, and how many are full */
    int finished;         /* the producer has queued its last block */
    int stop;             /* the consumer gives up: the producer must exit */
    qr_status status;
    qr_xlsx_sheet *w;
};

static void *produce(void *arg)
{
    qr_xlsx_producer *pr = arg;
    unsigned tail = 0;
    for (;;) {
        pthread_mutex_lock(&pr->mu);
        while (pr->count == QUEUE_LEN && !pr->stop)
            pthread_cond_wait(&pr->cv, &pr->mu);
        int stop = pr->stop;
        pthread_mutex_unlock(&pr->mu);
        if (stop) break;
        /* The slot at tail is free: only this thread touches it until it is queued. */
        qr_buf *b = &pr->q[tail];
        b->len = 0;
        qr_status st = gen_block(pr->w, b, BLOCK_BYTES);
        int last = st != QR_OK || pr->w->stage == 3;
        pthread_mutex_lock(&pr->mu);
        pr->count++;
        if (st != QR_OK) pr->status = st;
        if (last) pr->finished = 1;
        pthread_cond_broadcast(&pr->cv);
        pthread_mutex_unlock(&pr->mu);
        tail = (tail + 1) % QUEUE_LEN;
        if (last) break;
    }
    return NULL;
}

static void producer_join(qr_xlsx_sheet *w)
{
    qr_xlsx_producer *pr = w->prod;
    if (!pr) return;
    pthread_mutex_lock(&pr->mu);
    pr->stop = 1;
    pthread_cond_broadcast(&pr->cv);
    pthread_mutex_unlock(&pr->mu);
    pthread_join(pr->thread, NULL);
    pthread_mutex_destroy(&pr->mu);
    pthread_cond_destroy(&pr->cv);
    for (int i = 0; i < QUEUE_LEN; i++)
        qr_buf_free(&pr->q[i]);
    free(pr);
    w->prod = NULL;
}

static int producer_start(qr_xlsx_sheet *w)
{
    qr_xlsx_producer *pr = calloc(1, sizeof *pr);
    if (!pr) return -1;
    pr->w = w;
    if (pthread_mutex_init(&pr->mu, NULL) != 0) {
        free(pr);
        return -1;
    }
    if (pthread_cond_init(&pr->cv, NULL) != 0) {
        pthread_mutex_destroy(&pr->mu);
        free(pr);
        return -1;
    }
    if (qr_thread_create(&pr->thread, produce, pr) != 0) {
        pthread_cond_destroy(&pr->cv);
        pthread_mutex_destroy(&pr->mu);
        free(pr);
        return -1;
    }
    w->prod = pr;
    return 0;
}

/* Take the next block from the producer into chunk. */
static qr_status take_block(qr_xlsx_sheet *w, qr_buf *chunk, int *done)
{
    qr_xlsx_producer *pr = w->prod;
    pthread_mutex_lock(&pr->mu);
    while (pr->count == 0)
        pthread_cond_wait(&pr->cv, &pr->mu);
    int last = pr->finished && pr->count == 1;
    qr_status st = last ? pr->status : QR_OK;
    pthread_mutex_unlock(&pr->mu);

    /* The head slot is full: the producer leaves it alone until it is freed. */
    qr_buf *b = &pr->q[pr->head];
    if (chunk->len == 0 && !chunk->oom) {
        qr_buf t = *chunk; /* hand the block over without copying */
        *chunk = *b;
        *b = t;
    } else {
        qr_buf_append(chunk, b->data, b->len);
    }
    b->len = 0;
    pthread_mutex_lock(&pr->mu);
    pr->head = (pr->head + 1) % QUEUE_LEN;
    pr->count--;
    pthread_cond_broadcast(&pr->cv);
    pthread_mutex_unlock(&pr->mu);

    if (last) {
        producer_join(w); /* its writes to sst and styles happen before ours */
        *done = 1;
    }
    return st;
}

void qr_xlsx_sheet_init(qr_xlsx_sheet *w, const qr_sheet *sh, int first, qr_xlsx_sst *sst,
                        qr_xlsx_styles *styles)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    w->first = first;
    w->sst = sst;
    w->styles = styles;
    w->threaded = 1;
}

void qr_xlsx_sheet_fini(qr_xlsx_sheet *w)
{
    producer_join(w);
}

qr_status qr_xlsx_sheet_fill(void *ctx, qr_buf *chunk, int *done)
{
    qr_xlsx_sheet *w = ctx;
    if (w->status != QR_OK) return w->status;
    /* While a producer runs it owns stage and next_row: test prod first. */
    if (!w->prod && w->stage == 0 && w->threaded &&
        (double)w->sh->n_rows * (double)w->sh->n_cols >= THREAD_MIN_CELLS)
        producer_start(w); /* on failure, produce here */
    qr_status st;
    if (w->prod) {
        st = take_block(w, chunk, done);
    } else {
        st = gen_block(w, chunk, chunk->len + BLOCK_BYTES);
        if (st == QR_OK && w->stage == 3) *done = 1;
    }
    if (st == QR_OK && chunk->oom) st = qr_fail(QR_E_NOMEM);
    w->status = st;
    return st;
}
