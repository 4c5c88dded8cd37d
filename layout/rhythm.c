/* rhythm.c: the vertical rhythm of documents (rhythm.h): the spacing of
 * each kind of block, from the theme's sizes (style.h) and a few fixed
 * insets. Read by the PDF/PNG pagination and the docx writer alike. */
#include <math.h>

#include "rhythm.h"

double qr_rhythm_pitch(double size_pt)
{
    return size_pt * QR_RHYTHM_LINE;
}

long qr_rhythm_pitch_twips(double size_pt)
{
    return lround(qr_rhythm_pitch(size_pt) * 20);
}

qr_rhythm_space qr_rhythm_block(const qr_style *s, qr_rhythm_kind k, int level)
{
    qr_rhythm_space r = {0, s->para_after};
    switch (k) {
    case QR_RHYTHM_TITLE:
        r.after = s->title_after;
        break;
    case QR_RHYTHM_HEADING:
        if (level < 1) level = 1;
        if (level > 6) level = 6;
        r.before = s->heading_before[level - 1];
        r.after = s->heading_after[level - 1];
        break;
    case QR_RHYTHM_PARAGRAPH:
        break;
    case QR_RHYTHM_LIST:
        r.before = 2;
        r.after = s->para_after + 2;
        break;
    case QR_RHYTHM_TABLE:
        /* a docx table carries no space of its own: the block after it
         * takes the table's space after as its space before */
        r.before = 0;
        r.after = 10;
        break;
    case QR_RHYTHM_CODE:
        r.before = 2;
        r.after = 8;
        break;
    case QR_RHYTHM_IMAGE:
        r.before = 4;
        r.after = 8;
        break;
    case QR_RHYTHM_CHART:
        r.before = 4;
        r.after = 10;
        break;
    case QR_RHYTHM_QUOTE:
    case QR_RHYTHM_CALLOUT:
        r.before = 4;
        r.after = s->para_after + 4;
        break;
    case QR_RHYTHM_RULE:
        r.before = 6;
        r.after = 12;
        break;
    case QR_RHYTHM_TOC:
        r.before = 4;
        r.after = s->para_after + 6;
        break;
    }
    return r;
}

double qr_rhythm_gap(double after, double before)
{
    return after > before ? after : before;
}

double qr_rhythm_list_gap(const qr_style *s)
{
    return s->list_gap;
}

double qr_rhythm_cell_pad(const qr_style *s)
{
    return s->cell_pad;
}
