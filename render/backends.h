/* backends.h: the table of the backends built into this library
 * (render/backends.c). The constants are declared in spec/backend.h, below
 * the backends that define them. */
#ifndef QR_BACKENDS_H
#define QR_BACKENDS_H

#include "backend.h"

/** The backend for a format, or NULL when this build has none. */
const qr_backend *qr_backend_for(qr_format f);

/** Why qr_backend_for(f) has none although this build has it: its module
 *  could not be loaded or is from another build ("" otherwise). */
const char *qr_backend_error(qr_format f);

#endif
