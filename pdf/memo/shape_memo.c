/* shape_memo.c: HarfBuzz shapes each text item once, not two or three
 * times (the quire CLI only).
 *
 * pango's line breaker (pango-layout.c process_item, pango 1.50 to 1.58)
 * shapes an item when it reaches it; when the item fits on the line it
 * shapes it again (its "early accept" path), and when it does not, it
 * shapes the part that goes on the line, maybe a shorter part after that,
 * and then the rest, each on its own: D1 made 34,017 hb_shape() calls over
 * 1.37 M characters for 0.65 M characters of text.
 *
 * The quire executable defines hb_shape() itself and exports it
 * (CMakeLists.txt links this file into the CLI alone): the executable comes
 * first in the process's symbol lookup, so pango's calls from the PDF module
 * (quire-pdf.so) resolve here, the way a program's own malloc() replaces
 * libc's. Each thread keeps the input and the output of the last call that
 * HarfBuzz shaped (dlsym RTLD_NEXT finds HarfBuzz's own hb_shape()). A call
 * whose input is that input, or a run of it, with the same text around it,
 * gets the output copied into its buffer: all of it, or the glyphs of the
 * run when HarfBuzz marked both ends of the run safe to break (no
 * HB_GLYPH_FLAG_UNSAFE_TO_BREAK on the glyphs where it is cut: HarfBuzz
 * documents that shaping the two sides apart then gives those same glyphs,
 * "to avoid re-shaping each line after line-breaking"). Any other call is
 * shaped by HarfBuzz and becomes the kept one. libquire (and its Python
 * binding) does not have the memo: a library must not replace its host's
 * HarfBuzz functions.
 *
 * The input is everything HarfBuzz reads: the font, the features, the
 * buffer's segment properties, flags, cluster level, invisible, replacement
 * and not-found glyphs, every code point with its cluster (pango's clusters
 * are byte offsets into the paragraph, so a run of the kept input is found
 * by its clusters), and the context. HarfBuzz has no getter for the
 * context, so hb_buffer_add_utf8() is wrapped too: it notes the 20 bytes
 * (HarfBuzz takes 5 code points at most) before and after the item, and the
 * item's own bytes, and hands the call on. A buffer filled any other way
 * (hb_buffer_add(), also wrapped, as pango does for a hyphen) is shaped by
 * HarfBuzz. pango shapes with a sub-font of the PangoFont's hb_font made for
 * each call, whose functions only differ from the parent's under
 * PangoAttrShow (quire never sets it): the parent (referenced, so its
 * pointer cannot be reused by another font meanwhile) and the sub-font's
 * scale stand for the font.
 *
 * The PDF does not change: tests/pdf/test_shape_memo.py compares the bytes
 * of multi-script documents with QUIRE_SHAPE_MEMO=0, which turns the memo
 * off. QUIRE_SHAPE_TRACE=1 prints the counts at exit.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hb-aat.h>
#include <hb-ot.h>
#include <hb.h>

/* The wrappers are exported from the executable (its symbols are hidden by
 * default), so pango's calls bind to them. */
#define QR_WRAP __attribute__((visibility("default")))

#define CTX_BYTES 20 /* HarfBuzz's 5 code points of context, 4 bytes at most each */

typedef void (*shape_fn)(hb_font_t *, hb_buffer_t *, const hb_feature_t *, unsigned int);
typedef void (*add_utf8_fn)(hb_buffer_t *, const char *, int, unsigned int, int);
typedef void (*add_fn)(hb_buffer_t *, hb_codepoint_t, unsigned int);

static shape_fn real_shape;
static add_utf8_fn real_add_utf8;
static add_fn real_add;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;
static pthread_key_t memo_key;
static int memo_off;                         /* QUIRE_SHAPE_MEMO=0 */
static int words_off;                        /* QUIRE_SHAPE_WORDS=0 */
static atomic_ulong n_calls, n_whole, n_run; /* every thread's, for QUIRE_SHAPE_TRACE */
static atomic_ulong n_words, n_word_calls;   /* calls answered from words, words shaped */

/* A growable byte array. */
typedef struct bytes {
    unsigned char *p;
    size_t n, cap;
} bytes;

/* Room for n bytes in b; 0 or -1. */
static int bytes_reserve(bytes *b, size_t n)
{
    if (n <= b->cap) return 0;
    size_t cap = n < 256 ? 256 : 2 * n;
    unsigned char *p = realloc(b->p, cap);
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

static int bytes_set(bytes *b, const void *src, size_t n)
{
    if (bytes_reserve(b, n) != 0) return -1;
    if (n) memcpy(b->p, src, n);
    b->n = n;
    return 0;
}

/* The text a buffer was filled from, as the wrapped hb_buffer_add_utf8()
 * saw it: the bytes from at most CTX_BYTES before the item to at most
 * CTX_BYTES after it, where the item starts in them and how long it is,
 * and where in the text they start (at_start: the text starts there too;
 * at_end: it ends where they end). */
typedef struct seen {
    const hb_buffer_t *buf; /* the buffer being filled, or NULL: not known */
    const char *src;        /* the caller's text */
    unsigned int len;       /* the buffer's length after the last wrapped add */
    bytes text;
    size_t from;    /* offset of text.p[0] in the caller's text */
    size_t item, n; /* the item: text.p[item .. item + n) */
    int at_start, at_end;
} seen;

/* The last input HarfBuzz shaped on this thread, and its output. */
typedef struct kept {
    int valid;
    hb_font_t *font; /* the parent font, referenced */
    int x_scale, y_scale;
    unsigned int x_ppem, y_ppem;
    float ptem;
    hb_segment_properties_t props;
    hb_buffer_flags_t flags;
    hb_buffer_cluster_level_t level;
    hb_codepoint_t invisible, replacement, not_found;
    bytes features;
    seen text;        /* its text (buf unused) */
    bytes in;         /* hb_codepoint_t pairs: code point, cluster */
    hb_buffer_t *out; /* HarfBuzz's output, copied */
    unsigned int n_in, n_out;
} kept;

/* ---- the word cache's records (see "words" below) ---- */

/* What a call shapes with, but its text: the font and the buffer's setup. */
typedef struct setup {
    hb_font_t *font; /* the parent font, referenced */
    int x_scale, y_scale;
    unsigned int x_ppem, y_ppem;
    float ptem;
    hb_segment_properties_t props;
    hb_buffer_cluster_level_t level;
    hb_codepoint_t invisible, replacement, not_found;
    bytes features;
    int apart; /* the font's lookups never see the space glyph (space_apart) */
} setup;

/* A piece of text shaped on its own: its code points and its glyphs in the
 * store (clusters from the piece's start). */
typedef struct word {
    uint64_t hash;
    unsigned int setup, flags;
    unsigned int cp, n_cp; /* in words.cps */
    unsigned int g, n_g;   /* in words.store */
} word;

typedef struct words {
    setup *setups;
    unsigned int n_setups, last;
    word *items;
    unsigned int n, cap;
    unsigned int *slots; /* open addressing: index + 1, 0 empty */
    unsigned int n_slots;
    hb_codepoint_t *cps;
    size_t n_cps, cap_cps;
    hb_buffer_t *store;   /* every word's glyphs */
    hb_buffer_t *scratch; /* a word being shaped */
    hb_buffer_t *out;     /* a call's glyphs, assembled */
} words;

typedef struct memo {
    seen now;          /* the buffer being filled on this thread */
    hb_buffer_t *copy; /* the input of the call being shaped, copied */
    kept k;
    words w;
} memo;

static void words_free(words *w);
static void color_drop(void);

static void memo_free(void *p)
{
    memo *m = p;
    if (!m) return;
    if (m->k.font) hb_font_destroy(m->k.font);
    free(m->now.text.p);
    free(m->k.text.text.p);
    free(m->k.features.p);
    free(m->k.in.p);
    hb_buffer_destroy(m->copy);
    hb_buffer_destroy(m->k.out);
    words_free(&m->w);
    color_drop();
    free(m);
}

static void trace(void)
{
    fprintf(stderr, "quire: hb_shape: %lu calls, %lu answered whole and %lu as a run by the memo\n",
            (unsigned long)atomic_load(&n_calls), (unsigned long)atomic_load(&n_whole),
            (unsigned long)atomic_load(&n_run));
    fprintf(stderr, "quire: hb_shape: %lu calls answered word by word, %lu words shaped\n",
            (unsigned long)atomic_load(&n_word_calls), (unsigned long)atomic_load(&n_words));
}

/* Like the PDF backend's font maps: the thread that calls exit() drops its
 * memo too (other threads' go with their thread), so leak checkers see it
 * freed. */
static void memo_at_exit(void)
{
    memo *m = pthread_getspecific(memo_key);
    pthread_setspecific(memo_key, NULL);
    memo_free(m);
}

static void real_init(void)
{
    real_shape = (shape_fn)dlsym(RTLD_NEXT, "hb_shape");
    real_add_utf8 = (add_utf8_fn)dlsym(RTLD_NEXT, "hb_buffer_add_utf8");
    real_add = (add_fn)dlsym(RTLD_NEXT, "hb_buffer_add");
    const char *e = getenv("QUIRE_SHAPE_MEMO");
    memo_off = (e && strcmp(e, "0") == 0) || pthread_key_create(&memo_key, memo_free) != 0;
    e = getenv("QUIRE_SHAPE_WORDS");
    words_off = e && strcmp(e, "0") == 0;
    if (!memo_off) atexit(memo_at_exit);
    e = getenv("QUIRE_SHAPE_TRACE");
    if (e && *e && strcmp(e, "0") != 0) atexit(trace);
}

/* The calling thread's memo, or NULL (off, or out of memory). */
static memo *thread_memo(void)
{
    pthread_once(&real_once, real_init);
    if (memo_off) return NULL;
    memo *m = pthread_getspecific(memo_key);
    if (m) return m;
    if (!(m = calloc(1, sizeof *m))) return NULL;
    m->copy = hb_buffer_create();
    m->k.out = hb_buffer_create();
    if (pthread_setspecific(memo_key, m) != 0) {
        memo_free(m);
        m = NULL;
    }
    return m;
}

/* ---- filling: what HarfBuzz will take as the context -------------------------- */

QR_WRAP void hb_buffer_add_utf8(hb_buffer_t *buffer, const char *text, int text_length,
                                unsigned int item_offset, int item_length)
{
    memo *m = thread_memo();
    unsigned int len0 = hb_buffer_get_length(buffer);
    real_add_utf8(buffer, text, text_length, item_offset, item_length);
    if (!m) return;
    seen *s = &m->now;
    size_t tlen = text_length < 0 ? strlen(text) : (size_t)text_length;
    size_t off = item_offset, n = item_length < 0 ? tlen - off : (size_t)item_length;
    if (off > tlen || n > tlen - off) {
        s->buf = NULL; /* HarfBuzz refuses it */
        return;
    }
    if (len0 == 0) {
        /* a new fill: HarfBuzz takes the pre-context from before the item */
        s->buf = buffer;
        s->src = text;
        s->from = off > CTX_BYTES ? off - CTX_BYTES : 0;
        s->item = off - s->from;
        s->n = n;
        s->at_start = s->from == 0;
    } else if (s->buf == buffer && s->len == len0 && s->src == text &&
               off == s->from + s->item + s->n) {
        s->n += n; /* more of the item, or (n = 0) the post-context */
    } else {
        s->buf = NULL; /* filled some other way in between */
        return;
    }
    /* the post-context: from after the item, up to the text's end */
    size_t end = s->from + s->item + s->n;
    size_t to = tlen - end > CTX_BYTES ? end + CTX_BYTES : tlen;
    s->at_end = to == tlen;
    if (bytes_set(&s->text, text + s->from, to - s->from) != 0) {
        s->buf = NULL;
        return;
    }
    s->len = hb_buffer_get_length(buffer);
}

QR_WRAP void hb_buffer_add(hb_buffer_t *buffer, hb_codepoint_t codepoint, unsigned int cluster)
{
    memo *m = thread_memo();
    real_add(buffer, codepoint, cluster);
    if (m) m->now.buf = NULL; /* not text this file can compare */
}

/* ---- shaping --------------------------------------------------------------------- */

/* The font a call's font stands for: pango's sub-font's parent. */
static hb_font_t *base_font(hb_font_t *font)
{
    hb_font_t *p = hb_font_get_parent(font);
    return p && p != hb_font_get_empty() ? p : font;
}

/* Does the call's setup (all but its text) match the kept one's? */
static int same_setup(const kept *k, hb_font_t *font, hb_buffer_t *buf, const hb_feature_t *feat,
                      unsigned int nf)
{
    int xs, ys;
    unsigned int xp, yp;
    hb_font_get_scale(font, &xs, &ys);
    hb_font_get_ppem(font, &xp, &yp);
    if (k->font != base_font(font) || k->x_scale != xs || k->y_scale != ys || k->x_ppem != xp ||
        k->y_ppem != yp || k->ptem != hb_font_get_ptem(font))
        return 0;
    if (k->features.n != nf * sizeof *feat || (nf && memcmp(k->features.p, feat, k->features.n)))
        return 0;
    hb_segment_properties_t props;
    hb_buffer_get_segment_properties(buf, &props);
    return hb_segment_properties_equal(&props, &k->props) && hb_buffer_get_flags(buf) == k->flags &&
           hb_buffer_get_cluster_level(buf) == k->level &&
           hb_buffer_get_invisible_glyph(buf) == k->invisible &&
           hb_buffer_get_replacement_codepoint(buf) == k->replacement &&
           hb_buffer_get_not_found_glyph(buf) == k->not_found;
}

/* Is the call's text (item and context, s) inside the kept text, at the
 * same offsets and with the same bytes, its ends being the text's ends
 * exactly where the kept text's are? */
static int same_text(const seen *kt, const seen *s)
{
    if (s->from < kt->from || s->from + s->text.n > kt->from + kt->text.n) return 0;
    if (s->from + s->item < kt->from + kt->item ||
        s->from + s->item + s->n > kt->from + kt->item + kt->n)
        return 0; /* the item must be a run of the kept item */
    if (s->at_start && (!kt->at_start || kt->from != s->from)) return 0;
    if (s->at_end && (!kt->at_end || kt->from + kt->text.n != s->from + s->text.n)) return 0;
    return memcmp(kt->text.p + (s->from - kt->from), s->text.p, s->text.n) == 0;
}

static int unsafe_cut(const hb_glyph_info_t *g, unsigned int n, unsigned int cluster)
{
    int found = 0;
    for (unsigned int i = 0; i < n; i++) {
        if (g[i].cluster != cluster) continue;
        found = 1;
        if (hb_glyph_info_get_glyph_flags(&g[i]) & HB_GLYPH_FLAG_UNSAFE_TO_BREAK) return 1;
    }
    return !found; /* no cluster starts there: the cut is inside one */
}

/* The kept output's glyphs for the buffer's input, if it is a run of the
 * kept input cut where HarfBuzz says that is safe: *first and *count; 0, or
 * -1 (shape it). */
static int find_run(const kept *k, hb_buffer_t *in_copy, unsigned int *first, unsigned int *count)
{
    unsigned int n;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(in_copy, &n);
    const hb_codepoint_t *in = (const hb_codepoint_t *)(const void *)k->in.p;
    if (n == 0 || n > k->n_in) return -1;
    unsigned int a = 0;
    while (a < k->n_in && in[2 * a + 1] != gi[0].cluster)
        a++;
    if (a + n > k->n_in) return -1;
    for (unsigned int i = 0; i < n; i++)
        if (gi[i].codepoint != in[2 * (a + i)] || gi[i].cluster != in[2 * (a + i) + 1]) return -1;
    const hb_glyph_info_t *out = hb_buffer_get_glyph_infos(k->out, NULL);
    unsigned int lo = in[2 * a + 1];
    unsigned int hi = a + n < k->n_in ? in[2 * (a + n) + 1] : 0;
    if (a > 0 && unsafe_cut(out, k->n_out, lo)) return -1;
    if (a + n < k->n_in && unsafe_cut(out, k->n_out, hi)) return -1;
    /* the run's glyphs: one block of the output (reversed for RTL) */
    unsigned int f = k->n_out, c = 0;
    for (unsigned int i = 0; i < k->n_out; i++) {
        int inside = out[i].cluster >= lo && (a + n == k->n_in || out[i].cluster < hi);
        if (!inside) continue;
        if (c && i != f + c) return -1;
        if (!c) f = i;
        c++;
    }
    *first = c ? f : 0;
    *count = c;
    return 0;
}

/* Put kept glyphs [first, first + count) in buf, as hb_shape() would have;
 * 0, or -1 when the buffer cannot grow to them (buf unchanged). HarfBuzz
 * copies them: pango's buffer is shared by its threads under its own lock
 * (tests/tsan.supp), so this file never writes or reads it itself. */
static int give(const kept *k, hb_buffer_t *buf, unsigned int first, unsigned int count)
{
    if (!hb_buffer_pre_allocate(buf, count)) return -1;
    hb_buffer_set_length(buf, 0);
    hb_buffer_append(buf, k->out, first, first + count);
    hb_buffer_set_content_type(buf, HB_BUFFER_CONTENT_TYPE_GLYPHS);
    return 0;
}

/* Keep the call's input (before shaping); 0 or -1. */
static int keep_input(kept *k, hb_font_t *font, hb_buffer_t *buf, hb_buffer_t *in_copy,
                      const hb_feature_t *feat, unsigned int nf, const seen *s)
{
    unsigned int n;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(in_copy, &n);
    if (bytes_reserve(&k->in, (size_t)n * 2 * sizeof(hb_codepoint_t)) != 0 ||
        bytes_set(&k->features, feat, nf * sizeof *feat) != 0 ||
        bytes_set(&k->text.text, s->text.p, s->text.n) != 0)
        return -1;
    hb_codepoint_t *in = (hb_codepoint_t *)(void *)k->in.p;
    for (unsigned int i = 0; i < n; i++) {
        in[2 * i] = gi[i].codepoint;
        in[2 * i + 1] = gi[i].cluster;
    }
    k->n_in = n;
    hb_font_t *base = base_font(font);
    if (k->font != base) {
        hb_font_reference(base);
        if (k->font) hb_font_destroy(k->font);
        k->font = base;
    }
    hb_font_get_scale(font, &k->x_scale, &k->y_scale);
    hb_font_get_ppem(font, &k->x_ppem, &k->y_ppem);
    k->ptem = hb_font_get_ptem(font);
    hb_buffer_get_segment_properties(buf, &k->props);
    k->flags = hb_buffer_get_flags(buf);
    k->level = hb_buffer_get_cluster_level(buf);
    k->invisible = hb_buffer_get_invisible_glyph(buf);
    k->replacement = hb_buffer_get_replacement_codepoint(buf);
    k->not_found = hb_buffer_get_not_found_glyph(buf);
    k->text.from = s->from;
    k->text.item = s->item;
    k->text.n = s->n;
    k->text.at_start = s->at_start;
    k->text.at_end = s->at_end;
    return 0;
}

/* Keep HarfBuzz's output for the kept input; 0 or -1. */
static int keep_output(kept *k, hb_buffer_t *buf)
{
    unsigned int n = hb_buffer_get_length(buf);
    hb_buffer_clear_contents(k->out);
    hb_buffer_append(k->out, buf, 0, n);
    if (!hb_buffer_allocation_successful(k->out) || hb_buffer_get_length(k->out) != n) return -1;
    k->n_out = n;
    return 0;
}

/* ---- words: each word shaped once per font ------------------------------------ */

/* Most of a document's items are words HarfBuzz has shaped before in the
 * same font: D1's 0.65 M characters are a few thousand words. An item of a
 * simple script (Latin, Greek, Cyrillic, Common) running left to right, in
 * a font whose lookups never see the space glyph, is cut after each run of
 * spaces into words ("over " "the " "fence"); each word is looked up by its
 * font, setup, flags and code points, shaped on its own the first time
 * (clusters from its start), and the item's glyphs are the words' glyphs
 * one after the other, clusters moved to where each word starts.
 *
 * Why that is what HarfBuzz gives for the whole item: its substitutions and
 * positionings (kerning included) are lookups that match a run of glyphs,
 * context before and after included; a lookup that would reach across a
 * space has to match the space glyph, and none of the font's can
 * (space_apart: not in any lookup's coverage, backtrack, input, lookahead
 * or output, no legacy kern or AAT tables, which HarfBuzz applies instead).
 * A lookup that ignores glyphs could skip the space, but only marks are
 * skipped next to bases and marks and format characters (ZWJ, the soft
 * hyphen) are not in the items taken. The text around the item (the
 * buffer's context) only matters to the joining scripts, which are not
 * taken either. The first word keeps the item's beginning-of-text flag and
 * the last its end-of-text flag; the glyph flags (unsafe to break) come
 * from lookups that matched, each inside its word. tests/pdf/
 * test_shape_memo.py renders every fixture with and without the memo and
 * the cache (QUIRE_SHAPE_WORDS=0 turns the cache alone off): the same
 * bytes. At most WORDS_MAX words or WORDS_GLYPHS glyphs are kept per
 * thread; past that the cache starts afresh. */
#define WORDS_MAX 200000u
#define WORDS_GLYPHS 2000000u
#define WORD_MAX_CPS 64u /* a longer run of text is no word: HarfBuzz shapes the item */

static void words_free(words *w)
{
    for (unsigned int i = 0; i < w->n_setups; i++) {
        hb_font_destroy(w->setups[i].font);
        free(w->setups[i].features.p);
    }
    free(w->setups);
    free(w->items);
    free(w->slots);
    free(w->cps);
    hb_buffer_destroy(w->store);
    hb_buffer_destroy(w->scratch);
    hb_buffer_destroy(w->out);
    memset(w, 0, sizeof *w);
}

/* Forget every word (the setups stay). */
static void words_reset(words *w)
{
    w->n = 0;
    w->n_cps = 0;
    if (w->slots) memset(w->slots, 0, w->n_slots * sizeof *w->slots);
    if (w->store) hb_buffer_clear_contents(w->store);
}

/* Whether no lookup HarfBuzz applies with this font, segment and features
 * (the shape plan's) can see the space glyph (above). */
static int space_apart(hb_font_t *font, const hb_segment_properties_t *props,
                       const hb_feature_t *feat, unsigned int nf)
{
    hb_face_t *face = hb_font_get_face(font);
    hb_codepoint_t sp;
    if (!hb_font_get_nominal_glyph(font, ' ', &sp)) return 0;
    hb_blob_t *kern = hb_face_reference_table(face, HB_TAG('k', 'e', 'r', 'n'));
    int has_kern = hb_blob_get_length(kern) > 0;
    hb_blob_destroy(kern);
    if (hb_aat_layout_has_substitution(face) || hb_aat_layout_has_positioning(face) ||
        (!hb_ot_layout_has_positioning(face) && has_kern))
        return 0;
    unsigned int n_coords;
    const int *coords = hb_font_get_var_coords_normalized(font, &n_coords);
    hb_shape_plan_t *plan =
        hb_shape_plan_create_cached2(face, props, feat, nf, coords, n_coords, NULL);
    static const hb_tag_t tables[2] = {HB_OT_TAG_GSUB, HB_OT_TAG_GPOS};
    hb_set_t *used = hb_set_create();
    hb_set_t *set[4];
    for (int i = 0; i < 4; i++)
        set[i] = hb_set_create();
    int apart = strcmp(hb_shape_plan_get_shaper(plan), "ot") == 0;
    for (int t = 0; t < 2 && apart; t++) {
        hb_set_clear(used);
        hb_ot_shape_plan_collect_lookups(plan, tables[t], used);
        hb_codepoint_t l = HB_SET_VALUE_INVALID;
        while (apart && hb_set_next(used, &l)) {
            for (int i = 0; i < 4; i++)
                hb_set_clear(set[i]);
            hb_ot_layout_lookup_collect_glyphs(face, tables[t], l, set[0], set[1], set[2], set[3]);
            for (int i = 0; i < 4; i++)
                if (hb_set_has(set[i], sp)) apart = 0;
        }
        if (!hb_set_allocation_successful(used)) apart = 0;
    }
    for (int i = 0; i < 4; i++) {
        if (!hb_set_allocation_successful(set[i])) apart = 0;
        hb_set_destroy(set[i]);
    }
    hb_set_destroy(used);
    hb_shape_plan_destroy(plan);
    return apart;
}

static int simple_script(hb_script_t sc)
{
    return sc == HB_SCRIPT_LATIN || sc == HB_SCRIPT_COMMON || sc == HB_SCRIPT_CYRILLIC ||
           sc == HB_SCRIPT_GREEK;
}

/* The index of the call's setup in w->setups (added when new), or -1. */
static int setup_of(words *w, hb_font_t *font, hb_buffer_t *buf, const hb_feature_t *feat,
                    unsigned int nf)
{
    setup t = {0};
    t.font = base_font(font);
    hb_font_get_scale(font, &t.x_scale, &t.y_scale);
    hb_font_get_ppem(font, &t.x_ppem, &t.y_ppem);
    t.ptem = hb_font_get_ptem(font);
    hb_buffer_get_segment_properties(buf, &t.props);
    t.level = hb_buffer_get_cluster_level(buf);
    t.invisible = hb_buffer_get_invisible_glyph(buf);
    t.replacement = hb_buffer_get_replacement_codepoint(buf);
    t.not_found = hb_buffer_get_not_found_glyph(buf);
    size_t fb = nf * sizeof *feat;
    for (unsigned int j = 0; j < w->n_setups; j++) {
        unsigned int i = (w->last + j) % w->n_setups;
        const setup *u = &w->setups[i];
        if (u->font == t.font && u->x_scale == t.x_scale && u->y_scale == t.y_scale &&
            u->x_ppem == t.x_ppem && u->y_ppem == t.y_ppem && u->ptem == t.ptem &&
            hb_segment_properties_equal(&u->props, &t.props) && u->level == t.level &&
            u->invisible == t.invisible && u->replacement == t.replacement &&
            u->not_found == t.not_found && u->features.n == fb &&
            (!fb || memcmp(u->features.p, feat, fb) == 0)) {
            w->last = i;
            return (int)i;
        }
    }
    if (w->n_setups >= 256) return -1;
    setup *ns = realloc(w->setups, (w->n_setups + 1) * sizeof *ns);
    if (!ns) return -1;
    w->setups = ns;
    if (bytes_set(&t.features, feat, fb) != 0) {
        free(t.features.p);
        return -1;
    }
    t.apart = space_apart(font, &t.props, feat, nf);
    hb_font_reference(t.font);
    w->setups[w->n_setups] = t;
    w->last = w->n_setups;
    return (int)w->n_setups++;
}

static uint64_t word_hash(unsigned int su, unsigned int flags, const hb_glyph_info_t *in,
                          unsigned int n)
{
    uint64_t h = 1469598103934665603ull;
    h = (h ^ su) * 1099511628211ull;
    h = (h ^ flags) * 1099511628211ull;
    for (unsigned int i = 0; i < n; i++)
        h = (h ^ in[i].codepoint) * 1099511628211ull;
    return h;
}

/* Room for one more word in the table; 0 or -1. */
static int words_grow(words *w)
{
    if (w->n + 1 > WORDS_MAX || hb_buffer_get_length(w->store) > WORDS_GLYPHS) words_reset(w);
    if (w->n == w->cap) {
        unsigned int cap = w->cap ? 2 * w->cap : 1024;
        word *ni = realloc(w->items, cap * sizeof *ni);
        if (!ni) return -1;
        w->items = ni;
        w->cap = cap;
    }
    if (2 * (w->n + 1) > w->n_slots) {
        unsigned int ns = w->n_slots ? 2 * w->n_slots : 4096;
        unsigned int *sl = calloc(ns, sizeof *sl);
        if (!sl) return -1;
        for (unsigned int i = 0; i < w->n; i++) {
            unsigned int at = (unsigned int)(w->items[i].hash & (ns - 1));
            while (sl[at])
                at = (at + 1) & (ns - 1);
            sl[at] = i + 1;
        }
        free(w->slots);
        w->slots = sl;
        w->n_slots = ns;
    }
    return 0;
}

/* The word in[0 .. n) (clusters from in[0]'s) of setup su with flags:
 * found, or shaped now with the setup's font and buf's; NULL when it
 * cannot be. */
static const word *word_get(words *w, unsigned int su, unsigned int flags, hb_font_t *font,
                            hb_buffer_t *buf, const hb_feature_t *feat, unsigned int nf,
                            const hb_glyph_info_t *in, unsigned int n)
{
    uint64_t h = word_hash(su, flags, in, n);
    if (w->n_slots) {
        unsigned int at = (unsigned int)(h & (w->n_slots - 1));
        for (; w->slots[at]; at = (at + 1) & (w->n_slots - 1)) {
            const word *x = &w->items[w->slots[at] - 1];
            if (x->hash != h || x->setup != su || x->flags != flags || x->n_cp != n) continue;
            unsigned int i = 0;
            while (i < n && w->cps[x->cp + i] == in[i].codepoint)
                i++;
            if (i == n) return x;
        }
    }
    /* shape it on its own */
    if (words_grow(w) != 0) return NULL;
    if (w->n_cps + n > w->cap_cps) {
        size_t cap = 2 * (w->n_cps + n) + 4096;
        hb_codepoint_t *nc = realloc(w->cps, cap * sizeof *nc);
        if (!nc) return NULL;
        w->cps = nc;
        w->cap_cps = cap;
    }
    hb_buffer_t *sc = w->scratch;
    hb_buffer_clear_contents(sc);
    hb_segment_properties_t props;
    hb_buffer_get_segment_properties(buf, &props);
    hb_buffer_set_segment_properties(sc, &props);
    hb_buffer_set_flags(sc, (hb_buffer_flags_t)flags);
    hb_buffer_set_cluster_level(sc, hb_buffer_get_cluster_level(buf));
    hb_buffer_set_invisible_glyph(sc, hb_buffer_get_invisible_glyph(buf));
    hb_buffer_set_replacement_codepoint(sc, hb_buffer_get_replacement_codepoint(buf));
    hb_buffer_set_not_found_glyph(sc, hb_buffer_get_not_found_glyph(buf));
    for (unsigned int i = 0; i < n; i++)
        real_add(sc, in[i].codepoint, in[i].cluster - in[0].cluster);
    hb_buffer_set_content_type(sc, HB_BUFFER_CONTENT_TYPE_UNICODE);
    real_shape(font, sc, feat, nf);
    unsigned int ng = hb_buffer_get_length(sc);
    if (!hb_buffer_allocation_successful(sc)) return NULL;
    word x = {.hash = h, .setup = su, .flags = flags, .n_cp = n, .n_g = ng};
    unsigned int at0 = hb_buffer_get_length(w->store);
    if (ng) {
        hb_buffer_append(w->store, sc, 0, ng);
        if (!hb_buffer_allocation_successful(w->store) ||
            hb_buffer_get_length(w->store) != at0 + ng)
            return NULL;
    }
    x.g = at0;
    x.cp = (unsigned int)w->n_cps;
    for (unsigned int i = 0; i < n; i++)
        w->cps[w->n_cps++] = in[i].codepoint;
    unsigned int at = (unsigned int)(h & (w->n_slots - 1));
    while (w->slots[at])
        at = (at + 1) & (w->n_slots - 1);
    w->items[w->n] = x;
    w->slots[at] = ++w->n;
    atomic_fetch_add(&n_words, 1);
    return &w->items[w->n - 1];
}

/* The number of UTF-8 bytes of code point c. */
static unsigned int utf8_len(hb_codepoint_t c)
{
    return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

/* Shape the call word by word into buf (its input copied in m->copy, filled
 * from UTF-8 by one hb_buffer_add_utf8()); 0, or -1: shape it with
 * HarfBuzz (buf unchanged). */
static int shape_words(memo *m, hb_font_t *font, hb_buffer_t *buf, const hb_feature_t *feat,
                       unsigned int nf)
{
    words *w = &m->w;
    if (words_off || hb_buffer_get_direction(buf) != HB_DIRECTION_LTR ||
        !simple_script(hb_buffer_get_script(buf)))
        return -1;
    unsigned int n;
    const hb_glyph_info_t *in = hb_buffer_get_glyph_infos(m->copy, &n);
    if (n == 0) return -1;
    /* clusters are the UTF-8 offsets of the code points (so a word's own
     * clusters are the same wherever it stands); no marks or format
     * characters */
    hb_unicode_funcs_t *uf = hb_buffer_get_unicode_funcs(buf);
    for (unsigned int i = 0; i < n; i++) {
        if (i && in[i].cluster != in[i - 1].cluster + utf8_len(in[i - 1].codepoint)) return -1;
        hb_codepoint_t c = in[i].codepoint;
        if (c >= 0x20 && c < 0x7f) continue;
        hb_unicode_general_category_t gc = hb_unicode_general_category(uf, c);
        if (gc == HB_UNICODE_GENERAL_CATEGORY_NON_SPACING_MARK ||
            gc == HB_UNICODE_GENERAL_CATEGORY_SPACING_MARK ||
            gc == HB_UNICODE_GENERAL_CATEGORY_ENCLOSING_MARK ||
            gc == HB_UNICODE_GENERAL_CATEGORY_FORMAT || gc == HB_UNICODE_GENERAL_CATEGORY_CONTROL ||
            gc == HB_UNICODE_GENERAL_CATEGORY_SURROGATE)
            return -1;
    }
    if (!w->store) {
        w->store = hb_buffer_create();
        w->scratch = hb_buffer_create();
        w->out = hb_buffer_create();
        if (!hb_buffer_allocation_successful(w->out)) return -1;
    }
    int su = setup_of(w, font, buf, feat, nf);
    if (su < 0 || !w->setups[su].apart) return -1;
    unsigned int flags = hb_buffer_get_flags(buf);
    hb_buffer_clear_contents(w->out);
    unsigned int start = 0, n_out = 0;
    while (start < n) {
        unsigned int end = start;
        while (end < n && in[end].codepoint != ' ')
            end++;
        while (end < n && in[end].codepoint == ' ')
            end++;
        if (end - start > WORD_MAX_CPS) return -1;
        unsigned int f = flags & ~(unsigned int)(HB_BUFFER_FLAG_BOT | HB_BUFFER_FLAG_EOT);
        if (start == 0) f |= flags & HB_BUFFER_FLAG_BOT;
        if (end == n) f |= flags & HB_BUFFER_FLAG_EOT;
        const word *x =
            word_get(w, (unsigned int)su, f, font, buf, feat, nf, in + start, end - start);
        if (!x || !x->n_g) return -1; /* a word of no glyphs: HarfBuzz takes the item */
        {
            hb_buffer_append(w->out, w->store, x->g, x->g + x->n_g);
            if (!hb_buffer_allocation_successful(w->out)) return -1;
            hb_glyph_info_t *g = hb_buffer_get_glyph_infos(w->out, NULL);
            for (unsigned int i = n_out; i < n_out + x->n_g; i++)
                g[i].cluster += in[start].cluster;
            n_out += x->n_g;
        }
        start = end;
    }
    if (hb_buffer_get_length(w->out) != n_out) return -1;
    kept k = {0};
    k.out = w->out;
    if (give(&k, buf, 0, n_out) != 0) return -1;
    atomic_fetch_add(&n_word_calls, 1);
    return 0;
}

/* ---- colour: what pango asks of every glyph it shapes ------------------------- */

/* pango 1.50's shaper asks HarfBuzz, for every glyph, whether the face has
 * PNG or SVG glyphs and how many colour layers the glyph has: 1.5 M calls
 * for D1, each a look-up in the face's tables. The answers for a face
 * never change, so each thread keeps the last face's (referenced, so its
 * pointer cannot stand for another face meanwhile), and a face with no
 * colour layers (no COLR glyphs) answers 0 layers, as HarfBuzz does,
 * without the search. Only a thread with a memo keeps one (its memo
 * releases it); others ask HarfBuzz. */
typedef hb_bool_t (*face_fn)(hb_face_t *);
typedef unsigned int (*layers_fn)(hb_face_t *, hb_codepoint_t, unsigned int, unsigned int *,
                                  hb_ot_color_layer_t *);
static face_fn real_has_png, real_has_svg, real_has_layers;
static layers_fn real_get_layers;

static __thread struct {
    hb_face_t *face; /* referenced */
    unsigned char png, svg, layers;
} color;

static void color_init(void)
{
    real_has_png = (face_fn)dlsym(RTLD_NEXT, "hb_ot_color_has_png");
    real_has_svg = (face_fn)dlsym(RTLD_NEXT, "hb_ot_color_has_svg");
    real_has_layers = (face_fn)dlsym(RTLD_NEXT, "hb_ot_color_has_layers");
    real_get_layers = (layers_fn)dlsym(RTLD_NEXT, "hb_ot_color_glyph_get_layers");
}

static void color_drop(void)
{
    if (color.face) hb_face_destroy(color.face);
    color.face = NULL;
}

/* Make face the kept one; 0, or -1 (not kept: ask HarfBuzz). */
static int color_keep(hb_face_t *face)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, color_init);
    if (face == color.face) return 0;
    if (!real_has_png || !real_has_svg || !real_has_layers || !real_get_layers || !thread_memo())
        return -1;
    color_drop();
    color.face = hb_face_reference(face);
    color.png = (unsigned char)(real_has_png(face) != 0);
    color.svg = (unsigned char)(real_has_svg(face) != 0);
    color.layers = (unsigned char)(real_has_layers(face) != 0);
    return 0;
}

QR_WRAP hb_bool_t hb_ot_color_has_png(hb_face_t *face)
{
    if (face == color.face) return color.png;
    return color_keep(face) == 0 ? color.png : real_has_png(face);
}

QR_WRAP hb_bool_t hb_ot_color_has_svg(hb_face_t *face)
{
    if (face == color.face) return color.svg;
    return color_keep(face) == 0 ? color.svg : real_has_svg(face);
}

QR_WRAP hb_bool_t hb_ot_color_has_layers(hb_face_t *face)
{
    if (face == color.face) return color.layers;
    return color_keep(face) == 0 ? color.layers : real_has_layers(face);
}

QR_WRAP unsigned int hb_ot_color_glyph_get_layers(hb_face_t *face, hb_codepoint_t glyph,
                                                  unsigned int start_offset,
                                                  unsigned int *layer_count,
                                                  hb_ot_color_layer_t *layers)
{
    if ((face == color.face || color_keep(face) == 0) && !color.layers) {
        if (layer_count) *layer_count = 0;
        return 0;
    }
    return real_get_layers(face, glyph, start_offset, layer_count, layers);
}

/* Copy buf's input (code points and clusters) to m->copy; 0 or -1. */
static int copy_input(memo *m, hb_buffer_t *buf)
{
    unsigned int n = hb_buffer_get_length(buf);
    hb_buffer_clear_contents(m->copy);
    hb_buffer_append(m->copy, buf, 0, n);
    return hb_buffer_allocation_successful(m->copy) && hb_buffer_get_length(m->copy) == n ? 0 : -1;
}

QR_WRAP void hb_shape(hb_font_t *font, hb_buffer_t *buffer, const hb_feature_t *features,
                      unsigned int num_features)
{
    memo *m = thread_memo();
    atomic_fetch_add(&n_calls, 1);
    if (!m) {
        real_shape(font, buffer, features, num_features);
        return;
    }
    seen *s = &m->now;
    kept *k = &m->k;
    int known = s->buf == buffer && s->len == hb_buffer_get_length(buffer) &&
                hb_buffer_get_content_type(buffer) == HB_BUFFER_CONTENT_TYPE_UNICODE &&
                copy_input(m, buffer) == 0;
    s->buf = NULL; /* the next fill starts afresh */
    unsigned int first, count;
    if (known && k->valid && same_setup(k, font, buffer, features, num_features) &&
        same_text(&k->text, s) && find_run(k, m->copy, &first, &count) == 0 &&
        give(k, buffer, first, count) == 0) {
        atomic_fetch_add(count == k->n_out ? &n_whole : &n_run, 1);
        return;
    }
    k->valid = known && keep_input(k, font, buffer, m->copy, features, num_features, s) == 0;
    if (!known || shape_words(m, font, buffer, features, num_features) != 0)
        real_shape(font, buffer, features, num_features);
    k->valid = k->valid && keep_output(k, buffer) == 0;
}
