/* empty.c: stands in for a module folder that has no sources yet. */
typedef int qr_empty_translation_unit;
