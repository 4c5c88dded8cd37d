/* error.c: status names, exit codes and the error list. */
#include <quire/error.h>

#include "fail.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[] = {
    [QR_OK] = "ok",
    [QR_E_SPEC] = "spec error",
    [QR_E_JSON] = "JSON syntax error",
    [QR_E_UTF8] = "invalid UTF-8",
    [QR_E_EDIT] = "edit error",
    [QR_E_USAGE] = "usage error",
    [QR_E_UNSUPPORTED] = "unsupported",
    [QR_E_IO] = "I/O error",
    [QR_E_RENDER] = "render error",
    [QR_E_NOMEM] = "out of memory",
    [QR_E_STORE] = "store error",
    [QR_E_LIMIT] = "limit exceeded",
    [QR_E_QUOTA] = "quota exceeded",
    [QR_E_NOT_FOUND] = "not found",
    [QR_E_CONFLICT] = "conflict",
    [QR_E_UNAVAILABLE] = "store unavailable",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == QR_STATUS_COUNT,
               "status_names must name every qr_status");

const char *qr_status_str(qr_status s)
{
    if ((unsigned)s >= QR_STATUS_COUNT) return "unknown status";
    return status_names[s];
}

const char *qr_status_code(qr_status s)
{
    switch (s) {
    case QR_OK:
        return "ok";
    case QR_E_SPEC:
    case QR_E_JSON:
    case QR_E_UTF8:
    case QR_E_EDIT:
        return "invalid";
    case QR_E_USAGE:
    case QR_E_UNSUPPORTED:
        return "usage";
    case QR_E_IO:
    case QR_E_RENDER:
    case QR_E_NOMEM:
    case QR_STATUS_COUNT:
        break;
    case QR_E_STORE:
        return "damaged";
    case QR_E_LIMIT:
        return "limit";
    case QR_E_QUOTA:
        return "quota";
    case QR_E_NOT_FOUND:
        return "not_found";
    case QR_E_CONFLICT:
        return "conflict";
    case QR_E_UNAVAILABLE:
        return "unavailable";
    }
    return "failed";
}

int qr_status_exit(qr_status s)
{
    switch (s) {
    case QR_OK:
        return 0;
    case QR_E_SPEC:
    case QR_E_JSON:
    case QR_E_UTF8:
    case QR_E_EDIT:
        return 1;
    case QR_E_USAGE:
    case QR_E_UNSUPPORTED:
        return 2;
    case QR_E_IO:
    case QR_E_RENDER:
    case QR_E_NOMEM:
    case QR_E_STORE:
        return 3;
    case QR_E_LIMIT:
    case QR_E_QUOTA:
        return 4;
    case QR_E_NOT_FOUND:
        return 5;
    case QR_E_CONFLICT:
        return 6;
    case QR_E_UNAVAILABLE:
        return 7;
    case QR_STATUS_COUNT:
        break;
    }
    return 3;
}

int qr_status_retryable(qr_status s)
{
    return s == QR_E_UNAVAILABLE;
}

qr_status qr_fail(qr_status s)
{
    return s; /* set a breakpoint here */
}

static char *dup_or_null(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

qr_status qr_errlist_add(qr_errlist *l, qr_status code, const char *path, const char *message,
                         const char *hint)
{
    qr_fail(code);
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        qr_error *items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            l->oom = 1;
            return code;
        }
        l->items = items;
        l->cap = cap;
    }
    qr_error *e = &l->items[l->count];
    e->code = code;
    e->path = dup_or_null(path ? path : "");
    e->message = dup_or_null(message ? message : "");
    e->hint = dup_or_null(hint);
    if (!e->path || !e->message || (hint && !e->hint)) {
        free(e->path);
        free(e->message);
        free(e->hint);
        l->oom = 1;
        return code;
    }
    l->count++;
    return code;
}

qr_status qr_errlist_addf(qr_errlist *l, qr_status code, const char *path, const char *hint,
                          const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return qr_errlist_add(l, code, path, buf, hint);
}

void qr_errlist_move(qr_errlist *dst, qr_errlist *src)
{
    for (size_t i = 0; i < src->count; i++) {
        qr_error *e = &src->items[i];
        qr_errlist_add(dst, e->code, e->path, e->message, e->hint);
    }
    dst->oom |= src->oom;
    qr_errlist_clear(src);
}

void qr_errlist_clear(qr_errlist *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].path);
        free(l->items[i].message);
        free(l->items[i].hint);
    }
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
    l->oom = 0;
}
