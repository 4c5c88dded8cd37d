/* poppler.c: a .pdf back into a document spec with poppler-glib: per page the
 * text in reading order (poppler's text layout, which gives right-to-left
 * and CJK text in logical order), split into lines with their font size and
 * position; lines join into paragraphs until a vertical gap or a change of
 * size; lines larger than the body size are headings (the larger, the
 * higher), lines starting with a bullet or "1." are list items. Password
 * PDFs and damaged files are input errors.
 *
 * Built into libquire, and for the CLI into quire-read-pdf.so, which
 * read/pdf/load.c opens on the first PDF: the CLI does not link poppler and
 * its dozens of libraries, so every other command starts as fast as before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"

#include <fribidi.h>
#include <math.h>
#include <poppler.h>

typedef struct line {
    char *text; /* UTF-8 */
    double size, top, bottom, left;
    int page;
} line;

typedef struct lines {
    line *items;
    size_t n, cap;
} lines;

/* poppler gives right-to-left text in visual order, each character wrapped
 * in U+202B ... U+202C: drop the marks and reorder the line to logical
 * order (the bidi reordering of a visual line gives back its logical one
 * for the common cases: RTL text with embedded numbers and Latin words). */
static char *logical(const char *s, size_t n)
{
    FriBidiChar *u = malloc((n + 1) * sizeof *u), *v = malloc((n + 1) * sizeof *v);
    char *out = malloc(n * 8 + 1);
    if (!u || !v || !out) {
        free(u), free(v), free(out);
        return strndup(s, n);
    }
    FriBidiStrIndex len =
        fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, s, (FriBidiStrIndex)n, u);
    FriBidiStrIndex k = 0;
    int rtl = 0, last_rtl = 0;
    for (FriBidiStrIndex i = 0; i < len; i++) {
        FriBidiChar c = u[i];
        if ((c >= 0x202A && c <= 0x202E) || c == 0xFEFF) continue;
        FriBidiCharType t = fribidi_get_bidi_type(c);
        if (FRIBIDI_IS_RTL(t))
            rtl = last_rtl = 1;
        else if (FRIBIDI_IS_LETTER(t))
            last_rtl = 0;
        u[k++] = c;
    }
    if (rtl) {
        /* Reorder only: fribidi_log2vis would also shape (presentation forms). */
        FriBidiParType base = last_rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
        FriBidiCharType *types = malloc((size_t)k * sizeof *types);
        FriBidiBracketType *brackets = malloc((size_t)k * sizeof *brackets);
        FriBidiLevel *levels = malloc((size_t)k * sizeof *levels);
        if (types && brackets && levels) {
            fribidi_get_bidi_types(u, k, types);
            fribidi_get_bracket_types(u, k, types, brackets);
            if (fribidi_get_par_embedding_levels_ex(types, brackets, k, &base, levels) &&
                !fribidi_reorder_line(FRIBIDI_FLAGS_DEFAULT, types, k, 0, base, levels, u, NULL))
                rtl = 0; /* cannot reorder: the line stays as poppler gave it */
        }
        free(types);
        free(brackets);
        free(levels);
    }
    /* Arabic presentation forms (what the glyphs map to, and what fribidi's
     * shaping makes) back to letters; lam-alef to lam and alef. */
    char *o = out;
    for (FriBidiStrIndex i = 0; i < k; i++) {
        FriBidiChar c = u[i];
        char one[8];
        int m = g_unichar_to_utf8((gunichar)c, one);
        one[m] = '\0';
        if ((c >= 0xFB50 && c <= 0xFDFF) || (c >= 0xFE70 && c <= 0xFEFC)) {
            char *nf = g_utf8_normalize(one, -1, G_NORMALIZE_NFKC);
            if (nf && strlen(nf) <= 8) {
                strcpy(o, nf);
                o += strlen(nf);
                g_free(nf);
                continue;
            }
            g_free(nf);
        }
        memcpy(o, one, (size_t)m);
        o += m;
    }
    *o = '\0';
    free(u);
    free(v);
    return out;
}

static void add_line(lines *ls, const char *s, size_t n, double size, double top, double bottom,
                     double left, int page)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    while (n && *s == ' ')
        s++, n--;
    if (!n) return;
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? ls->cap * 2 : 256;
        line *nl = realloc(ls->items, cap * sizeof *nl);
        if (!nl) return;
        ls->items = nl;
        ls->cap = cap;
    }
    line *l = &ls->items[ls->n++];
    l->text = logical(s, n);
    l->size = size;
    l->top = top;
    l->bottom = bottom;
    l->left = left;
    l->page = page;
}

/* The lines of one page: poppler's text, its per-character boxes and its
 * font attributes share one indexing (characters of the text). */
static void page_lines(PopplerPage *pg, int index, lines *ls)
{
    char *text = poppler_page_get_text(pg);
    if (!text) return;
    PopplerRectangle *rects = NULL;
    guint n_rects = 0;
    poppler_page_get_text_layout(pg, &rects, &n_rects);
    GList *attrs = poppler_page_get_text_attributes(pg);
    const char *p = text;
    glong ci = 0; /* character index */
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        glong chars = g_utf8_strlen(p, (gssize)n);
        /* The layout has no boxes for the bidi marks poppler adds. */
        glong marks = 0;
        for (const char *q = p; q < p + n; q = g_utf8_next_char(q)) {
            gunichar c = g_utf8_get_char(q);
            if (c >= 0x202A && c <= 0x202E) marks++;
        }
        chars -= marks;
        double size = 0, top = 0, bottom = 0, left = 1e9;
        for (GList *a = attrs; a; a = a->next) {
            PopplerTextAttributes *ta = a->data;
            if (ta->start_index <= ci && ta->end_index >= ci) {
                size = ta->font_size;
                break;
            }
        }
        int got = 0;
        for (glong k = ci; k < ci + chars && (guint)k < n_rects; k++) {
            if (!got || rects[k].y1 < top) top = rects[k].y1;
            if (!got || rects[k].y2 > bottom) bottom = rects[k].y2;
            if (rects[k].x1 < left) left = rects[k].x1;
            got = 1;
        }
        add_line(ls, p, n, size, top, bottom, left, index);
        ci += chars + (e ? 1 : 0);
        (void)marks;
        p = e ? e + 1 : p + n;
    }
    poppler_page_free_text_attributes(attrs);
    g_free(rects);
    g_free(text);
}

static int is_bullet(const char *s, int *ordered, const char **rest)
{
    const unsigned char *u = (const unsigned char *)s;
    /* • U+2022, ◦ U+25E6, ▪ U+25AA, – U+2013 */
    if ((u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA2 || u[2] == 0x93)) ||
        (u[0] == 0xE2 && u[1] == 0x97 && u[2] == 0xA6) ||
        (u[0] == 0xE2 && u[1] == 0x96 && u[2] == 0xAA)) {
        *ordered = 0;
        *rest = s + 3;
    } else if ((s[0] == '-' || s[0] == '*') && s[1] == ' ') {
        *ordered = 0;
        *rest = s + 1;
    } else {
        const char *q = s;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q == s || q - s > 3 || (*q != '.' && *q != ')') || q[1] != ' ') return 0;
        *ordered = 1;
        *rest = q + 1;
    }
    while (**rest == ' ' || **rest == '\t')
        (*rest)++;
    return **rest != 0;
}

/* Lines end inside a word in CJK text: join them without a space. */
static int cjk_end(const char *s)
{
    size_t n = strlen(s);
    if (n < 3) return 0;
    const unsigned char *u = (const unsigned char *)s + n - 3;
    return u[0] >= 0xE3 && u[0] <= 0xED;
}

int qr_rd_pdf_json(const void *data, size_t len, qr_buf *b, char *msg, size_t msgsz,
                   const char **hint)
{
    GBytes *bytes = g_bytes_new_static(data, len);
    GError *err = NULL;
    PopplerDocument *doc = poppler_document_new_from_bytes(bytes, NULL, &err);
    if (!doc) {
        int pw = err && err->domain == POPPLER_ERROR && err->code == POPPLER_ERROR_ENCRYPTED;
        *hint = pw ? "remove the password and read that copy" : "the file is damaged or not a PDF";
        if (pw)
            snprintf(msg, msgsz, "the PDF is password-protected");
        else
            snprintf(msg, msgsz, "cannot open the PDF: %s", err ? err->message : "unknown error");
        if (err) g_error_free(err);
        g_bytes_unref(bytes);
        return -1;
    }
    lines ls = {0};
    int pages = poppler_document_get_n_pages(doc);
    for (int i = 0; i < pages; i++) {
        PopplerPage *pg = poppler_document_get_page(doc, i);
        if (!pg) continue;
        page_lines(pg, i, &ls);
        g_object_unref(pg);
    }
    char *title = poppler_document_get_title(doc);
    g_object_unref(doc);
    g_bytes_unref(bytes);

    /* The body size: the size most characters have (rounded to 0.5 pt). */
    double best = 0;
    size_t best_n = 0;
    for (size_t i = 0; i < ls.n; i++) {
        size_t count = 0;
        double s = round(ls.items[i].size * 2) / 2;
        for (size_t k = 0; k < ls.n; k++)
            if (round(ls.items[k].size * 2) / 2 == s) count += strlen(ls.items[k].text);
        if (count > best_n) best_n = count, best = s;
        if (ls.n > 2000) break; /* big files: the first line's size is a fair guess */
    }
    /* Heading sizes, largest first, give levels 1.. */
    double sizes[6];
    int n_sizes = 0;
    for (size_t i = 0; i < ls.n; i++) {
        double s = round(ls.items[i].size * 2) / 2;
        if (s <= best * 1.1) continue;
        int k = 0;
        while (k < n_sizes && sizes[k] != s)
            k++;
        if (k < n_sizes) continue;
        if (n_sizes < 6) sizes[n_sizes++] = s;
        for (int a = n_sizes - 1; a > 0 && sizes[a] > sizes[a - 1]; a--) {
            double t = sizes[a];
            sizes[a] = sizes[a - 1];
            sizes[a - 1] = t;
        }
    }
    qr_buf_putc(b, '{');
    if (title && *title) {
        qr_buf_puts(b, "\"title\":");
        qr_rd_jstr(b, title, strlen(title));
        qr_buf_putc(b, ',');
    }
    qr_buf_puts(b, "\"blocks\":[");
    qr_buf para = {0};
    int blocks = 0, list_open = 0, list_ordered = 0, items = 0;
    size_t skip_title = title && *title && ls.n && strcmp(ls.items[0].text, title) == 0 ? 1 : 0;
    for (size_t i = skip_title; i <= ls.n; i++) {
        const line *l = i < ls.n ? &ls.items[i] : NULL;
        const line *prev = i > skip_title ? &ls.items[i - 1] : NULL;
        double s = l ? round(l->size * 2) / 2 : 0;
        int level = 0;
        for (int k = 0; l && k < n_sizes; k++)
            if (sizes[k] == s) level = k + 1;
        int ordered = 0;
        const char *rest = NULL;
        int bullet = l && !level && is_bullet(l->text, &ordered, &rest);
        double h = prev ? prev->size : 0; /* the gap in font sizes: line boxes vary by script */
        int gap = !prev || !l || l->page != prev->page || l->top - prev->bottom > h * 0.3 ||
                  fabs(round(prev->size * 2) / 2 - s) > 0.1;
        int new_block = gap || level || bullet;
        if (new_block && para.len) {
            if (list_open) qr_buf_puts(b, "]}"), list_open = 0;
            qr_buf_puts(b, blocks++ ? ",{\"type\":\"paragraph\",\"text\":"
                                    : "{\"type\":\"paragraph\",\"text\":");
            qr_rd_jstr(b, para.data, para.len);
            qr_buf_putc(b, '}');
            para.len = 0;
        }
        if (!l) break;
        /* A page number alone on its line ("3", "3/12") is the page's furniture. */
        if (strspn(l->text, "0123456789/ ") == strlen(l->text)) continue;
        if (list_open && (!bullet || ordered != list_ordered) && !(gap == 0 && !bullet && !level)) {
            qr_buf_puts(b, "]}");
            list_open = 0;
        }
        if (level) {
            qr_buf_puts(b, blocks++ ? ",{\"type\":\"heading\",\"text\":"
                                    : "{\"type\":\"heading\",\"text\":");
            qr_rd_jstr(b, l->text, strlen(l->text));
            qr_buf_printf(b, ",\"level\":%d}", level);
        } else if (bullet) {
            if (!list_open) {
                qr_buf_puts(b, blocks++ ? ",{\"type\":\"list\"" : "{\"type\":\"list\"");
                if (ordered) qr_buf_puts(b, ",\"ordered\":true");
                qr_buf_puts(b, ",\"items\":[");
                list_open = 1;
                list_ordered = ordered;
                items = 0;
            }
            if (items++) qr_buf_putc(b, ',');
            qr_rd_jstr(b, rest, strlen(rest));
        } else if (list_open && !gap) {
            /* A wrapped list item: its line continues the last item. */
            if (b->len && b->data[b->len - 1] == '"') {
                b->len--;
                qr_buf_putc(b, ' ');
                qr_buf t = {0};
                qr_rd_jstr(&t, l->text, strlen(l->text));
                qr_buf_append(b, t.data + 1, t.len - 1);
                qr_buf_free(&t);
            }
        } else {
            if (para.len && !cjk_end(para.data)) qr_buf_putc(&para, ' ');
            qr_buf_puts(&para, l->text);
        }
    }
    if (list_open) qr_buf_puts(b, "]}");
    qr_buf_puts(b, "]}");
    qr_buf_free(&para);
    for (size_t i = 0; i < ls.n; i++)
        free(ls.items[i].text);
    free(ls.items);
    g_free(title);
    return b->oom ? -1 : 0;
}

#ifdef QUIRE_READ_PDF_MODULE_ENTRY
/* The module's one export (read/pdf/load.c looks it up). */
__attribute__((visibility("default"))) int qr_read_pdf_module_json(const void *data, size_t len,
                                                                   qr_buf *b, char *msg,
                                                                   size_t msgsz, const char **hint);
__attribute__((visibility("default"))) int qr_read_pdf_module_json(const void *data, size_t len,
                                                                   qr_buf *b, char *msg,
                                                                   size_t msgsz, const char **hint)
{
    return qr_rd_pdf_json(data, len, b, msg, msgsz, hint);
}
#endif
