/* formula.h: the formula evaluator: the cached values of a workbook's
 * formulas, so viewers that do not recalculate show them (and the sheet
 * preview draws them).
 *
 * The common subset of Excel: numbers, strings, TRUE/FALSE, error literals;
 * + - * / ^ % & = <> < > <= >=; references A1, $A$1, ranges A1:B9 and
 * cross-sheet references (Sheet2!A1, 'My sheet'!A1:B2), defined names
 * (qr_doc.names: a sheet's own, then the workbook's); SUM, AVERAGE, MIN,
 * MAX, COUNT, COUNTA, ROUND, ABS, IF, IFERROR, AND, OR, NOT, CONCAT,
 * CONCATENATE, LEN, UPPER, LOWER, TODAY, DATE, YEAR, MONTH, DAY. Errors as
 * Excel shows them: #DIV/0!, #REF!, #NAME?, #VALUE!, #N/A, #NUM!.
 *
 * A formula that uses anything else (another Excel function, an array) or
 * sits on a reference cycle gets no value: Excel and LibreOffice compute it
 * on open (the workbook asks for a full calculation). A value the spec
 * gives wins and is never recomputed.
 * TODAY is the output epoch's day, so the bytes stay deterministic.
 *
 * The work is bounded by the document's budget (qr_doc.work, budget.h): a
 * range costs the rows it spans and its cells, a string result its bytes.
 * A string result is at most QR_FORMULA_MAX_CHARS characters (Excel's cell
 * limit): a longer one is #VALUE!.
 */
#ifndef QR_FORMULA_H
#define QR_FORMULA_H

#include "buf.h"
#include <quire/error.h>
#include "tree.h"

/* Excel's limit on a cell's text, in UTF-16 units. */
#define QR_FORMULA_MAX_CHARS 32767u

/** Give every formula of doc's sheets without a spec value its computed
 *  value (has_value, value_type, num/str, is_error), strings in doc's
 *  arena. epoch: the output epoch (TODAY). Cycles are warned about (QR_OK
 *  entries in warnings, may be NULL) with the cell's JSON pointer. Returns
 *  QR_OK, QR_E_NOMEM, or QR_E_LIMIT with the budget's error in errors (may
 *  be NULL) when the work budget ran out. */
qr_status qr_formula_eval_doc(qr_doc *doc, long long epoch, qr_errlist *warnings,
                              qr_errlist *errors);

/* One evaluation, for tests: the formula text (no '='), evaluated on doc's
 * sheet `sheet`. */
typedef struct qr_fresult {
    int kind; /* QR_FR_* */
    double num;
    const char *str; /* TEXT and ERROR; in doc's arena */
} qr_fresult;
enum { QR_FR_NONE, QR_FR_NUMBER, QR_FR_BOOL, QR_FR_TEXT, QR_FR_ERROR };

/** Evaluate text as if it were in sheet `sheet` of doc. QR_FR_NONE: the
 *  evaluator cannot (unsupported function, cycle). */
qr_fresult qr_formula_eval(qr_doc *doc, size_t sheet, const char *text, long long epoch);

/* Many evaluations over one document (its cells' values cached between
 * them), as a conditional format's formula is evaluated for each cell of
 * its range: relative references move by (dr, dc), as Excel reads the
 * formula written for the range's top-left cell at every other cell. */
typedef struct qr_formula_session qr_formula_session;
/** NULL when out of memory. */
qr_formula_session *qr_formula_session_open(qr_doc *doc, long long epoch);
/** text evaluated on sheet `sheet`, its relative references moved by dr
 *  rows and dc columns (one off the grid: QR_FR_ERROR or QR_FR_NONE). */
qr_fresult qr_formula_eval_moved(qr_formula_session *s, size_t sheet, const char *text, long dr,
                                 long dc);
void qr_formula_session_close(qr_formula_session *s);

/** The formula text as a file stores it: functions newer than the format
 *  (CONCAT, TEXTJOIN, IFS, XLOOKUP...) prefixed _xlfn., outside strings.
 *  Returns 1 with the whole text appended to out, or 0 (out untouched)
 *  when the text needs no change. */
int qr_formula_file_text(const char *text, qr_buf *out);

#endif
