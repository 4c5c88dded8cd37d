/* load.c: qr_sb_pg_open() as the quire CLI has it: the PostgreSQL backend
 * (store_pg.c and libpq) lives in the module quire-pg.so, opened on the
 * first postgresql:// location, beside the binary or in <libdir>/quire.
 * libpq brings 21 shared libraries (Kerberos, LDAP, GnuTLS, OpenSSL...)
 * whose loading and relocation cost every CLI call ~3.7 ms of CPU when the
 * binary links it; folder stores and renders never need them. libquire
 * links store_pg.c directly and does not use this file. */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../store_backend.h"

#define MODULE_FILE "quire-pg.so"

typedef qr_status (*open_fn)(const char *, const qr_folder_opts *, qr_sb **, qr_errlist *);
static open_fn module_open;
static char module_error[256];
static pthread_once_t module_once = PTHREAD_ONCE_INIT;

static void *open_in(const char *dir, int dir_len, const char *sub)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s/%s" MODULE_FILE, dir_len, dir, sub);
    if (n < 0 || (size_t)n >= sizeof path) return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h && !module_error[0]) {
        const char *e = dlerror();
        if (e && access(path, F_OK) == 0) snprintf(module_error, sizeof module_error, "%s", e);
    }
    return h;
}

static void module_load(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return;
    exe[n] = '\0';
    const char *slash = strrchr(exe, '/');
    if (!slash) return;
    int dir_len = (int)(slash - exe);
    void *h = open_in(exe, dir_len, "");
    if (!h) h = open_in(exe, dir_len, QUIRE_PG_MODULE_RELDIR "/");
    if (h) module_open = (open_fn)dlsym(h, "qr_store_pg_module_open");
}

qr_status qr_sb_pg_open(const char *uri, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs)
{
    *out = NULL;
    pthread_once(&module_once, module_load);
    if (!module_open)
        return qr_errlist_addf(errs, QR_E_STORE, "", "install quire with its PostgreSQL module",
                               "cannot load %s, which opens PostgreSQL stores%s%s", MODULE_FILE,
                               module_error[0] ? ": " : "", module_error);
    return module_open(uri, o, out, errs);
}
