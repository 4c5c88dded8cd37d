/* kind_sniff.c: a spec's kind from its top-level keys (kind_sniff.h). A
 * small scanner over the JSON text, not a parser: it skips values by
 * bracket depth and strings, and leaves every error to the compiler. */
#include "kind_sniff.h"

#include <stdlib.h>
#include <string.h>

enum { MORE = -1 };

static size_t skip_ws(const char *s, size_t n, size_t i)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    return i;
}

/* Past the string starting at s[i] == '"'; 0 when it does not end in n. */
static size_t skip_string(const char *s, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '"')
            return i + 1;
    }
    return 0;
}

/* Past the value at s[i]; 0 when it does not end in n. */
static size_t skip_value(const char *s, size_t n, size_t i)
{
    if (s[i] == '"') return skip_string(s, n, i);
    if (s[i] == '{' || s[i] == '[') {
        size_t depth = 0;
        while (i < n) {
            if (s[i] == '"') {
                if (!(i = skip_string(s, n, i))) return 0;
                continue;
            }
            if (s[i] == '{' || s[i] == '[') depth++;
            if ((s[i] == '}' || s[i] == ']') && --depth == 0) return i + 1;
            i++;
        }
        return 0;
    }
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' &&
           s[i] != '\t' && s[i] != '\r')
        i++;
    return i < n ? i : 0;
}

static int key_is(const char *s, size_t len, const char *k)
{
    return strlen(k) == len && memcmp(s, k, len) == 0;
}

/* The kind, or MORE when s[0..n) ends before it is known. *resume: where the
 * next member starts (0 at first), kept between calls. */
static int scan(const char *s, size_t n, size_t *resume)
{
    size_t i = *resume;
    if (i == 0) {
        i = skip_ws(s, n, 0);
        if (i == n) return MORE;
        if (s[i] != '{') return QR_KIND_PDF;
        *resume = ++i;
    }
    for (;;) {
        i = skip_ws(s, n, i);
        if (i == n) return MORE;
        if (s[i] != '"') return QR_KIND_PDF; /* '}' or not JSON: the compiler says */
        size_t end = skip_string(s, n, i);
        if (!end) return MORE;
        const char *key = s + i + 1;
        size_t klen = end - i - 2;
        if (key_is(key, klen, "slides")) return QR_KIND_PRESENTATION;
        if (key_is(key, klen, "sheets")) return QR_KIND_SPREADSHEET;
        if (key_is(key, klen, "blocks") || key_is(key, klen, "sections") ||
            key_is(key, klen, "page"))
            return QR_KIND_PDF;
        i = skip_ws(s, n, end);
        if (i == n) return MORE;
        if (s[i] != ':') return QR_KIND_PDF;
        i = skip_ws(s, n, i + 1);
        if (i == n) return MORE;
        if (!(i = skip_value(s, n, i))) return MORE;
        i = skip_ws(s, n, i);
        if (i == n) return MORE;
        if (s[i] != ',') return QR_KIND_PDF;
        *resume = ++i;
    }
}

qr_kind qr_kind_sniff(const char *s, size_t n)
{
    size_t resume = 0;
    int k = scan(s, n, &resume);
    return k == MORE ? QR_KIND_PDF : (qr_kind)k;
}

qr_kind qr_sniff_reader_open(qr_sniff_reader *r, qr_read_fn read, void *ctx)
{
    memset(r, 0, sizeof *r);
    r->read = read;
    r->ctx = ctx;
    size_t resume = 0;
    for (;;) {
        if (r->cap - r->len < 65536) {
            size_t cap = r->cap ? r->cap * 2 : 65536 * 2;
            char *nb = realloc(r->buf, cap);
            if (!nb) return QR_KIND_PDF; /* the compiler reads on from here */
            r->buf = nb;
            r->cap = cap;
        }
        size_t got = read(ctx, r->buf + r->len, r->cap - r->len);
        if (got == (size_t)-1) {
            r->failed = 1;
            return QR_KIND_PDF;
        }
        if (got == 0) return qr_kind_sniff(r->buf, r->len);
        r->len += got;
        int k = scan(r->buf, r->len, &resume);
        if (k != MORE) return (qr_kind)k;
    }
}

size_t qr_sniff_read(void *ctx, char *out, size_t size)
{
    qr_sniff_reader *r = ctx;
    if (r->pos < r->len) {
        size_t n = r->len - r->pos < size ? r->len - r->pos : size;
        memcpy(out, r->buf + r->pos, n);
        r->pos += n;
        return n;
    }
    if (r->failed) return (size_t)-1;
    return r->read(r->ctx, out, size);
}

void qr_sniff_reader_free(qr_sniff_reader *r)
{
    free(r->buf);
    r->buf = NULL;
}
