/* json_out.h: writing the CLI's one-line JSON results (no parsing here). */
#ifndef QR_JSON_OUT_H
#define QR_JSON_OUT_H

#include <stddef.h>

#include "buf.h"
#include "error.h"

/** Append s as a JSON string literal (quoted, escaped; invalid UTF-8 bytes become U+FFFD). */
void qr_json_str(qr_buf *b, const char *s);
/** The same for n bytes of s (s need not be NUL-terminated). */
void qr_json_strn(qr_buf *b, const char *s, size_t n);
/** Append at most max bytes of s as a JSON string, cut at a UTF-8 boundary with "..." added. */
void qr_json_str_max(qr_buf *b, const char *s, size_t max);
/** Append an error list as a JSON array of {path,message,hint}: at most cap
 *  items, and no more once the array has grown past budget bytes (long
 *  strings are cut), so a result line stays small. Returns how many were
 *  left out. */
size_t qr_json_errors(qr_buf *b, const qr_errlist *l, size_t cap, size_t budget);
/** Read a whole file ("-" = stdin, refused when it is a terminal) into
 *  memory, at most max bytes (0: the default max_input, 64 MiB: an endless
 *  input such as /dev/zero must stop). Returns the bytes (caller
 *  frees; NUL-terminated), or NULL with *err (QR_E_USAGE, QR_E_IO or
 *  QR_E_LIMIT) and a message in msg. */
char *qr_cli_read(const char *path, size_t max, size_t *len, qr_status *err, char *msg,
                  size_t msgsz);

/** Print the buffer and a newline to stdout, flush. */
void qr_json_print(qr_buf *b);

#endif
