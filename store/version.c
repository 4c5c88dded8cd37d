/* version.c: the records both store backends write (store.c, the folder;
 * store_pg.c, PostgreSQL), filled the same way: a version from a put (the
 * action, the time, the hashes, the names, the per-file cap, the
 * idempotency key) and a new artifact's meta; the key rules and retention. */
#include "folder_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sha256.h"

qr_status qr_store_head_conflict(qr_errlist *errs, const char *id, int head, int want)
{
    return qr_errlist_addf(errs, QR_E_CONFLICT, "",
                           "qr_store_show() gives the head: prepare the change against it",
                           "artifact \"%s\" is at version %d, not %d", id, head, want);
}

qr_status qr_store_quota_error(qr_errlist *errs, const char *msg)
{
    return qr_errlist_add(errs, QR_E_QUOTA, "", msg,
                          "ask the store's operator to raise the quota, or delete artifacts");
}

qr_status qr_store_quota_exceeded(qr_errlist *errs, int art, uint64_t limit)
{
    char msg[160];
    if (art)
        snprintf(msg, sizeof msg,
                 "artifact count quota reached (%llu); delete artifacts to free space",
                 (unsigned long long)limit);
    else
        snprintf(msg, sizeof msg,
                 "artifact storage quota reached (%llu bytes); delete artifacts to free space",
                 (unsigned long long)limit);
    return qr_store_quota_error(errs, msg);
}

static qr_status file_cap(const qr_folder_opts *o, uint64_t size, qr_errlist *errs)
{
    if (o->max_version_bytes && size > o->max_version_bytes) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "artifact is too large: %llu bytes exceeds the %llu-byte per-file cap",
                 (unsigned long long)size, (unsigned long long)o->max_version_bytes);
        return qr_store_quota_error(errs, msg);
    }
    return QR_OK;
}

qr_status qr_vrec_fill(qr_vrec *rec, const qr_folder_put *put, int n, int parent,
                       const qr_folder_opts *o, int blob_ok, qr_errlist *errs)
{
    memset(rec, 0, sizeof *rec);
    rec->version = n;
    snprintf(rec->action, sizeof rec->action, "%s", put->action ? put->action : "edit");
    rec->parent = parent;
    rec->restored_from = put->restored_from;
    if (put->created && strlen(put->created) < sizeof rec->created) {
        snprintf(rec->created, sizeof rec->created, "%s", put->created);
    } else {
        time_t t = o->now ? (time_t)o->now(o->now_arg) : time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(rec->created, sizeof rec->created, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    qr_sha256_hex(put->spec, put->spec_len, rec->spec_sha256);
    rec->spec_size = put->spec_len;
    if (put->data) {
        qr_sha256_hex(put->data, put->size, rec->sha256);
    } else {
        if (!blob_ok)
            return qr_errlist_add(errs, QR_E_STORE, "", "the version's rendered bytes are missing",
                                  "run quire fsck");
        snprintf(rec->sha256, sizeof rec->sha256, "%s", put->sha256);
    }
    rec->size = put->size;
    rec->filename = strdup(put->filename ? put->filename : "artifact");
    rec->mime_type = strdup(put->mime_type ? put->mime_type : "application/octet-stream");
    rec->pages = put->pages;
    rec->warnings = strdup(put->warnings ? put->warnings : "[]");
    if (put->key && put->key_request) {
        qr_sha256_hex(put->key, strlen(put->key), rec->key_sha256);
        snprintf(rec->key_request, sizeof rec->key_request, "%s", put->key_request);
    }
    if (!rec->filename || !rec->mime_type || !rec->warnings) {
        qr_vrec_free(rec);
        return qr_errlist_add(errs, QR_E_NOMEM, "", "out of memory", NULL);
    }
    qr_status st = file_cap(o, rec->size, errs);
    if (st == QR_OK) st = file_cap(o, rec->spec_size, errs);
    if (st != QR_OK) qr_vrec_free(rec);
    return st;
}

void qr_store_time(const qr_folder_opts *o, long long offset, char out[32])
{
    time_t t = o->now ? (time_t)o->now(o->now_arg) : time(NULL);
    t += (time_t)offset;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void qr_key_cutoff(const qr_folder_opts *o, char out[32])
{
    qr_store_time(o, -(long long)QR_KEY_RETENTION, out);
}

int qr_key_valid(const char *key)
{
    size_t n = key ? strlen(key) : 0;
    if (n < 1 || n > QR_KEY_MAX) return 0;
    for (const char *p = key; *p; p++)
        if (*p < 0x21 || *p > 0x7e) return 0;
    return 1;
}

void qr_folder_meta_first(qr_folder_meta *m, const char *id, const char *kind, const char *title,
                          const char *owner, const qr_vrec *rec)
{
    memset(m, 0, sizeof *m);
    snprintf(m->id, sizeof m->id, "%s", id);
    m->kind = (char *)kind;
    m->title = (char *)(title ? title : "");
    m->owner = (char *)owner;
    m->filename = rec->filename;
    m->mime_type = rec->mime_type;
    m->created = (char *)rec->created;
    m->head = 1;
}
