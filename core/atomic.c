/* atomic.c: whole-or-absent file writes (atomic.h): a temp file in the
 * target's folder (unnamed with O_TMPFILE where it works), fsync, rename,
 * fsync of the folder; and the random hex of temp names. */
#define _GNU_SOURCE /* O_TMPFILE */
#include "atomic.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

void qr_random_hex(char out[17])
{
    static const char hx[] = "0123456789abcdef";
    unsigned char r[8];
    int ok = getrandom(r, sizeof r, 0) == (ssize_t)sizeof r;
    if (!ok) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ok = read(fd, r, sizeof r) == (ssize_t)sizeof r;
            close(fd);
        }
    }
    if (!ok) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t x = (uint64_t)getpid() * 0x9e3779b97f4a7c15u ^ (uint64_t)ts.tv_nsec ^
                     ((uint64_t)ts.tv_sec << 32) ^ (uint64_t)(uintptr_t)out;
        for (int i = 0; i < 8; i++, x >>= 8)
            r[i] = (unsigned char)x;
    }
    for (int i = 0; i < 8; i++) {
        out[2 * i] = hx[r[i] >> 4];
        out[2 * i + 1] = hx[r[i] & 15];
    }
    out[16] = '\0';
}

/* A fresh temp name for a->name in a->tmp. */
static void pick_tmp(qr_atomic *a)
{
    char rnd[17];
    qr_random_hex(rnd);
    snprintf(a->tmp, sizeof a->tmp, ".tmp.%s.%.6s", a->name, rnd);
}

/* Whether an O_TMPFILE file can be named later: /proc/self/fd is there
 * (probed once; 0 unknown, 1 yes, 2 no). */
static int can_link_unnamed(void)
{
    static atomic_int probed;
    int v = atomic_load(&probed);
    if (!v) {
        v = access("/proc/self/fd", X_OK) == 0 ? 1 : 2;
        atomic_store(&probed, v);
    }
    return v == 1;
}

/* Close the folder if it is ours. Keeps errno. */
static void done(qr_atomic *a)
{
    int e = errno;
    if (a->own_dir && a->dirfd >= 0) close(a->dirfd);
    a->own_dir = 0;
    a->dirfd = -1;
    errno = e;
}

int qr_atomic_begin(qr_atomic *a, int dirfd, const char *name, int sync)
{
    a->dirfd = dirfd;
    a->own_dir = 0;
    a->fd = -1;
    a->sync = sync;
    a->named = 0;
    a->tmp[0] = '\0';
    size_t n = strlen(name);
    if (n == 0 || strchr(name, '/')) {
        errno = EINVAL;
        return -1;
    }
    if (n + sizeof ".tmp..XXXXXX" > sizeof a->name) { /* the temp name is a name too */
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(a->name, name, n + 1);
#ifdef O_TMPFILE
    if (can_link_unnamed()) {
        a->fd = openat(dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        if (a->fd >= 0) return 0;
        if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return -1;
    }
#endif
    for (int tries = 0; tries < 100; tries++) {
        pick_tmp(a);
        a->fd = openat(dirfd, a->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (a->fd >= 0) {
            a->named = 1;
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    return -1;
}

int qr_atomic_begin_path(qr_atomic *a, const char *path, int sync)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else if ((size_t)(slash - path) >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    } else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
    int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) return -1;
    if (qr_atomic_begin(a, dirfd, slash ? slash + 1 : path, sync) != 0) {
        int e = errno;
        close(dirfd);
        errno = e;
        return -1;
    }
    a->own_dir = 1;
    return 0;
}

int qr_atomic_write(qr_atomic *a, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t w = write(a->fd, p, len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Give the unnamed file a temp name in its folder, as mkstemp would pick one. */
static int name_unnamed(qr_atomic *a)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", a->fd);
    for (int tries = 0; tries < 100; tries++) {
        pick_tmp(a);
        if (linkat(AT_FDCWD, proc, a->dirfd, a->tmp, AT_SYMLINK_FOLLOW) == 0) {
            a->named = 1;
            return 0;
        }
        if (errno != EEXIST) return -1;
    }
    return -1;
}

int qr_atomic_commit(qr_atomic *a)
{
    if (a->fd < 0) {
        done(a);
        errno = EBADF;
        return -1;
    }
    int ok = !(a->sync & QR_SYNC_FILE) || fsync(a->fd) == 0;
    if (ok && !a->named) ok = name_unnamed(a) == 0;
    int e = ok ? 0 : errno;
    if (close(a->fd) != 0 && ok) ok = 0, e = errno;
    a->fd = -1;
    if (ok && renameat(a->dirfd, a->tmp, a->dirfd, a->name) != 0) ok = 0, e = errno;
    if (!ok && a->named) unlinkat(a->dirfd, a->tmp, 0);
    if (ok && (a->sync & QR_SYNC_DIR)) fsync(a->dirfd);
    a->named = 0;
    done(a);
    errno = e;
    return ok ? 0 : -1;
}

void qr_atomic_abort(qr_atomic *a)
{
    int e = errno;
    if (a->fd >= 0) close(a->fd);
    a->fd = -1;
    if (a->named) unlinkat(a->dirfd, a->tmp, 0);
    a->named = 0;
    done(a);
    errno = e;
}

int qr_atomic_write_file(int dirfd, const char *name, const void *data, size_t len, int sync)
{
    qr_atomic a;
    if (qr_atomic_begin(&a, dirfd, name, sync) != 0) return -1;
    if (qr_atomic_write(&a, data, len) != 0) {
        qr_atomic_abort(&a);
        return -1;
    }
    return qr_atomic_commit(&a);
}

int qr_atomic_write_path(const char *path, const void *data, size_t len)
{
    qr_atomic a;
    if (qr_atomic_begin_path(&a, path, QR_SYNC_ALL) != 0) return -1;
    if (qr_atomic_write(&a, data, len) != 0) {
        qr_atomic_abort(&a);
        return -1;
    }
    return qr_atomic_commit(&a);
}
