/* furniture.h: page furniture, the header and footer lines of a document's
 * pages, decided once for every backend.
 *
 * The spec's "page": {"header": "...", "footer": "...", "first_page": false}
 * holds templates whose fields {page}, {pages}, {title} and {date} stand for
 * the page's number, the page count, the document's title and its date (the
 * properties' "date", else the output's fixed date, qr_output_epoch). No
 * "footer" keeps the house footer "{page} / {pages}" (the theme's separator);
 * "" has none; no "header" has none. "first_page": false leaves page 1
 * bare. The PDF and PNG draw the expanded text (pdf/paint.c), the docx
 * writes PAGE and NUMPAGES fields between the pieces (docx_footer.c), html
 * print CSS @page boxes with counter(page) and counter(pages).
 */
#ifndef QR_FURNITURE_H
#define QR_FURNITURE_H

#include <stddef.h>

#include "buf.h"
#include "style.h"
#include "tree.h"

/* What a piece of a template is. */
typedef enum qr_furn_piece {
    QR_FURN_TEXT,  /* literal text ({title} and {date} are text too) */
    QR_FURN_PAGE,  /* the page's number */
    QR_FURN_PAGES, /* the page count */
} qr_furn_piece;

/* A page's header (0) or footer (1). */
enum { QR_FURN_HEADER = 0, QR_FURN_FOOTER = 1 };

/** The template of the header or footer (QR_FURN_*) of doc's pages, or
 *  NULL when there is none. The house footer's uses st's separator (its
 *  bytes live in buf, which the caller frees; NULL buf gives NULL then). */
const char *qr_furniture_template(const qr_doc *doc, const qr_style *st, int which, qr_buf *buf);

/** Whether page index p (0-based) shows its header and footer. */
int qr_furniture_on_page(const qr_doc *doc, size_t p);

/** Walk tpl's pieces in order: fn(ud, kind, s, n) for each, s/n the text
 *  of a QR_FURN_TEXT piece (consecutive text comes as one piece, {title}
 *  and {date} expanded: the date as YYYY-MM-DD), NULL/0 for a field. A
 *  non-zero return from fn stops the walk and is returned. Fields the
 *  compiler refused cannot occur; an unknown "{name}" stays text. */
int qr_furniture_pieces(const qr_doc *doc, const char *tpl, long long epoch,
                        int (*fn)(void *ud, qr_furn_piece kind, const char *s, size_t n), void *ud);

/** The text tpl shows on page `page` (1-based) of `pages`, appended to out
 *  (0, or -1 out of memory). */
int qr_furniture_text(const qr_doc *doc, const char *tpl, long long epoch, size_t page,
                      size_t pages, qr_buf *out);

#endif
