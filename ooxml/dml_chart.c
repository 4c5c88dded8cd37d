/* dml_chart.c: DrawingML chart parts (c:chartSpace, dml-chart.xsd order) and
 * the embedded workbook that holds a Word or PowerPoint chart's data (see
 * dml_chart.h). */
#include "dml_chart.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "chart.h"
#include "compile.h"
#include "fonts.h"
#include "style.h"

/* Where the data sit: the embedded workbook's cells or the sheet's ranges. */
typedef struct cw {
    qr_xml *x;
    const qr_chart *ch;
    int embedded;
    qr_style ink; /* the theme's chart ink: text, title, gridlines, axes, ground */
} cw;

static int is_pie(const qr_chart *c)
{
    return c->type == QR_CHART_PIE || c->type == QR_CHART_DOUGHNUT;
}

static int scatter(const qr_chart *c)
{
    return c->type == QR_CHART_SCATTER;
}

static void val(qr_xml *x, const char *name, const char *v)
{
    qr_xml_leaf(x, name, "val", v, NULL);
}

static void ival(qr_xml *x, const char *name, long long v)
{
    qr_xml_start(x, name);
    qr_xml_attr_int(x, "val", v);
    qr_xml_end(x);
}

static void rgb(qr_xml *x, uint32_t c)
{
    char hex[8];
    snprintf(hex, sizeof hex, "%06X", c & 0xFFFFFF);
    qr_xml_start(x, "a:solidFill");
    qr_xml_leaf(x, "a:srgbClr", "val", hex, NULL);
    qr_xml_end(x);
}

/* Run properties: size, weight and the colour of the text (every text of a
 * chart is coloured: the app's default is black, unreadable on a dark
 * theme's ground). */
static void rpr(qr_xml *x, const char *name, int lang, int size, int bold, uint32_t color)
{
    qr_xml_start(x, name);
    if (lang) qr_xml_attr(x, "lang", "en-US");
    qr_xml_attr_int(x, "sz", size * 100);
    qr_xml_attr(x, "b", bold ? "1" : "0");
    rgb(x, color);
    qr_xml_end(x);
}

/* <c:txPr>: the text properties of an axis, the legend, data labels or the
 * whole chart. */
static void txpr(qr_xml *x, int size, int bold, uint32_t color)
{
    qr_xml_start(x, "c:txPr");
    qr_xml_leaf(x, "a:bodyPr", NULL);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    qr_xml_start(x, "a:p");
    qr_xml_start(x, "a:pPr");
    rpr(x, "a:defRPr", 0, size, bold, color);
    qr_xml_end(x);
    qr_xml_leaf(x, "a:endParaRPr", "lang", "en-US", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <c:tx>/<c:title> rich text: one paragraph, one run. */
static void rich(qr_xml *x, const char *text, int size, int bold, uint32_t color)
{
    qr_xml_start(x, "c:tx");
    qr_xml_start(x, "c:rich");
    qr_xml_leaf(x, "a:bodyPr", NULL);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    qr_xml_start(x, "a:p");
    qr_xml_start(x, "a:pPr");
    /* a right-to-left title reads right to left, as the PDF draws it */
    if (qr_fonts_direction(text, strlen(text)) == QR_DIR_RTL) qr_xml_attr(x, "rtl", "1");
    rpr(x, "a:defRPr", 0, size, bold, color);
    qr_xml_end(x);
    qr_xml_start(x, "a:r");
    rpr(x, "a:rPr", 1, size, bold, color);
    qr_xml_elem_text(x, "a:t", text);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void title(qr_xml *x, const char *text, int size, uint32_t color)
{
    qr_xml_start(x, "c:title");
    rich(x, text, size, 1, color);
    val(x, "c:overlay", "0");
    qr_xml_end(x);
}

/* A reference: the embedded workbook's column col rows [r0, r1] (0-based). */
static void embed_ref(char *buf, size_t size, uint32_t col, uint32_t r0, uint32_t r1)
{
    char a[16], z[16];
    qr_chart_a1(r0, col, 1, a);
    qr_chart_a1(r1, col, 1, z);
    if (r0 == r1)
        snprintf(buf, size, "Sheet1!%s", a);
    else
        snprintf(buf, size, "Sheet1!%s:%s", a, z);
}

static void num_pts(qr_xml *x, const qr_chart *ch, const double *v, size_t n)
{
    qr_xml_elem_text(x, "c:formatCode", ch->number_format ? ch->number_format : "General");
    ival(x, "c:ptCount", (long long)n);
    /* the points as markup in one go: a 4000-point series is the hot path */
    qr_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        char num[40];
        qr_fmt_double(v[i], num);
        qr_buf_printf(&b, "<c:pt idx=\"%zu\"><c:v>%s</c:v></c:pt>", i, num);
    }
    if (b.len) qr_xml_raw(x, b.data, b.len);
    qr_buf_free(&b);
}

/* <c:val>/<c:yVal>/<c:xVal> numbers: a numRef (cells) or numLit. */
static void numbers(cw *w, const char *name, const double *v, size_t n, const qr_chart_ref *ref,
                    uint32_t embed_col)
{
    qr_xml *x = w->x;
    qr_xml_start(x, name);
    if (w->embedded || ref) {
        char f[300];
        if (ref)
            qr_chart_ref_text(ref, f, sizeof f);
        else
            embed_ref(f, sizeof f, embed_col, 1, (uint32_t)n);
        qr_xml_start(x, "c:numRef");
        qr_xml_elem_text(x, "c:f", f);
        qr_xml_start(x, "c:numCache");
        num_pts(x, w->ch, v, n);
        qr_xml_end(x);
        qr_xml_end(x);
    } else {
        qr_xml_start(x, "c:numLit");
        num_pts(x, w->ch, v, n);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

static void str_pts(qr_xml *x, const char *const *s, size_t n)
{
    ival(x, "c:ptCount", (long long)n);
    qr_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        qr_buf_printf(&b, "<c:pt idx=\"%zu\"><c:v>", i);
        qr_xml_escape(&b, s[i], strlen(s[i]), 0);
        qr_buf_puts(&b, "</c:v></c:pt>");
    }
    if (b.len) qr_xml_raw(x, b.data, b.len);
    qr_buf_free(&b);
}

static void cats(cw *w)
{
    const qr_chart *ch = w->ch;
    qr_xml *x = w->x;
    qr_xml_start(x, "c:cat");
    if (w->embedded || ch->categories_ref) {
        char f[300];
        if (ch->categories_ref)
            qr_chart_ref_text(ch->categories_ref, f, sizeof f);
        else
            embed_ref(f, sizeof f, 0, 1, (uint32_t)ch->n_categories);
        qr_xml_start(x, "c:strRef");
        qr_xml_elem_text(x, "c:f", f);
        qr_xml_start(x, "c:strCache");
        str_pts(x, ch->categories, ch->n_categories);
        qr_xml_end(x);
        qr_xml_end(x);
    } else {
        qr_xml_start(x, "c:strLit");
        str_pts(x, ch->categories, ch->n_categories);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* The column of series s's values (and s's x for scatter: one before). */
static uint32_t value_col(const qr_chart *ch, size_t s)
{
    return scatter(ch) ? (uint32_t)(2 * s + 1) : (uint32_t)(s + 1);
}

static void series_name(cw *w, const qr_series *s, size_t i)
{
    qr_xml *x = w->x;
    char deflt[32];
    snprintf(deflt, sizeof deflt, "Series %zu", i + 1);
    const char *name = s->name && *s->name ? s->name : deflt;
    qr_xml_start(x, "c:tx");
    if (w->embedded) {
        char f[64];
        embed_ref(f, sizeof f, value_col(w->ch, i), 0, 0);
        qr_xml_start(x, "c:strRef");
        qr_xml_elem_text(x, "c:f", f);
        qr_xml_start(x, "c:strCache");
        str_pts(x, &name, 1);
        qr_xml_end(x);
        qr_xml_end(x);
    } else {
        qr_xml_elem_text(x, "c:v", name);
    }
    qr_xml_end(x);
}

static void marker(qr_xml *x, uint32_t color, int size)
{
    qr_xml_start(x, "c:marker");
    val(x, "c:symbol", "circle");
    ival(x, "c:size", size);
    qr_xml_start(x, "c:spPr");
    rgb(x, color);
    qr_xml_start(x, "a:ln");
    rgb(x, color);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void show(qr_xml *x)
{
    val(x, "c:showLegendKey", "0");
    val(x, "c:showVal", "1");
    val(x, "c:showCatName", "0");
    val(x, "c:showSerName", "0");
    val(x, "c:showPercent", "0");
    val(x, "c:showBubbleSize", "0");
}

/* A series' own data labels where they sit on its fill (a stacked bar's
 * segments, pie slices): the text in white or black by contrast with the
 * fill, as quire draws them (spec/chart.c). Else the chart's dLbls hold. */
static void ser_dlbls(cw *w, size_t i)
{
    qr_xml *x = w->x;
    const qr_chart *ch = w->ch;
    int stacked_bar = ch->stacked && (ch->type == QR_CHART_BAR || ch->type == QR_CHART_COLUMN);
    if (!ch->labels || !(stacked_bar || is_pie(ch))) return;
    qr_xml_start(x, "c:dLbls");
    for (size_t p = 0; is_pie(ch) && p < ch->n_points; p++) {
        qr_xml_start(x, "c:dLbl");
        ival(x, "c:idx", (long long)p);
        if (ch->number_format)
            qr_xml_leaf(x, "c:numFmt", "formatCode", ch->number_format, "sourceLinked", "0", NULL);
        txpr(x, QR_CHART_TEXT_PT, 0, qr_style_ink_on(qr_chart_palette(p, &w->ink)));
        if (ch->type == QR_CHART_PIE) val(x, "c:dLblPos", "ctr");
        show(x);
        qr_xml_end(x);
    }
    if (ch->number_format)
        qr_xml_leaf(x, "c:numFmt", "formatCode", ch->number_format, "sourceLinked", "0", NULL);
    txpr(x, QR_CHART_TEXT_PT, 0,
         is_pie(ch) ? w->ink.chart_text : qr_style_ink_on(qr_chart_series_color(ch, i, &w->ink)));
    if (stacked_bar) val(x, "c:dLblPos", "ctr");
    show(x);
    if (is_pie(ch)) val(x, "c:showLeaderLines", "1");
    qr_xml_end(x);
}

static void dlbls(cw *w)
{
    qr_xml *x = w->x;
    const qr_chart *ch = w->ch;
    if (!ch->labels) return;
    qr_xml_start(x, "c:dLbls");
    if (ch->number_format)
        qr_xml_leaf(x, "c:numFmt", "formatCode", ch->number_format, "sourceLinked", "0", NULL);
    txpr(x, QR_CHART_TEXT_PT, 0, w->ink.chart_text);
    val(x, "c:showLegendKey", "0");
    val(x, "c:showVal", "1");
    val(x, "c:showCatName", "0");
    val(x, "c:showSerName", "0");
    val(x, "c:showPercent", "0");
    val(x, "c:showBubbleSize", "0");
    if (is_pie(ch)) val(x, "c:showLeaderLines", "1");
    qr_xml_end(x);
}

static void ser(cw *w, size_t i)
{
    qr_xml *x = w->x;
    const qr_chart *ch = w->ch;
    const qr_series *s = &ch->series[i];
    qr_xml_start(x, "c:ser");
    ival(x, "c:idx", (long long)i);
    ival(x, "c:order", (long long)i);
    series_name(w, s, i);
    if (!is_pie(ch)) {
        qr_xml_start(x, "c:spPr");
        if (ch->type == QR_CHART_LINE || scatter(ch)) {
            qr_xml_start(x, "a:ln");
            qr_xml_attr(x, "w", "28575");
            if (scatter(ch))
                qr_xml_leaf(x, "a:noFill", NULL);
            else
                rgb(x, qr_chart_series_color(ch, i, &w->ink));
            qr_xml_end(x);
        } else {
            rgb(x, qr_chart_series_color(ch, i, &w->ink));
        }
        qr_xml_end(x);
    }
    if (ch->type == QR_CHART_BAR || ch->type == QR_CHART_COLUMN) val(x, "c:invertIfNegative", "0");
    if (ch->type == QR_CHART_LINE || scatter(ch))
        marker(x, qr_chart_series_color(ch, i, &w->ink), scatter(ch) ? 6 : 5);
    if (is_pie(ch))
        for (size_t p = 0; p < ch->n_points; p++) {
            qr_xml_start(x, "c:dPt");
            ival(x, "c:idx", (long long)p);
            val(x, "c:bubble3D", "0");
            qr_xml_start(x, "c:spPr");
            rgb(x, qr_chart_palette(p, &w->ink));
            qr_xml_start(x, "a:ln");
            rgb(x, 0xFFFFFF);
            qr_xml_end(x);
            qr_xml_end(x);
            qr_xml_end(x);
        }
    ser_dlbls(w, i);
    if (scatter(ch)) {
        numbers(w, "c:xVal", s->x, s->n, s->x_ref, (uint32_t)(2 * i));
        numbers(w, "c:yVal", s->values, s->n, s->values_ref, value_col(ch, i));
        val(x, "c:smooth", "0");
    } else {
        cats(w);
        numbers(w, "c:val", s->values, s->n, s->values_ref, value_col(ch, i));
        if (ch->type == QR_CHART_LINE) val(x, "c:smooth", "0");
    }
    qr_xml_end(x);
}

#define CAT_AX 500000001
#define VAL_AX 500000002

static void axis(cw *w, int cat, long long id, long long cross, const char *pos, const char *ttl,
                 int gridlines)
{
    qr_xml *x = w->x;
    const qr_chart *ch = w->ch;
    qr_xml_start(x, cat ? "c:catAx" : "c:valAx");
    ival(x, "c:axId", id);
    qr_xml_start(x, "c:scaling");
    val(x, "c:orientation", "minMax");
    qr_xml_end(x);
    val(x, "c:delete", "0");
    val(x, "c:axPos", pos);
    if (gridlines) {
        qr_xml_start(x, "c:majorGridlines");
        qr_xml_start(x, "c:spPr");
        qr_xml_start(x, "a:ln");
        rgb(x, w->ink.chart_grid);
        qr_xml_end(x);
        qr_xml_end(x);
        qr_xml_end(x);
    }
    if (ttl) title(x, ttl, QR_CHART_TEXT_PT, w->ink.chart_text);
    if (!cat) {
        const char *f = ch->percent && id == VAL_AX ? "0%" : ch->number_format;
        if (f) qr_xml_leaf(x, "c:numFmt", "formatCode", f, "sourceLinked", "0", NULL);
    }
    val(x, "c:majorTickMark", cat ? "none" : "out");
    val(x, "c:minorTickMark", "none");
    val(x, "c:tickLblPos", "low");
    qr_xml_start(x, "c:spPr");
    qr_xml_start(x, "a:ln");
    rgb(x, w->ink.chart_axis);
    qr_xml_end(x);
    qr_xml_end(x);
    txpr(x, QR_CHART_TEXT_PT, 0, w->ink.chart_text);
    ival(x, "c:crossAx", cross);
    val(x, "c:crosses", "autoZero");
    if (cat) {
        val(x, "c:auto", "1");
        val(x, "c:lblAlgn", "ctr");
        ival(x, "c:lblOffset", 100);
        val(x, "c:noMultiLvlLbl", "0");
    } else {
        val(x, "c:crossBetween", scatter(ch) ? "midCat" : "between");
    }
    qr_xml_end(x);
}

static const char *grouping(const qr_chart *ch, const char *plain)
{
    return ch->percent ? "percentStacked" : ch->stacked ? "stacked" : plain;
}

static void plot_area(cw *w)
{
    qr_xml *x = w->x;
    const qr_chart *ch = w->ch;
    qr_xml_start(x, "c:plotArea");
    qr_xml_leaf(x, "c:layout", NULL);
    static const char *const groups[] = {"c:barChart",    "c:barChart", "c:lineChart",
                                         "c:areaChart",   "c:pieChart", "c:doughnutChart",
                                         "c:scatterChart"};
    qr_xml_start(x, groups[ch->type]);
    switch (ch->type) {
    case QR_CHART_BAR:
    case QR_CHART_COLUMN:
        val(x, "c:barDir", ch->type == QR_CHART_BAR ? "bar" : "col");
        val(x, "c:grouping", grouping(ch, "clustered"));
        break;
    case QR_CHART_LINE:
        val(x, "c:grouping", "standard");
        break;
    case QR_CHART_AREA:
        val(x, "c:grouping", grouping(ch, "standard"));
        break;
    case QR_CHART_SCATTER:
        val(x, "c:scatterStyle", "lineMarker");
        break;
    case QR_CHART_PIE:
    case QR_CHART_DOUGHNUT:
        break;
    }
    val(x, "c:varyColors", is_pie(ch) ? "1" : "0");
    for (size_t i = 0; i < ch->n_series; i++)
        ser(w, i);
    dlbls(w);
    switch (ch->type) {
    case QR_CHART_BAR:
    case QR_CHART_COLUMN:
        ival(x, "c:gapWidth", ch->stacked ? 60 : 80);
        if (ch->stacked) ival(x, "c:overlap", 100);
        break;
    case QR_CHART_LINE:
        val(x, "c:marker", "1");
        break;
    case QR_CHART_PIE:
        ival(x, "c:firstSliceAng", 0);
        break;
    case QR_CHART_DOUGHNUT:
        ival(x, "c:firstSliceAng", 0);
        ival(x, "c:holeSize", 50);
        break;
    case QR_CHART_AREA:
    case QR_CHART_SCATTER:
        break;
    }
    if (!is_pie(ch)) {
        ival(x, "c:axId", CAT_AX);
        ival(x, "c:axId", VAL_AX);
    }
    qr_xml_end(x);
    if (scatter(ch)) {
        axis(w, 0, CAT_AX, VAL_AX, "b", ch->x_title, 0);
        axis(w, 0, VAL_AX, CAT_AX, "l", ch->y_title, 1);
    } else if (!is_pie(ch)) {
        int bar = ch->type == QR_CHART_BAR;
        axis(w, 1, CAT_AX, VAL_AX, bar ? "l" : "b", ch->x_title, 0);
        axis(w, 0, VAL_AX, CAT_AX, bar ? "b" : "l", ch->y_title, 1);
    }
    qr_xml_end(x);
}

qr_status qr_ooxml_chart_xml(const qr_chart *ch, int embedded, const qr_style *st, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    cw w = {x, ch, embedded, st ? *st : qr_style_get(QR_THEME_PLAIN, 0)};
    qr_xml_decl(x);
    qr_xml_start(x, "c:chartSpace");
    qr_xml_attr(x, "xmlns:c", QR_NS_C);
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_xml_attr(x, "xmlns:r", QR_NS_REL);
    val(x, "c:date1904", "0");
    val(x, "c:roundedCorners", "0");
    qr_xml_start(x, "c:chart");
    if (ch->title) title(x, ch->title, QR_CHART_TITLE_PT, w.ink.chart_title);
    val(x, "c:autoTitleDeleted", ch->title ? "0" : "1");
    plot_area(&w);
    if (ch->legend != QR_LEGEND_NONE) {
        static const char *const pos[] = {"b", "r", "t", "l"};
        qr_xml_start(x, "c:legend");
        val(x, "c:legendPos", pos[ch->legend]);
        val(x, "c:overlay", "0");
        txpr(x, QR_CHART_TEXT_PT, 0, w.ink.chart_text);
        qr_xml_end(x);
    }
    val(x, "c:plotVisOnly", "1");
    val(x, "c:dispBlanksAs", "gap");
    qr_xml_end(x); /* c:chart */
    /* the chart area on the theme's ground, and its text in the theme's ink */
    qr_xml_start(x, "c:spPr");
    rgb(x, w.ink.background);
    qr_xml_start(x, "a:ln");
    qr_xml_leaf(x, "a:noFill", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    txpr(x, QR_CHART_TEXT_PT, 0, w.ink.chart_text);
    if (embedded) {
        qr_xml_start(x, "c:externalData");
        qr_xml_attr(x, "r:id", "rId1");
        val(x, "c:autoUpdate", "0");
        qr_xml_end(x);
    }
    qr_xml_end(x);
    return qr_xml_free(x);
}

/* ---- the embedded workbook --------------------------------------------------------- */

qr_status qr_ooxml_chart_workbook(const qr_chart *ch, long long epoch, qr_buf *out)
{
    qr_doc doc;
    memset(&doc, 0, sizeof doc);
    doc.kind = QR_KIND_SPREADSHEET;
    qr_arena *a = &doc.arena;
    size_t cols = scatter(ch) ? 2 * ch->n_series : ch->n_series + 1;
    size_t rows = ch->n_points + 1;
    qr_sheet *sh = qr_arena_alloc(a, sizeof *sh);
    qr_row *rs = qr_arena_array(a, rows, sizeof *rs);
    const char *fmts[2] = {"General", ch->number_format};
    qr_status st = QR_OK;
    if (!sh || !rs) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    sh->name = "Sheet1";
    sh->path = ch->path;
    sh->rows = rs;
    sh->n_rows = rows;
    sh->n_cols = cols;
    uint16_t fmt = ch->number_format ? 1 : 0;
    for (size_t r = 0; r < rows; r++) {
        qr_cell *cs = qr_arena_array(a, cols, sizeof *cs);
        if (!cs) {
            st = qr_fail(QR_E_NOMEM);
            goto done;
        }
        rs[r].cells = cs;
        rs[r].n = (uint32_t)cols;
        for (size_t s = 0; s < ch->n_series; s++) {
            const qr_series *se = &ch->series[s];
            qr_cell *y = &cs[value_col(ch, s)];
            if (r == 0) {
                char deflt[32];
                snprintf(deflt, sizeof deflt, "Series %zu", s + 1);
                const char *n = se->name && *se->name ? se->name : qr_arena_strdup(a, deflt);
                if (!n) {
                    st = qr_fail(QR_E_NOMEM);
                    goto done;
                }
                y->type = QR_CELL_TEXT, y->v.str = n, y->len = (uint32_t)strlen(n);
                if (scatter(ch)) {
                    cs[2 * s].type = QR_CELL_TEXT;
                    cs[2 * s].v.str = "X";
                    cs[2 * s].len = 1;
                }
                continue;
            }
            if (r > se->n) continue; /* a shorter scatter series */
            y->type = QR_CELL_NUMBER, y->v.num = se->values[r - 1], y->fmt = fmt;
            if (scatter(ch)) cs[2 * s].type = QR_CELL_NUMBER, cs[2 * s].v.num = se->x[r - 1];
        }
        if (!scatter(ch) && r > 0) {
            const char *t = ch->categories[r - 1];
            cs[0].type = QR_CELL_TEXT, cs[0].v.str = t, cs[0].len = (uint32_t)strlen(t);
        }
    }
    doc.sheets = sh;
    doc.n_sheets = 1;
    doc.formats = fmts;
    doc.n_formats = ch->number_format ? 2 : 1;
    qr_errlist warnings = {0}, errors = {0};
    qr_render_ctx rc = {.doc = &doc, .warnings = &warnings, .errors = &errors, .epoch = epoch};
    qr_sink sink;
    qr_sink_init_buf(&sink, out);
    st = qr_backend_xlsx.render(&rc, &sink);
    qr_errlist_clear(&warnings);
    qr_errlist_clear(&errors);
done:
    qr_arena_free(a);
    return st;
}

/* ---- parts ---------------------------------------------------------------------- */

static qr_status add_xml(qr_package *pkg, const char *name, const char *ct, qr_buf *b)
{
    if (b->oom) {
        qr_buf_free(b);
        return qr_fail(QR_E_NOMEM);
    }
    size_t len;
    char *data = qr_buf_steal(b, &len);
    return qr_package_add_part(pkg, name, ct, data, len);
}

qr_status qr_ooxml_add_chart(qr_package *pkg, const qr_chart *ch, const char *root, size_t n,
                             int embed, long long epoch, const qr_style *style)
{
    char name[128], target[128], ename[128];
    snprintf(name, sizeof name, "%s/charts/chart%zu.xml", root, n);
    qr_buf b = {0};
    qr_status st = qr_ooxml_chart_xml(ch, embed, style, &b);
    if (st != QR_OK) {
        qr_buf_free(&b);
        return st;
    }
    if ((st = add_xml(pkg, name, QR_CT_CHART, &b)) != QR_OK) return st;
    if (!embed) return QR_OK;
    snprintf(ename, sizeof ename, "%s/embeddings/Microsoft_Excel_Worksheet%zu.xlsx", root, n);
    snprintf(target, sizeof target, "../embeddings/Microsoft_Excel_Worksheet%zu.xlsx", n);
    if (!qr_package_rel(pkg, name, QR_REL_PACKAGE, target, 0)) return qr_fail(QR_E_NOMEM);
    qr_buf wb = {0};
    st = qr_ooxml_chart_workbook(ch, epoch, &wb);
    if (st != QR_OK) {
        qr_buf_free(&wb);
        return st;
    }
    if (wb.oom) {
        qr_buf_free(&wb);
        return qr_fail(QR_E_NOMEM);
    }
    size_t len;
    char *data = qr_buf_steal(&wb, &len);
    return qr_package_add_stored(pkg, ename, QR_CT_XLSX_PACKAGE, data, len);
}

void qr_ooxml_chart_graphic(qr_xml *x, const char *rid)
{
    qr_xml_start(x, "a:graphic");
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_xml_start(x, "a:graphicData");
    qr_xml_attr(x, "uri", QR_NS_C);
    qr_xml_start(x, "c:chart");
    qr_xml_attr(x, "xmlns:c", QR_NS_C);
    qr_xml_attr(x, "xmlns:r", QR_NS_REL);
    qr_xml_attr(x, "r:id", rid);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
}
