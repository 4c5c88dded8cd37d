#!/usr/bin/python3
"""Write the PDF backend's fixtures (deterministic; run from anywhere):

  fixtures/pdf-tables       a 500-row table with a header and widths, wrapped cells
  fixtures/pdf-lists        nested ordered and unordered lists, 9 levels
  fixtures/pdf-multiscript  every script quire lays out, symbols, RTL, bold CJK
  fixtures/pdf-edge-cases   a 10,000-character word, empty texts, an image larger
                            than the page (data: URI), a JPEG, a page break

The specs are committed; this script documents how they were made.
"""
import base64
import io
import json
import os
import struct
import zlib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def write(name, spec):
    d = os.path.join(ROOT, "fixtures", name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "spec.json"), "w", encoding="utf-8") as f:
        json.dump(spec, f, ensure_ascii=False, indent=2)
        f.write("\n")


def png(width, height, rows):
    """A truecolour PNG from a function row(y) -> bytes of width*3."""
    raw = b"".join(b"\x00" + rows(y) for y in range(height))

    def chunk(t, data):
        c = struct.pack(">I", len(data)) + t + data
        return c + struct.pack(">I", zlib.crc32(t + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    # pHYs: 72 dpi (2835 px/m), so the image is width x height points
    phys = struct.pack(">IIB", 2835, 2835, 1)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"pHYs", phys) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def tables():
    rows = []
    for i in range(1, 501):
        note = "Row %d" % i
        if i % 50 == 0:
            note = ("Row %d has a longer note that wraps onto several lines inside its "
                    "narrow column, so the row is taller than the others." % i)
        rows.append([i, "Item %03d" % i, note, round(i * 12.5, 2), i % 3 == 0])
    return {
        "title": "Tables",
        "blocks": [
            {"type": "heading", "text": "A 500-row table", "level": 1},
            {"type": "paragraph", "text": "The header row repeats on every page; rows never split "
             "unless a single row is taller than a page."},
            {"type": "table", "headers": ["#", "Item", "Note", "Amount", "Paid"],
             "widths": [1, 2, 5, 2, 1], "rows": rows},
            {"type": "heading", "text": "Cells with runs and scripts", "level": 2},
            {"type": "table", "headers": ["Language", "Greeting"], "widths": [1, 3],
             "rows": [["English", {"runs": ["Hello, ", {"text": "world", "bold": True}]}],
                      ["Arabic", "مرحبا بالعالم"],
                      ["Japanese", "こんにちは世界"],
                      ["Empty", None]]},
        ],
    }


def lists():
    def nest(depth, ordered):
        item = {"text": "Level %d item" % depth}
        if depth < 9:
            item["items"] = [nest(depth + 1, ordered), "Level %d sibling" % (depth + 1)]
        return item

    return {
        "title": "Lists",
        "blocks": [
            {"type": "heading", "text": "Unordered, nine levels", "level": 1},
            {"type": "list", "items": [nest(1, False), "Top-level sibling"]},
            {"type": "heading", "text": "Ordered, nine levels", "level": 1},
            {"type": "list", "ordered": True, "items": [nest(1, True), "Second top-level item",
                                                        "Third top-level item"]},
            {"type": "heading", "text": "Long and styled items", "level": 2},
            {"type": "list", "ordered": True, "items": [
                "A long item that wraps: " + "the hanging indent keeps every wrapped line "
                "aligned with the first word of the item, not with its marker. " * 2,
                {"runs": ["Runs: ", {"text": "bold", "bold": True}, ", ",
                          {"text": "italic", "italic": True}, ", ",
                          {"text": "a link", "link": "https://example.com/lists"}]},
                {"text": "Nested under a styled item", "items": ["Child one", "Child two"]},
            ]},
            {"type": "list", "items": ["قائمة باللغة العربية", "רשימה בעברית", "English item"]},
        ],
    }


def multiscript():
    para = lambda t: {"type": "paragraph", "text": t}
    return {
        "title": "Multi-script rendering",
        "blocks": [
            {"type": "heading", "text": "Latin, Greek, Cyrillic and symbols", "level": 1},
            para("Latin: The quick brown fox jumps over the lazy dog."),
            para("Greek: Η γρήγορη καφέ αλεπού πηδάει πάνω από τον τεμπέλη σκύλο."),
            para("Cyrillic: Отчёт за квартал. Съешь же ещё этих мягких французских булок."),
            para("Symbols: x − y → z ≤ 5 ≥ 1 ≠ ∞ ✓ €"),
            {"type": "heading", "text": "Right to left", "level": 1},
            para("مرحبا بالعالم. هذا نص عربي للاختبار."),
            para("من می‌خواهم این متن فارسی را بخوانم."),
            para("שלום עולם. זהו טקסט בעברית."),
            para("Version 2 (نسخه) stays left to right."),
            {"type": "heading", "text": "Indic, South-East Asian, Ethiopic", "level": 1},
            para("नमस्ते दुनिया। यह हिंदी का पाठ है।"),
            para("আমি বাংলায় গান গাই।"),
            para("வணக்கம் உலகம்."),
            para("สวัสดีชาวโลก นี่คือข้อความภาษาไทย"),
            para("សួស្តីពិភពលោក"),
            para("ሰላም ለዓለም።"),
            {"type": "heading", "text": "CJK", "level": 1},
            para("你好，世界。这是中文文本。"),
            para("こんにちは世界。これは日本語のテキストです。"),
            para("안녕하세요 세계. 이것은 한국어 텍스트입니다."),
            {"type": "paragraph", "runs": [{"text": "粗体中文", "bold": True}, " と ",
                                           {"text": "太字の日本語", "bold": True}]},
        ],
    }


def edge_cases():
    word = ("abcdefghij" * 1000)
    assert len(word) == 10000
    big = png(1400, 2200, lambda y: bytes([(y // 100) * 20 % 256, 120, 200]) * 1400)
    from_pil = None
    try:  # a small JPEG, made once with Pillow when present
        from PIL import Image
        im = Image.new("RGB", (160, 90), (40, 110, 180))
        for x in range(0, 160, 20):
            for y in range(90):
                im.putpixel((x, y), (250, 250, 250))
        b = io.BytesIO()
        im.save(b, "JPEG", quality=80)
        from_pil = b.getvalue()
    except ImportError:
        pass
    blocks = [
        {"type": "heading", "text": "A word of 10,000 characters", "level": 1},
        {"type": "paragraph", "text": word},
        {"type": "paragraph", "text": ""},
        {"type": "paragraph", "runs": []},
        {"type": "heading", "text": "", "level": 2},
        {"type": "paragraph", "text": "After the empty texts."},
        # no header row and an empty neighbour, so the extracted text of the
        # 400-letter cell is not interleaved with other text by pdftotext
        {"type": "table", "widths": [1, 9],
         "rows": [["x" * 400, None],
                  ["next", "a long word in a narrow column wraps by character"]]},
        {"type": "code", "text": "long_line = '" + "0123456789" * 40 + "'\n\tindented\n"},
        {"type": "image", "src": "data:image/png;base64," + base64.b64encode(big).decode(),
         "alt": "An image larger than the page"},
    ]
    if from_pil:
        blocks.append({"type": "image", "src": "data:image/jpeg;base64," +
                       base64.b64encode(from_pil).decode(), "alt": "A JPEG image"})
    blocks += [
        {"type": "page_break"},
        {"type": "paragraph", "runs": ["Control characters \u0001\u0007 are dropped; ",
                                       {"text": "a very long link " * 3,
                                        "link": "https://example.com/" + "x" * 300}]},
        {"type": "list", "items": ["", {"text": "", "items": ["empty parent"]}]},
    ]
    return {"title": "Edge cases", "page": {"size": "A4"}, "blocks": blocks}


if __name__ == "__main__":
    write("pdf-tables", tables())
    write("pdf-lists", lists())
    write("pdf-multiscript", multiscript())
    write("pdf-edge-cases", edge_cases())
