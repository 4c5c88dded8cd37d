/* chart.c: the chart model shared by every backend: palette, nice ticks,
 * number formats, A1 references and the geometry of a drawn chart (see
 * chart.h). Pure arithmetic: no fonts, no output format. */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "style.h"

#define QR_PI 3.14159265358979323846

uint32_t qr_chart_palette(size_t i, const qr_style *st)
{
    /* the theme's accent, then the other series colours (spec/style.h), then darker rounds */
    uint32_t c = i % 6 == 0 && st ? st->accent : qr_style_series[i % 6];
    size_t round = (i / 6) % 4;
    if (!round) return c;
    /* each round 20% darker */
    double f = 1.0 - 0.2 * (double)round;
    uint32_t r = (uint32_t)(((c >> 16) & 0xFF) * f), g = (uint32_t)(((c >> 8) & 0xFF) * f),
             b = (uint32_t)((c & 0xFF) * f);
    return r << 16 | g << 8 | b;
}

uint32_t qr_chart_series_color(const qr_chart *c, size_t i, const qr_style *st)
{
    return c->series[i].has_color ? c->series[i].color : qr_chart_palette(i, st);
}

size_t qr_chart_ref_text(const qr_chart_ref *r, char *buf, size_t size)
{
    qr_buf b = {0};
    int quote = 0;
    for (const char *s = r->sheet; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || (unsigned char)*s >= 0x80))
            quote = 1;
    if (r->sheet[0] >= '0' && r->sheet[0] <= '9') quote = 1;
    if (quote) qr_buf_putc(&b, '\'');
    for (const char *s = r->sheet; *s; s++) {
        if (*s == '\'') qr_buf_putc(&b, '\'');
        qr_buf_putc(&b, *s);
    }
    if (quote) qr_buf_putc(&b, '\'');
    char a[16], z[16];
    qr_chart_a1(r->row0, r->col0, 1, a);
    qr_chart_a1(r->row1, r->col1, 1, z);
    qr_buf_putc(&b, '!');
    qr_buf_append(&b, a, strlen(a));
    qr_buf_putc(&b, ':');
    qr_buf_append(&b, z, strlen(z));
    size_t n = b.oom ? 0 : b.len;
    if (n >= size) n = size - 1;
    if (n) memcpy(buf, b.data, n);
    buf[n] = '\0';
    qr_buf_free(&b);
    return n;
}

/* ---- ticks ------------------------------------------------------------------------ */

void qr_chart_ticks(double min, double max, int intervals, qr_ticks *t)
{
    if (intervals < 1) intervals = 1;
    if (min > 0) min = 0;
    if (max < 0) max = 0;
    if (max - min <= 0) max = min + 1;
    double raw = (max - min) / intervals;
    double mag = pow(10, floor(log10(raw)));
    double f = raw / mag, nice;
    if (f <= 1.0 + 1e-9)
        nice = 1;
    else if (f <= 2.0 + 1e-9)
        nice = 2;
    else if (f <= 2.5 + 1e-9)
        nice = 2.5;
    else if (f <= 5.0 + 1e-9)
        nice = 5;
    else
        nice = 10;
    double step = nice * mag;
    double lo = floor(min / step + 1e-9) * step, hi = ceil(max / step - 1e-9) * step;
    if (hi <= lo) hi = lo + step;
    double n = floor((hi - lo) / step + 0.5);
    /* The compiler keeps values within QR_CHART_MAX_VALUE, so this holds;
     * for a tree built otherwise (NaN, 1e308 stacked): one plain interval,
     * never a tick count from an overflow. */
    if (!isfinite(lo) || !isfinite(hi) || !isfinite(step) || !(n >= 1 && n <= 1000)) {
        lo = isfinite(min) ? min : -1, hi = isfinite(max) ? max : 1;
        if (!(hi > lo) || !isfinite(hi - lo)) lo = -1, hi = 1;
        step = hi - lo, n = 1;
    }
    t->lo = lo;
    t->hi = hi;
    t->step = step;
    t->n = (int)n;
}

/* ---- number formats ---------------------------------------------------------------- */

/* |v| with d decimals into digits: integer part and fraction; 0 when it
 * does not fit 64 bits. */
static int fixed(double v, int d, char *ip, size_t isz, char *fp)
{
    double s = fabs(v) * pow(10, d);
    if (!(s < 9e18)) return 0;
    unsigned long long x = (unsigned long long)llround(s), p = 1;
    for (int i = 0; i < d; i++)
        p *= 10;
    snprintf(ip, isz, "%llu", x / p);
    unsigned long long fr = x % p;
    for (int i = d - 1; i >= 0; i--) {
        fp[i] = (char)('0' + fr % 10);
        fr /= 10;
    }
    fp[d] = '\0';
    return 1;
}

static void put(char *buf, size_t size, size_t *k, const char *s, size_t n)
{
    for (size_t i = 0; i < n && *k + 1 < size; i++)
        buf[(*k)++] = s[i];
    buf[*k] = '\0';
}

static size_t general(double v, char *buf, size_t size)
{
    if (v == 0) v = 0; /* no "-0" */
    double a = fabs(v);
    char ip[32], fp[16];
    size_t k = 0;
    buf[0] = '\0';
    if (a >= 1e15 || (a < 1e-9 && a > 0)) {
        char num[40];
        int n = qr_fmt_double(v, num);
        put(buf, size, &k, num, (size_t)n);
        return k;
    }
    int mag = a > 0 ? (int)floor(log10(a)) : 0;
    int d = 9 - mag;
    if (d < 0) d = 0;
    if (d > 12) d = 12;
    if (!fixed(v, d, ip, sizeof ip, fp)) return 0;
    int n = d;
    while (n > 0 && fp[n - 1] == '0')
        n--;
    fp[n] = '\0';
    if (v < 0 && (strcmp(ip, "0") || n)) put(buf, size, &k, "-", 1);
    put(buf, size, &k, ip, strlen(ip));
    if (n) {
        put(buf, size, &k, ".", 1);
        put(buf, size, &k, fp, (size_t)n);
    }
    return k;
}

size_t qr_chart_format(double v, const char *fmt, char *buf, size_t size)
{
    if (!size) return 0;
    buf[0] = '\0';
    if (!fmt || !*fmt || strcmp(fmt, "General") == 0) return general(v, buf, size);
    /* the first section only */
    size_t end = 0;
    int q = 0;
    while (fmt[end] && (q || fmt[end] != ';')) {
        if (fmt[end] == '"') q = !q;
        end++;
    }
    int decimals = 0, grouping = 0, percent = 0, digits = 0, in_frac = 0;
    for (size_t i = 0; i < end; i++) {
        char c = fmt[i];
        if (c == '"') {
            while (++i < end && fmt[i] != '"')
                ;
            continue;
        }
        if (c == '\\') {
            i++;
            continue;
        }
        if (c == '%') percent = 1;
        if (c == '0' || c == '#' || c == '?') {
            digits = 1;
            if (in_frac) decimals++;
        }
        if (c == '.' && digits) in_frac = 1;
        if (c == ',' && digits && !in_frac) grouping = 1;
    }
    if (!digits) return general(v, buf, size);
    if (percent) v *= 100;
    if (decimals > 10) decimals = 10;
    char ip[32], fp[16];
    if (!fixed(v, decimals, ip, sizeof ip, fp)) return general(v, buf, size);
    int neg = v < 0 && (strcmp(ip, "0") || strspn(fp, "0") != strlen(fp));
    size_t k = 0;
    int number_done = 0;
    if (neg) put(buf, size, &k, "-", 1);
    for (size_t i = 0; i < end; i++) {
        char c = fmt[i];
        if (c == '"') {
            size_t s = ++i;
            while (i < end && fmt[i] != '"')
                i++;
            put(buf, size, &k, fmt + s, i - s);
        } else if (c == '\\' && i + 1 < end) {
            put(buf, size, &k, fmt + ++i, 1);
        } else if (c == '0' || c == '#' || c == '?' || c == ',' || (c == '.' && !number_done)) {
            if (number_done) continue;
            number_done = 1;
            size_t n = strlen(ip);
            for (size_t j = 0; j < n; j++) {
                put(buf, size, &k, ip + j, 1);
                if (grouping && j + 1 < n && (n - j - 1) % 3 == 0) put(buf, size, &k, ",", 1);
            }
            if (decimals) {
                put(buf, size, &k, ".", 1);
                put(buf, size, &k, fp, (size_t)decimals);
            }
            while (i + 1 < end && strchr("0#?,.", fmt[i + 1]))
                i++;
        } else if (c == '_' || c == '*') {
            i++; /* padding: nothing */
        } else if (c != '[') {
            put(buf, size, &k, &c, 1);
        } else {
            while (i < end && fmt[i] != ']')
                i++;
        }
    }
    return k;
}

/* ---- geometry ------------------------------------------------------------------ */

double qr_chart_estimate_width(void *ctx, const char *s, size_t n, double size, int bold)
{
    (void)ctx;
    double w = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp = c;
        size_t k = 1;
        if (c >= 0xF0 && i + 3 < n + 1)
            k = 4, cp = 0x10000;
        else if (c >= 0xE0)
            k = 3, cp = (uint32_t)(c & 0x0F) << 12 | (uint32_t)(i + 1 < n ? s[i + 1] & 0x3F : 0)
                                                         << 6;
        else if (c >= 0xC0)
            k = 2, cp = 0x100;
        w += cp >= 0x2E80 ? 1.0 : 0.56;
        i += k;
    }
    return w * size * (bold ? 1.08 : 1.0);
}

void qr_chart_default_size(double text_width, double *w, double *h)
{
    double ww = text_width < 468 ? text_width : 468;
    if (ww < 144) ww = 144;
    *w = ww;
    *h = ww * 0.6;
}

/* The chart's ink: the theme's (layout/style.h). */
#define C_TEXT (l->ink.chart_text)
#define C_TITLE (l->ink.chart_title)
#define C_GRID (l->ink.chart_grid)
#define C_AXIS (l->ink.chart_axis)
#define S_TITLE ((double)QR_CHART_TITLE_PT)
#define S_LABEL ((double)QR_CHART_TEXT_PT)
#define S_LEGEND ((double)QR_CHART_TEXT_PT)
#define LH 1.35 /* line height, in sizes */

typedef struct L {
    qr_chart_plot *p;
    const qr_chart_measure *m;
    int oom;
    qr_style ink;
} L;

static qr_chart_shape *shape(L *l, int kind, uint32_t color)
{
    qr_chart_plot *p = l->p;
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        qr_chart_shape *ns = realloc(p->shapes, cap * sizeof *ns);
        if (!ns) {
            l->oom = 1;
            return NULL;
        }
        p->shapes = ns;
        p->cap = cap;
    }
    qr_chart_shape *s = &p->shapes[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->color = color;
    s->alpha = 1;
    return s;
}

static void rect(L *l, double x, double y, double w, double h, uint32_t color)
{
    if (w < 0) x += w, w = -w;
    if (h < 0) y += h, h = -h;
    qr_chart_shape *s = shape(l, QR_CS_RECT, color);
    if (s) s->x = x, s->y = y, s->w = w, s->h = h, s->fill = 1;
}

static void line(L *l, double x, double y, double x2, double y2, uint32_t color, double lw)
{
    qr_chart_shape *s = shape(l, QR_CS_LINE, color);
    if (s) s->x = x, s->y = y, s->x2 = x2, s->y2 = y2, s->lw = lw;
}

static void circle(L *l, double x, double y, double r, uint32_t color)
{
    qr_chart_shape *s = shape(l, QR_CS_CIRCLE, color);
    if (s) s->x = x, s->y = y, s->r = r, s->fill = 1;
}

/* Add a point to the plot's point list. */
static void pt(L *l, double x, double y)
{
    qr_chart_plot *p = l->p;
    if (p->n_pts + 2 > p->cap_pts) {
        size_t cap = p->cap_pts ? p->cap_pts * 2 : 256;
        double *np = realloc(p->pts, cap * sizeof *np);
        if (!np) {
            l->oom = 1;
            return;
        }
        p->pts = np;
        p->cap_pts = cap;
    }
    p->pts[p->n_pts++] = x;
    p->pts[p->n_pts++] = y;
}

/* A text, measured now; returns its index (or (size_t)-1). */
static size_t text(L *l, const char *s, size_t n, double size, int bold)
{
    qr_chart_plot *p = l->p;
    if (p->n_texts == p->cap_texts) {
        size_t cap = p->cap_texts ? p->cap_texts * 2 : 32;
        qr_chart_text *nt = realloc(p->texts, cap * sizeof *nt);
        if (!nt) return l->oom = 1, (size_t)-1;
        p->texts = nt;
        p->cap_texts = cap;
    }
    if (p->n_chars + n + 1 > p->cap_chars) {
        size_t cap = p->cap_chars ? p->cap_chars : 512;
        while (cap < p->n_chars + n + 1)
            cap *= 2;
        char *nc = realloc(p->chars, cap);
        if (!nc) return l->oom = 1, (size_t)-1;
        p->chars = nc;
        p->cap_chars = cap;
    }
    qr_chart_text *t = &p->texts[p->n_texts];
    t->off = p->n_chars;
    t->len = n;
    t->size = size;
    t->bold = bold;
    memcpy(p->chars + p->n_chars, s, n);
    p->chars[p->n_chars + n] = '\0';
    p->n_chars += n + 1;
    t->width = l->m->width(l->m->ctx, p->chars + t->off, n, size, bold);
    return p->n_texts++;
}

static size_t textz(L *l, const char *s, double size, int bold)
{
    return text(l, s, strlen(s), size, bold);
}

static void put_text(L *l, size_t t, double x, double y, int anchor, uint32_t color)
{
    if (t == (size_t)-1) return;
    qr_chart_shape *s = shape(l, QR_CS_TEXT, color);
    if (s) s->text = t, s->x = x, s->y = y, s->anchor = (uint8_t)anchor;
}

static double tw(L *l, size_t t)
{
    return t == (size_t)-1 ? 0 : l->p->texts[t].width;
}

/* The series name for the legend ("Series N" when it has none). */
static size_t series_text(L *l, const qr_series *s, size_t i)
{
    if (s->name && *s->name) return textz(l, s->name, S_LEGEND, 0);
    char b[32];
    int n = snprintf(b, sizeof b, "Series %zu", i + 1);
    return text(l, b, (size_t)n, S_LEGEND, 0);
}

static size_t value_text(L *l, const qr_chart *c, double v, double size, int percent)
{
    char b[80];
    size_t n =
        qr_chart_format(percent ? v / 100 : v, percent ? "0%" : c->number_format, b, sizeof b);
    return text(l, b, n, size, 0);
}

static int is_pie(const qr_chart *c)
{
    return c->type == QR_CHART_PIE || c->type == QR_CHART_DOUGHNUT;
}

/* The colour of legend entry i: a slice's, or a series'. */
static uint32_t entry_color(const L *l, const qr_chart *c, size_t i)
{
    return is_pie(c) ? qr_chart_palette(i, &l->ink) : qr_chart_series_color(c, i, &l->ink);
}

/* "+N more" for the legend entries that do not fit. */
static void more(L *l, size_t n, double x, double base)
{
    char b[40];
    int k = snprintf(b, sizeof b, "+%zu more", n);
    put_text(l, text(l, b, (size_t)k, S_LEGEND, 0), x, base, QR_CA_START, C_TEXT);
}

/* The legend: entries placed in the box, which shrinks by what it takes. */
static void legend(L *l, const qr_chart *c, double *top, double *bottom, double *left,
                   double *right)
{
    if (c->legend == QR_LEGEND_NONE) return;
    size_t n = is_pie(c) ? c->n_categories : c->n_series;
    if (!n) return;
    size_t *ts = malloc(n * sizeof *ts);
    if (!ts) {
        l->oom = 1;
        return;
    }
    double widest = 0;
    for (size_t i = 0; i < n; i++) {
        ts[i] =
            is_pie(c) ? textz(l, c->categories[i], S_LEGEND, 0) : series_text(l, &c->series[i], i);
        if (tw(l, ts[i]) > widest) widest = tw(l, ts[i]);
    }
    double lh = S_LEGEND * LH, sw = 8, gap = 4, sep = 12;
    if (c->legend == QR_LEGEND_BOTTOM || c->legend == QR_LEGEND_TOP) {
        double avail = *right - *left;
        /* rows of entries, each row centred */
        size_t i = 0, rows = 0, max_rows = (size_t)((*bottom - *top) / 3 / lh);
        size_t starts[64];
        double widths[64];
        if (max_rows < 1) max_rows = 1;
        while (i < n && rows < 64 && rows < max_rows) {
            double w = 0;
            size_t j = i;
            while (j < n) {
                double e = sw + gap + tw(l, ts[j]) + (j > i ? sep : 0);
                if (j > i && w + e > avail) break;
                w += e;
                j++;
            }
            starts[rows] = i;
            widths[rows++] = w;
            i = j;
        }
        double y0 = c->legend == QR_LEGEND_BOTTOM ? *bottom - rows * lh : *top;
        for (size_t r = 0; r < rows; r++) {
            size_t end = r + 1 < rows ? starts[r + 1] : i;
            double x = *left + (avail - widths[r]) / 2, base = y0 + r * lh + S_LEGEND;
            for (size_t j = starts[r]; j < end; j++) {
                if (j > starts[r]) x += sep;
                rect(l, x, base - sw + 0.5, sw, sw, entry_color(l, c, j));
                put_text(l, ts[j], x + sw + gap, base, QR_CA_START, C_TEXT);
                x += sw + gap + tw(l, ts[j]);
            }
            if (r + 1 == rows && i < n) more(l, n - i, x + sep, base);
        }
        if (c->legend == QR_LEGEND_BOTTOM)
            *bottom -= rows * lh + 4;
        else
            *top += rows * lh + 4;
    } else {
        double colw = sw + gap + widest;
        double max_w = (*right - *left) / 3;
        if (colw > max_w) colw = max_w;
        double x = c->legend == QR_LEGEND_RIGHT ? *right - colw : *left;
        double hgt = n * lh, y0 = (*top + *bottom - hgt) / 2;
        if (y0 < *top) y0 = *top;
        /* a bar chart's series bottom up, as its bars are (and the Office apps list them) */
        int up = c->type == QR_CHART_BAR;
        for (size_t j = 0; j < n; j++) {
            double base = y0 + j * lh + S_LEGEND;
            if (base + lh > *bottom && j + 1 < n) {
                more(l, n - j, x, base);
                break;
            }
            size_t e = up ? n - 1 - j : j;
            rect(l, x, base - sw + 0.5, sw, sw, entry_color(l, c, e));
            put_text(l, ts[e], x + sw + gap, base, QR_CA_START, C_TEXT);
        }
        if (c->legend == QR_LEGEND_RIGHT)
            *right -= colw + 8;
        else
            *left += colw + 8;
    }
    free(ts);
}

/* The value of series s at point i as drawn (percent charts: its share). */
static double val(const qr_chart *c, size_t s, size_t i)
{
    double v = c->series[s].values[i];
    if (!c->percent) return v;
    double sum = 0;
    for (size_t k = 0; k < c->n_series; k++)
        sum += fabs(c->series[k].values[i]);
    return sum > 0 ? v / sum * 100 : 0;
}

/* The base a stacked segment starts from: the sum of the earlier series of
 * the same sign. */
static double stack_base(const qr_chart *c, size_t s, size_t i)
{
    double base = 0, v = val(c, s, i);
    for (size_t k = 0; k < s; k++) {
        double w = val(c, k, i);
        if ((v >= 0) == (w >= 0) || c->type == QR_CHART_AREA) base += w;
    }
    return base;
}

static void value_range(const qr_chart *c, double *lo, double *hi)
{
    *lo = 0, *hi = 0;
    for (size_t i = 0; i < c->n_points; i++) {
        double pos = 0, neg = 0;
        for (size_t s = 0; s < c->n_series; s++) {
            if (i >= c->series[s].n) continue; /* a shorter scatter series */
            double v = val(c, s, i);
            if (c->stacked) {
                if (c->type == QR_CHART_AREA)
                    pos += v, neg = pos;
                else if (v >= 0)
                    pos += v;
                else
                    neg += v;
                if (pos > *hi) *hi = pos;
                if (neg < *lo) *lo = neg;
            } else {
                if (v > *hi) *hi = v;
                if (v < *lo) *lo = v;
            }
        }
    }
}

static int clampi(double v, int lo, int hi)
{
    int i = (int)floor(v + 0.5);
    return i < lo ? lo : i > hi ? hi : i;
}

static void pie(L *l, const qr_chart *c, double x0, double y0, double x1, double y1)
{
    double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
    double r = ((x1 - x0) < (y1 - y0) ? (x1 - x0) : (y1 - y0)) / 2;
    if (r < 4) return;
    double inner = c->type == QR_CHART_DOUGHNUT ? r * 0.5 : 0;
    double ring = (r - inner) / (double)c->n_series;
    for (size_t s = 0; s < c->n_series; s++) {
        double sum = 0;
        for (size_t i = 0; i < c->n_points; i++)
            sum += c->series[s].values[i];
        double ro = r - ring * (double)s, ri = ro - ring;
        if (c->type == QR_CHART_PIE) ri = 0;
        double a = 0;
        for (size_t i = 0; i < c->n_points && sum > 0; i++) {
            double v = c->series[s].values[i], da = v / sum * 2 * QR_PI;
            qr_chart_shape *sh = shape(l, QR_CS_SECTOR, qr_chart_palette(i, &l->ink));
            if (sh) {
                sh->x = cx, sh->y = cy, sh->r = ro, sh->r0 = ri, sh->a0 = a, sh->a1 = a + da;
                sh->fill = 1;
            }
            if (c->labels && v > 0) {
                double mid = a + da / 2, rr = ri > 0 ? (ri + ro) / 2 : ro * 0.62;
                size_t t = value_text(l, c, v, S_LABEL, 0);
                put_text(l, t, cx + rr * sin(mid), cy - rr * cos(mid) + S_LABEL * 0.35,
                         QR_CA_MIDDLE, qr_style_ink_on(qr_chart_palette(i, &l->ink)));
            }
            a += da;
        }
        /* white separators between slices */
        a = 0;
        for (size_t i = 0; i < c->n_points && sum > 0 && c->n_points > 1; i++) {
            line(l, cx + ri * sin(a), cy - ri * cos(a), cx + ro * sin(a), cy - ro * cos(a),
                 0xFFFFFF, 1);
            a += c->series[s].values[i] / sum * 2 * QR_PI;
        }
    }
}

/* Axis charts: bar, column, line, area, scatter. */
static void axes(L *l, const qr_chart *c, double x0, double y0, double x1, double y1)
{
    int horiz = c->type == QR_CHART_BAR, scatter = c->type == QR_CHART_SCATTER;
    const char *vtitle = horiz ? c->x_title : c->y_title; /* the vertical axis' title */
    const char *htitle = horiz ? c->y_title : c->x_title;
    double lh = S_LABEL * LH;
    if (vtitle) {
        put_text(l, textz(l, vtitle, S_LEGEND, 1), x0, y0 + S_LEGEND, QR_CA_START, C_TEXT);
        y0 += S_LEGEND * LH + 2;
    }
    if (htitle) {
        put_text(l, textz(l, htitle, S_LEGEND, 1), (x0 + x1) / 2, y1 - 2, QR_CA_MIDDLE, C_TEXT);
        y1 -= S_LEGEND * LH + 2;
    }
    /* value ticks (the vertical axis for all but bar; scatter has two) */
    double lo, hi;
    value_range(c, &lo, &hi);
    size_t np = c->n_points;
    qr_ticks vt, xt = {0};
    double ph = y1 - y0 - lh, pw = x1 - x0;
    qr_chart_ticks(lo, hi, horiz ? clampi(pw / 70, 2, 8) : clampi(ph / 32, 2, 8), &vt);
    if (scatter) {
        double xl = 0, xh = 0;
        for (size_t s = 0; s < c->n_series; s++)
            for (size_t i = 0; i < c->series[s].n; i++) {
                double x = c->series[s].x[i];
                if (x < xl) xl = x;
                if (x > xh) xh = x;
            }
        qr_chart_ticks(xl, xh, clampi(pw / 70, 2, 8), &xt);
    }
    int pct = c->percent;
    size_t *vts = malloc((size_t)(vt.n + 1) * sizeof *vts);
    size_t *xts = scatter ? malloc((size_t)(xt.n + 1) * sizeof *xts) : NULL;
    size_t *cts = !scatter && np ? malloc(np * sizeof *cts) : NULL;
    if (!vts || (scatter && !xts) || (!scatter && np && !cts)) {
        l->oom = 1;
        goto out;
    }
    double vw = 0, cw = 0;
    for (int i = 0; i <= vt.n; i++) {
        double v = vt.lo + vt.step * i;
        if (fabs(v) < vt.step * 1e-9) v = 0;
        vts[i] = value_text(l, c, v, S_LABEL, pct);
        if (tw(l, vts[i]) > vw) vw = tw(l, vts[i]);
    }
    for (int i = 0; scatter && i <= xt.n; i++) {
        double v = xt.lo + xt.step * i;
        if (fabs(v) < xt.step * 1e-9) v = 0;
        xts[i] = value_text(l, c, v, S_LABEL, 0);
    }
    for (size_t i = 0; !scatter && i < np; i++) {
        cts[i] = textz(l, c->categories[i], S_LABEL, 0);
        if (tw(l, cts[i]) > cw) cw = tw(l, cts[i]);
    }
    /* the plot area */
    double gutter = (horiz ? cw : vw) + 5;
    if (gutter > (x1 - x0) / 3) gutter = (x1 - x0) / 3;
    double px = x0 + gutter, py = y0 + S_LABEL / 2, pr = x1 - (horiz || scatter ? vw / 2 : 2);
    double pb = y1 - lh - 2;
    if (pr - px < 10 || pb - py < 10) goto out;
    pw = pr - px, ph = pb - py;
    /* value -> coordinate along the value axis */
#define VPOS(v)                                                                                    \
    (horiz ? px + pw * ((v)-vt.lo) / (vt.hi - vt.lo) : pb - ph * ((v)-vt.lo) / (vt.hi - vt.lo))
#define XPOS(v) (px + pw * ((v)-xt.lo) / (xt.hi - xt.lo))
    for (int i = 0; i <= vt.n; i++) {
        double v = VPOS(vt.lo + vt.step * i);
        if (horiz) {
            line(l, v, py, v, pb, C_GRID, 0.75);
            put_text(l, vts[i], v, pb + S_LABEL + 3, QR_CA_MIDDLE, C_TEXT);
        } else {
            line(l, px, v, pr, v, C_GRID, 0.75);
            put_text(l, vts[i], px - 4, v + S_LABEL * 0.35, QR_CA_END, C_TEXT);
        }
    }
    if (scatter)
        for (int i = 0; i <= xt.n; i++) {
            double x = XPOS(xt.lo + xt.step * i);
            line(l, x, py, x, pb, C_GRID, 0.75);
            put_text(l, xts[i], x, pb + S_LABEL + 3, QR_CA_MIDDLE, C_TEXT);
        }
    /* the category axis: bands */
    double band = np ? (horiz ? ph : pw) / (double)np : 0;
    if (!scatter) {
        size_t every = 1;
        if (!horiz)
            while (every < np && cw + 4 > band * (double)every)
                every++;
        else
            while (every < np && lh > band * (double)every)
                every++;
        for (size_t i = 0; i < np; i += every) {
            /* a bar chart's first category at the bottom, as the Office apps draw the catAx
             * (orientation minMax) */
            double mid = horiz ? pb - band * ((double)i + 0.5) : px + band * ((double)i + 0.5);
            if (horiz)
                put_text(l, cts[i], px - 4, mid + S_LABEL * 0.35, QR_CA_END, C_TEXT);
            else
                put_text(l, cts[i], mid, pb + S_LABEL + 3, QR_CA_MIDDLE, C_TEXT);
        }
    }
    double zero = VPOS(0 > vt.lo ? 0 : vt.lo);
    /* the series */
    size_t ns = c->n_series;
    if (c->type == QR_CHART_BAR || c->type == QR_CHART_COLUMN) {
        double group = band * (c->stacked ? 0.6 : 0.75), bw = c->stacked ? group : group / ns;
        for (size_t s = 0; s < ns; s++)
            for (size_t i = 0; i < np; i++) {
                double v = val(c, s, i), b = c->stacked ? stack_base(c, s, i) : 0;
                double a0 = VPOS(b), a1 = VPOS(b + v);
                double off = (horiz ? py : px) + band * (double)i + (band - group) / 2 +
                             (c->stacked ? 0 : bw * (double)s);
                if (horiz) off = py + pb - off - bw; /* bottom up, series 1 lowest */
                if (horiz)
                    rect(l, a0, off, a1 - a0, bw, qr_chart_series_color(c, s, &l->ink));
                else
                    rect(l, off, a1, bw, a0 - a1, qr_chart_series_color(c, s, &l->ink));
                if (!c->labels) continue;
                size_t t = value_text(l, c, c->series[s].values[i], S_LABEL, 0);
                if (c->stacked) {
                    double m = (a0 + a1) / 2;
                    uint32_t on = qr_style_ink_on(qr_chart_series_color(c, s, &l->ink));
                    if (horiz)
                        put_text(l, t, m, off + bw / 2 + S_LABEL * 0.35, QR_CA_MIDDLE, on);
                    else
                        put_text(l, t, off + bw / 2, m + S_LABEL * 0.35, QR_CA_MIDDLE, on);
                } else if (horiz) {
                    put_text(l, t, a1 + (v >= 0 ? 3 : -3), off + bw / 2 + S_LABEL * 0.35,
                             v >= 0 ? QR_CA_START : QR_CA_END, C_TEXT);
                } else {
                    put_text(l, t, off + bw / 2, v >= 0 ? a1 - 3 : a1 + S_LABEL + 2, QR_CA_MIDDLE,
                             C_TEXT);
                }
            }
    } else if (c->type == QR_CHART_AREA) {
        for (size_t s = 0; s < ns; s++) {
            qr_chart_shape *sh = shape(l, QR_CS_PATH, qr_chart_series_color(c, s, &l->ink));
            if (!sh) break;
            sh->fill = 1;
            sh->alpha = c->stacked ? 0.85 : 0.55;
            size_t first = l->p->n_pts;
            for (size_t i = 0; i < np; i++) {
                double b = c->stacked ? stack_base(c, s, i) : 0;
                pt(l, px + band * ((double)i + 0.5), VPOS(b + val(c, s, i)));
            }
            for (size_t i = np; i-- > 0;) {
                double b = c->stacked ? stack_base(c, s, i) : 0;
                pt(l, px + band * ((double)i + 0.5), c->stacked ? VPOS(b) : zero);
            }
            sh = &l->p->shapes[l->p->n - 1];
            sh->pts = first / 2;
            sh->n_pts = (l->p->n_pts - first) / 2;
        }
    } else {
        /* line and scatter: a polyline (line) or markers (scatter) per series */
        for (size_t s = 0; s < ns; s++) {
            const qr_series *se = &c->series[s];
            if (!scatter && np > 1) {
                qr_chart_shape *sh = shape(l, QR_CS_PATH, qr_chart_series_color(c, s, &l->ink));
                if (!sh) break;
                sh->lw = 2;
                size_t first = l->p->n_pts;
                for (size_t i = 0; i < np; i++)
                    pt(l, px + band * ((double)i + 0.5), VPOS(se->values[i]));
                sh = &l->p->shapes[l->p->n - 1];
                sh->pts = first / 2;
                sh->n_pts = (l->p->n_pts - first) / 2;
            }
            for (size_t i = 0; i < se->n; i++) {
                double x = scatter ? XPOS(se->x[i]) : px + band * ((double)i + 0.5);
                double y = VPOS(se->values[i]);
                if (scatter || np <= 60)
                    circle(l, x, y, scatter ? 3 : 2.5, qr_chart_series_color(c, s, &l->ink));
                if (c->labels)
                    put_text(l, value_text(l, c, se->values[i], S_LABEL, 0), x, y - 5, QR_CA_MIDDLE,
                             C_TEXT);
            }
        }
    }
    /* axis lines last, over the bars */
    if (horiz)
        line(l, zero, py, zero, pb, C_AXIS, 1);
    else
        line(l, px, zero, pr, zero, C_AXIS, 1);
#undef VPOS
#undef XPOS
out:
    free(vts);
    free(xts);
    free(cts);
}

int qr_chart_layout(const qr_chart *c, double w, double h, const qr_chart_measure *m,
                    const qr_style *st, qr_chart_plot *p)
{
    static const qr_chart_measure est = {qr_chart_estimate_width, NULL};
    memset(p, 0, sizeof *p);
    p->width = w;
    p->height = h;
    L l = {p, m ? m : &est, 0, st ? *st : qr_style_get(QR_THEME_PLAIN, 0)};
    double pad = 6, top = pad, bottom = h - pad, left = pad, right = w - pad;
    if (c->title) {
        put_text(&l, textz(&l, c->title, S_TITLE, 1), w / 2, top + S_TITLE, QR_CA_MIDDLE,
                 l.ink.chart_title);
        top += S_TITLE * LH + 4;
    }
    legend(&l, c, &top, &bottom, &left, &right);
    if (is_pie(c))
        pie(&l, c, left, top, right, bottom);
    else
        axes(&l, c, left, top, right, bottom);
    if (l.oom) {
        qr_chart_plot_free(p);
        return -1;
    }
    return 0;
}

void qr_chart_plot_free(qr_chart_plot *p)
{
    free(p->shapes);
    free(p->pts);
    free(p->texts);
    free(p->chars);
    memset(p, 0, sizeof *p);
}
