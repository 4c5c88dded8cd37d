/* html_chart.h: a chart in the html backend: inline SVG drawn from the
 * chart model's geometry (layout/chart.h, the same picture as the PDF),
 * role="img" with the alt text, and the data as a visually hidden <table>
 * for screen readers. */
#ifndef QR_HTML_CHART_H
#define QR_HTML_CHART_H

#include "buf.h"
#include "tree.h"

struct qr_style;
/** Append the chart's <figure> (SVG + data table) to b, in the ink of
 *  style st (NULL: plain's). Returns 0, or -1 when memory ran out. */
int qr_html_chart(qr_buf *b, const qr_chart *ch, const struct qr_style *st);

/** Append n bytes of spec text escaped as html.c escapes attribute values
 *  and <title> (& < > " ' as entities, characters HTML and XML forbid as
 *  U+FFFD, CR LF and CR as LF): for SVG text, labels and table cells. */
void qr_html_esc_attr(qr_buf *b, const char *s, size_t n);

#endif
