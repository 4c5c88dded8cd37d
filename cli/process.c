/* process.c: every process-wide setting of the quire command (process.h),
 * each with its reason and what it was measured to save. The command is a
 * short-lived process that owns its allocator, time zone and caches; the
 * library never touches them.
 *
 * Three more live in the link, not here, in pdf/memo/ (linked into the quire
 * binary only, each a symbol the executable exports over its library's):
 * hb_shape() (shape_memo.c) answers the second of the two shapings pango
 * makes of every item that fits a line, from a memo of the first
 * (bench/README.md "shape memo"); deflateInit_() (deflate_once.c) lets a
 * page's content stream be deflated once, not twice; __snprintf_chk()
 * (printf_fast.c) formats cairo's PDF numbers without glibc's printf
 * (bench/README.md "Round 3: PDF writing"). */
#include "process.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "fonts.h"

void qr_cli_process_start(void)
{
    /* Nothing quire writes depends on the local time zone (outputs carry
     * fixed UTC dates), but libzip converts each entry's DOS date through
     * mktime(), which re-reads /etc/localtime on every call without TZ. */
    setenv("TZ", "UTC0", 1);
    /* Grow the heap in 32 MiB steps and never trim it, instead of one brk()
     * per page-sized growth and a trim after each big free (P1: 517 brk
     * calls, about a sixth of its time). Untouched pages cost no memory. */
    mallopt(M_TOP_PAD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    /* The font table from its cache file, not from fontconfig's start
     * (fonts.h; issue 22: ~5 ms a call). */
    qr_fonts_enable_cache();
}

void qr_cli_process_command(const char *cmd)
{
    /* jansson's values from the region allocator (core/json_alloc.h), which
     * parses faster and gives a big spec's rows back to the system as the
     * compiler converts them (S2: compile CPU -17%, peak RSS 695 -> 577 MB);
     * the store's writes too (their dumped text is malloc's: qr_json_dumps). */
    static const char *const parsing[] = {"render", "check",   "fmt",     "read", "create",
                                          "edit",   "rewrite", "restore", NULL};
    for (size_t i = 0; parsing[i]; i++)
        if (strcmp(cmd, parsing[i]) == 0) {
            qr_compile_use_region_alloc();
            return;
        }
}

void qr_cli_process_format(qr_format fmt)
{
    /* cairo subsets a CFF font (Noto Sans CJK) from a copy of its whole CFF
     * table, 19-20 MB, taken once when a face is first drawn and again when
     * the PDF is finished. With M_TOP_PAD/M_TRIM_THRESHOLD set, glibc's
     * sliding mmap threshold is off, so each copy was a fresh mmap of 5,000
     * zeroed pages: M1 took 58,000 page faults. With the threshold above
     * those sizes the copies reuse the heap: 19,000 faults, about a tenth of
     * M1's CPU time; peak RSS 187 -> 198 MB. Only for PDF and PNG work. */
    if (fmt == QR_FORMAT_PDF || fmt == QR_FORMAT_PNG) mallopt(M_MMAP_THRESHOLD, 64 << 20);
}

void qr_cli_process_render_opts(qr_render_opts *o)
{
    static const char *const threads[] = {"QUIRE_THREADS", "QUIRE_PDF_THREADS",
                                          "QUIRE_PACKAGE_THREADS", NULL};
    for (size_t i = 0; threads[i]; i++) {
        const char *e = getenv(threads[i]);
        if (e && *e) {
            long n = strtol(e, NULL, 10);
            o->threads = n > 0 && n < 1024 ? (int)n : 0;
            break;
        }
    }
    const char *s = getenv("QUIRE_XLSX_STREAM");
    if (s && strcmp(s, "0") == 0) o->xlsx_stream = QR_XLSX_STREAM_NEVER;
    if (s && strcmp(s, "1") == 0) o->xlsx_stream = QR_XLSX_STREAM_ALWAYS;
    if (s && strcmp(s, "all") == 0) o->xlsx_stream = QR_XLSX_STREAM_ALL;
}

void qr_cli_process_trace(const qr_result *res)
{
    const char *e = getenv("QUIRE_PDF_FACE_TRACE");
    if (e && *e && res->stats.threads == 2)
        fprintf(stderr, "quire: pdf: %d faces pinned before the threads, %d by them\n",
                res->stats.faces_pinned, res->stats.faces_pinned_late);
    if (e && *e && res->stats.toc_early + res->stats.toc_fontconfig)
        fprintf(stderr, "quire: toc: fontconfig %s\n",
                res->stats.toc_fontconfig ? "asked" : "not asked");
}
