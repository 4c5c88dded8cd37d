/* xobjects.c: one key per image in a page's /XObject resources (pdf_int.h,
 * qr_pdf_dedup_write).
 *
 * cairo 1.16 lists a source surface in the page's resources once per time
 * it is painted: the same picture drawn twice on a page (a deck's logo
 * that is also its picture, an image repeated in a document) gives
 * "/XObject << /x9 9 0 R /x9 9 0 R >>", a dictionary with a duplicated key
 * (qpdf warns; strict readers may refuse it). The PDF's bytes pass through
 * here on their way to the sink: from the piece "   /XObject <<" up to the
 * piece that starts " >>", cairo's pieces are held, and each entry whose
 * key came before is overwritten with spaces, byte for byte, so that the
 * offsets cairo counts for its cross-reference table stay right. Anything
 * unexpected in between (a character that no entry has, more than 1 MiB
 * held) hands the held bytes on unchanged: at worst the key stays
 * duplicated, as cairo wrote it.
 */
#include <string.h>

#include "pdf_int.h"

#define OPEN "   /XObject <<"
#define HELD_MAX (1u << 20)

static int entry_char(unsigned char ch)
{
    return ch == ' ' || ch == '/' || ch == 'x' || ch == 'R' || (ch >= '0' && ch <= '9');
}

/* Blank the entries of held (" /xN N 0 R" each) whose key came before. */
static void blank_repeats(unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && p[i] == ' ')
            i++;
        if (i + 2 >= n || p[i] != '/' || p[i + 1] != 'x') return;
        size_t key = i, k = i + 2;
        while (k < n && p[k] >= '0' && p[k] <= '9')
            k++;
        size_t key_len = k - key;
        /* the reference: " N 0 R" */
        size_t e = k;
        int spaces = 0;
        while (e < n && p[e] != 'R') {
            if (p[e] == ' ') spaces++;
            e++;
        }
        if (e >= n || spaces != 3) return;
        e++; /* past R */
        /* an earlier entry with the same key? */
        int seen = 0;
        for (size_t j = 0; j < key && !seen; j++)
            if (p[j] == '/' && j + key_len <= key && memcmp(p + j, p + key, key_len) == 0 &&
                (j + key_len == n || p[j + key_len] == ' '))
                seen = 1;
        if (seen) memset(p + key, ' ', e - key);
        i = e;
    }
}

static cairo_status_t hand_on(qr_pdf_dedup *d, cairo_write_func_t next, void *closure)
{
    d->on = 0;
    if (!d->held.len) return CAIRO_STATUS_SUCCESS;
    cairo_status_t st = next(closure, (const unsigned char *)d->held.data, (unsigned)d->held.len);
    d->held.len = 0;
    return st;
}

cairo_status_t qr_pdf_dedup_write(qr_pdf_dedup *d, const unsigned char *data, unsigned int len,
                                  cairo_write_func_t next, void *closure)
{
    if (!d->on) {
        if (len == sizeof OPEN - 1 && memcmp(data, OPEN, len) == 0) {
            d->on = 1;
            d->held.len = 0;
        }
        return next(closure, data, len);
    }
    if (len >= 3 && memcmp(data, " >>", 3) == 0) {
        blank_repeats((unsigned char *)d->held.data, d->held.len);
        cairo_status_t st = hand_on(d, next, closure);
        return st != CAIRO_STATUS_SUCCESS ? st : next(closure, data, len);
    }
    int plain = d->held.len + len <= HELD_MAX;
    for (unsigned int i = 0; i < len && plain; i++)
        plain = entry_char(data[i]);
    if (!plain || qr_buf_append(&d->held, data, len) != 0) {
        cairo_status_t st = hand_on(d, next, closure);
        return st != CAIRO_STATUS_SUCCESS ? st : next(closure, data, len);
    }
    return CAIRO_STATUS_SUCCESS;
}

cairo_status_t qr_pdf_dedup_end(qr_pdf_dedup *d, cairo_write_func_t next, void *closure)
{
    cairo_status_t st = hand_on(d, next, closure);
    qr_buf_free(&d->held);
    return st;
}
