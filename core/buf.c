/* buf.c: growable buffers, JSON string escaping into them, and sinks. */
#include "buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

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

void qr_buf_json_chars(qr_buf *b, const char *s, size_t n, int flags)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = (const unsigned char *)s;
    int sanitize = flags & QR_JSON_SANITIZE; /* then DEL and non-ASCII bytes need a look */
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = u[i];
        if (c >= 0x20 && c != '"' && c != '\\' && (c < 0x7F || !sanitize)) continue;
        if (c >= 0x80) { /* QR_JSON_SANITIZE: valid UTF-8 stays, a bad byte is U+FFFD */
            uint32_t cp;
            size_t l = qr_utf8_decode(u + i, n - i, &cp);
            if (l) {
                i += l - 1;
                continue;
            }
        }
        qr_buf_append(b, s + start, i - start);
        start = i + 1;
        char esc[7] = {'\\', 0};
        switch (c) {
        case '"':
        case '\\':
            esc[1] = (char)c;
            break;
        case '\n':
            esc[1] = 'n';
            break;
        case '\r':
            esc[1] = 'r';
            break;
        case '\t':
            esc[1] = 't';
            break;
        case '\b':
            esc[1] = 'b';
            break;
        case '\f':
            esc[1] = 'f';
            break;
        default:
            if (c >= 0x80) {
                qr_buf_puts(b, "\xEF\xBF\xBD");
                continue;
            }
            memcpy(esc, "\\u00", 4);
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            qr_buf_append(b, esc, 6);
            continue;
        }
        qr_buf_append(b, esc, 2);
    }
    qr_buf_append(b, s + start, n - start);
}

void qr_buf_json_str(qr_buf *b, const char *s, size_t n, int flags)
{
    qr_buf_putc(b, '"');
    qr_buf_json_chars(b, s, n, flags);
    qr_buf_putc(b, '"');
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
