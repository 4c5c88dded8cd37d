/* test_store.c: the folder store (store/folder_store.c) without rendering: ids,
 * versions, blobs, head probing past a lagging meta.json, quotas and their
 * messages, intents left by killed writers, fsck and --repair, 8 threads
 * committing to one artifact, and the spec diff. */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <quire/quire.h>
#include "sha256.h"
#include "folder_store.h"
#include "store_int.h"

static char root[256];

static int64_t fixed_now(void *arg)
{
    return 1782907200; /* 2026-07-01T12:00:00Z */
}

static void rm_rf(const char *path)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    if (system(cmd) != 0) fail_msg("rm failed");
}

static int setup(void **state)
{
    snprintf(root, sizeof root, "%s/qr_store_test_XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(root)) return -1;
    return 0;
}

static int teardown(void **state)
{
    rm_rf(root);
    return 0;
}

static qr_folder *open_store(const char *sub, uint64_t max_art, uint64_t max_bytes,
                             uint64_t max_ver)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", root, sub);
    qr_folder_opts o;
    qr_folder_opts_default(&o);
    o.max_artifacts = max_art;
    o.max_total_bytes = max_bytes;
    o.max_version_bytes = max_ver;
    o.now = fixed_now;
    o.no_sync = 1;
    qr_folder *f = NULL;
    qr_errlist e = {0};
    assert_int_equal(qr_folder_open(path, &o, &f, &e), QR_OK);
    return f;
}

static qr_folder_put put_of(const char *action, const char *spec, const char *out)
{
    qr_folder_put p = {0};
    p.action = action;
    p.spec = spec;
    p.spec_len = strlen(spec);
    p.data = out;
    p.size = strlen(out);
    p.filename = "Report.html";
    p.mime_type = "text/html";
    return p;
}

static void commit_one(qr_folder *f, const char *id, const char *spec, const char *out,
                       int want_version)
{
    qr_folder_txn *t;
    qr_errlist e = {0};
    assert_int_equal(qr_folder_begin(f, id, &t, &e), QR_OK);
    qr_folder_put p = put_of("edit", spec, out);
    qr_vrec r;
    qr_status st = qr_folder_commit(t, &p, &r, &e);
    if (st != QR_OK) fail_msg("commit: %s", e.items[0].message);
    assert_int_equal(r.version, want_version);
    qr_vrec_free(&r);
    qr_folder_end(t);
}

static void test_ids(void **state)
{
    assert_true(qr_folder_id_valid("a"));
    assert_true(qr_folder_id_valid("A1_b-2"));
    char id64[65];
    memset(id64, 'x', 64);
    id64[64] = '\0';
    assert_true(qr_folder_id_valid(id64));
    id64[63] = '\0';
    assert_true(qr_folder_id_valid(id64));
    char id65[66];
    memset(id65, 'x', 65);
    id65[65] = '\0';
    assert_false(qr_folder_id_valid(id65));
    assert_false(qr_folder_id_valid(""));
    assert_false(qr_folder_id_valid(NULL));
    assert_false(qr_folder_id_valid("../x"));
    assert_false(qr_folder_id_valid("/etc"));
    assert_false(qr_folder_id_valid("a/b"));
    assert_false(qr_folder_id_valid("."));
    assert_false(qr_folder_id_valid(".."));
    assert_false(qr_folder_id_valid("a b"));
    assert_false(qr_folder_id_valid("é"));
    char id[17];
    assert_int_equal(qr_folder_new_id(id), 0);
    assert_int_equal(strlen(id), 16);
    assert_true(qr_folder_id_valid(id));

    qr_folder *f = open_store("ids", 0, 0, 0);
    char path0[400];
    qr_folder_put p = put_of("create", "{}\n", "<html></html>");
    qr_vrec r;
    const char *bad[] = {"../x", "/abs", "", "a/../../b", NULL};
    for (int i = 0; bad[i]; i++) {
        qr_errlist e = {0};
        assert_int_equal(qr_folder_create(f, bad[i], "html", "T", NULL, &p, &r, &e), QR_E_USAGE);
        assert_non_null(strstr(e.items[0].message, "invalid artifact id"));
        qr_errlist_clear(&e);
        qr_folder_txn *t;
        assert_int_equal(qr_folder_begin(f, bad[i], &t, &e), QR_E_USAGE);
        qr_errlist_clear(&e);
    }
    qr_errlist e = {0};
    /* an owner is any UTF-8 up to 256 bytes: "../owner" names a hashed
     * ledger inside the store; 300 bytes or a control character do not */
    assert_int_equal(qr_folder_create(f, "ok", "html", "T", "../owner", &p, &r, &e), QR_OK);
    qr_vrec_free(&r);
    char big[301];
    memset(big, 'o', 300);
    big[300] = '\0';
    assert_int_equal(qr_folder_create(f, "ok2", "html", "T", big, &p, &r, &e), QR_E_USAGE);
    assert_string_equal(e.items[0].message, "invalid owner (300 bytes)");
    qr_errlist_clear(&e);
    assert_int_equal(qr_folder_create(f, "ok3", "html", "T", "a\nb", &p, &r, &e), QR_E_USAGE);
    qr_errlist_clear(&e);
    snprintf(path0, sizeof path0, "%s/owner.json", root);
    assert_int_equal(access(path0, F_OK), -1);
    /* nothing was created outside the store */
    char path[400];
    snprintf(path, sizeof path, "%s/x", root);
    assert_int_equal(access(path, F_OK), -1);
    qr_folder_close(f);
}

static void test_versions_and_reads(void **state)
{
    qr_folder *f = open_store("v", 0, 0, 0);
    qr_errlist e = {0};
    qr_folder_put p = put_of("create", "{\n  \"title\": \"A\"\n}\n", "<p>A</p>");
    qr_vrec r;
    assert_int_equal(qr_folder_create(f, "art1", "html", "Title", "alice", &p, &r, &e), QR_OK);
    assert_int_equal(r.version, 1);
    assert_string_equal(r.created, "2026-07-01T12:00:00Z");
    char hex[65];
    qr_sha256_hex("<p>A</p>", 8, hex);
    assert_string_equal(r.sha256, hex);
    qr_vrec_free(&r);
    /* a second create with the same id fails */
    assert_int_equal(qr_folder_create(f, "art1", "html", "Title", "alice", &p, &r, &e),
                     QR_E_CONFLICT);
    assert_string_equal(e.items[0].message, "artifact \"art1\" already exists");
    qr_errlist_clear(&e);

    commit_one(f, "art1", "{\n  \"title\": \"B\"\n}\n", "<p>B</p>", 2);
    commit_one(f, "art1", "{\n  \"title\": \"C\"\n}\n", "<p>A</p>",
               3); /* same output as v1: one blob */

    qr_folder_meta m;
    assert_int_equal(qr_folder_meta_load(f, "art1", &m, &e), QR_OK);
    assert_int_equal(m.head, 3);
    assert_string_equal(m.kind, "html");
    assert_string_equal(m.title, "Title");
    assert_string_equal(m.owner, "alice");
    assert_string_equal(m.filename, "Report.html");
    qr_folder_meta_free(&m);

    qr_buf b = {0};
    assert_int_equal(qr_folder_spec(f, "art1", 2, &b, &e), QR_OK);
    assert_string_equal(b.data, "{\n  \"title\": \"B\"\n}\n");
    qr_buf_free(&b);
    assert_int_equal(qr_folder_spec(f, "art1", 0, &b, &e), QR_OK);
    assert_string_equal(b.data, "{\n  \"title\": \"C\"\n}\n");
    qr_buf_free(&b);
    assert_int_equal(qr_folder_spec(f, "art1", 4, &b, &e), QR_E_NOT_FOUND);
    assert_string_equal(e.items[0].message, "artifact \"art1\" has no version 4 (versions 1 to 3)");
    qr_errlist_clear(&e);
    assert_int_equal(qr_folder_spec(f, "nope", 1, &b, &e), QR_E_NOT_FOUND);
    /* the message names the store's folder, absolute */
    const char *nf = "no artifact \"nope\" in the store /";
    assert_int_equal(strncmp(e.items[0].message, nf, strlen(nf)), 0);
    qr_errlist_clear(&e);

    qr_vrec *log;
    size_t n;
    assert_int_equal(qr_folder_log(f, "art1", &log, &n, &e), QR_OK);
    assert_int_equal(n, 3);
    assert_string_equal(log[0].action, "create");
    assert_int_equal(log[0].parent, 0);
    assert_string_equal(log[2].action, "edit");
    assert_int_equal(log[2].parent, 2);
    assert_string_equal(log[2].sha256, log[0].sha256);
    assert_int_equal(qr_folder_blob(f, log[1].sha256, &b, &e), QR_OK);
    assert_string_equal(b.data, "<p>B</p>");
    qr_buf_free(&b);
    /* restore: reuse the stored blob */
    qr_folder_txn *t;
    assert_int_equal(qr_folder_begin(f, "art1", &t, &e), QR_OK);
    qr_folder_put rp = {0};
    rp.action = "restore";
    rp.restored_from = 2;
    rp.spec = "{\n  \"title\": \"B\"\n}\n";
    rp.spec_len = strlen(rp.spec);
    rp.sha256 = log[1].sha256;
    rp.size = log[1].size;
    assert_int_equal(qr_folder_commit(t, &rp, &r, &e), QR_OK);
    assert_int_equal(r.version, 4);
    assert_int_equal(r.restored_from, 2);
    qr_vrec_free(&r);
    qr_folder_end(t);
    for (size_t i = 0; i < n; i++)
        qr_vrec_free(&log[i]);
    free(log);

    qr_folder_fsck rep;
    assert_int_equal(qr_folder_check(f, 0, &rep), QR_OK);
    assert_int_equal(rep.artifacts, 1);
    assert_int_equal(rep.versions, 4);
    assert_int_equal(rep.blobs, 2);
    assert_int_equal(rep.stray.count, 0);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    qr_folder_close(f);
}

/* A writer killed between its steps: leftovers are stray, never versions. */
static void test_crash_leftovers(void **state)
{
    qr_folder *f = open_store("crash", 0, 1000000, 0);
    qr_errlist e = {0};
    qr_folder_put p = put_of("create", "{\"v\":1}\n", "one");
    qr_vrec r;
    assert_int_equal(qr_folder_create(f, "a", "html", "", "bob", &p, &r, &e), QR_OK);
    qr_vrec_free(&r);
    commit_one(f, "a", "{\"v\":2}\n", "two", 2);
    char dir[400];
    snprintf(dir, sizeof dir, "%s/crash/a", root);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    /* 1. meta.json's head lags (it is refreshed every 16 versions, and a
     * writer may be killed before refreshing it): readers probe past it */
    qr_buf mb = {0};
    assert_int_equal(qr_store_read_file(dfd, "meta.json", &mb), 0);
    assert_non_null(strstr(mb.data, "\"head\": 1"));
    qr_buf_free(&mb);
    qr_folder_meta m;
    assert_int_equal(qr_folder_meta_load(f, "a", &m, &e), QR_OK);
    assert_int_equal(m.head, 2); /* probed past the cache */
    qr_folder_meta_free(&m);
    /* 2. a spec renamed into place without its .meta, and a temp file */
    assert_int_equal(qr_atomic_write_file(dfd, "v000003.json", "{\"v\":3}\n", 8, 0), 0);
    int tfd = openat(dfd, ".tmp.v000003.meta.0123456789abcdef", O_CREAT | O_WRONLY, 0644);
    close(tfd);
    /* 3. an intent in the ledger whose version never appeared */
    char owners[400];
    snprintf(owners, sizeof owners, "%s/crash/.owners", root);
    int ofd = open(owners, O_RDONLY | O_DIRECTORY);
    qr_buf lb = {0};
    assert_int_equal(qr_store_read_file(ofd, "bob.json", &lb), 0);
    /* read the real totals, then write them + 1000 with a pending intent for v3 */
    long long arts = 0, bytes = 0;
    const char *pa = strstr(lb.data, "\"artifacts\": "), *pb = strstr(lb.data, "\"bytes\": ");
    assert_non_null(pa);
    assert_non_null(pb);
    arts = atoll(pa + 13);
    bytes = atoll(pb + 9);
    qr_buf_free(&lb);
    char ledger[512];
    int n = snprintf(ledger, sizeof ledger,
                     "{\"owner\":\"bob\",\"artifacts\":%lld,\"bytes\":%lld,\"pending\":{\"id\":"
                     "\"a\",\"version\":3,"
                     "\"spec_sha256\":\"%064d\",\"artifacts\":0,\"bytes\":1000,\"blob\":\"\"}}\n",
                     arts, bytes + 1000, 0);
    assert_int_equal(qr_atomic_write_file(ofd, "bob.json", ledger, (size_t)n, 0), 0);
    /* 4. a half-built new artifact folder and an unreferenced blob */
    assert_int_equal(mkdirat(open(root, O_RDONLY), "crash/.tmp.new.b.0000000000000000", 0755), 0);
    char blobs[400];
    snprintf(blobs, sizeof blobs, "%s/crash/blobs", root);
    int bfd = open(blobs, O_RDONLY | O_DIRECTORY);
    char hex[65];
    qr_sha256_hex("orphan", 6, hex);
    assert_int_equal(qr_atomic_write_file(bfd, hex, "orphan", 6, 0), 0);

    /* fsck settles the intent (rolled back: v3 has no .meta) and passes */
    qr_folder_fsck rep;
    assert_int_equal(qr_folder_check(f, 0, &rep), QR_OK);
    assert_int_equal(rep.problems.count, 0);
    assert_int_equal(rep.versions, 2);
    /* stray: v000003.json, temp file, new-artifact folder, blob (a lagging
     * head cache is by design, not stray) */
    assert_int_equal(rep.stray.count, 4);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    /* the next commit writes v3 over the leftover */
    commit_one(f, "a", "{\"v\":33}\n", "three", 3);
    qr_buf sb = {0};
    assert_int_equal(qr_folder_spec(f, "a", 3, &sb, &e), QR_OK);
    assert_string_equal(sb.data, "{\"v\":33}\n");
    qr_buf_free(&sb);
    /* repair removes the rest; a second check is clean */
    assert_int_equal(qr_folder_check(f, 1, &rep), QR_OK);
    assert_true(rep.repaired >= 3);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    assert_int_equal(qr_folder_check(f, 0, &rep), QR_OK);
    assert_int_equal(rep.stray.count, 0);
    assert_int_equal(rep.problems.count, 0);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    /* damage: a changed spec and a missing blob are problems */
    assert_int_equal(qr_atomic_write_file(dfd, "v000002.json", "{\"v\":9}\n", 8, 0), 0);
    qr_vrec vr;
    assert_int_equal(qr_folder_version(f, "a", 1, &vr, &e), QR_OK);
    unlinkat(bfd, vr.sha256, 0);
    qr_vrec_free(&vr);
    assert_int_equal(qr_folder_check(f, 0, &rep), QR_E_STORE);
    assert_true(rep.problems.count >= 2);
    int saw_spec = 0, saw_blob = 0;
    for (size_t i = 0; i < rep.problems.count; i++) {
        if (!strcmp(rep.problems.items[i].path, "a/v000002.json")) saw_spec = 1;
        if (strstr(rep.problems.items[i].message, "missing or damaged, referenced by a version 1"))
            saw_blob = 1;
    }
    assert_true(saw_spec);
    assert_true(saw_blob);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    close(dfd);
    close(ofd);
    close(bfd);
    qr_folder_close(f);
}

static void test_quotas(void **state)
{
    /* count: 2 artifacts; bytes: 100; per file: 40 */
    qr_folder *f = open_store("quota", 2, 100, 40);
    qr_errlist e = {0};
    qr_vrec r;
    qr_folder_put p = put_of("create", "{}\n", "0123456789"); /* 3 + 10 bytes */
    assert_int_equal(qr_folder_create(f, "q1", "html", "", "carol", &p, &r, &e), QR_OK);
    qr_vrec_free(&r);
    /* same output again: the blob is charged once (3 more bytes) */
    assert_int_equal(qr_folder_create(f, "q2", "html", "", "carol", &p, &r, &e), QR_OK);
    qr_vrec_free(&r);
    assert_int_equal(qr_folder_create(f, "q3", "html", "", "carol", &p, &r, &e), QR_E_QUOTA);
    assert_string_equal(e.items[0].message,
                        "artifact count quota reached (2); delete artifacts to free space");
    qr_errlist_clear(&e);
    /* another owner is not affected */
    assert_int_equal(qr_folder_create(f, "d1", "html", "", "dave", &p, &r, &e), QR_OK);
    qr_vrec_free(&r);
    /* per-file cap */
    qr_folder_txn *t;
    assert_int_equal(qr_folder_begin(f, "q1", &t, &e), QR_OK);
    qr_folder_put big =
        put_of("edit", "{}\n", "01234567890123456789012345678901234567890"); /* 41 */
    assert_int_equal(qr_folder_commit(t, &big, &r, &e), QR_E_QUOTA);
    assert_string_equal(e.items[0].message,
                        "artifact is too large: 41 bytes exceeds the 40-byte per-file cap");
    qr_errlist_clear(&e);
    /* total bytes: used 16 of 100; each new 30-byte output + 3-byte spec = 33 */
    qr_folder_put a = put_of("edit", "{}\n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    qr_folder_put b = put_of("edit", "{}\n", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
    qr_folder_put c = put_of("edit", "{}\n", "cccccccccccccccccccccccccccccc");
    assert_int_equal(qr_folder_commit(t, &a, &r, &e), QR_OK); /* 49 */
    qr_vrec_free(&r);
    assert_int_equal(qr_folder_commit(t, &b, &r, &e), QR_OK); /* 82 */
    qr_vrec_free(&r);
    assert_int_equal(qr_folder_commit(t, &c, &r, &e), QR_E_QUOTA); /* 115 > 100 */
    assert_string_equal(
        e.items[0].message,
        "artifact storage quota reached (100 bytes); delete artifacts to free space");
    qr_errlist_clear(&e);
    /* a repeated output costs only its spec: 85 */
    assert_int_equal(qr_folder_commit(t, &a, &r, &e), QR_OK);
    assert_int_equal(r.version, 4);
    qr_vrec_free(&r);
    qr_folder_end(t);
    /* failed writes appended nothing */
    qr_folder_meta m;
    assert_int_equal(qr_folder_meta_load(f, "q1", &m, &e), QR_OK);
    assert_int_equal(m.head, 4);
    qr_folder_meta_free(&m);
    qr_folder_fsck rep;
    assert_int_equal(qr_folder_check(f, 0, &rep), QR_OK); /* ledgers match the recount */
    assert_int_equal(rep.problems.count, 0);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    qr_folder_close(f);
}

typedef struct thread_arg {
    qr_folder *f;
    int tid;
    int failures;
} thread_arg;

#define FOLDER_EDITS 25 /* the 8 x 100 run is test_api_threads, through render too */

static void *writer(void *p)
{
    thread_arg *a = p;
    for (int i = 0; i < FOLDER_EDITS; i++) {
        qr_folder_txn *t;
        qr_errlist e = {0};
        if (qr_folder_begin(a->f, "shared", &t, &e) != QR_OK) {
            a->failures++;
            qr_errlist_clear(&e);
            continue;
        }
        char spec[64], out[64];
        snprintf(spec, sizeof spec, "{\"t\":%d,\"i\":%d}\n", a->tid, i);
        snprintf(out, sizeof out, "out %d %d", a->tid, i);
        qr_folder_put put = put_of("edit", spec, out);
        qr_vrec r;
        if (qr_folder_commit(t, &put, &r, &e) != QR_OK)
            a->failures++;
        else
            qr_vrec_free(&r);
        qr_folder_end(t);
        qr_errlist_clear(&e);
    }
    return NULL;
}

static void test_threads(void **state)
{
    qr_folder *f = open_store("threads", 0, 0, 0);
    qr_errlist e = {0};
    qr_folder_put p = put_of("create", "{}\n", "start");
    qr_vrec r;
    assert_int_equal(qr_folder_create(f, "shared", "html", "", NULL, &p, &r, &e), QR_OK);
    qr_vrec_free(&r);
    pthread_t th[8];
    thread_arg args[8];
    for (int i = 0; i < 8; i++) {
        args[i] = (thread_arg){f, i, 0};
        pthread_create(&th[i], NULL, writer, &args[i]);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    qr_vrec *log;
    size_t n;
    assert_int_equal(qr_folder_log(f, "shared", &log, &n, &e), QR_OK);
    assert_int_equal(n, 8 * FOLDER_EDITS + 1);
    /* every (thread, i) exactly once, versions in order */
    static char seen[8][FOLDER_EDITS];
    memset(seen, 0, sizeof seen);
    for (size_t i = 1; i < n; i++) {
        assert_int_equal(log[i].version, (int)i + 1);
        assert_int_equal(log[i].parent, (int)i);
        qr_buf b = {0};
        assert_int_equal(qr_folder_spec(f, "shared", (int)i + 1, &b, &e), QR_OK);
        int tid, k;
        assert_int_equal(sscanf(b.data, "{\"t\":%d,\"i\":%d}", &tid, &k), 2);
        assert_int_equal(seen[tid][k], 0);
        seen[tid][k] = 1;
        qr_buf_free(&b);
    }
    for (size_t i = 0; i < n; i++)
        qr_vrec_free(&log[i]);
    free(log);
    qr_folder_fsck rep;
    assert_int_equal(qr_folder_check(f, 0, &rep), QR_OK);
    assert_int_equal(rep.versions, 8 * FOLDER_EDITS + 1);
    qr_errlist_clear(&rep.problems);
    qr_errlist_clear(&rep.stray);
    qr_folder_close(f);
}

/* The public API (render + store) from 8 threads sharing one qr_store. */
typedef struct api_arg {
    qr_store *s;
    int tid, failures;
} api_arg;

static void *api_writer(void *p)
{
    api_arg *a = p;
    for (int i = 0; i < 100; i++) {
        char app[128];
        snprintf(app, sizeof app, "{\"blocks\":[{\"type\":\"paragraph\",\"text\":\"t%d-%d\"}]}",
                 a->tid, i);
        qr_store_result r;
        if (qr_store_edit(a->s, "api", NULL, app, NULL, &r) != QR_OK || r.unchanged) a->failures++;
        qr_store_result_free(&r);
    }
    return NULL;
}

static void test_api_threads(void **state)
{
    char path[400];
    snprintf(path, sizeof path, "%s/api", root);
    qr_store_opts o;
    qr_store_opts_default(&o);
    o.no_sync = 1; /* the locks under test do not depend on fsync */
    qr_store *s;
    qr_errlist e = {0};
    assert_int_equal(qr_store_open(path, &o, &s, &e), QR_OK);
    const char *spec = "{\"title\":\"T\",\"blocks\":[]}";
    qr_store_result r;
    assert_int_equal(qr_store_create(s, QR_KIND_HTML, spec, strlen(spec), "T", "api", NULL, &r),
                     QR_OK);
    assert_string_equal(r.version.filename, "report.html");
    qr_store_result_free(&r);
    pthread_t th[8];
    api_arg args[8];
    for (int i = 0; i < 8; i++) {
        args[i] = (api_arg){s, i, 0};
        pthread_create(&th[i], NULL, api_writer, &args[i]);
    }
    for (int i = 0; i < 8; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(args[i].failures, 0);
    }
    assert_int_equal(qr_store_log(s, "api", &r), QR_OK);
    assert_int_equal(r.log_count, 801);
    for (size_t i = 0; i < r.log_count; i++)
        assert_int_equal(r.log[i].version, (int)i + 1);
    qr_store_result_free(&r);
    /* version n holds n-1 paragraphs, and the head's are all distinct */
    for (int n = 1; n <= 801; n += 100) {
        assert_int_equal(qr_store_show(s, "api", n, &r), QR_OK);
        int count = 0;
        for (const char *p = r.spec; (p = strstr(p, "\"paragraph\"")); p++)
            count++;
        assert_int_equal(count, n - 1);
        qr_store_result_free(&r);
    }
    assert_int_equal(qr_store_show(s, "api", 0, &r), QR_OK);
    for (int t = 0; t < 8; t++)
        for (int i = 0; i < 100; i++) {
            char want[32];
            snprintf(want, sizeof want, "\"t%d-%d\"", t, i);
            const char *hit = strstr(r.spec, want);
            assert_non_null(hit);
            assert_null(strstr(hit + 1, want));
        }
    qr_store_result_free(&r);
    qr_store_fsck f;
    assert_int_equal(qr_store_fsck_run(s, 0, &f), QR_OK);
    assert_int_equal(f.versions, 801);
    qr_store_fsck_free(&f);
    qr_store_close(s);
}

static void test_filenames(void **state)
{
    char out[128];
    qr_store_filename(QR_KIND_HTML, "Anything", "id1", out, sizeof out);
    assert_string_equal(out, "report.html");
    qr_store_filename(QR_KIND_PRESENTATION, "Q3 Deck", "id1", out, sizeof out);
    assert_string_equal(out, "Q3_Deck.pptx");
    qr_store_filename(QR_KIND_DOCUMENT, "  ", "id1", out, sizeof out);
    assert_string_equal(out, "artifact.docx");
    qr_store_filename(QR_KIND_DOCUMENT, NULL, "id1", out, sizeof out);
    assert_string_equal(out, "artifact.docx");
    qr_store_filename(QR_KIND_PDF, "../../etc/passwd", "id1", out, sizeof out);
    assert_string_equal(out, "etc_passwd.pdf");
    qr_store_filename(QR_KIND_SPREADSHEET, "R\xc3\xa9sum\xc3\xa9 2026: \"final\"", "id1", out,
                      sizeof out);
    assert_string_equal(out, "Resume_2026_final.xlsx");
    qr_store_filename(QR_KIND_DOCUMENT, "\xe6\x97\xa5\xe6\x9c\xac", "id1", out, sizeof out);
    assert_string_equal(out, "id1.docx");
}

static void test_diff(void **state)
{
    const char *a = "{\n  \"title\": \"A\",\n  \"blocks\": [\n    {\n      \"type\": "
                    "\"heading\",\n      \"text\": \"H\"\n    }\n  ],\n  \"lang\": \"en\"\n}\n";
    const char *b = "{\n  \"title\": \"B\",\n  \"blocks\": [\n    {\n      \"type\": "
                    "\"heading\",\n      \"text\": \"H\"\n    },\n    {\n      \"type\": "
                    "\"page_break\"\n    }\n  ],\n  \"page\": {\n    \"size\": \"A4\"\n  }\n}\n";
    qr_spec_diff d;
    qr_errlist e = {0};
    assert_int_equal(qr_spec_diff_texts(a, strlen(a), b, strlen(b), "v1", "v2", &d, &e), QR_OK);
    assert_int_equal(d.n_changed, 1);
    assert_string_equal(d.changed[0], "/title");
    assert_int_equal(d.n_added, 2);
    assert_string_equal(d.added[0], "/blocks/1");
    assert_string_equal(d.added[1], "/page");
    assert_int_equal(d.n_removed, 1);
    assert_string_equal(d.removed[0], "/lang");
    assert_string_equal(d.unified.data, "--- v1\n+++ v2\n"
                                        "@@ -1,10 +1,15 @@\n"
                                        " {\n"
                                        "-  \"title\": \"A\",\n"
                                        "+  \"title\": \"B\",\n"
                                        "   \"blocks\": [\n"
                                        "     {\n"
                                        "       \"type\": \"heading\",\n"
                                        "       \"text\": \"H\"\n"
                                        "+    },\n"
                                        "+    {\n"
                                        "+      \"type\": \"page_break\"\n"
                                        "     }\n"
                                        "   ],\n"
                                        "-  \"lang\": \"en\"\n"
                                        "+  \"page\": {\n"
                                        "+    \"size\": \"A4\"\n"
                                        "+  }\n"
                                        " }\n");
    qr_spec_diff_free(&d);

    /* separate hunks, and identical texts give no diff */
    qr_buf out = {0};
    const char *x = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n";
    const char *y = "1\n2\nthree\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n";
    qr_line_diff(x, strlen(x), y, strlen(y), "a", "b", 3, &out);
    assert_string_equal(out.data, "--- a\n+++ b\n"
                                  "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
                                  "@@ -13,3 +13,4 @@\n 13\n 14\n 15\n+16\n");
    qr_buf_free(&out);
    qr_line_diff(x, strlen(x), x, strlen(x), "a", "b", 3, &out);
    assert_null(out.data);
    /* a missing final newline is marked */
    qr_line_diff("a\n", 2, "a", 1, "a", "b", 3, &out);
    assert_string_equal(out.data,
                        "--- a\n+++ b\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n");
    qr_buf_free(&out);
    /* random edits: the script must rebuild b from a */
    srand(7);
    for (int round = 0; round < 50; round++) {
        char ta[400] = "", tb[400] = "";
        for (int i = 0; i < 30; i++) {
            char l[8];
            snprintf(l, sizeof l, "%d\n", rand() % 5);
            strcat(ta, l);
            if (rand() % 3) strcat(tb, l);
            if (rand() % 4 == 0) strcat(tb, "x\n");
        }
        qr_line_diff(ta, strlen(ta), tb, strlen(tb), "a", "b", 1000, &out);
        /* with huge context, one hunk holds all of b: rebuild it */
        char rebuilt[800] = "";
        if (out.data) {
            const char *p = strstr(out.data, "@@\n") + 3;
            while (*p) {
                const char *nl = strchr(p, '\n');
                if (*p == ' ' || *p == '+') strncat(rebuilt, p + 1, (size_t)(nl - p));
                p = nl + 1;
            }
        } else {
            strcpy(rebuilt, ta);
        }
        assert_string_equal(rebuilt, tb);
        qr_buf_free(&out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids),
        cmocka_unit_test(test_versions_and_reads),
        cmocka_unit_test(test_crash_leftovers),
        cmocka_unit_test(test_quotas),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_diff),
        cmocka_unit_test(test_api_threads),
        cmocka_unit_test(test_filenames),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
