/* xlsx.c: the .xlsx backend (SpreadsheetML), qr_backend_xlsx.
 *
 * Lays out the package and lets the packager pull the big parts:
 *
 *     xl/workbook.xml            sheets, autofilter names, calcPr (ready part)
 *     xl/worksheets/sheetN.xml   one per sheet, streamed row by row
 *     xl/styles.xml              streamed after the sheets (cellXfs in first-use order)
 *     xl/sharedStrings.xml       streamed after the sheets (count/uniqueCount known)
 *     xl/commentsN.xml, xl/drawings/vmlDrawingN.vml   a sheet's comments (xlsx_notes.c)
 *     xl/tables/tableN.xml       a sheet's Excel tables (xlsx_table.c)
 *
 * A spec with no sheets gets one empty "Sheet1" (as DocsGPT). Rendering
 * never copies the tree: memory beyond the parsed spec is the string and
 * style tables and a few blocks of XML in flight (see xlsx_sheet.c).
 */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "package.h"
#include "style.h"
#include "xlsx_int.h"

/* Excel's grid is 1,048,576 rows by 16,384 columns: a bigger sheet is a
 * limit error naming the sheet, not a file Excel refuses. */
static qr_status check_grid(qr_render_ctx *ctx, const qr_sheet *sh)
{
    if (sh->n_rows > QR_XLSX_MAX_ROWS)
        return qr_errlist_addf(
            ctx->errors, QR_E_LIMIT, sh->path ? sh->path : "", "split the rows over several sheets",
            "the sheet has %zu rows; Excel allows at most %u", sh->n_rows, QR_XLSX_MAX_ROWS);
    if (sh->n_cols > QR_XLSX_MAX_COLS)
        return qr_errlist_addf(ctx->errors, QR_E_LIMIT, sh->path ? sh->path : "",
                               "split the columns over several sheets",
                               "the sheet has %zu columns; Excel allows at most %u", sh->n_cols,
                               QR_XLSX_MAX_COLS);
    return QR_OK;
}

static qr_status xlsx_render(qr_render_ctx *ctx, qr_sink *out)
{
    const qr_doc *doc = ctx->doc;
    static const qr_sheet empty_sheet = {.name = "Sheet1", .path = "/sheets"};
    const qr_sheet *sheets = doc->sheets;
    size_t n = doc->n_sheets;
    if (n == 0 || !sheets) {
        sheets = &empty_sheet;
        n = 1;
    }
    for (size_t i = 0; i < n; i++) {
        qr_status st = check_grid(ctx, &sheets[i]);
        if (st != QR_OK) return st;
    }

    qr_status st = QR_OK;
    size_t n_charts = 0, n_tables = 0;
    qr_xlsx_sst sst;
    qr_xlsx_styles styles;
    int have_sst = 0, have_styles = 0;
    qr_xlsx_sheet *ws = calloc(n, sizeof *ws);
    qr_package *p = qr_package_new();
    qr_package_set_threads(p, ctx->threads);
    qr_buf wb = {0};
    qr_xlsx_feed *feed = NULL; /* the rows of a streamed workbook (xlsx_stream.c) */
    if (!ws || !p || qr_xlsx_sst_init(&sst) != 0) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    have_sst = 1;
    int streamed = ctx->rows_src && sheets == doc->sheets && sheets[0].streamed;
    sst.copy = streamed; /* rows come and go: the table keeps its strings */
    if (qr_xlsx_styles_init(&styles, doc->formats, doc->n_formats) != 0) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    have_styles = 1;
    qr_xlsx_styles_theme(&styles, doc);
    styles.fits = ctx->sheet_fits;
    /* the charts in the theme's accent and palette, in a light theme's ink: sheets are white */
    qr_style theme = qr_style_of(doc), ink = qr_style_sheet(&theme);
    if (streamed && !(feed = qr_xlsx_feed_new(sheets, n, ctx->rows_src, &sst, &styles))) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }

    int own = sheets == doc->sheets; /* the names point into doc's sheets */
    if ((st = qr_xlsx_workbook_write(sheets, n, own ? doc->names : NULL, own ? doc->n_names : 0,
                                     &wb)) != QR_OK)
        goto done;
    size_t wb_len;
    char *wb_data = qr_buf_steal(&wb, &wb_len);
    if ((st = qr_package_add_part(p, "xl/workbook.xml", QR_CT_XLSX_WORKBOOK, wb_data, wb_len)))
        goto done;
    if (!qr_package_rel(p, "", QR_REL_OFFICE_DOCUMENT, "xl/workbook.xml", 0)) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        char name[64], target[64];
        snprintf(name, sizeof name, "xl/worksheets/sheet%zu.xml", i + 1);
        snprintf(target, sizeof target, "worksheets/sheet%zu.xml", i + 1);
        qr_xlsx_sheet_init(&ws[i], &sheets[i], i == 0, &sst, &styles);
        if ((st = feed ? qr_package_add_stream(p, name, QR_CT_XLSX_WORKSHEET, qr_xlsx_feed_fill,
                                               qr_xlsx_feed_part(feed, i))
                       : qr_package_add_stream(p, name, QR_CT_XLSX_WORKSHEET, qr_xlsx_sheet_fill,
                                               &ws[i])))
            goto done;
        /* rId1.. in sheet order, as workbook.xml refers to them */
        if (!qr_package_rel(p, "xl/workbook.xml", QR_REL_WORKSHEET, target, 0)) {
            st = qr_fail(QR_E_NOMEM);
            goto done;
        }
        if ((st = qr_xlsx_add_charts(p, &sheets[i], i + 1, &n_charts, ctx->epoch, &ink)) ||
            (st = qr_xlsx_add_notes(p, &sheets[i], i + 1, doc->author)) ||
            (st = qr_xlsx_add_tables(p, &sheets[i], i + 1, &n_tables)))
            goto done;
    }
    if ((st = qr_package_add_stream(p, "xl/styles.xml", QR_CT_XLSX_STYLES, qr_xlsx_styles_fill,
                                    &styles)) ||
        (st = qr_package_add_stream(p, "xl/sharedStrings.xml", QR_CT_XLSX_SST, qr_xlsx_sst_fill,
                                    &sst)))
        goto done;
    if (!qr_package_rel(p, "xl/workbook.xml", QR_REL_STYLES, "styles.xml", 0) ||
        !qr_package_rel(p, "xl/workbook.xml", QR_REL_SHARED_STRINGS, "sharedStrings.xml", 0)) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    if (doc->title.n && (st = qr_package_set_title(p, qr_plain(&doc->title)))) goto done;
    st = qr_package_write(p, ctx->epoch, out);
    if (st != QR_OK) {
        /* A sheet that failed says why (out of memory, mostly). */
        for (size_t i = 0; i < n; i++)
            if (ws[i].status != QR_OK) st = ws[i].status;
    }
    qr_xlsx_feed_free(feed); /* before the tables it writes into go */
    feed = NULL;

done:
    qr_xlsx_feed_free(feed);
    if (ws)
        for (size_t i = 0; i < n; i++)
            qr_xlsx_sheet_fini(&ws[i]);
    if (st == QR_E_NOMEM && ctx->errors->count == 0)
        qr_errlist_add(ctx->errors, QR_E_NOMEM, "", "out of memory while writing the workbook",
                       "free memory or split the workbook");
    qr_package_free(p);
    qr_buf_free(&wb);
    if (have_styles) qr_xlsx_styles_free(&styles);
    if (have_sst) qr_xlsx_sst_free(&sst);
    free(ws);
    ctx->pages = (int)n;
    return st;
}

const qr_backend qr_backend_xlsx = {
    .name = "xlsx",
    .format = QR_FORMAT_XLSX,
    .render = xlsx_render,
};
