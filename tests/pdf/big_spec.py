#!/usr/bin/env python3
"""big_spec.py: print a document spec big enough for the PDF backend's two
threads (measuring and painting), with every run style, links, headings for
the outline, right-to-left and CJK text, and a character no font covers (a
hex box). .ci/run renders it under ThreadSanitizer."""
import json
import sys

words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu " * 4
blocks = []
for i in range(450):
    if i % 40 == 0:
        blocks.append({"type": "heading", "level": 1 + i // 40 % 3, "text": "Part %d" % i})
    blocks.append({"type": "paragraph", "runs": [
        words, {"text": "link %d" % i, "link": "https://example.com/b/%d" % i},
        {"text": " bold", "bold": True}, {"text": " code()", "code": True},
        {"text": " gone", "strike": True}, {"text": " under ", "underline": True},
        {"text": "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u4f60\u597d"},
        " hex box \ue000" if i % 100 == 50 else ""]})
    if i % 60 == 30:
        blocks.append({"type": "table", "headers": ["a", "b"],
                       "rows": [["cell %d" % r, "\u0928\u092e\u0938\u094d\u0924\u0947"] for r in range(30)]})
        blocks.append({"type": "list", "ordered": True, "items": ["one", "two", {"text": "three"}]})
json.dump({"title": "Big", "blocks": blocks}, sys.stdout, ensure_ascii=False)
