/* inline.c: a spec's image files into data: URIs (inline.h). Parses the
 * text, walks every value keeping the JSON pointer, loads each image file
 * through image.c (so the checks and messages are a render's) and writes
 * the tree back as compact JSON. */
#include "inline.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile_int.h"

static const char b64chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* "data:image/png;base64,..." of the image's bytes (malloc), or NULL. */
static char *data_uri(const qr_image *img, size_t *len)
{
    const char *head =
        img->type == QR_IMAGE_PNG ? "data:image/png;base64," : "data:image/jpeg;base64,";
    size_t hl = strlen(head), n = img->size;
    size_t total = hl + (n + 2) / 3 * 4;
    char *s = malloc(total + 1);
    if (!s) return NULL;
    memcpy(s, head, hl);
    char *o = s + hl;
    const unsigned char *p = img->data;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n) v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n) v |= p[i + 2];
        *o++ = b64chars[v >> 18 & 63];
        *o++ = b64chars[v >> 12 & 63];
        *o++ = i + 1 < n ? b64chars[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? b64chars[v & 63] : '=';
    }
    *o = '\0';
    *len = total;
    return s;
}

static int is_file_image(json_t *v)
{
    json_t *type = json_object_get(v, "type"), *src = json_object_get(v, "src");
    return json_is_string(type) && strcmp(json_string_value(type), "image") == 0 &&
           json_is_string(src) &&
           !(json_string_length(src) >= 5 && strncasecmp(json_string_value(src), "data:", 5) == 0);
}

static void walk(qr_cc *cc, json_t *v, int *changed)
{
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            size_t o = qr_cc_push_index(cc, i);
            walk(cc, json_array_get(v, i), changed);
            qr_cc_pop(cc, o);
        }
        return;
    }
    if (!json_is_object(v)) return;
    if (is_file_image(v)) {
        size_t o = qr_cc_push_key(cc, "src");
        qr_image img = {0};
        if (qr_cc_image_src(cc, json_object_get(v, "src"), &img) == 0) {
            size_t n = 0;
            char *uri = data_uri(&img, &n);
            if (!uri || json_object_set_new(v, "src", json_stringn(uri, n)) != 0)
                qr_cc_oom(cc);
            else
                *changed = 1;
            free(uri);
        }
        qr_cc_pop(cc, o);
    }
    const char *key;
    json_t *m;
    json_object_foreach(v, key, m)
    {
        if (!json_is_array(m) && !json_is_object(m)) continue;
        size_t o = qr_cc_push_key(cc, key);
        walk(cc, m, changed);
        qr_cc_pop(cc, o);
    }
}

qr_status qr_spec_inline_images(const char *text, size_t len, const char *base_dir,
                                size_t max_image, char **out, size_t *out_len, qr_errlist *errs)
{
    *out = NULL;
    *out_len = 0;
    qr_errlist ignored = {0};
    qr_status st = QR_OK;
    json_t *root = qr_json_parse(text, len, 1, &ignored, &st);
    qr_errlist_clear(&ignored);
    if (!root) return QR_OK; /* not JSON: the store's parse says so */

    qr_arena a = {0};
    qr_doc *doc = qr_arena_alloc(&a, sizeof *doc);
    if (!doc) {
        json_decref(root);
        qr_arena_free(&a);
        return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    doc->arena = a;
    qr_limits lim;
    qr_limits_default(&lim);
    lim.max_image = max_image;
    qr_cc cc = {.doc = doc, .a = &doc->arena, .errs = errs, .lim = &lim, .base_dir = base_dir};
    int changed = 0;
    walk(&cc, root, &changed);
    free(cc.path);
    if (cc.nomem) {
        st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    } else if (cc.n_errors) {
        st = cc.limit ? QR_E_LIMIT : QR_E_SPEC;
    } else if (changed) {
        char *s = qr_json_dumps(root, JSON_COMPACT | JSON_ENCODE_ANY); /* malloc's: free() it */
        if (!s) {
            st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        } else {
            *out = s;
            *out_len = strlen(s);
        }
    }
    json_decref(root);
    qr_doc_free(doc);
    return st;
}
