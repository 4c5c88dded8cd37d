/* face_answers.h: the faces simple_text.c opens without pango, kept on disk.
 *
 * For a face (family, language, size, weight, slant, resolution, font
 * options) fontconfig answers which font file and index pango would open,
 * the HarfBuzz scale, point size and slant pango would give it, the
 * features the configuration adds, and which characters the font covers.
 * Asking costs fontconfig's start (its XML configuration, ~27 M
 * instructions) and a substitution and match per face (~1.2 M each). The
 * answers change only with the configuration, so they are kept in a side
 * file of the font table's cache (fonts.h qr_fonts_side_read), under the
 * same key: a docx's measure pass whose faces are all there never starts
 * fontconfig. A set is one font map's (simple_text.c locks it); a file
 * that does not parse, or was written by another pango or program name
 * (pango's pattern carries both), counts as empty and is written anew.
 */
#ifndef QR_PDF_FACE_ANSWERS_H
#define QR_PDF_FACE_ANSWERS_H

#include <fontconfig/fontconfig.h>
#include <hb.h>

#include "fonts.h"

typedef struct qr_face_answer {
    /* the question */
    const char *family;
    const char *lang; /* pango's interned string */
    int size, bold, italic;
    double dpi;
    unsigned long options; /* cairo_font_options_hash() */
    /* the answer; found 0: pango must open the face */
    int found;
    const char *file;
    int index;
    int scale_x, scale_y;
    float ptem, slant;
    int ok, has_a, has_0; /* printable ASCII covered; 'a'; '0' */
    unsigned labels;      /* bit i: label character i covered (simple_text.c) */
    hb_feature_t features[32];
    unsigned n_features;
} qr_face_answer;

typedef struct qr_face_answers qr_face_answers;

/** The answers on disk beside fonts' cache file: none when it has none
 *  (fonts.h qr_fonts_side_read), the file is missing or damaged, or its
 *  key no longer holds. NULL out of memory. fonts must outlive the set. */
qr_face_answers *qr_face_answers_load(const qr_fonts *fonts);

/** The answer kept for q's question (its first seven fields), or NULL. */
const qr_face_answer *qr_face_answers_find(const qr_face_answers *fa, const qr_face_answer *q);

/** Keep a copy of a, question and answer; 0 or -1 (out of memory). */
int qr_face_answers_add(qr_face_answers *fa, const qr_face_answer *a);

/** Write the set to disk if an answer was added since it was loaded, keyed
 *  by cfg (the configuration the answers came from). */
void qr_face_answers_save(qr_face_answers *fa, FcConfig *cfg);

void qr_face_answers_free(qr_face_answers *fa);

#endif
