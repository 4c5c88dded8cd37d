/* buf.h: a growable byte buffer and the output sink every backend writes to.
 *
 * qr_buf is a plain heap buffer (always NUL-terminated after data[len]).
 * qr_sink follows cairo's output stream: a write callback, a sticky status
 * (the first failure wins and later writes are dropped) and a byte count.
 */
#ifndef QR_BUF_H
#define QR_BUF_H

#include <stddef.h>

#include <quire/error.h>

#include "fail.h"

typedef struct qr_buf {
    char *data;
    size_t len, cap;
    int oom; /* sticky: an append failed */
} qr_buf;

/** Append n bytes. Returns 0, or -1 (and sets oom) when memory runs out. */
int qr_buf_append(qr_buf *b, const void *data, size_t n);
int qr_buf_puts(qr_buf *b, const char *s);
int qr_buf_putc(qr_buf *b, char c);
int qr_buf_printf(qr_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** Make room for n more bytes; returns a pointer to write them, or NULL. */
char *qr_buf_reserve(qr_buf *b, size_t n);
/** Hand the data to the caller (who frees it with free()); the buffer is left empty. */
char *qr_buf_steal(qr_buf *b, size_t *len);
void qr_buf_free(qr_buf *b);

/* JSON strings, the one escaper of canonical JSON, the readers' JSON and the
 * CLI's result line: '"', '\\' and the C0 controls are escaped (\b \f \n
 * \r \t short, the others \u00xx with lower-case hex), every other byte is
 * copied. QR_JSON_SANITIZE, for text from outside (a file name in a
 * message), also escapes DEL as \u007f and replaces each byte that does not
 * start valid UTF-8 with U+FFFD, so the line is always valid JSON. */
#define QR_JSON_SANITIZE 1
/** Append s[0..n) quoted. */
void qr_buf_json_str(qr_buf *b, const char *s, size_t n, int flags);
/** The same without the quotes (to build a string of pieces). */
void qr_buf_json_chars(qr_buf *b, const char *s, size_t n, int flags);

/** Where a backend's bytes go. */
typedef struct qr_sink {
    /* Write n bytes; return QR_OK or a failure status. */
    qr_status (*write)(void *closure, const void *data, size_t n);
    void *closure;
    qr_status status; /* sticky */
    size_t bytes;     /* bytes written so far */
    size_t limit;     /* output limit in bytes, 0 = none (QR_E_LIMIT past it) */
} qr_sink;

/** Write to the sink unless it has already failed. Returns the sticky status. */
qr_status qr_sink_write(qr_sink *s, const void *data, size_t n);

/** A sink that appends to a qr_buf. */
void qr_sink_init_buf(qr_sink *s, qr_buf *b);

#endif
