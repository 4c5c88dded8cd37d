/* sha256.h: SHA-256 (FIPS 180-4), for the store's content addresses.
 *
 *     char hex[65];
 *     qr_sha256_hex(data, len, hex);   // "e3b0c442..." for len 0
 *
 * Streaming use: qr_sha256_init, qr_sha256_update (any number of times),
 * qr_sha256_final. No allocation; the only global is the choice of
 * compression code (qr_sha256_accel).
 */
#ifndef QR_SHA256_H
#define QR_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct qr_sha256 {
    uint32_t h[8];
    uint64_t bytes;          /* message length so far */
    unsigned char block[64]; /* pending partial block */
    size_t fill;             /* bytes in block */
} qr_sha256;

void qr_sha256_init(qr_sha256 *c);
void qr_sha256_update(qr_sha256 *c, const void *data, size_t len);
/** Write the 32-byte digest; the context must be re-initialised to reuse it. */
void qr_sha256_final(qr_sha256 *c, unsigned char out[32]);
/** The digest of data as 64 lowercase hex digits plus a NUL. */
void qr_sha256_hex(const void *data, size_t len, char out[65]);
/** 32 digest bytes as 64 lowercase hex digits plus a NUL. */
void qr_sha256_tohex(const unsigned char digest[32], char out[65]);
/** The compression runs on the CPU's SHA extensions (x86 SHA-NI, ~5x the
 *  portable C) when it has them. on = 0 forces the portable code, 1 asks
 *  for the extensions again, -1 only asks. Returns 1 when the extensions
 *  are in use. For tests and benchmarks; the digests never differ. */
int qr_sha256_accel(int on);

#endif
