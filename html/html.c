/* html.c: the html backend. One self-contained UTF-8 page per document:
 * inline CSS, images inlined as data: URIs, nothing fetched from outside.
 *
 * DocsGPT's html renderer is the baseline (reference §2.5): the same wrapper
 * and CSS, the title as <h1>, heading level n as <h(n+1)> (capped at 6),
 * lists, tables with <thead>, code as <pre><code>. On top of it: runs
 * (<strong> <em> <u> <s> <code> <a href>), nested lists, table widths as a
 * <colgroup>, right-aligned numeric cells, images, print page breaks,
 * `lang` on <html>, `dir` on right-to-left blocks (fonts/: first strong
 * character), and the font stack the PDF backend uses. Issue 32's
 * vocabulary: <sup>/<sub>, coloured and highlighted runs, footnotes as
 * endnotes with links back, ids and "#id" links, blockquote, callouts as
 * <aside>, <hr>, captions (<caption>, <figcaption>) and a linked toc.
 *
 * Safety: every spec string is escaped (& < > " '), so no spec text ever
 * becomes markup; characters HTML and XML forbid (C0 controls except tab,
 * LF and CR, DEL and C1 controls, U+FDD0..U+FDEF, U+xFFFE/U+xFFFF) become
 * U+FFFD; links are written only for http:, https: and mailto: (the
 * compiler checks this already; the text layer, text/, checks again) with rel="noopener
 * noreferrer". A newline in running text is a <br> (as python-docx turns it
 * into a line break); in code it is kept verbatim.
 *
 * The page is built in a buffer that is flushed to the sink every 64 KiB,
 * so memory stays bounded by the largest single block.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "fonts.h"
#include "furniture.h"
#include "text.h"
#include "html_chart.h"
#include "style.h"
#include "utf8.h"
#include "words.h"

#define FLUSH_AT 65536

typedef struct hw {
    qr_buf b;
    qr_sink *out;
    qr_fonts *fonts;
    qr_text_ctx text;        /* the text layer (text/): the segments of the text being written */
    const char *lang;        /* <html lang> */
    qr_style style;          /* the theme (layout/style.h), set by put_head */
    const qr_block *caption; /* the table being written has this block's caption */
    /* issue 32: the footnotes by number (written at the end as endnotes
     * with links back), and whether headings need ids for a toc */
    const qr_text **notes;
    size_t n_notes;
    int has_toc;
    const qr_doc *doc;
    const char *chart_failed; /* the path of a chart that could not be laid out */
    long long epoch;          /* the output's date ({date} in page furniture) */
} hw;

static void flush(hw *w)
{
    if (w->b.len && !w->b.oom) qr_sink_write(w->out, w->b.data, w->b.len);
    w->b.len = 0;
}

static void maybe_flush(hw *w)
{
    if (w->b.len >= FLUSH_AT) flush(w);
}

static void puts_(hw *w, const char *s)
{
    qr_buf_puts(&w->b, s);
}

static void putn(hw *w, const char *s, size_t n)
{
    qr_buf_append(&w->b, s, n);
}

/* ---- escaping ---------------------------------------------------------------- */

enum esc_mode {
    ESC_TEXT, /* running text: newline (LF, CR LF, CR) -> <br> */
    ESC_PRE,  /* code: CR LF and CR -> LF, tabs and spaces kept */
    ESC_ATTR  /* attribute values and <title>: newlines kept as LF */
};

static const char fffd[] = "\xEF\xBF\xBD";

/* Characters that may not appear in an HTML (or XML) document. */
static int illegal_cp(uint32_t cp)
{
    if (cp < 0x20) return cp != '\t' && cp != '\n' && cp != '\r';
    if (cp >= 0x7F && cp <= 0x9F) return 1;
    if (cp >= 0xFDD0 && cp <= 0xFDEF) return 1;
    return (cp & 0xFFFE) == 0xFFFE;
}

/* Escape n bytes of s into b. */
static void esc_buf(qr_buf *b, const char *str, size_t n, enum esc_mode mode)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0, start = 0; /* s[start..i) is pending literal output */
    while (i < n) {
        unsigned c = s[i];
        /* Fast path: printable ASCII that needs no escape. */
        if (c >= 0x20 && c < 0x7F && c != '&' && c != '<' && c != '>' && c != '"' && c != '\'') {
            i++;
            continue;
        }
        if (c == '\t' || (c == '\n' && mode != ESC_TEXT)) {
            i++;
            continue;
        }
        if (c >= 0x80) {
            uint32_t cp;
            size_t len = qr_utf8_decode(s + i, n - i, &cp);
            if (len && !illegal_cp(cp)) {
                i += len;
                continue;
            }
            qr_buf_append(b, (const char *)s + start, i - start);
            qr_buf_append(b, fffd, 3);
            i += len ? len : 1;
            start = i;
            continue;
        }
        qr_buf_append(b, (const char *)s + start, i - start);
        switch (c) {
        case '&':
            qr_buf_puts(b, "&amp;");
            break;
        case '<':
            qr_buf_puts(b, "&lt;");
            break;
        case '>':
            qr_buf_puts(b, "&gt;");
            break;
        case '"':
            qr_buf_puts(b, "&quot;");
            break;
        case '\'':
            qr_buf_puts(b, "&#39;");
            break;
        case '\n':
            qr_buf_puts(b, "<br>");
            break; /* ESC_TEXT only */
        case '\r':
            if (i + 1 < n && s[i + 1] == '\n') i++;
            qr_buf_puts(b, mode == ESC_TEXT ? "<br>" : "\n");
            break;
        default:
            qr_buf_append(b, fffd, 3);
            break; /* other C0 controls, DEL */
        }
        i++;
        start = i;
    }
    qr_buf_append(b, (const char *)s + start, i - start);
}

static void esc(hw *w, const char *str, size_t n, enum esc_mode mode)
{
    esc_buf(&w->b, str, n, mode);
}

void qr_html_esc_attr(qr_buf *b, const char *s, size_t n)
{
    esc_buf(b, s, n, ESC_ATTR);
}

static void esc_str(hw *w, const char *s, enum esc_mode mode)
{
    if (s) esc(w, s, strlen(s), mode);
}

/* ---- numbers (locale-free: integers only through printf) ------------------ */

/* A non-negative value with two decimals, trailing zeros dropped: "75", "33.33". */
static void put_fixed2(hw *w, double v)
{
    if (!(v > 0)) v = 0;
    if (v > 1e12) v = 1e12;
    long long c = (long long)(v * 100.0 + 0.5);
    long long ip = c / 100, fp = c % 100;
    if (fp == 0)
        qr_buf_printf(&w->b, "%lld", ip);
    else if (fp % 10 == 0)
        qr_buf_printf(&w->b, "%lld.%lld", ip, fp / 10);
    else
        qr_buf_printf(&w->b, "%lld.%02lld", ip, fp);
}

/* ---- direction ---------------------------------------------------------------- */

/* ` dir="..."` when an element's direction differs from the one it inherits
 * (neutral text inherits). Returns the element's effective direction. */
static int put_dir(hw *w, qr_dir d, int inherited_rtl)
{
    if (d == QR_DIR_NEUTRAL) return inherited_rtl;
    int rtl = d == QR_DIR_RTL;
    if (rtl != inherited_rtl) puts_(w, rtl ? " dir=\"rtl\"" : " dir=\"ltr\"");
    return rtl;
}

/* ---- text runs ---------------------------------------------------------------- */

/* The lang a segment's <span> needs: CJK and right-to-left text whose
 * language is not the page's (fonts/ names it: "ja", "zh-CN", "ar",
 * "fa"...), so a browser picks Japanese glyph forms for Japanese Han. */
static const char *seg_lang(const hw *w, const qr_seg *g)
{
    return g->lang && (g->slot == QR_SLOT_EAST_ASIAN || g->rtl) && strcmp(g->lang, w->lang) != 0
               ? g->lang
               : NULL;
}

/* The segments g[0..n) of one run; neighbours of one language share a
 * <span lang>. A tab stays a tab; a line break is <br>. */
static void put_run_segs(hw *w, const qr_seg *g, size_t n)
{
    const char *open = NULL; /* the lang of the open <span> */
    for (size_t i = 0; i < n; i++) {
        const char *want = seg_lang(w, &g[i]);
        if (open && (!want || strcmp(open, want) != 0)) {
            puts_(w, "</span>");
            open = NULL;
        }
        if (want && !open) {
            puts_(w, "<span lang=\"");
            esc_str(w, want, ESC_ATTR);
            puts_(w, "\">");
            open = want;
        }
        if (g[i].kind == QR_SEG_BREAK)
            puts_(w, "<br>");
        else
            esc(w, g[i].text, g[i].len, ESC_TEXT);
    }
    if (open) puts_(w, "</span>");
}

/* A text's segments and base direction (text/), NULL out of memory. They
 * live until the next text. */
static const qr_segs *segments(hw *w, const qr_text *t)
{
    const qr_segs *sg;
    if (qr_text_segments(&w->text, t, &sg) == QR_OK) return sg;
    w->b.oom = 1;
    return NULL;
}

static qr_dir segs_dir(const qr_segs *sg)
{
    return sg ? sg->dir : QR_DIR_NEUTRAL;
}

/* A text from the text layer: per run its link and flags, then its segments. */
static void put_segs(hw *w, const qr_segs *sg)
{
    for (size_t i = 0, next; sg && i < sg->n; i = next) {
        const qr_seg *r = &sg->items[i];
        for (next = i + 1; next < sg->n && sg->items[next].run == r->run; next++)
            ;
        if (r->note) {
            /* a footnote reference: the note is an endnote with a link back */
            if (w->notes && r->note_no >= 1 && r->note_no <= w->n_notes)
                w->notes[r->note_no - 1] = r->note;
            qr_buf_printf(&w->b,
                          "<sup class=\"fnref\"><a href=\"#fn-%u\" id=\"fnref-%u\" "
                          "role=\"doc-noteref\">%u</a></sup>",
                          r->note_no, r->note_no, r->note_no);
            continue;
        }
        if (r->link) {
            puts_(w, "<a href=\"");
            esc_str(w, r->link, ESC_ATTR);
            puts_(w, "\" rel=\"noopener noreferrer\">");
        } else if (r->anchor) {
            puts_(w, "<a href=\"#");
            esc_str(w, r->anchor, ESC_ATTR);
            puts_(w, "\">");
        }
        if (r->color && !r->link && !r->anchor) {
            char hex[7];
            qr_style_hex(r->color & 0xFFFFFF, hex);
            qr_buf_printf(&w->b, "<span style=\"color:#%s\">", hex);
        }
        if (r->highlight) {
            char hex[7];
            qr_style_hex(r->highlight & 0xFFFFFF, hex);
            qr_buf_printf(&w->b, "<mark style=\"background:#%s\">", hex);
        }
        if (r->sup) puts_(w, "<sup>");
        if (r->sub) puts_(w, "<sub>");
        if (r->bold) puts_(w, "<strong>");
        if (r->italic) puts_(w, "<em>");
        if (r->underline) puts_(w, "<u>");
        if (r->strike) puts_(w, "<s>");
        if (r->code) puts_(w, "<code>");
        put_run_segs(w, r, next - i);
        if (r->code) puts_(w, "</code>");
        if (r->strike) puts_(w, "</s>");
        if (r->underline) puts_(w, "</u>");
        if (r->italic) puts_(w, "</em>");
        if (r->bold) puts_(w, "</strong>");
        if (r->sub) puts_(w, "</sub>");
        if (r->sup) puts_(w, "</sup>");
        if (r->highlight) puts_(w, "</mark>");
        if (r->color && !r->link && !r->anchor) puts_(w, "</span>");
        if (r->link || r->anchor) puts_(w, "</a>");
    }
}

/* ---- blocks ------------------------------------------------------------------- */

/* A caption's text (its label first, bold). */
static void put_caption_text(hw *w, const qr_block *b)
{
    put_segs(w, segments(w, &b->caption));
}

/* ` id="..."` of a block that has one. */
static void put_id(hw *w, const qr_block *b)
{
    if (!b->id) return;
    puts_(w, " id=\"");
    esc_str(w, b->id, ESC_ATTR);
    putn(w, "\"", 1);
}

static void put_heading(hw *w, const qr_block *b)
{
    int level = b->u.heading.level;
    if (level < 1) level = 1;
    int h = level + 1 > 6 ? 6 : level + 1;
    char open[4] = {'<', 'h', (char)('0' + h), '\0'};
    char close[7] = {'<', '/', 'h', (char)('0' + h), '>', '\n', '\0'};
    puts_(w, open);
    if (!b->id && w->has_toc) qr_buf_printf(&w->b, " id=\"h-%zu\"", (size_t)(b - w->doc->blocks));
    put_id(w, b);
    const qr_segs *sg = segments(w, &b->u.heading.text);
    put_dir(w, segs_dir(sg), 0);
    putn(w, ">", 1);
    put_segs(w, sg);
    puts_(w, close);
}

static void put_paragraph(hw *w, const qr_block *b)
{
    puts_(w, "<p");
    put_id(w, b);
    const qr_segs *sg = segments(w, &b->u.paragraph.text);
    put_dir(w, segs_dir(sg), 0);
    putn(w, ">", 1);
    put_segs(w, sg);
    puts_(w, "</p>\n");
}

/* The direction of a list: its first item with a strong direction. */
static qr_dir items_dir(const qr_item *items, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        qr_dir d = qr_fonts_text_direction(&items[i].text);
        if (d != QR_DIR_NEUTRAL) return d;
    }
    return QR_DIR_NEUTRAL;
}

/* A list; start: an ordered list's first number (0 or 1: the default). A
 * task item is a disabled checkbox in place of its bullet. */
static void put_list(hw *w, int ordered, const qr_item *items, size_t n, int inherited_rtl,
                     int depth, unsigned start)
{
    puts_(w, ordered ? "<ol" : "<ul");
    if (ordered && start > 1) qr_buf_printf(&w->b, " start=\"%u\"", start);
    int rtl = put_dir(w, items_dir(items, n), inherited_rtl);
    putn(w, ">", 1);
    for (size_t i = 0; i < n; i++) {
        const qr_item *it = &items[i];
        puts_(w, "<li");
        if (it->task) puts_(w, " class=\"task\"");
        const qr_segs *sg = segments(w, &it->text);
        int item_rtl = put_dir(w, segs_dir(sg), rtl);
        putn(w, ">", 1);
        if (it->task)
            puts_(w, it->task == QR_TASK_DONE ? "<input type=\"checkbox\" disabled checked> "
                                              : "<input type=\"checkbox\" disabled> ");
        put_segs(w, sg);
        /* The compiler limits nesting to 9 levels; the depth guard only
         * keeps a malformed tree from recursing without end. */
        if (it->n_items && depth < 64)
            put_list(w, ordered, it->items, it->n_items, item_rtl, depth + 1, 1);
        puts_(w, "</li>");
    }
    puts_(w, ordered ? "</ol>" : "</ul>");
}

static qr_dir cells_dir(const qr_tcell *cells, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (cells[i].kind != QR_TCELL_TEXT) continue;
        qr_dir d = qr_fonts_text_direction(&cells[i].text);
        if (d != QR_DIR_NEUTRAL) return d;
    }
    return QR_DIR_NEUTRAL;
}

static void put_cell(hw *w, const qr_table *t, size_t col, const qr_tcell *c, int th, int table_rtl)
{
    if (qr_tcell_covered(c)) return; /* covered by a span */
    puts_(w, th ? "<th" : "<td");
    const qr_segs *sg = c ? segments(w, &c->text) : NULL;
    qr_align al = qr_tcell_align(c, t->col_align, col);
    if (c && c->kind == QR_TCELL_NUMBER && al == QR_ALIGN_RIGHT) {
        puts_(w, " class=\"num\"");
    } else if (c && c->kind == QR_TCELL_TEXT) {
        put_dir(w, segs_dir(sg), table_rtl);
    }
    if (c && c->colspan > 1) qr_buf_printf(&w->b, " colspan=\"%u\"", c->colspan);
    if (qr_tcell_rows(c) > 1) qr_buf_printf(&w->b, " rowspan=\"%u\"", qr_tcell_rows(c));
    int styled =
        (al != QR_ALIGN_AUTO && !(c && c->kind == QR_TCELL_NUMBER && al == QR_ALIGN_RIGHT)) ||
        (c && (c->fill || (c->bold && !th)));
    if (styled) {
        puts_(w, " style=\"");
        if (al == QR_ALIGN_LEFT) puts_(w, "text-align:left;");
        if (al == QR_ALIGN_CENTER) puts_(w, "text-align:center;");
        if (al == QR_ALIGN_RIGHT) puts_(w, "text-align:right;");
        if (c && c->fill) {
            char hex[7];
            qr_style_hex(c->fill & 0xFFFFFF, hex);
            qr_buf_printf(&w->b, "background:#%s;", hex);
        }
        if (c && c->bold && !th) puts_(w, "font-weight:bold;");
        putn(w, "\"", 1);
    }
    putn(w, ">", 1);
    put_segs(w, sg);
    puts_(w, th ? "</th>" : "</td>");
}

static void put_table(hw *w, const qr_table *t)
{
    /* The table's direction (column order) follows its first strong cell. */
    qr_dir d = t->headers ? cells_dir(t->headers, t->n_headers) : QR_DIR_NEUTRAL;
    for (size_t r = 0; d == QR_DIR_NEUTRAL && r < t->n_rows; r++)
        d = cells_dir(t->rows[r], t->n_cols);
    puts_(w, "<table");
    if (t->widths) puts_(w, " class=\"fixed\"");
    int rtl = put_dir(w, d, 0);
    puts_(w, ">\n");
    if (w->caption) {
        puts_(w, "<caption>");
        put_caption_text(w, w->caption);
        puts_(w, "</caption>\n");
    }
    if (t->widths) {
        puts_(w, "<colgroup>");
        for (size_t c = 0; c < t->n_cols; c++) {
            puts_(w, "<col style=\"width:");
            put_fixed2(w, t->widths[c] * 100.0);
            puts_(w, "%\">");
        }
        puts_(w, "</colgroup>\n");
    }
    size_t hr = t->body_header_rows < t->n_rows ? t->body_header_rows : t->n_rows;
    if (t->headers || hr) {
        /* the header rows: the headers, then the rows "header_rows" adds */
        puts_(w, "<thead>");
        if (t->headers) {
            puts_(w, "<tr>");
            for (size_t c = 0; c < t->n_cols; c++)
                put_cell(w, t, c, c < t->n_headers ? &t->headers[c] : NULL, 1, rtl);
            puts_(w, "</tr>");
        }
        for (size_t r = 0; r < hr; r++) {
            puts_(w, "<tr>");
            for (size_t c = 0; c < t->n_cols; c++)
                put_cell(w, t, c, &t->rows[r][c], 1, rtl);
            puts_(w, "</tr>");
        }
        puts_(w, "</thead>\n");
    }
    puts_(w, "<tbody>\n");
    for (size_t r = hr; r < t->n_rows; r++) {
        puts_(w, "<tr>");
        for (size_t c = 0; c < t->n_cols; c++)
            put_cell(w, t, c, &t->rows[r][c], 0, rtl);
        puts_(w, "</tr>\n");
        maybe_flush(w);
    }
    puts_(w, "</tbody></table>\n");
}

static void put_code(hw *w, const qr_block *b)
{
    puts_(w, "<pre><code");
    if (b->u.code.lang && *b->u.code.lang) {
        puts_(w, " class=\"language-");
        esc_str(w, b->u.code.lang, ESC_ATTR);
        putn(w, "\"", 1);
    }
    putn(w, ">", 1);
    esc(w, qr_plain(&b->u.code.text), qr_plain_len(&b->u.code.text), ESC_PRE);
    puts_(w, "</code></pre>\n");
}

/* Base64 (RFC 4648, no line breaks), flushing as it goes. */
static void put_base64(hw *w, const unsigned char *d, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t i = 0;
    while (i < n) {
        size_t chunk = n - i < 3 * 16384 ? n - i : 3 * 16384;
        size_t full = chunk / 3 * 3;
        char *p = qr_buf_reserve(&w->b, chunk / 3 * 4 + 4);
        if (!p) return;
        char *o = p;
        for (size_t k = 0; k < full; k += 3) {
            uint32_t v = (uint32_t)d[i + k] << 16 | (uint32_t)d[i + k + 1] << 8 | d[i + k + 2];
            *o++ = tab[v >> 18];
            *o++ = tab[(v >> 12) & 63];
            *o++ = tab[(v >> 6) & 63];
            *o++ = tab[v & 63];
        }
        size_t rest = chunk - full;
        if (rest) {
            uint32_t v = (uint32_t)d[i + full] << 16;
            if (rest == 2) v |= (uint32_t)d[i + full + 1] << 8;
            *o++ = tab[v >> 18];
            *o++ = tab[(v >> 12) & 63];
            *o++ = rest == 2 ? tab[(v >> 6) & 63] : '=';
            *o++ = '=';
        }
        w->b.len += (size_t)(o - p);
        w->b.data[w->b.len] = '\0';
        i += chunk;
        maybe_flush(w);
    }
}

/* CSS pixels of an image side: pixels at its own resolution, seen at 96 dpi. */
static unsigned long css_px(uint32_t px, double dpi)
{
    if (!(dpi > 0)) dpi = 96;
    double v = (double)px * 96.0 / dpi + 0.5;
    if (v < 1) v = 1;
    if (v > 1e7) v = 1e7;
    return (unsigned long)v;
}

static void put_image(hw *w, const qr_image *im, int in_figure)
{
    puts_(w, in_figure ? "<img src=\"data:" : "<figure><img src=\"data:");
    puts_(w, im->type == QR_IMAGE_PNG ? "image/png" : "image/jpeg");
    puts_(w, ";base64,");
    put_base64(w, im->data, im->size);
    puts_(w, "\" alt=\"");
    esc_str(w, qr_plain(&im->alt), ESC_ATTR);
    putn(w, "\"", 1);
    if (im->width_px && im->height_px) {
        /* its "width" (layout/style.h), in css pixels, the height to match */
        unsigned long nw = css_px(im->width_px, im->dpi_x), nh = css_px(im->height_px, im->dpi_y);
        if (im->width_pt > 0) {
            double k = qr_look_image_width(im, (double)nw, 1e7, 96.0 / 72.0) / (double)nw;
            nh = (unsigned long)((double)nh * k + 0.5);
            nw = (unsigned long)((double)nw * k + 0.5);
            if (nw < 1) nw = 1;
            if (nh < 1) nh = 1;
        }
        qr_buf_printf(&w->b, " width=\"%lu\" height=\"%lu\"", nw, nh);
    }
    if (im->width_pct > 0 || im->align == QR_ALIGN_CENTER || im->align == QR_ALIGN_RIGHT) {
        puts_(w, " style=\"");
        if (im->width_pct > 0) {
            puts_(w, "width:");
            put_fixed2(w, im->width_pct);
            puts_(w, "%;");
        }
        if (im->align == QR_ALIGN_CENTER) puts_(w, "display:block;margin:0 auto;");
        if (im->align == QR_ALIGN_RIGHT) puts_(w, "display:block;margin-left:auto;");
        putn(w, "\"", 1);
    }
    puts_(w, in_figure ? ">\n" : "></figure>\n");
}

static void put_quote(hw *w, const qr_block *b)
{
    puts_(w, "<blockquote");
    put_id(w, b);
    putn(w, ">", 1);
    const qr_segs *sg = segments(w, &b->u.quote.text);
    puts_(w, "<p");
    put_dir(w, segs_dir(sg), 0);
    putn(w, ">", 1);
    put_segs(w, sg);
    puts_(w, "</p>");
    if (b->u.quote.attribution.n) {
        puts_(w, "<footer>\xE2\x80\x94 ");
        put_segs(w, segments(w, &b->u.quote.attribution));
        puts_(w, "</footer>");
    }
    puts_(w, "</blockquote>\n");
}

static void put_callout(hw *w, const qr_block *b)
{
    static const char *const tones[] = {"note", "tip", "warning", "important"};
    qr_tone tone = b->u.callout.tone;
    char ink[7], fill[7];
    qr_style_hex(qr_tone_ink(tone), ink);
    qr_style_hex(qr_tone_fill(tone, w->style.background), fill);
    qr_buf_printf(&w->b,
                  "<aside class=\"callout callout-%s\" role=\"note\" "
                  "style=\"border-color:#%s;background:#%s\"",
                  tones[tone], ink, fill);
    put_id(w, b);
    qr_buf_printf(&w->b, "><p class=\"callout-title\" style=\"color:#%s\">", ink);
    put_segs(w, segments(w, &b->u.callout.title));
    puts_(w, "</p><p");
    const qr_segs *sg = segments(w, &b->u.callout.text);
    put_dir(w, segs_dir(sg), 0);
    putn(w, ">", 1);
    put_segs(w, sg);
    puts_(w, "</p></aside>\n");
}

/* A table of contents: links to the headings (their ids, or h-N). */
static void put_toc(hw *w, const qr_block *b)
{
    const qr_doc *d = w->doc;
    puts_(w, "<nav class=\"toc\"");
    put_id(w, b);
    puts_(w, "><p class=\"toc-title\">");
    put_segs(w, segments(w, &b->u.toc.title));
    puts_(w, "</p>\n<ul>\n");
    int top = 6; /* the shallowest level listed is toc-1 */
    for (size_t i = 0; i < d->n_blocks; i++)
        if (d->blocks[i].type == QR_BLOCK_HEADING && d->blocks[i].u.heading.level < top)
            top = d->blocks[i].u.heading.level;
    for (size_t i = 0; i < d->n_blocks; i++) {
        const qr_block *h = &d->blocks[i];
        if (h->type != QR_BLOCK_HEADING || h->u.heading.level > b->u.toc.levels) continue;
        qr_buf_printf(&w->b, "<li class=\"toc-%d\"><a href=\"#", h->u.heading.level - top + 1);
        if (h->id)
            esc_str(w, h->id, ESC_ATTR);
        else
            qr_buf_printf(&w->b, "h-%zu", i);
        puts_(w, "\">");
        /* the heading's text without its footnote marks and links */
        const qr_text *t = &h->u.heading.text;
        for (size_t r = 0; r < t->n; r++)
            if (!t->runs[r].note) esc(w, t->runs[r].text, t->runs[r].len, ESC_TEXT);
        puts_(w, "</a></li>\n");
    }
    puts_(w, "</ul></nav>\n");
}

/* The footnotes, at the end: an ordered list, each note linking back. */
static void put_notes(hw *w)
{
    if (!w->n_notes || !w->notes) return;
    puts_(w, "<section class=\"footnotes\" role=\"doc-endnotes\"><hr>\n<ol>\n");
    for (size_t i = 0; i < w->n_notes; i++) {
        if (!w->notes[i]) continue;
        qr_buf_printf(&w->b, "<li id=\"fn-%zu\">", i + 1);
        put_segs(w, segments(w, w->notes[i]));
        qr_buf_printf(&w->b,
                      " <a href=\"#fnref-%zu\" class=\"fnback\" role=\"doc-backlink\">"
                      "\xE2\x86\xA9\xEF\xB8\x8E</a></li>\n",
                      i + 1);
    }
    puts_(w, "</ol></section>\n");
}

static void put_block(hw *w, const qr_block *b)
{
    /* captioned blocks and blocks whose element takes no id of ours */
    int fig = b->caption.n && b->type != QR_BLOCK_TABLE;
    int wrap = !fig && b->id &&
               (b->type == QR_BLOCK_LIST || b->type == QR_BLOCK_CODE || b->type == QR_BLOCK_IMAGE ||
                b->type == QR_BLOCK_CHART || b->type == QR_BLOCK_PAGE_BREAK ||
                b->type == QR_BLOCK_TABLE || b->type == QR_BLOCK_RULE);
    if (fig) {
        puts_(w, "<figure");
        put_id(w, b);
        puts_(w, ">\n");
    } else if (wrap) {
        puts_(w, "<div");
        put_id(w, b);
        puts_(w, ">\n");
    }
    w->caption = b->type == QR_BLOCK_TABLE && b->caption.n ? b : NULL;
    switch (b->type) {
    case QR_BLOCK_HEADING:
        put_heading(w, b);
        break;
    case QR_BLOCK_PARAGRAPH:
        put_paragraph(w, b);
        break;
    case QR_BLOCK_LIST:
        put_list(w, b->u.list.ordered, b->u.list.items, b->u.list.n_items, 0, 1, b->u.list.start);
        putn(w, "\n", 1);
        break;
    case QR_BLOCK_TABLE:
        if (!qr_look_table_skipped(&b->u.table)) put_table(w, &b->u.table);
        break;
    case QR_BLOCK_CODE:
        put_code(w, b);
        break;
    case QR_BLOCK_IMAGE:
        put_image(w, &b->u.image, fig);
        break;
    case QR_BLOCK_PAGE_BREAK:
        puts_(w, "<div class=\"page-break\"></div>\n");
        break;
    case QR_BLOCK_CHART:
        /* never dropped silently: a chart that cannot be laid out fails the page */
        if (qr_html_chart(&w->b, &b->u.chart, &w->style) != 0 && !w->b.oom)
            w->chart_failed = b->u.chart.path ? b->u.chart.path : "";
        break;
    case QR_BLOCK_QUOTE:
        put_quote(w, b);
        break;
    case QR_BLOCK_CALLOUT:
        put_callout(w, b);
        break;
    case QR_BLOCK_RULE:
        puts_(w, "<hr>\n");
        break;
    case QR_BLOCK_TOC:
        put_toc(w, b);
        break;
    }
    w->caption = NULL;
    if (fig) {
        puts_(w, "<figcaption>");
        put_caption_text(w, b);
        puts_(w, "</figcaption></figure>\n");
    } else if (wrap) {
        puts_(w, "</div>\n");
    }
}

/* ---- the page ----------------------------------------------------------------- */

/* The families the PDF backend uses (fonts/), in fallback order; the CJK
 * flavour that matches the document's language goes first. */
#define FONTS_HEAD                                                                                 \
    "\"DejaVu Sans\",\"Noto Sans\",\"Noto Sans Arabic\",\"Noto Sans Hebrew\",\"Noto Sans "         \
    "Devanagari\","
#define FONTS_TAIL "system-ui,sans-serif"

static const char css[] =
    "body{font-family:" FONTS_HEAD "\"Noto Sans CJK SC\",\"Noto Sans CJK JP\",\"Noto Sans CJK "
    "KR\",\"Noto Sans CJK TC\"," FONTS_TAIL
    ";line-height:1.6;color:#1a1a1a;max-width:800px;margin:0 auto;padding:24px;"
    "overflow-wrap:anywhere}"
    "body:lang(ja){font-family:" FONTS_HEAD "\"Noto Sans CJK JP\",\"Noto Sans CJK SC\",\"Noto Sans "
    "CJK KR\",\"Noto Sans CJK TC\"," FONTS_TAIL "}"
    "body:lang(ko){font-family:" FONTS_HEAD "\"Noto Sans CJK KR\",\"Noto Sans CJK SC\",\"Noto Sans "
    "CJK JP\",\"Noto Sans CJK TC\"," FONTS_TAIL "}"
    "body:lang(zh-Hant),body:lang(zh-TW),body:lang(zh-HK),body:lang(zh-MO){font-family:" FONTS_HEAD
    "\"Noto Sans CJK TC\",\"Noto Sans CJK SC\",\"Noto Sans CJK JP\",\"Noto Sans CJK "
    "KR\"," FONTS_TAIL "}"
    "h1,h2,h3,h4,h5,h6{line-height:1.25}"
    /* only the title is an h1; its alignment, sizes, margins: put_theme_css */
    "table{border-collapse:collapse;width:100%;margin:12px 0}"
    "table.fixed{table-layout:fixed}"
    "th,td{border:1px solid #d0d0d0;padding:6px "
    "10px;text-align:start;vertical-align:top;overflow-wrap:anywhere}"
    /* an empty cell holds a line, as in the PDF and the docx: an empty
     * row keeps its height instead of collapsing to its padding */
    "th:empty::after,td:empty::after{content:\"\\00a0\"}"
    "th,pre{background:#f5f5f5}"
    "th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}"
    "pre{padding:12px;border-radius:6px;overflow-x:auto;white-space:pre;tab-size:8;direction:ltr;"
    "text-align:left}"
    "code{font-family:\"DejaVu Sans Mono\",ui-monospace,Menlo,Consolas,monospace}"
    ":not(pre)>code{background:#f5f5f5;padding:0 .2em;border-radius:3px}"
    "figure{margin:12px 0}"
    "img{max-width:100%;height:auto}"
    ".page-break{border-top:1px dashed #d0d0d0;margin:24px 0}"
    "@media print{body{max-width:none;margin:0;padding:0}"
    "pre{white-space:pre-wrap}"
    "tr,img{break-inside:avoid}"
    "h1,h2,h3,h4,h5,h6{break-after:avoid}"
    ".page-break{border:0;margin:0;break-after:page}}";

/* The rules of issue 32's blocks, written only into pages that use them. */
static const char css_more[] =
    "blockquote{margin:12px 0;padding:0 0 0 14px;border-left:3px solid #d0d0d0;font-style:italic}"
    "blockquote footer{font-style:normal;font-size:.9em}"
    ".callout{margin:12px 0;padding:8px 12px;border-left:4px solid}"
    ".callout p{margin:0}.callout-title{font-weight:bold}"
    "hr{border:0;border-top:1px solid #d0d0d0;margin:12px 0}"
    "caption,figcaption{text-align:start;font-size:.9em;margin:4px 0}"
    ".toc ul{list-style:none;padding:0}.toc-title{font-weight:bold;font-size:1.2em}"
    ".toc-2{margin-left:1.5em}.toc-3{margin-left:3em}.toc-4{margin-left:4.5em}"
    ".toc-5{margin-left:6em}.toc-6{margin-left:7.5em}"
    ".footnotes{font-size:.9em}";

/* The theme's part of the CSS (layout/style.h), as the PDF and docx read it,
 * after the DocsGPT baseline above, which it overrides rule by rule:
 * text, background, title and heading colours, the type scale in em of the
 * body size, the title's alignment, margins of the title, headings and
 * paragraphs, list indents, link colour, code and table header grounds,
 * cell padding, table borders and the rule under the title. */
static void put_color(hw *w, const char *before, uint32_t rgb)
{
    char hex[7];
    qr_style_hex(rgb, hex);
    puts_(w, before);
    puts_(w, "#");
    puts_(w, hex);
}

/* " NNpt" */
static void put_pt(hw *w, const char *before, double pt)
{
    puts_(w, before);
    put_fixed2(w, pt);
    puts_(w, "pt");
}

static void put_theme_css(hw *w, const qr_style *st)
{
    if (st->body_face) {
        /* the theme's face for Latin text first; each script's face after it */
        puts_(w, "body{font-family:\"");
        puts_(w, st->body_face);
        puts_(w, "\"," FONTS_HEAD FONTS_TAIL "}");
    }
    put_color(w, "body{color:", st->text);
    put_color(w, ";background:", st->background);
    put_color(w, "}h1{color:", st->title);
    puts_(w, ";font-size:");
    put_fixed2(w, st->title_pt / st->body_pt);
    puts_(w, "em;text-align:");
    puts_(w, st->title_align == QR_STYLE_CENTER ? "center" : "left");
    put_pt(w, ";margin:0 0 ", st->title_after);
    if (st->title_rule) {
        put_color(w, ";border-bottom:", st->accent);
        put_pt(w, " solid ", st->title_rule_pt);
        puts_(w, ";padding-bottom:4px");
    }
    puts_(w, "}");
    /* heading level n is h(n+1), capped at h6 */
    for (int h = 2; h <= 6; h++) {
        char sel[8] = {'h', (char)('0' + h), '{', 0};
        puts_(w, sel);
        put_color(w, "color:", st->heading);
        puts_(w, ";font-size:");
        put_fixed2(w, st->heading_pt[h - 2] / st->body_pt);
        put_pt(w, "em;margin:", st->heading_before[h - 2]);
        put_pt(w, " 0 ", st->heading_after[h - 2]);
        puts_(w, "}");
    }
    put_pt(w, "p{margin:0 0 ", st->para_after);
    put_pt(w, "}ul,ol{padding-inline-start:", st->list_indent);
    put_color(w, "}a{color:", st->link);
    put_color(w, "}th{background:", st->header_fill);
    put_color(w, "}pre,:not(pre)>code{background:", st->code_fill);
    put_pt(w, "}pre{padding:", st->code_pad);
    put_color(w, "}th,td{border-color:", st->grid);
    put_pt(w, ";border-width:", st->grid_pt);
    put_pt(w, ";padding:", st->cell_pad);
    put_pt(w, ";font-size:", st->table_pt);
    put_color(w, "}.page-break{border-color:", st->grid);
    puts_(w, "}");
}

/* List labels per nesting depth from style.h ("ol ol{list-style-type:
 * lower-alpha}" ...): browsers number every depth 1. 2. 3. and keep the
 * square bullet below depth 3; the PDF and the docx cycle. */
static int has_task(const qr_item *items, size_t n, int depth)
{
    for (size_t k = 0; k < n; k++)
        if (items[k].task || (depth < 64 && has_task(items[k].items, items[k].n_items, depth + 1)))
            return 1;
    return 0;
}

static void put_list_css(hw *w, const qr_doc *doc)
{
    int nested = 0, tasks = 0;
    for (size_t i = 0; i < doc->n_blocks; i++) {
        const qr_block *b = &doc->blocks[i];
        if (b->type != QR_BLOCK_LIST) continue;
        for (size_t k = 0; k < b->u.list.n_items; k++)
            nested |= b->u.list.items[k].n_items > 0;
        tasks |= has_task(b->u.list.items, b->u.list.n_items, 0);
    }
    if (tasks) puts_(w, "li.task{list-style-type:none}"); /* the checkbox is the marker */
    if (!nested) return; /* one level: the browsers' 1. 2. 3. and discs are the same */
    static const char *const ol_types[] = {"decimal", "lower-alpha", "lower-roman"};
    static const char *const ul_types[] = {"disc", "circle", "square"};
    for (int ordered = 1; ordered >= 0; ordered--)
        for (int t = 0; t < 3; t++) {
            /* depths 1..8 of this label format, one rule */
            int any = 0;
            for (int d = 1; d < 9; d++) {
                int fmt = ordered ? (int)qr_look_label_format(1, d) - QR_LABEL_DECIMAL : d % 3;
                if (fmt != t || (!ordered && d < 3)) continue; /* ul ul, ul ul ul: the default */
                if (any) putn(w, ",", 1);
                any = 1;
                for (int k = 0; k <= d; k++)
                    puts_(w, k ? (ordered ? " ol" : " ul") : (ordered ? "ol" : "ul"));
            }
            if (!any) continue;
            puts_(w, "{list-style-type:");
            puts_(w, ordered ? ol_types[t] : ul_types[t]);
            puts_(w, "}");
        }
}

/* A piece of a header or footer template as CSS content: a string
 * (quotes, backslashes and control characters escaped, '<' too so no
 * "</style>" can end the sheet) or a counter. */
static int css_piece(void *ud, qr_furn_piece kind, const char *s, size_t n)
{
    hw *w = ud;
    if (kind != QR_FURN_TEXT) {
        puts_(w, kind == QR_FURN_PAGE ? " counter(page)" : " counter(pages)");
        return 0;
    }
    puts_(w, " \"");
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        char esc[8];
        if (ch == '"' || ch == '\\' || ch == '<' || ch < 0x20 || ch == 0x7F) {
            snprintf(esc, sizeof esc, "\\%X ", ch);
            puts_(w, esc);
        } else {
            putn(w, s + i, 1);
        }
    }
    puts_(w, "\"");
    return 0;
}

/* Print CSS for the spec's page header and footer (layout/furniture.h):
 * @page margin boxes with the page counters, in the footer's size and
 * colour. Only when the spec sets one (the house footer alone stays out). */
static void put_furniture(hw *w, const qr_doc *doc)
{
    if (!doc->page.header && !doc->page.footer) return;
    static const char *const box[2] = {"@top-center{content:", "@bottom-center{content:"};
    char hex[7];
    qr_style_hex(w->style.footer, hex);
    qr_buf tb = {0};
    puts_(w, ";"); /* ends the margin declaration */
    for (int which = QR_FURN_HEADER; which <= QR_FURN_FOOTER; which++) {
        const char *tpl = qr_furniture_template(doc, &w->style, which, &tb);
        if (!tpl) continue;
        puts_(w, box[which]);
        qr_furniture_pieces(doc, tpl, w->epoch, css_piece, w);
        puts_(w, ";font-size:");
        put_fixed2(w, w->style.footer_pt);
        puts_(w, "pt;color:#");
        puts_(w, hex);
        puts_(w, "}");
    }
    qr_buf_free(&tb);
}

static void put_head(hw *w, const qr_doc *doc)
{
    puts_(w, "<!doctype html>\n<html lang=\"");
    esc_str(w, doc->lang && *doc->lang ? doc->lang : "en", ESC_ATTR);
    puts_(w, "\">\n<head>\n<meta charset=\"utf-8\">\n"
             "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n<title>");
    esc_str(w, doc->title.n ? qr_plain(&doc->title) : "Report", ESC_ATTR);
    puts_(w, "</title>\n");
    /* "properties" */
    const char *meta[4][2] = {{"author", doc->author},
                              {"description", doc->subject},
                              {"keywords", doc->keywords},
                              {"dcterms.date", doc->prop_date}};
    for (int k = 0; k < 4; k++) {
        if (!meta[k][1]) continue;
        puts_(w, "<meta name=\"");
        puts_(w, meta[k][0]);
        puts_(w, "\" content=\"");
        esc_str(w, meta[k][1], ESC_ATTR);
        puts_(w, "\">\n");
    }
    puts_(w, "<style>");
    puts_(w, css);
    int more = doc->n_notes > 0;
    for (size_t i = 0; i < doc->n_blocks && !more; i++)
        more = doc->blocks[i].type >= QR_BLOCK_QUOTE || doc->blocks[i].caption.n;
    if (more) puts_(w, css_more);
    w->style = qr_style_of(doc);
    put_theme_css(w, &w->style);
    put_list_css(w, doc);
    if (doc->page.width > 0 && doc->page.height > 0) {
        /* The page the docx and pdf backends use, for printing. */
        puts_(w, "@page{size:");
        put_fixed2(w, doc->page.width);
        puts_(w, "pt ");
        put_fixed2(w, doc->page.height);
        puts_(w, "pt;margin:");
        put_fixed2(w, doc->page.margin_top);
        puts_(w, "pt ");
        put_fixed2(w, doc->page.margin_right);
        puts_(w, "pt ");
        put_fixed2(w, doc->page.margin_bottom);
        puts_(w, "pt ");
        put_fixed2(w, doc->page.margin_left);
        puts_(w, "pt");
        put_furniture(w, doc);
        puts_(w, "}");
        if (doc->page.no_first && (doc->page.header || doc->page.footer))
            puts_(w, "@page:first{@top-center{content:none}@bottom-center{content:none}}");
    }
    puts_(w, "</style>\n</head>\n<body>\n");
}

static qr_status html_render(qr_render_ctx *ctx, qr_sink *out)
{
    const qr_doc *doc = ctx->doc;
    hw w = {{0},
            out,
            ctx->fonts ? ctx->fonts : qr_fonts_default(),
            {0},
            doc->lang && *doc->lang ? doc->lang : "en"};
    qr_text_ctx_init(&w.text, w.fonts, w.lang, NULL);
    w.text.segs.spans.cjk_lang = qr_fonts_doc_cjk_lang(doc);
    w.epoch = ctx->epoch;
    put_head(&w, doc);
    if (doc->title.n) {
        puts_(&w, "<h1");
        put_dir(&w, qr_fonts_text_direction(&doc->title), 0);
        putn(&w, ">", 1);
        esc(&w, qr_plain(&doc->title), qr_plain_len(&doc->title), ESC_TEXT);
        puts_(&w, "</h1>\n");
    }
    w.doc = doc;
    for (size_t i = 0; i < doc->n_blocks; i++)
        w.has_toc |= doc->blocks[i].type == QR_BLOCK_TOC;
    if (doc->n_notes) {
        w.notes = calloc(doc->n_notes, sizeof *w.notes);
        if (!w.notes) w.b.oom = 1;
        w.n_notes = doc->n_notes;
    }
    for (size_t i = 0; i < doc->n_blocks && out->status == QR_OK && !w.b.oom && !w.chart_failed;
         i++) {
        put_block(&w, &doc->blocks[i]);
        maybe_flush(&w);
    }
    put_notes(&w);
    puts_(&w, "</body>\n</html>\n");
    qr_status st = QR_OK;
    if (w.chart_failed) {
        st = qr_fail(QR_E_RENDER);
        qr_errlist_add(ctx->errors, st, w.chart_failed, "the chart could not be laid out",
                       "check its values");
    } else if (w.b.oom) {
        st = qr_fail(QR_E_NOMEM);
        qr_errlist_add(ctx->errors, st, "", "out of memory while writing the html page", NULL);
    } else {
        flush(&w);
        st = out->status;
    }
    qr_buf_free(&w.b);
    free(w.notes);
    qr_text_ctx_free(&w.text);
    ctx->pages = 0;
    return st;
}

const qr_backend qr_backend_html = {
    .name = "html",
    .format = QR_FORMAT_HTML,
    .render = html_render,
};
