/* test_json_alloc.c: the region allocator for jansson (core/json_alloc.c).
 *
 * Allocations are filled with a pattern and checked after everything is
 * allocated (no two overlap), freed in a random order from other threads
 * than the ones that allocated them, and every chunk and big region must
 * be unmapped at the end (counted through qr_json_alloc_stats). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile.h"

#define CHUNK ((uintptr_t)1 << 20)

static void assert_all_returned(void)
{
    qr_json_alloc_stat st;
    qr_json_alloc_stats(&st);
    assert_int_equal(st.chunks, 0);
    assert_int_equal(st.big, 0);
    assert_true(st.spare <= 1);
    assert_int_equal(st.bytes, st.spare << 20);
    qr_json_alloc_trim();
    qr_json_alloc_stats(&st);
    assert_int_equal(st.spare, 0);
    assert_int_equal(st.bytes, 0);
}

/* xorshift, seeded per thread: the same run every time. */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef struct item {
    unsigned char *p;
    size_t n;
    unsigned char tag;
} item;

static void fill(item *it)
{
    memset(it->p, it->tag, it->n);
}

static void check(const item *it)
{
    for (size_t i = 0; i < it->n; i++)
        if (it->p[i] != it->tag) fail_msg("allocation of %zu bytes overwritten at %zu", it->n, i);
}

static void test_small_and_alignment(void **state)
{
    (void)state;
    enum { N = 50000 };
    item *its = calloc(N, sizeof *its);
    for (size_t i = 0; i < N; i++) {
        its[i].n = 1 + i % 97;
        its[i].tag = (unsigned char)(i * 7 + 1);
        its[i].p = qr_json_alloc_malloc(its[i].n);
        assert_non_null(its[i].p);
        assert_int_equal((uintptr_t)its[i].p % 8, 0);
        fill(&its[i]);
    }
    qr_json_alloc_stat st;
    qr_json_alloc_stats(&st);
    assert_true(st.chunks >= 2); /* ~2.6 MB of requests */
    assert_int_equal(st.big, 0);
    for (size_t i = 0; i < N; i++)
        check(&its[i]);
    /* Free the first half: the chunks holding only those go at once. */
    for (size_t i = 0; i < N / 2; i++)
        qr_json_alloc_free(its[i].p);
    qr_json_alloc_stat half;
    qr_json_alloc_stats(&half);
    assert_true(half.chunks < st.chunks);
    for (size_t i = N / 2; i < N; i++)
        check(&its[i]);
    for (size_t i = N / 2; i < N; i++)
        qr_json_alloc_free(its[i].p);
    /* The current chunk stays until the thread leaves it. */
    qr_json_alloc_stats(&st);
    assert_int_equal(st.chunks, 1);
    qr_json_alloc_thread_done();
    assert_all_returned();
    qr_json_alloc_free(NULL);
    free(its);
}

static void test_big(void **state)
{
    (void)state;
    static const size_t sizes[] = {(64u << 10) + 1, 1u << 20, (1u << 20) - 100, 5u << 20, 200000};
    enum { K = sizeof sizes / sizeof sizes[0] };
    item its[K];
    for (size_t i = 0; i < K; i++) {
        its[i] = (item){qr_json_alloc_malloc(sizes[i]), sizes[i], (unsigned char)(0x40 + i)};
        assert_non_null(its[i].p);
        /* The header is at the 1 MiB boundary below the pointer. */
        assert_true((uintptr_t)its[i].p - ((uintptr_t)its[i].p & ~(CHUNK - 1)) < 64);
        fill(&its[i]);
    }
    /* 64 KiB exactly is still bump-allocated. */
    unsigned char *small = qr_json_alloc_malloc(64u << 10);
    assert_non_null(small);
    memset(small, 0x33, 64u << 10);
    qr_json_alloc_stat st;
    qr_json_alloc_stats(&st);
    assert_int_equal(st.big, K);
    assert_int_equal(st.chunks, 1);
    for (size_t i = 0; i < K; i++)
        check(&its[i]);
    for (size_t i = K; i-- > 0;)
        qr_json_alloc_free(its[i].p);
    qr_json_alloc_stats(&st);
    assert_int_equal(st.big, 0);
    qr_json_alloc_free(small);
    qr_json_alloc_thread_done();
    assert_all_returned();
}

/* ---- threads ------------------------------------------------------------------- */

enum { THREADS = 4, PER_THREAD = 60000 };

typedef struct job {
    item *its; /* this thread's slice */
    size_t n;
    uint64_t seed;
    int big_every;
} job;

static void *alloc_worker(void *arg)
{
    job *j = arg;
    for (size_t i = 0; i < j->n; i++) {
        uint64_t r = rnd(&j->seed);
        size_t n = j->big_every && r % (uint64_t)j->big_every == 0
                       ? (64u << 10) + 1 + (size_t)(r >> 20) % (3u << 20)
                       : 1 + (size_t)(r >> 8) % 300;
        j->its[i] = (item){qr_json_alloc_malloc(n), n, (unsigned char)(r >> 40)};
        if (!j->its[i].p) return (void *)1;
        fill(&j->its[i]);
        /* Free some right away, as jansson frees an outgrown array table. */
        if (r % 5 == 0) {
            qr_json_alloc_free(j->its[i].p);
            j->its[i].p = NULL;
        }
    }
    return NULL; /* the thread's current chunk is settled as it ends */
}

static void *free_worker(void *arg)
{
    job *j = arg;
    for (size_t i = 0; i < j->n; i++) {
        if (!j->its[i].p) continue;
        check(&j->its[i]);
        qr_json_alloc_free(j->its[i].p);
    }
    return NULL;
}

static void test_threads_random_free(void **state)
{
    (void)state;
    size_t total = (size_t)THREADS * PER_THREAD;
    item *its = calloc(total, sizeof *its);
    assert_non_null(its);
    pthread_t th[THREADS];
    job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] =
            (job){its + (size_t)t * PER_THREAD, PER_THREAD, 0x9E3779B97F4A7C15ull * (t + 1), 997};
        assert_int_equal(pthread_create(&th[t], NULL, alloc_worker, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        void *ret;
        pthread_join(th[t], &ret);
        assert_null(ret);
    }
    qr_json_alloc_stat st;
    qr_json_alloc_stats(&st);
    assert_true(st.chunks > THREADS);
    assert_true(st.big > 0);
    /* Shuffle, then free from other threads, concurrently. */
    uint64_t s = 12345;
    for (size_t i = total - 1; i > 0; i--) {
        size_t k = (size_t)(rnd(&s) % (i + 1));
        item x = its[i];
        its[i] = its[k];
        its[k] = x;
    }
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (job){its + (size_t)t * PER_THREAD, PER_THREAD, 0, 0};
        assert_int_equal(pthread_create(&th[t], NULL, free_worker, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    assert_all_returned();
    free(its);
}

/* Allocating and freeing at once on several threads (a chunk emptied by
 * one thread while another still fills it). */
typedef struct churn {
    uint64_t seed;
} churn;

static void *churn_worker(void *arg)
{
    churn *c = arg;
    enum { LIVE = 512 };
    item live[LIVE] = {{0}};
    for (int i = 0; i < 200000; i++) {
        uint64_t r = rnd(&c->seed);
        item *it = &live[r % LIVE];
        if (it->p) {
            check(it);
            qr_json_alloc_free(it->p);
        }
        it->n = 1 + (size_t)(r >> 16) % (r % 1000 == 0 ? 200000 : 700);
        it->tag = (unsigned char)(r >> 32);
        it->p = qr_json_alloc_malloc(it->n);
        if (!it->p) return (void *)1;
        fill(it);
    }
    for (int i = 0; i < LIVE; i++) {
        if (!live[i].p) continue;
        check(&live[i]);
        qr_json_alloc_free(live[i].p);
    }
    return NULL;
}

static void test_threads_churn(void **state)
{
    (void)state;
    pthread_t th[THREADS];
    churn cs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        cs[t].seed = 77 + (uint64_t)t * 1000003;
        assert_int_equal(pthread_create(&th[t], NULL, churn_worker, &cs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        void *ret;
        pthread_join(th[t], &ret);
        assert_null(ret);
    }
    assert_all_returned();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_and_alignment),
        cmocka_unit_test(test_big),
        cmocka_unit_test(test_threads_random_free),
        cmocka_unit_test(test_threads_churn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
