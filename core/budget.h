/* budget.h: the one work budget every costly path of a render draws on
 * (issue 37).
 *
 * Whatever a small input can multiply (formula evaluations, the cells a
 * range names, bytes of string results, chart points, pages laid out,
 * pixels decoded) is paid for in work units from one qr_budget, held by the
 * document (qr_doc.work) for the whole render. A unit is about one cell
 * visited: a few nanoseconds of the cheapest work, so the default budget
 * (QR_WORK_DEFAULT) is seconds of work, never minutes. Past it the path
 * that ran out stops and the render fails with QR_E_LIMIT (exit 4), its
 * error naming the limit (max_work) and how to raise it.
 *
 *     if (qr_budget_take(&doc->work, cells)) return out_of_work();
 *     ...
 *     if (qr_budget_spent(&doc->work))
 *         return qr_budget_error(&doc->work, errs, path, "the formulas");
 *
 * Costs (units): a formula evaluated 1; a row a range spans 1 and each of
 * its cells 1; 16 bytes of a string result 1; a chart point 100
 * (QR_WORK_CHART_POINT); a sheet series range its cells; a page laid out
 * for PDF or PNG (a document's page, a slide, a sheet's printed page)
 * QR_WORK_PAGE; each cell of a sheet's printed page QR_WORK_CELL_DRAWN; an
 * image's pixels decoded, one unit per QR_WORK_PIXELS. The budget is not
 * thread-safe: one per render.
 */
#ifndef QR_BUDGET_H
#define QR_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include <quire/error.h>

/* The default of qr_limits.max_work and --max-work: 2^28 units. */
#define QR_WORK_DEFAULT ((uint64_t)1 << 28)

/* What pages and pictures cost (see above). */
#define QR_WORK_PAGE 1024
#define QR_WORK_CELL_DRAWN 256
#define QR_WORK_PIXELS 16

typedef struct qr_budget {
    uint64_t limit; /* units in all; 0: no budget (unlimited) */
    uint64_t used;  /* units drawn so far */
    int spent;      /* a draw went past the limit (sticky) */
} qr_budget;

/** A budget of limit units (0: unlimited). */
void qr_budget_init(qr_budget *b, uint64_t limit);

/** Draw n units: 0, or -1 once the budget is spent (and for every later
 *  draw). A NULL budget is unlimited. */
static inline int qr_budget_take(qr_budget *b, uint64_t n)
{
    if (!b) return 0;
    if (b->spent) return -1;
    b->used += n;
    if (b->limit && b->used > b->limit) {
        b->spent = 1;
        return -1;
    }
    return 0;
}

/** Has a draw gone past the limit? */
static inline int qr_budget_spent(const qr_budget *b)
{
    return b && b->spent;
}

/** The error for a spent budget, added to errs at path: "<what> need more
 *  work than the budget: more than N units; the limit max_work is N units"
 *  with a hint naming --max-work. Returns QR_E_LIMIT. */
qr_status qr_budget_error(const qr_budget *b, qr_errlist *errs, const char *path, const char *what);

#endif
