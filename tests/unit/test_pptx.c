/* test_pptx.c: the pptx element writers against exact strings (a:rPr of an
 * Arabic run, a bullet a:pPr at level 3, a whole a:p itemized by fonts/),
 * and the shrink-to-fit estimate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "pptx_int.h"

typedef void (*script_fn)(qr_xml *x, const void *arg);

#define DECL "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"

/* Run a writer and compare the XML with want. The declaration comes first,
 * as in every part: with it libxml2 writes UTF-8 as is (without it,
 * non-ASCII in attributes would become character references). */
static void assert_xml(script_fn fn, const void *arg, const char *want)
{
    qr_buf out = {0};
    qr_xml *x = qr_xml_new(&out);
    assert_non_null(x);
    qr_xml_decl(x);
    fn(x, arg);
    assert_int_equal(qr_xml_free(x), QR_OK);
    assert_non_null(out.data);
    assert_true(strncmp(out.data, DECL, strlen(DECL)) == 0);
    assert_string_equal(out.data + strlen(DECL), want);
    qr_buf_free(&out);
}

static void s_rpr(qr_xml *x, const void *arg)
{
    qr_pptx_write_a_rpr(x, "a:rPr", arg);
}

static void s_ppr(qr_xml *x, const void *arg)
{
    qr_pptx_write_a_ppr(x, arg);
}

static void test_rpr_arabic(void **state)
{
    (void)state;
    qr_pptx_rpr p = {0};
    p.lang = "ar";
    p.b = 1;
    p.slot = QR_SLOT_COMPLEX;
    p.family = "Noto Sans Arabic";
    assert_xml(s_rpr, &p,
               "<a:rPr lang=\"ar\" b=\"1\"><a:cs typeface=\"Noto Sans Arabic\"/></a:rPr>");
}

static void test_rpr_east_asian(void **state)
{
    (void)state;
    qr_pptx_rpr p = {0};
    p.lang = "ja";
    p.slot = QR_SLOT_EAST_ASIAN;
    p.family = "Noto Sans CJK JP";
    assert_xml(s_rpr, &p, "<a:rPr lang=\"ja\"><a:ea typeface=\"Noto Sans CJK JP\"/></a:rPr>");
}

/* Every flag, in CT_TextCharacterProperties order: attributes lang, sz, b,
 * i, u, strike; children latin, then hlinkClick. */
static void test_rpr_everything(void **state)
{
    (void)state;
    qr_pptx_rpr p = {0};
    p.lang = "en-US";
    p.sz = 2400;
    p.b = p.i = p.u = p.strike = 1;
    p.slot = QR_SLOT_LATIN;
    p.family = "DejaVu Sans Mono";
    p.link_rid = "rId3";
    assert_xml(s_rpr, &p,
               "<a:rPr lang=\"en-US\" sz=\"2400\" b=\"1\" i=\"1\" u=\"sng\" strike=\"sngStrike\">"
               "<a:latin typeface=\"DejaVu Sans Mono\"/><a:hlinkClick r:id=\"rId3\"/></a:rPr>");
}

static void test_ppr_level3(void **state)
{
    (void)state;
    qr_pptx_ppr p = {.lvl = 3, .bullet = QR_PPTX_BULLET_CHAR};
    assert_xml(
        s_ppr, &p,
        "<a:pPr marL=\"1257300\" lvl=\"3\" indent=\"-228600\"><a:buFont typeface=\"DejaVu Sans\"/>"
        "<a:buChar char=\"\xE2\x80\xA2\"/></a:pPr>");
}

static void test_ppr_level1_white_bullet(void **state)
{
    (void)state;
    qr_pptx_ppr p = {.lvl = 1, .bullet = QR_PPTX_BULLET_CHAR};
    assert_xml(
        s_ppr, &p,
        "<a:pPr marL=\"571500\" lvl=\"1\" indent=\"-228600\"><a:buFont typeface=\"DejaVu Sans\"/>"
        "<a:buChar char=\"\xE2\x97\xA6\"/></a:pPr>");
}

static void test_ppr_rtl(void **state)
{
    (void)state;
    qr_pptx_ppr p = {.rtl = 1};
    assert_xml(s_ppr, &p, "<a:pPr algn=\"r\" rtl=\"1\"/>");
    qr_pptx_ppr none = {.bullet = QR_PPTX_BULLET_NONE, .algn = QR_PPTX_ALGN_CTR};
    assert_xml(s_ppr, &none, "<a:pPr marL=\"0\" indent=\"0\" algn=\"ctr\"><a:buNone/></a:pPr>");
    qr_pptx_ppr inherit = {0};
    assert_xml(s_ppr, &inherit, "");
}

static void test_level_glyphs(void **state)
{
    (void)state;
    /* layout/style.h: the bullets of every backend */
    const char *want[9] = {"\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA",
                           "\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA",
                           "\xE2\x80\xA2", "\xE2\x97\xA6", "\xE2\x96\xAA"};
    for (int l = 0; l < 9; l++) {
        assert_string_equal(qr_pptx_level_char(l), want[l]);
        assert_true(qr_pptx_level_marl(l) > (l ? qr_pptx_level_marl(l - 1) : 0));
    }
    assert_int_equal(qr_pptx_level_sz(0), 2800);
    assert_int_equal(qr_pptx_level_sz(8), 1400);
}

/* A whole paragraph through fonts/: Arabic gets rtl, right alignment, the
 * Arabic family in a:cs and its language. */
typedef struct para_arg {
    const char *text;
    qr_pptx_ppr ppr;
} para_arg;

static void s_para(qr_xml *x, const void *arg)
{
    const para_arg *a = arg;
    qr_doc doc;
    memset(&doc, 0, sizeof doc);
    qr_errlist warnings = {0}, errors = {0};
    qr_render_ctx ctx = {0};
    ctx.doc = &doc;
    ctx.fonts = qr_fonts_default();
    ctx.warnings = &warnings;
    ctx.errors = &errors;
    qr_pptx pp = {0};
    pp.ctx = &ctx;
    pp.doc = &doc;
    qr_text_ctx_init(&pp.text, ctx.fonts, NULL, &warnings);
    qr_run run = {0};
    run.text = a->text;
    run.len = strlen(a->text);
    qr_text t = {&run, 1, "/slides/0/title"};
    qr_pptx_write_a_p(&pp, x, &t, a->ppr, 0);
    assert_int_equal(pp.status, QR_OK);
    assert_int_equal(warnings.count, 0);
    qr_text_ctx_free(&pp.text);
    free(pp.links);
    qr_errlist_clear(&warnings);
    qr_errlist_clear(&errors);
}

static void test_para_arabic(void **state)
{
    (void)state;
    para_arg a = {"\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7", {0}}; /* مرحبا */
    assert_xml(s_para, &a,
               "<a:p><a:pPr algn=\"r\" rtl=\"1\"/><a:r><a:rPr lang=\"ar\"><a:cs typeface=\"Noto "
               "Sans Arabic\"/>"
               "</a:rPr><a:t>\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7</a:t></a:r></a:p>");
}

static void test_para_newline_and_markup(void **state)
{
    (void)state;
    para_arg a = {"<b>x</b>\ny", {.bullet = QR_PPTX_BULLET_CHAR}};
    assert_xml(s_para, &a,
               "<a:p><a:pPr marL=\"228600\" indent=\"-228600\"><a:buFont typeface=\"DejaVu Sans\"/>"
               "<a:buChar char=\"\xE2\x80\xA2\"/></a:pPr>"
               "<a:r><a:rPr><a:latin typeface=\"DejaVu "
               "Sans\"/></a:rPr><a:t>&lt;b&gt;x&lt;/b&gt;</a:t></a:r>"
               "<a:br><a:rPr><a:latin typeface=\"DejaVu Sans\"/></a:rPr></a:br>"
               "<a:r><a:rPr><a:latin typeface=\"DejaVu Sans\"/></a:rPr><a:t>y</a:t></a:r></a:p>");
}

static void test_text_width(void **state)
{
    (void)state;
    assert_int_equal(qr_pptx_text_width("abc", 3, 0, 0), 613 + 635 + 550);
    assert_int_equal(qr_pptx_text_width("abc", 3, 1, 0), 3 * 602);
    assert_int_equal(qr_pptx_text_width("\xE6\x97\xA5\xE6\x9C\xAC", 6, 0, 0), 2000); /* 日本 */
    assert_int_equal(qr_pptx_text_width("e\xCC\x81", 3, 0, 0), 615); /* e + combining acute */
}

static void test_lines(void **state)
{
    (void)state;
    qr_run run = {0};
    run.text = "aaaa bbbb cccc";
    run.len = strlen(run.text);
    qr_text t = {&run, 1, ""};
    long long w4 = 4 * 613;
    assert_int_equal(qr_pptx_text_lines(&t, 100000), 1);
    /* "aaaa" fits a line exactly; each word goes to its own line */
    assert_int_equal(qr_pptx_text_lines(&t, w4 + 100), 3);
    run.text = "one\ntwo";
    run.len = 7;
    assert_int_equal(qr_pptx_text_lines(&t, 100000), 2);
}

static void test_fit(void **state)
{
    (void)state;
    const long long w = 10515600 - 2 * QR_PPTX_INS_LR, h = 4351338 - 2 * QR_PPTX_INS_TB;
    qr_run run = {0};
    run.text = "Up 12%";
    run.len = strlen(run.text);
    qr_text t = {&run, 1, ""};
    qr_pptx_para p[30];
    for (int i = 0; i < 30; i++)
        p[i] = (qr_pptx_para){&t, 2800, qr_pptx_level_marl(0), 1000};
    int scale = 0, red = -1;
    assert_int_equal(qr_pptx_fit(p, 2, w, h, 90000, &scale, &red), 1);
    assert_int_equal(scale, 100000);
    assert_int_equal(red, 0);

    /* 30 bullets of two lines each cannot fit at 28 pt */
    qr_run longr = {0};
    longr.text =
        "This is a deliberately long bullet point that keeps going with enough words to wrap "
        "over more than one line on the slide";
    longr.len = strlen(longr.text);
    qr_text lt = {&longr, 1, ""};
    for (int i = 0; i < 30; i++)
        p[i].text = &lt;
    assert_int_equal(qr_pptx_fit(p, 30, w, h, 90000, &scale, &red), 1);
    assert_true(scale < 100000);
    assert_true(scale >= 25000);
    assert_int_equal(red, 20000);

    /* 10 bullets: a little tighter line spacing is enough */
    for (int i = 0; i < 30; i++)
        p[i].text = &t;
    assert_int_equal(qr_pptx_fit(p, 11, w, h, 90000, &scale, &red), 1);
    assert_true(scale <= 100000);
}

static void test_geometry(void **state)
{
    (void)state;
    qr_pptx_geom g;
    qr_pptx_geom_init(&g, 1);
    assert_int_equal(g.sw, 12192000);
    assert_int_equal(g.sh, 6858000);
    assert_int_equal(g.body.x, 838200);
    assert_int_equal(g.body.cx, 10515600);
    qr_pptx_geom_init(&g, 0);
    assert_int_equal(g.sw, 9144000);
    assert_int_equal(g.body.x, 628650);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rpr_arabic),
        cmocka_unit_test(test_rpr_east_asian),
        cmocka_unit_test(test_rpr_everything),
        cmocka_unit_test(test_ppr_level3),
        cmocka_unit_test(test_ppr_level1_white_bullet),
        cmocka_unit_test(test_ppr_rtl),
        cmocka_unit_test(test_level_glyphs),
        cmocka_unit_test(test_para_arabic),
        cmocka_unit_test(test_para_newline_and_markup),
        cmocka_unit_test(test_text_width),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_geometry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
