/* entry.c: the one symbol quire-pg.so exports, the PostgreSQL store
 * backend's open (store_pg.c) for the CLI's loader (load.c). */
#include "store_backend.h"

/* what the CLI's loader checks first (render/module.c) */
__attribute__((visibility("default"))) const qr_stamp qr_module_stamp = QR_PG_MODULE_STAMP;

__attribute__((visibility("default"))) qr_status
qr_store_pg_module_open(const char *uri, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs);

qr_status qr_store_pg_module_open(const char *uri, const qr_folder_opts *o, qr_sb **out,
                                  qr_errlist *errs)
{
    return qr_sb_pg_open(uri, o, out, errs);
}
