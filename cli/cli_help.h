/* cli_help.h: every command of `quire`, its options and its help, declared
 * once (cli_help.c). `quire help CMD`, `quire CMD --help`, the man page
 * quire.1 and the bash completion are all printed from this table, so they
 * cannot disagree. */
#ifndef QR_CLI_HELP_H
#define QR_CLI_HELP_H

#include <stddef.h>
#include <stdio.h>

typedef struct qr_cli_opt {
    const char *flags; /* "-o, --output" */
    const char *arg;   /* "OUT", or NULL for a flag */
    const char *desc;
} qr_cli_opt;

typedef struct qr_cli_cmd {
    const char *name;
    const char *args;    /* the synopsis after the name */
    const char *summary; /* one line */
    const char *more;    /* a paragraph, or NULL */
    const qr_cli_opt *opts;
    size_t n_opts;
} qr_cli_cmd;

extern const qr_cli_cmd qr_cli_cmds[];
extern const size_t qr_cli_n_cmds;

/** The command named name, or NULL. */
const qr_cli_cmd *qr_cli_cmd_find(const char *name);
/** The closest command name to a mistyped one, or NULL. */
const char *qr_cli_cmd_suggest(const char *name);
/** `quire --help`: every command, one line each. */
void qr_cli_usage(FILE *f);
/** `quire help CMD` / `quire CMD --help`. */
void qr_cli_help(FILE *f, const qr_cli_cmd *c);
/** quire.1 in mdoc. */
void qr_cli_man(FILE *f);
/** quire-spec.5 in mdoc, from the schema table (schema.h). */
void qr_cli_man_spec(FILE *f);
/** A bash completion script for commands, options, kinds and formats. */
void qr_cli_completion(FILE *f);

#endif
