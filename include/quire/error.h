/* quire/error.h: status codes and the error list every module reports into.
 *
 * A qr_status is a flat code. A qr_error carries the JSON pointer of the spec
 * value at fault, a message and an optional hint. A qr_errlist collects every
 * error of one operation: the compiler reports all spec errors, not the first.
 *
 * The library never prints. The CLI prints "path: message (hint)".
 */
#ifndef QR_ERROR_H
#define QR_ERROR_H

#include <stddef.h>

#include <quire/export.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keep this enum and the table in error.c in step (static-asserted there).
 * The exit code of the CLI is derived from the group: see qr_status_exit(). */
typedef enum qr_status {
    QR_OK = 0,
    /* spec errors: exit 1 */
    QR_E_SPEC, /* the spec is invalid (the list says why) */
    QR_E_JSON, /* JSON syntax error */
    QR_E_UTF8, /* invalid UTF-8 in the input */
    QR_E_EDIT, /* an edit (patch, append, ops) cannot be applied */
    /* usage errors: exit 2 */
    QR_E_USAGE,       /* bad arguments to a command or function */
    QR_E_UNSUPPORTED, /* the backend for this format is not built */
    /* I/O and render failures: exit 3 */
    QR_E_IO,     /* reading or writing a file failed */
    QR_E_RENDER, /* a backend failed */
    QR_E_NOMEM,  /* out of memory */
    QR_E_STORE,  /* the store is damaged or an artifact is missing */
    /* limits and quotas: exit 4 */
    QR_E_LIMIT, /* an input or output limit was exceeded */
    QR_E_QUOTA, /* an owner quota was exceeded */
    /* the store's answers a caller branches on (after the groups above, so
     * their numbers stay as they were) */
    QR_E_NOT_FOUND,   /* no such artifact or version: exit 5 */
    QR_E_CONFLICT,    /* the id exists, or the head is not the expected version: exit 6 */
    QR_E_UNAVAILABLE, /* the database cannot be reached or the connection was lost:
                         retryable: exit 7 */
    QR_STATUS_COUNT
} qr_status;

/** The constant name-like description of a status ("spec error"). Never NULL. */
QR_EXPORT const char *qr_status_str(qr_status s);

/** The stable code of a status, for programs to branch on (the CLI's JSON
 *  "code", the binding's exception classes). One of a small set that does
 *  not grow with the statuses:
 *      code          statuses                         exit  retry?
 *      "ok"          QR_OK                            0
 *      "invalid"     QR_E_SPEC, _JSON, _UTF8, _EDIT   1     no: fix the request
 *      "usage"       QR_E_USAGE, _UNSUPPORTED         2     no
 *      "failed"      QR_E_IO, _RENDER, _NOMEM         3     no (a local file, a render)
 *      "damaged"     QR_E_STORE                       3     no: run fsck
 *      "limit"       QR_E_LIMIT                       4     no
 *      "quota"       QR_E_QUOTA                       4     after freeing space
 *      "not_found"   QR_E_NOT_FOUND                   5     no
 *      "conflict"    QR_E_CONFLICT                    6     after reading the head
 *      "unavailable" QR_E_UNAVAILABLE                 7     yes (after a lost commit: check
 *                                                             the log first)
 *  Never NULL. */
QR_EXPORT const char *qr_status_code(qr_status s);

/** The CLI exit code of a status: the table above. */
QR_EXPORT int qr_status_exit(qr_status s);

/** 1 when repeating the call may succeed unchanged (unavailable). */
QR_EXPORT int qr_status_retryable(qr_status s);

/** One error. All strings are owned by the list that holds the error. */
typedef struct qr_error {
    qr_status code;
    char *path;    /* JSON pointer, "" for the whole spec, e.g. "/blocks/3/level" */
    char *message; /* "expected an integer from 1 to 6, got 9" */
    char *hint;    /* "use 1 for a top-level heading", or NULL */
} qr_error;

/** A growable list of errors (and, with the same shape, warnings). */
typedef struct qr_errlist {
    qr_error *items;
    size_t count;
    size_t cap;
    int oom; /* set when an error could not be recorded for lack of memory */
} qr_errlist;

/** Append an error; path, message and hint are copied (hint may be NULL).
 *  Returns code, so callers can write `return qr_errlist_add(...)`. */
QR_EXPORT qr_status qr_errlist_add(qr_errlist *l, qr_status code, const char *path,
                                   const char *message, const char *hint);

/** Like qr_errlist_add with a printf-style message. */
QR_EXPORT qr_status qr_errlist_addf(qr_errlist *l, qr_status code, const char *path,
                                    const char *hint, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/** Move every item of src to the end of dst; src is left empty. */
QR_EXPORT void qr_errlist_move(qr_errlist *dst, qr_errlist *src);

/** Free every item and the array; the list is left empty and reusable. */
QR_EXPORT void qr_errlist_clear(qr_errlist *l);

#ifdef __cplusplus
}
#endif
#endif
