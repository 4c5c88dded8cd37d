/* doclang.c: the document's dominant CJK language, for Han text that has
 * no kana or hangul in its own paragraph (a Han-only table cell in a
 * Japanese document is Japanese). Counts, over every text of the document,
 * kana, hangul, and the Han of longer texts with neither (Chinese; a short
 * one is as likely a Japanese or Korean name); a language dominates when its own letters outnumber
 * the other's ten times and that Han, so a document mixing Chinese,
 * Japanese and Korean paragraphs has none. Code points are recognised by
 * their UTF-8 bytes (kana U+3040-U+30FF is E3 81-83 xx, hangul syllables
 * U+AC00-U+D7A3 start with EA B0-ED 9E, Han U+4E00-U+9FFF with E4-E9):
 * one pass, no decoding. */
#include <stdint.h>
#include <string.h>

#include "fonts.h"
#include "walk.h"

/* Han-only texts this long are sentences (Chinese); shorter ones (a table
 * cell, a name) are as much Japanese or Korean and do not count. */
#define HAN_SENTENCE 5

typedef struct tally {
    size_t kana, hangul, han_only;
    size_t k, h, han; /* the text being counted */
} tally;

static void count_bytes(tally *t, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i + 2 < n; i++) {
        /* eight ASCII bytes at a time (none of them counts) */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL) break;
            i += 8;
        }
        if (i + 2 >= n) break;
        if (p[i] < 0xE3) continue;
        if (p[i] == 0xE3 && p[i + 1] >= 0x81 && p[i + 1] <= 0x83)
            t->k++;
        else if (p[i] >= 0xE4 && p[i] <= 0xE9)
            t->han++;
        else if (p[i] >= 0xEA && p[i] <= 0xED && (p[i] > 0xEA || p[i + 1] >= 0xB0) &&
                 (p[i] < 0xED || p[i + 1] < 0x9F))
            t->h++;
        if (p[i] < 0xF0) i += 2;
    }
}

/* One text done: its counts go to the document's. */
static void end_text(tally *t)
{
    t->kana += t->k;
    t->hangul += t->h;
    if (!t->k && !t->h && t->han >= HAN_SENTENCE) t->han_only += t->han;
    t->k = t->h = t->han = 0;
}

static void count_text(tally *t, const qr_text *x)
{
    for (size_t i = 0; i < x->n; i++)
        if (x->runs[i].text) count_bytes(t, x->runs[i].text, x->runs[i].len);
    end_text(t);
}

/* The texts that count: running text, list items, table cells, slide
 * titles (not code, alt texts, notes or chart labels). */
static int count_walked(void *ud, const qr_walk_text *w)
{
    switch (w->role) {
    case QR_WALK_TITLE:
    case QR_WALK_HEADING:
    case QR_WALK_PARAGRAPH:
    case QR_WALK_ITEM:
    case QR_WALK_HEADER_CELL:
    case QR_WALK_CELL:
    case QR_WALK_SLIDE_TITLE:
    case QR_WALK_SUBTITLE:
        count_text(ud, w->text);
        break;
    default:
        break;
    }
    return 0;
}

const char *qr_fonts_doc_cjk_lang(const qr_doc *doc)
{
    if (!doc) return NULL;
    tally t = {0};
    qr_walker w = {.text = count_walked, .ud = &t};
    qr_doc_walk(doc, &w);
    if (t.kana > 10 * t.hangul && t.kana > t.han_only) return "ja";
    if (t.hangul > 10 * t.kana && t.hangul > t.han_only) return "ko";
    return NULL;
}
