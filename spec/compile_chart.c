/* compile_chart.c: the chart vocabulary: a document's chart block, a
 * slide's "chart" and a sheet's "charts". Checks every field (types, equal
 * lengths, finite numbers, at most QR_CHART_MAX_SERIES series of
 * QR_CHART_MAX_POINTS points) and, on sheets, resolves cell ranges like
 * "Q3!B2:B9" against the compiled sheets so every chart carries its values. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compile_int.h"
#include "schema.h"

#define XL_ROWS 1048576u
#define XL_COLS 16384u

/* "B2" or "$B$2" -> 0-based row/col; returns the characters read, 0 when bad. */
static size_t cell_ref(const char *s, uint32_t *row, uint32_t *col)
{
    size_t i = 0;
    unsigned long c = 0, r = 0;
    if (s[i] == '$') i++;
    size_t c0 = i;
    while (isalpha((unsigned char)s[i]) && i - c0 < 3)
        c = c * 26 + (unsigned long)(toupper((unsigned char)s[i++]) - 'A' + 1);
    if (i == c0 || c > XL_COLS) return 0;
    if (s[i] == '$') i++;
    size_t r0 = i;
    while (isdigit((unsigned char)s[i]) && i - r0 < 8)
        r = r * 10 + (unsigned long)(s[i++] - '0');
    if (i == r0 || s[r0] == '0' || r > XL_ROWS) return 0;
    *row = (uint32_t)(r - 1);
    *col = (uint32_t)(c - 1);
    return i;
}

/* A range "Sheet!B2:B9" or "'My sheet'!B2:B9" of one row or column,
 * naming a sheet of the workbook. Reports and returns NULL when bad. */
static qr_chart_ref *range(qr_cc *cc, const char *s)
{
    static const char hint[] = "name a range of one column or row, like \"Q3!B2:B9\"";
    char name[128];
    size_t n = 0, i = 0;
    if (s[0] == '\'') {
        for (i = 1; s[i] && n + 1 < sizeof name; i++) {
            if (s[i] == '\'' && s[i + 1] == '\'')
                name[n++] = '\'', i++;
            else if (s[i] == '\'')
                break;
            else
                name[n++] = s[i];
        }
        if (s[i] != '\'')
            i = 0, n = 0;
        else
            i++;
    } else {
        while (s[i] && s[i] != '!' && n + 1 < sizeof name)
            name[n++] = s[i++];
    }
    name[n] = '\0';
    uint32_t r0, c0, r1, c1;
    size_t k;
    if (!n || s[i] != '!' || !(k = cell_ref(s + i + 1, &r0, &c0))) goto bad;
    i += 1 + k;
    if (s[i] == ':') {
        if (!(k = cell_ref(s + i + 1, &r1, &c1))) goto bad;
        i += 1 + k;
    } else {
        r1 = r0, c1 = c0;
    }
    if (s[i]) goto bad;
    if (r1 < r0 || c1 < c0 || (r1 != r0 && c1 != c0)) {
        qr_cc_err(cc, hint, "\"%.60s\" is not a single row or column from top-left to bottom-right",
                  s);
        return NULL;
    }
    const qr_sheet *sh = NULL;
    for (size_t j = 0; j < cc->doc->n_sheets; j++)
        if (strcasecmp(cc->doc->sheets[j].name, name) == 0) sh = &cc->doc->sheets[j];
    if (!sh) {
        qr_cc_err(cc, "name a sheet of this workbook before the '!'",
                  "no sheet named \"%.60s\" in this workbook", name);
        return NULL;
    }
    qr_chart_ref *ref = qr_arena_alloc(cc->a, sizeof *ref);
    if (!ref) return qr_cc_oom(cc), NULL;
    *ref = (qr_chart_ref){sh->name, r0, c0, r1, c1};
    return ref;
bad:
    qr_cc_err(cc, hint, "\"%.60s\" is not a cell range", s);
    return NULL;
}

/* The work budget ran out (core/budget.h): one limit error for the spec. */
static void work_spent(qr_cc *cc)
{
    if (cc->work_reported) return;
    cc->work_reported = 1;
    qr_cc_limit(cc, "max_work",
                "the charts need more work than the budget: the limit max_work is %llu units",
                (unsigned long long)cc->doc->work.limit);
}

static size_t ref_len(const qr_chart_ref *r)
{
    return (size_t)(r->row1 - r->row0) + (r->col1 - r->col0) + 1;
}

static const qr_cell *ref_cell(qr_cc *cc, const qr_chart_ref *r, size_t i, uint32_t *row,
                               uint32_t *col)
{
    *row = r->row0 + (r->row1 > r->row0 ? (uint32_t)i : 0);
    *col = r->col0 + (r->col1 > r->col0 ? (uint32_t)i : 0);
    for (size_t j = 0; j < cc->doc->n_sheets; j++) {
        const qr_sheet *sh = &cc->doc->sheets[j];
        if (sh->name != r->sheet) continue;
        if (*row < sh->n_rows && *col < sh->rows[*row].n) return &sh->rows[*row].cells[*col];
    }
    return NULL;
}

/* The numbers of a range (numbers, or formulas with a cached number). */
static double *ref_numbers(qr_cc *cc, const qr_chart_ref *r)
{
    size_t n = ref_len(r);
    double *v = qr_arena_array(cc->a, n, sizeof *v);
    if (!v) return qr_cc_oom(cc), NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t row, col;
        const qr_cell *c = ref_cell(cc, r, i, &row, &col);
        int ok = 0;
        if (c && c->type == QR_CELL_NUMBER) v[i] = c->v.num, ok = 1;
        if (c && c->type == QR_CELL_FORMULA && c->v.formula->has_value &&
            c->v.formula->value_type == QR_CELL_NUMBER)
            v[i] = c->v.formula->num, ok = 1;
        if (ok && !(fabs(v[i]) <= QR_CHART_MAX_VALUE)) {
            char a1[16];
            qr_chart_a1(row, col, 0, a1);
            qr_cc_err(cc,
                      "chart values are finite numbers within +-1e300, so stacked sums and "
                      "axis ticks stay finite",
                      "cell %.60s!%s is out of a chart's range", r->sheet, a1);
            return NULL;
        }
        if (!ok) {
            char a1[16];
            qr_chart_a1(row, col, 0, a1);
            qr_cc_err(cc, "chart values must be numbers; a formula needs a cached number \"value\"",
                      "cell %.60s!%s is not a number", r->sheet, a1);
            return NULL;
        }
    }
    return v;
}

/* The texts of a category range (text as is, numbers formatted). */
static const char **ref_texts(qr_cc *cc, const qr_chart_ref *r)
{
    size_t n = ref_len(r);
    const char **t = qr_arena_array(cc->a, n, sizeof *t);
    if (!t) return qr_cc_oom(cc), NULL;
    for (size_t i = 0; i < n; i++) {
        uint32_t row, col;
        const qr_cell *c = ref_cell(cc, r, i, &row, &col);
        char num[40];
        if (c && c->type == QR_CELL_TEXT)
            t[i] = qr_cc_strndup(cc, c->v.str, c->len);
        else if (c && (c->type == QR_CELL_NUMBER || c->type == QR_CELL_DATE))
            t[i] = qr_cc_strndup(cc, num, (size_t)qr_fmt_double(c->v.num, num));
        else
            t[i] = "";
        if (!t[i]) return NULL;
    }
    return t;
}

/* An array of finite numbers at the current path (key of obj), or on a
 * sheet a range string. */
static int numbers(qr_cc *cc, json_t *obj, const char *key, int sheet, const double **out,
                   size_t *n, const qr_chart_ref **ref)
{
    json_t *v = json_object_get(obj, key);
    size_t o = qr_cc_push_key(cc, key);
    int bad = 0;
    if (sheet && json_is_string(v)) {
        const qr_chart_ref *r = range(cc, json_string_value(v));
        if (r && ref_len(r) > QR_CHART_MAX_POINTS) {
            qr_cc_err(cc, "split the data over several charts",
                      "%zu points; a series holds at most %d", ref_len(r), QR_CHART_MAX_POINTS);
            r = NULL;
        }
        /* a range costs its cells (the chart's points are charged with the chart) */
        if (r && qr_budget_take(&cc->doc->work, ref_len(r))) r = NULL, work_spent(cc);
        const double *d = r ? ref_numbers(cc, r) : NULL;
        if (d) *out = d, *n = ref_len(r), *ref = r;
        bad = !d;
    } else if (!json_is_array(v)) {
        qr_cc_err(cc,
                  sheet ? "give numbers like [1200, 980] or a range like \"Q3!B2:B9\""
                        : "give numbers like [1200, 980, 1430]",
                  "expected an array of numbers, got %s", qr_cc_type_name(v));
        bad = 1;
    } else if (json_array_size(v) > QR_CHART_MAX_POINTS) {
        qr_cc_err(cc, "split the data over several charts", "%zu points; a series holds at most %d",
                  json_array_size(v), QR_CHART_MAX_POINTS);
        bad = 1;
    } else {
        size_t k = json_array_size(v);
        double *d = qr_arena_array(cc->a, k ? k : 1, sizeof *d);
        if (!d) bad = 1, qr_cc_oom(cc);
        for (size_t i = 0; d && i < k; i++) {
            json_t *e = json_array_get(v, i);
            size_t o2 = qr_cc_push_index(cc, i);
            if (!qr_cc_number(e, &d[i]) || !isfinite(d[i]) || fabs(d[i]) > QR_CHART_MAX_VALUE) {
                qr_cc_err(cc,
                          "chart values are finite numbers within +-1e300, so stacked sums "
                          "and axis ticks stay finite",
                          "expected a finite number, got %s",
                          json_is_number(e) ? "a number out of range" : qr_cc_type_name(e));
                bad = 1;
            }
            qr_cc_pop(cc, o2);
        }
        *out = d;
        *n = k;
    }
    qr_cc_pop(cc, o);
    return bad ? -1 : 0;
}

static int color(qr_cc *cc, json_t *v, qr_series *s)
{
    const char *t = json_is_string(v) ? json_string_value(v) : "";
    if (*t == '#') t++;
    unsigned long c = 0;
    size_t i = 0;
    for (; i < 6 && isxdigit((unsigned char)t[i]); i++)
        c = c * 16 +
            (unsigned long)(isdigit((unsigned char)t[i]) ? t[i] - '0' : (t[i] | 0x20) - 'a' + 10);
    if (i != 6 || t[6]) {
        qr_cc_err_key(cc, "color", "give a colour as \"#RRGGBB\", like \"#2563EB\"",
                      "expected a colour \"#RRGGBB\"");
        return -1;
    }
    s->color = (uint32_t)c;
    s->has_color = 1;
    return 0;
}

static int series_one(qr_cc *cc, json_t *v, qr_chart *ch, int sheet, size_t index, qr_series *s)
{
    s->path = qr_cc_path(cc);
    s->name = "";
    if (!json_is_object(v)) {
        qr_cc_err(cc, "a series is {\"name\": \"2025\", \"values\": [1200, 980]}",
                  "expected a series object, got %s", qr_cc_type_name(v));
        return -1;
    }
    int unk = qr_cc_check_obj(cc, v, QR_SO_SERIES, "a chart series");
    int bad = unk > 0;
    const char *name = NULL;
    if (qr_cc_get_string(cc, v, "name", 0, &name, NULL) < 0) bad = 1;
    if (name) s->name = name;
    json_t *c = json_object_get(v, "color");
    if (c && color(cc, c, s) < 0) bad = 1;
    size_t n = 0;
    if (ch->type == QR_CHART_SCATTER) {
        if (json_object_get(v, "values"))
            qr_cc_err_key(cc, "values", "a scatter series has \"x\" and \"y\" arrays",
                          "a scatter series takes \"x\" and \"y\", not \"values\""),
                bad = 1;
        size_t nx = 0;
        if (bad) unk = 1; /* "values" was said: quiet about a missing x and y */
        if (!json_object_get(v, "x")) {
            if (!unk) qr_cc_missing(cc, "x", "add \"x\": [1, 2, 3]");
            bad = 1;
        } else if (numbers(cc, v, "x", sheet, &s->x, &nx, &s->x_ref) < 0) {
            bad = 1;
        }
        if (!json_object_get(v, "y")) {
            if (!unk) qr_cc_missing(cc, "y", "add \"y\": [4, 5, 6]");
            bad = 1;
        } else if (numbers(cc, v, "y", sheet, &s->values, &n, &s->values_ref) < 0) {
            bad = 1;
        }
        if (!bad && nx != n) {
            qr_cc_err_key(cc, "y", "give one y per x", "\"y\" has %zu values but \"x\" has %zu", n,
                          nx);
            bad = 1;
        }
    } else {
        const char *k = json_object_get(v, "x") ? "x" : json_object_get(v, "y") ? "y" : NULL;
        if (k)
            qr_cc_err_key(cc, k, "only scatter charts take \"x\" and \"y\"; use \"values\"",
                          "\"%s\" is for scatter charts", k),
                bad = 1;
        if (!json_object_get(v, "values")) {
            if (!unk) qr_cc_missing(cc, "values", "add \"values\": [1200, 980, 1430]");
            bad = 1;
        } else if (numbers(cc, v, "values", sheet, &s->values, &n, &s->values_ref) < 0) {
            bad = 1;
        }
    }
    s->n = n;
    if (!bad && n > QR_CHART_MAX_POINTS) {
        qr_cc_err(cc, "split the data over several charts", "%zu points; a series holds at most %d",
                  n, QR_CHART_MAX_POINTS);
        bad = 1;
    }
    if (!bad && n == 0) {
        qr_cc_err(cc, "give at least one value", "a series needs at least one point");
        bad = 1;
    }
    if (!bad && (ch->type == QR_CHART_PIE || ch->type == QR_CHART_DOUGHNUT))
        for (size_t i = 0; i < n; i++)
            if (s->values[i] < 0) {
                size_t o = qr_cc_push_key(cc, "values");
                size_t o2 = qr_cc_push_index(cc, i);
                qr_cc_err(cc, "pie and doughnut slices are shares: use values >= 0",
                          "a negative value in a %s chart", qr_enum_chart_types[ch->type]);
                qr_cc_pop(cc, o2);
                qr_cc_pop(cc, o);
                return -1;
            }
    return bad ? -1 : 0;
}

static int categories(qr_cc *cc, json_t *v, int sheet, qr_chart *ch)
{
    size_t o = qr_cc_push_key(cc, "categories");
    int bad = 0;
    if (ch->type == QR_CHART_SCATTER) {
        qr_cc_err(cc, "a scatter chart takes its x values from each series' \"x\"",
                  "a scatter chart has no categories");
        bad = 1;
    } else if (sheet && json_is_string(v)) {
        const qr_chart_ref *r = range(cc, json_string_value(v));
        const char **t = r ? ref_texts(cc, r) : NULL;
        if (t) ch->categories = t, ch->n_categories = ref_len(r), ch->categories_ref = r;
        bad = !t;
    } else if (!json_is_array(v)) {
        qr_cc_err(cc, "categories is an array of labels like [\"EMEA\", \"APAC\"]",
                  "expected an array of labels, got %s", qr_cc_type_name(v));
        bad = 1;
    } else if (json_array_size(v) > QR_CHART_MAX_POINTS) {
        qr_cc_err(cc, "split the data over several charts",
                  "%zu categories; a chart holds at most %d", json_array_size(v),
                  QR_CHART_MAX_POINTS);
        bad = 1;
    } else {
        size_t n = json_array_size(v);
        const char **t = qr_arena_array(cc->a, n ? n : 1, sizeof *t);
        if (!t) return qr_cc_pop(cc, o), qr_cc_oom(cc), -1;
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_array_get(v, i);
            size_t o2 = qr_cc_push_index(cc, i);
            char num[40];
            if (json_is_string(e)) {
                t[i] = qr_cc_str(cc, e, NULL);
            } else if (json_is_number(e)) {
                double d = 0;
                qr_cc_number(e, &d);
                t[i] = qr_cc_strndup(cc, num, (size_t)qr_fmt_double(d, num));
            } else {
                qr_cc_err(cc, "a category is a label string (or a number)",
                          "expected a string, got %s", qr_cc_type_name(e));
                t[i] = NULL;
            }
            if (!t[i]) bad = 1, t[i] = "";
            qr_cc_pop(cc, o2);
        }
        ch->categories = t;
        ch->n_categories = n;
    }
    qr_cc_pop(cc, o);
    return bad ? -1 : 0;
}

static int opt_string(qr_cc *cc, json_t *v, const char *key, const char **out)
{
    const char *s = NULL;
    size_t n = 0;
    int r = qr_cc_get_string(cc, v, key, 0, &s, &n);
    if (r == 1 && n) *out = s;
    return r < 0 ? -1 : 0;
}

static int size_pt(qr_cc *cc, json_t *v, const char *key, double *out)
{
    json_t *e = json_object_get(v, key);
    if (!e) return 0;
    double d;
    if (!qr_cc_number(e, &d) || !(d >= 72) || d > 2000) {
        qr_cc_err_key(cc, key, "chart sizes are in points (72 per inch), from 72 to 2000",
                      "expected a size from 72 to 2000 points");
        return -1;
    }
    *out = d;
    return 0;
}

int qr_cc_chart(qr_cc *cc, json_t *v, int where, qr_chart *ch)
{
    memset(ch, 0, sizeof *ch);
    ch->path = qr_cc_path(cc);
    ch->alt = "";
    int sheet = where == QR_CC_CHART_SHEET;
    if (++cc->n_charts == QR_CHART_MAX_CHARTS + 1)
        qr_cc_err(cc, "split the spec: render the charts in several files",
                  "more than %d charts; a spec holds at most %d", QR_CHART_MAX_CHARTS,
                  QR_CHART_MAX_CHARTS);
    if (cc->n_charts > QR_CHART_MAX_CHARTS) return -1;
    if (!json_is_object(v)) {
        qr_cc_err(cc,
                  "a chart is {\"chart\": \"column\", \"categories\": [...], \"series\": [...]}",
                  "expected a chart object, got %s", qr_cc_type_name(v));
        return -1;
    }
    int unk = qr_cc_check_obj(cc, v,
                              sheet                        ? QR_SO_SHEET_CHART
                              : where == QR_CC_CHART_SLIDE ? QR_SO_SLIDE_CHART
                                                           : QR_SO_CHART,
                              "a chart");
    int bad = unk > 0;
    if (where != QR_CC_CHART_BLOCK) {
        json_t *t = json_object_get(v, "type");
        if (t && !(json_is_string(t) && strcmp(json_string_value(t), "chart") == 0))
            qr_cc_err_key(cc, "type", "leave \"type\" out, or set it to \"chart\"",
                          "expected \"chart\""),
                bad = 1;
    }
    json_t *kind = json_object_get(v, "chart");
    int t = -1;
    if (!kind) {
        if (!unk) {
            char hint[120], list[96];
            qr_enum_list(qr_enum_chart_types, 0, ", ", list, sizeof list);
            snprintf(hint, sizeof hint, "add \"chart\": one of %s", list);
            qr_cc_missing(cc, "chart", hint);
        }
        return -1;
    }
    if (json_is_string(kind))
        for (int i = 0; qr_enum_chart_types[i]; i++)
            if (strcmp(json_string_value(kind), qr_enum_chart_types[i]) == 0) t = i;
    if (t < 0) {
        char hint[120], list[96], all[96];
        const char *s =
            json_is_string(kind) ? qr_suggest(json_string_value(kind), qr_enum_chart_types) : NULL;
        qr_enum_list(qr_enum_chart_types, 0, " or ", list, sizeof list);
        qr_enum_list(qr_enum_chart_types, 0, ", ", all, sizeof all);
        if (s)
            snprintf(hint, sizeof hint, "did you mean \"%s\"?", s);
        else
            snprintf(hint, sizeof hint, "use %s", list);
        qr_cc_err_key(cc, "chart", hint, "unknown chart type; valid types are %s", all);
        return -1;
    }
    ch->type = (qr_chart_type)t;
    bad |= opt_string(cc, v, "title", &ch->title) < 0;
    bad |= opt_string(cc, v, "x_title", &ch->x_title) < 0;
    bad |= opt_string(cc, v, "y_title", &ch->y_title) < 0;
    const char *alt = NULL;
    bad |= opt_string(cc, v, "alt", &alt) < 0;
    if (alt) ch->alt = alt;
    const char *nf = NULL;
    bad |= opt_string(cc, v, "number_format", &nf) < 0;
    if (nf && strlen(nf) > 255)
        qr_cc_err_key(cc, "number_format", "Excel formats are at most 255 characters",
                      "the number format is too long"),
            bad = 1, nf = NULL;
    ch->number_format = nf;
    int b = 0;
    bad |= qr_cc_get_bool(cc, v, "labels", &b) < 0;
    ch->labels = b;
    int stacked = 0, percent = 0;
    int hs = qr_cc_get_bool(cc, v, "stacked", &stacked);
    int hp = qr_cc_get_bool(cc, v, "percent", &percent);
    bad |= hs < 0 || hp < 0;
    int stackable = t == QR_CHART_BAR || t == QR_CHART_COLUMN || t == QR_CHART_AREA;
    if ((stacked || percent) && !stackable)
        qr_cc_err_key(cc, stacked ? "stacked" : "percent", "only bar, column and area charts stack",
                      "a %s chart cannot be stacked", qr_enum_chart_types[t]),
            bad = 1;
    ch->percent = percent && stackable;
    ch->stacked = (stacked || percent) && stackable;

    json_t *lg = json_object_get(v, "legend");
    ch->legend = QR_LEGEND_BOTTOM;
    if (lg) {
        int l = -1;
        if (json_is_false(lg)) l = QR_LEGEND_NONE;
        if (json_is_string(lg))
            for (int i = 0; qr_enum_legends[i]; i++)
                if (strcmp(json_string_value(lg), qr_enum_legends[i]) == 0) l = i;
        if (l < 0)
            qr_cc_err_key(cc, "legend", "use \"bottom\", \"right\", \"top\", \"left\" or \"none\"",
                          "unknown legend position"),
                bad = 1;
        else
            ch->legend = (qr_legend)l;
    }

    if (sheet) {
        json_t *an = json_object_get(v, "anchor");
        if (an) {
            uint32_t r = 0, c = 0;
            size_t k = json_is_string(an) ? cell_ref(json_string_value(an), &r, &c) : 0;
            if (!k || json_string_value(an)[k])
                qr_cc_err_key(cc, "anchor", "name the chart's top-left cell, like \"E2\"",
                              "expected a cell reference like \"E2\""),
                    bad = 1;
            ch->anchor_row = r, ch->anchor_col = c;
        }
        bad |= size_pt(cc, v, "width", &ch->width) < 0;
        bad |= size_pt(cc, v, "height", &ch->height) < 0;
    }

    json_t *cats = json_object_get(v, "categories");
    if (cats) bad |= categories(cc, cats, sheet, ch) < 0;

    json_t *ser = json_object_get(v, "series");
    if (!ser) {
        if (!unk)
            qr_cc_missing(cc, "series",
                          "add \"series\": [{\"name\": \"2025\", \"values\": [1, 2]}]");
        return -1;
    }
    size_t o = qr_cc_push_key(cc, "series");
    size_t n = json_is_array(ser) ? json_array_size(ser) : 0;
    if (!json_is_array(ser) || n == 0) {
        qr_cc_err(cc, "series is [{\"name\": \"2025\", \"values\": [1200, 980]}]",
                  json_is_array(ser) ? "a chart needs at least one series"
                                     : "expected an array of series");
        qr_cc_pop(cc, o);
        return -1;
    }
    if (n > QR_CHART_MAX_SERIES) {
        qr_cc_err(cc, "split the series over several charts",
                  "%zu series; a chart holds at most %d", n, QR_CHART_MAX_SERIES);
        qr_cc_pop(cc, o);
        return -1;
    }
    if (ch->type == QR_CHART_PIE && n > 1) {
        qr_cc_err(cc, "a pie shows one series: use a doughnut (rings) or a column chart",
                  "a pie chart has %zu series", n);
        bad = 1;
    }
    qr_series *ss = qr_arena_array(cc->a, n, sizeof *ss);
    if (!ss) return qr_cc_pop(cc, o), qr_cc_oom(cc), -1;
    int sbad = 0;
    for (size_t i = 0; i < n; i++) {
        size_t o2 = qr_cc_push_index(cc, i);
        sbad |= series_one(cc, json_array_get(ser, i), ch, sheet, i, &ss[i]) < 0;
        qr_cc_pop(cc, o2);
    }
    ch->series = ss;
    ch->n_series = n;
    /* literal values count against max_cells like table cells */
    size_t lit = 0;
    for (size_t i = 0; i < n; i++)
        lit += (ss[i].values_ref ? 0 : ss[i].n) + (ss[i].x && !ss[i].x_ref ? ss[i].n : 0);
    if (!qr_cc_count_cells(cc, lit)) sbad = 1;
    if (!sbad) {
        size_t want = cats ? ch->n_categories : ss[0].n;
        for (size_t i = 0; i < n; i++) {
            if (ch->type == QR_CHART_SCATTER && ss[i].n > want) want = ss[i].n;
            if (ss[i].n == want || ch->type == QR_CHART_SCATTER) continue;
            size_t o2 = qr_cc_push_index(cc, i);
            const char *k = ch->type == QR_CHART_SCATTER ? "y" : "values";
            if (cats)
                qr_cc_err_key(cc, k, "give one value per category", "%zu values but %zu categories",
                              ss[i].n, want);
            else
                qr_cc_err_key(cc, k, "give every series the same number of values",
                              "%zu values but series 0 has %zu", ss[i].n, want);
            qr_cc_pop(cc, o2);
            sbad = 1;
        }
        ch->n_points = want;
        /* each point is laid out and drawn: the work budget pays for it */
        uint64_t pts = 0;
        for (size_t i = 0; i < n; i++)
            pts += ss[i].n;
        if (qr_budget_take(&cc->doc->work, pts * QR_WORK_CHART_POINT)) work_spent(cc), sbad = 1;
    }
    qr_cc_pop(cc, o);
    if (!sbad && !cats && ch->type != QR_CHART_SCATTER) {
        /* No categories: number the points 1, 2, ... */
        const char **nums = qr_arena_array(cc->a, ch->n_points, sizeof *nums);
        if (!nums) return qr_cc_oom(cc), -1;
        for (size_t i = 0; i < ch->n_points; i++) {
            char num[24];
            int k = snprintf(num, sizeof num, "%zu", i + 1);
            nums[i] = qr_cc_strndup(cc, num, (size_t)k);
        }
        ch->categories = nums;
        ch->n_categories = ch->n_points;
    }
    return bad || sbad ? -1 : 0;
}
