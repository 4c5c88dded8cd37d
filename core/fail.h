/* fail.h: the one place every failure inside the library goes through
 * (core/error.c), never installed. Included by buf.h and arena.h, which
 * every module includes. */
#ifndef QR_FAIL_H
#define QR_FAIL_H

#include <quire/error.h>

/** Every failure inside the library goes through here, so one breakpoint
 *  catches the first one (cairo's _cairo_error). Returns s. */
qr_status qr_fail(qr_status s);

#endif
