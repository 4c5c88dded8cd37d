/* schema.h: the spec language's schema table, declared once (schema_table.c).
 *
 * Every object of the language (a document, a heading block, a run, a
 * sheet cell...) is one qr_sobj: its keys in canonical order, which are
 * required, which are quire's extensions beyond DocsGPT's language, the
 * JSON Schema of each value and a short description. Three users read it:
 *  - the compiler (compile_*.c) checks keys against it (qr_cc_check_obj),
 *    so an unknown key there is an unknown key everywhere;
 *  - canonical JSON (canonical.c) orders keys by it and finds the object a
 *    member's value holds through qr_skey.child;
 *  - `quire schema` / qr_schema() (schema.c) export it as JSON Schema
 *    (draft 2020-12).
 * The compiler still owns the meaning of values (ranges, formats, files);
 * the table's value schemas say as much of that as JSON Schema can.
 */
#ifndef QR_SCHEMA_H
#define QR_SCHEMA_H

#include <stddef.h>

#include "buf.h"
#include <quire/error.h>
#include "tree.h"

typedef enum qr_sobj_id {
    QR_SO_NONE = -1,
    /* document, pdf, html */
    QR_SO_DOCUMENT,
    QR_SO_PAGE,
    QR_SO_MARGINS,
    QR_SO_SECTION,
    QR_SO_HEADING,
    QR_SO_PARAGRAPH,
    QR_SO_LIST,
    QR_SO_TABLE,
    QR_SO_CODE,
    QR_SO_IMAGE,
    QR_SO_PAGE_BREAK,
    QR_SO_RUN,
    QR_SO_ITEM,
    QR_SO_TCELL,       /* a table cell object {text|runs} */
    QR_SO_CHART,       /* a chart block */
    QR_SO_SLIDE_CHART, /* a slide's "chart" ("type" optional) */
    QR_SO_SERIES,      /* one series of a chart */
    QR_SO_SHEET_CHART, /* a sheet's chart: a chart anchored at a cell */
    QR_SO_PROPS,       /* a document's "properties" */
    QR_SO_QUOTE,
    QR_SO_CALLOUT,
    QR_SO_RULE,
    QR_SO_TOC,
    /* presentation */
    QR_SO_DECK,
    QR_SO_SLIDE,
    QR_SO_SLIDE_IMAGE,
    QR_SO_SLIDE_TABLE,
    QR_SO_STAT,   /* one value of a stats slide */
    QR_SO_COLUMN, /* a column of a two_content or comparison slide */
    /* spreadsheet */
    QR_SO_WORKBOOK,
    QR_SO_SHEET,
    QR_SO_CELL,   /* a sheet cell object {value|date|formula, format} */
    QR_SO_ROW,    /* a sheet row object {style, cells} */
    QR_SO_STYLE,  /* a named cell style of the workbook's "styles" */
    QR_SO_BORDER, /* a border per side */
    QR_SO_COND,   /* a conditional format of a sheet's "conditional" */
    QR_SO_VALID,  /* a data validation of a sheet's "validation" */
    QR_SO_XTABLE, /* an Excel table of a sheet's "tables" */
    QR_SO_PRINT,  /* a sheet's "print" setup */
    QR_SO_HF,     /* a print header or footer by section */
    /* the edit payload */
    QR_SO_EDIT,
    QR_SO_OP,
    /* Markdown (markdown.h): a block compiled into the blocks its text stands for */
    QR_SO_MARKDOWN,
    QR_SO_COUNT,
    /* not an object of its own: "any block", one of qr_schema_blocks (canonical
     * order is the union of the block types' keys) */
    QR_SO_BLOCK = 1000
} qr_sobj_id;

enum {
    QR_SK_REQUIRED = 1, /* the compiler reports it missing */
    QR_SK_EXT = 2       /* quire's extension: not in DocsGPT's language */
};

/* The most keys one object has (check_keys builds name lists on the stack). */
#define QR_SCHEMA_MAX_KEYS 24

typedef struct qr_skey {
    const char *name;
    unsigned flags;
    int child;                 /* the qr_sobj_id the value holds (through arrays), or QR_SO_NONE */
    const char *schema;        /* JSON Schema of the value, JSON text; NULL for a block's "type"
                                  or a key with values */
    const char *desc;          /* short: it goes into tool definitions */
    const char *const *values; /* the allowed strings, NULL-terminated ({"enum": ...} in the
                                  exported schema), or NULL */
} qr_skey;

typedef struct qr_sobj {
    const char *name;  /* the $defs name ("heading") */
    const char *desc;  /* what the object is */
    const char *extra; /* JSON text merged into the object's schema (oneOf...), or NULL */
    const qr_skey *keys;
    size_t n_keys;
} qr_sobj;

/* One entry per qr_block_type, in enum order (static-asserted), then the
 * blocks that are no tree type of their own ("markdown": compiled into the
 * blocks it stands for, at its place; qr_schema_block_markdown is its index). */
typedef struct qr_sblock {
    const char *name; /* "heading", the value of "type" */
    qr_sobj_id obj;
} qr_sblock;

/* The allowed values of the language's enumerated keys, NULL-terminated and
 * in the order of the tree's enums: the one list the compiler checks a value
 * against (with its did-you-mean), the exported schema lists and the hints
 * name. (Theme names: qr_theme_names, tree.h, defined with these.) */
extern const char *const qr_enum_chart_types[];  /* qr_chart_type order */
extern const char *const qr_enum_legends[];      /* qr_legend order */
extern const char *const qr_enum_layouts[];      /* qr_layout order */
extern const char *const qr_enum_orientations[]; /* qr_sheet_print.orientation - 1 */
extern const char *const qr_enum_papers[];       /* qr_print_paper - 1 */

/** values joined for a message into buf: "a, b, c" + last + "d" (last is
 *  ", " or " or "), each in double quotes when quoted. */
void qr_enum_list(const char *const *values, int quoted, const char *last, char *buf, size_t size);

extern const qr_sobj qr_schema_objs[QR_SO_COUNT];
extern const qr_sblock qr_schema_blocks[];
extern const size_t qr_schema_n_blocks;
extern const int qr_schema_block_markdown;
/* JSON Schema $defs that are not objects (a run: a string or a run object...):
 * name and JSON text, NULL-terminated. */
extern const char *const qr_schema_defs[][2];

/** The object's key names in order, NULL-terminated, into names (at least
 *  QR_SCHEMA_MAX_KEYS + 1 slots). Returns the count. */
size_t qr_schema_names(qr_sobj_id id, const char **names);
/** The key named key of object id, or NULL. */
const qr_skey *qr_schema_key(qr_sobj_id id, const char *key);
/** The block type named name, or -1. */
int qr_schema_block(const char *name);
/** The top-level object of a kind. */
qr_sobj_id qr_schema_top(qr_kind kind);

/* What qr_schema_json exports. */
typedef enum qr_schema_what {
    QR_SCHEMA_KIND, /* the spec of kind */
    QR_SCHEMA_EDIT  /* the edit payload {spec_patch, spec_append, ops} of kind: spec_append's
                       lists are the kind's top-level lists, their items typed */
} qr_schema_what;

/** The JSON Schema (draft 2020-12) of a kind's spec or of the edit
 *  payload, pretty-printed with a trailing newline, into out. */
qr_status qr_schema_json(qr_schema_what what, qr_kind kind, qr_buf *out, qr_errlist *errs);

#endif
