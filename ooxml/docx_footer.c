/* docx_footer.c: word/footer1.xml, the page footer "N / M".
 *
 * The same footer as the PDF's (paint.c): the page number and the page
 * count, centred, in the theme's footer size, colour and separator
 * (layout/style.h), in the bottom margin. Both numbers
 * are fields (PAGE and NUMPAGES), which Word and LibreOffice compute as they
 * paginate: no "update fields" prompt (settings.xml asks for none). The
 * cached results are "1" so a reader that does not paginate shows "1 / 1".
 */
#include <math.h>
#include <string.h>

#include "docx_int.h"

#define QR_CT_DOCX_FOOTER QR_CT_DOCX_PREFIX "footer+xml"
#define QR_REL_FOOTER QR_REL_BASE "footer"

/* <w:rPr> of the footer's text */
static void footer_rpr(qr_xml *x, const qr_style *st)
{
    char hex[7];
    qr_style_hex(st->footer, hex);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:color", "w:val", hex, NULL);
    qr_xml_start(x, "w:sz");
    qr_xml_attr_int(x, "w:val", lround(st->footer_pt * 2));
    qr_xml_end(x);
    qr_xml_start(x, "w:szCs");
    qr_xml_attr_int(x, "w:val", lround(st->footer_pt * 2));
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <w:r> with text */
static void footer_run(qr_xml *x, const qr_style *st, const char *text)
{
    qr_xml_start(x, "w:r");
    footer_rpr(x, st);
    qr_xml_start(x, "w:t");
    qr_xml_attr(x, "xml:space", "preserve");
    qr_xml_text(x, text, strlen(text));
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <w:fldSimple> with its cached result */
static void footer_field(qr_xml *x, const qr_style *st, const char *instr)
{
    qr_xml_start(x, "w:fldSimple");
    qr_xml_attr(x, "w:instr", instr);
    footer_run(x, st, "1");
    qr_xml_end(x);
}

/* <w:ftr> */
static qr_status write_footer(qr_docx *d, qr_buf *out)
{
    const qr_style *st = &d->style;
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, "w:ftr");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_xml_start(x, "w:p");
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:jc", "w:val", "center", NULL);
    qr_xml_end(x);
    footer_field(x, st, " PAGE ");
    footer_run(x, st, st->footer_sep);
    footer_field(x, st, " NUMPAGES ");
    qr_xml_end(x);
    qr_xml_end(x);
    return qr_xml_free(x);
}

const char *qr_docx_footer(qr_docx *d)
{
    if (d->status != QR_OK) return NULL;
    const char *rid = qr_package_rel(d->pkg, "word/document.xml", QR_REL_FOOTER, "footer1.xml", 0);
    if (!rid) {
        qr_docx_fail(d, QR_E_NOMEM);
        return NULL;
    }
    qr_buf b = {0};
    qr_status st = write_footer(d, &b);
    if (st == QR_OK && b.oom) st = QR_E_NOMEM;
    if (st != QR_OK) {
        qr_buf_free(&b);
        qr_docx_fail(d, st);
        return NULL;
    }
    size_t len;
    char *data = qr_buf_steal(&b, &len);
    qr_docx_fail(d, qr_package_add_part(d->pkg, "word/footer1.xml", QR_CT_DOCX_FOOTER, data, len));
    return d->status == QR_OK ? rid : NULL;
}
