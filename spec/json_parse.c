/* json_parse.c: the strict JSON reader of json_parse.h.
 *
 * One pass over a window of the text (the whole text in memory, or 64 KiB
 * pulled through the reader at a time). Strings that lie inside the window
 * and hold no escape become jansson strings straight from the window; the
 * others are gathered in a scratch buffer. Nesting is an explicit stack of
 * open containers (no recursion, so a deep text cannot overflow the C
 * stack); a container joins its parent when it closes, so on an error the
 * stack holds every value made so far and is released from there.
 * Newlines can only appear in whitespace (a raw one in a string is an
 * error), so lines are counted there and nowhere else.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cnum.h"
#include "json_parse.h"
#include "utf8.h"

#define WINDOW ((size_t)64 << 10)
#define END (-1) /* no more text */
#define BAD (-2) /* the reader failed, or an error is set */

typedef struct frame frame;

typedef struct jp {
    qr_jp_read_fn read; /* NULL: the window is the whole text */
    void *data;
    unsigned char *buf; /* the reader's window */
    const unsigned char *start, *p, *end;
    size_t base; /* offset of start in the text */
    int eof;
    int line;
    size_t line_start;
    qr_buf tok;  /* strings with escapes or across windows; numbers; words */
    qr_buf keys; /* the names of the members being parsed, one per open object */
    frame *st;
    size_t depth, cap;
    qr_jp_error *err;
    const qr_jp_hook *hook; /* or NULL */
} jp;

static size_t pos(const jp *j)
{
    return j->base + (size_t)(j->p - j->start);
}

/* A place in the text, for an error that points back (at a number's or a
 * key's first byte). */
typedef struct mark {
    size_t at;
    int line;
    size_t line_start;
} mark;

static mark here(const jp *j)
{
    return (mark){pos(j), j->line, j->line_start};
}

static void fail_at(jp *j, mark m, qr_jp_fail f, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void fail_at(jp *j, mark m, qr_jp_fail f, const char *hint, const char *fmt, ...)
{
    qr_jp_error *e = j->err;
    if (e->fail != QR_JP_OK) return; /* the first error wins */
    e->fail = f;
    e->position = m.at;
    e->line = m.line;
    e->column = (int)(m.at - m.line_start + 1);
    e->hint = hint;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
}

#define fail(j, ...) fail_at((j), here(j), __VA_ARGS__)

struct frame {
    json_t *v;      /* the open object or array */
    size_t key_off; /* objects: the pending member name, in keys */
    size_t key_len; /* its length */
    mark key_at;    /* where it starts (for a duplicate's error) */
    size_t taken;   /* arrays: elements handed to the hook */
};

static void nomem(jp *j)
{
    fail(j, QR_JP_NOMEM, NULL, "out of memory");
}

/* The next window. 1: bytes to read; 0: the text has ended; -1: failure. */
static int refill(jp *j)
{
    if (j->eof) return 0;
    j->base += (size_t)(j->end - j->start);
    j->start = j->p = j->end = j->buf;
    size_t n = j->read(j->buf, WINDOW, j->data);
    if (n == (size_t)-1 || n > WINDOW) {
        fail(j, QR_JP_READ, NULL, "the text could not be read");
        return -1;
    }
    if (n == 0) {
        j->eof = 1;
        return 0;
    }
    j->end = j->buf + n;
    return 1;
}

/* The byte at p (not consumed), END or BAD. */
static int peek(jp *j)
{
    if (j->p < j->end) return *j->p;
    int r = refill(j);
    return r > 0 ? *j->p : r == 0 ? END : BAD;
}

/* The byte at p, consumed, or END or BAD. */
static int next(jp *j)
{
    int c = peek(j);
    if (c >= 0) j->p++;
    return c;
}

/* Skip whitespace; the first other byte (not consumed), END or BAD. */
static int skip_ws(jp *j)
{
    for (;;) {
        while (j->p < j->end) {
            unsigned char c = *j->p;
            if (c == ' ' || c == '\t' || c == '\r') {
                j->p++;
            } else if (c == '\n') {
                j->p++;
                j->line++;
                j->line_start = pos(j);
            } else {
                return c;
            }
        }
        int r = refill(j);
        if (r <= 0) return r == 0 ? END : BAD;
    }
}

/* How an unexpected byte reads in a message. */
static const char *show(int c, char tmp[8])
{
    if (c == END) return "the end of the text";
    if (c >= 0x21 && c < 0x7F) {
        snprintf(tmp, 8, "'%c'", c);
        return tmp;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return "whitespace";
    if (c >= 0x80) return "a non-ASCII character";
    snprintf(tmp, 8, "0x%02X", (unsigned)c & 0xFFu);
    return tmp;
}

/* The hint for an unexpected byte c, where fallback is the general one. */
static const char *hint_for(int c, const char *fallback)
{
    if (c == '/') return "remove the comment: JSON has none";
    if (c == '\'') return "JSON strings take double quotes";
    if (c == END) return "close every '{' with '}' and every '[' with ']'";
    return fallback;
}

/* ---- strings ---------------------------------------------------------------------------- */

static int hex4(jp *j, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int c = next(j);
        if (c == BAD) return -1;
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else {
            if (c >= 0) j->p--;
            fail(j, QR_JP_SYNTAX, "write \\u and four hex digits, e.g. \\u00e9",
                 "\\u needs four hex digits");
            return -1;
        }
        v = v << 4 | d;
    }
    *out = v;
    return 0;
}

static int put_utf8(jp *j, unsigned cp)
{
    char u[4];
    size_t n = qr_utf8_encode(cp, u);
    if (qr_buf_append(&j->tok, u, n) == 0) return 0;
    nomem(j);
    return -1;
}

/* After a backslash: one escape into tok. */
static int escape(jp *j)
{
    int c = next(j);
    char ch;
    switch (c) {
    case '"':
    case '\\':
    case '/':
        ch = (char)c;
        break;
    case 'b':
        ch = '\b';
        break;
    case 'f':
        ch = '\f';
        break;
    case 'n':
        ch = '\n';
        break;
    case 'r':
        ch = '\r';
        break;
    case 't':
        ch = '\t';
        break;
    case 'u': {
        unsigned cp, lo;
        if (hex4(j, &cp) < 0) return -1;
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail(j, QR_JP_SYNTAX, "a low surrogate comes only after a high one (\\uD800-\\uDBFF)",
                 "lone surrogate \\u%04X", cp);
            return -1;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (next(j) != '\\' || next(j) != 'u') {
                fail(j, QR_JP_SYNTAX,
                     "write a character beyond U+FFFF as a surrogate pair, e.g. \\ud83d\\ude00",
                     "lone surrogate \\u%04X", cp);
                return -1;
            }
            if (hex4(j, &lo) < 0) return -1;
            if (lo < 0xDC00 || lo > 0xDFFF) {
                fail(j, QR_JP_SYNTAX,
                     "write a character beyond U+FFFF as a surrogate pair, e.g. \\ud83d\\ude00",
                     "lone surrogate \\u%04X", cp);
                return -1;
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        return put_utf8(j, cp);
    }
    default:
        if (c == BAD) return -1;
        if (c >= 0) j->p--;
        char tmp[8];
        fail(j, QR_JP_SYNTAX, "JSON escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
             "invalid escape: backslash before %s", show(c, tmp));
        return -1;
    }
    if (qr_buf_putc(&j->tok, ch) == 0) return 0;
    nomem(j);
    return -1;
}

static int plain(unsigned char c)
{
    return c != '"' && c != '\\' && c >= 0x20;
}

/* The first byte from q on that is not plain, or end: eight bytes at a
 * time while none of them is a quote, a backslash or below 0x20. */
static const unsigned char *scan_plain(const unsigned char *q, const unsigned char *end)
{
    const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
    while (end - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        uint64_t quote = w ^ (ones * '"'), slash = w ^ (ones * '\\');
        uint64_t hit =
            ((w - ones * 0x20) & ~w) | ((quote - ones) & ~quote) | ((slash - ones) & ~slash);
        if (hit & highs) break;
        q += 8;
    }
    while (q < end && plain(*q))
        q++;
    return q;
}

/* After the opening quote: the string's bytes, in the window when it lies
 * there whole and unescaped, else in tok. */
static int read_string(jp *j, const char **s, size_t *n)
{
    const unsigned char *q = scan_plain(j->p, j->end);
    if (q < j->end && *q == '"') {
        *s = (const char *)j->p;
        *n = (size_t)(q - j->p);
        j->p = q + 1;
        return 0;
    }
    j->tok.len = 0;
    for (;;) {
        if (q > j->p && qr_buf_append(&j->tok, j->p, (size_t)(q - j->p)) != 0) {
            nomem(j);
            return -1;
        }
        j->p = q;
        if (q == j->end) {
            int r = refill(j);
            if (r < 0) return -1;
            if (r == 0) {
                fail(j, QR_JP_SYNTAX, "end the string with a double quote",
                     "the text ends inside a string");
                return -1;
            }
        } else if (*q == '"') {
            j->p = q + 1;
            if (qr_buf_putc(&j->tok, '\0') != 0) { /* keeps data non-NULL for "" */
                nomem(j);
                return -1;
            }
            j->tok.len--;
            *s = j->tok.data;
            *n = j->tok.len;
            return 0;
        } else if (*q == '\\') {
            j->p = q + 1;
            if (escape(j) < 0) return -1;
        } else {
            fail(j, QR_JP_SYNTAX, "escape it inside a string: \\n, \\t, or \\u00XX",
                 "raw control character U+%04X inside a string", (unsigned)*q);
            return -1;
        }
        q = scan_plain(j->p, j->end);
    }
}

/* ---- numbers and words ------------------------------------------------------------------- */

/* Gather bytes of the class into tok (NUL-terminated); how many there were. */
static size_t gather(jp *j, int (*in)(int), size_t cap)
{
    j->tok.len = 0;
    size_t n = 0;
    for (;;) {
        int c = peek(j);
        if (c < 0 || !in(c)) break;
        if (n < cap && qr_buf_putc(&j->tok, (char)c) != 0) {
            nomem(j);
            return 0;
        }
        n++;
        j->p++;
    }
    if (qr_buf_putc(&j->tok, '\0') != 0) {
        nomem(j);
        return 0;
    }
    j->tok.len--;
    return n;
}

static int number_byte(int c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static int digit(char c)
{
    return c >= '0' && c <= '9';
}

/* RFC 8259's number grammar over s; sets *real for a fraction or exponent. */
static int number_ok(const char *s, int *real)
{
    size_t i = 0;
    *real = 0;
    if (s[i] == '-') i++;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (digit(s[i]))
            i++;
    } else {
        return 0;
    }
    if (s[i] == '.') {
        i++;
        *real = 1;
        if (!digit(s[i])) return 0;
        while (digit(s[i]))
            i++;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        *real = 1;
        if (s[i] == '+' || s[i] == '-') i++;
        if (!digit(s[i])) return 0;
        while (digit(s[i]))
            i++;
    }
    return s[i] == '\0';
}

/* Clinger's fast path: a real whose digits, without the point, make an
 * integer m below 2^53 and whose decimal exponent e is within +-22 is
 * exactly m * 10^e or m / 10^-e: both operands are exact doubles and IEEE
 * multiplication and division round correctly, so the result is strtod's,
 * bit for bit. 1234.56, 0.125, -3e5 take it; the rest goes to strtod. */
static int fast_real(const char *s, double *out)
{
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    int neg = *s == '-';
    s += neg;
    uint64_t m = 0;
    int digits = 0, e = 0;
    for (; digit(*s); s++)
        if (m || *s != '0') m = m * 10 + (uint64_t)(*s - '0'), digits++;
    if (*s == '.')
        for (s++; digit(*s); s++, e--)
            if (m || *s != '0') m = m * 10 + (uint64_t)(*s - '0'), digits++;
    if (digits > 15) return 0; /* m < 10^15 < 2^53 */
    if (*s == 'e' || *s == 'E') {
        s++;
        int eneg = *s == '-', x = 0;
        if (*s == '+' || *s == '-') s++;
        for (; digit(*s); s++) {
            if (x > 1000) return 0;
            x = x * 10 + (*s - '0');
        }
        e += eneg ? -x : x;
    }
    if (*s || e < -22 || e > 22) return 0;
    double d = (double)m;
    d = e < 0 ? d / pow10[-e] : d * pow10[e];
    *out = neg ? -d : d;
    return 1;
}

static json_t *number(jp *j)
{
    mark m = here(j);
    size_t n = gather(j, number_byte, (size_t)-1);
    if (j->err->fail != QR_JP_OK) return NULL;
    const char *s = j->tok.data;
    int real;
    if (!number_ok(s, &real)) {
        fail_at(j, m, QR_JP_SYNTAX,
                "write numbers as JSON does: no leading zeros, '+' or bare '.', e.g. 0.5, -3, 1e6",
                "invalid number '%.40s%s'", s, n > 40 ? "..." : "");
        return NULL;
    }
    json_t *v;
    double d_fast;
    if (!real) {
        int neg = s[0] == '-';
        uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, acc = 0;
        for (const char *d = s + neg; *d; d++) {
            unsigned dv = (unsigned)(*d - '0');
            if (acc > (limit - dv) / 10) {
                fail_at(j, m, QR_JP_SYNTAX, NULL, "too big %sinteger '%.40s%s'",
                        neg ? "negative " : "", s, n > 40 ? "..." : "");
                return NULL;
            }
            acc = acc * 10 + dv;
        }
        json_int_t iv = neg ? (json_int_t)(0 - acc) : (json_int_t)acc;
        v = json_integer(iv);
    } else if (fast_real(s, &d_fast)) {
        v = json_real(d_fast);
    } else {
        errno = 0;
        double d = qr_strtod_c(s, NULL);
        if (errno == ERANGE && isinf(d)) {
            fail_at(j, m, QR_JP_SYNTAX, NULL, "real number overflow '%.40s%s'", s,
                    n > 40 ? "..." : "");
            return NULL;
        }
        v = json_real(d);
    }
    if (!v) nomem(j);
    return v;
}

static int word_byte(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static json_t *word(jp *j)
{
    mark m = here(j);
    size_t n = gather(j, word_byte, 40);
    if (j->err->fail != QR_JP_OK) return NULL;
    const char *w = j->tok.data;
    if (strcmp(w, "true") == 0) return json_true();
    if (strcmp(w, "false") == 0) return json_false();
    if (strcmp(w, "null") == 0) return json_null();
    const char *hint = "a value is an object, array, string in double quotes, number, true, "
                       "false or null";
    if (strcmp(w, "NaN") == 0 || strcmp(w, "Infinity") == 0 || strcmp(w, "nan") == 0 ||
        strcmp(w, "inf") == 0)
        hint = "JSON has no NaN or Infinity: send null, or the value as a string";
    else if (strcmp(w, "True") == 0 || strcmp(w, "False") == 0 || strcmp(w, "None") == 0 ||
             strcmp(w, "NULL") == 0 || strcmp(w, "undefined") == 0)
        hint = "JSON's literals are true, false and null, in lower case";
    fail_at(j, m, QR_JP_SYNTAX, hint, "invalid word '%s%s'", w, n > 40 ? "..." : "");
    return NULL;
}

/* ---- the parse ------------------------------------------------------------------------- */

/* The byte where a value should start is c: say what is wrong. */
static void not_a_value(jp *j, int c, int after_comma)
{
    char tmp[8];
    if (c == BAD) return;
    if (c == END && j->depth == 0)
        fail(j, QR_JP_SYNTAX, "send the spec as one JSON object",
             pos(j) ? "the text holds no JSON value, only whitespace" : "the text is empty");
    else if (c == END)
        fail(j, QR_JP_SYNTAX, "close every '{' with '}' and every '[' with ']'",
             "the text ends where a value should be");
    else if ((c == ']' || c == '}') && after_comma)
        fail(j, QR_JP_SYNTAX, "remove the comma after the last element",
             "trailing comma before '%c'", c);
    else if (c == '\'')
        fail(j, QR_JP_SYNTAX, "JSON strings take double quotes",
             "single quote where a value should be");
    else if (c == '/')
        fail(j, QR_JP_SYNTAX, "remove the comment: JSON has none",
             "comment where a value should be");
    else
        fail(j, QR_JP_SYNTAX,
             "a value is an object, array, string in double quotes, number, true, "
             "false or null",
             "a value expected, found %s", show(c, tmp));
}

static int push(jp *j, json_t *v)
{
    if (!v) {
        nomem(j);
        return -1;
    }
    if (j->depth == QR_JP_MAX_DEPTH) {
        json_decref(v);
        fail(j, QR_JP_DEPTH, NULL, "nested deeper than %d levels", QR_JP_MAX_DEPTH);
        return -1;
    }
    if (j->depth == j->cap) {
        size_t cap = j->cap ? j->cap * 2 : 32;
        frame *st = realloc(j->st, cap * sizeof *st);
        if (!st) {
            json_decref(v);
            nomem(j);
            return -1;
        }
        j->st = st;
        j->cap = cap;
    }
    j->st[j->depth++] = (frame){.v = v};
    return 0;
}

/* After the opening quote of a member name: keep it in keys until its value is parsed. */
static int member_name(jp *j)
{
    frame *f = &j->st[j->depth - 1];
    f->key_at = here(j);
    f->key_at.at--; /* the opening quote */
    const char *s;
    size_t n;
    if (read_string(j, &s, &n) < 0) return -1;
    if (memchr(s, '\0', n)) {
        fail(j, QR_JP_SYNTAX, "remove \\u0000 from the member name",
             "member name with a \\u0000 character");
        return -1;
    }
    f->key_off = j->keys.len;
    f->key_len = n;
    if (qr_buf_append(&j->keys, s, n) != 0) {
        nomem(j);
        return -1;
    }
    int c = skip_ws(j);
    if (c == ':') {
        j->p++;
        return 0;
    }
    char tmp[8];
    if (c != BAD)
        fail(j, QR_JP_SYNTAX, hint_for(c, "write a colon between a member's name and its value"),
             "':' expected after the member name, found %s", show(c, tmp));
    return -1;
}

static void duplicate(jp *j, const frame *f)
{
    fail_at(j, f->key_at, QR_JP_SYNTAX, "give each key once per object",
            "duplicate object key \"%.*s%s\"", (int)(f->key_len > 60 ? 60 : f->key_len),
            j->keys.data + f->key_off, f->key_len > 60 ? "..." : "");
}

/* Whether the top frame is root.<outer>[i].<inner>: its elements go to the hook. */
static int hooked(const jp *j)
{
    const qr_jp_hook *h = j->hook;
    if (!h || j->depth != 4) return 0;
    const frame *f = j->st;
    return json_is_object(f[0].v) && json_is_array(f[1].v) && json_is_object(f[2].v) &&
           json_is_array(f[3].v) && f[0].key_len == strlen(h->outer) &&
           memcmp(j->keys.data + f[0].key_off, h->outer, f[0].key_len) == 0 &&
           f[2].key_len == strlen(h->inner) &&
           memcmp(j->keys.data + f[2].key_off, h->inner, f[2].key_len) == 0;
}

static json_t *parse(jp *j)
{
    json_t *v = NULL;
    int c, after_comma = 0;

value:
    c = skip_ws(j);
    switch (c) {
    case '{':
        if (push(j, json_object()) < 0) goto fail; /* an error points at the bracket */
        j->p++;
        c = skip_ws(j);
        if (c == '}') {
            j->p++;
            v = j->st[--j->depth].v;
            goto done;
        }
        after_comma = 0;
        goto key;
    case '[':
        if (push(j, json_array()) < 0) goto fail; /* an error points at the bracket */
        j->p++;
        c = skip_ws(j);
        if (c == ']') {
            j->p++;
            v = j->st[--j->depth].v;
            goto done;
        }
        after_comma = 0;
        goto value;
    case '"': {
        j->p++;
        const char *s;
        size_t n;
        if (read_string(j, &s, &n) < 0) goto fail;
        if (!(v = json_stringn_nocheck(s, n))) goto oom;
        goto done;
    }
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (!(v = number(j))) goto fail;
            goto done;
        }
        if (c >= 0 && word_byte(c)) {
            if (!(v = word(j))) goto fail;
            goto done;
        }
        not_a_value(j, c, after_comma);
        goto fail;
    }

key:
    if (c != '"') {
        char tmp[8];
        if (c == '}' && after_comma)
            fail(j, QR_JP_SYNTAX, "remove the comma after the last member",
                 "trailing comma before '}'");
        else if (c == '\'')
            fail(j, QR_JP_SYNTAX, "JSON strings take double quotes",
                 "single quote where a member name should be");
        else if (c == '/')
            fail(j, QR_JP_SYNTAX, "remove the comment: JSON has none",
                 "comment where a member name should be");
        else if (c != BAD)
            fail(j, QR_JP_SYNTAX, "a member name is a string in double quotes",
                 "a member name expected, found %s", show(c, tmp));
        goto fail;
    }
    j->p++;
    if (member_name(j) < 0) goto fail;
    after_comma = 0;
    goto value;

done:
    if (j->depth == 0) {
        c = skip_ws(j);
        if (c == END) return v;
        char tmp[8];
        if (c != BAD)
            fail(j, QR_JP_SYNTAX, hint_for(c, "send one JSON value and nothing after it"),
                 "text after the end of the JSON value, starting with %s", show(c, tmp));
        goto fail;
    }
    {
        frame *f = &j->st[j->depth - 1];
        char tmp[8];
        if (json_is_object(f->v)) {
            size_t before = json_object_size(f->v);
            int r = json_object_setn_new_nocheck(f->v, j->keys.data + f->key_off, f->key_len, v);
            v = NULL;
            if (r != 0) goto oom;
            if (json_object_size(f->v) == before) {
                duplicate(j, f);
                goto fail;
            }
            j->keys.len = f->key_off;
            c = skip_ws(j);
            if (c == ',') {
                j->p++;
                c = skip_ws(j);
                after_comma = 1;
                goto key;
            }
            if (c == '}') {
                j->p++;
                v = j->st[--j->depth].v;
                goto done;
            }
            if (c != BAD)
                fail(j, QR_JP_SYNTAX, hint_for(c, "separate members with commas"),
                     "',' or '}' expected after a member, found %s", show(c, tmp));
            goto fail;
        }
        if (hooked(j)) {
            json_t *e = v;
            v = NULL;
            if (j->hook->fn(j->hook->ctx, json_array_size(j->st[1].v), f->taken++, e) != 0) {
                fail(j, QR_JP_STOP, NULL, "the element hook stopped the parse");
                goto fail;
            }
        } else {
            int r = json_array_append_new(f->v, v);
            v = NULL;
            if (r != 0) goto oom;
        }
        c = skip_ws(j);
        if (c == ',') {
            j->p++;
            after_comma = 1;
            goto value;
        }
        if (c == ']') {
            j->p++;
            v = j->st[--j->depth].v;
            goto done;
        }
        if (c != BAD)
            fail(j, QR_JP_SYNTAX, hint_for(c, "separate elements with commas"),
                 "',' or ']' expected after an element, found %s", show(c, tmp));
        goto fail;
    }

oom:
    nomem(j);
fail:
    json_decref(v);
    while (j->depth)
        json_decref(j->st[--j->depth].v);
    return NULL;
}

static json_t *run(jp *j, qr_jp_error *err)
{
    memset(err, 0, sizeof *err);
    j->err = err;
    j->line = 1;
    json_t *v = parse(j);
    free(j->st);
    qr_buf_free(&j->tok);
    qr_buf_free(&j->keys);
    return v;
}

json_t *qr_jp_load(qr_jp_read_fn read, void *data, qr_jp_error *err)
{
    return qr_jp_load_hook(read, data, NULL, err);
}

json_t *qr_jp_load_hook(qr_jp_read_fn read, void *data, const qr_jp_hook *hook, qr_jp_error *err)
{
    jp j = {.read = read, .data = data, .hook = hook};
    j.buf = malloc(WINDOW);
    if (!j.buf) {
        memset(err, 0, sizeof *err);
        err->fail = QR_JP_NOMEM;
        snprintf(err->text, sizeof err->text, "out of memory");
        return NULL;
    }
    j.start = j.p = j.end = j.buf;
    json_t *v = run(&j, err);
    free(j.buf);
    return v;
}

json_t *qr_jp_loadb(const char *text, size_t len, qr_jp_error *err)
{
    jp j = {.eof = 1};
    j.start = j.p = (const unsigned char *)(text ? text : "");
    j.end = j.start + (text ? len : 0);
    return run(&j, err);
}
