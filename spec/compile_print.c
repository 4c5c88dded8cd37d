/* compile_print.c: a sheet's "print" setup (README "Print setup") into
 * qr_sheet_print: orientation and paper, fit to pages, repeated rows and
 * columns, gridlines, the print area, header and footer texts (with their
 * {page}, {pages} and {sheet} fields) and margins in points. Every part is
 * optional; a wrong one is an error at its own JSON pointer with a hint
 * (did-you-mean for words and fields). Runs after the sheet's rows: the
 * repeated rows and columns must lie on the sheet's cells. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "schema.h"
#include "suggest.h"

#define EXCEL_ROWS 1048576u
#define EXCEL_COLS 16384u
#define HF_MAX 255 /* Excel's limit on a header or footer, its codes counted */

static const char *const hf_fields[] = {"page", "pages", "sheet", NULL};
static const char *const hf_sections[] = {"left", "center", "right"};

/* One header or footer section's text at the current path: its fields
 * checked; the characters it takes in the file (codes counted) added to
 * *chars. The arena copy, or NULL (reported). */
static const char *hf_text(qr_cc *cc, json_t *v, size_t *chars)
{
    if (!json_is_string(v)) {
        qr_cc_err(cc, "a header or footer is a text: \"Page {page} of {pages}\"",
                  "expected a text, got %s", qr_cc_type_name(v));
        return NULL;
    }
    const char *s = json_string_value(v);
    size_t n = json_string_length(v);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if ((ch & 0xC0) != 0x80) (*chars)++; /* a character, not a continuation byte */
        if (ch == '&') (*chars)++;           /* written "&&" */
        if (ch == '}' && i + 1 < n && s[i + 1] == '}') i++; /* "}}": a literal brace */
        if (ch != '{') continue;
        if (i + 1 < n && s[i + 1] == '{') {
            i++; /* "{{": a literal brace */
            continue;
        }
        size_t j = i + 1;
        while (j < n && j - i <= 16 && isalpha((unsigned char)s[j]))
            j++;
        if (j >= n || s[j] != '}' || j == i + 1) continue; /* not a field: literal */
        char word[20];
        memcpy(word, s + i + 1, j - i - 1);
        word[j - i - 1] = '\0';
        int k = 0;
        while (hf_fields[k] && strcmp(hf_fields[k], word) != 0)
            k++;
        if (!hf_fields[k]) {
            const char *dym = qr_suggest(word, hf_fields);
            char hint[160];
            if (dym)
                snprintf(hint, sizeof hint, "did you mean \"{%s}\"?", dym);
            else
                snprintf(hint, sizeof hint,
                         "the fields are {page}, {pages} and {sheet}; \"{{\" prints \"{\"");
            qr_cc_err(cc, hint, "unknown field \"{%s}\"", word);
            return NULL;
        }
        (*chars)++; /* "{page}" is "&P": its "{" counted, 1 more */
        i = j;
    }
    size_t len = 0;
    return qr_cc_str(cc, v, &len);
}

/* "header" or "footer": a text (the centre section) or {"left", "center",
 * "right"} into out[3]; 0 or -1 (reported). */
static int hf(qr_cc *cc, json_t *p, const char *key, const char **out)
{
    json_t *v = json_object_get(p, key);
    if (!v) return 0;
    size_t o = qr_cc_push_key(cc, key), chars = 0;
    int rc = 0;
    if (json_is_object(v)) {
        if (qr_cc_check_obj(cc, v, QR_SO_HF, "a header or footer") > 0) rc = -1;
        for (int k = 0; k < 3; k++) {
            json_t *e = json_object_get(v, hf_sections[k]);
            if (!e) continue;
            size_t o2 = qr_cc_push_key(cc, hf_sections[k]);
            chars += 2; /* "&L" */
            if (!(out[k] = hf_text(cc, e, &chars))) rc = -1;
            qr_cc_pop(cc, o2);
        }
    } else if (json_is_string(v)) {
        chars += 2;
        if (!(out[1] = hf_text(cc, v, &chars))) rc = -1;
    } else {
        qr_cc_err(cc,
                  "a header is a text, or {\"left\": \"Budget\", \"right\": \"Page {page} of "
                  "{pages}\"}",
                  "expected a text or an object, got %s", qr_cc_type_name(v));
        rc = -1;
    }
    if (rc == 0 && chars > HF_MAX) {
        qr_cc_err(cc, "shorten the text (Excel's limit, its codes counted)",
                  "the %s takes %zu characters in the file; at most %d fit", key, chars, HF_MAX);
        rc = -1;
    }
    qr_cc_pop(cc, o);
    return rc;
}

/* "repeat_rows" (N: the first N rows, or "3:4") or "repeat_cols" (N, or
 * "A:B", "C") into [*a, *b]; lim: the sheet's rows or columns. 1 given,
 * 0 absent, -1 (reported). */
static int repeat(qr_cc *cc, json_t *p, const char *key, int cols, size_t lim, uint32_t *a,
                  uint32_t *b)
{
    json_t *v = json_object_get(p, key);
    if (!v) return 0;
    size_t o = qr_cc_push_key(cc, key);
    unsigned long max = cols ? EXCEL_COLS : EXCEL_ROWS;
    const char *eg = cols ? "the first N columns (1), or columns \"A:B\""
                          : "the first N rows (1), or rows \"3:4\"";
    int ok = 0;
    if (json_is_integer(v)) {
        json_int_t n = json_integer_value(v);
        if (n >= 1 && (unsigned long)n <= max) {
            *a = 0;
            *b = (uint32_t)(n - 1);
            ok = 1;
        }
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (cols) {
            size_t k = qr_cc_col_letters(s, a);
            if (k && s[k] == ':') {
                size_t m = qr_cc_col_letters(s + k + 1, b);
                ok = m && s[k + 1 + m] == '\0' && *b >= *a;
            } else if (k && !s[k]) {
                *b = *a;
                ok = 1;
            }
        } else {
            char *e;
            unsigned long r0 = isdigit((unsigned char)s[0]) ? strtoul(s, &e, 10) : 0, r1 = 0;
            if (r0 && *e == ':' && isdigit((unsigned char)e[1])) {
                r1 = strtoul(e + 1, &e, 10);
                ok = !*e && r1 >= r0 && r1 <= max;
            } else if (r0 && !*e && r0 <= max) {
                r1 = r0;
                ok = 1;
            }
            if (ok) *a = (uint32_t)(r0 - 1), *b = (uint32_t)(r1 - 1);
        }
    }
    if (!ok) {
        char got[64];
        if (json_is_string(v))
            snprintf(got, sizeof got, "\"%.40s\"", json_string_value(v));
        else if (json_is_integer(v))
            snprintf(got, sizeof got, "%lld", (long long)json_integer_value(v));
        else
            snprintf(got, sizeof got, "%s", qr_cc_type_name(v));
        qr_cc_err(cc, eg, "expected %s, got %s", eg, got);
    } else if (*b >= lim) {
        char last[16];
        if (cols) {
            uint32_t c = lim ? (uint32_t)lim - 1 : 0;
            char tmp[4];
            int n = 0;
            for (uint32_t x = c + 1; x && n < 3; x = (x - 1) / 26)
                tmp[n++] = (char)('A' + (x - 1) % 26);
            for (int i = 0; i < n; i++)
                last[i] = tmp[n - 1 - i];
            last[n] = '\0';
        } else {
            snprintf(last, sizeof last, "%zu", lim);
        }
        char hint[96];
        if (lim)
            snprintf(hint, sizeof hint, "the sheet's last %s is %s: repeat %s up to it",
                     cols ? "column" : "row", last, cols ? "columns" : "rows");
        else
            snprintf(hint, sizeof hint, "the sheet has no %s to repeat", cols ? "columns" : "rows");
        qr_cc_err(cc, hint, "%s %u is past the sheet's %zu %s", cols ? "column" : "row",
                  (unsigned)*b + 1, lim, cols ? "columns" : "rows");
        ok = 0;
    }
    qr_cc_pop(cc, o);
    return ok ? 1 : -1;
}

/* "margins": {"top", "right", "bottom", "left"} in points over the
 * defaults (Excel's: 0.75 in top and bottom, 0.7 in at the sides); they
 * leave an inch of the paper both ways at least. */
static int margins(qr_cc *cc, json_t *p, qr_sheet_print *pr)
{
    json_t *v = json_object_get(p, "margins");
    if (!v) return 0;
    static const char *const sides[] = {"top", "right", "bottom", "left"};
    size_t o = qr_cc_push_key(cc, "margins");
    int rc = 0;
    pr->margins[0] = pr->margins[2] = 54;
    pr->margins[1] = pr->margins[3] = 50.4;
    if (!json_is_object(v)) {
        qr_cc_err(cc, "margins are points: {\"top\": 36, \"left\": 36}",
                  "expected an object, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return -1;
    }
    if (qr_cc_check_obj(cc, v, QR_SO_MARGINS, "print margins") > 0) rc = -1;
    for (int k = 0; k < 4; k++) {
        json_t *e = json_object_get(v, sides[k]);
        if (!e) continue;
        double d;
        if (!qr_cc_number(e, &d) || d < 0 || d > 1000) {
            char got[40];
            if (qr_cc_number(e, &d))
                qr_fmt_double(d, got);
            else
                snprintf(got, sizeof got, "%s", qr_cc_type_name(e));
            qr_cc_err_key(cc, sides[k],
                          "a margin is points from the paper's edge: 36 is half an inch",
                          "expected a number from 0 to 1000, got %s", got);
            rc = -1;
        } else {
            pr->margins[k] = d;
        }
    }
    double w, h;
    qr_print_paper_pt(pr->paper, pr->orientation == 2, &w, &h);
    if (rc == 0 &&
        (pr->margins[1] + pr->margins[3] > w - 72 || pr->margins[0] + pr->margins[2] > h - 72)) {
        qr_cc_err(cc, "leave the cells an inch (72 points) of the paper each way",
                  "the margins leave no room %s for the cells",
                  pr->margins[1] + pr->margins[3] > w - 72 ? "across" : "down");
        rc = -1;
    }
    if (rc == 0) pr->has_margins = 1;
    qr_cc_pop(cc, o);
    return rc;
}

/* "fit_width" / "fit_height": pages across or down, 1 or more. */
static int fit(qr_cc *cc, json_t *p, const char *key, const char *way, uint16_t *out)
{
    json_t *v = json_object_get(p, key);
    double d;
    if (v && qr_cc_number(v, &d) && d < 1) {
        char got[40], hint[120];
        qr_fmt_double(d, got);
        snprintf(hint, sizeof hint,
                 "%s is the pages %s the sheet prints on: 1 or more, or leave it out", key, way);
        qr_cc_err_key(cc, key, hint, "expected a number of pages, 1 or more, got %s", got);
        return -1;
    }
    int n = 0, r = qr_cc_get_int(cc, p, key, 1, 32767, &n);
    if (r > 0) *out = (uint16_t)n;
    return r < 0 ? -1 : 0;
}

void qr_cc_sheet_print(qr_cc *cc, json_t *v, qr_sheet *sh)
{
    size_t o = qr_cc_push_key(cc, "print");
    if (!json_is_object(v)) {
        qr_cc_err(cc, "print is {\"orientation\": \"landscape\", \"fit_width\": 1}",
                  "expected an object, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return;
    }
    qr_sheet_print *pr = qr_arena_alloc(cc->a, sizeof *pr);
    if (!pr) {
        qr_cc_oom(cc);
        qr_cc_pop(cc, o);
        return;
    }
    memset(pr, 0, sizeof *pr);
    int bad = qr_cc_check_obj(cc, v, QR_SO_PRINT, "the print setup") > 0;
    int i;
    if (json_object_get(v, "orientation")) {
        if ((i = qr_cc_word(cc, v, "orientation", qr_enum_orientations,
                            "\"portrait\", \"landscape\"")) < 0)
            bad = 1;
        else
            pr->orientation = (uint8_t)(i + 1);
    }
    if (json_object_get(v, "paper")) {
        if ((i = qr_cc_word(cc, v, "paper", qr_enum_papers,
                            "\"letter\", \"legal\", \"tabloid\", \"a3\", \"a4\", \"a5\"")) < 0)
            bad = 1;
        else
            pr->paper = (uint8_t)(i + 1);
    }
    int r;
    if (fit(cc, v, "fit_width", "across", &pr->fit_width) < 0) bad = 1;
    if (fit(cc, v, "fit_height", "down", &pr->fit_height) < 0) bad = 1;
    if ((r = repeat(cc, v, "repeat_rows", 0, sh->n_rows, &pr->rows0, &pr->rows1)) < 0) bad = 1;
    pr->has_rows = r > 0;
    if ((r = repeat(cc, v, "repeat_cols", 1, sh->n_cols, &pr->cols0, &pr->cols1)) < 0) bad = 1;
    pr->has_cols = r > 0;
    int g = 0;
    if ((r = qr_cc_get_bool(cc, v, "gridlines", &g)) < 0) bad = 1;
    if (r > 0) pr->gridlines = (uint8_t)(g ? 2 : 1);
    json_t *area = json_object_get(v, "area");
    if (area) {
        size_t o2 = qr_cc_push_key(cc, "area");
        if (qr_cc_range_at(cc, area, 1, &pr->area) < 0)
            bad = 1;
        else
            pr->has_area = 1;
        qr_cc_pop(cc, o2);
    }
    if (hf(cc, v, "header", pr->header) < 0) bad = 1;
    if (hf(cc, v, "footer", pr->footer) < 0) bad = 1;
    if (margins(cc, v, pr) < 0) bad = 1;
    if (!bad) sh->print = pr;
    qr_cc_pop(cc, o);
}
