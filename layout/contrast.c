/* contrast.c: the layout report's contrast items (contrast.h): each pair of
 * colours a theme (with the spec's accent) draws text in, checked against
 * WCAG 2's AA level: 4.5:1 for body text, 3:1 for large text (18 pt, or
 * 14 pt bold: titles, headings, section slides). Belongs with the style
 * table (layout/ after the move). */
#include "contrast.h"

#include <stdio.h>

#include "report.h"
#include "style.h"

/* One pair: text colour on ground colour, large or not, and whether the
 * accent override chose the text or the ground. */
static void check(qr_layout_list *l, const qr_doc *doc, uint32_t ink, uint32_t ground, int large,
                  int by_accent, int slide, const char *what)
{
    double r = qr_style_contrast(ink, ground);
    double need = large ? 3.0 : 4.5;
    if (r >= need) return;
    char a[7], b[7];
    qr_style_hex(ink, a);
    qr_style_hex(ground, b);
    long hund = (long)(r * 100.0 + 0.5);
    const char *path = by_accent && doc->accent ? "/accent" : doc->theme ? "/theme" : "";
    qr_layout_addf(l, QR_LAYOUT_CONTRAST, path, 0, slide, r,
                   "%s: #%s on #%s has a contrast of %ld.%02ld:1, below WCAG AA's %s:1", what, a, b,
                   hund / 100, hund % 100, large ? "3" : "4.5");
}

void qr_contrast_accent_warn(const qr_doc *doc, qr_errlist *warnings)
{
    if (!doc || !warnings || doc->kind == QR_KIND_PRESENTATION || doc->kind == QR_KIND_SPREADSHEET)
        return;
    const char *what;
    uint32_t drawn = qr_style_accent_text(doc->theme, doc->accent, &what);
    if (!what) return;
    qr_style s = qr_style_of(doc);
    uint32_t a = (uint32_t)doc->accent & 0xFFFFFF;
    char ah[7], gh[7], dh[7];
    qr_style_hex(a, ah);
    qr_style_hex(s.background, gh);
    qr_style_hex(drawn, dh);
    double r = qr_style_contrast(a, s.background);
    long hund = (long)(r * 100.0 + 0.5);
    char hint[96];
    snprintf(hint, sizeof hint, "choose an accent with a contrast of at least 4.5:1 on #%s", gh);
    qr_errlist_addf(warnings, QR_OK, "/accent", hint,
                    "the accent #%s has a contrast of %ld.%02ld:1 on the page's #%s, too low to "
                    "read: %s are drawn in #%s instead",
                    ah, hund / 100, hund % 100, gh, what, dh);
}

void qr_contrast_report(const qr_doc *doc, qr_layout_list *l)
{
    if (!l || !doc) return;
    qr_style s = qr_style_of(doc);
    uint32_t bg = s.background;
    check(l, doc, s.text, bg, 0, 0, 0, "body text");
    check(l, doc, s.title, bg, 1, s.title == s.accent, 0, "the title");
    check(l, doc, s.link, bg, 0, s.link == s.accent, 0, "links");
    if (doc->kind == QR_KIND_PRESENTATION) {
        /* slide tables' header row and section slides: on_accent on the accent */
        int section = 0, table = 0;
        for (size_t i = 0; i < doc->n_slides; i++) {
            section |= doc->slides[i].layout == QR_LAYOUT_SECTION;
            table |= doc->slides[i].table != NULL;
        }
        if ((section && s.section_fill) || table)
            check(l, doc, s.on_accent, s.accent, !table, 1, 0, "text on the accent");
        /* the deck's ground (every slide without its own) under the theme's text */
        if (doc->has_background) {
            double r = qr_style_contrast(s.text, doc->background);
            if (r < 4.5) {
                char a[7], b[7];
                qr_style_hex(s.text, a);
                qr_style_hex(doc->background, b);
                long hund = (long)(r * 100.0 + 0.5);
                qr_layout_addf(l, QR_LAYOUT_CONTRAST, "/background", 0, 0, r,
                               "text #%s on the deck's background #%s has a contrast of "
                               "%ld.%02ld:1, below WCAG AA's 4.5:1",
                               a, b, hund / 100, hund % 100);
            }
        }
        /* a slide's own ground under the theme's text and titles */
        for (size_t i = 0; i < doc->n_slides; i++) {
            const qr_slide *sl = &doc->slides[i];
            if (!sl->has_background) continue;
            char path[200];
            snprintf(path, sizeof path, "%s/background", sl->path);
            uint32_t ink = sl->layout == QR_LAYOUT_SECTION && s.section_fill ? s.on_accent : s.text;
            double r = qr_style_contrast(ink, sl->background);
            if (r >= 4.5) continue;
            char a[7], b[7];
            qr_style_hex(ink, a);
            qr_style_hex(sl->background, b);
            long hund = (long)(r * 100.0 + 0.5);
            qr_layout_addf(l, QR_LAYOUT_CONTRAST, path, 0, (int)i + 1, r,
                           "text #%s on the slide's background #%s has a contrast of %ld.%02ld:1, "
                           "below WCAG AA's 4.5:1",
                           a, b, hund / 100, hund % 100);
        }
        return;
    }
    if (doc->kind == QR_KIND_SPREADSHEET) return;
    /* the smallest heading level decides whether headings are large */
    check(l, doc, s.heading, bg, s.heading_pt[5] >= 18.0, s.heading == s.accent, 0, "headings");
}
