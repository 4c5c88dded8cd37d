/* compile.h: JSON spec text in, typed tree (tree.h) or a list of errors out.
 *
 * The only module that parses JSON. It reports *every* error, each with the
 * JSON pointer of the value at fault, a message and a hint; unknown keys are
 * errors with a did-you-mean hint. A spec sent as a JSON string that holds an
 * object is accepted (models do this).
 *
 *     qr_errlist errs = {0};
 *     qr_doc *doc = NULL;
 *     qr_compile_opts o;
 *     qr_compile_opts_default(&o);
 *     qr_status st = qr_compile(text, len, QR_KIND_DOCUMENT, &o, &doc, &errs);
 *     if (st != QR_OK) { ...print errs...; }
 *     ... render doc ...
 *     qr_doc_free(doc);
 *     qr_errlist_clear(&errs);
 */
#ifndef QR_COMPILE_H
#define QR_COMPILE_H

#include <stddef.h>

#include "buf.h"
#include <quire/error.h>
#include "tree.h"
#include "numfmt.h"
#include "json_alloc.h"

/* Limits. A spec past one fails with QR_E_LIMIT and an error naming the limit
 * and how to raise it. 0 disables a limit. */
typedef struct qr_limits {
    size_t max_input;       /* bytes of spec text (64 MiB) */
    size_t max_depth;       /* JSON nesting depth (64) */
    size_t max_list_depth;  /* list and bullet nesting (9) */
    size_t max_string;      /* bytes of one string (1 MiB) */
    size_t max_cells;       /* cells in all sheets and tables (20,000,000) */
    size_t max_image;       /* bytes of one image (20 MiB) */
    size_t max_blocks;      /* blocks, slides or sheets (1,000,000) */
    size_t max_output;      /* bytes of rendered output (512 MiB) */
    size_t max_table_cells; /* cells in all tables of a document or deck (100,000):
                             * laid out, unlike sheet cells, so far costlier */
    size_t max_work;        /* units of the render's work budget (budget.h, 2^28) */
} qr_limits;

typedef struct qr_compile_opts {
    qr_limits limits;
    /* Folder that relative image paths resolve against (the spec file's
     * folder); NULL means images from paths are refused (data: URIs only). */
    const char *base_dir;
    /* Where warnings for likely mistakes go (markdown in plain text, a
     * number or a formula sent as a sheet string: compile_warn.c), each
     * with its path and a hint; NULL: not looked for. */
    qr_errlist *warnings;
    /* Keep the spec's canonical JSON (qr_canonical's text) in
     * doc->canonical: the PNG backend keys its layout cache by it. */
    int canonical;
} qr_compile_opts;

void qr_limits_default(qr_limits *l);
void qr_compile_opts_default(qr_compile_opts *o);

/** Compile spec text of the given kind. On QR_OK *out is the tree (free it
 *  with qr_doc_free); otherwise *out is NULL and errs holds every error
 *  (QR_E_JSON, QR_E_UTF8, QR_E_SPEC or QR_E_LIMIT as the status). */
qr_status qr_compile(const char *json, size_t len, qr_kind kind, const qr_compile_opts *opts,
                     qr_doc **out, qr_errlist *errs);

/** Where qr_compile_reader gets the spec text: copy up to size bytes into
 *  buf and return how many (at most size), 0 at the end of the input, or
 *  (size_t)-1 on a read error. Called until it returns 0; the reads may be
 *  of any length, even one byte, and may cut a UTF-8 sequence anywhere. */
typedef size_t (*qr_read_fn)(void *ctx, char *buf, size_t size);

/** Compile spec text pulled through read(ctx, ...) instead of held in one
 *  buffer: the text is parsed as it streams and never kept, so only the
 *  tree costs memory. Same results and errors as qr_compile over the whole
 *  text: the size (max_input, counted as it streams), UTF-8 ("invalid UTF-8
 *  at byte N") and syntax are checked in that order of precedence, so after
 *  a failure the rest of the input is read (not kept) to count and check
 *  it, up to 1 MiB (or max_input, if less) past max_input: past that the
 *  input stops as its bytes arrive ("input is more than N bytes; the
 *  limit max_input is M bytes"), so an endless one costs at most twice
 *  the limit. A read error fails with QR_E_IO ("cannot read the spec"). */
qr_status qr_compile_reader(qr_read_fn read, void *ctx, qr_kind kind, const qr_compile_opts *opts,
                            qr_doc **out, qr_errlist *errs);

/** The max_input check alone, for a caller that knows the size before
 *  reading (a file's): QR_OK, or QR_E_LIMIT with the error the compiler
 *  gives ("input is N bytes; the limit max_input is M bytes"). */
qr_status qr_input_size_check(size_t len, const qr_limits *lim, qr_errlist *errs);

/** Parse a kind name ("document", "pdf", ...). Returns 0 and sets *kind, or -1. */
int qr_kind_parse(const char *name, qr_kind *kind);
/** The kind's name ("document"). */
const char *qr_kind_name(qr_kind kind);

/** Canonical JSON of a spec (DESIGN.md "Store"): schema key order with
 *  "type" first, 2-space indent, UTF-8 unescaped, trailing newline.
 *  fmt(fmt(x)) == fmt(x). The spec is not validated beyond JSON syntax, so
 *  any JSON canonicalises; unknown keys sort after the known ones, by name.
 *  On success out holds the text. */
qr_status qr_canonical(const char *json, size_t len, qr_buf *out, qr_errlist *errs);

/** Read the header of PNG or JPEG bytes. Returns 0 and fills type, width,
 *  height and dpi, or -1 with *why set to a constant reason. */
int qr_image_probe(const unsigned char *p, size_t n, qr_image *img, const char **why);

/** Guess the kind of a spec by its keys: "slides" -> presentation, "sheets"
 *  -> spreadsheet, else document. Returns -1 when the text is not a JSON object. */
int qr_kind_guess(const char *json, size_t len, qr_kind *kind);

#endif
