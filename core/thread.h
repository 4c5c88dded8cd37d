/* thread.h: starting a helper thread where it can run at once.
 *
 * A virtual machine's scheduler may pack a new thread onto the CPU of the
 * thread that made it (keeping the others idle for the host) and move it
 * to an idle CPU only when its balancing next runs: on the 2-CPU machines
 * quire is built and measured on, a thread started while its maker goes on
 * working began 1 to 5 ms later in nine starts of ten, and within 0.5 ms
 * when started on the other CPU. That wait was the docx table of contents'
 * layout thread's (render.c) and the PDF measuring helper's, on the
 * critical path. These start a thread on a chosen CPU among those the
 * caller may use; the thread then takes back every CPU the caller may use
 * before fn runs, so where it runs from then on is the scheduler's again.
 * Where the caller may use one CPU only, they are pthread_create. */
#ifndef QR_THREAD_H
#define QR_THREAD_H

#include <pthread.h>

/** pthread_create(th, NULL, fn, arg) for a helper that works beside its
 *  maker: started on a CPU other than the caller's. 0 or an error
 *  number, as pthread_create. */
int qr_thread_create(pthread_t *th, void *(*fn)(void *), void *arg);

/** The same for the nth (from 0) of a group of workers started together
 *  for a maker that mostly waits for them (a deflate pool): spread over
 *  the caller's CPUs in turn, the first on the CPU after the caller's,
 *  so with two CPUs the second starts on the caller's own. */
int qr_thread_create_nth(pthread_t *th, void *(*fn)(void *), void *arg, int nth);

#endif
