/* backends.h: the table of backends built into this library. */
#ifndef QR_BACKENDS_H
#define QR_BACKENDS_H

#include "backend.h"

/** The backend for a format, or NULL when this build has none. */
const qr_backend *qr_backend_for(qr_fmt f);

#endif
