/* cli_fonts.c: `quire fonts TEXT` and `quire fonts --spec SPEC [-k KIND]`.
 *
 * A window onto fonts/: for a text, or for every text of a compiled spec, it
 * prints the spans the backends will write (text, script, family, file,
 * direction, slot, lang), one JSON object per line, then the characters no
 * installed font covers. Used to answer "why is this word in that font?".
 */
#include "cli_fonts.h"
#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "compile.h"
#include "fonts.h"
#include "utf8.h"

static const char usage[] =
    "usage: quire fonts [--lang LANG] TEXT\n"
    "       quire fonts --spec SPEC [-k KIND] [--lang LANG]\n"
    "Prints one JSON object per script run: text, script, family, file, direction.\n";

static void put_utf8(qr_buf *b, uint32_t cp)
{
    char u[4];
    size_t k = qr_utf8_encode(cp, u);
    qr_json_strn(b, u, k);
}

static const char *slot_name(qr_font_slot s)
{
    switch (s) {
    case QR_SLOT_LATIN:
        return "latin";
    case QR_SLOT_EAST_ASIAN:
        return "east_asian";
    case QR_SLOT_COMPLEX:
        return "complex";
    }
    return "latin";
}

static const char *dir_name(qr_dir d)
{
    return d == QR_DIR_RTL ? "rtl" : d == QR_DIR_LTR ? "ltr" : "neutral";
}

typedef struct walk {
    qr_fonts *f;
    const char *lang;
    qr_spans spans;
    qr_buf line;
    int failed; /* out of memory or a write error */
} walk;

static void flush_line(walk *w)
{
    if (w->line.oom) {
        w->failed = 1;
    } else {
        qr_buf_putc(&w->line, '\n');
        if (fwrite(w->line.data, 1, w->line.len, stdout) != w->line.len) w->failed = 1;
    }
    w->line.len = 0;
}

/* Itemize one text and print its spans and missing characters. path may be
 * NULL (a plain TEXT argument). */
static void show_text(walk *w, const qr_text *t, const char *path)
{
    if (!t || t->n == 0) return;
    qr_spans_reset(&w->spans);
    if (qr_fonts_itemize_text(w->f, t, w->lang, &w->spans) != QR_OK) {
        w->failed = 1;
        return;
    }
    const char *para = dir_name(qr_fonts_text_direction(t));
    for (size_t i = 0; i < w->spans.n; i++) {
        const qr_span *s = &w->spans.items[i];
        qr_buf *b = &w->line;
        qr_buf_puts(b, "{");
        if (path) {
            qr_buf_puts(b, "\"path\":");
            qr_json_str(b, path);
            qr_buf_printf(b, ",\"run\":%u,", (unsigned)s->run);
        }
        qr_buf_puts(b, "\"text\":");
        qr_json_strn(b, t->runs[s->run].text + s->start, s->len);
        qr_buf_puts(b, ",\"script\":");
        qr_json_str(b, qr_script_name(s->script));
        qr_buf_puts(b, ",\"family\":");
        qr_json_str(b, s->family);
        qr_buf_puts(b, ",\"file\":");
        qr_json_str(b, s->file ? s->file : "");
        qr_buf_printf(b, ",\"direction\":\"%s\",\"paragraph\":\"%s\",\"slot\":\"%s\",\"lang\":",
                      s->rtl ? "rtl" : "ltr", para, slot_name(s->slot));
        if (s->lang)
            qr_json_str(b, s->lang);
        else
            qr_buf_puts(b, "null");
        qr_buf_puts(b, "}");
        flush_line(w);
    }
    for (size_t i = 0; i < w->spans.n_missing; i++) {
        const qr_missing *m = &w->spans.missing[i];
        qr_buf *b = &w->line;
        qr_buf_puts(b, "{");
        if (path) {
            qr_buf_puts(b, "\"path\":");
            qr_json_str(b, path);
            qr_buf_printf(b, ",\"run\":%u,", (unsigned)m->run);
        }
        qr_buf_printf(b, "\"missing\":\"U+%04X\",\"char\":", (unsigned)m->cp);
        put_utf8(b, m->cp);
        qr_buf_puts(b, "}");
        flush_line(w);
    }
}

static void show_str(walk *w, const char *s, size_t len, const char *path)
{
    if (!s || !len) return;
    qr_run run = {0};
    run.text = s;
    run.len = len;
    qr_text t = {&run, 1, path};
    show_text(w, &t, path);
}

static void show_tree_text(walk *w, const qr_text *t)
{
    show_text(w, t, t->path ? t->path : "");
}

static void show_items(walk *w, const qr_item *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        show_tree_text(w, &items[i].text);
        show_items(w, items[i].items, items[i].n_items);
    }
}

static void show_table(walk *w, const qr_table *t)
{
    for (size_t c = 0; t->headers && c < t->n_headers; c++)
        show_tree_text(w, &t->headers[c].text);
    for (size_t r = 0; r < t->n_rows; r++)
        for (size_t c = 0; c < t->n_cols; c++)
            show_tree_text(w, &t->rows[r][c].text);
}

static void show_image(walk *w, const qr_image *im)
{
    if (!im->alt || !*im->alt) return;
    char path[512];
    snprintf(path, sizeof path, "%s/alt", im->path ? im->path : "");
    show_str(w, im->alt, strlen(im->alt), path);
}

static void show_doc(walk *w, const qr_doc *d)
{
    if (d->title) show_str(w, d->title, strlen(d->title), "/title");
    for (size_t i = 0; i < d->n_blocks; i++) {
        const qr_block *b = &d->blocks[i];
        switch (b->type) {
        case QR_BLOCK_HEADING:
            show_tree_text(w, &b->u.heading.text);
            break;
        case QR_BLOCK_PARAGRAPH:
            show_tree_text(w, &b->u.paragraph.text);
            break;
        case QR_BLOCK_LIST:
            show_items(w, b->u.list.items, b->u.list.n_items);
            break;
        case QR_BLOCK_TABLE:
            show_table(w, &b->u.table);
            break;
        case QR_BLOCK_CODE: {
            char path[512];
            snprintf(path, sizeof path, "%s/text", b->path ? b->path : "");
            show_str(w, b->u.code.text, b->u.code.len, path);
            break;
        }
        case QR_BLOCK_IMAGE:
            show_image(w, &b->u.image);
            break;
        case QR_BLOCK_PAGE_BREAK:
            break;
        case QR_BLOCK_CHART: {
            const qr_chart *c = &b->u.chart;
            if (c->title) show_str(w, c->title, strlen(c->title), c->path);
            for (size_t k = 0; k < c->n_categories; k++)
                show_str(w, c->categories[k], strlen(c->categories[k]), c->path);
            for (size_t k = 0; k < c->n_series; k++)
                show_str(w, c->series[k].name, strlen(c->series[k].name), c->series[k].path);
            break;
        }
        }
    }
    for (size_t i = 0; i < d->n_slides; i++) {
        const qr_slide *s = &d->slides[i];
        if (s->has_title) show_tree_text(w, &s->title);
        if (s->has_subtitle) show_tree_text(w, &s->subtitle);
        show_items(w, s->bullets, s->n_bullets);
        if (s->table) show_table(w, s->table);
        if (s->image) show_image(w, s->image);
        if (s->notes) {
            char path[512];
            snprintf(path, sizeof path, "%s/notes", s->path ? s->path : "");
            show_str(w, s->notes, strlen(s->notes), path);
        }
    }
    for (size_t i = 0; i < d->n_sheets; i++) {
        const qr_sheet *sh = &d->sheets[i];
        char path[512];
        if (sh->name) {
            snprintf(path, sizeof path, "%s/name", sh->path ? sh->path : "");
            show_str(w, sh->name, strlen(sh->name), path);
        }
        for (size_t r = 0; r < sh->n_rows; r++)
            for (uint32_t c = 0; c < sh->rows[r].n; c++) {
                const qr_cell *cell = &sh->rows[r].cells[c];
                if (cell->type != QR_CELL_TEXT) continue;
                snprintf(path, sizeof path, "%s/rows/%zu/%u", sh->path ? sh->path : "", r,
                         (unsigned)c);
                show_str(w, cell->v.str, cell->len, path);
            }
    }
}

static int usage_error(const char *msg)
{
    qr_buf b = {0};
    qr_buf_puts(&b, "{\"status\":\"error\",\"error\":");
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"errors\":[{\"path\":\"\",\"message\":");
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"hint\":\"see quire fonts --help\"}]}\n");
    if (!b.oom) fwrite(b.data, 1, b.len, stdout);
    qr_buf_free(&b);
    fputs(usage, stderr);
    return 2;
}

static char *read_file(const char *path, size_t *len, char *msg, size_t msgsz)
{
    qr_status st;
    return qr_cli_read(path, 0, len, &st, msg, msgsz);
}

static int show_spec(walk *w, const char *path, const char *kind_name)
{
    char msg[512];
    size_t len = 0;
    char *text = read_file(path, &len, msg, sizeof msg);
    qr_buf b = {0};
    if (!text) {
        qr_buf_puts(&b, "{\"status\":\"error\",\"error\":");
        qr_json_str(&b, msg);
        qr_buf_puts(&b, ",\"errors\":[{\"path\":\"\",\"message\":");
        qr_json_str(&b, msg);
        qr_buf_puts(&b, ",\"hint\":null}]}\n");
        if (!b.oom) fwrite(b.data, 1, b.len, stdout);
        qr_buf_free(&b);
        return 3;
    }
    qr_kind kind = QR_KIND_DOCUMENT;
    if (kind_name) {
        if (qr_kind_parse(kind_name, &kind) != 0) {
            free(text);
            return usage_error("-k takes document, spreadsheet, presentation, pdf or html");
        }
    } else if (qr_kind_guess(text, len, &kind) != 0) {
        kind = QR_KIND_DOCUMENT; /* not an object: let the compiler say why */
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (slash && (size_t)(slash - path) < sizeof dir) {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
        if (slash == path) strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    o.base_dir = dir;
    qr_errlist errs = {0};
    qr_doc *doc = NULL;
    qr_status st = qr_compile(text, len, kind, &o, &doc, &errs);
    free(text);
    if (st != QR_OK) {
        qr_buf_puts(&b, "{\"status\":\"error\",\"error\":");
        if (errs.count > 1)
            qr_buf_printf(&b, "\"%zu %s errors\"", errs.count,
                          st == QR_E_SPEC ? "spec" : qr_status_str(st));
        else
            qr_json_str(&b, errs.count ? errs.items[0].message : qr_status_str(st));
        qr_buf_puts(&b, ",\"errors\":[");
        for (size_t i = 0; i < errs.count; i++) {
            const qr_error *e = &errs.items[i];
            qr_buf_puts(&b, i ? ",{\"path\":" : "{\"path\":");
            qr_json_str(&b, e->path ? e->path : "");
            qr_buf_puts(&b, ",\"message\":");
            qr_json_str(&b, e->message ? e->message : "");
            qr_buf_puts(&b, ",\"hint\":");
            if (e->hint)
                qr_json_str(&b, e->hint);
            else
                qr_buf_puts(&b, "null");
            qr_buf_puts(&b, "}");
        }
        qr_buf_puts(&b, "]}\n");
        if (!b.oom) fwrite(b.data, 1, b.len, stdout);
        qr_buf_free(&b);
        qr_errlist_clear(&errs);
        return qr_status_exit(st);
    }
    qr_errlist_clear(&errs);
    if (!w->lang) w->lang = doc->lang;
    show_doc(w, doc);
    qr_doc_free(doc);
    return 0;
}

int qr_cli_fonts(int argc, char **argv)
{
    const char *spec = NULL, *kind = NULL, *lang = NULL, *text = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--spec") == 0 || strcmp(a, "-s") == 0) {
            if (i + 1 >= argc) return usage_error("--spec needs a file");
            spec = argv[++i];
        } else if (strcmp(a, "-k") == 0 || strcmp(a, "--kind") == 0) {
            if (i + 1 >= argc) return usage_error("-k needs a kind");
            kind = argv[++i];
        } else if (strcmp(a, "--lang") == 0) {
            if (i + 1 >= argc) return usage_error("--lang needs a BCP 47 tag");
            lang = argv[++i];
        } else if (strcmp(a, "--") == 0 && i + 1 < argc && !text) {
            text = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option %.200s", a);
            return usage_error(msg);
        } else if (!text) {
            text = a;
        } else {
            return usage_error("quire fonts takes one TEXT (quote it)");
        }
    }
    if (!!spec == !!text) return usage_error("give a TEXT or --spec SPEC");
    if (kind && !spec) return usage_error("-k goes with --spec");

    walk w;
    memset(&w, 0, sizeof w);
    w.f = qr_fonts_default();
    w.lang = lang;
    int rc = 0;
    if (spec)
        rc = show_spec(&w, spec, kind);
    else
        show_str(&w, text, strlen(text), NULL);
    qr_spans_free(&w.spans);
    qr_buf_free(&w.line);
    if (fflush(stdout) != 0) w.failed = 1;
    if (w.failed && rc == 0) {
        fputs("quire fonts: out of memory or write error\n", stderr);
        rc = 3;
    }
    return rc;
}
