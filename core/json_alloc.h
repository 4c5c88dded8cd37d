/* json_alloc.h: jansson's allocator (json_alloc.c). */
#ifndef QR_JSON_ALLOC_H
#define QR_JSON_ALLOC_H

#include <stddef.h>

/*
 * By default jansson allocates with malloc. A process that owns its
 * allocator choice (the quire CLI, not a library user: jansson's allocator
 * is process-global) can switch it to a region allocator: values are
 * bump-allocated from 1 MiB chunks, and a chunk goes back to the system as
 * soon as everything in it is freed. For a big spreadsheet that makes the
 * parsed tree smaller, the parse faster (no malloc per value), and the rows
 * the compiler frees return to the system as it goes. Thread-safe.
 *
 * Call it before any jansson value exists, and only when no code in the
 * process frees jansson's memory with free(): json_dumps() text comes from
 * the allocator in force (the library's code takes dumped text through
 * qr_json_dumps, which is malloc's). Returns 1 when the region allocator is
 * in force, 0 in a sanitizer build, where jansson stays on malloc so that
 * ASan sees inside its values. Idempotent. */
int qr_compile_use_region_alloc(void);

/** Whether qr_compile_use_region_alloc() switched jansson over. */
int qr_json_alloc_on(void);

struct json_t;
/** json_dumps(json, flags) as text in malloc's memory (free() it), whichever
 *  allocator jansson is on. NULL when out of memory. */
char *qr_json_dumps(const struct json_t *json, size_t flags);

/* The allocator itself, for tests and for callers that hand it to jansson:
 * malloc and free with the region rules (8-byte alignment; requests above
 * 64 KiB get a region of their own). */
void *qr_json_alloc_malloc(size_t n);
void qr_json_alloc_free(void *p);
/** The calling thread stops allocating from its current chunk (done for a
 *  thread when it ends), so the chunk can go once its values are freed. */
void qr_json_alloc_thread_done(void);
/** Unmap the spare chunk kept for reuse. */
void qr_json_alloc_trim(void);

typedef struct qr_json_alloc_stat {
    size_t chunks; /* 1 MiB chunks in use (a thread's current one included) */
    size_t big;    /* regions of requests above 64 KiB */
    size_t spare;  /* 1 when a freed chunk is kept for reuse */
    size_t bytes;  /* bytes mapped, all of the above */
} qr_json_alloc_stat;
void qr_json_alloc_stats(qr_json_alloc_stat *st);

#endif
