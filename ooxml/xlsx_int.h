/* xlsx_int.h: what the .xlsx backend's files share (never installed).
 *
 * The backend (xlsx.c) lays out the package:
 *
 *     xl/workbook.xml                 ready part (xlsx_workbook.c)
 *     xl/worksheets/sheetN.xml        streamed, one per sheet (xlsx_sheet.c)
 *     xl/styles.xml                   streamed after the sheets (xlsx_styles.c)
 *     xl/sharedStrings.xml            streamed after the sheets (xlsx_sst.c)
 *
 * Styles and shared strings come after the sheets because the sheets fill
 * them: a cell format combination gets its cellXfs index, and a text its
 * shared-string index, the first time a cell uses it (the packager produces
 * parts in the order added; see package.h). Both orders are first use in
 * sheet, row, column order, so the same spec gives the same bytes.
 */
#ifndef QR_XLSX_INT_H
#define QR_XLSX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "backend.h"
#include "buf.h"
#include <quire/error.h>
#include "package.h"
#include "tree.h"

#define QR_NS_SML "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
#define QR_CT_XLSX_WORKBOOK                                                                        \
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
#define QR_CT_XLSX_WORKSHEET                                                                       \
    "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
#define QR_CT_XLSX_STYLES "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
#define QR_CT_XLSX_SST                                                                             \
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"

/* Excel's grid. */
#define QR_XLSX_MAX_ROWS 1048576u
#define QR_XLSX_MAX_COLS 16384u

/* ---- xlsx_sst.c: shared strings ------------------------------------------------ */

/* One distinct string; s points into the tree's strings (never copied). */
typedef struct qr_xlsx_sst_item {
    const char *s;
    uint32_t len;
    uint32_t hash;
} qr_xlsx_sst_item;

/* Shared strings: an open-addressing hash table (FNV-1a, linear probing)
 * whose slots hold item index + 1 (0 = free). Items are kept in the order
 * first added, which is the <si> order. */
typedef struct qr_xlsx_sst {
    qr_xlsx_sst_item *items;
    uint32_t n, cap;
    uint32_t *slots;
    uint32_t mask;  /* slot count - 1 (a power of two) */
    uint64_t count; /* references, for <sst count> */
    /* streaming cursor (qr_xlsx_sst_fill) */
    uint32_t next;
    int started;
    int copy;      /* keep a copy of each distinct string (a streamed workbook) */
    qr_arena pool; /* the copies */
} qr_xlsx_sst;

/** An empty table. Returns 0 or -1 on OOM. */
int qr_xlsx_sst_init(qr_xlsx_sst *s);
void qr_xlsx_sst_free(qr_xlsx_sst *s);
/** The index of str (added when new), counting one reference; -1 on OOM. */
int64_t qr_xlsx_sst_add(qr_xlsx_sst *s, const char *str, uint32_t len);
/** FNV-1a, 32 bits. */
uint32_t qr_xlsx_hash(const char *s, size_t len);
/** qr_part_fill for xl/sharedStrings.xml (ctx: the qr_xlsx_sst). */
qr_status qr_xlsx_sst_fill(void *ctx, qr_buf *chunk, int *done);

/** Append text as an ST_Xstring: sanitised and XML-escaped (qr_xml_escape),
 *  and a literal "_xHHHH_" protected as "_x005F_xHHHH_", so Excel does not
 *  decode it into another character. Returns 0 or -1 on OOM. */
int qr_xlsx_escape(qr_buf *b, const char *text, size_t len);

/* ---- xlsx_print.c: a sheet's print setup ---------------------------------------- */

/** <printOptions>, <pageMargins> (Excel's defaults without a print setup),
 *  <pageSetup> and <headerFooter> of sh, in the worksheet's order. */
void qr_xlsx_write_print(qr_buf *b, const qr_sheet *sh);
/** A header's or footer's sections (left, center, right; NULL none) as
 *  Excel's code text ("&CPage &P of &N"), not yet XML-escaped. */
void qr_xlsx_hf_code(qr_buf *b, const char *const sec[3]);

/* ---- xlsx_styles.c: number formats and cellXfs ---------------------------------- */

/* Flags of a cell's xf besides its number format. */
enum {
    QR_XLSX_BOLD = 1,  /* header row: font 1 (bold) */
    QR_XLSX_QUOTE = 2, /* text starting with = + - @ tab CR LF: quotePrefix="1" */
    QR_XLSX_WRAP = 4   /* text with a newline: <alignment wrapText="1"/> */
};

/* One cellXfs entry: a number format, flags and a look (its fmt unused). */
typedef struct qr_xlsx_xf {
    uint32_t fmt, flags;
    qr_cellstyle look;
} qr_xlsx_xf;

typedef struct qr_xlsx_styles {
    const char *const *formats; /* doc->formats */
    size_t n_formats;
    int32_t *xf_of;  /* [n_formats * 8]: (fmt, flags) with no look -> xf index, -1 = unused yet */
    qr_xlsx_xf *xfs; /* xf index -> its entry; xf 0 is General, no flags, no look */
    uint32_t n_xf, cap_xf;
    uint32_t *lslots; /* xfs with a look: open addressing, xf index + 1, 0 = free */
    uint32_t n_lslots;
    const qr_doc *doc;          /* the looks (qr_sheet_cell_style), or NULL: the header row bold */
    struct qr_sheet_fits *fits; /* the render's autofit widths (sheet_fit.h), or NULL */
    uint32_t theme[5];          /* the theme's colours of qr_sx_slot, 0xRRGGBB */
    uint32_t *numfmt_id;        /* [n_formats]: numFmtId, 0 = not assigned yet */
    uint32_t *custom;           /* custom format indexes in id order (ids 164, 165, ...) */
    uint32_t n_custom;
    int oom;
} qr_xlsx_styles;

int qr_xlsx_styles_init(qr_xlsx_styles *st, const char *const *formats, size_t n_formats);
void qr_xlsx_styles_free(qr_xlsx_styles *st);
/** Take doc's looks and its theme's colours (the built-in styles' slots). */
void qr_xlsx_styles_theme(qr_xlsx_styles *st, const qr_doc *doc);
/** The cellXfs index for number format fmt (index into formats; out of
 *  range counts as General) with flags, assigned on first use. On OOM
 *  returns 0 and sets st->oom. */
uint32_t qr_xlsx_style_xf(qr_xlsx_styles *st, uint32_t fmt, unsigned flags);
/** The <dxf> index of a conditional format's look: the distinct looks of
 *  the workbook's rules in sheet and rule order (styles.xml's <dxfs>). */
uint32_t qr_xlsx_dxf_id(const qr_xlsx_styles *st, unsigned look);
/** The same with a look (NULL or one that sets nothing: none); the look's
 *  own number format is the caller's to pass as fmt. */
uint32_t qr_xlsx_style_xf_look(qr_xlsx_styles *st, uint32_t fmt, unsigned flags,
                               const qr_cellstyle *look);
/** The numFmtId of a format: 0 General, a built-in id for the few codes
 *  every locale shows the same way ("0", "0.00", "#,##0", "#,##0.00", "0%",
 *  "0.00%", "0.00E+00", "@"), else 164 + n in first-use order. */
uint32_t qr_xlsx_numfmt_id(qr_xlsx_styles *st, uint32_t fmt);
/** Write xl/styles.xml. */
qr_status qr_xlsx_styles_write(const qr_xlsx_styles *st, qr_buf *out);
/** qr_part_fill for xl/styles.xml (ctx: the qr_xlsx_styles). */
qr_status qr_xlsx_styles_fill(void *ctx, qr_buf *chunk, int *done);

/* ---- xlsx_sheet.c: one worksheet, streamed -------------------------------------- */

typedef struct qr_xlsx_producer qr_xlsx_producer;

typedef struct qr_xlsx_sheet {
    const qr_sheet *sh;
    int first; /* the first sheet: tabSelected */
    qr_xlsx_sst *sst;
    qr_xlsx_styles *styles;
    /* streaming cursor */
    int stage; /* 0 head, 1 rows, 2 tail, 3 done */
    size_t next_row;
    qr_status status;
    qr_xlsx_producer *prod; /* the XML-producing thread of a big sheet, or NULL */
    int threaded;           /* allow a producer thread for big sheets */
} qr_xlsx_sheet;

/** A sheet writer over sh, filling sst and styles. */
struct qr_style;
/** xlsx_chart.c: the drawing part of sheet sheet_no (1-based) holding its
 *  charts (numbered on from *chart_no), related from the sheet as rId1;
 *  drawn in the ink of st on a sheet's white (NULL: the plain theme). */
qr_status qr_xlsx_add_charts(qr_package *p, const qr_sheet *sh, size_t sheet_no, size_t *chart_no,
                             long long epoch, const struct qr_style *st);
/** xlsx_notes.c: the relationships of sheet sheet_no's links (external
 *  ones) and comments, its xl/commentsN.xml (author: NULL for "quire") and
 *  xl/drawings/vmlDrawingN.vml; after qr_xlsx_add_charts. */
qr_status qr_xlsx_add_notes(qr_package *p, const qr_sheet *sh, size_t sheet_no, const char *author);
/** The relationships a sheet's links and comments take (after the charts'). */
unsigned qr_xlsx_notes_rels(const qr_sheet *sh);
/** xlsx_table.c: the parts of sheet sheet_no's tables, xl/tables/tableN.xml
 *  (numbered on from *table_no), related from the sheet after its notes. */
qr_status qr_xlsx_add_tables(qr_package *p, const qr_sheet *sh, size_t sheet_no, size_t *table_no);
/** The sheet's <tableParts>, or nothing. */
void qr_xlsx_write_table_parts(qr_buf *b, const qr_sheet *sh);
/** The sheet's <hyperlinks> (nothing when it has no link). */
void qr_xlsx_write_hyperlinks(qr_buf *b, const qr_sheet *sh);
/** The sheet's <legacyDrawing> (its comments' shapes), or nothing. */
void qr_xlsx_write_legacy_drawing(qr_buf *b, const qr_sheet *sh);
void qr_xlsx_sheet_init(qr_xlsx_sheet *w, const qr_sheet *sh, int first, qr_xlsx_sst *sst,
                        qr_xlsx_styles *styles);
/** Stop and join a producer thread if one still runs. */
void qr_xlsx_sheet_fini(qr_xlsx_sheet *w);
/** qr_part_fill for xl/worksheets/sheetN.xml (ctx: the qr_xlsx_sheet). */
qr_status qr_xlsx_sheet_fill(void *ctx, qr_buf *chunk, int *done);

/** Append the XML of one row (0-based index r), <row r="r+1">...</row>, or
 *  nothing when the row has no non-empty cell. bold: the header row. */
int qr_xlsx_write_row(qr_buf *b, const qr_row *row, size_t r, int bold, qr_xlsx_sst *sst,
                      qr_xlsx_styles *styles);
/** The same for a row of sheet sh, each cell in its look (styles->doc's:
 *  column, row, header and cell styles merged). */
int qr_xlsx_write_sheet_row(qr_buf *b, const qr_sheet *sh, const qr_row *row, size_t r,
                            qr_xlsx_sst *sst, qr_xlsx_styles *styles);
/** Append the worksheet's elements before <sheetData> (declaration included). */
int qr_xlsx_write_sheet_head(qr_buf *b, const qr_sheet *sh, int first);
/** The same, with the number formats (doc->formats) the autofit measures
 *  numbers and dates with (qr_xlsx_write_sheet_head: General only). */
int qr_xlsx_write_sheet_head_fmt(qr_buf *b, const qr_sheet *sh, int first,
                                 const char *const *formats, size_t n_formats);
/** The same with the styles table: column styles get their xf. */
int qr_xlsx_write_sheet_head_st(qr_buf *b, const qr_sheet *sh, int first, qr_xlsx_styles *styles);
/** Append </sheetData> and the elements after it, closing </worksheet>. */
int qr_xlsx_write_sheet_tail(qr_buf *b, const qr_sheet *sh, const qr_xlsx_styles *st);

/** A column name: 0 -> "A", 25 -> "Z", 26 -> "AA". buf: 4+ bytes. Returns the length. */
int qr_xlsx_col_name(uint32_t col, char *buf);
/** A cell reference "B12" (0-based col, row). buf: 16+ bytes. Returns the length. */
int qr_xlsx_cell_ref(uint32_t col, size_t row, char *buf);
/** Shortest round-trip text of a double, exactly as qr_fmt_double, with an
 *  inline path for integers (the hot loop). buf: 32 bytes. */
int qr_xlsx_fmt_num(double v, char *buf);
/** The autofilter / used range of a sheet, "A1:J100001"; "" when it has no cells. */
void qr_xlsx_used_range(const qr_sheet *sh, char *buf, size_t size);
/** The autofilter range of a sheet ("A1:F200"), "" when it has none: its
 *  "autofilter", else the used range when it has a header. size: 32+. */
void qr_xlsx_filter_range(const qr_sheet *sh, char *buf, size_t size);
/** Whether a text must keep Excel's quote prefix (it starts with = + - @,
 *  tab, CR or LF, so an editor would otherwise take it as a formula). */
int qr_xlsx_needs_quote(const char *s, size_t len);

/* ---- xlsx_stream.c: the sheets of a streamed workbook ---------------------------- */

/* Every sheet of a workbook whose rows stream (tree.h's qr_sheet.streamed)
 * is written by one thread that reads the spec again (ctx->rows_src) and
 * writes each sheet's XML, in sheet order, into a ring of blocks per
 * sheet; the packager takes them in order. The sheet bytes are those of
 * the tree path (same head, rows and tail), so the file is too. */
typedef struct qr_xlsx_feed qr_xlsx_feed;

qr_xlsx_feed *qr_xlsx_feed_new(const qr_sheet *sheets, size_t n, const qr_row_source *src,
                               qr_xlsx_sst *sst, qr_xlsx_styles *styles);
/** Stop the thread if it still runs, and free. NULL is allowed. */
void qr_xlsx_feed_free(qr_xlsx_feed *f);
/** The fill context of sheet i (for qr_xlsx_feed_fill). */
void *qr_xlsx_feed_part(qr_xlsx_feed *f, size_t i);
/** qr_part_fill for xl/worksheets/sheetN.xml of a streamed workbook. */
qr_status qr_xlsx_feed_fill(void *ctx, qr_buf *chunk, int *done);

/* Widths of columns without one and row heights: layout/sheet_fit.h, shared
 * with the sheet preview. */

/* ---- xlsx_workbook.c ------------------------------------------------------------------ */

/** Write xl/workbook.xml: bookViews, sheets (r:id rId1.. in sheet order),
 *  definedNames (_xlnm._FilterDatabase of each sheet with a header),
 *  calcPr fullCalcOnLoad. */
/* names: the workbook's defined names (NULL, 0: none). */
qr_status qr_xlsx_workbook_write(const qr_sheet *sheets, size_t n, const qr_name *names,
                                 size_t n_names, qr_buf *out);

#endif
