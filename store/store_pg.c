/* store_pg.c: the PostgreSQL store backend (store_backend.h) over libpq.
 *
 * Tables (schema version 4, created by qr_sb_pg_open when absent; a version 1
 * database gets quire_keys added, a version 2 database the quota and trash columns,
 * a version 3 database quire_keys.action):
 *     quire_schema        (version)
 *     quire_artifacts     id, kind, title, owner, filename, mime_type, created, head,
 *                         deleted (in the trash since; NULL: live)
 *     quire_versions      (artifact_id, version): action, parent, restored_from, created,
 *                         spec (canonical text), spec_sha256, spec_size,
 *                         sha256 (-> quire_blobs), size, filename, mime_type
 *     quire_blobs         sha256, size, data (bytea): rendered bytes, shared
 *     quire_owners        owner, artifacts, bytes: the quota ledger; max_artifacts,
 *                         max_bytes: the owner's own quota (NULL: the handle's)
 *     quire_owner_blobs   (owner, sha256): the blobs an owner is charged for
 *     quire_keys          key: request sha256, artifact_id, version, created, action
 *                         (the idempotency keys, folder_store.h; NULL action: a
 *                         version's, removed with its artifact; "delete", "undelete",
 *                         "purge": a trash operation's, kept after a purge)
 *
 * Every write is one transaction. Lock order: the artifact row, then the
 * owner row (FOR UPDATE); a create locks only the owner row. Nothing is
 * locked while the caller renders: commit checks under the artifact row lock
 * that the head is still the one begin read, and reports a conflict if not.
 * A lost connection (server down or restarted) fails the call with QR_E_UNAVAILABLE
 * and rolls the transaction back on the server; the next call reconnects.
 * Connections are pooled per store (a mutex around a short stack), so one
 * store serves many threads. Error messages never carry the URI or its
 * password. */
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_backend.h"
#include "location.h"
#include "sha256.h"

#define SCHEMA_VERSION 4
/* Connections per store handle, open at once (idle in the pool or in use):
 * a call that finds all of them in use waits for one. */
#define POOL 16
/* Defaults a URI may override: connect_timeout=N (seconds) in the URI, and
 * statement_timeout through options=-c statement_timeout=MS. */
#define CONNECT_TIMEOUT "10"
#define STATEMENT_TIMEOUT "60s"

typedef struct pgb {
    qr_sb base;
    char *uri;   /* what libpq gets: the URI and the defaults it does not set */
    char *given; /* the URI as given, for messages */
    qr_folder_opts o;
    int set_timeout; /* the URI leaves statement_timeout to us */
    pthread_mutex_t mu;
    pthread_cond_t freed; /* a connection was closed or went back to the pool */
    PGconn *idle[POOL];
    int n_idle;
    int n_open; /* idle + in use, at most POOL */
} pgb;

struct qr_sb_txn {
    pgb *b;
    qr_folder_meta meta;
    int have_spec;     /* begin_head read the head's spec: */
    qr_buf spec;       /* its text, */
    char spec_sha[65]; /* the sha256 its row records */
    int spec_missing;  /* no row for the head version */
};

/* One call's connection and its first error. */
typedef struct db {
    pgb *b;
    PGconn *c;
    qr_errlist *errs;
    qr_status st;
} db;

static void quiet(void *arg, const char *msg)
{
    (void)arg;
    (void)msg; /* the library never prints: notices are dropped */
}

/* A libpq message without its trailing newline, the password scrubbed. */
static void clean_msg(const pgb *b, const char *in, char *out, size_t n)
{
    qr_store_loc_scrub(b ? b->given : NULL, in ? in : "", out, n);
    size_t len = strlen(out);
    while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
        out[--len] = '\0';
    for (char *p = out; *p; p++)
        if (*p == '\n') *p = ' ';
}

static void db_fail(db *d, qr_status code, const char *what, const char *detail)
{
    if (d->st != QR_OK) return;
    char msg[600];
    clean_msg(d->b, detail, msg, sizeof msg);
    if (code == QR_E_UNAVAILABLE && !strcmp(what, "committing"))
        /* the COMMIT may have reached the server before the connection
         * broke: nobody can tell from here */
        qr_errlist_addf(d->errs, QR_E_UNAVAILABLE, "",
                        "the outcome is unknown: repeating the call with the same --key "
                        "(idempotency key) is safe; without a key, see with quire log whether "
                        "the version was stored before repeating it",
                        "lost the connection to the PostgreSQL database while committing: %s", msg);
    else if (code == QR_E_UNAVAILABLE)
        qr_errlist_addf(d->errs, QR_E_UNAVAILABLE, "",
                        "nothing was written; check that the PostgreSQL server runs, then retry",
                        "lost the connection to the PostgreSQL database while %s: %s", what, msg);
    else
        qr_errlist_addf(d->errs, code, "", NULL, "the PostgreSQL database failed while %s: %s",
                        what, msg);
    d->st = code;
}

/* Whether r (or the connection) says the server went away. */
static int gone(PGconn *c, const PGresult *r)
{
    if (PQstatus(c) != CONNECTION_OK) return 1;
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (!state) return r == NULL;
    return !strncmp(state, "08", 2) || !strncmp(state, "57P", 3);
}

static PGconn *connect_new(pgb *b, qr_errlist *errs)
{
    PGconn *c = PQconnectdb(b->uri);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        char msg[600];
        clean_msg(b, c ? PQerrorMessage(c) : "out of memory", msg, sizeof msg);
        /* refused credentials or a database that is not there: the
         * caller's settings, which a retry does not change */
        int refused = strstr(msg, "authentication failed") || strstr(msg, "no password supplied") ||
                      strstr(msg, "does not exist");
        qr_errlist_addf(errs, refused ? QR_E_USAGE : QR_E_UNAVAILABLE, "",
                        "check the URI's host, port, database, user and password, and that the "
                        "server runs",
                        "cannot connect to the PostgreSQL database: %s", msg);
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, quiet, NULL);
    char set[200];
    snprintf(set, sizeof set, "SET client_min_messages = warning%s%s",
             b->o.no_sync ? "; SET synchronous_commit = off" : "",
             b->set_timeout ? "; SET statement_timeout = '" STATEMENT_TIMEOUT "'" : "");
    PQclear(PQexec(c, set));
    return c;
}

/* Whether a pooled connection is still alive, without a round trip: an
 * idle connection has nothing to read, so a readable socket means the
 * server sent its goodbye (a restart or a terminated backend) or closed
 * it; libpq then reads that and marks the connection bad. */
static int alive(PGconn *c)
{
    if (PQstatus(c) != CONNECTION_OK) return 0;
    struct pollfd p = {.fd = PQsocket(c), .events = POLLIN};
    if (p.fd < 0) return 0;
    if (poll(&p, 1, 0) > 0) {
        if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return 0;
        if (!PQconsumeInput(c)) return 0;
    }
    return PQstatus(c) == CONNECTION_OK && PQtransactionStatus(c) == PQTRANS_IDLE;
}

static int db_get(db *d, pgb *b, qr_errlist *errs)
{
    memset(d, 0, sizeof *d);
    d->b = b;
    d->errs = errs;
    /* an idle connection that died (a server restart) is replaced before
     * use, so the restart costs no caller an error once the server is back */
    pthread_mutex_lock(&b->mu);
    for (;;) {
        while (b->n_idle && !d->c) {
            PGconn *c = b->idle[--b->n_idle];
            if (alive(c)) {
                d->c = c;
            } else {
                PQfinish(c);
                b->n_open--;
            }
        }
        if (d->c || b->n_open < POOL) break;
        pthread_cond_wait(&b->freed, &b->mu); /* every connection is in use */
    }
    if (!d->c) b->n_open++; /* the slot of the connection made below */
    pthread_mutex_unlock(&b->mu);
    if (!d->c) {
        d->c = connect_new(b, errs);
        if (!d->c) {
            pthread_mutex_lock(&b->mu);
            b->n_open--;
            pthread_cond_signal(&b->freed);
            pthread_mutex_unlock(&b->mu);
        }
    }
    if (!d->c) d->st = QR_E_UNAVAILABLE;
    return d->c ? 0 : -1;
}

/* Give the connection back (rolling back a transaction left open). */
static void db_put(db *d)
{
    if (!d->c) return;
    if (PQstatus(d->c) == CONNECTION_OK && PQpipelineStatus(d->c) == PQ_PIPELINE_OFF &&
        PQtransactionStatus(d->c) != PQTRANS_IDLE)
        PQclear(PQexec(d->c, "ROLLBACK"));
    pgb *b = d->b;
    int keep = PQstatus(d->c) == CONNECTION_OK && PQtransactionStatus(d->c) == PQTRANS_IDLE &&
               PQpipelineStatus(d->c) == PQ_PIPELINE_OFF;
    pthread_mutex_lock(&b->mu);
    if (keep && b->n_idle < POOL) {
        b->idle[b->n_idle++] = d->c;
        d->c = NULL;
    } else {
        b->n_open--;
    }
    pthread_cond_signal(&b->freed);
    pthread_mutex_unlock(&b->mu);
    PQfinish(d->c);
    d->c = NULL;
}

/* Record the error of a failed statement (r may be NULL). */
static void db_err(db *d, const char *what, const PGresult *r)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    if (gone(d->c, r)) {
        db_fail(d, QR_E_UNAVAILABLE, what, r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
    } else if (state && !strcmp(state, "57014")) { /* statement_timeout */
        if (d->st == QR_OK)
            d->st = qr_errlist_addf(
                d->errs, QR_E_UNAVAILABLE, "",
                "nothing was written; retry later, or raise it in the URI "
                "(options=-c%20statement_timeout%3DMS)",
                "the PostgreSQL database did not finish %s within statement_timeout", what);
    } else if (state && !strcmp(state, "23505")) {
        if (d->st == QR_OK) d->st = QR_E_CONFLICT; /* unique violation: the caller words it */
    } else
        db_fail(d, QR_E_STORE, what, r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
}

/* Run sql with text parameters (NULL values are SQL NULL); bin marks one
 * binary parameter (index, -1 for none) of length binlen. Returns the
 * result, or NULL after recording the error (what names the step). */
static PGresult *db_q(db *d, const char *what, const char *sql, int n, const char *const *v,
                      int bin, int binlen)
{
    if (d->st != QR_OK) return NULL;
    int lens[24] = {0}, fmts[24] = {0};
    if (bin >= 0) {
        lens[bin] = binlen;
        fmts[bin] = 1;
    }
    PGresult *r = PQexecParams(d->c, sql, n, NULL, v, lens, fmts, 0);
    ExecStatusType es = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (es == PGRES_COMMAND_OK || es == PGRES_TUPLES_OK) return r;
    db_err(d, what, r);
    PQclear(r);
    return NULL;
}

static void db_cmd(db *d, const char *what, const char *sql, int n, const char *const *v)
{
    PQclear(db_q(d, what, sql, n, v, -1, 0));
}

/* A batch: statements sent together in libpq's pipeline mode and their
 * results read after one sync, so a write costs a round trip per batch, not
 * per statement. After a failed statement the server skips the rest of the
 * batch; the first error is recorded as db_q records it. */
#define BATCH_MAX 8

typedef struct batch {
    db *d;
    int n, on;
    const char *what[BATCH_MAX];
} batch;

static void batch_start(batch *q, db *d)
{
    memset(q, 0, sizeof *q);
    q->d = d;
    if (d->st != QR_OK) return;
    q->on = PQenterPipelineMode(d->c) == 1;
    if (!q->on) db_fail(d, QR_E_UNAVAILABLE, "starting a batch", PQerrorMessage(d->c));
}

/* Queue sql (parameters as db_q's). */
static void batch_add(batch *q, const char *what, const char *sql, int n, const char *const *v,
                      int bin, int binlen)
{
    db *d = q->d;
    if (!q->on || d->st != QR_OK) return;
    if (q->n == BATCH_MAX) { /* a bug here, never the caller's input */
        db_fail(d, QR_E_STORE, what, "more statements than one batch holds");
        return;
    }
    int lens[24] = {0}, fmts[24] = {0};
    if (bin >= 0) {
        lens[bin] = binlen;
        fmts[bin] = 1;
    }
    if (PQsendQueryParams(d->c, sql, n, NULL, v, lens, fmts, 0) != 1) {
        db_err(d, what, NULL);
        return;
    }
    q->what[q->n++] = what;
}

/* Send the batch and read it: rs[i] gets statement i's result, NULL when
 * it failed or was skipped (free the others with PQclear). Leaves pipeline
 * mode; a connection left in it is never pooled (db_put). */
static void batch_run(batch *q, PGresult **rs)
{
    db *d = q->d;
    for (int i = 0; i < BATCH_MAX; i++)
        rs[i] = NULL;
    if (!q->on) return;
    /* a batch that ends in COMMIT: once it is sent, a broken connection
     * leaves the outcome unknown, whichever statement's answer was lost */
    int commits = q->n && !strcmp(q->what[q->n - 1], "committing");
    int sent = PQpipelineSync(d->c) == 1;
    if (!sent) db_err(d, q->n ? q->what[0] : "sending a batch", NULL);
    for (int i = 0; sent && i < q->n; i++) {
        PGresult *r = PQgetResult(d->c);
        if (!r) { /* the connection broke */
            db_err(d, commits ? "committing" : q->what[i], NULL);
            sent = 0;
            break;
        }
        ExecStatusType es = PQresultStatus(r);
        if (es == PGRES_COMMAND_OK || es == PGRES_TUPLES_OK) {
            rs[i] = r;
        } else {
            if (es != PGRES_PIPELINE_ABORTED)
                db_err(d, commits && gone(d->c, r) ? "committing" : q->what[i], r);
            PQclear(r);
        }
        while ((r = PQgetResult(d->c))) /* up to the NULL that ends statement i */
            PQclear(r);
    }
    while (sent && PQstatus(d->c) == CONNECTION_OK) { /* up to the sync's own result */
        PGresult *r = PQgetResult(d->c);
        if (!r) break; /* not expected: the connection is not pooled */
        ExecStatusType es = PQresultStatus(r);
        PQclear(r);
        if (es == PGRES_PIPELINE_SYNC) break;
    }
    PQexitPipelineMode(d->c);
    q->on = 0;
}

/* ---- open and schema ------------------------------------------------------------------ */

static const char *SCHEMA_SQL =
    "CREATE TABLE quire_artifacts ("
    " id text COLLATE \"C\" PRIMARY KEY, kind text NOT NULL, title text NOT NULL,"
    " owner text NOT NULL, filename text NOT NULL, mime_type text NOT NULL,"
    " created text COLLATE \"C\" NOT NULL, head integer NOT NULL);"
    "CREATE INDEX quire_artifacts_owner ON quire_artifacts (owner, created, id);"
    "CREATE UNIQUE INDEX quire_artifacts_lower_id ON quire_artifacts (lower(id));"
    "CREATE TABLE quire_blobs (sha256 text PRIMARY KEY, size bigint NOT NULL,"
    " data bytea NOT NULL);"
    /* rendered files are mostly zip or deflate already: no pglz attempt */
    "ALTER TABLE quire_blobs ALTER COLUMN data SET STORAGE EXTERNAL;"
    "CREATE TABLE quire_versions ("
    " artifact_id text COLLATE \"C\" NOT NULL REFERENCES quire_artifacts (id) ON DELETE CASCADE,"
    " version integer NOT NULL, action text NOT NULL, parent integer, restored_from integer,"
    " created text NOT NULL, spec text NOT NULL, spec_sha256 text NOT NULL,"
    " spec_size bigint NOT NULL, sha256 text NOT NULL REFERENCES quire_blobs (sha256),"
    " size bigint NOT NULL, filename text NOT NULL, mime_type text NOT NULL,"
    " pages integer NOT NULL DEFAULT 0, warnings text NOT NULL DEFAULT '[]',"
    " PRIMARY KEY (artifact_id, version));"
    "CREATE INDEX quire_versions_sha256 ON quire_versions (sha256);"
    "CREATE TABLE quire_owners (owner text PRIMARY KEY, artifacts bigint NOT NULL DEFAULT 0,"
    " bytes bigint NOT NULL DEFAULT 0);"
    "CREATE TABLE quire_owner_blobs (owner text NOT NULL, sha256 text NOT NULL,"
    " PRIMARY KEY (owner, sha256));"
    "INSERT INTO quire_schema (version) VALUES (1);";

/* Schema version 2: idempotency keys (schema 1 plus this makes 2). */
static const char *KEYS_SQL =
    "CREATE TABLE quire_keys (key text COLLATE \"C\" PRIMARY KEY, request text NOT NULL,"
    " artifact_id text COLLATE \"C\" NOT NULL REFERENCES quire_artifacts (id) ON DELETE CASCADE,"
    " version integer NOT NULL, created text COLLATE \"C\" NOT NULL);"
    "CREATE INDEX quire_keys_artifact ON quire_keys (artifact_id);"
    "UPDATE quire_schema SET version = 2;";

/* Schema version 3: owners' own quotas (NULL: the handle's default) and the
 * trash (an artifact's deleted time; NULL: live). */
static const char *V3_SQL =
    "ALTER TABLE quire_owners ADD COLUMN max_artifacts bigint, ADD COLUMN max_bytes bigint;"
    "ALTER TABLE quire_artifacts ADD COLUMN deleted text COLLATE \"C\";"
    "CREATE INDEX quire_artifacts_deleted ON quire_artifacts (deleted) WHERE deleted IS NOT NULL;"
    "UPDATE quire_schema SET version = 3;";

/* Schema version 4: keys of trash operations (quire_keys.action; NULL for a
 * version's key), which outlive a purged artifact: no foreign key (a purge
 * removes its artifact's version keys itself). */
static const char *V4_SQL =
    "ALTER TABLE quire_keys DROP CONSTRAINT IF EXISTS quire_keys_artifact_id_fkey,"
    " ADD COLUMN action text COLLATE \"C\";"
    "UPDATE quire_schema SET version = 4;";

/* The schema version, -1 when the table is absent, -2 on error. */
static int schema_version(db *d)
{
    PGresult *r = db_q(d, "reading the schema version",
                       "SELECT to_regclass('quire_schema') IS NOT NULL", 0, NULL, -1, 0);
    if (!r) return -2;
    int present = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!present) return -1;
    r = db_q(d, "reading the schema version",
             "SELECT coalesce((SELECT max(version) FROM quire_schema), 0)", 0, NULL, -1, 0);
    if (!r) return -2;
    int v = atoi(PQgetvalue(r, 0, 0));
    PQclear(r);
    return v;
}

static qr_status migrate(db *d)
{
    int v = schema_version(d);
    if (v == SCHEMA_VERSION || v == -2) return d->st;
    if (d->b->o.no_create && v <= 0) {
        char where[600];
        clean_msg(d->b, d->b->given, where, sizeof where);
        qr_errlist_addf(d->errs, QR_E_NOT_FOUND, "", QR_STORE_MISSING_HINT,
                        "no quire store in the PostgreSQL database %s (it has no quire tables)",
                        where);
        return d->st = QR_E_NOT_FOUND;
    }
    /* create (or finish creating) the schema, one opener at a time */
    db_cmd(d, "creating the schema", "BEGIN", 0, NULL);
    db_cmd(d, "creating the schema", "SELECT pg_advisory_xact_lock(7170716)", 0, NULL);
    db_cmd(d, "creating the schema",
           "CREATE TABLE IF NOT EXISTS quire_schema (version integer NOT NULL)", 0, NULL);
    v = schema_version(d);
    if (v >= 0 && v < SCHEMA_VERSION) {
        const char *steps[SCHEMA_VERSION] = {SCHEMA_SQL, KEYS_SQL, V3_SQL, V4_SQL};
        for (int step = v; step < SCHEMA_VERSION; step++) {
            PGresult *r = d->st == QR_OK ? PQexec(d->c, steps[step]) : NULL;
            if (d->st == QR_OK && (!r || PQresultStatus(r) != PGRES_COMMAND_OK))
                db_fail(d, gone(d->c, r) ? QR_E_UNAVAILABLE : QR_E_STORE, "creating the schema",
                        r ? PQresultErrorMessage(r) : PQerrorMessage(d->c));
            PQclear(r);
        }
        v = SCHEMA_VERSION;
    }
    if (d->st == QR_OK && v != SCHEMA_VERSION) {
        qr_errlist_addf(d->errs, QR_E_STORE, "",
                        "use the quire that made this database, or another database",
                        "the database holds a quire store of schema version %d; this quire reads "
                        "version %d",
                        v, SCHEMA_VERSION);
        d->st = QR_E_STORE;
    }
    db_cmd(d, "creating the schema", "COMMIT", 0, NULL);
    return d->st;
}

static void pg_close(qr_sb *sb)
{
    pgb *b = (pgb *)sb;
    for (int i = 0; i < b->n_idle; i++)
        PQfinish(b->idle[i]);
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->freed);
    free(b->uri);
    free(b->given);
    free(b);
}

static const qr_sb_ops pg_ops;

qr_status qr_sb_pg_open(const char *uri, const qr_folder_opts *o, qr_sb **out, qr_errlist *errs)
{
    *out = NULL;
    pgb *b = calloc(1, sizeof *b);
    if (!b) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    b->base.ops = &pg_ops;
    b->uri = strdup(uri);
    b->given = strdup(uri);
    if (o)
        b->o = *o;
    else
        qr_folder_opts_default(&b->o);
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->freed, NULL);
    char *perr = NULL;
    PQconninfoOption *parsed = b->uri ? PQconninfoParse(b->uri, &perr) : NULL;
    if (b->uri && !parsed) { /* a URI libpq cannot read: the caller's mistake, not an outage */
        char msg[600];
        clean_msg(b, perr ? perr : "out of memory", msg, sizeof msg);
        PQfreemem(perr);
        pg_close(&b->base);
        return qr_errlist_addf(errs, QR_E_USAGE, "",
                               "write it as postgresql://user:password@host:port/database?options",
                               "not a PostgreSQL URI: %s", msg);
    }
    /* the defaults the URI does not set itself */
    int has_ct = 0;
    b->set_timeout = 1;
    for (PQconninfoOption *op = parsed; op && op->keyword; op++) {
        if (!strcmp(op->keyword, "connect_timeout") && op->val && *op->val) has_ct = 1;
        if (!strcmp(op->keyword, "options") && op->val && strstr(op->val, "statement_timeout"))
            b->set_timeout = 0;
    }
    PQconninfoFree(parsed);
    if (!has_ct && b->uri) {
        size_t n = strlen(b->uri) + 40;
        char *u = malloc(n);
        if (u)
            snprintf(u, n, "%s%sconnect_timeout=" CONNECT_TIMEOUT, b->uri,
                     !strstr(b->uri, "://") ? " " /* a keyword string */
                     : strchr(b->uri, '?')  ? "&"
                                            : "?");
        free(b->uri);
        b->uri = u;
    }
    db d;
    if (!b->uri || !b->given || db_get(&d, b, errs) != 0) {
        pg_close(&b->base);
        return errs->count ? errs->items[errs->count - 1].code : QR_E_NOMEM;
    }
    qr_status st = migrate(&d);
    db_put(&d);
    if (st != QR_OK) {
        pg_close(&b->base);
        return st;
    }
    *out = &b->base;
    return QR_OK;
}

/* ---- records ---------------------------------------------------------------------------- */

#define VCOLS                                                                                      \
    "v.version, v.action, coalesce(v.parent, 0), coalesce(v.restored_from, 0), v.created, "        \
    "v.spec_sha256, v.spec_size, v.sha256, v.size, v.filename, v.mime_type, v.pages, v.warnings"

static int vrec_from(PGresult *r, int row, int col, qr_vrec *rec)
{
    memset(rec, 0, sizeof *rec);
    if (PQgetisnull(r, row, col)) return -1;
    rec->version = atoi(PQgetvalue(r, row, col));
    snprintf(rec->action, sizeof rec->action, "%s", PQgetvalue(r, row, col + 1));
    rec->parent = atoi(PQgetvalue(r, row, col + 2));
    rec->restored_from = atoi(PQgetvalue(r, row, col + 3));
    snprintf(rec->created, sizeof rec->created, "%s", PQgetvalue(r, row, col + 4));
    snprintf(rec->spec_sha256, sizeof rec->spec_sha256, "%s", PQgetvalue(r, row, col + 5));
    rec->spec_size = strtoull(PQgetvalue(r, row, col + 6), NULL, 10);
    snprintf(rec->sha256, sizeof rec->sha256, "%s", PQgetvalue(r, row, col + 7));
    rec->size = strtoull(PQgetvalue(r, row, col + 8), NULL, 10);
    rec->filename = strdup(PQgetvalue(r, row, col + 9));
    rec->mime_type = strdup(PQgetvalue(r, row, col + 10));
    rec->pages = atoi(PQgetvalue(r, row, col + 11));
    rec->warnings = strdup(PQgetvalue(r, row, col + 12));
    if (!rec->filename || !rec->mime_type || !rec->warnings) {
        qr_vrec_free(rec);
        return -1;
    }
    return 0;
}

static int meta_from(PGresult *r, int row, qr_folder_meta *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->id, sizeof m->id, "%s", PQgetvalue(r, row, 0));
    m->kind = strdup(PQgetvalue(r, row, 1));
    m->title = strdup(PQgetvalue(r, row, 2));
    m->owner = strdup(PQgetvalue(r, row, 3));
    m->filename = strdup(PQgetvalue(r, row, 4));
    m->mime_type = strdup(PQgetvalue(r, row, 5));
    m->created = strdup(PQgetvalue(r, row, 6));
    m->head = atoi(PQgetvalue(r, row, 7));
    int del = PQfnumber(r, "deleted"); /* selected by the reads that need it */
    if (del >= 0 && !PQgetisnull(r, row, del))
        snprintf(m->deleted, sizeof m->deleted, "%s", PQgetvalue(r, row, del));
    if (!m->kind || !m->title || !m->owner || !m->filename || !m->mime_type || !m->created) {
        qr_folder_meta_free(m);
        return -1;
    }
    return 0;
}

#define MCOLS "id, kind, title, owner, filename, mime_type, created, head"

static qr_status not_found(const pgb *b, qr_errlist *errs, const char *id)
{
    char where[600];
    clean_msg(b, b->given, where, sizeof where); /* the URI, its password scrubbed */
    return qr_errlist_addf(errs, QR_E_NOT_FOUND, "", "qr_store_list() shows the artifacts",
                           "no artifact \"%s\" in the PostgreSQL database %s", id, where);
}

static qr_status bad_id(qr_errlist *errs, const char *what, const char *id)
{
    return qr_errlist_addf(errs, QR_E_USAGE, "", "use 1 to 64 letters, digits, '_' or '-'",
                           "invalid %s \"%.80s\"", what, id ? id : "");
}

/* Fill rec for version n from put. */
static qr_status prepare(const pgb *b, const qr_folder_put *put, int n, qr_vrec *rec,
                         qr_errlist *errs)
{
    int blob_ok = put->sha256 && strlen(put->sha256) == 64; /* the foreign key checks it is there */
    return qr_vrec_fill(rec, put, n, n - 1, &b->o, blob_ok, errs);
}

/* The owner's ledger row, locked. The blob check is a statement of its own
 * (BLOB_SQL), sent after this one: under READ COMMITTED each statement
 * reads a snapshot taken when it starts, so it sees what the previous
 * holder of the owner lock committed while this transaction waited for it.
 * (One statement with the check as a subquery read the snapshot taken
 * before the wait: two writers of identical bytes both saw the blob as
 * new, and the second hit quire_owner_blobs' primary key.) */
#define OWNER_SQL                                                                                  \
    "SELECT artifacts, bytes, max_artifacts, max_bytes FROM quire_owners WHERE owner = $1 FOR "    \
    "UPDATE"
#define BLOB_SQL "SELECT EXISTS (SELECT 1 FROM quire_owner_blobs WHERE owner = $1 AND sha256 = $2)"

/* An owner's ledger row (OWNER_SQL), for a version whose blob is sha256. */
typedef struct ledger {
    uint64_t artifacts, bytes;
    int new_blob;             /* the owner is not charged for the blob yet */
    int has_max_a, has_max_b; /* the owner's own limits (quire store quota) */
    uint64_t max_a, max_b;
} ledger;

static void ledger_from(PGresult *r, PGresult *blob, ledger *l)
{
    l->artifacts = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
    l->bytes = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
    l->has_max_a = !PQgetisnull(r, 0, 2);
    l->max_a = l->has_max_a ? strtoull(PQgetvalue(r, 0, 2), NULL, 10) : 0;
    l->has_max_b = !PQgetisnull(r, 0, 3);
    l->max_b = l->has_max_b ? strtoull(PQgetvalue(r, 0, 3), NULL, 10) : 0;
    l->new_blob = PQgetvalue(blob, 0, 0)[0] != 't';
}

/* Inside a transaction: lock the owner's ledger row and read it, making the
 * row when it is absent (an owner's first artifact; or a row lost, which
 * fsck --repair rebuilds); then, holding the lock, whether the owner is
 * charged for the blob already. Returns 0, or -1 with d->st set. */
static int owner_lock(db *d, const char *owner, const char *sha256, ledger *l)
{
    const char *ov[1] = {owner};
    PGresult *r = db_q(d, "locking the owner", OWNER_SQL, 1, ov, -1, 0);
    if (r && PQntuples(r) == 0) {
        PQclear(r);
        db_cmd(d, "locking the owner",
               "INSERT INTO quire_owners (owner) VALUES ($1) ON CONFLICT DO NOTHING", 1, ov);
        r = db_q(d, "locking the owner", OWNER_SQL, 1, ov, -1, 0);
    }
    PGresult *blob =
        db_q(d, "locking the owner", BLOB_SQL, 2, (const char *[]){owner, sha256}, -1, 0);
    if (!r || !blob || PQntuples(r) == 0) {
        if (d->st == QR_OK)
            d->st = qr_errlist_add(d->errs, QR_E_STORE, "", "the owner's ledger row is missing",
                                   "quire fsck --repair rebuilds it");
        PQclear(r);
        PQclear(blob);
        return -1;
    }
    ledger_from(r, blob, l);
    PQclear(r);
    PQclear(blob);
    return 0;
}

/* The quotas for a version of delta bytes (and a new artifact). 0, or -1
 * with d->st set. */
static int quota_ok(db *d, int new_artifact, const ledger *l, uint64_t delta)
{
    const pgb *b = d->b;
    /* the owner's own limits (read with the locked ledger row), else the handle's */
    uint64_t max_a = l->has_max_a ? l->max_a : b->o.max_artifacts;
    uint64_t max_b = l->has_max_b ? l->max_b : b->o.max_total_bytes;
    if (new_artifact && max_a && l->artifacts + 1 > max_a) {
        d->st = qr_store_quota_exceeded(d->errs, 1, max_a);
        return -1;
    }
    if (max_b && l->bytes + delta > max_b) {
        d->st = qr_store_quota_exceeded(d->errs, 0, max_b);
        return -1;
    }
    return 0;
}

/* Queue the rows of version rec of id into q: the blob (when put has
 * bytes; else the caller has checked it exists), the artifact row (newm:
 * a create), then the version, the owner's charge and the head in one
 * statement. delta is what the owner is charged. */
static void queue_rows(batch *q, const char *id, const char *owner, const qr_folder_meta *newm,
                       const qr_folder_put *put, const qr_vrec *rec, const ledger *l,
                       uint64_t delta)
{
    db *d = q->d;
    char size[24], ver[16], parent[16], restored[16], spec_size[24], delta_s[24], one[4], pages[16];
    snprintf(pages, sizeof pages, "%d", rec->pages);
    snprintf(size, sizeof size, "%llu", (unsigned long long)rec->size);
    if (put->data)
        batch_add(q, "storing the rendered bytes",
                  "INSERT INTO quire_blobs (sha256, size, data) VALUES ($1, $2, $3) "
                  "ON CONFLICT DO NOTHING",
                  3, (const char *[]){rec->sha256, size, put->data}, 2, (int)put->size);
    if (newm) {
        char head[4] = "1";
        batch_add(q, "creating the artifact",
                  "INSERT INTO quire_artifacts (" MCOLS ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                  8,
                  (const char *[]){newm->id, newm->kind, newm->title, newm->owner, newm->filename,
                                   newm->mime_type, newm->created, head},
                  -1, 0);
    }
    snprintf(ver, sizeof ver, "%d", rec->version);
    snprintf(parent, sizeof parent, "%d", rec->parent);
    snprintf(restored, sizeof restored, "%d", rec->restored_from);
    snprintf(spec_size, sizeof spec_size, "%llu", (unsigned long long)rec->spec_size);
    snprintf(delta_s, sizeof delta_s, "%llu", (unsigned long long)delta);
    snprintf(one, sizeof one, "%d", newm ? 1 : 0);
    char *spec = strndup(put->spec, put->spec_len);
    if (!spec) {
        d->st = qr_errlist_add(d->errs, QR_E_NOMEM, "", "out of memory", NULL);
        return;
    }
    char nb[4];
    snprintf(nb, sizeof nb, "%s", l->new_blob ? "t" : "f");
    batch_add(q, "storing the version",
              "WITH ob AS (INSERT INTO quire_owner_blobs (owner, sha256) SELECT $16, $10 WHERE "
              "$17::bool), v AS (INSERT INTO quire_versions (artifact_id, version, action, parent, "
              "restored_from, created, spec, spec_sha256, spec_size, sha256, size, filename, "
              "mime_type, pages, warnings) VALUES ($1, $2, $3, nullif($4::int, 0), "
              "nullif($5::int, 0), $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)), o AS (UPDATE "
              "quire_owners SET artifacts = artifacts + $18, bytes = bytes + $19 WHERE owner = "
              "$16) UPDATE quire_artifacts SET head = $2 WHERE id = $1",
              19,
              (const char *[]){id, ver, rec->action, parent, restored, rec->created, spec,
                               rec->spec_sha256, spec_size, rec->sha256, size, rec->filename,
                               rec->mime_type, pages, rec->warnings, owner, nb, one, delta_s},
              -1, 0);
    free(spec); /* libpq copied the parameters into its buffer */
    if (put->key && put->key_request) {
        /* a record past its retention gives way; a live one (or one another
         * writer is committing: the insert waits for it) fails the insert
         * on the primary key, and the caller looks the key up again */
        char cutoff[32];
        qr_key_cutoff(&d->b->o, cutoff);
        batch_add(q, "storing the idempotency key",
                  "DELETE FROM quire_keys WHERE key = $1 AND created < $2", 2,
                  (const char *[]){put->key, cutoff}, -1, 0);
        batch_add(q, "storing the idempotency key",
                  "INSERT INTO quire_keys (key, request, artifact_id, version, created) "
                  "VALUES ($1, $2, $3, $4, $5)",
                  5, (const char *[]){put->key, put->key_request, id, ver, rec->created}, -1, 0);
    }
}

static uint64_t charge(const qr_vrec *rec, const ledger *l)
{
    return rec->spec_size + (l->new_blob ? rec->size : 0);
}

/* Inside a transaction: lock the owner's ledger row, check the quotas,
 * store the blob and charge the owner; then insert version rec of id
 * (newm: the artifact's row too, a create). */
static void write_version(db *d, const char *id, const char *owner, const qr_folder_meta *newm,
                          const qr_folder_put *put, const qr_vrec *rec)
{
    ledger l;
    if (newm) /* an owner's first artifact makes its ledger row */
        db_cmd(d, "locking the owner",
               "INSERT INTO quire_owners (owner) VALUES ($1) ON CONFLICT DO NOTHING", 1,
               (const char *[]){owner});
    if (d->st != QR_OK || owner_lock(d, owner, rec->sha256, &l) != 0) return;
    if (quota_ok(d, newm != NULL, &l, charge(rec, &l)) != 0) return;
    if (!put->data) {
        PGresult *r =
            db_q(d, "reading the rendered bytes", "SELECT 1 FROM quire_blobs WHERE sha256 = $1", 1,
                 (const char *[]){rec->sha256}, -1, 0);
        if (r && PQntuples(r) == 0) {
            qr_errlist_add(d->errs, QR_E_STORE, "", "the version's rendered bytes are missing",
                           "run quire fsck");
            d->st = QR_E_STORE;
        }
        PQclear(r);
    }
    batch q;
    PGresult *rs[BATCH_MAX];
    batch_start(&q, d);
    queue_rows(&q, id, owner, newm, put, rec, &l, charge(rec, &l));
    batch_run(&q, rs);
    for (int i = 0; i < BATCH_MAX; i++)
        PQclear(rs[i]);
}

/* COMMIT, or ROLLBACK after an error; returns d->st. */
static qr_status finish_txn(db *d)
{
    if (d->st == QR_OK)
        db_cmd(d, "committing", "COMMIT", 0, NULL);
    else if (PQstatus(d->c) == CONNECTION_OK)
        PQclear(PQexec(d->c, "ROLLBACK"));
    return d->st;
}

static qr_status pg_create(qr_sb *sb, const char *id, const char *kind, const char *title,
                           const char *owner, const qr_folder_put *put, qr_vrec *rec,
                           qr_errlist *errs)
{
    pgb *b = (pgb *)sb;
    memset(rec, 0, sizeof *rec);
    if (!qr_folder_id_new_valid(id)) return bad_id(errs, "artifact id", id);
    if (!owner) owner = "default";
    if (!qr_folder_owner_valid(owner)) return qr_folder_bad_owner(errs, owner);
    if (!kind || !*kind)
        return qr_errlist_add(errs, QR_E_USAGE, "", "name the artifact's kind", NULL);
    qr_status st = prepare(b, put, 1, rec, errs);
    if (st != QR_OK) return st;
    db d;
    if (db_get(&d, b, errs) != 0) {
        qr_vrec_free(rec);
        return QR_E_UNAVAILABLE;
    }
    qr_folder_meta m;
    qr_folder_meta_first(&m, id, kind, title, owner, rec);
    db_cmd(&d, "creating the artifact", "BEGIN", 0, NULL);
    PGresult *r = db_q(&d, "creating the artifact",
                       "SELECT 1 FROM quire_artifacts WHERE lower(id) = lower($1)", 1,
                       (const char *[]){id}, -1, 0);
    if (r && PQntuples(r) > 0) d.st = QR_E_CONFLICT;
    PQclear(r);
    write_version(&d, id, owner, &m, put, rec);
    st = finish_txn(&d);
    if (st == QR_E_CONFLICT && !errs->count)
        qr_errlist_addf(errs, QR_E_CONFLICT, "", "pick another id, or edit it",
                        "artifact \"%s\" already exists", id);
    db_put(&d);
    if (st != QR_OK) qr_vrec_free(rec);
    return st;
}

static qr_status get_meta(db *d, const char *id, qr_folder_meta *m)
{
    memset(m, 0, sizeof *m);
    PGresult *r = db_q(d, "reading the artifact",
                       "SELECT " MCOLS ", deleted FROM quire_artifacts WHERE id = $1", 1,
                       (const char *[]){id}, -1, 0);
    if (!r) return d->st;
    if (PQntuples(r) == 0)
        d->st = not_found(d->b, d->errs, id);
    else if (meta_from(r, 0, m) != 0)
        d->st = qr_errlist_add(d->errs, QR_E_NOMEM, "", "out of memory", NULL);
    PQclear(r);
    return d->st;
}

static qr_status pg_meta(qr_sb *sb, const char *id, qr_folder_meta *m, qr_errlist *errs)
{
    memset(m, 0, sizeof *m);
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    qr_status st = get_meta(&d, id, m);
    db_put(&d);
    return st;
}

static qr_status pg_begin(qr_sb *sb, const char *id, qr_sb_txn **out, qr_errlist *errs)
{
    *out = NULL;
    qr_sb_txn *t = calloc(1, sizeof *t);
    if (!t) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    t->b = (pgb *)sb;
    qr_status st = pg_meta(sb, id, &t->meta, errs);
    if (st == QR_OK && t->meta.head < 1)
        st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                             "artifact \"%s\" has no versions", id);
    if (st != QR_OK) {
        qr_folder_meta_free(&t->meta);
        free(t);
        return st;
    }
    *out = t;
    return QR_OK;
}

/* begin, with the head's spec read in the same query. */
static qr_status pg_begin_head(qr_sb *sb, const char *id, qr_sb_txn **out, qr_errlist *errs)
{
    *out = NULL;
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    qr_sb_txn *t = calloc(1, sizeof *t);
    if (!t) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    t->b = (pgb *)sb;
    db d;
    if (db_get(&d, t->b, errs) != 0) {
        free(t);
        return QR_E_UNAVAILABLE;
    }
    PGresult *r = db_q(&d, "reading the artifact",
                       "SELECT a.id, a.kind, a.title, a.owner, a.filename, a.mime_type, a.created, "
                       "a.head, v.spec, v.spec_sha256, a.deleted FROM quire_artifacts a LEFT JOIN "
                       "quire_versions v ON v.artifact_id = a.id AND v.version = a.head "
                       "WHERE lower(a.id) = lower($1)", /* unique: the stored spelling */
                       1, (const char *[]){id}, -1, 0);
    if (r && PQntuples(r) == 0)
        d.st = not_found(d.b, errs, id);
    else if (r && meta_from(r, 0, &t->meta) != 0)
        d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    else if (r) {
        t->have_spec = 1;
        t->spec_missing = PQgetisnull(r, 0, 8);
        snprintf(t->spec_sha, sizeof t->spec_sha, "%s", PQgetvalue(r, 0, 9));
        if (!t->spec_missing &&
            qr_buf_append(&t->spec, PQgetvalue(r, 0, 8), (size_t)PQgetlength(r, 0, 8)) != 0)
            d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    PQclear(r);
    db_put(&d);
    qr_status st = d.st;
    if (st == QR_OK && t->meta.head < 1)
        st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                             "artifact \"%s\" has no versions", id);
    if (st != QR_OK) {
        qr_folder_meta_free(&t->meta);
        qr_buf_free(&t->spec);
        free(t);
        return st;
    }
    *out = t;
    return QR_OK;
}

static qr_status pg_spec(qr_sb *sb, const char *id, int n, qr_buf *out, qr_errlist *errs);

static qr_status pg_txn_spec(qr_sb_txn *t, qr_buf *out, qr_errlist *errs)
{
    if (!t->have_spec) return pg_spec(&t->b->base, t->meta.id, t->meta.head, out, errs);
    if (t->spec_missing)
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                               "artifact \"%s\" has no version %d", t->meta.id, t->meta.head);
    char hex[65];
    qr_sha256_hex(t->spec.data ? t->spec.data : "", t->spec.len, hex);
    if (strcmp(hex, t->spec_sha) != 0)
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                               "the spec of artifact \"%s\" version %d is damaged", t->meta.id,
                               t->meta.head);
    if (qr_buf_append(out, t->spec.data ? t->spec.data : "", t->spec.len) != 0)
        return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    return QR_OK;
}

static const qr_folder_meta *pg_txn_meta(const qr_sb_txn *t)
{
    return &t->meta;
}

static qr_status pg_commit(qr_sb_txn *t, const qr_folder_put *put, qr_vrec *rec, int *conflict,
                           qr_errlist *errs)
{
    *conflict = 0;
    pgb *b = t->b;
    qr_folder_put p = *put;
    p.filename = t->meta.filename; /* stable across versions */
    p.mime_type = t->meta.mime_type;
    qr_status st = prepare(b, &p, t->meta.head + 1, rec, errs);
    if (st != QR_OK) return st;
    db d;
    if (db_get(&d, b, errs) != 0) {
        qr_vrec_free(rec);
        return QR_E_UNAVAILABLE;
    }
    /* Two round trips: lock the artifact and the owner (and see the blob a
     * restore reuses), then, when the head has not moved and the quotas
     * allow it, the rows and COMMIT. */
    const char *id = t->meta.id, *owner = t->meta.owner;
    batch q;
    PGresult *rs[BATCH_MAX];
    batch_start(&q, &d);
    batch_add(&q, "storing the version", "BEGIN", 0, NULL, -1, 0);
    batch_add(&q, "storing the version",
              "SELECT head, deleted IS NOT NULL FROM quire_artifacts WHERE id = $1 FOR UPDATE", 1,
              (const char *[]){id}, -1, 0);
    batch_add(&q, "locking the owner", OWNER_SQL, 1, (const char *[]){owner}, -1, 0);
    batch_add(&q, "locking the owner", BLOB_SQL, 2, (const char *[]){owner, rec->sha256}, -1, 0);
    if (!p.data)
        batch_add(&q, "reading the rendered bytes", "SELECT 1 FROM quire_blobs WHERE sha256 = $1",
                  1, (const char *[]){rec->sha256}, -1, 0);
    batch_run(&q, rs);
    ledger l = {0};
    if (d.st == QR_OK && (PQntuples(rs[1]) == 0 || PQgetvalue(rs[1], 0, 1)[0] == 't'))
        d.st = not_found(t->b, errs, id); /* deleted, or moved to the trash, meanwhile */
    else if (d.st == QR_OK && atoi(PQgetvalue(rs[1], 0, 0)) != t->meta.head)
        *conflict = 1;
    if (d.st == QR_OK && !*conflict) {
        if (PQntuples(rs[2]) == 1)
            ledger_from(rs[2], rs[3], &l);
        else
            owner_lock(&d, owner, rec->sha256, &l); /* the row was lost: made again */
    }
    if (d.st == QR_OK && !*conflict) quota_ok(&d, 0, &l, charge(rec, &l));
    if (d.st == QR_OK && !*conflict && !p.data && PQntuples(rs[4]) == 0) {
        qr_errlist_add(errs, QR_E_STORE, "", "the version's rendered bytes are missing",
                       "run quire fsck");
        d.st = QR_E_STORE;
    }
    for (int i = 0; i < BATCH_MAX; i++)
        PQclear(rs[i]);
    if (d.st == QR_OK && !*conflict) {
        batch_start(&q, &d);
        queue_rows(&q, id, owner, NULL, &p, rec, &l, charge(rec, &l));
        batch_add(&q, "committing", "COMMIT", 0, NULL, -1, 0);
        batch_run(&q, rs);
        for (int i = 0; i < BATCH_MAX; i++)
            PQclear(rs[i]);
        st = d.st;
        if (st == QR_E_CONFLICT && !errs->count) { /* a unique key: another writer won */
            *conflict = 1;
            st = QR_OK;
        }
    } else {
        st = d.st;
    }
    if (PQstatus(d.c) == CONNECTION_OK && PQtransactionStatus(d.c) != PQTRANS_IDLE)
        PQclear(PQexec(d.c, "ROLLBACK"));
    db_put(&d);
    if (st != QR_OK || *conflict) qr_vrec_free(rec);
    if (st == QR_OK && !*conflict) t->meta.head = rec->version;
    return st;
}

static void pg_end(qr_sb_txn *t)
{
    if (!t) return;
    qr_buf_free(&t->spec);
    qr_folder_meta_free(&t->meta);
    free(t);
}

/* The artifact's head and version n's columns (n = 0: the head); extra
 * selects one more column (the spec) after VCOLS. */
static PGresult *version_row(db *d, const char *id, int n, const char *extra)
{
    char nn[16], sql[600];
    snprintf(nn, sizeof nn, "%d", n);
    snprintf(sql, sizeof sql,
             "SELECT a.head, %s%s FROM quire_artifacts a LEFT JOIN quire_versions v ON "
             "v.artifact_id = a.id AND v.version = CASE WHEN $2::int = 0 THEN a.head ELSE "
             "$2::int END WHERE a.id = $1",
             VCOLS, extra);
    PGresult *r = db_q(d, "reading a version", sql, 2, (const char *[]){id, nn}, -1, 0);
    if (!r) return NULL;
    if (PQntuples(r) == 0) {
        d->st = not_found(d->b, d->errs, id);
        PQclear(r);
        return NULL;
    }
    int head = atoi(PQgetvalue(r, 0, 0));
    if (n == 0) n = head;
    if (n < 1 || n > head) {
        d->st =
            qr_errlist_addf(d->errs, QR_E_NOT_FOUND, "", "qr_store_log() lists the versions",
                            "artifact \"%s\" has no version %d (versions 1 to %d)", id, n, head);
        PQclear(r);
        return NULL;
    }
    if (PQgetisnull(r, 0, 1)) {
        d->st = qr_errlist_addf(d->errs, QR_E_STORE, "", "run quire fsck",
                                "artifact \"%s\" has no version %d", id, n);
        PQclear(r);
        return NULL;
    }
    return r;
}

static qr_status pg_version(qr_sb *sb, const char *id, int n, qr_vrec *rec, qr_errlist *errs)
{
    memset(rec, 0, sizeof *rec);
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    PGresult *r = version_row(&d, id, n, "");
    if (r && vrec_from(r, 0, 1, rec) != 0)
        d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    PQclear(r);
    db_put(&d);
    return d.st;
}

static qr_status pg_spec(qr_sb *sb, const char *id, int n, qr_buf *out, qr_errlist *errs)
{
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    PGresult *r = version_row(&d, id, n, ", v.spec");
    if (r) {
        const char *spec = PQgetvalue(r, 0, 14);
        size_t len = (size_t)PQgetlength(r, 0, 14);
        char hex[65];
        qr_sha256_hex(spec, len, hex);
        if (strcmp(hex, PQgetvalue(r, 0, 6)) != 0)
            d.st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                                   "the spec of artifact \"%s\" version %s is damaged", id,
                                   PQgetvalue(r, 0, 1));
        else if (qr_buf_append(out, spec, len) != 0)
            d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    PQclear(r);
    db_put(&d);
    return d.st;
}

static int is_hex64(const char *s)
{
    if (!s || strlen(s) != 64) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return 0;
    return 1;
}

static qr_status pg_blob(qr_sb *sb, const char *sha, qr_buf *out, qr_errlist *errs)
{
    if (!is_hex64(sha)) return qr_errlist_add(errs, QR_E_USAGE, "", "not a sha256", NULL);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    PGresult *r = NULL;
    if (d.st == QR_OK) {
        const char *v[1] = {sha};
        r = PQexecParams(d.c, "SELECT data FROM quire_blobs WHERE sha256 = $1", 1, NULL, v, NULL,
                         NULL, 1);
        if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
            db_fail(&d, gone(d.c, r) ? QR_E_UNAVAILABLE : QR_E_STORE, "reading the rendered bytes",
                    r ? PQresultErrorMessage(r) : PQerrorMessage(d.c));
        } else if (PQntuples(r) == 0) {
            d.st =
                qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck", "blob %s is missing", sha);
        } else {
            const char *data = PQgetvalue(r, 0, 0);
            size_t len = (size_t)PQgetlength(r, 0, 0);
            char hex[65];
            qr_sha256_hex(data, len, hex);
            if (strcmp(hex, sha) != 0)
                d.st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                                       "blob %s is damaged (its sha256 is %s)", sha, hex);
            else if (qr_buf_append(out, data, len) != 0)
                d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        }
    }
    PQclear(r);
    db_put(&d);
    return d.st;
}

static qr_status pg_log(qr_sb *sb, const char *id, int from, qr_vrec **recs, size_t *n,
                        qr_errlist *errs)
{
    *recs = NULL;
    *n = 0;
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    if (from < 1) from = 1;
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    qr_folder_meta m;
    if (get_meta(&d, id, &m) != QR_OK) {
        db_put(&d);
        return d.st;
    }
    char f[16];
    snprintf(f, sizeof f, "%d", from);
    PGresult *r = db_q(&d, "reading the versions",
                       "SELECT " VCOLS " FROM quire_versions v WHERE v.artifact_id = $1 AND "
                       "v.version >= $2 ORDER BY v.version",
                       2, (const char *[]){id, f}, -1, 0);
    if (r) {
        int rows = PQntuples(r);
        int want = m.head >= from ? m.head - from + 1 : 0;
        *recs = calloc(rows ? (size_t)rows : 1, sizeof **recs);
        if (!*recs) d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        for (int i = 0; *recs && i < rows && d.st == QR_OK; i++) {
            if (vrec_from(r, i, 0, &(*recs)[i]) != 0 || (*recs)[i].version != from + i)
                d.st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                                       "artifact \"%s\" has no version %d", id, from + i);
            else
                *n = (size_t)i + 1;
        }
        if (d.st == QR_OK && rows < want)
            d.st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                                   "artifact \"%s\" has no version %d", id, from + rows);
    }
    PQclear(r);
    qr_folder_meta_free(&m);
    db_put(&d);
    return d.st;
}

static qr_status pg_list(qr_sb *sb, const char *owner, const char *kind, int trash,
                         const char *cursor, size_t limit, qr_sb_item **items, size_t *n,
                         char next[QR_SB_CURSOR], qr_errlist *errs)
{
    *items = NULL;
    *n = 0;
    next[0] = '\0';
    char c_created[48], c_id[65], lim[24];
    int has_cursor = cursor && *cursor;
    if (has_cursor && qr_sb_cursor_parse(cursor, c_created, c_id) != 0)
        return qr_errlist_add(errs, QR_E_USAGE, "", "not a cursor of this store",
                              "pass the \"next\" of the previous page");
    if (limit > 1000000000) limit = 0; /* more than any store holds: all */
    snprintf(lim, sizeof lim, "%zu", limit + 1);
    char tr[4];
    snprintf(tr, sizeof tr, "%d", trash);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    PGresult *r = db_q(&d, "listing the artifacts",
                       "SELECT id, kind, title, owner, created, head, coalesce(deleted, '') FROM "
                       "quire_artifacts WHERE "
                       "($1::text IS NULL OR owner = $1) AND ($2::text IS NULL OR kind = $2) AND "
                       "($3::text IS NULL OR (created, id) < ($3, $4)) AND ($6::int < 0 OR "
                       "(deleted IS NOT NULL) = ($6::int = 1)) "
                       "ORDER BY created DESC, id DESC LIMIT $5::bigint",
                       6,
                       (const char *[]){owner, kind, has_cursor ? c_created : NULL,
                                        has_cursor ? c_id : NULL, limit ? lim : NULL, tr},
                       -1, 0);
    if (r) {
        size_t rows = (size_t)PQntuples(r);
        size_t take = limit && rows > limit ? limit : rows;
        qr_sb_item *v = calloc(take ? take : 1, sizeof *v);
        if (!v) d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        for (size_t i = 0; v && i < take; i++) {
            snprintf(v[i].id, sizeof v[i].id, "%s", PQgetvalue(r, (int)i, 0));
            v[i].kind = strdup(PQgetvalue(r, (int)i, 1));
            v[i].title = strdup(PQgetvalue(r, (int)i, 2));
            v[i].owner = strdup(PQgetvalue(r, (int)i, 3));
            v[i].created = strdup(PQgetvalue(r, (int)i, 4));
            v[i].head = atoi(PQgetvalue(r, (int)i, 5));
            snprintf(v[i].deleted, sizeof v[i].deleted, "%s", PQgetvalue(r, (int)i, 6));
        }
        if (v && take < rows && take) qr_sb_cursor_of(&v[take - 1], next);
        *items = v;
        *n = v ? take : 0;
    }
    PQclear(r);
    db_put(&d);
    return d.st;
}

/* A trash operation's key, first in its transaction: a second call with
 * the key waits here for the first one's commit and then fails on the
 * primary key (QR_E_CONFLICT, unworded), and the caller looks the key up
 * again. Its version is set by key_head once the row lock gave the head. */
static void key_insert(db *d, const char *key, const char *request, const char *id,
                       const char *action)
{
    if (!key) return;
    char cutoff[32], now[32];
    qr_key_cutoff(&d->b->o, cutoff);
    qr_store_time(&d->b->o, 0, now);
    db_cmd(d, "storing the idempotency key",
           "DELETE FROM quire_keys WHERE key = $1 AND created < $2", 2,
           (const char *[]){key, cutoff});
    db_cmd(d, "storing the idempotency key",
           "INSERT INTO quire_keys (key, request, artifact_id, version, created, action) "
           "VALUES ($1, $2, $3, 0, $4, $5)",
           5, (const char *[]){key, request, id, now, action});
}

static void key_head(db *d, const char *key, const char *head)
{
    if (key)
        db_cmd(d, "storing the idempotency key",
               "UPDATE quire_keys SET version = $2 WHERE key = $1", 2, (const char *[]){key, head});
}

/* The unworded conflict of key_insert, when the caller's look-up did not
 * answer it (the other call's record expired meanwhile). */
static qr_status key_lost(qr_status st, qr_errlist *errs)
{
    if (st == QR_E_CONFLICT && !errs->count)
        qr_errlist_add(errs, QR_E_CONFLICT, "", "repeat the call with the same key",
                       "another call with the same idempotency key was being committed");
    return st;
}

static qr_status pg_remove(qr_sb *sb, const char *id, int if_version, const char *trashed_before,
                           const char *key, const char *key_request, qr_errlist *errs)
{
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    db_cmd(&d, "deleting the artifact", "BEGIN", 0, NULL);
    key_insert(&d, key, key_request, id, "purge");
    PGresult *r = db_q(&d, "deleting the artifact",
                       "SELECT owner, head, $2::text IS NOT NULL AND (deleted IS NULL OR deleted "
                       "> $2) FROM quire_artifacts WHERE id = $1 FOR UPDATE",
                       2, (const char *[]){id, trashed_before}, -1, 0);
    char *owner = NULL;
    /* not there; or, purging the trash, taken out of it meanwhile */
    if (r && (PQntuples(r) == 0 || PQgetvalue(r, 0, 2)[0] == 't')) {
        d.st = not_found(d.b, errs, id);
        PQclear(r);
        r = NULL;
    }
    if (r && PQntuples(r) > 0 && if_version && atoi(PQgetvalue(r, 0, 1)) != if_version)
        d.st = qr_store_head_conflict(errs, id, atoi(PQgetvalue(r, 0, 1)), if_version);
    if (r && PQntuples(r) > 0) owner = strdup(PQgetvalue(r, 0, 0));
    if (r && PQntuples(r) > 0) key_head(&d, key, PQgetvalue(r, 0, 1));
    PQclear(r);
    if (d.st == QR_OK && !owner) d.st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    db_cmd(&d, "deleting the artifact", "SELECT 1 FROM quire_owners WHERE owner = $1 FOR UPDATE", 1,
           (const char *[]){owner});
    /* what the owner stops paying for: the specs, and the blobs no other
     * artifact of the owner uses */
    db_cmd(&d, "deleting the artifact",
           "CREATE TEMP TABLE quire_freed ON COMMIT DROP AS SELECT DISTINCT v.sha256, b.size FROM "
           "quire_versions v JOIN quire_blobs b USING (sha256) WHERE v.artifact_id = $1 AND NOT "
           "EXISTS (SELECT 1 FROM quire_versions w JOIN quire_artifacts a ON a.id = w.artifact_id "
           "WHERE a.owner = $2 AND a.id <> $1 AND w.sha256 = v.sha256)",
           2, (const char *[]){id, owner});
    db_cmd(&d, "deleting the artifact",
           "UPDATE quire_owners SET artifacts = artifacts - 1, bytes = bytes - (SELECT "
           "coalesce(sum(spec_size), 0) FROM quire_versions WHERE artifact_id = $1) - (SELECT "
           "coalesce(sum(size), 0) FROM quire_freed) WHERE owner = $2",
           2, (const char *[]){id, owner});
    db_cmd(&d, "deleting the artifact",
           "DELETE FROM quire_owner_blobs WHERE owner = $1 AND sha256 IN (SELECT sha256 FROM "
           "quire_freed)",
           1, (const char *[]){owner});
    db_cmd(&d, "deleting the artifact",
           "CREATE TEMP TABLE quire_gone ON COMMIT DROP AS SELECT DISTINCT sha256 FROM "
           "quire_versions WHERE artifact_id = $1",
           1, (const char *[]){id});
    /* the keys of its versions go with it; those of trash operations stay */
    db_cmd(&d, "deleting the artifact",
           "DELETE FROM quire_keys WHERE artifact_id = $1 AND action IS NULL", 1,
           (const char *[]){id});
    db_cmd(&d, "deleting the artifact", "DELETE FROM quire_artifacts WHERE id = $1", 1,
           (const char *[]){id});
    db_cmd(&d, "deleting the artifact",
           "CREATE TEMP TABLE quire_gc AS SELECT sha256 FROM quire_gone", 0, NULL);
    qr_status st = key_lost(finish_txn(&d), errs);
    free(owner);
    /* blobs no version uses any more, each in its own step: a writer that
     * took one meanwhile keeps it (the foreign key refuses the delete) */
    if (st == QR_OK) {
        r = db_q(&d, "collecting blobs", "SELECT sha256 FROM quire_gc", 0, NULL, -1, 0);
        for (int i = 0; r && i < PQntuples(r); i++) {
            PGresult *x = PQexecParams(
                d.c,
                "DELETE FROM quire_blobs b WHERE sha256 = $1 AND NOT EXISTS (SELECT 1 FROM "
                "quire_versions v WHERE v.sha256 = b.sha256)",
                1, NULL, (const char *[]){PQgetvalue(r, i, 0)}, NULL, NULL, 0);
            PQclear(x);
        }
        PQclear(r);
        PQclear(PQexec(d.c, "DROP TABLE IF EXISTS quire_gc"));
        d.st = QR_OK; /* the artifact is gone; a blob left is fsck's stray */
    }
    db_put(&d);
    return st;
}

static void problem(qr_folder_fsck *rep, const char *path, const char *msg)
{
    qr_errlist_add(&rep->problems, QR_E_STORE, path, msg, NULL);
}

/* Run sql for fsck; NULL after recording why. */
static PGresult *fq(db *d, qr_folder_fsck *rep, const char *sql, int binary)
{
    PGresult *r = PQexecParams(d->c, sql, 0, NULL, NULL, NULL, NULL, binary);
    if (r && (PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK))
        return r;
    char msg[600];
    clean_msg(d->b, r ? PQresultErrorMessage(r) : PQerrorMessage(d->c), msg, sizeof msg);
    qr_errlist_addf(&rep->problems, gone(d->c, r) ? QR_E_UNAVAILABLE : QR_E_STORE, "", NULL,
                    "the PostgreSQL store failed while checking: %s", msg);
    d->st = gone(d->c, r) ? QR_E_UNAVAILABLE : QR_E_STORE;
    PQclear(r);
    return NULL;
}

static qr_status pg_check(qr_sb *sb, int repair, qr_folder_fsck *rep)
{
    memset(rep, 0, sizeof *rep);
    db d;
    if (db_get(&d, (pgb *)sb, &rep->problems) != 0) return QR_E_UNAVAILABLE;
    char path[200], msg[300];
    /* artifacts: versions 1..head without gaps */
    PGresult *r = fq(&d, rep,
                     "SELECT a.id, a.head, count(v.version), coalesce(max(v.version), 0), "
                     "a.deleted IS NOT NULL FROM quire_artifacts a LEFT JOIN quire_versions v ON "
                     "v.artifact_id = a.id GROUP BY a.id, a.head ORDER BY a.id",
                     0);
    for (int i = 0; r && i < PQntuples(r); i++) {
        int head = atoi(PQgetvalue(r, i, 1)), count = atoi(PQgetvalue(r, i, 2)),
            max = atoi(PQgetvalue(r, i, 3));
        rep->artifacts++;
        if (PQgetvalue(r, i, 4)[0] == 't') rep->trashed++;
        snprintf(path, sizeof path, "quire_artifacts/%s", PQgetvalue(r, i, 0));
        if (head < 1 || count != head || max != head) {
            snprintf(msg, sizeof msg, "says head %d, but holds %d versions numbered up to %d", head,
                     count, max);
            problem(rep, path, msg);
        }
    }
    PQclear(r);
    /* each version: its parent, its spec against its sha256 (streamed) */
    if (d.st == QR_OK &&
        PQsendQuery(d.c, "SELECT artifact_id, version, coalesce(parent, 0), spec, spec_sha256, "
                         "spec_size FROM quire_versions ORDER BY artifact_id, version") &&
        PQsetSingleRowMode(d.c)) {
        while ((r = PQgetResult(d.c))) {
            if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
                rep->versions++;
                int v = atoi(PQgetvalue(r, 0, 1));
                snprintf(path, sizeof path, "quire_versions/%s/%d", PQgetvalue(r, 0, 0), v);
                if (atoi(PQgetvalue(r, 0, 2)) != v - 1)
                    problem(rep, path, "its parent is not the version before it");
                char hex[65];
                qr_sha256_hex(PQgetvalue(r, 0, 3), (size_t)PQgetlength(r, 0, 3), hex);
                if (strcmp(hex, PQgetvalue(r, 0, 4)) != 0 ||
                    (unsigned long long)PQgetlength(r, 0, 3) !=
                        strtoull(PQgetvalue(r, 0, 5), NULL, 10))
                    problem(rep, path, "the spec does not match its sha256");
            } else if (PQresultStatus(r) != PGRES_TUPLES_OK) {
                char m[600];
                clean_msg(d.b, PQresultErrorMessage(r), m, sizeof m);
                qr_errlist_addf(&rep->problems, QR_E_UNAVAILABLE, "", NULL,
                                "the PostgreSQL store failed while checking: %s", m);
                d.st = QR_E_UNAVAILABLE;
            }
            PQclear(r);
        }
    }
    /* blobs: content against sha256; unreferenced ones are stray */
    if (d.st == QR_OK &&
        PQsendQueryParams(d.c,
                          "SELECT b.sha256, b.size::text, b.data, EXISTS (SELECT 1 FROM "
                          "quire_versions v WHERE v.sha256 = b.sha256)::text FROM quire_blobs b",
                          0, NULL, NULL, NULL, NULL, 1) &&
        PQsetSingleRowMode(d.c)) {
        qr_buf unused = {0};
        while ((r = PQgetResult(d.c))) {
            if (PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
                const char *sha = PQgetvalue(r, 0, 0);
                snprintf(path, sizeof path, "quire_blobs/%.64s", sha);
                char hex[65];
                qr_sha256_hex(PQgetvalue(r, 0, 2), (size_t)PQgetlength(r, 0, 2), hex);
                if (strcmp(hex, sha) != 0 || (unsigned long long)PQgetlength(r, 0, 2) !=
                                                 strtoull(PQgetvalue(r, 0, 1), NULL, 10))
                    problem(rep, path, "the rendered bytes do not match their sha256");
                if (PQgetvalue(r, 0, 3)[0] == 't') {
                    rep->blobs++;
                } else {
                    qr_errlist_add(&rep->stray, QR_E_STORE, path, "no version references this blob",
                                   NULL);
                    qr_buf_printf(&unused, "%s%.64s", unused.len ? "," : "", sha);
                }
            }
            PQclear(r);
        }
        if (repair && unused.len) {
            const char *v[1] = {unused.data};
            PGresult *x = PQexecParams(d.c,
                                       "DELETE FROM quire_blobs b WHERE sha256 = ANY "
                                       "(string_to_array($1, ',')) AND NOT EXISTS (SELECT 1 FROM "
                                       "quire_versions v WHERE v.sha256 = b.sha256)",
                                       1, NULL, v, NULL, NULL, 0);
            if (x && PQresultStatus(x) == PGRES_COMMAND_OK)
                rep->repaired += (size_t)atoi(PQcmdTuples(x));
            PQclear(x);
        }
        qr_buf_free(&unused);
    }
    if (repair && d.st == QR_OK) { /* idempotency keys past their retention */
        char cutoff[32];
        qr_key_cutoff(&((pgb *)sb)->o, cutoff);
        const char *v[1] = {cutoff};
        PGresult *x = PQexecParams(d.c, "DELETE FROM quire_keys WHERE created < $1", 1, NULL, v,
                                   NULL, NULL, 0);
        if (x && PQresultStatus(x) == PGRES_COMMAND_OK)
            rep->repaired += (size_t)atoi(PQcmdTuples(x));
        PQclear(x);
    }
    /* owner ledgers against a recount */
    static const char *RECOUNT =
        "WITH o AS (SELECT owner FROM quire_owners UNION SELECT owner FROM quire_artifacts), "
        "refs AS (SELECT DISTINCT a.owner, v.sha256 FROM quire_versions v JOIN quire_artifacts a "
        "ON a.id = v.artifact_id) "
        "SELECT o.owner, coalesce(l.artifacts, 0), coalesce(l.bytes, 0), "
        "(SELECT count(*) FROM quire_artifacts a WHERE a.owner = o.owner), "
        "(SELECT coalesce(sum(v.spec_size), 0) FROM quire_versions v JOIN quire_artifacts a ON "
        "a.id = v.artifact_id WHERE a.owner = o.owner) + (SELECT coalesce(sum(b.size), 0) FROM "
        "refs JOIN quire_blobs b USING (sha256) WHERE refs.owner = o.owner), "
        "(SELECT count(*) FROM (SELECT sha256 FROM refs WHERE refs.owner = o.owner EXCEPT SELECT "
        "sha256 FROM quire_owner_blobs ob WHERE ob.owner = o.owner) x) + (SELECT count(*) FROM "
        "(SELECT sha256 FROM quire_owner_blobs ob WHERE ob.owner = o.owner EXCEPT SELECT sha256 "
        "FROM refs WHERE refs.owner = o.owner) y) "
        "FROM o LEFT JOIN quire_owners l ON l.owner = o.owner ORDER BY o.owner";
    r = d.st == QR_OK ? fq(&d, rep, RECOUNT, 0) : NULL;
    for (int i = 0; r && i < PQntuples(r); i++) {
        const char *owner = PQgetvalue(r, i, 0);
        if (!strcmp(PQgetvalue(r, i, 1), PQgetvalue(r, i, 3)) &&
            !strcmp(PQgetvalue(r, i, 2), PQgetvalue(r, i, 4)) && !strcmp(PQgetvalue(r, i, 5), "0"))
            continue;
        snprintf(path, sizeof path, "quire_owners/%.150s", owner);
        snprintf(msg, sizeof msg,
                 "quota ledger says %s artifacts, %s bytes; the store holds %s artifacts, %s bytes "
                 "(quire fsck --repair rebuilds it)",
                 PQgetvalue(r, i, 1), PQgetvalue(r, i, 2), PQgetvalue(r, i, 3),
                 PQgetvalue(r, i, 4));
        if (!repair) {
            problem(rep, path, msg);
            continue;
        }
        qr_errlist_add(&rep->stray, QR_E_STORE, path, msg, NULL);
        const char *v[3] = {owner, PQgetvalue(r, i, 3), PQgetvalue(r, i, 4)};
        PGresult *x = PQexecParams(
            d.c,
            "WITH up AS (INSERT INTO quire_owners (owner, artifacts, bytes) VALUES "
            "($1, $2, $3) ON CONFLICT (owner) DO UPDATE SET artifacts = $2, bytes = $3 "
            "RETURNING owner), del AS (DELETE FROM quire_owner_blobs WHERE owner = $1) "
            "SELECT 1",
            3, NULL, v, NULL, NULL, 0);
        PQclear(x);
        x = PQexecParams(d.c,
                         "INSERT INTO quire_owner_blobs (owner, sha256) SELECT DISTINCT a.owner, "
                         "v.sha256 FROM quire_versions v JOIN quire_artifacts a ON a.id = "
                         "v.artifact_id WHERE a.owner = $1 ON CONFLICT DO NOTHING",
                         1, NULL, v, NULL, NULL, 0);
        PQclear(x);
        rep->repaired++;
    }
    PQclear(r);
    qr_status st = d.st;
    if (st == QR_OK && rep->problems.count) st = QR_E_STORE;
    db_put(&d);
    return st;
}

static void pg_resolve(qr_sb *sb, const char *id, char out[65])
{
    snprintf(out, 65, "%s", id ? id : "");
    if (!qr_folder_id_valid(id)) return;
    qr_errlist ignore = {0};
    db d;
    if (db_get(&d, (pgb *)sb, &ignore) == 0) {
        PGresult *r =
            db_q(&d, "finding the artifact",
                 "SELECT id FROM quire_artifacts WHERE lower(id) = lower($1) ORDER BY id = $1 "
                 "DESC LIMIT 1",
                 1, (const char *[]){id}, -1, 0);
        if (r && PQntuples(r) == 1) snprintf(out, 65, "%s", PQgetvalue(r, 0, 0));
        PQclear(r);
    }
    db_put(&d);
    qr_errlist_clear(&ignore);
}

static qr_status pg_key_find(qr_sb *sb, const char *key, qr_key_rec *rec, qr_errlist *errs)
{
    memset(rec, 0, sizeof *rec);
    pgb *b = (pgb *)sb;
    db d;
    if (db_get(&d, b, errs) != 0) return QR_E_UNAVAILABLE;
    char cutoff[32];
    qr_key_cutoff(&b->o, cutoff);
    PGresult *r = db_q(&d, "reading the idempotency key",
                       "SELECT request, artifact_id, version, created, coalesce(action, '') "
                       "FROM quire_keys WHERE key = $1 AND created >= $2",
                       2, (const char *[]){key, cutoff}, -1, 0);
    if (r && PQntuples(r) == 1 && PQgetlength(r, 0, 0) == 64 && PQgetlength(r, 0, 1) < 65 &&
        PQgetlength(r, 0, 3) < 32 && PQgetlength(r, 0, 4) < 16) {
        snprintf(rec->action, sizeof rec->action, "%s", PQgetvalue(r, 0, 4));
        rec->found = 1;
        snprintf(rec->request, sizeof rec->request, "%s", PQgetvalue(r, 0, 0));
        snprintf(rec->id, sizeof rec->id, "%s", PQgetvalue(r, 0, 1));
        rec->version = atoi(PQgetvalue(r, 0, 2));
        snprintf(rec->created, sizeof rec->created, "%s", PQgetvalue(r, 0, 3));
    }
    PQclear(r);
    db_put(&d);
    return d.st;
}

static int pg_key_lock(qr_sb *sb, const char *key)
{
    (void)sb;
    (void)key;
    return 0; /* the primary key of quire_keys serialises keyed writers */
}

static void pg_key_unlock(qr_sb *sb, int handle)
{
    (void)sb;
    (void)handle;
}

static qr_status pg_quota_get(qr_sb *sb, const char *owner, qr_quota_rec *q, qr_errlist *errs)
{
    memset(q, 0, sizeof *q);
    if (!qr_folder_owner_valid(owner)) return qr_folder_bad_owner(errs, owner);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    PGresult *r = db_q(&d, "reading the owner's quota",
                       "SELECT artifacts, bytes, max_artifacts, max_bytes FROM quire_owners WHERE "
                       "owner = $1",
                       1, (const char *[]){owner}, -1, 0);
    if (r && PQntuples(r) == 1) {
        q->artifacts = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
        q->bytes = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
        q->has_artifacts = !PQgetisnull(r, 0, 2);
        q->max_artifacts = q->has_artifacts ? strtoull(PQgetvalue(r, 0, 2), NULL, 10) : 0;
        q->has_bytes = !PQgetisnull(r, 0, 3);
        q->max_bytes = q->has_bytes ? strtoull(PQgetvalue(r, 0, 3), NULL, 10) : 0;
    }
    PQclear(r);
    db_put(&d);
    return d.st;
}

/* One limit of quota_set: keep it ($n::bool), else the value (NULL: the default). */
static void limit_param(long long v, char keep[2], char val[24], const char **pv)
{
    snprintf(keep, 2, "%s", v == QR_QUOTA_KEEP ? "t" : "f");
    snprintf(val, 24, "%lld", v);
    *pv = v >= 0 ? val : NULL;
}

static qr_status pg_quota_set(qr_sb *sb, const char *owner, long long max_artifacts,
                              long long max_bytes, qr_errlist *errs)
{
    if (!qr_folder_owner_valid(owner)) return qr_folder_bad_owner(errs, owner);
    db d;
    if (db_get(&d, (pgb *)sb, errs) != 0) return QR_E_UNAVAILABLE;
    char ka[2], va[24], kb[2], vb[24];
    const char *pa, *pb;
    limit_param(max_artifacts, ka, va, &pa);
    limit_param(max_bytes, kb, vb, &pb);
    /* one statement: the row is made or updated under its lock, as writers read it */
    db_cmd(&d, "setting the owner's quota",
           "INSERT INTO quire_owners AS o (owner, max_artifacts, max_bytes) VALUES ($1, CASE WHEN "
           "$2::bool THEN NULL ELSE $3::bigint END, CASE WHEN $4::bool THEN NULL ELSE $5::bigint "
           "END) ON CONFLICT (owner) DO UPDATE SET max_artifacts = CASE WHEN $2::bool THEN "
           "o.max_artifacts ELSE $3::bigint END, max_bytes = CASE WHEN $4::bool THEN o.max_bytes "
           "ELSE $5::bigint END",
           5, (const char *[]){owner, ka, pa, kb, pb});
    db_put(&d);
    return d.st;
}

static qr_status pg_trash(qr_sb *sb, const char *id, int if_version, int restore, const char *key,
                          const char *key_request, qr_errlist *errs)
{
    if (!qr_folder_id_valid(id)) return bad_id(errs, "artifact id", id);
    pgb *b = (pgb *)sb;
    char when[32];
    qr_store_time(&b->o, 0, when);
    db d;
    if (db_get(&d, b, errs) != 0) return QR_E_UNAVAILABLE;
    db_cmd(&d, "moving the artifact", "BEGIN", 0, NULL);
    key_insert(&d, key, key_request, id, restore ? "undelete" : "delete");
    PGresult *r = db_q(&d, "moving the artifact",
                       "SELECT head, deleted IS NOT NULL FROM quire_artifacts WHERE id = $1 FOR "
                       "UPDATE",
                       1, (const char *[]){id}, -1, 0);
    if (r && (PQntuples(r) == 0 || (PQgetvalue(r, 0, 1)[0] == 't') != restore))
        d.st = not_found(b, errs, id); /* not where the call looks for it */
    else if (r && if_version > 0 && atoi(PQgetvalue(r, 0, 0)) != if_version)
        d.st = qr_store_head_conflict(errs, id, atoi(PQgetvalue(r, 0, 0)), if_version);
    if (r && PQntuples(r) > 0) key_head(&d, key, PQgetvalue(r, 0, 0));
    PQclear(r);
    db_cmd(&d, "moving the artifact", "UPDATE quire_artifacts SET deleted = $2 WHERE id = $1", 2,
           (const char *[]){id, restore ? NULL : when});
    qr_status st = key_lost(finish_txn(&d), errs);
    db_put(&d);
    return st;
}

static qr_status pg_missing(qr_sb *sb, const char *id, qr_errlist *errs)
{
    return not_found((const pgb *)sb, errs, id);
}

static const qr_sb_ops pg_ops = {
    "postgresql", pg_close,     pg_create,     pg_begin,    pg_txn_meta, pg_commit,   pg_end,
    pg_meta,      pg_version,   pg_spec,       pg_blob,     pg_log,      pg_check,    pg_list,
    pg_remove,    pg_resolve,   pg_begin_head, pg_txn_spec, pg_key_find, pg_key_lock, pg_key_unlock,
    pg_missing,   pg_quota_get, pg_quota_set,  pg_trash};
