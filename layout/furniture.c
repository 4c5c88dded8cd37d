/* furniture.c: the header and footer templates of a document's pages
 * (furniture.h): which template a page shows, and its pieces and text. */
#include "furniture.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"

const char *qr_furniture_template(const qr_doc *doc, const qr_style *st, int which, qr_buf *buf)
{
    const char *t = which == QR_FURN_HEADER ? doc->page.header : doc->page.footer;
    if (t) return *t ? t : NULL;
    if (which == QR_FURN_HEADER || !buf) return NULL;
    /* the house footer: "{page} / {pages}" with the theme's separator */
    buf->len = 0;
    qr_buf_puts(buf, "{page}");
    qr_buf_puts(buf, st->footer_sep);
    qr_buf_puts(buf, "{pages}");
    if (qr_buf_putc(buf, '\0') != 0 || buf->oom) return NULL;
    return buf->data;
}

int qr_furniture_on_page(const qr_doc *doc, size_t p)
{
    return p > 0 || !doc->page.no_first;
}

/* The field "{name}" at s (s[0] == '{'): its index in qr_page_fields (tree.h)
 * and its length through '}', or -1. */
static int field_at(const char *s, size_t *len)
{
    for (int i = 0; qr_page_fields[i]; i++) {
        size_t n = strlen(qr_page_fields[i]);
        if (!strncmp(s + 1, qr_page_fields[i], n) && s[n + 1] == '}') {
            *len = n + 2;
            return i;
        }
    }
    return -1;
}

int qr_furniture_pieces(const qr_doc *doc, const char *tpl, long long epoch,
                        int (*fn)(void *ud, qr_furn_piece kind, const char *s, size_t n), void *ud)
{
    qr_buf text = {0};
    char date[32];
    if (doc->prop_date) {
        snprintf(date, sizeof date, "%.10s", doc->prop_date);
    } else {
        qr_format_epoch(epoch, date, sizeof date);
        date[10] = '\0';
    }
    int rc = 0;
    for (const char *s = tpl; *s && !rc;) {
        size_t len = 0;
        int f = *s == '{' ? field_at(s, &len) : -1;
        if (f < 0) {
            qr_buf_putc(&text, *s++);
            continue;
        }
        s += len;
        if (f == 2)
            qr_buf_append(&text, qr_plain(&doc->title), qr_plain_len(&doc->title));
        else if (f == 3)
            qr_buf_puts(&text, date);
        else {
            if (text.oom) break;
            if (text.len) rc = fn(ud, QR_FURN_TEXT, text.data, text.len);
            text.len = 0;
            if (!rc) rc = fn(ud, f == 0 ? QR_FURN_PAGE : QR_FURN_PAGES, NULL, 0);
        }
    }
    if (text.oom) rc = -1;
    if (!rc && text.len) rc = fn(ud, QR_FURN_TEXT, text.data, text.len);
    qr_buf_free(&text);
    return rc;
}

typedef struct expand {
    qr_buf *out;
    size_t page, pages;
} expand;

static int expanded(void *ud, qr_furn_piece kind, const char *s, size_t n)
{
    expand *e = ud;
    if (kind == QR_FURN_TEXT) return qr_buf_append(e->out, s, n) != 0 ? -1 : 0;
    char num[32];
    snprintf(num, sizeof num, "%zu", kind == QR_FURN_PAGE ? e->page : e->pages);
    return qr_buf_puts(e->out, num) != 0 ? -1 : 0;
}

int qr_furniture_text(const qr_doc *doc, const char *tpl, long long epoch, size_t page,
                      size_t pages, qr_buf *out)
{
    expand e = {out, page, pages};
    int rc = qr_furniture_pieces(doc, tpl, epoch, expanded, &e);
    return rc || out->oom ? -1 : 0;
}
