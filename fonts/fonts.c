/* fonts.c: the font set: one font table (table.c), read once.
 *
 * A qr_fonts is made from the table's bytes: families sorted by name (with
 * placeholders for the families quire's script table names), their faces,
 * their coverage, the last-resort order, and every script's family resolved.
 * After that it is immutable, so itemization on many threads needs no lock.
 * The process-wide set is built under pthread_once from fontconfig's
 * current configuration (the one pango uses), or, once the CLI enabled it,
 * from the cache file when its key holds (cache.c), the table then being
 * written there on a miss; private sets (new_dir) are never cached.
 */
#include <dirent.h>
#include <limits.h>
#include <hb.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "fonts_int.h"

/* ---- the family table ----------------------------------------------------- */

static int cmp_family(const void *a, const void *b)
{
    return strcmp(((const qr_family *)a)->name, ((const qr_family *)b)->name);
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

/* The families of the table, with placeholders for the families quire's
 * script table names but the system lacks (so a span can name them: a .docx
 * opened elsewhere may have them), sorted by name. */
static int load_families(qr_fonts *f)
{
    const qr_fblob_head *h = f->blob;
    const char *b = f->blob, *str = b + h->strings;
    const qr_fblob_fam *bf = (const qr_fblob_fam *)(b + h->fams);
    const qr_fblob_face *bface = (const qr_fblob_face *)(b + h->faces);
    const qr_fblob_cover *bc = (const qr_fblob_cover *)(b + h->covers);
    const uint32_t *pages = (const uint32_t *)(b + h->pages);
    const char *wanted[1 + QR_CJK_COUNT + 64];
    size_t n_wanted = 0;
    wanted[n_wanted++] = "DejaVu Sans";
    for (int c = 0; c < QR_CJK_COUNT; c++)
        wanted[n_wanted++] = qr_fonts_cjk_family[c];
    for (size_t s = 0; s < qr_fonts_n_scripts && n_wanted < sizeof wanted / sizeof *wanted; s++)
        if (qr_fonts_scripts[s].family) wanted[n_wanted++] = qr_fonts_scripts[s].family;

    f->fams = calloc(h->n_fams + n_wanted, sizeof *f->fams);
    f->faces = calloc(h->n_faces ? h->n_faces : 1, sizeof *f->faces);
    f->covers = calloc(h->n_covers ? h->n_covers : 1, sizeof *f->covers);
    f->sorted = calloc(h->n_sorted ? h->n_sorted : 1, sizeof *f->sorted);
    if (!f->fams || !f->faces || !f->covers || !f->sorted) return -1;
    for (uint32_t i = 0; i < h->n_covers; i++) {
        f->covers[i].pages = pages + (size_t)bc[i].page * 9;
        f->covers[i].n = bc[i].n;
    }
    for (uint32_t i = 0; i < h->n_faces; i++) {
        qr_face *d = &f->faces[i];
        d->file = str + bface[i].file;
        d->index = bface[i].index;
        d->weight = bface[i].weight;
        d->slant = bface[i].slant;
        d->width = bface[i].width;
    }
    for (uint32_t j = 0; j < h->n_fams; j++) {
        qr_family *fam = &f->fams[f->n_fams++];
        fam->name = str + bf[j].name;
        fam->faces = f->faces + bf[j].face;
        fam->n_faces = bf[j].n_faces;
        fam->cs = &f->covers[bf[j].cover];
        fam->file = fam->faces[bf[j].reg].file;
        fam->index = fam->faces[bf[j].reg].index;
    }
    for (size_t w = 0; w < n_wanted; w++) {
        int found = 0;
        for (size_t j = 0; j < f->n_fams && !found; j++)
            found = !strcmp(f->fams[j].name, wanted[w]);
        if (found) continue;
        qr_family *fam = &f->fams[f->n_fams++];
        fam->name = wanted[w];
        fam->file = "";
    }
    qsort(f->fams, f->n_fams, sizeof *f->fams, cmp_family);
    const uint32_t *sorted = (const uint32_t *)(b + h->sorted);
    for (uint32_t i = 0; i < h->n_sorted; i++) {
        int idx = qr_fonts_family_index(f, str + sorted[i]);
        if (idx >= 0 && f->fams[idx].cs) f->sorted[f->n_sorted++] = idx;
    }
    f->any = h->any == QR_FBLOB_NONE ? NULL : &f->covers[h->any];
    return 0;
}

int qr_fonts_last_resort(const qr_fonts *f, uint32_t cp)
{
    if (!f->any || !qr_cover_has(f->any, cp)) return -1;
    for (size_t j = 0; j < f->n_sorted; j++)
        if (qr_fonts_covers(f, f->sorted[j], cp)) return f->sorted[j];
    return -1;
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

/* A font set over a checked table (blob is the set's from now on). */
static qr_fonts *from_table(void *blob)
{
    qr_fonts *f = calloc(1, sizeof *f);
    if (!f) {
        free(blob);
        return NULL;
    }
    f->blob = blob;
    f->script_fam = calloc(qr_fonts_n_scripts, sizeof *f->script_fam);
    if (!f->script_fam || load_families(f) < 0) {
        qr_fonts_free(f);
        return NULL;
    }
    resolve_table(f);
    return f;
}

/* The table of cfg (dropped here), with its cache key when key is set. */
static void *table_of(FcConfig *cfg, int key, size_t *size)
{
    qr_buf k = {0}, t = {0};
    int ok = !key || qr_fonts_cache_key(cfg, &k) == 0;
    if (qr_fonts_table_build(cfg, ok ? k.data : NULL, ok ? k.len : 0, &t) < 0) qr_buf_free(&t);
    qr_buf_free(&k);
    FcConfigDestroy(cfg);
    if (!t.data) return NULL;
    if (key && !ok) ((qr_fblob_head *)t.data)->key_len = 0; /* not to be cached */
    return qr_buf_steal(&t, size);
}

qr_fonts *qr_fonts_open_cached(const char *path, FcConfig *(*make_cfg)(void *), void *arg,
                               int *from_cache)
{
    void *blob = NULL;
    size_t size = 0;
    if (from_cache) *from_cache = 0;
    qr_fonts *f = NULL;
    if (path && qr_fonts_cache_read(path, &blob, &size) == 0) {
        if (from_cache) *from_cache = 1;
        f = from_table(blob);
    } else {
        FcConfig *cfg = make_cfg(arg);
        if (!cfg) return NULL;
        blob = table_of(cfg, path != NULL, &size);
        if (!blob) return NULL;
        if (path && ((qr_fblob_head *)blob)->key_len) qr_fonts_cache_write(path, blob, size);
        f = from_table(blob);
    }
    if (f && path && !(f->cache_path = strdup(path))) {
        qr_fonts_free(f);
        return NULL;
    }
    return f;
}

/* The default set lives until exit on purpose. Fontconfig stores pointers
 * inside patterns and charsets as offsets, which LeakSanitizer cannot follow,
 * so in sanitizer builds its allocations are excluded from leak reports. */
void __lsan_disable(void) __attribute__((weak));
void __lsan_enable(void) __attribute__((weak));

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
        empty_families[i].name = names[i];
        empty_families[i].file = "";
    }
    empty_fonts.fams = empty_families;
    empty_fonts.n_fams = 1 + QR_CJK_COUNT;
    empty_fonts.sorted = empty_sorted;
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

/* fontconfig's current configuration (the one pango uses): FcInit. */
static FcConfig *system_config(void *arg)
{
    (void)arg;
    return FcConfigReference(NULL);
}

static atomic_int cache_enabled;

void qr_fonts_enable_cache(void)
{
    atomic_store(&cache_enabled, 1);
}

static void init_default(void)
{
    char path[PATH_MAX];
    int cached = atomic_load(&cache_enabled) && qr_fonts_cache_path(path, sizeof path) == 0;
    if (__lsan_disable) __lsan_disable();
    qr_fonts *f = qr_fonts_open_cached(cached ? path : NULL, system_config, NULL, NULL);
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

static FcConfig *given_config(void *arg)
{
    return arg;
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
    qr_fonts *f = qr_fonts_open_cached(NULL, given_config, cfg, NULL); /* drops cfg */
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
    free(f->fams);
    free(f->faces);
    free(f->covers);
    free(f->sorted);
    free(f->script_fam);
    free(f->blob);
    free(f->cache_path);
    free(f);
}

const char *qr_fonts_face_file(qr_fonts *f, const char *family, int bold, int italic)
{
    if (!f || !family) return NULL;
    int idx = qr_fonts_family_index(f, family);
    if (idx < 0 || !f->fams[idx].n_faces) return NULL;
    return qr_fonts_best_face(f->fams[idx].faces, f->fams[idx].n_faces, bold, italic)->file;
}

int qr_fonts_face_index(qr_fonts *f, const char *family, int bold, int italic)
{
    if (!f || !family) return -1;
    int idx = qr_fonts_family_index(f, family);
    if (idx < 0 || !f->fams[idx].n_faces) return -1;
    return qr_fonts_best_face(f->fams[idx].faces, f->fams[idx].n_faces, bold, italic)->index;
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
