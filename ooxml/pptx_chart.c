/* pptx_chart.c: a slide's chart: a p:graphicFrame whose graphic is a
 * c:chart reference, plus ppt/charts/chartN.xml and its embedded workbook
 * (dml_chart.h), so "Edit Data" in PowerPoint opens the numbers. */
#include <stdio.h>

#include "dml_chart.h"
#include "pptx_int.h"

void qr_pptx_write_chart(qr_pptx *pp, qr_xml *x, int id, const qr_chart *ch, qr_pptx_box area,
                         const char *part)
{
    size_t n = ++pp->n_charts;
    char target[64], name[32];
    snprintf(target, sizeof target, "../charts/chart%zu.xml", n);
    snprintf(name, sizeof name, "Chart %zu", n);
    if (qr_pptx_fail(pp, qr_ooxml_add_chart(pp->pkg, ch, "ppt", n, 1, pp->ctx->epoch, &pp->style)))
        return;
    const char *rid = qr_package_rel(pp->pkg, part, QR_REL_CHART, target, 0);
    if (!rid) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        return;
    }
    qr_xml_start(x, "p:graphicFrame");
    qr_xml_start(x, "p:nvGraphicFramePr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", name);
    if (*ch->alt) qr_xml_attr(x, "descr", ch->alt);
    if (ch->title) qr_xml_attr(x, "title", ch->title);
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvGraphicFramePr");
    qr_xml_leaf(x, "a:graphicFrameLocks", "noGrp", "1", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    qr_pptx_write_xfrm(x, "p:xfrm", &area);
    qr_ooxml_chart_graphic(x, rid);
    qr_xml_end(x); /* p:graphicFrame */
}
