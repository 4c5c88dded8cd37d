/* compile_text.c: text values ("text" or "runs"), run flags, links and list
 * items (lists and slide bullets); footnote runs (numbered here, in
 * document order), "#id" links and refs (resolved by compile_doc.c once
 * every block's id is known). Text is literal: nothing here interprets
 * markup (text that looks like markdown gets a warning, compile_warn.c). Empty runs are dropped, so
 * an empty text has n == 0. */
#include <stdio.h>
#include <stdlib.h>
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

/* "#RRGGBB" at member key of v into *out (QR_RGB_SET | rgb). 1 when set,
 * 0 when absent, -1 when wrong (reported). */
static int color_key(qr_cc *cc, json_t *v, const char *key, uint32_t *out)
{
    const char *s = NULL;
    size_t n = 0;
    int r = qr_cc_get_string(cc, v, key, 0, &s, &n);
    if (r != 1) return r;
    int ok = n == 7 && s[0] == '#';
    uint32_t rgb = 0;
    for (size_t i = 1; ok && i < 7; i++) {
        char ch = s[i];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0) ok = 0;
        rgb = rgb << 4 | (uint32_t)(d < 0 ? 0 : d);
    }
    if (!ok) {
        qr_cc_err_key(cc, key, "write the colour as \"#RRGGBB\", e.g. \"#B91C1C\"",
                      "\"%.40s\" is not a colour", s);
        return -1;
    }
    *out = QR_RGB_SET | rgb;
    return 1;
}

static int runs_array(qr_cc *cc, json_t *runs, qr_text *out);

/* A footnote's value (the current path is its): a string or runs. */
static int note_text(qr_cc *cc, json_t *v, qr_run *r)
{
    if (cc->in_note) {
        qr_cc_err(cc, "put the second note's text in the first, or give it its own reference",
                  "a footnote cannot hold a footnote");
        return -1;
    }
    qr_text *t = qr_arena_alloc(cc->a, sizeof *t);
    if (!t) return qr_cc_oom(cc), -1;
    int res;
    cc->in_note = 1;
    if (json_is_string(v)) {
        res = qr_cc_text_plain(cc, v, t) < 0 ? -1 : 0;
    } else if (json_is_array(v)) {
        res = runs_array(cc, v, t);
    } else {
        qr_cc_err(cc, "a footnote is a string or an array of runs",
                  "expected a string or an array of runs, got %s", qr_cc_type_name(v));
        res = -1;
    }
    cc->in_note = 0;
    if (res < 0) return -1;
    if (t->n == 0) {
        qr_cc_err(cc, "write the note's text, or remove the footnote", "the footnote is empty");
        return -1;
    }
    char num[16];
    int k = snprintf(num, sizeof num, "%u", ++cc->n_notes);
    r->text = qr_cc_strndup(cc, num, (size_t)k);
    if (!r->text) return qr_cc_oom(cc), -1;
    r->len = (size_t)k;
    r->note = t;
    r->note_no = cc->n_notes;
    r->sup = 1;
    r->sub = 0;
    return 0;
}

/* Remember a "#id" link or a ref for qr_cc_resolve_ids (key: "link" or "ref"). */
static int want_id(qr_cc *cc, qr_run *r, const char *id, const char *key)
{
    if (cc->n_fixes == cc->cap_fixes) {
        size_t cap = cc->cap_fixes ? cc->cap_fixes * 2 : 16;
        qr_cc_fix *p = realloc(cc->fixes, cap * sizeof *p);
        if (!p) return qr_cc_oom(cc), -1;
        cc->fixes = p;
        cc->cap_fixes = cap;
    }
    size_t o = qr_cc_push_key(cc, key);
    qr_cc_fix *f = &cc->fixes[cc->n_fixes++];
    f->run = r;
    f->id = id;
    f->path = qr_cc_path(cc);
    f->ref = key[0] == 'r';
    qr_cc_pop(cc, o);
    r->anchor = id;
    return 0;
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
    json_t *fn = json_object_get(v, "footnote");
    json_t *ref = json_object_get(v, "ref");
    if (fn && ref) {
        qr_cc_err(cc, "a run is a footnote or a ref, not both", "both \"footnote\" and \"ref\"");
        bad = 1;
    }
    const char *t = NULL;
    size_t n = 0;
    if ((fn || ref) && json_object_get(v, "text")) {
        qr_cc_err_key(cc, "text",
                      fn ? "the footnote's run shows its number: put the text in a run before it"
                         : "a ref prints its target's label: put other text in its own run",
                      "a %s run takes no \"text\"", fn ? "footnote" : "ref");
        bad = 1;
    } else if (!fn && !ref) {
        if (qr_cc_get_string(cc, v, "text", !unk, &t, &n) != 1) bad = 1;
        r->text = t;
        r->len = n;
    } else {
        r->text = "";
    }
    if (t && !json_is_true(json_object_get(v, "code"))) {
        size_t o = qr_cc_push_key(cc, "text");
        qr_cc_warn_markdown(cc, t, n);
        qr_cc_pop(cc, o);
    }
    static const char *const flags[] = {"bold", "italic", "underline", "strike",
                                        "code", "sup",    "sub"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        int b;
        int got = qr_cc_get_bool(cc, v, flags[i], &b);
        if (got < 0) bad = 1;
        if (got != 1) continue;
        switch (i) {
        case 0:
            r->bold = b != 0;
            break;
        case 1:
            r->italic = b != 0;
            break;
        case 2:
            r->underline = b != 0;
            break;
        case 3:
            r->strike = b != 0;
            break;
        case 4:
            r->code = b != 0;
            break;
        case 5:
            r->sup = b != 0;
            break;
        default:
            r->sub = b != 0;
            break;
        }
    }
    if (r->sup && r->sub) {
        qr_cc_err_key(cc, "sub", "pick one of \"sup\" and \"sub\"",
                      "a run cannot be both superscript and subscript");
        bad = 1;
    }
    if (color_key(cc, v, "color", &r->color) < 0) bad = 1;
    if (color_key(cc, v, "highlight", &r->highlight) < 0) bad = 1;
    const char *link = NULL;
    int lr = qr_cc_get_string(cc, v, "link", 0, &link, NULL);
    if (lr < 0) bad = 1;
    if (lr == 1 && (fn || ref)) {
        qr_cc_err_key(cc, "link", "a footnote or ref links by itself; put the link on another run",
                      "a %s run takes no \"link\"", fn ? "footnote" : "ref");
        bad = 1;
    } else if (lr == 1 && link[0] == '#') {
        if (!link[1]) {
            qr_cc_err_key(cc, "link", "name a block's id: \"#methods\"", "\"#\" names no block");
            bad = 1;
        } else if (want_id(cc, r, link + 1, "link") < 0) {
            bad = 1;
        }
    } else if (lr == 1) {
        if (!qr_link_ok(link)) {
            qr_cc_err_key(cc, "link", "links must start with https:, http:, mailto: or #",
                          "link \"%.80s\" is not allowed", link);
            bad = 1;
        } else {
            r->link = link;
        }
    }
    if (ref) {
        const char *id = NULL;
        if (qr_cc_get_string(cc, v, "ref", 0, &id, NULL) != 1)
            bad = 1;
        else if (want_id(cc, r, id, "ref") < 0)
            bad = 1;
    }
    if (fn) {
        size_t o = qr_cc_push_key(cc, "footnote");
        if (note_text(cc, fn, r) < 0) bad = 1;
        qr_cc_pop(cc, o);
    }
    return bad ? -1 : 0;
}

/* An array of runs (the current path is the array's) into *out; empty runs
 * are dropped (footnote and ref runs are kept). Returns 0 or -1. */
static int runs_array(qr_cc *cc, json_t *runs, qr_text *out)
{
    memset(out, 0, sizeof *out);
    out->path = qr_cc_path(cc);
    if (!json_is_array(runs)) {
        qr_cc_err(cc, "runs is an array like [\"plain \", {\"text\": \"bold\", \"bold\": true}]",
                  "expected an array of runs, got %s", qr_cc_type_name(runs));
        return -1;
    }
    size_t n = json_array_size(runs), k = 0;
    qr_run *rs = n ? qr_arena_array(cc->a, n, sizeof *rs) : NULL;
    if (n && !rs) {
        qr_cc_oom(cc);
        return -1;
    }
    int result = 0;
    for (size_t i = 0; i < n; i++) {
        size_t o = qr_cc_push_index(cc, i);
        memset(&rs[k], 0, sizeof rs[k]);
        size_t before = cc->n_fixes;
        if (run(cc, json_array_get(runs, i), &rs[k]) < 0) {
            result = -1;
        } else if (rs[k].len || rs[k].anchor) {
            k++;
        } else {
            cc->n_fixes = before; /* an empty run linking "#id": nothing to resolve */
        }
        qr_cc_pop(cc, o);
    }
    out->runs = rs;
    out->n = k;
    return result;
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
    int result = runs_array(cc, runs, out) < 0 ? -1 : 1;
    qr_cc_pop(cc, old);
    return result;
}

/* A "caption" value (string or runs) at member key of obj into *out.
 * Returns 1 when present and valid, 0 when absent, -1 when wrong. */
int qr_cc_text_or_runs(qr_cc *cc, json_t *obj, const char *key, qr_text *out)
{
    memset(out, 0, sizeof *out);
    json_t *v = json_object_get(obj, key);
    if (!v) return 0;
    size_t o = qr_cc_push_key(cc, key);
    int r;
    if (json_is_string(v))
        r = qr_cc_text_plain(cc, v, out) < 0 ? -1 : 1;
    else if (json_is_array(v))
        r = runs_array(cc, v, out) < 0 ? -1 : 1;
    else {
        qr_cc_err(cc, "a string, or runs like [\"text \", {\"text\": \"bold\", \"bold\": true}]",
                  "expected a string or an array of runs, got %s", qr_cc_type_name(v));
        r = -1;
    }
    qr_cc_pop(cc, o);
    return r;
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
    json_t *ck = json_object_get(v, "checked");
    if (ck) {
        int on = 0;
        if (cc->kind == QR_KIND_PRESENTATION) {
            qr_cc_err_key(cc, "checked", "write the box into the text, e.g. \"\u2610 Draft\"",
                          "a slide's bullet takes no checked (task items are for documents)");
            bad = 1;
        } else if (cc->ordered_list) {
            qr_cc_err_key(cc, "checked", "make the list a bullet list (no \"ordered\") for tasks",
                          "a task item's box takes the place of its bullet: an ordered list has "
                          "numbers there");
            bad = 1;
        } else if (qr_cc_get_bool(cc, v, "checked", &on) < 0) {
            bad = 1;
        } else {
            it->task = on ? QR_TASK_DONE : QR_TASK_OPEN;
        }
    }
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
