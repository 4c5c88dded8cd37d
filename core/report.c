/* report.c: the layout report's list (report.h) and the names of its kinds
 * (quire.h's qr_layout_kind_str). */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
    [QR_LAYOUT_SHRINK] = "shrink",
    [QR_LAYOUT_CONTINUED] = "continued",
    [QR_LAYOUT_SMALL_TEXT] = "small_text",
    [QR_LAYOUT_CONTRAST] = "contrast",
    [QR_LAYOUT_IMAGE_UPSCALED] = "image_upscaled",
    [QR_LAYOUT_TABLE_CUT] = "table_cut",
    [QR_LAYOUT_WORD_BROKEN] = "word_broken",
    [QR_LAYOUT_MISSING_GLYPH] = "missing_glyph",
};
_Static_assert(sizeof kind_names / sizeof kind_names[0] == QR_LAYOUT_KIND_COUNT,
               "one name per layout report kind");
_Static_assert(QR_LAYOUT_KIND_COUNT < 32, "strict_layout is a bit set in an unsigned");

const char *qr_layout_kind_str(qr_layout_kind k)
{
    return (unsigned)k < QR_LAYOUT_KIND_COUNT ? kind_names[k] : NULL;
}

int qr_layout_kind_from_str(const char *name, qr_layout_kind *k)
{
    for (int i = 0; name && i < QR_LAYOUT_KIND_COUNT; i++) {
        if (strcmp(name, kind_names[i]) == 0) {
            *k = (qr_layout_kind)i;
            return 0;
        }
    }
    return -1;
}

void qr_layout_add(qr_layout_list *l, qr_layout_kind kind, const char *path, int page, int slide,
                   double value, const char *detail)
{
    if (!l) return;
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        qr_layout_item *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            l->oom = 1;
            return;
        }
        l->items = items;
        l->cap = cap;
    }
    qr_layout_item *it = &l->items[l->count];
    it->kind = kind;
    it->page = page;
    it->slide = slide;
    it->value = value;
    it->path = strdup(path ? path : "");
    it->detail = strdup(detail ? detail : "");
    if (!it->path || !it->detail) {
        free(it->path);
        free(it->detail);
        l->oom = 1;
        return;
    }
    l->count++;
}

void qr_layout_addf(qr_layout_list *l, qr_layout_kind kind, const char *path, int page, int slide,
                    double value, const char *fmt, ...)
{
    if (!l) return;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    qr_layout_add(l, kind, path, page, slide, value, buf);
}

void qr_layout_clear(qr_layout_list *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].path);
        free(l->items[i].detail);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

const char *qr_layout_pct(double v, char *buf)
{
    if (!(v > -1e6 && v < 1e6)) v = 0; /* a percentage: never this large */
    int tenths = (int)(v * 1000.0 + (v >= 0 ? 0.5 : -0.5));
    int a = tenths < 0 ? -tenths : tenths;
    snprintf(buf, 16, "%s%d.%d", tenths < 0 ? "-" : "", a / 10, a % 10);
    return buf;
}
