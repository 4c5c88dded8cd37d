/* read.c: qr_read_mem() and qr_read_file(). Tells the format by content
 * (a zip with word/, xl/ or ppt/ parts, %PDF, or an OLE compound file,
 * which is how encrypted Office files and legacy .doc/.xls/.ppt come),
 * runs the reader, validates what it read by compiling it, and writes the
 * requested form: canonical spec JSON, structured JSON, markdown or text,
 * whole or in chunks. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compile.h"
#include <quire/quire.h>
#include "read_int.h"

#define DEFAULT_MAX_UNZIPPED ((size_t)1 << 30)
#define DEFAULT_MAX_RATIO 500.0
#define DEFAULT_MAX_OUTPUT ((size_t)64 << 20)

typedef enum fmt { F_DOCX, F_XLSX, F_PPTX, F_PDF } fmt;

/* Whether the n bytes at d hold the k bytes of s. */
static int has(const unsigned char *d, size_t n, const char *s, size_t k)
{
    for (const unsigned char *p = d; n >= k && (p = memchr(p, s[0], n - k + 1 - (size_t)(p - d)));
         p++)
        if (memcmp(p, s, k) == 0) return 1;
    return 0;
}

static qr_status detect(qr_rd *r, const unsigned char *d, size_t len, fmt *f)
{
    static const unsigned char ole[8] = {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1};
    if (len >= 8 && memcmp(d, ole, 8) == 0)
        return qr_rd_fail(r, QR_E_SPEC, "", "save it unprotected as .docx, .xlsx or .pptx",
                          "this is an encrypted (password-protected) Office file or a legacy "
                          ".doc/.xls/.ppt (an OLE compound file): quire cannot read it");
    for (size_t i = 0; i + 5 <= len && i < 1024; i++) {
        if (memcmp(d + i, "%PDF-", 5) == 0) {
            *f = F_PDF;
            return QR_OK;
        }
    }
    /* poppler reads a PDF whatever comes before its header (a mail or HTTP
     * header left in front, a BOM): so does quire, when %PDF- is in the first
     * MiB or the file ends as a PDF ends (startxref ... %%EOF). */
    if (len < 4 || d[0] != 'P' || d[1] != 'K') {
        size_t head = len < ((size_t)1 << 20) ? len : (size_t)1 << 20;
        size_t tail = len < 1024 ? len : 1024;
        if (has(d, head, "%PDF-", 5) ||
            (has(d + len - tail, tail, "%%EOF", 5) && has(d + len - tail, tail, "startxref", 9))) {
            *f = F_PDF;
            return QR_OK;
        }
        return qr_rd_fail(r, QR_E_SPEC, "", "quire reads .docx, .xlsx, .pptx and .pdf",
                          "not a .docx, .xlsx, .pptx or .pdf file");
    }
    qr_status st = qr_rd_zip_open(r, d, len);
    if (st != QR_OK) return st;
    qr_rd_rels root;
    st = qr_rd_rels_read(r, "", &root);
    if (st != QR_OK) return st;
    const qr_rd_rel *main = qr_rd_rels_type(&root, "/officeDocument");
    const char *t = main ? main->target : "";
    if (strncmp(t, "word/", 5) == 0 || (!main && qr_rd_zip_has(r, "word/document.xml")))
        *f = F_DOCX;
    else if (strncmp(t, "xl/", 3) == 0 || (!main && qr_rd_zip_has(r, "xl/workbook.xml")))
        *f = F_XLSX;
    else if (strncmp(t, "ppt/", 4) == 0 || (!main && qr_rd_zip_has(r, "ppt/presentation.xml")))
        *f = F_PPTX;
    else
        st = qr_rd_fail(r, QR_E_SPEC, "",
                        qr_rd_zip_has(r, "META-INF/manifest.xml")
                            ? "save OpenDocument files as .docx, .xlsx or .pptx first"
                            : "quire reads .docx, .xlsx, .pptx and .pdf",
                        "a zip file, but not a Word, Excel or PowerPoint package");
    qr_rd_rels_free(&root);
    return st;
}

static qr_status over_output(qr_rd *r)
{
    return qr_rd_fail(r, QR_E_LIMIT, "", "raise it with --max-output BYTES (0 disables it)",
                      "what was read passes %zu bytes (the limit max_output)", r->max_output);
}

/* Copy r's errors into the result's list. */
static qr_status finish(qr_rd *r, qr_status st)
{
    qr_rd_zip_close(r);
    qr_buf_free(&r->spec);
    return st;
}

QR_EXPORT qr_status qr_read_mem(const void *data, size_t len, const qr_read_opts *opts,
                                qr_kind *kind, qr_result *res)
{
    memset(res, 0, sizeof *res);
    qr_read_opts o = {0};
    if (opts) o = *opts;
    qr_rd r;
    memset(&r, 0, sizeof r);
    r.errs = &res->errors;
    r.warns = &res->warnings;
    r.max_unzipped = o.max_unzipped ? o.max_unzipped : DEFAULT_MAX_UNZIPPED;
    if (o.max_unzipped == (size_t)-1) r.max_unzipped = 0;
    r.max_output = o.max_output ? o.max_output : DEFAULT_MAX_OUTPUT;
    if (o.max_output == (size_t)-1) r.max_output = 0;
    r.max_seconds = o.max_seconds ? o.max_seconds : 20;
    r.max_ratio = o.max_ratio > 0 ? o.max_ratio : o.max_ratio < 0 ? 0 : DEFAULT_MAX_RATIO;
    qr_limits lim;
    qr_limits_default(&lim);
    size_t max_input = o.max_input ? o.max_input : lim.max_input;
    if (max_input && len > max_input) {
        qr_rd_fail(&r, QR_E_LIMIT, "", "raise it with --max-input BYTES",
                   "the file is %zu bytes; the limit max_input is %zu bytes", len, max_input);
        return res->status = finish(&r, QR_E_LIMIT);
    }
    if (!data && len) return res->status = qr_errlist_add(r.errs, QR_E_USAGE, "", "no data", NULL);
    fmt f = F_DOCX;
    qr_status st = detect(&r, data ? data : "", len, &f);
    if (st == QR_OK) {
        switch (f) {
        case F_DOCX:
            st = qr_rd_docx(&r);
            break;
        case F_XLSX:
            st = qr_rd_xlsx(&r);
            break;
        case F_PPTX:
            st = qr_rd_pptx(&r);
            break;
        case F_PDF:
            st = qr_rd_pdf(&r, data, len);
            break;
        }
    }
    if (st == QR_OK && r.spec.oom) st = qr_rd_fail(&r, QR_E_NOMEM, "", NULL, "out of memory");
    if (st == QR_OK && r.max_output && r.spec.len > r.max_output) st = over_output(&r);
    if (st != QR_OK) return res->status = finish(&r, st);
    if (kind) *kind = r.kind;
    /* What was read must be a spec quire accepts: compile it. */
    qr_compile_opts co;
    qr_compile_opts_default(&co);
    co.limits.max_input = 0;
    qr_doc *doc = NULL;
    qr_errlist cerrs = {0};
    st = qr_compile(r.spec.data, r.spec.len, r.kind, &co, &doc, &cerrs);
    if (st != QR_OK) {
        /* A limit stays a limit; anything else is a file quire reads wrongly. */
        for (size_t i = 0; i < cerrs.count; i++) {
            qr_error *e = &cerrs.items[i];
            qr_errlist_addf(r.errs, st, e->path,
                            st == QR_E_LIMIT ? e->hint : "the file holds what a spec cannot say",
                            "read, but not a valid spec: %s", e->message);
        }
        qr_errlist_clear(&cerrs);
        return res->status = finish(&r, st);
    }
    res->pages = (int)(doc->n_slides ? doc->n_slides : doc->n_sheets);
    qr_buf out = {0};
    if (o.to == QR_READ_SPEC && !o.chunks) {
        st = qr_canonical(r.spec.data, r.spec.len, &out, r.errs);
    } else {
        qr_rd_to to = o.to == QR_READ_MARKDOWN ? QR_RD_MARKDOWN
                      : o.to == QR_READ_TEXT   ? QR_RD_TEXT
                      : o.to == QR_READ_JSON   ? QR_RD_JSON
                                               : QR_RD_MARKDOWN;
        st = qr_rd_write(doc, to, o.chunks, r.max_output, &out);
        if (st == QR_E_LIMIT) st = over_output(&r);
    }
    qr_doc_free(doc);
    if (st == QR_OK && r.max_output && out.len > r.max_output) st = over_output(&r);
    if (st == QR_OK) {
        res->data = (unsigned char *)qr_buf_steal(&out, &res->size);
        if (!res->data) res->data = (unsigned char *)calloc(1, 1);
    }
    qr_buf_free(&out);
    return res->status = finish(&r, st);
}

QR_EXPORT qr_status qr_read_file(const char *path, const qr_read_opts *opts, qr_kind *kind,
                                 qr_result *res)
{
    memset(res, 0, sizeof *res);
    qr_limits lim;
    qr_limits_default(&lim);
    size_t max = opts && opts->max_input ? opts->max_input : lim.max_input;
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        qr_errlist_addf(&res->errors, QR_E_IO, "", NULL, "cannot open %s: %s", path,
                        strerror(errno));
        return res->status = QR_E_IO;
    }
    struct stat sb;
    if (fstat(fileno(fp), &sb) == 0 && S_ISREG(sb.st_mode) && max && (size_t)sb.st_size > max) {
        fclose(fp);
        qr_errlist_addf(&res->errors, QR_E_LIMIT, "", "raise it with --max-input BYTES",
                        "the file is %lld bytes; the limit max_input is %zu bytes",
                        (long long)sb.st_size, max);
        return res->status = QR_E_LIMIT;
    }
    qr_buf b = {0};
    for (;;) {
        char *p = qr_buf_reserve(&b, 1 << 20);
        if (!p) break;
        size_t n = fread(p, 1, 1 << 20, fp);
        b.len += n;
        if (n == 0) break;
        if (max && b.len > max) break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err || b.oom) {
        qr_buf_free(&b);
        qr_errlist_addf(&res->errors, err ? QR_E_IO : QR_E_NOMEM, "", NULL, "cannot read %s", path);
        return res->status = err ? QR_E_IO : QR_E_NOMEM;
    }
    qr_status st = qr_read_mem(b.data, b.len, opts, kind, res);
    qr_buf_free(&b);
    return st;
}
