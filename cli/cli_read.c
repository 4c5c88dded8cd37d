/* cli_read.c: `quire read` (a file back into a spec, JSON, markdown, text
 * or chunks, on stdout or atomically into -o OUT) and `quire import` (a
 * file read back and stored as a new artifact through the store API). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "cli_markdown.h"
#include "cli_read.h"
#include "json_out.h"
#include <quire/quire.h>

static int fail_usage(const char *msg)
{
    qr_buf b = {0};
    qr_json_error_head(&b, QR_E_USAGE);
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"hint\":\"run quire --help\"}");
    qr_json_print(&b);
    qr_buf_free(&b);
    fprintf(stderr, "quire: %s\n", msg);
    return 2;
}

typedef struct read_args {
    const char *file, *out, *owner, *title, *id, *store, *key;
    qr_read_opts o;
} read_args;

static int parse_num(const char *s, unsigned long long *v)
{
    char *end;
    errno = 0;
    if (!s || s[0] == '-') return -1;
    *v = strtoull(s, &end, 10);
    return errno || end == s || *end ? -1 : 0;
}

static int parse_args(int argc, char **argv, read_args *a, int import)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        unsigned long long n;
        if (!import && strcmp(s, "--to") == 0) {
            if (!v) return fail_usage("--to needs spec, json, markdown or text");
            if (strcmp(v, "spec") == 0)
                a->o.to = QR_READ_SPEC;
            else if (strcmp(v, "json") == 0)
                a->o.to = QR_READ_JSON;
            else if (strcmp(v, "markdown") == 0 || strcmp(v, "md") == 0)
                a->o.to = QR_READ_MARKDOWN;
            else if (strcmp(v, "text") == 0)
                a->o.to = QR_READ_TEXT;
            else
                return fail_usage("--to takes spec, json, markdown or text");
            i++;
        } else if (!import && strcmp(s, "--chunks") == 0) {
            if (parse_num(v, &n) || n < 1)
                return fail_usage("--chunks needs a character count from 1");
            a->o.chunks = (size_t)n, i++;
        } else if (!import && (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0)) {
            if (!v) return fail_usage("-o needs a file name");
            a->out = v, i++;
        } else if (strcmp(s, "--max-input") == 0) {
            if (parse_num(v, &n)) return fail_usage("--max-input needs a byte count");
            a->o.max_input = (size_t)n, i++;
        } else if (strcmp(s, "--max-unzipped") == 0) {
            if (parse_num(v, &n)) return fail_usage("--max-unzipped needs a byte count");
            a->o.max_unzipped = n ? (size_t)n : (size_t)-1, i++;
        } else if (strcmp(s, "--max-output") == 0) {
            if (parse_num(v, &n)) return fail_usage("--max-output needs a byte count");
            a->o.max_output = n ? (size_t)n : (size_t)-1, i++;
        } else if (strcmp(s, "--max-seconds") == 0) {
            if (parse_num(v, &n) || n < 1 || n > 86400)
                return fail_usage("--max-seconds needs a number of seconds from 1");
            a->o.max_seconds = (unsigned)n, i++;
        } else if (strcmp(s, "--max-ratio") == 0) {
            if (parse_num(v, &n)) return fail_usage("--max-ratio needs a number");
            a->o.max_ratio = n ? (double)n : -1, i++;
        } else if (import && strcmp(s, "--owner") == 0) {
            if (!v) return fail_usage("--owner needs a name");
            a->owner = v, i++;
        } else if (import && strcmp(s, "--title") == 0) {
            if (!v) return fail_usage("--title needs a title");
            a->title = v, i++;
        } else if (import && strcmp(s, "--id") == 0) {
            if (!v) return fail_usage("--id needs an id");
            a->id = v, i++;
        } else if (import && strcmp(s, "--key") == 0) {
            if (!v) return fail_usage("--key needs an idempotency key");
            a->key = v, i++;
        } else if (import && strcmp(s, "--store") == 0) {
            if (!v) return fail_usage("--store needs a folder");
            a->store = v, i++;
        } else if (s[0] == '-' && s[1]) {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option %s", s);
            return fail_usage(msg);
        } else if (!a->file) {
            a->file = s;
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unexpected argument %s", s);
            return fail_usage(msg);
        }
    }
    if (!a->file) return fail_usage("name a .docx, .xlsx, .pptx or .pdf file to read");
    return 0;
}

/* A named input must be a regular file: a FIFO would block the open or the
 * read forever, a device never ends (stdin, "-", may be a pipe). Opened
 * without blocking, so a FIFO with no writer is refused at once. 0, or -1
 * after printing the failure (exit 2) into *rc. */
static int regular_input(const char *path, struct stat *st, int *rc)
{
    if (strcmp(path, "-") == 0) return 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0; /* the reader says why it cannot open it */
    int r = fstat(fd, st);
    close(fd);
    if (r != 0 || S_ISREG(st->st_mode)) return 0;
    char msg[600];
    snprintf(msg, sizeof msg,
             "%.400s is a %s, not a file; save it to a file, or pipe it in as "
             "- (stdin)",
             path,
             S_ISFIFO(st->st_mode)  ? "FIFO"
             : S_ISDIR(st->st_mode) ? "folder"
                                    : "device");
    *rc = fail_usage(msg);
    return -1;
}

/* Read FILE, or stdin for "-" (refused when it is a terminal). */
static qr_status read_input(const read_args *a, qr_kind *kind, qr_result *res)
{
    if (strcmp(a->file, "-") != 0) return qr_read_file(a->file, &a->o, kind, res);
    char msg[512];
    qr_status st = QR_OK;
    size_t len = 0;
    char *data = qr_cli_read("-", a->o.max_input ? a->o.max_input : (size_t)64 << 20, &len, &st,
                             msg, sizeof msg);
    if (!data) {
        memset(res, 0, sizeof *res);
        qr_errlist_add(&res->errors, st, "", msg, NULL);
        return res->status = st;
    }
    st = qr_read_mem(data, len, &a->o, kind, res);
    free(data);
    return st;
}

int qr_cli_read_cmd(int argc, char **argv)
{
    read_args a;
    int rc = parse_args(argc, argv, &a, 0);
    if (rc) return rc;
    struct stat in = {0}, out;
    if (regular_input(a.file, &in, &rc)) return rc;
    /* -o naming the file read (any path to it) would overwrite the upload */
    if (a.out && strcmp(a.file, "-") != 0 && in.st_ino && stat(a.out, &out) == 0 &&
        out.st_dev == in.st_dev && out.st_ino == in.st_ino) {
        char msg[600];
        snprintf(msg, sizeof msg,
                 "the output %.400s is the file being read; name another output file", a.out);
        return fail_usage(msg);
    }
    if (qr_cli_is_markdown(a.file))
        return qr_cli_markdown_read(a.file, a.o.max_input, QR_KIND_DOCUMENT, a.out);
    qr_result res;
    qr_kind kind = QR_KIND_DOCUMENT;
    qr_status st = read_input(&a, &kind, &res);
    if (st != QR_OK) {
        rc = qr_cli_fail(st, NULL, &res.errors);
    } else if (a.out) {
        if (qr_atomic_write_path(a.out, res.data, res.size) != 0) {
            qr_errlist errs = {0};
            qr_errlist_addf(&errs, QR_E_IO, "", NULL, "cannot write %s: %s", a.out,
                            strerror(errno));
            rc = qr_cli_fail(QR_E_IO, NULL, &errs);
            qr_errlist_clear(&errs);
        } else {
            qr_buf b = {0};
            qr_buf_puts(&b, "{\"status\":\"ok\",\"path\":");
            qr_json_str(&b, a.out);
            qr_buf_puts(&b, ",\"kind\":");
            qr_json_str(&b, qr_kind_str(kind));
            qr_buf_printf(&b, ",\"size\":%zu,\"warnings\":", res.size);
            qr_json_errors(&b, &res.warnings, 20, 3300);
            qr_buf_putc(&b, '}');
            qr_json_print(&b);
            qr_buf_free(&b);
        }
    } else {
        /* A filter, like fmt: the text itself on stdout, warnings on stderr. */
        fwrite(res.data, 1, res.size, stdout);
        fflush(stdout);
        for (size_t i = 0; i < res.warnings.count && i < 20; i++)
            fprintf(stderr, "quire: warning: %s\n", res.warnings.items[i].message);
    }
    qr_result_free(&res);
    return rc;
}

int qr_cli_import(int argc, char **argv)
{
    read_args a;
    int rc = parse_args(argc, argv, &a, 1);
    if (rc) return rc;
    struct stat in;
    if (regular_input(a.file, &in, &rc)) return rc;
    if (qr_cli_is_markdown(a.file))
        return qr_cli_markdown_import(a.file, a.o.max_input, a.store, a.title, a.id, a.owner);
    a.o.to = QR_READ_SPEC;
    qr_result res;
    qr_kind kind = QR_KIND_DOCUMENT;
    /* The file's bytes are version 1's output: read them once, here. */
    char msg[512];
    qr_status st = QR_OK;
    size_t flen = 0;
    char *file = qr_cli_read(a.file, a.o.max_input ? a.o.max_input : (size_t)64 << 20, &flen, &st,
                             msg, sizeof msg);
    if (!file) {
        qr_errlist errs = {0};
        qr_errlist_add(&errs, st, "", msg, NULL);
        rc = qr_cli_fail(st, NULL, &errs);
        qr_errlist_clear(&errs);
        return rc;
    }
    st = qr_read_mem(file, flen, &a.o, &kind, &res);
    if (st != QR_OK) {
        rc = qr_cli_fail(st, NULL, &res.errors);
        qr_result_free(&res);
        free(file);
        return rc;
    }
    /* A PDF reads as a document spec; the artifact is of kind pdf, whose
     * output is the PDF itself. */
    if (kind == QR_KIND_DOCUMENT && flen >= 5 && memcmp(file, "%PDF-", 5) == 0) kind = QR_KIND_PDF;
    const char *store = a.store ? a.store : getenv("QUIRE_STORE");
    if (!store || !*store) store = ".quire";
    qr_store *s = NULL;
    qr_errlist errs = {0};
    st = qr_store_open(store, NULL, &s, &errs);
    if (st != QR_OK) {
        rc = qr_cli_fail(st, NULL, &errs);
        qr_errlist_clear(&errs);
        qr_result_free(&res);
        free(file);
        return rc;
    }
    /* The title: --title, else the file's name without folder and extension. */
    char title[256];
    if (a.title) {
        snprintf(title, sizeof title, "%s", a.title);
    } else {
        const char *base = strrchr(a.file, '/');
        base = base ? base + 1 : a.file;
        const char *dot = strrchr(base, '.');
        snprintf(title, sizeof title, "%.*s",
                 (int)(dot && dot > base ? dot - base : (long)strlen(base)), base);
    }
    qr_store_result sr;
    qr_store_write w = {0};
    w.key = a.key;
    st = qr_store_import_with(s, kind, (const char *)res.data, res.size, file, flen, title, a.id,
                              a.owner, &w, &sr);
    if (st != QR_OK) {
        rc = qr_cli_fail(st, NULL, &sr.errors);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"artifact_id\":");
        qr_json_str(&b, sr.artifact_id);
        qr_buf_puts(&b, ",\"kind\":");
        qr_json_str(&b, qr_kind_str(kind));
        qr_buf_puts(&b, ",\"title\":");
        qr_json_str(&b, title);
        /* the fields of create's result, then the file it came from */
        qr_buf_printf(&b, ",\"version\":%d,\"head\":%d,\"filename\":", sr.version.version, sr.head);
        qr_json_str(&b, sr.version.filename);
        qr_buf_puts(&b, ",\"mime_type\":");
        qr_json_str(&b, sr.version.mime_type);
        qr_buf_printf(&b, ",\"size\":%llu,\"pages\":%d,\"owner\":", sr.version.size,
                      sr.version.pages);
        qr_json_str(&b, sr.owner);
        qr_buf_printf(&b, ",\"action\":\"%s\",\"unchanged\":false,%s\"source\":", sr.version.action,
                      sr.replayed ? "\"replayed\":true," : "");
        qr_json_str(&b, a.file);
        qr_buf_puts(&b, ",\"warnings\":");
        qr_json_errors(&b, &res.warnings, 20, 3300);
        qr_buf_putc(&b, '}');
        qr_json_print(&b);
        qr_buf_free(&b);
    }
    qr_store_result_free(&sr);
    qr_store_close(s);
    qr_result_free(&res);
    free(file);
    return rc;
}
