/* style.c: the built-in themes (style.h) and their look-up. */
#include "style.h"

#include "tree.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const uint32_t qr_style_series[6] = {0x2563EB, 0xEA580C, 0x16A34A, 0x9333EA, 0x0891B2, 0xCA8A04};

/* What every theme shares unless it says otherwise: sizes and spacing in
 * points, the footer. */
#define COMMON                                                                                     \
    .body_pt = 11, .code_pt = 9, .table_pt = 10, .footer_pt = 9, .para_after = 6,                  \
    .title_after = 14, .heading_before = {16, 14, 12, 10, 8, 8},                                   \
    .heading_after = {8, 6, 6, 4, 4, 4}, .list_indent = 18, .cell_pad = 4, .code_pad = 6,          \
    .grid_pt = 0.5, .title_rule_pt = 1.5, .title_align = QR_STYLE_CENTER, .italic_from = 6,        \
    .footer_sep = " / ", .visited = 0x7C3AED, .list_gap = 2, .placeholder_fill = 0xF0F0F0,         \
    .placeholder_line = 0xB0B0B0, .placeholder_text = 0x606060, .sheet_grid = 0xD4D4D4

/* Chart ink on a light page: labels, title, gridlines, the zero axis. */
#define CHART_ON_LIGHT                                                                             \
    .chart_text = 0x374151, .chart_title = 0x111827, .chart_grid = 0xE5E7EB, .chart_axis = 0x6B7280

static const qr_style themes[QR_THEME_COUNT] = {
    [QR_THEME_PLAIN] = {.name = "plain",
                        .text = 0x000000,
                        .background = 0xFFFFFF,
                        .title = 0x000000,
                        .heading = 0x000000,
                        .accent = 0x2563EB,
                        .on_accent = 0xFFFFFF,
                        .link = 0x0645AD,
                        .code_fill = 0xF5F5F5,
                        .header_fill = 0xE6E6E6,
                        .grid = 0x808080,
                        .footer = 0x555555,
                        COMMON,
                        CHART_ON_LIGHT,
                        .title_pt = 24,
                        .heading_pt = {20, 16, 14, 12, 11, 11}},
    [QR_THEME_REPORT] = {.name = "report",
                         .text = 0x1A1A1A,
                         .background = 0xFFFFFF,
                         .title = 0x1F3864,
                         .heading = 0x1F4E79,
                         .accent = 0x1F4E79,
                         .on_accent = 0xFFFFFF,
                         .link = 0x0645AD,
                         .code_fill = 0xF3F5F8,
                         .header_fill = 0xDCE6F0,
                         .grid = 0x8EA3BA,
                         .footer = 0x555555,
                         COMMON,
                         CHART_ON_LIGHT,
                         .title_pt = 26,
                         .body_face = "DejaVu Serif",
                         .heading_pt = {18, 15, 13, 12, 11, 11},
                         .title_rule = 1},
    [QR_THEME_LIGHT] = {.name = "light",
                        .text = 0x1F2937,
                        .background = 0xFFFFFF,
                        .title = 0x111827,
                        .heading = 0x1D4ED8,
                        .accent = 0x2563EB,
                        .on_accent = 0xFFFFFF,
                        .link = 0x1D4ED8,
                        .code_fill = 0xF3F4F6,
                        .header_fill = 0xDBEAFE,
                        .grid = 0x9CA3AF,
                        .footer = 0x555555,
                        COMMON,
                        CHART_ON_LIGHT,
                        .title_pt = 24,
                        .heading_pt = {20, 16, 14, 12, 11, 11},
                        .title_rule = 1,
                        .accent_bar = 1,
                        .section_fill = 1},
    [QR_THEME_DARK] = {.name = "dark",
                       .text = 0xE5E7EB,
                       .background = 0x111827,
                       .title = 0xFFFFFF,
                       .heading = 0x93C5FD,
                       .accent = 0x2563EB,
                       .on_accent = 0xFFFFFF,
                       .link = 0x93C5FD,
                       .code_fill = 0x1F2937,
                       .header_fill = 0x1E3A8A,
                       .grid = 0x6B7280,
                       .footer = 0x9CA3AF,
                       COMMON,
                       /* on the dark ground: light labels, dim gridlines */
                       .chart_text = 0xD1D5DB,
                       .chart_title = 0xF9FAFB,
                       .chart_grid = 0x374151,
                       .chart_axis = 0x9CA3AF,
                       .title_pt = 24,
                       .heading_pt = {20, 16, 14, 12, 11, 11},
                       .title_rule = 1,
                       .accent_bar = 1,
                       .section_fill = 1},
};

#ifdef QUIRE_STYLE_HOOK
/* The test hook (style.h): built only into tests/unit/test_style, which
 * compiles its own copy of this file with QUIRE_STYLE_HOOK. */
static const qr_style *override;

void qr_style_set_override(const qr_style *s)
{
    override = s;
}
#endif

double qr_style_contrast(uint32_t a, uint32_t b);

/* a share of colour a over ground b, per channel */
static uint32_t mix(uint32_t a, uint32_t b, double share)
{
    uint32_t out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double v = ((a >> sh) & 255) * share + ((b >> sh) & 255) * (1 - share);
        out |= (uint32_t)(v + 0.5) << sh;
    }
    return out;
}

/* ink, or the first of twenty steps from it towards the ink that reads best
 * on ground (white or near-black) that meets contrast need. */
static uint32_t readable(uint32_t ink, uint32_t ground, double need)
{
    if (qr_style_contrast(ink, ground) >= need) return ink;
    uint32_t to = qr_style_ink_on(ground);
    for (int k = 1; k < 20; k++) {
        uint32_t c = mix(to, ink, k / 20.0);
        if (qr_style_contrast(c, ground) >= need) return c;
    }
    return to;
}

qr_style qr_style_get(int theme, long accent)
{
#ifdef QUIRE_STYLE_HOOK
    if (override) return *override;
#endif
    qr_style s = themes[theme >= 0 && theme < QR_THEME_COUNT ? theme : QR_THEME_PLAIN];
    if (accent & QR_STYLE_ACCENT_SET) {
        uint32_t a = (uint32_t)accent & 0xFFFFFF;
        /* the accent colours what the theme draws in its accent */
        if (s.heading == s.accent) s.heading = a;
        if (theme == QR_THEME_REPORT) s.title = a; /* report's navy title is its accent's */
        /* text in the accent must read on the page (WCAG AA, as contrast.c checks it):
         * an accent too close to the ground is darkened, or lightened on a dark page,
         * for the text only (qr_style_accent_text) */
        double need = s.heading_pt[5] >= 18.0 ? 3.0 : 4.5; /* the smallest heading's */
        s.heading = readable(s.heading, s.background, need);
        s.title = readable(s.title, s.background, need);
        /* the table header's ground: a tint of the accent on a light page, a shade on a
         * dark one, so the body text reads on it */
        s.header_fill = qr_style_dark(&s) ? mix(a, s.background, 0.35) : mix(a, 0xFFFFFF, 0.18);
        s.accent = a;
        /* white or black on the accent, whichever reads better */
        s.on_accent = qr_style_ink_on(a);
    }
    return s;
}

uint32_t qr_style_accent_text(int theme, long accent, const char **what)
{
    *what = NULL;
    if (!(accent & QR_STYLE_ACCENT_SET)) return 0;
    uint32_t a = (uint32_t)accent & 0xFFFFFF;
    qr_style base = themes[theme >= 0 && theme < QR_THEME_COUNT ? theme : QR_THEME_PLAIN];
    qr_style s = qr_style_get(theme, accent);
    int heading = base.heading == base.accent && s.heading != a;
    int title = theme == QR_THEME_REPORT && s.title != a;
    if (!heading && !title) return 0;
    *what = heading && title ? "headings and the title" : heading ? "headings" : "the title";
    return heading ? s.heading : s.title;
}

qr_style qr_style_of(const qr_doc *doc)
{
    return qr_style_get(doc ? doc->theme : 0, doc ? doc->accent : 0);
}

static double lum(uint32_t c)
{
    double ch[3];
    for (int i = 0; i < 3; i++) {
        double v = ((c >> (16 - 8 * i)) & 255) / 255.0;
        ch[i] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

int qr_style_dark(const qr_style *s)
{
    return lum(s->background) < lum(s->text);
}

double qr_style_contrast(uint32_t a, uint32_t b)
{
    double la = lum(a), lb = lum(b);
    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

uint32_t qr_style_ink_on(uint32_t fill)
{
    return qr_style_contrast(fill, 0xFFFFFF) >= qr_style_contrast(fill, 0x111111) ? 0xFFFFFF
                                                                                  : 0x111111;
}

qr_style qr_style_sheet(const qr_style *s)
{
    qr_style r = *s;
    static const qr_style light = {CHART_ON_LIGHT};
    r.background = 0xFFFFFF;
    if (lum(s->text) > lum(0x777777)) r.text = 0x000000;
    r.chart_text = light.chart_text;
    r.chart_title = light.chart_title;
    r.chart_grid = light.chart_grid;
    r.chart_axis = light.chart_axis;
    return r;
}

void qr_style_hex(uint32_t c, char out[7])
{
    snprintf(out, 7, "%06X", (unsigned)(c & 0xFFFFFF));
}
