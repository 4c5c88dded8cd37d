/* budget.c: the work budget (budget.h): its start and its error. */
#include "budget.h"

void qr_budget_init(qr_budget *b, uint64_t limit)
{
    b->limit = limit;
    b->used = 0;
    b->spent = 0;
}

qr_status qr_budget_error(const qr_budget *b, qr_errlist *errs, const char *path, const char *what)
{
    if (!errs) return QR_E_LIMIT;
    return qr_errlist_addf(errs, QR_E_LIMIT, path ? path : "",
                           "raise qr_render_opts.max_work, or make the input smaller",
                           "%s need more work than the budget: the limit max_work is %llu units",
                           what, (unsigned long long)(b ? b->limit : 0));
}
