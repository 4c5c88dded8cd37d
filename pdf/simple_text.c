/* simple_text.c: pango's line breaks for simple texts, from kept words
 * (simple_text.h says what and why). */
#include "simple_text.h"
#include "face_answers.h"
#include "pdf_int.h"
#include "text.h"

#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
#include <hb-ot.h>
#include <hb.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- a map of byte strings to byte strings ---------------------------------------- */

/* Keys and values live in one growing blob; past MEMO_MAX bytes nothing
 * more is kept (a 5 MB text of distinct words computes, it does not grow). */
#define MEMO_MAX (64u << 20)

typedef struct memo_entry {
    uint64_t hash;
    uint32_t key, key_len, val, val_len; /* offsets in blob */
} memo_entry;

typedef struct memo {
    memo_entry *items;
    uint32_t n, cap;
    uint32_t *slots; /* index + 1, 0 empty */
    uint32_t n_slots;
    unsigned char *blob;
    size_t len, room;
} memo;

static uint64_t load8(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
}

static uint32_t load4(const unsigned char *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

/* Eight bytes at a time (the keys are words: most fit in one or two); the
 * last 1 to 7 in two overlapping loads of 4, or 3 single ones. */
static uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t h = 1469598103934665603ull ^ n;
    for (; n >= 8; n -= 8, s += 8) {
        h = (h ^ load8(s)) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    if (n) {
        uint64_t w = n >= 4 ? load4(s) | (uint64_t)load4(s + n - 4) << 32
                            : s[0] | (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16;
        h = (h ^ w) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h * 0xBF58476D1CE4E5B9ull ^ (h >> 31);
}

/* a[0..n) == b[0..n), in loads of 8 or 4 (the last one overlapping). */
static int same_bytes(const unsigned char *a, const unsigned char *b, size_t n)
{
    if (n >= 8) {
        for (size_t i = 0; i + 8 <= n; i += 8)
            if (load8(a + i) != load8(b + i)) return 0;
        return load8(a + n - 8) == load8(b + n - 8);
    }
    if (n >= 4) return load4(a) == load4(b) && load4(a + n - 4) == load4(b + n - 4);
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static void memo_free(memo *m)
{
    free(m->items);
    free(m->slots);
    free(m->blob);
    memset(m, 0, sizeof *m);
}

/* The value kept for the key key[0..n), after the 4 bytes of *tag when
 * tag is not NULL (a face's index: piece_key()), or NULL. */
static const unsigned char *memo_get(const memo *m, const int *tag, const void *key, size_t n,
                                     uint64_t h, size_t *val_len)
{
    size_t pre_n = tag ? sizeof *tag : 0;
    if (!m->n_slots) return NULL;
    for (uint32_t i = (uint32_t)h & (m->n_slots - 1);; i = (i + 1) & (m->n_slots - 1)) {
        uint32_t s = m->slots[i];
        if (!s) return NULL;
        const memo_entry *e = &m->items[s - 1];
        if (e->hash == h && e->key_len == pre_n + n &&
            (!tag || load4(m->blob + e->key) == (uint32_t)*tag) &&
            same_bytes(m->blob + e->key + pre_n, key, n)) {
            *val_len = e->val_len;
            return m->blob + e->val;
        }
    }
}

static int blob_put(memo *m, const void *p, size_t n, uint32_t *at)
{
    if (m->len + n > m->room) {
        size_t room = m->room ? m->room * 2 : 65536;
        while (room < m->len + n)
            room *= 2;
        unsigned char *b = realloc(m->blob, room);
        if (!b) return -1;
        m->blob = b;
        m->room = room;
    }
    memcpy(m->blob + m->len, p, n);
    *at = (uint32_t)m->len;
    m->len += n;
    return 0;
}

/* Keep val for key (not there yet); nothing when full or out of memory. */
static void memo_put(memo *m, const void *key, size_t n, uint64_t h, const void *val, size_t vn)
{
    if (m->len + n + vn > MEMO_MAX) return;
    if (2 * (m->n + 1) > m->n_slots) {
        uint32_t ns = m->n_slots ? 2 * m->n_slots : 1024;
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl) return;
        for (uint32_t k = 0; k < m->n; k++) {
            uint32_t i = (uint32_t)m->items[k].hash & (ns - 1);
            while (sl[i])
                i = (i + 1) & (ns - 1);
            sl[i] = k + 1;
        }
        free(m->slots);
        m->slots = sl;
        m->n_slots = ns;
    }
    if (m->n == m->cap) {
        uint32_t cap = m->cap ? 2 * m->cap : 512;
        memo_entry *it = realloc(m->items, cap * sizeof *it);
        if (!it) return;
        m->items = it;
        m->cap = cap;
    }
    memo_entry e = {h, 0, (uint32_t)n, 0, (uint32_t)vn};
    if (blob_put(m, key, n, &e.key) != 0 || blob_put(m, val, vn, &e.val) != 0) return;
    uint32_t i = (uint32_t)h & (m->n_slots - 1);
    while (m->slots[i])
        i = (i + 1) & (m->n_slots - 1);
    m->items[m->n] = e;
    m->slots[i] = ++m->n;
}

/* ---- faces ------------------------------------------------------------------------- */

/* The characters a list's label may be alone (layout/style_rules.c: its
 * bullets and task boxes): qr_simple_width() measures them without pango
 * where the face's first font has them. */
static const uint32_t label_chars[] = {0x2022, 0x25E6, 0x25AA, 0x2610, 0x2611};
#define N_LABEL_CHARS (sizeof label_chars / sizeof *label_chars)

/* What pango shapes one face's items with, found once by itemizing a
 * sample in that face (letters: the Latin script a text with a letter gets;
 * digits: the Common script of one without). */
typedef struct face {
    char *family, *lang;
    int size, bold, italic, letters; /* size: pango units */
    PangoAnalysis an;                /* font referenced (NULL until pango shapes: own_hb);
                                        no extra attributes */
    hb_font_t *own_hb;               /* face_open_fc()'s, or NULL: the PangoFont's */
    const char *own_file;            /* its font file and index (face_check) */
    int own_index;
    int ok;                     /* the first font covers printable ASCII */
    unsigned labels;            /* bit i: it covers label_chars[i] */
    unsigned char pair[95][95]; /* 0 unknown, 1 the pair adds up, 2 it does not */
    int single[95];             /* each character's width alone, -1 unknown */
    int numbers;                /* numbers_add_up(): 0 unknown, 1 they do, 2 not */
    hb_feature_t features[32];  /* pango_analysis_collect_features(): the font's */
    unsigned n_features;
    hb_language_t hb_lang;
    hb_script_t hb_script;
} face;

struct qr_simple {
    PangoContext *pc;
    int widths_only;       /* faces opened without pango where they can be (face_open_fc) */
    const qr_fonts *fonts; /* the answers kept beside its cache (face_answers.h) */
    int asked;             /* fontconfig was asked for a face (fc_find) */
    face **faces;
    size_t n_faces, cap_faces;
    memo breaks, widths;
    PangoGlyphString *glyphs;
    hb_buffer_t *buf;
    /* scratch per call */
    int *lw, *pre; /* lw: per byte, pre: per piece start (qr_simple_break) */
    int *bp;       /* the break opportunities in order, then n twice */
    int *pat;      /* the pieces' starts, then n */
    unsigned char *brk;
    size_t cap_text;
    int *face_of; /* per item: its face's index */
    int *item_at; /* per item: start; the simulation's item list */
    size_t cap_items;
    qr_simple_line *lines;
    size_t cap_lines;
    PangoLogAttr *attrs;
    size_t cap_attrs;
    char *ctx;
    size_t cap_ctx;
    /* the pieces of the text being broken not kept yet (widths_pending) */
    struct pend {
        int fi, at, len, dup; /* dup: the index of the same piece before it, or -1 */
        uint64_t h;           /* the memo key's hash */
    } * pend;
    size_t n_pend, cap_pend;
    char *batch;      /* one face's pieces one after another, */
    int *batch_glyph; /* per byte: its glyph, -1 none, -2 more than one */
    size_t cap_batch;
    /* qr_simple_runs(): the glyphs of the last text asked for, kept per piece */
    struct run_cache {
        memo glyphs; /* (face, piece) -> its glyphs */
        char *text;  /* a copy of the text they are for, its length, */
        size_t n, n_items;
        qr_simple_item *items; /* and its items */
        unsigned char *brk;    /* its break opportunities */
        int *face_of;          /* per item */
        PangoGlyphInfo *g;     /* the whole text's glyphs, piece by piece */
        int *cl;               /* per glyph: its first byte in the text */
        int *at;               /* per byte starting a piece: its first glyph (at[n]: all) */
        size_t n_g, cap_g, cap_n, cap_items;
        PangoGlyphInfo *rg;  /* the runs handed out: their glyphs, */
        int *rcl;            /* their clusters, */
        qr_simple_run *runs; /* and the runs */
        size_t cap_rg, cap_runs;
    } rc;
};

qr_simple *qr_simple_new(PangoContext *pc, int widths_only, const qr_fonts *fonts)
{
    qr_simple *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->fonts = fonts;
    s->pc = g_object_ref(pc);
    s->widths_only = widths_only;
    s->glyphs = pango_glyph_string_new();
    s->buf = hb_buffer_create();
    return s;
}

static void fc_save(void);

void qr_simple_free(qr_simple *s)
{
    if (!s) return;
    if (s->widths_only) fc_save();
    for (size_t i = 0; i < s->n_faces; i++) {
        face *f = s->faces[i];
        if (f->an.font) g_object_unref(f->an.font);
        if (f->own_hb) hb_font_destroy(f->own_hb);
        free(f->family);
        free(f->lang);
        free(f);
    }
    free(s->faces);
    memo_free(&s->breaks);
    memo_free(&s->widths);
    pango_glyph_string_free(s->glyphs);
    hb_buffer_destroy(s->buf);
    free(s->lw);
    free(s->pre);
    free(s->brk);
    free(s->bp);
    free(s->pat);
    free(s->face_of);
    free(s->item_at);
    free(s->lines);
    free(s->attrs);
    free(s->ctx);
    free(s->pend);
    free(s->batch);
    free(s->batch_glyph);
    memo_free(&s->rc.glyphs);
    free(s->rc.text);
    free(s->rc.items);
    free(s->rc.brk);
    free(s->rc.face_of);
    free(s->rc.g);
    free(s->rc.cl);
    free(s->rc.at);
    free(s->rc.rg);
    free(s->rc.rcl);
    free(s->rc.runs);
    g_object_unref(s->pc);
    free(s);
}

int qr_simple_size(double pt, double scale)
{
    int size = (int)(pt * PANGO_SCALE);
    if (scale == 1) return size;
    volatile double d = scale * size;
    return (int)d;
}

int qr_simple_ascii(const char *s, size_t n)
{
    return n && qr_text_printable_prefix(s, n) == n;
}

static pthread_once_t mode_once = PTHREAD_ONCE_INIT;
static int mode_value = 1;

static void mode_init(void)
{
    const char *e = getenv("QUIRE_SIMPLE_TEXT");
    if (e && strcmp(e, "0") == 0) mode_value = 0;
    if (e && strcmp(e, "check") == 0) mode_value = 2;
}

int qr_simple_asked_fontconfig(const qr_simple *s)
{
    return s->asked;
}

int qr_simple_mode(void)
{
    pthread_once(&mode_once, mode_init);
    return mode_value;
}

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The font, language and script pango gives a sample in f's face (its
 * description and language as attributes, the way a PangoLayout itemizes)
 * into f->an, the font referenced; 0, or -1 when it gives no one item. */
static int face_itemize(qr_simple *s, face *f)
{
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, f->family);
    pango_font_description_set_absolute_size(fd, f->size);
    pango_font_description_set_weight(fd, f->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(fd, f->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    PangoAttrList *al = pango_attr_list_new();
    pango_attr_list_insert(al, pango_attr_font_desc_new(fd));
    if (f->lang)
        pango_attr_list_insert(al, pango_attr_language_new(pango_language_from_string(f->lang)));
    pango_font_description_free(fd);
    const char *sample = f->letters ? "a" : "0";
    qr_pdf_fonts_ready(s->pc);
    GList *items = pango_itemize(s->pc, sample, 0, 1, al, NULL);
    pango_attr_list_unref(al);
    int r = -1;
    if (items && !items->next) {
        PangoItem *it = items->data;
        f->an = it->analysis;
        f->an.extra_attrs = NULL;
        f->an.shape_engine = NULL;
        f->an.lang_engine = NULL;
        if (f->an.font) {
            g_object_ref(f->an.font);
            r = 0;
        }
    }
    g_list_free_full(items, (GDestroyNotify)pango_item_free);
    return r;
}

/* Fill f from pango's font for it. */
static void face_open_pango(qr_simple *s, face *f)
{
    if (face_itemize(s, f) != 0) return;
    f->ok = f->an.level == 0 && !(f->an.flags & PANGO_ANALYSIS_FLAG_CENTERED_BASELINE);
    /* pango_font_has_char() per character, with the coverage its default
     * asks for each time (fonts.c, 1.50) asked for once */
    PangoCoverage *cov =
        f->ok ? pango_font_get_coverage(f->an.font, pango_language_get_default()) : NULL;
    if (!cov) f->ok = 0;
    for (gunichar ch = 0x20; ch <= 0x7E && f->ok; ch++)
        f->ok = pango_coverage_get(cov, (int)ch) != PANGO_COVERAGE_NONE;
    for (size_t i = 0; i < N_LABEL_CHARS && f->ok; i++)
        if (pango_coverage_get(cov, (int)label_chars[i]) != PANGO_COVERAGE_NONE)
            f->labels |= 1u << i;
    if (cov) g_object_unref(cov);
    pango_font_get_features(f->an.font, f->features, 32, &f->n_features);
    f->hb_lang = hb_language_from_string(pango_language_to_string(f->an.language), -1);
    f->hb_script = (hb_script_t)g_unicode_script_to_iso15924(f->an.script);
}

/* ---- faces without pango ----------------------------------------------------------- */

/* Loading a PangoFontset (what pango_itemize does for each new face) starts
 * FcFontSetSort over every installed font on pango's threads, for the
 * fallback fonts of characters the first font lacks. A simple text never
 * needs them: its face covers printable ASCII. So where only widths are
 * asked for (the docx's measure pass), a face is found as pango 1.50 finds
 * its first font (pangofc-fontmap.c: the pattern of
 * pango_fc_make_pattern(), substituted as pangocairo-fcfontmap.c does,
 * FcFontSetMatch() over the fonts filter_by_format() keeps) and its
 * hb_font made as pangofc-font.c's pango_fc_font_create_hb_font() makes
 * it. Anything this does not follow (a variable font, a matrix on the
 * context, a vertical gravity) is left to pango. */

/* What face_open_fc() found for a face, kept for the process (the docx's
 * warm-up finds the faces the pass then asks for; every font map quire
 * makes has fontconfig's current configuration, and a context's
 * resolution and font options are in the key). */
typedef struct fc_found {
    /* the key: what the pattern is made of */
    char *family;
    const char *lang; /* pango's interned string */
    int size, bold, italic;
    double dpi;
    unsigned long options; /* cairo_font_options_hash() of the context's */
    /* the font: NULL when pango must open it */
    hb_font_t *hb;
    int ok, has_a, has_0; /* printable ASCII covered; the samples' characters */
    unsigned labels;      /* bit i: label_chars[i] covered */
    int scale_x, scale_y; /* what hb was made with (fc_make_hb) */
    float ptem, slant;
    hb_feature_t features[32];
    unsigned n_features;
    const char *file; /* its file and index (kept in fc_kept.files) */
    int index;
} fc_found;

typedef struct fc_kept {
    GMutex mu;
    FcFontSet *fonts; /* the fonts pango matches against */
    struct fc_file {
        char *file;
        int index;
        hb_face_t *hb;
    } * files;
    size_t n_files;
    fc_found *found;
    size_t n_found;
    struct fc_family {
        char *name;
        FcFontSet *fonts; /* fc_family_fonts() */
    } * families;
    size_t n_families;
    /* the answers kept on disk (face_answers.h), read on first use, and
     * the configuration the new ones came from (NULL: none new) */
    qr_face_answers *disk;
    int disk_read;
    FcConfig *cfg;
} fc_kept;

static void fc_kept_clear(fc_kept *k)
{
    for (size_t i = 0; i < k->n_found; i++) {
        free(k->found[i].family);
        if (k->found[i].hb) hb_font_destroy(k->found[i].hb);
    }
    free(k->found);
    for (size_t i = 0; i < k->n_files; i++) {
        free(k->files[i].file);
        hb_face_destroy(k->files[i].hb);
    }
    free(k->files);
    for (size_t i = 0; i < k->n_families; i++) {
        free(k->families[i].name);
        if (k->families[i].fonts) FcFontSetDestroy(k->families[i].fonts);
    }
    free(k->families);
    if (k->fonts) FcFontSetDestroy(k->fonts);
    qr_face_answers_free(k->disk);
    k->found = NULL;
    k->files = NULL;
    k->families = NULL;
    k->n_found = k->n_files = k->n_families = 0;
    k->fonts = NULL;
    k->disk = NULL;
    k->disk_read = 0;
    k->cfg = NULL;
}

static fc_kept kept_faces; /* its mu is a static GMutex: no init */

/* LeakSanitizer's runtime, when the process has one (an ASan build). */
void __lsan_enable(void) __attribute__((weak));

/* Process exit under LeakSanitizer: the kept fonts dropped, so that it sees
 * fontconfig's patterns freed (as pdf.c drops its font maps). */
static void kept_at_exit(void)
{
    g_mutex_lock(&kept_faces.mu);
    fc_kept_clear(&kept_faces);
    g_mutex_unlock(&kept_faces.mu);
}

/* The process's kept faces, locked. */
static fc_kept *fc_kept_lock(void)
{
    static gsize once;
    if (g_once_init_enter(&once)) {
        if (__lsan_enable) atexit(kept_at_exit);
        g_once_init_leave(&once, 1);
    }
    g_mutex_lock(&kept_faces.mu);
    return &kept_faces;
}

/* The faces fontconfig was asked for, written for the next process
 * (face_answers.h). */
static void fc_save(void)
{
    fc_kept *k = fc_kept_lock();
    qr_face_answers_save(k->disk, k->cfg);
    g_mutex_unlock(&k->mu);
}

/* filter_by_format(): the formats HarfBuzz shapes. */
static int fc_supported(FcPattern *p)
{
    FcChar8 *file, *format;
    if (FcPatternGetString(p, FC_FILE, 0, &file) == FcResultMatch &&
        (g_str_has_suffix((const char *)file, ".woff") ||
         g_str_has_suffix((const char *)file, ".woff2")))
        return 0;
    if (FcPatternGetString(p, FC_FONTFORMAT, 0, &format) != FcResultMatch) return 0;
    return g_ascii_strcasecmp((const char *)format, "TrueType") == 0 ||
           g_ascii_strcasecmp((const char *)format, "CFF") == 0;
}

/* The fonts pango matches against (its config's system and application
 * fonts in the formats it shapes), made once; NULL out of memory. */
static FcFontSet *fc_fonts(fc_kept *k, FcConfig *cfg)
{
    if (k->fonts) return k->fonts;
    FcFontSet *out = FcFontSetCreate();
    if (!out) return NULL;
    for (int set = 0; set < 2; set++) {
        FcFontSet *fs = FcConfigGetFonts(cfg, set ? FcSetApplication : FcSetSystem);
        for (int i = 0; fs && i < fs->nfont; i++) {
            if (!fc_supported(fs->fonts[i])) continue;
            FcPatternReference(fs->fonts[i]);
            if (!FcFontSetAdd(out, fs->fonts[i])) {
                FcPatternDestroy(fs->fonts[i]);
                FcFontSetDestroy(out);
                return NULL;
            }
        }
    }
    return k->fonts = out;
}

/* May fontconfig's FcStrCmpIgnoreBlanksAndCase() find a and b equal? Yes
 * when they are equal but for spaces and ASCII case, or either is not ASCII. */
static int fc_may_equal(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ')
            a++;
        while (*b == ' ')
            b++;
        if ((unsigned char)*a >= 0x80 || (unsigned char)*b >= 0x80) return 1;
        if (g_ascii_tolower(*a) != g_ascii_tolower(*b)) return 0;
        if (!*a) return 1;
        a++;
        b++;
    }
}

/* The fonts FcFontSetMatch() can pick for a pattern whose first family,
 * bound strongly, is name: those of that family, and those with none. In
 * fontconfig 2.13 to 2.15 a match ranks fonts by FILE, FONT_WRAPPER (2.15),
 * FONTFORMAT, VARIABLE, SCALABLE, COLOR, FOUNDRY, CHARSET, then strongly
 * bound family (fcmatch.c); pango's pattern gives none of those before
 * family (VARIABLE DontCare: every font scores 0), so where a font has the
 * first family no font without it can win, and the fonts keep their order
 * (ties go to the first). Matching these few instead of every font gives
 * the same font, at a fraction of the work. NULL: match them all (no font
 * has the family by name, or out of memory). */
static FcFontSet *fc_family_fonts(fc_kept *k, const char *name)
{
    for (size_t i = 0; i < k->n_families; i++)
        if (strcmp(k->families[i].name, name) == 0) return k->families[i].fonts;
    struct fc_family *v = realloc(k->families, (k->n_families + 1) * sizeof *v);
    if (!v) return NULL;
    k->families = v;
    char *copy = strdup(name);
    FcFontSet *out = copy ? FcFontSetCreate() : NULL;
    int named = 0; /* a font of exactly that name */
    for (int i = 0; out && i < k->fonts->nfont; i++) {
        FcPattern *f = k->fonts->fonts[i];
        FcChar8 *fam;
        int take = FcPatternGetString(f, FC_FAMILY, 0, &fam) != FcResultMatch;
        for (int j = 0; !take && FcPatternGetString(f, FC_FAMILY, j, &fam) == FcResultMatch; j++) {
            take = fc_may_equal((const char *)fam, name);
            named |= strcmp((const char *)fam, name) == 0;
        }
        if (!take) continue;
        FcPatternReference(f);
        if (!FcFontSetAdd(out, f)) {
            FcPatternDestroy(f);
            FcFontSetDestroy(out);
            out = NULL;
        }
    }
    if (out && !named) {
        FcFontSetDestroy(out);
        out = NULL;
    }
    if (!copy) return NULL;
    v[k->n_families++] = (struct fc_family){copy, out};
    return out;
}

/* The fonts to match p against: fc_family_fonts() where that holds, else
 * all of them. */
static FcFontSet *fc_candidates(fc_kept *k, FcPattern *p)
{
    int version = FcGetVersion();
    FcValue v;
    FcValueBinding b;
    static const char *const before[] = {FC_FILE,  "fontwrapper", FC_FONTFORMAT, FC_SCALABLE,
                                         FC_COLOR, FC_FOUNDRY,    FC_CHARSET};
    if (version < 21300 || version >= 21600 ||
        FcPatternGetWithBinding(p, FC_FAMILY, 0, &v, &b) != FcResultMatch ||
        v.type != FcTypeString || b != FcValueBindingStrong)
        return k->fonts;
    const char *first = (const char *)v.u.s;
    for (size_t i = 0; i < sizeof before / sizeof *before; i++)
        if (FcPatternGet(p, before[i], 0, &v) == FcResultMatch) return k->fonts;
    for (int i = 0; FcPatternGet(p, FC_VARIABLE, i, &v) == FcResultMatch; i++)
        if (v.type != FcTypeBool || v.u.b != FcDontCare) return k->fonts;
    FcFontSet *few = fc_family_fonts(k, first);
    return few ? few : k->fonts;
}

/* pango_fc_make_pattern() for the face of fd, substituted as
 * pango_cairo_fc_font_map_fontset_key_substitute() does with the font
 * options fo; NULL on failure. */
static FcPattern *fc_pattern(const fc_found *fd, FcConfig *cfg, const cairo_font_options_t *fo)
{
    int pixel_size = fd->size; /* get_scaled_size(): absolute, no matrix */
    double dpi = fd->dpi;
    FcPattern *p = FcPatternBuild(
        NULL, PANGO_FC_VERSION, FcTypeInteger, pango_version(), FC_WEIGHT, FcTypeDouble,
        FcWeightFromOpenTypeDouble(fd->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL), FC_SLANT,
        FcTypeInteger, fd->italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN, FC_WIDTH, FcTypeInteger,
        FC_WIDTH_NORMAL, FC_VARIABLE, FcTypeBool, FcDontCare, FC_DPI, FcTypeDouble, dpi, FC_SIZE,
        FcTypeDouble, pixel_size * (72. / 1024. / dpi), FC_PIXEL_SIZE, FcTypeDouble,
        pixel_size / 1024., (char *)NULL);
    if (!p) return NULL;
    gchar **families = g_strsplit(fd->family, ",", -1);
    for (int i = 0; families[i]; i++)
        FcPatternAddString(p, FC_FAMILY, (const FcChar8 *)families[i]);
    g_strfreev(families);
    FcPatternAddString(p, FC_LANG, (const FcChar8 *)fd->lang);
    const char *prgname = g_get_prgname();
    if (prgname) FcPatternAddString(p, PANGO_FC_PRGNAME, (const FcChar8 *)prgname);
    FcConfigSubstitute(cfg, p, FcMatchPattern);
    cairo_ft_font_options_substitute(fo, p);
    FcDefaultSubstitute(p);
    return p;
}

/* The hb_face of a font file, kept per file and index; NULL on failure. */
static hb_face_t *fc_hb_face(fc_kept *k, const char *file, int index, const char **kept)
{
    for (size_t i = 0; i < k->n_files; i++)
        if (k->files[i].index == index && strcmp(k->files[i].file, file) == 0) {
            *kept = k->files[i].file;
            return k->files[i].hb;
        }
    struct fc_file *v = realloc(k->files, (k->n_files + 1) * sizeof *v);
    if (!v) return NULL;
    k->files = v;
    char *copy = strdup(file);
    if (!copy) return NULL;
    hb_blob_t *blob = hb_blob_create_from_file(file);
    hb_face_t *hf = hb_face_create(blob, (unsigned)index);
    hb_blob_destroy(blob);
    v[k->n_files++] = (struct fc_file){copy, index, hf};
    *kept = copy;
    return hf;
}

/* The hb_font of face hf at fd's scale, point size and slant. */
static hb_font_t *fc_make_hb(hb_face_t *hf, const fc_found *fd)
{
    hb_font_t *hb = hb_font_create(hf);
    hb_font_set_scale(hb, fd->scale_x, fd->scale_y);
    hb_font_set_ptem(hb, fd->ptem);
    hb_font_set_synthetic_slant(hb, fd->slant);
    hb_font_make_immutable(hb);
    return hb;
}

/* pango_fc_font_create_hb_font() for the font pattern m (FcFontSetMatch's,
 * render-prepared) with no matrix on the context, into fd; 0, or -1 where
 * it would set variations (left to pango). */
static int fc_hb_font(fc_kept *k, FcPattern *m, fc_found *fd)
{
    FcChar8 *file;
    if (FcPatternGetString(m, FC_FILE, 0, &file) != FcResultMatch ||
        FcPatternGetInteger(m, FC_INDEX, 0, &fd->index) != FcResultMatch)
        return -1;
    hb_face_t *hf = fc_hb_face(k, (const char *)file, fd->index, &fd->file);
    if (!hf || hb_ot_var_get_axis_infos(hf, 0, NULL, NULL) != 0) return -1;
    FcMatrix fm, *mv;
    FcMatrixInit(&fm);
    for (int i = 0; FcPatternGetMatrix(m, FC_MATRIX, i, &mv) == FcResultMatch; i++)
        FcMatrixMultiply(&fm, &fm, mv);
    PangoMatrix pm = PANGO_MATRIX_INIT;
    pm.xx = fm.xx;
    pm.yx = -fm.yx;
    pm.xy = fm.xy;
    pm.yy = -fm.yy;
    double x_scale_inv = 1.0, y_scale_inv = 1.0, x, y;
    pango_matrix_get_font_scale_factors(&pm, &x, &y);
    double slant = pango_matrix_get_slant_ratio(&pm);
    x_scale_inv /= x;
    y_scale_inv /= y;
    double point_size, pixel_size, dpi;
    if (FcPatternGetDouble(m, FC_SIZE, 0, &point_size) != FcResultMatch) point_size = 13.;
    if (FcPatternGetDouble(m, FC_PIXEL_SIZE, 0, &pixel_size) != FcResultMatch) {
        if (FcPatternGetDouble(m, FC_DPI, 0, &dpi) != FcResultMatch) dpi = 72.;
        pixel_size = point_size * dpi / 72.;
    }
    double x_scale = 1. / x_scale_inv, y_scale = 1. / y_scale_inv;
    fd->scale_x = (int)(pixel_size * PANGO_SCALE * x_scale);
    fd->scale_y = (int)(pixel_size * PANGO_SCALE * y_scale);
    fd->ptem = (float)point_size;
    fd->slant = (float)slant;
    fd->hb = fc_make_hb(hf, fd);
    return 0;
}

/* Find the font of fd (its key set) as pango finds its first font (map:
 * the context's, or NULL before it has one: fontconfig's current
 * configuration, which is the one pango's maps have). */
static void fc_find(fc_kept *k, PangoFontMap *map, const cairo_font_options_t *fo, fc_found *fd)
{
    FcConfig *cfg = map ? pango_fc_font_map_get_config(PANGO_FC_FONT_MAP(map)) : NULL;
    k->cfg = cfg ? cfg : FcConfigGetCurrent(); /* NULL: the current one */
    FcFontSet *fonts = fc_fonts(k, cfg);
    FcPattern *p = fonts ? fc_pattern(fd, cfg, fo) : NULL;
    FcResult res;
    if (p) fonts = fc_candidates(k, p);
    FcPattern *m = p ? FcFontSetMatch(cfg, &fonts, 1, p, &res) : NULL;
    if (p) FcPatternDestroy(p);
    FcCharSet *cs;
    FcChar8 *str;
    if (m && FcPatternGetCharSet(m, FC_CHARSET, 0, &cs) == FcResultMatch &&
        FcPatternGetString(m, PANGO_FC_GRAVITY, 0, &str) != FcResultMatch &&
        FcPatternGetString(m, FC_FONT_VARIATIONS, 0, &str) != FcResultMatch &&
        fc_hb_font(k, m, fd) == 0) {
        fd->has_a = FcCharSetHasChar(cs, 'a');
        fd->has_0 = FcCharSetHasChar(cs, '0');
        fd->ok = 1;
        for (FcChar32 ch = 0x20; ch <= 0x7E && fd->ok; ch++)
            fd->ok = FcCharSetHasChar(cs, ch);
        for (size_t i = 0; i < N_LABEL_CHARS; i++)
            if (FcCharSetHasChar(cs, label_chars[i])) fd->labels |= 1u << i;
        /* pango_fc_font_get_features() */
        for (int i = 0; fd->n_features < 32 &&
                        FcPatternGetString(m, FC_FONT_FEATURES, i, &str) == FcResultMatch;
             i++) {
            hb_feature_t *ft = &fd->features[fd->n_features];
            int ok = hb_feature_from_string((const char *)str, -1, ft);
            ft->start = 0;
            ft->end = (unsigned)-1;
            fd->n_features += ok != 0;
        }
    }
    if (m) FcPatternDestroy(m);
}

/* fd's answer (its key set) from the disk, as fc_find() would give it
 * (the key that the answers were kept under still holds): 1, or 0 when it
 * is not there. */
static int fc_from_disk(fc_kept *k, const qr_fonts *fonts, fc_found *fd)
{
    if (!k->disk_read) {
        k->disk = qr_face_answers_load(fonts);
        k->disk_read = 1;
    }
    qr_face_answer q = {fd->family, fd->lang, fd->size, fd->bold, fd->italic, fd->dpi, fd->options};
    const qr_face_answer *a = qr_face_answers_find(k->disk, &q);
    if (!a) return 0;
    if (!a->found) return 1; /* pango's */
    hb_face_t *hf = fc_hb_face(k, a->file, a->index, &fd->file);
    if (!hf || hb_face_get_glyph_count(hf) == 0) return 0;
    fd->index = a->index;
    fd->scale_x = a->scale_x;
    fd->scale_y = a->scale_y;
    fd->ptem = a->ptem;
    fd->slant = a->slant;
    fd->ok = a->ok;
    fd->has_a = a->has_a;
    fd->has_0 = a->has_0;
    fd->labels = a->labels;
    memcpy(fd->features, a->features, sizeof fd->features);
    fd->n_features = a->n_features;
    fd->hb = fc_make_hb(hf, fd);
    return 1;
}

/* Keep fc_find()'s answer for fd to be written (qr_simple_free). */
static void fc_to_disk(fc_kept *k, const fc_found *fd)
{
    if (!k->disk) return;
    qr_face_answer a = {fd->family,  fd->lang,    fd->size,       fd->bold,  fd->italic,
                        fd->dpi,     fd->options, fd->hb != NULL, fd->file,  fd->index,
                        fd->scale_x, fd->scale_y, fd->ptem,       fd->slant, fd->ok,
                        fd->has_a,   fd->has_0,   fd->labels,     {{0}},     fd->n_features};
    memcpy(a.features, fd->features, sizeof a.features);
    qr_face_answers_add(k->disk, &a); /* out of memory: asked again next time */
}

/* Fill f without pango (see above): 1 done, 0 pango's turn. */
static int face_open_fc(qr_simple *s, face *f)
{
    /* no map yet: pdf.c gives the context a PangoCairoFcFontMap when
     * pango first needs one (qr_pdf_fonts_ready) */
    PangoFontMap *map = pango_context_get_font_map(s->pc);
    if (!f->family[0] || (map && (!PANGO_IS_FC_FONT_MAP(map) || !PANGO_IS_CAIRO_FONT_MAP(map))) ||
        pango_context_get_matrix(s->pc) ||
        pango_context_get_base_gravity(s->pc) != PANGO_GRAVITY_SOUTH ||
        pango_context_get_base_dir(s->pc) != PANGO_DIRECTION_LTR)
        return 0;
    const PangoFontDescription *cd = pango_context_get_font_description(s->pc);
    if (pango_font_description_get_stretch(cd) != PANGO_STRETCH_NORMAL ||
        pango_font_description_get_variant(cd) != PANGO_VARIANT_NORMAL)
        return 0;
    /* itemize.c's compute_derived_language() for the sample's script */
    PangoScript script = f->letters ? PANGO_SCRIPT_LATIN : PANGO_SCRIPT_COMMON;
    PangoLanguage *lang =
        f->lang ? pango_language_from_string(f->lang) : pango_context_get_language(s->pc);
    if (!lang || !pango_language_includes_script(lang, script)) {
        lang = pango_script_get_sample_language(script);
        if (!lang) lang = pango_language_from_string("xx");
    }
    double dpi = pango_cairo_context_get_resolution(s->pc);
    if (dpi <= 0 && map) dpi = pango_cairo_font_map_get_resolution(PANGO_CAIRO_FONT_MAP(map));
    if (dpi <= 0) return 0;
    /* the fontset key's context key: the context's font options merged
     * over a surface's (quire sets none) */
    cairo_font_options_t *fo = cairo_font_options_create();
    const cairo_font_options_t *set = pango_cairo_context_get_font_options(s->pc);
    if (set) cairo_font_options_merge(fo, set);
    fc_found key = {0};
    key.family = f->family;
    key.lang = pango_language_to_string(lang);
    key.size = f->size;
    key.bold = f->bold;
    key.italic = f->italic;
    key.dpi = dpi;
    key.options = cairo_font_options_hash(fo);
    fc_kept *k = fc_kept_lock();
    const fc_found *fd = NULL;
    fc_found got = {0}; /* a copy of *fd, its font referenced */
    for (size_t i = 0; i < k->n_found && !fd; i++) {
        const fc_found *o = &k->found[i];
        if (o->size == key.size && o->bold == key.bold && o->italic == key.italic &&
            o->lang == key.lang && o->dpi == key.dpi && o->options == key.options &&
            strcmp(o->family, key.family) == 0)
            fd = o;
    }
    fc_found *v = fd ? NULL : realloc(k->found, (k->n_found + 1) * sizeof *v);
    if (v) k->found = v;
    if (v && (key.family = strdup(f->family)) != NULL) {
        if (!fc_from_disk(k, s->fonts, &key)) {
            s->asked = 1;
            fc_find(k, map, fo, &key);
            fc_to_disk(k, &key);
        }
        v[k->n_found] = key;
        fd = &v[k->n_found++];
    }
    if (fd) {
        got = *fd;
        if (got.hb) hb_font_reference(got.hb);
    }
    g_mutex_unlock(&k->mu);
    cairo_font_options_destroy(fo);
    /* pango's first font, if it has the sample's character (else pango
     * looks further down its sorted list) */
    if (!got.hb || !(f->letters ? got.has_a : got.has_0)) {
        if (got.hb) hb_font_destroy(got.hb);
        return 0;
    }
    f->own_hb = got.hb;
    f->own_file = got.file;
    f->own_index = got.index;
    f->ok = got.ok;
    f->labels = got.labels;
    memcpy(f->features, got.features, sizeof f->features);
    f->n_features = got.n_features;
    f->hb_lang = hb_language_from_string(key.lang, -1);
    f->hb_script = (hb_script_t)g_unicode_script_to_iso15924((GUnicodeScript)script);
    return 1;
}

/* QUIRE_SIMPLE_TEXT=check: f opened without pango is what pango opens (the
 * same font file, sizes, slant, features, language and script); stop the
 * process where it is not. */
static void face_check(qr_simple *s, face *f)
{
    if (face_itemize(s, f) != 0) {
        fprintf(stderr, "quire: QUIRE_SIMPLE_TEXT=check: pango has no font for %s\n", f->family);
        abort();
    }
    hb_font_t *ph = pango_font_get_hb_font(f->an.font);
    FcPattern *pp =
        PANGO_IS_FC_FONT(f->an.font) ? pango_fc_font_get_pattern(PANGO_FC_FONT(f->an.font)) : NULL;
    FcChar8 *pf = NULL;
    int pi = -1;
    if (pp) {
        FcPatternGetString(pp, FC_FILE, 0, &pf);
        FcPatternGetInteger(pp, FC_INDEX, 0, &pi);
    }
    int px, py, ox, oy;
    hb_font_get_scale(ph, &px, &py);
    hb_font_get_scale(f->own_hb, &ox, &oy);
    hb_feature_t pft[32];
    unsigned pn = 0;
    pango_font_get_features(f->an.font, pft, 32, &pn);
    int same =
        pf && strcmp((const char *)pf, f->own_file) == 0 && pi == f->own_index && px == ox &&
        py == oy && hb_font_get_ptem(ph) == hb_font_get_ptem(f->own_hb) &&
        hb_font_get_synthetic_slant(ph) == hb_font_get_synthetic_slant(f->own_hb) &&
        pn == f->n_features && memcmp(pft, f->features, pn * sizeof *pft) == 0 &&
        f->hb_lang == hb_language_from_string(pango_language_to_string(f->an.language), -1) &&
        f->hb_script == (hb_script_t)g_unicode_script_to_iso15924(f->an.script) &&
        f->an.level == 0 && !(f->an.flags & PANGO_ANALYSIS_FLAG_CENTERED_BASELINE);
    if (!same) {
        fprintf(stderr,
                "quire: QUIRE_SIMPLE_TEXT=check: the face %s %d%s%s differs from pango's: "
                "%s/%d %d against %s/%d %d\n",
                f->family, f->size, f->bold ? " bold" : "", f->italic ? " italic" : "", f->own_file,
                f->own_index, ox, pf ? (const char *)pf : "?", pi, px);
        abort();
    }
}

/* Fill f from its first font: without pango where only widths are asked
 * for and that follows pango, else pango's. */
static void face_open(qr_simple *s, face *f)
{
    if (s->widths_only && face_open_fc(s, f)) {
        if (qr_simple_mode() == 2) face_check(s, f);
        return;
    }
    face_open_pango(s, f);
}

/* f's PangoFont (for pango's shaping), found now if face_open_fc() made
 * f; NULL when pango has none. */
static PangoFont *face_font(qr_simple *s, face *f)
{
    if (!f->an.font) face_itemize(s, f);
    return f->an.font;
}

/* The face of it (in a text with or without letters), or -1. */
static int face_find(qr_simple *s, const qr_simple_item *it, int letters)
{
    int size = it->size;
    for (size_t i = 0; i < s->n_faces; i++) {
        face *f = s->faces[i];
        if (f->size == size && f->bold == !!it->bold && f->italic == !!it->italic &&
            f->letters == letters && same_str(f->family, it->family) && same_str(f->lang, it->lang))
            return f->ok ? (int)i : -1;
    }
    if (s->n_faces == s->cap_faces) {
        size_t cap = s->cap_faces ? 2 * s->cap_faces : 8;
        face **p = realloc(s->faces, cap * sizeof *p);
        if (!p) return -1;
        s->faces = p;
        s->cap_faces = cap;
    }
    face *f = calloc(1, sizeof *f);
    if (!f) return -1;
    f->family = strdup(it->family ? it->family : "");
    f->lang = it->lang ? strdup(it->lang) : NULL;
    f->size = size;
    f->bold = !!it->bold;
    f->italic = !!it->italic;
    f->letters = letters;
    for (int i = 0; i < 95; i++)
        f->single[i] = -1;
    if (!f->family || (it->lang && !f->lang)) {
        free(f->family);
        free(f->lang);
        free(f);
        return -1;
    }
    s->faces[s->n_faces++] = f;
    face_open(s, f);
    return f->ok ? (int)s->n_faces - 1 : -1;
}

/* ---- widths ------------------------------------------------------------------------ */

/* Shape p[0..n) alone in face f into s->glyphs: pango_shape_item() as the
 * layout calls it (no rounding: pdf.c turns it off). 0, or -1 when pango
 * has no font for f. */
static int shape(qr_simple *s, face *f, const char *p, int n)
{
    if (!face_font(s, f)) return -1;
    pango_shape_with_flags(p, n, p, n, &f->an, s->glyphs, PANGO_SHAPE_NONE);
    return 0;
}

/* b set up for face f as pango_hb_shape() sets it up (hb_shape_alone). */
static void hb_setup(hb_buffer_t *b, const face *f)
{
    hb_buffer_clear_contents(b);
    hb_buffer_set_direction(b, HB_DIRECTION_LTR);
    hb_buffer_set_script(b, f->hb_script);
    hb_buffer_set_language(b, f->hb_lang);
    hb_buffer_set_cluster_level(b, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_CHARACTERS);
    hb_buffer_set_flags(b, HB_BUFFER_FLAG_BOT | HB_BUFFER_FLAG_EOT);
    hb_buffer_set_invisible_glyph(b, PANGO_GLYPH_EMPTY);
}

/* Shape what b holds (hb_setup) in face f. */
static void hb_run(hb_buffer_t *b, const face *f)
{
    hb_font_t *font = f->own_hb ? f->own_hb : pango_font_get_hb_font(f->an.font);
    hb_shape_full(font, b, f->features, f->n_features, NULL);
}

/* Shape p[0..n) in face f into b, set up as shape.c's pango_hb_shape()
 * sets up its buffer (left to right, the item's script and language,
 * monotone characters, BOT and EOT, the font's features), on the
 * PangoFont's own hb_font (or face_open_fc()'s copy of it): pango's
 * sub-font differs from it only for characters the font lacks, and f
 * covers printable ASCII. */
static void hb_shape_alone(hb_buffer_t *b, const face *f, const char *p, int n)
{
    hb_setup(b, f);
    /* printable ASCII: its Latin-1 code points are its UTF-8's, one byte
     * each (and the CLI's hb_buffer_add_utf8(), pdf/memo/shape_memo.c,
     * notes the text around it for pango's calls: not needed here) */
    hb_buffer_add_latin1(b, (const uint8_t *)p, n, 0, n);
    hb_run(b, f);
}

/* The glyph advances HarfBuzz gives p[0..n) in face f: 1 with one glyph
 * per character, in order, into lw[0..n) (then these are
 * pango_glyph_item_get_logical_widths()'); 0 otherwise. */
static int hb_widths(qr_simple *s, const face *f, const char *p, int n, int *lw)
{
    hb_buffer_t *b = s->buf;
    hb_shape_alone(b, f, p, n);
    unsigned int ng;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(b, &ng);
    const hb_glyph_position_t *gp = hb_buffer_get_glyph_positions(b, NULL);
    if (ng != (unsigned)n) return 0;
    for (int i = 0; i < n; i++) {
        if (gi[i].cluster != (unsigned)i || gp[i].x_advance < 0) return 0;
        lw[i] = gp[i].x_advance;
    }
    return 1;
}

/* pango_glyph_item_get_logical_widths() of the n characters hb_widths()
 * just shaped in s->buf (a face opened without pango) into lw[0..n), from
 * HarfBuzz's glyphs as pango_hb_shape() takes them (a glyph's width its
 * advance, its cluster its first byte): each cluster's width split evenly
 * over its characters, the remainder to the first. */
static void own_widths(qr_simple *s, int n, int *lw)
{
    unsigned int ng;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(s->buf, &ng);
    const hb_glyph_position_t *gp = hb_buffer_get_glyph_positions(s->buf, NULL);
    memset(lw, 0, (size_t)n * sizeof *lw);
    for (unsigned int g = 0; g < ng;) {
        unsigned int c = gi[g].cluster, e = g;
        int width = 0;
        for (; e < ng && gi[e].cluster == c; e++)
            width += gp[e].x_advance;
        int end = e < ng ? (int)gi[e].cluster : n, chars = end - (int)c;
        if (chars > 0) {
            int each = width / chars;
            for (int k = (int)c; k < end; k++)
                lw[k] = each;
            lw[c] += width - each * chars;
        }
        g = e;
    }
}

/* The logical width of each character of p[0..n) shaped alone in face f
 * into lw[0..n) (pango_glyph_item_get_logical_widths): HarfBuzz's advances
 * when it gives one glyph per character, else pango's shaping (or
 * own_widths()). 0, or -1 when pango has no font for f. */
static int shape_widths(qr_simple *s, face *f, const char *p, int n, int *lw)
{
    if (hb_widths(s, f, p, n, lw)) return 0;
    if (f->own_hb) {
        own_widths(s, n, lw);
        return 0;
    }
    if (shape(s, f, p, n) != 0) return -1;
    PangoItem item = {0, n, n, f->an};
    PangoGlyphItem gi = {&item, s->glyphs, 0, 0, 0};
    pango_glyph_item_get_logical_widths(&gi, p, lw);
    return 0;
}

/* A piece's key in the memos kept per face and piece (its widths, its
 * glyphs): the face's index, then the piece's bytes. */
#define PIECE_KEY_MAX 256

/* Whether a piece of n bytes is short enough to keep. */
static int piece_fits(int n)
{
    return (size_t)n + sizeof(int) <= PIECE_KEY_MAX;
}

/* The key of p[0..n) in face fi into key: its length, or 0 when the piece
 * is too long to keep (it is then shaped each time it is asked for). */
static size_t piece_key(char key[PIECE_KEY_MAX], int fi, const char *p, int n)
{
    size_t kn = (size_t)n + sizeof fi;
    if (!piece_fits(n)) return 0;
    memcpy(key, &fi, sizeof fi);
    memcpy(key + sizeof fi, p, (size_t)n);
    return kn;
}

/* The hash of piece p[0..n) in face fi for the memos kept per face and
 * piece; they look for it without copying it (memo_get() with the tag
 * fi) and keep it under piece_key()'s key. */
static uint64_t piece_hash(int fi, const char *p, int n)
{
    return hash_bytes(p, (size_t)n) ^ (uint64_t)(unsigned)fi * 0xD6E8FEB86659FD93ull;
}

/* The width of character c alone in face f, -1 when pango has no font for f. */
static int single_width(qr_simple *s, face *f, char c)
{
    int *w = &f->single[(unsigned char)c - 0x20];
    if (*w < 0) {
        int lw;
        if (hb_widths(s, f, &c, 1, &lw)) {
            *w = lw;
        } else if (f->own_hb) {
            own_widths(s, 1, &lw);
            *w = lw;
        } else if (shape(s, f, &c, 1) == 0) {
            *w = pango_glyph_string_get_width(s->glyphs);
        }
    }
    return *w;
}

/* Does "ab" shaped in face f give a's glyph then b's, each as wide as
 * alone? Then the text can be cut between them and the halves' widths add
 * up to the whole's. */
static int pair_adds_up(qr_simple *s, face *f, char a, char b)
{
    unsigned char *p = &f->pair[(unsigned char)a - 0x20][(unsigned char)b - 0x20];
    if (!*p) {
        int wa = single_width(s, f, a), wb = single_width(s, f, b);
        char ab[2] = {a, b};
        int lw[2];
        *p = wa >= 0 && wb >= 0 && hb_widths(s, f, ab, 2, lw) && lw[0] == wa && lw[1] == wb ? 1 : 2;
    }
    return *p == 1;
}

/* ---- break opportunities -------------------------------------------------------------- */

/* is_line_break per position of t[0..tn), from pango_default_break(), into
 * out[0..tn); 0 or -1. */
static int default_breaks(qr_simple *s, const char *t, size_t tn, unsigned char *out)
{
    if (tn + 1 > s->cap_attrs) {
        size_t cap = 2 * (tn + 1);
        PangoLogAttr *a = realloc(s->attrs, cap * sizeof *a);
        if (!a) return -1;
        s->attrs = a;
        s->cap_attrs = cap;
    }
    pango_default_break(t, (int)tn, NULL, s->attrs, (int)tn + 1);
    for (size_t i = 0; i < tn; i++)
        out[i] = s->attrs[i].is_line_break;
    return 0;
}

/* What UAX #14 says of a printable ASCII character where a word after
 * spaces starts: nothing (0), no break before it even after spaces (LB13:
 * CL ) ] }, CP, EX ! ?, IS , . : ;, SY /), an opening bracket (OP ( [ {)
 * or a quote (QU " '). */
enum { LB_CLOSE = 1, LB_OPEN = 2, LB_QUOTE = 4 };
static const unsigned char lb_class[256] = {
    [')'] = LB_CLOSE, [']'] = LB_CLOSE, ['}'] = LB_CLOSE, ['!'] = LB_CLOSE, ['?'] = LB_CLOSE,
    [','] = LB_CLOSE, ['.'] = LB_CLOSE, [':'] = LB_CLOSE, [';'] = LB_CLOSE, ['/'] = LB_CLOSE,
    ['('] = LB_OPEN,  ['['] = LB_OPEN,  ['{'] = LB_OPEN,  ['"'] = LB_QUOTE, ['\''] = LB_QUOTE};

/* May a line start at a word (first, its first character) after spaces,
 * the last character before them prev (0: none)? pango_default_break()
 * decides it by UAX #14 LB13 (not before CL, CP, EX, IS, SY), LB14 (not
 * after OP and spaces), LB15 (not between QU and OP, spaces between) and
 * LB18 (else after spaces); no other rule looks at a pair around spaces
 * for printable ASCII. test_simple_text compares it with pango's for
 * every pair. */
static int first_break(char prev, char first)
{
    unsigned p = lb_class[(unsigned char)prev], f = lb_class[(unsigned char)first];
    return !(f & LB_CLOSE) && !(p & LB_OPEN) && !((p & LB_QUOTE) && (f & LB_OPEN));
}

/* pango_default_break()'s is_line_break inside the word p[0..n) (no
 * spaces; trailed: spaces follow it) into out[1..n), kept per word: no
 * rule looks across the spaces in front of a word past its first
 * position. 0 or -1. */
static int word_breaks(qr_simple *s, int trailed, const char *p, size_t n, unsigned char *out)
{
    size_t kn = n + 1;
    if (kn + 2 > s->cap_ctx) {
        size_t cap = 2 * (kn + 2);
        char *c = realloc(s->ctx, cap);
        if (!c) return -1;
        s->ctx = c;
        s->cap_ctx = cap;
    }
    char *k = s->ctx;
    k[0] = (char)trailed;
    memcpy(k + 1, p, n);
    uint64_t h = hash_bytes(k, kn);
    size_t vn;
    const unsigned char *v = memo_get(&s->breaks, NULL, k, kn, h, &vn);
    if (v && vn == n) {
        memcpy(out + 1, v + 1, n - 1);
        return 0;
    }
    /* the text pango sees: the word, a space after it when one follows */
    k[0] = ' ';
    if (trailed) k[kn] = ' ';
    unsigned char *b = malloc(kn + 1);
    if (!b) return -1;
    int r = default_breaks(s, k, kn + (trailed ? 1 : 0), b);
    if (r == 0) {
        memcpy(out + 1, b + 2, n - 1);
        b[1] = 0;
        k[0] = (char)trailed;
        memo_put(&s->breaks, k, kn, h, b + 1, n);
    }
    free(b);
    return r;
}

/* What qr_simple_breaks() knows of a character without pango: a letter,
 * a digit (ALNUM either), a stop (. , : ; ! ?: UAX #14's IS and EX; IS_STOP
 * the first four), or neither (0). */
enum { LETTER = 1, DIGIT = 2, ALNUM = 3, STOP = 4, IS_STOP = 8 };
#define K2(c, k) [c] = k, [c + 1] = k
#define K8(c, k) K2(c, k), K2(c + 2, k), K2(c + 4, k), K2(c + 6, k)
static const unsigned char char_kind[256] = {
    K8('0', DIGIT),         K2('8', DIGIT),         K8('A', LETTER),        K8('I', LETTER),
    K8('Q', LETTER),        K2('Y', LETTER),        K8('a', LETTER),        K8('i', LETTER),
    K8('q', LETTER),        K2('y', LETTER),        ['.'] = STOP | IS_STOP, [','] = STOP | IS_STOP,
    [':'] = STOP | IS_STOP, [';'] = STOP | IS_STOP, ['!'] = STOP,           ['?'] = STOP};
#undef K8
#undef K2

static int only_digits(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (char_kind[(unsigned char)p[i]] != DIGIT) return 0;
    return n > 0;
}

/* qr_simple_breaks() of t[0..n) into brk[0..n); when bp is not NULL,
 * the break opportunities in order into bp[0..*nb), then n twice (a line
 * may always end at the end). 0, or -1: t is not printable ASCII, or out
 * of memory. */
static int text_breaks(qr_simple *s, const char *t, size_t n, unsigned char *brk, int *bp,
                       size_t *nb)
{
    memset(brk, 0, n); /* never at the start (LB2), never before a space (LB7) */
    char prev = 0;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        if (t[i] == ' ') {
            i++;
            continue;
        }
        /* letters and digits, then only stops, then a space or the end:
         * UAX #14 has no break inside (never between letters and digits:
         * LB23, LB25, LB28; nor before a full stop, comma, colon,
         * semicolon, ! or ?: LB13); nor in a number whose digits a full
         * stop, comma, colon or semicolon parts (LB25: NU (IS NU)*: 1,234.5) */
        size_t j = i;
        while (j < n && (char_kind[(unsigned char)t[j]] & ALNUM))
            j++;
        if (j + 1 < n && (char_kind[(unsigned char)t[j]] & IS_STOP) &&
            char_kind[(unsigned char)t[j + 1]] == DIGIT && only_digits(t + i, j - i))
            while (j + 1 < n && (char_kind[(unsigned char)t[j]] & IS_STOP) &&
                   char_kind[(unsigned char)t[j + 1]] == DIGIT)
                for (j += 2; j < n && char_kind[(unsigned char)t[j]] == DIGIT;)
                    j++;
        int plain = j > i;
        while (j < n && (char_kind[(unsigned char)t[j]] & STOP))
            j++;
        plain = plain && (j == n || t[j] == ' ');
        for (; j < n && t[j] != ' '; j++)
            if ((unsigned char)t[j] < 0x20 || (unsigned char)t[j] > 0x7E) return -1;
        if (i > 0 && first_break(prev, t[i])) {
            brk[i] = 1;
            if (bp) bp[k++] = (int)i;
        }
        if (j - i > 1 && !plain) {
            if (word_breaks(s, j < n, t + i, j - i, brk + i) != 0) return -1;
            for (size_t q = i + 1; q < j && bp; q++)
                if (brk[q]) bp[k++] = (int)q;
        }
        prev = t[j - 1];
        i = j;
    }
    if (bp) {
        bp[k] = bp[k + 1] = (int)n;
        *nb = k;
    }
    return 0;
}

int qr_simple_breaks(qr_simple *s, const char *t, size_t n, unsigned char *brk)
{
    return text_breaks(s, t, n, brk, NULL, NULL);
}

/* ---- pango-layout.c's line filling ------------------------------------------------- */

enum { ALL_FIT, EMPTY_FIT, SOME_FIT, NONE_FIT, GIVE_UP };

/* The state of ParaBreakState this needs: the items left (item h from
 * byte hs on), the line's runs (each an item's start), the remaining
 * width; widths from prefix sums of the logical widths, known where a
 * piece starts (pre) and of a piece's last character (lw): the line filling
 * looks nowhere else. */
typedef struct sim {
    const unsigned char *brk, *text;
    const int *lw, *pre;
    const int *bp; /* the break opportunities in order, then n twice */
    int nb;        /* how many, without those */
    int n;
    const int *istart, *iend; /* per item: its bytes */
    int n_items, h, hs;
    int runs[64], run_item[64], n_runs;
    int rem;
} sim;

/* The index in m->bp of the first break opportunity after pos. */
static int break_after(const sim *m, int pos)
{
    int lo = 0, hi = m->nb; /* bp[hi] = n > pos, or pos = n: hi */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (m->bp[mid] <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int can_break_at(const sim *m, int pos)
{
    return pos == m->n ? 1 : m->brk[pos];
}

/* find_break_extra_width(): a space before the break does not count
 * (break_inserts_hyphen is off: the layout's insert-hyphens attribute). */
static int extra_at(const sim *m, int a, int pos)
{
    return pos > 0 && m->text[a + pos - 1] == ' ' ? -m->lw[a + pos - 1] : 0;
}

static int push_run(sim *m, int start)
{
    if (m->n_runs == 64) return -1;
    m->runs[m->n_runs] = start;
    m->run_item[m->n_runs++] = m->h;
    return 0;
}

static void next_item(sim *m)
{
    m->h++;
    m->hs = m->h < m->n_items ? m->istart[m->h] : m->n;
}

static int process_item(sim *m, int force_fit, int no_break_at_end, int is_last)
{
    int a = m->hs, e = m->iend[m->h], N = e - a;
    int width = m->pre[e] - m->pre[a], extra = 0;
    if (!no_break_at_end && can_break_at(m, e)) extra = extra_at(m, a, N);
    if ((width + extra <= m->rem || (N == 1 && !m->n_runs)) && !no_break_at_end) {
        if (push_run(m, a) != 0) return GIVE_UP;
        m->rem -= width;
        if (m->rem < 0) m->rem = 0;
        next_item(m);
        return ALL_FIT;
    }
    int bw = width, bx = extra, bn = N;
    width = 0;
    int limit = no_break_at_end ? N : N + 1;
    /* pango's loop looks at every character; only 0 and the break
     * opportunities change anything, and where it stops at a character
     * between two of them (lo past the remaining width), it stops at the
     * next one too: lo there is the width up to it, less a space before
     * it, at least the lo of any character since the last.
     * Its safe distance (3 approximate character widths: the face's
     * pango_font_get_metrics(), which lays out a sample text in a context
     * of its own, one more fontset and fontconfig sort per face) is 0
     * here, with the same lines: it only chooses between taking a break's
     * width as the sum of the logical widths and shaping the item up to
     * it (the else branch), the same number when the pieces add up; and
     * where it ends the loop early, no later break could be taken (lo
     * only grows, and the best so far is at most the lo it was taken at) */
    for (int nc = 0, k = break_after(m, a); nc < limit; nc = m->bp[k++] - a) {
        width = m->pre[a + nc] - m->pre[a];
        extra = extra_at(m, a, nc);
        int lo = width + extra < width ? width + extra : width;
        if (lo > m->rem && bn < N) break;
        if (can_break_at(m, a + nc) && (nc > 0 || m->n_runs)) {
            if (nc == 0 || width + extra < m->rem) {
                bn = nc, bw = width, bx = extra;
            } else {
                int nbw = m->pre[a + nc] - m->pre[a];
                if (nc > 0 && (nc < N || !is_last) && m->text[a + nc - 1] == ' ')
                    extra = -m->lw[a + nc - 1];
                else
                    extra = 0;
                if (bn == N || nbw + extra <= m->rem || nbw + extra < bw + bx)
                    bn = nc, bw = nbw, bx = extra;
            }
        }
        if (nc == N) break;
    }
    if (force_fit && bw + bx > m->rem) return GIVE_UP; /* pango retries breaking by character */
    if (!force_fit && bw + bx > m->rem) return NONE_FIT;
    m->rem -= bw + bx;
    if (m->rem < 0) m->rem = 0;
    if (bn == N) {
        if (push_run(m, a) != 0) return GIVE_UP;
        next_item(m);
        return ALL_FIT;
    }
    if (bn == 0) return EMPTY_FIT;
    if (push_run(m, a) != 0) return GIVE_UP;
    m->hs = a + bn;
    return SOME_FIT;
}

/* process_line(): one line from m->hs on; 0, or -1 to give up. */
static int process_line(sim *m, int width)
{
    int have_break = 0, break_rem = 0, break_link = 0;
    m->n_runs = 0;
    m->rem = width;
    while (m->h < m->n_items) {
        int a = m->hs, n_chars = m->iend[m->h] - a, old_rem = m->rem, first = !m->n_runs;
        int r = process_item(m, !have_break, 0, m->h == m->n_items - 1);
        if (r == GIVE_UP) return -1;
        if (r == ALL_FIT) {
            for (int i = first ? 1 : 0; i < n_chars; i++)
                if (can_break_at(m, a + i)) {
                    have_break = 1;
                    break_rem = old_rem;
                    break_link = m->n_runs - 1;
                    break;
                }
            continue;
        }
        if (r == NONE_FIT) {
            /* back up to the run holding the last break, break inside it */
            while (m->n_runs > break_link) {
                m->n_runs--;
                m->h = m->run_item[m->n_runs];
                m->hs = m->runs[m->n_runs];
            }
            m->rem = break_rem;
            r = process_item(m, 1, 1, m->h == m->n_items - 1);
            if (r != SOME_FIT && r != EMPTY_FIT) return -1;
        }
        break; /* EMPTY_FIT, SOME_FIT */
    }
    return 0;
}

/* ---- the whole ----------------------------------------------------------------------- */

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap) return 0;
    size_t c = 2 * n;
    void *q = realloc(*p, c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* ---- shaping a text's new pieces together ---------------------------------------------- */

/* HarfBuzz costs about the same per call whatever the text's length (its
 * plan's lookups, each tried once per call), and a paragraph brings a few
 * pieces no earlier one had, in each of its faces. They are shaped one
 * face at a time in one buffer, one after another (each once), and a
 * piece takes its advances from there when HarfBuzz says the buffer could
 * be cut at both its ends with the same glyphs on each side (no
 * HB_GLYPH_FLAG_UNSAFE_TO_BREAK on the first glyph of the piece nor on the
 * one after it: nothing across the edge touched either, so shaped alone
 * the piece gives what it gives here), with one glyph per character, in
 * order: what hb_widths() asks of a piece shaped alone. Any other piece
 * is shaped alone, as before. */

/* What the line filling needs of a piece (sim): its width, and its last
 * character's; kept per face and piece. */
typedef struct piece_width {
    int sum, last;
} piece_width;

/* The piece text[at, at + len), its logical widths at s->lw + at: its
 * width into s->pre[at] (its last character's stays at s->lw + at + len -
 * 1); 0, or -1 where a width is negative (process_item() counts on widths
 * that only grow: pango's turn). */
static int piece_sum(qr_simple *s, int at, int len)
{
    int sum = 0, neg = 0;
    for (int i = at; i < at + len; i++) {
        neg |= s->lw[i];
        sum += s->lw[i];
    }
    s->pre[at] = sum;
    return neg < 0 ? -1 : 0;
}

/* ---- numbers without shaping ------------------------------------------------------ */

/* A number (a table cell's figures, a note's or a page's number) comes as
 * a piece of its own, new more often than not, and alone in its text: no
 * batch to shape it in, HarfBuzz once for each. In a face where the
 * characters of numbers neither join nor kern with one another, such a
 * piece is as wide, character by character, as each character alone. */
static const char number_chars[] = "0123456789 .,";

/* Whether the characters of numbers may be cut apart anywhere in face f:
 * a text holding each ordered pair of them (a de Bruijn sequence: the
 * Lyndon words of length 1 and 2 in order, then the first again), shaped
 * once, gives one glyph per character, in order (hb_widths()), with
 * nothing across any edge (no HB_GLYPH_FLAG_UNSAFE_TO_BREAK), so each
 * character shaped alone gives the glyph it has there (cut_safe()): its
 * width alone (f->single) is its advance there. Once per face. */
static int numbers_add_up(qr_simple *s, face *f)
{
    if (f->numbers) return f->numbers == 1;
    f->numbers = 2;
    enum { K = sizeof number_chars - 1 };
    char t[K * K + 1];
    int n = 0;
    for (int a = 0; a < K; a++) {
        t[n++] = number_chars[a];
        for (int b = a + 1; b < K; b++) {
            t[n++] = number_chars[a];
            t[n++] = number_chars[b];
        }
    }
    t[n++] = number_chars[0];
    int lw[K * K + 1];
    if (!hb_widths(s, f, t, n, lw)) return 0;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(s->buf, NULL);
    for (int i = 0; i < n; i++) {
        int w = f->single[(unsigned char)t[i] - 0x20];
        if ((w >= 0 && w != lw[i]) ||
            (i && (hb_glyph_info_get_glyph_flags(&gi[i]) & HB_GLYPH_FLAG_UNSAFE_TO_BREAK)))
            return 0;
    }
    for (int i = 0; i < n; i++)
        f->single[(unsigned char)t[i] - 0x20] = lw[i];
    f->numbers = 1;
    return 1;
}

/* A piece of a number's characters alone in a face where they add up:
 * its widths (piece_sum()); 1 done, 0 not such a piece. */
static int number_widths(qr_simple *s, int fi, const char *text, int at, int len)
{
    for (int i = at; i < at + len; i++)
        if (!memchr(number_chars, text[i], sizeof number_chars - 1)) return 0;
    face *f = s->faces[fi];
    if (!numbers_add_up(s, f)) return 0;
    for (int i = at; i < at + len; i++)
        s->lw[i] = f->single[(unsigned char)text[i] - 0x20];
    piece_sum(s, at, len); /* no width is negative (numbers_add_up) */
    return 1;
}

/* The widths of text[at, at + len) in face fi (piece_sum()) when kept (or
 * too long to keep: shaped alone now); otherwise (a new piece) noted for
 * widths_pending(). 0 or -1. */
static int piece_kept(qr_simple *s, int fi, const char *text, int at, int len)
{
    if (number_widths(s, fi, text, at, len)) return 0;
    if (!piece_fits(len)) {
        if (shape_widths(s, s->faces[fi], text + at, len, s->lw + at) != 0) return -1;
        return piece_sum(s, at, len);
    }
    uint64_t h = piece_hash(fi, text + at, len);
    size_t vn;
    const unsigned char *v = memo_get(&s->widths, &fi, text + at, (size_t)len, h, &vn);
    if (v && vn == sizeof(piece_width)) {
        piece_width pw;
        memcpy(&pw, v, sizeof pw);
        s->pre[at] = pw.sum;
        s->lw[at + len - 1] = pw.last;
        return 0;
    }
    if (grow((void **)&s->pend, &s->cap_pend, s->n_pend + 1, sizeof *s->pend) != 0) return -1;
    int dup = -1;
    for (size_t k = 0; k < s->n_pend && dup < 0; k++) {
        const struct pend *o = &s->pend[k];
        if (o->h == h && o->fi == fi && o->len == len && o->dup < 0 &&
            memcmp(text + o->at, text + at, (size_t)len) == 0)
            dup = (int)k;
    }
    s->pend[s->n_pend++] = (struct pend){fi, at, len, dup, h};
    return 0;
}

/* Keep the widths of a new piece (at s->lw + pd->at; piece_kept() noted
 * only pieces short enough to keep): piece_sum(), then kept where no
 * width is negative. 0 or -1 (negative). */
static int pend_keep(qr_simple *s, const struct pend *pd, const char *text)
{
    if (piece_sum(s, pd->at, pd->len) != 0) return -1;
    char key[PIECE_KEY_MAX];
    size_t kn = piece_key(key, pd->fi, text + pd->at, pd->len);
    piece_width pw = {s->pre[pd->at], s->lw[pd->at + pd->len - 1]};
    if (kn) memo_put(&s->widths, key, kn, pd->h, &pw, sizeof pw);
    return 0;
}

/* Whether the buffer may be cut before byte c (of total) with the same
 * glyphs on each side: an end, or c's glyph without UNSAFE_TO_BREAK. */
static int cut_safe(const hb_glyph_info_t *gi, const int *gof, size_t c, size_t total)
{
    if (c == 0 || c == total) return 1;
    return gof[c] >= 0 &&
           !(hb_glyph_info_get_glyph_flags(&gi[gof[c]]) & HB_GLYPH_FLAG_UNSAFE_TO_BREAK);
}

/* Shape the new pieces of face fi (from pend[first] on, not duplicates)
 * in one buffer; each one that may take its advances from it gets them
 * and is kept (done[k] = 1). 0 or -1. */
static int batch_shape(qr_simple *s, int fi, size_t first, const char *text, unsigned char *done)
{
    const face *f = s->faces[fi];
    size_t total = 0;
    for (size_t k = first; k < s->n_pend; k++)
        if (s->pend[k].fi == fi && s->pend[k].dup < 0) total += (size_t)s->pend[k].len;
    size_t cap = s->cap_batch;
    if (grow((void **)&s->batch, &cap, total, 1) != 0) return -1;
    cap = s->cap_batch;
    if (grow((void **)&s->batch_glyph, &cap, total, sizeof *s->batch_glyph) != 0) return -1;
    s->cap_batch = cap;
    char *b = s->batch;
    size_t o = 0;
    for (size_t k = first; k < s->n_pend; k++) {
        const struct pend *pd = &s->pend[k];
        if (pd->fi != fi || pd->dup >= 0) continue;
        memcpy(b + o, text + pd->at, (size_t)pd->len);
        o += (size_t)pd->len;
    }
    hb_buffer_t *hb = s->buf;
    hb_shape_alone(hb, f, b, (int)total);
    unsigned int ng;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(hb, &ng);
    const hb_glyph_position_t *gp = hb_buffer_get_glyph_positions(hb, NULL);
    int *gof = s->batch_glyph;
    for (size_t c = 0; c < total; c++)
        gof[c] = -1;
    for (unsigned int g = 0; g < ng; g++) {
        unsigned int c = gi[g].cluster;
        if (c < total) gof[c] = gof[c] == -1 ? (int)g : -2;
    }
    o = 0;
    for (size_t k = first; k < s->n_pend; k++) {
        const struct pend *pd = &s->pend[k];
        if (pd->fi != fi || pd->dup >= 0) continue;
        size_t a = o, e = o + (size_t)pd->len;
        o = e;
        int ok = gof[a] >= 0 && cut_safe(gi, gof, a, total) && cut_safe(gi, gof, e, total);
        for (size_t c = a; c < e && ok; c++) {
            int g = gof[c];
            ok = g == gof[a] + (int)(c - a) && gp[g].x_advance >= 0;
        }
        if (!ok) continue;
        for (size_t c = a; c < e; c++)
            s->lw[pd->at + (int)(c - a)] = gp[gof[c]].x_advance;
        if (pend_keep(s, pd, text) != 0) return -1;
        done[k] = 1;
    }
    return 0;
}

/* The widths of the new pieces noted by piece_kept() (piece_sum()); 0 or -1. */
static int widths_pending(qr_simple *s, const char *text)
{
    size_t np = s->n_pend;
    if (!np) return 0;
    unsigned char stack[256], *done = np <= sizeof stack ? stack : calloc(np, 1);
    if (!done) return -1;
    if (done == stack) memset(done, 0, np);
    int st = 0;
    for (size_t k = 0; k < np && st == 0; k++) {
        const struct pend *pd = &s->pend[k];
        if (done[k] || pd->dup >= 0) continue;
        size_t more = 0; /* other new pieces of its face */
        for (size_t j = k + 1; j < np && !more; j++)
            more = s->pend[j].fi == pd->fi && s->pend[j].dup < 0;
        if (more) st = batch_shape(s, pd->fi, k, text, done);
        /* a piece alone, or one the buffer could not answer for */
        for (size_t j = k; j < np && st == 0; j++) {
            const struct pend *q = &s->pend[j];
            if (q->fi != pd->fi || q->dup >= 0 || done[j]) continue;
            st = shape_widths(s, s->faces[q->fi], text + q->at, q->len, s->lw + q->at);
            if (st == 0) st = pend_keep(s, q, text);
            if (st != 0) break;
            done[j] = 1;
        }
    }
    for (size_t k = 0; k < np && st == 0; k++) {
        const struct pend *pd = &s->pend[k];
        if (pd->dup >= 0) {
            const struct pend *o = &s->pend[pd->dup];
            s->pre[pd->at] = s->pre[o->at];
            s->lw[pd->at + pd->len - 1] = s->lw[o->at + o->len - 1];
        }
    }
    if (done != stack) free(done);
    return st;
}

long qr_simple_break(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                     size_t n_items, int width, const qr_simple_line **lines)
{
    if (!n || !n_items || n > (1u << 20) || width <= 0) return -1;
    size_t cap = s->cap_text;
    if (grow((void **)&s->lw, &cap, n + 2, sizeof *s->lw) != 0) return -1;
    cap = s->cap_text;
    if (grow((void **)&s->pre, &cap, n + 2, sizeof *s->pre) != 0) return -1;
    cap = s->cap_text;
    if (grow((void **)&s->bp, &cap, n + 2, sizeof *s->bp) != 0) return -1;
    cap = s->cap_text;
    if (grow((void **)&s->pat, &cap, n + 2, sizeof *s->pat) != 0) return -1;
    cap = s->cap_text;
    if (grow((void **)&s->brk, &cap, n + 2, 1) != 0) return -1;
    s->cap_text = cap;
    cap = s->cap_items;
    if (grow((void **)&s->face_of, &cap, 3 * n_items, sizeof *s->face_of) != 0) return -1;
    cap = s->cap_items;
    if (grow((void **)&s->item_at, &cap, 3 * n_items, sizeof *s->item_at) != 0) return -1;
    s->cap_items = cap;

    /* the break opportunities (and printable ASCII only) */
    unsigned char *brk = s->brk;
    size_t nb;
    if (text_breaks(s, text, n, brk, s->bp, &nb) != 0) return -1;
    int letters = 0;
    for (size_t i = 0; i < n && !letters; i++)
        letters = (text[i] | 0x20) >= 'a' && (text[i] | 0x20) <= 'z';
    int *istart = s->item_at, *iend = istart + n_items;
    for (size_t i = 0; i < n_items; i++) {
        const qr_simple_item *it = &items[i];
        if (it->start != (i ? items[i - 1].end : 0) || it->end <= it->start) return -1;
        int fi = face_find(s, it, letters);
        if (fi < 0) return -1;
        s->face_of[i] = fi;
        istart[i] = (int)it->start;
        iend[i] = (int)it->end;
    }
    if (items[n_items - 1].end != n) return -1;

    /* the logical widths, piece by piece: cut at each break and item edge,
     * where the font must not join the two sides; the pieces not kept yet
     * are shaped together afterwards (widths_pending) */
    s->n_pend = 0;
    const int *bp = s->bp;
    int *pat = s->pat;
    size_t np = 0, c = 0;
    for (size_t i = 0; i < n_items; i++) {
        int a = istart[i], e = iend[i];
        face *f = s->faces[s->face_of[i]];
        for (int p = a; p < e;) {
            while (bp[c] <= p)
                c++;
            int q = bp[c] < e ? bp[c] : e;
            if (q < e && !pair_adds_up(s, f, text[q - 1], text[q])) return -1;
            if (piece_kept(s, s->face_of[i], text, p, q - p) != 0) return -1;
            pat[np++] = p;
            p = q;
        }
    }
    if (widths_pending(s, text) != 0) return -1;
    /* each piece's width (at its start) into the prefix sums there */
    int sum = 0;
    for (size_t k = 0; k < np; k++) {
        int w = s->pre[pat[k]];
        s->pre[pat[k]] = sum;
        sum += w;
    }
    s->pre[n] = sum;

    sim m = {brk,    (const unsigned char *)text,
             s->lw,  s->pre,
             bp,     (int)nb,
             (int)n, istart,
             iend,   (int)n_items,
             0,      0,
             {0},    {0},
             0,      0};
    size_t nl = 0;
    while (m.h < m.n_items) {
        int start = m.hs;
        if (process_line(&m, width) != 0) return -1;
        if (m.hs <= start && m.h < m.n_items) return -1; /* no progress: not pango's case */
        if (grow((void **)&s->lines, &s->cap_lines, nl + 1, sizeof *s->lines) != 0) return -1;
        s->lines[nl++] = (qr_simple_line){start, m.hs - start, s->pre[m.hs] - s->pre[start]};
    }
    /* a wrapped line's final space is not drawn (qr_simple_runs) */
    for (size_t k = 0; k + 1 < nl; k++) {
        int end = s->lines[k].start + s->lines[k].length;
        if (s->lines[k].length > 0 && text[end - 1] == ' ') s->lines[k].width -= s->lw[end - 1];
    }
    *lines = s->lines;
    return (long)nl;
}

/* The label character text[0..n) is alone, as its index in label_chars,
 * or -1. */
static int label_index(const char *text, size_t n)
{
    gunichar ch = n <= 4 ? g_utf8_get_char_validated(text, (gssize)n) : (gunichar)-1;
    if (ch == (gunichar)-1 || ch == (gunichar)-2 || (size_t)g_unichar_to_utf8(ch, NULL) != n)
        return -1;
    for (size_t i = 0; i < N_LABEL_CHARS; i++)
        if (label_chars[i] == ch) return (int)i;
    return -1;
}

long qr_simple_width(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                     size_t n_items)
{
    if (!n || !n_items) return -1;
    int lab = label_index(text, n);
    if (lab < 0) {
        const qr_simple_line *ln;
        if (!qr_simple_ascii(text, n) ||
            qr_simple_break(s, text, n, items, n_items, 1 << 30, &ln) != 1)
            return -1;
        return ln[0].width;
    }
    /* one character of the Common script, as pango itemizes it: the face
     * of a text without letters, whose first font must have it (pango
     * looks further down its fontset otherwise) */
    if (n_items != 1 || items[0].start != 0 || items[0].end != n) return -1;
    int fi = face_find(s, &items[0], 0);
    if (fi < 0 || !(s->faces[fi]->labels & (1u << lab))) return -1;
    const face *f = s->faces[fi];
    hb_setup(s->buf, f);
    hb_buffer_add_codepoints(s->buf, &label_chars[lab], 1, 0, 1);
    hb_run(s->buf, f);
    unsigned int ng;
    const hb_glyph_info_t *gi = hb_buffer_get_glyph_infos(s->buf, &ng);
    const hb_glyph_position_t *gp = hb_buffer_get_glyph_positions(s->buf, NULL);
    if (ng != 1 || gi[0].cluster != 0 || gp[0].x_advance < 0) return -1;
    return gp[0].x_advance;
}

/* ---- what a line draws --------------------------------------------------------------- */

size_t qr_simple_n_faces(const qr_simple *s)
{
    return s->n_faces;
}

PangoFont *qr_simple_face_font(const qr_simple *s, size_t i)
{
    return i < s->n_faces ? s->faces[i]->an.font : NULL;
}

/* A piece's glyphs as kept: n, then per glyph its PangoGlyphInfo and its
 * cluster (bytes from the piece's start). */
typedef struct kept_glyph {
    PangoGlyphInfo g;
    int cl;
} kept_glyph;

/* Append the glyphs of p[0..len) (bytes [at, at + len) of the text) shaped
 * alone in face fi to the cache's whole-text glyphs; 0 or -1. */
static int piece_glyphs(qr_simple *s, int fi, const char *p, int len, int at)
{
    struct run_cache *rc = &s->rc;
    const int keep = piece_fits(len);
    uint64_t h = 0;
    const unsigned char *kg = NULL; /* kept_glyph values, not aligned in the memo */
    size_t ng = 0, vn;
    if (keep) {
        h = piece_hash(fi, p, len);
        const unsigned char *v = memo_get(&rc->glyphs, &fi, p, (size_t)len, h, &vn);
        if (v && vn % sizeof(kept_glyph) == 0) {
            kg = v;
            ng = vn / sizeof(kept_glyph);
        }
    }
    kept_glyph *made = NULL;
    if (!kg) {
        if (shape(s, s->faces[fi], p, len) != 0) return -1;
        ng = (size_t)s->glyphs->num_glyphs;
        made = malloc((ng ? ng : 1) * sizeof *made);
        if (!made) return -1;
        for (size_t i = 0; i < ng; i++) {
            memset(&made[i], 0, sizeof made[i]);
            made[i].g = s->glyphs->glyphs[i];
            made[i].cl = s->glyphs->log_clusters[i];
        }
        char key[PIECE_KEY_MAX];
        if (keep)
            memo_put(&rc->glyphs, key, piece_key(key, fi, p, len), h, made, ng * sizeof *made);
        kg = (const unsigned char *)made;
    }
    size_t cap = rc->cap_g;
    if (grow((void **)&rc->g, &cap, rc->n_g + ng, sizeof *rc->g) != 0 ||
        grow((void **)&rc->cl, &rc->cap_g, rc->n_g + ng, sizeof *rc->cl) != 0) {
        free(made);
        return -1;
    }
    for (size_t i = 0; i < ng; i++) {
        kept_glyph k;
        memcpy(&k, kg + i * sizeof k, sizeof k);
        rc->g[rc->n_g + i] = k.g;
        rc->cl[rc->n_g + i] = at + k.cl;
    }
    rc->n_g += ng;
    free(made);
    return 0;
}

/* The whole text's glyphs, piece by piece, into s->rc (kept while the same
 * text is asked for); 0 or -1. */
static int text_glyphs(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                       size_t n_items)
{
    struct run_cache *rc = &s->rc;
    if (rc->n == n && rc->n_items == n_items && memcmp(rc->text, text, n) == 0) {
        size_t i = 0;
        for (; i < n_items; i++) {
            const qr_simple_item *a = &rc->items[i], *b = &items[i];
            if (a->start != b->start || a->end != b->end || a->size != b->size ||
                a->bold != b->bold || a->italic != b->italic || !same_str(a->family, b->family) ||
                !same_str(a->lang, b->lang))
                break;
        }
        if (i == n_items) return 0;
    }
    rc->n = rc->n_items = 0; /* nothing kept until the end */
    size_t cap = rc->cap_n;
    if (grow((void **)&rc->brk, &cap, n + 1, 1) != 0) return -1;
    cap = rc->cap_n;
    if (grow((void **)&rc->at, &cap, n + 1, sizeof *rc->at) != 0) return -1;
    cap = rc->cap_n;
    if (grow((void **)&rc->text, &cap, n + 1, 1) != 0) return -1;
    rc->cap_n = cap;
    cap = rc->cap_items;
    if (grow((void **)&rc->face_of, &cap, n_items, sizeof *rc->face_of) != 0) return -1;
    cap = rc->cap_items;
    if (grow((void **)&rc->items, &cap, n_items, sizeof *rc->items) != 0) return -1;
    rc->cap_items = cap;
    int letters = 0;
    for (size_t i = 0; i < n && !letters; i++)
        letters = (text[i] | 0x20) >= 'a' && (text[i] | 0x20) <= 'z';
    for (size_t i = 0; i < n_items; i++)
        if ((rc->face_of[i] = face_find(s, &items[i], letters)) < 0) return -1;
    if (qr_simple_breaks(s, text, n, rc->brk) != 0) return -1;
    rc->n_g = 0;
    for (size_t i = 0; i < n_items; i++) {
        int a = (int)items[i].start, e = (int)items[i].end;
        for (int p = a; p < e;) {
            int q = p + 1;
            while (q < e && !rc->brk[q])
                q++;
            rc->at[p] = (int)rc->n_g;
            if (piece_glyphs(s, rc->face_of[i], text + p, q - p, p) != 0) return -1;
            p = q;
        }
    }
    rc->at[n] = (int)rc->n_g;
    memcpy(rc->text, text, n);
    memcpy(rc->items, items, n_items * sizeof *items);
    rc->n = n;
    rc->n_items = n_items;
    return 0;
}

long qr_simple_runs(qr_simple *s, const char *text, size_t n, const qr_simple_item *items,
                    size_t n_items, int start, int length, int wrapped, const int *cuts,
                    size_t n_cuts, const qr_simple_run **runs)
{
    struct run_cache *rc = &s->rc;
    if (text_glyphs(s, text, n, items, n_items) != 0) return -1;
    int end = start + length;
    size_t nr = 0, ng = 0;
    for (size_t i = 0; i < n_items; i++) {
        int a = (int)items[i].start, e = (int)items[i].end;
        if (e <= start || a >= end) continue;
        nr++;
        ng += (size_t)(rc->at[e < end ? e : end] - rc->at[a > start ? a : start]);
    }
    size_t n_whole = nr;
    nr += n_cuts; /* at most one more run per cut */
    if (grow((void **)&rc->runs, &rc->cap_runs, nr ? nr : 1, sizeof *rc->runs) != 0) return -1;
    size_t cap = rc->cap_rg;
    if (grow((void **)&rc->rg, &cap, ng ? ng : 1, sizeof *rc->rg) != 0 ||
        grow((void **)&rc->rcl, &rc->cap_rg, ng ? ng : 1, sizeof *rc->rcl) != 0)
        return -1;
    size_t k = 0, at = 0;
    int x = 0;
    for (size_t i = 0; i < n_items; i++) {
        int a = (int)items[i].start, e = (int)items[i].end;
        if (e <= start || a >= end) continue;
        if (a < start) a = start;
        if (e > end) e = end;
        int g0 = rc->at[a], g1 = rc->at[e];
        qr_simple_run *r = &rc->runs[k++];
        r->font = s->faces[rc->face_of[i]]->an.font;
        r->language = s->faces[rc->face_of[i]]->an.language;
        r->start = a;
        r->length = e - a;
        r->x = x;
        r->glyphs = rc->rg + at;
        r->log_clusters = rc->rcl + at;
        r->n_glyphs = g1 - g0;
        for (int j = g0; j < g1; j++, at++) {
            rc->rg[at] = rc->g[j];
            rc->rcl[at] = rc->cl[j] - a;
        }
        /* pango-layout.c's zero_line_final_space(): a wrapped line's final
         * space, a cluster of its own, is not drawn */
        if (k == n_whole && wrapped && r->n_glyphs > 0 && text[end - 1] == ' ') {
            int last = r->n_glyphs - 1;
            PangoGlyphInfo *gl = (PangoGlyphInfo *)&r->glyphs[last];
            if (last == 0 || r->log_clusters[last] != r->log_clusters[last - 1]) {
                gl->geometry.width = 0;
                gl->glyph = PANGO_GLYPH_EMPTY;
            }
        }
        for (int j = 0; j < r->n_glyphs; j++)
            x += r->glyphs[j].geometry.width;
    }
    /* pango_glyph_item_apply_attrs(): a run is split where a cut falls
     * inside it, before the first glyph of the cluster from there on */
    size_t total = k;
    for (size_t c = 0; c < n_cuts; c++) {
        int cut = cuts[c];
        for (size_t i = 0; i < total; i++) {
            qr_simple_run *r = &rc->runs[i];
            if (cut <= r->start || cut >= r->start + r->length) continue;
            int j = 0;
            while (j < r->n_glyphs && r->log_clusters[j] < cut - r->start)
                j++;
            memmove(r + 2, r + 1, (total - i - 1) * sizeof *r);
            qr_simple_run *q = r + 1;
            int w = 0;
            for (int g = 0; g < j; g++)
                w += r->glyphs[g].geometry.width;
            *q = *r;
            q->start = cut;
            q->length = r->start + r->length - cut;
            q->x = r->x + w;
            q->glyphs = r->glyphs + j;
            q->log_clusters = r->log_clusters + j;
            q->n_glyphs = r->n_glyphs - j;
            for (int g = 0; g < q->n_glyphs; g++)
                ((int *)q->log_clusters)[g] -= cut - r->start;
            r->length = cut - r->start;
            r->n_glyphs = j;
            total++;
            break;
        }
    }
    *runs = rc->runs;
    return (long)total;
}
