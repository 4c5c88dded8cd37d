/* docx_chart.c: a chart block in word/document.xml: an inline drawing
 * (wp:inline) whose graphic is a c:chart reference, plus the chart part
 * word/charts/chartN.xml and its embedded workbook (dml_chart.h). */
#include <math.h>
#include <stdio.h>

#include "chart.h"
#include "dml_chart.h"
#include "docx_int.h"
#include "rhythm.h"

#define EMU_PER_PT 12700

void qr_docx_write_chart(qr_docx *d, const qr_block *b)
{
    const qr_chart *ch = &b->u.chart;
    size_t n = ++d->n_charts;
    char target[64];
    snprintf(target, sizeof target, "charts/chart%zu.xml", n);
    qr_docx_fail(d, qr_ooxml_add_chart(d->pkg, ch, "word", n, 1, d->ctx->epoch, &d->style));
    const char *rid = qr_package_rel(d->pkg, "word/document.xml", QR_REL_CHART, target, 0);
    if (!rid) qr_docx_fail(d, QR_E_NOMEM);
    if (d->status != QR_OK) return;
    double w, h;
    qr_chart_default_size((double)d->text_width / 20.0, &w, &h);
    size_t id = ++d->n_pictures;
    char name[32];
    snprintf(name, sizeof name, "Chart %zu", n);
    qr_xml *x = d->x;
    qr_xml_start(x, "w:p");
    /* the rhythm's space around a chart; single line spacing, which does
     * not clip the drawing as the text's exact pitch would */
    qr_rhythm_space sp = qr_rhythm_block(&d->style, QR_RHYTHM_CHART, 0);
    qr_docx_ppr ppr = {0};
    ppr.line_auto = ppr.spacing = 1;
    ppr.before = lround(sp.before * 20);
    ppr.after = lround(sp.after * 20);
    qr_docx_lead(d, &ppr);
    qr_docx_write_w_ppr(x, &ppr);
    qr_xml_start(x, "w:r");
    qr_xml_start(x, "w:drawing");
    qr_xml_start(x, "wp:inline");
    qr_xml_attr(x, "distT", "0");
    qr_xml_attr(x, "distB", "0");
    qr_xml_attr(x, "distL", "0");
    qr_xml_attr(x, "distR", "0");
    qr_xml_start(x, "wp:extent");
    qr_xml_attr_int(x, "cx", (long long)(w * EMU_PER_PT));
    qr_xml_attr_int(x, "cy", (long long)(h * EMU_PER_PT));
    qr_xml_end(x);
    qr_xml_leaf(x, "wp:effectExtent", "l", "0", "t", "0", "r", "0", "b", "0", NULL);
    qr_xml_start(x, "wp:docPr");
    qr_xml_attr_int(x, "id", (long long)id);
    qr_xml_attr(x, "name", name);
    if (*ch->alt) qr_xml_attr(x, "descr", ch->alt);
    if (ch->title) qr_xml_attr(x, "title", ch->title);
    qr_xml_end(x);
    qr_xml_leaf(x, "wp:cNvGraphicFramePr", NULL);
    qr_ooxml_chart_graphic(x, rid);
    qr_xml_end(x); /* wp:inline */
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
}
