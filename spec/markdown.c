/* markdown.c: Markdown text into the spec's JSON blocks through cmark-gfm
 * (markdown.h states the mapping). One pass over cmark's tree: blocks are
 * walked recursively (depth bounded by max_depth before any recursion goes
 * deeper), inlines with cmark's own iterator (no recursion), so 10,000
 * nested quotes or brackets cost no C stack. The front matter and the deck
 * split are read here too, so the CLI only hands over the file's bytes. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm/node.h> /* footnote references point at their definition */

#include "buf.h"
#include "markdown.h"

/* cmark-gfm keeps a process-wide extension registry: registering it twice
 * is harmless but not thread-safe, so it happens once. */
#include <pthread.h>
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;
static void reg(void)
{
    cmark_gfm_core_extensions_ensure_registered();
}

typedef struct md {
    const qr_md_opts *o;
    qr_errlist *errs;
    int bad;
    size_t max_depth;
    qr_md_loc *locs; /* of the top-level blocks */
    size_t n_locs, cap_locs;
    int in_note; /* converting a footnote's text */
    int nomem;
} md;

static void err(md *m, cmark_node *at, qr_status st, const char *hint, const char *fmt,
                const char *arg)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, arg);
    int line = at ? cmark_node_get_start_line(at) : 1,
        col = at ? cmark_node_get_start_column(at) : 1;
    qr_errlist_addf(m->errs, st, m->o->path ? m->o->path : "", hint,
                    "%s (markdown line %d, column %d)", msg, line + m->o->line0, col ? col : 1);
    m->bad = 1;
}

static const char *type_str(cmark_node *n)
{
    const char *t = cmark_node_get_type_string(n);
    return t ? t : "";
}

/* ---- runs ------------------------------------------------------------------------- */

typedef struct style {
    int bold, italic, strike, code;
    const char *link;
} style;

typedef struct runs {
    json_t *arr;    /* the runs so far */
    qr_buf text;    /* the pending run's text */
    style cur;      /* its style */
    int styled_any; /* a run with a style was flushed */
} runs;

static int same(const style *a, const style *b)
{
    return a->bold == b->bold && a->italic == b->italic && a->strike == b->strike &&
           a->code == b->code &&
           (a->link == b->link || (a->link && b->link && strcmp(a->link, b->link) == 0));
}

static int plain(const style *s)
{
    return !s->bold && !s->italic && !s->strike && !s->code && !s->link;
}

static void flush(runs *r)
{
    if (!r->text.len) return;
    json_t *t = json_stringn(r->text.data, r->text.len);
    if (plain(&r->cur)) {
        json_array_append_new(r->arr, t);
    } else {
        json_t *o = json_object();
        json_object_set_new(o, "text", t);
        if (r->cur.bold) json_object_set_new(o, "bold", json_true());
        if (r->cur.italic) json_object_set_new(o, "italic", json_true());
        if (r->cur.strike) json_object_set_new(o, "strike", json_true());
        if (r->cur.code) json_object_set_new(o, "code", json_true());
        if (r->cur.link) json_object_set_new(o, "link", json_string(r->cur.link));
        json_array_append_new(r->arr, o);
        r->styled_any = 1;
    }
    r->text.len = 0;
}

static void put(runs *r, const style *s, const char *t, size_t n)
{
    if (!n) return;
    if (!same(&r->cur, s)) {
        flush(r);
        r->cur = *s;
    }
    qr_buf_append(&r->text, t, n);
}

static void put_lit(runs *r, const style *s, cmark_node *n)
{
    const char *t = cmark_node_get_literal(n);
    if (t) put(r, s, t, strlen(t));
}

/* Visible text of an image's description (its alt text). */
static void alt_text(cmark_node *img, qr_buf *out)
{
    cmark_iter *it = cmark_iter_new(img);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER) continue;
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_CODE:
        case CMARK_NODE_HTML_INLINE: {
            const char *t = cmark_node_get_literal(n);
            if (t) qr_buf_puts(out, t);
            break;
        }
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
            qr_buf_putc(out, ' ');
            break;
        default:
            break;
        }
    }
    cmark_iter_free(it);
}

static void note_ref(md *m, runs *r, const style *s, cmark_node *n);

/* East Asian wide: CJK punctuation, kana, ideographs, Hangul, fullwidth forms. */
static int wide(unsigned cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
           (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

static unsigned decode(const unsigned char *p, size_t n)
{
    if (n >= 3 && (p[0] & 0xF0) == 0xE0)
        return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    if (n >= 4 && (p[0] & 0xF8) == 0xF0)
        return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) |
               (p[3] & 0x3Fu);
    return p[0];
}

/* The last character of the pending text is wide. */
static int wide_last(const qr_buf *b)
{
    if (!b->len) return 0;
    size_t i = b->len - 1;
    while (i > 0 && ((unsigned char)b->data[i] & 0xC0) == 0x80 && b->len - i < 4)
        i--;
    return wide(decode((const unsigned char *)b->data + i, b->len - i));
}

/* The text node after a soft break starts with a wide character. */
static int wide_first(cmark_node *n)
{
    if (!n || cmark_node_get_type(n) != CMARK_NODE_TEXT) return 0;
    const char *t = cmark_node_get_literal(n);
    return t && *t && wide(decode((const unsigned char *)t, strlen(t)));
}

/* The inline children of block node b as runs appended to r. Images either
 * end the current paragraph (split != NULL: called back per image) or become
 * their alt text. Iterative: style changes are undone on EXIT. */
typedef void (*image_fn)(md *m, cmark_node *img, void *ctx);

static void inlines_in(md *m, cmark_node *b, runs *r, image_fn on_image, void *ctx, style s)
{
    style st[64];
    int sp = 0;
    size_t deep = 0; /* style nodes nested past the stack: no change of style */
    cmark_iter *it = cmark_iter_new(b);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (n == b) continue;
        cmark_node_type t = cmark_node_get_type(n);
        int styling = t == CMARK_NODE_EMPH || t == CMARK_NODE_STRONG || t == CMARK_NODE_LINK ||
                      strcmp(type_str(n), "strikethrough") == 0;
        if (styling) {
            if (ev == CMARK_EVENT_ENTER) {
                if (sp == 64) {
                    deep++;
                    continue;
                }
                st[sp++] = s;
                if (t == CMARK_NODE_EMPH) s.italic = 1;
                if (t == CMARK_NODE_STRONG) s.bold = 1;
                if (t == CMARK_NODE_LINK) s.link = cmark_node_get_url(n);
                if (t != CMARK_NODE_EMPH && t != CMARK_NODE_STRONG && t != CMARK_NODE_LINK)
                    s.strike = 1;
            } else if (deep) {
                deep--;
            } else {
                s = st[--sp];
            }
            continue;
        }
        if (ev != CMARK_EVENT_ENTER) continue;
        switch (t) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_HTML_INLINE:
            put_lit(r, &s, n);
            break;
        case CMARK_NODE_CODE: {
            style c = s;
            c.code = 1;
            put_lit(r, &c, n);
            break;
        }
        case CMARK_NODE_SOFTBREAK:
            /* a space, but none between two East Asian wide characters
             * (Chinese and Japanese run on without spaces) */
            if (!(wide_last(&r->text) && wide_first(cmark_node_next(n)))) put(r, &s, " ", 1);
            break;
        case CMARK_NODE_LINEBREAK:
            put(r, &s, "\n", 1);
            break;
        case CMARK_NODE_IMAGE:
            if (on_image) {
                on_image(m, n, ctx);
            } else {
                qr_buf a = {0};
                alt_text(n, &a);
                put(r, &s, a.data ? a.data : "", a.len);
                qr_buf_free(&a);
            }
            /* its description was read whole: skip the children */
            cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
            break;
        case CMARK_NODE_FOOTNOTE_REFERENCE:
            note_ref(m, r, &s, n);
            break;
        default:
            break;
        }
    }
    cmark_iter_free(it);
}

static void inlines(md *m, cmark_node *b, runs *r, image_fn on_image, void *ctx)
{
    inlines_in(m, b, r, on_image, ctx, (style){0});
}

/* Set "text" (all plain) or "runs" on obj from r; 0 when r is empty. */
static int set_text(json_t *obj, runs *r)
{
    flush(r);
    size_t n = json_array_size(r->arr);
    if (!n) return 0;
    if (!r->styled_any) {
        qr_buf all = {0};
        for (size_t i = 0; i < n; i++)
            qr_buf_puts(&all, json_string_value(json_array_get(r->arr, i)));
        json_object_set_new(obj, "text", json_stringn(all.data, all.len));
        qr_buf_free(&all);
    } else {
        json_object_set_new(obj, "runs", json_copy(r->arr));
    }
    return 1;
}

static void runs_init(runs *r)
{
    memset(r, 0, sizeof *r);
    r->arr = json_array();
}

static void runs_free(runs *r)
{
    json_decref(r->arr);
    qr_buf_free(&r->text);
}

/* ---- footnotes --------------------------------------------------------------- */

/* A reference: a footnote run ({"footnote": runs}) holding the definition's
 * blocks (paragraphs joined by line breaks, code as code). Every reference
 * carries its note (a note cited twice is printed twice). References inside
 * a note stay literal ("[^x]"): a note holds no note. */
static void note_ref(md *m, runs *r, const style *s, cmark_node *n)
{
    cmark_node *def = n->parent_footnote_def;
    if (!def || m->in_note) {
        /* the label as written: the definition's (cmark numbers references) */
        put(r, s, "[^", 2);
        if (def && def->as.literal.data)
            put(r, s, (const char *)def->as.literal.data, (size_t)def->as.literal.len);
        put(r, s, "]", 1);
        return;
    }
    runs nr;
    runs_init(&nr);
    style p = {0};
    int first = 1;
    m->in_note = 1;
    for (cmark_node *c = cmark_node_first_child(def); c; c = cmark_node_next(c)) {
        if (!first) put(&nr, &p, "\n", 1);
        first = 0;
        if (cmark_node_get_type(c) == CMARK_NODE_CODE_BLOCK) {
            style cs = {.code = 1};
            const char *t = cmark_node_get_literal(c);
            size_t tl = t ? strlen(t) : 0;
            while (tl && t[tl - 1] == '\n')
                tl--;
            put(&nr, &cs, t, tl);
        } else {
            inlines(m, c, &nr, NULL, NULL);
        }
    }
    m->in_note = 0;
    flush(&nr);
    flush(r);
    json_t *run = json_object();
    if (!nr.styled_any && json_array_size(nr.arr) == 1)
        json_object_set(run, "footnote", json_array_get(nr.arr, 0));
    else
        json_object_set_new(run, "footnote", json_copy(nr.arr));
    json_array_append_new(r->arr, run);
    r->styled_any = 1;
    runs_free(&nr);
}

/* ---- blocks ---------------------------------------------------------------------- */

typedef struct out {
    md *m;
    json_t *arr; /* blocks */
    int top;     /* arr is the top level: record locations */
    int quote;   /* inside a block quote: paragraphs are quote blocks */
} out;

static void add(out *o, json_t *b, cmark_node *at)
{
    json_array_append_new(o->arr, b);
    if (!o->top) return;
    md *m = o->m;
    if (m->n_locs == m->cap_locs) {
        size_t c = m->cap_locs ? m->cap_locs * 2 : 64;
        qr_md_loc *l = realloc(m->locs, c * sizeof *l);
        if (!l) {
            m->nomem = m->bad = 1;
            return;
        }
        m->locs = l;
        m->cap_locs = c;
    }
    m->locs[m->n_locs].line = cmark_node_get_start_line(at) + m->o->line0;
    m->locs[m->n_locs].col = cmark_node_get_start_column(at);
    m->n_locs++;
}

static json_t *image_block(cmark_node *img)
{
    json_t *b = json_pack("{ss}", "type", "image");
    const char *u = cmark_node_get_url(img);
    json_object_set_new(b, "src", json_string(u ? u : ""));
    qr_buf a = {0};
    alt_text(img, &a);
    if (a.len) json_object_set_new(b, "alt", json_stringn(a.data, a.len));
    qr_buf_free(&a);
    return b;
}

/* A paragraph being split at its images. */
typedef struct para {
    out *o;
    runs r;
    cmark_node *at;
    const char *type; /* "paragraph" or "heading" */
    int level;
} para;

static void para_emit(para *p)
{
    flush(&p->r);
    /* drop a paragraph that is only blanks (the text around an image) */
    int all_blank = 1;
    for (size_t i = 0; i < json_array_size(p->r.arr) && all_blank; i++) {
        json_t *e = json_array_get(p->r.arr, i);
        if (json_object_get(e, "footnote")) all_blank = 0; /* a note's mark is content */
        const char *t = json_is_string(e) ? json_string_value(e)
                                          : json_string_value(json_object_get(e, "text"));
        for (; t && *t; t++)
            if (!isspace((unsigned char)*t)) all_blank = 0;
    }
    if (!all_blank) {
        json_t *b = json_pack("{ss}", "type", p->type);
        if (p->level) json_object_set_new(b, "level", json_integer(p->level));
        set_text(b, &p->r);
        add(p->o, b, p->at);
    }
    json_array_clear(p->r.arr);
    p->r.styled_any = 0;
}

static void para_image(md *m, cmark_node *img, void *ctx)
{
    (void)m;
    para *p = ctx;
    para_emit(p);
    add(p->o, image_block(img), img);
}

static void blocks(out *o, cmark_node *parent, size_t depth);

/* Code text without its final newline. */
static void code_text(cmark_node *n, const char **t, size_t *len)
{
    *t = cmark_node_get_literal(n);
    if (!*t) *t = "";
    *len = strlen(*t);
    while (*len && (*t)[*len - 1] == '\n')
        (*len)--;
}

/* ---- lists ---------------------------------------------------------------------- */

static json_t *list_items(md *m, cmark_node *list, size_t depth, int ordered);

/* Everything of item node it but nested lists as runs (blocks joined with
 * line breaks); nested lists as sub-items. ordered: the top-level list's
 * kind, which its nested items take. A task item of a bullet list is
 * "checked"; in an ordered list or on a slide its box stays text. */
static json_t *list_item(md *m, cmark_node *it, size_t depth, int ordered)
{
    json_t *obj = json_object();
    runs r;
    runs_init(&r);
    style p = {0};
    if (strcmp(type_str(it), "tasklist") == 0) {
        int ticked = cmark_gfm_extensions_get_tasklist_item_checked(it);
        if (ordered || m->o->slide)
            put(&r, &p, ticked ? "[x] " : "[ ] ", 4);
        else
            json_object_set_new(obj, "checked", json_boolean(ticked));
    }
    json_t *sub = NULL;
    int first = 1;
    for (cmark_node *c = cmark_node_first_child(it); c; c = cmark_node_next(c)) {
        cmark_node_type t = cmark_node_get_type(c);
        if (t == CMARK_NODE_LIST) {
            json_t *items = list_items(m, c, depth + 1, ordered);
            if (!items) continue;
            if (!sub) sub = json_array();
            json_array_extend(sub, items);
            json_decref(items);
            continue;
        }
        if (!first) put(&r, &p, "\n", 1);
        first = 0;
        if (t == CMARK_NODE_CODE_BLOCK) {
            const char *s;
            size_t n;
            code_text(c, &s, &n);
            style cs = {.code = 1};
            put(&r, &cs, s, n);
        } else if (t == CMARK_NODE_HTML_BLOCK) {
            const char *s;
            size_t n;
            code_text(c, &s, &n);
            put(&r, &p, s, n);
        } else if (t == CMARK_NODE_PARAGRAPH || t == CMARK_NODE_HEADING) {
            inlines(m, c, &r, NULL, NULL);
        } else {
            /* a quote, table or break inside an item: its text, flattened */
            cmark_iter *ci = cmark_iter_new(c);
            cmark_event_type ev;
            int n_par = 0;
            while ((ev = cmark_iter_next(ci)) != CMARK_EVENT_DONE) {
                cmark_node *x = cmark_iter_get_node(ci);
                if (ev != CMARK_EVENT_ENTER) continue;
                cmark_node_type xt = cmark_node_get_type(x);
                if (xt == CMARK_NODE_PARAGRAPH || strcmp(type_str(x), "table_cell") == 0) {
                    if (n_par++) put(&r, &p, " ", 1);
                    inlines(m, x, &r, NULL, NULL);
                    cmark_iter_reset(ci, x, CMARK_EVENT_EXIT);
                } else if (xt == CMARK_NODE_CODE_BLOCK) {
                    const char *s;
                    size_t n;
                    code_text(x, &s, &n);
                    style cs = {.code = 1};
                    if (n_par++) put(&r, &p, "\n", 1);
                    put(&r, &cs, s, n);
                }
            }
            cmark_iter_free(ci);
        }
    }
    json_t *checked = json_incref(json_object_get(obj, "checked"));
    json_object_del(obj, "checked"); /* written after the text, as the schema lists it */
    set_text(obj, &r);
    runs_free(&r);
    if (!json_object_get(obj, "text") && !json_object_get(obj, "runs"))
        json_object_set_new(obj, "text", json_string(""));
    if (sub) json_object_set_new(obj, "items", sub);
    if (checked) json_object_set_new(obj, "checked", checked);
    /* a plain item with no children is written as a string */
    if (json_object_size(obj) == 1 && json_object_get(obj, "text")) {
        json_t *s = json_incref(json_object_get(obj, "text"));
        json_decref(obj);
        return s;
    }
    return obj;
}

static json_t *list_items(md *m, cmark_node *list, size_t depth, int ordered)
{
    if (depth > m->max_depth) {
        char lim[32];
        snprintf(lim, sizeof lim, "%zu", m->max_depth);
        err(m, list, QR_E_LIMIT, "use fewer levels: lists nest at most 9 deep",
            "lists nested deeper than %s levels", lim);
        return NULL;
    }
    json_t *items = json_array();
    for (cmark_node *it = cmark_node_first_child(list); it; it = cmark_node_next(it))
        json_array_append_new(items, list_item(m, it, depth, ordered));
    return items;
}

/* ---- tables -------------------------------------------------------------------- */

static json_t *table_block(md *m, cmark_node *tb)
{
    json_t *b = json_pack("{ss}", "type", "table");
    json_t *rows = json_array();
    for (cmark_node *row = cmark_node_first_child(tb); row; row = cmark_node_next(row)) {
        json_t *cells = json_array();
        for (cmark_node *c = cmark_node_first_child(row); c; c = cmark_node_next(c)) {
            runs r;
            runs_init(&r);
            inlines(m, c, &r, NULL, NULL);
            json_t *cell = json_object();
            if (!set_text(cell, &r)) {
                json_array_append_new(cells, json_null());
                json_decref(cell);
            } else if (json_object_get(cell, "text")) {
                json_array_append(cells, json_object_get(cell, "text"));
                json_decref(cell);
            } else {
                json_array_append_new(cells, cell);
            }
            runs_free(&r);
        }
        if (strcmp(type_str(row), "table_header") == 0)
            json_object_set_new(b, "headers", cells);
        else
            json_array_append_new(rows, cells);
    }
    json_object_set_new(b, "rows", rows);
    /* column alignment (:--, :-:, --:) as the table's "align", null for a
     * column with none; left out when no column has one */
    uint16_t nc = cmark_gfm_extensions_get_table_columns(tb);
    const uint8_t *al = cmark_gfm_extensions_get_table_alignments(tb);
    int any = 0;
    for (uint16_t i = 0; al && i < nc; i++)
        any |= al[i] == 'l' || al[i] == 'c' || al[i] == 'r';
    if (any) {
        json_t *a = json_array();
        for (uint16_t i = 0; i < nc; i++)
            json_array_append_new(a, al[i] == 'l'   ? json_string("left")
                                     : al[i] == 'c' ? json_string("center")
                                     : al[i] == 'r' ? json_string("right")
                                                    : json_null());
        json_object_set_new(b, "align", a);
    }
    return b;
}

/* ---- blocks ---------------------------------------------------------------------- */

static void blocks(out *o, cmark_node *parent, size_t depth)
{
    md *m = o->m;
    for (cmark_node *n = cmark_node_first_child(parent); n; n = cmark_node_next(n)) {
        cmark_node_type t = cmark_node_get_type(n);
        switch (t) {
        case CMARK_NODE_HEADING:
        case CMARK_NODE_PARAGRAPH: {
            para p = {.o = o, .at = n, .type = o->quote ? "quote" : "paragraph"};
            if (t == CMARK_NODE_HEADING) {
                int lv = cmark_node_get_heading_level(n) + m->o->heading_offset;
                p.type = "heading";
                p.level = lv < 1 ? 1 : lv > 6 ? 6 : lv;
            }
            runs_init(&p.r);
            inlines(m, n, &p.r, para_image, &p);
            para_emit(&p);
            runs_free(&p.r);
            break;
        }
        case CMARK_NODE_LIST: {
            int ordered = cmark_node_get_list_type(n) == CMARK_ORDERED_LIST;
            json_t *items = list_items(m, n, 1, ordered);
            if (!items) break;
            json_t *b = json_pack("{ss}", "type", "list");
            if (ordered) {
                json_object_set_new(b, "ordered", json_true());
                /* the first number (0 starts at 1: the spec counts from 1) */
                int start = cmark_node_get_list_start(n);
                if (start > 1) json_object_set_new(b, "start", json_integer(start));
            }
            json_object_set_new(b, "items", items);
            add(o, b, n);
            break;
        }
        case CMARK_NODE_CODE_BLOCK: {
            const char *s;
            size_t len;
            code_text(n, &s, &len);
            json_t *b = json_pack("{ss}", "type", "code");
            json_object_set_new(b, "text", json_stringn(s, len));
            const char *info = cmark_node_get_fence_info(n);
            size_t il = 0;
            while (info && info[il] && !isspace((unsigned char)info[il]))
                il++;
            if (il) json_object_set_new(b, "language", json_stringn(info, il));
            add(o, b, n);
            break;
        }
        case CMARK_NODE_HTML_BLOCK: {
            const char *s;
            size_t len;
            code_text(n, &s, &len);
            if (!len) break;
            json_t *b = json_pack("{ss}", "type", "paragraph");
            json_object_set_new(b, "text", json_stringn(s, len));
            add(o, b, n);
            break;
        }
        case CMARK_NODE_BLOCK_QUOTE: {
            if (depth >= m->max_depth) {
                char lim[32];
                snprintf(lim, sizeof lim, "%zu", m->max_depth);
                err(m, n, QR_E_LIMIT, "use fewer levels of quotes",
                    "block quotes nested deeper than %s levels", lim);
                break;
            }
            int q = o->quote;
            o->quote = 1;
            blocks(o, n, depth + 1);
            o->quote = q;
            break;
        }
        case CMARK_NODE_THEMATIC_BREAK:
            add(o, json_pack("{ss}", "type", "rule"), n);
            break;
        case CMARK_NODE_FOOTNOTE_DEFINITION:
            /* the notes come with their references */
            break;
        default:
            if (strcmp(type_str(n), "table") == 0) add(o, table_block(m, n), n);
            break;
        }
    }
}

/* ---- parse -------------------------------------------------------------------------- */

static cmark_node *parse(const char *s, size_t n)
{
    pthread_once(&reg_once, reg);
    cmark_parser *p = cmark_parser_new(CMARK_OPT_FOOTNOTES);
    if (!p) return NULL;
    static const char *const ext[] = {"table", "strikethrough", "autolink", "tasklist"};
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        cmark_syntax_extension *e = cmark_find_syntax_extension(ext[i]);
        if (e) cmark_parser_attach_syntax_extension(p, e);
    }
    cmark_parser_feed(p, s, n);
    cmark_node *doc = cmark_parser_finish(p);
    cmark_parser_free(p);
    return doc;
}

/* NUL bytes: an error at their line and column (cmark would turn them into
 * U+FFFD, silently changing the text). */
static int check_nul(md *m, const char *s, size_t n)
{
    const char *z = memchr(s, '\0', n);
    if (!z) return 0;
    int line = 1, col = 1;
    for (const char *p = s; p < z; p++) {
        if (*p == '\n')
            line++, col = 1;
        else
            col++;
    }
    qr_errlist_addf(
        m->errs, QR_E_SPEC, m->o->path ? m->o->path : "", "remove the NUL byte: Markdown is text",
        "a NUL byte in the markdown (markdown line %d, column %d)", line + m->o->line0, col);
    return -1;
}

/* Tables cost before parsing: cmark-gfm pads every row of a table to its
 * header's width, so a 3,000-column header over 100,000 one-cell lines is
 * 300 million nodes (10 GB) before anything here sees it. Each delimiter
 * row (only |, :, - and blanks, with a | and a -) opens a table of its
 * dash groups as columns, running to the next blank line; the cells of
 * all of them are counted against max_cells (an over-estimate: a table can
 * end sooner). Returns -1 (reported) past it. */
/* The same pass bounds a quadratic case of cmark-gfm 0.29 (fixed upstream
 * later): each link closed after image openers "![" walks back over all of
 * them, so 50,000 "![[]()" in one paragraph take 12 s (a 1 MiB one,
 * minutes). Within a run of non-blank lines, openers times link ends
 * ("](") past QR_MD_BRACKET_WORK is a limit error; ordinary text (a few
 * hundred images and links in one paragraph) stays far below it. */
#define QR_MD_BRACKET_WORK 50000000ULL

static int table_budget(md *m, const char *s, size_t n, size_t max_cells)
{
    size_t cells = 0, cols = 0;
    unsigned long long opens = 0, closes = 0;
    int line = 0, open_line = 0, para_line = 1;
    for (size_t i = 0; i < n;) {
        const char *l = s + i, *e = memchr(l, '\n', n - i);
        size_t ll = e ? (size_t)(e - l) : n - i;
        i += ll + 1;
        line++;
        size_t k = 0;
        while (k < ll && (l[k] == ' ' || l[k] == '\t' || l[k] == '>'))
            k++;
        if (k == ll || (k + 1 == ll && l[k] == '\r')) {
            cols = 0; /* a blank line ends a table, and a paragraph */
            opens = closes = 0;
            para_line = line + 1;
            continue;
        }
        /* "![" and "](" from k on: memchr finds the brackets (a byte loop
         * was 6 M instructions of D1md's compile) */
        for (const char *p = l + k + 1, *le = l + ll;
             p < le && (p = memchr(p, '[', (size_t)(le - p))); p++)
            opens += p[-1] == '!';
        for (const char *p = l + k, *le = l + ll - 1;
             p < le && (p = memchr(p, ']', (size_t)(le - p))); p++)
            closes += p[1] == '(';
        if (opens * closes > QR_MD_BRACKET_WORK) {
            qr_errlist_addf(m->errs, QR_E_LIMIT, m->o->path ? m->o->path : "",
                            "split the paragraph, or remove the unmatched \"![\"",
                            "a paragraph of %llu image openers \"![\" and %llu link ends \"](\": "
                            "the Markdown parser takes quadratic time on it (markdown line %d, "
                            "column 1)",
                            opens, closes, para_line + m->o->line0);
            return -1;
        }
        if (cols) cells += cols;
        int pipe = 0, dash = 0, ok = 1;
        size_t groups = 0;
        for (size_t j = k; j < ll && ok; j++) {
            char c = l[j];
            if (c == '|')
                pipe = 1;
            else if (c == '-') {
                if (!dash) groups++;
                dash = 1;
                continue;
            } else if (c != ':' && c != ' ' && c != '\t' && c != '\r')
                ok = 0;
            dash = 0;
        }
        if (ok && pipe && groups) {
            cols = groups;
            open_line = line;
            cells += 2 * groups; /* the header and the delimiter row */
        }
        if (cells > max_cells) {
            char msg[200];
            snprintf(msg, sizeof msg,
                     "tables of more than %zu cells (a table of %zu columns from line %d)",
                     max_cells, cols, open_line + m->o->line0);
            qr_errlist_addf(m->errs, QR_E_LIMIT, m->o->path ? m->o->path : "",
                            "use smaller tables (or raise qr_limits.max_table_cells)",
                            "%s (markdown line %d, column 1)", msg, line + m->o->line0);
            return -1;
        }
    }
    return 0;
}

static void md_init(md *m, const qr_md_opts *o, qr_errlist *errs)
{
    memset(m, 0, sizeof *m);
    m->o = o;
    m->errs = errs;
    m->max_depth = o->max_depth ? o->max_depth : 9;
}

json_t *qr_md_blocks(const char *s, size_t n, const qr_md_opts *opts, qr_md_loc **locs,
                     qr_errlist *errs)
{
    qr_md_opts def = {0};
    const qr_md_opts *o = opts ? opts : &def;
    md m;
    md_init(&m, o, errs);
    if (locs) *locs = NULL;
    if (check_nul(&m, s, n) < 0) return NULL;
    if (table_budget(&m, s, n, o->max_cells ? o->max_cells : 100000) < 0) return NULL;
    cmark_node *doc = parse(s, n);
    if (!doc) {
        qr_errlist_add(errs, QR_E_NOMEM, o->path ? o->path : "", "out of memory", NULL);
        return NULL;
    }
    json_t *arr = json_array();
    out ou = {.m = &m, .arr = arr, .top = 1};
    blocks(&ou, doc, 0);
    cmark_node_free(doc);
    if (m.nomem) qr_errlist_add(errs, QR_E_NOMEM, o->path ? o->path : "", "out of memory", NULL);
    if (m.bad) {
        json_decref(arr);
        free(m.locs);
        return NULL;
    }
    if (locs)
        *locs = m.locs;
    else
        free(m.locs);
    return arr;
}

/* ---- slides ---------------------------------------------------------------------- */

/* Bullets from the blocks of a slide body: lists keep their levels,
 * paragraphs and headings are top-level bullets, code blocks a bullet of
 * code per line. */
int qr_md_slide(const char *s, size_t n, const qr_md_opts *o, json_t *slide, qr_errlist *errs)
{
    size_t before = errs->count;
    qr_md_opts so = o ? *o : (qr_md_opts){0};
    so.slide = 1; /* task boxes stay text: slide bullets are not task items */
    json_t *bl = qr_md_blocks(s, n, &so, NULL, errs);
    if (!bl) return -1;
    json_t *bullets = json_array();
    int bad = 0;
    size_t i;
    json_t *b;
    json_array_foreach(bl, i, b)
    {
        const char *t = json_string_value(json_object_get(b, "type"));
        if (!strcmp(t, "list")) {
            json_array_extend(bullets, json_object_get(b, "items"));
        } else if (!strcmp(t, "paragraph") || !strcmp(t, "heading") || !strcmp(t, "quote")) {
            json_t *txt = json_object_get(b, "text");
            if (txt) {
                json_array_append(bullets, txt);
            } else {
                json_t *it = json_object();
                json_object_set(it, "runs", json_object_get(b, "runs"));
                json_array_append_new(bullets, it);
            }
        } else if (!strcmp(t, "code")) {
            const char *c = json_string_value(json_object_get(b, "text"));
            for (const char *p = c; p && *p;) {
                const char *e = strchr(p, '\n');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                json_t *it = json_object();
                json_t *run = json_object();
                json_object_set_new(run, "text", json_stringn(len ? p : " ", len ? len : 1));
                json_object_set_new(run, "code", json_true());
                json_object_set_new(it, "runs", json_pack("[o]", run));
                json_array_append_new(bullets, it);
                p = e ? e + 1 : p + len;
            }
        } else if (!strcmp(t, "table") || !strcmp(t, "image")) {
            if (json_object_get(slide, t)) {
                qr_errlist_addf(errs, QR_E_SPEC, o && o->path ? o->path : "",
                                "a slide holds one table and one image: split the slide",
                                "a second %s on one slide", t);
                bad = 1;
                continue;
            }
            json_t *x = json_deep_copy(b);
            json_object_del(x, "type");
            json_object_del(x, "align"); /* a slide table's columns take no alignment */
            json_object_set_new(slide, t, x);
        }
    }
    json_decref(bl);
    if (json_array_size(bullets))
        json_object_set_new(slide, "bullets", bullets);
    else
        json_decref(bullets);
    return bad || errs->count > before ? -1 : 0;
}

/* ---- files: front matter and decks -------------------------------------------------- */

/* Front matter: "---\nkey: value\n...\n---\n" at the very top. Sets *body
 * past it and *lines to the lines it took; keys into spec. */
static int front_matter(const char *s, size_t n, qr_kind kind, json_t *spec, size_t *body,
                        int *lines, qr_errlist *errs)
{
    *body = 0;
    *lines = 0;
    if (n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0) *body = 3; /* a byte order mark */
    const char *p = s + *body, *end = s + n;
    if (end - p < 4 || memcmp(p, "---", 3) != 0 || (p[3] != '\n' && p[3] != '\r')) return 0;
    const char *q = memchr(p, '\n', (size_t)(end - p));
    int line = 1;
    int bad = 0;
    while (q && q + 1 < end) {
        const char *l = q + 1;
        q = memchr(l, '\n', (size_t)(end - l));
        const char *le = q ? q : end;
        line++;
        size_t ll = (size_t)(le - l);
        if (ll && l[ll - 1] == '\r') ll--;
        if (ll == 3 && memcmp(l, "---", 3) == 0) {
            *body = q ? (size_t)(q + 1 - s) : n;
            *lines = line;
            return bad ? -1 : 0;
        }
        if (!ll || l[0] == '#') continue;
        const char *colon = memchr(l, ':', ll);
        if (!colon) {
            qr_errlist_addf(errs, QR_E_SPEC, "", "write front matter as key: value lines",
                            "front matter line %d is not \"key: value\"", line);
            bad = 1;
            continue;
        }
        size_t kl = (size_t)(colon - l);
        while (kl && isspace((unsigned char)l[kl - 1]))
            kl--;
        const char *v = colon + 1, *ve = l + ll;
        while (v < ve && isspace((unsigned char)*v))
            v++;
        while (ve > v && isspace((unsigned char)ve[-1]))
            ve--;
        if (ve - v >= 2 && (*v == '"' || *v == '\'') && ve[-1] == *v) v++, ve--;
        /* the spec's own fields, then the document's properties */
        static const char *const keys[] = {"title",   "lang",     "theme", "author",
                                           "subject", "keywords", "date",  NULL};
        int known = 0;
        for (size_t i = 0; keys[i]; i++) {
            if (strlen(keys[i]) != kl || memcmp(keys[i], l, kl) != 0) continue;
            known = 1;
            json_t *val = json_stringn(v, (size_t)(ve - v));
            if (i < 3) {
                json_object_set_new(spec, keys[i], val);
            } else if (kind == QR_KIND_PRESENTATION) {
                json_decref(val);
                qr_errlist_addf(errs, QR_E_SPEC, "",
                                "a deck's front matter keys are title, lang, theme",
                                "front matter key \"%s\" is a document property: a deck has "
                                "none (line %d)",
                                keys[i], line);
                bad = 1;
            } else {
                json_t *props = json_object_get(spec, "properties");
                if (!props) {
                    props = json_object();
                    json_object_set_new(spec, "properties", props);
                }
                json_object_set_new(props, keys[i], val);
            }
        }
        if (!known) {
            qr_errlist_addf(errs, QR_E_SPEC, "",
                            "the front matter keys are title, lang, theme, author, subject, "
                            "keywords, date",
                            "unknown front matter key \"%.*s\" (line %d)", (int)(kl > 40 ? 40 : kl),
                            l, line);
            bad = 1;
        }
    }
    qr_errlist_add(errs, QR_E_SPEC, "", "the front matter is unclosed",
                   "end the front matter with a line \"---\"");
    return -1;
}

/* Byte offset of the start of 1-based line `line` in s. */
static size_t line_off(const char *s, size_t n, int line)
{
    size_t i = 0;
    for (int l = 1; l < line && i < n; i++)
        if (s[i] == '\n') l++;
    return i;
}

/* A deck: slides split at level-1/2 headings and thematic breaks (top level). */
static json_t *deck_slides(const char *s, size_t n, int line0, qr_errlist *errs)
{
    json_t *slides = json_array();
    qr_md_opts o = {.line0 = line0};
    md m;
    md_init(&m, &o, errs);
    if (check_nul(&m, s, n) < 0 || table_budget(&m, s, n, 100000) < 0) {
        json_decref(slides);
        return NULL;
    }
    cmark_node *doc = parse(s, n);
    if (!doc) {
        json_decref(slides);
        return NULL;
    }
    /* cut points: (offset of the slide's body, title node or NULL) */
    json_t *slide = NULL;
    size_t body = 0;
    size_t notes_at = (size_t)-1;
    int n_lines_end = 0;
    for (cmark_node *c = cmark_node_first_child(doc);; c = c ? cmark_node_next(c) : NULL) {
        int cut = !c;
        cmark_node_type t = c ? cmark_node_get_type(c) : CMARK_NODE_NONE;
        if (c && t == CMARK_NODE_HEADING && cmark_node_get_heading_level(c) <= 2) cut = 1;
        if (c && t == CMARK_NODE_THEMATIC_BREAK) cut = 1;
        if (cut) {
            size_t end = c ? line_off(s, n, cmark_node_get_start_line(c)) : n;
            if (slide) {
                size_t bend = notes_at < end ? notes_at : end;
                if (bend > body) {
                    json_object_set_new(slide, "markdown", json_stringn(s + body, bend - body));
                }
                if (notes_at < end) {
                    size_t ne = end;
                    while (ne > notes_at && isspace((unsigned char)s[ne - 1]))
                        ne--;
                    const char *ns = s + notes_at + 5;
                    while (ns < s + ne && (*ns == ' ' || *ns == '\t'))
                        ns++;
                    json_object_set_new(slide, "notes", json_stringn(ns, (size_t)(s + ne - ns)));
                }
                const char *body_md = json_string_value(json_object_get(slide, "markdown"));
                int empty = 1;
                for (; body_md && *body_md; body_md++)
                    if (!isspace((unsigned char)*body_md)) empty = 0;
                if (empty) json_object_del(slide, "markdown");
                if (json_object_size(slide) || json_array_size(slides) || c)
                    json_array_append_new(slides, slide);
                else
                    json_decref(slide);
            }
            if (!c) break;
            slide = json_object();
            notes_at = (size_t)-1;
            if (t == CMARK_NODE_HEADING) {
                runs r;
                runs_init(&r);
                inlines(&m, c, &r, NULL, NULL);
                flush(&r);
                qr_buf all = {0};
                for (size_t i = 0; i < json_array_size(r.arr); i++) {
                    /* the title is plain: runs' text, footnote runs left out */
                    json_t *e = json_array_get(r.arr, i);
                    const char *tx = json_is_string(e)
                                         ? json_string_value(e)
                                         : json_string_value(json_object_get(e, "text"));
                    if (tx) qr_buf_puts(&all, tx);
                }
                if (all.len) json_object_set_new(slide, "title", json_stringn(all.data, all.len));
                qr_buf_free(&all);
                runs_free(&r);
            }
            body = line_off(s, n, cmark_node_get_end_line(c) + 1);
            if (body > n) body = n;
            n_lines_end = cmark_node_get_end_line(c);
            continue;
        }
        if (!slide) {
            /* text before the first heading: a slide of its own */
            slide = json_object();
            body = 0;
        }
        int col = cmark_node_get_start_column(c);
        if (t == CMARK_NODE_PARAGRAPH && notes_at == (size_t)-1 && col >= 1) {
            size_t off = line_off(s, n, cmark_node_get_start_line(c)) + (size_t)col - 1;
            if (off + 5 <= n && memcmp(s + off, "Note:", 5) == 0) notes_at = off;
        }
    }
    (void)n_lines_end;
    cmark_node_free(doc);
    return slides;
}

size_t qr_utf8_check(const char *s, size_t n); /* compile.c */

/* The JSON text of spec (its fields from the front matter) with
 * "blocks":[{"type":"markdown","text":T}] last, T being lines newlines and
 * then the body: the bytes json_dumps() writes for that object
 * (JSON_COMPACT | JSON_PRESERVE_ORDER; tests/unit/test_markdown.c compares
 * them), with the body escaped here in one pass instead of jansson's
 * character by character (51 M of D1md's 211 M instructions to check it).
 * The body is valid UTF-8 without NUL (qr_md_spec checked). Frees spec. */
static char *spec_with_body(json_t *spec, int lines, const char *b, size_t n, size_t *len,
                            qr_errlist *errs)
{
    json_malloc_t jm;
    json_free_t jf;
    json_get_alloc_funcs(&jm, &jf);
    char *j = json_dumps(spec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(spec);
    qr_buf txt = {0};
    size_t jn = j ? strlen(j) : 0;
    if (j && jn >= 2 && qr_buf_reserve(&txt, jn + n + n / 8 + (size_t)lines * 2 + 64)) {
        qr_buf_append(&txt, j, jn - 1); /* without its closing brace */
        if (jn > 2) qr_buf_putc(&txt, ',');
        qr_buf_puts(&txt, "\"blocks\":[{\"type\":\"markdown\",\"text\":\"");
        for (int i = 0; i < lines; i++)
            qr_buf_puts(&txt, "\\n");
        static const char short_esc[32] = {
            ['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't'};
        size_t from = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)b[i];
            if (c >= 0x20 && c != '"' && c != '\\') continue;
            qr_buf_append(&txt, b + from, i - from);
            from = i + 1;
            if (c == '"' || c == '\\') {
                char e[2] = {'\\', (char)c};
                qr_buf_append(&txt, e, 2);
            } else if (short_esc[c]) {
                char e[2] = {'\\', short_esc[c]};
                qr_buf_append(&txt, e, 2);
            } else {
                qr_buf_printf(&txt, "\\u%04X", (unsigned)c);
            }
        }
        qr_buf_append(&txt, b + from, n - from);
        qr_buf_puts(&txt, "\"}]}");
    } else {
        txt.oom = 1;
    }
    if (j) jf(j);
    if (txt.oom) {
        qr_buf_free(&txt);
        qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        return NULL;
    }
    return qr_buf_steal(&txt, len); /* qr_buf keeps a NUL after its bytes */
}

char *qr_md_spec(const char *s, size_t n, qr_kind kind, int expand, size_t *len, qr_errlist *errs)
{
    size_t bad = qr_utf8_check(s, n);
    if (bad != (size_t)-1) {
        int line = 1;
        size_t col = 1;
        for (size_t i = 0; i < bad; i++)
            s[i] == '\n' ? (line++, col = 1) : col++;
        qr_errlist_addf(errs, QR_E_UTF8, "", "save the Markdown as UTF-8",
                        "invalid UTF-8 (markdown line %d, column %zu)", line, col);
        return NULL;
    }
    qr_md_opts fo = {.path = ""};
    md fm;
    md_init(&fm, &fo, errs);
    if (check_nul(&fm, s, n) < 0) return NULL;
    json_t *spec = json_object();
    size_t body;
    int lines, whole = 0;
    size_t before = errs->count;
    front_matter(s, n, kind, spec, &body, &lines, errs);
    if (errs->count > before) {
        json_decref(spec);
        return NULL;
    }
    if (expand && kind != QR_KIND_PRESENTATION) {
        qr_md_opts o = {.line0 = lines, .path = "/blocks/0/text"};
        json_t *bl = qr_md_blocks(s + body, n - body, &o, NULL, errs);
        if (bl) json_object_set_new(spec, "blocks", bl);
    } else if (kind == QR_KIND_PRESENTATION) {
        json_t *slides = deck_slides(s + body, n - body, lines, errs);
        if (slides) json_object_set_new(spec, "slides", slides);
    } else if (json_object_get(spec, "blocks")) {
        /* (the front matter sets no blocks: kept for safety) */
        qr_buf t = {0};
        for (int i = 0; i < lines; i++)
            qr_buf_putc(&t, '\n');
        qr_buf_append(&t, s + body, n - body);
        json_t *blk = json_pack("{ss}", "type", "markdown");
        json_object_set_new(blk, "text", json_stringn(t.data ? t.data : "", t.len));
        qr_buf_free(&t);
        json_object_set_new(spec, "blocks", json_pack("[o]", blk));
    } else {
        /* The body keeps its line numbers: the front matter's lines become
         * blank lines, which Markdown ignores at the top. The one markdown
         * block is written after the front matter's fields below. */
        whole = 1;
    }
    if (errs->count > before) {
        json_decref(spec);
        return NULL;
    }
    if (whole) return spec_with_body(spec, lines, s + body, n - body, len, errs);
    /* jansson allocates through the compiler's hooks (json_alloc.c): the
     * caller gets plain malloc'd bytes */
    json_malloc_t jm;
    json_free_t jf;
    json_get_alloc_funcs(&jm, &jf);
    char *j = json_dumps(spec, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(spec);
    char *txt = j ? malloc(strlen(j) + 1) : NULL;
    if (!txt) {
        if (j) jf(j);
        qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        return NULL;
    }
    *len = strlen(j);
    memcpy(txt, j, *len + 1);
    jf(j);
    return txt;
}

/* ---- errors ----------------------------------------------------------------------- */

void qr_md_relocate(qr_errlist *l, size_t from, const char *path, qr_md_loc at)
{
    for (size_t i = from; i < l->count; i++) {
        qr_error *e = &l->items[i];
        if (strstr(e->message, "(markdown line ")) continue;
        char *p = strdup(path);
        size_t ml = strlen(e->message) + 64;
        char *msg = malloc(ml);
        if (!p || !msg) {
            free(p);
            free(msg);
            continue;
        }
        snprintf(msg, ml, "%s (markdown line %d, column %d)", e->message, at.line,
                 at.col ? at.col : 1);
        free(e->path);
        free(e->message);
        e->path = p;
        e->message = msg;
    }
}

int qr_md_is_path(const char *name)
{
    size_t n = strlen(name);
    return (n > 3 && strcasecmp(name + n - 3, ".md") == 0) ||
           (n > 9 && strcasecmp(name + n - 9, ".markdown") == 0);
}
