/* stream.h: spreadsheets compiled as their JSON is read, so the jansson
 * tree of a big sheet is never built (issue 22).
 *
 * Two passes over the spec (a file the caller can read again):
 *
 * 1. qr_stream_compile(): the JSON reader hands each element of
 *    sheets[i].rows to the compiler as soon as it is read (json_parse.h's
 *    element hook); the row is compiled, checked and freed. The first
 *    QR_STREAM_HOLD rows of each sheet are kept (the autofit measures those
 *    and the sheet's head comes before its rows); the rest of the spec (every
 *    key but the rows) is kept as jansson values and compiled afterwards as
 *    the tree path compiles it, the rows' errors and warnings reported at the
 *    point where the tree path compiles them, so the same spec gives the same
 *    messages, paths and order. Keys may come in any order (rows before
 *    "columns", "sheets" before "title"): nothing about a row depends on its
 *    sheet's other keys.
 * 2. qr_stream_rows(): with the spec clean, the writer reads it again and
 *    gets each row compiled once more, in order, to write it out. A spec that
 *    changed in between (other rows, formats, or bad JSON) is an error.
 *
 * When pass 1 cannot stand in for the tree path, qr_stream_compile() says so
 * and reports nothing; the caller then compiles the whole tree as before.
 * That is the case for a spec with sheet charts (they read any cell), with a
 * formula that has no cached "value" (the evaluator reads any cell), with a
 * value nested deeper than max_depth, with more cells than max_cells, and
 * for a spec that is not a plain object (a JSON string holding the spec).
 */
#ifndef QR_STREAM_H
#define QR_STREAM_H

#include "backend.h"
#include "compile.h"

/* Rows kept per sheet in pass 1: ooxml/xlsx_autofit.c's sample. */
#define QR_STREAM_HOLD 20000u

typedef struct qr_stream qr_stream;

qr_stream *qr_stream_new(void);
void qr_stream_free(qr_stream *s);

enum {
    QR_STREAM_FORCE = 1, /* mark the sheets streamed even when every row was kept */
    QR_STREAM_ALL = 2    /* keep every row: one pass gives the whole document */
};

/** Pass 1 over a spreadsheet spec. Returns 0 when the tree path must
 *  compile it (nothing reported, *doc NULL); else 1 with *st: QR_OK and *doc,
 *  or the failure with its errors in errs (warnings in opts->warnings as
 *  qr_compile_reader gives them). Sheets whose rows were not all kept are
 *  marked streamed (tree.h), and then every sheet is, so that one reader
 *  writes the workbook in order. how: QR_STREAM_* flags. With QR_STREAM_ALL
 *  the document is the tree path's, whole (its charts and formulas are
 *  compiled and evaluated as usual): the rows are compiled as read, without
 *  the jansson tree of them. */
int qr_stream_compile(qr_stream *s, qr_read_fn read, void *ctx, const qr_compile_opts *opts,
                      int how, qr_doc **doc, qr_errlist *errs, qr_status *st);

/** Whether pass 1 marked doc's sheets streamed (pass 2 is needed). */
int qr_stream_needed(const qr_doc *doc);

/** Pass 2: read the spec again (from its start) and hand every row of the
 *  streamed sheets of doc (pass 1's) to emit. Returns QR_OK, QR_E_IO when
 *  the spec cannot be read, QR_E_SPEC when it no longer is what pass 1 read
 *  (qr_stream_why() says how), or emit's stop (QR_E_RENDER). */
qr_status qr_stream_rows(qr_stream *s, const qr_doc *doc, qr_read_fn read, void *ctx,
                         size_t max_input, qr_row_emit emit, void *ectx);

/** Why pass 2 failed, for the error message ("" when it did not). */
const char *qr_stream_why(const qr_stream *s);

#endif
