/* words.h: the few words quire itself writes into a document (caption
 * labels, the contents' title, callout titles, the notes' heading), in the
 * document's language.
 *
 * One table for every backend: docx, PDF/PNG and html print the same
 * "Abbildung 2" for a German document. Languages: en (the default and the
 * fallback for any other tag), de, fr, es, pt, it, ja, zh, ar; a tag is
 * matched by its primary subtag ("de-CH" is German). Also the callout
 * tones' colours, shared the same way.
 */
#ifndef QR_WORDS_H
#define QR_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "tree.h"

typedef enum qr_word_id {
    QR_WORD_FIGURE,
    QR_WORD_TABLE,
    QR_WORD_LISTING,
    QR_WORD_CONTENTS,
    QR_WORD_NOTE,
    QR_WORD_TIP,
    QR_WORD_WARNING,
    QR_WORD_IMPORTANT,
    QR_WORD_NOTES,   /* the heading of endnotes */
    QR_WORD_SECTION, /* a ref to a numbered heading: "Section 3.1" */
    QR_WORD_COUNT
} qr_word_id;

/** The word in language lang (NULL: English). */
const char *qr_word(const char *lang, qr_word_id id);

/** "Figure 2" (a space between word and number, none in Japanese and
 *  Chinese: "図2") into buf; returns its length. */
size_t qr_word_numbered(const char *lang, qr_word_id id, unsigned n, char *buf, size_t size);

/** The separator after a caption's label: ": " (Japanese and Chinese:
 *  the full-width colon). */
const char *qr_word_caption_sep(const char *lang);

/** A callout tone's ink (its bar and title), 0xRRGGBB: note blue, tip
 *  green, warning amber, important red. */
uint32_t qr_tone_ink(qr_tone tone);
/** Its box's ground: a tenth of the ink over the page's background, so a
 *  dark theme gets a dark tint. */
uint32_t qr_tone_fill(qr_tone tone, uint32_t background);

#endif
