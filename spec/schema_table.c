/* schema_table.c: the spec language's objects and keys, declared once
 * (schema.h says who reads this table and how).
 *
 * Keys are listed in canonical order: canonical JSON prints them so ("type"
 * first). A key's schema is JSON Schema text; "#/$defs/NAME" names an
 * object of this table by its name, or an entry of qr_schema_defs.
 *
 * To add a block type (as "chart" was):
 *  1. add QR_BLOCK_CHART at the end of qr_block_type in tree.h (and move
 *     QR_BLOCK_LAST);
 *  2. add QR_SO_CHART to qr_sobj_id in schema.h (before QR_SO_COUNT);
 *  3. add its keys below (chart_keys, "type" first, canonical order), its
 *     qr_schema_objs entry and its qr_schema_blocks entry (enum order);
 *     the _Static_assert below then holds again;
 *  4. compile it in compile_doc.c's block() (qr_cc_check_obj with
 *     QR_SO_CHART checks its keys). Canonical JSON and `quire schema`
 *     follow from the table.
 */
#include <string.h>

#include "schema.h"

#include <stdio.h>

#define S_STR "{\"type\":\"string\"}"
#define S_BOOL "{\"type\":\"boolean\"}"
#define S_RUNS "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/run\"}}"
#define S_ITEMS "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/item\"}}"
#define S_CELLS "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/cell\"}}"
#define S_ROWS "{\"type\":\"array\",\"items\":" S_CELLS "}"
#define S_WIDTHS "{\"type\":\"array\",\"items\":{\"type\":\"number\",\"exclusiveMinimum\":0}}"
#define S_MARGIN "{\"type\":\"number\",\"minimum\":0,\"maximum\":10000}"
#define S_LANG "{\"type\":\"string\",\"pattern\":\"^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$\"}"
#define S_ALIGN "{\"enum\":[\"auto\",\"left\",\"center\",\"right\"]}"
#define S_COLOR "{\"type\":\"string\",\"pattern\":\"^#[0-9A-Fa-f]{6}$\"}"
#define S_GROUND "{\"anyOf\":[" S_COLOR ",{\"$ref\":\"#/$defs/slide_image\"}]}"
#define K_ID K("id", X, N, "{\"$ref\":\"#/$defs/id\"}", NULL)
#define K_CAPTION K("caption", X, QR_SO_RUN, "{\"$ref\":\"#/$defs/caption\"}", NULL)
#define TEXT_OR_RUNS "{\"oneOf\":[{\"required\":[\"text\"]},{\"required\":[\"runs\"]}]}"

enum { R = QR_SK_REQUIRED, X = QR_SK_EXT, N = QR_SO_NONE };

/* ---- allowed values (schema.h): the one list of each ---------------------------- */

const char *const qr_theme_names[] = {"plain", "report", "light", "dark", NULL};
_Static_assert(sizeof qr_theme_names / sizeof *qr_theme_names == QR_THEME_COUNT + 1,
               "one name per theme");
const char *const qr_enum_chart_types[] = {"bar", "column",   "line",    "area",
                                           "pie", "doughnut", "scatter", NULL};
_Static_assert(sizeof qr_enum_chart_types / sizeof *qr_enum_chart_types == QR_CHART_SCATTER + 2,
               "one name per chart type");
const char *const qr_enum_layouts[] = {"title_content", "title",      "section", "blank",
                                       "quote",         "stats",      "closing", "two_content",
                                       "comparison",    "image_full", "agenda",  NULL};
_Static_assert(sizeof qr_enum_layouts / sizeof *qr_enum_layouts == QR_LAYOUT_COUNT + 1,
               "one name per layout");
const char *const qr_enum_legends[] = {"bottom", "right", "top", "left", "none", NULL};
_Static_assert(sizeof qr_enum_legends / sizeof *qr_enum_legends == QR_LEGEND_NONE + 2,
               "one name per legend position");

const char *const qr_enum_orientations[] = {"portrait", "landscape", NULL};
const char *const qr_enum_papers[] = {"letter", "legal", "tabloid", "a3", "a4", "a5", NULL};
_Static_assert(sizeof qr_enum_papers / sizeof *qr_enum_papers == QR_PAPER_A5 + 1,
               "one name per paper size");

#define K(name, flags, child, schema, desc)                                                        \
    {                                                                                              \
        name, flags, child, schema, desc                                                           \
    }
/* A key whose value is one of the strings of values (schema.h's qr_enum_*). */
#define KV(name, flags, values, desc)                                                              \
    {                                                                                              \
        name, flags, N, NULL, desc, values                                                         \
    }
#define OBJ(id, name, desc, extra, keys)                                                           \
    [id] = {name, desc, extra, keys, sizeof keys / sizeof keys[0]}

void qr_enum_list(const char *const *values, int quoted, const char *last, char *buf, size_t size)
{
    size_t n = 0, len = 0;
    while (values[n])
        n++;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 1 < size; i++) {
        const char *q = quoted ? "\"" : "";
        int w = snprintf(buf + len, size - len, "%s%s%s%s",
                         i == 0       ? ""
                         : i + 1 == n ? last
                                      : ", ",
                         q, values[i], q);
        if (w < 0) break;
        len += (size_t)w;
    }
}

/* ---- document, pdf, html ---------------------------------------------------------- */

static const qr_skey document_keys[] = {
    K("title", 0, N, S_STR, "metadata title"),
    K("lang", X, N, S_LANG, "BCP 47 tag"),
    KV("theme", X, qr_theme_names, "default plain"),
    K("accent", X, N, "{\"type\":\"string\",\"pattern\":\"^#[0-9A-Fa-f]{6}$\"}", "#RRGGBB"),
    K("numbered_headings", X, N, "{\"type\":\"boolean\"}", "1, 1.1, 1.1.1 before headings"),
    K("notes", X, N, "{\"enum\":[\"footnotes\",\"endnotes\"]}",
      "where footnotes go; default footnotes"),
    K("properties", X, QR_SO_PROPS, "{\"$ref\":\"#/$defs/properties\"}", NULL),
    K("page", X, QR_SO_PAGE, "{\"$ref\":\"#/$defs/page\"}", NULL),
    K("sections", 0, QR_SO_SECTION, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/section\"}}",
      "legacy; before blocks"),
    K("blocks", 0, QR_SO_BLOCK, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/block\"}}",
      NULL),
};
/* A header or footer template: "{name}" only for the known fields (the
 * compiler's check, spec/compile_doc.c); other braces are text. */
#define S_FURN                                                                                     \
    "{\"type\":\"string\",\"pattern\":\"^(?:[^{]|\\\\{(?:page|pages|title|date)\\\\}|"             \
    "\\\\{(?![A-Za-z0-9_]+\\\\}))*$\"}"
static const qr_skey page_keys[] = {
    K("size", 0, N,
      "{\"type\":\"string\",\"pattern\":\"^([Ll][Ee][Tt][Tt][Ee][Rr]|[Aa][45]|[Ll][Ee][Gg][Aa][Ll])"
      "$\"}",
      "Letter (default), A4, A5, Legal"),
    K("orientation", 0, N,
      "{\"type\":\"string\",\"pattern\":\"^([Pp][Oo][Rr][Tt][Rr][Aa][Ii][Tt]|"
      "[Ll][Aa][Nn][Dd][Ss][Cc][Aa][Pp][Ee])$\"}",
      "portrait or landscape"),
    K("margins", 0, QR_SO_MARGINS, "{\"anyOf\":[" S_MARGIN ",{\"$ref\":\"#/$defs/margins\"}]}",
      "points, all sides or each"),
    K("header", 0, N, S_FURN, "text atop every page; fields {page} {pages} {title} {date}"),
    K("footer", 0, N, S_FURN, "default \"{page} / {pages}\"; \"\" for none"),
    K("first_page", 0, N, "{\"type\":\"boolean\"}", "false: no header or footer on page 1"),
};
static const qr_skey props_keys[] = {
    K("author", 0, N, S_STR, NULL),
    K("subject", 0, N, S_STR, NULL),
    K("keywords", 0, N, "{\"anyOf\":[" S_STR ",{\"type\":\"array\",\"items\":" S_STR "}]}", NULL),
    K("date", 0, N,
      "{\"type\":\"string\",\"pattern\":\"^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)"
      "?$\"}",
      "2026-03-01"),
};
static const qr_skey margins_keys[] = {
    K("top", 0, N, S_MARGIN, NULL),
    K("right", 0, N, S_MARGIN, NULL),
    K("bottom", 0, N, S_MARGIN, NULL),
    K("left", 0, N, S_MARGIN, NULL),
};
static const qr_skey section_keys[] = {
    K("heading", 0, N, S_STR, NULL),
    K("paragraphs", 0, N, "{\"type\":\"array\",\"items\":" S_STR "}", NULL),
};
static const qr_skey heading_keys[] = {
    K("type", R, N, NULL, NULL),
    K("level", 0, N, "{\"type\":\"integer\",\"minimum\":1,\"maximum\":6}",
      "1-6; default 1 (html 2)"),
    K("text", 0, N, S_STR, "plain text, literal"),
    K("runs", X, QR_SO_RUN, S_RUNS, "formatted text"),
    K_ID,
};
static const qr_skey paragraph_keys[] = {
    K("type", R, N, NULL, NULL),
    K("text", 0, N, S_STR, "plain text, literal"),
    K("runs", X, QR_SO_RUN, S_RUNS, "formatted text"),
    K_ID,
};
static const qr_skey list_keys[] = {
    K("type", R, N, NULL, NULL),
    K("ordered", 0, N, S_BOOL, NULL),
    K("start", X, N, "{\"type\":\"integer\",\"minimum\":1,\"maximum\":1000000}",
      "an ordered list's first number"),
    K("items", R, QR_SO_ITEM,
      "{\"type\":\"array\",\"minItems\":1,\"items\":{\"$ref\":\"#/$defs/item\"}}",
      "up to 9 levels"),
    K_ID,
};
static const qr_skey table_keys[] = {
    K("type", R, N, NULL, NULL),
    K("headers", 0, QR_SO_TCELL, S_CELLS, NULL),
    K("rows", R, QR_SO_TCELL, S_ROWS, NULL),
    K("widths", X, N, S_WIDTHS, "relative, one per column"),
    K("align", X, N, "{\"type\":\"array\",\"items\":{\"anyOf\":[" S_ALIGN ",{\"type\":\"null\"}]}}",
      "per column; numbers right by default"),
    K("header_rows", X, N, "{\"type\":\"integer\",\"minimum\":0}",
      "top rows repeated on each page; default 1 with headers"),
    K_ID,
    K_CAPTION,
};
static const qr_skey code_keys[] = {
    K("type", R, N, NULL, NULL),
    K("text", R, N, S_STR, NULL),
    K("language", 0, N, S_STR, NULL),
    K_ID,
    K_CAPTION,
};
static const qr_skey image_keys[] = {
    K("type", R, N, NULL, NULL),
    K("src", R, N, S_STR, "data: URI or a relative path; PNG or JPEG"),
    K("alt", 0, N, S_STR, NULL),
    K("width", X, N,
      "{\"anyOf\":[{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":10000},"
      "{\"type\":\"string\",\"pattern\":\"^[0-9]+(\\\\.[0-9]+)?%$\"}]}",
      "points, or \"50%\" of the column"),
    K("align", X, N, S_ALIGN, "left, center or right"),
    K_ID,
    K_CAPTION,
};
static const qr_skey page_break_keys[] = {
    K("type", R, N, NULL, NULL),
    K_ID,
};
static const qr_skey quote_keys[] = {
    K("type", R, N, NULL, NULL),
    K("text", 0, N, S_STR, "plain text, literal"),
    K("runs", X, QR_SO_RUN, S_RUNS, "formatted text"),
    K("attribution", 0, N, S_STR, "who said it"),
    K_ID,
};
static const qr_skey callout_keys[] = {
    K("type", R, N, NULL, NULL),
    K("tone", 0, N, "{\"enum\":[\"note\",\"tip\",\"warning\",\"important\"]}", "default note"),
    K("title", 0, N, S_STR, "default: the tone's name"),
    K("text", 0, N, S_STR, "plain text, literal"),
    K("runs", X, QR_SO_RUN, S_RUNS, "formatted text"),
    K_ID,
};
static const qr_skey rule_keys[] = {
    K("type", R, N, NULL, NULL),
    K_ID,
};
static const qr_skey toc_keys[] = {
    K("type", R, N, NULL, NULL),
    K("title", 0, N, S_STR, "default Contents"),
    K("levels", 0, N, "{\"type\":\"integer\",\"minimum\":1,\"maximum\":6}", "default 3"),
    K_ID,
};
static const qr_skey markdown_keys[] = {
    K("type", R, N, NULL, NULL),
    K("text", R, N, S_STR, "GitHub Flavored Markdown; raw HTML stays literal"),
    K("heading_offset", X, N, "{\"type\":\"integer\",\"minimum\":0,\"maximum\":5}",
      "added to heading levels"),
};
static const qr_skey run_keys[] = {
    K("text", 0, N, S_STR, "required, but not with footnote or ref"),
    K("bold", 0, N, S_BOOL, NULL),
    K("italic", 0, N, S_BOOL, NULL),
    K("underline", 0, N, S_BOOL, NULL),
    K("strike", 0, N, S_BOOL, NULL),
    K("code", 0, N, S_BOOL, "monospace"),
    K("link", 0, N,
      "{\"type\":\"string\",\"pattern\":\"^(([Hh][Tt][Tt][Pp][Ss]?|[Mm][Aa][Ii][Ll][Tt][Oo]):|#)"
      "\"}",
      "https:, http:, mailto: or #id"),
    K("sup", X, N, S_BOOL, "superscript"),
    K("sub", X, N, S_BOOL, "subscript"),
    K("color", X, N, S_COLOR, "#RRGGBB"),
    K("highlight", X, N, S_COLOR, "#RRGGBB background"),
    K("footnote", X, QR_SO_RUN, "{\"anyOf\":[" S_STR "," S_RUNS "]}", "a numbered note"),
    K("ref", X, N, "{\"$ref\":\"#/$defs/id\"}", "prints the target's label, linked"),
};
static const qr_skey item_keys[] = {
    K("text", 0, N, S_STR, NULL),
    K("runs", X, QR_SO_RUN, S_RUNS, NULL),
    K("items", 0, QR_SO_ITEM, S_ITEMS, "nested items"),
    K("checked", X, N, S_BOOL, "a task item (bullet lists): a box, ticked when true"),
};
static const qr_skey tcell_keys[] = {
    K("text", 0, N, S_STR, NULL),
    K("runs", 0, QR_SO_RUN, S_RUNS, NULL),
    K("colspan", X, N, "{\"type\":\"integer\",\"minimum\":1,\"maximum\":1000}", "documents"),
    K("rowspan", X, N, "{\"type\":\"integer\",\"minimum\":1,\"maximum\":65535}", "documents"),
    K("align", X, N, S_ALIGN, "documents"),
    K("fill", X, N, S_COLOR, "documents; #RRGGBB ground"),
    K("bold", X, N, S_BOOL, "documents"),
};

/* ---- charts (a document's block, a slide's "chart", a sheet's "charts") ------------ */

#define S_NUMS "{\"type\":\"array\",\"maxItems\":4000,\"items\":{\"type\":\"number\"}}"
#define S_NUMS_OR_RANGE "{\"anyOf\":[" S_NUMS ",{\"type\":\"string\",\"pattern\":\"!\"}]}"
#define S_LABELS "{\"type\":\"array\",\"maxItems\":4000,\"items\":" S_STR "}"
#define S_SERIES                                                                                   \
    "{\"type\":\"array\",\"minItems\":1,\"maxItems\":255,\"items\":{\"$ref\":\"#/$defs/"           \
    "series\"}}"
#define CHART_KEYS(categories, values_note)                                                        \
    KV("chart", R, qr_enum_chart_types, NULL), K("title", 0, N, S_STR, NULL),                      \
        K("categories", 0, N, categories, "one label per point"),                                  \
        K("series", R, QR_SO_SERIES, S_SERIES, values_note), K("x_title", 0, N, S_STR, NULL),      \
        K("y_title", 0, N, S_STR, NULL), KV("legend", 0, qr_enum_legends, "default bottom"),       \
        K("number_format", 0, N, S_STR, "Excel format, #,##0"),                                    \
        K("labels", 0, N, S_BOOL, "data labels"), K("stacked", 0, N, S_BOOL, NULL),                \
        K("percent", 0, N, S_BOOL, "stacked to 100%")

static const qr_skey chart_keys[] = {
    K("type", R, N, NULL, NULL),
    CHART_KEYS(S_LABELS, NULL),
    K("alt", 0, N, S_STR, NULL),
    K_ID,
    K_CAPTION,
};
static const qr_skey slide_chart_keys[] = {
    K("type", 0, N, "{\"const\":\"chart\"}", NULL),
    CHART_KEYS(S_LABELS, NULL),
    K("alt", 0, N, S_STR, NULL),
};
static const qr_skey series_keys[] = {
    K("name", 0, N, S_STR, NULL),
    K("values", 0, N, S_NUMS_OR_RANGE, "numbers; on a sheet also a range \"Q3!B2:B9\""),
    K("x", 0, N, S_NUMS_OR_RANGE, "scatter"),
    K("y", 0, N, S_NUMS_OR_RANGE, "scatter"),
    K("color", 0, N, "{\"type\":\"string\",\"pattern\":\"^#[0-9A-Fa-f]{6}$\"}", NULL),
};
static const qr_skey sheet_chart_keys[] = {
    K("type", 0, N, "{\"const\":\"chart\"}", NULL),
    CHART_KEYS("{\"anyOf\":[" S_LABELS ",{\"type\":\"string\",\"pattern\":\"!\"}]}",
               "values: numbers or a range"),
    K("anchor", 0, N, "{\"type\":\"string\",\"pattern\":\"^[A-Za-z]{1,3}[1-9][0-9]{0,6}$\"}",
      "top-left cell"),
    K("width", 0, N, "{\"type\":\"number\",\"exclusiveMinimum\":0}", NULL),
    K("height", 0, N, "{\"type\":\"number\",\"exclusiveMinimum\":0}", NULL),
    K("alt", 0, N, S_STR, NULL),
};

/* ---- presentation ------------------------------------------------------------------ */

static const qr_skey deck_keys[] = {
    K("title", 0, N, S_STR, "metadata title"),
    K("lang", X, N, S_LANG, "BCP 47 tag"),
    KV("theme", X, qr_theme_names, "default plain"),
    K("accent", X, N, "{\"type\":\"string\",\"pattern\":\"^#[0-9A-Fa-f]{6}$\"}", "#RRGGBB"),
    K("size", X, N, "{\"enum\":[\"16:9\",\"4:3\"]}", "default 16:9"),
    K("footer", X, N, S_STR, "text along the bottom of every slide"),
    K("date", X, N, S_STR, "a date, as written, bottom left of every slide"),
    K("slide_numbers", X, N, "{\"type\":\"boolean\"}", "the slide's number, bottom right"),
    K("background", X, QR_SO_SLIDE_IMAGE, S_GROUND, "every slide's ground: #RRGGBB or an image"),
    K("logo", X, QR_SO_SLIDE_IMAGE, "{\"$ref\":\"#/$defs/slide_image\"}",
      "a picture in the top right corner of every slide"),
    K("slides", R, QR_SO_SLIDE, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/slide\"}}",
      NULL),
};
static const qr_skey slide_keys[] = {
    KV("layout", X, qr_enum_layouts, "default title_content"),
    K("title", 0, N, S_STR, NULL),
    K("subtitle", X, N, S_STR, NULL),
    K("bullets", 0, QR_SO_ITEM, S_ITEMS, "levels through items"),
    K("image", X, QR_SO_SLIDE_IMAGE, "{\"$ref\":\"#/$defs/slide_image\"}", NULL),
    K("table", X, QR_SO_SLIDE_TABLE, "{\"$ref\":\"#/$defs/slide_table\"}", NULL),
    K("chart", X, QR_SO_SLIDE_CHART, "{\"$ref\":\"#/$defs/slide_chart\"}", NULL),
    K("background", X, QR_SO_SLIDE_IMAGE, S_GROUND, "the slide's ground: #RRGGBB or an image"),
    K("footer", X, N, "{\"anyOf\":[{\"type\":\"string\"},{\"const\":false}]}",
      "this slide's footer text; false: no footer, date or number"),
    K("quote", X, N, S_STR, "layout quote: the quotation"),
    K("attribution", X, N, S_STR, "layout quote: who said it"),
    K("stats", X, QR_SO_STAT,
      "{\"type\":\"array\",\"minItems\":2,\"maxItems\":4,\"items\":{\"$ref\":\"#/$defs/"
      "stat\"}}",
      "layout stats: 2 to 4 big numbers"),
    K("left", X, QR_SO_COLUMN, "{\"$ref\":\"#/$defs/column\"}",
      "layouts two_content, comparison: the left column"),
    K("right", X, QR_SO_COLUMN, "{\"$ref\":\"#/$defs/column\"}", "and the right column"),
    K("caption", X, N, S_STR, "layout image_full: a line under the title"),
    K("items", X, N, "{\"type\":\"array\",\"minItems\":1,\"items\":" S_STR "}",
      "layout agenda: the items, numbered"),
    K("current", X, N, "{\"type\":\"integer\",\"minimum\":0}",
      "layout agenda: the index of the item to highlight"),
    K("notes", 0, N, S_STR, "speaker notes"),
    K("markdown", X, N, S_STR, "the body as Markdown: bullets, a table, an image"),
};
static const qr_skey stat_keys[] = {
    K("value", R, N, S_STR, "the number as shown: \"42%\""),
    K("label", 0, N, S_STR, NULL),
    K("caption", 0, N, S_STR, NULL),
};
static const qr_skey column_keys[] = {
    K("heading", X, N, S_STR, "comparison: the column's heading"),
    K("bullets", X, QR_SO_ITEM, S_ITEMS, NULL),
    K("image", X, QR_SO_SLIDE_IMAGE, "{\"$ref\":\"#/$defs/slide_image\"}", NULL),
    K("table", X, QR_SO_SLIDE_TABLE, "{\"$ref\":\"#/$defs/slide_table\"}", NULL),
    K("chart", X, QR_SO_SLIDE_CHART, "{\"$ref\":\"#/$defs/slide_chart\"}", NULL),
};
static const qr_skey slide_image_keys[] = {
    K("type", 0, N, "{\"const\":\"image\"}", NULL),
    K("src", R, N, S_STR, "data: URI or a relative path; PNG or JPEG"),
    K("alt", 0, N, S_STR, NULL),
};
static const qr_skey slide_table_keys[] = {
    K("type", 0, N, "{\"const\":\"table\"}", NULL),
    K("headers", 0, QR_SO_TCELL, S_CELLS, NULL),
    K("rows", R, QR_SO_TCELL, S_ROWS, NULL),
    K("widths", 0, N, S_WIDTHS, "relative, one per column"),
};

/* ---- spreadsheet ------------------------------------------------------------------- */

#define S_COLOR "{\"type\":\"string\",\"pattern\":\"^#[0-9A-Fa-f]{6}$\"}"
#define S_BORDER_KIND                                                                              \
    "{\"enum\":[\"none\",\"thin\",\"medium\",\"thick\",\"double\",\"dashed\",\"dotted\"]}"
#define LOOK_KEYS                                                                                  \
    K("bold", X, N, S_BOOL, NULL), K("italic", X, N, S_BOOL, NULL),                                \
        K("underline", X, N, S_BOOL, NULL), K("color", X, N, S_COLOR, NULL),                       \
        K("fill", X, N, S_COLOR, NULL),                                                            \
        K("border", X, QR_SO_BORDER,                                                               \
          "{\"anyOf\":[" S_BORDER_KIND ",{\"$ref\":\"#/$defs/border\"}]}", NULL),                  \
        K("align", X, N, "{\"enum\":[\"general\",\"left\",\"center\",\"right\"]}", NULL),          \
        K("valign", X, N, "{\"enum\":[\"bottom\",\"top\",\"center\"]}", NULL),                     \
        K("wrap", X, N, S_BOOL, NULL),                                                             \
        K("indent", X, N, "{\"type\":\"integer\",\"minimum\":0,\"maximum\":15}", NULL),            \
        K("rotate", X, N, "{\"type\":\"integer\",\"minimum\":-90,\"maximum\":90}", "degrees")
#define S_RANGE                                                                                    \
    "{\"type\":\"string\",\"pattern\":\"^[A-Za-z]{1,3}[1-9][0-9]*:[A-Za-z]{1,3}[1-9][0-9]*$\"}"
#define S_COLS "{\"type\":\"string\",\"pattern\":\"^[A-Za-z]{1,3}(:[A-Za-z]{1,3})?$\"}"
#define S_CELL_OR_RANGE                                                                            \
    "{\"type\":\"string\",\"pattern\":\"^[A-Za-z]{1,3}[1-9][0-9]*(:[A-Za-z]{1,3}[1-9][0-9]*)?$\"}"
#define S_STYLE_NAME "{\"type\":\"string\",\"minLength\":1}"

static const qr_skey workbook_keys[] = {
    K("title", X, N, S_STR, "metadata title"),
    K("lang", X, N, S_LANG, "BCP 47 tag"),
    KV("theme", X, qr_theme_names, "default plain"),
    K("accent", X, N, "{\"type\":\"string\",\"pattern\":\"^#[0-9A-Fa-f]{6}$\"}", "#RRGGBB"),
    K("styles", X, N, "{\"type\":\"object\",\"additionalProperties\":{\"$ref\":\"#/$defs/style\"}}",
      "named cell styles; built in: header, total, input, note, good, bad, neutral"),
    K("names", X, N, "{\"type\":\"object\",\"additionalProperties\":" S_STR "}",
      "defined names: {\"Revenue\": \"Data!$B$2:$B$13\"}"),
    K("allow_external", X, N, S_BOOL,
      "formulas may call WEBSERVICE, DDE, other workbooks, any link scheme"),
    K("sheets", R, QR_SO_SHEET, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/sheet\"}}",
      NULL),
};
static const qr_skey sheet_keys[] = {
    K("name", 0, N,
      "{\"type\":\"string\",\"minLength\":1,\"maxLength\":31,"
      "\"pattern\":\"^[^'\\\\[\\\\]:*?/\\\\\\\\]([^\\\\[\\\\]:*?/\\\\\\\\]*[^'\\\\[\\\\]:*?/"
      "\\\\\\\\])?$\"}",
      "unique; default SheetN"),
    K("header", X, N, S_BOOL, "bold, frozen first row"),
    K("freeze", X, N, "{\"type\":\"string\",\"pattern\":\"^[A-Za-z]{1,3}[1-9][0-9]{0,6}$\"}",
      "first cell that scrolls, A2"),
    K("widths", X, N,
      "{\"type\":\"array\",\"items\":{\"type\":\"number\",\"exclusiveMinimum\":0,"
      "\"maximum\":255}}",
      "characters"),
    K("columns", X, N, "{\"type\":\"array\",\"items\":" S_STR "}", "a header row"),
    K("rows", R, QR_SO_CELL,
      "{\"type\":\"array\",\"items\":{\"anyOf\":[{\"type\":\"array\",\"items\":{\"$ref\":\"#/"
      "$defs/sheet_cell\"}},{\"$ref\":\"#/$defs/sheet_row_object\"}]}}",
      "ragged rows are fine"),
    K("merge", X, N, "{\"type\":\"array\",\"items\":" S_RANGE "}", "merged ranges, A1:F1"),
    K("autofilter", X, N, "{\"anyOf\":[" S_BOOL "," S_RANGE "]}", "true: the used range"),
    K("tab_color", X, N, S_COLOR, NULL),
    K("conditional", X, QR_SO_COND,
      "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/conditional\"}}",
      "conditional formats, first wins"),
    K("names", X, N, "{\"type\":\"object\",\"additionalProperties\":" S_STR "}",
      "names local to the sheet: {\"Rate\": \"$B$1\"}"),
    K("validation", X, QR_SO_VALID,
      "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/validation\"}}", "what cells accept"),
    K("tables", X, QR_SO_XTABLE, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/xtable\"}}",
      "Excel tables over ranges"),
    K("hidden_columns", X, N, "{\"type\":\"array\",\"items\":" S_COLS "}", "C or C:E"),
    K("grouped_columns", X, N, "{\"type\":\"array\",\"items\":" S_COLS "}", "outline groups, C:E"),
    K("column_styles", X, N,
      "{\"type\":\"array\",\"items\":{\"anyOf\":[{\"type\":\"null\"}," S_STYLE_NAME
      ",{\"$ref\":\"#/$defs/style\"}]}}",
      "per column: a style name or properties"),
    K("charts", X, QR_SO_SHEET_CHART,
      "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/sheet_chart\"}}", "anchored charts"),
    K("print", X, QR_SO_PRINT, "{\"$ref\":\"#/$defs/print\"}", NULL),
};
#define S_FIT "{\"type\":\"integer\",\"minimum\":1,\"maximum\":32767}"
#define S_HF "{\"anyOf\":[{\"type\":\"string\",\"maxLength\":255},{\"$ref\":\"#/$defs/hf\"}]}"
static const qr_skey print_keys[] = {
    KV("orientation", X, qr_enum_orientations, NULL),
    KV("paper", X, qr_enum_papers, NULL),
    K("fit_width", X, N, S_FIT, "pages across"),
    K("fit_height", X, N, S_FIT, "pages down"),
    K("repeat_rows", X, N,
      "{\"anyOf\":[{\"type\":\"integer\",\"minimum\":1},{\"type\":\"string\",\"pattern\":"
      "\"^[1-9][0-9]*:[1-9][0-9]*$\"}]}",
      "first N rows, or 3:4"),
    K("repeat_cols", X, N, "{\"anyOf\":[{\"type\":\"integer\",\"minimum\":1}," S_COLS "]}",
      "first N columns, or A:B"),
    K("gridlines", X, N, S_BOOL, NULL),
    K("area", X, N, S_RANGE, NULL),
    K("header", X, QR_SO_HF, S_HF, "{page} {pages} {sheet}"),
    K("footer", X, QR_SO_HF, S_HF, NULL),
    K("margins", X, QR_SO_MARGINS, "{\"$ref\":\"#/$defs/margins\"}", NULL),
};
static const qr_skey hf_keys[] = {
    K("left", X, N, S_STR, NULL),
    K("center", X, N, S_STR, NULL),
    K("right", X, N, S_STR, NULL),
};
static const qr_skey row_keys[] = {
    K("style", X, N, S_STYLE_NAME, "the whole row's style"),
    K("hidden", X, N, S_BOOL, NULL),
    K("outline", X, N, "{\"type\":\"integer\",\"minimum\":0,\"maximum\":7}", "group level"),
    K("cells", R, QR_SO_CELL, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/sheet_cell\"}}",
      NULL),
};
static const qr_skey style_keys[] = {
    LOOK_KEYS,
    K("format", X, N, "{\"type\":\"string\",\"minLength\":1,\"maxLength\":255}", "#,##0"),
};
static const qr_skey cond_keys[] = {
    K("range", R, N, S_CELL_OR_RANGE, "C2:C100, or one cell"),
    K("rule", R, N, "{\"enum\":[\"cell\",\"formula\",\"color_scale\",\"data_bar\"]}", NULL),
    K("op", X, N, "{\"enum\":[\"<\",\"<=\",\">\",\">=\",\"=\",\"!=\",\"between\",\"not_between\"]}",
      "cell"),
    K("value", X, N,
      "{\"anyOf\":[{\"type\":[\"number\",\"string\"]},{\"type\":\"array\",\"items\":{"
      "\"type\":\"number\"},\"minItems\":2,\"maxItems\":2}]}",
      "cell; [low, high] for between"),
    K("formula", X, N, "{\"type\":\"string\",\"minLength\":1}", "formula: for the top-left cell"),
    K("style", X, N, S_STYLE_NAME, "cell, formula: the look of a match"),
    LOOK_KEYS,
    K("colors", X, N, "{\"type\":\"array\",\"items\":" S_COLOR ",\"minItems\":2,\"maxItems\":3}",
      "color_scale: low, [mid,] high"),
    K("bar_color", X, N, S_COLOR, "data_bar"),
};
#define S_BOUNDS(T)                                                                                \
    "{\"type\":\"object\",\"properties\":{\"min\":" T ",\"max\":" T                                \
    "},\"additionalProperties\":false,\"minProperties\":1}"
static const qr_skey valid_keys[] = {
    K("range", R, N, S_CELL_OR_RANGE, NULL),
    K("list", X, N,
      "{\"type\":\"array\",\"minItems\":1,\"items\":{\"type\":[\"string\",\"number\"]}}",
      "allowed values"),
    K("number", X, N, S_BOUNDS("{\"type\":\"number\"}"), "min, max"),
    K("whole", X, N, S_BOUNDS("{\"type\":\"integer\"}"), "min, max"),
    K("date", X, N, S_BOUNDS("{\"type\":\"string\"}"), "min, max: YYYY-MM-DD"),
    K("prompt", X, N, "{\"type\":\"string\",\"maxLength\":255}", "shown on selecting"),
    K("error", X, N, "{\"type\":\"string\",\"maxLength\":225}", "shown on a refused value"),
    K("blank", X, N, S_BOOL, "empty allowed, default true"),
};
static const qr_skey xtable_keys[] = {
    K("range", R, N, S_RANGE, "its header row and data rows"),
    K("name", R, N, "{\"type\":\"string\",\"minLength\":1,\"maxLength\":255}",
      "unique in the workbook"),
    K("style", X, N, "{\"type\":\"string\",\"pattern\":\"^(none|(light|medium|dark)[0-9]{1,2})$\"}",
      "medium2 (default), light1-21, medium1-28, dark1-11, none"),
    K("totals", X, N,
      "{\"type\":\"object\",\"additionalProperties\":{\"anyOf\":[{\"enum\":[\"sum\","
      "\"average\",\"count\",\"count_nums\",\"min\",\"max\"]},{\"type\":\"object\","
      "\"properties\":{\"label\":{\"type\":\"string\"}},\"required\":[\"label\"],"
      "\"additionalProperties\":false}]}}",
      "a totals row: {\"Region\": {\"label\": \"Total\"}, \"Revenue\": \"sum\"}"),
};
static const qr_skey border_keys[] = {
    K("left", X, N, S_BORDER_KIND, NULL), K("right", X, N, S_BORDER_KIND, NULL),
    K("top", X, N, S_BORDER_KIND, NULL),  K("bottom", X, N, S_BORDER_KIND, NULL),
    K("color", X, N, S_COLOR, "#RRGGBB"),
};
static const qr_skey cell_keys[] = {
    K("value", X, N, "{\"type\":[\"string\",\"number\",\"boolean\",\"null\"]}", NULL),
    K("date", X, N,
      "{\"type\":\"string\",\"pattern\":\"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T "
      "][0-9]{2}:[0-9]{2}(:[0-9]{2})?)?$\"}",
      "2026-11-30 or 2026-11-30T14:05:00"),
    K("formula", X, N, "{\"type\":\"string\",\"minLength\":1,\"maxLength\":8193}", "SUM(B2:B9)"),
    K("format", X, N, "{\"type\":\"string\",\"minLength\":1,\"maxLength\":255}", "0.0%"),
    K("style", X, N, S_STYLE_NAME, "a named style"),
    K("link", X, N, "{\"type\":\"string\",\"minLength\":1,\"maxLength\":2079}",
      "https:, http:, mailto: or #'Sheet 2'!A1"),
    K("comment", X, N, "{\"type\":\"string\",\"minLength\":1}", "a note on the cell"),
    LOOK_KEYS,
};

/* ---- the edit payload --------------------------------------------------------------- */

static const qr_skey edit_keys[] = {
    K("spec_patch", 0, N, "{\"type\":\"object\"}", "RFC 7386 merge patch; null deletes"),
    K("spec_append", 0, N, "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\"}}",
      "{key: [items]} appends to top-level lists"),
    K("ops", X, QR_SO_OP, "{\"type\":\"array\",\"items\":{\"$ref\":\"#/$defs/op\"}}",
      "RFC 6902 JSON Patch"),
};
static const qr_skey op_keys[] = {
    K("op", R, N, "{\"enum\":[\"add\",\"remove\",\"replace\",\"move\",\"copy\",\"test\"]}", NULL),
    K("path", R, N, S_STR, "JSON pointer: /slides/2/title, /sheets/0/rows/-"),
    K("from", 0, N, S_STR, "move, copy"),
    K("value", 0, N, "{}", "add, replace, test"),
};

/* What each layout takes (spec/compile_deck.c's takes[]): the content each
 * needs ("quote", "stats", "left" and "right", "image", "items") and none of
 * the others' content; comparison columns have a heading, two_content's
 * none. Made by scripts/gen-slide-takes.py from the same table. */
#define SLIDE_TAKES                                                                                \
    "{\"allOf\":[{\"if\":{\"not\":{\"required\":[\"layout\"]}},\"then\":{\"not\":{\"anyOf"         \
    "\":[{\"required\":[\"quote\"]},{\"required\":[\"attribution\"]},{\"required\":[\"sta"         \
    "ts\"]},{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"required\":[\"caption"         \
    "\"]},{\"required\":[\"items\"]},{\"required\":[\"current\"]}]}}},{\"if\":{\"properti"         \
    "es\":{\"layout\":{\"const\":\"title_content\"}},\"required\":[\"layout\"]},\"then\":"         \
    "{\"not\":{\"anyOf\":[{\"required\":[\"quote\"]},{\"required\":[\"attribution\"]},{\""         \
    "required\":[\"stats\"]},{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"requ"         \
    "ired\":[\"caption\"]},{\"required\":[\"items\"]},{\"required\":[\"current\"]}]}}},{"          \
    "\"if\":{\"properties\":{\"layout\":{\"const\":\"title\"}},\"required\":[\"layout\"]}"         \
    ",\"then\":{\"not\":{\"anyOf\":[{\"required\":[\"quote\"]},{\"required\":[\"attributi"         \
    "on\"]},{\"required\":[\"stats\"]},{\"required\":[\"left\"]},{\"required\":[\"right\""         \
    "]},{\"required\":[\"caption\"]},{\"required\":[\"items\"]},{\"required\":[\"current"          \
    "\"]}]}}},{\"if\":{\"properties\":{\"layout\":{\"const\":\"section\"}},\"required\":["         \
    "\"layout\"]},\"then\":{\"not\":{\"anyOf\":[{\"required\":[\"quote\"]},{\"required\":"         \
    "[\"attribution\"]},{\"required\":[\"stats\"]},{\"required\":[\"left\"]},{\"required"          \
    "\":[\"right\"]},{\"required\":[\"caption\"]},{\"required\":[\"items\"]},{\"required"          \
    "\":[\"current\"]}]}}},{\"if\":{\"properties\":{\"layout\":{\"const\":\"blank\"}},\"r"         \
    "equired\":[\"layout\"]},\"then\":{\"not\":{\"anyOf\":[{\"required\":[\"quote\"]},{\""         \
    "required\":[\"attribution\"]},{\"required\":[\"stats\"]},{\"required\":[\"left\"]},{"         \
    "\"required\":[\"right\"]},{\"required\":[\"caption\"]},{\"required\":[\"items\"]},{"          \
    "\"required\":[\"current\"]}]}}},{\"if\":{\"properties\":{\"layout\":{\"const\":\"quo"         \
    "te\"}},\"required\":[\"layout\"]},\"then\":{\"allOf\":[{\"required\":[\"quote\"]},{"          \
    "\"not\":{\"anyOf\":[{\"required\":[\"subtitle\"]},{\"required\":[\"bullets\"]},{\"re"         \
    "quired\":[\"image\"]},{\"required\":[\"table\"]},{\"required\":[\"chart\"]},{\"requi"         \
    "red\":[\"stats\"]},{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"required"          \
    "\":[\"caption\"]},{\"required\":[\"items\"]},{\"required\":[\"current\"]}]}}]}},{\"i"         \
    "f\":{\"properties\":{\"layout\":{\"const\":\"stats\"}},\"required\":[\"layout\"]},\""         \
    "then\":{\"allOf\":[{\"required\":[\"stats\"]},{\"not\":{\"anyOf\":[{\"required\":[\""         \
    "subtitle\"]},{\"required\":[\"bullets\"]},{\"required\":[\"image\"]},{\"required\":["         \
    "\"table\"]},{\"required\":[\"chart\"]},{\"required\":[\"quote\"]},{\"required\":[\"a"         \
    "ttribution\"]},{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"required\":["          \
    "\"caption\"]},{\"required\":[\"items\"]},{\"required\":[\"current\"]}]}}]}},{\"if\":"         \
    "{\"properties\":{\"layout\":{\"const\":\"closing\"}},\"required\":[\"layout\"]},\"th"         \
    "en\":{\"not\":{\"anyOf\":[{\"required\":[\"bullets\"]},{\"required\":[\"image\"]},{"          \
    "\"required\":[\"table\"]},{\"required\":[\"chart\"]},{\"required\":[\"quote\"]},{\"r"         \
    "equired\":[\"attribution\"]},{\"required\":[\"stats\"]},{\"required\":[\"left\"]},{"          \
    "\"required\":[\"right\"]},{\"required\":[\"caption\"]},{\"required\":[\"items\"]},{"          \
    "\"required\":[\"current\"]}]}}},{\"if\":{\"properties\":{\"layout\":{\"const\":\"two"         \
    "_content\"}},\"required\":[\"layout\"]},\"then\":{\"allOf\":[{\"required\":[\"left\""         \
    "]},{\"required\":[\"right\"]},{\"not\":{\"anyOf\":[{\"required\":[\"subtitle\"]},{\""         \
    "required\":[\"bullets\"]},{\"required\":[\"image\"]},{\"required\":[\"table\"]},{\"r"         \
    "equired\":[\"chart\"]},{\"required\":[\"quote\"]},{\"required\":[\"attribution\"]},{"         \
    "\"required\":[\"stats\"]},{\"required\":[\"caption\"]},{\"required\":[\"items\"]},{"          \
    "\"required\":[\"current\"]}]}},{\"properties\":{\"left\":{\"not\":{\"required\":[\"h"         \
    "eading\"]}},\"right\":{\"not\":{\"required\":[\"heading\"]}}}}]}},{\"if\":{\"propert"         \
    "ies\":{\"layout\":{\"const\":\"comparison\"}},\"required\":[\"layout\"]},\"then\":{"          \
    "\"allOf\":[{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"not\":{\"anyOf\":"         \
    "[{\"required\":[\"subtitle\"]},{\"required\":[\"bullets\"]},{\"required\":[\"image\""         \
    "]},{\"required\":[\"table\"]},{\"required\":[\"chart\"]},{\"required\":[\"quote\"]},"         \
    "{\"required\":[\"attribution\"]},{\"required\":[\"stats\"]},{\"required\":[\"caption"         \
    "\"]},{\"required\":[\"items\"]},{\"required\":[\"current\"]}]}},{\"properties\":{\"l"         \
    "eft\":{\"required\":[\"heading\"]},\"right\":{\"required\":[\"heading\"]}}}]}},{\"if"         \
    "\":{\"properties\":{\"layout\":{\"const\":\"image_full\"}},\"required\":[\"layout\"]"         \
    "},\"then\":{\"allOf\":[{\"required\":[\"image\"]},{\"not\":{\"anyOf\":[{\"required\""         \
    ":[\"subtitle\"]},{\"required\":[\"bullets\"]},{\"required\":[\"table\"]},{\"required"         \
    "\":[\"chart\"]},{\"required\":[\"quote\"]},{\"required\":[\"attribution\"]},{\"requi"         \
    "red\":[\"stats\"]},{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"required"          \
    "\":[\"items\"]},{\"required\":[\"current\"]}]}}]}},{\"if\":{\"properties\":{\"layout"         \
    "\":{\"const\":\"agenda\"}},\"required\":[\"layout\"]},\"then\":{\"allOf\":[{\"requir"         \
    "ed\":[\"items\"]},{\"not\":{\"anyOf\":[{\"required\":[\"subtitle\"]},{\"required\":["         \
    "\"bullets\"]},{\"required\":[\"image\"]},{\"required\":[\"table\"]},{\"required\":["          \
    "\"chart\"]},{\"required\":[\"quote\"]},{\"required\":[\"attribution\"]},{\"required"          \
    "\":[\"stats\"]},{\"required\":[\"left\"]},{\"required\":[\"right\"]},{\"required\":["         \
    "\"caption\"]}]}}]}}]}"

const qr_sobj qr_schema_objs[QR_SO_COUNT] = {
    OBJ(QR_SO_DOCUMENT, "document", "a document, pdf or html spec",
        "{\"anyOf\":[{\"required\":[\"blocks\"]},{\"required\":[\"sections\"]}]}", document_keys),
    OBJ(QR_SO_PAGE, "page", "page settings", NULL, page_keys),
    OBJ(QR_SO_MARGINS, "margins", "margins in points", NULL, margins_keys),
    OBJ(QR_SO_SECTION, "section", "legacy: a heading and paragraphs", NULL, section_keys),
    OBJ(QR_SO_HEADING, "heading", NULL, TEXT_OR_RUNS, heading_keys),
    OBJ(QR_SO_PARAGRAPH, "paragraph", NULL, TEXT_OR_RUNS, paragraph_keys),
    OBJ(QR_SO_LIST, "list", NULL, NULL, list_keys),
    OBJ(QR_SO_TABLE, "table", "cells: string, number, boolean, null or {text|runs}", NULL,
        table_keys),
    OBJ(QR_SO_CODE, "code", NULL, NULL, code_keys),
    OBJ(QR_SO_IMAGE, "image", NULL, NULL, image_keys),
    OBJ(QR_SO_PAGE_BREAK, "page_break", NULL, NULL, page_break_keys),
    OBJ(QR_SO_RUN, "run_object", NULL,
        "{\"oneOf\":[{\"required\":[\"text\"]},{\"required\":[\"footnote\"]},"
        "{\"required\":[\"ref\"]}]}",
        run_keys),
    OBJ(QR_SO_ITEM, "item_object", NULL, TEXT_OR_RUNS, item_keys),
    OBJ(QR_SO_TCELL, "cell_object", NULL, TEXT_OR_RUNS, tcell_keys),
    OBJ(QR_SO_CHART, "chart", "a native chart", NULL, chart_keys),
    OBJ(QR_SO_SLIDE_CHART, "slide_chart", "a native chart on the slide", NULL, slide_chart_keys),
    OBJ(QR_SO_SERIES, "series", "values (or x and y for scatter)", NULL, series_keys),
    OBJ(QR_SO_SHEET_CHART, "sheet_chart", "a chart anchored at a cell", NULL, sheet_chart_keys),
    OBJ(QR_SO_PROPS, "properties", "document properties", NULL, props_keys),
    OBJ(QR_SO_QUOTE, "quote", "a block quotation", TEXT_OR_RUNS, quote_keys),
    OBJ(QR_SO_CALLOUT, "callout", "a boxed note, tip, warning or important remark", TEXT_OR_RUNS,
        callout_keys),
    OBJ(QR_SO_RULE, "rule", "a horizontal rule", NULL, rule_keys),
    OBJ(QR_SO_TOC, "toc", "a table of contents with page numbers", NULL, toc_keys),
    OBJ(QR_SO_DECK, "presentation", "a presentation spec", NULL, deck_keys),
    OBJ(QR_SO_SLIDE, "slide", NULL, SLIDE_TAKES, slide_keys),
    OBJ(QR_SO_SLIDE_IMAGE, "slide_image", NULL, NULL, slide_image_keys),
    OBJ(QR_SO_SLIDE_TABLE, "slide_table", NULL, NULL, slide_table_keys),
    OBJ(QR_SO_STAT, "stat", "one big number of a stats slide", NULL, stat_keys),
    OBJ(QR_SO_COLUMN, "column", "one of bullets, image, table or chart, under a heading",
        "{\"oneOf\":[{\"required\":[\"bullets\"]},{\"required\":[\"image\"]},"
        "{\"required\":[\"table\"]},{\"required\":[\"chart\"]}]}",
        column_keys),
    OBJ(QR_SO_WORKBOOK, "spreadsheet", "a spreadsheet spec", NULL, workbook_keys),
    OBJ(QR_SO_SHEET, "sheet", NULL, NULL, sheet_keys),
    OBJ(QR_SO_CELL, "sheet_cell_object", "value, date or formula (+ value), with a look",
        "{\"minProperties\":1,\"not\":{\"required\":[\"date\"],\"anyOf\":[{\"required\":[\"value\"]"
        "},{"
        "\"required\":[\"formula\"]}]}}",
        cell_keys),
    OBJ(QR_SO_ROW, "sheet_row_object", "a row with a style", NULL, row_keys),
    OBJ(QR_SO_STYLE, "style", "a cell style: any of these properties", NULL, style_keys),
    OBJ(QR_SO_BORDER, "border", "a border per side", NULL, border_keys),
    OBJ(QR_SO_COND, "conditional", "a conditional format over a range", NULL, cond_keys),
    OBJ(QR_SO_VALID, "validation", "a data validation: one of list, number, whole, date",
        "{\"oneOf\":[{\"required\":[\"list\"]},{\"required\":[\"number\"]},{\"required\":"
        "[\"whole\"]},{\"required\":[\"date\"]}]}",
        valid_keys),
    OBJ(QR_SO_XTABLE, "xtable", "an Excel table: a header row, data rows, maybe totals", NULL,
        xtable_keys),
    OBJ(QR_SO_PRINT, "print", NULL, NULL, print_keys),
    OBJ(QR_SO_HF, "hf", NULL, NULL, hf_keys),
    OBJ(QR_SO_EDIT, "edit", "an edit: applied patch, append, ops in that order", NULL, edit_keys),
    OBJ(QR_SO_OP, "op", NULL, NULL, op_keys),
    OBJ(QR_SO_MARKDOWN, "markdown", "Markdown compiled into blocks where it stands", NULL,
        markdown_keys),
};

const qr_sblock qr_schema_blocks[] = {
    [QR_BLOCK_HEADING] = {"heading", QR_SO_HEADING},
    [QR_BLOCK_PARAGRAPH] = {"paragraph", QR_SO_PARAGRAPH},
    [QR_BLOCK_LIST] = {"list", QR_SO_LIST},
    [QR_BLOCK_TABLE] = {"table", QR_SO_TABLE},
    [QR_BLOCK_CODE] = {"code", QR_SO_CODE},
    [QR_BLOCK_IMAGE] = {"image", QR_SO_IMAGE},
    [QR_BLOCK_PAGE_BREAK] = {"page_break", QR_SO_PAGE_BREAK},
    [QR_BLOCK_CHART] = {"chart", QR_SO_CHART},
    [QR_BLOCK_QUOTE] = {"quote", QR_SO_QUOTE},
    [QR_BLOCK_CALLOUT] = {"callout", QR_SO_CALLOUT},
    [QR_BLOCK_RULE] = {"rule", QR_SO_RULE},
    [QR_BLOCK_TOC] = {"toc", QR_SO_TOC},
    /* past the tree types: blocks compiled into other blocks */
    [QR_BLOCK_LAST + 1] = {"markdown", QR_SO_MARKDOWN},
};
const size_t qr_schema_n_blocks = sizeof qr_schema_blocks / sizeof qr_schema_blocks[0];
const int qr_schema_block_markdown = QR_BLOCK_LAST + 1;
/* One entry per qr_block_type (the last enum value names the count), then markdown. */
_Static_assert(sizeof qr_schema_blocks / sizeof qr_schema_blocks[0] == QR_BLOCK_LAST + 2,
               "one qr_schema_blocks entry per qr_block_type, then markdown");

const char *const qr_schema_defs[][2] = {
    {"run", "{\"anyOf\":[" S_STR ",{\"$ref\":\"#/$defs/run_object\"}]}"},
    {"item", "{\"anyOf\":[" S_STR ",{\"$ref\":\"#/$defs/item_object\"}]}"},
    {"id", "{\"type\":\"string\",\"pattern\":\"^[A-Za-z][A-Za-z0-9_.:-]{0,63}$\","
           "\"description\":\"a target of #id links and refs\"}"},
    {"caption",
     "{\"anyOf\":[" S_STR "," S_RUNS "],\"description\":\"numbered: Figure 1, Table 1\"}"},
    {"cell", "{\"anyOf\":[{\"type\":[\"string\",\"number\",\"boolean\",\"null\"]},"
             "{\"$ref\":\"#/$defs/cell_object\"}]}"},
    /* Any number the JSON reader takes (1e308 included). The compiler also
     * refuses an integer written in digits past +-2^53 (it would lose digits as
     * a spreadsheet number), which a JSON Schema cannot say: it sees values,
     * and 9007199254740993.0, a real quire takes, has that integer's value. */
    {"sheet_cell", "{\"anyOf\":[{\"type\":[\"string\",\"number\",\"boolean\",\"null\"],"
                   "\"description\":\"an integer past +-2^53 goes as a string\"},"
                   "{\"$ref\":\"#/$defs/sheet_cell_object\"}]}"},
    {NULL, NULL},
};

size_t qr_schema_names(qr_sobj_id id, const char **names)
{
    const qr_sobj *o = &qr_schema_objs[id];
    size_t n = 0;
    for (; n < o->n_keys && n < QR_SCHEMA_MAX_KEYS; n++)
        names[n] = o->keys[n].name;
    names[n] = NULL;
    return n;
}

const qr_skey *qr_schema_key(qr_sobj_id id, const char *key)
{
    if (id < 0 || id >= QR_SO_COUNT) return NULL;
    const qr_sobj *o = &qr_schema_objs[id];
    for (size_t i = 0; i < o->n_keys; i++)
        if (strcmp(o->keys[i].name, key) == 0) return &o->keys[i];
    return NULL;
}

int qr_schema_block(const char *name)
{
    for (size_t i = 0; i < qr_schema_n_blocks; i++)
        if (strcmp(qr_schema_blocks[i].name, name) == 0) return (int)i;
    return -1;
}

qr_sobj_id qr_schema_top(qr_kind kind)
{
    switch (kind) {
    case QR_KIND_PRESENTATION:
        return QR_SO_DECK;
    case QR_KIND_SPREADSHEET:
        return QR_SO_WORKBOOK;
    case QR_KIND_DOCUMENT:
    case QR_KIND_PDF:
    case QR_KIND_HTML:
    case QR_KIND_COUNT:
        break;
    }
    return QR_SO_DOCUMENT;
}
