/* test_edit_canonical.c: qr_edit_apply_canonical (one parse, the tree
 * written canonically) gives the bytes, statuses and errors of the two-step
 * path the store used before: qr_edit_apply, then qr_canonical of its text.
 * Cases: sheet cells of every scalar type, members added out of schema
 * order, unknown keys, spec_append, a root replaced by a string holding an
 * object and by an array (the text path answers those), nesting close to
 * the parser's depth limit, and edits and specs that fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compile.h"
#include "edit.h"

/* Both paths on one spec and edit; returns the status they agree on. */
static qr_status same_both_ways(const char *spec, const char *patch, const char *append,
                                const char *ops)
{
    qr_edit e = {0};
    e.patch = patch, e.patch_len = patch ? strlen(patch) : 0;
    e.append = append, e.append_len = append ? strlen(append) : 0;
    e.ops = ops, e.ops_len = ops ? strlen(ops) : 0;
    size_t len = strlen(spec);
    qr_buf edited = {0}, two = {0}, one = {0};
    qr_errlist e2 = {0}, e1 = {0};
    qr_status s2 = qr_edit_apply(spec, len, &e, &edited, &e2);
    if (s2 == QR_OK) s2 = qr_canonical(edited.data, edited.len, &two, &e2);
    qr_status s1 = qr_edit_apply_canonical(spec, len, &e, &one, &e1);
    assert_int_equal(s1, s2);
    assert_int_equal(one.len, two.len);
    if (one.len) assert_memory_equal(one.data, two.data, one.len);
    assert_int_equal(e1.count, e2.count);
    for (size_t i = 0; i < e1.count; i++) {
        assert_int_equal(e1.items[i].code, e2.items[i].code);
        assert_string_equal(e1.items[i].path, e2.items[i].path);
        assert_string_equal(e1.items[i].message, e2.items[i].message);
    }
    qr_buf_free(&edited);
    qr_buf_free(&two);
    qr_buf_free(&one);
    qr_errlist_clear(&e1);
    qr_errlist_clear(&e2);
    return s1;
}

static const char SHEET[] =
    "{\"sheets\":[{\"name\":\"Data\",\"columns\":[\"id\",\"v\",\"note\"],\"rows\":["
    "[1,486.92,\"a \\\"q\\\" \\\\ \\n\\t\\u0001 caf\\u00e9 \\ud83d\\ude00\"],"
    "[-9007199254740993,0.1,null],[2,-0.0,true],[3,1e300,false],[4,5e-324,\"\\u0000x\"],"
    "[5,100.0,\"\"]],\"zeta\":{\"b\":1,\"a\":[{}, []]}}],\"title\":\"T\"}";

static void test_sheet_cells(void **state)
{
    (void)state;
    const char *ops[] = {
        "[{\"op\":\"replace\",\"path\":\"/sheets/0/rows/1/1\",\"value\":\"edit\"}]",
        "[{\"op\":\"replace\",\"path\":\"/sheets/0/rows/0/1\",\"value\":2.5e-7}]",
        "[{\"op\":\"add\",\"path\":\"/sheets/0/rows/-\",\"value\":[6,1.5,\"x\"]}]",
        "[{\"op\":\"add\",\"path\":\"/sheets/0/freeze\",\"value\":{\"rows\":1}},"
        "{\"op\":\"add\",\"path\":\"/aaa_unknown\",\"value\":[1,{\"z\":1,\"type\":2}]}]",
        "[{\"op\":\"move\",\"from\":\"/sheets/0/rows/0\",\"path\":\"/sheets/0/rows/-\"}]",
        "[{\"op\":\"copy\",\"from\":\"/sheets/0/zeta\",\"path\":\"/sheets/0/zeta2\"}]",
        "[{\"op\":\"remove\",\"path\":\"/title\"}]",
    };
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        assert_int_equal(same_both_ways(SHEET, NULL, NULL, ops[i]), QR_OK);
}

static void test_patch_and_append(void **state)
{
    (void)state;
    const char *doc = "{\"blocks\":[{\"text\":\"hi\",\"type\":\"paragraph\"}],\"title\":\"D\"}";
    assert_int_equal(same_both_ways(doc, "{\"zz\":1,\"theme\":\"plain\",\"title\":null}",
                                    "{\"blocks\":[{\"level\":2,\"text\":\"H\",\"type\":"
                                    "\"heading\"}]}",
                                    "[{\"op\":\"add\",\"path\":\"/blocks/0/style\",\"value\":"
                                    "\"x\"}]"),
                     QR_OK);
    /* a spec sent as a string holding the object */
    assert_int_equal(
        same_both_ways("\"{\\\"title\\\":\\\"S\\\"}\"", "{\"title\":\"N\"}", NULL, NULL), QR_OK);
}

static void test_roots_the_text_path_answers(void **state)
{
    (void)state;
    /* the root replaced by a string that holds an object: unwrapped */
    assert_int_equal(same_both_ways(SHEET, NULL, NULL,
                                    "[{\"op\":\"replace\",\"path\":\"\",\"value\":"
                                    "\"{\\\"title\\\":\\\"x\\\",\\\"blocks\\\":[]}\"}]"),
                     QR_OK);
    assert_int_equal(
        same_both_ways(SHEET, NULL, NULL, "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1,2]}]"),
        QR_OK);
    assert_int_equal(
        same_both_ways(SHEET, NULL, NULL, "[{\"op\":\"replace\",\"path\":\"\",\"value\":\"s\"}]"),
        QR_OK);
}

/* {"deep": [[...[1]...]]} with depth nested arrays, as an add op. */
static char *deep_op(int depth)
{
    size_t n = 64 + 2 * (size_t)depth;
    char *s = malloc(n);
    assert_non_null(s);
    size_t k = (size_t)snprintf(s, n, "[{\"op\":\"add\",\"path\":\"/deep\",\"value\":");
    for (int i = 0; i < depth; i++)
        s[k++] = '[';
    s[k++] = '1';
    for (int i = 0; i < depth; i++)
        s[k++] = ']';
    memcpy(s + k, "}]", 3);
    return s;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    /* below, at and past where the tree path hands over to the text path;
     * the ops themselves nest two more levels, jansson reads up to 2048 */
    const int depths[] = {100, 2030, 2033, 2040, 2044};
    for (size_t i = 0; i < sizeof depths / sizeof *depths; i++) {
        char *ops = deep_op(depths[i]);
        assert_int_equal(same_both_ways("{\"title\":\"x\"}", NULL, NULL, ops), QR_OK);
        free(ops);
    }
    /* two adds nest past the parser's limit: the text path's error */
    char *a = deep_op(2040);
    size_t n = strlen(a) + 2 * 2040 + 200;
    char *both = malloc(n);
    assert_non_null(both);
    size_t k =
        (size_t)snprintf(both, n, "%.*s,{\"op\":\"add\",\"path\":\"/deep", (int)strlen(a) - 1, a);
    for (int i = 0; i < 2039; i++)
        both[k++] = '/', both[k++] = '0';
    snprintf(both + k, n - k, "\",\"value\":[[[[[[[[[[[[1]]]]]]]]]]]]}]");
    free(a);
    assert_int_equal(same_both_ways("{\"title\":\"x\"}", NULL, NULL, both), QR_E_LIMIT);
    free(both);
}

static void test_failures(void **state)
{
    (void)state;
    assert_int_equal(same_both_ways(SHEET, NULL, NULL,
                                    "[{\"op\":\"replace\",\"path\":\"/sheets/0/rows/99/1\","
                                    "\"value\":1}]"),
                     QR_E_EDIT);
    assert_int_equal(same_both_ways(SHEET, "[1]", "{\"x\":1}", "{\"op\":1}"), QR_E_EDIT);
    assert_int_equal(same_both_ways(SHEET, NULL, NULL,
                                    "[{\"op\":\"test\",\"path\":\"/title\","
                                    "\"value\":\"U\"}]"),
                     QR_E_EDIT);
    /* a stored spec that is not JSON: jansson's message, as before */
    assert_int_equal(same_both_ways("{\"title\": tru}", "{\"a\":1}", NULL, NULL), QR_E_EDIT);
    assert_int_equal(same_both_ways("\xef\xbb\xbf{\"title\":\"bom\"}", "{\"a\":1}", NULL, NULL),
                     QR_E_EDIT);
    assert_int_equal(same_both_ways("{\"t\":\"\xff\"}", "{\"a\":1}", NULL, NULL), QR_E_EDIT);
    assert_int_equal(same_both_ways("{\"a\":1,\"a\":2}", "{\"b\":1}", NULL, NULL), QR_E_EDIT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sheet_cells),
        cmocka_unit_test(test_patch_and_append),
        cmocka_unit_test(test_roots_the_text_path_answers),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
