/* paint.c: pass 2 of the PDF/PNG backend: draw one page's boxes on a cairo_t.
 *
 * The boxes were positioned by layout.c; painting only replays them, so a
 * PDF page and its PNG preview come from the same layout. On a PDF surface
 * it also writes the link annotations (cairo_tag_begin(CAIRO_TAG_LINK) with
 * the link's glyph rectangles; internal links to a page and position) and
 * the outline entries of the headings.
 * Numbers passed to cairo in tag attributes are formatted without the C
 * locale's help, so a caller's setlocale() cannot change the bytes.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cairo-pdf.h>

#include "furniture.h"
#include "pdf_int.h"

#define FOOTER_RGB (pt->c->style.footer)

static void set_rgb(cairo_t *cr, uint32_t rgb)
{
    cairo_set_source_rgb(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0,
                         (rgb & 0xFF) / 255.0);
}

/* A point value with two decimals, locale-free: "72.5" -> "72.50". */
static void put_num(qr_buf *b, double v)
{
    long long h = llround(v * 100);
    const char *sign = "";
    if (h < 0) {
        sign = "-";
        h = -h;
    }
    qr_buf_printf(b, "%s%lld.%02lld", sign, h / 100, h % 100);
}

/* cairo's attribute strings quote with ' and escape with \. */
static void put_quoted(qr_buf *b, const char *s)
{
    qr_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'' || *s == '\\') qr_buf_putc(b, '\\');
        qr_buf_putc(b, *s);
    }
    qr_buf_putc(b, '\'');
}

/* A URI as 7-bit ASCII without the characters cairo 1.16 writes unescaped
 * into the PDF string "/URI (...)": an unbalanced parenthesis or a backslash
 * there breaks the file. Everything outside RFC 3986's unreserved and
 * reserved characters (and '%') is percent-encoded; the link still points
 * where it did. */
static void put_uri(qr_buf *b, const char *u)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)u; *p; p++) {
        unsigned char ch = *p;
        int keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                   (ch >= '0' && ch <= '9') || (ch && strchr("-._~:/?#[]@!$&'*+,;=%", ch) != NULL);
        if (keep) {
            qr_buf_putc(b, (char)ch);
        } else {
            char e[3] = {'%', hex[ch >> 4], hex[ch & 15]};
            qr_buf_append(b, e, 3);
        }
    }
}

/* The link annotations of a text line: cairo tag attributes, one per link,
 * handed to emit. */
static void link_attrs(const pd_op *o, void (*emit)(void *, const char *), void *arg)
{
    const pd_text *t = o->text;
    const pd_line *ln = &t->lines[o->line];
    if (!ln->line) return; /* simple_text.c's: text.c leaves linked texts to pango */
    int base = (int)ln->base, ls = base + ln->line->start_index, le = ls + ln->line->length;
    double layout_x = o->x - ln->x, top = o->y - ln->ascent;
    for (size_t k = 0; k < t->n_links; k++) {
        const pd_link *lk = &t->links[k];
        int s = lk->start > ls ? lk->start : ls, e = lk->end < le ? lk->end : le;
        if (s >= e) continue;
        int *ranges = NULL, n = 0;
        pango_layout_line_get_x_ranges(ln->line, s - base, e - base, &ranges, &n);
        qr_buf b = {0};
        qr_buf_puts(&b, "rect=[");
        int any = 0;
        for (int i = 0; i < n; i++) {
            double x0 = layout_x + (double)ranges[2 * i] / PANGO_SCALE;
            double w = (double)(ranges[2 * i + 1] - ranges[2 * i]) / PANGO_SCALE;
            if (w <= 0) continue;
            if (any) qr_buf_putc(&b, ' ');
            put_num(&b, x0);
            qr_buf_putc(&b, ' ');
            put_num(&b, top);
            qr_buf_putc(&b, ' ');
            put_num(&b, w);
            qr_buf_putc(&b, ' ');
            put_num(&b, ln->height);
            any = 1;
        }
        g_free(ranges);
        if (lk->uri) {
            qr_buf_puts(&b, "] uri=");
            qr_buf uri = {0};
            put_uri(&uri, lk->uri);
            put_quoted(&b, uri.data ? uri.data : "");
            qr_buf_free(&uri);
        } else {
            /* an internal link: the target's page and place (layout.c) */
            if (!lk->page) any = 0;
            qr_buf_printf(&b, "] page=%zu pos=[", lk->page);
            put_num(&b, lk->x);
            qr_buf_putc(&b, ' ');
            put_num(&b, lk->y);
            qr_buf_putc(&b, ']');
        }
        if (any && !b.oom) emit(arg, b.data);
        qr_buf_free(&b);
    }
}

static void emit_tag(void *cr, const char *attrs)
{
    cairo_tag_begin(cr, CAIRO_TAG_LINK, attrs);
    cairo_tag_end(cr, CAIRO_TAG_LINK);
}

static void record_tag(void *out, const char *attrs)
{
    qr_pdf_rec_tag(out, attrs);
}

/* How a page is painted: with pango here (rd == NULL), or replaying what
 * the recording helper saw (rd), until a cut mark hands back to pango. */
/* A page's link annotations, one per target: the rectangles of every line
 * a link spans on the page are gathered under its attributes ("uri=..." or
 * "page=N pos=[..]") and written as one tag at the page's end, so a long
 * URI over 2,000 lines is written once per page, not once per line. */
typedef struct page_link {
    char *key; /* the attributes after the rectangles */
    size_t klen;
    uint64_t hash;
    qr_buf rects;
} page_link;

typedef struct painter {
    pd_ctx *c;
    pd_recread *rd;
    page_link *links;
    size_t n_links, cap_links;
    PangoRenderer *rec; /* records a line with language spans (show_line_spans), or NULL */
    pd_batch batch;     /* replayed glyph runs not drawn yet (replay.c) */
} painter;

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* One line's tag attributes "rect=[R] KEY": R joins KEY's rectangles. */
static void gather_tag(void *arg, const char *attrs)
{
    painter *pt = arg;
    const char *close = strncmp(attrs, "rect=[", 6) == 0 ? strstr(attrs, "] ") : NULL;
    if (!close) return;
    const char *rects = attrs + 6, *key = close + 2;
    size_t klen = strlen(key);
    uint64_t h = fnv(key, klen);
    page_link *l = NULL;
    for (size_t i = 0; i < pt->n_links && !l; i++)
        if (pt->links[i].hash == h && pt->links[i].klen == klen &&
            memcmp(pt->links[i].key, key, klen) == 0)
            l = &pt->links[i];
    if (!l) {
        if (pt->n_links == pt->cap_links) {
            size_t cap = pt->cap_links ? pt->cap_links * 2 : 8;
            page_link *v = realloc(pt->links, cap * sizeof *v);
            if (!v) return;
            pt->links = v, pt->cap_links = cap;
        }
        char *k = malloc(klen + 1);
        if (!k) return;
        memcpy(k, key, klen + 1);
        l = &pt->links[pt->n_links++];
        *l = (page_link){k, klen, h, {0}};
    } else {
        qr_buf_putc(&l->rects, ' ');
    }
    qr_buf_append(&l->rects, rects, (size_t)(close - rects));
}

/* Write the page's gathered link tags and forget them. */
static void flush_links(painter *pt, cairo_t *cr)
{
    for (size_t i = 0; i < pt->n_links; i++) {
        page_link *l = &pt->links[i];
        qr_buf b = {0};
        qr_buf_puts(&b, "rect=[");
        if (l->rects.len) qr_buf_append(&b, l->rects.data, l->rects.len);
        qr_buf_puts(&b, "] ");
        qr_buf_append(&b, l->key, l->klen);
        if (!b.oom && !l->rects.oom) emit_tag(cr, b.data);
        qr_buf_free(&b);
        qr_buf_free(&l->rects);
        free(l->key);
    }
    free(pt->links);
    pt->links = NULL;
    pt->n_links = pt->cap_links = 0;
}

/* At a cut mark: the helper stops, pango paints the rest here. */
static void cut(painter *pt)
{
    qr_pdf_pipe_stop(pt->c);
    pt->rd = NULL;
}

/* Draw the glyph runs replayed so far: before anything else is drawn. */
static void settle(painter *pt, cairo_t *cr)
{
    qr_pdf_batch_flush(&pt->batch, cr);
}

/* Line i of t: replayed from the helper's recording (its runs joined in
 * pt's batch), else drawn here (a line simple_text.c laid out is recorded
 * here and replayed). */
static void show_line(painter *pt, cairo_t *cr, const pd_text *t, size_t i)
{
    if (pt->rd && qr_pdf_rec_replay_line_batch(pt->rd, cr, &pt->batch) == 0) return;
    settle(pt, cr);
    if (pt->rd) cut(pt);
    if (!t->simple) {
        pango_cairo_show_layout_line(cr, t->lines[i].line);
        return;
    }
    qr_buf b = {0};
    if (qr_pdf_simple_record(t, i, &b) == 0) {
        pd_recread rd = {(const unsigned char *)b.data, b.len, 0};
        qr_pdf_rec_replay_line(&rd, cr);
    } else {
        qr_pdf_fail(pt->c, QR_E_NOMEM, "", "out of memory");
    }
    qr_buf_free(&b);
}

/* Record line i of t into out for the replay: 0, or -1 after a cut mark. */
static int record_line(const pd_text *t, size_t i, PangoRenderer *r, qr_buf *out)
{
    if (!t->simple) return qr_pdf_rec_line(r, out, t->lines[i].line);
    if (qr_pdf_simple_record(t, i, out) == 0) return 0;
    qr_pdf_rec_cut(out);
    return -1;
}

/* The language spans of one line being drawn: which one's tag is open. */
typedef struct span_state {
    painter *pt;
    cairo_t *cr;
    const pd_text *t;
    const char *text; /* the line's layout's text */
    size_t base;      /* its first byte's offset in the whole text */
    size_t open;      /* the open language span + 1, SPAN_PLAIN, or 0 */
    int failed;
} span_state;

#define SPAN_PLAIN SIZE_MAX /* a plain Span: the element's own language */

static void span_close(span_state *s)
{
    if (!s->open) return;
    cairo_tag_end(s->cr, qr_pdf_tag_name(s->open == SPAN_PLAIN ? PD_TAG_SPAN : PD_TAG_LANG_SPAN));
    s->open = 0;
}

/* Before a glyph run starting at byte text: close the span it leaves, open
 * the one it enters (a language span's language kept for tagged.c, in
 * painting order). cairo 1.16 marks the content of an element's leaves
 * only: once a paragraph holds a language span, all its glyphs are in
 * spans, the ones in its own language in plain Spans. */
static void span_at(void *arg, const char *text)
{
    span_state *s = arg;
    size_t off = (size_t)(text - s->text) + s->base, k = 0;
    const pd_text *t = s->t;
    while (k < t->n_spans && !((size_t)t->spans[k].start <= off && off < (size_t)t->spans[k].end))
        k++;
    size_t want = k < t->n_spans ? k + 1 : SPAN_PLAIN;
    if (want == s->open) return;
    span_close(s);
    if (want == SPAN_PLAIN) {
        cairo_tag_begin(s->cr, qr_pdf_tag_name(PD_TAG_SPAN), "");
        s->open = want;
        return;
    }
    pd_ctx *c = s->pt->c;
    if (c->n_span_langs == c->cap_span_langs) {
        size_t cap = c->cap_span_langs ? c->cap_span_langs * 2 : 16;
        const char **v = realloc(c->span_langs, cap * sizeof *v);
        if (!v) {
            s->failed = 1;
            return;
        }
        c->span_langs = v;
        c->cap_span_langs = cap;
    }
    c->span_langs[c->n_span_langs++] = t->spans[k].lang;
    cairo_tag_begin(s->cr, qr_pdf_tag_name(PD_TAG_LANG_SPAN), "");
    s->open = want;
}

/* A line of a tagged PDF's text holding a language span: drawn from a
 * recording (the helper's, else one made here) whose replay opens a Span
 * tag around each run (span_at), so a language Span's marked content holds
 * exactly its glyphs; cairo draws what show_line would. */
static void show_line_spans(painter *pt, cairo_t *cr, const pd_op *o)
{
    const pd_line *ln = &o->text->lines[o->line];
    span_state s = {pt, cr, o->text, pango_layout_get_text(ln->line->layout), ln->base, 0, 0};
    settle(pt, cr);
    if (pt->rd) {
        int r = qr_pdf_rec_replay_line_at(pt->rd, cr, span_at, &s);
        span_close(&s);
        if (r == 0) return;
        cut(pt);
    }
    if (!pt->rec) pt->rec = qr_pdf_rec_renderer_new();
    qr_buf b = {0};
    if (pt->rec && qr_pdf_rec_line(pt->rec, &b, ln->line) == 0 && !b.oom) {
        pd_recread rd = {(const unsigned char *)b.data, b.len, 0};
        qr_pdf_rec_replay_line_at(&rd, cr, span_at, &s);
        span_close(&s);
    } else {
        pango_cairo_show_layout_line(cr, ln->line); /* untagged spans, but drawn */
    }
    qr_buf_free(&b);
    if (s.failed) qr_pdf_fail(pt->c, QR_E_NOMEM, "", "out of memory");
}

static void line_links(painter *pt, cairo_t *cr, const pd_op *o)
{
    (void)cr;
    if (pt->rd) {
        const char *a;
        while ((a = qr_pdf_rec_replay_tag(pt->rd)) != NULL)
            gather_tag(pt, a);
        return;
    }
    link_attrs(o, gather_tag, pt);
}

/* The alt text lines that fit in an image's placeholder box. */
static size_t alt_lines(const pd_text *t, const pd_op *o)
{
    size_t n = 0;
    while (n < t->n_lines && t->lines[n].top + t->lines[n].height <= o->h - 8)
        n++;
    return n;
}

static void paint_image(painter *pt, cairo_t *cr, const pd_op *o)
{
    const pd_block *b = o->blk;
    settle(pt, cr);
    if (b->surface) {
        int sw = cairo_image_surface_get_width(b->surface);
        int sh = cairo_image_surface_get_height(b->surface);
        if (sw <= 0 || sh <= 0) return;
        cairo_save(cr);
        cairo_translate(cr, o->x, o->y);
        cairo_scale(cr, o->w / sw, o->h / sh);
        cairo_set_source_surface(cr, b->surface, 0, 0);
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD);
        cairo_paint(cr);
        cairo_restore(cr);
        return;
    }
    /* placeholder: a light box with the alt text, centred */
    cairo_save(cr);
    set_rgb(cr, pt->c->style.placeholder_fill);
    cairo_rectangle(cr, o->x, o->y, o->w, o->h);
    cairo_fill_preserve(cr);
    set_rgb(cr, pt->c->style.placeholder_line);
    cairo_set_line_width(cr, 0.75);
    cairo_stroke(cr);
    const pd_text *t = b->alt;
    if (t) {
        size_t n = alt_lines(t, o);
        double h = n ? t->lines[n - 1].top + t->lines[n - 1].height : 0;
        double y0 = o->y + (o->h - h) / 2, x0 = o->x + (o->w - t->width) / 2;
        set_rgb(cr, pt->c->style.placeholder_text);
        for (size_t i = 0; i < n; i++) {
            cairo_move_to(cr, x0 + t->lines[i].x, y0 + t->lines[i].top + t->lines[i].ascent);
            show_line(pt, cr, t, i);
        }
        settle(pt, cr);
    }
    cairo_restore(cr);
}

static void outline_add(pd_ctx *c, cairo_t *cr, const pd_op *o, size_t page, pd_outline *ol)
{
    const pd_block *b = o->blk;
    int level = b->heading;
    while (ol->depth > 0 && ol->level[ol->depth - 1] >= level)
        ol->depth--;
    int parent = ol->depth > 0 ? ol->id[ol->depth - 1] : CAIRO_PDF_OUTLINE_ROOT;
    qr_buf a = {0};
    qr_buf_printf(&a, "page=%zu pos=[", page + 1);
    put_num(&a, o->x);
    qr_buf_putc(&a, ' ');
    put_num(&a, o->y);
    qr_buf_putc(&a, ']');
    if (!a.oom) {
        int id = cairo_pdf_surface_add_outline(cairo_get_target(cr), parent,
                                               b->outline ? b->outline : "", a.data, 0);
        if (ol->depth < 8) {
            ol->id[ol->depth] = id;
            ol->level[ol->depth] = level;
            ol->depth++;
        }
    }
    qr_buf_free(&a);
    (void)c;
}

/* The text of page p's header or footer (QR_FURN_*, layout/furniture.h)
 * into *s: 0 when the page shows one, -1 when not (or out of memory). */
static int furniture_string(const pd_ctx *c, int which, size_t p, qr_buf *s)
{
    const qr_doc *d = c->rc->doc; /* c->doc is NULL in a cached PNG layout (pdf.c) */
    if (!qr_furniture_on_page(d, p)) return -1;
    qr_buf tb = {0};
    const char *tpl = qr_furniture_template(d, &c->style, which, &tb);
    int rc = tpl ? qr_furniture_text(d, tpl, c->rc->epoch, p + 1, c->n_pages, s) : -1;
    qr_buf_free(&tb);
    return rc == 0 && s->len ? 0 : -1;
}

/* Page p's header or footer (QR_FURN_*), one line in the footer's size,
 * centred in the top or bottom margin, laid out in f; its line's origin in
 * *x, *y. NULL when the page has none. */
static const pd_text *furniture_text(pd_ctx *c, pd_ctx *f, int which, size_t p, double *x,
                                     double *y)
{
    qr_buf s = {0};
    if (furniture_string(c, which, p, &s) != 0) {
        qr_buf_free(&s);
        return NULL;
    }
    pd_style st = {.size = c->style.footer_pt};
    const pd_text *t = qr_pdf_text(f, NULL, s.data, s.len, &st, 0, "");
    qr_buf_free(&s);
    if (!t || !t->n_lines) return NULL;
    double h = t->lines[0].height;
    double mid;
    if (which == QR_FURN_HEADER) {
        mid = c->top < h ? h / 2 : c->top / 2;
    } else {
        double margin = c->page_h - c->bottom;
        mid = margin < h ? c->page_h - h / 2 : c->page_h - margin / 2;
    }
    *x = (c->page_w - t->width) / 2 + t->lines[0].x;
    *y = mid - h / 2 + t->lines[0].ascent;
    return t;
}

/* Page p's header and footer: each replayed from the helper's recording
 * (pdf.c), or laid out and drawn here. */
static void paint_furniture(painter *pt, cairo_t *cr, size_t p)
{
    settle(pt, cr);
    for (int which = QR_FURN_HEADER; which <= QR_FURN_FOOTER; which++) {
        double x, y;
        if (pt->rd) {
            qr_buf s = {0};
            int has = furniture_string(pt->c, which, p, &s) == 0;
            qr_buf_free(&s);
            if (!has) continue;
            if (qr_pdf_rec_replay_footer(pt->rd, &x, &y) == 0) {
                set_rgb(cr, FOOTER_RGB);
                cairo_move_to(cr, x, y);
                if (qr_pdf_rec_replay_line(pt->rd, cr) == 0) continue;
                /* a cut at the line itself: pango draws it */
            } else if (qr_pdf_rec_next(pt->rd) != REC_CUT) {
                return; /* none (the helper could not lay it out) */
            }
            cut(pt);
        }
        const pd_text *t = furniture_text(pt->c, pt->c, which, p, &x, &y);
        if (!t) continue;
        set_rgb(cr, FOOTER_RGB);
        cairo_move_to(cr, x, y);
        pango_cairo_show_layout_line(cr, t->lines[0].line);
    }
}

void qr_pdf_paint_page(pd_ctx *c, cairo_t *cr, size_t p, pd_outline *ol, pd_recread *rd)
{
    painter pt = {c, rd, NULL, 0, 0, NULL, {0}};
    pt.batch.page_w = c->page_w;
    pt.batch.page_h = c->page_h;
    size_t a = c->page_start[p], z = c->page_start[p + 1];
    if (c->style.background != 0xFFFFFF) {
        /* The theme's page ground (dark: light text on it). Not a paint of
         * the whole page: cairo's recording surface takes an opaque paint
         * over everything for a clear and drops what came before it on the
         * page, the "Document" structure element begun there with it (the
         * PDF lost its /MarkInfo; so did a fill 0.001 pt short of the page
         * was). Two overlapping halves are no clear, and leave no seam. */
        set_rgb(cr, c->style.background);
        cairo_rectangle(cr, 0, 0, c->page_w, c->page_h / 2 + 1);
        cairo_rectangle(cr, 0, c->page_h / 2, c->page_w, c->page_h / 2);
        cairo_fill(cr);
    }
    if (ol && a < z && c->ops[a].kind == OP_TAG && c->ops[a].color == PD_TAG_FIGURE) {
        /* cairo 1.16 fails the whole PDF ("invalid tag name, attributes, or
         * nesting") when a page's first structure element is a Figure opened
         * before anything is drawn on the page: one white point first. */
        cairo_save(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_rectangle(cr, 0, 0, 1, 1);
        cairo_fill(cr);
        cairo_restore(cr);
    }
    for (size_t i = a; i < z; i++) {
        const pd_op *o = &c->ops[i];
        switch ((pd_op_kind)o->kind) {
        case OP_LINE:
            /* the text's own colour (headings), a chart label's, or the theme's */
            set_rgb(cr, o->text->has_rgb ? o->text->rgb : o->color ? o->color : c->style.text);
            cairo_move_to(cr, o->x, o->y);
            if (ol && o->text->n_spans)
                show_line_spans(&pt, cr, o);
            else
                show_line(&pt, cr, o->text, o->line);
            if (ol && o->text->n_links) line_links(&pt, cr, o);
            break;
        case OP_FILL:
            settle(&pt, cr);
            set_rgb(cr, o->color);
            cairo_rectangle(cr, o->x, o->y, o->w, o->h);
            cairo_fill(cr);
            break;
        case OP_STROKE:
            settle(&pt, cr);
            set_rgb(cr, o->color);
            cairo_set_line_width(cr, c->style.grid_pt);
            cairo_rectangle(cr, o->x, o->y, o->w, o->h);
            cairo_stroke(cr);
            break;
        case OP_IMAGE:
            paint_image(&pt, cr, o);
            break;
        case OP_DEST:
            settle(&pt, cr);
            if (ol) outline_add(c, cr, o, p, ol);
            break;
        case OP_CHART:
            settle(&pt, cr);
            qr_pdf_paint_chart(cr, o);
            break;
        case OP_TAG:
            settle(&pt, cr);
            if (ol) qr_pdf_tag_paint(cr, o);
            break;
        }
    }
    settle(&pt, cr);
    flush_links(&pt, cr);
    paint_furniture(&pt, cr, p);
    qr_pdf_batch_free(&pt.batch);
    if (pt.rec) g_object_unref(pt.rec);
}

int qr_pdf_record_page(pd_ctx *c, pd_ctx *f, PangoRenderer *r, size_t p, qr_buf *out)
{
    size_t a = c->page_start[p], z = c->page_start[p + 1];
    for (size_t i = a; i < z; i++) {
        const pd_op *o = &c->ops[i];
        if (o->kind == OP_LINE) {
            if (record_line(o->text, o->line, r, out) != 0) return -1;
            if (o->text->n_links) link_attrs(o, record_tag, out);
        } else if (o->kind == OP_IMAGE && !o->blk->surface && o->blk->alt) {
            const pd_text *t = o->blk->alt;
            for (size_t k = 0, n = alt_lines(t, o); k < n; k++)
                if (record_line(t, k, r, out) != 0) return -1;
        }
    }
    for (int which = QR_FURN_HEADER; which <= QR_FURN_FOOTER; which++) {
        double x, y;
        const pd_text *t = furniture_text(c, f, which, p, &x, &y);
        if (!t) continue;
        qr_pdf_rec_footer(out, x, y);
        if (qr_pdf_rec_line(r, out, t->lines[0].line) != 0) return -1;
    }
    return 0;
}
