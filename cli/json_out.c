/* json_out.c: JSON string escaping for the CLI result line. */
#include "json_out.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"

#define READ_TIMEOUT_HINT "raise it with --read-timeout SECONDS, or check what writes the input"

/* Room for a store folder named in a message. */
#define PATH_MAX_SHOWN 200

/* Append n bytes as a quoted JSON string (sanitized: the result line is
 * valid JSON whatever a message quotes); "..." inside the quotes when cut. */
static void str_n(qr_buf *b, const char *s, size_t n, int cut)
{
    qr_buf_putc(b, '"');
    qr_buf_json_chars(b, s, n, QR_JSON_SANITIZE);
    if (cut) qr_buf_puts(b, "...");
    qr_buf_putc(b, '"');
}

void qr_json_str_max(qr_buf *b, const char *str, size_t max)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strlen(str);
    int cut = 0;
    if (n > max) {
        n = max;
        while (n > 0 && (s[n] & 0xC0) == 0x80)
            n--;
        cut = 1;
    }
    str_n(b, str, n, cut);
}

void qr_json_strn(qr_buf *b, const char *s, size_t n)
{
    str_n(b, s, n, 0);
}

void qr_json_str(qr_buf *b, const char *s)
{
    qr_json_str_max(b, s ? s : "", (size_t)-1);
}

static const char *store_dir;

void qr_cli_set_store(const char *dir)
{
    store_dir = dir;
}

/* Library wording -> CLI wording: the first match is replaced. */
static const char *const hint_map[][2] = {
    {"qr_limits.max_input", "max_input with --max-input BYTES"},
    {"qr_limits.max_output", "max_output with --max-output BYTES"},
    {"qr_render_opts.max_output", "max_output with --max-output BYTES"},
    {"qr_render_opts.max_work", "max_work with --max-work UNITS"},
    {"qr_render_opts.read_timeout", "read_timeout with --read-timeout SECONDS"},
    {"qr_limits.max_work", "max_work with --max-work UNITS"},
    {"qr_store_log()", "quire log ID"},
    {"qr_store_list()", "quire list"},
    {"qr_store_fsck_run()", "quire fsck"},
    {"qr_store_show()", "quire show ID --json"},
    {"qr_store_open() creates a store; check the location",
     "quire create or quire store init makes one; check --store and QUIRE_STORE"},
    {"the kind's JSON Schema (qr_schema)", "quire schema -k KIND"},
};

const char *qr_cli_hint(const char *hint, char *buf, size_t size)
{
    if (!hint) return NULL;
    for (size_t i = 0; i < sizeof hint_map / sizeof hint_map[0]; i++) {
        const char *at = strstr(hint, hint_map[i][0]);
        if (!at) continue;
        snprintf(buf, size, "%.*s%s%s", (int)(at - hint), hint, hint_map[i][1],
                 at + strlen(hint_map[i][0]));
        return buf;
    }
    return hint;
}

const char *qr_cli_error_hint(const qr_error *e, char *buf, size_t size)
{
    if (e->hint) return qr_cli_hint(e->hint, buf, size);
    switch (e->code) {
    case QR_OK: /* a warning without a hint says enough */
        return NULL;
    case QR_E_NOMEM:
        return "memory ran out: send a smaller spec or split it";
    case QR_E_IO:
        return "check the path, its folder and their permissions";
    case QR_E_RENDER:
    case QR_E_UNSUPPORTED:
        return "quire help render lists the formats";
    case QR_E_STORE:
        return "quire fsck checks the store; --repair fixes what it can";
    case QR_E_LIMIT:
        if (strstr(e->message, "(the limit read_timeout)")) return READ_TIMEOUT_HINT;
        /* fall through */
    case QR_E_QUOTA:
        return "quire help lists the options that raise limits and quotas";
    case QR_E_USAGE:
        return "run quire help";
    case QR_E_NOT_FOUND:
        return "quire list shows the artifacts; quire log ID the versions";
    case QR_E_CONFLICT:
        return "quire show ID --json gives the head version; retry against it";
    case QR_E_UNAVAILABLE:
        return "check that the database server runs, then retry (with the same --key)";
    case QR_E_SPEC:
    case QR_E_JSON:
    case QR_E_UTF8:
    case QR_E_EDIT:
    case QR_STATUS_COUNT:
        break;
    }
    return "quire schema -k KIND shows the expected shape";
}

const char *qr_cli_message(const qr_error *e, char *buf, size_t size)
{
    /* a database's messages name it themselves (its URI without the
     * password; store_dir is NULL then); only a folder's are given the folder */
    if ((e->code != QR_E_STORE && e->code != QR_E_NOT_FOUND) || !store_dir ||
        strstr(e->message, store_dir))
        return e->message;
    snprintf(buf, size, "%s (store folder %s)", e->message, store_dir);
    return buf;
}

size_t qr_json_errors(qr_buf *b, const qr_errlist *l, size_t cap, size_t budget)
{
    char mbuf[1024], hbuf[512];
    size_t start = b->len, n = 0;
    qr_buf_putc(b, '[');
    for (; n < l->count && n < cap && b->len - start < budget; n++) {
        const qr_error *e = &l->items[n];
        if (n) qr_buf_putc(b, ',');
        qr_buf_puts(b, "{\"path\":");
        qr_json_str_max(b, e->path, 120);
        qr_buf_puts(b, ",\"message\":");
        const char *msg = qr_cli_message(e, mbuf, sizeof mbuf);
        qr_json_str_max(b, msg, msg == e->message ? 160 : 160 + PATH_MAX_SHOWN);
        const char *hint = qr_cli_error_hint(e, hbuf, sizeof hbuf);
        if (hint) {
            qr_buf_puts(b, ",\"hint\":");
            qr_json_str_max(b, hint, 120);
        }
        qr_buf_putc(b, '}');
    }
    qr_buf_putc(b, ']');
    return l->count - n;
}

size_t qr_json_layout(qr_buf *b, const qr_layout_list *l, size_t cap, size_t budget)
{
    size_t start = b->len, n = 0;
    char num[32];
    qr_buf_putc(b, '[');
    for (; n < l->count && n < cap && b->len - start < budget; n++) {
        const qr_layout_item *it = &l->items[n];
        if (n) qr_buf_putc(b, ',');
        qr_buf_puts(b, "{\"kind\":");
        qr_json_str(b, qr_layout_kind_str(it->kind));
        qr_buf_puts(b, ",\"path\":");
        qr_json_str_max(b, it->path, 120);
        if (it->slide) qr_buf_printf(b, ",\"slide\":%d", it->slide);
        if (it->page) qr_buf_printf(b, ",\"page\":%d", it->page);
        /* four decimals say enough (a scale, a size, a ratio) */
        double v = it->value * 10000.0;
        v = (double)(long long)(v + (v >= 0 ? 0.5 : -0.5)) / 10000.0;
        qr_fmt_double(v, num);
        qr_buf_printf(b, ",\"value\":%s,\"detail\":", num);
        qr_json_str_max(b, it->detail, 240);
        qr_buf_putc(b, '}');
    }
    qr_buf_putc(b, ']');
    return l->count - n;
}

void qr_json_error_head(qr_buf *b, qr_status st)
{
    qr_buf_printf(b, "{\"status\":\"error\",\"code\":\"%s\",", qr_status_code(st));
    if (qr_status_retryable(st)) qr_buf_puts(b, "\"retryable\":true,");
    qr_buf_puts(b, "\"error\":");
}

int qr_cli_fail(qr_status st, const char *head, const qr_errlist *errs)
{
    qr_buf b = {0};
    qr_json_error_head(&b, st);
    qr_json_str(&b, head ? head : errs->count ? errs->items[0].message : qr_status_str(st));
    qr_buf_puts(&b, ",\"errors\":");
    size_t omitted = qr_json_errors(&b, errs, QR_CLI_MAX_ERRORS, QR_CLI_RESULT_BUDGET);
    if (omitted) qr_buf_printf(&b, ",\"errors_omitted\":%zu", omitted);
    qr_buf_putc(&b, '}');
    qr_json_print(&b);
    qr_buf_free(&b);
    for (size_t i = 0; i < errs->count && i < QR_CLI_MAX_ERRORS; i++) {
        const qr_error *e = &errs->items[i];
        char hb[512];
        fprintf(stderr, "%s: %s", *e->path ? e->path : "/", e->message);
        const char *hint = qr_cli_error_hint(e, hb, sizeof hb);
        if (hint) fprintf(stderr, " (%s)", hint);
        fputc('\n', stderr);
    }
    return qr_status_exit(st);
}

static int stdout_errno; /* the first failed write to stdout, 0: none */

void qr_json_print(qr_buf *b)
{
    errno = 0;
    if ((b->data && fwrite(b->data, 1, b->len, stdout) != b->len) || fputc('\n', stdout) == EOF ||
        fflush(stdout) != 0)
        qr_cli_stdout_error(errno ? errno : EIO);
}

void qr_cli_stdout_error(int e)
{
    if (!stdout_errno) stdout_errno = e;
}

int qr_cli_stdout_failed(void)
{
    if (!stdout_errno && ferror(stdout)) {
        /* stdio kept the flag, not the errno: the output is broken already,
         * so one more byte asks the system why (ENOSPC on a full disk) */
        errno = 0;
        stdout_errno = write(STDOUT_FILENO, "\n", 1) < 0 && errno ? errno : EIO;
    }
    return stdout_errno;
}

static int read_timeout; /* --read-timeout: seconds the whole input may take; 0: none */

void qr_cli_set_read_timeout(int seconds)
{
    read_timeout = seconds;
}

int qr_cli_read_timeout(void)
{
    return read_timeout;
}

char *qr_cli_read(const char *path, size_t max, size_t *len, qr_status *err, char *msg,
                  size_t msgsz)
{
    int fd, is_stdin = strcmp(path, "-") == 0;
    if (is_stdin) {
        if (isatty(STDIN_FILENO)) {
            snprintf(msg, msgsz, "refusing to read from a terminal; pipe the JSON or name a file");
            *err = QR_E_USAGE;
            return NULL;
        }
        fd = STDIN_FILENO;
    } else {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            snprintf(msg, msgsz, "cannot open %s: %s", path, strerror(errno));
            *err = QR_E_IO;
            return NULL;
        }
    }
    if (!max) {
        qr_limits lim;
        qr_limits_default(&lim);
        max = lim.max_input;
    }
    /* read as the bytes arrive, never past max + one gulp, and (with
     * --read-timeout) never after the deadline */
    struct timespec deadline = {0}, now;
    if (read_timeout > 0) {
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += read_timeout;
    }
    qr_buf b = {0};
    char chunk[65536];
    int failed = 0, timed_out = 0;
    for (;;) {
        if (read_timeout > 0) {
            clock_gettime(CLOCK_MONOTONIC, &now);
            long long ms = (long long)(deadline.tv_sec - now.tv_sec) * 1000 +
                           (deadline.tv_nsec - now.tv_nsec) / 1000000;
            struct pollfd pfd = {.fd = fd, .events = POLLIN};
            int ready = ms > 0 ? poll(&pfd, 1, ms > INT_MAX ? INT_MAX : (int)ms) : 0;
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                timed_out = 1;
                break;
            }
        }
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) failed = 1;
        if (n <= 0) break;
        if (qr_buf_append(&b, chunk, (size_t)n) != 0) break;
        if (b.len > max) break;
    }
    if (!is_stdin) close(fd);
    if (timed_out) {
        snprintf(msg, msgsz, "%s did not arrive whole within %d s (the limit read_timeout)",
                 is_stdin ? "the input on stdin" : path, read_timeout);
        *err = QR_E_LIMIT;
        qr_buf_free(&b);
        return NULL;
    }
    if (b.oom || failed) {
        snprintf(msg, msgsz, "cannot read %s", path);
        *err = QR_E_IO;
        qr_buf_free(&b);
        return NULL;
    }
    if (b.len > max) {
        snprintf(
            msg, msgsz,
            "the spec is larger than the limit max_input (%zu bytes); raise it with --max-input",
            max);
        *err = QR_E_LIMIT;
        qr_buf_free(&b);
        return NULL;
    }
    return qr_buf_steal(&b, len);
}
