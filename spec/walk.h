/* walk.h: visit every block and every text of a compiled document.
 *
 * The one walk over the tree's shape outside the compiler and the
 * backends' own writers: the PDF's cost estimate and face pre-pass, the PNG
 * layout cache's key and `quire fonts --spec` use it, so a new block or text
 * field is added here once and every one of them sees it.
 *
 * Order: the title, then the document's blocks (ENTER, their texts in
 * reading order, EXIT), then the slides (the same way), then the sheets.
 * Every text comes with its JSON pointer (text->path). Plain strings that
 * are not qr_text in the tree (chart titles, axis titles, categories and
 * series names, sheet names and text cells) come as QR_WALK_LABEL texts of
 * one run, at the path the walker builds for them ("/blocks/3/title",
 * "/sheets/0/rows/2/1"): that path lives only during the call.
 *
 *     static int on_text(void *ud, const qr_walk_text *t) {
 *         printf("%s\n", t->text->path);
 *         return 0;                   // nonzero stops the walk
 *     }
 *     qr_walker w = {.text = on_text, .ud = &state};
 *     qr_doc_walk(doc, &w);
 */
#ifndef QR_WALK_H
#define QR_WALK_H

#include "tree.h"

typedef enum qr_walk_role {
    QR_WALK_TITLE,       /* the document's title */
    QR_WALK_HEADING,     /* a heading block's text (block->u.heading.level) */
    QR_WALK_PARAGRAPH,   /* a paragraph block's text */
    QR_WALK_ITEM,        /* a list item or a slide bullet (depth: 1 for the top level) */
    QR_WALK_HEADER_CELL, /* a table header cell (cell set) */
    QR_WALK_CELL,        /* a table body cell (cell set) */
    QR_WALK_CODE,        /* a code block's text */
    QR_WALK_ALT,         /* an image's alt text (image set) */
    QR_WALK_SLIDE_TITLE, /* a slide's title */
    QR_WALK_SUBTITLE,    /* a slide's subtitle, quote, attribution, stat value/label/caption,
                            caption, agenda item or column heading */
    QR_WALK_NOTES,       /* a slide's speaker notes */
    QR_WALK_CHART_TITLE, /* a chart's title or axis title (a label, see above) */
    QR_WALK_LABEL,       /* another plain string of a chart, or of a sheet (see above) */
    QR_WALK_QUOTE,       /* a quote block's text */
    QR_WALK_ATTRIBUTION, /* a quote's attribution */
    QR_WALK_CALLOUT_TITLE,
    QR_WALK_CALLOUT,   /* a callout's text */
    QR_WALK_TOC_TITLE, /* a toc block's title */
    QR_WALK_CAPTION,   /* a table's, image's, chart's or code block's caption (label first) */
    QR_WALK_NOTE       /* a footnote's text, right after the text holding its reference */
} qr_walk_role;

typedef struct qr_walk_text {
    qr_walk_role role;
    const qr_text *text;
    const qr_block *block; /* the document block it belongs to, or NULL */
    const qr_slide *slide; /* the slide it belongs to, or NULL */
    const qr_tcell *cell;  /* table cells: the cell */
    const qr_image *image; /* alt texts: the image */
    const qr_chart *chart; /* chart labels: the chart, else NULL */
    const qr_sheet *sheet; /* sheet labels: the sheet, else NULL */
    int depth;             /* items: nesting level from 1 */
} qr_walk_text;

typedef struct qr_walker {
    /* Each may be NULL. A nonzero return stops the walk; qr_doc_walk
     * returns that value. exit is 0 before a block's (slide's) texts and 1
     * after them. */
    int (*block)(void *ud, const qr_block *b, int exit);
    int (*slide)(void *ud, const qr_slide *s, int exit);
    int (*text)(void *ud, const qr_walk_text *t);
    /* Sheets (their names, text cells and charts) are only visited when
     * set: a million-cell sheet is a million calls. */
    int sheet_cells;
    void *ud;
} qr_walker;

/** Walk d with w. Returns 0 when every node was visited, else the nonzero
 *  value a callback returned. */
int qr_doc_walk(const qr_doc *d, const qr_walker *w);

/** Walk one document block (ENTER, its texts, EXIT) the same way. */
int qr_block_walk(const qr_block *b, const qr_walker *w);

#endif
