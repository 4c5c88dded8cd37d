/* formula_check.c: a formula's syntax and policy check (formula_check.h).
 * One pass over the text with two states, a value expected or a value just
 * read, and a stack of the open parentheses, calls and arrays; the policy is
 * checked on the tokens as they go by.
 */
#include "formula_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tree.h"

#define MAX_OPEN 256

enum { O_PAREN, O_CALL, O_ARRAY };

static const char SYNTAX_HINT[] = "check the parentheses, quotes and operators; a formula is "
                                  "like SUM(B2:B9) or A1*2";
static const char POLICY_HINT[] =
    "remove it, or set \"allow_external\": true on the workbook if the file's readers trust it";

static int fail(qr_fcheck *why, int kind, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why->message, sizeof why->message, fmt, ap);
    va_end(ap);
    why->hint = hint;
    return kind;
}

static int word_start(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '\\' || c == '$' ||
           c >= 0x80;
}

static int word_char(unsigned char c)
{
    return word_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '?';
}

/* The end of a [...] group at s[i] == '[' (nested), or n when it is open. */
static size_t bracket_end(const char *s, size_t i, size_t n)
{
    int depth = 0;
    for (; i < n; i++) {
        if (s[i] == '\'' && i + 1 < n) { /* '[ and '] escape brackets in structured refs */
            i++;
            continue;
        }
        if (s[i] == '[') depth++;
        if (s[i] == ']' && --depth == 0) return i;
    }
    return n;
}

/* Functions that fetch from the network or run code when the file opens. */
static const char *const refused[] = {"WEBSERVICE", "FILTERXML",   "RTD",
                                      "CALL",       "REGISTER.ID", NULL};

static int name_eq(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && strncasecmp(w, s, n) == 0;
}

/* The link argument of HYPERLINK/IMAGE at s[i] (spaces skipped): a string
 * literal whose text starts with an allowed scheme. */
static int link_arg_ok(const char *s, size_t i, size_t n)
{
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i] != '"') return 0;
    char buf[16];
    size_t k = 0;
    for (i++; i < n && k + 1 < sizeof buf; i++) {
        if (s[i] == '"') {
            if (i + 1 < n && s[i + 1] == '"') {
                buf[k++] = '"';
                i++;
                continue;
            }
            break;
        }
        buf[k++] = s[i];
    }
    buf[k] = '\0';
    return qr_link_ok(buf);
}

int qr_formula_check(const char *s, size_t n, int allow_external, qr_fcheck *why)
{
    unsigned char open[MAX_OPEN];
    size_t depth = 0;
    int want = 1;     /* a value is expected */
    int empty_ok = 0; /* an empty argument may come (after "F(" or "," in a call) */
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            i++;
            /* a space between two values: the intersection operator */
            if (!want && i < n &&
                (word_start((unsigned char)s[i]) || s[i] == '\'' || s[i] == '(' ||
                 (s[i] >= '0' && s[i] <= '9')))
                want = 1, empty_ok = 0;
            continue;
        }
        if (c == '|') {
            if (allow_external) { /* program|'topic'!item, allowed: the topic follows */
                i++, want = 1, empty_ok = 0;
                continue;
            }
            return fail(why, QR_FC_POLICY, POLICY_HINT,
                        "the formula is a DDE call (program|topic!item), which runs a program "
                        "when the file opens");
        }
        if (want) {
            if (c == '+' || c == '-' || c == '@') {
                i++, empty_ok = 0;
                continue;
            }
            if (c == '(' || c == '{') {
                if (depth == MAX_OPEN)
                    return fail(why, QR_FC_SYNTAX, SYNTAX_HINT,
                                "the formula nests more than %d parentheses", MAX_OPEN);
                open[depth++] = c == '(' ? O_PAREN : O_ARRAY;
                i++, empty_ok = 0;
                continue;
            }
            if ((c == ')' || c == ',') && empty_ok && depth && open[depth - 1] == O_CALL) {
                want = c == ',';
                if (c == ')') depth--;
                i++;
                continue;
            }
            if (c == '"') {
                for (i++;; i++) {
                    if (i >= n)
                        return fail(why, QR_FC_SYNTAX, "end the text with a \"",
                                    "the formula's text is not closed (a \" is missing)");
                    if (s[i] == '"') {
                        if (i + 1 < n && s[i + 1] == '"') {
                            i++;
                            continue;
                        }
                        break;
                    }
                }
                i++, want = 0;
                continue;
            }
            if (c == '\'') { /* 'Sheet name'!A1, or '[book.xlsx]Sheet'!A1 */
                int ext = 0;
                for (i++;; i++) {
                    if (i >= n)
                        return fail(why, QR_FC_SYNTAX, "end the sheet name with a '",
                                    "the formula's quoted sheet name is not closed");
                    if (s[i] == '[' || s[i] == '\\' || s[i] == '/') ext = 1;
                    if (s[i] == '\'') {
                        if (i + 1 < n && s[i + 1] == '\'') {
                            i++;
                            continue;
                        }
                        break;
                    }
                }
                i++;
                if (i >= n || s[i] != '!')
                    return fail(why, QR_FC_SYNTAX, "write 'Sheet name'!A1",
                                "a quoted sheet name is not followed by '!'");
                if (ext && !allow_external)
                    return fail(why, QR_FC_POLICY, POLICY_HINT,
                                "the formula refers to another workbook, which the file's "
                                "reader would open or fetch");
                i++;
                continue; /* the reference follows */
            }
            if (c == '[') {
                size_t e = bracket_end(s, i, n);
                if (e == n) return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "a '[' is not closed");
                int table = e - i > 1 && (s[i + 1] == '@' || s[i + 1] == '[' || s[i + 1] == '#');
                if (!table) { /* [1]Sheet1!A1, [book.xlsx]Sheet1!A1 */
                    if (!allow_external)
                        return fail(why, QR_FC_POLICY, POLICY_HINT,
                                    "the formula refers to another workbook ([...]), which the "
                                    "file's reader would open or fetch");
                    i = e + 1;
                    continue; /* the sheet and reference follow */
                }
                i = e + 1, want = 0;
                continue;
            }
            if (c == '#') { /* #N/A, #DIV/0!, #REF! ... */
                size_t j = i + 1;
                while (j < n && (word_char((unsigned char)s[j]) || s[j] == '/' || s[j] == '!'))
                    j++;
                if (j == i + 1) return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "a lone '#'");
                i = j, want = 0;
                continue;
            }
            if ((c >= '0' && c <= '9') || c == '.') {
                size_t j = i;
                while (j < n && ((s[j] >= '0' && s[j] <= '9') || s[j] == '.'))
                    j++;
                if (j < n && (s[j] == 'e' || s[j] == 'E') && j + 1 < n &&
                    ((s[j + 1] >= '0' && s[j + 1] <= '9') ||
                     ((s[j + 1] == '+' || s[j + 1] == '-') && j + 2 < n && s[j + 2] >= '0' &&
                      s[j + 2] <= '9'))) {
                    j += 2;
                    while (j < n && s[j] >= '0' && s[j] <= '9')
                        j++;
                }
                /* 1:1, A1 written $1... and 3A? a number glued to letters is a name */
                while (j < n && word_char((unsigned char)s[j]))
                    j++;
                i = j, want = 0;
                continue;
            }
            if (word_start(c)) {
                size_t j = i;
                while (j < n && word_char((unsigned char)s[j]))
                    j++;
                const char *w = s + i;
                size_t wn = j - i;
                size_t k = j;
                while (k < n && s[k] == ' ')
                    k++;
                if (k < n && s[k] == '(') {
                    if (wn > 6 &&
                        (strncasecmp(w, "_xlfn.", 6) == 0 || strncasecmp(w, "_xlws.", 6) == 0))
                        w += 6, wn -= 6;
                    if (!allow_external) {
                        for (size_t f = 0; refused[f]; f++)
                            if (name_eq(w, wn, refused[f]))
                                return fail(why, QR_FC_POLICY, POLICY_HINT,
                                            "the formula calls %s, which fetches data or runs "
                                            "code when the file opens",
                                            refused[f]);
                        if ((name_eq(w, wn, "HYPERLINK") || name_eq(w, wn, "IMAGE")) &&
                            !link_arg_ok(s, k + 1, n))
                            return fail(why, QR_FC_POLICY,
                                        "start the link with a text in http:, https: or mailto: "
                                        "(\"https://example.com/\"&A1), or set \"allow_external\": "
                                        "true on the workbook",
                                        "the formula's %.*s link is not a text starting with "
                                        "http:, https: or mailto: (the link rule)",
                                        (int)wn, w);
                    }
                    if (depth == MAX_OPEN)
                        return fail(why, QR_FC_SYNTAX, SYNTAX_HINT,
                                    "the formula nests more than %d parentheses", MAX_OPEN);
                    open[depth++] = O_CALL;
                    i = k + 1, empty_ok = 1;
                    continue;
                }
                if (j < n && s[j] == '!') { /* Sheet1!A1: the reference follows */
                    i = j + 1, empty_ok = 0;
                    continue;
                }
                if (j < n && s[j] == '[') { /* Table1[Column], Table1[[#Totals],[A]] */
                    size_t e = bracket_end(s, j, n);
                    if (e == n) return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "a '[' is not closed");
                    j = e + 1;
                }
                i = j, want = 0;
                continue;
            }
            if (c == ')' || c == ',' || c == ';' || c == '}')
                return fail(why, QR_FC_SYNTAX, SYNTAX_HINT,
                            "a value is missing before the '%c' at character %zu", c, i + 1);
            return fail(why, QR_FC_SYNTAX, SYNTAX_HINT,
                        "a value is missing at character %zu ('%c')", i + 1,
                        c >= 0x20 && c < 0x7F ? c : '?');
        }
        /* a value was read: an operator, a closer or a separator comes */
        empty_ok = 0;
        if (c == '%' || c == '#') {
            i++;
            continue;
        }
        if (c == '<' || c == '>') {
            i += i + 1 < n && (s[i + 1] == '=' || (c == '<' && s[i + 1] == '>')) ? 2 : 1;
            want = 1;
            continue;
        }
        if (strchr("+-*/^&=:", c)) {
            i++, want = 1;
            continue;
        }
        if (c == ')') {
            if (!depth || open[depth - 1] == O_ARRAY)
                return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "a ')' at character %zu closes nothing",
                            i + 1);
            depth--, i++;
            continue;
        }
        if (c == '}') {
            if (!depth || open[depth - 1] != O_ARRAY)
                return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "a '}' at character %zu closes nothing",
                            i + 1);
            depth--, i++;
            continue;
        }
        if (c == ',') {
            if (!depth)
                return fail(why, QR_FC_SYNTAX, SYNTAX_HINT,
                            "a ',' at character %zu outside a function's arguments", i + 1);
            empty_ok = open[depth - 1] == O_CALL;
            i++, want = 1;
            continue;
        }
        if (c == ';') {
            if (!depth || open[depth - 1] != O_ARRAY)
                return fail(why, QR_FC_SYNTAX, "separate a function's arguments with ','",
                            "a ';' at character %zu outside an array", i + 1);
            i++, want = 1;
            continue;
        }
        if (c == '!' || c == '(' || c == '"' || c == '{')
            return fail(why, QR_FC_SYNTAX, SYNTAX_HINT,
                        "an operator is missing before the '%c' at character %zu", c, i + 1);
        return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "unexpected '%c' at character %zu",
                    c >= 0x20 && c < 0x7F ? c : '?', i + 1);
    }
    if (want)
        return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "the formula ends where a value is expected");
    if (depth)
        return fail(why, QR_FC_SYNTAX, SYNTAX_HINT, "the formula leaves %zu %s open", depth,
                    open[depth - 1] == O_ARRAY ? "'{'" : "'('");
    return QR_FC_OK;
}
