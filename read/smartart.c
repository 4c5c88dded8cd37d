/* smartart.c: a SmartArt diagram's text (its data part, dgm:dataModel) as
 * bullet items: each node's text, nested as the diagram's parent-of
 * connections nest them, siblings in their order. The drawing's shapes
 * and layout are not read: what a reader wants is the words in outline. */
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

#define MAX_DEPTH 9

typedef struct dpt {
    char *id, *text;
    int doc; /* the diagram's root point (type="doc") */
} dpt;

typedef struct dcxn {
    char *src, *dest;
    long ord;
} dcxn;

typedef struct dmodel {
    dpt *pts;
    size_t n_pts;
    dcxn *cx;
    size_t n_cx;
} dmodel;

static const dpt *find_pt(const dmodel *m, const char *id)
{
    for (size_t i = 0; i < m->n_pts; i++)
        if (m->pts[i].id && strcmp(m->pts[i].id, id) == 0) return &m->pts[i];
    return NULL;
}

static int by_ord(const void *a, const void *b)
{
    const dcxn *x = *(const dcxn *const *)a, *y = *(const dcxn *const *)b;
    return (x->ord > y->ord) - (x->ord < y->ord);
}

/* The children of id as item members; returns how many were written. */
static int emit(const dmodel *m, const char *id, int depth, qr_buf *b, int first)
{
    if (depth >= MAX_DEPTH * 2) return 0; /* cycles end here */
    const dcxn **kids = malloc((m->n_cx + 1) * sizeof *kids);
    if (!kids) return 0;
    size_t n = 0;
    for (size_t i = 0; i < m->n_cx; i++)
        if (strcmp(m->cx[i].src, id) == 0) kids[n++] = &m->cx[i];
    qsort(kids, n, sizeof *kids, by_ord);
    int written = 0;
    for (size_t i = 0; i < n; i++) {
        const dpt *p = find_pt(m, kids[i]->dest);
        if (!p) continue;
        if (!p->text || !*p->text) { /* no words: its children in its place */
            written += emit(m, p->id, depth + 1, b, first && !written);
            continue;
        }
        if (!(first && !written)) qr_buf_putc(b, ',');
        written++;
        qr_buf child = {0};
        int nk = depth + 1 < MAX_DEPTH ? emit(m, p->id, depth + 1, &child, 1) : 0;
        if (nk) {
            qr_buf_puts(b, "{\"text\":");
            qr_buf_json_str(b, p->text, strlen(p->text), 0);
            qr_buf_puts(b, ",\"items\":[");
            qr_buf_append(b, child.data, child.len);
            qr_buf_puts(b, "]}");
        } else {
            qr_buf_json_str(b, p->text, strlen(p->text), 0);
        }
        qr_buf_free(&child);
    }
    free(kids);
    return written;
}

qr_status qr_rd_smartart(qr_rd *r, const char *part, qr_buf *out, int first, int *written)
{
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, part, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, part);
    dmodel m;
    memset(&m, 0, sizeof m);
    size_t cap_p = 0, cap_c = 0;
    int in_pt = 0, in_t = 0, paras = 0;
    qr_buf text = {0};
    while (x && qr_rd_xml_next(r, x, part) == 1) {
        int type = xmlTextReaderNodeType(x);
        if (type == XML_READER_TYPE_ELEMENT) {
            int empty = xmlTextReaderIsEmptyElement(x);
            if (qr_rd_is(x, "pt")) {
                char *t = qr_rd_attr(x, "type");
                /* transitions (parTrans, sibTrans) and presentation points carry no words */
                int node =
                    !t || strcmp(t, "node") == 0 || strcmp(t, "doc") == 0 || strcmp(t, "asst") == 0;
                if (node && m.n_pts == cap_p) {
                    cap_p = cap_p ? cap_p * 2 : 16;
                    dpt *np = realloc(m.pts, cap_p * sizeof *np);
                    if (!np) {
                        xmlFree(t);
                        break;
                    }
                    m.pts = np;
                }
                if (node) {
                    dpt *p = &m.pts[m.n_pts++];
                    p->id = qr_rd_attr(x, "modelId");
                    p->text = NULL;
                    p->doc = t && strcmp(t, "doc") == 0;
                }
                in_pt = node && !empty;
                text.len = 0;
                paras = 0;
                xmlFree(t);
            } else if (in_pt && qr_rd_is(x, "p")) {
                if (paras++) qr_buf_putc(&text, '\n');
            } else if (in_pt && qr_rd_is(x, "t")) {
                in_t = !empty;
            } else if (qr_rd_is(x, "cxn")) {
                char *t = qr_rd_attr(x, "type");
                if (!t || strcmp(t, "parOf") == 0) {
                    if (m.n_cx == cap_c) {
                        cap_c = cap_c ? cap_c * 2 : 16;
                        dcxn *nc = realloc(m.cx, cap_c * sizeof *nc);
                        if (!nc) {
                            xmlFree(t);
                            break;
                        }
                        m.cx = nc;
                    }
                    dcxn *c = &m.cx[m.n_cx];
                    c->src = qr_rd_attr(x, "srcId");
                    c->dest = qr_rd_attr(x, "destId");
                    c->ord = qr_rd_attr_long(x, "srcOrd", 0);
                    if (c->src && c->dest)
                        m.n_cx++;
                    else
                        xmlFree(c->src), xmlFree(c->dest);
                }
                xmlFree(t);
            }
        } else if (type == XML_READER_TYPE_END_ELEMENT) {
            if (qr_rd_is(x, "t")) {
                in_t = 0;
            } else if (in_pt && qr_rd_is(x, "pt")) {
                in_pt = 0;
                /* trim: a node's empty paragraphs say nothing */
                while (text.len &&
                       (text.data[text.len - 1] == '\n' || text.data[text.len - 1] == ' '))
                    text.data[--text.len] = '\0';
                if (text.len) m.pts[m.n_pts - 1].text = strdup(text.data);
            }
        } else if (in_t) {
            const char *s = (const char *)xmlTextReaderConstValue(x);
            if (s) qr_buf_puts(&text, s);
        }
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    int n = 0;
    if (st == QR_OK)
        for (size_t i = 0; i < m.n_pts; i++)
            if (m.pts[i].doc && m.pts[i].id) n += emit(&m, m.pts[i].id, 0, out, first && !n);
    for (size_t i = 0; i < m.n_pts; i++) {
        xmlFree(m.pts[i].id);
        free(m.pts[i].text);
    }
    for (size_t i = 0; i < m.n_cx; i++) {
        xmlFree(m.cx[i].src);
        xmlFree(m.cx[i].dest);
    }
    free(m.pts);
    free(m.cx);
    qr_buf_free(&text);
    *written = n;
    return st;
}
