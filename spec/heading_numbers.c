/* heading_numbers.c: a document's "numbered_headings": "1", "1.1", "1.1.1"
 * before each heading's text, counted from the shallowest level the
 * document uses. The number is a run of the heading's text, so every
 * backend (docx, PDF/PNG, html, the PDF outline) shows the same label. */
#include <stdio.h>
#include <string.h>

#include "compile_int.h"

void qr_cc_number_headings(qr_cc *cc, qr_block *blocks, size_t n_blocks)
{
    int top = 7;
    for (size_t i = 0; i < n_blocks; i++)
        if (blocks[i].type == QR_BLOCK_HEADING && blocks[i].u.heading.level < top)
            top = blocks[i].u.heading.level;
    unsigned count[7] = {0};
    for (size_t i = 0; i < n_blocks; i++) {
        qr_block *b = &blocks[i];
        if (b->type != QR_BLOCK_HEADING) continue;
        int lv = b->u.heading.level;
        count[lv]++;
        for (int d = lv + 1; d <= 6; d++)
            count[d] = 0;
        char label[64];
        size_t n = 0;
        for (int d = top; d <= lv && n < sizeof label - 12; d++)
            n += (size_t)snprintf(label + n, sizeof label - n, d > top ? ".%u" : "%u", count[d]);
        label[n++] = ' ';
        label[n] = '\0';
        qr_text *t = &b->u.heading.text;
        qr_run *runs = qr_arena_array(cc->a, t->n + 1, sizeof *runs);
        char *text = qr_arena_strdup(cc->a, label);
        if (!runs || !text) {
            qr_cc_oom(cc);
            return;
        }
        runs[0] = (qr_run){.text = text, .len = n};
        if (t->n) memcpy(runs + 1, t->runs, t->n * sizeof *runs);
        t->runs = runs;
        t->n++;
    }
}
