/* cli_markdown.h: a .md file as the spec of render, check, read and import. */
#ifndef QR_CLI_MARKDOWN_H
#define QR_CLI_MARKDOWN_H

#include <stddef.h>

#include <quire/quire.h>

/** 1 when path names a Markdown file (.md, .markdown). */
int qr_cli_is_markdown(const char *path);
/** Read the Markdown file path (at most max bytes; "-" is stdin) and return
 *  the spec it stands for (markdown.h's qr_md_spec: a document, or a deck
 *  for QR_KIND_PRESENTATION; expand: the blocks written out), caller frees.
 *  On failure prints the result line and returns NULL with the exit code in
 *  *rc. */
char *qr_cli_markdown_spec(const char *path, size_t max, qr_kind kind, int expand, size_t *len,
                           int *rc);

/** `quire read notes.md [-o OUT]`: the spec with the blocks the Markdown
 *  stands for written out (a deck for QR_KIND_PRESENTATION). Returns the
 *  exit code. */
int qr_cli_markdown_read(const char *path, size_t max, qr_kind kind, const char *out);
/** `quire import notes.md`: a new artifact whose spec is the document the
 *  Markdown stands for (one markdown block, so later edits patch its
 *  text), rendered and stored as version 1. Returns the exit code. */
int qr_cli_markdown_import(const char *path, size_t max, const char *store, const char *title,
                           const char *id, const char *owner);

#endif
