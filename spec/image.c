/* image.c: loading an image named by a spec's "src".
 *
 * A src is a data: URI (image/png or image/jpeg, base64, decoded strictly)
 * or a path relative to the base folder: no absolute paths, no "..", no
 * backslashes, and the resolved real path (symlinks followed) must stay
 * inside the base folder. The bytes are checked by content (PNG signature
 * and IHDR, or a JPEG SOI and SOFn header), size-limited by max_image and
 * copied into the document arena (once: a path named again, as a deck's
 * repeated picture, shares the bytes of the last read, so the writers'
 * media dedup finds it by pointer). Each image gets a stable name in tree
 * order ("image1.png", "image2.jpeg"). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile_int.h"

#define DATA_HINT "embed the image as \"data:image/png;base64,...\""

/* ---- probing ------------------------------------------------------------- */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static unsigned be16(const unsigned char *p)
{
    return (unsigned)p[0] << 8 | p[1];
}

/* The resolution an image asks for, clamped to what a printer or a screen
 * could mean (a pHYs of 4294967295 px/m asks for 109 million dpi: a
 * 10-pixel image would be drawn 0.00007 points wide). */
#define MIN_DPI 1.0
#define MAX_DPI 9600.0

static double clamp_dpi(double d)
{
    return d < MIN_DPI ? MIN_DPI : d > MAX_DPI ? MAX_DPI : d;
}

static int probe_png(const unsigned char *p, size_t n, qr_image *img, const char **why)
{
    *why = "a PNG file without a valid IHDR header";
    if (n < 33 || be32(p + 8) != 13 || memcmp(p + 12, "IHDR", 4) != 0) return -1;
    uint32_t w = be32(p + 16), h = be32(p + 20);
    if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu) {
        *why = "a PNG file with a zero or huge size";
        return -1;
    }
    img->type = QR_IMAGE_PNG;
    img->width_px = w;
    img->height_px = h;
    img->dpi_x = img->dpi_y = 96;
    size_t off = 33;
    while (off + 12 <= n) {
        uint32_t len = be32(p + off);
        const unsigned char *type = p + off + 4;
        if (memcmp(type, "IDAT", 4) == 0 || memcmp(type, "IEND", 4) == 0) break;
        if (len > n - off - 12) break;
        if (memcmp(type, "pHYs", 4) == 0 && len == 9) {
            uint32_t x = be32(p + off + 8), y = be32(p + off + 12);
            if (p[off + 16] == 1 && x > 0 && y > 0) { /* pixels per metre */
                img->dpi_x = clamp_dpi(x * 0.0254);
                img->dpi_y = clamp_dpi(y * 0.0254);
            }
        }
        off += 12 + (size_t)len;
    }
    return 0;
}

static int probe_jpeg(const unsigned char *p, size_t n, qr_image *img, const char **why)
{
    double dx = 96, dy = 96;
    size_t off = 2;
    *why = "a JPEG file without a frame header (SOF)";
    while (off < n) {
        if (p[off] != 0xFF) return -1;
        while (off < n && p[off] == 0xFF)
            off++; /* fill bytes */
        if (off >= n) return -1;
        unsigned m = p[off++];
        if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) continue; /* no length */
        if (m == 0xD9 || m == 0xDA) return -1; /* EOI or scan data before any SOF */
        if (off + 2 > n) return -1;
        unsigned len = be16(p + off);
        if (len < 2 || off + len > n) return -1;
        const unsigned char *d = p + off + 2;
        if (m == 0xE0 && len >= 16 && memcmp(d, "JFIF\0", 5) == 0) {
            unsigned units = d[7], x = be16(d + 8), y = be16(d + 10);
            if (x && y && units == 1)
                dx = x, dy = y;
            else if (x && y && units == 2)
                dx = x * 2.54, dy = y * 2.54;
        }
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (len < 8) return -1;
            unsigned h = be16(d + 1), w = be16(d + 3);
            if (!w || !h) {
                *why = "a JPEG file with a zero size";
                return -1;
            }
            img->type = QR_IMAGE_JPEG;
            img->width_px = w;
            img->height_px = h;
            img->dpi_x = clamp_dpi(dx);
            img->dpi_y = clamp_dpi(dy);
            return 0;
        }
        off += len;
    }
    return -1;
}

int qr_image_probe(const unsigned char *p, size_t n, qr_image *img, const char **why)
{
    static const unsigned char png_sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (n >= 8 && memcmp(p, png_sig, 8) == 0) return probe_png(p, n, img, why);
    if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) return probe_jpeg(p, n, img, why);
    *why = "not a PNG or JPEG image";
    return -1;
}

/* ---- data: URIs ----------------------------------------------------------- */

static int b64(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Strict base64: length a multiple of 4, '=' only as the final padding.
 * Returns the decoded length, or (size_t)-1. */
static size_t b64_decode(const char *s, size_t n, unsigned char *out)
{
    if (n % 4) return (size_t)-1;
    size_t k = 0;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; j++) {
            unsigned char c = (unsigned char)s[i + j];
            if (c == '=' && i + 4 == n && j >= 2) {
                v[j] = 0;
                pad++;
                continue;
            }
            if (pad) return (size_t)-1; /* data after '=' */
            v[j] = b64(c);
            if (v[j] < 0) return (size_t)-1;
        }
        uint32_t x =
            (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        out[k++] = (unsigned char)(x >> 16);
        if (pad < 2) out[k++] = (unsigned char)(x >> 8);
        if (pad < 1) out[k++] = (unsigned char)x;
    }
    return k;
}

static int from_data_uri(qr_cc *cc, const char *s, size_t n, unsigned char **data, size_t *size)
{
    const char *comma = memchr(s, ',', n);
    if (!comma) {
        qr_cc_err(cc, DATA_HINT, "a data: URI without a ','");
        return -1;
    }
    const char *meta = s + 5;
    size_t mlen = (size_t)(comma - meta);
    int is_b64 = mlen >= 7 && strncasecmp(comma - 7, ";base64", 7) == 0;
    size_t tlen = is_b64 ? mlen - 7 : mlen;
    int type_ok = (tlen == 9 && strncasecmp(meta, "image/png", 9) == 0) ||
                  (tlen == 10 && strncasecmp(meta, "image/jpeg", 10) == 0) ||
                  (tlen == 9 && strncasecmp(meta, "image/jpg", 9) == 0);
    if (!type_ok) {
        qr_cc_err(cc, "only PNG and JPEG images are supported: data:image/png;base64,...",
                  "unsupported data: URI type \"%.*s\"", (int)(tlen > 40 ? 40 : tlen), meta);
        return -1;
    }
    if (!is_b64) {
        qr_cc_err(cc, DATA_HINT, "the data: URI is not base64 (\";base64,\" is missing)");
        return -1;
    }
    const char *enc = comma + 1;
    size_t elen = n - (size_t)(enc - s);
    size_t max = elen / 4 * 3;
    if (cc->lim->max_image && max > cc->lim->max_image + 2) {
        qr_cc_limit(cc, "max_image",
                    "an image of about %zu bytes; the limit max_image is %zu bytes", max,
                    cc->lim->max_image);
        return -1;
    }
    unsigned char *buf = qr_arena_alloc(cc->a, max ? max : 1);
    if (!buf) return qr_cc_oom(cc), -1;
    size_t k = b64_decode(enc, elen, buf);
    if (k == (size_t)-1) {
        qr_cc_err(cc, "use standard base64 (A-Z a-z 0-9 + /, '=' padding, no spaces)",
                  "the data: URI holds invalid base64");
        return -1;
    }
    if (cc->lim->max_image && k > cc->lim->max_image) {
        qr_cc_limit(cc, "max_image", "an image of %zu bytes; the limit max_image is %zu bytes", k,
                    cc->lim->max_image);
        return -1;
    }
    *data = buf;
    *size = k;
    return 0;
}

/* ---- files ---------------------------------------------------------------- */

static int has_scheme(const char *s)
{
    size_t i = 0;
    if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) return 0;
    while (s[i] && (s[i] == '+' || s[i] == '.' || s[i] == '-' || (s[i] >= '0' && s[i] <= '9') ||
                    (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z')))
        i++;
    return s[i] == ':' && i >= 2; /* "C:" style drive letters are not schemes, nor paths we take */
}

static int path_ok(qr_cc *cc, const char *s)
{
    if (!*s) {
        qr_cc_err(cc, DATA_HINT, "the image src is empty");
        return 0;
    }
    if (has_scheme(s)) {
        qr_cc_err(cc, DATA_HINT " or a path next to the spec", "remote images are not fetched");
        return 0;
    }
    if (s[0] == '/') {
        qr_cc_err(cc, "use a path relative to the spec's folder, or " DATA_HINT,
                  "absolute image paths are not allowed");
        return 0;
    }
    if (strchr(s, '\\') || (s[0] && s[1] == ':')) {
        qr_cc_err(cc, "use '/' between folders, relative to the spec's folder",
                  "backslashes and drive letters are not allowed in image paths");
        return 0;
    }
    for (const char *p = s; *p;) {
        size_t seg = strcspn(p, "/");
        if (seg == 2 && p[0] == '.' && p[1] == '.') {
            qr_cc_err(cc, "keep images in the spec's folder or below it",
                      "\"..\" is not allowed in image paths");
            return 0;
        }
        p += seg;
        if (*p == '/') p++;
    }
    return 1;
}

static const char *errno_text(int e)
{
    switch (e) {
    case ENOENT:
        return "no such file";
    case EACCES:
        return "permission denied";
    case ENOTDIR:
        return "a folder in the path is not a folder";
    case ELOOP:
        return "too many symbolic links";
    case ENAMETOOLONG:
        return "the path is too long";
    case EISDIR:
        return "it is a folder";
    default:
        return strerror(e);
    }
}

static int from_file(qr_cc *cc, const char *src, unsigned char **data, size_t *size)
{
    if (!cc->base_dir) {
        qr_cc_err(cc, DATA_HINT, "image files are not allowed here (no base folder)");
        return -1;
    }
    if (!path_ok(cc, src)) return -1;
    char base[PATH_MAX], real[PATH_MAX];
    if (!realpath(cc->base_dir, base)) {
        qr_cc_err(cc, NULL, "cannot open the image folder: %s", errno_text(errno));
        return -1;
    }
    size_t bl = strlen(base), sl = strlen(src);
    if (bl + 1 + sl >= PATH_MAX) {
        qr_cc_err(cc, NULL, "cannot read image \"%.80s\": the path is too long", src);
        return -1;
    }
    char full[PATH_MAX];
    memcpy(full, base, bl);
    full[bl] = '/';
    memcpy(full + bl + 1, src, sl + 1);
    if (!realpath(full, real)) {
        qr_cc_err(cc, "paths are relative to the spec's folder", "cannot read image \"%.80s\": %s",
                  src, errno_text(errno));
        return -1;
    }
    int inside = strcmp(base, "/") == 0 ? 1 : strncmp(real, base, bl) == 0 && real[bl] == '/';
    if (!inside) {
        qr_cc_err(cc, "keep images in the spec's folder or below it",
                  "image \"%.80s\" leads outside the spec's folder", src);
        return -1;
    }
    /* A FIFO, a device or a socket would block the open or the read (or
     * never end): refuse anything but a regular file before opening it, and
     * open without blocking in case it was swapped for one meanwhile. */
    struct stat pre;
    if (stat(real, &pre) == 0 && !S_ISREG(pre.st_mode)) {
        qr_cc_err(cc, "name a PNG or JPEG file", "cannot read image \"%.80s\": not a regular file",
                  src);
        return -1;
    }
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        qr_cc_err(cc, NULL, "cannot read image \"%.80s\": %s", src, errno_text(errno));
        return -1;
    }
    struct stat st;
    int r = -1;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        qr_cc_err(cc, "name a PNG or JPEG file", "cannot read image \"%.80s\": not a regular file",
                  src);
    } else if (cc->lim->max_image && (uintmax_t)st.st_size > cc->lim->max_image) {
        qr_cc_limit(cc, "max_image",
                    "image \"%.80s\" has %jd bytes; the limit max_image is %zu bytes", src,
                    (intmax_t)st.st_size, cc->lim->max_image);
    } else {
        size_t n = (size_t)st.st_size, k = 0;
        unsigned char *buf = qr_arena_alloc(cc->a, n ? n : 1);
        if (!buf) {
            qr_cc_oom(cc);
        } else {
            while (k < n) {
                ssize_t got = read(fd, buf + k, n - k);
                if (got < 0 && errno == EINTR) continue;
                if (got <= 0) break;
                k += (size_t)got;
            }
            if (k != n) {
                qr_cc_err(cc, NULL, "cannot read image \"%.80s\": short read", src);
            } else {
                *data = buf;
                *size = n;
                r = 0;
            }
        }
    }
    close(fd);
    return r;
}

int qr_cc_image_src(qr_cc *cc, json_t *src, qr_image *img)
{
    if (!json_is_string(src)) {
        qr_cc_err(cc, DATA_HINT " or a relative path", "expected a string, got %s",
                  qr_cc_type_name(src));
        return -1;
    }
    const char *s = json_string_value(src);
    size_t n = json_string_length(src);
    if (memchr(s, '\0', n)) {
        qr_cc_err(cc, NULL, "strings may not contain NUL (\\u0000)");
        return -1;
    }
    unsigned char *data = NULL;
    size_t size = 0;
    int r;
    if (n >= 5 && strncasecmp(s, "data:", 5) == 0) {
        r = from_data_uri(cc, s, n, &data, &size);
    } else {
        const struct qr_cc_file *seen = NULL;
        unsigned k = cc->n_files < 8 ? cc->n_files : 8;
        for (unsigned i = 0; i < k && !seen; i++)
            if (strcmp(cc->files[i].src, s) == 0) seen = &cc->files[i];
        if (seen) {
            data = (unsigned char *)(uintptr_t)seen->data;
            size = seen->size;
            r = 0;
        } else if ((r = from_file(cc, s, &data, &size)) == 0) {
            const char *keep = qr_arena_strdup(cc->a, s);
            if (keep) cc->files[cc->n_files++ % 8] = (struct qr_cc_file){keep, data, size};
        }
    }
    if (r < 0) return -1;
    const char *why = NULL;
    if (qr_image_probe(data, size, img, &why) < 0) {
        qr_cc_err(cc, "use a PNG or JPEG image", "the image is %s", why);
        return -1;
    }
    img->data = data;
    img->size = size;
    cc->n_images++;
    img->name = qr_arena_printf(cc->a, "image%u.%s", cc->n_images,
                                img->type == QR_IMAGE_PNG ? "png" : "jpeg");
    if (!img->name) return qr_cc_oom(cc), -1;
    return 0;
}

int qr_cc_image_fields(qr_cc *cc, json_t *v, qr_image *img, int unk)
{
    int bad = 0;
    const char *alt = NULL;
    size_t n_alt = 0;
    if (qr_cc_get_string(cc, v, "alt", 0, &alt, &n_alt) < 0) bad = 1;
    img->alt = qr_cc_plain_at(cc, "alt", alt, n_alt);
    json_t *src = json_object_get(v, "src");
    if (!src) {
        if (!unk)
            qr_cc_missing(cc, "src",
                          "add \"src\": \"data:image/png;base64,...\" or a relative path");
        bad = 1;
    } else {
        size_t o = qr_cc_push_key(cc, "src");
        bad |= qr_cc_image_src(cc, src, img) < 0;
        qr_cc_pop(cc, o);
    }
    return bad;
}
