/* style.h: the house style as data, one table below every backend.
 *
 * A theme is a qr_style: colours, type sizes and the few decorations a
 * theme adds (a rule under the title, an accent bar on slides, section
 * slides filled with the accent). docx styles.xml, the pptx theme and
 * master, the html CSS and the PDF/PNG layout read their sizes and colours
 * from it, so one spec looks the same in each format. Faces stay with
 * fonts/, which picks a family per script for every theme.
 *
 * Themes: "plain" (the default, quire's neutral look), "report" (accent
 * headings, a rule under the title), and for decks "light" and "dark"
 * (accent bar, title slide on the accent rule, section slides in the
 * accent colour). A spec's "accent": "#RRGGBB" recolours any theme.
 */
#ifndef QR_STYLE_H
#define QR_STYLE_H

#include <stdint.h>

#include "tree.h" /* qr_theme */

enum { QR_STYLE_LEFT, QR_STYLE_CENTER };

typedef struct qr_style {
    const char *name;
    /* colours, 0xRRGGBB */
    uint32_t text;        /* body text */
    uint32_t background;  /* page or slide */
    uint32_t title;       /* the document title, slide titles */
    uint32_t heading;     /* headings 1-6 */
    uint32_t accent;      /* rules, bars, slide table headers, section slides */
    uint32_t on_accent;   /* text drawn on the accent */
    uint32_t link;        /* hyperlinks */
    uint32_t visited;     /* followed hyperlinks (the pptx theme's folHlink) */
    uint32_t code_fill;   /* code block ground */
    uint32_t header_fill; /* table header row ground */
    uint32_t grid;        /* table borders */
    uint32_t footer;      /* the page footer "N / M" */
    /* an image quire cannot draw: its box, border and alt text; sheet previews' cell grid */
    uint32_t placeholder_fill, placeholder_line, placeholder_text, sheet_grid;
    /* drawn charts (layout/chart.c: the PDF/PNG and the html SVG) */
    uint32_t chart_text, chart_title, chart_grid, chart_axis;
    /* type sizes, points */
    double body_pt, title_pt, code_pt, table_pt, footer_pt;
    double heading_pt[6];
    /* spacing, points */
    double para_after;  /* after a paragraph (and the docx default) */
    double title_after; /* after the title (below its rule, if any) */
    double heading_before[6], heading_after[6];
    double list_indent;   /* each list depth's indent (at least: a wider marker widens it) */
    double list_gap;      /* between list items (PDF) */
    double cell_pad;      /* table cells, each side */
    double code_pad;      /* code blocks, each side */
    double grid_pt;       /* table border width */
    double title_rule_pt; /* the rule under the title */
    /* alignment and text */
    int title_align;        /* QR_STYLE_LEFT or QR_STYLE_CENTER, whatever the direction */
    int italic_from;        /* headings of this level (1-6) and deeper are italic; 7: none */
    const char *footer_sep; /* between the page number and the page count */
    /* faces */
    const char *body_face; /* Latin text in place of fonts/' default (DejaVu Sans), where it
                              covers the text; NULL: fonts/' choice. Other scripts keep theirs */
    /* decorations */
    int title_rule;   /* a rule in the accent colour under the document title */
    int accent_bar;   /* slides: a bar in the accent colour along the top */
    int section_fill; /* slides: section slides on the accent, text in on_accent */
} qr_style;

/** The series palette every theme draws charts in (layout/chart.c's
 *  qr_chart_palette) and the pptx theme's accent2-6 (accent1 is the
 *  theme's accent). */
extern const uint32_t qr_style_series[6];

/** The style of theme t with the accent override (0: none). */
qr_style qr_style_get(int theme, long accent);

/** Where the accent colours text (headings; report's title), a colour
 *  that fails WCAG AA on the page's ground (4.5:1, 3:1 for large text) is
 *  moved towards the ink that reads best there until it passes. Returns
 *  the colour drawn in place of the accent and sets *what ("headings",
 *  "the title", "headings and the title"), or 0 and NULL when the accent
 *  (or none) is drawn as given. */
uint32_t qr_style_accent_text(int theme, long accent, const char **what);

struct qr_doc;
/** qr_style_get for a compiled spec's theme and accent. */
qr_style qr_style_of(const struct qr_doc *doc);

#ifdef QUIRE_STYLE_HOOK
/** Test hook, only in a build of this file with QUIRE_STYLE_HOOK (the
 *  unit test of the style table): every backend renders with *s (NULL: the
 *  built-in themes). The library has no such hook. */
void qr_style_set_override(const qr_style *s);
#endif

/** 1 when the background is darker than the text (a dark theme). */
int qr_style_dark(const qr_style *s);

/** WCAG 2 contrast ratio of two colours (1 to 21). */
double qr_style_contrast(uint32_t a, uint32_t b);

/** The text colour on a ground of colour fill: white or near-black
 *  (#111111), whichever contrasts more (WCAG 2). Never 0: the painters
 *  read a colour 0 as "the body text's". */
uint32_t qr_style_ink_on(uint32_t fill);

/** The style a spreadsheet's charts and cells are drawn in: s (its accent,
 *  its palette) on the white ground every sheet has (the .xlsx carries no
 *  page colour), so the chart ink is a light theme's. */
qr_style qr_style_sheet(const qr_style *s);

/** "RRGGBB" (upper case) of c into out[7]. */
void qr_style_hex(uint32_t c, char out[7]);

/* ---- house rules every backend follows (style_rules.c) -------------------------
 *
 * Decided once so the same spec looks the same in pdf, docx, html and pptx:
 *   - List labels by nesting depth: ordered lists cycle decimal "1.",
 *     lower-alpha "a.", lower-roman "i.", then again; bullets cycle
 *     "•" "◦" "▪". (Word's and browsers' defaults for nested lists.)
 *   - The title is aligned by the theme (title_align above), whatever the
 *     direction of its text.
 *   - Tabs in code blocks stop every QR_LOOK_TAB_COLUMNS columns of the
 *     monospace font.
 *   - A table with neither a header row nor body rows is not drawn at all. */

typedef enum qr_label_format {
    QR_LABEL_BULLET,
    QR_LABEL_DECIMAL,
    QR_LABEL_LOWER_ALPHA,
    QR_LABEL_LOWER_ROMAN
} qr_label_format;

/** The label format of a list item at depth (0-based). */
qr_label_format qr_look_label_format(int ordered, int depth);
/** The bullet of an unordered item at depth: UTF-8 "•", "◦" or "▪". */
const char *qr_look_bullet(int depth);

/** The width an image is drawn at, in the unit of natural and column:
 *  its "width" (points, given in that unit by pt_unit per point, or a
 *  percentage of the column), else its natural width; never wider than the
 *  column. */
double qr_look_image_width(const qr_image *im, double natural, double column, double pt_unit);

/** A task item's box in place of its bullet: U+2610 open, U+2611 ticked
 *  (DejaVu Sans has both). */
const char *qr_look_task(int done);
/** The label of item n (1-based) at depth: "3.", "c.", "iii." or a bullet;
 *  out holds at least 32 bytes. */
void qr_look_label(int ordered, int depth, unsigned n, char *out);

/* Tab stops in code blocks, in columns of the monospace font. */
#define QR_LOOK_TAB_COLUMNS 8
/* The advance of DejaVu Sans Mono (fonts/' monospace family), in em:
 * 1233/2048. A tab stop is QR_LOOK_TAB_COLUMNS of these. */
#define QR_LOOK_MONO_ADVANCE (1233.0 / 2048.0)

/** 1 when a table is drawn nowhere: no header row and no body rows. */
int qr_look_table_skipped(const qr_table *t);

#endif
