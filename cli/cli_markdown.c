/* cli_markdown.c: Markdown files on the command line. `quire render
 * notes.md -o notes.docx` (or -k presentation for a deck), `quire check
 * notes.md`, `quire read notes.md` (the blocks it stands for) and `quire
 * import notes.md` read the file here and hand the spec it stands for
 * (spec/markdown.h) to the same paths a JSON spec takes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic.h"
#include "cli_markdown.h"
#include "json_out.h"
#include "markdown.h"
#include <quire/store.h>

int qr_cli_is_markdown(const char *path)
{
    return path && qr_md_is_path(path);
}

char *qr_cli_markdown_spec(const char *path, size_t max, qr_kind kind, int expand, size_t *len,
                           int *rc)
{
    char msg[512];
    qr_status st = QR_OK;
    size_t n = 0;
    qr_errlist errs = {0};
    char *text = qr_cli_read(path, max, &n, &st, msg, sizeof msg);
    if (!text) {
        qr_errlist_add(&errs, st, "", msg, NULL);
        *rc = qr_cli_fail(st, NULL, &errs);
        qr_errlist_clear(&errs);
        return NULL;
    }
    char *spec = qr_md_spec(text, n, kind, expand, len, &errs);
    free(text);
    if (!spec) {
        st = errs.count ? errs.items[0].code : QR_E_SPEC;
        *rc = qr_cli_fail(st, NULL, &errs);
        qr_errlist_clear(&errs);
        return NULL;
    }
    qr_errlist_clear(&errs);
    return spec;
}

int qr_cli_markdown_read(const char *path, size_t max, qr_kind kind, const char *out)
{
    int rc = 0;
    size_t len = 0;
    char *spec = qr_cli_markdown_spec(path, max, kind, 1, &len, &rc);
    if (!spec) return rc;
    if (out) {
        qr_errlist errs = {0};
        if (qr_atomic_write_path(out, spec, len) != 0) {
            qr_errlist_addf(&errs, QR_E_IO, "", NULL, "cannot write %s: %s", out, strerror(errno));
            rc = qr_cli_fail(QR_E_IO, NULL, &errs);
            qr_errlist_clear(&errs);
        } else {
            qr_buf b = {0};
            qr_buf_puts(&b, "{\"status\":\"ok\",\"path\":");
            qr_json_str(&b, out);
            qr_buf_puts(&b, ",\"kind\":");
            qr_json_str(&b, qr_kind_str(kind));
            qr_buf_printf(&b, ",\"size\":%zu,\"warnings\":[]}", len);
            qr_json_print(&b);
            qr_buf_free(&b);
        }
    } else {
        fwrite(spec, 1, len, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    free(spec);
    return rc;
}

int qr_cli_markdown_import(const char *path, size_t max, const char *store, const char *title,
                           const char *id, const char *owner)
{
    int rc = 0;
    size_t len = 0;
    char *spec = qr_cli_markdown_spec(path, max, QR_KIND_DOCUMENT, 0, &len, &rc);
    if (!spec) return rc;
    if (!store || !*store) store = getenv("QUIRE_STORE");
    if (!store || !*store) store = ".quire";
    qr_store *s = NULL;
    qr_errlist errs = {0};
    qr_status st = qr_store_open(store, NULL, &s, &errs);
    if (st != QR_OK) {
        rc = qr_cli_fail(st, NULL, &errs);
        qr_errlist_clear(&errs);
        free(spec);
        return rc;
    }
    /* The title: --title, else the file's name without folder and extension. */
    char t[256];
    if (title) {
        snprintf(t, sizeof t, "%s", title);
    } else {
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        const char *dot = strrchr(base, '.');
        snprintf(t, sizeof t, "%.*s", (int)(dot && dot > base ? dot - base : (long)strlen(base)),
                 base);
    }
    qr_store_result sr;
    st = qr_store_create(s, QR_KIND_DOCUMENT, spec, len, t, id, owner, &sr);
    if (st != QR_OK) {
        rc = qr_cli_fail(st, NULL, &sr.errors);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"artifact_id\":");
        qr_json_str(&b, sr.artifact_id);
        qr_buf_puts(&b, ",\"kind\":\"document\",\"title\":");
        qr_json_str(&b, t);
        qr_buf_printf(&b, ",\"version\":%d,\"source\":", sr.version.version);
        qr_json_str(&b, path);
        qr_buf_puts(&b, ",\"warnings\":[]}");
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_result_free(&sr);
    qr_store_close(s);
    free(spec);
    return rc;
}
