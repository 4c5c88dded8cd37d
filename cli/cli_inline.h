/* cli_inline.h: the image files of a spec read by the store commands,
 * taken into the spec (spec/inline.h) before it goes into the store. */
#ifndef QR_CLI_INLINE_H
#define QR_CLI_INLINE_H

#include <stddef.h>

#include "compile.h"

/** Replace *data (*len bytes read from path, malloc'd) by the same spec
 *  with its image files as data: URIs, read under base_dir (NULL: path's
 *  folder, "." for stdin). Returns QR_OK (*data unchanged when nothing was
 *  to inline), or the failure with its errors in errs (*data untouched). */
qr_status qr_cli_inline(const char *path, const char *base_dir, char **data, size_t *len,
                        qr_errlist *errs);

#endif
