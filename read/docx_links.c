/* docx_links.c: a docx's bookmarks, internal hyperlinks and REF fields
 * back into block ids, "#id" links and refs (issue 32), once the body is
 * read (a link may point forward).
 *
 * docx.c gives every bookmark to the block its paragraph became (a mark:
 * the name and the block's index) and writes every internal link as
 * "link": "\1#name". Here, on the read spec's tree: a block takes the
 * first of its bookmarks that is a valid id (a letter, then letters,
 * digits, - _ . :; Word's hidden "_Toc..."/"_Ref..." ones are not) as its
 * "id"; a link to any bookmark of a block links to that block's id (a
 * block only a hidden bookmark names takes that name without its leading
 * underscores, when that is a valid, unused id); a link whose text is the
 * target's label (what quire prints for a ref: "Table 1", "Figure 2",
 * "Listing 1", a heading's text) and that has no other flag reads as
 * {"ref": id}; a link to no block's bookmark reads as its text.
 * Headings that all start with quire's numbers read as numbered_headings. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docx_read.h"
#include "json_alloc.h"
#include "words.h"

static int id_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64 || !isalpha((unsigned char)s[0])) return 0;
    for (size_t i = 1; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("-_.:", s[i])) return 0;
    return 1;
}

typedef struct links {
    json_t *blocks;
    size_t n_blocks;
    const qr_rd_mark **by_name; /* the marks sorted by name */
    size_t n_marks;
    char **labels; /* per block: what a ref to it prints, or NULL */
    int nomem;
} links;

static int mark_cmp(const void *a, const void *b)
{
    const qr_rd_mark *x = *(const qr_rd_mark *const *)a, *y = *(const qr_rd_mark *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->block < y->block ? -1 : x->block > y->block;
}

/* Whether some block already has id. */
static int id_used(const links *l, const char *id)
{
    for (size_t i = 0; i < l->n_blocks; i++) {
        const char *v = json_string_value(json_object_get(json_array_get(l->blocks, i), "id"));
        if (v && strcmp(v, id) == 0) return 1;
    }
    return 0;
}

/* The id of the block the bookmark name marks (given one from a hidden
 * name if it has none), or NULL. */
static const char *target(links *l, const char *name)
{
    size_t lo = 0, hi = l->n_marks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(l->by_name[mid]->name, name);
        if (c == 0) {
            lo = mid;
            hi = mid + 1;
            break;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo >= l->n_marks || strcmp(l->by_name[lo]->name, name) != 0) return NULL;
    size_t bi = l->by_name[lo]->block;
    json_t *b = json_array_get(l->blocks, bi);
    if (!json_is_object(b)) return NULL;
    const char *id = json_string_value(json_object_get(b, "id"));
    if (id) return id;
    while (*name == '_')
        name++;
    if (!id_ok(name) || id_used(l, name)) return NULL;
    if (json_object_set_new(b, "id", json_string(name)) != 0) {
        l->nomem = 1;
        return NULL;
    }
    return json_string_value(json_object_get(b, "id"));
}

/* A text value's plain text without footnote runs (a heading's label). */
static char *plain_text(json_t *b)
{
    const char *t = json_string_value(json_object_get(b, "text"));
    if (t) return strdup(t);
    json_t *runs = json_object_get(b, "runs");
    size_t n = 0, i;
    json_t *r;
    json_array_foreach(runs, i, r)
    {
        const char *s = json_is_string(r) ? json_string_value(r)
                                          : json_string_value(json_object_get(r, "text"));
        n += s ? strlen(s) : 0;
    }
    char *out = malloc(n + 1);
    if (!out) return NULL;
    out[0] = '\0';
    json_array_foreach(runs, i, r)
    {
        const char *s = json_is_string(r) ? json_string_value(r)
                                          : json_string_value(json_object_get(r, "text"));
        if (s) strcat(out, s);
    }
    return out;
}

/* The first run of a heading's text value: its "text", or its first run's
 * (a string or an object's "text"); *holder and *key say where it is. */
static const char *first_text(json_t *b, json_t **holder, size_t *index)
{
    *holder = b;
    *index = (size_t)-1;
    const char *t = json_string_value(json_object_get(b, "text"));
    if (t) return t;
    json_t *runs = json_object_get(b, "runs"), *r0 = json_array_get(runs, 0);
    if (json_is_string(r0)) {
        *holder = runs;
        *index = 0;
        return json_string_value(r0);
    }
    *holder = r0;
    return json_string_value(json_object_get(r0, "text"));
}

/* numbered_headings (spec/heading_numbers.c): when every heading's text
 * starts with the number quire would put before it ("1 ", "2.3 ", counted
 * from the shallowest level), the numbers go and the spec says so. */
static void heading_numbers(links *l, json_t *root)
{
    int top = 7, n_head = 0;
    for (size_t i = 0; i < l->n_blocks; i++) {
        json_t *b = json_array_get(l->blocks, i);
        const char *type = json_string_value(json_object_get(b, "type"));
        if (!type || strcmp(type, "heading")) continue;
        int lv = (int)json_integer_value(json_object_get(b, "level"));
        if (lv < 1 || lv > 6) return;
        if (lv < top) top = lv;
        n_head++;
    }
    if (!n_head) return;
    for (int pass = 0; pass < 2; pass++) {
        unsigned count[7] = {0};
        for (size_t i = 0; i < l->n_blocks; i++) {
            json_t *b = json_array_get(l->blocks, i);
            const char *type = json_string_value(json_object_get(b, "type"));
            if (!type || strcmp(type, "heading")) continue;
            int lv = (int)json_integer_value(json_object_get(b, "level"));
            count[lv]++;
            for (int d = lv + 1; d <= 6; d++)
                count[d] = 0;
            char label[64];
            size_t n = 0;
            for (int d = top; d <= lv && n < sizeof label - 12; d++)
                n +=
                    (size_t)snprintf(label + n, sizeof label - n, d > top ? ".%u" : "%u", count[d]);
            label[n++] = ' ';
            label[n] = '\0';
            json_t *holder;
            size_t index;
            const char *t = first_text(b, &holder, &index);
            if (!t || strncmp(t, label, n) != 0 || !t[n]) return; /* pass 0: all must match */
            if (pass == 0) continue;
            json_t *rest = json_string(t + n);
            int bad = !rest;
            if (index != (size_t)-1)
                bad = bad || json_array_set_new(holder, index, rest) != 0;
            else
                bad = bad || json_object_set_new(holder, "text", rest) != 0;
            if (bad) {
                l->nomem = 1;
                return;
            }
            if (l->labels) {
                /* a ref to it prints "Section 2.3" */
                char sec[160];
                snprintf(sec, sizeof sec, "%s %.*s",
                         qr_word(json_string_value(json_object_get(root, "lang")), QR_WORD_SECTION),
                         (int)(n - 1), label);
                l->labels[i] = strdup(sec);
            }
        }
    }
    if (json_object_set_new(root, "numbered_headings", json_true()) != 0) l->nomem = 1;
}

/* What a ref to each block prints (spec/compile_doc.c's ref_label): a
 * caption's label, numbered per kind, or a heading's text (its number,
 * "Section 2.3", once heading_numbers has given it). */
static void put_labels(links *l, const char *lang)
{
    unsigned no[3] = {0, 0, 0};
    for (size_t i = 0; i < l->n_blocks; i++) {
        json_t *b = json_array_get(l->blocks, i);
        const char *type = json_string_value(json_object_get(b, "type"));
        if (!type) continue;
        if (json_object_get(b, "caption")) {
            int k = !strcmp(type, "table") ? 0 : !strcmp(type, "code") ? 2 : 1;
            static const qr_word_id words[3] = {QR_WORD_TABLE, QR_WORD_FIGURE, QR_WORD_LISTING};
            char label[96];
            qr_word_numbered(lang, words[k], ++no[k], label, sizeof label);
            l->labels[i] = strdup(label);
        } else if (!strcmp(type, "heading") && !l->labels[i]) {
            l->labels[i] = plain_text(b);
        }
    }
}

/* One run holding a marked link: resolved, a ref, or its text. *out: what
 * replaces it (NULL: it stays, changed in place). */
static void run_link(links *l, json_t *run, json_t **out)
{
    *out = NULL;
    const char *v = json_string_value(json_object_get(run, "link"));
    const char *id = target(l, v + 2);
    if (!id) {
        json_object_del(run, "link");
        return;
    }
    /* a ref: text and link only, the text the target's label */
    const char *text = json_string_value(json_object_get(run, "text"));
    size_t bi = 0;
    for (; bi < l->n_blocks; bi++)
        if (json_string_value(json_object_get(json_array_get(l->blocks, bi), "id")) == id) break;
    const char *label = bi < l->n_blocks ? l->labels[bi] : NULL;
    if (json_object_size(run) == 2 && text && label && *label && strcmp(text, label) == 0) {
        *out = json_pack("{s:s}", "ref", id);
        if (!*out) l->nomem = 1;
        return;
    }
    size_t n = strlen(id);
    char *hash = malloc(n + 2);
    if (!hash) {
        l->nomem = 1;
        return;
    }
    hash[0] = '#';
    memcpy(hash + 1, id, n + 1);
    if (json_object_set_new(run, "link", json_string(hash)) != 0) l->nomem = 1;
    free(hash);
}

/* A runs array after a link was dropped: runs that are only text are
 * strings, adjacent strings one. */
static void merge_plain(links *l, json_t *runs)
{
    for (size_t i = 0; i < json_array_size(runs);) {
        json_t *x = json_array_get(runs, i);
        const char *t = json_string_value(json_object_get(x, "text"));
        if (json_is_object(x) && json_object_size(x) == 1 && t) {
            if (json_array_set_new(runs, i, json_string(t)) != 0) l->nomem = 1;
            x = json_array_get(runs, i);
        }
        json_t *prev = i ? json_array_get(runs, i - 1) : NULL;
        if (json_is_string(x) && json_is_string(prev)) {
            size_t a = json_string_length(prev), b = json_string_length(x);
            char *both = malloc(a + b + 1);
            if (!both) {
                l->nomem = 1;
                return;
            }
            memcpy(both, json_string_value(prev), a);
            memcpy(both + a, json_string_value(x), b + 1);
            if (json_array_set_new(runs, i - 1, json_stringn(both, a + b)) != 0 ||
                json_array_remove(runs, i) != 0)
                l->nomem = 1;
            free(both);
            continue;
        }
        i++;
    }
}

/* Every marked link under v. */
static void walk(links *l, json_t *v)
{
    if (json_is_array(v)) {
        size_t i;
        json_t *x;
        int dropped = 0;
        json_array_foreach(v, i, x)
        {
            const char *lk =
                json_is_object(x) ? json_string_value(json_object_get(x, "link")) : NULL;
            if (lk && lk[0] == '\1') {
                json_t *rep;
                run_link(l, x, &rep);
                if (rep && json_array_set_new(v, i, rep) != 0) l->nomem = 1;
                dropped |= !rep && !json_object_get(x, "link");
                continue;
            }
            walk(l, x);
        }
        if (dropped) merge_plain(l, v);
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) walk(l, x);
    }
}

qr_status qr_rd_docx_links(qr_rd *r, const qr_rd_mark *marks, size_t n_marks)
{
    json_error_t err;
    json_t *root = json_loadb(r->spec.data ? r->spec.data : "", r->spec.len, 0, &err);
    if (!root) return qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory");
    links l;
    memset(&l, 0, sizeof l);
    l.blocks = json_object_get(root, "blocks");
    l.n_blocks = json_array_size(l.blocks);
    l.by_name = n_marks ? malloc(n_marks * sizeof *l.by_name) : NULL;
    l.labels = l.n_blocks ? calloc(l.n_blocks, sizeof *l.labels) : NULL;
    l.nomem = (n_marks && !l.by_name) || (l.n_blocks && !l.labels);
    /* ids: a block's first bookmark that is a valid id (and unused) */
    for (size_t i = 0; i < n_marks && !l.nomem; i++) {
        l.by_name[l.n_marks++] = &marks[i];
        json_t *b = json_array_get(l.blocks, marks[i].block);
        if (!json_is_object(b) || json_object_get(b, "id") || !id_ok(marks[i].name) ||
            id_used(&l, marks[i].name))
            continue;
        if (json_object_set_new(b, "id", json_string(marks[i].name)) != 0) l.nomem = 1;
    }
    if (!l.nomem) {
        qsort(l.by_name, l.n_marks, sizeof *l.by_name, mark_cmp);
        heading_numbers(&l, root);
        put_labels(&l, json_string_value(json_object_get(root, "lang")));
        walk(&l, l.blocks);
    }
    qr_status st = QR_OK;
    char *out = l.nomem ? NULL : qr_json_dumps(root, JSON_COMPACT);
    if (!out) {
        st = qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory");
    } else {
        r->spec.len = 0;
        qr_buf_puts(&r->spec, out);
        free(out);
    }
    for (size_t i = 0; l.labels && i < l.n_blocks; i++)
        free(l.labels[i]);
    free(l.labels);
    free(l.by_name);
    json_decref(root);
    return st;
}
