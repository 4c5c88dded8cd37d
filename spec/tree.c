/* tree.c: freeing a compiled document, the allowed link schemes, a theme by
 * name (the names are the schema table's), and the fixed output timestamp. */
#include "tree.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "backend.h"

void qr_doc_free(qr_doc *doc)
{
    if (!doc) return;
    qr_arena arena = doc->arena; /* the doc itself lives in its arena */
    qr_arena_free(&arena);
}

int qr_theme_find(const char *name)
{
    for (int i = 0; name && qr_theme_names[i]; i++)
        if (strcmp(name, qr_theme_names[i]) == 0) return i;
    return -1;
}

int qr_link_ok(const char *url)
{
    return url && (strncasecmp(url, "https:", 6) == 0 || strncasecmp(url, "http:", 5) == 0 ||
                   strncasecmp(url, "mailto:", 7) == 0);
}

void qr_chart_a1(uint32_t row, uint32_t col, int absolute, char *buf)
{
    char letters[8];
    int n = 0;
    uint32_t c = col + 1;
    while (c && n < 7) {
        letters[n++] = (char)('A' + (c - 1) % 26);
        c = (c - 1) / 26;
    }
    size_t k = 0;
    if (absolute) buf[k++] = '$';
    while (n)
        buf[k++] = letters[--n];
    if (absolute) buf[k++] = '$';
    snprintf(buf + k, 16 - k, "%u", row + 1);
}

/* 2026-01-01T00:00:00Z */
#define QR_DEFAULT_EPOCH 1767225600LL

long long qr_output_epoch(void)
{
    const char *s = getenv("SOURCE_DATE_EPOCH");
    if (!s || !*s) return QR_DEFAULT_EPOCH;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    /* Out of range for the formats we write (zip DOS dates start in 1980,
     * W3CDTF years have four digits): use the constant. */
    if (errno || *end || v < 315532800LL || v > 253402300799LL) return QR_DEFAULT_EPOCH;
    return v;
}

const char *const qr_page_fields[] = {"page", "pages", "title", "date", NULL};

void qr_format_epoch(long long epoch, char *buf, size_t size)
{
    time_t t = (time_t)epoch;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- cell looks ------------------------------------------------------------------ */

void qr_cellstyle_merge(qr_cellstyle *b, const qr_cellstyle *o)
{
    unsigned s = o->set;
    if (!s) return;
    if (s & QR_SX_BOLD) b->bold = o->bold;
    if (s & QR_SX_ITALIC) b->italic = o->italic;
    if (s & QR_SX_UNDERLINE) b->underline = o->underline;
    if (s & QR_SX_COLOR) b->color = o->color;
    if (s & QR_SX_FILL) b->fill = o->fill;
    for (int k = 0; k < 4; k++)
        if (s & (QR_SX_BORDER_LEFT << k)) b->border[k] = o->border[k];
    if (s & QR_SX_BORDER_COLOR) b->border_color = o->border_color;
    if (s & QR_SX_ALIGN) b->align = o->align;
    if (s & QR_SX_VALIGN) b->valign = o->valign;
    if (s & QR_SX_WRAP) b->wrap = o->wrap;
    if (s & QR_SX_INDENT) b->indent = o->indent;
    if (s & QR_SX_ROTATE) b->rotate = o->rotate;
    if (s & QR_SX_FORMAT) b->fmt = o->fmt;
    b->set = (uint16_t)(b->set | s);
}

qr_cellstyle qr_sheet_cell_style(const qr_doc *doc, const qr_sheet *sh, size_t r, const qr_row *row,
                                 size_t c, const qr_cell *cell)
{
    qr_cellstyle cs = {0};
    size_t n = doc->n_looks;
    if (n <= 1) return cs;
    if (c < sh->n_col_looks && sh->col_looks[c] && sh->col_looks[c] < n)
        cs = doc->looks[sh->col_looks[c]];
    if (row && row->look && row->look < n) qr_cellstyle_merge(&cs, &doc->looks[row->look]);
    if (sh->header && r == 0 && doc->header_look && doc->header_look < n)
        qr_cellstyle_merge(&cs, &doc->looks[doc->header_look]);
    unsigned lk = cell ? qr_cell_look(cell) : 0;
    if (lk && lk < n) qr_cellstyle_merge(&cs, &doc->looks[lk]);
    return cs;
}
