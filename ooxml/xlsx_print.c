/* xlsx_print.c: a sheet's print setup (tree.h's qr_sheet_print) in its
 * worksheet: <printOptions>, <pageMargins>, <pageSetup> and <headerFooter>,
 * in the schema's order after <hyperlinks>; the fit-to-page flag lives in
 * <sheetPr> (xlsx_sheet.c) and the print area and titles are the
 * workbook's _xlnm.Print_Area and _xlnm.Print_Titles names
 * (xlsx_workbook.c). Header and footer fields map to Excel's codes:
 * {page} &P, {pages} &N, {sheet} &A; "&" is written "&&", "{{" and "}}"
 * are "{" and "}". */
#include <string.h>

#include "xlsx_int.h"

/* One section's text as Excel's header code text into b. */
static void hf_section(qr_buf *b, const char *s)
{
    static const char *const fields[][2] = {{"{page}", "&P"}, {"{pages}", "&N"}, {"{sheet}", "&A"}};
    while (*s) {
        if (*s == '&') {
            qr_buf_puts(b, "&&");
            s++;
            continue;
        }
        if (*s == '}' && s[1] == '}') {
            qr_buf_putc(b, '}');
            s += 2;
            continue;
        }
        if (*s == '{') {
            if (s[1] == '{') {
                qr_buf_putc(b, '{');
                s += 2;
                continue;
            }
            size_t k = 0;
            for (; k < 3; k++)
                if (strncmp(s, fields[k][0], strlen(fields[k][0])) == 0) break;
            if (k < 3) {
                qr_buf_puts(b, fields[k][1]);
                s += strlen(fields[k][0]);
                continue;
            }
        }
        qr_buf_putc(b, *s++);
    }
}

void qr_xlsx_hf_code(qr_buf *b, const char *const sec[3])
{
    static const char *const code[] = {"&L", "&C", "&R"};
    for (int k = 0; k < 3; k++)
        if (sec[k]) {
            qr_buf_puts(b, code[k]);
            hf_section(b, sec[k]);
        }
}

static void put_inches(qr_buf *b, const char *name, double pt)
{
    char num[40];
    qr_xlsx_fmt_num(pt / 72.0, num);
    qr_buf_printf(b, " %s=\"%s\"", name, num);
}

void qr_xlsx_write_print(qr_buf *b, const qr_sheet *sh)
{
    const qr_sheet_print *p = sh->print;
    /* <x:printOptions> */
    if (p && p->gridlines) qr_buf_printf(b, "<printOptions gridLines=\"%d\"/>", p->gridlines == 2);
    /* <x:pageMargins> */
    if (p && p->has_margins) {
        qr_buf_puts(b, "<pageMargins");
        put_inches(b, "left", p->margins[3]);
        put_inches(b, "right", p->margins[1]);
        put_inches(b, "top", p->margins[0]);
        put_inches(b, "bottom", p->margins[2]);
        qr_buf_puts(b, " header=\"0.3\" footer=\"0.3\"/>");
    } else {
        qr_buf_puts(b, "<pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" "
                       "header=\"0.3\" footer=\"0.3\"/>");
    }
    if (!p) return;
    /* <x:pageSetup> */
    static const int paper_code[] = {0, 1, 5, 3, 8, 9, 11};
    if (p->paper || p->orientation || p->fit_width || p->fit_height) {
        qr_buf_puts(b, "<pageSetup");
        if (p->paper) qr_buf_printf(b, " paperSize=\"%d\"", paper_code[p->paper]);
        if (p->fit_width || p->fit_height)
            qr_buf_printf(b, " fitToWidth=\"%u\" fitToHeight=\"%u\"", p->fit_width, p->fit_height);
        if (p->orientation)
            qr_buf_puts(b, p->orientation == 2 ? " orientation=\"landscape\""
                                               : " orientation=\"portrait\"");
        qr_buf_puts(b, "/>");
    }
    /* <x:headerFooter> */
    int head = p->header[0] || p->header[1] || p->header[2];
    int foot = p->footer[0] || p->footer[1] || p->footer[2];
    if (!head && !foot) return;
    qr_buf code = {0};
    qr_buf_puts(b, "<headerFooter>");
    if (head) {
        qr_xlsx_hf_code(&code, p->header);
        qr_buf_puts(b, "<oddHeader>");
        if (code.data) qr_xlsx_escape(b, code.data, code.len);
        qr_buf_puts(b, "</oddHeader>");
    }
    if (foot) {
        code.len = 0;
        qr_xlsx_hf_code(&code, p->footer);
        qr_buf_puts(b, "<oddFooter>");
        if (code.data) qr_xlsx_escape(b, code.data, code.len);
        qr_buf_puts(b, "</oddFooter>");
    }
    qr_buf_puts(b, "</headerFooter>");
    if (code.oom) b->oom = 1;
    qr_buf_free(&code);
}
