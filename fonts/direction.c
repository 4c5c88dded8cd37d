/* direction.c: paragraph base direction, UAX #9 rules P2 and P3.
 *
 * The first character of bidi type L, R or AL decides, skipping whatever lies
 * between an isolate initiator (LRI, RLI, FSI) and its matching PDI.
 * Embedding and override controls are not strong and do not count. The
 * types come from fribidi's tables. A text with no strong character is
 * NEUTRAL; callers usually treat that as LTR.
 */
#include <fribidi.h>

#include "fonts_int.h"

typedef struct dir_state {
    int isolate; /* depth inside isolates */
    qr_dir dir;
} dir_state;

/* Feed one chunk of text; returns 1 once the direction is known. */
static int feed(dir_state *st, const char *utf8, size_t len)
{
    const unsigned char *s = (const unsigned char *)utf8;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        if (s[i] < 0x80) {
            cp = s[i++];
            /* ASCII letters are L; nothing else in ASCII is strong. */
            if (st->isolate == 0 && ((cp | 0x20) - 'a') < 26u) {
                st->dir = QR_DIR_LTR;
                return 1;
            }
            continue;
        }
        i += qr_fonts_utf8(s + i, len - i, &cp);
        FriBidiCharType t = fribidi_get_bidi_type(cp);
        if (t == FRIBIDI_TYPE_LRI || t == FRIBIDI_TYPE_RLI || t == FRIBIDI_TYPE_FSI) {
            st->isolate++;
        } else if (t == FRIBIDI_TYPE_PDI) {
            if (st->isolate > 0) st->isolate--;
        } else if (st->isolate == 0) {
            if (t == FRIBIDI_TYPE_LTR) {
                st->dir = QR_DIR_LTR;
                return 1;
            }
            if (t == FRIBIDI_TYPE_RTL || t == FRIBIDI_TYPE_AL) {
                st->dir = QR_DIR_RTL;
                return 1;
            }
        }
    }
    return 0;
}

qr_dir qr_fonts_direction(const char *utf8, size_t len)
{
    dir_state st = {0, QR_DIR_NEUTRAL};
    if (utf8) feed(&st, utf8, len);
    return st.dir;
}

qr_dir qr_fonts_text_direction(const qr_text *text)
{
    dir_state st = {0, QR_DIR_NEUTRAL};
    if (!text) return st.dir;
    for (size_t r = 0; r < text->n; r++)
        if (text->runs[r].text && feed(&st, text->runs[r].text, text->runs[r].len)) break;
    return st.dir;
}
