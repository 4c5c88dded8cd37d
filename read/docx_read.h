/* docx_int.h: the styles and numbering the docx reader consults. */
#ifndef QR_READ_DOCX_INT_H
#define QR_READ_DOCX_INT_H

#include "read_int.h"

typedef struct qr_rd_style {
    char *id, *name, *based_on;
    int outline;   /* w:outlineLvl, -1 when none */
    int num_id;    /* w:numPr/w:numId, 0 when none */
    int mono;      /* 1 monospace ascii font, -1 another font, 0 unset */
    int bold;      /* w:b in the style's run properties */
    int character; /* a character style */
} qr_rd_style;

typedef struct qr_rd_styles {
    qr_rd_style *items;
    size_t n, cap;
    char *lang; /* docDefaults w:lang w:val */
} qr_rd_styles;

typedef struct qr_rd_abstract {
    int id, ordered;
    unsigned levels; /* bit i: level i counts (its numFmt is not a bullet) */
    int task;        /* level 0's bullet is a box: 1 open (U+2610), 2 ticked (U+2611/2612) */
} qr_rd_abstract;
typedef struct qr_rd_num {
    int id, abstract;
    long start; /* level 0's startOverride, 0 when none */
} qr_rd_num;
typedef struct qr_rd_numbering {
    qr_rd_abstract *abstracts;
    size_t n_abstract;
    qr_rd_num *nums;
    size_t n_num;
} qr_rd_numbering;

qr_status qr_rd_styles_read(qr_rd *r, const char *part, qr_rd_styles *s);
const qr_rd_style *qr_rd_style_get(const qr_rd_styles *s, const char *id);
/** Heading level 1..9 of a paragraph style, -1 for Title, 0 for none. */
int qr_rd_style_heading(const qr_rd_styles *s, const char *id);
/** The numId a paragraph style carries, 0 for none. */
int qr_rd_style_num(const qr_rd_styles *s, const char *id);
/** Whether the style is monospace (its font, or a code style's name). */
int qr_rd_style_mono(const qr_rd_styles *s, const char *id);
int qr_rd_style_bold(const qr_rd_styles *s, const char *id);
/** What a paragraph style marks, by its name through basedOn (or, with no
 *  styles part, its id): a block quote ("Quote", "Intense Quote", "Block
 *  Text"), a quote's attribution ("Quote Attribution"), a rule ("Horizontal
 *  Rule"), a table of contents' title ("TOC Heading") or entry ("toc 1" to
 *  "toc 9"), or none. */
typedef enum qr_rd_para_kind {
    QR_RD_PARA_NONE,
    QR_RD_PARA_QUOTE,
    QR_RD_PARA_ATTRIBUTION,
    QR_RD_PARA_RULE,
    QR_RD_PARA_TOC_HEADING, /* "TOC Heading": a table of contents' title */
    QR_RD_PARA_TOC_ENTRY,   /* "toc 1" .. "toc 9": its entries (the TOC field's result) */
    QR_RD_PARA_CAPTION,     /* "Caption": a table's, figure's or listing's caption */
    QR_RD_PARA_CALLOUT      /* "Callout": a callout's title, then its text (quire's pair) */
} qr_rd_para_kind;
qr_rd_para_kind qr_rd_style_kind(const qr_rd_styles *s, const char *id);
void qr_rd_styles_free(qr_rd_styles *s);

qr_status qr_rd_numbering_read(qr_rd *r, const char *part, qr_rd_numbering *nb);
/** Whether a numbering instance counts (decimal, letters...) at level 0. */
int qr_rd_num_ordered(const qr_rd_numbering *nb, int num_id);
/** Whether a numbering instance counts at level ilvl (0..8). */
int qr_rd_num_level_ordered(const qr_rd_numbering *nb, int num_id, int ilvl);
/** Whether a numbering instance's bullet is a task box: 0 no, 1 open, 2 ticked. */
int qr_rd_num_task(const qr_rd_numbering *nb, int num_id);
/** A numbering instance's first number at level 0 (its startOverride), 0 for none. */
long qr_rd_num_start(const qr_rd_numbering *nb, int num_id);
void qr_rd_numbering_free(qr_rd_numbering *nb);

/* A bookmark of the body: its name and the index of the block it marks. */
typedef struct qr_rd_mark {
    char *name;
    size_t block;
} qr_rd_mark;
/** Block ids, "#id" links and refs from the read spec's bookmarks and its
 *  internal links (written "\1#name"), rewriting r->spec (docx_links.c). */
qr_status qr_rd_docx_links(qr_rd *r, const qr_rd_mark *marks, size_t n_marks);

#endif
