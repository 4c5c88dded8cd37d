/* load.c: qr_sb_pg_open() as the quire CLI has it: the PostgreSQL backend
 * (store_pg.c and libpq) lives in the module quire-pg.so, opened on the
 * first postgresql:// location, beside the binary or in <libdir>/quire.
 * libpq brings 21 shared libraries (Kerberos, LDAP, GnuTLS, OpenSSL...)
 * whose loading and relocation cost every CLI call ~3.7 ms of CPU when the
 * binary links it; folder stores and renders never need them. libquire
 * links store_pg.c directly and does not use this file. */
#include <pthread.h>
#include <stdio.h>

#include "module.h"
#include "store_backend.h"

#define MODULE_FILE "quire-pg.so"

typedef qr_status (*open_fn)(const char *, const qr_folder_opts *, qr_sb **, qr_errlist *);
static open_fn module_open;
static char module_error[256];
static pthread_once_t module_once = PTHREAD_ONCE_INIT;

static void module_load(void)
{
    static const qr_stamp mine = QR_PG_MODULE_STAMP;
    module_open =
        (open_fn)qr_module_open(MODULE_FILE, QUIRE_PG_MODULE_RELDIR, &mine,
                                "qr_store_pg_module_open", module_error, sizeof module_error);
}

qr_status qr_sb_pg_open(const char *uri, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs)
{
    *out = NULL;
    pthread_once(&module_once, module_load);
    if (!module_open && *module_error)
        return qr_errlist_addf(errs, QR_E_UNSUPPORTED, "",
                               "reinstall quire so that the binary and its modules come from "
                               "one build",
                               "%s", module_error);
    if (!module_open)
        return qr_errlist_addf(errs, QR_E_STORE, "", "install quire with its PostgreSQL module",
                               "cannot load %s, which opens PostgreSQL stores", MODULE_FILE);
    return module_open(uri, o, out, errs);
}
