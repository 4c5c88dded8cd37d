/* docx_settings.c: the small document-wide parts: word/settings.xml,
 * word/webSettings.xml and word/fontTable.xml.
 *
 * settings.xml declares Word 2013+ compatibility (compatibilityMode 15), so
 * Word opens the file in its current mode instead of "Compatibility Mode".
 * fontTable.xml lists every font family a run names, in first-use order,
 * with its generic family and pitch so a reader without the font can pick
 * a similar one.
 */
#include <string.h>

#include "docx_int.h"

/* <w:settings> */
qr_status qr_docx_settings(qr_docx *d, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, "w:settings");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_xml_leaf(x, "w:zoom", "w:percent", "100", NULL);
    /* a theme's page ground (document.xml's w:background) is drawn */
    if (d->style.background != 0xFFFFFF) qr_xml_leaf(x, "w:displayBackgroundShape", NULL);
    qr_xml_leaf(x, "w:defaultTabStop", "w:val", "720", NULL);
    qr_xml_leaf(x, "w:characterSpacingControl", "w:val", "doNotCompress", NULL);
    if (d->doc->n_notes) {
        /* the separator notes of footnotes.xml (endnotes.xml), docx_notes.c */
        const char *el = d->doc->endnotes ? "w:endnote" : "w:footnote";
        qr_xml_start(x, d->doc->endnotes ? "w:endnotePr" : "w:footnotePr");
        qr_xml_leaf(x, el, "w:id", "-1", NULL);
        qr_xml_leaf(x, el, "w:id", "0", NULL);
        qr_xml_end(x);
    }
    /* <w:compat> */
    qr_xml_start(x, "w:compat");
    qr_xml_leaf(x, "w:compatSetting", "w:name", "compatibilityMode", "w:uri",
                "http://schemas.microsoft.com/office/word", "w:val", "15", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "w:decimalSymbol", "w:val", ".", NULL);
    qr_xml_leaf(x, "w:listSeparator", "w:val", ",", NULL);
    qr_xml_end(x);
    return qr_xml_free(x);
}

/* <w:webSettings> */
qr_status qr_docx_web_settings(qr_docx *d, qr_buf *out)
{
    (void)d;
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, "w:webSettings");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_xml_leaf(x, "w:optimizeForBrowser", NULL);
    qr_xml_leaf(x, "w:allowPNG", NULL);
    qr_xml_end(x);
    return qr_xml_free(x);
}

static int contains(const char *s, const char *word)
{
    return strstr(s, word) != NULL;
}

/* <w:font> */
static void write_w_font(qr_xml *x, const char *name)
{
    int mono = contains(name, "Mono") || contains(name, "Code") || contains(name, "Courier");
    int serif = !mono && contains(name, "Serif") && !contains(name, "Sans");
    int sans = !mono && !serif && contains(name, "Sans");
    qr_xml_start(x, "w:font");
    qr_xml_attr(x, "w:name", name);
    qr_xml_leaf(x, "w:family", "w:val",
                mono    ? "modern"
                : serif ? "roman"
                : sans  ? "swiss"
                        : "auto",
                NULL);
    qr_xml_leaf(x, "w:pitch", "w:val", mono ? "fixed" : "variable", NULL);
    qr_xml_end(x);
}

/* <w:fonts> */
qr_status qr_docx_font_table(qr_docx *d, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, "w:fonts");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    for (size_t i = 0; i < d->n_families; i++)
        write_w_font(x, d->families[i]);
    qr_xml_end(x);
    return qr_xml_free(x);
}
