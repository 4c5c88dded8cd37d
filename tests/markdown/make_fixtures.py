#!/usr/bin/python3
"""Writes fixtures/md-*/spec.json (and the images of md-image): the Markdown
golden cases, one per construct. Run: python3 tests/markdown/make_fixtures.py fixtures"""
import json, os, sys, struct, zlib
root = sys.argv[1]
def png(w, h, rgb):
    raw = b''.join(b'\x00' + bytes(rgb) * w for _ in range(h))
    def ch(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return b'\x89PNG\r\n\x1a\n' + ch(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + ch(b'IDAT', zlib.compress(raw, 9)) + ch(b'IEND', b'')
cases = {
"md-headings": ("Markdown headings", [("markdown", """# Report

Opening paragraph under the first heading.

## Background

Setext headings work too:

Findings
--------

### Level three

#### Level four

##### Level five

###### Level six
""", 0), ("markdown", "# Shifted by one\n\nA heading_offset of 1 makes this a level-2 heading.\n\n## And this level 3\n", 1)]),
"md-inline": ("Markdown inline formatting", [("markdown", """Plain, *emphasis*, **strong**, ***both***, ~~struck~~ and `inline code`.

A [link to the spec](https://example.com/spec "title is dropped"), an autolink
<https://example.org>, a bare www.example.net and mail <team@example.com>.

A line with a hard break  
after two spaces, and one with a backslash\\
break.

Raw HTML stays literal: <span class="x">tagged</span> &amp; entities decode: &copy; &#8364;.

Escapes keep the marks: \\*not emphasis\\*, \\# not a heading, 2 \\* 3.
""", 0)]),
"md-lists": ("Markdown lists", [("markdown", """- apples
- pears
  - williams
  - conference
    - ripe
- plums

3. third
4. fourth
5. fifth

Steps, a list of its own:

1. Install

   ```sh
   make install
   ```

2. Run it
   with a second line

- [x] written
- [ ] reviewed
- [ ] shipped

* loose item one

* loose item two
""", 0)]),
"md-table": ("Markdown tables", [("markdown", """| Region | Q1 | Q2 | Change |
|:-------|---:|---:|:------:|
| North | 1,200 | 1,350 | **+12%** |
| South | 900 | 870 | *-3%* |
| East | `n/a` | 400 | [new](https://example.com/east) |

A ragged table: short rows are padded, long rows cut to the header.

| a | b | c |
|---|---|---|
| 1 |
| 1 | 2 | 3 | 4 |
""", 0)]),
"md-code": ("Markdown code", [("markdown", """Fenced code keeps its language:

```python
def greet(name):
    return f"Hello, {name}!"
```

~~~json
{"a": 1, "b": [true, null]}
~~~

    indented code
    has no language

```
an unclosed fence runs to the end of the text
<b>not html</b>
""", 0)]),
"md-quote-rule": ("Markdown quotes and rules", [("markdown", """Before the quote.

> A block quote with **bold** inside.
>
> > A nested quote.

---

<div class="note">
A raw HTML block is kept as literal text.
</div>

After the rule.
""", 0)]),
"md-footnotes": ("Markdown footnotes", [("markdown", """The claim needs a source[^src], and a second note[^2] follows.

The first note is cited again here[^src].

[^src]: Smith, *Findings*, 2024.
[^2]: A note with `code`.
""", 0)]),
"md-image": ("Markdown images", [("markdown", """An image on its own line becomes an image block:

![A red box](red.png)

Text before ![blue](blue.png) and after an inline image splits the paragraph.
""", 0)]),
}
for name, (title, blocks) in cases.items():
    d = os.path.join(root, name)
    os.makedirs(d, exist_ok=True)
    bl = []
    for t, text, off in blocks:
        b = {"type": "markdown", "text": text}
        if off: b["heading_offset"] = off
        bl.append(b)
    spec = {"title": title, "blocks": bl}
    with open(os.path.join(d, "spec.json"), "w") as f:
        json.dump(spec, f, indent=2, ensure_ascii=False)
        f.write("\n")
    if name == "md-image":
        open(os.path.join(d, "red.png"), "wb").write(png(120, 60, (220, 40, 40)))
        open(os.path.join(d, "blue.png"), "wb").write(png(60, 30, (40, 80, 220)))
deck = os.path.join(root, "md-deck")
os.makedirs(deck, exist_ok=True)
spec = {"title": "Markdown deck", "slides": [
  {"title": "Bullets from Markdown", "markdown": "- first point with **bold**\n- second point\n  - a sub point\n  - another\n- third with `code`\n", "notes": "Speaker notes stay a plain field."},
  {"title": "A table", "markdown": "| Metric | Value |\n|:--|--:|\n| Users | 1,204 |\n| Churn | *2.1%* |\n"},
  {"title": "Code", "markdown": "```sh\nquire render deck.md -o deck.pptx\nquire check deck.md\n```\n"},
]}
with open(os.path.join(deck, "spec.json"), "w") as f:
    json.dump(spec, f, indent=2, ensure_ascii=False)
    f.write("\n")
