/* buf.c: growable buffers and sinks. */
#include "buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *qr_buf_reserve(qr_buf *b, size_t n)
{
    if (b->oom) return NULL;
    if (n > SIZE_MAX - b->len - 1) goto oom;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) {
            if (cap > SIZE_MAX / 2) goto oom;
            cap *= 2;
        }
        char *d = realloc(b->data, cap);
        if (!d) goto oom;
        b->data = d;
        b->cap = cap;
    }
    return b->data + b->len;
oom:
    b->oom = 1;
    return NULL;
}

int qr_buf_append(qr_buf *b, const void *data, size_t n)
{
    char *p = qr_buf_reserve(b, n);
    if (!p) return -1;
    if (n) memcpy(p, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int qr_buf_puts(qr_buf *b, const char *s)
{
    return qr_buf_append(b, s, strlen(s));
}

int qr_buf_putc(qr_buf *b, char c)
{
    return qr_buf_append(b, &c, 1);
}

int qr_buf_printf(qr_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return -1;
    if ((size_t)n < sizeof small) return qr_buf_append(b, small, (size_t)n);
    char *p = qr_buf_reserve(b, (size_t)n);
    if (!p) return -1;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

char *qr_buf_steal(qr_buf *b, size_t *len)
{
    char *d = b->data;
    if (len) *len = b->len;
    if (!d) d = calloc(1, 1);
    b->data = NULL;
    b->len = b->cap = 0;
    return d;
}

void qr_buf_free(qr_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

qr_status qr_sink_write(qr_sink *s, const void *data, size_t n)
{
    if (s->status != QR_OK || n == 0) return s->status;
    if (s->limit && (s->bytes + n > s->limit || s->bytes + n < s->bytes)) {
        s->status = qr_fail(QR_E_LIMIT);
        return s->status;
    }
    qr_status st = s->write(s->closure, data, n);
    if (st != QR_OK) {
        s->status = qr_fail(st);
        return st;
    }
    s->bytes += n;
    return QR_OK;
}

static qr_status buf_write(void *closure, const void *data, size_t n)
{
    return qr_buf_append(closure, data, n) == 0 ? QR_OK : QR_E_NOMEM;
}

void qr_sink_init_buf(qr_sink *s, qr_buf *b)
{
    memset(s, 0, sizeof *s);
    s->write = buf_write;
    s->closure = b;
}
