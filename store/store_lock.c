/* store_lock.c: the folder store's file primitives: flock locks and
 * whole-file reads, relative to folder descriptors (atomic writes are
 * core/atomic.c's, shared with renders). */
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
    /* O_CREAT only when the file is missing: an open with it locks the
     * folder for the look-up, a wait for every writer using the folder */
    int fd = openat(dirfd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT)
        fd = openat(dirfd, name, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
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

int qr_store_sync_dir(int dirfd)
{
    return fsync(dirfd);
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
