/* xml.c: the XML writer. It writes markup straight into the caller's
 * qr_buf, sanitising every string on the way.
 *
 * It began as a layer over libxml2's xmlTextWriter and writes exactly the
 * bytes that did (the same escaping: & < > " and CR as &#13; in text; & < >
 * " tab LF CR in attribute values; <a/> for empty elements), but without its
 * per-call costs (a malloc'd copy of every name and escaped string, a linked
 * list of open elements, a second buffer): a 1.6 MB document.xml was spending
 * more time in the writer than in building it. Open element names are kept
 * on one stack buffer. */
#include "xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h" /* qr_fmt_double */

struct qr_xml {
    qr_buf *out;
    qr_status status;
    int open;       /* a start tag is still open: ">" or "/>" to come */
    char *names;    /* open element names, each NUL-terminated, innermost last */
    size_t names_len, names_cap;
    size_t *tops;   /* offset of each open name in names */
    size_t depth, tops_cap;
};

qr_xml *qr_xml_new(qr_buf *out)
{
    qr_xml *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->out = out;
    return x;
}

qr_status qr_xml_status(const qr_xml *x)
{
    return x->status;
}

static void set_fail(qr_xml *x, qr_status st)
{
    if (x->status == QR_OK) x->status = qr_fail(st);
}

/* After an append: record running out of memory. */
static void check_out(qr_xml *x)
{
    if (x->out->oom) set_fail(x, QR_E_NOMEM);
}

qr_status qr_xml_free(qr_xml *x)
{
    if (!x) return QR_OK;
    qr_status st = x->status;
    if (st == QR_OK && x->out->oom) st = QR_E_NOMEM;
    free(x->names);
    free(x->tops);
    free(x);
    return st;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes) and its code
 * point, or 0 when the bytes are not valid UTF-8. */
static size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
    unsigned c = s[0];
    size_t len;
    unsigned v;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) len = 2, v = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) len = 3, v = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) len = 4, v = c & 0x07;
    else return 0;
    if (len > n) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if ((len == 3 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF))) ||
        (len == 4 && (v < 0x10000 || v > 0x10FFFF)))
        return 0;
    *cp = v;
    return len;
}

static int xml_legal(unsigned cp)
{
    if (cp < 0x20) return cp == 0x9 || cp == 0xA || cp == 0xD;
    return cp != 0xFFFE && cp != 0xFFFF;
}

static const char replacement[] = "\xEF\xBF\xBD";

/* Append text to b with illegal characters replaced and, when escape is
 * set, markup characters escaped. */
/* Modes of sanitise(): what to escape besides replacing illegal characters. */
enum { ESC_NONE, ESC_MARKUP = 1, ESC_ATTR = 2, ESC_QUOTE = 4 };

static int sanitise_mode(qr_buf *b, const char *text, size_t len, int mode);

static int sanitise(qr_buf *b, const char *text, size_t len, int escape, int attr)
{
    return sanitise_mode(b, text, len, escape ? (ESC_MARKUP | (attr ? ESC_ATTR | ESC_QUOTE : 0)) : 0);
}

/* Text content as xmlTextWriter wrote it: & < > " escaped, CR as &#13;. */
static int sanitise_text(qr_buf *b, const char *text, size_t len)
{
    return sanitise_mode(b, text, len, ESC_MARKUP | ESC_QUOTE);
}

static int sanitise_mode(qr_buf *b, const char *text, size_t len, int mode)
{
    int escape = mode & ESC_MARKUP, attr = mode & ESC_ATTR, quote = mode & ESC_QUOTE;
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0; /* run: start of the pending clean bytes */
    while (i < len) {
        unsigned char c = s[i];
        const char *rep = NULL;
        size_t adv = 1;
        if (c >= 0x20 && c < 0x80) {
            if (escape) {
                if (c == '&') rep = "&amp;";
                else if (c == '<') rep = "&lt;";
                else if (c == '>') rep = "&gt;";
                else if (quote && c == '"') rep = "&quot;";
            }
        } else if (c < 0x20) {
            if (c == '\t' || c == '\n') {
                if (escape && attr) rep = c == '\t' ? "&#9;" : "&#10;";
            } else if (c == '\r') {
                if (escape) rep = "&#13;";
            } else {
                rep = replacement;
            }
        } else {
            unsigned cp;
            adv = utf8_decode(s + i, len - i, &cp);
            if (adv == 0) {
                adv = 1;
                rep = replacement;
            } else if (!xml_legal(cp)) {
                rep = replacement;
            }
        }
        if (rep) {
            if (qr_buf_append(b, s + run, i - run) || qr_buf_puts(b, rep)) return -1;
            i += adv;
            run = i;
        } else {
            i += adv;
        }
    }
    return qr_buf_append(b, s + run, len - run);
}

int qr_xml_escape(qr_buf *b, const char *text, size_t len, int attr)
{
    return sanitise(b, text, len, 1, attr);
}

int qr_xml_needs_preserve(const char *t, size_t n)
{
    if (n == 0) return 0;
    if (t[0] == ' ' || t[n - 1] == ' ') return 1;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '\t' || t[i] == '\n' || t[i] == '\r') return 1;
        if (t[i] == ' ' && i + 1 < n && t[i + 1] == ' ') return 1;
    }
    return 0;
}

/* Close a pending start tag with ">" before content. */
static void close_start(qr_xml *x)
{
    if (x->open) {
        qr_buf_putc(x->out, '>');
        x->open = 0;
    }
}

void qr_xml_decl(qr_xml *x)
{
    if (x->status) return;
    if (x->depth > 0) { /* inside an element */
        set_fail(x, QR_E_RENDER);
        return;
    }
    qr_buf_puts(x->out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n");
    check_out(x);
}

void qr_xml_start(qr_xml *x, const char *name)
{
    if (x->status) return;
    size_t n = strlen(name);
    if (x->depth == x->tops_cap) {
        size_t cap = x->tops_cap ? x->tops_cap * 2 : 32;
        size_t *t = realloc(x->tops, cap * sizeof *t);
        if (!t) {
            set_fail(x, QR_E_NOMEM);
            return;
        }
        x->tops = t;
        x->tops_cap = cap;
    }
    if (x->names_len + n + 1 > x->names_cap) {
        size_t cap = x->names_cap ? x->names_cap : 256;
        while (cap < x->names_len + n + 1) cap *= 2;
        char *nm = realloc(x->names, cap);
        if (!nm) {
            set_fail(x, QR_E_NOMEM);
            return;
        }
        x->names = nm;
        x->names_cap = cap;
    }
    x->tops[x->depth++] = x->names_len;
    memcpy(x->names + x->names_len, name, n + 1);
    x->names_len += n + 1;
    close_start(x);
    char *p = qr_buf_reserve(x->out, n + 1);
    if (!p) {
        check_out(x);
        return;
    }
    p[0] = '<';
    memcpy(p + 1, name, n);
    x->out->len += n + 1;
    x->out->data[x->out->len] = '\0';
    x->open = 1;
}

/* name="value" with value already sanitised and escaped by esc. */
static void attr_raw(qr_xml *x, const char *name, const char *value, size_t len, int esc)
{
    if (x->status) return;
    if (!x->open) { /* an attribute outside a start tag */
        set_fail(x, QR_E_RENDER);
        return;
    }
    qr_buf *b = x->out;
    qr_buf_putc(b, ' ');
    qr_buf_puts(b, name);
    qr_buf_append(b, "=\"", 2);
    if (esc) sanitise_mode(b, value, len, ESC_MARKUP | ESC_ATTR | ESC_QUOTE);
    else qr_buf_append(b, value, len);
    qr_buf_putc(b, '"');
    check_out(x);
}

void qr_xml_attr(qr_xml *x, const char *name, const char *value)
{
    attr_raw(x, name, value, strlen(value), 1);
}

void qr_xml_attr_int(qr_xml *x, const char *name, long long value)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", value);
    attr_raw(x, name, buf, (size_t)n, 0);
}

void qr_xml_attr_num(qr_xml *x, const char *name, double value)
{
    char buf[32];
    qr_fmt_double(value, buf);
    attr_raw(x, name, buf, strlen(buf), 0);
}

void qr_xml_text(qr_xml *x, const char *text, size_t len)
{
    if (x->status || len == 0) return;
    close_start(x);
    sanitise_text(x->out, text, len);
    check_out(x);
}

void qr_xml_text_str(qr_xml *x, const char *text)
{
    qr_xml_text(x, text, strlen(text));
}

void qr_xml_end(qr_xml *x)
{
    if (x->status) return;
    if (x->depth == 0) {
        set_fail(x, QR_E_RENDER);
        return;
    }
    size_t top = x->tops[--x->depth];
    const char *name = x->names + top;
    size_t n = x->names_len - top - 1;
    if (x->open) {
        qr_buf_append(x->out, "/>", 2);
        x->open = 0;
    } else {
        char *p = qr_buf_reserve(x->out, n + 3);
        if (p) {
            p[0] = '<';
            p[1] = '/';
            memcpy(p + 2, name, n);
            p[n + 2] = '>';
            x->out->len += n + 3;
            x->out->data[x->out->len] = '\0';
        }
    }
    x->names_len = top;
    check_out(x);
}

void qr_xml_leaf(qr_xml *x, const char *name, ...)
{
    qr_xml_start(x, name);
    va_list ap;
    va_start(ap, name);
    const char *an;
    while ((an = va_arg(ap, const char *)) != NULL) {
        const char *av = va_arg(ap, const char *);
        qr_xml_attr(x, an, av);
    }
    va_end(ap);
    qr_xml_end(x);
}

void qr_xml_elem_text(qr_xml *x, const char *name, const char *text)
{
    qr_xml_start(x, name);
    qr_xml_text_str(x, text);
    qr_xml_end(x);
}

void qr_xml_raw(qr_xml *x, const char *markup, size_t len)
{
    if (x->status || len == 0) return;
    if (len > 0x7fffffff) {
        x->status = qr_fail(QR_E_LIMIT);
        return;
    }
    close_start(x);
    qr_buf_append(x->out, markup, len);
    check_out(x);
}
