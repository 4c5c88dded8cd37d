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
#include "walk.h"

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

/* Every text of the tree, in the walker's order (spec/walk.h). */
static int show_walked(void *ud, const qr_walk_text *t)
{
    walk *w = ud;
    show_text(w, t->text, t->text->path ? t->text->path : "");
    return w->failed;
}

static void show_doc(walk *w, const qr_doc *d)
{
    qr_walker wk = {.text = show_walked, .sheet_cells = 1, .ud = w};
    qr_doc_walk(d, &wk);
}

static int usage_error(const char *msg)
{
    qr_buf b = {0};
    qr_json_error_head(&b, QR_E_USAGE);
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
        qr_json_error_head(&b, QR_E_IO);
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
        qr_json_error_head(&b, st);
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
