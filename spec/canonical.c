/* canonical.c: canonical JSON for the store (so `diff v1.json v2.json` reads
 * like a code review), and the kind guess.
 *
 * Layout: 2-space indent, one member or element per line, except arrays
 * whose elements are all scalars (a sheet row, widths, a table row), which
 * stay on one line: `[1, "a", null]`; rows are the unit of a diff. Keys come
 * in the schema table's order (schema.h; "type" first), chosen by where the
 * object sits (a block, a run, a slide...: the table's child links); unknown
 * keys follow, sorted by bytes. Strings are
 * UTF-8 with only '"', '\' and control characters escaped. Integers print
 * as integers; reals print shortest (qr_fmt_double) and keep a ".0" when
 * integral, so they read back as reals. A string holding an object (a spec
 * sent as a string) is unwrapped first. fmt(fmt(x)) == fmt(x).
 *
 * Two entries write the same bytes: qr_canonical from text, and
 * qr_canonical_value from a tree already parsed (an edit's result: the
 * store writes it without dumping and parsing it again). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "json_parse.h"
#include "schema.h"

/* Where an object sits: a qr_sobj_id of the schema table (schema.h),
 * QR_SO_BLOCK for a block, or QR_SO_NONE (unknown: keys sort by bytes). */
typedef int ctx;

/* The object a member's value holds (arrays pass it on to their elements). */
static ctx member_ctx(ctx parent, const char *key)
{
    if (parent == QR_SO_BLOCK) {
        /* any block type's key: the first block type that has it says */
        for (size_t i = 0; i < qr_schema_n_blocks; i++) {
            const qr_skey *k = qr_schema_key(qr_schema_blocks[i].obj, key);
            if (k) return k->child;
        }
        return QR_SO_NONE;
    }
    const qr_skey *k = qr_schema_key(parent, key);
    return k ? k->child : QR_SO_NONE;
}

typedef struct member {
    const char *key;
    json_t *v;
    int rank;
} member;

static int rank_of(ctx c, const char *key)
{
    if (!strcmp(key, "type")) return -1;
    if (c == QR_SO_BLOCK) {
        /* the union of the block types' keys, in table order */
        int rank = 0;
        for (size_t i = 0; i < qr_schema_n_blocks; i++) {
            const qr_sobj *o = &qr_schema_objs[qr_schema_blocks[i].obj];
            for (size_t j = 0; j < o->n_keys; j++) {
                const char *name = o->keys[j].name;
                int seen = 0;
                for (size_t i2 = 0; i2 <= i && !seen; i2++) {
                    const qr_sobj *p = &qr_schema_objs[qr_schema_blocks[i2].obj];
                    for (size_t j2 = 0; j2 < (i2 == i ? j : p->n_keys); j2++)
                        if (!strcmp(p->keys[j2].name, name)) seen = 1;
                }
                if (seen) continue;
                if (!strcmp(name, key)) return rank;
                rank++;
            }
        }
        return 1000;
    }
    if (c < 0 || c >= QR_SO_COUNT) return 1000;
    const qr_sobj *o = &qr_schema_objs[c];
    for (size_t i = 0; i < o->n_keys; i++)
        if (!strcmp(key, o->keys[i].name)) return (int)i;
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
    qr_buf_json_str(b, s, n, 0);
}

/* An integer in decimal (what "%" JSON_INTEGER_FORMAT prints, without printf). */
static void put_int(qr_buf *b, json_int_t v)
{
    char d[24];
    size_t n = 0;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        d[sizeof d - ++n] = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) d[sizeof d - ++n] = '-';
    qr_buf_append(b, d + sizeof d - n, n);
}

static void put_scalar(qr_buf *b, json_t *v)
{
    char num[40];
    switch (json_typeof(v)) {
    case JSON_STRING:
        put_string(b, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        put_int(b, json_integer_value(v));
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

/* A tree nested this deep goes back to the text path (qr_canonical_value):
 * there the parse reports the depth limit, as it always has. */
#define TREE_MAX_IND (2 * (QR_JP_MAX_DEPTH - 16))

/* Write v at indent ind. Returns 0, -1 out of memory, or -2 for a
 * container at an indent past max_ind. */
static int emit(qr_buf *b, json_t *v, ctx c, int ind, int max_ind)
{
    if (ind > max_ind && is_container(v)) return -2;
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
            int r = emit(b, e, c, ind + 2, max_ind);
            if (r < 0) return r;
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
        if (c == QR_SO_BLOCK) {
            /* a block of a known type: that type's own key order */
            json_t *t = json_object_get(v, "type");
            int bt = json_is_string(t) ? qr_schema_block(json_string_value(t)) : -1;
            if (bt >= 0) c = qr_schema_blocks[bt].obj;
        }
        json_object_foreach(v, key, e) ms[k++] = (member){key, e, rank_of(c, key)};
        qsort(ms, n, sizeof *ms, member_cmp);
        qr_buf_puts(b, "{\n");
        for (size_t i = 0; i < n; i++) {
            indent(b, ind + 2);
            put_string(b, ms[i].key, strlen(ms[i].key));
            qr_buf_puts(b, ": ");
            int r = emit(b, ms[i].v, member_ctx(c, ms[i].key), ind + 2, max_ind);
            if (r < 0) {
                free(ms);
                return r;
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

/* The kind a spec's keys say (qr_kind_guess). */
static qr_kind guess(json_t *root)
{
    if (json_object_get(root, "slides")) return QR_KIND_PRESENTATION;
    if (json_object_get(root, "sheets")) return QR_KIND_SPREADSHEET;
    return QR_KIND_DOCUMENT;
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
    ctx top = QR_SO_NONE;
    if (json_is_object(root)) top = qr_schema_top(guess(root));
    int r = emit(&b, root, top, 0, INT_MAX);
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

int qr_canonical_value(json_t *root, qr_buf *out)
{
    if (!json_is_object(root)) return 1; /* the text path unwraps strings */
    qr_buf b = {0};
    int r = emit(&b, root, qr_schema_top(guess(root)), 0, TREE_MAX_IND);
    qr_buf_putc(&b, '\n');
    if (r == 0 && b.oom) r = -1;
    if (r != 0) {
        qr_buf_free(&b);
        return r == -2 ? 1 : -1;
    }
    qr_buf_free(out);
    *out = b;
    return 0;
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
        *kind = guess(root);
        r = 0;
    }
    json_decref(root);
    return r;
}
