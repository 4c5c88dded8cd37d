/* xlsx.c: a .xlsx back into a spreadsheet spec. Sheets in workbook order;
 * each sheet's XML streams through libxml2's reader and every row is
 * written out as it ends, so memory holds the shared strings and styles,
 * not the sheet. Cells keep their type (shared and inline strings, numbers,
 * booleans, errors as text), number formats, dates (by format, in the 1900
 * or 1904 date system), formulas with their cached values; widths and
 * frozen panes carry over, and so do cell looks (fonts, fills, borders and
 * alignment as a cell's properties: the header row's bold and a line
 * break's wrap are left to the sheet), merged ranges and the tab colour. */
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "civil.h"
#include "cnum.h"
#include "read_int.h"

typedef struct strtab {
    qr_buf text; /* all strings, each NUL-terminated */
    size_t *off; /* offsets into text */
    size_t n, cap;
} strtab;

typedef struct shared_tab *shared_tab_ptr;

/* A table's totals row (xlsx tables): its cells are the table's. */
typedef struct rd_skip {
    long row, c0, c1;
} rd_skip;

typedef struct xl {
    qr_rd *r;
    strtab sst;
    char **fmt_of_xf; /* per cellXfs index: the format code, NULL for General */
    size_t n_xf;
    int date1904;
    char **look_of_xf; /* per cellXfs index: its look as JSON members ("bold":true,...), or NULL */
    size_t n_look;
    char **look_of_dxf; /* per dxfs index: its look as members with leading commas, or NULL */
    size_t n_dxf;
    const char
        *sheet_names;      /* the open sheet's "names" members ("\"Rate\":\"...\"", ...) or NULL */
    shared_tab_ptr shared; /* the open sheet's shared formulas */
    const char *tables;    /* the open sheet's "tables" objects, comma-separated, or NULL */
    const char *print_area, *print_titles; /* the open sheet's _xlnm. names' texts, or NULL */
    const rd_skip *skip;                   /* its tables' totals rows: cells the tables make */
    size_t n_skip;
} xl;

/* ---- shared strings -------------------------------------------------------------- */

/* Undo the _xHHHH_ escapes OOXML uses for characters XML cannot hold
 * (and _x005F_ for a literal underscore before such a pattern). */
static void unescape_x(qr_buf *s)
{
    if (!s->data || !strstr(s->data, "_x")) return;
    size_t o = 0;
    for (size_t i = 0; i < s->len;) {
        unsigned cp = 0;
        int ok =
            i + 7 <= s->len && s->data[i] == '_' && s->data[i + 1] == 'x' && s->data[i + 6] == '_';
        for (int k = 2; ok && k < 6; k++) {
            char c = s->data[i + k];
            int v = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
            if (v < 0) ok = 0;
            cp = cp * 16 + (unsigned)(v < 0 ? 0 : v);
        }
        if (!ok) {
            s->data[o++] = s->data[i++];
            continue;
        }
        i += 7;
        /* Characters XML forbids stay replaced, as the writer left them readable. */
        if (cp < 0x20 && cp != 9 && cp != 10 && cp != 13) cp = 0xFFFD;
        if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
        if (cp < 0x80) {
            s->data[o++] = (char)cp;
        } else if (cp < 0x800) {
            s->data[o++] = (char)(0xC0 | (cp >> 6));
            s->data[o++] = (char)(0x80 | (cp & 63));
        } else {
            s->data[o++] = (char)(0xE0 | (cp >> 12));
            s->data[o++] = (char)(0x80 | ((cp >> 6) & 63));
            s->data[o++] = (char)(0x80 | (cp & 63));
        }
    }
    s->len = o;
    s->data[o] = '\0';
}

static void sst_push(strtab *t, qr_buf *s)
{
    unescape_x(s);
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        size_t *no = realloc(t->off, cap * sizeof *no);
        if (!no) return;
        t->off = no;
        t->cap = cap;
    }
    t->off[t->n++] = t->text.len;
    qr_buf_append(&t->text, s->data ? s->data : "", s->len);
    qr_buf_putc(&t->text, '\0');
}

static qr_status read_sst(xl *w, const char *part)
{
    xmlTextReaderPtr x = qr_rd_xml_stream(w->r, part);
    if (!x) return w->r->errs->items[0].code;
    qr_buf cur = {0};
    int in_si = 0, in_t = 0, skip = 0;
    while (qr_rd_xml_next(w->r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            int empty = xmlTextReaderIsEmptyElement(x);
            if (qr_rd_is(x, "si")) {
                cur.len = 0;
                in_si = 1;
                if (empty) {
                    sst_push(&w->sst, &cur);
                    in_si = 0;
                }
            } else if (qr_rd_is(x, "rPh")) {
                skip = !empty; /* phonetic guides are not the text */
            } else if (qr_rd_is(x, "t") && in_si && !skip) {
                in_t = !empty;
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "si")) {
                sst_push(&w->sst, &cur);
                in_si = 0;
            } else if (qr_rd_is(x, "t")) {
                in_t = 0;
            } else if (qr_rd_is(x, "rPh")) {
                skip = 0;
            }
        } else if (in_t) {
            const char *s = (const char *)xmlTextReaderConstValue(x);
            if (s) qr_buf_puts(&cur, s);
        }
    }
    qr_buf_free(&cur);
    return qr_rd_xml_free(w->r, x);
}

/* ---- styles ---------------------------------------------------------------------- */

static const char *builtin_fmt(long id)
{
    switch (id) {
    case 1:
        return "0";
    case 2:
        return "0.00";
    case 3:
        return "#,##0";
    case 4:
        return "#,##0.00";
    case 9:
        return "0%";
    case 10:
        return "0.00%";
    case 11:
        return "0.00E+00";
    case 12:
        return "# ?/?";
    case 13:
        return "# ?\?/?\?";
    case 14:
        return "mm-dd-yy";
    case 15:
        return "d-mmm-yy";
    case 16:
        return "d-mmm";
    case 17:
        return "mmm-yy";
    case 18:
        return "h:mm AM/PM";
    case 19:
        return "h:mm:ss AM/PM";
    case 20:
        return "h:mm";
    case 21:
        return "h:mm:ss";
    case 22:
        return "m/d/yy h:mm";
    case 37:
        return "#,##0 ;(#,##0)";
    case 38:
        return "#,##0 ;[Red](#,##0)";
    case 39:
        return "#,##0.00;(#,##0.00)";
    case 40:
        return "#,##0.00;[Red](#,##0.00)";
    case 45:
        return "mm:ss";
    case 46:
        return "[h]:mm:ss";
    case 47:
        return "mmss.0";
    case 48:
        return "##0.0E+0";
    case 49:
        return "@";
    default:
        return NULL;
    }
}

/* Whether a format shows a date or time: d, m, y, h or s outside quotes,
 * escapes and [brackets] (but [h] elapsed hours count). */
static int is_date_fmt(const char *f, int *has_time)
{
    int date = 0;
    *has_time = 0;
    for (const char *p = f; p && *p; p++) {
        if (*p == '"') {
            p = strchr(p + 1, '"');
            if (!p) break;
        } else if (*p == '\\' || *p == '_' || *p == '*') {
            if (p[1]) p++;
        } else if (*p == '[') {
            if ((p[1] == 'h' || p[1] == 'H' || p[1] == 'm' || p[1] == 's') && p[2] == ']')
                *has_time = date = 1;
            const char *e = strchr(p, ']');
            if (!e) break;
            p = e;
        } else if (strchr("dDyY", *p)) {
            date = 1;
        } else if (strchr("hHsS", *p)) {
            date = 1;
            *has_time = 1;
        } else if (*p == 'm' || *p == 'M') {
            date = 1;
        } else if (*p == '0' || *p == '#' || *p == '?' || *p == '@') {
            return 0;
        }
    }
    return date;
}

static qr_status read_styles(xl *w, const char *part)
{
    if (!qr_rd_zip_has(w->r, part)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(w->r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(w->r, data, len, part);
    long *ids = NULL;
    char **codes = NULL;
    size_t n_codes = 0, cap_codes = 0, cap_xf = 0;
    int in_xfs = 0;
    while (x && qr_rd_xml_next(w->r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_END_ELEMENT && qr_rd_is(x, "cellXfs")) in_xfs = 0;
        if (type != XML_READER_TYPE_ELEMENT) continue;
        if (qr_rd_is(x, "numFmt")) {
            if (n_codes == cap_codes) {
                cap_codes = cap_codes ? cap_codes * 2 : 16;
                long *ni = realloc(ids, cap_codes * sizeof *ni);
                char **nc = realloc(codes, cap_codes * sizeof *nc);
                if (ni) ids = ni;
                if (nc) codes = nc;
                if (!ni || !nc) break;
            }
            ids[n_codes] = qr_rd_attr_long(x, "numFmtId", -1);
            codes[n_codes++] = qr_rd_attr(x, "formatCode");
        } else if (qr_rd_is(x, "cellXfs")) {
            in_xfs = !xmlTextReaderIsEmptyElement(x);
        } else if (in_xfs && qr_rd_is(x, "xf")) {
            if (w->n_xf == cap_xf) {
                cap_xf = cap_xf ? cap_xf * 2 : 16;
                char **nf = realloc(w->fmt_of_xf, cap_xf * sizeof *nf);
                if (!nf) break;
                w->fmt_of_xf = nf;
            }
            long id = qr_rd_attr_long(x, "numFmtId", 0);
            const char *code = builtin_fmt(id);
            for (size_t i = 0; i < n_codes; i++)
                if (ids[i] == id && codes[i]) code = codes[i];
            if (id >= 27 && id <= 36) code = "yyyy-mm-dd"; /* East Asian date built-ins */
            if (id >= 50 && id <= 58) code = "yyyy-mm-dd";
            w->fmt_of_xf[w->n_xf++] = code && strcmp(code, "General") != 0 ? strdup(code) : NULL;
        }
    }
    st = qr_rd_xml_free(w->r, x);
    for (size_t i = 0; i < n_codes; i++)
        xmlFree(codes[i]);
    free(codes);
    free(ids);
    free(data);
    return st;
}

/* ---- cell looks -------------------------------------------------------------------- */

/* The fonts, fills and borders of styles.xml as the members of a cell look
 * (compile_look.c's properties), so styles come back as a spec writes them. */
typedef struct lk_font {
    int b, i, u;
    char color[8]; /* "#RRGGBB" or "" */
} lk_font;
typedef struct lk_border {
    char side[4][8]; /* the kinds quire knows, or "" */
    char color[8];
} lk_border;

static void hex_color(xmlTextReaderPtr x, char out[8])
{
    char *v = qr_rd_attr(x, "rgb");
    out[0] = '\0';
    if (v && strlen(v) == 8) snprintf(out, 8, "#%s", v + 2);
    xmlFree(v);
}

static int on(xmlTextReaderPtr x)
{
    char *v = qr_rd_attr(x, "val");
    int r = !v || (strcmp(v, "0") != 0 && strcmp(v, "false") != 0 && strcmp(v, "none") != 0);
    xmlFree(v);
    return r;
}

/* A look's members (",\"bold\":true,...", each with a leading comma)
 * from a font, a fill colour and a border (any may be NULL). */
static void look_members(qr_buf *cur, const lk_font *f, const char *fill, const lk_border *bd)
{
    if (f) {
        if (f->b) qr_buf_puts(cur, ",\"bold\":true");
        if (f->i) qr_buf_puts(cur, ",\"italic\":true");
        if (f->u) qr_buf_puts(cur, ",\"underline\":true");
        if (f->color[0]) qr_buf_printf(cur, ",\"color\":\"%s\"", f->color);
    }
    if (fill && fill[0]) qr_buf_printf(cur, ",\"fill\":\"%s\"", fill);
    if (bd) {
        static const char *const sides[] = {"left", "right", "top", "bottom"};
        int any = 0;
        for (int k = 0; k < 4; k++)
            if (bd->side[k][0]) {
                qr_buf_printf(cur, "%s\"%s\":\"%s\"", any ? "," : ",\"border\":{", sides[k],
                              bd->side[k]);
                any = 1;
            }
        if (any && bd->color[0]) qr_buf_printf(cur, ",\"color\":\"%s\"", bd->color);
        if (any) qr_buf_putc(cur, '}');
    }
}

/* A border side element (left, right, top, bottom) or its colour into *bd;
 * *side: the side open, -1 none. */
static void border_part(xmlTextReaderPtr x, lk_border *bd, int *side)
{
    static const char *const sides[] = {"left", "right", "top", "bottom"};
    static const char *const kinds[] = {"thin", "medium", "thick", "double", "dashed", "dotted"};
    for (int k = 0; k < 4; k++)
        if (qr_rd_is(x, sides[k])) {
            *side = k;
            char *v = qr_rd_attr(x, "style");
            for (size_t j = 0; v && j < sizeof kinds / sizeof kinds[0]; j++)
                if (strcmp(v, kinds[j]) == 0) snprintf(bd->side[k], 8, "%s", kinds[j]);
            xmlFree(v);
        }
    if (qr_rd_is(x, "color") && *side >= 0 && !bd->color[0]) hex_color(x, bd->color);
}

/* One <dxf> of styles.xml: what a conditional format lays over a cell. */
typedef struct lk_dxf {
    lk_font font;
    char fill[8];
    lk_border border;
} lk_dxf;

static void grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return;
    size_t c = *cap ? *cap * 2 : 16;
    void *np = realloc(*p, c * size);
    if (!np) return;
    memset((char *)np + *cap * size, 0, (c - *cap) * size);
    *p = np;
    *cap = c;
}

static qr_status read_looks(xl *w, const char *part)
{
    if (!qr_rd_zip_has(w->r, part)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(w->r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(w->r, data, len, part);
    lk_font *fonts = NULL;
    char(*fills)[8] = NULL;
    lk_border *borders = NULL;
    size_t nf = 0, cf = 0, nl = 0, cl = 0, nb = 0, cb = 0, cx = 0;
    lk_dxf *dxfs = NULL;
    size_t nd = 0, cd = 0;
    int dsub = 0;            /* in a dxf: 1 its font, 2 its fill, 3 its border */
    int sect = 0, side = -1; /* 1 fonts, 2 fills, 3 borders, 4 cellXfs, 5 dxfs */
    qr_buf cur = {0};
    while (x && qr_rd_xml_next(w->r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "fonts") || qr_rd_is(x, "fills") || qr_rd_is(x, "borders") ||
                qr_rd_is(x, "cellXfs") || qr_rd_is(x, "dxfs"))
                sect = 0;
            else if (sect == 5 &&
                     (qr_rd_is(x, "font") || qr_rd_is(x, "fill") || qr_rd_is(x, "border")))
                dsub = 0;
            continue;
        }
        if (type != XML_READER_TYPE_ELEMENT) continue;
        int empty = xmlTextReaderIsEmptyElement(x);
        if (qr_rd_is(x, "fonts"))
            sect = empty ? 0 : 1;
        else if (qr_rd_is(x, "fills"))
            sect = empty ? 0 : 2;
        else if (qr_rd_is(x, "borders"))
            sect = empty ? 0 : 3;
        else if (qr_rd_is(x, "cellXfs"))
            sect = empty ? 0 : 4;
        else if (qr_rd_is(x, "dxfs"))
            sect = empty ? 0 : 5;
        else if (sect == 1 && qr_rd_is(x, "font")) {
            grow((void **)&fonts, &cf, nf, sizeof *fonts);
            if (nf < cf) nf++;
        } else if (sect == 1 && nf) {
            lk_font *f = &fonts[nf - 1];
            if (qr_rd_is(x, "b")) f->b = on(x);
            if (qr_rd_is(x, "i")) f->i = on(x);
            if (qr_rd_is(x, "u")) f->u = on(x);
            if (qr_rd_is(x, "color")) hex_color(x, f->color);
        } else if (sect == 2 && qr_rd_is(x, "fill")) {
            grow((void **)&fills, &cl, nl, sizeof *fills);
            if (nl < cl) nl++;
        } else if (sect == 2 && nl && qr_rd_is(x, "fgColor")) {
            hex_color(x, fills[nl - 1]);
        } else if (sect == 3 && qr_rd_is(x, "border")) {
            grow((void **)&borders, &cb, nb, sizeof *borders);
            if (nb < cb) nb++;
            side = -1;
        } else if (sect == 3 && nb) {
            border_part(x, &borders[nb - 1], &side);
        } else if (sect == 5 && qr_rd_is(x, "dxf")) {
            grow((void **)&dxfs, &cd, nd, sizeof *dxfs);
            if (nd < cd) nd++;
            dsub = 0;
        } else if (sect == 5 && nd) {
            lk_dxf *d = &dxfs[nd - 1];
            if (qr_rd_is(x, "font"))
                dsub = 1;
            else if (qr_rd_is(x, "fill"))
                dsub = 2;
            else if (qr_rd_is(x, "border"))
                dsub = 3, side = -1;
            else if (dsub == 1 && qr_rd_is(x, "b"))
                d->font.b = on(x);
            else if (dsub == 1 && qr_rd_is(x, "i"))
                d->font.i = on(x);
            else if (dsub == 1 && qr_rd_is(x, "u"))
                d->font.u = on(x);
            else if (dsub == 1 && qr_rd_is(x, "color"))
                hex_color(x, d->font.color);
            else if (dsub == 2 && qr_rd_is(x, "bgColor"))
                hex_color(x, d->fill);
            else if (dsub == 2 && qr_rd_is(x, "fgColor") && !d->fill[0])
                hex_color(x, d->fill);
            else if (dsub == 3)
                border_part(x, &d->border, &side);
        } else if (sect == 4 && qr_rd_is(x, "xf")) {
            grow((void **)&w->look_of_xf, &cx, w->n_look, sizeof *w->look_of_xf);
            if (w->n_look >= cx) continue;
            cur.len = 0;
            long fi = qr_rd_attr_long(x, "fontId", 0), li = qr_rd_attr_long(x, "fillId", 0),
                 bi = qr_rd_attr_long(x, "borderId", 0);
            look_members(&cur, fi > 0 && (size_t)fi < nf ? &fonts[fi] : NULL,
                         li > 1 && (size_t)li < nl ? fills[li] : NULL,
                         bi > 0 && (size_t)bi < nb ? &borders[bi] : NULL);
            w->look_of_xf[w->n_look++] = cur.len ? strdup(cur.data + 1) : NULL;
        } else if (sect == 4 && w->n_look && qr_rd_is(x, "alignment")) {
            /* the last xf's alignment: add to its members */
            qr_buf a = {0};
            char *prev = w->look_of_xf[w->n_look - 1];
            if (prev) qr_buf_puts(&a, prev);
            char *h = qr_rd_attr(x, "horizontal"), *v = qr_rd_attr(x, "vertical");
            if (h && (!strcmp(h, "left") || !strcmp(h, "center") || !strcmp(h, "right")))
                qr_buf_printf(&a, "%s\"align\":\"%s\"", a.len ? "," : "", h);
            if (v && (!strcmp(v, "top") || !strcmp(v, "center")))
                qr_buf_printf(&a, "%s\"valign\":\"%s\"", a.len ? "," : "", v);
            xmlFree(h);
            xmlFree(v);
            char *wr = qr_rd_attr(x, "wrapText");
            if (wr && (!strcmp(wr, "1") || !strcmp(wr, "true")))
                qr_buf_printf(&a, "%s\"wrap\":true", a.len ? "," : "");
            xmlFree(wr);
            long ind = qr_rd_attr_long(x, "indent", 0), rot = qr_rd_attr_long(x, "textRotation", 0);
            if (ind > 0 && ind <= 15) qr_buf_printf(&a, "%s\"indent\":%ld", a.len ? "," : "", ind);
            if (rot > 0 && rot <= 180 && rot != 255)
                qr_buf_printf(&a, "%s\"rotate\":%ld", a.len ? "," : "", rot <= 90 ? rot : 90 - rot);
            free(prev);
            w->look_of_xf[w->n_look - 1] = a.len ? strdup(a.data) : NULL;
            qr_buf_free(&a);
        }
    }
    st = qr_rd_xml_free(w->r, x);
    /* the dxfs' looks, for the sheets' conditional formats */
    w->look_of_dxf = nd ? calloc(nd, sizeof *w->look_of_dxf) : NULL;
    for (size_t i = 0; w->look_of_dxf && i < nd; i++) {
        cur.len = 0;
        look_members(&cur, &dxfs[i].font, dxfs[i].fill, &dxfs[i].border);
        w->look_of_dxf[i] = cur.len ? strdup(cur.data) : NULL;
        w->n_dxf = i + 1;
    }
    free(dxfs);
    qr_buf_free(&cur);
    free(fonts);
    free(fills);
    free(borders);
    free(data);
    return st;
}

/* ---- cells ---------------------------------------------------------------------- */

/* "BC12" -> column 54 (0-based 54), row 11; -1 when not a reference. */
static int parse_ref(const char *s, long *col, long *row)
{
    long c = 0, r = 0;
    const char *p = s;
    while (*p >= 'A' && *p <= 'Z')
        c = c * 26 + (*p++ - 'A' + 1);
    if (p == s || !(*p >= '1' && *p <= '9')) return -1;
    while (*p >= '0' && *p <= '9')
        r = r * 10 + (*p++ - '0');
    if (*p || c > 16384 || r > 1048576) return -1;
    *col = c - 1;
    *row = r - 1;
    return 0;
}

static void col_name(long c, char *out)
{
    char tmp[8];
    int n = 0;
    for (c++; c > 0 && n < 7; c = (c - 1) / 26)
        tmp[n++] = (char)('A' + (c - 1) % 26);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
}

/* An Excel serial as ISO 8601; 0 when it is before 1900-03-01 (which quire
 * cannot write as a date). */
static int iso_date(double serial, int with_time, char *out, size_t size)
{
    if (!(serial >= 61) || serial > 2958465) return 0;
    long long secs = llround(serial * 86400.0);
    long days = (long)(secs / 86400);
    long s = (long)(secs % 86400);
    /* Serial 61 = 1900-03-01; serials count from 1899-12-30 from there on. */
    long long y;
    unsigned m, d;
    qr_civil_from_days(QR_EXCEL_EPOCH + days, &y, &m, &d);
    if (with_time)
        snprintf(out, size, "%04lld-%02u-%02uT%02ld:%02ld:%02ld", y, m, d, s / 3600, s / 60 % 60,
                 s % 60);
    else
        snprintf(out, size, "%04lld-%02u-%02u", y, m, d);
    return 1;
}

typedef struct cellv {
    char t[16];
    long xf;
    qr_buf v, f, is;
    int has_v, has_f;
    long si; /* <f t="shared" si="N">: the shared formula's index, else -1 */
} cellv;

/* ---- shared formulas ----------------------------------------------------------- */

/* A shared formula: written once in its first cell (<f t="shared" si="0"
 * ref="B2:B9">SUM(A2:A9)</f>) and named by index in the others (<f
 * t="shared" si="0"/>), which mean the same formula moved by their offset. */
typedef struct shared_f {
    long si, row, col;
    char *text;
} shared_f;

typedef struct shared_tab {
    shared_f *items;
    size_t n, cap;
} shared_tab;

static void shared_put(shared_tab *t, long si, long row, long col, const char *text, size_t len)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i].si == si) {
            char *nt = strndup(text, len);
            if (!nt) return;
            free(t->items[i].text);
            t->items[i] = (shared_f){si, row, col, nt};
            return;
        }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        shared_f *ni = realloc(t->items, cap * sizeof *ni);
        if (!ni) return;
        t->items = ni;
        t->cap = cap;
    }
    char *nt = strndup(text, len);
    if (!nt) return;
    t->items[t->n++] = (shared_f){si, row, col, nt};
}

static const shared_f *shared_get(const shared_tab *t, long si)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i].si == si) return &t->items[i];
    return NULL;
}

static void shared_free(shared_tab *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->items[i].text);
    free(t->items);
    memset(t, 0, sizeof *t);
}

static int ident_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || (unsigned char)c >= 0x80;
}

/* The formula f moved by (drow, dcol): every relative cell reference shifts,
 * $-anchored parts stay; text in "quotes" and 'sheet names' is left alone.
 * A reference moved off the grid becomes #REF!, as Excel writes it. */
static void shift_formula(const char *f, long drow, long dcol, qr_buf *out)
{
    const char *p = f;
    while (*p) {
        if (*p == '"' || *p == '\'') {
            char q = *p;
            const char *e = p + 1;
            while (*e && !(*e == q && e[1] != q))
                e += *e == q ? 2 : 1;
            if (*e) e++;
            qr_buf_append(out, p, (size_t)(e - p));
            p = e;
            continue;
        }
        if (p > f && ident_char(p[-1])) {
            qr_buf_putc(out, *p++);
            continue;
        }
        /* [$]LETTERS[$]DIGITS, not followed by a name character or '(' */
        const char *q = p;
        int cabs = 0, rabs = 0;
        if (*q == '$') cabs = 1, q++;
        const char *cs = q;
        long col = 0;
        while (*q >= 'A' && *q <= 'Z' && q - cs < 3)
            col = col * 26 + (*q++ - 'A' + 1);
        size_t nc = (size_t)(q - cs);
        if (*q == '$') rabs = 1, q++;
        const char *rs = q;
        long row = 0;
        while (*q >= '0' && *q <= '9' && q - rs < 8)
            row = row * 10 + (*q++ - '0');
        size_t nr = (size_t)(q - rs);
        if (!nc || !nr || *rs == '0' || ident_char(*q) || *q == '(' || col > 16384 ||
            row > 1048576) {
            /* not a reference: copy the whole name so its tail is not taken for one */
            const char *e = p;
            while (*e && (ident_char(*e) || *e == '$'))
                e++;
            if (e == p) e++;
            qr_buf_append(out, p, (size_t)(e - p));
            p = e;
            continue;
        }
        if (!cabs) col += dcol;
        if (!rabs) row += drow;
        if (col < 1 || col > 16384 || row < 1 || row > 1048576) {
            qr_buf_puts(out, "#REF!");
        } else {
            char name[8];
            long c = col, k = 0;
            char tmp[8];
            for (; c > 0 && k < 7; c = (c - 1) / 26)
                tmp[k++] = (char)('A' + (c - 1) % 26);
            for (long i = 0; i < k; i++)
                name[i] = tmp[k - 1 - i];
            name[k] = '\0';
            qr_buf_printf(out, "%s%s%s%ld", cabs ? "$" : "", name, rabs ? "$" : "", row);
        }
        p = q;
    }
}

/* Whether s is a number in JSON's grammar (what Excel and quire write). */
static int json_number(const char *s)
{
    const char *p = s;
    if (*p == '-') p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return 0;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == '\0' && p - s < 32;
}

/* One cell's JSON; row and col (0-based) place a shared formula. */
static void write_cell(xl *w, cellv *c, qr_buf *b, long row, long col, const char *sheet)
{
    /* The buffers are reused from cell to cell: terminate them at their length. */
    if (c->v.data) c->v.data[c->v.len] = '\0';
    if (c->f.data) c->f.data[c->f.len] = '\0';
    if (c->is.data) c->is.data[c->is.len] = '\0';
    if (c->has_f && c->si >= 0 && w->shared) {
        if (c->f.len) {
            shared_put(w->shared, c->si, row, col, c->f.data, c->f.len);
        } else {
            const shared_f *m = shared_get(w->shared, c->si);
            if (m) shift_formula(m->text, row - m->row, col - m->col, &c->f);
            if (c->f.data) c->f.data[c->f.len] = '\0';
        }
    }
    if (c->has_f && !c->f.len) {
        /* No formula text (a shared formula whose first cell is missing): the
         * cached value is what can be read. */
        char ref[16];
        col_name(col, ref);
        qr_errlist_addf(
            w->r->warns, QR_OK, "", "the cached value is kept",
            "sheet \"%s\": the cell %s%ld has an empty formula (<f>): read as its value", sheet,
            ref, row + 1);
        c->has_f = 0;
    }
    if (!c->v.len && strcmp(c->t, "str") != 0 && strcmp(c->t, "inlineStr") != 0) c->has_v = 0;
    const char *fmt = c->xf >= 0 && (size_t)c->xf < w->n_xf ? w->fmt_of_xf[c->xf] : NULL;
    const char *v = c->v.data ? c->v.data : "";
    const char *t = c->t;
    if (c->has_f) {
        qr_buf_puts(b, "{\"formula\":");
        qr_buf_json_str(b, c->f.data ? c->f.data : "", c->f.len, 0);
        if (c->has_v) {
            qr_buf_puts(b, ",\"value\":");
            if (strcmp(t, "str") == 0 || strcmp(t, "e") == 0 || strcmp(t, "s") == 0)
                qr_buf_json_str(b, v, c->v.len, 0);
            else if (strcmp(t, "b") == 0)
                qr_buf_puts(b, strcmp(v, "1") == 0 ? "true" : "false");
            else
                qr_rd_jnum(b, qr_strtod_c(v, NULL));
        }
        if (fmt) {
            qr_buf_puts(b, ",\"format\":");
            qr_buf_json_str(b, fmt, strlen(fmt), 0);
        }
        qr_buf_putc(b, '}');
        return;
    }
    const char *text = NULL;
    size_t text_len = 0;
    if (strcmp(t, "s") == 0) {
        long i = strtol(v, NULL, 10);
        if (c->has_v && i >= 0 && (size_t)i < w->sst.n) {
            text = w->sst.text.data + w->sst.off[i];
            text_len = strlen(text);
        } else {
            qr_errlist_addf(w->r->warns, QR_OK, "", NULL,
                            "a cell names shared string %ld, which "
                            "does not exist: read as empty",
                            i);
            qr_buf_puts(b, "null");
            return;
        }
    } else if (strcmp(t, "inlineStr") == 0) {
        unescape_x(&c->is);
        text = c->is.data ? c->is.data : "";
        text_len = c->is.len;
    } else if (strcmp(t, "str") == 0 || strcmp(t, "e") == 0) {
        unescape_x(&c->v);
        v = c->v.data ? c->v.data : "";
        text = v;
        text_len = c->v.len;
    }
    if (!c->has_v && !text) {
        qr_buf_puts(b, "null");
        return;
    }
    if (text) {
        if (fmt) {
            qr_buf_puts(b, "{\"value\":");
            qr_buf_json_str(b, text, text_len, 0);
            qr_buf_puts(b, ",\"format\":");
            qr_buf_json_str(b, fmt, strlen(fmt), 0);
            qr_buf_putc(b, '}');
        } else {
            qr_buf_json_str(b, text, text_len, 0);
        }
        return;
    }
    if (strcmp(t, "b") == 0) {
        const char *bv = strcmp(v, "1") == 0 || strcmp(v, "true") == 0 ? "true" : "false";
        if (fmt) {
            qr_buf_printf(b, "{\"value\":%s,\"format\":", bv);
            qr_buf_json_str(b, fmt, strlen(fmt), 0);
            qr_buf_putc(b, '}');
        } else {
            qr_buf_puts(b, bv);
        }
        return;
    }
    if (strcmp(t, "d") == 0) {
        qr_buf_puts(b, "{\"date\":");
        qr_buf_json_str(b, v, strlen(v) > 19 ? 19 : strlen(v), 0);
        qr_buf_putc(b, '}');
        return;
    }
    if (!fmt && json_number(v)) {
        qr_buf_append(b, v, c->v.len); /* already JSON: no round trip through a double */
        return;
    }
    char *end;
    double num = qr_strtod_c(v, &end);
    if (end == v || !isfinite(num)) {
        qr_buf_json_str(b, v, c->v.len, 0);
        return;
    }
    int has_time = 0;
    char iso[64];
    /* A time of day or a duration (h:mm, [h]:mm:ss: no day, month or year)
     * is a number with its format, not a date, in either date system. */
    if (fmt && is_date_fmt(fmt, &has_time) && has_time && !strpbrk(fmt, "dDyY") && num < 61)
        has_time = -1;
    if (fmt && has_time >= 0 && is_date_fmt(fmt, &has_time) &&
        iso_date(w->date1904 ? num + 1462 : num, has_time, iso, sizeof iso)) {
        qr_buf_puts(b, "{\"date\":");
        qr_buf_json_str(b, iso, strlen(iso), 0);
        const char *def = has_time ? "yyyy-mm-dd hh:mm:ss" : "yyyy-mm-dd";
        if (strcmp(fmt, def) != 0) {
            qr_buf_puts(b, ",\"format\":");
            qr_buf_json_str(b, fmt, strlen(fmt), 0);
        }
        qr_buf_putc(b, '}');
        return;
    }
    if (fmt) {
        qr_buf_puts(b, "{\"value\":");
        qr_rd_jnum(b, num);
        qr_buf_puts(b, ",\"format\":");
        qr_buf_json_str(b, fmt, strlen(fmt), 0);
        qr_buf_putc(b, '}');
    } else if (json_number(v)) {
        qr_buf_append(b, v, c->v.len); /* already JSON: no round trip through a double */
    } else {
        qr_rd_jnum(b, num);
    }
}

/* ---- one sheet ------------------------------------------------------------------ */

/* Rows and cells are written sparsely: a row opens only when a cell with
 * content arrives, so empty rows and cells at the end of a sheet (an empty
 * <row r="1048576"/>, styled empty cells) cost nothing. The empty rows and
 * null cells written before a far cell are padding, bounded per sheet by
 * PAD_FLOOR or PAD_PER_CELL times the cells with content: a cell past that
 * (one value at XFD1048576) is not read, with a warning naming it. */
#define PAD_FLOOR ((long)1 << 20)
#define PAD_PER_CELL 8

typedef struct sheet_state {
    long row;     /* rows written (the open one included once closed) */
    long col;     /* cells written in the open row */
    int in_row;   /* a row array is open */
    long cur_row; /* the row the file is in (0-based), from <row r> */
    long padded;  /* empty rows and null cells written as padding */
    long cells;   /* cells with content written */
    long dropped; /* far cells not read */
    char first_dropped[32];
    long behind; /* cells before one already read (a repeated <row r>, a column again) */
    char first_behind[32];
    double widths[256];
    long n_widths;
    long freeze_col, freeze_row;
    int filter;
    qr_buf merges; /* the "merge" ranges as JSON strings, comma-separated */
    char tab[8];   /* "tab_color", or "" */
    qr_buf conds;  /* the "conditional" rules as JSON objects, comma-separated */
    qr_buf valids; /* the "validation" rules likewise */
    qr_rd_print print;
} sheet_state;

/* A cell's link or comment, read before its cell is written: the
 * comments from the sheet's comments part, the links from <hyperlinks>
 * (which follows the rows: a sheet with links is read twice). */
typedef struct rd_note {
    long row, col;
    char *link, *comment; /* malloc'd, or NULL */
} rd_note;
typedef struct rd_notes {
    rd_note *items;
    size_t n, cap;
    size_t next; /* the first not written yet */
} rd_notes;

static int note_cmp(const void *a, const void *b)
{
    const rd_note *x = a, *y = b;
    if (x->row != y->row) return x->row < y->row ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

/* The note of (row, col), added when new; NULL on OOM. */
static rd_note *note_at(rd_notes *t, long row, long col)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->items[i].row == row && t->items[i].col == col) return &t->items[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        rd_note *ni = realloc(t->items, cap * sizeof *ni);
        if (!ni) return NULL;
        t->items = ni;
        t->cap = cap;
    }
    t->items[t->n] = (rd_note){row, col, NULL, NULL};
    return &t->items[t->n++];
}

static void notes_free(rd_notes *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->items[i].link);
        free(t->items[i].comment);
    }
    free(t->items);
    memset(t, 0, sizeof *t);
}

/* A note's members ("link":"...","comment":"...") into out. */
static void note_members(const rd_note *nt, qr_buf *out)
{
    out->len = 0;
    if (nt->link) {
        qr_buf_puts(out, "\"link\":");
        qr_buf_json_str(out, nt->link, strlen(nt->link), 0);
    }
    if (nt->comment) {
        qr_buf_puts(out, nt->link ? ",\"comment\":" : "\"comment\":");
        qr_buf_json_str(out, nt->comment, strlen(nt->comment), 0);
    }
    qr_buf_putc(out, '\0');
}

/* The <dataValidation> being read. */
typedef struct dv_read {
    int in;
    char type[16], op[24], sqref[256];
    int blank;
    qr_buf prompt, error;
    int has_prompt, has_error;
    qr_buf f[2]; /* <formula1>, <formula2> */
    int n_f;
} dv_read;

/* The <cfRule> being read (of the <conditionalFormatting> over sqref). */
typedef struct cf_read {
    char sqref[256];
    int in_rule;
    char type[24], op[24];
    long dxf;
    char colors[3][8];
    int n_colors;
    qr_buf f[2]; /* its <formula> texts */
    int n_f;
} cf_read;

static void close_row(qr_buf *b, sheet_state *s)
{
    if (!s->in_row) return;
    qr_buf_putc(b, ']');
    s->in_row = 0;
    s->row++;
}

/* Put a cell's JSON at (row, col); 0 when it lies past the padding budget,
 * -1 when it lies before a cell already written (rows are written as they
 * come: a cell is read in place or not at all). */
static int place_cell(qr_buf *b, sheet_state *s, long row, long col, const char *json, size_t n)
{
    long open = s->in_row ? s->row : -1;
    if (row < s->row || (row == open && col < s->col)) return -1;
    long pad_rows = row == open ? 0 : row - s->row;
    long from = row == open ? s->col : 0;
    if (col < from) col = from;
    long pad = pad_rows + (col - from);
    long budget = PAD_FLOOR > s->cells * PAD_PER_CELL ? PAD_FLOOR : s->cells * PAD_PER_CELL;
    if (pad > 0 && s->padded + pad > budget) return 0;
    s->padded += pad;
    if (row != open) {
        close_row(b, s);
        for (; s->row < row; s->row++)
            qr_buf_puts(b, s->row ? ",[]" : "[]");
        qr_buf_puts(b, s->row ? ",[" : "[");
        s->in_row = 1;
        s->col = 0;
    }
    for (; s->col < col; s->col++)
        qr_buf_puts(b, s->col ? ",null" : "null");
    if (s->col) qr_buf_putc(b, ',');
    qr_buf_append(b, json, n);
    s->col++;
    s->cells++;
    return 1;
}

/* The sheet's SAX state: the row and cell being read. */
typedef struct sheet_sax {
    xl *w;
    const char *name;
    qr_buf *b;
    sheet_state s;
    cellv c;
    int in_cell, where; /* where: 1 <v>, 2 <f>, 3 <is><t>, 4 a <cfRule>'s <formula>,
                           5 a <dataValidation>'s <formula1|2>, 6 <oddHeader>, 7 <oddFooter> */
    long cell_col, cell_row;
    qr_buf one; /* the cell's JSON */
    shared_tab shared;
    cf_read cf;
    dv_read dv;
    rd_notes *notes;        /* the sheet's links and comments (sorted), or NULL */
    const qr_rd_rels *rels; /* the sheet's relationships (external links) */
    rd_notes links;         /* <hyperlinks> met (the first reading) */
    int links_done;         /* the links are in notes already: the second reading */
} sheet_sax;

/* An attribute as a NUL-terminated copy in buf (cut to its size), or NULL. */
static const char *attr(int nattr, const xmlChar **attrs, const char *local, char *buf, size_t size)
{
    size_t len;
    const char *v = qr_rd_sax_attr(nattr, attrs, local, &len);
    if (!v) return NULL;
    if (len >= size) len = size - 1;
    memcpy(buf, v, len);
    buf[len] = '\0';
    qr_rd_sax_amp(buf, len);
    return buf;
}

static long attr_long(int nattr, const xmlChar **attrs, const char *local, long def)
{
    char buf[32];
    const char *v = attr(nattr, attrs, local, buf, sizeof buf);
    if (!v) return def;
    char *end;
    long n = strtol(v, &end, 10);
    return end == v ? def : n;
}

/* Lay a cell's look (JSON members) onto its JSON in one: a value becomes
 * {"value": v, look}, an object gains the members, null (a styled blank)
 * becomes {look}. A text with a line break wraps by itself: its "wrap" is
 * not a look. */
static void add_look(qr_buf *one, const char *look)
{
    if (!one->data) return;
    qr_buf lk = {0}, out = {0};
    const char *w = strstr(look, "\"wrap\":true");
    int nl = 0;
    for (size_t i = 0; i + 1 < one->len && !nl; i++)
        nl = one->data[i] == '\\' && one->data[i + 1] == 'n';
    if (w && nl) {
        qr_buf_append(&lk, look, (size_t)(w - look));
        const char *rest = w + strlen("\"wrap\":true");
        if (*rest == ',')
            rest++;
        else if (lk.len && lk.data[lk.len - 1] == ',')
            lk.len--;
        qr_buf_puts(&lk, rest);
    } else {
        qr_buf_puts(&lk, look);
    }
    if (lk.len) {
        if (one->len == 4 && memcmp(one->data, "null", 4) == 0) {
            qr_buf_printf(&out, "{%.*s}", (int)lk.len, lk.data);
        } else if (one->data[0] == '{') {
            qr_buf_append(&out, one->data, one->len - 1);
            qr_buf_printf(&out, ",%.*s}", (int)lk.len, lk.data);
        } else {
            qr_buf_puts(&out, "{\"value\":");
            qr_buf_append(&out, one->data, one->len);
            qr_buf_printf(&out, ",%.*s}", (int)lk.len, lk.data);
        }
        one->len = 0;
        qr_buf_append(one, out.data, out.len);
    }
    qr_buf_free(&lk);
    qr_buf_free(&out);
}

/* The notes of cells the file has no <c> for, before (row, col) (LONG_MAX:
 * all that are left), as cells of their own. */
static void flush_notes(sheet_sax *x, long row, long col)
{
    rd_notes *t = x->notes;
    while (t && t->next < t->n &&
           (t->items[t->next].row < row ||
            (t->items[t->next].row == row && t->items[t->next].col < col))) {
        const rd_note *nt = &t->items[t->next++];
        qr_buf m = {0};
        note_members(nt, &m);
        if (m.data) {
            qr_buf one = {0};
            qr_buf_printf(&one, "{%s}", m.data);
            if (one.data) place_cell(x->b, &x->s, nt->row, nt->col, one.data, one.len);
            qr_buf_free(&one);
        }
        qr_buf_free(&m);
    }
}

static void end_cell(sheet_sax *x)
{
    x->in_cell = 0;
    x->where = 0;
    qr_rd *r = x->w->r;
    if (r->errs->count) return;
    for (size_t i = 0; i < x->w->n_skip; i++) { /* a table's totals row: the table makes it */
        const rd_skip *k = &x->w->skip[i];
        if (x->cell_row == k->row && x->cell_col >= k->c0 && x->cell_col <= k->c1) return;
    }
    x->one.len = 0;
    write_cell(x->w, &x->c, &x->one, x->cell_row, x->cell_col, x->name);
    const char *look =
        x->c.xf >= 0 && (size_t)x->c.xf < x->w->n_look ? x->w->look_of_xf[x->c.xf] : NULL;
    /* the header row's bold is the sheet's "header", not a look */
    if (look && x->cell_row == 0 && strcmp(look, "\"bold\":true") == 0) look = NULL;
    const rd_note *here = NULL;
    if (x->notes) {
        rd_notes *t = x->notes;
        flush_notes(x, x->cell_row, x->cell_col);
        if (t->next < t->n && t->items[t->next].row == x->cell_row &&
            t->items[t->next].col == x->cell_col)
            here = &t->items[t->next];
    }
    /* a link's own look (Excel's Hyperlink style: blue, underlined) is the
     * link's, not the cell's */
    char lk[512];
    if (look && here && here->link && strlen(look) < sizeof lk) {
        static const char *const drop[] = {"\"underline\":true", "\"color\":\"#0563C1\""};
        size_t o = 0;
        for (const char *p = look; *p;) {
            const char *e = strchr(p, ',');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            int skip = 0;
            for (int d = 0; d < 2; d++)
                skip |= n == strlen(drop[d]) && strncmp(p, drop[d], n) == 0;
            if (!skip) {
                if (o) lk[o++] = ',';
                memcpy(lk + o, p, n);
                o += n;
            }
            p += n + (e ? 1 : 0);
        }
        lk[o] = '\0';
        look = o ? lk : NULL;
    }
    if (look) add_look(&x->one, look);
    if (here && here->link && !look && x->one.data) { /* a link alone shows its address */
        const char *a = here->link[0] == '#' ? here->link + 1 : here->link;
        if (strncasecmp(a, "mailto:", 7) == 0) a += 7;
        qr_buf js = {0};
        qr_buf_json_str(&js, a, strlen(a), 0);
        if (js.data && js.len == x->one.len && memcmp(js.data, x->one.data, js.len) == 0) {
            x->one.len = 0;
            qr_buf_puts(&x->one, "null");
        }
        qr_buf_free(&js);
    }
    if (x->notes) {
        rd_notes *t = x->notes;
        flush_notes(x, x->cell_row, x->cell_col);
        if (t->next < t->n && t->items[t->next].row == x->cell_row &&
            t->items[t->next].col == x->cell_col) {
            qr_buf m = {0};
            note_members(&t->items[t->next++], &m);
            if (m.data) add_look(&x->one, m.data);
            qr_buf_free(&m);
        }
    }
    if (!x->one.data || (x->one.len == 4 && memcmp(x->one.data, "null", 4) == 0)) return;
    int placed = place_cell(x->b, &x->s, x->cell_row, x->cell_col, x->one.data, x->one.len);
    if (placed < 0) {
        if (!x->s.behind++) {
            char ref[8];
            col_name(x->cell_col, ref);
            snprintf(x->s.first_behind, sizeof x->s.first_behind, "%s%ld", ref, x->cell_row + 1);
        }
        return;
    }
    if (!placed) {
        if (!x->s.dropped++) {
            char ref[8];
            col_name(x->cell_col, ref);
            snprintf(x->s.first_dropped, sizeof x->s.first_dropped, "%s%ld", ref, x->cell_row + 1);
        }
        return;
    }
    if (r->max_output && x->b->len > r->max_output)
        qr_rd_fail(r, QR_E_LIMIT, "", "raise it with --max-output BYTES (0 disables it)",
                   "sheet \"%s\": what was read passes %zu bytes (the limit max_output)", x->name,
                   r->max_output);
}

static void sheet_start(void *ctx, const char *local, int nattr, const xmlChar **attrs)
{
    sheet_sax *x = ctx;
    char buf[64];
    switch (local[0]) {
    case 'c':
        if (local[1] == '\0') {
            cellv *c = &x->c;
            const char *t = attr(nattr, attrs, "t", buf, sizeof buf);
            if (!t) t = "n";
            size_t k = 0;
            for (; t[k] && k + 1 < sizeof c->t; k++)
                c->t[k] = t[k];
            c->t[k] = '\0';
            c->xf = attr_long(nattr, attrs, "s", -1);
            c->v.len = c->f.len = c->is.len = 0;
            c->has_v = c->has_f = 0;
            c->si = -1;
            const char *ref = attr(nattr, attrs, "r", buf, sizeof buf);
            long col, row;
            int open = x->s.in_row && x->s.row == x->s.cur_row;
            if (ref && parse_ref(ref, &col, &row) == 0) {
                x->cell_col = col;
                x->cell_row = row;
            } else {
                x->cell_col = open ? x->s.col : 0;
                x->cell_row = x->s.cur_row < 0 ? 0 : x->s.cur_row;
            }
            x->in_cell = 1;
            return;
        }
        if (strcmp(local, "conditionalFormatting") == 0) {
            const char *v = attr(nattr, attrs, "sqref", x->cf.sqref, sizeof x->cf.sqref);
            if (!v) x->cf.sqref[0] = '\0';
            return;
        }
        if (strcmp(local, "cfRule") == 0) {
            cf_read *r = &x->cf;
            r->in_rule = 1;
            if (!attr(nattr, attrs, "type", r->type, sizeof r->type)) r->type[0] = '\0';
            if (!attr(nattr, attrs, "operator", r->op, sizeof r->op)) r->op[0] = '\0';
            r->dxf = attr_long(nattr, attrs, "dxfId", -1);
            r->n_colors = r->n_f = 0;
            r->f[0].len = r->f[1].len = 0;
            return;
        }
        if (strcmp(local, "color") == 0 && x->cf.in_rule && x->cf.n_colors < 3) {
            char v[16];
            const char *rgb = attr(nattr, attrs, "rgb", v, sizeof v);
            if (rgb && strlen(rgb) == 8)
                snprintf(x->cf.colors[x->cf.n_colors++], 8, "#%s", rgb + 2);
            return;
        }
        if (strcmp(local, "col") == 0) {
            long lo = attr_long(nattr, attrs, "min", 0), hi = attr_long(nattr, attrs, "max", 0);
            const char *wv = attr(nattr, attrs, "width", buf, sizeof buf);
            double wd = wv ? qr_strtod_c(wv, NULL) : 0;
            for (long i = lo; i >= 1 && i <= hi && i <= 256; i++) {
                x->s.widths[i - 1] = wd;
                if (i > x->s.n_widths) x->s.n_widths = i;
            }
        }
        return;
    case 'v':
        if (x->in_cell && local[1] == '\0') x->where = 1, x->c.has_v = 1;
        return;
    case 'd':
        if (strcmp(local, "dataValidation") == 0) {
            dv_read *d = &x->dv;
            d->in = 1;
            if (!attr(nattr, attrs, "type", d->type, sizeof d->type)) d->type[0] = '\0';
            if (!attr(nattr, attrs, "operator", d->op, sizeof d->op))
                snprintf(d->op, 24, "between");
            if (!attr(nattr, attrs, "sqref", d->sqref, sizeof d->sqref)) d->sqref[0] = '\0';
            char v[8];
            const char *bl = attr(nattr, attrs, "allowBlank", v, sizeof v);
            d->blank = bl && (!strcmp(bl, "1") || !strcmp(bl, "true"));
            size_t len;
            const char *t;
            d->prompt.len = d->error.len = 0;
            d->has_prompt = d->has_error = 0;
            if ((t = qr_rd_sax_attr(nattr, attrs, "prompt", &len)) != NULL) {
                qr_buf_append(&d->prompt, t, len);
                qr_buf_putc(&d->prompt, '\0');
                d->prompt.len = qr_rd_sax_amp(d->prompt.data, len);
                d->has_prompt = 1;
            }
            if ((t = qr_rd_sax_attr(nattr, attrs, "error", &len)) != NULL) {
                qr_buf_append(&d->error, t, len);
                qr_buf_putc(&d->error, '\0');
                d->error.len = qr_rd_sax_amp(d->error.data, len);
                d->has_error = 1;
            }
            d->n_f = 0;
            d->f[0].len = d->f[1].len = 0;
        }
        return;
    case 'f':
        if (x->dv.in && (strcmp(local, "formula1") == 0 || strcmp(local, "formula2") == 0)) {
            x->where = 5;
            x->dv.n_f = local[7] == '1' ? 0 : 1;
            x->dv.f[x->dv.n_f].len = 0;
            return;
        }
        if (x->cf.in_rule && strcmp(local, "formula") == 0 && x->cf.n_f < 2) {
            x->where = 4;
            return;
        }
        if (x->in_cell && local[1] == '\0') {
            x->where = 2, x->c.has_f = 1;
            const char *t = attr(nattr, attrs, "t", buf, sizeof buf);
            if (t && strcmp(t, "shared") == 0) x->c.si = attr_long(nattr, attrs, "si", -1);
        }
        return;
    case 'r':
        if (strcmp(local, "row") == 0) {
            long r = attr_long(nattr, attrs, "r", x->s.cur_row + 2) - 1;
            if (r < 0) r = 0;
            if (r > 1048575) r = 1048575;
            flush_notes(x, r, 0); /* the notes of cells before it with no <c> */
            /* a row number again (a broken writer): its cells go on in place */
            if (!(x->s.in_row && x->s.row == r)) close_row(x->b, &x->s);
            x->s.cur_row = r;
        } else if (strcmp(local, "rPh") == 0) {
            x->where = -1; /* phonetic guides are not the text */
        }
        return;
    case 'o':
        if (strcmp(local, "oddHeader") == 0 || strcmp(local, "oddFooter") == 0) {
            x->where = local[3] == 'H' ? 6 : 7;
            (x->where == 6 ? &x->s.print.header : &x->s.print.footer)->len = 0;
        }
        return;
    case 'p':
        if (strcmp(local, "pageSetUpPr") == 0) {
            const char *v = attr(nattr, attrs, "fitToPage", buf, sizeof buf);
            x->s.print.fit = v && (!strcmp(v, "1") || !strcmp(v, "true"));
        } else if (strcmp(local, "pageSetup") == 0) {
            qr_rd_print *p = &x->s.print;
            const char *v = attr(nattr, attrs, "orientation", buf, sizeof buf);
            p->landscape = v && strcmp(v, "landscape") == 0;
            p->paper = (int)attr_long(nattr, attrs, "paperSize", 0);
            p->fit_width = attr_long(nattr, attrs, "fitToWidth", 1);
            p->fit_height = attr_long(nattr, attrs, "fitToHeight", 1);
        } else if (strcmp(local, "printOptions") == 0) {
            const char *v = attr(nattr, attrs, "gridLines", buf, sizeof buf);
            if (v) x->s.print.gridlines = !strcmp(v, "1") || !strcmp(v, "true");
        } else if (strcmp(local, "pageMargins") == 0) {
            static const char *const sides[] = {"top", "right", "bottom", "left"};
            for (int k = 0; k < 4; k++) {
                const char *v = attr(nattr, attrs, sides[k], buf, sizeof buf);
                x->s.print.has_margin[k] = v != NULL;
                x->s.print.margin[k] = v ? qr_strtod_c(v, NULL) : 0;
            }
        }
        if (strcmp(local, "pane") == 0) {
            const char *state = attr(nattr, attrs, "state", buf, sizeof buf);
            if (state && strncmp(state, "frozen", 6) == 0) {
                x->s.freeze_col = attr_long(nattr, attrs, "xSplit", 0);
                x->s.freeze_row = attr_long(nattr, attrs, "ySplit", 0);
            }
        }
        return;
    case 'a':
        if (strcmp(local, "autoFilter") == 0) x->s.filter = 1;
        return;
    case 't':
        if (strcmp(local, "tabColor") == 0) {
            const char *v = attr(nattr, attrs, "rgb", buf, sizeof buf);
            if (v && strlen(v) == 8) snprintf(x->s.tab, sizeof x->s.tab, "#%s", v + 2);
        }
        if (x->in_cell && local[1] == '\0') x->where = 3;
        return;
    case 'h':
        if (strcmp(local, "hyperlink") == 0 && !x->links_done) {
            char ref[64], id[64];
            long col, row;
            const char *rf = attr(nattr, attrs, "ref", ref, sizeof ref);
            if (!rf || parse_ref(rf, &col, &row) != 0) return; /* a range: its first cell */
            const char *rid = attr(nattr, attrs, "id", id, sizeof id);
            const qr_rd_rel *rel = rid && x->rels ? qr_rd_rels_get(x->rels, rid) : NULL;
            size_t len;
            const char *loc = qr_rd_sax_attr(nattr, attrs, "location", &len);
            char *link = NULL;
            if (rel && rel->external && rel->target && qr_link_ok(rel->target)) {
                link = strdup(rel->target); /* others (file:, ftp:) the spec cannot hold */
            } else if (loc && len) {
                link = malloc(len + 2);
                if (link) {
                    link[0] = '#';
                    memcpy(link + 1, loc, len);
                    link[len + 1] = '\0';
                    qr_rd_sax_amp(link + 1, len);
                }
            }
            rd_note *nt = link ? note_at(&x->links, row, col) : NULL;
            if (nt && !nt->link)
                nt->link = link;
            else
                free(link);
        }
        return;
    case 'm':
        if (strcmp(local, "mergeCell") == 0) {
            char ref[64];
            const char *rf = attr(nattr, attrs, "ref", ref, sizeof ref);
            if (rf && strchr(rf, ':') && strlen(rf) < 32) { /* the sheet's "merge" */
                qr_buf_puts(&x->s.merges, x->s.merges.len ? ",\"" : "\"");
                for (const char *p = rf; *p; p++)
                    if (*p != '$') qr_buf_putc(&x->s.merges, *p);
                qr_buf_putc(&x->s.merges, '"');
            }
        }
        return;
    default:
        return;
    }
}

/* One object per range of a space-separated sqref into the JSON list out: {"range":"A1:B2"
 * followed by body (the rule's other members, its comma first or not), "$"s dropped. */
static void put_per_range(qr_buf *out, const char *sqref, const qr_buf *body)
{
    for (const char *p = sqref; body->len && *p;) {
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if (e > p && e - p < 32) {
            qr_buf_puts(out, out->len ? ",{\"range\":\"" : "{\"range\":\"");
            for (const char *q = p; q < e; q++)
                if (*q != '$') qr_buf_putc(out, *q);
            qr_buf_puts(out, body->data[0] == ',' ? "\"" : "\",");
            qr_buf_append(out, body->data, body->len);
            qr_buf_putc(out, '}');
        }
        p = e;
    }
}

/* A <cfRule> read: the "conditional" rules it stands for (one per range
 * of its sqref), when quire's language says it: cell comparisons with a
 * number or a text, formulas, colour scales and data bars, with the look
 * of their dxf. Others (top 10, duplicates, icon sets...) are left out. */
static void end_cf_rule(sheet_sax *x)
{
    cf_read *r = &x->cf;
    r->in_rule = 0;
    for (int i = 0; i < r->n_f; i++)
        if (r->f[i].data) r->f[i].data[r->f[i].len] = '\0';
    qr_buf body = {0};
    const char *look =
        r->dxf >= 0 && (size_t)r->dxf < x->w->n_dxf ? x->w->look_of_dxf[r->dxf] : NULL;
    if (strcmp(r->type, "cellIs") == 0 && look && r->n_f) {
        static const char *const ops[][2] = {{"lessThan", "<"},      {"lessThanOrEqual", "<="},
                                             {"greaterThan", ">"},   {"greaterThanOrEqual", ">="},
                                             {"equal", "="},         {"notEqual", "!="},
                                             {"between", "between"}, {"notBetween", "not_between"}};
        const char *op = NULL;
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (strcmp(r->op, ops[i][0]) == 0) op = ops[i][1];
        const char *f0 = r->f[0].data ? r->f[0].data : "";
        size_t n0 = r->f[0].len;
        int range = op && (op[0] == 'b' || op[0] == 'n');
        if (!op) {
        } else if (range && r->n_f == 2 && json_number(f0) && r->f[1].data &&
                   json_number(r->f[1].data)) {
            qr_buf_printf(&body, "\"rule\":\"cell\",\"op\":\"%s\",\"value\":[%s,%s]", op, f0,
                          r->f[1].data);
        } else if (!range && json_number(f0)) {
            qr_buf_printf(&body, "\"rule\":\"cell\",\"op\":\"%s\",\"value\":%s", op, f0);
        } else if (!range && (op[0] == '=' || op[0] == '!') && n0 >= 2 && f0[0] == '"' &&
                   f0[n0 - 1] == '"') {
            /* a string literal: its doubled quotes one */
            qr_buf t = {0};
            for (size_t i = 1; i + 1 < n0; i++) {
                qr_buf_putc(&t, f0[i]);
                if (f0[i] == '"' && f0[i + 1] == '"') i++;
            }
            qr_buf_printf(&body, "\"rule\":\"cell\",\"op\":\"%s\",\"value\":", op);
            qr_buf_json_str(&body, t.data ? t.data : "", t.len, 0);
            qr_buf_free(&t);
        }
        if (body.len) qr_buf_puts(&body, look);
    } else if (strcmp(r->type, "expression") == 0 && look && r->n_f && r->f[0].len) {
        qr_buf_puts(&body, "\"rule\":\"formula\",\"formula\":");
        qr_buf_json_str(&body, r->f[0].data, r->f[0].len, 0);
        qr_buf_puts(&body, look);
    } else if (strcmp(r->type, "colorScale") == 0 && r->n_colors >= 2) {
        qr_buf_puts(&body, "\"rule\":\"color_scale\"");
        int dflt = r->n_colors == 3 && !strcmp(r->colors[0], "#F8696B") &&
                   !strcmp(r->colors[1], "#FFEB84") && !strcmp(r->colors[2], "#63BE7B");
        for (int i = 0; !dflt && i < r->n_colors; i++)
            qr_buf_printf(&body, "%s\"%s\"", i ? "," : ",\"colors\":[", r->colors[i]);
        if (!dflt) qr_buf_putc(&body, ']');
    } else if (strcmp(r->type, "dataBar") == 0) {
        qr_buf_puts(&body, "\"rule\":\"data_bar\"");
        if (r->n_colors && strcmp(r->colors[0], "#638EC6") != 0)
            qr_buf_printf(&body, ",\"bar_color\":\"%s\"", r->colors[0]);
    }
    /* one rule per range of the sqref */
    put_per_range(&x->s.conds, r->sqref, &body);
    qr_buf_free(&body);
}

/* A bound of a number, whole or date validation as JSON, or 0. */
static int dv_bound_json(const dv_read *d, const char *f, qr_buf *out)
{
    if (!json_number(f)) return 0;
    if (strcmp(d->type, "date") == 0) {
        char iso[40];
        double v = qr_strtod_c(f, NULL);
        if (v != floor(v) || !iso_date(v, 0, iso, sizeof iso)) return 0;
        qr_buf_printf(out, "\"%s\"", iso);
    } else {
        qr_buf_puts(out, f);
    }
    return 1;
}

/* A <dataValidation> read: the "validation" rules it stands for (one per
 * range of its sqref) when quire's language says it: a list of literal
 * items, a number, whole number or date between bounds (or from one
 * bound); others (a list from cells, text length, custom formulas) are
 * left out. */
static void end_validation(sheet_sax *x)
{
    dv_read *d = &x->dv;
    d->in = 0;
    for (int i = 0; i < 2; i++)
        if (d->f[i].data) d->f[i].data[d->f[i].len] = '\0';
    const char *f1 = d->f[0].data ? d->f[0].data : "", *f2 = d->f[1].data ? d->f[1].data : "";
    size_t n1 = d->f[0].len;
    qr_buf body = {0};
    if (strcmp(d->type, "list") == 0 && n1 >= 2 && f1[0] == '"' && f1[n1 - 1] == '"' &&
        !memchr(f1 + 1, '"', n1 - 2)) {
        qr_buf_puts(&body, ",\"list\":[");
        const char *p = f1 + 1, *end = f1 + n1 - 1;
        while (p <= end) {
            const char *c = memchr(p, ',', (size_t)(end - p));
            if (!c) c = end;
            if (body.len > 9) qr_buf_putc(&body, ',');
            qr_buf_json_str(&body, p, (size_t)(c - p), 0);
            p = c + 1;
        }
        qr_buf_putc(&body, ']');
    } else if (!strcmp(d->type, "decimal") || !strcmp(d->type, "whole") ||
               !strcmp(d->type, "date")) {
        const char *key = d->type[0] == 'd' && d->type[1] == 'e' ? "number" : d->type;
        qr_buf b = {0};
        int ok = 0;
        if (!strcmp(d->op, "between")) {
            qr_buf_puts(&b, "{\"min\":");
            ok = dv_bound_json(d, f1, &b);
            qr_buf_puts(&b, ",\"max\":");
            ok = ok && dv_bound_json(d, f2, &b);
        } else if (!strcmp(d->op, "greaterThanOrEqual")) {
            qr_buf_puts(&b, "{\"min\":");
            ok = dv_bound_json(d, f1, &b);
        } else if (!strcmp(d->op, "lessThanOrEqual")) {
            qr_buf_puts(&b, "{\"max\":");
            ok = dv_bound_json(d, f1, &b);
        }
        if (ok) qr_buf_printf(&body, ",\"%s\":%.*s}", key, (int)b.len, b.data);
        qr_buf_free(&b);
    }
    if (body.len) {
        if (d->has_prompt) {
            qr_buf_puts(&body, ",\"prompt\":");
            qr_buf_json_str(&body, d->prompt.data, d->prompt.len, 0);
        }
        if (d->has_error) {
            qr_buf_puts(&body, ",\"error\":");
            qr_buf_json_str(&body, d->error.data, d->error.len, 0);
        }
        if (!d->blank) qr_buf_puts(&body, ",\"blank\":false");
    }
    put_per_range(&x->s.valids, d->sqref, &body);
    qr_buf_free(&body);
}

static void sheet_end(void *ctx, const char *local)
{
    sheet_sax *x = ctx;
    if (x->where >= 6 && (strcmp(local, "oddHeader") == 0 || strcmp(local, "oddFooter") == 0)) {
        qr_buf_putc(x->where == 6 ? &x->s.print.header : &x->s.print.footer, '\0');
        x->where = 0;
        return;
    }
    if (x->where == 5 && (strcmp(local, "formula1") == 0 || strcmp(local, "formula2") == 0)) {
        x->where = 0;
        return;
    }
    if (x->dv.in && strcmp(local, "dataValidation") == 0) {
        end_validation(x);
        return;
    }
    if (x->where == 4 && strcmp(local, "formula") == 0) {
        x->where = 0;
        x->cf.n_f++;
        return;
    }
    if (x->cf.in_rule && strcmp(local, "cfRule") == 0) {
        end_cf_rule(x);
        return;
    }
    if (local[1] == '\0' && (local[0] == 'v' || local[0] == 'f' || local[0] == 't')) {
        x->where = 0;
    } else if (local[0] == 'c' && local[1] == '\0' && x->in_cell) {
        end_cell(x);
    } else if (strcmp(local, "row") == 0) {
        flush_notes(x, x->s.cur_row, LONG_MAX); /* the row's notes on cells with no <c> */
        /* the row stays open until a cell of another row (or the sheet's end):
         * a <row r> given again goes on in place */
    } else if (strcmp(local, "rPh") == 0) {
        x->where = 0;
    }
}

static void sheet_text(void *ctx, const char *s, int len)
{
    sheet_sax *x = ctx;
    if (x->where == 4) {
        qr_buf_append(&x->cf.f[x->cf.n_f], s, (size_t)len);
        return;
    }
    if (x->where == 5) {
        qr_buf_append(&x->dv.f[x->dv.n_f], s, (size_t)len);
        return;
    }
    if (x->where >= 6) {
        qr_buf_append(x->where == 6 ? &x->s.print.header : &x->s.print.footer, s, (size_t)len);
        return;
    }
    if (!x->in_cell || x->where <= 0) return;
    qr_buf *dst = x->where == 1 ? &x->c.v : x->where == 2 ? &x->c.f : &x->c.is;
    qr_buf_append(dst, s, (size_t)len);
}

/* One reading of a sheet into the spec. notes: its comments (and, on the
 * second reading, links); a first reading that meets links adds them to
 * notes, takes back what it wrote and returns with *again set. */
static qr_status read_sheet_once(xl *w, const char *part, const char *name, rd_notes *notes,
                                 const qr_rd_rels *rels, int *again)
{
    qr_buf *b = &w->r->spec;
    size_t start = b->len;
    /* The rows come first in the file; head keys are written after them. */
    qr_buf_puts(b, "{\"name\":");
    qr_buf_json_str(b, name, strlen(name), 0);
    qr_buf_puts(b, ",\"rows\":[");
    sheet_sax x;
    memset(&x, 0, sizeof x);
    x.w = w;
    x.name = name;
    x.b = b;
    x.s.cur_row = -1;
    x.s.print.gridlines = -1;
    x.notes = notes;
    x.rels = rels;
    x.links_done = *again;
    *again = 0;
    if (notes) notes->next = 0;
    w->shared = &x.shared;
    qr_rd_sax sax = {sheet_start, sheet_end, sheet_text, &x};
    qr_status st = qr_rd_sax_stream(w->r, part, &sax);
    sheet_state *s = &x.s;
    if (st == QR_OK && x.links.n && notes) { /* the links come after the rows: again */
        for (size_t i = 0; i < x.links.n; i++) {
            rd_note *nt = note_at(notes, x.links.items[i].row, x.links.items[i].col);
            if (nt && !nt->link) {
                nt->link = x.links.items[i].link;
                x.links.items[i].link = NULL;
            }
        }
        qsort(notes->items, notes->n, sizeof *notes->items, note_cmp);
        *again = 1;
        b->len = start;
    }
    notes_free(&x.links);
    if (!*again) {
        flush_notes(&x, LONG_MAX, 0);
        close_row(b, s);
    }
    if (s->dropped && !*again)
        qr_errlist_addf(
            w->r->warns, QR_OK, part, "a spec's rows have no gaps; move the cells nearer",
            "sheet \"%s\": %ld cell%s far past the others (first %s) not read: the "
            "empty rows and cells before %s would pass %ld (the reader's padding bound)",
            name, s->dropped, s->dropped == 1 ? "" : "s", s->first_dropped,
            s->dropped == 1 ? "it" : "them",
            PAD_FLOOR > s->cells * PAD_PER_CELL ? PAD_FLOOR : s->cells * PAD_PER_CELL);
    if (s->behind && !*again)
        qr_errlist_addf(
            w->r->warns, QR_OK, part,
            "a worksheet lists its rows, and each row its cells, in order; save the "
            "file again from a spreadsheet application",
            "sheet \"%s\": %ld cell%s (first %s) not read: the file gives %s after "
            "a cell that comes later on the sheet (a row number or a column given again)",
            name, s->behind, s->behind == 1 ? "" : "s", s->first_behind,
            s->behind == 1 ? "it" : "them");
    w->shared = NULL;
    shared_free(&x.shared);
    qr_buf_free(&x.one);
    qr_buf_free(&x.c.v);
    qr_buf_free(&x.c.f);
    qr_buf_free(&x.c.is);
    qr_buf_free(&x.cf.f[0]);
    qr_buf_free(&x.cf.f[1]);
    qr_buf_free(&x.dv.f[0]);
    qr_buf_free(&x.dv.f[1]);
    qr_buf_free(&x.dv.prompt);
    qr_buf_free(&x.dv.error);
    if (*again) {
        qr_buf_free(&s->print.header);
        qr_buf_free(&s->print.footer);
        qr_buf_free(&s->merges);
        qr_buf_free(&s->conds);
        qr_buf_free(&s->valids);
        return st;
    }
    qr_buf_putc(b, ']');
    if (s->filter) qr_buf_puts(b, ",\"header\":true");
    if ((s->freeze_row || s->freeze_col) &&
        !(s->filter && s->freeze_row == 1 && s->freeze_col == 0)) {
        char ref[16];
        col_name(s->freeze_col, ref);
        qr_buf_printf(b, ",\"freeze\":\"%s%ld\"", ref, s->freeze_row + 1);
    }
    if (s->n_widths) {
        qr_buf_puts(b, ",\"widths\":[");
        for (long i = 0; i < s->n_widths; i++) {
            if (i) qr_buf_putc(b, ',');
            qr_rd_jnum(b, s->widths[i] > 0 ? s->widths[i] : 8.43);
        }
        qr_buf_putc(b, ']');
    }
    if (s->merges.len) {
        qr_buf_puts(b, ",\"merge\":[");
        qr_buf_append(b, s->merges.data, s->merges.len);
        qr_buf_putc(b, ']');
    }
    qr_buf_free(&s->merges);
    if (s->tab[0]) qr_buf_printf(b, ",\"tab_color\":\"%s\"", s->tab);
    if (s->conds.len) {
        qr_buf_puts(b, ",\"conditional\":[");
        qr_buf_append(b, s->conds.data, s->conds.len);
        qr_buf_putc(b, ']');
    }
    qr_buf_free(&s->conds);
    if (s->valids.len) {
        qr_buf_puts(b, ",\"validation\":[");
        qr_buf_append(b, s->valids.data, s->valids.len);
        qr_buf_putc(b, ']');
    }
    qr_buf_free(&s->valids);
    if (w->sheet_names) qr_buf_printf(b, ",\"names\":{%s}", w->sheet_names);
    if (w->tables) qr_buf_printf(b, ",\"tables\":[%s]", w->tables);
    qr_rd_xlsx_print_json(&s->print, w->print_area, w->print_titles, b);
    qr_buf_free(&s->print.header);
    qr_buf_free(&s->print.footer);
    qr_buf_putc(b, '}');
    return st;
}

/* ---- comments ------------------------------------------------------------------------ */

/* A sheet's cell comments (xl/commentsN.xml, what Excel, LibreOffice and
 * openpyxl write; Excel's threaded comments keep one there too) into
 * notes: each comment's text, its runs joined. rels: the sheet's. */
static qr_status read_comments(xl *w, const qr_rd_rels *rels, rd_notes *notes)
{
    qr_rd *r = w->r;
    const qr_rd_rel *rel = qr_rd_rels_type(rels, "/comments");
    if (!rel || rel->external || !qr_rd_zip_has(r, rel->target)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, rel->target, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, rel->target);
    int in_text = 0, in_t = 0, in_rph = 0;
    long row = -1, col = -1;
    qr_buf text = {0};
    while (x && qr_rd_xml_next(r, x, rel->target) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            if (qr_rd_is(x, "comment")) {
                char *ref = qr_rd_attr(x, "ref");
                if (!ref || parse_ref(ref, &col, &row) != 0) row = col = -1;
                xmlFree(ref);
                text.len = 0;
            } else if (qr_rd_is(x, "text")) {
                in_text = 1;
            } else if (qr_rd_is(x, "rPh")) {
                in_rph = !xmlTextReaderIsEmptyElement(x);
            } else if (in_text && !in_rph && qr_rd_is(x, "t")) {
                in_t = !xmlTextReaderIsEmptyElement(x);
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "t")) in_t = 0;
            if (qr_rd_is(x, "rPh")) in_rph = 0;
            if (qr_rd_is(x, "text")) in_text = 0;
            if (qr_rd_is(x, "comment") && row >= 0 && text.len) {
                rd_note *nt = note_at(notes, row, col);
                if (nt && !nt->comment) {
                    unescape_x(&text);
                    nt->comment = strdup(text.data);
                }
            }
        } else if (in_t) {
            const char *v = (const char *)xmlTextReaderConstValue(x);
            if (v) qr_buf_puts(&text, v);
        }
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    qr_buf_free(&text);
    qsort(notes->items, notes->n, sizeof *notes->items, note_cmp);
    return st;
}

/* ---- tables ---------------------------------------------------------------------------- */

/* The tables of a sheet (its xl/tables/tableN.xml parts) as the spec's
 * "tables" (JSON objects, comma-separated, in out) and the totals rows,
 * whose cells the table makes (skip: row, first and last column). */
typedef struct tbl_walk {
    qr_buf *out;
    qr_buf totals; /* members of "totals" */
    char name[256], ref[64], style[32];
    long totals_rows;
    int first;
} tbl_walk;

static int table_element(xmlTextReaderPtr x, void *arg)
{
    tbl_walk *t = arg;
    if (qr_rd_is(x, "table")) {
        char *n = qr_rd_attr(x, "displayName");
        if (!n) n = qr_rd_attr(x, "name");
        char *ref = qr_rd_attr(x, "ref"), *tr = qr_rd_attr(x, "totalsRowCount");
        snprintf(t->name, sizeof t->name, "%s", n ? n : "");
        snprintf(t->ref, sizeof t->ref, "%s", ref ? ref : "");
        t->totals_rows = tr ? strtol(tr, NULL, 10) : 0;
        xmlFree(n);
        xmlFree(ref);
        xmlFree(tr);
    } else if (qr_rd_is(x, "tableColumn")) {
        static const char *const fns[][2] = {{"sum", "sum"},     {"average", "average"},
                                             {"count", "count"}, {"countNums", "count_nums"},
                                             {"min", "min"},     {"max", "max"}};
        char *n = qr_rd_attr(x, "name"), *f = qr_rd_attr(x, "totalsRowFunction");
        char *l = qr_rd_attr(x, "totalsRowLabel");
        const char *fn = NULL;
        for (size_t i = 0; f && i < sizeof fns / sizeof *fns; i++)
            if (strcmp(f, fns[i][0]) == 0) fn = fns[i][1];
        if (n && (fn || l)) {
            if (t->totals.len) qr_buf_putc(&t->totals, ',');
            qr_buf_json_str(&t->totals, n, strlen(n), 0);
            if (fn) {
                qr_buf_printf(&t->totals, ":\"%s\"", fn);
            } else {
                qr_buf_puts(&t->totals, ":{\"label\":");
                qr_buf_json_str(&t->totals, l, strlen(l), 0);
                qr_buf_putc(&t->totals, '}');
            }
        }
        xmlFree(n);
        xmlFree(f);
        xmlFree(l);
    } else if (qr_rd_is(x, "tableStyleInfo")) {
        char *n = qr_rd_attr(x, "name");
        static const char *const kinds[] = {"Light", "Medium", "Dark"};
        for (int k = 0; n && k < 3; k++) {
            size_t kl = strlen("TableStyle") + strlen(kinds[k]);
            char pre[32];
            snprintf(pre, sizeof pre, "TableStyle%s", kinds[k]);
            if (strncmp(n, pre, kl) == 0 && n[kl] >= '1' && n[kl] <= '9' && strlen(n + kl) <= 2)
                snprintf(t->style, sizeof t->style, "%c%s%s", kinds[k][0] + 32, kinds[k] + 1,
                         n + kl);
        }
        xmlFree(n);
    }
    return 0;
}

static qr_status read_tables(xl *w, const qr_rd_rels *rels, qr_buf *out, rd_skip **skip,
                             size_t *n_skip)
{
    qr_status st = QR_OK;
    for (size_t i = 0; i < rels->n && st == QR_OK; i++) {
        const qr_rd_rel *rel = &rels->items[i];
        size_t tl = strlen(rel->type);
        if (rel->external || tl < 6 || strcmp(rel->type + tl - 6, "/table") != 0 ||
            !qr_rd_zip_has(w->r, rel->target))
            continue;
        tbl_walk t = {.out = out};
        snprintf(t.style, sizeof t.style, "none");
        st = qr_rd_part_elements(w->r, rel->target, table_element, &t);
        long c0, r0, c1, r1;
        const char *colon = strchr(t.ref, ':');
        char a[32];
        if (st == QR_OK && colon && (size_t)(colon - t.ref) < sizeof a && t.name[0]) {
            memcpy(a, t.ref, (size_t)(colon - t.ref));
            a[colon - t.ref] = '\0';
            if (parse_ref(a, &c0, &r0) == 0 && parse_ref(colon + 1, &c1, &r1) == 0 &&
                r1 - t.totals_rows > r0) {
                long last = r1 - (t.totals_rows > 0 ? 1 : 0);
                char ca[8], cz[8];
                col_name(c0, ca);
                col_name(c1, cz);
                if (out->len) qr_buf_putc(out, ',');
                qr_buf_puts(out, "{\"name\":");
                qr_buf_json_str(out, t.name, strlen(t.name), 0);
                qr_buf_printf(out, ",\"range\":\"%s%ld:%s%ld\",\"style\":\"%s\"", ca, r0 + 1, cz,
                              last + 1, t.style);
                if (t.totals_rows > 0) {
                    if (t.totals.len)
                        qr_buf_printf(out, ",\"totals\":{%.*s}", (int)t.totals.len, t.totals.data);
                    rd_skip *ns = realloc(*skip, (*n_skip + 1) * sizeof *ns);
                    if (ns) {
                        ns[*n_skip] = (rd_skip){last + 1, c0, c1};
                        *skip = ns;
                        ++*n_skip;
                    }
                }
                qr_buf_putc(out, '}');
            }
        }
        qr_buf_free(&t.totals);
    }
    return st;
}

/* A sheet: its comments, then its rows (twice when it has links). */
static qr_status read_sheet(xl *w, const char *part, const char *name)
{
    qr_rd_rels rels;
    qr_status st = qr_rd_rels_read(w->r, part, &rels);
    if (st != QR_OK) return st;
    rd_notes notes = {0};
    st = read_comments(w, &rels, &notes);
    qr_buf tables = {0};
    rd_skip *skip = NULL;
    size_t n_skip = 0;
    if (st == QR_OK) st = read_tables(w, &rels, &tables, &skip, &n_skip);
    w->tables = tables.len ? tables.data : NULL;
    w->skip = skip;
    w->n_skip = n_skip;
    int again = 0;
    if (st == QR_OK) st = read_sheet_once(w, part, name, &notes, &rels, &again);
    if (st == QR_OK && again) st = read_sheet_once(w, part, name, &notes, &rels, &again);
    w->tables = NULL;
    w->skip = NULL;
    w->n_skip = 0;
    qr_buf_free(&tables);
    free(skip);
    notes_free(&notes);
    qr_rd_rels_free(&rels);
    return st;
}

/* ---- the workbook ----------------------------------------------------------------- */

typedef struct sheet_ref {
    char *name, *rid;
} sheet_ref;

/* workbook.xml: the 1904 date system flag, the sheets in order and the
 * defined names (the workbook's, and each sheet's by its index). */
typedef struct book_walk {
    xl *w;
    sheet_ref *sheets;
    size_t n, cap;
    qr_buf names;        /* the workbook's "names" members */
    qr_buf *sheet_names; /* per sheet index (n_sheet_names) */
    size_t n_sheet_names;
    char **print_area, **print_titles; /* per sheet index (n_print): the _xlnm. names' texts */
    size_t n_print;
} book_walk;

/* Whether a defined name's text is a reference quire's "names" take:
 * Sheet!$A$1 or Sheet!$A$1:$B$2 (the sheet quoted or not). */
static int plain_name_ref(const char *t)
{
    const char *bang = t ? strrchr(t, '!') : NULL;
    if (!bang || bang == t || strlen(bang + 1) > 30) return 0;
    int colons = 0;
    for (const char *p = bang + 1; *p; p++) {
        if (*p == ':')
            colons++;
        else if (!(*p == '$' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
                   (*p >= '0' && *p <= '9')))
            return 0;
    }
    return colons <= 1 && bang[1];
}

static int book_element(xmlTextReaderPtr x, void *arg)
{
    book_walk *bw = arg;
    if (qr_rd_is(x, "workbookPr")) {
        char *v = qr_rd_attr(x, "date1904");
        bw->w->date1904 = v && (strcmp(v, "1") == 0 || strcmp(v, "true") == 0);
        xmlFree(v);
    } else if (qr_rd_is(x, "sheet")) {
        if (bw->n == bw->cap) {
            size_t cap = bw->cap ? bw->cap * 2 : 8;
            sheet_ref *ns = realloc(bw->sheets, cap * sizeof *ns);
            if (!ns) return 1;
            bw->sheets = ns;
            bw->cap = cap;
        }
        bw->sheets[bw->n].name = qr_rd_attr(x, "name");
        bw->sheets[bw->n].rid = qr_rd_attr(x, "id");
        bw->n++;
    } else if (qr_rd_is(x, "definedName")) {
        /* a name the spec can hold: a reference, not one of Excel's own
         * (_xlnm.*: filters, print areas) */
        char *name = qr_rd_attr(x, "name");
        char *local = qr_rd_attr(x, "localSheetId");
        char *text = (char *)xmlTextReaderReadString(x);
        long sid = local ? strtol(local, NULL, 10) : -1;
        int area = name && strcmp(name, "_xlnm.Print_Area") == 0;
        if (text && sid >= 0 && sid < 4096 &&
            (area || (name && strcmp(name, "_xlnm.Print_Titles") == 0))) {
            if ((size_t)sid >= bw->n_print) {
                size_t n = (size_t)sid + 1;
                char **a = realloc(bw->print_area, n * sizeof *a);
                if (a) bw->print_area = a;
                char **t = a ? realloc(bw->print_titles, n * sizeof *t) : NULL;
                if (t) bw->print_titles = t;
                if (a && t) {
                    for (size_t i = bw->n_print; i < n; i++)
                        a[i] = t[i] = NULL;
                    bw->n_print = n;
                }
            }
            if ((size_t)sid < bw->n_print) {
                char **dst = area ? &bw->print_area[sid] : &bw->print_titles[sid];
                free(*dst);
                *dst = strdup(text);
            }
        }
        if (name && strncmp(name, "_xlnm.", 6) != 0 && plain_name_ref(text) && sid < 4096) {
            qr_buf *dst = &bw->names;
            if (sid >= 0) {
                if ((size_t)sid >= bw->n_sheet_names) {
                    qr_buf *g = realloc(bw->sheet_names, ((size_t)sid + 1) * sizeof *g);
                    if (g) {
                        memset(g + bw->n_sheet_names, 0,
                               ((size_t)sid + 1 - bw->n_sheet_names) * sizeof *g);
                        bw->sheet_names = g;
                        bw->n_sheet_names = (size_t)sid + 1;
                    }
                }
                dst = (size_t)sid < bw->n_sheet_names ? &bw->sheet_names[sid] : NULL;
            }
            if (dst) {
                if (dst->len) qr_buf_putc(dst, ',');
                qr_buf_json_str(dst, name, strlen(name), 0);
                qr_buf_putc(dst, ':');
                qr_buf_json_str(dst, text, strlen(text), 0);
            }
        }
        xmlFree(name);
        xmlFree(local);
        xmlFree(text);
    }
    return 0;
}

qr_status qr_rd_xlsx(qr_rd *r)
{
    xl w;
    memset(&w, 0, sizeof w);
    w.r = r;
    r->kind = QR_KIND_SPREADSHEET;
    qr_rd_rels rels;
    qr_status st;
    char *book = qr_rd_main_part(r, "xl/workbook.xml", &st);
    if (!book) return st;
    st = qr_rd_rels_read(r, book, &rels);
    book_walk bw = {.w = &w};
    if (st == QR_OK) st = qr_rd_part_elements(r, book, book_element, &bw);
    sheet_ref *sheets = bw.sheets;
    size_t n_sheets = bw.n;
    const qr_rd_rel *sst = qr_rd_rels_type(&rels, "/sharedStrings");
    const qr_rd_rel *sty = qr_rd_rels_type(&rels, "/styles");
    if (st == QR_OK && sst && qr_rd_zip_has(r, sst->target)) st = read_sst(&w, sst->target);
    if (st == QR_OK && sty) st = read_styles(&w, sty->target);
    if (st == QR_OK && sty) st = read_looks(&w, sty->target);
    if (st == QR_OK) {
        qr_buf *b = &r->spec;
        qr_buf_putc(b, '{');
        qr_rd_put_title(r);
        if (bw.names.len) {
            qr_buf_puts(b, "\"names\":{");
            qr_buf_append(b, bw.names.data, bw.names.len);
            qr_buf_puts(b, "},");
        }
        qr_buf_puts(b, "\"sheets\":[");
        int first = 1;
        for (size_t i = 0; i < n_sheets && st == QR_OK; i++) {
            const qr_rd_rel *rel = qr_rd_rels_get(&rels, sheets[i].rid);
            const char *nm = sheets[i].name ? sheets[i].name : "Sheet";
            if (!rel || rel->external || !strstr(rel->type, "/worksheet")) {
                qr_errlist_addf(r->warns, QR_OK, "", "only worksheets are read",
                                "skipped the sheet \"%s\" (a chart sheet or missing part)", nm);
                continue;
            }
            if (!first) qr_buf_putc(b, ',');
            first = 0;
            qr_buf *sn = i < bw.n_sheet_names ? &bw.sheet_names[i] : NULL;
            if (sn && sn->len) qr_buf_putc(sn, '\0');
            w.sheet_names = sn && sn->len ? sn->data : NULL;
            w.print_area = i < bw.n_print ? bw.print_area[i] : NULL;
            w.print_titles = i < bw.n_print ? bw.print_titles[i] : NULL;
            st = read_sheet(&w, rel->target, nm);
        }
        qr_buf_puts(b, "]}");
    }
    for (size_t i = 0; i < n_sheets; i++) {
        xmlFree(sheets[i].name);
        xmlFree(sheets[i].rid);
    }
    free(sheets);
    qr_buf_free(&bw.names);
    for (size_t i = 0; i < bw.n_sheet_names; i++)
        qr_buf_free(&bw.sheet_names[i]);
    free(bw.sheet_names);
    for (size_t i = 0; i < bw.n_print; i++) {
        free(bw.print_area[i]);
        free(bw.print_titles[i]);
    }
    free(bw.print_area);
    free(bw.print_titles);
    for (size_t i = 0; i < w.n_xf; i++)
        free(w.fmt_of_xf[i]);
    free(w.fmt_of_xf);
    for (size_t i = 0; i < w.n_look; i++)
        free(w.look_of_xf[i]);
    free(w.look_of_xf);
    for (size_t i = 0; i < w.n_dxf; i++)
        free(w.look_of_dxf[i]);
    free(w.look_of_dxf);
    qr_buf_free(&w.sst.text);
    free(w.sst.off);
    qr_rd_rels_free(&rels);
    free(book);
    return st;
}
