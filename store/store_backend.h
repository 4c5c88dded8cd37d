/* store_backend.h: the store backend interface behind the public store API
 * (store/api.c). Two implementations, chosen by the location string
 * given to qr_store_open: a folder path (folder.c over store/folder_store.h) or a
 * PostgreSQL connection URI, "postgresql://..." or "postgres://..."
 * (store_pg.c, libpq).
 *
 * A backend stores text and bytes; it never parses a spec or renders. The
 * records are store/folder_store.h's (qr_folder_meta, qr_vrec, qr_folder_put,
 * qr_folder_fsck), whatever the backend. Semantics, the same on both:
 * versions are appended 1..head without gaps, a version is whole or absent,
 * output bytes are content-addressed and shared, owner quotas are exact.
 *
 * Writes to an existing artifact go begin -> (read, edit, render) ->
 * commit -> end. The folder backend holds the artifact's lock from begin to
 * end; the PostgreSQL backend holds nothing while the caller renders and
 * checks at commit, under a row lock, that the head is still the one begin
 * saw: when it moved, commit sets *conflict and writes nothing, and the
 * caller starts again from begin (optimistic concurrency). Never installed.
 */
#ifndef QR_STORE_BACKEND_H
#define QR_STORE_BACKEND_H

#include <stddef.h>

#include "folder_store.h"
#include "stamp.h"

typedef struct qr_sb qr_sb;
typedef struct qr_sb_txn qr_sb_txn;

/* One artifact in a listing. */
typedef struct qr_sb_item {
    char id[65];
    char *kind, *title, *owner, *created;
    int head;
    char deleted[32]; /* in the trash since; "" when live */
} qr_sb_item;
void qr_sb_items_free(qr_sb_item *v, size_t n);
/** Sort newest first: created DESC, then id DESC (the listing order). */
void qr_sort_items(qr_sb_item *v, size_t n);

/* A listing cursor: the (created, id) of the last item of a page; the next
 * page holds the artifacts strictly older in the order created DESC, id DESC. */
#define QR_SB_CURSOR 112

typedef struct qr_sb_ops {
    const char *name; /* "folder", "postgresql" */
    void (*close)(qr_sb *b);
    qr_status (*create)(qr_sb *b, const char *id, const char *kind, const char *title,
                        const char *owner, const qr_folder_put *put, qr_vrec *rec,
                        qr_errlist *errs);
    qr_status (*begin)(qr_sb *b, const char *id, qr_sb_txn **out, qr_errlist *errs);
    const qr_folder_meta *(*txn_meta)(const qr_sb_txn *t);
    qr_status (*commit)(qr_sb_txn *t, const qr_folder_put *put, qr_vrec *rec, int *conflict,
                        qr_errlist *errs);
    void (*end)(qr_sb_txn *t);
    qr_status (*meta_load)(qr_sb *b, const char *id, qr_folder_meta *m, qr_errlist *errs);
    qr_status (*version)(qr_sb *b, const char *id, int n, qr_vrec *rec, qr_errlist *errs);
    qr_status (*spec)(qr_sb *b, const char *id, int n, qr_buf *out, qr_errlist *errs);
    qr_status (*blob)(qr_sb *b, const char *sha256, qr_buf *out, qr_errlist *errs);
    /* Versions from..head (from >= 1). */
    qr_status (*log)(qr_sb *b, const char *id, int from, qr_vrec **recs, size_t *n,
                     qr_errlist *errs);
    qr_status (*check)(qr_sb *b, int repair, qr_folder_fsck *rep);
    /* Artifacts newest first, filtered by owner and kind (each NULL: any)
     * and trash (0: live ones, 1: those in the trash, -1: both), after
     * cursor ("" for the first page), at most limit; next gets the cursor
     * of the following page, or "" when this one is the last. */
    qr_status (*list)(qr_sb *b, const char *owner, const char *kind, int trash, const char *cursor,
                      size_t limit, qr_sb_item **items, size_t *n, char next[QR_SB_CURSOR],
                      qr_errlist *errs);
    /* Delete an artifact and its versions (live or in the trash); free the
     * owner's quota; remove the blobs no version uses any more. if_version
     * > 0: refuse (QR_E_CONFLICT, under the artifact's lock) unless it is
     * the head. trashed_before (not NULL): only an artifact in the trash
     * since then or earlier (else QR_E_NOT_FOUND), checked under the lock.
     * key (NULL: none): an idempotency key stored with the removal, in
     * the same commit, naming key_request (the caller holds key_lock). */
    qr_status (*remove)(qr_sb *b, const char *id, int if_version, const char *trashed_before,
                        const char *key, const char *key_request, qr_errlist *errs);
    /* The stored spelling of id (ids compare case-insensitively) into out;
     * id itself when there is no such artifact or the store is unreachable
     * (the call that follows reports it). */
    void (*resolve)(qr_sb *b, const char *id, char out[65]);
    /* begin for a write that reads the head's spec (edit, rewrite,
     * restore), on the artifact id names in any case (resolve's rule; the
     * meta has the stored spelling): PostgreSQL finds the artifact and
     * fetches the spec in one query, two round trips less. */
    qr_status (*begin_head)(qr_sb *b, const char *id, qr_sb_txn **out, qr_errlist *errs);
    /* The head's spec (the version txn_meta's head names), appended to out
     * and checked against its sha256, as spec() gives it. */
    qr_status (*txn_spec)(qr_sb_txn *t, qr_buf *out, qr_errlist *errs);
    /* Idempotency keys (folder_store.h "idempotency keys"): the record of
     * key that is still honoured (rec->found 0: none); and a lock held by
     * a keyed write from its look-up to its commit (the folder's flock;
     * PostgreSQL returns 0 and relies on the key's primary key: a second
     * writer's commit fails, and the caller looks the key up again).
     * key_lock returns a handle for key_unlock, or -1. */
    qr_status (*key_find)(qr_sb *b, const char *key, qr_key_rec *rec, qr_errlist *errs);
    int (*key_lock)(qr_sb *b, const char *key);
    void (*key_unlock)(qr_sb *b, int handle);
    /* Add the QR_E_NOT_FOUND of a missing artifact id, in the words the
     * backend's reads use (a store opened for an owner answers another
     * owner's artifact with it). */
    qr_status (*missing)(qr_sb *b, const char *id, qr_errlist *errs);
    /* An owner's own quota and usage; set its limits (folder_store.h
     * "per-owner quotas": a value, QR_QUOTA_KEEP or QR_QUOTA_DEFAULT). */
    qr_status (*quota_get)(qr_sb *b, const char *owner, qr_quota_rec *q, qr_errlist *errs);
    qr_status (*quota_set)(qr_sb *b, const char *owner, long long max_artifacts,
                           long long max_bytes, qr_errlist *errs);
    /* Move an artifact to the trash (restore 0; the time is the store's
     * clock) or out of it (restore 1), under its lock (row lock): a
     * trashed artifact is QR_E_NOT_FOUND for restore 0, a live one for
     * restore 1; if_version and key as for remove. */
    qr_status (*trash)(qr_sb *b, const char *id, int if_version, int restore, const char *key,
                       const char *key_request, qr_errlist *errs);
} qr_sb_ops;

struct qr_sb {
    const qr_sb_ops *ops;
};

/** 1 when location names a PostgreSQL database (location.h: qr_store_loc_is_db). */
int qr_sb_is_pg(const char *location);

/** Open the backend location names. */
qr_status qr_sb_open(const char *location, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs);
qr_status qr_sb_folder_open(const char *path, const qr_folder_opts *o, qr_sb **out,
                            qr_errlist *errs);
qr_status qr_sb_pg_open(const char *uri, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs);

/** The cursor of an item (created and id). */
void qr_sb_cursor_of(const qr_sb_item *it, char out[QR_SB_CURSOR]);
/** Split a cursor; returns 0, or -1 when it is not one. */
int qr_sb_cursor_parse(const char *cursor, char created[48], char id[65]);

/* The build stamp of quire-pg.so (core/stamp.h), computed alike by the
 * module (pg/entry.c) and the CLI's loader (pg/load.c): the size of every
 * struct that crosses between them. */
#define QR_PG_MODULE_STAMP                                                                         \
    QR_STAMP(sizeof(qr_sb_ops), sizeof(qr_sb_item), sizeof(qr_folder_opts),                        \
             sizeof(qr_folder_meta), sizeof(qr_vrec), sizeof(qr_folder_put), sizeof(qr_buf),       \
             sizeof(qr_errlist), sizeof(qr_error), sizeof(qr_folder_fsck), sizeof(qr_spec_diff),   \
             sizeof(qr_key_rec), sizeof(qr_quota_rec))

#endif
