/* chart.c: a DrawingML chart part (c:chartSpace, what Word, PowerPoint,
 * Excel, LibreOffice and quire write) back into a chart spec from its cached
 * data: the first plot's type (bar, column, line, area, pie, doughnut,
 * scatter; stacked and percent groupings), the title, axis titles, legend
 * position, data labels, the value axis' number format, and each series'
 * name, categories and values (scatter: x and y). Formulas' references are
 * not followed: the cache is what the file shows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cnum.h"
#include "read_int.h"

#define MAX_SERIES 255
#define MAX_POINTS 4000

/* A cache of points (c:strCache, c:numCache): each point's text by index. */
typedef struct cache {
    char **pt;
    long n; /* points by index, ptCount or the highest index + 1 */
} cache;

typedef struct series {
    qr_buf name;
    cache cat, val, x;
} series;

typedef struct chart_rd {
    const char *type; /* the spec's chart type, NULL until a known plot is met */
    char *unknown;    /* a plot quire does not draw (radar, bubble...) */
    int plots;        /* plot elements met (a combination chart has several) */
    int stacked, percent, labels;
    qr_buf title, x_title, y_title, number_format;
    const char *legend; /* NULL: no c:legend */
    series *ser;
    size_t n_ser;
    int scatter, bar_dir_bar;
} chart_rd;

/* Room for n points (the new ones missing); 0 when it cannot be. */
static int cache_grow(cache *c, long n)
{
    if (n <= c->n) return 1;
    if (n > MAX_POINTS) return 0;
    char **np = realloc(c->pt, (size_t)n * sizeof *np);
    if (!np) return 0;
    for (long i = c->n; i < n; i++)
        np[i] = NULL;
    c->pt = np;
    c->n = n;
    return 1;
}

static void cache_put(cache *c, long idx, const char *s)
{
    if (idx < 0 || !cache_grow(c, idx + 1)) return;
    free(c->pt[idx]);
    c->pt[idx] = strdup(s);
}

static void cache_free(cache *c)
{
    for (long i = 0; i < c->n; i++)
        free(c->pt[i]);
    free(c->pt);
    memset(c, 0, sizeof *c);
}

static const char *plot_type(xmlTextReaderPtr x, int *known)
{
    static const struct {
        const char *el, *type;
    } plots[] = {{"barChart", "column"},        {"bar3DChart", "column"},   {"lineChart", "line"},
                 {"line3DChart", "line"},       {"areaChart", "area"},      {"area3DChart", "area"},
                 {"pieChart", "pie"},           {"pie3DChart", "pie"},      {"ofPieChart", "pie"},
                 {"doughnutChart", "doughnut"}, {"scatterChart", "scatter"}};
    static const char *const others[] = {"radarChart", "bubbleChart", "stockChart", "surfaceChart",
                                         "surface3DChart"};
    for (size_t i = 0; i < sizeof plots / sizeof *plots; i++)
        if (qr_rd_is(x, plots[i].el)) {
            *known = 1;
            return plots[i].type;
        }
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        if (qr_rd_is(x, others[i])) {
            *known = 0;
            return others[i];
        }
    return NULL;
}

/* Write a cache's points as numbers: a point that is missing or not a
 * number reads as 0 (the spec's values have no gaps); *bad counts them. */
static void put_numbers(qr_buf *b, const cache *c, long n, long *bad)
{
    qr_buf_putc(b, '[');
    for (long i = 0; i < n; i++) {
        if (i) qr_buf_putc(b, ',');
        char *end = NULL;
        const char *s = i < c->n ? c->pt[i] : NULL;
        double v = s ? qr_strtod_c(s, &end) : 0;
        if (!s || !end || *end || !isfinite(v) || fabs(v) > 1e300) {
            v = 0;
            (*bad)++;
        }
        qr_rd_jnum(b, v);
    }
    qr_buf_putc(b, ']');
}

static void put_key_str(qr_buf *b, const char *key, const qr_buf *s)
{
    if (!s->len) return;
    qr_buf_printf(b, ",\"%s\":", key);
    qr_buf_json_str(b, s->data, s->len, 0);
}

qr_status qr_rd_chart(qr_rd *r, const char *part, const char *alt, int block, qr_buf *out)
{
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    chart_rd c;
    memset(&c, 0, sizeof c);
    /* where the reader is: which title, which cache, inside which axis */
    enum { T_NONE, T_CHART, T_CAT_AX, T_VAL_AX } title_of = T_NONE;
    enum { C_NONE, C_NAME, C_CAT, C_VAL, C_X } in = C_NONE;
    int in_plot = 0, in_ax = 0, val_axes = 0, in_legend = 0, in_v = 0, in_t = 0;
    int depth_title = -1, in_ser = 0, plot_depth = -1;
    long pt = -1;
    qr_buf *title_buf = NULL;
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        int depth = xmlTextReaderDepth(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            int empty = xmlTextReaderIsEmptyElement(x);
            int known = 0;
            const char *pl = !in_plot ? plot_type(x, &known) : NULL;
            if (pl) {
                c.plots++;
                if (c.plots == 1) {
                    if (known)
                        c.type = pl;
                    else
                        c.unknown = strdup(pl);
                    c.scatter = known && strcmp(pl, "scatter") == 0;
                }
                in_plot = !empty;
                plot_depth = depth;
            } else if (qr_rd_is(x, "title") && depth_title < 0) {
                depth_title = depth;
                title_of = in_ax == 1 ? T_CAT_AX : in_ax == 2 ? T_VAL_AX : T_CHART;
                if (in_ax == 2 && c.scatter && val_axes == 1) title_of = T_CAT_AX;
                title_buf = title_of == T_CHART    ? &c.title
                            : title_of == T_CAT_AX ? &c.x_title
                                                   : &c.y_title;
                if (title_buf->len) title_buf = NULL; /* the first one */
            } else if (depth_title >= 0 && qr_rd_is(x, "p") && title_buf && title_buf->len) {
                qr_buf_putc(title_buf, '\n');
            } else if (depth_title >= 0 && (qr_rd_is(x, "t") || qr_rd_is(x, "v"))) {
                in_t = !empty;
            } else if (qr_rd_is(x, "catAx") || qr_rd_is(x, "dateAx")) {
                in_ax = 1;
            } else if (qr_rd_is(x, "valAx")) {
                in_ax = 2;
                val_axes++;
            } else if (in_ax == 2 && !(c.scatter && val_axes == 1) && qr_rd_is(x, "numFmt") &&
                       !c.number_format.len) {
                char *f = qr_rd_attr(x, "formatCode");
                long linked = qr_rd_attr_long(x, "sourceLinked", 0);
                if (f && !linked && strcmp(f, "General") != 0 &&
                    !(c.percent && strcmp(f, "0%") == 0))
                    qr_buf_puts(&c.number_format, f);
                xmlFree(f);
            } else if (qr_rd_is(x, "legend")) {
                in_legend = !empty;
                c.legend = "bottom";
            } else if (in_legend && qr_rd_is(x, "legendPos")) {
                char *v = qr_rd_attr(x, "val");
                c.legend = !v                    ? "right"
                           : strcmp(v, "b") == 0 ? "bottom"
                           : strcmp(v, "t") == 0 ? "top"
                           : strcmp(v, "l") == 0 ? "left"
                                                 : "right";
                xmlFree(v);
            } else if (in_plot && c.plots == 1 && qr_rd_is(x, "barDir")) {
                char *v = qr_rd_attr(x, "val");
                if (v && strcmp(v, "bar") == 0) c.type = "bar";
                xmlFree(v);
            } else if (in_plot && c.plots == 1 && qr_rd_is(x, "grouping")) {
                char *v = qr_rd_attr(x, "val");
                c.stacked = v && strcmp(v, "stacked") == 0;
                c.percent = v && strcmp(v, "percentStacked") == 0;
                xmlFree(v);
            } else if (in_plot && c.plots == 1 && !in_ser && qr_rd_is(x, "showVal")) {
                char *v = qr_rd_attr(x, "val");
                c.labels = !v || strcmp(v, "1") == 0 || strcmp(v, "true") == 0;
                xmlFree(v);
            } else if (in_plot && c.plots == 1 && qr_rd_is(x, "ser") && !empty) {
                in_ser = 1;
                if (c.n_ser < MAX_SERIES) {
                    series *ns = realloc(c.ser, (c.n_ser + 1) * sizeof *ns);
                    if (ns) {
                        c.ser = ns;
                        memset(&c.ser[c.n_ser++], 0, sizeof *ns);
                    }
                }
            } else if (in_ser && qr_rd_is(x, "tx") && in == C_NONE) {
                in = C_NAME;
            } else if (in_ser && (qr_rd_is(x, "cat") || qr_rd_is(x, "xVal"))) {
                in = qr_rd_is(x, "cat") ? C_CAT : C_X;
            } else if (in_ser && (qr_rd_is(x, "val") || qr_rd_is(x, "yVal"))) {
                in = C_VAL;
            } else if (in != C_NONE && qr_rd_is(x, "pt")) {
                pt = qr_rd_attr_long(x, "idx", -1);
            } else if (in != C_NONE && qr_rd_is(x, "ptCount")) {
                /* every point is there, a missing one empty */
                long n = qr_rd_attr_long(x, "val", 0);
                if (n > 0 && c.n_ser && in != C_NAME) {
                    series *s = &c.ser[c.n_ser - 1];
                    cache *k = in == C_CAT ? &s->cat : in == C_X ? &s->x : &s->val;
                    cache_grow(k, n);
                }
            } else if (in != C_NONE && qr_rd_is(x, "v")) {
                in_v = !empty;
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (depth == depth_title && qr_rd_is(x, "title")) {
                depth_title = -1;
                title_buf = NULL;
            } else if (qr_rd_is(x, "t") || qr_rd_is(x, "v")) {
                in_t = in_v = 0;
            } else if (in_plot && depth == plot_depth) {
                in_plot = 0;
            } else if (qr_rd_is(x, "catAx") || qr_rd_is(x, "dateAx") || qr_rd_is(x, "valAx")) {
                in_ax = 0;
            } else if (qr_rd_is(x, "legend")) {
                in_legend = 0;
            } else if (qr_rd_is(x, "ser")) {
                in_ser = 0;
                in = C_NONE;
            } else if (in_ser && (qr_rd_is(x, "tx") || qr_rd_is(x, "cat") || qr_rd_is(x, "val") ||
                                  qr_rd_is(x, "xVal") || qr_rd_is(x, "yVal"))) {
                in = C_NONE;
            } else if (qr_rd_is(x, "pt")) {
                pt = -1;
            }
        } else if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE) {
            const char *s = (const char *)xmlTextReaderConstValue(x);
            if (!s) continue;
            if (in_t && title_buf && depth_title >= 0) {
                qr_buf_puts(title_buf, s);
            } else if (in_v && c.n_ser && in_ser) {
                series *se = &c.ser[c.n_ser - 1];
                if (in == C_NAME) {
                    if (!se->name.len) qr_buf_puts(&se->name, s);
                } else if (in == C_CAT) {
                    cache_put(&se->cat, pt >= 0 ? pt : se->cat.n, s);
                } else if (in == C_X) {
                    cache_put(&se->x, pt >= 0 ? pt : se->x.n, s);
                } else if (in == C_VAL) {
                    cache_put(&se->val, pt >= 0 ? pt : se->val.n, s);
                }
            }
        }
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    if (st == QR_OK) {
        if (!c.type) {
            qr_errlist_addf(r->warns, QR_OK, part,
                            "quire draws bar, column, line, area, pie, "
                            "doughnut and scatter charts",
                            "%s: a %s not read", part,
                            c.unknown ? c.unknown : "chart without a plot");
        } else if (!c.n_ser) {
            qr_errlist_addf(r->warns, QR_OK, part, "a chart needs a series",
                            "%s: a chart without series not read", part);
        } else {
            if (c.plots > 1)
                qr_errlist_addf(r->warns, QR_OK, part, "a spec's chart has one plot",
                                "%s: a chart of %d plots read as its first (%s)", part, c.plots,
                                c.type);
            long bad = 0;
            qr_buf_puts(out, block ? "{\"type\":\"chart\",\"chart\":" : "{\"chart\":");
            qr_buf_json_str(out, c.type, strlen(c.type), 0);
            put_key_str(out, "title", &c.title);
            /* the categories: the first series' that has them */
            long n = 0;
            for (size_t i = 0; i < c.n_ser; i++)
                if (c.ser[i].val.n > n) n = c.ser[i].val.n;
            const cache *cat = NULL;
            for (size_t i = 0; i < c.n_ser && !cat; i++)
                if (c.ser[i].cat.n) cat = &c.ser[i].cat;
            if (!c.scatter && cat) {
                qr_buf_puts(out, ",\"categories\":[");
                for (long i = 0; i < n; i++) {
                    const char *s = i < cat->n && cat->pt[i] ? cat->pt[i] : "";
                    if (i) qr_buf_putc(out, ',');
                    qr_buf_json_str(out, s, strlen(s), 0);
                }
                qr_buf_putc(out, ']');
            }
            qr_buf_puts(out, ",\"series\":[");
            for (size_t i = 0; i < c.n_ser; i++) {
                series *s = &c.ser[i];
                qr_buf_puts(out, i ? ",{" : "{");
                int comma = 0;
                if (s->name.len) {
                    qr_buf_puts(out, "\"name\":");
                    qr_buf_json_str(out, s->name.data, s->name.len, 0);
                    comma = 1;
                }
                if (c.scatter) {
                    long m = s->val.n > s->x.n ? s->val.n : s->x.n;
                    if (comma) qr_buf_putc(out, ',');
                    qr_buf_puts(out, "\"x\":");
                    if (s->x.n) {
                        put_numbers(out, &s->x, m, &bad);
                    } else { /* no x values: 1, 2, 3... as Excel draws them */
                        qr_buf_putc(out, '[');
                        for (long k = 0; k < m; k++)
                            qr_buf_printf(out, k ? ",%ld" : "%ld", k + 1);
                        qr_buf_putc(out, ']');
                    }
                    qr_buf_puts(out, ",\"y\":");
                    put_numbers(out, &s->val, m, &bad);
                } else {
                    if (comma) qr_buf_putc(out, ',');
                    qr_buf_puts(out, "\"values\":");
                    put_numbers(out, &s->val, n, &bad);
                }
                qr_buf_putc(out, '}');
            }
            qr_buf_putc(out, ']');
            put_key_str(out, "x_title", &c.x_title);
            put_key_str(out, "y_title", &c.y_title);
            /* the legend: bottom by default, none by default for one series
             * (but a pie's) */
            int pie = strcmp(c.type, "pie") == 0 || strcmp(c.type, "doughnut") == 0;
            const char *dflt = c.n_ser == 1 && !pie ? "none" : "bottom";
            const char *legend = c.legend ? c.legend : "none";
            if (strcmp(legend, dflt) != 0) qr_buf_printf(out, ",\"legend\":\"%s\"", legend);
            put_key_str(out, "number_format", &c.number_format);
            if (c.labels) qr_buf_puts(out, ",\"labels\":true");
            if (c.stacked) qr_buf_puts(out, ",\"stacked\":true");
            if (c.percent) qr_buf_puts(out, ",\"percent\":true");
            if (alt && *alt) {
                qr_buf_puts(out, ",\"alt\":");
                qr_buf_json_str(out, alt, strlen(alt), 0);
            }
            qr_buf_putc(out, '}');
            if (bad)
                qr_errlist_addf(r->warns, QR_OK, part, "a chart's values are numbers",
                                "%s: %ld missing or non-numeric point%s read as 0", part, bad,
                                bad == 1 ? "" : "s");
        }
    }
    for (size_t i = 0; i < c.n_ser; i++) {
        qr_buf_free(&c.ser[i].name);
        cache_free(&c.ser[i].cat);
        cache_free(&c.ser[i].val);
        cache_free(&c.ser[i].x);
    }
    free(c.ser);
    free(c.unknown);
    qr_buf_free(&c.title);
    qr_buf_free(&c.x_title);
    qr_buf_free(&c.y_title);
    qr_buf_free(&c.number_format);
    return st;
}
