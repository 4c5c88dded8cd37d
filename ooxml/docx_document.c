/* docx_document.c: word/document.xml, the body of a Word document.
 *
 * One pass over the block tree, each element written once, in schema order:
 * the title (Title style), headings (Heading 1..6), paragraphs, lists
 * (numbered paragraphs), tables, code blocks, inline images and page breaks,
 * then <w:sectPr> as the body's last child.
 *
 * Text goes through fonts/: every paragraph is split into spans of one script
 * and one font, and each span becomes one <w:r> whose <w:rFonts> names that
 * font in the slot Word uses for the script (ascii/hAnsi, eastAsia or cs),
 * with <w:rtl>, <w:cs> and <w:lang>. Right-to-left paragraphs get <w:bidi>,
 * which also makes their start (default) alignment the right edge, in Word
 * and LibreOffice alike. The segments come from the text layer (text/):
 * tab and line-break segments become <w:tab/> and <w:br/>; characters XML
 * forbids become U+FFFD (qr_xml).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docx_int.h"
#include "rhythm.h"
#include "style.h"
#include "words.h"

#define EMU_PER_TWIP 635

/* twips of a length in points */
static long qr_twips(double pt)
{
    return lround(pt * 20);
}

/* ---- element writers ---------------------------------------------------------- */

/* <w:rPr> */
void qr_docx_write_w_rpr(qr_xml *x, const qr_docx_rpr *p)
{
    int fonts = p->hint || p->ascii || p->east_asian || p->complex;
    if (!(p->style || fonts || p->bold || p->italic || p->strike || p->underline ||
          p->no_underline || p->shading || p->rtl || p->cs || p->lang || p->lang_ea ||
          p->lang_bidi || p->color || p->highlight || p->vert))
        return;
    qr_xml_start(x, "w:rPr");
    if (p->style) qr_xml_leaf(x, "w:rStyle", "w:val", p->style, NULL);
    if (fonts) {
        /* <w:rFonts> */
        qr_xml_start(x, "w:rFonts");
        if (p->hint) qr_xml_attr(x, "w:hint", p->hint);
        if (p->ascii) {
            qr_xml_attr(x, "w:ascii", p->ascii);
            qr_xml_attr(x, "w:hAnsi", p->ascii);
        }
        if (p->east_asian) qr_xml_attr(x, "w:eastAsia", p->east_asian);
        if (p->complex) qr_xml_attr(x, "w:cs", p->complex);
        qr_xml_end(x);
    }
    if (p->bold) {
        qr_xml_leaf(x, "w:b", NULL);
        qr_xml_leaf(x, "w:bCs", NULL);
    }
    if (p->italic) {
        qr_xml_leaf(x, "w:i", NULL);
        qr_xml_leaf(x, "w:iCs", NULL);
    }
    if (p->strike) qr_xml_leaf(x, "w:strike", NULL);
    char hex[7];
    if (p->color) {
        qr_style_hex(p->color & 0xFFFFFF, hex);
        qr_xml_leaf(x, "w:color", "w:val", hex, NULL);
    }
    if (p->underline)
        qr_xml_leaf(x, "w:u", "w:val", "single", NULL);
    else if (p->no_underline)
        qr_xml_leaf(x, "w:u", "w:val", "none", NULL);
    if (p->shading) {
        qr_xml_leaf(x, "w:shd", "w:val", "clear", "w:color", "auto", "w:fill", p->shading, NULL);
    } else if (p->highlight) {
        qr_style_hex(p->highlight & 0xFFFFFF, hex);
        qr_xml_leaf(x, "w:shd", "w:val", "clear", "w:color", "auto", "w:fill", hex, NULL);
    }
    if (p->vert) qr_xml_leaf(x, "w:vertAlign", "w:val", p->vert, NULL);
    if (p->rtl) qr_xml_leaf(x, "w:rtl", NULL);
    if (p->cs) qr_xml_leaf(x, "w:cs", NULL);
    if (p->lang || p->lang_ea || p->lang_bidi) {
        /* <w:lang> */
        qr_xml_start(x, "w:lang");
        if (p->lang) qr_xml_attr(x, "w:val", p->lang);
        if (p->lang_ea) qr_xml_attr(x, "w:eastAsia", p->lang_ea);
        if (p->lang_bidi) qr_xml_attr(x, "w:bidi", p->lang_bidi);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* <w:pPr> */
void qr_docx_write_w_ppr(qr_xml *x, const qr_docx_ppr *p)
{
    if (!(p->style || p->keep_next || p->num_id > 0 || p->bidi || p->jc || p->bar || p->fill ||
          p->spacing || p->line_auto))
        return;
    qr_xml_start(x, "w:pPr");
    if (p->style) qr_xml_leaf(x, "w:pStyle", "w:val", p->style, NULL);
    if (p->keep_next) qr_xml_leaf(x, "w:keepNext", NULL);
    if (p->num_id > 0) {
        /* <w:numPr> */
        qr_xml_start(x, "w:numPr");
        qr_xml_start(x, "w:ilvl");
        qr_xml_attr_int(x, "w:val", p->ilvl);
        qr_xml_end(x);
        qr_xml_start(x, "w:numId");
        qr_xml_attr_int(x, "w:val", p->num_id);
        qr_xml_end(x);
        qr_xml_end(x);
    }
    if (p->bar) {
        /* <w:pBdr>: the bar; top and bottom in the fill close the box */
        char sz[16];
        snprintf(sz, sizeof sz, "%d", p->bar_sz);
        qr_xml_start(x, "w:pBdr");
        if (p->fill)
            qr_xml_leaf(x, "w:top", "w:val", "single", "w:sz", "4", "w:space", "4", "w:color",
                        p->fill, NULL);
        qr_xml_leaf(x, "w:left", "w:val", "single", "w:sz", sz, "w:space", "8", "w:color", p->bar,
                    NULL);
        if (p->fill)
            qr_xml_leaf(x, "w:bottom", "w:val", "single", "w:sz", "4", "w:space", "4", "w:color",
                        p->fill, NULL);
        qr_xml_end(x);
    }
    if (p->fill)
        qr_xml_leaf(x, "w:shd", "w:val", "clear", "w:color", "auto", "w:fill", p->fill, NULL);
    if (p->bidi) qr_xml_leaf(x, "w:bidi", NULL);
    if (p->spacing || p->line_auto) {
        qr_xml_start(x, "w:spacing");
        if (p->spacing && p->before >= 0) qr_xml_attr_int(x, "w:before", p->before);
        if (p->spacing && p->after >= 0) qr_xml_attr_int(x, "w:after", p->after);
        if (p->line_auto) {
            qr_xml_attr(x, "w:line", "240");
            qr_xml_attr(x, "w:lineRule", "auto");
        }
        qr_xml_end(x);
    }
    if (p->jc) qr_xml_leaf(x, "w:jc", "w:val", p->jc, NULL);
    qr_xml_end(x);
}

/* <w:sectPr> */
/* <w:headerReference> or <w:footerReference> */
static void hdrftr_ref(qr_xml *x, const char *el, const char *type, const char *rid)
{
    if (!rid) return;
    qr_xml_start(x, el);
    qr_xml_attr(x, "w:type", type);
    qr_xml_attr(x, "r:id", rid);
    qr_xml_end(x);
}

void qr_docx_write_w_sectpr(qr_xml *x, const qr_page *page, const qr_docx_furn *f)
{
    qr_xml_start(x, "w:sectPr");
    if (f) {
        hdrftr_ref(x, "w:headerReference", "default", f->header);
        hdrftr_ref(x, "w:headerReference", "first", f->first_header);
        hdrftr_ref(x, "w:footerReference", "default", f->footer);
        hdrftr_ref(x, "w:footerReference", "first", f->first_footer);
    }
    /* <w:pgSz> */
    qr_xml_start(x, "w:pgSz");
    qr_xml_attr_int(x, "w:w", qr_docx_twips(page->width));
    qr_xml_attr_int(x, "w:h", qr_docx_twips(page->height));
    if (page->landscape) qr_xml_attr(x, "w:orient", "landscape");
    qr_xml_end(x);
    /* <w:pgMar> */
    long top = qr_docx_twips(page->margin_top), bottom = qr_docx_twips(page->margin_bottom);
    qr_xml_start(x, "w:pgMar");
    qr_xml_attr_int(x, "w:top", top);
    qr_xml_attr_int(x, "w:right", qr_docx_twips(page->margin_right));
    qr_xml_attr_int(x, "w:bottom", bottom);
    qr_xml_attr_int(x, "w:left", qr_docx_twips(page->margin_left));
    /* Header and footer sit half an inch from the edge, or inside a
     * narrower margin. */
    qr_xml_attr_int(x, "w:header", top < 720 ? top / 2 : 720);
    qr_xml_attr_int(x, "w:footer", bottom < 720 ? bottom / 2 : 720);
    qr_xml_attr_int(x, "w:gutter", 0);
    qr_xml_end(x);
    if (f && f->title_pg) qr_xml_leaf(x, "w:titlePg", NULL);
    qr_xml_end(x);
}

void qr_docx_grid(long width, const double *widths, size_t n, long *cols)
{
    if (n == 0) return;
    double sum = 0;
    if (widths)
        for (size_t i = 0; i < n; i++)
            sum += widths[i] > 0 ? widths[i] : 0;
    /* Cumulative rounding: every column is within a twip of its share and
     * the columns add up to the width exactly. */
    double cum = 0;
    long prev = 0;
    for (size_t i = 0; i < n; i++) {
        double share = sum > 0 ? (widths[i] > 0 ? widths[i] : 0) / sum : 1.0 / (double)n;
        cum += share;
        long edge = i + 1 == n ? width : (long)((double)width * cum + 0.5);
        cols[i] = edge - prev;
        if (cols[i] < 1) cols[i] = 1; /* a zero-width column would vanish */
        prev = edge;
    }
}

/* ---- text --------------------------------------------------------------------- */

/* <w:t>, with xml:space="preserve" when spaces would otherwise be lost. */
static void write_w_t(qr_xml *x, const char *s, size_t n)
{
    if (n == 0) return;
    qr_xml_start(x, "w:t");
    if (qr_xml_needs_preserve(s, n)) qr_xml_attr(x, "xml:space", "preserve");
    qr_xml_text(x, s, n);
    qr_xml_end(x);
}

/* <w:r> over segments g[0..n) of one run: their text (adjacent text
 * segments in one <w:t>), <w:tab/> for tabs, <w:br/> for line breaks. */
static void write_w_r(qr_xml *x, const qr_docx_rpr *rpr, const qr_seg *g, size_t n)
{
    qr_xml_start(x, "w:r");
    qr_docx_write_w_rpr(x, rpr);
    for (size_t i = 0, next; i < n; i = next) {
        next = i + 1;
        if (g[i].kind == QR_SEG_TAB) {
            qr_xml_leaf(x, "w:tab", NULL);
        } else if (g[i].kind == QR_SEG_BREAK) {
            qr_xml_leaf(x, "w:br", NULL);
        } else {
            size_t len = g[i].len;
            for (; next < n && g[next].kind == QR_SEG_TEXT; next++)
                len += g[next].len;
            write_w_t(x, g[i].text, len);
        }
    }
    qr_xml_end(x);
}

static size_t hash_str(const char *s)
{
    size_t h = 1469598103934665603ULL & (size_t)-1;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * (size_t)1099511628211ULL;
    return h;
}

/* The relationship id of a hyperlink target: one relationship per distinct
 * URL, numbered in first-use order. NULL on OOM. */
static const char *link_rid(qr_docx *d, const char *url)
{
    if (d->n_links * 2 >= d->cap_links) {
        size_t cap = d->cap_links ? d->cap_links * 2 : 64;
        qr_docx_link *nl = calloc(cap, sizeof *nl);
        if (!nl) {
            qr_docx_fail(d, QR_E_NOMEM);
            return NULL;
        }
        for (size_t i = 0; i < d->cap_links; i++) {
            if (!d->links[i].url) continue;
            size_t j = hash_str(d->links[i].url) & (cap - 1);
            while (nl[j].url)
                j = (j + 1) & (cap - 1);
            nl[j] = d->links[i];
        }
        free(d->links);
        d->links = nl;
        d->cap_links = cap;
    }
    size_t j = hash_str(url) & (d->cap_links - 1);
    while (d->links[j].url) {
        if (strcmp(d->links[j].url, url) == 0) return d->links[j].rid;
        j = (j + 1) & (d->cap_links - 1);
    }
    const char *rid = qr_package_rel(d->pkg, "word/document.xml", QR_REL_HYPERLINK, url, 1);
    if (!rid) {
        qr_docx_fail(d, QR_E_NOMEM);
        return NULL;
    }
    d->links[j].url = url;
    d->links[j].rid = rid;
    d->n_links++;
    return rid;
}

/* Formatting a whole paragraph imposes on its runs: bold (table header
 * cells), code (code blocks: monospace, no character shading: the
 * paragraph has it), italic (quotes), a colour (a callout's title). */
typedef qr_docx_pfmt para_fmt;

/* Whether family is the document default (fonts/ hands out one pointer per
 * family, so after the first match a pointer compare does). */
static int is_default_font(qr_docx *d, const char *family)
{
    if (family == d->default_font) return 1;
    if (strcmp(family, d->style.body_face ? d->style.body_face : QR_DOCX_FONT) != 0) return 0;
    d->default_font = family;
    return 1;
}

/* The run properties of one segment. */
static void seg_rpr(qr_docx *d, const qr_seg *s, para_fmt pf, qr_docx_rpr *p)
{
    memset(p, 0, sizeof *p);
    const char *mono = qr_fonts_mono_family();
    int code = s->code || pf.code;
    if (s->link) p->style = "Hyperlink";
    switch (s->slot) {
    case QR_SLOT_LATIN:
        /* The document default (docDefaults) needs no repeating. */
        p->ascii = code ? mono : is_default_font(d, s->family) ? NULL : s->family;
        p->lang = s->lang && !(d->doc->lang && strcmp(s->lang, d->doc->lang) == 0) ? s->lang : NULL;
        break;
    case QR_SLOT_EAST_ASIAN:
        /* Only eastAsia changes for CJK (ascii/hAnsi stay with the Latin
         * font); the hint sends shared punctuation to the CJK font too. */
        p->hint = "eastAsia";
        p->east_asian = s->family;
        if (code) p->ascii = mono;
        p->lang_ea = s->lang;
        break;
    case QR_SLOT_COMPLEX:
        p->complex = s->family;
        p->cs = 1;
        p->rtl = s->rtl;
        if (code) p->ascii = mono;
        p->lang_bidi = s->lang;
        break;
    }
    qr_docx_use_family(d, s->family);
    p->bold = s->bold || pf.bold;
    p->italic = s->italic || pf.italic;
    /* the line under a decorated run's words only (text/: bare spaces) */
    p->underline = s->underline && !s->bare;
    p->no_underline = s->bare && (s->link || s->anchor); /* the Hyperlink style underlines */
    p->strike = s->strike;
    if (s->code && !pf.code) p->shading = d->code_fill;
    if (s->anchor && !s->link) p->style = "Hyperlink";
    p->color = s->link || s->anchor ? 0 : s->color ? s->color : pf.color;
    p->highlight = s->highlight;
    p->vert = s->sup ? "superscript" : s->sub ? "subscript" : NULL;
}

static int str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static int rpr_eq(const qr_docx_rpr *a, const qr_docx_rpr *b)
{
    return str_eq(a->style, b->style) && str_eq(a->hint, b->hint) && str_eq(a->ascii, b->ascii) &&
           str_eq(a->east_asian, b->east_asian) && str_eq(a->complex, b->complex) &&
           a->bold == b->bold && a->italic == b->italic && a->strike == b->strike &&
           a->underline == b->underline && a->no_underline == b->no_underline && a->rtl == b->rtl &&
           a->cs == b->cs && str_eq(a->shading, b->shading) && str_eq(a->lang, b->lang) &&
           a->color == b->color && a->highlight == b->highlight && str_eq(a->vert, b->vert) &&
           str_eq(a->lang_ea, b->lang_ea) && str_eq(a->lang_bidi, b->lang_bidi);
}

/* A footnote (endnote) reference: <w:footnoteReference> in its style; the
 * note is kept for footnotes.xml. */
static void note_ref(qr_docx *d, const qr_seg *s)
{
    qr_xml *x = d->x;
    int end = d->doc->endnotes;
    if (d->notes && s->note_no >= 1 && s->note_no <= d->doc->n_notes)
        d->notes[s->note_no - 1] = s->note;
    qr_xml_start(x, "w:r");
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:rStyle", "w:val", end ? "EndnoteReference" : "FootnoteReference", NULL);
    qr_xml_end(x);
    qr_xml_start(x, end ? "w:endnoteReference" : "w:footnoteReference");
    qr_xml_attr_int(x, "w:id", (long long)s->note_no);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* The runs of a text: one <w:r> per span (adjacent segments of one run
 * that come out alike, say kana then kanji in one font, share a <w:r>),
 * inside <w:hyperlink> for links. The segments come from text/. */
static void write_segs(qr_docx *d, const qr_segs *sg, para_fmt pf)
{
    if (!sg) return;
    qr_xml *x = d->x;
    long open_link = -1; /* the run whose <w:hyperlink> is open */
    const qr_seg *items = sg->items;
    size_t n = sg->n;
    for (size_t i = 0, next; i < n; i = next) {
        const qr_seg *s = &items[i];
        next = i + 1;
        if (open_link >= 0 && open_link != (long)s->run) {
            qr_xml_end(x);
            open_link = -1;
        }
        if (s->note) {
            /* a footnote reference: the note goes to footnotes.xml */
            for (; next < n && items[next].run == s->run; next++)
                ;
            note_ref(d, s);
            continue;
        }
        if (open_link < 0 && (s->link || s->anchor)) {
            /* <w:hyperlink>: to a URL, or to a bookmark in the document */
            const char *rid = NULL;
            if (s->link) {
                rid = d->part ? qr_package_rel(d->pkg, d->part, QR_REL_HYPERLINK, s->link, 1)
                              : link_rid(d, s->link);
                if (!rid) {
                    qr_docx_fail(d, QR_E_NOMEM);
                    return;
                }
            }
            qr_xml_start(x, "w:hyperlink");
            if (rid) qr_xml_attr(x, "r:id", rid);
            if (!rid) qr_xml_attr(x, "w:anchor", s->anchor);
            qr_xml_attr(x, "w:history", "1");
            open_link = (long)s->run;
        }
        qr_docx_rpr rpr, more;
        seg_rpr(d, s, pf, &rpr);
        for (; next < n && items[next].run == s->run; next++) {
            seg_rpr(d, &items[next], pf, &more);
            if (!rpr_eq(&rpr, &more)) break;
        }
        write_w_r(x, &rpr, s, next - i);
    }
    if (open_link >= 0) qr_xml_end(x);
}

/* The segments of t (text/), NULL after a failure. */
static const qr_segs *segments(qr_docx *d, const qr_text *t)
{
    if (d->status != QR_OK) return NULL;
    const qr_segs *sg;
    qr_status st = qr_text_segments(&d->text, t, &sg);
    if (st != QR_OK) {
        qr_docx_fail(d, st);
        return NULL;
    }
    return sg;
}

/* The pending bookmark (a block's id, or a heading's _Toc name) opens in
 * the paragraph being written: its number, or -1. */
static long bookmark_start(qr_docx *d)
{
    if (!d->bookmark) return -1;
    long id = d->n_bookmarks++;
    qr_xml_start(d->x, "w:bookmarkStart");
    qr_xml_attr_int(d->x, "w:id", id);
    qr_xml_attr(d->x, "w:name", d->bookmark);
    qr_xml_end(d->x);
    d->bookmark = NULL;
    return id;
}

static void bookmark_end(qr_docx *d, long id)
{
    if (id < 0) return;
    qr_xml_start(d->x, "w:bookmarkEnd");
    qr_xml_attr_int(d->x, "w:id", id);
    qr_xml_end(d->x);
}

/* <w:p> holding a text. ppr->bidi is set here from the text's direction. */
/* The space after a table, taken by the paragraph after it as more space
 * before (d->lead_before, set by write_block with the block's own). */
void qr_docx_lead(qr_docx *d, qr_docx_ppr *ppr)
{
    if (!d->lead_before) return;
    if (!ppr->spacing) ppr->after = -1;
    ppr->spacing = 1;
    ppr->before = d->lead_before;
    d->lead_before = 0;
}

static void write_w_p(qr_docx *d, qr_docx_ppr *ppr, const qr_text *t, para_fmt pf)
{
    qr_xml *x = d->x;
    const qr_segs *sg = segments(d, t);
    if (sg && sg->dir == QR_DIR_RTL) ppr->bidi = 1;
    qr_docx_lead(d, ppr);
    qr_xml_start(x, "w:p");
    qr_docx_write_w_ppr(x, ppr);
    long bm = bookmark_start(d);
    write_segs(d, sg, pf);
    bookmark_end(d, bm);
    qr_xml_end(x);
}

void qr_docx_write_runs(qr_docx *d, const qr_text *t, qr_docx_pfmt pf)
{
    write_segs(d, segments(d, t), pf);
}

/* ---- blocks ------------------------------------------------------------------- */

static void write_title(qr_docx *d, const qr_text *title)
{
    qr_docx_ppr ppr = {0};
    ppr.style = "Title";
    /* the theme's alignment (layout/style.h), whatever the text's direction */
    ppr.jc = d->style.title_align == QR_STYLE_CENTER ? "center" : "left";
    /* the rhythm's space after, on the paragraph too: LibreOffice maps
     * "Title" to its own style and drops the style's */
    ppr.spacing = 1;
    ppr.before = 0;
    ppr.after = qr_twips(qr_rhythm_block(&d->style, QR_RHYTHM_TITLE, 0).after);
    write_w_p(d, &ppr, title, (para_fmt){0});
}

static void write_heading(qr_docx *d, const qr_block *b)
{
    static const char *const styles[] = {"Heading1", "Heading2", "Heading3",
                                         "Heading4", "Heading5", "Heading6"};
    int level = b->u.heading.level;
    if (level < 1) level = 1;
    if (level > 6) level = 6;
    qr_docx_ppr ppr = {0};
    ppr.style = styles[level - 1];
    write_w_p(d, &ppr, &b->u.heading.text, (para_fmt){0});
}

static void write_paragraph(qr_docx *d, const qr_block *b)
{
    qr_docx_ppr ppr = {0};
    write_w_p(d, &ppr, &b->u.paragraph.text, (para_fmt){0});
}

/* first: the list's first item, last: the list's last item is in items;
 * they take the list's space before and after (layout/rhythm.h), the others
 * List Paragraph's gap between items. */
static void write_items(qr_docx *d, const qr_item *items, size_t n, int num_id, int ilvl, int depth,
                        int first, int last)
{
    qr_rhythm_space sp = qr_rhythm_block(&d->style, QR_RHYTHM_LIST, 0);
    for (size_t i = 0; i < n && d->status == QR_OK; i++) {
        const qr_item *it = &items[i];
        int nested = it->n_items && depth < 64;
        qr_docx_ppr ppr = {0};
        ppr.style = "ListParagraph";
        ppr.num_id = num_id;
        ppr.ilvl = ilvl;
        ppr.before = ppr.after = -1;
        if (first && i == 0) ppr.spacing = 1, ppr.before = qr_twips(sp.before);
        if (last && i + 1 == n && !nested) ppr.spacing = 1, ppr.after = qr_twips(sp.after);
        if (it->task) {
            /* a task item: the open or ticked box's numbering, same level */
            if (!d->task_num) {
                d->task_num = qr_docx_add_num(d, QR_DOCX_ABSTRACT_TASK_OPEN, 0);
                if (d->task_num < 0 || qr_docx_add_num(d, QR_DOCX_ABSTRACT_TASK_DONE, 0) < 0) {
                    qr_docx_fail(d, QR_E_NOMEM);
                    return;
                }
            }
            ppr.num_id = d->task_num + (it->task == QR_TASK_DONE);
        }
        write_w_p(d, &ppr, &it->text, (para_fmt){0});
        /* The compiler allows 9 levels (ilvl 0..8); deeper items, should a
         * tree ever hold them, stay on the last level. The depth guard only
         * keeps a malformed tree from recursing without end. */
        if (it->n_items && depth < 64)
            write_items(d, it->items, it->n_items, num_id,
                        ilvl < QR_DOCX_LEVELS - 1 ? ilvl + 1 : ilvl, depth + 1, 0,
                        last && i + 1 == n);
    }
}

static void write_list(qr_docx *d, const qr_block *b)
{
    int num_id = QR_DOCX_BULLET_NUM;
    if (b->u.list.ordered) num_id = qr_docx_add_num(d, QR_DOCX_ABSTRACT_DECIMAL, b->u.list.start);
    if (num_id < 0) {
        qr_docx_fail(d, QR_E_NOMEM);
        return;
    }
    d->has_lists = 1;
    write_items(d, b->u.list.items, b->u.list.n_items, num_id, 0, 0, 1, 1);
}

/* The direction of a row of cells: its first cell with a strong direction. */
static qr_dir cells_dir(const qr_tcell *cells, size_t n)
{
    for (size_t i = 0; cells && i < n; i++) {
        if (cells[i].kind != QR_TCELL_TEXT) continue;
        qr_dir dir = qr_fonts_text_direction(&cells[i].text);
        if (dir != QR_DIR_NEUTRAL) return dir;
    }
    return QR_DIR_NEUTRAL;
}

static void write_border(qr_xml *x, const char *name, const char *grid, const char *sz)
{
    qr_xml_leaf(x, name, "w:val", "single", "w:color", grid, "w:sz", sz, "w:space", "0", NULL);
}

/* <w:tblPr> */
/* grid, sz: the theme's border colour and width in eighths of a point */
static void write_w_tblpr(qr_xml *x, long width, int rtl, const char *grid, const char *sz)
{
    qr_xml_start(x, "w:tblPr");
    qr_xml_leaf(x, "w:tblStyle", "w:val", "TableGrid", NULL);
    if (rtl) qr_xml_leaf(x, "w:bidiVisual", NULL);
    /* <w:tblW> */
    qr_xml_start(x, "w:tblW");
    qr_xml_attr_int(x, "w:w", width);
    qr_xml_attr(x, "w:type", "dxa");
    qr_xml_end(x);
    /* <w:tblBorders> */
    qr_xml_start(x, "w:tblBorders");
    write_border(x, "w:top", grid, sz);
    write_border(x, "w:left", grid, sz);
    write_border(x, "w:bottom", grid, sz);
    write_border(x, "w:right", grid, sz);
    write_border(x, "w:insideH", grid, sz);
    write_border(x, "w:insideV", grid, sz);
    qr_xml_end(x);
    qr_xml_leaf(x, "w:tblLayout", "w:type", "fixed", NULL);
    qr_xml_leaf(x, "w:tblLook", "w:val", "04A0", "w:firstRow", "1", "w:lastRow", "0",
                "w:firstColumn", "0", "w:lastColumn", "0", "w:noHBand", "1", "w:noVBand", "1",
                NULL);
    qr_xml_end(x);
}

/* <w:tr>: n cells of cols (cells may be fewer than columns: header rows);
 * a cell spanning columns takes their widths and a w:gridSpan, the
 * positions it covers are not written. */
static void write_w_tr(qr_docx *d, const qr_table *t, const qr_tcell *cells, size_t n,
                       const long *cols, size_t n_cols, int header)
{
    qr_xml *x = d->x;
    qr_xml_start(x, "w:tr");
    if (header) {
        /* <w:trPr>: the header row repeats on every page and stays whole. */
        qr_xml_start(x, "w:trPr");
        qr_xml_leaf(x, "w:cantSplit", NULL);
        qr_xml_leaf(x, "w:tblHeader", NULL);
        qr_xml_end(x);
    }
    for (size_t c = 0; c < n_cols && d->status == QR_OK; c++) {
        const qr_tcell *cell = cells && c < n ? &cells[c] : NULL;
        if (cell && cell->colspan == 0) continue; /* covered by a span */
        size_t span = cell && cell->colspan > 1 ? cell->colspan : 1;
        if (c + span > n_cols) span = n_cols - c;
        long w = 0;
        for (size_t k = 0; k < span; k++)
            w += cols[c + k];
        /* <w:tc> */
        qr_xml_start(x, "w:tc");
        qr_xml_start(x, "w:tcPr");
        qr_xml_start(x, "w:tcW");
        qr_xml_attr_int(x, "w:w", w);
        qr_xml_attr(x, "w:type", "dxa");
        qr_xml_end(x);
        if (span > 1) {
            qr_xml_start(x, "w:gridSpan");
            qr_xml_attr_int(x, "w:val", (long long)span);
            qr_xml_end(x);
        }
        /* a cell spanning rows starts a vertical merge; the positions it
         * covers below continue it (their text is empty) */
        if (cell && cell->merged_above)
            qr_xml_leaf(x, "w:vMerge", NULL);
        else if (qr_tcell_rows(cell) > 1)
            qr_xml_leaf(x, "w:vMerge", "w:val", "restart", NULL);
        char fill[7];
        if (cell && cell->fill) {
            qr_style_hex(cell->fill & 0xFFFFFF, fill);
            qr_xml_leaf(x, "w:shd", "w:val", "clear", "w:color", "auto", "w:fill", fill, NULL);
        } else if (header) {
            qr_xml_leaf(x, "w:shd", "w:val", "clear", "w:color", "auto", "w:fill", d->header_fill,
                        NULL);
        }
        qr_xml_end(x);
        qr_docx_ppr ppr = {0};
        ppr.style = "TableContents";
        qr_align al = qr_tcell_align(cell, t ? t->col_align : NULL, c);
        ppr.jc = al == QR_ALIGN_RIGHT    ? "right"
                 : al == QR_ALIGN_CENTER ? "center"
                 : al == QR_ALIGN_LEFT   ? "left"
                                         : NULL;
        para_fmt pf = {0};
        pf.bold = header || (cell && cell->bold);
        if (cell && !cell->merged_above) {
            write_w_p(d, &ppr, &cell->text, pf);
        } else {
            qr_xml_start(x, "w:p");
            qr_docx_write_w_ppr(x, &ppr);
            qr_xml_end(x);
        }
        qr_xml_end(x);
        c += span - 1;
    }
    qr_xml_end(x);
}

/* <w:tbl> */
static void write_w_tbl(qr_docx *d, const qr_table *t)
{
    qr_xml *x = d->x;
    size_t nc = t->n_cols ? t->n_cols : 1;
    long *cols = malloc(nc * sizeof *cols);
    if (!cols) {
        qr_docx_fail(d, QR_E_NOMEM);
        return;
    }
    qr_docx_grid(d->text_width, t->widths, nc, cols);
    long total = 0;
    for (size_t c = 0; c < nc; c++)
        total += cols[c];
    qr_dir dir = cells_dir(t->headers, t->n_headers);
    for (size_t r = 0; dir == QR_DIR_NEUTRAL && r < t->n_rows; r++)
        dir = cells_dir(t->rows[r], t->n_cols);

    qr_xml_start(x, "w:tbl");
    write_w_tblpr(x, total, dir == QR_DIR_RTL, d->grid, d->grid_sz);
    /* <w:tblGrid> */
    qr_xml_start(x, "w:tblGrid");
    for (size_t c = 0; c < nc; c++) {
        qr_xml_start(x, "w:gridCol");
        qr_xml_attr_int(x, "w:w", cols[c]);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    if (t->headers) write_w_tr(d, t, t->headers, t->n_headers, cols, nc, 1);
    for (size_t r = 0; r < t->n_rows && d->status == QR_OK; r++)
        write_w_tr(d, t, t->rows[r], t->n_cols, cols, nc, r < t->body_header_rows);
    /* A table with no rows at all still needs one (CT_Tbl allows none, but
     * Word and LibreOffice reject an empty table). */
    if (!t->headers && t->n_rows == 0) write_w_tr(d, t, NULL, 0, cols, nc, 0);
    qr_xml_end(x);
    free(cols);
}

static void write_code(qr_docx *d, const qr_block *b)
{
    qr_docx_ppr ppr = {0};
    ppr.style = "Code";
    para_fmt pf = {0};
    pf.code = 1;
    /* Code reads left to right whatever its comments hold: no <w:bidi>. */
    const qr_segs *sg = segments(d, &b->u.code.text);
    qr_docx_lead(d, &ppr);
    qr_xml_start(d->x, "w:p");
    qr_docx_write_w_ppr(d->x, &ppr);
    write_segs(d, sg, pf);
    qr_xml_end(d->x);
}

/* Image extent in EMU: pixels at the image's resolution, scaled down
 * (keeping the aspect ratio) to fit the text width and height. */
static void image_extent(const qr_docx *d, const qr_image *im, long long *cx, long long *cy)
{
    double dx = im->dpi_x > 1 ? im->dpi_x : 96, dy = im->dpi_y > 1 ? im->dpi_y : 96;
    double w = (double)im->width_px * 914400.0 / dx;
    double h = (double)im->height_px * 914400.0 / dy;
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    const qr_page *pg = &d->doc->page;
    double max_w = (double)d->text_width * EMU_PER_TWIP;
    double text_h = (double)(qr_docx_twips(pg->height) - qr_docx_twips(pg->margin_top) -
                             qr_docx_twips(pg->margin_bottom)) *
                    EMU_PER_TWIP;
    double max_h = text_h > 914400 ? text_h : 914400;
    /* its "width" (layout/style.h: the PDF's rule), within the column */
    double s = qr_look_image_width(im, w, max_w, 12700.0) / w;
    if (h * s > max_h) s = max_h / h;
    *cx = (long long)(w * s + 0.5);
    *cy = (long long)(h * s + 0.5);
    if (*cx < 1) *cx = 1;
    if (*cy < 1) *cy = 1;
}

/* <wp:inline> */
static void write_wp_inline(qr_xml *x, long long cx, long long cy, size_t id, const char *file,
                            const char *alt, const char *rid)
{
    qr_xml_start(x, "wp:inline");
    qr_xml_attr(x, "distT", "0");
    qr_xml_attr(x, "distB", "0");
    qr_xml_attr(x, "distL", "0");
    qr_xml_attr(x, "distR", "0");
    qr_xml_start(x, "wp:extent");
    qr_xml_attr_int(x, "cx", cx);
    qr_xml_attr_int(x, "cy", cy);
    qr_xml_end(x);
    qr_xml_leaf(x, "wp:effectExtent", "l", "0", "t", "0", "r", "0", "b", "0", NULL);
    /* <wp:docPr> */
    char name[64];
    snprintf(name, sizeof name, "Picture %zu", id);
    qr_xml_start(x, "wp:docPr");
    qr_xml_attr_int(x, "id", (long long)id);
    qr_xml_attr(x, "name", name);
    if (alt && *alt) qr_xml_attr(x, "descr", alt);
    qr_xml_end(x);
    qr_xml_start(x, "wp:cNvGraphicFramePr");
    qr_xml_leaf(x, "a:graphicFrameLocks", "noChangeAspect", "1", NULL);
    qr_xml_end(x);
    /* <a:graphic> */
    qr_xml_start(x, "a:graphic");
    qr_xml_start(x, "a:graphicData");
    qr_xml_attr(x, "uri", "http://schemas.openxmlformats.org/drawingml/2006/picture");
    /* <pic:pic> */
    qr_xml_start(x, "pic:pic");
    qr_xml_start(x, "pic:nvPicPr");
    qr_xml_start(x, "pic:cNvPr");
    qr_xml_attr(x, "id", "0");
    qr_xml_attr(x, "name", file);
    if (alt && *alt) qr_xml_attr(x, "descr", alt);
    qr_xml_end(x);
    qr_xml_leaf(x, "pic:cNvPicPr", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "pic:blipFill");
    qr_xml_leaf(x, "a:blip", "r:embed", rid, NULL);
    qr_xml_start(x, "a:stretch");
    qr_xml_leaf(x, "a:fillRect", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_start(x, "pic:spPr");
    qr_xml_start(x, "a:xfrm");
    qr_xml_leaf(x, "a:off", "x", "0", "y", "0", NULL);
    qr_xml_start(x, "a:ext");
    qr_xml_attr_int(x, "cx", cx);
    qr_xml_attr_int(x, "cy", cy);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_start(x, "a:prstGeom");
    qr_xml_attr(x, "prst", "rect");
    qr_xml_leaf(x, "a:avLst", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x); /* pic:pic */
    qr_xml_end(x); /* a:graphicData */
    qr_xml_end(x); /* a:graphic */
    qr_xml_end(x); /* wp:inline */
}

/* The relationship of the index-th stored image, made on first use. */
static const char *image_rid(qr_docx *d, size_t index, const char *target)
{
    if (index >= d->cap_image_rids) {
        size_t cap = d->cap_images;
        const char **nr = realloc(d->image_rids, cap * sizeof *nr);
        if (!nr) {
            qr_docx_fail(d, QR_E_NOMEM);
            return NULL;
        }
        for (size_t i = d->cap_image_rids; i < cap; i++)
            nr[i] = NULL;
        d->image_rids = nr;
        d->cap_image_rids = cap;
    }
    if (!d->image_rids[index]) {
        d->image_rids[index] = qr_package_rel(d->pkg, "word/document.xml", QR_REL_IMAGE, target, 0);
        if (!d->image_rids[index]) qr_docx_fail(d, QR_E_NOMEM);
    }
    return d->image_rids[index];
}

static void write_image(qr_docx *d, const qr_block *b)
{
    const qr_image *im = &b->u.image;
    if (d->n_images == d->cap_images) {
        size_t cap = d->cap_images ? d->cap_images * 2 : 8;
        const qr_image **ni = realloc(d->images, cap * sizeof *ni);
        if (!ni) {
            qr_docx_fail(d, QR_E_NOMEM);
            return;
        }
        d->images = ni;
        d->cap_images = cap;
    }
    /* The same bytes twice (one file used in two places) are stored once. */
    size_t index = d->n_images;
    for (size_t i = 0; i < d->n_images; i++) {
        const qr_image *o = d->images[i];
        if (o->type == im->type && o->size == im->size &&
            (o->data == im->data || memcmp(o->data, im->data, im->size) == 0)) {
            index = i;
            break;
        }
    }
    if (index == d->n_images) d->images[d->n_images++] = im;
    char file[512], target[600];
    qr_docx_media_name(d->images[index], index, file, sizeof file);
    snprintf(target, sizeof target, "media/%s", file);
    const char *rid = image_rid(d, index, target);
    if (!rid) return;
    d->n_pictures++;
    long long cx, cy;
    image_extent(d, im, &cx, &cy);
    qr_xml *x = d->x;
    qr_xml_start(x, "w:p");
    {
        qr_rhythm_space sp = qr_rhythm_block(&d->style, QR_RHYTHM_IMAGE, 0);
        qr_docx_ppr ppr = {0};
        ppr.keep_next = b->caption.n != 0; /* with its caption */
        ppr.jc = im->align == QR_ALIGN_CENTER  ? "center"
                 : im->align == QR_ALIGN_RIGHT ? "right"
                                               : NULL;
        ppr.line_auto = 1;
        ppr.spacing = 1;
        ppr.before = qr_twips(sp.before);
        ppr.after = qr_twips(sp.after);
        qr_docx_lead(d, &ppr);
        qr_docx_write_w_ppr(x, &ppr);
    }
    long bm = bookmark_start(d);
    qr_xml_start(x, "w:r");
    qr_xml_start(x, "w:drawing");
    write_wp_inline(x, cx, cy, d->n_pictures, file, qr_plain(&im->alt), rid);
    qr_xml_end(x);
    qr_xml_end(x);
    bookmark_end(d, bm);
    qr_xml_end(x);
}

static void write_page_break(qr_docx *d)
{
    qr_xml *x = d->x;
    qr_xml_start(x, "w:p");
    qr_xml_start(x, "w:r");
    qr_xml_leaf(x, "w:br", "w:type", "page", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* A caption paragraph: the label (bold, the compiler's first run) and text. */
static void write_caption(qr_docx *d, const qr_block *b)
{
    qr_docx_ppr ppr = {0};
    ppr.style = "Caption";
    ppr.keep_next = b->type == QR_BLOCK_TABLE;
    write_w_p(d, &ppr, &b->caption, (para_fmt){0});
}

/* A text after a prefix ("— " before an attribution), as one text. */
static void write_prefixed(qr_docx *d, qr_docx_ppr *ppr, const char *prefix, const qr_text *t,
                           para_fmt pf)
{
    qr_run *rs = malloc((t->n + 1) * sizeof *rs);
    if (!rs) {
        qr_docx_fail(d, QR_E_NOMEM);
        return;
    }
    memset(rs, 0, sizeof *rs);
    rs[0].text = prefix;
    rs[0].len = strlen(prefix);
    if (t->n) memcpy(rs + 1, t->runs, t->n * sizeof *rs);
    qr_text pt = {rs, t->n + 1, t->path};
    write_w_p(d, ppr, &pt, pf);
    free(rs);
}

static void write_quote(qr_docx *d, const qr_block *b)
{
    qr_docx_ppr ppr = {0};
    ppr.style = "Quote";
    write_w_p(d, &ppr, &b->u.quote.text, (para_fmt){0});
    if (!b->u.quote.attribution.n) return;
    qr_docx_ppr ap = {0};
    ap.style = "QuoteAttribution";
    write_prefixed(d, &ap, "\xE2\x80\x94 ", &b->u.quote.attribution, (para_fmt){0});
}

/* A callout: its title and text in one box (adjacent paragraphs with the
 * same borders and ground share them), a bar in the tone's ink. */
static void write_callout(qr_docx *d, const qr_block *b)
{
    char ink[7], fill[7];
    qr_tone tone = b->u.callout.tone;
    qr_style_hex(qr_tone_ink(tone), ink);
    qr_style_hex(qr_tone_fill(tone, d->style.background), fill);
    qr_docx_ppr ppr = {0};
    ppr.style = "Callout";
    ppr.bar = ink;
    ppr.fill = fill;
    ppr.bar_sz = 24;
    ppr.keep_next = 1;
    para_fmt tf = {0};
    tf.bold = 1;
    tf.color = QR_RGB_SET | qr_tone_ink(tone);
    write_w_p(d, &ppr, &b->u.callout.title, tf);
    qr_docx_ppr bp = ppr;
    bp.keep_next = 0;
    bp.bidi = 0;
    write_w_p(d, &bp, &b->u.callout.text, (para_fmt){0});
}

static void write_rule(qr_docx *d)
{
    qr_docx_ppr ppr = {0};
    ppr.style = "HorizontalRule";
    static const qr_text empty = {0};
    write_w_p(d, &ppr, &empty, (para_fmt){0});
}

/* The bookmark of heading block i: its id, or "_TocN" (N its index). */
static const char *heading_mark(const qr_block *b, size_t i, char *buf, size_t size)
{
    if (b->id) return b->id;
    snprintf(buf, size, "_Toc%zu", i);
    return buf;
}

/* <w:r> holding one field character or instruction. */
static void fld_char(qr_xml *x, const char *type)
{
    qr_xml_start(x, "w:r");
    qr_xml_leaf(x, "w:fldChar", "w:fldCharType", type, NULL);
    qr_xml_end(x);
}

/* A table of contents: a TOC field over one paragraph per heading (TOC1..
 * TOC6 styles carry the dotted right tab), each a link to its heading's
 * bookmark, its cached page number quire's own pagination (the PDF
 * layout's, through the render context) so Word and LibreOffice show it
 * without updating fields. */
/* The page of block i: the byte TOC_HOLE, which nothing else in the part
 * can hold (text and attribute values never carry C0 controls: xml.h),
 * stands where its number goes; fill_holes() writes the numbers, when the
 * body is done if they are known, else once the layout that finds them on
 * another thread (render.c) ends: the package deflates the part's tail
 * while it runs (qr_docx_settle_toc). The bytes are those the number gives. */
#define TOC_HOLE '\x01'

static void toc_hole(qr_docx *d, size_t i)
{
    if (d->n_toc_holes == d->cap_toc_holes) {
        size_t cap = d->cap_toc_holes ? 2 * d->cap_toc_holes : 64;
        size_t *p = realloc(d->toc_holes, cap * sizeof *p);
        if (!p) {
            qr_docx_fail(d, QR_E_NOMEM);
            return;
        }
        d->toc_holes = p;
        d->cap_toc_holes = cap;
    }
    d->toc_holes[d->n_toc_holes++] = i;
    static const char hole = TOC_HOLE;
    qr_xml_start(d->x, "w:r");
    qr_xml_start(d->x, "w:t");
    qr_xml_raw(d->x, &hole, 1);
    qr_xml_end(d->x);
    qr_xml_end(d->x);
}

/* The part data[0..len) with the page numbers in its holes, into b: the
 * pages of the layout, or 1 for every entry when it failed (as without a
 * layout). *head: the offset in b just after the last number, where the
 * part's tail begins (qr_package_add_split). */
static qr_status fill_holes(const qr_docx *d, const size_t *pages, const char *data, size_t len,
                            qr_buf *b, size_t *head)
{
    if (!qr_buf_reserve(b, len + d->n_toc_holes * 20)) return qr_fail(QR_E_NOMEM);
    size_t at = 0, k = 0;
    for (const char *h;
         k < d->n_toc_holes && at < len && (h = memchr(data + at, TOC_HOLE, len - at));) {
        size_t to = (size_t)(h - data);
        qr_buf_append(b, data + at, to - at);
        char num[24];
        size_t page = pages ? pages[d->toc_holes[k]] : 0;
        k++;
        qr_buf_append(b, num, (size_t)snprintf(num, sizeof num, "%zu", page ? page : 1));
        at = to + 1;
    }
    *head = b->len;
    qr_buf_append(b, data + at, len - at);
    if (b->oom || k != d->n_toc_holes) return qr_fail(b->oom ? QR_E_NOMEM : QR_E_RENDER);
    return QR_OK;
}

/* The offset just after the last hole of data[0..len), 0 when it has
 * fewer than the table of contents made. The holes are near the start:
 * memchr skips to each. */
static size_t after_holes(const qr_docx *d, const char *data, size_t len)
{
    size_t at = 0, k = 0;
    for (const char *h;
         k < d->n_toc_holes && at < len && (h = memchr(data + at, TOC_HOLE, len - at)); k++)
        at = (size_t)(h - data) + 1;
    return k == d->n_toc_holes ? at : 0;
}

qr_status qr_docx_settle_toc(void *ctx, const char *data, size_t head, char **out, size_t *out_len)
{
    qr_docx *d = ctx;
    const size_t *pages = d->ctx->block_pages_wait(d->ctx->block_pages_ud);
    qr_buf b = {0};
    size_t filled;
    qr_status st = fill_holes(d, pages, data, head, &b, &filled);
    if (st != QR_OK) {
        qr_buf_free(&b);
        return st;
    }
    *out = qr_buf_steal(&b, out_len);
    return QR_OK;
}

static void write_toc(qr_docx *d, const qr_block *b)
{
    qr_xml *x = d->x;
    const qr_doc *doc = d->doc;
    qr_docx_ppr tp = {0};
    tp.style = "TOCHeading";
    write_w_p(d, &tp, &b->u.toc.title, (para_fmt){0});
    size_t n = 0, last = 0;
    for (size_t i = 0; i < doc->n_blocks; i++)
        if (doc->blocks[i].type == QR_BLOCK_HEADING &&
            doc->blocks[i].u.heading.level <= b->u.toc.levels)
            n++, last = i;
    if (!n) return;
    char instr[64];
    snprintf(instr, sizeof instr, " TOC \\o \"1-%d\" \\h \\z \\u ", b->u.toc.levels);
    int first = 1;
    for (size_t i = 0; i < doc->n_blocks && d->status == QR_OK; i++) {
        const qr_block *h = &doc->blocks[i];
        if (h->type != QR_BLOCK_HEADING || h->u.heading.level > b->u.toc.levels) continue;
        static const char *const styles[] = {"TOC1", "TOC2", "TOC3", "TOC4", "TOC5", "TOC6"};
        qr_xml_start(x, "w:p");
        qr_docx_ppr ppr = {0};
        ppr.style = styles[h->u.heading.level - 1];
        qr_docx_write_w_ppr(x, &ppr);
        if (first) {
            fld_char(x, "begin");
            qr_xml_start(x, "w:r");
            qr_xml_start(x, "w:instrText");
            qr_xml_attr(x, "xml:space", "preserve");
            qr_xml_text(x, instr, strlen(instr));
            qr_xml_end(x);
            qr_xml_end(x);
            fld_char(x, "separate");
            first = 0;
        }
        char mark[32];
        qr_xml_start(x, "w:hyperlink");
        qr_xml_attr(x, "w:anchor", heading_mark(h, i, mark, sizeof mark));
        qr_xml_attr(x, "w:history", "1");
        /* the heading's runs without footnote marks or links */
        const qr_text *t = &h->u.heading.text;
        qr_run *rs = t->n ? malloc(t->n * sizeof *rs) : NULL;
        size_t k = 0;
        for (size_t r = 0; rs && r < t->n; r++)
            if (!t->runs[r].note) {
                rs[k] = t->runs[r];
                rs[k].link = NULL;
                rs[k].anchor = NULL;
                k++;
            }
        qr_text et = {rs, k, t->path};
        write_segs(d, segments(d, &et), (para_fmt){0});
        free(rs);
        qr_xml_start(x, "w:r");
        qr_xml_leaf(x, "w:tab", NULL);
        qr_xml_end(x);
        toc_hole(d, i);
        qr_xml_end(x); /* w:hyperlink */
        if (i == last) fld_char(x, "end");
        qr_xml_end(x); /* w:p */
    }
}

/* The rhythm's space around block b (layout/rhythm.h). */
static qr_rhythm_space block_space(const qr_docx *d, const qr_block *b)
{
    static const qr_rhythm_kind kinds[] = {
        [QR_BLOCK_HEADING] = QR_RHYTHM_HEADING, [QR_BLOCK_PARAGRAPH] = QR_RHYTHM_PARAGRAPH,
        [QR_BLOCK_LIST] = QR_RHYTHM_LIST,       [QR_BLOCK_TABLE] = QR_RHYTHM_TABLE,
        [QR_BLOCK_CODE] = QR_RHYTHM_CODE,       [QR_BLOCK_IMAGE] = QR_RHYTHM_IMAGE,
        [QR_BLOCK_CHART] = QR_RHYTHM_CHART,     [QR_BLOCK_QUOTE] = QR_RHYTHM_QUOTE,
        [QR_BLOCK_CALLOUT] = QR_RHYTHM_CALLOUT, [QR_BLOCK_RULE] = QR_RHYTHM_RULE,
        [QR_BLOCK_TOC] = QR_RHYTHM_TOC};
    if (b->type == QR_BLOCK_PAGE_BREAK || (size_t)b->type >= sizeof kinds / sizeof kinds[0])
        return (qr_rhythm_space){0, 0};
    return qr_rhythm_block(&d->style, kinds[b->type],
                           b->type == QR_BLOCK_HEADING ? b->u.heading.level : 0);
}

static void write_block(qr_docx *d, const qr_block *b)
{
    char mark[32];
    d->bookmark = b->id;
    if (b->type == QR_BLOCK_HEADING && d->has_toc && b->u.heading.level <= d->toc_levels)
        d->bookmark = heading_mark(b, (size_t)(b - d->doc->blocks), mark, sizeof mark);
    if (b->caption.n && b->type == QR_BLOCK_TABLE) write_caption(d, b);
    if (b->id && b->type == QR_BLOCK_CHART && !b->caption.n) {
        /* the chart's own paragraph is docx_chart.c's: the target before it */
        qr_xml_start(d->x, "w:p");
        bookmark_end(d, bookmark_start(d));
        qr_xml_end(d->x);
    }
    if (d->lead_before) {
        /* after a table: the larger of its space after and this block's before */
        qr_rhythm_space sp = block_space(d, b);
        if (qr_twips(sp.before) > d->lead_before) d->lead_before = qr_twips(sp.before);
    }
    switch (b->type) {
    case QR_BLOCK_HEADING:
        write_heading(d, b);
        break;
    case QR_BLOCK_PARAGRAPH:
        write_paragraph(d, b);
        break;
    case QR_BLOCK_LIST:
        write_list(d, b);
        break;
    case QR_BLOCK_TABLE:
        if (!qr_look_table_skipped(&b->u.table)) write_w_tbl(d, &b->u.table);
        break;
    case QR_BLOCK_CODE:
        write_code(d, b);
        break;
    case QR_BLOCK_IMAGE:
        write_image(d, b);
        break;
    case QR_BLOCK_PAGE_BREAK:
        write_page_break(d);
        break;
    case QR_BLOCK_CHART:
        qr_docx_write_chart(d, b);
        break;
    case QR_BLOCK_QUOTE:
        write_quote(d, b);
        break;
    case QR_BLOCK_CALLOUT:
        write_callout(d, b);
        break;
    case QR_BLOCK_RULE:
        write_rule(d);
        break;
    case QR_BLOCK_TOC:
        write_toc(d, b);
        break;
    }
    if (b->caption.n && b->type != QR_BLOCK_TABLE) write_caption(d, b);
    d->bookmark = NULL;
    d->lead_before = 0;
    if (b->type == QR_BLOCK_TABLE && !qr_look_table_skipped(&b->u.table))
        d->lead_before = qr_twips(qr_rhythm_block(&d->style, QR_RHYTHM_TABLE, 0).after);
}

/* The paragraph Word needs after a table that ends the body or precedes
 * another table: 1 pt high, so it takes no room the PDF does not (a full
 * empty line can push a page of its own in LibreOffice); between two
 * tables it carries the first's space after (layout/rhythm.h). */
static void write_spacer(qr_docx *d)
{
    qr_xml *x = d->x;
    qr_xml_start(x, "w:p");
    qr_xml_start(x, "w:pPr");
    qr_xml_start(x, "w:spacing");
    qr_xml_attr_int(x, "w:before", d->lead_before);
    qr_xml_attr(x, "w:after", "0");
    qr_xml_attr(x, "w:line", "20");
    qr_xml_attr(x, "w:lineRule", "exact");
    qr_xml_end(x);
    qr_xml_start(x, "w:rPr");
    qr_xml_leaf(x, "w:sz", "w:val", "2", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x);
    d->lead_before = 0;
}

/* <w:document> */
qr_status qr_docx_document(qr_docx *d, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return qr_fail(QR_E_NOMEM);
    d->x = x;
    qr_xml_decl(x);
    qr_xml_start(x, "w:document");
    qr_xml_attr(x, "xmlns:w", QR_NS_W);
    qr_xml_attr(x, "xmlns:r", QR_NS_REL);
    qr_xml_attr(x, "xmlns:wp", QR_NS_WP);
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_xml_attr(x, "xmlns:pic", QR_NS_PIC);
    if (d->style.background != 0xFFFFFF) {
        /* the theme's page ground (settings.xml asks to display it) */
        char hex[7];
        qr_style_hex(d->style.background, hex);
        qr_xml_leaf(x, "w:background", "w:color", hex, NULL);
    }
    qr_xml_start(x, "w:body");
    for (size_t i = 0; i < d->doc->n_blocks; i++)
        if (d->doc->blocks[i].type == QR_BLOCK_TOC) {
            d->has_toc = 1;
            if (d->doc->blocks[i].u.toc.levels > d->toc_levels)
                d->toc_levels = d->doc->blocks[i].u.toc.levels;
        }
    if (d->doc->title.n) write_title(d, &d->doc->title);
    for (size_t i = 0; i < d->doc->n_blocks && d->status == QR_OK; i++) {
        const qr_block *b = &d->doc->blocks[i];
        write_block(d, b);
        if (qr_xml_status(x) != QR_OK) break;
        /* Two adjacent tables would merge into one, and a table must not
         * end the body: an empty paragraph keeps them apart, as Word does. */
        if (b->type == QR_BLOCK_TABLE && !qr_look_table_skipped(&b->u.table) &&
            (i + 1 == d->doc->n_blocks || d->doc->blocks[i + 1].type == QR_BLOCK_TABLE)) {
            if (i + 1 == d->doc->n_blocks) d->lead_before = 0; /* nothing follows */
            write_spacer(d);
        }
    }
    qr_docx_furn furn;
    qr_docx_furniture(d, &furn);
    qr_docx_write_w_sectpr(x, &d->doc->page, &furn);
    qr_xml_end(x); /* w:body */
    qr_xml_end(x); /* w:document */
    d->x = NULL;
    qr_status st = qr_xml_free(x);
    if (st == QR_OK) st = d->status;
    if (st == QR_OK && d->n_toc_holes) {
        if (!d->ctx->block_pages && d->ctx->block_pages_wait) {
            /* The layout still runs: the holes stay for qr_docx_settle_toc. */
            d->toc_pending = 1;
            d->toc_head = after_holes(d, out->data, out->len);
            if (!d->toc_head) st = qr_fail(QR_E_RENDER);
        } else {
            qr_buf b = {0};
            st = fill_holes(d, d->ctx->block_pages, out->data, out->len, &b, &d->toc_head);
            if (st == QR_OK) {
                qr_buf_free(out);
                *out = b;
            } else {
                qr_buf_free(&b);
            }
        }
    }
    return st;
}
