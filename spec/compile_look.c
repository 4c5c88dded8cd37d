/* compile_look.c: cell looks of a spreadsheet spec. A workbook's "styles"
 * (named sets of properties; the built-in names header, total, input,
 * note, good, bad and neutral exist without being defined, in colours of
 * the theme, and a definition of one of them is laid over the built-in),
 * a cell's, row's or column's "style" and direct properties (bold, italic,
 * underline, color, fill, border, align, valign, wrap, indent, rotate).
 *
 * Rows are compiled before the workbook's "styles" may have been read (a
 * streamed spec compiles each row as it is parsed), so a row only records
 * a key: the style name it names (interned, with the JSON pointer of its
 * first use) and its direct properties. qr_cc_looks() resolves every key
 * once the whole spec is read: names checked (an unknown one is an error
 * at its first use, with a did-you-mean), each key's look merged from its
 * named style and its properties into qr_doc.looks, index = key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "schema.h"

#define MAX_LOOKS 65535u

/* ---- properties ----------------------------------------------------------------- */

static int hexval(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

int qr_cc_color(qr_cc *cc, json_t *v, uint32_t *out)
{
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    uint32_t rgb = 0;
    int ok = s && json_string_length(v) == 7 && s[0] == '#';
    for (int i = 1; ok && i < 7; i++) {
        int h = hexval(s[i]);
        if (h < 0) ok = 0;
        rgb = rgb << 4 | (uint32_t)(h < 0 ? 0 : h);
    }
    if (!ok) {
        qr_cc_err(cc, "a colour is \"#RRGGBB\", like \"#C00000\"",
                  "expected a colour \"#RRGGBB\", got %s%.20s%s", s ? "\"" : "",
                  s ? s : qr_cc_type_name(v), s ? "\"" : "");
        return -1;
    }
    *out = QR_SX_RGB | rgb;
    return 0;
}

static const char *const border_names[] = {"none",   "thin",   "medium", "thick",
                                           "double", "dashed", "dotted", NULL};
static const char *const side_names[] = {"left", "right", "top", "bottom", "color", NULL};

/* One of names (NULL-terminated) at the current path; the index or -1. */
static int word(qr_cc *cc, json_t *v, const char *const *names, const char *what)
{
    if (json_is_string(v))
        for (int i = 0; names[i]; i++)
            if (strcmp(json_string_value(v), names[i]) == 0) return i;
    char list[160] = "";
    for (int i = 0; names[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "",
                 names[i]);
    const char *dym = json_is_string(v) ? qr_suggest(json_string_value(v), names) : NULL;
    char hint[240];
    if (dym)
        snprintf(hint, sizeof hint, "did you mean \"%s\"? (%s is one of %s)", dym, what, list);
    else
        snprintf(hint, sizeof hint, "%s is one of %s", what, list);
    qr_cc_err(cc, hint, "unknown %s %s%.40s%s", what, json_is_string(v) ? "\"" : "",
              json_is_string(v) ? json_string_value(v) : qr_cc_type_name(v),
              json_is_string(v) ? "\"" : "");
    return -1;
}

/* "border": "thin" (every side) or {"top": "thin", "bottom": "double", "color": "#..."}. */
static int border(qr_cc *cc, json_t *v, qr_cellstyle *cs)
{
    if (json_is_string(v)) {
        int k = word(cc, v, border_names, "border");
        if (k < 0) return -1;
        for (int s = 0; s < 4; s++)
            cs->border[s] = (uint8_t)k;
        cs->set |= QR_SX_BORDER_LEFT | QR_SX_BORDER_RIGHT | QR_SX_BORDER_TOP | QR_SX_BORDER_BOTTOM;
        return 0;
    }
    if (!json_is_object(v)) {
        qr_cc_err(cc, "a border is \"thin\" or {\"top\": \"thin\", \"bottom\": \"double\"}",
                  "expected a string or an object, got %s", qr_cc_type_name(v));
        return -1;
    }
    int bad = qr_cc_check_keys(cc, v, side_names, "a border") > 0;
    for (int s = 0; s < 5; s++) {
        json_t *m = json_object_get(v, side_names[s]);
        if (!m) continue;
        size_t o = qr_cc_push_key(cc, side_names[s]);
        if (s == 4) {
            if (qr_cc_color(cc, m, &cs->border_color) < 0)
                bad = 1;
            else
                cs->set |= QR_SX_BORDER_COLOR;
        } else {
            int k = word(cc, m, border_names, "border");
            if (k < 0)
                bad = 1;
            else {
                cs->border[s] = (uint8_t)k;
                cs->set |= (uint16_t)(QR_SX_BORDER_LEFT << s);
            }
        }
        qr_cc_pop(cc, o);
    }
    return bad ? -1 : 0;
}

static const char *const align_names[] = {"general", "left", "center", "right", NULL};
static const char *const valign_names[] = {"bottom", "top", "center", NULL};

/* A boolean member key into *field, setting bit. */
static int flag(qr_cc *cc, json_t *obj, const char *key, uint8_t *field, unsigned bit,
                qr_cellstyle *cs)
{
    int b = 0, r = qr_cc_get_bool(cc, obj, key, &b);
    if (r < 0) return -1;
    if (r > 0) {
        *field = (uint8_t)b;
        cs->set = (uint16_t)(cs->set | bit);
    }
    return 0;
}

/* The look properties of obj (a cell, a row, a column or a style) at the
 * current path into *cs; "format" too when ft is given (a style's). 0 or -1. */
static int props(qr_cc *cc, json_t *obj, qr_cc_fmts *ft, qr_cellstyle *cs)
{
    int bad = 0;
    bad |= flag(cc, obj, "bold", &cs->bold, QR_SX_BOLD, cs);
    bad |= flag(cc, obj, "italic", &cs->italic, QR_SX_ITALIC, cs);
    bad |= flag(cc, obj, "underline", &cs->underline, QR_SX_UNDERLINE, cs);
    bad |= flag(cc, obj, "wrap", &cs->wrap, QR_SX_WRAP, cs);
    json_t *v;
    if ((v = json_object_get(obj, "color"))) {
        size_t o = qr_cc_push_key(cc, "color");
        if (qr_cc_color(cc, v, &cs->color) < 0)
            bad = -1;
        else
            cs->set |= QR_SX_COLOR;
        qr_cc_pop(cc, o);
    }
    if ((v = json_object_get(obj, "fill"))) {
        size_t o = qr_cc_push_key(cc, "fill");
        if (qr_cc_color(cc, v, &cs->fill) < 0)
            bad = -1;
        else
            cs->set |= QR_SX_FILL;
        qr_cc_pop(cc, o);
    }
    if ((v = json_object_get(obj, "border"))) {
        size_t o = qr_cc_push_key(cc, "border");
        if (border(cc, v, cs) < 0) bad = -1;
        qr_cc_pop(cc, o);
    }
    if ((v = json_object_get(obj, "align"))) {
        size_t o = qr_cc_push_key(cc, "align");
        int k = word(cc, v, align_names, "alignment");
        if (k < 0)
            bad = -1;
        else
            cs->align = (uint8_t)k, cs->set |= QR_SX_ALIGN;
        qr_cc_pop(cc, o);
    }
    if ((v = json_object_get(obj, "valign"))) {
        size_t o = qr_cc_push_key(cc, "valign");
        int k = word(cc, v, valign_names, "vertical alignment");
        if (k < 0)
            bad = -1;
        else
            cs->valign = (uint8_t)k, cs->set |= QR_SX_VALIGN;
        qr_cc_pop(cc, o);
    }
    int n = 0, r = qr_cc_get_int(cc, obj, "indent", 0, 15, &n);
    if (r < 0) bad = -1;
    if (r > 0) cs->indent = (uint8_t)n, cs->set |= QR_SX_INDENT;
    r = qr_cc_get_int(cc, obj, "rotate", -90, 90, &n);
    if (r < 0) bad = -1;
    if (r > 0) cs->rotate = (int16_t)n, cs->set |= QR_SX_ROTATE;
    if (ft && (v = json_object_get(obj, "format"))) {
        size_t o = qr_cc_push_key(cc, "format");
        if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) > 255 ||
            memchr(json_string_value(v), '\0', json_string_length(v))) {
            qr_cc_err(cc, "a number format is a string like \"#,##0\" or \"0.0%\"",
                      "expected a number format of 1 to 255 characters, got %s",
                      qr_cc_type_name(v));
            bad = -1;
        } else {
            long i = qr_cc_fmt_add(ft, json_string_value(v), json_string_length(v));
            if (i < 0) {
                if (i == -1)
                    qr_cc_oom(cc);
                else
                    qr_cc_err(cc, NULL, "too many distinct number formats");
                bad = -1;
            } else {
                cs->fmt = (uint16_t)i;
                cs->set |= QR_SX_FORMAT;
            }
        }
        qr_cc_pop(cc, o);
    }
    return bad ? -1 : 0;
}

/* ---- keys ------------------------------------------------------------------------- */

struct qr_cc_lkey {
    uint32_t name; /* interned style name + 1, 0 = none */
    qr_cellstyle direct;
};

static uint32_t key_hash(const struct qr_cc_lkey *k)
{
    const unsigned char *p = (const unsigned char *)k;
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < sizeof *k; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* JSON pointers in one fixed order whatever order the compiler met them in
 * (the tree path and the streamed path visit a sheet's keys differently):
 * segment by segment, array indices by value, keys by bytes, a prefix
 * first. <0, 0, >0. */
static int ptr_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        size_t la = strcspn(a + 1, "/") + 1, lb = strcspn(b + 1, "/") + 1;
        size_t da = strspn(a + 1, "0123456789"), db = strspn(b + 1, "0123456789");
        int c;
        if (da == la - 1 && db == lb - 1 && da && db) /* both indices */
            c = da != db ? (da < db ? -1 : 1) : memcmp(a + 1, b + 1, da);
        else
            c = memcmp(a, b, la < lb ? la : lb) ? memcmp(a, b, la < lb ? la : lb)
                                                : (la > lb) - (la < lb);
        if (c) return c;
        a += la, b += lb;
    }
    return (*a != 0) - (*b != 0);
}

/* A style name's first use, for sorting the unknown ones. */
typedef struct use {
    const char *path;
    size_t name;
} use;

static int use_cmp(const void *a, const void *b)
{
    const use *x = a, *y = b;
    int c = ptr_cmp(x->path, y->path);
    return c ? c : (x->name > y->name) - (x->name < y->name);
}

static long name_index(qr_cc *cc, qr_cc_fmts *t, const char *s, size_t n)
{
    for (size_t i = 0; i < t->n_names; i++)
        if (strlen(t->names[i]) == n && memcmp(t->names[i], s, n) == 0) {
            /* the name's first use in document order, where an error goes */
            const char *here = cc->path ? cc->path : "";
            if (ptr_cmp(here, t->name_paths[i]) < 0) {
                char *p = strdup(here);
                if (!p) return -1;
                free(t->name_paths[i]);
                t->name_paths[i] = p;
            }
            return (long)i;
        }
    if (t->n_names == t->cap_names) {
        size_t cap = t->cap_names ? t->cap_names * 2 : 8;
        char **nn = realloc(t->names, cap * sizeof *nn);
        if (!nn) return -1;
        t->names = nn;
        char **np = realloc(t->name_paths, cap * sizeof *np);
        if (!np) return -1;
        t->name_paths = np;
        t->cap_names = cap;
    }
    char *copy = malloc(n + 1), *path = strdup(cc->path ? cc->path : "");
    if (!copy || !path) {
        free(copy);
        free(path);
        return -1;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    t->names[t->n_names] = copy;
    t->name_paths[t->n_names] = path;
    return (long)t->n_names++;
}

/* The key index of k (1-based), added when new; 0 on failure (reported). */
static unsigned key_index(qr_cc *cc, qr_cc_fmts *t, const struct qr_cc_lkey *k)
{
    if ((t->n_keys + 1) * 2 > t->n_kslots) {
        size_t ns = t->n_kslots ? t->n_kslots * 2 : 64;
        uint32_t *slots = calloc(ns, sizeof *slots);
        if (!slots) return qr_cc_oom(cc), 0;
        for (size_t i = 0; i < t->n_keys; i++) {
            size_t h = key_hash(&t->keys[i]) & (ns - 1);
            while (slots[h])
                h = (h + 1) & (ns - 1);
            slots[h] = (uint32_t)i + 1;
        }
        free(t->kslots);
        t->kslots = slots;
        t->n_kslots = ns;
    }
    size_t h = key_hash(k) & (t->n_kslots - 1);
    while (t->kslots[h]) {
        const struct qr_cc_lkey *e = &t->keys[t->kslots[h] - 1];
        if (memcmp(e, k, sizeof *k) == 0) return t->kslots[h];
        h = (h + 1) & (t->n_kslots - 1);
    }
    if (t->n_keys >= MAX_LOOKS) {
        qr_cc_err(cc, "reuse styles: name a style in \"styles\" and give cells its name",
                  "more than %u distinct cell looks", MAX_LOOKS);
        return 0;
    }
    if (t->n_keys == t->cap_keys) {
        size_t cap = t->cap_keys ? t->cap_keys * 2 : 16;
        struct qr_cc_lkey *nk = realloc(t->keys, cap * sizeof *nk);
        if (!nk) return qr_cc_oom(cc), 0;
        t->keys = nk;
        t->cap_keys = cap;
    }
    t->keys[t->n_keys] = *k;
    t->kslots[h] = (uint32_t)t->n_keys + 1;
    return (unsigned)++t->n_keys;
}

int qr_cc_look(qr_cc *cc, qr_cc_fmts *t, json_t *obj, unsigned *look)
{
    return qr_cc_look_link(cc, t, obj, 0, look);
}

int qr_cc_look_link(qr_cc *cc, qr_cc_fmts *t, json_t *obj, int link, unsigned *look)
{
    *look = 0;
    struct qr_cc_lkey k;
    memset(&k, 0, sizeof k);
    int bad = props(cc, obj, NULL, &k.direct) < 0;
    json_t *st = json_object_get(obj, "style");
    if (link && !st) { /* a link's look: Excel's Hyperlink style, blue and underlined */
        if (!(k.direct.set & QR_SX_COLOR)) {
            k.direct.color = QR_SX_RGB | 0x0563C1;
            k.direct.set |= QR_SX_COLOR;
        }
        if (!(k.direct.set & QR_SX_UNDERLINE)) {
            k.direct.underline = 1;
            k.direct.set |= QR_SX_UNDERLINE;
        }
    }
    if (st) {
        size_t o = qr_cc_push_key(cc, "style");
        if (!json_is_string(st) || json_string_length(st) == 0 ||
            memchr(json_string_value(st), '\0', json_string_length(st))) {
            qr_cc_err(cc, "name a style: \"total\", or one of the workbook's \"styles\"",
                      "expected a style name, got %s", qr_cc_type_name(st));
            bad = 1;
        } else {
            long i = name_index(cc, t, json_string_value(st), json_string_length(st));
            if (i < 0)
                qr_cc_oom(cc), bad = 1;
            else
                k.name = (uint32_t)i + 1;
        }
        qr_cc_pop(cc, o);
    }
    if (bad) return -1;
    if (!k.name && !k.direct.set) return 0;
    unsigned i = key_index(cc, t, &k);
    if (!i) return -1;
    *look = i;
    return 1;
}

int qr_cc_look_name(qr_cc *cc, qr_cc_fmts *t, json_t *name, unsigned *look)
{
    struct qr_cc_lkey k;
    memset(&k, 0, sizeof k);
    long i = name_index(cc, t, json_string_value(name), json_string_length(name));
    if (i < 0) return qr_cc_oom(cc), -1;
    k.name = (uint32_t)i + 1;
    *look = key_index(cc, t, &k);
    return *look ? 0 : -1;
}

void qr_cc_looks_free(qr_cc_fmts *t)
{
    for (size_t i = 0; i < t->n_names; i++) {
        free(t->names[i]);
        free(t->name_paths[i]);
    }
    free(t->names);
    free(t->name_paths);
    free(t->keys);
    free(t->kslots);
    t->names = NULL;
    t->name_paths = NULL;
    t->keys = NULL;
    t->kslots = NULL;
    t->n_names = t->cap_names = t->n_keys = t->cap_keys = t->n_kslots = 0;
}

/* ---- the workbook's styles ----------------------------------------------------------- */

static const char *const builtin_names[] = {"header", "total", "input",   "note",
                                            "good",   "bad",   "neutral", NULL};

static qr_cellstyle builtin(size_t i)
{
    qr_cellstyle c;
    memset(&c, 0, sizeof c);
    switch (i) {
    case 0: /* header: bold on the theme's header ground, a rule below */
        c.set = QR_SX_BOLD | QR_SX_FILL | QR_SX_BORDER_BOTTOM | QR_SX_BORDER_COLOR;
        c.bold = 1;
        c.fill = QR_SX_THEME | QR_SX_HEADER_FILL;
        c.border[3] = QR_BORDER_THIN;
        c.border_color = QR_SX_THEME | QR_SX_GRID;
        break;
    case 1: /* total: bold, a rule above and a double one below, in the text colour */
        c.set = QR_SX_BOLD | QR_SX_BORDER_TOP | QR_SX_BORDER_BOTTOM | QR_SX_BORDER_COLOR;
        c.bold = 1;
        c.border[2] = QR_BORDER_THIN;
        c.border[3] = QR_BORDER_DOUBLE;
        c.border_color = QR_SX_THEME | QR_SX_TEXT;
        break;
    case 2: /* input: the accent on its tint, as models mark what a reader may change */
        c.set = QR_SX_COLOR | QR_SX_FILL;
        c.color = QR_SX_THEME | QR_SX_ACCENT;
        c.fill = QR_SX_THEME | QR_SX_ACCENT_TINT;
        break;
    case 3: /* note: grey italic */
        c.set = QR_SX_ITALIC | QR_SX_COLOR;
        c.italic = 1;
        c.color = QR_SX_RGB | 0x595959;
        break;
    case 4: /* good, bad, neutral: Excel's own colours for them */
        c.set = QR_SX_COLOR | QR_SX_FILL;
        c.color = QR_SX_RGB | 0x006100;
        c.fill = QR_SX_RGB | 0xC6EFCE;
        break;
    case 5:
        c.set = QR_SX_COLOR | QR_SX_FILL;
        c.color = QR_SX_RGB | 0x9C0006;
        c.fill = QR_SX_RGB | 0xFFC7CE;
        break;
    case 6:
        c.set = QR_SX_COLOR | QR_SX_FILL;
        c.color = QR_SX_RGB | 0x9C5700;
        c.fill = QR_SX_RGB | 0xFFEB9C;
        break;
    default:
        break;
    }
    return c;
}

typedef struct named {
    const char *name;
    qr_cellstyle cs;
} named;

static const named *find(const named *ns, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(ns[i].name, name) == 0) return &ns[i];
    return NULL;
}

void qr_cc_looks(qr_cc *cc, json_t *root, qr_cc_fmts *t)
{
    json_t *styles = json_object_get(root, "styles");
    size_t n_user = json_is_object(styles) ? json_object_size(styles) : 0;
    size_t n_b = sizeof builtin_names / sizeof builtin_names[0] - 1;
    named *ns = calloc(n_user + n_b, sizeof *ns);
    const char **cands = calloc(n_user + n_b + 1, sizeof *cands);
    if (!ns || !cands) {
        qr_cc_oom(cc);
        free(ns);
        free(cands);
        return;
    }
    size_t n = 0;
    for (size_t i = 0; i < n_b; i++)
        ns[n++] = (named){builtin_names[i], builtin(i)};
    size_t o = qr_cc_push_key(cc, "styles");
    if (styles && !json_is_object(styles))
        qr_cc_err(cc, "styles is {\"total\": {\"bold\": true, \"border\": {\"top\": \"thin\"}}}",
                  "expected an object of named styles, got %s", qr_cc_type_name(styles));
    const char *key;
    json_t *def;
    if (json_is_object(styles)) {
        json_object_foreach(styles, key, def)
        {
            size_t o2 = qr_cc_push_key(cc, key);
            if (!json_is_object(def)) {
                qr_cc_err(cc, "a style is {\"bold\": true, \"fill\": \"#F2F2F2\", ...}",
                          "expected an object, got %s", qr_cc_type_name(def));
            } else if (!*key) {
                qr_cc_err(cc, "name the style: \"total\", \"highlight\"", "a style name is empty");
            } else {
                qr_cc_check_obj(cc, def, QR_SO_STYLE, "a style");
                qr_cellstyle cs;
                memset(&cs, 0, sizeof cs);
                if (props(cc, def, t, &cs) == 0) {
                    named *b = (named *)find(ns, n, key);
                    if (b) /* a built-in's definition is laid over it */
                        qr_cellstyle_merge(&b->cs, &cs);
                    else
                        ns[n++] = (named){qr_cc_strndup(cc, key, strlen(key)), cs};
                }
            }
            qr_cc_pop(cc, o2);
        }
    }
    qr_cc_pop(cc, o);
    for (size_t i = 0; i < n; i++)
        cands[i] = ns[i].name;
    /* every name the rows used exists: the unknown ones reported in
     * document order of their first use */
    use *unknown = malloc((t->n_names ? t->n_names : 1) * sizeof *unknown);
    size_t n_unknown = 0;
    if (!unknown) qr_cc_oom(cc);
    for (size_t i = 0; unknown && i < t->n_names; i++)
        if (!find(ns, n, t->names[i])) unknown[n_unknown++] = (use){t->name_paths[i], i};
    if (n_unknown) qsort(unknown, n_unknown, sizeof *unknown, use_cmp);
    for (size_t u = 0; unknown && u < n_unknown; u++) {
        size_t i = unknown[u].name;
        const char *dym = qr_suggest(t->names[i], cands);
        char hint[200];
        if (dym)
            snprintf(hint, sizeof hint, "did you mean \"%s\"?", dym);
        else
            snprintf(hint, sizeof hint,
                     "define it in the workbook's \"styles\", or use a built-in one: header, "
                     "total, input, note, good, bad, neutral");
        /* reported at the first use's path */
        char *saved = cc->path;
        size_t plen = cc->plen, pcap = cc->pcap;
        cc->path = t->name_paths[i];
        cc->plen = strlen(cc->path);
        cc->pcap = cc->plen + 1;
        qr_cc_err(cc, hint, "unknown style \"%.64s\"", t->names[i]);
        t->name_paths[i] = cc->path;
        cc->path = saved;
        cc->plen = plen;
        cc->pcap = pcap;
    }
    free(unknown);
    /* every key's look, and the header row's */
    qr_doc *doc = cc->doc;
    size_t nl = t->n_keys + 2;
    qr_cellstyle *looks = qr_arena_array(cc->a, nl, sizeof *looks);
    if (!looks) {
        qr_cc_oom(cc);
        free(ns);
        free(cands);
        return;
    }
    memset(looks, 0, nl * sizeof *looks);
    for (size_t k = 0; k < t->n_keys; k++) {
        qr_cellstyle cs;
        memset(&cs, 0, sizeof cs);
        if (t->keys[k].name) {
            const named *nm = find(ns, n, t->names[t->keys[k].name - 1]);
            if (nm) cs = nm->cs;
        }
        qr_cellstyle_merge(&cs, &t->keys[k].direct);
        looks[k + 1] = cs;
    }
    /* The header row: the workbook's "header" style when it defines one,
     * else bold (as quire always drew it). */
    qr_cellstyle hd;
    memset(&hd, 0, sizeof hd);
    if (json_is_object(styles) && json_object_get(styles, "header"))
        hd = find(ns, n, "header")->cs;
    else
        hd.set = QR_SX_BOLD, hd.bold = 1;
    looks[nl - 1] = hd;
    doc->looks = looks;
    doc->n_looks = nl;
    doc->header_look = (unsigned)(nl - 1);
    free(ns);
    free(cands);
}
