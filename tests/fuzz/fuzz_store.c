/* fuzz_store.c: the folder store's readers (store.h) on damaged files.
 *
 * The store exposes no reader that takes bytes, so each input is written
 * into a fresh store folder and read back through the public entry points.
 * The input is parts separated by the byte 0x1e (ASCII record separator):
 *
 *     SEL meta.json 0x1e v000001.json 0x1e v000001.meta 0x1e v000002.json
 *         0x1e v000002.meta 0x1e .owners/o.json 0x1e blob
 *
 * (artifact "a" of owner "o"; an empty part means the file is absent; the
 * blob is stored under its own sha256). SEL picks the version that show
 * reads (bits 0..1), whether fsck also repairs (bit 2), whether an edit is
 * committed through a transaction (bit 3), as `quire edit` would, whether an
 * absent v000002.json is a FIFO (bit 4) or a folder (bit 5) instead (no
 * reader may block or follow it), and whether the artifact is listed and
 * deleted at the end (bit 6).
 *
 * Then: meta_load, version, spec, log, blob, diff of the two specs, begin/
 * commit/end, fsck (and fsck --repair, then fsck again). Beyond crashes and
 * leaks, it checks that nothing is created outside the store folder: the
 * store sits at the bottom of a chain of folders that must stay as made.
 *
 * The blob part is also a store location (store/location.h): told apart
 * and scrubbed of its secrets, and a password made of its letters and
 * digits, planted in a keyword string and a URI, never survives the scrub. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sha256.h"
#include "folder_store.h"
#include "location.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define SEP 0x1e
#define N_PARTS 7
#define CHAIN 6

static char base[256];         /* the chain's top folder */
static char chain[CHAIN][512]; /* base/c0, base/c0/c1, ... */
static char store[600];        /* chain[CHAIN-1]/store */

static void check(int ok)
{
    if (!ok) __builtin_trap();
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void rm_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void setup(void)
{
    const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(base, sizeof base, "%s/quire-fuzz-store.XXXXXX", tmp);
    check(mkdtemp(base) != NULL);
    const char *prev = base;
    for (int i = 0; i < CHAIN; i++) {
        snprintf(chain[i], sizeof chain[i], "%s/c%d", prev, i);
        check(mkdir(chain[i], 0755) == 0);
        prev = chain[i];
    }
    snprintf(store, sizeof store, "%s/store", chain[CHAIN - 1]);
}

/* Each folder of the chain holds exactly its child, and the store root holds
 * only what the store makes: nothing escaped. */
static int only(const char *dir, const char *const *allowed)
{
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    int ok = 1;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int hit = 0;
        for (const char *const *a = allowed; *a; a++)
            if (!strcmp(e->d_name, *a) ||
                (!strcmp(*a, ".tmp.*") && !strncmp(e->d_name, ".tmp.", 5)))
                hit = 1;
        if (!hit) {
            fprintf(stderr, "fuzz_store: %s/%s was created outside the store\n", dir, e->d_name);
            ok = 0;
        }
    }
    closedir(d);
    return ok;
}

static void check_contained(void)
{
    char name[8];
    for (int i = 0; i < CHAIN; i++) {
        const char *dir = i == 0 ? base : chain[i - 1];
        snprintf(name, sizeof name, "c%d", i);
        const char *allowed[] = {name, NULL};
        check(only(dir, allowed));
    }
    const char *last[] = {"store", NULL};
    check(only(chain[CHAIN - 1], last));
    const char *root[] = {"a", "blobs", ".owners", ".tmp.*", NULL};
    check(only(store, root));
}

static void put_file(const char *dir, const char *name, const char *p, size_t n)
{
    if (n == 0) return; /* empty part: absent file */
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    check(fd >= 0);
    while (n) {
        ssize_t w = write(fd, p, n);
        check(w > 0);
        p += w;
        n -= (size_t)w;
    }
    close(fd);
}

static int64_t fixed_now(void *arg)
{
    (void)arg;
    return 1782864000; /* 2026-07-01 */
}

static void free_fsck(qr_folder_fsck *r)
{
    qr_errlist_clear(&r->problems);
    qr_errlist_clear(&r->stray);
}

/* The bytes as a store location, and a password planted from them. */
static void locations(const char *p, size_t n)
{
    char loc[1024], out[1200], secret[64], planted[256];
    if (n >= sizeof loc) n = sizeof loc - 1;
    memcpy(loc, p, n);
    loc[n] = '\0';
    qr_store_loc_is_db(loc);
    qr_store_loc_scrub(loc, loc, out, sizeof out);
    check(strlen(out) < sizeof out);
    qr_store_loc_scrub(loc, loc, out, 7); /* a short buffer is cut, terminated */
    check(strlen(out) < 7);
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof secret; i++)
        if ((loc[i] >= 'a' && loc[i] <= 'z') || (loc[i] >= 'A' && loc[i] <= 'Z') ||
            (loc[i] >= '0' && loc[i] <= '9'))
            secret[k++] = loc[i];
    secret[k] = '\0';
    if (k < 4) return;
    static const char *const forms[] = {"host=h password=%s", "postgresql://u:%s@h/db",
                                        "postgres://u@h/db?x=1&password=%s",
                                        "dbname=d password='%s'", "postgresql:%s"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        snprintf(planted, sizeof planted, forms[i], secret);
        check(qr_store_loc_is_db(planted));
        char msg[400];
        snprintf(msg, sizeof msg, "failed at %s: %s (%s)", secret, planted, secret);
        qr_store_loc_scrub(planted, msg, out, sizeof out);
        check(!strstr(out, secret));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!base[0]) setup();
    if (size < 1) return 0;
    unsigned sel = data[0];
    const char *part[N_PARTS];
    size_t len[N_PARTS];
    size_t k = 0, start = 1;
    for (size_t i = 1; i < size && k + 1 < N_PARTS; i++) {
        if (data[i] != SEP) continue;
        part[k] = (const char *)data + start;
        len[k++] = i - start;
        start = i + 1;
    }
    part[k] = (const char *)data + start;
    len[k++] = size - start;
    for (; k < N_PARTS; k++)
        part[k] = "", len[k] = 0;

    locations(part[6], len[6]);
    rm_tree(store);
    qr_folder_opts fo;
    qr_folder_opts_default(&fo);
    fo.no_sync = 1;
    fo.now = fixed_now;
    qr_folder *f = NULL;
    qr_errlist errs = {0};
    check(qr_folder_open(store, &fo, &f, &errs) == QR_OK);
    char art[700], owners[700], blobs[700];
    snprintf(art, sizeof art, "%s/a", store);
    snprintf(owners, sizeof owners, "%s/.owners", store);
    snprintf(blobs, sizeof blobs, "%s/blobs", store);
    check(mkdir(art, 0755) == 0);
    put_file(art, "meta.json", part[0], len[0]);
    put_file(art, "v000001.json", part[1], len[1]);
    put_file(art, "v000001.meta", part[2], len[2]);
    put_file(art, "v000002.json", part[3], len[3]);
    if (!len[3] && (sel & 16)) {
        char fifo[800];
        snprintf(fifo, sizeof fifo, "%s/v000002.json", art);
        check(mkfifo(fifo, 0644) == 0);
    } else if (!len[3] && (sel & 32)) {
        char sub[800];
        snprintf(sub, sizeof sub, "%s/v000002.json", art);
        check(mkdir(sub, 0755) == 0);
    }
    put_file(art, "v000002.meta", part[4], len[4]);
    put_file(owners, "o.json", part[5], len[5]);
    if (len[6]) {
        char hex[65];
        qr_sha256_hex(part[6], len[6], hex);
        put_file(blobs, hex, part[6], len[6]);
    }

    /* show: meta, a version's record, its spec and its blob */
    qr_folder_meta m;
    if (qr_folder_meta_load(f, "a", &m, &errs) == QR_OK) {
        check(m.head >= 0 && m.kind && m.title && m.owner && m.filename && m.mime_type &&
              m.created);
        qr_folder_meta_free(&m);
    }
    qr_errlist_clear(&errs);
    qr_vrec rec;
    int n = (int)(sel & 3);
    if (qr_folder_version(f, "a", n, &rec, &errs) == QR_OK) {
        check(rec.filename && rec.mime_type);
        qr_buf blob = {0};
        qr_folder_blob(f, rec.sha256, &blob, &errs);
        qr_buf_free(&blob);
        qr_vrec_free(&rec);
    }
    qr_errlist_clear(&errs);
    qr_buf s1 = {0}, s2 = {0};
    qr_status st1 = qr_folder_spec(f, "a", 1, &s1, &errs);
    qr_errlist_clear(&errs);
    qr_status st2 = qr_folder_spec(f, "a", 2, &s2, &errs);
    qr_errlist_clear(&errs);
    if (st1 == QR_OK && st2 == QR_OK) {
        /* diff: two versions' texts, as `quire diff a 1 2` */
        qr_spec_diff d;
        memset(&d, 0, sizeof d);
        qr_spec_diff_texts(s1.data, s1.len, s2.data, s2.len, "v1", "v2", &d, &errs);
        qr_spec_diff_free(&d);
        qr_errlist_clear(&errs);
    }
    qr_buf_free(&s1);
    qr_buf_free(&s2);

    /* log */
    qr_vrec *recs = NULL;
    size_t nrec = 0;
    qr_folder_log(f, "a", &recs, &nrec, &errs);
    for (size_t i = 0; i < nrec; i++)
        qr_vrec_free(&recs[i]);
    free(recs);
    qr_errlist_clear(&errs);

    /* an edit through a transaction, as `quire edit` */
    if (sel & 8) {
        qr_folder_txn *t = NULL;
        if (qr_folder_begin(f, "a", &t, &errs) == QR_OK) {
            static const char spec[] = "{\n  \"blocks\": []\n}\n";
            qr_folder_put put = {.action = "edit",
                                 .spec = spec,
                                 .spec_len = sizeof spec - 1,
                                 .data = "bytes",
                                 .size = 5};
            qr_vrec r;
            if (qr_folder_commit(t, &put, &r, &errs) == QR_OK) qr_vrec_free(&r);
            qr_folder_end(t);
        }
        qr_errlist_clear(&errs);
    }

    /* list, then delete */
    if (sel & 64) {
        qr_folder_meta *all = NULL;
        size_t na = 0;
        if (qr_folder_list_all(f, &all, &na, &errs) == QR_OK) {
            check(na <= 1);
            for (size_t i = 0; i < na; i++)
                qr_folder_meta_free(&all[i]);
        }
        free(all);
        qr_errlist_clear(&errs);
        if (qr_folder_delete(f, "a", &errs) == QR_OK) {
            char gone[800];
            snprintf(gone, sizeof gone, "%s/a", store);
            check(access(gone, F_OK) != 0);
        }
        qr_errlist_clear(&errs);
    }

    /* fsck, and with repair: then fsck again */
    qr_folder_fsck rep;
    qr_folder_check(f, 0, &rep);
    free_fsck(&rep);
    if (sel & 4) {
        qr_folder_check(f, 1, &rep);
        free_fsck(&rep);
        qr_folder_check(f, 0, &rep);
        free_fsck(&rep);
    }
    qr_folder_close(f);
    check_contained();
    return 0;
}
