/* store_int.h: file helpers of the folder store (store_lock.c), shared by
 * store.c and its tests. Every name is relative to a folder descriptor, so
 * no path is built outside the store. Never installed. */
#ifndef QR_STORE_INT_H
#define QR_STORE_INT_H

#include <stddef.h>

#include "atomic.h"
#include "buf.h"

/** Open (creating) dirfd/name and take an exclusive flock on it; blocks.
 *  Returns the descriptor that holds the lock, or -1 (errno set). */
int qr_store_lock(int dirfd, const char *name);
/** Release a lock taken with qr_store_lock (closes fd; -1 is ignored). */
void qr_store_unlock(int fd);

/* Atomic writes: qr_atomic_write_file(dirfd, name, data, len, QR_SYNC_*)
 * (core/atomic.h; a killed writer's ".tmp.*" file is stray for fsck). */

/** Append the whole of dirfd/name to out. Returns 0, or -1 (errno set). */
int qr_store_read_file(int dirfd, const char *name, qr_buf *out);
/** The same, refusing what is not a regular file (opened O_NONBLOCK |
 *  O_NOFOLLOW, so a FIFO or a device never blocks: errno EINVAL; a
 *  symlink: ELOOP) and a file over max bytes (errno EFBIG; 0: no cap). */
int qr_store_read_file_max(int dirfd, const char *name, qr_buf *out, unsigned long long max);
/** strerror for the errors above ("not a regular file", "larger than the
 *  version limit", "a symbolic link"). */
const char *qr_store_read_error(int err);

/** fsync a folder descriptor. */
int qr_store_sync_dir(int dirfd);

#endif
