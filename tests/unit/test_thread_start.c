/* test_thread_start.c: core/thread.h. A thread qr_thread_create starts runs
 * its function with its argument and hands back its result, and holds its
 * maker's CPUs again by the time the function runs (where it began is the
 * scheduler's to say: bench/README.md measures it); with a single CPU to
 * run on (a container's cpuset) it runs there, as pthread_create's would.
 * Many at once (a deflate pool's, spread over the CPUs in turn: the nth),
 * all run, each with its maker's CPUs. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <stdlib.h>

#include "thread.h"

typedef struct seen {
    int arg;
    cpu_set_t mask; /* the thread's CPUs as its function starts */
} seen;

static void *note(void *p)
{
    seen *s = p;
    s->arg++;
    pthread_getaffinity_np(pthread_self(), sizeof s->mask, &s->mask);
    return (void *)((intptr_t)s->arg * 2);
}

static void test_runs_with_the_makers_cpus(void **state)
{
    (void)state;
    cpu_set_t mine;
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof mine, &mine), 0);
    seen s = {20, {{0}}};
    pthread_t th;
    assert_int_equal(qr_thread_create(&th, note, &s), 0);
    void *ret = NULL;
    assert_int_equal(pthread_join(th, &ret), 0);
    assert_int_equal(s.arg, 21);
    assert_int_equal((intptr_t)ret, 42);
    assert_true(CPU_EQUAL(&s.mask, &mine));
}

static void test_one_cpu(void **state)
{
    (void)state;
    cpu_set_t mine, one;
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof mine, &mine), 0);
    int cpu = sched_getcpu();
    assert_true(cpu >= 0);
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
    seen s = {1, {{0}}};
    pthread_t th;
    assert_int_equal(qr_thread_create(&th, note, &s), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    assert_int_equal(s.arg, 2);
    assert_true(CPU_EQUAL(&s.mask, &one));
    assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof mine, &mine), 0);
}

static void test_many(void **state)
{
    (void)state;
    enum { N = 16 };
    cpu_set_t mine;
    assert_int_equal(pthread_getaffinity_np(pthread_self(), sizeof mine, &mine), 0);
    seen s[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        s[i].arg = i;
        if (i % 2)
            assert_int_equal(qr_thread_create(&th[i], note, &s[i]), 0);
        else
            assert_int_equal(qr_thread_create_nth(&th[i], note, &s[i], i / 2), 0);
    }
    for (int i = 0; i < N; i++) {
        void *ret = NULL;
        assert_int_equal(pthread_join(th[i], &ret), 0);
        assert_int_equal(s[i].arg, i + 1);
        assert_int_equal((intptr_t)ret, 2 * (i + 1));
        assert_true(CPU_EQUAL(&s[i].mask, &mine));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_with_the_makers_cpus),
        cmocka_unit_test(test_one_cpu),
        cmocka_unit_test(test_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
