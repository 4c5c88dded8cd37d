/* cli_fonts.h: `quire fonts`: show how quire splits text into script runs,
 * which font each run gets, and the paragraph direction.
 *
 *     quire fonts [--lang LANG] TEXT
 *     quire fonts --spec SPEC [-k KIND] [--lang LANG]
 *
 * Prints one JSON object per span:
 *   {"text":"سلام","script":"arabic","family":"Noto Sans Arabic",
 *    "file":"/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
 *    "direction":"rtl","paragraph":"rtl","slot":"complex","lang":"ar"}
 * (with "path" and "run" for --spec), and one per character no installed
 * font covers: {"missing":"U+20000","char":"𠀀"}.
 * Exit 0; 1 spec errors (one line {"status":"error",...}); 2 usage; 3 I/O.
 */
#ifndef QR_CLI_FONTS_H
#define QR_CLI_FONTS_H

/** argv[0] is "fonts". Returns the exit code. */
int qr_cli_fonts(int argc, char **argv);

#endif
