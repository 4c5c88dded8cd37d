/* location.c: which backend a store location names, and its secrets
 * scrubbed from messages (location.h). A location that looks like a
 * database is never taken for a folder: a mistyped URI or a libpq keyword
 * string with a password would otherwise become a folder named with the
 * password, in the current directory. */
#include "location.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* libpq's connection keywords (PostgreSQL 16's list) */
static const char *const keywords[] = {"application_name",
                                       "channel_binding",
                                       "client_encoding",
                                       "connect_timeout",
                                       "dbname",
                                       "fallback_application_name",
                                       "gssdelegation",
                                       "gssencmode",
                                       "gsslib",
                                       "host",
                                       "hostaddr",
                                       "keepalives",
                                       "keepalives_count",
                                       "keepalives_idle",
                                       "keepalives_interval",
                                       "load_balance_hosts",
                                       "options",
                                       "passfile",
                                       "password",
                                       "port",
                                       "replication",
                                       "require_auth",
                                       "requirepeer",
                                       "requiressl",
                                       "service",
                                       "ssl_max_protocol_version",
                                       "ssl_min_protocol_version",
                                       "sslcert",
                                       "sslcertmode",
                                       "sslcompression",
                                       "sslcrl",
                                       "sslcrldir",
                                       "sslkey",
                                       "sslmode",
                                       "sslpassword",
                                       "sslrootcert",
                                       "sslsni",
                                       "target_session_attrs",
                                       "tcp_user_timeout",
                                       "user"};

static int prefix_ci(const char *s, const char *p)
{
    for (; *p; s++, p++)
        if (tolower((unsigned char)*s) != *p) return 0;
    return 1;
}

static int is_word(int c)
{
    return isalnum(c) || c == '_';
}

/* Whether a setting's name says it holds a secret. */
static int secret_name(const char *k, size_t n)
{
    char low[64];
    if (n >= sizeof low) n = sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)k[i]);
    low[n] = '\0';
    return strstr(low, "pass") || strstr(low, "pwd");
}

int qr_store_loc_is_db(const char *loc)
{
    if (!loc) return 0;
    if (prefix_ci(loc, "postgresql:") || prefix_ci(loc, "postgres:")) return 1;
    const char *p = loc;
    while (isspace((unsigned char)*p))
        p++;
    size_t n = 0;
    while (is_word((unsigned char)p[n]))
        n++;
    const char *q = p + n;
    while (isspace((unsigned char)*q))
        q++;
    if (n && *q == '=')
        for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
            if (strlen(keywords[i]) == n && !strncmp(p, keywords[i], n)) return 1;
    /* any setting of a password: never a folder name */
    for (const char *s = loc; *s; s++) {
        if (!is_word((unsigned char)*s) || (s > loc && is_word((unsigned char)s[-1]))) continue;
        size_t k = 0;
        while (is_word((unsigned char)s[k]))
            k++;
        const char *e = s + k;
        while (isspace((unsigned char)*e))
            e++;
        if (*e == '=' && secret_name(s, k)) return 1;
        s += k - 1;
    }
    return 0;
}

/* ---- secrets ------------------------------------------------------------------------ */

#define MAX_SECRETS 24

typedef struct secrets {
    char *v[MAX_SECRETS];
    size_t n;
} secrets;

static void add(secrets *s, const char *p, size_t len)
{
    if (!len || s->n == MAX_SECRETS) return;
    for (size_t i = 0; i < s->n; i++)
        if (strlen(s->v[i]) == len && !memcmp(s->v[i], p, len)) return;
    char *c = malloc(len + 1);
    if (!c) return;
    memcpy(c, p, len);
    c[len] = '\0';
    s->v[s->n++] = c;
}

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* p[0..len) as written, and percent-decoded when it holds '%' or '+'. */
static void add_forms(secrets *s, const char *p, size_t len)
{
    add(s, p, len);
    char *d = malloc(len + 1);
    if (!d) return;
    size_t m = 0;
    for (size_t i = 0; i < len; i++) {
        int h, l;
        if (p[i] == '%' && i + 2 < len && (h = hexval((unsigned char)p[i + 1])) >= 0 &&
            (l = hexval((unsigned char)p[i + 2])) >= 0) {
            d[m++] = (char)(h * 16 + l);
            i += 2;
        } else {
            d[m++] = p[i];
        }
    }
    add(s, d, m);
    free(d);
}

static void collect(const char *loc, secrets *s)
{
    /* "postgresql:" without "//": libpq reads no URI there and echoes the
     * text in its message; it may be anything, a password included */
    size_t scheme = prefix_ci(loc, "postgresql:") ? 11 : prefix_ci(loc, "postgres:") ? 9 : 0;
    if (scheme && strncmp(loc + scheme, "//", 2)) add_forms(s, loc + scheme, strlen(loc + scheme));
    /* a URI's user:password@host */
    const char *sch = strstr(loc, "://");
    if (sch) {
        const char *a = sch + 3, *end = a + strcspn(a, "/?#");
        const char *at = NULL;
        for (const char *p = a; p < end; p++)
            if (*p == '@') at = p;
        const char *colon = at ? memchr(a, ':', (size_t)(at - a)) : NULL;
        if (colon) add_forms(s, colon + 1, (size_t)(at - colon - 1));
    }
    /* name=value settings: a URI's query or a keyword string */
    for (const char *p = loc; *p; p++) {
        if (!is_word((unsigned char)*p) || (p > loc && is_word((unsigned char)p[-1]))) continue;
        size_t k = 0;
        while (is_word((unsigned char)p[k]))
            k++;
        const char *e = p + k;
        while (isspace((unsigned char)*e))
            e++;
        if (*e != '=' || !secret_name(p, k)) {
            p += k - 1;
            continue;
        }
        e++;
        while (isspace((unsigned char)*e))
            e++;
        if (*e == '\'') { /* a quoted keyword value: \' and \\ escaped */
            const char *v = ++e;
            char *u = malloc(strlen(v) + 1);
            size_t m = 0;
            while (*e && *e != '\'') {
                if (*e == '\\' && e[1]) e++;
                if (u) u[m++] = *e;
                e++;
            }
            add(s, v, (size_t)(e - v));
            if (u) add(s, u, m);
            free(u);
        } else {
            size_t len = strcspn(e, " \t\r\n&#");
            add_forms(s, e, len);
        }
        p = e[0] ? e : e - 1;
    }
}

void qr_store_loc_scrub(const char *loc, const char *in, char *out, size_t n)
{
    if (!n) return;
    out[0] = '\0';
    if (!in) return;
    secrets s = {{0}, 0};
    if (loc && qr_store_loc_is_db(loc)) collect(loc, &s);
    size_t o = 0;
    const char *p = in;
    while (*p && o + 1 < n) {
        size_t best = 0;
        for (size_t i = 0; i < s.n; i++) {
            size_t l = strlen(s.v[i]);
            if (l > best && !strncmp(p, s.v[i], l)) best = l;
        }
        if (best) {
            for (const char *m = "***"; *m && o + 1 < n; m++)
                out[o++] = *m;
            p += best;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    for (size_t i = 0; i < s.n; i++)
        free(s.v[i]);
}
