/* compile_int.h: what the compiler's files share (never installed).
 *
 * The compile context (qr_cc) carries the document being built, the error
 * list, the limits and the JSON pointer of the value being compiled. Each
 * compile_*.c file turns one part of the spec language into tree.h structs;
 * they all report through qr_cc_err() at the current path and keep going, so
 * every error of a spec is reported in one pass.
 *
 * Paths: qr_cc_push_key()/qr_cc_push_index() append a reference token to the
 * current pointer and return the old length; qr_cc_pop() restores it.
 */
#ifndef QR_COMPILE_INT_H
#define QR_COMPILE_INT_H

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "compile.h"
#include "suggest.h"

/* Past this many recorded errors the compiler only counts, then adds one
 * "N more errors" entry: a million bad rows must not cost a million messages. */
#define QR_CC_MAX_ERRORS 1000
/* The same for warnings. */
#define QR_CC_MAX_WARNINGS 100

typedef struct qr_cc_stream qr_cc_stream;
struct qr_jp_hook; /* json_parse.h */

/* A run waiting for its target's id: a "#id" link or a ref (compile_text.c
 * records it, qr_cc_resolve_ids checks it and gives a ref its label). */
typedef struct qr_cc_fix {
    qr_run *run;
    const char *id;
    const char *path; /* the member's: ".../runs/2/link" or ".../runs/2/ref" */
    int ref;
} qr_cc_fix;

typedef struct qr_cc {
    qr_doc *doc;
    qr_arena *a; /* &doc->arena */
    qr_errlist *errs;
    const qr_limits *lim;
    const char *base_dir;
    qr_kind kind;
    int ordered_list; /* the items being compiled are an ordered list's */

    char *path; /* the current JSON pointer (heap, NUL-terminated) */
    size_t plen, pcap;

    size_t n_errors;      /* errors reported (recorded or not) */
    size_t n_suppressed;  /* errors past QR_CC_MAX_ERRORS */
    int limit;            /* a QR_E_LIMIT error was reported */
    int nomem;            /* an allocation failed */
    int cells_over;       /* max_cells was reported: stop counting */
    size_t n_table_cells; /* cells of document and slide tables */
    int table_cells_over; /* max_table_cells was reported */
    size_t n_cells;       /* table and sheet cells so far */
    unsigned n_images;    /* images so far: names image1, image2, ... */
    /* the last image files read (image.c): a picture or logo named again is
     * not read, resolved and copied again (a ring; bytes in the arena) */
    struct qr_cc_file {
        const char *src; /* as written in the spec, NUL-terminated */
        const unsigned char *data;
        size_t size;
    } files[8];
    unsigned n_files; /* files read so far; files[n % 8] is the next slot */

    qr_errlist *warns; /* likely mistakes (compile_warn.c), or NULL */
    size_t n_warnings; /* reported (recorded or not) */
    int in_heading;    /* compiling a heading's text: "1. Parties" is its own numbering */

    char *pool; /* string pool chunk: strings packed without alignment */
    size_t pool_left;

    qr_cc_stream *stream; /* a spreadsheet whose rows were compiled as read (stream.c), or NULL */
    int allow_external;   /* the workbook's "allow_external"; -1: not known yet (a streamed row) */
    int policy_later;     /* a streamed row's formula broke the policy: the tree path decides */
    size_t n_charts;      /* charts so far (QR_CHART_MAX_CHARTS) */
    int work_reported;    /* the work budget's limit error was reported */

    /* documents (issue 32): footnotes so far, inside a note, runs waiting
     * for ids, captions so far per qr_caption_kind */
    unsigned n_notes;
    int in_note;
    qr_cc_fix *fixes;
    size_t n_fixes, cap_fixes;
    unsigned n_captions[4];

    /* sheets: the cells' links and comments of the sheet being compiled
     * (heap; rows numbered as in the spec's "rows"), and the sheets' names
     * (NULL in a streamed row's context) */
    qr_cell_note *cnotes;
    size_t n_cnotes, cap_cnotes;
    const char *const *sheet_names;
    size_t n_sheet_names;
    /* formulas that name defined names or tables, checked once all are known */
    struct qr_cc_fname *fnames;
    size_t n_fnames, cap_fnames;
    size_t cur_sheet; /* the sheet being compiled */
} qr_cc;

/* A formula naming a defined name or a table (compile_sheet.c): its text,
 * the JSON pointer of its "formula" and its sheet. */
typedef struct qr_cc_fname {
    const char *text, *path;
    size_t sheet;
} qr_cc_fname;

/* ---- compile_cc.c: paths, errors, keys, typed getters -------------------- */

size_t qr_cc_push_key(qr_cc *cc, const char *key);
size_t qr_cc_push_index(qr_cc *cc, size_t i);
void qr_cc_pop(qr_cc *cc, size_t old);
/** The current path, copied into the document arena. */
const char *qr_cc_path(qr_cc *cc);

/** A spec error (QR_E_SPEC) at the current path. hint may be NULL. */
void qr_cc_err(qr_cc *cc, const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** A spec error at the current path plus one key (the path of a member). */
void qr_cc_err_key(qr_cc *cc, const char *key, const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/** A limit error (QR_E_LIMIT) at the current path naming limit `name`
 *  ("max_cells"); the hint says how to raise it. */
void qr_cc_limit(qr_cc *cc, const char *name, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** Record that memory ran out (reported once at the end). */
void qr_cc_oom(qr_cc *cc);

/** "a string", "an array", ... for messages. */
const char *qr_cc_type_name(const json_t *v);

/** Report every key of obj not in keys (NULL-terminated) as `unknown key
 *  "k"` at its own path, with a did-you-mean hint; "footnotes" gets
 *  the hint that a footnote is a run. what names the object for the hint
 *  ("a paragraph block"). Returns the number of unknown keys. */
int qr_cc_check_keys(qr_cc *cc, json_t *obj, const char *const *keys, const char *what);
/** qr_cc_check_keys with the keys of object id of the schema table (schema.h). */
int qr_cc_check_obj(qr_cc *cc, json_t *obj, int id, const char *what);

/** Copy a JSON string into the arena (packed), checking max_string and
 *  embedded NULs. Reports at the current path; NULL on error. */
const char *qr_cc_str(qr_cc *cc, json_t *s, size_t *len);
/** Copy n bytes into the string pool. */
const char *qr_cc_strndup(qr_cc *cc, const char *s, size_t n);

/* Typed members. Each returns 1 when the key is present and valid, 0 when it
 * is absent (an error when required), -1 when it is present but wrong (the
 * error is reported at the member's path). */
int qr_cc_get_string(qr_cc *cc, json_t *obj, const char *key, int required, const char **out,
                     size_t *len);
int qr_cc_get_bool(qr_cc *cc, json_t *obj, const char *key, int *out);
int qr_cc_get_int(qr_cc *cc, json_t *obj, const char *key, long lo, long hi, int *out);
/** A JSON number (integer or real) as a double. */
int qr_cc_number(const json_t *v, double *out);
/** Report `missing "key"` at the path the member would have. Objects with
 *  an unknown key skip this report: the unknown key is most likely the
 *  missing one misspelt, and one error says it. */
void qr_cc_missing(qr_cc *cc, const char *key, const char *hint);

/** Count cells against max_cells; returns 0 (and reports once) past it. */
int qr_cc_count_cells(qr_cc *cc, size_t n);
/** Count table cells against max_table_cells (and max_cells); returns 0
 *  (and reports once) past either. */
int qr_cc_count_table_cells(qr_cc *cc, size_t n);
/** Check an array length against max_blocks; returns 0 (and reports) past it. */
int qr_cc_check_blocks(qr_cc *cc, size_t n, const char *what);

/* ---- compile_warn.c: warnings for likely mistakes ------------------------ */

/** A warning (status QR_OK) at the current path; hint is required. */
void qr_cc_warn(qr_cc *cc, const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** Warn when plain text s (n bytes, at the current path) looks like
 *  markdown, which is rendered literally. */
void qr_cc_warn_markdown(qr_cc *cc, const char *s, size_t n);
/** Warn when a sheet string cell looks like a number, a percentage, a date
 *  or a formula (all stored as text). The cell is rows[r][col] below the
 *  current path; the path is only built for a warning that is recorded. */
void qr_cc_warn_cell(qr_cc *cc, const char *s, size_t n, size_t r, size_t col);
/** Whether a sheet string may get a warning (cheap test of its first byte). */
static inline int qr_cc_cell_suspect(const char *s, size_t n)
{
    if (!n) return 0;
    unsigned char c = (unsigned char)s[0];
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == '=';
}

/* ---- compile_text.c: text values, runs, links, list items ---------------- */

/** Compile obj's "text" or "runs" into *out. required: report when both are
 *  absent. Returns 1 when a text was found, 0 when absent, -1 on error. */
int qr_cc_text(qr_cc *cc, json_t *obj, int required, qr_text *out);
/** A plain string already read from member key of the current object (s,
 *  n bytes; NULL or n == 0: empty) as a one-run text at the member's path. */
qr_text qr_cc_plain_at(qr_cc *cc, const char *key, const char *s, size_t n);
/** A string or an array of runs at member key of obj (a caption) into
 *  *out. Returns 1 when present and valid, 0 when absent, -1 when wrong. */
int qr_cc_text_or_runs(qr_cc *cc, json_t *obj, const char *key, qr_text *out);
/** A plain string as a one-run text (the current path is the string's). */
int qr_cc_text_plain(qr_cc *cc, json_t *s, qr_text *out);
/** List items or bullets (an array at the current path); depth is the level
 *  of these items (1 for a top-level list). nonempty: an empty array is an
 *  error. */
int qr_cc_items(qr_cc *cc, json_t *arr, size_t depth, int nonempty, const qr_item **out, size_t *n);

/* ---- compile_doc.c: tables (shared with slides) -------------------------- */

/** Compile a table object at the current path into *t (headers, rows,
 *  widths; the caller has checked the keys: quiet when some were unknown,
 *  which skips the missing "rows" report). Returns 0 or -1. */
int qr_cc_table(qr_cc *cc, json_t *obj, int quiet, qr_table *t);

/* ---- compile_chart.c: charts ------------------------------------------- */

/* Where a chart sits: a document block (needs "type"), a slide's "chart"
 * ("type" optional) or a sheet's "charts" (ranges, "anchor", sizes). */
enum { QR_CC_CHART_BLOCK, QR_CC_CHART_SLIDE, QR_CC_CHART_SHEET };
/** Compile the chart object v at the current path into *ch; sheet charts
 *  resolve ranges against cc->doc->sheets. Returns 0 or -1 (reported). */
int qr_cc_chart(qr_cc *cc, json_t *v, int where, qr_chart *ch);

/* ---- image.c ----------------------------------------------------------- */

/** Load the image named by src (the current path is src's) into *img:
 *  data: URI or a path under base_dir; PNG or JPEG by content. Returns 0 or
 *  -1 (reported). img->alt/path are left to the caller. */
int qr_cc_image_src(qr_cc *cc, json_t *src, qr_image *img);
/* The "alt" and "src" members of an image object v (a block or a slide's
 * image) into img; unk: v already had an unknown key (then a missing "src"
 * is not reported, the unknown key usually being the misspelt one).
 * Returns 1 when something was wrong (reported), else 0. */
int qr_cc_image_fields(qr_cc *cc, json_t *v, qr_image *img, int unk);

/* qr_image_probe: compile.h (the reader sizes images with it too). */

/* ---- compile_markdown.c: Markdown blocks and slide bodies ------------------ */

struct qr_md_loc; /* markdown.h */
/** The blocks of the markdown block v (the current path is the block's), as
 *  a new JSON array in *out with their Markdown locations in *locs (caller
 *  frees both). Returns 0, or -1 (reported). */
int qr_cc_markdown(qr_cc *cc, json_t *v, json_t **out, struct qr_md_loc **locs);
/** After compiling a generated block: errors from e0 on move to path (the
 *  Markdown text) with the location; warnings from w0 on are dropped. */
void qr_cc_markdown_adopt(qr_cc *cc, size_t e0, size_t w0, const char *path, struct qr_md_loc at);
/** A slide object v with "markdown" (the current path is the slide's): a
 *  new copy with bullets, table and image in its place; NULL when reported. */
json_t *qr_cc_md_slide(qr_cc *cc, json_t *v);
/** After compiling that copy: its errors from e0 on name the slide's
 *  "markdown"; warnings from w0 on are dropped. */
void qr_cc_md_slide_done(qr_cc *cc, size_t e0, size_t w0, const char *slide_path);

/* ---- compile_doc.c / compile_deck.c / compile_sheet.c -------------------- */

void qr_cc_document(qr_cc *cc, json_t *root);
void qr_cc_presentation(qr_cc *cc, json_t *root);
void qr_cc_spreadsheet(qr_cc *cc, json_t *root);

/* ---- compile_sheet.c and stream.c: sheets whose rows are compiled as read --------- */

/* The number formats of a workbook: items[0] = "General", then the others
 * in first-use order; copies of the strings live in arena a. */
typedef struct qr_cc_fmts {
    const char **items;
    size_t n, cap;
    uint32_t *slots; /* open addressing: index+1, 0 = free */
    size_t n_slots;
    qr_arena *a;
    /* the cell looks the rows met (compile_look.c): keys 1.. in first-use
     * order, the style names they name (heap copies, with the JSON pointer
     * of their first use) */
    struct qr_cc_lkey *keys;
    size_t n_keys, cap_keys;
    uint32_t *kslots;
    size_t n_kslots;
    char **names, **name_paths;
    size_t n_names, cap_names;
} qr_cc_fmts;

/* ---- compile_look.c: cell looks -------------------------------------------- */

/** The look of obj (a cell, row or column object at the current path): its
 *  "style" name and direct properties as a key of t, into *look (0: none).
 *  Returns 1 (a look), 0 (none) or -1 (reported). */
int qr_cc_look(qr_cc *cc, qr_cc_fmts *t, json_t *obj, unsigned *look);
/** The same for a cell with a link (link != 0): unless the cell names a
 *  style, its own color and underline default to a link's (blue,
 *  underlined). */
int qr_cc_look_link(qr_cc *cc, qr_cc_fmts *t, json_t *obj, int link, unsigned *look);
/** The key of a bare style name (a string json value). 0 or -1. */
int qr_cc_look_name(qr_cc *cc, qr_cc_fmts *t, json_t *name, unsigned *look);
/** At the end of a workbook: read its "styles", check every name the keys
 *  use and set doc->looks (index = key) and doc->header_look. */
void qr_cc_looks(qr_cc *cc, json_t *root, qr_cc_fmts *t);
/** "#RRGGBB" at the current path into *out (QR_SX_RGB | rgb); 0 or -1 (reported). */
int qr_cc_color(qr_cc *cc, json_t *v, uint32_t *out);
/** Free the keys and names of t. */
void qr_cc_looks_free(qr_cc_fmts *t);

/* ---- compile_sheet.c's helpers other sheet parts use ----------------------- */

/** A range "A1:F1" at the current path into *rg; one_cell: a lone cell
 *  "C2" is a range too. 0, or -1 (reported). */
int qr_cc_range_at(qr_cc *cc, json_t *v, int one_cell, qr_range *rg);
/** One of names (NULL-terminated) at obj's key (required: reported when
 *  missing, with hint); its index, or -1 (reported with a did-you-mean). */
int qr_cc_word(qr_cc *cc, json_t *obj, const char *key, const char *const *names, const char *hint);
/** A column "C" (0-based 2) at s: the letters read, 0 when none. */
size_t qr_cc_col_letters(const char *s, uint32_t *col);
/** Each element of the array v at key (pushed on the current path): with
 *  the path at element i, fn(cc, element, items, k, arg) fills items' k-th
 *  (zeroed, size bytes) from it, items holding the n elements' room and k
 *  the items kept so far, and returns 1 to keep it, 0 to drop it. v not an
 *  array: the error "expected an array of <what>, got ..." with hint.
 *  Returns the items (in the arena; NULL when none) and sets *n to those
 *  kept. */
void *qr_cc_each_array(qr_cc *cc, json_t *v, const char *key, const char *hint, const char *what,
                       size_t size, int (*fn)(qr_cc *, json_t *, void *, size_t, void *), void *arg,
                       size_t *n);

/* ---- compile_print.c: a sheet's "print" ------------------------------------ */

/** A sheet's "print" (v, below the sheet's path) into sh->print, after its
 *  rows (repeated rows are checked against them). */
void qr_cc_sheet_print(qr_cc *cc, json_t *v, qr_sheet *sh);

/** The index of format s (n bytes), added when new; -1 on OOM, -2 when full. */
long qr_cc_fmt_add(qr_cc_fmts *t, const char *s, size_t n);
void qr_cc_fmts_free(qr_cc_fmts *t);
/** Compile rows[r] (the current path is the sheet's "rows") into *dst,
 *  cells in cc->a, raising *n_cols to its length. Returns 0, or -1 when the
 *  sheet's rows must stop (max_cells passed, out of memory). */
int qr_cc_sheet_row(qr_cc *cc, qr_cc_fmts *ft, json_t *row, size_t r, qr_row *dst, size_t *n_cols);

/* One sheet's rows as the streaming pass met them (stream.c). */
typedef struct qr_srows {
    size_t n_json; /* rows read */
    size_t n_cols; /* the longest */
    size_t cells;  /* cells counted */
    qr_row *held;  /* the first n_held rows (cells in the document's arena) */
    size_t n_held, cap_held;
    qr_errlist errs, warns; /* what those rows reported, capped as qr_cc caps */
    size_t n_errors, n_suppressed, n_warnings;
    int limit;
    unsigned outline; /* the deepest row outline level met */
} qr_srows;

struct qr_cc_stream {
    qr_srows *sheets; /* by sheet index; n_json 0: nothing was streamed */
    size_t n_sheets;
    qr_cc_fmts fmts; /* formats met by the rows (then by the whole workbook) */
    int fallback;    /* the tree path must compile this spec (stream.c says when) */
    int all;         /* every row is kept (QR_STREAM_ALL): charts can read them */
};

/** compile.c: qr_compile_reader of a spreadsheet whose rows hook takes as
 *  read (stream.c); *doc_in is the document they are compiled into, owned
 *  by the compiler once the text has been read (*doc_in set to NULL). */
qr_status qr_compile_stream(qr_read_fn read, void *ctx, const qr_compile_opts *opts,
                            qr_cc_stream *cs, qr_doc **doc_in, const struct qr_jp_hook *hook,
                            qr_doc **out, qr_errlist *errs);
/** The streamed rows of sheet i, or NULL when it has none (or no stream). */
const qr_srows *qr_cc_stream_rows(qr_cc *cc, size_t i);
/** At the point where the tree path compiles the rows: report their
 *  errors and warnings (as qr_cc_err and qr_cc_warn would have, capped),
 *  count their cells, and copy the held rows to out. */
void qr_cc_stream_replay(qr_cc *cc, const qr_srows *sr, qr_row *out);
/** title and lang (shared by every kind). */
void qr_cc_title_lang(qr_cc *cc, json_t *root);

/* ---- compile.c ----------------------------------------------------------- */

/** Check UTF-8; returns the byte offset of the first bad byte, or (size_t)-1. */
size_t qr_utf8_check(const char *s, size_t n);
/** Parse JSON text pulled through read (see qr_compile_reader) with the
 *  size (max_input; 0: none) and UTF-8 checked as it streams, a leading
 *  byte order mark skipped, duplicate keys rejected and a string holding an
 *  object unwrapped. A string that does not hold an object is returned as
 *  it is when keep_strings, else it is an error. On failure reports one
 *  error, the first a check of the whole text would find (QR_E_IO,
 *  QR_E_LIMIT for size or depth, QR_E_UTF8, QR_E_JSON, or QR_E_SPEC for a
 *  bad string-wrapped spec), sets *st and returns NULL. */
json_t *qr_json_read(qr_read_fn read, void *ctx, size_t max_input, int keep_strings,
                     qr_errlist *errs, qr_status *st);
/** qr_json_read with an element hook (json_parse.h): rows taken as read. */
json_t *qr_json_read_hook(qr_read_fn read, void *ctx, size_t max_input, int keep_strings,
                          const struct qr_jp_hook *hook, qr_errlist *errs, qr_status *st);
/** qr_json_read over text in memory, with no size limit. */
json_t *qr_json_parse(const char *json, size_t len, int keep_strings, qr_errlist *errs,
                      qr_status *st);

/* ---- canonical.c ----------------------------------------------------------- */

/** Canonical JSON (qr_canonical) of a tree in memory, written straight from
 *  it (no text to parse again): the bytes qr_canonical gives for any text of
 *  that tree. Returns 0 with out replaced; 1 when only the text path can
 *  answer (the root is not an object: a string root is unwrapped there; or
 *  it nests close to QR_JP_MAX_DEPTH, which the parse reports), out
 *  untouched; -1 out of memory. */
int qr_canonical_value(json_t *root, qr_buf *out);

/** Read the top-level "theme" and "accent" keys into cc->doc. */
void qr_cc_theme(qr_cc *cc, json_t *root);
/** "numbered_headings": "1", "1.1" ... as a first run of each heading (heading_numbers.c). */
void qr_cc_number_headings(qr_cc *cc, qr_block *blocks, size_t n_blocks);

#endif
