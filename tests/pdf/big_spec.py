#!/usr/bin/env python3
"""big_spec.py: print a document spec big enough for the PDF backend's two
threads (measuring and painting), with every run style, links, headings for
the outline, tables and lists, all set in DejaVu (Latin, Greek, Cyrillic,
symbols); multi_spec.py is its multi-script sibling. .ci/run renders it under
ThreadSanitizer; test_pdf.py compares its one-thread and two-thread bytes."""
import json
import sys


def spec():
    """The spec, as a dict."""
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 4
    blocks = []
    for i in range(450):
        if i % 40 == 0:
            blocks.append({"type": "heading", "level": 1 + i // 40 % 3, "text": "Part %d" % i})
        blocks.append({"type": "paragraph", "runs": [
            words, {"text": "link %d" % i, "link": "https://example.com/b/%d" % i},
            {"text": " bold", "bold": True}, {"text": " code()", "code": True},
            {"text": " gone", "strike": True}, {"text": " under ", "underline": True},
            {"text": " \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \u041a\u0438\u0440\u0438\u043b\u043b\u0438\u0446\u0430 \u2192 \u00b1"}]})
        if i % 60 == 30:
            blocks.append({"type": "table", "headers": ["a", "b"],
                           "rows": [["cell %d" % r, "\u03b1\u03b2\u03b3 %d" % r] for r in range(30)]})
            blocks.append({"type": "list", "ordered": True, "items": ["one", "two", {"text": "three"}]})
    return {"title": "Big", "blocks": blocks}


if __name__ == "__main__":
    json.dump(spec(), sys.stdout, ensure_ascii=False)
