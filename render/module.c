/* module.c: the CLI's module loader (module.h): dlopen beside the binary,
 * then at a folder relative to it; the build stamp checked before use. */
#include "module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* dlopen dir[0..dir_len)/sub/file (sub may be ""); a file that exists but
 * does not load is reported in err. Lazily: a module is linked with
 * -z now (CMakeLists.txt), so its own references are bound here and a
 * missing one is this error, while the libraries under it that are not
 * linked so (X11 and xcb beneath cairo, fontconfig, expat...) bind a
 * function on its first call, most of theirs never: a third of
 * quire-pdf.so's symbol look-ups at load. */
static void *open_in(const char *dir, int dir_len, const char *sub, const char *file, char *err,
                     size_t size)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s/%s%s%s", dir_len, dir, sub, *sub ? "/" : "", file);
    if (n < 0 || (size_t)n >= sizeof path) return NULL;
    void *h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
    if (!h && !*err && access(path, F_OK) == 0) {
        const char *e = dlerror();
        snprintf(err, size, "cannot load %s: %s", file, e ? e : "unknown error");
    }
    return h;
}

void *qr_module_open(const char *file, const char *reldir, const qr_stamp *mine, const char *symbol,
                     char *err, size_t size)
{
    *err = '\0';
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    const char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    int dir_len = (int)(slash - exe);
    void *h = open_in(exe, dir_len, "", file, err, size);
    if (!h && !*err) h = open_in(exe, dir_len, reldir, file, err, size);
    if (!h) return NULL;
    char why[160];
    if (!qr_stamp_same(mine, (const qr_stamp *)dlsym(h, "qr_module_stamp"), why, sizeof why)) {
        snprintf(err, size, "%s is from another build of quire: %s", file, why);
        return NULL; /* left loaded: its constructors ran, unloading gains nothing */
    }
    void *sym = dlsym(h, symbol);
    if (!sym) snprintf(err, size, "%s has no %s", file, symbol);
    return sym;
}
