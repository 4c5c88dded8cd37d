/* test_schema.c: the schema table (spec/schema_table.c) holds together:
 * key names unique per object and within QR_SCHEMA_MAX_KEYS, every value
 * schema is JSON, every $ref names a definition, one block entry per block
 * type; canonical JSON orders blocks by it as before the table; the
 * compiler's unknown-key hints come from it; the export is compact and
 * deterministic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "compile.h"
#include "schema.h"

static int defined(const char *name)
{
    if (strcmp(name, "block") == 0) return 1;
    for (size_t i = 0; qr_schema_defs[i][0]; i++)
        if (strcmp(qr_schema_defs[i][0], name) == 0) return 1;
    for (int id = 0; id < QR_SO_COUNT; id++)
        if (strcmp(qr_schema_objs[id].name, name) == 0) return 1;
    return 0;
}

/* Every "$ref" in text names a definition. */
static void refs_resolve(const char *text)
{
    for (const char *p = strstr(text, "#/$defs/"); p; p = strstr(p + 1, "#/$defs/")) {
        char name[64];
        size_t n = strcspn(p + 8, "\"");
        assert_true(n < sizeof name);
        memcpy(name, p + 8, n);
        name[n] = '\0';
        if (!defined(name)) fail_msg("$ref to undefined %s in %s", name, text);
    }
}

static void test_table_holds(void **state)
{
    (void)state;
    for (int id = 0; id < QR_SO_COUNT; id++) {
        const qr_sobj *o = &qr_schema_objs[id];
        assert_non_null(o->name);
        assert_true(o->n_keys >= 1 && o->n_keys <= QR_SCHEMA_MAX_KEYS);
        for (size_t i = 0; i < o->n_keys; i++) {
            const qr_skey *k = &o->keys[i];
            for (size_t j = 0; j < i; j++)
                assert_string_not_equal(k->name, o->keys[j].name);
            if (k->schema) {
                json_error_t e;
                json_t *v = json_loads(k->schema, 0, &e);
                if (!v) fail_msg("%s.%s: %s", o->name, k->name, e.text);
                json_decref(v);
                refs_resolve(k->schema);
            }
            assert_true(k->child == QR_SO_NONE || k->child == QR_SO_BLOCK ||
                        (k->child >= 0 && k->child < QR_SO_COUNT));
        }
        if (o->extra) {
            json_t *v = json_loads(o->extra, 0, NULL);
            assert_non_null(v);
            json_decref(v);
        }
    }
    for (size_t i = 0; qr_schema_defs[i][0]; i++) {
        json_t *v = json_loads(qr_schema_defs[i][1], 0, NULL);
        assert_non_null(v);
        json_decref(v);
        refs_resolve(qr_schema_defs[i][1]);
    }
    /* one entry per block type, then markdown (compiled into other blocks);
     * "type" first and required */
    assert_int_equal(qr_schema_n_blocks, QR_BLOCK_LAST + 2);
    assert_int_equal(qr_schema_block_markdown, QR_BLOCK_LAST + 1);
    assert_string_equal(qr_schema_blocks[qr_schema_block_markdown].name, "markdown");
    for (size_t b = 0; b < qr_schema_n_blocks; b++) {
        const qr_sobj *o = &qr_schema_objs[qr_schema_blocks[b].obj];
        assert_string_equal(o->keys[0].name, "type");
        assert_true(o->keys[0].flags & QR_SK_REQUIRED);
        assert_int_equal(qr_schema_block(qr_schema_blocks[b].name), (int)b);
    }
    assert_int_equal(qr_schema_block("chapter"), -1);
}

/* Blocks keep the key order canonical JSON had before the table. */
static void test_block_order(void **state)
{
    (void)state;
    const char *in = "{\"blocks\":[{\"alt\":\"a\",\"src\":\"s\",\"language\":\"c\",\"widths\":[1],"
                     "\"rows\":[],\"headers\":[],\"items\":[],\"ordered\":true,\"runs\":[],"
                     "\"text\":\"t\",\"level\":1,\"type\":\"x\",\"zz\":1}]}";
    qr_buf b = {0};
    qr_errlist e = {0};
    assert_int_equal(qr_canonical(in, strlen(in), &b, &e), QR_OK);
    const char *want = "{\n  \"blocks\": [\n    {\n      \"type\": \"x\",\n      \"level\": 1,\n"
                       "      \"text\": \"t\",\n      \"runs\": [],\n      \"ordered\": true,\n"
                       "      \"items\": [],\n      \"headers\": [],\n      \"rows\": [],\n"
                       "      \"widths\": [1],\n      \"language\": \"c\",\n      \"src\": \"s\",\n"
                       "      \"alt\": \"a\",\n      \"zz\": 1\n    }\n  ]\n}\n";
    assert_string_equal(b.data, want);
    qr_buf_free(&b);
    qr_errlist_clear(&e);
}

/* A key the table adds is known to the compiler (its hint lists the table's keys). */
static void test_compiler_uses_table(void **state)
{
    (void)state;
    const char *in = "{\"blocks\":[{\"type\":\"code\",\"text\":\"x\",\"zzz\":1}]}";
    qr_errlist e = {0};
    qr_doc *doc = NULL;
    assert_int_equal(qr_compile(in, strlen(in), QR_KIND_DOCUMENT, NULL, &doc, &e), QR_E_SPEC);
    assert_int_equal(e.count, 1);
    assert_string_equal(e.items[0].path, "/blocks/0/zzz");
    assert_string_equal(e.items[0].hint, "a code block takes: \"type\", \"text\", \"language\", "
                                         "\"id\", \"caption\"");
    qr_errlist_clear(&e);
}

static void test_export(void **state)
{
    (void)state;
    for (int k = 0; k < QR_KIND_COUNT; k++) {
        qr_buf a = {0}, b = {0};
        qr_errlist e = {0};
        assert_int_equal(qr_schema_json(QR_SCHEMA_KIND, (qr_kind)k, &a, &e), QR_OK);
        assert_int_equal(qr_schema_json(QR_SCHEMA_KIND, (qr_kind)k, &b, &e), QR_OK);
        assert_int_equal(a.len, b.len); /* deterministic */
        assert_memory_equal(a.data, b.data, a.len);
        /* a gateway's tool definition: 16 KB at most (round 3's vocabulary,
         * footnotes to captions, took the document's past 8 KB) */
        assert_true(a.len < 16384);
        assert_int_equal(a.data[a.len - 1], '\n');
        json_t *v = json_loads(a.data, 0, NULL);
        assert_non_null(v);
        assert_true(json_is_false(json_object_get(v, "additionalProperties")));
        json_decref(v);
        qr_buf_free(&a);
        qr_buf_free(&b);
    }
    qr_errlist e = {0};
    qr_buf c = {0};
    assert_int_equal(qr_schema_json(QR_SCHEMA_KIND, QR_KIND_COUNT, &c, &e), QR_E_USAGE);
    assert_int_equal(e.count, 1);
    qr_errlist_clear(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_holds),
        cmocka_unit_test(test_block_order),
        cmocka_unit_test(test_compiler_uses_table),
        cmocka_unit_test(test_export),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
