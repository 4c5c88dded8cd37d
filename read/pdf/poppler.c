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

#include "cnum.h"
#include "compile.h"
#include "pdf_read.h"

#include <fribidi.h>
#include <math.h>
#include <poppler.h>

typedef struct line {
    char *text; /* UTF-8; cells separated by US (0x1F) */
    double size, top, bottom, left;
    int page;
    int cells;    /* pieces the line splits into at wide horizontal gaps */
    int bold;     /* its first character's font is bold */
    size_t order; /* poppler's order, to keep it among equals */
} line;

typedef struct lines {
    line *items;
    size_t n, cap;
} lines;

/* poppler gives a line in visual order, each right-to-left word of it
 * wrapped in U+202B ... U+202C with its characters in logical order already
 * (a word of one character when the PDF draws its glyphs left to right, as
 * cairo does; the whole word when it draws them right to left, as
 * LibreOffice does). The line back to logical order: each wrapped word is
 * one right-to-left atom (kept as it is inside), every other character an
 * atom of its own, and the bidi reordering of the atoms in their visual
 * order gives back their logical one (for the common cases: right-to-left
 * text with embedded numbers and Latin words, and the reverse). The base
 * direction is the last strong atom's: a line's visual end on the right is
 * where a right-to-left line starts. */
static char *logical(const char *s, size_t n, int reorder)
{
    FriBidiChar *u = malloc((n + 1) * sizeof *u), *v = malloc((n + 1) * sizeof *v);
    FriBidiStrIndex *at = malloc((n + 2) * sizeof *at); /* atom i: u[at[i] .. at[i + 1]) */
    char *out = malloc(n * 8 + 1);
    if (!u || !v || !at || !out) {
        free(u), free(v), free(at), free(out);
        return strndup(s, n);
    }
    FriBidiStrIndex len =
        fribidi_charset_to_unicode(FRIBIDI_CHAR_SET_UTF8, s, (FriBidiStrIndex)n, u);
    /* u keeps the characters without the marks; v one character per atom:
     * the character, or U+05D0 (a strong right-to-left letter) for a word */
    FriBidiStrIndex k = 0, atoms = 0;
    int rtl = 0, last_rtl = 0, depth = 0;
    for (FriBidiStrIndex i = 0; i < len; i++) {
        FriBidiChar c = u[i];
        if (c == 0x202B || c == 0x202E) {
            if (depth++ == 0) {
                at[atoms] = k;
                v[atoms++] = 0x05D0;
                rtl = last_rtl = 1;
            }
            continue;
        }
        if (c == 0x202C) {
            if (depth) depth--;
            continue;
        }
        if ((c >= 0x202A && c <= 0x202E) || c == 0xFEFF) continue;
        if (!depth) {
            FriBidiCharType t = fribidi_get_bidi_type(c);
            if (FRIBIDI_IS_RTL(t))
                rtl = last_rtl = 1;
            else if (FRIBIDI_IS_LETTER(t))
                last_rtl = 0;
            at[atoms] = k;
            v[atoms++] = c;
        }
        u[k++] = c;
    }
    at[atoms] = k;
    /* A line whose right-to-left words are mostly one character each is
     * one glyph per word (cairo's PDFs): a word of more letters, all of
     * them right-to-left, is a ligature (lam-alef), whose letters poppler
     * gives reversed. */
    FriBidiStrIndex ones = 0, more = 0;
    for (FriBidiStrIndex i = 0; i < atoms; i++)
        if (v[i] == 0x05D0 && at[i + 1] - at[i] == 1)
            ones++;
        else if (v[i] == 0x05D0 && at[i + 1] - at[i] > 1)
            more++;
    for (FriBidiStrIndex i = 0; ones > more && i < atoms; i++) {
        int letters = v[i] == 0x05D0;
        for (FriBidiStrIndex j = at[i]; letters && j < at[i + 1]; j++)
            letters = FRIBIDI_IS_RTL(fribidi_get_bidi_type(u[j])) &&
                      FRIBIDI_IS_LETTER(fribidi_get_bidi_type(u[j]));
        for (FriBidiStrIndex a = at[i], b = at[i + 1] - 1; letters && a < b; a++, b--) {
            FriBidiChar t = u[a];
            u[a] = u[b];
            u[b] = t;
        }
    }
    FriBidiStrIndex *map = malloc(((size_t)atoms + 1) * sizeof *map);
    int moved = 0;
    if (rtl && reorder && map) {
        /* Reorder only: fribidi_log2vis would also shape (presentation forms). */
        FriBidiParType base = last_rtl ? FRIBIDI_PAR_RTL : FRIBIDI_PAR_LTR;
        FriBidiCharType *types = malloc(((size_t)atoms + 1) * sizeof *types);
        FriBidiBracketType *brackets = malloc(((size_t)atoms + 1) * sizeof *brackets);
        FriBidiLevel *levels = malloc(((size_t)atoms + 1) * sizeof *levels);
        for (FriBidiStrIndex i = 0; i < atoms; i++)
            map[i] = i;
        if (types && brackets && levels) {
            fribidi_get_bidi_types(v, atoms, types);
            fribidi_get_bracket_types(v, atoms, types, brackets);
            if (fribidi_get_par_embedding_levels_ex(types, brackets, atoms, &base, levels) &&
                fribidi_reorder_line(FRIBIDI_FLAGS_DEFAULT, types, atoms, 0, base, levels, v, map))
                moved = 1;
        }
        free(types);
        free(brackets);
        free(levels);
    }
    /* the atoms in their new order, back into v as characters */
    if (moved) {
        FriBidiStrIndex o = 0;
        for (FriBidiStrIndex i = 0; i < atoms; i++)
            for (FriBidiStrIndex j = at[map[i]]; j < at[map[i] + 1]; j++)
                v[o++] = u[j];
        memcpy(u, v, (size_t)o * sizeof *u);
        k = o;
    }
    free(map);
    free(at);
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
                     double left, int page, int cells, int bold, int merge)
{
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    while (n && *s == ' ')
        s++, n--;
    if (!n) return;
    /* poppler sometimes gives the cells of one row as lines of their own: a
     * line on the same baseline, to the right of the last, is its next cell. */
    line *last = ls->n && merge == 1 ? &ls->items[ls->n - 1] : NULL;
    if (last && last->page == page && size > 0 && fabs(last->top - top) < size * 0.3 &&
        left > last->left) {
        size_t old = strlen(last->text);
        char *t = realloc(last->text, old + n + 2);
        if (!t) return;
        t[old] = '\x1f';
        memcpy(t + old + 1, s, n);
        t[old + 1 + n] = '\0';
        last->text = t;
        last->cells += cells;
        if (bottom > last->bottom) last->bottom = bottom;
        return;
    }
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? ls->cap * 2 : 256;
        line *nl = realloc(ls->items, cap * sizeof *nl);
        if (!nl) return;
        ls->items = nl;
        ls->cap = cap;
    }
    line *l = &ls->items[ls->n++];
    /* the second pass (merge 1) has it logical; merge 2: logical already,
     * its presentation forms still to undo */
    l->text = merge == 1 ? strndup(s, n) : logical(s, n, merge == 0);
    l->size = size;
    l->top = top;
    l->bottom = bottom;
    l->left = left;
    l->page = page;
    l->cells = cells;
    l->bold = bold;
}

static int by_position(const void *a, const void *b)
{
    const line *x = a, *y = b;
    long tx = lround(x->top / 2), ty = lround(y->top / 2); /* 2 pt bands: one baseline */
    if (tx != ty) return tx < ty ? -1 : 1;
    if (x->left != y->left) return x->left < y->left ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Whether c is a CJK ideograph, kana, hangul or a full-width form. */
static int cjk_char(gunichar c)
{
    return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF) ||
           (c >= 0x20000 && c <= 0x2FFFF);
}

/* A letter-spaced CJK line (each character apart from the next, so every
 * gap looks like a column's): when every cell is one or two CJK characters,
 * the line is text, not a row of cells. */
static void join_spaced(qr_buf *cut, int *cells)
{
    if (*cells < 3 || !cut->data) return;
    int in_cell = 0;
    for (const char *q = cut->data; q < cut->data + cut->len; q = g_utf8_next_char(q)) {
        if (*q == '\x1f') {
            in_cell = 0;
            continue;
        }
        if (!cjk_char(g_utf8_get_char(q)) || ++in_cell > 2) return;
    }
    size_t k = 0;
    for (size_t i = 0; i < cut->len; i++)
        if (cut->data[i] != '\x1f') cut->data[k++] = cut->data[i];
    cut->len = k;
    cut->data[k] = '\0';
    *cells = 1;
}

/* A line of a page selected from its top right (see page_lines): poppler
 * gives its characters in logical order already, but puts the spaces
 * between right-to-left words where its selection met them. The spaces
 * are rebuilt from the boxes: the glyphs in poppler's order, a space where
 * the next glyph stands apart from the word so far (by more than a word
 * space's share of the font size; a word's box, since text a PDF gives as
 * ActualText has boxes spread over the word in the wrong direction). The
 * characters of one of poppler's right-to-left words (U+202B ... U+202C)
 * stand in the word's box, so a ligature's letters (poppler splits its box
 * between them) are not spaced apart; the marks stay, for logical().
 * 0 when the boxes do not fit the text. */
static int logical_line(const char *s, size_t n, const PopplerRectangle *rc, glong chars,
                        double size, qr_buf *out)
{
    glong ci = 0, unit = -1; /* unit: the first character of the open word */
    const char *open = NULL; /* its opening mark, not written yet */
    int have = 0;
    double w1 = 0, w2 = 0, u1 = 0, u2 = 0; /* the word's box; the open unit's */
    for (const char *q = s; q < s + n; q = g_utf8_next_char(q)) {
        gunichar c = g_utf8_get_char(q);
        size_t m = (size_t)(g_utf8_next_char(q) - q);
        if (c >= 0x202A && c <= 0x202E) {
            /* an opening mark waits for its first character (a space goes
             * before it, outside the word) */
            if (c == 0x202B || c == 0x202E)
                open = q;
            else
                qr_buf_append(out, q, m);
            unit = c == 0x202B || c == 0x202E ? ci : -1;
            if (unit < 0) continue;
            /* the unit's box: the union of its characters' */
            u1 = 1e9, u2 = -1e9;
            glong k = ci;
            for (const char *r = g_utf8_next_char(q); r < s + n && k < chars;
                 r = g_utf8_next_char(r)) {
                gunichar d = g_utf8_get_char(r);
                if (d == 0x202C) break;
                if (d >= 0x202A && d <= 0x202E) continue;
                const PopplerRectangle *b = &rc[k++];
                double b1 = b->x1 < b->x2 ? b->x1 : b->x2, b2 = b->x1 < b->x2 ? b->x2 : b->x1;
                if (b1 < u1) u1 = b1;
                if (b2 > u2) u2 = b2;
            }
            continue;
        }
        if (ci >= chars) return 0;
        const PopplerRectangle *r = &rc[ci++];
        if (g_unichar_isspace(c)) continue;
        double x1 = r->x1 < r->x2 ? r->x1 : r->x2, x2 = r->x1 < r->x2 ? r->x2 : r->x1;
        if (unit >= 0 && u1 <= u2) x1 = u1, x2 = u2;
        if (size <= 0) size = fabs(r->y2 - r->y1);
        double gap = x1 > w2 ? x1 - w2 : w1 > x2 ? w1 - x2 : 0;
        if (have && gap > size * 0.15) {
            qr_buf_putc(out, ' ');
            w1 = x1, w2 = x2;
        } else if (!have) {
            w1 = x1, w2 = x2;
        } else {
            if (x1 < w1) w1 = x1;
            if (x2 > w2) w2 = x2;
        }
        have = 1;
        if (open) qr_buf_append(out, open, (size_t)(g_utf8_next_char(open) - open));
        open = NULL;
        qr_buf_append(out, q, m);
    }
    return ci == chars && !out->oom;
}

/* The lines of one page: poppler's text, its per-character boxes and its
 * font attributes share one indexing (characters of the text). */
/* One more line at a box of the page (PDF coordinates, from the bottom):
 * a form field's value or an annotation's text. Its size is 0, so it is a
 * paragraph of its own and never a heading or a table's cell. */
static void add_box(lines *raw, const char *s, const PopplerRectangle *a, double ph, int index)
{
    if (!s) return;
    /* each line of it: a multi-line field or note keeps its lines */
    for (const char *p = s; *p;) {
        const char *e = p + strcspn(p, "\r\n");
        if (e > p)
            add_line(raw, p, (size_t)(e - p), 0, ph - (a->y1 > a->y2 ? a->y1 : a->y2),
                     ph - (a->y1 > a->y2 ? a->y2 : a->y1), a->x1 < a->x2 ? a->x1 : a->x2, index, 1,
                     0, 0);
        p = *e ? e + 1 : e;
    }
}

/* What a page shows outside its content stream: the values of its form
 * fields (text, the chosen items of a list) and the text of its
 * annotations (free text, notes, stamps; links and popups say nothing). */
static void page_boxes(PopplerPage *pg, int index, double ph, lines *raw)
{
    GList *fields = poppler_page_get_form_field_mapping(pg);
    for (GList *f = fields; f; f = f->next) {
        PopplerFormFieldMapping *fm = f->data;
        PopplerFormField *ff = fm->field;
        if (poppler_form_field_get_field_type(ff) == POPPLER_FORM_FIELD_TEXT) {
            gchar *v = poppler_form_field_text_get_text(ff);
            add_box(raw, v, &fm->area, ph, index);
            g_free(v);
        } else if (poppler_form_field_get_field_type(ff) == POPPLER_FORM_FIELD_CHOICE) {
            gint n = poppler_form_field_choice_get_n_items(ff);
            for (gint k = 0; k < n && k < 1000; k++) {
                if (!poppler_form_field_choice_is_item_selected(ff, k)) continue;
                gchar *v = poppler_form_field_choice_get_item(ff, k);
                add_box(raw, v, &fm->area, ph, index);
                g_free(v);
            }
            if (poppler_form_field_choice_is_editable(ff)) {
                gchar *v = poppler_form_field_choice_get_text(ff);
                add_box(raw, v, &fm->area, ph, index);
                g_free(v);
            }
        }
    }
    poppler_page_free_form_field_mapping(fields);
    GList *annots = poppler_page_get_annot_mapping(pg);
    for (GList *a = annots; a; a = a->next) {
        PopplerAnnotMapping *am = a->data;
        PopplerAnnotType t = poppler_annot_get_annot_type(am->annot);
        if (t == POPPLER_ANNOT_LINK || t == POPPLER_ANNOT_WIDGET || t == POPPLER_ANNOT_POPUP)
            continue;
        gchar *v = poppler_annot_get_contents(am->annot);
        add_box(raw, v, &am->area, ph, index);
        g_free(v);
    }
    poppler_page_free_annot_mapping(annots);
}

static void page_lines(PopplerPage *pg, int index, lines *ls)
{
    /* poppler's text is a glyph selection from the area's first corner to
     * its opposite: from the top left, a right-to-left page (whose first
     * line starts at the top right) comes back empty or without its first
     * lines. Such a page is selected from the top right instead, and the
     * text, the boxes and the attributes all come from the area chosen. */
    double pw = 0, ph = 0;
    poppler_page_get_size(pg, &pw, &ph);
    PopplerRectangle area = {0, 0, pw, ph};
    int from_right = 0;
    char *text = poppler_page_get_text_for_area(pg, &area);
    if (!text) return;
    if (!text[strspn(text, " \n")] || strstr(text, "\u202b")) {
        PopplerRectangle rtl = {pw, 0, 0, ph};
        char *other = poppler_page_get_text_for_area(pg, &rtl);
        if (other && strlen(other) > strlen(text)) {
            g_free(text);
            text = other;
            area = rtl;
            from_right = 1;
        } else {
            g_free(other);
        }
    }
    PopplerRectangle *rects = NULL;
    guint n_rects = 0;
    poppler_page_get_text_layout_for_area(pg, &area, &rects, &n_rects);
    GList *attrs = poppler_page_get_text_attributes_for_area(pg, &area);
    lines raw = {0};
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
        int bold = 0;
        for (GList *a = attrs; a; a = a->next) {
            PopplerTextAttributes *ta = a->data;
            if (ta->start_index <= ci && ta->end_index >= ci) {
                size = ta->font_size;
                bold = ta->font_name && strstr(ta->font_name, "Bold") != NULL;
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
        /* Left-to-right lines split into cells where the boxes leave a wide
         * gap (table columns; poppler glues their text together). */
        qr_buf cut = {0};
        int cells = 1;
        if (!marks && !from_right && size > 0 && (guint)(ci + chars) <= n_rects) {
            /* One visual line at a time: poppler may glue a line's end to the
             * next line's start (a wrapped table cell, then the next row). */
            const char *q = p;
            double ptop = 0, pbottom = 0, pleft = 1e9;
            int started = 0;
            for (glong k = ci; q < p + n; k++) {
                const char *next = g_utf8_next_char(q);
                const PopplerRectangle *rc = &rects[k];
                if (started && *q != ' ' && fabs(rc->y1 - ptop) > size * 0.5 && rc->y1 > ptop) {
                    join_spaced(&cut, &cells);
                    add_line(&raw, cut.data ? cut.data : "", cut.len, size, ptop, pbottom, pleft,
                             index, cells, bold, 0);
                    cut.len = 0;
                    cells = 1;
                    started = 0;
                    pleft = 1e9;
                }
                if (*q != ' ' && !started) ptop = rc->y1, pbottom = rc->y2, started = 1;
                if (*q != ' ' && rc->x1 < pleft) pleft = rc->x1;
                if (*q != ' ' && rc->y2 > pbottom) pbottom = rc->y2;
                /* A column gap: a space poppler stretched over it (wider than a
                 * word space), or no space at all across a gap. */
                int wide_space = *q == ' ' && rc->x2 - rc->x1 > size * 0.55;
                int bare_gap = *q != ' ' && k > ci && rc->x1 - rects[k - 1].x2 > size * 0.45;
                if ((wide_space || bare_gap) && cut.len && cut.data[cut.len - 1] != '\x1f') {
                    while (cut.len && cut.data[cut.len - 1] == ' ')
                        cut.len--;
                    qr_buf_putc(&cut, '\x1f');
                    cells++;
                }
                if (!(*q == ' ' && (wide_space || (cut.len && cut.data[cut.len - 1] == '\x1f'))))
                    qr_buf_append(&cut, q, (size_t)(next - q));
                q = next;
            }
            join_spaced(&cut, &cells);
            add_line(&raw, cut.data ? cut.data : "", cut.len, size, ptop, pbottom, pleft, index,
                     cells, bold, 0);
        } else if (from_right && (guint)(ci + chars) <= n_rects &&
                   logical_line(p, n, rects + ci, chars, size, &cut)) {
            add_line(&raw, cut.data, cut.len, size, top, bottom, left, index, 1, bold, 2);
        } else {
            add_line(&raw, p, n, size, top, bottom, left, index, 1, bold, 0);
        }
        qr_buf_free(&cut);
        ci += chars + (e ? 1 : 0);
        (void)marks;
        p = e ? e + 1 : p + n;
    }
    poppler_page_free_text_attributes(attrs);
    g_free(rects);
    g_free(text);
    page_boxes(pg, index, ph, &raw);
    /* Top to bottom, then left to right (poppler's own order may put a
     * table's last header cell after the footer); same-baseline lines then
     * merge into rows of cells. */
    for (size_t i = 0; i < raw.n; i++)
        raw.items[i].order = i;
    qsort(raw.items, raw.n, sizeof *raw.items, by_position);
    for (size_t i = 0; i < raw.n; i++) {
        line *l = &raw.items[i];
        add_line(ls, l->text, strlen(l->text), l->size, l->top, l->bottom, l->left, l->page,
                 l->cells, l->bold, 1);
        free(l->text);
    }
    free(raw.items);
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

static void write_cells(qr_buf *b, const char *text)
{
    qr_buf_putc(b, '[');
    const char *p = text;
    for (int first = 1;; first = 0) {
        const char *e = strchr(p, '\x1f');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (!first) qr_buf_putc(b, ',');
        char num[32], cell[64];
        char *end = NULL;
        double v = 0;
        if (n && n < sizeof cell) {
            memcpy(cell, p, n);
            cell[n] = '\0';
            v = qr_strtod_c(cell, &end);
        }
        /* A number when the text is the number's shortest form ("12.5", not "12.50"). */
        if (end && !*end && isfinite(v) && qr_fmt_double(v, num) && strcmp(num, cell) == 0)
            qr_buf_puts(b, num);
        else
            qr_buf_json_str(b, p, n, 0);
        if (!e) break;
        p = e + 1;
    }
    qr_buf_putc(b, ']');
}

/* A table from rows of cells; a bold first row is the header, and a page's
 * repeat of it is dropped, as are page numbers between the rows. */
static void write_table(qr_buf *b, const line *rows, size_t n)
{
    size_t first = 0;
    qr_buf_puts(b, "{\"type\":\"table\"");
    if (rows[0].bold) {
        qr_buf_puts(b, ",\"headers\":");
        write_cells(b, rows[0].text);
        first = 1;
    }
    qr_buf_puts(b, ",\"rows\":[");
    int any = 0;
    for (size_t i = first; i < n; i++) {
        if (rows[i].cells != rows[0].cells) continue;
        if (first && strcmp(rows[i].text, rows[0].text) == 0) continue;
        if (any++) qr_buf_putc(b, ',');
        /* The lines that follow a row with fewer cells continue its longest
         * cell (a note that wraps in its column). */
        qr_buf row = {0};
        qr_buf_puts(&row, rows[i].text);
        for (size_t k = i + 1; k < n && rows[k].cells < rows[0].cells; k++) {
            if (strspn(rows[k].text, "0123456789/ ") == strlen(rows[k].text)) continue;
            size_t best = 0, best_len = 0, start = 0, cell = 0;
            for (size_t c = 0; c <= row.len; c++) {
                if (c == row.len || row.data[c] == '\x1f') {
                    if (c - start > best_len) best_len = c - start, best = cell;
                    start = c + 1;
                    cell++;
                }
            }
            /* insert " text" at the end of cell `best` */
            size_t at = 0;
            for (size_t c = 0, cl = 0; c <= row.len; c++) {
                if (c == row.len || row.data[c] == '\x1f') {
                    if (cl == best) {
                        at = c;
                        break;
                    }
                    cl++;
                }
            }
            qr_buf tail = {0};
            qr_buf_append(&tail, row.data + at, row.len - at);
            row.len = at;
            qr_buf_putc(&row, ' ');
            for (const char *t = rows[k].text; *t; t++)
                qr_buf_putc(&row, *t == '\x1f' ? ' ' : *t);
            qr_buf_append(&row, tail.data ? tail.data : "", tail.len);
            qr_buf_free(&tail);
        }
        write_cells(b, row.data);
        qr_buf_free(&row);
    }
    qr_buf_puts(b, "]}");
}

/* Lines end inside a word in CJK text: join them without a space. */
/* A line that ends in a hyphen after a letter, before a line that starts
 * with a lower-case letter: the word was broken there ("inter-" "preter"),
 * so the hyphen goes and the halves join. A soft hyphen (U+00AD) at the
 * end always goes. Returns the length of text to keep before joining
 * without a space, or -1 to join as usual. */
static long hyphen_join(const char *text, size_t len, const char *next)
{
    if (len >= 2 && (unsigned char)text[len - 2] == 0xC2 && (unsigned char)text[len - 1] == 0xAD)
        return (long)len - 2;
    if (len < 2 || text[len - 1] != '-') return -1;
    const char *before = g_utf8_find_prev_char(text, text + len - 1);
    if (!before || !g_unichar_isalpha(g_utf8_get_char(before))) return -1;
    gunichar c = g_utf8_get_char(next);
    if (!g_unichar_islower(c)) return -1;
    return (long)len - 1;
}

static int cjk_end(const char *s)
{
    size_t n = strlen(s);
    if (n < 3) return 0;
    const unsigned char *u = (const unsigned char *)s + n - 3;
    return u[0] >= 0xE3 && u[0] <= 0xED;
}

/* poppler-glib extracts a page's text inside its crop box only (the
 * characters outside are dropped), where pdftotext reads the media box. A
 * copy of the file whose /CropBox keys are renamed (same length, so every
 * offset of the xref stays right) reads the whole media box; a crop box
 * inside a compressed object stream stays. NULL when there is none. */
static unsigned char *without_crop(const void *data, size_t len)
{
    static const char key[] = "/CropBox";
    const size_t k = sizeof key - 1;
    unsigned char *copy = NULL;
    const unsigned char *d = data;
    for (const unsigned char *p = d; len >= k && p <= d + len - k;) {
        const unsigned char *q = memchr(p, '/', (size_t)(d + len - k + 1 - p));
        if (!q) break;
        if (memcmp(q, key, k) != 0) {
            p = q + 1;
            continue;
        }
        size_t at = (size_t)(q - d);
        /* the whole name, not the start of a longer one */
        if (at + k == len || strchr(" \t\r\n\f[]<>()/%", d[at + k])) {
            if (!copy) {
                if (!(copy = malloc(len))) return NULL;
                memcpy(copy, d, len);
            }
            copy[at + k - 1] = '_';
        }
        p = q + k;
    }
    return copy;
}

int qr_rd_pdf_json(const void *data, size_t len, qr_buf *b, char *msg, size_t msgsz,
                   const char **hint)
{
    unsigned char *uncropped = without_crop(data, len);
    if (uncropped) data = uncropped;
    GBytes *bytes = g_bytes_new_with_free_func(data, len, free, uncropped);
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
        if (s <= 0) continue; /* a field's or annotation's text: no font size */
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
        qr_buf_json_str(b, title, strlen(title), 0);
        qr_buf_putc(b, ',');
    }
    qr_buf_puts(b, "\"blocks\":[");
    qr_buf para = {0};
    int blocks = 0, list_open = 0, list_ordered = 0, items = 0;
    double pitch = 0; /* the centre-to-centre distance of the paragraph's lines */
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
        if (!gap) {
            /* Lines on one pitch whatever their script (quire's rhythm, Word's
             * exact spacing): tall fonts' boxes (Arabic's ascent is 1.4 em)
             * overlap across a paragraph's space after. Box centres sit about
             * 0.35 em above the baseline in every script: a paragraph breaks
             * where they are 0.3 em further apart than the paragraph's own
             * pitch (before its second line: 1.25 em). */
            double dc = (l->top + l->bottom - prev->top - prev->bottom) / 2;
            if (dc > (pitch > 0 ? pitch : h * 1.25) + h * 0.3)
                gap = 1;
            else if (pitch <= 0 || dc < pitch)
                pitch = dc;
        }
        if (gap) pitch = 0;
        int new_block = gap || level || bullet;
        if (new_block && para.len) {
            if (list_open) qr_buf_puts(b, "]}"), list_open = 0;
            qr_buf_puts(b, blocks++ ? ",{\"type\":\"paragraph\",\"text\":"
                                    : "{\"type\":\"paragraph\",\"text\":");
            qr_buf_json_str(b, para.data, para.len, 0);
            qr_buf_putc(b, '}');
            para.len = 0;
        }
        if (!l) break;
        /* A page number alone on its line ("3", "3/12") is the page's furniture. */
        if (strspn(l->text, "0123456789/ ") == strlen(l->text)) continue;
        /* Two or more lines in a row that split into the same number of cells: a table. */
        size_t end = i;
        while (l->cells > 1 && end < ls.n &&
               (ls.items[end].cells == l->cells ||
                strspn(ls.items[end].text, "0123456789/ ") == strlen(ls.items[end].text) ||
                /* a wrapped cell's next line, between two rows */
                (end > i && ls.items[end].cells < l->cells &&
                 ls.items[end].page == ls.items[end - 1].page &&
                 ls.items[end].left > l->left + l->size &&
                 ls.items[end].top - ls.items[end - 1].bottom < ls.items[end].size * 0.3)))
            end++;
        if (end - i >= 2) {
            if (list_open) qr_buf_puts(b, "]}"), list_open = 0;
            if (blocks++) qr_buf_putc(b, ',');
            write_table(b, ls.items + i, end - i);
            i = end - 1;
            continue;
        }
        for (char *c = ls.items[i].text; *c; c++)
            if (*c == '\x1f') *c = ' ';
        if (list_open && (!bullet || ordered != list_ordered) && !(gap == 0 && !bullet && !level)) {
            qr_buf_puts(b, "]}");
            list_open = 0;
        }
        if (level) {
            qr_buf_puts(b, blocks++ ? ",{\"type\":\"heading\",\"text\":"
                                    : "{\"type\":\"heading\",\"text\":");
            qr_buf_json_str(b, l->text, strlen(l->text), 0);
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
            qr_buf_json_str(b, rest, strlen(rest), 0);
        } else if (list_open && !gap) {
            /* A wrapped list item: its line continues the last item. */
            if (b->len && b->data[b->len - 1] == '"') {
                b->len--;
                /* the item's last character as written: a hyphen that breaks a word */
                if (b->len >= 2 && b->data[b->len - 1] == '-' && b->data[b->len - 2] != '\\' &&
                    hyphen_join(b->data, b->len, l->text) >= 0)
                    b->len--;
                else
                    qr_buf_putc(b, ' ');
                qr_buf t = {0};
                qr_buf_json_str(&t, l->text, strlen(l->text), 0);
                qr_buf_append(b, t.data + 1, t.len - 1);
                qr_buf_free(&t);
            }
        } else {
            long keep = para.len ? hyphen_join(para.data, para.len, l->text) : -1;
            if (keep >= 0)
                para.len = (size_t)keep;
            else if (para.len && !cjk_end(para.data))
                qr_buf_putc(&para, ' ');
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
/* The module's build stamp, which read/pdf/load.c checks first (render/module.c). */
__attribute__((visibility("default"))) const qr_stamp qr_module_stamp = QR_READ_PDF_MODULE_STAMP;
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
