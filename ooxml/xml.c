/* xml.c: the XML writer, a thin layer over libxml2's xmlTextWriter that
 * sanitises every string before it reaches the writer. */
#include "xml.h"

#include <libxml/parser.h>
#include <libxml/xmlwriter.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h" /* qr_fmt_double */
#include "text.h"
#include "utf8.h"

struct qr_xml {
    xmlTextWriterPtr w;
    qr_buf *out;
    qr_buf scratch; /* sanitised copies */
    qr_status status;
};

static int out_write(void *ctx, const char *data, int len)
{
    qr_buf *b = ctx;
    return qr_buf_append(b, data, (size_t)len) == 0 ? len : -1;
}

static int out_close(void *ctx)
{
    (void)ctx;
    return 0;
}

/* libxml2 sets up its global state (mutexes, per-thread storage) lazily and
 * without a lock unless xmlInitParser() ran first: threads that write
 * their first XML at once race there (ThreadSanitizer, test_threads). */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

qr_xml *qr_xml_new(qr_buf *out)
{
    pthread_once(&xml_once, xmlInitParser);
    qr_xml *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    xmlOutputBufferPtr ob = xmlOutputBufferCreateIO(out_write, out_close, out, NULL);
    if (!ob) {
        free(x);
        return NULL;
    }
    x->w = xmlNewTextWriter(ob); /* owns ob from here on */
    if (!x->w) {
        xmlOutputBufferClose(ob);
        free(x);
        return NULL;
    }
    x->out = out;
    return x;
}

qr_status qr_xml_status(const qr_xml *x)
{
    return x->status;
}

static void check(qr_xml *x, int rc)
{
    if (rc < 0 && x->status == QR_OK) x->status = qr_fail(x->out->oom ? QR_E_NOMEM : QR_E_RENDER);
}

qr_status qr_xml_free(qr_xml *x)
{
    if (!x) return QR_OK;
    if (x->status == QR_OK) check(x, xmlTextWriterFlush(x->w));
    xmlFreeTextWriter(x->w);
    qr_buf_free(&x->scratch);
    qr_status st = x->status;
    if (st == QR_OK && x->out->oom) st = QR_E_NOMEM;
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

/* A sanitised (not escaped: the writer escapes) NUL-terminated copy. */
static const xmlChar *clean(qr_xml *x, const char *text, size_t len)
{
    x->scratch.len = 0;
    if (sanitise(&x->scratch, text, len, 0, 0) != 0 || qr_buf_append(&x->scratch, "", 0) != 0) {
        if (x->status == QR_OK) x->status = qr_fail(QR_E_NOMEM);
        return NULL;
    }
    return (const xmlChar *)x->scratch.data;
}

void qr_xml_decl(qr_xml *x)
{
    if (x->status) return;
    check(x, xmlTextWriterStartDocument(x->w, "1.0", "UTF-8", "yes"));
}

void qr_xml_start(qr_xml *x, const char *name)
{
    if (x->status) return;
    check(x, xmlTextWriterStartElement(x->w, (const xmlChar *)name));
}

void qr_xml_attr(qr_xml *x, const char *name, const char *value)
{
    if (x->status) return;
    const xmlChar *v = clean(x, value, strlen(value));
    if (v) check(x, xmlTextWriterWriteAttribute(x->w, (const xmlChar *)name, v));
}

void qr_xml_attr_int(qr_xml *x, const char *name, long long value)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", value);
    if (x->status) return;
    check(x, xmlTextWriterWriteAttribute(x->w, (const xmlChar *)name, (const xmlChar *)buf));
}

void qr_xml_attr_num(qr_xml *x, const char *name, double value)
{
    char buf[32];
    qr_fmt_double(value, buf);
    if (x->status) return;
    check(x, xmlTextWriterWriteAttribute(x->w, (const xmlChar *)name, (const xmlChar *)buf));
}

void qr_xml_text(qr_xml *x, const char *text, size_t len)
{
    if (x->status || len == 0) return;
    const xmlChar *v = clean(x, text, len);
    if (v) check(x, xmlTextWriterWriteString(x->w, v));
}

void qr_xml_text_str(qr_xml *x, const char *text)
{
    qr_xml_text(x, text, strlen(text));
}

void qr_xml_end(qr_xml *x)
{
    if (x->status) return;
    check(x, xmlTextWriterEndElement(x->w));
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
    check(x, xmlTextWriterWriteRawLen(x->w, (const xmlChar *)markup, (int)len));
}
