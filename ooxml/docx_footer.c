/* docx_footer.c: the page header and footer parts (word/header1.xml,
 * word/footer1.xml; empty first-page ones for "first_page": false).
 *
 * The same header and footer as the PDF's (pdf/paint.c), from the same
 * templates (layout/furniture.h): one centred line in the theme's footer
 * size and colour, in the top or bottom margin. {page} and {pages} are
 * fields (PAGE and NUMPAGES), which Word and LibreOffice compute as they
 * paginate: no "update fields" prompt (settings.xml asks for none); their
 * cached results are "1" so a reader that does not paginate shows "1 / 1".
 * {title} and {date} are text. "first_page": false sets w:titlePg with
 * first-page parts that hold an empty paragraph.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "docx_int.h"
#include "furniture.h"

#define QR_CT_DOCX_FOOTER QR_CT_DOCX_PREFIX "footer+xml"
#define QR_CT_DOCX_HEADER QR_CT_DOCX_PREFIX "header+xml"
#define QR_REL_FOOTER QR_REL_BASE "footer"
#define QR_REL_HEADER QR_REL_BASE "header"

/* <w:rPr> of the furniture's text */
static void furniture_rpr(qr_xml *x, const qr_style *st)
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
static void furniture_run(qr_xml *x, const qr_style *st, const char *text, size_t n)
{
    qr_xml_start(x, "w:r");
    furniture_rpr(x, st);
    qr_xml_start(x, "w:t");
    qr_xml_attr(x, "xml:space", "preserve");
    qr_xml_text(x, text, n);
    qr_xml_end(x);
    qr_xml_end(x);
}

typedef struct pieces {
    qr_xml *x;
    const qr_style *st;
} pieces;

/* One piece of the template: text, or a <w:fldSimple> with its cached result */
static int piece(void *ud, qr_furn_piece kind, const char *s, size_t n)
{
    pieces *p = ud;
    if (kind == QR_FURN_TEXT) {
        furniture_run(p->x, p->st, s, n);
        return 0;
    }
    qr_xml_start(p->x, "w:fldSimple");
    qr_xml_attr(p->x, "w:instr", kind == QR_FURN_PAGE ? " PAGE " : " NUMPAGES ");
    furniture_run(p->x, p->st, "1", 1);
    qr_xml_end(p->x);
    return 0;
}

/* <w:hdr> or <w:ftr> holding tpl's line, or an empty paragraph (tpl NULL) */
static qr_status write_part(qr_docx *d, const char *root, const char *tpl, qr_buf *out)
{
    const qr_style *st = &d->style;
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, root);
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_xml_start(x, "w:p");
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:jc", "w:val", "center", NULL);
    qr_xml_end(x);
    pieces p = {x, st};
    int rc = tpl ? qr_furniture_pieces(d->doc, tpl, d->ctx->epoch, piece, &p) : 0;
    qr_xml_end(x);
    qr_xml_end(x);
    qr_status s = qr_xml_free(x);
    return s == QR_OK && rc != 0 ? QR_E_NOMEM : s;
}

/* Add the part `name` (a header when hdr) with tpl's line and its
 * relationship; its id, or NULL on failure (d->status is set). */
static const char *add_part(qr_docx *d, int hdr, const char *name, const char *tpl)
{
    if (d->status != QR_OK) return NULL;
    const char *rid =
        qr_package_rel(d->pkg, "word/document.xml", hdr ? QR_REL_HEADER : QR_REL_FOOTER, name, 0);
    if (!rid) {
        qr_docx_fail(d, QR_E_NOMEM);
        return NULL;
    }
    qr_buf b = {0};
    qr_status st = write_part(d, hdr ? "w:hdr" : "w:ftr", tpl, &b);
    if (st == QR_OK && b.oom) st = QR_E_NOMEM;
    if (st != QR_OK) {
        qr_buf_free(&b);
        qr_docx_fail(d, st);
        return NULL;
    }
    size_t len;
    char *data = qr_buf_steal(&b, &len);
    char path[64];
    snprintf(path, sizeof path, "word/%s", name);
    qr_docx_fail(d, qr_package_add_part(d->pkg, path, hdr ? QR_CT_DOCX_HEADER : QR_CT_DOCX_FOOTER,
                                        data, len));
    return d->status == QR_OK ? rid : NULL;
}

void qr_docx_furniture(qr_docx *d, qr_docx_furn *f)
{
    memset(f, 0, sizeof *f);
    qr_buf tb = {0};
    const char *head = qr_furniture_template(d->doc, &d->style, QR_FURN_HEADER, NULL);
    const char *foot = qr_furniture_template(d->doc, &d->style, QR_FURN_FOOTER, &tb);
    if (head) f->header = add_part(d, 1, "header1.xml", head);
    if (foot) f->footer = add_part(d, 0, "footer1.xml", foot);
    qr_buf_free(&tb);
    if (d->doc->page.no_first && (head || foot)) {
        f->title_pg = 1;
        if (head) f->first_header = add_part(d, 1, "header2.xml", NULL);
        if (foot) f->first_footer = add_part(d, 0, "footer2.xml", NULL);
    }
}
