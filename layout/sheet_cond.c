/* sheet_cond.c: conditional formats computed for the previews (see
 * sheet_cond.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sheet_cond.h"

int qr_cf_number(const qr_cell *cell, double *v)
{
    if (!cell) return 0;
    switch (cell->type) {
    case QR_CELL_NUMBER:
    case QR_CELL_DATE:
        *v = cell->v.num;
        return 1;
    case QR_CELL_FORMULA: {
        const qr_formula *f = cell->v.formula;
        if (!f || !f->has_value || f->is_error || f->value_type != QR_CELL_NUMBER) return 0;
        *v = f->num;
        return 1;
    }
    default:
        return 0;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Excel's PERCENTILE.INC of sorted v[0..n-1] at p. */
static double percentile(const double *v, size_t n, double p)
{
    double k = p * (double)(n - 1);
    size_t i = (size_t)floor(k);
    if (i + 1 >= n) return v[n - 1];
    return v[i] + (k - (double)i) * (v[i + 1] - v[i]);
}

qr_cf_scale *qr_cf_scales(const qr_sheet *sh)
{
    if (!sh->n_conds) return NULL;
    qr_cf_scale *sc = calloc(sh->n_conds, sizeof *sc);
    if (!sc) return NULL;
    for (size_t i = 0; i < sh->n_conds; i++) {
        const qr_cond *cf = &sh->conds[i];
        if (cf->rule != QR_CF_SCALE && cf->rule != QR_CF_BAR) continue;
        size_t cap = 0, n = 0;
        double *v = NULL;
        for (size_t r = cf->range.r0; r <= cf->range.r1 && r < sh->n_rows; r++) {
            const qr_row *row = &sh->rows[r];
            for (size_t c = cf->range.c0; c <= cf->range.c1 && c < row->n; c++) {
                double x;
                if (!qr_cf_number(&row->cells[c], &x)) continue;
                if (n == cap) {
                    size_t nc = cap ? cap * 2 : 64;
                    double *g = realloc(v, nc * sizeof *v);
                    if (!g) {
                        free(v);
                        free(sc);
                        return NULL;
                    }
                    v = g, cap = nc;
                }
                v[n++] = x;
            }
        }
        if (n) {
            qsort(v, n, sizeof *v, cmp_double);
            sc[i] = (qr_cf_scale){v[0], percentile(v, n, 0.5), v[n - 1], 1};
        }
        free(v);
    }
    return sc;
}

static uint32_t mix(uint32_t a, uint32_t b, double t)
{
    uint32_t out = 0;
    for (int s = 16; s >= 0; s -= 8) {
        double x = (double)(a >> s & 0xFF), y = (double)(b >> s & 0xFF);
        out |= (uint32_t)lround(x + (y - x) * t) << s;
    }
    return out;
}

/* Whether a cell rule holds for cell. */
static int cell_holds(const qr_cond *cf, const qr_cell *cell)
{
    if (cf->text) {
        int eq = 0;
        if (cell && cell->type == QR_CELL_TEXT)
            eq =
                strlen(cf->text) == cell->len && strncasecmp(cf->text, cell->v.str, cell->len) == 0;
        else if (cell && cell->type == QR_CELL_FORMULA && cell->v.formula->has_value &&
                 cell->v.formula->value_type == QR_CELL_TEXT && cell->v.formula->str)
            eq = strcasecmp(cf->text, cell->v.formula->str) == 0;
        return cf->op == QR_CF_EQ ? eq : !eq;
    }
    double x = 0;
    if (!qr_cf_number(cell, &x)) {
        /* an empty cell is 0 to Excel; a text is never a number */
        if (cell && cell->type != QR_CELL_EMPTY) return 0;
        x = 0;
    }
    switch (cf->op) {
    case QR_CF_LT:
        return x < cf->value;
    case QR_CF_LE:
        return x <= cf->value;
    case QR_CF_GT:
        return x > cf->value;
    case QR_CF_GE:
        return x >= cf->value;
    case QR_CF_EQ:
        return x == cf->value;
    case QR_CF_NE:
        return x != cf->value;
    case QR_CF_BETWEEN:
        return x >= cf->value && x <= cf->value2;
    case QR_CF_NOT_BETWEEN:
        return x < cf->value || x > cf->value2;
    }
    return 0;
}

/* Whether a formula rule holds at (r, c). */
static int formula_holds(qr_formula_session *fs, size_t sheet, const qr_cond *cf, size_t r,
                         size_t c)
{
    if (!fs) return 0;
    qr_fresult v = qr_formula_eval_moved(fs, sheet, cf->formula, (long)r - (long)cf->range.r0,
                                         (long)c - (long)cf->range.c0);
    return (v.kind == QR_FR_BOOL || v.kind == QR_FR_NUMBER) && v.num != 0;
}

qr_cf_hit qr_cf_apply(const qr_doc *doc, size_t sheet, const qr_cf_scale *sc,
                      qr_formula_session *fs, size_t r, size_t c, const qr_cell *cell,
                      qr_cellstyle *look)
{
    const qr_sheet *sh = &doc->sheets[sheet];
    qr_cf_hit h = {-1, 0};
    int bar_done = 0, fill_done = 0;
    /* first rule first: what it sets, later ones may not change */
    qr_cellstyle over;
    memset(&over, 0, sizeof over);
    for (size_t i = 0; i < sh->n_conds; i++) {
        const qr_cond *cf = &sh->conds[i];
        if (r < cf->range.r0 || r > cf->range.r1 || c < cf->range.c0 || c > cf->range.c1) continue;
        double x;
        switch (cf->rule) {
        case QR_CF_CELL:
        case QR_CF_FORMULA:
            if (cf->look >= doc->n_looks) break;
            if (cf->rule == QR_CF_CELL ? cell_holds(cf, cell)
                                       : formula_holds(fs, sheet, cf, r, c)) {
                qr_cellstyle l = doc->looks[cf->look];
                l.set &= (uint16_t)~over.set; /* the earlier rule's properties stay */
                qr_cellstyle_merge(&over, &l);
            }
            break;
        case QR_CF_SCALE:
            if (fill_done || !sc || !sc[i].any || !qr_cf_number(cell, &x)) break;
            if (over.set & QR_SX_FILL) break;
            {
                const qr_cf_scale *s = &sc[i];
                uint32_t rgb;
                if (cf->n_colors == 3) {
                    if (x <= s->mid)
                        rgb = mix(cf->colors[0] & 0xFFFFFF, cf->colors[1] & 0xFFFFFF,
                                  s->mid > s->lo ? (x - s->lo) / (s->mid - s->lo) : 1);
                    else
                        rgb = mix(cf->colors[1] & 0xFFFFFF, cf->colors[2] & 0xFFFFFF,
                                  s->hi > s->mid ? (x - s->mid) / (s->hi - s->mid) : 1);
                } else {
                    rgb = mix(cf->colors[0] & 0xFFFFFF, cf->colors[1] & 0xFFFFFF,
                              s->hi > s->lo ? (x - s->lo) / (s->hi - s->lo) : 1);
                }
                over.fill = QR_SX_RGB | rgb;
                over.set |= QR_SX_FILL;
                fill_done = 1;
            }
            break;
        case QR_CF_BAR:
            if (bar_done || !sc || !sc[i].any || !qr_cf_number(cell, &x)) break;
            {
                double lo = sc[i].lo, hi = sc[i].hi;
                double t = hi > lo ? (x - lo) / (hi - lo) : 1;
                t = t < 0 ? 0 : t > 1 ? 1 : t;
                h.bar = 0.1 + 0.9 * t; /* Excel's shortest bar is a tenth of the cell */
                h.bar_rgb = cf->colors[0] & 0xFFFFFF;
                bar_done = 1;
            }
            break;
        }
    }
    if (over.set) qr_cellstyle_merge(look, &over);
    return h;
}
