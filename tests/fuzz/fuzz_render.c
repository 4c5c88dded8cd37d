/* fuzz_render.c: bytes through compile + render into memory, for every
 * format built. The first byte picks the format; the kind follows from it. */
#include <stddef.h>
#include <stdint.h>

#include <quire/quire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    qr_format fmt = (qr_format)(data[0] % QR_FORMAT_COUNT);
    if (!qr_format_available(fmt)) return 0;
    qr_render_opts o = {0};
    o.max_output = 64u << 20;
    qr_result res;
    qr_render_mem((const char *)data + 1, size - 1, qr_format_kind(fmt), fmt, &o, &res);
    qr_result_free(&res);
    return 0;
}
