/* rels.c: OPC relationships (targets resolved to part names), the core
 * title, and image parts turned into data: URIs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "read_int.h"

/* "word/document.xml" + "media/a.png" -> "word/media/a.png"; handles "../"
 * and absolute "/ppt/..." targets. */
static char *resolve(const char *part, const char *target)
{
    char buf[2048];
    if (target[0] == '/') {
        snprintf(buf, sizeof buf, "%s", target + 1);
    } else {
        const char *slash = strrchr(part, '/');
        int dir = slash ? (int)(slash - part) : 0;
        snprintf(buf, sizeof buf, "%.*s%s%s", dir, part, dir ? "/" : "", target);
    }
    /* Collapse "x/../" and "./" segments. */
    char out[2048];
    size_t n = 0;
    const char *s = buf;
    while (*s) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            while (n > 0 && out[n - 1] == '/')
                n--;
            while (n > 0 && out[n - 1] != '/')
                n--;
        } else if (!(len == 1 && s[0] == '.') && len > 0 && n + len + 1 < sizeof out) {
            memcpy(out + n, s, len);
            n += len;
            if (e) out[n++] = '/';
        }
        s = e ? e + 1 : s + len;
    }
    out[n] = '\0';
    return strdup(out);
}

qr_status qr_rd_rels_read(qr_rd *r, const char *part, qr_rd_rels *rels)
{
    memset(rels, 0, sizeof *rels);
    char name[1024];
    const char *slash = strrchr(part, '/');
    if (!*part)
        snprintf(name, sizeof name, "_rels/.rels");
    else if (slash)
        snprintf(name, sizeof name, "%.*s/_rels/%s.rels", (int)(slash - part), part, slash + 1);
    else
        snprintf(name, sizeof name, "_rels/%s.rels", part);
    if (!qr_rd_zip_has(r, name)) return QR_OK;
    char *data;
    size_t len;
    qr_status st = qr_rd_zip_read(r, name, &data, &len);
    if (st != QR_OK) return st;
    xmlTextReaderPtr x = qr_rd_xml_mem(r, data, len, name);
    size_t cap = 0;
    int rc;
    while (x && (rc = qr_rd_xml_next(r, x, name)) == 1) {
        if (xmlTextReaderNodeType(x) != XML_READER_TYPE_ELEMENT || !qr_rd_is(x, "Relationship"))
            continue;
        char *id = qr_rd_attr(x, "Id"), *type = qr_rd_attr(x, "Type");
        char *target = qr_rd_attr(x, "Target"), *mode = qr_rd_attr(x, "TargetMode");
        if (id && target) {
            if (rels->n == cap) {
                cap = cap ? cap * 2 : 16;
                qr_rd_rel *ni = realloc(rels->items, cap * sizeof *ni);
                if (!ni) break;
                rels->items = ni;
            }
            qr_rd_rel *rel = &rels->items[rels->n++];
            rel->id = strdup(id);
            rel->type = strdup(type ? type : "");
            rel->external = mode && strcmp(mode, "External") == 0;
            rel->target = rel->external ? strdup(target) : resolve(part, target);
        }
        xmlFree(id), xmlFree(type), xmlFree(target), xmlFree(mode);
    }
    st = qr_rd_xml_free(r, x);
    free(data);
    return st;
}

const qr_rd_rel *qr_rd_rels_get(const qr_rd_rels *rels, const char *id)
{
    for (size_t i = 0; id && i < rels->n; i++)
        if (strcmp(rels->items[i].id, id) == 0) return &rels->items[i];
    return NULL;
}

const qr_rd_rel *qr_rd_rels_type(const qr_rd_rels *rels, const char *suffix)
{
    size_t sl = strlen(suffix);
    for (size_t i = 0; i < rels->n; i++) {
        size_t tl = strlen(rels->items[i].type);
        if (tl >= sl && strcmp(rels->items[i].type + tl - sl, suffix) == 0) return &rels->items[i];
    }
    return NULL;
}

void qr_rd_rels_free(qr_rd_rels *rels)
{
    for (size_t i = 0; i < rels->n; i++) {
        free(rels->items[i].id);
        free(rels->items[i].type);
        free(rels->items[i].target);
    }
    free(rels->items);
    memset(rels, 0, sizeof *rels);
}

/* core.xml's dc:title: the first "title" element's text. */
static int title_of(xmlTextReaderPtr x, void *arg)
{
    if (!qr_rd_is(x, "title")) return 0;
    xmlChar *t = xmlTextReaderReadString(x);
    if (t && *t) *(char **)arg = strdup((const char *)t);
    xmlFree(t);
    return 1;
}

char *qr_rd_core_title(qr_rd *r)
{
    const char *name = "docProps/core.xml";
    if (!qr_rd_zip_has(r, name)) return NULL;
    char *title = NULL;
    qr_rd_part_elements(r, name, title_of, &title);
    return title;
}

void qr_rd_put_title(qr_rd *r)
{
    char *title = qr_rd_core_title(r);
    if (!title) return;
    qr_buf_puts(&r->spec, "\"title\":");
    qr_buf_json_str(&r->spec, title, strlen(title), 0);
    qr_buf_putc(&r->spec, ',');
    free(title);
}

char *qr_rd_main_part(qr_rd *r, const char *fallback, qr_status *st)
{
    qr_rd_rels root;
    *st = qr_rd_rels_read(r, "", &root);
    const qr_rd_rel *main = *st == QR_OK ? qr_rd_rels_type(&root, "/officeDocument") : NULL;
    char *part = *st == QR_OK ? strdup(main && !main->external ? main->target : fallback) : NULL;
    qr_rd_rels_free(&root);
    if (!part && *st == QR_OK) *st = QR_E_NOMEM;
    return part;
}

int qr_rd_image_uri(qr_rd *r, const char *part, qr_buf *b)
{
    return qr_rd_image_uri_size(r, part, b, NULL);
}

int qr_rd_image_uri_size(qr_rd *r, const char *part, qr_buf *b, double *natural)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!qr_rd_zip_has(r, part)) return 0;
    char *data;
    size_t len;
    if (qr_rd_zip_read(r, part, &data, &len) != QR_OK) return 0;
    const unsigned char *d = (const unsigned char *)data;
    const char *mime = NULL;
    if (len > 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) mime = "image/png";
    if (len > 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) mime = "image/jpeg";
    if (!mime) {
        free(data);
        return 0;
    }
    if (natural) {
        qr_image im;
        const char *why;
        memset(&im, 0, sizeof im);
        *natural = 0;
        if (qr_image_probe(d, len, &im, &why) == 0)
            *natural = (double)im.width_px * 914400.0 / (im.dpi_x > 1 ? im.dpi_x : 96);
    }
    qr_buf_printf(b, "\"data:%s;base64,", mime);
    char *o = qr_buf_reserve(b, (len + 2) / 3 * 4 + 2);
    if (o) {
        size_t k = 0;
        for (size_t i = 0; i < len; i += 3) {
            unsigned v = (unsigned)d[i] << 16;
            if (i + 1 < len) v |= (unsigned)d[i + 1] << 8;
            if (i + 2 < len) v |= d[i + 2];
            o[k++] = b64[(v >> 18) & 63];
            o[k++] = b64[(v >> 12) & 63];
            o[k++] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
            o[k++] = i + 2 < len ? b64[v & 63] : '=';
        }
        b->len += k;
        b->data[b->len] = '\0';
    }
    qr_buf_putc(b, '"');
    free(data);
    return 1;
}
