/* dml_chart.h: DrawingML charts (c:chartSpace parts) for docx, pptx and xlsx.
 *
 * A Word or PowerPoint chart carries its data in an embedded workbook
 * (written by quire's own xlsx backend) so "Edit Data" opens the numbers:
 * row 1 holds the series names, column A the categories, the series'
 * values follow in B, C, ... (a scatter series takes two columns, x and
 * y). Its series refer to those cells (Sheet1!$B$2:$B$13) and cache the
 * values. A sheet's chart instead refers to the ranges its spec named
 * ("Q3!B2:B9"), or holds literal values when the spec gave numbers.
 *
 *     qr_ooxml_add_chart(pkg, ch, "word", 1, 1, epoch);  // word/charts/chart1.xml
 *     rid = qr_package_rel(pkg, "word/document.xml", QR_REL_CHART, "charts/chart1.xml", 0);
 *     qr_ooxml_chart_graphic(x, rid);                     // inside wp:inline / p:graphicFrame
 */
#ifndef QR_DML_CHART_H
#define QR_DML_CHART_H

#include "package.h"
#include "tree.h"
#include "xml.h"

#define QR_NS_C "http://schemas.openxmlformats.org/drawingml/2006/chart"
#define QR_CT_CHART "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
#define QR_CT_XLSX_PACKAGE "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
#define QR_CT_DRAWING "application/vnd.openxmlformats-officedocument.drawing+xml"
#define QR_REL_CHART QR_REL_BASE "chart"
#define QR_REL_PACKAGE QR_REL_BASE "package"
#define QR_REL_DRAWING QR_REL_BASE "drawing"

struct qr_style;
/** Add <root>/charts/chart<n>.xml for ch to pkg; embed: also
 *  <root>/embeddings/Microsoft_Excel_Worksheet<n>.xlsx holding the data
 *  (else the series use the chart's sheet ranges or literals). st: the
 *  theme whose chart ink the gridlines take (layout/style.h; NULL: plain). */
qr_status qr_ooxml_add_chart(qr_package *pkg, const qr_chart *ch, const char *root, size_t n,
                             int embed, long long epoch, const struct qr_style *st);

/** The c:chartSpace XML of ch into out (embedded: refers to the embedded
 *  workbook's cells and to relationship rId1 for it). */
qr_status qr_ooxml_chart_xml(const qr_chart *ch, int embedded, const struct qr_style *st,
                             qr_buf *out);

/** The embedded workbook (.xlsx bytes) of ch into out. */
qr_status qr_ooxml_chart_workbook(const qr_chart *ch, long long epoch, qr_buf *out);

/** <a:graphic> holding a chart reference to relationship rid. */
void qr_ooxml_chart_graphic(qr_xml *x, const char *rid);

#endif
