/* slide_layout.c: where everything on a slide goes (slide_layout.h): the
 * placeholder boxes of the four layouts at 16:9 and 4:3, the level styles,
 * the text-height estimate behind normAutofit's fontScale, table grids and
 * picture boxes. The .pptx writer and the PDF/PNG slide painter both draw
 * from a qr_slide_plan, so they cannot disagree.
 *
 * Layout. On title_content the content area holds the bullets; with a
 * table or an image too, the bullets take the left half and the
 * table/image the right half (both visuals and no bullets: side by side;
 * both with bullets: one above the other). Pictures are scaled to fit
 * keeping their aspect ratio, centred; tables take a font size (18 pt down
 * to 8 pt) at which the estimated rows fit.
 *
 * Estimate. PowerPoint only computes fontScale after an edit, so we
 * estimate the text height ourselves: DejaVu Sans advance widths, greedy
 * word wrap, 1.2 em lines (1.45 em for scripts set in Noto's taller fonts).
 */
#include "slide_layout.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "style.h"
#include "report.h"
#include "utf8.h"

/* ---- geometry ------------------------------------------------------------------ */

void qr_slide_geom_init(qr_slide_geom *g, int wide)
{
    g->sw = wide ? 12192000 : 9144000;
    g->sh = 6858000;
    /* PowerPoint's own layouts: margins of 6.875 % of the width (0.917 in
     * on 16:9, 0.6875 in on 4:3), a title band and a content area. */
    long long m = g->sw * 6875 / 100000;
    g->title = (qr_slide_box){m, 365125, g->sw - 2 * m, 1325563};
    g->body = (qr_slide_box){m, 1825625, g->sw - 2 * m, 4351338};
    g->ctr_title = (qr_slide_box){g->sw / 8, 1122363, g->sw * 3 / 4, 2387600};
    g->subtitle = (qr_slide_box){g->sw / 8, 3602038, g->sw * 3 / 4, 1655762};
    g->sec_title = (qr_slide_box){m, 1709738, g->sw - 2 * m, 2852737};
    g->sec_body = (qr_slide_box){m, 4589463, g->sw - 2 * m, 1500187};
    /* theme decorations (style.h): a 9 pt bar across the top, and a 3 pt
     * rule of a quarter of the width centred in the gap below the title */
    g->accent_bar = (qr_slide_box){0, 0, g->sw, 114300};
    g->title_rule = (qr_slide_box){g->sw * 3 / 8, 3537000, g->sw / 4, 38100};
}

void qr_slide_notes_boxes(const qr_slide_geom *g, qr_slide_box *img, qr_slide_box *body)
{
    long long w = 5486400; /* 6 in, centred on the 7.5 in page */
    long long h = w * g->sh / g->sw;
    *img = (qr_slide_box){685800, 1143000, w, h};
    *body = (qr_slide_box){685800, 4400550, w, 3600450};
}

static const int level_sz[QR_SLIDE_LEVELS] = {2800, 2400, 2000, 1800, 1800, 1600, 1600, 1400, 1400};

int qr_slide_level_sz(int lvl)
{
    if (lvl < 0) lvl = 0;
    if (lvl >= QR_SLIDE_LEVELS) lvl = QR_SLIDE_LEVELS - 1;
    return level_sz[lvl];
}

/* 0.25 in hanging indent; each level 0.375 in deeper, so nine levels still
 * leave most of a half-width column for text. */
long long qr_slide_level_marl(int lvl)
{
    return 228600 + (long long)lvl * 342900;
}

long long qr_slide_level_indent(int lvl)
{
    (void)lvl;
    return -228600;
}

/* Bullet glyphs by level: layout/style.h's, repeating, as the PDF, docx and
 * html draw them; all are in DejaVu Sans. */
const char *qr_slide_level_char(int lvl)
{
    return qr_look_bullet(lvl);
}

/* ---- measuring text ------------------------------------------------------------- */

/* DejaVu Sans advance widths of ASCII 32..126, in 1/1000 em. */
static const unsigned short ascii_w[95] = {
    318, 401, 460, 838, 636, 950, 780,  275, 390, 390, 500, 838, 318, 361, 318, 337, /* sp..  / */
    636, 636, 636, 636, 636, 636, 636,  636, 636, 636,                               /* 0..9 */
    337, 337, 838, 838, 838, 531, 1000,                                              /* : .. @ */
    684, 686, 698, 770, 632, 575, 775,  752, 295, 295, 656, 557, 863,                /* A..M */
    748, 787, 603, 787, 695, 635, 611,  732, 684, 989, 685, 611, 685,                /* N..Z */
    390, 337, 390, 838, 500, 500,                                                    /* [ .. ` */
    613, 635, 550, 635, 615, 352, 635,  634, 278, 278, 579, 278, 974,                /* a..m */
    634, 612, 635, 635, 411, 521, 392,  634, 592, 818, 592, 592, 525,                /* n..z */
    636, 337, 636, 838,                                                              /* { .. ~ */
};

/* One code point; an invalid byte counts as U+FFFD. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len = qr_utf8_decode(s, n, cp);
    if (len) return len;
    *cp = 0xFFFD;
    return 1;
}

/* Full-width characters: CJK, kana, hangul, full-width forms, emoji. Each
 * is also a place where a line may break. */
static int is_wide(uint32_t cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
           (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
           (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) ||
           (cp >= 0x20000 && cp <= 0x3FFFD);
}

/* Combining marks and format characters: no advance of their own. */
static int is_zero_width(uint32_t cp)
{
    return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x0483 && cp <= 0x0489) ||
           (cp >= 0x0591 && cp <= 0x05BD) || (cp >= 0x05BF && cp <= 0x05C7) ||
           (cp >= 0x0610 && cp <= 0x061A) || (cp >= 0x064B && cp <= 0x065F) || cp == 0x0670 ||
           (cp >= 0x06D6 && cp <= 0x06ED) || (cp >= 0x200B && cp <= 0x200F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF;
}

/* Scripts whose fonts (Noto) have taller lines than DejaVu Sans. */
static int is_tall(uint32_t cp)
{
    return (cp >= 0x0590 && cp <= 0x0FFF) || (cp >= 0xFB1D && cp <= 0xFDFF) ||
           (cp >= 0xFE70 && cp <= 0xFEFF) || is_wide(cp);
}

/* An advance in a bold run: DejaVu Sans Bold's letters are 8 % wider. Code
 * runs keep the mono width (callers pass bold only when not mono). */
static long long bolded(long long w, int bold)
{
    return bold ? w * 108 / 100 : w;
}

static int cp_width(uint32_t cp, int mono)
{
    if (cp >= 0x20 && cp < 0x7F) return mono ? 602 : ascii_w[cp - 0x20]; /* most text */
    if (cp == '\t') return 4 * 318;
    if (cp < 0x20) return 0;
    if (is_zero_width(cp)) return 0;
    if (is_wide(cp)) return 1000;
    if (mono) return 602;
    if (cp < 0x7F) return ascii_w[cp - 0x20];
    if (cp == 0xA0) return 318;
    if ((cp >= 0x0600 && cp <= 0x08FF) || (cp >= 0xFB50 && cp <= 0xFDFF) ||
        (cp >= 0xFE70 && cp <= 0xFEFF))
        return 520;
    if (cp >= 0x0590 && cp <= 0x05FF) return 600;
    return 620;
}

long long qr_slide_text_width(const char *str, size_t len, int mono, int bold)
{
    const unsigned char *s = (const unsigned char *)str;
    long long w = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp = s[i];
        i += cp < 0x80 ? 1 : utf8_next(s + i, len - i, &cp);
        int cw = cp_width(cp, mono);
        w += bolded(cw, bold && !mono);
    }
    return w;
}

/* Greedy word wrap of a text into lines of width W (1/1000 em). */
typedef struct wrap {
    long long W, cur, word, lines;
} wrap;

static void place_word(wrap *w)
{
    if (w->word <= 0) return;
    if (w->cur > 0 && w->cur + w->word > w->W) {
        w->lines++;
        w->cur = 0;
    }
    if (w->word > w->W) { /* a word longer than the line breaks inside */
        w->lines += (w->word - 1) / w->W;
        w->word -= ((w->word - 1) / w->W) * w->W;
    }
    w->cur += w->word;
    w->word = 0;
}

long long qr_slide_text_lines(const qr_text *t, long long W, int *tall)
{
    wrap w = {W < 1000 ? 1000 : W, 0, 0, 1};
    for (size_t r = 0; r < t->n; r++) {
        const qr_run *run = &t->runs[r];
        const unsigned char *s = (const unsigned char *)run->text;
        for (size_t i = 0; i < run->len;) {
            uint32_t cp;
            i += utf8_next(s + i, run->len - i, &cp);
            if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029) {
                if (cp == '\r' && i < run->len && s[i] == '\n') i++;
                place_word(&w);
                w.lines++;
                w.cur = 0;
                continue;
            }
            if (cp > 0x20 && cp < 0x7F) { /* the common case: printable ASCII */
                int cw = run->code ? 602 : ascii_w[cp - 0x20];
                w.word += bolded(cw, run->bold && !run->code);
                continue;
            }
            int cw = (int)bolded(cp_width(cp, run->code), run->bold && !run->code);
            if (cp == ' ' || cp == '\t' || cp == 0x3000) {
                place_word(&w);
                w.cur += cw;
                continue;
            }
            if (tall && is_tall(cp)) *tall = 1;
            if (is_wide(cp)) {
                place_word(&w);
                w.word = cw;
                place_word(&w);
                continue;
            }
            w.word += cw;
        }
    }
    place_word(&w);
    return w.lines;
}

long long qr_slide_line_height(long long sz, int tall, long long ln)
{
    long long em = sz * QR_SLIDE_EMU_PER_PT / 100;
    return em * (tall ? 145 : 120) / 100 * ln / 100000;
}

/* Height in EMU of the paragraphs at a font scale and line spacing (both in
 * 1/1000 %). */
static long long paras_height(const qr_slide_est *p, size_t n, long long w, long long scale,
                              long long line)
{
    long long h = 0;
    for (size_t i = 0; i < n; i++) {
        long long sz = (long long)p[i].sz * scale / 100000; /* hundredths of a point */
        if (sz < 100) sz = 100;
        long long avail = w - p[i].marl;
        if (avail < 1) avail = 1;
        /* available width in 1/1000 em: avail EMU / (sz/100 pt * 12700 EMU/pt) * 1000 */
        long long W = avail * 100000 / (sz * QR_SLIDE_EMU_PER_PT);
        int tall = 0;
        long long lines = qr_slide_text_lines(p[i].text, W, &tall);
        h += lines * qr_slide_line_height(sz, tall, line);
        if (i > 0) h += (long long)p[i].space_before * scale / 100000 * QR_SLIDE_EMU_PER_PT / 100;
    }
    return h;
}

int qr_slide_fit(const qr_slide_est *p, size_t n, long long w, long long h, int line,
                 int *font_scale, int *ln_reduction)
{
    static const int steps[][2] = {
        {100000, 0},    {100000, 10000}, {92500, 10000}, {92500, 20000}, {85000, 20000},
        {77500, 20000}, {70000, 20000},  {62500, 20000}, {55000, 20000}, {47500, 20000},
        {40000, 20000}, {32500, 20000},  {25000, 20000},
    };
    size_t ns = sizeof steps / sizeof steps[0];
    for (size_t k = 0; k < ns; k++) {
        long long ln = line - steps[k][1];
        if (ln < 10000) ln = 10000;
        if (paras_height(p, n, w, steps[k][0], ln) <= h) {
            *font_scale = steps[k][0];
            *ln_reduction = steps[k][1];
            return 1;
        }
    }
    *font_scale = steps[ns - 1][0];
    *ln_reduction = steps[ns - 1][1];
    return 0;
}

/* ---- text shapes ------------------------------------------------------------------ */

long long qr_slide_para_marl(const qr_slide_para *p)
{
    return p->bullet == QR_SLIDE_BULLET_CHAR  ? qr_slide_level_marl(p->lvl)
           : p->bullet == QR_SLIDE_BULLET_NUM ? QR_SLIDE_NUM_MARL
                                              : 0;
}

static int shape_add(qr_slide_shape *s, size_t *cap, const qr_text *t, int lvl, int bullet,
                     int algn, int sz, int spc)
{
    if (s->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        qr_slide_para *np = realloc(s->paras, nc * sizeof *np);
        if (!np) return -1;
        s->paras = np;
        *cap = nc;
    }
    s->paras[s->n++] = (qr_slide_para){t, lvl, bullet, algn, sz, spc, 0, 0, 0};
    return 0;
}

/* Bullets, depth first: lvl = nesting depth (0..8). */
static int add_items(qr_slide_shape *s, size_t *cap, const qr_item *items, size_t n, int lvl,
                     int bullet, int algn, int fixed_sz)
{
    if (lvl >= QR_SLIDE_LEVELS) lvl = QR_SLIDE_LEVELS - 1;
    for (size_t i = 0; i < n; i++) {
        int sz = fixed_sz ? fixed_sz : qr_slide_level_sz(lvl);
        if (shape_add(s, cap, &items[i].text, bullet == QR_SLIDE_BULLET_CHAR ? lvl : 0, bullet,
                      algn, sz, lvl == 0 ? 1000 : 500))
            return -1;
        if (items[i].n_items &&
            add_items(s, cap, items[i].items, items[i].n_items, lvl + 1, bullet, algn, fixed_sz))
            return -1;
    }
    return 0;
}

/* The estimated normAutofit of a shape. */
static int shape_fit(qr_slide_shape *s)
{
    s->font_scale = 100000;
    s->ln_reduction = 0;
    s->fits = 1;
    if (!s->n) return 0;
    qr_slide_est *est = malloc(s->n * sizeof *est);
    if (!est) return -1;
    for (size_t i = 0; i < s->n; i++) {
        const qr_slide_para *p = &s->paras[i];
        est[i].text = p->text;
        est[i].sz = p->sz;
        est[i].marl = qr_slide_para_marl(p);
        est[i].space_before = p->space_before;
    }
    s->fits =
        qr_slide_fit(est, s->n, s->box.cx - 2 * QR_SLIDE_INS_LR, s->box.cy - 2 * QR_SLIDE_INS_TB,
                     s->line ? s->line : QR_SLIDE_LINE, &s->font_scale, &s->ln_reduction);
    free(est);
    return 0;
}

/* ---- tables -------------------------------------------------------------------------- */

const qr_tcell *qr_slide_table_cell(const qr_table *t, size_t r, size_t c)
{
    if (t->headers) {
        if (r == 0) return c < t->n_headers ? &t->headers[c] : NULL;
        r--;
    }
    return &t->rows[r][c];
}

/* Row heights (EMU) of the table at size sz; returns the total. */
static long long table_heights(const qr_table *t, const long long *cols, int sz, long long *rows)
{
    size_t nr = t->n_rows + (t->headers ? 1 : 0);
    long long total = 0;
    long long em = (long long)sz * QR_SLIDE_EMU_PER_PT / 100;
    for (size_t r = 0; r < nr; r++) {
        long long hmax = 0;
        for (size_t c = 0; c < t->n_cols; c++) {
            const qr_tcell *cell = qr_slide_table_cell(t, r, c);
            long long W = (cols[c] - 2 * QR_SLIDE_CELL_MAR_LR) * 100000 /
                          ((long long)sz * QR_SLIDE_EMU_PER_PT);
            int tall = 0;
            long long lines = cell ? qr_slide_text_lines(&cell->text, W, &tall) : 1;
            long long h = lines * em * (tall ? 145 : 120) / 100 + 2 * QR_SLIDE_CELL_MAR_TB;
            if (h > hmax) hmax = h;
        }
        rows[r] = hmax;
        total += hmax;
    }
    return total;
}

/* Grid widths from the table's relative widths over the area, the largest
 * font size at which the estimated rows fit the area's height. */
static int plan_table(qr_slide_grid *g, const qr_table *t, qr_slide_box area)
{
    size_t nc = t->n_cols ? t->n_cols : 1;
    size_t nr = t->n_rows + (t->headers ? 1 : 0);
    if (nr == 0) return 0; /* PowerPoint repairs an a:tbl without rows: no frame */
    g->cols = malloc(nc * sizeof *g->cols);
    g->rows = malloc(nr * sizeof *g->rows);
    if (!g->cols || !g->rows) return -1;
    long long used = 0;
    for (size_t c = 0; c < nc; c++) {
        double f = t->widths ? t->widths[c] : 1.0 / (double)nc;
        g->cols[c] = c + 1 == nc ? area.cx - used : (long long)(f * (double)area.cx + 0.5);
        if (g->cols[c] < 2 * QR_SLIDE_CELL_MAR_LR + 12700)
            g->cols[c] = 2 * QR_SLIDE_CELL_MAR_LR + 12700;
        used += g->cols[c];
    }
    static const int sizes[] = {1800, 1600, 1400, 1200, 1100, 1000, 900, 800};
    int sz = 800;
    long long total = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        total = table_heights(t, g->cols, sizes[k], g->rows);
        sz = sizes[k];
        if (total <= area.cy) break;
    }
    g->nc = nc;
    g->nr = nr;
    g->sz = sz;
    g->fits = total <= area.cy;
    g->box = (qr_slide_box){area.x, area.y, used, total < area.cy ? total : area.cy};
    return 0;
}

/* ---- pictures ------------------------------------------------------------------------ */

static qr_slide_box plan_image(const qr_image *img, qr_slide_box area)
{
    double w = img->width_px ? (double)img->width_px : 1,
           h = img->height_px ? (double)img->height_px : 1;
    double s = (double)area.cx / w;
    if ((double)area.cy / h < s) s = (double)area.cy / h;
    long long cx = (long long)(w * s), cy = (long long)(h * s);
    if (cx < 1) cx = 1;
    if (cy < 1) cy = 1;
    return (qr_slide_box){area.x + (area.cx - cx) / 2, area.y + (area.cy - cy) / 2, cx, cy};
}

/* ---- the slide -------------------------------------------------------------------------- */

#define GAP 228600 /* 0.25 in between the text and the table/image */

static void split_h(qr_slide_box a, qr_slide_box *l, qr_slide_box *r)
{
    long long half = (a.cx - GAP) / 2;
    *l = (qr_slide_box){a.x, a.y, half, a.cy};
    *r = (qr_slide_box){a.x + half + GAP, a.y, a.cx - half - GAP, a.cy};
}

static void split_v(qr_slide_box a, qr_slide_box *t, qr_slide_box *b)
{
    long long half = (a.cy - GAP) / 2;
    *t = (qr_slide_box){a.x, a.y, a.cx, half};
    *b = (qr_slide_box){a.x, a.y + half + GAP, a.cx, a.cy - half - GAP};
}

void qr_slide_plan_free(qr_slide_plan *p)
{
    if (!p) return;
    free(p->title.paras);
    free(p->body.paras);
    free(p->table.cols);
    free(p->table.rows);
    for (size_t i = 0; i < p->n_extra; i++)
        free(p->extra[i].paras);
    for (size_t i = 0; i < p->n_vis; i++) {
        free(p->vis[i].grid.cols);
        free(p->vis[i].grid.rows);
    }
    memset(p, 0, sizeof *p);
}

/* One text box of one paragraph (quote, stats): centred, its size, bold
 * and accent; fitted like any shape. -1 on OOM. */
static int extra_box(qr_slide_plan *p, const char *name, qr_slide_box box, int anchor,
                     const qr_text *t, int sz, int bold, int accent)
{
    if (p->n_extra == QR_SLIDE_EXTRA) return 0;
    qr_slide_shape *sh = &p->extra[p->n_extra];
    memset(sh, 0, sizeof *sh);
    sh->box = box;
    sh->anchor = anchor;
    sh->line = 100000;
    p->extra_name[p->n_extra++] = name;
    size_t cap = 0;
    if (shape_add(sh, &cap, t, 0, QR_SLIDE_BULLET_NONE, QR_SLIDE_ALGN_CTR, sz, 0)) return -1;
    sh->paras[0].bold = bold;
    sh->paras[0].accent = accent;
    return shape_fit(sh);
}

static const char *const stat_names[4][3] = {
    {"Stat 1 Value", "Stat 1 Label", "Stat 1 Caption"},
    {"Stat 2 Value", "Stat 2 Label", "Stat 2 Caption"},
    {"Stat 3 Value", "Stat 3 Label", "Stat 3 Caption"},
    {"Stat 4 Value", "Stat 4 Label", "Stat 4 Caption"},
};

/* The quote, stats and closing layouts: text boxes at fixed places. The
 * title (quote: optional, above; stats: the master's title box; closing:
 * centred) and the closing subtitle are the plan's title and body. */
static int plan_structural(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl)
{
    size_t tcap = 0, bcap = 0;
    long long m = g->body.x;
    p->title.box = g->title;
    p->title.anchor = QR_SLIDE_ANCHOR_CTR;
    p->title.line = p->body.line = 100000;
    int title_sz = QR_SLIDE_SZ_TITLE, title_algn = QR_SLIDE_ALGN_INHERIT;
    if (sl->layout == QR_LAYOUT_CLOSING) {
        p->title.box = g->ctr_title;
        p->body.box = g->subtitle;
        p->title.anchor = QR_SLIDE_ANCHOR_B;
        title_sz = QR_SLIDE_SZ_CLOSING;
        title_algn = QR_SLIDE_ALGN_CTR;
        if (sl->has_subtitle && shape_add(&p->body, &bcap, &sl->subtitle, 0, QR_SLIDE_BULLET_NONE,
                                          QR_SLIDE_ALGN_CTR, QR_SLIDE_SZ_SUBTITLE, 0))
            return -1;
    }
    if (sl->has_title &&
        shape_add(&p->title, &tcap, &sl->title, 0, QR_SLIDE_BULLET_NONE, title_algn, title_sz, 0))
        return -1;
    if (shape_fit(&p->title) || shape_fit(&p->body)) return -1;
    if (sl->layout == QR_LAYOUT_QUOTE) {
        /* the quote in the middle of the slide, its attribution below */
        qr_slide_box q = {m * 2, g->sh * 22 / 100, g->sw - 4 * m, g->sh * 46 / 100};
        qr_slide_box a = {m * 2, q.y + q.cy + GAP, g->sw - 4 * m, g->sh * 12 / 100};
        if (sl->has_quote &&
            extra_box(p, "Quote", q, QR_SLIDE_ANCHOR_B, &sl->quote, QR_SLIDE_SZ_QUOTE, 0, 0))
            return -1;
        if (sl->has_attribution && extra_box(p, "Attribution", a, QR_SLIDE_ANCHOR_T,
                                             &sl->attribution, QR_SLIDE_SZ_ATTRIBUTION, 0, 1))
            return -1;
    } else if (sl->layout == QR_LAYOUT_STATS) {
        /* equal columns across the content area: value, label, caption */
        qr_slide_box area = g->body;
        long long n = (long long)sl->n_stats, w = n ? (area.cx - (n - 1) * GAP) / n : 0;
        long long vy = area.y + area.cy / 10, vh = area.cy * 38 / 100;
        long long ly = vy + vh, lh = area.cy * 16 / 100;
        long long cy = ly + lh, ch = area.y + area.cy - cy;
        for (size_t i = 0; i < sl->n_stats && i < 4; i++) {
            const qr_stat *st = &sl->stats[i];
            long long x = area.x + (long long)i * (w + GAP);
            if (extra_box(p, stat_names[i][0], (qr_slide_box){x, vy, w, vh}, QR_SLIDE_ANCHOR_B,
                          &st->value, QR_SLIDE_SZ_STAT_VALUE, 1, 1))
                return -1;
            if (st->label.n &&
                extra_box(p, stat_names[i][1], (qr_slide_box){x, ly, w, lh}, QR_SLIDE_ANCHOR_T,
                          &st->label, QR_SLIDE_SZ_STAT_LABEL, 1, 0))
                return -1;
            if (st->caption.n &&
                extra_box(p, stat_names[i][2], (qr_slide_box){x, cy, w, ch}, QR_SLIDE_ANCHOR_T,
                          &st->caption, QR_SLIDE_SZ_STAT_CAPTION, 0, 0))
                return -1;
        }
    }
    return 0;
}

/* A text box of bullets (a column's), fitted like the body. -1 on OOM. */
static int extra_items(qr_slide_plan *p, const char *name, qr_slide_box box, const qr_item *items,
                       size_t n)
{
    if (p->n_extra == QR_SLIDE_EXTRA) return 0;
    qr_slide_shape *sh = &p->extra[p->n_extra];
    memset(sh, 0, sizeof *sh);
    sh->box = box;
    sh->line = 100000;
    p->extra_name[p->n_extra++] = name;
    size_t cap = 0;
    if (add_items(sh, &cap, items, n, 0, QR_SLIDE_BULLET_CHAR, QR_SLIDE_ALGN_INHERIT, 0)) return -1;
    return shape_fit(sh);
}

/* A picture, table or chart in area (a column's): as on title_content. */
static int add_vis(qr_slide_plan *p, const char *name, const qr_image *img, const qr_table *t,
                   const qr_chart *ch, qr_slide_box area)
{
    qr_slide_vis *v = &p->vis[p->n_vis++];
    memset(v, 0, sizeof *v);
    v->name = name;
    v->image = img;
    v->table = t;
    v->chart = ch;
    v->box = v->src = area;
    if (img) v->box = v->src = plan_image(img, area);
    if (t && plan_table(&v->grid, t, area)) return -1;
    return 0;
}

static const char *const col_names[2][2] = {{"Left", "Left Heading"}, {"Right", "Right Heading"}};

/* two_content and comparison: the title as on title_content, the content
 * area split in two columns; a comparison column's heading (24 pt bold,
 * accent) above its content. */
static int plan_columns(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl)
{
    qr_slide_box col[2];
    split_h(g->body, &col[0], &col[1]);
    for (int i = 0; i < 2; i++) {
        const qr_column *c = &sl->cols[i];
        qr_slide_box area = col[i];
        if (sl->layout == QR_LAYOUT_COMPARISON) {
            long long hh = 548640; /* 0.6 in */
            qr_slide_box hb = {area.x, area.y, area.cx, hh};
            if (c->has_heading && extra_box(p, col_names[i][1], hb, QR_SLIDE_ANCHOR_B, &c->heading,
                                            QR_SLIDE_SZ_HEADING, 1, 1))
                return -1;
            if (c->has_heading && p->n_extra)
                p->extra[p->n_extra - 1].paras[0].algn = QR_SLIDE_ALGN_L;
            area.y += hh + GAP / 2;
            area.cy -= hh + GAP / 2;
        }
        if (c->n_bullets && extra_items(p, col_names[i][0], area, c->bullets, c->n_bullets))
            return -1;
        if ((c->image || c->table || c->chart) &&
            add_vis(p, col_names[i][0], c->image, c->table, c->chart, area))
            return -1;
    }
    return 0;
}

/* Where a picture goes to cover the slide, its aspect kept (centred; the
 * parts past the slide's edges are cropped). */
static qr_slide_box cover(const qr_image *im, const qr_slide_geom *g)
{
    double w = im->width_px ? (double)im->width_px : 1,
           h = im->height_px ? (double)im->height_px : 1;
    double sc = (double)g->sw / w;
    if ((double)g->sh / h > sc) sc = (double)g->sh / h;
    long long cx = (long long)(w * sc + 0.5), cy = (long long)(h * sc + 0.5);
    if (cx < g->sw) cx = g->sw;
    if (cy < g->sh) cy = g->sh;
    return (qr_slide_box){(g->sw - cx) / 2, (g->sh - cy) / 2, cx, cy};
}

/* image_full: the picture covers the slide (cropped to its aspect), a band
 * of 55 % black along the bottom third under the title (40 pt bold, white)
 * and the caption (20 pt, white). */
static int plan_full(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl)
{
    qr_slide_box all = {0, 0, g->sw, g->sh};
    if (sl->image) {
        qr_slide_vis *v = &p->vis[p->n_vis++];
        memset(v, 0, sizeof *v);
        v->name = "Picture (full)";
        v->image = sl->image;
        v->box = all;
        v->src = cover(sl->image, g);
    }
    if (!sl->has_title && !sl->has_caption) return 0;
    long long m = g->body.x, band = g->sh * 32 / 100, y = g->sh - band;
    p->scrim = 1;
    p->scrim_box = (qr_slide_box){0, y, g->sw, band};
    long long th = sl->has_caption ? band * 55 / 100 : band - GAP;
    p->title.box = (qr_slide_box){m, y + GAP / 2, g->sw - 2 * m, th};
    p->title.anchor = sl->has_caption ? QR_SLIDE_ANCHOR_B : QR_SLIDE_ANCHOR_CTR;
    p->title.line = 100000;
    size_t cap = 0;
    if (sl->has_title && shape_add(&p->title, &cap, &sl->title, 0, QR_SLIDE_BULLET_NONE,
                                   QR_SLIDE_ALGN_L, QR_SLIDE_SZ_FULL_TITLE, 0))
        return -1;
    if (p->title.n) {
        p->title.paras[0].bold = 1;
        p->title.paras[0].accent = QR_SLIDE_INK_WHITE;
    }
    if (shape_fit(&p->title)) return -1;
    if (sl->has_caption) {
        qr_slide_box cb = {m, y + GAP / 2 + th, g->sw - 2 * m, band - th - GAP};
        if (extra_box(p, "Caption", cb, QR_SLIDE_ANCHOR_T, &sl->caption, QR_SLIDE_SZ_CAPTION, 0,
                      QR_SLIDE_INK_WHITE))
            return -1;
        p->extra[p->n_extra - 1].paras[0].algn = QR_SLIDE_ALGN_L;
    }
    return 0;
}

/* agenda: the title as on title_content, the items numbered in one text
 * box over the content area (28 pt), the current one bold in the accent. */
static int plan_agenda(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl)
{
    if (p->n_extra == QR_SLIDE_EXTRA) return 0;
    qr_slide_shape *sh = &p->extra[p->n_extra];
    memset(sh, 0, sizeof *sh);
    sh->box = g->body;
    sh->line = 100000;
    p->extra_name[p->n_extra++] = "Agenda";
    size_t cap = 0;
    for (size_t i = 0; i < sl->n_agenda; i++) {
        if (shape_add(sh, &cap, &sl->agenda[i], 0, QR_SLIDE_BULLET_NUM, QR_SLIDE_ALGN_INHERIT,
                      QR_SLIDE_SZ_AGENDA, 1800))
            return -1;
        size_t no = sl->agenda_first + i + 1;
        sh->paras[i].num = (int)(no < 100000 ? no : 99999);
        if ((long)i == sl->current) {
            sh->paras[i].bold = 1;
            sh->paras[i].accent = QR_SLIDE_INK_ACCENT;
        }
    }
    return shape_fit(sh);
}

/* The title of the new layouts but image_full: the master's title box, as
 * a text box (44 pt). */
static int plan_box_title(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl)
{
    size_t cap = 0;
    p->title.box = g->title;
    p->title.anchor = QR_SLIDE_ANCHOR_CTR;
    p->title.line = 100000;
    if (sl->has_title && shape_add(&p->title, &cap, &sl->title, 0, QR_SLIDE_BULLET_NONE,
                                   QR_SLIDE_ALGN_INHERIT, QR_SLIDE_SZ_TITLE, 0))
        return -1;
    return shape_fit(&p->title);
}

qr_status qr_slide_plan_furniture(qr_slide_plan *p, const qr_doc *doc, const qr_slide_geom *g,
                                  int no)
{
    const qr_slide *sl = p->slide;
    /* the ground: the slide's own, else the deck's */
    if (sl->has_background || sl->background_image) {
        p->has_ground = sl->has_background;
        p->ground = sl->background;
        p->ground_image = sl->background_image;
    } else if (doc->has_background || doc->background_image) {
        p->has_ground = doc->has_background;
        p->ground = doc->background;
        p->ground_image = doc->background_image;
    }
    if (p->ground_image) p->ground_src = cover(p->ground_image, g);
    if (sl->footer_mode == QR_FOOTER_NONE) return QR_OK;
    if (doc->logo) {
        /* 0.5 in high, its aspect kept up to 2 in wide, in the right margin's corner */
        const qr_image *im = doc->logo;
        double w = im->width_px ? (double)im->width_px : 1,
               h = im->height_px ? (double)im->height_px : 1;
        long long lh = 457200, lw = (long long)(lh * w / h + 0.5);
        if (lw > 1828800) {
            lw = 1828800;
            lh = (long long)(lw * h / w + 0.5);
        }
        if (lw < 1) lw = 1;
        if (lh < 1) lh = 1;
        p->logo = im;
        p->logo_box = (qr_slide_box){g->sw - g->body.x - lw, 228600, lw, lh};
        /* a title box under the logo ends before it */
        qr_slide_box *t = &p->title.box, *lb = &p->logo_box;
        if (p->title.n && t->y < lb->y + lb->cy && t->y + t->cy > lb->y && t->x < lb->x &&
            t->x + t->cx > lb->x - GAP / 2) {
            t->cx = lb->x - GAP / 2 - t->x;
            if (shape_fit(&p->title)) return QR_E_NOMEM;
        }
    }
    const qr_text *footer = sl->footer_mode == QR_FOOTER_OWN ? &sl->footer
                            : doc->has_footer                ? &doc->footer
                                                             : NULL;
    /* a band 0.4 in high, 0.2 in above the bottom edge, in the content's margins */
    long long m = g->body.x, h = 365760, y = g->sh - h - 182880, w = (g->sw - 2 * m) / 4;
    if (doc->has_date && doc->date.n &&
        extra_box(p, "Date", (qr_slide_box){m, y, w, h}, QR_SLIDE_ANCHOR_CTR, &doc->date,
                  QR_SLIDE_SZ_FOOTER, 0, 0))
        return QR_E_NOMEM;
    if (p->n_extra && doc->has_date && doc->date.n)
        p->extra[p->n_extra - 1].paras[0].algn = QR_SLIDE_ALGN_L;
    if (footer && footer->n &&
        extra_box(p, "Footer", (qr_slide_box){m + w, y, 2 * w, h}, QR_SLIDE_ANCHOR_CTR, footer,
                  QR_SLIDE_SZ_FOOTER, 0, 0))
        return QR_E_NOMEM;
    if (doc->slide_numbers) {
        snprintf(p->number, sizeof p->number, "%d", no);
        p->number_run = (qr_run){.text = p->number, .len = strlen(p->number)};
        p->number_text = (qr_text){&p->number_run, 1, NULL};
        if (extra_box(p, "Slide Number", (qr_slide_box){m + 3 * w, y, w, h}, QR_SLIDE_ANCHOR_CTR,
                      &p->number_text, QR_SLIDE_SZ_FOOTER, 0, 0))
            return QR_E_NOMEM;
        p->extra[p->n_extra - 1].paras[0].algn = QR_SLIDE_ALGN_R;
    }
    return QR_OK;
}

qr_status qr_slide_plan_make(qr_slide_plan *p, const qr_slide_geom *g, const qr_slide *sl)
{
    memset(p, 0, sizeof *p);
    p->slide = sl;
    p->placeholders = sl->layout < QR_LAYOUT_BLANK;
    if (sl->layout == QR_LAYOUT_TWO_CONTENT || sl->layout == QR_LAYOUT_COMPARISON) {
        if (plan_box_title(p, g, sl) || plan_columns(p, g, sl)) goto oom;
        return QR_OK;
    }
    if (sl->layout == QR_LAYOUT_AGENDA) {
        if (plan_box_title(p, g, sl) || plan_agenda(p, g, sl)) goto oom;
        return QR_OK;
    }
    if (sl->layout == QR_LAYOUT_IMAGE_FULL) {
        if (plan_full(p, g, sl)) goto oom;
        return QR_OK;
    }
    if (sl->layout > QR_LAYOUT_BLANK) {
        if (plan_structural(p, g, sl)) goto oom;
        return QR_OK;
    }

    /* Titles, and the text of the body: subtitle, then bullets. */
    int body_bullet = QR_SLIDE_BULLET_CHAR, body_algn = QR_SLIDE_ALGN_INHERIT, body_sz = 0;
    int title_sz = QR_SLIDE_SZ_TITLE;
    p->title.box = g->title;
    p->body.box = g->body;
    p->title.anchor = QR_SLIDE_ANCHOR_CTR;
    p->title_ph = "title";
    if (sl->layout == QR_LAYOUT_TITLE) {
        title_sz = QR_SLIDE_SZ_CTR_TITLE;
        body_bullet = QR_SLIDE_BULLET_NONE;
        body_algn = QR_SLIDE_ALGN_CTR;
        body_sz = QR_SLIDE_SZ_SUBTITLE;
        p->title.box = g->ctr_title;
        p->body.box = g->subtitle;
        p->title.anchor = QR_SLIDE_ANCHOR_B;
        p->title_ph = "ctrTitle";
        p->body_ph = "subTitle";
    } else if (sl->layout == QR_LAYOUT_SECTION) {
        title_sz = QR_SLIDE_SZ_SECTION_TITLE;
        body_bullet = QR_SLIDE_BULLET_NONE;
        body_sz = QR_SLIDE_SZ_SECTION_BODY;
        p->title.box = g->sec_title;
        p->body.box = g->sec_body;
        p->title.anchor = QR_SLIDE_ANCHOR_B;
        p->body_ph = "body";
    }
    int title_algn = sl->layout == QR_LAYOUT_TITLE ? QR_SLIDE_ALGN_CTR : QR_SLIDE_ALGN_INHERIT;
    size_t tcap = 0, bcap = 0;
    if (sl->has_title && shape_add(&p->title, &tcap, &sl->title, 0, QR_SLIDE_BULLET_INHERIT,
                                   title_algn, title_sz, 0))
        goto oom;
    if (sl->has_subtitle && shape_add(&p->body, &bcap, &sl->subtitle, 0, QR_SLIDE_BULLET_NONE,
                                      body_algn, body_sz ? body_sz : QR_SLIDE_SZ_SUBTITLE, 0))
        goto oom;
    if (add_items(&p->body, &bcap, sl->bullets, sl->n_bullets, 0, body_bullet, body_algn, body_sz))
        goto oom;

    /* Areas. */
    int visuals = (sl->table != NULL) + (sl->image != NULL || sl->chart != NULL);
    qr_slide_box body_box = p->body.box, vis_area = body_box, table_area, image_area;
    if (visuals && p->body.n) split_h(body_box, &p->body.box, &vis_area);
    table_area = image_area = vis_area;
    if (visuals == 2) {
        if (p->body.n)
            split_v(vis_area, &table_area, &image_area);
        else
            split_h(vis_area, &table_area, &image_area);
    }
    if (shape_fit(&p->title) || shape_fit(&p->body)) goto oom;
    if (sl->table && plan_table(&p->table, sl->table, table_area)) goto oom;
    qr_slide_box chart_area = image_area; /* a chart beside a picture: below it */
    if (sl->image && sl->chart) split_v(chart_area, &image_area, &chart_area);
    if (sl->image) p->image = plan_image(sl->image, image_area);
    if (sl->chart) p->chart = chart_area;
    return QR_OK;
oom:
    qr_slide_plan_free(p);
    return QR_E_NOMEM;
}

/* ---- the layout report ---------------------------------------------------------------- */

/* The pointer of a shape's text: the title's, or the body's bullets (its
 * subtitle when it has none). */
static const char *shape_path(const qr_slide_plan *p, const qr_slide_shape *sh, char *buf,
                              size_t size)
{
    const qr_slide *sl = p->slide;
    if (sh == &p->title) return sl->title.path ? sl->title.path : sl->path;
    if (sh >= p->extra && sh < p->extra + p->n_extra) {
        /* a column's bullets, the agenda's items: the array's pointer */
        const char *name = p->extra_name[sh - p->extra];
        const char *base = strcmp(name, "Left") == 0     ? sl->cols[0].path
                           : strcmp(name, "Right") == 0  ? sl->cols[1].path
                           : strcmp(name, "Agenda") == 0 ? sl->path
                                                         : NULL;
        if (base) {
            snprintf(buf, size, "%s/%s", base, name[0] == 'A' ? "items" : "bullets");
            return buf;
        }
    }
    if (sh != &p->body) return sh->paras[0].text->path ? sh->paras[0].text->path : sl->path;
    if (sl->n_bullets) {
        snprintf(buf, size, "%s/bullets", sl->path);
        return buf;
    }
    return sl->subtitle.path ? sl->subtitle.path : sl->path;
}

size_t qr_slide_clip_utf8(const char *s, size_t len, size_t max)
{
    if (len <= max) return len;
    size_t n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) /* inside a character */
        n--;
    return n;
}

/* Scripts written without spaces (Thai, Lao, Myanmar, Khmer): lines break
 * between their words by dictionary, so each letter counts as a word. */
static int unspaced(uint32_t cp)
{
    return (cp >= 0x0E00 && cp <= 0x0EFF) || (cp >= 0x1000 && cp <= 0x109F) ||
           (cp >= 0x1780 && cp <= 0x17FF);
}

/* The widest word's ASCII table: each byte's advance as the loop below
 * adds it (cp_width; a bold run's already scaled as each character is), or
 * WW_STOP for the bytes that end a word (spaces, '-' and '/'). Per run:
 * plain, bold, code. A document's report measures every character of its
 * text (D1: 29 M instructions a byte at a time through the general step). */
#define WW_STOP (-1)
static short ww_tab[3][128];
static pthread_once_t ww_once = PTHREAD_ONCE_INIT;

static void ww_init(void)
{
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 128; c++) {
            int cw = cp_width((uint32_t)c, k == 2);
            int stop = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' || c == '/';
            ww_tab[k][c] = (short)(stop ? WW_STOP : bolded(cw, k == 1));
        }
}

/* The widest word of t (slide_layout.h): a hyphen ends the word it closes. */
long long qr_slide_widest_word(const qr_text *t, const char **at, size_t *len)
{
    pthread_once(&ww_once, ww_init);
    long long best = 0;
    *at = NULL;
    *len = 0;
    for (size_t r = 0; r < t->n; r++) {
        const qr_run *run = &t->runs[r];
        const unsigned char *s = (const unsigned char *)run->text;
        const short *tab = ww_tab[run->code ? 2 : run->bold ? 1 : 0];
        long long w = 0;
        size_t start = 0;
        for (size_t i = 0; i <= run->len;) {
            /* inside a word, ASCII that does not end it: the table */
            while (i < run->len && s[i] < 0x80 && tab[s[i]] != WW_STOP)
                w += tab[s[i++]];
            uint32_t cp = ' ';
            size_t n = 1;
            if (i < run->len) {
                if (s[i] < 0x80)
                    cp = s[i];
                else
                    n = utf8_next(s + i, run->len - i, &cp);
            }
            int space = cp < 0x80 ? cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r'
                                  : cp == 0x3000 || cp == 0x2028 || cp == 0x2029 || is_wide(cp) ||
                                        unspaced(cp);
            if (space) {
                if (w > best) {
                    best = w;
                    *at = run->text + start;
                    *len = i - start;
                }
                w = 0;
                start = i + n;
            } else {
                int cw = cp_width(cp, run->code);
                w += bolded(cw, run->bold && !run->code);
                if (cp == '-' || cp == 0x2010 || cp == '/') { /* a line may break after them */
                    if (w > best) {
                        best = w;
                        *at = run->text + start;
                        *len = i + n - start;
                    }
                    w = 0;
                    start = i + n;
                }
            }
            i += n;
        }
    }
    return best;
}

/* A word_broken item when t's widest word, at size sz (1/100 pt), is wider
 * than avail EMU: the renderers break it inside, across lines. */
static void report_word(const qr_text *t, long long sz, int bold, long long avail, const char *path,
                        int no, qr_layout_list *l)
{
    const char *at;
    size_t len;
    long long word = qr_slide_widest_word(t, &at, &len);
    word = bolded(word, bold);
    if (sz < 100) sz = 100;
    long long W = avail * 100000 / (sz * QR_SLIDE_EMU_PER_PT); /* the line, 1/1000 em */
    if (word <= W || !at || W <= 0) return;
    double f = (double)word / (double)W;
    int hund = f < 1e6 ? (int)(f * 100.0 + 0.5) : 99999999;
    size_t shown = qr_slide_clip_utf8(at, len, 40);
    qr_layout_addf(l, QR_LAYOUT_WORD_BROKEN, t->path ? t->path : path, 0, no, f,
                   "\"%.*s%s\" is %d.%02d times as wide as its line and breaks across lines",
                   (int)shown, at, shown < len ? "..." : "", hund / 100, hund % 100);
}

static void report_shape(const qr_slide_plan *p, const qr_slide_shape *sh, int no,
                         qr_layout_list *l)
{
    if (!sh->n) return;
    char path[256], pct[16];
    const char *at = shape_path(p, sh, path, sizeof path);
    const char *what = sh == &p->title ? "title" : sh == &p->body ? "body" : "text";
    if (!sh->fits)
        qr_layout_addf(l, QR_LAYOUT_SHRINK, at, 0, no, 0.25,
                       "the %s does not fit even shrunk to 25 %%: split it over more slides", what);
    else if (sh->font_scale < 100000 || sh->ln_reduction)
        qr_layout_addf(l, QR_LAYOUT_SHRINK, at, 0, no, sh->font_scale / 100000.0,
                       "the %s shrunk to %s %% (line spacing -%d %%) to fit its box", what,
                       qr_layout_pct(sh->font_scale / 100000.0, pct), sh->ln_reduction / 1000);
    /* words wider than their line once scaled */
    for (size_t i = 0; i < sh->n; i++) {
        const qr_slide_para *pa = &sh->paras[i];
        long long avail = sh->box.cx - 2 * QR_SLIDE_INS_LR - qr_slide_para_marl(pa);
        report_word(pa->text, (long long)pa->sz * sh->font_scale / 100000, pa->bold, avail, at, no,
                    l);
    }
    /* the smallest paragraph once scaled */
    size_t k = 0;
    for (size_t i = 1; i < sh->n; i++)
        if (sh->paras[i].sz < sh->paras[k].sz) k = i;
    long long hund = (long long)sh->paras[k].sz * sh->font_scale / 100000; /* 1/100 pt */
    if (hund < 900) {
        const char *tp = sh->paras[k].text->path ? sh->paras[k].text->path : at;
        qr_layout_addf(l, QR_LAYOUT_SMALL_TEXT, tp, 0, no, (double)hund / 100.0,
                       "text drawn at %lld.%02lld pt, below 9 pt", hund / 100, hund % 100);
    }
}

/* A picture drawn (box: its whole drawn size) larger than its pixels at 96 dpi. */
static void report_image(const qr_image *im, qr_slide_box box, int no, qr_layout_list *l)
{
    if (!im->width_px) return;
    /* 9525 EMU per pixel at 96 dpi */
    double f = (double)box.cx / 9525.0 / (double)im->width_px;
    if (f > 1.01) {
        int tenths = f < 1e6 ? (int)(f * 10.0 + 0.5) : 9999999;
        qr_layout_addf(l, QR_LAYOUT_IMAGE_UPSCALED, im->path, 0, no, f,
                       "a %u px wide image drawn %lld px wide at 96 dpi (scaled up %d.%d times)",
                       (unsigned)im->width_px, box.cx / 9525, tenths / 10, tenths % 10);
    }
}

static void report_table(const qr_table *t, const qr_slide_grid *g, const char *slide_path, int no,
                         qr_layout_list *l)
{
    const char *tp = t->path ? t->path : slide_path;
    for (size_t r = 0; r < g->nr; r++)
        for (size_t c = 0; c < g->nc; c++) {
            const qr_tcell *cell = qr_slide_table_cell(t, r, c);
            if (!cell) continue;
            char cp[256];
            snprintf(cp, sizeof cp, "%s/%s/%zu/%zu", tp, t->headers && r == 0 ? "headers" : "rows",
                     t->headers ? (r ? r - 1 : c) : r, c);
            if (t->headers && r == 0) snprintf(cp, sizeof cp, "%s/headers/%zu", tp, c);
            report_word(&cell->text, g->sz, t->headers && r == 0,
                        g->cols[c] - 2 * QR_SLIDE_CELL_MAR_LR, cp, no, l);
        }
    if (g->sz < 900)
        qr_layout_addf(l, QR_LAYOUT_SMALL_TEXT, tp, 0, no, g->sz / 100.0,
                       "table text drawn at %d pt, below 9 pt", g->sz / 100);
    if (!g->fits)
        qr_layout_addf(l, QR_LAYOUT_TABLE_CUT, tp, 0, no, 0,
                       "the table's %zu rows do not fit the slide even at 8 pt", g->nr);
}

void qr_slide_plan_report(const qr_slide_plan *p, int no, qr_layout_list *l)
{
    if (!l) return;
    const qr_slide *sl = p->slide;
    report_shape(p, &p->title, no, l);
    report_shape(p, &p->body, no, l);
    for (size_t i = 0; i < p->n_extra; i++)
        report_shape(p, &p->extra[i], no, l);
    if (sl->table && p->table.nr) report_table(sl->table, &p->table, sl->path, no, l);
    if (sl->image && sl->layout != QR_LAYOUT_IMAGE_FULL) report_image(sl->image, p->image, no, l);
    /* the deck's ground picture and logo: once, on the first slide */
    if (p->ground_image && (p->ground_image == sl->background_image || no == 1))
        report_image(p->ground_image, p->ground_src, no, l);
    if (p->logo && no == 1) report_image(p->logo, p->logo_box, no, l);
    for (size_t i = 0; i < p->n_vis; i++) {
        const qr_slide_vis *v = &p->vis[i];
        if (v->image) report_image(v->image, v->src, no, l);
        if (v->table && v->grid.nr) report_table(v->table, &v->grid, sl->path, no, l);
    }
}
