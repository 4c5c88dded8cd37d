/* pptx.c: a .pptx back into a presentation spec. Slides in presentation
 * order (p:sldIdLst); per slide the layout (from its slide layout's type),
 * the title and subtitle from their placeholders, bullets with levels from
 * the body, a table (a:tbl, header row from firstRow), a picture (data:
 * URI) and the speaker notes; 16:9 or 4:3 from the slide size. quire's own
 * quote, stats and closing slides come back by their text boxes' names
 * ("Quote", "Attribution", "Stat 2 Value", "Title (closing)"), as do the
 * two_content and comparison columns ("Left", "Right Heading"; a picture or
 * table goes to the column whose half of the slide holds its middle), the
 * image_full picture ("Picture (full)") and caption, and the agenda's
 * numbered items ("Agenda", the current one bold).
 *
 * Other decks get a best guess: a slide on PowerPoint's Two Content or
 * Comparison layout (twoObj, twoTxTwoObj) puts its placeholders in columns
 * by their idx (1 | 2; headings 1 and 3 over 2 | 4), a slide whose only
 * content is one picture covering the slide's width is image_full, and one
 * whose only text besides the title is a list numbered by buAutoNum is an
 * agenda. A column that comes back empty (a chart: charts are not read)
 * leaves the slide as title_content with what was read. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile.h"
#include "cnum.h"
#include "read_int.h"

typedef struct para {
    int lvl, no_bullet, right, num, bold;
    char *json; /* "text":... or "runs":[...] */
    char *plain;
    int is_plain;
} para;

typedef struct shape {
    char *ph;   /* placeholder type ("title", "body"...), "" for a placeholder without type */
    char *name; /* cNvPr name */
    int is_ph;
    int idx; /* p:ph idx, -1 when none */
    para *paras;
    size_t n, cap;
} shape;

/* A slide's furniture as quire writes it (boxes "Date", "Footer", "Slide
 * Number", the picture "Logo"), and where its object opens in the spec. */
typedef struct furn {
    qr_buf date, footer; /* JSON strings, empty when the slide has none */
    int number, logo;
    size_t open; /* the offset in r->spec just past the slide's '{' */
} furn;

typedef struct px {
    qr_rd *r;
    const char *part;
    qr_rd_rels rels;
    qr_buf *b;
    /* text being read */
    qr_rd_runs runs;
    qr_rd_run flags;
    int in_rpr, in_t, in_run;
    char *link;
    int lvl, no_bullet, right, num;
    shape sh;
    int in_sp, in_tbl;
    /* the slide's parts, as JSON members */
    qr_buf title, subtitle, bullets, table, image, chart;
    qr_buf extra; /* more tables and charts: members of slides of their own, '\x1f' apart */
    int n_extra_tables, n_extra_charts;
    qr_buf quote, attribution, stat[4][3]; /* plain JSON strings (quire's own boxes) */
    int n_stats, closing;
    /* two_content, comparison, image_full, agenda */
    int two;                            /* the layout's type: 1 twoObj, 2 twoTxTwoObj */
    int named_cols;                     /* quire's "Left", "Right" boxes seen */
    qr_buf col_head[2], col_bullets[2]; /* a column's "heading" string and bullet items */
    int col_n[2];
    qr_buf caption, items;
    int n_items, current, full, numbered, other_text;
    struct rvis {
        qr_buf json;   /* the image or table object */
        int table;     /* 0: a picture */
        long long mid; /* its middle, EMU from the left (-1: unknown) */
        int idx;       /* its placeholder's idx, -1 when none */
        long long cx;
    } vis[8];
    int n_vis;
    long long off_x, ext_cx, sw; /* the shape's a:off x and a:ext cx; the slide width */
    int vis_idx;                 /* a picture's or frame's p:ph idx */
    char *pic_name;
    qr_buf *logo; /* the deck's logo (quire's picture "Logo" on any slide), read once */
    furn *furn;   /* this slide's furniture */
    int in_bg;    /* in p:bg: a ground picture is not slide content */
    qr_buf pend;  /* the picture being read: pushed at its end (its a:xfrm follows the blip) */
    int n_bullets;
    int n_shapes; /* text shapes seen */
    /* table */
    qr_buf rows;
    qr_buf row;
    int n_rows, n_cells, first_row, header_done;
    double grid[64];
    int n_grid;
    qr_rd_runs cell;
    int cell_right, cell_paras;
    char *alt;
} px;

static void shape_reset(shape *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->paras[i].json);
        free(s->paras[i].plain);
    }
    s->n = 0;
    xmlFree(s->ph);
    xmlFree(s->name);
    s->ph = s->name = NULL;
    s->is_ph = 0;
    s->idx = -1;
}

static void end_para(px *p)
{
    if (p->in_tbl) {
        if (p->cell_paras++ && !qr_rd_runs_empty(&p->runs)) {
            qr_rd_run plain = {0};
            qr_rd_runs_add(&p->cell, "\n", 1, &plain);
        }
        for (size_t i = 0; i < p->runs.n; i++)
            qr_rd_runs_add(&p->cell, p->runs.items[i].text.data, p->runs.items[i].text.len,
                           &p->runs.items[i]);
        if (p->right) p->cell_right = 1;
        qr_rd_runs_reset(&p->runs);
        return;
    }
    shape *s = &p->sh;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        para *np = realloc(s->paras, cap * sizeof *np);
        if (!np) return;
        s->paras = np;
        s->cap = cap;
    }
    para *pa = &s->paras[s->n++];
    pa->lvl = p->lvl;
    pa->no_bullet = p->no_bullet;
    pa->right = p->right;
    pa->num = p->num;
    pa->bold = p->runs.n > 0;
    for (size_t i = 0; i < p->runs.n; i++)
        if (!p->runs.items[i].bold && p->runs.items[i].text.len) pa->bold = 0;
    qr_buf j = {0}, t = {0};
    qr_rd_runs_json(&p->runs, &j);
    qr_rd_runs_plain(&p->runs, &t);
    pa->json = j.data ? j.data : strdup("\"text\":\"\"");
    pa->plain = t.data ? t.data : strdup("");
    pa->is_plain = strncmp(pa->json, "\"text\":", 7) == 0;
    qr_rd_runs_reset(&p->runs);
}

/* Bullets from paragraphs from index i on, nested by level. */
static void emit_bullets(px *p, size_t *i, int level, qr_buf *b, size_t end)
{
    int first = 1;
    shape *s = &p->sh;
    while (*i < end && s->paras[*i].lvl >= level) {
        para *pa = &s->paras[*i];
        (*i)++;
        if (!*pa->plain) continue;
        if (!first) qr_buf_putc(b, ',');
        first = 0;
        int kids = *i < end && s->paras[*i].lvl > pa->lvl;
        if (pa->is_plain && !kids) {
            qr_buf_puts(b, pa->json + 7);
            continue;
        }
        qr_buf_putc(b, '{');
        qr_buf_puts(b, pa->json);
        if (kids) {
            qr_buf_puts(b, ",\"items\":[");
            emit_bullets(p, i, s->paras[*i].lvl, b, end);
            qr_buf_putc(b, ']');
        }
        qr_buf_putc(b, '}');
    }
}

static void bullets_into(px *p, size_t from, qr_buf *out, int *n)
{
    shape *s = &p->sh;
    size_t i = from;
    while (i < s->n) {
        size_t before = out->len;
        if (*n) qr_buf_putc(out, ',');
        size_t mark = out->len;
        emit_bullets(p, &i, s->paras[i].lvl, out, s->n);
        if (out->len == mark) {
            out->len = before; /* only empty paragraphs: no comma left behind */
            if (out->data) out->data[before] = '\0';
        } else
            *n = 1;
    }
}

static void add_bullets(px *p, size_t from)
{
    bullets_into(p, from, &p->bullets, &p->n_bullets);
}

/* The agenda's items: one plain string per paragraph; the bold one is the
 * current item. */
static void agenda_items(px *p, const shape *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (!*s->paras[i].plain) continue;
        if (s->paras[i].bold && p->current < 0) p->current = p->n_items;
        if (p->n_items++) qr_buf_putc(&p->items, ',');
        qr_buf_json_str(&p->items, s->paras[i].plain, strlen(s->paras[i].plain), 0);
    }
}

/* The column (0 left, 1 right) a placeholder of PowerPoint's Two Content
 * (idx 1, 2) or Comparison (headings 1, 3 over 2, 4) layout stands for;
 * *heading set for a comparison heading. -1 when none. */
static int ph_column(const px *p, int idx, int *heading)
{
    *heading = 0;
    if (p->two == 1 && (idx == 1 || idx == 2)) return idx - 1;
    if (p->two == 2 && idx >= 1 && idx <= 4) {
        *heading = idx % 2;
        return (idx - 1) / 2;
    }
    return -1;
}

/* The text of a named box as a JSON string, paragraphs joined by newlines. */
static void box_text(const shape *s, qr_buf *out)
{
    qr_buf t = {0};
    for (size_t i = 0; i < s->n; i++) {
        if (i) qr_buf_putc(&t, '\n');
        qr_buf_puts(&t, s->paras[i].plain);
    }
    if (!out->len) qr_buf_json_str(out, t.data ? t.data : "", t.len, 0);
    qr_buf_free(&t);
}

/* quire's own text boxes of the quote and stats layouts: 1 when s is one. */
static int named_box(px *p, const shape *s)
{
    static const char *const part[3] = {"Value", "Label", "Caption"};
    if (s->is_ph || !s->name) return 0;
    if (strcmp(s->name, "Title (closing)") == 0) p->closing = 1;
    /* the furniture is the deck's, not the slide's content */
    if (strcmp(s->name, "Date") == 0) return box_text(s, &p->furn->date), 1;
    if (strcmp(s->name, "Footer") == 0) return box_text(s, &p->furn->footer), 1;
    if (strcmp(s->name, "Slide Number") == 0) return p->furn->number = 1, 1;
    int col = strcmp(s->name, "Left") == 0 ? 0 : strcmp(s->name, "Right") == 0 ? 1 : -1;
    if (col >= 0) {
        p->named_cols = 1;
        bullets_into(p, 0, &p->col_bullets[col], &p->col_n[col]);
        return 1;
    }
    col = strcmp(s->name, "Left Heading") == 0 ? 0 : strcmp(s->name, "Right Heading") == 0 ? 1 : -1;
    if (col >= 0) {
        p->named_cols = 1;
        box_text(s, &p->col_head[col]);
        return 1;
    }
    if (strcmp(s->name, "Caption") == 0) {
        box_text(s, &p->caption);
        return 1;
    }
    if (strcmp(s->name, "Agenda") == 0) {
        p->numbered = 1;
        agenda_items(p, s);
        return 1;
    }
    if (strcmp(s->name, "Quote") == 0) {
        box_text(s, &p->quote);
        return 1;
    }
    if (strcmp(s->name, "Attribution") == 0) {
        box_text(s, &p->attribution);
        return 1;
    }
    int k;
    char which[16];
    if (sscanf(s->name, "Stat %d %15s", &k, which) == 2 && k >= 1 && k <= 4) {
        for (int j = 0; j < 3; j++) {
            if (strcmp(which, part[j]) != 0) continue;
            box_text(s, &p->stat[k - 1][j]);
            if (k > p->n_stats) p->n_stats = k;
            return 1;
        }
    }
    return 0;
}

static void end_shape(px *p)
{
    shape *s = &p->sh;
    if (named_box(p, s)) {
        p->n_shapes++;
        shape_reset(s);
        return;
    }
    const char *ph = s->ph ? s->ph : "";
    int heading, col = s->is_ph ? ph_column(p, s->idx, &heading) : -1;
    if (col >= 0 && strcmp(ph, "title") != 0) { /* a foreign deck's column placeholder */
        if (heading)
            box_text(s, &p->col_head[col]);
        else
            bullets_into(p, 0, &p->col_bullets[col], &p->col_n[col]);
        if (s->n) p->n_shapes++;
        shape_reset(s);
        return;
    }
    int title = s->is_ph ? (strcmp(ph, "title") == 0 || strcmp(ph, "ctrTitle") == 0)
                         : (s->name && strncmp(s->name, "Title", 5) == 0);
    /* Decks drawn with text boxes only (pptxgenjs, say): the first box, one
     * paragraph without a bullet, is the title ("Content" is quire's body box). */
    if (!s->is_ph && !title && p->n_shapes == 0 && !p->title.len && s->n == 1 &&
        s->paras[0].no_bullet && !(s->name && strcmp(s->name, "Content") == 0))
        title = 1;
    if (s->n) p->n_shapes++;
    if (title && !p->title.len) {
        /* Title paragraphs join with a newline. */
        qr_rd_runs all = {0};
        qr_buf_puts(&p->title, "");
        qr_buf t = {0};
        for (size_t i = 0; i < s->n; i++) {
            if (i) qr_buf_putc(&t, '\n');
            qr_buf_puts(&t, s->paras[i].plain);
        }
        if (t.len) {
            qr_buf_puts(&p->title, "\"text\":");
            qr_buf_json_str(&p->title, t.data, t.len, 0);
        }
        qr_buf_free(&t);
        qr_rd_runs_free(&all);
    } else if (strcmp(ph, "subTitle") == 0) {
        qr_buf t = {0};
        for (size_t i = 0; i < s->n; i++) {
            if (i) qr_buf_putc(&t, '\n');
            qr_buf_puts(&t, s->paras[i].plain);
        }
        if (t.len && !p->subtitle.len)
            qr_buf_puts(&p->subtitle, "\"text\":"), qr_buf_json_str(&p->subtitle, t.data, t.len, 0);
        qr_buf_free(&t);
    } else if (!title && s->n) {
        size_t from = 0;
        /* A first paragraph without a bullet, before bulleted ones, is the subtitle. */
        if (s->paras[0].no_bullet && !p->subtitle.len && *s->paras[0].plain) {
            qr_buf_puts(&p->subtitle, "\"text\":");
            qr_buf_json_str(&p->subtitle, s->paras[0].plain, strlen(s->paras[0].plain), 0);
            from = 1;
        }
        /* a body of numbered paragraphs only (buAutoNum): maybe an agenda */
        int all_num = 1;
        for (size_t i = from; i < s->n; i++)
            if (*s->paras[i].plain && (!s->paras[i].num || s->paras[i].lvl)) all_num = 0;
        if (all_num && !p->numbered && !p->n_bullets && from == 0) {
            p->numbered = 2; /* a guess: kept as bullets unless nothing else is on the slide */
            agenda_items(p, s);
        }
        add_bullets(p, from);
        if (!all_num) p->other_text = 1;
    }
    shape_reset(s);
}

/* A picture or table of the slide, with where it sits. */
static void push_vis(px *p, qr_buf *json, int table)
{
    if (p->n_vis == 8) {
        qr_buf_free(json);
        return;
    }
    struct rvis *v = &p->vis[p->n_vis++];
    v->json = *json;
    memset(json, 0, sizeof *json);
    v->table = table;
    v->mid = p->ext_cx >= 0 && p->off_x >= 0 ? p->off_x + p->ext_cx / 2 : -1;
    v->cx = p->ext_cx;
    v->idx = p->vis_idx;
}

/* Whether s is the shortest round-trip form of v: only then is a cell a
 * number, so that its text reads unchanged. */
static int shortest(const char *s, double v)
{
    char num[32];
    qr_fmt_double(v, num);
    return strcmp(num, s) == 0;
}

static char *cell_json(px *p, int header)
{
    qr_buf b = {0}, t = {0};
    qr_rd_runs_plain(&p->cell, &t);
    int plain = 1;
    for (size_t i = 0; i < p->cell.n; i++) {
        const qr_rd_run *x = &p->cell.items[i];
        if ((x->bold && !header) || x->italic || x->underline || x->strike || x->code || x->sup ||
            x->sub || x->link)
            plain = 0;
    }
    char *end = NULL;
    double v = t.len ? qr_strtod_c(t.data, &end) : 0;
    if (!t.len) {
        qr_buf_puts(&b, "null");
    } else if (p->cell_right && end && !*end && isfinite(v) && shortest(t.data, v)) {
        qr_buf_puts(&b, t.data);
    } else if (plain) {
        qr_buf_json_str(&b, t.data, t.len, 0);
    } else {
        qr_rd_runs copy = {0};
        for (size_t i = 0; i < p->cell.n; i++) {
            qr_rd_run f = p->cell.items[i];
            if (header) f.bold = 0;
            qr_rd_runs_add(&copy, f.text.data, f.text.len, &f);
        }
        qr_buf_putc(&b, '{');
        qr_rd_runs_json(&copy, &b);
        qr_buf_putc(&b, '}');
        qr_rd_runs_free(&copy);
    }
    qr_buf_free(&t);
    return b.data ? b.data : strdup("null");
}

/* A second table or chart on a slide: the spec's slide holds one of each,
 * so it goes onto a slide of its own after this one (same title). */
static void add_extra(px *p, const char *key, const qr_buf *obj)
{
    if (p->extra.len) qr_buf_putc(&p->extra, '\x1f');
    qr_buf_printf(&p->extra, "\"%s\":", key);
    qr_buf_append(&p->extra, obj->data, obj->len);
}

static void add_chart(px *p, const char *rid)
{
    const qr_rd_rel *rel = qr_rd_rels_get(&p->rels, rid);
    if (!rel || rel->external || !qr_rd_zip_has(p->r, rel->target)) return;
    qr_buf c = {0};
    if (qr_rd_chart(p->r, rel->target, p->alt, 0, &c) == QR_OK && c.len) {
        if (!p->chart.len) {
            qr_buf_append(&p->chart, c.data, c.len);
        } else {
            add_extra(p, "chart", &c);
            p->n_extra_charts++;
        }
    }
    qr_buf_free(&c);
}

static void element(px *p, xmlTextReaderPtr x, int empty)
{
    if (qr_rd_is(x, "sp")) {
        shape_reset(&p->sh);
        p->in_sp = 1;
    } else if (qr_rd_is(x, "pic") || qr_rd_is(x, "graphicFrame")) {
        p->vis_idx = -1;
        p->off_x = p->ext_cx = -1;
        xmlFree(p->pic_name);
        p->pic_name = NULL;
    } else if (qr_rd_is(x, "off") && !p->in_tbl) {
        p->off_x = qr_rd_attr_long(x, "x", -1);
    } else if (qr_rd_is(x, "ext") && !p->in_tbl) {
        long long cx = qr_rd_attr_long(x, "cx", -1);
        if (cx >= 0) p->ext_cx = cx;
    } else if (qr_rd_is(x, "cNvPr")) {
        if (!p->in_sp) {
            xmlFree(p->pic_name);
            p->pic_name = qr_rd_attr(x, "name");
        }
        if (p->in_sp && !p->sh.name) p->sh.name = qr_rd_attr(x, "name");
        xmlFree(p->alt);
        p->alt = qr_rd_attr(x, "descr");
    } else if (qr_rd_is(x, "ph") && !p->in_sp) {
        p->vis_idx = (int)qr_rd_attr_long(x, "idx", -1);
    } else if (qr_rd_is(x, "ph") && p->in_sp) {
        p->sh.is_ph = 1;
        p->sh.idx = (int)qr_rd_attr_long(x, "idx", -1);
        xmlFree(p->sh.ph);
        p->sh.ph = qr_rd_attr(x, "type");
        if (!p->sh.ph) p->sh.ph = (char *)xmlStrdup((const xmlChar *)"body");
    } else if (qr_rd_is(x, "p")) {
        qr_rd_runs_reset(&p->runs);
        p->lvl = 0;
        p->no_bullet = 0;
        p->right = 0;
        p->num = 0;
        if (empty) end_para(p);
    } else if (qr_rd_is(x, "pPr")) {
        p->lvl = (int)qr_rd_attr_long(x, "lvl", 0);
        char *al = qr_rd_attr(x, "algn");
        p->right = al && strcmp(al, "r") == 0;
        xmlFree(al);
    } else if (qr_rd_is(x, "buNone")) {
        p->no_bullet = 1;
    } else if (qr_rd_is(x, "buAutoNum")) {
        p->num = 1;
    } else if (qr_rd_is(x, "r") || qr_rd_is(x, "fld")) {
        memset(&p->flags, 0, sizeof p->flags);
        p->link = NULL;
        p->in_run = !empty;
    } else if (p->in_run && qr_rd_is(x, "rPr")) {
        p->flags.bold = qr_rd_attr_long(x, "b", 0) == 1;
        p->flags.italic = qr_rd_attr_long(x, "i", 0) == 1;
        char *u = qr_rd_attr(x, "u");
        p->flags.underline = u && strcmp(u, "none") != 0;
        xmlFree(u);
        char *s = qr_rd_attr(x, "strike");
        p->flags.strike = s && strcmp(s, "noStrike") != 0;
        xmlFree(s);
        long base = qr_rd_attr_long(x, "baseline", 0);
        p->flags.sup = base > 0;
        p->flags.sub = base < 0;
        p->in_rpr = !empty;
    } else if (p->in_rpr && qr_rd_is(x, "latin")) {
        char *f = qr_rd_attr(x, "typeface");
        if (qr_rd_mono_font(f)) p->flags.code = 1;
        xmlFree(f);
    } else if (p->in_rpr && qr_rd_is(x, "hlinkClick")) {
        char *rid = qr_rd_attr(x, "id");
        const qr_rd_rel *rel = qr_rd_rels_get(&p->rels, rid);
        p->link = rel && rel->external && qr_link_ok(rel->target) ? rel->target : NULL;
        xmlFree(rid);
    } else if (p->in_run && qr_rd_is(x, "t")) {
        p->in_t = !empty;
    } else if (qr_rd_is(x, "br")) {
        qr_rd_run f = {0};
        qr_rd_runs_add(&p->runs, "\n", 1, &f);
    } else if (qr_rd_is(x, "tbl")) {
        p->in_tbl = 1;
        p->rows.len = 0;
        p->n_rows = 0;
        p->n_grid = 0;
        p->first_row = (int)qr_rd_attr_long(x, "firstRow", 0);
    } else if (p->in_tbl && qr_rd_is(x, "tblPr")) {
        char *fr = qr_rd_attr(x, "firstRow");
        p->first_row = fr && (strcmp(fr, "1") == 0 || strcmp(fr, "true") == 0);
        xmlFree(fr);
    } else if (p->in_tbl && qr_rd_is(x, "gridCol")) {
        if (p->n_grid < 64) p->grid[p->n_grid++] = (double)qr_rd_attr_long(x, "w", 0);
    } else if (p->in_tbl && qr_rd_is(x, "tr")) {
        p->row.len = 0;
        p->n_cells = 0;
    } else if (p->in_tbl && qr_rd_is(x, "tc")) {
        qr_rd_runs_reset(&p->cell);
        p->cell_right = 0;
        p->cell_paras = 0;
    } else if (qr_rd_is(x, "relIds") && !p->in_sp) {
        /* SmartArt: its words as bullets after the slide's others */
        char *rid = qr_rd_attr(x, "dm");
        const qr_rd_rel *rel = rid ? qr_rd_rels_get(&p->rels, rid) : NULL;
        if (rel && !rel->external && qr_rd_zip_has(p->r, rel->target)) {
            int n = 0;
            size_t mark = p->bullets.len;
            if (qr_rd_smartart(p->r, rel->target, &p->bullets, !p->n_bullets, &n) == QR_OK && n)
                p->n_bullets = 1;
            else if ((p->bullets.len = mark) && p->bullets.data)
                p->bullets.data[mark] = '\0';
        }
        xmlFree(rid);
    } else if (qr_rd_is(x, "chart") && !p->in_sp) {
        char *rid = qr_rd_attr(x, "id");
        if (rid) add_chart(p, rid);
        xmlFree(rid);
    } else if (qr_rd_is(x, "bg")) {
        p->in_bg = !empty;
    } else if (qr_rd_is(x, "blip") && !p->in_bg) {
        char *rid = qr_rd_attr(x, "embed");
        const qr_rd_rel *rel = qr_rd_rels_get(&p->rels, rid);
        xmlFree(rid);
        if (rel && !rel->external) {
            qr_buf img = {0}, j = {0};
            if (qr_rd_image_uri(p->r, rel->target, &img)) {
                qr_buf_puts(&j, "{\"type\":\"image\",\"src\":");
                qr_buf_append(&j, img.data, img.len);
                if (p->alt && *p->alt) {
                    qr_buf_puts(&j, ",\"alt\":");
                    qr_buf_json_str(&j, p->alt, strlen(p->alt), 0);
                }
                qr_buf_putc(&j, '}');
                if (p->pic_name && strcmp(p->pic_name, "Picture (full)") == 0) p->full = 1;
                if (p->pic_name && strcmp(p->pic_name, "Logo") == 0) {
                    p->furn->logo = 1;
                    if (p->logo && !p->logo->len) *p->logo = j, memset(&j, 0, sizeof j);
                } else if (!p->pend.len) {
                    p->pend = j, memset(&j, 0, sizeof j);
                }
            }
            qr_buf_free(&img);
            qr_buf_free(&j);
        }
    }
}

static void end_table(px *p)
{
    p->in_tbl = 0;
    if (!p->n_rows) return;
    qr_buf tb = {0}, *b = &tb;
    qr_buf_puts(b, "{\"type\":\"table\"");
    /* p->rows holds "[..]" rows separated by ','; the first is the header when firstRow. */
    const char *rows = p->rows.data;
    if (p->first_row) {
        const char *sep = strchr(rows, '\x1f');
        qr_buf_puts(b, ",\"headers\":");
        qr_buf_append(b, rows, sep ? (size_t)(sep - rows) : strlen(rows));
        rows = sep ? sep + 1 : "";
    }
    qr_buf_puts(b, ",\"rows\":[");
    for (const char *s = rows; *s; s++)
        qr_buf_putc(b, *s == '\x1f' ? ',' : *s);
    qr_buf_putc(b, ']');
    int even = 1;
    double min = 0;
    for (int i = 0; i < p->n_grid; i++) {
        if (fabs(p->grid[i] - p->grid[0]) > 2 * 12700) even = 0;
        if (p->grid[i] > 0 && (min == 0 || p->grid[i] < min)) min = p->grid[i];
    }
    if (!even && min > 0) qr_rd_put_widths(b, p->grid, (size_t)p->n_grid, min);
    qr_buf_putc(b, '}');
    push_vis(p, &tb, 1);
}

static void end_element(px *p, xmlTextReaderPtr x)
{
    if (qr_rd_is(x, "p")) {
        end_para(p);
    } else if (qr_rd_is(x, "sp")) {
        end_shape(p);
        p->in_sp = 0;
    } else if (qr_rd_is(x, "r") || qr_rd_is(x, "fld")) {
        p->in_run = 0;
    } else if (qr_rd_is(x, "rPr")) {
        p->in_rpr = 0;
    } else if (qr_rd_is(x, "t")) {
        p->in_t = 0;
    } else if (p->in_tbl && qr_rd_is(x, "tc")) {
        int header = p->first_row && p->n_rows == 0;
        char *j = cell_json(p, header);
        qr_buf_puts(&p->row, p->n_cells++ ? "," : "");
        qr_buf_puts(&p->row, j);
        free(j);
    } else if (p->in_tbl && qr_rd_is(x, "tr")) {
        if (p->n_rows++) qr_buf_putc(&p->rows, '\x1f');
        qr_buf_putc(&p->rows, '[');
        qr_buf_append(&p->rows, p->row.data ? p->row.data : "", p->row.len);
        qr_buf_putc(&p->rows, ']');
    } else if (qr_rd_is(x, "bg")) {
        p->in_bg = 0;
    } else if (qr_rd_is(x, "tbl")) {
        end_table(p);
    } else if (qr_rd_is(x, "pic") && p->pend.len) {
        push_vis(p, &p->pend, 0);
    }
}

static qr_status read_part(px *p, const char *part)
{
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(p->r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(p->r, data, len, part);
    while (x && qr_rd_xml_next(p->r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            if (qr_rd_is(x, "Fallback") && !xmlTextReaderIsEmptyElement(x)) {
                xmlTextReaderNext(x); /* the twin of alternate content */
                type = xmlTextReaderNodeType(x);
                if (type == XML_READER_TYPE_END_ELEMENT)
                    end_element(p, x);
                else if (type == XML_READER_TYPE_ELEMENT)
                    element(p, x, xmlTextReaderIsEmptyElement(x));
                continue;
            }
            element(p, x, xmlTextReaderIsEmptyElement(x));
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            end_element(p, x);
        } else if (p->in_t && (type == XML_READER_TYPE_TEXT ||
                               type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE ||
                               type == XML_READER_TYPE_WHITESPACE)) {
            const char *s = (const char *)xmlTextReaderConstValue(x);
            qr_rd_run f = p->flags;
            f.link = p->link;
            if (s) qr_rd_runs_add(&p->runs, s, strlen(s), &f);
        }
    }
    st = qr_rd_xml_free(p->r, x);
    free(data);
    return st;
}

/* The text of the notes placeholder, paragraphs joined by newlines. */
static void read_notes(px *p, const char *part, qr_buf *out)
{
    px n;
    memset(&n, 0, sizeof n);
    n.r = p->r;
    if (qr_rd_rels_read(p->r, part, &n.rels) != QR_OK) return;
    char *data;
    size_t len;
    if (qr_rd_zip_read(p->r, part, &data, &len) != QR_OK) {
        qr_rd_rels_free(&n.rels);
        return;
    }
    xmlTextReaderPtr x = qr_rd_xml_mem(p->r, data, len, part);
    int in_body = 0, in_t = 0, paras = 0, sp_body = 0;
    while (x && qr_rd_xml_next(p->r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            if (qr_rd_is(x, "sp"))
                sp_body = 0, in_body = 1;
            else if (qr_rd_is(x, "ph")) {
                char *t = qr_rd_attr(x, "type");
                sp_body = t && strcmp(t, "body") == 0;
                xmlFree(t);
            } else if (qr_rd_is(x, "p") && in_body && sp_body) {
                if (paras++) qr_buf_putc(out, '\n');
            } else if (qr_rd_is(x, "t") && sp_body) {
                in_t = !xmlTextReaderIsEmptyElement(x);
            } else if (qr_rd_is(x, "br") && sp_body) {
                qr_buf_putc(out, '\n');
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "t")) in_t = 0;
            if (qr_rd_is(x, "sp")) in_body = sp_body = 0;
        } else if (in_t) {
            const char *s = (const char *)xmlTextReaderConstValue(x);
            if (s) qr_buf_puts(out, s);
        }
    }
    qr_rd_xml_free(p->r, x);
    free(data);
    qr_rd_rels_free(&n.rels);
    /* Trailing empty paragraphs say nothing. */
    while (out->len && out->data[out->len - 1] == '\n')
        out->data[--out->len] = '\0';
}

static const char *layout_of(px *p)
{
    const qr_rd_rel *rel = qr_rd_rels_type(&p->rels, "/slideLayout");
    if (!rel || !qr_rd_zip_has(p->r, rel->target)) return NULL;
    char *data;
    size_t len;
    if (qr_rd_zip_read(p->r, rel->target, &data, &len) != QR_OK) return NULL;
    xmlTextReaderPtr x = qr_rd_xml_mem(p->r, data, len, rel->target);
    const char *layout = NULL;
    while (x && qr_rd_xml_next(p->r, x, rel->target) == 1) {
        if (xmlTextReaderNodeType(x) != XML_READER_TYPE_ELEMENT) continue;
        if (qr_rd_is(x, "sldLayout")) {
            char *t = qr_rd_attr(x, "type");
            if (t && strcmp(t, "title") == 0)
                layout = "title";
            else if (t && strcmp(t, "secHead") == 0)
                layout = "section";
            else if (t && strcmp(t, "blank") == 0)
                layout = "blank";
            else if (t && strcmp(t, "twoObj") == 0)
                p->two = 1;
            else if (t && strcmp(t, "twoTxTwoObj") == 0)
                p->two = 2;
            xmlFree(t);
        }
        break;
    }
    qr_rd_xml_free(p->r, x);
    free(data);
    return layout;
}

static void member(qr_buf *b, int *comma, const char *key)
{
    if (*comma) qr_buf_putc(b, ',');
    *comma = 1;
    qr_buf_puts(b, key);
}

/* A column's object: its heading, then its bullets, picture or table. */
static void put_column(qr_buf *b, px *p, int k, const struct rvis *v, int heading)
{
    qr_buf_putc(b, '{');
    int c = 0;
    if (heading)
        member(b, &c, "\"heading\":"),
            qr_buf_puts(b, p->col_head[k].len ? p->col_head[k].data : "\"\"");
    if (p->col_n[k])
        member(b, &c, "\"bullets\":["), qr_buf_puts(b, p->col_bullets[k].data), qr_buf_putc(b, ']');
    else if (v)
        member(b, &c, v->table ? "\"table\":" : "\"image\":"), qr_buf_puts(b, v->json.data);
    qr_buf_putc(b, '}');
}

/* A slide's own ground (p:bg/p:bgPr, before its shapes): a solid colour as
 * "#RRGGBB", a picture as {"src": data URI}, appended to out as JSON;
 * nothing for a theme reference (p:bgRef), a gradient or a pattern. */
typedef struct ground_walk {
    int in_bgpr, solid, done;
    char *rid;
    char rgb[8];
} ground_walk;

static int ground_element(xmlTextReaderPtr x, void *arg)
{
    ground_walk *g = arg;
    if (qr_rd_is(x, "spTree")) return 1; /* p:bg comes first */
    if (qr_rd_is(x, "bgPr")) {
        g->in_bgpr = 1;
    } else if (!g->in_bgpr || g->done) {
        return 0;
    } else if (qr_rd_is(x, "solidFill")) {
        g->solid = 1;
    } else if (qr_rd_is(x, "srgbClr") && g->solid) {
        char *v = qr_rd_attr(x, "val");
        if (v && strlen(v) == 6 && strspn(v, "0123456789abcdefABCDEF") == 6) {
            g->rgb[0] = '#';
            for (int i = 0; i < 6; i++)
                g->rgb[i + 1] = (char)toupper((unsigned char)v[i]);
            g->rgb[7] = '\0';
        }
        xmlFree(v);
        g->done = 1;
    } else if (qr_rd_is(x, "blip")) {
        g->rid = qr_rd_attr(x, "embed");
        g->done = 1;
    } else if (qr_rd_is(x, "gradFill") || qr_rd_is(x, "pattFill") || qr_rd_is(x, "schemeClr")) {
        g->done = 1;
    }
    return 0;
}

static qr_status slide_ground(qr_rd *r, const char *part, qr_buf *out)
{
    ground_walk g = {0};
    qr_status st = qr_rd_part_elements(r, part, ground_element, &g);
    if (st == QR_OK && g.rgb[0]) {
        qr_buf_printf(out, "\"%s\"", g.rgb);
    } else if (st == QR_OK && g.rid) {
        qr_rd_rels rels;
        if (qr_rd_rels_read(r, part, &rels) == QR_OK) {
            const qr_rd_rel *rel = qr_rd_rels_get(&rels, g.rid);
            qr_buf img = {0};
            if (rel && !rel->external && qr_rd_image_uri(r, rel->target, &img)) {
                qr_buf_puts(out, "{\"src\":");
                qr_buf_append(out, img.data, img.len);
                qr_buf_putc(out, '}');
            }
            qr_buf_free(&img);
            qr_rd_rels_free(&rels);
        }
    }
    xmlFree(g.rid);
    return st;
}

static qr_status read_slide(qr_rd *r, const char *part, int first, long long sw, qr_buf *logo,
                            const char *ground, furn *f)
{
    px p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.part = part;
    p.sw = sw;
    p.logo = logo;
    p.furn = f;
    p.current = -1;
    p.sh.idx = -1;
    qr_status st = qr_rd_rels_read(r, part, &p.rels);
    const char *layout = st == QR_OK ? layout_of(&p) : NULL;
    if (st == QR_OK) st = read_part(&p, part);
    qr_buf notes = {0};
    const qr_rd_rel *nr = qr_rd_rels_type(&p.rels, "/notesSlide");
    if (st == QR_OK && nr && qr_rd_zip_has(r, nr->target)) read_notes(&p, nr->target, &notes);
    if (r->errs->count) st = r->errs->items[0].code;
    /* the columns: each column's picture or table (by idx, else by its middle) */
    const struct rvis *cv[2] = {NULL, NULL};
    int used[8] = {0};
    for (int i = 0; i < p.n_vis; i++) {
        int heading, k = ph_column(&p, p.vis[i].idx, &heading);
        if (k < 0 && p.vis[i].mid >= 0 && sw > 0) k = p.vis[i].mid >= sw / 2;
        if (k >= 0 && !heading && !cv[k] && !p.col_n[k]) cv[k] = &p.vis[i], used[i] = 1;
    }
    int cols = (p.named_cols || p.two ||
                (layout && strcmp(layout, "blank") == 0 && p.n_vis == 2 && cv[0] && cv[1])) &&
               !p.n_bullets && !p.subtitle.len && !p.full;
    for (int k = 0; k < 2; k++)
        if (!p.col_n[k] && !cv[k]) cols = 0; /* an empty column (a chart): title_content */
    if (!cols) {
        /* what the columns held goes to the slide: bullets, the first picture and table */
        memset(used, 0, sizeof used);
        for (int k = 0; k < 2; k++) {
            if (p.col_head[k].len) {
                /* a heading reads as a bullet of its own */
                if (p.n_bullets++) qr_buf_putc(&p.bullets, ',');
                qr_buf_puts(&p.bullets, p.col_head[k].data);
            }
            if (p.col_n[k]) {
                if (p.n_bullets++) qr_buf_putc(&p.bullets, ',');
                qr_buf_puts(&p.bullets, p.col_bullets[k].data);
            }
        }
        if (p.col_n[0] || p.col_n[1] || p.col_head[0].len || p.col_head[1].len) layout = NULL;
    }
    /* image_full: quire's picture, or one picture across the slide and no other content */
    const struct rvis *full = NULL;
    if (!cols && p.n_vis == 1 && !p.vis[0].table && !p.n_bullets && !p.subtitle.len &&
        (p.full || (sw > 0 && p.vis[0].cx >= sw * 9 / 10)))
        full = &p.vis[0];
    /* an agenda: quire's, or a title over a numbered list and nothing else */
    int agenda = p.n_items && !cols && !full && !p.n_vis &&
                 (p.numbered == 1 || (p.numbered == 2 && !p.other_text));
    if (agenda) p.n_bullets = 0;
    if (st == QR_OK) {
        qr_buf *b = &r->spec;
        if (!first) qr_buf_putc(b, ',');
        qr_buf_putc(b, '{');
        f->open = b->len;
        int comma = 0;
        int comparison = cols && (p.col_head[0].len || p.col_head[1].len);
        if (cols)
            layout = comparison ? "comparison" : "two_content";
        else if (full)
            layout = "image_full";
        else if (agenda)
            layout = "agenda";
        else if (p.quote.len)
            layout = "quote";
        else if (p.n_stats)
            layout = "stats";
        else if (p.closing)
            layout = "closing";
        if (layout) member(b, &comma, "\"layout\":"), qr_buf_json_str(b, layout, strlen(layout), 0);
        if (p.title.len) {
            member(b, &comma, "\"title\":");
            /* title is "text":... or "runs":[...]: a slide title is a text value. */
            if (strncmp(p.title.data, "\"text\":", 7) == 0)
                qr_buf_puts(b, p.title.data + 7);
            else
                qr_buf_printf(b, "{%s}", p.title.data);
        }
        if (p.subtitle.len) {
            member(b, &comma, "\"subtitle\":");
            if (strncmp(p.subtitle.data, "\"text\":", 7) == 0)
                qr_buf_puts(b, p.subtitle.data + 7);
            else
                qr_buf_printf(b, "{%s}", p.subtitle.data);
        }
        if (p.bullets.len && !agenda)
            member(b, &comma, "\"bullets\":["), qr_buf_append(b, p.bullets.data, p.bullets.len),
                qr_buf_putc(b, ']');
        if (p.quote.len) member(b, &comma, "\"quote\":"), qr_buf_puts(b, p.quote.data);
        if (p.attribution.len)
            member(b, &comma, "\"attribution\":"), qr_buf_puts(b, p.attribution.data);
        if (p.n_stats) {
            static const char *const key[3] = {"\"value\":", "\"label\":", "\"caption\":"};
            member(b, &comma, "\"stats\":[");
            for (int k = 0; k < p.n_stats; k++) {
                qr_buf_puts(b, k ? ",{" : "{");
                int c2 = 0;
                for (int j = 0; j < 3; j++)
                    if (p.stat[k][j].len || j == 0)
                        member(b, &c2, key[j]),
                            qr_buf_puts(b, p.stat[k][j].len ? p.stat[k][j].data : "\"\"");
                qr_buf_putc(b, '}');
            }
            qr_buf_putc(b, ']');
        }
        if (cols) {
            member(b, &comma, "\"left\":");
            put_column(b, &p, 0, cv[0], comparison);
            member(b, &comma, "\"right\":");
            put_column(b, &p, 1, cv[1], comparison);
        }
        if (full) {
            if (p.caption.len) member(b, &comma, "\"caption\":"), qr_buf_puts(b, p.caption.data);
            member(b, &comma, "\"image\":"), qr_buf_puts(b, full->json.data);
        }
        if (agenda) {
            member(b, &comma, "\"items\":["), qr_buf_puts(b, p.items.data), qr_buf_putc(b, ']');
            if (p.current >= 0)
                member(b, &comma, "\"current\":"), qr_buf_printf(b, "%d", p.current);
        }
        /* the first table and picture the columns did not take */
        int first_table = 1;
        qr_buf more = {0}; /* the other tables, for slides of their own before the charts' */
        for (int i = 0; !cols && !full && i < p.n_vis; i++)
            if (p.vis[i].table && !used[i]) {
                if (first_table) {
                    member(b, &comma, "\"table\":"), qr_buf_puts(b, p.vis[i].json.data);
                    first_table = 0;
                } else {
                    if (more.len) qr_buf_putc(&more, '\x1f');
                    qr_buf_puts(&more, "\"table\":");
                    qr_buf_append(&more, p.vis[i].json.data, p.vis[i].json.len);
                    p.n_extra_tables++;
                }
            }
        if (more.len) {
            if (p.extra.len) qr_buf_putc(&more, '\x1f');
            qr_buf_append(&more, p.extra.data, p.extra.len);
            qr_buf_free(&p.extra);
            p.extra = more;
        }
        if (p.chart.len) member(b, &comma, "\"chart\":"), qr_buf_puts(b, p.chart.data);
        for (int i = 0; !cols && !full && i < p.n_vis; i++)
            if (!p.vis[i].table && !used[i]) {
                member(b, &comma, "\"image\":"), qr_buf_puts(b, p.vis[i].json.data);
                break;
            }
        if (ground) member(b, &comma, "\"background\":"), qr_buf_puts(b, ground);
        if (notes.len)
            member(b, &comma, "\"notes\":"), qr_buf_json_str(b, notes.data, notes.len, 0);
        qr_buf_putc(b, '}');
        /* the slides of a second table or chart, each with the slide's title */
        for (const char *e = p.extra.data; e && *e;) {
            const char *sep = strchr(e, '\x1f');
            size_t n = sep ? (size_t)(sep - e) : strlen(e);
            qr_buf_putc(b, ',');
            qr_buf_putc(b, '{');
            if (p.title.len && strncmp(p.title.data, "\"text\":", 7) == 0)
                qr_buf_printf(b, "\"title\":%s,", p.title.data + 7);
            qr_buf_append(b, e, n);
            qr_buf_putc(b, '}');
            e = sep ? sep + 1 : NULL;
        }
        if (p.n_extra_tables || p.n_extra_charts)
            qr_errlist_addf(r->warns, QR_OK, part, "a spec's slide holds one table and one chart",
                            "%s: %d more table%s and %d more chart%s read onto slides of their "
                            "own after it",
                            part, p.n_extra_tables, p.n_extra_tables == 1 ? "" : "s",
                            p.n_extra_charts, p.n_extra_charts == 1 ? "" : "s");
        if (r->max_output && b->len > r->max_output)
            st = qr_rd_fail(r, QR_E_LIMIT, part, "raise it with --max-output BYTES (0 disables it)",
                            "what was read passes %zu bytes (the limit max_output)", r->max_output);
    }
    shape_reset(&p.sh);
    free(p.sh.paras);
    qr_rd_runs_free(&p.runs);
    qr_rd_runs_free(&p.cell);
    qr_buf_free(&p.title);
    qr_buf_free(&p.subtitle);
    qr_buf_free(&p.quote);
    qr_buf_free(&p.attribution);
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 3; j++)
            qr_buf_free(&p.stat[k][j]);
    qr_buf_free(&p.bullets);
    qr_buf_free(&p.table);
    qr_buf_free(&p.image);
    qr_buf_free(&p.chart);
    qr_buf_free(&p.extra);
    for (int k = 0; k < 2; k++) {
        qr_buf_free(&p.col_head[k]);
        qr_buf_free(&p.col_bullets[k]);
    }
    qr_buf_free(&p.caption);
    qr_buf_free(&p.items);
    for (int i = 0; i < p.n_vis; i++)
        qr_buf_free(&p.vis[i].json);
    xmlFree(p.pic_name);
    qr_buf_free(&p.pend);
    qr_buf_free(&p.rows);
    qr_buf_free(&p.row);
    qr_buf_free(&notes);
    xmlFree(p.alt);
    qr_rd_rels_free(&p.rels);
    return st;
}

/* presentation.xml: the slides' relationship ids in order, and the slide size. */
typedef struct pres_walk {
    char **ids;
    size_t n, cap;
    long cx, cy;
} pres_walk;

static int pres_element(xmlTextReaderPtr x, void *arg)
{
    pres_walk *w = arg;
    if (qr_rd_is(x, "sldId")) {
        if (w->n == w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 16;
            char **ni = realloc(w->ids, cap * sizeof *ni);
            if (!ni) return 1;
            w->ids = ni;
            w->cap = cap;
        }
        /* p:sldId has id (a number) and r:id: the relationship's */
        char *rid = NULL;
        if (xmlTextReaderMoveToAttributeNs(
                x, (const xmlChar *)"id",
                (const xmlChar *)"http://schemas.openxmlformats.org/officeDocument/"
                                 "2006/relationships") == 1) {
            rid = (char *)xmlTextReaderValue(x);
            xmlTextReaderMoveToElement(x);
        }
        w->ids[w->n++] = rid;
    } else if (qr_rd_is(x, "sldSz")) {
        w->cx = qr_rd_attr_long(x, "cx", 0);
        w->cy = qr_rd_attr_long(x, "cy", 0);
    }
    return 0;
}

static int same(const qr_buf *a, const qr_buf *b)
{
    return a->len == b->len && (!a->len || memcmp(a->data, b->data, a->len) == 0);
}

/* The deck's furniture from its slides' (after "slides" in r->spec): the
 * date, the footer most slides show, slide numbers when any
 * slide has one; a slide bare of all of it (no logo either) where the deck
 * has some gets "footer": false, a slide with another footer text its own
 * "footer", each put just inside its object (one copy of the spec, only
 * when a slide needs one). */
static qr_status put_furniture(qr_rd *r, furn *fs, size_t n)
{
    const qr_buf *date = NULL, *footer = NULL;
    int numbers = 0, logo = 0;
    size_t best = 0, tried = 0;
    for (size_t i = 0; i < n; i++) {
        if (fs[i].open == SIZE_MAX) continue;
        if (!date && fs[i].date.len) date = &fs[i].date;
        numbers |= fs[i].number;
        logo |= fs[i].logo;
        /* the footer most slides show (the first of the first 16 texts) */
        const qr_buf *t = &fs[i].footer;
        if (!t->len || tried >= 16 || (footer && same(t, footer))) continue;
        int seen = 0;
        for (size_t k = 0; k < i && !seen; k++)
            seen = fs[k].open != SIZE_MAX && same(&fs[k].footer, t);
        if (seen) continue;
        tried++;
        size_t count = 0;
        for (size_t k = i; k < n; k++)
            count += fs[k].open != SIZE_MAX && same(&fs[k].footer, t);
        if (count > best) best = count, footer = t;
    }
    qr_buf *b = &r->spec;
    if (!date && !footer && !numbers && !logo) return QR_OK;
    if (date) qr_buf_puts(b, ",\"date\":"), qr_buf_append(b, date->data, date->len);
    if (footer) qr_buf_puts(b, ",\"footer\":"), qr_buf_append(b, footer->data, footer->len);
    if (numbers) qr_buf_puts(b, ",\"slide_numbers\":true");
    /* each slide's own: "footer" false or its text */
    qr_buf out = {0};
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        furn *f = &fs[i];
        if (f->open == SIZE_MAX || f->open > b->len) continue;
        const char *own = NULL;
        size_t own_len = 0;
        if (!f->date.len && !f->footer.len && !f->number && !(logo && f->logo))
            own = "false", own_len = 5;
        else if (f->footer.len && footer && !same(&f->footer, footer))
            own = f->footer.data, own_len = f->footer.len;
        if (!own) continue;
        qr_buf_append(&out, b->data + from, f->open - from);
        qr_buf_puts(&out, "\"footer\":");
        qr_buf_append(&out, own, own_len);
        if (b->data[f->open] != '}') qr_buf_putc(&out, ',');
        from = f->open;
    }
    if (!from) return QR_OK; /* no slide of its own */
    qr_buf_append(&out, b->data + from, b->len - from);
    if (out.oom) {
        qr_buf_free(&out);
        return QR_E_NOMEM;
    }
    qr_buf_free(b);
    *b = out;
    return QR_OK;
}

qr_status qr_rd_pptx(qr_rd *r)
{
    r->kind = QR_KIND_PRESENTATION;
    qr_rd_rels rels;
    qr_status st;
    char *pres = qr_rd_main_part(r, "ppt/presentation.xml", &st);
    if (!pres) return st;
    st = qr_rd_rels_read(r, pres, &rels);
    pres_walk w = {0};
    if (st == QR_OK) st = qr_rd_part_elements(r, pres, pres_element, &w);
    char **ids = w.ids;
    size_t n = w.n;
    long cx = w.cx, cy = w.cy;
    if (st == QR_OK) {
        qr_buf *b = &r->spec;
        qr_buf_putc(b, '{');
        qr_rd_put_title(r);
        if (cx > 0 && cy > 0 && fabs((double)cx / (double)cy - 4.0 / 3.0) < 0.02)
            qr_buf_puts(b, "\"size\":\"4:3\",");
        qr_buf_puts(b, "\"slides\":[");
        int first = 1;
        qr_buf logo = {0};
        /* the grounds: the deck's when every slide has one and at least half
         * share the first's (quire writes the deck's on every slide), each
         * slide's own where it differs */
        qr_buf *grounds = calloc(n ? n : 1, sizeof *grounds);
        furn *fs = calloc(n ? n : 1, sizeof *fs);
        if (!grounds || !fs) st = QR_E_NOMEM;
        for (size_t i = 0; fs && i < n; i++)
            fs[i].open = SIZE_MAX; /* not read */
        size_t have = 0, same = 0, slides = 0;
        const char *deck = NULL;
        for (size_t i = 0; i < n && st == QR_OK; i++) {
            const qr_rd_rel *rel = qr_rd_rels_get(&rels, ids[i]);
            if (!rel || rel->external || !qr_rd_zip_has(r, rel->target)) continue;
            slides++;
            st = slide_ground(r, rel->target, &grounds[i]);
            if (!grounds[i].len) continue;
            if (!have++) deck = grounds[i].data;
            if (strcmp(grounds[i].data, deck) == 0) same++;
        }
        if (!slides || have < slides || same * 2 < slides) deck = NULL;
        for (size_t i = 0; i < n && st == QR_OK; i++) {
            const qr_rd_rel *rel = qr_rd_rels_get(&rels, ids[i]);
            if (!rel || rel->external || !qr_rd_zip_has(r, rel->target)) continue;
            const char *g = grounds[i].len ? grounds[i].data : NULL;
            if (g && deck && strcmp(g, deck) == 0) g = NULL;
            st = read_slide(r, rel->target, first, cx, &logo, g, &fs[i]);
            first = 0;
        }
        qr_buf_puts(b, "]");
        if (deck && st == QR_OK) qr_buf_puts(b, ",\"background\":"), qr_buf_puts(b, deck);
        if (st == QR_OK) st = put_furniture(r, fs, n);
        for (size_t i = 0; grounds && i < n; i++)
            qr_buf_free(&grounds[i]);
        for (size_t i = 0; fs && i < n; i++)
            qr_buf_free(&fs[i].date), qr_buf_free(&fs[i].footer);
        free(grounds);
        free(fs);
        if (logo.len) qr_buf_puts(b, ",\"logo\":"), qr_buf_append(b, logo.data, logo.len);
        qr_buf_puts(b, "}");
        qr_buf_free(&logo);
    }
    for (size_t i = 0; i < n; i++)
        xmlFree(ids[i]);
    free(ids);
    qr_rd_rels_free(&rels);
    free(pres);
    return st;
}
