/* package.c: writes an OPC package with libzip, deterministically.
 *
 * Parts are gathered in memory (or as fill callbacks for streamed parts);
 * qr_package_write() lays out the zip in a fixed order into an in-memory
 * libzip source, then copies the archive to the sink. */
#include "package.h"

#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "backend.h" /* qr_format_epoch */
#include "xml.h"

typedef struct part {
    char *name, *content_type; /* content_type NULL: media (Default by extension) */
    char *data;                /* owned (ready parts) */
    const unsigned char *media;/* borrowed (media) */
    size_t len;
    qr_part_fill fill;         /* streamed parts */
    void *fill_ctx;
} part;

typedef struct rel {
    char *source, *id, *type, *target;
    int external;
} rel;

struct qr_package {
    part *parts;
    size_t n_parts, cap_parts;
    rel *rels;
    size_t n_rels, cap_rels;
    char *title;
    char *app_extra;
    qr_status status;
};

qr_package *qr_package_new(void)
{
    return calloc(1, sizeof(qr_package));
}

void qr_package_free(qr_package *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->n_parts; i++) {
        free(p->parts[i].name);
        free(p->parts[i].content_type);
        free(p->parts[i].data);
    }
    for (size_t i = 0; i < p->n_rels; i++) {
        free(p->rels[i].source);
        free(p->rels[i].id);
        free(p->rels[i].type);
        free(p->rels[i].target);
    }
    free(p->parts);
    free(p->rels);
    free(p->title);
    free(p->app_extra);
    free(p);
}

static char *dup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static part *new_part(qr_package *p, const char *name, const char *content_type)
{
    if (p->n_parts == p->cap_parts) {
        size_t cap = p->cap_parts ? p->cap_parts * 2 : 16;
        part *np = realloc(p->parts, cap * sizeof *np);
        if (!np) return NULL;
        p->parts = np;
        p->cap_parts = cap;
    }
    part *pt = &p->parts[p->n_parts];
    memset(pt, 0, sizeof *pt);
    pt->name = dup(name);
    pt->content_type = dup(content_type);
    if (!pt->name || (content_type && !pt->content_type)) {
        free(pt->name);
        free(pt->content_type);
        return NULL;
    }
    p->n_parts++;
    return pt;
}

qr_status qr_package_add_part(qr_package *p, const char *name, const char *content_type,
                              char *data, size_t len)
{
    part *pt = new_part(p, name, content_type);
    if (!pt) {
        free(data);
        return p->status = qr_fail(QR_E_NOMEM);
    }
    pt->data = data;
    pt->len = len;
    return QR_OK;
}

qr_status qr_package_add_stream(qr_package *p, const char *name, const char *content_type,
                                qr_part_fill fill, void *ctx)
{
    part *pt = new_part(p, name, content_type);
    if (!pt) return p->status = qr_fail(QR_E_NOMEM);
    pt->fill = fill;
    pt->fill_ctx = ctx;
    return QR_OK;
}

qr_status qr_package_add_media(qr_package *p, const char *name, const unsigned char *data,
                               size_t len)
{
    part *pt = new_part(p, name, NULL);
    if (!pt) return p->status = qr_fail(QR_E_NOMEM);
    pt->media = data;
    pt->len = len;
    return QR_OK;
}

const char *qr_package_rel(qr_package *p, const char *source, const char *type,
                           const char *target, int external)
{
    if (p->n_rels == p->cap_rels) {
        size_t cap = p->cap_rels ? p->cap_rels * 2 : 16;
        rel *nr = realloc(p->rels, cap * sizeof *nr);
        if (!nr) {
            p->status = qr_fail(QR_E_NOMEM);
            return NULL;
        }
        p->rels = nr;
        p->cap_rels = cap;
    }
    int n = 1;
    for (size_t i = 0; i < p->n_rels; i++)
        if (strcmp(p->rels[i].source, source) == 0) n++;
    char id[32];
    snprintf(id, sizeof id, "rId%d", n);
    rel *r = &p->rels[p->n_rels];
    r->source = dup(source);
    r->id = dup(id);
    r->type = dup(type);
    r->target = dup(target);
    r->external = external;
    if (!r->source || !r->id || !r->type || !r->target) {
        free(r->source);
        free(r->id);
        free(r->type);
        free(r->target);
        p->status = qr_fail(QR_E_NOMEM);
        return NULL;
    }
    p->n_rels++;
    return r->id;
}

qr_status qr_package_set_title(qr_package *p, const char *title)
{
    free(p->title);
    p->title = dup(title);
    if (title && !p->title) return p->status = qr_fail(QR_E_NOMEM);
    return QR_OK;
}

qr_status qr_package_set_app_extra(qr_package *p, const char *markup)
{
    free(p->app_extra);
    p->app_extra = dup(markup);
    if (markup && !p->app_extra) return p->status = qr_fail(QR_E_NOMEM);
    return QR_OK;
}

/* ---- generated parts -------------------------------------------------------- */

static const char *media_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot) return "application/octet-stream";
    if (strcmp(dot, ".png") == 0) return "image/png";
    if (strcmp(dot, ".jpeg") == 0 || strcmp(dot, ".jpg") == 0) return "image/jpeg";
    return "application/octet-stream";
}

/* [Content_Types].xml: Defaults for rels, xml and each media extension in
 * first-use order, then an Override per part. */
static qr_status write_content_types(qr_package *p, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return QR_E_NOMEM;
    qr_xml_decl(x);
    qr_xml_start(x, "Types");
    qr_xml_attr(x, "xmlns", "http://schemas.openxmlformats.org/package/2006/content-types");
    qr_xml_leaf(x, "Default", "Extension", "rels", "ContentType", QR_CT_RELS, NULL);
    qr_xml_leaf(x, "Default", "Extension", "xml", "ContentType", "application/xml", NULL);
    for (size_t i = 0; i < p->n_parts; i++) {
        if (p->parts[i].content_type) continue;
        const char *ext = strrchr(p->parts[i].name, '.');
        ext = ext ? ext + 1 : "bin";
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++) {
            const char *e2 = p->parts[j].content_type ? NULL : strrchr(p->parts[j].name, '.');
            if (e2 && strcmp(e2 + 1, ext) == 0) seen = 1;
        }
        if (!seen)
            qr_xml_leaf(x, "Default", "Extension", ext, "ContentType", media_type(p->parts[i].name), NULL);
    }
    qr_xml_leaf(x, "Override", "PartName", "/docProps/core.xml", "ContentType", QR_CT_CORE, NULL);
    qr_xml_leaf(x, "Override", "PartName", "/docProps/app.xml", "ContentType", QR_CT_APP, NULL);
    for (size_t i = 0; i < p->n_parts; i++) {
        if (!p->parts[i].content_type) continue;
        char name[1024];
        snprintf(name, sizeof name, "/%s", p->parts[i].name);
        qr_xml_leaf(x, "Override", "PartName", name, "ContentType", p->parts[i].content_type, NULL);
    }
    qr_xml_end(x);
    return qr_xml_free(x);
}

/* The .rels of one source ("" = the package). */
static qr_status write_rels(qr_package *p, const char *source, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return QR_E_NOMEM;
    qr_xml_decl(x);
    qr_xml_start(x, "Relationships");
    qr_xml_attr(x, "xmlns", "http://schemas.openxmlformats.org/package/2006/relationships");
    for (size_t i = 0; i < p->n_rels; i++) {
        const rel *r = &p->rels[i];
        if (strcmp(r->source, source) != 0) continue;
        qr_xml_start(x, "Relationship");
        qr_xml_attr(x, "Id", r->id);
        qr_xml_attr(x, "Type", r->type);
        qr_xml_attr(x, "Target", r->target);
        if (r->external) qr_xml_attr(x, "TargetMode", "External");
        qr_xml_end(x);
    }
    qr_xml_end(x);
    return qr_xml_free(x);
}

static qr_status write_core(qr_package *p, long long epoch, qr_buf *out)
{
    char date[32];
    qr_format_epoch(epoch, date, sizeof date);
    qr_xml *x = qr_xml_new(out);
    if (!x) return QR_E_NOMEM;
    qr_xml_decl(x);
    qr_xml_start(x, "cp:coreProperties");
    qr_xml_attr(x, "xmlns:cp", "http://schemas.openxmlformats.org/package/2006/metadata/core-properties");
    qr_xml_attr(x, "xmlns:dc", "http://purl.org/dc/elements/1.1/");
    qr_xml_attr(x, "xmlns:dcterms", "http://purl.org/dc/terms/");
    qr_xml_attr(x, "xmlns:dcmitype", "http://purl.org/dc/dcmitype/");
    qr_xml_attr(x, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
    if (p->title && *p->title) qr_xml_elem_text(x, "dc:title", p->title);
    qr_xml_elem_text(x, "dc:creator", "quire");
    qr_xml_start(x, "dcterms:created");
    qr_xml_attr(x, "xsi:type", "dcterms:W3CDTF");
    qr_xml_text_str(x, date);
    qr_xml_end(x);
    qr_xml_start(x, "dcterms:modified");
    qr_xml_attr(x, "xsi:type", "dcterms:W3CDTF");
    qr_xml_text_str(x, date);
    qr_xml_end(x);
    qr_xml_end(x);
    return qr_xml_free(x);
}

static qr_status write_app(qr_package *p, qr_buf *out)
{
    qr_xml *x = qr_xml_new(out);
    if (!x) return QR_E_NOMEM;
    qr_xml_decl(x);
    qr_xml_start(x, "Properties");
    qr_xml_attr(x, "xmlns", "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties");
    qr_xml_attr(x, "xmlns:vt", "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes");
    qr_xml_elem_text(x, "Application", "quire");
    if (p->app_extra) qr_xml_raw(x, p->app_extra, strlen(p->app_extra));
    qr_xml_end(x);
    return qr_xml_free(x);
}

/* ---- zip ---------------------------------------------------------------------- */

/* State of one streamed part while libzip pulls it. */
typedef struct stream_src {
    part *pt;
    qr_buf chunk;
    size_t pos;
    int done;
    qr_status status;
    zip_error_t err;
} stream_src;

static zip_int64_t stream_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
    stream_src *s = ud;
    switch (cmd) {
    case ZIP_SOURCE_OPEN:
        s->chunk.len = 0;
        s->pos = 0;
        s->done = 0;
        return 0;
    case ZIP_SOURCE_READ: {
        zip_uint64_t n = 0;
        while (n < len) {
            if (s->pos == s->chunk.len) {
                if (s->done) break;
                s->chunk.len = 0;
                s->pos = 0;
                qr_status st = s->pt->fill(s->pt->fill_ctx, &s->chunk, &s->done);
                if (st == QR_OK && s->chunk.oom) st = QR_E_NOMEM;
                if (st != QR_OK) {
                    s->status = st;
                    zip_error_set(&s->err, ZIP_ER_READ, 0);
                    return -1;
                }
                continue;
            }
            size_t take = s->chunk.len - s->pos;
            if (take > len - n) take = (size_t)(len - n);
            memcpy((char *)data + n, s->chunk.data + s->pos, take);
            s->pos += take;
            n += take;
        }
        return (zip_int64_t)n;
    }
    case ZIP_SOURCE_CLOSE: return 0;
    case ZIP_SOURCE_STAT: {
        zip_stat_t *st = data;
        zip_stat_init(st);
        return sizeof *st;
    }
    case ZIP_SOURCE_ERROR: return zip_error_to_data(&s->err, data, len);
    case ZIP_SOURCE_FREE: return 0;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                              ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
    default:
        zip_error_set(&s->err, ZIP_ER_OPNOTSUPP, 0);
        return -1;
    }
}

/* Add one entry from memory (borrowed: freed by the caller after close),
 * dated 1980-01-01 00:00, deflated at level (0: stored). */
static qr_status part_add(zip_t *za, const char *name, const void *data, size_t len, int level)
{
    zip_source_t *src = zip_source_buffer(za, data, len, 0);
    if (!src) return qr_fail(QR_E_NOMEM);
    zip_int64_t idx = zip_file_add(za, name, src, ZIP_FL_ENC_UTF_8);
    if (idx < 0) {
        zip_source_free(src);
        return qr_fail(QR_E_RENDER);
    }
    if (zip_set_file_compression(za, (zip_uint64_t)idx, level ? ZIP_CM_DEFLATE : ZIP_CM_STORE,
                                 (zip_uint32_t)level) != 0 ||
        zip_file_set_dostime(za, (zip_uint64_t)idx, 0, 0x21, 0) != 0)
        return qr_fail(QR_E_RENDER);
    return QR_OK;
}

/* Compression level for a part of len bytes: big parts are where the time
 * goes, and level 1 costs a third of level 6 for ~15% more bytes. */
static int level_for(size_t len)
{
    return len > (1u << 20) ? 1 : 6;
}

/* The .rels name of a part: "word/document.xml" -> "word/_rels/document.xml.rels". */
static void rels_name(const char *part_name, char *buf, size_t size)
{
    const char *slash = strrchr(part_name, '/');
    if (slash)
        snprintf(buf, size, "%.*s/_rels/%s.rels", (int)(slash - part_name), part_name, slash + 1);
    else
        snprintf(buf, size, "_rels/%s.rels", part_name);
}

static int has_rels(const qr_package *p, const char *source)
{
    for (size_t i = 0; i < p->n_rels; i++)
        if (strcmp(p->rels[i].source, source) == 0) return 1;
    return 0;
}

qr_status qr_package_write(qr_package *p, long long epoch, qr_sink *out)
{
    if (p->status != QR_OK) return p->status;
    qr_status st = QR_OK;
    /* The generated parts, kept alive until zip_close() has read them. */
    size_t n_gen = 4 + p->n_parts;
    qr_buf *gen = calloc(n_gen, sizeof *gen);
    stream_src *streams = calloc(p->n_parts ? p->n_parts : 1, sizeof *streams);
    zip_error_t zerr;
    zip_error_init(&zerr);
    zip_source_t *dst = NULL;
    zip_t *za = NULL;
    if (!gen || !streams) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    /* Root relationships to the properties parts come after the backend's. */
    if (!qr_package_rel(p, "", QR_REL_CORE, "docProps/core.xml", 0) ||
        !qr_package_rel(p, "", QR_REL_APP, "docProps/app.xml", 0)) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    dst = zip_source_buffer_create(NULL, 0, 0, &zerr);
    if (!dst) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    za = zip_open_from_source(dst, ZIP_TRUNCATE, &zerr);
    if (!za) {
        st = qr_fail(QR_E_RENDER);
        goto done;
    }
    zip_source_keep(dst);

    if ((st = write_content_types(p, &gen[0])) || (st = part_add(za, "[Content_Types].xml", gen[0].data, gen[0].len, 6)))
        goto done;
    if ((st = write_rels(p, "", &gen[1])) || (st = part_add(za, "_rels/.rels", gen[1].data, gen[1].len, 6)))
        goto done;
    if ((st = write_core(p, epoch, &gen[2])) || (st = part_add(za, "docProps/core.xml", gen[2].data, gen[2].len, 6)))
        goto done;
    if ((st = write_app(p, &gen[3])) || (st = part_add(za, "docProps/app.xml", gen[3].data, gen[3].len, 6)))
        goto done;

    for (size_t i = 0; i < p->n_parts; i++) {
        part *pt = &p->parts[i];
        if (pt->fill) {
            stream_src *s = &streams[i];
            s->pt = pt;
            zip_error_init(&s->err);
            zip_source_t *src = zip_source_function(za, stream_cb, s);
            if (!src) {
                st = qr_fail(QR_E_NOMEM);
                goto done;
            }
            zip_int64_t idx = zip_file_add(za, pt->name, src, ZIP_FL_ENC_UTF_8);
            if (idx < 0) {
                zip_source_free(src);
                st = qr_fail(QR_E_RENDER);
                goto done;
            }
            if (zip_set_file_compression(za, (zip_uint64_t)idx, ZIP_CM_DEFLATE, 1) != 0 ||
                zip_file_set_dostime(za, (zip_uint64_t)idx, 0, 0x21, 0) != 0) {
                st = qr_fail(QR_E_RENDER);
                goto done;
            }
        } else if (pt->media) {
            if ((st = part_add(za, pt->name, pt->media, pt->len, 0))) goto done;
        } else {
            if ((st = part_add(za, pt->name, pt->data, pt->len, level_for(pt->len)))) goto done;
        }
        if (has_rels(p, pt->name)) {
            char name[1100];
            rels_name(pt->name, name, sizeof name);
            qr_buf *b = &gen[4 + i];
            if ((st = write_rels(p, pt->name, b)) || (st = part_add(za, name, b->data, b->len, 6)))
                goto done;
        }
    }
    if (zip_close(za) != 0) {
        za = NULL; /* libzip keeps it open on failure; discard below */
        for (size_t i = 0; i < p->n_parts; i++)
            if (streams[i].status != QR_OK) st = streams[i].status;
        if (st == QR_OK) st = qr_fail(QR_E_RENDER);
        goto done;
    }
    za = NULL;

    /* Copy the archive out of the buffer source. */
    if (zip_source_open(dst) != 0) {
        st = qr_fail(QR_E_RENDER);
        goto done;
    }
    char chunk[65536];
    zip_int64_t n;
    while ((n = zip_source_read(dst, chunk, sizeof chunk)) > 0) {
        st = qr_sink_write(out, chunk, (size_t)n);
        if (st != QR_OK) break;
    }
    if (n < 0 && st == QR_OK) st = qr_fail(QR_E_RENDER);
    zip_source_close(dst);

done:
    if (za) zip_discard(za);
    if (dst) zip_source_free(dst);
    zip_error_fini(&zerr);
    if (gen)
        for (size_t i = 0; i < n_gen; i++) qr_buf_free(&gen[i]);
    if (streams) {
        for (size_t i = 0; i < p->n_parts; i++) {
            qr_buf_free(&streams[i].chunk);
            if (streams[i].pt) zip_error_fini(&streams[i].err);
        }
    }
    free(gen);
    free(streams);
    return st;
}
