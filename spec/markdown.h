/* markdown.h: Markdown in, through cmark-gfm, as the spec's own JSON blocks.
 *
 * A "markdown" block ({"type": "markdown", "text": "...", "heading_offset":
 * n}) is not a tree type of its own: the compiler (compile_doc.c) asks this
 * module for the blocks the text stands for and compiles them in its place,
 * exactly as it compiles blocks written by hand. So the same content written
 * as blocks gives the same tree and the same bytes in every backend, and
 * every rule of the spec (link schemes, images relative to the spec, limits)
 * applies unchanged. A slide's "markdown" body and a deck written as one
 * Markdown text (qr_md_spec with QR_KIND_PRESENTATION) go the same way.
 *
 * The mapping (GitHub Flavored Markdown, cmark-gfm 0.29 with the table,
 * strikethrough, autolink and tasklist extensions and footnotes):
 *   # .. ######        heading, level + heading_offset (at most 6)
 *   paragraph          paragraph; *em* italic, **strong** bold, ~~x~~ strike,
 *                      `code` code, [t](url) and autolinks link, hard break
 *                      "\n" in the run, soft break a space
 *   ![alt](src)        image block (split out of its paragraph)
 *   - / 1. lists       list ("ordered", "start" past 1, nested "items"); a
 *                      list item's other blocks (more paragraphs, code
 *                      fences) join its text with line breaks; task items
 *                      of bullet lists "checked" (in ordered lists and on
 *                      slides their "[ ] "/"[x] " stays text)
 *   | tables |         table: the first row "headers", the others "rows",
 *                      column alignment (:--, :-:, --:) its "align" (null
 *                      for a column with none; a slide table drops it)
 *   ``` fences         code block with "language" (the info string's first word)
 *   > quotes           a quote block per paragraph (nested quotes flatten;
 *                      their lists and code stay blocks of their own)
 *   ---                rule block
 *   [^1] footnotes     a footnote run at the reference ({"footnote": runs of
 *                      the note}); a note cited twice is printed twice
 *   raw HTML           literal text, never interpreted
 * Deck (qr_md_spec, presentation): a level-1 or level-2 heading starts a
 * slide and is its title; a thematic break (---) starts a slide with no
 * title; a paragraph that begins "Note:" and everything after it on that
 * slide are its speaker notes; the rest of the slide is its "markdown" body.
 * A slide body: lists and paragraphs become bullets (levels from nesting),
 * the first table the slide's table, the first image its image, a code
 * block bullets of code runs, one per line.
 *
 * Errors name the JSON pointer of the Markdown text (given by the caller)
 * and the line and column in the Markdown. Input is bounded: nesting deeper
 * than max_depth levels is an error at its line, NUL bytes are an error at
 * their line, table cells past max_cells are counted before cmark-gfm pads
 * them (a limit error at the table's line), and cmark-gfm's own parse is
 * linear in the input. */
#ifndef QR_MARKDOWN_H
#define QR_MARKDOWN_H

#include <jansson.h>
#include <stddef.h>

#include <quire/quire.h>

typedef struct qr_md_opts {
    int heading_offset; /* added to every heading level (levels stop at 6) */
    size_t max_depth;   /* lists and quotes nested deeper are an error; 0: 9 */
    const char *path;   /* the JSON pointer of the text, for errors ("" if NULL) */
    int line0;          /* lines before the text in its file (front matter) */
    size_t max_cells;   /* table cells, counted before parsing; 0: 100,000 */
    int slide;          /* a slide body: task boxes stay "[x] "/"[ ] " text */
} qr_md_opts;

/* Where a generated block came from. */
typedef struct qr_md_loc {
    int line, col;
} qr_md_loc;

/** The blocks Markdown text s (n bytes) stands for, as a new JSON array of
 *  document blocks; *locs (malloc'd, one per block, caller frees) says where
 *  each starts. On bad input: NULL, with the errors added to errs (status
 *  QR_E_SPEC, QR_E_LIMIT for nesting), each naming o->path and the line and
 *  column. */
json_t *qr_md_blocks(const char *s, size_t n, const qr_md_opts *o, qr_md_loc **locs,
                     qr_errlist *errs);

/** A slide body: the keys "bullets", "table", "image" (see the mapping
 *  above) set on slide (which already exists). Returns 0, or -1 with errors
 *  in errs. The caller compiles the keys as if written by hand. */
int qr_md_slide(const char *s, size_t n, const qr_md_opts *o, json_t *slide, qr_errlist *errs);

/** A whole Markdown file (front matter, then the text) as a spec's JSON text:
 *  a document ({"title", "lang", "theme", "blocks": [{"type": "markdown"}]})
 *  or, for QR_KIND_PRESENTATION, a deck whose slides carry "markdown" bodies.
 *  expand: a document's blocks are the blocks the Markdown stands for (what
 *  `quire read notes.md` prints) instead of one markdown block. Invalid
 *  UTF-8 is a QR_E_UTF8 error with its line and column.
 *  Front matter: a first line "---", then "key: value" lines (title, lang,
 *  theme; author, subject, keywords, date into a document's "properties",
 *  refused for a deck; quotes around the value are removed), then "---".
 *  Returns a malloc'd
 *  NUL-terminated text (*len its length) or NULL with errors in errs (paths
 *  "/blocks/0/text" for the body, "" for the front matter). */
char *qr_md_spec(const char *s, size_t n, qr_kind kind, int expand, size_t *len, qr_errlist *errs);

/** Move the errors (or warnings) l->items[from..] of a generated block to
 *  the Markdown text: path replaced by path, message suffixed with the line
 *  and column. */
void qr_md_relocate(qr_errlist *l, size_t from, const char *path, qr_md_loc at);

/** 1 when name ends in .md or .markdown (any case). */
int qr_md_is_path(const char *name);

#endif
