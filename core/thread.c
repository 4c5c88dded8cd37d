/* thread.c: see thread.h. */
#define _GNU_SOURCE
#include "thread.h"

#include <sched.h>
#include <stdlib.h>

typedef struct start {
    void *(*fn)(void *);
    void *arg;
    cpu_set_t all; /* the caller's CPUs, given back first */
} start;

static void *trampoline(void *p)
{
    start s = *(start *)p;
    free(p);
    pthread_setaffinity_np(pthread_self(), sizeof s.all, &s.all);
    return s.fn(s.arg);
}

int qr_thread_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
    start *s = malloc(sizeof *s);
    int cpu = sched_getcpu();
    if (!s || cpu < 0 || pthread_getaffinity_np(pthread_self(), sizeof s->all, &s->all) != 0) {
        free(s);
        return pthread_create(th, NULL, fn, arg);
    }
    cpu_set_t other = s->all;
    if (cpu < CPU_SETSIZE) CPU_CLR(cpu, &other);
    pthread_attr_t at;
    if (CPU_COUNT(&other) == 0 || pthread_attr_init(&at) != 0) {
        free(s);
        return pthread_create(th, NULL, fn, arg);
    }
    s->fn = fn;
    s->arg = arg;
    int e = pthread_attr_setaffinity_np(&at, sizeof other, &other);
    if (e == 0) e = pthread_create(th, &at, trampoline, s);
    pthread_attr_destroy(&at);
    if (e != 0) {
        free(s);
        return pthread_create(th, NULL, fn, arg);
    }
    return 0;
}
