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

#endif
