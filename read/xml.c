/* xml.c: libxml2's streaming reader, set up for hostile input. No network
 * (XML_PARSE_NONET), no entity substitution (no XML_PARSE_NOENT), no DTD
 * loading or validation (no XML_PARSE_DTDLOAD), and a part holding a
 * <!DOCTYPE> is refused outright: Office parts never have one, and refusing
 * it stops XXE and billion-laughs files before any entity is used. Errors
 * are recorded against the part's name, never printed. */
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

#define XML_OPTS (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA)

/* Errors go nowhere: the reader's return values say enough. */
static void quiet(void *arg, const char *msg, xmlParserSeverities sev, xmlTextReaderLocatorPtr loc)
{
    (void)arg, (void)msg, (void)sev, (void)loc;
}

xmlTextReaderPtr qr_rd_xml_mem(qr_rd *r, const char *data, size_t len, const char *part)
{
    if (len > 0x7fffffff)
        return qr_rd_fail(r, QR_E_LIMIT, part, NULL, "the part %s is over 2 GiB", part), NULL;
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
