/* docx_numbering.c: word/numbering.xml, the list definitions.
 *
 * Two abstract definitions of nine levels each: bullets (• ◦ ▪ in turn) and
 * numbers ("1.", "a.", "i." in turn: layout/style.h, as the PDF and html draw
 * them), every level counting on its own. numId 1 is
 * every bullet list. Each ordered list gets its own <w:num> with a
 * startOverride of 1 on every level: Word and LibreOffice count per
 * abstract definition, so without it the second ordered list of a document
 * would go on at 5, 6, 7 (python-docx #25, docx.js #548). Each depth
 * indents by the theme's list indent (layout/style.h), the label hanging in
 * it, as the PDF lays lists out. An ordered list's "start" is its level 0
 * startOverride. Task items take one of two more definitions, whose
 * bullets are an open and a ticked box (layout/style.h), written only when
 * a document has task items.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "docx_int.h"
#include "style.h"

/* <w:lvl>; step: the theme's list indent in twips (the label hangs in it);
 * task: QR_TASK_OPEN or QR_TASK_DONE for a box as the bullet */
static void write_w_lvl(qr_xml *x, int ilvl, int ordered, int task, long step)
{
    static const char *const fmts[] = {[QR_LABEL_BULLET] = "bullet",
                                       [QR_LABEL_DECIMAL] = "decimal",
                                       [QR_LABEL_LOWER_ALPHA] = "lowerLetter",
                                       [QR_LABEL_LOWER_ROMAN] = "lowerRoman"};
    char text[8];
    qr_xml_start(x, "w:lvl");
    qr_xml_attr_int(x, "w:ilvl", ilvl);
    qr_xml_leaf(x, "w:start", "w:val", "1", NULL);
    qr_xml_leaf(x, "w:numFmt", "w:val", fmts[qr_look_label_format(ordered, ilvl)], NULL);
    if (ordered) snprintf(text, sizeof text, "%%%d.", ilvl + 1);
    const char *bullet = task ? qr_look_task(task == QR_TASK_DONE) : qr_look_bullet(ilvl);
    qr_xml_leaf(x, "w:lvlText", "w:val", ordered ? text : bullet, NULL);
    qr_xml_leaf(x, "w:lvlJc", "w:val", "left", NULL);
    qr_xml_start(x, "w:pPr");
    qr_xml_start(x, "w:ind");
    qr_xml_attr_int(x, "w:left", step * (ilvl + 1));
    qr_xml_attr_int(x, "w:hanging", step);
    qr_xml_end(x);
    qr_xml_end(x);
    if (!ordered) {
        /* The bullet glyphs are in DejaVu Sans, whatever the item's font. */
        qr_xml_start(x, "w:rPr");
        qr_xml_leaf(x, "w:rFonts", "w:hint", "default", "w:ascii", QR_DOCX_FONT, "w:hAnsi",
                    QR_DOCX_FONT, "w:cs", QR_DOCX_FONT, NULL);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* <w:abstractNum> */
void qr_docx_write_w_abstractnum(qr_xml *x, int abstract_id, int ordered, int task,
                                 double indent_pt)
{
    long step = lround(indent_pt * 20);
    char nsid[16];
    /* A fixed 4-byte id (8 hex digits): deterministic, distinct per definition. */
    snprintf(nsid, sizeof nsid, "%08X", 0x51A3B7C0u + (unsigned)abstract_id);
    qr_xml_start(x, "w:abstractNum");
    qr_xml_attr_int(x, "w:abstractNumId", abstract_id);
    qr_xml_leaf(x, "w:nsid", "w:val", nsid, NULL);
    qr_xml_leaf(x, "w:multiLevelType", "w:val", "hybridMultilevel", NULL);
    for (int l = 0; l < QR_DOCX_LEVELS; l++)
        write_w_lvl(x, l, ordered, task, step);
    qr_xml_end(x);
}

/* <w:num> */
void qr_docx_write_w_num(qr_xml *x, int num_id, int abstract_id, int restart, unsigned start)
{
    qr_xml_start(x, "w:num");
    qr_xml_attr_int(x, "w:numId", num_id);
    qr_xml_start(x, "w:abstractNumId");
    qr_xml_attr_int(x, "w:val", abstract_id);
    qr_xml_end(x);
    for (int l = 0; restart && l < QR_DOCX_LEVELS; l++) {
        /* <w:lvlOverride> */
        qr_xml_start(x, "w:lvlOverride");
        qr_xml_attr_int(x, "w:ilvl", l);
        qr_xml_start(x, "w:startOverride");
        qr_xml_attr_int(x, "w:val", l == 0 && start > 1 ? (long long)start : 1);
        qr_xml_end(x);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

int qr_docx_add_num(qr_docx *d, int abstract, unsigned start)
{
    if (d->n_ordered == d->cap_nums) {
        int cap = d->cap_nums ? d->cap_nums * 2 : 8;
        struct qr_docx_num *n = realloc(d->nums, (size_t)cap * sizeof *n);
        if (!n) return -1;
        d->nums = n;
        d->cap_nums = cap;
    }
    d->nums[d->n_ordered].abstract = abstract;
    d->nums[d->n_ordered].start = start;
    return QR_DOCX_BULLET_NUM + 1 + d->n_ordered++;
}

/* <w:numbering> */
qr_status qr_docx_numbering(qr_docx *d, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml_decl(x);
    qr_xml_start(x, "w:numbering");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_docx_write_w_abstractnum(x, QR_DOCX_ABSTRACT_BULLET, 0, 0, d->style.list_indent);
    qr_docx_write_w_abstractnum(x, QR_DOCX_ABSTRACT_DECIMAL, 1, 0, d->style.list_indent);
    if (d->task_num) {
        qr_docx_write_w_abstractnum(x, QR_DOCX_ABSTRACT_TASK_OPEN, 0, QR_TASK_OPEN,
                                    d->style.list_indent);
        qr_docx_write_w_abstractnum(x, QR_DOCX_ABSTRACT_TASK_DONE, 0, QR_TASK_DONE,
                                    d->style.list_indent);
    }
    qr_docx_write_w_num(x, QR_DOCX_BULLET_NUM, QR_DOCX_ABSTRACT_BULLET, 0, 0);
    for (int i = 0; i < d->n_ordered; i++)
        qr_docx_write_w_num(x, QR_DOCX_BULLET_NUM + 1 + i, d->nums[i].abstract,
                            d->nums[i].abstract == QR_DOCX_ABSTRACT_DECIMAL, d->nums[i].start);
    qr_xml_end(x);
    return qr_xml_free(x);
}
