/* cli_help.c: the table of commands and options (cli_help.h) and what is
 * printed from it: usage, per-command help, the man pages (mdoc) and the
 * bash completion. */
#include "cli_help.h"

#include <string.h>

#include "compile_int.h"
#include "schema.h"

#define OPTS(a) a, sizeof a / sizeof a[0]

static const qr_cli_opt render_opts[] = {
    {"-o, --output", "OUT",
     "write OUT (.docx .xlsx .pptx .pdf .html .png), atomically; - writes "
     "the bytes to stdout and the JSON result to stderr"},
    {"-t, --to", "FORMAT", "the format when OUT is - (docx, xlsx, pptx, pdf, html, png)"},
    {"-k, --kind", "KIND", "the spec's kind; default from OUT's extension or the spec's shape"},
    {"--base-dir", "DIR", "folder for relative image paths (default: the spec's folder)"},
    {"--page", "N", "the page for .png (default 1)"},
    {"--pages", "all|A-B",
     "one PNG per page: OUT-1.png, OUT-2.png, ...; A-B: those pages (also a deck's or "
     "sheet's .pdf)"},
    {"--contact", NULL, "OUT.png: every slide (or the first pages) as numbered thumbnails"},
    {"--notes", NULL, "a deck's .pdf/.png: notes pages, each slide above its notes"},
    {"--dpi", "N", "PNG resolution, 10 to 1200 (default 96)"},
    {"--max-input", "BYTES", "the spec size limit (default 64 MiB)"},
    {"--read-timeout", "SECONDS",
     "the input (a pipe) must arrive whole within SECONDS, else exit 4 (default: no limit; "
     "$QUIRE_READ_TIMEOUT)"},
    {"--max-output", "BYTES", "the output size limit (default 512 MiB)"},
    {"--max-pages", "N", "--pages all|A-B writes at most N PNG files (default 100)"},
    {"--max-work", "UNITS",
     "the work budget: formulas, charts, pages (default 268435456 units, about a cell each)"},
    {"--strict", NULL, "warnings are errors (exit 1, no file): for CI"},
    {"--strict=KINDS", NULL,
     "these layout report kinds are errors (exit 1, no file), comma-separated: shrink, "
     "continued, small_text, contrast, image_upscaled, table_cut, word_broken, missing_glyph; "
     "layout: all of them; warnings: as --strict"},
    {"-h, --help", NULL, "show this help"},
};
static const qr_cli_opt check_opts[] = {
    {"-k, --kind", "KIND",
     "the spec's kind; default from its shape (slides, sheets, else document)"},
    {"--base-dir", "DIR", "folder for relative image paths (default: the spec's folder)"},
    {"--max-input", "BYTES", "the spec size limit (default 64 MiB)"},
    {"--read-timeout", "SECONDS",
     "the input (a pipe) must arrive whole within SECONDS, else exit 4 (default: no limit; "
     "$QUIRE_READ_TIMEOUT)"},
    {"--strict", NULL, "warnings are errors (exit 1)"},
    {"-h, --help", NULL, "show this help"},
};
static const qr_cli_opt fmt_opts[] = {
    {"-o, --output", "OUT", "write the canonical JSON to OUT instead of stdout"},
    {"--max-input", "BYTES", "the spec size limit (default 64 MiB)"},
    {"--read-timeout", "SECONDS",
     "the input (a pipe) must arrive whole within SECONDS, else exit 4 (default: no limit; "
     "$QUIRE_READ_TIMEOUT)"},
    {"-h, --help", NULL, "show this help"},
};
static const qr_cli_opt schema_opts[] = {
    {"-k, --kind", "KIND", "the kind (default document)"},
    {"--edit", NULL,
     "the edit payload {spec_patch, spec_append, ops} of KIND instead (spec_append's items typed)"},
    {"-h, --help", NULL, "show this help"},
};
static const qr_cli_opt fonts_opts[] = {
    {"-s, --spec", "SPEC", "every text of a spec instead of TEXT"},
    {"-k, --kind", "KIND", "the kind of SPEC"},
    {"--lang", "TAG", "a BCP 47 language tag for the font choice"},
    {"-h, --help", NULL, "show this help"},
};
#define STORE_OPTS                                                                                 \
    {"--store", "DIR|URI",                                                                         \
     "the store: a folder or a postgresql:// URI (default $QUIRE_STORE, else ./.quire); "          \
     "before or after the command"},                                                               \
        {"--owner", "O", "act for owner O: only O's artifacts exist (others: not_found)"},         \
        {"--max-artifacts", "N", "owner quota of artifacts (0: none)"},                            \
        {"--max-bytes", "BYTES", "owner quota of bytes (0: none)"},                                \
        {"--max-version-bytes", "BYTES", "the size limit of one version (0: none)"},               \
    {                                                                                              \
        "-h, --help", NULL, "show this help"                                                       \
    }
static const qr_cli_opt create_opts[] = {
    {"-k, --kind", "KIND", "the artifact's kind"},
    {"--title", "T", "its title"},
    {"--id", "ID", "its id (default: generated)"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    {"--base-dir", "DIR",
     "folder of the image files the spec names, taken into the version (default: the spec's "
     "folder)"},
    STORE_OPTS,
};
static const qr_cli_opt edit_opts[] = {
    {"--patch", "F", "an RFC 7386 merge patch (JSON file, - for stdin)"},
    {"--append", "F", "{key: [items]} appended to top-level lists"},
    {"--ops", "F", "RFC 6902 JSON Patch operations"},
    {"--if-version", "N", "write only when the head is version N (else exit 6, conflict)"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    {"--base-dir", "DIR",
     "folder of the image files the spec names, taken into the version (default: the spec's "
     "folder)"},
    STORE_OPTS,
};
static const qr_cli_opt show_opts[] = {
    {"--version", "N", "that version (default the head)"},
    {"--json", NULL, "one JSON line: the version's fields, the head and the spec"},
    STORE_OPTS,
};
static const qr_cli_opt diff_opts[] = {
    {"--unified", NULL, "print a unified diff as text"},
    STORE_OPTS,
};
static const qr_cli_opt export_opts[] = {
    {"--version", "N", "that version (default the head)"},
    {"-o, --output", "OUT", "the output file"},
    STORE_OPTS,
};
static const qr_cli_opt fsck_opts[] = {
    {"--repair", NULL, "remove what a crash left half-written"},
    STORE_OPTS,
};
static const qr_cli_opt delete_opts[] = {
    {"--if-version", "N", "only when the head is version N (else exit 6, conflict)"},
    {"--purge", NULL, "remove it at once (from the trash too), not into the trash"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    STORE_OPTS,
};
static const qr_cli_opt undelete_opts[] = {
    {"--if-version", "N", "only when the head is version N (else exit 6, conflict)"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    STORE_OPTS,
};
static const qr_cli_opt rewrite_opts[] = {
    {"--if-version", "N", "write only when the head is version N (else exit 6, conflict)"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    {"--base-dir", "DIR",
     "folder of the image files the spec names, taken into the version (default: the spec's "
     "folder)"},
    STORE_OPTS,
};
static const qr_cli_opt restore_opts[] = {
    {"--if-version", "N", "write only when the head is version N (else exit 6, conflict)"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    STORE_OPTS,
};
static const qr_cli_opt log_opts[] = {
    {"--limit", "N", "the newest N versions (0: all)"},
    STORE_OPTS,
};
static const qr_cli_opt list_opts[] = {
    {"-k, --kind", "KIND", "only this kind"},
    {"--limit", "N", "at most N (0: all)"},
    {"--cursor", "C", "the page after this one (the previous page's \"next\")"},
    {"--trash", NULL, "the artifacts in the trash instead (with \"deleted\")"},
    STORE_OPTS,
};
static const qr_cli_opt store_cmd_opts[] = {
    {"--from", "DIR", "copy: the folder store to copy"},
    {"--to", "URI", "copy: the store to copy into (a postgresql:// URI)"},
    {"--artifacts", "N|default", "quota: the owner's artifact count limit (0: none)"},
    {"--trash-retention", "SECONDS",
     "purge: what has been in the trash this long goes (default 2592000, 30 days; "
     "$QUIRE_TRASH_RETENTION)"},
    {"--bytes", "B|default", "quota: the owner's byte limit (0: none)"},
    STORE_OPTS,
};
#define READ_LIMIT_OPTS                                                                            \
    {"--max-input", "BYTES", "the file size limit (default 64 MiB)"},                              \
        {"--max-unzipped", "BYTES", "the total uncompressed size a package may claim"},            \
    {                                                                                              \
        "--max-ratio", "N", "the compression ratio past which a part is a zip bomb"                \
    }
static const qr_cli_opt read_opts[] = {
    {"--to", "spec|json|markdown|text", "what to print (default spec)"},
    {"--chunks", "N", "chunks of at most N characters, each with its heading path"},
    {"-o, --output", "OUT", "write OUT (atomically) instead of stdout"},
    READ_LIMIT_OPTS,
    {"--read-timeout", "SECONDS",
     "the input (a pipe) must arrive whole within SECONDS, else exit 4 (default: no limit; "
     "$QUIRE_READ_TIMEOUT)"},

    {"-h, --help", NULL, "show this help"},
};
static const qr_cli_opt import_opts[] = {
    {"--owner", "O", "the artifact's owner"},
    {"--title", "T", "its title (default: the file's)"},
    {"--id", "ID", "its id (default: generated)"},
    {"--key", "K", "an idempotency key: a repeat with K answers with the first result"},
    READ_LIMIT_OPTS,
    {"--read-timeout", "SECONDS",
     "the input (a pipe) must arrive whole within SECONDS, else exit 4 (default: no limit; "
     "$QUIRE_READ_TIMEOUT)"},

    {"--store", "DIR",
     "the store: a folder or a postgresql:// URI (default $QUIRE_STORE, else ./.quire)"},
    {"-h, --help", NULL, "show this help"},
};
static const qr_cli_opt help_opts[] = {
    {"--man", NULL, "print the quire.1 man page (mdoc)"},
    {"--man-spec", NULL, "print the quire-spec.5 man page of the spec language"},
    {"--completion", NULL, "print the bash completion script"},
};
static const qr_cli_opt none_opts[] = {{"-h, --help", NULL, "show this help"}};

const qr_cli_cmd qr_cli_cmds[] = {
    {"render", "SPEC|- -o OUT [options]", "compile SPEC and write OUT",
     "The format comes from OUT's extension (or --to). The result is one line of JSON on "
     "stdout: status, path, kind, mime_type, size, pages and warnings. A SPEC ending in .md "
     "is Markdown: a document, or a deck with -k presentation (or a .pptx OUT).",
     OPTS(render_opts)},
    {"check", "SPEC|- [-k KIND]", "validate a spec without rendering",
     "Prints {\"status\":\"ok\",\"kind\":...,\"errors\":[],\"warnings\":[...]}; warnings are "
     "likely mistakes (markdown in plain text, numbers sent as sheet strings).",
     OPTS(check_opts)},
    {"fmt", "SPEC|- [-o OUT]", "print the canonical JSON of SPEC", NULL, OPTS(fmt_opts)},
    {"schema", "[-k KIND] [--edit]", "print the JSON Schema (draft 2020-12) of a kind's spec",
     "Generated from the compiler's own schema table: a gateway can hand it to a model as a "
     "tool's parameters.",
     OPTS(schema_opts)},
    {"fonts", "TEXT | --spec SPEC", "show script runs, fonts and direction", NULL,
     OPTS(fonts_opts)},
    {"read", "FILE|- [--to spec|json|markdown|text] [--chunks N] [-o OUT]",
     "read a .docx, .xlsx, .pptx or .pdf back into a spec, text, markdown or chunks (a .md: "
     "the spec it stands for)",
     NULL, OPTS(read_opts)},
    {"import", "FILE [--owner O] [--title T] [--id ID] [--key K]",
     "read FILE into a new artifact of the store", NULL, OPTS(import_opts)},
    {"create", "-k KIND [--title T] [--id ID] [--owner O] SPEC|-",
     "store a new artifact (version 1)", NULL, OPTS(create_opts)},
    {"edit", "ID [--patch F] [--append F] [--ops F]", "apply an edit: a new version", NULL,
     OPTS(edit_opts)},
    {"rewrite", "ID SPEC|-", "replace the spec: a new version", NULL, OPTS(rewrite_opts)},
    {"show", "ID [--version N] [--json]", "print a version's canonical spec", NULL,
     OPTS(show_opts)},
    {"log", "ID [--limit N]", "list the versions of an artifact, newest last", NULL,
     OPTS(log_opts)},
    {"list", "[--owner O] [-k KIND] [--limit N] [--cursor C]", "list artifacts, newest first", NULL,
     OPTS(list_opts)},
    {"delete", "ID [--if-version N] [--key K] [--purge]",
     "move an artifact to the trash (purged after 30 days; --purge: at once, its quota freed)",
     NULL, OPTS(delete_opts)},
    {"undelete", "ID [--if-version N] [--key K]", "take an artifact out of the trash", NULL,
     OPTS(undelete_opts)},
    {"store", "init | copy --from DIR --to URI | quota OWNER [--artifacts N] [--bytes B] | purge",
     "create the store's tables, copy a folder store into PostgreSQL, set and show an owner's "
     "quota, or purge the trash",
     NULL, OPTS(store_cmd_opts)},
    {"diff", "ID A B [--unified]", "compare two versions", NULL, OPTS(diff_opts)},
    {"restore", "ID N [--if-version H] [--key K]", "make version N the new head", NULL,
     OPTS(restore_opts)},
    {"export", "ID [--version N] -o OUT", "render a stored version", NULL, OPTS(export_opts)},
    {"fsck", "[--repair]", "check the store", NULL, OPTS(fsck_opts)},
    {"help", "[CMD]", "show help for a command", NULL, OPTS(help_opts)},
    {"version", "", "print the version", NULL, OPTS(none_opts)},
};
const size_t qr_cli_n_cmds = sizeof qr_cli_cmds / sizeof qr_cli_cmds[0];

const qr_cli_cmd *qr_cli_cmd_find(const char *name)
{
    for (size_t i = 0; i < qr_cli_n_cmds; i++)
        if (strcmp(qr_cli_cmds[i].name, name) == 0) return &qr_cli_cmds[i];
    return NULL;
}

const char *qr_cli_cmd_suggest(const char *name)
{
    const char *names[sizeof qr_cli_cmds / sizeof qr_cli_cmds[0] + 1];
    for (size_t i = 0; i < qr_cli_n_cmds; i++)
        names[i] = qr_cli_cmds[i].name;
    names[qr_cli_n_cmds] = NULL;
    return qr_suggest(name, names);
}

void qr_cli_usage(FILE *f)
{
    fputs("usage: quire [--store DIR] COMMAND [ARGS]\n\n", f);
    for (size_t i = 0; i < qr_cli_n_cmds; i++)
        fprintf(f, "  %-8s %s\n", qr_cli_cmds[i].name, qr_cli_cmds[i].summary);
    fputs("\nquire help COMMAND (or quire COMMAND --help) shows a command's options.\n"
          "KIND: document, spreadsheet, presentation, pdf, html.\n"
          "Result: one line of JSON on stdout. Exit: 0 ok, 1 spec error, 2 usage,\n"
          "3 I/O or render failure, 4 limit or quota.\n",
          f);
}

void qr_cli_help(FILE *f, const qr_cli_cmd *c)
{
    fprintf(f, "usage: quire %s %s\n\n%s.\n", c->name, c->args, c->summary);
    if (c->more) fprintf(f, "%s\n", c->more);
    if (c->n_opts) fputs("\noptions:\n", f);
    for (size_t i = 0; i < c->n_opts; i++) {
        const qr_cli_opt *o = &c->opts[i];
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", o->flags, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-24s %s\n", head, o->desc);
    }
}

/* Text for mdoc: a line starting with '.' or '\'' would be a request, and
 * '\' escapes. */
static void roff(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'') fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else
            fputc(*s, f);
    }
}

/* "-o, --output" as .Fl items. */
static void man_flags(FILE *f, const qr_cli_opt *o)
{
    fputs(".It", f);
    const char *p = o->flags;
    while (*p) {
        const char *comma = strstr(p, ", ");
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        fprintf(f, "%s Fl %.*s", p == o->flags ? "" : " ,", (int)n - 1, p + 1);
        p += n;
        if (comma) p += 2;
    }
    if (o->arg) fprintf(f, " Ar %s", o->arg);
    fputc('\n', f);
}

void qr_cli_man(FILE *f)
{
    fputs(".Dd December 1, 2026\n.Dt QUIRE 1\n.Os\n.Sh NAME\n.Nm quire\n"
          ".Nd compile a JSON spec into docx, xlsx, pptx, pdf, html or png, and keep its versions\n"
          ".Sh SYNOPSIS\n",
          f);
    for (size_t i = 0; i < qr_cli_n_cmds; i++) {
        fprintf(f, ".Nm\n.Op Fl -store Ar DIR\n.Cm %s\n", qr_cli_cmds[i].name);
        if (*qr_cli_cmds[i].args) {
            fputs(".Li ", f);
            roff(f, qr_cli_cmds[i].args);
            fputc('\n', f);
        }
    }
    fputs(".Sh DESCRIPTION\n"
          "A spec is one JSON object (see\n.Xr quire-spec 5 ) .\n"
          "Every command prints one line of JSON on stdout; errors carry the JSON pointer of the\n"
          "value at fault, a message and a hint.\n"
          "Global options such as\n.Fl -store\ngo before or after the command.\n"
          ".Sh COMMANDS\n.Bl -tag -width Ds\n",
          f);
    for (size_t i = 0; i < qr_cli_n_cmds; i++) {
        const qr_cli_cmd *c = &qr_cli_cmds[i];
        fprintf(f, ".It Cm %s\n", c->name);
        roff(f, c->summary);
        fputs(".\n", f);
        if (c->more) {
            roff(f, c->more);
            fputc('\n', f);
        }
        if (!c->n_opts) continue;
        fputs(".Bl -tag -width Ds\n", f);
        for (size_t j = 0; j < c->n_opts; j++) {
            man_flags(f, &c->opts[j]);
            roff(f, c->opts[j].desc);
            fputc('\n', f);
        }
        fputs(".El\n", f);
    }
    fputs(".El\n.Sh ENVIRONMENT\n.Bl -tag -width Ds\n.It Ev QUIRE_STORE\n"
          "the store folder when\n.Fl -store\nis not given (default\n.Pa ./.quire ) .\n"
          ".It Ev QUIRE_READ_TIMEOUT\n"
          "seconds an input may take to arrive when\n.Fl -read-timeout\nis not given.\n"
          ".El\n.Sh EXIT STATUS\n0 ok, 1 spec error, 2 usage, 3 I/O or render failure, 4 limit "
          "or quota.\n.Sh EXAMPLES\n.Dl quire render spec.json -o report.docx\n"
          ".Dl quire check spec.json --strict\n.Dl quire schema -k presentation\n"
          ".Dl quire --store /data/q log 3f9c\n.Sh SEE ALSO\n.Xr quire-spec 5\n",
          f);
}

void qr_cli_man_spec(FILE *f)
{
    fputs(".Dd December 1, 2026\n.Dt QUIRE-SPEC 5\n.Os\n.Sh NAME\n.Nm quire-spec\n"
          ".Nd the JSON spec language of quire\n.Sh DESCRIPTION\n"
          "A spec is one JSON object. Text is literal: markdown is not interpreted (and gets a\n"
          "warning). An unknown key anywhere is an error naming its path.\n"
          "Keys marked (ext) are quire's extensions.\n"
          "The same table prints the JSON Schema:\n.Dl quire schema -k KIND\n"
          ".Sh OBJECTS\n.Bl -tag -width Ds\n",
          f);
    for (int id = 0; id < QR_SO_COUNT; id++) {
        const qr_sobj *o = &qr_schema_objs[id];
        fprintf(f, ".It Sy %s\n", o->name);
        if (o->desc) {
            roff(f, o->desc);
            fputs(".\n", f);
        }
        fputs(".Bl -tag -width Ds -compact\n", f);
        for (size_t k = 0; k < o->n_keys; k++) {
            const qr_skey *key = &o->keys[k];
            fprintf(f, ".It Li %s\n", key->name);
            if (key->flags & QR_SK_REQUIRED) fputs("required. ", f);
            if (key->flags & QR_SK_EXT) fputs("(ext) ", f);
            if (key->desc) roff(f, key->desc);
            if (key->flags || key->desc) fputc('\n', f);
        }
        fputs(".El\n", f);
    }
    fputs(".El\n.Sh BLOCK TYPES\n", f);
    for (size_t i = 0; i < qr_schema_n_blocks; i++)
        fprintf(f, ".Li %s%s\n", qr_schema_blocks[i].name, i + 1 < qr_schema_n_blocks ? " ," : "");
    fputs(".Sh SEE ALSO\n.Xr quire 1\n", f);
}

void qr_cli_completion(FILE *f)
{
    fputs("# bash completion for quire (generated by quire help --completion)\n"
          "_quire() {\n"
          "    local cur prev cmd i\n"
          "    cur=${COMP_WORDS[COMP_CWORD]}\n"
          "    prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    cmd=\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        case ${COMP_WORDS[i]} in\n"
          "        --store) ((i++)) ;;\n"
          "        -*) ;;\n"
          "        *) cmd=${COMP_WORDS[i]}; break ;;\n"
          "        esac\n"
          "    done\n"
          "    case $prev in\n"
          "    -k|--kind) COMPREPLY=($(compgen -W 'document spreadsheet presentation pdf html' "
          "-- \"$cur\")); return ;;\n"
          "    -t|--to) COMPREPLY=($(compgen -W 'docx xlsx pptx pdf html png' -- \"$cur\")); "
          "return ;;\n"
          "    --store|--base-dir) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n"
          "    esac\n"
          "    if [[ -z $cmd ]]; then\n"
          "        COMPREPLY=($(compgen -W '--store --help --version",
          f);
    for (size_t i = 0; i < qr_cli_n_cmds; i++)
        fprintf(f, " %s", qr_cli_cmds[i].name);
    fputs("' -- \"$cur\"))\n        return\n    fi\n    case $cmd in\n", f);
    for (size_t i = 0; i < qr_cli_n_cmds; i++) {
        const qr_cli_cmd *c = &qr_cli_cmds[i];
        fprintf(f, "    %s) COMPREPLY=($(compgen -W '", c->name);
        if (strcmp(c->name, "help") == 0)
            for (size_t j = 0; j < qr_cli_n_cmds; j++)
                fprintf(f, "%s ", qr_cli_cmds[j].name);
        for (size_t j = 0; j < c->n_opts; j++) {
            const char *p = c->opts[j].flags;
            while (*p) {
                const char *comma = strstr(p, ", ");
                size_t n = comma ? (size_t)(comma - p) : strlen(p);
                fprintf(f, "%.*s ", (int)n, p);
                p += n + (comma ? 2 : 0);
            }
        }
        fputs("' -- \"$cur\")) ;;\n", f);
    }
    fputs("    esac\n    [[ $cur == -* ]] || COMPREPLY+=($(compgen -f -- \"$cur\"))\n}\n"
          "complete -F _quire quire\n",
          f);
}
