/* test_text.c: the text layer (text/text.h): segments of a qr_text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "text.h"

static qr_run run(const char *s, const char *link)
{
    qr_run r = {0};
    r.text = s;
    r.len = strlen(s);
    r.link = link;
    return r;
}

static void test_breaks_tabs_and_flags(void **state)
{
    (void)state;
    qr_run rs[3] = {run("a\tb", NULL), run("c\r\nd\re\n", NULL), run("x", NULL)};
    rs[1].bold = 1;
    rs[2].code = 1;
    qr_text t = {rs, 3, "/blocks/0/runs"};
    qr_text_ctx c;
    qr_text_ctx_init(&c, NULL, NULL, NULL);
    const qr_segs *sg;
    assert_int_equal(qr_text_segments(&c, &t, &sg), QR_OK);
    static const qr_seg_kind want[] = {QR_SEG_TEXT,  QR_SEG_TAB,  QR_SEG_TEXT,  QR_SEG_TEXT,
                                       QR_SEG_BREAK, QR_SEG_TEXT, QR_SEG_BREAK, QR_SEG_TEXT,
                                       QR_SEG_BREAK, QR_SEG_TEXT};
    static const char *const bytes[] = {"a", "\t", "b", "c", "\r\n", "d", "\r", "e", "\n", "x"};
    assert_int_equal(sg->n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < sg->n; i++) {
        const qr_seg *g = &sg->items[i];
        assert_int_equal(g->kind, want[i]);
        assert_int_equal(g->len, strlen(bytes[i]));
        assert_memory_equal(g->text, bytes[i], g->len);
        assert_int_equal(g->bold, g->run == 1);
        assert_int_equal(g->code, g->run == 2);
        assert_non_null(g->family);
    }
    assert_int_equal(sg->dir, QR_DIR_LTR);
    qr_text_ctx_free(&c);
}

static void test_links_checked_once_any_case(void **state)
{
    (void)state;
    qr_run rs[4] = {run("s", "HTTPS://example.com"), run("m", "MAILTO:a@example.com"),
                    run("j", "javascript:alert(1)"), run("h", "http://x")};
    qr_text t = {rs, 4, "/blocks/0/runs"};
    qr_text_ctx c;
    qr_text_ctx_init(&c, NULL, NULL, NULL);
    const qr_segs *sg;
    assert_int_equal(qr_text_segments(&c, &t, &sg), QR_OK);
    assert_int_equal(sg->n, 4);
    assert_string_equal(sg->items[0].link, "HTTPS://example.com");
    assert_string_equal(sg->items[1].link, "MAILTO:a@example.com");
    assert_null(sg->items[2].link);
    assert_string_equal(sg->items[3].link, "http://x");
    qr_text_ctx_free(&c);
}

static void test_direction_and_empty(void **state)
{
    (void)state;
    qr_run r = run("123 \xD8\xB3\xD9\x84\xD8\xA7\xD9\x85 world", NULL);
    qr_text t = {&r, 1, "/title"};
    qr_text_ctx c;
    qr_text_ctx_init(&c, NULL, NULL, NULL);
    const qr_segs *sg;
    assert_int_equal(qr_text_segments(&c, &t, &sg), QR_OK);
    assert_int_equal(sg->dir, QR_DIR_RTL);
    qr_text empty = {NULL, 0, "/x"};
    assert_int_equal(qr_text_segments(&c, &empty, &sg), QR_OK);
    assert_int_equal(sg->n, 0);
    assert_int_equal(sg->dir, QR_DIR_NEUTRAL);
    qr_text_ctx_free(&c);
}

/* A code point no font covers: one warning per document, at the first
 * text's path, with the one message and hint. */
static void test_missing_warned_once(void **state)
{
    (void)state;
    qr_errlist w = {0};
    qr_text_ctx c;
    qr_text_ctx_init(&c, NULL, NULL, &w);
    qr_run a = run("x \xEE\x80\x80 y", NULL), b = run("\xEE\x80\x80 again \x01", NULL);
    qr_text ta = {&a, 1, "/blocks/0/text"}, tb = {&b, 1, "/blocks/1/text"};
    const qr_segs *sg;
    assert_int_equal(qr_text_segments(&c, &ta, &sg), QR_OK);
    assert_int_equal(qr_text_segments(&c, &tb, &sg), QR_OK);
    size_t n = 0;
    for (size_t i = 0; i < w.count; i++) {
        if (strcmp(w.items[i].message, "no installed font covers U+E000") != 0) continue;
        n++;
        assert_string_equal(w.items[i].path, "/blocks/0/text");
        assert_string_equal(w.items[i].hint, QR_TEXT_MISSING_HINT);
    }
    assert_int_equal(n, 1);
    /* a control: no missing glyph, but the one unshown-character warning */
    n = 0;
    for (size_t i = 0; i < w.count; i++) {
        if (!strstr(w.items[i].message, "U+0001")) continue;
        n++;
        assert_null(strstr(w.items[i].message, "no installed font"));
        assert_string_equal(w.items[i].path, "/blocks/1/text");
        assert_string_equal(w.items[i].hint, QR_TEXT_UNSHOWN_HINT);
    }
    assert_int_equal(n, 1);
    qr_text_ctx_free(&c);
    qr_errlist_clear(&w);
}

/* The one rule of characters no format shows: U+FFFD for each, the rest
 * kept byte for byte; one warning per document. */
static void test_unshown_characters(void **state)
{
    (void)state;
    assert_true(qr_text_unshown(0x07));
    assert_true(qr_text_unshown(0x7F));
    assert_true(qr_text_unshown(0x85));
    assert_true(qr_text_unshown(0xFDD0));
    assert_true(qr_text_unshown(0x1FFFE));
    assert_false(qr_text_unshown('\t'));
    assert_false(qr_text_unshown('\n'));
    assert_false(qr_text_unshown('\r'));
    assert_false(qr_text_unshown(0xA0));
    assert_false(qr_text_unshown(0xFFFD));
    const char in[] = "a\x01"
                      "b\xC2\x85"
                      "c\x7F\xEF\xB7\x90\xD8\xB3\t\xFF";
    char out[QR_TEXT_CLEAN_MAX(sizeof in)];
    size_t n = qr_text_clean(out, in, sizeof in - 1);
    const char want[] = "a\xEF\xBF\xBD"
                        "b\xEF\xBF\xBD"
                        "c\xEF\xBF\xBD\xEF\xBF\xBD\xD8\xB3\t"
                        "\xEF\xBF\xBD";
    assert_int_equal(n, sizeof want - 1);
    assert_memory_equal(out, want, n);
    qr_errlist w = {0};
    qr_text_ctx c;
    qr_text_ctx_init(&c, NULL, NULL, &w);
    qr_run a = run("one \x07", NULL), b = run("two \x08", NULL);
    qr_text ta = {&a, 1, "/blocks/0/text"}, tb = {&b, 1, "/blocks/1/text"};
    const qr_segs *sg;
    assert_int_equal(qr_text_segments(&c, &ta, &sg), QR_OK);
    assert_int_equal(qr_text_segments(&c, &tb, &sg), QR_OK);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.items[0].path, "/blocks/0/text");
    assert_non_null(strstr(w.items[0].message, "U+0007"));
    qr_text_ctx_free(&c);
    qr_errlist_clear(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_breaks_tabs_and_flags),
        cmocka_unit_test(test_unshown_characters),
        cmocka_unit_test(test_links_checked_once_any_case),
        cmocka_unit_test(test_direction_and_empty),
        cmocka_unit_test(test_missing_warned_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
