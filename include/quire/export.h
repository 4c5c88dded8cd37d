/* quire/export.h: symbol visibility. The library is built with hidden
 * visibility; only QR_EXPORT names are part of libquire's ABI. */
#ifndef QUIRE_EXPORT_H
#define QUIRE_EXPORT_H
#if defined(__GNUC__)
#define QR_EXPORT __attribute__((visibility("default")))
#else
#define QR_EXPORT
#endif
#endif
