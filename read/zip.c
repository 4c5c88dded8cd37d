/* zip.c: the package of a .docx, .xlsx or .pptx, read out of memory with
 * libzip, with the caps counted on the bytes that actually come out of each
 * entry (a zip bomb's headers may lie): the total uncompressed bytes of the
 * package (max_unzipped) and the ratio of one entry's bytes to its
 * compressed size (max_ratio, checked past 1 MiB). Encrypted entries and
 * damaged archives are input errors, never a crash. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zip.h>

#include "read_int.h"

struct qr_rd_zip {
    zip_t *za;
    zip_source_t *src;
};

qr_status qr_rd_fail(qr_rd *r, qr_status st, const char *where, const char *hint, const char *fmt,
                     ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One failure is enough: the first is the cause. */
    if (r->errs->count == 0) qr_errlist_add(r->errs, st, where ? where : "", msg, hint);
    return qr_fail(st);
}

qr_status qr_rd_zip_open(qr_rd *r, const void *data, size_t len)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(data, len, 0, &ze);
    if (!src) {
        zip_error_fini(&ze);
        return qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory opening the package");
    }
    zip_t *za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    if (!za) {
        /* ZIP_CHECKCONS refuses some archives other tools accept: retry without. */
        zip_error_fini(&ze);
        zip_error_init(&ze);
        za = zip_open_from_source(src, ZIP_RDONLY, &ze);
    }
    if (!za) {
        char why[256];
        snprintf(why, sizeof why, "%s", zip_error_strerror(&ze));
        zip_error_fini(&ze);
        zip_source_free(src);
        return qr_rd_fail(r, QR_E_SPEC, "", "the file is truncated or not an Office file",
                          "cannot open the package: %s", why);
    }
    zip_error_fini(&ze);
    qr_rd_zip *z = calloc(1, sizeof *z);
    if (!z) {
        zip_discard(za);
        return qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory");
    }
    z->za = za;
    z->src = src;
    r->zip = z;
    return QR_OK;
}

void qr_rd_zip_close(qr_rd *r)
{
    if (!r->zip) return;
    zip_discard(r->zip->za); /* frees the source too */
    free(r->zip);
    r->zip = NULL;
}

/* A part name without a leading '/'. */
static const char *bare(const char *name)
{
    while (*name == '/')
        name++;
    return name;
}

/* The index of a part: its exact name first (libzip hashes names), then
 * any case (a linear scan: other tools' packages differ in case). */
static zip_int64_t locate(qr_rd *r, const char *name)
{
    zip_int64_t i = zip_name_locate(r->zip->za, name, 0);
    return i >= 0 ? i : zip_name_locate(r->zip->za, name, ZIP_FL_NOCASE);
}

int qr_rd_zip_has(qr_rd *r, const char *name)
{
    return r->zip && locate(r, bare(name)) >= 0;
}

/* ---- one entry, counted as it comes out --------------------------------------- */

typedef struct qr_rd_entry {
    zip_file_t *zf;
    zip_uint64_t comp; /* compressed size */
    size_t out;        /* bytes out of this entry */
    char name[512];
    /* the attribute count, for XML parts: libxml2 checks an element's
     * attributes for duplicates in quadratic time, so an element with
     * 200,000 of them costs half a minute; they are counted here, before
     * libxml2 sees the bytes */
    int xml, tag; /* an XML part; in a start tag (1) or in <! ... > (2) */
    char quote;   /* the quote of the attribute value being read */
    long attrs;   /* '=' seen in the open start tag */
} qr_rd_entry;

/* Attributes in one element, at most: Office's elements have tens (a root's
 * namespace declarations included). */
#define MAX_ATTRS 1024

/* Count the attributes of the start tags in buf; -1 past MAX_ATTRS. */
static int count_attrs(qr_rd_entry *e, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (e->quote) {
            if (c == e->quote) e->quote = 0;
        } else if (!e->tag) {
            if (c == '<') e->tag = 3, e->attrs = 0;
        } else if (e->tag == 3) {
            e->tag = c == '!' ? 2 : 1; /* <!-- a comment -->, CDATA: not an element */
            if (c == '>') e->tag = 0;
        } else if (c == '>') {
            e->tag = 0;
        } else if (e->tag == 2) {
            continue;
        } else if (c == '"' || c == '\'') {
            e->quote = c;
        } else if (c == '=' && ++e->attrs > MAX_ATTRS) {
            return -1;
        }
    }
    return 0;
}

static qr_status entry_open(qr_rd *r, const char *name, qr_rd_entry *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", bare(name));
    size_t nl = strlen(e->name);
    e->xml = (nl > 4 && strcasecmp(e->name + nl - 4, ".xml") == 0) ||
             (nl > 5 && strcasecmp(e->name + nl - 5, ".rels") == 0);
    if (!r->zip) return qr_rd_fail(r, QR_E_SPEC, e->name, NULL, "no package");
    zip_int64_t i = locate(r, e->name);
    if (i < 0)
        return qr_rd_fail(r, QR_E_SPEC, e->name, "the package is damaged or not an Office file",
                          "the package has no part %s", e->name);
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(r->zip->za, (zip_uint64_t)i, 0, &st) == 0) {
        if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
            return qr_rd_fail(r, QR_E_SPEC, e->name, "save an unprotected copy and read that",
                              "the part %s is encrypted", e->name);
        if (st.valid & ZIP_STAT_COMP_SIZE) e->comp = st.comp_size;
        /* What the headers claim is checked first: an honest bomb stops here. */
        if ((st.valid & ZIP_STAT_SIZE) && r->max_unzipped &&
            st.size >
                r->max_unzipped - (r->unzipped < r->max_unzipped ? r->unzipped : r->max_unzipped))
            return qr_rd_fail(r, QR_E_LIMIT, e->name,
                              "raise it with --max-unzipped BYTES (0 disables it)",
                              "the part %s would take the package past %zu uncompressed bytes "
                              "(the limit max_unzipped)",
                              e->name, r->max_unzipped);
        if ((st.valid & ZIP_STAT_SIZE) && r->max_ratio > 0 && st.size > (1u << 20) &&
            (double)st.size > r->max_ratio * (double)(e->comp ? e->comp : 1))
            return qr_rd_fail(r, QR_E_LIMIT, e->name, "raise it with --max-ratio N (0 disables it)",
                              "the part %s expands more than %.0f times (the limit max_ratio): "
                              "a zip bomb?",
                              e->name, r->max_ratio);
    }
    e->zf = zip_fopen_index(r->zip->za, (zip_uint64_t)i, 0);
    if (!e->zf) {
        zip_error_t *ze = zip_get_error(r->zip->za);
        return qr_rd_fail(r, QR_E_SPEC, e->name, "the file is damaged or protected",
                          "cannot open the part %s: %s", e->name, zip_error_strerror(ze));
    }
    return QR_OK;
}

/* Read up to size bytes: the count, 0 at the end, or -1 (error recorded). */
static long long entry_read(qr_rd *r, qr_rd_entry *e, char *buf, size_t size)
{
    zip_int64_t n = zip_fread(e->zf, buf, size);
    if (n < 0) {
        qr_rd_fail(r, QR_E_SPEC, e->name, "the file is truncated or damaged",
                   "cannot read the part %s: %s", e->name,
                   zip_error_strerror(zip_file_get_error(e->zf)));
        return -1;
    }
    e->out += (size_t)n;
    r->unzipped += (size_t)n;
    if (e->xml && count_attrs(e, buf, (size_t)n) != 0) {
        qr_rd_fail(r, QR_E_LIMIT, e->name,
                   "Office files never have that many; the file may be hostile",
                   "an element of the part %s has more than %d attributes (the reader's limit)",
                   e->name, MAX_ATTRS);
        return -1;
    }
    if (r->max_unzipped && r->unzipped > r->max_unzipped) {
        qr_rd_fail(r, QR_E_LIMIT, e->name, "raise it with --max-unzipped BYTES (0 disables it)",
                   "the package holds more than %zu uncompressed bytes (the limit max_unzipped)",
                   r->max_unzipped);
        return -1;
    }
    if (r->max_ratio > 0 && e->out > (1u << 20) &&
        (double)e->out > r->max_ratio * (double)(e->comp ? e->comp : 1)) {
        qr_rd_fail(r, QR_E_LIMIT, e->name, "raise it with --max-ratio N (0 disables it)",
                   "the part %s expands more than %.0f times (the limit max_ratio): a zip bomb?",
                   e->name, r->max_ratio);
        return -1;
    }
    return n;
}

static void entry_close(qr_rd_entry *e)
{
    if (e->zf) zip_fclose(e->zf);
    e->zf = NULL;
}

qr_status qr_rd_zip_read(qr_rd *r, const char *name, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    qr_rd_entry e;
    qr_status st = entry_open(r, name, &e);
    if (st != QR_OK) return st;
    qr_buf b = {0};
    for (;;) {
        char *p = qr_buf_reserve(&b, 65536);
        if (!p) {
            st = qr_rd_fail(r, QR_E_NOMEM, e.name, NULL, "out of memory");
            break;
        }
        long long n = entry_read(r, &e, p, 65536);
        if (n < 0) {
            st = r->errs->count ? r->errs->items[0].code : QR_E_SPEC;
            break;
        }
        if (n == 0) break;
        b.len += (size_t)n;
        b.data[b.len] = '\0';
    }
    entry_close(&e);
    if (st != QR_OK) {
        qr_buf_free(&b);
        return st;
    }
    if (!b.data && qr_buf_puts(&b, "") != 0)
        return qr_rd_fail(r, QR_E_NOMEM, "", NULL, "out of memory");
    *data = qr_buf_steal(&b, len);
    return QR_OK;
}

/* ---- streaming for the XML reader ------------------------------------------ */

typedef struct qr_rd_io {
    qr_rd *r;
    qr_rd_entry e;
    int failed;
} qr_rd_io;

static int io_read(void *ctx, char *buf, int len)
{
    qr_rd_io *io = ctx;
    if (io->failed) return -1;
    long long n = entry_read(io->r, &io->e, buf, (size_t)len);
    if (n < 0) io->failed = 1;
    return (int)n;
}

static int io_close(void *ctx)
{
    qr_rd_io *io = ctx;
    entry_close(&io->e);
    free(io);
    return 0;
}

int qr_rd_xml_io(qr_rd *r, const char *part, xmlInputReadCallback *rd, xmlInputCloseCallback *cl,
                 void **ctx)
{
    qr_rd_io *io = calloc(1, sizeof *io);
    if (!io) {
        qr_rd_fail(r, QR_E_NOMEM, part, NULL, "out of memory");
        return -1;
    }
    io->r = r;
    if (entry_open(r, part, &io->e) != QR_OK) {
        free(io);
        return -1;
    }
    *rd = io_read;
    *cl = io_close;
    *ctx = io;
    return 0;
}
