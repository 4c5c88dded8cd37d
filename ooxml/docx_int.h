/* docx_int.h: the Word backend's internals, shared by its part writers.
 *
 * docx.c assembles the package: it writes word/document.xml first (which
 * gathers what the other parts need: ordered-list instances, hyperlinks,
 * images, font families), then styles, numbering, settings and fontTable.
 * Each part lives in its own file; each element writer is named after its
 * element (qr_docx_write_w_rpr() writes <w:rPr>) and writes children and
 * attributes in the order of ECMA-376 Transitional wml.xsd.
 *
 * Units: twips (1/20 pt) for page geometry and table widths, half-points for
 * font sizes, EMU (914400 per inch, 12700 per pt, 635 per twip) for images.
 */
#ifndef QR_DOCX_INT_H
#define QR_DOCX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "fonts.h"
#include "text.h"
#include "package.h"
#include "style.h"
#include "xml.h"

#define QR_NS_W "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
#define QR_NS_WP "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"

#define QR_CT_DOCX_PREFIX "application/vnd.openxmlformats-officedocument.wordprocessingml."
#define QR_CT_DOCX_DOCUMENT QR_CT_DOCX_PREFIX "document.main+xml"
#define QR_CT_DOCX_STYLES QR_CT_DOCX_PREFIX "styles+xml"
#define QR_CT_DOCX_NUMBERING QR_CT_DOCX_PREFIX "numbering+xml"
#define QR_CT_DOCX_SETTINGS QR_CT_DOCX_PREFIX "settings+xml"
#define QR_CT_DOCX_FONT_TABLE QR_CT_DOCX_PREFIX "fontTable+xml"
#define QR_CT_DOCX_WEB_SETTINGS QR_CT_DOCX_PREFIX "webSettings+xml"
#define QR_REL_WEB_SETTINGS QR_REL_BASE "webSettings"

/* Numbering: numId 1 is every bullet list (abstractNum 0); each ordered list
 * gets its own numId from 2 up, pointing at abstractNum 1 with a
 * startOverride of 1 on every level, so every ordered list restarts at 1. */
#define QR_DOCX_BULLET_NUM 1
#define QR_DOCX_ABSTRACT_BULLET 0
#define QR_DOCX_ABSTRACT_DECIMAL 1
#define QR_DOCX_ABSTRACT_TASK_OPEN 2 /* task items: a box as the bullet (issue 32) */
#define QR_DOCX_ABSTRACT_TASK_DONE 3 /* a ticked box */
#define QR_DOCX_LEVELS 9

/* The document's default font (docDefaults): fonts/' Latin family. Runs in
 * it name no font of their own. */
#define QR_DOCX_FONT "DejaVu Sans"
/* Sizes and colours come from the theme (layout/style.h, qr_docx.style). */

/* A hyperlink target and its relationship id (open addressing by hash). */
typedef struct qr_docx_link {
    const char *url; /* borrowed from the tree; NULL: empty slot */
    const char *rid; /* owned by the package */
} qr_docx_link;

/* The state of one render. */
typedef struct qr_docx {
    qr_render_ctx *ctx;
    /* twips the next block's first paragraph adds to its space before (the
     * space after a table, which a docx table cannot carry); 0: none */
    long lead_before;
    const qr_doc *doc;
    qr_fonts *fonts;
    qr_package *pkg;
    qr_xml *x;           /* the writer of the part being produced */
    qr_text_ctx text;    /* the text layer: segments of every paragraph, warnings */
    long text_width;     /* twips between the margins */
    qr_style style;      /* the spec's theme */
    char code_fill[7];   /* style.code_fill as "RRGGBB": shading behind code */
    char header_fill[7]; /* style.header_fill: table header cells */
    char grid[7];        /* style.grid: table borders */
    char grid_sz[16];    /* style.grid_pt in eighths of a point (w:sz) */
    qr_status status;

    /* numbering */
    int has_lists;
    int n_ordered; /* numbering instances past the bullets': numIds 2 .. n_ordered + 1 */
    struct qr_docx_num {
        int abstract;   /* QR_DOCX_ABSTRACT_* */
        unsigned start; /* an ordered list's first number at level 0 */
    } * nums;           /* per numId 2.., n_ordered */
    int cap_nums;
    int task_num; /* the open box's numId (the ticked box's is next), 0 until a task */

    /* hyperlinks, deduplicated by URL */
    qr_docx_link *links;
    size_t n_links, cap_links; /* cap is a power of two */

    /* images in document order (their media parts are added after the document) */
    const qr_image **images;
    size_t n_images, cap_images;
    const char **image_rids; /* per stored image, its relationship id */
    size_t cap_image_rids;
    size_t n_pictures; /* image blocks so far: wp:docPr ids */
    size_t n_charts;   /* chart blocks so far: word/charts/chartN.xml */

    /* issue 32: footnotes (or endnotes) by number, written after the
     * document (docx_notes.c); the part being written (links in notes are
     * its relationships); the bookmark the next paragraph opens; the
     * heading pages of the PDF layout for a table of contents, or NULL */
    const qr_text **notes;
    const char *part;
    const char *bookmark;
    long n_bookmarks;
    int has_toc, toc_levels;
    /* the blocks whose page numbers the table of contents left as holes
     * (docx_document.c: toc_hole), in document order; toc_pending: the
     * holes wait for the layout still running (render.c) and are filled
     * by qr_docx_settle_toc; toc_head: where document.xml's tail after
     * the last number (or hole) begins (qr_package_add_split) */
    size_t *toc_holes;
    size_t n_toc_holes, cap_toc_holes;
    int toc_pending;
    size_t toc_head;

    /* font families used by runs, in first-use order (for fontTable.xml) */
    const char *default_font; /* fonts/' pointer for QR_DOCX_FONT, once seen */
    const char **families;
    size_t n_families, cap_families;
} qr_docx;

/* Run properties, the inputs of <w:rPr>. NULL / 0 fields are left out. */
typedef struct qr_docx_rpr {
    const char *style;      /* w:rStyle */
    const char *hint;       /* w:rFonts/@w:hint ("eastAsia") */
    const char *ascii;      /* w:rFonts/@w:ascii and @w:hAnsi */
    const char *east_asian; /* w:rFonts/@w:eastAsia */
    const char *complex;    /* w:rFonts/@w:cs */
    unsigned bold : 1, italic : 1, strike : 1, underline : 1, rtl : 1, cs : 1;
    unsigned no_underline : 1; /* w:u none: a link's bare spaces (text/text.h's qr_seg.bare) */
    uint32_t color;            /* w:color: QR_RGB_SET | 0xRRGGBB, or 0 */
    const char *shading;       /* w:shd/@w:fill (hex RGB) */
    uint32_t highlight;        /* w:shd/@w:fill when shading is NULL: QR_RGB_SET | 0xRRGGBB */
    const char *vert;          /* w:vertAlign: "superscript", "subscript" or NULL */
    const char *lang;          /* w:lang/@w:val */
    const char *lang_ea;       /* w:lang/@w:eastAsia */
    const char *lang_bidi;     /* w:lang/@w:bidi */
} qr_docx_rpr;

/* Paragraph properties, the inputs of <w:pPr>. */
typedef struct qr_docx_ppr {
    const char *style; /* w:pStyle */
    int num_id;        /* w:numPr when > 0 */
    int ilvl;
    int keep_next;
    unsigned bidi : 1;
    const char *jc; /* w:jc/@w:val */
    /* a callout's box: a left bar of bar_sz eighths of a point in bar
     * (hex), the ground fill (hex); NULL: none */
    const char *bar, *fill;
    int bar_sz;
    /* w:spacing over the style's (layout/rhythm.h): with spacing, before
     * and after in twips (-1: the style's); line_auto: single line
     * spacing (a picture's paragraph, which exact spacing would clip) */
    unsigned spacing : 1, line_auto : 1;
    long before, after;
} qr_docx_ppr;

/* ---- parts (each appends one complete XML part to out) ---------------------- */

qr_status qr_docx_document(qr_docx *d, qr_buf *out);
/* docx_document.c: document.xml's settle (package.h: qr_part_settle; ctx
 * the qr_docx) when its table of contents waits for the layout: waits for
 * the pages and fills the holes. */
qr_status qr_docx_settle_toc(void *ctx, const char *data, size_t head, char **out, size_t *out_len);
qr_status qr_docx_styles(qr_docx *d, qr_buf *out);
qr_status qr_docx_numbering(qr_docx *d, qr_buf *out);
qr_status qr_docx_settings(qr_docx *d, qr_buf *out);
qr_status qr_docx_font_table(qr_docx *d, qr_buf *out);
qr_status qr_docx_web_settings(qr_docx *d, qr_buf *out);

/* docx_notes.c: word/footnotes.xml or word/endnotes.xml (d->notes), and
 * the styles of issue 32's blocks (footnotes, captions, quotes, callouts,
 * the table of contents), written into styles.xml. */
void qr_docx_notes_part(qr_docx *d);
void qr_docx_more_styles(qr_docx *d, qr_xml *x);
/* docx_document.c: the space a table leaves after it (d->lead_before)
 * added to the space before of ppr, the next block's first paragraph. */
void qr_docx_lead(qr_docx *d, qr_docx_ppr *ppr);
/* docx_document.c: one paragraph of a text with its properties (notes use it). */
typedef struct qr_docx_pfmt {
    unsigned bold : 1, code : 1, italic : 1;
    uint32_t color; /* QR_RGB_SET | rgb: every run's colour (a callout's title), or 0 */
} qr_docx_pfmt;
void qr_docx_write_runs(qr_docx *d, const qr_text *t, qr_docx_pfmt pf);

/* docx_chart.c: a chart block (its drawing, chart part and embedded workbook). */
void qr_docx_write_chart(qr_docx *d, const qr_block *b);

/* ---- element writers (exposed for tests/unit/test_docx.c) ------------------- */

/* <w:rPr>; nothing when every field is empty. */
void qr_docx_write_w_rpr(qr_xml *x, const qr_docx_rpr *p);
/* <w:pPr>; nothing when every field is empty. */
void qr_docx_write_w_ppr(qr_xml *x, const qr_docx_ppr *p);
/* <w:sectPr> for a page (sizes in points). */
/* The header and footer parts' relationship ids (NULL: none) and whether
 * page 1 has its own (empty) ones (w:titlePg). */
typedef struct qr_docx_furn {
    const char *header, *footer;
    const char *first_header, *first_footer;
    int title_pg;
} qr_docx_furn;
/** <w:sectPr>; f: the header and footer parts, or NULL for none. */
void qr_docx_write_w_sectpr(qr_xml *x, const qr_page *page, const qr_docx_furn *f);
/** Add the header and footer parts (word/header1.xml, word/footer1.xml, and
 *  for "first_page": false empty header2/footer2; docx_footer.c) and their
 *  relationships into *f (d->status is set on failure). */
void qr_docx_furniture(qr_docx *d, qr_docx_furn *f);
/* <w:num> numId pointing at abstractNumId; restart: a startOverride of 1 on
 * every level. */
void qr_docx_write_w_num(qr_xml *x, int num_id, int abstract_id, int restart, unsigned start);

/** A new numbering instance of abstract (its first number start): its
 *  numId, or -1 out of memory. */
int qr_docx_add_num(qr_docx *d, int abstract, unsigned start);
/* <w:abstractNum> for bullets (ordered = 0) or decimal numbers; each depth
 * indents by indent_pt (the theme's list indent), the label hanging in it. */
void qr_docx_write_w_abstractnum(qr_xml *x, int abstract_id, int ordered, int task,
                                 double indent_pt);
/* <w:tblGrid>: n columns over width twips from relative widths (NULL: equal);
 * cols receives each column's twips (the last takes the rounding rest). */
void qr_docx_grid(long width, const double *widths, size_t n, long *cols);

/* ---- helpers shared by the parts ------------------------------------------- */

/* Points to twips, rounded. */
long qr_docx_twips(double pt);

/* Remember a font family for fontTable.xml (deduplicated). */
void qr_docx_use_family(qr_docx *d, const char *family);

/* The file name of the index-th image under word/media/. */
void qr_docx_media_name(const qr_image *im, size_t index, char *buf, size_t size);

/* Record a failure (the first wins). */
void qr_docx_fail(qr_docx *d, qr_status st);

/** Serialise one part with writer and add it to the package (docx.c); a
 *  failure is kept in d->status. Nothing when d has failed already. */
void qr_docx_add_part(qr_docx *d, const char *name, const char *ct,
                      qr_status (*writer)(qr_docx *, qr_buf *));

#endif
