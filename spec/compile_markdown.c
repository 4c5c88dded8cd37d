/* compile_markdown.c: the compiler's side of Markdown (markdown.h does the
 * parsing). A document's {"type": "markdown"} block is expanded into the
 * blocks its text stands for before the blocks are compiled (compile_doc.c
 * compiles them in its place with the same block() as every block written
 * by hand); a slide's "markdown" body becomes its bullets, table and image.
 * Errors of the generated blocks are moved onto the Markdown text: the
 * pointer of its "text" (or the slide's "markdown") and the line and column
 * in the Markdown. Warnings for "markdown in plain text" are dropped for
 * generated text: it is Markdown's literal text by construction. */
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "markdown.h"
#include "schema.h"

/* Report the errors of a markdown parse (in local) at the current path. */
static void report(qr_cc *cc, qr_errlist *local)
{
    for (size_t i = 0; i < local->count; i++) {
        const qr_error *e = &local->items[i];
        if (e->code == QR_E_LIMIT)
            qr_cc_limit(cc, strstr(e->message, "cells") ? "max_table_cells" : "max_list_depth",
                        "%s", e->message);
        else if (e->code == QR_E_NOMEM)
            qr_cc_oom(cc);
        else
            qr_cc_err(cc, e->hint, "%s", e->message);
    }
    qr_errlist_clear(local);
}

int qr_cc_markdown(qr_cc *cc, json_t *v, json_t **out, qr_md_loc **locs)
{
    *out = NULL;
    *locs = NULL;
    int unk = qr_cc_check_obj(cc, v, QR_SO_MARKDOWN, "a markdown block");
    const char *s = NULL;
    size_t n = 0;
    if (qr_cc_get_string(cc, v, "text", !unk, &s, &n) != 1) return -1;
    int off = 0;
    if (qr_cc_get_int(cc, v, "heading_offset", 0, 5, &off) < 0) return -1;
    if (unk) return -1;
    qr_md_opts o = {.heading_offset = off,
                    .max_depth = cc->lim->max_list_depth,
                    .max_cells = cc->lim->max_table_cells};
    qr_errlist local = {0};
    size_t old = qr_cc_push_key(cc, "text");
    json_t *bl = qr_md_blocks(s, n, &o, locs, &local);
    report(cc, &local);
    qr_cc_pop(cc, old);
    if (!bl) return -1;
    *out = bl;
    return 0;
}

void qr_cc_markdown_adopt(qr_cc *cc, size_t e0, size_t w0, const char *path, qr_md_loc at)
{
    qr_md_relocate(cc->errs, e0, path, at);
    if (cc->warns && cc->warns->count > w0) {
        for (size_t i = w0; i < cc->warns->count; i++) {
            free(cc->warns->items[i].path);
            free(cc->warns->items[i].message);
            free(cc->warns->items[i].hint);
        }
        size_t dropped = cc->warns->count - w0;
        cc->warns->count = w0;
        cc->n_warnings = cc->n_warnings > dropped ? cc->n_warnings - dropped : 0;
    }
}

json_t *qr_cc_md_slide(qr_cc *cc, json_t *v)
{
    json_t *mdv = json_object_get(v, "markdown");
    size_t old = qr_cc_push_key(cc, "markdown");
    if (!json_is_string(mdv)) {
        qr_cc_err(cc, "\"markdown\" is the slide body as one Markdown string",
                  "expected a string, got %s", qr_cc_type_name(mdv));
        qr_cc_pop(cc, old);
        return NULL;
    }
    static const char *const body[] = {"bullets", "table", "image"};
    for (size_t i = 0; i < 3; i++)
        if (json_object_get(v, body[i])) {
            qr_cc_err(cc, "give the body either as \"markdown\" or as bullets, table and image",
                      "a slide with \"markdown\" cannot also have \"%s\"", body[i]);
            qr_cc_pop(cc, old);
            return NULL;
        }
    size_t n;
    const char *s = qr_cc_str(cc, mdv, &n);
    if (!s) {
        qr_cc_pop(cc, old);
        return NULL;
    }
    json_t *copy = json_copy(v);
    if (!copy) {
        qr_cc_oom(cc);
        qr_cc_pop(cc, old);
        return NULL;
    }
    json_object_del(copy, "markdown");
    qr_md_opts o = {.max_depth = cc->lim->max_list_depth, .max_cells = cc->lim->max_table_cells};
    qr_errlist local = {0};
    int r = qr_md_slide(s, n, &o, copy, &local);
    report(cc, &local);
    qr_cc_pop(cc, old);
    if (r < 0) {
        json_decref(copy);
        return NULL;
    }
    return copy;
}

void qr_cc_md_slide_done(qr_cc *cc, size_t e0, size_t w0, const char *slide_path)
{
    size_t pl = strlen(slide_path);
    char *path = malloc(pl + sizeof "/markdown");
    if (!path) return;
    memcpy(path, slide_path, pl);
    memcpy(path + pl, "/markdown", sizeof "/markdown");
    /* only the keys the Markdown wrote move: title, notes stay where they are */
    for (size_t i = e0; i < cc->errs->count; i++) {
        qr_error *e = &cc->errs->items[i];
        if (strncmp(e->path, slide_path, pl) != 0) continue;
        const char *rest = e->path + pl;
        if (strncmp(rest, "/bullets", 8) && strncmp(rest, "/table", 6) &&
            strncmp(rest, "/image", 6))
            continue;
        char *p = strdup(path);
        if (!p) continue;
        free(e->path);
        e->path = p;
    }
    free(path);
    qr_cc_markdown_adopt(cc, cc->errs->count, w0, "", (qr_md_loc){0, 0});
}
