/* xml.c: the XML writer. It writes straight into the caller's buffer the
 * bytes libxml2's xmlTextWriter wrote for the same calls (which it replaced:
 * the writer's per-call bookkeeping was most of a deck's XML time), so every
 * part stays the same byte for byte:
 *   - <a/> for an element with nothing inside, </a> otherwise;
 *   - attribute values with & < > " escaped, tab, LF and CR as &#9; &#10;
 *     &#13;, and, in a part without the XML declaration, every non-ASCII
 *     character as &#xHEX; (upper-case hex);
 *   - text with & < > " escaped and CR as &#13;.
 * Every string is sanitised first (illegal characters become U+FFFD). */
#include "xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h" /* qr_fmt_double */
#include "text.h"
#include "utf8.h"

struct qr_xml {
    qr_buf *out;
    qr_buf names;   /* the open elements' names, each NUL-terminated */
    size_t *opened; /* offsets into names, innermost last */
    size_t depth, cap;
    int in_tag; /* the innermost start tag is not closed yet ('>' pending) */
    int decl;   /* the XML declaration was written: attributes keep UTF-8 */
    qr_status status;
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

static void fail(qr_xml *x, qr_status st)
{
    if (x->status == QR_OK) x->status = qr_fail(st);
}

/* After appending: an out-of-memory buffer fails the writer. */
static void check_out(qr_xml *x)
{
    if (x->out->oom || x->names.oom) fail(x, QR_E_NOMEM);
}

qr_status qr_xml_free(qr_xml *x)
{
    if (!x) return QR_OK;
    qr_status st = x->status;
    if (st == QR_OK && x->out->oom) st = QR_E_NOMEM;
    qr_buf_free(&x->names);
    free(x->opened);
    free(x);
    return st;
}

static const char replacement[] = "\xEF\xBF\xBD";

/* Append text to b with illegal characters replaced and, when escape is
 * set, markup characters escaped. */
static int sanitise(qr_buf *b, const char *text, size_t len, int escape, int attr)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0; /* run: start of the pending clean bytes */
    while (i < len) {
        unsigned char c = s[i];
        const char *rep = NULL;
        size_t adv = 1;
        if (c >= 0x20 && c < 0x7F) {
            if (escape) {
                if (c == '&')
                    rep = "&amp;";
                else if (c == '<')
                    rep = "&lt;";
                else if (c == '>')
                    rep = "&gt;";
                else if (attr && c == '"')
                    rep = "&quot;";
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
            uint32_t cp;
            adv = qr_utf8_decode(s + i, len - i, &cp);
            if (adv == 0) {
                adv = 1;
                rep = replacement;
            } else if (qr_text_unshown(cp)) { /* text/text.h's one rule (DEL too) */
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

/* Append len bytes of text, sanitised and escaped as the writer's text
 * (attr 0) or attribute values (attr 1), in one pass. */
static void emit(qr_xml *x, const char *text, size_t len, int attr)
{
    qr_buf *b = x->out;
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0; /* run: start of the pending clean bytes */
    int hex = attr && !x->decl;
    while (i < len) {
        unsigned char c = s[i];
        if (c >= 0x20 && c < 0x7F && c != '&' && c != '<' && c != '>' && c != '"') {
            i++;
            continue;
        }
        const char *rep = NULL;
        char ref[16];
        size_t adv = 1;
        if (c < 0x80) {
            switch (c) {
            case '&':
                rep = "&amp;";
                break;
            case '<':
                rep = "&lt;";
                break;
            case '>':
                rep = "&gt;";
                break;
            case '"':
                rep = "&quot;";
                break;
            case '\r':
                rep = "&#13;";
                break;
            case '\t':
                rep = attr ? "&#9;" : NULL;
                break;
            case '\n':
                rep = attr ? "&#10;" : NULL;
                break;
            default: /* the other C0 controls and DEL */
                rep = hex ? "&#xFFFD;" : replacement;
                break;
            }
        } else {
            uint32_t cp;
            adv = qr_utf8_decode(s + i, len - i, &cp);
            if (adv == 0 || qr_text_unshown(cp)) { /* text/text.h's one rule */
                if (adv == 0) adv = 1;
                rep = hex ? "&#xFFFD;" : replacement;
            } else if (hex) {
                snprintf(ref, sizeof ref, "&#x%X;", (unsigned)cp);
                rep = ref;
            }
        }
        if (rep) {
            qr_buf_append(b, s + run, i - run);
            qr_buf_puts(b, rep);
            i += adv;
            run = i;
        } else {
            i += adv;
        }
    }
    qr_buf_append(b, s + run, len - run);
}

/* Close a pending start tag before content. */
static void close_tag(qr_xml *x)
{
    if (x->in_tag) {
        qr_buf_putc(x->out, '>');
        x->in_tag = 0;
    }
}

void qr_xml_decl(qr_xml *x)
{
    if (x->status) return;
    if (x->depth) {
        fail(x, QR_E_RENDER);
        return;
    }
    qr_buf_puts(x->out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n");
    x->decl = 1;
    check_out(x);
}

void qr_xml_start(qr_xml *x, const char *name)
{
    if (x->status) return;
    if (!name || !*name) {
        fail(x, QR_E_RENDER);
        return;
    }
    if (x->depth == x->cap) {
        size_t cap = x->cap ? x->cap * 2 : 16;
        size_t *o = realloc(x->opened, cap * sizeof *o);
        if (!o) {
            fail(x, QR_E_NOMEM);
            return;
        }
        x->opened = o;
        x->cap = cap;
    }
    close_tag(x);
    size_t n = strlen(name);
    x->opened[x->depth++] = x->names.len;
    qr_buf_append(&x->names, name, n + 1);
    qr_buf_putc(x->out, '<');
    qr_buf_append(x->out, name, n);
    x->in_tag = 1;
    check_out(x);
}

/* ' name="' value '"' (value already escaped when raw is set). */
static void attr(qr_xml *x, const char *name, const char *value, size_t len, int raw)
{
    if (x->status) return;
    if (!x->in_tag) { /* an attribute outside a start tag */
        fail(x, QR_E_RENDER);
        return;
    }
    qr_buf_putc(x->out, ' ');
    qr_buf_puts(x->out, name);
    qr_buf_append(x->out, "=\"", 2);
    if (raw)
        qr_buf_append(x->out, value, len);
    else
        emit(x, value, len, 1);
    qr_buf_putc(x->out, '"');
    check_out(x);
}

void qr_xml_attr(qr_xml *x, const char *name, const char *value)
{
    attr(x, name, value, strlen(value), 0);
}

void qr_xml_attr_int(qr_xml *x, const char *name, long long value)
{
    char buf[24], *e = buf + sizeof buf, *p = e; /* "%lld" without printf */
    unsigned long long u = value < 0 ? 0ull - (unsigned long long)value : (unsigned long long)value;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (value < 0) *--p = '-';
    attr(x, name, p, (size_t)(e - p), 1);
}

void qr_xml_attr_num(qr_xml *x, const char *name, double value)
{
    char buf[32];
    qr_fmt_double(value, buf);
    attr(x, name, buf, strlen(buf), 1);
}

void qr_xml_text(qr_xml *x, const char *text, size_t len)
{
    if (x->status || len == 0) return;
    close_tag(x);
    emit(x, text, len, 0);
    check_out(x);
}

void qr_xml_text_str(qr_xml *x, const char *text)
{
    qr_xml_text(x, text, strlen(text));
}

void qr_xml_end(qr_xml *x)
{
    if (x->status) return;
    if (!x->depth) {
        fail(x, QR_E_RENDER);
        return;
    }
    const char *name = x->names.data + x->opened[--x->depth];
    if (x->in_tag) {
        qr_buf_append(x->out, "/>", 2);
        x->in_tag = 0;
    } else {
        qr_buf_append(x->out, "</", 2);
        qr_buf_puts(x->out, name);
        qr_buf_putc(x->out, '>');
    }
    x->names.len = x->opened[x->depth];
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
    close_tag(x);
    qr_buf_append(x->out, markup, len);
    check_out(x);
}
