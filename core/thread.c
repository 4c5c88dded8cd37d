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

/* Where to start it: nth < 0, every CPU of all but the caller's; else the
 * nth CPU of all after the caller's, in turn. 0, or -1 when all has no
 * CPU but the caller's (or the caller's is not known). */
static int choose(const cpu_set_t *all, int nth, cpu_set_t *at)
{
    int cpu = sched_getcpu(), n = CPU_COUNT(all);
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, all) || n < 2) return -1;
    *at = *all;
    CPU_CLR(cpu, at);
    if (nth < 0) return 0;
    int step = 1 + nth % n; /* CPUs to go past the caller's, in mask order */
    int c = cpu;
    while (step > 0) {
        c = (c + 1) % CPU_SETSIZE;
        if (CPU_ISSET(c, all)) step--;
    }
    CPU_ZERO(at);
    CPU_SET(c, at);
    return 0;
}

int qr_thread_create_nth(pthread_t *th, void *(*fn)(void *), void *arg, int nth)
{
    start *s = malloc(sizeof *s);
    cpu_set_t at;
    pthread_attr_t attr;
    if (!s || pthread_getaffinity_np(pthread_self(), sizeof s->all, &s->all) != 0 ||
        choose(&s->all, nth, &at) != 0 || pthread_attr_init(&attr) != 0) {
        free(s);
        return pthread_create(th, NULL, fn, arg);
    }
    s->fn = fn;
    s->arg = arg;
    int e = pthread_attr_setaffinity_np(&attr, sizeof at, &at);
    if (e == 0) e = pthread_create(th, &attr, trampoline, s);
    pthread_attr_destroy(&attr);
    if (e == 0) return 0;
    free(s);
    return pthread_create(th, NULL, fn, arg);
}

int qr_thread_create(pthread_t *th, void *(*fn)(void *), void *arg)
{
    return qr_thread_create_nth(th, fn, arg, -1);
}
