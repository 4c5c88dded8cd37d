/* fuzz_read.c: bytes through qr_read_mem, as a .docx, .xlsx, .pptx or .pdf
 * (told by content). The first byte picks the output: spec, json,
 * markdown, text, or markdown chunks. Seeded (scripts/fuzz.sh) with the
 * fixtures rendered to every Office format and PDF. */
#include <stddef.h>
#include <stdint.h>

#include <quire/quire.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    qr_read_opts o = {0};
    o.to = (qr_read_to)(data[0] % 4);
    if (data[0] % 5 == 4) o.chunks = 1 + data[0] % 97;
    o.max_unzipped = 64u << 20;
    qr_result res;
    qr_kind kind;
    qr_read_mem(data + 1, size - 1, &o, &kind, &res);
    qr_result_free(&res);
    return 0;
}
