/* slide_continue.c: bullets and table rows that do not fit a slide continue
 * on new slides titled "Title (cont.)" (slide_continue.h). Each decision is
 * the slide plan's own estimate (slide_layout.c): the largest run of
 * top-level bullets, or of table rows, that fits is found by bisection. */
#include "slide_continue.h"

#include <stdio.h>
#include <string.h>

#include "report.h"

enum { BODY = 1, TABLE = 2, AGENDA = 4 };

/* The agenda's text box of plan p, or NULL. */
static const qr_slide_shape *agenda_shape(const qr_slide_plan *p)
{
    for (size_t i = 0; i < p->n_extra; i++)
        if (strcmp(p->extra_name[i], "Agenda") == 0) return &p->extra[i];
    return NULL;
}

/* 1 when slide s fits (what: BODY, TABLE, AGENDA or some): its body (or
 * its agenda) at or above the floor, its table at or above the table
 * floor; -1 on OOM. */
static int fits(const qr_slide_geom *g, const qr_slide *s, int what)
{
    qr_slide_plan p;
    if (qr_slide_plan_make(&p, g, s) != QR_OK) return -1;
    int ok = 1;
    if ((what & BODY) && p.body.n && (!p.body.fits || p.body.font_scale < QR_SLIDE_CONT_FLOOR))
        ok = 0;
    if ((what & TABLE) && p.table.nr && (!p.table.fits || p.table.sz < QR_SLIDE_CONT_TABLE_SZ))
        ok = 0;
    const qr_slide_shape *ag = (what & AGENDA) ? agenda_shape(&p) : NULL;
    if (ag && ag->n && (!ag->fits || ag->font_scale < QR_SLIDE_CONT_FLOOR)) ok = 0;
    qr_slide_plan_free(&p);
    return ok;
}

/* The largest k in [lo, hi] for which set(s, k) fits (lo when none does);
 * -1 on OOM. set(s, k) keeps the first k bullets or rows of s. */
static long long most(const qr_slide_geom *g, qr_slide *s, size_t lo, size_t hi,
                      void (*set)(qr_slide *, size_t), int what)
{
    size_t best = lo;
    while (lo <= hi) {
        size_t mid = lo + (hi - lo) / 2;
        set(s, mid);
        int f = fits(g, s, what);
        if (f < 0) return -1;
        if (f) {
            best = mid;
            lo = mid + 1;
        } else {
            if (mid == 0) break;
            hi = mid - 1;
        }
    }
    return (long long)best;
}

static void set_bullets(qr_slide *s, size_t k)
{
    s->n_bullets = k;
}

static void set_items(qr_slide *s, size_t k)
{
    s->n_agenda = k;
}

static void set_rows(qr_slide *s, size_t k)
{
    qr_table *t = (qr_table *)s->table;
    t->n_rows = k;
}

/* "Title (cont.)": the title's runs and one more. */
static int cont_title(qr_arena *a, const qr_slide *from, qr_slide *to)
{
    size_t n = from->has_title ? from->title.n : 0;
    qr_run *runs = qr_arena_array(a, n + 1, sizeof *runs);
    if (!runs) return -1;
    if (n) memcpy(runs, from->title.runs, n * sizeof *runs);
    runs[n].text = n ? " (cont.)" : "(cont.)";
    runs[n].len = strlen(runs[n].text);
    to->has_title = 1;
    to->title = (qr_text){runs, n + 1, from->title.path ? from->title.path : from->path};
    return 0;
}

/* A continuation of s: its layout and title, nothing else yet. */
static qr_slide *cont_slide(qr_arena *a, const qr_slide *s)
{
    qr_slide *c = qr_arena_alloc(a, sizeof *c);
    if (!c) return NULL;
    c->layout = s->layout;
    c->path = s->path;
    c->footer_mode = s->footer_mode;
    c->has_background = s->has_background;
    c->background = s->background;
    c->footer = s->footer;
    if (cont_title(a, s, c)) return NULL;
    return c;
}

typedef struct out {
    qr_arena *a;
    qr_slide *v;
    size_t n, cap;
} out;

static int push(out *o, const qr_slide *s)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 64;
        qr_slide *nv = qr_arena_array(o->a, cap, sizeof *nv);
        if (!nv) return -1;
        if (o->n) memcpy(nv, o->v, o->n * sizeof *nv);
        o->v = nv;
        o->cap = cap;
    }
    o->v[o->n++] = *s;
    return 0;
}

/* Which slides can continue: the layouts with a content area, and the
 * agenda; and whether s has more than one bullet, row or item to share. */
static int continues(const qr_slide *s)
{
    if (s->layout == QR_LAYOUT_AGENDA) return s->n_agenda > 1;
    return (s->layout == QR_LAYOUT_TITLE_CONTENT || s->layout == QR_LAYOUT_BLANK) &&
           (s->n_bullets > 1 || (s->table && s->table->n_rows > 1));
}

/* An agenda's items as bullets: what fits at the floor stays, the rest
 * continues numbered on, the current item highlighted where it lands. */
static qr_status split_agenda(const qr_slide_geom *g, const qr_slide *s, out *o,
                              qr_layout_list *report)
{
    qr_slide first = *s;
    long long k = most(g, &first, 1, s->n_agenda, set_items, AGENDA);
    if (k < 0) return QR_E_NOMEM;
    first.n_agenda = (size_t)k;
    if (push(o, &first)) return QR_E_NOMEM;
    char path[256];
    snprintf(path, sizeof path, "%s/items", s->path);
    for (size_t at = (size_t)k; at < s->n_agenda;) {
        qr_slide *c = cont_slide(o->a, s);
        if (!c) return QR_E_NOMEM;
        c->agenda = s->agenda + at;
        c->agenda_first = s->agenda_first + at;
        c->current = s->current >= (long)at ? s->current - (long)at : -1;
        size_t left = s->n_agenda - at, n = left;
        c->n_agenda = left;
        if (left > 1) {
            long long kk = most(g, c, 1, left, set_items, AGENDA);
            if (kk < 0) return QR_E_NOMEM;
            n = (size_t)kk;
        }
        c->n_agenda = n;
        if (c->current >= (long)n) c->current = -1;
        if (push(o, c)) return QR_E_NOMEM;
        qr_layout_addf(report, QR_LAYOUT_CONTINUED, path, 0, (int)o->n, (double)o->n,
                       "items %zu to %zu continue on slide %zu, past the %d %% shrink floor",
                       at + 1, at + n, o->n, QR_SLIDE_CONT_FLOOR / 1000);
        at += n;
    }
    return QR_OK;
}

static qr_status split(const qr_slide_geom *g, const qr_slide *s, out *o, qr_layout_list *report)
{
    if (s->layout == QR_LAYOUT_AGENDA) return split_agenda(g, s, o, report);
    qr_slide first = *s;
    qr_table tcopy;
    if (s->table) {
        tcopy = *s->table;
        first.table = &tcopy;
    }
    /* bullets: keep what fits at the floor (at least one top-level bullet) */
    size_t keep = s->n_bullets;
    if (s->n_bullets > 1) {
        long long k = most(g, &first, 1, s->n_bullets, set_bullets, BODY);
        if (k < 0) return QR_E_NOMEM;
        keep = (size_t)k;
    }
    first.n_bullets = keep;
    /* table rows: keep what fits at the table floor (at least one row) */
    size_t rows = s->table ? s->table->n_rows : 0;
    if (s->table && s->table->n_rows > 1) {
        long long k = most(g, &first, 1, s->table->n_rows, set_rows, TABLE);
        if (k < 0) return QR_E_NOMEM;
        rows = (size_t)k;
    }
    qr_table *t1 = NULL;
    if (s->table) {
        t1 = qr_arena_alloc(o->a, sizeof *t1);
        if (!t1) return QR_E_NOMEM;
        *t1 = *s->table;
        t1->n_rows = rows;
        first.table = t1;
    }
    if (push(o, &first)) return QR_E_NOMEM;
    char path[256];
    /* the bullets left, slide after slide */
    for (size_t at = keep; at < s->n_bullets;) {
        qr_slide *c = cont_slide(o->a, s);
        if (!c) return QR_E_NOMEM;
        c->bullets = s->bullets + at;
        size_t left = s->n_bullets - at, k = left;
        if (left > 1) {
            long long kk = most(g, c, 1, left, set_bullets, BODY);
            if (kk < 0) return QR_E_NOMEM;
            k = (size_t)kk;
        }
        c->n_bullets = k;
        if (push(o, c)) return QR_E_NOMEM;
        snprintf(path, sizeof path, "%s/bullets", s->path);
        qr_layout_addf(report, QR_LAYOUT_CONTINUED, path, 0, (int)o->n, (double)o->n,
                       "bullets %zu to %zu continue on slide %zu, past the %d %% shrink floor",
                       at + 1, at + k, o->n, QR_SLIDE_CONT_FLOOR / 1000);
        at += k;
    }
    /* the rows left, each slide with the header row again */
    for (size_t at = rows; s->table && at < s->table->n_rows;) {
        qr_slide *c = cont_slide(o->a, s);
        qr_table *t = qr_arena_alloc(o->a, sizeof *t);
        if (!c || !t) return QR_E_NOMEM;
        *t = *s->table;
        t->rows = s->table->rows + at;
        size_t left = s->table->n_rows - at, k = left;
        t->n_rows = left;
        c->table = t;
        if (left > 1) {
            long long kk = most(g, c, 1, left, set_rows, TABLE);
            if (kk < 0) return QR_E_NOMEM;
            k = (size_t)kk;
        }
        t->n_rows = k;
        if (push(o, c)) return QR_E_NOMEM;
        const char *tp = s->table->path ? s->table->path : s->path;
        qr_layout_addf(report, QR_LAYOUT_CONTINUED, tp, 0, (int)o->n, (double)o->n,
                       "table rows %zu to %zu continue on slide %zu%s", at + 1, at + k, o->n,
                       s->table->headers ? ", under the header row again" : "");
        at += k;
    }
    return QR_OK;
}

qr_status qr_slide_continue(const qr_doc *doc, const qr_slide_geom *g, qr_arena *a,
                            const qr_slide **slides, size_t *n, qr_layout_list *report)
{
    *slides = doc->slides;
    *n = doc->n_slides;
    /* most decks fit: nothing is copied until a slide does not */
    size_t i = 0;
    for (; i < doc->n_slides; i++) {
        const qr_slide *s = &doc->slides[i];
        if (!continues(s)) continue;
        int f = fits(g, s, BODY | TABLE | AGENDA);
        if (f < 0) return QR_E_NOMEM;
        if (!f) break;
    }
    if (i == doc->n_slides) return QR_OK;
    out o = {a, NULL, 0, 0};
    for (size_t k = 0; k < i; k++)
        if (push(&o, &doc->slides[k])) return QR_E_NOMEM;
    for (; i < doc->n_slides; i++) {
        const qr_slide *s = &doc->slides[i];
        int f = 1;
        if (continues(s)) f = fits(g, s, BODY | TABLE | AGENDA);
        if (f < 0) return QR_E_NOMEM;
        qr_status st = f ? (push(&o, s) ? QR_E_NOMEM : QR_OK) : split(g, s, &o, report);
        if (st != QR_OK) return st;
    }
    *slides = o.v;
    *n = o.n;
    return QR_OK;
}
