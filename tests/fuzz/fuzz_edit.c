/* fuzz_edit.c: bytes through the edit engine (edit.h). The input is up to
 * four parts separated by the byte 0x1e (ASCII record separator):
 *
 *     SEL spec 0x1e spec_patch 0x1e spec_append 0x1e ops
 *
 * SEL (the first byte) says which edit parts are present (bits 0..2: patch,
 * append, ops; a missing part is NULL even if its bytes are there) and, in
 * bits 3..5, the kind the edited result is compiled as, as a gateway does.
 * Besides crashes it checks the engine's promises: inputs are never changed,
 * a successful edit is valid JSON, an error leaves out empty and names a
 * path, RFC 7386 merge patches are idempotent, the lower-level entry
 * points agree with qr_edit_apply on values they accept, and the store's
 * one-parse edit (qr_edit_apply_canonical) agrees with qr_edit_apply
 * followed by qr_canonical. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "edit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEP 0x1e
#define DECODE (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_ALLOW_NUL)

static void check(int ok)
{
    if (!ok) __builtin_trap();
}

/* Split data into up to n parts at SEP; the last part takes the rest. */
static size_t split(const uint8_t *data, size_t size, const char **part, size_t *len, size_t n)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i < size && k + 1 < n; i++) {
        if (data[i] != SEP) continue;
        part[k] = (const char *)data + start;
        len[k++] = i - start;
        start = i + 1;
    }
    part[k] = (const char *)data + start;
    len[k++] = size - start;
    return k;
}

/* A private, NUL-terminated copy, so reads past len are caught by ASan and
 * writes to the input (which must not happen) would be seen. */
static char *dup_part(const char *p, size_t n)
{
    char *c = malloc(n + 1);
    if (!c) abort();
    if (n) memcpy(c, p, n);
    c[n] = 0;
    return c;
}

static void errs_sane(const qr_errlist *errs)
{
    check(errs->count > 0);
    for (size_t i = 0; i < errs->count; i++) {
        check(errs->items[i].path != NULL && errs->items[i].message != NULL);
        check(errs->items[i].path[0] == 0 || errs->items[i].path[0] == '/');
    }
}

/* Merge patch: not changing its inputs, and idempotent (RFC 7386). */
static void fuzz_merge(const json_t *target, const json_t *patch)
{
    char *t0 =
        target ? json_dumps(target, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    char *p0 = json_dumps(patch, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_t *once = qr_edit_merge_patch(target, patch);
    if (once) {
        json_t *twice = qr_edit_merge_patch(once, patch);
        check(twice != NULL && qr_edit_json_equal(once, twice));
        json_decref(twice);
        json_decref(once);
    }
    char *t1 =
        target ? json_dumps(target, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    char *p1 = json_dumps(patch, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
    check((!t0 && !t1) || (t0 && t1 && strcmp(t0, t1) == 0));
    check(p0 && p1 && strcmp(p0, p1) == 0);
    free(t0);
    free(t1);
    free(p0);
    free(p1);
}

/* The store's one-parse path (qr_edit_apply_canonical) gives what
 * qr_edit_apply and then qr_canonical give: status, bytes and errors. */
static void same_as_one_parse(const char *spec, size_t len, const qr_edit *e, qr_status st,
                              const qr_buf *out, const qr_errlist *errs)
{
    qr_buf two = {0}, one = {0};
    qr_errlist e2 = {0}, e1 = {0};
    qr_status s2 = st == QR_OK ? qr_canonical(out->data, out->len, &two, &e2) : st;
    const qr_errlist *want = st == QR_OK ? &e2 : errs;
    qr_status s1 = qr_edit_apply_canonical(spec, len, e, &one, &e1);
    check(s1 == s2 && one.len == two.len);
    check(one.len == 0 || memcmp(one.data, two.data, one.len) == 0);
    check(e1.count == want->count);
    for (size_t i = 0; i < e1.count; i++)
        check(e1.items[i].code == want->items[i].code &&
              strcmp(e1.items[i].path, want->items[i].path) == 0 &&
              strcmp(e1.items[i].message, want->items[i].message) == 0);
    qr_buf_free(&two);
    qr_buf_free(&one);
    qr_errlist_clear(&e2);
    qr_errlist_clear(&e1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    unsigned sel = data[0];
    const char *part[4];
    size_t len[4];
    size_t n = split(data + 1, size - 1, part, len, 4);
    for (size_t i = n; i < 4; i++) {
        part[i] = "";
        len[i] = 0;
    }
    char *spec = dup_part(part[0], len[0]);
    char *patch = dup_part(part[1], len[1]);
    char *append = dup_part(part[2], len[2]);
    char *ops = dup_part(part[3], len[3]);

    qr_edit e = {0};
    if (sel & 1) e.patch = patch, e.patch_len = len[1];
    if (sel & 2) e.append = append, e.append_len = len[2];
    if (sel & 4) e.ops = ops, e.ops_len = len[3];

    qr_buf out = {0};
    qr_errlist errs = {0};
    qr_status st = qr_edit_apply(spec, len[0], &e, &out, &errs);
    /* Inputs untouched. */
    check(memcmp(spec, part[0], len[0]) == 0 && memcmp(patch, part[1], len[1]) == 0 &&
          memcmp(append, part[2], len[2]) == 0 && memcmp(ops, part[3], len[3]) == 0);
    same_as_one_parse(spec, len[0], &e, st, &out, &errs);
    if (st == QR_OK) {
        check(errs.count == 0 && out.data != NULL);
        json_error_t jerr;
        json_t *res = json_loadb(out.data, out.len, DECODE, &jerr);
        check(res != NULL);
        json_decref(res);
        /* What a gateway does next: compile the result. */
        qr_kind kind = (qr_kind)(((sel >> 3) & 7) % QR_KIND_COUNT);
        qr_compile_opts o;
        qr_compile_opts_default(&o);
        o.base_dir = NULL;
        qr_doc *doc = NULL;
        qr_errlist cerrs = {0};
        qr_compile(out.data, out.len, kind, &o, &doc, &cerrs);
        qr_doc_free(doc);
        qr_errlist_clear(&cerrs);
    } else {
        check(out.len == 0);
        errs_sane(&errs);
    }
    qr_buf_free(&out);
    qr_errlist_clear(&errs);

    /* The lower-level entry points on parsed values. */
    json_error_t jerr;
    json_t *doc = json_loadb(spec, len[0], DECODE, &jerr);
    json_t *pv = json_loadb(patch, len[1], DECODE, &jerr);
    if (pv) fuzz_merge(doc, pv);
    json_t *av = json_loadb(append, len[2], DECODE, &jerr);
    if (doc && json_is_object(doc) && av) {
        json_t *copy = json_deep_copy(doc);
        qr_errlist e2 = {0};
        qr_status s2 = qr_edit_append(copy, av, "/spec_append", &e2);
        if (s2 != QR_OK) errs_sane(&e2);
        qr_errlist_clear(&e2);
        json_decref(copy);
    }
    json_t *ov = json_loadb(ops, len[3], DECODE, &jerr);
    if (doc && ov) {
        json_t *copy = json_deep_copy(doc);
        char *o0 = json_dumps(ov, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
        qr_errlist e2 = {0};
        qr_status s2 = qr_edit_json_patch(&copy, ov, "/ops", &e2);
        if (s2 != QR_OK) errs_sane(&e2);
        char *o1 = json_dumps(ov, JSON_ENCODE_ANY | JSON_COMPACT | JSON_PRESERVE_ORDER);
        check(o0 && o1 && strcmp(o0, o1) == 0); /* ops never changed */
        free(o0);
        free(o1);
        qr_errlist_clear(&e2);
        json_decref(copy);
    }
    json_decref(doc);
    json_decref(pv);
    json_decref(av);
    json_decref(ov);

    /* unwrap: a JSON string holding an object or array. */
    qr_buf u = {0};
    if (qr_edit_unwrap(patch, len[1], &u)) {
        json_t *uv = json_loadb(u.data, u.len, DECODE, &jerr);
        check(uv != NULL && (json_is_object(uv) || json_is_array(uv)));
        json_decref(uv);
    }
    qr_buf_free(&u);

    free(spec);
    free(patch);
    free(append);
    free(ops);
    return 0;
}
