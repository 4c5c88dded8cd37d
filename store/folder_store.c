/* folder_store.c: the folder store (folder_store.h): artifacts, versions, blobs, owner
 * quotas, reads and fsck. Layout, crash-safety and locking rules are in
 * store.h. Lock order: artifact lock, then owner lock (create takes only the
 * owner lock, its artifact being invisible until renamed into place). */
#include "folder_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compile.h"
#include "sha256.h"
#include "store_int.h"

#define HEAD_CACHE_EVERY 16
/* No meta.json, .meta or ledger is near this; a bigger one is damage. */
#define META_CAP (1ull << 20)

struct qr_folder {
    int root, blobs, owners;
    /* 1 once keys_ready() found the key index complete for this boot
     * (set once; a boot outlives the process) */
    atomic_int keys_ok;
    qr_folder_opts o;
    char *path; /* the folder, absolute when it could be resolved: for messages */
};

static void drop_blob_if_unused(qr_folder *f, const char *sha);
static void remove_flat_dir(int parent, const char *name);

struct qr_folder_txn {
    qr_folder *f;
    int dir, lock;
    qr_folder_meta meta;
};

void qr_folder_opts_default(qr_folder_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_artifacts = 5000;
    o->max_total_bytes = 5ull << 30;
    o->max_version_bytes = 50ull << 20;
}

int qr_folder_id_valid(const char *id)
{
    if (!id) return 0;
    size_t n = 0;
    for (const char *p = id; *p; p++, n++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return 0;
    }
    return n >= 1 && n <= 64;
}

int qr_folder_id_new_valid(const char *id)
{
    if (!qr_folder_id_valid(id)) return 0;
    char c = id[0];
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The name of an entry of the store's root matching id in another case, into
 * out; 0 when there is none. */
static int find_case(qr_folder *f, const char *id, char out[65])
{
    int fd = dup(f->root);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return 0;
    }
    rewinddir(d);
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d)))
        if (qr_folder_id_valid(e->d_name) && strcasecmp(e->d_name, id) == 0) {
            size_t n = strlen(e->d_name); /* <= 64: a valid id */
            memcpy(out, e->d_name, n + 1);
            found = 1;
        }
    closedir(d);
    return found;
}

void qr_folder_resolve(qr_folder *f, const char *id, char out[65])
{
    struct stat st;
    snprintf(out, 65, "%s", id ? id : "");
    if (!qr_folder_id_valid(id) || fstatat(f->root, id, &st, AT_SYMLINK_NOFOLLOW) == 0) return;
    find_case(f, id, out);
}

int qr_folder_owner_valid(const char *owner)
{
    if (!owner || !*owner || strlen(owner) > 256) return 0;
    const unsigned char *p = (const unsigned char *)owner;
    while (*p) {
        unsigned c = *p, cp;
        int len = c < 0x80             ? 1
                  : (c & 0xE0) == 0xC0 ? 2
                  : (c & 0xF0) == 0xE0 ? 3
                  : (c & 0xF8) == 0xF0 ? 4
                                       : 0;
        if (!len) return 0;
        cp = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
        for (int i = 1; i < len; i++) {
            if ((p[i] & 0xC0) != 0x80) return 0;
            cp = (cp << 6) | (p[i] & 0x3F);
        }
        static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return 0; /* control characters */
        p += len;
    }
    return 1;
}

qr_status qr_folder_bad_owner(qr_errlist *errs, const char *owner)
{
    size_t n = owner ? strlen(owner) : 0;
    return qr_errlist_addf(errs, QR_E_USAGE, "",
                           "an owner is 1 to 256 bytes of UTF-8 without control characters",
                           "invalid owner (%zu bytes)", n);
}

void qr_folder_owner_file(const char *owner, char out[72])
{
    if (qr_folder_id_valid(owner)) {
        snprintf(out, 72, "%s", owner);
        return;
    }
    out[0] = '~'; /* never an id: no clash with owners named like one */
    qr_sha256_hex(owner, strlen(owner), out + 1);
}

int qr_folder_new_id(char out[17])
{
    qr_random_hex(out);
    return 0;
}

/* The fsyncs to do: want, unless the store was opened with no_sync. Per
 * version: the ledger file, a new blob and its folder, the spec file, the
 * .meta file and the artifact folder (which makes both renames durable;
 * ext4 and xfs journal the two renames of one folder in order). */
/* The cap of a version's spec or blob read: the version limit (a file over
 * it was never written by quire), 4 GiB when the limit is off. */
static unsigned long long vcap(const qr_folder *f)
{
    return f->o.max_version_bytes ? f->o.max_version_bytes : 4ull << 30;
}

static int sync_on(const qr_folder *f, int want)
{
    return f->o.no_sync ? 0 : want;
}

static qr_status io_error(qr_errlist *errs, const char *path, const char *what)
{
    int e = errno;
    const char *hint = e == ENOSPC || e == EDQUOT
                           ? "the disk holding the store is full: free space on it, then try again"
                       : e == EACCES || e == EPERM || e == EROFS
                           ? "check the store folder's permissions"
                           : "check the store folder's permissions and free space";
    return qr_errlist_addf(errs, QR_E_IO, path, hint, "%s: %s", what, strerror(e));
}

static int exists_at(int dirfd, const char *name)
{
    struct stat st;
    return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

static void vname(char *buf, size_t n, int v, const char *ext)
{
    snprintf(buf, n, "v%06d.%s", v, ext);
}

qr_status qr_folder_open(const char *path, const qr_folder_opts *opts, qr_folder **out,
                         qr_errlist *errs)
{
    *out = NULL;
    if (!path || !*path)
        return qr_errlist_add(errs, QR_E_USAGE, "", "the store path is empty", NULL);
    if (opts && opts->no_create) {
        struct stat st;
        char blobs[PATH_MAX];
        snprintf(blobs, sizeof blobs, "%s/blobs", path);
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) || stat(blobs, &st) != 0 ||
            !S_ISDIR(st.st_mode))
            return qr_errlist_addf(errs, QR_E_NOT_FOUND, "", QR_STORE_MISSING_HINT,
                                   "no store at %.400s (a store is a folder holding blobs/)", path);
    } else if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        return io_error(errs, "", "cannot create the store folder");
    }
    qr_folder *f = calloc(1, sizeof *f);
    if (!f) return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    if (opts)
        f->o = *opts;
    else
        qr_folder_opts_default(&f->o);
    f->root = f->blobs = f->owners = -1;
    f->path = realpath(path, NULL);
    if (!f->path) f->path = strdup(path);
    if (!f->path) {
        free(f);
        return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    f->root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (f->root < 0) goto fail;
    if (mkdirat(f->root, "blobs", 0755) != 0 && errno != EEXIST) goto fail;
    if (mkdirat(f->root, ".owners", 0755) != 0 && errno != EEXIST) goto fail;
    f->blobs = openat(f->root, "blobs", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    f->owners = openat(f->root, ".owners", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (f->blobs < 0 || f->owners < 0) goto fail;
    *out = f;
    return QR_OK;
fail:
    io_error(errs, "", "cannot open the store folder");
    qr_folder_close(f);
    return QR_E_IO;
}

void qr_folder_close(qr_folder *f)
{
    if (!f) return;
    if (f->root >= 0) close(f->root);
    if (f->blobs >= 0) close(f->blobs);
    if (f->owners >= 0) close(f->owners);
    free(f->path);
    free(f);
}

/* ---- JSON records ------------------------------------------------------------ */

static char *dup_str(const char *s)
{
    return s ? strdup(s) : NULL;
}

void qr_folder_meta_free(qr_folder_meta *m)
{
    if (!m) return;
    free(m->kind);
    free(m->title);
    free(m->owner);
    free(m->filename);
    free(m->mime_type);
    free(m->created);
    memset(m, 0, sizeof *m);
}

void qr_vrec_free(qr_vrec *r)
{
    if (!r) return;
    free(r->filename);
    free(r->mime_type);
    free(r->warnings);
    r->filename = r->mime_type = r->warnings = NULL;
}

char *qr_folder_errs_json(const qr_errlist *l)
{
    json_t *a = json_array();
    for (size_t i = 0; a && l && i < l->count; i++) {
        const qr_error *e = &l->items[i];
        json_t *o = json_object();
        json_object_set_new(o, "path", json_string(e->path ? e->path : ""));
        json_object_set_new(o, "message", json_string(e->message ? e->message : ""));
        json_object_set_new(o, "hint", e->hint ? json_string(e->hint) : json_null());
        json_array_append_new(a, o);
    }
    char *s = a ? qr_json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(a);
    return s;
}

static int dump_to(int dirfd, const char *name, json_t *j, int sync)
{
    char *s = qr_json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!s) {
        errno = ENOMEM;
        return -1;
    }
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        errno = ENOMEM;
        return -1;
    }
    t[n] = '\n';
    t[n + 1] = '\0';
    int rc = qr_atomic_write_file(dirfd, name, t, n + 1, sync);
    free(t);
    return rc;
}

static int meta_write(int dirfd, const qr_folder_meta *m, int sync)
{
    json_t *j =
        json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:i}", "id", m->id, "kind", m->kind, "title",
                  m->title ? m->title : "", "owner", m->owner, "filename", m->filename, "mime_type",
                  m->mime_type, "created", m->created, "head", m->head);
    if (!j) {
        errno = ENOMEM;
        return -1;
    }
    int rc = dump_to(dirfd, "meta.json", j, sync);
    json_decref(j);
    return rc;
}

static const char *jstr(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static int meta_parse(const char *text, size_t len, qr_folder_meta *m)
{
    memset(m, 0, sizeof *m);
    json_t *j = json_loadb(text, len, 0, NULL);
    if (!json_is_object(j)) {
        json_decref(j);
        return -1;
    }
    const char *id = jstr(j, "id");
    json_t *head = json_object_get(j, "head");
    /* id and owner name files (owner ledgers and locks): a damaged meta.json
     * must not lead a writer or fsck out of the store. */
    int ok = qr_folder_id_valid(id) && jstr(j, "kind") && qr_folder_owner_valid(jstr(j, "owner")) &&
             jstr(j, "filename") && jstr(j, "mime_type") && json_is_integer(head);
    if (ok) {
        snprintf(m->id, sizeof m->id, "%s", id);
        m->kind = dup_str(jstr(j, "kind"));
        m->title = dup_str(jstr(j, "title") ? jstr(j, "title") : "");
        m->owner = dup_str(jstr(j, "owner"));
        m->filename = dup_str(jstr(j, "filename"));
        m->mime_type = dup_str(jstr(j, "mime_type"));
        m->created = dup_str(jstr(j, "created") ? jstr(j, "created") : "");
        m->head = (int)json_integer_value(head);
    }
    json_decref(j);
    if (ok && !(m->kind && m->title && m->owner && m->filename && m->mime_type && m->created))
        ok = 0;
    if (!ok) qr_folder_meta_free(m);
    return ok ? 0 : -1;
}

static int vrec_write(int dirfd, const qr_vrec *r, int sync)
{
    json_t *j = json_object();
    json_object_set_new(j, "version", json_integer(r->version));
    json_object_set_new(j, "action", json_string(r->action));
    json_object_set_new(j, "parent", r->parent ? json_integer(r->parent) : json_null());
    if (r->restored_from) json_object_set_new(j, "restored_from", json_integer(r->restored_from));
    json_object_set_new(j, "created", json_string(r->created));
    json_object_set_new(j, "spec_sha256", json_string(r->spec_sha256));
    json_object_set_new(j, "spec_size", json_integer((json_int_t)r->spec_size));
    json_t *o = json_pack("{s:s, s:I, s:s, s:s}", "sha256", r->sha256, "size", (json_int_t)r->size,
                          "name", r->filename, "mime_type", r->mime_type);
    json_object_set_new(j, "output", o);
    json_object_set_new(j, "pages", json_integer(r->pages));
    json_t *w = r->warnings ? json_loads(r->warnings, 0, NULL) : NULL;
    json_object_set_new(j, "warnings", json_is_array(w) ? w : json_array());
    if (w && !json_is_array(w)) json_decref(w);
    if (r->key_sha256[0])
        json_object_set_new(
            j, "key", json_pack("{s:s, s:s}", "sha256", r->key_sha256, "request", r->key_request));
    char name[32];
    vname(name, sizeof name, r->version, "meta");
    int rc = o ? dump_to(dirfd, name, j, sync) : -1;
    json_decref(j);
    return rc;
}

static int is_hex64(const char *s)
{
    if (!s || strlen(s) != 64) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))) return 0;
    return 1;
}

static int vrec_parse(const char *text, size_t len, qr_vrec *r)
{
    memset(r, 0, sizeof *r);
    json_t *j = json_loadb(text, len, 0, NULL);
    json_t *o = json_object_get(j, "output");
    int ok = json_is_object(j) && json_is_integer(json_object_get(j, "version")) &&
             jstr(j, "action") && strlen(jstr(j, "action")) < sizeof r->action &&
             jstr(j, "created") && strlen(jstr(j, "created")) < sizeof r->created &&
             is_hex64(jstr(j, "spec_sha256")) && json_is_integer(json_object_get(j, "spec_size")) &&
             json_is_object(o) && is_hex64(jstr(o, "sha256")) &&
             json_is_integer(json_object_get(o, "size")) && jstr(o, "name") && jstr(o, "mime_type");
    if (ok) {
        r->version = (int)json_integer_value(json_object_get(j, "version"));
        snprintf(r->action, sizeof r->action, "%s", jstr(j, "action"));
        json_t *p = json_object_get(j, "parent");
        r->parent = json_is_integer(p) ? (int)json_integer_value(p) : 0;
        p = json_object_get(j, "restored_from");
        r->restored_from = json_is_integer(p) ? (int)json_integer_value(p) : 0;
        snprintf(r->created, sizeof r->created, "%s", jstr(j, "created"));
        snprintf(r->spec_sha256, sizeof r->spec_sha256, "%s", jstr(j, "spec_sha256"));
        r->spec_size = (uint64_t)json_integer_value(json_object_get(j, "spec_size"));
        snprintf(r->sha256, sizeof r->sha256, "%s", jstr(o, "sha256"));
        r->size = (uint64_t)json_integer_value(json_object_get(o, "size"));
        r->filename = strdup(jstr(o, "name"));
        r->mime_type = strdup(jstr(o, "mime_type"));
        if (!r->filename || !r->mime_type) ok = 0;
        json_t *pg = json_object_get(j, "pages");
        r->pages = json_is_integer(pg) ? (int)json_integer_value(pg) : 0;
        json_t *w = json_object_get(j, "warnings");
        if (json_is_array(w)) r->warnings = qr_json_dumps(w, JSON_COMPACT | JSON_PRESERVE_ORDER);
        json_t *k = json_object_get(j, "key");
        if (is_hex64(jstr(k, "sha256")) && is_hex64(jstr(k, "request"))) {
            snprintf(r->key_sha256, sizeof r->key_sha256, "%s", jstr(k, "sha256"));
            snprintf(r->key_request, sizeof r->key_request, "%s", jstr(k, "request"));
        }
    }
    json_decref(j);
    if (!ok) qr_vrec_free(r);
    return ok ? 0 : -1;
}

/* ---- artifacts -------------------------------------------------------------------- */

static qr_status bad_id(qr_errlist *errs, const char *what, const char *id)
{
    return qr_errlist_addf(
        errs, QR_E_USAGE, "",
        "use 1 to 64 letters, digits, '_' or '-', starting with a letter or digit",
        "invalid %s \"%.80s\"", what, id ? id : "");
}

qr_status qr_folder_not_found(qr_folder *f, const char *id, qr_errlist *errs)
{
    return qr_errlist_addf(errs, QR_E_NOT_FOUND, "", "qr_store_list() shows the artifacts",
                           "no artifact \"%s\" in the store %s", id, f->path);
}

static int open_artifact(qr_folder *f, const char *id, qr_errlist *errs)
{
    if (!qr_folder_id_valid(id)) {
        bad_id(errs, "artifact id", id);
        return -1;
    }
    int fd = openat(f->root, id, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
            qr_folder_not_found(f, id, errs);
        else
            io_error(errs, "", "cannot open the artifact folder");
    }
    return fd;
}

/* Lock the artifact folder dir (opened by open_artifact) and check that it
 * is still the store's id: a delete that held the lock first has moved it
 * out and emptied it. Returns the lock's fd, or -1 with an error added. */
static int lock_artifact(qr_folder *f, const char *id, int dir, qr_errlist *errs)
{
    int lk = qr_store_lock(dir, ".lock");
    int e = errno;
    struct stat here, named;
    int gone = fstat(dir, &here) != 0 || here.st_nlink == 0 ||
               fstatat(f->root, id, &named, AT_SYMLINK_NOFOLLOW) != 0 ||
               named.st_dev != here.st_dev || named.st_ino != here.st_ino;
    if (gone) {
        qr_store_unlock(lk);
        qr_errlist_addf(errs, QR_E_NOT_FOUND, "", "qr_store_list() shows the artifacts",
                        "artifact \"%s\" was deleted by another command while this one waited "
                        "for it",
                        id);
        return -1;
    }
    if (lk < 0) {
        errno = e;
        io_error(errs, "", "cannot lock the artifact");
    }
    return lk;
}

/* The highest complete version, starting from meta.json's cached head. */
static int probe_head(int dir, int cached)
{
    char name[32];
    int n = cached > 0 ? cached : 0;
    if (n > 0) {
        vname(name, sizeof name, n, "meta");
        /* A damaged cache (say head 2000000000): probe from the start, never
         * walk back one version at a time. */
        if (!exists_at(dir, name)) n = 0;
    }
    for (;;) {
        vname(name, sizeof name, n + 1, "meta");
        if (!exists_at(dir, name)) break;
        n++;
    }
    return n;
}

/* The trash marker of the artifact in dir: "" when there is none. Returns
 * 0, or -1 when it is there and does not read. */
#define TRASH_FILE "deleted"
static int trash_read(int dir, char out[32])
{
    out[0] = '\0';
    qr_buf b = {0};
    if (qr_store_read_file_max(dir, TRASH_FILE, &b, META_CAP) != 0) {
        qr_buf_free(&b);
        return errno == ENOENT ? 0 : -1;
    }
    json_t *j = json_loadb(b.data, b.len, 0, NULL);
    qr_buf_free(&b);
    const char *t = json_is_object(j) ? jstr(j, "deleted") : NULL;
    int ok = t && *t && strlen(t) < 32;
    if (ok) snprintf(out, 32, "%s", t);
    json_decref(j);
    return ok ? 0 : -1;
}

static qr_status load_meta_at(int dir, const char *id, qr_folder_meta *m, qr_errlist *errs)
{
    qr_buf b = {0};
    if (qr_store_read_file_max(dir, "meta.json", &b, META_CAP) != 0) {
        qr_buf_free(&b);
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                               "artifact \"%s\" has no readable meta.json: %s", id,
                               qr_store_read_error(errno));
    }
    int rc = meta_parse(b.data, b.len, m);
    qr_buf_free(&b);
    if (rc != 0)
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                               "artifact \"%s\" has a damaged meta.json", id);
    m->head = probe_head(dir, m->head);
    if (trash_read(dir, m->deleted) != 0) {
        qr_folder_meta_free(m);
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                               "artifact \"%s\" has a damaged trash marker", id);
    }
    return QR_OK;
}

qr_status qr_folder_meta_load(qr_folder *f, const char *id, qr_folder_meta *m, qr_errlist *errs)
{
    memset(m, 0, sizeof *m);
    int dir = open_artifact(f, id, errs);
    if (dir < 0) return errs->count ? errs->items[errs->count - 1].code : QR_E_STORE;
    qr_status st = load_meta_at(dir, id, m, errs);
    close(dir);
    return st;
}

static qr_status read_vrec_at(int dir, const char *id, int n, qr_vrec *rec, qr_errlist *errs)
{
    char name[32];
    vname(name, sizeof name, n, "meta");
    qr_buf b = {0};
    if (qr_store_read_file_max(dir, name, &b, META_CAP) != 0) {
        int e = errno;
        qr_buf_free(&b);
        if (e != ENOENT)
            return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck", "cannot read %s/%s: %s",
                                   id, name, qr_store_read_error(e));
        return qr_errlist_addf(errs, QR_E_STORE, "", NULL, "artifact \"%s\" has no version %d", id,
                               n);
    }
    int rc = vrec_parse(b.data, b.len, rec);
    qr_buf_free(&b);
    if (rc == 0 && rec->version != n) qr_vrec_free(rec); /* parsed, but another version's */
    if (rc != 0 || rec->version != n)
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck", "%s/%s is damaged", id,
                               name);
    return QR_OK;
}

static qr_status resolve_version(int dir, const char *id, int *n, qr_errlist *errs)
{
    qr_folder_meta m;
    qr_status st = load_meta_at(dir, id, &m, errs);
    if (st != QR_OK) return st;
    int head = m.head;
    qr_folder_meta_free(&m);
    if (*n == 0) *n = head;
    if (*n < 1 || *n > head)
        return qr_errlist_addf(errs, QR_E_NOT_FOUND, "", "qr_store_log() lists the versions",
                               "artifact \"%s\" has no version %d (versions 1 to %d)", id, *n,
                               head);
    return QR_OK;
}

qr_status qr_folder_version(qr_folder *f, const char *id, int n, qr_vrec *rec, qr_errlist *errs)
{
    memset(rec, 0, sizeof *rec);
    int dir = open_artifact(f, id, errs);
    if (dir < 0) return errs->items[errs->count - 1].code;
    qr_status st = resolve_version(dir, id, &n, errs);
    if (st == QR_OK) st = read_vrec_at(dir, id, n, rec, errs);
    close(dir);
    return st;
}

qr_status qr_folder_spec(qr_folder *f, const char *id, int n, qr_buf *out, qr_errlist *errs)
{
    int dir = open_artifact(f, id, errs);
    if (dir < 0) return errs->items[errs->count - 1].code;
    qr_status st = resolve_version(dir, id, &n, errs);
    qr_vrec rec;
    if (st == QR_OK) st = read_vrec_at(dir, id, n, &rec, errs);
    if (st == QR_OK) {
        char name[32];
        vname(name, sizeof name, n, "json");
        size_t start = out->len;
        unsigned long long cap = rec.spec_size < vcap(f) ? rec.spec_size : vcap(f);
        if (qr_store_read_file_max(dir, name, out, cap) != 0) {
            st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck", "cannot read %s/%s: %s",
                                 id, name, qr_store_read_error(errno));
        } else {
            /* the hash before anyone prints it */
            char hex[65];
            qr_sha256_hex(out->data + start, out->len - start, hex);
            if (strcmp(hex, rec.spec_sha256) != 0) {
                out->len = start;
                out->data[start] = '\0';
                st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                                     "%s/%s is damaged: its sha256 is not the one in its .meta", id,
                                     name);
            }
        }
        qr_vrec_free(&rec);
    }
    close(dir);
    return st;
}

qr_status qr_folder_blob(qr_folder *f, const char *sha256, qr_buf *out, qr_errlist *errs)
{
    if (!is_hex64(sha256)) return qr_errlist_add(errs, QR_E_USAGE, "", "not a sha256", NULL);
    size_t start = out->len;
    if (qr_store_read_file_max(f->blobs, sha256, out, vcap(f)) != 0)
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck", "blob %s is unreadable: %s",
                               sha256, qr_store_read_error(errno));
    char hex[65];
    qr_sha256_hex(out->data + start, out->len - start, hex);
    if (strcmp(hex, sha256) != 0)
        return qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                               "blob %s is damaged (its sha256 is %s)", sha256, hex);
    return QR_OK;
}

qr_status qr_folder_log(qr_folder *f, const char *id, qr_vrec **recs, size_t *n, qr_errlist *errs)
{
    return qr_folder_log_from(f, id, 1, recs, n, errs);
}

qr_status qr_folder_log_from(qr_folder *f, const char *id, int from, qr_vrec **recs, size_t *n,
                             qr_errlist *errs)
{
    *recs = NULL;
    *n = 0;
    if (from < 1) from = 1;
    int dir = open_artifact(f, id, errs);
    if (dir < 0) return errs->items[errs->count - 1].code;
    int head = 0;
    qr_status st = resolve_version(dir, id, &head, errs);
    if (st == QR_OK) {
        size_t want = head >= from ? (size_t)(head - from + 1) : 0;
        *recs = calloc(want ? want : 1, sizeof **recs);
        if (!*recs) st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
        for (int i = from; st == QR_OK && i <= head; i++) {
            st = read_vrec_at(dir, id, i, &(*recs)[i - from], errs);
            if (st == QR_OK) *n = (size_t)(i - from + 1);
        }
    }
    close(dir);
    return st;
}

qr_status qr_folder_list_all(qr_folder *f, qr_folder_meta **all, size_t *n, qr_errlist *errs)
{
    *all = NULL;
    *n = 0;
    int fd = dup(f->root);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return io_error(errs, "", "cannot list the store");
    }
    rewinddir(d);
    size_t cap = 0;
    struct dirent *e;
    qr_status st = QR_OK;
    while ((e = readdir(d))) {
        if (!qr_folder_id_valid(e->d_name)) continue;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            qr_folder_meta *v = realloc(*all, nc * sizeof *v);
            if (!v) {
                st = qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
                break;
            }
            *all = v;
            cap = nc;
        }
        qr_errlist ignore = {0};
        if (qr_folder_meta_load(f, e->d_name, &(*all)[*n], &ignore) == QR_OK) (*n)++;
        qr_errlist_clear(&ignore);
    }
    closedir(d);
    return st;
}

/* ---- owners: ledger and quotas ------------------------------------------------------ */

typedef struct ledger {
    uint64_t artifacts, bytes;
    int pending;
    char p_id[65];
    int p_version;
    char p_spec_sha[65];
    uint64_t p_artifacts, p_bytes;
    char p_blob[65]; /* a marker this write added, or "" */
} ledger;

static void ledger_name(char *buf, size_t n, const char *owner, const char *ext)
{
    char file[72];
    qr_folder_owner_file(owner, file);
    snprintf(buf, n, "%s.%s", file, ext);
}

/* An owner's JSON file (.owners/<owner>.EXT) into *out: 1, 0 when it is
 * not there (*out NULL), -1 when it does not read as an object. */
static int owner_json_load(qr_folder *f, const char *owner, const char *ext, json_t **out)
{
    *out = NULL;
    char name[96];
    ledger_name(name, sizeof name, owner, ext);
    qr_buf b = {0};
    if (qr_store_read_file_max(f->owners, name, &b, META_CAP) != 0) {
        qr_buf_free(&b);
        return errno == ENOENT ? 0 : -1;
    }
    json_t *j = json_loadb(b.data, b.len, 0, NULL);
    qr_buf_free(&b);
    if (!json_is_object(j)) {
        json_decref(j);
        return -1;
    }
    *out = j;
    return 1;
}

static int ledger_load(qr_folder *f, const char *owner, ledger *l)
{
    memset(l, 0, sizeof *l);
    json_t *j;
    int got = owner_json_load(f, owner, "json", &j);
    if (got <= 0) return got;
    l->artifacts = (uint64_t)json_integer_value(json_object_get(j, "artifacts"));
    l->bytes = (uint64_t)json_integer_value(json_object_get(j, "bytes"));
    json_t *p = json_object_get(j, "pending");
    if (json_is_object(p) && jstr(p, "id") && jstr(p, "spec_sha256")) {
        l->pending = 1;
        snprintf(l->p_id, sizeof l->p_id, "%s", jstr(p, "id"));
        l->p_version = (int)json_integer_value(json_object_get(p, "version"));
        snprintf(l->p_spec_sha, sizeof l->p_spec_sha, "%s", jstr(p, "spec_sha256"));
        l->p_artifacts = (uint64_t)json_integer_value(json_object_get(p, "artifacts"));
        l->p_bytes = (uint64_t)json_integer_value(json_object_get(p, "bytes"));
        snprintf(l->p_blob, sizeof l->p_blob, "%s", jstr(p, "blob") ? jstr(p, "blob") : "");
    }
    json_decref(j);
    return 0;
}

static int ledger_save(qr_folder *f, const char *owner, const ledger *l)
{
    json_t *j = json_pack("{s:s, s:I, s:I}", "owner", owner, "artifacts", (json_int_t)l->artifacts,
                          "bytes", (json_int_t)l->bytes);
    if (j && l->pending) {
        json_object_set_new(j, "pending",
                            json_pack("{s:s, s:i, s:s, s:I, s:I, s:s}", "id", l->p_id, "version",
                                      l->p_version, "spec_sha256", l->p_spec_sha, "artifacts",
                                      (json_int_t)l->p_artifacts, "bytes", (json_int_t)l->p_bytes,
                                      "blob", l->p_blob));
    }
    char name[96];
    ledger_name(name, sizeof name, owner, "json");
    int rc = j ? dump_to(f->owners, name, j, sync_on(f, QR_SYNC_FILE)) : -1;
    json_decref(j);
    return rc;
}

static void marker_path(char *buf, size_t n, const char *owner, const char *sha)
{
    char file[72];
    qr_folder_owner_file(owner, file);
    snprintf(buf, n, "%s.blobs/%s", file, sha);
}

static int marker_add(qr_folder *f, const char *owner, const char *sha)
{
    char dir[96], path[192];
    ledger_name(dir, sizeof dir, owner, "blobs");
    if (mkdirat(f->owners, dir, 0755) != 0 && errno != EEXIST) return -1;
    marker_path(path, sizeof path, owner, sha);
    int fd = openat(f->owners, path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}

static int marker_has(qr_folder *f, const char *owner, const char *sha)
{
    char path[192];
    marker_path(path, sizeof path, owner, sha);
    return exists_at(f->owners, path);
}

static void marker_del(qr_folder *f, const char *owner, const char *sha)
{
    char path[192];
    marker_path(path, sizeof path, owner, sha);
    unlinkat(f->owners, path, 0);
}

/* Whether the pending write of l was completed (its version exists with
 * the recorded spec). */
static int pending_done(qr_folder *f, const ledger *l)
{
    if (!qr_folder_id_valid(l->p_id)) return 0;
    int dir = openat(f->root, l->p_id, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dir < 0) return 0;
    qr_errlist e = {0};
    qr_vrec r;
    int done = read_vrec_at(dir, l->p_id, l->p_version, &r, &e) == QR_OK &&
               strcmp(r.spec_sha256, l->p_spec_sha) == 0;
    if (done) qr_vrec_free(&r);
    qr_errlist_clear(&e);
    close(dir);
    return done;
}

/* Settle the intent of the last write: keep it if its version exists,
 * roll it back if not (a failed or killed writer). In memory: the next
 * reservation saves the ledger. Caller holds the owner lock. */
static int ledger_settle(qr_folder *f, const char *owner, ledger *l)
{
    if (!l->pending) return 0;
    if (!pending_done(f, l)) {
        l->artifacts -= l->p_artifacts <= l->artifacts ? l->p_artifacts : l->artifacts;
        l->bytes -= l->p_bytes <= l->bytes ? l->p_bytes : l->bytes;
        if (l->p_blob[0]) marker_del(f, owner, l->p_blob);
    }
    l->pending = 0;
    return 0;
}

/* Take the owner lock and load the settled ledger. Returns the lock fd or -1. */
static int owner_begin(qr_folder *f, const char *owner, ledger *l, qr_errlist *errs)
{
    char name[96];
    ledger_name(name, sizeof name, owner, "lock");
    int fd = qr_store_lock(f->owners, name);
    if (fd < 0) {
        io_error(errs, "", "cannot lock the owner's quota ledger");
        return -1;
    }
    if (ledger_load(f, owner, l) != 0 || ledger_settle(f, owner, l) != 0) {
        io_error(errs, "",
                 "cannot read the owner's quota ledger (quire fsck --repair rebuilds it)");
        qr_store_unlock(fd);
        return -1;
    }
    return fd;
}

/* The owner's own limits (.owners/<owner>.quota, JSON; none: q zeroed).
 * Returns 0, or -1 when the file is there but does not read. */
static int quota_load(qr_folder *f, const char *owner, qr_quota_rec *q)
{
    memset(q, 0, sizeof *q);
    json_t *j;
    int got = owner_json_load(f, owner, "quota", &j);
    if (got <= 0) return got;
    json_t *a = json_object_get(j, "max_artifacts"), *by = json_object_get(j, "max_bytes");
    if (json_is_integer(a) && json_integer_value(a) >= 0) {
        q->has_artifacts = 1;
        q->max_artifacts = (uint64_t)json_integer_value(a);
    }
    if (json_is_integer(by) && json_integer_value(by) >= 0) {
        q->has_bytes = 1;
        q->max_bytes = (uint64_t)json_integer_value(by);
    }
    json_decref(j);
    return 0;
}

static int quota_save(qr_folder *f, const char *owner, const qr_quota_rec *q)
{
    char name[96];
    ledger_name(name, sizeof name, owner, "quota");
    if (!q->has_artifacts && !q->has_bytes)
        return unlinkat(f->owners, name, 0) == 0 || errno == ENOENT ? 0 : -1;
    json_t *j = json_pack("{s:s}", "owner", owner);
    if (j && q->has_artifacts)
        json_object_set_new(j, "max_artifacts", json_integer((json_int_t)q->max_artifacts));
    if (j && q->has_bytes)
        json_object_set_new(j, "max_bytes", json_integer((json_int_t)q->max_bytes));
    int rc = j ? dump_to(f->owners, name, j, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR)) : -1;
    json_decref(j);
    return rc;
}

qr_status qr_folder_quota_get(qr_folder *f, const char *owner, qr_quota_rec *q, qr_errlist *errs)
{
    memset(q, 0, sizeof *q);
    if (!qr_folder_owner_valid(owner)) return qr_folder_bad_owner(errs, owner);
    ledger l;
    int lk = owner_begin(f, owner, &l, errs);
    if (lk < 0) return QR_E_IO;
    qr_status st = QR_OK;
    if (quota_load(f, owner, q) != 0)
        st = io_error(errs, "", "cannot read the owner's quota (set it again)");
    q->artifacts = l.artifacts;
    q->bytes = l.bytes;
    qr_store_unlock(lk);
    return st;
}

qr_status qr_folder_quota_set(qr_folder *f, const char *owner, long long max_artifacts,
                              long long max_bytes, qr_errlist *errs)
{
    if (!qr_folder_owner_valid(owner)) return qr_folder_bad_owner(errs, owner);
    ledger l;
    int lk = owner_begin(f, owner, &l, errs);
    if (lk < 0) return QR_E_IO;
    qr_quota_rec q;
    quota_load(f, owner, &q); /* a damaged file is replaced whole */
    if (max_artifacts >= 0) q.has_artifacts = 1, q.max_artifacts = (uint64_t)max_artifacts;
    if (max_artifacts == QR_QUOTA_DEFAULT) q.has_artifacts = 0, q.max_artifacts = 0;
    if (max_bytes >= 0) q.has_bytes = 1, q.max_bytes = (uint64_t)max_bytes;
    if (max_bytes == QR_QUOTA_DEFAULT) q.has_bytes = 0, q.max_bytes = 0;
    qr_status st = QR_OK;
    if (quota_save(f, owner, &q) != 0) st = io_error(errs, "", "cannot write the owner's quota");
    qr_store_unlock(lk);
    return st;
}

/* Fill rec from put (version n after parent). */
static qr_status prepare(qr_folder *f, const qr_folder_put *put, int n, int parent, qr_vrec *rec,
                         qr_errlist *errs)
{
    int blob_ok = !put->data && is_hex64(put->sha256) && exists_at(f->blobs, put->sha256);
    return qr_vrec_fill(rec, put, n, parent, &f->o, blob_ok, errs);
}

/* Write a blob unless it is there; *created says whether this call wrote it. */
static int blob_put(qr_folder *f, const qr_vrec *rec, const void *data, int *created)
{
    struct stat st;
    *created = 0;
    if (fstatat(f->blobs, rec->sha256, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        (uint64_t)st.st_size == rec->size)
        return 0; /* content-addressed: already there */
    int rc = qr_atomic_write_file(f->blobs, rec->sha256, data, (size_t)rec->size,
                                  sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR));
    *created = rc == 0;
    return rc;
}

/* The blob collector's lock, blobs/.gc: writers hold it shared from writing
 * a blob until their version is committed, qr_folder_delete (and a failed
 * write dropping the blob it wrote) exclusively. Returns the fd or -1. */
static int gc_lock(qr_folder *f, int how)
{
    int fd = openat(f->blobs, ".gc", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -1;
    while (flock(fd, how) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

/* Under the owner lock: check quotas, record the intent, write the blob and
 * marker. *l is updated; on error nothing is changed. */
static qr_status reserve(qr_folder *f, const char *owner, ledger *l, const char *id,
                         const qr_vrec *rec, const void *data, int new_artifact, int *created,
                         qr_errlist *errs)
{
    *created = 0;
    int new_blob = !marker_has(f, owner, rec->sha256);
    uint64_t delta = rec->spec_size + (new_blob ? rec->size : 0);
    qr_quota_rec q; /* the owner's own limits, else the handle's */
    if (quota_load(f, owner, &q) != 0)
        return io_error(errs, "",
                        "cannot read the owner's quota (quire store quota sets it again)");
    uint64_t max_a = q.has_artifacts ? q.max_artifacts : f->o.max_artifacts;
    uint64_t max_b = q.has_bytes ? q.max_bytes : f->o.max_total_bytes;
    if (new_artifact && max_a && l->artifacts + 1 > max_a)
        return qr_store_quota_exceeded(errs, 1, max_a);
    if (max_b && l->bytes + delta > max_b) return qr_store_quota_exceeded(errs, 0, max_b);
    ledger nl = *l;
    nl.artifacts += new_artifact ? 1 : 0;
    nl.bytes += delta;
    nl.pending = 1;
    snprintf(nl.p_id, sizeof nl.p_id, "%s", id);
    nl.p_version = rec->version;
    snprintf(nl.p_spec_sha, sizeof nl.p_spec_sha, "%s", rec->spec_sha256);
    nl.p_artifacts = new_artifact ? 1 : 0;
    nl.p_bytes = delta;
    snprintf(nl.p_blob, sizeof nl.p_blob, "%s", new_blob ? rec->sha256 : "");
    if (ledger_save(f, owner, &nl) != 0)
        return io_error(errs, "", "cannot write the owner's quota ledger");
    if ((data && blob_put(f, rec, data, created) != 0) ||
        (new_blob && marker_add(f, owner, rec->sha256) != 0)) {
        qr_status st = io_error(errs, "", "cannot write the rendered bytes");
        if (new_blob) marker_del(f, owner, rec->sha256);
        ledger_save(f, owner, l); /* roll back the intent */
        return st;
    }
    *l = nl;
    return QR_OK;
}

/* A write that failed in this process: undo its intent now (settling
 * later could mistake another writer's identical version for it). */
static void rollback(qr_folder *f, const char *owner, ledger *l)
{
    l->artifacts -= l->p_artifacts;
    l->bytes -= l->p_bytes;
    if (l->p_blob[0]) marker_del(f, owner, l->p_blob);
    l->pending = 0;
    ledger_save(f, owner, l);
}

/* After the write nothing is written to the ledger: its intent stays and
 * is settled by whoever takes the owner lock next (pending_done tells a
 * completed write from a failed or killed one). That keeps one ledger write
 * per version. On a failure in this process the caller removes what it
 * added, so settling rolls the intent back. */

/* Write vN.json then vN.meta (the commit point) into dir. */
static int write_version_files(qr_folder *f, int dir, const qr_vrec *rec, const char *spec,
                               size_t len)
{
    char name[32];
    vname(name, sizeof name, rec->version, "json");
    if (qr_atomic_write_file(dir, name, spec, len, sync_on(f, QR_SYNC_FILE)) != 0) return -1;
    if (vrec_write(dir, rec, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR)) != 0) {
        int e = errno;
        unlinkat(dir, name, 0);
        errno = e;
        return -1;
    }
    return 0;
}

/* Remove a folder of plain files (a half-built artifact). */
static void remove_flat_dir(int parent, const char *name)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0) {
        DIR *d = fdopendir(fd);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) unlinkat(fd, e->d_name, 0);
            closedir(d);
        } else {
            close(fd);
        }
    }
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* ---- idempotency keys --------------------------------------------------------------- */

/* STORE/.keys, made by the first keyed write; -1 when it cannot be. (A
 * mkdir of what exists locks the store's folder: tried only when needed.) */
static int keys_dir(qr_folder *f)
{
    int fd = openat(f->root, ".keys", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd >= 0 || errno != ENOENT) return fd;
    if (mkdirat(f->root, ".keys", 0755) != 0 && errno != EEXIST) return -1;
    return openat(f->root, ".keys", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
}

static void key_name(const char *key, const char *ext, char out[80])
{
    char hex[65];
    qr_sha256_hex(key, strlen(key), hex);
    snprintf(out, 80, "%s.%s", hex, ext);
}

/* A key's lock is one of 4096 files, STORE/.keys/lock.<the first 3 hex
 * digits of the key's sha256>, made once and kept: not a new file per key
 * (two keys that share one wait for each other, 1 pair in 4096). */
int qr_folder_key_lock(qr_folder *f, const char *key)
{
    int dir = keys_dir(f);
    if (dir < 0) return -1;
    char hex[65], name[16];
    qr_sha256_hex(key, strlen(key), hex);
    snprintf(name, sizeof name, "lock.%.3s", hex);
    int fd = qr_store_lock(dir, name);
    close(dir);
    return fd;
}

/* Write text into dirfd/name in place (no temp file, no rename, no
 * fsync): for a record only ever read under its key's lock, whose writer
 * killed mid-way left a record nothing honours (its commit point follows). */
static int write_in_place(int dirfd, const char *name, const char *text)
{
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) return -1;
    size_t n = strlen(text), done = 0;
    while (done < n) {
        ssize_t w = write(fd, text + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            close(fd);
            errno = e;
            return -1;
        }
        done += (size_t)w;
    }
    return close(fd);
}

static int keys_ready(qr_folder *f);

/* The record of put's key, for version rec of id; written before the
 * version's commit point (the .meta, or a new artifact's rename), which
 * vouches for it. In place and not fsynced: only a crash of the machine
 * loses it, and keys_ready() rebuilds the index from the .meta files after
 * one (fsynced, with a rename, where there is no boot id to tell). The
 * record it replaces, if any, was not honoured (key_find_at). 0 when there
 * is no key. */
static int key_write(qr_folder *f, const qr_folder_put *put, const char *id, const qr_vrec *rec)
{
    if (!put->key || !put->key_request) return 0;
    int ready = keys_ready(f);
    if (ready < 0) return -1;
    int dir = keys_dir(f);
    if (dir < 0) return -1;
    char name[80];
    key_name(put->key, "json", name);
    json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:s}", "key", put->key, "request", put->key_request,
                          "artifact_id", id, "version", rec->version, "created", rec->created);
    int rc = -1;
    if (j && !ready) {
        rc = dump_to(dir, name, j, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR));
    } else if (j) {
        char *text = qr_json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
        rc = text ? write_in_place(dir, name, text) : -1;
        free(text);
    }
    json_decref(j);
    close(dir);
    return rc;
}

/* ---- keys of trash operations (folder_store.h "idempotency keys") --------------------- */

#define UNDELETED_FILE "undeleted"

/* Write the record of a trash operation's key: pending (done 0) before
 * the operation's commit point, done (1) after it. moved_to: a purge's
 * ".tmp.del.*" folder. */
static int tkey_write(qr_folder *f, const char *key, const char *request, const char *action,
                      const char *id, int version, const char *moved_to, const char *created,
                      int done)
{
    int dir = keys_dir(f);
    if (dir < 0) return -1;
    char name[80];
    key_name(key, "json", name);
    json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:b}", "key", key, "request", request,
                          "artifact_id", id, "version", version, "created", created, "action",
                          action, "done", done);
    if (j && moved_to) json_object_set_new(j, "moved_to", json_string(moved_to));
    int rc = j ? dump_to(dir, name, j, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR)) : -1;
    json_decref(j);
    close(dir);
    return rc;
}

/* The key sha256 held in field k of the marker name in the artifact
 * folder dir, into out ("" when there is none). */
static void marker_key(int dir, const char *name, const char *k, char out[65])
{
    out[0] = '\0';
    qr_buf b = {0};
    if (qr_store_read_file_max(dir, name, &b, META_CAP) == 0) {
        json_t *j = json_loadb(b.data ? b.data : "", b.len, 0, NULL);
        const char *v = jstr(j, k);
        if (v && is_hex64(v)) snprintf(out, 65, "%s", v);
        json_decref(j);
    }
    qr_buf_free(&b);
}

/* 1 when the store shows that the pending trash operation of record j
 * (the record of the key whose sha256 is hex) happened: its marker, or a purge's moved folder. */
static int tkey_vouched(qr_folder *f, json_t *j, const char *hex)
{
    const char *action = jstr(j, "action"), *id = jstr(j, "artifact_id");
    if (!action || !id || !qr_folder_id_valid(id)) return 0;
    if (!strcmp(action, "purge")) {
        const char *to = jstr(j, "moved_to");
        struct stat st;
        return to && !strncmp(to, ".tmp.del.", 9) && !strchr(to, '/') &&
               fstatat(f->root, to, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
    }
    int dir = openat(f->root, id, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dir < 0) return 0;
    char have[65] = "";
    if (!strcmp(action, "delete")) marker_key(dir, TRASH_FILE, "key", have);
    if (!strcmp(action, "undelete")) marker_key(dir, UNDELETED_FILE, "undelete_key", have);
    close(dir);
    return have[0] && !strcmp(have, hex);
}

/* Mark done the pending record named sha (a key's sha256) when it is
 * action's on id: the caller knows that the operation happened. */
static void tkey_confirm(qr_folder *f, const char *sha, const char *id, const char *action)
{
    int dir = openat(f->root, ".keys", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dir < 0) return;
    char name[80];
    snprintf(name, sizeof name, "%.64s.json", sha);
    qr_buf b = {0};
    json_t *j = NULL;
    if (qr_store_read_file_max(dir, name, &b, META_CAP) == 0)
        j = json_loadb(b.data ? b.data : "", b.len, 0, NULL);
    qr_buf_free(&b);
    const char *a = jstr(j, "action"), *rid = jstr(j, "artifact_id");
    if (json_is_false(json_object_get(j, "done")) && a && !strcmp(a, action) && rid &&
        !strcmp(rid, id)) {
        json_object_set_new(j, "done", json_true());
        dump_to(dir, name, j, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR));
    }
    json_decref(j);
    close(dir);
}

/* Before the markers in the artifact folder dir go or are overwritten
 * (undelete, purge): mark done the records they vouch for. */
static void tkey_settle(qr_folder *f, int dir, const char *id)
{
    char sha[65];
    marker_key(dir, TRASH_FILE, "key", sha);
    if (sha[0]) tkey_confirm(f, sha, id, "delete");
    marker_key(dir, UNDELETED_FILE, "undelete_key", sha);
    if (sha[0]) tkey_confirm(f, sha, id, "undelete");
}

/* The record named hex (a key's sha256) in the folder keys, into rec
 * (found 0 when there is none, it expired or nothing vouches for it).
 * key: the key itself, checked against the record's when both have it
 * (a record rebuilt from a .meta has only the sha256). Returns 0, or -1
 * when the record cannot be read. */
static int key_find_at(qr_folder *f, int keys, const char *hex, const char *key, qr_key_rec *rec)
{
    memset(rec, 0, sizeof *rec);
    char name[80];
    snprintf(name, sizeof name, "%.64s.json", hex);
    qr_buf b = {0};
    if (qr_store_read_file_max(keys, name, &b, META_CAP) != 0) {
        int e = errno;
        qr_buf_free(&b);
        errno = e;
        return e == ENOENT ? 0 : -1;
    }
    json_t *j = json_loadb(b.data ? b.data : "", b.len, 0, NULL);
    qr_buf_free(&b);
    const char *k = jstr(j, "key"), *req = jstr(j, "request"), *id = jstr(j, "artifact_id"),
               *created = jstr(j, "created");
    json_t *v = json_object_get(j, "version");
    const char *action = jstr(j, "action");
    char cutoff[32];
    qr_key_cutoff(&f->o, cutoff);
    int fresh = json_is_object(j) && (!k || !key || !strcmp(k, key)) && is_hex64(req) && id &&
                qr_folder_id_valid(id) && json_is_integer(v) && created &&
                strlen(created) < sizeof rec->created && strcmp(created, cutoff) >= 0;
    if (fresh && action) { /* a trash operation's: done, or pending and vouched for */
        if (strlen(action) < sizeof rec->action &&
            (json_is_true(json_object_get(j, "done")) || tkey_vouched(f, j, hex))) {
            rec->found = 1;
            snprintf(rec->request, sizeof rec->request, "%s", req);
            snprintf(rec->id, sizeof rec->id, "%s", id);
            rec->version = (int)json_integer_value(v);
            snprintf(rec->created, sizeof rec->created, "%s", created);
            snprintf(rec->action, sizeof rec->action, "%s", action);
        }
        fresh = 0;
    }
    /* honoured while fresh, and only when the version it names exists and
     * carries the key (a writer killed before its commit point left it) */
    if (fresh) {
        qr_vrec vr;
        qr_errlist quiet = {0};
        if (qr_folder_version(f, id, (int)json_integer_value(v), &vr, &quiet) == QR_OK) {
            if (!strcmp(vr.key_sha256, hex) && !strcmp(vr.key_request, req)) {
                rec->found = 1;
                snprintf(rec->request, sizeof rec->request, "%s", req);
                snprintf(rec->id, sizeof rec->id, "%s", id);
                rec->version = vr.version;
                snprintf(rec->created, sizeof rec->created, "%s", created);
            }
            qr_vrec_free(&vr);
        }
        qr_errlist_clear(&quiet);
    }
    json_decref(j);
    return 0;
}

qr_status qr_folder_key_find(qr_folder *f, const char *key, qr_key_rec *rec, qr_errlist *errs)
{
    memset(rec, 0, sizeof *rec);
    if (keys_ready(f) < 0) return io_error(errs, "", "cannot rebuild the idempotency keys' index");
    int dir = openat(f->root, ".keys", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dir < 0) return errno == ENOENT ? QR_OK : io_error(errs, "", "cannot open .keys");
    char hex[65];
    qr_sha256_hex(key, strlen(key), hex);
    int rc = key_find_at(f, dir, hex, key, rec);
    int e = errno;
    close(dir);
    errno = e;
    return rc == 0 ? QR_OK : io_error(errs, "", "cannot read an idempotency key's record");
}

/* ---- the key index after a crash of the machine -----------------------------------
 * A version's key record is written without an fsync (key_write): a
 * killed process leaves it in the page cache, so only a crash of the
 * machine (a new boot) can lose it while its version, fsynced, survives.
 * STORE/.keys/boot names the boot whose index is complete: the first
 * keyed call in another boot (or in a store without the file) rebuilds
 * the records of the keyed versions within the retention from their .meta
 * files, fsyncs them, then writes the file, under STORE/.keys/boot.lock;
 * every keyed call waits for that, as it looks its key up first. */

#define KEYS_BOOT "boot"

/* This boot's id (Linux: /proc/sys/kernel/random/boot_id), "<uuid>\n",
 * into out. Returns its length, or 0 when there is none. */
static size_t boot_id(char out[64])
{
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, out, 63);
    close(fd);
    if (n < 2 || out[n - 1] != '\n') return 0;
    out[n] = '\0';
    return (size_t)n;
}

/* 1 when STORE/.keys/boot (keys: STORE/.keys) names boot. */
static int boot_current(int keys, const char *boot, size_t n)
{
    qr_buf b = {0};
    int ok = qr_store_read_file_max(keys, KEYS_BOOT, &b, 64) == 0 && b.len == n &&
             !memcmp(b.data, boot, n);
    qr_buf_free(&b);
    return ok;
}

/* The record of version r of id, unless the index holds a record of the
 * key it honours that is as recent. Fsynced (its folder: by the caller). */
static void key_restore(qr_folder *f, int keys, const char *id, const qr_vrec *r)
{
    qr_key_rec have;
    if (key_find_at(f, keys, r->key_sha256, NULL, &have) == 0 && have.found &&
        strcmp(have.created, r->created) >= 0)
        return;
    char name[80];
    snprintf(name, sizeof name, "%s.json", r->key_sha256);
    json_t *j = json_pack("{s:s, s:s, s:i, s:s}", "request", r->key_request, "artifact_id", id,
                          "version", r->version, "created", r->created);
    if (j) dump_to(keys, name, j, sync_on(f, QR_SYNC_FILE));
    json_decref(j);
}

/* The records of the keyed versions of every artifact within the
 * retention (each artifact's versions from its head back to the first
 * one older than the retention). */
static void keys_rebuild(qr_folder *f, int keys)
{
    char cutoff[32];
    qr_key_cutoff(&f->o, cutoff);
    int fd = dup(f->root);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    rewinddir(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!qr_folder_id_valid(e->d_name)) continue;
        int dir = openat(f->root, e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (dir < 0) continue;
        qr_folder_meta m;
        qr_errlist quiet = {0};
        if (load_meta_at(dir, e->d_name, &m, &quiet) == QR_OK) {
            for (int v = m.head; v >= 1; v--) {
                qr_vrec r;
                if (read_vrec_at(dir, m.id, v, &r, &quiet) != QR_OK) continue; /* fsck's */
                int old = strcmp(r.created, cutoff) < 0;
                if (!old && r.key_sha256[0]) key_restore(f, keys, m.id, &r);
                qr_vrec_free(&r);
                if (old) break;
            }
            qr_folder_meta_free(&m);
        }
        qr_errlist_clear(&quiet);
        close(dir);
    }
    closedir(d);
}

/* Make the index complete for this boot (above). Returns 1 when a
 * version's record may then be written without an fsync, 0 when it must
 * be fsynced (no boot id), -1 on an I/O error. */
static int keys_ready(qr_folder *f)
{
    if (atomic_load(&f->keys_ok)) return 1;
    char boot[64];
    size_t n = boot_id(boot);
    if (!n) return 0;
    int keys = keys_dir(f);
    if (keys < 0) return -1;
    int rc = 1;
    if (!boot_current(keys, boot, n)) {
        int lk = qr_store_lock(keys, "boot.lock");
        if (lk < 0) rc = -1;
        if (lk >= 0 && !boot_current(keys, boot, n)) {
            keys_rebuild(f, keys);
            if (sync_on(f, QR_SYNC_DIR)) qr_store_sync_dir(keys);
            if (qr_atomic_write_file(keys, KEYS_BOOT, boot, n,
                                     sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR)))
                rc = -1;
        }
        qr_store_unlock(lk);
    }
    close(keys);
    if (rc == 1) atomic_store(&f->keys_ok, 1);
    return rc;
}

qr_status qr_folder_create(qr_folder *f, const char *id, const char *kind, const char *title,
                           const char *owner, const qr_folder_put *put, qr_vrec *rec,
                           qr_errlist *errs)
{
    memset(rec, 0, sizeof *rec);
    if (!qr_folder_id_new_valid(id)) return bad_id(errs, "artifact id", id);
    if (!owner) owner = "default";
    if (!qr_folder_owner_valid(owner)) return qr_folder_bad_owner(errs, owner);
    if (!kind || !*kind)
        return qr_errlist_add(errs, QR_E_USAGE, "", "name the artifact's kind", NULL);
    char other[65];
    if (exists_at(f->root, id) || find_case(f, id, other))
        return qr_errlist_addf(errs, QR_E_CONFLICT, "", "pick another id, or edit it",
                               "artifact \"%s\" already exists", id);
    qr_status st = prepare(f, put, 1, 0, rec, errs);
    if (st != QR_OK) return st;

    /* Build the artifact folder under a temp name. */
    char tmp[128], rnd[17];
    qr_random_hex(rnd);
    snprintf(tmp, sizeof tmp, ".tmp.new.%s.%s", id, rnd);
    if (mkdirat(f->root, tmp, 0755) != 0) {
        qr_vrec_free(rec);
        return io_error(errs, "", "cannot create the artifact folder");
    }
    int dir = openat(f->root, tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    qr_folder_meta m;
    qr_folder_meta_first(&m, id, kind, title, owner, rec);
    int lk;
    if (dir < 0 || (lk = openat(dir, ".lock", O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) < 0) {
        st = io_error(errs, "", "cannot create the artifact folder");
        goto fail;
    }
    close(lk);
    if (write_version_files(f, dir, rec, put->spec, put->spec_len) != 0 ||
        meta_write(dir, &m, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR)) != 0) {
        st = io_error(errs, "", "cannot write the artifact");
        goto fail;
    }

    ledger l;
    int created = 0, gc = gc_lock(f, LOCK_SH);
    int olock = gc < 0 ? -1 : owner_begin(f, owner, &l, errs);
    if (olock < 0) {
        if (gc < 0) io_error(errs, "", "cannot lock blobs/.gc");
        if (gc >= 0) close(gc);
        st = QR_E_IO;
        goto fail;
    }
    st = reserve(f, owner, &l, id, rec, put->data, 1, &created, errs);
    /* one create at a time checks the id against every case of it */
    int ids = st == QR_OK ? qr_store_lock(f->owners, ".ids.lock") : -1;
    if (st == QR_OK && ids < 0) {
        st = io_error(errs, "", "cannot lock .owners/.ids.lock");
        rollback(f, owner, &l);
    }
    if (st == QR_OK && find_case(f, id, other)) {
        st = qr_errlist_addf(errs, QR_E_CONFLICT, "", "pick another id, or edit it",
                             "artifact \"%s\" already exists", id);
        rollback(f, owner, &l);
    }
    if (st == QR_OK && key_write(f, put, id, rec) != 0) {
        st = io_error(errs, "", "cannot write the idempotency key's record");
        rollback(f, owner, &l);
    }
    if (st == QR_OK) {
        if (renameat(f->root, tmp, f->root, id) != 0) {
            if (errno == EEXIST || errno == ENOTEMPTY)
                st = qr_errlist_addf(errs, QR_E_CONFLICT, "", "pick another id, or edit it",
                                     "artifact \"%s\" already exists", id);
            else
                st = io_error(errs, "", "cannot move the new artifact into place");
        } else if (sync_on(f, QR_SYNC_DIR)) {
            qr_store_sync_dir(f->root);
        }
        if (st != QR_OK) rollback(f, owner, &l);
    }
    qr_store_unlock(ids);
    qr_store_unlock(olock);
    close(gc);
    if (st != QR_OK && created) drop_blob_if_unused(f, rec->sha256);
    if (st == QR_OK) {
        close(dir);
        return QR_OK;
    }
fail:
    if (dir >= 0) close(dir);
    remove_flat_dir(f->root, tmp);
    qr_vrec_free(rec);
    return st;
}

qr_status qr_folder_begin(qr_folder *f, const char *id, qr_folder_txn **out, qr_errlist *errs)
{
    *out = NULL;
    int dir = open_artifact(f, id, errs);
    if (dir < 0) return errs->items[errs->count - 1].code;
    qr_folder_txn *t = calloc(1, sizeof *t);
    if (!t) {
        close(dir);
        return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    t->f = f;
    t->dir = dir;
    t->lock = lock_artifact(f, id, dir, errs);
    if (t->lock < 0) {
        close(dir);
        free(t);
        return errs->items[errs->count - 1].code;
    }
    qr_status st = load_meta_at(dir, id, &t->meta, errs);
    if (st == QR_OK && strcmp(t->meta.id, id) != 0)
        st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                             "artifact \"%s\" has the meta.json of \"%s\"", id, t->meta.id);
    if (st == QR_OK && t->meta.head < 1)
        st = qr_errlist_addf(errs, QR_E_STORE, "", "run quire fsck",
                             "artifact \"%s\" has no versions", id);
    if (st != QR_OK) {
        qr_folder_end(t);
        return st;
    }
    *out = t;
    return QR_OK;
}

const qr_folder_meta *qr_folder_txn_meta(const qr_folder_txn *t)
{
    return &t->meta;
}

qr_status qr_folder_commit(qr_folder_txn *t, const qr_folder_put *put, qr_vrec *rec,
                           qr_errlist *errs)
{
    qr_folder *f = t->f;
    int n = t->meta.head + 1;
    qr_folder_put p = *put;
    p.filename = t->meta.filename; /* stable across versions */
    p.mime_type = t->meta.mime_type;
    qr_status st = prepare(f, &p, n, t->meta.head, rec, errs);
    if (st != QR_OK) return st;
    ledger l;
    int created = 0, gc = gc_lock(f, LOCK_SH);
    int olock = gc < 0 ? -1 : owner_begin(f, t->meta.owner, &l, errs);
    if (olock < 0) {
        if (gc < 0) io_error(errs, "", "cannot lock blobs/.gc");
        if (gc >= 0) close(gc);
        qr_vrec_free(rec);
        return QR_E_IO;
    }
    st = reserve(f, t->meta.owner, &l, t->meta.id, rec, put->data, 0, &created, errs);
    if (st == QR_OK) {
        if (key_write(f, put, t->meta.id, rec) != 0 ||
            write_version_files(f, t->dir, rec, put->spec, put->spec_len) != 0) {
            st = io_error(errs, "", "cannot write the version");
            rollback(f, t->meta.owner, &l);
        }
    }
    qr_store_unlock(olock);
    close(gc);
    if (st != QR_OK && created) drop_blob_if_unused(f, rec->sha256);
    if (st != QR_OK) {
        qr_vrec_free(rec);
        return st;
    }
    t->meta.head = n;
    /* meta.json's head is a cache that readers probe past: refresh it every
     * HEAD_CACHE_EVERY versions, not each time (a replacing rename costs a
     * flush on ext4). */
    if (n % HEAD_CACHE_EVERY == 0) meta_write(t->dir, &t->meta, 0);
    return QR_OK;
}

void qr_folder_end(qr_folder_txn *t)
{
    if (!t) return;
    qr_store_unlock(t->lock);
    if (t->dir >= 0) close(t->dir);
    qr_folder_meta_free(&t->meta);
    free(t);
}

/* ---- fsck -------------------------------------------------------------------------- */

typedef struct strset {
    char **v;
    size_t n, cap;
} strset;

static int strset_has(const strset *s, const char *x)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], x) == 0) return 1;
    return 0;
}

static void strset_add(strset *s, const char *x)
{
    if (strset_has(s, x)) return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v) return;
        s->v = v;
        s->cap = cap;
    }
    char *d = strdup(x);
    if (d) s->v[s->n++] = d;
}

static void strset_free(strset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Per-owner usage recomputed from the artifacts. */
typedef struct usage {
    char owner[257];
    uint64_t artifacts, spec_bytes;
    strset blobs;
} usage;

typedef struct fsck_ctx {
    qr_folder *f;
    qr_folder_fsck *rep;
    int repair;
    strset good_blobs, bad_blobs, referenced;
    /* some version record could not be read: any blob may be its, so no
     * blob is removed as unreferenced (kept counts them) */
    int unknown_users;
    size_t kept;
    usage *owners;
    size_t n_owners;
} fsck_ctx;

static usage *usage_for(fsck_ctx *c, const char *owner)
{
    for (size_t i = 0; i < c->n_owners; i++)
        if (strcmp(c->owners[i].owner, owner) == 0) return &c->owners[i];
    usage *u = realloc(c->owners, (c->n_owners + 1) * sizeof *u);
    if (!u) return NULL;
    c->owners = u;
    u = &c->owners[c->n_owners++];
    memset(u, 0, sizeof *u);
    snprintf(u->owner, sizeof u->owner, "%s", owner);
    return u;
}

static void problem(fsck_ctx *c, const char *path, const char *fmt, const char *arg)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, arg ? arg : "");
    qr_errlist_add(&c->rep->problems, QR_E_STORE, path, msg, NULL);
}

static void stray(fsck_ctx *c, int dirfd, const char *rel, const char *name, const char *why,
                  int is_dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", rel, name);
    qr_errlist_add(&c->rep->stray, QR_E_STORE, path, why, NULL);
    if (c->repair) {
        if (is_dir)
            remove_flat_dir(dirfd, name);
        else
            unlinkat(dirfd, name, 0);
        c->rep->repaired++;
    }
}

/* Check a blob's content once. Returns 1 when good. */
static int blob_ok(fsck_ctx *c, const char *sha, uint64_t size)
{
    if (strset_has(&c->good_blobs, sha)) return 1;
    if (strset_has(&c->bad_blobs, sha)) return 0;
    qr_buf b = {0};
    int ok = qr_store_read_file_max(c->f->blobs, sha, &b, vcap(c->f)) == 0;
    if (ok) {
        char hex[65];
        qr_sha256_hex(b.data, b.len, hex);
        ok = strcmp(hex, sha) == 0 && b.len == size;
    }
    qr_buf_free(&b);
    strset_add(ok ? &c->good_blobs : &c->bad_blobs, sha);
    return ok;
}

static int parse_vname(const char *name, int *n, const char **ext)
{
    if (name[0] != 'v' || strlen(name) < 8) return 0;
    const char *p = name + 1;
    int v = 0, digits = 0;
    while (*p >= '0' && *p <= '9') {
        if (v > 100000000) return 0;
        v = v * 10 + (*p++ - '0');
        digits++;
    }
    if (digits < 6 || *p != '.' || v < 1) return 0;
    if (strcmp(p + 1, "json") && strcmp(p + 1, "meta")) return 0;
    *n = v;
    *ext = p + 1;
    return 1;
}

static void check_artifact(fsck_ctx *c, const char *id)
{
    char rel[96];
    snprintf(rel, sizeof rel, "%s/", id);
    int dir = openat(c->f->root, id, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (dir < 0) {
        problem(c, id, "not a folder: %s", strerror(errno));
        c->unknown_users = 1; /* a damaged artifact may use any blob */
        return;
    }
    c->rep->artifacts++;
    /* meta.json, with the head cache as written */
    qr_buf b = {0};
    qr_folder_meta m;
    int have_meta = qr_store_read_file_max(dir, "meta.json", &b, META_CAP) == 0 &&
                    meta_parse(b.data, b.len, &m) == 0;
    qr_buf_free(&b);
    char mpath[128];
    snprintf(mpath, sizeof mpath, "%smeta.json", rel);
    if (!have_meta) {
        problem(c, mpath, "missing or not a valid artifact meta.json%s", NULL);
    } else if (strcmp(m.id, id) != 0) {
        problem(c, mpath, "names another artifact, \"%s\"", m.id);
    }
    /* the version files present */
    int maxv = 0;
    unsigned char *has = NULL; /* bit 1: .json, bit 2: .meta */
    size_t hascap = 0;
    int dfd = dup(dir);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        const char *nm = e->d_name, *ext;
        int v;
        if (!strcmp(nm, ".") || !strcmp(nm, "..") || !strcmp(nm, "meta.json") ||
            !strcmp(nm, ".lock"))
            continue;
        if (!strcmp(nm, TRASH_FILE)) { /* in the trash: counted, its marker checked */
            char when[32];
            if (trash_read(dir, when) != 0)
                problem(c, rel, "a damaged trash marker %s", TRASH_FILE);
            else
                c->rep->trashed++;
            continue;
        }
        if (!strncmp(nm, ".tmp.", 5)) {
            stray(c, dir, rel, nm, "temp file of an interrupted write", 0);
            continue;
        }
        if (!strcmp(nm, UNDELETED_FILE)) { /* keys_settle has marked its undelete done */
            stray(c, dir, rel, nm, "the marker of an interrupted undelete", 0);
            continue;
        }
        if (!parse_vname(nm, &v, &ext)) {
            problem(c, rel, "unexpected file %s", nm);
            continue;
        }
        if ((size_t)v >= hascap) {
            size_t cap = hascap ? hascap : 64;
            while (cap <= (size_t)v)
                cap *= 2;
            unsigned char *nh = realloc(has, cap);
            if (!nh) break;
            memset(nh + hascap, 0, cap - hascap);
            has = nh;
            hascap = cap;
        }
        has[v] |= ext[0] == 'j' ? 1 : 2;
        if (v > maxv) maxv = v;
    }
    if (d) closedir(d);
    int head = 0;
    while (head < maxv && (has[head + 1] & 2))
        head++;
    for (int v = 1; v <= maxv; v++) {
        char name[32], path[160];
        if (v <= head) {
            if (!(has[v] & 1)) {
                vname(name, sizeof name, v, "json");
                snprintf(path, sizeof path, "%s%s", rel, name);
                problem(c, path, "missing: the spec of a complete version%s", NULL);
            }
            continue;
        }
        if (has[v] & 2) {
            char msg[96];
            snprintf(msg, sizeof msg, "versions are not numbered without gaps: %d is missing",
                     head + 1);
            vname(name, sizeof name, v, "meta");
            snprintf(path, sizeof path, "%s%s", rel, name);
            problem(c, path, "%s", msg);
            /* a record past the gap still uses its blob */
            qr_vrec r;
            qr_errlist ignore = {0};
            if (read_vrec_at(dir, id, v, &r, &ignore) == QR_OK) {
                strset_add(&c->referenced, r.sha256);
                qr_vrec_free(&r);
            } else {
                c->unknown_users = 1;
            }
            qr_errlist_clear(&ignore);
        } else if (has[v] & 1) {
            vname(name, sizeof name, v, "json");
            stray(c, dir, rel, name, "spec of a version whose writer was interrupted (no .meta)",
                  0);
        }
    }
    if (have_meta && head == 0) problem(c, mpath, "the artifact has no complete version%s", NULL);
    if (have_meta && m.head > head) {
        char msg[96];
        snprintf(msg, sizeof msg, "says head %d, but version %d is the last complete one", m.head,
                 head);
        problem(c, mpath, "%s", msg);
    } else if (have_meta && m.head < head && c->repair) {
        /* the head is a cache that lags by design: refresh it, quietly */
        m.head = head;
        meta_write(dir, &m, sync_on(c->f, QR_SYNC_FILE | QR_SYNC_DIR));
    }
    usage *u = have_meta ? usage_for(c, m.owner) : NULL;
    if (u) u->artifacts++;
    /* each complete version: record, spec hash, blob */
    for (int v = 1; v <= head; v++) {
        char name[32], path[160];
        vname(name, sizeof name, v, "meta");
        snprintf(path, sizeof path, "%s%s", rel, name);
        qr_vrec r;
        b = (qr_buf){0};
        if (qr_store_read_file_max(dir, name, &b, META_CAP) != 0) {
            qr_buf_free(&b);
            problem(c, path, "unreadable version record: %s", qr_store_read_error(errno));
            c->unknown_users = 1;
            continue;
        }
        if (vrec_parse(b.data, b.len, &r) != 0) {
            qr_buf_free(&b);
            problem(c, path, "not a valid version record%s", NULL);
            c->unknown_users = 1;
            continue;
        }
        qr_buf_free(&b);
        c->rep->versions++;
        if (r.version != v) problem(c, path, "records another version number%s", NULL);
        if (r.parent != v - 1) problem(c, path, "its parent is not the version before it%s", NULL);
        vname(name, sizeof name, v, "json");
        snprintf(path, sizeof path, "%s%s", rel, name);
        b = (qr_buf){0};
        if (qr_store_read_file_max(dir, name, &b, vcap(c->f)) != 0) {
            problem(c, path, "unreadable spec: %s", qr_store_read_error(errno));
        } else {
            char hex[65];
            qr_sha256_hex(b.data, b.len, hex);
            if (strcmp(hex, r.spec_sha256) != 0 || b.len != r.spec_size)
                problem(c, path, "the spec does not match the sha256 in its .meta%s", NULL);
            json_t *j = json_loadb(b.data, b.len, 0, NULL);
            if (!j) problem(c, path, "the spec is not valid JSON%s", NULL);
            json_decref(j);
        }
        qr_buf_free(&b);
        if (u) u->spec_bytes += r.spec_size;
        strset_add(&c->referenced, r.sha256);
        if (u) strset_add(&u->blobs, r.sha256);
        if (!blob_ok(c, r.sha256, r.size)) {
            snprintf(path, sizeof path, "blobs/%s", r.sha256);
            char msg[160];
            snprintf(msg, sizeof msg, "missing or damaged, referenced by %s version %d", id, v);
            problem(c, path, "%s", msg);
        }
        qr_vrec_free(&r);
    }
    free(has);
    if (have_meta) qr_folder_meta_free(&m);
    close(dir);
}

static uint64_t blob_size(qr_folder *f, const char *sha)
{
    struct stat st;
    return fstatat(f->blobs, sha, &st, AT_SYMLINK_NOFOLLOW) == 0 ? (uint64_t)st.st_size : 0;
}

static void check_owners(fsck_ctx *c)
{
    qr_folder *f = c->f;
    for (size_t i = 0; i < c->n_owners; i++) {
        usage *u = &c->owners[i];
        ledger l;
        char lname[96], path[512];
        ledger_name(lname, sizeof lname, u->owner, "lock");
        int lk = qr_store_lock(f->owners, lname);
        int loaded = ledger_load(f, u->owner, &l) == 0;
        if (loaded) ledger_settle(f, u->owner, &l);
        uint64_t bytes = u->spec_bytes;
        for (size_t k = 0; k < u->blobs.n; k++)
            bytes += blob_size(f, u->blobs.v[k]);
        int markers_ok = 1;
        for (size_t k = 0; k < u->blobs.n; k++)
            if (!marker_has(f, u->owner, u->blobs.v[k])) markers_ok = 0;
        snprintf(path, sizeof path, ".owners/%s", lname);
        memcpy(path + strlen(path) - 4, "json", 4);
        if (!loaded || l.artifacts != u->artifacts || l.bytes != bytes || !markers_ok) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "quota ledger says %llu artifacts, %llu bytes; the store holds %llu "
                     "artifacts, %llu bytes "
                     "(quire fsck --repair rebuilds it)",
                     (unsigned long long)(loaded ? l.artifacts : 0),
                     (unsigned long long)(loaded ? l.bytes : 0), (unsigned long long)u->artifacts,
                     (unsigned long long)bytes);
            if (c->repair) {
                memset(&l, 0, sizeof l);
                l.artifacts = u->artifacts;
                l.bytes = bytes;
                for (size_t k = 0; k < u->blobs.n; k++)
                    marker_add(f, u->owner, u->blobs.v[k]);
                if (ledger_save(f, u->owner, &l) == 0) c->rep->repaired++;
                qr_errlist_add(&c->rep->stray, QR_E_STORE, path, msg, NULL);
            } else {
                qr_errlist_add(&c->rep->problems, QR_E_STORE, path, msg, NULL);
            }
        }
        /* markers for blobs the owner no longer references */
        char mdir[96];
        ledger_name(mdir, sizeof mdir, u->owner, "blobs");
        int mfd = openat(f->owners, mdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        DIR *d = mfd >= 0 ? fdopendir(mfd) : NULL;
        struct dirent *e;
        char rel[128];
        snprintf(rel, sizeof rel, ".owners/%s/", mdir);
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            if (!strset_has(&u->blobs, e->d_name)) {
                if (c->repair) {
                    stray(c, dirfd(d), rel, e->d_name,
                          "quota marker of a blob the owner does not reference", 0);
                } else {
                    snprintf(path, sizeof path, "%s%s", rel, e->d_name);
                    qr_errlist_add(
                        &c->rep->problems, QR_E_STORE, path,
                        "quota marker of a blob the owner does not reference (quire fsck --repair)",
                        NULL);
                }
            }
        }
        if (d) closedir(d);
        qr_store_unlock(lk);
    }
}

/* Remove the key records past their retention, and the per-key lock
 * files an older quire made (STORE/.keys/<sha256>.lock) with them. A
 * record that does not read (one being written in place, or damage) goes
 * once its file is older than the retention. */
static size_t keys_expire(qr_folder *f)
{
    int dir = openat(f->root, ".keys", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    DIR *d = dir >= 0 ? fdopendir(dir) : NULL;
    if (!d) {
        if (dir >= 0) close(dir);
        return 0;
    }
    char cutoff[32];
    qr_key_cutoff(&f->o, cutoff);
    time_t old = time(NULL) - QR_KEY_RETENTION;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (strlen(nm) != 69 || (strcmp(nm + 64, ".json") && strcmp(nm + 64, ".lock"))) continue;
        char rec[80], lock[80];
        snprintf(rec, sizeof rec, "%.64s.json", nm);
        snprintf(lock, sizeof lock, "%.64s.lock", nm);
        if (!strcmp(nm + 64, ".json") && exists_at(dir, lock)) continue; /* with its lock */
        qr_buf b = {0};
        struct stat st;
        int have = qr_store_read_file_max(dir, rec, &b, META_CAP) == 0;
        json_t *j = have ? json_loadb(b.data ? b.data : "", b.len, 0, NULL) : NULL;
        const char *created = jstr(j, "created");
        int gone = created ? strcmp(created, cutoff) < 0
                           : !have || (fstatat(dir, rec, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                                       st.st_mtime < old);
        if (gone) {
            if (have) n += unlinkat(dir, rec, 0) == 0;
            unlinkat(dir, lock, 0);
        }
        json_decref(j);
        qr_buf_free(&b);
    }
    closedir(d);
    return n;
}

/* Mark done every pending trash-operation record the store vouches for,
 * before fsck --repair removes what vouches (an "undeleted" leftover, a
 * purge's ".tmp.del.*" folder). */
static void keys_settle(qr_folder *f)
{
    int dir = openat(f->root, ".keys", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    DIR *d = dir >= 0 ? fdopendir(dir) : NULL;
    if (!d) {
        if (dir >= 0) close(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *nm = e->d_name;
        if (strlen(nm) != 69 || strcmp(nm + 64, ".json") != 0) continue;
        qr_buf b = {0};
        json_t *j = NULL;
        if (qr_store_read_file_max(dirfd(d), nm, &b, META_CAP) == 0)
            j = json_loadb(b.data ? b.data : "", b.len, 0, NULL);
        qr_buf_free(&b);
        const char *action = jstr(j, "action");
        char hex[65];
        snprintf(hex, sizeof hex, "%.64s", nm);
        if (action && json_is_false(json_object_get(j, "done")) && tkey_vouched(f, j, hex))
            tkey_confirm(f, nm, jstr(j, "artifact_id"), action);
        json_decref(j);
    }
    closedir(d);
}

qr_status qr_folder_check(qr_folder *f, int repair, qr_folder_fsck *rep)
{
    if (repair) keys_settle(f);
    memset(rep, 0, sizeof *rep);
    fsck_ctx c = {0};
    c.f = f;
    c.rep = rep;
    c.repair = repair;
    int fd = dup(f->root);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        qr_errlist_addf(&rep->problems, QR_E_IO, "", NULL, "cannot list the store: %s",
                        strerror(errno));
        return QR_E_IO;
    }
    rewinddir(d);
    strset names = {0};
    struct dirent *e;
    while ((e = readdir(d)))
        strset_add(&names, e->d_name);
    closedir(d);
    for (size_t i = 0; i < names.n; i++) {
        const char *nm = names.v[i];
        if (!strcmp(nm, ".") || !strcmp(nm, "..") || !strcmp(nm, "blobs") || !strcmp(nm, ".owners"))
            continue;
        if (!strcmp(nm, ".keys")) {
            if (repair) rep->repaired += keys_expire(f);
            continue;
        }
        if (!strncmp(nm, ".tmp.", 5)) {
            struct stat st;
            int isdir = fstatat(f->root, nm, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
            stray(&c, f->root, "", nm,
                  isdir ? "a new artifact whose writer was interrupted" : "temp file", isdir);
            continue;
        }
        if (!qr_folder_id_valid(nm)) {
            problem(&c, nm, "not an artifact: the name is not a valid id%s", NULL);
            continue;
        }
        check_artifact(&c, nm);
    }
    strset_free(&names);
    /* blobs: temp files and blobs no version references */
    fd = dup(f->blobs);
    d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d) rewinddir(d);
    while (d && (e = readdir(d))) {
        const char *nm = e->d_name;
        if (!strcmp(nm, ".") || !strcmp(nm, "..")) continue;
        if (!strcmp(nm, ".gc")) continue;
        if (!strncmp(nm, ".tmp.", 5))
            stray(&c, f->blobs, "blobs/", nm, "temp file of an interrupted write", 0);
        else if (!is_hex64(nm))
            problem(&c, "blobs/", "unexpected file %s", nm);
        else if (!strset_has(&c.referenced, nm) && c.unknown_users)
            c.kept++, rep->blobs++;
        else if (!strset_has(&c.referenced, nm))
            stray(&c, f->blobs, "blobs/", nm,
                  "no version references this blob (its writer was interrupted)", 0);
        else
            rep->blobs++;
    }
    if (d) closedir(d);
    if (c.kept) {
        char msg[300];
        snprintf(msg, sizeof msg,
                 "kept %zu blob%s that no readable version references: a damaged version "
                 "record may use %s (repair or remove the damaged records named above, then "
                 "run fsck --repair again)",
                 c.kept, c.kept == 1 ? "" : "s", c.kept == 1 ? "it" : "them");
        qr_errlist_add(&rep->problems, QR_E_STORE, "blobs/", msg, NULL);
    }
    /* ledgers of owners that no longer hold any artifact */
    fd = dup(f->owners);
    d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d) rewinddir(d);
    while (d && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n > 5 && !strcmp(e->d_name + n - 5, ".json")) {
            char owner[96];
            snprintf(owner, sizeof owner, "%.*s", (int)(n - 5), e->d_name);
            if (qr_folder_id_valid(owner)) {
                usage_for(&c, owner);
            } else if (owner[0] == '~') {
                /* a hashed name: the owner is inside */
                qr_buf b = {0};
                json_t *j = NULL;
                if (qr_store_read_file_max(f->owners, e->d_name, &b, META_CAP) == 0)
                    j = json_loadb(b.data, b.len, 0, NULL);
                const char *o = j ? jstr(j, "owner") : NULL;
                char file[72];
                if (o && qr_folder_owner_valid(o)) {
                    qr_folder_owner_file(o, file);
                    if (!strcmp(file, owner)) usage_for(&c, o);
                }
                json_decref(j);
                qr_buf_free(&b);
            }
        }
    }
    if (d) closedir(d);
    check_owners(&c);
    for (size_t i = 0; i < c.n_owners; i++)
        strset_free(&c.owners[i].blobs);
    free(c.owners);
    strset_free(&c.good_blobs);
    strset_free(&c.bad_blobs);
    strset_free(&c.referenced);
    return rep->problems.count ? QR_E_STORE : QR_OK;
}

/* ---- delete and blob collection ------------------------------------------------------ */

/* The blobs the versions of every artifact but skip_id use: all of them
 * into all, those of owner's artifacts into mine (either may be NULL).
 * Every version record present counts, whatever the head says (a record
 * past a gap is still a user). Returns 0, 1 when some record could not be
 * read (a damaged store: any blob may be that record's, so the caller
 * removes none), or -1 when the store cannot be listed. */
static int scan_refs(qr_folder *f, const char *owner, const char *skip_id, strset *mine,
                     strset *all)
{
    int fd = dup(f->root);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return -1;
    }
    rewinddir(d);
    int incomplete = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *id = e->d_name;
        if (!qr_folder_id_valid(id) || !strcmp(id, "blobs") || (skip_id && !strcmp(id, skip_id)))
            continue;
        int dir = openat(f->root, id, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (dir < 0) { /* named like an artifact, but not a folder: damaged */
            incomplete = 1;
            continue;
        }
        qr_errlist ignore = {0};
        qr_folder_meta m;
        int mine_too = mine && owner && load_meta_at(dir, id, &m, &ignore) == QR_OK;
        if (mine_too) {
            mine_too = !strcmp(m.owner, owner);
            qr_folder_meta_free(&m);
        }
        int vfd = dup(dir);
        DIR *vd = vfd >= 0 ? fdopendir(vfd) : NULL;
        if (!vd) {
            if (vfd >= 0) close(vfd);
            incomplete = 1;
        }
        struct dirent *ve;
        while (vd && (ve = readdir(vd))) {
            const char *ext;
            int v;
            if (!parse_vname(ve->d_name, &v, &ext) || strcmp(ext, "meta")) continue;
            qr_vrec r;
            if (read_vrec_at(dir, id, v, &r, &ignore) != QR_OK) {
                incomplete = 1;
                continue;
            }
            if (all) strset_add(all, r.sha256);
            if (mine_too) strset_add(mine, r.sha256);
            qr_vrec_free(&r);
        }
        if (vd) closedir(vd);
        qr_errlist_clear(&ignore);
        close(dir);
    }
    closedir(d);
    return incomplete;
}

/* A write that failed after writing a new blob: remove it unless another
 * version (a concurrent writer's) uses it. */
static void drop_blob_if_unused(qr_folder *f, const char *sha)
{
    int gc = gc_lock(f, LOCK_EX);
    if (gc < 0) return;
    strset all = {0};
    if (scan_refs(f, NULL, NULL, NULL, &all) == 0 && !strset_has(&all, sha))
        unlinkat(f->blobs, sha, 0);
    strset_free(&all);
    close(gc);
}

qr_status qr_folder_delete(qr_folder *f, const char *id, qr_errlist *errs)
{
    return qr_folder_delete_if(f, id, 0, errs);
}

qr_status qr_folder_delete_if(qr_folder *f, const char *id, int if_version, qr_errlist *errs)
{
    return qr_folder_purge_if(f, id, if_version, NULL, errs);
}

qr_status qr_folder_trash(qr_folder *f, const char *id, int if_version, int restore,
                          const char *key, const char *key_request, qr_errlist *errs)
{
    qr_folder_txn *t;
    qr_status st = qr_folder_begin(f, id, &t, errs);
    if (st != QR_OK) return st;
    const qr_folder_meta *m = &t->meta;
    const char *action = restore ? "undelete" : "delete";
    char hex[65] = "", now[32];
    if (key) qr_sha256_hex(key, strlen(key), hex);
    qr_store_time(&f->o, 0, now);
    if ((m->deleted[0] != '\0') != restore) { /* not where the call looks for it */
        st = qr_folder_not_found(f, id, errs);
    } else if (if_version > 0 && m->head != if_version) {
        st = qr_store_head_conflict(errs, id, m->head, if_version);
    } else if (key && tkey_write(f, key, key_request, action, m->id, m->head, NULL, now, 0) != 0) {
        st = io_error(errs, "", "cannot write the idempotency key's record");
    } else if (restore) {
        /* the marker goes: the delete it names (and an earlier undelete's
         * leftover) are known to have happened */
        tkey_settle(f, t->dir, m->id);
        if (!key) {
            if (unlinkat(t->dir, TRASH_FILE, 0) != 0)
                st = io_error(errs, "", "cannot take the artifact out of the trash");
            else if (sync_on(f, QR_SYNC_DIR))
                qr_store_sync_dir(t->dir);
        } else {
            /* the marker names this undelete's key, then its rename to
             * "undeleted" is the commit point (the record vouched for) */
            json_t *j = json_pack("{s:s, s:s}", "deleted", m->deleted, "undelete_key", hex);
            if (!j || dump_to(t->dir, TRASH_FILE, j, sync_on(f, QR_SYNC_FILE)) != 0 ||
                renameat(t->dir, TRASH_FILE, t->dir, UNDELETED_FILE) != 0) {
                st = io_error(errs, "", "cannot take the artifact out of the trash");
            } else {
                if (sync_on(f, QR_SYNC_DIR)) qr_store_sync_dir(t->dir);
                if (tkey_write(f, key, key_request, action, m->id, m->head, NULL, now, 1) == 0)
                    unlinkat(t->dir, UNDELETED_FILE, 0);
            }
            json_decref(j);
        }
    } else {
        json_t *j = json_pack("{s:s}", "deleted", now);
        if (j && key) json_object_set_new(j, "key", json_string(hex));
        if (!j || dump_to(t->dir, TRASH_FILE, j, sync_on(f, QR_SYNC_FILE | QR_SYNC_DIR)) != 0)
            st = io_error(errs, "", "cannot move the artifact to the trash");
        else if (key) /* done; if this fails the marker still vouches for it */
            tkey_write(f, key, key_request, action, m->id, m->head, NULL, now, 1);
        json_decref(j);
    }
    qr_folder_end(t);
    return st;
}

qr_status qr_folder_purge_if(qr_folder *f, const char *id, int if_version,
                             const char *trashed_before, qr_errlist *errs)
{
    return qr_folder_purge_key(f, id, if_version, trashed_before, NULL, NULL, errs);
}

qr_status qr_folder_purge_key(qr_folder *f, const char *id, int if_version,
                              const char *trashed_before, const char *key, const char *key_request,
                              qr_errlist *errs)
{
    int dir = open_artifact(f, id, errs);
    if (dir < 0) return errs->items[errs->count - 1].code;
    int lk = lock_artifact(f, id, dir, errs);
    if (lk < 0) {
        close(dir);
        return errs->items[errs->count - 1].code;
    }
    qr_folder_meta m;
    qr_status st = load_meta_at(dir, id, &m, errs);
    if (st == QR_OK && trashed_before && (!m.deleted[0] || strcmp(m.deleted, trashed_before) > 0)) {
        st = qr_folder_not_found(f, id, errs); /* taken out of the trash meanwhile */
        qr_folder_meta_free(&m);
    } else if (st == QR_OK && if_version && m.head != if_version) {
        st = qr_store_head_conflict(errs, id, m.head, if_version);
        qr_folder_meta_free(&m);
    }
    if (st != QR_OK) {
        qr_store_unlock(lk);
        close(dir);
        return st;
    }
    /* what the artifact holds */
    uint64_t spec_bytes = 0;
    strset own = {0};
    for (int v = 1; st == QR_OK && v <= m.head; v++) {
        qr_vrec r;
        st = read_vrec_at(dir, id, v, &r, errs);
        if (st != QR_OK) break;
        spec_bytes += r.spec_size;
        strset_add(&own, r.sha256);
        qr_vrec_free(&r);
    }
    char tmp[128], rnd[17];
    qr_random_hex(rnd);
    snprintf(tmp, sizeof tmp, ".tmp.del.%s.%s", id, rnd);
    /* the owner's lock (which settles the last write's intent, while the
     * artifact is still in place) before the artifact leaves */
    ledger l;
    int gc = st == QR_OK ? gc_lock(f, LOCK_EX) : -1;
    int olock = gc >= 0 ? owner_begin(f, m.owner, &l, errs) : -1;
    if (st == QR_OK && olock < 0)
        st = gc < 0 ? io_error(errs, "", "cannot lock blobs/.gc") : QR_E_IO;
    /* the markers go with the folder: what they vouch for is done; a
     * keyed purge's record is pending until the rename (the commit point)
     * and names the folder it moves to */
    char now[32];
    qr_store_time(&f->o, 0, now);
    if (st == QR_OK) tkey_settle(f, dir, m.id);
    if (st == QR_OK && key && tkey_write(f, key, key_request, "purge", m.id, m.head, tmp, now, 0))
        st = io_error(errs, "", "cannot write the idempotency key's record");
    if (st == QR_OK && renameat(f->root, id, f->root, tmp) != 0)
        st = io_error(errs, "", "cannot move the artifact out of the store");
    if (st == QR_OK) {
        if (sync_on(f, QR_SYNC_DIR)) qr_store_sync_dir(f->root);
        if (key) tkey_write(f, key, key_request, "purge", m.id, m.head, tmp, now, 1);
        strset mine = {0}, all = {0};
        int scan = scan_refs(f, m.owner, NULL, &mine, &all);
        if (scan >= 0) {
            uint64_t freed = spec_bytes;
            for (size_t i = 0; i < own.n; i++) {
                if (strset_has(&mine, own.v[i])) continue;
                freed += blob_size(f, own.v[i]);
                marker_del(f, m.owner, own.v[i]);
            }
            l.artifacts -= l.artifacts ? 1 : 0;
            l.bytes -= freed <= l.bytes ? freed : l.bytes;
            if (ledger_save(f, m.owner, &l) != 0)
                io_error(errs, "", "cannot write the owner's quota ledger (quire fsck --repair)");
        }
        qr_store_unlock(olock);
        olock = -1;
        remove_flat_dir(f->root, tmp);
        if (sync_on(f, QR_SYNC_DIR)) qr_store_sync_dir(f->root);
        /* a blob goes only when every record was read and none uses it */
        for (size_t i = 0; scan == 0 && i < own.n; i++)
            if (!strset_has(&all, own.v[i])) unlinkat(f->blobs, own.v[i], 0);
        strset_free(&mine);
        strset_free(&all);
    }
    if (olock >= 0) qr_store_unlock(olock);
    if (gc >= 0) close(gc);
    strset_free(&own);
    qr_folder_meta_free(&m);
    qr_store_unlock(lk);
    close(dir);
    return st;
}
