/* compile_text.c: text values ("text" or "runs"), run flags, links and list
 * items (lists and slide bullets). Text is literal: nothing here interprets
 * markup (text that looks like markdown gets a warning, compile_warn.c). Empty runs are dropped, so
 * an empty text has n == 0. */
#include <string.h>

#include "compile_int.h"
#include "schema.h"

/* Keys: the schema table's (schema_table.c). */

static qr_run *one_run(qr_cc *cc, const char *s, size_t n)
{
    qr_run *r = qr_arena_alloc(cc->a, sizeof *r);
    if (!r) {
        qr_cc_oom(cc);
        return NULL;
    }
    r->text = s;
    r->len = n;
    return r;
}

qr_text qr_cc_plain_at(qr_cc *cc, const char *key, const char *s, size_t n)
{
    qr_text t = {0};
    size_t o = qr_cc_push_key(cc, key);
    t.path = qr_cc_path(cc);
    qr_cc_pop(cc, o);
    if (s && n) {
        t.runs = one_run(cc, s, n);
        t.n = t.runs ? 1 : 0;
    }
    return t;
}

int qr_cc_text_plain(qr_cc *cc, json_t *s, qr_text *out)
{
    memset(out, 0, sizeof *out);
    out->path = qr_cc_path(cc);
    if (!json_is_string(s)) {
        qr_cc_err(cc, "text is a JSON string; formatted text goes in \"runs\"",
                  "expected a string, got %s", qr_cc_type_name(s));
        return -1;
    }
    size_t n;
    const char *t = qr_cc_str(cc, s, &n);
    if (!t) return -1;
    if (n == 0) return 1;
    qr_cc_warn_markdown(cc, t, n);
    out->runs = one_run(cc, t, n);
    out->n = out->runs ? 1 : 0;
    return 1;
}

/* One element of "runs" (the current path is the element's). */
static int run(qr_cc *cc, json_t *v, qr_run *r)
{
    if (json_is_string(v)) {
        r->text = qr_cc_str(cc, v, &r->len);
        if (r->text) qr_cc_warn_markdown(cc, r->text, r->len);
        return r->text ? 0 : -1;
    }
    if (!json_is_object(v)) {
        qr_cc_err(cc, "a run is a string or {\"text\": \"...\", \"bold\": true}",
                  "expected a string or a run object, got %s", qr_cc_type_name(v));
        return -1;
    }
    int unk = qr_cc_check_obj(cc, v, QR_SO_RUN, "a run");
    int bad = unk > 0;
    const char *t = NULL;
    size_t n = 0;
    if (qr_cc_get_string(cc, v, "text", !unk, &t, &n) != 1) bad = 1;
    r->text = t;
    r->len = n;
    if (t && !json_is_true(json_object_get(v, "code"))) {
        size_t o = qr_cc_push_key(cc, "text");
        qr_cc_warn_markdown(cc, t, n);
        qr_cc_pop(cc, o);
    }
    int b;
    if (qr_cc_get_bool(cc, v, "bold", &b) == 1)
        r->bold = b != 0;
    else if (json_object_get(v, "bold"))
        bad = 1;
    if (qr_cc_get_bool(cc, v, "italic", &b) == 1)
        r->italic = b != 0;
    else if (json_object_get(v, "italic"))
        bad = 1;
    if (qr_cc_get_bool(cc, v, "underline", &b) == 1)
        r->underline = b != 0;
    else if (json_object_get(v, "underline"))
        bad = 1;
    if (qr_cc_get_bool(cc, v, "strike", &b) == 1)
        r->strike = b != 0;
    else if (json_object_get(v, "strike"))
        bad = 1;
    if (qr_cc_get_bool(cc, v, "code", &b) == 1)
        r->code = b != 0;
    else if (json_object_get(v, "code"))
        bad = 1;
    const char *link = NULL;
    int lr = qr_cc_get_string(cc, v, "link", 0, &link, NULL);
    if (lr < 0) bad = 1;
    if (lr == 1) {
        if (!qr_link_ok(link)) {
            qr_cc_err_key(cc, "link", "links must start with https:, http: or mailto:",
                          "link \"%.80s\" is not allowed", link);
            bad = 1;
        } else {
            r->link = link;
        }
    }
    return bad ? -1 : 0;
}

int qr_cc_text(qr_cc *cc, json_t *obj, int required, qr_text *out)
{
    memset(out, 0, sizeof *out);
    json_t *text = json_object_get(obj, "text");
    json_t *runs = json_object_get(obj, "runs");
    if (text && runs) {
        qr_cc_err(cc, "pick one: \"text\" for plain text, \"runs\" for formatted text",
                  "both \"text\" and \"runs\" are given");
        return -1;
    }
    if (!text && !runs) {
        out->path = qr_cc_path(cc);
        if (required) {
            qr_cc_err(cc, "add \"text\": \"...\" (or \"runs\": [...] for formatted text)",
                      "missing \"text\"");
            return -1;
        }
        return 0;
    }
    if (text) {
        size_t old = qr_cc_push_key(cc, "text");
        int r = qr_cc_text_plain(cc, text, out);
        qr_cc_pop(cc, old);
        return r;
    }
    size_t old = qr_cc_push_key(cc, "runs");
    out->path = qr_cc_path(cc);
    int result = 1;
    if (!json_is_array(runs)) {
        qr_cc_err(cc, "runs is an array like [\"plain \", {\"text\": \"bold\", \"bold\": true}]",
                  "expected an array of runs, got %s", qr_cc_type_name(runs));
        result = -1;
    } else {
        size_t n = json_array_size(runs), k = 0;
        qr_run *rs = n ? qr_arena_array(cc->a, n, sizeof *rs) : NULL;
        if (n && !rs) {
            qr_cc_oom(cc);
            result = -1;
        } else {
            for (size_t i = 0; i < n; i++) {
                size_t o = qr_cc_push_index(cc, i);
                memset(&rs[k], 0, sizeof rs[k]);
                if (run(cc, json_array_get(runs, i), &rs[k]) < 0)
                    result = -1;
                else if (rs[k].len)
                    k++;
                qr_cc_pop(cc, o);
            }
            out->runs = rs;
            out->n = k;
        }
    }
    qr_cc_pop(cc, old);
    return result;
}

/* ---- list items ------------------------------------------------------------ */

static int item(qr_cc *cc, json_t *v, size_t depth, qr_item *it)
{
    if (json_is_string(v)) return qr_cc_text_plain(cc, v, &it->text) < 0 ? -1 : 0;
    if (!json_is_object(v)) {
        qr_cc_err(cc, "an item is a string or {\"text\": \"...\", \"items\": [...]}",
                  "expected a string or an item object, got %s", qr_cc_type_name(v));
        return -1;
    }
    int unk = qr_cc_check_obj(cc, v, QR_SO_ITEM, "a list item");
    int bad = unk > 0;
    if (qr_cc_text(cc, v, !unk, &it->text) < 0) bad = 1;
    json_t *sub = json_object_get(v, "items");
    if (sub) {
        size_t old = qr_cc_push_key(cc, "items");
        if (qr_cc_items(cc, sub, depth + 1, 0, &it->items, &it->n_items) < 0) bad = 1;
        qr_cc_pop(cc, old);
    }
    return bad ? -1 : 0;
}

int qr_cc_items(qr_cc *cc, json_t *arr, size_t depth, int nonempty, const qr_item **out,
                size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    if (!json_is_array(arr)) {
        qr_cc_err(cc, "items is an array like [\"one\", {\"text\": \"two\", \"items\": [\"2a\"]}]",
                  "expected an array of items, got %s", qr_cc_type_name(arr));
        return -1;
    }
    size_t n = json_array_size(arr);
    if (n == 0) {
        if (nonempty) {
            qr_cc_err(cc, "give at least one item", "a list needs at least one item");
            return -1;
        }
        return 0;
    }
    if (cc->lim->max_list_depth && depth > cc->lim->max_list_depth) {
        /* A spec error (the language allows 9 levels), reported at the first
         * item that is too deep, naming the limit that sets it. */
        size_t o = qr_cc_push_index(cc, 0);
        qr_cc_err(cc, "use fewer levels (or raise qr_limits.max_list_depth)",
                  "list nesting of %zu levels; the limit max_list_depth is %zu levels", depth,
                  cc->lim->max_list_depth);
        qr_cc_pop(cc, o);
        return -1;
    }
    if (!qr_cc_check_blocks(cc, n, "items")) return -1;
    qr_item *items = qr_arena_array(cc->a, n, sizeof *items);
    if (!items) {
        qr_cc_oom(cc);
        return -1;
    }
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        size_t old = qr_cc_push_index(cc, i);
        if (item(cc, json_array_get(arr, i), depth, &items[i]) < 0) bad = 1;
        qr_cc_pop(cc, old);
    }
    *out = items;
    *n_out = n;
    return bad ? -1 : 0;
}
