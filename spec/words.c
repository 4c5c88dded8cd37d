/* words.c: the words quire writes into documents, per language (words.h). */
#include "words.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *lang;
    const char *w[QR_WORD_COUNT];
} table[] = {
    {"en",
     {"Figure", "Table", "Listing", "Contents", "Note", "Tip", "Warning", "Important", "Notes",
      "Section"}},
    {"de",
     {"Abbildung", "Tabelle", "Listing", "Inhalt", "Hinweis", "Tipp", "Warnung", "Wichtig",
      "Anmerkungen", "Abschnitt"}},
    {"fr",
     {"Figure", "Tableau", "Listing", "Table des mati\xC3\xA8res", "Remarque", "Astuce",
      "Avertissement", "Important", "Notes", "Section"}},
    {"es",
     {"Figura", "Tabla", "Listado", "\xC3\x8Dndice", "Nota", "Consejo", "Advertencia", "Importante",
      "Notas", "Secci\xC3\xB3n"}},
    {"pt",
     {"Figura", "Tabela", "Listagem", "Sum\xC3\xA1rio", "Nota", "Dica", "Aviso", "Importante",
      "Notas", "Se\xC3\xA7\xC3\xA3o"}},
    {"it",
     {"Figura", "Tabella", "Listato", "Indice", "Nota", "Suggerimento", "Avvertenza", "Importante",
      "Note", "Sezione"}},
    {"ja",
     {"\xE5\x9B\xB3", "\xE8\xA1\xA8", "\xE3\x83\xAA\xE3\x82\xB9\xE3\x83\x88",
      "\xE7\x9B\xAE\xE6\xAC\xA1", "\xE6\xB3\xA8", "\xE3\x83\x92\xE3\x83\xB3\xE3\x83\x88",
      "\xE8\xAD\xA6\xE5\x91\x8A", "\xE9\x87\x8D\xE8\xA6\x81", "\xE6\xB3\xA8", "\xE7\xAF\x80"}},
    {"zh",
     {"\xE5\x9B\xBE", "\xE8\xA1\xA8", "\xE4\xBB\xA3\xE7\xA0\x81", "\xE7\x9B\xAE\xE5\xBD\x95",
      "\xE6\xB3\xA8\xE6\x84\x8F", "\xE6\x8F\x90\xE7\xA4\xBA", "\xE8\xAD\xA6\xE5\x91\x8A",
      "\xE9\x87\x8D\xE8\xA6\x81", "\xE6\xB3\xA8\xE9\x87\x8A", "\xE8\x8A\x82"}},
    {"ar",
     {"\xD8\xB4\xD9\x83\xD9\x84", "\xD8\xAC\xD8\xAF\xD9\x88\xD9\x84",
      "\xD9\x82\xD8\xA7\xD8\xA6\xD9\x85\xD8\xA9",
      "\xD8\xA7\xD9\x84\xD9\x85\xD8\xAD\xD8\xAA\xD9\x88\xD9\x8A\xD8\xA7\xD8\xAA",
      "\xD9\x85\xD9\x84\xD8\xA7\xD8\xAD\xD8\xB8\xD8\xA9",
      "\xD9\x86\xD8\xB5\xD9\x8A\xD8\xAD\xD8\xA9", "\xD8\xAA\xD8\xAD\xD8\xB0\xD9\x8A\xD8\xB1",
      "\xD9\x85\xD9\x87\xD9\x85", "\xD8\xA7\xD9\x84\xD8\xAD\xD9\x88\xD8\xA7\xD8\xB4\xD9\x8A",
      "\xD8\xA7\xD9\x84\xD9\x82\xD8\xB3\xD9\x85"}},
};

/* The table row of a tag's primary subtag, ASCII case-insensitive. */
static size_t row(const char *lang)
{
    if (!lang || !lang[0] || !lang[1]) return 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const char *t = table[i].lang;
        char a = (char)(lang[0] | 0x20), b = (char)(lang[1] | 0x20);
        if (a == t[0] && b == t[1] && (lang[2] == '\0' || lang[2] == '-' || lang[2] == '_'))
            return i;
    }
    return 0;
}

static int cjk(const char *lang)
{
    size_t r = row(lang);
    return strcmp(table[r].lang, "ja") == 0 || strcmp(table[r].lang, "zh") == 0;
}

const char *qr_word(const char *lang, qr_word_id id)
{
    if ((unsigned)id >= QR_WORD_COUNT) return "";
    return table[row(lang)].w[id];
}

size_t qr_word_numbered(const char *lang, qr_word_id id, unsigned n, char *buf, size_t size)
{
    int k = snprintf(buf, size, cjk(lang) ? "%s%u" : "%s %u", qr_word(lang, id), n);
    if (k < 0) return 0;
    return (size_t)k < size ? (size_t)k : size - 1;
}

const char *qr_word_caption_sep(const char *lang)
{
    return cjk(lang) ? "\xEF\xBC\x9A" : ": ";
}

uint32_t qr_tone_ink(qr_tone tone)
{
    switch (tone) {
    case QR_TONE_TIP:
        return 0x15803D;
    case QR_TONE_WARNING:
        return 0xB45309;
    case QR_TONE_IMPORTANT:
        return 0xB91C1C;
    case QR_TONE_NOTE:
        break;
    }
    return 0x1D4ED8;
}

uint32_t qr_tone_fill(qr_tone tone, uint32_t background)
{
    uint32_t ink = qr_tone_ink(tone), out = 0;
    for (int sh = 16; sh >= 0; sh -= 8) {
        unsigned a = (ink >> sh) & 0xFF, b = (background >> sh) & 0xFF;
        out |= ((a + 9 * b + 5) / 10) << sh;
    }
    return out;
}
