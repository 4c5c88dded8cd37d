/* compile_doc.c: the document vocabulary shared by document, pdf and html:
 * top-level keys, page settings, legacy "sections" (expanded into heading +
 * paragraph blocks placed before "blocks"), every block type, and tables
 * (also used by slides). Also title/lang checks used by every kind. */
#include <ctype.h>
#include <stdlib.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compile_int.h"
#include "markdown.h"
#include "schema.h"
#include "suggest.h"
#include "words.h"

/* The keys of every object here are those of the schema table (schema_table.c). */

/* ---- title and lang ---------------------------------------------------------- */

/* BCP 47, lightly: a 2-3 letter (or 4-8 letter) language subtag, then
 * subtags of 1-8 letters or digits joined by '-' ("en", "de-CH", "zh-Hans-CN"). */
static int lang_ok(const char *s)
{
    size_t i = 0, n = 0;
    while (isalpha((unsigned char)s[i]))
        i++;
    if (i < 2 || i > 8) return 0;
    while (s[i]) {
        if (s[i] != '-' && s[i] != '_') return 0;
        i++;
        n = 0;
        while (isalnum((unsigned char)s[i]))
            i++, n++;
        if (n < 1 || n > 8) return 0;
    }
    return 1;
}

void qr_cc_title_lang(qr_cc *cc, json_t *root)
{
    const char *t = NULL;
    size_t n = 0;
    if (qr_cc_get_string(cc, root, "title", 0, &t, &n) == 1 && n)
        cc->doc->title = qr_cc_plain_at(cc, "title", t, n);
    const char *lang = NULL;
    if (qr_cc_get_string(cc, root, "lang", 0, &lang, &n) == 1) {
        if (!lang_ok(lang))
            qr_cc_err_key(cc, "lang", "use a language tag like \"en\", \"de-CH\" or \"zh-Hans\"",
                          "\"%.40s\" is not a language tag", lang);
        else
            cc->doc->lang = lang;
    }
    qr_cc_theme(cc, root);
}

/* "theme" and "accent" (style.h), for every kind. */
void qr_cc_theme(qr_cc *cc, json_t *root)
{
    const char *t = NULL, *a = NULL;
    size_t n = 0;
    if (qr_cc_get_string(cc, root, "theme", 0, &t, &n) == 1) {
        int id = qr_theme_find(t);
        if (id < 0) {
            char hint[160];
            const char *s = qr_suggest(t, qr_theme_names);
            char quoted[120], all[80];
            qr_enum_list(qr_theme_names, 1, " or ", quoted, sizeof quoted);
            qr_enum_list(qr_theme_names, 0, ", ", all, sizeof all);
            if (s)
                snprintf(hint, sizeof hint, "did you mean \"%s\"?", s);
            else
                snprintf(hint, sizeof hint, "use %s", quoted);
            qr_cc_err_key(cc, "theme", hint, "unknown theme \"%.40s\"; the themes are %s", t, all);
        } else
            cc->doc->theme = id;
    }
    if (qr_cc_get_string(cc, root, "accent", 0, &a, &n) == 1) {
        int ok = n == 7 && a[0] == '#';
        for (size_t i = 1; ok && i < 7; i++)
            ok = isxdigit((unsigned char)a[i]) != 0;
        if (!ok)
            qr_cc_err_key(cc, "accent", "write the colour as \"#RRGGBB\", e.g. \"#2563EB\"",
                          "\"%.40s\" is not a colour", a);
        else
            cc->doc->accent = QR_STYLE_ACCENT_SET | strtol(a + 1, NULL, 16);
    }
}

/* ---- page ------------------------------------------------------------------- */

static const struct {
    const char *name;
    double w, h;
} sizes[] = {
    {"Letter", 612, 792},
    {"A4", 595.28, 841.89},
    {"A5", 419.53, 595.28},
    {"Legal", 612, 1008},
};

static int margin_value(qr_cc *cc, json_t *v, double *out)
{
    double d;
    if (!qr_cc_number(v, &d)) {
        qr_cc_err(cc, "margins are in points: 72 is one inch", "expected a number, got %s",
                  qr_cc_type_name(v));
        return -1;
    }
    if (d < 0 || d > 10000) {
        char num[32];
        qr_fmt_double(d, num);
        qr_cc_err(cc, "margins are in points: 72 is one inch",
                  "expected a margin from 0 to 10000 points, got %s", num);
        return -1;
    }
    *out = d;
    return 0;
}

/* A header or footer template (layout/furniture.h): a string whose
 * "{name}" fields are qr_page_fields; copied into *out. */
static void furniture(qr_cc *cc, json_t *v, const char *key, const char **out)
{
    json_t *t = json_object_get(v, key);
    if (!t) return;
    size_t o = qr_cc_push_key(cc, key);
    if (!json_is_string(t)) {
        qr_cc_err(cc, "a text like \"{title}, page {page} of {pages}\"; \"\" for none",
                  "expected a string, got %s", qr_cc_type_name(t));
        qr_cc_pop(cc, o);
        return;
    }
    const char *s = json_string_value(t);
    for (const char *p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
        size_t n = 0;
        while (p[1 + n] && (isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_'))
            n++;
        if (!n || p[1 + n] != '}') continue; /* not a field: plain text */
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(n < 31 ? n : 31), p + 1);
        int known = 0;
        for (int i = 0; qr_page_fields[i]; i++)
            known |= !strcmp(name, qr_page_fields[i]);
        if (known) continue;
        const char *near = qr_suggest(name, qr_page_fields);
        char hint[96];
        if (near)
            snprintf(hint, sizeof hint, "did you mean {%s}?", near);
        else
            snprintf(hint, sizeof hint, "the fields are {page}, {pages}, {title} and {date}");
        qr_cc_err(cc, hint, "unknown field {%s}", name);
        break;
    }
    *out = qr_arena_strdup(cc->a, s);
    qr_cc_pop(cc, o);
}

static void page(qr_cc *cc, json_t *v)
{
    qr_page *pg = &cc->doc->page;
    size_t old = qr_cc_push_key(cc, "page");
    if (!json_is_object(v)) {
        qr_cc_err(cc, "page is an object like {\"size\": \"A4\", \"orientation\": \"landscape\"}",
                  "expected an object, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, old);
        return;
    }
    qr_cc_check_obj(cc, v, QR_SO_PAGE, "page");
    json_t *size = json_object_get(v, "size");
    if (size) {
        size_t o = qr_cc_push_key(cc, "size");
        int found = 0;
        if (json_is_string(size)) {
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                if (strcasecmp(json_string_value(size), sizes[i].name) == 0) {
                    pg->width = sizes[i].w;
                    pg->height = sizes[i].h;
                    pg->size_name = sizes[i].name;
                    found = 1;
                }
            }
        }
        if (!found) {
            if (json_is_string(size))
                qr_cc_err(cc, "use \"Letter\", \"A4\", \"A5\" or \"Legal\"",
                          "unknown page size \"%.40s\"", json_string_value(size));
            else
                qr_cc_err(cc, "use \"Letter\", \"A4\", \"A5\" or \"Legal\"",
                          "expected a page size name, got %s", qr_cc_type_name(size));
        }
        qr_cc_pop(cc, o);
    }
    json_t *orient = json_object_get(v, "orientation");
    if (orient) {
        const char *s = json_is_string(orient) ? json_string_value(orient) : NULL;
        if (s && strcasecmp(s, "landscape") == 0)
            pg->landscape = 1;
        else if (s && strcasecmp(s, "portrait") == 0)
            pg->landscape = 0;
        else
            qr_cc_err_key(cc, "orientation", "use \"portrait\" or \"landscape\"",
                          "expected \"portrait\" or \"landscape\", got %s%.40s%s", s ? "\"" : "",
                          s ? s : qr_cc_type_name(orient), s ? "\"" : "");
    }
    json_t *m = json_object_get(v, "margins");
    if (m) {
        size_t o = qr_cc_push_key(cc, "margins");
        double d;
        if (json_is_number(m)) {
            if (margin_value(cc, m, &d) == 0)
                pg->margin_top = pg->margin_right = pg->margin_bottom = pg->margin_left = d;
        } else if (json_is_object(m)) {
            const char *margin_keys[QR_SCHEMA_MAX_KEYS + 1];
            qr_schema_names(QR_SO_MARGINS, margin_keys);
            qr_cc_check_obj(cc, m, QR_SO_MARGINS, "margins");
            double *slots[] = {&pg->margin_top, &pg->margin_right, &pg->margin_bottom,
                               &pg->margin_left};
            for (int i = 0; i < 4; i++) {
                json_t *e = json_object_get(m, margin_keys[i]);
                if (!e) continue;
                size_t o2 = qr_cc_push_key(cc, margin_keys[i]);
                if (margin_value(cc, e, &d) == 0) *slots[i] = d;
                qr_cc_pop(cc, o2);
            }
        } else {
            qr_cc_err(cc,
                      "use a number of points for all sides, or {\"top\", \"right\", \"bottom\", "
                      "\"left\"}",
                      "expected a number or an object, got %s", qr_cc_type_name(m));
        }
        qr_cc_pop(cc, o);
    }
    furniture(cc, v, "header", &pg->header);
    furniture(cc, v, "footer", &pg->footer);
    json_t *first = json_object_get(v, "first_page");
    if (first) {
        if (json_is_boolean(first))
            pg->no_first = json_is_false(first);
        else
            qr_cc_err_key(cc, "first_page",
                          "true shows the header and footer on page 1 too, false leaves it bare",
                          "expected true or false, got %s", qr_cc_type_name(first));
    }
    if (pg->landscape) {
        double t = pg->width;
        pg->width = pg->height;
        pg->height = t;
    }
    if (pg->width - pg->margin_left - pg->margin_right <= 0 ||
        pg->height - pg->margin_top - pg->margin_bottom <= 0) {
        char w[32], h[32];
        qr_fmt_double(pg->width, w);
        qr_fmt_double(pg->height, h);
        qr_cc_err_key(cc, "margins", "make the margins smaller",
                      "the margins leave no room for text on a %s x %s pt page", w, h);
    }
    qr_cc_pop(cc, old);
}

/* ---- tables ------------------------------------------------------------------ */

static const char *const align_names[] = {"auto", "left", "center", "right", NULL};

/* An "align" value at the current path: 1..3 (auto is 0), -1 when wrong. */
static int align_value(qr_cc *cc, json_t *v)
{
    const char *a = json_is_string(v) ? json_string_value(v) : NULL;
    for (int i = 0; a && align_names[i]; i++)
        if (strcmp(a, align_names[i]) == 0) return i;
    const char *sg = a ? qr_suggest(a, align_names) : NULL;
    char hint[80];
    if (sg)
        snprintf(hint, sizeof hint, "did you mean \"%s\"?", sg);
    else
        snprintf(hint, sizeof hint, "use \"left\", \"center\" or \"right\"");
    qr_cc_err(cc, hint, "expected \"left\", \"center\", \"right\" or \"auto\", got %s%.40s%s",
              a ? "\"" : "", a ? a : qr_cc_type_name(v), a ? "\"" : "");
    return -1;
}

/* The most rows a cell spans. */
#define QR_MAX_ROWSPAN 65535

/* A cell object's "colspan", "rowspan", "align", "fill" and "bold"
 * (document tables). */
static int cell_look(qr_cc *cc, json_t *v, qr_tcell *c)
{
    int bad = 0;
    c->colspan = 1;
    c->rowspan = 1;
    json_t *cs = json_object_get(v, "colspan"), *al = json_object_get(v, "align");
    json_t *fl = json_object_get(v, "fill"), *bo = json_object_get(v, "bold");
    json_t *rs = json_object_get(v, "rowspan");
    if (cc->kind == QR_KIND_PRESENTATION && (cs || rs || al || fl || bo)) {
        qr_cc_err(cc, "give slide tables plain cells; spans and cell looks are for documents",
                  "a slide's table cell takes no colspan, rowspan, align, fill or bold");
        return -1;
    }
    int n = 1;
    if (qr_cc_get_int(cc, v, "colspan", 1, 1000, &n) < 0) bad = 1;
    c->colspan = (unsigned)n;
    n = 1;
    if (qr_cc_get_int(cc, v, "rowspan", 1, QR_MAX_ROWSPAN, &n) < 0) bad = 1;
    c->rowspan = (unsigned)n;
    if (al) {
        size_t o = qr_cc_push_key(cc, "align");
        int a = align_value(cc, al);
        if (a < 0) bad = 1;
        c->align = (uint8_t)(a < 0 ? 0 : a);
        qr_cc_pop(cc, o);
    }
    int b = 0;
    if (qr_cc_get_bool(cc, v, "bold", &b) < 0) bad = 1;
    c->bold = b != 0;
    const char *f = NULL;
    size_t fn = 0;
    int fr = qr_cc_get_string(cc, v, "fill", 0, &f, &fn);
    if (fr < 0) bad = 1;
    if (fr == 1) {
        int ok = fn == 7 && f[0] == '#';
        for (size_t i = 1; ok && i < 7; i++)
            ok = isxdigit((unsigned char)f[i]) != 0;
        if (!ok) {
            qr_cc_err_key(cc, "fill", "write the colour as \"#RRGGBB\", e.g. \"#FEF3C7\"",
                          "\"%.40s\" is not a colour", f);
            bad = 1;
        } else {
            c->fill = QR_RGB_SET | (uint32_t)strtol(f + 1, NULL, 16);
        }
    }
    return bad ? -1 : 0;
}

/* The columns a spec cell spans (its "colspan" when valid, else 1). */
static size_t span_of(json_t *v)
{
    json_t *cs = json_is_object(v) ? json_object_get(v, "colspan") : NULL;
    if (!json_is_integer(cs)) return 1;
    json_int_t n = json_integer_value(cs);
    return n >= 1 && n <= 1000 ? (size_t)n : 1;
}

/* The rows a spec cell spans (its "rowspan" when valid, else 1). */
static size_t rows_of(json_t *v)
{
    json_t *rs = json_is_object(v) ? json_object_get(v, "rowspan") : NULL;
    if (!json_is_integer(rs)) return 1;
    json_int_t n = json_integer_value(rs);
    return n >= 1 && n <= QR_MAX_ROWSPAN ? (size_t)n : 1;
}

/* Which positions rowspans from the rows above cover, row by row, as html
 * lays out a table: a row's cells take the free positions left to right. */
typedef struct occupancy {
    size_t *left;      /* rows still covered below the current row, per column */
    size_t *first;     /* the first column of the spanning cell covering it */
    size_t *span;      /* at a spanning cell's first column: its colspan */
    const char **path; /* at a spanning cell's first column: its JSON pointer */
    uint32_t *fill;    /* at a spanning cell's first column: its ground */
    size_t n;          /* columns tracked */
} occupancy;

static int occ_grow(occupancy *oc, size_t n)
{
    if (n <= oc->n) return 0;
    size_t m = oc->n ? oc->n : 8;
    while (m < n)
        m *= 2;
    size_t *l = realloc(oc->left, m * sizeof *l), *f;
    if (l) oc->left = l;
    f = l ? realloc(oc->first, m * sizeof *f) : NULL;
    if (f) oc->first = f;
    size_t *sp = f ? realloc(oc->span, m * sizeof *sp) : NULL;
    if (sp) oc->span = sp;
    const char **p = sp ? realloc(oc->path, m * sizeof *p) : NULL;
    if (p) oc->path = p;
    uint32_t *fl = p ? realloc(oc->fill, m * sizeof *fl) : NULL;
    if (!fl) return -1;
    oc->fill = fl;
    for (size_t i = oc->n; i < m; i++) {
        oc->left[i] = oc->first[i] = oc->span[i] = 0;
        oc->path[i] = NULL;
        oc->fill[i] = 0;
    }
    oc->n = m;
    return 0;
}

static void occ_free(occupancy *oc)
{
    free(oc->left);
    free(oc->first);
    free(oc->span);
    free((void *)oc->path);
    free(oc->fill);
}

/* The columns a row of cells reaches, placed among the positions covered
 * from above (oc, advanced past the row); *spans: the row has a span or
 * covered positions. -1: out of memory. */
static long row_extent(json_t *row, occupancy *oc, int *spans)
{
    size_t pos = 0, end = 0;
    *spans = 0;
    for (size_t k = 0; k < oc->n; k++)
        if (oc->left[k]) {
            *spans = 1;
            if (k + 1 > end) end = k + 1;
        }
    size_t *was = oc->n ? calloc(oc->n, sizeof *was) : NULL;
    if (oc->n && !was) return -1;
    size_t n_was = oc->n;
    for (size_t k = 0; k < n_was; k++)
        was[k] = oc->left[k];
    for (size_t i = 0; i < json_array_size(row); i++) {
        json_t *v = json_array_get(row, i);
        while (pos < n_was && was[pos])
            pos++;
        size_t cs = span_of(v), rs = rows_of(v);
        if (cs > 1 || rs > 1) *spans = 1;
        if (rs > 1) {
            if (occ_grow(oc, pos + cs) < 0) return free(was), -1;
            for (size_t k = pos; k < pos + cs; k++)
                if (!(k < n_was && was[k])) oc->left[k] = rs; /* overlaps: the compiler reports */
        }
        pos += cs;
        if (pos > end) end = pos;
    }
    for (size_t k = 0; k < n_was; k++)
        if (was[k]) oc->left[k]--;
    free(was);
    return (long)end;
}

static int tcell(qr_cc *cc, json_t *v, qr_tcell *c)
{
    c->colspan = 1;
    c->rowspan = 1;
    char num[40];
    switch (json_typeof(v)) {
    case JSON_STRING:
        c->kind = QR_TCELL_TEXT;
        return qr_cc_text_plain(cc, v, &c->text) < 0 ? -1 : 0;
    case JSON_INTEGER:
    case JSON_REAL: {
        int n;
        if (json_is_integer(v)) /* exact digits, even past 2^53: this is display text */
            n = snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else
            n = qr_fmt_double(json_real_value(v), num);
        c->kind = QR_TCELL_NUMBER;
        c->text.path = qr_cc_path(cc);
        qr_run *r = qr_arena_alloc(cc->a, sizeof *r);
        const char *t = qr_cc_strndup(cc, num, (size_t)n);
        if (!r || !t) return qr_cc_oom(cc), -1;
        r->text = t;
        r->len = (size_t)n;
        c->text.runs = r;
        c->text.n = 1;
        return 0;
    }
    case JSON_TRUE:
    case JSON_FALSE: {
        const char *s = json_is_true(v) ? "true" : "false";
        c->kind = QR_TCELL_BOOL;
        c->text.path = qr_cc_path(cc);
        qr_run *r = qr_arena_alloc(cc->a, sizeof *r);
        if (!r) return qr_cc_oom(cc), -1;
        r->text = s;
        r->len = strlen(s);
        c->text.runs = r;
        c->text.n = 1;
        return 0;
    }
    case JSON_NULL:
        c->kind = QR_TCELL_EMPTY;
        c->text.path = qr_cc_path(cc);
        return 0;
    case JSON_OBJECT: {
        c->kind = QR_TCELL_TEXT;
        int unk = qr_cc_check_obj(cc, v, QR_SO_TCELL, "a table cell");
        int bad = unk > 0;
        if (qr_cc_text(cc, v, !unk, &c->text) < 0) bad = 1;
        return cell_look(cc, v, c) < 0 || bad ? -1 : 0;
    }
    case JSON_ARRAY:
        break;
    }
    qr_cc_err(cc, "a cell is a string, number, boolean, null or {\"text\"|\"runs\"}",
              "a table cell cannot be an array");
    return -1;
}

/* An array of cells at the current path, padded with EMPTY to n_cols,
 * taking the positions rowspans above leave free (oc, n_cols columns
 * tracked, advanced past the row). A rowspan may reach `below` rows
 * further; `header`: the row is a header row, the rows it may reach too. */
static qr_tcell *tcells(qr_cc *cc, json_t *arr, size_t n_cols, occupancy *oc, size_t below,
                        int header, int *bad)
{
    size_t n = json_array_size(arr);
    qr_tcell *cells = qr_arena_array(cc->a, n_cols, sizeof *cells);
    uint8_t *busy = calloc(n_cols, 1);
    if (!cells || !busy) {
        free(busy);
        qr_cc_oom(cc);
        *bad = 1;
        return NULL;
    }
    for (size_t i = 0; i < n_cols; i++) {
        cells[i].kind = QR_TCELL_EMPTY;
        cells[i].colspan = 1;
        cells[i].rowspan = 1;
    }
    /* the positions covered from above: the spanning cell's first column a
     * continuation of it, the rest covered */
    for (size_t k = 0; k < n_cols; k++) {
        if (!oc->left[k]) continue;
        busy[k] = 1;
        if (oc->first[k] == k) {
            cells[k].merged_above = 1;
            cells[k].colspan = (unsigned)oc->span[k];
            cells[k].fill = oc->fill[k];
        } else {
            cells[k].colspan = 0;
        }
        oc->left[k]--;
    }
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        size_t old = qr_cc_push_index(cc, i);
        qr_tcell c = {0};
        if (tcell(cc, json_array_get(arr, i), &c) < 0) *bad = 1;
        while (pos < n_cols && busy[pos])
            pos++;
        size_t span = c.colspan ? c.colspan : 1, rows = qr_tcell_rows(&c);
        if (pos + span > n_cols) {
            /* only a row with spans can be wider than the headers */
            if (pos >= n_cols)
                qr_cc_err(cc, "leave the positions a rowspan above covers out of the row",
                          "the row has no free column left for this cell (the table has %zu)",
                          n_cols);
            else
                qr_cc_err_key(cc, "colspan", "make the spans add up to the columns, or add columns",
                              "the cell spans columns %zu to %zu, past the table's edge at %zu",
                              pos + 1, pos + span, n_cols);
            *bad = 1;
            qr_cc_pop(cc, old);
            break;
        }
        size_t hit = pos;
        while (hit < pos + span && !busy[hit])
            hit++;
        if (hit < pos + span) {
            size_t f = oc->first[hit];
            qr_cc_err_key(cc, "colspan",
                          "shorten this colspan or the rowspan above, and leave the covered "
                          "positions out of this row",
                          "the cell spans columns %zu to %zu, but column %zu is covered by "
                          "the rowspan of the cell at %s",
                          pos + 1, pos + span, hit + 1, oc->path[f] ? oc->path[f] : "a row above");
            *bad = 1;
            qr_cc_pop(cc, old);
            break;
        }
        if (rows - 1 > below) {
            if (header)
                qr_cc_err_key(cc, "rowspan",
                              below ? "a header cell spans header rows only: shorten the "
                                      "rowspan or raise header_rows"
                                    : "a header cell spans header rows only: raise "
                                      "header_rows to make the rows below headers too",
                              "the header cell spans %zu rows, but %zu header row%s "
                              "follow%s it",
                              (size_t)rows, below, below == 1 ? "" : "s", below == 1 ? "s" : "");
            else {
                char hint[64];
                snprintf(hint, sizeof hint, "make rowspan at most %zu, or add rows", below + 1);
                qr_cc_err_key(cc, "rowspan", hint,
                              "the cell spans %zu rows, past the table's last row (%zu row%s "
                              "below it)",
                              (size_t)rows, below, below == 1 ? "" : "s");
            }
            *bad = 1;
            rows = 1;
            c.rowspan = 1;
        }
        cells[pos] = c;
        for (size_t k = 1; k < span; k++)
            cells[pos + k].colspan = 0; /* covered */
        if (rows > 1) {
            const char *p = qr_cc_path(cc);
            for (size_t k = pos; k < pos + span; k++) {
                oc->left[k] = rows - 1;
                oc->first[k] = pos;
            }
            oc->span[pos] = span;
            oc->path[pos] = p;
            oc->fill[pos] = c.fill;
        }
        pos += span;
        qr_cc_pop(cc, old);
    }
    free(busy);
    return cells;
}

int qr_cc_table(qr_cc *cc, json_t *obj, int quiet, qr_table *t)
{
    memset(t, 0, sizeof *t);
    t->path = qr_cc_path(cc);
    int bad = 0;
    json_t *headers = json_object_get(obj, "headers");
    json_t *rows = json_object_get(obj, "rows");
    json_t *widths = json_object_get(obj, "widths");
    if (headers && !json_is_array(headers)) {
        qr_cc_err_key(cc, "headers", "headers is an array of cells like [\"Name\", \"Fee\"]",
                      "expected an array, got %s", qr_cc_type_name(headers));
        headers = NULL;
        bad = 1;
    }
    if (!rows) {
        if (!quiet) qr_cc_missing(cc, "rows", "add \"rows\": [[\"a\", 1], [\"b\", 2]]");
        bad = 1;
    } else if (!json_is_array(rows)) {
        qr_cc_err_key(cc, "rows", "rows is an array of rows like [[\"a\", 1], [\"b\", 2]]",
                      "expected an array of rows, got %s", qr_cc_type_name(rows));
        rows = NULL;
        bad = 1;
    }
    size_t n_rows = rows ? json_array_size(rows) : 0;
    /* the columns: the headers' (spans counted), widened by a longer row
     * without spans (a ragged row); a row with spans, or with positions a
     * rowspan above covers, must fit */
    occupancy oc = {0};
    int spans = 0;
    long ext = headers ? row_extent(headers, &oc, &spans) : 0;
    size_t n_cols = ext > 0 ? (size_t)ext : 0;
    for (size_t r = 0; r < n_rows && ext >= 0; r++) {
        json_t *row = json_array_get(rows, r);
        if (!json_is_array(row)) continue;
        ext = row_extent(row, &oc, &spans);
        if (ext > (long)n_cols && (!headers || !spans)) n_cols = (size_t)ext;
    }
    occ_free(&oc);
    if (ext < 0) return qr_cc_oom(cc), -1;
    size_t o;
    if (n_cols == 0) n_cols = 1;
    if (!qr_cc_count_table_cells(cc, n_cols * (n_rows + (headers ? 1 : 0)))) return -1;
    t->n_cols = n_cols;
    /* the header rows a header cell's rowspan may reach (validated below) */
    json_t *hrv = json_object_get(obj, "header_rows");
    size_t hr_raw = headers ? 1 : 0;
    if (json_is_integer(hrv) && json_integer_value(hrv) > 0 && json_integer_value(hrv) <= 1000)
        hr_raw = (size_t)json_integer_value(hrv);
    size_t body_head = headers ? (hr_raw ? hr_raw - 1 : 0) : hr_raw;
    if (body_head > n_rows) body_head = n_rows;
    memset(&oc, 0, sizeof oc);
    if (occ_grow(&oc, n_cols) < 0) return qr_cc_oom(cc), -1;
    if (headers) {
        o = qr_cc_push_key(cc, "headers");
        t->headers = tcells(cc, headers, n_cols, &oc, body_head, 1, &bad);
        t->n_headers = t->headers ? n_cols : 0;
        qr_cc_pop(cc, o);
    }
    if (rows) {
        qr_tcell **rs = n_rows ? qr_arena_array(cc->a, n_rows, sizeof *rs) : NULL;
        if (n_rows && !rs) return occ_free(&oc), qr_cc_oom(cc), -1;
        o = qr_cc_push_key(cc, "rows");
        for (size_t r = 0; r < n_rows; r++) {
            json_t *row = json_array_get(rows, r);
            size_t o2 = qr_cc_push_index(cc, r);
            int head = r < body_head;
            size_t below = head ? body_head - r - 1 : n_rows - r - 1;
            if (json_is_array(row)) {
                rs[r] = tcells(cc, row, n_cols, &oc, below, head, &bad);
            } else {
                qr_cc_err(cc, "a row is an array of cells like [\"a\", 1]",
                          "expected an array of cells, got %s", qr_cc_type_name(row));
                bad = 1;
            }
            qr_cc_pop(cc, o2);
        }
        qr_cc_pop(cc, o);
        t->rows = (const qr_tcell *const *)rs;
        t->n_rows = n_rows;
    }
    occ_free(&oc);
    json_t *align = json_object_get(obj, "align");
    if (align) {
        o = qr_cc_push_key(cc, "align");
        if (!json_is_array(align) || json_array_size(align) != n_cols) {
            qr_cc_err(cc, "give one alignment per column: [\"left\", \"right\"]",
                      "expected an array of %zu alignments, got %s", n_cols,
                      json_is_array(align) ? "a different count" : qr_cc_type_name(align));
            bad = 1;
        } else {
            uint8_t *ca = qr_arena_alloc(cc->a, n_cols);
            if (!ca) return qr_cc_oom(cc), -1;
            for (size_t i = 0; i < n_cols; i++) {
                size_t o2 = qr_cc_push_index(cc, i);
                json_t *e = json_array_get(align, i);
                int a = json_is_null(e) ? 0 : align_value(cc, e);
                if (a < 0) bad = 1;
                ca[i] = (uint8_t)(a < 0 ? 0 : a);
                qr_cc_pop(cc, o2);
            }
            t->col_align = ca;
        }
        qr_cc_pop(cc, o);
    }
    int hr = headers ? 1 : 0;
    int lo = headers ? 1 : 0, hi = (int)(n_rows + (size_t)lo < 1000 ? n_rows + (size_t)lo : 1000);
    if (json_object_get(obj, "header_rows")) {
        if (qr_cc_get_int(cc, obj, "header_rows", lo, hi, &hr) < 0) bad = 1;
    }
    t->body_header_rows = (size_t)(hr - lo > 0 ? hr - lo : 0);
    if (widths) {
        o = qr_cc_push_key(cc, "widths");
        if (!json_is_array(widths)) {
            qr_cc_err(cc, "widths are relative numbers, one per column: [3, 1]",
                      "expected an array of numbers, got %s", qr_cc_type_name(widths));
            bad = 1;
        } else if (json_array_size(widths) != n_cols) {
            qr_cc_err(cc, "give one width per column; they are relative: [3, 1] is 75% / 25%",
                      "widths has %zu entries but the table has %zu columns",
                      json_array_size(widths), n_cols);
            bad = 1;
        } else {
            double *w = qr_arena_array(cc->a, n_cols, sizeof *w);
            double sum = 0;
            int wbad = !w;
            for (size_t i = 0; w && i < n_cols; i++) {
                json_t *e = json_array_get(widths, i);
                size_t o2 = qr_cc_push_index(cc, i);
                if (!qr_cc_number(e, &w[i]) || !(w[i] > 0) || w[i] > 1e9) {
                    qr_cc_err(cc, "widths are relative: [3, 1] is 75% / 25%",
                              "expected a positive number, got %s",
                              qr_cc_number(e, &w[i]) ? "a number out of range"
                                                     : qr_cc_type_name(e));
                    wbad = 1;
                } else {
                    sum += w[i];
                }
                qr_cc_pop(cc, o2);
            }
            if (!wbad) {
                for (size_t i = 0; i < n_cols; i++)
                    w[i] /= sum;
                t->widths = w;
            } else {
                bad = 1;
            }
        }
        qr_cc_pop(cc, o);
    }
    return bad ? -1 : 0;
}

/* A document image's "width" (points, or "NN%" of the column) and "align". */
static int image_box(qr_cc *cc, json_t *v, qr_image *img)
{
    int bad = 0;
    json_t *w = json_object_get(v, "width"), *al = json_object_get(v, "align");
    if (w) {
        size_t o = qr_cc_push_key(cc, "width");
        double n = 0;
        const char *s = json_is_string(w) ? json_string_value(w) : NULL;
        char *end = NULL;
        if (s && *s >= '0' && *s <= '9') n = strtod(s, &end);
        if (s && end && strcmp(end, "%") == 0 && n > 0 && n <= 100) {
            img->width_pct = n;
        } else if (s) {
            qr_cc_err(cc, "write a percentage of the column like \"50%\", or points as a number",
                      "\"%.40s\" is not a percentage from 1%% to 100%%", s);
            bad = 1;
        } else if (qr_cc_number(w, &n) && n > 0 && n <= 10000) {
            img->width_pt = n;
        } else {
            qr_cc_err(cc, "give points like 200, or a percentage of the column like \"50%\"",
                      "expected a width in points from 0 to 10000 or a percentage, got %s",
                      qr_cc_number(w, &n) ? "a number out of range" : qr_cc_type_name(w));
            bad = 1;
        }
        qr_cc_pop(cc, o);
    }
    if (al) {
        size_t o = qr_cc_push_key(cc, "align");
        int a = align_value(cc, al);
        if (a < 0) bad = 1;
        img->align = (qr_align)(a < 0 ? 0 : a);
        qr_cc_pop(cc, o);
    }
    return bad ? -1 : 0;
}

/* ---- blocks --------------------------------------------------------------------- */

/* The block type names of the schema table, NULL-terminated. */
static void block_names(const char **names)
{
    for (size_t i = 0; i < qr_schema_n_blocks; i++)
        names[i] = qr_schema_blocks[i].name;
    names[qr_schema_n_blocks] = NULL;
}

static void type_list(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < qr_schema_n_blocks && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", qr_schema_blocks[i].name);
}

/* An id: a letter, then letters, digits, '-', '_', '.', ':'; 64 bytes at most. */
static int id_ok(const char *s, size_t n)
{
    if (n == 0 || n > 64 || !isalpha((unsigned char)s[0])) return 0;
    for (size_t i = 1; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("-_.:", s[i])) return 0;
    return 1;
}

/* A block's "caption": numbered per kind ("Figure 2"), the label and its
 * separator a bold first run before the spec's runs. */
static int caption(qr_cc *cc, json_t *v, qr_block *b)
{
    qr_text cap;
    int r = qr_cc_text_or_runs(cc, v, "caption", &cap);
    if (r <= 0) return r;
    qr_caption_kind kind = b->type == QR_BLOCK_TABLE  ? QR_CAPTION_TABLE
                           : b->type == QR_BLOCK_CODE ? QR_CAPTION_LISTING
                                                      : QR_CAPTION_FIGURE;
    qr_word_id word = kind == QR_CAPTION_TABLE     ? QR_WORD_TABLE
                      : kind == QR_CAPTION_LISTING ? QR_WORD_LISTING
                                                   : QR_WORD_FIGURE;
    unsigned no = ++cc->n_captions[kind];
    char label[96];
    size_t n = qr_word_numbered(cc->doc->lang, word, no, label, sizeof label);
    const char *sep = qr_word_caption_sep(cc->doc->lang);
    size_t sn = strlen(sep);
    memcpy(label + n, sep, sn + 1);
    qr_run *runs = qr_arena_array(cc->a, cap.n + 1, sizeof *runs);
    const char *text = qr_cc_strndup(cc, label, n + sn);
    if (!runs || !text) return qr_cc_oom(cc), -1;
    memset(runs, 0, sizeof *runs);
    runs[0].text = text;
    runs[0].len = n + sn;
    runs[0].bold = 1;
    if (cap.n) memcpy(runs + 1, cap.runs, cap.n * sizeof *runs);
    /* refs and "#id" links inside the caption point at the copies */
    for (size_t i = 0; i < cc->n_fixes; i++)
        for (size_t k = 0; k < cap.n; k++)
            if (cc->fixes[i].run == &cap.runs[k]) cc->fixes[i].run = &runs[k + 1];
    b->caption = cap;
    b->caption.runs = runs;
    b->caption.n = cap.n + 1;
    b->caption_kind = kind;
    b->caption_no = no;
    b->label_len = n;
    return 1;
}

/* One element of "blocks" (current path /blocks/N). */
static int block(qr_cc *cc, json_t *v, qr_block *b)
{
    b->path = qr_cc_path(cc);
    if (!json_is_object(v)) {
        qr_cc_err(cc, "a block is an object like {\"type\": \"paragraph\", \"text\": \"...\"}",
                  "expected a block object, got %s", qr_cc_type_name(v));
        return -1;
    }
    json_t *type = json_object_get(v, "type");
    char types[160];
    if (!type || !json_is_string(type)) type_list(types, sizeof types);
    if (!type) {
        char hint[200];
        snprintf(hint, sizeof hint, "add \"type\": one of %s", types);
        qr_cc_missing(cc, "type", hint);
        return -1;
    }
    if (!json_is_string(type)) {
        qr_cc_err_key(cc, "type", "\"type\" is a string such as \"paragraph\"",
                      "expected a block type name, got %s; valid types are %s",
                      qr_cc_type_name(type), types);
        return -1;
    }
    const char *tn = json_string_value(type);
    int t = qr_schema_block(tn);
    if (t == qr_schema_block_markdown) {
        /* expanded by qr_cc_document; anywhere else it has no place */
        qr_cc_err_key(cc, "type", "a markdown block stands in a document's \"blocks\"",
                      "a markdown block cannot stand here");
        return -1;
    }
    if (t < 0) {
        char hint[96];
        const char *block_types[QR_SCHEMA_MAX_KEYS + 1];
        block_names(block_types);
        type_list(types, sizeof types);
        const char *s = qr_suggest(tn, block_types);
        if (s) snprintf(hint, sizeof hint, "did you mean \"%s\"?", s);
        if (!s)
            snprintf(hint, sizeof hint, "%s",
                     strncmp(tn, "footnote", 8) == 0
                         ? "a footnote is a run: \"runs\": [\"text\", {\"footnote\": \"the note\"}]"
                         : "use one of the valid types");
        qr_cc_err_key(cc, "type", hint, "unknown block type \"%.40s\"; valid types are %s", tn,
                      types);
        return -1;
    }
    b->type = (qr_block_type)t;
    int bad = 0, unk;
    const char *id = NULL;
    size_t id_len = 0;
    int ir = qr_cc_get_string(cc, v, "id", 0, &id, &id_len);
    if (ir < 0) bad = 1;
    if (ir == 1) {
        if (!id_ok(id, id_len)) {
            qr_cc_err_key(cc, "id",
                          "an id starts with a letter, then letters, digits, - _ . or :, at most "
                          "64 (\"methods\", \"fig-2\")",
                          "\"%.40s\" is not an id", id);
            bad = 1;
        } else {
            b->id = id;
        }
    }
    switch (b->type) {
    case QR_BLOCK_HEADING: {
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_HEADING, "a heading block")) > 0;
        cc->in_heading = 1;
        bad |= qr_cc_text(cc, v, !unk, &b->u.heading.text) < 0;
        cc->in_heading = 0;
        int level = cc->kind == QR_KIND_HTML ? 2 : 1;
        bad |= qr_cc_get_int(cc, v, "level", 1, 6, &level) < 0;
        b->u.heading.level = level;
        break;
    }
    case QR_BLOCK_PARAGRAPH:
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_PARAGRAPH, "a paragraph block")) > 0;
        bad |= qr_cc_text(cc, v, !unk, &b->u.paragraph.text) < 0;
        break;
    case QR_BLOCK_LIST: {
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_LIST, "a list block")) > 0;
        int ordered = 0;
        bad |= qr_cc_get_bool(cc, v, "ordered", &ordered) < 0;
        b->u.list.ordered = ordered;
        if (json_object_get(v, "start")) {
            int st = 1;
            if (!ordered) {
                qr_cc_err_key(cc, "start", "add \"ordered\": true, or remove \"start\"",
                              "start numbers an ordered list; this list has bullets");
                bad = 1;
            } else if (qr_cc_get_int(cc, v, "start", 1, 1000000, &st) < 0) {
                bad = 1;
            }
            b->u.list.start = (unsigned)st;
        }
        json_t *items = json_object_get(v, "items");
        if (!items) {
            if (!unk) qr_cc_missing(cc, "items", "add \"items\": [\"first\", \"second\"]");
            bad = 1;
        } else {
            size_t o = qr_cc_push_key(cc, "items");
            cc->ordered_list = ordered;
            bad |= qr_cc_items(cc, items, 1, 1, &b->u.list.items, &b->u.list.n_items) < 0;
            cc->ordered_list = 0;
            qr_cc_pop(cc, o);
        }
        break;
    }
    case QR_BLOCK_TABLE:
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_TABLE, "a table block")) > 0;
        bad |= qr_cc_table(cc, v, unk, &b->u.table) < 0;
        break;
    case QR_BLOCK_CODE: {
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_CODE, "a code block")) > 0;
        const char *s = NULL;
        size_t n = 0;
        if (qr_cc_get_string(cc, v, "text", !unk, &s, &n) != 1) bad = 1;
        b->u.code.text = qr_cc_plain_at(cc, "text", s, n);
        const char *lang = NULL;
        if (qr_cc_get_string(cc, v, "language", 0, &lang, NULL) < 0) bad = 1;
        b->u.code.lang = lang;
        break;
    }
    case QR_BLOCK_IMAGE: {
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_IMAGE, "an image block")) > 0;
        qr_image *img = &b->u.image;
        img->path = b->path;
        bad |= qr_cc_image_fields(cc, v, img, unk);
        bad |= image_box(cc, v, img) < 0;
        break;
    }
    case QR_BLOCK_PAGE_BREAK:
        bad |= qr_cc_check_obj(cc, v, QR_SO_PAGE_BREAK, "a page_break block") > 0;
        break;
    case QR_BLOCK_CHART:
        bad |= qr_cc_chart(cc, v, QR_CC_CHART_BLOCK, &b->u.chart) < 0;
        break;
    case QR_BLOCK_QUOTE: {
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_QUOTE, "a quote block")) > 0;
        bad |= qr_cc_text(cc, v, !unk, &b->u.quote.text) < 0;
        const char *s = NULL;
        size_t n = 0;
        if (qr_cc_get_string(cc, v, "attribution", 0, &s, &n) < 0) bad = 1;
        b->u.quote.attribution = qr_cc_plain_at(cc, "attribution", s, n);
        break;
    }
    case QR_BLOCK_CALLOUT: {
        bad |= (unk = qr_cc_check_obj(cc, v, QR_SO_CALLOUT, "a callout block")) > 0;
        bad |= qr_cc_text(cc, v, !unk, &b->u.callout.text) < 0;
        static const char *const tones[] = {"note", "tip", "warning", "important", NULL};
        const char *tone = NULL;
        int tr = qr_cc_get_string(cc, v, "tone", 0, &tone, NULL);
        b->u.callout.tone = QR_TONE_NOTE;
        if (tr < 0) bad = 1;
        if (tr == 1) {
            int found = -1;
            for (int i = 0; tones[i]; i++)
                if (strcmp(tone, tones[i]) == 0) found = i;
            if (found < 0) {
                char hint[96];
                const char *sg = qr_suggest(tone, tones);
                if (sg)
                    snprintf(hint, sizeof hint, "did you mean \"%s\"?", sg);
                else
                    snprintf(hint, sizeof hint, "use note, tip, warning or important");
                qr_cc_err_key(cc, "tone", hint,
                              "unknown tone \"%.40s\"; the tones are note, tip, warning, important",
                              tone);
                bad = 1;
            } else {
                b->u.callout.tone = (qr_tone)found;
            }
        }
        const char *s = NULL;
        size_t n = 0;
        if (qr_cc_get_string(cc, v, "title", 0, &s, &n) < 0) bad = 1;
        if (!s) {
            s = qr_word(cc->doc->lang, (qr_word_id)(QR_WORD_NOTE + (int)b->u.callout.tone));
            n = strlen(s);
        }
        b->u.callout.title = qr_cc_plain_at(cc, "title", s, n);
        break;
    }
    case QR_BLOCK_RULE:
        bad |= qr_cc_check_obj(cc, v, QR_SO_RULE, "a rule block") > 0;
        break;
    case QR_BLOCK_TOC: {
        bad |= qr_cc_check_obj(cc, v, QR_SO_TOC, "a toc block") > 0;
        int levels = 3;
        bad |= qr_cc_get_int(cc, v, "levels", 1, 6, &levels) < 0;
        b->u.toc.levels = levels;
        const char *s = NULL;
        size_t n = 0;
        if (qr_cc_get_string(cc, v, "title", 0, &s, &n) < 0) bad = 1;
        if (!s) {
            s = qr_word(cc->doc->lang, QR_WORD_CONTENTS);
            n = strlen(s);
        }
        b->u.toc.title = qr_cc_plain_at(cc, "title", s, n);
        break;
    }
    }
    if (b->type == QR_BLOCK_TABLE || b->type == QR_BLOCK_IMAGE || b->type == QR_BLOCK_CHART ||
        b->type == QR_BLOCK_CODE)
        bad |= caption(cc, v, b) < 0;
    return bad ? -1 : 0;
}

/* ---- legacy sections --------------------------------------------------------- */

/* Count the blocks sections expand to (checked before allocation). */
static size_t section_blocks(json_t *sections)
{
    size_t n = 0, i;
    json_t *s;
    json_array_foreach(sections, i, s)
    {
        if (!json_is_object(s)) continue;
        json_t *h = json_object_get(s, "heading");
        if (json_is_string(h) && json_string_length(h) > 0) n++;
        json_t *ps = json_object_get(s, "paragraphs");
        if (json_is_array(ps)) n += json_array_size(ps);
    }
    return n;
}

static void sections_compile(qr_cc *cc, json_t *sections, qr_block *out, size_t *k)
{
    size_t o = qr_cc_push_key(cc, "sections");
    size_t i;
    json_t *s;
    json_array_foreach(sections, i, s)
    {
        size_t o2 = qr_cc_push_index(cc, i);
        if (!json_is_object(s)) {
            qr_cc_err(cc, "a section is {\"heading\": \"...\", \"paragraphs\": [\"...\"]}",
                      "expected a section object, got %s", qr_cc_type_name(s));
            qr_cc_pop(cc, o2);
            continue;
        }
        qr_cc_check_obj(cc, s, QR_SO_SECTION, "a section");
        json_t *h = json_object_get(s, "heading");
        if (h) {
            size_t o3 = qr_cc_push_key(cc, "heading");
            if (!json_is_string(h)) {
                qr_cc_err(cc, "a section heading is a string", "expected a string, got %s",
                          qr_cc_type_name(h));
            } else if (json_string_length(h) > 0) {
                qr_block *b = &out[(*k)++];
                b->type = QR_BLOCK_HEADING;
                b->path = qr_cc_path(cc);
                b->u.heading.level = 1;
                cc->in_heading = 1;
                qr_cc_text_plain(cc, h, &b->u.heading.text);
                cc->in_heading = 0;
            }
            qr_cc_pop(cc, o3);
        }
        json_t *ps = json_object_get(s, "paragraphs");
        if (ps) {
            size_t o3 = qr_cc_push_key(cc, "paragraphs");
            if (!json_is_array(ps)) {
                qr_cc_err(cc, "paragraphs is an array of strings", "expected an array, got %s",
                          qr_cc_type_name(ps));
            } else {
                size_t j;
                json_t *p;
                json_array_foreach(ps, j, p)
                {
                    size_t o4 = qr_cc_push_index(cc, j);
                    qr_block *b = &out[(*k)++];
                    b->type = QR_BLOCK_PARAGRAPH;
                    b->path = qr_cc_path(cc);
                    qr_cc_text_plain(cc, p, &b->u.paragraph.text);
                    qr_cc_pop(cc, o4);
                }
            }
            qr_cc_pop(cc, o3);
        }
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
}

/* ---- ids, "#id" links and refs ---------------------------------------------------- */

/* Blocks by id, then in document order (qsort of block pointers). */
static int by_id(const void *a, const void *b)
{
    const qr_block *x = *(const qr_block *const *)a, *y = *(const qr_block *const *)b;
    int c = strcmp(x->id, y->id);
    if (c) return c;
    return x < y ? -1 : x > y;
}

/* The label a ref prints for block b: "Figure 2", "Section 3.1" (numbered
 * headings) or the heading's text. NULL: the block has none. */
static const char *ref_label(qr_cc *cc, const qr_block *b, int numbered, size_t *len)
{
    if (b->caption.n) {
        *len = b->label_len;
        return b->caption.runs[0].text;
    }
    if (b->type != QR_BLOCK_HEADING) return NULL;
    const qr_text *t = &b->u.heading.text;
    if (numbered && t->n) {
        /* the number run heading_numbers.c put first: "3.1 " */
        char buf[128];
        size_t nl = t->runs[0].len;
        while (nl && t->runs[0].text[nl - 1] == ' ')
            nl--;
        int k = snprintf(buf, sizeof buf, "%s %.*s", qr_word(cc->doc->lang, QR_WORD_SECTION),
                         (int)nl, t->runs[0].text);
        if (k < 0) return NULL;
        *len = (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1;
        return qr_cc_strndup(cc, buf, *len);
    }
    size_t total = 0;
    for (size_t i = 0; i < t->n; i++)
        if (!t->runs[i].note) total += t->runs[i].len;
    char *s = qr_arena_alloc(cc->a, total + 1);
    if (!s) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < t->n; i++)
        if (!t->runs[i].note) {
            memcpy(s + o, t->runs[i].text, t->runs[i].len);
            o += t->runs[i].len;
        }
    s[o] = '\0';
    *len = o;
    return s;
}

/* Duplicate ids are errors; every "#id" link and ref must name a block's id
 * (did you mean the nearest); a ref takes its target's label as its text. */
static void resolve_ids(qr_cc *cc, const qr_block *bs, size_t n, int numbered)
{
    size_t n_ids = 0;
    for (size_t i = 0; i < n; i++)
        n_ids += bs[i].id != NULL;
    const qr_block **ix = n_ids ? malloc(n_ids * sizeof *ix) : NULL;
    const char **names = malloc((n_ids + 1) * sizeof *names);
    if ((n_ids && !ix) || !names) {
        free(ix);
        free(names);
        qr_cc_oom(cc);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (bs[i].id) ix[k++] = &bs[i];
    if (n_ids) qsort(ix, n_ids, sizeof *ix, by_id);
    for (size_t i = 0; i < n_ids; i++) {
        names[i] = ix[i]->id;
        if (i && strcmp(ix[i]->id, ix[i - 1]->id) == 0) {
            char hint[160];
            snprintf(hint, sizeof hint, "give each block its own id; %.80s has it first",
                     ix[i - 1]->path);
            char *save = cc->path, tmp[600];
            size_t save_len = cc->plen;
            snprintf(tmp, sizeof tmp, "%s/id", ix[i]->path);
            cc->path = tmp; /* report at the later block's "id" */
            cc->plen = strlen(tmp);
            qr_cc_err(cc, hint, "duplicate id \"%.40s\"", ix[i]->id);
            cc->path = save;
            cc->plen = save_len;
        }
    }
    names[n_ids] = NULL;
    for (size_t f = 0; f < cc->n_fixes; f++) {
        qr_cc_fix *fx = &cc->fixes[f];
        const qr_block *target = NULL;
        size_t lo = 0, hi = n_ids;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            int c = strcmp(ix[mid]->id, fx->id);
            if (c == 0) {
                target = ix[mid];
                break;
            }
            if (c < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        char *save = cc->path;
        size_t save_len = cc->plen;
        cc->path = (char *)fx->path;
        cc->plen = strlen(fx->path);
        if (!target) {
            char hint[160];
            const char *s = qr_suggest(fx->id, names);
            if (s)
                snprintf(hint, sizeof hint, "did you mean \"%s%.64s\"?", fx->ref ? "" : "#", s);
            else if (n_ids)
                snprintf(hint, sizeof hint, "give the target block \"id\": \"%.40s\"", fx->id);
            else
                snprintf(hint, sizeof hint,
                         "give the target block \"id\": \"%.40s\" (no block has an id yet)",
                         fx->id);
            qr_cc_err(cc, hint, "no block has the id \"%.40s\"", fx->id);
        } else if (fx->ref) {
            size_t len = 0;
            const char *label = ref_label(cc, target, numbered, &len);
            if (!label || !len) {
                char hint[200];
                snprintf(hint, sizeof hint,
                         "give %.40s a caption (or make it a heading), or link to it: "
                         "{\"text\": \"...\", \"link\": \"#%.40s\"}",
                         target->path, fx->id);
                qr_cc_err(cc, hint, "the block \"%.40s\" has no label to print", fx->id);
            } else {
                fx->run->text = label;
                fx->run->len = len;
            }
        }
        cc->path = save;
        cc->plen = save_len;
    }
    free(ix);
    free(names);
}

/* ---- properties ------------------------------------------------------------------ */

static void properties(qr_cc *cc, json_t *v)
{
    qr_doc *doc = cc->doc;
    size_t o = qr_cc_push_key(cc, "properties");
    if (!json_is_object(v)) {
        qr_cc_err(cc, "properties is {\"author\", \"subject\", \"keywords\", \"date\"}",
                  "expected an object, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return;
    }
    qr_cc_check_obj(cc, v, QR_SO_PROPS, "properties");
    qr_cc_get_string(cc, v, "author", 0, &doc->author, NULL);
    qr_cc_get_string(cc, v, "subject", 0, &doc->subject, NULL);
    json_t *kw = json_object_get(v, "keywords");
    if (json_is_array(kw)) {
        size_t total = 1, i;
        json_t *e;
        int ok = 1;
        json_array_foreach(kw, i, e)
        {
            if (!json_is_string(e)) {
                size_t o2 = qr_cc_push_key(cc, "keywords");
                size_t o3 = qr_cc_push_index(cc, i);
                qr_cc_err(cc, "keywords are strings", "expected a string, got %s",
                          qr_cc_type_name(e));
                qr_cc_pop(cc, o3);
                qr_cc_pop(cc, o2);
                ok = 0;
            } else {
                total += json_string_length(e) + 2;
            }
        }
        char *k = ok ? qr_arena_alloc(cc->a, total) : NULL;
        if (k) {
            size_t n = 0;
            json_array_foreach(kw, i, e)
            {
                if (n) k[n++] = ',', k[n++] = ' ';
                memcpy(k + n, json_string_value(e), json_string_length(e));
                n += json_string_length(e);
            }
            k[n] = '\0';
            doc->keywords = k;
        }
    } else if (kw) {
        qr_cc_get_string(cc, v, "keywords", 0, &doc->keywords, NULL);
    }
    const char *date = NULL;
    size_t dn = 0;
    if (qr_cc_get_string(cc, v, "date", 0, &date, &dn) == 1) {
        int ok = dn == 10 || dn == 20;
        static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
        for (size_t i = 0; ok && i < dn; i++)
            ok = shape[i] == 'd' ? isdigit((unsigned char)date[i]) != 0 : date[i] == shape[i];
        if (!ok)
            qr_cc_err_key(cc, "date",
                          "write the date as \"2026-03-01\" or \"2026-03-01T09:30:00Z\"",
                          "\"%.40s\" is not a date", date);
        else
            doc->prop_date = date;
    }
    qr_cc_pop(cc, o);
}

/* ---- the document --------------------------------------------------------------- */

void qr_cc_document(qr_cc *cc, json_t *root)
{
    qr_doc *doc = cc->doc;
    doc->page = (qr_page){.width = 612,
                          .height = 792,
                          .margin_top = 72,
                          .margin_right = 72,
                          .margin_bottom = 72,
                          .margin_left = 72,
                          .size_name = "Letter"};
    qr_cc_check_obj(cc, root, QR_SO_DOCUMENT, "a document spec");
    qr_cc_title_lang(cc, root);
    json_t *pg = json_object_get(root, "page");
    if (pg) page(cc, pg);

    json_t *sections = json_object_get(root, "sections");
    json_t *blocks = json_object_get(root, "blocks");
    if (!sections && !blocks) {
        qr_cc_err(cc, "add \"blocks\": [{\"type\": \"paragraph\", \"text\": \"...\"}]",
                  "missing \"blocks\" (or the legacy \"sections\")");
        return;
    }
    if (sections && !json_is_array(sections)) {
        qr_cc_err_key(cc, "sections",
                      "sections is [{\"heading\": \"...\", \"paragraphs\": [\"...\"]}]",
                      "expected an array of sections, got %s", qr_cc_type_name(sections));
        sections = NULL;
    }
    if (blocks && !json_is_array(blocks)) {
        qr_cc_err_key(cc, "blocks", "blocks is [{\"type\": \"paragraph\", \"text\": \"...\"}, ...]",
                      "expected an array of blocks, got %s", qr_cc_type_name(blocks));
        blocks = NULL;
    }
    size_t n_sec = sections ? section_blocks(sections) : 0;
    size_t n_blk = blocks ? json_array_size(blocks) : 0;
    /* Markdown blocks first become the blocks they stand for (markdown.h):
     * md[i] and mloc[i] for blocks[i], counted before allocation. */
    json_t **md = NULL;
    qr_md_loc **mloc = NULL;
    size_t n_gen = n_blk;
    for (size_t i = 0; i < n_blk; i++) {
        json_t *v = json_array_get(blocks, i), *t = json_object_get(v, "type");
        if (!json_is_string(t) || strcmp(json_string_value(t), "markdown") != 0) continue;
        if (!md) {
            md = calloc(n_blk, sizeof *md);
            mloc = calloc(n_blk, sizeof *mloc);
            if (!md || !mloc) {
                free(md);
                free(mloc);
                qr_cc_oom(cc);
                return;
            }
        }
        size_t o = qr_cc_push_key(cc, "blocks"), o2 = qr_cc_push_index(cc, i);
        qr_cc_markdown(cc, v, &md[i], &mloc[i]);
        qr_cc_pop(cc, o2);
        qr_cc_pop(cc, o);
        n_gen = n_gen - 1 + (md[i] ? json_array_size(md[i]) : 0);
    }
    qr_block *bs = NULL;
    if (qr_cc_check_blocks(cc, n_sec + n_gen, "blocks")) {
        bs = n_sec + n_gen ? qr_arena_array(cc->a, n_sec + n_gen, sizeof *bs) : NULL;
        if (n_sec + n_gen && !bs) qr_cc_oom(cc);
    }
    if (n_sec + n_gen && !bs) {
        for (size_t i = 0; md && i < n_blk; i++)
            json_decref(md[i]), free(mloc[i]);
        free(md);
        free(mloc);
        return;
    }
    size_t k = 0;
    if (sections) sections_compile(cc, sections, bs, &k);
    if (blocks) {
        size_t o = qr_cc_push_key(cc, "blocks");
        for (size_t i = 0; i < n_blk; i++) {
            size_t o2 = qr_cc_push_index(cc, i);
            json_t *v = json_array_get(blocks, i);
            if (md && md[i]) {
                /* compiled in its place; errors name its text and line */
                size_t o3 = qr_cc_push_key(cc, "text");
                const char *text_path = qr_cc_path(cc);
                qr_cc_pop(cc, o3);
                for (size_t j = 0; j < json_array_size(md[i]); j++) {
                    size_t e0 = cc->errs->count, w0 = cc->warns ? cc->warns->count : 0;
                    block(cc, json_array_get(md[i], j), &bs[k++]);
                    qr_cc_markdown_adopt(cc, e0, w0, text_path, mloc[i][j]);
                }
                json_decref(md[i]);
                free(mloc[i]);
            } else if (!md || !json_is_string(json_object_get(v, "type")) ||
                       strcmp(json_string_value(json_object_get(v, "type")), "markdown") != 0) {
                block(cc, v, &bs[k++]);
            }
            qr_cc_pop(cc, o2);
        }
        qr_cc_pop(cc, o);
    }
    free(md);
    free(mloc);
    doc->blocks = bs;
    doc->n_blocks = k;
    int numbered = 0;
    if (qr_cc_get_bool(cc, root, "numbered_headings", &numbered) == 1 && numbered)
        qr_cc_number_headings(cc, bs, k);
    const char *notes = NULL;
    if (qr_cc_get_string(cc, root, "notes", 0, &notes, NULL) == 1) {
        if (strcmp(notes, "endnotes") == 0)
            doc->endnotes = 1;
        else if (strcmp(notes, "footnotes") != 0)
            qr_cc_err_key(cc, "notes", "use \"footnotes\" (at the page foot) or \"endnotes\"",
                          "unknown notes placement \"%.40s\"", notes);
    }
    doc->n_notes = cc->n_notes;
    json_t *props = json_object_get(root, "properties");
    if (props) properties(cc, props);
    resolve_ids(cc, bs, k, numbered);
}
