/* module.c: the CLI's module loader (module.h): dlopen beside the binary,
 * then at a folder relative to it. */
#include "module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* dlopen dir[0..dir_len)/sub/file (sub may be ""). */
static void *open_in(const char *dir, int dir_len, const char *sub, const char *file)
{
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s/%s%s%s", dir_len, dir, sub, *sub ? "/" : "", file);
    if (n < 0 || (size_t)n >= sizeof path) return NULL;
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

void *qr_module_symbol(const char *file, const char *reldir, const char *symbol)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = '\0';
    const char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    int dir_len = (int)(slash - exe);
    void *h = open_in(exe, dir_len, "", file);
    if (!h) h = open_in(exe, dir_len, reldir, file);
    return h ? dlsym(h, symbol) : NULL;
}
