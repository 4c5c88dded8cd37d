/* quire/quire.h: the public API of libquire (#include <quire/quire.h>).
 *
 * Compile a JSON spec and render it to .docx, .xlsx, .pptx, .pdf, .html or
 * .png, in memory or to a file (atomically). Thread-safe. The global
 * state, all internal caches that never change an output's bytes: the font
 * set (fontconfig), loaded once and shared; the font faces the PDF backend
 * keeps open (process-wide); and, per thread, the PDF/PNG backend's font
 * map and the layout of the last document rendered to PNG, keyed by the
 * spec's canonical JSON, the bytes of its images and the font set (so
 * `quire render --pages all` lays a document out once), freed when the
 * thread exits.
 *
 *     qr_result res;
 *     qr_status st = qr_render_mem(spec, strlen(spec), QR_KIND_DOCUMENT,
 *                                  QR_FORMAT_DOCX, NULL, &res);
 *     if (st == QR_OK) fwrite(res.data, 1, res.size, fp);
 *     else for (size_t i = 0; i < res.errors.count; i++)
 *         fprintf(stderr, "%s: %s\n", res.errors.items[i].path, res.errors.items[i].message);
 *     qr_result_free(&res);
 */
#ifndef QUIRE_H
#define QUIRE_H

#include <stddef.h>

#include <quire/error.h>
#include <quire/export.h>

#ifdef __cplusplus
extern "C" {
#endif

#define QUIRE_VERSION "0.1.0"

/* The spec kinds (the compiler uses this enum too).
 * document, pdf and html share one vocabulary. */
typedef enum qr_kind {
    QR_KIND_DOCUMENT,     /* .docx */
    QR_KIND_SPREADSHEET,  /* .xlsx */
    QR_KIND_PRESENTATION, /* .pptx */
    QR_KIND_PDF,          /* .pdf */
    QR_KIND_HTML,         /* .html */
    QR_KIND_COUNT
} qr_kind;

/* The output formats (the backends use this enum too). */
typedef enum qr_format {
    QR_FORMAT_DOCX,
    QR_FORMAT_XLSX,
    QR_FORMAT_PPTX,
    QR_FORMAT_PDF,
    QR_FORMAT_HTML,
    QR_FORMAT_PNG,
    QR_FORMAT_COUNT
} qr_format;

typedef struct qr_render_opts {
    const char *base_dir; /* folder for relative image paths; NULL: data: URIs only */
    int png_page;         /* 1-based page for QR_FORMAT_PNG (default 1) */
    int png_dpi;          /* default 96 */
    size_t max_input;     /* 0: default 64 MiB */
    size_t max_output;    /* 0: default 512 MiB */
    int strict;           /* 1: warnings are errors (QR_E_SPEC, no output), for CI */
    int png_contact;      /* QR_FORMAT_PNG: 1 = a contact sheet of every slide (or the first
                             pages) as numbered thumbnails, at most 2000 px on its long side */
    int notes;            /* .pdf/.png of a presentation: notes pages, each slide above its notes */
    int page_first, page_last; /* .pdf of a presentation or spreadsheet: only these pages
                                  (1-based, inclusive); 0, 0: every page */
    int threads;            /* helper threads (zip deflate, PDF measuring): 0 = as many as the CPUs,
                               1 = the calling thread only; same bytes either way */
    int xlsx_stream;        /* a spreadsheet spec read from a file: QR_XLSX_STREAM_AUTO (0: stream
                               the rows of big specs), _NEVER, _ALWAYS, _ALL (tests, benchmarks) */
    size_t max_work;        /* units of the work budget: formulas, charts, pages (README "Work
                               budget"); 0: default 2^28 */
    unsigned strict_layout; /* layout report kinds that are errors: bits 1u << qr_layout_kind
                               (QR_LAYOUT_ALL: every kind); the render fails with QR_E_SPEC
                               at the item's pointer and writes nothing */
    int read_timeout;       /* qr_render_path: seconds the whole spec may take to arrive (a
                               pipe that stalls); past it QR_E_LIMIT naming read_timeout, and
                               nothing is written; 0: no limit */
} qr_render_opts;

enum { QR_XLSX_STREAM_AUTO, QR_XLSX_STREAM_NEVER, QR_XLSX_STREAM_ALWAYS, QR_XLSX_STREAM_ALL };

/* How a render ran, for tests and benchmarks (qr_result.stats). */
typedef struct qr_render_stats {
    int threads;           /* threads the backend used (PDF: 2 when a helper measured) */
    int faces_pinned;      /* PDF, two threads: font faces opened before they started */
    int faces_pinned_late; /* and by them (0 unless the gathering missed one) */
    int toc_early;         /* docx: the table of contents' layout thread started while the spec
                              was read (its text says "toc"), before the compile */
    int toc_fontconfig;    /* docx: that layout asked fontconfig (0: every face it opened was
                              answered from the font cache's side file and no text needed
                              pango's font map, so fontconfig never started for it) */
} qr_render_stats;

/* ---- the layout report --------------------------------------------------------
 *
 * What the engine had to do to lay the spec out, or could not do, each item
 * with the JSON pointer of the value concerned and the page or slide where it
 * happened. Empty when there is nothing to report. Items are not warnings:
 * --strict leaves them alone; qr_render_opts.strict_layout makes chosen kinds
 * errors. Keep the enum and qr_layout_kind_str's table in step. */
typedef enum qr_layout_kind {
    QR_LAYOUT_SHRINK,         /* text shrunk to fit its box: value = the font scale (0.325) */
    QR_LAYOUT_CONTINUED,      /* content continued on a new slide or page: value = its number */
    QR_LAYOUT_SMALL_TEXT,     /* text drawn below 9 pt: value = the size in points */
    QR_LAYOUT_CONTRAST,       /* text and ground below WCAG AA: value = the contrast ratio */
    QR_LAYOUT_IMAGE_UPSCALED, /* an image drawn larger than its pixels at 96 dpi: value = the
                                 factor */
    QR_LAYOUT_TABLE_CUT,      /* a table larger than its room: rows or columns cut or wrapped */
    QR_LAYOUT_WORD_BROKEN,    /* a word broken across lines */
    QR_LAYOUT_MISSING_GLYPH,  /* a character no font covers: value = the code point */
    QR_LAYOUT_KIND_COUNT
} qr_layout_kind;
#define QR_LAYOUT_ALL ((1u << QR_LAYOUT_KIND_COUNT) - 1u)

typedef struct qr_layout_item {
    qr_layout_kind kind;
    char *path;   /* JSON pointer, "" for the whole spec */
    int page;     /* 1-based page of a document or sheet preview; 0: none or unknown */
    int slide;    /* 1-based slide of a presentation (output numbering); 0: not a slide */
    double value; /* see the kind */
    char *detail; /* one sentence: "text shrunk to 32.5 %" */
} qr_layout_item;

typedef struct qr_layout_list {
    qr_layout_item *items;
    size_t count;
    size_t cap;
    int oom;
} qr_layout_list;

/** "shrink", "continued", "small_text", "contrast", "image_upscaled",
 *  "table_cut", "word_broken", "missing_glyph"; NULL for a bad value. */
QR_EXPORT const char *qr_layout_kind_str(qr_layout_kind k);
/** Parse a kind name; returns 0 on success. */
QR_EXPORT int qr_layout_kind_from_str(const char *name, qr_layout_kind *k);

/* What a render returns. errors holds spec errors (each with a JSON
 * pointer); warnings holds e.g. characters no font covers; layout the
 * layout report (a render only; empty after a check). */
typedef struct qr_result {
    qr_status status;
    unsigned char *data; /* the bytes (qr_render_mem only); freed by qr_result_free */
    size_t size;
    int pages; /* pages (pdf, png), slides (pptx), sheets (xlsx); 0 if unknown */
    qr_errlist errors;
    qr_errlist warnings;
    qr_kind kind; /* the kind rendered: for .pdf and .png, the one the spec's shape says */
    qr_render_stats stats;
    qr_layout_list layout;
} qr_result;

/** Render a spec to memory. Always initialises *res; free it with
 *  qr_result_free(). opts may be NULL. Returns res->status. */
QR_EXPORT qr_status qr_render_mem(const char *spec, size_t len, qr_kind kind, qr_format format,
                                  const qr_render_opts *opts, qr_result *res);

/** Render a spec to a file, atomically: a temp file in the same folder,
 *  fsync, rename. On failure no file is left. res->data stays NULL. */
QR_EXPORT qr_status qr_render_file(const char *spec, size_t len, qr_kind kind, qr_format format,
                                   const char *path, const qr_render_opts *opts, qr_result *res);

/** Like qr_render_file, but the spec is the file at spec_path ("-" reads
 *  stdin), parsed as it streams: its text is never held in memory, so a
 *  large spec costs only its compiled form. Errors are those of
 *  qr_render_file over the file's bytes, plus QR_E_IO "cannot open PATH:
 *  reason" / "cannot read PATH"; a regular file larger than max_input fails
 *  before it is read. */
QR_EXPORT qr_status qr_render_path(const char *spec_path, qr_kind kind, qr_format format,
                                   const char *out_path, const qr_render_opts *opts,
                                   qr_result *res);

/** Validate a spec without rendering. Errors go to res->errors. */
QR_EXPORT qr_status qr_check(const char *spec, size_t len, qr_kind kind, qr_result *res);

/** qr_check with the limits and base_dir of a render: opts->max_input
 *  (and max_output, which a check never reaches) as for qr_render_mem, and
 *  relative image paths resolved against opts->base_dir (NULL: refused, as
 *  in qr_check). opts may be NULL, which is qr_check. */
QR_EXPORT qr_status qr_check_opts(const char *spec, size_t len, qr_kind kind,
                                  const qr_render_opts *opts, qr_result *res);

QR_EXPORT void qr_result_free(qr_result *res);

/** The JSON Schema (draft 2020-12) of a kind's spec, or with edit = 1 of
 *  the edit payload {spec_patch, spec_append, ops} of that kind (spec_append
 *  names the kind's top-level lists, "blocks" or "sheets" or "slides"..., and
 *  types their items as the spec schema does), generated from the
 *  compiler's own schema table: every key the compiler accepts, required
 *  keys, additionalProperties false, short descriptions (a tool
 *  definition's size) and "x-quire-extension": true on quire's extensions.
 *  On QR_OK res->data holds the JSON text (a newline ends it), res->size
 *  its length. Free with qr_result_free(). */
QR_EXPORT qr_status qr_schema(qr_kind kind, int edit, qr_result *res);

/** "document", "spreadsheet", ... ; NULL for a bad value. */
QR_EXPORT const char *qr_kind_str(qr_kind kind);
/** Parse a kind name; returns 0 on success. */
QR_EXPORT int qr_kind_from_str(const char *name, qr_kind *kind);
/** The format's file extension without the dot ("docx") and MIME type. */
QR_EXPORT const char *qr_format_ext(qr_format f);
QR_EXPORT const char *qr_format_mime(qr_format f);
/** Format from a file name's extension; returns 0 on success. */
QR_EXPORT int qr_format_from_path(const char *path, qr_format *f);
/** The format a kind renders to by default (document -> docx ...). */
QR_EXPORT qr_format qr_kind_format(qr_kind kind);
/** The kind a format implies (docx -> document, png -> pdf ...). */
QR_EXPORT qr_kind qr_format_kind(qr_format f);
/** Whether this build can render the format (1) or not (0). */
QR_EXPORT int qr_format_available(qr_format f);

/* ---- reading files back (read/) ----------------------------------------------
 *
 * qr_read_mem() takes the bytes of a .docx, .xlsx, .pptx or .pdf (told by
 * content, not by name) and gives back what it holds: the spec that renders
 * it (canonical JSON, as `quire fmt` prints), a structured JSON form, GitHub
 * markdown or plain text, whole or in chunks. res->data holds the text
 * (NUL-terminated); res->pages the slides or sheets; res->warnings what was
 * skipped. Hostile input fails cleanly: QR_E_SPEC (exit 1) for a file that
 * is damaged, encrypted or not one of the four formats (the message says
 * which), QR_E_LIMIT (exit 4) past a cap, naming it. */
typedef enum qr_read_to {
    QR_READ_SPEC,     /* the spec, canonical JSON */
    QR_READ_JSON,     /* {"kind", "title", "blocks"|"sheets"|"slides"} with plain text */
    QR_READ_MARKDOWN, /* GitHub-flavoured: pipe tables, links kept */
    QR_READ_TEXT      /* plain text in reading order */
} qr_read_to;

typedef struct qr_read_opts {
    qr_read_to to;
    size_t chunks;        /* > 0: {"chunks":[{"headings","text","chars"}]} of at most this many
                           * characters, never splitting a sentence or a table row (markdown
                           * text for QR_READ_SPEC/MARKDOWN/JSON, plain for QR_READ_TEXT) */
    size_t max_input;     /* bytes of the file; 0: default 64 MiB */
    size_t max_unzipped;  /* uncompressed bytes of a package; 0: default 1 GiB; SIZE_MAX: none */
    double max_ratio;     /* uncompressed/compressed bytes of one part; 0: default 500; < 0 none */
    size_t max_output;    /* bytes of what is read (the spec, and the output written from it);
                           * 0: default 64 MiB; SIZE_MAX: none. Past it: QR_E_LIMIT */
    unsigned max_seconds; /* a PDF is read in a child process with this wall-clock budget
                           * (and 1 GiB of memory); 0: default 20 s. Past it: QR_E_LIMIT */
} qr_read_opts;

/** Read a file's bytes. kind (may be NULL) gets the spec's kind. Always
 *  initialises *res; free it with qr_result_free(). opts may be NULL. */
QR_EXPORT qr_status qr_read_mem(const void *data, size_t len, const qr_read_opts *opts,
                                qr_kind *kind, qr_result *res);
/** qr_read_mem over the file at path (QR_E_IO when it cannot be read). */
QR_EXPORT qr_status qr_read_file(const char *path, const qr_read_opts *opts, qr_kind *kind,
                                 qr_result *res);

/* The versioned spec store. */
#include <quire/store.h>

#ifdef __cplusplus
}
#endif
#endif
