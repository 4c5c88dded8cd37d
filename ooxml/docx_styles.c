/* docx_styles.c: word/styles.xml, the style sheet.
 *
 * Word's built-in names and ids, so Word, LibreOffice and python-docx
 * recognise them: "Normal", "Title", "heading 1".."heading 6" (ids
 * Heading1..Heading6, each with its outline level, so the navigation pane
 * and a table of contents see them), "List Paragraph", "Hyperlink",
 * "Table Grid", plus the defaults Word expects (Default Paragraph Font,
 * Normal Table, No List) and two of ours: "Code" (monospace on a grey
 * ground) and "Table Contents" (tight spacing inside cells).
 *
 * The document's defaults: DejaVu Sans (or the theme's body face for
 * Latin text), the theme's body size and text
 * colour, the spec's language; every run names its own fonts anyway
 * (fonts/ picks them per script). Every size and colour is the theme's
 * (layout/style.h), as the PDF, html and pptx backends read them.
 */
#include <math.h>
#include <stdio.h>

#include "rhythm.h"
#include "style.h"

#include "docx_int.h"

static void leaf_val(qr_xml *x, const char *name, const char *val)
{
    qr_xml_leaf(x, name, "w:val", val, NULL);
}

/* <name w:val="RRGGBB"> of a theme colour */
static void leaf_color(qr_xml *x, const char *name, uint32_t rgb)
{
    char hex[7];
    qr_style_hex(rgb, hex);
    leaf_val(x, name, hex);
}

/* twips of a length in points */
static long twips(double pt)
{
    return lround(pt * 20);
}

/* half-points of a size in points */
static long half_points(double pt)
{
    return lround(pt * 2);
}

static void leaf_int(qr_xml *x, const char *name, long val)
{
    qr_xml_start(x, name);
    qr_xml_attr_int(x, "w:val", val);
    qr_xml_end(x);
}

/* <w:style ...> with its name; the caller writes the rest and ends it. */
static void style_start(qr_xml *x, const char *type, const char *id, const char *name, int dflt)
{
    qr_xml_start(x, "w:style");
    qr_xml_attr(x, "w:type", type);
    qr_xml_attr(x, "w:styleId", id);
    if (dflt) qr_xml_attr(x, "w:default", "1");
    leaf_val(x, "w:name", name);
}

/* <w:spacing>: before and after in twips (-1: none), the line pitch of
 * text of size pt exactly (layout/rhythm.h: the PDF's pitch, whatever
 * script a line holds; 0: none) */
static void write_w_spacing(qr_xml *x, long before, long after, double pt)
{
    qr_xml_start(x, "w:spacing");
    if (before >= 0) qr_xml_attr_int(x, "w:before", before);
    if (after >= 0) qr_xml_attr_int(x, "w:after", after);
    if (pt > 0) {
        qr_xml_attr_int(x, "w:line", qr_rhythm_pitch_twips(pt));
        qr_xml_attr(x, "w:lineRule", "exact");
    }
    qr_xml_end(x);
}

/* <w:sz> and <w:szCs> (half-points). */
/* <w:tabs> of code: a stop every QR_LOOK_TAB_COLUMNS columns of the 10 pt
 * monospace font (style.h), across the text width, as the PDF's 8 columns. */
static void write_code_tabs(qr_xml *x, long text_width, double code_pt)
{
    long step = lround(QR_LOOK_TAB_COLUMNS * QR_LOOK_MONO_ADVANCE * code_pt * 20.0);
    qr_xml_start(x, "w:tabs");
    for (long pos = step; pos <= text_width; pos += step) {
        qr_xml_start(x, "w:tab");
        qr_xml_attr(x, "w:val", "left");
        qr_xml_attr_int(x, "w:pos", pos);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

static void write_w_sz(qr_xml *x, long half_points)
{
    leaf_int(x, "w:sz", half_points);
    leaf_int(x, "w:szCs", half_points);
}

/* <w:docDefaults> */
static void write_w_docdefaults(qr_xml *x, const char *lang, const qr_style *st)
{
    qr_xml_start(x, "w:docDefaults");
    qr_xml_start(x, "w:rPrDefault");
    qr_xml_start(x, "w:rPr");
    const char *body = st->body_face ? st->body_face : QR_DOCX_FONT;
    qr_xml_leaf(x, "w:rFonts", "w:ascii", body, "w:hAnsi", body, "w:cs", QR_DOCX_FONT, NULL);
    leaf_color(x, "w:color", st->text);
    /* pair kerning at every size, as the PDF's text is set (pango kerns):
     * without it LibreOffice sets lines wider and breaks them elsewhere */
    leaf_int(x, "w:kern", 2);
    write_w_sz(x, half_points(st->body_pt));
    qr_xml_leaf(x, "w:lang", "w:val", lang, NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_start(x, "w:pPrDefault");
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:widowControl", NULL); /* rhythm.h: QR_RHYTHM_WIDOWS, Word's 2 */
    qr_rhythm_space sp = qr_rhythm_block(st, QR_RHYTHM_PARAGRAPH, 0);
    write_w_spacing(x, twips(sp.before), twips(sp.after), st->body_pt);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <w:style w:styleId="HeadingN"> */
static void write_heading_style(qr_xml *x, int level, const qr_style *st)
{
    char id[16], name[16];
    snprintf(id, sizeof id, "Heading%d", level);
    snprintf(name, sizeof name, "heading %d", level);
    style_start(x, "paragraph", id, name, 0);
    leaf_val(x, "w:basedOn", "Normal");
    leaf_val(x, "w:next", "Normal");
    leaf_int(x, "w:uiPriority", 9);
    if (level > 1) qr_xml_leaf(x, "w:unhideWhenUsed", NULL);
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:keepNext", NULL);
    qr_xml_leaf(x, "w:keepLines", NULL);
    qr_rhythm_space sp = qr_rhythm_block(st, QR_RHYTHM_HEADING, level);
    write_w_spacing(x, twips(sp.before), twips(sp.after), st->heading_pt[level - 1]);
    leaf_int(x, "w:outlineLvl", level - 1);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:b", NULL);
    qr_xml_leaf(x, "w:bCs", NULL);
    if (level >= st->italic_from) {
        qr_xml_leaf(x, "w:i", NULL);
        qr_xml_leaf(x, "w:iCs", NULL);
    }
    leaf_color(x, "w:color", st->heading);
    write_w_sz(x, half_points(st->heading_pt[level - 1]));
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <w:tblBorders> in the theme's grid colour and width (eighths of a point) */
static void write_w_tblborders(qr_xml *x, const qr_style *st)
{
    char hex[7], sz[16];
    qr_style_hex(st->grid, hex);
    snprintf(sz, sizeof sz, "%ld", lround(st->grid_pt * 8));
    static const char *const sides[] = {"w:top",   "w:left",    "w:bottom",
                                        "w:right", "w:insideH", "w:insideV"};
    qr_xml_start(x, "w:tblBorders");
    for (size_t i = 0; i < sizeof sides / sizeof sides[0]; i++)
        qr_xml_leaf(x, sides[i], "w:val", "single", "w:color", hex, "w:sz", sz, "w:space", "0",
                    NULL);
    qr_xml_end(x);
}

/* <w:tblCellMar>: the theme's cell padding left and right, the rhythm's
 * above and below (layout/rhythm.h), as the PDF pads its cells */
static void write_w_tblcellmar(qr_xml *x, long pad, long vpad)
{
    static const char *const sides[] = {"w:top", "w:left", "w:bottom", "w:right"};
    char w[16], v[16];
    snprintf(w, sizeof w, "%ld", pad);
    snprintf(v, sizeof v, "%ld", vpad);
    qr_xml_start(x, "w:tblCellMar");
    for (int i = 0; i < 4; i++)
        qr_xml_leaf(x, sides[i], "w:w", i % 2 ? w : v, "w:type", "dxa", NULL);
    qr_xml_end(x);
}

/* <w:styles> */
qr_status qr_docx_styles(qr_docx *d, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    const char *lang = d->doc->lang && *d->doc->lang ? d->doc->lang : "en-US";
    const char *mono = qr_fonts_mono_family();
    const qr_style *st = &d->style;
    qr_xml_decl(x);
    qr_xml_start(x, "w:styles");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    write_w_docdefaults(x, lang, st);

    style_start(x, "paragraph", "Normal", "Normal", 1);
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_end(x);

    style_start(x, "character", "DefaultParagraphFont", "Default Paragraph Font", 1);
    leaf_int(x, "w:uiPriority", 1);
    qr_xml_leaf(x, "w:semiHidden", NULL);
    qr_xml_leaf(x, "w:unhideWhenUsed", NULL);
    qr_xml_end(x);

    style_start(x, "table", "TableNormal", "Normal Table", 1);
    leaf_int(x, "w:uiPriority", 99);
    qr_xml_leaf(x, "w:semiHidden", NULL);
    qr_xml_leaf(x, "w:unhideWhenUsed", NULL);
    qr_xml_start(x, "w:tblPr");
    qr_xml_leaf(x, "w:tblInd", "w:w", "0", "w:type", "dxa", NULL);
    /* LibreOffice adds a horizontal border's width to the row: half of
     * each comes off the padding, so a row is the PDF's height */
    write_w_tblcellmar(x, twips(st->cell_pad), twips(qr_rhythm_cell_pad(st) - st->grid_pt / 2));
    qr_xml_end(x);
    qr_xml_end(x);

    style_start(x, "numbering", "NoList", "No List", 1);
    leaf_int(x, "w:uiPriority", 99);
    qr_xml_leaf(x, "w:semiHidden", NULL);
    qr_xml_leaf(x, "w:unhideWhenUsed", NULL);
    qr_xml_end(x);

    style_start(x, "paragraph", "Title", "Title", 0);
    leaf_val(x, "w:basedOn", "Normal");
    leaf_val(x, "w:next", "Normal");
    leaf_int(x, "w:uiPriority", 10);
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_start(x, "w:pPr");
    qr_xml_leaf(x, "w:keepNext", NULL);
    if (st->title_rule) {
        char hex[7], sz[16];
        qr_style_hex(st->accent, hex);
        snprintf(sz, sizeof sz, "%ld", lround(st->title_rule_pt * 8));
        qr_xml_start(x, "w:pBdr");
        qr_xml_leaf(x, "w:bottom", "w:val", "single", "w:sz", sz, "w:space", "4", "w:color", hex,
                    NULL);
        qr_xml_end(x);
    }
    write_w_spacing(x, 0, twips(qr_rhythm_block(st, QR_RHYTHM_TITLE, 0).after), st->title_pt);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:b", NULL);
    qr_xml_leaf(x, "w:bCs", NULL);
    leaf_color(x, "w:color", st->title);
    leaf_int(x, "w:kern", 28);
    write_w_sz(x, half_points(st->title_pt));
    qr_xml_end(x);
    qr_xml_end(x);

    for (int level = 1; level <= 6; level++)
        write_heading_style(x, level, st);

    style_start(x, "paragraph", "ListParagraph", "List Paragraph", 0);
    leaf_val(x, "w:basedOn", "Normal");
    leaf_int(x, "w:uiPriority", 34);
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_start(x, "w:pPr");
    /* between items; the list's first and last items carry its own space */
    write_w_spacing(x, 0, twips(qr_rhythm_list_gap(st)), 0);
    qr_xml_leaf(x, "w:ind", "w:left", "720", NULL);
    qr_xml_end(x);
    qr_xml_end(x);

    style_start(x, "paragraph", "Code", "Code", 0);
    leaf_val(x, "w:basedOn", "Normal");
    leaf_int(x, "w:uiPriority", 39);
    qr_xml_leaf(x, "w:qFormat", NULL);
    qr_xml_start(x, "w:pPr");
    /* The code padding, as the PDF pads its box: borders in the fill colour
     * st->code_pad away from the text (the shading reaches them), the text
     * indented as much, so the box spans the text column. */
    char pad_pt[16];
    snprintf(pad_pt, sizeof pad_pt, "%ld", lround(st->code_pad));
    qr_xml_start(x, "w:pBdr");
    static const char *const sides[] = {"w:top", "w:left", "w:bottom", "w:right"};
    for (int i = 0; i < 4; i++)
        qr_xml_leaf(x, sides[i], "w:val", "single", "w:sz", "4", "w:space", pad_pt, "w:color",
                    d->code_fill, NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "w:shd", "w:val", "clear", "w:color", "auto", "w:fill", d->code_fill, NULL);
    write_code_tabs(x, d->text_width, st->code_pt);
    qr_rhythm_space code = qr_rhythm_block(st, QR_RHYTHM_CODE, 0);
    write_w_spacing(x, twips(code.before), twips(code.after), st->code_pt);
    char pad_tw[16];
    snprintf(pad_tw, sizeof pad_tw, "%ld", twips(st->code_pad));
    qr_xml_leaf(x, "w:ind", "w:left", pad_tw, "w:right", pad_tw, NULL);
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:rFonts", "w:ascii", mono, "w:hAnsi", mono, "w:cs", mono, NULL);
    qr_xml_leaf(x, "w:noProof", NULL);
    write_w_sz(x, half_points(st->code_pt));
    qr_xml_end(x);
    qr_xml_end(x);

    style_start(x, "paragraph", "TableContents", "Table Contents", 0);
    leaf_val(x, "w:basedOn", "Normal");
    leaf_int(x, "w:uiPriority", 39);
    qr_xml_start(x, "w:pPr");
    write_w_spacing(x, 0, 0, st->table_pt); /* the cell margins pad it (tblCellMar) */
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    write_w_sz(x, half_points(st->table_pt));
    qr_xml_end(x);
    qr_xml_end(x);

    style_start(x, "character", "Hyperlink", "Hyperlink", 0);
    leaf_val(x, "w:basedOn", "DefaultParagraphFont");
    leaf_int(x, "w:uiPriority", 99);
    qr_xml_leaf(x, "w:unhideWhenUsed", NULL);
    qr_xml_start(x, "w:rPr");
    leaf_color(x, "w:color", st->link);
    leaf_val(x, "w:u", "single");
    qr_xml_end(x);
    qr_xml_end(x);

    style_start(x, "table", "TableGrid", "Table Grid", 0);
    leaf_val(x, "w:basedOn", "TableNormal");
    leaf_int(x, "w:uiPriority", 39);
    qr_xml_start(x, "w:tblPr");
    write_w_tblborders(x, st);
    qr_xml_end(x);
    qr_xml_end(x);

    qr_docx_more_styles(d, x); /* issue 32's: docx_notes.c */

    qr_xml_end(x); /* w:styles */
    return qr_xml_free(x);
}
