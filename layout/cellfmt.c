/* cellfmt.c: number formats as displayed (cellfmt.h). A format section is
 * read once into a small description (digit placeholders before and after
 * the point, thousands, percent, scale, exponent, the literal text before
 * and after the number) or, for dates, walked token by token. */
#include "cellfmt.h"
#include "cnum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "civil.h"

typedef struct out {
    char *p;
    size_t n, cap;
    size_t fill_at; /* where the first "*c" fill goes, or (size_t)-1 */
    char fill;
} out;

static void put(out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n && o->n + 1 < o->cap; i++)
        o->p[o->n++] = s[i];
    o->p[o->n] = '\0';
}

static void puts_(out *o, const char *s)
{
    put(o, s, strlen(s));
}

/* Excel's General: integers as they are, else up to 10 significant
 * digits, E notation past 1e11 or under 1e-9. */
static void general(out *o, double v)
{
    char buf[64];
    double a = fabs(v);
    if (v == 0) {
        puts_(o, "0");
        return;
    }
    if (a >= 1e11 || a < 1e-9) {
        /* the fewest digits that read back as v (5E-324, not 4.94066E-324, as
         * LibreOffice shows it), at most six */
        int prec = 0;
        while (prec < 5) {
            qr_snprintf_c(buf, sizeof buf, "%.*E", prec, v);
            if (qr_strtod_c(buf, NULL) == v) break;
            prec++;
        }
        qr_snprintf_c(buf, sizeof buf, "%.*E", prec, v);
        /* trim the mantissa's zeros: 1.00000E+21 -> 1E+21 */
        char *e = strchr(buf, 'E');
        char *m = e;
        while (m > buf && m[-1] == '0')
            m--;
        if (m > buf && m[-1] == '.') m--;
        char exp[16];
        int x = atoi(e + 1);
        snprintf(exp, sizeof exp, "E%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
        put(o, buf, (size_t)(m - buf));
        puts_(o, exp);
        return;
    }
    if (a < 1e11 && v == (double)(long long)v) {
        /* a whole number: its digits (what %f then trimming gives, without
         * printf's cost: autofit and the layout report format every cell) */
        long long k = (long long)a;
        char d[24], *p = d + sizeof d;
        *--p = '\0';
        do {
            *--p = (char)('0' + k % 10);
            k /= 10;
        } while (k);
        if (v < 0) *--p = '-';
        puts_(o, p);
        return;
    }
    int digits = 10 - (a >= 1 ? (int)floor(log10(a)) + 1 : 0);
    if (a < 1) digits = 10;
    if (digits < 0) digits = 0;
    qr_snprintf_c(buf, sizeof buf, "%.*f", digits, v);
    if (strchr(buf, '.')) {
        size_t n = strlen(buf);
        while (n && buf[n - 1] == '0')
            n--;
        if (n && buf[n - 1] == '.') n--;
        buf[n] = '\0';
    }
    if (strcmp(buf, "-0") == 0) strcpy(buf, "0");
    puts_(o, buf);
}

/* ---- sections --------------------------------------------------------------------- */

/* The end of the section starting at f (a ';' or the NUL), skipping
 * quotes, escapes and brackets. */
static const char *section_end(const char *f)
{
    while (*f && *f != ';') {
        if (*f == '"') {
            for (f++; *f && *f != '"'; f++)
                ;
            if (*f) f++;
        } else if (*f == '\\' && f[1]) {
            f += 2;
        } else if (*f == '[') {
            while (*f && *f != ']')
                f++;
            if (*f) f++;
        } else {
            f++;
        }
    }
    return f;
}

static int date_section(const char *f, const char *end)
{
    while (f < end) {
        char c = *f;
        if (c == '"') {
            for (f++; f < end && *f != '"'; f++)
                ;
            f++;
            continue;
        }
        if (c == '\\' || c == '_' || c == '*') {
            f += 2;
            continue;
        }
        if (c == '[') {
            const char *b = f;
            while (f < end && *f != ']')
                f++;
            if (f - b == 2 && (b[1] == 'h' || b[1] == 'H' || b[1] == 'm' || b[1] == 's')) return 1;
            f++;
            continue;
        }
        c = (char)(c | 0x20);
        if (c == 'y' || c == 'd' || c == 'h' || c == 's' || c == 'm') return 1;
        if (c == 'e' && (f[1] == '+' || f[1] == '-')) return 0;
        f++;
    }
    return 0;
}

int qr_cellfmt_is_date(const char *fmt)
{
    if (!fmt || strcasecmp(fmt, "General") == 0) return 0;
    return date_section(fmt, section_end(fmt));
}

/* Literal text of a section at f (one token); advances *fp. Returns 1 when
 * it wrote or skipped a literal, 0 when *fp is a placeholder. */
static int literal(out *o, const char **fp, const char *end, int write)
{
    const char *f = *fp;
    char c = *f;
    if (c == '"') {
        const char *s = ++f;
        while (f < end && *f != '"')
            f++;
        if (write) put(o, s, (size_t)(f - s));
        *fp = f < end ? f + 1 : f;
        return 1;
    }
    if (c == '\\' && f + 1 < end) {
        if (write) put(o, f + 1, 1);
        *fp = f + 2;
        return 1;
    }
    if (c == '_' && f + 1 < end) { /* the width of the next character: a space */
        if (write) puts_(o, " ");
        *fp = f + 2;
        return 1;
    }
    if (c == '*' && f + 1 < end) { /* fill: its place and character (the first one) */
        if (write && o->fill_at == (size_t)-1 && (unsigned char)f[1] < 0x80)
            o->fill_at = o->n, o->fill = f[1];
        *fp = f + 2;
        return 1;
    }
    if (c == '[') {
        const char *s = f;
        while (f < end && *f != ']')
            f++;
        /* [$€-407]: the symbol; colours and conditions: nothing */
        if (write && s[1] == '$') {
            const char *q = s + 2;
            while (q < f && *q != '-')
                q++;
            put(o, s + 2, (size_t)(q - s - 2));
        }
        *fp = f < end ? f + 1 : f;
        return 1;
    }
    if (c == '$' || c == '-' || c == '+' || c == '/' || c == '(' || c == ')' || c == ':' ||
        c == ' ' || c == '!' || c == '^' || c == '&' || c == '\'' || c == '~' || c == '{' ||
        c == '}' || c == '<' || c == '>' || c == '=' || (unsigned char)c >= 0x80) {
        if (write) {
            size_t n = 1;
            while (f + n < end && ((unsigned char)f[n] & 0xC0) == 0x80)
                n++;
            put(o, f, n);
            *fp = f + n;
        } else {
            *fp = f + 1;
        }
        return 1;
    }
    return 0;
}

/* ---- numbers ---------------------------------------------------------------------- */

typedef struct numspec {
    int int_zeros, int_digits; /* '0' and all placeholders before the point */
    int frac_zeros, frac_digits;
    /* the placeholders themselves ('0', '#' or '?'), left to right: a '?'
     * shows a space where '0' shows a zero (the first 32 of each part) */
    char int_ph[32], frac_ph[32];
    int point, thousands, percent, scale; /* scale: trailing commas */
    int exp, exp_digits, exp_plus;
    const char *first, *last; /* the first placeholder and past the last */
} numspec;

static int is_ph(char c)
{
    return c == '0' || c == '#' || c == '?';
}

static void read_numspec(const char *f, const char *end, numspec *ns)
{
    memset(ns, 0, sizeof *ns);
    int after_point = 0, in_exp = 0;
    const char *p = f;
    while (p < end) {
        out none = {NULL, 0, 0, (size_t)-1, 0};
        const char *q = p;
        if (literal(&none, &q, end, 0)) {
            p = q;
            continue;
        }
        char c = *p;
        if (is_ph(c)) {
            if (!ns->first) ns->first = p;
            ns->last = p + 1;
            if (in_exp)
                ns->exp_digits++;
            else if (after_point) {
                if (ns->frac_digits < 32) ns->frac_ph[ns->frac_digits] = c;
                ns->frac_digits++;
                if (c != '#') ns->frac_zeros = ns->frac_digits;
            } else {
                if (ns->int_digits < 32) ns->int_ph[ns->int_digits] = c;
                ns->int_digits++;
                if (c != '#') ns->int_zeros++;
            }
        } else if (c == '.' && !in_exp) {
            after_point = ns->point = 1;
            if (!ns->first) ns->first = p;
            ns->last = p + 1;
        } else if (c == ',') {
            if (p + 1 < end && is_ph(p[1]) && ns->first)
                ns->thousands = 1;
            else if (ns->first)
                ns->scale++;
        } else if (c == '%') {
            ns->percent++;
        } else if ((c == 'E' || c == 'e') && p + 1 < end && (p[1] == '+' || p[1] == '-')) {
            ns->exp = 1;
            ns->exp_plus = p[1] == '+';
            in_exp = 1;
            p++;
        } else if (c == '@') {
            /* text placeholder in a number section: nothing */
        }
        p++;
    }
}

/* a (>= 0) rounded to digits decimals, half away from zero as Excel does
 * (printf rounds ties to even, and 2.675 is 2.67499... in binary). */
static double round_away(double a, int digits)
{
    if (digits > 15) return a;
    double p = pow(10, digits);
    if (a * p >= 1e15) return a; /* no digit left to round (and 1.8e308 rounded up is inf) */
    char buf[64];
    qr_snprintf_c(buf, sizeof buf, "%.15g", a * p);
    return floor(qr_strtod_c(buf, NULL) + 0.5) / p;
}

/* |v| with the digits of ns; the sign is the caller's. */
static void put_number(out *o, const numspec *ns, double a)
{
    char buf[400];
    int e = 0;
    if (ns->exp) {
        int id = ns->int_digits ? ns->int_digits : 1;
        if (a != 0) {
            e = (int)floor(log10(a)) - (id - 1);
            a /= pow(10, e);
            double lim = pow(10, id);
            qr_snprintf_c(buf, sizeof buf, "%.*f", ns->frac_digits, a);
            if (qr_strtod_c(buf, NULL) >= lim) a /= 10, e++;
        }
    }
    a = round_away(a, ns->frac_digits);
    qr_snprintf_c(buf, sizeof buf, "%.*f", ns->frac_digits, a);
    char *dot = strchr(buf, '.');
    char *ip = buf;
    size_t il = dot ? (size_t)(dot - buf) : strlen(buf);
    /* the integer part's placeholder j places left of the point: '0', '?', '#' */
#define INT_PH(j)                                                                                  \
    (ns->int_digits - 1 - (j) < 32 ? ns->int_ph[ns->int_digits - 1 - (j)]                          \
     : (j) < ns->int_zeros         ? '0'                                                           \
                                   : '#')
    if (il == 1 && ip[0] == '0' && (ns->int_digits == 0 || INT_PH(0) != '0'))
        il = 0;     /* "#.00" of 0.5: ".50"; "?.00": " .50" */
    char ints[600]; /* 309 digits of 1e308, their 102 commas, the places */
    size_t n = 0;
    /* the places left of the digits: a '0' shows a zero, a '?' a space, a '#' nothing */
    for (int j = ns->int_digits - 1; j >= (int)il && n < 64; j--) {
        char ph = INT_PH(j);
        if (ph != '#') ints[n++] = ph == '?' ? ' ' : '0';
    }
#undef INT_PH
    for (size_t k = 0; k < il; k++) {
        ints[n++] = ip[k];
        size_t left = il - k - 1;
        if (ns->thousands && left && left % 3 == 0) ints[n++] = ',';
    }
    put(o, ints, n);
    if (ns->point) {
        const char *fr = dot ? dot + 1 : "";
        int keep = ns->frac_digits;
        while (keep > ns->frac_zeros && fr[keep - 1] == '0')
            keep--;
        /* a '?' keeps its place as a space where its digit is an
         * insignificant zero ("0.0?" of 1.5: "1.5 ") */
        int last = keep;
        while (last > 0 && fr[last - 1] == '0' && last - 1 < 32 && ns->frac_ph[last - 1] == '?')
            last--;
        puts_(o, ".");
        put(o, fr, (size_t)last);
        for (int k = last; k < ns->frac_digits && k < 32; k++)
            if (ns->frac_ph[k] == '?') puts_(o, " ");
    }
    if (ns->exp) {
        char eb[16];
        snprintf(eb, sizeof eb, "E%s%0*d",
                 e < 0          ? "-"
                 : ns->exp_plus ? "+"
                                : "",
                 ns->exp_digits ? ns->exp_digits : 1, e < 0 ? -e : e);
        puts_(o, eb);
    }
}

/* ---- fractions ------------------------------------------------------------------ */

/* The '/' of a fraction section ("# ?/?", "?/8", "0 ??/??"), outside quotes
 * and brackets, with a denominator after it; NULL when f..end is none. */
static const char *fraction_slash(const char *f, const char *end)
{
    const char *p = f;
    while (p < end) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++)
                ;
            p++;
        } else if (*p == '\\' || *p == '_' || *p == '*') {
            p += 2;
        } else if (*p == '[') {
            while (p < end && *p != ']')
                p++;
            p++;
        } else if (*p == '/' && p + 1 < end && (is_ph(p[1]) || (p[1] >= '1' && p[1] <= '9'))) {
            return p;
        } else {
            p++;
        }
    }
    return NULL;
}

/* Digits of a placeholder run padded to width places: '?' pads with spaces,
 * '0' with zeros, '#' not at all; left: pad on the left (a numerator). */
static void put_padded(out *o, long long v, int places, char pad, int left)
{
    char d[32];
    int n = snprintf(d, sizeof d, "%lld", v);
    if (left)
        for (int i = n; i < places && pad; i++)
            put(o, &pad, 1);
    put(o, d, (size_t)n);
    if (!left)
        for (int i = n; i < places && pad; i++)
            put(o, &pad, 1);
}

/* A fraction section: an optional whole part, the numerator's and the
 * denominator's placeholders (a fixed denominator when it is digits), as
 * Excel shows 1.75 under "# ?/?": "1 3/4". */
static void fraction_section(out *o, const char *f, const char *end, const char *slash, double v,
                             int minus)
{
    /* the numerator: the placeholders just before the slash */
    const char *ne = slash, *nb = slash;
    while (nb > f && is_ph(nb[-1]))
        nb--;
    int num_places = (int)(ne - nb);
    char num_pad = num_places && nb[0] == '?' ? ' ' : num_places && nb[0] == '0' ? '0' : 0;
    /* the denominator: placeholders (their count bounds it) or a number */
    const char *db = slash + 1, *de = db;
    long long fixed = 0;
    while (de < end && (is_ph(*de) || (*de >= '0' && *de <= '9'))) {
        if (*de >= '0' && *de <= '9' && (fixed || *de != '0')) fixed = fixed * 10 + (*de - '0');
        de++;
    }
    if (!(*db >= '1' && *db <= '9')) fixed = 0;
    int den_places = (int)(de - db);
    char den_pad = *db == '?' ? ' ' : 0;
    /* a whole part: placeholders before the numerator's, apart from it */
    const char *wb = NULL, *we = NULL;
    for (const char *p = f; p < nb; p++) {
        out none = {NULL, 0, 0, (size_t)-1, 0};
        const char *q = p;
        if (literal(&none, &q, nb, 0)) {
            p = q - 1;
            continue;
        }
        if (is_ph(*p)) {
            if (!wb) wb = p;
            we = p + 1;
        }
    }
    double a = fabs(v);
    long long whole = 0;
    if (wb) {
        whole = (long long)floor(a);
        a -= (double)whole;
    }
    long long n = 0, d = 1;
    if (fixed) {
        d = fixed;
        n = (long long)floor(a * (double)d + 0.5);
    } else {
        long long max = 1;
        for (int i = 0; i < den_places && i < 6; i++)
            max *= 10;
        max -= 1;
        if (max < 1) max = 1;
        double best = 2;
        for (long long q = 1; q <= max; q++) {
            long long pn = (long long)floor(a * (double)q + 0.5);
            double err = fabs(a - (double)pn / (double)q);
            if (err < best - 1e-12) best = err, n = pn, d = q;
        }
    }
    if (wb && n == d) whole++, n = 0;
    if (minus && (whole || n)) puts_(o, "-");
    const char *p = f;
    while (p < end) {
        if (wb && p == wb) {
            if (whole || n == 0 || *wb == '0') put_padded(o, whole, 0, 0, 1);
            p = we;
            continue;
        }
        if (p == nb) {
            if (n == 0 && wb) { /* a whole number: the fraction's places blank */
                for (int i = 0; i < num_places + 1 + den_places; i++)
                    puts_(o, " ");
            } else {
                put_padded(o, n, num_places, num_pad, 1);
                puts_(o, "/");
                put_padded(o, fixed ? fixed : d, den_places, fixed ? 0 : den_pad, 0);
            }
            p = de;
            continue;
        }
        if (literal(o, &p, end, 1)) continue;
        if (*p == '%') puts_(o, "%");
        p++;
    }
}

static void number_section(out *o, const char *f, const char *end, double v, int minus)
{
    const char *slash = fraction_slash(f, end);
    if (slash) {
        fraction_section(o, f, end, slash, v, minus);
        return;
    }
    numspec ns;
    read_numspec(f, end, &ns);
    double a = fabs(v);
    for (int i = 0; i < ns.percent; i++)
        a *= 100;
    for (int i = 0; i < ns.scale; i++)
        a /= 1000;
    if (!ns.first) { /* literal only ("\"zero\"") */
        const char *p = f;
        while (p < end) {
            if (!literal(o, &p, end, 1)) {
                if (*p == '%') puts_(o, "%");
                p++;
            }
        }
        return;
    }
    /* a value that rounds to zero shows no minus sign */
    if (minus && (ns.exp || round_away(a, ns.frac_digits) != 0)) puts_(o, "-");
    const char *p = f;
    int done = 0;
    while (p < end) {
        if (p >= ns.first && p < ns.last) {
            if (!done) put_number(o, &ns, a);
            done = 1;
            p = ns.last;
            continue;
        }
        if (literal(o, &p, end, 1)) continue;
        if (*p == '%') puts_(o, "%");
        if ((*p == 'E' || *p == 'e') && p + 1 < end && (p[1] == '+' || p[1] == '-')) {
            p += 2;
            while (p < end && is_ph(*p))
                p++;
            continue;
        }
        /* any other letter shows as itself, as in Excel and LibreOffice: the
         * x of a multiple's "0.0x" */
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')) put(o, p, 1);
        p++;
    }
}

/* ---- dates ------------------------------------------------------------------------- */

static const char *const months[] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};
static const char *const days[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                   "Thursday", "Friday", "Saturday"};

static void date_section_put(out *o, const char *f, const char *end, double v)
{
    if (v < 0 || v >= 2958466) {
        puts_(o, "########");
        return;
    }
    long long day = (long long)floor(v);
    long long secs = llround((v - (double)day) * 86400);
    if (secs >= 86400) day++, secs -= 86400;
    int y, m, d;
    if (day == 0) {
        y = 1900, m = 1, d = 0;
    } else if (day == 60) {
        y = 1900, m = 2, d = 29;
    } else {
        long long cy;
        unsigned cm, cd;
        qr_civil_from_days(QR_EXCEL_EPOCH + (day < 60 ? day + 1 : day), &cy, &cm, &cd);
        y = (int)cy, m = (int)cm, d = (int)cd;
    }
    int wd = (int)((day + 6) % 7); /* serial 1 (1900-01-01) was a Sunday in Excel's reckoning */
    int hh = (int)(secs / 3600), mi = (int)(secs / 60 % 60), ss = (int)(secs % 60);
    int ampm = 0;
    for (const char *p = f; p < end; p++)
        if (strncasecmp(p, "AM/PM", 5) == 0 || strncasecmp(p, "A/P", 3) == 0) ampm = 1;
    char buf[64];
    int last_h = 0;
    const char *p = f;
    while (p < end) {
        char c = (char)(*p | 0x20);
        size_t run = 1;
        while (p + run < end && (char)(p[run] | 0x20) == c)
            run++;
        if (c == 'y') {
            snprintf(buf, sizeof buf, run <= 2 ? "%02d" : "%04d", run <= 2 ? y % 100 : y);
            puts_(o, buf);
        } else if (c == 'd') {
            if (run <= 2)
                snprintf(buf, sizeof buf, run == 1 ? "%d" : "%02d", d);
            else
                snprintf(buf, sizeof buf, "%.*s", run == 3 ? 3 : 20, days[wd]);
            puts_(o, buf);
        } else if (c == 'm') {
            /* minutes after an hour or before a second, else the month */
            const char *q = p + run;
            while (q < end && (*q == ':' || *q == ' '))
                q++;
            int minute = last_h || (q < end && (*q | 0x20) == 's');
            if (minute && run <= 2)
                snprintf(buf, sizeof buf, run == 1 ? "%d" : "%02d", mi);
            else if (run <= 2)
                snprintf(buf, sizeof buf, run == 1 ? "%d" : "%02d", m);
            else
                snprintf(buf, sizeof buf, "%.*s", run == 3 ? 3 : run == 5 ? 1 : 20, months[m - 1]);
            puts_(o, buf);
            last_h = 0;
        } else if (c == 'h') {
            int h = ampm ? (hh % 12 == 0 ? 12 : hh % 12) : hh;
            snprintf(buf, sizeof buf, run == 1 ? "%d" : "%02d", h);
            puts_(o, buf);
            last_h = 1;
        } else if (c == 's') {
            snprintf(buf, sizeof buf, run == 1 ? "%d" : "%02d", ss);
            puts_(o, buf);
            last_h = 0;
        } else if (strncasecmp(p, "AM/PM", 5) == 0) {
            puts_(o, hh < 12 ? "AM" : "PM");
            run = 5;
        } else if (strncasecmp(p, "A/P", 3) == 0) {
            puts_(o, hh < 12 ? "A" : "P");
            run = 3;
        } else {
            const char *q = p;
            if (literal(o, &q, end, 1)) {
                p = q;
                continue;
            }
            if (*p == '.' || *p == ',') put(o, p, 1);
            run = 1;
        }
        p += run;
    }
}

/* fmt's sections (at most 4, split at unquoted ';'): starts and ends;
 * returns how many. */
static int sections(const char *fmt, const char *sec[4], const char *ends[4])
{
    int n = 0;
    const char *f = fmt;
    while (n < 4) {
        sec[n] = f;
        ends[n] = section_end(f);
        n++;
        if (!*ends[n - 1]) break;
        f = ends[n - 1] + 1;
    }
    return n;
}

/* The section of fmt that shows v: its start and end; returns its index. */
static int pick_section(const char *fmt, double v, const char **start, const char **stop)
{
    const char *sec[4];
    const char *ends[4];
    int n = sections(fmt, sec, ends);
    int k = 0;
    if (v < 0 && n >= 2) k = 1;
    if (v == 0 && n >= 3) k = 2;
    *start = sec[k];
    *stop = ends[k];
    return k;
}

int qr_cellfmt_color(const char *fmt, double v, uint32_t *rgb)
{
    static const struct {
        const char *name;
        uint32_t rgb;
    } names[] = {{"Black", 0x000000}, {"Blue", 0x0000FF},    {"Cyan", 0x00FFFF},
                 {"Green", 0x00FF00}, {"Magenta", 0xFF00FF}, {"Red", 0xFF0000},
                 {"White", 0xFFFFFF}, {"Yellow", 0xFFFF00}};
    /* Excel's indexed colours 1-8 are the same eight; 9-56 are not read here */
    if (!fmt || !*fmt || strcasecmp(fmt, "General") == 0) return 0;
    const char *f, *end;
    pick_section(fmt, v, &f, &end);
    for (const char *p = f; p < end; p++) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++)
                ;
            continue;
        }
        if (*p == '\\') {
            p++;
            continue;
        }
        if (*p != '[') continue;
        const char *q = p + 1;
        while (q < end && *q != ']')
            q++;
        size_t len = (size_t)(q - p - 1);
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (strlen(names[i].name) == len && strncasecmp(p + 1, names[i].name, len) == 0) {
                *rgb = names[i].rgb;
                return 1;
            }
        if (len > 5 && strncasecmp(p + 1, "Color", 5) == 0) {
            int k = atoi(p + 6);
            if (k >= 1 && k <= 8) {
                static const uint32_t idx[8] = {0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00,
                                                0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF};
                *rgb = idx[k - 1];
                return 1;
            }
        }
        p = q;
    }
    return 0;
}

size_t qr_cellfmt_number(const char *fmt, double v, char *buf, size_t cap)
{
    size_t at;
    char ch;
    return qr_cellfmt_number_fill(fmt, v, buf, cap, &at, &ch);
}

size_t qr_cellfmt_number_fill(const char *fmt, double v, char *buf, size_t cap, size_t *fill_at,
                              char *fill)
{
    out o = {buf, 0, cap, (size_t)-1, 0};
    *fill_at = (size_t)-1;
    *fill = 0;
    if (cap) buf[0] = '\0';
    if (!fmt || !*fmt || strcasecmp(fmt, "General") == 0) {
        general(&o, v);
        return o.n;
    }
    const char *sec[4];
    const char *ends[4];
    int n = sections(fmt, sec, ends);
    int k = 0, minus = v < 0;
    if (v < 0 && n >= 2) k = 1, minus = 0;
    if (v == 0 && n >= 3) k = 2;
    if (strncasecmp(sec[k], "General", 7) == 0 && ends[k] - sec[k] == 7) {
        general(&o, k ? fabs(v) : v);
        return o.n;
    }
    if (date_section(sec[k], ends[k]))
        date_section_put(&o, sec[k], ends[k], v);
    else
        number_section(&o, sec[k], ends[k], v, minus);
    if (o.fill_at <= o.n) *fill_at = o.fill_at, *fill = o.fill;
    return o.n;
}
