/* faces.c: every FreeType face the PDF backend draws with stays open for
 * the life of the process.
 *
 * Why: cairo 1.16's FreeType backend keeps at most 10 faces open. Opening
 * one more closes a face whose lock count it reads as zero without taking
 * that face's lock, so a thread drawing with that face at the moment (a
 * second render in a multi-threaded caller, or this backend's own second
 * thread) can crash. A face locked with cairo_ft_scaled_font_lock_face()
 * and not unlocked is never chosen: once every face in use is pinned here,
 * cairo closes none, and the only window left is the first use of a face
 * in the process. The pins are released at exit.
 *
 * Before a document is measured on two threads, qr_pdf_needs_pin() closes
 * that window too: the main thread opens and pins the face pango will pick
 * for every character of the document, in each family, language, weight
 * and slant, so neither thread opens a face while both run.
 *
 * Cost: one set lookup (under a mutex) per change of font within a layout;
 * a few dozen faces at most, so the set is a plain array. */
#include <cairo-ft.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"

static pthread_mutex_t pins_lock = PTHREAD_MUTEX_INITIALIZER;
static cairo_font_face_t **pinned_faces;   /* the set's keys */
static cairo_scaled_font_t **pinned_fonts; /* a font of each face, referenced and locked */
static size_t n_pins, cap_pins;
static int at_exit_set;
static size_t n_pinned_ever; /* faces pinned in the process, for QUIRE_PDF_FACE_TRACE */

static void unpin_all(void)
{
    pthread_mutex_lock(&pins_lock);
    for (size_t i = 0; i < n_pins; i++) {
        cairo_ft_scaled_font_unlock_face(pinned_fonts[i]);
        cairo_scaled_font_destroy(pinned_fonts[i]);
    }
    free(pinned_faces);
    free(pinned_fonts);
    pinned_faces = NULL;
    pinned_fonts = NULL;
    n_pins = cap_pins = 0;
    pthread_mutex_unlock(&pins_lock);
}

static void pin(cairo_scaled_font_t *sf)
{
    cairo_font_face_t *face = cairo_scaled_font_get_font_face(sf);
    pthread_mutex_lock(&pins_lock);
    for (size_t i = 0; i < n_pins; i++)
        if (pinned_faces[i] == face) goto out;
    if (n_pins == cap_pins) {
        size_t cap = cap_pins ? 2 * cap_pins : 32;
        cairo_font_face_t **fa = realloc(pinned_faces, cap * sizeof *fa);
        if (fa) pinned_faces = fa;
        cairo_scaled_font_t **fo = realloc(pinned_fonts, cap * sizeof *fo);
        if (fo) pinned_fonts = fo;
        if (!fa || !fo) goto out; /* no pin: cairo may close the face, as before */
        cap_pins = cap;
    }
    if (!cairo_ft_scaled_font_lock_face(sf)) goto out;
    pinned_faces[n_pins] = face;
    pinned_fonts[n_pins++] = cairo_scaled_font_reference(sf);
    n_pinned_ever++;
    if (!at_exit_set) at_exit_set = atexit(unpin_all) == 0;
out:
    pthread_mutex_unlock(&pins_lock);
}

static void pin_font(PangoFont *font)
{
    if (!font || !PANGO_IS_CAIRO_FONT(font)) return;
    cairo_scaled_font_t *sf = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
    if (sf && cairo_scaled_font_get_type(sf) == CAIRO_FONT_TYPE_FT) pin(sf);
}

void qr_pdf_pin_font(PangoFont *font)
{
    pin_font(font);
}

size_t qr_pdf_pinned_count(void)
{
    pthread_mutex_lock(&pins_lock);
    size_t n = n_pinned_ever;
    pthread_mutex_unlock(&pins_lock);
    return n;
}

void qr_pdf_pin_faces(PangoLayout *lay)
{
    PangoFont *last = NULL;
    for (GSList *l = pango_layout_get_lines_readonly(lay); l; l = l->next) {
        const PangoLayoutLine *line = l->data;
        for (GSList *r = line->runs; r; r = r->next) {
            const PangoGlyphItem *run = r->data;
            PangoFont *font = run->item->analysis.font;
            if (!font || font == last || !PANGO_IS_CAIRO_FONT(font)) continue;
            last = font;
            pin_font(font);
        }
    }
}

/* ---- the faces a document needs ------------------------------------------------ */

#define CP_LIMIT 0x110000

/* One family in one language and style, with the code points set in it. */
typedef struct need {
    const char *family, *lang; /* fonts/'s strings: they live for the process */
    int bold, italic;
    unsigned char *cps; /* CP_LIMIT bits */
} need;

struct pd_needs {
    need *items;
    size_t n, cap;
    int oom;
};

pd_needs *qr_pdf_needs_new(void)
{
    return calloc(1, sizeof(pd_needs));
}

void qr_pdf_needs_free(pd_needs *nd)
{
    if (!nd) return;
    for (size_t i = 0; i < nd->n; i++)
        free(nd->items[i].cps);
    free(nd->items);
    free(nd);
}

static int same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static need *need_for(pd_needs *nd, const char *family, const char *lang, int bold, int italic)
{
    for (size_t i = 0; i < nd->n; i++) {
        need *e = &nd->items[i];
        if (e->bold == bold && e->italic == italic && same(e->family, family) &&
            same(e->lang, lang))
            return e;
    }
    if (nd->n == nd->cap) {
        size_t cap = nd->cap ? 2 * nd->cap : 8;
        need *p = realloc(nd->items, cap * sizeof *p);
        if (!p) return NULL;
        nd->items = p;
        nd->cap = cap;
    }
    unsigned char *cps = calloc(CP_LIMIT / 8, 1);
    if (!cps) return NULL;
    need *e = &nd->items[nd->n++];
    *e = (need){family, lang, bold, italic, cps};
    e->cps[' ' / 8] |= 1u << (' ' % 8); /* pango keeps spaces and empty lines in a font too */
    return e;
}

int qr_pdf_needs_add(pd_needs *nd, const char *family, const char *lang, int bold, int italic,
                     const char *s, size_t n)
{
    need *e = need_for(nd, family, lang, bold != 0, italic != 0);
    if (!e) return nd->oom = -1;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        uint32_t cp = u[i];
        size_t len = cp >= 0xF0 ? 4 : cp >= 0xE0 ? 3 : cp >= 0xC0 ? 2 : 1;
        if (i + len > n) break;
        if (len == 2) cp = ((cp & 0x1F) << 6) | (u[i + 1] & 0x3F);
        if (len == 3)
            cp = ((cp & 0x0F) << 12) | ((uint32_t)(u[i + 1] & 0x3F) << 6) | (u[i + 2] & 0x3F);
        if (len == 4)
            cp = ((cp & 0x07) << 18) | ((uint32_t)(u[i + 1] & 0x3F) << 12) |
                 ((uint32_t)(u[i + 2] & 0x3F) << 6) | (u[i + 3] & 0x3F);
        if (cp < CP_LIMIT) e->cps[cp / 8] |= (unsigned char)(1u << (cp % 8));
        i += len;
    }
    return 0;
}

static gboolean first_font(PangoFontset *fs, PangoFont *font, gpointer data)
{
    (void)fs;
    pin_font(font);
    (void)data;
    return TRUE; /* the first one only */
}

/* e's fontset on pc's font map. pango 1.50 starts fontconfig's sort of a
 * new fontset on threads of its own and waits for it only when a font past
 * the first is asked for. */
static PangoFontset *need_fontset(PangoContext *pc, const need *e)
{
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family_static(fd, e->family);
    pango_font_description_set_absolute_size(fd, 11 * PANGO_SCALE);
    pango_font_description_set_weight(fd, e->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
    pango_font_description_set_style(fd, e->italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL);
    PangoLanguage *lang =
        e->lang ? pango_language_from_string(e->lang) : pango_context_get_language(pc);
    qr_pdf_fonts_ready(pc);
    PangoFontset *fs = pango_font_map_load_fontset(pango_context_get_font_map(pc), pc, fd, lang);
    pango_font_description_free(fd);
    return fs;
}

/* Every font fontset fs (e's) picks for e's code points, as pango_itemize
 * does: the first font that has the character. */
static void pin_need(PangoFontset *fs, const need *e)
{
    pango_fontset_foreach(fs, first_font, NULL);
    PangoFont *last = NULL;
    for (uint32_t b = 0; b < CP_LIMIT / 8; b++) {
        if (!e->cps[b]) continue;
        for (uint32_t k = 0; k < 8; k++) {
            if (!(e->cps[b] & (1u << k))) continue;
            PangoFont *font = pango_fontset_get_font(fs, b * 8 + k);
            if (font && font != last) pin_font(font);
            if (last) g_object_unref(last);
            last = font;
        }
    }
    if (last) g_object_unref(last);
}

void qr_pdf_needs_pin(pd_needs *nd, PangoContext *pc)
{
    /* every fontset first, so fontconfig sorts them side by side, then
     * the fonts (M1, 8 interleaved runs at load 14: this pass took a median
     * 141 ms, minimum 69, asking one fontset at a time; now 78 and 38) */
    PangoFontset **fs = calloc(nd->n ? nd->n : 1, sizeof *fs);
    for (size_t i = 0; i < nd->n; i++) {
        PangoFontset *f = need_fontset(pc, &nd->items[i]);
        if (fs)
            fs[i] = f;
        else if (f) {
            pin_need(f, &nd->items[i]); /* out of memory: one at a time */
            g_object_unref(f);
        }
    }
    for (size_t i = 0; fs && i < nd->n; i++) {
        if (!fs[i]) continue;
        pin_need(fs[i], &nd->items[i]);
        g_object_unref(fs[i]);
    }
    free(fs);
}

void qr_pdf_needs_prefetch(const pd_needs *nd, PangoContext *pc)
{
    for (size_t i = 0; nd && i < nd->n; i++) {
        PangoFontset *fs = need_fontset(pc, &nd->items[i]);
        if (fs) g_object_unref(fs); /* the font map keeps it */
    }
}
