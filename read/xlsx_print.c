/* xlsx_print.c: a worksheet's print setup back into a sheet's "print"
 * (README "Print setup"): <pageSetup> orientation, paperSize and (with
 * <sheetPr><pageSetUpPr fitToPage>) fitToWidth and fitToHeight,
 * <printOptions gridLines>, <pageMargins> when not Excel's defaults, the
 * odd-page header and footer (Excel's codes &P, &N, &A as {page}, {pages},
 * {sheet}; font, size and colour codes dropped, and the date, time, file
 * and picture codes, which the spec has no field for), and the workbook's
 * _xlnm.Print_Area and _xlnm.Print_Titles of the sheet. What is Excel's
 * default (portrait, Letter, no fit) is left out, so a plain sheet reads
 * back without "print". */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

/* One section's text (a JSON string's content) from code text at s until
 * the next section code; returns the end. */
static const char *hf_section(const char *s, qr_buf *out)
{
    while (*s) {
        if (*s != '&') {
            if (*s == '{' || *s == '}') qr_buf_putc(out, *s); /* "{{", "}}": literal braces */
            qr_buf_putc(out, *s++);
            continue;
        }
        char c = s[1];
        if (c == 'L' || c == 'C' || c == 'R') return s;
        if (!c) return s + 1;
        s += 2;
        switch (c) {
        case '&':
            qr_buf_putc(out, '&');
            break;
        case 'P':
            qr_buf_puts(out, "{page}");
            break;
        case 'N':
            qr_buf_puts(out, "{pages}");
            break;
        case 'A':
            qr_buf_puts(out, "{sheet}");
            break;
        case '"': /* &"font,style" */
            while (*s && *s != '"')
                s++;
            if (*s) s++;
            break;
        case 'K': /* &Krrggbb, or &Kttsnnn (a theme colour) */
            for (int k = 0; k < 6 && *s; k++)
                s++;
            break;
        default:
            if (isdigit((unsigned char)c)) { /* &12: a font size, a space may end it */
                while (isdigit((unsigned char)*s))
                    s++;
                if (*s == ' ') s++;
            }
            break; /* &B &I &U &E &S &X &Y &O &H, &D &T &F &Z &G: dropped */
        }
    }
    return s;
}

void qr_rd_xlsx_hf(const char *code, const char *key, qr_buf *b)
{
    qr_buf sec[3] = {{0}, {0}, {0}};
    int k = 1; /* text before any section code is centred */
    for (const char *s = code; s && *s;) {
        if (s[0] == '&' && (s[1] == 'L' || s[1] == 'C' || s[1] == 'R')) {
            k = s[1] == 'L' ? 0 : s[1] == 'C' ? 1 : 2;
            s += 2;
            continue;
        }
        s = hf_section(s, &sec[k]);
    }
    int n = (sec[0].len > 0) + (sec[1].len > 0) + (sec[2].len > 0);
    if (n) {
        qr_buf_printf(b, ",\"%s\":", key);
        if (n == 1 && sec[1].len) {
            qr_buf_json_str(b, sec[1].data, sec[1].len, 0);
        } else {
            static const char *const names[] = {"left", "center", "right"};
            int first = 1;
            qr_buf_putc(b, '{');
            for (int i = 0; i < 3; i++) {
                if (!sec[i].len) continue;
                qr_buf_printf(b, "%s\"%s\":", first ? "" : ",", names[i]);
                qr_buf_json_str(b, sec[i].data, sec[i].len, 0);
                first = 0;
            }
            qr_buf_putc(b, '}');
        }
    }
    for (int i = 0; i < 3; i++)
        qr_buf_free(&sec[i]);
}

/* "$A$1:$F$60" (after the sheet's '!') without the dollars into out. */
static int plain_range(const char *s, char *out, size_t size)
{
    size_t n = 0;
    for (; *s && n + 1 < size; s++) {
        if (*s == '$') continue;
        if (!(isalnum((unsigned char)*s) || *s == ':')) return -1;
        out[n++] = (char)toupper((unsigned char)*s);
    }
    out[n] = '\0';
    return n && !*s ? 0 : -1;
}

/* The part after the last '!' of one reference. */
static const char *after_bang(const char *s, const char *end)
{
    const char *b = NULL;
    for (const char *p = s; p < end; p++)
        if (*p == '!') b = p + 1;
    return b;
}

void qr_rd_xlsx_print_json(const qr_rd_print *p, const char *area, const char *titles, qr_buf *b)
{
    size_t start = b->len;
    qr_buf_puts(b, ",\"print\":{");
    size_t body = b->len;
    if (p->landscape) qr_buf_puts(b, ",\"orientation\":\"landscape\"");
    static const struct {
        int code;
        const char *name;
    } papers[] = {{5, "legal"}, {3, "tabloid"}, {8, "a3"}, {9, "a4"}, {11, "a5"}};
    for (size_t i = 0; i < sizeof papers / sizeof papers[0]; i++)
        if (p->paper == papers[i].code) qr_buf_printf(b, ",\"paper\":\"%s\"", papers[i].name);
    if (p->fit && p->fit_width > 0) qr_buf_printf(b, ",\"fit_width\":%ld", p->fit_width);
    if (p->fit && p->fit_height > 0) qr_buf_printf(b, ",\"fit_height\":%ld", p->fit_height);
    /* 'Name'!$A:$B,'Name'!$1:$2 */
    for (const char *s = titles; s && *s;) {
        const char *e = s;
        int q = 0;
        while (*e && (q || *e != ',')) {
            if (*e == '\'') q = !q;
            e++;
        }
        const char *ref = after_bang(s, e);
        char plain[32];
        char part[40];
        size_t len = ref ? (size_t)(e - ref) : 0;
        if (ref && len < sizeof part) {
            memcpy(part, ref, len);
            part[len] = '\0';
            if (plain_range(part, plain, sizeof plain) == 0) {
                char *colon = strchr(plain, ':');
                if (colon && isdigit((unsigned char)plain[0])) {
                    long r0 = strtol(plain, NULL, 10), r1 = strtol(colon + 1, NULL, 10);
                    if (r0 == 1)
                        qr_buf_printf(b, ",\"repeat_rows\":%ld", r1);
                    else
                        qr_buf_printf(b, ",\"repeat_rows\":\"%ld:%ld\"", r0, r1);
                } else if (colon && isalpha((unsigned char)plain[0])) {
                    long c1 = 0;
                    for (const char *c = colon + 1; isalpha((unsigned char)*c); c++)
                        c1 = c1 * 26 + (*c - 'A' + 1);
                    if (strncmp(plain, "A:", 2) == 0)
                        qr_buf_printf(b, ",\"repeat_cols\":%ld", c1);
                    else
                        qr_buf_printf(b, ",\"repeat_cols\":\"%s\"", plain);
                }
            }
        }
        s = *e ? e + 1 : e;
    }
    if (p->gridlines >= 0) qr_buf_printf(b, ",\"gridlines\":%s", p->gridlines ? "true" : "false");
    if (area && !strchr(area, ',')) {
        const char *ref = after_bang(area, area + strlen(area));
        char plain[32];
        if (ref && plain_range(ref, plain, sizeof plain) == 0)
            qr_buf_printf(b, ",\"area\":\"%s\"", plain);
    }
    if (p->header.len) qr_rd_xlsx_hf(p->header.data, "header", b);
    if (p->footer.len) qr_rd_xlsx_hf(p->footer.data, "footer", b);
    /* margins: Excel's defaults (0.75 in top and bottom, 0.7 in at the sides) left out */
    static const double def[4] = {0.75, 0.7, 0.75, 0.7};
    static const char *const side[4] = {"top", "right", "bottom", "left"};
    int custom = 0;
    for (int k = 0; k < 4; k++)
        if (p->has_margin[k] && fabs(p->margin[k] - def[k]) > 0.001) custom = 1;
    if (custom) {
        qr_buf_puts(b, ",\"margins\":{");
        for (int k = 0; k < 4; k++) {
            double in = p->has_margin[k] ? p->margin[k] : def[k];
            if (k) qr_buf_putc(b, ',');
            qr_buf_printf(b, "\"%s\":", side[k]);
            qr_rd_jnum(b, round(in * 72 * 100) / 100);
        }
        qr_buf_putc(b, '}');
    }
    if (b->len == body) {
        b->len = start; /* nothing to say */
        if (b->data) b->data[start] = '\0';
        return;
    }
    memmove(b->data + body, b->data + body + 1, b->len - body - 1); /* the first comma */
    b->len--;
    b->data[b->len] = '\0';
    qr_buf_putc(b, '}');
}
