/* compile.c: the compiler's entry points (text in memory or pulled through a
 * reader, one path). Checks the input size and UTF-8 as the text streams,
 * parses with json_parse.c into jansson values (duplicate keys rejected, a
 * string holding an object unwrapped), checks the nesting depth, then hands the object to the
 * kind's compiler (compile_doc.c, compile_deck.c, compile_sheet.c). Also the kind names and the
 * default limits. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "json_parse.h"

static const char *const kind_names[] = {
    [QR_KIND_DOCUMENT] = "document",
    [QR_KIND_SPREADSHEET] = "spreadsheet",
    [QR_KIND_PRESENTATION] = "presentation",
    [QR_KIND_PDF] = "pdf",
    [QR_KIND_HTML] = "html",
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == QR_KIND_COUNT, "one name per kind");

int qr_kind_parse(const char *name, qr_kind *kind)
{
    if (!name) return -1;
    for (int i = 0; i < QR_KIND_COUNT; i++) {
        if (strcmp(name, kind_names[i]) == 0) {
            *kind = (qr_kind)i;
            return 0;
        }
    }
    return -1;
}

const char *qr_kind_name(qr_kind kind)
{
    return (unsigned)kind < QR_KIND_COUNT ? kind_names[kind] : "unknown";
}

void qr_limits_default(qr_limits *l)
{
    l->max_input = 64u << 20;
    l->max_depth = 64;
    l->max_list_depth = 9;
    l->max_string = 1u << 20;
    l->max_cells = 20000000;
    l->max_image = 20u << 20;
    l->max_blocks = 1000000;
    l->max_output = 512u << 20;
    l->max_table_cells = 100000;
    l->max_work = (size_t)QR_WORK_DEFAULT;
}

void qr_compile_opts_default(qr_compile_opts *o)
{
    memset(o, 0, sizeof *o);
    qr_limits_default(&o->limits);
}

/* ---- UTF-8 ------------------------------------------------------------------- */

size_t qr_utf8_check(const char *str, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < n) {
        /* ASCII fast path, eight bytes at a time */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= n) break;
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c == 0xE0)
            need = 2, lo = 0xA0;
        else if (c >= 0xE1 && c <= 0xEC)
            need = 2;
        else if (c == 0xED)
            need = 2, hi = 0x9F; /* no surrogates */
        else if (c >= 0xEE && c <= 0xEF)
            need = 2;
        else if (c == 0xF0)
            need = 3, lo = 0x90;
        else if (c >= 0xF1 && c <= 0xF3)
            need = 3;
        else if (c == 0xF4)
            need = 3, hi = 0x8F;
        else
            return i;
        if (i + need >= n) return i;
        if (s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k <= need; k++)
            if ((s[i + k] & 0xC0) != 0x80) return i;
        i += need + 1;
    }
    return (size_t)-1;
}

/* Incremental UTF-8 check over a stream of chunks: the same answer as
 * qr_utf8_check over their concatenation. A sequence cut by a chunk's end
 * waits in pend for the next chunk. */
typedef struct utf8_stream {
    size_t off;            /* bytes fed so far */
    unsigned char pend[4]; /* an incomplete sequence at the end of the last chunk */
    size_t npend;
    size_t pend_at; /* its offset */
    size_t bad;     /* offset of the first bad byte, or (size_t)-1 */
} utf8_stream;

/* Bytes in the sequence a lead byte starts (as qr_utf8_check accepts), 0 if none. */
static size_t utf8_seq_len(unsigned c)
{
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return 2;
    if (c >= 0xE0 && c <= 0xEF) return 3;
    if (c >= 0xF0 && c <= 0xF4) return 4;
    return 0;
}

static void utf8_feed(utf8_stream *u, const char *s, size_t n)
{
    size_t i = 0;
    if (u->bad != (size_t)-1) goto done;
    if (u->npend) {
        size_t want = utf8_seq_len(u->pend[0]);
        while (u->npend < want && i < n)
            u->pend[u->npend++] = (unsigned char)s[i++];
        if (u->npend < want) goto done;
        u->npend = 0;
        if (qr_utf8_check((const char *)u->pend, want) != (size_t)-1) {
            u->bad = u->pend_at;
            goto done;
        }
    }
    size_t r = qr_utf8_check(s + i, n - i);
    if (r != (size_t)-1) {
        size_t want = utf8_seq_len((unsigned char)s[i + r]);
        if (want && i + r + want > n) { /* cut by the chunk's end: decide with the next one */
            u->npend = n - i - r;
            memcpy(u->pend, s + i + r, u->npend);
            u->pend_at = u->off + i + r;
        } else {
            u->bad = u->off + i + r;
        }
    }
done:
    u->off += n;
}

/* The input has ended: a sequence still incomplete is bad. */
static void utf8_end(utf8_stream *u)
{
    if (u->npend && u->bad == (size_t)-1) u->bad = u->pend_at;
    u->npend = 0;
}

/* ---- parsing ---------------------------------------------------------------- */

/* The spec text as the JSON reader reads it: through the caller's reader, counted
 * against max_input and UTF-8 checked as it streams, a leading byte order
 * mark dropped. When the input goes over max_input or holds bad UTF-8 the
 * parse is cut short; the rest is then read only to count and check it, so
 * the errors are those a check of the whole text before parsing would give. */
typedef struct src {
    qr_read_fn read;
    void *ctx;
    size_t max;   /* max_input; 0: none */
    size_t total; /* bytes read */
    utf8_stream u;
    int started, eof, ioerr;
    int stop; /* over max_input, bad UTF-8 or a read error: no more bytes for the parse */
} src;

/* One read: count, check. Returns the bytes, 0 at the end, (size_t)-1 to stop. */
static size_t src_read(src *s, char *buf, size_t size)
{
    if (s->stop) return (size_t)-1;
    if (s->eof) return 0;
    size_t n = s->read(s->ctx, buf, size);
    if (n == (size_t)-1 || n > size) {
        s->ioerr = s->stop = 1;
        return (size_t)-1;
    }
    if (n == 0) {
        s->eof = 1;
        utf8_end(&s->u);
        if (s->u.bad != (size_t)-1) s->stop = 1;
        return 0;
    }
    s->total += n;
    if (s->max && s->total > s->max) {
        s->stop = 1;
        return (size_t)-1;
    }
    utf8_feed(&s->u, buf, n);
    if (s->u.bad != (size_t)-1) {
        s->stop = 1;
        return (size_t)-1;
    }
    return n;
}

/* The JSON reader's reader (qr_jp_read_fn): (size_t)-1 stops the parse. */
static size_t src_fill(void *buffer, size_t buflen, void *data)
{
    src *s = data;
    char *buf = buffer;
    if (!s->started) {
        /* A byte order mark is not JSON, but editors write it: skip it. */
        s->started = 1;
        char head[3];
        size_t h = 0;
        while (h < sizeof head) {
            size_t n = src_read(s, head + h, sizeof head - h);
            if (n == 0 || n == (size_t)-1) break;
            h += n;
        }
        if (h == 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0) h = 0;
        if (h) { /* the reader's window holds more than 3 bytes */
            memcpy(buf, head, h);
            return h;
        }
    }
    size_t n = src_read(s, buf, buflen);
    return n == (size_t)-1 ? (size_t)-1 : n;
}

/* Read what the parse left, to count it and check it, but at most
 * DRAIN_PAST bytes (or max_input, if less) past max_input: an input a
 * little over the limit is named by its size, as in memory; an endless one
 * (/dev/zero, a pipe that never closes) stops there, having cost at most
 * twice the limit. */
#define DRAIN_PAST ((size_t)1 << 20)

static size_t drain_past(const src *s)
{
    return s->max < DRAIN_PAST ? s->max : DRAIN_PAST;
}

static int src_drain_more(const src *s)
{
    return !s->max || s->total <= s->max + drain_past(s);
}

static void src_drain(src *s)
{
    char buf[16384];
    while (!s->eof && !s->ioerr && src_drain_more(s)) {
        size_t n = s->read(s->ctx, buf, sizeof buf);
        if (n == (size_t)-1 || n > sizeof buf) {
            s->ioerr = 1;
            break;
        }
        if (n == 0) {
            s->eof = 1;
            utf8_end(&s->u);
            break;
        }
        s->total += n;
        if (!(s->max && s->total > s->max)) utf8_feed(&s->u, buf, n);
    }
}

typedef struct mem_src {
    const char *p;
    size_t left;
} mem_src;

static size_t mem_read(void *ctx, char *buf, size_t size)
{
    mem_src *m = ctx;
    size_t n = size < m->left ? size : m->left;
    memcpy(buf, m->p, n);
    m->p += n;
    m->left -= n;
    return n;
}

static void json_error(qr_errlist *errs, const qr_jp_error *je)
{
    const char *hint = je->hint;
    if (!hint && (strstr(je->text, "too big") || strstr(je->text, "overflow")))
        hint = "send a number this large as a string to keep every digit";
    qr_errlist_addf(errs, QR_E_JSON, "", hint, "JSON syntax error at line %d, column %d: %s",
                    je->line, je->column, je->text);
}

qr_status qr_input_size_check(size_t len, const qr_limits *lim, qr_errlist *errs)
{
    if (!lim->max_input || len <= lim->max_input) return QR_OK;
    return qr_errlist_addf(errs, QR_E_LIMIT, "", "raise qr_limits.max_input",
                           "input is %zu bytes; the limit max_input is %zu bytes", len,
                           lim->max_input);
}

json_t *qr_json_read(qr_read_fn read, void *ctx, size_t max_input, int keep_strings,
                     qr_errlist *errs, qr_status *st)
{
    return qr_json_read_hook(read, ctx, max_input, keep_strings, NULL, errs, st);
}

json_t *qr_json_read_hook(qr_read_fn read, void *ctx, size_t max_input, int keep_strings,
                          const qr_jp_hook *hook, qr_errlist *errs, qr_status *st)
{
    qr_jp_error je;
    src s = {.read = read, .ctx = ctx, .max = max_input, .u = {.bad = (size_t)-1}};
    json_t *root = qr_jp_load_hook(src_fill, &s, hook, &je);
    if (!root || s.stop) {
        /* The first failure of a check over the whole text wins: size, then
         * UTF-8, then syntax. */
        json_decref(root);
        src_drain(&s);
        if (s.ioerr) {
            *st = QR_E_IO;
            qr_errlist_add(errs, QR_E_IO, "", "cannot read the spec", NULL);
            return NULL;
        }
        qr_limits lim = {.max_input = max_input};
        if (!s.eof && max_input && s.total > max_input) {
            *st = qr_errlist_addf(errs, QR_E_LIMIT, "",
                                  "raise it with --max-input (library: qr_limits.max_input)",
                                  "input is more than %zu bytes; the limit max_input is %zu bytes",
                                  max_input + drain_past(&s), max_input);
            return NULL;
        }
        if ((*st = qr_input_size_check(s.total, &lim, errs)) != QR_OK) return NULL;
        if (s.u.bad != (size_t)-1) {
            *st = qr_errlist_addf(errs, QR_E_UTF8, "", "save the spec as UTF-8",
                                  "invalid UTF-8 at byte %zu", s.u.bad);
            return NULL;
        }
        if (je.fail == QR_JP_DEPTH) {
            *st = QR_E_LIMIT;
            qr_errlist_addf(errs, QR_E_LIMIT, "", "raise qr_limits.max_depth",
                            "JSON nested deeper than %d levels, past the limit max_depth",
                            QR_JP_MAX_DEPTH);
            return NULL;
        }
        if (je.fail == QR_JP_NOMEM || je.fail == QR_JP_STOP) { /* a hook stops on OOM */
            *st =
                qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory while reading the spec", NULL);
            return NULL;
        }
        *st = QR_E_JSON;
        json_error(errs, &je);
        return NULL;
    }
    if (json_is_string(root)) {
        /* Models send the spec as a JSON string holding the object. */
        json_t *inner = qr_jp_loadb(json_string_value(root), json_string_length(root), &je);
        if (keep_strings && (!inner || !json_is_object(inner))) {
            json_decref(inner);
            *st = QR_OK;
            return root;
        }
        json_decref(root);
        if (!inner || !json_is_object(inner)) {
            *st = QR_E_SPEC;
            if (!inner)
                qr_errlist_addf(
                    errs, QR_E_SPEC, "", "send the spec as a JSON object",
                    "the spec is a string that does not hold JSON (line %d, column %d: %s)",
                    je.line, je.column, je.text);
            else
                qr_errlist_add(errs, QR_E_SPEC, "",
                               "the spec is a string that does not hold a JSON object",
                               "send the spec as a JSON object");
            json_decref(inner);
            return NULL;
        }
        root = inner;
    }
    *st = QR_OK;
    return root;
}

json_t *qr_json_parse(const char *json, size_t len, int keep_strings, qr_errlist *errs,
                      qr_status *st)
{
    mem_src m = {json ? json : "", json ? len : 0};
    return qr_json_read(mem_read, &m, 0, keep_strings, errs, st);
}

/* ---- depth ---------------------------------------------------------------- */

typedef struct frame {
    json_t *v;
    void *iter;      /* objects: the member being visited */
    size_t idx;      /* arrays: the next index */
    const char *key; /* objects: the key of the child being visited */
} frame;

/* The JSON pointer of the child being visited in the deepest frame. */
static void frames_path(const frame *f, size_t n, qr_cc *cc)
{
    for (size_t i = 0; i < n; i++) {
        if (json_is_array(f[i].v))
            qr_cc_push_index(cc, f[i].idx - 1);
        else
            qr_cc_push_key(cc, f[i].key);
    }
}

/* Iteratively check that no value nests deeper than max_depth containers.
 * Returns 0, or -1 after reporting the first value too deep. */
static int depth_check(qr_cc *cc, json_t *root, size_t max)
{
    if (!max || max > 2048) return 0;
    frame *st = malloc((max + 1) * sizeof *st);
    if (!st) return qr_cc_oom(cc), -1;
    size_t n = 0;
    st[n++] = (frame){root, json_is_object(root) ? json_object_iter(root) : NULL, 0, NULL};
    while (n) {
        frame *f = &st[n - 1];
        json_t *child = NULL;
        if (json_is_array(f->v)) {
            size_t size = json_array_size(f->v);
            while (f->idx < size) {
                json_t *c = json_array_get(f->v, f->idx++);
                if (json_is_array(c) || json_is_object(c)) {
                    child = c;
                    break;
                }
            }
        } else {
            while (f->iter) {
                json_t *c = json_object_iter_value(f->iter);
                f->key = json_object_iter_key(f->iter);
                f->iter = json_object_iter_next(f->v, f->iter);
                if (json_is_array(c) || json_is_object(c)) {
                    child = c;
                    break;
                }
            }
        }
        if (!child) {
            n--;
            continue;
        }
        if (n + 1 > max) {
            /* reported for the whole spec (""), naming where in the message */
            frames_path(st, n, cc);
            char where[160];
            snprintf(where, sizeof where, "%s%s", cc->plen > 120 ? "..." : "",
                     cc->path + (cc->plen > 120 ? cc->plen - 120 : 0));
            qr_cc_pop(cc, 0);
            qr_cc_limit(cc, "max_depth",
                        "JSON nested deeper than %zu levels (at %s); the limit max_depth is %zu",
                        max, where, max);
            free(st);
            return -1;
        }
        st[n++] = (frame){child, json_is_object(child) ? json_object_iter(child) : NULL, 0, NULL};
    }
    free(st);
    return 0;
}

/* ---- entry ---------------------------------------------------------------- */

static const char *shape_hint(qr_kind kind)
{
    switch (kind) {
    case QR_KIND_SPREADSHEET:
        return "a spreadsheet spec is {\"sheets\": [{\"name\": \"...\", \"rows\": [[...]]}]}";
    case QR_KIND_PRESENTATION:
        return "a presentation spec is {\"title\": \"...\", \"slides\": [{\"title\": \"...\"}]}";
    case QR_KIND_DOCUMENT:
    case QR_KIND_PDF:
    case QR_KIND_HTML:
    case QR_KIND_COUNT:
        break;
    }
    return "a document spec is {\"title\": \"...\", \"blocks\": [{\"type\": \"paragraph\", "
           "\"text\": \"...\"}]}";
}

/* The path both entries share once their arguments are checked; with a
 * stream (stream.c), the rows go to hook as read and doc_in (owned from
 * here on once the text is read) is the document they were compiled into. */
static qr_status compile_read(qr_read_fn read, void *ctx, qr_kind kind, const qr_compile_opts *opts,
                              qr_doc **out, qr_errlist *errs, qr_cc_stream *cs, qr_doc **doc_in,
                              const qr_jp_hook *hook)
{
    qr_compile_opts def;
    if (!opts) {
        qr_compile_opts_default(&def);
        opts = &def;
    }
    const qr_limits *lim = &opts->limits;
    qr_status st;
    json_t *root = qr_json_read_hook(read, ctx, lim->max_input, 0, hook, errs, &st);
    if (!root) return st;

    qr_arena a = {0};
    qr_doc *doc = cs ? *doc_in : qr_arena_alloc(&a, sizeof *doc);
    if (cs) *doc_in = NULL;
    if (!doc) {
        json_decref(root);
        qr_arena_free(&a);
        qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        return QR_E_NOMEM;
    }
    if (!cs) doc->arena = a;
    doc->kind = kind;
    qr_budget_init(&doc->work, lim->max_work);
    qr_cc cc = {.doc = doc,
                .a = &doc->arena,
                .errs = errs,
                .lim = lim,
                .base_dir = opts->base_dir,
                .kind = kind,
                .warns = opts->warnings,
                .stream = cs};

    if (depth_check(&cc, root, lim->max_depth) == 0) {
        json_t *inner = json_is_object(root) ? json_object_get(root, "spec") : NULL;
        if (json_is_array(root)) {
            qr_cc_err(&cc,
                      json_array_size(root) == 1 && json_is_object(json_array_get(root, 0))
                          ? "send the object itself, without the array around it"
                          : "send one spec, a JSON object; render each spec on its own",
                      "expected a JSON object, got an array");
        } else if (!json_is_object(root)) {
            qr_cc_err(&cc, shape_hint(kind), "expected a JSON object, got %s",
                      qr_cc_type_name(root));
        } else if (json_is_object(inner) ||
                   (json_is_string(inner) && json_object_get(root, "kind"))) {
            /* {"kind": "document", "spec": {...}}: a tool call's arguments, whole */
            qr_cc_err(&cc, "send the inner object (the value of \"spec\") as the spec",
                      "the spec is wrapped in {\"kind\", \"spec\"}");
        } else {
            switch (kind) {
            case QR_KIND_DOCUMENT:
            case QR_KIND_PDF:
            case QR_KIND_HTML:
                qr_cc_document(&cc, root);
                break;
            case QR_KIND_PRESENTATION:
                qr_cc_presentation(&cc, root);
                break;
            case QR_KIND_SPREADSHEET:
                qr_cc_spreadsheet(&cc, root);
                break;
            case QR_KIND_COUNT:
                break;
            }
        }
    } else if (cs) {
        cs->fallback = 1; /* which value is too deep first: the tree path tells */
    }
    if (opts->canonical && !cc.n_errors && !cc.nomem) {
        /* 1: a tree only the text path can write (nested close to the depth
         * limit): no canonical text, so the PNG layout is not cached */
        qr_buf b = {0};
        int r = qr_canonical_value(root, &b);
        char *s = r == 0 ? qr_arena_alloc(&doc->arena, b.len + 1) : NULL;
        if (s) {
            memcpy(s, b.data, b.len);
            s[b.len] = '\0';
            doc->canonical = s;
            doc->canonical_len = b.len;
        } else if (r != 1) {
            cc.nomem = 1;
        }
        qr_buf_free(&b);
    }
    json_decref(root);
    free(cc.path);
    free(cc.fixes);
    free(cc.cnotes);
    free(cc.fnames);

    if (cc.warns && cc.n_warnings > QR_CC_MAX_WARNINGS)
        qr_errlist_addf(cc.warns, QR_OK, "", "fix the warnings listed first",
                        "and %zu more warnings", cc.n_warnings - QR_CC_MAX_WARNINGS);
    if (cc.n_suppressed)
        qr_errlist_addf(errs, QR_E_SPEC, "", "fix the errors listed first", "and %zu more errors",
                        cc.n_suppressed);
    if (cc.nomem) {
        qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        qr_doc_free(doc);
        return qr_fail(QR_E_NOMEM);
    }
    if (cc.n_errors) {
        qr_doc_free(doc);
        return qr_fail(cc.limit ? QR_E_LIMIT : QR_E_SPEC);
    }
    *out = doc;
    return QR_OK;
}

qr_status qr_compile(const char *json, size_t len, qr_kind kind, const qr_compile_opts *opts,
                     qr_doc **out, qr_errlist *errs)
{
    if (out) *out = NULL;
    if (!out || !errs || (!json && len) || (unsigned)kind >= QR_KIND_COUNT) {
        if (errs) qr_errlist_add(errs, QR_E_USAGE, "", "qr_compile: bad arguments", NULL);
        return qr_fail(QR_E_USAGE);
    }
    qr_compile_opts def;
    if (!opts) {
        qr_compile_opts_default(&def);
        opts = &def;
    }
    /* The size is known: past max_input, fail before parsing (the streamed
     * check would give the same error, after parsing up to the limit). */
    qr_status st = qr_input_size_check(len, &opts->limits, errs);
    if (st != QR_OK) return st;
    mem_src m = {json ? json : "", len};
    return compile_read(mem_read, &m, kind, opts, out, errs, NULL, NULL, NULL);
}

qr_status qr_compile_reader(qr_read_fn read, void *ctx, qr_kind kind, const qr_compile_opts *opts,
                            qr_doc **out, qr_errlist *errs)
{
    if (out) *out = NULL;
    if (!out || !errs || !read || (unsigned)kind >= QR_KIND_COUNT) {
        if (errs) qr_errlist_add(errs, QR_E_USAGE, "", "qr_compile_reader: bad arguments", NULL);
        return qr_fail(QR_E_USAGE);
    }
    return compile_read(read, ctx, kind, opts, out, errs, NULL, NULL, NULL);
}

qr_status qr_compile_stream(qr_read_fn read, void *ctx, const qr_compile_opts *opts,
                            qr_cc_stream *cs, qr_doc **doc_in, const qr_jp_hook *hook, qr_doc **out,
                            qr_errlist *errs)
{
    *out = NULL;
    return compile_read(read, ctx, QR_KIND_SPREADSHEET, opts, out, errs, cs, doc_in, hook);
}
