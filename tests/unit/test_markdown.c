/* test_markdown.c: spec/markdown.c's mapping at the library level, and the
 * markdown writer (read/out.c) giving cmark-gfm back the blocks it wrote:
 * quotes as "> " lines, rules as "---" (the docx reader does not read these
 * blocks back yet, so the writer is checked from a compiled tree here). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "markdown.h"
#include "read_int.h"

/* The blocks of md, as compact JSON text (caller frees with free()). */
static char *blocks_json(const char *md)
{
    qr_errlist errs = {0};
    json_t *bl = qr_md_blocks(md, strlen(md), NULL, NULL, &errs);
    assert_non_null(bl);
    assert_int_equal(errs.count, 0);
    char *j = json_dumps(bl, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(bl);
    char *out = strdup(j);
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    f(j);
    return out;
}

static void test_writer_round_trip(void **state)
{
    (void)state;
    const char *spec = "{\"blocks\":[{\"type\":\"quote\",\"runs\":[\"a \",{\"text\":\"b\","
                       "\"bold\":true},\"\\nc\"]},{\"type\":\"rule\"},{\"type\":\"paragraph\","
                       "\"text\":\"after\"}]}";
    qr_compile_opts o;
    qr_compile_opts_default(&o);
    qr_doc *doc = NULL;
    qr_errlist errs = {0};
    assert_int_equal(qr_compile(spec, strlen(spec), QR_KIND_DOCUMENT, &o, &doc, &errs), QR_OK);
    qr_buf md = {0};
    assert_int_equal(qr_rd_write(doc, QR_RD_MARKDOWN, 0, 0, &md), QR_OK);
    qr_buf_putc(&md, '\0');
    assert_non_null(strstr(md.data, "> a **b**  \n> c"));
    assert_non_null(strstr(md.data, "\n\n---\n\nafter"));
    char *back = blocks_json(md.data);
    assert_string_equal(back,
                        "[{\"type\":\"quote\",\"runs\":[\"a \",{\"text\":\"b\",\"bold\":true},"
                        "\"\\nc\"]},{\"type\":\"rule\"},{\"type\":\"paragraph\",\"text\":"
                        "\"after\"}]");
    free(back);
    qr_buf_free(&md);
    qr_doc_free(doc);
}

static void test_locations_and_errors(void **state)
{
    (void)state;
    const char *md = "# T\n\ntext\n\n- a\n";
    qr_errlist errs = {0};
    qr_md_loc *locs = NULL;
    qr_md_opts o = {.line0 = 2};
    json_t *bl = qr_md_blocks(md, strlen(md), &o, &locs, &errs);
    assert_non_null(bl);
    assert_int_equal(json_array_size(bl), 3);
    assert_int_equal(locs[0].line, 3);
    assert_int_equal(locs[1].line, 5);
    assert_int_equal(locs[2].line, 7);
    free(locs);
    json_decref(bl);
    /* nesting past max_depth: a limit error at its line */
    qr_md_opts d = {.max_depth = 2, .path = "/p"};
    const char *deep = "x\n\n- a\n  - b\n    - c\n";
    assert_null(qr_md_blocks(deep, strlen(deep), &d, NULL, &errs));
    assert_int_equal(errs.count, 1);
    assert_int_equal(errs.items[0].code, QR_E_LIMIT);
    assert_string_equal(errs.items[0].path, "/p");
    assert_non_null(strstr(errs.items[0].message, "(markdown line 5, column 5)"));
    qr_errlist_clear(&errs);
    /* heading_offset stops at 6 */
    qr_md_opts h = {.heading_offset = 3};
    bl = qr_md_blocks("#### x", 6, &h, NULL, &errs);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(bl, 0), "level")), 6);
    json_decref(bl);
}

static void test_front_matter(void **state)
{
    (void)state;
    const char *f = "---\ntitle: 'A: b'\nlang: fr\n---\n# x\n";
    qr_errlist errs = {0};
    size_t len = 0;
    char *s = qr_md_spec(f, strlen(f), QR_KIND_DOCUMENT, 1, &len, &errs);
    assert_non_null(s);
    assert_string_equal(s, "{\"title\":\"A: b\",\"lang\":\"fr\",\"blocks\":[{\"type\":\"heading\","
                           "\"level\":1,\"text\":\"x\"}]}");
    free(s);
    const char *u = "---\ntitle: x\n";
    assert_null(qr_md_spec(u, strlen(u), QR_KIND_DOCUMENT, 0, &len, &errs));
    assert_true(errs.count >= 1);
    qr_errlist_clear(&errs);
}

/* qr_md_spec's document as one markdown block (what `quire render notes.md`
 * compiles): the bytes json_dumps() gives for the same object, whatever the
 * body holds (quotes, backslashes, control characters, non-ASCII), with and
 * without front matter. */
static void test_whole_body(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "",
        "# x\n",
        "plain \"quoted\" back\\slash /slash\ttab\r\nline\x01\x1f\x7f\b\f end",
        "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xd8\xa7\xd9\x84 \xe2\x80\xa8 \xf0\x9f\x98\x80\n",
        "---\ntitle: \"T\"\nlang: de\nauthor: A \\ B\n---\n\n# H\n\n* a\n* \"b\"\n",
        "---\ntitle: x\n---\n",
    };
    for (size_t k = 0; k < sizeof bodies / sizeof *bodies; k++) {
        const char *b = bodies[k];
        qr_errlist errs = {0};
        size_t len = 0;
        char *got = qr_md_spec(b, strlen(b), QR_KIND_DOCUMENT, 0, &len, &errs);
        assert_non_null(got);
        assert_int_equal(len, strlen(got));
        /* the same object built with jansson: the front matter's fields
         * (from the expanded spec) and the body with blank lines for them */
        char *ex = qr_md_spec(b, strlen(b), QR_KIND_DOCUMENT, 1, &len, &errs);
        assert_non_null(ex);
        json_t *spec = json_loads(ex, 0, NULL);
        assert_non_null(spec);
        json_object_del(spec, "blocks");
        const char *body = b;
        int lines = 0;
        if (strncmp(b, "---\n", 4) == 0) {
            const char *e = strstr(b + 4, "\n---\n");
            assert_non_null(e);
            body = e + 5;
            for (const char *p = b; p < body; p++)
                lines += *p == '\n';
        }
        qr_buf t = {0};
        for (int i = 0; i < lines; i++)
            qr_buf_putc(&t, '\n');
        qr_buf_puts(&t, body);
        json_t *blk = json_pack("{ss}", "type", "markdown");
        json_object_set_new(blk, "text", json_stringn(t.data ? t.data : "", t.len));
        qr_buf_free(&t);
        json_object_set_new(spec, "blocks", json_pack("[o]", blk));
        char *want = json_dumps(spec, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_decref(spec);
        if (strcmp(got, want) != 0) print_message("got  %s\nwant %s\n", got, want);
        assert_string_equal(got, want);
        json_malloc_t m;
        json_free_t f;
        json_get_alloc_funcs(&m, &f);
        f(want);
        free(got);
        free(ex);
        qr_errlist_clear(&errs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_round_trip),
        cmocka_unit_test(test_locations_and_errors),
        cmocka_unit_test(test_front_matter),
        cmocka_unit_test(test_whole_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
