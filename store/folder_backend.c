/* folder_backend.c: the folder backend (store_backend.h) over store/folder_store.h, plus the
 * pieces both backends share: choosing one by location, list items and
 * cursors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_backend.h"
#include "location.h"
#include "store_int.h"

typedef struct fb {
    qr_sb base;
    qr_folder *f;
} fb;

struct qr_sb_txn {
    qr_folder_txn *t;
    qr_sb *b;
};

static qr_folder *F(qr_sb *b)
{
    return ((fb *)b)->f;
}

static void f_close(qr_sb *b)
{
    qr_folder_close(F(b));
    free(b);
}

static qr_status f_create(qr_sb *b, const char *id, const char *kind, const char *title,
                          const char *owner, const qr_folder_put *put, qr_vrec *rec,
                          qr_errlist *errs)
{
    return qr_folder_create(F(b), id, kind, title, owner, put, rec, errs);
}

static qr_status f_begin(qr_sb *b, const char *id, qr_sb_txn **out, qr_errlist *errs)
{
    *out = NULL;
    qr_sb_txn *t = calloc(1, sizeof *t);
    if (!t) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    t->b = b;
    qr_status st = qr_folder_begin(F(b), id, &t->t, errs);
    if (st != QR_OK) {
        free(t);
        return st;
    }
    *out = t;
    return QR_OK;
}

static void f_resolve(qr_sb *b, const char *id, char out[65]);

/* begin on the stored spelling of id (resolve's rule). */
static qr_status f_begin_head(qr_sb *b, const char *id, qr_sb_txn **out, qr_errlist *errs)
{
    char rid[65];
    if (qr_folder_id_valid(id)) {
        f_resolve(b, id, rid);
        id = rid;
    }
    return f_begin(b, id, out, errs);
}

static qr_status f_txn_spec(qr_sb_txn *t, qr_buf *out, qr_errlist *errs)
{
    const qr_folder_meta *m = qr_folder_txn_meta(t->t);
    return qr_folder_spec(F(t->b), m->id, m->head, out, errs);
}

static const qr_folder_meta *f_txn_meta(const qr_sb_txn *t)
{
    return qr_folder_txn_meta(t->t);
}

static qr_status f_commit(qr_sb_txn *t, const qr_folder_put *put, qr_vrec *rec, int *conflict,
                          qr_errlist *errs)
{
    *conflict = 0; /* the artifact lock is held since begin */
    return qr_folder_commit(t->t, put, rec, errs);
}

static void f_end(qr_sb_txn *t)
{
    if (!t) return;
    qr_folder_end(t->t);
    free(t);
}

static qr_status f_meta(qr_sb *b, const char *id, qr_folder_meta *m, qr_errlist *errs)
{
    return qr_folder_meta_load(F(b), id, m, errs);
}

static qr_status f_version(qr_sb *b, const char *id, int n, qr_vrec *rec, qr_errlist *errs)
{
    return qr_folder_version(F(b), id, n, rec, errs);
}

static qr_status f_spec(qr_sb *b, const char *id, int n, qr_buf *out, qr_errlist *errs)
{
    return qr_folder_spec(F(b), id, n, out, errs);
}

static qr_status f_blob(qr_sb *b, const char *sha, qr_buf *out, qr_errlist *errs)
{
    return qr_folder_blob(F(b), sha, out, errs);
}

static qr_status f_log(qr_sb *b, const char *id, int from, qr_vrec **recs, size_t *n,
                       qr_errlist *errs)
{
    return qr_folder_log_from(F(b), id, from, recs, n, errs);
}

static qr_status f_check(qr_sb *b, int repair, qr_folder_fsck *rep)
{
    return qr_folder_check(F(b), repair, rep);
}

/* Newest first: created DESC, then id DESC. */
static int item_cmp(const void *pa, const void *pb)
{
    const qr_sb_item *a = pa, *b = pb;
    int c = strcmp(b->created, a->created);
    return c ? c : strcmp(b->id, a->id);
}

static qr_status f_list(qr_sb *b, const char *owner, const char *kind, int trash,
                        const char *cursor, size_t limit, qr_sb_item **items, size_t *n,
                        char next[QR_SB_CURSOR], qr_errlist *errs)
{
    *items = NULL;
    *n = 0;
    next[0] = '\0';
    char c_created[48] = "", c_id[65] = "";
    if (cursor && *cursor && qr_sb_cursor_parse(cursor, c_created, c_id) != 0)
        return qr_errlist_add(errs, QR_E_USAGE, "", "not a cursor of this store",
                              "pass the \"next\" of the previous page");
    qr_folder_meta *all = NULL;
    size_t count = 0;
    qr_status st = qr_folder_list_all(F(b), &all, &count, errs);
    if (st != QR_OK) return st;
    qr_sb_item *v = calloc(count ? count : 1, sizeof *v);
    size_t k = 0;
    for (size_t i = 0; v && i < count; i++) {
        qr_folder_meta *m = &all[i];
        if ((owner && strcmp(owner, m->owner)) || (kind && strcmp(kind, m->kind))) continue;
        if (trash >= 0 && (m->deleted[0] != '\0') != trash) continue;
        memcpy(v[k].deleted, m->deleted, sizeof v[k].deleted);
        snprintf(v[k].id, sizeof v[k].id, "%s", m->id);
        v[k].kind = m->kind, v[k].title = m->title, v[k].owner = m->owner;
        v[k].created = m->created;
        m->kind = m->title = m->owner = m->created = NULL;
        v[k].head = m->head;
        k++;
    }
    for (size_t i = 0; i < count; i++)
        qr_folder_meta_free(&all[i]);
    free(all);
    if (!v) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    qr_sort_items(v, k);
    size_t start = 0;
    if (cursor && *cursor) {
        qr_sb_item key = {0};
        snprintf(key.id, sizeof key.id, "%s", c_id);
        key.created = c_created;
        while (start < k && item_cmp(&v[start], &key) <= 0)
            start++;
    }
    size_t end = limit && start + limit < k ? start + limit : k;
    for (size_t i = 0; i < start; i++)
        qr_sb_items_free(&v[i], 1);
    for (size_t i = end; i < k; i++)
        qr_sb_items_free(&v[i], 1);
    if (end < k && end > start) qr_sb_cursor_of(&v[end - 1], next);
    memmove(v, v + start, (end - start) * sizeof *v);
    *items = v;
    *n = end - start;
    return QR_OK;
}

void qr_sort_items(qr_sb_item *v, size_t n)
{
    qsort(v, n, sizeof *v, item_cmp);
}

static qr_status f_remove(qr_sb *b, const char *id, int if_version, const char *trashed_before,
                          const char *key, const char *key_request, qr_errlist *errs)
{
    return qr_folder_purge_key(F(b), id, if_version, trashed_before, key, key_request, errs);
}

static qr_status f_trash(qr_sb *b, const char *id, int if_version, int restore, const char *key,
                         const char *key_request, qr_errlist *errs)
{
    return qr_folder_trash(F(b), id, if_version, restore, key, key_request, errs);
}

static void f_resolve(qr_sb *b, const char *id, char out[65])
{
    qr_folder_resolve(F(b), id, out);
}

static qr_status f_key_find(qr_sb *b, const char *key, qr_key_rec *rec, qr_errlist *errs)
{
    return qr_folder_key_find(F(b), key, rec, errs);
}

static int f_key_lock(qr_sb *b, const char *key)
{
    return qr_folder_key_lock(F(b), key);
}

static void f_key_unlock(qr_sb *b, int handle)
{
    (void)b;
    qr_store_unlock(handle);
}

static qr_status f_missing(qr_sb *b, const char *id, qr_errlist *errs)
{
    return qr_folder_not_found(F(b), id, errs);
}

static qr_status f_quota_get(qr_sb *b, const char *owner, qr_quota_rec *q, qr_errlist *errs)
{
    return qr_folder_quota_get(F(b), owner, q, errs);
}

static qr_status f_quota_set(qr_sb *b, const char *owner, long long max_artifacts,
                             long long max_bytes, qr_errlist *errs)
{
    return qr_folder_quota_set(F(b), owner, max_artifacts, max_bytes, errs);
}

static const qr_sb_ops folder_ops = {
    "folder",  f_close,     f_create,     f_begin,    f_txn_meta, f_commit,   f_end,
    f_meta,    f_version,   f_spec,       f_blob,     f_log,      f_check,    f_list,
    f_remove,  f_resolve,   f_begin_head, f_txn_spec, f_key_find, f_key_lock, f_key_unlock,
    f_missing, f_quota_get, f_quota_set,  f_trash};

qr_status qr_sb_folder_open(const char *path, const qr_folder_opts *o, qr_sb **out,
                            qr_errlist *errs)
{
    *out = NULL;
    fb *b = calloc(1, sizeof *b);
    if (!b) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    b->base.ops = &folder_ops;
    qr_status st = qr_folder_open(path, o, &b->f, errs);
    if (st != QR_OK) {
        free(b);
        return st;
    }
    *out = &b->base;
    return QR_OK;
}

int qr_sb_is_pg(const char *location)
{
    return qr_store_loc_is_db(location);
}

qr_status qr_sb_open(const char *location, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs)
{
    if (qr_sb_is_pg(location)) return qr_sb_pg_open(location, o, out, errs);
    return qr_sb_folder_open(location, o, out, errs);
}

void qr_sb_items_free(qr_sb_item *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        free(v[i].kind);
        free(v[i].title);
        free(v[i].owner);
        free(v[i].created);
        memset(&v[i], 0, sizeof v[i]);
    }
}

void qr_sb_cursor_of(const qr_sb_item *it, char out[QR_SB_CURSOR])
{
    snprintf(out, QR_SB_CURSOR, "%s~%s", it->created ? it->created : "", it->id);
}

int qr_sb_cursor_parse(const char *cursor, char created[48], char id[65])
{
    const char *t = strchr(cursor, '~');
    if (!t || (size_t)(t - cursor) >= 48 || strlen(t + 1) > 64 || !t[1]) return -1;
    memcpy(created, cursor, (size_t)(t - cursor));
    created[t - cursor] = '\0';
    snprintf(id, 65, "%s", t + 1);
    for (const char *p = created; *p; p++)
        if (!((*p >= '0' && *p <= '9') || *p == '-' || *p == ':' || *p == 'T' || *p == 'Z'))
            return -1;
    return qr_folder_id_valid(id) ? 0 : -1;
}
