/* pptx_notes.c: speaker notes. The notes master
 * (ppt/notesMasters/notesMaster1.xml, with its own theme as PowerPoint
 * requires) and one notes slide per slide with notes
 * (ppt/notesSlides/notesSlideN.xml, N = the slide's number). Each line of
 * the notes is one <a:p>, so line breaks survive, and each line is
 * itemized by script like slide text (Arabic notes get a:cs and rtl). Only
 * written when some slide has notes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pptx_int.h"

/* The two boxes of a notes page: the slide image on top, the notes below. */
static void notes_boxes(const qr_pptx *pp, qr_pptx_box *img, qr_pptx_box *body)
{
    qr_slide_notes_boxes(&pp->geom, img, body); /* layout/slide_layout.h */
}

/* <p:sp> of a notes placeholder: the slide image (sldImg) or the body. */
static void write_p_sp_notes(qr_xml *x, int id, const char *name, const char *type, int idx,
                             const qr_pptx_box *box, int with_body)
{
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", name);
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvSpPr");
    if (strcmp(type, "sldImg") == 0)
        qr_xml_leaf(x, "a:spLocks", "noGrp", "1", "noRot", "1", "noChangeAspect", "1", NULL);
    else
        qr_xml_leaf(x, "a:spLocks", "noGrp", "1", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:nvPr");
    qr_xml_start(x, "p:ph");
    qr_xml_attr(x, "type", type);
    if (idx) qr_xml_attr_int(x, "idx", idx);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x); /* p:nvSpPr */
    qr_xml_start(x, "p:spPr");
    if (box) qr_pptx_write_xfrm(x, "a:xfrm", box);
    if (strcmp(type, "sldImg") == 0 && box) {
        qr_xml_start(x, "a:prstGeom");
        qr_xml_attr(x, "prst", "rect");
        qr_xml_leaf(x, "a:avLst", NULL);
        qr_xml_end(x);
        qr_xml_leaf(x, "a:noFill", NULL);
    }
    qr_xml_end(x);
    if (with_body) {
        qr_xml_start(x, "p:txBody");
        qr_xml_leaf(x, "a:bodyPr", NULL);
        qr_xml_leaf(x, "a:lstStyle", NULL);
        qr_xml_leaf(x, "a:p", NULL);
        qr_xml_end(x);
    }
    qr_xml_end(x); /* p:sp */
}

/* <p:notesMaster> */
qr_status qr_pptx_notes_master(qr_pptx *pp)
{
    const char *part = "ppt/notesMasters/notesMaster1.xml";
    if (!qr_package_rel(pp->pkg, part, QR_REL_THEME, "../theme/theme2.xml", 0))
        return qr_pptx_fail(pp, QR_E_NOMEM);
    qr_pptx_box img, body;
    notes_boxes(pp, &img, &body);
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_pptx_root(x, "p:notesMaster");
    qr_xml_start(x, "p:cSld");
    qr_xml_start(x, "p:bg");
    qr_xml_start(x, "p:bgRef");
    qr_xml_attr(x, "idx", "1001");
    qr_xml_leaf(x, "a:schemeClr", "val", "bg1", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_start(x, "p:spTree");
    qr_pptx_write_tree_start(x);
    write_p_sp_notes(x, 2, "Slide Image Placeholder 1", "sldImg", 2, &img, 0);
    write_p_sp_notes(x, 3, "Notes Placeholder 2", "body", 3, &body, 1);
    qr_xml_end(x); /* p:spTree */
    qr_xml_end(x); /* p:cSld */
    qr_xml_leaf(x, "p:clrMap", "bg1", "lt1", "tx1", "dk1", "bg2", "lt2", "tx2", "dk2", "accent1",
                "accent1", "accent2", "accent2", "accent3", "accent3", "accent4", "accent4",
                "accent5", "accent5", "accent6", "accent6", "hlink", "hlink", "folHlink",
                "folHlink", NULL);
    qr_xml_start(x, "p:notesStyle");
    qr_xml_start(x, "a:lvl1pPr");
    qr_xml_attr(x, "marL", "0");
    qr_xml_attr(x, "algn", "l");
    qr_xml_attr(x, "defTabSz", "914400");
    qr_pptx_write_a_defrpr(x, QR_PPTX_SZ_NOTES, "tx1", "+mn-lt", "+mn-ea", "+mn-cs");
    qr_xml_end(x); /* a:lvl1pPr */
    qr_xml_end(x); /* p:notesStyle */
    qr_xml_end(x);
    if (qr_pptx_add(pp, part, QR_CT_PPTX_NOTES_MASTER, &b, x)) return pp->status;
    return qr_pptx_theme(pp, "ppt/theme/theme2.xml");
}

/* <p:notes> */
qr_status qr_pptx_notes_slide(qr_pptx *pp, size_t i)
{
    const qr_slide *sl = &pp->doc->slides[i];
    char part[64], target[64];
    snprintf(part, sizeof part, "ppt/notesSlides/notesSlide%zu.xml", i + 1);
    snprintf(target, sizeof target, "../notesSlides/notesSlide%zu.xml", i + 1);
    char slide_part[64], slide_target[64];
    snprintf(slide_part, sizeof slide_part, "ppt/slides/slide%zu.xml", i + 1);
    snprintf(slide_target, sizeof slide_target, "../slides/slide%zu.xml", i + 1);
    if (!qr_package_rel(pp->pkg, slide_part, QR_REL_NOTES_SLIDE, target, 0) ||
        !qr_package_rel(pp->pkg, part, QR_REL_NOTES_MASTER, "../notesMasters/notesMaster1.xml",
                        0) ||
        !qr_package_rel(pp->pkg, part, QR_REL_SLIDE, slide_target, 0))
        return qr_pptx_fail(pp, QR_E_NOMEM);

    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    pp->part = part;
    pp->n_links = 0;
    qr_pptx_root(x, "p:notes");
    qr_xml_start(x, "p:cSld");
    qr_xml_start(x, "p:spTree");
    qr_pptx_write_tree_start(x);
    write_p_sp_notes(x, 2, "Slide Image 1", "sldImg", 0, NULL, 0);

    /* The body placeholder, one paragraph per line. */
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_leaf(x, "p:cNvPr", "id", "3", "name", "Notes 2", NULL);
    qr_xml_start(x, "p:cNvSpPr");
    qr_xml_leaf(x, "a:spLocks", "noGrp", "1", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:nvPr");
    qr_xml_leaf(x, "p:ph", "type", "body", "idx", "1", NULL);
    qr_xml_end(x);
    qr_xml_end(x); /* p:nvSpPr */
    qr_xml_leaf(x, "p:spPr", NULL);
    qr_xml_start(x, "p:txBody");
    qr_xml_leaf(x, "a:bodyPr", NULL);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    const char *s = qr_plain(&sl->notes);
    size_t n = qr_plain_len(&sl->notes);
    size_t start = 0;
    for (size_t k = 0; k <= n; k++) {
        if (k < n && s[k] != '\n' && s[k] != '\r') continue;
        qr_run run = {0};
        run.text = s + start;
        run.len = k - start;
        qr_text line = {&run, 1, sl->notes.path};
        qr_pptx_ppr ppr = {0};
        qr_pptx_write_a_p(pp, x, &line, ppr, 0);
        if (k < n && s[k] == '\r' && k + 1 < n && s[k + 1] == '\n') k++;
        start = k + 1;
    }
    qr_xml_end(x); /* p:txBody */
    qr_xml_end(x); /* p:sp */
    qr_xml_end(x); /* p:spTree */
    qr_xml_end(x); /* p:cSld */
    qr_xml_start(x, "p:clrMapOvr");
    qr_xml_leaf(x, "a:masterClrMapping", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_pptx_add(pp, part, QR_CT_PPTX_NOTES_SLIDE, &b, x);
    pp->part = NULL;
    return pp->status;
}
