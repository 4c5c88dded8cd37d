/* sheet_report.c: a spreadsheet's layout report items (page_report.h):
 * values wider than their columns that do not show whole (text clipped by
 * a filled neighbour, numbers as "###") and words of wrapped cells wider
 * than their column. Widths are the ones the .xlsx declares and the sheet
 * preview draws (sheet_fit.h), values measured as the autofit measures
 * them (digit widths of the default font, bold 10 % wider), numbers and
 * dates as their format shows them (cellfmt.h). Text spills as Excel
 * spills it: left-aligned to the right, right-aligned to the left, centred
 * both ways, over empty cells only (past the last used column, freely). */
#include "page_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cellfmt.h"
#include "report.h"
#include "sheet_fit.h"
#include "slide_layout.h"
#include "utf8.h"

#define BOLD 1.1
#define INDENT 1.2 /* digit widths per indent level (Excel: three spaces, about 7.5 pt) */
#define SPILL_FREE 1e9

typedef struct col_rep {
    size_t cut_n, word_n;   /* cells clipped (or ###), cells with a broken word */
    size_t cut_r, word_r;   /* the first of each */
    double cut_w, cut_room; /* its width and room, digit widths */
    int cut_num;            /* a number shown as ### */
    double word_w;
    const char *word_at;
    size_t word_len;
} col_rep;

/* Does a merged range (other than the one at r, c itself) cover (r, c)? */
static int merged(const qr_sheet *sh, size_t r, size_t c)
{
    for (size_t m = 0; m < sh->n_merges; m++) {
        const qr_range *g = &sh->merges[m];
        if (r >= g->r0 && r <= g->r1 && c >= g->c0 && c <= g->c1) return 1;
    }
    return 0;
}

static int empty_at(const qr_sheet *sh, size_t r, size_t c)
{
    const qr_row *row = &sh->rows[r];
    if (c < row->n) {
        const qr_cell *x = &row->cells[c];
        if (!(x->type == QR_CELL_EMPTY || (x->type == QR_CELL_TEXT && x->len == 0))) return 0;
    }
    return !merged(sh, r, c);
}

/* Room to the right of column c (exclusive) over empty cells. */
static double room_right(const qr_sheet *sh, const double *w, size_t nc, size_t r, size_t c)
{
    double room = 0;
    for (size_t k = c + 1;; k++) {
        if (k >= nc) return SPILL_FREE;
        if (!empty_at(sh, r, k)) return room;
        room += w[k];
    }
}

static double room_left(const qr_sheet *sh, const double *w, size_t r, size_t c)
{
    double room = 0;
    for (size_t k = c; k-- > 0;) {
        if (!empty_at(sh, r, k)) return room;
        room += w[k];
    }
    return room;
}

/* The widest word (between spaces and line breaks) of s, digit widths. */
static double widest_word(const char *s, size_t n, const char **at, size_t *len)
{
    double best = 0;
    size_t start = 0;
    *at = NULL;
    *len = 0;
    for (size_t i = 0; i <= n;) {
        uint32_t cp = ' ';
        size_t k = 1;
        if (i < n) {
            k = qr_utf8_decode((const unsigned char *)s + i, n - i, &cp);
            if (!k) k = 1, cp = 0xFFFD;
        }
        if (cp == ' ' || cp == '\n' || cp == '\t' || cp == '\r') {
            double w = qr_sheet_text_width(s + start, i - start);
            if (w > best) {
                best = w;
                *at = s + start;
                *len = i - start;
            }
            start = i + k;
        }
        i += k;
    }
    return best;
}

/* "12.3" of a width in digit widths */
static void tenths(double v, char *buf, size_t cap)
{
    long t = v < 1e8 ? (long)(v * 10.0 + 0.5) : 999999999L;
    snprintf(buf, cap, "%ld.%ld", t / 10, t % 10);
}

static void cell_path(const qr_sheet *sh, size_t r, size_t c, char *buf, size_t cap)
{
    const char *sp = sh->path ? sh->path : "";
    if (sh->columns_row && r == 0)
        snprintf(buf, cap, "%s/columns/%zu", sp, c);
    else
        snprintf(buf, cap, "%s/rows/%zu/%zu", sp, r - (sh->columns_row ? 1 : 0), c);
}

/* One cell: what it shows, measured against its room. */
static void check_cell(const qr_doc *doc, const qr_sheet *sh, const double *w, size_t nc, size_t r,
                       size_t c, col_rep *rep)
{
    const qr_row *row = &sh->rows[r];
    const qr_cell *cell = &row->cells[c];
    if (cell->type == QR_CELL_EMPTY) return;
    /* what it shows: text, or a number, a date or a boolean as formatted */
    int type = cell->type, error = 0;
    double num = cell->v.num;
    const char *s = NULL;
    size_t n = 0;
    if (type == QR_CELL_FORMULA) {
        const qr_formula *f = cell->v.formula;
        if (!f || !f->has_value) return;
        type = f->value_type;
        num = f->num;
        error = f->is_error;
        if (type == QR_CELL_TEXT) s = f->str ? f->str : "", n = strlen(s);
    } else if (type == QR_CELL_TEXT) {
        s = cell->v.str;
        n = cell->len;
    }
    if (type == QR_CELL_TEXT && !n) return;
    /* a cheap bound first: nothing wider than 2.2 digits a byte */
    double avail = w[c];
    if (type == QR_CELL_TEXT && !memchr(s, '\n', n) && (double)n * 2.0 * BOLD <= avail - 18.0)
        return;
    qr_cellstyle none = {0};
    none.bold = sh->header && r == 0;
    qr_cellstyle cs = doc->n_looks > 1 ? qr_sheet_cell_style(doc, sh, r, row, c, cell) : none;
    double k = cs.bold ? BOLD : 1.0;
    avail -= cs.indent * INDENT;
    /* the top-left cell of a merged range: the range's width, no spill */
    int in_merge = 0;
    for (size_t m = 0; m < sh->n_merges; m++) {
        const qr_range *g = &sh->merges[m];
        if (g->r0 == r && g->c0 == c) {
            in_merge = 1;
            for (size_t j = c + 1; j <= g->c1 && j < nc; j++)
                avail += w[j];
            break;
        }
    }
    if (type != QR_CELL_TEXT) {
        char buf[256];
        size_t len;
        if (type == QR_CELL_BOOL) {
            len = num != 0 ? 4 : 5;
            memcpy(buf, num != 0 ? "TRUE" : "FALSE", len);
        } else {
            unsigned fi = cell->fmt ? cell->fmt : (cs.set & QR_SX_FORMAT) ? cs.fmt : 0;
            const char *fmt = fi && fi < doc->n_formats ? doc->formats[fi] : NULL;
            if (fmt && strcmp(fmt, "@") == 0) fmt = NULL;
            len = qr_cellfmt_number(fmt, num, buf, sizeof buf);
        }
        double tw = qr_sheet_text_width(buf, len) * k;
        if (tw <= avail + 0.01) return;
        if (!rep->cut_n++) {
            rep->cut_r = r;
            rep->cut_w = tw;
            rep->cut_room = avail;
            rep->cut_num = 1;
        }
        return;
    }
    int wrap = cs.wrap || memchr(s, '\n', n) != NULL;
    if (wrap) {
        const char *at;
        size_t len;
        double ww = widest_word(s, n, &at, &len) * k;
        if (ww <= avail + 0.01 || !at) return;
        if (!rep->word_n++) {
            rep->word_r = r;
            rep->word_w = ww;
            rep->word_at = at;
            rep->word_len = len;
        }
        return;
    }
    double tw = qr_sheet_text_width(s, n) * k;
    if (tw <= avail + 0.01) return;
    double room = avail;
    int align = error ? QR_HA_CENTER : cs.align;
    if (!in_merge) {
        if (align == QR_HA_RIGHT)
            room += room_left(sh, w, r, c);
        else if (align == QR_HA_CENTER) {
            double over = (tw - avail) / 2, l = room_left(sh, w, r, c),
                   rt = room_right(sh, w, nc, r, c);
            room += (l < over ? l : over) + (rt < over ? rt : over);
        } else
            room += room_right(sh, w, nc, r, c);
    }
    if (tw <= room + 0.01) return;
    if (!rep->cut_n++) {
        rep->cut_r = r;
        rep->cut_w = tw;
        rep->cut_room = room;
        rep->cut_num = 0;
    }
}

static void report_col(const qr_sheet *sh, size_t c, const double *w, const col_rep *rep,
                       qr_layout_list *l)
{
    char path[256], a1[16], col[16], more[96], tw[24], room[24], cw[24];
    size_t cl = 0;
    qr_chart_a1(0, (uint32_t)c, 0, col);
    while (col[cl] && !(col[cl] >= '0' && col[cl] <= '9'))
        cl++;
    col[cl] = '\0';
    tenths(w[c], cw, sizeof cw);
    if (rep->cut_n) {
        cell_path(sh, rep->cut_r, c, path, sizeof path);
        qr_chart_a1((uint32_t)rep->cut_r, (uint32_t)c, 0, a1);
        tenths(rep->cut_w, tw, sizeof tw);
        tenths(rep->cut_room, room, sizeof room);
        more[0] = '\0';
        if (rep->cut_n > 1)
            snprintf(more, sizeof more, "; %zu more cells of column %s do not show whole",
                     rep->cut_n - 1, col);
        double f = rep->cut_room > 0 ? rep->cut_w / rep->cut_room : 1e6;
        if (rep->cut_num)
            qr_layout_addf(l, QR_LAYOUT_TABLE_CUT, path, 0, 0, f,
                           "%s shows ### in %s: the value is %s characters wide, column %s %s%s",
                           a1, sh->name ? sh->name : "its sheet", tw, col, cw, more);
        else
            qr_layout_addf(l, QR_LAYOUT_TABLE_CUT, path, 0, 0, f,
                           "%s of %s is cut off: its text is %s characters wide, with %s to "
                           "show it (column %s is %s, the cell beside it filled)%s",
                           a1, sh->name ? sh->name : "its sheet", tw, room, col, cw, more);
    }
    if (rep->word_n) {
        cell_path(sh, rep->word_r, c, path, sizeof path);
        qr_chart_a1((uint32_t)rep->word_r, (uint32_t)c, 0, a1);
        more[0] = '\0';
        if (rep->word_n > 1)
            snprintf(more, sizeof more, "; %zu more cells of column %s", rep->word_n - 1, col);
        double f = w[c] > 0 ? rep->word_w / w[c] : 1e6;
        int h = f < 1e6 ? (int)(f * 100.0 + 0.5) : 99999999;
        size_t shown = qr_slide_clip_utf8(rep->word_at, rep->word_len, 40);
        qr_layout_addf(l, QR_LAYOUT_WORD_BROKEN, path, 0, 0, f,
                       "\"%.*s%s\" in %s is %d.%02d times as wide as column %s (%s) and breaks "
                       "across lines%s",
                       (int)shown, rep->word_at, shown < rep->word_len ? "..." : "", a1, h / 100,
                       h % 100, col, cw, more);
    }
}

void qr_sheet_report(const qr_doc *doc, qr_sheet_fits *fits, qr_layout_list *l)
{
    if (!doc || !l || doc->kind != QR_KIND_SPREADSHEET) return;
    for (size_t si = 0; si < doc->n_sheets; si++) {
        const qr_sheet *sh = &doc->sheets[si];
        size_t nc = sh->n_cols, have = sh->streamed ? sh->n_held : sh->n_rows;
        if (!nc || !sh->rows || !have) continue;
        double *w = malloc(nc * sizeof *w);
        col_rep *rep = calloc(nc, sizeof *rep);
        if (!w || !rep) {
            free(w);
            free(rep);
            l->oom = 1;
            return;
        }
        qr_sheet_col_widths(fits, sh, doc->formats, doc->n_formats, w, nc); /* the writer's */
        for (size_t r = 0; r < have; r++) {
            const qr_row *row = &sh->rows[r];
            if (row->hidden) continue;
            for (size_t c = 0; c < row->n && c < nc; c++) {
                if (c < sh->n_col_flags && (sh->col_flags[c] & QR_COL_HIDDEN)) continue;
                check_cell(doc, sh, w, nc, r, c, &rep[c]);
            }
        }
        for (size_t c = 0; c < nc; c++)
            if (rep[c].cut_n || rep[c].word_n) report_col(sh, c, w, &rep[c], l);
        free(rep);
        free(w);
    }
}
