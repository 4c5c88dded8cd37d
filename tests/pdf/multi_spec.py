#!/usr/bin/env python3
"""multi_spec.py: print a big multi-script document spec, set in more faces
than cairo 1.16 keeps open (ten): Latin, Greek and Cyrillic in DejaVu,
Arabic, Hebrew, Devanagari, Thai and Chinese, Japanese and Korean in Noto,
each in regular, bold and italic, with code, headings, tables and lists.
Big enough (over 96 KB of text) for the PDF backend's two threads, which
open and pin every face it needs first (pdf/pdf.c, pin_document_faces).
.ci/run renders it under ThreadSanitizer; test_pdf_threads.py compares its
one-thread and two-thread bytes."""
import json
import sys

TEXT = [
    ("en", "The quick brown fox jumps over the lazy dog, and the dog sleeps on."),
    ("el", "\u0397 \u03b3\u03c1\u03ae\u03b3\u03bf\u03c1\u03b7 \u03ba\u03b1\u03c6\u03ad "
           "\u03b1\u03bb\u03b5\u03c0\u03bf\u03cd \u03c0\u03b7\u03b4\u03ac\u03b5\u03b9."),
    ("ru", "\u0421\u044a\u0435\u0448\u044c \u0436\u0435 \u0435\u0449\u0451 \u044d\u0442\u0438\u0445 "
           "\u043c\u044f\u0433\u043a\u0438\u0445 \u0431\u0443\u043b\u043e\u043a."),
    ("ar", "\u064a\u0648\u0644\u062f \u062c\u0645\u064a\u0639 \u0627\u0644\u0646\u0627\u0633 "
           "\u0623\u062d\u0631\u0627\u0631\u0627\u064b \u0645\u062a\u0633\u0627\u0648\u064a\u0646."),
    ("he", "\u05db\u05dc \u05d1\u05e0\u05d9 \u05d0\u05d3\u05dd \u05e0\u05d5\u05dc\u05d3\u05d5 "
           "\u05d1\u05e0\u05d9 \u05d7\u05d5\u05e8\u05d9\u05df."),
    ("hi", "\u0938\u092d\u0940 \u092e\u0928\u0941\u0937\u094d\u092f\u094b\u0902 \u0915\u094b "
           "\u0917\u094c\u0930\u0935 \u0914\u0930 \u0905\u0927\u093f\u0915\u093e\u0930\u094b\u0902 "
           "\u0915\u0947 \u092e\u093e\u092e\u0932\u0947 \u092e\u0947\u0902 \u091c\u0928\u094d\u092e"
           "\u091c\u093e\u0924 \u0938\u094d\u0935\u0924\u0902\u0924\u094d\u0930\u0924\u093e \u0939\u0948\u0964"),
    ("th", "\u0e21\u0e19\u0e38\u0e29\u0e22\u0e4c\u0e17\u0e31\u0e49\u0e07\u0e2b\u0e25\u0e32\u0e22"
           "\u0e40\u0e01\u0e34\u0e14\u0e21\u0e32\u0e21\u0e35\u0e2d\u0e34\u0e2a\u0e23\u0e30"),
    ("zh", "\u4eba\u4eba\u751f\u800c\u81ea\u7531\uff0c\u5728\u5c0a\u4e25\u548c\u6743\u5229"
           "\u4e0a\u4e00\u5f8b\u5e73\u7b49\u3002"),
    ("ja", "\u3059\u3079\u3066\u306e\u4eba\u9593\u306f\u3001\u751f\u307e\u308c\u306a\u304c"
           "\u3089\u306b\u3057\u3066\u81ea\u7531\u3067\u3042\u308b\u3002"),
    ("ko", "\ubaa8\ub4e0 \uc778\uac04\uc740 \ud0dc\uc5b4\ub0a0 \ub54c\ubd80\ud130 "
           "\uc790\uc720\ub85c\uc6b0\uba70 \ud3c9\ub4f1\ud558\ub2e4."),
]


def runs(i):
    """A paragraph's runs: the main script, then bold, italic and code in others."""
    a, b, c = TEXT[i % len(TEXT)], TEXT[(i + 3) % len(TEXT)], TEXT[(i + 7) % len(TEXT)]
    return [" ".join([a[1]] * 4) + " ",
            {"text": b[1] + " ", "bold": True},
            {"text": c[1] + " ", "italic": True},
            {"text": "f(%d) " % i, "code": True},
            {"text": a[1], "bold": True, "italic": True},
            {"text": " link %d" % i, "link": "https://example.com/m/%d" % i}]


def spec():
    """The spec, as a dict."""
    blocks = []
    for i in range(420):
        if i % 35 == 0:
            blocks.append({"type": "heading", "level": 1 + i // 35 % 6,
                           "text": "%d %s" % (i, TEXT[i // 35 % len(TEXT)][1][:24])})
        blocks.append({"type": "paragraph", "runs": runs(i)})
        if i % 70 == 20:
            blocks.append({"type": "table", "headers": [TEXT[k][1][:12] for k in (0, 3, 7)],
                           "rows": [[TEXT[(r + k) % len(TEXT)][1][:20] for k in (0, 4, 8)]
                                    for r in range(12)]})
            blocks.append({"type": "list", "ordered": i % 140 == 20,
                           "items": [TEXT[k][1] for k in range(len(TEXT))]})
            blocks.append({"type": "code", "text": "for (i = 0; i < %d; i++)\n    %s\n" %
                           (i, TEXT[(i + 2) % len(TEXT)][1])})
    return {"title": "Multi-script " + TEXT[3][1][:10], "blocks": blocks}


if __name__ == "__main__":
    json.dump(spec(), sys.stdout, ensure_ascii=False)
