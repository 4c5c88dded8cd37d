/* test_pngcache.c: the PNG layout cache (pdf/pdf.c) is keyed by everything
 * the spec says: rendering page 2 after page 1 of one spec reuses the
 * layout and gives the bytes a fresh thread gives; a spec that differs only
 * in a field the old hand-picked fingerprint left out (its theme, its
 * accent) is laid out again, not painted from the stale layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <quire/quire.h>

#define BODY                                                                                       \
    "\"blocks\":[{\"type\":\"heading\",\"text\":\"Fees\"},{\"type\":\"paragraph\",\"text\":"       \
    "\"The client pays.\"},{\"type\":\"page_break\"},{\"type\":\"heading\",\"text\":"              \
    "\"Terms\"},{\"type\":\"table\",\"headers\":[\"a\",\"b\"],\"rows\":[[1,2]]}]}"

static const char plain[] = "{\"title\":\"T\",\"theme\":\"plain\"," BODY;
static const char dark[] = "{\"title\":\"T\",\"theme\":\"dark\"," BODY;
static const char report[] = "{\"title\":\"T\",\"theme\":\"report\"," BODY;
static const char accent[] = "{\"title\":\"T\",\"theme\":\"report\",\"accent\":\"#C0392B\"," BODY;

typedef struct png {
    const char *spec;
    int page;
    unsigned char *data;
    size_t size;
} png;

static void render(png *p)
{
    qr_render_opts o = {0};
    o.png_page = p->page;
    qr_result res;
    qr_status st = qr_render_mem(p->spec, strlen(p->spec), QR_KIND_PDF, QR_FORMAT_PNG, &o, &res);
    assert_int_equal(st, QR_OK);
    p->data = malloc(res.size);
    assert_non_null(p->data);
    memcpy(p->data, res.data, res.size);
    p->size = res.size;
    qr_result_free(&res);
}

static void *render_main(void *arg)
{
    render(arg);
    return NULL;
}

/* The same render on a thread of its own: an empty cache. */
static void render_fresh(png *p)
{
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, render_main, p), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
}

static int same(const png *a, const png *b)
{
    return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

static void test_pages_reuse_the_layout(void **state)
{
    (void)state;
    png p1 = {plain, 1}, p2 = {plain, 2}, fresh2 = {plain, 2};
    render(&p1);
    render(&p2); /* from the cache p1 left */
    render_fresh(&fresh2);
    assert_true(same(&p2, &fresh2));
    assert_false(same(&p1, &p2));
    free(p1.data), free(p2.data), free(fresh2.data);
}

static void test_theme_and_accent_are_in_the_key(void **state)
{
    (void)state;
    const char *first[] = {plain, report}, *then[] = {dark, accent};
    for (int k = 0; k < 2; k++) {
        png a = {first[k], 1}, b = {then[k], 1}, fresh = {then[k], 1};
        render(&a);
        render(&b); /* the cache holds plain's layout */
        render_fresh(&fresh);
        assert_true(same(&b, &fresh));
        assert_false(same(&a, &b));
        free(a.data), free(b.data), free(fresh.data);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages_reuse_the_layout),
        cmocka_unit_test(test_theme_and_accent_are_in_the_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
