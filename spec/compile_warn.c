/* compile_warn.c: warnings for likely mistakes. The spec compiles and
 * renders as written (text is literal, a sheet string is text), but models
 * often send markdown in plain text, or numbers, dates and formulas as sheet
 * strings; each such value gets one warning with its path and a hint.
 * Warnings never change the output. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compile_int.h"

void qr_cc_warn(qr_cc *cc, const char *hint, const char *fmt, ...)
{
    if (!cc->warns) return;
    if (++cc->n_warnings > QR_CC_MAX_WARNINGS) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    qr_errlist_add(cc->warns, QR_OK, cc->path ? cc->path : "", msg, hint);
}

/* ---- markdown ------------------------------------------------------------------ */

/* A closed pair of delim (1 or 2 bytes) around something not blank, at word
 * boundaries as markdown wants them: **x**, `x`, but not __init__( or 2**3**4. */
static int opens(const char *s, size_t i)
{
    return i == 0 || s[i - 1] == ' ' || strchr("(\"'[", s[i - 1]);
}

static int closes(const char *s, size_t n, size_t i)
{
    return i >= n || s[i] == ' ' || strchr(".,;:!?)\"'", s[i]);
}

static int pair(const char *s, size_t n, const char *delim)
{
    size_t d = strlen(delim);
    for (size_t i = 0; i + d < n; i++) {
        if (memcmp(s + i, delim, d) != 0 || !opens(s, i)) continue;
        size_t j = i + d;
        if (j >= n || s[j] == ' ' || memcmp(s + j, delim, d) == 0) continue;
        for (size_t k = j + 1; k + d <= n; k++)
            if (memcmp(s + k, delim, d) == 0 && s[k - 1] != ' ' && closes(s, n, k + d)) return 1;
    }
    return 0;
}

/* [text](url): a url with a scheme, a path or an anchor, no spaces. */
static int md_link(const char *s, size_t n)
{
    for (const char *p = memchr(s, ']', n); p; p = memchr(p + 1, ']', n - (size_t)(p + 1 - s))) {
        if (p + 2 >= s + n || p[1] != '(' || !memchr(s, '[', (size_t)(p - s))) continue;
        const char *u = p + 2, *end = s + n;
        if (!(strncmp(u, "http", 4) == 0 || strncmp(u, "mailto:", 7) == 0 || *u == '/' ||
              *u == '#' || strncmp(u, "www.", 4) == 0))
            continue;
        while (u < end && *u != ')' && *u != ' ')
            u++;
        if (u < end && *u == ')') return 1;
    }
    return 0;
}

/* Every markdown warning's hint ends with the way to have Markdown read as
 * Markdown: the markdown block (a slide's "markdown" body). */
#define MD_BLOCK "; or a {\"type\": \"markdown\"} block"

void qr_cc_warn_markdown(qr_cc *cc, const char *s, size_t n)
{
    if (!cc->warns || n < 2) return;
    size_t h = 0;
    while (h < n && h < 7 && s[h] == '#')
        h++;
    if (h >= 1 && h <= 6 && h < n && s[h] == ' ') {
        qr_cc_warn(cc,
                   "use a heading block: {\"type\": \"heading\", \"text\": \"...\", \"level\": "
                   "2}" MD_BLOCK,
                   "text starts with markdown heading marks \"%.*s\": rendered literally", (int)h,
                   s);
        return;
    }
    if ((s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ') {
        qr_cc_warn(cc, "use a list block: {\"type\": \"list\", \"items\": [\"...\"]}" MD_BLOCK,
                   "text starts with a markdown list marker \"%c \": rendered literally", s[0]);
        return;
    }
    size_t d = 0;
    while (d < n && d < 4 && s[d] >= '0' && s[d] <= '9')
        d++;
    /* a heading's "1. Parties" is the heading's own numbering, not a list */
    if (!cc->in_heading && d >= 1 && d <= 3 && d + 1 < n && (s[d] == '.' || s[d] == ')') &&
        s[d + 1] == ' ') {
        qr_cc_warn(cc,
                   "use a list block: {\"type\": \"list\", \"ordered\": true, \"items\": "
                   "[\"...\"]}" MD_BLOCK,
                   "text starts with a markdown list number \"%.*s\": rendered literally",
                   (int)d + 1, s);
        return;
    }
    if (memchr(s, '*', n) && pair(s, n, "**")) {
        qr_cc_warn(cc, "use runs: [{\"text\": \"...\", \"bold\": true}]" MD_BLOCK,
                   "markdown bold **...**: rendered literally, asterisks included");
        return;
    }
    if (memchr(s, '_', n) && pair(s, n, "__")) {
        qr_cc_warn(cc, "use runs: [{\"text\": \"...\", \"bold\": true}]" MD_BLOCK,
                   "markdown bold __...__: rendered literally, underscores included");
        return;
    }
    if (memchr(s, '`', n) && pair(s, n, "`")) {
        qr_cc_warn(cc, "use runs: [{\"text\": \"...\", \"code\": true}] or a code block" MD_BLOCK,
                   "markdown code `...`: rendered literally, backticks included");
        return;
    }
    if (memchr(s, ']', n) && md_link(s, n)) {
        qr_cc_warn(cc, "use runs: [{\"text\": \"...\", \"link\": \"https://...\"}]" MD_BLOCK,
                   "markdown link [text](url): rendered literally, not as a link");
        return;
    }
}

/* ---- sheet strings ---------------------------------------------------------------- */

/* "980", "-3.5", "1,200.50", ".5", "1e6": a number as a person writes it.
 * Leading zeros ("007", a code) are text on purpose. Returns 1 for a number,
 * 2 for a percentage ("12%"). */
static int numeric(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    size_t start = i, digits = 0, group = 0;
    int comma = 0;
    while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ',')) {
        if (s[i] == ',') {
            if (digits == 0 || (comma && group != 3)) return 0;
            comma = 1;
            group = 0;
        } else {
            digits++;
            group++;
        }
        i++;
    }
    if (comma && group != 3) return 0;
    if (digits > 1 && s[start] == '0' && !comma) return 0;
    size_t frac = 0;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, frac++;
    }
    if (digits + frac == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E') && !comma) {
        size_t e = ++i;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e || !(s[i - 1] >= '0' && s[i - 1] <= '9')) return 0;
    }
    if (i + 1 == n && s[i] == '%') return 2;
    return i == n;
}

/* YYYY-MM-DD, optionally with a time (T or a space). */
static int datelike(const char *s, size_t n)
{
    if (n != 10 && n != 16 && n != 19) return 0;
    static const char shape[] = "dddd-dd-dd?dd:dd:dd";
    for (size_t i = 0; i < n; i++) {
        char c = shape[i];
        if (c == 'd' && !(s[i] >= '0' && s[i] <= '9')) return 0;
        if (c == '?' && s[i] != 'T' && s[i] != ' ') return 0;
        if ((c == '-' || c == ':') && s[i] != c) return 0;
    }
    int mo = (s[5] - '0') * 10 + (s[6] - '0'), d = (s[8] - '0') * 10 + (s[9] - '0');
    return mo >= 1 && mo <= 12 && d >= 1 && d <= 31;
}

void qr_cc_warn_cell(qr_cc *cc, const char *s, size_t n, size_t r, size_t col)
{
    if (!cc->warns || !qr_cc_cell_suspect(s, n)) return;
    int what = s[0] == '=' && n > 1 ? 3 : numeric(s, n);
    if (!what && datelike(s, n)) what = 4;
    if (!what) return;
    if (cc->n_warnings >= QR_CC_MAX_WARNINGS) {
        cc->n_warnings++; /* counted for "and N more", no path built */
        return;
    }
    size_t o = qr_cc_push_index(cc, r);
    qr_cc_push_index(cc, col);
    switch (what) {
    case 1:
        qr_cc_warn(cc, "send a JSON number (980, not \"980\"); keep strings for text",
                   "\"%.40s\" reads as a number but is stored as text", s);
        break;
    case 2:
        qr_cc_warn(cc, "send {\"value\": 0.12, \"format\": \"0%\"} for a percentage",
                   "\"%.40s\" reads as a percentage but is stored as text", s);
        break;
    case 3:
        qr_cc_warn(cc, "use {\"formula\": \"...\"} for a formula",
                   "\"%.40s\" starts with '=': stored as text, not a formula", s);
        break;
    default:
        qr_cc_warn(cc, "send {\"date\": \"2026-11-30\"} for a date",
                   "\"%.40s\" reads as a date but is stored as text", s);
        break;
    }
    qr_cc_pop(cc, o);
}
