/* store_diff.c: comparing two spec versions (store.h): the JSON pointers
 * added, removed and changed, and a unified line diff of the canonical
 * texts by Myers' O(ND) algorithm (with a bound on D, past which the
 * differing middle is shown as removed then added). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "folder_store.h"

/* ---- by JSON pointer ------------------------------------------------------------ */

typedef struct plist {
    char **v;
    size_t n, cap;
} plist;

static void plist_add(plist *l, const qr_buf *path)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v) return;
        l->v = v;
        l->cap = cap;
    }
    char *s = strdup(path->data ? path->data : "");
    if (s) l->v[l->n++] = s;
}

static void walk(const json_t *a, const json_t *b, qr_buf *path, plist *added, plist *removed,
                 plist *changed)
{
    size_t mark = path->len;
    if (json_is_object(a) && json_is_object(b)) {
        const char *k;
        json_t *va;
        json_object_foreach((json_t *)a, k, va)
        {
            qr_edit_pointer_push(path, k);
            json_t *vb = json_object_get(b, k);
            if (!vb)
                plist_add(removed, path);
            else
                walk(va, vb, path, added, removed, changed);
            path->len = mark;
            if (path->data) path->data[mark] = '\0';
        }
        json_t *vb;
        json_object_foreach((json_t *)b, k, vb)
        {
            if (json_object_get(a, k)) continue;
            qr_edit_pointer_push(path, k);
            plist_add(added, path);
            path->len = mark;
            if (path->data) path->data[mark] = '\0';
        }
        return;
    }
    if (json_is_array(a) && json_is_array(b)) {
        size_t na = json_array_size(a), nb = json_array_size(b);
        for (size_t i = 0; i < na || i < nb; i++) {
            qr_buf_printf(path, "/%zu", i);
            if (i >= nb)
                plist_add(removed, path);
            else if (i >= na)
                plist_add(added, path);
            else
                walk(json_array_get(a, i), json_array_get(b, i), path, added, removed, changed);
            path->len = mark;
            if (path->data) path->data[mark] = '\0';
        }
        return;
    }
    if (!qr_edit_json_equal(a, b)) plist_add(changed, path);
}

qr_status qr_spec_diff_texts(const char *a, size_t alen, const char *b, size_t blen,
                             const char *a_name, const char *b_name, qr_spec_diff *out,
                             qr_errlist *errs)
{
    memset(out, 0, sizeof *out);
    json_error_t e;
    json_t *ja = json_loadb(a, alen, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    if (!ja)
        return qr_errlist_addf(errs, QR_E_STORE, "", NULL, "%s is not valid JSON: %s", a_name,
                               e.text);
    json_t *jb = json_loadb(b, blen, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    if (!jb) {
        json_decref(ja);
        return qr_errlist_addf(errs, QR_E_STORE, "", NULL, "%s is not valid JSON: %s", b_name,
                               e.text);
    }
    plist ad = {0}, rm = {0}, ch = {0};
    qr_buf path = {0};
    qr_buf_puts(&path, "");
    walk(ja, jb, &path, &ad, &rm, &ch);
    qr_buf_free(&path);
    json_decref(ja);
    json_decref(jb);
    out->added = ad.v, out->n_added = ad.n;
    out->removed = rm.v, out->n_removed = rm.n;
    out->changed = ch.v, out->n_changed = ch.n;
    qr_line_diff(a, alen, b, blen, a_name, b_name, 3, &out->unified);
    return QR_OK;
}

void qr_spec_diff_free(qr_spec_diff *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->n_added; i++)
        free(d->added[i]);
    for (size_t i = 0; i < d->n_removed; i++)
        free(d->removed[i]);
    for (size_t i = 0; i < d->n_changed; i++)
        free(d->changed[i]);
    free(d->added);
    free(d->removed);
    free(d->changed);
    qr_buf_free(&d->unified);
    memset(d, 0, sizeof *d);
}

/* ---- lines ------------------------------------------------------------------------- */

typedef struct line {
    const char *s;
    size_t len; /* with its '\n', if any */
} line;

static line *split_lines(const char *t, size_t n, size_t *count)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i] == '\n') c++;
    if (n && t[n - 1] != '\n') c++;
    line *v = malloc((c ? c : 1) * sizeof *v);
    if (!v) return NULL;
    size_t k = 0, start = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '\n') {
            v[k++] = (line){t + start, i + 1 - start};
            start = i + 1;
        }
    }
    if (start < n) v[k++] = (line){t + start, n - start};
    *count = c;
    return v;
}

static int line_eq(const line *a, const line *b)
{
    return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* An edit script entry: ' ' keep, '-' delete a[ai], '+' insert b[bi]. */
typedef struct dop {
    char op;
    size_t ai, bi;
} dop;

typedef struct dops {
    dop *v;
    size_t n, cap;
    int oom;
} dops;

static void dops_add(dops *d, char op, size_t ai, size_t bi)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? d->cap * 2 : 64;
        dop *v = realloc(d->v, cap * sizeof *v);
        if (!v) {
            d->oom = 1;
            return;
        }
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = (dop){op, ai, bi};
}

#define MAX_D 2000 /* past this many differing lines, show a replace */

/* Myers on a[0..n) and b[0..m) (offsets ao, bo added to the indices);
 * appends the middle's script to out. */
static void myers(const line *a, size_t n, const line *b, size_t m, size_t ao, size_t bo, dops *out)
{
    long N = (long)n, M = (long)m;
    long maxd = N + M < MAX_D ? N + M : MAX_D;
    long **trace = calloc((size_t)maxd + 1, sizeof *trace);
    long found = -1;
    for (long d = 0; trace && d <= maxd && found < 0; d++) {
        long *V = malloc((size_t)(2 * d + 1) * sizeof *V);
        if (!V) break;
        trace[d] = V;
        long *P = d ? trace[d - 1] : NULL;
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (d == 0)
                x = 0;
            else if (k == -d || (k != d && P[k - 1 + (d - 1)] < P[k + 1 + (d - 1)]))
                x = P[k + 1 + (d - 1)];
            else
                x = P[k - 1 + (d - 1)] + 1;
            long y = x - k;
            while (x < N && y < M && line_eq(&a[x], &b[y]))
                x++, y++;
            V[k + d] = x;
            if (x >= N && y >= M) {
                found = d;
                break;
            }
        }
    }
    if (found < 0) {
        /* too different (or out of memory): all of a removed, all of b added */
        for (size_t i = 0; i < n; i++)
            dops_add(out, '-', ao + i, bo);
        for (size_t j = 0; j < m; j++)
            dops_add(out, '+', ao + n, bo + j);
    } else {
        /* backtrack from (N, M), collecting the script in reverse */
        dops rev = {0};
        long x = N, y = M;
        for (long d = found; d > 0; d--) {
            long *P = trace[d - 1];
            long k = x - y, pk;
            if (k == -d || (k != d && P[k - 1 + (d - 1)] < P[k + 1 + (d - 1)]))
                pk = k + 1;
            else
                pk = k - 1;
            long px = P[pk + (d - 1)], py = px - pk;
            while (x > px && y > py && (pk == k + 1 ? y - 1 > py : x - 1 > px)) {
                dops_add(&rev, ' ', ao + (size_t)(x - 1), bo + (size_t)(y - 1));
                x--, y--;
            }
            if (pk == k + 1)
                dops_add(&rev, '+', ao + (size_t)px, bo + (size_t)(y - 1));
            else
                dops_add(&rev, '-', ao + (size_t)(x - 1), bo + (size_t)py);
            x = px, y = py;
        }
        while (x > 0 && y > 0) {
            dops_add(&rev, ' ', ao + (size_t)(x - 1), bo + (size_t)(y - 1));
            x--, y--;
        }
        for (size_t i = rev.n; i > 0; i--)
            dops_add(out, rev.v[i - 1].op, rev.v[i - 1].ai, rev.v[i - 1].bi);
        free(rev.v);
    }
    for (long d = 0; trace && d <= maxd; d++)
        free(trace[d]);
    free(trace);
}

static void put_line(qr_buf *out, char mark, const line *l)
{
    qr_buf_putc(out, mark);
    qr_buf_append(out, l->s, l->len);
    if (!l->len || l->s[l->len - 1] != '\n') qr_buf_puts(out, "\n\\ No newline at end of file\n");
}

/* "@@ -s,c +s,c @@": GNU style (a count of 0 names the line before). */
static void hunk_range(qr_buf *out, size_t start, size_t count)
{
    if (count == 1)
        qr_buf_printf(out, "%zu", start + 1);
    else
        qr_buf_printf(out, "%zu,%zu", count ? start + 1 : start, count);
}

void qr_line_diff(const char *a, size_t alen, const char *b, size_t blen, const char *a_name,
                  const char *b_name, int context, qr_buf *out)
{
    size_t n, m;
    line *la = split_lines(a, alen, &n), *lb = split_lines(b, blen, &m);
    dops d = {0};
    if (!la || !lb) goto done;
    size_t pre = 0;
    while (pre < n && pre < m && line_eq(&la[pre], &lb[pre]))
        pre++;
    size_t suf = 0;
    while (suf < n - pre && suf < m - pre && line_eq(&la[n - 1 - suf], &lb[m - 1 - suf]))
        suf++;
    for (size_t i = 0; i < pre; i++)
        dops_add(&d, ' ', i, i);
    myers(la + pre, n - pre - suf, lb + pre, m - pre - suf, pre, pre, &d);
    for (size_t i = 0; i < suf; i++)
        dops_add(&d, ' ', n - suf + i, m - suf + i);
    if (d.oom) goto done;

    int any = 0;
    for (size_t i = 0; i < d.n; i++)
        if (d.v[i].op != ' ') any = 1;
    if (!any) goto done;
    qr_buf_printf(out, "--- %s\n+++ %s\n", a_name, b_name);
    size_t ctx = context > 0 ? (size_t)context : 0;
    size_t i = 0;
    while (i < d.n) {
        /* next change */
        size_t c = i;
        while (c < d.n && d.v[c].op == ' ')
            c++;
        if (c == d.n) break;
        size_t start = c > ctx ? c - ctx : 0;
        if (start < i) start = i;
        /* extend while the gap of kept lines to the next change is <= 2*ctx */
        size_t end = c;
        for (;;) {
            while (end < d.n && d.v[end].op != ' ')
                end++;
            size_t k = end;
            while (k < d.n && d.v[k].op == ' ')
                k++;
            if (k < d.n && k - end <= 2 * ctx) {
                end = k;
                continue;
            }
            end = end + ctx < d.n ? end + ctx : d.n;
            if (end > k) end = k;
            break;
        }
        size_t as = 0, ac = 0, bs = 0, bc = 0;
        int aset = 0, bset = 0;
        for (size_t k = start; k < end; k++) {
            const dop *o = &d.v[k];
            if (o->op != '+') {
                if (!aset) as = o->ai, aset = 1;
                ac++;
            }
            if (o->op != '-') {
                if (!bset) bs = o->bi, bset = 1;
                bc++;
            }
        }
        if (!aset) as = d.v[start].ai;
        if (!bset) bs = d.v[start].bi;
        qr_buf_puts(out, "@@ -");
        hunk_range(out, as, ac);
        qr_buf_puts(out, " +");
        hunk_range(out, bs, bc);
        qr_buf_puts(out, " @@\n");
        for (size_t k = start; k < end; k++) {
            const dop *o = &d.v[k];
            if (o->op == '+')
                put_line(out, '+', &lb[o->bi]);
            else
                put_line(out, o->op, &la[o->ai]);
        }
        i = end;
    }
done:
    free(d.v);
    free(la);
    free(lb);
}
