/* store_api.c: the public store API (quire/store.h). Joins a store backend
 * (store/store_backend.h: a folder or PostgreSQL; text and bytes, never renders)
 * with the compiler, the edit engine and the renderer (which never write
 * the store): validate, edit, canonicalise and render here, then hand the
 * results to the backend. A backend that reports a conflict at commit (the
 * head moved while this call rendered) gets the whole write again. A write
 * with an idempotency key (qr_store_write.key) looks the key up first and
 * answers a repeated request with the version the first one wrote. */
#include <quire/store.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store_backend.h"
#include "compile.h"
#include "edit.h"
#include "folder_store.h"
#include "sha256.h"

_Static_assert(QR_KEY_RETENTION == QR_STORE_KEY_RETENTION, "one retention for keys");
_Static_assert(QR_QUOTA_KEEP == QR_STORE_QUOTA_KEEP && QR_QUOTA_DEFAULT == QR_STORE_QUOTA_DEFAULT,
               "one quota_set convention");

/* Writes that lost the race to the head this many times in a row fail. */
#define MAX_ATTEMPTS 10000

struct qr_store {
    qr_sb *b;
    qr_store_opts o;
    char *owner; /* the owner the store is opened for (o.owner's copy), or NULL */
};

void qr_store_opts_default(qr_store_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_artifacts = 5000;
    o->max_total_bytes = 5ull << 30;
    o->max_version_bytes = 50ull << 20;
    o->trash_retention = QR_STORE_TRASH_RETENTION;
}

static int64_t call_clock(void *p)
{
    const qr_store *s = p;
    return (int64_t)s->o.now(s->o.now_arg);
}

static qr_status store_open(const char *path, const qr_store_opts *opts, int no_create,
                            qr_store **out, qr_errlist *errs)
{
    *out = NULL;
    qr_store *s = calloc(1, sizeof *s);
    if (!s) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    if (opts)
        s->o = *opts;
    else
        qr_store_opts_default(&s->o);
    if (s->o.owner) {
        if (!qr_folder_owner_valid(s->o.owner)) {
            qr_status st = qr_folder_bad_owner(errs, s->o.owner);
            free(s);
            return st;
        }
        s->owner = strdup(s->o.owner);
        if (!s->owner) {
            free(s);
            return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        }
    }
    s->o.owner = s->owner;
    qr_folder_opts fo;
    qr_folder_opts_default(&fo);
    fo.max_artifacts = s->o.max_artifacts;
    fo.max_total_bytes = s->o.max_total_bytes;
    fo.max_version_bytes = s->o.max_version_bytes;
    fo.no_sync = s->o.no_sync;
    fo.no_create = no_create;
    if (s->o.now) {
        fo.now = call_clock;
        fo.now_arg = s;
    }
    qr_status st = qr_sb_open(path, &fo, &s->b, errs);
    if (st != QR_OK) {
        free(s->owner);
        free(s);
        return st;
    }
    *out = s;
    return QR_OK;
}

qr_status qr_store_open(const char *path, const qr_store_opts *opts, qr_store **out,
                        qr_errlist *errs)
{
    return store_open(path, opts, 0, out, errs);
}

qr_status qr_store_open_existing(const char *path, const qr_store_opts *opts, qr_store **out,
                                 qr_errlist *errs)
{
    return store_open(path, opts, 1, out, errs);
}

void qr_store_close(qr_store *s)
{
    if (!s) return;
    s->b->ops->close(s->b);
    free(s->owner);
    free(s);
}

/* ---- results ------------------------------------------------------------------- */

static void version_free(qr_store_version *v)
{
    free(v->filename);
    free(v->mime_type);
    free(v->warnings);
    memset(v, 0, sizeof *v);
}

void qr_store_result_free(qr_store_result *r)
{
    if (!r) return;
    free(r->kind);
    free(r->title);
    free(r->owner);
    version_free(&r->version);
    free(r->spec);
    free(r->data);
    for (size_t i = 0; i < r->log_count; i++)
        version_free(&r->log[i]);
    free(r->log);
    qr_errlist_clear(&r->errors);
    qr_errlist_clear(&r->warnings);
    memset(r, 0, sizeof *r);
}

static void result_init(qr_store_result *r, const char *id)
{
    memset(r, 0, sizeof *r);
    if (id && strlen(id) < sizeof r->artifact_id) strcpy(r->artifact_id, id);
}

static qr_status finish(qr_store_result *r, qr_status st)
{
    r->status = st;
    return st;
}

/* Copy a store record into a public version (strings duplicated). */
static void version_from(qr_store_version *v, const qr_vrec *rec)
{
    memset(v, 0, sizeof *v);
    v->version = rec->version;
    memcpy(v->action, rec->action, sizeof v->action);
    v->parent = rec->parent;
    v->restored_from = rec->restored_from;
    memcpy(v->created, rec->created, sizeof v->created);
    memcpy(v->spec_sha256, rec->spec_sha256, sizeof v->spec_sha256);
    v->spec_size = rec->spec_size;
    memcpy(v->sha256, rec->sha256, sizeof v->sha256);
    v->size = rec->size;
    v->filename = rec->filename ? strdup(rec->filename) : NULL;
    v->mime_type = rec->mime_type ? strdup(rec->mime_type) : NULL;
    v->pages = rec->pages;
    v->warnings = strdup(rec->warnings ? rec->warnings : "[]");
}

static void meta_into(qr_store_result *r, const qr_folder_meta *m)
{
    snprintf(r->artifact_id, sizeof r->artifact_id, "%s", m->id); /* the stored spelling */
    free(r->kind);
    free(r->title);
    free(r->owner);
    r->kind = strdup(m->kind);
    r->title = strdup(m->title);
    r->owner = strdup(m->owner);
    r->head = m->head;
}

/* ---- owners ------------------------------------------------------------------------- */

/* 1 when the store is opened for an owner and m is another owner's, or m
 * is in the trash: either way, not there for the call. */
static int hidden(const qr_store *s, const qr_folder_meta *m)
{
    return (s->owner && (!m->owner || strcmp(m->owner, s->owner) != 0)) || m->deleted[0];
}

/* Answer as for a missing id (the id as the caller spelled it): the
 * result holds nothing of the artifact, so another owner's artifact is
 * told apart from a missing one by nothing. */
static qr_status gone(qr_store *s, const char *id, qr_store_result *res)
{
    char given[65] = "";
    if (id) snprintf(given, sizeof given, "%s", id);
    qr_store_result_free(res);
    result_init(res, given);
    return s->b->ops->missing(s->b, given, &res->errors);
}

/* The refusal of what only the admin view (no owner) may do. */
static qr_status admin_only(const qr_store *s, qr_errlist *errs, const char *what)
{
    if (!s->owner) return QR_OK;
    return qr_errlist_addf(errs, QR_E_USAGE, "", "open the store without an owner to do that",
                           "%s sees every owner: not on a store opened for one owner", what);
}

/* ---- file names ------------------------------------------------------------------- */

/* Latin-1 letters to their ASCII base (werkzeug's NFKD + ASCII, for the
 * common case); other non-ASCII characters are dropped. */
static char latin1_base(unsigned cp)
{
    static const char map[] = "AAAAAAACEEEEIIIIDNOOOOOxOUUUUYTsaaaaaaaceeeeiiiidnooooo/ouuuuyty";
    if (cp >= 0xC0 && cp <= 0xFF) {
        char c = map[cp - 0xC0];
        return (c == 'x' || c == '/' || c == 'T' || c == 't' || c == 's') ? 0 : c;
    }
    return 0;
}

void qr_store_filename(qr_kind kind, const char *title, const char *id, char *out, size_t size)
{
    const char *ext = qr_format_ext(qr_kind_format(kind));
    if (kind == QR_KIND_HTML) {
        snprintf(out, size, "report.html");
        return;
    }
    /* f"{title.strip() or 'artifact'}.{ext}", then secure_filename */
    char raw[512];
    const char *t = title ? title : "";
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    size_t tl = strlen(t);
    while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\t' || t[tl - 1] == '\n' || t[tl - 1] == '\r'))
        tl--;
    if (tl > 400) tl = 400;
    snprintf(raw, sizeof raw, "%.*s.%s", (int)tl, tl ? t : "artifact", ext);
    if (!tl) snprintf(raw, sizeof raw, "artifact.%s", ext);
    /* ASCII only (Latin-1 letters lose their accents), "/" to a space,
     * whitespace runs to "_", keep [A-Za-z0-9_.-], strip "._" at the ends */
    char ascii[512];
    size_t n = 0;
    const unsigned char *p = (const unsigned char *)raw;
    while (*p && n + 1 < sizeof ascii) {
        unsigned c = *p;
        if (c < 0x80) {
            ascii[n++] = c == '/' || c == '\\' ? ' ' : (char)c;
            p++;
        } else if ((c & 0xE0) == 0xC0 && (p[1] & 0xC0) == 0x80) {
            char b = latin1_base(((c & 0x1F) << 6) | (p[1] & 0x3F));
            if (b) ascii[n++] = b;
            p += 2;
        } else {
            p++;
            while ((*p & 0xC0) == 0x80)
                p++;
        }
    }
    ascii[n] = '\0';
    char clean[512];
    size_t k = 0;
    int pend_space = 0;
    for (size_t i = 0; i < n; i++) {
        char c = ascii[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            pend_space = k > 0;
            continue;
        }
        if (pend_space) clean[k++] = '_', pend_space = 0;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '_' || c == '.' || c == '-')
            clean[k++] = c;
    }
    clean[k] = '\0';
    char *s = clean;
    while (*s == '.' || *s == '_')
        s++;
    size_t sl = strlen(s);
    while (sl && (s[sl - 1] == '.' || s[sl - 1] == '_'))
        s[--sl] = '\0';
    /* only the extension left (the title had nothing usable): secure_filename
     * would give "docx"; DocsGPT's fallback is "<uuid>.<ext>" for empty */
    if (sl == 0 || strcmp(s, ext) == 0)
        snprintf(out, size, "%s.%s", id ? id : "artifact", ext);
    else
        snprintf(out, size, "%s", s);
}

/* ---- the join ------------------------------------------------------------------------- */

/* Canonical text of spec (a JSON string holding an object is unwrapped). */
static qr_status canonical(const char *spec, size_t len, qr_buf *out, qr_errlist *errs)
{
    qr_buf inner = {0};
    if (qr_edit_unwrap(spec, len, &inner)) {
        spec = inner.data;
        len = inner.len;
    }
    qr_status st = qr_canonical(spec, len, out, errs);
    qr_buf_free(&inner);
    return st;
}

/* Render canonical text; fills rr (free with qr_result_free). */
static qr_status render(qr_store *s, qr_kind kind, const qr_buf *spec, qr_result *rr,
                        qr_store_result *res)
{
    qr_render_opts ro = {0};
    ro.max_output = s->o.max_output;
    qr_status st = qr_render_mem(spec->data, spec->len, kind, qr_kind_format(kind), &ro, rr);
    qr_errlist_move(&res->warnings, &rr->warnings);
    if (st != QR_OK) qr_errlist_move(&res->errors, &rr->errors);
    return st;
}

/* ---- idempotency keys ------------------------------------------------------------------ */

/* A keyed write: its key (NULL: none), the sha256 of its request and the
 * backend's lock on the key. */
typedef struct keyed {
    const char *key;
    char req[65];
    int lock;
} keyed;

/* One field of a request, length-prefixed (and marked absent for NULL) so
 * that no two requests hash alike. */
static void req_add(qr_sha256 *c, const void *p, size_t n)
{
    unsigned char hdr[9];
    hdr[0] = p != NULL;
    for (int i = 0; i < 8; i++)
        hdr[1 + i] = (unsigned char)((uint64_t)n >> (56 - 8 * i));
    qr_sha256_update(c, hdr, sizeof hdr);
    if (p && n) qr_sha256_update(c, p, n);
}

static void req_str(qr_sha256 *c, const char *s)
{
    req_add(c, s, s ? strlen(s) : 0);
}

static void req_int(qr_sha256 *c, long long v)
{
    char t[24];
    snprintf(t, sizeof t, "%lld", v);
    req_str(c, t);
}

static void req_done(qr_sha256 *c, keyed *k)
{
    unsigned char d[32];
    qr_sha256_final(c, d);
    qr_sha256_tohex(d, k->req);
}

/* The answer a key's record gives: the version the first request wrote
 * (res->replayed), or a conflict when the key named another request.
 * Returns 1 when it answered (*st set), 0 when the key is unused. */
static int key_check(qr_store *s, keyed *k, qr_store_result *res, qr_status *st)
{
    if (!k->key) return 0;
    const qr_sb_ops *ops = s->b->ops;
    qr_key_rec kr;
    qr_errlist errs = {0};
    qr_status f = ops->key_find(s->b, k->key, &kr, &errs);
    if (f == QR_OK && !kr.found) return 0;
    qr_store_result_free(res);
    result_init(res, kr.found ? kr.id : NULL);
    if (f != QR_OK) {
        qr_errlist_move(&res->errors, &errs);
        *st = f;
        return 1;
    }
    if (strcmp(kr.request, k->req) != 0 && s->owner) { /* name nothing of another's */
        qr_store_result_free(res);
        result_init(res, NULL);
        *st = qr_errlist_addf(&res->errors, QR_E_CONFLICT, "",
                              "a new request needs a new key; repeat a request with its own key",
                              "the idempotency key \"%.80s\" was used for another request", k->key);
        return 1;
    }
    if (strcmp(kr.request, k->req) != 0) {
        *st = qr_errlist_addf(&res->errors, QR_E_CONFLICT, "",
                              "a new request needs a new key; repeat a request with its own key",
                              "the idempotency key \"%.80s\" was used for another request "
                              "(artifact \"%s\" version %d)",
                              k->key, kr.id, kr.version);
        return 1;
    }
    if (kr.action[0]) { /* a trash operation's: the artifact as it is now, or as it was */
        qr_folder_meta m;
        qr_errlist quiet = {0};
        *st = ops->meta_load(s->b, kr.id, &m, &quiet);
        if (*st == QR_OK) {
            m.deleted[0] = '\0'; /* the owner check only */
            if (!hidden(s, &m)) meta_into(res, &m);
            qr_folder_meta_free(&m);
        } else if (*st == QR_E_NOT_FOUND) { /* purged since: the head it left */
            res->head = kr.version;
            *st = QR_OK;
        } else {
            qr_errlist_move(&res->errors, &quiet);
        }
        qr_errlist_clear(&quiet);
        if (*st == QR_OK) res->replayed = 1;
        return 1;
    }
    qr_folder_meta m;
    *st = ops->meta_load(s->b, kr.id, &m, &res->errors);
    if (*st == QR_OK && hidden(s, &m)) { /* cannot happen: the request names the owner */
        qr_folder_meta_free(&m);
        *st = gone(s, kr.id, res);
        return 1;
    }
    if (*st == QR_OK) {
        meta_into(res, &m);
        qr_folder_meta_free(&m);
        qr_vrec rec;
        *st = ops->version(s->b, kr.id, kr.version, &rec, &res->errors);
        if (*st == QR_OK) {
            version_from(&res->version, &rec);
            qr_vrec_free(&rec);
            res->replayed = 1;
        }
    }
    return 1;
}

/* Start a keyed write (k->req already hashed): check the key, take its
 * lock and look it up. Returns 1 when that answered the call (*st set). */
static int key_start(qr_store *s, keyed *k, qr_store_result *res, qr_status *st)
{
    if (!k->key) return 0;
    if (!qr_key_valid(k->key)) {
        *st = qr_errlist_addf(&res->errors, QR_E_USAGE, "",
                              "use 1 to 255 printable ASCII characters without spaces, e.g. a "
                              "UUID",
                              "invalid idempotency key (%zu bytes)", strlen(k->key));
        return 1;
    }
    k->lock = s->b->ops->key_lock(s->b, k->key);
    if (k->lock < 0) {
        *st = qr_errlist_add(&res->errors, QR_E_IO, "", "cannot lock the idempotency key",
                             "check that the store folder is writable");
        return 1;
    }
    return key_check(s, k, res, st);
}

static void key_end(qr_store *s, keyed *k)
{
    if (k->key && k->lock >= 0) s->b->ops->key_unlock(s->b, k->lock);
    k->lock = -1;
}

/* A keyed write failed: when another writer with the key committed first
 * (PostgreSQL: the key's primary key refused this one; or that writer's
 * delete, undelete or purge took the artifact from where this one looked
 * for it: not_found), answer as it did. */
static qr_status key_after(qr_store *s, keyed *k, qr_store_result *res, qr_status st)
{
    if ((st != QR_E_CONFLICT && st != QR_E_NOT_FOUND) || !k->key) return st;
    qr_status again;
    return key_check(s, k, res, &again) ? again : st;
}

static void key_init(const qr_store *s, keyed *k, const qr_store_write *w, qr_sha256 *c,
                     const char *op)
{
    memset(k, 0, sizeof *k);
    k->lock = -1;
    k->key = w ? w->key : NULL;
    qr_sha256_init(c);
    if (s->owner) { /* an owner's request is never another owner's (nor the admin's) */
        char scoped[32];
        snprintf(scoped, sizeof scoped, "owner:%s", op);
        req_str(c, scoped);
        req_str(c, s->owner);
    } else {
        req_str(c, op);
    }
}

/* create and import: version 1 of a new artifact, whose output is the
 * render's bytes, or file's when file is not NULL. */
static qr_status create_first(qr_store *s, qr_kind kind, const char *spec, size_t len,
                              const void *file, size_t size, const char *title, const char *id,
                              const char *owner, const qr_store_write *w, qr_store_result *res)
{
    keyed k;
    qr_sha256 c;
    key_init(s, &k, w, &c, file ? "import" : "create");
    req_int(&c, kind);
    req_str(&c, title);
    req_str(&c, id);
    req_str(&c, owner);
    req_add(&c, spec, spec ? len : 0);
    req_add(&c, file, file ? size : 0);
    req_done(&c, &k);
    char gen[17];
    if (!id) {
        qr_folder_new_id(gen);
        id = gen;
    }
    result_init(res, id);
    if (s->owner && owner && strcmp(owner, s->owner) != 0) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "",
                       "leave the owner out (the store's owner is used), or open the store for "
                       "that owner",
                       "the store is opened for another owner than the one given");
        return finish(res, QR_E_USAGE);
    }
    if (s->owner) owner = s->owner;
    if ((unsigned)kind >= QR_KIND_COUNT) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "unknown kind",
                       "use document, spreadsheet, presentation, pdf or html");
        return finish(res, QR_E_USAGE);
    }
    if (!qr_folder_id_new_valid(id)) {
        qr_errlist_addf(&res->errors, QR_E_USAGE, "",
                        "use 1 to 64 letters, digits, '_' or '-', starting with a letter or digit",
                        "invalid artifact id \"%.80s\"", id);
        return finish(res, QR_E_USAGE);
    }
    if (!spec) spec = "", len = 0;
    qr_status st = QR_OK;
    if (key_start(s, &k, res, &st)) {
        key_end(s, &k);
        return finish(res, st);
    }
    qr_buf canon = {0};
    st = canonical(spec, len, &canon, &res->errors);
    if (st != QR_OK) {
        key_end(s, &k);
        qr_buf_free(&canon);
        return finish(res, st);
    }
    qr_result rr;
    char *warn = NULL;
    st = render(s, kind, &canon, &rr, res);
    if (st == QR_OK) {
        char fname[128];
        qr_store_filename(kind, title, id, fname, sizeof fname);
        qr_folder_put put = {0};
        put.action = file ? "import" : "create";
        put.spec = canon.data;
        put.spec_len = canon.len;
        put.data = file ? file : rr.data;
        put.size = file ? size : rr.size;
        put.filename = fname;
        put.mime_type = qr_format_mime(qr_kind_format(kind));
        put.pages = rr.pages;
        warn = qr_folder_errs_json(&res->warnings);
        put.warnings = warn;
        put.key = k.key;
        put.key_request = k.req;
        qr_vrec rec;
        st = s->b->ops->create(s->b, id, qr_kind_name(kind), title && *title ? title : fname, owner,
                               &put, &rec, &res->errors);
        if (st == QR_OK) {
            version_from(&res->version, &rec);
            qr_vrec_free(&rec);
            res->kind = strdup(qr_kind_name(kind));
            res->title = strdup(title && *title ? title : fname);
            res->owner = strdup(owner ? owner : "default");
            res->head = 1;
        }
    }
    free(warn);
    qr_result_free(&rr);
    qr_buf_free(&canon);
    st = key_after(s, &k, res, st);
    key_end(s, &k);
    return finish(res, st);
}

qr_status qr_store_create(qr_store *s, qr_kind kind, const char *spec, size_t len,
                          const char *title, const char *id, const char *owner,
                          qr_store_result *res)
{
    return create_first(s, kind, spec, len, NULL, 0, title, id, owner, NULL, res);
}

qr_status qr_store_create_with(qr_store *s, qr_kind kind, const char *spec, size_t len,
                               const char *title, const char *id, const char *owner,
                               const qr_store_write *w, qr_store_result *res)
{
    return create_first(s, kind, spec, len, NULL, 0, title, id, owner, w, res);
}

qr_status qr_store_import(qr_store *s, qr_kind kind, const char *spec, size_t len, const void *file,
                          size_t size, const char *title, const char *id, const char *owner,
                          qr_store_result *res)
{
    return qr_store_import_with(s, kind, spec, len, file, size, title, id, owner, NULL, res);
}

qr_status qr_store_import_with(qr_store *s, qr_kind kind, const char *spec, size_t len,
                               const void *file, size_t size, const char *title, const char *id,
                               const char *owner, const qr_store_write *w, qr_store_result *res)
{
    if (!file) file = "", size = 0;
    return create_first(s, kind, spec, len, file, size, title, id, owner, w, res);
}

/* Validate, render and append new_spec (canonical) to an open transaction;
 * unchanged when it equals the head. */
static qr_status append_spec(qr_store *s, qr_sb_txn *t, const char *action, const qr_buf *canon,
                             const qr_buf *head_spec, const keyed *k, int *conflict,
                             qr_store_result *res)
{
    const qr_sb_ops *ops = s->b->ops;
    *conflict = 0;
    const qr_folder_meta *m = ops->txn_meta(t);
    meta_into(res, m);
    qr_kind kind;
    if (qr_kind_parse(m->kind, &kind) != 0)
        return qr_errlist_addf(&res->errors, QR_E_STORE, "", "run quire fsck",
                               "artifact \"%s\" has an unknown kind \"%s\"", m->id, m->kind);
    qr_buf head = {0};
    qr_status st = QR_OK;
    if (!head_spec) { /* the caller has not read it */
        st = ops->txn_spec(t, &head, &res->errors);
        head_spec = &head;
    }
    if (st != QR_OK) {
        qr_buf_free(&head);
        return st;
    }
    int same =
        head_spec->len == canon->len && memcmp(head_spec->data, canon->data, canon->len) == 0;
    qr_buf_free(&head);
    qr_vrec rec;
    if (same) {
        st = ops->version(s->b, m->id, m->head, &rec, &res->errors);
        if (st == QR_OK) {
            version_from(&res->version, &rec);
            qr_vrec_free(&rec);
            res->unchanged = 1;
        }
        return st;
    }
    qr_result rr;
    st = render(s, kind, canon, &rr, res);
    if (st == QR_OK) {
        qr_folder_put put = {0};
        put.action = action;
        put.spec = canon->data;
        put.spec_len = canon->len;
        put.data = rr.data;
        put.size = rr.size;
        put.pages = rr.pages;
        char *warn = qr_folder_errs_json(&res->warnings);
        put.warnings = warn;
        put.key = k->key;
        put.key_request = k->req;
        st = ops->commit(t, &put, &rec, conflict, &res->errors);
        free(warn);
        if (st == QR_OK && !*conflict) {
            version_from(&res->version, &rec);
            qr_vrec_free(&rec);
            res->head = rec.version;
        }
    }
    qr_result_free(&rr);
    return st;
}

/* Before another attempt of a write that lost the race: forget what the
 * last one gathered. Returns 1 when there were too many attempts. */
static int retry_reset(qr_store_result *res, const char *id, int attempt)
{
    qr_store_result_free(res);
    result_init(res, id);
    /* a short random pause before the next attempt, so writers that lost
     * together do not all render again at once (0 to 2^attempt ms, <= 16) */
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    unsigned cap = attempt < 4 ? 1u << attempt : 16u;
    unsigned us = (unsigned)((now.tv_nsec / 1000) ^ ((uintptr_t)res >> 4)) % (cap * 1000 + 1);
    struct timespec pause = {0, (long)us * 1000};
    nanosleep(&pause, NULL);
    if (attempt + 1 < MAX_ATTEMPTS) return 0;
    qr_errlist_add(&res->errors, QR_E_CONFLICT, "", "the artifact changed under every attempt",
                   "try again when fewer writers edit it");
    return 1;
}

/* The stored spelling of id (ids compare case-insensitively); invalid ids
 * are left for the call to refuse. */
static const char *resolve_id(qr_store *s, const char *id, char buf[65])
{
    if (!id || !qr_folder_id_valid(id)) return id;
    s->b->ops->resolve(s->b, id, buf);
    return buf;
}

/* The result's id as the store spells it, for a write that fails before
 * begin_head would have found it. */
static void resolved_into(qr_store *s, const char *id, qr_store_result *res)
{
    char rid[65];
    id = resolve_id(s, id, rid);
    if (id && strlen(id) < sizeof res->artifact_id) strcpy(res->artifact_id, id);
}

/* w's expected version against the head a write begins from (meta_into
 * has put it in res->head). */
static qr_status head_ok(const qr_folder_meta *m, const qr_store_write *w, qr_store_result *res)
{
    if (!w || w->if_version <= 0 || m->head == w->if_version) return QR_OK;
    return qr_store_head_conflict(&res->errors, m->id, m->head, w->if_version);
}

qr_status qr_store_edit(qr_store *s, const char *id, const char *patch, const char *append,
                        const char *ops, qr_store_result *res)
{
    return qr_store_edit_with(s, id, patch, append, ops, NULL, res);
}

qr_status qr_store_edit_with(qr_store *s, const char *id, const char *patch, const char *append,
                             const char *ops, const qr_store_write *w, qr_store_result *res)
{
    /* begin_head finds the stored spelling of id itself (a round trip less
     * on PostgreSQL); meta_into puts it in the result */
    result_init(res, id);
    qr_edit e = {0};
    e.patch = patch;
    e.patch_len = patch ? strlen(patch) : 0;
    e.append = append;
    e.append_len = append ? strlen(append) : 0;
    e.ops = ops;
    e.ops_len = ops ? strlen(ops) : 0;
    if (!patch && !append && !ops) {
        resolved_into(s, id, res);
        qr_buf none = {0};
        qr_status st = qr_edit_apply("{}", 2, &e, &none, &res->errors);
        return finish(res, st);
    }
    keyed k;
    qr_sha256 c;
    key_init(s, &k, w, &c, "edit");
    req_str(&c, id);
    req_int(&c, w ? w->if_version : 0);
    req_str(&c, patch);
    req_str(&c, append);
    req_str(&c, ops);
    req_done(&c, &k);
    qr_status st = QR_OK;
    if (key_start(s, &k, res, &st)) {
        key_end(s, &k);
        return finish(res, st);
    }
    for (int attempt = 0;; attempt++) {
        qr_sb_txn *t;
        if (attempt > 0 && key_check(s, &k, res, &st)) break;
        st = s->b->ops->begin_head(s->b, id, &t, &res->errors);
        if (st != QR_OK) break;
        const qr_folder_meta *m = s->b->ops->txn_meta(t);
        if (hidden(s, m)) {
            s->b->ops->end(t);
            st = gone(s, id, res);
            break;
        }
        meta_into(res, m);
        qr_buf head = {0}, canon = {0};
        int conflict = 0;
        st = head_ok(m, w, res);
        if (st == QR_OK) st = s->b->ops->txn_spec(t, &head, &res->errors);
        if (st == QR_OK)
            st = qr_edit_apply_canonical(head.data, head.len, &e, &canon, &res->errors);
        if (st == QR_OK) st = append_spec(s, t, "edit", &canon, &head, &k, &conflict, res);
        qr_buf_free(&head);
        qr_buf_free(&canon);
        s->b->ops->end(t);
        if (st != QR_OK || !conflict) break;
        if (retry_reset(res, id, attempt)) {
            st = QR_E_CONFLICT;
            break;
        }
    }
    st = key_after(s, &k, res, st);
    key_end(s, &k);
    return finish(res, st);
}

qr_status qr_store_rewrite(qr_store *s, const char *id, const char *spec, size_t len,
                           qr_store_result *res)
{
    return qr_store_rewrite_with(s, id, spec, len, NULL, res);
}

qr_status qr_store_rewrite_with(qr_store *s, const char *id, const char *spec, size_t len,
                                const qr_store_write *w, qr_store_result *res)
{
    result_init(res, id); /* the stored spelling: from begin_head, as in edit */
    if (!spec) spec = "", len = 0;
    keyed k;
    qr_sha256 c;
    key_init(s, &k, w, &c, "rewrite");
    req_str(&c, id);
    req_int(&c, w ? w->if_version : 0);
    req_add(&c, spec, len);
    req_done(&c, &k);
    qr_status st = QR_OK;
    if (key_start(s, &k, res, &st)) {
        key_end(s, &k);
        return finish(res, st);
    }
    qr_buf canon = {0};
    st = canonical(spec, len, &canon, &res->errors);
    if (st != QR_OK) {
        key_end(s, &k);
        resolved_into(s, id, res);
        qr_buf_free(&canon);
        return finish(res, st);
    }
    for (int attempt = 0;; attempt++) {
        qr_sb_txn *t;
        int conflict = 0;
        if (attempt > 0 && key_check(s, &k, res, &st)) break;
        st = s->b->ops->begin_head(s->b, id, &t, &res->errors);
        if (st != QR_OK) break;
        if (hidden(s, s->b->ops->txn_meta(t))) {
            s->b->ops->end(t);
            st = gone(s, id, res);
            break;
        }
        meta_into(res, s->b->ops->txn_meta(t));
        st = head_ok(s->b->ops->txn_meta(t), w, res);
        if (st == QR_OK) st = append_spec(s, t, "rewrite", &canon, NULL, &k, &conflict, res);
        s->b->ops->end(t);
        if (st != QR_OK || !conflict) break;
        if (retry_reset(res, id, attempt)) {
            st = QR_E_CONFLICT;
            break;
        }
    }
    st = key_after(s, &k, res, st);
    key_end(s, &k);
    qr_buf_free(&canon);
    return finish(res, st);
}

static qr_status restore_once(qr_store *s, const char *id, int n, const qr_store_write *w,
                              const keyed *k, int *conflict, qr_store_result *res)
{
    const qr_sb_ops *ops = s->b->ops;
    qr_sb_txn *t;
    qr_status st = ops->begin_head(s->b, id, &t, &res->errors);
    if (st != QR_OK) return st;
    const qr_folder_meta *m = ops->txn_meta(t);
    if (hidden(s, m)) {
        ops->end(t);
        return gone(s, id, res);
    }
    meta_into(res, m);
    qr_buf old = {0}, head = {0};
    qr_vrec orec = {0}, rec;
    st = head_ok(m, w, res);
    if (st == QR_OK) st = ops->version(s->b, m->id, n, &orec, &res->errors);
    if (st == QR_OK) st = ops->spec(s->b, m->id, n, &old, &res->errors);
    if (st == QR_OK) st = ops->txn_spec(t, &head, &res->errors);
    if (st == QR_OK && head.len == old.len && memcmp(head.data, old.data, old.len) == 0) {
        st = ops->version(s->b, m->id, m->head, &rec, &res->errors);
        if (st == QR_OK) {
            version_from(&res->version, &rec);
            qr_vrec_free(&rec);
            res->unchanged = 1;
        }
    } else if (st == QR_OK) {
        qr_folder_put put = {0};
        put.action = "restore";
        put.restored_from = n;
        put.spec = old.data;
        put.spec_len = old.len;
        put.sha256 = orec.sha256;
        put.size = (size_t)orec.size;
        put.pages = orec.pages;
        put.warnings = orec.warnings;
        put.key = k->key;
        put.key_request = k->req;
        st = ops->commit(t, &put, &rec, conflict, &res->errors);
        if (st == QR_OK && !*conflict) {
            version_from(&res->version, &rec);
            res->head = rec.version;
            qr_vrec_free(&rec);
        }
    }
    qr_vrec_free(&orec);
    qr_buf_free(&old);
    qr_buf_free(&head);
    ops->end(t);
    return st;
}

qr_status qr_store_restore(qr_store *s, const char *id, int n, qr_store_result *res)
{
    return qr_store_restore_with(s, id, n, NULL, res);
}

qr_status qr_store_restore_with(qr_store *s, const char *id, int n, const qr_store_write *w,
                                qr_store_result *res)
{
    result_init(res, id); /* the stored spelling: from begin_head, as in edit */
    if (n < 1) {
        resolved_into(s, id, res);
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "name a version from 1",
                       "qr_store_log() lists them");
        return finish(res, QR_E_USAGE);
    }
    keyed k;
    qr_sha256 c;
    key_init(s, &k, w, &c, "restore");
    req_str(&c, id);
    req_int(&c, w ? w->if_version : 0);
    req_int(&c, n);
    req_done(&c, &k);
    qr_status st = QR_OK;
    if (key_start(s, &k, res, &st)) {
        key_end(s, &k);
        return finish(res, st);
    }
    for (int attempt = 0;; attempt++) {
        int conflict = 0;
        if (attempt > 0 && key_check(s, &k, res, &st)) break;
        st = restore_once(s, id, n, w, &k, &conflict, res);
        if (st != QR_OK || !conflict) break;
        if (retry_reset(res, id, attempt)) {
            st = QR_E_CONFLICT;
            break;
        }
    }
    st = key_after(s, &k, res, st);
    key_end(s, &k);
    return finish(res, st);
}

/* The artifact's meta into res (id: the stored spelling; given: the
 * caller's, for the not_found of another owner's artifact or one where the
 * call does not look: trash 0 live ones, 1 those in the trash, -1 both). */
static qr_status read_meta_in(qr_store *s, const char *id, const char *given, int trash,
                              qr_store_result *res)
{
    qr_folder_meta m;
    qr_status st = s->b->ops->meta_load(s->b, id, &m, &res->errors);
    int in_trash = st == QR_OK && m.deleted[0];
    if (st == QR_OK && trash >= 0 && in_trash != trash) {
        qr_folder_meta_free(&m);
        return gone(s, given, res);
    }
    if (st == QR_OK) m.deleted[0] = '\0'; /* where the call looks: only the owner counts */
    if (st == QR_OK && hidden(s, &m)) {
        qr_folder_meta_free(&m);
        return gone(s, given, res);
    }
    if (st == QR_OK) {
        meta_into(res, &m);
        qr_folder_meta_free(&m);
    }
    return st;
}

/* read_meta_in of a live artifact (one in the trash is not found). */
static qr_status read_meta(qr_store *s, const char *id, const char *given, qr_store_result *res)
{
    return read_meta_in(s, id, given, 0, res);
}

/* What show and export start with: resolve id (into rid), read the
 * artifact's meta into res, then version n (0: the head) into res->version
 * and *rec (freed by the caller on QR_OK). */
static qr_status load_version(qr_store *s, const char **id, char rid[65], int n,
                              qr_store_result *res, qr_vrec *rec)
{
    const char *given = *id;
    *id = resolve_id(s, *id, rid);
    result_init(res, *id);
    qr_status st = read_meta(s, *id, given, res);
    if (st == QR_OK) st = s->b->ops->version(s->b, *id, n ? n : res->head, rec, &res->errors);
    if (st == QR_OK) version_from(&res->version, rec);
    return st;
}

qr_status qr_store_show(qr_store *s, const char *id, int n, qr_store_result *res)
{
    char rid[65];
    qr_vrec rec;
    qr_status st = load_version(s, &id, rid, n, res, &rec);
    if (st == QR_OK) {
        qr_vrec_free(&rec);
        qr_buf b = {0};
        st = s->b->ops->spec(s->b, id, res->version.version, &b, &res->errors);
        if (st == QR_OK) res->spec = qr_buf_steal(&b, &res->spec_len);
        qr_buf_free(&b);
    }
    return finish(res, st);
}

qr_status qr_store_log(qr_store *s, const char *id, qr_store_result *res)
{
    return qr_store_log_limit(s, id, 0, res);
}

qr_status qr_store_log_limit(qr_store *s, const char *id, int limit, qr_store_result *res)
{
    char rid[65];
    const char *given = id;
    id = resolve_id(s, id, rid);
    result_init(res, id);
    if (limit < 0) {
        qr_errlist_add(&res->errors, QR_E_USAGE, "", "the limit is a count of versions from 0",
                       NULL);
        return finish(res, QR_E_USAGE);
    }
    qr_status st = read_meta(s, id, given, res);
    qr_vrec *recs = NULL;
    size_t n = 0;
    int head = res->head;
    int from = limit && head > limit ? head - limit + 1 : 1;
    if (st == QR_OK) st = s->b->ops->log(s->b, id, from, &recs, &n, &res->errors);
    if (st == QR_OK) {
        res->log = calloc(n ? n : 1, sizeof *res->log);
        if (!res->log) st = qr_errlist_add(&res->errors, QR_E_NOMEM, "", "out of memory", NULL);
        for (size_t i = 0; res->log && i < n; i++)
            version_from(&res->log[i], &recs[i]);
        if (res->log) res->log_count = n;
        if (n) version_from(&res->version, &recs[n - 1]);
        res->head = n ? recs[n - 1].version : head;
    }
    for (size_t i = 0; i < n; i++)
        qr_vrec_free(&recs[i]);
    free(recs);
    return finish(res, st);
}

qr_status qr_store_delete(qr_store *s, const char *id, qr_store_result *res)
{
    return qr_store_delete_with(s, id, NULL, res);
}

/* delete (to the trash), undelete (out of it) and purge_artifact (at once). */
enum { TO_TRASH, FROM_TRASH, PURGE_NOW };

static qr_status trash_op(qr_store *s, const char *id, const qr_store_write *w, int op,
                          qr_store_result *res)
{
    static const char *const names[] = {"delete", "undelete", "purge"};
    char rid[65];
    const char *given = id;
    int ifv = w && w->if_version > 0 ? w->if_version : 0;
    keyed k;
    qr_sha256 c;
    key_init(s, &k, w, &c, names[op]);
    req_str(&c, id);
    req_int(&c, ifv);
    req_done(&c, &k);
    id = resolve_id(s, id, rid);
    result_init(res, id);
    qr_status st = QR_OK;
    /* the key first: a repeated delete answers as the first did, not
     * not_found; the folder store holds the key's lock to the commit */
    if (key_start(s, &k, res, &st)) {
        key_end(s, &k);
        return finish(res, st);
    }
    st = read_meta_in(s, id, given, op == TO_TRASH ? 0 : op == FROM_TRASH ? 1 : -1, res);
    if (st == QR_OK && op == PURGE_NOW)
        st = s->b->ops->remove(s->b, id, ifv, NULL, k.key, k.req, &res->errors);
    else if (st == QR_OK)
        st = s->b->ops->trash(s->b, id, ifv, op == FROM_TRASH, k.key, k.req, &res->errors);
    st = key_after(s, &k, res, st);
    key_end(s, &k);
    return finish(res, st);
}

qr_status qr_store_delete_with(qr_store *s, const char *id, const qr_store_write *w,
                               qr_store_result *res)
{
    return trash_op(s, id, w, TO_TRASH, res);
}

qr_status qr_store_undelete_with(qr_store *s, const char *id, const qr_store_write *w,
                                 qr_store_result *res)
{
    return trash_op(s, id, w, FROM_TRASH, res);
}

qr_status qr_store_purge_artifact(qr_store *s, const char *id, const qr_store_write *w,
                                  qr_store_result *res)
{
    return trash_op(s, id, w, PURGE_NOW, res);
}

qr_status qr_store_purge(qr_store *s, qr_store_purge_report *out)
{
    memset(out, 0, sizeof *out);
    if (s->owner) return out->status = admin_only(s, &out->errors, "purging the trash");
    long long keep = s->o.trash_retention < 0 ? 0 : s->o.trash_retention;
    qr_folder_opts clock = {0};
    if (s->o.now) clock.now = call_clock, clock.now_arg = s;
    qr_store_time(&clock, -keep, out->cutoff);
    qr_sb_item *items = NULL;
    size_t n = 0;
    char next[QR_SB_CURSOR];
    qr_status st = s->b->ops->list(s->b, NULL, NULL, 1, NULL, 0, &items, &n, next, &out->errors);
    for (size_t i = 0; st == QR_OK && i < n; i++) {
        if (strcmp(items[i].deleted, out->cutoff) > 0) {
            out->kept++;
            continue;
        }
        qr_errlist errs = {0};
        qr_status r = s->b->ops->remove(s->b, items[i].id, 0, out->cutoff, NULL, NULL, &errs);
        if (r == QR_OK)
            out->purged++;
        else if (r != QR_E_NOT_FOUND) /* not found: taken out of the trash, or purged, meanwhile */
            st = r, qr_errlist_move(&out->errors, &errs);
        qr_errlist_clear(&errs);
    }
    qr_sb_items_free(items, n);
    free(items);
    return out->status = st;
}

void qr_store_purge_free(qr_store_purge_report *r)
{
    if (!r) return;
    qr_errlist_clear(&r->errors);
    memset(r, 0, sizeof *r);
}

static qr_status list_in(qr_store *s, const char *owner, const char *kind, int trash,
                         const char *cursor, size_t limit, qr_store_list_result *out);

qr_status qr_store_list(qr_store *s, const char *owner, const char *kind, const char *cursor,
                        size_t limit, qr_store_list_result *out)
{
    return list_in(s, owner, kind, 0, cursor, limit, out);
}

qr_status qr_store_list_trash(qr_store *s, const char *owner, const char *kind, const char *cursor,
                              size_t limit, qr_store_list_result *out)
{
    return list_in(s, owner, kind, 1, cursor, limit, out);
}

static qr_status list_in(qr_store *s, const char *owner, const char *kind, int trash,
                         const char *cursor, size_t limit, qr_store_list_result *out)
{
    memset(out, 0, sizeof *out);
    if (owner && !qr_folder_owner_valid(owner)) {
        out->status = qr_folder_bad_owner(&out->errors, owner);
        return out->status;
    }
    if (s->owner && owner && strcmp(owner, s->owner) != 0) {
        /* another owner's artifacts do not exist for this store */
        out->items = calloc(1, sizeof *out->items);
        if (!out->items)
            return out->status =
                       qr_errlist_add(&out->errors, QR_E_NOMEM, "", "out of memory", NULL);
        return out->status = QR_OK;
    }
    if (s->owner) owner = s->owner;
    qr_kind k;
    if (kind && qr_kind_parse(kind, &k) != 0) {
        out->status = qr_errlist_addf(&out->errors, QR_E_USAGE, "",
                                      "use document, spreadsheet, presentation, pdf or html",
                                      "unknown kind \"%.40s\"", kind);
        return out->status;
    }
    qr_sb_item *items = NULL;
    size_t n = 0;
    char next[QR_SB_CURSOR];
    qr_status st =
        s->b->ops->list(s->b, owner, kind, trash, cursor, limit, &items, &n, next, &out->errors);
    if (st == QR_OK) {
        out->items = calloc(n ? n : 1, sizeof *out->items);
        if (!out->items) st = qr_errlist_add(&out->errors, QR_E_NOMEM, "", "out of memory", NULL);
        for (size_t i = 0; out->items && i < n; i++) {
            qr_store_item *it = &out->items[i];
            memcpy(it->artifact_id, items[i].id, sizeof it->artifact_id);
            it->kind = items[i].kind, it->title = items[i].title, it->owner = items[i].owner;
            items[i].kind = items[i].title = items[i].owner = NULL;
            snprintf(it->created, sizeof it->created, "%s",
                     items[i].created ? items[i].created : "");
            it->head = items[i].head;
            memcpy(it->deleted, items[i].deleted, sizeof it->deleted);
        }
        if (out->items) out->count = n;
        snprintf(out->next, sizeof out->next, "%s", next);
    }
    qr_sb_items_free(items, n);
    free(items);
    out->status = st;
    return st;
}

void qr_store_list_free(qr_store_list_result *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->count; i++) {
        free(r->items[i].kind);
        free(r->items[i].title);
        free(r->items[i].owner);
    }
    free(r->items);
    qr_errlist_clear(&r->errors);
    memset(r, 0, sizeof *r);
}

qr_status qr_store_export(qr_store *s, const char *id, int n, qr_store_result *res)
{
    char rid[65];
    qr_vrec rec;
    qr_status st = load_version(s, &id, rid, n, res, &rec);
    if (st == QR_OK) {
        qr_buf b = {0};
        st = s->b->ops->blob(s->b, rec.sha256, &b, &res->errors);
        if (st == QR_OK) {
            size_t len;
            res->data = (unsigned char *)qr_buf_steal(&b, &len);
            res->size = len;
        }
        qr_buf_free(&b);
        qr_vrec_free(&rec);
    }
    return finish(res, st);
}

qr_status qr_store_diff_versions(qr_store *s, const char *id, int a, int b, qr_store_diff *out)
{
    char rid[65];
    const char *given = id;
    id = resolve_id(s, id, rid);
    memset(out, 0, sizeof *out);
    out->from = a;
    out->to = b;
    qr_buf ta = {0}, tb = {0};
    qr_status st = QR_OK;
    if (qr_folder_id_valid(id)) { /* only live artifacts (of the owner) are there */
        qr_store_result mr;
        result_init(&mr, id);
        st = read_meta(s, id, given, &mr);
        if (st != QR_OK) qr_errlist_move(&out->errors, &mr.errors);
        qr_store_result_free(&mr);
    }
    if (st == QR_OK && (a < 1 || b < 1))
        st = qr_errlist_add(&out->errors, QR_E_USAGE, "", "versions are numbered from 1",
                            "qr_store_log() lists them");
    if (st == QR_OK) st = s->b->ops->spec(s->b, id, a, &ta, &out->errors);
    if (st == QR_OK) st = s->b->ops->spec(s->b, id, b, &tb, &out->errors);
    if (st == QR_OK) {
        char na[32], nb[32];
        snprintf(na, sizeof na, "v%06d.json", a);
        snprintf(nb, sizeof nb, "v%06d.json", b);
        qr_spec_diff d;
        st = qr_spec_diff_texts(ta.data, ta.len, tb.data, tb.len, na, nb, &d, &out->errors);
        if (st == QR_OK) {
            out->added = d.added, out->n_added = d.n_added;
            out->removed = d.removed, out->n_removed = d.n_removed;
            out->changed = d.changed, out->n_changed = d.n_changed;
            size_t ulen;
            if (!d.unified.data) qr_buf_puts(&d.unified, "");
            out->unified = qr_buf_steal(&d.unified, &ulen);
        }
    }
    qr_buf_free(&ta);
    qr_buf_free(&tb);
    out->status = st;
    return st;
}

void qr_store_diff_free(qr_store_diff *d)
{
    if (!d) return;
    qr_spec_diff sd = {0};
    sd.added = d->added, sd.n_added = d->n_added;
    sd.removed = d->removed, sd.n_removed = d->n_removed;
    sd.changed = d->changed, sd.n_changed = d->n_changed;
    qr_spec_diff_free(&sd);
    free(d->unified);
    qr_errlist_clear(&d->errors);
    memset(d, 0, sizeof *d);
}

qr_status qr_store_fsck_run(qr_store *s, int repair, qr_store_fsck *out)
{
    memset(out, 0, sizeof *out);
    if (s->owner) return out->status = admin_only(s, &out->problems, "fsck");
    qr_folder_fsck rep;
    qr_status st = s->b->ops->check(s->b, repair, &rep);
    out->status = st;
    out->artifacts = rep.artifacts;
    out->versions = rep.versions;
    out->blobs = rep.blobs;
    out->repaired = rep.repaired;
    out->problems = rep.problems;
    out->stray = rep.stray;
    out->trashed = rep.trashed;
    return st;
}

void qr_store_fsck_free(qr_store_fsck *r)
{
    if (!r) return;
    qr_errlist_clear(&r->problems);
    qr_errlist_clear(&r->stray);
    memset(r, 0, sizeof *r);
}

/* ---- per-owner quotas ------------------------------------------------------------- */

qr_status qr_store_quota_get(qr_store *s, const char *owner, qr_store_quota *out)
{
    memset(out, 0, sizeof *out);
    if (!owner) owner = s->owner ? s->owner : "default";
    if (s->owner && strcmp(owner, s->owner) != 0)
        return out->status = admin_only(s, &out->errors, "another owner's quota");
    qr_quota_rec q;
    qr_status st = s->b->ops->quota_get(s->b, owner, &q, &out->errors);
    if (st == QR_OK) {
        out->own_artifacts = q.has_artifacts;
        out->own_bytes = q.has_bytes;
        out->max_artifacts = q.has_artifacts ? q.max_artifacts : s->o.max_artifacts;
        out->max_bytes = q.has_bytes ? q.max_bytes : s->o.max_total_bytes;
        out->artifacts = q.artifacts;
        out->bytes = q.bytes;
    }
    return out->status = st;
}

qr_status qr_store_quota_set(qr_store *s, const char *owner, long long max_artifacts,
                             long long max_bytes, qr_store_quota *out)
{
    memset(out, 0, sizeof *out);
    if (s->owner) return out->status = admin_only(s, &out->errors, "setting a quota");
    if (!owner)
        return out->status = qr_errlist_add(&out->errors, QR_E_USAGE, "", "name the owner",
                                            "a quota is set for one owner");
    if (max_artifacts < QR_QUOTA_DEFAULT || max_bytes < QR_QUOTA_DEFAULT)
        return out->status =
                   qr_errlist_add(&out->errors, QR_E_USAGE, "",
                                  "a limit is a count from 0 (0: none)", "invalid quota limit");
    qr_status st = s->b->ops->quota_set(s->b, owner, max_artifacts, max_bytes, &out->errors);
    if (st != QR_OK) return out->status = st;
    qr_store_quota_free(out);
    return qr_store_quota_get(s, owner, out);
}

void qr_store_quota_free(qr_store_quota *q)
{
    if (!q) return;
    qr_errlist_clear(&q->errors);
    memset(q, 0, sizeof *q);
}

/* ---- copy ---------------------------------------------------------------------------- */

static int same_log(const qr_vrec *a, size_t na, const qr_vrec *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].version != b[i].version || strcmp(a[i].sha256, b[i].sha256) ||
            strcmp(a[i].spec_sha256, b[i].spec_sha256) || a[i].size != b[i].size ||
            strcmp(a[i].action, b[i].action) || a[i].parent != b[i].parent)
            return 0;
    return 1;
}

static void free_log(qr_vrec *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        qr_vrec_free(&v[i]);
    free(v);
}

/* Copy one artifact's versions (recs, n) from src to dst. */
static qr_status copy_one(qr_store *src, qr_store *dst, const qr_folder_meta *m,
                          const qr_vrec *recs, size_t n, qr_errlist *errs)
{
    const qr_sb_ops *so = src->b->ops, *dop = dst->b->ops;
    qr_status st = QR_OK;
    for (size_t i = 0; st == QR_OK && i < n; i++) {
        const qr_vrec *r = &recs[i];
        qr_buf spec = {0}, data = {0};
        st = so->spec(src->b, m->id, r->version, &spec, errs);
        if (st == QR_OK) st = so->blob(src->b, r->sha256, &data, errs);
        qr_folder_put put = {0};
        put.action = r->action;
        put.restored_from = r->restored_from;
        put.spec = spec.data ? spec.data : "";
        put.spec_len = spec.len;
        put.data = data.data ? data.data : "";
        put.size = data.len;
        put.filename = r->filename;
        put.mime_type = r->mime_type;
        put.pages = r->pages;
        put.warnings = r->warnings;
        put.created = r->created;
        qr_vrec out;
        if (st == QR_OK && i == 0) {
            st = dop->create(dst->b, m->id, m->kind, m->title, m->owner, &put, &out, errs);
            if (st == QR_OK) qr_vrec_free(&out);
        } else if (st == QR_OK) {
            qr_sb_txn *t;
            int conflict = 0;
            st = dop->begin(dst->b, m->id, &t, errs);
            if (st == QR_OK) {
                if (dop->txn_meta(t)->head != r->version - 1)
                    st = qr_errlist_addf(errs, QR_E_STORE, "", NULL,
                                         "artifact \"%s\" changed in the target during the copy",
                                         m->id);
                if (st == QR_OK) st = dop->commit(t, &put, &out, &conflict, errs);
                if (st == QR_OK && !conflict) qr_vrec_free(&out);
                if (st == QR_OK && conflict)
                    st = qr_errlist_addf(errs, QR_E_STORE, "", NULL,
                                         "artifact \"%s\" changed in the target during the copy",
                                         m->id);
                dop->end(t);
            }
        }
        qr_buf_free(&spec);
        qr_buf_free(&data);
    }
    return st;
}

qr_status qr_store_copy(qr_store *from, qr_store *to, qr_store_copy_report *out)
{
    memset(out, 0, sizeof *out);
    qr_errlist *errs = &out->errors;
    if (from->owner || to->owner) {
        out->status = admin_only(from->owner ? from : to, errs, "copy");
        return out->status;
    }
    qr_sb_item *items = NULL;
    size_t n = 0;
    char next[QR_SB_CURSOR];
    qr_status st = from->b->ops->list(from->b, NULL, NULL, -1, NULL, 0, &items, &n, next, errs);
    /* oldest first, so the target lists them in the same order */
    for (size_t k = n; st == QR_OK && k-- > 0;) {
        const char *id = items[k].id;
        qr_folder_meta m;
        qr_vrec *src = NULL, *dst = NULL;
        size_t ns = 0, nd = 0;
        st = from->b->ops->meta_load(from->b, id, &m, errs);
        if (st != QR_OK) break;
        st = from->b->ops->log(from->b, id, 1, &src, &ns, errs);
        qr_errlist probe = {0};
        int exists = st == QR_OK && to->b->ops->log(to->b, id, 1, &dst, &nd, &probe) == QR_OK;
        qr_errlist_clear(&probe);
        if (st == QR_OK && exists) {
            if (same_log(src, ns, dst, nd))
                out->skipped++;
            else
                st = qr_errlist_addf(errs, QR_E_USAGE, "", "copy into an empty store",
                                     "the target already holds artifact \"%s\", with other "
                                     "versions",
                                     id);
        } else if (st == QR_OK) {
            st = copy_one(from, to, &m, src, ns, errs);
            free_log(dst, nd);
            dst = NULL;
            nd = 0;
            if (st == QR_OK) st = to->b->ops->log(to->b, id, 1, &dst, &nd, errs);
            if (st == QR_OK && !same_log(src, ns, dst, nd))
                st = qr_errlist_addf(errs, QR_E_STORE, "", NULL,
                                     "artifact \"%s\" reads back different from the target", id);
            /* one in the trash goes to the target's trash (since the copy) */
            if (st == QR_OK && items[k].deleted[0])
                st = to->b->ops->trash(to->b, id, 0, 0, NULL, NULL, errs);
            if (st == QR_OK) {
                out->artifacts++;
                out->versions += ns;
            }
        }
        free_log(src, ns);
        free_log(dst, nd);
        qr_folder_meta_free(&m);
    }
    qr_sb_items_free(items, n);
    free(items);
    out->status = st;
    return st;
}

void qr_store_copy_free(qr_store_copy_report *r)
{
    if (!r) return;
    qr_errlist_clear(&r->errors);
    memset(r, 0, sizeof *r);
}

/* ---- the edit engine on its own ---------------------------------------------------- */

int qr_store_abi(void)
{
    return QR_STORE_ABI;
}

/* Validate canon (canonical text) as kind into errors. */
static qr_status validate(const qr_buf *canon, qr_kind kind, qr_errlist *errors)
{
    qr_result rr;
    qr_status st = qr_check(canon->data, canon->len, kind, &rr);
    if (st != QR_OK) qr_errlist_move(errors, &rr.errors);
    qr_result_free(&rr);
    return st;
}

qr_status qr_spec_canonical(const char *spec, size_t len, int kind, char **out, size_t *out_len,
                            qr_errlist *errors)
{
    *out = NULL;
    *out_len = 0;
    if (kind >= QR_KIND_COUNT)
        return qr_errlist_add(errors, QR_E_USAGE, "", "unknown kind",
                              "use document, spreadsheet, presentation, pdf or html");
    qr_buf canon = {0};
    qr_status st = canonical(spec ? spec : "", spec ? len : 0, &canon, errors);
    if (st == QR_OK && kind >= 0) st = validate(&canon, (qr_kind)kind, errors);
    if (st == QR_OK) {
        if (!canon.data) qr_buf_puts(&canon, "");
        *out = qr_buf_steal(&canon, out_len);
    }
    qr_buf_free(&canon);
    return st;
}

qr_status qr_spec_edit(const char *spec, size_t len, qr_kind kind, const char *patch,
                       const char *append, const char *ops, char **out, size_t *out_len,
                       qr_errlist *errors)
{
    *out = NULL;
    *out_len = 0;
    if ((unsigned)kind >= QR_KIND_COUNT)
        return qr_errlist_add(errors, QR_E_USAGE, "", "unknown kind",
                              "use document, spreadsheet, presentation, pdf or html");
    qr_edit e = {0};
    e.patch = patch;
    e.patch_len = patch ? strlen(patch) : 0;
    e.append = append;
    e.append_len = append ? strlen(append) : 0;
    e.ops = ops;
    e.ops_len = ops ? strlen(ops) : 0;
    qr_buf base = {0}, edited = {0}, canon = {0};
    qr_status st = canonical(spec ? spec : "", spec ? len : 0, &base, errors);
    if (st == QR_OK) st = qr_edit_apply(base.data, base.len, &e, &edited, errors);
    if (st == QR_OK) st = qr_canonical(edited.data, edited.len, &canon, errors);
    if (st == QR_OK) st = validate(&canon, kind, errors);
    if (st == QR_OK) *out = qr_buf_steal(&canon, out_len);
    qr_buf_free(&base);
    qr_buf_free(&edited);
    qr_buf_free(&canon);
    return st;
}
