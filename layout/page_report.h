/* page_report.h: the layout report (quire.h's qr_layout_list) for documents
 * and spreadsheets, from the tree and the geometry their files and previews
 * share, so a .docx and its PDF (an .xlsx and its sheet preview) report the
 * same items. The slides' items come from their plan (slide_layout.h).
 *
 * Documents (doc_report.c): a word wider than its line (a paragraph, a
 * heading, a list item, a quote, a callout, a caption or a table cell at the
 * theme's sizes; the page's text width less what indents it; a table
 * column's share of it less the cell padding), which Word, LibreOffice and
 * the PDF break inside: word_broken, one per table column (the first cell,
 * with how many more); a table with such columns: table_cut, the least
 * width its words need over the page's text width as its value (below 1:
 * other "widths" would fit them); a picture drawn larger than its
 * pixels at 96 dpi: image_upscaled. Each item's page is the page where
 * its block starts, when the caller knows the pages (first and last: per
 * block of doc->blocks, the 1-based pages where the PDF layout starts and
 * ends it, as a PDF, a PNG or a docx with a table of contents lays it out;
 * NULL: page 0); a table on more than one page is a continued item too, at
 * the page its rows continue on (value: that page).
 *
 * Spreadsheets (sheet_report.c): a value wider than its column (the widths
 * sheet_fit.h gives the .xlsx) that an office suite does not show whole:
 * text clipped by a filled neighbour (it spills over empty ones), a number,
 * date or boolean shown as "###": table_cut; a word of a wrapped cell wider
 * than its column: word_broken. One item per kind and column, at its first
 * cell's pointer ("/sheets/0/rows/4/2", a "columns" header at
 * "/sheets/0/columns/2"), the detail counting the others. Hidden rows and
 * columns are left out; a streamed sheet reports the rows it holds (its
 * first ones).
 *
 *     if (doc->kind == QR_KIND_DOCUMENT) qr_doc_report(doc, pages, last, &res->layout);
 */
#ifndef QR_PAGE_REPORT_H
#define QR_PAGE_REPORT_H

#include <quire/quire.h>

#include "tree.h"

/** A document's items, appended to l; first and last (n_blocks pages each,
 *  or NULL) place them on pages. */
void qr_doc_report(const qr_doc *doc, const size_t *first, const size_t *last, qr_layout_list *l);

/** qr_doc_report in two steps, the first (every word measured) free of
 *  the pages, so it may run while the pages are laid out (render.c): the
 *  items without pages, and where each block's items end (ends[0]: the
 *  title's, ends[i + 1]: block i's). */
typedef struct qr_doc_words {
    qr_layout_list l;
    size_t *ends; /* NULL: no items for this document (or out of memory: l.oom) */
} qr_doc_words;

/** Measure doc's words into w (free it with qr_doc_words_free). */
void qr_doc_words_measure(const qr_doc *doc, qr_doc_words *w);
/** w's items placed on pages, and the continued items, appended to l:
 *  what qr_doc_report(doc, first, last, l) appends. */
void qr_doc_words_place(const qr_doc *doc, qr_doc_words *w, const size_t *first, const size_t *last,
                        qr_layout_list *l);
void qr_doc_words_free(qr_doc_words *w);

struct qr_sheet_fits;
/** A spreadsheet's items, appended to l; fits: the render's column widths
 *  (sheet_fit.h), or NULL to measure them. */
void qr_sheet_report(const qr_doc *doc, struct qr_sheet_fits *fits, qr_layout_list *l);

#endif
