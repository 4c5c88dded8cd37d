/* package.c: writes an OPC package with libzip, deterministically.
 *
 * Parts are gathered in memory (or as fill callbacks for streamed parts);
 * qr_package_write() lays out the zip in a fixed order into an in-memory
 * libzip source, then copies the archive to the sink.
 *
 * Big parts (every streamed part, ready parts over 1 MiB) are deflated here
 * rather than by libzip, pigz-style, on a few worker threads: the bytes are
 * cut into fixed 512 KiB blocks by offset alone, each block is raw-deflated
 * at level 1 on its own (primed with the previous 32 KiB as dictionary),
 * ended with Z_SYNC_FLUSH (the last with Z_FINISH), and the outputs are
 * concatenated in block order, so the stream is one valid deflate stream and
 * its bytes do not depend on timing or on the number of threads. libzip
 * then copies that data raw: a source whose stat says ZIP_CM_DEFLATE with
 * size, comp_size and CRC is not recompressed (zip_close's add_data).
 *
 * A split part (a docx whose TOC waits for its page numbers) is deflated
 * in two streams, cut a window into its final tail: the tail's blocks
 * before its beginning settles (while the thread it waits for runs), the
 * head's after, its last block sync-flushed so the tail's stream follows
 * (see qr_package_add_split). */
#include "package.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zip.h>
#include <zlib.h>

#include "backend.h" /* qr_format_epoch */
#include "thread.h"
#include "xml.h"

typedef struct part {
    char *name, *content_type;  /* content_type NULL: media (Default by extension) */
    char *data;                 /* owned (ready parts) */
    const unsigned char *media; /* borrowed (media) */
    int stored;                 /* data is written without deflate (qr_package_add_stored) */
    size_t len;
    qr_part_fill fill; /* streamed parts */
    void *fill_ctx;
    /* qr_package_add_split: data[head..len) is final; settle (NULL once
     * called, or when data was final already) gives the rest */
    int split;
    size_t head;
    qr_part_settle settle;
    void *settle_ctx;
    /* settled with its tail deflated apart (settle_part): the final bytes
     * up to the cut, its final beginning then the tail's first DICT_SIZE
     * bytes (data keeps the beginning as it came) */
    char *front;
    size_t front_len;
} part;

typedef struct rel {
    char *source, *id, *type, *target;
    int external;
    size_t next; /* the next relationship of the same source, NO_REL at the end */
} rel;

#define NO_REL ((size_t)-1)

/* The relationships of one source: an open-addressing table entry keyed by
 * the source name (borrowed from its first relationship). Only looked up,
 * never iterated, so the hash order never reaches the output. */
typedef struct rel_src {
    const char *source; /* NULL: empty slot */
    size_t count, first, last;
} rel_src;

struct qr_package {
    part *parts;
    size_t n_parts, cap_parts;
    rel *rels;
    size_t n_rels, cap_rels;
    rel_src *srcs;
    size_t n_srcs, cap_srcs; /* cap_srcs: a power of two (or 0) */
    char *title;
    char *app_extra;
    char *core[4]; /* author, subject, keywords, date (qr_package_set_core), or NULL */
    int threads;   /* compression threads, 0: default */
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
        free(p->parts[i].front);
    }
    for (size_t i = 0; i < p->n_rels; i++) {
        free(p->rels[i].source);
        free(p->rels[i].id);
        free(p->rels[i].type);
        free(p->rels[i].target);
    }
    free(p->parts);
    free(p->rels);
    free(p->srcs);
    free(p->title);
    free(p->app_extra);
    for (int i = 0; i < 4; i++)
        free(p->core[i]);
    free(p);
}

static char *str_dup(const char *s)
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
    pt->name = str_dup(name);
    pt->content_type = str_dup(content_type);
    if (!pt->name || (content_type && !pt->content_type)) {
        free(pt->name);
        free(pt->content_type);
        return NULL;
    }
    p->n_parts++;
    return pt;
}

qr_status qr_package_add_part(qr_package *p, const char *name, const char *content_type, char *data,
                              size_t len)
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

qr_status qr_package_add_stored(qr_package *p, const char *name, const char *content_type,
                                char *data, size_t len)
{
    qr_status st = qr_package_add_part(p, name, content_type, data, len);
    if (st == QR_OK) p->parts[p->n_parts - 1].stored = 1;
    return st;
}

qr_status qr_package_add_split(qr_package *p, const char *name, const char *content_type,
                               char *data, size_t len, size_t head, qr_part_settle settle,
                               void *ctx)
{
    qr_status st = qr_package_add_part(p, name, content_type, data, len);
    if (st != QR_OK) return st;
    part *pt = &p->parts[p->n_parts - 1];
    pt->split = 1;
    pt->head = head < len ? head : len;
    pt->settle = settle;
    pt->settle_ctx = ctx;
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

static size_t hash_str(const char *s)
{
    size_t h = 14695981039346656037u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The entry of source, or the empty slot where it would go. */
static rel_src *src_slot(rel_src *tab, size_t cap, const char *source)
{
    size_t i = hash_str(source) & (cap - 1);
    while (tab[i].source && strcmp(tab[i].source, source) != 0)
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

static const rel_src *src_find(const qr_package *p, const char *source)
{
    if (!p->cap_srcs) return NULL;
    const rel_src *e = src_slot(p->srcs, p->cap_srcs, source);
    return e->source ? e : NULL;
}

/* Make room for one more source (load at most 1/2). */
static int src_reserve(qr_package *p)
{
    if ((p->n_srcs + 1) * 2 <= p->cap_srcs) return 0;
    size_t cap = p->cap_srcs ? p->cap_srcs * 2 : 64;
    rel_src *tab = calloc(cap, sizeof *tab);
    if (!tab) return -1;
    for (size_t i = 0; i < p->cap_srcs; i++)
        if (p->srcs[i].source) *src_slot(tab, cap, p->srcs[i].source) = p->srcs[i];
    free(p->srcs);
    p->srcs = tab;
    p->cap_srcs = cap;
    return 0;
}

const char *qr_package_rel(qr_package *p, const char *source, const char *type, const char *target,
                           int external)
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
    if (src_reserve(p) != 0) {
        p->status = qr_fail(QR_E_NOMEM);
        return NULL;
    }
    rel_src *e = src_slot(p->srcs, p->cap_srcs, source);
    char id[32];
    snprintf(id, sizeof id, "rId%zu", (e->source ? e->count : 0) + 1);
    rel *r = &p->rels[p->n_rels];
    r->source = str_dup(source);
    r->id = str_dup(id);
    r->type = str_dup(type);
    r->target = str_dup(target);
    r->external = external;
    r->next = NO_REL;
    if (!r->source || !r->id || !r->type || !r->target) {
        free(r->source);
        free(r->id);
        free(r->type);
        free(r->target);
        p->status = qr_fail(QR_E_NOMEM);
        return NULL;
    }
    if (e->source) {
        p->rels[e->last].next = p->n_rels;
        e->last = p->n_rels;
        e->count++;
    } else {
        e->source = r->source;
        e->first = e->last = p->n_rels;
        e->count = 1;
        p->n_srcs++;
    }
    p->n_rels++;
    return r->id;
}

void qr_package_set_threads(qr_package *p, int threads)
{
    if (p) p->threads = threads;
}

qr_status qr_package_set_title(qr_package *p, const char *title)
{
    free(p->title);
    p->title = str_dup(title);
    if (title && !p->title) return p->status = qr_fail(QR_E_NOMEM);
    return QR_OK;
}

qr_status qr_package_set_core(qr_package *p, const char *author, const char *subject,
                              const char *keywords, const char *date)
{
    const char *v[4] = {author, subject, keywords, date};
    for (int i = 0; i < 4; i++) {
        free(p->core[i]);
        p->core[i] = v[i] ? str_dup(v[i]) : NULL;
        if (v[i] && !p->core[i]) return p->status = qr_fail(QR_E_NOMEM);
    }
    return QR_OK;
}

qr_status qr_package_set_app_extra(qr_package *p, const char *markup)
{
    free(p->app_extra);
    p->app_extra = str_dup(markup);
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
            qr_xml_leaf(x, "Default", "Extension", ext, "ContentType", media_type(p->parts[i].name),
                        NULL);
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
    const rel_src *e = src_find(p, source);
    for (size_t i = e ? e->first : NO_REL; i != NO_REL; i = p->rels[i].next) {
        const rel *r = &p->rels[i];
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
    qr_xml_attr(x, "xmlns:cp",
                "http://schemas.openxmlformats.org/package/2006/metadata/core-properties");
    qr_xml_attr(x, "xmlns:dc", "http://purl.org/dc/elements/1.1/");
    qr_xml_attr(x, "xmlns:dcterms", "http://purl.org/dc/terms/");
    qr_xml_attr(x, "xmlns:dcmitype", "http://purl.org/dc/dcmitype/");
    qr_xml_attr(x, "xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance");
    if (p->title && *p->title) qr_xml_elem_text(x, "dc:title", p->title);
    if (p->core[1]) qr_xml_elem_text(x, "dc:subject", p->core[1]);
    qr_xml_elem_text(x, "dc:creator", p->core[0] ? p->core[0] : "quire");
    if (p->core[2]) qr_xml_elem_text(x, "cp:keywords", p->core[2]);
    if (p->core[3]) {
        /* the document's own date, midnight UTC when it has no time */
        snprintf(date, sizeof date, "%s%s", p->core[3],
                 strlen(p->core[3]) == 10 ? "T00:00:00Z" : "");
    }
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
    qr_xml_attr(x, "xmlns",
                "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties");
    qr_xml_attr(x, "xmlns:vt",
                "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes");
    qr_xml_elem_text(x, "Application", "quire");
    if (p->app_extra) qr_xml_raw(x, p->app_extra, strlen(p->app_extra));
    qr_xml_end(x);
    return qr_xml_free(x);
}

/* ---- parallel deflate ------------------------------------------------------ */

#define BLOCK_SIZE ((size_t)512 << 10) /* the split: byte offsets only */
#define DICT_SIZE ((size_t)32 << 10)   /* deflate's window */
#define MAX_THREADS 4
#define BIG_PART ((size_t)1 << 20) /* ready parts above this are deflated here */

/* One block. in/dict point into own (streamed parts) or into the part's data. */
typedef struct job {
    const unsigned char *in, *dict;
    size_t len, dict_len;
    int last;
    unsigned char *own; /* DICT_SIZE + BLOCK_SIZE bytes, allocated on first use */
    unsigned char *out; /* the raw deflate of the block */
    size_t out_len, out_cap;
    uLong crc;
    int done, err; /* set by the worker under the pool's lock */
} job;

/* Workers and a ring of jobs. Sequence numbers grow without wrapping: job k
 * sits in slot k % cap; made counts slots handed to the filler, submitted
 * the jobs ready for a worker, taken those a worker started, harvested those
 * whose output was appended to the part. made - harvested <= cap, so at
 * most cap = 2 x threads blocks are in flight (input and output), whatever
 * the part's size; the part's deflated bytes are kept whole. */
typedef struct pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t th[MAX_THREADS];
    int n_threads; /* 0: compress on the calling thread */
    job *jobs;
    size_t cap, made, submitted, taken, harvested;
    int stop;
    z_stream zs; /* the calling thread's stream (n_threads == 0) */
    int zs_ok;
} pool;

/* A part deflated here: what libzip copies raw. */
typedef struct packed {
    qr_buf z;          /* the deflate stream */
    zip_uint64_t size; /* uncompressed */
    zip_uint64_t comp; /* z.len, kept once z is freed */
    uLong crc;
    size_t pos;
    zip_error_t err;
    int used, spent;    /* spent: libzip read it all and z is freed */
    int gp_flags;       /* the general purpose bits libzip's deflate would set */
    uintptr_t released; /* z's pages below this went back to the system */
} packed;

static int z_init(z_stream *zs)
{
    memset(zs, 0, sizeof *zs);
    /* Raw deflate (windowBits -15) at level 1 with libzip's memLevel. */
    return deflateInit2(zs, 1, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -1;
}

/* Deflate one block: a pure function of (dict, in, last). */
static int compress_block(z_stream *zs, job *j)
{
    j->crc = crc32_z(0, j->in, j->len);
    j->out_len = 0;
    if (deflateReset(zs) != Z_OK) return -1;
    if (j->dict_len && deflateSetDictionary(zs, j->dict, (uInt)j->dict_len) != Z_OK) return -1;
    size_t need = deflateBound(zs, (uLong)j->len) + 64;
    if (j->out_cap < need) {
        unsigned char *o = realloc(j->out, need);
        if (!o) return -1;
        j->out = o;
        j->out_cap = need;
    }
    zs->next_in = (Bytef *)(uintptr_t)j->in;
    zs->avail_in = (uInt)j->len;
    for (;;) {
        if (j->out_len == j->out_cap) {
            unsigned char *o = realloc(j->out, j->out_cap * 2);
            if (!o) return -1;
            j->out = o;
            j->out_cap *= 2;
        }
        zs->next_out = j->out + j->out_len;
        zs->avail_out = (uInt)(j->out_cap - j->out_len);
        int rc = deflate(zs, j->last ? Z_FINISH : Z_SYNC_FLUSH);
        j->out_len = j->out_cap - zs->avail_out;
        if (rc == Z_STREAM_END) return 0;
        if (rc != Z_OK && rc != Z_BUF_ERROR) return -1;
        /* A sync flush is complete when deflate leaves output space over. */
        if (!j->last && zs->avail_in == 0 && zs->avail_out != 0) return 0;
    }
}

static void *worker(void *arg)
{
    pool *pl = arg;
    z_stream zs;
    int ok = z_init(&zs) == 0;
    pthread_mutex_lock(&pl->mu);
    for (;;) {
        while (pl->taken == pl->submitted && !pl->stop)
            pthread_cond_wait(&pl->work, &pl->mu);
        if (pl->taken == pl->submitted) break; /* stopping and nothing left */
        job *j = &pl->jobs[pl->taken++ % pl->cap];
        pthread_mutex_unlock(&pl->mu);
        int err = ok ? compress_block(&zs, j) : -1;
        pthread_mutex_lock(&pl->mu);
        j->err = err;
        j->done = 1;
        pthread_cond_broadcast(&pl->done);
    }
    pthread_mutex_unlock(&pl->mu);
    if (ok) deflateEnd(&zs);
    return NULL;
}

/* Threads: qr_package_set_threads() (the render's qr_render_opts.threads),
 * else the online CPUs; at most MAX_THREADS. 1 compresses on the calling
 * thread. */
static int thread_count(const qr_package *p)
{
    long n = p->threads;
    if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > MAX_THREADS) n = MAX_THREADS;
    return (int)n;
}

static pool *pool_new(int threads)
{
    pool *pl = calloc(1, sizeof *pl);
    if (!pl) return NULL;
    pl->cap = threads > 1 ? 2 * (size_t)threads : 2;
    pl->jobs = calloc(pl->cap, sizeof *pl->jobs);
    if (!pl->jobs || pthread_mutex_init(&pl->mu, NULL) != 0) {
        free(pl->jobs);
        free(pl);
        return NULL;
    }
    if (pthread_cond_init(&pl->work, NULL) != 0) goto fail_mu;
    if (pthread_cond_init(&pl->done, NULL) != 0) goto fail_work;
    if (threads > 1) {
        for (int i = 0; i < threads; i++) {
            if (qr_thread_create_nth(&pl->th[i], worker, pl, i) != 0) break;
            pl->n_threads++;
        }
    }
    if (pl->n_threads == 0 && z_init(&pl->zs) == 0) pl->zs_ok = 1;
    if (pl->n_threads == 0 && !pl->zs_ok) goto fail_done;
    return pl;
fail_done:
    pthread_cond_destroy(&pl->done);
fail_work:
    pthread_cond_destroy(&pl->work);
fail_mu:
    pthread_mutex_destroy(&pl->mu);
    free(pl->jobs);
    free(pl);
    return NULL;
}

static void pool_free(pool *pl)
{
    if (!pl) return;
    pthread_mutex_lock(&pl->mu);
    pl->stop = 1;
    pthread_cond_broadcast(&pl->work);
    pthread_mutex_unlock(&pl->mu);
    for (int i = 0; i < pl->n_threads; i++)
        pthread_join(pl->th[i], NULL);
    if (pl->zs_ok) deflateEnd(&pl->zs);
    for (size_t i = 0; i < pl->cap; i++) {
        free(pl->jobs[i].own);
        free(pl->jobs[i].out);
    }
    pthread_cond_destroy(&pl->done);
    pthread_cond_destroy(&pl->work);
    pthread_mutex_destroy(&pl->mu);
    free(pl->jobs);
    free(pl);
}

/* Wait for the oldest job and append its output to pk (pk NULL: discard). */
static qr_status harvest(pool *pl, packed *pk)
{
    job *j = &pl->jobs[pl->harvested % pl->cap];
    pthread_mutex_lock(&pl->mu);
    while (!j->done)
        pthread_cond_wait(&pl->done, &pl->mu);
    j->done = 0;
    pl->harvested++;
    pthread_mutex_unlock(&pl->mu);
    if (!pk) return QR_OK;
    if (j->err) return qr_fail(QR_E_NOMEM);
    if (qr_buf_append(&pk->z, j->out, j->out_len) != 0) return qr_fail(QR_E_NOMEM);
    pk->crc = crc32_combine(pk->crc, j->crc, (z_off_t)j->len);
    pk->size += j->len;
    return QR_OK;
}

/* A free slot for the next block, harvesting the oldest while the ring is
 * full (only submitted jobs are waited for: cap >= 2 and at most one slot
 * is being filled). */
static qr_status acquire(pool *pl, packed *pk, job **out)
{
    while (pl->made - pl->harvested >= pl->cap) {
        qr_status st = harvest(pl, pk);
        if (st != QR_OK) return st;
    }
    job *j = &pl->jobs[pl->made++ % pl->cap];
    j->in = j->dict = NULL;
    j->len = j->dict_len = 0;
    j->last = 0;
    *out = j;
    return QR_OK;
}

static void submit(pool *pl, job *j)
{
    if (pl->n_threads == 0) {
        j->err = compress_block(&pl->zs, j);
        j->done = 1;
        pl->submitted++;
        pl->taken++;
        return;
    }
    pthread_mutex_lock(&pl->mu);
    pl->submitted++;
    pthread_cond_signal(&pl->work);
    pthread_mutex_unlock(&pl->mu);
}

/* Wait for every submitted job; keep their output when st is QR_OK. */
static qr_status drain(pool *pl, packed *pk, qr_status st)
{
    while (pl->harvested < pl->submitted) {
        qr_status s2 = harvest(pl, st == QR_OK ? pk : NULL);
        if (st == QR_OK) st = s2;
    }
    pl->made = pl->submitted; /* a slot being filled when st failed is dropped */
    return st;
}

/* Deflate ready bytes data[from..to), appended to pk: blocks cut at from +
 * k x BLOCK_SIZE point into data, each primed with the DICT_SIZE bytes
 * before it (fewer at data's start). The last block ends the stream when
 * finish is set, else it is sync-flushed like the others, so a stream over
 * data[to..) can follow (qr_package_add_split's cut). */
static qr_status pack_range(pool *pl, const unsigned char *data, size_t from, size_t to, int finish,
                            packed *pk)
{
    qr_status st = QR_OK;
    size_t off = from;
    do {
        job *j;
        if ((st = acquire(pl, pk, &j)) != QR_OK) break;
        j->in = data + off;
        j->len = to - off < BLOCK_SIZE ? to - off : BLOCK_SIZE;
        j->dict_len = off < DICT_SIZE ? off : DICT_SIZE;
        j->dict = data + off - j->dict_len;
        off += j->len;
        j->last = finish && off == to;
        submit(pl, j);
    } while (off < to);
    return drain(pl, pk, st);
}

/* Where a split part's deflate is cut (package.h: qr_package_add_split):
 * DICT_SIZE bytes into its final tail, when the part is big and the tail
 * goes on past that; 0: deflated whole, as any ready part. */
static size_t split_cut(const part *pt)
{
    if (!pt->split || pt->fill || pt->media || pt->stored || !pt->data || pt->len <= BIG_PART ||
        pt->len - pt->head <= DICT_SIZE)
        return 0;
    return pt->head + DICT_SIZE;
}

/* Append tail, a deflate stream deflated apart, to pk (whose stream ends
 * with a sync flush). */
static qr_status join_tail(packed *pk, const packed *tail)
{
    if (qr_buf_append(&pk->z, tail->z.data, tail->z.len) != 0) return qr_fail(QR_E_NOMEM);
    pk->crc = crc32_combine(pk->crc, tail->crc, (z_off_t)tail->size);
    pk->size += tail->size;
    return QR_OK;
}

/* Call a split part's settle for its final beginning. A part whose tail
 * was deflated apart (tail_apart) keeps what the cut still needs (front);
 * any other has its final bytes put together in data. */
static qr_status settle_part(part *pt, int tail_apart)
{
    char *head = NULL;
    size_t n = 0, tail = pt->len - pt->head;
    qr_status st = pt->settle(pt->settle_ctx, pt->data, pt->head, &head, &n);
    pt->settle = NULL;
    if (st == QR_OK && !head && n) st = qr_fail(QR_E_RENDER);
    size_t keep = tail_apart ? DICT_SIZE : tail; /* of the tail, after the beginning */
    char *d = st == QR_OK ? malloc(n + keep ? n + keep : 1) : NULL;
    if (st == QR_OK && !d) st = qr_fail(QR_E_NOMEM);
    if (st != QR_OK) {
        free(head);
        return st;
    }
    if (n) memcpy(d, head, n);
    memcpy(d + n, pt->data + pt->head, keep);
    free(head);
    if (tail_apart) {
        pt->front = d;
        pt->front_len = n + keep;
    } else {
        free(pt->data);
        pt->data = d;
        pt->len = n + tail;
        pt->head = n;
    }
    return QR_OK;
}

static qr_status own_block(job *j)
{
    if (!j->own && !(j->own = malloc(DICT_SIZE + BLOCK_SIZE))) return qr_fail(QR_E_NOMEM);
    j->in = j->own + DICT_SIZE;
    return QR_OK;
}

/* Deflate a streamed part while pulling its chunks: a block is sealed (not
 * last) when a byte arrives that does not fit, and the block open when
 * fill() says done is the last one. */
static qr_status pack_stream(pool *pl, part *pt, packed *pk)
{
    qr_buf chunk = {0};
    size_t pos = 0;
    int done = 0;
    job *cur;
    qr_status st = acquire(pl, pk, &cur);
    if (st == QR_OK) st = own_block(cur);
    while (st == QR_OK) {
        if (pos == chunk.len) {
            if (done) break;
            chunk.len = 0;
            pos = 0;
            st = pt->fill(pt->fill_ctx, &chunk, &done);
            if (st == QR_OK && chunk.oom) st = qr_fail(QR_E_NOMEM);
            continue;
        }
        if (cur->len == BLOCK_SIZE) {
            job *next;
            if ((st = acquire(pl, pk, &next)) != QR_OK || (st = own_block(next)) != QR_OK) break;
            /* Prime the next block with this one's last DICT_SIZE bytes. */
            next->dict_len = DICT_SIZE;
            next->dict = next->own;
            memcpy(next->own, cur->in + BLOCK_SIZE - DICT_SIZE, DICT_SIZE);
            submit(pl, cur);
            cur = next;
        }
        size_t take = chunk.len - pos;
        if (take > BLOCK_SIZE - cur->len) take = BLOCK_SIZE - cur->len;
        memcpy(cur->own + DICT_SIZE + cur->len, chunk.data + pos, take);
        cur->len += take;
        pos += take;
    }
    if (st == QR_OK) {
        cur->last = 1;
        submit(pl, cur);
    }
    qr_buf_free(&chunk);
    return drain(pl, pk, st);
}

/* ---- zip ---------------------------------------------------------------------- */

/* The pages of a big part libzip has read (it reads each entry once, in
 * order: see ZIP_SOURCE_OPEN) go back to the system as it reads on, so a
 * streamed sheet's deflated bytes and the archive's copy of them are not
 * both whole in memory (issue 22: S2's peak). Only whole pages strictly
 * after the buffer's first byte: malloc's header stays. */
static void release_read(packed *pk)
{
    const uintptr_t page = 4096, step = (uintptr_t)8 << 20;
    uintptr_t lo = ((uintptr_t)pk->z.data + page) & ~(page - 1);
    uintptr_t hi = ((uintptr_t)pk->z.data + pk->pos) & ~(page - 1);
    if (lo < pk->released) lo = pk->released;
    if (hi < lo + step) return; /* in 8 MiB steps: few system calls */
    madvise((void *)lo, hi - lo, MADV_DONTNEED);
    pk->released = hi;
}

/* libzip reads a packed part as already deflated data. */
static zip_int64_t packed_cb(void *ud, void *data, zip_uint64_t len, zip_source_cmd_t cmd)
{
    packed *pk = ud;
    switch (cmd) {
    case ZIP_SOURCE_OPEN:
        if (pk->spent || pk->released) { /* zip_close reads each entry once; never hand out less */
            zip_error_set(&pk->err, ZIP_ER_READ, 0);
            return -1;
        }
        pk->pos = 0;
        return 0;
    case ZIP_SOURCE_READ: {
        size_t n = pk->z.len - pk->pos;
        if (n > len) n = (size_t)len;
        memcpy(data, pk->z.data + pk->pos, n);
        pk->pos += n;
        release_read(pk);
        return (zip_int64_t)n;
    }
    case ZIP_SOURCE_CLOSE:
        /* The archive buffer has the data now: free our copy early, so the
         * compressed bytes are not held twice while zip_close runs. */
        if (pk->pos == pk->z.len) {
            qr_buf_free(&pk->z);
            pk->spent = 1;
        }
        return 0;
    case ZIP_SOURCE_STAT: {
        zip_stat_t *st = ZIP_SOURCE_GET_ARGS(zip_stat_t, data, len, &pk->err);
        if (!st) return -1;
        zip_stat_init(st);
        st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_CRC | ZIP_STAT_COMP_METHOD |
                    ZIP_STAT_ENCRYPTION_METHOD;
        st->size = pk->size;
        st->comp_size = pk->comp;
        st->crc = (zip_uint32_t)pk->crc;
        st->comp_method = ZIP_CM_DEFLATE;
        st->encryption_method = ZIP_EM_NONE;
        return sizeof *st;
    }
    case ZIP_SOURCE_GET_FILE_ATTRIBUTES: {
        /* What libzip's own deflate reports for the level: bits 1-2, "fast"
         * (2 << 1) at level 1, 0 at level 6. */
        zip_file_attributes_t *a = ZIP_SOURCE_GET_ARGS(zip_file_attributes_t, data, len, &pk->err);
        if (!a) return -1;
        a->valid |=
            ZIP_FILE_ATTRIBUTES_VERSION_NEEDED | ZIP_FILE_ATTRIBUTES_GENERAL_PURPOSE_BIT_FLAGS;
        a->version_needed = 20;
        a->general_purpose_bit_mask = 0x0006;
        a->general_purpose_bit_flags = (zip_uint16_t)pk->gp_flags;
        return sizeof *a;
    }
    case ZIP_SOURCE_ERROR:
        return zip_error_to_data(&pk->err, data, len);
    case ZIP_SOURCE_FREE:
        return 0;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE,
                                              ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE,
                                              ZIP_SOURCE_GET_FILE_ATTRIBUTES, -1);
    default:
        zip_error_set(&pk->err, ZIP_ER_OPNOTSUPP, 0);
        return -1;
    }
}

/* Add a packed part, dated 1980-01-01 00:00. Its compression method stays
 * libzip's default, so the source's ZIP_CM_DEFLATE is taken as is. */
static qr_status packed_add(zip_t *za, const char *name, packed *pk)
{
    zip_source_t *src = zip_source_function(za, packed_cb, pk);
    if (!src) return qr_fail(QR_E_NOMEM);
    zip_int64_t idx = zip_file_add(za, name, src, ZIP_FL_ENC_UTF_8);
    if (idx < 0) {
        zip_source_free(src);
        return qr_fail(QR_E_RENDER);
    }
    if (zip_file_set_dostime(za, (zip_uint64_t)idx, 0, 0x21, 0) != 0) return qr_fail(QR_E_RENDER);
    return QR_OK;
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

/* ---- small parts -------------------------------------------------------------- */

/* Every part up to BIG_PART (and the generated ones: content types, rels,
 * properties) is deflated here whole, before zip_close, at level 6 with
 * libzip's parameters (raw, memLevel 9, default strategy), on every core:
 * one deflate over the whole part gives the bytes libzip's own deflate
 * would (checked on every part of the fixtures and the bench workloads), so
 * the archive stays the same byte for byte, but a deck's 600 slide parts no
 * longer take one core and a fresh deflate state each (each thread resets
 * one stream). A part deflate does not shrink is left to libzip, as before
 * (it may store it). */
#define SMALL_LEVEL 6
#define SMALL_PARALLEL ((size_t)64 << 10) /* fewer bytes: the calling thread alone */

typedef struct small {
    const unsigned char *data;
    size_t len;
    packed pk; /* pk.used: deflated here and smaller than the part */
} small;

typedef struct small_set {
    small *v;
    size_t n;
    size_t next; /* the next slot to take, under mu */
    pthread_mutex_t mu;
} small_set;

static int deflate_whole(z_stream *zs, small *sm)
{
    if (deflateReset(zs) != Z_OK) return -1;
    size_t cap = deflateBound(zs, (uLong)sm->len) + 16;
    char *out = qr_buf_reserve(&sm->pk.z, cap);
    if (!out) return -1;
    zs->next_in = (Bytef *)(uintptr_t)sm->data;
    zs->avail_in = (uInt)sm->len;
    zs->next_out = (Bytef *)out;
    zs->avail_out = (uInt)cap;
    if (deflate(zs, Z_FINISH) != Z_STREAM_END) return -1; /* cap >= deflateBound */
    sm->pk.z.len = cap - zs->avail_out;
    sm->pk.size = sm->len;
    sm->pk.comp = sm->pk.z.len;
    sm->pk.crc = crc32_z(0, sm->data, sm->len);
    return 0;
}

static void *small_worker(void *arg)
{
    small_set *ss = arg;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    int ok = deflateInit2(&zs, SMALL_LEVEL, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK;
    for (;;) {
        pthread_mutex_lock(&ss->mu);
        size_t i = ss->next++;
        pthread_mutex_unlock(&ss->mu);
        if (i >= ss->n) break;
        small *sm = &ss->v[i];
        if (!sm->data || !sm->len) continue;
        sm->pk.used = ok && deflate_whole(&zs, sm) == 0 && sm->pk.comp < sm->len;
        if (!sm->pk.used) qr_buf_free(&sm->pk.z);
    }
    if (ok) deflateEnd(&zs);
    return NULL;
}

/* Deflate v[0..n) on up to threads threads (the caller is one of them). */
static void deflate_smalls(small *v, size_t n, int threads)
{
    small_set ss = {v, n, 0, PTHREAD_MUTEX_INITIALIZER};
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        zip_error_init(&v[i].pk.err);
        total += v[i].len;
    }
    if (total < SMALL_PARALLEL) threads = 1;
    pthread_t th[MAX_THREADS];
    int started = 0;
    for (int i = 1; i < threads; i++)
        if (qr_thread_create(&th[started], small_worker, &ss) == 0) started++;
    small_worker(&ss);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    pthread_mutex_destroy(&ss.mu);
}

/* Add a small part: deflated above, or by libzip at SMALL_LEVEL. */
static qr_status small_add(zip_t *za, const char *name, small *sm)
{
    if (sm->pk.used) return packed_add(za, name, &sm->pk);
    return part_add(za, name, sm->data, sm->len, SMALL_LEVEL);
}

static void smalls_free(small *v, size_t n)
{
    for (size_t i = 0; v && i < n; i++) {
        qr_buf_free(&v[i].pk.z);
        zip_error_fini(&v[i].pk.err);
    }
    free(v);
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
    return src_find(p, source) != NULL;
}

qr_status qr_package_write(qr_package *p, long long epoch, qr_sink *out)
{
    if (p->status != QR_OK) return p->status;
    qr_status st = QR_OK;
    /* The generated parts, kept alive until zip_close() has read them. */
    size_t n_gen = 4 + p->n_parts;
    qr_buf *gen = calloc(n_gen, sizeof *gen);
    packed *packs = calloc(p->n_parts ? p->n_parts : 1, sizeof *packs);
    small *smalls = NULL;
    size_t n_small = 0;
    pool *pl = NULL;
    packed *tails = NULL; /* per part: its tail, deflated before it settled */
    /* While a part waits to settle, what it waits for runs on a core of
     * its own: the work done before (the small parts, the waiting parts'
     * tails) takes one thread fewer. The bytes do not depend on it. */
    int threads = thread_count(p), early = threads, waiting = 0;
    for (size_t i = 0; i < p->n_parts; i++)
        if (p->parts[i].settle) waiting = 1;
    if (waiting && early > 1) early--;
    zip_error_t zerr;
    zip_error_init(&zerr);
    zip_source_t *dst = NULL;
    zip_t *za = NULL;
    if (!gen || !packs || (waiting && !(tails = calloc(p->n_parts, sizeof *tails)))) {
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

    /* The generated parts, then every small part deflated at once: slots
     * 0-3 the generated ones, 4 + 2i part i, 5 + 2i part i's rels. */
    if ((st = write_content_types(p, &gen[0])) || (st = write_rels(p, "", &gen[1])) ||
        (st = write_core(p, epoch, &gen[2])) || (st = write_app(p, &gen[3])))
        goto done;
    n_small = 4 + 2 * p->n_parts;
    if (!(smalls = calloc(n_small, sizeof *smalls))) {
        st = qr_fail(QR_E_NOMEM);
        goto done;
    }
    for (size_t i = 0; i < 4; i++) {
        smalls[i].data = (const unsigned char *)gen[i].data;
        smalls[i].len = gen[i].len;
    }
    for (size_t i = 0; i < p->n_parts; i++) {
        part *pt = &p->parts[i];
        if (!pt->fill && !pt->media && !pt->stored && !pt->settle &&
            !(pt->data && pt->len > BIG_PART)) {
            smalls[4 + 2 * i].data = (const unsigned char *)pt->data;
            smalls[4 + 2 * i].len = pt->len;
        }
        if (has_rels(p, pt->name)) {
            if ((st = write_rels(p, pt->name, &gen[4 + i]))) goto done;
            smalls[5 + 2 * i].data = (const unsigned char *)gen[4 + i].data;
            smalls[5 + 2 * i].len = gen[4 + i].len;
        }
    }
    deflate_smalls(smalls, n_small, early);
    if (waiting) {
        /* Deflate the tails the waiting parts already know, then wait for
         * each part's beginning (settle), then deflate a settled part that
         * turned out small. */
        pool *ep = NULL;
        for (size_t i = 0; i < p->n_parts && st == QR_OK; i++) {
            part *pt = &p->parts[i];
            size_t cut = pt->settle ? split_cut(pt) : 0;
            if (!cut) continue;
            if (!ep && !(ep = pool_new(early))) {
                st = qr_fail(QR_E_NOMEM);
                break;
            }
            tails[i].used = 1;
            st = pack_range(ep, (const unsigned char *)pt->data, cut, pt->len, 1, &tails[i]);
        }
        pool_free(ep);
        for (size_t i = 0; i < p->n_parts && st == QR_OK; i++) {
            part *pt = &p->parts[i];
            if (!pt->settle) continue;
            if ((st = settle_part(pt, tails[i].used)) != QR_OK) break;
            if (!pt->stored && pt->len <= BIG_PART) {
                smalls[4 + 2 * i].data = (const unsigned char *)pt->data;
                smalls[4 + 2 * i].len = pt->len;
                deflate_smalls(&smalls[4 + 2 * i], 1, threads);
            }
        }
        if (st != QR_OK) goto done;
    }
    if ((st = small_add(za, "[Content_Types].xml", &smalls[0])) ||
        (st = small_add(za, "_rels/.rels", &smalls[1])) ||
        (st = small_add(za, "docProps/core.xml", &smalls[2])) ||
        (st = small_add(za, "docProps/app.xml", &smalls[3])))
        goto done;

    for (size_t i = 0; i < p->n_parts; i++) {
        part *pt = &p->parts[i];
        if (pt->fill || (pt->data && !pt->stored && pt->len > BIG_PART)) {
            packed *pk = &packs[i];
            pk->used = 1;
            pk->gp_flags = 2 << 1;
            zip_error_init(&pk->err);
            pk->crc = crc32(0, NULL, 0);
            if (!pl && !(pl = pool_new(threads))) {
                st = qr_fail(QR_E_NOMEM);
                goto done;
            }
            const unsigned char *data = (const unsigned char *)pt->data;
            size_t cut = split_cut(pt);
            if (pt->fill)
                st = pack_stream(pl, pt, pk);
            else if (pt->front) {
                if ((st = pack_range(pl, (const unsigned char *)pt->front, 0, pt->front_len, 0,
                                     pk)) == QR_OK)
                    st = join_tail(pk, &tails[i]);
            } else if (!cut)
                st = pack_range(pl, data, 0, pt->len, 1, pk);
            else if ((st = pack_range(pl, data, 0, cut, 0, pk)) == QR_OK)
                st = pack_range(pl, data, cut, pt->len, 1, pk);
            pk->comp = pk->z.len;
            if (st || (st = packed_add(za, pt->name, pk))) goto done;
        } else if (pt->media || pt->stored) {
            const void *d = pt->media ? (const void *)pt->media : (const void *)pt->data;
            if ((st = part_add(za, pt->name, d, pt->len, 0))) goto done;
        } else {
            if ((st = small_add(za, pt->name, &smalls[4 + 2 * i]))) goto done;
        }
        if (has_rels(p, pt->name)) {
            char name[1100];
            rels_name(pt->name, name, sizeof name);
            if ((st = small_add(za, name, &smalls[5 + 2 * i]))) goto done;
        }
    }
    pool_free(pl); /* every part is deflated: the workers can go */
    pl = NULL;
    if (zip_close(za) != 0) {
        st = qr_fail(QR_E_RENDER); /* libzip keeps it open on failure; discard below */
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
        for (size_t i = 0; i < n_gen; i++)
            qr_buf_free(&gen[i]);
    pool_free(pl);
    if (packs) {
        for (size_t i = 0; i < p->n_parts; i++) {
            qr_buf_free(&packs[i].z);
            if (packs[i].used) zip_error_fini(&packs[i].err);
        }
    }
    if (tails)
        for (size_t i = 0; i < p->n_parts; i++)
            qr_buf_free(&tails[i].z);
    free(tails);
    smalls_free(smalls, n_small); /* after zip_close/zip_discard: libzip read them */
    free(gen);
    free(packs);
    return st;
}
