/* test_edit.c: the edit engine (spec/edit.c). The RFC 7386 appendix A and
 * RFC 6902 appendix A examples as data, then spec_append, error paths and
 * messages, string-wrapped parts and "inputs are never mutated". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "edit.h"

static json_t *parse(const char *s)
{
    json_error_t e;
    json_t *v = json_loads(s, JSON_DECODE_ANY, &e);
    if (!v) fail_msg("bad test JSON %s: %s", s, e.text);
    return v;
}

static void assert_json_eq(const json_t *got, const char *want)
{
    json_t *w = parse(want);
    if (!json_equal((json_t *)got, w)) {
        char *g = json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
        fail_msg("got %s, want %s", g ? g : "(null)", want);
    }
    json_decref(w);
}

/* ---- RFC 7386 appendix A: target, patch, result ---------------------------- */

static const char *const rfc7386[][3] = {
    {"{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"},
    {"{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}"},
    {"{\"a\":\"b\"}", "{\"a\":null}", "{}"},
    {"{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}"},
    {"{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"},
    {"{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}"},
    {"{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{\"a\":{\"b\":\"d\"}}"},
    {"{\"a\":[{\"b\":\"c\"}]}", "{\"a\":[1]}", "{\"a\":[1]}"},
    {"[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]"},
    {"{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]"},
    {"{\"a\":\"foo\"}", "null", "null"},
    {"{\"a\":\"foo\"}", "\"bar\"", "\"bar\""},
    {"{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}"},
    {"[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}"},
    {"{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}"},
};

static void test_rfc7386_appendix_a(void **state)
{
    for (size_t i = 0; i < sizeof rfc7386 / sizeof rfc7386[0]; i++) {
        json_t *t = parse(rfc7386[i][0]), *p = parse(rfc7386[i][1]);
        json_t *t0 = json_deep_copy(t), *p0 = json_deep_copy(p);
        json_t *r = qr_edit_merge_patch(t, p);
        assert_non_null(r);
        assert_json_eq(r, rfc7386[i][2]);
        /* inputs never mutated */
        assert_true(json_equal(t, t0));
        assert_true(json_equal(p, p0));
        /* and the result shares nothing: changing it leaves them alone */
        if (json_is_object(r)) json_object_set_new(r, "zz", json_true());
        assert_true(json_equal(t, t0));
        assert_true(json_equal(p, p0));
        json_decref(r);
        json_decref(t);
        json_decref(p);
        json_decref(t0);
        json_decref(p0);
    }
}

static void test_merge_patch_absent_target(void **state)
{
    json_t *p = parse("{\"a\":{\"b\":null,\"c\":1}}");
    json_t *r = qr_edit_merge_patch(NULL, p);
    assert_json_eq(r, "{\"a\":{\"c\":1}}");
    json_decref(r);
    json_decref(p);
}

/* ---- RFC 6902 appendix A: document, patch, result (NULL = must fail) ---------- */

typedef struct jp_case {
    const char *name, *doc, *patch, *result;
    const char *err_path; /* for failures: the expected error path */
} jp_case;

static const jp_case rfc6902[] = {
    {"A.1 add object member", "{\"foo\":\"bar\"}",
     "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\"}]", "{\"baz\":\"qux\",\"foo\":\"bar\"}",
     NULL},
    {"A.2 add array element", "{\"foo\":[\"bar\",\"baz\"]}",
     "[{\"op\":\"add\",\"path\":\"/foo/1\",\"value\":\"qux\"}]",
     "{\"foo\":[\"bar\",\"qux\",\"baz\"]}", NULL},
    {"A.3 remove object member", "{\"baz\":\"qux\",\"foo\":\"bar\"}",
     "[{\"op\":\"remove\",\"path\":\"/baz\"}]", "{\"foo\":\"bar\"}", NULL},
    {"A.4 remove array element", "{\"foo\":[\"bar\",\"qux\",\"baz\"]}",
     "[{\"op\":\"remove\",\"path\":\"/foo/1\"}]", "{\"foo\":[\"bar\",\"baz\"]}", NULL},
    {"A.5 replace", "{\"baz\":\"qux\",\"foo\":\"bar\"}",
     "[{\"op\":\"replace\",\"path\":\"/baz\",\"value\":\"boo\"}]",
     "{\"baz\":\"boo\",\"foo\":\"bar\"}", NULL},
    {"A.6 move value",
     "{\"foo\":{\"bar\":\"baz\",\"waldo\":\"fred\"},\"qux\":{\"corge\":\"grault\"}}",
     "[{\"op\":\"move\",\"from\":\"/foo/waldo\",\"path\":\"/qux/thud\"}]",
     "{\"foo\":{\"bar\":\"baz\"},\"qux\":{\"corge\":\"grault\",\"thud\":\"fred\"}}", NULL},
    {"A.7 move array element", "{\"foo\":[\"all\",\"grass\",\"cows\",\"eat\"]}",
     "[{\"op\":\"move\",\"from\":\"/foo/1\",\"path\":\"/foo/3\"}]",
     "{\"foo\":[\"all\",\"cows\",\"eat\",\"grass\"]}", NULL},
    {"A.8 test success", "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}",
     "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"qux\"},{\"op\":\"test\",\"path\":\"/foo/"
     "1\",\"value\":2}]",
     "{\"baz\":\"qux\",\"foo\":[\"a\",2,\"c\"]}", NULL},
    {"A.9 test error", "{\"baz\":\"qux\"}",
     "[{\"op\":\"test\",\"path\":\"/baz\",\"value\":\"bar\"}]", NULL, "/ops/0/value"},
    {"A.10 add nested member object", "{\"foo\":\"bar\"}",
     "[{\"op\":\"add\",\"path\":\"/child\",\"value\":{\"grandchild\":{}}}]",
     "{\"foo\":\"bar\",\"child\":{\"grandchild\":{}}}", NULL},
    {"A.11 ignore unrecognized elements", "{\"foo\":\"bar\"}",
     "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"xyz\":123}]",
     "{\"foo\":\"bar\",\"baz\":\"qux\"}", NULL},
    {"A.12 add to nonexistent target", "{\"foo\":\"bar\"}",
     "[{\"op\":\"add\",\"path\":\"/baz/bat\",\"value\":\"qux\"}]", NULL, "/ops/0/path"},
    {"A.13 invalid JSON patch document", "{\"foo\":\"bar\"}",
     "[{\"op\":\"add\",\"path\":\"/baz\",\"value\":\"qux\",\"op\":\"remove\"}]", NULL, "/ops"},
    {"A.14 ~ escape ordering", "{\"/\":9,\"~1\":10}",
     "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":10}]", "{\"/\":9,\"~1\":10}", NULL},
    {"A.15 comparing strings and numbers", "{\"/\":9,\"~1\":10}",
     "[{\"op\":\"test\",\"path\":\"/~01\",\"value\":\"10\"}]", NULL, "/ops/0/value"},
    {"A.16 adding an array value", "{\"foo\":[\"bar\"]}",
     "[{\"op\":\"add\",\"path\":\"/foo/-\",\"value\":[\"abc\",\"def\"]}]",
     "{\"foo\":[\"bar\",[\"abc\",\"def\"]]}", NULL},
};

static qr_status apply_ops(const char *doc, const char *ops, qr_buf *out, qr_errlist *errs)
{
    qr_edit e = {0};
    e.ops = ops;
    e.ops_len = strlen(ops);
    return qr_edit_apply(doc, strlen(doc), &e, out, errs);
}

static void test_rfc6902_appendix_a(void **state)
{
    for (size_t i = 0; i < sizeof rfc6902 / sizeof rfc6902[0]; i++) {
        const jp_case *c = &rfc6902[i];
        qr_buf out = {0};
        qr_errlist errs = {0};
        qr_status st = apply_ops(c->doc, c->patch, &out, &errs);
        if (c->result) {
            if (st != QR_OK)
                fail_msg("%s: %s: %s", c->name, errs.items[0].path, errs.items[0].message);
            json_t *got = parse(out.data);
            assert_json_eq(got, c->result);
            json_decref(got);
        } else {
            if (st == QR_OK) fail_msg("%s: should fail, gave %s", c->name, out.data);
            assert_int_equal(errs.count, 1);
            assert_string_equal(errs.items[0].path, c->err_path);
            assert_null(out.data);
        }
        qr_buf_free(&out);
        qr_errlist_clear(&errs);
    }
}

/* ---- our error messages ----------------------------------------------------------- */

static void expect_error(const char *doc, const qr_edit *e, const char *path, const char *message)
{
    qr_buf out = {0};
    qr_errlist errs = {0};
    qr_status st = qr_edit_apply(doc, strlen(doc), e, &out, &errs);
    assert_int_equal(st, QR_E_EDIT);
    assert_true(errs.count >= 1);
    if (strcmp(errs.items[0].path, path) != 0 || strcmp(errs.items[0].message, message) != 0)
        fail_msg("got %s: %s\nwant %s: %s", errs.items[0].path, errs.items[0].message, path,
                 message);
    assert_null(out.data);
    qr_errlist_clear(&errs);
}

static void test_ops_errors(void **state)
{
    const char *doc = "{\"title\":\"T\",\"slides\":[{\"title\":\"a\"},{\"title\":\"b\"}]}";
    qr_edit e = {0};
#define OPS(s) (e.ops = (s), e.ops_len = strlen(s), &e)
    expect_error(doc,
                 OPS("[{\"op\":\"test\",\"path\":\"/title\",\"value\":\"T\"},"
                     "{\"op\":\"replace\",\"path\":\"/slides/0/title\",\"value\":\"x\"},"
                     "{\"op\":\"replace\",\"path\":\"/slides/7/title\",\"value\":\"y\"}]"),
                 "/ops/2/path",
                 "cannot replace \"/slides/7/title\": index 7 is out of range: the array at "
                 "\"/slides\" has 2 items");
    expect_error(doc, OPS("[{\"op\":\"remove\",\"path\":\"/nope\"}]"), "/ops/0/path",
                 "cannot remove \"/nope\": the object at \"\" has no member \"nope\"");
    expect_error(doc, OPS("[{\"op\":\"add\",\"path\":\"/slides/01\",\"value\":1}]"), "/ops/0/path",
                 "cannot add \"/slides/01\": \"01\" is not an array index (the value at "
                 "\"/slides\" is an array)");
    expect_error(
        doc, OPS("[{\"op\":\"add\",\"path\":\"/slides/3\",\"value\":1}]"), "/ops/0/path",
        "cannot add \"/slides/3\": index 3 is out of range: the array at \"/slides\" has 2 items");
    expect_error(doc, OPS("[{\"op\":\"replace\",\"path\":\"/slides/-\",\"value\":1}]"),
                 "/ops/0/path",
                 "cannot replace \"/slides/-\": \"-\" (past the end of the array at \"/slides\") "
                 "names no element");
    expect_error(doc, OPS("[{\"op\":\"add\",\"path\":\"title\",\"value\":1}]"), "/ops/0/path",
                 "\"title\" is not a JSON pointer: it must be \"\" or start with \"/\"");
    expect_error(doc, OPS("[{\"op\":\"add\",\"path\":\"/a~2\",\"value\":1}]"), "/ops/0/path",
                 "\"/a~2\" is not a JSON pointer: \"~\" must be followed by 0 or 1 (\"~0\" is ~, "
                 "\"~1\" is /)");
    expect_error(doc, OPS("[{\"op\":\"frob\",\"path\":\"/title\"}]"), "/ops/0/op",
                 "unknown op \"frob\"");
    expect_error(doc, OPS("[{\"path\":\"/title\"}]"), "/ops/0", "the operation has no \"op\"");
    expect_error(doc, OPS("[{\"op\":\"add\",\"value\":1}]"), "/ops/0", "add needs \"path\"");
    expect_error(doc, OPS("[{\"op\":\"add\",\"path\":\"/x\"}]"), "/ops/0", "add needs \"value\"");
    expect_error(doc, OPS("[{\"op\":\"copy\",\"path\":\"/x\"}]"), "/ops/0", "copy needs \"from\"");
    expect_error(doc, OPS("[{\"op\":\"move\",\"from\":\"/slides\",\"path\":\"/slides/0/x\"}]"),
                 "/ops/0/from", "cannot move \"/slides\" into \"/slides/0/x\"");
    expect_error(doc, OPS("[{\"op\":\"copy\",\"from\":\"/zz\",\"path\":\"/x\"}]"), "/ops/0/from",
                 "cannot copy from \"/zz\": the object at \"\" has no member \"zz\"");
    expect_error(
        doc, OPS("[{\"op\":\"add\",\"path\":\"/title/x\",\"value\":1}]"), "/ops/0/path",
        "cannot add \"/title/x\": the value at \"/title\" is a string, which has no members");
    expect_error(doc, OPS("[{\"op\":\"test\",\"path\":\"/title\",\"value\":\"U\"}]"),
                 "/ops/0/value", "test failed: the value at \"/title\" is \"T\", not \"U\"");
    expect_error(doc, OPS("{\"op\":\"add\"}"), "/ops",
                 "ops must be a JSON array of operations (RFC 6902), got an object.");
    expect_error(doc, OPS("[1]"), "/ops/0",
                 "each operation must be an object with \"op\" and \"path\", got a number");
    expect_error(doc, OPS("[{\"op\":\"remove\",\"path\":\"\"}]"), "/ops/0/path",
                 "cannot remove the whole spec");
#undef OPS
}

static void test_ops_more(void **state)
{
    qr_buf out = {0};
    qr_errlist errs = {0};
    /* escapes, "-", copy, replace of the root, numeric equality in test */
    const char *doc = "{\"a/b\":{\"m~n\":[1]},\"n\":1.0}";
    assert_int_equal(apply_ops(doc,
                               "[{\"op\":\"add\",\"path\":\"/a~1b/m~0n/-\",\"value\":2},"
                               "{\"op\":\"test\",\"path\":\"/n\",\"value\":1},"
                               "{\"op\":\"copy\",\"from\":\"/a~1b/m~0n\",\"path\":\"/c\"},"
                               "{\"op\":\"add\",\"path\":\"/c/0\",\"value\":0}]",
                               &out, &errs),
                     QR_OK);
    json_t *got = parse(out.data);
    assert_json_eq(got, "{\"a/b\":{\"m~n\":[1,2]},\"n\":1.0,\"c\":[0,1,2]}");
    json_decref(got);
    qr_buf_free(&out);
    assert_int_equal(
        apply_ops(doc, "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"x\":1}}]", &out, &errs),
        QR_OK);
    assert_string_equal(out.data, "{\"x\":1}");
    qr_buf_free(&out);
    /* moving onto itself is a no-op */
    assert_int_equal(
        apply_ops(doc, "[{\"op\":\"move\",\"from\":\"/n\",\"path\":\"/n\"}]", &out, &errs), QR_OK);
    qr_buf_free(&out);
    /* ops as a JSON string holding the array */
    assert_int_equal(
        apply_ops(doc, "\"[{\\\"op\\\":\\\"remove\\\",\\\"path\\\":\\\"/n\\\"}]\"", &out, &errs),
        QR_OK);
    assert_string_equal(out.data, "{\"a/b\":{\"m~n\":[1]}}");
    qr_buf_free(&out);
    assert_int_equal(errs.count, 0);
}

/* ---- spec_patch + spec_append + ops together ---------------------------------------- */

static void test_order_patch_append_ops(void **state)
{
    const char *doc =
        "{\"title\":\"Old\",\"sections\":[{\"heading\":\"S\",\"paragraphs\":[\"p\"]}]}";
    qr_edit e = {0};
    e.patch = "{\"title\":\"New\",\"lang\":\"en\"}";
    e.patch_len = strlen(e.patch);
    e.append = "{\"blocks\":[{\"type\":\"paragraph\",\"text\":\"one\"}]}";
    e.append_len = strlen(e.append);
    /* ops see the appended blocks: append ran first */
    e.ops = "[{\"op\":\"add\",\"path\":\"/blocks/"
            "-\",\"value\":{\"type\":\"paragraph\",\"text\":\"two\"}},"
            "{\"op\":\"test\",\"path\":\"/title\",\"value\":\"New\"}]";
    e.ops_len = strlen(e.ops);
    qr_buf out = {0};
    qr_errlist errs = {0};
    assert_int_equal(qr_edit_apply(doc, strlen(doc), &e, &out, &errs), QR_OK);
    assert_string_equal(out.data, "{\"title\":\"New\",\"sections\":[{\"heading\":\"S\","
                                  "\"paragraphs\":[\"p\"]}],\"lang\":\"en\","
                                  "\"blocks\":[{\"type\":\"paragraph\",\"text\":\"one\"},{\"type\":"
                                  "\"paragraph\",\"text\":\"two\"}]}");
    qr_buf_free(&out);
    /* append to an existing list */
    e.patch = NULL;
    e.ops = NULL;
    e.append = "{\"sections\":[{\"heading\":\"T\",\"paragraphs\":[]}]}";
    e.append_len = strlen(e.append);
    assert_int_equal(qr_edit_apply(doc, strlen(doc), &e, &out, &errs), QR_OK);
    assert_string_equal(
        out.data, "{\"title\":\"Old\",\"sections\":[{\"heading\":\"S\",\"paragraphs\":[\"p\"]},"
                  "{\"heading\":\"T\",\"paragraphs\":[]}]}");
    qr_buf_free(&out);
    assert_int_equal(errs.count, 0);
}

static void test_append_and_request_errors(void **state)
{
    const char *doc = "{\"title\":\"T\",\"blocks\":[]}";
    qr_edit e = {0};
    expect_error(doc, &e, "", "edit needs spec_patch, spec_append and/or ops.");
    e.append = "{\"blocks\":{\"type\":\"paragraph\"}}";
    e.append_len = strlen(e.append);
    expect_error(doc, &e, "/spec_append/blocks",
                 "spec_append['blocks'] must be a list of items to append.");
    e.append = "{\"title\":[\"x\"]}";
    e.append_len = strlen(e.append);
    expect_error(doc, &e, "/spec_append/title",
                 "spec_append target 'title' is not a list in the current spec.");
    e.append = "[1]";
    e.append_len = 3;
    expect_error(doc, &e, "/spec_append",
                 "spec_append must be a JSON object of {key: [items]}, got an array.");
    e.append = NULL;
    e.patch = "\"x\"";
    e.patch_len = 3;
    expect_error(doc, &e, "/spec_patch",
                 "spec_patch must be a JSON object (merge-patch), got a string.");
    /* a key with "/" in it is escaped in the path */
    e.patch = NULL;
    e.append = "{\"a/b\":1}";
    e.append_len = strlen(e.append);
    expect_error(doc, &e, "/spec_append/a~1b",
                 "spec_append['a/b'] must be a list of items to append.");
    /* syntax errors */
    e.append = NULL;
    e.patch = "{\"title\":";
    e.patch_len = strlen(e.patch);
    qr_buf out = {0};
    qr_errlist errs = {0};
    assert_int_equal(qr_edit_apply(doc, strlen(doc), &e, &out, &errs), QR_E_EDIT);
    assert_int_equal(errs.items[0].code, QR_E_JSON);
    assert_string_equal(errs.items[0].path, "/spec_patch");
    assert_non_null(strstr(errs.items[0].message, "spec_patch is not valid JSON"));
    qr_errlist_clear(&errs);
}

static void test_string_wrapped_parts(void **state)
{
    const char *doc = "{\"title\":\"T\"}";
    qr_edit e = {0};
    e.patch = "\"{\\\"title\\\":\\\"U\\\"}\"";
    e.patch_len = strlen(e.patch);
    e.append = "\"{\\\"blocks\\\":[{\\\"type\\\":\\\"page_break\\\"}]}\"";
    e.append_len = strlen(e.append);
    qr_buf out = {0};
    qr_errlist errs = {0};
    assert_int_equal(qr_edit_apply(doc, strlen(doc), &e, &out, &errs), QR_OK);
    assert_string_equal(out.data, "{\"title\":\"U\",\"blocks\":[{\"type\":\"page_break\"}]}");
    qr_buf_free(&out);
    /* a string that is not an object stays an error */
    e.append = NULL;
    e.patch = "\"[1]\"";
    e.patch_len = strlen(e.patch);
    expect_error(doc, &e, "/spec_patch",
                 "spec_patch must be a JSON object (merge-patch), got a string.");

    qr_buf u = {0};
    assert_int_equal(qr_edit_unwrap("\"{\\\"a\\\":1}\"", 11, &u), 1);
    assert_string_equal(u.data, "{\"a\":1}");
    qr_buf_free(&u);
    assert_int_equal(qr_edit_unwrap("{\"a\":1}", 7, &u), 0);
    assert_int_equal(qr_edit_unwrap("\"abc\"", 5, &u), 0);
}

static void test_inputs_not_mutated(void **state)
{
    json_t *doc = parse("{\"blocks\":[{\"type\":\"heading\",\"text\":\"H\"}]}");
    json_t *keep = json_deep_copy(doc);
    json_t *work = json_deep_copy(doc);
    json_t *app = parse("{\"blocks\":[{\"type\":\"paragraph\",\"text\":\"x\"}]}");
    json_t *app0 = json_deep_copy(app);
    qr_errlist errs = {0};
    assert_int_equal(qr_edit_append(work, app, "/spec_append", &errs), QR_OK);
    /* change the appended item in the result: the append input is untouched */
    json_object_set_new(json_array_get(json_object_get(work, "blocks"), 1), "text",
                        json_string("y"));
    assert_true(json_equal(app, app0));
    json_t *ops = parse("[{\"op\":\"add\",\"path\":\"/v\",\"value\":{\"k\":[1]}},"
                        "{\"op\":\"add\",\"path\":\"/v/k/-\",\"value\":2}]");
    json_t *ops0 = json_deep_copy(ops);
    assert_int_equal(qr_edit_json_patch(&work, ops, "/ops", &errs), QR_OK);
    assert_true(json_equal(ops, ops0));
    assert_true(json_equal(doc, keep));
    json_decref(doc);
    json_decref(keep);
    json_decref(work);
    json_decref(app);
    json_decref(app0);
    json_decref(ops);
    json_decref(ops0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rfc7386_appendix_a),
        cmocka_unit_test(test_merge_patch_absent_target),
        cmocka_unit_test(test_rfc6902_appendix_a),
        cmocka_unit_test(test_ops_errors),
        cmocka_unit_test(test_ops_more),
        cmocka_unit_test(test_order_patch_append_ops),
        cmocka_unit_test(test_append_and_request_errors),
        cmocka_unit_test(test_string_wrapped_parts),
        cmocka_unit_test(test_inputs_not_mutated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
