/* xlsx_styles.c: number formats, cell format combinations and xl/styles.xml.
 *
 * A cell's look is one cellXfs entry combining its number format with three
 * flags: bold (the header row), quotePrefix (text that an editor would
 * otherwise read as a formula) and wrapText (multi-line text). Only the
 * combinations the sheets use are written, in first-use order; xf 0 is
 * always General with no flags. The fixed parts are the minimum Excel
 * expects: two fonts (Calibri 11, and bold), the two required fills (none,
 * gray125), one empty border, one cell style (Normal). No theme part, so
 * nothing refers to theme colours or fonts.
 */
#include <stdlib.h>
#include <string.h>

#include "xlsx_int.h"
#include "xml.h"

int qr_xlsx_styles_init(qr_xlsx_styles *st, const char *const *formats, size_t n_formats)
{
    memset(st, 0, sizeof *st);
    st->formats = formats;
    st->n_formats = n_formats ? n_formats : 1;
    st->xf_of = malloc(st->n_formats * 8 * sizeof *st->xf_of);
    st->numfmt_id = calloc(st->n_formats, sizeof *st->numfmt_id);
    st->custom = calloc(st->n_formats, sizeof *st->custom);
    st->cap_xf = 16;
    st->xf_key = malloc(st->cap_xf * sizeof *st->xf_key);
    if (!st->xf_of || !st->numfmt_id || !st->custom || !st->xf_key) {
        qr_xlsx_styles_free(st);
        return -1;
    }
    for (size_t i = 0; i < st->n_formats * 8; i++)
        st->xf_of[i] = -1;
    st->xf_of[0] = 0;
    st->xf_key[0] = 0;
    st->n_xf = 1;
    return 0;
}

void qr_xlsx_styles_free(qr_xlsx_styles *st)
{
    free(st->xf_of);
    free(st->xf_key);
    free(st->numfmt_id);
    free(st->custom);
    memset(st, 0, sizeof *st);
}

/* Built-in formats that read the same in every locale (ECMA-376 18.8.30).
 * The date and time built-ins (14-22) are left out: Excel shows them in
 * the reader's regional style, so a spec's date format is always custom. */
static const struct {
    uint32_t id;
    const char *code;
} builtin[] = {
    {1, "0"},  {2, "0.00"},   {3, "#,##0"},     {4, "#,##0.00"},
    {9, "0%"}, {10, "0.00%"}, {11, "0.00E+00"}, {49, "@"},
};

static const char *format_code(const qr_xlsx_styles *st, uint32_t fmt)
{
    if (!st->formats || fmt >= st->n_formats || !st->formats[fmt]) return "General";
    return st->formats[fmt];
}

uint32_t qr_xlsx_numfmt_id(qr_xlsx_styles *st, uint32_t fmt)
{
    if (fmt == 0 || fmt >= st->n_formats) return 0;
    if (st->numfmt_id[fmt]) return st->numfmt_id[fmt];
    const char *code = format_code(st, fmt);
    uint32_t id = 0;
    if (strcmp(code, "General") != 0) {
        for (size_t i = 0; i < sizeof builtin / sizeof builtin[0] && !id; i++)
            if (strcmp(code, builtin[i].code) == 0) id = builtin[i].id;
        if (!id) {
            /* Two spec formats with the same code share one custom id. */
            for (uint32_t k = 0; k < st->n_custom && !id; k++)
                if (strcmp(format_code(st, st->custom[k]), code) == 0) id = 164 + k;
            if (!id) {
                st->custom[st->n_custom] = fmt;
                id = 164 + st->n_custom++;
            }
        }
    }
    st->numfmt_id[fmt] = id; /* 0 for "General" spelled out: looked up again, harmlessly */
    return id;
}

uint32_t qr_xlsx_style_xf(qr_xlsx_styles *st, uint32_t fmt, unsigned flags)
{
    if (fmt >= st->n_formats) fmt = 0;
    size_t slot = (size_t)fmt * 8 + (flags & 7);
    int32_t xf = st->xf_of[slot];
    if (xf >= 0) return (uint32_t)xf;
    if (st->n_xf == st->cap_xf) {
        uint32_t cap = st->cap_xf * 2;
        uint32_t *nk = realloc(st->xf_key, cap * sizeof *nk);
        if (!nk) {
            st->oom = 1;
            return 0;
        }
        st->xf_key = nk;
        st->cap_xf = cap;
    }
    qr_xlsx_numfmt_id(st, fmt); /* number formats get their ids in first-use order too */
    xf = (int32_t)st->n_xf++;
    st->xf_key[xf] = fmt << 3 | (flags & 7);
    st->xf_of[slot] = xf;
    return (uint32_t)xf;
}

/* <x:numFmts> */
static void write_num_fmts(qr_xml *x, const qr_xlsx_styles *st)
{
    if (!st->n_custom) return;
    qr_xml_start(x, "numFmts");
    qr_xml_attr_int(x, "count", st->n_custom);
    for (uint32_t k = 0; k < st->n_custom; k++) {
        /* <x:numFmt> */
        qr_xml_start(x, "numFmt");
        qr_xml_attr_int(x, "numFmtId", 164 + k);
        qr_xml_attr(x, "formatCode", format_code(st, st->custom[k]));
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* <x:font> */
static void write_font(qr_xml *x, int bold)
{
    qr_xml_start(x, "font");
    if (bold) qr_xml_leaf(x, "b", NULL);
    qr_xml_leaf(x, "sz", "val", "11", NULL);
    qr_xml_leaf(x, "name", "val", "Calibri", NULL);
    qr_xml_leaf(x, "family", "val", "2", NULL);
    qr_xml_end(x);
}

/* <x:fonts> */
static void write_fonts(qr_xml *x)
{
    qr_xml_start(x, "fonts");
    qr_xml_attr(x, "count", "2");
    write_font(x, 0);
    write_font(x, 1);
    qr_xml_end(x);
}

/* <x:fill> */
static void write_fill(qr_xml *x, const char *pattern)
{
    qr_xml_start(x, "fill");
    qr_xml_leaf(x, "patternFill", "patternType", pattern, NULL);
    qr_xml_end(x);
}

/* <x:fills> */
static void write_fills(qr_xml *x)
{
    qr_xml_start(x, "fills");
    qr_xml_attr(x, "count", "2");
    write_fill(x, "none");
    write_fill(x, "gray125");
    qr_xml_end(x);
}

/* <x:borders> */
static void write_borders(qr_xml *x)
{
    qr_xml_start(x, "borders");
    qr_xml_attr(x, "count", "1");
    qr_xml_start(x, "border");
    qr_xml_leaf(x, "left", NULL);
    qr_xml_leaf(x, "right", NULL);
    qr_xml_leaf(x, "top", NULL);
    qr_xml_leaf(x, "bottom", NULL);
    qr_xml_leaf(x, "diagonal", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <x:cellStyleXfs> */
static void write_cell_style_xfs(qr_xml *x)
{
    qr_xml_start(x, "cellStyleXfs");
    qr_xml_attr(x, "count", "1");
    qr_xml_leaf(x, "xf", "numFmtId", "0", "fontId", "0", "fillId", "0", "borderId", "0", NULL);
    qr_xml_end(x);
}

/* <x:xf> of cellXfs (attributes in schema order) */
static void write_xf(qr_xml *x, const qr_xlsx_styles *st, uint32_t key)
{
    uint32_t fmt = key >> 3;
    unsigned flags = key & 7;
    uint32_t id = fmt < st->n_formats ? st->numfmt_id[fmt] : 0;
    qr_xml_start(x, "xf");
    qr_xml_attr_int(x, "numFmtId", id);
    qr_xml_attr(x, "fontId", flags & QR_XLSX_BOLD ? "1" : "0");
    qr_xml_attr(x, "fillId", "0");
    qr_xml_attr(x, "borderId", "0");
    qr_xml_attr(x, "xfId", "0");
    if (flags & QR_XLSX_QUOTE) qr_xml_attr(x, "quotePrefix", "1");
    if (id) qr_xml_attr(x, "applyNumberFormat", "1");
    if (flags & QR_XLSX_BOLD) qr_xml_attr(x, "applyFont", "1");
    if (flags & QR_XLSX_WRAP) {
        qr_xml_attr(x, "applyAlignment", "1");
        qr_xml_leaf(x, "alignment", "wrapText", "1", NULL);
    }
    qr_xml_end(x);
}

/* <x:cellXfs> */
static void write_cell_xfs(qr_xml *x, const qr_xlsx_styles *st)
{
    qr_xml_start(x, "cellXfs");
    qr_xml_attr_int(x, "count", st->n_xf);
    for (uint32_t i = 0; i < st->n_xf; i++)
        write_xf(x, st, st->xf_key[i]);
    qr_xml_end(x);
}

/* <x:cellStyles> */
static void write_cell_styles(qr_xml *x)
{
    qr_xml_start(x, "cellStyles");
    qr_xml_attr(x, "count", "1");
    qr_xml_leaf(x, "cellStyle", "name", "Normal", "xfId", "0", "builtinId", "0", NULL);
    qr_xml_end(x);
}

/* <x:styleSheet> */
qr_status qr_xlsx_styles_write(const qr_xlsx_styles *st, qr_buf *out)
{
    if (st->oom) return QR_E_NOMEM;
    qr_xml *x = qr_xml_new(out);
    if (!x) return QR_E_NOMEM;
    qr_xml_decl(x);
    qr_xml_start(x, "styleSheet");
    qr_xml_attr(x, "xmlns", QR_NS_SML);
    write_num_fmts(x, st);
    write_fonts(x);
    write_fills(x);
    write_borders(x);
    write_cell_style_xfs(x);
    write_cell_xfs(x, st);
    write_cell_styles(x);
    qr_xml_end(x);
    return qr_xml_free(x);
}

qr_status qr_xlsx_styles_fill(void *ctx, qr_buf *chunk, int *done)
{
    *done = 1;
    return qr_xlsx_styles_write(ctx, chunk);
}
