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
 * Cost: one set lookup (under a mutex) per change of font within a layout;
 * a few dozen faces at most, so the set is a plain array. */
#include <cairo-ft.h>
#include <pthread.h>
#include <stdlib.h>

#include "pdf_int.h"

static pthread_mutex_t pins_lock = PTHREAD_MUTEX_INITIALIZER;
static cairo_font_face_t **pinned_faces;   /* the set's keys */
static cairo_scaled_font_t **pinned_fonts; /* a font of each face, referenced and locked */
static size_t n_pins, cap_pins;
static int at_exit_set;

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
    if (!at_exit_set) at_exit_set = atexit(unpin_all) == 0;
out:
    pthread_mutex_unlock(&pins_lock);
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
            cairo_scaled_font_t *sf = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
            if (sf && cairo_scaled_font_get_type(sf) == CAIRO_FONT_TYPE_FT) pin(sf);
        }
    }
}
