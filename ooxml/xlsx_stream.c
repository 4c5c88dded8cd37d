/* xlsx_stream.c: the worksheets of a streamed workbook (xlsx_int.h).
 *
 * One reader thread runs ctx->rows_src: the spec is read again and each
 * row, compiled, comes to emit() in sheet and row order. The thread writes
 * sheet after sheet: the head (from the sheet's kept rows: dimension,
 * panes, autofit widths), the rows before the streamed ones (a "columns"
 * header), every streamed row, the tail; blocks of about BLOCK_BYTES go
 * into the sheet's ring of QUEUE_LEN buffers, which the packager's thread
 * empties through qr_xlsx_feed_fill() as it deflates that part. A sheet's
 * last block is queued before the thread reads a row of the next sheet, so
 * the packager, taking parts in order, always gets what it waits for. The
 * thread is the only one touching the shared strings and styles while it
 * runs; the last sheet's fill joins it, before those parts are written.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "thread.h"
#include "xlsx_int.h"

#define BLOCK_BYTES (256u * 1024u)
#define QUEUE_LEN 4

typedef struct ring {
    qr_buf q[QUEUE_LEN];
    unsigned head, count; /* the oldest full slot, and how many are full */
    int finished;         /* the sheet's last block is queued */
} ring;

typedef struct part {
    qr_xlsx_feed *f;
    size_t i;
} part;

struct qr_xlsx_feed {
    const qr_sheet *sheets;
    size_t n;
    const qr_row_source *src;
    qr_xlsx_sst *sst;
    qr_xlsx_styles *styles;
    ring *rings;
    part *parts;
    pthread_t thread;
    int started, joined;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;         /* the packager gave up: the thread must end */
    qr_status status; /* the thread's failure */
    /* the thread's own */
    size_t cur; /* the sheet being written */
    int open;   /* its head is written */
    qr_buf blk; /* the block being filled */
};

/* Queue blk as sheet cur's next block (last: its final one). -1: stopped. */
static int push(qr_xlsx_feed *f, int last)
{
    ring *rg = &f->rings[f->cur];
    pthread_mutex_lock(&f->mu);
    while (rg->count == QUEUE_LEN && !f->stop)
        pthread_cond_wait(&f->cv, &f->mu);
    if (f->stop) {
        pthread_mutex_unlock(&f->mu);
        return -1;
    }
    qr_buf *slot = &rg->q[(rg->head + rg->count) % QUEUE_LEN];
    qr_buf t = *slot; /* an emptied block: reuse its memory */
    *slot = f->blk;
    f->blk = t;
    f->blk.len = 0;
    rg->count++;
    if (last) rg->finished = 1;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    return 0;
}

static int fail(qr_xlsx_feed *f, qr_status st)
{
    pthread_mutex_lock(&f->mu);
    if (f->status == QR_OK) f->status = st;
    pthread_mutex_unlock(&f->mu);
    return -1;
}

/* Sheet cur's head and the rows before the streamed ones. */
static int open_sheet(qr_xlsx_feed *f)
{
    const qr_sheet *sh = &f->sheets[f->cur];
    if (qr_xlsx_write_sheet_head_st(&f->blk, sh, f->cur == 0, f->styles))
        return fail(f, QR_E_NOMEM);
    for (size_t r = 0; r < sh->stream_from && r < sh->n_held; r++)
        if (qr_xlsx_write_sheet_row(&f->blk, sh, &sh->rows[r], r, f->sst, f->styles))
            return fail(f, QR_E_NOMEM);
    f->open = 1;
    return 0;
}

/* Sheet cur's tail: its last block. */
static int finish_sheet(qr_xlsx_feed *f)
{
    if (!f->open && open_sheet(f)) return -1;
    if (qr_xlsx_write_sheet_tail(&f->blk, &f->sheets[f->cur], f->styles) || f->blk.oom)
        return fail(f, QR_E_NOMEM);
    f->open = 0;
    return push(f, 1);
}

/* qr_row_emit: rows[r] of sheet i. */
static int emit(void *ctx, size_t i, size_t r, const qr_row *row)
{
    qr_xlsx_feed *f = ctx;
    while (f->cur < i && f->cur < f->n) {
        if (finish_sheet(f)) return -1;
        f->cur++;
    }
    if (i != f->cur) return fail(f, QR_E_RENDER);
    if (!f->open && open_sheet(f)) return -1;
    const qr_sheet *sh = &f->sheets[i];
    size_t at = sh->stream_from + r;
    if (qr_xlsx_write_sheet_row(&f->blk, sh, row, at, f->sst, f->styles) || f->blk.oom)
        return fail(f, QR_E_NOMEM);
    if (f->blk.len >= BLOCK_BYTES) return push(f, 0);
    return 0;
}

static void *run(void *arg)
{
    qr_xlsx_feed *f = arg;
    qr_status st = f->src->run(f->src->src, emit, f);
    for (; st == QR_OK && f->cur < f->n; f->cur++)
        if (finish_sheet(f)) st = QR_E_RENDER;
    pthread_mutex_lock(&f->mu);
    if (st != QR_OK && f->status == QR_OK) f->status = st;
    if (f->status != QR_OK)
        for (size_t i = 0; i < f->n; i++)
            f->rings[i].finished = 1; /* nobody waits for a block that will not come */
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

qr_xlsx_feed *qr_xlsx_feed_new(const qr_sheet *sheets, size_t n, const qr_row_source *src,
                               qr_xlsx_sst *sst, qr_xlsx_styles *styles)
{
    qr_xlsx_feed *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->rings = calloc(n ? n : 1, sizeof *f->rings);
    f->parts = calloc(n ? n : 1, sizeof *f->parts);
    if (!f->rings || !f->parts || pthread_mutex_init(&f->mu, NULL) != 0) {
        free(f->rings);
        free(f->parts);
        free(f);
        return NULL;
    }
    if (pthread_cond_init(&f->cv, NULL) != 0) {
        pthread_mutex_destroy(&f->mu);
        free(f->rings);
        free(f->parts);
        free(f);
        return NULL;
    }
    f->sheets = sheets;
    f->n = n;
    f->src = src;
    f->sst = sst;
    f->styles = styles;
    for (size_t i = 0; i < n; i++)
        f->parts[i] = (part){f, i};
    return f;
}

static void join(qr_xlsx_feed *f)
{
    if (f->started && !f->joined) {
        pthread_join(f->thread, NULL);
        f->joined = 1;
    }
}

void qr_xlsx_feed_free(qr_xlsx_feed *f)
{
    if (!f) return;
    pthread_mutex_lock(&f->mu);
    f->stop = 1;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    join(f);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    for (size_t i = 0; i < f->n; i++)
        for (int k = 0; k < QUEUE_LEN; k++)
            qr_buf_free(&f->rings[i].q[k]);
    qr_buf_free(&f->blk);
    free(f->rings);
    free(f->parts);
    free(f);
}

void *qr_xlsx_feed_part(qr_xlsx_feed *f, size_t i)
{
    return &f->parts[i];
}

qr_status qr_xlsx_feed_fill(void *ctx, qr_buf *chunk, int *done)
{
    part *pt = ctx;
    qr_xlsx_feed *f = pt->f;
    if (!f->started) {
        if (qr_thread_create(&f->thread, run, f) != 0) return qr_fail(QR_E_NOMEM);
        f->started = 1;
    }
    ring *rg = &f->rings[pt->i];
    pthread_mutex_lock(&f->mu);
    while (rg->count == 0 && !rg->finished)
        pthread_cond_wait(&f->cv, &f->mu);
    int took = rg->count > 0;
    if (took) {
        qr_buf *b = &rg->q[rg->head];
        if (chunk->len == 0 && !chunk->oom) {
            qr_buf t = *chunk; /* hand the block over without copying */
            *chunk = *b;
            *b = t;
        } else {
            qr_buf_append(chunk, b->data, b->len);
        }
        b->len = 0;
        rg->head = (rg->head + 1) % QUEUE_LEN;
        rg->count--;
        pthread_cond_broadcast(&f->cv);
    }
    int last = rg->finished && rg->count == 0;
    qr_status st = f->status;
    pthread_mutex_unlock(&f->mu);
    if (last) {
        if (pt->i + 1 == f->n) {
            join(f); /* its writes to the strings and styles happen before ours */
            st = f->status;
        }
        *done = 1;
    }
    if (st == QR_OK && chunk->oom) st = qr_fail(QR_E_NOMEM);
    return st;
}
