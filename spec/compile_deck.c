/* compile_deck.c: presentation specs. Top-level title/lang/size, and slides
 * with a layout, title, subtitle, bullets (nested items), notes, and an
 * optional image or table (the block shapes, "type" optional); the quote
 * layout's quote and attribution, the stats layout's 2 to 4 stats, the
 * two_content and comparison layouts' "left" and "right" columns (each one
 * of bullets, image, table or chart; comparison's under a "heading"), the
 * image_full layout's image and caption, the agenda's items and current
 * item. Each layout takes only its own content (takes[] below). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_int.h"
#include "schema.h"

/* Keys: the schema table's (schema_table.c). */

/* A slide title or subtitle: a plain string. */
static void slide_text(qr_cc *cc, json_t *v, const char *key, int *has, qr_text *out)
{
    json_t *t = json_object_get(v, key);
    if (!t) return;
    size_t o = qr_cc_push_key(cc, key);
    if (qr_cc_text_plain(cc, t, out) >= 0) *has = 1;
    qr_cc_pop(cc, o);
}

/* The content keys and the layouts that take them ("title", "notes" and
 * "layout" go on every slide). */
static const struct {
    const char *key;
    unsigned layouts; /* bits 1u << qr_layout */
    const char *use;  /* the layout to name in the hint */
} takes[] = {
#define OLD                                                                                        \
    ((1u << QR_LAYOUT_TITLE_CONTENT) | (1u << QR_LAYOUT_TITLE) | (1u << QR_LAYOUT_SECTION) |       \
     (1u << QR_LAYOUT_BLANK))
    {"subtitle", OLD | (1u << QR_LAYOUT_CLOSING), "title_content"},
    {"bullets", OLD, "title_content"},
    {"image", OLD | (1u << QR_LAYOUT_IMAGE_FULL), "title_content"},
    {"table", OLD, "title_content"},
    {"chart", OLD, "title_content"},
    {"quote", 1u << QR_LAYOUT_QUOTE, "quote"},
    {"attribution", 1u << QR_LAYOUT_QUOTE, "quote"},
    {"stats", 1u << QR_LAYOUT_STATS, "stats"},
    {"left", (1u << QR_LAYOUT_TWO_CONTENT) | (1u << QR_LAYOUT_COMPARISON), "two_content"},
    {"right", (1u << QR_LAYOUT_TWO_CONTENT) | (1u << QR_LAYOUT_COMPARISON), "two_content"},
    {"caption", 1u << QR_LAYOUT_IMAGE_FULL, "image_full"},
    {"items", 1u << QR_LAYOUT_AGENDA, "agenda"},
    {"current", 1u << QR_LAYOUT_AGENDA, "agenda"},
#undef OLD
};

/* Refuse the content a layout does not take; 1 when something was refused. */
static int check_takes(qr_cc *cc, json_t *v, qr_layout lay)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof takes / sizeof takes[0]; i++) {
        if (!json_object_get(v, takes[i].key) || (takes[i].layouts & (1u << lay))) continue;
        char hint[160];
        snprintf(hint, sizeof hint, "leave \"%s\" out, or use \"layout\": \"%s\"", takes[i].key,
                 takes[i].use);
        const char *name = qr_enum_layouts[lay];
        qr_cc_err_key(cc, takes[i].key, hint, "%s %s slide does not take \"%s\"",
                      strchr("aeiou", name[0]) ? "an" : "a", name, takes[i].key);
        bad = 1;
    }
    return bad;
}

/* The stats of a stats slide: 2 to 4 {value, label, caption}. */
static void slide_stats(qr_cc *cc, json_t *v, qr_slide *s)
{
    json_t *st = json_object_get(v, "stats");
    if (!st) {
        qr_cc_err(cc, "add \"stats\": [{\"value\": \"42%\", \"label\": \"...\"}, ...]",
                  "a stats slide needs \"stats\"");
        return;
    }
    size_t o = qr_cc_push_key(cc, "stats");
    size_t n = json_is_array(st) ? json_array_size(st) : 0;
    if (!json_is_array(st)) {
        qr_cc_err(cc, "stats is an array of {\"value\", \"label\", \"caption\"}",
                  "expected an array of stats, got %s", qr_cc_type_name(st));
    } else if (n < 2 || n > 4) {
        qr_cc_err(cc,
                  n > 4 ? "split them over two stats slides" : "add another, or use title_content",
                  "a stats slide shows 2 to 4 stats, got %zu", n);
    } else {
        qr_stat *ss = qr_arena_array(cc->a, n, sizeof *ss);
        if (!ss) {
            qr_cc_oom(cc);
            qr_cc_pop(cc, o);
            return;
        }
        for (size_t i = 0; i < n; i++) {
            size_t o2 = qr_cc_push_index(cc, i);
            json_t *e = json_array_get(st, i);
            if (!json_is_object(e)) {
                qr_cc_err(
                    cc, "a stat is {\"value\": \"42%\", \"label\": \"...\", \"caption\": \"...\"}",
                    "expected a stat object, got %s", qr_cc_type_name(e));
            } else {
                qr_cc_check_obj(cc, e, QR_SO_STAT, "a stat");
                int has = 0;
                slide_text(cc, e, "value", &has, &ss[i].value);
                if (!json_object_get(e, "value"))
                    qr_cc_err(cc, "add \"value\": \"42%\"", "a stat needs \"value\"");
                else if (has && !ss[i].value.n)
                    qr_cc_err_key(cc, "value", "write the number to show", "the value is empty");
                slide_text(cc, e, "label", &has, &ss[i].label);
                slide_text(cc, e, "caption", &has, &ss[i].caption);
            }
            qr_cc_pop(cc, o2);
        }
        s->stats = ss;
        s->n_stats = n;
    }
    qr_cc_pop(cc, o);
}

/* A slide's "image" or "table" may say its type; if it does it must match. */
static int type_matches(qr_cc *cc, json_t *obj, const char *want)
{
    json_t *t = json_object_get(obj, "type");
    if (!t) return 1;
    if (json_is_string(t) && strcmp(json_string_value(t), want) == 0) return 1;
    qr_cc_err_key(cc, "type", "leave \"type\" out, or set it to match the key", "expected \"%s\"",
                  want);
    return 0;
}

static int image_at(qr_cc *cc, json_t *v, const char *key, const qr_image **out)
{
    size_t o = qr_cc_push_key(cc, key);
    int bad = 0;
    if (!json_is_object(v)) {
        qr_cc_err(cc, "image is {\"src\": \"data:image/png;base64,...\", \"alt\": \"...\"}",
                  "expected an image object, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return -1;
    }
    int unk = qr_cc_check_obj(cc, v, QR_SO_SLIDE_IMAGE, "a slide image");
    bad |= unk > 0;
    bad |= !type_matches(cc, v, "image");
    qr_image *img = qr_arena_alloc(cc->a, sizeof *img);
    if (!img) {
        qr_cc_oom(cc);
        qr_cc_pop(cc, o);
        return -1;
    }
    img->path = qr_cc_path(cc);
    bad |= qr_cc_image_fields(cc, v, img, unk);
    *out = img;
    qr_cc_pop(cc, o);
    return bad ? -1 : 0;
}

static int slide_image(qr_cc *cc, json_t *v, const qr_image **out)
{
    return image_at(cc, v, "image", out);
}

/* "background" of a slide or the deck: "#RRGGBB" or an image object. */
static void ground(qr_cc *cc, json_t *obj, int *has, uint32_t *rgb, const qr_image **img)
{
    json_t *v = json_object_get(obj, "background");
    if (!v) return;
    if (json_is_object(v)) {
        image_at(cc, v, "background", img);
        return;
    }
    const char *bg = NULL;
    size_t bn = 0;
    if (!json_is_string(v)) {
        qr_cc_err_key(cc, "background",
                      "write \"#RRGGBB\", or an image {\"src\": \"...\", \"alt\": \"...\"}",
                      "expected a colour or an image, got %s", qr_cc_type_name(v));
        return;
    }
    if (qr_cc_get_string(cc, obj, "background", 0, &bg, &bn) != 1) return;
    int ok = bn == 7 && bg[0] == '#';
    for (size_t i = 1; ok && i < 7; i++)
        ok = isxdigit((unsigned char)bg[i]) != 0;
    if (!ok) {
        qr_cc_err_key(cc, "background", "write the colour as \"#RRGGBB\", e.g. \"#0F172A\"",
                      "\"%.40s\" is not a colour", bg);
    } else {
        *has = 1;
        *rgb = (uint32_t)strtol(bg + 1, NULL, 16);
    }
}

static int slide_table(qr_cc *cc, json_t *v, const qr_table **out)
{
    size_t o = qr_cc_push_key(cc, "table");
    int bad = 0;
    if (!json_is_object(v)) {
        qr_cc_err(cc, "table is {\"headers\": [...], \"rows\": [[...]]}",
                  "expected a table object, got %s", qr_cc_type_name(v));
        qr_cc_pop(cc, o);
        return -1;
    }
    int unk = qr_cc_check_obj(cc, v, QR_SO_SLIDE_TABLE, "a slide table");
    bad |= unk > 0;
    bad |= !type_matches(cc, v, "table");
    qr_table *t = qr_arena_alloc(cc->a, sizeof *t);
    if (!t) {
        qr_cc_oom(cc);
        qr_cc_pop(cc, o);
        return -1;
    }
    bad |= qr_cc_table(cc, v, unk, t) < 0;
    *out = t;
    qr_cc_pop(cc, o);
    return bad ? -1 : 0;
}

static void slide_chart(qr_cc *cc, json_t *ch, const qr_chart **out)
{
    size_t o = qr_cc_push_key(cc, "chart");
    qr_chart *c = qr_arena_alloc(cc->a, sizeof *c);
    if (!c)
        qr_cc_oom(cc);
    else if (qr_cc_chart(cc, ch, QR_CC_CHART_SLIDE, c) == 0)
        *out = c;
    qr_cc_pop(cc, o);
}

/* A column of a two_content or comparison slide: exactly one of bullets,
 * image, table or chart; a heading on comparison (and only there). */
static void slide_column(qr_cc *cc, json_t *v, const char *key, qr_layout lay, qr_column *col)
{
    static const char *const kinds[] = {"bullets", "image", "table", "chart"};
    json_t *c = json_object_get(v, key);
    if (!c) {
        qr_cc_err(
            cc,
            "add it: {\"bullets\": [...]}, {\"image\": ...}, {\"table\": ...} or {\"chart\": ...}",
            "a %s slide needs \"%s\"", qr_enum_layouts[lay], key);
        return;
    }
    size_t o = qr_cc_push_key(cc, key);
    col->path = qr_cc_path(cc);
    if (!json_is_object(c)) {
        qr_cc_err(cc,
                  "a column is {\"bullets\": [\"...\"]} or {\"image\": ...}, {\"table\": ...}, "
                  "{\"chart\": ...}",
                  "expected a column object, got %s", qr_cc_type_name(c));
        qr_cc_pop(cc, o);
        return;
    }
    if (qr_cc_check_obj(cc, c, QR_SO_COLUMN, "a column") > 0) {
        qr_cc_pop(cc, o);
        return;
    }
    int n = 0;
    for (size_t k = 0; k < 4; k++)
        n += json_object_get(c, kinds[k]) != NULL;
    if (n != 1) {
        if (n)
            qr_cc_err(cc, "keep one; put the others on another slide",
                      "a column holds one of bullets, image, table or chart, got %d", n);
        else
            qr_cc_err(cc, "add \"bullets\", \"image\", \"table\" or \"chart\"",
                      "the column is empty");
        qr_cc_pop(cc, o);
        return;
    }
    if (lay == QR_LAYOUT_COMPARISON && !json_object_get(c, "heading"))
        qr_cc_err(cc, "add \"heading\": \"...\", or use \"layout\": \"two_content\"",
                  "a comparison column needs \"heading\"");
    else if (lay == QR_LAYOUT_TWO_CONTENT && json_object_get(c, "heading"))
        qr_cc_err_key(cc, "heading", "leave \"heading\" out, or use \"layout\": \"comparison\"",
                      "a two_content column has no heading");
    else
        slide_text(cc, c, "heading", &col->has_heading, &col->heading);
    json_t *x;
    if ((x = json_object_get(c, "bullets")) != NULL) {
        size_t o2 = qr_cc_push_key(cc, "bullets");
        qr_cc_items(cc, x, 1, 1, &col->bullets, &col->n_bullets);
        qr_cc_pop(cc, o2);
    }
    if ((x = json_object_get(c, "image")) != NULL) slide_image(cc, x, &col->image);
    if ((x = json_object_get(c, "table")) != NULL) slide_table(cc, x, &col->table);
    if ((x = json_object_get(c, "chart")) != NULL) slide_chart(cc, x, &col->chart);
    qr_cc_pop(cc, o);
}

/* An agenda's items (plain strings, at least one) and the current one. */
static void slide_agenda(qr_cc *cc, json_t *v, qr_slide *s)
{
    json_t *it = json_object_get(v, "items");
    if (!it) {
        qr_cc_err(cc, "add \"items\": [\"Intro\", \"Results\", \"Next steps\"]",
                  "an agenda slide needs \"items\"");
        return;
    }
    size_t o = qr_cc_push_key(cc, "items");
    size_t n = json_is_array(it) ? json_array_size(it) : 0;
    if (!json_is_array(it)) {
        qr_cc_err(cc, "items is an array of strings", "expected an array of items, got %s",
                  qr_cc_type_name(it));
    } else if (n == 0) {
        qr_cc_err(cc, "add an item, or leave the agenda out", "the agenda has no items");
    } else if (qr_cc_check_blocks(cc, n, "agenda items")) {
        qr_text *ts = qr_arena_array(cc->a, n, sizeof *ts);
        if (!ts) {
            qr_cc_oom(cc);
        } else {
            for (size_t i = 0; i < n; i++) {
                size_t o2 = qr_cc_push_index(cc, i);
                json_t *e = json_array_get(it, i);
                if (!json_is_string(e))
                    qr_cc_err(cc, "an agenda item is a string", "expected a string, got %s",
                              qr_cc_type_name(e));
                else
                    qr_cc_text_plain(cc, e, &ts[i]);
                qr_cc_pop(cc, o2);
            }
            s->agenda = ts;
            s->n_agenda = n;
        }
    }
    qr_cc_pop(cc, o);
    json_t *cur = json_object_get(v, "current");
    if (!cur) return;
    if (!json_is_integer(cur) || json_integer_value(cur) < 0 ||
        (n && (size_t)json_integer_value(cur) >= n)) {
        char hint[96];
        snprintf(hint, sizeof hint, "use an index into items: 0 (the first) to %zu", n ? n - 1 : 0);
        qr_cc_err_key(cc, "current", hint, "\"current\" is not the index of an item");
        return;
    }
    s->current = (long)json_integer_value(cur);
}

static void slide(qr_cc *cc, json_t *v, qr_slide *s)
{
    s->path = qr_cc_path(cc);
    s->current = -1;
    if (!json_is_object(v)) {
        qr_cc_err(cc, "a slide is {\"title\": \"...\", \"bullets\": [\"...\"]}",
                  "expected a slide object, got %s", qr_cc_type_name(v));
        return;
    }
    qr_cc_check_obj(cc, v, QR_SO_SLIDE, "a slide");
    /* a Markdown body: compiled as the bullets, table and image it stands for */
    json_t *md = NULL;
    size_t e0 = cc->errs->count, w0 = cc->warns ? cc->warns->count : 0;
    if (json_object_get(v, "markdown") && (md = qr_cc_md_slide(cc, v)) != NULL) v = md;
    json_t *layout = json_object_get(v, "layout");
    if (layout) {
        int found = -1;
        if (json_is_string(layout))
            for (int i = 0; qr_enum_layouts[i]; i++)
                if (strcmp(json_string_value(layout), qr_enum_layouts[i]) == 0) found = i;
        if (found < 0) {
            char hint[160], all[320];
            const char *sug = json_is_string(layout)
                                  ? qr_suggest(json_string_value(layout), qr_enum_layouts)
                                  : NULL;
            qr_enum_list(qr_enum_layouts, 0, ", ", all, sizeof all);
            if (sug)
                snprintf(hint, sizeof hint, "did you mean \"%s\"?", sug);
            else
                snprintf(hint, sizeof hint, "use one of them; \"title_content\" is the default");
            qr_cc_err_key(cc, "layout", hint, "unknown layout; valid layouts are %s", all);
        } else {
            /* qr_enum_layouts[] is in qr_layout order. */
            s->layout = (qr_layout)found;
        }
    }
    if (check_takes(cc, v, s->layout)) goto done; /* a Markdown body's copy is dropped there */
    ground(cc, v, &s->has_background, &s->background, &s->background_image);
    json_t *ft = json_object_get(v, "footer");
    if (ft && json_is_false(ft)) {
        s->footer_mode = QR_FOOTER_NONE;
    } else if (ft) {
        int has = 0;
        slide_text(cc, v, "footer", &has, &s->footer);
        if (has) s->footer_mode = QR_FOOTER_OWN;
    }
    slide_text(cc, v, "title", &s->has_title, &s->title);
    slide_text(cc, v, "subtitle", &s->has_subtitle, &s->subtitle);
    if (s->layout == QR_LAYOUT_QUOTE) {
        slide_text(cc, v, "quote", &s->has_quote, &s->quote);
        if (!json_object_get(v, "quote"))
            qr_cc_err(cc, "add \"quote\": \"...\" (and \"attribution\")",
                      "a quote slide needs \"quote\"");
        slide_text(cc, v, "attribution", &s->has_attribution, &s->attribution);
    }
    if (s->layout == QR_LAYOUT_STATS) slide_stats(cc, v, s);
    json_t *bullets = json_object_get(v, "bullets");
    if (bullets) {
        size_t o = qr_cc_push_key(cc, "bullets");
        qr_cc_items(cc, bullets, 1, 0, &s->bullets, &s->n_bullets);
        qr_cc_pop(cc, o);
    }
    const char *notes = NULL;
    size_t n_notes = 0;
    if (qr_cc_get_string(cc, v, "notes", 0, &notes, &n_notes) == 1) {
        s->has_notes = 1;
        s->notes = qr_cc_plain_at(cc, "notes", notes, n_notes);
    }
    json_t *img = json_object_get(v, "image");
    if (img) slide_image(cc, img, &s->image);
    json_t *tab = json_object_get(v, "table");
    if (tab) slide_table(cc, tab, &s->table);
    json_t *ch = json_object_get(v, "chart");
    if (ch) slide_chart(cc, ch, &s->chart);
    if (s->layout == QR_LAYOUT_IMAGE_FULL) {
        if (!img)
            qr_cc_err(cc, "add \"image\": {\"src\": \"...\", \"alt\": \"...\"}",
                      "an image_full slide needs \"image\"");
        slide_text(cc, v, "caption", &s->has_caption, &s->caption);
    }
    if (s->layout == QR_LAYOUT_TWO_CONTENT || s->layout == QR_LAYOUT_COMPARISON) {
        slide_column(cc, v, "left", s->layout, &s->cols[0]);
        slide_column(cc, v, "right", s->layout, &s->cols[1]);
    }
    if (s->layout == QR_LAYOUT_AGENDA) slide_agenda(cc, v, s);
done:
    if (md) {
        qr_cc_md_slide_done(cc, e0, w0, s->path);
        json_decref(md);
    }
}

void qr_cc_presentation(qr_cc *cc, json_t *root)
{
    qr_doc *doc = cc->doc;
    doc->wide = 1;
    qr_cc_check_obj(cc, root, QR_SO_DECK, "a presentation spec");
    qr_cc_title_lang(cc, root);
    slide_text(cc, root, "footer", &doc->has_footer, &doc->footer);
    slide_text(cc, root, "date", &doc->has_date, &doc->date);
    qr_cc_get_bool(cc, root, "slide_numbers", &doc->slide_numbers);
    ground(cc, root, &doc->has_background, &doc->background, &doc->background_image);
    json_t *logo = json_object_get(root, "logo");
    if (logo) image_at(cc, logo, "logo", &doc->logo);
    json_t *size = json_object_get(root, "size");
    if (size) {
        const char *s = json_is_string(size) ? json_string_value(size) : "";
        if (strcmp(s, "16:9") == 0)
            doc->wide = 1;
        else if (strcmp(s, "4:3") == 0)
            doc->wide = 0;
        else
            qr_cc_err_key(cc, "size", "use \"16:9\" (default) or \"4:3\"",
                          "expected \"16:9\" or \"4:3\", got %s%.20s%s", *s ? "\"" : "",
                          *s ? s : qr_cc_type_name(size), *s ? "\"" : "");
    }
    json_t *slides = json_object_get(root, "slides");
    if (!slides) {
        qr_cc_err(cc, "add \"slides\": [{\"title\": \"...\", \"bullets\": [\"...\"]}]",
                  "missing \"slides\"");
        return;
    }
    size_t o = qr_cc_push_key(cc, "slides");
    if (!json_is_array(slides)) {
        qr_cc_err(cc, "slides is an array of slide objects", "expected an array of slides, got %s",
                  qr_cc_type_name(slides));
        qr_cc_pop(cc, o);
        return;
    }
    size_t n = json_array_size(slides);
    if (!qr_cc_check_blocks(cc, n, "slides")) {
        qr_cc_pop(cc, o);
        return;
    }
    qr_slide *ss = n ? qr_arena_array(cc->a, n, sizeof *ss) : NULL;
    if (n && !ss) {
        qr_cc_oom(cc);
        qr_cc_pop(cc, o);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        size_t o2 = qr_cc_push_index(cc, i);
        slide(cc, json_array_get(slides, i), &ss[i]);
        qr_cc_pop(cc, o2);
    }
    qr_cc_pop(cc, o);
    doc->slides = ss;
    doc->n_slides = n;
}
