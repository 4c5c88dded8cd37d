/* folder_store.h: the folder store (DESIGN.md "Store"), internal to libquire (store/, with
 * the PostgreSQL backend; store_backend.h puts both behind the public API).
 *
 *     STORE/<id>/meta.json          id, kind, title, owner, filename, mime_type,
 *                                   created, head (a cache, see below)
 *     STORE/<id>/.lock              flock: one writer per artifact
 *     STORE/<id>/deleted            the trash marker: {"deleted": time} (absent: live)
 *     STORE/<id>/v000001.json       the spec, canonical JSON
 *     STORE/<id>/v000001.meta       action, parent, created, spec sha256/size,
 *                                   output sha256/size/name/mime_type
 *     STORE/blobs/<sha256>          rendered bytes, shared by identical outputs
 *     STORE/.owners/<owner>.lock    flock: quota accounting of one owner (<owner>:
 *                                   the owner when it is a valid id, else "~" and
 *                                   the sha256 of its UTF-8; the ledger keeps it)
 *     STORE/.owners/<owner>.json    the owner's ledger: artifacts, bytes, and an
 *                                   intent ("pending") while a write is under way
 *     STORE/.owners/<owner>.blobs/  one empty file per blob the owner is charged for
 *     STORE/.owners/<owner>.quota   the owner's own quota (JSON: max_artifacts, max_bytes)
 *     STORE/.keys/<sha256>.json     an idempotency key's record (<sha256>: of the key),
 *     STORE/.keys/lock.<abc>        flock: one keyed write of the keys whose sha256
 *                                   starts with abc at a time (4096 stripes)
 *     STORE/.keys/boot              the boot whose key index is complete (below)
 *     STORE/.keys/boot.lock         flock: the index rebuilt after a machine crash
 *
 * Crash safety. Every file is written to a ".tmp.*" name, fsynced, renamed,
 * and its folder fsynced. A version is complete when its .meta exists: the
 * .json is renamed first, the .meta last. The head is the highest complete
 * version: meta.json's head is a cache that lags by at most the versions of
 * a writer killed before updating it, and readers probe past it. A new
 * artifact is built in a ".tmp.*" folder and renamed into place whole.
 * The owner ledger records its intent before a write and confirms it after;
 * whoever takes the owner lock next settles an intent left by a killed
 * writer (kept if the version exists, rolled back if not), so quotas stay
 * exact. Leftovers of killed writers (".tmp.*" files, a .json without its
 * .meta, blobs no version references) are "stray": fsck lists them and
 * --repair removes them; they never count as versions.
 *
 * This layer stores text and bytes; it never parses a spec or renders
 * (store/api.c joins the two). Thread-safe: a qr_folder is read-only (but for an atomic flag)
 * after qr_folder_open; locks are flock()s on files opened per call, so
 * threads of one process exclude each other like processes do.
 */
#ifndef QR_STORE_H
#define QR_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include <quire/error.h>

typedef struct qr_folder qr_folder;

typedef struct qr_folder_opts {
    uint64_t max_artifacts;     /* per owner (5000); 0 disables */
    uint64_t max_total_bytes;   /* per owner: specs + distinct blobs (5 GiB); 0 disables */
    uint64_t max_version_bytes; /* one stored file of a version (50 MiB); 0 disables */
    /* The clock for "created" (seconds since 1970, UTC); NULL: time(). */
    int64_t (*now)(void *arg);
    void *now_arg;
    int no_sync; /* skip fsync (tests on slow disks only; crash safety is lost) */
    /* 1: open only a store that exists (a folder holding blobs/, a database
     * with quire's tables); a missing one is QR_E_NOT_FOUND, nothing made */
    int no_create;
} qr_folder_opts;

void qr_folder_opts_default(qr_folder_opts *o);

/* The hint of a missing store (no_create). */
#define QR_STORE_MISSING_HINT "qr_store_open() creates a store; check the location"

/** Open the store folder, creating it if absent (unless o->no_create). */
qr_status qr_folder_open(const char *path, const qr_folder_opts *opts, qr_folder **out,
                         qr_errlist *errs);
void qr_folder_close(qr_folder *f);

/** 1 when id matches [A-Za-z0-9_-]{1,64}: the ids a store may hold. */
int qr_folder_id_valid(const char *id);
/** 1 when id may name a new artifact: also starts with a letter or digit
 *  (so a command line never reads it as an option). Ids are compared
 *  case-insensitively: a store never holds "dup" and "DUP" (they would
 *  collide on a case-insensitive file system). */
int qr_folder_id_new_valid(const char *id);
/** The stored spelling of id when the store holds it in another case
 *  (into out); else id itself. */
void qr_folder_resolve(qr_folder *f, const char *id, char out[65]);
/** 1 when owner is 1 to 256 bytes of valid UTF-8 with no control character. */
int qr_folder_owner_valid(const char *owner);
/** The QR_E_USAGE error for an invalid owner (its size, never its bytes). */
qr_status qr_folder_bad_owner(qr_errlist *errs, const char *owner);
/** The file name of an owner's ledger: the owner itself when it is a valid
 *  id (stores made before owners were UTF-8), else "~" and its sha256. */
void qr_folder_owner_file(const char *owner, char out[72]);
/** The QR_E_NOT_FOUND error of a missing artifact id (added to errs). */
qr_status qr_folder_not_found(qr_folder *f, const char *id, qr_errlist *errs);
/** 16 random hex digits from /dev/urandom. Returns 0, or -1. */
int qr_folder_new_id(char out[17]);

/* An artifact's meta.json, with head derived from the version files. */
typedef struct qr_folder_meta {
    char id[65];
    char *kind, *title, *owner, *filename, *mime_type, *created;
    int head;
    char deleted[32]; /* in the trash since (UTC, as created); "" when live */
} qr_folder_meta;
void qr_folder_meta_free(qr_folder_meta *m);

/* One version's .meta. */
typedef struct qr_vrec {
    int version;
    char action[16];   /* create, edit, rewrite, restore */
    int parent;        /* 0 for version 1 */
    int restored_from; /* restore: the version copied; else 0 */
    char created[32];  /* 2026-07-01T12:00:00Z */
    char spec_sha256[65];
    uint64_t spec_size;
    char sha256[65]; /* output */
    uint64_t size;
    char *filename;
    char *mime_type;
    int pages;      /* of the rendered file; 0 unknown (versions stored before) */
    char *warnings; /* JSON array text of the render's warnings; NULL: "[]" */
    /* The idempotency key the version was written under (the folder store
     * keeps it in the .meta, to check a key record against): sha256 of the
     * key and of the request; "" when none. */
    char key_sha256[65];
    char key_request[65];
} qr_vrec;
void qr_vrec_free(qr_vrec *r);
/** A warning list as a JSON array text of {path, message, hint} (malloc'ed). */
char *qr_folder_errs_json(const qr_errlist *l);

/* What a write stores. */
typedef struct qr_folder_put {
    const char *action;
    int restored_from;
    const char *spec; /* canonical JSON */
    size_t spec_len;
    const void *data; /* rendered bytes; NULL to reuse the stored blob sha256 */
    size_t size;
    const char *sha256;
    const char *filename, *mime_type;
    int pages;
    const char *warnings; /* JSON array text, or NULL */
    const char *created;  /* the version's time as stored (a copy); NULL: now */
    /* An idempotency key (NULL: none) and the sha256 of the request it
     * names: stored with the version, in the same commit. */
    const char *key;
    const char *key_request;
} qr_folder_put;

/* ---- idempotency keys -------------------------------------------------------------
 * A keyed write stores (key, request sha256, artifact id, version, time)
 * atomically with its version; a later write with the key finds the record
 * and answers with that version instead of writing. Records are honoured
 * for QR_KEY_RETENTION seconds after they were written (then the key may
 * be used again) and removed by fsck --repair once past it. Folder:
 * STORE/.keys/<sha256 of the key>.json, written before the version's .meta
 * (the commit point) and checked against the key the .meta names, so a
 * writer killed between the two leaves a record that is ignored; a keyed
 * write holds its key's stripe STORE/.keys/lock.<abc> from the look-up to
 * the commit.
 * The record is an index of what the .meta (fsynced: the commit) says, so
 * it is written without an fsync of its own: a killed process leaves it in
 * the page cache, and only a crash of the machine can lose it. Hence
 * STORE/.keys/boot names the boot (Linux's boot_id) whose index is
 * complete; the first keyed call of another boot rebuilds the records of
 * every keyed version within the retention from the .meta files (fsynced),
 * then writes it. Without a boot id every record is fsynced.
 * PostgreSQL: the quire_keys table, its primary key serialising writers.
 *
 * Trash operations (delete, undelete, purge) add no version to vouch for
 * their record, so the folder store writes it pending ("done": false)
 * before the operation's commit point and done after it. A pending record
 * is honoured only while the store shows that its operation happened: a
 * delete's trash marker carries the key's sha256 ("key"); an undelete
 * renames the marker to STORE/<id>/undeleted at its commit point, carrying
 * "undelete_key"; a purge renames the artifact's folder to the
 * ".tmp.del.*" name its record holds ("moved_to"). Whatever removes one of
 * those first marks the record it vouches for done (a later undelete or
 * purge of the artifact, fsck --repair), so a done record answers even
 * after the artifact is gone. PostgreSQL writes the key's row in the
 * operation's own transaction. */
#define QR_KEY_RETENTION (24 * 3600)
#define QR_KEY_MAX 255

typedef struct qr_key_rec {
    int found;
    char request[65]; /* sha256 of the request the key was first used for */
    char id[65];      /* the artifact and version it wrote */
    int version;
    char created[32];
    /* "" for a write that added a version; "delete", "undelete" or
     * "purge" for a trash operation (version: the head it left) */
    char action[16];
} qr_key_rec;

/** The oldest "created" a key record may have to be honoured now (o's
 *  clock less QR_KEY_RETENTION), as "2026-07-01T12:00:00Z". */
void qr_key_cutoff(const qr_folder_opts *o, char out[32]);
/** The time of o's clock plus offset seconds, as "2026-07-01T12:00:00Z". */
void qr_store_time(const qr_folder_opts *o, long long offset, char out[32]);
/** 1 when key is 1 to QR_KEY_MAX bytes of printable ASCII (no space). */
int qr_key_valid(const char *key);

/** The folder's record of key (rec->found 0 when there is none, it
 *  expired, or its version does not carry the key). */
qr_status qr_folder_key_find(qr_folder *f, const char *key, qr_key_rec *rec, qr_errlist *errs);
/** Lock key for one keyed write (blocks). Returns the lock's fd or -1. */
int qr_folder_key_lock(qr_folder *f, const char *key);

/* ---- per-owner quotas ---------------------------------------------------------------
 * An owner's own limits, kept in the store (folder: STORE/.owners/<owner>.quota (JSON),
 * read and written under the owner lock; PostgreSQL: quire_owners.max_artifacts and
 * max_bytes, read with the ledger row FOR UPDATE). A limit the store does not hold is
 * the handle's (qr_folder_opts). Writes check them in the same lock as the ledger, so
 * they hold exactly across processes and replicas. */
typedef struct qr_quota_rec {
    int has_artifacts, has_bytes;      /* the store holds the owner's own limit */
    uint64_t max_artifacts, max_bytes; /* those limits (0: none) */
    uint64_t artifacts, bytes;         /* what the owner uses (the ledger: trash included) */
} qr_quota_rec;
#define QR_QUOTA_KEEP (-1LL)    /* quota_set: leave this limit as it is */
#define QR_QUOTA_DEFAULT (-2LL) /* quota_set: forget it (the handle's default applies) */

/** The owner's stored limits and usage. */
qr_status qr_folder_quota_get(qr_folder *f, const char *owner, qr_quota_rec *q, qr_errlist *errs);
/** Set the owner's limits (a value >= 0, QR_QUOTA_KEEP or QR_QUOTA_DEFAULT). */
qr_status qr_folder_quota_set(qr_folder *f, const char *owner, long long max_artifacts,
                              long long max_bytes, qr_errlist *errs);
/** The QR_E_QUOTA of a write past a limit (art: the artifact count, else bytes). */
qr_status qr_store_quota_exceeded(qr_errlist *errs, int art, uint64_t limit);

/* Shared by both backends (store/version.c). */
/** Fill rec for version n after parent from put: the action, the time
 *  (put->created, else o's clock), the spec's sha256 and the output's
 *  (hashing put->data; else put->sha256, which blob_ok says is a stored
 *  blob: QR_E_STORE when not), the names, and the per-file cap of o
 *  (QR_E_QUOTA). On failure rec holds nothing to free. */
qr_status qr_vrec_fill(qr_vrec *rec, const qr_folder_put *put, int n, int parent,
                       const qr_folder_opts *o, int blob_ok, qr_errlist *errs);
/** The meta of a new artifact whose version 1 is rec. Borrows every string
 *  (title NULL: ""): the caller must not qr_folder_meta_free it. */
void qr_folder_meta_first(qr_folder_meta *m, const char *id, const char *kind, const char *title,
                          const char *owner, const qr_vrec *rec);
/** A quota error with the one hint every quota gives (QR_E_QUOTA). */
qr_status qr_store_quota_error(qr_errlist *errs, const char *msg);
/** The QR_E_CONFLICT of a write that expected version want while the head
 *  is head (the message names both). */
qr_status qr_store_head_conflict(qr_errlist *errs, const char *id, int head, int want);

/** Create an artifact with version 1. id must be valid and new (QR_E_USAGE
 *  if it exists). Checks the owner's quotas (QR_E_QUOTA). *rec gets the
 *  version written (free with qr_vrec_free). */
qr_status qr_folder_create(qr_folder *f, const char *id, const char *kind, const char *title,
                           const char *owner, const qr_folder_put *put, qr_vrec *rec,
                           qr_errlist *errs);

/* A write transaction on one artifact: holds its lock from begin to end. */
typedef struct qr_folder_txn qr_folder_txn;
/** Lock the artifact and read its meta (QR_E_STORE "no artifact" if absent). */
qr_status qr_folder_begin(qr_folder *f, const char *id, qr_folder_txn **out, qr_errlist *errs);
const qr_folder_meta *qr_folder_txn_meta(const qr_folder_txn *t);
/** Append version head+1. Checks quotas. */
qr_status qr_folder_commit(qr_folder_txn *t, const qr_folder_put *put, qr_vrec *rec,
                           qr_errlist *errs);
/** Unlock and free. */
void qr_folder_end(qr_folder_txn *t);

/* Reads (no lock: files appear whole). */
qr_status qr_folder_meta_load(qr_folder *f, const char *id, qr_folder_meta *m, qr_errlist *errs);
/** Version n's record (n = 0: the head). */
qr_status qr_folder_version(qr_folder *f, const char *id, int n, qr_vrec *rec, qr_errlist *errs);
/** Version n's spec text into out (appended). */
qr_status qr_folder_spec(qr_folder *f, const char *id, int n, qr_buf *out, qr_errlist *errs);
/** A blob's bytes into out, checked against its sha256 (QR_E_STORE if damaged). */
qr_status qr_folder_blob(qr_folder *f, const char *sha256, qr_buf *out, qr_errlist *errs);
/** Every version record, 1..head. *recs is malloc'ed; free each and the array. */
qr_status qr_folder_log(qr_folder *f, const char *id, qr_vrec **recs, size_t *n, qr_errlist *errs);

/** Versions from..head (from >= 1; from > head gives none). */
qr_status qr_folder_log_from(qr_folder *f, const char *id, int from, qr_vrec **recs, size_t *n,
                             qr_errlist *errs);
/** The meta of every artifact whose meta.json reads (damaged ones are left
 *  to fsck). *all is malloc'ed; free each with qr_folder_meta_free. */
qr_status qr_folder_list_all(qr_folder *f, qr_folder_meta **all, size_t *n, qr_errlist *errs);
/** Delete an artifact: under its lock it is renamed out of sight, the
 *  owner's ledger is charged back its spec bytes and the blobs no other
 *  artifact of the owner uses, then its files and the blobs no version in
 *  the store uses are removed (blobs under an exclusive lock on blobs/.gc,
 *  which writers hold shared from writing a blob to committing). */
qr_status qr_folder_delete(qr_folder *f, const char *id, qr_errlist *errs);
/** qr_folder_delete, refused (QR_E_CONFLICT) under the artifact's lock
 *  unless its head is if_version (0: any). */
qr_status qr_folder_delete_if(qr_folder *f, const char *id, int if_version, qr_errlist *errs);
/** qr_folder_delete_if; trashed_before (not NULL): only an artifact in the
 *  trash since that time or earlier, checked under its lock (else
 *  QR_E_NOT_FOUND and nothing removed), for purging the trash. */
qr_status qr_folder_purge_if(qr_folder *f, const char *id, int if_version,
                             const char *trashed_before, qr_errlist *errs);
/** qr_folder_purge_if under an idempotency key (NULL: none) and the
 *  sha256 of its request: its record is kept with the purge ("idempotency
 *  keys" above). */
qr_status qr_folder_purge_key(qr_folder *f, const char *id, int if_version,
                              const char *trashed_before, const char *key, const char *key_request,
                              qr_errlist *errs);
/** Move an artifact to the trash (restore 0: its marker says since when,
 *  at o's clock) or back out of it (restore 1), under its lock. A trashed
 *  artifact is not there for delete, a live one not for undelete
 *  (QR_E_NOT_FOUND); if_version > 0 as for delete. */
qr_status qr_folder_trash(qr_folder *f, const char *id, int if_version, int restore,
                          const char *key, const char *key_request, qr_errlist *errs);

/* fsck: problems are damage (exit 3), stray are leftovers of killed writers. */
typedef struct qr_folder_fsck {
    size_t artifacts, versions, blobs;
    qr_errlist problems; /* path = file relative to the store */
    qr_errlist stray;
    size_t repaired; /* items fixed or removed with repair */
    size_t trashed;  /* artifacts in the trash (counted in artifacts too) */
} qr_folder_fsck;
/** Check the whole store. With repair, remove stray files, update lagging
 *  meta.json heads and rebuild owner ledgers (run it with no writers). */
qr_status qr_folder_check(qr_folder *f, int repair, qr_folder_fsck *rep);

/* ---- spec diff (store_diff.c) ---------------------------------------------- */

typedef struct qr_spec_diff {
    char **added, **removed, **changed; /* JSON pointers, document order */
    size_t n_added, n_removed, n_changed;
    qr_buf unified; /* unified diff of the two texts, 3 lines of context */
} qr_spec_diff;

/** Compare two specs by JSON pointer and line by line. a_name/b_name head
 *  the unified diff ("--- a_name", "+++ b_name"). */
qr_status qr_spec_diff_texts(const char *a, size_t alen, const char *b, size_t blen,
                             const char *a_name, const char *b_name, qr_spec_diff *out,
                             qr_errlist *errs);
void qr_spec_diff_free(qr_spec_diff *d);

/** A unified line diff of two texts into out (Myers' O(ND) algorithm). */
void qr_line_diff(const char *a, size_t alen, const char *b, size_t blen, const char *a_name,
                  const char *b_name, int context, qr_buf *out);

#endif
