/* xlsx_workbook.c: xl/workbook.xml, the list of sheets.
 *
 * Sheets are named as the compiler validated them and point to their parts
 * through r:id rId1.. (xlsx.c adds the relationships in the same order).
 * An autofilter needs Excel's hidden _xlnm._FilterDatabase name over the
 * same range, local to its sheet; a print area and repeated rows or
 * columns are _xlnm.Print_Area and _xlnm.Print_Titles likewise. calcPr fullCalcOnLoad makes Excel
 * and LibreOffice compute every formula on open, so formulas written without a cached value never
 * show a stale 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "xlsx_int.h"
#include "xml.h"

/* <x:bookViews> */
static void write_book_views(qr_xml *x)
{
    qr_xml_start(x, "bookViews");
    qr_xml_leaf(x, "workbookView", "xWindow", "0", "yWindow", "0", "windowWidth", "16384",
                "windowHeight", "8192", NULL);
    qr_xml_end(x);
}

/* <x:sheets> */
static void write_sheets(qr_xml *x, const qr_sheet *sheets, size_t n)
{
    qr_xml_start(x, "sheets");
    for (size_t i = 0; i < n; i++) {
        char id[32];
        /* <x:sheet> */
        qr_xml_start(x, "sheet");
        qr_xml_attr(x, "name", sheets[i].name);
        qr_xml_attr_int(x, "sheetId", (long long)i + 1);
        snprintf(id, sizeof id, "rId%zu", i + 1);
        qr_xml_attr(x, "r:id", id);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* 'Name'!$A$1:$J$100 : the sheet name quoted, apostrophes doubled. */
static int filter_ref(qr_buf *b, const qr_sheet *sh)
{
    char range[64];
    qr_xlsx_filter_range(sh, range, sizeof range);
    char *colon = strchr(range, ':');
    if (!colon) return -1;
    *colon = '\0';
    qr_buf_putc(b, '\'');
    for (const char *p = sh->name; *p; p++) {
        if (*p == '\'') qr_buf_putc(b, '\'');
        qr_buf_putc(b, *p);
    }
    qr_buf_puts(b, "'!");
    const char *parts[2] = {range, colon + 1};
    for (int k = 0; k < 2; k++) {
        const char *r = parts[k];
        size_t letters = strspn(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        if (k) qr_buf_putc(b, ':');
        qr_buf_printf(b, "$%.*s$%s", (int)letters, r, r + letters);
    }
    return b->oom ? -1 : 0;
}

/* 'Name'! : the sheet name quoted, apostrophes doubled. */
static void sheet_prefix(qr_buf *b, const qr_sheet *sh)
{
    qr_buf_putc(b, '\'');
    for (const char *p = sh->name; *p; p++) {
        if (*p == '\'') qr_buf_putc(b, '\'');
        qr_buf_putc(b, *p);
    }
    qr_buf_puts(b, "'!");
}

/* 'Name'!$A$1 or 'Name'!$A$1:$B$2 of a defined name. */
static void name_ref(qr_buf *b, const qr_sheet *sh, const qr_range *rg)
{
    sheet_prefix(b, sh);
    for (int k = 0; k < 2; k++) {
        char r[16];
        qr_xlsx_cell_ref(k ? rg->c1 : rg->c0, k ? rg->r1 : rg->r0, r);
        size_t letters = strspn(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
        if (k && rg->r0 == rg->r1 && rg->c0 == rg->c1) break;
        if (k) qr_buf_putc(b, ':');
        qr_buf_printf(b, "$%.*s$%s", (int)letters, r, r + letters);
    }
}

/* <x:definedName> of one of Excel's own names, local to sheet i */
static void print_name(qr_xml *x, const char *name, size_t i, const qr_buf *ref)
{
    qr_xml_start(x, "definedName");
    qr_xml_attr(x, "name", name);
    qr_xml_attr_int(x, "localSheetId", (long long)i);
    if (ref->data) qr_xml_text(x, ref->data, ref->len);
    qr_xml_end(x);
}

/* <x:definedNames>: the filters' hidden names, the print areas and
 * titles, then the spec's "names" */
static void write_defined_names(qr_xml *x, const qr_sheet *sheets, size_t n, const qr_name *names,
                                size_t n_names)
{
    int any = 0;
    qr_buf ref = {0};
    for (size_t i = 0; i < n; i++) {
        char range[64];
        qr_xlsx_filter_range(&sheets[i], range, sizeof range);
        if (!strchr(range, ':')) continue;
        if (!any) qr_xml_start(x, "definedNames");
        any = 1;
        ref.len = 0;
        filter_ref(&ref, &sheets[i]);
        /* <x:definedName> */
        qr_xml_start(x, "definedName");
        qr_xml_attr(x, "name", "_xlnm._FilterDatabase");
        qr_xml_attr_int(x, "localSheetId", (long long)i);
        qr_xml_attr(x, "hidden", "1");
        if (ref.data) qr_xml_text(x, ref.data, ref.len);
        qr_xml_end(x);
    }
    /* the print setups' areas and titles, local to their sheets */
    for (size_t i = 0; i < n; i++) {
        const qr_sheet_print *p = sheets[i].print;
        if (!p || (!p->has_area && !p->has_rows && !p->has_cols)) continue;
        if (!any) qr_xml_start(x, "definedNames");
        any = 1;
        if (p->has_area) {
            ref.len = 0;
            name_ref(&ref, &sheets[i], &p->area);
            print_name(x, "_xlnm.Print_Area", i, &ref);
        }
        if (p->has_rows || p->has_cols) {
            ref.len = 0;
            if (p->has_cols) { /* 'Name'!$A:$B */
                char a[8], z[8];
                qr_xlsx_col_name(p->cols0, a);
                qr_xlsx_col_name(p->cols1, z);
                sheet_prefix(&ref, &sheets[i]);
                qr_buf_printf(&ref, "$%s:$%s", a, z);
            }
            if (p->has_rows) { /* 'Name'!$1:$2 */
                if (p->has_cols) qr_buf_putc(&ref, ',');
                sheet_prefix(&ref, &sheets[i]);
                qr_buf_printf(&ref, "$%u:$%u", (unsigned)p->rows0 + 1, (unsigned)p->rows1 + 1);
            }
            print_name(x, "_xlnm.Print_Titles", i, &ref);
        }
    }
    /* in name order (ignoring case), as Excel writes them */
    size_t *ord = n_names ? malloc(n_names * sizeof *ord) : NULL;
    for (size_t i = 0; ord && i < n_names; i++) {
        size_t j = i;
        for (; j > 0; j--) {
            const qr_name *a = &names[ord[j - 1]], *b = &names[i];
            int c = strcasecmp(a->name, b->name);
            if (c < 0 || (c == 0 && a->scope <= b->scope)) break;
            ord[j] = ord[j - 1];
        }
        ord[j] = i;
    }
    for (size_t k = 0; ord && k < n_names; k++) {
        const qr_name *nm = &names[ord[k]];
        if (nm->sheet >= n) continue;
        if (!any) qr_xml_start(x, "definedNames");
        any = 1;
        ref.len = 0;
        name_ref(&ref, &sheets[nm->sheet], &nm->range);
        qr_xml_start(x, "definedName");
        qr_xml_attr(x, "name", nm->name);
        if (nm->scope >= 0) qr_xml_attr_int(x, "localSheetId", nm->scope);
        if (ref.data) qr_xml_text(x, ref.data, ref.len);
        qr_xml_end(x);
    }
    free(ord);
    if (any) qr_xml_end(x);
    qr_buf_free(&ref);
}

/* <x:calcPr> */
static void write_calc_pr(qr_xml *x)
{
    qr_xml_leaf(x, "calcPr", "calcId", "191029", "fullCalcOnLoad", "1", NULL);
}

/* <x:workbook> */
qr_status qr_xlsx_workbook_write(const qr_sheet *sheets, size_t n, const qr_name *names,
                                 size_t n_names, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return QR_E_NOMEM;
    qr_xml_decl(x);
    qr_xml_start(x, "workbook");
    qr_xml_attr(x, "xmlns", QR_NS_SML);
    qr_xml_attr(x, "xmlns:r", QR_NS_REL);
    write_book_views(x);
    write_sheets(x, sheets, n);
    write_defined_names(x, sheets, n, names, n_names);
    write_calc_pr(x);
    qr_xml_end(x);
    return qr_xml_free(x);
}
