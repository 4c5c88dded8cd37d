/* cache.c: the font table's cache file, so a render whose fonts are known
 * skips fontconfig's start (its XML configuration: 3-5 ms of a 10 ms call).
 *
 * The file is the table's bytes (table.c) with a key: the environment
 * fontconfig reads, then one line per path whose change could change the
 * table, with what stat() says of it. The key holds while every line still
 * reads the same, the test fontconfig itself applies to its caches (a font
 * folder's mtime). Paths that changed in the last two seconds make no cache
 * (a change during fontconfig's scan could otherwise be missed for good).
 * Writes are atomic; a damaged or foreign file is ignored and replaced.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fonts_int.h"

/* What fontconfig's configuration depends on besides files. */
static const char *const env_names[] = {"FONTCONFIG_FILE",
                                        "FONTCONFIG_PATH",
                                        "FONTCONFIG_SYSROOT",
                                        "HOME",
                                        "XDG_CONFIG_HOME",
                                        "XDG_DATA_HOME",
                                        "XDG_CACHE_HOME",
                                        "FC_LANG",
                                        "LANG",
                                        "LC_ALL",
                                        "LC_CTYPE",
                                        "LC_MESSAGES"};

/* The key's first part: versions and environment. */
static void env_part(qr_buf *out)
{
    qr_buf_printf(out, "quire-fonts %u fontconfig %d\n", QR_FBLOB_VERSION, FcGetVersion());
    for (size_t i = 0; i < sizeof env_names / sizeof *env_names; i++) {
        const char *v = getenv(env_names[i]);
        if (v)
            qr_buf_printf(out, "env %s=%s\n", env_names[i], v);
        else
            qr_buf_printf(out, "env %s\n", env_names[i]);
    }
}

/* One path's state: "-" when absent. */
static void stat_line(qr_buf *out, const char *path, int64_t *mtime)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        qr_buf_printf(out, "stat - %s\n", path);
        *mtime = 0;
        return;
    }
    qr_buf_printf(out, "stat %o:%lld.%09ld:%" PRIu64 ":%lld %s\n", (unsigned)(st.st_mode & S_IFMT),
                  (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, (uint64_t)st.st_ino,
                  (long long)st.st_size, path);
    *mtime = (int64_t)st.st_mtim.tv_sec;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct paths {
    char **v;
    size_t n, cap;
    int oom;
} paths;

static void add_path(paths *p, const char *a, const char *b)
{
    if (p->oom || !a || !*a) return;
    if (p->n == p->cap) {
        size_t nc = p->cap ? p->cap * 2 : 64;
        char **nv = realloc(p->v, nc * sizeof *nv);
        if (!nv) {
            p->oom = 1;
            return;
        }
        p->v = nv;
        p->cap = nc;
    }
    size_t la = strlen(a), lb = b ? strlen(b) : 0;
    char *s = malloc(la + lb + 1);
    if (!s) {
        p->oom = 1;
        return;
    }
    memcpy(s, a, la);
    if (lb) memcpy(s + la, b, lb);
    s[la + lb] = '\0';
    p->v[p->n++] = s;
}

static void add_list(paths *p, FcStrList *l, int with_parent)
{
    if (!l) return;
    FcChar8 *s;
    while ((s = FcStrListNext(l)) != NULL) {
        add_path(p, (const char *)s, NULL);
        const char *slash = with_parent ? strrchr((const char *)s, '/') : NULL;
        if (slash && slash != (const char *)s) {
            char dir[PATH_MAX];
            size_t n = (size_t)(slash - (const char *)s);
            if (n < sizeof dir) {
                memcpy(dir, s, n);
                dir[n] = '\0';
                add_path(p, dir, NULL);
            }
        }
    }
    FcStrListDone(l);
}

int qr_fonts_cache_key(FcConfig *cfg, qr_buf *out)
{
    paths p = {0};
    add_list(&p, FcConfigGetConfigFiles(cfg), 1);
    add_list(&p, FcConfigGetConfigDirs(cfg), 0);
    add_list(&p, FcConfigGetFontDirs(cfg), 0);
    /* the user's configuration places, which the system's includes name
     * with ignore_missing: their appearance changes the table */
    const char *home = getenv("HOME"), *xdg = getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) {
        add_path(&p, xdg, "/fontconfig");
        add_path(&p, xdg, "/fontconfig/conf.d");
        add_path(&p, xdg, "/fontconfig/fonts.conf");
    } else if (home && *home) {
        add_path(&p, home, "/.config/fontconfig");
        add_path(&p, home, "/.config/fontconfig/conf.d");
        add_path(&p, home, "/.config/fontconfig/fonts.conf");
    }
    if (home && *home) {
        add_path(&p, home, "/.fonts.conf");
        add_path(&p, home, "/.fonts.conf.d");
    }
    int rc = p.oom ? -1 : 0;
    if (p.n) qsort(p.v, p.n, sizeof *p.v, cmp_str);
    env_part(out);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    for (size_t i = 0; i < p.n; i++) {
        if (i && strcmp(p.v[i], p.v[i - 1]) == 0) continue;
        if (strchr(p.v[i], '\n')) rc = -1; /* cannot be written as a line */
        int64_t mtime;
        stat_line(out, p.v[i], &mtime);
        if (mtime > (int64_t)now.tv_sec - 2) rc = -1;
    }
    for (size_t i = 0; i < p.n; i++)
        free(p.v[i]);
    free(p.v);
    return out->oom ? -1 : rc;
}

int qr_fonts_cache_key_holds(const char *key, size_t len)
{
    qr_buf env = {0};
    env_part(&env);
    int ok = !env.oom && len >= env.len && memcmp(key, env.data, env.len) == 0;
    size_t pos = env.len;
    qr_buf_free(&env);
    qr_buf line = {0};
    while (ok && pos < len) {
        const char *s = key + pos, *nl = memchr(s, '\n', len - pos);
        if (!nl || (size_t)(nl - s) < 8 || memcmp(s, "stat ", 5) != 0) {
            ok = 0;
            break;
        }
        const char *sp = memchr(s + 5, ' ', (size_t)(nl - s) - 5);
        if (!sp) {
            ok = 0;
            break;
        }
        char path[PATH_MAX];
        size_t pl = (size_t)(nl - sp - 1);
        if (pl == 0 || pl >= sizeof path) {
            ok = 0;
            break;
        }
        memcpy(path, sp + 1, pl);
        path[pl] = '\0';
        int64_t mtime;
        line.len = 0;
        stat_line(&line, path, &mtime);
        ok = !line.oom && line.len == (size_t)(nl - s + 1) && memcmp(line.data, s, line.len) == 0;
        pos += (size_t)(nl - s + 1);
    }
    qr_buf_free(&line);
    return ok;
}

int qr_fonts_cache_path(char *out, size_t n)
{
    const char *env = getenv("QUIRE_FONT_CACHE");
    if (env) {
        if (!*env || strcmp(env, "off") == 0) return -1;
        int w = snprintf(out, n, "%s", env);
        return w < 0 || (size_t)w >= n ? -1 : 0;
    }
    qr_buf e = {0};
    env_part(&e);
    if (e.oom) return -1;
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (size_t i = 0; i < e.len; i++)
        h = (h ^ (unsigned char)e.data[i]) * 1099511628211ull;
    qr_buf_free(&e);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int w;
    if (xdg && *xdg == '/')
        w = snprintf(out, n, "%s/quire/fonts-%u-%016" PRIx64 ".bin", xdg, QR_FBLOB_VERSION, h);
    else if (home && *home == '/')
        w = snprintf(out, n, "%s/.cache/quire/fonts-%u-%016" PRIx64 ".bin", home, QR_FBLOB_VERSION,
                     h);
    else
        return -1;
    return w < 0 || (size_t)w >= n ? -1 : 0;
}

int qr_fonts_cache_read(const char *path, void **blob, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    void *data = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(qr_fblob_head) ||
        st.st_size > (off_t)64 * 1024 * 1024 || !(data = malloc((size_t)st.st_size))) {
        close(fd);
        return -1;
    }
    size_t len = (size_t)st.st_size, got = 0;
    while (got < len) {
        ssize_t r = read(fd, (char *)data + got, len - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    const qr_fblob_head *h = data;
    if (got != len || qr_fonts_table_check(data, len) != 0 || h->key_len == 0 ||
        !qr_fonts_cache_key_holds((const char *)data + h->key, h->key_len)) {
        free(data);
        return -1;
    }
    *blob = data;
    *size = len;
    return 0;
}

static void make_dirs(const char *path)
{
    char dir[PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof dir) return;
    memcpy(dir, path, n + 1);
    for (char *s = dir + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        mkdir(dir, 0700); /* EEXIST is fine; any other failure shows at open */
        *s = '/';
    }
}

/* Write head then body to path through a temporary file and a rename,
 * fsync'd first when sync is set; a failure leaves no file. */
static void write_atomic(const char *path, const void *head, size_t head_len, const void *body,
                         size_t body_len, int sync)
{
    char tmp[PATH_MAX];
    int w = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (w < 0 || (size_t)w >= sizeof tmp) return;
    make_dirs(path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return;
    int ok = 1;
    for (int part = 0; part < 2 && ok; part++) {
        const char *p = part ? body : head;
        size_t size = part ? body_len : head_len, done = 0;
        while (done < size) {
            ssize_t r = write(fd, p + done, size - done);
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;
            done += (size_t)r;
        }
        ok = done == size;
    }
    if (sync) ok = ok && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
}

void qr_fonts_cache_write(const char *path, const void *blob, size_t size)
{
    /* fsync before rename: after a crash the file is whole or absent (rare:
     * only when the fonts change) */
    write_atomic(path, NULL, 0, blob, size, 1);
}

/* ---- side files: other answers under the same key ------------------------------------ */

/* A side file is "quire-side NAME V\n", the key's length and "\n", the key,
 * then the body, whatever its owner puts there. */
#define SIDE_VERSION 1

static int side_path(const qr_fonts *f, const char *name, char *out, size_t n)
{
    if (!f || !f->cache_path) return -1;
    int w = snprintf(out, n, "%s.%s", f->cache_path, name);
    return w < 0 || (size_t)w >= n ? -1 : 0;
}

int qr_fonts_side_read(const qr_fonts *f, const char *name, char **body, size_t *len)
{
    char path[PATH_MAX];
    *body = NULL;
    *len = 0;
    if (side_path(f, name, path, sizeof path) != 0) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    char *data = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)16 * 1024 * 1024 ||
        !(data = malloc((size_t)st.st_size + 1))) {
        close(fd);
        return -1;
    }
    size_t size = (size_t)st.st_size, got = 0;
    while (got < size) {
        ssize_t r = read(fd, data + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    data[got] = '\0';
    char head[128];
    int hn = snprintf(head, sizeof head, "quire-side %s %d\n", name, SIDE_VERSION);
    char *end = NULL;
    unsigned long long key_len = 0;
    int ok = got == size && hn > 0 && (size_t)hn < sizeof head && size > (size_t)hn &&
             memcmp(data, head, (size_t)hn) == 0;
    if (ok) {
        errno = 0;
        key_len = strtoull(data + hn, &end, 10);
        ok = errno == 0 && end != data + hn && *end == '\n' &&
             key_len <= size - (size_t)(end + 1 - data);
    }
    if (ok) ok = qr_fonts_cache_key_holds(end + 1, (size_t)key_len);
    if (!ok) {
        free(data);
        return -1;
    }
    size_t at = (size_t)(end + 1 - data) + (size_t)key_len;
    memmove(data, data + at, size - at + 1);
    *body = data;
    *len = size - at;
    return 0;
}

void qr_fonts_side_write(const qr_fonts *f, const char *name, struct _FcConfig *cfg,
                         const void *body, size_t len)
{
    char path[PATH_MAX];
    if (side_path(f, name, path, sizeof path) != 0) return;
    qr_buf key = {0}, head = {0};
    if (qr_fonts_cache_key(cfg, &key) == 0) {
        qr_buf_printf(&head, "quire-side %s %d\n%zu\n", name, SIDE_VERSION, key.len);
        qr_buf_append(&head, key.data, key.len);
        if (!head.oom) write_atomic(path, head.data, head.len, body, len, 0);
    }
    qr_buf_free(&key);
    qr_buf_free(&head);
}
