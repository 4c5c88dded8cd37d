/* read_int.h: what the readers of read/ share.
 *
 * Each reader (docx.c, xlsx.c, pptx.c, pdf.c) turns a file's bytes into the
 * compact JSON text of a quire spec, written into ctx->spec with the JSON
 * helpers below; read.c then canonicalises it (--to spec) or compiles it to
 * the typed tree that out.c writes as json, markdown, text or chunks.
 *
 * Packages come through zip.c, which enforces the caps (total uncompressed
 * bytes, compression ratio) as bytes come out, whatever the headers claim.
 * XML comes through xml.c: libxml2's reader with no network, no entity
 * substitution, no DTD loading, and any <!DOCTYPE> refused.
 */
#ifndef QR_READ_INT_H
#define QR_READ_INT_H

#include <libxml/xmlreader.h>
#include <stddef.h>

#include "buf.h"
#include <quire/error.h>
#include "tree.h"

/* ---- the read context ---------------------------------------------------- */

typedef struct qr_rd_zip qr_rd_zip;

typedef struct qr_rd {
    qr_errlist *errs, *warns;
    size_t max_unzipped;  /* total bytes out of the package */
    double max_ratio;     /* uncompressed / compressed bytes of one entry */
    size_t unzipped;      /* bytes out so far */
    size_t max_output;    /* bytes of the spec read and of the output; 0: none */
    unsigned max_seconds; /* wall-clock seconds for reading a PDF (read/pdf/load.c) */
    qr_rd_zip *zip;       /* the package, or NULL (pdf) */
    qr_buf spec;          /* the spec's compact JSON */
    qr_kind kind;
} qr_rd;

/** Record an error about the input (QR_E_SPEC: exit 1) and return its status. */
qr_status qr_rd_fail(qr_rd *r, qr_status st, const char *where, const char *hint, const char *fmt,
                     ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* ---- zip.c ----------------------------------------------------------------- */

/** Open a package held in memory (not copied: data must outlive it). */
qr_status qr_rd_zip_open(qr_rd *r, const void *data, size_t len);
void qr_rd_zip_close(qr_rd *r);
/** Whether the package has this entry (names compare ignoring case). */
int qr_rd_zip_has(qr_rd *r, const char *name);
/** Read a whole entry (NUL-terminated, malloc'd). QR_E_LIMIT past a cap. */
qr_status qr_rd_zip_read(qr_rd *r, const char *name, char **data, size_t *len);
/** Callbacks that stream an entry to xmlReaderForIO (the caps still count).
 *  Returns 0, or -1 with the error recorded. */
int qr_rd_xml_io(qr_rd *r, const char *part, xmlInputReadCallback *rd, xmlInputCloseCallback *cl,
                 void **ctx);

/* ---- xml.c ----------------------------------------------------------------- */

/** A reader over a whole part in memory; part names it in errors. NULL on OOM. */
xmlTextReaderPtr qr_rd_xml_mem(qr_rd *r, const char *data, size_t len, const char *part);
/** A reader that streams the entry out of the package (bounded memory). */
xmlTextReaderPtr qr_rd_xml_stream(qr_rd *r, const char *part);
/** Step: 1 a node, 0 the end, -1 an error (recorded, with the part's name:
 *  malformed XML, a DTD, a cap). */
int qr_rd_xml_next(qr_rd *r, xmlTextReaderPtr x, const char *part);
/** Free the reader; returns the status of the stream (a cap hit inside it). */
qr_status qr_rd_xml_free(qr_rd *r, xmlTextReaderPtr x);
/** Called for each element start of a part; return 0 to go on, 1 to stop. */
typedef int (*qr_rd_element_fn)(xmlTextReaderPtr x, void *arg);
/** Read the whole part and hand each element start to fn (the walk of a
 *  presentation.xml, a workbook.xml, core.xml). Returns the part's status. */
qr_status qr_rd_part_elements(qr_rd *r, const char *part, qr_rd_element_fn fn, void *arg);
/** The element's local name ("p" for w:p) and whether it is this one. */
int qr_rd_is(xmlTextReaderPtr x, const char *local);
/** An attribute by local name, any namespace (malloc'd by libxml2: xmlFree). */
char *qr_rd_attr(xmlTextReaderPtr x, const char *local);
/** An attribute's boolean meaning for w:b and kin: absent val = on. */
int qr_rd_attr_on(xmlTextReaderPtr x);
/** Long value of an attribute, or def. */
long qr_rd_attr_long(xmlTextReaderPtr x, const char *local, long def);

/* SAX streaming for the big parts: callbacks per element and text; attrs
 * are libxml2's (local, prefix, URI, value, end) quintuples. The same
 * hostile-input rules (no network, no entities, DOCTYPE refused). */
typedef struct qr_rd_sax {
    void (*start)(void *ctx, const char *local, int nattr, const xmlChar **attrs);
    void (*end)(void *ctx, const char *local);
    void (*text)(void *ctx, const char *s, int len);
    void *ctx;
} qr_rd_sax;
qr_status qr_rd_sax_stream(qr_rd *r, const char *part, const qr_rd_sax *s);
/** Without entity substitution, SAX2 hands '&' in attribute values over as
 *  "&#38;": turn those back into '&' in place; returns the new length. */
size_t qr_rd_sax_amp(char *s, size_t n);
/** An attribute's value (not NUL-terminated: *len bytes), or NULL. */
const char *qr_rd_sax_attr(int nattr, const xmlChar **attrs, const char *local, size_t *len);

/* ---- relationships (rels.c) -------------------------------------------------- */

typedef struct qr_rd_rel {
    char *id, *type, *target; /* target resolved against the part's folder unless external */
    int external;
} qr_rd_rel;
typedef struct qr_rd_rels {
    qr_rd_rel *items;
    size_t n;
} qr_rd_rels;

/** Read the .rels of a part ("word/document.xml" -> "word/_rels/document.xml.rels");
 *  a missing .rels is empty, not an error. */
qr_status qr_rd_rels_read(qr_rd *r, const char *part, qr_rd_rels *rels);
const qr_rd_rel *qr_rd_rels_get(const qr_rd_rels *rels, const char *id);
/** The first relationship whose type ends with suffix ("/officeDocument"). */
const qr_rd_rel *qr_rd_rels_type(const qr_rd_rels *rels, const char *suffix);
void qr_rd_rels_free(qr_rd_rels *rels);
/** The package's main part: the root relationship of type officeDocument,
 *  else fallback ("word/document.xml"); malloc'd. *st: the root .rels' status
 *  (NULL returned on a failure or out of memory, with *st QR_E_NOMEM). */
char *qr_rd_main_part(qr_rd *r, const char *fallback, qr_status *st);
/** The core title (docProps/core.xml dc:title), malloc'd, or NULL. */
char *qr_rd_core_title(qr_rd *r);
/** Append "title":"...", to r->spec when the package has a core title. */
void qr_rd_put_title(qr_rd *r);
/** An image part as a data: URI appended to b as a JSON string; 0 if it is
 *  not PNG or JPEG (then nothing is appended). */
int qr_rd_image_uri(qr_rd *r, const char *part, qr_buf *b);
/** The same, and *natural the image's own width in EMU (its pixels at its
 *  dpi, else 96), 0 when its header does not say. */
int qr_rd_image_uri_size(qr_rd *r, const char *part, qr_buf *b, double *natural);

/* ---- charts and diagrams (chart.c, smartart.c) ------------------------------- */

/** A chart part as a chart spec's JSON object appended to out, from its
 *  cached data, with alt text when alt is not empty; block: as a document's
 *  block ("type":"chart" first). What it cannot say is a warning naming the
 *  part (nothing is appended for a chart quire cannot draw). */
qr_status qr_rd_chart(qr_rd *r, const char *part, const char *alt, int block, qr_buf *out);
/** A SmartArt diagram's data part as bullet items (array members, nested
 *  by its parent-of connections) appended to out, a comma first unless
 *  first; *written: the top-level items written. */
qr_status qr_rd_smartart(qr_rd *r, const char *part, qr_buf *out, int first, int *written);

/* ---- a worksheet's print setup (xlsx_print.c) --------------------------------- */

/* What a worksheet says of its printing, as read (xlsx.c fills it). */
typedef struct qr_rd_print {
    int landscape, paper;       /* paper: Excel's paperSize code, 0 none */
    int fit;                    /* <pageSetUpPr fitToPage="1"> */
    long fit_width, fit_height; /* <pageSetup>'s, 1 when not given */
    int gridlines;              /* <printOptions gridLines>: -1 not given */
    double margin[4];           /* top, right, bottom, left, inches */
    int has_margin[4];
    qr_buf header, footer; /* <oddHeader>, <oddFooter> code text */
} qr_rd_print;

/** Append ,"print":{...} for p and the sheet's _xlnm.Print_Area and
 *  _xlnm.Print_Titles texts (NULL: none); nothing when all is Excel's
 *  default. */
void qr_rd_xlsx_print_json(const qr_rd_print *p, const char *area, const char *titles, qr_buf *b);
/** Append ,"key":"..." (or {"left", "center", "right"}) for a header's or
 *  footer's code text; nothing when it shows no text. */
void qr_rd_xlsx_hf(const char *code, const char *key, qr_buf *b);

/* ---- JSON helpers (json.c) ------------------------------------------------- */

/* JSON strings: qr_buf_json_str(b, s, n, 0) (core/buf.h). */
/** Append a number the shortest round-trip way. */
void qr_rd_jnum(qr_buf *b, double v);
/** Append ,"widths":[...]: a table's n grid columns as ratios to the
 *  narrowest (min > 0), two decimals. */
void qr_rd_put_widths(qr_buf *b, const double *grid, size_t n, double min);

/* Runs of one paragraph, collected and merged: adjacent runs with the same
 * flags and link become one. */
typedef struct qr_rd_run {
    qr_buf text;
    unsigned bold : 1, italic : 1, underline : 1, strike : 1, code : 1, sup : 1, sub : 1;
    uint32_t color, highlight; /* QR_RGB_SET | 0xRRGGBB (spec/tree.h), or 0 */
    char *link;
    char *raw; /* a run written as this JSON object ({"footnote":...}), never merged */
} qr_rd_run;
typedef struct qr_rd_runs {
    qr_rd_run *items;
    size_t n, cap;
} qr_rd_runs;

/** Append text with these flags (merging into the last run when alike). */
void qr_rd_runs_add(qr_rd_runs *rs, const char *s, size_t n, const qr_rd_run *flags);
/** Append a run written as the JSON object json (a footnote run). */
void qr_rd_runs_raw(qr_rd_runs *rs, const char *json);
/** Whether the runs hold any text (or a raw run). */
int qr_rd_runs_empty(const qr_rd_runs *rs);
/** The plain text of all runs, appended to b. */
void qr_rd_runs_plain(const qr_rd_runs *rs, qr_buf *b);
/** Write `"text":"..."` (one plain run) or `"runs":[...]` (no leading comma). */
void qr_rd_runs_json(const qr_rd_runs *rs, qr_buf *b);
/** Clear the runs (keep the array for reuse). */
void qr_rd_runs_reset(qr_rd_runs *rs);
void qr_rd_runs_free(qr_rd_runs *rs);
/** Whether a font family is monospace by name (Courier, Consolas, "Mono"...). */
int qr_rd_mono_font(const char *family);

/* ---- the readers ------------------------------------------------------------ */

qr_status qr_rd_docx(qr_rd *r);
qr_status qr_rd_xlsx(qr_rd *r);
qr_status qr_rd_pptx(qr_rd *r);
qr_status qr_rd_pdf(qr_rd *r, const void *data, size_t len);

/* ---- outputs (out.c) -------------------------------------------------------- */

typedef enum qr_rd_to { QR_RD_JSON, QR_RD_MARKDOWN, QR_RD_TEXT } qr_rd_to;
/** Write a compiled tree as structured JSON, markdown or text; with
 *  chunks > 0, as {"chunks":[{"headings":[...],"text":...}]} instead, each
 *  chunk at most `chunks` characters, never splitting a table row or a
 *  sentence (a single longer sentence or row is a chunk of its own).
 *  QR_E_LIMIT as soon as the pieces pass max bytes (0: no cap). */
qr_status qr_rd_write(const qr_doc *doc, qr_rd_to to, size_t chunks, size_t max, qr_buf *out);

#endif
