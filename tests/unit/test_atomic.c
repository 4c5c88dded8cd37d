/* test_atomic.c: core/atomic.c, the one atomic file write: exact bytes and
 * nothing else in the folder, an abort or a failed commit leaves the old
 * file and no temp file, a writer killed by SIGKILL mid-write leaves
 * nothing (or, without O_TMPFILE, only a ".tmp." name fsck calls stray),
 * names too long for a temp name, a missing folder, and the random hex. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "atomic.h"

static char dir[64];

static int setup(void **state)
{
    strcpy(dir, "/tmp/qr_atomic_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The names in dir, sorted, joined with ' ' ("" when empty). */
static void names(char *out, size_t cap)
{
    struct dirent **v;
    int n = scandir(dir, &v, NULL, alphasort);
    assert_true(n >= 0);
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(v[i]->d_name, ".") && strcmp(v[i]->d_name, "..")) {
            if (out[0]) strncat(out, " ", cap - strlen(out) - 1);
            strncat(out, v[i]->d_name, cap - strlen(out) - 1);
        }
        free(v[i]);
    }
    free(v);
}

static void slurp(const char *name, char *out, size_t cap)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *fp = fopen(p, "rb");
    assert_non_null(fp);
    size_t n = fread(out, 1, cap - 1, fp);
    out[n] = '\0';
    fclose(fp);
}

static void clear(void)
{
    teardown(NULL);
    assert_int_equal(mkdir(dir, 0755), 0);
}

static void test_write_and_replace(void **state)
{
    char p[256], got[64], ls[512];
    clear();
    snprintf(p, sizeof p, "%s/out.txt", dir);
    assert_int_equal(qr_atomic_write_path(p, "first", 5), 0);
    assert_int_equal(qr_atomic_write_path(p, "second", 6), 0);
    slurp("out.txt", got, sizeof got);
    assert_string_equal(got, "second");
    names(ls, sizeof ls);
    assert_string_equal(ls, "out.txt");
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    mode_t um = umask(0);
    umask(um);
    assert_int_equal(st.st_mode & 0777, 0644 & ~um);

    /* by folder descriptor, in pieces, each sync combination */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_true(dfd >= 0);
    for (int sync = 0; sync <= QR_SYNC_ALL; sync++) {
        qr_atomic a;
        assert_int_equal(qr_atomic_begin(&a, dfd, "pieces", sync), 0);
        assert_int_equal(qr_atomic_write(&a, "ab", 2), 0);
        assert_int_equal(qr_atomic_write(&a, "", 0), 0);
        assert_int_equal(qr_atomic_write(&a, "cd", 2), 0);
        assert_int_equal(qr_atomic_commit(&a), 0);
        slurp("pieces", got, sizeof got);
        assert_string_equal(got, "abcd");
    }
    assert_int_equal(qr_atomic_write_file(dfd, "empty", "", 0, QR_SYNC_FILE), 0);
    slurp("empty", got, sizeof got);
    assert_string_equal(got, "");
    close(dfd);
    names(ls, sizeof ls);
    assert_string_equal(ls, "empty out.txt pieces");

    /* a bare name writes in the current folder */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(qr_atomic_write_path("bare", "b", 1), 0);
    assert_int_equal(chdir(cwd), 0);
    slurp("bare", got, sizeof got);
    assert_string_equal(got, "b");
}

static void test_abort_and_failed_commit(void **state)
{
    char p[256], got[64], ls[512];
    clear();
    snprintf(p, sizeof p, "%s/keep.txt", dir);
    assert_int_equal(qr_atomic_write_path(p, "old", 3), 0);
    qr_atomic a;
    assert_int_equal(qr_atomic_begin_path(&a, p, QR_SYNC_ALL), 0);
    assert_int_equal(qr_atomic_write(&a, "half", 4), 0);
    qr_atomic_abort(&a);
    qr_atomic_abort(&a); /* twice is harmless */
    slurp("keep.txt", got, sizeof got);
    assert_string_equal(got, "old");
    names(ls, sizeof ls);
    assert_string_equal(ls, "keep.txt");

    /* the rename fails (a non-empty folder is in the way): no temp file stays */
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/sub/x", dir);
    assert_int_equal(qr_atomic_write_path(p, "x", 1), 0);
    snprintf(p, sizeof p, "%s/sub", dir);
    errno = 0;
    assert_int_equal(qr_atomic_write_path(p, "data", 4), -1);
    assert_true(errno == EISDIR || errno == ENOTDIR || errno == ENOTEMPTY || errno == EEXIST);
    names(ls, sizeof ls);
    assert_string_equal(ls, "keep.txt sub");

    /* a missing folder, and a name too long to have a temp name */
    snprintf(p, sizeof p, "%s/none/out", dir);
    assert_int_equal(qr_atomic_write_path(p, "x", 1), -1);
    assert_int_equal(errno, ENOENT);
    char longname[260], longpath[400];
    memset(longname, 'n', 250);
    longname[250] = '\0';
    snprintf(longpath, sizeof longpath, "%s/%s", dir, longname);
    assert_int_equal(qr_atomic_write_path(longpath, "x", 1), -1);
    assert_int_equal(errno, ENAMETOOLONG);
    names(ls, sizeof ls);
    assert_string_equal(ls, "keep.txt sub");
}

/* A child begins a file, writes half of it and is killed with SIGKILL. */
static void test_killed_writer(void **state)
{
    char p[256], got[64], ls[512];
    clear();
    snprintf(p, sizeof p, "%s/target", dir);
    assert_int_equal(qr_atomic_write_path(p, "before", 6), 0);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        qr_atomic a;
        char named = '!';
        if (qr_atomic_begin_path(&a, p, QR_SYNC_ALL) == 0 && qr_atomic_write(&a, "half", 4) == 0)
            named = a.named ? 'n' : 'u';
        if (write(fds[1], &named, 1) != 1) _exit(1);
        pause();
        _exit(0);
    }
    char named = 0;
    assert_int_equal(read(fds[0], &named, 1), 1);
    kill(pid, SIGKILL);
    int wst;
    assert_int_equal(waitpid(pid, &wst, 0), pid);
    assert_true(WIFSIGNALED(wst));
    close(fds[0]);
    close(fds[1]);
    assert_true(named == 'u' || named == 'n');
    slurp("target", got, sizeof got);
    assert_string_equal(got, "before");
    names(ls, sizeof ls);
    if (named == 'u') {
        assert_string_equal(ls, "target"); /* O_TMPFILE: nothing survives */
    } else {
        assert_int_equal(strncmp(ls, ".tmp.target.", 12), 0); /* stray for fsck */
        assert_string_equal(ls + 18, " target");
    }
}

static void test_random_hex(void **state)
{
    char a[17], b[17];
    qr_random_hex(a);
    qr_random_hex(b);
    assert_int_equal(strlen(a), 16);
    assert_int_equal(strspn(a, "0123456789abcdef"), 16);
    assert_string_not_equal(a, b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_and_replace),
        cmocka_unit_test(test_abort_and_failed_commit),
        cmocka_unit_test(test_killed_writer),
        cmocka_unit_test(test_random_hex),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
