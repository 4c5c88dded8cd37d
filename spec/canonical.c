/* canonical.c: canonical JSON for the store (so `diff v1.json v2.json` reads
 * like a code review), and the kind guess.
 *
 * Layout: 2-space indent, one member or element per line, except arrays
 * whose elements are all scalars (a sheet row, widths, a table row), which
 * stay on one line: `[1, "a", null]`; rows are the unit of a diff. Keys come
 * in schema order ("type" first), chosen by where the object sits (a block,
 * a run, a slide...); unknown keys follow, sorted by bytes. Strings are
 * UTF-8 with only '"', '\' and control characters escaped. Integers print
 * as integers; reals print shortest (qr_fmt_double) and keep a ".0" when
 * integral, so they read back as reals. A string holding an object (a spec
 * sent as a string) is unwrapped first. fmt(fmt(x)) == fmt(x). */
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"

typedef enum ctx {
    C_ANY,
    C_TOP,
    C_BLOCK,
    C_RUN,
    C_ITEM,
    C_SECTION,
    C_PAGE,
    C_MARGINS,
    C_SLIDE,
    C_SHEET,
    C_CELL,
    C_SERIES,
    C_COUNT
} ctx;

static const char *const order_top[] = {"title",  "lang",   "size",   "page", "sections",
                                        "blocks", "slides", "sheets", NULL};
static const char *const order_block[] = {
    "type",    "level",   "text",     "runs",   "ordered",       "items",  "headers",
    "rows",    "widths",  "language", "src",    "chart",         "title",  "categories",
    "series",  "x_title", "y_title",  "legend", "number_format", "labels", "stacked",
    "percent", "anchor",  "width",    "height", "alt",           NULL};
static const char *const order_series[] = {"name", "values", "x", "y", "color", NULL};
static const char *const order_run[] = {"text",   "bold", "italic", "underline",
                                        "strike", "code", "link",   NULL};
static const char *const order_item[] = {"text", "runs", "items", NULL};
static const char *const order_section[] = {"heading", "paragraphs", NULL};
static const char *const order_page[] = {"size", "orientation", "margins", NULL};
static const char *const order_margins[] = {"top", "right", "bottom", "left", NULL};
static const char *const order_slide[] = {"layout", "title", "subtitle", "bullets", "image",
                                          "table",  "chart", "notes",    NULL};
static const char *const order_sheet[] = {"name",    "header", "freeze", "widths",
                                          "columns", "rows",   NULL};
static const char *const order_cell[] = {"value", "date", "formula", "format", NULL};
static const char *const order_none[] = {NULL};

static const char *const *const orders[C_COUNT] = {
    [C_ANY] = order_none,    [C_TOP] = order_top,         [C_BLOCK] = order_block,
    [C_RUN] = order_run,     [C_ITEM] = order_item,       [C_SECTION] = order_section,
    [C_PAGE] = order_page,   [C_MARGINS] = order_margins, [C_SLIDE] = order_slide,
    [C_SHEET] = order_sheet, [C_CELL] = order_cell,       [C_SERIES] = order_series,
};

/* The context of a member's value (arrays pass it on to their elements). */
static ctx member_ctx(ctx parent, const char *key)
{
    switch (parent) {
    case C_TOP:
        if (!strcmp(key, "page")) return C_PAGE;
        if (!strcmp(key, "sections")) return C_SECTION;
        if (!strcmp(key, "blocks")) return C_BLOCK;
        if (!strcmp(key, "slides")) return C_SLIDE;
        if (!strcmp(key, "sheets")) return C_SHEET;
        return C_ANY;
    case C_BLOCK:
        if (!strcmp(key, "runs")) return C_RUN;
        if (!strcmp(key, "items") || !strcmp(key, "headers") || !strcmp(key, "rows")) return C_ITEM;
        if (!strcmp(key, "series")) return C_SERIES;
        return C_ANY;
    case C_ITEM:
        if (!strcmp(key, "runs")) return C_RUN;
        if (!strcmp(key, "items")) return C_ITEM;
        return C_ANY;
    case C_PAGE:
        return !strcmp(key, "margins") ? C_MARGINS : C_ANY;
    case C_SLIDE:
        if (!strcmp(key, "bullets")) return C_ITEM;
        if (!strcmp(key, "image") || !strcmp(key, "table") || !strcmp(key, "chart")) return C_BLOCK;
        return C_ANY;
    case C_SHEET:
        if (!strcmp(key, "charts")) return C_BLOCK;
        return !strcmp(key, "rows") ? C_CELL : C_ANY;
    case C_ANY:
    case C_RUN:
    case C_SECTION:
    case C_MARGINS:
    case C_CELL:
    case C_SERIES:
    case C_COUNT:
        break;
    }
    return C_ANY;
}

typedef struct member {
    const char *key;
    json_t *v;
    int rank;
} member;

static int rank_of(ctx c, const char *key)
{
    if (!strcmp(key, "type")) return -1;
    const char *const *o = orders[c];
    for (int i = 0; o[i]; i++)
        if (!strcmp(key, o[i])) return i;
    return 1000;
}

static int member_cmp(const void *a, const void *b)
{
    const member *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return strcmp(x->key, y->key);
}

static void indent(qr_buf *b, int n)
{
    char *p = qr_buf_reserve(b, (size_t)n);
    if (!p) return;
    memset(p, ' ', (size_t)n);
    b->len += (size_t)n;
    b->data[b->len] = '\0';
}

static void put_string(qr_buf *b, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    qr_buf_putc(b, '"');
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        qr_buf_append(b, s + start, i - start);
        start = i + 1;
        char esc[7] = {'\\', 0};
        switch (c) {
        case '"':
            esc[1] = '"';
            break;
        case '\\':
            esc[1] = '\\';
            break;
        case '\n':
            esc[1] = 'n';
            break;
        case '\r':
            esc[1] = 'r';
            break;
        case '\t':
            esc[1] = 't';
            break;
        case '\b':
            esc[1] = 'b';
            break;
        case '\f':
            esc[1] = 'f';
            break;
        default:
            memcpy(esc, "\\u00", 4);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            qr_buf_append(b, esc, 6);
            continue;
        }
        qr_buf_append(b, esc, 2);
    }
    qr_buf_append(b, s + start, n - start);
    qr_buf_putc(b, '"');
}

static void put_scalar(qr_buf *b, json_t *v)
{
    char num[40];
    switch (json_typeof(v)) {
    case JSON_STRING:
        put_string(b, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        qr_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        break;
    case JSON_REAL: {
        int n = qr_fmt_double(json_real_value(v), num);
        /* keep it a real when it reads like an integer */
        if (strspn(num, "-0123456789") == (size_t)n) memcpy(num + n, ".0", 3), n += 2;
        qr_buf_append(b, num, (size_t)n);
        break;
    }
    case JSON_TRUE:
        qr_buf_puts(b, "true");
        break;
    case JSON_FALSE:
        qr_buf_puts(b, "false");
        break;
    case JSON_NULL:
        qr_buf_puts(b, "null");
        break;
    case JSON_OBJECT:
    case JSON_ARRAY:
        break;
    }
}

static int is_container(json_t *v)
{
    return json_is_object(v) || json_is_array(v);
}

static int emit(qr_buf *b, json_t *v, ctx c, int ind)
{
    if (json_is_array(v)) {
        size_t n = json_array_size(v), i;
        json_t *e;
        int flat = 1;
        json_array_foreach(v, i, e) if (is_container(e)) flat = 0;
        if (n == 0) return qr_buf_puts(b, "[]"), 0;
        if (flat) {
            qr_buf_putc(b, '[');
            json_array_foreach(v, i, e)
            {
                if (i) qr_buf_puts(b, ", ");
                put_scalar(b, e);
            }
            qr_buf_putc(b, ']');
            return 0;
        }
        qr_buf_puts(b, "[\n");
        json_array_foreach(v, i, e)
        {
            indent(b, ind + 2);
            if (emit(b, e, c, ind + 2) < 0) return -1;
            qr_buf_puts(b, i + 1 < n ? ",\n" : "\n");
        }
        indent(b, ind);
        qr_buf_putc(b, ']');
        return 0;
    }
    if (json_is_object(v)) {
        size_t n = json_object_size(v), k = 0;
        if (n == 0) return qr_buf_puts(b, "{}"), 0;
        member *ms = malloc(n * sizeof *ms);
        if (!ms) return -1;
        const char *key;
        json_t *e;
        json_object_foreach(v, key, e) ms[k++] = (member){key, e, rank_of(c, key)};
        qsort(ms, n, sizeof *ms, member_cmp);
        qr_buf_puts(b, "{\n");
        for (size_t i = 0; i < n; i++) {
            indent(b, ind + 2);
            put_string(b, ms[i].key, strlen(ms[i].key));
            qr_buf_puts(b, ": ");
            if (emit(b, ms[i].v, member_ctx(c, ms[i].key), ind + 2) < 0) {
                free(ms);
                return -1;
            }
            qr_buf_puts(b, i + 1 < n ? ",\n" : "\n");
        }
        free(ms);
        indent(b, ind);
        qr_buf_putc(b, '}');
        return 0;
    }
    put_scalar(b, v);
    return 0;
}

qr_status qr_canonical(const char *json, size_t len, qr_buf *out, qr_errlist *errs)
{
    if (!out || !errs || (!json && len)) {
        if (errs) qr_errlist_add(errs, QR_E_USAGE, "", "qr_canonical: bad arguments", NULL);
        return qr_fail(QR_E_USAGE);
    }
    if (!json) json = "";
    size_t bad = qr_utf8_check(json, len);
    if (bad != (size_t)-1) {
        qr_errlist_addf(errs, QR_E_UTF8, "", "save the spec as UTF-8", "invalid UTF-8 at byte %zu",
                        bad);
        return qr_fail(QR_E_UTF8);
    }
    qr_status st;
    json_t *root = qr_json_parse(json, len, 1, errs, &st);
    if (!root) return st;
    qr_buf b = {0};
    int r = emit(&b, root, json_is_object(root) ? C_TOP : C_ANY, 0);
    qr_buf_putc(&b, '\n');
    json_decref(root);
    if (r < 0 || b.oom) {
        qr_buf_free(&b);
        qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    qr_buf_free(out);
    *out = b;
    return QR_OK;
}

int qr_kind_guess(const char *json, size_t len, qr_kind *kind)
{
    if (!json || qr_utf8_check(json, len) != (size_t)-1) return -1;
    qr_errlist errs = {0};
    qr_status st;
    json_t *root = qr_json_parse(json, len, 0, &errs, &st);
    qr_errlist_clear(&errs);
    if (!root) return -1;
    int r = -1;
    if (json_is_object(root)) {
        if (json_object_get(root, "slides"))
            *kind = QR_KIND_PRESENTATION;
        else if (json_object_get(root, "sheets"))
            *kind = QR_KIND_SPREADSHEET;
        else
            *kind = QR_KIND_DOCUMENT;
        r = 0;
    }
    json_decref(root);
    return r;
}
