/* xlsx_sst.c: the shared-string table and xl/sharedStrings.xml.
 *
 * Every text cell refers to an <si> by index. The table deduplicates with
 * an open-addressing hash table (FNV-1a, linear probing, at most half
 * full); keys point into the tree's strings, so a million distinct strings
 * cost 16 bytes of item plus 8 of slots each, never a copy (a streamed
 * workbook's rows come and go, so there the table keeps copies: copy). The part is
 * streamed after the sheets, when count (every reference) and uniqueCount
 * are known.
 */
#include <stdlib.h>
#include <string.h>

#include "xlsx_int.h"
#include "xml.h"

uint32_t qr_xlsx_hash(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

int qr_xlsx_sst_init(qr_xlsx_sst *s)
{
    memset(s, 0, sizeof *s);
    s->slots = calloc(1024, sizeof *s->slots);
    if (!s->slots) return -1;
    s->mask = 1023;
    return 0;
}

void qr_xlsx_sst_free(qr_xlsx_sst *s)
{
    qr_arena_free(&s->pool);
    free(s->items);
    free(s->slots);
    memset(s, 0, sizeof *s);
}

/* Double the slot array and re-insert every item (hashes are kept). */
static int grow_slots(qr_xlsx_sst *s)
{
    uint32_t nmask = s->mask * 2 + 1;
    if (nmask < s->mask) return -1;
    uint32_t *ns = calloc((size_t)nmask + 1, sizeof *ns);
    if (!ns) return -1;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t j = s->items[i].hash & nmask;
        while (ns[j])
            j = (j + 1) & nmask;
        ns[j] = i + 1;
    }
    free(s->slots);
    s->slots = ns;
    s->mask = nmask;
    return 0;
}

int64_t qr_xlsx_sst_add(qr_xlsx_sst *s, const char *str, uint32_t len)
{
    uint32_t h = qr_xlsx_hash(str, len);
    uint32_t j = h & s->mask;
    for (uint32_t k; (k = s->slots[j]) != 0; j = (j + 1) & s->mask) {
        const qr_xlsx_sst_item *it = &s->items[k - 1];
        if (it->hash == h && it->len == len && memcmp(it->s, str, len) == 0) {
            s->count++;
            return (int64_t)(k - 1);
        }
    }
    if (s->n == UINT32_MAX - 1) return -1;
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 256;
        qr_xlsx_sst_item *ni = realloc(s->items, (size_t)cap * sizeof *ni);
        if (!ni) return -1;
        s->items = ni;
        s->cap = cap;
    }
    if (s->copy && !(str = qr_arena_strndup(&s->pool, str, len))) return -1;
    uint32_t idx = s->n++;
    s->items[idx] = (qr_xlsx_sst_item){str, len, h};
    s->slots[j] = idx + 1;
    s->count++;
    /* Keep the table at most half full so probes stay short. */
    if ((uint64_t)s->n * 2 > (uint64_t)s->mask + 1 && grow_slots(s) != 0) return -1;
    return (int64_t)idx;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int qr_xlsx_escape(qr_buf *b, const char *text, size_t len)
{
    size_t start = 0;
    const char *p = text, *end = text + len;
    while ((p = memchr(p, '_', (size_t)(end - p))) != NULL) {
        if (end - p >= 7 && p[1] == 'x' && is_hex(p[2]) && is_hex(p[3]) && is_hex(p[4]) &&
            is_hex(p[5]) && p[6] == '_') {
            /* Escape the underscore itself: _x005F_ then the rest as typed. */
            if (qr_xml_escape(b, text + start, (size_t)(p - text) - start, 0) ||
                qr_buf_append(b, "_x005F_", 7))
                return -1;
            start = (size_t)(p - text) + 1;
        }
        p++;
    }
    return qr_xml_escape(b, text + start, len - start, 0);
}

/* <si><t>text</t></si> */
static int write_si(qr_buf *b, const char *s, size_t len)
{
    if (qr_xml_needs_preserve(s, len))
        qr_buf_append(b, "<si><t xml:space=\"preserve\">", 28);
    else
        qr_buf_append(b, "<si><t>", 7);
    if (qr_xlsx_escape(b, s, len)) return -1;
    return qr_buf_append(b, "</t></si>", 9);
}

/* <sst> */
qr_status qr_xlsx_sst_fill(void *ctx, qr_buf *chunk, int *done)
{
    qr_xlsx_sst *s = ctx;
    if (!s->started) {
        s->started = 1;
        s->next = 0;
        qr_buf_printf(chunk,
                      "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                      "<sst xmlns=\"" QR_NS_SML "\" count=\"%llu\" uniqueCount=\"%u\">",
                      (unsigned long long)s->count, (unsigned)s->n);
    }
    while (s->next < s->n && chunk->len < 65536) {
        const qr_xlsx_sst_item *it = &s->items[s->next++];
        if (write_si(chunk, it->s, it->len)) return QR_E_NOMEM;
    }
    if (s->next == s->n) {
        qr_buf_append(chunk, "</sst>", 6);
        *done = 1;
    }
    return chunk->oom ? QR_E_NOMEM : QR_OK;
}
