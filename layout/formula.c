/* formula.c: the formula evaluator (formula.h). A recursive-descent
 * evaluator over the formula text (no tree is built): each operator level
 * of Excel's precedence is one function, references read the sheets'
 * cells, and a referenced formula is evaluated on demand and remembered,
 * so each formula is computed once. A formula met again while it is being
 * computed is a cycle: it and everything that needs it get no value.
 *
 * Every step draws on the document's work budget (budget.h): a formula
 * evaluated, each row a range spans and each of its cells, each 16 bytes of
 * a string built. A string result is at most Excel's 32,767 characters
 * (#VALUE! past it), built once in a growing buffer (no copy per operand).
 */
#include "formula.h"
#include "cnum.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "civil.h"

enum { V_NONE, V_NUM, V_BOOL, V_STR, V_ERR, V_EMPTY, V_RANGE };

typedef struct val {
    int t;
    double n;
    const char *s; /* V_STR (len bytes), V_ERR (the error's text) */
    size_t len;
    size_t sheet; /* V_RANGE */
    uint32_t r0, c0, r1, c1;
} val;

#define MAX_DEPTH 1000 /* nested references evaluated on demand */
#define MAX_NEST 256   /* parentheses, arguments and signs nested in one formula */
#define MAX_ARGS 64

/* A formula's evaluation state, kept beside it (open addressing by address). */
/* ST_RETRY: gave up at MAX_DEPTH; tried again from another cell (a chain
 * that runs down the sheet resolves from its bottom end). */
enum { ST_BUSY = 1, ST_NONE = 2, ST_RETRY = 3 };
typedef struct slot {
    const qr_formula *f;
    int st;
} slot;

typedef struct ev {
    qr_doc *doc;
    long long epoch;
    slot *slots;
    size_t cap;
    int depth;
    int cycle;       /* a cycle was met */
    int deep;        /* MAX_DEPTH was hit in the current top-level evaluation */
    int retry;       /* some formula is ST_RETRY */
    qr_budget *work; /* the document's (budget.h) */
    int over;        /* the budget ran out: nothing more is computed */
    int oom;
} ev;

typedef struct cur {
    ev *e;
    const char *p;
    size_t sheet;
    int nest;    /* expr() and sign levels open: past MAX_NEST the formula is not computed */
    long dr, dc; /* relative references move by these (a conditional format's cell) */
} cur;

static const char E_DIV0[] = "#DIV/0!", E_REF[] = "#REF!", E_NAME[] = "#NAME?",
                  E_VALUE[] = "#VALUE!", E_NA[] = "#N/A", E_NUM[] = "#NUM!";

static val v_num(double n)
{
    if (!isfinite(n)) return (val){.t = V_ERR, .s = E_NUM};
    return (val){.t = V_NUM, .n = n};
}
static val v_bool(int b)
{
    return (val){.t = V_BOOL, .n = b ? 1 : 0};
}
static val v_err(const char *e)
{
    return (val){.t = V_ERR, .s = e};
}
static val v_none(void)
{
    return (val){.t = V_NONE};
}
static val v_str(const char *s, size_t n)
{
    return (val){.t = V_STR, .s = s, .len = n};
}

/* Characters of UTF-8 text as Excel counts them (UTF-16 units). */
static size_t utf16_units(const char *s, size_t n)
{
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) u += (unsigned char)s[i] >= 0xF0 ? 2 : 1;
    return u;
}

/* ---- state of formulas ------------------------------------------------------------ */

static slot *find_slot(ev *e, const qr_formula *f)
{
    if (!e->cap) return NULL;
    size_t h = ((uintptr_t)f >> 3) * 11400714819323198485ull & (e->cap - 1);
    while (e->slots[h].f && e->slots[h].f != f)
        h = (h + 1) & (e->cap - 1);
    return &e->slots[h];
}

/* ---- cells -------------------------------------------------------------------------- */

static val eval_text(ev *e, size_t sheet, const char *text);

static val formula_value(ev *e, size_t sheet, const qr_formula *fc)
{
    qr_formula *f = (qr_formula *)fc; /* the tree's own, allocated writable */
    if (f->has_value) {
        if (f->is_error) return v_err(f->str);
        if (f->value_type == QR_CELL_TEXT) return v_str(f->str, strlen(f->str));
        if (f->value_type == QR_CELL_BOOL) return v_bool(f->num != 0);
        return v_num(f->num);
    }
    slot *s = find_slot(e, f);
    if (!s) return v_none();
    if (s->f == f && s->st != ST_RETRY) {
        if (s->st == ST_BUSY) e->cycle = 1;
        return v_none();
    }
    if (e->over || qr_budget_take(e->work, 1)) {
        e->over = 1;
        return v_none();
    }
    if (e->depth >= MAX_DEPTH) {
        e->deep = 1;
        return v_none();
    }
    s->f = f;
    s->st = ST_BUSY;
    e->depth++;
    val v = eval_text(e, sheet, f->text);
    e->depth--;
    if (v.t == V_NONE) {
        s->st = e->deep ? ST_RETRY : ST_NONE;
        e->retry |= e->deep;
        return v;
    }
    if (v.t == V_STR && (v.len > 4 * (size_t)QR_FORMULA_MAX_CHARS ||
                         utf16_units(v.s, v.len) > QR_FORMULA_MAX_CHARS))
        v = v_err(E_VALUE); /* a long text cell named alone (=A1): not a cell value */
    if (v.t == V_STR && qr_budget_take(e->work, v.len / 16 + 1)) {
        e->over = 1;
        s->st = ST_NONE;
        return v_none();
    }
    f->has_value = 1;
    f->is_error = v.t == V_ERR;
    if (v.t == V_ERR || v.t == V_STR) {
        char *c = qr_arena_alloc(&e->doc->arena, v.len + 1);
        if (!c) {
            e->oom = 1;
            f->has_value = 0;
            s->st = ST_NONE;
            return v_none();
        }
        size_t n = v.t == V_ERR ? strlen(v.s) : v.len;
        memcpy(c, v.s, n);
        c[n] = '\0';
        f->str = c;
        f->value_type = QR_CELL_TEXT;
    } else if (v.t == V_BOOL) {
        f->value_type = QR_CELL_BOOL;
        f->num = v.n;
    } else {
        f->value_type = QR_CELL_NUMBER;
        f->num = v.t == V_EMPTY ? 0 : v.n;
    }
    s->st = 0; /* done: has_value answers from now on */
    return v;
}

static val cell_value(ev *e, size_t sheet, uint32_t r, uint32_t c)
{
    const qr_sheet *sh = &e->doc->sheets[sheet];
    if (r >= sh->n_rows || c >= sh->rows[r].n) return (val){.t = V_EMPTY};
    const qr_cell *cell = &sh->rows[r].cells[c];
    switch ((qr_cell_type)cell->type) {
    case QR_CELL_NUMBER:
    case QR_CELL_DATE:
        return v_num(cell->v.num);
    case QR_CELL_BOOL:
        return v_bool(cell->v.num != 0);
    case QR_CELL_TEXT:
        return v_str(cell->v.str ? cell->v.str : "", cell->len);
    case QR_CELL_FORMULA:
        return formula_value(e, sheet, cell->v.formula);
    case QR_CELL_EMPTY:
        break;
    }
    return (val){.t = V_EMPTY};
}

/* A range in a scalar place: its one cell, else #VALUE!. */
static val deref(cur *k, val v)
{
    if (v.t != V_RANGE) return v;
    if (v.r0 == v.r1 && v.c0 == v.c1) return cell_value(k->e, v.sheet, v.r0, v.c0);
    return v_err(E_VALUE);
}

/* ---- coercions ------------------------------------------------------------------------ */

/* A number from v: 0 with *d set, or the failing value (an error, NONE). */
static int to_num(val v, double *d, val *fail)
{
    switch (v.t) {
    case V_NUM:
    case V_BOOL:
        *d = v.n;
        return 0;
    case V_EMPTY:
        *d = 0;
        return 0;
    case V_STR: {
        char buf[64];
        size_t n = v.len;
        while (n && v.s[n - 1] == ' ')
            n--;
        size_t i = 0;
        while (i < n && v.s[i] == ' ')
            i++;
        if (n - i == 0 || n - i >= sizeof buf) break;
        memcpy(buf, v.s + i, n - i);
        buf[n - i] = '\0';
        char *end;
        double x = qr_strtod_c(buf, &end);
        if (*end || buf[0] == 'n' || buf[0] == 'N' || buf[0] == 'i' || buf[0] == 'I') break;
        *d = x;
        return 0;
    }
    case V_ERR:
    case V_NONE:
        *fail = v;
        return -1;
    }
    *fail = v_err(E_VALUE);
    return -1;
}

/* The text of v into the arena: 0, or -1 with *fail. */
static int to_str(ev *e, val v, const char **s, size_t *n, val *fail)
{
    char tmp[32]; /* on this stack: two threads evaluate at once */
    switch (v.t) {
    case V_STR:
        *s = v.s;
        *n = v.len;
        return 0;
    case V_EMPTY:
        *s = "";
        *n = 0;
        return 0;
    case V_BOOL:
        *s = v.n ? "TRUE" : "FALSE";
        *n = strlen(*s);
        return 0;
    case V_NUM: {
        /* General format: 15 significant digits, as Excel shows */
        qr_snprintf_c(tmp, sizeof tmp, "%.15G", v.n == 0 ? 0.0 : v.n);
        char *ex = strchr(tmp, 'E');
        if (ex && (ex[1] == '+' || ex[1] == '-') && ex[2] == '0')
            memmove(ex + 2, ex + 3, strlen(ex + 3) + 1);
        size_t len = strlen(tmp);
        char *c = qr_arena_alloc(&e->doc->arena, len + 1);
        if (!c) {
            e->oom = 1;
            *fail = v_none();
            return -1;
        }
        memcpy(c, tmp, len + 1);
        *s = c;
        *n = len;
        return 0;
    }
    default:
        *fail = v;
        return -1;
    }
}

static int to_bool(val v, int *b, val *fail)
{
    if (v.t == V_NUM || v.t == V_BOOL || v.t == V_EMPTY) {
        *b = v.n != 0;
        return 0;
    }
    if (v.t == V_STR) {
        if (v.len == 4 && strncasecmp(v.s, "TRUE", 4) == 0) return *b = 1, 0;
        if (v.len == 5 && strncasecmp(v.s, "FALSE", 5) == 0) return *b = 0, 0;
        *fail = v_err(E_VALUE);
        return -1;
    }
    *fail = v;
    return -1;
}

/* ---- the parser-evaluator ----------------------------------------------------------------- */

static void ws(cur *k)
{
    while (*k->p == ' ' || *k->p == '\n' || *k->p == '\r' || *k->p == '\t')
        k->p++;
}

static val expr(cur *k);

/* Column letters and row digits of a reference at s ($ allowed), the
 * parts without $ moved by dr rows and dc columns; the length, or 0 when s
 * is not one (or moves off the grid). */
static size_t parse_ref(const char *s, size_t n, uint32_t *row, uint32_t *col, long dr, long dc)
{
    size_t i = 0;
    int abs_c = 0, abs_r = 0;
    if (i < n && s[i] == '$') i++, abs_c = 1;
    uint64_t c = 0;
    size_t l0 = i;
    while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')) && i - l0 < 4)
        c = c * 26 + (uint64_t)((s[i++] | 0x20) - 'a' + 1);
    if (i == l0 || c > 16384) return 0;
    if (i < n && s[i] == '$') i++, abs_r = 1;
    uint64_t r = 0;
    size_t d0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - d0 < 8)
        r = r * 10 + (uint64_t)(s[i++] - '0');
    if (i == d0 || r == 0 || r > 1048576 || i != n) return 0;
    long long rr = (long long)r - 1 + (abs_r ? 0 : dr), cc = (long long)c - 1 + (abs_c ? 0 : dc);
    if (rr < 0 || rr >= 1048576 || cc < 0 || cc >= 16384) return 0;
    *row = (uint32_t)rr;
    *col = (uint32_t)cc;
    return i;
}

static int find_sheet(ev *e, const char *name, size_t n, size_t *out)
{
    for (size_t i = 0; i < e->doc->n_sheets; i++) {
        const char *s = e->doc->sheets[i].name;
        if (s && strlen(s) == n && strncasecmp(s, name, n) == 0) {
            *out = i;
            return 0;
        }
    }
    return -1;
}

static int word_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '.' || c == '$';
}

/* A reference (or range) at the cursor on sheet `sheet`; bad: #REF!/#NAME?. */
static val reference(cur *k, size_t sheet, const char *w, size_t wn)
{
    uint32_t r0, c0, r1, c1;
    if (!parse_ref(w, wn, &r0, &c0, k->dr, k->dc)) return v_err(E_NAME);
    r1 = r0, c1 = c0;
    if (*k->p == ':') {
        const char *s = ++k->p;
        while (word_char(*k->p))
            k->p++;
        if (!parse_ref(s, (size_t)(k->p - s), &r1, &c1, k->dr, k->dc)) return v_none();
    }
    val v = {.t = V_RANGE, .sheet = sheet};
    v.r0 = r0 < r1 ? r0 : r1, v.r1 = r0 < r1 ? r1 : r0;
    v.c0 = c0 < c1 ? c0 : c1, v.c1 = c0 < c1 ? c1 : c0;
    return v;
}

static val call(cur *k, const char *name, size_t n);

/* A structured reference after a table's name at k->p ('['): Name[Column],
 * Name[#Data], Name[#All], Name[#Headers], Name[#Totals] ('[ '] '# ''
 * escape a column name's characters). A table or column quire does not
 * know: NONE (not computed). */
static val structured(cur *k, const char *w, size_t wn)
{
    const qr_doc *d = k->e->doc;
    const qr_sheet_table *t = NULL;
    size_t sheet = 0;
    for (size_t i = 0; i < d->n_sheets && !t; i++)
        for (size_t j = 0; j < d->sheets[i].n_tables && !t; j++)
            if (strlen(d->sheets[i].tables[j].name) == wn &&
                strncasecmp(d->sheets[i].tables[j].name, w, wn) == 0)
                t = &d->sheets[i].tables[j], sheet = i;
    char item[256];
    size_t n = 0;
    k->p++; /* '[' */
    while (*k->p && *k->p != ']') {
        if (*k->p == '[') return v_none(); /* [[#This Row],[Col]]: not ours */
        if (*k->p == '\'' && k->p[1]) k->p++;
        if (n + 1 >= sizeof item) return v_none();
        item[n++] = *k->p++;
    }
    if (*k->p != ']' || !t) return v_none();
    k->p++;
    item[n] = '\0';
    val v = {.t = V_RANGE, .sheet = sheet};
    v.r0 = t->range.r0 + 1, v.r1 = t->range.r1, v.c0 = t->range.c0, v.c1 = t->range.c1;
    if (strcasecmp(item, "#All") == 0) {
        v.r0 = t->range.r0;
        if (t->totals) v.r1++;
    } else if (strcasecmp(item, "#Headers") == 0) {
        v.r0 = v.r1 = t->range.r0;
    } else if (strcasecmp(item, "#Totals") == 0) {
        if (!t->totals) return v_err(E_REF);
        v.r0 = v.r1 = t->range.r1 + 1;
    } else if (strcasecmp(item, "#Data") != 0) {
        size_t c = 0, nc = t->range.c1 - t->range.c0 + 1;
        while (c < nc && strcasecmp(t->cols[c], item) != 0)
            c++;
        if (c == nc) return v_err(E_REF);
        v.c0 = v.c1 = t->range.c0 + (uint32_t)c;
    }
    return v;
}

static val primary(cur *k)
{
    ws(k);
    const char *p = k->p;
    if (*p == '(') {
        k->p++;
        val v = expr(k);
        ws(k);
        if (*k->p != ')') return v_none();
        k->p++;
        return v;
    }
    if (*p == '"') {
        /* a string: "" is a quote; copied only when it holds one */
        const char *s = ++k->p;
        size_t quotes = 0;
        for (;;) {
            if (!*k->p) return v_none();
            if (*k->p == '"') {
                if (k->p[1] != '"') break;
                quotes++;
                k->p++;
            }
            k->p++;
        }
        size_t n = (size_t)(k->p - s);
        k->p++;
        if (!quotes) return v_str(s, n);
        char *c = qr_arena_alloc(&k->e->doc->arena, n + 1);
        if (!c) return k->e->oom = 1, v_none();
        size_t j = 0;
        for (size_t i = 0; i < n; i++) {
            c[j++] = s[i];
            if (s[i] == '"') i++;
        }
        c[j] = '\0';
        return v_str(c, j);
    }
    if ((*p >= '0' && *p <= '9') || *p == '.') {
        char *end;
        double d = qr_strtod_c(p, &end);
        if (end == p) return v_none();
        k->p = end;
        return v_num(d);
    }
    if (*p == '#') {
        static const char *const errs[] = {E_DIV0, E_REF, E_NAME, E_VALUE, E_NA, E_NUM, "#NULL!"};
        for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
            size_t n = strlen(errs[i]);
            if (strncasecmp(p, errs[i], n) == 0) {
                k->p += n;
                return v_err(errs[i]);
            }
        }
        return v_none();
    }
    size_t sheet = k->sheet;
    if (*p == '\'') {
        /* 'quoted sheet name'!A1 ('' is a quote) */
        char name[256];
        size_t n = 0;
        k->p++;
        for (;;) {
            if (!*k->p) return v_none();
            if (*k->p == '\'') {
                if (k->p[1] != '\'') break;
                k->p++;
            }
            if (n + 1 >= sizeof name) return v_none();
            name[n++] = *k->p++;
        }
        k->p++;
        if (*k->p != '!') return v_none();
        k->p++;
        int bad = find_sheet(k->e, name, n, &sheet) != 0;
        const char *w = k->p;
        while (word_char(*k->p))
            k->p++;
        val v = reference(k, sheet, w, (size_t)(k->p - w));
        return bad && v.t == V_RANGE ? v_err(E_REF) : v;
    }
    if (!word_char(*p) || *p == '.') return v_none();
    while (word_char(*k->p))
        k->p++;
    const char *w = p;
    size_t wn = (size_t)(k->p - p);
    if (*k->p == '!') {
        k->p++;
        int bad = find_sheet(k->e, w, wn, &sheet) != 0;
        const char *r = k->p;
        while (word_char(*k->p))
            k->p++;
        val v = reference(k, sheet, r, (size_t)(k->p - r));
        return bad && v.t == V_RANGE ? v_err(E_REF) : v;
    }
    if (*k->p == '[') return structured(k, w, wn);
    const char *after = k->p;
    ws(k);
    if (*k->p == '(') {
        k->p++;
        return call(k, w, wn);
    }
    k->p = after;
    if (wn == 4 && strncasecmp(w, "TRUE", 4) == 0) return v_bool(1);
    if (wn == 5 && strncasecmp(w, "FALSE", 5) == 0) return v_bool(0);
    int is_ref = parse_ref(w, wn, &(uint32_t){0}, &(uint32_t){0}, 0, 0) != 0;
    if (*k->p == ':' && !is_ref) return v_none(); /* whole columns or rows (A:A, 1:1): not ours */
    if (!is_ref) {
        /* a defined name: the sheet's own first, then the workbook's */
        const qr_doc *d = k->e->doc;
        const qr_name *hit = NULL;
        for (size_t i = 0; i < d->n_names && !hit; i++)
            if (d->names[i].scope == (int)sheet && strlen(d->names[i].name) == wn &&
                strncasecmp(d->names[i].name, w, wn) == 0)
                hit = &d->names[i];
        for (size_t i = 0; i < d->n_names && !hit; i++)
            if (d->names[i].scope < 0 && strlen(d->names[i].name) == wn &&
                strncasecmp(d->names[i].name, w, wn) == 0)
                hit = &d->names[i];
        if (hit) {
            val v = {.t = V_RANGE, .sheet = hit->sheet};
            v.r0 = hit->range.r0, v.r1 = hit->range.r1, v.c0 = hit->range.c0, v.c1 = hit->range.c1;
            return v;
        }
    }
    return reference(k, sheet, w, wn);
}

static val postfix(cur *k)
{
    val v = primary(k);
    for (;;) {
        ws(k);
        if (*k->p != '%') return v;
        k->p++;
        double d;
        val f;
        if (to_num(deref(k, v), &d, &f)) return f;
        v = v_num(d / 100);
    }
}

static val unary(cur *k)
{
    ws(k);
    if (*k->p == '-' || *k->p == '+') {
        int neg = *k->p == '-';
        k->p++;
        if (k->nest >= MAX_NEST) return v_none();
        k->nest++;
        val v = deref(k, unary(k));
        k->nest--;
        double d;
        val f;
        if (to_num(v, &d, &f)) return f;
        return v_num(neg ? -d : d);
    }
    return postfix(k);
}

/* The worse of two operands: NONE first, then the left error. */
static int both_num(cur *k, val a, val b, double *x, double *y, val *fail)
{
    a = deref(k, a), b = deref(k, b);
    if (a.t == V_NONE || b.t == V_NONE) return *fail = v_none(), -1;
    if (to_num(a, x, fail)) return -1;
    return to_num(b, y, fail);
}

static val power(cur *k)
{
    val a = unary(k);
    for (;;) {
        ws(k);
        if (*k->p != '^') return a;
        k->p++;
        val b = unary(k), f;
        double x, y;
        if (both_num(k, a, b, &x, &y, &f)) return f;
        if (x == 0 && y <= 0) return v_err(y == 0 ? E_NUM : E_DIV0);
        a = v_num(pow(x, y));
    }
}

static val mul(cur *k)
{
    val a = power(k);
    for (;;) {
        ws(k);
        char op = *k->p;
        if (op != '*' && op != '/') return a;
        k->p++;
        val b = power(k), f;
        double x, y;
        if (both_num(k, a, b, &x, &y, &f)) {
            a = f;
            continue;
        }
        if (op == '/' && y == 0)
            a = v_err(E_DIV0);
        else
            a = v_num(op == '*' ? x * y : x / y);
    }
}

static val add(cur *k)
{
    val a = mul(k);
    for (;;) {
        ws(k);
        char op = *k->p;
        if (op != '+' && op != '-') return a;
        k->p++;
        val b = mul(k), f;
        double x, y;
        if (both_num(k, a, b, &x, &y, &f)) {
            a = f;
            continue;
        }
        a = v_num(op == '+' ? x + y : x - y);
    }
}

/* A string built from operands (& and CONCAT): the text grows in one buffer
 * and is copied into the arena once. No value (NONE) anywhere wins, then the
 * first error; past QR_FORMULA_MAX_CHARS the result is #VALUE!. */
typedef struct sbuild {
    qr_buf b;
    size_t chars; /* UTF-16 units, as Excel counts */
    int none, failed;
    val fail;
} sbuild;

static void sb_add(cur *k, sbuild *sb, val v)
{
    v = deref(k, v);
    if (v.t == V_NONE) sb->none = 1;
    if (sb->none || sb->failed) return;
    const char *t;
    size_t m;
    val f;
    if (to_str(k->e, v, &t, &m, &f)) {
        if (f.t == V_NONE)
            sb->none = 1;
        else
            sb->failed = 1, sb->fail = f;
        return;
    }
    if (qr_budget_take(k->e->work, m / 16 + 1)) {
        k->e->over = 1;
        sb->none = 1;
        return;
    }
    size_t u = utf16_units(t, m);
    if (sb->chars + u > QR_FORMULA_MAX_CHARS) {
        sb->failed = 1, sb->fail = v_err(E_VALUE);
        return;
    }
    sb->chars += u;
    if (m && qr_buf_append(&sb->b, t, m)) {
        k->e->oom = 1;
        sb->none = 1;
    }
}

static val sb_end(cur *k, sbuild *sb)
{
    val v = sb->none ? v_none() : sb->failed ? sb->fail : v_str("", 0);
    if (v.t == V_STR && sb->b.len) {
        char *c = qr_arena_alloc(&k->e->doc->arena, sb->b.len + 1);
        if (!c) {
            k->e->oom = 1;
            v = v_none();
        } else {
            memcpy(c, sb->b.data, sb->b.len);
            c[sb->b.len] = '\0';
            v = v_str(c, sb->b.len);
        }
    }
    qr_buf_free(&sb->b);
    return v;
}

static val cat(cur *k)
{
    val a = add(k);
    ws(k);
    if (*k->p != '&') return a;
    sbuild sb = {0};
    sb_add(k, &sb, a);
    while (*k->p == '&') {
        k->p++;
        sb_add(k, &sb, add(k));
        ws(k);
    }
    return sb_end(k, &sb);
}

/* x to 15 significant digits: Excel rounds both numbers of a comparison so
 * (0.1+0.2=0.3 is TRUE; a difference is not rounded: 0.1+0.2-0.3=0 is FALSE). */
static double round15(double x)
{
    if (x == 0 || !isfinite(x)) return x;
    char buf[40];
    qr_snprintf_c(buf, sizeof buf, "%.14e", x);
    return qr_strtod_c(buf, NULL);
}

/* Excel's order across types: numbers < text < booleans; text ignores case;
 * numbers as their 15 significant digits. */
static int compare(val a, val b)
{
    if (a.t == V_EMPTY) a = b.t == V_STR ? v_str("", 0) : b.t == V_BOOL ? v_bool(0) : v_num(0);
    if (b.t == V_EMPTY) b = a.t == V_STR ? v_str("", 0) : a.t == V_BOOL ? v_bool(0) : v_num(0);
    int ra = a.t == V_NUM ? 0 : a.t == V_STR ? 1 : 2, rb = b.t == V_NUM ? 0 : b.t == V_STR ? 1 : 2;
    if (ra != rb) return ra < rb ? -1 : 1;
    if (a.t == V_STR) {
        size_t n = a.len < b.len ? a.len : b.len;
        for (size_t i = 0; i < n; i++) {
            int x = (unsigned char)a.s[i], y = (unsigned char)b.s[i];
            if (x >= 'A' && x <= 'Z') x |= 0x20;
            if (y >= 'A' && y <= 'Z') y |= 0x20;
            if (x != y) return x < y ? -1 : 1;
        }
        return a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
    }
    double x = a.t == V_NUM ? round15(a.n) : a.n, y = a.t == V_NUM ? round15(b.n) : b.n;
    return x == y ? 0 : x < y ? -1 : 1;
}

static val cmp(cur *k)
{
    val a = cat(k);
    for (;;) {
        ws(k);
        const char *p = k->p;
        int op; /* 1 =, 2 <>, 3 <, 4 >, 5 <=, 6 >= */
        if (p[0] == '=')
            op = 1, k->p += 1;
        else if (p[0] == '<' && p[1] == '>')
            op = 2, k->p += 2;
        else if (p[0] == '<' && p[1] == '=')
            op = 5, k->p += 2;
        else if (p[0] == '>' && p[1] == '=')
            op = 6, k->p += 2;
        else if (p[0] == '<')
            op = 3, k->p += 1;
        else if (p[0] == '>')
            op = 4, k->p += 1;
        else
            return a;
        val b = deref(k, cat(k));
        a = deref(k, a);
        if (a.t == V_NONE || b.t == V_NONE) {
            a = v_none();
            continue;
        }
        if (a.t == V_ERR) continue;
        if (b.t == V_ERR) {
            a = b;
            continue;
        }
        int c = compare(a, b);
        int r = op == 1   ? c == 0
                : op == 2 ? c != 0
                : op == 3 ? c < 0
                : op == 4 ? c > 0
                : op == 5 ? c <= 0
                          : c >= 0;
        a = v_bool(r);
    }
}

/* The recursive descent nests a C frame per level: a formula of 8,000
 * parentheses overflowed the stack (fuzz_formula). Past MAX_NEST it is left
 * uncomputed, as a formula this evaluator does not read whole. */
static val expr(cur *k)
{
    if (k->nest >= MAX_NEST) return v_none();
    k->nest++;
    val v = cmp(k);
    k->nest--;
    return v;
}

/* ---- functions ------------------------------------------------------------------------------ */

/* Excel functions this evaluator does not compute: the formula keeps no
 * value (recalculated on open) instead of a wrong #NAME?. */
static const char *const known[] = {
    "VLOOKUP",   "HLOOKUP",    "XLOOKUP",   "INDEX",       "MATCH",       "SUMIF",      "SUMIFS",
    "COUNTIF",   "COUNTIFS",   "AVERAGEIF", "AVERAGEIFS",  "SUMPRODUCT",  "TEXT",       "VALUE",
    "LEFT",      "RIGHT",      "MID",       "FIND",        "SEARCH",      "SUBSTITUTE", "TRIM",
    "REPT",      "NOW",        "RAND",      "RANDBETWEEN", "INT",         "MOD",        "POWER",
    "SQRT",      "LN",         "LOG",       "LOG10",       "EXP",         "PI",         "ROUNDUP",
    "ROUNDDOWN", "CEILING",    "FLOOR",     "TRUNC",       "MEDIAN",      "MODE",       "STDEV",
    "STDEVP",    "VAR",        "VARP",      "LARGE",       "SMALL",       "RANK",       "OFFSET",
    "INDIRECT",  "CHOOSE",     "ISBLANK",   "ISERROR",     "ISNUMBER",    "ISTEXT",     "NA",
    "IFS",       "SWITCH",     "XOR",       "EOMONTH",     "EDATE",       "WEEKDAY",    "HOUR",
    "MINUTE",    "SECOND",     "TIME",      "DATEVALUE",   "NETWORKDAYS", "PMT",        "NPV",
    "IRR",       "FV",         "PV",        "TEXTJOIN",    "PROPER",      "EXACT",      "CHAR",
    "CODE",      "UNIQUE",     "FILTER",    "SORT",        "SEQUENCE",    "LET",        "LAMBDA",
    "TRANSPOSE", "COUNTBLANK", "PRODUCT",   "SUMSQ",       "ROWS",        "COLUMNS",    "ROW",
    "COLUMN",    "ADDRESS",    "HYPERLINK", "ISNA",        "ISLOGICAL",   "IFNA",       "N",
    "T",         "SIGN",       "FACT",      "DAYS",        "DATEDIF",     "WORKDAY",    "YEARFRAC",
    "AVERAGEA",  "MAXA",       "MINA",      NULL};

static int name_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && strncasecmp(w, s, n) == 0;
}

/* Aggregation over arguments: numbers in ranges, numbers, booleans and
 * numeric text given directly. */
typedef struct agg {
    double sum, min, max;
    size_t count;  /* numbers */
    size_t counta; /* non-empty values */
} agg;

static void agg_add(agg *a, double d)
{
    if (!a->count || d < a->min) a->min = d;
    if (!a->count || d > a->max) a->max = d;
    a->sum += d;
    a->count++;
}

/* Draw a range's row r on the budget: the row and the cells of it the
 * range covers. 0, or -1 (e->over) when the budget is spent. */
static int range_row_cost(ev *e, const qr_sheet *sh, const val *v, uint32_t r)
{
    uint64_t cells = 0;
    uint32_t n = sh->rows[r].n;
    if (v->c0 < n) cells = (uint64_t)(v->c1 < n ? v->c1 : n - 1) - v->c0 + 1;
    if (qr_budget_take(e->work, 1 + cells)) return e->over = 1, -1;
    return 0;
}

/* 0, or -1 with *fail (errors propagate unless soft: COUNT and COUNTA). */
static int aggregate(cur *k, const val *args, size_t n, agg *a, int soft, val *fail)
{
    memset(a, 0, sizeof *a);
    for (size_t i = 0; i < n; i++) {
        val v = args[i];
        if (v.t == V_NONE) return *fail = v, -1;
        if (v.t == V_RANGE) {
            const qr_sheet *sh = &k->e->doc->sheets[v.sheet];
            for (uint32_t r = v.r0; r <= v.r1 && r < sh->n_rows; r++) {
                if (range_row_cost(k->e, sh, &v, r)) return *fail = v_none(), -1;
                for (uint32_t c = v.c0; c <= v.c1 && c < sh->rows[r].n; c++) {
                    val x = cell_value(k->e, v.sheet, r, c);
                    if (x.t == V_NONE) return *fail = x, -1;
                    if (x.t != V_EMPTY) a->counta++;
                    if (x.t == V_ERR && !soft) return *fail = x, -1;
                    if (x.t == V_NUM) agg_add(a, x.n);
                }
            }
            continue;
        }
        a->counta++;
        if (v.t == V_ERR) {
            if (!soft) return *fail = v, -1;
            continue;
        }
        double d;
        val f;
        if (to_num(v, &d, &f)) {
            if (!soft) return *fail = f, -1;
            continue;
        }
        agg_add(a, d);
    }
    return 0;
}

/* Excel serials (1900 system, with its 29 February 1900) and civil dates. */

static val date_parts(double serial, int which)
{
    if (serial < 0 || serial >= 2958466) return v_err(E_NUM);
    long long s = (long long)floor(serial);
    long long y;
    unsigned m, d;
    if (s == 0)
        y = 1900, m = 1, d = 0;
    else if (s == 60)
        y = 1900, m = 2, d = 29;
    else
        qr_civil_from_days(QR_EXCEL_EPOCH + (s < 60 ? s + 1 : s), &y, &m, &d);
    return v_num(which == 0 ? (double)y : which == 1 ? (double)m : (double)d);
}

static val upper_lower(cur *k, val v, int upper)
{
    const char *s;
    size_t n;
    val f;
    if (to_str(k->e, v, &s, &n, &f)) return f;
    if (qr_budget_take(k->e->work, n / 16 + 1)) return k->e->over = 1, v_none();
    char *c = qr_arena_alloc(&k->e->doc->arena, n + 1);
    if (!c) return k->e->oom = 1, v_none();
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (upper && ch >= 'a' && ch <= 'z') ch = (char)(ch - 32);
        if (!upper && ch >= 'A' && ch <= 'Z') ch = (char)(ch + 32);
        c[i] = ch;
    }
    c[n] = '\0';
    return v_str(c, n);
}

static val call(cur *k, const char *w, size_t wn)
{
    if (wn > 6 && strncasecmp(w, "_xlfn.", 6) == 0) w += 6, wn -= 6; /* as stored in files */
    val args[MAX_ARGS];
    int given[MAX_ARGS];
    size_t n = 0;
    ws(k);
    if (*k->p == ')') {
        k->p++;
    } else {
        for (;;) {
            if (n == MAX_ARGS) return v_none();
            ws(k);
            if (*k->p == ',' || *k->p == ')') {
                args[n] = (val){.t = V_EMPTY};
                given[n++] = 0;
            } else {
                args[n] = expr(k);
                given[n++] = 1;
            }
            ws(k);
            if (*k->p == ',') {
                k->p++;
                continue;
            }
            if (*k->p != ')') return v_none();
            k->p++;
            break;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (args[i].t == V_NONE) return v_none();
    agg a;
    val f;
    double x, y;
#define NAME(s) name_is(w, wn, s)
#define ARGS(lo, hi)                                                                               \
    do {                                                                                           \
        if (n < (lo) || n > (hi)) return v_err(E_VALUE);                                           \
    } while (0)
    if (NAME("SUM") || NAME("AVERAGE") || NAME("MIN") || NAME("MAX")) {
        ARGS(1, MAX_ARGS);
        if (aggregate(k, args, n, &a, 0, &f)) return f;
        if (NAME("SUM")) return v_num(a.sum);
        if (NAME("AVERAGE")) return a.count ? v_num(a.sum / (double)a.count) : v_err(E_DIV0);
        return v_num(a.count ? NAME("MIN") ? a.min : a.max : 0);
    }
    if (NAME("SUBTOTAL")) { /* 1-5 and 9 (101-105, 109): hidden rows count too */
        ARGS(2, MAX_ARGS);
        if (to_num(deref(k, args[0]), &x, &f)) return f;
        int code = (int)x % 100;
        if (x < 1 || (code > 5 && code != 9)) return v_none(); /* not computed here */
        if (aggregate(k, args + 1, n - 1, &a, code == 2 || code == 3, &f)) return f;
        switch (code) {
        case 1:
            return a.count ? v_num(a.sum / (double)a.count) : v_err(E_DIV0);
        case 2:
            return v_num((double)a.count);
        case 3:
            return v_num((double)a.counta);
        case 4:
            return v_num(a.count ? a.max : 0);
        case 5:
            return v_num(a.count ? a.min : 0);
        default:
            return v_num(a.sum);
        }
    }
    if (NAME("COUNT") || NAME("COUNTA")) {
        ARGS(1, MAX_ARGS);
        if (aggregate(k, args, n, &a, 1, &f)) return f;
        return v_num((double)(NAME("COUNT") ? a.count : a.counta));
    }
    if (NAME("ROUND")) {
        ARGS(2, 2);
        if (both_num(k, args[0], args[1], &x, &y, &f)) return f;
        int digits = (int)trunc(y);
        if (digits > 15) digits = 15;
        if (digits < -15) digits = -15;
        double p = pow(10, digits < 0 ? -digits : digits);
        double s = digits < 0 ? fabs(x) / p : fabs(x) * p;
        char buf[64];
        qr_snprintf_c(buf, sizeof buf, "%.15g", s); /* 2.675 * 100 = 267.49999...: 267.5 */
        s = floor(qr_strtod_c(buf, NULL) + 0.5);
        s = digits < 0 ? s * p : s / p;
        return v_num(x < 0 ? -s : s);
    }
    if (NAME("ABS")) {
        ARGS(1, 1);
        if (to_num(deref(k, args[0]), &x, &f)) return f;
        return v_num(fabs(x));
    }
    if (NAME("IF")) {
        ARGS(1, 3);
        val c = deref(k, args[0]);
        int b;
        if (to_bool(c, &b, &f)) return f;
        if (b) return n >= 2 ? (given[1] ? deref(k, args[1]) : v_num(0)) : v_bool(1);
        return n >= 3 ? (given[2] ? deref(k, args[2]) : v_num(0)) : v_bool(0);
    }
    if (NAME("IFERROR")) {
        ARGS(2, 2);
        val v = deref(k, args[0]);
        return v.t == V_ERR ? deref(k, args[1]) : v;
    }
    if (NAME("AND") || NAME("OR")) {
        ARGS(1, MAX_ARGS);
        int and = NAME("AND"), any = 0, acc = and;
        for (size_t i = 0; i < n; i++) {
            val v = args[i];
            if (v.t == V_RANGE) {
                const qr_sheet *sh = &k->e->doc->sheets[v.sheet];
                for (uint32_t r = v.r0; r <= v.r1 && r < sh->n_rows; r++) {
                    if (range_row_cost(k->e, sh, &v, r)) return v_none();
                    for (uint32_t c = v.c0; c <= v.c1 && c < sh->rows[r].n; c++) {
                        val xv = cell_value(k->e, v.sheet, r, c);
                        if (xv.t == V_NONE || xv.t == V_ERR) return xv;
                        if (xv.t != V_NUM && xv.t != V_BOOL) continue;
                        any = 1;
                        acc = and? acc && xv.n != 0 : acc || xv.n != 0;
                    }
                }
                continue;
            }
            int b;
            if (to_bool(v, &b, &f)) return f;
            any = 1;
            acc = and? acc && b : acc || b;
        }
        return any ? v_bool(acc) : v_err(E_VALUE);
    }
    if (NAME("NOT")) {
        ARGS(1, 1);
        int b;
        if (to_bool(deref(k, args[0]), &b, &f)) return f;
        return v_bool(!b);
    }
    if (NAME("CONCAT") || NAME("CONCATENATE")) {
        ARGS(1, MAX_ARGS);
        sbuild sb = {0};
        for (size_t i = 0; i < n && !sb.none && !sb.failed; i++) {
            val v = args[i];
            if (v.t == V_RANGE && NAME("CONCAT")) {
                const qr_sheet *sh = &k->e->doc->sheets[v.sheet];
                for (uint32_t r = v.r0; r <= v.r1 && r < sh->n_rows && !sb.none && !sb.failed;
                     r++) {
                    if (range_row_cost(k->e, sh, &v, r)) sb.none = 1;
                    for (uint32_t c = v.c0;
                         c <= v.c1 && c < sh->rows[r].n && !sb.none && !sb.failed; c++)
                        sb_add(k, &sb, cell_value(k->e, v.sheet, r, c));
                }
                continue;
            }
            sb_add(k, &sb, v);
        }
        return sb_end(k, &sb);
    }
    if (NAME("LEN")) {
        ARGS(1, 1);
        const char *s;
        size_t len;
        if (to_str(k->e, deref(k, args[0]), &s, &len, &f)) return f;
        if (qr_budget_take(k->e->work, len / 16 + 1)) return k->e->over = 1, v_none();
        return v_num((double)utf16_units(s, len)); /* UTF-16 units, as Excel counts */
    }
    if (NAME("UPPER") || NAME("LOWER")) {
        ARGS(1, 1);
        return upper_lower(k, deref(k, args[0]), NAME("UPPER"));
    }
    if (NAME("TODAY")) {
        if (n) return v_err(E_VALUE);
        long long day = k->e->epoch >= 0 ? k->e->epoch / 86400 : -((-k->e->epoch + 86399) / 86400);
        return v_num((double)(day + 25569));
    }
    if (NAME("DATE")) {
        ARGS(3, 3);
        double d;
        if (both_num(k, args[0], args[1], &x, &y, &f) || to_num(deref(k, args[2]), &d, &f))
            return f;
        long long yy = (long long)trunc(x), mm = (long long)trunc(y), dd = (long long)trunc(d);
        if (yy < 0 || yy >= 10000) return v_err(E_NUM);
        if (yy < 1900) yy += 1900;
        yy += (mm - 1 >= 0 ? (mm - 1) / 12 : -((12 - mm) / 12));
        mm = ((mm - 1) % 12 + 12) % 12 + 1;
        /* the month's first day as Excel counts (before March 1900 one less:
         * its calendar has a 29 February 1900), then the days on from it, so
         * DATE(1900,2,29) is 60 and DATE(1900,3,0) too, as in Excel */
        long long s = qr_days_from_civil(yy, (unsigned)mm, 1) - QR_EXCEL_EPOCH;
        if (s < 61) s -= 1;
        s += dd - 1;
        if (s < 0 || s >= 2958466) return v_err(E_NUM);
        return v_num((double)s);
    }
    if (NAME("YEAR") || NAME("MONTH") || NAME("DAY")) {
        ARGS(1, 1);
        if (to_num(deref(k, args[0]), &x, &f)) return f;
        return date_parts(x, NAME("YEAR") ? 0 : NAME("MONTH") ? 1 : 2);
    }
#undef NAME
#undef ARGS
    for (size_t i = 0; known[i]; i++)
        if (name_is(w, wn, known[i])) return v_none();
    for (size_t i = 0; i < wn; i++)
        if (w[i] == '.') return v_none(); /* _xlfn.X and friends */
    return v_err(E_NAME);
}

static val eval_moved(ev *e, size_t sheet, const char *text, long dr, long dc)
{
    cur k = {e, text, sheet, 0, dr, dc};
    val v = expr(&k);
    ws(&k);
    if (*k.p) return v_none(); /* not a formula we read whole */
    v = deref(&k, v);
    return v;
}

static val eval_text(ev *e, size_t sheet, const char *text)
{
    cur k = {e, text, sheet};
    val v = expr(&k);
    ws(&k);
    if (*k.p) return v_none(); /* not a formula we read whole */
    v = deref(&k, v);
    return v;
}

/* ---- entry points ------------------------------------------------------------------------ */

static int ev_open(ev *e, qr_doc *doc, long long epoch)
{
    memset(e, 0, sizeof *e);
    e->doc = doc;
    e->work = &doc->work;
    e->epoch = epoch;
    size_t count = 0;
    for (size_t s = 0; s < doc->n_sheets; s++)
        for (size_t r = 0; r < doc->sheets[s].n_rows; r++)
            for (uint32_t c = 0; c < doc->sheets[s].rows[r].n; c++)
                count += doc->sheets[s].rows[r].cells[c].type == QR_CELL_FORMULA;
    e->cap = 16;
    while (e->cap < count * 2 + 16)
        e->cap *= 2;
    e->slots = calloc(e->cap, sizeof *e->slots);
    return e->slots ? 0 : -1;
}

static void col_name(uint32_t c, char *buf)
{
    char tmp[8];
    int n = 0;
    for (c++; c; c = (c - 1) / 26)
        tmp[n++] = (char)('A' + (c - 1) % 26);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
}

/* Evaluate the formula at sheet s, row r, column c when it has no value. */
static void eval_cell(ev *e, size_t s, size_t r, uint32_t c, qr_errlist *warnings)
{
    const qr_sheet *sh = &e->doc->sheets[s];
    const qr_cell *cell = &sh->rows[r].cells[c];
    if (cell->type != QR_CELL_FORMULA || cell->v.formula->has_value || e->over) return;
    e->cycle = e->deep = 0;
    val v = formula_value(e, s, cell->v.formula);
    if (v.t == V_NONE && e->cycle && !e->deep && warnings) {
        char col[8];
        col_name(c, col);
        qr_errlist_addf(
            warnings, QR_OK, sh->path ? sh->path : "",
            "break the cycle; the cell is computed when the file opens",
            "the formula in %s!%s%zu refers to itself (a cycle): it has no cached value", sh->name,
            col, r + 1);
    }
}

qr_status qr_formula_eval_doc(qr_doc *doc, long long epoch, qr_errlist *warnings,
                              qr_errlist *errors)
{
    ev e;
    if (ev_open(&e, doc, epoch)) return QR_E_NOMEM;
    for (size_t s = 0; s < doc->n_sheets && !e.oom; s++)
        for (size_t r = 0; r < doc->sheets[s].n_rows; r++)
            for (uint32_t c = 0; c < doc->sheets[s].rows[r].n; c++)
                eval_cell(&e, s, r, c, warnings);
    /* chains deeper than MAX_DEPTH that run down the sheet: from the bottom */
    for (size_t s = doc->n_sheets; e.retry && s-- > 0 && !e.oom;)
        for (size_t r = doc->sheets[s].n_rows; r-- > 0;)
            for (uint32_t c = doc->sheets[s].rows[r].n; c-- > 0;)
                eval_cell(&e, s, r, c, warnings);
    free(e.slots);
    if (e.oom) return QR_E_NOMEM;
    if (e.over) {
        qr_budget_error(e.work, errors, "/sheets", "the formulas");
        return qr_fail(QR_E_LIMIT);
    }
    return QR_OK;
}

static qr_fresult result_of(qr_doc *doc, val v)
{
    qr_fresult res = {QR_FR_NONE, 0, NULL};
    switch (v.t) {
    case V_NUM:
        res.kind = QR_FR_NUMBER, res.num = v.n;
        break;
    case V_EMPTY:
        res.kind = QR_FR_NUMBER, res.num = 0;
        break;
    case V_BOOL:
        res.kind = QR_FR_BOOL, res.num = v.n;
        break;
    case V_STR: {
        char *c = qr_arena_alloc(&doc->arena, v.len + 1);
        if (!c) break;
        memcpy(c, v.s, v.len);
        c[v.len] = '\0';
        res.kind = QR_FR_TEXT, res.str = c;
        break;
    }
    case V_ERR:
        res.kind = QR_FR_ERROR, res.str = v.s;
        break;
    }
    return res;
}

qr_fresult qr_formula_eval(qr_doc *doc, size_t sheet, const char *text, long long epoch)
{
    qr_fresult res = {QR_FR_NONE, 0, NULL};
    ev e;
    if (sheet >= doc->n_sheets || ev_open(&e, doc, epoch)) return res;
    val v = eval_text(&e, sheet, text);
    res = result_of(doc, v);
    free(e.slots);
    return res;
}

struct qr_formula_session {
    ev e;
};

qr_formula_session *qr_formula_session_open(qr_doc *doc, long long epoch)
{
    qr_formula_session *s = malloc(sizeof *s);
    if (s && ev_open(&s->e, doc, epoch)) {
        free(s);
        s = NULL;
    }
    return s;
}

qr_fresult qr_formula_eval_moved(qr_formula_session *s, size_t sheet, const char *text, long dr,
                                 long dc)
{
    qr_fresult res = {QR_FR_NONE, 0, NULL};
    if (!s || sheet >= s->e.doc->n_sheets) return res;
    return result_of(s->e.doc, eval_moved(&s->e, sheet, text, dr, dc));
}

void qr_formula_session_close(qr_formula_session *s)
{
    if (!s) return;
    free(s->e.slots);
    free(s);
}

/* ---- the text written to the file -------------------------------------------------------------
 */

/* Functions newer than the file format: a file names them _xlfn.NAME, or
 * Excel shows #NAME?. */
static const char *const future[] = {"CONCAT", "TEXTJOIN", "IFS",    "SWITCH",   "MAXIFS",
                                     "MINIFS", "XLOOKUP",  "XMATCH", "IFNA",     "XOR",
                                     "DAYS",   "UNIQUE",   "LET",    "SEQUENCE", NULL};

int qr_formula_file_text(const char *text, qr_buf *out)
{
    int changed = 0;
    size_t start = 0, i = 0, n = strlen(text);
    while (i < n) {
        char ch = text[i];
        if (ch == '"' || ch == '\'') { /* strings and quoted sheet names are copied as they are */
            for (i++; i < n && text[i] != ch; i++)
                ;
            i++;
            continue;
        }
        if (!word_char(ch) || (i > 0 && (word_char(text[i - 1]) || text[i - 1] == '.'))) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < n && word_char(text[j]))
            j++;
        if (j < n && text[j] == '(') {
            for (size_t f = 0; future[f]; f++) {
                if (!name_is(text + i, j - i, future[f])) continue;
                qr_buf_append(out, text + start, i - start);
                qr_buf_puts(out, "_xlfn.");
                start = i;
                changed = 1;
                break;
            }
        }
        i = j;
    }
    if (changed) qr_buf_append(out, text + start, n - start);
    return changed;
}
