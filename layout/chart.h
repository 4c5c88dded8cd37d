/* chart.h: the chart model below the backends.
 *
 * Everything the backends share about a qr_chart (tree.h): the series
 * palette (the theme's accents), "nice" axis ticks, value formatting with
 * an Excel number format, A1 references, and the geometry of a drawn chart
 * (qr_chart_layout), which pdf/ paints with cairo and the html backend
 * writes as SVG, so both show the same picture:
 *
 *     qr_chart_plot p;
 *     qr_chart_measure m = {my_width, ctx};  // text widths in points
 *     if (qr_chart_layout(chart, 468, 280, &m, &p) == 0) {
 *         for (size_t i = 0; i < p.n; i++) draw(&p, &p.shapes[i]);
 *         qr_chart_plot_free(&p);
 *     }
 *
 * Coordinates are points from the top-left corner, y down. Angles are
 * radians clockwise from 12 o'clock.
 */
#ifndef QR_CHART_H
#define QR_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "tree.h"

/* Type sizes of chart text in points, the same in the Office files' chart
 * XML (c:txPr, ooxml/dml_chart.c) and in quire's drawing of the chart: the
 * chart title, and every other text (axis labels and titles, legend, data
 * labels). */
#define QR_CHART_TITLE_PT 14
#define QR_CHART_TEXT_PT 10

struct qr_style;
/** The colour (0xRRGGBB) of the i-th series (or slice) in style st: the
 *  theme's accent first (a spec's "accent" included), then the series
 *  palette's others (qr_style_series), then darker rounds of them. st
 *  NULL: the plain theme's. */
uint32_t qr_chart_palette(size_t i, const struct qr_style *st);

/** The colour of series i: its "color", else the palette's i-th. */
uint32_t qr_chart_series_color(const qr_chart *c, size_t i, const struct qr_style *st);

/** A sheet range as a formula reference: 'Q3 data'!$B$2:$B$9 (the sheet
 *  name quoted when it needs it). Returns the length written (truncated
 *  to size - 1). */
size_t qr_chart_ref_text(const qr_chart_ref *r, char *buf, size_t size);

/* Axis ticks: lo, lo + step, ..., hi (n intervals). */
typedef struct qr_ticks {
    double lo, hi, step;
    int n;
} qr_ticks;

/** Nice ticks covering [min, max] in about `intervals` steps of 1, 2, 2.5
 *  or 5 times a power of ten, zero included: 0..1430 in 8 -> 0, 200, ...,
 *  1600. An empty range gets one step around it. Never more than 1000
 *  intervals, whatever the numbers (values past QR_CHART_MAX_VALUE, which
 *  the compiler refuses, get one interval). */
void qr_chart_ticks(double min, double max, int intervals, qr_ticks *t);

/** Format v with an Excel number format: the first section's digits
 *  ("0", "0.00", "#,##0"), thousands separators, "%" (times 100) and
 *  literal text ("$"#,##0, 0.0 "k"). NULL or "General": shortest, at most
 *  10 significant digits. Returns the length (truncated to size - 1). */
size_t qr_chart_format(double v, const char *fmt, char *buf, size_t size);

/* ---- geometry ------------------------------------------------------------------ */

typedef enum qr_chart_shape_kind {
    QR_CS_RECT,   /* x, y, w, h */
    QR_CS_LINE,   /* from (x, y) to (x2, y2), lw wide */
    QR_CS_PATH,   /* n_pts points from pts[]; filled (closed) or stroked lw wide */
    QR_CS_SECTOR, /* centre (x, y), radii r (outer) and r0 (inner, 0 for a pie), a0..a1 */
    QR_CS_CIRCLE, /* centre (x, y), radius r: a marker */
    QR_CS_TEXT    /* text[text]: baseline at y, x is its start, centre or end (anchor) */
} qr_chart_shape_kind;

enum { QR_CA_START, QR_CA_MIDDLE, QR_CA_END };

typedef struct qr_chart_shape {
    uint8_t kind, fill, anchor;
    uint32_t color; /* 0xRRGGBB */
    double alpha;   /* fill opacity, 1 = opaque */
    double x, y, w, h, x2, y2, r, r0, a0, a1, lw;
    size_t pts, n_pts; /* PATH: points pts[0..n_pts) of the plot's pts (x, y pairs) */
    size_t text;       /* TEXT: index into the plot's texts */
} qr_chart_shape;

/* A text of the chart, measured once through the caller's measure(). */
typedef struct qr_chart_text {
    size_t off, len; /* bytes in the plot's chars */
    double size;     /* points */
    int bold;
    double width; /* what measure() said */
} qr_chart_text;

typedef struct qr_chart_plot {
    qr_chart_shape *shapes;
    size_t n, cap;
    double *pts; /* x, y pairs */
    size_t n_pts, cap_pts;
    qr_chart_text *texts; /* in the order measure() was called */
    size_t n_texts, cap_texts;
    char *chars;
    size_t n_chars, cap_chars;
    double width, height;
} qr_chart_plot;

/* Text width in points of s (n bytes of UTF-8) at size points. */
typedef struct qr_chart_measure {
    double (*width)(void *ctx, const char *s, size_t n, double size, int bold);
    void *ctx;
} qr_chart_measure;

/** A width estimate for when no fonts are at hand (html): about 0.55 em
 *  per character, 1 em for wide (CJK) characters. */
double qr_chart_estimate_width(void *ctx, const char *s, size_t n, double size, int bold);

struct qr_style;
/** Lay out chart in a w x h point box: title, legend, axes with nice ticks
 *  and gridlines, the series, data labels, in the ink of style st
 *  (layout/style.h chart_*; NULL: the plain theme's). m NULL: estimated
 *  widths. Returns 0, or -1 when memory ran out (p is then empty). */
int qr_chart_layout(const qr_chart *chart, double w, double h, const qr_chart_measure *m,
                    const struct qr_style *st, qr_chart_plot *p);
void qr_chart_plot_free(qr_chart_plot *p);

/** The text of a TEXT shape (not NUL-terminated: use its len). */
static inline const char *qr_chart_text_of(const qr_chart_plot *p, size_t text)
{
    return p->chars + p->texts[text].off;
}

/** Default size of a document chart: the text width, at most 468 x 280. */
void qr_chart_default_size(double text_width, double *w, double *h);

#endif
