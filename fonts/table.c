/* table.c: the font table as flat bytes, asked of fontconfig once.
 *
 * qr_fonts_table_build lists every outline face of a configuration (family
 * names, style, file, charset), groups the faces by family in the order
 * fontconfig lists them, picks each family's regular face, copies the
 * regular faces' charsets page by page, and records the FcFontSort order of
 * a sans-serif text in English (the language is fixed so the environment's
 * LANG cannot change the output). fonts.c makes a qr_fonts from these bytes,
 * fresh or read back from the cache file, so both answer the same.
 * qr_fonts_table_check validates bytes read from a file before use.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fonts_int.h"

const qr_face *qr_fonts_best_face(const qr_face *faces, size_t n, int bold, int italic)
{
    const qr_face *best = NULL;
    long best_score = 0;
    int target = bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR;
    for (size_t i = 0; i < n; i++) {
        const qr_face *fc = &faces[i];
        long score = labs((long)fc->width - FC_WIDTH_NORMAL) * 10000 +
                     labs((long)fc->weight - target) * 2 + ((fc->slant != 0) != (italic != 0));
        if (!best || score < best_score) {
            best = fc;
            best_score = score;
        }
    }
    return best;
}

/* ---- building -------------------------------------------------------------- */

typedef struct tface {
    qr_face face;
    const FcCharSet *cs;
} tface;

typedef struct tfam {
    const char *name; /* owned by the FcFontSet */
    tface *faces;
    size_t n, cap;
    uint32_t cover;
} tfam;

typedef struct tb {
    tfam *fams;
    size_t n_fams, cap_fams;
    const FcCharSet **sets; /* one per cover, deduplicated */
    size_t n_sets, cap_sets;
    qr_buf strings, pages;
    uint32_t n_pages;
} tb;

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 0;
    size_t nc = *cap ? *cap * 2 : 16;
    void *np = realloc(*p, nc * size);
    if (!np) return -1;
    *p = np;
    *cap = nc;
    return 0;
}

static int cmp_tface(const void *a, const void *b)
{
    const qr_face *x = &((const tface *)a)->face, *y = &((const tface *)b)->face;
    int c = strcmp(x->file, y->file);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

static int find_family(const tb *t, const char *name)
{
    /* Faces of one family are listed together: look at the latest first. */
    for (size_t j = t->n_fams; j-- > 0;)
        if (strcmp(t->fams[j].name, name) == 0) return (int)j;
    return -1;
}

static int add_face(tb *t, const char *name, const tface *face)
{
    int idx = find_family(t, name);
    if (idx < 0) {
        if (grow((void **)&t->fams, &t->cap_fams, t->n_fams, sizeof *t->fams) < 0) return -1;
        idx = (int)t->n_fams++;
        memset(&t->fams[idx], 0, sizeof t->fams[idx]);
        t->fams[idx].name = name;
    }
    tfam *fam = &t->fams[idx];
    if (grow((void **)&fam->faces, &fam->cap, fam->n, sizeof *fam->faces) < 0) return -1;
    fam->faces[fam->n++] = *face;
    return 0;
}

static int list_faces(tb *t, FcFontSet *list)
{
    for (int i = 0; i < list->nfont; i++) {
        FcPattern *p = list->fonts[i];
        FcChar8 *file = NULL;
        FcCharSet *cs = NULL;
        FcBool outline = FcTrue;
        tface face = {{0}, NULL};
        if (FcPatternGetString(p, FC_FILE, 0, &file) != FcResultMatch) continue;
        if (FcPatternGetCharSet(p, FC_CHARSET, 0, &cs) != FcResultMatch) continue;
        if (FcPatternGetBool(p, FC_OUTLINE, 0, &outline) == FcResultMatch && !outline) continue;
        face.face.file = (const char *)file;
        face.cs = cs;
        if (FcPatternGetInteger(p, FC_INDEX, 0, &face.face.index) != FcResultMatch)
            face.face.index = 0;
        if (FcPatternGetInteger(p, FC_WEIGHT, 0, &face.face.weight) != FcResultMatch)
            face.face.weight = FC_WEIGHT_REGULAR;
        if (FcPatternGetInteger(p, FC_SLANT, 0, &face.face.slant) != FcResultMatch)
            face.face.slant = FC_SLANT_ROMAN;
        if (FcPatternGetInteger(p, FC_WIDTH, 0, &face.face.width) != FcResultMatch)
            face.face.width = FC_WIDTH_NORMAL;
        FcChar8 *name;
        for (int k = 0; FcPatternGetString(p, FC_FAMILY, k, &name) == FcResultMatch; k++)
            if (add_face(t, (const char *)name, &face) < 0) return -1;
    }
    return 0;
}

static uint32_t add_string(tb *t, const char *s)
{
    uint32_t off = (uint32_t)t->strings.len;
    qr_buf_append(&t->strings, s, strlen(s) + 1);
    return off;
}

/* The pages of cs as 9-word records. */
static int add_pages(tb *t, const FcCharSet *cs, qr_fblob_cover *out)
{
    FcChar32 map[FC_CHARSET_MAP_SIZE], next;
    out->page = t->n_pages;
    out->n = 0;
    for (FcChar32 base = FcCharSetFirstPage(cs, map, &next); base != FC_CHARSET_DONE;
         base = FcCharSetNextPage(cs, map, &next)) {
        uint32_t rec[9];
        rec[0] = base >> 8;
        memcpy(rec + 1, map, sizeof map);
        if (qr_buf_append(&t->pages, rec, sizeof rec) < 0) return -1;
        t->n_pages++;
        out->n++;
    }
    return 0;
}

static uint32_t cover_of(tb *t, const FcCharSet *cs)
{
    for (size_t i = 0; i < t->n_sets; i++)
        if (t->sets[i] == cs) return (uint32_t)i;
    if (grow((void **)&t->sets, &t->cap_sets, t->n_sets, sizeof *t->sets) < 0) return QR_FBLOB_NONE;
    t->sets[t->n_sets] = cs;
    return (uint32_t)t->n_sets++;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp((*(const tfam *const *)a)->name, (*(const tfam *const *)b)->name);
}

/* Families in FcFontSort order for a sans-serif text in English, each once;
 * the families it leaves out (none in practice) last, by name. */
static int sort_order(FcConfig *cfg, tb *t, uint32_t **out, size_t *n_out)
{
    uint32_t *order = calloc(t->n_fams ? t->n_fams : 1, sizeof *order);
    char *seen = calloc(t->n_fams ? t->n_fams : 1, 1);
    tfam **by_name = calloc(t->n_fams ? t->n_fams : 1, sizeof *by_name);
    FcPattern *pat = FcPatternCreate();
    if (!order || !seen || !by_name || !pat) {
        free(order), free(seen), free(by_name);
        if (pat) FcPatternDestroy(pat);
        return -1;
    }
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)"sans-serif");
    FcPatternAddString(pat, FC_LANG, (const FcChar8 *)"en");
    FcConfigSubstitute(cfg, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcFontSet *set = FcFontSort(cfg, pat, FcFalse, NULL, &res);
    FcPatternDestroy(pat);
    for (size_t j = 0; j < t->n_fams; j++)
        by_name[j] = &t->fams[j];
    if (t->n_fams) qsort(by_name, t->n_fams, sizeof *by_name, cmp_name);
    size_t n = 0;
    for (int i = 0; set && i < set->nfont; i++) {
        FcChar8 *name;
        if (FcPatternGetString(set->fonts[i], FC_FAMILY, 0, &name) != FcResultMatch) continue;
        tfam key = {(const char *)name, NULL, 0, 0, 0}, *kp = &key;
        tfam **hit = t->n_fams ? bsearch(&kp, by_name, t->n_fams, sizeof *by_name, cmp_name) : NULL;
        if (!hit) continue;
        size_t idx = (size_t)(*hit - t->fams);
        if (seen[idx]) continue;
        seen[idx] = 1;
        order[n++] = (uint32_t)idx;
    }
    if (set) FcFontSetDestroy(set);
    for (size_t j = 0; j < t->n_fams; j++) {
        size_t idx = (size_t)(by_name[j] - t->fams);
        if (!seen[idx]) order[n++] = (uint32_t)idx;
    }
    free(seen);
    free(by_name);
    *out = order;
    *n_out = n;
    return 0;
}

/* Append v as the next section of out (4-byte aligned); returns its offset. */
static uint32_t section(qr_buf *out, const void *v, size_t len)
{
    while (out->len % 4)
        qr_buf_putc(out, 0);
    uint32_t off = (uint32_t)out->len;
    if (len) qr_buf_append(out, v, len);
    return off;
}

static int assemble(FcConfig *cfg, tb *t, const char *key, size_t key_len, qr_buf *out)
{
    size_t n_faces = 0;
    for (size_t j = 0; j < t->n_fams; j++)
        n_faces += t->fams[j].n;
    qr_fblob_fam *fams = calloc(t->n_fams ? t->n_fams : 1, sizeof *fams);
    qr_fblob_face *faces = calloc(n_faces ? n_faces : 1, sizeof *faces);
    qr_fblob_cover *covers = NULL;
    uint32_t *sorted_names = NULL, *order = NULL;
    size_t n_order = 0;
    int rc = -1;
    if (!fams || !faces) goto done;
    size_t fi = 0;
    for (size_t j = 0; j < t->n_fams; j++) {
        tfam *fam = &t->fams[j];
        qsort(fam->faces, fam->n, sizeof *fam->faces, cmp_tface);
        fams[j].name = add_string(t, fam->name);
        fams[j].face = (uint32_t)fi;
        fams[j].n_faces = (uint32_t)fam->n;
        for (size_t k = 0; k < fam->n; k++) {
            const qr_face *src = &fam->faces[k].face;
            qr_fblob_face *d = &faces[fi + k];
            d->file = add_string(t, src->file);
            d->index = src->index;
            d->weight = src->weight;
            d->slant = src->slant;
            d->width = src->width;
        }
        /* the regular face: best_face over the sorted faces */
        qr_face *tmp = malloc(fam->n * sizeof *tmp);
        if (!tmp) goto done;
        for (size_t k = 0; k < fam->n; k++)
            tmp[k] = fam->faces[k].face;
        const qr_face *reg = qr_fonts_best_face(tmp, fam->n, 0, 0);
        size_t r = (size_t)(reg - tmp);
        free(tmp);
        fams[j].reg = (uint32_t)r;
        fams[j].cover = cover_of(t, fam->faces[r].cs);
        if (fams[j].cover == QR_FBLOB_NONE) goto done;
        fi += fam->n;
    }
    /* the union of every family's coverage, for the last resort */
    FcCharSet *any = FcCharSetCreate();
    if (!any) goto done;
    for (size_t j = 0; j < t->n_fams; j++)
        if (!FcCharSetMerge(any, t->sets[fams[j].cover], NULL)) {
            FcCharSetDestroy(any);
            goto done;
        }
    uint32_t any_cover = (uint32_t)t->n_sets;
    covers = calloc(t->n_sets + 1, sizeof *covers);
    int pages_ok = covers != NULL;
    for (size_t i = 0; pages_ok && i < t->n_sets; i++)
        pages_ok = add_pages(t, t->sets[i], &covers[i]) == 0;
    if (pages_ok) pages_ok = add_pages(t, any, &covers[any_cover]) == 0;
    FcCharSetDestroy(any);
    if (!pages_ok || sort_order(cfg, t, &order, &n_order) < 0) goto done;
    sorted_names = calloc(n_order ? n_order : 1, sizeof *sorted_names);
    if (!sorted_names) goto done;
    for (size_t i = 0; i < n_order; i++)
        sorted_names[i] = fams[order[i]].name;
    if (!t->strings.len) qr_buf_putc(&t->strings, 0);
    if (t->strings.oom || t->pages.oom) goto done;

    qr_fblob_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, QR_FBLOB_MAGIC, sizeof QR_FBLOB_MAGIC);
    h.version = QR_FBLOB_VERSION;
    h.order = 0x01020304u;
    out->len = 0;
    section(out, &h, sizeof h);
    h.key = section(out, key, key_len);
    h.key_len = (uint32_t)key_len;
    h.fams = section(out, fams, t->n_fams * sizeof *fams);
    h.n_fams = (uint32_t)t->n_fams;
    h.faces = section(out, faces, n_faces * sizeof *faces);
    h.n_faces = (uint32_t)n_faces;
    h.covers = section(out, covers, (t->n_sets + 1) * sizeof *covers);
    h.n_covers = (uint32_t)t->n_sets + 1;
    h.pages = section(out, t->pages.data, t->pages.len);
    h.n_pages = t->n_pages;
    h.sorted = section(out, sorted_names, n_order * sizeof *sorted_names);
    h.n_sorted = (uint32_t)n_order;
    h.any = any_cover;
    h.strings = section(out, t->strings.data, t->strings.len);
    h.strings_len = (uint32_t)t->strings.len;
    h.size = (uint32_t)out->len;
    if (out->oom || out->len > UINT32_MAX / 2) goto done;
    memcpy(out->data, &h, sizeof h);
    rc = 0;
done:
    free(fams);
    free(faces);
    free(covers);
    free(order);
    free(sorted_names);
    return rc;
}

int qr_fonts_table_build(FcConfig *cfg, const char *key, size_t key_len, qr_buf *out)
{
    FcPattern *pat = FcPatternCreate();
    FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, FC_STYLE, FC_FILE, FC_INDEX, FC_WEIGHT, FC_SLANT,
                                       FC_WIDTH, FC_CHARSET, FC_OUTLINE, (char *)0);
    FcFontSet *list = pat && os ? FcFontList(cfg, pat, os) : NULL;
    if (pat) FcPatternDestroy(pat);
    if (os) FcObjectSetDestroy(os);
    if (!list) return -1;
    tb t;
    memset(&t, 0, sizeof t);
    int rc = list_faces(&t, list) == 0 ? assemble(cfg, &t, key, key_len, out) : -1;
    for (size_t j = 0; j < t.n_fams; j++)
        free(t.fams[j].faces);
    free(t.fams);
    free(t.sets);
    qr_buf_free(&t.strings);
    qr_buf_free(&t.pages);
    FcFontSetDestroy(list);
    return rc;
}

/* ---- checking ------------------------------------------------------------------ */

static int in(uint32_t off, uint64_t count, uint64_t rec, uint32_t size)
{
    return off % 4 == 0 && (uint64_t)off + count * rec <= size;
}

int qr_fonts_table_check(const void *blob, size_t size)
{
    if (size < sizeof(qr_fblob_head) || size > UINT32_MAX || (uintptr_t)blob % 4) return -1;
    const qr_fblob_head *h = blob;
    const char *b = blob;
    uint32_t sz = (uint32_t)size;
    if (memcmp(h->magic, QR_FBLOB_MAGIC, sizeof QR_FBLOB_MAGIC) != 0 ||
        h->version != QR_FBLOB_VERSION || h->order != 0x01020304u || h->size != sz)
        return -1;
    if ((uint64_t)h->key + h->key_len > sz || !in(h->fams, h->n_fams, sizeof(qr_fblob_fam), sz) ||
        !in(h->faces, h->n_faces, sizeof(qr_fblob_face), sz) ||
        !in(h->covers, h->n_covers, sizeof(qr_fblob_cover), sz) ||
        !in(h->pages, h->n_pages, 9 * sizeof(uint32_t), sz) ||
        !in(h->sorted, h->n_sorted, sizeof(uint32_t), sz) ||
        (uint64_t)h->strings + h->strings_len > sz || h->strings_len == 0 ||
        b[h->strings + h->strings_len - 1] != '\0')
        return -1;
    const qr_fblob_cover *covers = (const qr_fblob_cover *)(b + h->covers);
    const uint32_t *pages = (const uint32_t *)(b + h->pages);
    for (uint32_t i = 0; i < h->n_covers; i++) {
        if ((uint64_t)covers[i].page + covers[i].n > h->n_pages) return -1;
        const uint32_t *r = pages + (size_t)covers[i].page * 9;
        for (uint32_t k = 1; k < covers[i].n; k++)
            if (r[k * 9] <= r[(k - 1) * 9]) return -1;
    }
    const qr_fblob_fam *fams = (const qr_fblob_fam *)(b + h->fams);
    for (uint32_t j = 0; j < h->n_fams; j++)
        if (fams[j].name >= h->strings_len ||
            (uint64_t)fams[j].face + fams[j].n_faces > h->n_faces || fams[j].n_faces == 0 ||
            fams[j].reg >= fams[j].n_faces || fams[j].cover >= h->n_covers)
            return -1;
    const qr_fblob_face *faces = (const qr_fblob_face *)(b + h->faces);
    for (uint32_t i = 0; i < h->n_faces; i++)
        if (faces[i].file >= h->strings_len) return -1;
    const uint32_t *sorted = (const uint32_t *)(b + h->sorted);
    for (uint32_t i = 0; i < h->n_sorted; i++)
        if (sorted[i] >= h->strings_len) return -1;
    if (h->any != QR_FBLOB_NONE && h->any >= h->n_covers) return -1;
    return 0;
}
