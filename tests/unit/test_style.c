/* test_style.c: the style table (layout/style.h) and the backends that read it.
 *
 * Every built-in theme meets WCAG AA (4.5:1) for each pair of colours it
 * draws text in; a style with one colour changed (the test hook) changes
 * that colour in the docx styles part, the pptx theme, the html CSS and
 * the PDF/PNG; the spec's "accent" recolours a theme. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include <quire/quire.h>
#include "style.h"

/* ---- contrast ---------------------------------------------------------------------- */

static void check_pair(const char *theme, const char *what, uint32_t fg, uint32_t bg)
{
    double r = qr_style_contrast(fg, bg);
    if (r < 4.5) {
        print_message("theme %s: %s %06X on %06X is %.2f:1, below 4.5:1\n", theme, what, fg, bg, r);
        fail();
    }
}

static void test_contrast_every_theme(void **state)
{
    (void)state;
    int n = 0;
    for (int t = 0; qr_theme_names[t]; t++, n++) {
        qr_style s = qr_style_get(t, 0);
        assert_string_equal(s.name, qr_theme_names[t]);
        check_pair(s.name, "text", s.text, s.background);
        check_pair(s.name, "title", s.title, s.background);
        check_pair(s.name, "headings", s.heading, s.background);
        check_pair(s.name, "links", s.link, s.background);
        check_pair(s.name, "code", s.text, s.code_fill);
        check_pair(s.name, "table header", s.text, s.header_fill);
        check_pair(s.name, "text on the accent", s.on_accent, s.accent);
        check_pair(s.name, "footer", s.footer, s.background);
        check_pair(s.name, "chart labels", s.chart_text, s.background);
        check_pair(s.name, "chart title", s.chart_title, s.background);
    }
    assert_int_equal(n, QR_THEME_COUNT);
    /* known ratios: black on white 21:1, a colour on itself 1:1 */
    assert_true(qr_style_contrast(0x000000, 0xFFFFFF) > 20.99);
    assert_true(qr_style_contrast(0x777777, 0x777777) < 1.0001);
}

static void test_accent_override(void **state)
{
    (void)state;
    /* a light accent gets near-black text on it (never 0, which the painters read as
     * the body text's colour: light on the dark theme), a dark one white */
    qr_style s = qr_style_get(QR_THEME_DARK, QR_STYLE_ACCENT_SET | 0xFFD700);
    assert_int_equal(s.accent, 0xFFD700);
    assert_int_equal(s.on_accent, 0x111111);
    s = qr_style_get(QR_THEME_LIGHT, QR_STYLE_ACCENT_SET | 0x7B1FA2);
    assert_int_equal(s.on_accent, 0xFFFFFF);
    /* report's headings are in its accent: they follow it */
    s = qr_style_get(QR_THEME_REPORT, QR_STYLE_ACCENT_SET | 0x8B0000);
    assert_int_equal(s.heading, 0x8B0000);
    assert_int_equal(qr_style_get(QR_THEME_REPORT, 0).heading,
                     qr_style_get(QR_THEME_REPORT, 0).accent);
    assert_int_equal(qr_theme_find("report"), QR_THEME_REPORT);
    assert_int_equal(qr_theme_find("nope"), -1);
}

/* ---- one colour, four outputs ------------------------------------------------------ */

static char *render(const char *spec, qr_kind kind, qr_format fmt, size_t *len)
{
    qr_result res;
    qr_status st = qr_render_mem(spec, strlen(spec), kind, fmt, NULL, &res);
    assert_int_equal(st, QR_OK);
    char *out = malloc(res.size + 1);
    assert_non_null(out);
    memcpy(out, res.data, res.size);
    out[res.size] = '\0';
    *len = res.size;
    qr_result_free(&res);
    return out;
}

/* One part of a zip package, NUL-terminated. */
static char *zip_part(const char *zipdata, size_t len, const char *name)
{
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(zipdata, len, 0, &ze);
    assert_non_null(src);
    zip_t *z = zip_open_from_source(src, ZIP_RDONLY, &ze);
    assert_non_null(z);
    zip_stat_t sb;
    assert_int_equal(zip_stat(z, name, 0, &sb), 0);
    char *out = calloc(1, sb.size + 1);
    zip_file_t *f = zip_fopen(z, name, 0);
    assert_non_null(f);
    assert_int_equal(zip_fread(f, out, sb.size), (zip_int64_t)sb.size);
    zip_fclose(f);
    zip_close(z);
    return out;
}

typedef struct png_src {
    const unsigned char *p;
    size_t left;
} png_src;

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int n)
{
    png_src *s = closure;
    if (n > s->left) return CAIRO_STATUS_READ_ERROR;
    memcpy(data, s->p, n);
    s->p += n;
    s->left -= n;
    return CAIRO_STATUS_SUCCESS;
}

/* Pixels of the PNG within 24 per channel of rgb. */
static long count_pixels(const char *png, size_t len, uint32_t rgb)
{
    png_src s = {(const unsigned char *)png, len};
    cairo_surface_t *img = cairo_image_surface_create_from_png_stream(png_read, &s);
    assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const unsigned char *d = cairo_image_surface_get_data(img);
    long n = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t px = *(const uint32_t *)(d + y * stride + 4 * x);
            int ok = 1;
            for (int sh = 0; sh <= 16; sh += 8) {
                int a = (px >> sh) & 255, b = (rgb >> sh) & 255;
                ok &= abs(a - b) <= 24;
            }
            n += ok;
        }
    cairo_surface_destroy(img);
    return n;
}

static const char doc_spec[] =
    "{\"title\":\"Style\",\"blocks\":[{\"type\":\"heading\",\"text\":\"Heading colour\"},"
    "{\"type\":\"paragraph\",\"text\":\"Body\"}]}";
static const char deck_spec[] = "{\"slides\":[{\"title\":\"Slide title\",\"bullets\":[\"a\"]}]}";

#define PROBE 0xD4145A /* a colour no theme uses */

static void outputs_have(int want)
{
    size_t n;
    char *docx = render(doc_spec, QR_KIND_DOCUMENT, QR_FORMAT_DOCX, &n);
    char *styles = zip_part(docx, n, "word/styles.xml");
    assert_int_equal(strstr(styles, "w:val=\"D4145A\"") != NULL, want);
    free(styles);
    free(docx);

    char *pptx = render(deck_spec, QR_KIND_PRESENTATION, QR_FORMAT_PPTX, &n);
    char *theme = zip_part(pptx, n, "ppt/theme/theme1.xml");
    assert_int_equal(strstr(theme, "<a:dk2><a:srgbClr val=\"D4145A\"/></a:dk2>") != NULL, want);
    free(theme);
    free(pptx);

    char *html = render(doc_spec, QR_KIND_HTML, QR_FORMAT_HTML, &n);
    assert_int_equal(strstr(html, "h2{color:#D4145A") != NULL, want);
    assert_int_equal(strstr(html, "h1{color:#D4145A") != NULL, want);
    free(html);

    /* the PDF backend paints the PNG (pdf/paint.c, the same layout and paint as
     * the PDF): the heading and the title in the probe */
    char *png = render(doc_spec, QR_KIND_DOCUMENT, QR_FORMAT_PNG, &n);
    long probe = count_pixels(png, n, PROBE);
    if (want)
        assert_true(probe > 50);
    else
        assert_int_equal(probe, 0);
    free(png);
}

static void test_one_colour_everywhere(void **state)
{
    (void)state;
    outputs_have(0);
    static qr_style s; /* outlives a failed assertion: the hook keeps a pointer */
    s = qr_style_get(QR_THEME_PLAIN, 0);
    s.heading = PROBE;
    s.title = PROBE;
    qr_style_set_override(&s);
    outputs_have(1);
    qr_style_set_override(NULL);
    outputs_have(0);
}

/* A heading size in the table reaches the docx and the html. */
static void test_one_size_everywhere(void **state)
{
    (void)state;
    static qr_style s;
    s = qr_style_get(QR_THEME_PLAIN, 0);
    s.heading_pt[0] = 33; /* h2 in html (the title is h1), Heading1 in docx */
    qr_style_set_override(&s);
    size_t n;
    char *docx = render(doc_spec, QR_KIND_DOCUMENT, QR_FORMAT_DOCX, &n);
    char *styles = zip_part(docx, n, "word/styles.xml");
    char *h1 = strstr(styles, "w:styleId=\"Heading1\"");
    assert_non_null(h1);
    char *h2 = strstr(h1, "w:styleId=\"Heading2\"");
    char *sz = strstr(h1, "<w:sz w:val=\"66\"/>");
    assert_non_null(sz);
    assert_true(!h2 || sz < h2);
    free(styles);
    free(docx);
    char *html = render(doc_spec, QR_KIND_HTML, QR_FORMAT_HTML, &n);
    assert_non_null(strstr(html, "h2{color:#000000;font-size:3em;margin:16pt 0 8pt}"));
    free(html);
    qr_style_set_override(NULL);
}

/* Spacing, indents, padding, the footer and the title's alignment come from
 * the table too: docx styles and numbering, the footer part, the html CSS. */
static void test_spacing_everywhere(void **state)
{
    (void)state;
    static qr_style s;
    s = qr_style_get(QR_THEME_PLAIN, 0);
    s.heading_before[0] = 31;
    s.list_indent = 27;
    s.cell_pad = 7;
    s.footer = PROBE;
    s.footer_sep = " of ";
    s.title_align = QR_STYLE_LEFT;
    qr_style_set_override(&s);
    static const char spec[] = "{\"title\":\"T\",\"blocks\":[{\"type\":\"heading\",\"text\":\"H\"},"
                               "{\"type\":\"list\",\"ordered\":true,\"items\":[\"a\"]},"
                               "{\"type\":\"table\",\"headers\":[\"c\"],\"rows\":[[\"1\"]]}]}";
    size_t n;
    char *docx = render(spec, QR_KIND_DOCUMENT, QR_FORMAT_DOCX, &n);
    char *styles = zip_part(docx, n, "word/styles.xml");
    assert_non_null(strstr(styles, "w:before=\"620\"")); /* 31 pt in twips */
    assert_non_null(strstr(styles, "<w:left w:w=\"140\" w:type=\"dxa\"/>"));
    char *num = zip_part(docx, n, "word/numbering.xml");
    assert_non_null(strstr(num, "<w:ind w:left=\"540\" w:hanging=\"540\"/>"));
    char *ftr = zip_part(docx, n, "word/footer1.xml");
    assert_non_null(strstr(ftr, "w:val=\"D4145A\""));
    assert_non_null(strstr(ftr, "> of </w:t>"));
    char *body = zip_part(docx, n, "word/document.xml");
    assert_non_null(strstr(body, "<w:jc w:val=\"left\"/>"));
    free(body);
    free(ftr);
    free(num);
    free(styles);
    free(docx);
    char *html = render(spec, QR_KIND_HTML, QR_FORMAT_HTML, &n);
    assert_non_null(strstr(html, "text-align:left;margin:0 0 14pt"));
    assert_non_null(strstr(html, "h2{color:#000000;font-size:1.82em;margin:31pt 0 8pt}"));
    assert_non_null(strstr(html, "ul,ol{padding-inline-start:27pt}"));
    assert_non_null(strstr(html, "padding:7pt"));
    free(html);
    qr_style_set_override(NULL);
}

/* report's serif body face takes the Latin text; every other script keeps
 * the face fonts/ picks for it (Arabic, Japanese, Devanagari, code). */
static void test_report_faces(void **state)
{
    (void)state;
    static const char spec[] =
        "{\"theme\":\"report\",\"title\":\"Report\",\"blocks\":["
        "{\"type\":\"paragraph\",\"text\":\"English, "
        "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac\"},"
        "{\"type\":\"paragraph\",\"text\":\"\u0627\u0644\u0639\u0631\u0628\u064a\u0629\"},"
        "{\"type\":\"paragraph\",\"text\":\"\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\"},"
        "{\"type\":\"paragraph\",\"text\":\"\u0939\u093f\u0928\u094d\u0926\u0940\"},"
        "{\"type\":\"code\",\"text\":\"x = 1\"}]}";
    size_t n;
    char *docx = render(spec, QR_KIND_DOCUMENT, QR_FORMAT_DOCX, &n);
    char *styles = zip_part(docx, n, "word/styles.xml");
    assert_non_null(strstr(styles, "<w:rFonts w:ascii=\"DejaVu Serif\" w:hAnsi=\"DejaVu Serif\""));
    char *body = zip_part(docx, n, "word/document.xml");
    assert_non_null(strstr(body, "w:cs=\"Noto Sans Arabic\""));
    assert_non_null(strstr(body, "w:eastAsia=\"Noto Sans CJK JP\""));
    assert_non_null(strstr(body, "w:cs=\"Noto Sans Devanagari\""));
    assert_non_null(strstr(body, "w:ascii=\"DejaVu Sans Mono\""));
    assert_null(strstr(body, "w:ascii=\"DejaVu Sans\"")); /* the Latin text is the default's */
    free(body);
    free(styles);
    free(docx);
    char *html = render(spec, QR_KIND_HTML, QR_FORMAT_HTML, &n);
    assert_non_null(strstr(html, "body{font-family:\"DejaVu Serif\",\"DejaVu Sans\""));
    free(html);
    /* plain keeps DejaVu Sans */
    docx = render(doc_spec, QR_KIND_DOCUMENT, QR_FORMAT_DOCX, &n);
    styles = zip_part(docx, n, "word/styles.xml");
    assert_non_null(strstr(styles, "<w:rFonts w:ascii=\"DejaVu Sans\" w:hAnsi=\"DejaVu Sans\""));
    free(styles);
    free(docx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_contrast_every_theme),  cmocka_unit_test(test_accent_override),
        cmocka_unit_test(test_one_colour_everywhere), cmocka_unit_test(test_one_size_everywhere),
        cmocka_unit_test(test_spacing_everywhere),    cmocka_unit_test(test_report_faces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
