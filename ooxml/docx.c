/* docx.c: the Word backend (document -> .docx). Assembles the package.
 *
 * Order of work: word/document.xml first, because writing it gathers what
 * the other parts depend on (hyperlink and image relationships, ordered-list
 * instances for numbering.xml, the font families for fontTable.xml); then
 * styles, numbering (when there are lists), settings, webSettings and
 * fontTable; the images' media parts last. Relationship ids are counters in
 * that order, so the same spec gives the same bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "docx_int.h"

long qr_docx_twips(double pt)
{
    double t = pt * 20.0;
    if (!(t > 0)) return 0;
    if (t > 31680.0 * 20) t = 31680.0 * 20; /* 22 in: Word's largest page side */
    return (long)(t + 0.5);
}

void qr_docx_fail(qr_docx *d, qr_status st)
{
    if (st != QR_OK && d->status == QR_OK) d->status = qr_fail(st);
}

void qr_docx_use_family(qr_docx *d, const char *family)
{
    if (!family || !*family) return;
    /* fonts/ hands out the same pointer for a family every time: compare
     * pointers first, names only for a newcomer. */
    for (size_t i = 0; i < d->n_families; i++)
        if (d->families[i] == family) return;
    for (size_t i = 0; i < d->n_families; i++)
        if (strcmp(d->families[i], family) == 0) return;
    if (d->n_families == d->cap_families) {
        size_t cap = d->cap_families ? d->cap_families * 2 : 8;
        const char **nf = realloc(d->families, cap * sizeof *nf);
        if (!nf) {
            qr_docx_fail(d, QR_E_NOMEM);
            return;
        }
        d->families = nf;
        d->cap_families = cap;
    }
    d->families[d->n_families++] = family;
}

void qr_docx_media_name(const qr_image *im, size_t index, char *buf, size_t size)
{
    /* The compiler names images "image1.png", unique per document. Anything
     * that is not a plain file name gets a generated one, so no image name
     * can make a bad zip entry. */
    const char *n = im->name ? im->name : "";
    size_t len = strlen(n);
    int ok = len > 0 && len < size && len < 200 && n[0] != '.';
    for (size_t i = 0; ok && i < len; i++) {
        char c = n[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '.' || c == '_' || c == '-';
    }
    if (ok)
        memcpy(buf, n, len + 1);
    else
        snprintf(buf, size, "image-%zu.%s", index + 1, im->type == QR_IMAGE_PNG ? "png" : "jpeg");
}

/* The bytes writer makes (*len of them), or NULL when it failed (d
 * failed with it). */
static char *part_bytes(qr_docx *d, qr_status (*writer)(qr_docx *, qr_buf *), size_t *len)
{
    qr_buf b = {0};
    qr_status st = writer(d, &b);
    if (st == QR_OK && b.oom) st = QR_E_NOMEM;
    char *data = st == QR_OK ? qr_buf_steal(&b, len) : NULL;
    if (!data) {
        qr_buf_free(&b);
        qr_docx_fail(d, st == QR_OK ? QR_E_NOMEM : st);
    }
    return data;
}

void qr_docx_add_part(qr_docx *d, const char *name, const char *ct,
                      qr_status (*writer)(qr_docx *, qr_buf *))
{
    if (d->status != QR_OK) return;
    size_t len;
    char *data = part_bytes(d, writer, &len);
    if (data) qr_docx_fail(d, qr_package_add_part(d->pkg, name, ct, data, len));
}

/* word/document.xml. With a table of contents it goes in as a split part
 * (package.h: qr_package_add_split), its tail the bytes after the last
 * page number: when the numbers still wait for the layout's thread
 * (render.c), the package deflates that tail, and this backend writes the
 * other parts, while the layout runs; settled or not, the same bytes. */
static void add_document(qr_docx *d)
{
    if (d->status != QR_OK) return;
    size_t len;
    char *data = part_bytes(d, qr_docx_document, &len);
    if (!data) return;
    qr_status st;
    const char *name = "word/document.xml";
    if (!d->n_toc_holes)
        st = qr_package_add_part(d->pkg, name, QR_CT_DOCX_DOCUMENT, data, len);
    else
        st = qr_package_add_split(d->pkg, name, QR_CT_DOCX_DOCUMENT, data, len, d->toc_head,
                                  d->toc_pending ? qr_docx_settle_toc : NULL, d);
    qr_docx_fail(d, st);
}

static void rel(qr_docx *d, const char *type, const char *target)
{
    if (d->status != QR_OK) return;
    if (!qr_package_rel(d->pkg, "word/document.xml", type, target, 0)) qr_docx_fail(d, QR_E_NOMEM);
}

static qr_status docx_render(qr_render_ctx *ctx, qr_sink *out)
{
    qr_docx d;
    memset(&d, 0, sizeof d);
    d.ctx = ctx;
    d.doc = ctx->doc;
    d.fonts = ctx->fonts ? ctx->fonts : qr_fonts_default();
    qr_text_ctx_init(&d.text, d.fonts, d.doc->lang, ctx->warnings);
    d.text.segs.spans.cjk_lang = qr_fonts_doc_cjk_lang(d.doc);
    d.style = qr_style_of(d.doc);
    d.text.body_face = d.style.body_face;
    qr_style_hex(d.style.code_fill, d.code_fill);
    qr_style_hex(d.style.header_fill, d.header_fill);
    qr_style_hex(d.style.grid, d.grid);
    snprintf(d.grid_sz, sizeof d.grid_sz, "%ld", lround(d.style.grid_pt * 8));
    d.pkg = qr_package_new();
    qr_package_set_threads(d.pkg, ctx->threads);
    if (!d.pkg) {
        qr_errlist_add(ctx->errors, QR_E_NOMEM, "", "out of memory while writing the .docx", NULL);
        return qr_fail(QR_E_NOMEM);
    }
    const qr_page *pg = &d.doc->page;
    long tw =
        qr_docx_twips(pg->width) - qr_docx_twips(pg->margin_left) - qr_docx_twips(pg->margin_right);
    d.text_width = tw < 720 ? 720 : tw; /* margins wider than the page: keep half an inch */

    qr_docx_use_family(&d, QR_DOCX_FONT);
    if (d.style.body_face) qr_docx_use_family(&d, d.style.body_face);
    qr_docx_use_family(&d, qr_fonts_mono_family());

    if (qr_package_rel(d.pkg, "", QR_REL_OFFICE_DOCUMENT, "word/document.xml", 0) == NULL)
        qr_docx_fail(&d, QR_E_NOMEM);
    if (d.doc->n_notes) {
        d.notes = calloc(d.doc->n_notes, sizeof *d.notes);
        if (!d.notes) qr_docx_fail(&d, QR_E_NOMEM);
    }
    add_document(&d);
    qr_docx_notes_part(&d);
    rel(&d, QR_REL_STYLES, "styles.xml");
    qr_docx_add_part(&d, "word/styles.xml", QR_CT_DOCX_STYLES, qr_docx_styles);
    if (d.has_lists) {
        rel(&d, QR_REL_NUMBERING, "numbering.xml");
        qr_docx_add_part(&d, "word/numbering.xml", QR_CT_DOCX_NUMBERING, qr_docx_numbering);
    }
    rel(&d, QR_REL_SETTINGS, "settings.xml");
    qr_docx_add_part(&d, "word/settings.xml", QR_CT_DOCX_SETTINGS, qr_docx_settings);
    rel(&d, QR_REL_WEB_SETTINGS, "webSettings.xml");
    qr_docx_add_part(&d, "word/webSettings.xml", QR_CT_DOCX_WEB_SETTINGS, qr_docx_web_settings);
    rel(&d, QR_REL_FONT_TABLE, "fontTable.xml");
    qr_docx_add_part(&d, "word/fontTable.xml", QR_CT_DOCX_FONT_TABLE, qr_docx_font_table);

    /* Media after the XML parts: their relationships were made while the
     * document was written, so ids follow the images' order in the tree. */
    for (size_t i = 0; i < d.n_images && d.status == QR_OK; i++) {
        const qr_image *im = d.images[i];
        char name[600];
        char file[512];
        qr_docx_media_name(im, i, file, sizeof file);
        snprintf(name, sizeof name, "word/media/%s", file);
        qr_docx_fail(&d, qr_package_add_media(d.pkg, name, im->data, im->size));
    }
    if (d.status == QR_OK && d.doc->title.n)
        qr_docx_fail(&d, qr_package_set_title(d.pkg, qr_plain(&d.doc->title)));
    if (d.status == QR_OK &&
        (d.doc->author || d.doc->subject || d.doc->keywords || d.doc->prop_date))
        qr_docx_fail(&d, qr_package_set_core(d.pkg, d.doc->author, d.doc->subject, d.doc->keywords,
                                             d.doc->prop_date));

    qr_status st = d.status;
    if (st == QR_OK) st = qr_package_write(d.pkg, ctx->epoch, out);
    if (st != QR_OK && ctx->errors->count == 0) {
        if (st == QR_E_NOMEM)
            qr_errlist_add(ctx->errors, st, "", "out of memory while writing the .docx", NULL);
        else if (st != QR_E_LIMIT && st != QR_E_IO)
            qr_errlist_add(ctx->errors, st, "", "the .docx backend failed", NULL);
    }

    qr_package_free(d.pkg);
    qr_text_ctx_free(&d.text);
    free(d.links);
    free(d.nums);
    free(d.images);
    free(d.image_rids);
    free(d.families);
    free(d.notes);
    free(d.toc_holes);
    return st;
}

const qr_backend qr_backend_docx = {
    .name = "docx",
    .format = QR_FORMAT_DOCX,
    .render = docx_render,
};
