/* style_rules.c: the house rules of style.h (list labels, empty tables). */
#include <stdio.h>
#include <string.h>

#include "style.h"

qr_label_format qr_look_label_format(int ordered, int depth)
{
    static const qr_label_format cycle[3] = {QR_LABEL_DECIMAL, QR_LABEL_LOWER_ALPHA,
                                             QR_LABEL_LOWER_ROMAN};
    if (!ordered) return QR_LABEL_BULLET;
    return cycle[(depth < 0 ? 0 : depth) % 3];
}

const char *qr_look_bullet(int depth)
{
    static const char *const bullets[3] = {"\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA"};
    return bullets[(depth < 0 ? 0 : depth) % 3];
}

double qr_look_image_width(const qr_image *im, double natural, double column, double pt_unit)
{
    double w = natural;
    if (im->width_pct > 0)
        w = column * im->width_pct / 100.0;
    else if (im->width_pt > 0)
        w = im->width_pt * pt_unit;
    return w > column ? column : w;
}

const char *qr_look_task(int done)
{
    return done ? "\xE2\x98\x91" : "\xE2\x98\x90";
}

static void roman(unsigned n, char *out)
{
    static const struct {
        unsigned v;
        const char *s;
    } t[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"}, {90, "xc"}, {50, "l"},
             {40, "xl"},  {10, "x"},   {9, "ix"},  {5, "v"},    {4, "iv"},  {1, "i"}};
    out[0] = '\0';
    if (n == 0 || n > 3999) {
        snprintf(out, 16, "%u", n);
        return;
    }
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        while (n >= t[i].v) {
            strcat(out, t[i].s);
            n -= t[i].v;
        }
}

/* a..z, aa..az, ... (spreadsheet-style, as Word and browsers count) */
static void alpha(unsigned n, char *out)
{
    char tmp[16];
    int k = 0;
    while (n > 0 && k < 15) {
        n--;
        tmp[k++] = (char)('a' + n % 26);
        n /= 26;
    }
    for (int i = 0; i < k; i++)
        out[i] = tmp[k - 1 - i];
    out[k] = '\0';
}

void qr_look_label(int ordered, int depth, unsigned n, char *out)
{
    char num[24];
    switch (qr_look_label_format(ordered, depth)) {
    case QR_LABEL_BULLET:
        strcpy(out, qr_look_bullet(depth));
        return;
    case QR_LABEL_DECIMAL:
        snprintf(num, sizeof num, "%u", n);
        break;
    case QR_LABEL_LOWER_ALPHA:
        alpha(n, num);
        break;
    case QR_LABEL_LOWER_ROMAN:
        roman(n, num);
        break;
    }
    snprintf(out, 32, "%s.", num);
}

int qr_look_table_skipped(const qr_table *t)
{
    return !t->headers && t->n_rows == 0;
}
