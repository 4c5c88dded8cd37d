/* text.c: the text layer: a qr_text into styled segments (text.h).
 *
 * fonts/ itemizes the whole text once; each span is then cut at tabs and
 * line breaks into segments that carry the run's flags and checked link.
 * Missing-glyph warnings are deduplicated here for the whole document. */
#include "text.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"

int qr_text_unshown(uint32_t cp)
{
    if (cp < 0x20) return cp != '\t' && cp != '\n' && cp != '\r';
    if (cp >= 0x7F && cp <= 0x9F) return 1;
    if (cp >= 0xFDD0 && cp <= 0xFDEF) return 1;
    return (cp & 0xFFFE) == 0xFFFE;
}

/* Eight bytes at a time (texts are mostly printable ASCII: every format
 * takes those as they are). A byte below 0x20 borrows into its own top bit
 * (a borrow reaches a byte above only past one below 0x20), a byte from
 * 0x7F up has its top bit set once 1 is added: nonzero when w holds a byte
 * outside 0x20-0x7E; control(w): nonzero when it holds one below 0x20. */
#define ONES 0x0101010101010101ull
#define TOPS 0x8080808080808080ull
static uint64_t control(uint64_t w)
{
    return (w - 0x20 * ONES) & ~w & TOPS;
}

static uint64_t not_printable(uint64_t w)
{
    return control(w) | (((w + ONES) | w) & TOPS);
}

size_t qr_text_printable_prefix(const char *s, size_t n)
{
    size_t i = 0;
    for (uint64_t w; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        if (not_printable(w)) break;
    }
    while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7F)
        i++;
    return i;
}

/* The first position from i on in s[0..e) holding a byte below 0x20 (a
 * tab, a line break or another control), or e. */
static size_t next_control(const char *s, size_t i, size_t e)
{
    for (uint64_t w; i + 8 <= e; i += 8) {
        memcpy(&w, s + i, 8);
        if (control(w)) break;
    }
    while (i < e && (unsigned char)s[i] >= 0x20)
        i++;
    return i;
}

size_t qr_text_clean(char *d, const char *src, size_t n)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = qr_text_printable_prefix(src + i, n - i);
        if (k) {
            memcpy(d + o, s + i, k);
            o += k;
            i += k;
            if (i == n) break;
        }
        unsigned char ch = s[i];
        if (ch == '\r') {
            d[o++] = ' '; /* a lone CR is no line break: a space */
            i++;
            continue;
        }
        uint32_t cp;
        size_t len = qr_utf8_decode(s + i, n - i, &cp);
        if (len == 0 || qr_text_unshown(cp)) {
            memcpy(d + o, "\xEF\xBF\xBD", 3);
            o += 3;
            i += len ? len : 1;
        } else {
            memcpy(d + o, s + i, len);
            o += len;
            i += len;
        }
    }
    return o;
}

/* The first unshown character of the document (qr_text_unshown), warned
 * about once at its text's path. -1 on OOM. */
static int warn_unshown(qr_text_ctx *c, const qr_text *t)
{
    if (c->warned_unshown || !c->warnings) return 0;
    for (size_t r = 0; r < t->n; r++) {
        const unsigned char *s = (const unsigned char *)t->runs[r].text;
        size_t n = t->runs[r].len;
        for (size_t i = 0; i < n;) {
            i += qr_text_printable_prefix(t->runs[r].text + i, n - i);
            if (i == n) break;
            uint32_t cp;
            size_t len = qr_utf8_decode(s + i, n - i, &cp);
            if (len == 0) cp = 0xFFFD, len = 1;
            i += len;
            if (!qr_text_unshown(cp)) continue;
            c->warned_unshown = 1;
            qr_errlist_addf(c->warnings, QR_OK, t->path ? t->path : "", QR_TEXT_UNSHOWN_HINT,
                            QR_TEXT_UNSHOWN_MESSAGE, (unsigned)cp);
            return c->warnings->oom ? -1 : 0;
        }
    }
    return 0;
}

void qr_text_ctx_init(qr_text_ctx *c, qr_fonts *fonts, const char *lang, qr_errlist *warnings)
{
    memset(c, 0, sizeof *c);
    c->fonts = fonts ? fonts : qr_fonts_default();
    c->lang = lang;
    c->warnings = warnings;
}

void qr_text_ctx_free(qr_text_ctx *c)
{
    if (!c) return;
    free(c->segs.items);
    qr_spans_free(&c->segs.spans);
    free(c->warned);
    memset(c, 0, sizeof *c);
}

qr_text qr_text_plain(qr_run *run, const char *s, size_t len, const char *path)
{
    memset(run, 0, sizeof *run);
    run->text = s ? s : "";
    run->len = s ? len : 0;
    qr_text t = {run, run->len ? 1 : 0, path};
    return t;
}

/* Warn about cp unless it was warned about before (sorted array, binary
 * search). -1 on OOM. */
static int warn_once(qr_text_ctx *c, uint32_t cp, const char *path)
{
    /* Characters XML forbids are replaced by the backends: nothing to cover. */
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0xFFFE || cp == 0xFFFF) return 0;
    size_t lo = 0, hi = c->n_warned;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->warned[mid] < cp)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->n_warned && c->warned[lo] == cp) return 0;
    if (c->n_warned == c->cap_warned) {
        size_t cap = c->cap_warned ? c->cap_warned * 2 : 16;
        uint32_t *nw = realloc(c->warned, cap * sizeof *nw);
        if (!nw) return -1;
        c->warned = nw;
        c->cap_warned = cap;
    }
    memmove(c->warned + lo + 1, c->warned + lo, (c->n_warned - lo) * sizeof *c->warned);
    c->warned[lo] = cp;
    c->n_warned++;
    qr_errlist_addf(c->warnings, QR_OK, path ? path : "", QR_TEXT_MISSING_HINT,
                    QR_TEXT_MISSING_MESSAGE, (unsigned)cp);
    return 0;
}

static qr_seg *push(qr_segs *s)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        qr_seg *ni = realloc(s->items, cap * sizeof *ni);
        if (!ni) return NULL;
        s->items = ni;
        s->cap = cap;
    }
    return &s->items[s->n++];
}

/* The segments of span k (run r's bytes [a, e)): text cut at tabs and breaks. */
static qr_status cut_span(const qr_text_ctx *c, qr_segs *out, const qr_span *sp, uint32_t k,
                          const qr_run *r, size_t a, size_t e)
{
    qr_seg proto = {0};
    proto.run = sp->run;
    proto.span = k;
    proto.script = sp->script;
    /* the theme's body face for the Latin text it covers */
    proto.family = qr_fonts_body_face(c->fonts, sp, r->text, c->body_face);
    proto.file = sp->file ? sp->file : "";
    proto.lang = sp->lang;
    proto.slot = sp->slot;
    proto.rtl = sp->rtl;
    proto.bold = r->bold;
    proto.italic = r->italic;
    proto.underline = r->underline;
    proto.strike = r->strike;
    proto.code = r->code;
    proto.link = qr_link_ok(r->link) ? r->link : NULL;
    proto.sup = r->sup;
    proto.sub = r->sub;
    proto.color = r->color;
    proto.highlight = r->highlight;
    proto.anchor = r->anchor;
    proto.note = r->note;
    proto.note_no = r->note_no;
    /* a decorated run's leading and trailing spaces: bare segments */
    size_t lead = 0, trail = r->len;
    if (proto.link || proto.anchor || proto.underline) {
        while (lead < r->len && r->text[lead] == ' ')
            lead++;
        while (trail > lead && r->text[trail - 1] == ' ')
            trail--;
        if (lead == r->len) lead = 0, trail = r->len; /* only spaces: as it is */
    }
    size_t from = a;
    for (size_t i = a; i <= e; i++) {
        i = next_control(r->text, i, e); /* nothing to cut before it */
        char ch = i < e ? r->text[i] : 0;
        int brk = i < e && (ch == '\t' || ch == '\n' || ch == '\r');
        if (i < e && !brk) continue;
        /* [from, i) cut at lead and trail: bare, decorated, bare */
        size_t cut[4] = {from, from < lead ? (i < lead ? i : lead) : from, 0, i};
        cut[2] = i > trail ? (cut[1] > trail ? cut[1] : trail) : i;
        for (int part = 0; part < 3; part++) {
            if (cut[part + 1] <= cut[part]) continue;
            qr_seg *g = push(out);
            if (!g) return qr_fail(QR_E_NOMEM);
            *g = proto;
            g->kind = QR_SEG_TEXT;
            g->start = cut[part];
            g->len = cut[part + 1] - cut[part];
            g->bare = part != 1;
        }
        if (brk) {
            qr_seg *g = push(out);
            if (!g) return qr_fail(QR_E_NOMEM);
            *g = proto;
            g->kind = ch == '\t' ? QR_SEG_TAB : QR_SEG_BREAK;
            g->start = i;
            g->len = ch == '\r' && i + 1 < e && r->text[i + 1] == '\n' ? 2 : 1;
            i += g->len - 1;
        }
        from = i + 1;
    }
    return QR_OK;
}

qr_status qr_text_segments(qr_text_ctx *c, const qr_text *t, const qr_segs **out)
{
    qr_segs *sg = &c->segs;
    sg->n = 0;
    *out = sg;
    sg->dir = t ? qr_fonts_text_direction(t) : QR_DIR_NEUTRAL;
    if (!t || t->n == 0) return QR_OK;
    qr_spans_reset(&sg->spans);
    qr_status st = qr_fonts_itemize_text(c->fonts, t, c->lang, &sg->spans);
    if (st != QR_OK) return st;
    if (warn_unshown(c, t) != 0) return qr_fail(QR_E_NOMEM);
    if (c->warnings)
        for (size_t i = 0; i < sg->spans.n_missing; i++)
            if (warn_once(c, sg->spans.missing[i].cp, t->path) != 0) return qr_fail(QR_E_NOMEM);
    for (size_t k = 0; k < sg->spans.n; k++) {
        const qr_span *sp = &sg->spans.items[k];
        if (sp->run >= t->n) continue;
        const qr_run *r = &t->runs[sp->run];
        if (sp->start >= r->len || sp->len == 0) continue;
        size_t e = sp->len <= r->len - sp->start ? sp->start + sp->len : r->len;
        st = cut_span(c, sg, sp, (uint32_t)k, r, sp->start, e);
        if (st != QR_OK) return st;
    }
    for (size_t i = 0; i < sg->n; i++)
        sg->items[i].text = t->runs[sg->items[i].run].text + sg->items[i].start;
    return QR_OK;
}
