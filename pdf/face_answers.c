/* face_answers.c: the faces' fontconfig answers in a side file of the font
 * table's cache (see face_answers.h).
 *
 * The body is text: a first line naming pango's version and the program
 * name, then one line per face:
 *   F <family> <lang> size bold italic dpi options found
 * and when found:
 *   <file> index scale_x scale_y ptem slant ok has_a has_0 labels n feature...
 * where a string is its length, ':' and its bytes, the floating numbers are
 * C99 hexadecimal (exact), and a feature is hb_feature_to_string()'s.
 */
#include "face_answers.h"

#include <errno.h>
#include <glib.h>
#include <pango/pango.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "fonts.h"

#define SIDE_NAME "faces"

struct qr_face_answers {
    const qr_fonts *fonts;
    qr_face_answer *v;
    size_t n, cap;
    int changed;
};

static void answer_free(qr_face_answer *a)
{
    free((char *)a->family);
    free((char *)a->file);
}

void qr_face_answers_free(qr_face_answers *fa)
{
    if (!fa) return;
    for (size_t i = 0; i < fa->n; i++)
        answer_free(&fa->v[i]);
    free(fa->v);
    free(fa);
}

/* The body's first line for this process. */
static void head_line(qr_buf *out)
{
    const char *prg = g_get_prgname();
    qr_buf_printf(out, "quire-faces pango %d prgname %zu:%s\n", pango_version(),
                  prg ? strlen(prg) : 0, prg ? prg : "");
}

int qr_face_answers_add(qr_face_answers *fa, const qr_face_answer *a)
{
    if (fa->n == fa->cap) {
        size_t cap = fa->cap ? 2 * fa->cap : 16;
        qr_face_answer *v = realloc(fa->v, cap * sizeof *v);
        if (!v) return -1;
        fa->v = v;
        fa->cap = cap;
    }
    qr_face_answer c = *a;
    c.family = strdup(a->family);
    c.file = a->found ? strdup(a->file) : NULL;
    if (!c.family || (a->found && !c.file)) {
        answer_free(&c);
        return -1;
    }
    fa->v[fa->n++] = c;
    fa->changed = 1;
    return 0;
}

const qr_face_answer *qr_face_answers_find(const qr_face_answers *fa, const qr_face_answer *q)
{
    for (size_t i = 0; fa && i < fa->n; i++) {
        const qr_face_answer *a = &fa->v[i];
        if (a->size == q->size && a->bold == q->bold && a->italic == q->italic &&
            a->lang == q->lang && a->dpi == q->dpi && a->options == q->options &&
            strcmp(a->family, q->family) == 0)
            return a;
    }
    return NULL;
}

/* ---- reading ---------------------------------------------------------------------- */

typedef struct cursor {
    const char *p, *end;
    int bad;
} cursor;

/* The next space-separated word, NUL-free, into w (n bytes); 0 or -1. */
static int word(cursor *c, char *w, size_t n)
{
    while (c->p < c->end && *c->p == ' ')
        c->p++;
    size_t k = 0;
    while (c->p < c->end && *c->p != ' ' && *c->p != '\n') {
        if (k + 1 >= n) return c->bad = -1;
        w[k++] = *c->p++;
    }
    w[k] = '\0';
    if (!k) c->bad = -1;
    return k ? 0 : -1;
}

static long integer(cursor *c)
{
    char w[32], *e;
    if (word(c, w, sizeof w) != 0) return 0;
    errno = 0;
    long v = strtol(w, &e, 10);
    if (*e || errno) c->bad = -1;
    return v;
}

static double real(cursor *c)
{
    char w[64], *e;
    if (word(c, w, sizeof w) != 0) return 0;
    double v = strtod(w, &e);
    if (*e) c->bad = -1;
    return v;
}

/* A length-prefixed string, malloc'd; NULL (c->bad) when there is none. */
static char *string(cursor *c)
{
    while (c->p < c->end && *c->p == ' ')
        c->p++;
    char *e;
    errno = 0;
    unsigned long n = strtoul(c->p, &e, 10);
    if (e == c->p || errno || e >= c->end || *e != ':' || n > (size_t)(c->end - e - 1) ||
        memchr(e + 1, '\0', n)) {
        c->bad = -1;
        return NULL;
    }
    char *s = malloc(n + 1);
    if (!s) {
        c->bad = -1;
        return NULL;
    }
    memcpy(s, e + 1, n);
    s[n] = '\0';
    c->p = e + 1 + n;
    return s;
}

/* One "F ..." line into a (strings malloc'd, the language interned). */
static int parse_line(cursor *c, qr_face_answer *a)
{
    memset(a, 0, sizeof *a);
    char w[64];
    if (word(c, w, sizeof w) != 0 || strcmp(w, "F") != 0) return -1;
    char *family = string(c), *lang = string(c);
    a->family = family;
    a->lang = lang ? pango_language_to_string(pango_language_from_string(lang)) : NULL;
    free(lang);
    a->size = (int)integer(c);
    a->bold = (int)integer(c);
    a->italic = (int)integer(c);
    a->dpi = real(c);
    if (word(c, w, sizeof w) == 0) {
        char *e;
        a->options = strtoul(w, &e, 16);
        if (*e) c->bad = -1;
    }
    a->found = (int)integer(c);
    if (a->found) {
        a->file = string(c);
        a->index = (int)integer(c);
        a->scale_x = (int)integer(c);
        a->scale_y = (int)integer(c);
        a->ptem = (float)real(c);
        a->slant = (float)real(c);
        a->ok = (int)integer(c);
        a->has_a = (int)integer(c);
        a->has_0 = (int)integer(c);
        a->labels = (unsigned)integer(c);
        long nf = integer(c);
        if (nf < 0 || nf > 32) c->bad = -1;
        for (long i = 0; i < nf && !c->bad; i++) {
            char f[128];
            if (word(c, f, sizeof f) == 0 && !hb_feature_from_string(f, -1, &a->features[i]))
                c->bad = -1;
        }
        a->n_features = c->bad ? 0 : (unsigned)nf;
    }
    if (c->p < c->end && *c->p == '\n') c->p++;
    if (c->bad || !a->family || !a->lang || (a->found && !a->file)) {
        answer_free(a);
        return -1;
    }
    return 0;
}

qr_face_answers *qr_face_answers_load(const qr_fonts *fonts)
{
    qr_face_answers *fa = calloc(1, sizeof *fa);
    if (!fa) return NULL;
    fa->fonts = fonts;
    char *body;
    size_t len;
    if (qr_fonts_side_read(fonts, SIDE_NAME, &body, &len) != 0) return fa;
    qr_buf head = {0};
    head_line(&head);
    if (!head.oom && len >= head.len && memcmp(body, head.data, head.len) == 0) {
        cursor c = {body + head.len, body + len, 0};
        while (c.p < c.end) {
            qr_face_answer a;
            if (parse_line(&c, &a) != 0) break;
            if (qr_face_answers_add(fa, &a) != 0) c.bad = -1;
            answer_free(&a);
            if (c.bad) break;
        }
        if (c.p < c.end || c.bad) { /* damaged: none of it */
            for (size_t i = 0; i < fa->n; i++)
                answer_free(&fa->v[i]);
            fa->n = 0;
        }
    }
    fa->changed = 0;
    qr_buf_free(&head);
    free(body);
    return fa;
}

/* ---- writing ------------------------------------------------------------------------ */

static void put_string(qr_buf *b, const char *s)
{
    qr_buf_printf(b, " %zu:", strlen(s));
    qr_buf_puts(b, s);
}

void qr_face_answers_save(qr_face_answers *fa, FcConfig *cfg)
{
    if (!fa || !fa->changed || !cfg) return;
    qr_buf b = {0};
    head_line(&b);
    for (size_t i = 0; i < fa->n; i++) {
        const qr_face_answer *a = &fa->v[i];
        qr_buf_puts(&b, "F");
        put_string(&b, a->family);
        put_string(&b, a->lang);
        qr_buf_printf(&b, " %d %d %d %a %lx %d", a->size, a->bold, a->italic, a->dpi, a->options,
                      a->found);
        if (a->found) {
            put_string(&b, a->file);
            qr_buf_printf(&b, " %d %d %d %a %a %d %d %d %u %u", a->index, a->scale_x, a->scale_y,
                          (double)a->ptem, (double)a->slant, a->ok, a->has_a, a->has_0, a->labels,
                          a->n_features);
            for (unsigned k = 0; k < a->n_features; k++) {
                char f[128];
                hb_feature_to_string((hb_feature_t *)&a->features[k], f, sizeof f);
                qr_buf_printf(&b, " %s", f);
            }
        }
        qr_buf_puts(&b, "\n");
    }
    if (!b.oom) qr_fonts_side_write(fa->fonts, SIDE_NAME, cfg, b.data, b.len);
    qr_buf_free(&b);
    fa->changed = 0;
}
