/* casefold.c: simple Unicode case folding by ranges (casefold.h).
 *
 * Each rule maps a range of capitals to small letters: by a fixed offset,
 * or, for the alternating blocks (Latin Extended, Cyrillic supplements),
 * each capital at the range's parity to the code point after it. Taken
 * from the simple (C and S) mappings of Unicode's CaseFolding.txt for the
 * scripts listed in the header. */
#include "casefold.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"

typedef struct rule {
    uint32_t from, to;
    int32_t delta; /* 0: pairs (capital at from's parity, small after it) */
} rule;

static const rule rules[] = {
    {0x0041, 0x005A, 32},    {0x00C0, 0x00D6, 32},   {0x00D8, 0x00DE, 32},   {0x0100, 0x012F, 0},
    {0x0132, 0x0137, 0},     {0x0139, 0x0148, 0},    {0x014A, 0x0177, 0},    {0x0178, 0x0178, -121},
    {0x0179, 0x017E, 0},     {0x017F, 0x017F, -268}, {0x01C4, 0x01C4, 2},    {0x01C5, 0x01C5, 1},
    {0x01C7, 0x01C7, 2},     {0x01C8, 0x01C8, 1},    {0x01CA, 0x01CA, 2},    {0x01CB, 0x01DC, 0},
    {0x01DE, 0x01EF, 0},     {0x01F1, 0x01F1, 2},    {0x01F2, 0x01F4, 0},    {0x01F8, 0x021F, 0},
    {0x0222, 0x0233, 0},     {0x0246, 0x024F, 0},    {0x0370, 0x0373, 0},    {0x0376, 0x0376, 1},
    {0x0386, 0x0386, 38},    {0x0388, 0x038A, 37},   {0x038C, 0x038C, 64},   {0x038E, 0x038F, 63},
    {0x0391, 0x03A1, 32},    {0x03A3, 0x03AB, 32},   {0x03C2, 0x03C2, 1},    {0x03D8, 0x03EF, 0},
    {0x0400, 0x040F, 80},    {0x0410, 0x042F, 32},   {0x0460, 0x0481, 0},    {0x048A, 0x04BF, 0},
    {0x04C0, 0x04C0, 15},    {0x04C1, 0x04CE, 0},    {0x04D0, 0x052F, 0},    {0x0531, 0x0556, 48},
    {0x10A0, 0x10C5, 7264},  {0x10C7, 0x10C7, 7264}, {0x10CD, 0x10CD, 7264}, {0x1E00, 0x1E95, 0},
    {0x1E9E, 0x1E9E, -7615}, {0x1EA0, 0x1EFF, 0},    {0x1F08, 0x1F0F, -8},   {0x1F18, 0x1F1D, -8},
    {0x1F28, 0x1F2F, -8},    {0x1F38, 0x1F3F, -8},   {0x1F48, 0x1F4D, -8},   {0x1F59, 0x1F59, -8},
    {0x1F5B, 0x1F5B, -8},    {0x1F5D, 0x1F5D, -8},   {0x1F5F, 0x1F5F, -8},   {0x1F68, 0x1F6F, -8},
    {0x1FB8, 0x1FB9, -8},    {0x1FBA, 0x1FBB, -74},  {0x1FC8, 0x1FCB, -86},  {0x1FD8, 0x1FD9, -8},
    {0x1FDA, 0x1FDB, -100},  {0x1FE8, 0x1FE9, -8},   {0x1FEA, 0x1FEB, -112}, {0x1FEC, 0x1FEC, -7},
    {0x1FF8, 0x1FF9, -128},  {0x1FFA, 0x1FFB, -126}, {0x2160, 0x216F, 16},   {0x24B6, 0x24CF, 26},
    {0x2C00, 0x2C2F, 48},    {0xFF21, 0xFF3A, 32},   {0x10400, 0x10427, 40},
};

uint32_t qr_casefold(uint32_t cp)
{
    size_t lo = 0, hi = sizeof rules / sizeof rules[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const rule *r = &rules[mid];
        if (cp < r->from) {
            hi = mid;
        } else if (cp > r->to) {
            lo = mid + 1;
        } else if (r->delta) {
            return (uint32_t)((int32_t)cp + r->delta);
        } else {
            return (cp - r->from) % 2 == 0 ? cp + 1 : cp;
        }
    }
    return cp;
}

char *qr_casefold_utf8(const char *s, size_t n)
{
    /* a fold never needs more than 4 bytes for a code point of 1 to 4 */
    char *out = malloc(n * 2 + 1);
    if (!out) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = qr_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (len == 0) {
            out[k++] = s[i++];
            continue;
        }
        k += qr_utf8_encode(qr_casefold(cp), out + k);
        i += len;
    }
    out[k] = '\0';
    return out;
}
