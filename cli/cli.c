/* cli.c: the `quire` command. Parses arguments, reads the spec, calls the
 * library, prints one line of JSON on stdout (human-readable error lines go
 * to stderr) and exits 0 ok, 1 spec error, 2 usage, 3 I/O or render
 * failure, 4 limit or quota. Never reads a terminal, never prompts.
 * Commands and options are declared in cli/cli_help.c, which prints the
 * help, the man page and the completion; global options (--store) may
 * come before the command. */
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic.h"
#include "cli_fonts.h"
#include "cli_help.h"
#include "cli_markdown.h"
#include "cli_read.h"
#include "cli_store.h"
#include "location.h"
#include "json_out.h"
#include "process.h"
#include "compile_int.h"
#include "fonts.h"
#include <quire/quire.h>
#include "schema.h"

/* The layout report of a result line: at most this many items and bytes. */
#define MAX_LAYOUT_SHOWN 500
#define LAYOUT_BUDGET 65536

/* Print a usage error as the JSON result and return exit code 2. */
static int usage_error(const char *msg)
{
    qr_buf b = {0};
    qr_json_error_head(&b, QR_E_USAGE);
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"hint\":\"run quire help\"}");
    qr_json_print(&b);
    qr_buf_free(&b);
    fprintf(stderr, "quire: %s\n", msg);
    return 2;
}

/* Print a failed result as JSON (and as lines on stderr); return the exit code. */
static int print_failure(qr_status st, const qr_result *res)
{
    size_t n = res->errors.count;
    char head[128];
    if (st == QR_E_SPEC)
        snprintf(head, sizeof head, "%zu spec error%s", n, n == 1 ? "" : "s");
    else if (n == 1)
        snprintf(head, sizeof head, "%s", qr_status_str(st));
    else
        snprintf(head, sizeof head, "%s (%zu errors)", qr_status_str(st), n);
    return qr_cli_fail(st, head, &res->errors);
}

static int input_failure(qr_status st, const char *msg)
{
    qr_result res = {0};
    const char *hint = st == QR_E_LIMIT && strstr(msg, "(the limit read_timeout)")
                           ? "raise it with --read-timeout SECONDS, or check what writes the input"
                       : st == QR_E_LIMIT ? "raise max_input with --max-input BYTES"
                       : st == QR_E_IO    ? "check the path and its permissions"
                       : st == QR_E_UTF8  ? "save the spec as UTF-8"
                                          : "run quire help";
    qr_errlist_add(&res.errors, st, "", msg, hint);
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

static void page_path(const char *out, int page, char *buf, size_t size);

/* pages_files > 0 (--pages all or A-B): "path" is the first file written,
 * "paths" every one (out-1.png, out-2.png, ...; from out-A.png for A-B). */
static void print_ok(const char *path, qr_kind kind, qr_format fmt, const qr_result *res,
                     size_t size, int pages_files, int first_page)
{
    qr_buf b = {0};
    char file[PATH_MAX];
    qr_buf_puts(&b, "{\"status\":\"ok\",\"path\":");
    if (pages_files > 0) page_path(path, first_page, file, sizeof file);
    qr_json_str(&b, pages_files > 0 ? file : path);
    if (pages_files > 0) {
        qr_buf_puts(&b, ",\"paths\":[");
        for (int p = 0; p < pages_files; p++) {
            if (p > 0) qr_buf_putc(&b, ',');
            page_path(path, first_page + p, file, sizeof file);
            qr_json_str(&b, file);
        }
        qr_buf_putc(&b, ']');
    }
    qr_buf_puts(&b, ",\"kind\":");
    qr_json_str(&b, qr_kind_str(kind));
    qr_buf_puts(&b, ",\"mime_type\":");
    qr_json_str(&b, qr_format_mime(fmt));
    qr_buf_printf(&b, ",\"size\":%zu", size);
    if (res->pages > 0) qr_buf_printf(&b, ",\"pages\":%d", res->pages);
    if (pages_files > 0) qr_buf_printf(&b, ",\"files\":%d", pages_files);
    qr_buf_puts(&b, ",\"warnings\":");
    size_t omitted = qr_json_errors(&b, &res->warnings, QR_CLI_MAX_ERRORS, QR_CLI_RESULT_BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"warnings_omitted\":%zu", omitted);
    qr_buf_puts(&b, ",\"layout\":");
    omitted = qr_json_layout(&b, &res->layout, MAX_LAYOUT_SHOWN, LAYOUT_BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"layout_omitted\":%zu", omitted);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
}

typedef struct render_args {
    const char *spec, *out, *kind, *base_dir, *to;
    int page, all_pages, dpi, strict, contact, notes;
    unsigned strict_layout; /* --strict=KINDS: layout report kinds that are errors */
    int first, last;        /* --pages A-B */
    size_t max_input, max_output, max_work;
    int max_pages; /* --pages all/A-B: PNG files at most (0: CLI_MAX_PAGES) */
} render_args;

/* --pages all writes at most this many PNGs unless --max-pages says more. */
#define CLI_MAX_PAGES 100

static int hinted_usage(const char *msg, const char *hint);

/* Names people and models give kinds: formats, programs, plurals. */
static const char *const kind_alias[][2] = {
    {"docx", "document"},
    {"doc", "document"},
    {"word", "document"},
    {"text", "document"},
    {"xlsx", "spreadsheet"},
    {"xls", "spreadsheet"},
    {"excel", "spreadsheet"},
    {"sheet", "spreadsheet"},
    {"sheets", "spreadsheet"},
    {"csv", "spreadsheet"},
    {"pptx", "presentation"},
    {"ppt", "presentation"},
    {"powerpoint", "presentation"},
    {"slides", "presentation"},
    {"deck", "presentation"},
    {"png", "pdf"},
    {"htm", "html"},
    {"web", "html"},
};

/* Parse a -k value, or print a usage error with a did-you-mean and return
 * its exit code. */
static int kind_arg(const char *name, qr_kind *kind)
{
    if (qr_kind_from_str(name, kind) == 0) return 0;
    const char *sug = NULL;
    for (size_t i = 0; i < sizeof kind_alias / sizeof kind_alias[0] && !sug; i++)
        if (strcasecmp(name, kind_alias[i][0]) == 0) sug = kind_alias[i][1];
    if (!sug) {
        const char *names[QR_KIND_COUNT + 1];
        for (int i = 0; i < QR_KIND_COUNT; i++)
            names[i] = qr_kind_str((qr_kind)i);
        names[QR_KIND_COUNT] = NULL;
        sug = qr_suggest(name, names);
    }
    char msg[256], hint[128];
    snprintf(msg, sizeof msg,
             "unknown kind \"%.60s\"; kinds are document, spreadsheet, "
             "presentation, pdf, html",
             name);
    if (sug)
        snprintf(hint, sizeof hint, "did you mean -k %s?", sug);
    else
        snprintf(hint, sizeof hint, "run quire help");
    return hinted_usage(msg, hint);
}

/* Names people give formats. */
static const char *const format_alias[][2] = {
    {"doc", "docx"}, {"word", "docx"},         {"document", "docx"}, {"odt", "docx"},
    {"rtf", "docx"}, {"xls", "xlsx"},          {"excel", "xlsx"},    {"csv", "xlsx"},
    {"ods", "xlsx"}, {"spreadsheet", "xlsx"},  {"ppt", "pptx"},      {"powerpoint", "pptx"},
    {"odp", "pptx"}, {"presentation", "pptx"}, {"htm", "html"},      {"jpg", "png"},
    {"jpeg", "png"}, {"image", "png"},
};

/* A format name ("docx", from --to or OUT's extension), or a usage error
 * with a did-you-mean and its exit code. what: "--to" or "OUT". */
static int format_arg(const char *name, const char *what, qr_format *fmt)
{
    char path[40];
    snprintf(path, sizeof path, "x.%.30s", name);
    if (qr_format_from_path(path, fmt) == 0) return 0;
    const char *sug = NULL;
    for (size_t i = 0; i < sizeof format_alias / sizeof format_alias[0] && !sug; i++)
        if (strcasecmp(name, format_alias[i][0]) == 0) sug = format_alias[i][1];
    if (!sug) {
        const char *names[QR_FORMAT_COUNT + 1];
        for (int i = 0; i < QR_FORMAT_COUNT; i++)
            names[i] = qr_format_ext((qr_format)i);
        names[QR_FORMAT_COUNT] = NULL;
        sug = qr_suggest(name, names);
    }
    char msg[256], hint[128];
    int ext = strcmp(what, "OUT") == 0;
    snprintf(msg, sizeof msg, "%s \"%.60s\" is not a format quire writes: %s",
             ext ? "the extension" : "--to", name,
             ext ? ".docx, .xlsx, .pptx, .pdf, .html or .png"
                 : "docx, xlsx, pptx, pdf, html or png");
    if (sug)
        snprintf(hint, sizeof hint, ext ? "did you mean .%s?" : "did you mean --to %s?", sug);
    else
        snprintf(hint, sizeof hint, "%s",
                 ext ? "name the format with --to" : "run quire help render");
    return hinted_usage(msg, hint);
}

/* A usage error (exit 2) with its own hint. */
static int hinted_usage(const char *msg, const char *hint)
{
    qr_buf b = {0};
    qr_json_error_head(&b, QR_E_USAGE);
    qr_json_str(&b, msg);
    qr_buf_puts(&b, ",\"hint\":");
    qr_json_str(&b, hint);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
    fprintf(stderr, "quire: %s (%s)\n", msg, hint);
    return 2;
}

/* --strict=KINDS: "warnings" (as bare --strict), "layout" (every report
 * kind) or report kinds, comma-separated. */
static int strict_kinds(const char *list, render_args *a)
{
    if (!*list) return -1;
    while (*list) {
        const char *end = strchr(list, ',');
        size_t n = end ? (size_t)(end - list) : strlen(list);
        char name[32];
        if (n == 0 || n >= sizeof name) return -1;
        memcpy(name, list, n);
        name[n] = 0;
        qr_layout_kind k;
        if (strcmp(name, "warnings") == 0)
            a->strict = 1;
        else if (strcmp(name, "layout") == 0)
            a->strict_layout = QR_LAYOUT_ALL;
        else if (qr_layout_kind_from_str(name, &k) == 0)
            a->strict_layout |= 1u << k;
        else
            return -1;
        list += n;
        if (*list == ',') list++;
    }
    return 0;
}

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
        } else if (strcmp(s, "-t") == 0 || strcmp(s, "--to") == 0) {
            if (!v) return usage_error("--to needs a format: docx, xlsx, pptx, pdf, html or png");
            a->to = v, i++;
        } else if (strcmp(s, "--strict") == 0) {
            a->strict = 1;
        } else if (strncmp(s, "--strict=", 9) == 0) {
            if (strict_kinds(s + 9, a) != 0)
                return hinted_usage("--strict= takes a comma-separated list of warnings, layout "
                                    "or layout report kinds",
                                    "shrink, continued, small_text, contrast, image_upscaled, "
                                    "table_cut, word_broken, missing_glyph");
        } else if (strcmp(s, "--base-dir") == 0) {
            if (!v) return usage_error("--base-dir needs a folder");
            a->base_dir = v, i++;
        } else if (strcmp(s, "--page") == 0) {
            if (!v || atoi(v) < 1) return usage_error("--page needs a page number from 1");
            a->page = atoi(v), i++;
        } else if (strcmp(s, "--pages") == 0) {
            char tail;
            if (v && strcmp(v, "all") == 0)
                a->all_pages = 1;
            else if (!v || sscanf(v, "%d-%d%c", &a->first, &a->last, &tail) != 2 || a->first < 1 ||
                     a->last < a->first)
                return usage_error("--pages takes 'all' or a range of pages like 1-10");
            i++;
        } else if (strcmp(s, "--contact") == 0) {
            a->contact = 1;
        } else if (strcmp(s, "--notes") == 0) {
            a->notes = 1;
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
        } else if (strcmp(s, "--max-pages") == 0) {
            if (!v || atoi(v) < 1 || atoi(v) > 100000)
                return usage_error("--max-pages needs a number from 1 to 100000");
            a->max_pages = atoi(v), i++;
        } else if (strcmp(s, "--max-work") == 0) {
            if (!v || parse_size(v, &a->max_work) || a->max_work == 0)
                return usage_error("--max-work needs a number of work units");
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

/* The spec text of a render: a JSON file as it is, a Markdown file as the
 * spec it stands for (cli_markdown.h). NULL: printed, exit code in *rc. */
static char *load_spec(const char *path, size_t max, qr_kind kind, size_t *len, int *rc)
{
    if (qr_cli_is_markdown(path)) return qr_cli_markdown_spec(path, max, kind, 0, len, rc);
    char msg[512];
    qr_status st = QR_OK;
    char *spec = qr_cli_read(path, max, len, &st, msg, sizeof msg);
    if (!spec) *rc = input_failure(st, msg);
    return spec;
}

static int cmd_render(int argc, char **argv)
{
    render_args a;
    int rc = parse_render_args(argc, argv, &a, 1);
    if (rc) return rc;
    int to_stdout = strcmp(a.out, "-") == 0;
    qr_format fmt = QR_FORMAT_DOCX;
    qr_kind kind = QR_KIND_DOCUMENT;
    if (a.kind && (rc = kind_arg(a.kind, &kind)) != 0) return rc;
    if (a.to) {
        if ((rc = format_arg(a.to, "--to", &fmt)) != 0) return rc;
    } else if (to_stdout) {
        if (!a.kind)
            return usage_error("with -o - name the format with --to (or the kind with -k)");
        fmt = qr_kind_format(kind);
    } else if (qr_format_from_path(a.out, &fmt) != 0) {
        const char *slash = strrchr(a.out, '/');
        const char *dot = strrchr(slash ? slash : a.out, '.');
        return format_arg(dot ? dot + 1 : "", "OUT", &fmt);
    }
    if (!a.kind) kind = qr_format_kind(fmt);
    qr_cli_process_format(fmt);
    if (to_stdout && a.all_pages) return usage_error("--pages all writes files: name OUT");
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
    o.png_contact = a.contact;
    o.notes = a.notes;
    if (a.first && fmt != QR_FORMAT_PNG && fmt != QR_FORMAT_PDF)
        return usage_error("--pages A-B is for .pdf (presentations, spreadsheets) and .png");
    o.page_first = fmt == QR_FORMAT_PDF ? a.first : 0;
    o.page_last = fmt == QR_FORMAT_PDF ? a.last : 0;
    if (a.contact && (fmt != QR_FORMAT_PNG || a.all_pages || a.page || a.first))
        return usage_error(
            "--contact draws one .png of every page: use -o NAME.png, without --page");
    o.max_input = max_input;
    o.max_output = a.max_output;
    o.max_work = a.max_work;
    o.read_timeout = qr_cli_read_timeout();
    o.strict = a.strict;
    o.strict_layout = a.strict_layout;
    qr_cli_process_render_opts(&o);

    qr_result res;
    int files = 0;
    size_t total = 0;
    if (to_stdout) {
        /* The bytes go to stdout: the result line goes to stderr. */
        size_t len = 0;
        char *spec = load_spec(a.spec, max_input, kind, &len, &rc);
        if (!spec) return rc;
        st = qr_render_mem(spec, len, kind, fmt, &o, &res);
        free(spec);
        total = res.size;
        if (st == QR_OK && (fwrite(res.data, 1, res.size, stdout) != res.size || fflush(stdout))) {
            qr_result_free(&res);
            return input_failure(QR_E_IO, "cannot write to stdout");
        }
        int saved = dup(STDOUT_FILENO);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        if (st != QR_OK)
            rc = print_failure(st, &res);
        else
            print_ok("-", kind, fmt, &res, total, 0, 1), rc = 0;
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        close(saved);
        qr_result_free(&res);
        return rc;
    }
    if (fmt == QR_FORMAT_PNG && (a.all_pages || a.first)) {
        /* One PNG per page: out-1.png, out-2.png, ... (--pages A-B: out-A.png
         * to out-B.png, or to the last page). Each page compiles the spec
         * again, so it is read once into memory (documents are small). All or
         * nothing: each page is written to an unnamed temp file (atomic.h) and
         * the set is named only once every page is written; a failure, or a
         * signal that kills the process, leaves no PNG of the set. At most
         * --max-pages files (default CLI_MAX_PAGES): past that, exit 4 before
         * any is named. */
        size_t len = 0;
        char *spec = load_spec(a.spec, max_input, kind, &len, &rc);
        if (!spec) return rc;
        int max_pages = a.max_pages ? a.max_pages : CLI_MAX_PAGES;
        qr_atomic *set = calloc((size_t)max_pages, sizeof *set);
        if (!set) {
            free(spec);
            return input_failure(QR_E_NOMEM, "out of memory");
        }
        char path[PATH_MAX];
        int p0 = a.first ? a.first : 1, pages = p0;
        for (int p = p0; p <= pages && (!a.last || p <= a.last); p++) {
            if (p > p0) qr_result_free(&res);
            o.png_page = p;
            page_path(a.out, p, path, sizeof path);
            if (is_spec_file(a.spec, path)) {
                for (int i = 0; i < files; i++)
                    qr_atomic_abort(&set[i]);
                free(set);
                free(spec);
                return refuse_overwrite(path);
            }
            st = qr_render_mem(spec, len, kind, fmt, &o, &res);
            if (st != QR_OK) break;
            pages = res.pages;
            int want = (a.last && a.last < pages ? a.last : pages) - p0 + 1;
            if (want > max_pages) {
                qr_result_free(&res);
                memset(&res, 0, sizeof res);
                st = qr_errlist_addf(&res.errors, QR_E_LIMIT, "",
                                     "raise max_pages with --max-pages N, or name the pages "
                                     "with --pages A-B",
                                     "the document has %d pages from page %d; --pages writes "
                                     "at most %d PNG files (max_pages)",
                                     pages - p0 + 1, p0, max_pages);
                break;
            }
            if (qr_atomic_begin_path(&set[files], path, QR_SYNC_FILE) != 0 ||
                (qr_atomic_write(&set[files], res.data, res.size) != 0 &&
                 (qr_atomic_abort(&set[files]), 1))) {
                int e = errno;
                qr_result_free(&res);
                memset(&res, 0, sizeof res);
                st = qr_errlist_addf(&res.errors, QR_E_IO, "", NULL, "cannot write %s: %s", path,
                                     strerror(e));
                break;
            }
            total += res.size;
            files++;
        }
        /* name the set, or drop all of it */
        for (int i = 0; i < files; i++) {
            if (st != QR_OK) {
                qr_atomic_abort(&set[i]);
            } else if (qr_atomic_commit(&set[i]) != 0) {
                int e = errno;
                page_path(a.out, p0 + i, path, sizeof path);
                for (int j = 0; j < i; j++) { /* the named ones go too */
                    char done[PATH_MAX];
                    page_path(a.out, p0 + j, done, sizeof done);
                    unlink(done);
                }
                qr_result_free(&res);
                memset(&res, 0, sizeof res);
                st = qr_errlist_addf(&res.errors, QR_E_IO, "", NULL, "cannot write %s: %s", path,
                                     strerror(e));
            }
        }
        free(set);
        free(spec);
    } else if (qr_cli_is_markdown(a.spec)) {
        /* Markdown: the spec it stands for, rendered from memory */
        size_t len = 0;
        char *spec = load_spec(a.spec, max_input, kind, &len, &rc);
        if (!spec) return rc;
        st = qr_render_file(spec, len, kind, fmt, a.out, &o, &res);
        free(spec);
        total = res.size;
    } else {
        /* The spec streams from the file: its text is never held whole. */
        st = qr_render_path(a.spec, kind, fmt, a.out, &o, &res);
        total = res.size;
    }
    qr_cli_process_trace(&res);
    if (st != QR_OK) {
        rc = print_failure(st, &res);
    } else {
        print_ok(a.out, res.kind, fmt, &res, total, files, a.first ? a.first : 1);
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
    if (qr_cli_is_markdown(a->spec)) {
        qr_kind kind = QR_KIND_DOCUMENT;
        if (a->kind && kind_arg(a->kind, &kind) != 0) kind = QR_KIND_DOCUMENT;
        return qr_cli_markdown_spec(a->spec, max, kind, 0, len, rc);
    }
    char *spec = qr_cli_read(a->spec, max, len, &st, msg, sizeof msg);
    if (!spec) *rc = input_failure(st, msg);
    return spec;
}

static int cmd_check(int argc, char **argv)
{
    render_args a;
    int rc = parse_render_args(argc, argv, &a, 0);
    if (rc) return rc;
    qr_kind kind = QR_KIND_DOCUMENT;
    if (a.kind && (rc = kind_arg(a.kind, &kind)) != 0) return rc;
    size_t len = 0;
    char *spec = read_spec(&a, &len, &rc);
    if (!spec) return rc;
    /* No -k: the spec's shape says (slides, sheets, else document). */
    if (!a.kind) qr_kind_guess(spec, len, &kind);
    qr_status st;
    qr_result res;
    qr_render_opts o = {0};
    o.max_input = a.max_input; /* 0: the default */
    o.strict = a.strict;
    /* Relative images resolve as render resolves them: a spec that renders checks. */
    char dir[PATH_MAX];
    dir_of(a.spec, dir, sizeof dir);
    o.base_dir = a.base_dir ? a.base_dir : dir;
    st = qr_check_opts(spec, len, kind, &o, &res);
    free(spec);
    if (st != QR_OK) {
        rc = print_failure(st, &res);
    } else {
        qr_buf b = {0};
        qr_buf_puts(&b, "{\"status\":\"ok\",\"kind\":");
        qr_json_str(&b, qr_kind_str(kind));
        qr_buf_puts(&b, ",\"errors\":[],\"warnings\":");
        size_t omitted = qr_json_errors(&b, &res.warnings, QR_CLI_MAX_ERRORS, QR_CLI_RESULT_BUDGET);
        if (omitted) qr_buf_printf(&b, ",\"warnings_omitted\":%zu", omitted);
        qr_buf_putc(&b, '}');
        qr_json_print(&b);
        qr_buf_free(&b);
        rc = 0;
    }
    qr_result_free(&res);
    return rc;
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
        if (qr_atomic_write_path(a.out, out.data, out.len) != 0) {
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

/* quire schema [-k KIND] [--edit]: the JSON Schema itself (not a result line). */
static int cmd_schema(int argc, char **argv)
{
    qr_kind kind = QR_KIND_DOCUMENT;
    int edit = 0, rc;
    for (int i = 1; i < argc; i++) {
        if ((strcmp(argv[i], "-k") == 0 || strcmp(argv[i], "--kind") == 0) && i + 1 < argc) {
            if ((rc = kind_arg(argv[++i], &kind)) != 0) return rc;
        } else if (strcmp(argv[i], "--edit") == 0) {
            edit = 1;
        } else {
            char msg[256];
            snprintf(msg, sizeof msg, "unexpected argument %.200s", argv[i]);
            return usage_error(msg);
        }
    }
    qr_result res;
    qr_status st = qr_schema(kind, edit, &res);
    if (st != QR_OK) {
        rc = print_failure(st, &res);
    } else {
        fwrite(res.data, 1, res.size, stdout);
        rc = fflush(stdout) ? 3 : 0;
    }
    qr_result_free(&res);
    return rc;
}

/* quire help [CMD | --man | --man-spec | --completion] */
static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        qr_cli_usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--man") == 0) return qr_cli_man(stdout), 0;
    if (strcmp(argv[1], "--man-spec") == 0) return qr_cli_man_spec(stdout), 0;
    if (strcmp(argv[1], "--completion") == 0) return qr_cli_completion(stdout), 0;
    const qr_cli_cmd *c = qr_cli_cmd_find(argv[1]);
    if (!c) {
        char msg[256];
        const char *sug = qr_cli_cmd_suggest(argv[1]);
        snprintf(msg, sizeof msg, "no command %.60s%s%s%s", argv[1], sug ? "; did you mean " : "",
                 sug ? sug : "", sug ? "?" : "");
        return usage_error(msg);
    }
    qr_cli_help(stdout, c);
    return 0;
}

/* The store folder the store commands will use, made absolute for messages
 * (a database names itself in its messages, without its secrets). */
static void note_store(int argc, char **argv)
{
    const char *dir = NULL;
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--store") == 0) dir = argv[i + 1];
    if (!dir) dir = getenv("QUIRE_STORE");
    if (!dir || !*dir) dir = ".quire";
    static char abs[2 * PATH_MAX + 2];
    char cwd[PATH_MAX];
    if (qr_store_loc_is_db(dir)) return; /* a database: its messages name it, scrubbed */
    if (dir[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(abs, sizeof abs, "%s", dir);
    else
        snprintf(abs, sizeof abs, "%s/%s", cwd, strncmp(dir, "./", 2) == 0 ? dir + 2 : dir);
    qr_cli_set_store(abs);
}

static int dispatch(int argc, char **argv);

/* --read-timeout SECONDS (or =SECONDS), anywhere before "--", taken out of
 * argv (argc updated); QUIRE_READ_TIMEOUT when absent. Returns 0, or -1
 * for a bad value. */
static int take_read_timeout(int *argc, char **argv)
{
    const char *v = getenv("QUIRE_READ_TIMEOUT");
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strcmp(argv[i], "--read-timeout") == 0 && i + 1 < *argc) {
            v = argv[++i];
        } else if (strncmp(argv[i], "--read-timeout=", 15) == 0) {
            v = argv[i] + 15;
        } else if (strcmp(argv[i], "--read-timeout") == 0) {
            return -1;
        } else {
            argv[out++] = argv[i];
        }
    }
    argv[out] = NULL;
    *argc = out;
    if (!v || !*v) return 0;
    char *end;
    errno = 0;
    long sec = strtol(v, &end, 10);
    if (errno || *end || sec < 0 || sec > 86400) return -1;
    qr_cli_set_read_timeout((int)sec);
    return 0;
}

int main(int argc, char **argv)
{
    qr_cli_process_start();
    if (take_read_timeout(&argc, argv) != 0)
        return usage_error("--read-timeout needs whole seconds, 0 to 86400 (0: no limit)");
    /* Global options before the command (git's habit) move after it:
     * `quire --store D log ID` is `quire log ID --store D`. */
    /* each "--opt=V" before the command may become two words */
    char **args = malloc((2 * (size_t)argc + 1) * sizeof *args);
    if (!args) return 3;
    /* The store's options (README "Global options"): --store and the quotas,
     * "--opt VALUE" or "--opt=VALUE". */
    static const char *const globals[] = {"--store", "--max-artifacts", "--max-bytes",
                                          "--max-version-bytes"};
    int n = 0, g = 1;
    args[n++] = argv[0];
    int first = g;
    while (g < argc) {
        size_t k = 0, nk = sizeof globals / sizeof globals[0];
        for (; k < nk; k++)
            if (strcmp(argv[g], globals[k]) == 0 ||
                (strncmp(argv[g], globals[k], strlen(globals[k])) == 0 &&
                 argv[g][strlen(globals[k])] == '='))
                break;
        if (k == nk) break;
        g += argv[g][strlen(globals[k])] == '=' ? 1 : (g + 1 < argc ? 2 : 1);
    }
    for (int i = g; i < argc; i++)
        args[n++] = argv[i];
    for (int i = first; i < g; i++) { /* after the command, "--opt=V" split */
        char *eq = strchr(argv[i], '=');
        if (eq && strncmp(argv[i], "--", 2) == 0) {
            *eq = '\0';
            args[n++] = argv[i];
            args[n++] = eq + 1;
        } else {
            args[n++] = argv[i];
        }
    }
    args[n] = NULL;
    int rc = dispatch(n, args);
    free(args);
    /* Every command's stdout is checked: a full disk or /dev/full is an
     * I/O failure (exit 3), never a silent exit 0 with part of the output. */
    errno = 0;
    int flushed = fflush(stdout), fe = errno;
    if (flushed != 0) qr_cli_stdout_error(fe ? fe : EIO);
    if (qr_cli_stdout_failed()) {
        int e = qr_cli_stdout_failed();
        fprintf(stderr, "quire: cannot write to stdout: %s (%s)\n", e ? strerror(e) : "write error",
                e == ENOSPC ? "no space left on the device: free some space"
                            : "check where stdout goes");
        rc = 3;
    }
    return rc;
}

/* The command line, global options moved after the command. */
static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        qr_cli_usage(stderr);
        return usage_error("name a command");
    }
    const char *cmd = argv[1];
    qr_cli_process_command(cmd);
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        qr_cli_usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0) cmd = "version";
    const qr_cli_cmd *c = qr_cli_cmd_find(cmd);
    if (!c) {
        char msg[256];
        const char *sug = qr_cli_cmd_suggest(cmd);
        snprintf(msg, sizeof msg, "unknown command %.60s%s%s%s", cmd, sug ? "; did you mean " : "",
                 sug ? sug : "", sug ? "?" : "");
        return usage_error(msg);
    }
    /* CMD --help for every command (before "--", which ends the options). */
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            qr_cli_help(stdout, c);
            return 0;
        }
    }
    if (strcmp(cmd, "version") == 0) {
        printf("quire %s\n", QUIRE_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0) return cmd_help(argc - 1, argv + 1);
    if (strcmp(cmd, "render") == 0) return cmd_render(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0) return cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "fmt") == 0) return cmd_fmt(argc - 1, argv + 1);
    if (strcmp(cmd, "schema") == 0) return cmd_schema(argc - 1, argv + 1);
    if (strcmp(cmd, "fonts") == 0) return qr_cli_fonts(argc - 1, argv + 1);
    if (strcmp(cmd, "read") == 0) return qr_cli_read_cmd(argc - 1, argv + 1);
    /* store copy names its two stores in its own messages */
    if (strcmp(cmd, "store") != 0) note_store(argc - 1, argv + 1);
    if (strcmp(cmd, "import") == 0) return qr_cli_import(argc - 1, argv + 1);
    /* the rest are the store commands */
    return qr_cli_store(argc - 1, argv + 1);
}
