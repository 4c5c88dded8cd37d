/* location.h: what a store location names (a folder or a PostgreSQL
 * database) and the secrets it holds, so that no password is ever taken for
 * a folder name or shown in a message. Shared by the store backends and the
 * CLI; no libpq needed (the CLI opens libpq only for a database). */
#ifndef QR_STORE_LOCATION_H
#define QR_STORE_LOCATION_H

#include <stddef.h>

/** 1 when location names a PostgreSQL database and must never be taken for
 *  a folder: a URI starting "postgresql:" or "postgres:" in any case (with
 *  or without "//": libpq refuses the latter, as a usage error), a libpq
 *  keyword string whose first word is a libpq keyword and "="
 *  ("host=db dbname=quire"), or any location that holds a password setting
 *  ("...password=..."). A folder whose name starts "host=" is "./host=...". */
int qr_store_loc_is_db(const char *location);

/** in with every secret location holds replaced by "***", into out (size n,
 *  always terminated; a longer text is cut): the password of a URI's
 *  user:password@, the value of every setting whose name holds "pass" or
 *  "pwd" (password=, sslpassword=; URI query or keyword string, quoted or
 *  not), each as written, unquoted and percent-decoded. location NULL or a
 *  folder: in is copied. Scrubbing location itself gives the form to show. */
void qr_store_loc_scrub(const char *location, const char *in, char *out, size_t n);

#endif
