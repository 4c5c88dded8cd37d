/* pptx_slide.c: one slide part (ppt/slides/slideN.xml) per spec slide, and
 * the text writers every pptx part shares (a:p, a:pPr, a:rPr).
 *
 * Layout. Each slide uses one of the four layouts; its title and text sit in
 * the layout's placeholders with explicit positions. On title_content the
 * content area holds the bullets; with a table or an image too, the bullets
 * take the left half and the table/image the right half. Tables and
 * pictures are placed inside their area: pictures scaled to fit keeping
 * their aspect ratio, tables with a font size chosen so the rows fit.
 *
 * Text. Each paragraph is itemized by fonts/ into spans of one script and
 * one font; each span is one <a:r> whose <a:rPr> names the family in its
 * slot (a:latin, a:ea or a:cs) and the span's language, so CJK, Arabic and
 * Hebrew get covering fonts in PowerPoint and LibreOffice alike (the a:ea
 * python-pptx cannot set). Paragraphs whose first strong character is
 * right-to-left get rtl="1" and algn="r".
 *
 * Shrink to fit. PowerPoint only computes normAutofit's fontScale after the
 * text is edited, so files from python-pptx and PptxGenJS open with text
 * spilling off the slide. We estimate the text height ourselves (DejaVu
 * Sans advance widths, greedy word wrap, line height per script) and write
 * the fontScale and lnSpcReduction PowerPoint would have chosen, so the
 * slide opens fitted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pptx_int.h"
#include "utf8.h"

/* ---- measuring text ------------------------------------------------------------- */

/* DejaVu Sans advance widths of ASCII 32..126, in 1/1000 em. */
static const unsigned short ascii_w[95] = {
    318, 401, 460, 838, 636, 950, 780,  275, 390, 390, 500, 838, 318, 361, 318, 337, /* sp..  / */
    636, 636, 636, 636, 636, 636, 636,  636, 636, 636,                               /* 0..9 */
    337, 337, 838, 838, 838, 531, 1000,                                              /* : .. @ */
    684, 686, 698, 770, 632, 575, 775,  752, 295, 295, 656, 557, 863,                /* A..M */
    748, 787, 603, 787, 695, 635, 611,  732, 684, 989, 685, 611, 685,                /* N..Z */
    390, 337, 390, 838, 500, 500,                                                    /* [ .. ` */
    613, 635, 550, 635, 615, 352, 635,  634, 278, 278, 579, 278, 974,                /* a..m */
    634, 612, 635, 635, 411, 521, 392,  634, 592, 818, 592, 592, 525,                /* n..z */
    636, 337, 636, 838,                                                              /* { .. ~ */
};

/* One code point; an invalid byte counts as U+FFFD. */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    size_t len = qr_utf8_decode(s, n, cp);
    if (len) return len;
    *cp = 0xFFFD;
    return 1;
}

/* Full-width characters: CJK, kana, hangul, full-width forms, emoji. Each
 * is also a place where a line may break. */
static int is_wide(uint32_t cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) ||
           (cp >= 0x3041 && cp <= 0x33FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
           (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
           (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
           (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
           (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) ||
           (cp >= 0x20000 && cp <= 0x3FFFD);
}

/* Combining marks and format characters: no advance of their own. */
static int is_zero_width(uint32_t cp)
{
    return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x0483 && cp <= 0x0489) ||
           (cp >= 0x0591 && cp <= 0x05BD) || (cp >= 0x05BF && cp <= 0x05C7) ||
           (cp >= 0x0610 && cp <= 0x061A) || (cp >= 0x064B && cp <= 0x065F) || cp == 0x0670 ||
           (cp >= 0x06D6 && cp <= 0x06ED) || (cp >= 0x200B && cp <= 0x200F) ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF;
}

/* Scripts whose fonts (Noto) have taller lines than DejaVu Sans. */
static int is_tall(uint32_t cp)
{
    return (cp >= 0x0590 && cp <= 0x0FFF) || (cp >= 0xFB1D && cp <= 0xFDFF) ||
           (cp >= 0xFE70 && cp <= 0xFEFF) || is_wide(cp);
}

static int cp_width(uint32_t cp, int mono)
{
    if (cp == '\t') return 4 * 318;
    if (cp < 0x20) return 0;
    if (is_zero_width(cp)) return 0;
    if (is_wide(cp)) return 1000;
    if (mono) return 602;
    if (cp < 0x7F) return ascii_w[cp - 0x20];
    if (cp == 0xA0) return 318;
    if ((cp >= 0x0600 && cp <= 0x08FF) || (cp >= 0xFB50 && cp <= 0xFDFF) ||
        (cp >= 0xFE70 && cp <= 0xFEFF))
        return 520;
    if (cp >= 0x0590 && cp <= 0x05FF) return 600;
    return 620;
}

long long qr_pptx_text_width(const char *str, size_t len, int mono, int bold)
{
    const unsigned char *s = (const unsigned char *)str;
    long long w = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        i += utf8_next(s + i, len - i, &cp);
        int cw = cp_width(cp, mono);
        w += bold && !mono ? cw * 108 / 100 : cw;
    }
    return w;
}

/* Greedy word wrap of a text into lines of width W (1/1000 em). Sets *tall
 * when the text holds a script with taller lines. */
typedef struct wrap {
    long long W, cur, word, lines;
} wrap;

static void place_word(wrap *w)
{
    if (w->word <= 0) return;
    if (w->cur > 0 && w->cur + w->word > w->W) {
        w->lines++;
        w->cur = 0;
    }
    if (w->word > w->W) { /* a word longer than the line breaks inside */
        w->lines += (w->word - 1) / w->W;
        w->word -= ((w->word - 1) / w->W) * w->W;
    }
    w->cur += w->word;
    w->word = 0;
}

static long long measure(const qr_text *t, long long W, int *tall)
{
    wrap w = {W < 1000 ? 1000 : W, 0, 0, 1};
    for (size_t r = 0; r < t->n; r++) {
        const qr_run *run = &t->runs[r];
        const unsigned char *s = (const unsigned char *)run->text;
        for (size_t i = 0; i < run->len;) {
            uint32_t cp;
            i += utf8_next(s + i, run->len - i, &cp);
            if (cp == '\n' || cp == '\r' || cp == 0x2028 || cp == 0x2029) {
                if (cp == '\r' && i < run->len && s[i] == '\n') i++;
                place_word(&w);
                w.lines++;
                w.cur = 0;
                continue;
            }
            if (cp > 0x20 && cp < 0x7F) { /* the common case: printable ASCII */
                int cw = run->code ? 602 : ascii_w[cp - 0x20];
                w.word += run->bold && !run->code ? cw * 108 / 100 : cw;
                continue;
            }
            int cw = cp_width(cp, run->code);
            if (run->bold && !run->code) cw = cw * 108 / 100;
            if (cp == ' ' || cp == '\t' || cp == 0x3000) {
                place_word(&w);
                w.cur += cw;
                continue;
            }
            if (tall && is_tall(cp)) *tall = 1;
            if (is_wide(cp)) {
                place_word(&w);
                w.word = cw;
                place_word(&w);
                continue;
            }
            w.word += cw;
        }
    }
    place_word(&w);
    return w.lines;
}

long long qr_pptx_text_lines(const qr_text *t, long long width_milli_em)
{
    return measure(t, width_milli_em, NULL);
}

/* Height in EMU of the paragraphs at a font scale and line spacing (both in
 * 1/1000 %). */
static long long paras_height(const qr_pptx_para *p, size_t n, long long w, long long scale,
                              long long line)
{
    long long h = 0;
    for (size_t i = 0; i < n; i++) {
        long long sz = (long long)p[i].sz * scale / 100000; /* hundredths of a point */
        if (sz < 100) sz = 100;
        long long avail = w - p[i].marl;
        if (avail < 1) avail = 1;
        /* available width in 1/1000 em: avail EMU / (sz/100 pt * 12700 EMU/pt) * 1000 */
        long long W = avail * 100000 / (sz * QR_PPTX_EMU_PER_PT);
        int tall = 0;
        long long lines = measure(p[i].text, W, &tall);
        /* line height: 1.2 em (1.45 em for CJK, Arabic, Indic: Noto's taller lines) */
        long long em = sz * QR_PPTX_EMU_PER_PT / 100;
        long long lh = em * (tall ? 145 : 120) / 100 * line / 100000;
        h += lines * lh;
        if (i > 0) h += (long long)p[i].space_before * scale / 100000 * QR_PPTX_EMU_PER_PT / 100;
    }
    return h;
}

int qr_pptx_fit(const qr_pptx_para *p, size_t n, long long w, long long h, int line,
                int *font_scale, int *ln_reduction)
{
    /* PowerPoint's order: first tighten the lines (10 %, then 20 %), then
     * shrink the font in 7.5 % steps, down to 25 %. */
    static const int steps[][2] = {
        {100000, 0},    {100000, 10000}, {92500, 10000}, {92500, 20000}, {85000, 20000},
        {77500, 20000}, {70000, 20000},  {62500, 20000}, {55000, 20000}, {47500, 20000},
        {40000, 20000}, {32500, 20000},  {25000, 20000},
    };
    size_t ns = sizeof steps / sizeof steps[0];
    for (size_t k = 0; k < ns; k++) {
        long long ln = line - steps[k][1];
        if (ln < 10000) ln = 10000;
        if (paras_height(p, n, w, steps[k][0], ln) <= h) {
            *font_scale = steps[k][0];
            *ln_reduction = steps[k][1];
            return 1;
        }
    }
    *font_scale = steps[ns - 1][0];
    *ln_reduction = steps[ns - 1][1];
    return 0;
}

/* ---- text element writers ----------------------------------------------------------- */

/* <a:rPr> */
void qr_pptx_write_a_rpr(qr_xml *x, const char *name, const qr_pptx_rpr *p)
{
    qr_xml_start(x, name);
    if (p->lang) qr_xml_attr(x, "lang", p->lang);
    if (p->sz) qr_xml_attr_int(x, "sz", p->sz);
    if (p->b) qr_xml_attr(x, "b", "1");
    if (p->i) qr_xml_attr(x, "i", "1");
    if (p->u) qr_xml_attr(x, "u", "sng");
    if (p->strike) qr_xml_attr(x, "strike", "sngStrike");
    /* children in CT_TextCharacterProperties order: ... latin, ea, cs, sym, hlinkClick */
    if (p->family) {
        const char *slot = p->slot == QR_SLOT_EAST_ASIAN ? "a:ea"
                           : p->slot == QR_SLOT_COMPLEX  ? "a:cs"
                                                         : "a:latin";
        qr_xml_leaf(x, slot, "typeface", p->family, NULL);
    }
    if (p->link_rid) qr_xml_leaf(x, "a:hlinkClick", "r:id", p->link_rid, NULL);
    qr_xml_end(x);
}

/* <a:pPr> */
void qr_pptx_write_a_ppr(qr_xml *x, const qr_pptx_ppr *p)
{
    int algn = p->algn;
    if (p->rtl && (algn == QR_PPTX_ALGN_INHERIT || algn == QR_PPTX_ALGN_L)) algn = QR_PPTX_ALGN_R;
    if (p->bullet == QR_PPTX_BULLET_INHERIT && !p->lvl && !algn && !p->rtl) return;
    int lvl = p->lvl < 0 ? 0 : p->lvl >= QR_PPTX_LEVELS ? QR_PPTX_LEVELS - 1 : p->lvl;
    qr_xml_start(x, "a:pPr");
    /* attributes in CT_TextParagraphProperties order: marL, marR, lvl, indent, algn, defTabSz, rtl
     */
    if (p->bullet == QR_PPTX_BULLET_CHAR)
        qr_xml_attr_int(x, "marL", qr_pptx_level_marl(lvl));
    else if (p->bullet == QR_PPTX_BULLET_NONE)
        qr_xml_attr(x, "marL", "0");
    if (lvl) qr_xml_attr_int(x, "lvl", lvl);
    if (p->bullet == QR_PPTX_BULLET_CHAR)
        qr_xml_attr_int(x, "indent", qr_pptx_level_indent(lvl));
    else if (p->bullet == QR_PPTX_BULLET_NONE)
        qr_xml_attr(x, "indent", "0");
    if (algn == QR_PPTX_ALGN_L)
        qr_xml_attr(x, "algn", "l");
    else if (algn == QR_PPTX_ALGN_CTR)
        qr_xml_attr(x, "algn", "ctr");
    else if (algn == QR_PPTX_ALGN_R)
        qr_xml_attr(x, "algn", "r");
    if (p->rtl) qr_xml_attr(x, "rtl", "1");
    if (p->bullet == QR_PPTX_BULLET_CHAR) {
        qr_xml_leaf(x, "a:buFont", "typeface", QR_PPTX_FONT_LATIN, NULL);
        qr_xml_leaf(x, "a:buChar", "char", qr_pptx_level_char(lvl), NULL);
    } else if (p->bullet == QR_PPTX_BULLET_NONE) {
        qr_xml_leaf(x, "a:buNone", NULL);
    }
    qr_xml_end(x);
}

/* Warn once per code point that no installed font covers. */
static void warn_missing(qr_pptx *pp, const qr_text *t)
{
    for (size_t i = 0; i < pp->spans.n_missing; i++) {
        uint32_t cp = pp->spans.missing[i].cp;
        /* Characters XML forbids are written as U+FFFD (xml.h): not a font matter. */
        if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0xFFFE || cp == 0xFFFF)
            continue;
        size_t k;
        for (k = 0; k < pp->n_warned; k++)
            if (pp->warned[k] == cp) break;
        if (k < pp->n_warned) continue;
        if (pp->n_warned == pp->cap_warned) {
            size_t cap = pp->cap_warned ? pp->cap_warned * 2 : 16;
            uint32_t *nw = realloc(pp->warned, cap * sizeof *nw);
            if (!nw) {
                qr_pptx_fail(pp, QR_E_NOMEM);
                return;
            }
            pp->warned = nw;
            pp->cap_warned = cap;
        }
        pp->warned[pp->n_warned++] = cp;
        qr_errlist_addf(
            pp->ctx->warnings, QR_OK, t->path ? t->path : "",
            "install a font that covers it (Debian: fonts-noto-core, fonts-noto-cjk) or remove it",
            "no installed font covers U+%04X", (unsigned)cp);
    }
}

/* <a:r> pieces of one span: text up to each newline, <a:br/> for the newline. */
static void write_span_text(qr_xml *x, const char *s, size_t len, const qr_pptx_rpr *rpr)
{
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        int nl = i < len && (s[i] == '\n' || s[i] == '\r');
        if (i < len && !nl) continue;
        if (i > start) {
            qr_xml_start(x, "a:r");
            qr_pptx_write_a_rpr(x, "a:rPr", rpr);
            qr_xml_start(x, "a:t");
            qr_xml_text(x, s + start, i - start);
            qr_xml_end(x);
            qr_xml_end(x);
        }
        if (nl) {
            if (s[i] == '\r' && i + 1 < len && s[i + 1] == '\n') i++;
            qr_xml_start(x, "a:br");
            qr_pptx_write_a_rpr(x, "a:rPr", rpr);
            qr_xml_end(x);
        }
        start = i + 1;
    }
}

/* Links only for the schemes the spec allows (the compiler checked; check again). */
static int link_ok(const char *url)
{
    return url && (strncmp(url, "https:", 6) == 0 || strncmp(url, "http:", 5) == 0 ||
                   strncmp(url, "mailto:", 7) == 0);
}

/* <a:p> */
static void write_a_p_full(qr_pptx *pp, qr_xml *x, const qr_text *t, qr_pptx_ppr ppr, int sz,
                           int bold)
{
    ppr.rtl = qr_fonts_text_direction(t) == QR_DIR_RTL;
    qr_xml_start(x, "a:p");
    qr_pptx_write_a_ppr(x, &ppr);
    qr_spans_reset(&pp->spans);
    if (qr_fonts_itemize_text(pp->ctx->fonts, t, pp->doc->lang, &pp->spans) != QR_OK) {
        qr_pptx_fail(pp, QR_E_NOMEM);
    } else {
        warn_missing(pp, t);
        for (size_t i = 0; i < pp->spans.n; i++) {
            const qr_span *s = &pp->spans.items[i];
            if (s->run >= t->n) continue;
            const qr_run *run = &t->runs[s->run];
            if (s->start >= run->len || s->len == 0) continue;
            size_t len = s->len <= run->len - s->start ? s->len : run->len - s->start;
            qr_pptx_rpr rpr = {0};
            rpr.lang = s->lang ? s->lang : pp->doc->lang;
            rpr.sz = sz;
            rpr.b = run->bold || bold;
            rpr.i = run->italic;
            rpr.u = run->underline;
            rpr.strike = run->strike;
            rpr.slot = s->slot;
            rpr.family = run->code && s->slot == QR_SLOT_LATIN ? qr_fonts_mono_family() : s->family;
            rpr.link_rid = link_ok(run->link) ? qr_pptx_link_rid(pp, run->link) : NULL;
            write_span_text(x, run->text + s->start, len, &rpr);
        }
    }
    if (sz || pp->doc->lang) {
        qr_pptx_rpr end = {0};
        end.lang = pp->doc->lang;
        end.sz = sz;
        end.b = bold;
        qr_pptx_write_a_rpr(x, "a:endParaRPr", &end);
    }
    qr_xml_end(x);
}

void qr_pptx_write_a_p(qr_pptx *pp, qr_xml *x, const qr_text *t, qr_pptx_ppr ppr, int sz)
{
    write_a_p_full(pp, x, t, ppr, sz, 0);
}

/* ---- shapes ------------------------------------------------------------------------ */

/* One paragraph of a text shape. */
typedef struct par {
    const qr_text *text;
    qr_pptx_ppr ppr;
    int sz;           /* its size (for the estimate; written only in text boxes) */
    int space_before; /* hundredths of a point */
} par;

typedef struct pars {
    par *items;
    size_t n, cap;
} pars;

static int pars_add(qr_pptx *pp, pars *ps, const qr_text *t, int lvl, int bullet, int algn, int sz,
                    int spc)
{
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 16;
        par *np = realloc(ps->items, cap * sizeof *np);
        if (!np) {
            qr_pptx_fail(pp, QR_E_NOMEM);
            return -1;
        }
        ps->items = np;
        ps->cap = cap;
    }
    par *p = &ps->items[ps->n++];
    p->text = t;
    p->ppr = (qr_pptx_ppr){.lvl = lvl, .bullet = bullet, .algn = algn};
    p->sz = sz;
    p->space_before = spc;
    return 0;
}

/* Bullets, depth first: a:pPr lvl = nesting depth (0..8). */
static int add_items(qr_pptx *pp, pars *ps, const qr_item *items, size_t n, int lvl, int bullet,
                     int algn, int fixed_sz)
{
    if (lvl >= QR_PPTX_LEVELS) lvl = QR_PPTX_LEVELS - 1;
    for (size_t i = 0; i < n; i++) {
        int sz = fixed_sz ? fixed_sz : qr_pptx_level_sz(lvl);
        if (pars_add(pp, ps, &items[i].text, bullet == QR_PPTX_BULLET_CHAR ? lvl : 0, bullet, algn,
                     sz, lvl == 0 ? 1000 : 500))
            return -1;
        if (items[i].n_items &&
            add_items(pp, ps, items[i].items, items[i].n_items, lvl + 1, bullet, algn, fixed_sz))
            return -1;
    }
    return 0;
}

/* A text shape: a placeholder of the layout, or a text box (blank layout). */
typedef struct text_shape {
    const char *name;
    int placeholder;
    const char *ph_type; /* NULL: the content placeholder (obj) */
    int ph_idx;
    qr_pptx_box box;
    const char *anchor; /* text boxes only */
    const pars *ps;
} text_shape;

/* <a:bodyPr> with the estimated <a:normAutofit>. */
static void write_a_bodypr(qr_pptx *pp, qr_xml *x, const text_shape *sh, const char *slide_path)
{
    qr_pptx_para *est = malloc((sh->ps->n ? sh->ps->n : 1) * sizeof *est);
    if (!est) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        return;
    }
    for (size_t i = 0; i < sh->ps->n; i++) {
        const par *p = &sh->ps->items[i];
        est[i].text = p->text;
        est[i].sz = p->sz;
        est[i].marl = p->ppr.bullet == QR_PPTX_BULLET_CHAR ? qr_pptx_level_marl(p->ppr.lvl) : 0;
        est[i].space_before = p->space_before;
    }
    int scale = 100000, red = 0;
    int fits = qr_pptx_fit(est, sh->ps->n, sh->box.cx - 2 * QR_PPTX_INS_LR,
                           sh->box.cy - 2 * QR_PPTX_INS_TB, 90000, &scale, &red);
    free(est);
    if (!fits)
        qr_errlist_addf(pp->ctx->warnings, QR_OK, slide_path, "split the text over more slides",
                        "the text of \"%s\" does not fit the slide even shrunk to 25 %%", sh->name);
    qr_xml_start(x, "a:bodyPr");
    if (!sh->placeholder) {
        qr_xml_attr(x, "wrap", "square");
        qr_xml_attr(x, "rtlCol", "0");
        if (sh->anchor) qr_xml_attr(x, "anchor", sh->anchor);
    }
    qr_xml_start(x, "a:normAutofit");
    if (scale != 100000) qr_xml_attr_int(x, "fontScale", scale);
    if (red) qr_xml_attr_int(x, "lnSpcReduction", red);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:sp> */
static void write_p_sp(qr_pptx *pp, qr_xml *x, int id, const text_shape *sh, const char *slide_path)
{
    qr_xml_start(x, "p:sp");
    qr_xml_start(x, "p:nvSpPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", sh->name);
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvSpPr");
    if (sh->placeholder)
        qr_xml_leaf(x, "a:spLocks", "noGrp", "1", NULL);
    else
        qr_xml_attr(x, "txBox", "1");
    qr_xml_end(x);
    qr_xml_start(x, "p:nvPr");
    if (sh->placeholder) {
        qr_xml_start(x, "p:ph");
        if (sh->ph_type) qr_xml_attr(x, "type", sh->ph_type);
        if (sh->ph_idx) qr_xml_attr_int(x, "idx", sh->ph_idx);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    qr_xml_end(x); /* p:nvSpPr */
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", &sh->box);
    if (!sh->placeholder) {
        qr_xml_start(x, "a:prstGeom");
        qr_xml_attr(x, "prst", "rect");
        qr_xml_leaf(x, "a:avLst", NULL);
        qr_xml_end(x);
        qr_xml_leaf(x, "a:noFill", NULL);
    }
    qr_xml_end(x);
    qr_xml_start(x, "p:txBody");
    write_a_bodypr(pp, x, sh, slide_path);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    for (size_t i = 0; i < sh->ps->n; i++) {
        const par *p = &sh->ps->items[i];
        write_a_p_full(pp, x, p->text, p->ppr, sh->placeholder ? 0 : p->sz, 0);
    }
    if (sh->ps->n == 0) qr_xml_leaf(x, "a:p", NULL); /* a txBody needs one a:p */
    qr_xml_end(x);                                   /* p:txBody */
    qr_xml_end(x);                                   /* p:sp */
}

/* ---- tables ------------------------------------------------------------------------ */

#define CELL_MAR_LR 91440
#define CELL_MAR_TB 45720

static const qr_tcell *table_cell(const qr_table *t, size_t r, size_t c)
{
    if (t->headers) {
        if (r == 0) return c < t->n_headers ? &t->headers[c] : NULL;
        r--;
    }
    return &t->rows[r][c];
}

/* Row heights (EMU) of the table at size sz; returns the total. */
static long long table_heights(const qr_table *t, const long long *cols, int sz, long long *rows)
{
    size_t nr = t->n_rows + (t->headers ? 1 : 0);
    long long total = 0;
    long long em = (long long)sz * QR_PPTX_EMU_PER_PT / 100;
    for (size_t r = 0; r < nr; r++) {
        long long hmax = 0;
        for (size_t c = 0; c < t->n_cols; c++) {
            const qr_tcell *cell = table_cell(t, r, c);
            long long W =
                (cols[c] - 2 * CELL_MAR_LR) * 100000 / ((long long)sz * QR_PPTX_EMU_PER_PT);
            int tall = 0;
            long long lines = cell ? measure(&cell->text, W, &tall) : 1;
            long long h = lines * em * (tall ? 145 : 120) / 100 + 2 * CELL_MAR_TB;
            if (h > hmax) hmax = h;
        }
        rows[r] = hmax;
        total += hmax;
    }
    return total;
}

/* <a:tc> */
static void write_a_tc(qr_pptx *pp, qr_xml *x, const qr_tcell *cell, int sz, int header)
{
    static const qr_text empty = {NULL, 0, NULL};
    qr_xml_start(x, "a:tc");
    qr_xml_start(x, "a:txBody");
    qr_xml_leaf(x, "a:bodyPr", NULL);
    qr_xml_leaf(x, "a:lstStyle", NULL);
    qr_pptx_ppr ppr = {0};
    if (cell && cell->kind == QR_TCELL_NUMBER) ppr.algn = QR_PPTX_ALGN_R;
    write_a_p_full(pp, x, cell ? &cell->text : &empty, ppr, sz, header);
    qr_xml_end(x); /* a:txBody */
    qr_xml_start(x, "a:tcPr");
    qr_xml_attr_int(x, "marL", CELL_MAR_LR);
    qr_xml_attr_int(x, "marR", CELL_MAR_LR);
    qr_xml_attr_int(x, "marT", CELL_MAR_TB);
    qr_xml_attr_int(x, "marB", CELL_MAR_TB);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <p:graphicFrame> holding an <a:tbl>: grid widths from the table's
 * relative widths over the area, a font size (18 pt down to 8 pt) chosen
 * so the estimated rows fit the area's height. */
static void write_p_graphicframe(qr_pptx *pp, qr_xml *x, int id, const qr_table *t,
                                 qr_pptx_box area, const char *slide_path)
{
    size_t nc = t->n_cols ? t->n_cols : 1;
    size_t nr = t->n_rows + (t->headers ? 1 : 0);
    if (nr == 0) return; /* PowerPoint repairs an a:tbl without rows: write no frame */
    long long *cols = malloc(nc * sizeof *cols);
    long long *rows = malloc((nr ? nr : 1) * sizeof *rows);
    if (!cols || !rows) {
        free(cols);
        free(rows);
        qr_pptx_fail(pp, QR_E_NOMEM);
        return;
    }
    long long used = 0;
    for (size_t c = 0; c < nc; c++) {
        double f = t->widths ? t->widths[c] : 1.0 / (double)nc;
        cols[c] = c + 1 == nc ? area.cx - used : (long long)(f * (double)area.cx + 0.5);
        if (cols[c] < 2 * CELL_MAR_LR + 12700) cols[c] = 2 * CELL_MAR_LR + 12700;
        used += cols[c];
    }
    static const int sizes[] = {1800, 1600, 1400, 1200, 1100, 1000, 900, 800};
    int sz = 800;
    long long total = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        total = table_heights(t, cols, sizes[k], rows);
        sz = sizes[k];
        if (total <= area.cy) break;
    }
    if (total > area.cy)
        qr_errlist_addf(pp->ctx->warnings, QR_OK, t->path ? t->path : slide_path,
                        "split the table over more slides",
                        "the table does not fit the slide even at 8 pt");

    qr_xml_start(x, "p:graphicFrame");
    qr_xml_start(x, "p:nvGraphicFramePr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", "Table");
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvGraphicFramePr");
    qr_xml_leaf(x, "a:graphicFrameLocks", "noGrp", "1", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    qr_pptx_box box = {area.x, area.y, used, total < area.cy ? total : area.cy};
    qr_pptx_write_xfrm(x, "p:xfrm", &box);
    qr_xml_start(x, "a:graphic");
    qr_xml_start(x, "a:graphicData");
    qr_xml_attr(x, "uri", "http://schemas.openxmlformats.org/drawingml/2006/table");
    qr_xml_start(x, "a:tbl");
    qr_xml_start(x, "a:tblPr");
    if (t->headers) qr_xml_attr(x, "firstRow", "1");
    qr_xml_attr(x, "bandRow", "1");
    qr_xml_elem_text(x, "a:tableStyleId", "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}");
    qr_xml_end(x);
    qr_xml_start(x, "a:tblGrid");
    for (size_t c = 0; c < nc; c++) {
        qr_xml_start(x, "a:gridCol");
        qr_xml_attr_int(x, "w", cols[c]);
        qr_xml_end(x);
    }
    qr_xml_end(x);
    for (size_t r = 0; r < nr; r++) {
        qr_xml_start(x, "a:tr");
        qr_xml_attr_int(x, "h", rows[r]);
        for (size_t c = 0; c < nc; c++)
            write_a_tc(pp, x, table_cell(t, r, c), sz, t->headers && r == 0);
        qr_xml_end(x);
    }
    qr_xml_end(x); /* a:tbl */
    qr_xml_end(x); /* a:graphicData */
    qr_xml_end(x); /* a:graphic */
    qr_xml_end(x); /* p:graphicFrame */
    free(cols);
    free(rows);
}

/* ---- pictures ---------------------------------------------------------------------- */

/* <p:pic>: the image scaled to fit the area keeping its aspect ratio, centred. */
static void write_p_pic(qr_pptx *pp, qr_xml *x, int id, const qr_image *img, qr_pptx_box area,
                        const char *part)
{
    char media[512], target[512];
    snprintf(media, sizeof media, "ppt/media/%s", img->name);
    snprintf(target, sizeof target, "../media/%s", img->name);
    if (qr_pptx_fail(pp, qr_package_add_media(pp->pkg, media, img->data, img->size))) return;
    const char *rid = qr_package_rel(pp->pkg, part, QR_REL_IMAGE, target, 0);
    if (!rid) {
        qr_pptx_fail(pp, QR_E_NOMEM);
        return;
    }
    double w = img->width_px ? (double)img->width_px : 1,
           h = img->height_px ? (double)img->height_px : 1;
    double s = (double)area.cx / w;
    if ((double)area.cy / h < s) s = (double)area.cy / h;
    long long cx = (long long)(w * s), cy = (long long)(h * s);
    if (cx < 1) cx = 1;
    if (cy < 1) cy = 1;
    qr_pptx_box box = {area.x + (area.cx - cx) / 2, area.y + (area.cy - cy) / 2, cx, cy};

    qr_xml_start(x, "p:pic");
    qr_xml_start(x, "p:nvPicPr");
    qr_xml_start(x, "p:cNvPr");
    qr_xml_attr_int(x, "id", id);
    qr_xml_attr(x, "name", img->name);
    qr_xml_attr(x, "descr", img->alt ? img->alt : "");
    qr_xml_end(x);
    qr_xml_start(x, "p:cNvPicPr");
    qr_xml_leaf(x, "a:picLocks", "noChangeAspect", "1", NULL);
    qr_xml_end(x);
    qr_xml_leaf(x, "p:nvPr", NULL);
    qr_xml_end(x);
    qr_xml_start(x, "p:blipFill");
    qr_xml_leaf(x, "a:blip", "r:embed", rid, NULL);
    qr_xml_start(x, "a:stretch");
    qr_xml_leaf(x, "a:fillRect", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_start(x, "p:spPr");
    qr_pptx_write_xfrm(x, "a:xfrm", &box);
    qr_xml_start(x, "a:prstGeom");
    qr_xml_attr(x, "prst", "rect");
    qr_xml_leaf(x, "a:avLst", NULL);
    qr_xml_end(x);
    qr_xml_end(x);
    qr_xml_end(x); /* p:pic */
}

/* ---- the slide ---------------------------------------------------------------------- */

#define GAP 228600 /* 0.25 in between the text and the table/image */

/* Split an area into a left and a right part. */
static void split_h(qr_pptx_box a, qr_pptx_box *l, qr_pptx_box *r)
{
    long long half = (a.cx - GAP) / 2;
    *l = (qr_pptx_box){a.x, a.y, half, a.cy};
    *r = (qr_pptx_box){a.x + half + GAP, a.y, a.cx - half - GAP, a.cy};
}

static void split_v(qr_pptx_box a, qr_pptx_box *t, qr_pptx_box *b)
{
    long long half = (a.cy - GAP) / 2;
    *t = (qr_pptx_box){a.x, a.y, a.cx, half};
    *b = (qr_pptx_box){a.x, a.y + half + GAP, a.cx, a.cy - half - GAP};
}

static const int layout_part[] = {
    [QR_LAYOUT_TITLE_CONTENT] = QR_PPTX_LAYOUT_CONTENT,
    [QR_LAYOUT_TITLE] = QR_PPTX_LAYOUT_TITLE,
    [QR_LAYOUT_SECTION] = QR_PPTX_LAYOUT_SECTION,
    [QR_LAYOUT_BLANK] = QR_PPTX_LAYOUT_BLANK,
};

/* <p:sld> */
qr_status qr_pptx_slide(qr_pptx *pp, size_t i)
{
    const qr_slide *sl = &pp->doc->slides[i];
    const qr_pptx_geom *g = &pp->geom;
    char part[64], target[64];
    snprintf(part, sizeof part, "ppt/slides/slide%zu.xml", i + 1);
    int lay = layout_part[sl->layout];
    snprintf(target, sizeof target, "../slideLayouts/slideLayout%d.xml", lay + 1);
    if (!qr_package_rel(pp->pkg, part, QR_REL_SLIDE_LAYOUT, target, 0))
        return qr_pptx_fail(pp, QR_E_NOMEM);
    pp->part = part;
    pp->n_links = 0;

    /* Titles, and the text of the body: subtitle, then bullets. */
    pars title = {0}, body = {0};
    int body_bullet = QR_PPTX_BULLET_CHAR, body_algn = QR_PPTX_ALGN_INHERIT, body_sz = 0;
    int title_sz = QR_PPTX_SZ_TITLE;
    if (sl->layout == QR_LAYOUT_TITLE) {
        title_sz = QR_PPTX_SZ_CTR_TITLE;
        body_bullet = QR_PPTX_BULLET_NONE;
        body_algn = QR_PPTX_ALGN_CTR;
        body_sz = QR_PPTX_SZ_SUBTITLE;
    } else if (sl->layout == QR_LAYOUT_SECTION) {
        title_sz = QR_PPTX_SZ_SECTION_TITLE;
        body_bullet = QR_PPTX_BULLET_NONE;
        body_sz = QR_PPTX_SZ_SECTION_BODY;
    }
    int title_algn = sl->layout == QR_LAYOUT_TITLE ? QR_PPTX_ALGN_CTR : QR_PPTX_ALGN_INHERIT;
    if (sl->has_title)
        pars_add(pp, &title, &sl->title, 0, QR_PPTX_BULLET_INHERIT, title_algn, title_sz, 0);
    if (sl->has_subtitle)
        pars_add(pp, &body, &sl->subtitle, 0, QR_PPTX_BULLET_NONE, body_algn,
                 body_sz ? body_sz : QR_PPTX_SZ_SUBTITLE, 0);
    add_items(pp, &body, sl->bullets, sl->n_bullets, 0, body_bullet, body_algn, body_sz);

    /* Areas. */
    qr_pptx_box title_box = g->title, body_box = g->body;
    const char *title_ph = "title", *body_ph = NULL;
    if (sl->layout == QR_LAYOUT_TITLE) {
        title_box = g->ctr_title;
        body_box = g->subtitle;
        title_ph = "ctrTitle";
        body_ph = "subTitle";
    } else if (sl->layout == QR_LAYOUT_SECTION) {
        title_box = g->sec_title;
        body_box = g->sec_body;
        body_ph = "body";
    }
    int visuals = (sl->table != NULL) + (sl->image != NULL || sl->chart != NULL);
    qr_pptx_box text_area = body_box, vis_area = body_box, table_area, image_area;
    if (visuals && body.n) split_h(body_box, &text_area, &vis_area);
    table_area = image_area = vis_area;
    if (visuals == 2) {
        if (body.n)
            split_v(vis_area, &table_area, &image_area);
        else
            split_h(vis_area, &table_area, &image_area);
    }

    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) goto done;
    qr_pptx_root(x, "p:sld");
    qr_xml_start(x, "p:cSld");
    qr_xml_start(x, "p:spTree");
    qr_pptx_write_tree_start(x);
    int id = 2;
    int ph = sl->layout != QR_LAYOUT_BLANK;
    if (title.n) {
        text_shape sh = {.name = "Title",
                         .placeholder = ph,
                         .ph_type = title_ph,
                         .box = title_box,
                         .anchor = "ctr",
                         .ps = &title};
        write_p_sp(pp, x, id++, &sh, sl->path);
    }
    if (body.n) {
        text_shape sh = {.name = "Content",
                         .placeholder = ph,
                         .ph_type = body_ph,
                         .ph_idx = 1,
                         .box = text_area,
                         .ps = &body};
        write_p_sp(pp, x, id++, &sh, sl->path);
    }
    if (sl->table) write_p_graphicframe(pp, x, id++, sl->table, table_area, sl->path);
    qr_pptx_box chart_area = image_area; /* a chart beside an image: below it */
    if (sl->image && sl->chart) split_v(chart_area, &image_area, &chart_area);
    if (sl->image) write_p_pic(pp, x, id++, sl->image, image_area, part);
    if (sl->chart) qr_pptx_write_chart(pp, x, id++, sl->chart, chart_area, part);
    qr_xml_end(x); /* p:spTree */
    qr_xml_end(x); /* p:cSld */
    qr_xml_start(x, "p:clrMapOvr");
    qr_xml_leaf(x, "a:masterClrMapping", NULL);
    qr_xml_end(x);
    qr_xml_end(x); /* p:sld */
    qr_pptx_add(pp, part, QR_CT_PPTX_SLIDE, &b, x);
done:
    free(title.items);
    free(body.items);
    pp->part = NULL;
    return pp->status;
}
