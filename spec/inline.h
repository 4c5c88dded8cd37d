/* inline.h: take the image files a spec names into the spec itself.
 *
 * A stored spec must not depend on files outside the store: before a spec
 * (or an edit's patch) goes into the store, every image object's "src"
 * that names a file becomes a data: URI of that file's bytes, read with
 * the checks of a render (image.c: relative, inside base_dir, a regular
 * PNG or JPEG file, at most max_image bytes). Then `export` of an old
 * version renders the same bytes after the file is gone. */
#ifndef QR_INLINE_H
#define QR_INLINE_H

#include <stddef.h>

#include "compile.h"

/** Rewrite the JSON text (len bytes): the "src" of every object with
 *  "type": "image" whose src is not a data: URI becomes one. *out: the new
 *  text (free() it) with *out_len, or NULL when nothing was to change
 *  (also when the text is not JSON: the caller's own parse reports that).
 *  Returns QR_OK, or QR_E_SPEC / QR_E_LIMIT with errors at the src's JSON
 *  pointer ("/blocks/3/src: cannot read image ..."), QR_E_NOMEM. */
qr_status qr_spec_inline_images(const char *text, size_t len, const char *base_dir,
                                size_t max_image, char **out, size_t *out_len, qr_errlist *errs);

#endif
