/* slide_continue.h: content that does not fit a slide continues on new
 * slides (issue 34), decided once for every deck backend (render/render.c
 * calls it before the .pptx writer and the preview).
 *
 * Bullets shrink (normAutofit, slide_layout.h) down to QR_SLIDE_CONT_FLOOR;
 * past it the top-level bullets that fit at the floor stay and the rest
 * continue on a new slide titled "Title (cont.)" (same layout, no subtitle,
 * picture, table or chart), as often as needed. A table whose rows do not
 * fit at QR_SLIDE_CONT_TABLE_SZ continues likewise, its header row repeated.
 * An agenda's items are bullets here: past the floor they continue on
 * "Title (cont.)" agenda slides, numbered on (agenda_first), the current item
 * highlighted on the slide that holds it.
 * Every continuation is a "continued" item of the layout report, at the
 * pointer of the bullets or the table, numbered as the output numbers slides.
 */
#ifndef QR_SLIDE_CONTINUE_H
#define QR_SLIDE_CONTINUE_H

#include <quire/quire.h>

#include "arena.h"
#include "slide_layout.h"
#include "tree.h"

/* The smallest normAutofit fontScale bullets get before they continue: 60 %. */
#define QR_SLIDE_CONT_FLOOR 60000
/* The smallest table font size (1/100 pt) before rows continue: 10 pt. */
#define QR_SLIDE_CONT_TABLE_SZ 1000

/** The slides of doc with continuations: *slides (allocated in a, or doc's
 *  own array when nothing continues) and *n. Adds a "continued" item to
 *  report (may be NULL) for each new slide. QR_OK or QR_E_NOMEM. */
qr_status qr_slide_continue(const qr_doc *doc, const qr_slide_geom *g, qr_arena *a,
                            const qr_slide **slides, size_t *n, qr_layout_list *report);

#endif
