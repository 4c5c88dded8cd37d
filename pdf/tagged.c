/* tagged.c: the tagged PDF (PDF/UA-style structure) of the PDF backend.
 *
 * layout.c puts OP_TAG ops around what each block draws (P, H1-H6, L/LI/
 * Lbl/LBody, Table/TR/TH/TD, Code, Figure); paint.c hands them here and
 * cairo 1.16 turns them into marked content and a structure tree (pdf.c
 * wraps every page in one "Document" element). cairo 1.16 cannot write a
 * structure element's /Alt nor the catalog's /Lang and /ViewerPreferences,
 * so qr_pdf_tag_patch() adds them to the bytes cairo wrote while finishing
 * the surface (the structure tree and the catalog are written last) and
 * moves the cross-reference offsets by what it inserted. Deterministic: the
 * inserted bytes depend only on the tree.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"
#include "utf8.h"

static const char *const names[] = {
    [PD_TAG_P] = "P",
    [PD_TAG_H1] = "H1",
    [PD_TAG_H1 + 1] = "H2",
    [PD_TAG_H1 + 2] = "H3",
    [PD_TAG_H1 + 3] = "H4",
    [PD_TAG_H1 + 4] = "H5",
    [PD_TAG_H6] = "H6",
    [PD_TAG_L] = "L",
    [PD_TAG_LI] = "LI",
    [PD_TAG_LBL] = "Lbl",
    [PD_TAG_LBODY] = "LBody",
    [PD_TAG_TABLE] = "Table",
    [PD_TAG_TR] = "TR",
    [PD_TAG_TH] = "TH",
    [PD_TAG_TD] = "TD",
    [PD_TAG_CODE] = "Code",
    [PD_TAG_FIGURE] = "Figure",
    /* cairo takes standard types only: Ruby's RB and RT, which quire never
     * writes, stand for a chart data cell until qr_pdf_tag_patch makes them
     * TH and TD with their /ActualText */
    [PD_TAG_DATA_TH] = "RB",
    [PD_TAG_DATA_TD] = "RT",
    [PD_TAG_BLOCKQUOTE] = "BlockQuote",
    [PD_TAG_CAPTION] = "Caption",
    [PD_TAG_NOTE] = "Note",
    [PD_TAG_TOC] = "TOC",
    [PD_TAG_TOCI] = "TOCI",
    [PD_TAG_DIV] = "Div",
    [PD_TAG_SPAN] = "Span",
};

const char *qr_pdf_tag_name(int tag)
{
    if (tag < 0 || (size_t)tag >= sizeof names / sizeof names[0] || !names[tag]) return "P";
    return names[tag];
}

void qr_pdf_tag_paint(cairo_t *cr, const pd_op *o)
{
    const char *n = qr_pdf_tag_name((int)o->color);
    if (o->line)
        cairo_tag_begin(cr, n, "");
    else
        cairo_tag_end(cr, n);
}

/* A PDF text string of UTF-8 s: UTF-16BE in hex with a byte order mark,
 * so any character survives and nothing needs escaping. */
static void put_text_string(qr_buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    qr_buf_puts(b, "<FEFF");
    size_t n = strlen(s), i = 0;
    while (i < n) {
        uint32_t cp;
        size_t k = qr_utf8_decode((const unsigned char *)s + i, n - i, &cp);
        if (k == 0) {
            cp = 0xFFFD;
            k = 1;
        }
        i += k;
        if (cp < 0x20) cp = ' ';
        unsigned u[2];
        int m = 1;
        if (cp >= 0x10000) {
            cp -= 0x10000;
            u[0] = 0xD800 | (cp >> 10);
            u[1] = 0xDC00 | (cp & 0x3FF);
            m = 2;
        } else {
            u[0] = cp;
        }
        for (int j = 0; j < m; j++) {
            char e[4] = {hex[(u[j] >> 12) & 15], hex[(u[j] >> 8) & 15], hex[(u[j] >> 4) & 15],
                         hex[u[j] & 15]};
            qr_buf_append(b, e, 4);
        }
    }
    qr_buf_putc(b, '>');
}

/* A BCP 47 tag as a PDF string: letters, digits and '-' only. */
static void put_lang(qr_buf *b, const char *lang)
{
    qr_buf_putc(b, '(');
    for (size_t i = 0; lang[i] && i < 35; i++) {
        char ch = lang[i];
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            ch == '-')
            qr_buf_putc(b, ch);
    }
    qr_buf_putc(b, ')');
}

static const char *find(const char *s, size_t n, size_t from, const char *pat)
{
    size_t m = strlen(pat);
    for (size_t i = from; i + m <= n; i++)
        if (s[i] == pat[0] && memcmp(s + i, pat, m) == 0) return s + i;
    return NULL;
}

/* One insertion: at old offset pos (in the tail), delta bytes. */
typedef struct ins {
    size_t pos, delta;
} ins;

static size_t shift_of(const ins *v, size_t n, size_t rel)
{
    size_t d = 0;
    for (size_t i = 0; i < n && v[i].pos < rel; i++)
        d += v[i].delta;
    return d;
}

int qr_pdf_tag_patch(qr_buf *tail, size_t base, const char *lang, int has_title,
                     const char *const *alts, size_t n_alts, const char *const *cells,
                     size_t n_cells)
{
    static const char cat[] = "<< /Type /Catalog\n";
    static const char fig[] = "<< /Type /StructElem\n   /S /Figure\n";
    static const char dth[] = "<< /Type /StructElem\n   /S /RB\n";
    static const char dtd[] = "<< /Type /StructElem\n   /S /RT\n";
    const char *s = tail->data;
    size_t n = tail->len;
    if (!s) return 0;
    qr_buf out = {0};
    ins *v = calloc(n_alts + n_cells + 1, sizeof *v);
    if (!v) return -1;
    size_t nv = 0, at = 0, k = 0, kc = 0;
    /* The catalog is the last object cairo writes: its last match (a
     * title string in the info dictionary before it cannot pose as it). */
    const char *catalog = NULL;
    for (const char *p = find(s, n, 0, cat); p; p = find(s, n, (size_t)(p - s) + 1, cat))
        catalog = p;
    /* the next match of each pattern at or after at, searched again only
     * once passed (a table's cells sit between two Figures) */
    const char *nf = NULL, *nh = NULL, *nd = NULL;
    for (;;) {
        const char *none = s + n;
        if (k < n_alts && (!nf || nf < s + at)) nf = (nf = find(s, n, at, fig)) ? nf : none;
        if (kc < n_cells && (!nh || nh < s + at)) nh = (nh = find(s, n, at, dth)) ? nh : none;
        if (kc < n_cells && (!nd || nd < s + at)) nd = (nd = find(s, n, at, dtd)) ? nd : none;
        const char *f = k < n_alts && nf != none ? nf : NULL;
        const char *c = catalog && (size_t)(catalog - s) >= at ? catalog : NULL;
        const char *dc = kc < n_cells && nh != none ? nh : NULL;
        const char *dd = kc < n_cells && nd != none ? nd : NULL;
        if (!dc || (dd && dd < dc)) dc = dd;
        if (f && c && f > c) f = NULL;
        if (dc && ((c && dc > c) || (f && dc > f))) dc = NULL;
        if (dc && f && f > dc) f = NULL;
        const char *hit = dc ? dc : f && (!c || f < c) ? f : c;
        if (!hit) break;
        if (hit == dc) {
            /* "/S /RB\n" -> "/S /TH\n   /ActualText <...>\n" (RT: TD): grows */
            size_t end = (size_t)(dc - s) + sizeof dth - 1, name = end - 3;
            qr_buf_append(&out, s + at, name - at);
            size_t before = out.len;
            qr_buf_puts(&out, s[name + 1] == 'B' ? "TH\n   /ActualText " : "TD\n   /ActualText ");
            put_text_string(&out, cells[kc] ? cells[kc] : "");
            qr_buf_putc(&out, '\n');
            kc++;
            v[nv++] = (ins){end, out.len - before - 3};
            at = end;
            continue;
        }
        size_t end = (size_t)(hit - s) + (hit == f ? sizeof fig - 1 : sizeof cat - 1);
        qr_buf_append(&out, s + at, end - at);
        size_t before = out.len;
        if (hit == f) {
            const char *a = alts[k++];
            if (a && *a) {
                qr_buf_puts(&out, "   /Alt ");
                put_text_string(&out, a);
                qr_buf_putc(&out, '\n');
            }
        } else {
            qr_buf_puts(&out, "   /Lang ");
            put_lang(&out, lang && *lang ? lang : "en");
            qr_buf_putc(&out, '\n');
            if (has_title) qr_buf_puts(&out, "   /ViewerPreferences << /DisplayDocTitle true >>\n");
        }
        if (out.len > before && nv <= n_alts + n_cells) v[nv++] = (ins){end, out.len - before};
        at = end;
    }
    qr_buf_append(&out, s + at, n - at);
    if (out.oom) {
        qr_buf_free(&out);
        free(v);
        return -1;
    }
    /* the cross-reference table: "xref\n0 N\n" then N entries of 20 bytes */
    char *d = out.data;
    size_t dn = out.len;
    const char *x = NULL;
    for (const char *p = find(d, dn, 0, "\nxref\n"); p;
         p = find(d, dn, (size_t)(p - d) + 1, "\nxref\n"))
        x = p;
    if (x && nv) {
        char *p = (char *)x + 6;
        char *e;
        strtoul(p, &e, 10);
        unsigned long cnt = strtoul(e, &e, 10);
        if (*e == ' ') e++;
        if (*e == '\n') e++;
        for (unsigned long i = 0; i < cnt && e + 20 <= d + dn; i++, e += 20) {
            if (e[17] != 'n') continue;
            unsigned long long off = strtoull(e, NULL, 10);
            if (off < base) continue;
            off += shift_of(v, nv, (size_t)(off - base));
            char num[16];
            snprintf(num, sizeof num, "%010llu", off);
            memcpy(e, num, 10);
        }
        const char *sx = find(d, dn, (size_t)(e - d), "startxref\n");
        if (sx) {
            size_t np = (size_t)(sx - d) + 10;
            unsigned long long xo = strtoull(d + np, &e, 10);
            if (xo >= base) xo += shift_of(v, nv, (size_t)(xo - base));
            qr_buf fixed = {0};
            qr_buf_append(&fixed, d, np);
            qr_buf_printf(&fixed, "%llu", xo);
            qr_buf_append(&fixed, e, dn - (size_t)(e - d));
            if (fixed.oom) {
                qr_buf_free(&fixed);
                qr_buf_free(&out);
                free(v);
                return -1;
            }
            qr_buf_free(&out);
            out = fixed;
        }
    }
    free(v);
    qr_buf_free(tail);
    *tail = out;
    return 0;
}
