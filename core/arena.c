/* arena.c: bump allocation in growing blocks. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct qr_arena_block {
    qr_arena_block *next;
    size_t used, size;
    max_align_t data[];
};

enum { MIN_BLOCK = 64 * 1024 };

void *qr_arena_alloc(qr_arena *a, size_t n)
{
    const size_t align = _Alignof(max_align_t);
    if (n > SIZE_MAX / 2) return NULL;
    n = (n + align - 1) & ~(align - 1);
    if (n == 0) n = align;
    qr_arena_block *b = a->head;
    int zeroed = 0;
    if (!b || b->size - b->used < n) {
        /* Grow geometrically with the total so a million small strings
         * cost few blocks; a large request gets a block of its own,
         * zeroed by calloc: fresh pages cost no memory until written (a
         * million-row sheet's row table fills as the rows compile). */
        size_t size = a->total / 4 > MIN_BLOCK ? a->total / 4 : MIN_BLOCK;
        if (size > 16u * 1024 * 1024) size = 16u * 1024 * 1024;
        if (size < n) size = n, zeroed = 1;
        b = zeroed ? calloc(1, sizeof *b + size) : malloc(sizeof *b + size);
        if (!b) return NULL;
        b->used = 0;
        b->size = size;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    a->total += n;
    if (!zeroed) memset(p, 0, n);
    return p;
}

void *qr_arena_array(qr_arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size) return NULL;
    return qr_arena_alloc(a, count * size);
}

char *qr_arena_strndup(qr_arena *a, const char *s, size_t n)
{
    if (n == SIZE_MAX) return NULL;
    char *d = qr_arena_alloc(a, n + 1);
    if (!d) return NULL;
    if (n) memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *qr_arena_strdup(qr_arena *a, const char *s)
{
    return qr_arena_strndup(a, s, strlen(s));
}

char *qr_arena_printf(qr_arena *a, const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *d = n < 0 ? NULL : qr_arena_alloc(a, (size_t)n + 1);
    if (d) vsnprintf(d, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return d;
}

void qr_arena_free(qr_arena *a)
{
    qr_arena_block *b = a->head;
    while (b) {
        qr_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->total = 0;
}
