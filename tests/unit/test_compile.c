/* test_compile.c: the spec compiler (spec/compile*.c, image.c, suggest.c).
 *
 * Positive cases check the compiled tree field by field; the error table
 * checks, for every bad spec, the status and the exact JSON pointer of every
 * error, in order (so "3 mistakes give 3 errors" is checked too). Specs are
 * written with ' for " (and ` for a literal apostrophe) to keep C readable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "backends.h"
#include "compile.h"
#include "fonts.h"

/* ---- helpers ----------------------------------------------------------------- */

/* ' -> ", ` -> ' */
static char *J(const char *s)
{
    size_t n = strlen(s);
    char *d = malloc(n + 1);
    for (size_t i = 0; i <= n; i++)
        d[i] = s[i] == '\'' ? '"' : s[i] == '`' ? '\'' : s[i];
    return d;
}

static qr_compile_opts g_opts;

static qr_status run(qr_kind kind, const char *spec, qr_doc **doc, qr_errlist *errs,
                     const qr_compile_opts *o)
{
    char *j = J(spec);
    qr_status st = qr_compile(j, strlen(j), kind, o ? o : &g_opts, doc, errs);
    free(j);
    return st;
}

static void dump(const qr_errlist *e)
{
    for (size_t i = 0; i < e->count; i++)
        print_message("  [%s] %s: %s (%s)\n", qr_status_str(e->items[i].code), e->items[i].path,
                      e->items[i].message, e->items[i].hint ? e->items[i].hint : "-");
}

static qr_doc *ok_opts(qr_kind kind, const char *spec, const qr_compile_opts *o)
{
    qr_errlist e = {0};
    qr_doc *d = NULL;
    qr_status st = run(kind, spec, &d, &e, o);
    if (st != QR_OK) {
        print_message("unexpected errors for %s\n", spec);
        dump(&e);
    }
    assert_int_equal(st, QR_OK);
    assert_int_equal(e.count, 0);
    assert_non_null(d);
    qr_errlist_clear(&e);
    return d;
}

static qr_doc *ok(qr_kind kind, const char *spec)
{
    return ok_opts(kind, spec, NULL);
}

/* Compile a bad spec; return the error list (caller clears). */
static qr_errlist bad(qr_kind kind, const char *spec, qr_status want)
{
    qr_errlist e = {0};
    qr_doc *d = (qr_doc *)1;
    qr_status st = run(kind, spec, &d, &e, NULL);
    if (st != want) {
        print_message("status %s, wanted %s, for %s\n", qr_status_str(st), qr_status_str(want),
                      spec);
        dump(&e);
    }
    assert_int_equal(st, want);
    assert_null(d);
    assert_true(e.count > 0);
    return e;
}

static void expect_one(qr_kind kind, const char *spec, qr_status want, const char *path,
                       const char *msg_part, const char *hint_part)
{
    qr_errlist e = bad(kind, spec, want);
    if (e.count != 1) dump(&e);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].path, path);
    assert_int_equal(e.items[0].code, want);
    if (msg_part && !strstr(e.items[0].message, msg_part)) {
        print_message("message \"%s\" lacks \"%s\"\n", e.items[0].message, msg_part);
        fail();
    }
    if (hint_part && (!e.items[0].hint || !strstr(e.items[0].hint, hint_part))) {
        print_message("hint \"%s\" lacks \"%s\"\n", e.items[0].hint ? e.items[0].hint : "(null)",
                      hint_part);
        fail();
    }
    qr_errlist_clear(&e);
}

static int text_is(const qr_text *t, const char *s)
{
    size_t n = strlen(s), off = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (off + t->runs[i].len > n || memcmp(s + off, t->runs[i].text, t->runs[i].len)) return 0;
        off += t->runs[i].len;
    }
    return off == n;
}
#define assert_text(t, s) assert_true(text_is((t), (s)))

static char *b64(const unsigned char *p, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(n / 3 * 4 + 8), *o = out;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t x = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *o++ = tab[x >> 18], *o++ = tab[(x >> 12) & 63], *o++ = tab[(x >> 6) & 63],
        *o++ = tab[x & 63];
    }
    if (n - i == 1) {
        uint32_t x = (uint32_t)p[i] << 16;
        *o++ = tab[x >> 18], *o++ = tab[(x >> 12) & 63], *o++ = '=', *o++ = '=';
    } else if (n - i == 2) {
        uint32_t x = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8;
        *o++ = tab[x >> 18], *o++ = tab[(x >> 12) & 63], *o++ = tab[(x >> 6) & 63], *o++ = '=';
    }
    *o = '\0';
    return out;
}

/* A 1x1 PNG (a real file). */
static const char PNG1[] = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwG"
                           "A60e6kgAAAABJRU5ErkJggg==";

/* PNG header bytes: 640x480 with a pHYs of 3780 px/m (96.012 dpi) x 11811 (300 dpi). */
static size_t png_bytes(unsigned char *p)
{
    static const unsigned char b[] = {
        0x89, 'P',  'N',  'G', '\r', '\n', 0x1A, '\n', 0,    0,    0,   13,  'I', 'H',
        'D',  'R',  0,    0,   2,    0x80, 0,    0,    1,    0xE0, 8,   2,   0,   0,
        0,    0,    0,    0,   0,    0,    0,    0,    9,    'p',  'H', 'Y', 's', 0,
        0,    0x0E, 0xC4, 0,   0,    0x2E, 0x23, 1,    0,    0,    0,   0,   0,   0,
        0,    0,    'I',  'E', 'N',  'D',  0xAE, 0x42, 0x60, 0x82};
    memcpy(p, b, sizeof b);
    return sizeof b;
}

/* JPEG header bytes: JFIF 72 dpi, SOF0 of 300x200. */
static size_t jpeg_bytes(unsigned char *p)
{
    static const unsigned char b[] = {0xFF, 0xD8, 0xFF, 0xE0, 0,  16, 'J',  'F', 'I',  'F',  0,
                                      1,    1,    1,    0,    72, 0,  72,   0,   0,    0xFF, 0xDB,
                                      0,    4,    0,    0, /* a tiny DQT-shaped segment to skip */
                                      0xFF, 0xC0, 0,    17,   8,  0,  200,  1,   44,   3,    1,
                                      0x22, 0,    2,    0x11, 1,  3,  0x11, 1,   0xFF, 0xD9};
    memcpy(p, b, sizeof b);
    return sizeof b;
}

static int setup(void **state)
{
    qr_compile_opts_default(&g_opts);
    return 0;
}

/* ---- documents -------------------------------------------------------------------- */

static void test_document_every_block(void **state)
{
    char spec[2048];
    snprintf(
        spec, sizeof spec,
        "{'title': 'Services Agreement', 'lang': 'en', 'page': {'size': 'a4'}, 'blocks': ["
        "{'type': 'heading', 'text': 'Fees', 'level': 3},"
        "{'type': 'paragraph', 'runs': ['The ', {'text': 'Client', 'bold': true, 'italic': true},"
        " {'text': 'x', 'underline': true, 'strike': true, 'code': true},"
        " {'text': 'site', 'link': 'HTTPS://example.com'}, '', ' pays *b* <b>.']},"
        "{'type': 'list', 'ordered': true, 'items': ['Setup', {'text': 'Support', 'items': "
        "['Hours', {'runs': [{'text': 'Deep', 'bold': true}], 'items': []}]}]},"
        "{'type': 'table', 'headers': ['Service', 'Fee'], 'rows': [['Setup', 1000], ['Support', "
        "12.5, true, null, {'text': 'x'}], []], 'widths': [3, 1, 1, 2, 1]},"
        "{'type': 'code', 'text': 'print(1)\\n', 'language': 'python'},"
        "{'type': 'image', 'src': 'data:image/png;base64,%s', 'alt': 'Dot'},"
        "{'type': 'page_break'}]}",
        PNG1);
    qr_doc *d = ok(QR_KIND_DOCUMENT, spec);
    assert_int_equal(d->kind, QR_KIND_DOCUMENT);
    assert_string_equal(qr_plain(&d->title), "Services Agreement");
    assert_string_equal(d->title.path, "/title");
    assert_string_equal(d->lang, "en");
    assert_string_equal(d->page.size_name, "A4");
    assert_true(d->page.width == 595.28 && d->page.height == 841.89);
    assert_true(d->page.margin_left == 72 && d->page.margin_top == 72);
    assert_int_equal(d->n_blocks, 7);

    const qr_block *b = &d->blocks[0];
    assert_int_equal(b->type, QR_BLOCK_HEADING);
    assert_string_equal(b->path, "/blocks/0");
    assert_int_equal(b->u.heading.level, 3);
    assert_text(&b->u.heading.text, "Fees");
    assert_string_equal(b->u.heading.text.path, "/blocks/0/text");

    b = &d->blocks[1];
    assert_int_equal(b->type, QR_BLOCK_PARAGRAPH);
    const qr_text *t = &b->u.paragraph.text;
    assert_string_equal(t->path, "/blocks/1/runs");
    assert_int_equal(t->n, 5); /* the empty run is dropped */
    assert_string_equal(t->runs[0].text, "The ");
    assert_false(t->runs[0].bold);
    assert_true(t->runs[1].bold && t->runs[1].italic && !t->runs[1].underline);
    assert_true(t->runs[2].underline && t->runs[2].strike && t->runs[2].code && !t->runs[2].bold);
    assert_string_equal(t->runs[3].link, "HTTPS://example.com");
    assert_null(t->runs[0].link);
    assert_string_equal(t->runs[4].text, " pays *b* <b>."); /* literal, no markup */

    b = &d->blocks[2];
    assert_int_equal(b->type, QR_BLOCK_LIST);
    assert_true(b->u.list.ordered);
    assert_int_equal(b->u.list.n_items, 2);
    assert_text(&b->u.list.items[0].text, "Setup");
    assert_string_equal(b->u.list.items[0].text.path, "/blocks/2/items/0");
    const qr_item *sup = &b->u.list.items[1];
    assert_text(&sup->text, "Support");
    assert_int_equal(sup->n_items, 2);
    assert_text(&sup->items[0].text, "Hours");
    assert_true(sup->items[1].text.runs[0].bold);
    assert_int_equal(sup->items[1].n_items, 0);
    assert_string_equal(sup->items[1].text.path, "/blocks/2/items/1/items/1/runs");

    b = &d->blocks[3];
    const qr_table *tb = &b->u.table;
    assert_int_equal(b->type, QR_BLOCK_TABLE);
    assert_int_equal(tb->n_cols, 5);
    assert_int_equal(tb->n_headers, 5); /* padded to the column count */
    assert_text(&tb->headers[1].text, "Fee");
    assert_int_equal(tb->headers[4].kind, QR_TCELL_EMPTY);
    assert_int_equal(tb->n_rows, 3);
    assert_int_equal(tb->rows[0][1].kind, QR_TCELL_NUMBER);
    assert_text(&tb->rows[0][1].text, "1000");
    assert_int_equal(tb->rows[0][2].kind, QR_TCELL_EMPTY);
    assert_text(&tb->rows[1][1].text, "12.5");
    assert_int_equal(tb->rows[1][2].kind, QR_TCELL_BOOL);
    assert_text(&tb->rows[1][2].text, "true");
    assert_int_equal(tb->rows[1][3].kind, QR_TCELL_EMPTY);
    assert_int_equal(tb->rows[1][4].kind, QR_TCELL_TEXT);
    assert_text(&tb->rows[1][4].text, "x");
    for (int c = 0; c < 5; c++)
        assert_int_equal(tb->rows[2][c].kind, QR_TCELL_EMPTY);
    assert_non_null(tb->widths);
    double sum = 0;
    for (int c = 0; c < 5; c++)
        sum += tb->widths[c];
    assert_true(sum > 0.9999999 && sum < 1.0000001);
    assert_true(tb->widths[0] == 3.0 / 8 && tb->widths[3] == 2.0 / 8);
    assert_string_equal(tb->path, "/blocks/3");

    b = &d->blocks[4];
    assert_int_equal(b->type, QR_BLOCK_CODE);
    assert_string_equal(qr_plain(&b->u.code.text), "print(1)\n");
    assert_int_equal(qr_plain_len(&b->u.code.text), 9);
    assert_string_equal(b->u.code.text.path, "/blocks/4/text");
    assert_string_equal(b->u.code.lang, "python");

    b = &d->blocks[5];
    assert_int_equal(b->type, QR_BLOCK_IMAGE);
    assert_int_equal(b->u.image.type, QR_IMAGE_PNG);
    assert_int_equal(b->u.image.width_px, 1);
    assert_int_equal(b->u.image.height_px, 1);
    assert_true(b->u.image.dpi_x == 96 && b->u.image.dpi_y == 96);
    assert_string_equal(qr_plain(&b->u.image.alt), "Dot");
    assert_string_equal(b->u.image.name, "image1.png");
    assert_int_equal(b->u.image.size, 70);
    assert_memory_equal(b->u.image.data, "\x89PNG", 4);

    assert_int_equal(d->blocks[6].type, QR_BLOCK_PAGE_BREAK);
    qr_doc_free(d);
}

static void test_document_defaults(void **state)
{
    qr_doc *d =
        ok(QR_KIND_DOCUMENT,
           "{'blocks': [{'type': 'heading', 'text': 'H'}, {'type': 'paragraph', 'text': ''},"
           "{'type': 'list', 'items': ['a']}, {'type': 'table', 'rows': []},"
           "{'type': 'code', 'text': ''}]}");
    assert_int_equal(d->title.n, 0);
    assert_null(d->lang);
    assert_string_equal(d->page.size_name, "Letter");
    assert_true(d->page.width == 612 && d->page.height == 792 && !d->page.landscape);
    assert_true(d->page.margin_right == 72 && d->page.margin_bottom == 72);
    assert_int_equal(d->blocks[0].u.heading.level, 1);
    assert_int_equal(d->blocks[1].u.paragraph.text.n, 0);
    assert_false(d->blocks[2].u.list.ordered);
    assert_int_equal(d->blocks[3].u.table.n_rows, 0);
    assert_int_equal(d->blocks[3].u.table.n_cols, 1);
    assert_null(d->blocks[3].u.table.headers);
    assert_null(d->blocks[3].u.table.widths);
    assert_null(d->blocks[4].u.code.lang);
    qr_doc_free(d);

    /* html headings default to level 2; pdf to 1 */
    d = ok(QR_KIND_HTML, "{'title': 'Report', 'blocks': [{'type': 'heading', 'text': 'Intro'}]}");
    assert_int_equal(d->blocks[0].u.heading.level, 2);
    qr_doc_free(d);
    d = ok(QR_KIND_PDF, "{'blocks': [{'type': 'heading', 'text': 'Intro'}]}");
    assert_int_equal(d->blocks[0].u.heading.level, 1);
    qr_doc_free(d);
    /* level 2.0 is an integer */
    d = ok(QR_KIND_PDF, "{'blocks': [{'type': 'heading', 'text': 'Intro', 'level': 6.0}]}");
    assert_int_equal(d->blocks[0].u.heading.level, 6);
    qr_doc_free(d);
}

static void test_document_page(void **state)
{
    qr_doc *d = ok(QR_KIND_PDF, "{'page': {'size': 'Legal', 'orientation': 'landscape', "
                                "'margins': {'top': 36, 'left': 18.5}}, 'blocks': []}");
    assert_string_equal(d->page.size_name, "Legal");
    assert_true(d->page.landscape);
    assert_true(d->page.width == 1008 && d->page.height == 612);
    assert_true(d->page.margin_top == 36 && d->page.margin_left == 18.5);
    assert_true(d->page.margin_right == 72 && d->page.margin_bottom == 72);
    qr_doc_free(d);
    d = ok(QR_KIND_DOCUMENT, "{'page': {'size': 'A5', 'margins': 20}, 'blocks': []}");
    assert_true(d->page.width == 419.53 && d->page.height == 595.28);
    assert_true(d->page.margin_top == 20 && d->page.margin_right == 20 &&
                d->page.margin_bottom == 20 && d->page.margin_left == 20);
    qr_doc_free(d);
}

static void test_document_legacy_sections(void **state)
{
    qr_doc *d =
        ok(QR_KIND_DOCUMENT,
           "{'title': 'Brief', 'blocks': [{'type': 'paragraph', 'text': 'Appended'}],"
           " 'sections': [{'heading': 'Overview', 'paragraphs': ['First para.', 'Second para.']},"
           " {'paragraphs': ['No heading']}, {'heading': ''}, {}]}");
    assert_int_equal(d->n_blocks, 5);
    assert_int_equal(d->blocks[0].type, QR_BLOCK_HEADING);
    assert_int_equal(d->blocks[0].u.heading.level, 1);
    assert_text(&d->blocks[0].u.heading.text, "Overview");
    assert_string_equal(d->blocks[0].path, "/sections/0/heading");
    assert_int_equal(d->blocks[1].type, QR_BLOCK_PARAGRAPH);
    assert_text(&d->blocks[1].u.paragraph.text, "First para.");
    assert_string_equal(d->blocks[2].path, "/sections/0/paragraphs/1");
    assert_text(&d->blocks[3].u.paragraph.text, "No heading");
    assert_string_equal(d->blocks[3].path, "/sections/1/paragraphs/0");
    assert_text(&d->blocks[4].u.paragraph.text, "Appended");
    assert_string_equal(d->blocks[4].path, "/blocks/0");
    qr_doc_free(d);

    /* the DocsGPT example, sections only (html's heading level stays 1 for sections) */
    d = ok(QR_KIND_DOCUMENT, "{'title':'Brief','sections':[{'heading':'Overview','paragraphs':['"
                             "First para.','Second para.']}]}");
    assert_int_equal(d->n_blocks, 3);
    qr_doc_free(d);
    d = ok(QR_KIND_DOCUMENT, "{'sections': []}");
    assert_int_equal(d->n_blocks, 0);
    qr_doc_free(d);
}

/* Every example of reference §2. */
static void test_docsgpt_examples(void **state)
{
    qr_doc *d = ok(QR_KIND_PRESENTATION, "{'title':'Q3','slides':[{'title':'Revenue','bullets':['"
                                         "Up 12%','EMEA strongest'],'notes':'Mention churn'}]}");
    assert_int_equal(d->n_slides, 1);
    qr_doc_free(d);
    d = ok(QR_KIND_PRESENTATION, "{'slides':[{'title':'x'}]}");
    qr_doc_free(d);
    d = ok(QR_KIND_PRESENTATION, "{'slides':[]}");
    assert_int_equal(d->n_slides, 0);
    qr_doc_free(d);
    d = ok(QR_KIND_SPREADSHEET,
           "{'sheets':[{'name':'Q3','rows':[['Region','Revenue'],['EMEA',1200.5],['APAC',980]]}]}");
    assert_int_equal(d->sheets[0].n_rows, 3);
    qr_doc_free(d);
    d = ok(QR_KIND_PDF, "{'title':'Patch "
                        "Notes','blocks':[{'type':'heading','text':'Hunter','level':1},{'type':'"
                        "paragraph','text':'Body.'}]}");
    assert_int_equal(d->n_blocks, 2);
    qr_doc_free(d);
    d = ok(QR_KIND_HTML, "{'title':'Report','blocks':[{'type':'heading','text':'Intro','level':2},{"
                         "'type':'list','ordered':true,'items':['a','b']},{'type':'table','headers'"
                         ":['h'],'rows':[['c']]},{'type':'code','text':'print(1)'}]}");
    assert_int_equal(d->n_blocks, 4);
    qr_doc_free(d);
    /* the design's examples */
    d = ok(QR_KIND_PRESENTATION, "{'title': 'Q3', 'size': '16:9', 'slides': [{'title': 'Revenue', "
                                 "'bullets': ['Up 12%', {'text': 'EMEA', 'items': ['DE', 'FR']}], "
                                 "'notes': 'Mention churn', 'layout': 'title_content'}]}");
    qr_doc_free(d);
    d = ok(QR_KIND_SPREADSHEET,
           "{'sheets': [{'name': 'Q3', 'rows': [['Region', 'Revenue'], ['EMEA', 1200.5]], "
           "'header': true, 'widths': [18, 12], 'freeze': 'A2'}]}");
    qr_doc_free(d);
    /* injection payloads stay literal text */
    d = ok(QR_KIND_PRESENTATION, "{'slides':[{'title':'__import__(`os`).system(`rm -rf /`)'}]}");
    assert_text(&d->slides[0].title, "__import__('os').system('rm -rf /')");
    qr_doc_free(d);
    d = ok(QR_KIND_HTML, "{'blocks':[{'type':'paragraph','text':'<script>alert(1)</"
                         "script>'},{'type':'code','text':'</code><img onerror=x>'}]}");
    assert_text(&d->blocks[0].u.paragraph.text, "<script>alert(1)</script>");
    qr_doc_free(d);
}

static void test_string_spec(void **state)
{
    /* a spec sent as a JSON string holding the object */
    qr_doc *d = ok(QR_KIND_DOCUMENT,
                   "\"{\\'blocks\\': [{\\'type\\': \\'paragraph\\', \\'text\\': \\'hi\\'}]}\"");
    assert_int_equal(d->n_blocks, 1);
    assert_text(&d->blocks[0].u.paragraph.text, "hi");
    qr_doc_free(d);
    /* a byte order mark is skipped */
    const char *bom = "\xEF\xBB\xBF{\"blocks\": []}";
    qr_errlist e = {0};
    assert_int_equal(qr_compile(bom, strlen(bom), QR_KIND_DOCUMENT, NULL, &d, &e), QR_OK);
    qr_doc_free(d);
}

/* ---- presentations ------------------------------------------------------------------ */

static void test_presentation(void **state)
{
    char spec[2048];
    snprintf(spec, sizeof spec,
             "{'title': 'Deck', 'lang': 'de-CH', 'size': '4:3', 'slides': ["
             "{'layout': 'title', 'title': 'Hello', 'subtitle': 'World'},"
             "{'title': 'Points', 'bullets': ['one', {'text': 'two', 'items': ['2a', {'text': "
             "'2b', 'items': ['2b1']}]}], 'notes': 'line1\\nline2'},"
             "{'layout': 'section', 'title': ''},"
             "{'layout': 'blank', 'image': {'type': 'image', 'src': 'data:image/png;base64,%s', "
             "'alt': 'a'}},"
             "{'image': {'src': 'data:image/png;base64,%s'}, 'table': {'rows': [[1, 2], [3]]}},"
             "{'table': {'type': 'table', 'headers': ['a', 'b'], 'rows': [], 'widths': [1, 1]}},"
             "{}]}",
             PNG1, PNG1);
    qr_doc *d = ok(QR_KIND_PRESENTATION, spec);
    assert_int_equal(d->kind, QR_KIND_PRESENTATION);
    assert_int_equal(d->wide, 0);
    assert_string_equal(qr_plain(&d->title), "Deck");
    assert_string_equal(d->lang, "de-CH");
    assert_int_equal(d->n_slides, 7);
    const qr_slide *s = d->slides;
    assert_int_equal(s[0].layout, QR_LAYOUT_TITLE);
    assert_true(s[0].has_title && s[0].has_subtitle);
    assert_int_equal(s[0].title.n, 1);
    assert_text(&s[0].title, "Hello");
    assert_string_equal(s[0].title.path, "/slides/0/title");
    assert_text(&s[0].subtitle, "World");
    assert_string_equal(s[0].path, "/slides/0");

    assert_int_equal(s[1].layout, QR_LAYOUT_TITLE_CONTENT);
    assert_int_equal(s[1].n_bullets, 2);
    assert_text(&s[1].bullets[1].text, "two");
    assert_int_equal(s[1].bullets[1].n_items, 2);
    assert_int_equal(s[1].bullets[1].items[1].n_items, 1);
    assert_text(&s[1].bullets[1].items[1].items[0].text, "2b1");
    assert_string_equal(qr_plain(&s[1].notes), "line1\nline2");
    assert_string_equal(s[1].notes.path, "/slides/1/notes");
    assert_false(s[1].has_subtitle);
    assert_null(s[1].image);
    assert_null(s[1].table);

    assert_int_equal(s[2].layout, QR_LAYOUT_SECTION);
    assert_true(s[2].has_title);
    assert_int_equal(s[2].title.n, 0);
    assert_int_equal(s[2].has_notes, 0);

    assert_int_equal(s[3].layout, QR_LAYOUT_BLANK);
    assert_non_null(s[3].image);
    assert_string_equal(s[3].image->name, "image1.png");
    assert_string_equal(qr_plain(&s[3].image->alt), "a");
    assert_string_equal(s[3].image->alt.path, "/slides/3/image/alt");
    assert_string_equal(s[4].image->name, "image2.png");
    assert_int_equal(s[4].image->alt.n, 0);
    assert_non_null(s[4].table);
    assert_int_equal(s[4].table->n_cols, 2);
    assert_int_equal(s[4].table->rows[1][1].kind, QR_TCELL_EMPTY);
    assert_string_equal(s[4].table->path, "/slides/4/table");
    assert_true(s[5].table->widths[0] == 0.5);
    assert_int_equal(s[5].table->n_headers, 2);

    assert_false(s[6].has_title);
    assert_int_equal(s[6].n_bullets, 0);
    qr_doc_free(d);

    d = ok(QR_KIND_PRESENTATION, "{'slides': []}");
    assert_int_equal(d->wide, 1);
    qr_doc_free(d);
}

/* ---- spreadsheets --------------------------------------------------------------------- */

static void test_spreadsheet_cells(void **state)
{
    qr_doc *d =
        ok(QR_KIND_SPREADSHEET,
           "{'title': 'Book', 'sheets': [{'name': 'Q3', 'rows': ["
           "['text', '=SUM(A1)', 12, -2.5, true, false, null],"
           "[{'value': 0.25, 'format': '0.0%'}, {'value': 'txt', 'format': '@'}, {'value': true}],"
           "[{'date': '2026-11-30'}, {'date': '2026-11-30T12:00'}, {'date': '1900-03-01', "
           "'format': 'dd/mm/yyyy'},"
           " {'date': '2000-01-01 06:00:00'}],"
           "[{'formula': '=SUM(C1:C2)', 'value': 12}, {'formula': 'A1&B1', 'value': 'ab', "
           "'format': '0.0%'},"
           " {'formula': 'TRUE()', 'value': true}, {'formula': 'NOW()'}],"
           "[9007199254740992, -9007199254740992, 1e300, {'value': null}],"
           "[]]}]}");
    assert_string_equal(qr_plain(&d->title), "Book");
    assert_int_equal(d->n_sheets, 1);
    const qr_sheet *sh = &d->sheets[0];
    assert_string_equal(sh->name, "Q3");
    assert_string_equal(sh->path, "/sheets/0");
    assert_int_equal(sh->n_rows, 6);
    assert_int_equal(sh->n_cols, 7);
    assert_int_equal(sh->header, 0);
    assert_int_equal(sh->freeze_row, 0);
    assert_int_equal(sh->freeze_col, 0);
    assert_int_equal(sizeof(qr_cell), 16);

    const qr_cell *c = sh->rows[0].cells;
    assert_int_equal(sh->rows[0].n, 7);
    assert_int_equal(c[0].type, QR_CELL_TEXT);
    assert_int_equal(c[0].len, 4);
    assert_string_equal(c[0].v.str, "text");
    assert_int_equal(c[1].type, QR_CELL_TEXT); /* a string is never a formula */
    assert_string_equal(c[1].v.str, "=SUM(A1)");
    assert_int_equal(c[2].type, QR_CELL_NUMBER);
    assert_true(c[2].v.num == 12);
    assert_true(c[3].v.num == -2.5);
    assert_int_equal(c[4].type, QR_CELL_BOOL);
    assert_true(c[4].v.num == 1);
    assert_true(c[5].v.num == 0);
    assert_int_equal(c[6].type, QR_CELL_EMPTY);
    assert_int_equal(c[0].fmt, 0);

    c = sh->rows[1].cells;
    assert_int_equal(c[0].type, QR_CELL_NUMBER);
    assert_true(c[0].v.num == 0.25);
    assert_string_equal(d->formats[c[0].fmt], "0.0%");
    assert_int_equal(c[1].type, QR_CELL_TEXT);
    assert_string_equal(c[1].v.str, "txt");
    assert_string_equal(d->formats[c[1].fmt], "@");
    assert_int_equal(c[2].type, QR_CELL_BOOL);
    assert_int_equal(c[2].fmt, 0);

    c = sh->rows[2].cells;
    assert_int_equal(c[0].type, QR_CELL_DATE);
    assert_true(c[0].v.num == 46356);
    assert_string_equal(d->formats[c[0].fmt], "yyyy-mm-dd");
    assert_true(c[1].v.num == 46356.5);
    assert_string_equal(d->formats[c[1].fmt], "yyyy-mm-dd hh:mm:ss");
    assert_true(c[2].v.num == 61);
    assert_string_equal(d->formats[c[2].fmt], "dd/mm/yyyy");
    assert_true(c[3].v.num == 36526.25);
    assert_int_equal(c[3].fmt, c[1].fmt); /* deduplicated */

    c = sh->rows[3].cells;
    assert_int_equal(c[0].type, QR_CELL_FORMULA);
    assert_string_equal(c[0].v.formula->text, "SUM(C1:C2)");
    assert_true(c[0].v.formula->has_value);
    assert_int_equal(c[0].v.formula->value_type, QR_CELL_NUMBER);
    assert_true(c[0].v.formula->num == 12);
    assert_string_equal(c[1].v.formula->text, "A1&B1");
    assert_int_equal(c[1].v.formula->value_type, QR_CELL_TEXT);
    assert_string_equal(c[1].v.formula->str, "ab");
    assert_int_equal(c[1].fmt, sh->rows[1].cells[0].fmt); /* "0.0%" again: same index */
    assert_int_equal(c[2].v.formula->value_type, QR_CELL_BOOL);
    assert_true(c[2].v.formula->num == 1);
    assert_false(c[3].v.formula->has_value);

    c = sh->rows[4].cells;
    assert_true(c[0].v.num == 9007199254740992.0);
    assert_true(c[1].v.num == -9007199254740992.0);
    assert_true(c[2].v.num == 1e300);
    assert_int_equal(c[3].type, QR_CELL_EMPTY);
    assert_int_equal(sh->rows[5].n, 0);

    /* General, 0.0%, @, yyyy-mm-dd, yyyy-mm-dd hh:mm:ss, dd/mm/yyyy */
    assert_int_equal(d->n_formats, 6);
    assert_string_equal(d->formats[0], "General");
    qr_doc_free(d);
}

static void test_spreadsheet_sheets(void **state)
{
    qr_doc *d =
        ok(QR_KIND_SPREADSHEET,
           "{'sheets': ["
           "{'rows': [[1]], 'header': true}," /* Sheet1 */
           "{'name': 'Sheet3', 'rows': [], 'freeze': 'C5'},"
           "{'rows': [], 'columns': ['id', 'name'], 'widths': [10, 20.5]},"         /* Sheet4 */
           "{'rows': [['x']], 'columns': ['id'], 'header': false, 'freeze': 'b1'}," /* Sheet5 */
           "{'name': 'Straße ü 日本', 'rows': [[]]},"
           "{'name': 'sheet7', 'rows': []},"
           "{'rows': []}]}"); /* Sheet7 is taken (ignoring case): Sheet8 */
    assert_int_equal(d->n_sheets, 7);
    const qr_sheet *s = d->sheets;
    assert_string_equal(s[0].name, "Sheet1");
    assert_int_equal(s[0].header, 1);
    assert_int_equal(s[0].freeze_row, 1);
    assert_int_equal(s[0].freeze_col, 0);
    assert_string_equal(s[1].name, "Sheet3");
    assert_int_equal(s[1].freeze_row, 4);
    assert_int_equal(s[1].freeze_col, 2);
    assert_int_equal(s[1].n_rows, 0);
    assert_string_equal(s[2].name, "Sheet4");
    assert_int_equal(s[2].header, 1);
    assert_int_equal(s[2].freeze_row, 1);
    assert_int_equal(s[2].n_rows, 1);
    assert_int_equal(s[2].n_cols, 2);
    assert_string_equal(s[2].rows[0].cells[1].v.str, "name");
    assert_int_equal(s[2].n_widths, 2);
    assert_true(s[2].widths[1] == 20.5);
    assert_string_equal(s[3].name, "Sheet5");
    assert_int_equal(s[3].header, 0);
    assert_int_equal(s[3].freeze_row, 0);
    assert_int_equal(s[3].freeze_col, 1);
    assert_int_equal(s[3].n_rows, 2);
    assert_string_equal(s[3].rows[1].cells[0].v.str, "x");
    assert_string_equal(s[4].name, "Straße ü 日本");
    assert_int_equal(s[4].n_cols, 0);
    assert_string_equal(s[5].name, "sheet7");
    assert_string_equal(s[6].name, "Sheet8");
    assert_null(s[6].widths);
    assert_int_equal(d->n_formats, 1);
    qr_doc_free(d);

    d = ok(QR_KIND_SPREADSHEET, "{'sheets': []}");
    assert_int_equal(d->n_sheets, 0);
    qr_doc_free(d);
    /* 31 characters (code points, not bytes) is fine */
    d = ok(QR_KIND_SPREADSHEET,
           "{'sheets': [{'name': 'ééééééééééééééééééééééééééééééé', 'rows': []}]}");
    qr_doc_free(d);
}

/* ---- images from files ------------------------------------------------------------------- */

static char g_dir[64];

static void write_file(const char *name, const unsigned char *p, size_t n)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(p, 1, n, f);
    fclose(f);
}

static void test_images(void **state)
{
    strcpy(g_dir, "/tmp/qr_test_compile_XXXXXX");
    assert_non_null(mkdtemp(g_dir));
    char sub[128], outside[128], link[256];
    snprintf(sub, sizeof sub, "%s/img", g_dir);
    mkdir(sub, 0700);
    unsigned char png[128], jpg[128];
    size_t np = png_bytes(png), nj = jpeg_bytes(jpg);
    write_file("img/chart.png", png, np);
    write_file("photo.jpg", jpg, nj);
    write_file("notes.txt", (const unsigned char *)"hello", 5);
    snprintf(outside, sizeof outside, "%s.secret.png", g_dir);
    FILE *f = fopen(outside, "wb");
    fwrite(png, 1, np, f);
    fclose(f);
    snprintf(link, sizeof link, "%s/escape.png", g_dir);
    assert_int_equal(symlink(outside, link), 0);
    snprintf(link, sizeof link, "%s/inside.png", g_dir);
    assert_int_equal(symlink("img/chart.png", link), 0);

    qr_compile_opts o = g_opts;
    o.base_dir = g_dir;
    char *pb = b64(png, np), *jb = b64(jpg, nj);
    char spec[1024];
    snprintf(spec, sizeof spec,
             "{'blocks': [{'type': 'image', 'src': 'img/chart.png'}, {'type': 'image', 'src': "
             "'./photo.jpg', 'alt': 'p'},"
             "{'type': 'image', 'src': 'inside.png'}, {'type': 'image', 'src': "
             "'data:image/jpeg;base64,%s'},"
             "{'type': 'image', 'src': 'DATA:IMAGE/PNG;BASE64,%s'}]}",
             jb, pb);
    qr_doc *d = ok_opts(QR_KIND_DOCUMENT, spec, &o);
    const qr_image *im = &d->blocks[0].u.image;
    assert_int_equal(im->type, QR_IMAGE_PNG);
    assert_int_equal(im->width_px, 640);
    assert_int_equal(im->height_px, 480);
    assert_true(im->dpi_x > 96.01 && im->dpi_x < 96.02);
    assert_true(im->dpi_y > 299.99 && im->dpi_y < 300.0);
    assert_int_equal(im->size, np);
    assert_string_equal(im->name, "image1.png");
    assert_string_equal(im->path, "/blocks/0");
    im = &d->blocks[1].u.image;
    assert_int_equal(im->type, QR_IMAGE_JPEG);
    assert_int_equal(im->width_px, 300);
    assert_int_equal(im->height_px, 200);
    assert_true(im->dpi_x == 72 && im->dpi_y == 72);
    assert_string_equal(im->name, "image2.jpeg");
    assert_string_equal(d->blocks[2].u.image.name, "image3.png");
    assert_string_equal(d->blocks[3].u.image.name, "image4.jpeg");
    assert_int_equal(d->blocks[3].u.image.width_px, 300);
    assert_string_equal(d->blocks[4].u.image.name, "image5.png");
    qr_doc_free(d);

    /* every refusal, each at its src */
    qr_errlist e = {0};
    char *j = J(
        "{'blocks': [{'type': 'image', 'src': 'escape.png'}, {'type': 'image', 'src': '../x.png'},"
        "{'type': 'image', 'src': '/etc/passwd'}, {'type': 'image', 'src': 'img\\\\chart.png'},"
        "{'type': 'image', 'src': 'missing.png'}, {'type': 'image', 'src': 'notes.txt'},"
        "{'type': 'image', 'src': 'img/../img/chart.png'}, {'type': 'image', 'src': "
        "'https://x.org/a.png'},"
        "{'type': 'image', 'src': 'img'}, {'type': 'image', 'src': ''}]}");
    assert_int_equal(qr_compile(j, strlen(j), QR_KIND_DOCUMENT, &o, &d, &e), QR_E_SPEC);
    if (e.count != 10) dump(&e);
    assert_int_equal(e.count, 10);
    for (size_t i = 0; i < 10; i++) {
        char want[32];
        snprintf(want, sizeof want, "/blocks/%zu/src", i);
        assert_string_equal(e.items[i].path, want);
    }
    assert_non_null(strstr(e.items[0].message, "outside"));
    assert_non_null(strstr(e.items[1].message, ".."));
    assert_non_null(strstr(e.items[2].message, "absolute"));
    assert_non_null(strstr(e.items[3].message, "backslash"));
    assert_non_null(strstr(e.items[4].message, "no such file"));
    assert_non_null(strstr(e.items[5].message, "not a PNG or JPEG"));
    assert_non_null(strstr(e.items[7].message, "remote"));
    qr_errlist_clear(&e);
    free(j);

    /* no base folder: paths are refused with a hint to use data: */
    expect_one(QR_KIND_DOCUMENT, "{'blocks': [{'type': 'image', 'src': 'chart.png'}]}", QR_E_SPEC,
               "/blocks/0/src", "not allowed", "data:image/png;base64");

    /* max_image, from a file and from a data: URI */
    o.limits.max_image = 10;
    j = J("{'blocks': [{'type': 'image', 'src': 'img/chart.png'}]}");
    assert_int_equal(qr_compile(j, strlen(j), QR_KIND_DOCUMENT, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].path, "/blocks/0/src");
    assert_non_null(strstr(e.items[0].message, "max_image"));
    qr_errlist_clear(&e);
    free(j);
    snprintf(spec, sizeof spec, "{'slides': [{'image': {'src': 'data:image/png;base64,%s'}}]}", pb);
    j = J(spec);
    assert_int_equal(qr_compile(j, strlen(j), QR_KIND_PRESENTATION, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].path, "/slides/0/image/src");
    qr_errlist_clear(&e);
    free(j);

    free(pb);
    free(jb);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", g_dir, outside);
    assert_int_equal(system(cmd), 0);
}

static void test_image_data_errors(void **state)
{
    unsigned char gif[] = "GIF89a\x01\x00\x01\x00\x00\x00\x00";
    char *gb = b64(gif, sizeof gif - 1);
    char spec[512];
    snprintf(spec, sizeof spec,
             "{'blocks': [{'type': 'image', 'src': 'data:image/png;base64,%s'},"
             "{'type': 'image', 'src': 'data:image/gif;base64,R0lG'},"
             "{'type': 'image', 'src': 'data:image/png;base64,iVBO%%%%'},"
             "{'type': 'image', 'src': 'data:image/png,plain'},"
             "{'type': 'image', 'src': 'data:image/png;base64,iVBORw0KGgo='},"
             "{'type': 'image', 'src': 'data:image/png;base64,iVBORw0KGgo=AAA'},"
             "{'type': 'image', 'src': 'data:image/png;base64'},"
             "{'type': 'image', 'src': 42}, {'type': 'image', 'alt': 'x'}]}",
             gb);
    free(gb);
    qr_errlist e = bad(QR_KIND_DOCUMENT, spec, QR_E_SPEC);
    const char *want[] = {"/blocks/0/src", "/blocks/1/src", "/blocks/2/src",
                          "/blocks/3/src", "/blocks/4/src", "/blocks/5/src",
                          "/blocks/6/src", "/blocks/7/src", "/blocks/8/src"};
    if (e.count != 9) dump(&e);
    assert_int_equal(e.count, 9);
    for (size_t i = 0; i < 9; i++)
        assert_string_equal(e.items[i].path, want[i]);
    assert_non_null(strstr(e.items[0].message, "not a PNG or JPEG"));
    assert_non_null(strstr(e.items[1].message, "image/gif"));
    assert_non_null(strstr(e.items[2].message, "base64"));
    assert_non_null(strstr(e.items[4].message, "IHDR"));
    qr_errlist_clear(&e);
}

/* ---- errors ------------------------------------------------------------------------------ */

typedef struct err_case {
    qr_kind kind;
    qr_status status;
    const char *spec;
    const char *paths[8];
} err_case;

#define D QR_KIND_DOCUMENT
#define P QR_KIND_PDF
#define H QR_KIND_HTML
#define S QR_KIND_SPREADSHEET
#define K QR_KIND_PRESENTATION
#define SPEC QR_E_SPEC
#define LIM QR_E_LIMIT

static const err_case err_cases[] = {
    /* reference §9 rejections */
    {D, SPEC, "{'title': 'x'}", {""}}, /* missing required key */
    {K, SPEC, "{'title': 'x'}", {""}},
    {S, SPEC, "{}", {""}},
    {D, SPEC, "{'sections': [], 'bogus': 1}", {"/bogus"}}, /* unknown key */
    {S, SPEC, "{'sheets': 'Sheet1'}", {"/sheets"}},        /* sheets as a string */
    {D, SPEC, "[1, 2]", {""}},                             /* non-object spec */
    {K, SPEC, "42", {""}},
    {S, SPEC, "null", {""}},
    {H,
     SPEC,
     "{'blocks': [{'type': 'paragraph', 'text': 'a', 'style': 'x'}]}",
     {"/blocks/0/style"}},
    {H, SPEC, "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 9}]}", {"/blocks/0/level"}},
    {P, SPEC, "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 9}]}", {"/blocks/0/level"}},
    {P,
     SPEC,
     "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 'two'}]}",
     {"/blocks/0/level"}},
    {P, SPEC, "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 0}]}", {"/blocks/0/level"}},
    {P, SPEC, "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 1.5}]}", {"/blocks/0/level"}},
    /* strings that are not objects */
    {D, SPEC, "'not json'", {""}},
    {D, SPEC, "'[\\'a\\', \\'b\\']'", {""}},
    /* top level */
    {D, SPEC, "{'blocks': [], 'title': 5, 'lang': 'english language'}", {"/title", "/lang"}},
    {D, SPEC, "{'blocks': {}}", {"/blocks"}},
    {D, SPEC, "{'sections': 'x', 'blocks': []}", {"/sections"}},
    {D, SPEC, "{'blocks': [], 'slides': []}", {"/slides"}},
    {H, SPEC, "{'blokcs': []}", {"/blokcs", ""}},
    {P, SPEC, "{'blocks': [], 'footnotes': []}", {"/footnotes"}},
    /* blocks */
    {D, SPEC, "{'blocks': ['text']}", {"/blocks/0"}},
    {D, SPEC, "{'blocks': [{'text': 'x'}]}", {"/blocks/0/type"}},
    {D, SPEC, "{'blocks': [{'type': 'headng', 'text': 'x'}]}", {"/blocks/0/type"}},
    {D, SPEC, "{'blocks': [{'type': 7}]}", {"/blocks/0/type"}},
    {D, SPEC, "{'blocks': [{'type': 'paragraph'}]}", {"/blocks/0"}},
    {D, SPEC, "{'blocks': [{'type': 'paragraph', 'text': 'a', 'runs': ['b']}]}", {"/blocks/0"}},
    {D, SPEC, "{'blocks': [{'type': 'paragraph', 'text': 5}]}", {"/blocks/0/text"}},
    {D, SPEC, "{'blocks': [{'type': 'paragraph', 'runs': 'a'}]}", {"/blocks/0/runs"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'paragraph', 'runs': [5, {'bold': true}, {'text': 'a', 'bolt': "
     "true}]}]}",
     {"/blocks/0/runs/0", "/blocks/0/runs/1/text", "/blocks/0/runs/2/bolt"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'paragraph', 'runs': [{'text': 'a', 'bold': 'yes', 'italic': 1}]}]}",
     {"/blocks/0/runs/0/bold", "/blocks/0/runs/0/italic"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'paragraph', 'runs': [{'text': 'a', 'link': 'javascript:alert(1)'},"
     "{'text': 'b', 'link': 'data:text/html,x'}, {'text': 'c', 'link': 'file:///etc'},"
     "{'text': 'd', 'link': '/relative'}, {'text': 'e', 'link': 5}]}]}",
     {"/blocks/0/runs/0/link", "/blocks/0/runs/1/link", "/blocks/0/runs/2/link",
      "/blocks/0/runs/3/link", "/blocks/0/runs/4/link"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'paragraph', 'runs': [{'text': 'a', 'footnote': 'x'}]}]}",
     {"/blocks/0/runs/0/text"}},
    {D, SPEC, "{'blocks': [{'type': 'paragraph', 'text': 'a', 'level': 2}]}", {"/blocks/0/level"}},
    {D, SPEC, "{'blocks': [{'type': 'list'}]}", {"/blocks/0/items"}},
    {D, SPEC, "{'blocks': [{'type': 'list', 'items': []}]}", {"/blocks/0/items"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'list', 'items': 'a', 'ordered': 'yes'}]}",
     {"/blocks/0/ordered", "/blocks/0/items"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'list', 'items': [1, {'items': ['x']}, {'text': 'a', 'sub': []}, "
     "{'text': 'b', 'items': [[]]}]}]}",
     {"/blocks/0/items/0", "/blocks/0/items/1", "/blocks/0/items/2/sub",
      "/blocks/0/items/3/items/0"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'list', 'items': [{'text': '1', 'items': [{'text': '2', 'items': "
     "[{'text': '3', 'items': [{'text': '4', 'items': [{'text': '5', 'items': [{'text': '6', "
     "'items': [{'text': '7', 'items': [{'text': '8', 'items': [{'text': '9', 'items': [{'text': "
     "'10', 'items': ['11']}]}]}]}]}]}]}]}]}]}]}]}",
     {"/blocks/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0"}},
    {D, SPEC, "{'blocks': [{'type': 'table'}]}", {"/blocks/0/rows"}},
    {D, SPEC, "{'blocks': [{'type': 'table', 'rows': {}}]}", {"/blocks/0/rows"}},
    {D, SPEC, "{'blocks': [{'type': 'table', 'headers': 'a', 'rows': []}]}", {"/blocks/0/headers"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'table', 'rows': [['a', ['b']], 'row', ['c', {'value': 1}, {'text': "
     "'x', 'italic': true}]]}]}",
     {"/blocks/0/rows/0/1", "/blocks/0/rows/1", "/blocks/0/rows/2/1/value",
      "/blocks/0/rows/2/2/italic"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'table', 'headers': [{'runs': 1}], 'rows': [['a']]}]}",
     {"/blocks/0/headers/0/runs"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'table', 'rows': [['a', 'b']], 'widths': [1]}]}",
     {"/blocks/0/widths"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'table', 'rows': [['a', 'b', 'c']], 'widths': [1, 0, 'x']}]}",
     {"/blocks/0/widths/1", "/blocks/0/widths/2"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'table', 'rows': [['a']], 'widths': 1}]}",
     {"/blocks/0/widths"}},
    {D, SPEC, "{'blocks': [{'type': 'code'}]}", {"/blocks/0/text"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'code', 'text': 'x', 'language': 3, 'lang': 'py'}]}",
     {"/blocks/0/lang", "/blocks/0/language"}},
    {D, SPEC, "{'blocks': [{'type': 'code', 'runs': ['x']}]}", {"/blocks/0/runs"}},
    {D, SPEC, "{'blocks': [{'type': 'page_break', 'text': 'x'}]}", {"/blocks/0/text"}},
    {D,
     SPEC,
     "{'blocks': [{'type': 'image', 'src': 'data:image/png;base64,AAAA', 'height': 5}]}",
     {"/blocks/0/height", "/blocks/0/src"}},
    /* three mistakes give three errors */
    {H,
     SPEC,
     "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 7}, {'type': 'paragraf', 'text': 'b'},"
     "{'type': 'paragraph', 'runs': [{'text': 'c', 'italics': true}]}]}",
     {"/blocks/0/level", "/blocks/1/type", "/blocks/2/runs/0/italics"}},
    /* page */
    {D, SPEC, "{'page': 'A4', 'blocks': []}", {"/page"}},
    {D,
     SPEC,
     "{'page': {'size': 'B5', 'orientation': 'sideways', 'margin': 5}, 'blocks': []}",
     {"/page/margin", "/page/size", "/page/orientation"}},
    {D, SPEC, "{'page': {'margins': 400}, 'blocks': []}", {"/page/margins"}},
    {D,
     SPEC,
     "{'page': {'margins': {'top': -1, 'left': 'x', 'inner': 3}}, 'blocks': []}",
     {"/page/margins/inner", "/page/margins/top", "/page/margins/left"}},
    {D,
     SPEC,
     "{'page': {'size': 'A5', 'orientation': 'landscape', 'margins': {'top': 300, 'bottom': 120}}, "
     "'blocks': []}",
     {"/page/margins"}},
    /* legacy sections */
    {D,
     SPEC,
     "{'sections': [{'heading': 1, 'paragraphs': ['a', 2], 'body': 'x'}, 'x', {'paragraphs': "
     "'p'}]}",
     {"/sections/0/body", "/sections/0/heading", "/sections/0/paragraphs/1", "/sections/1",
      "/sections/2/paragraphs"}},
    /* presentations */
    {K, SPEC, "{'slides': {}}", {"/slides"}},
    {K, SPEC, "{'slides': [], 'size': '16:10'}", {"/size"}},
    {K, SPEC, "{'slides': ['Title only']}", {"/slides/0"}},
    {K,
     SPEC,
     "{'slides': [{'title': 1, 'subtitle': [], 'notes': 2}]}",
     {"/slides/0/title", "/slides/0/subtitle", "/slides/0/notes"}},
    {K,
     SPEC,
     "{'slides': [{'layout': 'title_only'}, {'layout': 3}, {'layuot': 'blank'}]}",
     {"/slides/0/layout", "/slides/1/layout", "/slides/2/layuot"}},
    {K,
     SPEC,
     "{'slides': [{'bullets': 'one'}, {'bullets': [1]}, {'bullets': [{'text': 'a', 'items': "
     "[{'txt': 'b'}]}]}]}",
     {"/slides/0/bullets", "/slides/1/bullets/0", "/slides/2/bullets/0/items/0/txt"}},
    {K,
     SPEC,
     "{'slides': [{'image': 'x.png'}, {'image': {'type': 'table', 'alt': 'a'}}, {'table': {'type': "
     "'image', 'rows': []}}]}",
     {"/slides/0/image", "/slides/1/image/type", "/slides/1/image/src", "/slides/2/table/type"}},
    {K,
     SPEC,
     "{'slides': [{'table': {'rows': [[1, [2]]], 'caption': 'c'}}]}",
     {"/slides/0/table/caption", "/slides/0/table/rows/0/1"}},
    {K,
     SPEC,
     "{'slides': [{'title': 'a', 'footnotes': ['b']}], 'skin': 'dark'}",
     {"/skin", "/slides/0/footnotes"}},
    /* spreadsheets */
    {S, SPEC, "{'sheets': ['Sheet1']}", {"/sheets/0"}},
    {S, SPEC, "{'sheets': [{'name': 'A'}]}", {"/sheets/0/rows"}},
    {S, SPEC, "{'sheets': [{'rows': 'a'}]}", {"/sheets/0/rows"}},
    {S, SPEC, "{'sheets': [{'rows': [1, [2], 'x']}]}", {"/sheets/0/rows/0", "/sheets/0/rows/2"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [[[1], {'a': 1}, {'value': [1]}, {'format': '0'}, {}]]}]}",
     {"/sheets/0/rows/0/0", "/sheets/0/rows/0/1/a", "/sheets/0/rows/0/2/value",
      "/sheets/0/rows/0/3", "/sheets/0/rows/0/4"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [[9007199254740993, -9007199254740993, 9007199254740992]]}]}",
     {"/sheets/0/rows/0/0", "/sheets/0/rows/0/1"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [[{'date': '1899-12-31'}, {'date': '2026-02-29'}, {'date': "
     "'2026-13-01'},"
     "{'date': '26-11-30'}, {'date': '2026-11-30T25:00'}, {'date': 20261130}, {'date': "
     "'2026-11-30', 'value': 1}]]}]}",
     {"/sheets/0/rows/0/0/date", "/sheets/0/rows/0/1/date", "/sheets/0/rows/0/2/date",
      "/sheets/0/rows/0/3/date", "/sheets/0/rows/0/4/date", "/sheets/0/rows/0/5/date",
      "/sheets/0/rows/0/6"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [[{'formula': ''}, {'formula': '='}, {'formula': 5}, {'formula': 'A1', "
     "'value': [1]},"
     "{'value': 1, 'format': ''}, {'value': 1, 'format': 3}]]}]}",
     {"/sheets/0/rows/0/0/formula", "/sheets/0/rows/0/1/formula", "/sheets/0/rows/0/2/formula",
      "/sheets/0/rows/0/3/value", "/sheets/0/rows/0/4/format", "/sheets/0/rows/0/5/format"}},
    {S,
     SPEC,
     "{'sheets': [{'name': 'a/b', 'rows': []}, {'name': 'x[1]', 'rows': []}, {'name': '', 'rows': "
     "[]},"
     "{'name': '   ', 'rows': []}, {'name': '`quoted', 'rows': []}, {'name': 'History', 'rows': "
     "[]},"
     "{'name': 'abcdefghijklmnopqrstuvwxyzabcdef', 'rows': []}, {'name': 7, 'rows': []}]}",
     {"/sheets/0/name", "/sheets/1/name", "/sheets/2/name", "/sheets/3/name", "/sheets/4/name",
      "/sheets/5/name", "/sheets/6/name", "/sheets/7/name"}},
    {S,
     SPEC,
     "{'sheets': [{'name': 'Data', 'rows': []}, {'name': 'DATA', 'rows': []}, {'name': 'data', "
     "'rows': []}]}",
     {"/sheets/1/name", "/sheets/2/name"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [], 'freeze': 'A0'}, {'rows': [], 'freeze': '2A'}, {'rows': [], "
     "'freeze': 2},"
     "{'rows': [], 'freeze': 'XFE1'}, {'rows': [], 'header': 'yes'}]}",
     {"/sheets/0/freeze", "/sheets/1/freeze", "/sheets/2/freeze", "/sheets/3/freeze",
      "/sheets/4/header"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [], 'widths': [0, 256, 'x', 10]}, {'rows': [], 'widths': 10}]}",
     {"/sheets/0/widths/0", "/sheets/0/widths/1", "/sheets/0/widths/2", "/sheets/1/widths"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [], 'columns': 'a'}, {'rows': [], 'columns': ['a', 1]}]}",
     {"/sheets/0/columns", "/sheets/1/columns/1"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [], 'nmae': 'x', 'freez': 'A2'}], 'title': []}",
     {"/title", "/sheets/0/nmae", "/sheets/0/freez"}},
    {S,
     SPEC,
     "{'sheets': [{'rows': [[{'value': 1, 'footnote': 'x'}]]}]}",
     {"/sheets/0/rows/0/0/footnote"}},
    /* an unknown key stands for the missing one: one error, not two */
    {D,
     SPEC,
     "{'blocks': [{'type': 'paragraph', 'txt': 'a'}, {'type': 'list', 'itmes': []},"
     "{'type': 'image', 'source': 'x'}, {'type': 'table', 'row': []}, {'type': 'code', 'body': "
     "'x'}]}",
     {"/blocks/0/txt", "/blocks/1/itmes", "/blocks/2/source", "/blocks/3/row", "/blocks/4/body"}},
    {S,
     SPEC,
     "{'sheets': [{'row': []}, {'rows': [[{'vaule': 1}]]}]}",
     {"/sheets/0/row", "/sheets/1/rows/0/0/vaule"}},
    /* but a top-level required key is always reported */
    {D, SPEC, "{'slides': [{'title': 'x'}]}", {"/slides", ""}},
    {K, SPEC, "{'sheets': []}", {"/sheets", ""}},
    /* keys with / and ~ are escaped in paths */
    {D, SPEC, "{'blocks': [], 'a/b': 1, 'c~d': 2}", {"/a~1b", "/c~0d"}},
};

static void test_error_table(void **state)
{
    size_t n = sizeof err_cases / sizeof err_cases[0];
    assert_true(n >= 80);
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        const err_case *c = &err_cases[i];
        qr_errlist e = {0};
        qr_doc *d = (qr_doc *)1;
        qr_status st = run(c->kind, c->spec, &d, &e, NULL);
        size_t want = 0;
        while (want < 8 && c->paths[want])
            want++;
        int okay = st == c->status && d == NULL && e.count == want;
        for (size_t k = 0; okay && k < want; k++) {
            if (strcmp(e.items[k].path, c->paths[k]) != 0) okay = 0;
            if (e.items[k].code != c->status && e.items[k].code != QR_E_SPEC) okay = 0;
            if (!e.items[k].message[0]) okay = 0;
        }
        if (!okay) {
            print_message("case %zu (%s, wanted %s and %zu errors): %s\n", i, qr_status_str(st),
                          qr_status_str(c->status), want, c->spec);
            dump(&e);
            failures++;
        }
        qr_errlist_clear(&e);
    }
    assert_int_equal(failures, 0);
}

/* Messages and hints that matter to a model reading them. */
static void test_error_messages(void **state)
{
    expect_one(D, "{'blocks': [{'type': 'paragraph', 'runs': [{'text': 'a', 'bolt': true}]}]}",
               SPEC, "/blocks/0/runs/0/bolt", "unknown key \"bolt\"", "did you mean \"bold\"?");
    expect_one(P, "{'blocks': [{'type': 'heading', 'text': 'a', 'level': 9}]}", SPEC,
               "/blocks/0/level", "expected an integer from 1 to 6, got 9", NULL);
    expect_one(D, "{'blocks': [{'type': 'headng', 'text': 'x'}]}", SPEC, "/blocks/0/type",
               "valid types are heading, paragraph, list, table, code, image, page_break",
               "did you mean \"heading\"?");
    expect_one(D, "{'blocks': [{'type': 'paragraph', 'text': 'a', 'runs': []}]}", SPEC, "/blocks/0",
               "both", "pick one");
    expect_one(D, "{'blocks': [{'type': 'paragraph', 'text': 'a', 'footnotes': []}]}", SPEC,
               "/blocks/0/footnotes", "unknown key \"footnotes\"", "a footnote is a run");
    expect_one(
        D, "{'blocks': [{'type': 'paragraph', 'runs': [{'text': 'a', 'link': 'javascript:x'}]}]}",
        SPEC, "/blocks/0/runs/0/link", "not allowed", "https:");
    expect_one(D, "{'title': 'x'}", SPEC, "", "\"blocks\"", NULL);
    expect_one(D, "{'title': 'x'}", SPEC, "", "\"sections\"", NULL);
    expect_one(S, "{'sheets': [{'rows': [[12345678901234567]]}]}", SPEC, "/sheets/0/rows/0/0",
               "2^53", "send it as a string to keep every digit");
    expect_one(S, "{'sheets': [{'rows': [[{'date': '1900-01-01'}]]}]}", SPEC,
               "/sheets/0/rows/0/0/date", "before 1900-03-01", NULL);
    expect_one(S, "{'sheets': [{'name': 'Q3', 'rows': []}, {'name': 'q3', 'rows': []}]}", SPEC,
               "/sheets/1/name", "already used by sheet 0", "ignoring case");
    expect_one(S, "{'sheets': [{'name': 'History', 'rows': []}]}", SPEC, "/sheets/0/name",
               "reserved", NULL);
    expect_one(K, "{'slides': [{'layout': 'titel'}]}", SPEC, "/slides/0/layout", "unknown layout",
               "did you mean \"title\"?");
    expect_one(D, "{'blocks': [], 'slides': []}", SPEC, "/slides", "unknown key \"slides\"",
               "\"slides\" belongs in a presentation spec (.pptx); this is a document spec");
    expect_one(
        D, "{'blocks': [], 'colour': []}", SPEC, "/colour", "unknown key \"colour\"",
        "a document spec takes: \"title\", \"lang\", \"theme\", \"accent\", "
        "\"numbered_headings\", \"notes\", \"properties\", \"page\", \"sections\", \"blocks\"");
    expect_one(
        D,
        "{'blocks': [{'type': 'list', 'items': [{'text': '1', 'items': [{'text': '2', 'items': "
        "[{'text': '3', 'items': [{'text': '4', 'items': [{'text': '5', 'items': [{'text': '6', "
        "'items': [{'text': '7', 'items': [{'text': '8', 'items': [{'text': '9', 'items': "
        "['10']}]}]}]}]}]}]}]}]}]}]}",
        SPEC,
        "/blocks/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0/items/0",
        "max_list_depth", "qr_limits.max_list_depth");
    /* words models use get the right suggestion */
    expect_one(D, "{'blocks': [{'type': 'bullet_list', 'items': ['a']}]}", SPEC, "/blocks/0/type",
               "unknown block type \"bullet_list\"", "did you mean \"list\"?");
    expect_one(
        D, "{'blocks': [{'type': 'paragraph', 'runs': [{'text': 'a', 'href': 'https://x.org'}]}]}",
        SPEC, "/blocks/0/runs/0/href", "unknown key \"href\"", "did you mean \"link\"?");
    expect_one(D, "{'blocks': [{'type': 'paragraph', 'content': 'x'}]}", SPEC, "/blocks/0/content",
               NULL, "did you mean \"text\"?");
    expect_one(S, "{'sheets': [{'rows': [[{'value': 1, 'number_format': '0'}]]}]}", SPEC,
               "/sheets/0/rows/0/0/number_format", NULL, "did you mean \"format\"?");
    expect_one(K, "{'slides': [{'title': 'a', 'points': ['b']}]}", SPEC, "/slides/0/points", NULL,
               "did you mean \"bullets\"?");
    /* nine levels are fine */
    qr_doc *d = ok(
        D, "{'blocks': [{'type': 'list', 'items': [{'text': '1', 'items': [{'text': '2', 'items': "
           "[{'text': '3', 'items': [{'text': '4', 'items': [{'text': '5', 'items': [{'text': '6', "
           "'items': [{'text': '7', 'items': [{'text': '8', 'items': ['9']}]}]}]}]}]}]}]}]}]}");
    qr_doc_free(d);
}

static void test_json_errors(void **state)
{
    qr_errlist e = {0};
    qr_doc *d = NULL;
    const char *s = "{\"blocks\": [\n  {\"type\": \"paragraph\" \"text\": \"a\"}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, NULL, &d, &e), QR_E_JSON);
    assert_int_equal(e.count, 1);
    assert_int_equal(e.items[0].code, QR_E_JSON);
    assert_string_equal(e.items[0].path, "");
    assert_non_null(strstr(e.items[0].message, "line 2, column"));
    qr_errlist_clear(&e);

    s = "{\"blocks\": [], \"blocks\": []}";
    assert_int_equal(qr_compile(s, strlen(s), D, NULL, &d, &e), QR_E_JSON);
    assert_non_null(strstr(e.items[0].message, "duplicate"));
    qr_errlist_clear(&e);

    s = "{\"blocks\": [{\"type\": \"paragraph\", \"text\": \"caf\xC3\"}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, NULL, &d, &e), QR_E_UTF8);
    assert_string_equal(e.items[0].message, "invalid UTF-8 at byte 46");
    qr_errlist_clear(&e);
    s = "{\"a\": \"\xED\xA0\x80\"}"; /* a surrogate */
    assert_int_equal(qr_compile(s, strlen(s), D, NULL, &d, &e), QR_E_UTF8);
    assert_string_equal(e.items[0].message, "invalid UTF-8 at byte 7");
    qr_errlist_clear(&e);
    s = "{\"a\": \"\xC0\xAF\"}"; /* overlong */
    assert_int_equal(qr_compile(s, strlen(s), D, NULL, &d, &e), QR_E_UTF8);
    qr_errlist_clear(&e);

    s = "";
    assert_int_equal(qr_compile(s, 0, D, NULL, &d, &e), QR_E_JSON);
    qr_errlist_clear(&e);
    s = "{\"sheets\": [{\"rows\": [[123456789012345678901234567890]]}]}";
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_E_JSON);
    assert_non_null(e.items[0].hint);
    assert_non_null(strstr(e.items[0].hint, "string"));
    qr_errlist_clear(&e);

    /* NUL inside a string is a spec error at its path */
    s = "{\"blocks\": [{\"type\": \"paragraph\", \"text\": \"a\\u0000b\"}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, NULL, &d, &e), QR_E_SPEC);
    assert_string_equal(e.items[0].path, "/blocks/0/text");
    qr_errlist_clear(&e);

    /* bad arguments */
    assert_int_equal(qr_compile(NULL, 5, D, NULL, &d, &e), QR_E_USAGE);
    qr_errlist_clear(&e);
    assert_int_equal(qr_compile("{}", 2, QR_KIND_COUNT, NULL, &d, &e), QR_E_USAGE);
    qr_errlist_clear(&e);
}

static void test_limits(void **state)
{
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    assert_int_equal(o.limits.max_input, 64u << 20);
    assert_int_equal(o.limits.max_depth, 64);
    assert_int_equal(o.limits.max_list_depth, 9);
    assert_int_equal(o.limits.max_string, 1u << 20);
    assert_int_equal(o.limits.max_cells, 20000000);
    assert_int_equal(o.limits.max_image, 20u << 20);
    assert_int_equal(o.limits.max_blocks, 1000000);
    assert_int_equal(o.limits.max_output, 512u << 20);
    assert_null(o.base_dir);

    qr_errlist e = {0};
    qr_doc *d = NULL;
    const char *s = "{\"blocks\": []}";

    o.limits.max_input = 10;
    assert_int_equal(qr_compile(s, strlen(s), D, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].message, "input is 14 bytes; the limit max_input is 10 bytes");
    assert_non_null(strstr(e.items[0].hint, "qr_limits.max_input"));
    qr_errlist_clear(&e);
    qr_compile_opts_default(&o);

    /* depth: 65 nested arrays inside an unknown key */
    char deep[400] = "{\"blocks\": [], \"x\": ";
    for (int i = 0; i < 64; i++)
        strcat(deep, "[");
    for (int i = 0; i < 64; i++)
        strcat(deep, "]");
    strcat(deep, "}");
    assert_int_equal(qr_compile(deep, strlen(deep), D, &o, &d, &e), QR_E_LIMIT);
    assert_int_equal(e.count, 1);
    assert_non_null(strstr(e.items[0].message, "max_depth"));
    assert_string_equal(e.items[0].path, "");
    assert_non_null(strstr(e.items[0].message, "(at .../0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0/0"));
    qr_errlist_clear(&e);
    o.limits.max_depth = 0; /* disabled: now only the unknown key */
    assert_int_equal(qr_compile(deep, strlen(deep), D, &o, &d, &e), QR_E_SPEC);
    assert_string_equal(e.items[0].path, "/x");
    qr_errlist_clear(&e);
    /* past jansson's own 2048 */
    char *deeper = malloc(5000);
    memset(deeper, '[', 2100);
    memset(deeper + 2100, ']', 2100);
    deeper[4200] = '\0';
    assert_int_equal(qr_compile(deeper, 4200, D, NULL, &d, &e), QR_E_LIMIT);
    qr_errlist_clear(&e);
    free(deeper);
    qr_compile_opts_default(&o);

    o.limits.max_string = 4;
    s = "{\"blocks\": [{\"type\": \"paragraph\", \"text\": \"hello\"}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].path, "/blocks/0/text");
    assert_non_null(strstr(e.items[0].message, "max_string"));
    qr_errlist_clear(&e);
    s = "{\"sheets\": [{\"rows\": [[\"ok\", \"hello\"]]}]}";
    assert_int_equal(qr_compile(s, strlen(s), S, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].path, "/sheets/0/rows/0/1");
    qr_errlist_clear(&e);
    qr_compile_opts_default(&o);

    o.limits.max_cells = 5;
    s = "{\"sheets\": [{\"rows\": [[1, 2, 3], [4, 5, 6], [7]]}]}";
    assert_int_equal(qr_compile(s, strlen(s), S, &o, &d, &e), QR_E_LIMIT);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].path, "/sheets/0/rows");
    assert_non_null(strstr(e.items[0].message, "max_cells"));
    qr_errlist_clear(&e);
    s = "{\"blocks\": [{\"type\": \"table\", \"headers\": [\"a\", \"b\"], \"rows\": [[1, 2], "
        "[3]]}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].path, "/blocks/0");
    qr_errlist_clear(&e);
    qr_compile_opts_default(&o);

    o.limits.max_blocks = 2;
    s = "{\"sections\": [{\"heading\": \"h\", \"paragraphs\": [\"a\"]}], \"blocks\": [{\"type\": "
        "\"page_break\"}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, &o, &d, &e), QR_E_LIMIT);
    assert_non_null(strstr(e.items[0].message, "max_blocks"));
    qr_errlist_clear(&e);
    s = "{\"slides\": [{}, {}, {}]}";
    assert_int_equal(qr_compile(s, strlen(s), K, &o, &d, &e), QR_E_LIMIT);
    assert_string_equal(e.items[0].path, "/slides");
    qr_errlist_clear(&e);
    s = "{\"sheets\": [{\"rows\": []}, {\"rows\": []}, {\"rows\": []}]}";
    assert_int_equal(qr_compile(s, strlen(s), S, &o, &d, &e), QR_E_LIMIT);
    qr_errlist_clear(&e);
    qr_compile_opts_default(&o);

    /* a spec limit and a spec error together: the status is the limit */
    o.limits.max_string = 3;
    s = "{\"blocks\": [{\"type\": \"paragraph\", \"text\": \"long\"}, {\"type\": \"nope\"}]}";
    assert_int_equal(qr_compile(s, strlen(s), D, &o, &d, &e), QR_E_LIMIT);
    assert_int_equal(e.count, 2);
    assert_int_equal(e.items[0].code, QR_E_LIMIT);
    assert_int_equal(e.items[1].code, QR_E_SPEC);
    qr_errlist_clear(&e);
}

/* Thousands of bad cells: the list is capped, with a final count. */
static void test_error_cap(void **state)
{
    size_t n = 5000;
    char *s = malloc(n * 4 + 64), *p = s;
    p += sprintf(p, "{\"sheets\": [{\"rows\": [[");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s[]", i ? "," : "");
    strcpy(p, "]]}]}");
    qr_errlist e = {0};
    qr_doc *d = NULL;
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_E_SPEC);
    assert_int_equal(e.count, 1001);
    assert_string_equal(e.items[999].path, "/sheets/0/rows/0/999");
    assert_string_equal(e.items[1000].message, "and 4000 more errors");
    qr_errlist_clear(&e);
    free(s);
}

static void test_rows_freed_and_big_sheet(void **state)
{
    /* 20,000 rows of mixed cells compile, with every cell checked */
    size_t n = 20000;
    char *s = malloc(n * 64 + 64), *p = s;
    p += sprintf(
        p, "{\"sheets\": [{\"name\": \"Big\", \"columns\": [\"i\", \"s\", \"x\"], \"rows\": [");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s[%zu, \"r%zu\", %zu.5]", i ? "," : "", i, i, i);
    strcpy(p, "]}]}");
    qr_errlist e = {0};
    qr_doc *d = NULL;
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_OK);
    assert_int_equal(d->sheets[0].n_rows, n + 1);
    assert_int_equal(d->sheets[0].n_cols, 3);
    assert_true(d->sheets[0].header);
    for (size_t i = 0; i < n; i++) {
        const qr_cell *c = d->sheets[0].rows[i + 1].cells;
        char want[32];
        snprintf(want, sizeof want, "r%zu", i);
        assert_true(c[0].v.num == (double)i);
        assert_string_equal(c[1].v.str, want);
        assert_int_equal(c[1].len, strlen(want));
        assert_true(c[2].v.num == (double)i + 0.5);
    }
    qr_doc_free(d);
    free(s);
}

/* Excel's own limits: 65535 custom number formats, 1048576 rows, 16384 columns. */
static void test_excel_limits(void **state)
{
    size_t n = 65536;
    char *s = malloc(n * 40 + 64), *p = s;
    p += sprintf(p, "{\"sheets\": [{\"rows\": [");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s[{\"value\": 1, \"format\": \"f%zu\"}]", i ? "," : "", i);
    strcpy(p, "]}]}");
    qr_errlist e = {0};
    qr_doc *d = NULL;
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_E_SPEC);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].path, "/sheets/0/rows/65535/0/format");
    assert_non_null(strstr(e.items[0].message, "65535"));
    qr_errlist_clear(&e);
    /* one fewer fits: fmt 65535 is the last index */
    strcpy(strstr(s, ",[{\"value\": 1, \"format\": \"f65535\"}]"), "]}]}");
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_OK);
    assert_int_equal(d->n_formats, 65536);
    assert_int_equal(d->sheets[0].rows[65534].cells[0].fmt, 65535);
    assert_string_equal(d->formats[65535], "f65534");
    qr_doc_free(d);
    free(s);

    n = 1048576; /* rows, plus the columns row: one too many */
    s = malloc(n * 3 + 128);
    p = s + sprintf(s, "{\"sheets\": [{\"columns\": [\"a\"], \"rows\": [");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s[]", i ? "," : "");
    strcpy(p, "]}]}");
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_E_SPEC);
    assert_string_equal(e.items[0].path, "/sheets/0/rows");
    assert_non_null(strstr(e.items[0].message, "1048576"));
    qr_errlist_clear(&e);
    free(s);

    n = 16385;
    s = malloc(n * 2 + 64);
    p = s + sprintf(s, "{\"sheets\": [{\"rows\": [[1], [");
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s0", i ? "," : "");
    strcpy(p, "]]}]}");
    assert_int_equal(qr_compile(s, strlen(s), S, NULL, &d, &e), QR_E_SPEC);
    assert_string_equal(e.items[0].path, "/sheets/0/rows/1");
    qr_errlist_clear(&e);
    free(s);
}

static void test_kind_names(void **state)
{
    qr_kind k;
    const char *names[] = {"document", "spreadsheet", "presentation", "pdf", "html"};
    for (int i = 0; i < QR_KIND_COUNT; i++) {
        assert_int_equal(qr_kind_parse(names[i], &k), 0);
        assert_int_equal(k, i);
        assert_string_equal(qr_kind_name((qr_kind)i), names[i]);
    }
    assert_int_equal(qr_kind_parse("hologram", &k), -1);
    assert_int_equal(qr_kind_parse(NULL, &k), -1);
}

/* ---- qr_compile_reader: the same results as qr_compile, read in pieces -------- */

/* Hands out the text in pieces whose lengths cycle through sizes[] (one
 * size 1: byte by byte), never more than asked; fails after fail_at bytes
 * when fail_at is set. */
typedef struct piece_reader {
    const char *p;
    size_t left, done, fail_at;
    const size_t *sizes;
    size_t n_sizes, turn;
} piece_reader;

static size_t piece_read(void *ctx, char *buf, size_t size)
{
    piece_reader *r = ctx;
    if (r->fail_at && r->done >= r->fail_at) return (size_t)-1;
    size_t n = r->sizes[r->turn++ % r->n_sizes];
    if (n > size) n = size;
    if (n > r->left) n = r->left;
    memcpy(buf, r->p, n);
    r->p += n;
    r->left -= n;
    r->done += n;
    return n;
}

static const size_t one_byte[] = {1};
static const size_t odd_pieces[] = {1, 2, 3, 5, 7, 4, 1, 6};

static qr_status compile_pieces(const char *text, size_t len, const size_t *sizes, size_t n_sizes,
                                qr_kind kind, const qr_compile_opts *o, qr_doc **doc, qr_errlist *e)
{
    piece_reader r = {.p = text, .left = len, .sizes = sizes, .n_sizes = n_sizes};
    qr_status st = qr_compile_reader(piece_read, &r, kind, o, doc, e);
    assert_int_equal(r.left, 0); /* read to the end, whatever the outcome */
    return st;
}

static void assert_same_errors(const qr_errlist *a, const qr_errlist *b, const char *what)
{
    if (a->count != b->count) {
        print_message("%s: %zu errors vs %zu\n", what, a->count, b->count);
        dump(a);
        dump(b);
    }
    assert_int_equal(a->count, b->count);
    for (size_t i = 0; i < a->count; i++) {
        assert_int_equal(a->items[i].code, b->items[i].code);
        assert_string_equal(a->items[i].path, b->items[i].path);
        assert_string_equal(a->items[i].message, b->items[i].message);
        assert_true((a->items[i].hint == NULL) == (b->items[i].hint == NULL));
        if (a->items[i].hint) assert_string_equal(a->items[i].hint, b->items[i].hint);
    }
}

/* The tree, as the bytes the kind's backend writes from it (docx, pptx, xlsx). */
static void tree_bytes(const qr_doc *d, qr_buf *out)
{
    qr_format f = d->kind == QR_KIND_SPREADSHEET    ? QR_FORMAT_XLSX
                  : d->kind == QR_KIND_PRESENTATION ? QR_FORMAT_PPTX
                                                    : QR_FORMAT_DOCX;
    const qr_backend *be = qr_backend_for(f);
    assert_non_null(be);
    qr_errlist w = {0}, e = {0};
    qr_render_ctx ctx = {.doc = d,
                         .fonts = f == QR_FORMAT_XLSX ? NULL : qr_fonts_default(),
                         .warnings = &w,
                         .errors = &e,
                         .png_page = 1,
                         .png_dpi = 96,
                         .epoch = qr_output_epoch()};
    qr_sink sink;
    qr_sink_init_buf(&sink, out);
    assert_int_equal(be->render(&ctx, &sink), QR_OK);
    assert_false(out->oom);
    qr_errlist_clear(&w);
    qr_errlist_clear(&e);
}

/* qr_compile and qr_compile_reader (byte by byte, and in odd pieces) agree:
 * the same status, the same errors, and trees that render to the same bytes. */
static void assert_same_compile(const char *text, size_t len, qr_kind kind,
                                const qr_compile_opts *o, const char *what)
{
    qr_errlist e0 = {0};
    qr_doc *d0 = NULL;
    qr_status st0 = qr_compile(text, len, kind, o, &d0, &e0);
    qr_buf b0 = {0};
    if (d0) tree_bytes(d0, &b0);
    for (int pass = 0; pass < 2; pass++) {
        qr_errlist e1 = {0};
        qr_doc *d1 = NULL;
        qr_status st1 = pass == 0 ? compile_pieces(text, len, one_byte, 1, kind, o, &d1, &e1)
                                  : compile_pieces(text, len, odd_pieces, 8, kind, o, &d1, &e1);
        if (st1 != st0)
            print_message("%s: status %s streamed, %s in memory\n", what, qr_status_str(st1),
                          qr_status_str(st0));
        assert_int_equal(st1, st0);
        assert_same_errors(&e1, &e0, what);
        assert_true((d1 == NULL) == (d0 == NULL));
        if (d1) {
            qr_buf b1 = {0};
            tree_bytes(d1, &b1);
            assert_int_equal(b1.len, b0.len);
            assert_memory_equal(b1.data, b0.data, b0.len);
            qr_buf_free(&b1);
        }
        qr_doc_free(d1);
        qr_errlist_clear(&e1);
    }
    qr_buf_free(&b0);
    qr_doc_free(d0);
    qr_errlist_clear(&e0);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    qr_buf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
        qr_buf_append(&b, chunk, n);
    fclose(fp);
    return qr_buf_steal(&b, len);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entries of a folder (caller frees each and the array). */
static size_t list_dir(const char *dir, char ***out)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    *out = names;
    return n;
}

static void test_reader_fixtures(void **state)
{
    (void)state;
    char root[4096], path[4096 + 600];
    snprintf(root, sizeof root, "%s/fixtures", QR_SOURCE_DIR);
    char **names;
    size_t n = list_dir(root, &names), checked = 0;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(names[i], "errors") == 0) goto next;
        snprintf(path, sizeof path, "%s/%s/spec.json", root, names[i]);
        size_t len;
        char *text = slurp(path, &len);
        if (!text) goto next;
        qr_kind kind;
        assert_int_equal(qr_kind_guess(text, len, &kind), 0);
        qr_compile_opts o;
        qr_compile_opts_default(&o);
        snprintf(path, sizeof path, "%s/%s", root, names[i]);
        o.base_dir = path; /* images resolve */
        assert_same_compile(text, len, kind, &o, names[i]);
        free(text);
        checked++;
    next:
        free(names[i]);
    }
    free(names);
    assert_true(checked >= 30);
}

static void test_reader_error_catalogue(void **state)
{
    (void)state;
    static const char *const kinds[] = {"document", "spreadsheet", "presentation", "pdf", "html"};
    char root[4096], path[4096 + 600];
    snprintf(root, sizeof root, "%s/fixtures/errors", QR_SOURCE_DIR);
    char **names;
    size_t n = list_dir(root, &names), checked = 0;
    for (size_t i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s/expect.json", root, names[i]);
        size_t elen;
        char *expect = slurp(path, &elen);
        assert_non_null(expect);
        qr_kind kind = QR_KIND_COUNT;
        for (int k = 0; k < 5; k++) {
            char want[64];
            snprintf(want, sizeof want, "\"kind\": \"%s\"", kinds[k]);
            if (strstr(expect, want)) qr_kind_parse(kinds[k], &kind);
        }
        assert_int_not_equal(kind, QR_KIND_COUNT);
        snprintf(path, sizeof path, "%s/%s/spec.json", root, names[i]);
        size_t len;
        char *text = slurp(path, &len);
        assert_non_null(text);
        qr_compile_opts o;
        qr_compile_opts_default(&o);
        snprintf(path, sizeof path, "%s/%s", root, names[i]);
        o.base_dir = path;
        assert_same_compile(text, len, kind, &o, names[i]);
        free(text);
        free(expect);
        free(names[i]);
        checked++;
    }
    free(names);
    assert_true(checked >= 144);
}

static void test_reader_utf8_split(void **state)
{
    (void)state;
    /* 2-, 3- and 4-byte sequences, cut at every point by the pieces */
    const char *good = "{\"title\": \"\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\", "
                       "\"blocks\": [{\"type\": \"paragraph\", \"text\": "
                       "\"\xE2\x82\xAC\xC3\xA9\xF0\x9F\x98\x80x\"}]}";
    assert_same_compile(good, strlen(good), D, NULL, "good UTF-8");
    for (size_t piece = 1; piece <= 9; piece++) {
        const size_t sizes[] = {piece};
        qr_errlist e = {0};
        qr_doc *d = NULL;
        assert_int_equal(compile_pieces(good, strlen(good), sizes, 1, D, NULL, &d, &e), QR_OK);
        assert_string_equal(qr_plain(&d->title), "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
        qr_doc_free(d);
    }

    /* bad sequences: a lead byte whose continuation comes in a later piece
     * and is wrong, a truncated sequence at the end, an overlong form, a
     * surrogate, a stray continuation byte, a 4-byte form past U+10FFFF */
    static const char *const bad_specs[] = {
        "{\"title\": \"ab\xE2\x82(\", \"blocks\": []}",
        "{\"title\": \"ab\", \"blocks\": []}\xE2\x82",
        "{\"title\": \"ab\", \"blocks\": []} \xF0",
        "{\"title\": \"\xC0\xAF\", \"blocks\": []}",
        "{\"title\": \"\xED\xA0\x80\", \"blocks\": []}",
        "{\"title\": \"x\x80\", \"blocks\": []}",
        "{\"title\": \"\xF4\x90\x80\x80\", \"blocks\": []}",
        "{\"title\": \"\xF0\x9F\x98\", \"blocks\": []}",
        /* bad UTF-8 after a JSON syntax error: still the UTF-8 error, as in memory */
        "{\"title\" x \"\xFF\", \"blocks\": []}",
        "[[[[ }\xC3",
        /* after a complete value */
        "{\"blocks\": []}   \xFE",
        /* BOM, and a BOM cut short */
        "\xEF\xBB\xBF{\"blocks\": []}",
        "\xEF\xBB",
        "\xEF\xBB\xBF",
        "\xEF\xBB\xBF\xEF\xBB\xBF{\"blocks\": []}",
    };
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
        const char *t = bad_specs[i];
        assert_same_compile(t, strlen(t), D, NULL, t);
        for (size_t piece = 1; piece <= 5; piece++) {
            const size_t sizes[] = {piece};
            qr_errlist e0 = {0}, e1 = {0};
            qr_doc *d0 = NULL, *d1 = NULL;
            qr_status st0 = qr_compile(t, strlen(t), D, NULL, &d0, &e0);
            assert_int_equal(compile_pieces(t, strlen(t), sizes, 1, D, NULL, &d1, &e1), st0);
            assert_same_errors(&e1, &e0, t);
            qr_doc_free(d0);
            qr_doc_free(d1);
            qr_errlist_clear(&e0);
            qr_errlist_clear(&e1);
        }
    }
    /* the offset is the lead byte's, counted from the start of the file */
    qr_errlist e = {0};
    qr_doc *d = NULL;
    const char *t = bad_specs[0];
    assert_int_equal(compile_pieces(t, strlen(t), one_byte, 1, D, NULL, &d, &e), QR_E_UTF8);
    assert_string_equal(e.items[0].message, "invalid UTF-8 at byte 13");
    qr_errlist_clear(&e);
    t = bad_specs[8];
    assert_int_equal(compile_pieces(t, strlen(t), one_byte, 1, D, NULL, &d, &e), QR_E_UTF8);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].message, "invalid UTF-8 at byte 12");
    qr_errlist_clear(&e);
}

static void test_reader_limits_and_failures(void **state)
{
    (void)state;
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    qr_errlist e = {0};
    qr_doc *d = NULL;
    const char *s = "{\"blocks\": []}";

    /* max_input counted as the text streams; the message names the whole size */
    o.limits.max_input = 10;
    assert_int_equal(compile_pieces(s, strlen(s), one_byte, 1, D, &o, &d, &e), QR_E_LIMIT);
    assert_null(d);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].message, "input is 14 bytes; the limit max_input is 10 bytes");
    assert_non_null(strstr(e.items[0].hint, "qr_limits.max_input"));
    qr_errlist_clear(&e);
    assert_same_compile(s, strlen(s), D, &o, "max_input 10");
    o.limits.max_input = 14; /* exactly at the limit is fine */
    assert_same_compile(s, strlen(s), D, &o, "max_input 14");
    assert_int_equal(compile_pieces(s, strlen(s), odd_pieces, 8, D, &o, &d, &e), QR_OK);
    qr_doc_free(d);
    o.limits.max_input = 13;
    assert_same_compile(s, strlen(s), D, &o, "max_input 13");
    /* size wins over bad UTF-8 and bad JSON, as in memory */
    const char *bad = "{\xFF\"blocks\": [], \"x\": \"0123456789\"}";
    o.limits.max_input = 20;
    assert_int_equal(compile_pieces(bad, strlen(bad), one_byte, 1, D, &o, &d, &e), QR_E_LIMIT);
    qr_errlist_clear(&e);
    assert_same_compile(bad, strlen(bad), D, &o, "size before UTF-8");
    o.limits.max_input = 0; /* disabled */
    assert_same_compile(bad, strlen(bad), D, &o, "no max_input");
    qr_compile_opts_default(&o);

    /* a big spec, over jansson's own read size, in odd pieces */
    qr_buf big = {0};
    qr_buf_puts(&big, "{\"sheets\": [{\"name\": \"S\", \"rows\": [");
    for (int r = 0; r < 3000; r++)
        qr_buf_printf(&big, "%s[%d, \"r\xC3\xA9gion %d\", 1.5, true, null]", r ? ", " : "", r, r);
    qr_buf_puts(&big, "]}]}");
    assert_same_compile(big.data, big.len, S, &o, "big sheet");
    qr_buf_free(&big);

    /* a read error */
    piece_reader r = {.p = s, .left = strlen(s), .sizes = one_byte, .n_sizes = 1, .fail_at = 5};
    assert_int_equal(qr_compile_reader(piece_read, &r, D, NULL, &d, &e), QR_E_IO);
    assert_null(d);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].message, "cannot read the spec");
    qr_errlist_clear(&e);

    /* bad arguments */
    assert_int_equal(qr_compile_reader(NULL, NULL, D, NULL, &d, &e), QR_E_USAGE);
    qr_errlist_clear(&e);
    r = (piece_reader){.p = s, .left = strlen(s), .sizes = one_byte, .n_sizes = 1};
    assert_int_equal(qr_compile_reader(piece_read, &r, QR_KIND_COUNT, NULL, &d, &e), QR_E_USAGE);
    qr_errlist_clear(&e);
}

/* ---- jansson on the region allocator (json_alloc.c) ------------------------ */

typedef struct alloc_case {
    char *name, *text, *dir;
    size_t len;
    qr_kind kind;
    qr_status st;
    qr_errlist errs;
    qr_buf bytes;
} alloc_case;

/* Every fixture spec and every fixtures/errors case, read into memory. */
static size_t alloc_cases(alloc_case **out)
{
    static const char *const kinds[] = {"document", "spreadsheet", "presentation", "pdf", "html"};
    alloc_case *cs = NULL;
    size_t n = 0;
    for (int errors = 0; errors < 2; errors++) {
        char root[4096], path[4096 + 600];
        snprintf(root, sizeof root, "%s/fixtures%s", QR_SOURCE_DIR, errors ? "/errors" : "");
        char **names;
        size_t m = list_dir(root, &names);
        for (size_t i = 0; i < m; i++) {
            alloc_case c = {0};
            snprintf(path, sizeof path, "%s/%s/spec.json", root, names[i]);
            c.text = slurp(path, &c.len);
            if (!c.text) goto next;
            if (errors) {
                snprintf(path, sizeof path, "%s/%s/expect.json", root, names[i]);
                size_t elen;
                char *expect = slurp(path, &elen);
                assert_non_null(expect);
                c.kind = QR_KIND_COUNT;
                for (int k = 0; k < 5; k++) {
                    char want[64];
                    snprintf(want, sizeof want, "\"kind\": \"%s\"", kinds[k]);
                    if (strstr(expect, want)) qr_kind_parse(kinds[k], &c.kind);
                }
                free(expect);
                assert_int_not_equal(c.kind, QR_KIND_COUNT);
            } else {
                assert_int_equal(qr_kind_guess(c.text, c.len, &c.kind), 0);
            }
            snprintf(path, sizeof path, "%s/%s", root, names[i]);
            c.dir = strdup(path);
            c.name = strdup(names[i]);
            cs = realloc(cs, (n + 1) * sizeof *cs);
            cs[n++] = c;
        next:
            free(names[i]);
        }
        free(names);
    }
    /* And a sheet of 60,000 rows, whose tree spans many chunks. */
    size_t rows = 60000;
    char *t = malloc(rows * 96 + 64), *p = t;
    p += sprintf(p, "{\"sheets\": [{\"name\": \"Big\", \"rows\": [");
    for (size_t i = 0; i < rows; i++)
        p += sprintf(p,
                     "%s[%zu, \"r%zu\", %zu.25, true, null, \"a longer string in row %zu\", -%zu]",
                     i ? "," : "", i, i, i, i, i);
    strcpy(p, "]}]}");
    cs = realloc(cs, (n + 1) * sizeof *cs);
    cs[n++] = (alloc_case){
        .name = strdup("60000 rows"), .text = t, .len = strlen(t), .kind = QR_KIND_SPREADSHEET};
    *out = cs;
    return n;
}

static void alloc_compile(alloc_case *c)
{
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    o.base_dir = c->dir;
    qr_doc *d = NULL;
    c->st = qr_compile(c->text, c->len, c->kind, &o, &d, &c->errs);
    if (d) tree_bytes(d, &c->bytes);
    qr_doc_free(d);
}

/* With jansson on the region allocator every case compiles to the same
 * status, errors and tree (as the backend's bytes) as with malloc, and all
 * of jansson's memory goes back. It switches the process over for good, so
 * it runs last. */
static void test_region_alloc_same_results(void **state)
{
    (void)state;
    assert_false(qr_json_alloc_on());
    alloc_case *cs;
    size_t n = alloc_cases(&cs);
    assert_true(n >= 30 + 144 + 1);
    for (size_t i = 0; i < n; i++)
        alloc_compile(&cs[i]);

    int on = qr_compile_use_region_alloc();
    /* The sanitizer builds keep jansson on malloc (json_alloc.c). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    assert_int_equal(on, 0);
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
    assert_int_equal(on, 0);
#else
    assert_int_equal(on, 1);
#endif
#else
    assert_int_equal(on, 1);
#endif
    assert_int_equal(qr_json_alloc_on(), on);
    size_t with_errors = 0;
    for (size_t i = 0; i < n; i++) {
        alloc_case r = {.text = cs[i].text, .len = cs[i].len, .kind = cs[i].kind, .dir = cs[i].dir};
        alloc_compile(&r);
        if (r.st != cs[i].st)
            print_message("%s: %s with the region allocator, %s with malloc\n", cs[i].name,
                          qr_status_str(r.st), qr_status_str(cs[i].st));
        assert_int_equal(r.st, cs[i].st);
        assert_same_errors(&r.errs, &cs[i].errs, cs[i].name);
        assert_int_equal(r.bytes.len, cs[i].bytes.len);
        if (r.bytes.len) assert_memory_equal(r.bytes.data, cs[i].bytes.data, r.bytes.len);
        with_errors += r.errs.count > 0;
        qr_errlist_clear(&r.errs);
        qr_buf_free(&r.bytes);
    }
    assert_true(with_errors >= 144);
    /* Every value was freed: this thread's current chunk is all that is left. */
    qr_json_alloc_stat st;
    qr_json_alloc_stats(&st);
    assert_int_equal(st.chunks, on); /* used, and only its current chunk is left */
    assert_int_equal(st.big, 0);
    if (on) {
        qr_json_alloc_thread_done();
        qr_json_alloc_stats(&st);
        assert_int_equal(st.chunks, 0);
    }
    for (size_t i = 0; i < n; i++) {
        free(cs[i].name);
        free(cs[i].text);
        free(cs[i].dir);
        qr_errlist_clear(&cs[i].errs);
        qr_buf_free(&cs[i].bytes);
    }
    free(cs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_document_every_block),
        cmocka_unit_test(test_document_defaults),
        cmocka_unit_test(test_document_page),
        cmocka_unit_test(test_document_legacy_sections),
        cmocka_unit_test(test_docsgpt_examples),
        cmocka_unit_test(test_string_spec),
        cmocka_unit_test(test_presentation),
        cmocka_unit_test(test_spreadsheet_cells),
        cmocka_unit_test(test_spreadsheet_sheets),
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_image_data_errors),
        cmocka_unit_test(test_error_table),
        cmocka_unit_test(test_error_messages),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_error_cap),
        cmocka_unit_test(test_rows_freed_and_big_sheet),
        cmocka_unit_test(test_excel_limits),
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_reader_fixtures),
        cmocka_unit_test(test_reader_error_catalogue),
        cmocka_unit_test(test_reader_utf8_split),
        cmocka_unit_test(test_reader_limits_and_failures),
        cmocka_unit_test(test_region_alloc_same_results), /* last: switches jansson over */
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
