/* cli_read.h: the `quire read` and `quire import` commands. */
#ifndef QR_CLI_READ_H
#define QR_CLI_READ_H

/** quire read FILE [--to spec|json|markdown|text] [--chunks N] [-o OUT] ... */
int qr_cli_read_cmd(int argc, char **argv);
/** quire import FILE [--owner O] [--title T] [--id ID] [--store DIR] */
int qr_cli_import(int argc, char **argv);

#endif
