/* cli.c: the `quire` command. Parses arguments, reads the spec, calls the
 * library, prints one line of JSON on stdout (human-readable error lines go
 * to stderr) and exits 0 ok, 1 spec error, 2 usage, 3 I/O or render
 * failure, 4 limit or quota. Never reads a terminal, never prompts. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_fonts.h"
#include "cli/cli_store.h"
#include "cli/json_out.h"
#include "compile.h"
#include "quire.h"

#define MAX_ERRORS_SHOWN 20
/* Bytes of errors in a result line: the whole line stays under 4,000 characters. */
#define RESULT_BUDGET 3300

static const char usage_text[] =
    "usage: quire COMMAND [ARGS]\n"
    "\n"
    "  render SPEC|- -o OUT [-k KIND] [--base-dir DIR] [--page N | --pages all] [--dpi N]\n"
    "         [--max-input BYTES] [--max-output BYTES]\n"
    "      compile SPEC and write OUT (.docx .xlsx .pptx .pdf .html .png), atomically\n"
    "  check SPEC|- -k KIND [--base-dir DIR]   validate only\n"
    "  fmt SPEC|- [-o OUT]           print the canonical JSON of SPEC\n"
    "  fonts TEXT | --spec SPEC      show script runs, fonts and direction\n"
    "  create -k KIND [--title T] [--id ID] [--owner O] SPEC     (store commands;\n"
    "  edit ID [--patch F] [--append F] [--ops F]                 --store DIR, default\n"
    "  rewrite ID SPEC | show ID [--version N] | log ID           $QUIRE_STORE, else\n"
    "  diff ID A B | restore ID N | export ID [--version N] -o OUT   ./.quire)\n"
    "  fsck\n"
    "      create, edit and rewrite take the image files the spec names into it\n"
    "      (relative to --base-dir DIR, default the spec file's folder)\n"
    "\n"
    "KIND: document, spreadsheet, presentation, pdf, html.\n"
    "Result: one line of JSON on stdout. Exit: 0 ok, 1 spec error, 2 usage,\n"
    "3 I/O or render failure, 4 limit or quota.\n";

/* Print a usage error as the JSON result and return exit code 2. */
static int usage_error(const char *msg)
{
    qr_buf b = {0};
    qr_buf_puts(&b, "{\"status\":\"error\",\"error\":");
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"hint\":\"run quire --help\"}");
    qr_json_print(&b);
    qr_buf_free(&b);
    fprintf(stderr, "quire: %s\n", msg);
    return 2;
}

/* Print a failed result as JSON (and as lines on stderr); return the exit code. */
static int print_failure(qr_status st, const qr_result *res)
{
    qr_buf b = {0};
    size_t n = res->errors.count;
    qr_buf_puts(&b, "{\"status\":\"error\",\"error\":");
    char head[128];
    if (st == QR_E_SPEC)
        snprintf(head, sizeof head, "%zu spec error%s", n, n == 1 ? "" : "s");
    else if (n == 1)
        snprintf(head, sizeof head, "%s", qr_status_str(st));
    else
        snprintf(head, sizeof head, "%s (%zu errors)", qr_status_str(st), n);
    qr_json_str(&b, head);
    qr_buf_puts(&b, ",\"errors\":");
    size_t omitted = qr_json_errors(&b, &res->errors, MAX_ERRORS_SHOWN, RESULT_BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"errors_omitted\":%zu", omitted);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
    for (size_t i = 0; i < n && i < MAX_ERRORS_SHOWN; i++) {
        const qr_error *e = &res->errors.items[i];
        fprintf(stderr, "%s: %s", *e->path ? e->path : "/", e->message);
        if (e->hint) fprintf(stderr, " (%s)", e->hint);
        fputc('\n', stderr);
    }
    return qr_status_exit(st);
}

static int input_failure(qr_status st, const char *msg)
{
    qr_result res = {0};
    qr_errlist_add(&res.errors, st, "", msg, NULL);
    int code = print_failure(st, &res);
    qr_result_free(&res);
    return code;
}

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-') return -1;
    *out = (size_t)v;
    return 0;
}

/* The folder of a spec path, for relative images ("." for stdin). */
static void dir_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (strcmp(path, "-") == 0 || !slash) {
        snprintf(dir, size, ".");
    } else if (slash == path) {
        snprintf(dir, size, "/");
    } else {
        snprintf(dir, size, "%.*s", (int)(slash - path), path);
    }
}

static void print_ok(const char *path, qr_kind kind, qr_format fmt, const qr_result *res,
                     size_t size, int pages_files)
{
    qr_buf b = {0};
    qr_buf_puts(&b, "{\"status\":\"ok\",\"path\":");
    qr_json_str(&b, path);
    qr_buf_puts(&b, ",\"kind\":");
    qr_json_str(&b, qr_kind_str(kind));
    qr_buf_puts(&b, ",\"mime_type\":");
    qr_json_str(&b, qr_format_mime(fmt));
    qr_buf_printf(&b, ",\"size\":%zu", size);
    if (res->pages > 0) qr_buf_printf(&b, ",\"pages\":%d", res->pages);
    if (pages_files > 0) qr_buf_printf(&b, ",\"files\":%d", pages_files);
    qr_buf_puts(&b, ",\"warnings\":");
    size_t omitted = qr_json_errors(&b, &res->warnings, MAX_ERRORS_SHOWN, RESULT_BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"warnings_omitted\":%zu", omitted);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
}

typedef struct render_args {
    const char *spec, *out, *kind, *base_dir;
    int page, all_pages, dpi;
    size_t max_input, max_output;
} render_args;

static int parse_render_args(int argc, char **argv, render_args *a, int need_out)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) {
            if (!v) return usage_error("-o needs a file name");
            a->out = v, i++;
        } else if (strcmp(s, "-k") == 0 || strcmp(s, "--kind") == 0) {
            if (!v) return usage_error("-k needs a kind");
            a->kind = v, i++;
        } else if (strcmp(s, "--base-dir") == 0) {
            if (!v) return usage_error("--base-dir needs a folder");
            a->base_dir = v, i++;
        } else if (strcmp(s, "--page") == 0) {
            if (!v || atoi(v) < 1) return usage_error("--page needs a page number from 1");
            a->page = atoi(v), i++;
        } else if (strcmp(s, "--pages") == 0) {
            if (!v || strcmp(v, "all") != 0) return usage_error("--pages takes 'all'");
            a->all_pages = 1, i++;
        } else if (strcmp(s, "--dpi") == 0) {
            if (!v || atoi(v) < 10 || atoi(v) > 1200)
                return usage_error("--dpi needs a number from 10 to 1200");
            a->dpi = atoi(v), i++;
        } else if (strcmp(s, "--max-input") == 0) {
            if (!v || parse_size(v, &a->max_input))
                return usage_error("--max-input needs a byte count");
            i++;
        } else if (strcmp(s, "--max-output") == 0) {
            if (!v || parse_size(v, &a->max_output))
                return usage_error("--max-output needs a byte count");
            i++;
        } else if (s[0] == '-' && s[1] != '\0') {
            char msg[256];
            snprintf(msg, sizeof msg, "unknown option %s", s);
            return usage_error(msg);
        } else if (!a->spec) {
            a->spec = s;
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unexpected argument %s", s);
            return usage_error(msg);
        }
    }
    if (!a->spec) return usage_error("name a spec file, or - for stdin");
    if (need_out && !a->out) return usage_error("name the output with -o OUT");
    return 0;
}

/* 1 when out names the spec's own file (same device and inode, so hard
 * and symbolic links count): rendering would replace the spec. */
static int is_spec_file(const char *spec, const char *out)
{
    struct stat a, b;
    if (stat(out, &b) != 0) return 0;
    int r = strcmp(spec, "-") == 0 ? fstat(STDIN_FILENO, &a) : stat(spec, &a);
    return r == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int refuse_overwrite(const char *out)
{
    char msg[PATH_MAX + 64];
    snprintf(msg, sizeof msg, "the output %s is the spec itself; name another output file", out);
    return usage_error(msg);
}

/* "out.png" + page 3 -> "out-3.png" */
static void page_path(const char *out, int page, char *buf, size_t size)
{
    const char *slash = strrchr(out, '/');
    const char *dot = strrchr(slash ? slash : out, '.');
    size_t stem = dot ? (size_t)(dot - out) : strlen(out);
    snprintf(buf, size, "%.*s-%d%s", (int)stem, out, page, dot ? dot : "");
}

static int cmd_render(int argc, char **argv)
{
    render_args a;
    int rc = parse_render_args(argc, argv, &a, 1);
    if (rc) return rc;
    qr_format fmt;
    if (qr_format_from_path(a.out, &fmt) != 0) {
        return usage_error(
            "the output's extension must be .docx, .xlsx, .pptx, .pdf, .html or .png");
    }
    qr_kind kind = qr_format_kind(fmt);
    if (a.kind && qr_kind_from_str(a.kind, &kind) != 0)
        return usage_error("-k takes document, spreadsheet, presentation, pdf or html");
    char msg[512];
    qr_status st = QR_OK;
    qr_limits lim;
    qr_limits_default(&lim);
    size_t max_input = a.max_input ? a.max_input : lim.max_input;
    if (strcmp(a.spec, "-") == 0 && isatty(STDIN_FILENO))
        return input_failure(QR_E_USAGE,
                             "refusing to read a spec from a terminal; pipe it or name a file");

    if (is_spec_file(a.spec, a.out)) return refuse_overwrite(a.out);

    char dir[PATH_MAX];
    dir_of(a.spec, dir, sizeof dir);
    qr_render_opts o = {0};
    o.base_dir = a.base_dir ? a.base_dir : dir;
    o.png_page = a.page ? a.page : 1;
    o.png_dpi = a.dpi;
    o.max_input = max_input;
    o.max_output = a.max_output;

    qr_result res;
    int files = 0;
    size_t total = 0;
    if (fmt == QR_FORMAT_PNG && a.all_pages) {
        /* One PNG per page: out-1.png, out-2.png, ... Each page compiles
         * the spec again, so it is read once into memory (documents are small). */
        size_t len = 0;
        char *spec = qr_cli_read(a.spec, max_input, &len, &st, msg, sizeof msg);
        if (!spec) return input_failure(st, msg);
        char path[PATH_MAX];
        int pages = 1;
        for (int p = 1; p <= pages; p++) {
            if (p > 1) qr_result_free(&res);
            o.png_page = p;
            page_path(a.out, p, path, sizeof path);
            if (is_spec_file(a.spec, path)) {
                free(spec);
                return refuse_overwrite(path);
            }
            st = qr_render_file(spec, len, kind, fmt, path, &o, &res);
            if (st != QR_OK) break;
            pages = res.pages;
            total += res.size;
            files++;
        }
        free(spec);
    } else {
        /* The spec streams from the file: its text is never held whole. */
        st = qr_render_path(a.spec, kind, fmt, a.out, &o, &res);
        total = res.size;
    }
    if (st != QR_OK) {
        rc = print_failure(st, &res);
    } else {
        print_ok(a.out, kind, fmt, &res, total, files);
        rc = 0;
    }
    qr_result_free(&res);
    return rc;
}

/* The whole spec of a check or fmt (up to --max-input, default 64 MiB), or
 * NULL with the exit code in *rc after printing the failure. */
static char *read_spec(const render_args *a, size_t *len, int *rc)
{
    char msg[512];
    qr_status st = QR_OK;
    qr_limits lim;
    qr_limits_default(&lim);
    size_t max = a->max_input ? a->max_input : lim.max_input;
    char *spec = qr_cli_read(a->spec, max, len, &st, msg, sizeof msg);
    if (!spec) *rc = input_failure(st, msg);
    return spec;
}

static int cmd_check(int argc, char **argv)
{
    render_args a;
    int rc = parse_render_args(argc, argv, &a, 0);
    if (rc) return rc;
    qr_kind kind;
    if (!a.kind) {
        return usage_error(
            "name the kind with -k (document, spreadsheet, presentation, pdf, html)");
    }
    if (qr_kind_from_str(a.kind, &kind) != 0)
        return usage_error("-k takes document, spreadsheet, presentation, pdf or html");
    size_t len = 0;
    char *spec = read_spec(&a, &len, &rc);
    if (!spec) return rc;
    qr_status st;
    qr_result res;
    qr_render_opts o = {0};
    o.max_input = a.max_input; /* 0: the default */
    char dir[PATH_MAX];
    dir_of(a.spec, dir, sizeof dir);
    o.base_dir = a.base_dir ? a.base_dir : dir; /* image files, as render reads them */
    st = qr_check_opts(spec, len, kind, &o, &res);
    free(spec);
    if (st != QR_OK) {
        rc = print_failure(st, &res);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"kind\":");
        qr_json_str(&b, qr_kind_str(kind));
        qr_buf_puts(&b, ",\"errors\":[]}");
        qr_json_print(&b);
        qr_buf_free(&b);
        rc = 0;
    }
    qr_result_free(&res);
    return rc;
}

/* Write data to path through a temp file in its folder and a rename: a
 * failed write leaves the old file as it was and no temp file. 0 or -1. */
static int write_atomic(const char *path, const char *data, size_t len)
{
    char tmp[PATH_MAX];
    const char *slash = strrchr(path, '/');
    int dirlen = slash ? (int)(slash - path) + 1 : 0;
    if (snprintf(tmp, sizeof tmp, "%.*s.%s.XXXXXX", dirlen, path, path + dirlen) >=
        (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(tmp);
    if (fd < 0) return -1;
    int ok = fchmod(fd, 0644) == 0;
    for (size_t done = 0; ok && done < len;) {
        ssize_t w = write(fd, data + done, len - done);
        if (w < 0 && errno == EINTR) continue;
        ok = w > 0;
        if (ok) done += (size_t)w;
    }
    if (ok && fsync(fd) != 0) ok = 0;
    int e = ok ? 0 : errno;
    if (close(fd) != 0 && ok) ok = 0, e = errno;
    if (ok && rename(tmp, path) != 0) ok = 0, e = errno;
    if (ok) return 0;
    unlink(tmp);
    errno = e;
    return -1;
}

/* fmt prints the canonical JSON itself (not a result line): it is a filter. */
static int cmd_fmt(int argc, char **argv)
{
    render_args a;
    int rc = parse_render_args(argc, argv, &a, 0);
    if (rc) return rc;
    size_t len = 0;
    char *spec = read_spec(&a, &len, &rc);
    if (!spec) return rc;
    char msg[512];
    qr_status st;
    qr_buf out = {0};
    qr_result res = {0};
    st = qr_canonical(spec, len, &out, &res.errors);
    free(spec);
    if (st != QR_OK) {
        rc = print_failure(st, &res);
    } else if (a.out) {
        if (write_atomic(a.out, out.data, out.len) != 0) {
            snprintf(msg, sizeof msg, "cannot write %s: %s", a.out, strerror(errno));
            rc = input_failure(QR_E_IO, msg);
        }
    } else {
        fwrite(out.data, 1, out.len, stdout);
        fflush(stdout);
    }
    qr_buf_free(&out);
    qr_result_free(&res);
    return rc;
}

static const char *const store_commands[] = {"create", "edit",    "rewrite", "show", "log",
                                             "diff",   "restore", "export",  "fsck", NULL};

int main(int argc, char **argv)
{
    /* Nothing quire writes depends on the local time zone (outputs carry
     * fixed UTC dates), but libzip converts each entry's DOS date through
     * mktime(), which re-reads /etc/localtime on every call without TZ. */
    setenv("TZ", "UTC0", 1);
    /* A short-lived process: grow the heap in 32 MiB steps and never trim
     * it, instead of one brk() per page-sized growth and a trim after each
     * big free (P1: 517 brk calls, about a sixth of its time). Untouched
     * pages cost no memory; the host of libquire keeps its own policy. */
    mallopt(M_TOP_PAD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    if (argc < 2) {
        fputs(usage_text, stderr);
        return usage_error("name a command");
    }
    const char *cmd = argv[1];
    /* The process is ours: jansson's values come from the region allocator
     * (compile.h), which parses faster and gives a big spec's rows back to
     * the system as the compiler converts them. Not for the store commands,
     * whose code frees json_dumps() text with free(). */
    if (strcmp(cmd, "render") == 0 || strcmp(cmd, "check") == 0 || strcmp(cmd, "fmt") == 0)
        qr_compile_use_region_alloc();
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        printf("quire %s\n", QUIRE_VERSION);
        return 0;
    }
    if (strcmp(cmd, "render") == 0) return cmd_render(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0) return cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "fmt") == 0) return cmd_fmt(argc - 1, argv + 1);
    if (strcmp(cmd, "fonts") == 0) {
        return qr_cli_fonts(argc - 1, argv + 1);
    }
    for (int i = 0; store_commands[i]; i++) {
        if (strcmp(cmd, store_commands[i]) == 0) {
            return qr_cli_store(argc - 1, argv + 1);
        }
    }
    char msg[256];
    snprintf(msg, sizeof msg, "unknown command %s", cmd);
    return usage_error(msg);
}
