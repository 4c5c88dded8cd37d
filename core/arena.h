/* arena.h: a bump allocator that owns a document's tree and strings.
 *
 * Everything allocated from an arena is freed at once by qr_arena_free()
 * (cmark: the root owns the subtree). Allocation failure returns NULL.
 */
#ifndef QR_ARENA_H
#define QR_ARENA_H

#include <stddef.h>

#include "fail.h"

typedef struct qr_arena_block qr_arena_block;

typedef struct qr_arena {
    qr_arena_block *head;
    size_t total; /* bytes handed out, for limits and benchmarks */
} qr_arena;

/** Zeroed memory of n bytes aligned for any type, or NULL. */
void *qr_arena_alloc(qr_arena *a, size_t n);

/** An array of count elements of size bytes, zeroed; NULL on overflow or OOM. */
void *qr_arena_array(qr_arena *a, size_t count, size_t size);

/** A NUL-terminated copy of n bytes of s (s need not be terminated). */
char *qr_arena_strndup(qr_arena *a, const char *s, size_t n);

/** A NUL-terminated copy of s. */
char *qr_arena_strdup(qr_arena *a, const char *s);

/** A printf-style formatted string in the arena. */
char *qr_arena_printf(qr_arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/** Free every block; the arena is left empty and reusable. */
void qr_arena_free(qr_arena *a);

#endif
