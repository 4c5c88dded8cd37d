/* xlsx_styles.c: number formats, cell format combinations and xl/styles.xml.
 *
 * A cell's look is one cellXfs entry combining its number format with two
 * flags, quotePrefix (text that an editor would otherwise read as a
 * formula) and wrapText (multi-line text), and its merged look (tree.h's
 * qr_cellstyle: font, fill, border, alignment; the header row's bold is
 * one). Only the combinations the sheets use are written, in first-use
 * order; xf 0 is always General with no flags. Fonts, fills and borders
 * are deduplicated when styles.xml is written, in the order the xfs first
 * use them, after the fixed ones Excel expects: fonts Calibri 11 and bold,
 * fills none and gray125, one empty border, one cell style (Normal). No
 * theme part: a look's theme colours are written as the RGB of quire's
 * theme (layout's cellstyle.h), so nothing refers to theme indexes.
 */
#include <stdlib.h>
#include <string.h>

#include "cellstyle.h"
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
    st->xfs = calloc(st->cap_xf, sizeof *st->xfs);
    if (!st->xf_of || !st->numfmt_id || !st->custom || !st->xfs) {
        qr_xlsx_styles_free(st);
        return -1;
    }
    for (size_t i = 0; i < st->n_formats * 8; i++)
        st->xf_of[i] = -1;
    st->xf_of[0] = 0;
    st->n_xf = 1;
    qr_style th = qr_style_get(0, 0);
    for (int k = 0; k < 5; k++)
        st->theme[k] = qr_cellstyle_rgb(&th, QR_SX_THEME | (uint32_t)k, 0);
    return 0;
}

void qr_xlsx_styles_theme(qr_xlsx_styles *st, const qr_doc *doc)
{
    qr_style th = qr_style_of(doc);
    for (int k = 0; k < 5; k++)
        st->theme[k] = qr_cellstyle_rgb(&th, QR_SX_THEME | (uint32_t)k, 0);
    st->doc = doc;
}

void qr_xlsx_styles_free(qr_xlsx_styles *st)
{
    free(st->xf_of);
    free(st->xfs);
    free(st->lslots);
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

/* Room for one more xf. */
static int grow_xfs(qr_xlsx_styles *st)
{
    if (st->n_xf < st->cap_xf) return 0;
    uint32_t cap = st->cap_xf * 2;
    qr_xlsx_xf *nx = realloc(st->xfs, cap * sizeof *nx);
    if (!nx) {
        st->oom = 1;
        return -1;
    }
    st->xfs = nx;
    st->cap_xf = cap;
    return 0;
}

uint32_t qr_xlsx_style_xf(qr_xlsx_styles *st, uint32_t fmt, unsigned flags)
{
    if (flags & QR_XLSX_BOLD) { /* the header row without a look table */
        qr_cellstyle b;
        memset(&b, 0, sizeof b);
        b.set = QR_SX_BOLD;
        b.bold = 1;
        return qr_xlsx_style_xf_look(st, fmt, flags & ~(unsigned)QR_XLSX_BOLD, &b);
    }
    if (fmt >= st->n_formats) fmt = 0;
    size_t slot = (size_t)fmt * 8 + (flags & 7);
    int32_t xf = st->xf_of[slot];
    if (xf >= 0) return (uint32_t)xf;
    if (grow_xfs(st)) return 0;
    qr_xlsx_numfmt_id(st, fmt); /* number formats get their ids in first-use order too */
    xf = (int32_t)st->n_xf++;
    memset(&st->xfs[xf], 0, sizeof st->xfs[xf]);
    st->xfs[xf].fmt = fmt;
    st->xfs[xf].flags = flags & 7;
    st->xf_of[slot] = xf;
    return (uint32_t)xf;
}

static uint32_t xf_hash(const qr_xlsx_xf *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

uint32_t qr_xlsx_style_xf_look(qr_xlsx_styles *st, uint32_t fmt, unsigned flags,
                               const qr_cellstyle *look)
{
    if (!look || !(look->set & ~QR_SX_FORMAT))
        return qr_xlsx_style_xf(st, fmt, flags & ~(unsigned)QR_XLSX_BOLD);
    if (fmt >= st->n_formats) fmt = 0;
    qr_xlsx_xf k;
    memset(&k, 0, sizeof k);
    k.fmt = fmt;
    k.flags = flags & 6;
    k.look = *look;
    k.look.fmt = 0;
    k.look.set &= (uint16_t)~QR_SX_FORMAT;
    if ((st->n_xf + 1) * 2 > st->n_lslots) {
        uint32_t ns = st->n_lslots ? st->n_lslots * 2 : 64;
        while (ns < (st->n_xf + 1) * 2)
            ns *= 2;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots) {
            st->oom = 1;
            return 0;
        }
        for (uint32_t i = 1; i < st->n_xf; i++) {
            if (!st->xfs[i].look.set) continue;
            uint32_t h = xf_hash(&st->xfs[i]) & (ns - 1);
            while (slots[h])
                h = (h + 1) & (ns - 1);
            slots[h] = i + 1;
        }
        free(st->lslots);
        st->lslots = slots;
        st->n_lslots = ns;
    }
    uint32_t h = xf_hash(&k) & (st->n_lslots - 1);
    while (st->lslots[h]) {
        if (memcmp(&st->xfs[st->lslots[h] - 1], &k, sizeof k) == 0) return st->lslots[h] - 1;
        h = (h + 1) & (st->n_lslots - 1);
    }
    if (grow_xfs(st)) return 0;
    qr_xlsx_numfmt_id(st, fmt);
    uint32_t xf = st->n_xf++;
    st->xfs[xf] = k;
    st->lslots[h] = xf + 1;
    return xf;
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

/* The fonts, fills and borders the xfs use, in first-use order after the
 * fixed ones: each xf's ids into them. */
typedef struct parts {
    qr_cellstyle *font, *fill, *border; /* keys (only the fields that matter) */
    uint32_t n_font, n_fill, n_border;
    uint32_t *font_id, *fill_id, *border_id; /* per xf */
} parts;

static qr_cellstyle font_key(const qr_cellstyle *l)
{
    qr_cellstyle k;
    memset(&k, 0, sizeof k);
    k.bold = l->bold;
    k.italic = l->italic;
    k.underline = l->underline;
    k.color = l->color;
    return k;
}

static qr_cellstyle fill_key(const qr_cellstyle *l)
{
    qr_cellstyle k;
    memset(&k, 0, sizeof k);
    k.fill = l->fill;
    return k;
}

static qr_cellstyle border_key(const qr_cellstyle *l)
{
    qr_cellstyle k;
    memset(&k, 0, sizeof k);
    memcpy(k.border, l->border, 4);
    if (l->border[0] || l->border[1] || l->border[2] || l->border[3])
        k.border_color = l->border_color;
    return k;
}

static uint32_t part_id(qr_cellstyle *arr, uint32_t *n, const qr_cellstyle *k)
{
    for (uint32_t i = 0; i < *n; i++)
        if (memcmp(&arr[i], k, sizeof *k) == 0) return i;
    arr[*n] = *k;
    return (*n)++;
}

static int parts_build(parts *p, const qr_xlsx_styles *st)
{
    memset(p, 0, sizeof *p);
    size_t n = st->n_xf + 2;
    p->font = calloc(n, sizeof *p->font);
    p->fill = calloc(n, sizeof *p->fill);
    p->border = calloc(n, sizeof *p->border);
    p->font_id = calloc(n, sizeof *p->font_id);
    p->fill_id = calloc(n, sizeof *p->fill_id);
    p->border_id = calloc(n, sizeof *p->border_id);
    if (!p->font || !p->fill || !p->border || !p->font_id || !p->fill_id || !p->border_id)
        return -1;
    /* fixed: font 0 regular, font 1 bold; fill 0 none, fill 1 gray125 (a
     * key no look has: fill = 1); border 0 empty */
    p->font[1].bold = 1;
    p->n_font = 2;
    p->fill[1].fill = 1;
    p->n_fill = 2;
    p->n_border = 1;
    for (uint32_t i = 0; i < st->n_xf; i++) {
        const qr_cellstyle *l = &st->xfs[i].look;
        qr_cellstyle k = font_key(l);
        p->font_id[i] = part_id(p->font, &p->n_font, &k);
        k = fill_key(l);
        p->fill_id[i] = part_id(p->fill, &p->n_fill, &k);
        k = border_key(l);
        p->border_id[i] = part_id(p->border, &p->n_border, &k);
    }
    return 0;
}

static void parts_free(parts *p)
{
    free(p->font);
    free(p->fill);
    free(p->border);
    free(p->font_id);
    free(p->fill_id);
    free(p->border_id);
}

static uint32_t rgb_of(const qr_xlsx_styles *st, uint32_t c, uint32_t def)
{
    if (c & QR_SX_RGB) return c & 0xFFFFFF;
    if ((c & QR_SX_THEME) && (c & 0xFF) < 5) return st->theme[c & 0xFF];
    return def;
}

/* <x:color rgb="FFRRGGBB"/> */
static void write_color(qr_xml *x, const char *name, uint32_t rgb)
{
    char v[9];
    static const char hex[] = "0123456789ABCDEF";
    v[0] = v[1] = 'F';
    for (int i = 0; i < 6; i++)
        v[2 + i] = hex[(rgb >> (20 - 4 * i)) & 15];
    v[8] = '\0';
    qr_xml_leaf(x, name, "rgb", v, NULL);
}

/* <x:font> */
static void write_font(qr_xml *x, const qr_xlsx_styles *st, const qr_cellstyle *k)
{
    qr_xml_start(x, "font");
    if (k->bold) qr_xml_leaf(x, "b", NULL);
    if (k->italic) qr_xml_leaf(x, "i", NULL);
    if (k->underline) qr_xml_leaf(x, "u", NULL);
    qr_xml_leaf(x, "sz", "val", "11", NULL);
    if (k->color) write_color(x, "color", rgb_of(st, k->color, 0));
    qr_xml_leaf(x, "name", "val", "Calibri", NULL);
    qr_xml_leaf(x, "family", "val", "2", NULL);
    qr_xml_end(x);
}

/* <x:fonts> */
static void write_fonts(qr_xml *x, const qr_xlsx_styles *st, const parts *p)
{
    qr_xml_start(x, "fonts");
    qr_xml_attr_int(x, "count", p->n_font);
    for (uint32_t i = 0; i < p->n_font; i++)
        write_font(x, st, &p->font[i]);
    qr_xml_end(x);
}

/* <x:fill> */
static void write_fill(qr_xml *x, const qr_xlsx_styles *st, const qr_cellstyle *k, uint32_t i)
{
    qr_xml_start(x, "fill");
    if (i < 2 || !k->fill) {
        qr_xml_leaf(x, "patternFill", "patternType", i == 1 ? "gray125" : "none", NULL);
    } else {
        qr_xml_start(x, "patternFill");
        qr_xml_attr(x, "patternType", "solid");
        write_color(x, "fgColor", rgb_of(st, k->fill, 0xFFFFFF));
        qr_xml_leaf(x, "bgColor", "indexed", "64", NULL);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* <x:fills> */
static void write_fills(qr_xml *x, const qr_xlsx_styles *st, const parts *p)
{
    qr_xml_start(x, "fills");
    qr_xml_attr_int(x, "count", p->n_fill);
    for (uint32_t i = 0; i < p->n_fill; i++)
        write_fill(x, st, &p->fill[i], i);
    qr_xml_end(x);
}

static const char *const border_style[] = {NULL,     "thin",   "medium", "thick",
                                           "double", "dashed", "dotted"};

/* <x:border> */
static void write_border(qr_xml *x, const qr_xlsx_styles *st, const qr_cellstyle *k)
{
    static const char *const side[] = {"left", "right", "top", "bottom"};
    qr_xml_start(x, "border");
    for (int s = 0; s < 4; s++) {
        int kind = k->border[s] < 7 ? k->border[s] : 0;
        if (!kind) {
            qr_xml_leaf(x, side[s], NULL);
            continue;
        }
        qr_xml_start(x, side[s]);
        qr_xml_attr(x, "style", border_style[kind]);
        write_color(x, "color", rgb_of(st, k->border_color, 0x000000));
        qr_xml_end(x);
    }
    qr_xml_leaf(x, "diagonal", NULL);
    qr_xml_end(x);
}

/* <x:borders> */
static void write_borders(qr_xml *x, const qr_xlsx_styles *st, const parts *p)
{
    qr_xml_start(x, "borders");
    qr_xml_attr_int(x, "count", p->n_border);
    for (uint32_t i = 0; i < p->n_border; i++)
        write_border(x, st, &p->border[i]);
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

/* <x:alignment> */
static void write_alignment(qr_xml *x, const qr_cellstyle *l, int wrap)
{
    static const char *const ha[] = {NULL, "left", "center", "right"};
    static const char *const va[] = {NULL, "top", "center"};
    qr_xml_start(x, "alignment");
    if (l->align && l->align < 4) qr_xml_attr(x, "horizontal", ha[l->align]);
    if (l->valign && l->valign < 3) qr_xml_attr(x, "vertical", va[l->valign]);
    if (l->rotate) /* Excel: 1-90 counter-clockwise, 91-180 clockwise */
        qr_xml_attr_int(x, "textRotation", (long long)(l->rotate > 0 ? l->rotate : 90 - l->rotate));
    if (wrap) qr_xml_attr(x, "wrapText", "1");
    if (l->indent) qr_xml_attr_int(x, "indent", l->indent);
    qr_xml_end(x);
}

/* <x:xf> of cellXfs (attributes in schema order) */
static void write_xf(qr_xml *x, const qr_xlsx_styles *st, const parts *p, uint32_t i)
{
    const qr_xlsx_xf *e = &st->xfs[i];
    const qr_cellstyle *l = &e->look;
    uint32_t fmt = e->fmt;
    unsigned flags = e->flags;
    uint32_t id = fmt < st->n_formats ? st->numfmt_id[fmt] : 0;
    int wrap = (flags & QR_XLSX_WRAP) || l->wrap;
    int align = wrap || l->align || l->valign || l->rotate || l->indent;
    qr_xml_start(x, "xf");
    qr_xml_attr_int(x, "numFmtId", id);
    qr_xml_attr_int(x, "fontId", p->font_id[i]);
    qr_xml_attr_int(x, "fillId", p->fill_id[i]);
    qr_xml_attr_int(x, "borderId", p->border_id[i]);
    qr_xml_attr(x, "xfId", "0");
    if (flags & QR_XLSX_QUOTE) qr_xml_attr(x, "quotePrefix", "1");
    if (id) qr_xml_attr(x, "applyNumberFormat", "1");
    if (p->font_id[i]) qr_xml_attr(x, "applyFont", "1");
    if (p->fill_id[i]) qr_xml_attr(x, "applyFill", "1");
    if (p->border_id[i]) qr_xml_attr(x, "applyBorder", "1");
    if (align) {
        qr_xml_attr(x, "applyAlignment", "1");
        write_alignment(x, l, wrap);
    }
    qr_xml_end(x);
}

/* <x:cellXfs> */
static void write_cell_xfs(qr_xml *x, const qr_xlsx_styles *st, const parts *p)
{
    qr_xml_start(x, "cellXfs");
    qr_xml_attr_int(x, "count", st->n_xf);
    for (uint32_t i = 0; i < st->n_xf; i++)
        write_xf(x, st, p, i);
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

/* The distinct looks of the workbook's conditional formats, in sheet and
 * rule order, calls f for each (with its index); returns the count. */
static uint32_t each_dxf(const qr_doc *doc, unsigned want, void (*f)(void *, unsigned), void *ctx)
{
    uint32_t n = 0;
    for (size_t s = 0; doc && s < doc->n_sheets; s++) {
        const qr_sheet *sh = &doc->sheets[s];
        for (size_t i = 0; i < sh->n_conds; i++) {
            unsigned l = sh->conds[i].look;
            if (sh->conds[i].rule != QR_CF_CELL && sh->conds[i].rule != QR_CF_FORMULA) continue;
            /* seen before? (rules are few: a linear look-back) */
            int seen = 0;
            for (size_t t = 0; t <= s && !seen; t++) {
                const qr_sheet *o = &doc->sheets[t];
                size_t end = t == s ? i : o->n_conds;
                for (size_t j = 0; j < end && !seen; j++)
                    seen = (o->conds[j].rule == QR_CF_CELL || o->conds[j].rule == QR_CF_FORMULA) &&
                           o->conds[j].look == l;
            }
            if (seen) continue;
            if (l == want) return n;
            if (f) f(ctx, l);
            n++;
        }
    }
    return n;
}

uint32_t qr_xlsx_dxf_id(const qr_xlsx_styles *st, unsigned look)
{
    return each_dxf(st->doc, look, NULL, NULL);
}

typedef struct dxf_ctx {
    qr_xml *x;
    const qr_xlsx_styles *st;
} dxf_ctx;

/* <x:dxf>: the font, fill and border a rule lays over a cell */
static void write_dxf(void *ctx, unsigned look)
{
    dxf_ctx *d = ctx;
    qr_xml *x = d->x;
    const qr_doc *doc = d->st->doc;
    qr_cellstyle l;
    memset(&l, 0, sizeof l);
    if (look < doc->n_looks) l = doc->looks[look];
    qr_xml_start(x, "dxf");
    if (l.set & (QR_SX_BOLD | QR_SX_ITALIC | QR_SX_UNDERLINE | QR_SX_COLOR)) {
        qr_xml_start(x, "font");
        if (l.set & QR_SX_BOLD) qr_xml_leaf(x, "b", "val", l.bold ? "1" : "0", NULL);
        if (l.set & QR_SX_ITALIC) qr_xml_leaf(x, "i", "val", l.italic ? "1" : "0", NULL);
        if (l.set & QR_SX_UNDERLINE)
            qr_xml_leaf(x, "u", "val", l.underline ? "single" : "none", NULL);
        if (l.color) write_color(x, "color", rgb_of(d->st, l.color, 0));
        qr_xml_end(x);
    }
    if (l.fill) {
        /* a dxf's solid fill is its bgColor */
        qr_xml_start(x, "fill");
        qr_xml_start(x, "patternFill");
        write_color(x, "bgColor", rgb_of(d->st, l.fill, 0xFFFFFF));
        qr_xml_end(x);
        qr_xml_end(x);
    }
    if (l.border[0] || l.border[1] || l.border[2] || l.border[3]) write_border(x, d->st, &l);
    qr_xml_end(x);
}

/* <x:dxfs> */
static void write_dxfs(qr_xml *x, const qr_xlsx_styles *st)
{
    uint32_t n = each_dxf(st->doc, (unsigned)-1, NULL, NULL);
    if (!n) return;
    qr_xml_start(x, "dxfs");
    qr_xml_attr_int(x, "count", n);
    dxf_ctx d = {x, st};
    each_dxf(st->doc, (unsigned)-1, write_dxf, &d);
    qr_xml_end(x);
}

/* <x:styleSheet> */
qr_status qr_xlsx_styles_write(const qr_xlsx_styles *st, qr_buf *out)
{
    if (st->oom) return QR_E_NOMEM;
    parts p;
    if (parts_build(&p, st)) {
        parts_free(&p);
        return QR_E_NOMEM;
    }
    qr_xml *x = qr_xml_new(out);
    if (!x) {
        parts_free(&p);
        return QR_E_NOMEM;
    }
    qr_xml_decl(x);
    qr_xml_start(x, "styleSheet");
    qr_xml_attr(x, "xmlns", QR_NS_SML);
    write_num_fmts(x, st);
    write_fonts(x, st, &p);
    write_fills(x, st, &p);
    write_borders(x, st, &p);
    write_cell_style_xfs(x);
    write_cell_xfs(x, st, &p);
    write_cell_styles(x);
    write_dxfs(x, st);
    qr_xml_end(x);
    parts_free(&p);
    return qr_xml_free(x);
}

qr_status qr_xlsx_styles_fill(void *ctx, qr_buf *chunk, int *done)
{
    *done = 1;
    return qr_xlsx_styles_write(ctx, chunk);
}
