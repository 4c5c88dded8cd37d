/* cli_inline.c: take a spec's image files into it for the store commands
 * (cli_inline.h), relative to --base-dir or the spec file's folder. */
#include "cli_inline.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inline.h"

qr_status qr_cli_inline(const char *path, const char *base_dir, char **data, size_t *len,
                        qr_errlist *errs)
{
    char dir[PATH_MAX];
    if (!base_dir) {
        const char *slash = strrchr(path, '/');
        if (strcmp(path, "-") == 0 || !slash)
            snprintf(dir, sizeof dir, ".");
        else if (slash == path)
            snprintf(dir, sizeof dir, "/");
        else
            snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
        base_dir = dir;
    }
    qr_limits lim;
    qr_limits_default(&lim);
    char *out = NULL;
    size_t n = 0;
    qr_status st = qr_spec_inline_images(*data, *len, base_dir, lim.max_image, &out, &n, errs);
    if (st == QR_OK && out) {
        free(*data);
        *data = out;
        *len = n;
    }
    return st;
}
