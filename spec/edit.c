/* edit.c: spec edits (edit.h): RFC 7386 merge patch, spec_append and
 * RFC 6902 JSON Patch with RFC 6901 pointers, on jansson values. Every
 * entry point works on copies; errors name the path inside the edit request
 * and quote the failing pointer. */
#include "edit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "json_parse.h"

#define DECODE_FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL)

/* ---- small helpers ---------------------------------------------------------- */

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

void qr_edit_pointer_push(qr_buf *b, const char *token)
{
    qr_buf_putc(b, '/');
    for (const char *p = token; *p; p++) {
        if (*p == '~')
            qr_buf_puts(b, "~0");
        else if (*p == '/')
            qr_buf_puts(b, "~1");
        else
            qr_buf_putc(b, *p);
    }
}

/* "base/i/field" into a caller buffer. */
static void op_path(char *dst, size_t n, const char *base, size_t i, const char *field)
{
    if (field)
        snprintf(dst, n, "%s/%zu/%s", base, i, field);
    else
        snprintf(dst, n, "%s/%zu", base, i);
}

int qr_edit_json_equal(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) {
        if (json_is_integer(a) && json_is_integer(b))
            return json_integer_value(a) == json_integer_value(b);
        return json_number_value(a) == json_number_value(b);
    }
    if (json_typeof(a) != json_typeof(b)) return 0;
    switch (json_typeof(a)) {
    case JSON_OBJECT: {
        if (json_object_size(a) != json_object_size(b)) return 0;
        const char *k;
        json_t *va;
        json_object_foreach((json_t *)a, k, va)
        {
            json_t *vb = json_object_get(b, k);
            if (!vb || !qr_edit_json_equal(va, vb)) return 0;
        }
        return 1;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(a);
        if (n != json_array_size(b)) return 0;
        for (size_t i = 0; i < n; i++)
            if (!qr_edit_json_equal(json_array_get(a, i), json_array_get(b, i))) return 0;
        return 1;
    }
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
    default:
        return 1; /* true, false, null: same type is equal */
    }
}

/* ---- RFC 7386 --------------------------------------------------------------- */

/* Merge patch into target, which we own; returns the new owned value. */
static json_t *merge_owned(json_t *target, const json_t *patch)
{
    if (!json_is_object(patch)) {
        json_decref(target);
        return json_deep_copy(patch);
    }
    if (!json_is_object(target)) {
        json_decref(target);
        target = json_object();
        if (!target) return NULL;
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)patch, k, v)
    {
        if (json_is_null(v)) {
            json_object_del(target, k);
            continue;
        }
        json_t *cur = json_object_get(target, k);
        json_t *merged = merge_owned(cur ? json_incref(cur) : NULL, v);
        /* The member and our reference: drop the member first so a nested
         * merge that reused it in place keeps its only reference. */
        if (!merged || json_object_set_new(target, k, merged) != 0) {
            json_decref(target);
            return NULL;
        }
    }
    return target;
}

json_t *qr_edit_merge_patch(const json_t *target, const json_t *patch)
{
    /* Work on a deep copy so nothing shares structure with the inputs. */
    json_t *t = target ? json_deep_copy(target) : NULL;
    if (target && !t) return NULL;
    return merge_owned(t, patch);
}

/* ---- spec_append ------------------------------------------------------------ */

qr_status qr_edit_append(json_t *doc, const json_t *append, const char *base, qr_errlist *errs)
{
    qr_status st = QR_OK;
    if (!json_is_object(doc)) {
        return qr_errlist_addf(
            errs, QR_E_EDIT, "", "spec_append adds to top-level lists of an object",
            "spec_append needs a spec that is an object, got %s", type_name(doc));
    }
    const char *k;
    json_t *items;
    json_object_foreach((json_t *)append, k, items)
    {
        qr_buf p = {0};
        qr_buf_puts(&p, base);
        qr_edit_pointer_push(&p, k);
        if (!json_is_array(items)) {
            st = qr_errlist_addf(errs, QR_E_EDIT, p.data ? p.data : base,
                                 "write a list even for one item, e.g. {\"blocks\": [{...}]}",
                                 "spec_append['%s'] must be a list of items to append.", k);
            qr_buf_free(&p);
            continue;
        }
        json_t *cur = json_object_get(doc, k);
        if (cur && !json_is_array(cur)) {
            st = qr_errlist_addf(errs, QR_E_EDIT, p.data ? p.data : base,
                                 "use spec_patch to replace it, or ops to change it",
                                 "spec_append target '%s' is not a list in the current spec.", k);
            qr_buf_free(&p);
            continue;
        }
        qr_buf_free(&p);
        if (st != QR_OK) continue;
        if (!cur) {
            cur = json_array();
            if (!cur || json_object_set_new(doc, k, cur) != 0) return QR_E_NOMEM;
        }
        size_t n = json_array_size(items);
        for (size_t i = 0; i < n; i++) {
            json_t *c = json_deep_copy(json_array_get(items, i));
            if (!c || json_array_append_new(cur, c) != 0) return QR_E_NOMEM;
        }
    }
    return st;
}

/* ---- RFC 6901 pointers -------------------------------------------------------- */

typedef struct pointer {
    char **tok;
    size_t n;
} pointer;

static void pointer_free(pointer *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->tok[i]);
    free(p->tok);
    p->tok = NULL;
    p->n = 0;
}

/* Split and unescape. Returns 0, or -1 with why filled. */
static int pointer_parse(const char *s, pointer *out, char *why, size_t whysz)
{
    out->tok = NULL;
    out->n = 0;
    if (*s == '\0') return 0;
    if (*s != '/') {
        snprintf(why, whysz, "\"%s\" is not a JSON pointer: it must be \"\" or start with \"/\"",
                 s);
        return -1;
    }
    size_t cap = 0;
    const char *p = s;
    while (*p == '/') {
        p++;
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char *t = malloc(len + 1);
        if (!t) goto oom;
        size_t o = 0;
        for (size_t i = 0; i < len; i++) {
            if (p[i] == '~') {
                if (i + 1 < len && (p[i + 1] == '0' || p[i + 1] == '1')) {
                    t[o++] = p[i + 1] == '0' ? '~' : '/';
                    i++;
                } else {
                    snprintf(why, whysz,
                             "\"%s\" is not a JSON pointer: \"~\" must be followed by 0 or 1 "
                             "(\"~0\" is ~, \"~1\" is /)",
                             s);
                    free(t);
                    pointer_free(out);
                    return -1;
                }
            } else {
                t[o++] = p[i];
            }
        }
        t[o] = '\0';
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            char **nt = realloc(out->tok, cap * sizeof *nt);
            if (!nt) {
                free(t);
                goto oom;
            }
            out->tok = nt;
        }
        out->tok[out->n++] = t;
        p += len;
    }
    return 0;
oom:
    pointer_free(out);
    snprintf(why, whysz, "out of memory");
    return -1;
}

/* The escaped pointer of the first n tokens, for messages. */
static char *pointer_prefix(const pointer *p, size_t n)
{
    qr_buf b = {0};
    for (size_t i = 0; i < n; i++)
        qr_edit_pointer_push(&b, p->tok[i]);
    if (!b.data) qr_buf_puts(&b, "");
    return b.data ? b.data : strdup("");
}

/* An array index token: "0" or [1-9][0-9]*. Returns 0 and *idx, or -1. */
static int array_index(const char *t, size_t *idx)
{
    if (!*t || (t[0] == '0' && t[1])) return -1;
    size_t v = 0;
    for (const char *c = t; *c; c++) {
        if (*c < '0' || *c > '9') return -1;
        if (v > ((size_t)-1 - 9) / 10) return -1;
        v = v * 10 + (size_t)(*c - '0');
    }
    *idx = v;
    return 0;
}

/* Walk the first n tokens of p from root. Returns the value, or NULL with
 * why saying which step failed. */
static json_t *resolve(json_t *root, const pointer *p, size_t n, char *why, size_t whysz)
{
    json_t *cur = root;
    for (size_t i = 0; i < n; i++) {
        const char *t = p->tok[i];
        char *at = pointer_prefix(p, i);
        json_t *next = NULL;
        if (json_is_object(cur)) {
            next = json_object_get(cur, t);
            if (!next) snprintf(why, whysz, "the object at \"%s\" has no member \"%s\"", at, t);
        } else if (json_is_array(cur)) {
            size_t idx;
            if (strcmp(t, "-") == 0) {
                snprintf(why, whysz, "\"-\" (past the end of the array at \"%s\") names no element",
                         at);
            } else if (array_index(t, &idx) != 0) {
                snprintf(why, whysz,
                         "\"%s\" is not an array index (the value at \"%s\" is an array)", t, at);
            } else if (idx >= json_array_size(cur)) {
                snprintf(why, whysz,
                         "index %zu is out of range: the array at \"%s\" has %zu item%s", idx, at,
                         json_array_size(cur), json_array_size(cur) == 1 ? "" : "s");
            } else {
                next = json_array_get(cur, idx);
            }
        } else {
            snprintf(why, whysz, "the value at \"%s\" is %s, which has no members", at,
                     type_name(cur));
        }
        free(at);
        if (!next) return NULL;
        cur = next;
    }
    return cur;
}

/* ---- RFC 6902 ------------------------------------------------------------------- */

typedef struct op_ctx {
    qr_errlist *errs;
    const char *base;
    size_t i;
    size_t copied; /* compact JSON bytes the copy ops have duplicated so far */
} op_ctx;

/* "copy" is the one op that grows a spec by more than its own text: 40 ops
 * copying "/blocks" to "/blocks/-" ask for 2^40 blocks. An edit may copy at
 * most this much (a parsed value takes about ten times its compact text in
 * memory, so ~100 MB); past it the edit fails with QR_E_LIMIT before memory
 * runs out. Bigger changes are a rewrite. */
#define EDIT_MAX_COPY ((size_t)8 << 20)

/* A lower bound of v's compact JSON size, stopping early past limit. */
static size_t json_size(const json_t *v, size_t limit)
{
    size_t n = 0;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *m;
        n = 2;
        json_object_foreach((json_t *)v, k, m)
        {
            n += strlen(k) + 4 + json_size(m, limit);
            if (n > limit) break;
        }
        return n;
    }
    case JSON_ARRAY:
        n = 2;
        for (size_t i = 0; i < json_array_size(v) && n <= limit; i++)
            n += 1 + json_size(json_array_get(v, i), limit);
        return n;
    case JSON_STRING:
        return json_string_length(v) + 2;
    default:
        return 1;
    }
}

static qr_status op_error(op_ctx *c, const char *field, const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static qr_status op_error(op_ctx *c, const char *field, const char *hint, const char *fmt, ...)
{
    char path[512], msg[1024];
    op_path(path, sizeof path, c->base, c->i, field);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return qr_errlist_add(c->errs, QR_E_EDIT, path, msg, hint);
}

/* Insert value (owned) at pointer p in *root. For arrays, replace=0 inserts
 * (add), replace=1 sets an existing element. Returns 0, or -1 with why. */
static int put_value(json_t **root, const pointer *p, json_t *value, int replace, char *why,
                     size_t whysz)
{
    if (p->n == 0) {
        json_decref(*root);
        *root = value;
        return 0;
    }
    json_t *parent = resolve(*root, p, p->n - 1, why, whysz);
    if (!parent) {
        json_decref(value);
        return -1;
    }
    const char *t = p->tok[p->n - 1];
    if (json_is_object(parent)) {
        if (replace && !json_object_get(parent, t)) {
            char *at = pointer_prefix(p, p->n - 1);
            snprintf(why, whysz, "the object at \"%s\" has no member \"%s\"", at, t);
            free(at);
            json_decref(value);
            return -1;
        }
        if (json_object_set_new(parent, t, value) != 0) {
            snprintf(why, whysz, "out of memory");
            return -1;
        }
        return 0;
    }
    if (json_is_array(parent)) {
        size_t size = json_array_size(parent), idx;
        char *at = pointer_prefix(p, p->n - 1);
        int bad = 0;
        if (strcmp(t, "-") == 0 && !replace) {
            idx = size;
        } else if (strcmp(t, "-") == 0) {
            snprintf(why, whysz,
                     "\"-\" (past the end of the array at \"%s\") names no element to replace", at);
            bad = 1;
        } else if (array_index(t, &idx) != 0) {
            snprintf(why, whysz, "\"%s\" is not an array index (the value at \"%s\" is an array)",
                     t, at);
            bad = 1;
        } else if (replace ? idx >= size : idx > size) {
            snprintf(why, whysz, "index %zu is out of range: the array at \"%s\" has %zu item%s",
                     idx, at, size, size == 1 ? "" : "s");
            bad = 1;
        }
        free(at);
        if (bad) {
            json_decref(value);
            return -1;
        }
        int rc = replace ? json_array_set_new(parent, idx, value)
                         : json_array_insert_new(parent, idx, value);
        if (rc != 0) {
            snprintf(why, whysz, "out of memory");
            return -1;
        }
        return 0;
    }
    char *at = pointer_prefix(p, p->n - 1);
    snprintf(why, whysz, "the value at \"%s\" is %s, which has no members", at, type_name(parent));
    free(at);
    json_decref(value);
    return -1;
}

/* Remove the value at p (not the root). Returns 0, or -1 with why. */
static int remove_value(json_t *root, const pointer *p, char *why, size_t whysz)
{
    json_t *target = resolve(root, p, p->n, why, whysz);
    if (!target) return -1;
    json_t *parent = resolve(root, p, p->n - 1, why, whysz);
    const char *t = p->tok[p->n - 1];
    if (json_is_object(parent)) return json_object_del(parent, t) == 0 ? 0 : -1;
    size_t idx;
    if (array_index(t, &idx) != 0) return -1; /* resolve() took it: cannot happen */
    return json_array_remove(parent, idx) == 0 ? 0 : -1;
}

static const char *const op_names[] = {"add", "remove", "replace", "move", "copy", "test", NULL};

static const char *str_member(const json_t *op, const char *key)
{
    json_t *v = json_object_get(op, key);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Read and check a pointer member ("path" or "from"). */
static int pointer_member(op_ctx *c, const json_t *op, const char *key, pointer *out)
{
    json_t *v = json_object_get(op, key);
    const char *opname = str_member(op, "op");
    if (!v) {
        op_error(c, NULL, "write it as a JSON pointer, e.g. \"/blocks/0\" or \"/sheets/0/rows/-\"",
                 "%s needs \"%s\"", opname, key);
        return -1;
    }
    if (!json_is_string(v)) {
        op_error(c, key, "write it as a JSON pointer, e.g. \"/blocks/0\"",
                 "\"%s\" must be a string (a JSON pointer), got %s", key, type_name(v));
        return -1;
    }
    char why[768];
    if (pointer_parse(json_string_value(v), out, why, sizeof why) != 0) {
        op_error(c, key, "escape \"~\" as \"~0\" and \"/\" as \"~1\" inside a member name", "%s",
                 why);
        return -1;
    }
    return 0;
}

static qr_status apply_one(json_t **doc, const json_t *op, op_ctx *c)
{
    if (!json_is_object(op))
        return op_error(
            c, NULL, "e.g. {\"op\": \"replace\", \"path\": \"/title\", \"value\": \"New\"}",
            "each operation must be an object with \"op\" and \"path\", got %s", type_name(op));
    json_t *opv = json_object_get(op, "op");
    if (!opv)
        return op_error(c, NULL, "op is one of add, remove, replace, move, copy, test",
                        "the operation has no \"op\"");
    const char *name = json_is_string(opv) ? json_string_value(opv) : NULL;
    int which = -1;
    for (int k = 0; name && op_names[k]; k++)
        if (strcmp(name, op_names[k]) == 0) which = k;
    if (which < 0) {
        if (name)
            return op_error(c, "op", "op is one of add, remove, replace, move, copy, test",
                            "unknown op \"%s\"", name);
        return op_error(c, "op", "op is one of add, remove, replace, move, copy, test",
                        "\"op\" must be a string, got %s", type_name(opv));
    }
    pointer path = {0}, from = {0};
    if (pointer_member(c, op, "path", &path) != 0) return QR_E_EDIT;
    const char *ps = str_member(op, "path");
    char why[768];
    qr_status st = QR_OK;
    json_t *value = json_object_get(op, "value");
    if ((which == 0 || which == 2 || which == 5) && !value) {
        st = op_error(c, NULL, "give the new value as \"value\"", "%s needs \"value\"", name);
        goto done;
    }
    if ((which == 3 || which == 4) && pointer_member(c, op, "from", &from) != 0) {
        st = QR_E_EDIT;
        goto done;
    }
    switch (which) {
    case 0: /* add */
    case 2: /* replace */ {
        if (which == 2 && !resolve(*doc, &path, path.n, why, sizeof why)) {
            st = op_error(c, "path", "replace changes an existing value; use add to create one",
                          "cannot replace \"%s\": %s", ps, why);
            break;
        }
        json_t *v = json_deep_copy(value);
        if (!v) {
            st = QR_E_NOMEM;
            break;
        }
        if (put_value(doc, &path, v, which == 2, why, sizeof why) != 0)
            st = op_error(c, "path",
                          "add creates a member or inserts into an array whose parent exists",
                          "cannot %s \"%s\": %s", name, ps, why);
        break;
    }
    case 1: /* remove */
        if (path.n == 0) {
            st = op_error(c, "path", "remove a member, e.g. \"/blocks/3\"",
                          "cannot remove the whole spec");
        } else if (remove_value(*doc, &path, why, sizeof why) != 0) {
            st = op_error(c, "path", NULL, "cannot remove \"%s\": %s", ps, why);
        }
        break;
    case 3: /* move */
    case 4: /* copy */ {
        const char *fs = str_member(op, "from");
        json_t *src = resolve(*doc, &from, from.n, why, sizeof why);
        if (!src) {
            st = op_error(c, "from", NULL, "cannot %s from \"%s\": %s", name, fs, why);
            break;
        }
        if (which == 3) {
            int prefix = from.n < path.n;
            for (size_t k = 0; prefix && k < from.n; k++)
                if (strcmp(from.tok[k], path.tok[k]) != 0) prefix = 0;
            if (prefix) {
                st = op_error(c, "from", "a value cannot move into one of its own children",
                              "cannot move \"%s\" into \"%s\"", fs, ps);
                break;
            }
            if (from.n == path.n && strcmp(fs, ps) == 0) break; /* a move onto itself */
        }
        if (which == 4) {
            c->copied += json_size(src, EDIT_MAX_COPY);
            if (c->copied > EDIT_MAX_COPY) {
                char where[512];
                op_path(where, sizeof where, c->base, c->i, "from");
                st = qr_errlist_addf(
                    c->errs, QR_E_LIMIT, where, "copy less, or send the whole spec (rewrite)",
                    "the copy ops of this edit duplicate more than %zu bytes of JSON; "
                    "the limit for one edit is %zu bytes",
                    EDIT_MAX_COPY, EDIT_MAX_COPY);
                break;
            }
        }
        json_t *v = json_deep_copy(src);
        if (!v) {
            st = QR_E_NOMEM;
            break;
        }
        if (which == 3) {
            if (from.n == 0) {
                json_decref(v);
                st = op_error(c, "from", NULL, "cannot move the whole spec");
                break;
            }
            remove_value(*doc, &from, why, sizeof why);
        }
        if (put_value(doc, &path, v, 0, why, sizeof why) != 0)
            st = op_error(c, "path", NULL, "cannot %s to \"%s\": %s", name, ps, why);
        break;
    }
    case 5: { /* test */
        json_t *cur = resolve(*doc, &path, path.n, why, sizeof why);
        if (!cur) {
            st = op_error(c, "path", NULL, "test failed: \"%s\" does not exist: %s", ps, why);
        } else if (!qr_edit_json_equal(cur, value)) {
            char *have = qr_json_dumps(cur, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
            char *want = qr_json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
            st = op_error(c, "value", "the spec changed since you read it; read it again",
                          "test failed: the value at \"%s\" is %.200s, not %.200s", ps,
                          have ? have : "?", want ? want : "?");
            free(have);
            free(want);
        }
        break;
    }
    }
done:
    pointer_free(&path);
    pointer_free(&from);
    return st;
}

qr_status qr_edit_json_patch(json_t **doc, const json_t *ops, const char *base, qr_errlist *errs)
{
    if (!json_is_array(ops))
        return qr_errlist_addf(
            errs, QR_E_EDIT, base,
            "e.g. [{\"op\": \"replace\", \"path\": \"/title\", \"value\": \"New\"}]",
            "ops must be a JSON array of operations (RFC 6902), got %s", type_name(ops));
    op_ctx c = {errs, base, 0, 0};
    for (size_t i = 0; i < json_array_size(ops); i++) {
        c.i = i;
        qr_status st = apply_one(doc, json_array_get(ops, i), &c);
        if (st != QR_OK) {
            if (st == QR_E_NOMEM) qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
            if (st == QR_E_NOMEM || st == QR_E_LIMIT) return st;
            return QR_E_EDIT; /* later ops see a broken doc: stop */
        }
    }
    return QR_OK;
}

/* ---- text entry point ------------------------------------------------------------ */

int qr_edit_unwrap(const char *text, size_t len, qr_buf *out)
{
    json_error_t jerr;
    json_t *v = json_loadb(text, len, DECODE_FLAGS, &jerr);
    if (!json_is_string(v)) {
        json_decref(v);
        return 0;
    }
    json_t *inner = json_loadb(json_string_value(v), json_string_length(v), DECODE_FLAGS, &jerr);
    int ok = json_is_object(inner) || json_is_array(inner);
    if (ok) {
        qr_buf_append(out, json_string_value(v), json_string_length(v));
    }
    json_decref(inner);
    json_decref(v);
    return ok;
}

static qr_status no_parts(qr_errlist *errs)
{
    return qr_errlist_add(errs, QR_E_EDIT, "", "edit needs spec_patch, spec_append and/or ops.",
                          "spec_patch is a merge patch, spec_append is {key: [items]}, ops is "
                          "a JSON Patch array");
}

/* Parse one part of the request; a JSON string holding an object (or, when
 * want_array, an array) is unwrapped. NULL with an error on failure. */
static json_t *load_part(const char *text, size_t len, const char *name, int want_array,
                         qr_errlist *errs)
{
    char path[64];
    snprintf(path, sizeof path, "/%s", name);
    json_error_t jerr;
    json_t *v = json_loadb(text, len, DECODE_FLAGS, &jerr);
    if (!v) {
        qr_errlist_addf(errs, QR_E_JSON, path, "check the JSON syntax (quotes, commas, brackets)",
                        "%s is not valid JSON: %s (line %d, column %d)", name, jerr.text, jerr.line,
                        jerr.column);
        return NULL;
    }
    if (json_is_string(v)) {
        json_t *inner =
            json_loadb(json_string_value(v), json_string_length(v), DECODE_FLAGS, &jerr);
        if (inner && (want_array ? json_is_array(inner) : json_is_object(inner))) {
            json_decref(v);
            return inner;
        }
        json_decref(inner);
    }
    if (want_array ? !json_is_array(v) : !json_is_object(v)) {
        if (strcmp(name, "spec_patch") == 0)
            qr_errlist_addf(
                errs, QR_E_EDIT, path, "e.g. {\"title\": \"New\"}; null deletes a member",
                "spec_patch must be a JSON object (merge-patch), got %s.", type_name(v));
        else if (strcmp(name, "spec_append") == 0)
            qr_errlist_addf(errs, QR_E_EDIT, path,
                            "e.g. {\"blocks\": [{\"type\": \"paragraph\", \"text\": \"More\"}]}",
                            "spec_append must be a JSON object of {key: [items]}, got %s.",
                            type_name(v));
        else
            qr_errlist_addf(
                errs, QR_E_EDIT, path,
                "e.g. [{\"op\": \"replace\", \"path\": \"/title\", \"value\": \"New\"}]",
                "ops must be a JSON array of operations (RFC 6902), got %s.", type_name(v));
        json_decref(v);
        return NULL;
    }
    return v;
}

/* Parse the parts of e (each NULL when absent). */
static qr_status load_parts(const qr_edit *e, json_t **patch, json_t **append, json_t **ops,
                            qr_errlist *errs)
{
    qr_status st = QR_OK;
    if (e->patch && !(*patch = load_part(e->patch, e->patch_len, "spec_patch", 0, errs)))
        st = QR_E_EDIT;
    if (e->append && !(*append = load_part(e->append, e->append_len, "spec_append", 0, errs)))
        st = QR_E_EDIT;
    if (e->ops && !(*ops = load_part(e->ops, e->ops_len, "ops", 1, errs))) st = QR_E_EDIT;
    return st;
}

/* The spec text as jansson reads it (the errors qr_edit_apply reports). */
static json_t *load_spec(const char *spec, size_t len, qr_errlist *errs)
{
    json_error_t jerr;
    json_t *doc = json_loadb(spec, len, DECODE_FLAGS, &jerr);
    if (!doc)
        qr_errlist_addf(errs, QR_E_JSON, "", NULL,
                        "the current spec is not valid JSON: %s (line %d)", jerr.text, jerr.line);
    return doc;
}

/* Apply the parts to *doc (owned; replaced). */
static qr_status apply_parts(json_t **doc, json_t *patch, json_t *append, json_t *ops,
                             qr_errlist *errs)
{
    qr_status st;
    if (patch) {
        *doc = merge_owned(*doc, patch); /* doc is ours: merge in place */
        if (!*doc) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    if (append && (st = qr_edit_append(*doc, append, "/spec_append", errs)) != QR_OK) return st;
    if (ops && (st = qr_edit_json_patch(doc, ops, "/ops", errs)) != QR_OK) return st;
    return QR_OK;
}

static qr_status edit_status(qr_status st)
{
    return st != QR_OK && st != QR_E_NOMEM && st != QR_E_LIMIT ? QR_E_EDIT : st;
}

qr_status qr_edit_apply(const char *spec, size_t len, const qr_edit *e, qr_buf *out,
                        qr_errlist *errs)
{
    if (!e || (!e->patch && !e->append && !e->ops)) return no_parts(errs);
    json_t *patch = NULL, *append = NULL, *ops = NULL, *doc = NULL;
    qr_status st = load_parts(e, &patch, &append, &ops, errs);
    if (st == QR_OK && !(doc = load_spec(spec, len, errs))) st = QR_E_JSON;
    if (st == QR_OK) st = apply_parts(&doc, patch, append, ops, errs);
    if (st == QR_OK) {
        char *text = qr_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
        if (!text || qr_buf_puts(out, text) != 0) {
            st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
            qr_buf_free(out);
        }
        free(text);
    }
    json_decref(patch);
    json_decref(append);
    json_decref(ops);
    json_decref(doc);
    return edit_status(st);
}

qr_status qr_edit_apply_canonical(const char *spec, size_t len, const qr_edit *e, qr_buf *out,
                                  qr_errlist *errs)
{
    if (!e || (!e->patch && !e->append && !e->ops)) return no_parts(errs);
    json_t *patch = NULL, *append = NULL, *ops = NULL, *doc = NULL;
    qr_status st = load_parts(e, &patch, &append, &ops, errs);
    if (st == QR_OK) {
        /* the fast reader for a stored spec; jansson's for its error text */
        qr_jp_error je;
        if (spec && qr_utf8_check(spec, len) == (size_t)-1) doc = qr_jp_loadb(spec, len, &je);
        if (!doc && !(doc = load_spec(spec, len, errs))) st = QR_E_JSON;
    }
    if (st == QR_OK) st = apply_parts(&doc, patch, append, ops, errs);
    json_decref(patch);
    json_decref(append);
    json_decref(ops);
    if (st != QR_OK) {
        json_decref(doc);
        return edit_status(st);
    }
    int r = qr_canonical_value(doc, out);
    if (r == 1) { /* what only the text path answers: through text, as qr_edit_apply */
        char *text = qr_json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
        if (text)
            st = qr_canonical(text, strlen(text), out, errs);
        else
            r = -1;
        free(text);
    }
    json_decref(doc);
    if (r == -1) st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    return st;
}
