/* casefold.h: simple Unicode case folding, for names compared ignoring case
 * the way Excel compares sheet names ("É" and "é" are the same sheet). */
#ifndef QR_CASEFOLD_H
#define QR_CASEFOLD_H

#include <stddef.h>
#include <stdint.h>

/** The lowercase of cp for the cased scripts (Latin, Greek, Coptic,
 *  Cyrillic, Armenian, Georgian, Glagolitic, Deseret, fullwidth Latin,
 *  Roman numerals, circled letters); cp itself otherwise. */
uint32_t qr_casefold(uint32_t cp);

/** s (n bytes of valid UTF-8) folded with qr_casefold into a new NUL-ended
 *  string (malloc), or NULL on OOM. Bytes that are not valid UTF-8 are
 *  copied as they are. */
char *qr_casefold_utf8(const char *s, size_t n);

#endif
