/* compile_sheet.c: spreadsheet specs. Sheets (names checked the way Excel
 * checks them), rows of compact 16-byte cells, number formats (deduplicated
 * into doc->formats), dates as Excel serials, formulas, widths and freeze
 * panes.
 *
 * Speed and memory: a sheet can hold millions of cells. Each row is
 * converted with a fast path for scalars (no path string is built unless a
 * cell is wrong), its strings are copied once into the packed string pool,
 * and then the row's jansson values are freed at once, so the peak stays
 * near the size of jansson's tree rather than twice that.
 *
 * Integers: a JSON integer beyond +-2^53 is refused (a spec error), because
 * a spreadsheet number is a double and would silently lose digits (an id
 * like 9007199254740993 would come back as ...992); the hint says to send it
 * as a string, which keeps every digit. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "compile_int.h"
#include "schema.h"
#include "casefold.h"
#include "civil.h"
#include "formula_check.h"
#include "suggest.h"

/* Keys: the schema table's (schema_table.c). */

#define EXCEL_ROWS 1048576u
#define EXCEL_COLS 16384u
#define MAX_FORMATS 65535u
#define MAX_FORMAT_LEN 255u
#define MAX_FORMULA_LEN 8192u
#define INT_EXACT 9007199254740992LL /* 2^53 */

/* ---- number formats ---------------------------------------------------------- */

typedef qr_cc_fmts fmt_table;

static uint32_t hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int fmt_grow(fmt_table *t)
{
    size_t ns = t->n_slots ? t->n_slots * 2 : 64;
    uint32_t *slots = calloc(ns, sizeof *slots);
    if (!slots) return -1;
    for (size_t i = 0; i < t->n; i++) {
        size_t h = hash(t->items[i], strlen(t->items[i])) & (ns - 1);
        while (slots[h])
            h = (h + 1) & (ns - 1);
        slots[h] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->n_slots = ns;
    return 0;
}

void qr_cc_fmts_free(qr_cc_fmts *t)
{
    qr_cc_looks_free(t);
    free(t->items);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

/* The index of format s (n bytes), adding it; -1 when memory runs out, -2
 * when the table is full. */
static long fmt_index(qr_cc *cc, fmt_table *t, const char *s, size_t n)
{
    (void)cc;
    return qr_cc_fmt_add(t, s, n);
}

long qr_cc_fmt_add(qr_cc_fmts *t, const char *s, size_t n)
{
    if ((t->n + 1) * 2 > t->n_slots && fmt_grow(t) < 0) return -1;
    size_t h = hash(s, n) & (t->n_slots - 1);
    while (t->slots[h]) {
        const char *e = t->items[t->slots[h] - 1];
        if (strlen(e) == n && memcmp(e, s, n) == 0) return (long)t->slots[h] - 1;
        h = (h + 1) & (t->n_slots - 1);
    }
    if (t->n >= MAX_FORMATS + 1) return -2;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        const char **items = realloc(t->items, cap * sizeof *items);
        if (!items) return -1;
        t->items = items;
        t->cap = cap;
    }
    const char *copy = qr_arena_strndup(t->a, s, n);
    if (!copy) return -1;
    t->items[t->n] = copy;
    t->slots[h] = (uint32_t)t->n + 1;
    return (long)t->n++;
}

/* "format" of a cell object at the current path; 1 and *fmt set, 0 absent, -1 bad. */
static int cell_format(qr_cc *cc, fmt_table *t, json_t *obj, uint16_t *fmt)
{
    json_t *f = json_object_get(obj, "format");
    if (!f) return 0;
    size_t o = qr_cc_push_key(cc, "format");
    int r = -1;
    if (!json_is_string(f)) {
        qr_cc_err(cc, "a number format is a string like \"0.00\" or \"0.0%\"",
                  "expected a string, got %s", qr_cc_type_name(f));
    } else if (json_string_length(f) == 0 || json_string_length(f) > MAX_FORMAT_LEN) {
        qr_cc_err(cc, "a number format is a string like \"0.00\" or \"0.0%\"",
                  "a number format has 1 to %u characters", MAX_FORMAT_LEN);
    } else if (memchr(json_string_value(f), '\0', json_string_length(f))) {
        qr_cc_err(cc, NULL, "strings may not contain NUL (\\u0000)");
    } else {
        long i = fmt_index(cc, t, json_string_value(f), json_string_length(f));
        if (i == -1)
            qr_cc_oom(cc);
        else if (i == -2)
            qr_cc_err(cc, "reuse formats: a workbook holds at most 65535 distinct ones",
                      "more than %u distinct number formats", MAX_FORMATS);
        else {
            *fmt = (uint16_t)i;
            r = 1;
        }
    }
    qr_cc_pop(cc, o);
    return r;
}

/* ---- dates ------------------------------------------------------------------------ */

static int digits(const char *s, int n, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return 1;
}

/* "YYYY-MM-DD", "YYYY-MM-DDTHH:MM" or "YYYY-MM-DDTHH:MM:SS" (T or a space).
 * Returns 0 and the serial, or -1 with *why. */
static int parse_date(const char *s, size_t n, double *serial, int *has_time, const char **why)
{
    unsigned y, mo, d, h = 0, mi = 0, se = 0;
    *why = "expected a date like \"2026-11-30\" or \"2026-11-30T14:05:00\"";
    if (n != 10 && n != 16 && n != 19) return -1;
    if (!digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d))
        return -1;
    *has_time = n > 10;
    if (n > 10) {
        if ((s[10] != 'T' && s[10] != ' ') || !digits(s + 11, 2, &h) || s[13] != ':' ||
            !digits(s + 14, 2, &mi))
            return -1;
        if (n == 19 && (s[16] != ':' || !digits(s + 17, 2, &se))) return -1;
    }
    static const unsigned mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] + (mo == 2 && leap)) {
        *why = "no such day in the calendar";
        return -1;
    }
    if (h > 23 || mi > 59 || se > 59) {
        *why = "no such time of day (hours 00-23, minutes and seconds 00-59)";
        return -1;
    }
    /* Excel's 1900 system counts from 1899-12-30 (25569 days before 1970)
     * and believes 1900-02-29 existed, so serials agree with the calendar
     * only from 1900-03-01 (serial 61). */
    long days = (long)qr_days_from_civil((long long)y, mo, d) + 25569;
    if (days < 61) {
        *why = "dates before 1900-03-01 cannot be Excel dates (the 1900 date system counts a "
               "29 February 1900 that never existed)";
        return -1;
    }
    *serial = (double)days + (double)(h * 3600 + mi * 60 + se) / 86400.0;
    return 0;
}

/* ---- cells ------------------------------------------------------------------------ */

/* Excel's limit on a cell's text, in UTF-16 code units (as Excel counts). */
#define MAX_CELL_CHARS 32767

static size_t utf16_units(const char *s, size_t n)
{
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch & 0xC0) != 0x80) u += ch >= 0xF0 ? 2 : 1;
    }
    return u;
}

/* A scalar value (cached formula value or "value"): NUMBER, BOOL or TEXT.
 * Returns the type, or EMPTY for null, or -1 (reported at the current path). */
static int scalar(qr_cc *cc, json_t *v, double *num, const char **str, size_t *len)
{
    switch (json_typeof(v)) {
    case JSON_INTEGER: {
        json_int_t i = json_integer_value(v);
        if (i > INT_EXACT || i < -INT_EXACT) {
            qr_cc_err(cc, "send it as a string to keep every digit",
                      "the integer %" JSON_INTEGER_FORMAT
                      " is beyond +-2^53 and would lose digits as a spreadsheet number",
                      i);
            return -1;
        }
        *num = (double)i;
        return QR_CELL_NUMBER;
    }
    case JSON_REAL:
        *num = json_real_value(v);
        return QR_CELL_NUMBER;
    case JSON_TRUE:
        *num = 1;
        return QR_CELL_BOOL;
    case JSON_FALSE:
        *num = 0;
        return QR_CELL_BOOL;
    case JSON_NULL:
        return QR_CELL_EMPTY;
    case JSON_STRING:
        *str = qr_cc_str(cc, v, len);
        if (!*str) return -1;
        if (*len > MAX_CELL_CHARS && utf16_units(*str, *len) > MAX_CELL_CHARS) {
            qr_cc_err(cc, "split the text over several cells",
                      "a cell holds at most 32,767 characters (Excel's limit); this one has %zu",
                      utf16_units(*str, *len));
            return -1;
        }
        if (*len > UINT32_MAX) {
            qr_cc_limit(cc, "max_string", "a cell string of %zu bytes", *len);
            return -1;
        }
        return QR_CELL_TEXT;
    case JSON_ARRAY:
    case JSON_OBJECT:
        break;
    }
    qr_cc_err(cc, "a value is a number, a string or true/false", "expected a scalar, got %s",
              qr_cc_type_name(v));
    return -1;
}

static int parse_ref(const char *s, int *row, int *col);
static int parse_range(const char *s, qr_range *rg, const char **why);

/* ---- names a formula uses -------------------------------------------------------- */

/* Whether formula text s names something besides functions, cell
 * references, sheets and literals: a defined name or a table, which the
 * workbook must define (checked by formula_names once every name is
 * known). */
static int ident_start(unsigned char c)
{
    return isalpha(c) || c == '_' || c == '\\' || c >= 0x80;
}
static int ident_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '\\' || c == '$' || c >= 0x80;
}

/* Call fn(arg, word, len, table) for each name formula s (n bytes) uses
 * (table: it is followed by '[', a structured reference); stops when fn
 * returns nonzero and returns that. */
static int formula_idents(const char *s, size_t n, int (*fn)(void *, const char *, size_t, int),
                          void *arg)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"') { /* a text: "" is a quote */
            for (i++; i < n; i++)
                if (s[i] == '"' && !(i + 1 < n && s[i + 1] == '"' && ++i)) break;
            i++;
            continue;
        }
        if (c == '\'') { /* a quoted sheet name, then its reference */
            for (i++; i < n; i++)
                if (s[i] == '\'' && !(i + 1 < n && s[i + 1] == '\'' && ++i)) break;
            i++;
            if (i < n && s[i] == '!') {
                i++;
                while (i < n && (ident_char((unsigned char)s[i]) || s[i] == ':'))
                    i++;
            }
            continue;
        }
        if (c == '[') { /* a structured reference's items */
            int depth = 0;
            for (; i < n; i++) {
                if (s[i] == '\'' && i + 1 < n) {
                    i++;
                    continue;
                }
                if (s[i] == '[') depth++;
                if (s[i] == ']' && --depth == 0) break;
            }
            i++;
            continue;
        }
        if (c == '#') { /* an error literal: #N/A, #REF! */
            for (i++; i < n && (isalnum((unsigned char)s[i]) || s[i] == '/' || s[i] == '!' ||
                                s[i] == '?' || s[i] == '0');
                 i++)
                ;
            continue;
        }
        if (isdigit(c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            while (i < n &&
                   (isalnum((unsigned char)s[i]) || s[i] == '.' ||
                    ((s[i] == '+' || s[i] == '-') && (s[i - 1] == 'E' || s[i - 1] == 'e'))))
                i++;
            continue;
        }
        if (!(ident_start(c) || c == '$')) {
            i++;
            continue;
        }
        size_t w = i;
        while (i < n && ident_char((unsigned char)s[i]))
            i++;
        size_t wn = i - w, j = i;
        while (j < n && s[j] == ' ')
            j++;
        int prev_colon = w > 0 && s[w - 1] == ':';
        if (j < n && s[j] == '|') { /* DDE: the policy (allow_external) decides */
            i = j + 1;
            continue;
        }
        if (j < n && (s[j] == '(' || s[j] == '!')) { /* a function, or a sheet */
            if (s[j] == '!') {
                i = j + 1;
                while (i < n && (ident_char((unsigned char)s[i]) || s[i] == ':'))
                    i++;
            }
            continue;
        }
        char word[64];
        size_t k = 0;
        for (size_t x = w; x < w + wn && k + 1 < sizeof word; x++)
            if (s[x] != '$') word[k++] = s[x];
        word[k] = '\0';
        if (k == 0 || wn >= sizeof word) continue;
        int r, col;
        size_t letters = 0;
        while (letters < k && isalpha((unsigned char)word[letters]))
            letters++;
        if (parse_ref(word, &r, &col) == 0) continue;                                   /* B2 */
        if (letters == k && k <= 3 && ((j < n && s[j] == ':') || prev_colon)) continue; /* A:C */
        if (strcasecmp(word, "TRUE") == 0 || strcasecmp(word, "FALSE") == 0) continue;
        if (!ident_start((unsigned char)word[0])) continue;
        int res = fn(arg, s + w, wn, j < n && s[j] == '[');
        if (res) return res;
    }
    return 0;
}

static int any_name(void *arg, const char *w, size_t n, int table)
{
    (void)arg, (void)w, (void)n, (void)table;
    return 1;
}

/* A formula naming something (a defined name or a table) into cc->fnames,
 * checked when every name is known (LET and LAMBDA make names of their
 * own: those formulas are left to the office suite). */
static void note_formula_names(qr_cc *cc, const qr_formula *f, size_t n)
{
    if (!formula_idents(f->text, n, any_name, NULL)) return;
    for (const char *p = f->text; (p = strchr(p, '(')) != NULL; p++) {
        size_t b = (size_t)(p - f->text);
        if ((b >= 3 && strncasecmp(p - 3, "LET", 3) == 0) ||
            (b >= 6 && strncasecmp(p - 6, "LAMBDA", 6) == 0))
            return;
    }
    if (cc->n_fnames == cc->cap_fnames) {
        size_t cap = cc->cap_fnames ? cc->cap_fnames * 2 : 16;
        qr_cc_fname *t = realloc(cc->fnames, cap * sizeof *t);
        if (!t) return qr_cc_oom(cc);
        cc->fnames = t;
        cc->cap_fnames = cap;
    }
    size_t o = qr_cc_push_key(cc, "formula");
    cc->fnames[cc->n_fnames++] = (qr_cc_fname){f->text, qr_cc_path(cc), cc->cur_sheet};
    qr_cc_pop(cc, o);
}

typedef struct name_chk {
    qr_cc *cc;
    const qr_sheet *ss;
    size_t n_sheets, sheet;
} name_chk;

static int known_table(const name_chk *k, const char *w, size_t n)
{
    for (size_t i = 0; i < k->n_sheets; i++)
        for (size_t j = 0; j < k->ss[i].n_tables; j++)
            if (strlen(k->ss[i].tables[j].name) == n &&
                strncasecmp(k->ss[i].tables[j].name, w, n) == 0)
                return 1;
    return 0;
}

static int check_name(void *arg, const char *w, size_t n, int table)
{
    name_chk *k = arg;
    const qr_doc *doc = k->cc->doc;
    if (known_table(k, w, n)) return 0;
    for (size_t i = 0; !table && i < doc->n_names; i++)
        if ((doc->names[i].scope < 0 || (size_t)doc->names[i].scope == k->sheet) &&
            strlen(doc->names[i].name) == n && strncasecmp(doc->names[i].name, w, n) == 0)
            return 0;
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), w);
    const char *cands[129];
    size_t nc = 0;
    for (size_t i = 0; i < doc->n_names && nc < 64; i++)
        if (!table && (doc->names[i].scope < 0 || (size_t)doc->names[i].scope == k->sheet))
            cands[nc++] = doc->names[i].name;
    for (size_t i = 0; i < k->n_sheets && nc < 128; i++)
        for (size_t j = 0; j < k->ss[i].n_tables && nc < 128; j++)
            cands[nc++] = k->ss[i].tables[j].name;
    cands[nc] = NULL;
    const char *dym = qr_suggest(word, cands);
    char h[200];
    if (dym)
        snprintf(h, sizeof h, "did you mean \"%s\"?", dym);
    else if (table)
        snprintf(h, sizeof h, "name one of the workbook's \"tables\"");
    else
        snprintf(h, sizeof h,
                 "define it in \"names\": {\"%s\": \"Sheet1!$B$2:$B$13\"}, or quote a "
                 "text: \"\\\"%s\\\"\"",
                 word, word);
    qr_cc_err(k->cc, h, "the formula uses %s \"%s\", which the workbook does not define",
              table ? "the table" : "the name", word);
    return 0;
}

/* The names and tables the workbook's formulas use exist. */
static void formula_names(qr_cc *cc, const qr_sheet *ss, size_t n)
{
    name_chk k = {cc, ss, n, 0};
    char *save = cc->path;
    size_t plen = cc->plen;
    for (size_t i = 0; i < cc->n_fnames; i++) {
        const qr_cc_fname *f = &cc->fnames[i];
        k.sheet = f->sheet;
        cc->path = (char *)f->path;
        cc->plen = strlen(f->path);
        formula_idents(f->text, strlen(f->text), check_name, &k);
    }
    cc->path = save;
    cc->plen = plen;
    cc->n_fnames = 0;
}

/* ---- links and comments ------------------------------------------------------------ */

#define MAX_LINK 2079u     /* Excel's longest hyperlink address */
#define MAX_COMMENT 32767u /* a comment's text, as a cell's */
#define LINK_HINT                                                                                  \
    "a link is \"https://example.com\", \"mailto:ana@example.com\" or a place in the workbook: "   \
    "\"#'Sheet 2'!A1\""

/* "Sheet!A1", "'My sheet'!A1:B2" or "A1": the sheet (unquoted, '' as ',
 * "" when none) into sheet and the cell or range after it into *ref;
 * 0, or -1 when the quotes are not closed. */
static int split_sheet_ref(const char *s, char *sheet, size_t size, const char **ref)
{
    const char *bang = strrchr(s, '!');
    size_t k = 0;
    *ref = s;
    sheet[0] = '\0';
    if (!bang) return s[0] == '\'' ? -1 : 0;
    const char *p = s;
    if (*p == '\'') {
        for (p++; p < bang && k + 1 < size; p++) {
            if (*p == '\'' && p[1] == '\'')
                p++;
            else if (*p == '\'')
                break;
            sheet[k++] = *p;
        }
        if (p != bang - 1 || *p != '\'') return -1;
    } else {
        for (; p < bang && k + 1 < size; p++)
            sheet[k++] = *p;
    }
    sheet[k] = '\0';
    *ref = bang + 1;
    return 0;
}

/* The sheet of the workbook named sheet (ignoring case), or -1 after an
 * error with a did-you-mean at the current path. */
static long sheet_named(qr_cc *cc, const char *sheet, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcasecmp(names[i], sheet) == 0) return (long)i;
    const char *cands[65];
    size_t nc = 0;
    for (size_t j = 0; j < n && nc < 64; j++)
        if (names[j]) cands[nc++] = names[j];
    cands[nc] = NULL;
    const char *dym = qr_suggest(sheet, cands);
    char h[160];
    if (dym)
        snprintf(h, sizeof h, "did you mean \"%s\"?", dym);
    else
        snprintf(h, sizeof h, "name one of the workbook's sheets");
    qr_cc_err(cc, h, "no sheet \"%.64s\"", sheet);
    return -1;
}

/* A place in the workbook after a link's '#': 0 or -1 (reported). */
static int link_place(qr_cc *cc, const char *s)
{
    char sheet[128], ref[40];
    const char *rs;
    if (split_sheet_ref(s, sheet, sizeof sheet, &rs) < 0) {
        qr_cc_err(cc, LINK_HINT, "the sheet's quotes are not closed in \"#%.40s\"", s);
        return -1;
    }
    size_t k = 0;
    for (const char *p = rs; *p && k + 1 < sizeof ref; p++)
        if (*p != '$') ref[k++] = *p;
    ref[k] = '\0';
    int r, c;
    qr_range rg;
    const char *why;
    if (strlen(rs) >= 32 || (parse_ref(ref, &r, &c) < 0 && parse_range(ref, &rg, &why) < 0)) {
        qr_cc_err(cc, LINK_HINT, "expected a cell or a range after '#'%s, got \"#%.40s\"",
                  sheet[0] ? " and the sheet" : "", s);
        return -1;
    }
    if (sheet[0] && cc->sheet_names &&
        sheet_named(cc, sheet, cc->sheet_names, cc->n_sheet_names) < 0)
        return -1;
    return 0;
}

/* A cell object's "link" and "comment" (the current path is the cell's),
 * recorded in cc->cnotes for row r of the spec's rows, column col; *link
 * the link (NULL none). Returns 1 (recorded), 0 (none) or -1 (reported). */
static int cell_note(qr_cc *cc, json_t *v, size_t r, size_t col, const char **link)
{
    json_t *lk = json_object_get(v, "link"), *cm = json_object_get(v, "comment");
    *link = NULL;
    if (!lk && !cm) return 0;
    qr_cell_note nt = {.row = (uint32_t)r, .col = (uint32_t)col};
    int bad = 0;
    if (lk) {
        size_t o = qr_cc_push_key(cc, "link");
        const char *s = json_is_string(lk) ? json_string_value(lk) : NULL;
        size_t n = s ? json_string_length(lk) : 0;
        if (!s) {
            qr_cc_err(cc, LINK_HINT, "expected a string, got %s", qr_cc_type_name(lk));
            bad = 1;
        } else if (n == 0 || n > MAX_LINK || memchr(s, '\0', n)) {
            qr_cc_err(cc, LINK_HINT, "a link has 1 to %u characters (Excel's limit), got %zu",
                      MAX_LINK, n);
            bad = 1;
        } else if (s[0] == '#') {
            bad = link_place(cc, s + 1) < 0;
        } else if (!qr_link_ok(s)) {
            qr_cc_err(cc, LINK_HINT,
                      "a link is https:, http:, mailto: or a place in the workbook (#Sheet!A1), "
                      "got \"%.40s\"",
                      s);
            bad = 1;
        }
        if (!bad && !(nt.link = qr_cc_strndup(cc, s, n))) bad = 1;
        qr_cc_pop(cc, o);
    }
    if (cm) {
        size_t o = qr_cc_push_key(cc, "comment");
        const char *s = json_is_string(cm) ? json_string_value(cm) : NULL;
        size_t n = s ? json_string_length(cm) : 0;
        if (!s) {
            qr_cc_err(cc, "a comment is a text: \"Source: the 2025 annual report\"",
                      "expected a string, got %s", qr_cc_type_name(cm));
            bad = 1;
        } else if (n == 0 || memchr(s, '\0', n) ||
                   (n > MAX_COMMENT && utf16_units(s, n) > MAX_COMMENT)) {
            qr_cc_err(cc, "leave the comment out, or shorten it",
                      "a comment has 1 to %u characters", MAX_COMMENT);
            bad = 1;
        } else if (!(nt.comment = qr_cc_str(cc, cm, &n))) {
            bad = 1;
        }
        qr_cc_pop(cc, o);
    }
    if (bad) return -1;
    if (cc->n_cnotes == cc->cap_cnotes) {
        size_t cap = cc->cap_cnotes ? cc->cap_cnotes * 2 : 16;
        qr_cell_note *t = realloc(cc->cnotes, cap * sizeof *t);
        if (!t) return qr_cc_oom(cc), -1;
        cc->cnotes = t;
        cc->cap_cnotes = cap;
    }
    cc->cnotes[cc->n_cnotes++] = nt;
    *link = nt.link;
    return 1;
}

/* The text a cell with a link and no value shows: the link without its
 * '#' or "mailto:". */
static const char *link_text(const char *link, size_t *len)
{
    if (link[0] == '#') link++;
    if (strncasecmp(link, "mailto:", 7) == 0) link += 7;
    *len = strlen(link);
    return link;
}

/* A cell object at the current path (row r of the spec's rows, column col). */
static int cell_object(qr_cc *cc, fmt_table *ft, json_t *v, qr_cell *c, size_t r, size_t col)
{
    int unk = qr_cc_check_obj(cc, v, QR_SO_CELL, "a cell object");
    int bad = unk > 0;
    json_t *value = json_object_get(v, "value");
    json_t *date = json_object_get(v, "date");
    json_t *formula = json_object_get(v, "formula");
    uint16_t fmt = 0;
    int fr = cell_format(cc, ft, v, &fmt);
    if (fr < 0) bad = 1;
    const char *link = NULL;
    int nr = cell_note(cc, v, r, col, &link);
    if (nr < 0) bad = 1;
    unsigned look = 0;
    int lr = qr_cc_look_link(cc, ft, v, json_object_get(v, "link") != NULL, &look);
    if (lr < 0) bad = 1;
    qr_cell_set_look(c, look);
    if (date && (value || formula)) {
        qr_cc_err(cc, "a cell is one of {\"value\"}, {\"date\"} or {\"formula\", \"value\"?}",
                  "\"date\" cannot be combined with \"%s\"", value ? "value" : "formula");
        return -1;
    }
    if (formula) {
        size_t o = qr_cc_push_key(cc, "formula");
        const char *s = NULL;
        size_t n = 0;
        if (!json_is_string(formula)) {
            qr_cc_err(cc, "a formula is a string like \"SUM(B2:B9)\"", "expected a string, got %s",
                      qr_cc_type_name(formula));
        } else if ((s = qr_cc_str(cc, formula, &n)) != NULL) {
            if (n && s[0] == '=') s++, n--;
            if (n == 0) {
                qr_cc_err(cc, "write the formula without or with a leading '=': \"SUM(B2:B9)\"",
                          "the formula is empty");
                s = NULL;
            } else if (n > MAX_FORMULA_LEN) {
                qr_cc_err(cc, NULL, "a formula has at most %u characters (Excel's limit)",
                          MAX_FORMULA_LEN);
                s = NULL;
            } else {
                qr_fcheck why;
                int fc = qr_formula_check(s, n, cc->allow_external > 0, &why);
                if (fc == QR_FC_POLICY && cc->allow_external < 0) {
                    cc->policy_later = 1; /* the workbook's key is not read yet */
                } else if (fc != QR_FC_OK) {
                    qr_cc_err(cc, why.hint, "%s", why.message);
                    s = NULL;
                }
            }
        }
        qr_cc_pop(cc, o);
        if (!s) return -1;
        qr_formula *f = qr_arena_alloc(cc->a, sizeof *f);
        if (!f) return qr_cc_oom(cc), -1;
        f->text = s;
        note_formula_names(cc, f, n);
        if (value) {
            o = qr_cc_push_key(cc, "value");
            size_t len = 0;
            int t = scalar(cc, value, &f->num, &f->str, &len);
            qr_cc_pop(cc, o);
            if (t < 0) return -1;
            if (t != QR_CELL_EMPTY) {
                f->has_value = 1;
                f->value_type = (qr_cell_type)t;
            }
        }
        c->type = QR_CELL_FORMULA;
        c->fmt = fmt;
        c->v.formula = f;
        return bad ? -1 : 0;
    }
    if (date) {
        size_t o = qr_cc_push_key(cc, "date");
        const char *why = NULL;
        double serial = 0;
        int has_time = 0;
        int ok = 0;
        if (!json_is_string(date))
            qr_cc_err(cc, "a date is a string like \"2026-11-30\"", "expected a string, got %s",
                      qr_cc_type_name(date));
        else if (parse_date(json_string_value(date), json_string_length(date), &serial, &has_time,
                            &why) < 0)
            qr_cc_err(cc, "use \"YYYY-MM-DD\" or \"YYYY-MM-DDTHH:MM:SS\"; send older dates as text",
                      "%s, got \"%.40s\"", why, json_string_value(date));
        else
            ok = 1;
        qr_cc_pop(cc, o);
        if (!ok) return -1;
        if (fr == 0) {
            const char *df = has_time ? "yyyy-mm-dd hh:mm:ss" : "yyyy-mm-dd";
            long i = fmt_index(cc, ft, df, strlen(df));
            if (i < 0) return qr_cc_oom(cc), -1;
            fmt = (uint16_t)i;
        }
        c->type = QR_CELL_DATE;
        c->fmt = fmt;
        c->v.num = serial;
        return bad ? -1 : 0;
    }
    if (!value && link) { /* a link alone shows its address */
        size_t n;
        const char *t = link_text(link, &n);
        c->type = QR_CELL_TEXT;
        c->fmt = fmt;
        c->v.str = t;
        c->len = (uint32_t)n;
        return bad ? -1 : 0;
    }
    if (!value && (lr > 0 || nr > 0) && !fr) { /* a styled or commented empty cell */
        c->type = QR_CELL_EMPTY;
        return bad ? -1 : 0;
    }
    if (!value) {
        if (unk || nr < 0) return -1; /* the unknown key is most likely it, misspelt */
        qr_cc_err(cc,
                  "write {\"value\": 0.25, \"format\": \"0.0%\"}, {\"date\": \"2026-11-30\"} "
                  "or {\"formula\": \"SUM(B2:B9)\"}",
                  "a cell object needs \"value\", \"date\" or \"formula\"");
        return -1;
    }
    size_t o = qr_cc_push_key(cc, "value");
    double num = 0;
    const char *str = NULL;
    size_t len = 0;
    int t = scalar(cc, value, &num, &str, &len);
    qr_cc_pop(cc, o);
    if (t < 0) return -1;
    c->type = (uint8_t)t;
    c->fmt = fmt;
    if (t == QR_CELL_TEXT) {
        c->v.str = str;
        c->len = (uint32_t)len;
    } else {
        c->v.num = num;
    }
    return bad ? -1 : 0;
}

/* Convert one cell. The path is only built when something is wrong. */
static inline int cell(qr_cc *cc, fmt_table *ft, json_t *v, qr_cell *c, size_t r, size_t col)
{
    size_t o;
    int res;
    switch (json_typeof(v)) {
    case JSON_STRING: {
        size_t n = json_string_length(v);
        const char *s = json_string_value(v);
        if ((cc->lim->max_string && n > cc->lim->max_string) || n > UINT32_MAX ||
            memchr(s, '\0', n) || (n > MAX_CELL_CHARS && utf16_units(s, n) > MAX_CELL_CHARS))
            break; /* the slow path reports it */
        c->type = QR_CELL_TEXT;
        c->len = (uint32_t)n;
        c->v.str = qr_cc_strndup(cc, s, n);
        if (cc->warns && qr_cc_cell_suspect(s, n)) qr_cc_warn_cell(cc, s, n, r, col);
        return c->v.str ? 0 : -1;
    }
    case JSON_INTEGER: {
        json_int_t i = json_integer_value(v);
        if (i > INT_EXACT || i < -INT_EXACT) break;
        c->type = QR_CELL_NUMBER;
        c->v.num = (double)i;
        return 0;
    }
    case JSON_REAL:
        c->type = QR_CELL_NUMBER;
        c->v.num = json_real_value(v);
        return 0;
    case JSON_TRUE:
    case JSON_FALSE:
        c->type = QR_CELL_BOOL;
        c->v.num = json_is_true(v);
        return 0;
    case JSON_NULL:
        c->type = QR_CELL_EMPTY;
        return 0;
    case JSON_ARRAY:
    case JSON_OBJECT:
        break;
    }
    o = qr_cc_push_index(cc, r);
    qr_cc_push_index(cc, col);
    if (json_is_array(v)) {
        qr_cc_err(cc,
                  "put one value per cell; for a formatted value use {\"value\": 0.25, \"format\": "
                  "\"0.0%\"}",
                  "a cell cannot be an array");
        res = -1;
    } else if (json_is_object(v)) {
        res = cell_object(cc, ft, v, c, r, col);
    } else {
        double num;
        const char *str = NULL;
        size_t len = 0;
        res = scalar(cc, v, &num, &str, &len) < 0 ? -1 : 0;
    }
    qr_cc_pop(cc, o);
    return res;
}

/* ---- rows --------------------------------------------------------------------------- */

/* A row object {"style": ..., look properties, "cells": [...]}: its look
 * into dst, its cells array returned (NULL: reported). */
static json_t *row_object(qr_cc *cc, qr_cc_fmts *ft, json_t *row, size_t r, qr_row *dst)
{
    size_t o = qr_cc_push_index(cc, r);
    int bad = qr_cc_check_obj(cc, row, QR_SO_ROW, "a row object") > 0;
    unsigned look = 0;
    if (qr_cc_look(cc, ft, row, &look) < 0) bad = 1;
    dst->look = (uint16_t)look;
    int hidden = 0, outline = 0;
    if (qr_cc_get_bool(cc, row, "hidden", &hidden) < 0) bad = 1;
    if (qr_cc_get_int(cc, row, "outline", 0, 7, &outline) < 0) bad = 1;
    dst->hidden = (uint8_t)hidden;
    dst->outline = (uint8_t)outline;
    json_t *cells = json_object_get(row, "cells");
    if (!cells) {
        if (!bad)
            qr_cc_missing(cc, "cells", "a row object is {\"style\": \"total\", \"cells\": [...]}");
        bad = 1;
    } else if (!json_is_array(cells)) {
        qr_cc_err_key(cc, "cells", "cells is an array of cells: [\"Total\", 1200.5]",
                      "expected an array of cells, got %s", qr_cc_type_name(cells));
        bad = 1;
    }
    qr_cc_pop(cc, o);
    return bad ? NULL : cells;
}

int qr_cc_sheet_row(qr_cc *cc, qr_cc_fmts *ft, json_t *row, size_t r, qr_row *dst, size_t *n_cols)
{
    if (json_is_object(row)) {
        json_t *cells = row_object(cc, ft, row, r, dst);
        if (!cells) return 0;
        /* the cells' paths are rows/r/cells/c */
        size_t o = qr_cc_push_index(cc, r);
        qr_cc_push_key(cc, "cells");
        size_t n = json_array_size(cells);
        int res = 0;
        if (n > EXCEL_COLS) {
            qr_cc_err(cc, NULL, "%zu cells; a row has at most %u (Excel's limit)", n, EXCEL_COLS);
        } else if (!qr_cc_count_cells(cc, n)) {
            res = -1;
        } else if (n) {
            qr_cell *cs = qr_arena_array(cc->a, n, sizeof *cs);
            if (!cs) {
                qr_cc_oom(cc);
                res = -1;
            } else {
                for (size_t c = 0; c < n; c++) { /* styled rows are few: the slow path */
                    json_t *v = json_array_get(cells, c);
                    size_t o2 = qr_cc_push_index(cc, c);
                    if (json_is_array(v)) {
                        qr_cc_err(cc, "put one value per cell", "a cell cannot be an array");
                    } else if (json_is_object(v)) {
                        cell_object(cc, ft, v, &cs[c], r, c);
                    } else {
                        double num = 0;
                        const char *str = NULL;
                        size_t len = 0;
                        int t = scalar(cc, v, &num, &str, &len);
                        if (t >= 0) {
                            cs[c].type = (uint8_t)t;
                            if (t == QR_CELL_TEXT)
                                cs[c].v.str = str, cs[c].len = (uint32_t)len;
                            else
                                cs[c].v.num = num;
                        }
                    }
                    qr_cc_pop(cc, o2);
                }
                dst->cells = cs;
                dst->n = (uint32_t)n;
                if (n > *n_cols) *n_cols = n;
            }
        }
        qr_cc_pop(cc, o);
        return res;
    }
    if (!json_is_array(row)) {
        size_t o2 = qr_cc_push_index(cc, r);
        qr_cc_err(cc,
                  "a row is an array of cells: [\"EMEA\", 1200.5, null, true], or {\"style\": "
                  "\"total\", \"cells\": [...]}",
                  "expected an array of cells, got %s", qr_cc_type_name(row));
        qr_cc_pop(cc, o2);
        return 0;
    }
    size_t n = json_array_size(row);
    if (n > EXCEL_COLS) {
        size_t o2 = qr_cc_push_index(cc, r);
        qr_cc_err(cc, NULL, "%zu cells; a row has at most %u (Excel's limit)", n, EXCEL_COLS);
        qr_cc_pop(cc, o2);
        return 0;
    }
    if (!qr_cc_count_cells(cc, n)) return -1;
    if (n) {
        qr_cell *cells = qr_arena_array(cc->a, n, sizeof *cells);
        if (!cells) {
            qr_cc_oom(cc);
            return -1;
        }
        for (size_t c = 0; c < n; c++)
            cell(cc, ft, json_array_get(row, c), &cells[c], r, c);
        dst->cells = cells;
        dst->n = (uint32_t)n;
        if (n > *n_cols) *n_cols = n;
    }
    return 0;
}

/* ---- sheet names ---------------------------------------------------------------- */

static int name_error(const char *s, size_t n, const char **why)
{
    size_t cps = 0;
    int blank = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch & 0xC0) != 0x80) cps++;
        if (ch != ' ') blank = 0;
        if (ch < 0x20 || ch == 0x7F) {
            *why = "a sheet name cannot hold control characters";
            return 1;
        }
        if (strchr("[]:*?/\\", ch)) {
            *why = "a sheet name cannot hold any of [ ] : * ? / \\";
            return 1;
        }
    }
    if (n == 0 || blank) {
        *why = "a sheet name cannot be blank";
        return 1;
    }
    if (cps > 31) {
        *why = "a sheet name has at most 31 characters";
        return 1;
    }
    if (s[0] == '\'' || s[n - 1] == '\'') {
        *why = "a sheet name cannot begin or end with an apostrophe";
        return 1;
    }
    if (n == 7 && strncasecmp(s, "History", 7) == 0) {
        *why = "\"History\" is reserved by Excel";
        return 1;
    }
    return 0;
}

typedef struct name_ref {
    char *folded;
    size_t index;
} name_ref;

static int name_cmp(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    int c = strcmp(x->folded, y->folded);
    if (c) return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Excel compares sheet names ignoring case across Unicode ("É" is "é"). */
static char *fold(const char *s)
{
    return qr_casefold_utf8(s, strlen(s));
}

static int name_taken(const name_ref *refs, size_t n, const char *folded)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(refs[mid].folded, folded);
        if (c == 0) return 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

/* Validate the explicit names, reject duplicates (ignoring case), and give
 * unnamed sheets "SheetN": N is the 1-based index, bumped past any name in
 * use. names[i] is set for every sheet. */
static void sheet_names(qr_cc *cc, json_t *sheets, const char **names)
{
    size_t n = json_array_size(sheets), m = 0;
    name_ref *refs = calloc(n ? n : 1, sizeof *refs);
    if (!refs) {
        qr_cc_oom(cc);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *sh = json_array_get(sheets, i);
        json_t *nm = json_is_object(sh) ? json_object_get(sh, "name") : NULL;
        if (!nm) continue;
        size_t o = qr_cc_push_index(cc, i);
        qr_cc_push_key(cc, "name");
        const char *why;
        if (!json_is_string(nm)) {
            qr_cc_err(cc, "a sheet name is a string like \"Q3\"", "expected a string, got %s",
                      qr_cc_type_name(nm));
        } else if (name_error(json_string_value(nm), json_string_length(nm), &why)) {
            qr_cc_err(cc, "Excel sheet names: 1-31 characters, none of [ ] : * ? / \\",
                      "bad sheet name \"%.64s\": %s", json_string_value(nm), why);
        } else {
            names[i] = qr_cc_str(cc, nm, NULL);
            refs[m].folded = fold(json_string_value(nm));
            refs[m].index = i;
            if (!refs[m].folded)
                qr_cc_oom(cc);
            else
                m++;
        }
        qr_cc_pop(cc, o);
    }
    qsort(refs, m, sizeof *refs, name_cmp);
    /* Duplicates: the first sheet (lowest index) keeps the name; report the
     * others in index order. */
    unsigned char *dup = calloc(n ? n : 1, 1);
    size_t *first = calloc(n ? n : 1, sizeof *first);
    if (!dup || !first) qr_cc_oom(cc);
    for (size_t k = 1; dup && first && k < m; k++) {
        if (strcmp(refs[k].folded, refs[k - 1].folded) == 0) {
            dup[refs[k].index] = 1;
            first[refs[k].index] =
                dup[refs[k - 1].index] ? first[refs[k - 1].index] : refs[k - 1].index;
        }
    }
    for (size_t i = 0; dup && first && i < n; i++) {
        if (!dup[i]) continue;
        size_t o = qr_cc_push_index(cc, i);
        qr_cc_push_key(cc, "name");
        qr_cc_err(cc, "sheet names must be unique, ignoring case",
                  "sheet name \"%.64s\" is already used by sheet %zu", names[i], first[i]);
        qr_cc_pop(cc, o);
    }
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *sh = json_array_get(sheets, i);
        if (names[i] || (json_is_object(sh) && json_object_get(sh, "name"))) continue;
        size_t k = next > i + 1 ? next : i + 1;
        char buf[40];
        for (;; k++) {
            snprintf(buf, sizeof buf, "sheet%zu", k);
            if (!name_taken(refs, m, buf)) break;
        }
        next = k + 1;
        snprintf(buf, sizeof buf, "Sheet%zu", k);
        names[i] = qr_cc_strndup(cc, buf, strlen(buf));
    }
    for (size_t k = 0; k < m; k++)
        free(refs[k].folded);
    free(refs);
    free(dup);
    free(first);
}

/* ---- sheets ------------------------------------------------------------------------- */

/* "A2" -> row 1, col 0 (the counts of frozen rows and columns). */
static int parse_ref(const char *s, int *row, int *col)
{
    size_t i = 0;
    unsigned long c = 0, r = 0;
    while (isalpha((unsigned char)s[i]) && i < 3)
        c = c * 26 + (unsigned long)(toupper((unsigned char)s[i++]) - 'A' + 1);
    if (i == 0 || c > EXCEL_COLS) return -1;
    size_t j = i;
    while (isdigit((unsigned char)s[j]) && j - i < 8)
        r = r * 10 + (unsigned long)(s[j++] - '0');
    if (j == i || s[j] || s[i] == '0' || r > EXCEL_ROWS) return -1;
    *row = (int)r - 1;
    *col = (int)c - 1;
    return 0;
}

static void sheet_widths(qr_cc *cc, json_t *w, qr_sheet *sh)
{
    size_t o = qr_cc_push_key(cc, "widths");
    if (!json_is_array(w)) {
        qr_cc_err(cc, "widths are column widths in characters: [18, 12]",
                  "expected an array of numbers, got %s", qr_cc_type_name(w));
        qr_cc_pop(cc, o);
        return;
    }
    size_t n = json_array_size(w);
    if (n > EXCEL_COLS) {
        qr_cc_err(cc, NULL, "widths has %zu entries; a sheet has at most %u columns", n,
                  EXCEL_COLS);
        qr_cc_pop(cc, o);
        return;
    }
    double *ws = n ? qr_arena_array(cc->a, n, sizeof *ws) : NULL;
    if (n && !ws) {
        qr_cc_oom(cc);
        qr_cc_pop(cc, o);
        return;
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(w, i);
        size_t o2 = qr_cc_push_index(cc, i);
        if (!qr_cc_number(e, &ws[i])) {
            qr_cc_err(cc, "widths are column widths in characters: [18, 12]",
                      "expected a number, got %s", qr_cc_type_name(e));
            bad = 1;
        } else if (!(ws[i] > 0 && ws[i] <= 255)) {
            char num[32];
            qr_fmt_double(ws[i], num);
            qr_cc_err(cc, "Excel column widths are from just above 0 to 255 characters",
                      "expected a width above 0 and at most 255, got %s", num);
            bad = 1;
        }
        qr_cc_pop(cc, o2);
    }
    if (!bad) {
        sh->widths = ws;
        sh->n_widths = n;
    }
    qr_cc_pop(cc, o);
}

/* A column "C" (0-based 2) at s; the letters read, 0 when none. */
size_t qr_cc_col_letters(const char *s, uint32_t *col)
{
    size_t i = 0;
    unsigned long c = 0;
    while (i < 3 && isalpha((unsigned char)s[i]))
        c = c * 26 + (unsigned long)(toupper((unsigned char)s[i++]) - 'A' + 1);
    if (!i || c > EXCEL_COLS || isalpha((unsigned char)s[i])) return 0;
    *col = (uint32_t)(c - 1);
    return i;
}

/* "A1:F200" into *rg (ordered); 0 or -1 (*why set). */
static int parse_range(const char *s, qr_range *rg, const char **why)
{
    const char *colon = strchr(s, ':');
    *why = "a range is two cells like \"A1:F200\", top-left first";
    if (!colon || colon - s > 15) return -1;
    char a[16];
    memcpy(a, s, (size_t)(colon - s));
    a[colon - s] = '\0';
    int r0, c0, r1, c1;
    if (parse_ref(a, &r0, &c0) < 0 || parse_ref(colon + 1, &r1, &c1) < 0) return -1;
    if (r1 < r0 || c1 < c0) {
        *why = "the range's first cell is not its top-left one";
        return -1;
    }
    *rg = (qr_range){(uint32_t)r0, (uint32_t)c0, (uint32_t)r1, (uint32_t)c1};
    return 0;
}

/* A range string at the current path; 0 or -1 (reported). */
static int range_at(qr_cc *cc, json_t *v, qr_range *rg)
{
    const char *why = "expected a range like \"A1:F1\"";
    if (json_is_string(v) && parse_range(json_string_value(v), rg, &why) == 0) return 0;
    qr_cc_err(cc, "a range is \"A1:F1\": its top-left and bottom-right cells", "%s, got %s%.40s%s",
              why, json_is_string(v) ? "\"" : "",
              json_is_string(v) ? json_string_value(v) : qr_cc_type_name(v),
              json_is_string(v) ? "\"" : "");
    return -1;
}

void *qr_cc_each_array(qr_cc *cc, json_t *v, const char *key, const char *hint, const char *what,
                       size_t size, int (*fn)(qr_cc *, json_t *, void *, size_t, void *), void *arg,
                       size_t *n_out)
{
    size_t o = qr_cc_push_key(cc, key);
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (!json_is_array(v))
        qr_cc_err(cc, hint, "expected an array of %s, got %s", what, qr_cc_type_name(v));
    char *items = n ? qr_arena_array(cc->a, n, size) : NULL;
    if (n && !items) qr_cc_oom(cc), n = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t o2 = qr_cc_push_index(cc, i);
        memset(items + k * size, 0, size);
        if (fn(cc, json_array_get(v, i), items, k, arg)) k++;
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
    *n_out = k;
    return items;
}

int qr_cc_range_at(qr_cc *cc, json_t *v, int one_cell, qr_range *rg)
{
    int r, c;
    if (one_cell && json_is_string(v) && !strchr(json_string_value(v), ':') &&
        parse_ref(json_string_value(v), &r, &c) == 0) {
        *rg = (qr_range){(uint32_t)r, (uint32_t)c, (uint32_t)r, (uint32_t)c};
        return 0;
    }
    return range_at(cc, v, rg);
}

/* One merge of "merge" into m[k] (arg: the "merge" array). */
static int one_merge(qr_cc *cc, json_t *e, void *items, size_t k, void *arg)
{
    qr_range *m = items, rg;
    if (range_at(cc, e, &rg) < 0) return 0;
    size_t j = 0;
    for (; j < k; j++)
        if (rg.r0 <= m[j].r1 && m[j].r0 <= rg.r1 && rg.c0 <= m[j].c1 && m[j].c0 <= rg.c1) break;
    if (rg.r0 == rg.r1 && rg.c0 == rg.c1) {
        qr_cc_err(cc, "merge two cells or more: \"A1:F1\"", "a merge of one cell");
        return 0;
    }
    if (j < k) {
        qr_cc_err(cc, "merged ranges may not share cells", "this merge overlaps merge %s",
                  json_string_value(json_array_get((json_t *)arg, j)));
        return 0;
    }
    m[k] = rg;
    return 1;
}

/* "merge": ranges that do not overlap, each over more than one cell. */
static void sheet_merges(qr_cc *cc, json_t *v, qr_sheet *sh)
{
    sh->merges = qr_cc_each_array(cc, v, "merge", "merge is [\"A1:F1\", \"A2:A5\"]", "ranges",
                                  sizeof(qr_range), one_merge, v, &sh->n_merges);
}

/* After the rows: no value under a merge but in its top-left cell (Excel
 * keeps only that one). rows: the n rows compiled (a streamed sheet's held
 * ones: a merge past them makes the spec compile whole). */
static void check_merges(qr_cc *cc, json_t *v, qr_sheet *sh, const qr_row *rows, size_t n)
{
    json_t *arr = json_object_get(v, "merge");
    for (size_t i = 0; i < sh->n_merges; i++) {
        const qr_range *m = &sh->merges[i];
        for (size_t r = m->r0; r <= m->r1 && r < n; r++)
            for (size_t c = m->c0; c <= m->c1 && c < rows[r].n; c++) {
                const qr_cell *cell = &rows[r].cells[c];
                if ((r == m->r0 && c == m->c0) || cell->type == QR_CELL_EMPTY) continue;
                size_t o = qr_cc_push_key(cc, "merge");
                /* the merge's index in the spec */
                size_t idx = 0;
                for (size_t k = 0; arr && k < json_array_size(arr); k++) {
                    qr_range rg;
                    const char *why;
                    json_t *e = json_array_get(arr, k);
                    if (json_is_string(e) && parse_range(json_string_value(e), &rg, &why) == 0 &&
                        memcmp(&rg, m, sizeof rg) == 0) {
                        idx = k;
                        break;
                    }
                }
                qr_cc_push_index(cc, idx);
                char ref[24], *p = ref + sizeof ref;
                *--p = '\0';
                size_t rr = r + 1;
                do
                    *--p = (char)('0' + rr % 10);
                while (rr /= 10);
                for (size_t cc1 = c + 1; cc1; cc1 = (cc1 - 1) / 26)
                    *--p = (char)('A' + (cc1 - 1) % 26);
                qr_cc_err(cc,
                          "put the value in the merge's top-left cell, or leave the other cells "
                          "null",
                          "the merge would hide the value of %s (only the top-left cell's shows)",
                          p);
                qr_cc_pop(cc, o);
                goto next;
            }
    next:;
    }
}

/* "hidden_columns" / "grouped_columns": ["C", "E:F"] into flags. */
static void column_marks(qr_cc *cc, json_t *v, const char *key, uint8_t *flags, int hide)
{
    size_t o = qr_cc_push_key(cc, key);
    if (!json_is_array(v)) {
        qr_cc_err(cc, "columns are [\"C\", \"E:F\"]", "expected an array, got %s",
                  qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return;
    }
    for (size_t i = 0; i < json_array_size(v); i++) {
        json_t *e = json_array_get(v, i);
        size_t o2 = qr_cc_push_index(cc, i);
        const char *s = json_is_string(e) ? json_string_value(e) : "";
        uint32_t a = 0, b = 0;
        size_t n = qr_cc_col_letters(s, &a);
        int ok = n > 0;
        if (ok && s[n] == ':') {
            size_t m = qr_cc_col_letters(s + n + 1, &b);
            ok = m > 0 && s[n + 1 + m] == '\0' && b >= a;
        } else {
            ok = ok && s[n] == '\0';
            b = a;
        }
        if (!ok) {
            qr_cc_err(cc, "a column is \"C\", columns \"E:F\" (left one first)",
                      "expected columns like \"C\" or \"E:F\", got %s%.20s%s",
                      json_is_string(e) ? "\"" : "", json_is_string(e) ? s : qr_cc_type_name(e),
                      json_is_string(e) ? "\"" : "");
        } else {
            for (uint32_t c = a; c <= b; c++) {
                if (hide)
                    flags[c] |= QR_COL_HIDDEN;
                else if ((flags[c] & 7) < 7)
                    flags[c]++;
            }
        }
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
}

/* ---- "conditional": conditional formats ------------------------------------------------ */

static const char *const cf_rules[] = {"cell", "formula", "color_scale", "data_bar", NULL};
static const char *const cf_ops[] = {"<",  "<=",      ">",           ">=", "=",
                                     "!=", "between", "not_between", NULL};

/* One of names at obj's key (required); its index, or -1 (reported). */
int qr_cc_word(qr_cc *cc, json_t *obj, const char *key, const char *const *names, const char *hint)
{
    json_t *v = json_object_get(obj, key);
    if (!v) {
        qr_cc_missing(cc, key, hint);
        return -1;
    }
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    for (int i = 0; names[i]; i++)
        if (json_is_string(v) && strcmp(s, names[i]) == 0) return i;
    size_t o = qr_cc_push_key(cc, key);
    const char *dym = json_is_string(v) ? qr_suggest(s, names) : NULL;
    /* operators written the other way round or as in other languages */
    static const char *const alias[][2] = {{"=<", "<="}, {"=>", ">="}, {"==", "="},
                                           {"<>", "!="}, {"lt", "<"},  {"gt", ">"}};
    for (size_t i = 0; names == cf_ops && i < sizeof alias / sizeof alias[0]; i++)
        if (strcmp(s, alias[i][0]) == 0) dym = alias[i][1];
    char h[200];
    if (dym)
        snprintf(h, sizeof h, "did you mean \"%s\"?", dym);
    else
        snprintf(h, sizeof h, "%s", hint);
    qr_cc_err(cc, h, "expected one of %s, got %s%.40s%s", hint, json_is_string(v) ? "\"" : "",
              json_is_string(v) ? s : qr_cc_type_name(v), json_is_string(v) ? "\"" : "");
    qr_cc_pop(cc, o);
    return -1;
}

/* The "value" of a cell rule: a number, [low, high] for between, or a
 * text for = and !=; 0 or -1 (reported). */
static int cf_value(qr_cc *cc, json_t *obj, qr_cond *cf)
{
    json_t *v = json_object_get(obj, "value");
    int range = cf->op == QR_CF_BETWEEN || cf->op == QR_CF_NOT_BETWEEN;
    const char *hint = range ? "between takes [low, high]: \"value\": [0, 100]"
                             : "compare with a number: \"value\": 0 (= and != also take a text)";
    if (!v) {
        qr_cc_missing(cc, "value", hint);
        return -1;
    }
    size_t o = qr_cc_push_key(cc, "value");
    int ok = 0;
    if (range) {
        ok = json_is_array(v) && json_array_size(v) == 2 &&
             qr_cc_number(json_array_get(v, 0), &cf->value) == 1 &&
             qr_cc_number(json_array_get(v, 1), &cf->value2) == 1;
        if (ok && cf->value2 < cf->value) {
            qr_cc_err(cc, "write the lower bound first: [0, 100]", "the range [%g, %g] is empty",
                      cf->value, cf->value2);
            qr_cc_pop(cc, o);
            return -1;
        }
    } else if (json_is_string(v) && (cf->op == QR_CF_EQ || cf->op == QR_CF_NE)) {
        size_t n;
        cf->text = qr_cc_str(cc, v, &n);
        ok = cf->text && n <= 255;
        if (cf->text && !ok) {
            qr_cc_err(cc, NULL, "a compared text has at most 255 characters");
            qr_cc_pop(cc, o);
            return -1;
        }
        if (!cf->text) {
            qr_cc_pop(cc, o);
            return -1;
        }
    } else {
        ok = qr_cc_number(v, &cf->value) == 1;
    }
    if (!ok)
        qr_cc_err(cc, hint, "expected %s, got %s", range ? "[low, high]" : "a number",
                  qr_cc_type_name(v));
    qr_cc_pop(cc, o);
    return ok ? 0 : -1;
}

/* "colors" of a color scale (2 or 3, low to high) or "bar_color"; 0 or -1. */
static int cf_colors(qr_cc *cc, json_t *obj, qr_cond *cf)
{
    if (cf->rule == QR_CF_BAR) {
        cf->n_colors = 1;
        cf->colors[0] = QR_SX_RGB | 0x638EC6; /* Excel's default blue bar */
        json_t *c = json_object_get(obj, "bar_color");
        if (!c) return 0;
        size_t o = qr_cc_push_key(cc, "bar_color");
        int r = qr_cc_color(cc, c, &cf->colors[0]);
        qr_cc_pop(cc, o);
        return r;
    }
    /* Excel's red, yellow, green */
    cf->n_colors = 3;
    cf->colors[0] = QR_SX_RGB | 0xF8696B;
    cf->colors[1] = QR_SX_RGB | 0xFFEB84;
    cf->colors[2] = QR_SX_RGB | 0x63BE7B;
    json_t *c = json_object_get(obj, "colors");
    if (!c) return 0;
    size_t o = qr_cc_push_key(cc, "colors");
    int r = 0;
    size_t n = json_is_array(c) ? json_array_size(c) : 0;
    if (n < 2 || n > 3) {
        qr_cc_err(cc, "colors is [low, high] or [low, middle, high]: [\"#F8696B\", \"#63BE7B\"]",
                  "expected 2 or 3 colours, got %s", qr_cc_type_name(c));
        r = -1;
    } else {
        cf->n_colors = (int)n;
        for (size_t i = 0; i < n; i++) {
            size_t o2 = qr_cc_push_index(cc, i);
            if (qr_cc_color(cc, json_array_get(c, i), &cf->colors[i]) < 0) r = -1;
            qr_cc_pop(cc, o2);
        }
    }
    qr_cc_pop(cc, o);
    return r;
}

/* The keys a rule does not take (they would be silently ignored). */
static int cf_stray(qr_cc *cc, json_t *obj, qr_cond *cf)
{
    enum { C = 1u << QR_CF_CELL, F = 1u << QR_CF_FORMULA, LOOK = C | F };
    static const char *const keys[] = {"op",        "value",  "formula", "style",     "colors",
                                       "bar_color", "bold",   "italic",  "underline", "color",
                                       "fill",      "border", "align",   "valign",    "wrap",
                                       "indent",    "rotate"};
    /* which rules each key belongs to: a bit per qr_cf_rule */
    static const unsigned takes[] = {C,
                                     C,
                                     F,
                                     LOOK,
                                     1u << QR_CF_SCALE,
                                     1u << QR_CF_BAR,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK,
                                     LOOK};
    _Static_assert(sizeof keys / sizeof keys[0] == sizeof takes / sizeof takes[0], "one each");
    int bad = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (json_object_get(obj, keys[i]) && !(takes[i] & 1u << cf->rule)) {
            qr_cc_err_key(cc, keys[i],
                          "cell takes op, value and a look; formula takes formula "
                          "and a look; color_scale takes colors; data_bar bar_color",
                          "a %s rule takes no \"%s\"", cf_rules[cf->rule], keys[i]);
            bad = 1;
        }
    return bad ? -1 : 0;
}

/* The "range" of a conditional format or a validation: one cell ("C2") or a range; 0, or -1
 * (reported; example is the range the hint shows). */
static int rule_range(qr_cc *cc, json_t *obj, const char *example, qr_range *out)
{
    json_t *rg = json_object_get(obj, "range");
    if (!rg) {
        char hint[64];
        snprintf(hint, sizeof hint, "the cells it applies to: \"range\": \"%s\"", example);
        qr_cc_missing(cc, "range", hint);
        return -1;
    }
    size_t o = qr_cc_push_key(cc, "range");
    int rc = qr_cc_range_at(cc, rg, 1, out);
    qr_cc_pop(cc, o);
    return rc;
}

/* One rule object at the current path into *cf; 0 or -1 (reported). */
static int cf_rule(qr_cc *cc, fmt_table *ft, json_t *obj, qr_cond *cf)
{
    if (!json_is_object(obj)) {
        qr_cc_err(cc,
                  "a rule is {\"range\": \"C2:C100\", \"rule\": \"cell\", \"op\": \"<\", "
                  "\"value\": 0, \"style\": \"bad\"}",
                  "expected an object, got %s", qr_cc_type_name(obj));
        return -1;
    }
    if (qr_cc_check_obj(cc, obj, QR_SO_COND, "a conditional format") > 0) return -1;
    int bad = 0;
    if (rule_range(cc, obj, "C2:C100", &cf->range) < 0) bad = 1;
    int rule = qr_cc_word(cc, obj, "rule", cf_rules,
                          "\"cell\", \"formula\", \"color_scale\", \"data_bar\"");
    if (rule < 0) return -1;
    cf->rule = (qr_cf_rule)rule;
    if (cf_stray(cc, obj, cf) < 0) return -1;
    if (cf->rule == QR_CF_CELL || cf->rule == QR_CF_FORMULA) {
        if (cf->rule == QR_CF_CELL) {
            int op = qr_cc_word(cc, obj, "op", cf_ops,
                                "\"<\", \"<=\", \">\", \">=\", \"=\", \"!=\", \"between\", "
                                "\"not_between\"");
            if (op < 0)
                bad = 1;
            else {
                cf->op = (qr_cf_op)op;
                if (cf_value(cc, obj, cf) < 0) bad = 1;
            }
        } else {
            const char *s = NULL;
            size_t n = 0;
            int r = qr_cc_get_string(cc, obj, "formula", 1, &s, &n);
            if (r <= 0) {
                bad = 1;
            } else {
                size_t o = qr_cc_push_key(cc, "formula");
                if (n && s[0] == '=') s++, n--;
                qr_fcheck why;
                int fr = n && n <= MAX_FORMULA_LEN
                             ? qr_formula_check(s, n, cc->allow_external > 0, &why)
                             : QR_FC_OK;
                if (!n || n > MAX_FORMULA_LEN) {
                    qr_cc_err(cc, "a condition for the range's top-left cell: \"$C2>100\"",
                              "the formula is %s", n ? "too long" : "empty");
                    bad = 1;
                } else if (fr == QR_FC_POLICY && cc->allow_external < 0) {
                    cc->policy_later = 1;
                    cf->formula = s;
                } else if (fr != QR_FC_OK) {
                    qr_cc_err(cc, why.hint, "%s", why.message);
                    bad = 1;
                } else {
                    cf->formula = s;
                }
                qr_cc_pop(cc, o);
            }
        }
        unsigned look = 0;
        int lr = qr_cc_look(cc, ft, obj, &look);
        if (lr < 0)
            bad = 1;
        else if (lr == 0) {
            qr_cc_missing(cc, "style",
                          "how a matching cell looks: \"style\": \"bad\", or "
                          "properties such as \"fill\": \"#FFC7CE\"");
            bad = 1;
        }
        cf->look = look;
    } else if (cf_colors(cc, obj, cf) < 0) {
        bad = 1;
    }
    return bad ? -1 : 0;
}

static int one_cond(qr_cc *cc, json_t *e, void *items, size_t k, void *ft)
{
    return cf_rule(cc, ft, e, (qr_cond *)items + k) == 0;
}

/* "conditional": [rule, ...] */
static void sheet_conds(qr_cc *cc, fmt_table *ft, json_t *v, qr_sheet *sh)
{
    sh->conds = qr_cc_each_array(
        cc, v, "conditional", "conditional is [{\"range\": \"C2:C100\", \"rule\": \"data_bar\"}]",
        "rules", sizeof(qr_cond), one_cond, ft, &sh->n_conds);
}

/* ---- "validation": data validations --------------------------------------------------- */

static const char *const dv_kinds[] = {"list", "number", "whole", "date", NULL};

/* A bound of a number, whole or date rule at key of obj; 1 set, 0 absent, -1 (reported). */
static int dv_bound(qr_cc *cc, json_t *obj, const char *key, qr_dv_type type, double *out)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return 0;
    size_t o = qr_cc_push_key(cc, key);
    int r = 1;
    if (type == QR_DV_DATE) {
        int has_time = 0;
        const char *why = "expected a date \"YYYY-MM-DD\"";
        if (!json_is_string(v) ||
            parse_date(json_string_value(v), json_string_length(v), out, &has_time, &why) < 0) {
            qr_cc_err(cc, "a date is \"2026-01-31\"", "%s", why);
            r = -1;
        }
    } else if (qr_cc_number(v, out) != 1) {
        qr_cc_err(cc, "a bound is a number: {\"min\": 0, \"max\": 1}", "expected a number, got %s",
                  qr_cc_type_name(v));
        r = -1;
    } else if (type == QR_DV_WHOLE && *out != floor(*out)) {
        qr_cc_err(cc, "a whole rule's bounds are integers; use \"number\" for decimals",
                  "%g is not a whole number", *out);
        r = -1;
    }
    qr_cc_pop(cc, o);
    return r;
}

/* "list": ["Open", "Done"] into one comma-joined text; 0 or -1 (reported). */
static int dv_list(qr_cc *cc, json_t *v, qr_valid *dv)
{
    size_t o = qr_cc_push_key(cc, "list");
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (!n) {
        qr_cc_err(cc, "list the allowed values: \"list\": [\"Open\", \"Done\"]",
                  json_is_array(v) ? "the list is empty" : "expected an array of values, got %s",
                  qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return -1;
    }
    qr_buf b = {0};
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        size_t o2 = qr_cc_push_index(cc, i);
        char num[32];
        const char *s = NULL;
        size_t len = 0;
        if (json_is_string(e)) {
            s = json_string_value(e), len = json_string_length(e);
        } else if (json_is_number(e)) {
            double d = 0;
            qr_cc_number(e, &d);
            len = (size_t)snprintf(num, sizeof num, "%.15g", d);
            s = num;
        }
        if (!s || !len) {
            qr_cc_err(cc, "an item is a text or a number", "expected a text or a number, got %s",
                      s ? "an empty text" : qr_cc_type_name(e));
            bad = 1;
        } else if (memchr(s, ',', len) || memchr(s, '"', len) || memchr(s, '\0', len)) {
            qr_cc_err(cc,
                      "Excel separates a list's items with commas: write the item without "
                      "commas and double quotes",
                      "the item \"%.40s\" holds a %s", s, memchr(s, ',', len) ? "comma" : "quote");
            bad = 1;
        } else {
            if (b.len) qr_buf_putc(&b, ',');
            qr_buf_append(&b, s, len);
        }
        qr_cc_pop(cc, o2);
    }
    if (!bad && b.len > 255) {
        qr_cc_err(cc, "shorten the items, or use fewer: the file stores the list as one formula",
                  "the items take %zu characters with their commas; Excel's limit is 255", b.len);
        bad = 1;
    }
    if (!bad) {
        dv->list = qr_cc_strndup(cc, b.data ? b.data : "", b.len);
        if (!dv->list) bad = 1;
    }
    qr_buf_free(&b);
    qr_cc_pop(cc, o);
    return bad ? -1 : 0;
}

/* A message of a validation ("prompt" at most 255 characters, "error" 225:
 * Excel's limits); 0 or -1 (reported). */
static int dv_message(qr_cc *cc, json_t *obj, const char *key, size_t max, const char **out)
{
    size_t n = 0;
    int r = qr_cc_get_string(cc, obj, key, 0, out, &n);
    if (r < 0) return -1;
    if (r > 0 && utf16_units(*out, n) > max) {
        qr_cc_err_key(cc, key, "shorten the message",
                      "a %s message has at most %zu characters "
                      "(Excel's limit)",
                      key, max);
        return -1;
    }
    return 0;
}

/* One validation object at the current path into *dv; 0 or -1 (reported). */
static int dv_rule(qr_cc *cc, json_t *obj, qr_valid *dv)
{
    if (!json_is_object(obj)) {
        qr_cc_err(cc, "a validation is {\"range\": \"E2:E100\", \"list\": [\"Open\", \"Done\"]}",
                  "expected an object, got %s", qr_cc_type_name(obj));
        return -1;
    }
    if (qr_cc_check_obj(cc, obj, QR_SO_VALID, "a validation") > 0) return -1;
    int bad = 0;
    if (rule_range(cc, obj, "E2:E100", &dv->range) < 0) bad = 1;
    int kind = -1, n_kinds = 0;
    for (int i = 0; dv_kinds[i]; i++)
        if (json_object_get(obj, dv_kinds[i])) {
            if (n_kinds++ == 0) kind = i;
        }
    if (n_kinds != 1) {
        if (n_kinds)
            qr_cc_err(cc, "one rule per validation: split it in two over the same range",
                      "a validation takes one of \"list\", \"number\", \"whole\", \"date\", got %d",
                      n_kinds);
        else
            qr_cc_missing(cc, "list",
                          "what the cells accept: \"list\": [...], or \"number\", "
                          "\"whole\", \"date\": {\"min\": ..., \"max\": ...}");
        return -1;
    }
    json_t *v = json_object_get(obj, dv_kinds[kind]);
    if (kind == 0) {
        dv->type = QR_DV_LIST;
        if (dv_list(cc, v, dv) < 0) bad = 1;
    } else {
        dv->type = kind == 1 ? QR_DV_DECIMAL : kind == 2 ? QR_DV_WHOLE : QR_DV_DATE;
        size_t o = qr_cc_push_key(cc, dv_kinds[kind]);
        if (!json_is_object(v)) {
            qr_cc_err(cc, "bounds are {\"min\": 0, \"max\": 100} (either may be left out)",
                      "expected an object, got %s", qr_cc_type_name(v));
            bad = 1;
        } else {
            qr_cc_check_keys(cc, v, (const char *const[]){"min", "max", NULL}, "the bounds");
            int a = dv_bound(cc, v, "min", dv->type, &dv->min);
            int z = dv_bound(cc, v, "max", dv->type, &dv->max);
            if (a < 0 || z < 0) {
                bad = 1;
            } else if (!a && !z) {
                qr_cc_err(cc, "give \"min\", \"max\" or both: {\"min\": 0}", "no bound is given");
                bad = 1;
            } else if (a && z && dv->min > dv->max) {
                qr_cc_err(cc, "write the lower bound as min", "min is above max");
                bad = 1;
            }
            dv->has_min = a > 0, dv->has_max = z > 0;
        }
        qr_cc_pop(cc, o);
    }
    if (dv_message(cc, obj, "prompt", 255, &dv->prompt) < 0) bad = 1;
    if (dv_message(cc, obj, "error", 225, &dv->error) < 0) bad = 1;
    dv->blank = 1;
    if (qr_cc_get_bool(cc, obj, "blank", &dv->blank) < 0) bad = 1;
    return bad ? -1 : 0;
}

/* "validation": [rule, ...]; two rules over one cell are an error (Excel
 * keeps one and repairs the file). */
static int one_valid(qr_cc *cc, json_t *e, void *items, size_t k, void *arg)
{
    (void)arg;
    qr_valid *dv = items;
    if (dv_rule(cc, e, &dv[k]) < 0) return 0;
    const qr_range *a = &dv[k].range;
    for (size_t j = 0; j < k; j++) {
        const qr_range *b = &dv[j].range;
        if (a->r0 <= b->r1 && b->r0 <= a->r1 && a->c0 <= b->c1 && b->c0 <= a->c1) {
            qr_cc_err_key(cc, "range", "a cell takes one validation: make the ranges apart",
                          "this range overlaps an earlier validation's");
            return 0;
        }
    }
    return 1;
}

static void sheet_valids(qr_cc *cc, json_t *v, qr_sheet *sh)
{
    sh->valids =
        qr_cc_each_array(cc, v, "validation",
                         "validation is [{\"range\": \"E2:E100\", \"list\": [\"Open\", \"Done\"]}]",
                         "validations", sizeof(qr_valid), one_valid, NULL, &sh->n_valids);
}

/* ---- tables ----------------------------------------------------------------------- */

static const char *name_why(const char *s, size_t n);

static const char *const tf_names[] = {"sum", "average", "count", "count_nums", "min", "max", NULL};
/* SUBTOTAL's function numbers that skip hidden rows, in qr_table_fn order from QR_TF_SUM */
static const int tf_codes[] = {109, 101, 103, 102, 105, 104};

static int overlaps(const qr_range *a, const qr_range *b)
{
    return a->r0 <= b->r1 && b->r0 <= a->r1 && a->c0 <= b->c1 && b->c0 <= a->c1;
}

static const qr_cell *cell_at(const qr_row *rows, size_t n_rows, size_t r, size_t c)
{
    return r < n_rows && c < rows[r].n ? &rows[r].cells[c] : NULL;
}

/* A table's "style": "medium2" -> "TableStyleMedium2", "none" -> NULL. */
static int table_style(qr_cc *cc, json_t *obj, const char **out)
{
    json_t *v = json_object_get(obj, "style");
    *out = "TableStyleMedium2";
    if (!v) return 0;
    static const char *const kinds[] = {"light", "medium", "dark"};
    static const int most[] = {21, 28, 11};
    const char *s = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(s, "none") == 0) {
        *out = NULL;
        return 0;
    }
    for (int k = 0; k < 3; k++) {
        size_t kl = strlen(kinds[k]);
        if (strncmp(s, kinds[k], kl) != 0) continue;
        char *end;
        long n = strtol(s + kl, &end, 10);
        if (s[kl] < '1' || s[kl] > '9' || *end || n < 1 || n > most[k]) break;
        char buf[40];
        snprintf(buf, sizeof buf, "TableStyle%c%s%ld", kinds[k][0] - 32, kinds[k] + 1, n);
        *out = qr_cc_strndup(cc, buf, strlen(buf));
        return *out ? 0 : -1;
    }
    qr_cc_err_key(cc, "style",
                  "a table style is light1-light21, medium1-medium28, dark1-dark11 or none",
                  "unknown table style %s%.30s%s", json_is_string(v) ? "\"" : "",
                  json_is_string(v) ? s : qr_cc_type_name(v), json_is_string(v) ? "\"" : "");
    return -1;
}

/* The header texts of a table over rg into cols; 0 or -1 (reported at range). */
static int table_headers(qr_cc *cc, const qr_row *rows, size_t n_rows, const qr_range *rg,
                         const char **cols)
{
    const char *hint = "a table's first row names its columns: give each a distinct text";
    for (uint32_t c = rg->c0; c <= rg->c1; c++) {
        const qr_cell *cell = cell_at(rows, n_rows, rg->r0, c);
        char ref[16], col[4] = {0};
        uint32_t x = c + 1;
        int k = 0;
        char tmp[4];
        while (x && k < 3) {
            tmp[k++] = (char)('A' + (x - 1) % 26);
            x = (x - 1) / 26;
        }
        for (int i = 0; i < k; i++)
            col[i] = tmp[k - 1 - i];
        snprintf(ref, sizeof ref, "%s%u", col, rg->r0 + 1);
        if (!cell || cell->type != QR_CELL_TEXT || cell->len == 0) {
            qr_cc_err_key(cc, "range", hint, "the header cell %s is %s", ref,
                          !cell || cell->type == QR_CELL_EMPTY ? "empty" : "not a text");
            return -1;
        }
        if (cell->len > 255 || memchr(cell->v.str, '\n', cell->len) ||
            memchr(cell->v.str, '\r', cell->len)) {
            qr_cc_err_key(cc, "range", hint,
                          "the header cell %s is longer than 255 characters or holds a line break",
                          ref);
            return -1;
        }
        cols[c - rg->c0] = qr_cc_strndup(cc, cell->v.str, cell->len);
        if (!cols[c - rg->c0]) return -1;
        for (uint32_t j = rg->c0; j < c; j++)
            if (strcasecmp(cols[j - rg->c0], cols[c - rg->c0]) == 0) {
                qr_cc_err_key(cc, "range", hint, "the header cell %s repeats \"%.40s\"", ref,
                              cols[c - rg->c0]);
                return -1;
            }
    }
    return 0;
}

/* A table's "totals" into t (fn, label); 0 or -1 (reported). */
static int table_totals(qr_cc *cc, json_t *v, qr_sheet_table *t, size_t n)
{
    size_t o = qr_cc_push_key(cc, "totals");
    int bad = 0;
    uint8_t *fn = qr_arena_array(cc->a, n, 1);
    const char **label = qr_arena_array(cc->a, n, sizeof *label);
    if (!fn || !label) {
        qr_cc_pop(cc, o);
        return qr_cc_oom(cc), -1;
    }
    if (!json_is_object(v) || json_object_size(v) == 0) {
        qr_cc_err(cc, "totals is {\"Region\": {\"label\": \"Total\"}, \"Revenue\": \"sum\"}",
                  "expected an object of columns, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return -1;
    }
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val)
    {
        size_t o2 = qr_cc_push_key(cc, key);
        size_t c = 0;
        while (c < n && strcasecmp(t->cols[c], key) != 0)
            c++;
        if (c == n) {
            const char *cands[65];
            size_t nc = 0;
            for (size_t j = 0; j < n && nc < 64; j++)
                cands[nc++] = t->cols[j];
            cands[nc] = NULL;
            const char *dym = qr_suggest(key, cands);
            char h[160];
            if (dym)
                snprintf(h, sizeof h, "did you mean \"%s\"?", dym);
            else
                snprintf(h, sizeof h, "name a column by its header text");
            qr_cc_err(cc, h, "the table has no column \"%.40s\"", key);
            bad = 1;
        } else if (json_is_string(val)) {
            size_t f = 0;
            while (tf_names[f] && strcmp(tf_names[f], json_string_value(val)) != 0)
                f++;
            if (!tf_names[f]) {
                const char *dym = qr_suggest(json_string_value(val), tf_names);
                char h[200];
                if (dym)
                    snprintf(h, sizeof h, "did you mean \"%s\"?", dym);
                else
                    snprintf(h, sizeof h,
                             "a function is sum, average, count, count_nums, min or "
                             "max; a text is {\"label\": \"Total\"}");
                qr_cc_err(cc, h, "unknown totals function \"%.40s\"", json_string_value(val));
                bad = 1;
            } else {
                fn[c] = (uint8_t)(QR_TF_SUM + f);
            }
        } else if (json_is_object(val) && json_object_size(val) == 1 &&
                   json_is_string(json_object_get(val, "label"))) {
            size_t len;
            label[c] = qr_cc_str(cc, json_object_get(val, "label"), &len);
            if (!label[c]) bad = 1;
        } else {
            qr_cc_err(cc, "a column's total is a function (\"sum\") or {\"label\": \"Total\"}",
                      "expected a function name or a label, got %s", qr_cc_type_name(val));
            bad = 1;
        }
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
    t->fn = fn;
    t->label = label;
    return bad ? -1 : 0;
}

/* A table's column name in a structured reference: [ ] # ' escaped with '. */
static void struct_col(qr_buf *b, const char *s)
{
    for (; *s; s++) {
        if (strchr("[]#'", *s)) qr_buf_putc(b, '\'');
        qr_buf_putc(b, *s);
    }
}

/* The totals row of t (row t->range.r1 + 1) into the rows (*rows, *n_rows
 * may grow); 0 or -1 (reported at the table). */
static int totals_row(qr_cc *cc, qr_sheet_table *t, qr_row **rows, size_t *n_rows)
{
    uint32_t tr = t->range.r1 + 1;
    if (tr >= EXCEL_ROWS) {
        qr_cc_err_key(cc, "totals", "end the table a row higher",
                      "the totals row is past the grid");
        return -1;
    }
    for (uint32_t c = t->range.c0; c <= t->range.c1; c++) {
        const qr_cell *cell = cell_at(*rows, *n_rows, tr, c);
        if (cell && cell->type != QR_CELL_EMPTY) {
            qr_cc_err_key(cc, "totals", "the totals row is the row below the range: leave it empty",
                          "the totals row (row %u) would hide a value in its column %u", tr + 1,
                          c - t->range.c0 + 1);
            return -1;
        }
    }
    if (tr >= *n_rows) {
        qr_row *nr = qr_arena_array(cc->a, tr + 1, sizeof *nr);
        if (!nr) return qr_cc_oom(cc), -1;
        memcpy(nr, *rows, *n_rows * sizeof *nr);
        *rows = nr;
        *n_rows = tr + 1;
    }
    qr_row *row = &(*rows)[tr];
    if (row->n <= t->range.c1) {
        qr_cell *cs = qr_arena_array(cc->a, t->range.c1 + 1, sizeof *cs);
        if (!cs) return qr_cc_oom(cc), -1;
        if (row->n) memcpy(cs, row->cells, row->n * sizeof *cs);
        row->cells = cs;
        row->n = t->range.c1 + 1;
    }
    for (uint32_t c = t->range.c0; c <= t->range.c1; c++) {
        size_t i = c - t->range.c0;
        qr_cell *cell = &row->cells[c];
        if (t->label[i]) {
            cell->type = QR_CELL_TEXT;
            cell->v.str = t->label[i];
            cell->len = (uint32_t)strlen(t->label[i]);
        } else if (t->fn[i]) {
            qr_buf b = {0};
            qr_buf_printf(&b, "SUBTOTAL(%d,%s[", tf_codes[t->fn[i] - QR_TF_SUM], t->name);
            struct_col(&b, t->cols[i]);
            qr_buf_putc(&b, ']');
            qr_buf_putc(&b, ')');
            qr_formula *f = qr_arena_alloc(cc->a, sizeof *f);
            const char *text = b.oom ? NULL : qr_cc_strndup(cc, b.data, b.len);
            qr_buf_free(&b);
            if (!f || !text) return qr_cc_oom(cc), -1;
            memset(f, 0, sizeof *f);
            f->text = text;
            cell->type = QR_CELL_FORMULA;
            cell->v.formula = f;
            /* the column's number format (its last data cell's) */
            const qr_cell *last = cell_at(*rows, *n_rows, t->range.r1, c);
            if (last && t->fn[i] != QR_TF_COUNT && t->fn[i] != QR_TF_COUNT_NUMS)
                cell->fmt = last->fmt;
        }
    }
    return 0;
}

/* A sheet's "tables" over its compiled rows (*rows may grow by totals rows). */
/* What one table of "tables" needs besides itself. */
typedef struct table_ctx {
    qr_sheet *sh;
    qr_row **rows;
    size_t *n_rows;
} table_ctx;

static int one_table(qr_cc *cc, json_t *obj, void *items, size_t k, void *arg)
{
    table_ctx *tc = arg;
    qr_sheet *sh = tc->sh;
    qr_row **rows = tc->rows;
    size_t *n_rows = tc->n_rows;
    qr_sheet_table *ts = items, *t = &ts[k];
    int bad = 0;
    if (!json_is_object(obj)) {
        qr_cc_err(cc, "a table is {\"range\": \"A1:F200\", \"name\": \"Sales\"}",
                  "expected a table object, got %s", qr_cc_type_name(obj));
        return 0;
    }
    if (qr_cc_check_obj(cc, obj, QR_SO_XTABLE, "a table") > 0) bad = 1;
    json_t *nm = json_object_get(obj, "name"), *rg = json_object_get(obj, "range");
    if (!nm) {
        qr_cc_missing(cc, "name", "a table is named: \"name\": \"Sales\"");
        bad = 1;
    } else {
        const char *why = json_is_string(nm)
                              ? name_why(json_string_value(nm), json_string_length(nm))
                              : "expected a string";
        if (why) {
            qr_cc_err_key(cc, "name", "a table name is like Sales or Q3_Costs: letters, digits, _",
                          "%s, got %s%.40s%s", why, json_is_string(nm) ? "\"" : "",
                          json_is_string(nm) ? json_string_value(nm) : qr_cc_type_name(nm),
                          json_is_string(nm) ? "\"" : "");
            bad = 1;
        } else {
            size_t len;
            t->name = qr_cc_str(cc, nm, &len);
        }
    }
    if (!rg) {
        qr_cc_missing(cc, "range", "a table is over a range: \"range\": \"A1:F200\"");
        bad = 1;
    } else {
        size_t o3 = qr_cc_push_key(cc, "range");
        if (range_at(cc, rg, &t->range) < 0) {
            bad = 1;
        } else if (t->range.r1 == t->range.r0) {
            qr_cc_err(cc, "a table's range holds its header row and at least one data row",
                      "the range is one row");
            bad = 1;
        }
        qr_cc_pop(cc, o3);
    }
    if (table_style(cc, obj, &t->style) < 0) bad = 1;
    if (!bad) {
        for (size_t j = 0; j < k && !bad; j++)
            if (overlaps(&t->range, &ts[j].range)) {
                qr_cc_err_key(cc, "range", "tables do not overlap: make the ranges apart",
                              "this range overlaps the table \"%.40s\"", ts[j].name);
                bad = 1;
            }
        for (size_t m = 0; m < sh->n_merges && !bad; m++)
            if (overlaps(&t->range, &sh->merges[m])) {
                qr_cc_err_key(cc, "range", "a table holds no merged cells: unmerge them",
                              "this range overlaps the merge %zu", m + 1);
                bad = 1;
            }
        if (!bad && sh->autofilter == QR_FILTER_RANGE && overlaps(&t->range, &sh->filter)) {
            qr_cc_err_key(cc, "range",
                          "a table filters its own columns: leave the sheet's \"autofilter\" out",
                          "this range overlaps the sheet's autofilter");
            bad = 1;
        }
    }
    size_t nc = bad ? 0 : t->range.c1 - t->range.c0 + 1;
    const char **cols = nc ? qr_arena_array(cc->a, nc, sizeof *cols) : NULL;
    if (nc && !cols) qr_cc_oom(cc), bad = 1;
    if (!bad && table_headers(cc, *rows, *n_rows, &t->range, cols) < 0) bad = 1;
    if (!bad) t->cols = cols;
    json_t *tot = json_object_get(obj, "totals");
    if (!bad && tot) {
        if (table_totals(cc, tot, t, nc) < 0 || totals_row(cc, t, rows, n_rows) < 0)
            bad = 1;
        else
            t->totals = 1;
    }
    return !bad;
}

static void sheet_tables(qr_cc *cc, json_t *v, qr_sheet *sh, qr_row **rows, size_t *n_rows)
{
    table_ctx tc = {sh, rows, n_rows};
    sh->tables = qr_cc_each_array(cc, v, "tables",
                                  "tables is [{\"range\": \"A1:F200\", \"name\": \"Sales\"}]",
                                  "tables", sizeof(qr_sheet_table), one_table, &tc, &sh->n_tables);
    if (sh->n_tables && sh->autofilter == QR_FILTER_AUTO)
        sh->autofilter = QR_FILTER_NONE; /* the tables' */
}

/* Table names are unique in the workbook, and apart from its defined names. */
static void table_names(qr_cc *cc, const qr_sheet *ss, size_t n)
{
    const qr_doc *doc = cc->doc;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < ss[i].n_tables; j++) {
            const char *a = ss[i].tables[j].name, *clash = NULL;
            for (size_t i2 = 0; i2 <= i && !clash; i2++)
                for (size_t j2 = 0; j2 < (i2 == i ? j : ss[i2].n_tables) && !clash; j2++)
                    if (strcasecmp(ss[i2].tables[j2].name, a) == 0) clash = "another table";
            for (size_t m = 0; m < doc->n_names && !clash; m++)
                if (strcasecmp(doc->names[m].name, a) == 0) clash = "a defined name";
            if (!clash) continue;
            size_t o = qr_cc_push_key(cc, "sheets");
            qr_cc_push_index(cc, i);
            qr_cc_push_key(cc, "tables");
            qr_cc_push_index(cc, j);
            qr_cc_err_key(cc, "name", "give each table and name its own name (ignoring case)",
                          "\"%.40s\" is already the name of %s", a, clash);
            qr_cc_pop(cc, o);
        }
}

/* "column_styles": [null, "input", {"format": "0.0%"}], one per column. */
static void column_styles(qr_cc *cc, fmt_table *ft, json_t *v, qr_sheet *sh)
{
    size_t o = qr_cc_push_key(cc, "column_styles");
    size_t n = json_is_array(v) ? json_array_size(v) : 0;
    if (!json_is_array(v)) {
        qr_cc_err(cc, "column_styles is [null, \"input\", {\"format\": \"0.0%\"}], one per column",
                  "expected an array, got %s", qr_cc_type_name(v));
    } else if (n > EXCEL_COLS) {
        qr_cc_err(cc, NULL, "column_styles has %zu entries; a sheet has at most %u columns", n,
                  EXCEL_COLS);
        n = 0;
    }
    uint16_t *cl = n ? qr_arena_array(cc->a, n, sizeof *cl) : NULL;
    if (n && !cl) qr_cc_oom(cc), n = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(v, i);
        size_t o2 = qr_cc_push_index(cc, i);
        unsigned look = 0;
        if (json_is_string(e) && json_string_length(e)) {
            qr_cc_look_name(cc, ft, e, &look);
        } else if (json_is_object(e)) {
            qr_cc_check_obj(cc, e, QR_SO_STYLE, "a column style");
            if (json_object_get(e, "format"))
                qr_cc_err_key(cc, "format",
                              "give the cells their format, or name a style that has one",
                              "a column's properties take no \"format\"");
            else
                qr_cc_look(cc, ft, e, &look);
        } else if (!json_is_null(e)) {
            qr_cc_err(cc, "a column style is null, a style name or {\"fill\": \"#FFF2CC\"}",
                      "expected a style name or an object, got %s", qr_cc_type_name(e));
        }
        cl[i] = (uint16_t)look;
        qr_cc_pop(cc, o2);
    }
    sh->col_looks = cl;
    sh->n_col_looks = n;
    qr_cc_pop(cc, o);
}

#if defined(__GLIBC__)
/* Give the pages of freed rows back to the system every so often, so the
 * peak is jansson's tree, not jansson's tree plus the cells. Not needed
 * when jansson runs on the region allocator (json_alloc.c): its chunks are
 * unmapped as soon as their rows are freed, and malloc's heap then holds
 * no freed rows to trim. */
enum { TRIM_EVERY = 1u << 17 };
#endif

static void sheet(qr_cc *cc, fmt_table *ft, json_t *v, qr_sheet *sh, const char *name,
                  const qr_srows *sr)
{
    sh->path = qr_cc_path(cc);
    sh->name = name ? name : "";
    if (!json_is_object(v)) {
        qr_cc_err(cc, "a sheet is {\"name\": \"...\", \"rows\": [[...], ...]}",
                  "expected a sheet object, got %s", qr_cc_type_name(v));
        return;
    }
    int unk = qr_cc_check_obj(cc, v, QR_SO_SHEET, "a sheet");
    int header = 0, has_header = qr_cc_get_bool(cc, v, "header", &header);
    json_t *columns = json_object_get(v, "columns");
    if (columns && !json_is_array(columns)) {
        qr_cc_err_key(cc, "columns", "columns is an array of column names",
                      "expected an array of strings, got %s", qr_cc_type_name(columns));
        columns = NULL;
    }
    if (columns && has_header == 0) header = 1;
    sh->header = header;
    json_t *freeze = json_object_get(v, "freeze");
    int frozen = 0;
    if (freeze) {
        int r, c;
        if (!json_is_string(freeze) || parse_ref(json_string_value(freeze), &r, &c) < 0) {
            qr_cc_err_key(cc, "freeze", "name the first cell that scrolls, like \"A2\" or \"B3\"",
                          "expected a cell reference like \"A2\", got %s%.20s%s",
                          json_is_string(freeze) ? "\"" : "",
                          json_is_string(freeze) ? json_string_value(freeze)
                                                 : qr_cc_type_name(freeze),
                          json_is_string(freeze) ? "\"" : "");
        } else {
            sh->freeze_row = r;
            sh->freeze_col = c;
            frozen = 1;
        }
    }
    if (header && !frozen) sh->freeze_row = 1;
    json_t *w = json_object_get(v, "widths");
    if (w) sheet_widths(cc, w, sh);
    json_t *cst = json_object_get(v, "column_styles");
    if (cst) column_styles(cc, ft, cst, sh);
    json_t *mg = json_object_get(v, "merge");
    if (mg) sheet_merges(cc, mg, sh);
    json_t *cfs = json_object_get(v, "conditional");
    if (cfs) sheet_conds(cc, ft, cfs, sh);
    json_t *dvs = json_object_get(v, "validation");
    if (dvs) sheet_valids(cc, dvs, sh);
    json_t *af = json_object_get(v, "autofilter");
    if (af) {
        size_t o = qr_cc_push_key(cc, "autofilter");
        if (json_is_boolean(af))
            sh->autofilter = json_is_true(af) ? QR_FILTER_RANGE : QR_FILTER_NONE;
        else if (range_at(cc, af, &sh->filter) == 0)
            sh->autofilter = QR_FILTER_RANGE;
        if (json_is_true(af)) sh->filter.r1 = UINT32_MAX; /* the used range, once known */
        qr_cc_pop(cc, o);
    }
    json_t *tc = json_object_get(v, "tab_color");
    if (tc) {
        size_t o = qr_cc_push_key(cc, "tab_color");
        if (qr_cc_color(cc, tc, &sh->tab_color) < 0) sh->tab_color = 0;
        qr_cc_pop(cc, o);
    }
    json_t *hc = json_object_get(v, "hidden_columns"), *gc = json_object_get(v, "grouped_columns");
    if (hc || gc) {
        uint8_t *fl = qr_arena_array(cc->a, EXCEL_COLS, 1);
        if (!fl) {
            qr_cc_oom(cc);
        } else {
            if (hc) column_marks(cc, hc, "hidden_columns", fl, 1);
            if (gc) column_marks(cc, gc, "grouped_columns", fl, 0);
            size_t n = EXCEL_COLS;
            while (n && !fl[n - 1])
                n--;
            sh->col_flags = fl;
            sh->n_col_flags = n;
        }
    }

    json_t *rows = json_object_get(v, "rows");
    if (!rows) {
        if (!unk)
            qr_cc_missing(cc, "rows",
                          "add \"rows\": [[\"Region\", \"Revenue\"], [\"EMEA\", 1200.5]]");
        return;
    }
    if (!json_is_array(rows)) {
        qr_cc_err_key(cc, "rows", "rows is an array of rows: [[\"a\", 1], [\"b\", 2]]",
                      "expected an array of rows, got %s", qr_cc_type_name(rows));
        return;
    }
    size_t n_json = sr ? sr->n_json : json_array_size(rows), hdr = columns ? 1 : 0;
    if (n_json + hdr > EXCEL_ROWS) {
        qr_cc_err_key(cc, "rows", "split the rows over several sheets",
                      "%zu rows; a sheet holds at most %u rows (Excel's limit)", n_json + hdr,
                      EXCEL_ROWS);
        return;
    }
    size_t n_out = (sr ? sr->n_held : n_json) + hdr; /* streamed: the rows pass 1 kept */
    qr_row *out = qr_arena_array(cc->a, n_out ? n_out : 1, sizeof *out);
    if (!out) {
        qr_cc_oom(cc);
        return;
    }
    size_t n_cols = 0;
    if (columns) {
        size_t n = json_array_size(columns);
        size_t o = qr_cc_push_key(cc, "columns");
        if (n > EXCEL_COLS) {
            qr_cc_err(cc, NULL, "%zu columns; a sheet has at most %u columns", n, EXCEL_COLS);
            n = 0;
        }
        qr_cell *cells = n ? qr_arena_array(cc->a, n, sizeof *cells) : NULL;
        if (n && !cells) qr_cc_oom(cc), n = 0;
        qr_cc_count_cells(cc, n);
        for (size_t i = 0; i < n; i++) {
            json_t *e = json_array_get(columns, i);
            size_t o2 = qr_cc_push_index(cc, i);
            size_t len = 0;
            if (!json_is_string(e)) {
                qr_cc_err(cc, "columns is an array of column names", "expected a string, got %s",
                          qr_cc_type_name(e));
            } else if ((cells[i].v.str = qr_cc_str(cc, e, &len)) != NULL) {
                cells[i].type = QR_CELL_TEXT;
                cells[i].len = (uint32_t)len;
            }
            qr_cc_pop(cc, o2);
        }
        out[0].cells = cells;
        out[0].n = (uint32_t)n;
        n_cols = n;
        qr_cc_pop(cc, o);
    }
    size_t o = qr_cc_push_key(cc, "rows");
    if (sr) {
        qr_cc_stream_replay(cc, sr, out + hdr);
        sh->n_held = hdr + sr->n_held;
        sh->stream_from = hdr;
        if (sr->n_cols > n_cols) n_cols = sr->n_cols;
    }
    for (size_t r = 0; !sr && r < n_json; r++) {
        if (qr_cc_sheet_row(cc, ft, json_array_get(rows, r), r, &out[r + hdr], &n_cols) < 0) break;
        /* The row is converted: free its JSON now. */
        json_array_set_new(rows, r, json_null());
#if defined(__GLIBC__)
        if ((r & (TRIM_EVERY - 1)) == TRIM_EVERY - 1 && !qr_json_alloc_on()) malloc_trim(0);
#endif
    }
    qr_cc_pop(cc, o);
    size_t n_all = n_json + hdr;
    json_t *tbs = json_object_get(v, "tables");
    if (tbs && !sr) sheet_tables(cc, tbs, sh, &out, &n_all); /* streamed: the tree path does */
    if (cc->n_cnotes) { /* the cells' links and comments, in the sheet's rows */
        qr_cell_note *nts = qr_arena_array(cc->a, cc->n_cnotes, sizeof *nts);
        if (!nts) {
            qr_cc_oom(cc);
        } else {
            for (size_t k = 0; k < cc->n_cnotes; k++) {
                nts[k] = cc->cnotes[k];
                nts[k].row += (uint32_t)hdr;
            }
            sh->notes = nts;
            sh->n_notes = cc->n_cnotes;
        }
        cc->n_cnotes = 0;
    }
    sh->rows = out;
    sh->n_rows = n_all;
    sh->columns_row = hdr != 0;
    sh->n_cols = n_cols;
    if (n_all > n_json + hdr && out[n_all - 1].n > n_cols) sh->n_cols = out[n_all - 1].n;
    size_t n_have = sr ? sh->n_held : sh->n_rows;
    for (size_t r = 0; r < n_have; r++)
        if (out[r].outline > sh->row_outline) sh->row_outline = out[r].outline;
    if (sr && sr->outline > sh->row_outline) sh->row_outline = sr->outline;
    check_merges(cc, v, sh, out, n_have);
    json_t *pr = json_object_get(v, "print");
    if (pr) qr_cc_sheet_print(cc, pr, sh);
    if (sr && cc->stream && !cc->stream->all)
        for (size_t i = 0; i < sh->n_merges; i++)
            if (sh->merges[i].r1 >= n_have && sh->merges[i].r0 < sh->n_rows)
                cc->stream->fallback = 1; /* its cells are not all here: compile it whole */
    if (sh->autofilter == QR_FILTER_RANGE && sh->filter.r1 == UINT32_MAX) {
        sh->filter = (qr_range){0, 0, sh->n_rows ? (uint32_t)sh->n_rows - 1 : 0,
                                n_cols ? (uint32_t)n_cols - 1 : 0};
    }
}

static int one_chart(qr_cc *cc, json_t *e, void *items, size_t k, void *arg)
{
    qr_chart *ch = (qr_chart *)items + k;
    qr_cc_chart(cc, e, QR_CC_CHART_SHEET, ch);
    if (!ch->anchor_row && !ch->anchor_col && !json_object_get(e, "anchor"))
        ch->anchor_col = (uint32_t)(((qr_sheet *)arg)->n_cols + 1); /* right of the data */
    return 1;
}

/* A sheet's "charts": an array of charts anchored on it. */
static void sheet_charts(qr_cc *cc, json_t *v, size_t index, qr_sheet *sh)
{
    json_t *arr = json_is_object(v) ? json_object_get(v, "charts") : NULL;
    if (!arr) return;
    size_t o = qr_cc_push_index(cc, index);
    sh->charts = qr_cc_each_array(
        cc, arr, "charts", "charts is [{\"chart\": \"column\", \"categories\": \"Q3!A2:A9\", ...}]",
        "charts", sizeof(qr_chart), one_chart, sh, &sh->n_charts);
    qr_cc_pop(cc, o);
}

/* ---- "names": defined names ----------------------------------------------------------- */

/* Whether s is a name Excel takes (letters, digits, _ and ., starting with a
 * letter, _ or \, not a cell reference in A1 or R1C1 style, not TRUE or
 * FALSE); NULL, or why not. */
static const char *name_why(const char *s, size_t n)
{
    if (!n) return "a name is empty";
    if (n > 255) return "a name has at most 255 characters";
    unsigned char c0 = (unsigned char)s[0];
    if (!(isalpha(c0) || c0 == '_' || c0 == '\\' || c0 >= 0x80))
        return "a name starts with a letter, _ or \\";
    for (size_t i = 1; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!(isalnum(c) || c == '_' || c == '.' || c == '\\' || c >= 0x80))
            return "a name holds letters, digits, _ and . only";
    }
    int r, c;
    if (parse_ref(s, &r, &c) == 0) return "the name is a cell reference, which it would shadow";
    /* R1C1 style: R, C, R2, C3, R2C3 */
    size_t i = 0;
    if (s[i] == 'R' || s[i] == 'r') {
        i++;
        while (isdigit((unsigned char)s[i]))
            i++;
    }
    if (s[i] == 'C' || s[i] == 'c') {
        i++;
        while (isdigit((unsigned char)s[i]))
            i++;
    }
    if (i == n) return "the name is a cell reference in R1C1 style, which it would shadow";
    if (strcasecmp(s, "TRUE") == 0 || strcasecmp(s, "FALSE") == 0)
        return "TRUE and FALSE are values, not names";
    return NULL;
}

/* "Sheet!$A$1:$B$2", "'My sheet'!A1" or (in a sheet's names) "$A$1" into
 * *nm; 0 or -1 (reported at the current path). */
static int name_target(qr_cc *cc, json_t *v, int scope, qr_name *nm)
{
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    const char *hint = scope < 0 ? "a workbook name is a sheet's cells: \"Data!$B$2:$B$13\""
                                 : "a sheet's name is cells: \"$B$2\" (this sheet) or "
                                   "\"Other!$B$2:$B$9\"";
    if (!s) {
        qr_cc_err(cc, hint, "expected a reference, got %s", qr_cc_type_name(v));
        return -1;
    }
    const char *bang = strrchr(s, '!');
    nm->sheet = scope < 0 ? 0 : (size_t)scope;
    if (bang) {
        char sheet[128];
        size_t k = 0;
        const char *p = s;
        if (*p == '\'') {
            for (p++; p < bang && k + 1 < sizeof sheet; p++) {
                if (*p == '\'' && p[1] == '\'')
                    p++;
                else if (*p == '\'')
                    break;
                sheet[k++] = *p;
            }
        } else {
            for (; p < bang && k + 1 < sizeof sheet; p++)
                sheet[k++] = *p;
        }
        sheet[k] = '\0';
        long i = sheet_named(cc, sheet, cc->sheet_names, cc->n_sheet_names);
        if (i < 0) return -1;
        nm->sheet = (size_t)i;
        s = bang + 1;
    } else if (scope < 0) {
        qr_cc_err(cc, hint, "the reference names no sheet");
        return -1;
    }
    char ref[40];
    size_t k = 0;
    for (const char *p = s; *p && k + 1 < sizeof ref; p++)
        if (*p != '$') ref[k++] = *p;
    ref[k] = '\0';
    int r, c;
    const char *why = NULL;
    if (strlen(s) < 32 && !strchr(ref, ':') && parse_ref(ref, &r, &c) == 0) {
        nm->range = (qr_range){(uint32_t)r, (uint32_t)c, (uint32_t)r, (uint32_t)c};
        return 0;
    }
    if (strlen(s) < 32 && parse_range(ref, &nm->range, &why) == 0) return 0;
    qr_cc_err(cc, hint, "expected a cell or a range after the sheet, got \"%.40s\"", s);
    return -1;
}

/* The "names" object v of the workbook (scope -1) or of sheet scope. */
static void names_of(qr_cc *cc, json_t *v, int scope, qr_name **acc, size_t *n, size_t *cap)
{
    size_t o = qr_cc_push_key(cc, "names");
    if (!json_is_object(v)) {
        qr_cc_err(cc, "names is {\"Revenue\": \"Data!$B$2:$B$13\"}", "expected an object, got %s",
                  qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return;
    }
    const char *key;
    json_t *t;
    json_object_foreach(v, key, t)
    {
        size_t o2 = qr_cc_push_key(cc, key);
        const char *why = name_why(key, strlen(key));
        size_t j = 0;
        for (; !why && j < *n; j++)
            if ((*acc)[j].scope == scope && strcasecmp((*acc)[j].name, key) == 0) break;
        qr_name nm = {0};
        nm.scope = scope;
        if (why) {
            qr_cc_err(cc, "a name is like Revenue, Tax_Rate or Q1.Sales", "%s", why);
        } else if (j < *n) {
            qr_cc_err(cc, "names are unique ignoring case", "\"%.64s\" is defined twice", key);
        } else if (name_target(cc, t, scope, &nm) == 0) {
            nm.name = qr_cc_strndup(cc, key, strlen(key));
            if (*n == *cap) {
                size_t nc = *cap ? *cap * 2 : 8;
                qr_name *g = realloc(*acc, nc * sizeof *g);
                if (!g) {
                    qr_cc_oom(cc);
                    qr_cc_pop(cc, o2);
                    break;
                }
                *acc = g, *cap = nc;
            }
            if (nm.name) (*acc)[(*n)++] = nm;
        }
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
}

/* The workbook's and each sheet's "names", once the sheets are known. */
static void defined_names(qr_cc *cc, json_t *root, json_t *sheets)
{
    qr_name *acc = NULL;
    size_t n = 0, cap = 0;
    json_t *wn = json_object_get(root, "names");
    if (wn) names_of(cc, wn, -1, &acc, &n, &cap);
    for (size_t i = 0; i < cc->doc->n_sheets; i++) {
        json_t *sn = json_object_get(json_array_get(sheets, i), "names");
        if (!sn) continue;
        size_t o = qr_cc_push_key(cc, "sheets");
        size_t o2 = qr_cc_push_index(cc, i);
        names_of(cc, sn, (int)i, &acc, &n, &cap);
        qr_cc_pop(cc, o2);
        qr_cc_pop(cc, o);
    }
    qr_name *out = n ? qr_arena_array(cc->a, n, sizeof *out) : NULL;
    if (n && !out) qr_cc_oom(cc), n = 0;
    if (n) memcpy(out, acc, n * sizeof *out);
    cc->doc->names = out;
    cc->doc->n_names = n;
    free(acc);
}

void qr_cc_spreadsheet(qr_cc *cc, json_t *root)
{
    qr_doc *doc = cc->doc;
    qr_cc_check_obj(cc, root, QR_SO_WORKBOOK, "a spreadsheet spec");
    qr_cc_title_lang(cc, root);
    json_t *ext = json_object_get(root, "allow_external");
    if (ext && !json_is_boolean(ext)) {
        size_t oe = qr_cc_push_key(cc, "allow_external");
        qr_cc_err(cc, "use true or false", "expected a boolean, got %s", qr_cc_type_name(ext));
        qr_cc_pop(cc, oe);
    }
    cc->allow_external = json_is_true(ext);
    doc->allow_external = cc->allow_external;
    json_t *sheets = json_object_get(root, "sheets");
    if (!sheets) {
        qr_cc_err(cc, "add \"sheets\": [{\"name\": \"Data\", \"rows\": [[\"a\", 1]]}]",
                  "missing \"sheets\"");
        return;
    }
    size_t o = qr_cc_push_key(cc, "sheets");
    if (!json_is_array(sheets)) {
        qr_cc_err(cc, "sheets is an array: [{\"name\": \"Data\", \"rows\": [[\"a\", 1]]}]",
                  "expected an array of sheets, got %s", qr_cc_type_name(sheets));
        qr_cc_pop(cc, o);
        return;
    }
    size_t n = json_array_size(sheets);
    fmt_table ft = {.a = cc->a};
    qr_cc_stream *cs = cc->stream;
    if (cs) { /* the formats the streamed rows met, in the order they met them */
        ft = cs->fmts;
        memset(&cs->fmts, 0, sizeof cs->fmts);
    }
    const char **names = NULL;
    qr_sheet *ss = NULL;
    if (!qr_cc_check_blocks(cc, n, "sheets")) goto done;
    if (!cs && fmt_index(cc, &ft, "General", 7) != 0) {
        qr_cc_oom(cc);
        goto done;
    }
    names = calloc(n ? n : 1, sizeof *names);
    ss = n ? qr_arena_array(cc->a, n, sizeof *ss) : NULL;
    if (!names || (n && !ss)) {
        qr_cc_oom(cc);
        goto done;
    }
    sheet_names(cc, sheets, names);
    cc->sheet_names = names;
    cc->n_sheet_names = n;
    for (size_t i = 0; i < n; i++) {
        size_t o2 = qr_cc_push_index(cc, i);
        json_t *sv = json_array_get(sheets, i);
        const qr_srows *sr = qr_cc_stream_rows(cc, i);
        cc->cur_sheet = i;
        if (cs && json_is_object(sv) &&
            ((!cs->all && json_object_get(sv, "charts")) || json_object_get(sv, "tables")))
            cs->fallback = 1; /* charts and tables read cells of any row: the tree path */
        sheet(cc, &ft, sv, &ss[i], names[i], sr);
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
    qr_cc_looks(cc, root, &ft); /* every row is read: the styles they name resolve */
    o = qr_cc_push_key(cc, "sheets");
    const char **formats = qr_arena_array(cc->a, ft.n, sizeof *formats);
    if (!formats) {
        qr_cc_oom(cc);
        goto done;
    }
    memcpy(formats, ft.items, ft.n * sizeof *formats);
    doc->formats = formats;
    doc->n_formats = ft.n;
    doc->sheets = ss;
    doc->n_sheets = n;
    for (size_t i = 0; i < n; i++) /* charts last: their ranges name any sheet */
        sheet_charts(cc, json_array_get(sheets, i), i, &ss[i]);
    qr_cc_pop(cc, o);
    defined_names(cc, root, sheets);
    table_names(cc, ss, n);
    formula_names(cc, ss, n);
    o = qr_cc_push_key(cc, "sheets");
done:
    cc->sheet_names = NULL;
    cc->n_sheet_names = 0;
    free(names);
    if (cs)
        cs->fmts = ft; /* the stream's second pass looks formats up in the same table */
    else
        qr_cc_fmts_free(&ft);
    qr_cc_pop(cc, o);
}
