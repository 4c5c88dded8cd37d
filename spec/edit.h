/* edit.h: the three edit forms of DESIGN.md "Edits", applied to a spec.
 *
 *  - spec_patch:  RFC 7386 merge patch (null deletes a member; arrays
 *                 replace whole).
 *  - spec_append: {key: [items]} appends items to top-level lists, creating
 *                 absent ones.
 *  - ops:         RFC 6902 JSON Patch (add, remove, replace, move, copy,
 *                 test) with RFC 6901 pointers ("~0" = "~", "~1" = "/",
 *                 "-" = past the end of an array).
 *
 * They are applied in that order to a copy of the spec: inputs are never
 * mutated. Error paths point into the edit request, seen as the object
 * {"spec_patch": ..., "spec_append": ..., "ops": [...]}: "/ops/2/path",
 * "/spec_append/blocks". The result is not validated here; the caller
 * compiles it (compile.h) and reports spec errors with the spec's paths.
 *
 *     qr_edit e = {.patch = "{\"title\":\"New\"}", .patch_len = 15};
 *     qr_buf out = {0};
 *     qr_errlist errs = {0};
 *     if (qr_edit_apply(spec, len, &e, &out, &errs) == QR_OK) ... out.data ...
 *     qr_buf_free(&out);
 *     qr_errlist_clear(&errs);
 */
#ifndef QR_EDIT_H
#define QR_EDIT_H

#include <jansson.h>
#include <stddef.h>

#include "buf.h"
#include <quire/error.h>

/* An edit request: each part is JSON text, or NULL when absent. A part may
 * also be a JSON string that holds the object (or, for ops, the array):
 * models send that. */
typedef struct qr_edit {
    const char *patch;
    size_t patch_len;
    const char *append;
    size_t append_len;
    const char *ops;
    size_t ops_len;
} qr_edit;

/** Apply e to the spec text. On QR_OK out holds the edited spec as compact
 *  JSON (member order kept). Otherwise out is left empty and errs holds the
 *  errors: QR_E_JSON for a part that is not JSON (or a spec that is not),
 *  QR_E_EDIT for an edit that cannot be applied (status QR_E_EDIT),
 *  QR_E_LIMIT when the "copy" ops of one edit duplicate more than 8 MiB of
 *  JSON (a few copies double a spec each: that is a rewrite). */
qr_status qr_edit_apply(const char *spec, size_t len, const qr_edit *e, qr_buf *out,
                        qr_errlist *errs);

/** qr_edit_apply, then qr_canonical of the result, with one parse: the
 *  spec is read into a tree (the fast reader, json_parse.h), edited, and
 *  the tree written out canonically, never dumped and parsed again. Same
 *  bytes, statuses and errors as the two calls in a row; the store's edits
 *  use it (a one-cell edit of a 100,000-row sheet parsed its text three
 *  times). */
qr_status qr_edit_apply_canonical(const char *spec, size_t len, const qr_edit *e, qr_buf *out,
                                  qr_errlist *errs);

/** RFC 7386: a new value, target merged with patch. Neither is changed;
 *  target may be NULL (absent). Returns a new reference, NULL on OOM. */
json_t *qr_edit_merge_patch(const json_t *target, const json_t *patch);

/** spec_append on *doc (an object, changed in place): for each key the
 *  value must be an array, appended (deep-copied) to the array at doc[key]
 *  or created. Errors use base as the path prefix ("/spec_append"). On
 *  error *doc may be partly changed: callers work on a copy. */
qr_status qr_edit_append(json_t *doc, const json_t *append, const char *base, qr_errlist *errs);

/** RFC 6902 on *doc (replaced in place; "" may replace the root). ops must
 *  be an array; errors name base + "/i/path" etc. On error *doc may be
 *  partly changed: callers work on a copy. */
qr_status qr_edit_json_patch(json_t **doc, const json_t *ops, const char *base, qr_errlist *errs);

/** RFC 6902 4.6 equality: numbers compare by value (1 == 1.0), objects
 *  ignore member order. */
int qr_edit_json_equal(const json_t *a, const json_t *b);

/** A JSON pointer token with "~" and "/" escaped ("a/b" -> "a~1b"),
 *  appended to b after a "/". */
void qr_edit_pointer_push(qr_buf *b, const char *token);

/** If text is a JSON string whose content parses to an object (or array),
 *  put that content in out and return 1; otherwise 0 (out untouched). */
int qr_edit_unwrap(const char *text, size_t len, qr_buf *out);

#endif
