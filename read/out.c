/* out.c: a compiled tree (what a reader read) written as structured JSON,
 * GitHub-flavoured markdown or plain text, whole or in chunks for
 * retrieval. Markdown and text are built as a list of pieces (a heading, a
 * sentence, a list item, a table row) so that chunking packs whole pieces:
 * a chunk never splits a sentence or a table row.
 *
 * Texts come from the text layer (text/text.h: qr_text_segments, no
 * warnings), as every backend's do: nothing here walks a text's runs. One
 * switch over block types (block_out) writes a block as JSON or as pieces. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "cellfmt.h"
#include "civil.h"
#include "compile.h"
#include "read_int.h"

/* ---- pieces ------------------------------------------------------------------ */

typedef struct piece {
    char *text;
    const char *sep; /* before it: "\n\n" a new block, "\n" a new row or item, " " a sentence */
    char *path;      /* the heading path as a JSON array, shared across pieces */
    int heading;     /* a heading starts a new chunk */
} piece;

/* The writer's state: the pieces of markdown or text, or (json set) the
 * JSON output; both read texts through tc. */
typedef struct pieces {
    piece *items;
    size_t n, cap;
    qr_text_ctx *tc;       /* the text layer: the segments of the text being written */
    qr_buf run;            /* scratch: the bytes of one run, from its segments */
    qr_buf *json;          /* structured JSON goes here (else pieces) */
    int md;                /* markdown (else text) */
    char *path;            /* current heading path (JSON array) */
    const char *heads[10]; /* current headings by level */
    size_t heads_len[10];
    size_t max, bytes;     /* the output cap (0: none) and the pieces' bytes so far */
    const qr_doc *doc;     /* the document written (its number formats) */
    const qr_text **notes; /* footnotes by number - 1, as their references are written */
    size_t n_notes;
    int over; /* past max: nothing more is added */
} pieces;

static void add_piece(pieces *ps, const char *sep, const char *s, size_t n, int heading)
{
    if (ps->over) return;
    ps->bytes += n + 2;
    if (ps->max && ps->bytes > ps->max) {
        ps->over = 1;
        return;
    }
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 64;
        piece *ni = realloc(ps->items, cap * sizeof *ni);
        if (!ni) return;
        ps->items = ni;
        ps->cap = cap;
    }
    piece *p = &ps->items[ps->n++];
    p->text = malloc(n + 1);
    if (p->text) {
        memcpy(p->text, s, n);
        p->text[n] = '\0';
    }
    p->sep = sep;
    p->path = ps->path;
    p->heading = heading;
}

/* A new heading at level (1..9): the path keeps the levels above it. */
static void set_path(pieces *ps, int level, const char *s, size_t n)
{
    if (level < 1) level = 1;
    if (level > 9) level = 9;
    ps->heads[level] = s;
    ps->heads_len[level] = n;
    for (int l = level + 1; l < 10; l++)
        ps->heads[l] = NULL;
    qr_buf b = {0};
    qr_buf_putc(&b, '[');
    int first = 1;
    for (int l = 0; l < 10; l++) {
        if (!ps->heads[l]) continue;
        if (!first) qr_buf_putc(&b, ',');
        first = 0;
        qr_buf_json_str(&b, ps->heads[l], ps->heads_len[l], 0);
    }
    qr_buf_putc(&b, ']');
    ps->path = b.data; /* freed with the pieces: every distinct path is kept once */
    add_piece(ps, "", "", 0, 0);
    ps->items[ps->n - 1].heading = -1; /* owns the path */
}

/* ---- text of runs ------------------------------------------------------------- */

static void md_escape(qr_buf *b, const char *s, size_t n, int table)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (strchr("\\`*_[]<>~", c) || (table && c == '|')) qr_buf_putc(b, '\\');
        if (c == '\n') {
            qr_buf_puts(b, table ? "<br>" : "  \n");
            continue;
        }
        qr_buf_putc(b, c);
    }
}

/* The segments of t from the text layer; NULL (b->oom set) out of memory.
 * They live until the next text. */
static const qr_segs *segments(const pieces *ps, qr_buf *b, const qr_text *t)
{
    const qr_segs *sg;
    if (qr_text_segments(ps->tc, t, &sg) == QR_OK) return sg;
    b->oom = 1;
    return NULL;
}

/* One run (its flags on g, its bytes s, n) as markdown. */
static void md_run(qr_buf *b, const qr_seg *g, const char *s, size_t n, int table)
{
    if (g->code) {
        /* A code span: a fence longer than any backtick run inside. */
        size_t run = 0, most = 0;
        for (size_t k = 0; k < n; k++) {
            run = s[k] == '`' ? run + 1 : 0;
            if (run > most) most = run;
        }
        if (g->link) qr_buf_putc(b, '[');
        for (size_t k = 0; k <= most; k++)
            qr_buf_putc(b, '`');
        for (size_t k = 0; k < n; k++) {
            char c = s[k];
            if (table && c == '|') qr_buf_putc(b, '\\');
            qr_buf_putc(b, c == '\n' ? ' ' : c);
        }
        for (size_t k = 0; k <= most; k++)
            qr_buf_putc(b, '`');
        if (g->link) qr_buf_printf(b, "](%s)", g->link);
        return;
    }
    /* Emphasis markers hug the text: leading and trailing spaces stay outside. */
    size_t lead = 0, trail = 0;
    while (lead < n && s[lead] == ' ')
        lead++;
    while (trail < n - lead && s[n - 1 - trail] == ' ')
        trail++;
    const char *open = g->bold && g->italic ? "***" : g->bold ? "**" : g->italic ? "*" : "";
    qr_buf_append(b, s, lead);
    if (lead == n) return;
    if (g->link) qr_buf_putc(b, '[');
    if (g->strike) qr_buf_puts(b, "~~");
    qr_buf_puts(b, open);
    if (g->sup || g->sub) qr_buf_puts(b, g->sup ? "<sup>" : "<sub>");
    md_escape(b, s + lead, n - lead - trail, table);
    if (g->sup || g->sub) qr_buf_puts(b, g->sup ? "</sup>" : "</sub>");
    qr_buf_puts(b, open);
    if (g->strike) qr_buf_puts(b, "~~");
    if (g->link) {
        qr_buf_puts(b, "](");
        for (const char *u = g->link; *u; u++) {
            if (*u == ')' || *u == '(' || *u == ' ')
                qr_buf_printf(b, "%%%02X", (unsigned)*u);
            else
                qr_buf_putc(b, *u);
        }
        qr_buf_putc(b, ')');
    }
    qr_buf_append(b, s + n - trail, trail);
}

/* Superscript or subscript text in plain text: Unicode's superscript or
 * subscript forms when every character has one (m² and m₂ stay apart),
 * else the characters as they are. */
static void put_script(qr_buf *b, const char *s, size_t n, int sup)
{
    static const char *const up[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    static const char *const down[] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    static const char marks[] = "+-=()n";
    static const char *const up_marks[] = {"⁺", "⁻", "⁼", "⁽", "⁾", "ⁿ"};
    static const char *const down_marks[] = {"₊", "₋", "₌", "₍", "₎", "ₙ"};
    for (size_t i = 0; i < n; i++)
        if (!(s[i] >= '0' && s[i] <= '9') && !(s[i] && strchr(marks, s[i]))) {
            qr_buf_append(b, s, n);
            return;
        }
    for (size_t i = 0; i < n; i++) {
        unsigned digit = (unsigned char)s[i] - (unsigned)'0';
        if (digit <= 9) {
            qr_buf_puts(b, (sup ? up : down)[digit]);
        } else {
            size_t k = (size_t)(strchr(marks, s[i]) - marks);
            qr_buf_puts(b, (sup ? up_marks : down_marks)[k]);
        }
    }
}

/* A text as markdown (each run's markup around its bytes) or as text (in a
 * table cell, tabs and line feeds become spaces). */
static void put_text(pieces *ps, qr_buf *b, const qr_text *t, int table)
{
    const qr_segs *sg = segments(ps, b, t);
    for (size_t i = 0, next; sg && i < sg->n; i = next) {
        const qr_seg *g = &sg->items[i];
        if (!ps->md) {
            next = i + 1;
            if (g->note && g->note_no >= 1 && g->note_no <= ps->n_notes)
                ps->notes[g->note_no - 1] = g->note;
            if ((g->sup || g->sub) && g->kind == QR_SEG_TEXT) {
                ps->run.len = 0;
                for (next = i; next < sg->n && sg->items[next].run == g->run; next++)
                    qr_buf_append(&ps->run, sg->items[next].text, sg->items[next].len);
                put_script(b, ps->run.data ? ps->run.data : "", ps->run.len, g->sup);
                continue;
            }
            if (g->kind == QR_SEG_TEXT || !table) {
                qr_buf_append(b, g->text, g->len);
                continue;
            }
            for (size_t k = 0; k < g->len; k++)
                qr_buf_putc(b, g->text[k] == '\n' || g->text[k] == '\t' ? ' ' : g->text[k]);
            continue;
        }
        if (g->note && g->note_no >= 1 && g->note_no <= ps->n_notes) {
            /* A footnote reference: [^N], the note at the end. */
            ps->notes[g->note_no - 1] = g->note;
            qr_buf_printf(b, "[^%u]", g->note_no);
            for (next = i; next < sg->n && sg->items[next].run == g->run; next++)
                ;
            continue;
        }
        /* Markup goes around a whole run: gather its segments' bytes. */
        ps->run.len = 0;
        for (next = i; next < sg->n && sg->items[next].run == g->run; next++)
            qr_buf_append(&ps->run, sg->items[next].text, sg->items[next].len);
        if (ps->run.oom) b->oom = 1;
        md_run(b, g, ps->run.data ? ps->run.data : "", ps->run.len, table);
    }
}

/* A text's characters without markup. */
static void plain_text(pieces *ps, qr_buf *b, const qr_text *t)
{
    const qr_segs *sg = segments(ps, b, t);
    for (size_t i = 0; sg && i < sg->n; i++)
        qr_buf_append(b, sg->items[i].text, sg->items[i].len);
}

/* Split a paragraph's rendered text into sentences: after . ! ? and their
 * CJK and Arabic kin, followed by a space (or for CJK, directly). */
static void add_sentences(pieces *ps, const char *sep, const char *s, size_t n)
{
    size_t start = 0;
    const char *join = " "; /* between this sentence and the one before */
    for (size_t i = 0; i < n; i++) {
        size_t end = 0;
        unsigned char c = (unsigned char)s[i];
        if ((c == '.' || c == '!' || c == '?') && i + 1 < n && s[i + 1] == ' ') end = i + 1;
        /* U+3002 。 U+FF01 ！ U+FF1F ？ (3 bytes: E3 80 82, EF BC 81, EF BC 9F), U+061F ؟ */
        if (i + 2 < n &&
            ((c == 0xE3 && (unsigned char)s[i + 1] == 0x80 && (unsigned char)s[i + 2] == 0x82) ||
             (c == 0xEF && (unsigned char)s[i + 1] == 0xBC &&
              ((unsigned char)s[i + 2] == 0x81 || (unsigned char)s[i + 2] == 0x9F))))
            end = i + 3;
        if (!end) continue;
        add_piece(ps, start == 0 ? sep : join, s + start, end - start, 0);
        /* a full stop with no space after it (Chinese, Japanese) joins with none */
        join = end < n && s[end] != ' ' ? "" : " ";
        start = end;
        while (start < n && s[start] == ' ')
            start++;
        i = start - 1;
    }
    if (start < n || start == 0) add_piece(ps, start == 0 ? sep : join, s + start, n - start, 0);
}

/* ---- blocks as pieces ---------------------------------------------------------- */

static void items_pieces(pieces *ps, const qr_item *items, size_t n, int ordered, unsigned start,
                         int depth, const char **sep)
{
    for (size_t i = 0; i < n; i++) {
        qr_buf b = {0};
        for (int k = 0; k < depth; k++)
            qr_buf_puts(&b, ordered ? "   " : "  ");
        if (ordered)
            qr_buf_printf(&b, "%zu. ", i + (start ? start : 1));
        else
            qr_buf_puts(&b, items[i].task == QR_TASK_DONE   ? "- [x] "
                            : items[i].task == QR_TASK_OPEN ? "- [ ] "
                                                            : "- ");
        put_text(ps, &b, &items[i].text, 0);
        add_piece(ps, *sep, b.data ? b.data : "", b.len, 0);
        *sep = "\n";
        qr_buf_free(&b);
        if (items[i].n_items)
            items_pieces(ps, items[i].items, items[i].n_items, ordered, 0, depth + 1, sep);
    }
}

static void table_row(pieces *ps, const qr_tcell *cells, size_t n, size_t n_cols, const char *sep)
{
    qr_buf b = {0};
    if (ps->md) qr_buf_puts(&b, "|");
    for (size_t c = 0; c < n_cols; c++) {
        if (ps->md)
            qr_buf_putc(&b, ' ');
        else if (c)
            qr_buf_putc(&b, '\t');
        if (cells && c < n) put_text(ps, &b, &cells[c].text, 1);
        if (ps->md) qr_buf_puts(&b, " |");
    }
    add_piece(ps, sep, b.data ? b.data : "", b.len, 0);
    qr_buf_free(&b);
}

static void table_pieces(pieces *ps, const qr_table *t)
{
    size_t nc = t->n_cols ? t->n_cols : 1;
    const char *sep = "\n\n";
    if (t->headers || ps->md) {
        table_row(ps, t->headers, t->headers ? t->n_headers : 0, nc, sep);
        sep = "\n";
        if (ps->md) {
            qr_buf b = {0};
            qr_buf_puts(&b, "|");
            for (size_t c = 0; c < nc; c++) {
                int al = t->col_align ? t->col_align[c] : QR_ALIGN_AUTO;
                qr_buf_puts(&b, al == QR_ALIGN_LEFT     ? " :-- |"
                                : al == QR_ALIGN_CENTER ? " :-: |"
                                : al == QR_ALIGN_RIGHT  ? " --: |"
                                                        : " --- |");
            }
            add_piece(ps, "\n", b.data, b.len, 0);
            qr_buf_free(&b);
        }
    }
    for (size_t r = 0; r < t->n_rows; r++) {
        table_row(ps, t->rows[r], nc, nc, sep);
        sep = "\n";
    }
}

static void chart_cell(qr_buf *b, const char *s, int md)
{
    for (; *s; s++) {
        if (md && *s == '|') qr_buf_putc(b, '\\');
        qr_buf_putc(b, *s == '\n' || *s == '\t' ? ' ' : *s);
    }
}

/* A chart as its data: the title, then a table of the categories down and
 * the series across (scatter: each point's series, x and y), a markdown
 * table or tab-separated lines. */
static void chart_pieces(pieces *ps, const qr_chart *c)
{
    qr_buf t = {0};
    char num[32];
    const char *pre = ps->md ? "| " : "", *mid = ps->md ? " | " : "\t", *post = ps->md ? " |" : "";
    if (c->title) {
        qr_buf_puts(&t, ps->md ? "**" : "");
        chart_cell(&t, c->title, 0);
        qr_buf_puts(&t, ps->md ? "**" : "");
        add_piece(ps, "\n\n", t.data, t.len, 0);
    }
    int scatter = c->type == QR_CHART_SCATTER;
    size_t cols = scatter ? 3 : c->n_series + 1;
    t.len = 0;
    qr_buf_puts(&t, pre);
    if (scatter) {
        qr_buf_puts(&t, "series");
        qr_buf_puts(&t, mid);
        chart_cell(&t, c->x_title ? c->x_title : "x", ps->md);
        qr_buf_puts(&t, mid);
        chart_cell(&t, c->y_title ? c->y_title : "y", ps->md);
    } else {
        for (size_t i = 0; i < c->n_series; i++) {
            qr_buf_puts(&t, mid);
            if (c->series[i].name && *c->series[i].name)
                chart_cell(&t, c->series[i].name, ps->md);
            else
                qr_buf_printf(&t, "Series %zu", i + 1);
        }
    }
    qr_buf_puts(&t, post);
    add_piece(ps, "\n\n", t.data, t.len, 0);
    if (ps->md) {
        t.len = 0;
        qr_buf_putc(&t, '|');
        for (size_t k = 0; k < cols; k++)
            qr_buf_puts(&t, " --- |");
        add_piece(ps, "\n", t.data, t.len, 0);
    }
    if (scatter) {
        for (size_t i = 0; i < c->n_series; i++) {
            const qr_series *se = &c->series[i];
            for (size_t k = 0; k < se->n; k++) {
                t.len = 0;
                qr_buf_puts(&t, pre);
                if (se->name && *se->name)
                    chart_cell(&t, se->name, ps->md);
                else
                    qr_buf_printf(&t, "Series %zu", i + 1);
                qr_buf_puts(&t, mid);
                qr_fmt_double(se->x ? se->x[k] : (double)(k + 1), num);
                qr_buf_puts(&t, num);
                qr_buf_puts(&t, mid);
                qr_fmt_double(se->values[k], num);
                qr_buf_puts(&t, num);
                qr_buf_puts(&t, post);
                add_piece(ps, "\n", t.data, t.len, 0);
            }
        }
    } else {
        for (size_t k = 0; k < c->n_points; k++) {
            t.len = 0;
            qr_buf_puts(&t, pre);
            if (c->categories && k < c->n_categories)
                chart_cell(&t, c->categories[k], ps->md);
            else
                qr_buf_printf(&t, "%zu", k + 1);
            for (size_t i = 0; i < c->n_series; i++) {
                qr_buf_puts(&t, mid);
                if (k < c->series[i].n) {
                    qr_fmt_double(c->series[i].values[k], num);
                    qr_buf_puts(&t, num);
                }
            }
            qr_buf_puts(&t, post);
            add_piece(ps, "\n", t.data, t.len, 0);
        }
    }
    qr_buf_free(&t);
}

static void heading_pieces(pieces *ps, const qr_text *text, int level)
{
    qr_buf t = {0}, plain = {0};
    plain_text(ps, &plain, text);
    set_path(ps, level, plain.data ? plain.data : "", plain.len);
    /* The path points into the tree's text when it can: keep plain alive. */
    if (ps->md)
        for (int k = 0; k < (level > 6 ? 6 : level); k++)
            qr_buf_putc(&t, '#');
    if (ps->md) qr_buf_putc(&t, ' ');
    put_text(ps, &t, text, 0);
    add_piece(ps, "\n\n", t.data ? t.data : "", t.len, 1);
    add_piece(ps, "", "", 0, 0);
    ps->items[ps->n - 1].heading = -2; /* owns plain */
    free(ps->items[ps->n - 1].text);
    ps->items[ps->n - 1].text = plain.data ? plain.data : strdup("");
    ps->items[ps->n - 1].sep = NULL;
    qr_buf_free(&t);
}

static void code_pieces(pieces *ps, const qr_text *text)
{
    qr_buf t = {0};
    size_t run = 0, most = 2;
    const char *code = qr_plain(text);
    size_t code_len = qr_plain_len(text);
    for (size_t k = 0; k < code_len; k++) {
        run = code[k] == '`' ? run + 1 : 0;
        if (run > most) most = run;
    }
    if (ps->md) {
        for (size_t k = 0; k <= most; k++)
            qr_buf_putc(&t, '`');
        qr_buf_putc(&t, '\n');
    }
    qr_buf_append(&t, code, code_len);
    if (ps->md) {
        qr_buf_putc(&t, '\n');
        for (size_t k = 0; k <= most; k++)
            qr_buf_putc(&t, '`');
    }
    add_piece(ps, "\n\n", t.data ? t.data : "", t.len, 0);
    qr_buf_free(&t);
}

static void image_pieces(pieces *ps, const qr_image *im)
{
    qr_buf t = {0};
    if (ps->md) {
        qr_buf_puts(&t, "![");
        md_escape(&t, qr_plain(&im->alt), qr_plain_len(&im->alt), 0);
        qr_buf_printf(&t, "](%s)", im->name ? im->name : "image");
    } else if (im->alt.n) {
        qr_buf_printf(&t, "[image: %s]", qr_plain(&im->alt));
    }
    if (t.len) add_piece(ps, "\n\n", t.data, t.len, 0);
    qr_buf_free(&t);
}

/* ---- texts and tables as JSON ---------------------------------------------------- */

static void json_text(pieces *ps, qr_buf *b, const qr_text *t)
{
    qr_buf p = {0};
    plain_text(ps, &p, t);
    if (p.oom) b->oom = 1;
    qr_buf_json_str(b, p.data ? p.data : "", p.len, 0);
    qr_buf_free(&p);
}

static void json_items(pieces *ps, qr_buf *b, const qr_item *items, size_t n)
{
    qr_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) qr_buf_putc(b, ',');
        qr_buf_puts(b, "{\"text\":");
        json_text(ps, b, &items[i].text);
        if (items[i].task != QR_TASK_NONE)
            qr_buf_puts(b,
                        items[i].task == QR_TASK_DONE ? ",\"checked\":true" : ",\"checked\":false");
        if (items[i].n_items) {
            qr_buf_puts(b, ",\"items\":");
            json_items(ps, b, items[i].items, items[i].n_items);
        }
        qr_buf_putc(b, '}');
    }
    qr_buf_putc(b, ']');
}

static void json_tcell(pieces *ps, qr_buf *b, const qr_tcell *c)
{
    if (c->kind == QR_TCELL_EMPTY)
        qr_buf_puts(b, "null");
    else if (c->kind == QR_TCELL_NUMBER || c->kind == QR_TCELL_BOOL)
        plain_text(ps, b, &c->text);
    else
        json_text(ps, b, &c->text);
}

static void json_table(pieces *ps, qr_buf *b, const qr_table *t)
{
    qr_buf_puts(b, "{\"type\":\"table\"");
    if (t->headers) {
        qr_buf_puts(b, ",\"headers\":[");
        for (size_t c = 0; c < t->n_headers; c++) {
            if (c) qr_buf_putc(b, ',');
            json_tcell(ps, b, &t->headers[c]);
        }
        qr_buf_putc(b, ']');
    }
    qr_buf_puts(b, ",\"rows\":[");
    for (size_t r = 0; r < t->n_rows; r++) {
        qr_buf_puts(b, r ? ",[" : "[");
        for (size_t c = 0; c < t->n_cols; c++) {
            if (c) qr_buf_putc(b, ',');
            json_tcell(ps, b, &t->rows[r][c]);
        }
        qr_buf_putc(b, ']');
    }
    qr_buf_putc(b, ']');
    if (t->col_align) {
        qr_buf_puts(b, ",\"align\":[");
        for (size_t c = 0; c < t->n_cols; c++) {
            int al = t->col_align[c];
            qr_buf_puts(b, c ? "," : "");
            qr_buf_puts(b, al == QR_ALIGN_LEFT     ? "\"left\""
                           : al == QR_ALIGN_CENTER ? "\"center\""
                           : al == QR_ALIGN_RIGHT  ? "\"right\""
                                                   : "null");
        }
        qr_buf_putc(b, ']');
    }
    qr_buf_putc(b, '}');
}

/* ---- a block ---------------------------------------------------------------------- */

/* A document block, as JSON into ps->json when it is set, else as markdown
 * or text pieces (a heading's level shifted under the title): the one
 * switch over block types. */
/* A table's, image's, chart's or code block's caption as a paragraph
 * (its label "Table 1: " first, in bold): above a table, below the rest,
 * where the document shows it. */
static void caption_pieces(pieces *ps, const qr_block *b)
{
    if (!b->caption.n) return;
    qr_buf t = {0};
    put_text(ps, &t, &b->caption, 0);
    add_sentences(ps, "\n\n", t.data ? t.data : "", t.len);
    qr_buf_free(&t);
}

static void block_out(pieces *ps, const qr_block *b, int shift)
{
    qr_buf *j = ps->json;
    switch (b->type) {
    case QR_BLOCK_HEADING:
        if (!j) {
            heading_pieces(ps, &b->u.heading.text, b->u.heading.level + shift);
            break;
        }
        qr_buf_printf(j, "{\"type\":\"heading\",\"level\":%d,\"text\":", b->u.heading.level);
        json_text(ps, j, &b->u.heading.text);
        qr_buf_putc(j, '}');
        break;
    case QR_BLOCK_PARAGRAPH:
        if (!j) {
            qr_buf t = {0};
            put_text(ps, &t, &b->u.paragraph.text, 0);
            add_sentences(ps, "\n\n", t.data ? t.data : "", t.len);
            qr_buf_free(&t);
            break;
        }
        qr_buf_puts(j, "{\"type\":\"paragraph\",\"text\":");
        json_text(ps, j, &b->u.paragraph.text);
        qr_buf_putc(j, '}');
        break;
    case QR_BLOCK_LIST:
        if (!j) {
            const char *sep = "\n\n";
            items_pieces(ps, b->u.list.items, b->u.list.n_items, b->u.list.ordered, b->u.list.start,
                         0, &sep);
            break;
        }
        qr_buf_printf(j, "{\"type\":\"list\",\"ordered\":%s,",
                      b->u.list.ordered ? "true" : "false");
        if (b->u.list.start > 1) qr_buf_printf(j, "\"start\":%u,", b->u.list.start);
        qr_buf_puts(j, "\"items\":");
        json_items(ps, j, b->u.list.items, b->u.list.n_items);
        qr_buf_putc(j, '}');
        break;
    case QR_BLOCK_TABLE:
        if (j) {
            json_table(ps, j, &b->u.table);
        } else {
            caption_pieces(ps, b);
            table_pieces(ps, &b->u.table);
        }
        break;
    case QR_BLOCK_CODE:
        if (!j) {
            code_pieces(ps, &b->u.code.text);
            caption_pieces(ps, b);
            break;
        }
        qr_buf_puts(j, "{\"type\":\"code\",\"text\":");
        qr_buf_json_str(j, qr_plain(&b->u.code.text), qr_plain_len(&b->u.code.text), 0);
        qr_buf_putc(j, '}');
        break;
    case QR_BLOCK_IMAGE:
        if (!j) {
            image_pieces(ps, &b->u.image);
            caption_pieces(ps, b);
            break;
        }
        qr_buf_puts(j, "{\"type\":\"image\",\"alt\":");
        qr_buf_json_str(j, qr_plain(&b->u.image.alt), qr_plain_len(&b->u.image.alt), 0);
        qr_buf_printf(j, ",\"width\":%u,\"height\":%u}", b->u.image.width_px, b->u.image.height_px);
        break;
    case QR_BLOCK_CHART:
        if (!j) {
            chart_pieces(ps, &b->u.chart);
            caption_pieces(ps, b);
            break;
        }
        qr_buf_puts(j, "{\"type\":\"chart\",\"title\":");
        if (b->u.chart.title)
            qr_buf_json_str(j, b->u.chart.title, strlen(b->u.chart.title), 0);
        else
            qr_buf_puts(j, "null");
        qr_buf_putc(j, '}');
        break;
    case QR_BLOCK_PAGE_BREAK:
        if (j) qr_buf_puts(j, "{\"type\":\"page_break\"}");
        break;
    case QR_BLOCK_QUOTE:
        if (!j && ps->md) {
            /* markdown: "> " before each line, so cmark reads a quote back */
            qr_buf t = {0}, q = {0};
            put_text(ps, &t, &b->u.quote.text, 0);
            qr_buf_puts(&q, "> ");
            for (size_t k = 0; k < t.len; k++) {
                qr_buf_putc(&q, t.data[k]);
                if (t.data[k] == '\n') qr_buf_puts(&q, "> ");
            }
            add_piece(ps, "\n\n", q.data ? q.data : "", q.len, 0);
            qr_buf_free(&t);
            qr_buf_free(&q);
            break;
        }
        if (!j) {
            qr_buf t = {0};
            put_text(ps, &t, &b->u.quote.text, 0);
            add_sentences(ps, "\n\n", t.data ? t.data : "", t.len);
            qr_buf_free(&t);
            break;
        }
        qr_buf_puts(j, "{\"type\":\"quote\",\"text\":");
        json_text(ps, j, &b->u.quote.text);
        if (b->u.quote.attribution.n) {
            qr_buf_puts(j, ",\"attribution\":");
            qr_buf_json_str(j, qr_plain(&b->u.quote.attribution),
                            qr_plain_len(&b->u.quote.attribution), 0);
        }
        qr_buf_putc(j, '}');
        break;
    case QR_BLOCK_CALLOUT: {
        static const char *const tones[] = {"note", "tip", "warning", "important"};
        if (!j) {
            qr_buf t = {0};
            put_text(ps, &t, &b->u.callout.text, 0);
            add_sentences(ps, "\n\n", t.data ? t.data : "", t.len);
            qr_buf_free(&t);
            break;
        }
        qr_buf_printf(
            j, "{\"type\":\"callout\",\"tone\":\"%s\",\"title\":", tones[b->u.callout.tone & 3]);
        qr_buf_json_str(j, qr_plain(&b->u.callout.title), qr_plain_len(&b->u.callout.title), 0);
        qr_buf_puts(j, ",\"text\":");
        json_text(ps, j, &b->u.callout.text);
        qr_buf_putc(j, '}');
        break;
    }
    case QR_BLOCK_RULE:
        if (j)
            qr_buf_puts(j, "{\"type\":\"rule\"}");
        else if (ps->md)
            add_piece(ps, "\n\n", "---", 3, 0); /* a thematic break */
        break;
    case QR_BLOCK_TOC:
        if (j) qr_buf_printf(j, "{\"type\":\"toc\",\"levels\":%d}", b->u.toc.levels);
        break;
    }
}

/* ---- cells of sheets ------------------------------------------------------------ */

/* An Excel serial (1900 system) as ISO 8601. */
static void serial_date(qr_buf *b, double serial)
{
    double days = floor(serial);
    double frac = serial - days;
    /* Serial 60 is Excel's 1900-02-29, which never was; 61 is 1 March. */
    long n = (long)days;
    if (n > 60) n -= 1;
    /* Day 1 = 1900-01-01, which is day -25567 from 1970-01-01. */
    long long y;
    unsigned m, d;
    qr_civil_from_days(n - 1 - 25567, &y, &m, &d);
    qr_buf_printf(b, "%04lld-%02u-%02u", y, m, d);
    if (frac > 1e-9) {
        long s = (long)llround(frac * 86400);
        qr_buf_printf(b, "T%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    }
}

static void sheet_cell(const pieces *ps, qr_buf *b, const qr_cell *c, int md)
{
    char num[64];
    switch ((qr_cell_type)c->type) {
    case QR_CELL_EMPTY:
        break;
    case QR_CELL_NUMBER: {
        /* A time or date format shows the number as the format does (12:00,
         * 30:00:00); other numbers stay as they are, for whoever reads on. */
        const char *f = ps && ps->doc && c->fmt && c->fmt < ps->doc->n_formats
                            ? ps->doc->formats[c->fmt]
                            : NULL;
        if (f && (strstr(f, "[h]") || strstr(f, "[H]")) && isfinite(c->v.num) &&
            fabs(c->v.num) < 1e9) {
            /* elapsed hours: 1.25 days under [h]:mm:ss is 30:00:00 */
            long long secs = llround(fabs(c->v.num) * 86400);
            snprintf(num, sizeof num, "%s%lld:%02lld", c->v.num < 0 ? "-" : "", secs / 3600,
                     secs / 60 % 60);
            qr_buf_puts(b, num);
            if (strstr(f, ":ss")) qr_buf_printf(b, ":%02lld", secs % 60);
            break;
        }
        if (f && qr_cellfmt_is_date(f) && isfinite(c->v.num) &&
            qr_cellfmt_number(f, c->v.num, num, sizeof num) > 0) {
            if (md)
                md_escape(b, num, strlen(num), 1);
            else
                qr_buf_puts(b, num);
            break;
        }
        qr_fmt_double(c->v.num, num);
        qr_buf_puts(b, num);
        break;
    }
    case QR_CELL_BOOL:
        qr_buf_puts(b, c->v.num != 0 ? "TRUE" : "FALSE");
        break;
    case QR_CELL_TEXT:
        if (md)
            md_escape(b, c->v.str, c->len, 1);
        else
            for (uint32_t k = 0; k < c->len; k++)
                qr_buf_putc(b, c->v.str[k] == '\t' || c->v.str[k] == '\n' ? ' ' : c->v.str[k]);
        break;
    case QR_CELL_DATE:
        serial_date(b, c->v.num);
        break;
    case QR_CELL_FORMULA: {
        const qr_formula *f = c->v.formula;
        if (f->has_value && f->value_type == QR_CELL_NUMBER) {
            qr_fmt_double(f->num, num);
            qr_buf_puts(b, num);
        } else if (f->has_value && f->value_type == QR_CELL_BOOL) {
            qr_buf_puts(b, f->num != 0 ? "TRUE" : "FALSE");
        } else if (f->has_value && f->str) {
            if (md)
                md_escape(b, f->str, strlen(f->str), 1);
            else
                qr_buf_puts(b, f->str);
        } else {
            qr_buf_putc(b, '=');
            if (md)
                md_escape(b, f->text, strlen(f->text), 1);
            else
                qr_buf_puts(b, f->text);
        }
        break;
    }
    }
    (void)ps;
}

static void sheet_pieces(pieces *ps, const qr_sheet *s)
{
    set_path(ps, 1, s->name, strlen(s->name));
    qr_buf t = {0};
    qr_buf_printf(&t, "%s%s", ps->md ? "## " : "", s->name);
    add_piece(ps, "\n\n", t.data, t.len, 1);
    size_t nc = s->n_cols ? s->n_cols : 1;
    const char *sep = "\n\n";
    for (size_t r = 0; r < s->n_rows && !ps->over; r++) {
        t.len = 0;
        if (ps->md) qr_buf_putc(&t, '|');
        for (size_t c = 0; c < nc; c++) {
            if (ps->md)
                qr_buf_putc(&t, ' ');
            else if (c)
                qr_buf_putc(&t, '\t');
            if (c < s->rows[r].n) sheet_cell(ps, &t, &s->rows[r].cells[c], ps->md);
            if (ps->md) qr_buf_puts(&t, " |");
        }
        add_piece(ps, sep, t.data ? t.data : "", t.len, 0);
        sep = "\n";
        if (r == 0 && ps->md) {
            t.len = 0;
            qr_buf_putc(&t, '|');
            for (size_t c = 0; c < nc; c++)
                qr_buf_puts(&t, " --- |");
            add_piece(ps, "\n", t.data, t.len, 0);
        }
    }
    qr_buf_free(&t);
}

static void slide_pieces(pieces *ps, const qr_slide *s, size_t index)
{
    qr_buf t = {0}, plain = {0};
    if (s->has_title) plain_text(ps, &plain, &s->title);
    if (!plain.len) qr_buf_printf(&plain, "Slide %zu", index + 1);
    set_path(ps, 1, plain.data, plain.len);
    if (ps->md) qr_buf_puts(&t, "## ");
    if (s->has_title && s->title.n)
        put_text(ps, &t, &s->title, 0);
    else
        qr_buf_append(&t, plain.data, plain.len);
    add_piece(ps, "\n\n", t.data, t.len, 1);
    add_piece(ps, "", "", 0, 0);
    ps->items[ps->n - 1].heading = -2;
    free(ps->items[ps->n - 1].text);
    ps->items[ps->n - 1].text = plain.data;
    ps->items[ps->n - 1].sep = NULL;
    if (s->has_subtitle) {
        t.len = 0;
        put_text(ps, &t, &s->subtitle, 0);
        add_sentences(ps, "\n\n", t.data ? t.data : "", t.len);
    }
    if (s->n_bullets) {
        const char *sep = "\n\n";
        items_pieces(ps, s->bullets, s->n_bullets, 0, 0, 0, &sep);
    }
    if (s->table) table_pieces(ps, s->table);
    if (s->chart) chart_pieces(ps, s->chart);
    if (s->image && s->image->alt.n) {
        t.len = 0;
        qr_buf_printf(&t, ps->md ? "![%s](%s)" : "[image: %s]", qr_plain(&s->image->alt),
                      s->image->name ? s->image->name : "image");
        add_piece(ps, "\n\n", t.data, t.len, 0);
    }
    if (s->notes.n) {
        t.len = 0;
        qr_buf_puts(&t, ps->md ? "> Notes: " : "Notes: ");
        for (const char *p = qr_plain(&s->notes); *p; p++) {
            if (*p == '\n' && ps->md)
                qr_buf_puts(&t, "\n> ");
            else
                qr_buf_putc(&t, *p);
        }
        add_piece(ps, "\n\n", t.data, t.len, 0);
    }
    qr_buf_free(&t);
}

static void doc_pieces(pieces *ps, const qr_doc *doc)
{
    int shift = 0;
    if (doc->title.n && doc->kind != QR_KIND_SPREADSHEET && doc->kind != QR_KIND_PRESENTATION) {
        set_path(ps, 1, qr_plain(&doc->title), qr_plain_len(&doc->title));
        qr_buf t = {0};
        qr_buf_printf(&t, "%s%s", ps->md ? "# " : "", qr_plain(&doc->title));
        add_piece(ps, "", t.data, t.len, 1);
        qr_buf_free(&t);
        shift = 1;
    }
    for (size_t i = 0; i < doc->n_blocks; i++)
        block_out(ps, &doc->blocks[i], shift);
    for (size_t i = 0; i < doc->n_sheets; i++)
        sheet_pieces(ps, &doc->sheets[i]);
    for (size_t i = 0; i < doc->n_slides; i++)
        slide_pieces(ps, &doc->slides[i], i);
    /* The notes referenced, in number order: "[^1]: text" in markdown,
     * "¹ text" in text. */
    const char *sep = "\n\n";
    for (size_t i = 0; i < ps->n_notes; i++) {
        if (!ps->notes[i]) continue;
        qr_buf t = {0}, n = {0};
        qr_buf_printf(&n, "%zu", i + 1);
        if (ps->md)
            qr_buf_printf(&t, "[^%zu]: ", i + 1);
        else
            put_script(&t, n.data, n.len, 1), qr_buf_putc(&t, ' ');
        put_text(ps, &t, ps->notes[i], 0);
        add_piece(ps, sep, t.data ? t.data : "", t.len, 0);
        sep = "\n";
        qr_buf_free(&t);
        qr_buf_free(&n);
    }
}

static void pieces_free(pieces *ps)
{
    for (size_t i = 0; i < ps->n; i++) {
        if (ps->items[i].heading == -1) free(ps->items[i].path);
        free(ps->items[i].text);
    }
    free(ps->items);
}

/* Characters (code points) of UTF-8 text. */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static void flush_chunk(qr_buf *out, qr_buf *cur, const char *path, size_t *count)
{
    if (!cur->len) return;
    qr_buf_puts(out, *count ? ",\n{\"headings\":" : "{\"headings\":");
    qr_buf_puts(out, path ? path : "[]");
    qr_buf_puts(out, ",\"text\":");
    qr_buf_json_str(out, cur->data, cur->len, 0);
    qr_buf_printf(out, ",\"chars\":%zu}", chars(cur->data));
    (*count)++;
    cur->len = 0;
}

static void write_chunks(const pieces *ps, size_t max, qr_buf *out)
{
    qr_buf cur = {0};
    size_t count = 0, cur_chars = 0;
    const char *path = NULL;
    qr_buf_puts(out, "{\"chunks\":[\n");
    for (size_t i = 0; i < ps->n; i++) {
        const piece *p = &ps->items[i];
        if (p->heading < 0 || !p->text || !*p->text) continue;
        size_t n = chars(p->text);
        size_t sep = cur.len ? chars(p->sep) : 0;
        if (p->heading || p->path != path || (cur.len && cur_chars + sep + n > max)) {
            flush_chunk(out, &cur, path, &count);
            cur_chars = 0;
            sep = 0;
        }
        path = p->path;
        if (cur.len) qr_buf_puts(&cur, p->sep);
        qr_buf_puts(&cur, p->text);
        cur_chars += sep + n;
    }
    flush_chunk(out, &cur, path, &count);
    qr_buf_puts(out, "\n]}\n");
    qr_buf_free(&cur);
}

/* ---- structured JSON ------------------------------------------------------------- */

static void json_doc(pieces *ps, const qr_doc *doc)
{
    qr_buf *b = ps->json;
    qr_buf_printf(b, "{\"kind\":\"%s\"", qr_kind_name(doc->kind));
    if (doc->title.n) {
        qr_buf_puts(b, ",\"title\":");
        qr_buf_json_str(b, qr_plain(&doc->title), qr_plain_len(&doc->title), 0);
    }
    if (doc->kind == QR_KIND_SPREADSHEET) {
        qr_buf_puts(b, ",\"sheets\":[");
        for (size_t i = 0; i < doc->n_sheets; i++) {
            const qr_sheet *s = &doc->sheets[i];
            if (i) qr_buf_putc(b, ',');
            qr_buf_puts(b, "{\"name\":");
            qr_buf_json_str(b, s->name, strlen(s->name), 0);
            qr_buf_puts(b, ",\"rows\":[");
            for (size_t r = 0; r < s->n_rows; r++) {
                qr_buf_puts(b, r ? ",\n[" : "\n[");
                for (uint32_t c = 0; c < s->rows[r].n; c++) {
                    const qr_cell *cl = &s->rows[r].cells[c];
                    if (c) qr_buf_putc(b, ',');
                    if (cl->type == QR_CELL_EMPTY) {
                        qr_buf_puts(b, "null");
                    } else if (cl->type == QR_CELL_NUMBER) {
                        qr_rd_jnum(b, cl->v.num);
                    } else if (cl->type == QR_CELL_BOOL) {
                        qr_buf_puts(b, cl->v.num != 0 ? "true" : "false");
                    } else {
                        qr_buf t = {0};
                        sheet_cell(NULL, &t, cl, 0);
                        qr_buf_json_str(b, t.data ? t.data : "", t.len, 0);
                        qr_buf_free(&t);
                    }
                }
                qr_buf_putc(b, ']');
            }
            qr_buf_puts(b, "]}");
        }
        qr_buf_puts(b, "]}\n");
        return;
    }
    if (doc->kind == QR_KIND_PRESENTATION) {
        qr_buf_puts(b, ",\"slides\":[");
        for (size_t i = 0; i < doc->n_slides; i++) {
            const qr_slide *s = &doc->slides[i];
            qr_buf_puts(b, i ? ",\n{" : "\n{");
            qr_buf_printf(b, "\"index\":%zu", i + 1);
            if (s->has_title) qr_buf_puts(b, ",\"title\":"), json_text(ps, b, &s->title);
            if (s->has_subtitle) qr_buf_puts(b, ",\"subtitle\":"), json_text(ps, b, &s->subtitle);
            if (s->n_bullets)
                qr_buf_puts(b, ",\"bullets\":"), json_items(ps, b, s->bullets, s->n_bullets);
            if (s->table) qr_buf_puts(b, ",\"table\":"), json_table(ps, b, s->table);
            if (s->has_notes)
                qr_buf_puts(b, ",\"notes\":"),
                    qr_buf_json_str(b, qr_plain(&s->notes), qr_plain_len(&s->notes), 0);
            qr_buf_putc(b, '}');
        }
        qr_buf_puts(b, "]}\n");
        return;
    }
    qr_buf_puts(b, ",\"blocks\":[");
    for (size_t i = 0; i < doc->n_blocks; i++) {
        qr_buf_puts(b, i ? ",\n" : "\n");
        block_out(ps, &doc->blocks[i], 0);
    }
    qr_buf_puts(b, "]}\n");
}

qr_status qr_rd_write(const qr_doc *doc, qr_rd_to to, size_t chunks, size_t max, qr_buf *out)
{
    qr_text_ctx tc;
    qr_text_ctx_init(&tc, NULL, doc->lang, NULL);
    pieces ps;
    memset(&ps, 0, sizeof ps);
    ps.tc = &tc;
    ps.md = to == QR_RD_MARKDOWN;
    ps.max = max;
    ps.doc = doc;
    ps.n_notes = doc->n_notes;
    ps.notes = doc->n_notes ? calloc(doc->n_notes, sizeof *ps.notes) : NULL;
    if (doc->n_notes && !ps.notes) ps.n_notes = 0;
    if (to == QR_RD_JSON && !chunks) {
        ps.json = out;
        json_doc(&ps, doc);
    } else {
        doc_pieces(&ps, doc);
        if (chunks) {
            write_chunks(&ps, chunks, out);
        } else {
            int any = 0;
            for (size_t i = 0; i < ps.n; i++) {
                const piece *p = &ps.items[i];
                if (p->heading < 0 || !p->text) continue;
                if (any && p->sep) qr_buf_puts(out, p->sep);
                qr_buf_puts(out, p->text);
                any = 1;
            }
            if (any) qr_buf_putc(out, '\n');
        }
    }
    pieces_free(&ps);
    free(ps.notes);
    qr_buf_free(&ps.run);
    qr_text_ctx_free(&tc);
    if (ps.over) return qr_fail(QR_E_LIMIT);
    return out->oom ? qr_fail(QR_E_NOMEM) : QR_OK;
}
