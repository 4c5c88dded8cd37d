/* images.c: decode the PNG images of a measured document, within a budget.
 *
 * Runs once per document after measuring (layout.c has sized every image
 * box from its header) and before paginating, on the main context. Each
 * distinct image (same bytes, same box) is decoded once and downsampled to
 * the resolution it is drawn at (IMAGE_DPI), so what a document keeps is
 * bounded by its pages, not by its files. Two budgets hold for a document:
 * the pixels decoded (DECODE_BUDGET: decoding is most of the time an image
 * costs) and the pixels kept until the end of the render (KEEP_BUDGET:
 * when the boxes at IMAGE_DPI need more, every image is drawn at a lower
 * resolution). An image past the decode budget is drawn as its placeholder.
 * Every downsampled or skipped image gets a warning that says so. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pdf_int.h"
#include "sha256.h"

#define IMAGE_DPI QR_PDF_IMAGE_DPI
#define DECODE_BUDGET QR_PDF_DECODE_BUDGET /* pixels decoded per document */
#define KEEP_BUDGET 100e6 /* pixels kept per document: 400 MB of ARGB (the warning says 100) */

/* One image block to decode, and the first block with the same bytes and box. */
typedef struct want {
    pd_block *b;
    unsigned char sha[32];
    int w, h;   /* the pixels it is drawn with */
    size_t dup; /* index of the first want with the same key, or itself */
    int skip;   /* past the decode budget */
} want;

typedef struct png_reader {
    const unsigned char *p;
    size_t left;
} png_reader;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int len)
{
    png_reader *r = closure;
    if (len > r->left) return CAIRO_STATUS_READ_ERROR;
    memcpy(data, r->p, len);
    r->p += len;
    r->left -= len;
    return CAIRO_STATUS_SUCCESS;
}

/* Both cairo formats used here (RGB24, premultiplied ARGB32) are four
 * 8-bit channels in a uint32_t. */
cairo_surface_t *qr_pdf_downsample(cairo_surface_t *s, int w, int h)
{
    int sw = cairo_image_surface_get_width(s), sh = cairo_image_surface_get_height(s);
    int ss = cairo_image_surface_get_stride(s);
    cairo_surface_flush(s);
    const unsigned char *src = cairo_image_surface_get_data(s);
    cairo_surface_t *d = cairo_image_surface_create(cairo_image_surface_get_format(s), w, h);
    uint64_t *acc = calloc((size_t)w * 4, sizeof *acc);
    int *x0 = malloc(((size_t)w + 1) * sizeof *x0);
    if (cairo_surface_status(d) != CAIRO_STATUS_SUCCESS || !acc || !x0 || !src) {
        cairo_surface_destroy(d);
        free(acc);
        free(x0);
        return NULL;
    }
    int narrow = 1; /* every box at most 257 pixels wide: 257 x 255 fits 16 bits */
    for (int x = 0; x <= w; x++) {
        x0[x] = (int)((int64_t)x * sw / w);
        if (x && x0[x] - x0[x - 1] > 257) narrow = 0;
    }
    unsigned char *dst = cairo_image_surface_get_data(d);
    int ds = cairo_image_surface_get_stride(d);
    for (int y = 0; y < h; y++) {
        int y0 = (int)((int64_t)y * sh / h), y1 = (int)((int64_t)(y + 1) * sh / h);
        memset(acc, 0, (size_t)w * 4 * sizeof *acc);
        for (int sy = y0; sy < y1; sy++) {
            const uint32_t *row = (const uint32_t *)(const void *)(src + (size_t)sy * (size_t)ss);
            for (int x = 0; x < w; x++) {
                uint64_t *a = acc + 4 * x;
                if (narrow) { /* channels 0 and 2, 1 and 3 added in 16-bit lanes */
                    uint32_t even = 0, odd = 0;
                    for (int sx = x0[x]; sx < x0[x + 1]; sx++) {
                        even += row[sx] & 0x00FF00FFu;
                        odd += row[sx] >> 8 & 0x00FF00FFu;
                    }
                    a[0] += even & 0xFFFF;
                    a[1] += odd & 0xFFFF;
                    a[2] += even >> 16;
                    a[3] += odd >> 16;
                    continue;
                }
                for (int sx = x0[x]; sx < x0[x + 1]; sx++) {
                    uint32_t p = row[sx];
                    a[0] += p & 0xFF;
                    a[1] += p >> 8 & 0xFF;
                    a[2] += p >> 16 & 0xFF;
                    a[3] += p >> 24;
                }
            }
        }
        uint32_t *out = (uint32_t *)(void *)(dst + (size_t)y * (size_t)ds);
        for (int x = 0; x < w; x++) {
            uint64_t n = (uint64_t)(y1 - y0) * (uint64_t)(x0[x + 1] - x0[x]), *a = acc + 4 * x;
            uint32_t p = 0;
            for (int ch = 3; ch >= 0; ch--)
                p = p << 8 | (uint32_t)((a[ch] + n / 2) / n);
            out[x] = p;
        }
    }
    free(acc);
    free(x0);
    cairo_surface_mark_dirty(d);
    return d;
}

/* The placeholder of b: a box with its alt text. */
static qr_status placeholder(pd_ctx *c, pd_block *b)
{
    pd_style st = {.size = 9, .align = PD_ALIGN_CENTER};
    const qr_image *im = b->png;
    const char *label = im->alt.n ? qr_plain(&im->alt) : "image";
    double lw = b->img_w - 8 > 8 ? b->img_w - 8 : 8;
    b->surface = NULL;
    b->alt = qr_pdf_text(c, NULL, label, strlen(label), &st, lw, b->path);
    return c->status;
}

/* Decode wants[i] (a first of its key) into its block's surface. */
static qr_status decode_one(pd_ctx *c, want *wt, double *decoded, double keep_dpi)
{
    pd_block *b = wt->b;
    const qr_image *im = b->png;
    double px = (double)im->width_px * im->height_px;
    if (wt->skip) {
        qr_errlist_addf(
            c->rc->warnings, QR_OK, b->path,
            "use fewer or smaller images, scaled down before embedding",
            "the PNG image (%u x %u pixels) was skipped: the document's images "
            "already decoded %.0f of a budget of %.0f megapixels; a placeholder is drawn",
            (unsigned)im->width_px, (unsigned)im->height_px, *decoded / 1e6, DECODE_BUDGET / 1e6);
        return placeholder(c, b);
    }
    if (qr_pdf_work(c, (uint64_t)(px / QR_WORK_PIXELS), b->path, "the images")) return c->status;
    *decoded += px;
    png_reader r = {im->data, im->size};
    cairo_surface_t *s = cairo_image_surface_create_from_png_stream(png_read, &r);
    cairo_status_t cst = cairo_surface_status(s);
    if (cst != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        if (cst == CAIRO_STATUS_NO_MEMORY)
            qr_errlist_addf(c->rc->warnings, QR_OK, b->path,
                            "scale the image down before embedding it",
                            "the PNG image (%u x %u pixels) is too big to decode in the memory "
                            "there is; a placeholder is drawn",
                            (unsigned)im->width_px, (unsigned)im->height_px);
        else
            qr_errlist_addf(c->rc->warnings, QR_OK, b->path, "re-save the image as PNG or JPEG",
                            "the PNG image could not be decoded; a placeholder is drawn");
        return placeholder(c, b);
    }
    int sw = cairo_image_surface_get_width(s), sh = cairo_image_surface_get_height(s);
    if (wt->w < sw || wt->h < sh) {
        cairo_surface_t *d = qr_pdf_downsample(s, wt->w < sw ? wt->w : sw, wt->h < sh ? wt->h : sh);
        cairo_surface_destroy(s);
        if (!d) {
            qr_errlist_addf(c->rc->warnings, QR_OK, b->path,
                            "scale the image down before embedding it",
                            "the PNG image (%u x %u pixels) could not be downsampled in the "
                            "memory there is; a placeholder is drawn",
                            (unsigned)im->width_px, (unsigned)im->height_px);
            return placeholder(c, b);
        }
        s = d;
        qr_errlist_addf(c->rc->warnings, QR_OK, b->path, "scale the image down before embedding it",
                        "the PNG image (%d x %d pixels) was downsampled to %d x %d pixels, "
                        "%.0f dpi at its drawn size%s",
                        sw, sh, cairo_image_surface_get_width(s), cairo_image_surface_get_height(s),
                        keep_dpi,
                        keep_dpi < IMAGE_DPI ? " (the document's images share a budget of "
                                               "100 megapixels kept)"
                                             : "");
    }
    if (qr_pdf_keep_surface(c, s) != 0) {
        cairo_surface_destroy(s);
        return qr_pdf_fail(c, QR_E_NOMEM, b->path, "out of memory");
    }
    b->surface = s;
    return QR_OK;
}

/* A want's key and index, sorted to find the duplicates. */
typedef struct key {
    unsigned char sha[32];
    int w, h;
    size_t i;
} key;

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    int r = memcmp(x->sha, y->sha, 32);
    if (!r && x->w != y->w) r = x->w < y->w ? -1 : 1;
    if (!r && x->h != y->h) r = x->h < y->h ? -1 : 1;
    if (!r) r = x->i < y->i ? -1 : 1;
    return r;
}

/* Set each want's dup to the first want with the same key (sorted: a
 * document may hold a million images). Returns 0, or -1 on OOM. */
static int find_dups(want *w, size_t n)
{
    key *k = malloc(n * sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < n; i++) {
        memcpy(k[i].sha, w[i].sha, 32);
        k[i].w = w[i].w;
        k[i].h = w[i].h;
        k[i].i = i;
    }
    qsort(k, n, sizeof *k, key_cmp);
    for (size_t i = 0; i < n; i++) {
        int same = i && memcmp(k[i - 1].sha, k[i].sha, 32) == 0 && k[i - 1].w == k[i].w &&
                   k[i - 1].h == k[i].h;
        w[k[i].i].dup = same ? w[k[i - 1].i].dup : k[i].i;
    }
    free(k);
    return 0;
}

qr_status qr_pdf_decode_images(pd_ctx *c)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_blocks; i++)
        if (c->blocks[i].kind == PB_IMAGE && c->blocks[i].png) n++;
    if (!n || c->status != QR_OK) return c->status;
    want *w = calloc(n, sizeof *w);
    if (!w) return qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
    /* the pixels each box needs at IMAGE_DPI, and the distinct ones' sum */
    size_t k = 0;
    double keep = 0;
    for (size_t i = 0; i < c->n_blocks; i++) {
        pd_block *b = &c->blocks[i];
        if (b->kind != PB_IMAGE || !b->png) continue;
        want *wt = &w[k];
        wt->b = b;
        qr_sha256 h;
        qr_sha256_init(&h);
        qr_sha256_update(&h, b->png->data, b->png->size);
        qr_sha256_final(&h, wt->sha);
        double tw = ceil(b->img_w / 72.0 * IMAGE_DPI), th = ceil(b->img_h / 72.0 * IMAGE_DPI);
        wt->w = tw < b->png->width_px ? (int)tw : (int)b->png->width_px;
        wt->h = th < b->png->height_px ? (int)th : (int)b->png->height_px;
        if (wt->w < 1) wt->w = 1;
        if (wt->h < 1) wt->h = 1;
        k++;
    }
    if (find_dups(w, n) != 0) {
        free(w);
        return qr_pdf_fail(c, QR_E_NOMEM, "", "out of memory");
    }
    /* past the decode budget (in document order): placeholders */
    double decoded = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i].dup != i) continue;
        double px = (double)w[i].b->png->width_px * w[i].b->png->height_px;
        w[i].skip = decoded + px > DECODE_BUDGET;
        if (!w[i].skip) {
            decoded += px;
            keep += (double)w[i].w * w[i].h;
        }
    }
    /* over the keep budget: every image at the same, lower resolution */
    double f = keep > KEEP_BUDGET ? sqrt(KEEP_BUDGET / keep) : 1;
    if (f < 1)
        for (size_t i = 0; i < n; i++) {
            w[i].w = w[i].w * f >= 1 ? (int)(w[i].w * f) : 1;
            w[i].h = w[i].h * f >= 1 ? (int)(w[i].h * f) : 1;
        }
    decoded = 0;
    for (size_t i = 0; i < n && c->status == QR_OK; i++) {
        if (w[i].dup != i) {
            pd_block *first = w[w[i].dup].b;
            w[i].b->surface = first->surface;
            if (!first->surface) placeholder(c, w[i].b);
            continue;
        }
        decode_one(c, &w[i], &decoded, floor(IMAGE_DPI * f));
    }
    free(w);
    return c->status;
}
