/* suggest.c: did-you-mean for unknown keys and names.
 *
 * Optimal string alignment distance (Levenshtein plus adjacent swaps),
 * ASCII case-insensitive, between an unknown word and each candidate. A
 * candidate is suggested when the distance is small for its length (one edit
 * for short words, two or three for long ones), or when one word is a prefix
 * of the other ("head" -> "heading"). Ties go to the earlier candidate, so
 * hints are deterministic. */
#include <string.h>

#include "suggest.h"

enum { MAXW = 48 };

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

static size_t osa(const char *a, size_t n, const char *b, size_t m)
{
    size_t d[MAXW + 1][MAXW + 1];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++) {
        for (size_t j = 1; j <= m; j++) {
            size_t cost = lower((unsigned char)a[i - 1]) != lower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 &&
                lower((unsigned char)a[i - 1]) == lower((unsigned char)b[j - 2]) &&
                lower((unsigned char)a[i - 2]) == lower((unsigned char)b[j - 1]) &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[n][m];
}

static int prefix_ci(const char *shorter, size_t n, const char *longer)
{
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)shorter[i]) != lower((unsigned char)longer[i])) return 0;
    return 1;
}

/* Words models use for our keys and block types. An alias is suggested
 * only when its target is among the candidates. */
static const char *const aliases[][2] = {
    {"href", "link"},
    {"url", "link"},
    {"uri", "link"},
    {"monospace", "code"},
    {"content", "text"},
    {"body", "text"},
    {"value", "text"},
    {"children", "items"},
    {"subitems", "items"},
    {"bullets", "items"},
    {"cells", "rows"},
    {"data", "rows"},
    {"header", "headers"},
    {"columns", "headers"},
    {"source", "src"},
    {"path", "src"},
    {"image", "src"},
    {"caption", "alt"},
    {"alt_text", "alt"},
    {"lang", "language"},
    {"heading", "title"},
    {"speaker_notes", "notes"},
    {"sheet", "name"},
    {"points", "bullets"},
    {"items", "bullets"},
    {"cols", "columns"},
    {"frozen", "freeze"},
    {"freeze_panes", "freeze"},
    {"pages", "blocks"},
    {"content", "blocks"},
    {"paragraphs", "blocks"},
    {"text", "paragraph"},
    {"para", "paragraph"},
    {"p", "paragraph"},
    {"h1", "heading"},
    {"h2", "heading"},
    {"h3", "heading"},
    {"header", "heading"},
    {"title", "heading"},
    {"ul", "list"},
    {"ol", "list"},
    {"bullet_list", "list"},
    {"numbered_list", "list"},
    {"bulleted_list", "list"},
    {"pre", "code"},
    {"code_block", "code"},
    {"img", "image"},
    {"picture", "image"},
    {"figure", "image"},
    {"break", "page_break"},
    {"pagebreak", "page_break"},
    {"page-break", "page_break"},
    {"new_page", "page_break"},
    {"grid", "table"},
    {"formatting", "format"},
    {"number_format", "format"},
    {"num_format", "format"},
    {"fmt", "format"},
    {"function", "formula"},
    {"datetime", "date"},
};

const char *qr_suggest(const char *word, const char *const *cands)
{
    for (size_t a = 0; a < sizeof aliases / sizeof aliases[0]; a++) {
        if (strcmp(word, aliases[a][0]) != 0) continue;
        for (size_t k = 0; cands[k]; k++)
            if (strcmp(cands[k], aliases[a][1]) == 0) return cands[k];
    }
    size_t n = strlen(word);
    if (n == 0 || n > MAXW) return NULL;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t k = 0; cands[k]; k++) {
        const char *c = cands[k];
        size_t m = strlen(c);
        if (m > MAXW) continue;
        size_t d = osa(word, n, c, m);
        size_t longest = n > m ? n : m;
        size_t allowed = longest <= 4 ? 1 : longest <= 8 ? 2 : 3;
        int ok = d <= allowed;
        /* "head" for "heading", "para" for "paragraph": a prefix of at
         * least three letters counts as close. */
        if (!ok && n >= 3 && m >= 3) {
            if (n < m ? prefix_ci(word, n, c) : prefix_ci(c, m, word)) ok = 1, d = allowed;
        }
        if (ok && d < best_d) {
            best = c;
            best_d = d;
        }
    }
    return best;
}
