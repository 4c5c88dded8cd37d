/* pptx.c: the presentation backend (qr_backend_pptx). Builds a complete,
 * minimal package of our own: ppt/presentation.xml, one slide master with
 * the four layouts we use (title, title_content, section, blank), a theme,
 * one slide part per spec slide, a notes master and notes slides when any
 * slide has notes, presProps/viewProps/tableStyles, and the media.
 *
 * The top-level title goes to docProps/core.xml only (DocsGPT renders no
 * title slide either). Slide size: 16:9 (12192000 x 6858000 EMU) unless the
 * spec asks for 4:3 (9144000 x 6858000).
 *
 * A deck of 0 slides is a valid package with no sldIdLst (PowerPoint opens
 * it empty); LibreOffice Impress always has a page, so it shows (and
 * exports to PDF) one empty slide.
 *
 * Part order (fixed, so the same spec gives the same bytes): presentation,
 * master, layouts, theme, then slide 1 (and its notes slide), slide 2, ...,
 * the notes master and its theme, then the property parts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "pptx_int.h"

/* ---- shared helpers ------------------------------------------------------------ */

qr_status qr_pptx_fail(qr_pptx *pp, qr_status st)
{
    if (st != QR_OK && pp->status == QR_OK) pp->status = qr_fail(st);
    return pp->status;
}

qr_xml *qr_pptx_begin(qr_pptx *pp, qr_buf *b)
{
    memset(b, 0, sizeof *b);
    qr_xml *x = qr_xml_new(b);
    if (!x) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        return NULL;
    }
    qr_xml_decl(x);
    return x;
}

void qr_pptx_root(qr_xml *x, const char *name)
{
    qr_xml_start(x, name);
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_xml_attr(x, "xmlns:r", QR_NS_REL);
    qr_xml_attr(x, "xmlns:p", QR_NS_P);
}

qr_status qr_pptx_add(qr_pptx *pp, const char *name, const char *ct, qr_buf *b, qr_xml *x)
{
    qr_status st = qr_xml_free(x);
    if (st == QR_OK && b->oom) st = QR_E_NOMEM;
    if (st != QR_OK) {
        qr_buf_free(b);
        return qr_pptx_fail(pp, st);
    }
    size_t len = 0;
    char *data = qr_buf_steal(b, &len);
    return qr_pptx_fail(pp, qr_package_add_part(pp->pkg, name, ct, data, len));
}

const char *qr_pptx_link_rid(qr_pptx *pp, const char *url)
{
    for (size_t i = 0; i < pp->n_links; i++)
        if (strcmp(pp->links[i].url, url) == 0) return pp->links[i].rid;
    if (pp->n_links == pp->cap_links) {
        size_t cap = pp->cap_links ? pp->cap_links * 2 : 8;
        struct qr_pptx_link *l = realloc(pp->links, cap * sizeof *l);
        if (!l) {
            qr_pptx_fail(pp, QR_E_NOMEM);
            return NULL;
        }
        pp->links = l;
        pp->cap_links = cap;
    }
    const char *rid = qr_package_rel(pp->pkg, pp->part, QR_REL_HYPERLINK, url, 1);
    if (!rid) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        return NULL;
    }
    pp->links[pp->n_links].url = url;
    pp->links[pp->n_links].rid = rid;
    pp->n_links++;
    return rid;
}

const char *qr_pptx_media(qr_pptx *pp, const qr_image *img)
{
    for (size_t i = 0; i < pp->n_media; i++) {
        const struct qr_pptx_media *m = &pp->media[i];
        if (m->size == img->size &&
            (m->data == img->data || memcmp(m->data, img->data, m->size) == 0))
            return m->name;
    }
    if (pp->n_media == pp->cap_media) {
        size_t cap = pp->cap_media ? pp->cap_media * 2 : 8;
        struct qr_pptx_media *m = realloc(pp->media, cap * sizeof *m);
        if (!m) {
            qr_pptx_fail(pp, QR_E_NOMEM);
            return NULL;
        }
        pp->media = m;
        pp->cap_media = cap;
    }
    char part[512];
    snprintf(part, sizeof part, "ppt/media/%s", img->name);
    if (qr_pptx_fail(pp, qr_package_add_media(pp->pkg, part, img->data, img->size))) return NULL;
    pp->media[pp->n_media++] = (struct qr_pptx_media){img->data, img->size, img->name};
    return img->name;
}

/* ---- presentation.xml ------------------------------------------------------------ */

typedef struct pres_ids {
    const char *master, *notes_master;
    const char **slides;
} pres_ids;

/* <a:lvlNpPr> of the default text style: sizes and theme fonts for text
 * outside placeholders. */
static void write_default_text_style(qr_xml *x)
{
    qr_xml_start(x, "p:defaultTextStyle");
    qr_xml_start(x, "a:defPPr");
    qr_xml_leaf(x, "a:defRPr", "lang", "en-US", NULL);
    qr_xml_end(x);
    for (int l = 0; l < QR_PPTX_LEVELS; l++) {
        char name[16] = "a:lvl1pPr";
        name[5] = (char)('1' + l);
        qr_xml_start(x, name);
        qr_xml_attr_int(x, "marL", 457200LL * l);
        qr_xml_attr(x, "algn", "l");
        qr_xml_attr(x, "defTabSz", "914400");
        qr_xml_start(x, "a:defRPr");
        qr_xml_attr(x, "sz", "1800");
        qr_xml_start(x, "a:solidFill");
        qr_xml_leaf(x, "a:schemeClr", "val", "tx1", NULL);
        qr_xml_end(x);
        qr_xml_leaf(x, "a:latin", "typeface", "+mn-lt", NULL);
        qr_xml_leaf(x, "a:ea", "typeface", "+mn-ea", NULL);
        qr_xml_leaf(x, "a:cs", "typeface", "+mn-cs", NULL);
        qr_xml_end(x); /* a:defRPr */
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* <p:presentation> */
static qr_status write_presentation(qr_pptx *pp, const pres_ids *ids)
{
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_pptx_root(x, "p:presentation");
    qr_xml_attr(x, "saveSubsetFonts", "1");
    qr_xml_start(x, "p:sldMasterIdLst");
    qr_xml_leaf(x, "p:sldMasterId", "id", "2147483648", "r:id", ids->master, NULL);
    qr_xml_end(x);
    if (ids->notes_master) {
        qr_xml_start(x, "p:notesMasterIdLst");
        qr_xml_leaf(x, "p:notesMasterId", "r:id", ids->notes_master, NULL);
        qr_xml_end(x);
    }
    if (pp->doc->n_slides) {
        qr_xml_start(x, "p:sldIdLst");
        for (size_t i = 0; i < pp->doc->n_slides; i++) {
            qr_xml_start(x, "p:sldId");
            qr_xml_attr_int(x, "id", 256 + (long long)i);
            qr_xml_attr(x, "r:id", ids->slides[i]);
            qr_xml_end(x);
        }
        qr_xml_end(x);
    }
    qr_xml_start(x, "p:sldSz");
    qr_xml_attr_int(x, "cx", pp->geom.sw);
    qr_xml_attr_int(x, "cy", pp->geom.sh);
    if (!pp->doc->wide) qr_xml_attr(x, "type", "screen4x3");
    qr_xml_end(x);
    qr_xml_start(x, "p:notesSz");
    qr_xml_attr_int(x, "cx", QR_PPTX_NOTES_CX);
    qr_xml_attr_int(x, "cy", QR_PPTX_NOTES_CY);
    qr_xml_end(x);
    write_default_text_style(x);
    qr_xml_end(x);
    return qr_pptx_add(pp, "ppt/presentation.xml", QR_CT_PPTX_PRESENTATION, &b, x);
}

/* <p:presentationPr> */
static qr_status write_pres_props(qr_pptx *pp)
{
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_pptx_root(x, "p:presentationPr");
    qr_xml_end(x);
    return qr_pptx_add(pp, "ppt/presProps.xml", QR_CT_PPTX_PRES_PROPS, &b, x);
}

/* <p:viewPr>: open in the normal view with the notes pane. */
static qr_status write_view_props(qr_pptx *pp)
{
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_pptx_root(x, "p:viewPr");
    qr_xml_start(x, "p:normalViewPr");
    qr_xml_leaf(x, "p:restoredLeft", "sz", "15620", NULL);
    qr_xml_leaf(x, "p:restoredTop", "sz", "94660", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:gridSpacing");
    qr_xml_attr(x, "cx", "76200");
    qr_xml_attr(x, "cy", "76200");
    qr_xml_end(x);
    qr_xml_end(x);
    return qr_pptx_add(pp, "ppt/viewProps.xml", QR_CT_PPTX_VIEW_PROPS, &b, x);
}

/* The id of PowerPoint's built-in "Medium Style 2 - Accent 1" table style,
 * which every table refers to; PowerPoint knows it without a definition. */
#define TABLE_STYLE_ID "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"

/* <a:tblStyleLst> */
static qr_status write_table_styles(qr_pptx *pp)
{
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_xml_start(x, "a:tblStyleLst");
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_xml_attr(x, "def", TABLE_STYLE_ID);
    qr_xml_end(x);
    return qr_pptx_add(pp, "ppt/tableStyles.xml", QR_CT_PPTX_TABLE_STYLES, &b, x);
}

/* ---- the backend ---------------------------------------------------------------- */

static qr_status render_pptx(qr_render_ctx *ctx, qr_sink *out)
{
    const qr_doc *doc = ctx->doc;
    qr_pptx pp = {0};
    pp.ctx = ctx;
    pp.doc = doc;
    qr_text_ctx_init(&pp.text, ctx->fonts, doc->lang, ctx->warnings);
    pp.text.segs.spans.cjk_lang = qr_fonts_doc_cjk_lang(doc);
    qr_pptx_geom_init(&pp.geom, doc->wide);
    pp.style = qr_style_of(doc);
    pp.text.body_face = pp.style.body_face;
    pp.pkg = qr_package_new();
    qr_package_set_threads(pp.pkg, ctx->threads);
    pres_ids ids = {0};
    char name[64];
    if (!pp.pkg) return qr_fail(QR_E_NOMEM);
    ids.slides = calloc(doc->n_slides ? doc->n_slides : 1, sizeof *ids.slides);
    if (!ids.slides) {
        qr_pptx_fail(&pp, QR_E_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < doc->n_slides; i++)
        if (doc->slides[i].has_notes) pp.n_notes++;

    /* Relationships of presentation.xml first: its ids go into the part. */
    const char *pres = "ppt/presentation.xml";
    if (!qr_package_rel(pp.pkg, "", QR_REL_OFFICE_DOCUMENT, pres, 0)) goto oom;
    ids.master =
        qr_package_rel(pp.pkg, pres, QR_REL_SLIDE_MASTER, "slideMasters/slideMaster1.xml", 0);
    if (!ids.master) goto oom;
    for (size_t i = 0; i < doc->n_slides; i++) {
        snprintf(name, sizeof name, "slides/slide%zu.xml", i + 1);
        if (!(ids.slides[i] = qr_package_rel(pp.pkg, pres, QR_REL_SLIDE, name, 0))) goto oom;
    }
    if (pp.n_notes && !(ids.notes_master = qr_package_rel(pp.pkg, pres, QR_REL_NOTES_MASTER,
                                                          "notesMasters/notesMaster1.xml", 0)))
        goto oom;
    if (!qr_package_rel(pp.pkg, pres, QR_REL_PRES_PROPS, "presProps.xml", 0) ||
        !qr_package_rel(pp.pkg, pres, QR_REL_VIEW_PROPS, "viewProps.xml", 0) ||
        !qr_package_rel(pp.pkg, pres, QR_REL_THEME, "theme/theme1.xml", 0) ||
        !qr_package_rel(pp.pkg, pres, QR_REL_TABLE_STYLES, "tableStyles.xml", 0))
        goto oom;

    if (write_presentation(&pp, &ids) || qr_pptx_master(&pp) ||
        qr_pptx_theme(&pp, "ppt/theme/theme1.xml"))
        goto done;
    for (size_t i = 0; i < doc->n_slides; i++) {
        if (qr_pptx_slide(&pp, i)) goto done;
        if (doc->slides[i].has_notes && qr_pptx_notes_slide(&pp, i)) goto done;
    }
    if (pp.n_notes && qr_pptx_notes_master(&pp)) goto done;
    if (write_pres_props(&pp) || write_view_props(&pp) || write_table_styles(&pp)) goto done;

    if (qr_pptx_fail(&pp,
                     qr_package_set_title(pp.pkg, doc->title.n ? qr_plain(&doc->title) : NULL)))
        goto done;
    {
        char extra[256];
        snprintf(
            extra, sizeof extra,
            "<PresentationFormat>%s</PresentationFormat><Slides>%zu</Slides><Notes>%zu</Notes>",
            doc->wide ? "Widescreen" : "On-screen Show (4:3)", doc->n_slides, pp.n_notes);
        if (qr_pptx_fail(&pp, qr_package_set_app_extra(pp.pkg, extra))) goto done;
    }
    qr_pptx_fail(&pp, qr_package_write(pp.pkg, ctx->epoch, out));
    if (pp.status == QR_OK) ctx->pages = (int)doc->n_slides;
    goto done;
oom:
    qr_pptx_fail(&pp, QR_E_NOMEM);
done:
    if (pp.status != QR_OK && ctx->errors->count == 0)
        qr_errlist_addf(ctx->errors, pp.status, "", NULL, "the pptx backend failed: %s",
                        qr_status_str(pp.status));
    qr_package_free(pp.pkg);
    qr_text_ctx_free(&pp.text);
    free(pp.links);
    free(pp.media);
    free(ids.slides);
    return pp.status;
}

const qr_backend qr_backend_pptx = {
    .name = "pptx",
    .format = QR_FORMAT_PPTX,
    .render = render_pptx,
};
