/* formula_check.h: what the compiler asks of a formula's text before a
 * workbook is written (issue 37): that it parses, and that it keeps to the
 * formula policy.
 *
 * Parsing is checked at the level of tokens, for every formula Excel reads
 * (any function name, defined names, A1 references, ranges, whole rows and
 * columns, sheet and structured references, arrays {1,2;3,4}, spill A1#,
 * intersection by a space): parentheses and braces balance, every operator
 * has its operands, strings and quoted names end. "SUM((", "1+" and ")))"
 * do not parse.
 *
 * The policy refuses what runs or fetches something when the file is
 * opened: DDE (cmd|' /C calc'!A0), references to other workbooks
 * ([1]Sheet1!A1, '[book.xlsx]Sheet1'!A1), WEBSERVICE, FILTERXML, RTD, CALL
 * and REGISTER.ID, and HYPERLINK or IMAGE whose link does not start with a
 * text in a scheme the link rule allows (qr_link_ok: http, https, mailto).
 * A workbook with "allow_external": true lifts the policy (not the parsing).
 */
#ifndef QR_FORMULA_CHECK_H
#define QR_FORMULA_CHECK_H

#include <stddef.h>

enum { QR_FC_OK = 0, QR_FC_SYNTAX = 1, QR_FC_POLICY = 2 };

typedef struct qr_fcheck {
    char message[200];
    const char *hint;
} qr_fcheck;

/** Check the formula text (n bytes, no leading '='). Returns QR_FC_OK, or
 *  QR_FC_SYNTAX / QR_FC_POLICY with why->message and why->hint set. With
 *  allow_external the policy is not checked. */
int qr_formula_check(const char *text, size_t n, int allow_external, qr_fcheck *why);

#endif
