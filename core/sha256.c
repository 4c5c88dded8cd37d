/* sha256.c: SHA-256 after FIPS 180-4 section 6.2, byte-oriented input.
 * The compression runs on the x86 SHA extensions (SHA-NI) when the CPU has
 * them, else in portable C; both are tested against the FIPS 180-2
 * appendix B vectors and each other (tests/unit/test_sha256.c). */
#include "sha256.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHANI 1
#endif

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
               (uint32_t)p[4 * t + 2] << 8 | (uint32_t)p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t S1 = ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = hh + S1 + ch + K[t] + w[t];
        uint32_t S0 = ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + maj;
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

#ifdef HAVE_SHANI
/* n blocks with the SHA extensions. The state lives as ABEF and CDGH; each
 * sha256rnds2 does two rounds, each sha256msg1/msg2 pair four schedule words. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
blocks_shani(uint32_t h[8], const unsigned char *p, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);  /* CDAB */
    __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B); /* HGFE */
    __m128i s0 = _mm_alignr_epi8(t, s1, 8);                                        /* ABEF */
    s1 = _mm_blend_epi16(s1, t, 0xF0);                                             /* CDGH */
    for (; n; n--, p += 64) {
        __m128i save0 = s0, save1 = s1, w[4];
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
        for (int g = 0; g < 16; g++) {
            __m128i m = _mm_add_epi32(w[g & 3], _mm_loadu_si128((const __m128i *)&K[4 * g]));
            s1 = _mm_sha256rnds2_epu32(s1, s0, m);
            s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(m, 0x0E));
            if (g < 12) { /* words 4g+16..4g+19 into the slot just used */
                __m128i x = _mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]);
                x = _mm_add_epi32(x, _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
                w[g & 3] = _mm_sha256msg2_epu32(x, w[(g + 3) & 3]);
            }
        }
        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
    }
    t = _mm_shuffle_epi32(s0, 0x1B);                                  /* FEBA */
    s1 = _mm_shuffle_epi32(s1, 0xB1);                                 /* DCHG */
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(t, s1, 0xF0)); /* DCBA */
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(s1, t, 8));    /* HGFE */
}

static int cpu_has_shani(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1) || !(c & bit_SSSE3)) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b >> 29) & 1; /* CPUID.7.0:EBX.SHA */
}
#endif

/* 0 not decided yet, 1 SHA extensions, 2 portable; -1 portable by request. */
static int mode;

int qr_sha256_accel(int on)
{
    int m = __atomic_load_n(&mode, __ATOMIC_RELAXED);
    if (on < 0 && m != 0) return m == 1;
    int want = 2;
#ifdef HAVE_SHANI
    if (on != 0 && cpu_has_shani()) want = 1;
#endif
    if (on == 0) want = -1;
    __atomic_store_n(&mode, want, __ATOMIC_RELAXED);
    return want == 1;
}

static void blocks(uint32_t h[8], const unsigned char *p, size_t n)
{
    int m = __atomic_load_n(&mode, __ATOMIC_RELAXED);
    if (m == 0) {
        qr_sha256_accel(1);
        m = __atomic_load_n(&mode, __ATOMIC_RELAXED);
    }
#ifdef HAVE_SHANI
    if (m == 1) {
        blocks_shani(h, p, n);
        return;
    }
#endif
    for (; n; n--, p += 64)
        compress(h, p);
}

void qr_sha256_init(qr_sha256 *c)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->bytes = 0;
    c->fill = 0;
}

void qr_sha256_update(qr_sha256 *c, const void *data, size_t len)
{
    const unsigned char *p = data;
    c->bytes += len;
    if (c->fill) {
        size_t take = 64 - c->fill < len ? 64 - c->fill : len;
        memcpy(c->block + c->fill, p, take);
        c->fill += take, p += take, len -= take;
        if (c->fill < 64) return;
        blocks(c->h, c->block, 1);
        c->fill = 0;
    }
    blocks(c->h, p, len / 64);
    p += len / 64 * 64, len %= 64;
    memcpy(c->block, p, len);
    c->fill = len;
}

void qr_sha256_final(qr_sha256 *c, unsigned char out[32])
{
    uint64_t bits = c->bytes * 8;
    c->block[c->fill++] = 0x80;
    if (c->fill > 56) {
        memset(c->block + c->fill, 0, 64 - c->fill);
        blocks(c->h, c->block, 1);
        c->fill = 0;
    }
    memset(c->block + c->fill, 0, 56 - c->fill);
    for (int i = 0; i < 8; i++)
        c->block[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
    blocks(c->h, c->block, 1);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(c->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)c->h[i];
    }
}

void qr_sha256_tohex(const unsigned char digest[32], char out[65])
{
    static const char hx[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hx[digest[i] >> 4];
        out[2 * i + 1] = hx[digest[i] & 15];
    }
    out[64] = '\0';
}

void qr_sha256_hex(const void *data, size_t len, char out[65])
{
    qr_sha256 c;
    unsigned char d[32];
    qr_sha256_init(&c);
    qr_sha256_update(&c, data, len);
    qr_sha256_final(&c, d);
    qr_sha256_tohex(d, out);
}
