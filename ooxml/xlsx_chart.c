/* xlsx_chart.c: a sheet's charts: xl/drawings/drawingN.xml with one
 * xdr:twoCellAnchor per chart (from the anchor cell, sized in points over
 * the sheet's column widths and 15 pt rows) and the chart parts, whose
 * series refer to the sheet ranges the spec named (dml_chart.h). The
 * worksheet refers to the drawing as its relationship rId1. */
#include <stdio.h>
#include <string.h>

#include "dml_chart.h"
#include "style.h"
#include "xlsx_int.h"

#define NS_XDR "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
#define EMU_PER_PT 12700
#define ROW_PT 15.0

/* Width in points of column c: Excel's default 8.43 characters, or the spec's. */
static double col_pt(const qr_sheet *sh, uint32_t c)
{
    double chars = sh->widths && c < sh->n_widths && sh->widths[c] > 0 ? sh->widths[c] : 8.43;
    return (chars * 7 + 5) * 0.75;
}

static void marker(qr_xml *x, const char *name, uint32_t col, double col_off, uint32_t row,
                   double row_off)
{
    char v[32];
    qr_xml_start(x, name);
    snprintf(v, sizeof v, "%u", col);
    qr_xml_elem_text(x, "xdr:col", v);
    snprintf(v, sizeof v, "%lld", (long long)(col_off * EMU_PER_PT));
    qr_xml_elem_text(x, "xdr:colOff", v);
    snprintf(v, sizeof v, "%u", row);
    qr_xml_elem_text(x, "xdr:row", v);
    snprintf(v, sizeof v, "%lld", (long long)(row_off * EMU_PER_PT));
    qr_xml_elem_text(x, "xdr:rowOff", v);
    qr_xml_end(x);
}

static void anchor(qr_xml *x, const qr_sheet *sh, const qr_chart *ch, size_t k, const char *rid)
{
    double w = ch->width > 0 ? ch->width : 432, h = ch->height > 0 ? ch->height : 252;
    uint32_t c = ch->anchor_col, r = ch->anchor_row;
    double left = w;
    while (left > col_pt(sh, c) && c < 16383)
        left -= col_pt(sh, c++);
    uint32_t rows = (uint32_t)(h / ROW_PT);
    double roff = h - rows * ROW_PT;
    qr_xml_start(x, "xdr:twoCellAnchor");
    qr_xml_attr(x, "editAs", "oneCell");
    marker(x, "xdr:from", ch->anchor_col, 0, ch->anchor_row, 0);
    marker(x, "xdr:to", c, left, r + rows, roff);
    qr_xml_start(x, "xdr:graphicFrame");
    qr_xml_attr(x, "macro", "");
    qr_xml_start(x, "xdr:nvGraphicFramePr");
    char name[32];
    snprintf(name, sizeof name, "Chart %zu", k + 1);
    qr_xml_start(x, "xdr:cNvPr");
    qr_xml_attr_int(x, "id", (long long)k + 2);
    qr_xml_attr(x, "name", name);
    if (*ch->alt) qr_xml_attr(x, "descr", ch->alt);
    if (ch->title) qr_xml_attr(x, "title", ch->title);
    qr_xml_end(x);
    qr_xml_leaf(x, "xdr:cNvGraphicFramePr", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "xdr:xfrm");
    qr_xml_leaf(x, "a:off", "x", "0", "y", "0", NULL);
    qr_xml_leaf(x, "a:ext", "cx", "0", "cy", "0", NULL);
    qr_xml_end(x);
    qr_ooxml_chart_graphic(x, rid);
    qr_xml_end(x); /* xdr:graphicFrame */
    qr_xml_leaf(x, "xdr:clientData", NULL);
    qr_xml_end(x);
}

qr_status qr_xlsx_add_charts(qr_package *p, const qr_sheet *sh, size_t sheet_no, size_t *chart_no,
                             long long epoch, const qr_style *ink)
{
    if (!sh->n_charts) return QR_OK;
    char sheet[64], dname[64], target[64];
    snprintf(sheet, sizeof sheet, "xl/worksheets/sheet%zu.xml", sheet_no);
    snprintf(dname, sizeof dname, "xl/drawings/drawing%zu.xml", sheet_no);
    snprintf(target, sizeof target, "../drawings/drawing%zu.xml", sheet_no);
    const char *rid = qr_package_rel(p, sheet, QR_REL_DRAWING, target, 0);
    if (!rid) return qr_fail(QR_E_NOMEM);
    if (strcmp(rid, "rId1") != 0) return qr_fail(QR_E_RENDER); /* the sheet tail says rId1 */
    qr_buf b = {0};
    qr_xml *x = qr_xml_new(&b);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, "xdr:wsDr");
    qr_xml_attr(x, "xmlns:xdr", NS_XDR);
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_status st = QR_OK;
    for (size_t k = 0; k < sh->n_charts && st == QR_OK; k++) {
        size_t n = ++*chart_no;
        char ct[64];
        snprintf(ct, sizeof ct, "../charts/chart%zu.xml", n);
        st = qr_ooxml_add_chart(p, &sh->charts[k], "xl", n, 0, epoch, ink);
        const char *crid = st == QR_OK ? qr_package_rel(p, dname, QR_REL_CHART, ct, 0) : NULL;
        if (st == QR_OK && !crid) st = qr_fail(QR_E_NOMEM);
        if (st == QR_OK) anchor(x, sh, &sh->charts[k], k, crid);
    }
    qr_xml_end(x);
    qr_status xs = qr_xml_free(x);
    if (st == QR_OK) st = xs;
    if (st == QR_OK && b.oom) st = qr_fail(QR_E_NOMEM);
    if (st != QR_OK) {
        qr_buf_free(&b);
        return st;
    }
    size_t len;
    char *data = qr_buf_steal(&b, &len);
    return qr_package_add_part(p, dname, QR_CT_DRAWING, data, len);
}
