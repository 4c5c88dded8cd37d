/* json_parse.h: a strict JSON reader (RFC 8259) that builds jansson values.
 *
 * Why not json_load_callback: jansson 2.14's lexer copies every character
 * of the text into its token buffer with a one-byte memcpy call and checks
 * UTF-8 again per character; on a 858 KB document spec that is 25 ms of a
 * 65 ms html render. This reader scans strings, numbers and whitespace in
 * place and hands jansson finished values (json_stringn_nocheck,
 * json_object_setn_new_nocheck), so the values, and everything after them
 * (the compiler, canonical JSON, edits, the store), are jansson's as before.
 *
 * What it accepts is what quire asked of jansson (JSON_REJECT_DUPLICATES |
 * JSON_DECODE_ANY | JSON_ALLOW_NUL): any value at the top; a duplicate key is
 * an error; "\u0000" is allowed in strings but not in keys; numbers without
 * a fraction or exponent are integers (json_int_t; beyond its range an
 * error), others reals (finite doubles, read in the C locale whatever the
 * process's locale); nesting up to QR_JP_MAX_DEPTH; only whitespace after
 * the value. Comments, NaN, Infinity, single quotes, trailing commas and
 * leading zeros are errors, each with its own message and hint.
 *
 * The reader must hand over valid UTF-8 (qr_json_read's reader checks every
 * byte before it gets here): string bytes are not checked again.
 */
#ifndef QR_JSON_PARSE_H
#define QR_JSON_PARSE_H

#include <jansson.h>
#include <stddef.h>

/* jansson's own limit, kept so the same texts nest as deep as before. */
#define QR_JP_MAX_DEPTH 2048

typedef enum qr_jp_fail {
    QR_JP_OK,
    QR_JP_SYNTAX, /* not JSON (or a number out of range, a duplicate key) */
    QR_JP_DEPTH,  /* nested deeper than QR_JP_MAX_DEPTH */
    QR_JP_NOMEM,
    QR_JP_READ, /* the reader returned (size_t)-1 */
    QR_JP_STOP  /* the element hook (qr_jp_hook) stopped the parse */
} qr_jp_fail;

typedef struct qr_jp_error {
    qr_jp_fail fail;
    int line, column; /* 1-based; the column counts bytes */
    size_t position;  /* byte offset of the error */
    char text[200];   /* what is wrong, e.g. "',' or '}' expected, found '/'" */
    const char *hint; /* how to fix it, or NULL */
} qr_jp_error;

/** The reader: fill buf with up to len bytes; 0 at the end, (size_t)-1 on
 *  failure (jansson's json_load_callback_t). */
typedef size_t (*qr_jp_read_fn)(void *buf, size_t len, void *data);

/** Parse one JSON text. Returns a new reference, or NULL with *err filled. */
json_t *qr_jp_load(qr_jp_read_fn read, void *data, qr_jp_error *err);

/** qr_jp_load over text in memory (the same UTF-8 promise applies). */
json_t *qr_jp_loadb(const char *text, size_t len, qr_jp_error *err);

/* ---- streaming: an element hook ----------------------------------------------------- */

/* The elements of the arrays at root.<outer>[i].<inner> (e.g. "sheets" and
 * "rows": every row of every sheet) can be taken as they are read instead
 * of being appended: each one, once complete, is handed to fn with the
 * index i of its outer element and its own index r, and fn owns it (it
 * must json_decref it). The array in the result then stays empty, so the
 * tree of the whole text is never built; everything else is parsed as
 * usual, duplicate keys and all. The hook fires only for that exact shape
 * (root an object, outer an array of objects, inner an array); fn returns
 * 0, or -1 to stop the parse (QR_JP_STOP). */
typedef struct qr_jp_hook {
    const char *outer, *inner;
    int (*fn)(void *ctx, size_t i, size_t r, json_t *element);
    void *ctx;
} qr_jp_hook;

/** qr_jp_load with an element hook (NULL: qr_jp_load). */
json_t *qr_jp_load_hook(qr_jp_read_fn read, void *data, const qr_jp_hook *hook, qr_jp_error *err);

#endif
