/* suggest.h: did-you-mean (suggest.c). */
#ifndef QR_SUGGEST_H
#define QR_SUGGEST_H

/** The candidate closest to word (edit distance, case-insensitive), or NULL
 *  when none is close enough to be a likely typo. */
const char *qr_suggest(const char *word, const char *const *cands);

#endif
