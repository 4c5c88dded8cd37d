/* fuzz_formula.c: bytes as a formula's text, evaluated (layout/formula.h) on a
 * small workbook of numbers, text, booleans, dates and formulas (one of
 * them on a cycle), rewritten for the file (_xlfn. names), and checked as
 * the compiler checks it (spec/formula_check.h: syntax and policy). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "formula.h"
#include "formula_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char book[] =
    "{\"sheets\":[{\"name\":\"S\",\"rows\":[[1,\"two\",true,{\"date\":\"2026-01-31\"},"
    "{\"formula\":\"A1*10\"},{\"formula\":\"G1+1\"},{\"formula\":\"F1\"}],"
    "[2.5,\"\",false,null,{\"formula\":\"SUM(A1:A2)&B1\"}]]},"
    "{\"name\":\"My sheet\",\"rows\":[[\"x\",-3,{\"formula\":\"'My sheet'!B1^2\"}]]}]}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192) return 0;
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    qr_fcheck why;
    qr_formula_check(text, size, size % 3 == 0, &why); /* the compiler's syntax and policy */
    if (qr_compile(book, sizeof book - 1, QR_KIND_SPREADSHEET, &co, &doc, &errs) == QR_OK) {
        qr_formula_eval(doc, size % 2, text, 1767225600);
        qr_formula_eval_doc(doc, 1767225600, NULL, NULL);
        qr_buf b = {0};
        qr_formula_file_text(text, &b);
        qr_buf_free(&b);
    }
    qr_errlist_clear(&errs);
    qr_doc_free(doc);
    free(text);
    return 0;
}
