/* module.h: finding a module of the quire CLI (quire-pdf.so, quire-read-pdf.so)
 * and one symbol in it. Used by render/backends.c and read/pdf/load.c in
 * their QUIRE_*_MODULE builds. */
#ifndef QR_MODULE_H
#define QR_MODULE_H

/** dlopen file beside the running binary (the build tree), else in reldir
 *  from the binary's folder (an install, "../lib/quire", wherever its prefix
 *  was moved), and return its symbol, or NULL when neither has it. The
 *  module stays loaded. Not synchronised: callers run it under pthread_once. */
void *qr_module_symbol(const char *file, const char *reldir, const char *symbol);

#endif
