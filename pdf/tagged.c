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
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

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
    /* a paragraph or heading in another language than the document's:
     * standard types quire never writes, made the real one with its /Lang
     * by qr_pdf_tag_patch (each at least as long as the real name) */
    [PD_TAG_LANG_P] = "WP",
    [PD_TAG_LANG_H1] = "Index",
    [PD_TAG_LANG_H1 + 1] = "Private",
    [PD_TAG_LANG_H1 + 2] = "Reference",
    [PD_TAG_LANG_H1 + 3] = "BibEntry",
    [PD_TAG_LANG_H1 + 4] = "Formula",
    [PD_TAG_LANG_H6] = "Warichu",
    /* a span in another language inside a line: made a Span with /Lang */
    [PD_TAG_LANG_SPAN] = "Quote",
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

/* The first pat in s[from..n), or NULL (glibc's memmem: a tail with the
 * embedded fonts is hundreds of KB, scanned for a few patterns). */
static const char *find(const char *s, size_t n, size_t from, const char *pat)
{
    if (from >= n) return NULL;
    return memmem(s + from, n - from, pat, strlen(pat));
}

/* The last pat in s[0..n), or NULL. */
static const char *find_last(const char *s, size_t n, const char *pat)
{
    const char *last = NULL;
    for (const char *p = find(s, n, 0, pat); p; p = find(s, n, (size_t)(p - s) + 1, pat))
        last = p;
    return last;
}

/* v written as ten digits with leading zeros (a cross-reference entry's
 * offset, "%010llu" for any offset below 10^10). */
static void put_ten_digits(char *e, unsigned long long v)
{
    for (int i = 9; i >= 0; i--) {
        e[i] = (char)('0' + v % 10);
        v /= 10;
    }
}

/* The sum of the shifts before offset off: sums[i] is the sum of the first i
 * items' deltas, the items in increasing pos. */
static long long shift_before(const pd_shifts *sh, const long long *sums, unsigned long long off)
{
    size_t lo = 0, hi = sh->n; /* the number of items with pos < off */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sh->items[mid].pos < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return sums[lo];
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

/* The real type of a language stand-in (PD_TAG_LANG_*'s names), or NULL. */
static const char *lang_real(const char *name, size_t len)
{
    for (int t = PD_TAG_LANG_P; t <= PD_TAG_LANG_H6; t++) {
        const char *sn = names[t];
        if (strlen(sn) == len && memcmp(sn, name, len) == 0)
            return t == PD_TAG_LANG_P ? "P" : names[PD_TAG_H1 + (t - PD_TAG_LANG_H1)];
    }
    return NULL;
}

/* Text for XML: &, <, >, " escaped, control characters but tab and
 * line feed left out (XML 1.0 has no place for them). */
static void put_xml(qr_buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '&')
            qr_buf_puts(b, "&amp;");
        else if (ch == '<')
            qr_buf_puts(b, "&lt;");
        else if (ch == '>')
            qr_buf_puts(b, "&gt;");
        else if (ch == '"')
            qr_buf_puts(b, "&quot;");
        else if (ch >= 0x20 || ch == '\t' || ch == '\n')
            qr_buf_putc(b, (char)ch);
    }
}

/* An rdf:Alt of one x-default item, an rdf:Seq or rdf:Bag of items split
 * at ", " (sep NULL: one item). */
static void put_rdf(qr_buf *b, const char *el, const char *kind, const char *v, const char *sep)
{
    qr_buf_printf(b, "   <%s><rdf:%s>", el, kind);
    for (const char *p = v; p;) {
        const char *e = sep ? strstr(p, sep) : NULL;
        size_t n = e ? (size_t)(e - p) : strlen(p);
        qr_buf_puts(b, !strcmp(kind, "Alt") ? "<rdf:li xml:lang=\"x-default\">" : "<rdf:li>");
        put_xml(b, p, n);
        qr_buf_puts(b, "</rdf:li>");
        p = e ? e + strlen(sep) : NULL;
    }
    qr_buf_printf(b, "</rdf:%s></%s>\n", kind, el);
}

/* The XMP packet of the document's metadata (the info dictionary's
 * values, which cairo writes: readers that look at XMP only, PDF/UA's
 * dc:title, find the same). Deterministic. */
static void put_xmp(qr_buf *b, const pd_xmp *m)
{
    qr_buf_puts(b, "<?xpacket begin=\"\xEF\xBB\xBF\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
                   "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
                   " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
                   "  <rdf:Description rdf:about=\"\"\n"
                   "    xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
                   "    xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"\n"
                   "    xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\">\n"
                   "   <dc:format>application/pdf</dc:format>\n");
    if (m->title) put_rdf(b, "dc:title", "Alt", m->title, NULL);
    if (m->author) put_rdf(b, "dc:creator", "Seq", m->author, NULL);
    if (m->subject) put_rdf(b, "dc:description", "Alt", m->subject, NULL);
    if (m->keywords) {
        put_rdf(b, "dc:subject", "Bag", m->keywords, ", ");
        qr_buf_puts(b, "   <pdf:Keywords>");
        put_xml(b, m->keywords, strlen(m->keywords));
        qr_buf_puts(b, "</pdf:Keywords>\n");
    }
    if (m->date) {
        qr_buf_puts(b, "   <xmp:CreateDate>");
        put_xml(b, m->date, strlen(m->date));
        qr_buf_puts(b, "</xmp:CreateDate>\n   <xmp:ModifyDate>");
        put_xml(b, m->date, strlen(m->date));
        qr_buf_puts(b, "</xmp:ModifyDate>\n");
    }
    if (m->producer) {
        qr_buf_puts(b, "   <pdf:Producer>");
        put_xml(b, m->producer, strlen(m->producer));
        qr_buf_puts(b, "</pdf:Producer>\n");
    }
    qr_buf_puts(b, "   <xmp:CreatorTool>quire</xmp:CreatorTool>\n"
                   "  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n<?xpacket end=\"r\"?>");
}

/* The last cross-reference table of d[0..n): its "xref" line's offset, the
 * first entry's offset and the entry count; -1 when there is none. */
static int xref_of(const char *d, size_t n, size_t *at, size_t *entries, unsigned long *count)
{
    const char *x = find_last(d, n, "\nxref\n");
    if (!x) return -1;
    char *e;
    const char *p = x + 6;
    if (strtoul(p, &e, 10) != 0 || *e != ' ') return -1;
    unsigned long cnt = strtoul(e + 1, &e, 10);
    if (*e == ' ') e++;
    if (*e != '\n') return -1;
    if ((size_t)(e + 1 - d) + cnt * 20 > n) return -1;
    *at = (size_t)(x + 1 - d);
    *entries = (size_t)(e + 1 - d);
    *count = cnt;
    return 0;
}

/* One more object in the cross-reference table of *b (its entries already
 * final): at file offset off, numbered count; the trailer's /Size grows. */
static int xref_add(qr_buf *b, unsigned long long off)
{
    size_t at, entries;
    unsigned long cnt;
    if (xref_of(b->data, b->len, &at, &entries, &cnt) != 0) return -1;
    size_t end = entries + cnt * 20;
    qr_buf o = {0};
    qr_buf_append(&o, b->data, at);
    qr_buf_printf(&o, "xref\n0 %lu\n", cnt + 1);
    qr_buf_append(&o, b->data + entries, end - entries);
    qr_buf_printf(&o, "%010llu 00000 n \n", off);
    char size[32];
    snprintf(size, sizeof size, "/Size %lu", cnt);
    const char *sz = find(b->data, b->len, end, size);
    if (!sz) {
        qr_buf_free(&o);
        return -1;
    }
    qr_buf_append(&o, b->data + end, (size_t)(sz - b->data) - end);
    qr_buf_printf(&o, "/Size %lu", cnt + 1);
    size_t rest = (size_t)(sz - b->data) + strlen(size);
    qr_buf_append(&o, b->data + rest, b->len - rest);
    if (o.oom) {
        qr_buf_free(&o);
        return -1;
    }
    qr_buf_free(b);
    *b = o;
    return 0;
}

int qr_pdf_tag_patch(qr_buf *tail, size_t base, const char *lang, int has_title,
                     const char *const *alts, size_t n_alts, const char *const *cells,
                     size_t n_cells, const char *const *langs, size_t n_langs,
                     const char *const *spans, size_t n_spans, const pd_shifts *pre,
                     const pd_xmp *xmp)
{
    static const char cat[] = "<< /Type /Catalog\n";
    static const char elem[] = "<< /Type /StructElem\n   /S /";
    const char *s = tail->data;
    size_t n = tail->len;
    if (!s) return 0;
    qr_buf out = {0};
    ins *v = calloc(n_alts + n_cells + n_langs + n_spans + 3, sizeof *v);
    if (!v) return -1;
    size_t nv = 0, at = 0, k = 0, kc = 0, kl = 0, ks = 0;
    /* The catalog is the last object cairo writes: its last match (a
     * title string in the info dictionary before it cannot pose as it). */
    const char *catalog = find_last(s, n, cat);
    size_t stop = catalog ? (size_t)(catalog - s) : n;
    /* the XMP stream: a new object numbered after cairo's last, placed
     * just before the cross-reference table */
    size_t x_at = 0, x_entries;
    unsigned long x_cnt = 0;
    if (xmp && (!catalog || xref_of(s, n, &x_at, &x_entries, &x_cnt) != 0 || x_at <= stop))
        xmp = NULL;
    /* Structure elements in the order cairo wrote them (document order),
     * each kind matched with its own list in turn: a Figure gets /Alt, a
     * chart data cell (RB, RT) becomes TH or TD with /ActualText, a
     * language stand-in becomes its P or Hn with /Lang, a language span's
     * stand-in (Quote) a Span with its /Lang. */
    for (const char *p = find(s, stop, 0, elem); p;
         p = find(s, stop, (size_t)(p - s) + sizeof elem - 1, elem)) {
        size_t name = (size_t)(p - s) + sizeof elem - 1, ne = name;
        while (ne < stop && s[ne] != '\n')
            ne++;
        if (ne >= stop) break;
        size_t len = ne - name;
        const char *real = lang_real(s + name, len);
        if (len == 6 && memcmp(s + name, "Figure", 6) == 0 && k < n_alts) {
            const char *a = alts[k++];
            if (!a || !*a) continue;
            qr_buf_append(&out, s + at, ne + 1 - at);
            size_t before = out.len;
            qr_buf_puts(&out, "   /Alt ");
            put_text_string(&out, a);
            qr_buf_putc(&out, '\n');
            v[nv++] = (ins){ne + 1, out.len - before};
            at = ne + 1;
        } else if (len == 2 && s[name] == 'R' && (s[name + 1] == 'B' || s[name + 1] == 'T') &&
                   kc < n_cells) {
            /* "/S /RB\n" -> "/S /TH\n   /ActualText <...>\n" (RT: TD): grows */
            qr_buf_append(&out, s + at, name - at);
            size_t before = out.len;
            qr_buf_puts(&out, s[name + 1] == 'B' ? "TH\n   /ActualText " : "TD\n   /ActualText ");
            put_text_string(&out, cells[kc] ? cells[kc] : "");
            qr_buf_putc(&out, '\n');
            kc++;
            v[nv++] = (ins){ne + 1, out.len - before - (len + 1)};
            at = ne + 1;
        } else if (len == 5 && memcmp(s + name, names[PD_TAG_LANG_SPAN], 5) == 0 && ks < n_spans) {
            /* "/S /Quote\n" -> "/S /Span\n   /Lang (ja)\n": a language span */
            qr_buf_append(&out, s + at, name - at);
            size_t before = out.len;
            qr_buf_puts(&out, "Span\n   /Lang ");
            put_lang(&out, spans[ks] ? spans[ks] : "und");
            qr_buf_putc(&out, '\n');
            ks++;
            v[nv++] = (ins){ne + 1, out.len - before - (len + 1)};
            at = ne + 1;
        } else if (real && kl < n_langs) {
            /* "/S /WP\n" -> "/S /P\n   /Lang (ar)\n": the stand-in's name
             * is never shorter than the real one's (the names table) */
            qr_buf_append(&out, s + at, name - at);
            size_t before = out.len;
            qr_buf_puts(&out, real);
            qr_buf_puts(&out, "\n   /Lang ");
            put_lang(&out, langs[kl] ? langs[kl] : "und");
            qr_buf_putc(&out, '\n');
            kl++;
            size_t grown = out.len - before, was = len + 1;
            if (grown < was) { /* cannot happen with the names table */
                qr_buf_free(&out);
                free(v);
                return -1;
            }
            v[nv++] = (ins){ne + 1, grown - was};
            at = ne + 1;
        }
    }
    if (catalog) {
        size_t end = (size_t)(catalog - s) + sizeof cat - 1;
        qr_buf_append(&out, s + at, end - at);
        size_t before = out.len;
        qr_buf_puts(&out, "   /Lang ");
        put_lang(&out, lang && *lang ? lang : "en");
        qr_buf_putc(&out, '\n');
        if (has_title) qr_buf_puts(&out, "   /ViewerPreferences << /DisplayDocTitle true >>\n");
        if (xmp) qr_buf_printf(&out, "   /Metadata %lu 0 R\n", x_cnt);
        v[nv++] = (ins){end, out.len - before};
        at = end;
    }
    unsigned long long xmp_off = 0;
    if (xmp) {
        /* "...endobj\n" + "N 0 obj ... endobj\n" + "xref": inserted at
         * the table's line feed before it, so the table moves too */
        qr_buf_append(&out, s + at, x_at - 1 - at);
        size_t before = out.len;
        qr_buf pkt = {0};
        put_xmp(&pkt, xmp);
        qr_buf_printf(&out,
                      "\n%lu 0 obj\n<< /Type /Metadata\n   /Subtype /XML\n   /Length %zu\n>>\n"
                      "stream\n",
                      x_cnt, pkt.len);
        xmp_off = base + before + 1;
        qr_buf_append(&out, pkt.data, pkt.len);
        qr_buf_puts(&out, "\nendstream\nendobj");
        if (pkt.oom) out.oom = 1;
        qr_buf_free(&pkt);
        v[nv++] = (ins){x_at - 1, out.len - before};
        at = x_at - 1;
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
    const char *x = find_last(d, dn, "\nxref\n");
    /* the page shifts (qr_pdf_artifact_page) come before the tail; sums[i]
     * is the sum of the first i */
    size_t n_pre = pre ? pre->n : 0;
    long long *sums = malloc((n_pre + 1) * sizeof *sums);
    if (!sums) {
        qr_buf_free(&out);
        free(v);
        return -1;
    }
    sums[0] = 0;
    for (size_t i = 0; i < n_pre; i++)
        sums[i + 1] = sums[i] + pre->items[i].delta;
    long long pre_all = sums[n_pre];
    if (x && (nv || n_pre)) {
        char *p = (char *)x + 6;
        char *e;
        strtoul(p, &e, 10);
        unsigned long cnt = strtoul(e, &e, 10);
        if (*e == ' ') e++;
        if (*e == '\n') e++;
        for (unsigned long i = 0; i < cnt && e + 20 <= d + dn; i++, e += 20) {
            if (e[17] != 'n') continue;
            unsigned long long off = strtoull(e, NULL, 10);
            if (off < base) {
                off = (unsigned long long)((long long)off +
                                           (n_pre ? shift_before(pre, sums, off) : 0));
            } else {
                off = (unsigned long long)((long long)off + pre_all) +
                      shift_of(v, nv, (size_t)(off - base));
            }
            if (off < 10000000000ULL) {
                put_ten_digits(e, off);
            } else { /* more digits than the entry has room for: as before */
                char num[24];
                snprintf(num, sizeof num, "%010llu", off);
                memcpy(e, num, 10);
            }
        }
        const char *sx = find(d, dn, (size_t)(e - d), "startxref\n");
        if (sx) {
            size_t np = (size_t)(sx - d) + 10;
            unsigned long long xo = strtoull(d + np, &e, 10);
            if (xo >= base)
                xo = (unsigned long long)((long long)xo + pre_all) +
                     shift_of(v, nv, (size_t)(xo - base));
            qr_buf fixed = {0};
            qr_buf_append(&fixed, d, np);
            qr_buf_printf(&fixed, "%llu", xo);
            qr_buf_append(&fixed, e, dn - (size_t)(e - d));
            if (fixed.oom) {
                qr_buf_free(&fixed);
                qr_buf_free(&out);
                free(sums);
                free(v);
                return -1;
            }
            qr_buf_free(&out);
            out = fixed;
        }
    }
    free(sums);
    free(v);
    /* the metadata's offset, in the tail moved by the page shifts */
    if (xmp && xref_add(&out, (unsigned long long)((long long)xmp_off + pre_all)) != 0) {
        qr_buf_free(&out);
        return -1;
    }
    qr_buf_free(tail);
    *tail = out;
    return 0;
}

/* ---- page furniture as artifacts ------------------------------------------ */

static int note_shift(pd_shifts *sh, size_t pos, long long delta)
{
    if (!delta) return 0;
    if (sh->n == sh->cap) {
        size_t cap = sh->cap ? sh->cap * 2 : 64;
        pd_shift *v = realloc(sh->items, cap * sizeof *v);
        if (!v) return -1;
        sh->items = v;
        sh->cap = cap;
    }
    sh->items[sh->n++] = (pd_shift){pos, delta};
    return 0;
}

/* The inflated bytes of a FlateDecode stream; -1 when they are not one. */
static int inflate_all(const unsigned char *s, size_t n, qr_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK) return -1;
    z.next_in = (unsigned char *)s;
    z.avail_in = (uInt)n;
    int r = Z_OK;
    while (r == Z_OK) {
        char *d = qr_buf_reserve(out, 65536);
        if (!d) break;
        z.next_out = (unsigned char *)d;
        z.avail_out = 65536;
        r = inflate(&z, Z_NO_FLUSH);
        out->len += 65536 - z.avail_out;
    }
    inflateEnd(&z);
    return r == Z_STREAM_END && !out->oom ? 0 : -1;
}

/* The end of the content-stream token at i (a string, a hex string or
 * dictionary delimiter, a name, a number or an operator). */
static size_t token_end(const char *d, size_t n, size_t i)
{
    if (d[i] == '(') {
        int depth = 0;
        for (; i < n; i++) {
            if (d[i] == '\\') {
                i++;
            } else if (d[i] == '(') {
                depth++;
            } else if (d[i] == ')' && --depth == 0) {
                return i + 1;
            }
        }
        return n;
    }
    if (d[i] == '<' || d[i] == '>') {
        if (i + 1 < n && d[i + 1] == d[i]) return i + 2; /* << or >> */
        if (d[i] == '>') return i + 1;
        const char *e = memchr(d + i, '>', n - i);
        return e ? (size_t)(e - d) + 1 : n;
    }
    if (strchr("[]{}", d[i])) return i + 1;
    size_t j = i + 1;
    while (j < n && !strchr(" \t\r\n\f()<>[]{}/%", d[j]))
        j++;
    return j;
}

/* The content with its page furniture and loose text made artifacts. A
 * text object (BT ... ET) whose baselines (Tm, then Td) lie in the top
 * margin (y < top) is a header, in the bottom margin (y > bottom) a footer,
 * in both (cairo kept one text object for the header and the footer) page
 * furniture: a pagination artifact, wherever it was drawn; one drawn inside a structure
 * element left open at the page's end (a list item going on to the next
 * page) moves after the page's last marked content, when nothing but
 * furniture follows it. Other text outside marked content (a table's header
 * row repeated on a later page) is a plain artifact. -1: nothing to do, or
 * inline image data the scan cannot read. */
static int wrap_loose(const char *d, size_t n, double top, double bottom, qr_buf *out)
{
    enum { T_CONTENT, T_LOOSE, T_HEADER, T_FOOTER, T_FURNITURE };
    typedef struct tobj {
        size_t bt, et, depth;
        int kind;
    } tobj;
    tobj *v = NULL;
    size_t nv = 0, cap = 0, depth = 0, last_emc = 0, bt = SIZE_MAX, bt_depth = 0;
    double nums[6] = {0}, y = 0, tm_b = 0, tm_d = 1;
    int have_y = 0, kinds = 0; /* the margins the text object's baselines lie in */
    for (size_t i = 0; i < n;) {
        if (strchr(" \t\r\n\f", d[i])) {
            i++;
            continue;
        }
        size_t e = token_end(d, n, i), len = e - i;
        if ((d[i] >= '0' && d[i] <= '9') || d[i] == '-' || d[i] == '.') {
            memmove(nums, nums + 1, 5 * sizeof *nums);
            nums[5] = strtod(d + i, NULL); /* cairo writes numbers in the C locale's form */
            i = e;
            continue;
        }
        if (len == 2 && d[i] == 'B' && d[i + 1] == 'I') {
            free(v);
            return -1; /* inline image data */
        }
        if (len == 3 && (memcmp(d + i, "BDC", 3) == 0 || memcmp(d + i, "BMC", 3) == 0)) {
            depth++;
        } else if (len == 3 && memcmp(d + i, "EMC", 3) == 0) {
            if (depth) depth--;
            last_emc = e;
        } else if (len == 2 && d[i] == 'B' && d[i + 1] == 'T') {
            bt = i;
            bt_depth = depth;
            have_y = 0;
            kinds = 0;
        } else if (len == 2 && d[i] == 'T' && d[i + 1] == 'm' && bt != SIZE_MAX) {
            tm_b = nums[1];
            tm_d = nums[3];
            y = nums[5];
            have_y = 1;
            kinds |= y < top ? 1 : y > bottom ? 2 : 4;
        } else if (len == 2 && d[i] == 'T' && (d[i + 1] == 'd' || d[i + 1] == 'D') && have_y) {
            /* the next line of the same text object (a header, then the
             * footer): tx ty in text space */
            y += nums[4] * tm_b + nums[5] * tm_d;
            kinds |= y < top ? 1 : y > bottom ? 2 : 4;
        } else if (len == 2 && d[i] == 'E' && d[i + 1] == 'T' && bt != SIZE_MAX) {
            if (nv == cap) {
                cap = cap ? cap * 2 : 64;
                tobj *nvp = realloc(v, cap * sizeof *v);
                if (!nvp) {
                    free(v);
                    return -1;
                }
                v = nvp;
            }
            int kind = !have_y || (kinds & 4) ? (bt_depth ? T_CONTENT : T_LOOSE)
                       : kinds == 1           ? T_HEADER
                       : kinds == 2           ? T_FOOTER
                                              : T_FURNITURE;
            v[nv++] = (tobj){bt, e, bt_depth, kind};
            bt = SIZE_MAX;
        }
        i = e;
    }
    /* furniture at the page's end inside open marked content moves out */
    size_t tail_from = nv;
    while (tail_from > 0 && v[tail_from - 1].kind >= T_HEADER)
        tail_from--;
    int any = 0;
    for (size_t k = 0; k < nv; k++)
        any |= v[k].kind != T_CONTENT;
    if (!any) {
        free(v);
        return -1;
    }
    static const char *const props[] = {
        [T_LOOSE] = "/Artifact BMC\n",
        [T_HEADER] = "/Artifact << /Type /Pagination /Subtype /Header >> BDC\n",
        [T_FOOTER] = "/Artifact << /Type /Pagination /Subtype /Footer >> BDC\n",
        [T_FURNITURE] = "/Artifact << /Type /Pagination >> BDC\n",
    };
    size_t at = 0;
    int moved = 0;
    for (size_t k = 0; k < nv; k++) {
        const tobj *t = &v[k];
        if (t->kind == T_CONTENT) continue;
        int move = k >= tail_from && t->depth > 0 && last_emc > t->et;
        qr_buf_append(out, d + at, t->bt - at);
        at = t->et;
        if (move) {
            moved = 1;
            continue; /* written after the last EMC */
        }
        qr_buf_puts(out, props[t->kind]);
        qr_buf_append(out, d + t->bt, t->et - t->bt);
        qr_buf_puts(out, "\nEMC\n");
    }
    if (moved) {
        qr_buf_append(out, d + at, last_emc - at);
        for (size_t k = tail_from; k < nv; k++) {
            const tobj *t = &v[k];
            if (!(t->depth > 0 && last_emc > t->et)) continue;
            qr_buf_puts(out, "\n");
            qr_buf_puts(out, props[t->kind]);
            qr_buf_append(out, d + t->bt, t->et - t->bt);
            qr_buf_puts(out, "\nEMC");
        }
        at = last_emc;
    }
    qr_buf_append(out, d + at, n - at);
    free(v);
    return out->oom ? -1 : 0;
}

int qr_pdf_artifact_page(qr_buf *page, size_t at, double top, double bottom, pd_shifts *sh)
{
    static const char head[] = " 0 R\n   /Filter /FlateDecode\n>>\nstream\n";
    const char *s = page->data;
    size_t n = page->len;
    if (!s) return 0;
    for (const char *p = find(s, n, 0, head); p; p = find(s, n, (size_t)(p - s) + 1, head)) {
        /* "<< /Length M 0 R\n   /Filter /FlateDecode\n>>\nstream\n": a
         * content stream; its length is object M, written after it */
        size_t q = (size_t)(p - s);
        size_t ds = q + sizeof head - 1;
        size_t k = q;
        while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
            k--;
        if (k < 11 || memcmp(s + k - 11, "<< /Length ", 11) != 0) continue;
        unsigned long len_obj = strtoul(s + k, NULL, 10);
        const char *es = find(s, n, ds, "endstream\nendobj\n");
        if (!es) return 0;
        size_t de = (size_t)(es - s);
        if (de > ds && s[de - 1] == '\n') de--; /* cairo ends the data with a newline */
        /* stored blocks (zlib's header 78 01): cairo was asked not to
         * deflate it (pdf/memo/deflate_once.c), so it is deflated here
         * whether or not it changes */
        int stored = de - ds >= 2 && (unsigned char)s[ds] == 0x78 && s[ds + 1] == 0x01;
        qr_buf raw = {0}, wrapped = {0};
        if (inflate_all((const unsigned char *)s + ds, de - ds, &raw) != 0) {
            qr_buf_free(&raw);
            continue;
        }
        if (raw.len < 11 || memcmp(raw.data, "1 0 0 -1 0 ", 11) != 0 ||
            wrap_loose(raw.data, raw.len, top, bottom, &wrapped) != 0) {
            qr_buf_free(&wrapped);
            if (!stored) {
                qr_buf_free(&raw);
                continue;
            }
            wrapped = raw; /* deflated as it is */
        } else {
            qr_buf_free(&raw);
        }
        uLongf zn = compressBound((uLong)wrapped.len);
        unsigned char *z = malloc(zn);
        if (!z ||
            compress2(z, &zn, (const unsigned char *)wrapped.data, (uLong)wrapped.len, 6) != Z_OK) {
            free(z);
            qr_buf_free(&wrapped);
            return -1;
        }
        qr_buf_free(&wrapped);
        /* the length object "M 0 obj\n   LEN\nendobj\n" after the stream */
        char pat[40];
        snprintf(pat, sizeof pat, "\n%lu 0 obj\n   ", len_obj);
        const char *lo = find(s, n, de, pat);
        size_t lp = lo ? (size_t)(lo - s) + strlen(pat) : 0, le = lp;
        while (lo && le < n && s[le] >= '0' && s[le] <= '9')
            le++;
        if (!lo || le == lp) {
            free(z);
            return 0; /* not the layout expected: left as cairo wrote it */
        }
        char num[24];
        int nl = snprintf(num, sizeof num, "%lu", (unsigned long)zn);
        qr_buf out = {0};
        qr_buf_append(&out, s, ds);
        qr_buf_append(&out, z, zn);
        qr_buf_append(&out, s + de, lp - de);
        qr_buf_append(&out, num, (size_t)nl);
        qr_buf_append(&out, s + le, n - le);
        free(z);
        if (out.oom || note_shift(sh, at + ds, (long long)zn - (long long)(de - ds)) != 0 ||
            note_shift(sh, at + lp, (long long)nl - (long long)(le - lp)) != 0) {
            qr_buf_free(&out);
            return -1;
        }
        qr_buf_free(page);
        *page = out;
        return 0; /* one content stream per page */
    }
    return 0;
}
