/* quire/store.h: the versioned spec store of libquire (included by quire/quire.h).
 *
 * A store is a folder (README "The store") or a PostgreSQL database, named
 * by its location: a folder path, or a connection URI "postgresql://..." /
 * "postgres://..." (anything libpq accepts in URI form). Both keep the same
 * artifacts with the same semantics; the database gets its tables (schema
 * version 1) on first open. Each artifact has an id, a kind,
 * a title, an owner and versions 1..head; each version keeps its spec as
 * canonical JSON and the rendered bytes it produced. Versions are only ever
 * appended: edit, rewrite and restore add one; a spec equal to the head's
 * adds nothing ("unchanged"). Every write validates and renders first; a
 * spec error or a render failure writes nothing.
 *
 *     qr_store *st;
 *     qr_errlist errs = {0};
 *     if (qr_store_open("/var/lib/quire", NULL, &st, &errs) != QR_OK) ...;
 *     qr_store_result r;
 *     qr_store_create(st, QR_KIND_DOCUMENT, spec, strlen(spec), "Q3 report", NULL, "alice", &r);
 *     if (r.status == QR_OK) printf("%s v%d %s\n", r.artifact_id, r.version.version,
 * r.version.filename); qr_store_result_free(&r); qr_store_edit(st, id, NULL, "{\"blocks\":
 * [{\"type\": \"page_break\"}]}", NULL, &r);
 *     ...
 *     qr_store_close(st);
 *
 * Every function fills its result whatever happens (free it with its free
 * function) and returns result.status: QR_OK; QR_E_SPEC, QR_E_JSON or
 * QR_E_EDIT (errors name JSON pointers: into the spec, or into the edit
 * request {"spec_patch", "spec_append", "ops"}); QR_E_USAGE (a bad id);
 * QR_E_NOT_FOUND (no such artifact or version); QR_E_CONFLICT (the id
 * exists); QR_E_RENDER (e.g. the format's backend is not built);
 * QR_E_STORE (damage: run qr_store_fsck); QR_E_IO (a file of a folder
 * store); QR_E_UNAVAILABLE (the database cannot be reached or the
 * connection broke: retryable); QR_E_QUOTA (an owner quota; the messages
 * are DocsGPT's). qr_status_code() gives the stable code of each.
 *
 * A PostgreSQL store keeps at most 16 connections per qr_store (a call
 * waits when all are in use), replaces an idle connection that died before
 * using it, and applies connect_timeout=10 and statement_timeout=60s unless
 * the URI sets them (connect_timeout=N; options=-c statement_timeout=MS).
 *
 * Thread-safe: one qr_store may be used from many threads and processes at
 * once; writes to one artifact are serialised by a lock in the store, and
 * quotas are checked under a per-owner lock, so they hold exactly.
 */
#ifndef QUIRE_STORE_H
#define QUIRE_STORE_H

#include <quire/quire.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct qr_store qr_store;

typedef struct qr_store_opts {
    /* Quotas per owner; 0 disables one. */
    unsigned long long max_artifacts;     /* artifacts (5000) */
    unsigned long long max_total_bytes;   /* specs + distinct rendered files (5 GiB) */
    unsigned long long max_version_bytes; /* one stored file of a version (50 MiB) */
    /* The clock for versions' "created" time (seconds since 1970, UTC);
     * NULL: the real time. Output bytes never depend on it. */
    long long (*now)(void *arg);
    void *now_arg;
    int no_sync;       /* 1: skip fsync (throwaway stores only: no crash safety) */
    size_t max_output; /* render limit in bytes (0: the default 512 MiB) */
    /* Open the store for one owner (NULL: every owner, the admin view):
     * only that owner's artifacts exist for the handle. Another owner's
     * artifact is QR_E_NOT_FOUND with the words of a missing id (nothing
     * tells the two apart), list shows only the owner's, create and import
     * make the owner's (another owner given is QR_E_USAGE), and fsck and
     * copy, which see every owner, are QR_E_USAGE. Copied at open. */
    const char *owner;
    /* Seconds an artifact stays in the trash before qr_store_purge removes
     * it, by the store's clock (now); QR_STORE_TRASH_RETENTION (30 days) by
     * default, 0: purge removes everything in the trash. */
    long long trash_retention;
} qr_store_opts;

#define QR_STORE_TRASH_RETENTION (30LL * 24 * 3600)

/** The defaults above. Start from these, then change fields. */
QR_EXPORT void qr_store_opts_default(qr_store_opts *o);

/** Open the store at location (a folder path, created if absent, or a
 *  PostgreSQL URI or libpq keyword string, "host=db dbname=quire"; the
 *  database's tables are created if absent). A location starting
 *  "postgresql:" or "postgres:", or holding a password setting, is never
 *  taken for a folder. opts may
 *  be NULL (the defaults). On failure *out is NULL and errs says why:
 *  QR_E_UNAVAILABLE when the server cannot be reached, QR_E_USAGE when
 *  the URI does not parse or the server refuses the credentials (the
 *  message never holds the password), QR_E_STORE for a database of
 *  another schema version. Close with qr_store_close, once no call on the
 *  store is running. */
QR_EXPORT qr_status qr_store_open(const char *path, const qr_store_opts *opts, qr_store **out,
                                  qr_errlist *errs);
/** qr_store_open for readers: only a store that exists is opened (a folder
 *  holding blobs/, a database with quire's tables); a missing one fails
 *  with QR_E_NOT_FOUND and nothing is created (no folder, no tables). The
 *  CLI opens the store this way for every command but create, import and
 *  store init (and store copy's target). */
QR_EXPORT qr_status qr_store_open_existing(const char *path, const qr_store_opts *opts,
                                           qr_store **out, qr_errlist *errs);
QR_EXPORT void qr_store_close(qr_store *s);

/* One version of an artifact. */
typedef struct qr_store_version {
    int version;
    char action[16];   /* "create", "edit", "rewrite", "restore" */
    int parent;        /* the version it followed; 0 for version 1 */
    int restored_from; /* restore: the version copied; else 0 */
    char created[32];  /* UTC, "2026-07-01T12:00:00Z" */
    char spec_sha256[65];
    unsigned long long spec_size;
    char sha256[65]; /* of the rendered bytes */
    unsigned long long size;
    char *filename; /* "Q3_report.docx" (stable across versions) */
    char *mime_type;
    int pages;      /* pages, slides or sheets of the rendered file (0: unknown) */
    char *warnings; /* the render's warnings: a JSON array of {path, message, hint} */
} qr_store_version;

/* The result of create, edit, rewrite, restore, show, log and export. */
typedef struct qr_store_result {
    qr_status status;
    char artifact_id[65];
    char *kind, *title, *owner; /* NULL when the artifact was not reached */
    int head;                   /* the artifact's head version after the call */
    int unchanged;              /* the spec equalled the head's: nothing written */
    qr_store_version version;   /* the version written, or shown / exported */
    char *spec;                 /* show: the canonical spec (NUL-terminated) */
    size_t spec_len;
    unsigned char *data; /* export: the rendered bytes */
    size_t size;
    qr_store_version *log; /* log: versions 1..head */
    size_t log_count;
    qr_errlist errors;
    qr_errlist warnings; /* from rendering, e.g. characters no font covers */
    int replayed;        /* the write's idempotency key had written version: nothing new */
} qr_store_result;

/** Free everything a result holds; it is left zeroed. */
QR_EXPORT void qr_store_result_free(qr_store_result *r);

/** Create an artifact: validate and render spec (a JSON object, or a JSON
 *  string holding one), then store it as version 1. id NULL: 16 random hex
 *  digits; else [A-Za-z0-9_-]{1,64} and new. owner NULL: "default" (same
 *  rule as ids). title may be NULL; it names the file: html is always
 *  "report.html", else "<title or 'artifact'>.<ext>" made safe (ASCII,
 *  spaces to "_"; "<id>.<ext>" when nothing is left). */
QR_EXPORT qr_status qr_store_create(qr_store *s, qr_kind kind, const char *spec, size_t len,
                                    const char *title, const char *id, const char *owner,
                                    qr_store_result *res);

/** qr_store_create for a file read back (quire import): spec (what
 *  qr_read_mem made of the file) is validated and rendered as by create,
 *  for its page count and warnings, but version 1 keeps file's own bytes
 *  (size bytes) as its output, so export of version 1 gives the uploaded
 *  file back; its action is "import". kind must be the file's format's
 *  kind (document for .docx, pdf for .pdf...). */
QR_EXPORT qr_status qr_store_import(qr_store *s, qr_kind kind, const char *spec, size_t len,
                                    const void *file, size_t size, const char *title,
                                    const char *id, const char *owner, qr_store_result *res);

/* Conditions of one write (the *_with functions; NULL: none). */
typedef struct qr_store_write {
    /* > 0: write only when the head is this version, else QR_E_CONFLICT
     * naming the head (res->head has it); checked under the artifact's
     * lock, so two writers that read the same head cannot both win. */
    int if_version;
    /* An idempotency key (NULL: none): 1 to 255 printable ASCII characters
     * without spaces (a UUID), unique to one request. The key is stored
     * with the version the write adds, in the same commit. A later write
     * with the same key and the same request (the same operation, id,
     * if_version and argument bytes) writes nothing and answers with that
     * version (res->replayed = 1, res->head the head now), from any
     * process or replica; with another request it is QR_E_CONFLICT.
     * Concurrent writes with one key add one version between them. Keys
     * are kept 24 hours (QR_STORE_KEY_RETENTION seconds, by the store's
     * clock), then the key may be used again; fsck --repair removes the
     * expired ones. A write that adds nothing (unchanged) keeps no key.
     * Delete, undelete and purge_artifact take keys too (their result is
     * replayed; a purge's key outlives the artifact). */
    const char *key;
} qr_store_write;

#define QR_STORE_KEY_RETENTION (24 * 3600)

/** qr_store_create and qr_store_import under the conditions w (NULL:
 *  none; only w->key applies). */
QR_EXPORT qr_status qr_store_create_with(qr_store *s, qr_kind kind, const char *spec, size_t len,
                                         const char *title, const char *id, const char *owner,
                                         const qr_store_write *w, qr_store_result *res);
QR_EXPORT qr_status qr_store_import_with(qr_store *s, qr_kind kind, const char *spec, size_t len,
                                         const void *file, size_t size, const char *title,
                                         const char *id, const char *owner, const qr_store_write *w,
                                         qr_store_result *res);

/** Edit the head: patch (RFC 7386 merge patch object), append ({key:
 *  [items]}), ops (RFC 6902 array), each JSON text or NULL, at least one
 *  given; applied in that order, then the whole spec is validated and
 *  rendered again. */
QR_EXPORT qr_status qr_store_edit(qr_store *s, const char *id, const char *patch,
                                  const char *append, const char *ops, qr_store_result *res);

/** qr_store_edit under the conditions w (NULL: none). */
QR_EXPORT qr_status qr_store_edit_with(qr_store *s, const char *id, const char *patch,
                                       const char *append, const char *ops, const qr_store_write *w,
                                       qr_store_result *res);

/** Replace the spec (same kind). */
QR_EXPORT qr_status qr_store_rewrite(qr_store *s, const char *id, const char *spec, size_t len,
                                     qr_store_result *res);

QR_EXPORT qr_status qr_store_rewrite_with(qr_store *s, const char *id, const char *spec, size_t len,
                                          const qr_store_write *w, qr_store_result *res);

/** Append a copy of version n (its spec and rendered bytes). */
QR_EXPORT qr_status qr_store_restore(qr_store *s, const char *id, int n, qr_store_result *res);
QR_EXPORT qr_status qr_store_restore_with(qr_store *s, const char *id, int n,
                                          const qr_store_write *w, qr_store_result *res);

/** Version n (0: the head): res->spec and res->version. */
QR_EXPORT qr_status qr_store_show(qr_store *s, const char *id, int n, qr_store_result *res);

/** Every version: res->log, res->log_count. */
QR_EXPORT qr_status qr_store_log(qr_store *s, const char *id, qr_store_result *res);

/** The newest limit versions, oldest first (limit 0: all); res->head says
 *  how many there are in all. */
QR_EXPORT qr_status qr_store_log_limit(qr_store *s, const char *id, int limit,
                                       qr_store_result *res);

/** Move an artifact to the trash: from then on it is QR_E_NOT_FOUND for
 *  every call but qr_store_undelete, qr_store_purge_artifact and
 *  qr_store_list_trash, its id stays taken, and it still counts against
 *  its owner's quotas until it is purged (qr_store_purge, after
 *  qr_store_opts.trash_retention). res names it (kind, title, owner,
 *  head). w: if_version as for edit; w->key as for edit: a repeat of the
 *  request answers as the first call did (res->replayed, res->head the
 *  head now), also after the artifact was taken out of the trash or
 *  purged (then res has the id and the head it had, no kind, title or
 *  owner); the key is stored in the same commit as the move. */
QR_EXPORT qr_status qr_store_delete(qr_store *s, const char *id, qr_store_result *res);
QR_EXPORT qr_status qr_store_delete_with(qr_store *s, const char *id, const qr_store_write *w,
                                         qr_store_result *res);
/** Take an artifact out of the trash, as it was (QR_E_NOT_FOUND when it is
 *  not in the trash). w as for qr_store_delete_with. */
QR_EXPORT qr_status qr_store_undelete_with(qr_store *s, const char *id, const qr_store_write *w,
                                           qr_store_result *res);
/** Remove an artifact at once, from the trash or not, with every version:
 *  its owner's quota gets its bytes and count back, and rendered files no
 *  other version uses are removed. w as for qr_store_delete_with: the key
 *  outlives the artifact and answers a repeat for its retention. */
QR_EXPORT qr_status qr_store_purge_artifact(qr_store *s, const char *id, const qr_store_write *w,
                                            qr_store_result *res);

/* What a purge of the trash did. */
typedef struct qr_store_purge_report {
    qr_status status;
    size_t purged;   /* artifacts removed */
    size_t kept;     /* left in the trash (not past the retention yet) */
    char cutoff[32]; /* removed: in the trash since this time or earlier */
    qr_errlist errors;
} qr_store_purge_report;

/** Remove every artifact in the trash since trash_retention seconds ago
 *  or earlier (the store's clock), as qr_store_purge_artifact does; one
 *  taken out of the trash meanwhile stays. Only on a store opened without
 *  an owner (else QR_E_USAGE). */
QR_EXPORT qr_status qr_store_purge(qr_store *s, qr_store_purge_report *out);
QR_EXPORT void qr_store_purge_free(qr_store_purge_report *r);

/* One artifact of a listing. */
typedef struct qr_store_item {
    char artifact_id[65];
    char *kind, *title, *owner;
    char created[32];
    int head;
    char deleted[32]; /* qr_store_list_trash: in the trash since (UTC); else "" */
} qr_store_item;

#define QR_STORE_CURSOR 112

typedef struct qr_store_list_result {
    qr_status status;
    qr_store_item *items; /* newest first (created, then id, descending) */
    size_t count;
    char next[QR_STORE_CURSOR]; /* the cursor of the next page; "" on the last */
    qr_errlist errors;
} qr_store_list_result;

/** Artifacts of owner and of kind (each NULL: any), newest first, at most
 *  limit (0: all), from cursor (NULL or "": the first page; else the
 *  previous page's next). Free with qr_store_list_free. */
QR_EXPORT qr_status qr_store_list(qr_store *s, const char *owner, const char *kind,
                                  const char *cursor, size_t limit, qr_store_list_result *out);
/** qr_store_list of the artifacts in the trash (items' deleted says since when). */
QR_EXPORT qr_status qr_store_list_trash(qr_store *s, const char *owner, const char *kind,
                                        const char *cursor, size_t limit,
                                        qr_store_list_result *out);
QR_EXPORT void qr_store_list_free(qr_store_list_result *r);

/* What a copy did. */
typedef struct qr_store_copy_report {
    qr_status status;
    size_t artifacts, versions; /* copied */
    size_t skipped;             /* already in the target, version for version */
    qr_errlist errors;
} qr_store_copy_report;

/** Copy every artifact of from into to (say a folder store into
 *  PostgreSQL): same ids, kinds, titles, owners, versions (action, parent,
 *  time), canonical specs and rendered bytes, nothing re-rendered; then
 *  each copied artifact's log is read back from to and compared, version
 *  by version (spec and output sha256, size). An id the target already
 *  holds with the same log is skipped; with another log it is an error
 *  (QR_E_USAGE) and the copy stops. Target quotas apply. */
QR_EXPORT qr_status qr_store_copy(qr_store *from, qr_store *to, qr_store_copy_report *out);
QR_EXPORT void qr_store_copy_free(qr_store_copy_report *r);

/** Version n's rendered bytes (0: the head), checked against their sha256:
 *  res->data, res->size, res->version. */
QR_EXPORT qr_status qr_store_export(qr_store *s, const char *id, int n, qr_store_result *res);

/* What changed between two versions. */
typedef struct qr_store_diff {
    qr_status status;
    int from, to;
    char **added, **removed, **changed; /* JSON pointers */
    size_t n_added, n_removed, n_changed;
    char *unified; /* unified diff of the canonical specs ("" when equal) */
    qr_errlist errors;
} qr_store_diff;

/** Compare versions a and b of an artifact. Free with qr_store_diff_free. */
QR_EXPORT qr_status qr_store_diff_versions(qr_store *s, const char *id, int a, int b,
                                           qr_store_diff *out);
QR_EXPORT void qr_store_diff_free(qr_store_diff *d);

/* The store's health. */
typedef struct qr_store_fsck {
    qr_status status; /* QR_OK, or QR_E_STORE when there are problems */
    size_t artifacts, versions, blobs;
    qr_errlist problems; /* damage: path (relative to the store) and message */
    qr_errlist stray;    /* leftovers of interrupted writers; harmless */
    size_t repaired;
    size_t trashed; /* artifacts in the trash (counted in artifacts too) */
} qr_store_fsck;

/** Check every artifact: meta.json, versions 1..head without gaps, each
 *  spec's and blob's sha256, owner ledgers. repair = 1 removes stray files
 *  and rebuilds ledgers (run it while nothing writes). */
QR_EXPORT qr_status qr_store_fsck_run(qr_store *s, int repair, qr_store_fsck *out);
QR_EXPORT void qr_store_fsck_free(qr_store_fsck *r);

/* ---- the edit engine on its own ------------------------------------------------- */

/** For hosts that keep specs themselves: apply patch (RFC 7386 merge
 *  patch), append ({key: [items]}) and ops (RFC 6902), each JSON text or
 *  NULL (at least one), in that order, to spec; validate the result as
 *  kind; on QR_OK *out is its canonical JSON (malloc'ed, NUL-terminated,
 *  *out_len bytes; free()). Errors go to errors, as qr_store_edit's: paths
 *  into the edit request or into the spec. Nothing is rendered. */
QR_EXPORT qr_status qr_spec_edit(const char *spec, size_t len, qr_kind kind, const char *patch,
                                 const char *append, const char *ops, char **out, size_t *out_len,
                                 qr_errlist *errors);

/** The canonical JSON of spec (an object, or a JSON string holding one):
 *  the text the store keeps and hashes. kind >= 0 also validates it as
 *  that kind; pass -1 to only canonicalise. *out as for qr_spec_edit. */
QR_EXPORT qr_status qr_spec_canonical(const char *spec, size_t len, int kind, char **out,
                                      size_t *out_len, qr_errlist *errors);

/* ---- per-owner quotas --------------------------------------------------------------
 * An owner's own limits, kept in the store (a folder: STORE/.owners/<owner>.quota;
 * PostgreSQL: quire_owners.max_artifacts, max_bytes) and read by every write under the
 * owner's lock (the ledger row FOR UPDATE), so they hold exactly across processes and
 * replicas. A limit the store does not hold for the owner is the handle's
 * (qr_store_opts.max_artifacts, max_total_bytes). */
typedef struct qr_store_quota {
    qr_status status;
    unsigned long long max_artifacts, max_bytes; /* in force for the owner (0: none) */
    int own_artifacts, own_bytes;                /* 1: the owner's own, kept in the store;
                                                    0: the handle's default */
    unsigned long long artifacts, bytes;         /* used now (the trash included) */
    qr_errlist errors;
} qr_store_quota;

#define QR_STORE_QUOTA_KEEP (-1LL)    /* qr_store_quota_set: leave the limit as it is */
#define QR_STORE_QUOTA_DEFAULT (-2LL) /* qr_store_quota_set: back to the handle's default */

/** owner's quota and usage (owner NULL: the store's owner, qr_store_opts.owner). */
QR_EXPORT qr_status qr_store_quota_get(qr_store *s, const char *owner, qr_store_quota *out);
/** Set owner's own limits: each a count (0: none), QR_STORE_QUOTA_KEEP or
 *  QR_STORE_QUOTA_DEFAULT; out gets the quota as it is then. Only on a
 *  store opened without an owner (else QR_E_USAGE). Lowering a limit
 *  below the usage refuses new writes; nothing is removed. */
QR_EXPORT qr_status qr_store_quota_set(qr_store *s, const char *owner, long long max_artifacts,
                                       long long max_bytes, qr_store_quota *out);
QR_EXPORT void qr_store_quota_free(qr_store_quota *q);

/* The layout version of the structs in this header: bindings that mirror
 * them (bindings/python) check it at load time. */
#define QR_STORE_ABI 5
QR_EXPORT int qr_store_abi(void);

/** The file name rule above, into out (size >= 80). */
QR_EXPORT void qr_store_filename(qr_kind kind, const char *title, const char *id, char *out,
                                 size_t size);

#ifdef __cplusplus
}
#endif
#endif
