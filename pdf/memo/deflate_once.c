/* deflate_once.c: a page's content stream is deflated once, not twice (the
 * quire CLI only).
 *
 * cairo deflates each page's content stream as it writes it; the PDF
 * backend then inflates it again to make the page furniture artifacts
 * (pdf/tagged.c, qr_pdf_artifact_page) and deflates the result at cairo's
 * level (6): D1 spent ~30 ms of the main thread in cairo's deflate and ~8 ms
 * more inflating it, for bytes thrown away.
 *
 * The quire executable defines deflateInit_() itself and exports it (as
 * shape_memo.c does hb_shape()), so cairo's call from the PDF module
 * resolves here. Around cairo_show_page() the PDF backend calls
 * qr_pdf_deflate_store(1) (found with dlsym, so libquire, which has no such
 * function, is unchanged): the next deflateInit_() on that thread, the
 * page's content stream (cairo opens it first), gets level 0, stored
 * blocks (with zlib's smallest window and hash, which stored blocks do not
 * use: its state is set up in ~2,000 instructions instead of ~70,000), which
 * qr_pdf_artifact_page() reads back at the cost of a copy and
 * deflates at level 6 whatever it finds in them. zlib's output does not
 * depend on how its input is cut into calls, so the page's bytes are the
 * ones cairo's own deflate would have written (the goldens compare them).
 * Every other deflateInit_() (fonts, images, other threads, libzip) is
 * zlib's, untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <zlib.h>

#define QR_WRAP __attribute__((visibility("default")))

typedef int (*init_fn)(z_streamp, int, const char *, int);

static init_fn real_init;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;
static _Thread_local int store_next; /* the next deflateInit_() on this thread stores */

static void find_real(void)
{
    real_init = (init_fn)dlsym(RTLD_NEXT, "deflateInit_");
}

QR_WRAP void qr_pdf_deflate_store(int on);

/* on: the next deflateInit_() on this thread stores (level 0); off: it
 * does not (set off after cairo_show_page(), whether cairo used it or not). */
QR_WRAP void qr_pdf_deflate_store(int on)
{
    store_next = on;
}

QR_WRAP int deflateInit_(z_streamp strm, int level, const char *version, int stream_size)
{
    pthread_once(&real_once, find_real);
    if (!real_init) return Z_VERSION_ERROR;
    if (store_next) {
        /* stored blocks need no match finder: the smallest window and
         * hash (zlib clears the hash table, 64 KB at the default memLevel,
         * for every stream); the blocks' bytes are the same */
        store_next = 0;
        return deflateInit2_(strm, Z_NO_COMPRESSION, Z_DEFLATED, 9, 1, Z_DEFAULT_STRATEGY, version,
                             stream_size);
    }
    return real_init(strm, level, version, stream_size);
}
