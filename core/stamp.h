/* stamp.h: the build stamp a module of the quire CLI carries (quire-pdf.so,
 * quire-pg.so, quire-read-pdf.so) and the loader checks before it takes
 * anything from the module (render/module.c).
 *
 * A module links its own copy of the lower layers and the CLI hands it
 * internal structs (the tree, the font set, the store's records) by
 * pointer. A module from another build, left beside a new binary, would read
 * them with the wrong layout and corrupt memory silently; with a stamp it is
 * refused with a message instead. A stamp is the library version and the
 * size of every struct that crosses that module's boundary, computed by
 * the same macro on both sides (QR_PDF_MODULE_STAMP in pdf/pdf_module.h,
 * QR_PG_MODULE_STAMP in store/store_backend.h, QR_READ_PDF_MODULE_STAMP in
 * read/pdf/pdf_read.h). A module exports it as `qr_module_stamp`. */
#ifndef QR_STAMP_H
#define QR_STAMP_H

#include <stddef.h>
#include <stdint.h>

#include <quire/quire.h> /* QUIRE_VERSION */

#define QR_STAMP_MAGIC 0x51525354u /* "QRST" */
#define QR_STAMP_MAX_SIZES 24

typedef struct qr_stamp {
    uint32_t magic;   /* QR_STAMP_MAGIC */
    char version[16]; /* QUIRE_VERSION */
    uint64_t sizes[QR_STAMP_MAX_SIZES];
} qr_stamp;

/* A stamp of this build from a list of sizeof()s. A test build of a module
 * defines QR_STAMP_SKEW to stand for a module of another build. */
#ifdef QR_STAMP_SKEW
#define QR_STAMP(...)                                                                              \
    {                                                                                              \
        QR_STAMP_MAGIC, QUIRE_VERSION,                                                             \
        {                                                                                          \
            __VA_ARGS__, 1                                                                         \
        }                                                                                          \
    }
#else
#define QR_STAMP(...)                                                                              \
    {                                                                                              \
        QR_STAMP_MAGIC, QUIRE_VERSION,                                                             \
        {                                                                                          \
            __VA_ARGS__                                                                            \
        }                                                                                          \
    }
#endif

/** 1 when theirs is of the same build as mine (version and every size); else
 *  0 with why (a sentence naming the first difference) in why[0..size). */
int qr_stamp_same(const qr_stamp *mine, const qr_stamp *theirs, char *why, size_t size);

#endif
