/* load.c: qr_rd_pdf(), the PDF reader as libquire links it (poppler.c
 * called directly) or as the CLI has it (QUIRE_READ_PDF_MODULE: the module
 * quire-read-pdf.so opened on the first PDF, beside the binary or in
 * <libdir>/quire), or absent when poppler-glib was not found at build time.
 *
 * The work budget: poppler has no hook that stops a page's text extraction,
 * and a small PDF can make it work for minutes (form XObjects drawn inside
 * each other, JBIG2 bombs, a huge Flate stream). So poppler runs in a child
 * process (fork) with a wall-clock deadline (max_seconds, default 20 s), an
 * address-space cap (1 GiB more than the parent had; not under ASan, whose
 * shadow memory the cap would count) and a CPU limit; the parent reads the
 * spec's JSON over a pipe, at most max_output bytes. Before poppler, the
 * child inflates every Flate stream of the file once, counting the bytes
 * against max_unzipped as a package's parts are counted. Past any of these,
 * the read fails with QR_E_LIMIT (exit 4) naming the limit. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "../read_int.h"
#include "pdf_read.h"

typedef int (*pdf_fn)(const void *, size_t, qr_buf *, char *, size_t, const char **);

#if defined(QUIRE_READ_PDF_MODULE)
#include <pthread.h>

#include "module.h"

#define MODULE_FILE "quire-read-pdf.so"

static pdf_fn module_fn;
static char module_error[256];
static pthread_once_t module_once = PTHREAD_ONCE_INIT;

static void module_load(void)
{
    static const qr_stamp mine = QR_READ_PDF_MODULE_STAMP;
    module_fn =
        (pdf_fn)qr_module_open(MODULE_FILE, QUIRE_PDF_MODULE_RELDIR, &mine,
                               "qr_read_pdf_module_json", module_error, sizeof module_error);
}
#endif

#if defined(QUIRE_READ_PDF_MODULE) || defined(QUIRE_HAVE_POPPLER)

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#define CHILD_MEMORY ((size_t)1 << 30)

/* What the child sends before the JSON. */
typedef struct reply {
    int rc;         /* 0, or -1 with msg */
    int limit;      /* the failure is a limit (QR_E_LIMIT) */
    int nomem;      /* out of memory */
    uintptr_t hint; /* static text: the same address in parent and child */
    size_t len;     /* JSON bytes that follow */
    char msg[512];
} reply;

/* Whether the bytes before s (back to the last "obj") name FlateDecode. */
static int flate_dict(const unsigned char *d, size_t at)
{
    size_t from = at > 4096 ? at - 4096 : 0;
    for (size_t i = at; i-- > from;) {
        if (i + 3 <= at && memcmp(d + i, "obj", 3) == 0) return 0;
        if (i + 4 <= at && (memcmp(d + i, "/Fl ", 4) == 0 || memcmp(d + i, "/Fl]", 4) == 0 ||
                            memcmp(d + i, "/Fl/", 4) == 0))
            return 1;
        if (i + 12 <= at && memcmp(d + i, "/FlateDecode", 12) == 0) return 1;
    }
    return 0;
}

/* Inflate every Flate stream once, counting its bytes; -1 past max. */
static int count_streams(const unsigned char *d, size_t len, size_t max, size_t *total)
{
    static unsigned char out[65536];
    *total = 0;
    for (size_t i = 0; i + 7 < len;) {
        const unsigned char *p = memchr(d + i, 's', len - i - 7);
        if (!p) break;
        i = (size_t)(p - d) + 1;
        if (memcmp(p, "stream", 6) != 0 || (p > d && p[-1] == 'd')) continue;
        size_t s = (size_t)(p - d) + 6;
        if (s < len && d[s] == '\r') s++;
        if (s >= len || d[s] != '\n' || !flate_dict(d, (size_t)(p - d))) continue;
        s++;
        z_stream z;
        memset(&z, 0, sizeof z);
        if (inflateInit(&z) != Z_OK) return 0;
        z.next_in = (Bytef *)(d + s);
        z.avail_in = (uInt)(len - s > 0x7fffffff ? 0x7fffffff : len - s);
        int zr;
        do {
            z.next_out = out;
            z.avail_out = sizeof out;
            zr = inflate(&z, Z_NO_FLUSH);
            *total += sizeof out - z.avail_out;
            if (max && *total > max) {
                inflateEnd(&z);
                return -1;
            }
        } while (zr == Z_OK);
        i = s + (size_t)(z.next_in - (d + s));
        inflateEnd(&z);
    }
    return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The child: limits, the stream count, poppler, the reply. Never returns. */
static void child(qr_rd *r, pdf_fn fn, const void *data, size_t len, int fd, unsigned seconds)
{
#if defined(__linux__)
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed quire takes its reader along */
#endif
    struct rlimit cpu = {seconds + 1, seconds + 2};
    setrlimit(RLIMIT_CPU, &cpu);
#if !defined(UNDER_ASAN)
    FILE *fp = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (fp) {
        if (fscanf(fp, "%lu", &pages) != 1) pages = 0;
        fclose(fp);
    }
    struct rlimit as = {(rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + CHILD_MEMORY,
                        (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + CHILD_MEMORY};
    setrlimit(RLIMIT_AS, &as);
#endif
    reply h;
    memset(&h, 0, sizeof h);
    qr_buf b = {0};
    size_t total = 0;
    const char *hint = NULL;
    if (count_streams(data, len, r->max_unzipped, &total) != 0) {
        h.rc = -1;
        h.limit = 1;
        hint = "raise it with --max-unzipped BYTES (0 disables it)";
        snprintf(h.msg, sizeof h.msg,
                 "the PDF's streams hold more than %zu uncompressed bytes (the limit "
                 "max_unzipped)",
                 r->max_unzipped);
    } else {
        h.rc = fn(data, len, &b, h.msg, sizeof h.msg, &hint);
        h.nomem = b.oom;
        if (h.rc == 0 && r->max_output && b.len > r->max_output) {
            h.rc = -1;
            h.limit = 1;
            hint = "raise it with --max-output BYTES (0 disables it)";
            snprintf(h.msg, sizeof h.msg, "what was read passes %zu bytes (the limit max_output)",
                     r->max_output);
        }
    }
    h.hint = (uintptr_t)hint;
    h.len = h.rc == 0 ? b.len : 0;
    if (write_all(fd, &h, sizeof h) == 0 && h.len) write_all(fd, b.data, b.len);
    close(fd);
    _exit(0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static qr_status run(qr_rd *r, pdf_fn fn, const void *data, size_t len)
{
    unsigned seconds = r->max_seconds ? r->max_seconds : 20;
    int fds[2];
    if (pipe(fds) != 0)
        return qr_rd_fail(r, QR_E_IO, "", NULL, "cannot start the PDF reader: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return qr_rd_fail(r, QR_E_IO, "", NULL, "cannot start the PDF reader: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        child(r, fn, data, len, fds[1], seconds);
    }
    close(fds[1]);
    reply h;
    memset(&h, 0, sizeof h);
    size_t got = 0, want = sizeof h;
    int timed_out = 0, too_big = 0;
    double end = now_s() + seconds;
    while (got < want) {
        double left = end - now_s();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd pf = {fds[0], POLLIN, 0};
        int pr = poll(&pf, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR) continue;
        if (pr == 0) continue;
        char *dst;
        size_t room;
        if (got < sizeof h) {
            dst = (char *)&h + got;
            room = sizeof h - got;
        } else {
            dst = qr_buf_reserve(&r->spec, want - got);
            if (!dst) break;
            room = want - got;
        }
        ssize_t n = read(fds[0], dst, room);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
        if (got > sizeof h) r->spec.len += (size_t)n;
        if (got == sizeof h) {
            if (r->max_output && h.len > r->max_output) {
                too_big = 1;
                break;
            }
            want = sizeof h + h.len;
        }
    }
    if (r->spec.data) r->spec.data[r->spec.len] = '\0';
    close(fds[0]);
    int status = 0;
    if (got < want) kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (timed_out || (got < want && WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU))
        return qr_rd_fail(r, QR_E_LIMIT, "",
                          "raise it with --max-seconds N; the PDF may be built to stall readers",
                          "reading the PDF took more than %u s (the limit max_seconds)", seconds);
    if (too_big)
        return qr_rd_fail(r, QR_E_LIMIT, "", "raise it with --max-output BYTES (0 disables it)",
                          "what was read passes %zu bytes (the limit max_output)", r->max_output);
    if (got < want)
        return qr_rd_fail(r, QR_E_LIMIT, "",
                          "the PDF may be built to exhaust readers (images or streams that "
                          "expand without end)",
                          "reading the PDF stopped%s: it needed more than the reader's %zu MiB "
                          "of memory, or poppler failed on it",
                          WIFSIGNALED(status) ? " (signal)" : "", CHILD_MEMORY >> 20);
    if (h.rc != 0) {
        h.msg[sizeof h.msg - 1] = '\0';
        return qr_rd_fail(r,
                          h.limit   ? QR_E_LIMIT
                          : h.nomem ? QR_E_NOMEM
                                    : QR_E_SPEC,
                          "", (const char *)h.hint, "%s", *h.msg ? h.msg : "out of memory");
    }
    return r->spec.oom ? qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory") : QR_OK;
}
#endif

qr_status qr_rd_pdf(qr_rd *r, const void *data, size_t len)
{
    r->kind = QR_KIND_DOCUMENT;
#if defined(QUIRE_READ_PDF_MODULE)
    pthread_once(&module_once, module_load);
    pdf_fn fn = module_fn;
    if (!fn && *module_error)
        return qr_rd_fail(r, QR_E_UNSUPPORTED, "",
                          "reinstall quire so that the binary and its modules come from one build",
                          "%s", module_error);
    if (!fn)
        return qr_rd_fail(r, QR_E_UNSUPPORTED, "", "install quire with its PDF reading module",
                          "cannot load %s, which reads PDFs", MODULE_FILE);
    return run(r, fn, data, len);
#elif defined(QUIRE_HAVE_POPPLER)
    return run(r, qr_rd_pdf_json, data, len);
#else
    (void)data, (void)len;
    return qr_rd_fail(r, QR_E_UNSUPPORTED, "", "rebuild quire with libpoppler-glib-dev installed",
                      "this quire was built without PDF reading (poppler-glib)");
#endif
}
