/* module.h: the one loader of the quire CLI's modules (quire-pdf.so,
 * quire-pg.so, quire-read-pdf.so), used by render/backends.c,
 * store/pg/load.c and read/pdf/load.c in their module builds.
 *
 * A module is looked for beside the running binary (the build tree), then at
 * reldir from the binary's folder (an install, "../lib/quire", wherever its
 * prefix was moved). Before anything is taken from it, its build stamp
 * (`qr_module_stamp`, core/stamp.h) must equal the caller's: a module from
 * another build is refused with a message, never called. */
#ifndef QR_MODULE_H
#define QR_MODULE_H

#include <stddef.h>

#include "stamp.h"

/** Open file, check its stamp against mine, and return its symbol. NULL when
 *  the module is absent ("" in err), cannot be loaded, is from another build
 *  or lacks the symbol (err says which, naming the file). The module stays
 *  loaded. Not synchronised: callers run it under pthread_once. */
void *qr_module_open(const char *file, const char *reldir, const qr_stamp *mine, const char *symbol,
                     char *err, size_t size);

#endif
