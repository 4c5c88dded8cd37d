/* xlsx_notes.c: a sheet's cell links and comments (qr_sheet.notes).
 *
 * Links: <hyperlinks> in the worksheet, an external one (https:, http:,
 * mailto:) through a relationship with TargetMode="External", a place in
 * the workbook ("#Sheet!A1") as its location attribute. Comments:
 * xl/commentsN.xml (the texts, one author) and the legacy VML drawing
 * xl/drawings/vmlDrawingN.vml that Excel and LibreOffice need to show
 * them: one hidden note shape per comment, anchored beside its cell.
 *
 * The worksheet's relationships are numbered in a fixed order, so the
 * sheet's tail can name them before the parts exist: the charts' drawing
 * (rId1, xlsx_chart.c), then each external link in cell order, then the
 * comments and the VML drawing, then the tables (xlsx_table.c). */
#include <stdio.h>
#include <string.h>

#include "xlsx_int.h"
#include "xml.h"

#define CT_COMMENTS "application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml"
#define CT_VML "application/vnd.openxmlformats-officedocument.vmlDrawing"
#define REL_COMMENTS QR_REL_BASE "comments"
#define REL_VML QR_REL_BASE "vmlDrawing"

static int external(const qr_cell_note *nt)
{
    return nt->link && nt->link[0] != '#';
}

/* The number of the first relationship after the charts' drawing. */
static unsigned first_rel(const qr_sheet *sh)
{
    return sh->n_charts ? 2u : 1u;
}

static size_t count_comments(const qr_sheet *sh)
{
    size_t n = 0;
    for (size_t i = 0; i < sh->n_notes; i++)
        n += sh->notes[i].comment != NULL;
    return n;
}

unsigned qr_xlsx_notes_rels(const qr_sheet *sh)
{
    unsigned n = count_comments(sh) ? 2 : 0;
    for (size_t i = 0; i < sh->n_notes; i++)
        n += external(&sh->notes[i]);
    return n;
}

void qr_xlsx_write_hyperlinks(qr_buf *b, const qr_sheet *sh)
{
    unsigned rid = first_rel(sh);
    int open = 0;
    for (size_t i = 0; i < sh->n_notes; i++) {
        const qr_cell_note *nt = &sh->notes[i];
        if (!nt->link) continue;
        if (!open) qr_buf_puts(b, "<hyperlinks>");
        open = 1;
        char ref[16];
        qr_xlsx_cell_ref(nt->col, nt->row, ref);
        qr_buf_printf(b, "<hyperlink ref=\"%s\"", ref);
        if (external(nt)) {
            qr_buf_printf(b, " r:id=\"rId%u\"/>", rid++);
        } else {
            qr_buf_puts(b, " location=\"");
            qr_xml_escape(b, nt->link + 1, strlen(nt->link + 1), 1);
            qr_buf_puts(b, "\"/>");
        }
    }
    if (open) qr_buf_puts(b, "</hyperlinks>");
}

void qr_xlsx_write_legacy_drawing(qr_buf *b, const qr_sheet *sh)
{
    if (!count_comments(sh)) return;
    unsigned rid = first_rel(sh);
    for (size_t i = 0; i < sh->n_notes; i++)
        rid += external(&sh->notes[i]);
    qr_buf_printf(b, "<legacyDrawing r:id=\"rId%u\"/>", rid + 1);
}

/* xl/commentsN.xml */
static int comments_xml(qr_buf *b, const qr_sheet *sh, const char *author)
{
    qr_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                   "<comments xmlns=\"" QR_NS_SML "\"><authors><author>");
    qr_xlsx_escape(b, author, strlen(author));
    qr_buf_puts(b, "</author></authors><commentList>");
    for (size_t i = 0; i < sh->n_notes; i++) {
        const qr_cell_note *nt = &sh->notes[i];
        if (!nt->comment) continue;
        char ref[16];
        qr_xlsx_cell_ref(nt->col, nt->row, ref);
        qr_buf_printf(b, "<comment ref=\"%s\" authorId=\"0\"><text><r><t xml:space=\"preserve\">",
                      ref);
        qr_xlsx_escape(b, nt->comment, strlen(nt->comment));
        qr_buf_puts(b, "</t></r></text></comment>");
    }
    qr_buf_puts(b, "</commentList></comments>");
    return b->oom ? -1 : 0;
}

/* xl/drawings/vmlDrawingN.vml: Excel's note shapes (hidden until the cell
 * is pointed at), each 3 columns wide and 4 rows high, one column right of
 * its cell and a row above it, as Excel places a new note. */
static int vml_xml(qr_buf *b, const qr_sheet *sh, size_t sheet_no)
{
    qr_buf_printf(b,
                  "<xml xmlns:v=\"urn:schemas-microsoft-com:vml\" "
                  "xmlns:o=\"urn:schemas-microsoft-com:office:office\" "
                  "xmlns:x=\"urn:schemas-microsoft-com:office:excel\">"
                  "<o:shapelayout v:ext=\"edit\"><o:idmap v:ext=\"edit\" data=\"%zu\"/>"
                  "</o:shapelayout>"
                  "<v:shapetype id=\"_x0000_t202\" coordsize=\"21600,21600\" o:spt=\"202\" "
                  "path=\"m,l,21600r21600,l21600,xe\"><v:stroke joinstyle=\"miter\"/>"
                  "<v:path gradientshapeok=\"t\" o:connecttype=\"rect\"/></v:shapetype>",
                  sheet_no);
    size_t k = 0;
    for (size_t i = 0; i < sh->n_notes; i++) {
        const qr_cell_note *nt = &sh->notes[i];
        if (!nt->comment) continue;
        unsigned top = nt->row ? nt->row - 1 : 0;
        qr_buf_printf(
            b,
            "<v:shape id=\"_x0000_s%zu\" type=\"#_x0000_t202\" "
            "style=\"position:absolute;margin-left:59.25pt;margin-top:1.5pt;width:108pt;"
            "height:59.25pt;z-index:%zu;visibility:hidden\" fillcolor=\"#ffffe1\" "
            "o:insetmode=\"auto\"><v:fill color2=\"#ffffe1\"/>"
            "<v:shadow on=\"t\" color=\"black\" obscured=\"t\"/><v:path o:connecttype=\"none\"/>"
            "<v:textbox style=\"mso-direction-alt:auto\"><div style=\"text-align:left\"></div>"
            "</v:textbox><x:ClientData ObjectType=\"Note\"><x:MoveWithCells/><x:SizeWithCells/>"
            "<x:Anchor>%u, 15, %u, 10, %u, 15, %u, 4</x:Anchor><x:AutoFill>False</x:AutoFill>"
            "<x:Row>%u</x:Row><x:Column>%u</x:Column></x:ClientData></v:shape>",
            sheet_no * 1024 + 1 + k, k + 1, nt->col + 1, top, nt->col + 3, top + 4, nt->row,
            nt->col);
        k++;
    }
    qr_buf_puts(b, "</xml>");
    return b->oom ? -1 : 0;
}

static qr_status add_ready(qr_package *p, const char *name, const char *ct, qr_buf *b)
{
    if (b->oom) {
        qr_buf_free(b);
        return qr_fail(QR_E_NOMEM);
    }
    size_t len;
    char *data = qr_buf_steal(b, &len);
    return qr_package_add_part(p, name, ct, data, len);
}

qr_status qr_xlsx_add_notes(qr_package *p, const qr_sheet *sh, size_t sheet_no, const char *author)
{
    if (!sh->n_notes) return QR_OK;
    char sheet[64], name[64], target[64];
    snprintf(sheet, sizeof sheet, "xl/worksheets/sheet%zu.xml", sheet_no);
    unsigned rid = first_rel(sh);
    for (size_t i = 0; i < sh->n_notes; i++) {
        if (!external(&sh->notes[i])) continue;
        const char *id = qr_package_rel(p, sheet, QR_REL_HYPERLINK, sh->notes[i].link, 1);
        if (!id) return qr_fail(QR_E_NOMEM);
        char want[16];
        snprintf(want, sizeof want, "rId%u", rid++);
        if (strcmp(id, want) != 0) return qr_fail(QR_E_RENDER); /* the tail named it so */
    }
    if (!count_comments(sh)) return QR_OK;
    snprintf(target, sizeof target, "../comments%zu.xml", sheet_no);
    if (!qr_package_rel(p, sheet, REL_COMMENTS, target, 0)) return qr_fail(QR_E_NOMEM);
    snprintf(target, sizeof target, "../drawings/vmlDrawing%zu.vml", sheet_no);
    if (!qr_package_rel(p, sheet, REL_VML, target, 0)) return qr_fail(QR_E_NOMEM);
    qr_buf b = {0};
    snprintf(name, sizeof name, "xl/comments%zu.xml", sheet_no);
    comments_xml(&b, sh, author && *author ? author : "quire");
    qr_status st = add_ready(p, name, CT_COMMENTS, &b);
    if (st != QR_OK) return st;
    snprintf(name, sizeof name, "xl/drawings/vmlDrawing%zu.vml", sheet_no);
    vml_xml(&b, sh, sheet_no);
    return add_ready(p, name, CT_VML, &b);
}
