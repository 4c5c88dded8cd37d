/* utf8.h: decoding one UTF-8 sequence, strictly, and encoding one code
 * point, for every module that walks or writes text. */
#ifndef QR_UTF8_H
#define QR_UTF8_H

#include <stddef.h>
#include <stdint.h>

/** The length (1-4) of the valid UTF-8 sequence at s (n > 0 bytes left) and
 *  its code point in *cp; 0 when the bytes are not valid UTF-8 (overlong
 *  forms, surrogates, values past U+10FFFF, truncated sequences). */
size_t qr_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/** Write cp (at most U+10FFFF, not a surrogate) as UTF-8 into out; returns
 *  its length (1-4). */
size_t qr_utf8_encode(uint32_t cp, char out[4]);

#endif
