/* kind_sniff.h: the kind of a spec from its shape, for outputs several kinds
 * render to (.pdf, .png): a top-level "slides" makes a presentation,
 * "sheets" a spreadsheet, anything else a document (the pdf kind).
 *
 * Only the top-level keys are read, up to the first that decides ("slides",
 * "sheets", "blocks", "sections", "page"); a reader's bytes read that far
 * are kept and handed to the compiler first, so a streamed spec is still
 * read once. Never installed.
 */
#ifndef QR_KIND_SNIFF_H
#define QR_KIND_SNIFF_H

#include <stddef.h>

#include "compile.h"
#include "tree.h"

/** The kind of the spec text s[0..n): QR_KIND_PRESENTATION,
 *  QR_KIND_SPREADSHEET, or QR_KIND_PDF (also for text that is not a JSON
 *  object: the compiler reports that). */
qr_kind qr_kind_sniff(const char *s, size_t n);

/* A reader that replays what the sniff read, then reads on. */
typedef struct qr_sniff_reader {
    qr_read_fn read;
    void *ctx;
    char *buf;
    size_t len, cap, pos;
    int failed; /* the underlying reader failed while sniffing */
} qr_sniff_reader;

/** Read from (read, ctx) until the kind is known, into r; returns the kind.
 *  Then compile from qr_sniff_read with r as its context; free r with
 *  qr_sniff_reader_free. */
qr_kind qr_sniff_reader_open(qr_sniff_reader *r, qr_read_fn read, void *ctx);
size_t qr_sniff_read(void *ctx, char *out, size_t size);
void qr_sniff_reader_free(qr_sniff_reader *r);

#endif
