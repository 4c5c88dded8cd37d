/* test_widest_word.c: qr_slide_widest_word (layout/slide_layout.h), the
 * widest word the layout report measures, against a reference built from
 * qr_slide_text_width: random runs (plain, bold, code) of tokens whose
 * class is known (word characters of every width class, the spaces and
 * full-width characters that end a word, the hyphens and slashes that end
 * one after themselves), the widest word's width, start and length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "slide_layout.h"
#include "tree.h"

enum { WORD, SPACE, BREAK };

static const struct {
    const char *s;
    int cls;
} tokens[] = {
    {"a", WORD},
    {"W", WORD},
    {"0", WORD},
    {".", WORD},
    {"~", WORD},
    {"@", WORD},
    {"\x01", WORD},
    {"\x7f", WORD},
    {"\xc3\xa9", WORD}, /* e acute */
    {"\xce\xa9", WORD}, /* omega */
    {"\xcc\x81", WORD}, /* combining acute */
    {"\xd8\xa8", WORD}, /* Arabic beh */
    {"\xd7\x90", WORD}, /* Hebrew alef */
    {"\xc2\xa0", WORD}, /* no-break space */
    {"\xff", WORD},     /* invalid byte */
    {" ", SPACE},
    {"\t", SPACE},
    {"\n", SPACE},
    {"\r", SPACE},
    {"\xe3\x80\x80", SPACE}, /* ideographic space */
    {"\xe4\xb8\xad", SPACE}, /* a Han character: a word of its own, not counted */
    {"-", BREAK},
    {"/", BREAK},
    {"\xe2\x80\x90", BREAK}, /* hyphen */
};
#define N_TOKENS (sizeof tokens / sizeof tokens[0])

/* The widest word by the rule slide_layout.h gives, word by word. */
static long long reference(const qr_text *t, const int *cls, const size_t *tok_at,
                           const size_t *tok_len, const size_t *n_tok, const char **at, size_t *len)
{
    long long best = 0;
    *at = NULL;
    *len = 0;
    size_t k0 = 0; /* the run's first token */
    for (size_t r = 0; r < t->n; k0 += n_tok[r], r++) {
        const qr_run *run = &t->runs[r];
        long long w = 0;
        size_t start = 0;
        for (size_t j = 0; j <= n_tok[r]; j++) { /* the run's end: a space */
            size_t k = k0 + j;
            int c = j < n_tok[r] ? cls[k] : SPACE;
            size_t p = j < n_tok[r] ? tok_at[k] : run->len, l = j < n_tok[r] ? tok_len[k] : 0;
            if (c != SPACE) w += qr_slide_text_width(run->text + p, l, run->code, run->bold);
            if (c == WORD) continue;
            size_t end = c == BREAK ? p + l : p;
            if (w > best) {
                best = w;
                *at = run->text + start;
                *len = end - start;
            }
            w = 0;
            start = p + l;
        }
    }
    return best;
}

static void test_random_runs(void **state)
{
    (void)state;
    srand(35);
    enum { MAX_RUNS = 4, MAX_TOK = 40 };
    for (int iter = 0; iter < 20000; iter++) {
        qr_run runs[MAX_RUNS];
        char buf[MAX_RUNS][MAX_TOK * 3 + 1];
        int cls[MAX_RUNS * MAX_TOK];
        size_t tok_at[MAX_RUNS * MAX_TOK], tok_len[MAX_RUNS * MAX_TOK], n_tok[MAX_RUNS];
        size_t n_runs = 1 + (size_t)(rand() % MAX_RUNS), k = 0;
        memset(runs, 0, sizeof runs);
        for (size_t r = 0; r < n_runs; r++) {
            size_t n = (size_t)(rand() % MAX_TOK), len = 0;
            /* mostly ASCII letters, as text is */
            for (size_t j = 0; j < n; j++, k++) {
                size_t pick = rand() % 3 ? (size_t)(rand() % 6) : (size_t)rand() % N_TOKENS;
                size_t l = strlen(tokens[pick].s);
                memcpy(buf[r] + len, tokens[pick].s, l);
                cls[k] = tokens[pick].cls;
                tok_at[k] = len;
                tok_len[k] = l;
                len += l;
            }
            n_tok[r] = n;
            runs[r].text = buf[r];
            runs[r].len = len;
            runs[r].bold = rand() % 3 == 0;
            runs[r].code = rand() % 4 == 0;
        }
        qr_text t = {0};
        t.runs = runs;
        t.n = n_runs;
        const char *at, *ref_at;
        size_t len, ref_len;
        long long w = qr_slide_widest_word(&t, &at, &len);
        long long ref = reference(&t, cls, tok_at, tok_len, n_tok, &ref_at, &ref_len);
        assert_int_equal(w, ref);
        assert_ptr_equal(at, ref_at);
        assert_int_equal(len, ref_len);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
