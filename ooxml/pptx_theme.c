/* pptx_theme.c: the theme (ppt/theme/themeN.xml) of the slide master and
 * of the notes master. One fixed, flat theme: the 12 colours a clrScheme
 * requires, a fontScheme whose latin/ea/cs fonts are the families fonts/
 * picks (DejaVu Sans, Noto Sans CJK, Noto Sans Arabic) with per-script
 * supplemental fonts, and a fmtScheme with the three fill, line, effect
 * and background fill styles the schema requires (solid and subtle: no
 * gradients or shadows that would look dated). */
#include "pptx_int.h"

/* <a:srgbClr> */
static void write_a_srgbclr(qr_xml *x, const char *hex)
{
    qr_xml_leaf(x, "a:srgbClr", "val", hex, NULL);
}

/* <a:solidFill> of a scheme colour, optionally shaded (tint/shade in 1/1000 %). */
static void write_a_solidfill_scheme(qr_xml *x, const char *clr, const char *mod, const char *val)
{
    qr_xml_start(x, "a:solidFill");
    qr_xml_start(x, "a:schemeClr");
    qr_xml_attr(x, "val", clr);
    if (mod) qr_xml_leaf(x, mod, "val", val, NULL);
    qr_xml_end(x);
    qr_xml_end(x);
}

/* <a:clrScheme> */
/* <a:clrScheme>: text and background (dk1 and lt1, the darker first: a
 * dark theme maps bg1 to dk1 in the master's clrMap), the title colour
 * (dk2, the master's tx2), accent1 and the link colour are the theme's
 * (layout/style.h); lt2 is the text on the accent;
 * the other accents are the chart palette (qr_style_series). */
static void write_a_clrscheme(qr_xml *x, const qr_style *st)
{
    char text[7], bg[7], title[7], on_accent[7], accent[7], link[7], visited[7], series[6][7];
    int dark = qr_style_dark(st);
    qr_style_hex(dark ? st->background : st->text, text);
    qr_style_hex(dark ? st->text : st->background, bg);
    qr_style_hex(st->title, title);
    qr_style_hex(st->on_accent, on_accent);
    qr_style_hex(st->accent, accent);
    qr_style_hex(st->link, link);
    qr_style_hex(st->visited, visited);
    for (int i = 1; i < 6; i++)
        qr_style_hex(qr_style_series[i], series[i]);
    const char *const slots[12][2] = {
        {"a:dk1", text},          {"a:lt1", bg},
        {"a:dk2", title},         {"a:lt2", on_accent},
        {"a:accent1", accent},    {"a:accent2", series[1]},
        {"a:accent3", series[2]}, {"a:accent4", series[3]},
        {"a:accent5", series[4]}, {"a:accent6", series[5]},
        {"a:hlink", link},        {"a:folHlink", visited},
    };
    qr_xml_start(x, "a:clrScheme");
    qr_xml_attr(x, "name", "quire");
    for (int i = 0; i < 12; i++) {
        qr_xml_start(x, slots[i][0]);
        write_a_srgbclr(x, slots[i][1]);
        qr_xml_end(x);
    }
    qr_xml_end(x);
}

/* <a:majorFont> / <a:minorFont>: the three slots plus per-script fonts, so
 * PowerPoint picks a covering family for each script even before it reads
 * the run's own a:ea/a:cs. */
static void write_a_fontcollection(qr_xml *x, const char *name, const char *latin)
{
    static const char *const scripts[][2] = {
        {"Jpan", "Noto Sans CJK JP"},  {"Hang", "Noto Sans CJK KR"},
        {"Hans", "Noto Sans CJK SC"},  {"Hant", "Noto Sans CJK TC"},
        {"Arab", "Noto Sans Arabic"},  {"Hebr", "Noto Sans Hebrew"},
        {"Thai", "Noto Sans Thai"},    {"Deva", "Noto Sans Devanagari"},
        {"Beng", "Noto Sans Bengali"}, {"Taml", "Noto Sans Tamil"},
    };
    qr_xml_start(x, name);
    qr_xml_leaf(x, "a:latin", "typeface", latin, NULL);
    qr_xml_leaf(x, "a:ea", "typeface", QR_PPTX_FONT_EA, NULL);
    qr_xml_leaf(x, "a:cs", "typeface", QR_PPTX_FONT_CS, NULL);
    for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++)
        qr_xml_leaf(x, "a:font", "script", scripts[i][0], "typeface", scripts[i][1], NULL);
    qr_xml_end(x);
}

/* <a:fontScheme>: Latin text in the theme's body face (layout/style.h), if any */
static void write_a_fontscheme(qr_xml *x, const qr_style *st)
{
    const char *latin = st->body_face ? st->body_face : QR_PPTX_FONT_LATIN;
    qr_xml_start(x, "a:fontScheme");
    qr_xml_attr(x, "name", "quire");
    write_a_fontcollection(x, "a:majorFont", latin);
    write_a_fontcollection(x, "a:minorFont", latin);
    qr_xml_end(x);
}

/* <a:ln> of a line style. */
static void write_a_ln(qr_xml *x, const char *w)
{
    qr_xml_start(x, "a:ln");
    qr_xml_attr(x, "w", w);
    qr_xml_attr(x, "cap", "flat");
    qr_xml_attr(x, "cmpd", "sng");
    qr_xml_attr(x, "algn", "ctr");
    write_a_solidfill_scheme(x, "phClr", NULL, NULL);
    qr_xml_leaf(x, "a:prstDash", "val", "solid", NULL);
    qr_xml_leaf(x, "a:miter", "lim", "800000", NULL);
    qr_xml_end(x);
}

/* <a:fmtScheme> */
static void write_a_fmtscheme(qr_xml *x)
{
    qr_xml_start(x, "a:fmtScheme");
    qr_xml_attr(x, "name", "quire");

    qr_xml_start(x, "a:fillStyleLst");
    write_a_solidfill_scheme(x, "phClr", NULL, NULL);
    write_a_solidfill_scheme(x, "phClr", "a:tint", "75000");
    write_a_solidfill_scheme(x, "phClr", "a:shade", "85000");
    qr_xml_end(x);

    qr_xml_start(x, "a:lnStyleLst");
    write_a_ln(x, "6350");
    write_a_ln(x, "12700");
    write_a_ln(x, "19050");
    qr_xml_end(x);

    qr_xml_start(x, "a:effectStyleLst");
    for (int i = 0; i < 3; i++) {
        qr_xml_start(x, "a:effectStyle");
        qr_xml_leaf(x, "a:effectLst", NULL);
        qr_xml_end(x);
    }
    qr_xml_end(x);

    qr_xml_start(x, "a:bgFillStyleLst");
    write_a_solidfill_scheme(x, "phClr", NULL, NULL);
    write_a_solidfill_scheme(x, "phClr", "a:tint", "95000");
    write_a_solidfill_scheme(x, "phClr", "a:shade", "90000");
    qr_xml_end(x);

    qr_xml_end(x);
}

/* <a:theme> */
qr_status qr_pptx_theme(qr_pptx *pp, const char *part)
{
    qr_buf b;
    qr_xml *x = qr_pptx_begin(pp, &b);
    if (!x) return pp->status;
    qr_xml_start(x, "a:theme");
    qr_xml_attr(x, "xmlns:a", QR_NS_A);
    qr_xml_attr(x, "name", "quire");
    qr_xml_start(x, "a:themeElements");
    write_a_clrscheme(x, &pp->style);
    write_a_fontscheme(x, &pp->style);
    write_a_fmtscheme(x);
    qr_xml_end(x);
    qr_xml_leaf(x, "a:objectDefaults", NULL);
    qr_xml_leaf(x, "a:extraClrSchemeLst", NULL);
    qr_xml_end(x);
    return qr_pptx_add(pp, part, QR_CT_THEME, &b, x);
}
