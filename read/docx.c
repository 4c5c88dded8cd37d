/* docx.c: a .docx back into a document spec. word/document.xml streams
 * through libxml2's reader once; paragraphs become headings (outline level
 * or "heading N" style), list items (numbering), code (monospace style),
 * quotes and their attribution, rules (by style name), images (data: URIs)
 * or paragraphs with runs; tables keep their header row
 * (tblHeader, else a bold first row), cells and grid widths; the last
 * sectPr gives the page. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "backend.h"
#include "compile.h"
#include "cnum.h"
#include "docx_read.h"
#include "words.h"

/* "RRGGBB" as QR_RGB_SET | 0xRRGGBB, or 0 ("auto", anything else). */
static uint32_t hex_color(const char *v)
{
    if (!v || strlen(v) != 6 || strspn(v, "0123456789abcdefABCDEF") != 6) return 0;
    return QR_RGB_SET | (uint32_t)strtoul(v, NULL, 16);
}

typedef struct item {
    int level;
    char *json; /* a JSON string, or an object's members without braces */
    int plain;
    int task; /* a task item (quire's box bullets): 1 open, 2 ticked */
} item;

typedef struct cell {
    char *json, *json_header; /* the value, and as a header cell (bold dropped) */
    int all_bold;
    long span;    /* grid columns it covers (w:gridSpan), at least 1 */
    int vm;       /* w:vMerge: 0 none, 1 restart, 2 continue */
    long rows;    /* the rows it spans (a restart and the continues below it) */
    int gone;     /* a continue its restart above covers: left out of the row */
    char fill[8]; /* its shading (w:shd w:fill) as "#RRGGBB", or "" */
    char align;   /* its paragraphs' w:jc: 'l', 'c', 'r', or 0 (none, or mixed) */
    char number;  /* its value reads as a number */
    char xalign;  /* its own align, unlike its column's: 1..3 left, center, right; 0 none */
} cell;

typedef struct row {
    cell *cells;
    size_t n, cap;
    int header;
    long before, after; /* grid columns skipped before and after (w:gridBefore/After) */
} row;

typedef struct dx {
    qr_rd *r;
    const char *part;
    qr_rd_styles styles;
    qr_rd_numbering num;
    qr_rd_rels rels;
    char *core_title;
    int have_title;
    qr_buf blocks;
    size_t n_blocks;
    size_t quote_end; /* blocks.len after the last quote block (its attribution may follow) */
    /* bookmarks (issue 32), each list NUL-separated names: those waiting
     * for the next block, the open paragraph's, the open list's, the open
     * table's; every name given to a block (docx_links.c turns them into
     * ids); an internal link ("\1#name") open, and whether one was read or
     * a name that can be an id was seen */
    qr_buf bm_pending, bm_para, bm_list, bm_table;
    qr_rd_mark *marks;
    size_t n_marks, cap_marks;
    char *anchor;
    int internal;
    /* the paragraph's fields: where the open one's instruction starts in
     * instr, and whether a REF field's result is being read */
    size_t fld_at;
    int fld_ref;
    /* a callout (quire writes its title, then its text, as two "Callout"
     * paragraphs): blocks.len after a callout block still waiting for its
     * text; the paragraph's left border colour (the tone's ink), -1 none */
    size_t callout_end;
    long bar;
    /* a table of contents: blocks.len after its toc block (its entries,
     * the TOC field's result, follow and are not read as text), whether
     * its levels are written, and the field instructions of the paragraph
     * being read (TOC \o "1-3" gives the levels) */
    size_t toc_end;
    int toc_levels;
    /* captions: blocks.len after the last image, chart or code block (a
     * caption below it joins it); a caption paragraph written as text, its
     * place and value (a table right after it takes it back as its caption) */
    size_t fig_end, cap_start, cap_end, cap_nblocks;
    qr_buf cap_value;
    int in_instr;
    qr_buf instr;

    /* the paragraph being read */
    char *pstyle;
    int num_id, ilvl, outline, jc_right, has_num;
    char jc; /* the paragraph's w:jc as a cell's align: 'l', 'c', 'r', or 0 */
    int page_break, in_ppr, in_rpr;
    qr_rd_runs runs;
    qr_buf images; /* image blocks of this paragraph, each preceded by a comma */
    char *alt;
    long img_cx; /* the drawing's width in EMU (wp:extent), 0 none */

    /* the run being read */
    qr_rd_run flags;
    int in_run, in_t;
    char *rstyle;
    char *link;

    /* the list being collected */
    item *items;
    size_t n_items, cap_items;
    int list_num, list_ordered; /* list_num 0: only task items so far */
    long list_start;            /* the ordered list's first number, 0: 1 */

    /* the table being read (depth counts nested tables) */
    int tbl_depth;
    row *rows;
    size_t n_rows, cap_rows;
    qr_rd_runs cell_runs;
    int cell_paras, cell_right;
    char cell_jc;                /* the open cell's paragraphs' jc (cell.align) */
    int cell_num, cell_count[9]; /* a list in the open cell: its numId, items per level */
    long cell_span;              /* the open cell's gridSpan */
    int cell_vm;                 /* the open cell's w:vMerge (cell.vm) */
    int in_tcpr;                 /* in the open cell's w:tcPr */
    char cell_fill[8];           /* the open cell's shading (cell.fill) */
    double *grid;
    size_t n_grid, cap_grid;

    /* notes: the footnotes' and endnotes' texts, by id */
    struct notes *foot, *end;
    long n_foot, n_end; /* references read */

    /* equations (OMML): the open math elements, the scripts (1 sub, 2 sup) */
    int math, n_mst, n_script;
    struct mst {
        char name[8];
        char beg[8], end[8], sep[8]; /* a delimiter's (m:d) characters; a n-ary's in beg */
        int kids, pending;           /* m:e children seen; a mark still to write */
    } mst[32];
    int script[16];

    /* a drop cap: its letters, for the paragraph they start */
    int drop_cap;
    qr_buf cap;

    /* page */
    long pg_w, pg_h, m_top, m_right, m_bottom, m_left;
    int landscape;
    /* page furniture: the body's default header and footer relationship
     * ids (xmlFree), w:titlePg, and the parts read back as templates with
     * {page} and {pages} (layout/furniture.h), each NUL-terminated */
    char *hdr_rid, *ftr_rid;
    int title_pg;
    qr_buf tpl_header, tpl_footer;
    int has_header, has_footer;
    /* the first page's and the even pages' header and footer ids (w:type
     * "first", "even"; xmlFree), whether page 1 reads as bare (titlePg,
     * its parts unlike the others') */
    char *first_rid[2], *even_rid[2];
    int first_bare;
} dx;

/* The names in list (NUL-separated) mark block i; list is emptied. */
static void names_give(dx *d, qr_buf *list, size_t i)
{
    for (size_t k = 0; k < list->len; k += strlen(list->data + k) + 1) {
        const char *nm = list->data + k;
        if (d->n_marks == d->cap_marks) {
            size_t cap = d->cap_marks ? d->cap_marks * 2 : 16;
            qr_rd_mark *nm2 = realloc(d->marks, cap * sizeof *nm2);
            if (!nm2) break;
            d->marks = nm2;
            d->cap_marks = cap;
        }
        char *dup = strdup(nm);
        if (!dup) break;
        d->marks[d->n_marks].name = dup;
        d->marks[d->n_marks++].block = i;
        if (isalpha((unsigned char)nm[0])) d->internal = 1;
    }
    list->len = 0;
}

/* Move the names of from to the end of to. */
static void names_move(qr_buf *to, qr_buf *from)
{
    if (from->len) qr_buf_append(to, from->data, from->len);
    from->len = 0;
}

static void block_sep(dx *d)
{
    if (d->n_blocks++) qr_buf_putc(&d->blocks, ',');
    names_give(d, &d->bm_pending, d->n_blocks - 1);
    /* What is read is bounded as it grows, not once it is all in memory. */
    if (d->r->max_output && d->blocks.len > d->r->max_output && !d->r->errs->count)
        qr_rd_fail(d->r, QR_E_LIMIT, d->part, "raise it with --max-output BYTES (0 disables it)",
                   "what was read passes %zu bytes (the limit max_output)", d->r->max_output);
}

/* ---- lists ----------------------------------------------------------------- */

/* Items from *i on at this level, with their children, as JSON array members. */
static void emit_items(dx *d, size_t *i, int level, qr_buf *b)
{
    int first = 1;
    while (*i < d->n_items && d->items[*i].level >= level) {
        item *it = &d->items[*i];
        if (!first) qr_buf_putc(b, ',');
        first = 0;
        (*i)++;
        int kids = *i < d->n_items && d->items[*i].level > it->level;
        if (it->plain && !kids && !it->task) {
            qr_buf_puts(b, it->json);
            continue;
        }
        qr_buf_putc(b, '{');
        if (it->plain) {
            qr_buf_puts(b, "\"text\":");
            qr_buf_puts(b, it->json);
        } else {
            qr_buf_puts(b, it->json);
        }
        if (it->task) qr_buf_puts(b, it->task == 2 ? ",\"checked\":true" : ",\"checked\":false");
        if (kids) {
            qr_buf_puts(b, ",\"items\":[");
            emit_items(d, i, d->items[*i].level, b);
            qr_buf_putc(b, ']');
        }
        qr_buf_putc(b, '}');
    }
}

static void flush_list(dx *d)
{
    if (!d->n_items) return;
    /* the list's bookmarks mark it, the ones waiting wait on */
    qr_buf wait = d->bm_pending;
    d->bm_pending = d->bm_list;
    block_sep(d);
    d->bm_list = d->bm_pending;
    d->bm_pending = wait;
    qr_buf_puts(&d->blocks, "{\"type\":\"list\"");
    if (d->list_ordered) qr_buf_puts(&d->blocks, ",\"ordered\":true");
    if (d->list_ordered && d->list_start > 1)
        qr_buf_printf(&d->blocks, ",\"start\":%ld", d->list_start);
    qr_buf_puts(&d->blocks, ",\"items\":[");
    size_t i = 0;
    while (i < d->n_items)
        emit_items(d, &i, d->items[i].level, &d->blocks);
    qr_buf_puts(&d->blocks, "]}");
    for (size_t k = 0; k < d->n_items; k++)
        free(d->items[k].json);
    d->n_items = 0;
}

static void add_item(dx *d, int num_id, int ilvl)
{
    int ordered = qr_rd_num_ordered(&d->num, num_id);
    int task = ordered ? 0 : qr_rd_num_task(&d->num, num_id);
    int key = task ? 0 : num_id;
    /* A sub-list with its own numbering (another numId at a level below
     * the first) nests in the list open above it; at the first level a
     * new numbering starts a new list. quire's task items take their box's
     * numbering: they stay in the bullet list around them. */
    int nested = d->n_items && ilvl > 0 && key && key != d->list_num;
    if (!nested) {
        if (d->n_items &&
            (ordered != d->list_ordered || (key && d->list_num && key != d->list_num)))
            flush_list(d);
        if (!d->n_items) {
            d->list_num = key;
            d->list_start = ordered ? qr_rd_num_start(&d->num, num_id) : 0;
        } else if (!d->list_num) {
            d->list_num = key;
        }
        d->list_ordered = ordered;
    }
    if (ilvl < 0) ilvl = 0;
    if (ilvl > 8) ilvl = 8;
    /* A level may only go one deeper than the item before it. */
    int max = d->n_items ? d->items[d->n_items - 1].level + 1 : 0;
    if (ilvl > max) ilvl = max;
    if (d->n_items == d->cap_items) {
        size_t cap = d->cap_items ? d->cap_items * 2 : 16;
        item *ni = realloc(d->items, cap * sizeof *ni);
        if (!ni) return;
        d->items = ni;
        d->cap_items = cap;
    }
    qr_buf b = {0};
    int plain = d->runs.n <= 1 &&
                !(d->runs.n == 1 &&
                  (d->runs.items[0].bold || d->runs.items[0].italic || d->runs.items[0].underline ||
                   d->runs.items[0].strike || d->runs.items[0].code || d->runs.items[0].sup ||
                   d->runs.items[0].sub || d->runs.items[0].color || d->runs.items[0].highlight ||
                   d->runs.items[0].link));
    if (plain) {
        if (d->runs.n)
            qr_buf_json_str(&b, d->runs.items[0].text.data, d->runs.items[0].text.len, 0);
        else
            qr_buf_puts(&b, "\"\"");
    } else {
        qr_rd_runs_json(&d->runs, &b);
    }
    d->items[d->n_items].level = ilvl;
    d->items[d->n_items].plain = plain;
    d->items[d->n_items].task = task;
    d->items[d->n_items].json = b.data ? b.data : strdup("\"\"");
    d->n_items++;
}

/* ---- paragraphs -------------------------------------------------------------- */

static void para_reset(dx *d)
{
    xmlFree(d->pstyle);
    d->pstyle = NULL;
    d->num_id = d->ilvl = d->jc_right = d->has_num = d->page_break = d->drop_cap = 0;
    d->jc = 0;
    d->outline = -1;
    d->bar = -1;
    qr_rd_runs_reset(&d->runs);
    d->images.len = 0;
    d->instr.len = 0;
}

/* A list item in a table cell: the spec's cells hold text, so the item
 * keeps its place as a line starting with its mark ("• ", or "1. " and so
 * on for a counting level), indented two spaces per level. */
static void cell_list_mark(dx *d)
{
    int num_id = d->has_num ? d->num_id : qr_rd_style_num(&d->styles, d->pstyle);
    if (num_id <= 0 || qr_rd_runs_empty(&d->runs)) return;
    int lvl = d->ilvl < 0 ? 0 : d->ilvl > 8 ? 8 : d->ilvl;
    if (num_id != d->cell_num) memset(d->cell_count, 0, sizeof d->cell_count);
    d->cell_num = num_id;
    d->cell_count[lvl]++;
    for (int i = lvl + 1; i < 9; i++)
        d->cell_count[i] = 0;
    char mark[48];
    int n = 0;
    for (int i = 0; i < lvl; i++)
        n += snprintf(mark + n, sizeof mark - (size_t)n, "  ");
    if (qr_rd_num_level_ordered(&d->num, num_id, lvl))
        snprintf(mark + n, sizeof mark - (size_t)n, "%d. ", d->cell_count[lvl]);
    else
        snprintf(mark + n, sizeof mark - (size_t)n, "\xe2\x80\xa2 ");
    qr_rd_run plain = {0};
    qr_rd_runs_add(&d->cell_runs, mark, strlen(mark), &plain);
}

/* A caption (issue 32): the paragraph's runs without quire's bold label
 * ("Table 1: ", "表1："; a bold first run ending in a colon after a
 * digit) as a caption value, a string or runs. Below an image, chart or
 * code block it joins that block; otherwise it is written as a paragraph
 * that a table right after it takes back (end_table). */
static void caption_paragraph(dx *d)
{
    qr_rd_runs rest = {0};
    size_t from = 0;
    if (d->runs.n > 1 && d->runs.items[0].bold && !d->runs.items[0].raw) {
        const qr_buf *t = &d->runs.items[0].text;
        size_t n = t->len;
        while (n && t->data[n - 1] == ' ')
            n--;
        int colon = (n >= 1 && t->data[n - 1] == ':') ||
                    (n >= 3 && !memcmp(t->data + n - 3, "\xEF\xBC\x9A", 3));
        int digit = 0;
        for (size_t k = 0; k < n; k++)
            digit |= t->data[k] >= '0' && t->data[k] <= '9';
        if (colon && digit) from = 1;
    }
    for (size_t i = from; i < d->runs.n; i++) {
        qr_rd_run *rn = &d->runs.items[i];
        if (rn->raw)
            qr_rd_runs_raw(&rest, rn->raw);
        else
            qr_rd_runs_add(&rest, rn->text.data, rn->text.len, rn);
    }
    qr_buf j = {0};
    qr_rd_runs_json(&rest, &j);
    qr_rd_runs_free(&rest);
    /* "text":V or "runs":V -> V */
    const char *v = j.data ? strchr(j.data, ':') : NULL;
    d->cap_value.len = 0;
    if (v) qr_buf_append(&d->cap_value, v + 1, j.len - (size_t)(v + 1 - j.data));
    qr_buf_free(&j);
    if (d->fig_end && d->fig_end == d->blocks.len && d->cap_value.len) {
        names_give(d, &d->bm_pending, d->n_blocks - 1); /* the caption's marks are the figure's */
        d->blocks.len--;                                /* the figure's closing brace */
        qr_buf_puts(&d->blocks, ",\"caption\":");
        qr_buf_append(&d->blocks, d->cap_value.data, d->cap_value.len);
        qr_buf_putc(&d->blocks, '}');
        d->cap_value.len = 0;
        return;
    }
    flush_list(d);
    d->cap_start = d->blocks.len;
    d->cap_nblocks = d->n_blocks;
    block_sep(d);
    qr_buf_puts(&d->blocks, "{\"type\":\"paragraph\",");
    qr_rd_runs_json(&d->runs, &d->blocks);
    qr_buf_putc(&d->blocks, '}');
    d->cap_end = d->blocks.len;
}

/* A table of contents (issue 32): its title paragraph ("TOC Heading")
 * starts a toc block, written without the title when it is the default
 * one of the document's language; the entries after it ("toc N", the TOC
 * field's cached result) are the block's, not text: the first gives the
 * field's levels (\o "1-N"; 3, the default, left out). Entries with no
 * title before them start a toc of their own. */
static void toc_paragraph(dx *d, qr_rd_para_kind kind, int empty)
{
    if (kind == QR_RD_PARA_TOC_HEADING || d->toc_end != d->blocks.len || !d->toc_end) {
        if (kind == QR_RD_PARA_TOC_HEADING && empty) return;
        flush_list(d);
        block_sep(d);
        qr_buf_puts(&d->blocks, "{\"type\":\"toc\"");
        if (kind == QR_RD_PARA_TOC_HEADING) {
            qr_buf t = {0};
            qr_rd_runs_plain(&d->runs, &t);
            const char *lang = d->styles.lang && *d->styles.lang ? d->styles.lang : "en";
            const char *def = qr_word(lang, QR_WORD_CONTENTS);
            if (!t.data || strlen(def) != t.len || memcmp(def, t.data, t.len) != 0) {
                qr_buf_puts(&d->blocks, ",\"title\":");
                qr_buf_json_str(&d->blocks, t.data ? t.data : "", t.len, 0);
            }
            qr_buf_free(&t);
        }
        qr_buf_putc(&d->blocks, '}');
        d->toc_end = d->blocks.len;
        d->toc_levels = 0;
    }
    if (kind != QR_RD_PARA_TOC_ENTRY || d->toc_levels) return;
    qr_buf_putc(&d->instr, '\0');
    const char *o = d->instr.oom ? NULL : strstr(d->instr.data, "\\o");
    if (!o) return;
    o += 2;
    o += strspn(o, " \"");
    long lo = strtol(o, (char **)&o, 10);
    long hi = *o == '-' ? strtol(o + 1, NULL, 10) : lo;
    d->toc_levels = 1;
    if (lo != 1 || hi < 1 || hi > 6 || hi == 3) return;
    d->blocks.len--; /* the toc's closing brace */
    qr_buf_printf(&d->blocks, ",\"levels\":%ld}", hi);
    d->toc_end = d->blocks.len;
}

/* Whether a heading's text starts as quire's numbered headings do: "2 ",
 * "2.3 " (digits, dots between them, a space). */
static int numbered_like(const qr_buf *t)
{
    size_t i = 0;
    while (i < t->len) {
        size_t k = i;
        while (k < t->len && isdigit((unsigned char)t->data[k]))
            k++;
        if (k == i || k == t->len) return 0;
        if (t->data[k] == ' ') return 1;
        if (t->data[k] != '.') return 0;
        i = k + 1;
    }
    return 0;
}

/* A callout (issue 32): quire writes its title and its text as two
 * "Callout" paragraphs with a left bar in the tone's ink. The first starts
 * a callout block (the tone by the bar's colour, else note; the title left
 * out when it is the tone's name in the document's language), the second
 * gives its text. A lone one (another tool's) is a callout with a title. */
static void callout_paragraph(dx *d)
{
    if (d->callout_end && d->callout_end == d->blocks.len) {
        d->blocks.len--; /* the callout's closing brace */
        qr_buf_putc(&d->blocks, ',');
        qr_rd_runs_json(&d->runs, &d->blocks);
        qr_buf_putc(&d->blocks, '}');
        d->callout_end = 0;
        return;
    }
    static const char *const tones[] = {"note", "tip", "warning", "important"};
    int tone = QR_TONE_NOTE;
    for (int t = 0; t < 4 && d->bar >= 0; t++)
        if ((long)qr_tone_ink((qr_tone)t) == d->bar) tone = t;
    flush_list(d);
    block_sep(d);
    qr_buf_printf(&d->blocks, "{\"type\":\"callout\",\"tone\":\"%s\"", tones[tone]);
    qr_buf t = {0};
    qr_rd_runs_plain(&d->runs, &t);
    const char *lang = d->styles.lang && *d->styles.lang ? d->styles.lang : "en";
    const char *def = qr_word(lang, (qr_word_id)(QR_WORD_NOTE + tone));
    if (strlen(def) != t.len || (t.len && memcmp(def, t.data, t.len) != 0)) {
        qr_buf_puts(&d->blocks, ",\"title\":");
        qr_buf_json_str(&d->blocks, t.data ? t.data : "", t.len, 0);
    }
    qr_buf_free(&t);
    qr_buf_putc(&d->blocks, '}');
    d->callout_end = d->blocks.len;
}

static void end_paragraph(dx *d)
{
    if (d->tbl_depth > 0) {
        names_move(&d->bm_table, &d->bm_para);
        /* A cell's paragraphs join with newlines. */
        if (d->cell_paras++ && !qr_rd_runs_empty(&d->runs)) {
            qr_rd_run plain = {0};
            qr_rd_runs_add(&d->cell_runs, "\n", 1, &plain);
        }
        cell_list_mark(d);
        for (size_t i = 0; i < d->runs.n; i++) {
            qr_rd_run *rn = &d->runs.items[i];
            if (rn->raw)
                qr_rd_runs_raw(&d->cell_runs, rn->raw); /* a note referenced from the cell */
            else
                qr_rd_runs_add(&d->cell_runs, rn->text.data, rn->text.len, rn);
        }
        if (d->jc_right) d->cell_right = 1;
        d->cell_jc = d->cell_paras == 1 || d->cell_jc == d->jc ? d->jc : 0;
        para_reset(d);
        return;
    }
    names_move(&d->bm_pending, &d->bm_para);
    /* A drop cap is a framed paragraph of its own (w:framePr w:dropCap):
     * its letters start the paragraph after it. */
    if (d->drop_cap && !qr_rd_runs_empty(&d->runs) && !d->images.len) {
        qr_rd_runs_plain(&d->runs, &d->cap);
        para_reset(d);
        return;
    }
    if (d->cap.len && !qr_rd_runs_empty(&d->runs)) {
        qr_rd_runs joined = {0};
        qr_rd_run plain = {0};
        if (d->runs.n) plain = d->runs.items[0], plain.raw = NULL;
        qr_rd_runs_add(&joined, d->cap.data, d->cap.len, &plain);
        for (size_t i = 0; i < d->runs.n; i++) {
            qr_rd_run *rn = &d->runs.items[i];
            if (rn->raw)
                qr_rd_runs_raw(&joined, rn->raw);
            else
                qr_rd_runs_add(&joined, rn->text.data, rn->text.len, rn);
        }
        qr_rd_runs_free(&d->runs);
        d->runs = joined;
        d->cap.len = 0;
    }
    int level = d->outline >= 0 && d->outline <= 8 ? d->outline + 1
                                                   : qr_rd_style_heading(&d->styles, d->pstyle);
    int num_id = d->has_num ? d->num_id : qr_rd_style_num(&d->styles, d->pstyle);
    int empty = qr_rd_runs_empty(&d->runs);
    qr_rd_para_kind kind =
        level == 0 && num_id <= 0 ? qr_rd_style_kind(&d->styles, d->pstyle) : QR_RD_PARA_NONE;
    if (kind == QR_RD_PARA_RULE && empty) {
        flush_list(d);
        block_sep(d);
        qr_buf_puts(&d->blocks, "{\"type\":\"rule\"}");
    } else if (kind == QR_RD_PARA_QUOTE && !empty) {
        flush_list(d);
        block_sep(d);
        qr_buf_puts(&d->blocks, "{\"type\":\"quote\",");
        qr_rd_runs_json(&d->runs, &d->blocks);
        qr_buf_putc(&d->blocks, '}');
        d->quote_end = d->blocks.len;
    } else if (kind == QR_RD_PARA_ATTRIBUTION && !empty && d->quote_end &&
               d->quote_end == d->blocks.len) {
        /* the quote's attribution: its plain text, the dash quire writes
         * before it dropped */
        qr_buf t = {0};
        qr_rd_runs_plain(&d->runs, &t);
        const char *a = t.data ? t.data : "";
        size_t al = t.len;
        if (al >= 4 && memcmp(a, "\xE2\x80\x94 ", 4) == 0) a += 4, al -= 4;
        d->blocks.len--; /* the quote's closing brace */
        qr_buf_puts(&d->blocks, ",\"attribution\":");
        qr_buf_json_str(&d->blocks, a, al, 0);
        qr_buf_putc(&d->blocks, '}');
        qr_buf_free(&t);
    } else if (kind == QR_RD_PARA_CALLOUT) {
        callout_paragraph(d);
    } else if (kind == QR_RD_PARA_CAPTION && !empty && !d->images.len) {
        caption_paragraph(d);
    } else if (kind == QR_RD_PARA_TOC_HEADING || kind == QR_RD_PARA_TOC_ENTRY) {
        toc_paragraph(d, kind, empty);
    } else if (num_id > 0 && level <= 0 && (!empty || !d->images.len)) {
        add_item(d, num_id, d->ilvl);
        names_move(&d->bm_list, &d->bm_pending);
    } else if (!empty) {
        flush_list(d);
        if (level == -1 && !d->have_title && d->n_blocks == 0) {
            /* The Title paragraph: the title itself when the core has none. */
            if (!d->core_title) {
                qr_buf t = {0};
                qr_rd_runs_plain(&d->runs, &t);
                d->core_title = t.data;
            }
            d->have_title = 1;
        } else if (level > 0) {
            if (d->runs.n && numbered_like(&d->runs.items[0].text))
                d->internal = 1; /* perhaps numbered headings (docx_links.c) */
            block_sep(d);
            qr_buf_puts(&d->blocks, "{\"type\":\"heading\",");
            qr_rd_runs_json(&d->runs, &d->blocks);
            qr_buf_printf(&d->blocks, ",\"level\":%d}", level > 6 ? 6 : level);
        } else if (qr_rd_style_mono(&d->styles, d->pstyle)) {
            block_sep(d);
            qr_buf t = {0};
            qr_rd_runs_plain(&d->runs, &t);
            qr_buf_puts(&d->blocks, "{\"type\":\"code\",\"text\":");
            qr_buf_json_str(&d->blocks, t.data ? t.data : "", t.len, 0);
            qr_buf_putc(&d->blocks, '}');
            d->fig_end = d->blocks.len;
            qr_buf_free(&t);
        } else {
            block_sep(d);
            qr_buf_puts(&d->blocks, "{\"type\":\"paragraph\",");
            qr_rd_runs_json(&d->runs, &d->blocks);
            qr_buf_putc(&d->blocks, '}');
        }
    }
    if (d->images.len || d->page_break) flush_list(d);
    if (d->images.len) {
        block_sep(d);
        qr_buf_append(&d->blocks, d->images.data, d->images.len);
        d->fig_end = d->blocks.len;
    }
    if (d->page_break) {
        block_sep(d);
        qr_buf_puts(&d->blocks, "{\"type\":\"page_break\"}");
    }
    para_reset(d);
}

static void add_image(dx *d, const char *rid)
{
    const qr_rd_rel *rel = qr_rd_rels_get(&d->rels, rid);
    if (!rel || rel->external) return;
    qr_buf img = {0};
    qr_buf_puts(&img, "{\"type\":\"image\",\"src\":");
    double natural = 0;
    if (!qr_rd_image_uri_size(d->r, rel->target, &img, &natural)) {
        qr_errlist_addf(d->r->warns, QR_OK, rel->target, "only PNG and JPEG images are read",
                        "skipped the image %s", rel->target);
        qr_buf_free(&img);
        return;
    }
    if (d->alt && *d->alt) {
        qr_buf_puts(&img, ",\"alt\":");
        qr_buf_json_str(&img, d->alt, strlen(d->alt), 0);
    }
    /* its size (wp:extent) in points unless it is its own (issue 32), and
     * its paragraph's alignment */
    if (d->img_cx > 0 && natural > 0 && fabs((double)d->img_cx - natural) > 0.5) {
        qr_buf_puts(&img, ",\"width\":");
        qr_rd_jnum(&img, (double)d->img_cx / 12700.0);
    }
    if (d->jc == 'c' || d->jc == 'r')
        qr_buf_puts(&img, d->jc == 'c' ? ",\"align\":\"center\"" : ",\"align\":\"right\"");
    d->img_cx = 0;
    qr_buf_putc(&img, '}');
    /* Several images of one paragraph: "," separates them. */
    if (d->images.len) qr_buf_putc(&d->images, ',');
    qr_buf_append(&d->images, img.data, img.len);
    qr_buf_free(&img);
}

/* ---- tables ------------------------------------------------------------------ */

static int is_number(const char *s)
{
    if (!s || !*s) return 0;
    char *end;
    double v = qr_strtod_c(s, &end);
    if (*end || !isfinite(v)) return 0;
    /* JSON's number grammar: no leading '+', '.', or hex. */
    const char *p = s[0] == '-' ? s + 1 : s;
    if (!(*p >= '0' && *p <= '9')) return 0;
    if (p[0] == '0' && p[1] >= '0' && p[1] <= '9') return 0;
    for (; *p; p++)
        if (!strchr("0123456789.eE+-", *p)) return 0;
    return 1;
}

/* Whether s is the shortest round-trip form of its number ("1200.5", not
 * "1200.50"): only then is the cell a number, so its text reads unchanged. */
static int shortest(const char *s)
{
    char num[32];
    qr_fmt_double(qr_strtod_c(s, NULL), num);
    return strcmp(num, s) == 0;
}

static char *cell_json(dx *d, int header)
{
    qr_buf b = {0};
    qr_rd_runs *rs = &d->cell_runs;
    qr_buf t = {0};
    qr_rd_runs_plain(rs, &t);
    if (t.len == 0) {
        qr_buf_puts(&b, "null");
    } else if (d->cell_right && is_number(t.data) && shortest(t.data)) {
        qr_buf_puts(&b, t.data);
    } else {
        int plain = 1;
        for (size_t i = 0; i < rs->n; i++) {
            const qr_rd_run *x = &rs->items[i];
            if ((x->bold && !header) || x->italic || x->underline || x->strike || x->code ||
                x->sup || x->sub || x->color || x->highlight || x->link || x->raw)
                plain = 0;
        }
        if (plain) {
            qr_buf_json_str(&b, t.data, t.len, 0);
        } else {
            qr_rd_runs copy = {0};
            for (size_t i = 0; i < rs->n; i++) {
                qr_rd_run f = rs->items[i];
                if (header) f.bold = 0;
                if (f.raw)
                    qr_rd_runs_raw(&copy, f.raw);
                else
                    qr_rd_runs_add(&copy, rs->items[i].text.data, rs->items[i].text.len, &f);
            }
            qr_buf_putc(&b, '{');
            qr_rd_runs_json(&copy, &b);
            qr_buf_putc(&b, '}');
            qr_rd_runs_free(&copy);
        }
    }
    qr_buf_free(&t);
    return b.data ? b.data : strdup("null");
}

static void end_cell(dx *d)
{
    if (!d->n_rows) return;
    row *rw = &d->rows[d->n_rows - 1];
    if (rw->n == rw->cap) {
        size_t cap = rw->cap ? rw->cap * 2 : 8;
        cell *nc = realloc(rw->cells, cap * sizeof *nc);
        if (!nc) return;
        rw->cells = nc;
        rw->cap = cap;
    }
    cell *c = &rw->cells[rw->n++];
    int bold = 1, any = 0;
    for (size_t i = 0; i < d->cell_runs.n; i++) {
        if (!d->cell_runs.items[i].text.len) continue;
        any = 1;
        if (!d->cell_runs.items[i].bold) bold = 0;
    }
    c->all_bold = bold;
    c->span = d->cell_span > 1 && d->cell_span <= 64 ? d->cell_span : 1;
    c->vm = d->cell_vm;
    memcpy(c->fill, d->cell_fill, sizeof c->fill);
    c->rows = 1;
    c->gone = 0;
    (void)any;
    c->json = cell_json(d, 0);
    c->json_header = cell_json(d, 1);
    c->align = d->cell_jc;
    c->number = c->json && (c->json[0] == '-' || (c->json[0] >= '0' && c->json[0] <= '9'));
    qr_rd_runs_reset(&d->cell_runs);
    d->cell_paras = 0;
    d->cell_right = 0;
    d->cell_jc = 0;
}

/* The grid columns a row covers: skipped columns and spans included. */
static size_t row_width(const row *rw)
{
    size_t w = (size_t)(rw->before + rw->after);
    for (size_t c = 0; c < rw->n; c++)
        w += (size_t)rw->cells[c].span;
    return w;
}

/* A cell as a spec cell: its value, or a cell object with "colspan" and
 * "rowspan" when it spans (a number or an empty cell becomes its text). */
static void put_cell(qr_buf *b, const cell *c, int header)
{
    const char *v = header ? c->json_header : c->json;
    if (c->span == 1 && c->rows == 1 && (header || !c->fill[0]) && !c->xalign) {
        qr_buf_puts(b, v);
        return;
    }
    size_t n = strlen(v);
    if (v[0] == '{') {
        qr_buf_append(b, v, n - 1);
    } else {
        qr_buf_puts(b, "{\"text\":");
        if (v[0] == '"')
            qr_buf_puts(b, v);
        else if (strcmp(v, "null") == 0)
            qr_buf_puts(b, "\"\"");
        else
            qr_buf_json_str(b, v, n, 0);
    }
    if (c->span > 1) qr_buf_printf(b, ",\"colspan\":%ld", c->span);
    if (c->rows > 1) qr_buf_printf(b, ",\"rowspan\":%ld", c->rows);
    /* a header row's shading is the theme's, not the spec's */
    if (!header && c->fill[0]) qr_buf_printf(b, ",\"fill\":\"%s\"", c->fill);
    static const char *const aligns[] = {"", "left", "center", "right"};
    if (c->xalign) qr_buf_printf(b, ",\"align\":\"%s\"", aligns[(int)c->xalign]);
    qr_buf_putc(b, '}');
}

/* A row on the table's grid of n columns, as the spec has it: a spanning
 * cell is one cell object, skipped columns (w:gridBefore/After) are empty
 * cells, and the positions a rowspan above covers are left out. */
static void emit_row(qr_buf *b, const row *rw, int header, size_t n)
{
    size_t k = 0, out = 0;
    qr_buf_putc(b, '[');
    for (long i = 0; i < rw->before && k < n; i++, k++)
        qr_buf_puts(b, out++ ? ",null" : "null");
    for (size_t c = 0; c < rw->n && k < n; c++) {
        const cell *x = &rw->cells[c];
        size_t span = (size_t)x->span;
        if (k + span > n) span = n - k;
        k += span;
        if (x->gone) continue;
        if (out++) qr_buf_putc(b, ',');
        put_cell(b, x, header);
    }
    while (k < n) {
        qr_buf_puts(b, out++ ? ",null" : "null");
        k++;
    }
    qr_buf_putc(b, ']');
}

/* The cell of row rw that starts at grid column col, or NULL. */
static cell *cell_at(row *rw, long col)
{
    long k = rw->before;
    for (size_t c = 0; c < rw->n; c++) {
        if (k == col) return &rw->cells[c];
        if (k > col) break;
        k += rw->cells[c].span;
    }
    return NULL;
}

/* Rowspans from w:vMerge within the rows [from, to) (the header row and
 * the body apart, as the spec's header cells span header rows only): a
 * restart spans the continues below it on its column with its span; a
 * continue without one above stays an empty cell. */
static void rowspans(row *rows, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        long col = rows[i].before;
        for (size_t c = 0; c < rows[i].n; c++) {
            cell *x = &rows[i].cells[c];
            if (x->vm == 1) {
                for (size_t r = i + 1; r < to; r++) {
                    cell *y = cell_at(&rows[r], col);
                    if (!y || y->vm != 2 || y->span != x->span) break;
                    y->gone = 1;
                    x->rows++;
                }
            }
            col += x->span;
        }
    }
}

/* The columns' and cells' alignment (issue 32), as quire's writer makes
 * it: a cell's w:jc is its own align, else its column's, else right for
 * a number and none for the rest. Per grid column the align (none, left,
 * center, right) that leaves the fewest cells needing their own is the
 * column's (none first on a tie); those cells get theirs (xalign). A
 * cell with no w:jc cannot say its own: a column that would need one is
 * not chosen (one a rowspan covers counts as any other: it is not
 * written, and LibreOffice writes left on it). col: n entries, 0 none,
 * 1..3 left, center, right. */
static void col_aligns(row *rows, size_t n_rows, size_t n, int *col)
{
    for (size_t k = 0; k < n; k++)
        col[k] = 0;
    if (n > 64) return;
    long cost[64][4];
    memset(cost, 0, sizeof cost);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n_rows; i++) {
            row *rw = &rows[i];
            size_t k = rw->before > 0 ? (size_t)rw->before : 0;
            for (size_t c = 0; c < rw->n && k < n; c++) {
                cell *x = &rw->cells[c];
                int want = x->align == 'l' ? 1 : x->align == 'c' ? 2 : x->align == 'r' ? 3 : 0;
                for (int a = 0; a < 4; a++) {
                    int got = a ? a : x->number ? 3 : 0;
                    if (pass == 0 && got != want) cost[k][a] += want == 0 && !x->gone ? 100000 : 1;
                    if (pass == 1 && a == col[k]) x->xalign = got != want ? (char)want : 0;
                }
                k += (size_t)(x->span > 0 ? x->span : 1);
            }
        }
        for (size_t k = 0; pass == 0 && k < n; k++)
            for (int a = 1; a < 4; a++)
                if (cost[k][a] < cost[k][col[k]]) col[k] = a;
    }
}

static void put_col_align(qr_buf *b, const int *col, size_t n)
{
    static const char *const names[] = {"null", "\"left\"", "\"center\"", "\"right\""};
    int any = 0;
    for (size_t k = 0; k < n; k++)
        any |= col[k] != 0;
    if (!any) return;
    qr_buf_puts(b, ",\"align\":[");
    for (size_t k = 0; k < n; k++)
        qr_buf_printf(b, "%s%s", k ? "," : "", names[col[k]]);
    qr_buf_putc(b, ']');
}

static void end_table(dx *d)
{
    flush_list(d);
    /* a caption paragraph right before the table is its caption */
    int cap = d->cap_end && d->cap_end == d->blocks.len && d->cap_value.len;
    if (cap) {
        d->blocks.len = d->cap_start;
        d->n_blocks = d->cap_nblocks;
    }
    d->cap_end = 0;
    names_move(&d->bm_pending, &d->bm_table);
    block_sep(d);
    qr_buf *b = &d->blocks;
    qr_buf_puts(b, "{\"type\":\"table\"");
    if (cap) {
        qr_buf_puts(b, ",\"caption\":");
        qr_buf_append(b, d->cap_value.data, d->cap_value.len);
    }
    /* The columns: the grid's (w:tblGrid), or the widest row's when a row
     * runs past it. */
    size_t n = d->n_grid;
    for (size_t i = 0; i < d->n_rows; i++) {
        size_t w = row_width(&d->rows[i]);
        if (w > n) n = w;
    }
    if (n == 0) n = 1;
    /* The header rows: the leading rows marked w:tblHeader (the first one
     * the spec's "headers", all of them its "header_rows"), else a bold
     * first row. */
    size_t first = 0, hr = 0;
    while (hr < d->n_rows && d->rows[hr].header)
        hr++;
    if (hr == 0 && d->n_rows > 1) {
        row *h = &d->rows[0];
        int bold = h->n > 0;
        for (size_t c = 0; c < h->n; c++)
            if (!h->cells[c].all_bold && strcmp(h->cells[c].json, "null") != 0) bold = 0;
        hr = (size_t)bold;
    }
    first = hr ? 1 : 0;
    rowspans(d->rows, 0, hr);
    rowspans(d->rows, hr, d->n_rows);
    int *col = malloc(n * sizeof *col);
    if (!col) {
        b->oom = 1;
        return;
    }
    col_aligns(d->rows, d->n_rows, n, col);
    if (first) {
        qr_buf_puts(b, ",\"headers\":");
        emit_row(b, &d->rows[0], 1, n);
    }
    if (hr > 1) qr_buf_printf(b, ",\"header_rows\":%zu", hr);
    qr_buf_puts(b, ",\"rows\":[");
    for (size_t i = first; i < d->n_rows; i++) {
        if (i > first) qr_buf_putc(b, ',');
        emit_row(b, &d->rows[i], i < hr, n);
    }
    qr_buf_putc(b, ']');
    put_col_align(b, col, n);
    free(col);
    /* Widths when the grid is uneven, as ratios to the narrowest column. */
    int even = 1;
    double min = 0;
    for (size_t i = 0; i < d->n_grid; i++) {
        if (d->grid[i] <= 0)
            even = 1, i = d->n_grid;
        else if (fabs(d->grid[i] - d->grid[0]) > 2)
            even = 0;
        if (i < d->n_grid && (min == 0 || d->grid[i] < min)) min = d->grid[i];
    }
    if (!even && min > 0 && d->n_grid == n) qr_rd_put_widths(b, d->grid, d->n_grid, min);
    qr_buf_putc(b, '}');
    for (size_t i = 0; i < d->n_rows; i++) {
        for (size_t c = 0; c < d->rows[i].n; c++) {
            free(d->rows[i].cells[c].json);
            free(d->rows[i].cells[c].json_header);
        }
        free(d->rows[i].cells);
    }
    d->n_rows = 0;
    d->n_grid = 0;
}

/* ---- footnotes and endnotes ------------------------------------------------------ */

/* A notes part (word/footnotes.xml, word/endnotes.xml): each note's text,
 * paragraphs joined by a line feed, as the JSON value of a footnote run (a
 * string, or an array of runs with their flags). Word's separator notes
 * (w:type) are not notes. */
typedef struct note {
    long id;
    char *json;
} note;

typedef struct notes {
    note *items;
    size_t n, cap;
    int used;     /* references read */
    int internal; /* a note links to a bookmark */
} notes;

static void notes_put(notes *ns, long id, qr_rd_runs *rs)
{
    if (ns->n == ns->cap) {
        size_t cap = ns->cap ? ns->cap * 2 : 16;
        note *ni = realloc(ns->items, cap * sizeof *ni);
        if (!ni) return;
        ns->items = ni;
        ns->cap = cap;
    }
    /* the writer's space after the mark is not the note's */
    if (rs->n && rs->items[0].text.len && rs->items[0].text.data[0] == ' ') {
        qr_buf *t = &rs->items[0].text;
        memmove(t->data, t->data + 1, t->len);
        t->len--;
    }
    qr_buf j = {0};
    qr_rd_runs_json(rs, &j);
    /* "text":"..." or "runs":[...]: the value after the key */
    const char *v = j.data ? strchr(j.data, ':') : NULL;
    ns->items[ns->n].id = id;
    ns->items[ns->n].json = v ? strdup(v + 1) : strdup("\"\"");
    ns->n++;
    qr_buf_free(&j);
}

static const char *notes_get(const notes *ns, long id)
{
    for (size_t i = 0; i < ns->n; i++)
        if (ns->items[i].id == id) return ns->items[i].json;
    return NULL;
}

static void notes_free(notes *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        free(ns->items[i].json);
    free(ns->items);
    memset(ns, 0, sizeof *ns);
}

static qr_status notes_read(qr_rd *r, const char *part, const char *el, notes *ns)
{
    if (!part || !qr_rd_zip_has(r, part)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    qr_rd_rels rels = {0};
    st = qr_rd_rels_read(r, part, &rels);
    if (st != QR_OK) {
        free(data);
        return st;
    }
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    qr_rd_runs rs = {0};
    qr_rd_run f = {0};
    long id = 0;
    int in_note = 0, in_t = 0, in_rpr = 0, paras = 0;
    char *link = NULL; /* the open hyperlink's target, "\1#name" for a bookmark */
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            int empty = xmlTextReaderIsEmptyElement(x);
            if (qr_rd_is(x, el)) {
                char *t = qr_rd_attr(x, "type");
                in_note = !empty && (!t || strcmp(t, "normal") == 0);
                xmlFree(t);
                id = qr_rd_attr_long(x, "id", 0);
                qr_rd_runs_reset(&rs);
                paras = 0;
            } else if (!in_note) {
                continue;
            } else if (qr_rd_is(x, "p")) {
                if (paras++) {
                    qr_rd_run plain = {0};
                    qr_rd_runs_add(&rs, "\n", 1, &plain);
                }
            } else if (qr_rd_is(x, "r")) {
                memset(&f, 0, sizeof f);
                f.link = link;
            } else if (qr_rd_is(x, "hyperlink") && !empty) {
                /* a link in a note: to a URL, or to a bookmark (docx_links.c) */
                char *rid = qr_rd_attr(x, "id"), *a = qr_rd_attr(x, "anchor");
                const qr_rd_rel *rel = qr_rd_rels_get(&rels, rid);
                free(link);
                link = NULL;
                if (rel && rel->external && qr_link_ok(rel->target)) {
                    link = strdup(rel->target);
                } else if (a && *a && (link = malloc(strlen(a) + 3))) {
                    link[0] = '\1';
                    link[1] = '#';
                    strcpy(link + 2, a);
                    ns->internal = 1;
                }
                xmlFree(rid);
                xmlFree(a);
            } else if (qr_rd_is(x, "rPr")) {
                in_rpr = !empty;
            } else if (in_rpr && qr_rd_is(x, "rFonts")) {
                char *fam = qr_rd_attr(x, "ascii");
                if (fam && qr_rd_mono_font(fam)) f.code = 1;
                xmlFree(fam);
            } else if (in_rpr && qr_rd_is(x, "color")) {
                char *v = qr_rd_attr(x, "val");
                f.color = f.link || hex_color(v) == QR_RGB_SET ? 0 : hex_color(v);
                xmlFree(v);
            } else if (in_rpr && qr_rd_is(x, "shd")) {
                char *v = qr_rd_attr(x, "fill");
                f.highlight = f.code ? 0 : hex_color(v);
                xmlFree(v);
            } else if (in_rpr && qr_rd_is(x, "b")) {
                f.bold = qr_rd_attr_on(x);
            } else if (in_rpr && qr_rd_is(x, "i")) {
                f.italic = qr_rd_attr_on(x);
            } else if (in_rpr && (qr_rd_is(x, "strike") || qr_rd_is(x, "dstrike"))) {
                f.strike = qr_rd_attr_on(x);
            } else if (in_rpr && qr_rd_is(x, "u")) {
                f.underline = qr_rd_attr_on(x);
            } else if (in_rpr && qr_rd_is(x, "vertAlign")) {
                char *v = qr_rd_attr(x, "val");
                f.sup = v && strcmp(v, "superscript") == 0;
                f.sub = v && strcmp(v, "subscript") == 0;
                xmlFree(v);
            } else if (qr_rd_is(x, "t")) {
                in_t = !empty;
            } else if (qr_rd_is(x, "tab")) {
                qr_rd_runs_add(&rs, "\t", 1, &f);
            } else if (qr_rd_is(x, "br")) {
                qr_rd_runs_add(&rs, "\n", 1, &f);
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "rPr")) in_rpr = 0;
            if (qr_rd_is(x, "t")) in_t = 0;
            if (qr_rd_is(x, "hyperlink")) {
                free(link);
                link = f.link = NULL;
            }
            if (in_note && qr_rd_is(x, el)) {
                notes_put(ns, id, &rs);
                in_note = 0;
            }
        } else if (in_note && in_t) {
            const char *s = (const char *)xmlTextReaderConstValue(x);
            if (s) qr_rd_runs_add(&rs, s, strlen(s), &f);
        }
    }
    qr_rd_runs_free(&rs);
    qr_rd_rels_free(&rels);
    free(link);
    st = qr_rd_xml_free(r, x);
    free(data);
    return st;
}

/* ---- comments, headers and footers ------------------------------------------------ */

/* A part's text: its w:t strings, paragraphs joined by a line feed; *count:
 * the elements named el (comments). */
static qr_status part_text(qr_rd *r, const char *part, const char *el, qr_buf *out, long *count)
{
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    int in_t = 0, paras = 0;
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            if (el && qr_rd_is(x, el)) (*count)++;
            if (qr_rd_is(x, "p") && paras++) qr_buf_putc(out, '\n');
            if (qr_rd_is(x, "tab")) qr_buf_putc(out, '\t');
            in_t = qr_rd_is(x, "t") && !xmlTextReaderIsEmptyElement(x);
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            in_t = 0;
        } else if (in_t) {
            const char *t = (const char *)xmlTextReaderConstValue(x);
            if (t) qr_buf_puts(out, t);
        }
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    return st;
}

static long count_words(const char *s, size_t n)
{
    long w = 0;
    int in = 0;
    for (size_t i = 0; i < n; i++) {
        int sp = s[i] == ' ' || s[i] == '\n' || s[i] == '\t';
        if (!sp && !in) w++;
        in = !sp;
    }
    return w;
}

/* Whether a header's text is only a page number (a PAGE field's result, "3 / 12"). */
static int only_number(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789 \t\n/-.,:|()", s[i])) return 0;
    return 1;
}

/* A header or footer part as a page template (layout/furniture.h): its
 * text, a PAGE field as {page} and a NUMPAGES field as {pages} (simple
 * fields and complex ones: begin, instruction, separate, result, end);
 * other fields keep their shown result. Paragraphs are joined by a space
 * (a template is one line). */
static qr_status part_template(qr_rd *r, const char *part, qr_buf *out)
{
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    int in_t = 0, in_instr = 0, paras = 0;
    int skip = 0; /* depth inside a known simple field (its cached result) */
    int fld = 0;  /* complex field: 1 instruction, 2 result shown, 3 result hidden */
    qr_buf instr = {0};
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            int empty = xmlTextReaderIsEmptyElement(x);
            if (skip) {
                skip += !empty;
                continue;
            }
            if (qr_rd_is(x, "p") && paras++) qr_buf_putc(out, ' ');
            if (qr_rd_is(x, "tab")) qr_buf_putc(out, ' ');
            in_t = qr_rd_is(x, "t") && !empty && fld != 1 && fld != 3;
            in_instr = qr_rd_is(x, "instrText") && !empty && fld == 1;
            if (qr_rd_is(x, "fldSimple")) {
                char *in = qr_rd_attr(x, "instr");
                const char *f = NULL;
                if (in) {
                    const char *w = in + strspn(in, " ");
                    size_t n = strcspn(w, " \\");
                    if (n == 4 && !strncasecmp(w, "PAGE", 4)) f = "{page}";
                    if (n == 8 && !strncasecmp(w, "NUMPAGES", 8)) f = "{pages}";
                }
                xmlFree(in);
                if (f) {
                    qr_buf_puts(out, f);
                    skip = !empty;
                }
            } else if (qr_rd_is(x, "fldChar")) {
                char *t = qr_rd_attr(x, "fldCharType");
                if (t && !strcmp(t, "begin")) {
                    fld = 1;
                    instr.len = 0;
                } else if (t && (!strcmp(t, "separate") || !strcmp(t, "end")) && fld == 1) {
                    qr_buf_putc(&instr, '\0');
                    const char *w = instr.oom ? "" : instr.data + strspn(instr.data, " ");
                    size_t n = strcspn(w, " \\");
                    const char *f = n == 4 && !strncasecmp(w, "PAGE", 4)       ? "{page}"
                                    : n == 8 && !strncasecmp(w, "NUMPAGES", 8) ? "{pages}"
                                                                               : NULL;
                    if (f) qr_buf_puts(out, f);
                    fld = strcmp(t, "end") == 0 ? 0 : f ? 3 : 2;
                } else if (t && !strcmp(t, "end")) {
                    fld = 0;
                }
                xmlFree(t);
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (skip) skip--;
            in_t = in_instr = 0;
        } else if (in_t || in_instr) {
            const char *t = (const char *)xmlTextReaderConstValue(x);
            if (t) qr_buf_puts(in_instr ? &instr : out, t);
        }
    }
    qr_buf_free(&instr);
    st = qr_rd_xml_free(r, x);
    free(data);
    /* trimmed */
    size_t a = 0;
    while (a < out->len && out->data[a] == ' ')
        a++;
    memmove(out->data ? out->data : (char *)"", out->data ? out->data + a : "", out->len - a);
    out->len -= a;
    while (out->len && out->data[out->len - 1] == ' ')
        out->len--;
    qr_buf_putc(out, '\0');
    return out->oom ? qr_fail(QR_E_NOMEM) : st;
}

/* Whether settings.xml turns on even pages' own headers and footers
 * (w:evenAndOddHeaders, not switched off by its w:val). */
static int even_and_odd(dx *d)
{
    const qr_rd_rel *set = qr_rd_rels_type(&d->rels, "/settings");
    const char *part = set && !set->external ? set->target : "word/settings.xml";
    char *data;
    size_t len;
    if (!qr_rd_zip_has(d->r, part) || qr_rd_zip_read(d->r, part, &data, &len) != QR_OK) return 0;
    int on = 0;
    for (size_t i = 0; i + 17 <= len; i++) {
        if (data[i] != 'e' || memcmp(data + i, "evenAndOddHeaders", 17) != 0) continue;
        const char *p = data + i, *gt = memchr(p, '>', len - i);
        size_t n = gt ? (size_t)(gt - p) : 0;
        char el[128];
        snprintf(el, sizeof el, "%.*s", (int)(n < sizeof el ? n : sizeof el - 1), p);
        on = !strstr(el, "val=\"0\"") && !strstr(el, "val=\"false\"") && !strstr(el, "val=\"off\"");
        break;
    }
    free(data);
    return on;
}

/* How many bytes of txt a warning shows: at most 120, cut at a character's start. */
static size_t shown_len(const char *txt, size_t len)
{
    size_t show = len;
    if (show > 120) {
        show = 120;
        while (show > 0 && ((unsigned char)txt[show] & 0xC0) == 0x80)
            show--;
    }
    return show;
}

/* The first page's and the even pages' own headers and footers (w:titlePg,
 * settings' w:evenAndOddHeaders). A spec's page 1 is like the others or
 * bare (first_page: false), and its pages share one header and footer: a
 * first page unlike the others reads as bare, with a warning for each of
 * its parts that has text; even pages unlike the odd ones read as the odd
 * ones, with a warning naming the even part and its text. t holds the
 * templates (first header, first footer, even header, even footer), part
 * their part names (NULL: none). */
static qr_status first_and_even(dx *d, qr_buf *t, const char **part)
{
    const char *def[2] = {d->has_header && d->tpl_header.data ? d->tpl_header.data : "",
                          d->has_footer && d->tpl_footer.data ? d->tpl_footer.data : ""};
    const char *tx[4];
    for (int k = 0; k < 4; k++) {
        if (t[k].oom) return qr_fail(QR_E_NOMEM);
        tx[k] = part[k] && t[k].data ? t[k].data : "";
    }
    static const char *const what[2] = {"header", "footer"};
    if (d->title_pg && (strcmp(tx[0], def[0]) || strcmp(tx[1], def[1]))) {
        d->first_bare = 1;
        for (int k = 0; k < 2; k++) {
            if (!*tx[k] || !strcmp(tx[k], def[k])) continue;
            size_t len = strlen(tx[k]), show = shown_len(tx[k], len);
            qr_errlist_addf(d->r->warns, QR_OK, part[k],
                            "a spec's first page is like the others or bare (first_page: false)",
                            "%s: the first page's own %s \"%.*s%s\" not read (page 1 reads as "
                            "bare: first_page: false)",
                            part[k], what[k], (int)show, tx[k], show < len ? "..." : "");
        }
    }
    if (!(part[2] || part[3]) || !even_and_odd(d)) return QR_OK;
    for (int k = 0; k < 2; k++) {
        if (!part[2 + k] || !strcmp(tx[2 + k], def[k])) continue;
        size_t len = strlen(tx[2 + k]), show = shown_len(tx[2 + k], len);
        qr_errlist_addf(
            d->r->warns, QR_OK, part[2 + k], "a spec's pages share one header and one footer",
            "%s: the even pages' own %s \"%.*s%s\" not read (they read as the odd "
            "pages' \"%.40s\")",
            part[2 + k], what[k], (int)show, tx[2 + k], show < len ? "..." : "", def[k]);
    }
    return QR_OK;
}

/* Comments, page headers and footers: a document spec has no place for
 * them, so each is a warning that names its part and gives its text (a
 * header's, shortened) or counts them (comments); none is dropped without a
 * word. A header that is only a page number, or one with the text of one
 * already named, adds nothing. */
static qr_status side_parts(dx *d)
{
    qr_rd *r = d->r;
    qr_buf seen = {0}; /* the texts named, each ending in a NUL */
    qr_status st = QR_OK;
    /* the first page's header and footer, the even pages': templates and parts */
    qr_buf other[4] = {{0}};
    const char *other_part[4] = {NULL};
    for (size_t i = 0; i < d->rels.n && st == QR_OK; i++) {
        const qr_rd_rel *rel = &d->rels.items[i];
        size_t tl = strlen(rel->type);
        int header = tl >= 7 && strcmp(rel->type + tl - 7, "/header") == 0;
        int footer = tl >= 7 && strcmp(rel->type + tl - 7, "/footer") == 0;
        int comments = tl >= 9 && strcmp(rel->type + tl - 9, "/comments") == 0;
        if ((!header && !footer && !comments) || rel->external || !qr_rd_zip_has(r, rel->target))
            continue;
        /* the body's own header and footer: the page's templates */
        const char *own = header ? d->hdr_rid : footer ? d->ftr_rid : NULL;
        if (own && rel->id && !strcmp(own, rel->id)) {
            qr_buf *tb = header ? &d->tpl_header : &d->tpl_footer;
            tb->len = 0;
            st = part_template(r, rel->target, tb);
            if (st != QR_OK) break;
            *(header ? &d->has_header : &d->has_footer) = 1;
            continue;
        }
        /* the first page's and the even pages' parts: compared below */
        int slot = -1;
        for (int k = 0; k < 4 && rel->id && (header || footer); k++) {
            const char *id = k < 2 ? d->first_rid[k] : d->even_rid[k - 2];
            if (id && !strcmp(id, rel->id) && k % 2 == (footer ? 1 : 0)) slot = k;
        }
        if (slot >= 0) {
            qr_buf *tb = &other[slot];
            tb->len = 0;
            st = part_template(r, rel->target, tb);
            other_part[slot] = rel->target;
            continue;
        }
        qr_buf t = {0};
        long n = 0;
        st = part_text(r, rel->target, comments ? "comment" : NULL, &t, &n);
        if (st != QR_OK || t.oom) {
            qr_buf_free(&t);
            break;
        }
        /* trim the text's ends */
        size_t a = 0, z = t.len;
        while (a < z && strchr(" \t\n", t.data[a]))
            a++;
        while (z > a && strchr(" \t\n", t.data[z - 1]))
            z--;
        const char *txt = t.data ? t.data + a : "";
        size_t len = z - a;
        if (comments && n > 0) {
            long w = count_words(txt, len);
            qr_errlist_addf(r->warns, QR_OK, rel->target, "a document spec has no comments",
                            "%s: %ld comment%s (%ld word%s) not read", rel->target, n,
                            n == 1 ? "" : "s", w, w == 1 ? "" : "s");
        } else if (!comments && len && !only_number(txt, len)) {
            int dup = 0;
            for (size_t k = 0; k < seen.len; k += strlen(seen.data + k) + 1)
                if (strlen(seen.data + k) == len && memcmp(seen.data + k, txt, len) == 0) dup = 1;
            if (!dup) {
                qr_buf_append(&seen, txt, len);
                qr_buf_putc(&seen, '\0');
                /* at most 120 bytes of it, cut at a character's start */
                size_t show = len;
                if (show > 120) {
                    show = 120;
                    while (show > 0 && ((unsigned char)txt[show] & 0xC0) == 0x80)
                        show--;
                }
                for (size_t k = 0; k < show; k++)
                    if (t.data[a + k] == '\n' || t.data[a + k] == '\t') t.data[a + k] = ' ';
                qr_errlist_addf(r->warns, QR_OK, rel->target,
                                header ? "a document spec has no page header"
                                       : "a document spec has no page footer",
                                "%s: the page %s \"%.*s%s\" not read", rel->target,
                                header ? "header" : "footer", (int)show, txt,
                                show < len ? "..." : "");
            }
        }
        qr_buf_free(&t);
    }
    qr_buf_free(&seen);
    if (st == QR_OK) st = first_and_even(d, other, other_part);
    for (int k = 0; k < 4; k++)
        qr_buf_free(&other[k]);
    return st;
}

/* ---- the body ------------------------------------------------------------------ */

/* core.xml's author, subject, keywords and creation date (issue 32). */
typedef struct core_props {
    char *v[4]; /* dc:creator, dc:subject, cp:keywords, dcterms:created */
} core_props;

static int core_prop(xmlTextReaderPtr x, void *arg)
{
    static const char *const names[4] = {"creator", "subject", "keywords", "created"};
    core_props *c = arg;
    for (int k = 0; k < 4; k++) {
        if (c->v[k] || !qr_rd_is(x, names[k])) continue;
        xmlChar *t = xmlTextReaderReadString(x);
        if (t && *t) c->v[k] = strdup((const char *)t);
        xmlFree(t);
    }
    return 0;
}

/* ,"properties":{...} from core.xml: the author unless it is "quire" (what
 * quire writes for none), keywords quire joined with ", " as a list, the
 * creation date (a date alone at midnight UTC) unless it is the date quire
 * writes for a spec without one. */
static void write_properties(qr_rd *r, qr_buf *b)
{
    const char *name = "docProps/core.xml";
    core_props c = {{NULL}};
    if (!qr_rd_zip_has(r, name) || qr_rd_part_elements(r, name, core_prop, &c) != QR_OK) {
        for (int k = 0; k < 4; k++)
            free(c.v[k]);
        return;
    }
    char fixed[32];
    qr_format_epoch(qr_output_epoch(), fixed, sizeof fixed);
    if (c.v[0] && !strcmp(c.v[0], "quire")) free(c.v[0]), c.v[0] = NULL;
    if (c.v[3] &&
        (!strcmp(c.v[3], fixed) || strlen(c.v[3]) != 20 || c.v[3][10] != 'T' || c.v[3][19] != 'Z'))
        free(c.v[3]), c.v[3] = NULL;
    if (c.v[3] && !strcmp(c.v[3] + 10, "T00:00:00Z")) c.v[3][10] = '\0';
    int any = 0;
    static const char *const keys[4] = {"author", "subject", "keywords", "date"};
    for (int k = 0; k < 4; k++) {
        if (!c.v[k]) continue;
        qr_buf_puts(b, any ? ",\"" : ",\"properties\":{\"");
        qr_buf_puts(b, keys[k]);
        qr_buf_puts(b, "\":");
        any = 1;
        if (k == 2 && strstr(c.v[k], ", ")) {
            qr_buf_putc(b, '[');
            for (const char *p = c.v[k], *e;; p = e + 2) {
                e = strstr(p, ", ");
                size_t n = e ? (size_t)(e - p) : strlen(p);
                if (p != c.v[k]) qr_buf_putc(b, ',');
                qr_buf_json_str(b, p, n, 0);
                if (!e) break;
            }
            qr_buf_putc(b, ']');
        } else {
            qr_buf_json_str(b, c.v[k], strlen(c.v[k]), 0);
        }
    }
    if (any) qr_buf_putc(b, '}');
    for (int k = 0; k < 4; k++)
        free(c.v[k]);
}

/* The marked link "\1#name" for an internal link to name (d->anchor). */
static char *set_anchor(dx *d, const char *name, size_t n)
{
    char *a = realloc(d->anchor, n + 3);
    if (!a) return NULL;
    d->anchor = a;
    a[0] = '\1';
    a[1] = '#';
    memcpy(a + 2, name, n);
    a[n + 2] = '\0';
    d->internal = 1;
    return a;
}

static void run_reset(dx *d)
{
    memset(&d->flags, 0, sizeof d->flags);
    d->flags.link = d->link;
}

static void add_text(dx *d, const char *s, size_t n)
{
    qr_rd_run f = d->flags;
    f.link = d->link;
    if (!f.code && d->rstyle && qr_rd_style_mono(&d->styles, d->rstyle)) f.code = 1;
    if (!f.bold && d->rstyle && qr_rd_style_bold(&d->styles, d->rstyle)) f.bold = 1;
    if (f.code) f.highlight = 0; /* a code run's ground is the code's */
    if (f.link) f.color = 0;     /* a link's colour is the link's */
    if (d->math && d->n_script) {
        int sc = d->script[d->n_script - 1];
        f.sub = sc == 1;
        f.sup = sc == 2;
    }
    qr_rd_runs_add(&d->runs, s, n, &f);
}

/* An element as the SAX parser hands it: local name and attributes. */
typedef struct node {
    const char *local;
    int nattr;
    const xmlChar **attrs;
} node;

static int is(const node *x, const char *local)
{
    return strcmp(x->local, local) == 0;
}

/* An attribute by local name as a copy (xmlFree it), or NULL. */
static char *attr_dup(const node *x, const char *local)
{
    size_t len;
    const char *v = qr_rd_sax_attr(x->nattr, x->attrs, local, &len);
    char *c = v ? (char *)xmlStrndup((const xmlChar *)v, (int)len) : NULL;
    if (c) qr_rd_sax_amp(c, len);
    return c;
}

static long attr_long(const node *x, const char *local, long def)
{
    char buf[32];
    size_t len;
    const char *v = qr_rd_sax_attr(x->nattr, x->attrs, local, &len);
    if (!v || len >= sizeof buf) return def;
    memcpy(buf, v, len);
    buf[len] = '\0';
    char *end;
    long n = strtol(buf, &end, 10);
    return end == buf ? def : n;
}

/* w:b and kin: absent val = on. */
static int attr_on(const node *x)
{
    size_t len;
    const char *v = qr_rd_sax_attr(x->nattr, x->attrs, "val", &len);
    if (!v) return 1;
    return !((len == 1 && v[0] == '0') || (len == 5 && memcmp(v, "false", 5) == 0) ||
             (len == 3 && memcmp(v, "off", 3) == 0) || (len == 4 && memcmp(v, "none", 4) == 0));
}

/* ---- equations ------------------------------------------------------------------ */

/* OMML as linear text that keeps every symbol: runs as written, sub- and
 * superscripts (m:sSub, m:sSup, a n-ary's limits, m:limLow/m:limUpp, a
 * radical's degree) as sub/sup runs, a n-ary operator as its character
 * (m:chr, default the integral), a fraction as (num)/(den), a radical as
 * √(...), delimiters as their characters (default parentheses, m:sepChr
 * between parts). */
static void math_put(dx *d, const char *s)
{
    qr_rd_run keep = d->flags;
    memset(&d->flags, 0, sizeof d->flags);
    add_text(d, s, strlen(s));
    d->flags = keep;
}

static void math_val(const node *x, char out[8])
{
    size_t len;
    const char *v = qr_rd_sax_attr(x->nattr, x->attrs, "val", &len);
    if (v && len < 8) {
        memcpy(out, v, len);
        out[len] = '\0';
    }
}

static struct mst *math_top(dx *d, int up)
{
    return d->n_mst > up ? &d->mst[d->n_mst - 1 - up] : NULL;
}

/* A pending n-ary operator or opening delimiter is written before the
 * parent's first child with content. */
static void math_flush(dx *d, struct mst *m)
{
    if (m && m->pending) {
        m->pending = 0;
        math_put(d, m->beg);
    }
}

static void math_start(dx *d, const node *x)
{
    struct mst *parent = math_top(d, 0);
    const char *pn = parent ? parent->name : "";
    if (is(x, "chr") && parent && strcmp(pn, "naryPr") == 0) {
        struct mst *nary = math_top(d, 1);
        if (nary) math_val(x, nary->beg);
    } else if ((is(x, "begChr") || is(x, "endChr") || is(x, "sepChr")) && parent &&
               strcmp(pn, "dPr") == 0) {
        struct mst *dl = math_top(d, 1);
        if (dl) {
            char *f = is(x, "begChr") ? dl->beg : is(x, "endChr") ? dl->end : dl->sep;
            f[0] = '\0';
            math_val(x, f);
        }
    }
    if (parent && strcmp(pn, "naryPr") != 0 && strcmp(pn, "dPr") != 0 && !is(x, "naryPr") &&
        !is(x, "dPr") && !is(x, "ctrlPr"))
        math_flush(d, parent);
    int sc = 0;
    if (is(x, "sub") || (is(x, "lim") && parent && strcmp(pn, "limLow") == 0))
        sc = 1;
    else if (is(x, "sup") || is(x, "deg") || (is(x, "lim") && parent && strcmp(pn, "limUpp") == 0))
        sc = 2;
    if (sc && d->n_script < 16) d->script[d->n_script++] = sc;
    if (is(x, "num") && parent && strcmp(pn, "f") == 0) math_put(d, "(");
    if (is(x, "den") && parent && strcmp(pn, "f") == 0) math_put(d, "/(");
    if (is(x, "e") && parent && strcmp(pn, "rad") == 0) math_put(d, "\xe2\x88\x9a(");
    if (is(x, "e") && parent && strcmp(pn, "d") == 0 && parent->kids++) math_put(d, parent->sep);
    if (d->n_mst == 32) return;
    struct mst *m = &d->mst[d->n_mst++];
    memset(m, 0, sizeof *m);
    snprintf(m->name, sizeof m->name, "%s", x->local);
    if (is(x, "nary")) {
        strcpy(m->beg, "\xe2\x88\xab"); /* the integral, unless m:chr says */
        m->pending = 1;
    } else if (is(x, "d")) {
        strcpy(m->beg, "(");
        strcpy(m->end, ")");
        strcpy(m->sep, "|");
        m->pending = 1;
    }
}

static void math_end(dx *d, const node *x)
{
    if (!d->n_mst) return;
    struct mst *m = &d->mst[d->n_mst - 1];
    if (strcmp(m->name, x->local) != 0) return; /* not one of ours */
    struct mst *parent = math_top(d, 1);
    const char *pn = parent ? parent->name : "";
    math_flush(d, m); /* an empty n-ary or delimiter still shows */
    if (is(x, "d")) math_put(d, m->end);
    d->n_mst--;
    if ((is(x, "sub") || is(x, "sup") || is(x, "deg") ||
         (is(x, "lim") && (strcmp(pn, "limLow") == 0 || strcmp(pn, "limUpp") == 0))) &&
        d->n_script)
        d->n_script--;
    if ((is(x, "num") || is(x, "den")) && strcmp(pn, "f") == 0) math_put(d, ")");
    if (is(x, "e") && strcmp(pn, "rad") == 0) math_put(d, ")");
}

static void element(dx *d, const node *x, int empty)
{
    if (is(x, "oMath")) {
        d->math++;
        d->n_mst = d->n_script = 0;
        return;
    }
    if (d->math && !is(x, "r") && !is(x, "t") && !is(x, "rPr")) {
        math_start(d, x);
        if (empty) math_end(d, x);
        return;
    }
    if (is(x, "p")) {
        para_reset(d);
    } else if (is(x, "pPr")) {
        d->in_ppr = !empty;
    } else if (is(x, "rPr")) {
        d->in_rpr = !empty && !d->in_ppr;
    } else if (d->in_ppr && is(x, "pStyle")) {
        xmlFree(d->pstyle);
        d->pstyle = attr_dup(x, "val");
    } else if (d->in_ppr && is(x, "numId")) {
        d->num_id = (int)attr_long(x, "val", 0);
        d->has_num = 1;
    } else if (d->in_ppr && is(x, "ilvl")) {
        d->ilvl = (int)attr_long(x, "val", 0);
    } else if (d->in_ppr && is(x, "outlineLvl")) {
        d->outline = (int)attr_long(x, "val", -1);
    } else if (d->in_ppr && is(x, "framePr")) {
        char *v = attr_dup(x, "dropCap");
        d->drop_cap = v && (strcmp(v, "drop") == 0 || strcmp(v, "margin") == 0);
        xmlFree(v);
    } else if (d->in_ppr && (is(x, "left") || is(x, "start"))) {
        /* a paragraph border's left side (w:pBdr): a callout's bar */
        char *v = attr_dup(x, "color");
        d->bar = v && strlen(v) == 6 && strspn(v, "0123456789abcdefABCDEF") == 6
                     ? strtol(v, NULL, 16)
                     : -1;
        xmlFree(v);
    } else if (d->in_ppr && is(x, "jc")) {
        char *v = attr_dup(x, "val");
        d->jc_right = v && (strcmp(v, "right") == 0 || strcmp(v, "end") == 0);
        d->jc = d->jc_right                                                ? 'r'
                : v && strcmp(v, "center") == 0                            ? 'c'
                : v && (strcmp(v, "left") == 0 || strcmp(v, "start") == 0) ? 'l'
                                                                           : 0;
        xmlFree(v);
    } else if (is(x, "r")) {
        d->in_run = !empty;
        run_reset(d);
        xmlFree(d->rstyle);
        d->rstyle = NULL;
    } else if (d->in_rpr && is(x, "rStyle")) {
        xmlFree(d->rstyle);
        d->rstyle = attr_dup(x, "val");
    } else if (d->in_rpr && is(x, "b")) {
        d->flags.bold = attr_on(x);
    } else if (d->in_rpr && is(x, "i")) {
        d->flags.italic = attr_on(x);
    } else if (d->in_rpr && is(x, "u")) {
        d->flags.underline = attr_on(x);
    } else if (d->in_rpr && is(x, "vertAlign")) {
        char *v = attr_dup(x, "val");
        d->flags.sup = v && strcmp(v, "superscript") == 0;
        d->flags.sub = v && strcmp(v, "subscript") == 0;
        xmlFree(v);
    } else if (d->in_rpr && is(x, "color")) {
        /* a colour (not "auto"; black, which LibreOffice writes on every
         * run, is the text's own) */
        char *v = attr_dup(x, "val");
        d->flags.color = hex_color(v);
        if (d->flags.color == QR_RGB_SET) d->flags.color = 0;
        xmlFree(v);
    } else if (d->in_rpr && is(x, "shd")) {
        /* a run's shading: its highlight (quire's code runs' ground is the code's) */
        char *v = attr_dup(x, "fill");
        d->flags.highlight = hex_color(v);
        xmlFree(v);
    } else if (d->in_rpr && is(x, "highlight")) {
        /* Word's highlighter colours by name */
        static const struct {
            const char *name;
            uint32_t rgb;
        } hl[] = {{"yellow", 0xFFFF00},      {"green", 0x00FF00},     {"cyan", 0x00FFFF},
                  {"magenta", 0xFF00FF},     {"blue", 0x0000FF},      {"red", 0xFF0000},
                  {"darkBlue", 0x000080},    {"darkCyan", 0x008080},  {"darkGreen", 0x008000},
                  {"darkMagenta", 0x800080}, {"darkRed", 0x800000},   {"darkYellow", 0x808000},
                  {"darkGray", 0x808080},    {"lightGray", 0xC0C0C0}, {"black", 0x000000},
                  {"white", 0xFFFFFF}};
        char *v = attr_dup(x, "val");
        for (size_t k = 0; v && k < sizeof hl / sizeof hl[0]; k++)
            if (!strcmp(v, hl[k].name)) d->flags.highlight = QR_RGB_SET | hl[k].rgb;
        xmlFree(v);
    } else if (d->in_rpr && (is(x, "strike") || is(x, "dstrike"))) {
        d->flags.strike = attr_on(x);
    } else if (d->in_rpr && is(x, "rFonts")) {
        char *f = attr_dup(x, "ascii");
        if (f && qr_rd_mono_font(f)) d->flags.code = 1;
        xmlFree(f);
    } else if (d->in_run && is(x, "t")) {
        d->in_t = !empty;
    } else if (d->in_run && is(x, "tab")) {
        add_text(d, "\t", 1);
    } else if (d->in_run && (is(x, "br") || is(x, "cr"))) {
        char *t = attr_dup(x, "type");
        if (t && strcmp(t, "page") == 0)
            d->page_break = 1;
        else if (!t || strcmp(t, "textWrapping") == 0)
            add_text(d, "\n", 1);
        xmlFree(t);
    } else if (d->in_run && (is(x, "footnoteReference") || is(x, "endnoteReference"))) {
        int foot = is(x, "footnoteReference");
        const char *j = notes_get(foot ? d->foot : d->end, attr_long(x, "id", 0));
        if (j) {
            qr_buf raw = {0};
            qr_buf_printf(&raw, "{\"footnote\":%s}", j);
            if (raw.data) qr_rd_runs_raw(&d->runs, raw.data);
            qr_buf_free(&raw);
            if (foot)
                d->n_foot++;
            else
                d->n_end++;
        }
    } else if (d->in_run && is(x, "noBreakHyphen")) {
        add_text(d, "-", 1);
    } else if (is(x, "hyperlink")) {
        char *rid = attr_dup(x, "id");
        const qr_rd_rel *rel = qr_rd_rels_get(&d->rels, rid);
        d->link = rel && rel->external && qr_link_ok(rel->target) ? rel->target : NULL;
        xmlFree(rid);
        if (!d->link) {
            /* to a bookmark: resolved once the body is read (docx_links.c) */
            char *a = attr_dup(x, "anchor");
            if (a && *a) d->link = set_anchor(d, a, strlen(a));
            xmlFree(a);
        }
        if (empty) d->link = NULL;
    } else if (is(x, "bookmarkStart")) {
        char *nm = attr_dup(x, "name");
        if (nm && *nm) {
            qr_buf *to = d->tbl_depth > 0 ? &d->bm_table : &d->bm_para;
            qr_buf_puts(to, nm);
            qr_buf_putc(to, '\0');
        }
        xmlFree(nm);
    } else if (d->in_run && is(x, "fldChar")) {
        /* a REF field (Word's cross-reference): its result links to the bookmark */
        char *t = attr_dup(x, "fldCharType");
        if (t && !strcmp(t, "begin")) {
            d->fld_at = d->instr.len;
        } else if (t && !strcmp(t, "separate") && d->instr.len >= d->fld_at) {
            const char *in = d->instr.data ? d->instr.data + d->fld_at : "";
            size_t n = d->instr.len - d->fld_at, a = 0;
            while (a < n && in[a] == ' ')
                a++;
            if (n - a > 4 && !memcmp(in + a, "REF ", 4) && !d->link) {
                a += 4;
                while (a < n && in[a] == ' ')
                    a++;
                size_t e = a;
                while (e < n && in[e] != ' ' && in[e] != '\\')
                    e++;
                if (e > a) {
                    d->link = set_anchor(d, in + a, e - a);
                    d->fld_ref = 1;
                    d->flags.link = d->link;
                }
            }
        } else if (t && !strcmp(t, "end") && d->fld_ref) {
            d->fld_ref = 0;
            d->link = NULL;
            d->flags.link = NULL;
        }
        xmlFree(t);
    } else if (is(x, "extent") && d->tbl_depth == 0) {
        d->img_cx = attr_long(x, "cx", 0); /* wp:extent: a drawing's size */
    } else if (is(x, "docPr")) {
        xmlFree(d->alt);
        d->alt = attr_dup(x, "descr");
    } else if (is(x, "chart")) {
        /* a chart drawn in the paragraph: a chart block after it, as images are */
        char *rid = attr_dup(x, "id");
        const qr_rd_rel *rel = rid ? qr_rd_rels_get(&d->rels, rid) : NULL;
        if (rel && !rel->external && qr_rd_zip_has(d->r, rel->target)) {
            qr_buf c = {0};
            if (qr_rd_chart(d->r, rel->target, d->alt, 1, &c) == QR_OK && c.len) {
                if (d->images.len) qr_buf_putc(&d->images, ',');
                qr_buf_append(&d->images, c.data, c.len);
            }
            qr_buf_free(&c);
        }
        xmlFree(rid);
    } else if (is(x, "blip")) {
        char *rid = attr_dup(x, "embed");
        if (rid) add_image(d, rid);
        xmlFree(rid);
    } else if (is(x, "tbl")) {
        if (d->tbl_depth++ == 0) {
            end_paragraph(d); /* nothing pending, but keeps lists in order */
            flush_list(d);
        }
    } else if (d->tbl_depth == 1 && is(x, "gridCol")) {
        if (d->n_grid == d->cap_grid) {
            size_t cap = d->cap_grid ? d->cap_grid * 2 : 8;
            double *ng = realloc(d->grid, cap * sizeof *ng);
            if (!ng) return;
            d->grid = ng;
            d->cap_grid = cap;
        }
        d->grid[d->n_grid++] = (double)attr_long(x, "w", 0);
    } else if (d->tbl_depth == 1 && is(x, "tr")) {
        if (d->n_rows == d->cap_rows) {
            size_t cap = d->cap_rows ? d->cap_rows * 2 : 16;
            row *nr = realloc(d->rows, cap * sizeof *nr);
            if (!nr) return;
            d->rows = nr;
            d->cap_rows = cap;
        }
        memset(&d->rows[d->n_rows++], 0, sizeof(row));
    } else if (d->tbl_depth == 1 && is(x, "tblHeader") && d->n_rows) {
        d->rows[d->n_rows - 1].header = attr_on(x);
    } else if (d->tbl_depth == 1 && is(x, "tc")) {
        qr_rd_runs_reset(&d->cell_runs);
        d->cell_paras = 0;
        d->cell_right = 0;
        d->cell_jc = 0;
        d->cell_span = 1;
        d->cell_vm = 0;
        d->cell_fill[0] = 0;
        d->cell_num = 0;
    } else if (d->tbl_depth == 1 && is(x, "tcPr")) {
        d->in_tcpr = !empty;
    } else if (d->in_tcpr && is(x, "shd")) {
        char *v = attr_dup(x, "fill");
        d->cell_fill[0] = 0;
        if (v && strlen(v) == 6 && strspn(v, "0123456789abcdefABCDEF") == 6) {
            d->cell_fill[0] = '#';
            for (int i = 0; i < 6; i++)
                d->cell_fill[1 + i] = (char)toupper((unsigned char)v[i]);
            d->cell_fill[7] = 0;
        }
        xmlFree(v);
    } else if (d->tbl_depth == 1 && d->n_rows && is(x, "gridSpan")) {
        d->cell_span = attr_long(x, "val", 1);
    } else if (d->tbl_depth == 1 && d->n_rows && is(x, "vMerge")) {
        char *v = attr_dup(x, "val");
        d->cell_vm = v && strcmp(v, "restart") == 0 ? 1 : 2;
        xmlFree(v);
    } else if (d->tbl_depth == 1 && d->n_rows && (is(x, "gridBefore") || is(x, "gridAfter"))) {
        long v = attr_long(x, "val", 0);
        if (v < 0 || v > 64) v = 0;
        if (is(x, "gridBefore"))
            d->rows[d->n_rows - 1].before = v;
        else
            d->rows[d->n_rows - 1].after = v;
    } else if (is(x, "sectPr") && d->tbl_depth == 0) {
        /* the last one wins: the body's */
    } else if (is(x, "headerReference") || is(x, "footerReference")) {
        char *t = attr_dup(x, "type"), *id = attr_dup(x, "id");
        int h = !is(x, "headerReference"); /* 0 header, 1 footer */
        char **slot = !t || !strcmp(t, "default") ? (h ? &d->ftr_rid : &d->hdr_rid)
                      : !strcmp(t, "first")       ? &d->first_rid[h]
                      : !strcmp(t, "even")        ? &d->even_rid[h]
                                                  : NULL;
        if (id && slot) {
            xmlFree(*slot);
            *slot = id;
            id = NULL;
        }
        xmlFree(t);
        xmlFree(id);
    } else if (is(x, "titlePg")) {
        char *v = attr_dup(x, "val");
        d->title_pg = !v || (strcmp(v, "0") && strcmp(v, "false") && strcmp(v, "off"));
        xmlFree(v);
    } else if (is(x, "pgSz")) {
        d->pg_w = attr_long(x, "w", 0);
        d->pg_h = attr_long(x, "h", 0);
        char *o = attr_dup(x, "orient");
        d->landscape = o && strcmp(o, "landscape") == 0;
        xmlFree(o);
    } else if (is(x, "pgMar")) {
        d->m_top = attr_long(x, "top", 1440);
        d->m_right = attr_long(x, "right", 1440);
        d->m_bottom = attr_long(x, "bottom", 1440);
        d->m_left = attr_long(x, "left", 1440);
    }
    if (empty && is(x, "p")) end_paragraph(d);
}

static void end_element(dx *d, const node *x)
{
    if (is(x, "oMath")) {
        if (d->math) d->math--;
        return;
    }
    if (d->math && !is(x, "r") && !is(x, "t") && !is(x, "rPr")) {
        math_end(d, x);
        return;
    }
    if (is(x, "p")) {
        end_paragraph(d);
    } else if (is(x, "pPr")) {
        d->in_ppr = 0;
    } else if (is(x, "rPr")) {
        d->in_rpr = 0;
    } else if (is(x, "r")) {
        d->in_run = 0;
    } else if (is(x, "t")) {
        d->in_t = 0;
    } else if (is(x, "hyperlink")) {
        if (!d->fld_ref) d->link = NULL;
    } else if (is(x, "tcPr")) {
        d->in_tcpr = 0;
    } else if (is(x, "tc") && d->tbl_depth == 1) {
        end_cell(d);
    } else if (is(x, "tbl")) {
        if (--d->tbl_depth == 0) end_table(d);
    }
}

/* Subtrees whose text is not the body's: text boxes (their paragraphs sit
 * inside a paragraph), the fallback twin of alternate content, deleted text
 * and the moved-from twin of moved text (tracked changes read as accepted:
 * insertions and moved-to text stay), field instructions. */
static int skipped(const node *x)
{
    return is(x, "txbxContent") || is(x, "Fallback") || is(x, "delText") || is(x, "instrText") ||
           is(x, "pict") || is(x, "del") || is(x, "moveFrom");
}

static const char *size_name(long w, long h)
{
    static const struct {
        const char *name;
        long w, h;
    } sizes[] = {{"Letter", 12240, 15840},
                 {"A4", 11906, 16838},
                 {"A5", 8391, 11906},
                 {"Legal", 12240, 20160}};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        if (labs(w - sizes[i].w) <= 20 && labs(h - sizes[i].h) <= 20) return sizes[i].name;
    return NULL;
}

/* The page furniture's members (layout/furniture.h): a header; a footer
 * unless it is the house footer "{page} / {pages}" (a docx without one
 * keeps the house footer); first_page false for w:titlePg. */
static void write_furniture(dx *d, qr_buf *b)
{
    if (d->has_header && d->tpl_header.data && *d->tpl_header.data) {
        qr_buf_puts(b, ",\"header\":");
        qr_buf_json_str(b, d->tpl_header.data, strlen(d->tpl_header.data), 0);
    }
    if (d->has_footer && d->tpl_footer.data &&
        strcmp(d->tpl_footer.data, "{page} / {pages}") != 0) {
        qr_buf_puts(b, ",\"footer\":");
        qr_buf_json_str(b, d->tpl_footer.data, strlen(d->tpl_footer.data), 0);
    }
    if (d->first_bare) qr_buf_puts(b, ",\"first_page\":false");
}

static void write_page(dx *d, qr_buf *b)
{
    qr_buf furn = {0};
    write_furniture(d, &furn);
    long w = d->pg_w, h = d->pg_h;
    if (!w || !h) w = 12240, h = 15840; /* none given: Letter */
    int land = d->landscape || w > h;
    const char *name = land ? size_name(h, w) : size_name(w, h);
    int margins = d->pg_w && d->pg_h &&
                  (labs(d->m_top - 1440) > 1 || labs(d->m_right - 1440) > 1 ||
                   labs(d->m_bottom - 1440) > 1 || labs(d->m_left - 1440) > 1);
    if (!name) name = "Letter"; /* the spec names sizes only: the nearest default */
    if (strcmp(name, "Letter") == 0 && !land && !margins && !furn.len) return;
    qr_buf_puts(b, ",\"page\":{\"size\":");
    qr_buf_json_str(b, name, strlen(name), 0);
    if (land) qr_buf_puts(b, ",\"orientation\":\"landscape\"");
    if (margins) {
        qr_buf_puts(b, ",\"margins\":{\"top\":");
        qr_rd_jnum(b, round((double)d->m_top / 20 * 100) / 100);
        qr_buf_puts(b, ",\"right\":");
        qr_rd_jnum(b, round((double)d->m_right / 20 * 100) / 100);
        qr_buf_puts(b, ",\"bottom\":");
        qr_rd_jnum(b, round((double)d->m_bottom / 20 * 100) / 100);
        qr_buf_puts(b, ",\"left\":");
        qr_rd_jnum(b, round((double)d->m_left / 20 * 100) / 100);
        qr_buf_putc(b, '}');
    }
    qr_buf_append(b, furn.data ? furn.data : "", furn.len);
    qr_buf_free(&furn);
    qr_buf_putc(b, '}');
}

/* The body through libxml2's SAX2 parser: no node per element. */
typedef struct body_sax {
    dx *d;
    int body, skip; /* inside <w:body>; depth inside a skipped subtree */
} body_sax;

static void body_start(void *ctx, const char *local, int nattr, const xmlChar **attrs)
{
    body_sax *s = ctx;
    node x = {local, nattr, attrs};
    if (s->skip) {
        s->skip++;
        return;
    }
    if (!s->body) {
        s->body = is(&x, "body");
        return;
    }
    if (is(&x, "instrText")) { /* a field's instruction: kept for a TOC's levels */
        s->d->in_instr = 1;
        s->skip = 1;
        return;
    }
    if (skipped(&x)) {
        s->skip = 1;
        return;
    }
    element(s->d, &x, 0);
}

static void body_end(void *ctx, const char *local)
{
    body_sax *s = ctx;
    if (s->skip) {
        if (!--s->skip) s->d->in_instr = 0;
        return;
    }
    node x = {local, 0, NULL};
    if (s->body) end_element(s->d, &x);
}

static void body_text(void *ctx, const char *t, int len)
{
    body_sax *s = ctx;
    if (!s->skip && s->d->in_t) add_text(s->d, t, (size_t)len);
    if (s->skip == 1 && s->d->in_instr) qr_buf_append(&s->d->instr, t, (size_t)len);
}

static qr_status read_body(dx *d)
{
    body_sax s = {d, 0, 0};
    qr_rd_sax sax = {body_start, body_end, body_text, &s};
    qr_status st = qr_rd_sax_stream(d->r, d->part, &sax);
    if (st == QR_OK && !s.body)
        st = qr_rd_fail(d->r, QR_E_SPEC, d->part, "the file is not a Word document",
                        "%s has no <w:body>", d->part);
    return st;
}

qr_status qr_rd_docx(qr_rd *r)
{
    dx d;
    memset(&d, 0, sizeof d);
    d.r = r;
    d.outline = -1;
    d.bar = -1;
    qr_status st;
    char *part = qr_rd_main_part(r, "word/document.xml", &st);
    if (!part) return st;
    d.part = part;
    if (st == QR_OK) st = qr_rd_rels_read(r, part, &d.rels);
    const qr_rd_rel *sty = qr_rd_rels_type(&d.rels, "/styles");
    const qr_rd_rel *num = qr_rd_rels_type(&d.rels, "/numbering");
    if (st == QR_OK) st = qr_rd_styles_read(r, sty ? sty->target : "word/styles.xml", &d.styles);
    if (st == QR_OK) st = qr_rd_numbering_read(r, num ? num->target : "word/numbering.xml", &d.num);
    notes foot = {0}, end = {0};
    d.foot = &foot;
    d.end = &end;
    const qr_rd_rel *fn = qr_rd_rels_type(&d.rels, "/footnotes");
    const qr_rd_rel *en = qr_rd_rels_type(&d.rels, "/endnotes");
    if (st == QR_OK && fn) st = notes_read(r, fn->target, "footnote", &foot);
    if (st == QR_OK && en) st = notes_read(r, en->target, "endnote", &end);
    d.internal = foot.internal || end.internal;
    if (st == QR_OK) {
        d.core_title = qr_rd_core_title(r);
        st = read_body(&d);
    }
    if (st == QR_OK) st = side_parts(&d);
    if (st == QR_OK) {
        end_paragraph(&d);
        flush_list(&d);
        qr_buf *b = &r->spec;
        qr_buf_putc(b, '{');
        int comma = 0;
        if (d.core_title && *d.core_title) {
            qr_buf_puts(b, "\"title\":");
            qr_buf_json_str(b, d.core_title, strlen(d.core_title), 0);
            comma = 1;
        }
        if (d.styles.lang && *d.styles.lang && strcmp(d.styles.lang, "en-US") != 0) {
            qr_buf_puts(b, comma ? ",\"lang\":" : "\"lang\":");
            qr_buf_json_str(b, d.styles.lang, strlen(d.styles.lang), 0);
            comma = 1;
        }
        if (!comma)
            qr_buf_puts(b, "\"blocks\":[");
        else
            qr_buf_puts(b, ",\"blocks\":[");
        qr_buf_append(b, d.blocks.data ? d.blocks.data : "", d.blocks.len);
        qr_buf_putc(b, ']');
        write_page(&d, b);
        write_properties(r, b);
        /* Notes at the end of the document: a spec's notes are one kind. */
        if (d.n_end && !d.n_foot) qr_buf_puts(b, ",\"notes\":\"endnotes\"");
        if (d.n_end && d.n_foot)
            qr_errlist_addf(r->warns, QR_OK, d.part,
                            "a spec's notes are all footnotes or all endnotes",
                            "%s: %ld footnotes and %ld endnotes read, all as footnotes", d.part,
                            d.n_foot, d.n_end);
        qr_buf_putc(b, '}');
        if (b->oom || d.blocks.oom) st = qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory");
        /* bookmarks that can be ids, internal links: ids, links and refs */
        if (st == QR_OK && d.internal) st = qr_rd_docx_links(r, d.marks, d.n_marks);
        r->kind = QR_KIND_DOCUMENT;
    }
    for (size_t k = 0; k < d.n_items; k++)
        free(d.items[k].json);
    free(d.items);
    /* A table left open (a damaged file) still owns its rows. */
    for (size_t i = 0; i < d.n_rows; i++) {
        for (size_t c = 0; c < d.rows[i].n; c++) {
            free(d.rows[i].cells[c].json);
            free(d.rows[i].cells[c].json_header);
        }
        free(d.rows[i].cells);
    }
    free(d.rows);
    free(d.grid);
    qr_rd_runs_free(&d.runs);
    qr_rd_runs_free(&d.cell_runs);
    qr_buf_free(&d.blocks);
    qr_buf_free(&d.bm_pending);
    qr_buf_free(&d.bm_para);
    qr_buf_free(&d.bm_list);
    qr_buf_free(&d.bm_table);
    for (size_t k = 0; k < d.n_marks; k++)
        free(d.marks[k].name);
    free(d.marks);
    free(d.anchor);
    qr_buf_free(&d.tpl_header);
    qr_buf_free(&d.instr);
    qr_buf_free(&d.cap_value);
    qr_buf_free(&d.tpl_footer);
    xmlFree(d.hdr_rid);
    xmlFree(d.ftr_rid);
    for (int k = 0; k < 2; k++) {
        xmlFree(d.first_rid[k]);
        xmlFree(d.even_rid[k]);
    }
    qr_buf_free(&d.images);
    qr_buf_free(&d.cap);
    xmlFree(d.pstyle);
    xmlFree(d.rstyle);
    xmlFree(d.alt);
    free(d.core_title);
    qr_rd_styles_free(&d.styles);
    qr_rd_numbering_free(&d.num);
    qr_rd_rels_free(&d.rels);
    notes_free(&foot);
    notes_free(&end);
    free(part);
    return st;
}
