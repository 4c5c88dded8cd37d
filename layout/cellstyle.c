/* cellstyle.c: a cell look's colours in a theme (cellstyle.h). */
#include "cellstyle.h"

static uint32_t mix(uint32_t a, uint32_t b, double t)
{
    uint32_t out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        double x = (double)((a >> sh) & 255) * (1 - t) + (double)((b >> sh) & 255) * t;
        out |= (uint32_t)(x + 0.5) << sh;
    }
    return out;
}

uint32_t qr_cellstyle_rgb(const qr_style *st, uint32_t c, uint32_t def)
{
    if (c & QR_SX_RGB) return c & 0xFFFFFF;
    if (!(c & QR_SX_THEME)) return def;
    switch ((qr_sx_slot)(c & 0xFF)) {
    case QR_SX_ACCENT:
        return st->accent;
    case QR_SX_HEADER_FILL:
        return st->header_fill;
    case QR_SX_TEXT:
        return st->text;
    case QR_SX_GRID:
        return st->grid;
    case QR_SX_ACCENT_TINT:
        return mix(0xFFFFFF, st->accent, 0.15);
    }
    return def;
}

double qr_cellstyle_border_pt(int kind)
{
    switch ((qr_border_kind)kind) {
    case QR_BORDER_NONE:
        return 0;
    case QR_BORDER_THIN:
    case QR_BORDER_DASHED:
    case QR_BORDER_DOTTED:
        return 0.75;
    case QR_BORDER_MEDIUM:
        return 1.5;
    case QR_BORDER_THICK:
        return 2.25;
    case QR_BORDER_DOUBLE:
        return 2.25; /* two thin lines and the gap between */
    }
    return 0;
}
