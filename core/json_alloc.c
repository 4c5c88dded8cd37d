/* json_alloc.c: a region allocator for jansson's values, opt-in for a
 * process that owns its allocator choice (the CLI), through
 * qr_compile_use_region_alloc().
 *
 * Why: jansson mallocs every value on its own (a real is a 24-byte struct
 * in a 32-byte malloc chunk, a string a 32-byte struct plus its text), so
 * a spec's tree costs about twice its payload, and freeing it row by row
 * leaves holes that go back to the system only through malloc_trim.
 *
 * How: memory comes in 1 MiB chunks mapped at 1 MiB-aligned addresses,
 * each with a small header at its base. A request up to BIG bytes is
 * bump-allocated (8-byte steps) from the calling thread's current chunk; a
 * free finds the chunk by masking the pointer and counts down the chunk's
 * live allocations. The chunk whose count reaches zero, and which is no
 * thread's current chunk any more, is unmapped at once (one chunk is kept
 * as a spare for the next). jansson builds a row's values one after the
 * other and the compiler frees rows in order, so whole chunks empty and go
 * back to the system as the compiler walks the rows. A request above BIG
 * gets its own region, aligned the same way, with the same header (one
 * live allocation); the pointer handed out lies in the region's first MiB,
 * so masking finds its header too.
 *
 * Counting: frees are atomic decrements of the chunk's count. Allocations
 * are counted in the owning thread only (no atomic per allocation): while
 * a chunk is current, its count holds a large bias, so frees from any
 * thread can never bring it to zero; when the thread leaves the chunk (it
 * is full, or the thread ends) it adds its allocation count minus the bias
 * in one atomic step, and whoever brings the count to zero unmaps it.
 *
 * Alignment: 8 bytes, not malloc's 16. Every jansson 2.x structure
 * (json_t, the integer, real, string, array and object structs, hashtable
 * buckets and pairs, strbuffer text) holds nothing wider than a pointer, a
 * size_t, a json_int_t or a double, and the allocator serves only jansson.
 * With 16, the S2 tree (1,000,000 rows) is 14% larger.
 *
 * The sanitizer builds leave jansson on malloc (ASan cannot see inside a
 * chunk); the allocator itself still works there, so its unit test runs. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <jansson.h>

#include "json_alloc.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define QR_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define QR_SANITIZER 1
#endif
#endif

#define CHUNK ((size_t)1 << 20)
#define BIG ((size_t)64 << 10)
#define STEP ((size_t)8)
#define BIAS ((size_t)1 << 62) /* a current chunk's count never falls this far */

typedef struct chunk {
    _Atomic size_t live; /* allocations not freed yet (+ BIAS while current) */
    size_t size;         /* bytes mapped */
    int big;             /* a region of one request above BIG (its size may be CHUNK too) */
} chunk;
#define HDR ((sizeof(chunk) + 15) & ~(size_t)15)

/* The calling thread's current chunk. */
typedef struct bump {
    chunk *cur;
    char *next, *end;
    size_t allocs; /* allocations made from cur */
} bump;
static _Thread_local bump tl;

static _Atomic(chunk *) g_spare;
static atomic_size_t g_chunks, g_big, g_bytes;
static atomic_int g_on;

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static int key_ok;

/* ---- mapping ------------------------------------------------------------------ */

/* size bytes (a multiple of the page size) at an address aligned to CHUNK. */
static void *map_aligned(size_t size)
{
    if (size > SIZE_MAX - CHUNK) return NULL;
    size_t span = size + CHUNK;
    char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    uintptr_t a = ((uintptr_t)p + CHUNK - 1) & ~(uintptr_t)(CHUNK - 1);
    size_t head = (size_t)(a - (uintptr_t)p), tail = span - head - size;
    if (head) munmap(p, head);
    if (tail) munmap((char *)a + size, tail);
    return (void *)a;
}

static void release(chunk *c)
{
    size_t size = c->size;
    if (!c->big) {
        atomic_fetch_sub(&g_chunks, 1);
        chunk *none = NULL;
        if (atomic_compare_exchange_strong(&g_spare, &none, c)) return;
    } else {
        atomic_fetch_sub(&g_big, 1);
    }
    atomic_fetch_sub(&g_bytes, size);
    munmap(c, size);
}

/* The thread leaves its current chunk: settle its count. */
static void retire(void)
{
    chunk *c = tl.cur;
    if (!c) return;
    size_t add = tl.allocs - BIAS; /* modulo 2^N: adds allocs, removes the bias */
    tl = (bump){0};
    if (atomic_fetch_add(&c->live, add) + add == 0) release(c);
}

static void thread_end(void *arg)
{
    (void)arg;
    retire();
}

static void key_init(void)
{
    key_ok = pthread_key_create(&key, thread_end) == 0;
}

/* A fresh current chunk for the calling thread; 0, or -1 out of memory. */
static int refill(void)
{
    retire();
    chunk *c = atomic_exchange(&g_spare, NULL);
    if (c) {
        atomic_fetch_add(&g_chunks, 1);
    } else {
        c = map_aligned(CHUNK);
        if (!c) return -1;
        c->size = CHUNK;
        c->big = 0;
        atomic_fetch_add(&g_chunks, 1);
        atomic_fetch_add(&g_bytes, CHUNK);
    }
    atomic_store_explicit(&c->live, BIAS, memory_order_relaxed);
    pthread_once(&key_once, key_init);
    /* Any non-NULL value makes the key's destructor run when the thread ends. */
    if (key_ok && !pthread_getspecific(key)) pthread_setspecific(key, &tl);
    tl.cur = c;
    tl.next = (char *)c + HDR;
    tl.end = (char *)c + CHUNK;
    tl.allocs = 0;
    return 0;
}

/* ---- the allocator ------------------------------------------------------------ */

static void *big_alloc(size_t n)
{
    if (n > SIZE_MAX - HDR - CHUNK) return NULL;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = (HDR + n + page - 1) & ~(page - 1);
    chunk *c = map_aligned(size);
    if (!c) return NULL;
    c->size = size;
    c->big = 1;
    atomic_store_explicit(&c->live, 1, memory_order_relaxed);
    atomic_fetch_add(&g_big, 1);
    atomic_fetch_add(&g_bytes, size);
    return (char *)c + HDR;
}

void *qr_json_alloc_malloc(size_t n)
{
    if (n == 0) n = 1;
    if (n > BIG) return big_alloc(n);
    n = (n + STEP - 1) & ~(STEP - 1);
    if ((size_t)(tl.end - tl.next) < n && refill() < 0) return NULL;
    void *p = tl.next;
    tl.next += n;
    tl.allocs++;
    return p;
}

void qr_json_alloc_free(void *p)
{
    if (!p) return;
    chunk *c = (chunk *)((uintptr_t)p & ~(uintptr_t)(CHUNK - 1));
    if (atomic_fetch_sub_explicit(&c->live, 1, memory_order_acq_rel) == 1) release(c);
}

void qr_json_alloc_thread_done(void)
{
    retire();
}

void qr_json_alloc_trim(void)
{
    chunk *c = atomic_exchange(&g_spare, NULL);
    if (c) {
        atomic_fetch_sub(&g_bytes, CHUNK);
        munmap(c, CHUNK);
    }
}

void qr_json_alloc_stats(qr_json_alloc_stat *st)
{
    st->chunks = atomic_load(&g_chunks);
    st->big = atomic_load(&g_big);
    st->spare = atomic_load(&g_spare) != NULL;
    st->bytes = atomic_load(&g_bytes);
}

int qr_json_alloc_on(void)
{
    return atomic_load_explicit(&g_on, memory_order_relaxed);
}

int qr_compile_use_region_alloc(void)
{
#ifdef QR_SANITIZER
    return 0;
#else
    if (!atomic_exchange(&g_on, 1)) json_set_alloc_funcs(qr_json_alloc_malloc, qr_json_alloc_free);
    return 1;
#endif
}

char *qr_json_dumps(const json_t *json, size_t flags)
{
    char *s = json_dumps(json, flags);
    if (!s || !qr_json_alloc_on()) return s;
    char *m = strdup(s); /* out of the region, into malloc's memory */
    qr_json_alloc_free(s);
    return m;
}
