/* store_lock.c: the folder store's file primitives: flock locks, atomic
 * writes (temp, fsync, rename, fsync the folder) and whole-file reads, all
 * relative to folder descriptors. */
#include "store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int qr_store_lock(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -1;
    while (flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR) continue;
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

void qr_store_unlock(int fd)
{
    if (fd >= 0) close(fd); /* closing the last descriptor releases the flock */
}

void qr_store_random_hex(char out[17])
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

int qr_store_sync_dir(int dirfd)
{
    return fsync(dirfd);
}

int qr_store_write_atomic(int dirfd, const char *name, const void *data, size_t len, int sync)
{
    char tmp[256], rnd[17];
    qr_store_random_hex(rnd);
    if (snprintf(tmp, sizeof tmp, ".tmp.%s.%s", name, rnd) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -1;
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR) continue;
            goto fail;
        }
        p += w;
        left -= (size_t)w;
    }
    if ((sync & QR_SYNC_FILE) && fsync(fd) != 0) goto fail;
    if (close(fd) != 0) {
        fd = -1;
        goto fail;
    }
    fd = -1;
    if (renameat(dirfd, tmp, dirfd, name) != 0) goto fail;
    if (sync & QR_SYNC_DIR) fsync(dirfd);
    return 0;
fail : {
    int e = errno;
    if (fd >= 0) close(fd);
    unlinkat(dirfd, tmp, 0);
    errno = e;
    return -1;
}
}

int qr_store_read_file(int dirfd, const char *name, qr_buf *out)
{
    return qr_store_read_file_max(dirfd, name, out, 0);
}

const char *qr_store_read_error(int err)
{
    if (err == EINVAL) return "not a regular file";
    if (err == EFBIG) return "larger than the version limit";
    if (err == ELOOP) return "a symbolic link, not a regular file";
    return strerror(err);
}

int qr_store_read_file_max(int dirfd, const char *name, qr_buf *out, unsigned long long max)
{
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (max && (unsigned long long)st.st_size > max)) {
        int e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : EFBIG;
        close(fd);
        errno = e;
        return -1;
    }
    size_t start = out->len;
    if (st.st_size > 0) {
        if (!qr_buf_reserve(out, (size_t)st.st_size)) {
            close(fd);
            errno = ENOMEM;
            return -1;
        }
    }
    for (;;) {
        char *dst = qr_buf_reserve(out, 65536);
        if (!dst) {
            close(fd);
            errno = ENOMEM;
            return -1;
        }
        ssize_t r = read(fd, dst, 65536);
        if (r < 0) {
            if (errno == EINTR) continue;
            int e = errno;
            close(fd);
            errno = e;
            return -1;
        }
        if (max && (unsigned long long)(out->len - start) + (unsigned long long)r > max) {
            close(fd);
            out->len = start;
            out->data[start] = '\0';
            errno = EFBIG;
            return -1;
        }
        if (r == 0) break;
        out->len += (size_t)r;
        out->data[out->len] = '\0';
    }
    close(fd);
    if (!out->data) qr_buf_puts(out, ""); /* an empty file still gives a string */
    return 0;
}
