/* atomic.h: the one way quire writes a file so that it is either whole or
 * absent, used by renders (render/render.c), the CLI's -o outputs and the
 * folder store (store/).
 *
 *     qr_atomic a;
 *     if (qr_atomic_begin_path(&a, "out/report.docx", QR_SYNC_ALL) != 0) fail(errno);
 *     if (qr_atomic_write(&a, data, len) != 0) { qr_atomic_abort(&a); fail(errno); }
 *     if (qr_atomic_commit(&a) != 0) fail(errno);   // no temp file left either way
 *
 * The bytes go to a file in the target's own folder, so that naming it is
 * one rename. Where the kernel has O_TMPFILE and /proc is mounted the file
 * is unnamed until it is complete: a writer killed by any signal leaves
 * nothing behind. Elsewhere it is a named temp file, ".tmp.<name>.XXXXXX"
 * (six random hex digits), removed on every failure; the folder
 * store's fsck treats a ".tmp." name left by a killed writer as stray.
 * Committing: fsync the file (QR_SYNC_FILE), give it the temp name if it
 * had none (linkat through /proc/self/fd), rename it over the target, fsync
 * the folder (QR_SYNC_DIR). Files are created 0644 less the umask.
 * Every function returns 0, or -1 with errno set. Thread-safe (no state
 * shared between calls but a once-probed "is /proc there").
 */
#ifndef QR_ATOMIC_H
#define QR_ATOMIC_H

#include <stddef.h>

/* What a commit makes durable. */
#define QR_SYNC_FILE 1 /* fsync the file before it is named */
#define QR_SYNC_DIR 2  /* fsync the folder after the rename (the name itself) */
#define QR_SYNC_ALL (QR_SYNC_FILE | QR_SYNC_DIR)

typedef struct qr_atomic {
    int dirfd;      /* the target's folder */
    int own_dir;    /* 1: dirfd was opened by qr_atomic_begin_path, closed at the end */
    int fd;         /* the file being written; -1 once committed or aborted */
    int sync;       /* QR_SYNC_* */
    int named;      /* 1: tmp names the file on disk; 0: unnamed (O_TMPFILE) */
    char name[256]; /* the target's name in dirfd */
    char tmp[272];  /* the temp name (when named): at most 255 bytes, as any name */
} qr_atomic;

/** Start writing dirfd/name (dirfd may be AT_FDCWD; name has no '/'). */
int qr_atomic_begin(qr_atomic *a, int dirfd, const char *name, int sync);
/** Start writing path: its folder is opened here ("." for a bare name).
 *  errno ENAMETOOLONG for a name too long to give a temp name. */
int qr_atomic_begin_path(qr_atomic *a, const char *path, int sync);
/** Append bytes (restarting on EINTR). On failure the caller aborts. */
int qr_atomic_write(qr_atomic *a, const void *data, size_t len);
/** Sync and name the file. On failure it is removed (and a is done). */
int qr_atomic_commit(qr_atomic *a);
/** Drop the file: nothing stays on disk. A no-op after commit or abort. */
void qr_atomic_abort(qr_atomic *a);

/** begin, write, commit in one: dirfd/name holds exactly data, or is unchanged. */
int qr_atomic_write_file(int dirfd, const char *name, const void *data, size_t len, int sync);
/** The same for a path, with QR_SYNC_ALL. */
int qr_atomic_write_path(const char *path, const void *data, size_t len);

/** 16 random hex digits and a NUL (getrandom, /dev/urandom, or pid, clock
 *  and address when neither answers): temp names, new ids. */
void qr_random_hex(char out[17]);

#endif
