/* pptx_master.c: the slide master (ppt/slideMasters/slideMaster1.xml) and
 * the four layouts every package carries (ppt/slideLayouts/slideLayoutN.xml):
 * 1 title (ctrTitle + subTitle), 2 title_content (title + content, the
 * default), 3 section (secHead: title + body), 4 blank.
 *
 * The master's txStyles hold the text styles the slides inherit: the
 * title at 44 pt, nine body levels with real bullet glyphs (• – ▪) and a
 * hanging indent per level, all in the theme fonts (+mj/+mn latin, ea,
 * cs). Slides repeat the bullet and indent on each paragraph, so a reader
 * that ignores inheritance still sees the levels.
 */
#include <stdio.h>

#include "pptx_int.h"

/* ---- small shared writers ---------------------------------------------------------- */

/* <a:xfrm> (or <p:xfrm> for graphic frames) */
void qr_pptx_write_xfrm(qr_xml *x, const char *name, const qr_pptx_box *b)
{
    qr_xml_start(x, name);
    qr_xml_start(x, "a:off");
    qr_xml_attr_int(x, "x", b->x);
    qr_xml_attr_int(x, "y", b->y);
    qr_xml_end(x);
    qr_xml_start(x, "a:ext");
    qr_xml_attr_int(x, "cx", b->cx);
    qr_xml_attr_int(x, "cy", b->cy);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:nvGrpSpPr> and <p:grpSpPr> */
void qr_pptx_write_tree_start(qr_xml *x)
{
    qr_xml_start(x, "p:nvGrpSpPr");
    qr_xml_leaf(x, "p:cNvPr", "id", "1", "name", "", NULL);
    qr_xml_leaf(x, "p:cNvGrpSpPr", NULL);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:grpSpPr");
    qr_pptx_box zero = {0, 0, 0, 0};
    qr_pptx_write_xfrm(x, "a:xfrm", &zero);
    qr_xml_end(x);
}

/* <a:defRPr> of a level style, its text in scheme colour clr ("tx1"). */
void qr_pptx_write_a_defrpr(qr_xml *x, int sz, const char *clr, const char *lt, const char *ea,
                            const char *cs)
{
    qr_xml_start(x, "a:defRPr");
    qr_xml_attr_int(x, "sz", sz);
    qr_xml_attr(x, "kern", "1200");
    qr_xml_start(x, "a:solidFill");
    qr_xml_leaf(x, "a:schemeClr", "val", clr, NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "a:latin", "typeface", lt, NULL);
    qr_xml_leaf(x, "a:ea", "typeface", ea, NULL);
    qr_xml_leaf(x, "a:cs", "typeface", cs, NULL);
    qr_xml_end(x);
}

/* <a:lnSpc> with a percentage in 1/1000 %. */
static void write_a_lnspc(qr_xml *x, int pct)
{
    qr_xml_start(x, "a:lnSpc");
    qr_xml_start(x, "a:spcPct");
    qr_xml_attr_int(x, "val", pct);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <a:spcBef> in hundredths of a point. */
static void write_a_spcbef(qr_xml *x, int pts)
{
    qr_xml_start(x, "a:spcBef");
    qr_xml_start(x, "a:spcPts");
    qr_xml_attr_int(x, "val", pts);
    qr_xml_end(x);
    qr_xml_end(x);
}

static void lvl_name(char *buf, int l)
{
    snprintf(buf, 16, "a:lvl%dpPr", l + 1);
}

/* <a:lvl1pPr> .. <a:lvl9pPr> of the body style. */
void qr_pptx_write_body_levels(qr_xml *x, const char *lt, const char *ea, const char *cs)
{
    char name[16];
    for (int l = 0; l < QR_PPTX_LEVELS; l++) {
        lvl_name(name, l);
        qr_xml_start(x, name);
        qr_xml_attr_int(x, "marL", qr_pptx_level_marl(l));
        qr_xml_attr_int(x, "indent", qr_pptx_level_indent(l));
        qr_xml_attr(x, "algn", "l");
        qr_xml_attr(x, "defTabSz", "914400");
        write_a_lnspc(x, 90000);
        write_a_spcbef(x, l == 0 ? 1000 : 500);
        qr_xml_leaf(x, "a:buFont", "typeface", QR_PPTX_FONT_LATIN, NULL);
        qr_xml_leaf(x, "a:buChar", "char", qr_pptx_level_char(l), NULL);
        qr_pptx_write_a_defrpr(x, qr_pptx_level_sz(l), "tx1", lt, ea, cs);
        qr_xml_end(x);
    }
}

/* <p:titleStyle> */
static void write_p_titlestyle(qr_xml *x)
{
    qr_xml_start(x, "p:titleStyle");
    qr_xml_start(x, "a:lvl1pPr");
    qr_xml_attr(x, "algn", "l");
    qr_xml_attr(x, "defTabSz", "914400");
    write_a_lnspc(x, 90000);
    write_a_spcbef(x, 0);
    qr_xml_leaf(x, "a:buNone", NULL);
    /* titles in tx2: the theme's title colour (dk2) */
    qr_pptx_write_a_defrpr(x, QR_PPTX_SZ_TITLE, "tx2", "+mj-lt", "+mj-ea", "+mj-cs");
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:bodyStyle> */
static void write_p_bodystyle(qr_xml *x)
{
    qr_xml_start(x, "p:bodyStyle");
    qr_pptx_write_body_levels(x, "+mn-lt", "+mn-ea", "+mn-cs");
    qr_xml_end(x);
}

/* <p:otherStyle>: text outside placeholders (text boxes, tables). */
static void write_p_otherstyle(qr_xml *x)
{
    char name[16];
    qr_xml_start(x, "p:otherStyle");
    qr_xml_start(x, "a:defPPr");
    qr_xml_leaf(x, "a:defRPr", "lang", "en-US", NULL);
    qr_xml_end(x);
    for (int l = 0; l < QR_PPTX_LEVELS; l++) {
        lvl_name(name, l);
        qr_xml_start(x, name);
        qr_xml_attr_int(x, "marL", 457200LL * l);
        qr_xml_attr(x, "algn", "l");
        qr_xml_attr(x, "defTabSz", "914400");
        qr_pptx_write_a_defrpr(x, 1800, "tx1", "+mn-lt", "+mn-ea", "+mn-cs");
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* A placeholder's kind. */
typedef struct ph_spec {
    const char *type; /* ph type, NULL for the default (obj) */
    int idx;          /* ph idx, 0 = omitted */
    const char *name;
    const qr_pptx_box *box;
    const char *anchor; /* bodyPr anchor, or NULL */
    int sz;             /* lstStyle lvl1 size, 0 = none */
    int centered;       /* lstStyle lvl1 algn="ctr" */
    int plain;          /* lstStyle lvl1: no bullet, no indent */
    int on_accent;      /* lstStyle lvl1 text in lt2, the theme's text on the accent */
} ph_spec;

/* <p:sp> of a placeholder in the master or a layout. */
static void write_p_sp_placeholder(qr_xml *x, int id, const ph_spec *ph)
{
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", ph->name);
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvSpPr");
    qr_xml_leaf(x, "a:spLocks", "noGrp", "1", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:nvPr");
    qr_xml_start(x, "p:ph");
    if (ph->type) qr_xml_attr(x, "type", ph->type);
    if (ph->idx) qr_xml_attr_int(x, "idx", ph->idx);
    qr_xml_end(x);
    qr_xml_end(x); /* p:nvPr */
    qr_xml_end(x); /* p:nvSpPr */
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", ph->box);
    qr_xml_start(x, "a:prstGeom");
    qr_xml_attr(x, "prst", "rect");
    qr_xml_leaf(x, "a:avLst", NULL);
    qr_xml_end(x);
    qr_xml_end(x); /* p:spPr */
    qr_xml_start(x, "p:txBody");
    qr_xml_start(x, "a:bodyPr");
    qr_xml_attr(x, "vert", "horz");
    qr_xml_attr(x, "wrap", "square");
    qr_xml_attr(x, "lIns", "91440");
    qr_xml_attr(x, "tIns", "45720");
    qr_xml_attr(x, "rIns", "91440");
    qr_xml_attr(x, "bIns", "45720");
    qr_xml_attr(x, "rtlCol", "0");
    if (ph->anchor) qr_xml_attr(x, "anchor", ph->anchor);
    qr_xml_leaf(x, "a:normAutofit", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "a:lstStyle");
    if (ph->sz || ph->centered || ph->plain) {
        qr_xml_start(x, "a:lvl1pPr");
        if (ph->plain) {
            qr_xml_attr(x, "marL", "0");
            qr_xml_attr(x, "indent", "0");
        }
        if (ph->centered) qr_xml_attr(x, "algn", "ctr");
        if (ph->plain) qr_xml_leaf(x, "a:buNone", NULL);
        if (ph->sz) {
            qr_xml_start(x, "a:defRPr");
            qr_xml_attr_int(x, "sz", ph->sz);
            if (ph->on_accent) {
                qr_xml_start(x, "a:solidFill");
                qr_xml_leaf(x, "a:schemeClr", "val", "lt2", NULL);
                qr_xml_end(x);
            }
            qr_xml_end(x);
        }
        qr_xml_end(x);
    }
    qr_xml_end(x); /* a:lstStyle */
    qr_xml_leaf(x, "a:p", NULL);
    qr_xml_end(x); /* p:txBody */
    qr_xml_end(x); /* p:sp */
}

/* <p:sp> of a theme decoration: a rectangle filled with accent1, no line. */
static void write_p_sp_accent(qr_xml *x, int id, const char *name, const qr_pptx_box *box)
{
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", name);
    qr_xml_end(x);
    qr_xml_leaf(x, "p:cNvSpPr", NULL);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x); /* p:nvSpPr */
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", box);
    qr_xml_start(x, "a:prstGeom");
    qr_xml_attr(x, "prst", "rect");
    qr_xml_leaf(x, "a:avLst", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "a:solidFill");
    qr_xml_leaf(x, "a:schemeClr", "val", "accent1", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "a:ln");
    qr_xml_leaf(x, "a:noFill", NULL);
    qr_xml_end(x);
    qr_xml_end(x); /* p:spPr */
    qr_xml_end(x); /* p:sp */
}

/* <p:bg> of a layout: accent1 (section slides of themes that fill them). */
static void write_p_bg_accent(qr_xml *x)
{
    qr_xml_start(x, "p:bg");
    qr_xml_start(x, "p:bgPr");
    qr_xml_start(x, "a:solidFill");
    qr_xml_leaf(x, "a:schemeClr", "val", "accent1", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "a:effectLst", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:clrMap> */
static void write_p_clrmap(qr_xml *x, int dark)
{
    qr_xml_leaf(x, "p:clrMap", "bg1", dark ? "dk1" : "lt1", "tx1", dark ? "lt1" : "dk1", "bg2",
                "lt2", "tx2", "dk2", "accent1", "accent1", "accent2", "accent2", "accent3",
                "accent3", "accent4", "accent4", "accent5", "accent5", "accent6", "accent6",
                "hlink", "hlink", "folHlink", "folHlink", NULL);
}

/* <p:bg> from the theme's first background fill, in bg1 (white). */
static void write_p_bg(qr_xml *x)
{
    qr_xml_start(x, "p:bg");
    qr_xml_start(x, "p:bgRef");
    qr_xml_attr(x, "idx", "1001");
    qr_xml_leaf(x, "a:schemeClr", "val", "bg1", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:sldMaster> */
static qr_status write_master(qr_pptx *pp, const char *const *layout_rids)
{
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    const qr_pptx_geom *g = &pp->geom;
    qr_pptx_root(x, "p:sldMaster");
    qr_xml_start(x, "p:cSld");
    write_p_bg(x);
    qr_xml_start(x, "p:spTree");
    qr_pptx_write_tree_start(x);
    ph_spec title = {
        .type = "title", .name = "Title Placeholder 1", .box = &g->title, .anchor = "ctr"};
    ph_spec body = {.type = "body", .idx = 1, .name = "Text Placeholder 2", .box = &g->body};
    write_p_sp_placeholder(x, 2, &title);
    write_p_sp_placeholder(x, 3, &body);
    if (pp->style.accent_bar) write_p_sp_accent(x, 4, "Accent Bar", &g->accent_bar);
    qr_xml_end(x); /* p:spTree */
    qr_xml_end(x); /* p:cSld */
    write_p_clrmap(x, qr_style_dark(&pp->style));
    qr_xml_start(x, "p:sldLayoutIdLst");
    for (int i = 0; i < QR_PPTX_N_LAYOUTS; i++) {
        qr_xml_start(x, "p:sldLayoutId");
        qr_xml_attr_int(x, "id", 2147483649LL + i);
        qr_xml_attr(x, "r:id", layout_rids[i]);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    qr_xml_start(x, "p:txStyles");
    write_p_titlestyle(x);
    write_p_bodystyle(x);
    write_p_otherstyle(x);
    qr_xml_end(x);
    qr_xml_end(x);
    return qr_pptx_add(pp, "ppt/slideMasters/slideMaster1.xml", QR_CT_PPTX_MASTER, &b, x);
}

/* <p:sldLayout> */
static qr_status write_layout(qr_pptx *pp, int which)
{
    static const char *const types[QR_PPTX_N_LAYOUTS] = {"title", "obj", "secHead", "blank"};
    static const char *const names[QR_PPTX_N_LAYOUTS] = {"Title Slide", "Title and Content",
                                                         "Section Header", "Blank"};
    const qr_pptx_geom *g = &pp->geom;
    char part[64];
    snprintf(part, sizeof part, "ppt/slideLayouts/slideLayout%d.xml", which + 1);
    if (!qr_package_rel(pp->pkg, part, QR_REL_SLIDE_MASTER, "../slideMasters/slideMaster1.xml", 0))
        return qr_pptx_fail(pp, QR_E_NOMEM);
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_pptx_root(x, "p:sldLayout");
    qr_xml_attr(x, "type", types[which]);
    qr_xml_attr(x, "preserve", "1");
    qr_xml_start(x, "p:cSld");
    qr_xml_attr(x, "name", names[which]);
    int filled = which == QR_PPTX_LAYOUT_SECTION && pp->style.section_fill;
    if (filled) write_p_bg_accent(x);
    qr_xml_start(x, "p:spTree");
    qr_pptx_write_tree_start(x);
    switch (which) {
    case QR_PPTX_LAYOUT_TITLE: {
        ph_spec t = {.type = "ctrTitle",
                     .name = "Title 1",
                     .box = &g->ctr_title,
                     .anchor = "b",
                     .sz = QR_PPTX_SZ_CTR_TITLE,
                     .centered = 1};
        ph_spec s = {.type = "subTitle",
                     .idx = 1,
                     .name = "Subtitle 2",
                     .box = &g->subtitle,
                     .sz = QR_PPTX_SZ_SUBTITLE,
                     .centered = 1,
                     .plain = 1};
        write_p_sp_placeholder(x, 2, &t);
        write_p_sp_placeholder(x, 3, &s);
        if (pp->style.accent_bar) write_p_sp_accent(x, 4, "Title Rule", &g->title_rule);
        break;
    }
    case QR_PPTX_LAYOUT_CONTENT: {
        ph_spec t = {.type = "title", .name = "Title 1", .box = &g->title};
        ph_spec c = {.idx = 1, .name = "Content Placeholder 2", .box = &g->body};
        write_p_sp_placeholder(x, 2, &t);
        write_p_sp_placeholder(x, 3, &c);
        break;
    }
    case QR_PPTX_LAYOUT_SECTION: {
        ph_spec t = {.type = "title",
                     .name = "Title 1",
                     .box = &g->sec_title,
                     .anchor = "b",
                     .sz = QR_PPTX_SZ_SECTION_TITLE,
                     .on_accent = filled};
        ph_spec s = {.type = "body",
                     .idx = 1,
                     .name = "Text Placeholder 2",
                     .box = &g->sec_body,
                     .sz = QR_PPTX_SZ_SECTION_BODY,
                     .plain = 1,
                     .on_accent = filled};
        write_p_sp_placeholder(x, 2, &t);
        write_p_sp_placeholder(x, 3, &s);
        break;
    }
    default:
        break; /* blank: no placeholders */
    }
    qr_xml_end(x); /* p:spTree */
    qr_xml_end(x); /* p:cSld */
    qr_xml_start(x, "p:clrMapOvr");
    qr_xml_leaf(x, "a:masterClrMapping", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    return qr_pptx_add(pp, part, QR_CT_PPTX_LAYOUT, &b, x);
}

qr_status qr_pptx_master(qr_pptx *pp)
{
    const char *master = "ppt/slideMasters/slideMaster1.xml";
    const char *rids[QR_PPTX_N_LAYOUTS];
    char target[64];
    for (int i = 0; i < QR_PPTX_N_LAYOUTS; i++) {
        snprintf(target, sizeof target, "../slideLayouts/slideLayout%d.xml", i + 1);
        if (!(rids[i] = qr_package_rel(pp->pkg, master, QR_REL_SLIDE_LAYOUT, target, 0)))
            return qr_pptx_fail(pp, QR_E_NOMEM);
    }
    if (!qr_package_rel(pp->pkg, master, QR_REL_THEME, "../theme/theme1.xml", 0))
        return qr_pptx_fail(pp, QR_E_NOMEM);
    if (write_master(pp, rids)) return pp->status;
    for (int i = 0; i < QR_PPTX_N_LAYOUTS; i++)
        if (write_layout(pp, i)) return pp->status;
    return pp->status;
}
