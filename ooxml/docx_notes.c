/* docx_notes.c: word/footnotes.xml (or word/endnotes.xml with "notes":
 * "endnotes") and the styles of issue 32's blocks.
 *
 * The notes part holds Word's two separator notes (ids -1 and 0, which
 * settings.xml names) and one note per footnote run, numbered as the
 * compiler numbered them (1..n, document order): a FootnoteText paragraph
 * whose first run is the <w:footnoteRef/> mark, then the note's runs
 * through docx_document.c's run writer (links in a note are relationships
 * of the notes part). The styles: FootnoteText/FootnoteReference (and the
 * Endnote pair), Caption, Quote and QuoteAttribution, Callout,
 * HorizontalRule, TOCHeading and TOC1..TOC6 with a dotted right tab at the
 * text width; sizes and colours are the theme's (spec/style.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "docx_int.h"

#define QR_CT_DOCX_FOOTNOTES QR_CT_DOCX_PREFIX "footnotes+xml"
#define QR_CT_DOCX_ENDNOTES QR_CT_DOCX_PREFIX "endnotes+xml"
#define QR_REL_FOOTNOTES QR_REL_BASE "footnotes"
#define QR_REL_ENDNOTES QR_REL_BASE "endnotes"

/* One separator note (id -1: separator, 0: continuation). */
static void separator(qr_xml *x, const char *el, int id)
{
    qr_xml_start(x, el);
    qr_xml_attr(x, "w:type", id < 0 ? "separator" : "continuationSeparator");
    qr_xml_attr_int(x, "w:id", id);
    qr_xml_start(x, "w:p");
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:spacing", "w:after", "0", "w:line", "240", "w:lineRule", "auto", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "w:r");
    qr_xml_leaf(x, id < 0 ? "w:separator" : "w:continuationSeparator", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
}

static qr_status write_notes(qr_docx *d, qr_buf *out)
{
    int end = d->doc->endnotes;
    const char *el = end ? "w:endnote" : "w:footnote";
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    qr_xml *body = d->x;
    d->x = x;
    d->part = end ? "word/endnotes.xml" : "word/footnotes.xml";
    qr_xml_decl(x);
    qr_xml_start(x, end ? "w:endnotes" : "w:footnotes");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_xml_attr(x, "xmlns:r", QR_NS_REL);
    separator(x, el, -1);
    separator(x, el, 0);
    for (size_t i = 0; i < d->doc->n_notes && d->status == QR_OK; i++) {
        qr_xml_start(x, el);
        qr_xml_attr_int(x, "w:id", (long long)(i + 1));
        qr_xml_start(x, "w:p");
        qr_docx_ppr ppr = {0};
        ppr.style = end ? "EndnoteText" : "FootnoteText";
        qr_docx_write_w_ppr(x, &ppr);
        qr_xml_start(x, "w:r");
        qr_xml_start(x, "w:rPr");
        qr_xml_leaf(x, "w:rStyle", "w:val", end ? "EndnoteReference" : "FootnoteReference", NULL);
        qr_xml_end(x);
        qr_xml_leaf(x, end ? "w:endnoteRef" : "w:footnoteRef", NULL);
        qr_xml_end(x);
        qr_xml_start(x, "w:r");
        qr_xml_start(x, "w:t");
        qr_xml_attr(x, "xml:space", "preserve");
        qr_xml_text(x, " ", 1);
        qr_xml_end(x);
        qr_xml_end(x);
        if (d->notes[i]) qr_docx_write_runs(d, d->notes[i], (qr_docx_pfmt){0});
        qr_xml_end(x);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    d->x = body;
    d->part = NULL;
    qr_status st = qr_xml_free(x);
    return st == QR_OK ? d->status : st;
}

void qr_docx_notes_part(qr_docx *d)
{
    if (d->status != QR_OK || !d->doc->n_notes || !d->notes) return;
    int end = d->doc->endnotes;
    const char *name = end ? "word/endnotes.xml" : "word/footnotes.xml";
    if (!qr_package_rel(d->pkg, "word/document.xml", end ? QR_REL_ENDNOTES : QR_REL_FOOTNOTES,
                        end ? "endnotes.xml" : "footnotes.xml", 0)) {
        qr_docx_fail(d, QR_E_NOMEM);
        return;
    }
    qr_docx_add_part(d, name, end ? QR_CT_DOCX_ENDNOTES : QR_CT_DOCX_FOOTNOTES, write_notes);
}

/* ---- styles ------------------------------------------------------------------ */

static void style(qr_xml *x, const char *type, const char *id, const char *name, const char *based)
{
    qr_xml_start(x, "w:style");
    qr_xml_attr(x, "w:type", type);
    qr_xml_attr(x, "w:styleId", id);
    qr_xml_leaf(x, "w:name", "w:val", name, NULL);
    if (based) qr_xml_leaf(x, "w:basedOn", "w:val", based, NULL);
}

static void sz(qr_xml *x, double pt)
{
    char v[16];
    snprintf(v, sizeof v, "%ld", lround(pt * 2));
    qr_xml_leaf(x, "w:sz", "w:val", v, NULL);
    qr_xml_leaf(x, "w:szCs", "w:val", v, NULL);
}

static void spacing(qr_xml *x, double before, double after)
{
    char b[16], a[16];
    snprintf(b, sizeof b, "%ld", lround(before * 20));
    snprintf(a, sizeof a, "%ld", lround(after * 20));
    qr_xml_leaf(x, "w:spacing", "w:before", b, "w:after", a, NULL);
}

static void color(qr_xml *x, uint32_t rgb)
{
    char hex[7];
    qr_style_hex(rgb, hex);
    qr_xml_leaf(x, "w:color", "w:val", hex, NULL);
}

static void notes_styles(qr_xml *x, const qr_style *st)
{
    const char *pairs[2][3] = {{"FootnoteText", "footnote text", "FootnoteReference"},
                               {"EndnoteText", "endnote text", "EndnoteReference"}};
    for (int k = 0; k < 2; k++) {
        style(x, "paragraph", pairs[k][0], pairs[k][1], "Normal");
        qr_xml_start(x, "w:pPr");
        qr_xml_leaf(x, "w:spacing", "w:after", "0", "w:line", "240", "w:lineRule", "auto", NULL);
        qr_xml_end(x);
        qr_xml_start(x, "w:rPr");
        sz(x, st->body_pt * 0.8);
        qr_xml_end(x);
        qr_xml_end(x);
        style(x, "character", pairs[k][2], k ? "endnote reference" : "footnote reference",
              "DefaultParagraphFont");
        qr_xml_start(x, "w:rPr");
        qr_xml_leaf(x, "w:vertAlign", "w:val", "superscript", NULL);
        qr_xml_end(x);
        qr_xml_end(x);
    }
}

static void caption_style(qr_xml *x, const qr_style *st)
{
    style(x, "paragraph", "Caption", "caption", "Normal");
    qr_xml_leaf(x, "w:next", "w:val", "Normal", NULL);
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_start(x, "w:pPr");
    spacing(x, 4, 8);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    sz(x, st->table_pt);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void quote_styles(qr_xml *x, const qr_style *st, const char *hex)
{
    style(x, "paragraph", "Quote", "Quote", "Normal");
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_start(x, "w:pPr");
    qr_xml_start(x, "w:pBdr");
    qr_xml_leaf(x, "w:left", "w:val", "single", "w:sz", "24", "w:space", "10", "w:color", hex,
                NULL);
    qr_xml_end(x);
    spacing(x, 4, 4);
    qr_xml_leaf(x, "w:ind", "w:left", "260", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:i", NULL);
    qr_xml_leaf(x, "w:iCs", NULL);
    qr_xml_end(x);
    qr_xml_end(x);

    style(x, "paragraph", "QuoteAttribution", "Quote Attribution", "Quote");
    qr_xml_start(x, "w:pPr");
    spacing(x, 0, st->para_after + 4);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:i", "w:val", "0", NULL);
    qr_xml_leaf(x, "w:iCs", "w:val", "0", NULL);
    sz(x, st->table_pt);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void callout_style(qr_xml *x)
{
    style(x, "paragraph", "Callout", "Callout", "Normal");
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:spacing", "w:before", "0", "w:after", "0", NULL);
    qr_xml_leaf(x, "w:ind", "w:left", "220", "w:right", "160", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void rule_style(qr_xml *x, const char *hex)
{
    style(x, "paragraph", "HorizontalRule", "Horizontal Rule", "Normal");
    qr_xml_start(x, "w:pPr");
    qr_xml_start(x, "w:pBdr");
    qr_xml_leaf(x, "w:bottom", "w:val", "single", "w:sz", "6", "w:space", "1", "w:color", hex,
                NULL);
    qr_xml_end(x);
    spacing(x, 0, 12);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    sz(x, 6);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void toc_styles(qr_docx *d, qr_xml *x, const qr_style *st)
{
    char tw[16];
    style(x, "paragraph", "TOCHeading", "TOC Heading", "Normal");
    qr_xml_leaf(x, "w:next", "w:val", "Normal", NULL);
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:keepNext", NULL);
    spacing(x, st->heading_before[1], st->heading_after[1] + 6);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:b", NULL);
    qr_xml_leaf(x, "w:bCs", NULL);
    color(x, st->heading);
    sz(x, st->heading_pt[1]);
    qr_xml_end(x);
    qr_xml_end(x);

    snprintf(tw, sizeof tw, "%ld", d->text_width);
    for (int lv = 1; lv <= 6; lv++) {
        char id[8], name[8], ind[16];
        snprintf(id, sizeof id, "TOC%d", lv);
        snprintf(name, sizeof name, "toc %d", lv);
        snprintf(ind, sizeof ind, "%ld", lround((lv - 1) * st->list_indent * 20));
        style(x, "paragraph", id, name, "Normal");
        qr_xml_leaf(x, "w:next", "w:val", "Normal", NULL);
        qr_xml_start(x, "w:pPr");
        qr_xml_start(x, "w:tabs");
        qr_xml_leaf(x, "w:tab", "w:val", "right", "w:leader", "dot", "w:pos", tw, NULL);
        qr_xml_end(x);
        qr_xml_leaf(x, "w:spacing", "w:before", "0", "w:after", "60", NULL);
        qr_xml_leaf(x, "w:ind", "w:left", ind, NULL);
        qr_xml_end(x);
        qr_xml_end(x);
    }
}

void qr_docx_more_styles(qr_docx *d, qr_xml *x)
{
    const qr_style *st = &d->style;
    char hex[7];
    /* only the styles the document uses */
    int used[QR_BLOCK_LAST + 1] = {0}, captions = 0;
    for (size_t i = 0; i < d->doc->n_blocks; i++) {
        used[d->doc->blocks[i].type] = 1;
        captions |= d->doc->blocks[i].caption.n > 0;
    }
    if (d->doc->n_notes) notes_styles(x, st);
    if (captions) caption_style(x, st);
    qr_style_hex(st->grid, hex);
    if (used[QR_BLOCK_QUOTE]) quote_styles(x, st, hex);
    if (used[QR_BLOCK_CALLOUT]) callout_style(x);
    if (used[QR_BLOCK_RULE]) rule_style(x, hex);
    if (!used[QR_BLOCK_TOC]) return;
    toc_styles(d, x, st);
}
