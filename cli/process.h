/* process.h: the settings the quire command makes for its whole process
 * (process.c), kept in one place with their reasons. libquire makes none of
 * them: a host of the library keeps its own. */
#ifndef QR_CLI_PROCESS_H
#define QR_CLI_PROCESS_H

#include <quire/quire.h>

/** At start: the time zone, the heap's growth and trimming, the font cache. */
void qr_cli_process_start(void);
/** Once the command is known: jansson's region allocator for the commands
 *  that parse specs. */
void qr_cli_process_command(const char *cmd);
/** Once the output format is known: the heap's mmap threshold for PDF and
 *  PNG work. */
void qr_cli_process_format(qr_format fmt);

/** The render options the environment sets for tests and benchmarks (the
 *  library reads no environment): QUIRE_THREADS=N (or the older
 *  QUIRE_PDF_THREADS / QUIRE_PACKAGE_THREADS) -> threads, QUIRE_XLSX_STREAM
 *  = 0 | 1 | all -> xlsx_stream. */
void qr_cli_process_render_opts(qr_render_opts *o);
/** QUIRE_PDF_FACE_TRACE=1: one line on stderr with the faces a two-thread
 *  PDF render pinned before and by its threads (res->stats). */
void qr_cli_process_trace(const qr_result *res);

#endif
