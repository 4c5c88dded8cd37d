/* json_out.h: writing the CLI's one-line JSON results (no parsing here). */
#ifndef QR_JSON_OUT_H
#define QR_JSON_OUT_H

#include <stddef.h>

#include "buf.h"
#include <quire/error.h>
#include <quire/quire.h>

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
/** Append the layout report as a JSON array of {"kind", "path", "slide" or
 *  "page" (when known), "value", "detail"}, at most cap items and no more
 *  once past budget bytes. Returns how many were left out. */
size_t qr_json_layout(qr_buf *b, const qr_layout_list *l, size_t cap, size_t budget);
/** --read-timeout (a global option, or QUIRE_READ_TIMEOUT): the seconds
 *  every input read whole (qr_cli_read, render's streamed spec) may take to
 *  arrive; 0 (the default): no limit. */
void qr_cli_set_read_timeout(int seconds);
int qr_cli_read_timeout(void);
/** Read a whole file ("-" = stdin, refused when it is a terminal) into
 *  memory, at most max bytes (0: the default max_input, 64 MiB: an endless
 *  input such as /dev/zero must stop). Returns the bytes (caller
 *  frees; NUL-terminated), or NULL with *err (QR_E_USAGE, QR_E_IO or
 *  QR_E_LIMIT) and a message in msg. */
char *qr_cli_read(const char *path, size_t max, size_t *len, qr_status *err, char *msg,
                  size_t msgsz);

/** The store folder the store commands use (absolute when it could be
 *  resolved): errors of the store (QR_E_STORE) name it in the result. */
void qr_cli_set_store(const char *dir);
/** The CLI's wording of a library hint: the library speaks of its API
 *  ("raise qr_limits.max_input", "qr_store_log() lists the versions"), the
 *  CLI of its commands and options ("--max-input BYTES", "quire log ID").
 *  Returns hint itself or buf. */
const char *qr_cli_hint(const char *hint, char *buf, size_t size);
/** The CLI's hint of an error: its own (as qr_cli_hint words it), or one
 *  from its status when the library gave none: every error has a hint
 *  (a warning keeps none when it had none: NULL). */
const char *qr_cli_error_hint(const qr_error *e, char *buf, size_t size);
/** The CLI's message of an error: a store error names the store folder.
 *  Returns e->message or buf. */
const char *qr_cli_message(const qr_error *e, char *buf, size_t size);

/** Open a failure's result line: {"status":"error","code":"<qr_status_code>",
 *  ("retryable":true,) "error": (the caller writes the message next). */
void qr_json_error_head(qr_buf *b, qr_status st);

/* At most this many errors (or warnings) go into a result line, within this
 * many bytes of their text: the line stays readable in a 50,000-character
 * tool output. */
#define QR_CLI_MAX_ERRORS 20
#define QR_CLI_RESULT_BUDGET 3300

/** Print a failure the one way every command does: the result line
 *  {"status":"error","code":...,"error":head,"errors":[...]} on stdout (head
 *  NULL: the first error's message), then each error with its CLI hint on
 *  stderr. Returns the exit code of st. */
int qr_cli_fail(qr_status st, const char *head, const qr_errlist *errs);

/** Print the buffer and a newline to stdout, flush. */
void qr_json_print(qr_buf *b);

/** Record a failed write to stdout (errno e; the first one is kept). */
void qr_cli_stdout_error(int e);
/** The errno of the first failed write to stdout (or EIO when stdout's
 *  error flag is set), 0 when every write went through: main exits 3. */
int qr_cli_stdout_failed(void);

#endif
