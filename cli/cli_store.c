/* cli_store.c: `quire create|edit|rewrite|show|log|diff|restore|export|fsck|
 * list|delete` and `quire store init|copy` (cli_store.h). Parses arguments, calls the store API,
 * prints one JSON line (show prints the spec; diff --unified prints text) and returns the exit
 * code. */
#include "cli_store.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "cli_inline.h"
#include "compile_int.h"
#include "json_out.h"
#include <quire/quire.h>

#define MAX_SHOWN 20
#define BUDGET 3300

typedef struct args {
    const char *cmd, *store, *kind, *title, *id, *owner, *patch, *append, *ops, *out;
    const char *cursor, *from, *to;
    const char *q_artifacts, *q_bytes; /* store quota: --artifacts, --bytes */
    const char *base_dir; /* image files of create/edit/rewrite (default: the file's folder) */
    const char *pos[4];
    int npos, version, repair, unified, limit, json;
    int purge, trash; /* delete --purge, list --trash */
    qr_store_write w; /* --if-version, --key */
    qr_store_opts opts;
} args;

static int usage(const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg ? arg : "");
    qr_buf b = {0};
    qr_json_error_head(&b, QR_E_USAGE);
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"errors\":[{\"path\":\"\",\"message\":");
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"hint\":\"run quire --help\"}]}");
    qr_json_print(&b);
    qr_buf_free(&b);
    fprintf(stderr, "quire: %s\n", msg);
    return 2;
}

/* Print a failure (with the artifact's head when head > 0, so a client
 * that lost a conflict can retry against it) and return its exit code. */
static int failure_head(qr_status st, const qr_errlist *errs, int head_version)
{
    qr_buf b = {0};
    size_t n = errs->count;
    char head[600];
    if (n == 1)
        snprintf(head, sizeof head, "%s", errs->items[0].message);
    else if (st == QR_E_SPEC)
        snprintf(head, sizeof head, "%zu spec errors", n);
    else
        snprintf(head, sizeof head, "%s (%zu errors)", qr_status_str(st), n);
    qr_json_error_head(&b, st);
    qr_json_str_max(&b, head, 500);
    qr_buf_puts(&b, ",\"errors\":");
    size_t omitted = qr_json_errors(&b, errs, MAX_SHOWN, BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"errors_omitted\":%zu", omitted);
    if (head_version > 0) qr_buf_printf(&b, ",\"head\":%d", head_version);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
    for (size_t i = 0; i < n && i < MAX_SHOWN; i++) {
        const qr_error *e = &errs->items[i];
        char mb[1024], hb[512]; /* the CLI's wording, as in the JSON line */
        const char *hint = qr_cli_error_hint(e, hb, sizeof hb);
        fprintf(stderr, "%s: %s", *e->path ? e->path : "/", qr_cli_message(e, mb, sizeof mb));
        if (hint) fprintf(stderr, " (%s)", hint);
        fputc('\n', stderr);
    }
    return qr_status_exit(st);
}

static int failure(qr_status st, const qr_errlist *errs)
{
    return failure_head(st, errs, 0);
}

static int failure_msg(qr_status st, const char *fmt, const char *arg)
{
    qr_errlist e = {0};
    qr_errlist_addf(&e, st, "", NULL, fmt, arg ? arg : "");
    int rc = failure(st, &e);
    qr_errlist_clear(&e);
    return rc;
}

static int parse_u64(const char *s, unsigned long long *out)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-') return -1;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end) return -1;
    *out = v;
    return 0;
}

static int parse_version(const char *s, int *out)
{
    unsigned long long v;
    if (parse_u64(s, &v) != 0 || v < 1 || v > INT_MAX) return -1;
    *out = (int)v;
    return 0;
}

static int parse_args(int argc, char **argv, args *a)
{
    memset(a, 0, sizeof *a);
    a->cmd = argv[0];
    qr_store_opts_default(&a->opts);
    const char *env;
    if ((env = getenv("QUIRE_MAX_ARTIFACTS")) && parse_u64(env, &a->opts.max_artifacts))
        return usage("QUIRE_MAX_ARTIFACTS must be a number", NULL);
    if ((env = getenv("QUIRE_MAX_BYTES")) && parse_u64(env, &a->opts.max_total_bytes))
        return usage("QUIRE_MAX_BYTES must be a number", NULL);
    if ((env = getenv("QUIRE_MAX_VERSION_BYTES")) && parse_u64(env, &a->opts.max_version_bytes))
        return usage("QUIRE_MAX_VERSION_BYTES must be a number", NULL);
    unsigned long long keep;
    if ((env = getenv("QUIRE_TRASH_RETENTION")) &&
        (parse_u64(env, &keep) || keep > (unsigned long long)LLONG_MAX))
        return usage("QUIRE_TRASH_RETENTION must be a number of seconds", NULL);
    if (env) a->opts.trash_retention = (long long)keep;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name, field)                                                                           \
    if (strcmp(s, name) == 0) {                                                                    \
        if (!v) return usage("%s needs a value", name);                                            \
        a->field = v;                                                                              \
        i++;                                                                                       \
        continue;                                                                                  \
    }
        OPT("--store", store)
        OPT("-k", kind)
        OPT("--kind", kind)
        OPT("--title", title)
        OPT("--id", id)
        OPT("--owner", owner)
        OPT("--patch", patch)
        OPT("--append", append)
        OPT("--ops", ops)
        OPT("-o", out)
        OPT("--output", out)
        OPT("--cursor", cursor)
        OPT("--from", from)
        OPT("--to", to)
        OPT("--base-dir", base_dir)
        OPT("--key", w.key)
        OPT("--artifacts", q_artifacts)
        OPT("--bytes", q_bytes)
#undef OPT
        if (strcmp(s, "--version") == 0) {
            if (parse_version(v, &a->version))
                return usage("--version needs a version number from 1", NULL);
            i++;
        } else if (strcmp(s, "--max-artifacts") == 0) {
            if (parse_u64(v, &a->opts.max_artifacts))
                return usage("--max-artifacts needs a number", NULL);
            i++;
        } else if (strcmp(s, "--max-bytes") == 0) {
            if (parse_u64(v, &a->opts.max_total_bytes))
                return usage("--max-bytes needs a byte count", NULL);
            i++;
        } else if (strcmp(s, "--max-version-bytes") == 0) {
            if (parse_u64(v, &a->opts.max_version_bytes))
                return usage("--max-version-bytes needs a byte count", NULL);
            i++;
        } else if (strcmp(s, "--limit") == 0) {
            unsigned long long n;
            if (parse_u64(v, &n) || n > 100000000)
                return usage("--limit needs a count (0: no limit)", NULL);
            a->limit = (int)n;
            i++;
        } else if (strcmp(s, "--if-version") == 0) {
            if (parse_version(v, &a->w.if_version))
                return usage("--if-version needs a version number from 1", NULL);
            i++;
        } else if (strcmp(s, "--json") == 0) {
            a->json = 1;
        } else if (strcmp(s, "--purge") == 0) {
            a->purge = 1;
        } else if (strcmp(s, "--trash") == 0) {
            a->trash = 1;
        } else if (strcmp(s, "--trash-retention") == 0) {
            unsigned long long n;
            if (parse_u64(v, &n) || n > (unsigned long long)LLONG_MAX)
                return usage("--trash-retention needs a number of seconds", NULL);
            a->opts.trash_retention = (long long)n;
            i++;
        } else if (strcmp(s, "--repair") == 0) {
            a->repair = 1;
        } else if (strcmp(s, "--unified") == 0) {
            a->unified = 1;
        } else if (s[0] == '-' && s[1] != '\0') {
            return usage("unknown option %s", s);
        } else if (a->npos < 4) {
            a->pos[a->npos++] = s;
        } else {
            return usage("unexpected argument %s", s);
        }
    }
    /* every command acts for --owner: only that owner's artifacts exist */
    a->opts.owner = a->owner;
    if (!a->store) a->store = getenv("QUIRE_STORE");
    if (!a->store || !*a->store) a->store = ".quire";
    /* said here, in the user's words, before the store could say less */
    if (a->title && qr_utf8_check(a->title, strlen(a->title)) != (size_t)-1)
        return usage("the --title is not valid UTF-8; pass the title in UTF-8", NULL);
    if (a->id && strcmp(a->id, "blobs") == 0)
        return usage("\"blobs\" is a reserved id (the store keeps its blobs under it); choose "
                     "another --id",
                     NULL);
    return 0;
}

/* A whole file, or stdin for "-", with its image files taken in
 * (cli_inline.h). NULL with an exit code in *rc. */
static char *slurp(const args *a, const char *path, size_t *len, int *rc)
{
    char msg[600];
    qr_status st;
    char *data = qr_cli_read(path, 0, len, &st, msg, sizeof msg);
    if (!data) *rc = st == QR_E_USAGE ? usage(msg, NULL) : failure_msg(st, "%s", msg);
    qr_errlist errs = {0};
    if (data && (st = qr_cli_inline(path, a->base_dir, &data, len, &errs)) != QR_OK) {
        *rc = failure(st, &errs);
        free(data);
        data = NULL;
    }
    qr_errlist_clear(&errs);
    return data;
}

static void put_version_fields(qr_buf *b, const qr_store_result *r)
{
    qr_buf_puts(b, "{\"status\":\"ok\",\"artifact_id\":");
    qr_json_str(b, r->artifact_id);
    qr_buf_printf(b, ",\"version\":%d,\"filename\":", r->version.version);
    qr_json_str(b, r->version.filename);
    qr_buf_puts(b, ",\"mime_type\":");
    qr_json_str(b, r->version.mime_type);
    qr_buf_printf(b, ",\"size\":%llu,\"pages\":%d,\"head\":%d,\"kind\":", r->version.size,
                  r->version.pages, r->head);
    qr_json_str(b, r->kind);
}

/* The result of create, edit, rewrite and restore. */
static int print_write(qr_status st, const qr_store_result *r)
{
    if (st != QR_OK) return failure_head(st, &r->errors, r->head);
    qr_buf b = {0};
    put_version_fields(&b, r);
    qr_buf_puts(&b, ",\"title\":");
    qr_json_str(&b, r->title);
    qr_buf_printf(&b, ",\"action\":\"%s\",\"unchanged\":%s,", r->version.action,
                  r->unchanged ? "true" : "false");
    if (r->replayed) qr_buf_puts(&b, "\"replayed\":true,");
    qr_buf_puts(&b, "\"warnings\":");
    size_t omitted = qr_json_errors(&b, &r->warnings, MAX_SHOWN, BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"warnings_omitted\":%zu", omitted);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
    return 0;
}

static int cmd_create(qr_store *s, const args *a)
{
    if (!a->kind)
        return usage("name the kind with -k (document, spreadsheet, presentation, pdf, html)",
                     NULL);
    qr_kind kind;
    if (qr_kind_from_str(a->kind, &kind) != 0)
        return usage("-k takes document, spreadsheet, presentation, pdf or html, not %s", a->kind);
    if (a->npos != 1) return usage("name one spec file, or - for stdin", NULL);
    size_t len;
    int rc;
    char *spec = slurp(a, a->pos[0], &len, &rc);
    if (!spec) return rc;
    qr_store_result r;
    qr_status st = qr_store_create_with(s, kind, spec, len, a->title, a->id, a->owner, &a->w, &r);
    free(spec);
    rc = print_write(st, &r);
    qr_store_result_free(&r);
    return rc;
}

static int cmd_edit(qr_store *s, const args *a)
{
    if (a->npos != 1)
        return usage("name the artifact: quire edit ID [--patch F] [--append F] [--ops F]", NULL);
    if (!a->patch && !a->append && !a->ops)
        return usage("edit needs one of --patch F (merge patch), --append F ({key: [items]}) or "
                     "--ops F (JSON Patch)",
                     NULL);
    char *parts[3] = {NULL, NULL, NULL};
    const char *files[3] = {a->patch, a->append, a->ops};
    int rc = 0;
    for (int i = 0; i < 3 && !rc; i++) {
        size_t len;
        if (files[i] && !(parts[i] = slurp(a, files[i], &len, &rc))) break;
    }
    if (!rc) {
        qr_store_result r;
        qr_status st = qr_store_edit_with(s, a->pos[0], parts[0], parts[1], parts[2], &a->w, &r);
        rc = print_write(st, &r);
        qr_store_result_free(&r);
    }
    for (int i = 0; i < 3; i++)
        free(parts[i]);
    return rc;
}

static int cmd_rewrite(qr_store *s, const args *a)
{
    if (a->npos != 2) return usage("usage: quire rewrite ID SPEC", NULL);
    size_t len;
    int rc;
    char *spec = slurp(a, a->pos[1], &len, &rc);
    if (!spec) return rc;
    qr_store_result r;
    qr_status st = qr_store_rewrite_with(s, a->pos[0], spec, len, &a->w, &r);
    free(spec);
    rc = print_write(st, &r);
    qr_store_result_free(&r);
    return rc;
}

static int cmd_restore(qr_store *s, const args *a)
{
    int n;
    if (a->npos != 2 || parse_version(a->pos[1], &n))
        return usage("usage: quire restore ID N (N from 1)", NULL);
    qr_store_result r;
    qr_status st = qr_store_restore_with(s, a->pos[0], n, &a->w, &r);
    int rc = print_write(st, &r);
    qr_store_result_free(&r);
    return rc;
}

static int cmd_show(qr_store *s, const args *a)
{
    if (a->npos != 1) return usage("usage: quire show ID [--version N] [--json]", NULL);
    qr_store_result r;
    qr_status st = qr_store_show(s, a->pos[0], a->version, &r);
    int rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &r.errors);
    } else if (a->json) { /* the version's fields and the head, then the spec itself */
        qr_buf b = {0};
        put_version_fields(&b, &r);
        qr_buf_puts(&b, ",\"title\":");
        qr_json_str(&b, r.title);
        qr_buf_puts(&b, ",\"owner\":");
        qr_json_str(&b, r.owner);
        qr_buf_printf(&b, ",\"action\":\"%s\",\"spec\":", r.version.action);
        qr_buf_append(&b, r.spec, r.spec_len);
        qr_buf_putc(&b, '}');
        qr_json_print(&b);
        qr_buf_free(&b);
    } else {
        fwrite(r.spec, 1, r.spec_len, stdout);
        fflush(stdout);
    }
    qr_store_result_free(&r);
    return rc;
}

static int cmd_log(qr_store *s, const args *a)
{
    if (a->npos != 1) return usage("usage: quire log ID [--limit N]", NULL);
    qr_store_result r;
    qr_status st = qr_store_log_limit(s, a->pos[0], a->limit, &r);
    int rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &r.errors);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"artifact_id\":");
        qr_json_str(&b, r.artifact_id);
        qr_buf_puts(&b, ",\"kind\":");
        qr_json_str(&b, r.kind);
        qr_buf_puts(&b, ",\"title\":");
        qr_json_str(&b, r.title);
        qr_buf_puts(&b, ",\"owner\":");
        qr_json_str(&b, r.owner);
        qr_buf_printf(&b, ",\"head\":%d,\"count\":%zu,\"versions\":[", r.head, r.log_count);
        for (size_t i = 0; i < r.log_count; i++) {
            const qr_store_version *v = &r.log[i];
            qr_buf_printf(&b, "%s{\"version\":%d,\"action\":\"%s\",\"parent\":", i ? "," : "",
                          v->version, v->action);
            if (v->parent)
                qr_buf_printf(&b, "%d", v->parent);
            else
                qr_buf_puts(&b, "null");
            if (v->restored_from) qr_buf_printf(&b, ",\"restored_from\":%d", v->restored_from);
            qr_buf_printf(&b,
                          ",\"created\":\"%s\",\"size\":%llu,\"sha256\":\"%s\",\"spec_sha256\":\"%"
                          "s\",\"spec_size\":%llu,\"filename\":",
                          v->created, v->size, v->sha256, v->spec_sha256, v->spec_size);
            qr_json_str(&b, v->filename);
            qr_buf_printf(&b, ",\"pages\":%d,\"warnings\":%s}", v->pages,
                          v->warnings && v->warnings[0] == '[' ? v->warnings : "[]");
        }
        qr_buf_puts(&b, "]}");
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_result_free(&r);
    return rc;
}

static void put_list(qr_buf *b, const char *name, char **v, size_t n)
{
    qr_buf_printf(b, ",\"%s\":[", name);
    for (size_t i = 0; i < n; i++) {
        if (i) qr_buf_putc(b, ',');
        qr_json_str(b, v[i]);
    }
    qr_buf_putc(b, ']');
}

static int cmd_diff(qr_store *s, const args *a)
{
    int va, vb;
    if (a->npos != 3 || parse_version(a->pos[1], &va) || parse_version(a->pos[2], &vb))
        return usage("usage: quire diff ID A B (version numbers from 1)", NULL);
    qr_store_diff d;
    qr_status st = qr_store_diff_versions(s, a->pos[0], va, vb, &d);
    int rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &d.errors);
    } else if (a->unified) {
        for (size_t i = 0; i < d.n_added; i++)
            printf("added   %s\n", d.added[i]);
        for (size_t i = 0; i < d.n_removed; i++)
            printf("removed %s\n", d.removed[i]);
        for (size_t i = 0; i < d.n_changed; i++)
            printf("changed %s\n", d.changed[i]);
        fputs(d.unified, stdout);
        fflush(stdout);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"artifact_id\":");
        qr_json_str(&b, a->pos[0]);
        qr_buf_printf(&b, ",\"from\":%d,\"to\":%d", va, vb);
        put_list(&b, "added", d.added, d.n_added);
        put_list(&b, "removed", d.removed, d.n_removed);
        put_list(&b, "changed", d.changed, d.n_changed);
        qr_buf_puts(&b, ",\"diff\":");
        qr_json_str(&b, d.unified);
        qr_buf_putc(&b, '}');
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_diff_free(&d);
    return rc;
}

static int cmd_export(qr_store *s, const args *a)
{
    if (a->npos != 1) return usage("usage: quire export ID [--version N] -o OUT", NULL);
    if (!a->out) return usage("name the output with -o OUT", NULL);
    qr_store_result r;
    qr_status st = qr_store_export(s, a->pos[0], a->version, &r);
    int rc = 0;
    /* OUT named for another format quire writes (v3.pdf for a document) */
    const char *want = r.version.filename ? strrchr(r.version.filename, '.') : NULL;
    qr_format named;
    int other = st == QR_OK && want && qr_format_from_path(a->out, &named) == 0 &&
                strcasecmp(qr_format_ext(named), want + 1) != 0;
    if (st != QR_OK) {
        rc = failure(st, &r.errors);
    } else if (other) {
        /* the stored bytes are in the artifact's own format: never under
         * another format's name */
        char msg[300];
        snprintf(msg, sizeof msg,
                 "artifact \"%s\" (kind %s) exports as %s files, not .%s; name OUT *%s (another "
                 "format: quire show ID --version N | quire render - -o OUT)",
                 r.artifact_id, r.kind ? r.kind : "?", want, qr_format_ext(named), want);
        rc = usage(msg, NULL);
    } else if (qr_atomic_write_path(a->out, r.data, r.size) != 0) {
        char msg[PATH_MAX + 100];
        snprintf(msg, sizeof msg, "cannot write %s: %s", a->out, strerror(errno));
        rc = failure_msg(QR_E_IO, "%s", msg);
    } else {
        qr_buf b = {0};
        put_version_fields(&b, &r);
        qr_buf_puts(&b, ",\"path\":");
        qr_json_str(&b, a->out);
        qr_buf_putc(&b, '}');
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_result_free(&r);
    return rc;
}

static int cmd_fsck(qr_store *s, const args *a)
{
    if (a->npos != 0) return usage("usage: quire fsck [--repair]", NULL);
    qr_store_fsck f;
    qr_status st = qr_store_fsck_run(s, a->repair, &f);
    if (st == QR_E_USAGE) { /* --owner: fsck sees every owner */
        int rc = failure(st, &f.problems);
        qr_store_fsck_free(&f);
        return rc;
    }
    qr_buf b = {0};
    qr_buf_printf(&b, "{\"status\":\"%s\"", st == QR_OK ? "ok" : "error");
    if (st != QR_OK) {
        char head[160];
        snprintf(head, sizeof head, "the store has %zu problem%s", f.problems.count,
                 f.problems.count == 1 ? "" : "s");
        qr_buf_puts(&b, ",\"error\":");
        qr_json_str(&b, head);
    }
    qr_buf_printf(
        &b,
        ",\"artifacts\":%zu,\"trashed\":%zu,\"versions\":%zu,\"blobs\":%zu,\"repaired\":%zu,"
        "\"problems\":",
        f.artifacts, f.trashed, f.versions, f.blobs, f.repaired);
    size_t om = qr_json_errors(&b, &f.problems, 50, BUDGET);
    if (om) qr_buf_printf(&b, ",\"problems_omitted\":%zu", om);
    qr_buf_puts(&b, ",\"stray\":");
    om = qr_json_errors(&b, &f.stray, 50, BUDGET);
    if (om) qr_buf_printf(&b, ",\"stray_omitted\":%zu", om);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
    for (size_t i = 0; i < f.problems.count && i < MAX_SHOWN; i++)
        fprintf(stderr, "%s: %s\n", f.problems.items[i].path, f.problems.items[i].message);
    qr_store_fsck_free(&f);
    return st == QR_OK ? 0 : qr_status_exit(st);
}

static int cmd_list(qr_store *s, const args *a)
{
    if (a->npos != 0)
        return usage("usage: quire list [--owner O] [-k KIND] [--limit N] [--cursor C] [--trash]",
                     NULL);
    qr_store_list_result l;
    qr_status st = a->trash
                       ? qr_store_list_trash(s, a->owner, a->kind, a->cursor, (size_t)a->limit, &l)
                       : qr_store_list(s, a->owner, a->kind, a->cursor, (size_t)a->limit, &l);
    int rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &l.errors);
    } else {
        qr_buf b = {0};
        qr_buf_printf(&b, "{\"status\":\"ok\",\"count\":%zu,\"artifacts\":[", l.count);
        for (size_t i = 0; i < l.count; i++) {
            const qr_store_item *it = &l.items[i];
            qr_buf_puts(&b, i ? ",{\"artifact_id\":" : "{\"artifact_id\":");
            qr_json_str(&b, it->artifact_id);
            qr_buf_puts(&b, ",\"kind\":");
            qr_json_str(&b, it->kind);
            qr_buf_puts(&b, ",\"title\":");
            qr_json_str(&b, it->title);
            qr_buf_puts(&b, ",\"owner\":");
            qr_json_str(&b, it->owner);
            qr_buf_printf(&b, ",\"created\":\"%s\",\"head\":%d", it->created, it->head);
            if (it->deleted[0]) qr_buf_printf(&b, ",\"deleted\":\"%s\"", it->deleted);
            qr_buf_putc(&b, '}');
        }
        qr_buf_puts(&b, "],\"next\":");
        if (l.next[0])
            qr_json_str(&b, l.next);
        else
            qr_buf_puts(&b, "null");
        qr_buf_putc(&b, '}');
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_list_free(&l);
    return rc;
}

static int cmd_delete(qr_store *s, const args *a)
{
    int undelete = strcmp(a->cmd, "undelete") == 0;
    if (a->npos != 1)
        return usage(undelete ? "usage: quire undelete ID [--if-version N] [--key K]"
                              : "usage: quire delete ID [--if-version N] [--key K] [--purge]",
                     NULL);
    if (undelete && a->purge) return usage("undelete takes no --purge", NULL);
    qr_store_result r;
    qr_status st = undelete   ? qr_store_undelete_with(s, a->pos[0], &a->w, &r)
                   : a->purge ? qr_store_purge_artifact(s, a->pos[0], &a->w, &r)
                              : qr_store_delete_with(s, a->pos[0], &a->w, &r);
    int rc = 0;
    if (st != QR_OK) {
        rc = failure_head(st, &r.errors, r.head);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"artifact_id\":");
        qr_json_str(&b, r.artifact_id);
        qr_buf_puts(&b, undelete   ? ",\"undeleted\":true"
                        : a->purge ? ",\"deleted\":true,\"purged\":true"
                                   : ",\"deleted\":true,\"trash\":true");
        if (r.kind) { /* absent from a replayed purge of an artifact now gone */
            qr_buf_puts(&b, ",\"kind\":");
            qr_json_str(&b, r.kind);
            qr_buf_puts(&b, ",\"owner\":");
            qr_json_str(&b, r.owner);
        }
        if (r.replayed) qr_buf_puts(&b, ",\"replayed\":true");
        qr_buf_printf(&b, ",\"versions\":%d,\"head\":%d}", r.head, r.head);
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_result_free(&r);
    return rc;
}

/* A limit of store quota: a count, "default" or absent (keep). -3: bad. */
static long long quota_arg(const char *v)
{
    unsigned long long n;
    if (!v) return QR_STORE_QUOTA_KEEP;
    if (strcmp(v, "default") == 0) return QR_STORE_QUOTA_DEFAULT;
    if (parse_u64(v, &n) != 0 || n > (unsigned long long)LLONG_MAX) return -3;
    return (long long)n;
}

/* Opens the store a->store names for a store command (never creating
 * one): 0, or the exit code of the failure it printed. */
static int open_existing(const args *a, qr_store **s)
{
    qr_errlist errs = {0};
    qr_status st = qr_store_open_existing(a->store, &a->opts, s, &errs);
    if (st == QR_OK) return 0;
    int rc = failure(st, &errs);
    qr_errlist_clear(&errs);
    return rc;
}

/* quire store quota OWNER [--artifacts N|default] [--bytes B|default]: set
 * and show an owner's quota kept in the store. */
static int cmd_quota(const args *a)
{
    long long na = quota_arg(a->q_artifacts), nb = quota_arg(a->q_bytes);
    if (a->npos != 2)
        return usage("usage: quire store quota OWNER [--artifacts N|default] [--bytes B|default]",
                     NULL);
    if (na == -3) return usage("--artifacts needs a count (0: none) or default", NULL);
    if (nb == -3) return usage("--bytes needs a byte count (0: none) or default", NULL);
    qr_store *s;
    int rc = open_existing(a, &s);
    if (rc) return rc;
    qr_status st;
    qr_store_quota q;
    const char *owner = a->pos[1];
    if (na == QR_STORE_QUOTA_KEEP && nb == QR_STORE_QUOTA_KEEP)
        st = qr_store_quota_get(s, owner, &q);
    else
        st = qr_store_quota_set(s, owner, na, nb, &q);
    rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &q.errors);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"owner\":");
        qr_json_str(&b, owner);
        qr_buf_printf(&b,
                      ",\"max_artifacts\":%llu,\"max_bytes\":%llu,\"own\":{\"artifacts\":%s,"
                      "\"bytes\":%s},\"artifacts\":%llu,\"bytes\":%llu}",
                      q.max_artifacts, q.max_bytes, q.own_artifacts ? "true" : "false",
                      q.own_bytes ? "true" : "false", q.artifacts, q.bytes);
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_quota_free(&q);
    qr_store_close(s);
    return rc;
}

/* quire store purge [--trash-retention SECONDS]: remove what is in the
 * trash past its retention. */
static int cmd_purge(const args *a)
{
    if (a->npos != 1) return usage("usage: quire store purge [--trash-retention SECONDS]", NULL);
    qr_store *s;
    int rc = open_existing(a, &s);
    if (rc) return rc;
    qr_status st;
    qr_store_purge_report p;
    st = qr_store_purge(s, &p);
    rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &p.errors);
    } else {
        printf("{\"status\":\"ok\",\"purged\":%zu,\"kept\":%zu,\"cutoff\":\"%s\"}\n", p.purged,
               p.kept, p.cutoff);
        fflush(stdout);
    }
    qr_store_purge_free(&p);
    qr_store_close(s);
    return rc;
}

/* quire store init (create the tables of a database, or the folder),
 * quire store copy --from A --to B and quire store quota. */
static int cmd_store(const args *a0)
{
    qr_errlist errs = {0};
    args copy = *a0; /* init and copy see every owner */
    copy.opts.owner = NULL;
    const args *a = &copy;
    if (a->npos >= 1 && strcmp(a->pos[0], "quota") == 0) return cmd_quota(a0);
    if (a->npos >= 1 && strcmp(a->pos[0], "purge") == 0) return cmd_purge(a0);
    if (a->npos == 1 && strcmp(a->pos[0], "init") == 0) {
        qr_store *s;
        qr_status st = qr_store_open(a->store, &a->opts, &s, &errs);
        int rc = st == QR_OK ? 0 : failure(st, &errs);
        if (st == QR_OK) {
            qr_store_close(s);
            puts("{\"status\":\"ok\",\"schema_version\":3}");
            fflush(stdout);
        }
        qr_errlist_clear(&errs);
        return rc;
    }
    if (a->npos != 1 || strcmp(a->pos[0], "copy") != 0 || !a->from || !a->to)
        return usage("usage: quire store init [--store S] | quire store copy --from S --to S | "
                     "quire store quota OWNER [--artifacts N] [--bytes B] | quire store purge",
                     NULL);
    qr_store *from = NULL, *to = NULL;
    qr_status st = qr_store_open_existing(a->from, &a->opts, &from, &errs);
    if (st == QR_OK) st = qr_store_open(a->to, &a->opts, &to, &errs);
    int rc = 0;
    if (st != QR_OK) {
        rc = failure(st, &errs);
    } else {
        qr_store_copy_report r;
        st = qr_store_copy(from, to, &r);
        if (st != QR_OK) {
            rc = failure(st, &r.errors);
        } else {
            printf("{\"status\":\"ok\",\"artifacts\":%zu,\"versions\":%zu,\"skipped\":%zu,"
                   "\"verified\":true}\n",
                   r.artifacts, r.versions, r.skipped);
            fflush(stdout);
        }
        qr_store_copy_free(&r);
    }
    qr_store_close(from);
    qr_store_close(to);
    qr_errlist_clear(&errs);
    return rc;
}

int qr_cli_store(int argc, char **argv)
{
    args a;
    int rc = parse_args(argc, argv, &a);
    if (rc) return rc;
    static const struct {
        const char *name;
        int (*fn)(qr_store *, const args *);
    } cmds[] = {{"create", cmd_create},   {"edit", cmd_edit},     {"rewrite", cmd_rewrite},
                {"restore", cmd_restore}, {"show", cmd_show},     {"log", cmd_log},
                {"diff", cmd_diff},       {"export", cmd_export}, {"fsck", cmd_fsck},
                {"list", cmd_list},       {"delete", cmd_delete}, {"undelete", cmd_delete}};
    if (strcmp(a.cmd, "store") == 0) return cmd_store(&a);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        if (strcmp(a.cmd, cmds[i].name) != 0) continue;
        qr_store *s;
        qr_errlist errs = {0};
        /* only create makes a store; the others read or change what is there */
        qr_status st = strcmp(a.cmd, "create") == 0
                           ? qr_store_open(a.store, &a.opts, &s, &errs)
                           : qr_store_open_existing(a.store, &a.opts, &s, &errs);
        if (st != QR_OK) {
            rc = failure(st, &errs);
            qr_errlist_clear(&errs);
            return rc;
        }
        rc = cmds[i].fn(s, &a);
        qr_store_close(s);
        return rc;
    }
    return usage("unknown store command %s", a.cmd);
}
