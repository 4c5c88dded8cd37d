/* package.h: an OPC package (the zip behind .docx, .xlsx and .pptx) over libzip.
 *
 * Collect parts and relationships, then write the whole package at once:
 *
 *     qr_package *p = qr_package_new();
 *     qr_package_add_part(p, "word/document.xml", QR_CT_DOCX_DOCUMENT, xml, len);
 *     qr_package_rel(p, "", QR_REL_OFFICE_DOCUMENT, "word/document.xml", 0);
 *     const char *rid = qr_package_rel(p, "word/document.xml", QR_REL_HYPERLINK,
 *                                      "https://example.com", 1);
 *     qr_package_set_title(p, doc->title);
 *     qr_status st = qr_package_write(p, ctx->epoch, sink);
 *     qr_package_free(p);
 *
 * The writer adds [Content_Types].xml, _rels/.rels (with the core and
 * extended properties relationships), docProps/core.xml, docProps/app.xml
 * and every part's .rels. Entry order is fixed ([Content_Types].xml,
 * _rels/.rels, docProps, then parts in the order added, each followed by its
 * .rels), every entry is dated 1980-01-01 00:00 and deflated (media are
 * stored): the same parts give the same bytes. Streamed parts and ready
 * parts over 1 MiB are deflated at level 1 in 512 KiB blocks on up to 4
 * threads; the split depends on byte offsets only, so the bytes do not
 * depend on timing or on the number of threads. A part whose beginning is
 * not known yet (qr_package_add_split) has its end deflated first, while
 * its beginning is awaited.
 */
#ifndef QR_PACKAGE_H
#define QR_PACKAGE_H

#include <stddef.h>

#include "buf.h"
#include <quire/error.h>

typedef struct qr_package qr_package;

qr_package *qr_package_new(void);
void qr_package_free(qr_package *p);

/** Add a part whose bytes are ready. Takes ownership of data (malloc'd,
 *  e.g. from qr_buf_steal) even on failure. name has no leading '/'. */
qr_status qr_package_add_part(qr_package *p, const char *name, const char *content_type, char *data,
                              size_t len);

/** Like qr_package_add_part, but the part is stored, not deflated: an
 *  embedded package (a chart's .xlsx) is compressed inside already. */
qr_status qr_package_add_stored(qr_package *p, const char *name, const char *content_type,
                                char *data, size_t len);

/** A part produced while the package is written, chunk by chunk, so a huge
 *  part never sits in memory whole. fill() appends the next chunk to
 *  chunk (which it may find non-empty: append only) and sets *done when the
 *  part is complete. Parts are produced in the order added, so a later
 *  part may use what an earlier one's fill() gathered (shared strings after
 *  the sheets). ctx is borrowed; it must live until qr_package_write returns. */
typedef qr_status (*qr_part_fill)(void *ctx, qr_buf *chunk, int *done);
qr_status qr_package_add_stream(qr_package *p, const char *name, const char *content_type,
                                qr_part_fill fill, void *ctx);

/** A ready part whose beginning waits for something its end does not: a
 *  docx whose table of contents waits for the page numbers of a layout
 *  running on another thread (render.c, ooxml/docx_document.c).
 *  data[head..len) is the part's tail, final; data[0..head) may still
 *  change, its length too. Takes ownership of data even on failure.
 *
 *  settle(ctx, data, head, &out, &out_len) is called once, inside
 *  qr_package_write, after everything that does not need it: the other
 *  parts deflated (on one thread fewer than set: the awaited work has a
 *  core) and this part's tail deflated as far as the rule below allows.
 *  It is given the beginning data[0..head) as it came and returns the
 *  final beginning in *out (malloc'd; the package frees it): the part is
 *  then *out followed by the tail, which settle cannot change (nor copy:
 *  a long tail is not copied again). settle NULL: data is final already
 *  (the same part made without waiting).
 *
 *  The deflate rule, a function of the final bytes and the tail's length
 *  only, so a part gives the same bytes whether it waited or not, and
 *  whatever the threads: a part over 1 MiB whose tail is longer than
 *  deflate's 32 KiB window is cut at S = 32 KiB into the tail. [0, S) is
 *  deflated as any big part, in 512 KiB blocks from 0, but its last block
 *  is sync-flushed (not final); [S, len) follows in 512 KiB blocks from S,
 *  the first primed with the 32 KiB before S (all in the tail, so known
 *  before settle), the last one final; the CRCs are combined. Shorter
 *  parts, or tails of 32 KiB or less, are deflated as qr_package_add_part
 *  would: the same bytes. */
typedef qr_status (*qr_part_settle)(void *ctx, const char *data, size_t len, char **out,
                                    size_t *out_len);
qr_status qr_package_add_split(qr_package *p, const char *name, const char *content_type,
                               char *data, size_t len, size_t head, qr_part_settle settle,
                               void *ctx);

/** Add a media part (PNG, JPEG), stored without recompression. data is
 *  borrowed and must live until qr_package_write returns. The content type
 *  comes from the extension (a Default entry). */
qr_status qr_package_add_media(qr_package *p, const char *name, const unsigned char *data,
                               size_t len);

/** Add a relationship from source ("" for the package itself, or a part
 *  name) to target (relative to the source's folder, or an absolute URL
 *  with external=1). Returns its id, "rId1", "rId2", ... counted per
 *  source in call order (owned by the package), or NULL on OOM. */
const char *qr_package_rel(qr_package *p, const char *source, const char *type, const char *target,
                           int external);

/** Document title for docProps/core.xml (plain text; NULL for none). */
qr_status qr_package_set_title(qr_package *p, const char *title);
/** The core properties a document's "properties" give (each may be NULL):
 *  dc:creator (default "quire"), dc:subject, cp:keywords and the created
 *  and modified dates (W3CDTF; default the render's epoch). Copied. */
qr_status qr_package_set_core(qr_package *p, const char *author, const char *subject,
                              const char *keywords, const char *date);

/** Extra children of <Properties> in docProps/app.xml, as well-formed
 *  markup (e.g. "<Slides>3</Slides>"); copied. */
qr_status qr_package_set_app_extra(qr_package *p, const char *markup);

/** Threads that deflate the big parts: 0 (the default) takes
 *  QUIRE_PACKAGE_THREADS from the environment, else the online CPUs; at
 *  most 4; 1 deflates on the calling thread. The output does not change. */
void qr_package_set_threads(qr_package *p, int threads);

/** Write the package to out. epoch dates docProps/core.xml. */
qr_status qr_package_write(qr_package *p, long long epoch, qr_sink *out);

/* Content types of parts. */
#define QR_CT_RELS "application/vnd.openxmlformats-package.relationships+xml"
#define QR_CT_CORE "application/vnd.openxmlformats-package.core-properties+xml"
#define QR_CT_APP "application/vnd.openxmlformats-officedocument.extended-properties+xml"
#define QR_CT_THEME "application/vnd.openxmlformats-officedocument.theme+xml"

/* Relationship types. */
#define QR_REL_BASE "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
#define QR_REL_OFFICE_DOCUMENT QR_REL_BASE "officeDocument"
#define QR_REL_CORE                                                                                \
    "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"
#define QR_REL_APP QR_REL_BASE "extended-properties"
#define QR_REL_STYLES QR_REL_BASE "styles"
#define QR_REL_THEME QR_REL_BASE "theme"
#define QR_REL_HYPERLINK QR_REL_BASE "hyperlink"
#define QR_REL_IMAGE QR_REL_BASE "image"
#define QR_REL_NUMBERING QR_REL_BASE "numbering"
#define QR_REL_SETTINGS QR_REL_BASE "settings"
#define QR_REL_FONT_TABLE QR_REL_BASE "fontTable"
#define QR_REL_WORKSHEET QR_REL_BASE "worksheet"
#define QR_REL_SHARED_STRINGS QR_REL_BASE "sharedStrings"
#define QR_REL_SLIDE QR_REL_BASE "slide"
#define QR_REL_SLIDE_LAYOUT QR_REL_BASE "slideLayout"
#define QR_REL_SLIDE_MASTER QR_REL_BASE "slideMaster"
#define QR_REL_NOTES_SLIDE QR_REL_BASE "notesSlide"
#define QR_REL_NOTES_MASTER QR_REL_BASE "notesMaster"

#endif
