/* xlsx_table.c: a sheet's Excel tables (qr_sheet.tables, ListObjects).
 *
 * Each table is a part xl/tables/tableN.xml (N counts the workbook's
 * tables, and is its id): its range (with the totals row, when it has
 * one), the autofilter over its header and data rows, a column per header
 * text (Excel repairs a file whose column names differ from the header
 * cells: the compiler took them from the cells), each column's totals
 * function or label, and the table style. The worksheet lists them in
 * <tableParts>, related after its charts and notes (xlsx_notes.c). The
 * totals row's cells are in the sheet's rows already (compile_sheet.c). */
#include <stdio.h>
#include <string.h>

#include "xlsx_int.h"
#include "xml.h"

#define CT_TABLE "application/vnd.openxmlformats-officedocument.spreadsheetml.table+xml"
#define REL_TABLE QR_REL_BASE "table"

static const char *const fn_names[] = {NULL, "sum", "average", "count", "countNums", "min", "max"};

static unsigned first_rel(const qr_sheet *sh)
{
    return (sh->n_charts ? 2u : 1u) + qr_xlsx_notes_rels(sh);
}

void qr_xlsx_write_table_parts(qr_buf *b, const qr_sheet *sh)
{
    if (!sh->n_tables) return;
    qr_buf_printf(b, "<tableParts count=\"%zu\">", sh->n_tables);
    for (size_t i = 0; i < sh->n_tables; i++)
        qr_buf_printf(b, "<tablePart r:id=\"rId%zu\"/>", first_rel(sh) + i);
    qr_buf_puts(b, "</tableParts>");
}

static void put_range(qr_buf *b, uint32_t c0, uint32_t r0, uint32_t c1, uint32_t r1)
{
    char a[16], z[16];
    qr_xlsx_cell_ref(c0, r0, a);
    qr_xlsx_cell_ref(c1, r1, z);
    qr_buf_printf(b, "%s:%s", a, z);
}

static void table_xml(qr_buf *b, const qr_sheet_table *t, size_t id)
{
    const qr_range *rg = &t->range;
    qr_buf_printf(b,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                  "<table xmlns=\"" QR_NS_SML "\" id=\"%zu\" name=\"",
                  id);
    qr_xml_escape(b, t->name, strlen(t->name), 1);
    qr_buf_puts(b, "\" displayName=\"");
    qr_xml_escape(b, t->name, strlen(t->name), 1);
    qr_buf_puts(b, "\" ref=\"");
    put_range(b, rg->c0, rg->r0, rg->c1, rg->r1 + (t->totals ? 1 : 0));
    qr_buf_puts(b, t->totals ? "\" totalsRowCount=\"1\">" : "\" totalsRowShown=\"0\">");
    qr_buf_puts(b, "<autoFilter ref=\"");
    put_range(b, rg->c0, rg->r0, rg->c1, rg->r1);
    size_t nc = rg->c1 - rg->c0 + 1;
    qr_buf_printf(b, "\"/><tableColumns count=\"%zu\">", nc);
    for (size_t c = 0; c < nc; c++) {
        qr_buf_printf(b, "<tableColumn id=\"%zu\" name=\"", c + 1);
        qr_xml_escape(b, t->cols[c], strlen(t->cols[c]), 1);
        qr_buf_putc(b, '"');
        if (t->totals && t->label[c]) {
            qr_buf_puts(b, " totalsRowLabel=\"");
            qr_xml_escape(b, t->label[c], strlen(t->label[c]), 1);
            qr_buf_putc(b, '"');
        } else if (t->totals && t->fn[c]) {
            qr_buf_printf(b, " totalsRowFunction=\"%s\"", fn_names[t->fn[c]]);
        }
        qr_buf_puts(b, "/>");
    }
    qr_buf_puts(b, "</tableColumns>");
    if (t->style) {
        qr_buf_puts(b, "<tableStyleInfo name=\"");
        qr_xml_escape(b, t->style, strlen(t->style), 1);
        qr_buf_puts(b, "\" showFirstColumn=\"0\" showLastColumn=\"0\" showRowStripes=\"1\" "
                       "showColumnStripes=\"0\"/>");
    }
    qr_buf_puts(b, "</table>");
}

qr_status qr_xlsx_add_tables(qr_package *p, const qr_sheet *sh, size_t sheet_no, size_t *table_no)
{
    char sheet[64], name[64], target[64], want[16];
    snprintf(sheet, sizeof sheet, "xl/worksheets/sheet%zu.xml", sheet_no);
    for (size_t i = 0; i < sh->n_tables; i++) {
        size_t id = ++*table_no;
        snprintf(name, sizeof name, "xl/tables/table%zu.xml", id);
        snprintf(target, sizeof target, "../tables/table%zu.xml", id);
        const char *rid = qr_package_rel(p, sheet, REL_TABLE, target, 0);
        if (!rid) return qr_fail(QR_E_NOMEM);
        snprintf(want, sizeof want, "rId%zu", first_rel(sh) + i);
        if (strcmp(rid, want) != 0) return qr_fail(QR_E_RENDER); /* the tail named it so */
        qr_buf b = {0};
        table_xml(&b, &sh->tables[i], id);
        if (b.oom) {
            qr_buf_free(&b);
            return qr_fail(QR_E_NOMEM);
        }
        size_t len;
        char *data = qr_buf_steal(&b, &len);
        qr_status st = qr_package_add_part(p, name, CT_TABLE, data, len);
        if (st != QR_OK) return st;
    }
    return QR_OK;
}
