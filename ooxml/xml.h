/* xml.h: a streaming XML writer (no DOM), writing what libxml2's xmlTextWriter wrote.
 *
 * Each element is written once, in order (cmark, libxlsxwriter). Text and
 * attribute values are sanitised first: the characters no format shows
 * (text/text.h's qr_text_unshown: C0 controls but tab, LF and CR, DEL, C1
 * controls, noncharacters; also invalid UTF-8) become U+FFFD, as in the
 * PDF and the html, so no spec text can break the markup or the parser.
 *
 *     qr_buf out = {0};
 *     qr_xml *x = qr_xml_new(&out);
 *     qr_xml_decl(x);
 *     qr_xml_start(x, "w:document");
 *     qr_xml_attr(x, "xmlns:w", QR_NS_W);
 *     qr_xml_start(x, "w:t");
 *     qr_xml_text(x, "a < b", 5);
 *     qr_xml_end(x);                       // </w:t>
 *     qr_xml_end(x);                       // </w:document>
 *     qr_status st = qr_xml_free(x);       // flushes; out holds the XML
 *
 * Errors are sticky: after a failure every call is a no-op and
 * qr_xml_free() returns the first failure.
 */
#ifndef QR_XML_H
#define QR_XML_H

#include <stddef.h>

#include "buf.h"
#include <quire/error.h>

typedef struct qr_xml qr_xml;

/** A writer appending to out (which the caller owns). NULL on OOM. */
qr_xml *qr_xml_new(qr_buf *out);

/** Flush, free the writer and return its sticky status. NULL is allowed. */
qr_status qr_xml_free(qr_xml *x);

/** <?xml version="1.0" encoding="UTF-8" standalone="yes"?> and a newline. */
void qr_xml_decl(qr_xml *x);

/** Open an element. */
void qr_xml_start(qr_xml *x, const char *name);
/** An attribute of the element just opened (value sanitised and escaped). */
void qr_xml_attr(qr_xml *x, const char *name, const char *value);
void qr_xml_attr_int(qr_xml *x, const char *name, long long value);
/** A double, shortest round-trip and locale-free. */
void qr_xml_attr_num(qr_xml *x, const char *name, double value);
/** Text content: len bytes of UTF-8 (sanitised and escaped). */
void qr_xml_text(qr_xml *x, const char *text, size_t len);
void qr_xml_text_str(qr_xml *x, const char *text);
/** Close the innermost open element (<a/> when it is empty). */
void qr_xml_end(qr_xml *x);
/** An empty element with attributes given as name, value pairs ending
 *  with NULL: qr_xml_leaf(x, "w:b", NULL); qr_xml_leaf(x, "w:sz", "w:val", "24", NULL). */
void qr_xml_leaf(qr_xml *x, const char *name, ...);
/** An element holding only text: <name>text</name>. */
void qr_xml_elem_text(qr_xml *x, const char *name, const char *text);
/** Trusted, already well-formed markup, written as is. */
void qr_xml_raw(qr_xml *x, const char *markup, size_t len);

/** The writer's sticky status. */
qr_status qr_xml_status(const qr_xml *x);

/** Append text to a buffer sanitised and escaped for XML (& < > always,
 *  and " too when attr is non-zero), without a writer: the hot path for
 *  large sheets. Returns 0, or -1 when memory runs out. */
int qr_xml_escape(qr_buf *b, const char *text, size_t len, int attr);

/** Whether text needs xml:space="preserve" (leading/trailing space, tab,
 *  newline or a double space). */
int qr_xml_needs_preserve(const char *text, size_t len);

/* Namespaces used by more than one part. */
#define QR_NS_REL "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
#define QR_NS_A "http://schemas.openxmlformats.org/drawingml/2006/main"
#define QR_NS_PIC "http://schemas.openxmlformats.org/drawingml/2006/picture"

#endif
