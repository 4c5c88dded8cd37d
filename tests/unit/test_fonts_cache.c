/* test_fonts_cache.c: the font table and its cache file (fonts/table.c,
 * fonts/cache.c).
 *
 * - The default set's coverage is fontconfig's, code point for code point:
 *   every family's regular face covers exactly what its FcCharSet holds;
 *   without qr_fonts_enable_cache() it writes no cache file.
 * - A private configuration (a fonts.conf naming one font folder) through
 *   qr_fonts_open_cached: the first open asks fontconfig and writes the
 *   cache, the second reads it without calling fontconfig and answers the
 *   same; a font added to the folder, an edited fonts.conf or another
 *   environment make the next open ask fontconfig again; a truncated or
 *   damaged file is ignored and replaced; a path changed in the last two
 *   seconds leaves no cache.
 * - A side file (qr_fonts_side_write/read) beside such a cache reads back
 *   while the key holds, not once a font is added; a damaged one, another
 *   name, or a set opened without a cache read nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fonts_int.h"

/* ---- the default set against fontconfig ------------------------------------------ */

static void test_default_coverage(void **state)
{
    (void)state;
    qr_fonts *f = qr_fonts_default();
    assert_non_null(f);
    /* a library host does not use the cache unless it enables it */
    struct stat st;
    assert_int_not_equal(stat(getenv("QUIRE_FONT_CACHE"), &st), 0);
    FcPattern *pat = FcPatternCreate();
    FcObjectSet *os = FcObjectSetBuild(FC_FAMILY, FC_FILE, FC_INDEX, FC_CHARSET, (char *)0);
    FcFontSet *set = FcFontList(NULL, pat, os);
    assert_non_null(set);
    size_t checked = 0;
    for (size_t j = 0; j < f->n_fams; j++) {
        const qr_family *fam = &f->fams[j];
        if (!fam->cs) continue;
        const FcCharSet *cs = NULL;
        for (int i = 0; i < set->nfont && !cs; i++) {
            FcChar8 *file, *name;
            int index = 0;
            FcCharSet *c;
            if (FcPatternGetString(set->fonts[i], FC_FILE, 0, &file) != FcResultMatch ||
                strcmp((const char *)file, fam->file) != 0)
                continue;
            FcPatternGetInteger(set->fonts[i], FC_INDEX, 0, &index);
            if (index != fam->index) continue;
            int named = 0;
            for (int k = 0; FcPatternGetString(set->fonts[i], FC_FAMILY, k, &name) == FcResultMatch;
                 k++)
                named |= strcmp((const char *)name, fam->name) == 0;
            if (named && FcPatternGetCharSet(set->fonts[i], FC_CHARSET, 0, &c) == FcResultMatch)
                cs = c;
        }
        if (!cs) fail_msg("%s: %s is not in fontconfig's list", fam->name, fam->file);
        /* every code point fontconfig has, and as many as it has */
        FcChar32 map[FC_CHARSET_MAP_SIZE], next, count = 0;
        for (FcChar32 base = FcCharSetFirstPage(cs, map, &next); base != FC_CHARSET_DONE;
             base = FcCharSetNextPage(cs, map, &next))
            for (uint32_t k = 0; k < 256; k++) {
                int want = (map[k >> 5] >> (k & 31)) & 1;
                assert_int_equal(qr_fonts_covers(f, (int)j, base + k), want);
            }
        for (uint32_t p = 0; p < fam->cs->n; p++)
            for (int w = 0; w < 8; w++)
                count += (FcChar32)__builtin_popcount(fam->cs->pages[p * 9 + 1 + w]);
        assert_int_equal(count, FcCharSetCount(cs));
        checked++;
    }
    assert_true(checked > 0);
    assert_non_null(qr_fonts_face_file(f, "DejaVu Sans", 0, 0));
    FcFontSetDestroy(set);
    FcObjectSetDestroy(os);
    FcPatternDestroy(pat);
}

/* ---- a private configuration through the cache -------------------------------------- */

static char tmp[256], etc[300], conf[300], fontdir[300], cache[300];
static int n_made;

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

/* Date path back by ago seconds (the key refuses paths changed just now). */
static void backdate(const char *path, int ago)
{
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= ago;
    t[1] = t[0];
    assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

static void write_conf(const char *extra)
{
    FILE *fp = fopen(conf, "w");
    assert_non_null(fp);
    fprintf(fp,
            "<?xml version=\"1.0\"?>\n<fontconfig>\n<dir>%s</dir>\n<cachedir>%s/fc</cachedir>\n%s"
            "</fontconfig>\n",
            fontdir, tmp, extra);
    assert_int_equal(fclose(fp), 0);
    backdate(conf, 100);
    backdate(etc, 100);
}

static FcConfig *make_cfg(void *arg)
{
    (void)arg;
    n_made++;
    FcConfig *cfg = FcConfigCreate();
    assert_true(FcConfigParseAndLoad(cfg, (const FcChar8 *)conf, FcTrue));
    assert_true(FcConfigBuildFonts(cfg));
    return cfg;
}

static qr_fonts *open_private(int *hit)
{
    n_made = 0;
    qr_fonts *f = qr_fonts_open_cached(cache, make_cfg, NULL, hit);
    assert_non_null(f);
    assert_int_equal(n_made, *hit ? 0 : 1);
    return f;
}

static void same_answers(const qr_fonts *a, const qr_fonts *b)
{
    assert_int_equal(a->n_fams, b->n_fams);
    for (size_t j = 0; j < a->n_fams; j++) {
        assert_string_equal(a->fams[j].name, b->fams[j].name);
        assert_string_equal(a->fams[j].file, b->fams[j].file);
        assert_int_equal(a->fams[j].n_faces, b->fams[j].n_faces);
        for (uint32_t cp = 0; cp < 0x30000; cp += 7)
            assert_int_equal(qr_fonts_covers(a, (int)j, cp), qr_fonts_covers(b, (int)j, cp));
    }
    assert_int_equal(a->n_sorted, b->n_sorted);
    for (size_t i = 0; i < a->n_sorted; i++)
        assert_int_equal(a->sorted[i], b->sorted[i]);
    for (uint32_t cp = 0; cp < 0x30000; cp += 13)
        assert_int_equal(qr_fonts_last_resort(a, cp), qr_fonts_last_resort(b, cp));
}

static void damage(long at, const void *bytes, size_t n)
{
    int fd = open(cache, O_WRONLY);
    assert_true(fd >= 0);
    if (at < 0)
        assert_int_equal(ftruncate(fd, (off_t)n), 0);
    else
        assert_int_equal(pwrite(fd, bytes, n, at), (ssize_t)n);
    close(fd);
}

static void test_private_cache(void **state)
{
    (void)state;
    const char *dejavu = qr_fonts_face_file(qr_fonts_default(), "DejaVu Sans", 0, 0);
    const char *mono = qr_fonts_face_file(qr_fonts_default(), "DejaVu Sans Mono", 0, 0);
    assert_non_null(dejavu);
    assert_non_null(mono);
    snprintf(tmp, sizeof tmp, "/tmp/quire-fontcache-XXXXXX");
    assert_non_null(mkdtemp(tmp));
    /* the key covers the configuration's folder and the font folder, not tmp
     * (where the caches go) */
    snprintf(etc, sizeof etc, "%s/etc", tmp);
    snprintf(conf, sizeof conf, "%s/fonts.conf", etc);
    assert_int_equal(mkdir(etc, 0700), 0);
    snprintf(fontdir, sizeof fontdir, "%s/fonts", tmp);
    snprintf(cache, sizeof cache, "%s/cache/fonts.bin", tmp);
    assert_int_equal(mkdir(fontdir, 0700), 0);
    char path[400];
    snprintf(path, sizeof path, "%s/DejaVuSans.ttf", fontdir);
    copy_file(dejavu, path);
    backdate(fontdir, 100);
    write_conf("");

    int hit = -1;
    qr_fonts *a = open_private(&hit);
    assert_int_equal(hit, 0);
    struct stat st;
    assert_int_equal(stat(cache, &st), 0);
    assert_true(qr_fonts_covers(a, qr_fonts_family_index(a, "DejaVu Sans"), 'A'));
    assert_int_equal(qr_fonts_family_index(a, "DejaVu Sans Mono") >= 0 &&
                         a->fams[qr_fonts_family_index(a, "DejaVu Sans Mono")].cs,
                     0);

    /* read back: no fontconfig, the same answers */
    qr_fonts *b = open_private(&hit);
    assert_int_equal(hit, 1);
    same_answers(a, b);
    assert_string_equal(qr_fonts_face_file(b, "DejaVu Sans", 1, 0),
                        qr_fonts_face_file(a, "DejaVu Sans", 1, 0));
    qr_spans sa = {0}, sb = {0};
    const char *text = "Hello, world: Ελληνικά Кириллица \xe2\x88\x80 \xe4\xb8\xad";
    assert_int_equal(qr_fonts_itemize(a, text, strlen(text), NULL, &sa), QR_OK);
    assert_int_equal(qr_fonts_itemize(b, text, strlen(text), NULL, &sb), QR_OK);
    assert_int_equal(sa.n, sb.n);
    assert_int_equal(sa.n_missing, sb.n_missing);
    assert_true(sa.n_missing > 0); /* 中 has no font here */
    for (size_t i = 0; i < sa.n; i++) {
        assert_int_equal(sa.items[i].start, sb.items[i].start);
        assert_int_equal(sa.items[i].len, sb.items[i].len);
        assert_string_equal(sa.items[i].family, sb.items[i].family);
    }
    qr_spans_free(&sa);
    qr_spans_free(&sb);

    /* a side file under the same key */
    FcConfig *cfg = make_cfg(NULL);
    qr_fonts_side_write(a, "t", cfg, "answers\n", 8);
    FcConfigDestroy(cfg);
    char *body;
    size_t len;
    assert_int_equal(qr_fonts_side_read(b, "t", &body, &len), 0);
    assert_int_equal(len, 8);
    assert_memory_equal(body, "answers\n", 8);
    assert_int_equal(body[8], '\0');
    free(body);
    assert_int_equal(qr_fonts_side_read(b, "u", &body, &len), -1);
    assert_null(body);
    assert_int_equal(qr_fonts_side_read(qr_fonts_default(), "t", &body, &len), -1);
    char side[600];
    snprintf(side, sizeof side, "%s.t", cache);
    FILE *sf = fopen(side, "r+b");
    assert_non_null(sf);
    assert_int_equal(fwrite("quire-side t 1\n99", 1, 18, sf), 18); /* a key longer than the file */
    fclose(sf);
    assert_int_equal(qr_fonts_side_read(b, "t", &body, &len), -1);
    cfg = make_cfg(NULL);
    qr_fonts_side_write(a, "t", cfg, "answers\n", 8);
    FcConfigDestroy(cfg);
    assert_int_equal(qr_fonts_side_read(b, "t", &body, &len), 0);
    free(body);
    qr_fonts_free(b);

    /* a font added to the folder */
    snprintf(path, sizeof path, "%s/DejaVuSansMono.ttf", fontdir);
    copy_file(mono, path);
    backdate(fontdir, 50);
    qr_fonts *c = open_private(&hit);
    assert_int_equal(hit, 0);
    assert_int_equal(qr_fonts_side_read(c, "t", &body, &len), -1); /* its key no longer holds */
    int m = qr_fonts_family_index(c, "DejaVu Sans Mono");
    assert_true(m >= 0 && c->fams[m].cs);
    qr_fonts_free(c);
    c = open_private(&hit);
    assert_int_equal(hit, 1);
    qr_fonts_free(c);

    /* an edited configuration: rejecting the mono font */
    char reject[600];
    snprintf(reject, sizeof reject,
             "<selectfont><rejectfont><glob>%s/DejaVuSansMono*</glob></rejectfont></selectfont>\n",
             fontdir);
    write_conf(reject);
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    m = qr_fonts_family_index(c, "DejaVu Sans Mono");
    assert_false(m >= 0 && c->fams[m].cs);
    same_answers(a, c);
    qr_fonts_free(c);

    /* another environment */
    setenv("FC_LANG", "xx", 1);
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    qr_fonts_free(c);
    unsetenv("FC_LANG");
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    qr_fonts_free(c);

    /* damaged files: ignored, replaced */
    assert_int_equal(stat(cache, &st), 0);
    damage(-1, NULL, (size_t)st.st_size / 2);
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    qr_fonts_free(c);
    uint32_t bad = 0xFFFFFF00u;
    damage(offsetof(qr_fblob_head, fams), &bad, sizeof bad);
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    qr_fonts_free(c);
    damage(0, "NOTFONTS", 8);
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    same_answers(a, c);
    qr_fonts_free(c);
    c = open_private(&hit);
    assert_int_equal(hit, 1);
    qr_fonts_free(c);

    /* a path changed just now: answers, but no cache */
    assert_int_equal(unlink(cache), 0);
    assert_int_equal(utimensat(AT_FDCWD, fontdir, NULL, 0), 0);
    c = open_private(&hit);
    assert_int_equal(hit, 0);
    same_answers(a, c);
    qr_fonts_free(c);
    assert_int_not_equal(stat(cache, &st), 0);

    qr_fonts_free(a);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
}

/* ---- the cache file's place --------------------------------------------------------- */

static void test_cache_path(void **state)
{
    (void)state;
    char p[4096], q[4096];
    setenv("QUIRE_FONT_CACHE", "off", 1);
    assert_int_equal(qr_fonts_cache_path(p, sizeof p), -1);
    setenv("QUIRE_FONT_CACHE", "", 1);
    assert_int_equal(qr_fonts_cache_path(p, sizeof p), -1);
    setenv("QUIRE_FONT_CACHE", "/x/y.bin", 1);
    assert_int_equal(qr_fonts_cache_path(p, sizeof p), 0);
    assert_string_equal(p, "/x/y.bin");
    unsetenv("QUIRE_FONT_CACHE");
    setenv("XDG_CACHE_HOME", "/c", 1);
    assert_int_equal(qr_fonts_cache_path(p, sizeof p), 0);
    assert_int_equal(strncmp(p, "/c/quire/fonts-1-", 17), 0);
    /* another environment, another file */
    setenv("FONTCONFIG_FILE", "/other.conf", 1);
    assert_int_equal(qr_fonts_cache_path(q, sizeof q), 0);
    assert_string_not_equal(p, q);
    unsetenv("FONTCONFIG_FILE");
    unsetenv("XDG_CACHE_HOME");
}

int main(void)
{
    /* the default set from fontconfig, not from a cache of another run:
     * qr_fonts_enable_cache() is never called here */
    char never[64];
    snprintf(never, sizeof never, "/tmp/quire-fontcache-never-%ld.bin", (long)getpid());
    setenv("QUIRE_FONT_CACHE", never, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_coverage),
        cmocka_unit_test(test_private_cache),
        cmocka_unit_test(test_cache_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
