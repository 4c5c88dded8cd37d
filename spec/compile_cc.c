/* compile_cc.c: the compile context's plumbing. JSON pointer building
 * (RFC 6901 escaping), error reporting with a cap, unknown-key checks with
 * did-you-mean hints, typed member getters, limit checks and the packed
 * string pool every compiled string is copied into. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "schema.h"

/* ---- paths -------------------------------------------------------------- */

static int path_reserve(qr_cc *cc, size_t extra)
{
    if (cc->plen + extra + 1 <= cc->pcap) return 0;
    size_t cap = cc->pcap ? cc->pcap : 128;
    while (cap < cc->plen + extra + 1)
        cap *= 2;
    char *p = realloc(cc->path, cap);
    if (!p) {
        qr_cc_oom(cc);
        return -1;
    }
    cc->path = p;
    cc->pcap = cap;
    return 0;
}

size_t qr_cc_push_key(qr_cc *cc, const char *key)
{
    size_t old = cc->plen;
    size_t n = strlen(key);
    if (path_reserve(cc, 2 * n + 1) < 0) return old;
    char *p = cc->path + cc->plen;
    *p++ = '/';
    for (size_t i = 0; i < n; i++) {
        if (key[i] == '~') {
            *p++ = '~';
            *p++ = '0';
        } else if (key[i] == '/') {
            *p++ = '~';
            *p++ = '1';
        } else {
            *p++ = key[i];
        }
    }
    *p = '\0';
    cc->plen = (size_t)(p - cc->path);
    return old;
}

size_t qr_cc_push_index(qr_cc *cc, size_t i)
{
    size_t old = cc->plen;
    if (path_reserve(cc, 24) < 0) return old;
    char digits[24], *d = digits + sizeof digits;
    do {
        *--d = (char)('0' + i % 10);
        i /= 10;
    } while (i);
    char *p = cc->path + cc->plen;
    *p++ = '/';
    size_t n = (size_t)(digits + sizeof digits - d);
    memcpy(p, d, n);
    p[n] = '\0';
    cc->plen += n + 1;
    return old;
}

void qr_cc_pop(qr_cc *cc, size_t old)
{
    cc->plen = old;
    if (cc->path) cc->path[old] = '\0';
}

const char *qr_cc_path(qr_cc *cc)
{
    const char *p = qr_cc_strndup(cc, cc->path ? cc->path : "", cc->path ? cc->plen : 0);
    return p ? p : "";
}

/* ---- errors ------------------------------------------------------------- */

void qr_cc_oom(qr_cc *cc)
{
    cc->nomem = 1;
}

static void add(qr_cc *cc, qr_status code, const char *path, const char *hint, const char *msg)
{
    cc->n_errors++;
    if (code == QR_E_LIMIT) cc->limit = 1;
    if (cc->n_errors > QR_CC_MAX_ERRORS) {
        cc->n_suppressed++;
        return;
    }
    /* Every error has a hint: the safety net for a message that has none. */
    if (!hint) hint = "the kind's JSON Schema (qr_schema) shows the expected value";
    qr_errlist_add(cc->errs, code, path, msg, hint);
}

void qr_cc_err(qr_cc *cc, const char *hint, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    add(cc, QR_E_SPEC, cc->path ? cc->path : "", hint, msg);
}

void qr_cc_err_key(qr_cc *cc, const char *key, const char *hint, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t old = qr_cc_push_key(cc, key);
    add(cc, QR_E_SPEC, cc->path ? cc->path : "", hint, msg);
    qr_cc_pop(cc, old);
}

void qr_cc_limit(qr_cc *cc, const char *name, const char *fmt, ...)
{
    char msg[1024], hint[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(hint, sizeof hint, "raise qr_limits.%s", name);
    add(cc, QR_E_LIMIT, cc->path ? cc->path : "", hint, msg);
}

void qr_cc_missing(qr_cc *cc, const char *key, const char *hint)
{
    qr_cc_err_key(cc, key, hint, "missing \"%s\"", key);
}

const char *qr_cc_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

/* ---- keys --------------------------------------------------------------- */

static int key_known(const char *key, const char *const *keys)
{
    for (size_t i = 0; keys[i]; i++)
        if (strcmp(key, keys[i]) == 0) return 1;
    return 0;
}

/* Top-level keys that name another kind of spec. */
static const char *other_kind(const char *key)
{
    if (!strcmp(key, "slides")) return "presentation spec (.pptx)";
    if (!strcmp(key, "sheets")) return "spreadsheet spec (.xlsx)";
    if (!strcmp(key, "blocks") || !strcmp(key, "sections") || !strcmp(key, "page"))
        return "document spec (.docx, .pdf, .html)";
    return NULL;
}

int qr_cc_check_keys(qr_cc *cc, json_t *obj, const char *const *keys, const char *what)
{
    int unknown = 0;
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        if (key_known(key, keys)) continue;
        unknown++;
        if (strcmp(key, "footnotes") == 0) {
            qr_cc_err_key(cc, key,
                          "a footnote is a run: \"runs\": [\"text\", {\"footnote\": \"the "
                          "note\"}]; \"notes\": \"endnotes\" collects them at the end",
                          "unknown key \"footnotes\"");
            continue;
        }
        char hint[512];
        const char *s = qr_suggest(key, keys);
        const char *other = other_kind(key);
        const qr_skey *flag = qr_schema_key(QR_SO_RUN, key);
        if (flag && strcmp(key, "text") != 0) {
            /* {"type": "paragraph", "text": "x", "bold": true}: a run's flag on its holder */
            snprintf(hint, sizeof hint,
                     "\"%s\" belongs on a run: \"runs\": [{\"text\": \"...\", \"%s\": %s}]", key,
                     key, strcmp(key, "link") == 0 ? "\"https://...\"" : "true");
        } else if (s) {
            snprintf(hint, sizeof hint, "did you mean \"%s\"?", s);
        } else if (other && cc->plen == 0) {
            snprintf(hint, sizeof hint, "\"%s\" belongs in a %s; this is a %s spec", key, other,
                     qr_kind_name(cc->kind));
        } else {
            size_t n = (size_t)snprintf(hint, sizeof hint, "%s takes:", what);
            for (size_t i = 0; keys[i] && n < sizeof hint; i++)
                n +=
                    (size_t)snprintf(hint + n, sizeof hint - n, "%s \"%s\"", i ? "," : "", keys[i]);
        }
        /* Keys are UTF-8 of any length: quote at most 64 bytes of one. */
        qr_cc_err_key(cc, key, hint, "unknown key \"%.64s\"", key);
    }
    return unknown;
}

int qr_cc_check_obj(qr_cc *cc, json_t *obj, int id, const char *what)
{
    const char *names[QR_SCHEMA_MAX_KEYS + 1];
    qr_schema_names((qr_sobj_id)id, names);
    return qr_cc_check_keys(cc, obj, names, what);
}

/* ---- strings -------------------------------------------------------------- */

enum { POOL_CHUNK = 64 * 1024, POOL_BIG = 1024 };

const char *qr_cc_strndup(qr_cc *cc, const char *s, size_t n)
{
    char *d;
    if (n + 1 > POOL_BIG) {
        d = qr_arena_strndup(cc->a, s, n);
        if (!d) qr_cc_oom(cc);
        return d;
    }
    if (n + 1 > cc->pool_left) {
        cc->pool = qr_arena_alloc(cc->a, POOL_CHUNK);
        if (!cc->pool) {
            cc->pool_left = 0;
            qr_cc_oom(cc);
            return NULL;
        }
        cc->pool_left = POOL_CHUNK;
    }
    d = cc->pool;
    memcpy(d, s, n);
    d[n] = '\0';
    cc->pool += n + 1;
    cc->pool_left -= n + 1;
    return d;
}

const char *qr_cc_str(qr_cc *cc, json_t *s, size_t *len)
{
    size_t n = json_string_length(s);
    const char *v = json_string_value(s);
    if (cc->lim->max_string && n > cc->lim->max_string) {
        qr_cc_limit(cc, "max_string", "a string of %zu bytes; the limit max_string is %zu bytes", n,
                    cc->lim->max_string);
        return NULL;
    }
    if (memchr(v, '\0', n)) {
        qr_cc_err(cc, "remove the \\u0000 character", "strings may not contain NUL (\\u0000)");
        return NULL;
    }
    if (len) *len = n;
    return qr_cc_strndup(cc, v, n);
}

/* ---- typed members --------------------------------------------------------- */

int qr_cc_get_string(qr_cc *cc, json_t *obj, const char *key, int required, const char **out,
                     size_t *len)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        if (required) {
            char hint[96];
            snprintf(hint, sizeof hint, "add \"%.40s\": \"...\"", key);
            qr_cc_missing(cc, key, hint);
        }
        return 0;
    }
    size_t old = qr_cc_push_key(cc, key);
    int r = -1;
    if (!json_is_string(v)) {
        qr_cc_err(cc, "put the value in quotes: a JSON string", "expected a string, got %s",
                  qr_cc_type_name(v));
    } else {
        *out = qr_cc_str(cc, v, len);
        if (*out) r = 1;
    }
    qr_cc_pop(cc, old);
    return r;
}

int qr_cc_get_bool(qr_cc *cc, json_t *obj, const char *key, int *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return 0;
    if (!json_is_boolean(v)) {
        qr_cc_err_key(cc, key, "use true or false", "expected true or false, got %s",
                      qr_cc_type_name(v));
        return -1;
    }
    *out = json_is_true(v);
    return 1;
}

int qr_cc_number(const json_t *v, double *out)
{
    if (json_is_integer(v)) {
        *out = (double)json_integer_value(v);
        return 1;
    }
    if (json_is_real(v)) {
        *out = json_real_value(v);
        return 1;
    }
    return 0;
}

int qr_cc_get_int(qr_cc *cc, json_t *obj, const char *key, long lo, long hi, int *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return 0;
    char got[64];
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i >= lo && i <= hi) {
            *out = (int)i;
            return 1;
        }
        snprintf(got, sizeof got, "%" JSON_INTEGER_FORMAT, i);
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        /* 2.0 is an integer that was written with a point: accept it. */
        if (d == floor(d) && d >= (double)lo && d <= (double)hi) {
            *out = (int)d;
            return 1;
        }
        char num[32];
        qr_fmt_double(d, num);
        snprintf(got, sizeof got, "%s", num);
    } else if (json_is_string(v)) {
        snprintf(got, sizeof got, "the string \"%.20s\"", json_string_value(v));
    } else {
        snprintf(got, sizeof got, "%s", qr_cc_type_name(v));
    }
    char hint[96];
    if (json_is_string(v))
        snprintf(hint, sizeof hint, "send a JSON number without quotes, from %ld to %ld", lo, hi);
    else
        snprintf(hint, sizeof hint, "use a whole number from %ld to %ld", lo, hi);
    qr_cc_err_key(cc, key, hint, "expected an integer from %ld to %ld, got %s", lo, hi, got);
    return -1;
}

/* ---- limits ----------------------------------------------------------------- */

int qr_cc_count_cells(qr_cc *cc, size_t n)
{
    if (cc->cells_over) return 0;
    cc->n_cells += n;
    if (cc->lim->max_cells && cc->n_cells > cc->lim->max_cells) {
        cc->cells_over = 1;
        qr_cc_limit(cc, "max_cells", "more than %zu cells; the limit max_cells is %zu cells",
                    cc->lim->max_cells, cc->lim->max_cells);
        return 0;
    }
    return 1;
}

int qr_cc_count_table_cells(qr_cc *cc, size_t n)
{
    if (cc->table_cells_over) return 0;
    cc->n_table_cells += n;
    if (cc->lim->max_table_cells && cc->n_table_cells > cc->lim->max_table_cells) {
        cc->table_cells_over = 1;
        qr_cc_limit(cc, "max_table_cells",
                    "more than %zu table cells; the limit max_table_cells is %zu cells",
                    cc->lim->max_table_cells, cc->lim->max_table_cells);
        return 0;
    }
    return qr_cc_count_cells(cc, n);
}

int qr_cc_check_blocks(qr_cc *cc, size_t n, const char *what)
{
    if (cc->lim->max_blocks && n > cc->lim->max_blocks) {
        qr_cc_limit(cc, "max_blocks", "%zu %s; the limit max_blocks is %zu", n, what,
                    cc->lim->max_blocks);
        return 0;
    }
    return 1;
}
