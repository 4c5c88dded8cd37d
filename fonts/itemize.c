/* itemize.c: splitting a paragraph into spans of one script and one font.
 *
 * Four linear passes over the paragraph's code points (all runs together,
 * so context crosses run boundaries while spans never do):
 *
 *  1. decode and classify: the UAX #24 script (HarfBuzz's Unicode functions)
 *     and a class from the general category: strong (a real script), space,
 *     punctuation, other weak (digits, symbols), mark (inherited, ZWJ/ZWNJ,
 *     format). Fullwidth Latin letters count as Han: they are CJK text.
 *  2. resolve weak characters to a neighbour's script: the previous run's,
 *     or, for punctuation at the start of a word (after a space or at the
 *     start), the next letter's, so "(हिन्दी" keeps its bracket; with nothing
 *     before them, the next letter's; with no letter anywhere, Common.
 *  3. CJK flavour, when lang does not fix it: per sentence (split at
 *     。！？.!?\n．), kana -> JP, hangul without Han -> KR, else SC; kana is
 *     always JP and hangul always KR.
 *  4. fonts: the script's family when it covers the character, else the
 *     chain (DejaVu Sans, Noto Sans Math, Symbols2, Symbols, Noto Sans CJK of
 *     the flavour), else the first family in FcFontSort order that covers it.
 *     A character no family covers stays in the current span and is listed
 *     in missing. Invisible characters (controls, format characters such as
 *     ZWJ/ZWNJ, variation selectors) never split a span and are never missing.
 *
 * Pure-ASCII paragraphs (most of them) skip all of this when the base family
 * covers printable ASCII: one span per run.
 */
#include <hb.h>
#include <stdlib.h>
#include <string.h>

#include "fonts_int.h"

enum { C_STRONG, C_SPACE, C_PUNCT, C_WEAK, C_MARK };

typedef struct cpi {
    uint32_t cp;
    uint32_t script; /* own script when strong; next strong script, then the resolved one */
    size_t off;      /* byte offset in its run */
    uint32_t run;
    uint8_t len, cls, ign, flav;
} cpi;

/* One piece of input: a run's text. */
typedef struct seg {
    const char *s;
    size_t len;
} seg;

/* ---- output ------------------------------------------------------------------ */

static qr_status push_span(qr_spans *out, const qr_span *sp)
{
    if (out->n == out->cap) {
        size_t nc = out->cap ? out->cap * 2 : 16;
        qr_span *ni = realloc(out->items, nc * sizeof *ni);
        if (!ni) return qr_fail(QR_E_NOMEM);
        out->items = ni;
        out->cap = nc;
    }
    out->items[out->n++] = *sp;
    return QR_OK;
}

static qr_status push_missing(qr_spans *out, uint32_t run, uint32_t cp)
{
    if (out->n_missing == out->cap_missing) {
        size_t nc = out->cap_missing ? out->cap_missing * 2 : 8;
        qr_missing *nm = realloc(out->missing, nc * sizeof *nm);
        if (!nm) return qr_fail(QR_E_NOMEM);
        out->missing = nm;
        out->cap_missing = nc;
    }
    out->missing[out->n_missing].run = run;
    out->missing[out->n_missing].cp = cp;
    out->n_missing++;
    return QR_OK;
}

/* A set of (run, cp) already reported in this call: open addressing. */
typedef struct seen_set {
    uint64_t *keys; /* 0 = empty; key = (run << 21 | cp) + 1 */
    size_t cap, n;
} seen_set;

/* Returns 1 when newly added, 0 when present, -1 on OOM. */
static int seen_add(seen_set *s, uint32_t run, uint32_t cp)
{
    uint64_t key = (((uint64_t)run << 21) | cp) + 1;
    if (2 * (s->n + 1) > s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        uint64_t *nk = calloc(nc, sizeof *nk);
        if (!nk) return -1;
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->keys[i]) continue;
            size_t h = (size_t)(s->keys[i] * 0x9E3779B97F4A7C15ull) & (nc - 1);
            while (nk[h])
                h = (h + 1) & (nc - 1);
            nk[h] = s->keys[i];
        }
        free(s->keys);
        s->keys = nk;
        s->cap = nc;
    }
    size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & (s->cap - 1);
    while (s->keys[h]) {
        if (s->keys[h] == key) return 0;
        h = (h + 1) & (s->cap - 1);
    }
    s->keys[h] = key;
    s->n++;
    return 1;
}

/* ---- pass 1: classify ---------------------------------------------------------- */

/* ASCII classes: letters are strong Latin. */
static uint8_t ascii_class(uint32_t c, uint8_t *ign)
{
    *ign = 0;
    if (((c | 0x20) - 'a') < 26u) return C_STRONG;
    if (c - '0' < 10u) return C_WEAK;
    if (c == ' ') return C_SPACE;
    if (c < 0x20 || c == 0x7F) {
        *ign = 1;
        return (c >= 0x09 && c <= 0x0D) ? C_SPACE : C_MARK;
    }
    /* Symbols (gc S*): $ + < = > ^ ` | ~ ; the rest of ASCII is punctuation. */
    return strchr("$+<=>^`|~", (int)c) ? C_WEAK : C_PUNCT;
}

static int default_ignorable(uint32_t cp)
{
    return (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF) || cp == 0x034F ||
           (cp >= 0x180B && cp <= 0x180F) || cp == 0x115F || cp == 0x1160 || cp == 0x3164 ||
           cp == 0xFFA0 || (cp >= 0xE0000 && cp <= 0xE0FFF);
}

static void classify(hb_unicode_funcs_t *uf, cpi *c)
{
    uint32_t cp = c->cp;
    if (cp < 0x80) {
        c->cls = ascii_class(cp, &c->ign);
        c->script = c->cls == C_STRONG ? HB_SCRIPT_LATIN : 0;
        return;
    }
    hb_unicode_general_category_t gc = hb_unicode_general_category(uf, cp);
    hb_script_t sc = hb_unicode_script(uf, cp);
    c->ign = gc == HB_UNICODE_GENERAL_CATEGORY_CONTROL ||
             gc == HB_UNICODE_GENERAL_CATEGORY_FORMAT ||
             gc == HB_UNICODE_GENERAL_CATEGORY_LINE_SEPARATOR ||
             gc == HB_UNICODE_GENERAL_CATEGORY_PARAGRAPH_SEPARATOR ||
             gc == HB_UNICODE_GENERAL_CATEGORY_SURROGATE || default_ignorable(cp);
    if (sc != HB_SCRIPT_COMMON && sc != HB_SCRIPT_INHERITED && sc != HB_SCRIPT_UNKNOWN) {
        /* Fullwidth Latin letters (Ａ, ｚ) are set in CJK text with CJK fonts. */
        if ((cp >= 0xFF21 && cp <= 0xFF3A) || (cp >= 0xFF41 && cp <= 0xFF5A)) sc = HB_SCRIPT_HAN;
        c->cls = C_STRONG;
        c->script = sc;
        return;
    }
    c->script = 0;
    switch (gc) {
    case HB_UNICODE_GENERAL_CATEGORY_SPACE_SEPARATOR:
    case HB_UNICODE_GENERAL_CATEGORY_LINE_SEPARATOR:
    case HB_UNICODE_GENERAL_CATEGORY_PARAGRAPH_SEPARATOR:
        c->cls = C_SPACE;
        break;
    case HB_UNICODE_GENERAL_CATEGORY_CONNECT_PUNCTUATION:
    case HB_UNICODE_GENERAL_CATEGORY_DASH_PUNCTUATION:
    case HB_UNICODE_GENERAL_CATEGORY_OPEN_PUNCTUATION:
    case HB_UNICODE_GENERAL_CATEGORY_CLOSE_PUNCTUATION:
    case HB_UNICODE_GENERAL_CATEGORY_INITIAL_PUNCTUATION:
    case HB_UNICODE_GENERAL_CATEGORY_FINAL_PUNCTUATION:
    case HB_UNICODE_GENERAL_CATEGORY_OTHER_PUNCTUATION:
        c->cls = sc == HB_SCRIPT_INHERITED ? C_MARK : C_PUNCT;
        break;
    case HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK:
    case HB_UNICODE_GENERAL_CATEGORY_FORMAT:
    case HB_UNICODE_GENERAL_CATEGORY_CONTROL:
        c->cls = (gc == HB_UNICODE_GENERAL_CATEGORY_CONTROL && cp == 0x85) ? C_SPACE : C_MARK;
        break;
    default:
        c->cls = sc == HB_SCRIPT_INHERITED ? C_MARK : C_WEAK;
        break;
    }
}

/* ---- pass 2: resolve weak characters -------------------------------------------- */

static void resolve(cpi *v, size_t n)
{
    uint32_t next = 0;
    for (size_t i = n; i-- > 0;) {
        if (v[i].cls == C_STRONG)
            next = v[i].script;
        else
            v[i].script = next; /* the next strong script, 0 for none */
    }
    uint32_t prev = 0;
    int word_start = 1;
    for (size_t i = 0; i < n; i++) {
        cpi *c = &v[i];
        uint32_t r;
        switch (c->cls) {
        case C_STRONG:
            prev = c->script;
            word_start = 0;
            continue;
        case C_SPACE:
            r = prev ? prev : c->script;
            word_start = 1;
            break;
        case C_PUNCT:
            r = (word_start && c->script) ? c->script : (prev ? prev : c->script);
            word_start = 0;
            break;
        case C_MARK:
            r = prev ? prev : c->script;
            break;
        default:
            r = prev ? prev : c->script;
            word_start = 0;
            break;
        }
        if (r)
            prev = r;
        else
            r = HB_SCRIPT_COMMON;
        c->script = r;
    }
}

/* ---- pass 3: CJK flavour per sentence --------------------------------------------- */

static int is_sentence_end(uint32_t cp)
{
    return cp == 0x3002 || cp == 0xFF01 || cp == 0xFF1F || cp == '.' || cp == '!' || cp == '?' ||
           cp == '\n' || cp == 0xFF0E;
}

#define FLAV_OPEN 0xFE /* a Han-only sentence: decided by its neighbours */

static int is_kana_hangul(const cpi *c)
{
    return c->cls == C_STRONG && (c->script == HB_SCRIPT_HIRAGANA ||
                                  c->script == HB_SCRIPT_KATAKANA || c->script == HB_SCRIPT_HANGUL);
}

/* A Han-only sentence takes the flavour of the nearest kana or hangul
 * before it in the paragraph ("東京都。" after a Japanese sentence), else
 * dflt: a Han sentence that opens a paragraph reads as its own. */
static void open_flavours(cpi *v, size_t n, uint8_t dflt)
{
    uint8_t last = dflt;
    for (size_t i = 0; i < n; i++) {
        if (is_kana_hangul(&v[i])) last = v[i].script == HB_SCRIPT_HANGUL ? QR_CJK_KR : QR_CJK_JP;
        if (v[i].flav == FLAV_OPEN) v[i].flav = last;
    }
}

static void sentence_flavours(cpi *v, size_t n, uint8_t dflt)
{
    size_t i = 0;
    int open = 0;
    while (i < n) {
        size_t j = i;
        int kana = 0, hangul = 0, han = 0;
        while (j < n) {
            uint32_t s = v[j].script;
            if (v[j].cls == C_STRONG) {
                if (s == HB_SCRIPT_HIRAGANA || s == HB_SCRIPT_KATAKANA)
                    kana = 1;
                else if (s == HB_SCRIPT_HANGUL)
                    hangul = 1;
                else if (s == HB_SCRIPT_HAN)
                    han = 1;
            }
            if (is_sentence_end(v[j++].cp)) break;
        }
        uint8_t fl = kana               ? QR_CJK_JP
                     : (hangul && !han) ? QR_CJK_KR
                     : hangul           ? QR_CJK_SC
                                        : FLAV_OPEN;
        open |= fl == FLAV_OPEN;
        for (; i < j; i++)
            v[i].flav = fl;
    }
    if (open) open_flavours(v, n, dflt);
}

static int is_cjk_script(uint32_t s)
{
    return s == HB_SCRIPT_HAN || s == HB_SCRIPT_HIRAGANA || s == HB_SCRIPT_KATAKANA ||
           s == HB_SCRIPT_HANGUL || s == HB_SCRIPT_BOPOMOFO;
}

/* ---- pass 4: fonts and spans ------------------------------------------------------- */

typedef struct ctx {
    const qr_fonts *f;
    const seg *segs;
    const char *lang;
    int lang_flav;
    qr_spans *out;
    seen_set seen;
    int last_resort; /* the last family found in FcFontSort order, -1 */
    /* the open span */
    int open;
    uint32_t run, script;
    int fam;
    const char *span_lang;
    qr_font_slot slot;
    int rtl;
    size_t start, end;
    /* per-script cache */
    uint32_t c_script;
    const qr_script_info *c_si;
    int c_fam;               /* the table's family, -1: by flavour (CJK) */
    const char *arabic_lang; /* the paragraph's Arabic-script language (arabic_lang()), or NULL */
    qr_font_slot c_slot;
    int c_rtl;
} ctx;

static qr_status close_span(ctx *x)
{
    if (!x->open) return QR_OK;
    x->open = 0;
    qr_span sp = {0};
    sp.run = x->run;
    sp.start = x->start;
    sp.len = x->end - x->start;
    sp.script = x->script;
    sp.family = x->f->fams[x->fam].name;
    sp.file = x->f->fams[x->fam].file;
    sp.slot = x->slot;
    sp.rtl = (unsigned)x->rtl;
    sp.lang = x->span_lang;
    return push_span(x->out, &sp);
}

static void set_script(ctx *x, uint32_t script)
{
    x->c_script = script;
    x->c_si = qr_fonts_script_info(script);
    x->c_rtl = hb_script_get_horizontal_direction((hb_script_t)script) == HB_DIRECTION_RTL;
    if (x->c_si) {
        x->c_slot = x->c_si->slot;
        size_t k = (size_t)(x->c_si - qr_fonts_scripts);
        x->c_fam = x->c_si->cjk               ? -1
                   : x->f->script_fam[k] >= 0 ? x->f->script_fam[k]
                                              : x->f->chain[QR_CHAIN_BASE];
    } else {
        x->c_slot = x->c_rtl ? QR_SLOT_COMPLEX : QR_SLOT_LATIN;
        x->c_fam = x->f->chain[QR_CHAIN_BASE];
    }
}

/* A family for cp that is not the script's: the chain, then FcFontSort order. */
static int fallback(ctx *x, uint32_t cp, int flav)
{
    const qr_fonts *f = x->f;
    for (int c = 0; c < QR_CHAIN_COUNT; c++)
        if (f->chain[c] >= 0 && qr_fonts_covers(f, f->chain[c], cp)) return f->chain[c];
    if (f->cjk[flav] >= 0 && qr_fonts_covers(f, f->cjk[flav], cp)) return f->cjk[flav];
    if (x->last_resort >= 0 && qr_fonts_covers(f, x->last_resort, cp)) return x->last_resort;
    int r = qr_fonts_last_resort(f, cp);
    if (r >= 0) x->last_resort = r;
    return r;
}

static int is_cjk_family(const qr_fonts *f, int fam)
{
    for (int c = 0; c < QR_CJK_COUNT; c++)
        if (f->cjk[c] == fam) return 1;
    return 0;
}

static qr_status fonts_pass(ctx *x, const cpi *v, size_t n)
{
    const qr_fonts *f = x->f;
    int base = f->chain[QR_CHAIN_BASE];
    x->c_script = 0xFFFFFFFFu;
    int span_flav = -1;
    for (size_t i = 0; i < n; i++) {
        const cpi *c = &v[i];
        if (c->script != x->c_script) set_script(x, c->script);
        int flav;
        if (x->lang_flav != QR_CJK_AUTO)
            flav = x->lang_flav;
        else if (c->script == HB_SCRIPT_HIRAGANA || c->script == HB_SCRIPT_KATAKANA)
            flav = QR_CJK_JP;
        else if (c->script == HB_SCRIPT_HANGUL)
            flav = QR_CJK_KR;
        else
            flav = c->flav;
        int desired = x->c_fam >= 0 ? x->c_fam : f->cjk[flav];
        int same = x->open && x->run == c->run && x->script == c->script;
        int fam;
        uint32_t cp = c->cp;
        if (c->ign || cp == ' ' || cp == 0xA0) {
            fam = same ? x->fam : desired;
        } else if ((cp < 0x80 && desired == base && f->ascii_ok && cp >= 0x20) ||
                   qr_fonts_covers(f, desired, cp)) {
            fam = desired;
        } else if (same && qr_fonts_covers(f, x->fam, cp)) {
            fam = x->fam;
        } else {
            fam = fallback(x, cp, flav);
            if (fam < 0) {
                fam = same ? x->fam : desired;
                if (c->cls != C_SPACE) {
                    int added = seen_add(&x->seen, c->run, cp);
                    if (added < 0) return qr_fail(QR_E_NOMEM);
                    if (added && push_missing(x->out, c->run, cp) != QR_OK)
                        return qr_fail(QR_E_NOMEM);
                }
            }
        }
        int span_fl = (x->c_si && x->c_si->cjk) ? flav : -1;
        if (same && fam == x->fam && span_fl == span_flav) {
            x->end = c->off + c->len;
            continue;
        }
        if (close_span(x) != QR_OK) return QR_E_NOMEM;
        x->open = 1;
        x->run = c->run;
        x->script = c->script;
        x->fam = fam;
        x->start = c->off;
        x->end = c->off + c->len;
        span_flav = span_fl;
        x->rtl = x->c_rtl;
        if (!(x->c_si && x->c_si->cjk) && is_cjk_family(f, fam)) {
            /* Neutral characters only a CJK font has (。, fullwidth digits):
             * they belong in the East Asian slot, with its language. */
            x->slot = QR_SLOT_EAST_ASIAN;
            x->span_lang = qr_fonts_span_lang(qr_fonts_script_info(HB_SCRIPT_HAN), HB_SCRIPT_HAN,
                                              flav, x->lang);
        } else {
            x->slot = x->c_slot;
            x->span_lang = qr_fonts_span_lang(x->c_si, c->script, flav, x->lang);
            if (x->arabic_lang && c->script == HB_SCRIPT_ARABIC && x->c_si && x->span_lang &&
                strcmp(x->span_lang, x->c_si->lang) == 0)
                x->span_lang = x->arabic_lang;
        }
    }
    return close_span(x);
}

/* The language of a paragraph's Arabic-script text, by the letters only one
 * of them has (NULL: Arabic, or nothing to tell):
 *   Pashto: ټ ډ ړ ږ ښ ګ ڼ ې ۍ (U+067C U+0689 U+0693 U+0696 U+069A U+06AB
 *           U+06BC U+06D0 U+06CD);
 *   Sindhi: ڀ ٻ ڄ ڃ ڇ ڏ ڍ ڌ ڙ ڦ ڪ ڳ ڱ ٺ ٽ ٿ (U+0680 U+067B U+0684 U+0683
 *           U+0687 U+068F U+068D U+068C U+0699 U+06A6 U+06AA U+06B3 U+06B1
 *           U+067A U+067D U+067F);
 *   Urdu:   ٹ ڈ ڑ ں ھ ے (U+0679 U+0688 U+0691 U+06BA U+06BE U+06D2);
 *   Persian: پ چ ژ گ, Farsi yeh ی, keheh ک or an Extended Arabic-Indic
 *           digit (U+06F0-06F9), and none of the above.
 * Pashto and Sindhi letters win over Urdu's (both also write some of
 * them), Urdu's over Persian's (Urdu writes all of Persian's). */
static const char *arabic_lang(const cpi *v, size_t n)
{
    static const uint32_t ps[] = {0x067C, 0x0689, 0x0693, 0x0696, 0x069A,
                                  0x06AB, 0x06BC, 0x06D0, 0x06CD};
    static const uint32_t sd[] = {0x0680, 0x067B, 0x0684, 0x0683, 0x0687, 0x068F, 0x068D, 0x068C,
                                  0x0699, 0x06A6, 0x06AA, 0x06B3, 0x06B1, 0x067A, 0x067D, 0x067F};
    static const uint32_t ur[] = {0x0679, 0x0688, 0x0691, 0x06BA, 0x06BE, 0x06D2};
    int has_ps = 0, has_sd = 0, has_ur = 0, has_fa = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = v[i].cp;
        if (cp < 0x0679 || cp > 0x06F9) continue;
        for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
            if (cp == ps[k]) has_ps = 1;
        for (size_t k = 0; k < sizeof sd / sizeof sd[0]; k++)
            if (cp == sd[k]) has_sd = 1;
        for (size_t k = 0; k < sizeof ur / sizeof ur[0]; k++)
            if (cp == ur[k]) has_ur = 1;
        if (cp == 0x067E || cp == 0x0686 || cp == 0x0698 || cp == 0x06AF || cp == 0x06CC ||
            cp == 0x06A9 || cp >= 0x06F0)
            has_fa = 1;
    }
    if (has_ps && !has_sd) return "ps";
    if (has_sd) return "sd";
    if (has_ur) return "ur";
    return has_fa ? "fa" : NULL;
}

/* ---- entry points ------------------------------------------------------------------- */

static int all_ascii(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w & 0x8080808080808080ull) return 0;
    }
    for (; i < n; i++)
        if (p[i] & 0x80) return 0;
    return 1;
}

static int has_ascii_letter(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (((unsigned)((unsigned char)s[i] | 0x20) - (unsigned)'a') < 26u) return 1;
    return 0;
}

static qr_status itemize(qr_fonts *f, const seg *segs, size_t n_segs, const char *lang,
                         qr_spans *out)
{
    if (!f) f = qr_fonts_default();
    if (!out) return qr_fail(QR_E_USAGE);

    /* Fast path: pure ASCII with a base family that covers it. */
    if (f->ascii_ok) {
        int ascii = 1, letter = 0;
        for (size_t r = 0; r < n_segs && ascii; r++)
            ascii = all_ascii(segs[r].s, segs[r].len);
        if (ascii) {
            for (size_t r = 0; r < n_segs && !letter; r++)
                letter = has_ascii_letter(segs[r].s, segs[r].len);
            uint32_t script = letter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON;
            const qr_family *fam = &f->fams[f->chain[QR_CHAIN_BASE]];
            qr_span sp = {0};
            sp.script = script;
            sp.family = fam->name;
            sp.file = fam->file;
            sp.slot = QR_SLOT_LATIN;
            sp.lang = qr_fonts_span_lang(qr_fonts_script_info(script), script, QR_CJK_SC, lang);
            for (size_t r = 0; r < n_segs; r++) {
                if (!segs[r].len) continue;
                sp.run = (uint32_t)r;
                sp.len = segs[r].len;
                if (push_span(out, &sp) != QR_OK) return QR_E_NOMEM;
            }
            return QR_OK;
        }
    }

    /* Decode. */
    size_t cap = 0;
    for (size_t r = 0; r < n_segs; r++) {
        const unsigned char *s = (const unsigned char *)segs[r].s;
        for (size_t i = 0; i < segs[r].len; i++)
            cap += (s[i] & 0xC0) != 0x80;
    }
    cap += 16;
    cpi *v = malloc(cap * sizeof *v);
    if (!v) return qr_fail(QR_E_NOMEM);
    hb_unicode_funcs_t *uf = hb_unicode_funcs_get_default();
    size_t n = 0;
    int any_cjk = 0;
    for (size_t r = 0; r < n_segs; r++) {
        const unsigned char *s = (const unsigned char *)segs[r].s;
        size_t len = segs[r].len, i = 0;
        while (i < len) {
            if (n == cap) {
                size_t nc = cap * 2;
                cpi *nv = realloc(v, nc * sizeof *nv);
                if (!nv) {
                    free(v);
                    return qr_fail(QR_E_NOMEM);
                }
                v = nv;
                cap = nc;
            }
            cpi *c = &v[n++];
            size_t k = qr_fonts_utf8(s + i, len - i, &c->cp);
            c->off = i;
            c->len = (uint8_t)k;
            c->run = (uint32_t)r;
            c->flav = QR_CJK_SC;
            classify(uf, c);
            if (c->cls == C_STRONG && !any_cjk) any_cjk = is_cjk_script(c->script);
            i += k;
        }
    }
    resolve(v, n);
    int lang_flav = qr_fonts_lang_flavour(lang);
    int dflt = qr_fonts_lang_flavour(out->cjk_lang);
    if (any_cjk && lang_flav == QR_CJK_AUTO)
        sentence_flavours(v, n, dflt == QR_CJK_AUTO ? QR_CJK_SC : (uint8_t)dflt);

    ctx x;
    memset(&x, 0, sizeof x);
    x.f = f;
    x.segs = segs;
    x.lang = lang;
    x.lang_flav = lang_flav;
    x.out = out;
    x.last_resort = -1;
    x.arabic_lang = arabic_lang(v, n);
    qr_status st = fonts_pass(&x, v, n);
    free(x.seen.keys);
    free(v);
    return st;
}

qr_status qr_fonts_itemize(qr_fonts *f, const char *utf8, size_t len, const char *lang,
                           qr_spans *out)
{
    seg s = {utf8 ? utf8 : "", utf8 ? len : 0};
    return itemize(f, &s, 1, lang, out);
}

qr_status qr_fonts_itemize_text(qr_fonts *f, const qr_text *text, const char *lang, qr_spans *out)
{
    if (!text || text->n == 0) return out ? QR_OK : qr_fail(QR_E_USAGE);
    seg local[16] = {{0}};
    seg *segs = text->n <= 16 ? local : malloc(text->n * sizeof *segs);
    if (!segs) return qr_fail(QR_E_NOMEM);
    for (size_t r = 0; r < text->n; r++) {
        segs[r].s = text->runs[r].text ? text->runs[r].text : "";
        segs[r].len = text->runs[r].text ? text->runs[r].len : 0;
    }
    qr_status st = itemize(f, segs, text->n, lang, out);
    if (segs != local) free(segs);
    return st;
}
