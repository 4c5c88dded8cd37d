/* docx_styles.c: what the reader needs from word/styles.xml and
 * word/numbering.xml: per style its heading level (outline level, or the
 * "heading N" / "Title" names, through basedOn), list numbering, monospace
 * font and bold; per numbering instance whether level 0 counts (ordered),
 * whether its bullet is a task box (quire's task items) and its start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "docx_read.h"

static void style_add(qr_rd_styles *s, qr_rd_style *st)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        qr_rd_style *ni = realloc(s->items, cap * sizeof *ni);
        if (!ni) return;
        s->items = ni;
        s->cap = cap;
    }
    s->items[s->n++] = *st;
}

qr_status qr_rd_styles_read(qr_rd *r, const char *part, qr_rd_styles *s)
{
    memset(s, 0, sizeof *s);
    if (!qr_rd_zip_has(r, part)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    qr_rd_style cur;
    int in_style = 0, in_defaults = 0, in_rpr = 0;
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "style") && in_style) {
                style_add(s, &cur);
                in_style = 0;
            } else if (qr_rd_is(x, "docDefaults")) {
                in_defaults = 0;
            } else if (qr_rd_is(x, "rPr")) {
                in_rpr = 0;
            }
            continue;
        }
        if (type != XML_READER_TYPE_ELEMENT) continue;
        int empty = xmlTextReaderIsEmptyElement(x);
        if (qr_rd_is(x, "docDefaults")) {
            in_defaults = !empty;
        } else if (qr_rd_is(x, "style")) {
            memset(&cur, 0, sizeof cur);
            cur.outline = -1;
            cur.id = qr_rd_attr(x, "styleId");
            char *t = qr_rd_attr(x, "type");
            cur.character = t && strcmp(t, "character") == 0;
            xmlFree(t);
            in_style = !empty;
            if (empty) style_add(s, &cur);
        } else if (in_style && qr_rd_is(x, "name")) {
            cur.name = qr_rd_attr(x, "val");
        } else if (in_style && qr_rd_is(x, "basedOn")) {
            cur.based_on = qr_rd_attr(x, "val");
        } else if (in_style && qr_rd_is(x, "outlineLvl")) {
            cur.outline = (int)qr_rd_attr_long(x, "val", -1);
        } else if (in_style && qr_rd_is(x, "numId")) {
            cur.num_id = (int)qr_rd_attr_long(x, "val", 0);
        } else if (qr_rd_is(x, "rPr")) {
            in_rpr = !empty;
        } else if (in_style && in_rpr && qr_rd_is(x, "rFonts")) {
            char *f = qr_rd_attr(x, "ascii");
            if (f) cur.mono = qr_rd_mono_font(f) ? 1 : -1;
            xmlFree(f);
        } else if (in_style && in_rpr && qr_rd_is(x, "b")) {
            cur.bold = qr_rd_attr_on(x);
        } else if (in_defaults && in_rpr && qr_rd_is(x, "lang") && !s->lang) {
            s->lang = qr_rd_attr(x, "val");
        }
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    return st;
}

const qr_rd_style *qr_rd_style_get(const qr_rd_styles *s, const char *id)
{
    for (size_t i = 0; id && i < s->n; i++)
        if (s->items[i].id && strcmp(s->items[i].id, id) == 0) return &s->items[i];
    return NULL;
}

/* The heading level (1..9), 0 for none, -1 for Title; follows basedOn. */
int qr_rd_style_heading(const qr_rd_styles *s, const char *id)
{
    for (int depth = 0; id && depth < 12; depth++) {
        const qr_rd_style *st = qr_rd_style_get(s, id);
        if (!st) {
            /* No styles part: the ids Word and quire use. */
            if (strncasecmp(id, "Heading", 7) == 0 && id[7] >= '1' && id[7] <= '9' && !id[8])
                return id[7] - '0';
            return strcasecmp(id, "Title") == 0 ? -1 : 0;
        }
        if (st->name) {
            if (strcasecmp(st->name, "title") == 0) return -1;
            if (strncasecmp(st->name, "heading ", 8) == 0 && st->name[8] >= '1' &&
                st->name[8] <= '9' && !st->name[9])
                return st->name[8] - '0';
        }
        if (st->outline >= 0 && st->outline <= 8) return st->outline + 1;
        id = st->based_on;
    }
    return 0;
}

/* A field of a style through basedOn: which 0 = numbering, 1 = mono, 2 = code-named. */
int qr_rd_style_num(const qr_rd_styles *s, const char *id)
{
    for (int depth = 0; id && depth < 12; depth++) {
        const qr_rd_style *st = qr_rd_style_get(s, id);
        if (!st) return 0;
        if (st->num_id) return st->num_id;
        id = st->based_on;
    }
    return 0;
}

int qr_rd_style_mono(const qr_rd_styles *s, const char *id)
{
    for (int depth = 0; id && depth < 12; depth++) {
        const qr_rd_style *st = qr_rd_style_get(s, id);
        if (!st) return 0;
        if (st->mono) return st->mono > 0;
        if (st->name &&
            (strcasecmp(st->name, "code") == 0 || strcasecmp(st->name, "HTML Preformatted") == 0 ||
             strcasecmp(st->name, "Source Code") == 0 ||
             strcasecmp(st->name, "Verbatim Char") == 0))
            return 1;
        id = st->based_on;
    }
    return 0;
}

int qr_rd_style_bold(const qr_rd_styles *s, const char *id)
{
    for (int depth = 0; id && depth < 12; depth++) {
        const qr_rd_style *st = qr_rd_style_get(s, id);
        if (!st) return 0;
        if (st->bold) return 1;
        id = st->based_on;
    }
    return 0;
}

static qr_rd_para_kind kind_of_name(const char *n, int id)
{
    static const struct {
        const char *name, *id;
        qr_rd_para_kind kind;
    } k[] = {
        {"quote", "quote", QR_RD_PARA_QUOTE},
        {"intense quote", "intensequote", QR_RD_PARA_QUOTE},
        {"block text", "blocktext", QR_RD_PARA_QUOTE},
        {"quote attribution", "quoteattribution", QR_RD_PARA_ATTRIBUTION},
        {"horizontal rule", "horizontalrule", QR_RD_PARA_RULE},
        {"toc heading", "tocheading", QR_RD_PARA_TOC_HEADING},
        {"caption", "caption", QR_RD_PARA_CAPTION},
        {"callout", "callout", QR_RD_PARA_CALLOUT},
        {"toc 1", "toc1", QR_RD_PARA_TOC_ENTRY},
        {"toc 2", "toc2", QR_RD_PARA_TOC_ENTRY},
        {"toc 3", "toc3", QR_RD_PARA_TOC_ENTRY},
        {"toc 4", "toc4", QR_RD_PARA_TOC_ENTRY},
        {"toc 5", "toc5", QR_RD_PARA_TOC_ENTRY},
        {"toc 6", "toc6", QR_RD_PARA_TOC_ENTRY},
        {"toc 7", "toc7", QR_RD_PARA_TOC_ENTRY},
        {"toc 8", "toc8", QR_RD_PARA_TOC_ENTRY},
        {"toc 9", "toc9", QR_RD_PARA_TOC_ENTRY},
    };
    for (size_t i = 0; n && i < sizeof k / sizeof k[0]; i++)
        if (strcasecmp(n, id ? k[i].id : k[i].name) == 0) return k[i].kind;
    return QR_RD_PARA_NONE;
}

qr_rd_para_kind qr_rd_style_kind(const qr_rd_styles *s, const char *id)
{
    for (int depth = 0; id && depth < 12; depth++) {
        const qr_rd_style *st = qr_rd_style_get(s, id);
        if (!st) return depth ? QR_RD_PARA_NONE : kind_of_name(id, 1);
        qr_rd_para_kind k = kind_of_name(st->name, 0);
        if (k) return k;
        id = st->based_on;
    }
    return QR_RD_PARA_NONE;
}

void qr_rd_styles_free(qr_rd_styles *s)
{
    for (size_t i = 0; i < s->n; i++) {
        xmlFree(s->items[i].id);
        xmlFree(s->items[i].name);
        xmlFree(s->items[i].based_on);
    }
    free(s->items);
    xmlFree(s->lang);
    memset(s, 0, sizeof *s);
}

/* ---- numbering ---------------------------------------------------------------- */

qr_status qr_rd_numbering_read(qr_rd *r, const char *part, qr_rd_numbering *nb)
{
    memset(nb, 0, sizeof *nb);
    if (!qr_rd_zip_has(r, part)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    int abstract = -1, level = -1, num = -1, over = -1;
    size_t cap_a = 0, cap_n = 0;
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        if (xmlTextReaderNodeType(x) != XML_READER_TYPE_ELEMENT) continue;
        if (qr_rd_is(x, "abstractNum")) {
            abstract = (int)qr_rd_attr_long(x, "abstractNumId", -1);
            num = -1;
        } else if (qr_rd_is(x, "lvl") && abstract >= 0 && num < 0) {
            level = (int)qr_rd_attr_long(x, "ilvl", -1);
        } else if (qr_rd_is(x, "numFmt") && abstract >= 0 && num < 0 && level >= 0 && level < 9) {
            char *f = qr_rd_attr(x, "val");
            int counts = f && strcmp(f, "bullet") != 0 && strcmp(f, "none") != 0;
            xmlFree(f);
            /* the abstract's entry: made at its first level's format */
            if (!nb->n_abstract || nb->abstracts[nb->n_abstract - 1].id != abstract) {
                if (nb->n_abstract == cap_a) {
                    cap_a = cap_a ? cap_a * 2 : 16;
                    qr_rd_abstract *na = realloc(nb->abstracts, cap_a * sizeof *na);
                    if (!na) break;
                    nb->abstracts = na;
                }
                nb->abstracts[nb->n_abstract].id = abstract;
                nb->abstracts[nb->n_abstract].ordered = 0;
                nb->abstracts[nb->n_abstract].levels = 0;
                nb->abstracts[nb->n_abstract].task = 0;
                nb->n_abstract++;
            }
            qr_rd_abstract *ab = &nb->abstracts[nb->n_abstract - 1];
            if (counts) ab->levels |= 1u << level;
            if (level == 0) ab->ordered = counts;
        } else if (qr_rd_is(x, "lvlText") && abstract >= 0 && num < 0 && level == 0 &&
                   nb->n_abstract && nb->abstracts[nb->n_abstract - 1].id == abstract &&
                   !nb->abstracts[nb->n_abstract - 1].ordered) {
            char *t = qr_rd_attr(x, "val");
            if (t && strcmp(t, "\xE2\x98\x90") == 0) nb->abstracts[nb->n_abstract - 1].task = 1;
            if (t && (strcmp(t, "\xE2\x98\x91") == 0 || strcmp(t, "\xE2\x98\x92") == 0))
                nb->abstracts[nb->n_abstract - 1].task = 2;
            xmlFree(t);
        } else if (qr_rd_is(x, "num")) {
            num = (int)qr_rd_attr_long(x, "numId", -1);
            over = -1;
        } else if (qr_rd_is(x, "lvlOverride") && num >= 0) {
            over = (int)qr_rd_attr_long(x, "ilvl", -1);
        } else if (qr_rd_is(x, "startOverride") && num >= 0 && over == 0 && nb->n_num &&
                   nb->nums[nb->n_num - 1].id == num) {
            nb->nums[nb->n_num - 1].start = qr_rd_attr_long(x, "val", 0);
        } else if (qr_rd_is(x, "abstractNumId") && num >= 0) {
            if (nb->n_num == cap_n) {
                cap_n = cap_n ? cap_n * 2 : 16;
                qr_rd_num *nn = realloc(nb->nums, cap_n * sizeof *nn);
                if (!nn) break;
                nb->nums = nn;
            }
            nb->nums[nb->n_num].id = num;
            nb->nums[nb->n_num].abstract = (int)qr_rd_attr_long(x, "val", -1);
            nb->nums[nb->n_num].start = 0;
            nb->n_num++;
        }
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    return st;
}

/* The abstract numbering a numbering instance uses, or NULL. */
static const qr_rd_abstract *abstract_of(const qr_rd_numbering *nb, int num_id)
{
    for (size_t i = 0; i < nb->n_num; i++) {
        if (nb->nums[i].id != num_id) continue;
        for (size_t j = 0; j < nb->n_abstract; j++)
            if (nb->abstracts[j].id == nb->nums[i].abstract) return &nb->abstracts[j];
    }
    return NULL;
}

int qr_rd_num_ordered(const qr_rd_numbering *nb, int num_id)
{
    const qr_rd_abstract *ab = abstract_of(nb, num_id);
    return ab ? ab->ordered : 0;
}

int qr_rd_num_level_ordered(const qr_rd_numbering *nb, int num_id, int ilvl)
{
    const qr_rd_abstract *ab = abstract_of(nb, num_id);
    return ab && ilvl >= 0 && ilvl <= 8 ? (int)(ab->levels >> ilvl & 1u) : 0;
}

int qr_rd_num_task(const qr_rd_numbering *nb, int num_id)
{
    const qr_rd_abstract *ab = abstract_of(nb, num_id);
    return ab ? ab->task : 0;
}

long qr_rd_num_start(const qr_rd_numbering *nb, int num_id)
{
    for (size_t i = 0; i < nb->n_num; i++)
        if (nb->nums[i].id == num_id) return nb->nums[i].start;
    return 0;
}

void qr_rd_numbering_free(qr_rd_numbering *nb)
{
    free(nb->abstracts);
    free(nb->nums);
    memset(nb, 0, sizeof *nb);
}
