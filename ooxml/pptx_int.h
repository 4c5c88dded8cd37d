/* pptx_int.h: what the pptx files share (never installed).
 *
 * The presentation backend is split by part: pptx.c (the backend constant,
 * the package, presentation.xml and the small property parts),
 * pptx_slide.c (slides: shapes, text bodies, runs, tables, pictures, placed
 * by layout/slide_layout.c), pptx_master.c (the slide master and the four
 * layouts), pptx_theme.c (the theme) and pptx_notes.c (notes master and
 * notes slides). Element writers are named after their element
 * (write_a_rpr writes <a:rPr>) and write children and attributes in the
 * order of pml.xsd / dml-main.xsd.
 *
 * Geometry is in EMU (914400 per inch, 12700 per point); font sizes in
 * hundredths of a point, as DrawingML writes them.
 */
#ifndef QR_PPTX_INT_H
#define QR_PPTX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "fonts.h"
#include "text.h"
#include "package.h"
#include "slide_layout.h"
#include "style.h"
#include "xml.h"

#define QR_NS_P "http://schemas.openxmlformats.org/presentationml/2006/main"

#define QR_CT_PPTX_BASE "application/vnd.openxmlformats-officedocument.presentationml."
#define QR_CT_PPTX_PRESENTATION QR_CT_PPTX_BASE "presentation.main+xml"
#define QR_CT_PPTX_SLIDE QR_CT_PPTX_BASE "slide+xml"
#define QR_CT_PPTX_LAYOUT QR_CT_PPTX_BASE "slideLayout+xml"
#define QR_CT_PPTX_MASTER QR_CT_PPTX_BASE "slideMaster+xml"
#define QR_CT_PPTX_NOTES_MASTER QR_CT_PPTX_BASE "notesMaster+xml"
#define QR_CT_PPTX_NOTES_SLIDE QR_CT_PPTX_BASE "notesSlide+xml"
#define QR_CT_PPTX_PRES_PROPS QR_CT_PPTX_BASE "presProps+xml"
#define QR_CT_PPTX_VIEW_PROPS QR_CT_PPTX_BASE "viewProps+xml"
#define QR_CT_PPTX_TABLE_STYLES QR_CT_PPTX_BASE "tableStyles+xml"

#define QR_REL_PRES_PROPS QR_REL_BASE "presProps"
#define QR_REL_VIEW_PROPS QR_REL_BASE "viewProps"
#define QR_REL_TABLE_STYLES QR_REL_BASE "tableStyles"

/* Fonts of the theme (latin, east Asian, complex) and of code runs. */
#define QR_PPTX_FONT_LATIN "DejaVu Sans"
#define QR_PPTX_FONT_EA "Noto Sans CJK SC"
#define QR_PPTX_FONT_CS "Noto Sans Arabic"

/* Geometry, level styles, sizes and the shrink-to-fit estimate live in
 * layout/slide_layout.h, shared with the PDF/PNG slide painter; these are
 * their pptx-side names. */
#define QR_PPTX_EMU_PER_PT QR_SLIDE_EMU_PER_PT
/* The notes page: 7.5 in x 10 in portrait. */
#define QR_PPTX_NOTES_CX QR_SLIDE_NOTES_CX
#define QR_PPTX_NOTES_CY QR_SLIDE_NOTES_CY
#define QR_PPTX_INS_LR QR_SLIDE_INS_LR
#define QR_PPTX_INS_TB QR_SLIDE_INS_TB
#define QR_PPTX_LEVELS QR_SLIDE_LEVELS

/* Layout parts, in the order written (slideLayoutN.xml, N = index + 1). */
enum {
    QR_PPTX_LAYOUT_TITLE,
    QR_PPTX_LAYOUT_CONTENT,
    QR_PPTX_LAYOUT_SECTION,
    QR_PPTX_LAYOUT_BLANK,
    QR_PPTX_N_LAYOUTS
};

typedef qr_slide_box qr_pptx_box;
typedef qr_slide_geom qr_pptx_geom;
#define qr_pptx_geom_init qr_slide_geom_init
#define qr_pptx_level_sz qr_slide_level_sz
#define qr_pptx_level_marl qr_slide_level_marl
#define qr_pptx_level_indent qr_slide_level_indent
#define qr_pptx_level_char qr_slide_level_char

#define QR_PPTX_SZ_TITLE QR_SLIDE_SZ_TITLE
#define QR_PPTX_SZ_CTR_TITLE QR_SLIDE_SZ_CTR_TITLE
#define QR_PPTX_SZ_SUBTITLE QR_SLIDE_SZ_SUBTITLE
#define QR_PPTX_SZ_SECTION_TITLE QR_SLIDE_SZ_SECTION_TITLE
#define QR_PPTX_SZ_SECTION_BODY QR_SLIDE_SZ_SECTION_BODY
#define QR_PPTX_SZ_NOTES QR_SLIDE_SZ_NOTES
#define QR_PPTX_SZ_TABLE_MAX QR_SLIDE_SZ_TABLE_MAX
#define QR_PPTX_SZ_TABLE_MIN QR_SLIDE_SZ_TABLE_MIN

/* The render state of one presentation. */
typedef struct qr_pptx {
    qr_render_ctx *ctx;
    const qr_doc *doc;
    qr_package *pkg;
    qr_pptx_geom geom;
    qr_style style;   /* the spec's theme (layout/style.h) */
    qr_text_ctx text; /* the text layer: segments of every paragraph, warnings */
    qr_status status; /* sticky */
    /* Hyperlinks of the part being written: one relationship per URL. */
    const char *part;
    struct qr_pptx_link {
        const char *url;
        const char *rid;
    } * links;
    size_t n_links, cap_links;
    size_t n_notes;  /* slides with notes */
    size_t n_charts; /* slide charts so far: ppt/charts/chartN.xml */
    /* the media parts written: a picture whose bytes an earlier one has
     * (the deck's logo and ground on every slide, one file on many slides)
     * shares its part */
    struct qr_pptx_media {
        const unsigned char *data;
        size_t size;
        const char *name;
    } * media;
    size_t n_media, cap_media;
} qr_pptx;

/** The file name in ppt/media/ of img's bytes: an earlier picture's with
 *  the same bytes, else img's own, its part added now. NULL on failure
 *  (pp->status set). */
const char *qr_pptx_media(qr_pptx *pp, const qr_image *img);

/* ---- element writers (pptx_slide.c) ----------------------------------------- */

/* Run properties. */
typedef struct qr_pptx_rpr {
    const char *lang; /* BCP 47 or NULL */
    int sz;           /* hundredths of a point; 0 inherits */
    unsigned b : 1, i : 1, u : 1, strike : 1;
    unsigned accent : 1;    /* a:solidFill in the theme's accent1 */
    unsigned on_accent : 1; /* a:solidFill in lt2, the text on the accent (a table's header) */
    unsigned white : 1;     /* a:solidFill FFFFFF (image_full's text on its scrim) */
    qr_font_slot slot;      /* which of a:latin, a:ea, a:cs carries family */
    const char *family;     /* NULL: inherit the theme fonts */
    const char *mono;       /* code outside the Latin slot: a:latin's typeface, or NULL */
    const char *link_rid;   /* a:hlinkClick r:id, or NULL */
} qr_pptx_rpr;

/** <a:rPr> (or, with name "a:endParaRPr", the end-of-paragraph properties). */
void qr_pptx_write_a_rpr(qr_xml *x, const char *name, const qr_pptx_rpr *p);

enum {
    QR_PPTX_ALGN_INHERIT = QR_SLIDE_ALGN_INHERIT,
    QR_PPTX_ALGN_L = QR_SLIDE_ALGN_L,
    QR_PPTX_ALGN_CTR = QR_SLIDE_ALGN_CTR,
    QR_PPTX_ALGN_R = QR_SLIDE_ALGN_R
};
enum {
    QR_PPTX_BULLET_INHERIT = QR_SLIDE_BULLET_INHERIT,
    QR_PPTX_BULLET_NONE = QR_SLIDE_BULLET_NONE,
    QR_PPTX_BULLET_CHAR = QR_SLIDE_BULLET_CHAR,
    QR_PPTX_BULLET_NUM = QR_SLIDE_BULLET_NUM
};

/* Paragraph properties. */
typedef struct qr_pptx_ppr {
    int lvl;    /* 0..8 */
    int bullet; /* QR_PPTX_BULLET_*: CHAR writes marL/indent and the glyph of lvl; NUM
                   a:buAutoNum arabicPeriod in a QR_SLIDE_NUM_MARL hanging indent */
    int rtl;
    int algn;       /* QR_PPTX_ALGN_*; rtl paragraphs are right-aligned */
    int spc_before; /* a:spcBef in hundredths of a point (text boxes; 0: none) */
    int start_at;   /* NUM: a:buAutoNum's startAt (0 or 1: numbered from 1) */
} qr_pptx_ppr;

/** <a:pPr>; nothing when every field inherits. */
void qr_pptx_write_a_ppr(qr_xml *x, const qr_pptx_ppr *p);

/** <a:p>: one paragraph of text, in the text layer's segments (text/): one
 *  <a:r> per span, tabs kept in <a:t>, <a:br/> for line breaks. sz: explicit size or 0 to inherit.
 *  ppr->rtl is decided here from the text (first strong character). Warns
 *  about uncovered code points and registers hyperlinks on pp->part. */
void qr_pptx_write_a_p(qr_pptx *pp, qr_xml *x, const qr_text *t, qr_pptx_ppr ppr, int sz);

/* ---- shrink to fit (layout/slide_layout.h) ---------------------------------- */

typedef qr_slide_est qr_pptx_para;
#define qr_pptx_fit qr_slide_fit
#define qr_pptx_text_width qr_slide_text_width
#define qr_pptx_text_lines(t, w) qr_slide_text_lines((t), (w), NULL)

/* ---- parts ------------------------------------------------------------------ */

/** pptx_chart.c: a slide's chart in area (its graphic frame, chart part
 *  and embedded workbook); part is the slide's part name. */
void qr_pptx_write_chart(qr_pptx *pp, qr_xml *x, int id, const qr_chart *ch, qr_pptx_box area,
                         const char *part);
/** slides/slideN.xml (+ its notes slide) for slide i (0-based). */
qr_status qr_pptx_slide(qr_pptx *pp, size_t i);
/** slideMasters/slideMaster1.xml and slideLayouts/slideLayout1..4.xml. */
qr_status qr_pptx_master(qr_pptx *pp);
/** theme/themeN.xml. */
qr_status qr_pptx_theme(qr_pptx *pp, const char *part);
/** notesMasters/notesMaster1.xml (and its theme). */
qr_status qr_pptx_notes_master(qr_pptx *pp);
/** notesSlides/notesSlideN.xml for slide i, with the slide's notes. */
qr_status qr_pptx_notes_slide(qr_pptx *pp, size_t i);

/** Write the <a:lvlNpPr> level styles of a text list style (bodyStyle). */
void qr_pptx_write_body_levels(qr_xml *x, const char *font_ref_latin, const char *font_ref_ea,
                               const char *font_ref_cs);

/** <p:nvGrpSpPr> and <p:grpSpPr> that open every spTree. */
void qr_pptx_write_tree_start(qr_xml *x);
/** <a:defRPr> of a level style: size sz (hundredths of a point), kern 1200, the
 *  text colour, and the latin/ea/cs theme typefaces ("+mn-lt", ...). */
void qr_pptx_write_a_defrpr(qr_xml *x, int sz, const char *clr, const char *lt, const char *ea,
                            const char *cs);
/** <a:xfrm> (or p:xfrm) for a box. */
void qr_pptx_write_xfrm(qr_xml *x, const char *name, const qr_pptx_box *b);

/** Add a finished part: the buffer's bytes move into the package. */
qr_status qr_pptx_add(qr_pptx *pp, const char *name, const char *ct, qr_buf *b, qr_xml *x);

/** Start a part: an XML writer with the declaration written. */
qr_xml *qr_pptx_begin(qr_pptx *pp, qr_buf *b);

/** Open the root element with xmlns:a, xmlns:r and xmlns:p. */
void qr_pptx_root(qr_xml *x, const char *name);

/** A relationship id from the part being written to an external URL, one per URL. */
const char *qr_pptx_link_rid(qr_pptx *pp, const char *url);

/** Record a failure (sticky). Returns pp->status. */
qr_status qr_pptx_fail(qr_pptx *pp, qr_status st);

#endif
