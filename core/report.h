/* report.h: the layout report's list (quire.h's qr_layout_list): adding
 * items, copying and freeing them. The engine's layers add what they had to
 * do to lay a spec out (text shrunk, content continued, ...); render/render.c
 * hands the list to the caller. Belongs with error.c (core/ after the move).
 */
#ifndef QR_REPORT_H
#define QR_REPORT_H

#include <quire/quire.h>

/** Append an item; path and detail are copied. A NULL list is a no-op (a
 *  pass that measures only). On OOM the list's oom flag is set. */
void qr_layout_add(qr_layout_list *l, qr_layout_kind kind, const char *path, int page, int slide,
                   double value, const char *detail);

/** qr_layout_add with a printf-style detail (integers and strings only:
 *  %f follows the locale). */
void qr_layout_addf(qr_layout_list *l, qr_layout_kind kind, const char *path, int page, int slide,
                    double value, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/** Free every item and the array; the list is left empty and reusable. */
void qr_layout_clear(qr_layout_list *l);

/** A fraction as a percentage with one decimal, locale-free: 0.325 -> "32.5". buf: 16 bytes. */
const char *qr_layout_pct(double v, char *buf);

#endif
