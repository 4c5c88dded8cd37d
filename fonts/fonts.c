/* fonts.c: the font set: one fontconfig configuration, read once.
 *
 * Construction lists every face of the configuration (family names, style,
 * file, charset) into a table sorted by family name and resolves the family
 * of every script in the table. After that a qr_fonts is immutable, so
 * itemization on many threads needs no lock, but for the order of last-resort
 * fallbacks: FcFontSort is asked for it, under a lock, the first time a
 * character is covered by neither its script's family nor the fixed chain. The process-wide set
 * shares fontconfig's current configuration (the one pango uses) and is built under pthread_once.
 */
#include <dirent.h>
#include <hb.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "fonts_int.h"

/* ---- the family table ----------------------------------------------------- */

static int add_family(qr_family **fams, size_t *n, size_t *cap, const char *name)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 64;
        qr_family *nf = realloc(*fams, nc * sizeof *nf);
        if (!nf) return -1;
        *fams = nf;
        *cap = nc;
    }
    qr_family *fam = &(*fams)[*n];
    memset(fam, 0, sizeof *fam);
    fam->name = strdup(name);
    if (!fam->name) return -1;
    fam->file = "";
    return (int)(*n)++;
}

static int add_face(qr_family *fam, const qr_face *face)
{
    if (fam->n_faces == fam->cap_faces) {
        size_t nc = fam->cap_faces ? fam->cap_faces * 2 : 4;
        qr_face *nf = realloc(fam->faces, nc * sizeof *nf);
        if (!nf) return -1;
        fam->faces = nf;
        fam->cap_faces = nc;
    }
    fam->faces[fam->n_faces++] = *face;
    return 0;
}

static int cmp_family(const void *a, const void *b)
{
    return strcmp(((const qr_family *)a)->name, ((const qr_family *)b)->name);
}

static int cmp_face(const void *a, const void *b)
{
    const qr_face *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

int qr_fonts_family_index(const qr_fonts *f, const char *name)
{
    size_t lo = 0, hi = f->n_fams;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(f->fams[mid].name, name);
        if (c == 0) return (int)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* The face of fam closest to bold/italic: normal width first, then weight,
 * then slant, so bold italic falls back to bold, then italic, then regular. */
static const qr_face *best_face(const qr_family *fam, int bold, int italic)
{
    const qr_face *best = NULL;
    long best_score = 0;
    int target = bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR;
    for (size_t i = 0; i < fam->n_faces; i++) {
        const qr_face *fc = &fam->faces[i];
        long score = labs((long)fc->width - FC_WIDTH_NORMAL) * 10000 +
                     labs((long)fc->weight - target) * 2 + ((fc->slant != 0) != (italic != 0));
        if (!best || score < best_score) {
            best = fc;
            best_score = score;
        }
    }
    return best;
}

/* Read every face of the configuration into f->fams. */
static int load_faces(qr_fonts *f)
{
    FcPattern *pat = FcPatternCreate();
    FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, FC_STYLE, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT,
                                       FC_WIDTH, FC_CHARSET, FC_OUTLINE, (char *)0);
    if (!pat || !os) {
        if (pat) FcPatternDestroy(pat);
        if (os) FcObjectSetDestroy(os);
        return -1;
    }
    f->list = FcFontList(f->cfg, pat, os);
    FcPatternDestroy(pat);
    FcObjectSetDestroy(os);
    if (!f->list) return -1;

    size_t cap = 0;
    for (int i = 0; i < f->list->nfont; i++) {
        FcPattern *p = f->list->fonts[i];
        FcChar8 *file = NULL;
        FcCharSet *cs = NULL;
        FcBool outline = FcTrue;
        qr_face face = {0};
        if (FcPatternGetString(p, FC_FILE, 0, &file) != FcResultMatch) continue;
        if (FcPatternGetCharSet(p, FC_CHARSET, 0, &cs) != FcResultMatch) continue;
        if (FcPatternGetBool(p, FC_OUTLINE, 0, &outline) == FcResultMatch && !outline) continue;
        face.file = (const char *)file;
        face.cs = cs;
        if (FcPatternGetInteger(p, FC_INDEX, 0, &face.index) != FcResultMatch) face.index = 0;
        if (FcPatternGetInteger(p, FC_WEIGHT, 0, &face.weight) != FcResultMatch)
            face.weight = FC_WEIGHT_REGULAR;
        if (FcPatternGetInteger(p, FC_SLANT, 0, &face.slant) != FcResultMatch)
            face.slant = FC_SLANT_ROMAN;
        if (FcPatternGetInteger(p, FC_WIDTH, 0, &face.width) != FcResultMatch)
            face.width = FC_WIDTH_NORMAL;
        FcChar8 *name;
        for (int k = 0; FcPatternGetString(p, FC_FAMILY, k, &name) == FcResultMatch; k++) {
            int idx = -1;
            /* Families are few; faces of one family are listed together, so
             * look at the most recent families first. */
            for (size_t j = f->n_fams; j-- > 0;)
                if (strcmp(f->fams[j].name, (const char *)name) == 0) {
                    idx = (int)j;
                    break;
                }
            if (idx < 0) idx = add_family(&f->fams, &f->n_fams, &cap, (const char *)name);
            if (idx < 0 || add_face(&f->fams[idx], &face) < 0) return -1;
        }
    }
    /* Placeholders for the families the table names but the system lacks,
     * so a span can name them (a .docx opened elsewhere may have them). */
    const char *wanted[QR_CHAIN_COUNT + QR_CJK_COUNT + 64];
    size_t n_wanted = 0;
    wanted[n_wanted++] = "DejaVu Sans";
    for (int c = 0; c < QR_CJK_COUNT; c++)
        wanted[n_wanted++] = qr_fonts_cjk_family[c];
    for (size_t s = 0; s < qr_fonts_n_scripts && n_wanted < sizeof wanted / sizeof *wanted; s++)
        if (qr_fonts_scripts[s].family) wanted[n_wanted++] = qr_fonts_scripts[s].family;
    for (size_t w = 0; w < n_wanted; w++) {
        int found = 0;
        for (size_t j = 0; j < f->n_fams && !found; j++)
            found = !strcmp(f->fams[j].name, wanted[w]);
        if (!found && add_family(&f->fams, &f->n_fams, &cap, wanted[w]) < 0) return -1;
    }

    qsort(f->fams, f->n_fams, sizeof *f->fams, cmp_family);
    for (size_t j = 0; j < f->n_fams; j++) {
        qr_family *fam = &f->fams[j];
        if (!fam->n_faces) continue;
        qsort(fam->faces, fam->n_faces, sizeof *fam->faces, cmp_face);
        const qr_face *reg = best_face(fam, 0, 0);
        fam->cs = reg->cs;
        fam->file = reg->file;
        fam->index = reg->index;
    }
    return 0;
}

/* The FcFontSort order for a sans-serif text in English: the order in which
 * families are tried when nothing in the table covers a character. The
 * language is fixed so the environment's LANG cannot change the output. */
static int load_sorted(qr_fonts *f)
{
    f->sorted = calloc(f->n_fams ? f->n_fams : 1, sizeof *f->sorted);
    f->any = FcCharSetCreate();
    if (!f->sorted || !f->any) return -1;
    FcPattern *pat = FcPatternCreate();
    if (!pat) return -1;
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)"sans-serif");
    FcPatternAddString(pat, FC_LANG, (const FcChar8 *)"en");
    FcConfigSubstitute(f->cfg, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcFontSet *set = FcFontSort(f->cfg, pat, FcFalse, NULL, &res);
    FcPatternDestroy(pat);
    char *seen = calloc(f->n_fams ? f->n_fams : 1, 1);
    if (!seen) {
        if (set) FcFontSetDestroy(set);
        return -1;
    }
    for (int i = 0; set && i < set->nfont; i++) {
        FcChar8 *name;
        if (FcPatternGetString(set->fonts[i], FC_FAMILY, 0, &name) != FcResultMatch) continue;
        int idx = qr_fonts_family_index(f, (const char *)name);
        if (idx < 0 || seen[idx] || !f->fams[idx].cs) continue;
        seen[idx] = 1;
        f->sorted[f->n_sorted++] = idx;
    }
    if (set) FcFontSetDestroy(set);
    /* Families FcFontSort left out (none in practice) come last, by name. */
    for (size_t j = 0; j < f->n_fams; j++)
        if (!seen[j] && f->fams[j].cs) f->sorted[f->n_sorted++] = (int)j;
    free(seen);
    for (size_t j = 0; j < f->n_sorted; j++)
        if (!FcCharSetMerge(f->any, f->fams[f->sorted[j]].cs, NULL)) return -1;
    return 0;
}

static void resolve_table(qr_fonts *f)
{
    static const char *const chain[QR_CHAIN_COUNT] = {"DejaVu Sans", "Noto Sans Math",
                                                      "Noto Sans Symbols2", "Noto Sans Symbols"};
    for (int c = 0; c < QR_CHAIN_COUNT; c++)
        f->chain[c] = qr_fonts_family_index(f, chain[c]);
    for (int c = 0; c < QR_CJK_COUNT; c++)
        f->cjk[c] = qr_fonts_family_index(f, qr_fonts_cjk_family[c]);
    for (size_t s = 0; s < qr_fonts_n_scripts; s++) {
        const char *fam = qr_fonts_scripts[s].family;
        f->script_fam[s] = fam ? qr_fonts_family_index(f, fam) : -1;
    }
    f->ascii_ok = 1;
    for (uint32_t cp = 0x20; cp < 0x7F; cp++)
        if (!qr_fonts_covers(f, f->chain[QR_CHAIN_BASE], cp)) f->ascii_ok = 0;
}

static qr_fonts *build(FcConfig *cfg)
{
    qr_fonts *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->cfg = cfg;
    f->script_fam = calloc(qr_fonts_n_scripts, sizeof *f->script_fam);
    if (!f->script_fam || load_faces(f) < 0 || pthread_mutex_init(&f->sorted_lock, NULL) != 0) {
        qr_fonts_free(f);
        return NULL;
    }
    f->has_lock = 1;
    resolve_table(f);
    return f;
}

/* The default set lives until exit on purpose. Fontconfig stores pointers
 * inside patterns and charsets as offsets, which LeakSanitizer cannot follow,
 * so in sanitizer builds its allocations (the set, and the last-resort order
 * built later) are excluded from leak reports. */
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));

int qr_fonts_last_resort(const qr_fonts *cf, uint32_t cp)
{
    qr_fonts *f = (qr_fonts *)cf; /* only the lazy order below is written */
    if (!atomic_load_explicit(&f->sorted_ready, memory_order_acquire)) {
        pthread_mutex_lock(&f->sorted_lock);
        if (!atomic_load_explicit(&f->sorted_ready, memory_order_relaxed)) {
            if (f->is_default && __lsan_disable) __lsan_disable();
            int failed = load_sorted(f) < 0;
            if (f->is_default && __lsan_enable) __lsan_enable();
            if (failed && f->any) {
                FcCharSetDestroy(f->any); /* out of memory: nothing is found */
                f->any = NULL;
            }
            atomic_store_explicit(&f->sorted_ready, 1, memory_order_release);
        }
        pthread_mutex_unlock(&f->sorted_lock);
    }
    if (!f->any || !FcCharSetHasChar(f->any, cp)) return -1;
    for (size_t j = 0; j < f->n_sorted; j++)
        if (FcCharSetHasChar(f->fams[f->sorted[j]].cs, cp)) return f->sorted[j];
    return -1;
}

/* ---- public --------------------------------------------------------------- */

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static qr_fonts *default_fonts;

/* Used when fontconfig cannot even start: no faces (placeholders only, sorted
 * by name), every span names the table's families and every visible
 * character is reported missing. */
static qr_family empty_families[1 + QR_CJK_COUNT];
static int empty_sorted[1];
static int empty_script_fam[256];
static qr_fonts empty_fonts;

static void init_empty(void)
{
    static const char *const names[1 + QR_CJK_COUNT] = {"DejaVu Sans", "Noto Sans CJK JP",
                                                        "Noto Sans CJK KR", "Noto Sans CJK SC",
                                                        "Noto Sans CJK TC"};
    for (int i = 0; i < 1 + QR_CJK_COUNT; i++) {
        empty_families[i].name = (char *)names[i];
        empty_families[i].file = "";
    }
    empty_fonts.fams = empty_families;
    empty_fonts.n_fams = 1 + QR_CJK_COUNT;
    empty_fonts.sorted = empty_sorted;
    atomic_init(&empty_fonts.sorted_ready, 1);
    for (size_t s = 0; s < 256; s++)
        empty_script_fam[s] = -1;
    empty_fonts.script_fam = empty_script_fam;
    for (int c = 0; c < QR_CHAIN_COUNT; c++)
        empty_fonts.chain[c] = c == 0 ? 0 : -1;
    empty_fonts.cjk[QR_CJK_JP] = 1;
    empty_fonts.cjk[QR_CJK_KR] = 2;
    empty_fonts.cjk[QR_CJK_SC] = 3;
    empty_fonts.cjk[QR_CJK_TC] = 4;
    empty_fonts.is_default = 1;
}

/* The default set lives until exit on purpose (see __lsan_disable above). */

static void init_default(void)
{
    if (__lsan_disable) __lsan_disable();
    FcConfig *cfg = FcConfigReference(NULL);
    qr_fonts *f = cfg ? build(cfg) : NULL; /* on failure build() dropped cfg */
    if (__lsan_enable) __lsan_enable();
    if (f) {
        f->is_default = 1;
        default_fonts = f;
        return;
    }
    init_empty();
    default_fonts = &empty_fonts;
}

qr_fonts *qr_fonts_default(void)
{
    pthread_once(&default_once, init_default);
    return default_fonts;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add every font file under dir (sorted by name, subfolders too) to cfg.
 * File by file, because FcConfigAppFontAddDir wants to write a cache and
 * complains on stderr when the private configuration has no cache folder. */
static void add_dir(FcConfig *cfg, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **nn = realloc(names, nc * sizeof *nn);
            if (!nn) break;
            names = nn;
            cap = nc;
        }
        if (!(names[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        if (path) {
            snprintf(path, len, "%s/%s", dir, names[i]);
            struct stat st;
            if (stat(path, &st) == 0) {
                if (S_ISDIR(st.st_mode) && depth < 8)
                    add_dir(cfg, path, depth + 1);
                else if (S_ISREG(st.st_mode))
                    FcConfigAppFontAddFile(cfg, (const FcChar8 *)path);
            }
            free(path);
        }
        free(names[i]);
    }
    free(names);
}

qr_fonts *qr_fonts_new_dir(const char *dir)
{
    if (!dir) return NULL;
    FcConfig *cfg = FcConfigCreate();
    if (!cfg) return NULL;
    add_dir(cfg, dir, 0);
    FcFontSet *app = FcConfigGetFonts(cfg, FcSetApplication);
    if (!app || app->nfont == 0) {
        FcConfigDestroy(cfg);
        return NULL;
    }
    qr_fonts *f = build(cfg); /* on failure build() destroyed cfg */
    size_t with_cs = 0;
    for (size_t j = 0; f && j < f->n_fams; j++)
        with_cs += f->fams[j].cs != NULL;
    if (f && with_cs == 0) {
        qr_fonts_free(f);
        return NULL;
    }
    return f;
}

void qr_fonts_free(qr_fonts *f)
{
    if (!f || f->is_default) return;
    for (size_t j = 0; j < f->n_fams; j++) {
        free(f->fams[j].name);
        free(f->fams[j].faces);
    }
    free(f->fams);
    free(f->sorted);
    free(f->script_fam);
    if (f->any) FcCharSetDestroy(f->any);
    if (f->list) FcFontSetDestroy(f->list);
    if (f->cfg) FcConfigDestroy(f->cfg);
    if (f->has_lock) pthread_mutex_destroy(&f->sorted_lock);
    free(f);
}

const char *qr_fonts_face_file(qr_fonts *f, const char *family, int bold, int italic)
{
    if (!f || !family) return NULL;
    int idx = qr_fonts_family_index(f, family);
    if (idx < 0 || !f->fams[idx].n_faces) return NULL;
    return best_face(&f->fams[idx], bold, italic)->file;
}

int qr_fonts_face_index(qr_fonts *f, const char *family, int bold, int italic)
{
    if (!f || !family) return -1;
    int idx = qr_fonts_family_index(f, family);
    if (idx < 0 || !f->fams[idx].n_faces) return -1;
    return best_face(&f->fams[idx], bold, italic)->index;
}

int qr_fonts_has_char(qr_fonts *f, const char *family, uint32_t cp)
{
    if (!f || !family) return 0;
    int idx = qr_fonts_family_index(f, family);
    return idx >= 0 && qr_fonts_covers(f, idx, cp);
}

const char *qr_fonts_mono_family(void)
{
    return "DejaVu Sans Mono";
}

void qr_spans_reset(qr_spans *s)
{
    if (!s) return;
    s->n = 0;
    s->n_missing = 0;
}

void qr_spans_free(qr_spans *s)
{
    if (!s) return;
    free(s->items);
    free(s->missing);
    memset(s, 0, sizeof *s);
}
