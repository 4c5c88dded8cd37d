/* json.c: the JSON a reader writes (numbers, table widths; strings are
 * core/buf.c's qr_buf_json_str) and the runs of one paragraph, merged so
 * that the pieces a writer split a run into (one per script or font) come
 * back as the one run they were. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile.h"
#include "read_int.h"

void qr_rd_jnum(qr_buf *b, double v)
{
    char num[32];
    qr_fmt_double(v, num);
    qr_buf_puts(b, num);
}

void qr_rd_put_widths(qr_buf *b, const double *grid, size_t n, double min)
{
    qr_buf_puts(b, ",\"widths\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) qr_buf_putc(b, ',');
        qr_rd_jnum(b, round(grid[i] / min * 100) / 100);
    }
    qr_buf_putc(b, ']');
}

static int same_flags(const qr_rd_run *a, const qr_rd_run *b)
{
    return a->bold == b->bold && a->italic == b->italic && a->underline == b->underline &&
           a->strike == b->strike && a->code == b->code && a->sup == b->sup && a->sub == b->sub &&
           a->color == b->color && a->highlight == b->highlight &&
           (a->link == b->link || (a->link && b->link && strcmp(a->link, b->link) == 0));
}

void qr_rd_runs_add(qr_rd_runs *rs, const char *s, size_t n, const qr_rd_run *f)
{
    if (n == 0) return;
    if (rs->n && !rs->items[rs->n - 1].raw && !f->raw && same_flags(&rs->items[rs->n - 1], f)) {
        qr_buf_append(&rs->items[rs->n - 1].text, s, n);
        return;
    }
    if (rs->n == rs->cap) {
        size_t cap = rs->cap ? rs->cap * 2 : 8;
        qr_rd_run *ni = realloc(rs->items, cap * sizeof *ni);
        if (!ni) return;
        memset(ni + rs->cap, 0, (cap - rs->cap) * sizeof *ni);
        rs->items = ni;
        rs->cap = cap;
    }
    qr_rd_run *r = &rs->items[rs->n++];
    qr_buf keep = r->text; /* reuse the buffer of an earlier paragraph */
    keep.len = 0;
    if (keep.data) keep.data[0] = '\0';
    *r = *f;
    r->text = keep;
    r->link = f->link ? strdup(f->link) : NULL;
    r->raw = NULL;
    qr_buf_append(&r->text, s, n);
}

void qr_rd_runs_raw(qr_rd_runs *rs, const char *json)
{
    qr_rd_run f = {0};
    f.raw = (char *)json; /* never merged: a run of its own */
    size_t before = rs->n;
    qr_rd_runs_add(rs, "", 1, &f); /* its one byte is dropped below */
    if (rs->n != before + 1) return;
    qr_rd_run *r = &rs->items[rs->n - 1];
    r->text.len = 0;
    r->text.data[0] = '\0';
    r->raw = strdup(json);
}

int qr_rd_runs_empty(const qr_rd_runs *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        if (rs->items[i].text.len || rs->items[i].raw) return 0;
    return 1;
}

void qr_rd_runs_plain(const qr_rd_runs *rs, qr_buf *b)
{
    for (size_t i = 0; i < rs->n; i++)
        qr_buf_append(b, rs->items[i].text.data, rs->items[i].text.len);
}

static int plain(const qr_rd_run *r)
{
    return !r->bold && !r->italic && !r->underline && !r->strike && !r->code && !r->sup &&
           !r->sub && !r->color && !r->highlight && !r->link && !r->raw;
}

void qr_rd_runs_json(const qr_rd_runs *rs, qr_buf *b)
{
    if (rs->n == 0 || (rs->n == 1 && plain(&rs->items[0]))) {
        qr_buf_puts(b, "\"text\":");
        if (rs->n)
            qr_buf_json_str(b, rs->items[0].text.data, rs->items[0].text.len, 0);
        else
            qr_buf_puts(b, "\"\"");
        return;
    }
    qr_buf_puts(b, "\"runs\":[");
    for (size_t i = 0; i < rs->n; i++) {
        const qr_rd_run *r = &rs->items[i];
        if (i) qr_buf_putc(b, ',');
        if (r->raw) {
            qr_buf_puts(b, r->raw);
            continue;
        }
        if (plain(r)) {
            qr_buf_json_str(b, r->text.data, r->text.len, 0);
            continue;
        }
        qr_buf_puts(b, "{\"text\":");
        qr_buf_json_str(b, r->text.data, r->text.len, 0);
        if (r->bold) qr_buf_puts(b, ",\"bold\":true");
        if (r->italic) qr_buf_puts(b, ",\"italic\":true");
        if (r->underline) qr_buf_puts(b, ",\"underline\":true");
        if (r->strike) qr_buf_puts(b, ",\"strike\":true");
        if (r->code) qr_buf_puts(b, ",\"code\":true");
        if (r->sup) qr_buf_puts(b, ",\"sup\":true");
        if (r->sub) qr_buf_puts(b, ",\"sub\":true");
        if (r->color) qr_buf_printf(b, ",\"color\":\"#%06X\"", (unsigned)(r->color & 0xFFFFFF));
        if (r->highlight)
            qr_buf_printf(b, ",\"highlight\":\"#%06X\"", (unsigned)(r->highlight & 0xFFFFFF));
        if (r->link) {
            qr_buf_puts(b, ",\"link\":");
            qr_buf_json_str(b, r->link, strlen(r->link), 0);
        }
        qr_buf_putc(b, '}');
    }
    qr_buf_putc(b, ']');
}

void qr_rd_runs_reset(qr_rd_runs *rs)
{
    for (size_t i = 0; i < rs->n; i++) {
        free(rs->items[i].link);
        rs->items[i].link = NULL;
        free(rs->items[i].raw);
        rs->items[i].raw = NULL;
        rs->items[i].text.len = 0;
    }
    rs->n = 0;
}

void qr_rd_runs_free(qr_rd_runs *rs)
{
    qr_rd_runs_reset(rs);
    for (size_t i = 0; i < rs->cap; i++)
        qr_buf_free(&rs->items[i].text);
    free(rs->items);
    memset(rs, 0, sizeof *rs);
}

int qr_rd_mono_font(const char *f)
{
    static const char *const names[] = {"courier",     "consolas",    "mono",      "menlo",
                                        "monaco",      "source code", "fira code", "lucida console",
                                        "inconsolata", NULL};
    if (!f) return 0;
    char low[128];
    size_t n = 0;
    for (; f[n] && n + 1 < sizeof low; n++)
        low[n] = (char)((f[n] >= 'A' && f[n] <= 'Z') ? f[n] + 32 : f[n]);
    low[n] = '\0';
    for (int i = 0; names[i]; i++)
        if (strstr(low, names[i])) return 1;
    return 0;
}
