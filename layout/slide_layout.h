/* slide_layout.h: the geometry of a slide, shared by the .pptx writer
 * (ooxml/pptx_slide.c) and the PDF/PNG slide painter (pdf/slides.c), so a
 * preview puts every word where PowerPoint puts it.
 *
 * Everything is in EMU (914400 per inch, 12700 per point) and font sizes in
 * hundredths of a point, as DrawingML writes them. A slide's plan holds the
 * boxes of its title and body, their paragraphs (level, bullet, size,
 * alignment), the normAutofit fontScale and lnSpcReduction estimated for
 * each, the table's grid (column widths, row heights, font size) and the
 * picture's box. Neither backend decides any of these by itself.
 */
#ifndef QR_SLIDE_LAYOUT_H
#define QR_SLIDE_LAYOUT_H

#include <stddef.h>

#include <quire/error.h>
#include <quire/quire.h>
#include "tree.h"

#define QR_SLIDE_EMU_PER_PT 12700
/* Text box insets (DrawingML defaults): 0.1 in left/right, 0.05 in top/bottom. */
#define QR_SLIDE_INS_LR 91440
#define QR_SLIDE_INS_TB 45720
/* Table cell margins. */
#define QR_SLIDE_CELL_MAR_LR 91440
#define QR_SLIDE_CELL_MAR_TB 45720
/* Deepest bullet level (a:pPr lvl 0..8). */
#define QR_SLIDE_LEVELS 9
/* Line spacing of titles and bodies (a:lnSpc, 1/1000 %). */
#define QR_SLIDE_LINE 90000

/* Font sizes (hundredths of a point). */
#define QR_SLIDE_SZ_TITLE 4400
#define QR_SLIDE_SZ_CTR_TITLE 6000
#define QR_SLIDE_SZ_SUBTITLE 2400
#define QR_SLIDE_SZ_SECTION_TITLE 6000
#define QR_SLIDE_SZ_SECTION_BODY 2400
#define QR_SLIDE_SZ_NOTES 1200
#define QR_SLIDE_SZ_TABLE_MAX 1800
#define QR_SLIDE_SZ_TABLE_MIN 800

/* A rectangle in EMU. */
typedef struct qr_slide_box {
    long long x, y, cx, cy;
} qr_slide_box;

/* Where the placeholders of the layouts sit, for one slide size. */
typedef struct qr_slide_geom {
    long long sw, sh;                 /* slide size: 12192000 x 6858000 (16:9), 9144000 (4:3) */
    qr_slide_box title;               /* title of title_content and the master */
    qr_slide_box body;                /* content area of title_content and the master */
    qr_slide_box ctr_title, subtitle; /* title layout */
    qr_slide_box sec_title, sec_body; /* section layout */
    qr_slide_box accent_bar;          /* themes with an accent bar: along the top */
    qr_slide_box title_rule;          /* and on the title slide, between title and subtitle */
} qr_slide_geom;

/** The placeholder boxes of a 16:9 (wide) or 4:3 slide. */
void qr_slide_geom_init(qr_slide_geom *g, int wide);

/* The notes page: 7.5 in x 10 in portrait, the slide image above the notes. */
#define QR_SLIDE_NOTES_CX 6858000
#define QR_SLIDE_NOTES_CY 9144000
/** The slide image's box and the notes' box on the notes page of g's slides. */
void qr_slide_notes_boxes(const qr_slide_geom *g, qr_slide_box *img, qr_slide_box *body);

/* Level styles (master bodyStyle and explicit paragraphs). */
int qr_slide_level_sz(int lvl);           /* 2800, 2400, 2000, 1800, ... */
long long qr_slide_level_marl(int lvl);   /* left margin of the text, EMU */
long long qr_slide_level_indent(int lvl); /* first line (the bullet) from marl: negative */
const char *qr_slide_level_char(int lvl); /* style.h: "•", "◦", "▪" */

/* ---- text estimate ------------------------------------------------------------ */

/** Estimated advance of UTF-8 text in 1/1000 em (DejaVu Sans metrics;
 *  CJK full width; combining marks zero). */
long long qr_slide_text_width(const char *s, size_t len, int mono, int bold);
/** The widest word of t in 1/1000 em (as qr_slide_text_width measures; a
 *  bold run's letters 8 % wider), *at and *len where it starts in its run:
 *  a word is a run of characters between spaces, line breaks and
 *  full-width characters and letters of scripts written without spaces
 *  (which break anywhere), a hyphen or a slash
 *  ending the word it closes (lines break after them). 0 and NULL for none. */
long long qr_slide_widest_word(const qr_text *t, const char **at, size_t *len);
/** The bytes of s (len) to show of it in at most max bytes, ending on a
 *  character's boundary (a word named in a report's detail). */
size_t qr_slide_clip_utf8(const char *s, size_t len, size_t max);
/** Estimated number of lines of t in a line of width_milli_em (1/1000 em);
 *  *tall (may be NULL) is set when t holds a script with taller lines. */
long long qr_slide_text_lines(const qr_text *t, long long width_milli_em, int *tall);

/* One paragraph as the estimate sees it. */
typedef struct qr_slide_est {
    const qr_text *text;
    int sz;           /* hundredths of a point */
    long long marl;   /* left margin, EMU */
    int space_before; /* hundredths of a point */
} qr_slide_est;

/** Estimate the height of paragraphs in a text box of inner width w and
 *  inner height h (EMU) and choose normAutofit's fontScale and
 *  lnSpcReduction (1/1000 %: 100000 = 100 %) so they fit, as PowerPoint
 *  would after an edit: lines tightened by 10 % then 20 %, then the font in
 *  7.5 % steps down to 25 %. line: line spacing (90000). Returns 1 when the
 *  text fits (possibly shrunk), 0 when not even at 25 %. */
int qr_slide_fit(const qr_slide_est *p, size_t n, long long w, long long h, int line,
                 int *font_scale, int *ln_reduction);
/** The estimated line height (EMU) of a size sz line (tall: taller script)
 *  at line spacing ln (1/1000 %): 1.2 em (1.45 em for tall scripts) x ln. */
long long qr_slide_line_height(long long sz, int tall, long long ln);

/* ---- one slide ------------------------------------------------------------------ */

enum { QR_SLIDE_ALGN_INHERIT, QR_SLIDE_ALGN_L, QR_SLIDE_ALGN_CTR, QR_SLIDE_ALGN_R };
/* NUM: "1.", "2.", ... in the hanging indent (an agenda: a:buAutoNum arabicPeriod) */
enum { QR_SLIDE_BULLET_INHERIT, QR_SLIDE_BULLET_NONE, QR_SLIDE_BULLET_CHAR, QR_SLIDE_BULLET_NUM };
/* The number paragraphs' hanging indent: room for "10." at 28 pt. */
#define QR_SLIDE_NUM_MARL 685800
/* qr_slide_para.accent: the theme's text colour, its accent, white (on a scrim) */
enum { QR_SLIDE_INK_TEXT, QR_SLIDE_INK_ACCENT, QR_SLIDE_INK_WHITE = 3 };
enum { QR_SLIDE_ANCHOR_T, QR_SLIDE_ANCHOR_CTR, QR_SLIDE_ANCHOR_B };

/* One paragraph of a text shape. */
typedef struct qr_slide_para {
    const qr_text *text;
    int lvl;          /* 0..8 */
    int bullet;       /* QR_SLIDE_BULLET_* */
    int algn;         /* QR_SLIDE_ALGN_*: INHERIT is the placeholder's (left) */
    int sz;           /* hundredths of a point, before fontScale */
    int space_before; /* hundredths of a point, before fontScale */
    int bold;         /* 1: bold (a stat's value and label) */
    int accent;       /* QR_SLIDE_INK_*: 1 the theme's accent (a stat's value, an attribution,
                         the current agenda item), 3 white (image_full's title on the scrim) */
    int num;          /* QR_SLIDE_BULLET_NUM: the paragraph's number (1, 2, ...) */
} qr_slide_para;

/** The left margin of a paragraph's text (EMU): the level's under a bullet,
 *  QR_SLIDE_NUM_MARL under a number, 0 without. */
long long qr_slide_para_marl(const qr_slide_para *p);

/* A text shape: a placeholder, or a text box on the blank layout. */
typedef struct qr_slide_shape {
    qr_slide_box box;
    int anchor; /* QR_SLIDE_ANCHOR_* */
    qr_slide_para *paras;
    size_t n;                     /* 0: no shape */
    int font_scale, ln_reduction; /* the estimated normAutofit */
    int line; /* line spacing, 1/1000 %: 0 is QR_SLIDE_LINE (placeholders, as the master says);
                 100000 for the text boxes of the quote, stats and closing layouts (a text box's
                 default) */
    int fits; /* 0: does not fit even at 25 % */
} qr_slide_shape;

/* A table's grid, placed at the top left of its area. */
typedef struct qr_slide_grid {
    qr_slide_box box; /* the frame: width = sum of cols, height = min(rows, area) */
    long long *cols;  /* nc widths */
    long long *rows;  /* nr heights (the header row first) */
    size_t nc, nr;    /* nr == 0: no table */
    int sz;           /* cell font size: 1800 down to 800 */
    int fits;         /* 0: the rows do not fit the area even at 8 pt */
} qr_slide_grid;

/* The text boxes of the quote and stats layouts besides the title and body:
 * a quote and its attribution; each stat's value, label and caption; and the
 * furniture (qr_slide_plan_furniture). */
#define QR_SLIDE_EXTRA 16
#define QR_SLIDE_SZ_QUOTE 3600
#define QR_SLIDE_SZ_ATTRIBUTION 2000
#define QR_SLIDE_SZ_STAT_VALUE 6000
#define QR_SLIDE_SZ_STAT_LABEL 2000
#define QR_SLIDE_SZ_STAT_CAPTION 1600
#define QR_SLIDE_SZ_CLOSING 5400
#define QR_SLIDE_SZ_FOOTER 1200
#define QR_SLIDE_SZ_HEADING 2400    /* a comparison column's heading */
#define QR_SLIDE_SZ_FULL_TITLE 4000 /* image_full's title on the scrim */
#define QR_SLIDE_SZ_CAPTION 2000    /* and its caption */
#define QR_SLIDE_SZ_AGENDA 2800

/* A picture, table or chart of a column (two_content, comparison), or
 * image_full's picture: exactly one of image, table, chart is set. */
typedef struct qr_slide_vis {
    const qr_image *image;
    const qr_table *table;
    const qr_chart *chart;
    const char *name;   /* the shape's name: "Left", "Right", "Picture (full)" */
    qr_slide_box box;   /* a picture's visible box, a chart's frame */
    qr_slide_box src;   /* a picture: where the whole picture goes (larger than box when
                           cropped to cover it: image_full); else equal to box */
    qr_slide_grid grid; /* a table */
} qr_slide_vis;

typedef struct qr_slide_plan {
    const qr_slide *slide;
    int placeholders;               /* 0 on the blank layout: text boxes instead */
    const char *title_ph, *body_ph; /* p:ph type ("title", "ctrTitle", ...), NULL = obj */
    qr_slide_shape title, body;
    qr_slide_grid table;
    qr_slide_box image; /* the picture, aspect kept, centred in its area */
    qr_slide_box chart; /* the chart's frame: its whole area (below the picture when both) */
    qr_slide_shape extra[QR_SLIDE_EXTRA];   /* quote and stats text boxes, in reading order */
    const char *extra_name[QR_SLIDE_EXTRA]; /* the shape's name: "Quote", "Stat 2 Value", ... */
    size_t n_extra;
    qr_slide_vis vis[2]; /* two_content, comparison: the columns' visuals; image_full: the
                            picture (drawn first) */
    size_t n_vis;
    /* the deck's furniture (qr_slide_plan_furniture): the slide's ground, the slide's own
       or the deck's (a colour or a picture cropped to cover the slide), and the logo */
    int has_ground;               /* ground: a colour over the theme's */
    uint32_t ground;              /* 0xRRGGBB */
    const qr_image *ground_image; /* NULL, or the picture under everything */
    qr_slide_box ground_src;      /* where the whole picture goes (cropped to the slide) */
    const qr_image *logo;         /* NULL, or the deck's logo in logo_box */
    qr_slide_box logo_box;
    int scrim;              /* image_full: a dark band (55 % black) under the title */
    qr_slide_box scrim_box; /* drawn after the picture, before the text */
    char number[16];        /* the slide number's text, and the text pointing at it */
    qr_run number_run;
    qr_text number_text;
} qr_slide_plan;

/** Plan slide sl on geometry g. Returns QR_OK or QR_E_NOMEM (nothing to
 *  free then). Free a plan with qr_slide_plan_free. */
qr_status qr_slide_plan_make(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl);
void qr_slide_plan_free(qr_slide_plan *p);

/** Add the deck's furniture to p, slide number no (1-based, as output):
 *  the date bottom left, the footer (the slide's own, or the deck's) in the
 *  middle, the number bottom right, 12 pt text boxes named "Date", "Footer"
 *  and "Slide Number"; the logo top right (0.5 in high, at most 2 in wide;
 *  a title box reaching under it is narrowed and fitted again); none of
 *  these on a slide whose "footer" is false. And the slide's ground: its
 *  own "background", else the deck's. p must not move afterwards (the
 *  number's text lives in it). QR_OK or QR_E_NOMEM. */
qr_status qr_slide_plan_furniture(qr_slide_plan *p, const qr_doc *doc, const qr_slide_geom *g,
                                  int no);

/** Add to l what laying slide number no (1-based, as output) out took:
 *  text shrunk by normAutofit (the scale), text below 9 pt once scaled,
 *  a table that does not fit its area even at 8 pt, a picture drawn larger
 *  than its pixels at 96 dpi. l may be NULL. */
void qr_slide_plan_report(const qr_slide_plan *p, int no, qr_layout_list *l);

/** The table cell at grid row r (row 0 is the header row when there is one),
 *  or NULL past a short header row. */
const qr_tcell *qr_slide_table_cell(const qr_table *t, size_t r, size_t c);

#endif
