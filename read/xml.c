/* xml.c: libxml2's streaming reader, set up for hostile input. No network
 * (XML_PARSE_NONET), no entity substitution (no XML_PARSE_NOENT), no DTD
 * loading or validation (no XML_PARSE_DTDLOAD), and a part holding a
 * <!DOCTYPE> is refused outright: Office parts never have one, and refusing
 * it stops XXE and billion-laughs files before any entity is used. Errors
 * are recorded against the part's name, never printed. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/SAX2.h>
#include <libxml/parser.h>

#include "read_int.h"

#define XML_OPTS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA)

/* Errors go nowhere: the reader's return values say enough. */
static void quiet(void *arg, const char *msg, xmlParserSeverities sev, xmlTextReaderLocatorPtr loc)
{
    (void)arg, (void)msg, (void)sev, (void)loc;
}

/* libxml2 sets up its global state (mutexes, per-thread storage) lazily and
 * without a lock unless xmlInitParser() ran first: threads that read their
 * first part at once would race there. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

xmlTextReaderPtr qr_rd_xml_mem(qr_rd *r, const char *data, size_t len, const char *part)
{
    if (len > 0x7fffffff)
        return qr_rd_fail(r, QR_E_LIMIT, part, NULL, "the part %s is over 2 GiB", part), NULL;
    pthread_once(&xml_once, xmlInitParser);
    xmlTextReaderPtr x = xmlReaderForMemory(data, (int)len, part, NULL, XML_OPTS);
    if (!x) {
        qr_rd_fail(r, QR_E_NOMEM, part, NULL, "cannot start reading %s", part);
        return NULL;
    }
    xmlTextReaderSetErrorHandler(x, quiet, NULL);
    return x;
}

xmlTextReaderPtr qr_rd_xml_stream(qr_rd *r, const char *part)
{
    xmlInputReadCallback rd;
    xmlInputCloseCallback cl;
    void *ctx;
    if (qr_rd_xml_io(r, part, &rd, &cl, &ctx) != 0) return NULL;
    pthread_once(&xml_once, xmlInitParser);
    xmlTextReaderPtr x = xmlReaderForIO(rd, cl, ctx, part, NULL, XML_OPTS);
    if (!x) {
        /* xmlReaderForIO closes the input on failure. */
        qr_rd_fail(r, QR_E_NOMEM, part, NULL, "cannot start reading %s", part);
        return NULL;
    }
    xmlTextReaderSetErrorHandler(x, quiet, NULL);
    return x;
}

int qr_rd_xml_next(qr_rd *r, xmlTextReaderPtr x, const char *part)
{
    if (r->errs->count) return -1; /* a cap hit inside the stream */
    int rc = xmlTextReaderRead(x);
    if (r->errs->count) return -1;
    if (rc < 0) {
        qr_rd_fail(r, QR_E_SPEC, part, "the file is damaged, or this part is not XML",
                   "the part %s is not well-formed XML (line %d)", part,
                   xmlTextReaderGetParserLineNumber(x));
        return -1;
    }
    if (rc == 1 && xmlTextReaderNodeType(x) == XML_READER_TYPE_DOCUMENT_TYPE) {
        qr_rd_fail(r, QR_E_SPEC, part, "Office parts never declare a DTD; the file may be hostile",
                   "the part %s has a <!DOCTYPE> (refused: no DTDs or entities)", part);
        return -1;
    }
    return rc;
}

qr_status qr_rd_xml_free(qr_rd *r, xmlTextReaderPtr x)
{
    if (x) xmlFreeTextReader(x);
    return r->errs->count ? r->errs->items[0].code : QR_OK;
}

int qr_rd_is(xmlTextReaderPtr x, const char *local)
{
    const xmlChar *n = xmlTextReaderConstLocalName(x);
    return n && strcmp((const char *)n, local) == 0;
}

char *qr_rd_attr(xmlTextReaderPtr x, const char *local)
{
    if (!xmlTextReaderHasAttributes(x)) return NULL;
    char *v = NULL;
    if (xmlTextReaderMoveToFirstAttribute(x) == 1) {
        do {
            const xmlChar *n = xmlTextReaderConstLocalName(x);
            if (n && strcmp((const char *)n, local) == 0) {
                v = (char *)xmlTextReaderValue(x);
                break;
            }
        } while (xmlTextReaderMoveToNextAttribute(x) == 1);
        xmlTextReaderMoveToElement(x);
    }
    return v;
}

int qr_rd_attr_on(xmlTextReaderPtr x)
{
    char *v = qr_rd_attr(x, "val");
    int on = !v || !(strcmp(v, "0") == 0 || strcmp(v, "false") == 0 || strcmp(v, "off") == 0 ||
                     strcmp(v, "none") == 0);
    xmlFree(v);
    return on;
}

long qr_rd_attr_long(xmlTextReaderPtr x, const char *local, long def)
{
    char *v = qr_rd_attr(x, local);
    if (!v) return def;
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v) n = def;
    xmlFree(v);
    return n;
}

/* ---- SAX streaming, for the big parts (sheets) ------------------------------------ */

typedef struct sax_state {
    qr_rd *r;
    const qr_rd_sax *s;
    const char *part;
    xmlParserCtxtPtr ctxt;
} sax_state;

static void sax_start(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri,
                      int nns, const xmlChar **ns, int nattr, int ndef, const xmlChar **attrs)
{
    (void)prefix, (void)uri, (void)nns, (void)ns, (void)ndef;
    sax_state *st = ((xmlParserCtxtPtr)ctx)->_private;
    st->s->start(st->s->ctx, (const char *)local, nattr, attrs);
}

static void sax_end(void *ctx, const xmlChar *local, const xmlChar *prefix, const xmlChar *uri)
{
    (void)prefix, (void)uri;
    sax_state *st = ((xmlParserCtxtPtr)ctx)->_private;
    st->s->end(st->s->ctx, (const char *)local);
}

static void sax_text(void *ctx, const xmlChar *s, int len)
{
    sax_state *st = ((xmlParserCtxtPtr)ctx)->_private;
    st->s->text(st->s->ctx, (const char *)s, len);
}

static void sax_dtd(void *ctx, const xmlChar *name, const xmlChar *ext, const xmlChar *sys)
{
    (void)name, (void)ext, (void)sys;
    xmlParserCtxtPtr c = ctx;
    sax_state *st = c->_private;
    qr_rd_fail(st->r, QR_E_SPEC, st->part,
               "Office parts never declare a DTD; the file may be hostile",
               "the part %s has a <!DOCTYPE> (refused: no DTDs or entities)", st->part);
    xmlStopParser(c);
}

static void sax_quiet(void *ctx, const char *msg, ...)
{
    (void)ctx, (void)msg;
}

qr_status qr_rd_sax_stream(qr_rd *r, const char *part, const qr_rd_sax *s)
{
    xmlInputReadCallback rd;
    xmlInputCloseCallback cl;
    void *io;
    if (qr_rd_xml_io(r, part, &rd, &cl, &io) != 0) return r->errs->items[0].code;
    xmlSAXHandler h;
    memset(&h, 0, sizeof h);
    h.initialized = XML_SAX2_MAGIC;
    h.startElementNs = sax_start;
    h.endElementNs = sax_end;
    h.characters = sax_text;
    h.cdataBlock = sax_text;
    h.internalSubset = sax_dtd;
    h.error = sax_quiet;
    h.warning = sax_quiet;
    sax_state st = {r, s, part, NULL};
    char buf[65536];
    int n = rd(io, buf, 4);
    xmlParserCtxtPtr c = n >= 0 ? xmlCreatePushParserCtxt(&h, NULL, buf, n, part) : NULL;
    if (!c) {
        cl(io);
        if (!r->errs->count) qr_rd_fail(r, QR_E_NOMEM, part, NULL, "cannot start reading %s", part);
        return r->errs->items[0].code;
    }
    c->_private = &st;
    st.ctxt = c;
    xmlCtxtUseOptions(c, XML_OPTS);
    int failed = 0;
    while (!r->errs->count) {
        n = rd(io, buf, sizeof buf);
        if (n < 0) break;
        if (xmlParseChunk(c, buf, n, n == 0) != 0) {
            failed = 1;
            break;
        }
        if (n == 0) break;
    }
    if ((failed || !c->wellFormed) && !r->errs->count)
        qr_rd_fail(r, QR_E_SPEC, part, "the file is damaged, or this part is not XML",
                   "the part %s is not well-formed XML (line %d)", part, xmlSAX2GetLineNumber(c));
    xmlFreeParserCtxt(c);
    cl(io);
    return r->errs->count ? r->errs->items[0].code : QR_OK;
}

size_t qr_rd_sax_amp(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '&' && i + 5 <= n && memcmp(s + i, "&#38;", 5) == 0) {
            s[o++] = '&';
            i += 4;
        } else {
            s[o++] = s[i];
        }
    }
    if (o < n) s[o] = '\0';
    return o;
}

const char *qr_rd_sax_attr(int nattr, const xmlChar **attrs, const char *local, size_t *len)
{
    for (int i = 0; i < nattr; i++) {
        const xmlChar **a = attrs + i * 5;
        if (strcmp((const char *)a[0], local) == 0) {
            *len = (size_t)(a[4] - a[3]);
            return (const char *)a[3];
        }
    }
    return NULL;
}

qr_status qr_rd_part_elements(qr_rd *r, const char *part, qr_rd_element_fn fn, void *arg)
{
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    while (x && qr_rd_xml_next(r, x, part) == 1)
        if (xmlTextReaderNodeType(x) == XML_READER_TYPE_ELEMENT && fn(x, arg)) break;
    st = qr_rd_xml_free(r, x);
    free(data);
    return st;
}
