/* body_face.c: a theme's body face (layout/style.h body_face, e.g. "DejaVu
 * Serif" in report) in place of the Latin default fonts/ picked, for the
 * spans it covers entirely; every other script keeps its own face. */
#include <string.h>

#include "fonts.h"
#include "utf8.h"

const char *qr_fonts_body_face(qr_fonts *f, const qr_span *s, const char *text, const char *face)
{
    if (!face || !s || s->slot != QR_SLOT_LATIN || strcmp(s->family, "DejaVu Sans") != 0)
        return s ? s->family : NULL;
    const unsigned char *p = (const unsigned char *)text + s->start;
    size_t left = s->len;
    while (left > 0) {
        uint32_t cp;
        size_t n = qr_utf8_decode(p, left, &cp);
        if (n == 0) return s->family;
        if (cp > ' ' && !qr_fonts_has_char(f, face, cp)) return s->family;
        p += n;
        left -= n;
    }
    return face;
}
