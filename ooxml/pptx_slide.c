/* pptx_slide.c: one slide part (ppt/slides/slideN.xml) per spec slide, and
 * the text writers every pptx part shares (a:p, a:pPr, a:rPr).
 *
 * Layout. Every position, size and the shrink-to-fit estimate come from
 * the slide's plan (layout/slide_layout.h), which the PDF/PNG slide painter
 * draws from too: here the plan is only written out. Each slide uses one
 * of the four layouts; its title and text sit in the layout's placeholders
 * with explicit positions.
 *
 * Text. Each paragraph comes from the text layer (text/) as segments of one
 * script and one font; each span is one <a:r> whose <a:rPr> names the family in its
 * slot (a:latin, a:ea or a:cs) and the span's language, so CJK, Arabic and
 * Hebrew get covering fonts in PowerPoint and LibreOffice alike (the a:ea
 * python-pptx cannot set). Paragraphs whose first strong character is
 * right-to-left get rtl="1" and algn="r".
 *
 * Shrink to fit. PowerPoint only computes normAutofit's fontScale after the
 * text is edited, so files from python-pptx and PptxGenJS open with text
 * spilling off the slide. We write the fontScale and lnSpcReduction the
 * plan estimated, so the slide opens fitted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pptx_int.h"
#include "utf8.h"

/* ---- text element writers ----------------------------------------------------------- */

/* <a:rPr> */
void qr_pptx_write_a_rpr(qr_xml *x, const char *name, const qr_pptx_rpr *p)
{
    qr_xml_start(x, name);
    if (p->lang) qr_xml_attr(x, "lang", p->lang);
    if (p->sz) qr_xml_attr_int(x, "sz", p->sz);
    if (p->b) qr_xml_attr(x, "b", "1");
    if (p->i) qr_xml_attr(x, "i", "1");
    if (p->u) qr_xml_attr(x, "u", "sng");
    if (p->strike) qr_xml_attr(x, "strike", "sngStrike");
    /* children in CT_TextCharacterProperties order: ln, solidFill, ... latin, ea, cs, sym,
     * hlinkClick */
    if (p->white) {
        qr_xml_start(x, "a:solidFill");
        qr_xml_leaf(x, "a:srgbClr", "val", "FFFFFF", NULL);
        qr_xml_end(x);
    } else if (p->accent || p->on_accent) {
        qr_xml_start(x, "a:solidFill");
        qr_xml_leaf(x, "a:schemeClr", "val", p->accent ? "accent1" : "lt2", NULL);
        qr_xml_end(x);
    }
    if (p->mono && p->slot != QR_SLOT_LATIN) qr_xml_leaf(x, "a:latin", "typeface", p->mono, NULL);
    if (p->family) {
        const char *slot = p->slot == QR_SLOT_EAST_ASIAN ? "a:ea"
                           : p->slot == QR_SLOT_COMPLEX  ? "a:cs"
                                                         : "a:latin";
        qr_xml_leaf(x, slot, "typeface", p->family, NULL);
    }
    if (p->link_rid) qr_xml_leaf(x, "a:hlinkClick", "r:id", p->link_rid, NULL);
    qr_xml_end(x);
}

/* <a:pPr> */
void qr_pptx_write_a_ppr(qr_xml *x, const qr_pptx_ppr *p)
{
    int algn = p->algn;
    if (p->rtl && (algn == QR_PPTX_ALGN_INHERIT || algn == QR_PPTX_ALGN_L)) algn = QR_PPTX_ALGN_R;
    if (p->bullet == QR_PPTX_BULLET_INHERIT && !p->lvl && !algn && !p->rtl && !p->spc_before)
        return;
    int lvl = p->lvl < 0 ? 0 : p->lvl >= QR_PPTX_LEVELS ? QR_PPTX_LEVELS - 1 : p->lvl;
    qr_xml_start(x, "a:pPr");
    /* attributes in CT_TextParagraphProperties order: marL, marR, lvl, indent, algn, defTabSz, rtl
     */
    if (p->bullet == QR_PPTX_BULLET_CHAR)
        qr_xml_attr_int(x, "marL", qr_pptx_level_marl(lvl));
    else if (p->bullet == QR_PPTX_BULLET_NUM)
        qr_xml_attr_int(x, "marL", QR_SLIDE_NUM_MARL);
    else if (p->bullet == QR_PPTX_BULLET_NONE)
        qr_xml_attr(x, "marL", "0");
    if (lvl) qr_xml_attr_int(x, "lvl", lvl);
    if (p->bullet == QR_PPTX_BULLET_CHAR)
        qr_xml_attr_int(x, "indent", qr_pptx_level_indent(lvl));
    else if (p->bullet == QR_PPTX_BULLET_NUM)
        qr_xml_attr_int(x, "indent", -QR_SLIDE_NUM_MARL);
    else if (p->bullet == QR_PPTX_BULLET_NONE)
        qr_xml_attr(x, "indent", "0");
    if (algn == QR_PPTX_ALGN_L)
        qr_xml_attr(x, "algn", "l");
    else if (algn == QR_PPTX_ALGN_CTR)
        qr_xml_attr(x, "algn", "ctr");
    else if (algn == QR_PPTX_ALGN_R)
        qr_xml_attr(x, "algn", "r");
    if (p->rtl) qr_xml_attr(x, "rtl", "1");
    if (p->spc_before) {
        qr_xml_start(x, "a:spcBef");
        qr_xml_start(x, "a:spcPts");
        qr_xml_attr_int(x, "val", p->spc_before);
        qr_xml_end(x);
        qr_xml_end(x);
    }
    if (p->bullet == QR_PPTX_BULLET_CHAR) {
        qr_xml_leaf(x, "a:buFont", "typeface", QR_PPTX_FONT_LATIN, NULL);
        qr_xml_leaf(x, "a:buChar", "char", qr_pptx_level_char(lvl), NULL);
    } else if (p->bullet == QR_PPTX_BULLET_NUM) {
        qr_xml_leaf(x, "a:buFont", "typeface", QR_PPTX_FONT_LATIN, NULL);
        qr_xml_start(x, "a:buAutoNum");
        qr_xml_attr(x, "type", "arabicPeriod");
        if (p->start_at > 1) qr_xml_attr_int(x, "startAt", p->start_at);
        qr_xml_end(x);
    } else if (p->bullet == QR_PPTX_BULLET_NONE) {
        qr_xml_leaf(x, "a:buNone", NULL);
    }
    qr_xml_end(x);
}

/* <a:r> over the text and tab segments g[0..n) of one span: a tab stays a
 * tab character in <a:t>, as PowerPoint writes it (DrawingML has no tab
 * element); PowerPoint and LibreOffice move it to the next tab stop. */
static void write_a_r(qr_xml *x, const qr_seg *g, size_t n, const qr_pptx_rpr *rpr)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++)
        len += g[i].len;
    qr_xml_start(x, "a:r");
    qr_pptx_write_a_rpr(x, "a:rPr", rpr);
    qr_xml_start(x, "a:t");
    qr_xml_text(x, g[0].text, len);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <a:p>; accent 1: the text in the accent, 2: in the text-on-accent colour, 3: white */
static void write_a_p_full(qr_pptx *pp, qr_xml *x, const qr_text *t, qr_pptx_ppr ppr, int sz,
                           int bold, int accent)
{
    const qr_segs *sg = NULL;
    if (qr_text_segments(&pp->text, t, &sg) != QR_OK) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        sg = NULL;
    }
    ppr.rtl = sg && sg->dir == QR_DIR_RTL;
    qr_xml_start(x, "a:p");
    qr_pptx_write_a_ppr(x, &ppr);
    for (size_t i = 0, next; sg && i < sg->n; i = next) {
        const qr_seg *g = &sg->items[i];
        next = i + 1;
        qr_pptx_rpr rpr = {0};
        rpr.lang = g->lang ? g->lang : pp->doc->lang;
        rpr.sz = sz;
        rpr.b = g->bold || bold;
        rpr.accent = accent == 1;
        rpr.on_accent = accent == 2;
        rpr.white = accent == QR_SLIDE_INK_WHITE;
        rpr.i = g->italic;
        rpr.u = g->underline && !g->bare; /* under the words only (text/) */
        rpr.strike = g->strike;
        rpr.slot = g->slot;
        /* Code: the monospace font in the Latin slot whatever the script,
         * as docx does; other scripts keep their font in a:ea or a:cs. */
        rpr.family = g->code && g->slot == QR_SLOT_LATIN ? qr_fonts_mono_family() : g->family;
        rpr.mono = g->code ? qr_fonts_mono_family() : NULL;
        rpr.link_rid = g->link ? qr_pptx_link_rid(pp, g->link) : NULL;
        if (g->kind == QR_SEG_BREAK) {
            qr_xml_start(x, "a:br");
            qr_pptx_write_a_rpr(x, "a:rPr", &rpr);
            qr_xml_end(x);
            continue;
        }
        while (next < sg->n && sg->items[next].span == g->span &&
               sg->items[next].kind != QR_SEG_BREAK)
            next++;
        write_a_r(x, g, next - i, &rpr);
    }
    if (sz || pp->doc->lang) {
        qr_pptx_rpr end = {0};
        end.lang = pp->doc->lang;
        end.sz = sz;
        end.b = bold;
        end.accent = accent == 1;
        end.on_accent = accent == 2;
        end.white = accent == QR_SLIDE_INK_WHITE;
        qr_pptx_write_a_rpr(x, "a:endParaRPr", &end);
    }
    qr_xml_end(x);
}

void qr_pptx_write_a_p(qr_pptx *pp, qr_xml *x, const qr_text *t, qr_pptx_ppr ppr, int sz)
{
    write_a_p_full(pp, x, t, ppr, sz, 0, 0);
}

/* ---- shapes ------------------------------------------------------------------------ */

/* A text shape: a placeholder of the layout, or a text box (blank layout). */
typedef struct text_shape {
    const char *name;
    int placeholder;
    const char *ph_type; /* NULL: the content placeholder (obj) */
    int ph_idx;
    const char *anchor; /* text boxes only */
    const qr_slide_shape *sh;
} text_shape;

/* <a:bodyPr> with the plan's <a:normAutofit>. */
static void write_a_bodypr(qr_pptx *pp, qr_xml *x, const text_shape *ts, const char *slide_path)
{
    const qr_slide_shape *sh = ts->sh;
    if (!sh->fits)
        qr_errlist_addf(pp->ctx->warnings, QR_OK, slide_path, "split the text over more slides",
                        "the text of \"%s\" does not fit the slide even shrunk to 25 %%", ts->name);
    qr_xml_start(x, "a:bodyPr");
    if (!ts->placeholder) {
        qr_xml_attr(x, "wrap", "square");
        qr_xml_attr(x, "rtlCol", "0");
        if (ts->anchor) qr_xml_attr(x, "anchor", ts->anchor);
    }
    qr_xml_start(x, "a:normAutofit");
    if (sh->font_scale != 100000) qr_xml_attr_int(x, "fontScale", sh->font_scale);
    if (sh->ln_reduction) qr_xml_attr_int(x, "lnSpcReduction", sh->ln_reduction);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:sp> */
static void write_p_sp(qr_pptx *pp, qr_xml *x, int id, const text_shape *ts, const char *slide_path)
{
    const qr_slide_shape *sh = ts->sh;
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", ts->name);
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvSpPr");
    if (ts->placeholder)
        qr_xml_leaf(x, "a:spLocks", "noGrp", "1", NULL);
    else
        qr_xml_attr(x, "txBox", "1");
    qr_xml_end(x);
    qr_xml_start(x, "p:nvPr");
    if (ts->placeholder) {
        qr_xml_start(x, "p:ph");
        if (ts->ph_type) qr_xml_attr(x, "type", ts->ph_type);
        if (ts->ph_idx) qr_xml_attr_int(x, "idx", ts->ph_idx);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    qr_xml_end(x); /* p:nvSpPr */
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", &sh->box);
    if (!ts->placeholder) {
        qr_xml_start(x, "a:prstGeom");
        qr_xml_attr(x, "prst", "rect");
        qr_xml_leaf(x, "a:avLst", NULL);
        qr_xml_end(x);
        qr_xml_leaf(x, "a:noFill", NULL);
    }
    qr_xml_end(x);
    qr_xml_start(x, "p:txBody");
    write_a_bodypr(pp, x, ts, slide_path);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    for (size_t i = 0; i < sh->n; i++) {
        const qr_slide_para *p = &sh->paras[i];
        qr_pptx_ppr ppr = {.lvl = p->lvl, .bullet = p->bullet, .algn = p->algn};
        /* numbers run on from the shape's first (a continued agenda: startAt) */
        if (p->bullet == QR_SLIDE_BULLET_NUM) ppr.start_at = sh->paras[0].num;
        /* a text box has no master's spacing: the plan's, between paragraphs */
        if (!ts->placeholder && i > 0) ppr.spc_before = p->space_before;
        write_a_p_full(pp, x, p->text, ppr, ts->placeholder ? 0 : p->sz, p->bold, p->accent);
    }
    if (sh->n == 0) qr_xml_leaf(x, "a:p", NULL); /* a txBody needs one a:p */
    qr_xml_end(x);                               /* p:txBody */
    qr_xml_end(x);                               /* p:sp */
}

/* ---- tables ------------------------------------------------------------------------ */

/* <a:tc> */
static void write_a_tc(qr_pptx *pp, qr_xml *x, const qr_tcell *cell, int sz, int header)
{
    static const qr_text empty = {NULL, 0, NULL};
    qr_xml_start(x, "a:tc");
    qr_xml_start(x, "a:txBody");
    qr_xml_leaf(x, "a:bodyPr", NULL);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    qr_pptx_ppr ppr = {0};
    if (cell && cell->kind == QR_TCELL_NUMBER) ppr.algn = QR_PPTX_ALGN_R;
    /* a header cell sits on the accent (the table style's firstRow): its text in the
     * colour that reads on it, white or near-black by contrast (a light accent) */
    write_a_p_full(pp, x, cell ? &cell->text : &empty, ppr, sz, header, header ? 2 : 0);
    qr_xml_end(x); /* a:txBody */
    qr_xml_start(x, "a:tcPr");
    qr_xml_attr_int(x, "marL", QR_SLIDE_CELL_MAR_LR);
    qr_xml_attr_int(x, "marR", QR_SLIDE_CELL_MAR_LR);
    qr_xml_attr_int(x, "marT", QR_SLIDE_CELL_MAR_TB);
    qr_xml_attr_int(x, "marB", QR_SLIDE_CELL_MAR_TB);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:graphicFrame> holding an <a:tbl> on the plan's grid. */
static void write_p_graphicframe(qr_pptx *pp, qr_xml *x, int id, const qr_table *t,
                                 const qr_slide_grid *g, const char *slide_path)
{
    if (g->nr == 0) return;
    if (!g->fits)
        qr_errlist_addf(pp->ctx->warnings, QR_OK, t->path ? t->path : slide_path,
                        "split the table over more slides",
                        "the table does not fit the slide even at 8 pt");

    qr_xml_start(x, "p:graphicFrame");
    qr_xml_start(x, "p:nvGraphicFramePr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", "Table");
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvGraphicFramePr");
    qr_xml_leaf(x, "a:graphicFrameLocks", "noGrp", "1", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    qr_pptx_write_xfrm(x, "p:xfrm", &g->box);
    qr_xml_start(x, "a:graphic");
    qr_xml_start(x, "a:graphicData");
    qr_xml_attr(x, "uri", "http://schemas.openxmlformats.org/drawingml/2006/table");
    qr_xml_start(x, "a:tbl");
    qr_xml_start(x, "a:tblPr");
    if (t->headers) qr_xml_attr(x, "firstRow", "1");
    qr_xml_attr(x, "bandRow", "1");
    qr_xml_elem_text(x, "a:tableStyleId", "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}");
    qr_xml_end(x);
    qr_xml_start(x, "a:tblGrid");
    for (size_t c = 0; c < g->nc; c++) {
        qr_xml_start(x, "a:gridCol");
        qr_xml_attr_int(x, "w", g->cols[c]);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    for (size_t r = 0; r < g->nr; r++) {
        qr_xml_start(x, "a:tr");
        qr_xml_attr_int(x, "h", g->rows[r]);
        for (size_t c = 0; c < g->nc; c++)
            write_a_tc(pp, x, qr_slide_table_cell(t, r, c), g->sz, t->headers && r == 0);
        qr_xml_end(x);
    }
    qr_xml_end(x); /* a:tbl */
    qr_xml_end(x); /* a:graphicData */
    qr_xml_end(x); /* a:graphic */
    qr_xml_end(x); /* p:graphicFrame */
}

/* ---- pictures ---------------------------------------------------------------------- */

/* 1/1000 % of whole the part a of src lies outside box on one side. */
static long long crop_of(long long outside, long long whole)
{
    return outside > 0 && whole > 0 ? outside * 100000 / whole : 0;
}

/* <a:blipFill> (name "p:blipFill" in a picture, "a:blipFill" in a ground)
 * of img, cropped (a:srcRect) to box when src, where the whole picture
 * goes, is given. 0, or -1 when the media or its relationship failed. */
static int write_blipfill(qr_pptx *pp, qr_xml *x, const char *name, const qr_image *img,
                          const qr_pptx_box *box, const qr_pptx_box *src, const char *part)
{
    /* one media part per picture's bytes (the deck's logo on every slide) */
    const char *file = qr_pptx_media(pp, img);
    if (!file) return -1;
    char target[512];
    snprintf(target, sizeof target, "../media/%s", file);
    const char *rid = qr_package_rel(pp->pkg, part, QR_REL_IMAGE, target, 0);
    if (!rid) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        return -1;
    }
    qr_xml_start(x, name);
    qr_xml_leaf(x, "a:blip", "r:embed", rid, NULL);
    if (src) {
        long long l = crop_of(box->x - src->x, src->cx), t = crop_of(box->y - src->y, src->cy),
                  r = crop_of(src->x + src->cx - box->x - box->cx, src->cx),
                  b = crop_of(src->y + src->cy - box->y - box->cy, src->cy);
        qr_xml_start(x, "a:srcRect");
        if (l) qr_xml_attr_int(x, "l", l);
        if (t) qr_xml_attr_int(x, "t", t);
        if (r) qr_xml_attr_int(x, "r", r);
        if (b) qr_xml_attr_int(x, "b", b);
        qr_xml_end(x);
    }
    qr_xml_start(x, "a:stretch");
    qr_xml_leaf(x, "a:fillRect", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    return 0;
}

static void write_a_blipfill(qr_pptx *pp, qr_xml *x, const qr_image *img, const qr_pptx_box *box,
                             const qr_pptx_box *src, const char *part)
{
    write_blipfill(pp, x, "a:blipFill", img, box, src, part);
}

/* <p:pic> in the plan's box; src: where the whole picture goes when it is
 * cropped to box (a:srcRect), or NULL. */
static void write_p_pic(qr_pptx *pp, qr_xml *x, int id, const qr_image *img, const qr_pptx_box *box,
                        const qr_pptx_box *src, const char *name, const char *part)
{
    if (pp->status != QR_OK) return;
    qr_xml_start(x, "p:pic");
    qr_xml_start(x, "p:nvPicPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", name ? name : img->name);
    qr_xml_attr(x, "descr", qr_plain(&img->alt));
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvPicPr");
    qr_xml_leaf(x, "a:picLocks", "noChangeAspect", "1", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    write_blipfill(pp, x, "p:blipFill", img, box, src, part);
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", box);
    qr_xml_start(x, "a:prstGeom");
    qr_xml_attr(x, "prst", "rect");
    qr_xml_leaf(x, "a:avLst", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x); /* p:pic */
}

/* ---- the slide ---------------------------------------------------------------------- */

static const int layout_part[] = {
    [QR_LAYOUT_TITLE_CONTENT] = QR_PPTX_LAYOUT_CONTENT,
    [QR_LAYOUT_TITLE] = QR_PPTX_LAYOUT_TITLE,
    [QR_LAYOUT_SECTION] = QR_PPTX_LAYOUT_SECTION,
    [QR_LAYOUT_BLANK] = QR_PPTX_LAYOUT_BLANK,
    /* text boxes at the plan's places (layout/slide_layout.c) */
    [QR_LAYOUT_QUOTE] = QR_PPTX_LAYOUT_BLANK,
    [QR_LAYOUT_STATS] = QR_PPTX_LAYOUT_BLANK,
    [QR_LAYOUT_CLOSING] = QR_PPTX_LAYOUT_BLANK,
    [QR_LAYOUT_TWO_CONTENT] = QR_PPTX_LAYOUT_BLANK,
    [QR_LAYOUT_COMPARISON] = QR_PPTX_LAYOUT_BLANK,
    [QR_LAYOUT_IMAGE_FULL] = QR_PPTX_LAYOUT_BLANK,
    [QR_LAYOUT_AGENDA] = QR_PPTX_LAYOUT_BLANK,
};
_Static_assert(sizeof layout_part / sizeof layout_part[0] == QR_LAYOUT_COUNT,
               "a layout part for every layout");

/* image_full's scrim: a rectangle of 55 % black, no line. */
static void write_scrim(qr_xml *x, int id, const qr_pptx_box *box)
{
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", "Scrim");
    qr_xml_end(x);
    qr_xml_leaf(x, "p:cNvSpPr", NULL);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", box);
    qr_xml_start(x, "a:prstGeom");
    qr_xml_attr(x, "prst", "rect");
    qr_xml_leaf(x, "a:avLst", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "a:solidFill");
    qr_xml_start(x, "a:srgbClr");
    qr_xml_attr(x, "val", "000000");
    qr_xml_leaf(x, "a:alpha", "val", "55000", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_start(x, "a:ln");
    qr_xml_leaf(x, "a:noFill", NULL);
    qr_xml_end(x);
    qr_xml_end(x); /* p:spPr */
    qr_xml_end(x); /* p:sp */
}

/* The plan's visuals: pictures, tables, charts of columns (image_full's picture). */
static void write_vis(qr_pptx *pp, qr_xml *x, int *id, const qr_slide_vis *v, const char *part,
                      const char *slide_path)
{
    if (v->image)
        write_p_pic(pp, x, (*id)++, v->image, &v->box, &v->src,
                    v->table || v->chart || strcmp(v->name, "Picture (full)") ? NULL : v->name,
                    part);
    if (v->table) write_p_graphicframe(pp, x, (*id)++, v->table, &v->grid, slide_path);
    if (v->chart) qr_pptx_write_chart(pp, x, (*id)++, v->chart, v->box, part);
}

/* A text box's bodyPr anchor: NULL for the top (the default). */
static const char *anchor_name(int anchor)
{
    return anchor == QR_SLIDE_ANCHOR_CTR ? "ctr" : anchor == QR_SLIDE_ANCHOR_B ? "b" : NULL;
}

/* <p:sld> */
qr_status qr_pptx_slide(qr_pptx *pp, size_t i)
{
    const qr_slide *sl = &pp->doc->slides[i];
    char part[64], target[64];
    snprintf(part, sizeof part, "ppt/slides/slide%zu.xml", i + 1);
    int lay = layout_part[sl->layout];
    snprintf(target, sizeof target, "../slideLayouts/slideLayout%d.xml", lay + 1);
    if (!qr_package_rel(pp->pkg, part, QR_REL_SLIDE_LAYOUT, target, 0))
        return qr_pptx_fail(pp, QR_E_NOMEM);
    pp->part = part;
    pp->n_links = 0;

    qr_slide_plan plan;
    if (qr_slide_plan_make(&plan, &pp->geom, sl) != QR_OK) return qr_pptx_fail(pp, QR_E_NOMEM);
    if (qr_slide_plan_furniture(&plan, pp->doc, &pp->geom, (int)i + 1) != QR_OK) {
        qr_slide_plan_free(&plan);
        return qr_pptx_fail(pp, QR_E_NOMEM);
    }
    qr_slide_plan_report(&plan, (int)i + 1, pp->ctx->layout);

    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) goto done;
    qr_pptx_root(x, "p:sld");
    qr_xml_start(x, "p:cSld");
    if (plan.has_ground || plan.ground_image) { /* <p:bg> before the shapes */
        char hex[7];
        snprintf(hex, sizeof hex, "%06X", (unsigned)plan.ground & 0xFFFFFFu);
        qr_xml_start(x, "p:bg");
        qr_xml_start(x, "p:bgPr");
        if (plan.ground_image) {
            write_a_blipfill(pp, x, plan.ground_image,
                             &(qr_pptx_box){0, 0, pp->geom.sw, pp->geom.sh}, &plan.ground_src,
                             part);
        } else {
            qr_xml_start(x, "a:solidFill");
            qr_xml_leaf(x, "a:srgbClr", "val", hex, NULL);
            qr_xml_end(x);
        }
        qr_xml_leaf(x, "a:effectLst", NULL);
        qr_xml_end(x);
        qr_xml_end(x);
    }
    qr_xml_start(x, "p:spTree");
    qr_pptx_write_tree_start(x);
    int id = 2;
    int full = sl->layout == QR_LAYOUT_IMAGE_FULL; /* the picture under everything */
    for (size_t k = 0; full && k < plan.n_vis; k++)
        write_vis(pp, x, &id, &plan.vis[k], part, sl->path);
    if (plan.scrim) write_scrim(x, id++, &plan.scrim_box);
    if (plan.title.n) {
        text_shape ts = {.name = sl->layout == QR_LAYOUT_CLOSING ? "Title (closing)" : "Title",
                         .placeholder = plan.placeholders,
                         .ph_type = plan.title_ph,
                         .anchor = anchor_name(plan.title.anchor),
                         .sh = &plan.title};
        write_p_sp(pp, x, id++, &ts, sl->path);
    }
    if (plan.body.n) {
        text_shape ts = {.name = "Content",
                         .placeholder = plan.placeholders,
                         .ph_type = plan.body_ph,
                         .ph_idx = 1,
                         .anchor = anchor_name(plan.body.anchor),
                         .sh = &plan.body};
        write_p_sp(pp, x, id++, &ts, sl->path);
    }
    for (size_t k = 0; k < plan.n_extra; k++) {
        text_shape ts = {.name = plan.extra_name[k],
                         .anchor = anchor_name(plan.extra[k].anchor),
                         .sh = &plan.extra[k]};
        write_p_sp(pp, x, id++, &ts, sl->path);
    }
    for (size_t k = 0; !full && k < plan.n_vis; k++)
        write_vis(pp, x, &id, &plan.vis[k], part, sl->path);
    if (sl->table) write_p_graphicframe(pp, x, id++, sl->table, &plan.table, sl->path);
    if (sl->image && !full) write_p_pic(pp, x, id++, sl->image, &plan.image, NULL, NULL, part);
    if (sl->chart) qr_pptx_write_chart(pp, x, id++, sl->chart, plan.chart, part);
    if (plan.logo) write_p_pic(pp, x, id++, plan.logo, &plan.logo_box, NULL, "Logo", part);
    qr_xml_end(x); /* p:spTree */
    qr_xml_end(x); /* p:cSld */
    qr_xml_start(x, "p:clrMapOvr");
    qr_xml_leaf(x, "a:masterClrMapping", NULL);
    qr_xml_end(x);
    qr_xml_end(x); /* p:sld */
    qr_pptx_add(pp, part, QR_CT_PPTX_SLIDE, &b, x);
done:
    qr_slide_plan_free(&plan);
    pp->part = NULL;
    return pp->status;
}
