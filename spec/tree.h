/* tree.h: the typed tree the compiler produces and every backend reads.
 *
 * One tree per compiled spec. Everything in it (structs, arrays, strings)
 * lives in the qr_doc's arena and is freed by qr_doc_free(). Backends never
 * see JSON: they walk these plain arrays. Strings are UTF-8, NUL-terminated,
 * already validated; they may hold any character, including XML-illegal
 * control characters, which each backend must strip or replace on output.
 *
 * Every text carries `path`, the JSON pointer of its spec value, so a backend
 * can name it in warnings (uncovered characters, say).
 */
#ifndef QR_TREE_H
#define QR_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "budget.h"
#include <quire/error.h>

/* ---- kinds and formats ---------------------------------------------------- */

/* qr_kind, the spec kinds of DESIGN.md, is the public one of quire/quire.h. */
#include <quire/quire.h>

/* ---- text ------------------------------------------------------------------- */

struct qr_text;

/* A run's colour fields hold QR_RGB_SET | 0xRRGGBB, or 0 for none. */
#define QR_RGB_SET 0x1000000u

/* The themes (layout/style.h gives each its look). */
typedef enum qr_theme {
    QR_THEME_PLAIN,
    QR_THEME_REPORT,
    QR_THEME_LIGHT,
    QR_THEME_DARK,
    QR_THEME_COUNT
} qr_theme;

/* An accent override: QR_STYLE_ACCENT_SET | 0xRRGGBB (qr_doc.accent). */
#define QR_STYLE_ACCENT_SET 0x1000000L

/** The names of the themes, NULL-terminated, in qr_theme order. */
extern const char *const qr_theme_names[];

/** The theme named name, or -1. */
int qr_theme_find(const char *name);

/* One run of text with its flags. */
typedef struct qr_run {
    const char *text; /* never NULL */
    size_t len;       /* bytes */
    unsigned bold : 1, italic : 1, underline : 1, strike : 1, code : 1;
    const char *link;          /* http:, https: or mailto: URL, or NULL */
    unsigned sup : 1, sub : 1; /* superscript, subscript */
    uint32_t color, highlight; /* QR_RGB_SET | 0xRRGGBB, or 0 */
    /* An internal link ("link": "#id", or a {"ref": "id"} whose text the
     * compiler set to the target's label): the target block's id, or NULL. */
    const char *anchor;
    /* A footnote reference ({"footnote": ...}): the note, numbered from 1
     * in document order; text is that number and sup is set, so a backend
     * that knows no notes still shows the mark. NULL for other runs. */
    const struct qr_text *note;
    unsigned note_no;
} qr_run;

/* A text value: "text" (one plain run) or "runs". n may be 0 (empty text).
 * Plain strings of the spec (the title, code, image alt text, slide notes)
 * are texts too: one run with no flags, NUL-terminated, at their own path. */
typedef struct qr_text {
    const qr_run *runs;
    size_t n;
    const char *path; /* JSON pointer of the value, e.g. "/blocks/2/runs" */
} qr_text;

/** A plain text's string (one run: title, code, alt text, notes): "" when empty. */
static inline const char *qr_plain(const qr_text *t)
{
    return t->n ? t->runs[0].text : "";
}
/** Its length in bytes. */
static inline size_t qr_plain_len(const qr_text *t)
{
    return t->n ? t->runs[0].len : 0;
}

/* ---- charts (a document block, a slide's chart, a sheet's charts) ---------- */

typedef enum qr_chart_type {
    QR_CHART_BAR, /* horizontal bars */
    QR_CHART_COLUMN,
    QR_CHART_LINE,
    QR_CHART_AREA,
    QR_CHART_PIE,
    QR_CHART_DOUGHNUT,
    QR_CHART_SCATTER
} qr_chart_type;

typedef enum qr_legend {
    QR_LEGEND_BOTTOM,
    QR_LEGEND_RIGHT,
    QR_LEGEND_TOP,
    QR_LEGEND_LEFT,
    QR_LEGEND_NONE
} qr_legend;

/* A chart's reference to a sheet range (sheet charts only). */
typedef struct qr_chart_ref {
    const char *sheet;               /* the sheet's name, as in the workbook */
    uint32_t row0, col0, row1, col1; /* 0-based, inclusive; one row or one column */
} qr_chart_ref;

/* One series: n values (finite), and for scatter n x values. */
/* Hard limits of a chart (Excel's series limit; points per series). */
#define QR_CHART_MAX_SERIES 255
#define QR_CHART_MAX_POINTS 4000
/* Values within +-1e300: 255 stacked series and their axis ticks stay finite. */
#define QR_CHART_MAX_VALUE 1e300
/* Charts in one spec (document blocks, slides, sheets). */
#define QR_CHART_MAX_CHARTS 1000
/* Work units (core/budget.h) a chart point costs: it is laid out and drawn. */
#define QR_WORK_CHART_POINT 100

/** "B2" (absolute: "$B$2") for a 0-based row and column. buf: 16 bytes. */
void qr_chart_a1(uint32_t row, uint32_t col, int absolute, char *buf);

typedef struct qr_series {
    const char *name; /* "" when none (backends say "Series N") */
    const double *values;
    const double *x; /* scatter only, else NULL */
    size_t n;
    uint32_t color;                         /* 0xRRGGBB */
    int has_color;                          /* 0: the theme's colour for the series' index */
    const qr_chart_ref *values_ref, *x_ref; /* sheet ranges, or NULL */
    const char *path;
} qr_series;

typedef struct qr_chart {
    qr_chart_type type;
    const char *title;             /* NULL when none */
    const char *const *categories; /* n_categories, or NULL (scatter; then 1..n) */
    size_t n_categories;
    const qr_chart_ref *categories_ref; /* sheet charts: the range, or NULL */
    const qr_series *series;
    size_t n_series;
    size_t n_points;               /* every series' n (scatter: the largest n) */
    const char *x_title, *y_title; /* NULL when none */
    const char *number_format;     /* Excel format of values, NULL: General */
    qr_legend legend;              /* default: bottom (none for one series but pie) */
    int labels;                    /* data labels on points */
    int stacked, percent;          /* bar, column, area */
    const char *alt;               /* "" when none */
    /* sheet charts: top-left cell of the anchor and the size in points */
    uint32_t anchor_row, anchor_col;
    double width, height; /* points; 0: the backend's default */
    const char *path;
} qr_chart;

/* ---- document blocks (document, pdf, html) ---------------------------------- */

typedef enum qr_block_type {
    QR_BLOCK_HEADING,
    QR_BLOCK_PARAGRAPH,
    QR_BLOCK_LIST,
    QR_BLOCK_TABLE,
    QR_BLOCK_CODE,
    QR_BLOCK_IMAGE,
    QR_BLOCK_PAGE_BREAK,
    QR_BLOCK_CHART,
    QR_BLOCK_QUOTE,   /* a block quotation and its attribution */
    QR_BLOCK_CALLOUT, /* a boxed note, tip, warning or important remark */
    QR_BLOCK_RULE,    /* a horizontal rule */
    QR_BLOCK_TOC      /* a table of contents of the headings */
} qr_block_type;
#define QR_BLOCK_LAST QR_BLOCK_TOC

/* A callout's tone (colour and default title). */
typedef enum qr_tone { QR_TONE_NOTE, QR_TONE_TIP, QR_TONE_WARNING, QR_TONE_IMPORTANT } qr_tone;

/* What a caption numbers: "Figure N" (images, charts), "Table N", "Listing N". */
typedef enum qr_caption_kind {
    QR_CAPTION_NONE,
    QR_CAPTION_FIGURE,
    QR_CAPTION_TABLE,
    QR_CAPTION_LISTING
} qr_caption_kind;

/* A task item's box ("checked", issue 32): none, open or ticked. */
enum { QR_TASK_NONE, QR_TASK_OPEN, QR_TASK_DONE };

/* A list item: its text and its nested items (depth at most 9 in all). */
typedef struct qr_item {
    qr_text text;
    const struct qr_item *items;
    size_t n_items;
    int task; /* QR_TASK_*: a task item's box in place of its bullet */
} qr_item;

/* A table cell. Numbers and booleans keep their kind (numeric cells are
 * right-aligned by backends that can); text is their display form, with
 * numbers formatted shortest-round-trip ("1200.5", "1000") and booleans as
 * "true"/"false"; null is an empty text. */
typedef enum qr_tcell_kind {
    QR_TCELL_TEXT,
    QR_TCELL_NUMBER,
    QR_TCELL_BOOL,
    QR_TCELL_EMPTY
} qr_tcell_kind;
/* A cell's or a column's alignment ("align"). */
typedef enum qr_align { QR_ALIGN_AUTO, QR_ALIGN_LEFT, QR_ALIGN_CENTER, QR_ALIGN_RIGHT } qr_align;

typedef struct qr_tcell {
    qr_tcell_kind kind;
    qr_text text;
    /* document tables (issue 32): the columns the cell spans (1; 0 for a
     * position another cell of its row spans, which is EMPTY and drawn by
     * none), its alignment (AUTO: the column's, else numbers right), its
     * ground (QR_RGB_SET | 0xRRGGBB, or 0) and bold */
    unsigned colspan;
    uint8_t align;
    uint8_t bold;
    /* rows (issue 32): a cell spanning rows has rowspan > 1 (0 and 1 mean
     * one row); the first position of each row below that it covers is
     * EMPTY with merged_above set and colspan the spanning cell's (docx
     * writes it as a vMerge continuation, the others draw nothing there),
     * the rest of those positions have colspan 0 as usual */
    uint8_t merged_above;
    unsigned rowspan;
    uint32_t fill;
} qr_tcell;

/** Whether a table position is drawn by no cell of its own: covered by a
 *  colspan to its left or a rowspan above. */
static inline int qr_tcell_covered(const qr_tcell *c)
{
    return c && (c->colspan == 0 || c->merged_above);
}

/** The rows cell c spans (at least 1). */
static inline unsigned qr_tcell_rows(const qr_tcell *c)
{
    return c && c->rowspan > 1 ? c->rowspan : 1;
}

/** The alignment cell c of column col shows: its own, the column's, else
 *  right for numbers and the start for the rest. */
static inline qr_align qr_tcell_align(const qr_tcell *c, const uint8_t *col_align, size_t col)
{
    if (c && c->align) return (qr_align)c->align;
    if (col_align && col_align[col]) return (qr_align)col_align[col];
    return c && c->kind == QR_TCELL_NUMBER ? QR_ALIGN_RIGHT : QR_ALIGN_AUTO;
}

typedef struct qr_table {
    const qr_tcell *headers; /* NULL when the table has no header row */
    size_t n_headers;
    const qr_tcell *const *rows; /* rows[r] has n_cols cells: ragged rows are padded with EMPTY */
    size_t n_rows;
    size_t n_cols;            /* max(n_headers, longest row), at least 1 */
    const double *widths;     /* n_cols relative widths summing to 1.0, or NULL (equal) */
    const char *path;         /* JSON pointer of the table */
    const uint8_t *col_align; /* n_cols qr_align values ("align" per column), or NULL */
    size_t body_header_rows;  /* the first rows of `rows` that are header rows too
                                 ("header_rows" counts the headers row), repeated on
                                 every page like it */
} qr_table;

/* An image, already read, checked by content (PNG or JPEG) and size-limited. */
typedef enum qr_image_type { QR_IMAGE_PNG, QR_IMAGE_JPEG } qr_image_type;
typedef struct qr_image {
    qr_image_type type;
    const unsigned char *data;
    size_t size;
    uint32_t width_px, height_px; /* from the file header */
    double dpi_x, dpi_y;          /* from pHYs/JFIF when present, else 96 */
    qr_text alt;                  /* alt text, plain, at ".../alt" (n == 0 when none) */
    const char *name;             /* a stable file name ("image1.png"), unique in the doc */
    const char *path;
    /* document images (issue 32): "width" in points or a percentage of the
     * column (0: the image's own size, shrunk to fit), and "align" */
    double width_pt, width_pct;
    qr_align align;
} qr_image;

typedef struct qr_block {
    qr_block_type type;
    const char *path; /* JSON pointer of the block, "/blocks/3" or "/sections/0/paragraphs/1" */
    union {
        struct {
            qr_text text;
            int level;
        } heading; /* level 1..6 (html default 2) */
        struct {
            qr_text text;
        } paragraph;
        struct {
            int ordered;
            const qr_item *items;
            size_t n_items;
            unsigned start; /* an ordered list's first number ("start"; 0 means 1) */
        } list;
        qr_table table;
        struct {
            qr_text text; /* plain, at "/blocks/N/text" (n == 0 when empty) */
            const char *lang;
        } code; /* lang may be NULL */
        qr_image image;
        qr_chart chart;
        struct {
            qr_text text;
            qr_text attribution; /* n == 0 when none */
        } quote;
        struct {
            qr_tone tone;
            qr_text title; /* the spec's, or the tone's name in the document's language */
            qr_text text;
        } callout;
        struct {
            qr_text title; /* the spec's, or "Contents" in the document's language */
            int levels;    /* headings of level 1..levels are listed (default 3) */
        } toc;
    } u;
    /* Every block: its "id" (a target of "#id" links and refs), or NULL. */
    const char *id;
    /* Tables, images, charts and code: the caption, numbered per kind in
     * document order. caption's first run is the label and its colon
     * ("Figure 2: "), label_len bytes, bold; the spec's runs follow.
     * caption.n == 0 when the block has none. */
    qr_caption_kind caption_kind;
    unsigned caption_no;
    qr_text caption;
    size_t label_len;
} qr_block;

/* Page settings, in points. Defaults: Letter portrait, 72 pt margins. */
typedef struct qr_page {
    double width, height; /* after orientation is applied */
    double margin_top, margin_right, margin_bottom, margin_left;
    int landscape;
    const char *size_name; /* "Letter", "A4", "A5", "Legal" */
    /* Page furniture (issue 32; layout/furniture.h): the "header" and
     * "footer" templates with {page}, {pages}, {title}, {date}, NULL when
     * not given (no header; the house footer), "" for none; no_first:
     * "first_page": false (page 1 shows neither). */
    const char *header, *footer;
    int no_first;
} qr_page;

/** The fields a header or footer template may use, NULL-terminated:
 *  "page", "pages", "title", "date" (tree.c). */
extern const char *const qr_page_fields[];

/* ---- presentation --------------------------------------------------------- */

typedef enum qr_layout {
    QR_LAYOUT_TITLE_CONTENT, /* default: title + bullets */
    QR_LAYOUT_TITLE,         /* title + subtitle */
    QR_LAYOUT_SECTION,       /* section header */
    QR_LAYOUT_BLANK,
    QR_LAYOUT_QUOTE,       /* "quote" and "attribution", centred (issue 34) */
    QR_LAYOUT_STATS,       /* a title over 2 to 4 big numbers with labels and captions */
    QR_LAYOUT_CLOSING,     /* the last slide: a centred title and subtitle */
    QR_LAYOUT_TWO_CONTENT, /* "left" and "right" columns, each bullets, image, table or chart */
    QR_LAYOUT_COMPARISON,  /* the same, each column under its "heading" */
    QR_LAYOUT_IMAGE_FULL,  /* "image" over the whole slide, the title and "caption" on a scrim */
    QR_LAYOUT_AGENDA,      /* numbered "items", the "current" one highlighted */
    QR_LAYOUT_COUNT
} qr_layout;

/* One big number of a stats slide. */
typedef struct qr_stat {
    qr_text value;   /* "42%", at ".../stats/N/value" */
    qr_text label;   /* n == 0 when none */
    qr_text caption; /* n == 0 when none */
} qr_stat;

/* One column of a two_content or comparison slide ("left", "right"): a
 * heading (comparison) over one of bullets, an image, a table or a chart. */
typedef struct qr_column {
    int has_heading;
    qr_text heading;
    const qr_item *bullets;
    size_t n_bullets;
    const qr_table *table; /* NULL when none */
    const qr_image *image; /* NULL when none */
    const qr_chart *chart; /* NULL when none */
    const char *path;      /* "/slides/4/left" */
} qr_column;

typedef struct qr_slide {
    qr_layout layout;
    int has_title;
    qr_text title;
    int has_subtitle;
    qr_text subtitle;
    const qr_item *bullets; /* levels through items */
    size_t n_bullets;
    int has_notes;
    qr_text notes;         /* plain, at "/slides/N/notes"; newlines kept */
    const qr_table *table; /* NULL when none */
    const qr_image *image; /* NULL when none */
    const qr_chart *chart; /* NULL when none */
    const char *path;      /* "/slides/4" */
    int has_quote;         /* quote layout: the quote and its attribution (plain) */
    qr_text quote;
    int has_attribution;
    qr_text attribution;
    const qr_stat *stats; /* stats layout: 2 to 4 */
    size_t n_stats;
    int has_background; /* "background": "#RRGGBB", the slide's ground in place of the theme's */
    const qr_image *background_image; /* "background": an image object, covering the slide */
    uint32_t background;              /* 0xRRGGBB */
    int footer_mode;   /* QR_FOOTER_*: the deck's furniture, this slide's footer text, or none */
    qr_text footer;    /* QR_FOOTER_OWN: the slide's "footer" */
    qr_column cols[2]; /* two_content, comparison: left and right */
    int has_caption;   /* image_full: the caption under the title (plain) */
    qr_text caption;
    const qr_text *agenda; /* agenda: the items (plain), numbered from agenda_first + 1 */
    size_t n_agenda;
    long current;        /* agenda: the index of the highlighted item (in agenda[]), -1 or out of
                            range when none */
    size_t agenda_first; /* agenda: items before agenda[0] (0; more on a continuation slide) */
} qr_slide;

/* A slide's "footer": absent (the deck's furniture), a string (its own
 * footer text, with the deck's date and number) or false (no furniture). */
enum { QR_FOOTER_DECK, QR_FOOTER_OWN, QR_FOOTER_NONE };

/* ---- spreadsheet ------------------------------------------------------------ */

typedef enum qr_cell_type {
    QR_CELL_EMPTY,
    QR_CELL_NUMBER, /* v.num */
    QR_CELL_BOOL,   /* v.num is 0 or 1 */
    QR_CELL_TEXT,   /* v.str, len bytes */
    QR_CELL_DATE,   /* v.num is the Excel serial (1900 system); fmt is a date format */
    QR_CELL_FORMULA /* v.formula */
} qr_cell_type;

typedef struct qr_formula {
    const char *text;        /* without the leading '=' */
    int has_value;           /* an optional cached value */
    qr_cell_type value_type; /* NUMBER, BOOL or TEXT */
    double num;
    const char *str;
    int is_error; /* the value is an Excel error: value_type TEXT, str "#DIV/0!" (layout/formula.h)
                   */
} qr_formula;

/* 16 bytes: a million-row sheet must stay small. A cell's look (its
 * style, row style and direct properties) is an index into qr_doc.looks,
 * split over two bytes (read it with qr_cell_look): a text's length needs
 * 17 bits at most (32,767 UTF-16 units), so len keeps 24. */
typedef struct qr_cell {
    uint8_t type;      /* qr_cell_type */
    uint8_t look_lo;   /* qr_cell_look() */
    uint16_t fmt;      /* index into qr_doc.formats; 0 = General */
    uint32_t len : 24; /* bytes of v.str for TEXT */
    uint32_t look_hi : 8;
    union {
        double num;
        const char *str;
        const qr_formula *formula;
    } v;
} qr_cell;

/** The cell's look: an index into qr_doc.looks, 0 = none. */
static inline unsigned qr_cell_look(const qr_cell *c)
{
    return (unsigned)c->look_lo | (unsigned)c->look_hi << 8;
}
static inline void qr_cell_set_look(qr_cell *c, unsigned look)
{
    c->look_lo = (uint8_t)(look & 0xFF);
    c->look_hi = (uint8_t)(look >> 8 & 0xFF);
}

typedef struct qr_row {
    qr_cell *cells; /* n cells; trailing and inner EMPTY cells are allowed */
    uint32_t n;
    uint16_t look; /* the row's own style (its empty cells show it): qr_doc.looks, 0 none */
    uint8_t hidden;
    uint8_t outline; /* outline (group) level 0-7 */
} qr_row;

/* ---- cell looks (workbook "styles", a cell's "style" and direct properties) ---- */

/* A colour of a look: 0 none, QR_SX_RGB | 0xRRGGBB, or QR_SX_THEME | a
 * qr_sx_slot, which each backend reads from the theme's style table
 * (layout/cellstyle.h), so the built-in styles follow the theme. */
#define QR_SX_RGB 0x1000000u
#define QR_SX_THEME 0x2000000u
typedef enum qr_sx_slot {
    QR_SX_ACCENT,      /* the theme's accent */
    QR_SX_HEADER_FILL, /* the table header ground */
    QR_SX_TEXT,        /* body text */
    QR_SX_GRID,        /* table borders */
    QR_SX_ACCENT_TINT  /* the accent at 15% on white (input cells) */
} qr_sx_slot;

typedef enum qr_border_kind {
    QR_BORDER_NONE,
    QR_BORDER_THIN,
    QR_BORDER_MEDIUM,
    QR_BORDER_THICK,
    QR_BORDER_DOUBLE,
    QR_BORDER_DASHED,
    QR_BORDER_DOTTED
} qr_border_kind;

typedef enum qr_halign { QR_HA_GENERAL, QR_HA_LEFT, QR_HA_CENTER, QR_HA_RIGHT } qr_halign;
typedef enum qr_valign { QR_VA_BOTTOM, QR_VA_TOP, QR_VA_CENTER } qr_valign;

/* Which properties a look sets (a later look in the merge order replaces
 * exactly these). */
enum {
    QR_SX_BOLD = 1u << 0,
    QR_SX_ITALIC = 1u << 1,
    QR_SX_COLOR = 1u << 2,
    QR_SX_FILL = 1u << 3,
    QR_SX_BORDER_LEFT = 1u << 4,
    QR_SX_BORDER_RIGHT = 1u << 5,
    QR_SX_BORDER_TOP = 1u << 6,
    QR_SX_BORDER_BOTTOM = 1u << 7,
    QR_SX_BORDER_COLOR = 1u << 8,
    QR_SX_ALIGN = 1u << 9,
    QR_SX_VALIGN = 1u << 10,
    QR_SX_WRAP = 1u << 11,
    QR_SX_INDENT = 1u << 12,
    QR_SX_ROTATE = 1u << 13,
    QR_SX_FORMAT = 1u << 14,
    QR_SX_UNDERLINE = 1u << 15
};

/* One look. Unset properties are zero, so equal looks compare equal
 * byte for byte (qr_cellstyle_merge keeps them so). */
typedef struct qr_cellstyle {
    uint32_t color, fill, border_color; /* QR_SX_RGB | rgb, QR_SX_THEME | slot, or 0 */
    uint16_t set;                       /* QR_SX_* */
    uint16_t fmt;                       /* number format (qr_doc.formats) when QR_SX_FORMAT */
    int16_t rotate;                     /* degrees, -90..90 */
    uint8_t bold, italic, underline, wrap;
    uint8_t align, valign; /* qr_halign, qr_valign */
    uint8_t indent;        /* 0-15 */
    uint8_t border[4];     /* left, right, top, bottom: qr_border_kind */
    uint8_t spare[3];      /* zero: no padding, so looks compare and hash as bytes */
} qr_cellstyle;
_Static_assert(sizeof(qr_cellstyle) == 32, "qr_cellstyle has no padding");

/** Lay the properties `over` sets on top of *base (the merge order of
 *  README's "Cell styles": column, row, header, the cell's style, the
 *  cell's own properties; each later one wins for what it sets). */
void qr_cellstyle_merge(qr_cellstyle *base, const qr_cellstyle *over);

/* A cell range, 0-based, inclusive. */
typedef struct qr_range {
    uint32_t r0, c0, r1, c1;
} qr_range;

enum { QR_FILTER_AUTO, QR_FILTER_NONE, QR_FILTER_RANGE };
#define QR_COL_HIDDEN 0x80u

/* A conditional format of a sheet ("conditional"): a rule over a range.
 * QR_CF_CELL compares each cell's value with op and value (value2 the
 * upper bound of between); QR_CF_FORMULA is true where the formula, as
 * written for the range's top-left cell (relative references move with
 * the cell), is; both then lay look over the cell. QR_CF_SCALE colours
 * each number between the range's lowest and highest (colors[0..n-1]:
 * low, [mid at the 50th percentile,] high); QR_CF_BAR draws a bar as long
 * as the number's place between 0 (or the lowest, if below 0) and the
 * highest, in colors[0]. */
/* A data validation of a sheet ("validation"): what a cell of range
 * accepts. QR_DV_LIST: one of list (the items joined by commas, as the
 * file writes them); the others a number (decimal, whole, a date's
 * serial) from min to max (has_min, has_max: either may be open). prompt
 * is shown when the cell is selected, error when a value is refused (NULL:
 * none, the office suite's own message). */
typedef enum qr_dv_type { QR_DV_LIST, QR_DV_DECIMAL, QR_DV_WHOLE, QR_DV_DATE } qr_dv_type;
typedef struct qr_valid {
    qr_range range;
    qr_dv_type type;
    const char *list;
    int has_min, has_max;
    double min, max;
    const char *prompt, *error;
    int blank; /* an empty cell is allowed (the default) */
} qr_valid;

typedef enum qr_cf_rule { QR_CF_CELL, QR_CF_FORMULA, QR_CF_SCALE, QR_CF_BAR } qr_cf_rule;
typedef enum qr_cf_op {
    QR_CF_LT,
    QR_CF_LE,
    QR_CF_GT,
    QR_CF_GE,
    QR_CF_EQ,
    QR_CF_NE,
    QR_CF_BETWEEN,
    QR_CF_NOT_BETWEEN
} qr_cf_op;
typedef struct qr_cond {
    qr_range range;
    qr_cf_rule rule;
    qr_cf_op op;
    double value, value2;
    const char *text;    /* QR_CF_CELL with = or != against a text: the text, else NULL */
    const char *formula; /* QR_CF_FORMULA: without '=' */
    unsigned look;       /* QR_CF_CELL, QR_CF_FORMULA: qr_doc.looks */
    uint32_t colors[3];  /* QR_SX_RGB | rgb */
    int n_colors;        /* QR_CF_SCALE: 2 or 3; QR_CF_BAR: 1 */
} qr_cond;

/* A cell's link or comment ("link", "comment"): kept beside the rows,
 * sorted by row then column (the spec's order), at most one per cell. */
typedef struct qr_cell_note {
    uint32_t row, col;   /* 0-based, in the sheet (a "columns" row counted) */
    const char *link;    /* "https://...", "http://...", "mailto:...", or "#Sheet!A1" (a place in
                            the workbook: '#', the sheet's name quoted as in a formula when it must
                            be, '!', a cell or range; "#A1" is on this sheet); NULL none */
    const char *comment; /* the comment's text, or NULL */
    const char *author;  /* the comment's author, or NULL (the workbook's, else "quire") */
} qr_cell_note;

/* An Excel table (ListObject) of a sheet ("tables"): range is its header
 * row and data rows; a totals row, when it has one, is the row below
 * (range.r1 + 1), its cells already in the sheet's rows (labels as text,
 * functions as SUBTOTAL formulas over Name[Column]). cols: the header
 * texts, one per column of the range; fn[c] the column's totals function
 * (qr_table_fn, 0 none), label[c] its totals label or NULL. */
typedef enum qr_table_fn {
    QR_TF_NONE,
    QR_TF_SUM,
    QR_TF_AVERAGE,
    QR_TF_COUNT,      /* non-empty cells (COUNTA) */
    QR_TF_COUNT_NUMS, /* numbers (COUNT) */
    QR_TF_MIN,
    QR_TF_MAX
} qr_table_fn;
typedef struct qr_sheet_table {
    const char *name;
    qr_range range;
    const char *style; /* "TableStyleMedium2", or NULL: none */
    int totals;        /* a totals row below range */
    const char *const *cols;
    const uint8_t *fn;
    const char *const *label;
} qr_sheet_table;

/* A sheet's print setup ("print"). Each part is optional: 0 (or NULL) is
 * "not given", the office suite's default. Rows and columns are 0-based;
 * header and footer texts keep the spec's fields ({page}, {pages},
 * {sheet}; "{{" and "}}" literal braces), per section left, center, right. */
typedef enum qr_print_paper {
    QR_PAPER_NONE,
    QR_PAPER_LETTER,
    QR_PAPER_LEGAL,
    QR_PAPER_TABLOID,
    QR_PAPER_A3,
    QR_PAPER_A4,
    QR_PAPER_A5
} qr_print_paper;
typedef struct qr_sheet_print {
    uint8_t orientation; /* 0 not given, 1 portrait, 2 landscape */
    uint8_t paper;       /* qr_print_paper */
    uint8_t gridlines;   /* 0 not given, 1 false, 2 true */
    uint8_t has_area, has_rows, has_cols, has_margins;
    uint16_t fit_width, fit_height;    /* pages across, down; 0: not given */
    qr_range area;                     /* when has_area */
    uint32_t rows0, rows1;             /* repeated rows, when has_rows */
    uint32_t cols0, cols1;             /* repeated columns, when has_cols */
    double margins[4];                 /* top, right, bottom, left, points, when has_margins */
    const char *header[3], *footer[3]; /* left, center, right; NULL none */
} qr_sheet_print;

/** The paper's width and height in points (portrait; swapped when
 *  landscape); QR_PAPER_NONE is Letter. */
static inline void qr_print_paper_pt(unsigned paper, int landscape, double *w, double *h)
{
    static const double wh[][2] = {{612, 792},      {612, 792},        {612, 1008},
                                   {792, 1224},     {841.89, 1190.55}, {595.28, 841.89},
                                   {419.53, 595.28}};
    unsigned i = paper <= QR_PAPER_A5 ? paper : 0;
    *w = wh[i][landscape ? 1 : 0];
    *h = wh[i][landscape ? 0 : 1];
}

typedef struct qr_sheet {
    const char *name; /* validated, or "SheetN" when the spec gave none */
    qr_row *rows;
    size_t n_rows;
    size_t n_cols;        /* the longest row */
    int header;           /* bold first row, frozen below it, autofilter */
    const double *widths; /* n_widths column widths in character units, or NULL */
    size_t n_widths;
    int freeze_row, freeze_col; /* 0-based count of frozen rows/cols; 0,0 = none */
    const qr_chart *charts;     /* n_charts charts anchored on this sheet */
    size_t n_charts;
    /* column styles ("column_styles"): col_looks[c] indexes qr_doc.looks
     * (0 none) for c < n_col_looks; a cell's look is the column's, then its
     * own (qr_sheet_cell_style) */
    const uint16_t *col_looks;
    size_t n_col_looks;
    /* "merge": merged ranges (checked: in the grid, not overlapping, no
     * value under a merge but its top-left cell's) */
    const qr_range *merges;
    size_t n_merges;
    /* "autofilter": QR_FILTER_AUTO (the header's: the used range when the
     * sheet has a header), QR_FILTER_NONE (false), QR_FILTER_RANGE (filter) */
    int autofilter;
    qr_range filter;
    uint32_t tab_color;   /* QR_SX_RGB | rgb, or 0 */
    unsigned row_outline; /* the deepest outline level of its rows */
    /* hidden and grouped columns ("hidden_columns", "grouped_columns"):
     * col_flags[c] = QR_COL_HIDDEN | outline level (0-7), for c < n_col_flags */
    const uint8_t *col_flags;
    size_t n_col_flags;
    /* "conditional": conditional formats in spec order (the first has the
     * highest priority) */
    const qr_cond *conds;
    size_t n_conds;
    /* "validation": data validations in spec order */
    const qr_valid *valids;
    size_t n_valids;
    /* cells' "link" and "comment", in row then column order */
    const qr_cell_note *notes;
    size_t n_notes;
    /* "tables": Excel tables in spec order */
    const qr_sheet_table *tables;
    size_t n_tables;
    /* "print": the print setup, or NULL */
    const qr_sheet_print *print;
    const char *path;
    /* A sheet streamed from its spec (spec/stream.c; only the .xlsx backend
     * sees one): rows holds just the first n_held of its n_rows rows (the
     * autofit's sample), and the rows from stream_from on (the spec's rows,
     * after a "columns" row) arrive again through qr_render_ctx.rows_src.
     * streamed 0: rows holds all n_rows. */
    int streamed;
    size_t n_held, stream_from;
    /* 1 when rows[0] is the spec's "columns" header: the spec's row r is
     * rows[r + 1] (pointers to a cell: "/columns/c", "/rows/r/c") */
    int columns_row;
} qr_sheet;

/* A defined name ("names": {"Revenue": "Data!$B$2:$B$13"}). */
typedef struct qr_name {
    const char *name;
    int scope;    /* -1: the workbook's; else the index of the sheet it belongs to */
    size_t sheet; /* the sheet its reference is on */
    qr_range range;
} qr_name;

/* ---- the document ------------------------------------------------------------ */

typedef struct qr_doc {
    qr_kind kind;
    qr_arena arena;

    qr_text title;    /* plain (titles take no runs) at "/title"; n == 0 when none */
    const char *lang; /* BCP 47 tag from the spec, or NULL */
    int theme;        /* layout/style.h's qr_theme; 0 = plain */
    long accent;      /* the spec's "accent": 0x1000000 | 0xRRGGBB, or 0 = none */
    /* The spec's canonical JSON when the compile options asked for it
     * (qr_compile_opts.canonical), else NULL (also for a tree nested close to
     * the depth limit): all the spec says, as one key. */
    const char *canonical;
    size_t canonical_len;

    /* document, pdf, html: legacy sections are already expanded into blocks,
     * first (heading level 1, then paragraphs), followed by the spec's blocks. */
    const qr_block *blocks;
    size_t n_blocks;
    qr_page page;

    /* presentation */
    const qr_slide *slides;
    size_t n_slides;
    int wide; /* 1 = 16:9 (default), 0 = 4:3 */
    /* slide furniture along the bottom: date (left), footer (centre), number (right) */
    int has_footer, has_date, slide_numbers;
    qr_text footer, date; /* plain, literal */
    /* every slide's ground ("background": a colour or an image; a slide's own wins) and a
       logo in the top right corner (none on a slide whose "footer" is false) */
    int has_background;
    uint32_t background;
    const qr_image *background_image, *logo;

    /* spreadsheet */
    const qr_sheet *sheets;
    size_t n_sheets;
    const char *const *formats; /* formats[0] = "General"; custom and date formats follow */
    size_t n_formats;
    /* cell looks: looks[0] sets nothing; a cell's, row's or column's look
     * indexes this (each already merged from its styles and properties);
     * header_look is the "header" style a sheet's header row takes */
    const qr_cellstyle *looks;
    size_t n_looks;
    unsigned header_look;
    int allow_external; /* "allow_external": true: the formula policy is lifted (formula_check.h) */
    /* defined names: the workbook's "names" (scope -1) and each sheet's
     * (scope = its index), each a cell or range of sheet `sheet` */
    const qr_name *names;
    size_t n_names;

    /* The render's work budget (budget.h): formulas, charts and pages draw on
     * it; compile sets its limit from qr_limits.max_work. */
    qr_budget work;

    /* document, pdf, html: footnotes (issue 32). n_notes: footnote runs in
     * the document (their note_no is 1..n_notes); endnotes: the spec's
     * "notes": "endnotes" collects them at the end instead of page feet. */
    size_t n_notes;
    int endnotes;
    /* "properties" (issue 32): each NULL when not given; keywords joined
     * with ", "; prop_date "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM:SSZ" (W3CDTF). Into
     * docx core properties, the PDF's info dictionary and html <meta>. */
    const char *author, *subject, *keywords, *prop_date;
} qr_doc;

/** The look cell (r, c) of sh shows, merged in the documented order:
 *  column style, row style, the header style (row 0 of a sheet with a
 *  header), the cell's look (its style and properties); row is the row
 *  (or NULL past the rows), cell the cell (or NULL: an empty one). */
qr_cellstyle qr_sheet_cell_style(const qr_doc *doc, const qr_sheet *sh, size_t r, const qr_row *row,
                                 size_t c, const qr_cell *cell);

/** Is url a link the spec allows: scheme http:, https: or mailto:, in any
 *  case ("HTTPS://example.com", "MAILTO:a@b")? The compiler refuses other
 *  links and the text layer (text/) checks again before writing one. */
int qr_link_ok(const char *url);

/** Free the document and everything in its arena. NULL is allowed. */
void qr_doc_free(qr_doc *doc);

#endif
