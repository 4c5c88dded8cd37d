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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static atomic_ulong n_calls, n_whole, n_run; /* every thread's, for QUIRE_SHAPE_TRACE */

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

typedef struct memo {
    seen now;          /* the buffer being filled on this thread */
    hb_buffer_t *copy; /* the input of the call being shaped, copied */
    kept k;
} memo;

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
    free(m);
}

static void trace(void)
{
    fprintf(stderr, "quire: hb_shape: %lu calls, %lu answered whole and %lu as a run by the memo\n",
            (unsigned long)atomic_load(&n_calls), (unsigned long)atomic_load(&n_whole),
            (unsigned long)atomic_load(&n_run));
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
    real_shape(font, buffer, features, num_features);
    k->valid = k->valid && keep_output(k, buffer) == 0;
}
