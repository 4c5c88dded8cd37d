#!/usr/bin/python3
"""Slide previews (.pdf, .png) against the spec and against LibreOffice.

For every fixtures/deck-*/spec.json (and deck-layouts again at 4:3):
- `quire render spec.json -o deck.pdf` with no -k (the kind comes from the
  spec's shape): one page per slide at the slide's size, and pdftotext of
  each page holds that slide's title, subtitle, bullets and table cells;
- the title's bounding box (pdftotext -bbox) lies within 5 % of the slide
  size of where LibreOffice's PDF export of quire's own .pptx of the same
  spec puts it, and every layout at both sizes is compared;
- the overflowing deck: every word of the body lies inside the body
  placeholder's box read from the .pptx, and the words are set at the
  .pptx's fontScale (their height over the title's, against the sizes);
- PNG: --page N at 96 dpi is 1280 x 720 (16:9), --dpi scales it, --pages all
  writes one file per slide, --page past the end is a usage error (exit 2).
--notes: notes pages (7.5 x 10 in) holding the slide and its notes lines.
--contact: one PNG of at most 2000 px a side, same bytes twice, for decks,
documents and workbooks; refused for .pdf.
Reports (does not assert) the P1 times: PDF, PNG of slide 1, contact sheet.
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from checks import check, done  # noqa: E402
from office import soffice_convert  # noqa: E402
from shared import need, need_tool  # noqa: E402


def run(args):
    return subprocess.run([QUIRE] + args, capture_output=True, text=True)


def spec_text(v):
    if isinstance(v, str):
        return v
    if "text" in v:
        return v["text"]
    return "".join(r if isinstance(r, str) else r["text"] for r in v.get("runs", []))


def flatten(items):
    out = []
    for it in items or []:
        out.append(spec_text(it))
        if isinstance(it, dict):
            out += flatten(it.get("items"))
    return out


def cell_text(v):
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(int(v)) if float(v).is_integer() else repr(v)
    return spec_text(v)


# the layouts of text boxes at the plan's places (issue 34)
STRUCTURAL = ("quote", "stats", "closing", "two_content", "comparison", "image_full", "agenda")


def slide_texts(s):
    out = ([spec_text(s["title"])] if "title" in s else [])
    if "subtitle" in s:
        out.append(spec_text(s["subtitle"]))
    out += flatten(s.get("bullets"))
    out += [spec_text(s[k]) for k in ("quote", "attribution", "caption") if k in s]
    out += [spec_text(x) for x in s.get("items") or []]
    for st in s.get("stats") or []:
        out += [spec_text(st[k]) for k in ("value", "label", "caption") if k in st]
    for o in [s] + [s[k] for k in ("left", "right") if k in s]:
        if o is not s:
            out += ([spec_text(o["heading"])] if "heading" in o else []) + flatten(o.get("bullets"))
        t = o.get("table")
        if t:
            for v in t.get("headers") or []:
                out.append(cell_text(v))
            for row in t.get("rows") or []:
                out += [cell_text(v) for v in row]
    return [x for x in out if x]


def squash(s):
    return re.sub(r"\s+", "", s)


RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def holds(page, text):
    t, p = squash(text), squash(page)
    if RTL.search(t):  # visual order: compare the characters
        return all(p.count(c) >= t.count(c) for c in set(t))
    return t in p


def pages_text(pdf):
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True).stdout
    return out.split("\f")


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)


def bbox_pages(pdf):
    """[(width, height, [(x0, y0, x1, y1, word)])] per page."""
    out = subprocess.run(["pdftotext", "-bbox", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True).stdout
    pages = []
    for m in PAGE.finditer(out):
        words = [(float(a), float(b), float(c), float(d), html_unescape(w)) for a, b, c, d, w in WORD.findall(m.group(3))]
        pages.append((float(m.group(1)), float(m.group(2)), words))
    return pages


def html_unescape(s):
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")


def find_run(words, text):
    """The bounding box of the first run of words that spells text (a long
    word may be broken over two lines)."""
    want = squash(text)
    for i in range(len(words)):
        got = ""
        for j in range(i, len(words)):
            # a bullet glyph hangs right before its paragraph's first word
            got += words[j][4].lstrip("\u2022\u25e6\u25aa") if j == i else words[j][4]
            if not want.startswith(got):
                break
            if got == want:
                ws = words[i:j + 1]
                return (min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws), max(w[3] for w in ws))
    return None


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    return struct.unpack(">II", head[16:24])


def main():
    tmp = tempfile.mkdtemp(prefix="quire-slides-")
    cases = {}
    for d in sorted(glob.glob(os.path.join(SRC, "fixtures", "deck-*"))):
        with open(os.path.join(d, "spec.json"), encoding="utf-8") as f:
            cases[os.path.basename(d)] = (os.path.join(d, "spec.json"), json.load(f))
    # every layout at 4:3 too
    spec = dict(cases["deck-layouts"][1], size="4:3")
    p43 = os.path.join(tmp, "deck-layouts-43.json")
    with open(p43, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    cases["deck-layouts-43"] = (p43, spec)

    pptx = []
    for case, (path, spec) in cases.items():
        pdf = os.path.join(tmp, case + ".pdf")
        p = run(["render", path, "-o", pdf, "--base-dir", os.path.dirname(path)])
        if not check(p.returncode == 0, "%s: render .pdf without -k: %s" % (case, p.stdout + p.stderr)):
            continue
        n = len(spec["slides"])
        res = json.loads(p.stdout)
        check(res["kind"] == "presentation", "%s: the result names the kind from the spec's shape" % case)
        check(res["pages"] == max(1, n), "%s: %d pages, want %d" % (case, res["pages"], max(1, n)))
        pages = pages_text(pdf)
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
        want_w = 720 if spec.get("size") == "4:3" else 960
        check(re.search(r"Page size:\s+%d x 540 pts" % want_w, info) is not None, "%s: page size %s" % (case, info))
        for i, s in enumerate(spec["slides"]):
            for t in slide_texts(s):
                check(holds(pages[i] if i < len(pages) else "", t), "%s: slide %d holds %r" % (case, i + 1, t))
        out = os.path.join(tmp, case + ".pptx")
        p = run(["render", path, "-o", out, "--base-dir", os.path.dirname(path)])
        if check(p.returncode == 0, "%s: render .pptx" % case):
            pptx.append(out)

    # LibreOffice's PDF export of quire's .pptx: where the titles sit
    lo = os.path.join(tmp, "lo")
    if need_tool("soffice"):
        soffice_convert("pdf", pptx, lo)
        compared = set()
        for case, (path, spec) in cases.items():
            ours = bbox_pages(os.path.join(tmp, case + ".pdf"))
            lop = os.path.join(lo, case + ".pdf")
            if not check(os.path.exists(lop), "%s: LibreOffice exported a PDF" % case):
                continue
            theirs = bbox_pages(lop)
            for i, s in enumerate(spec["slides"]):
                title = spec_text(s["title"]) if "title" in s else ""
                if not title or RTL.search(title) or not title.isascii():
                    continue
                w, h, words = ours[i]
                a = find_run(words, title)
                b = find_run(theirs[i][2], title) if i < len(theirs) else None
                if not check(a is not None and b is not None, "%s: slide %d title %r found in both PDFs" % (case, i + 1, title)):
                    continue
                dx = max(abs(a[0] - b[0]), abs(a[2] - b[2])) / w
                dy = max(abs(a[1] - b[1]), abs(a[3] - b[3])) / h
                check(dx <= 0.05 and dy <= 0.05, "%s: slide %d title box %s vs LibreOffice %s (%.1f%%, %.1f%%)"
                      % (case, i + 1, a, b, dx * 100, dy * 100))
                compared.add((s.get("layout", "title_content"), spec.get("size", "16:9")))
            # the structural layouts (issue 34): every text within 2 pt, left, right and top
            # (the bottom of a word's box is the embedded font's descent, which the two
            # PDFs' font descriptors give differently: 6 pt apart at 60 pt)
            for i, s in enumerate(spec["slides"]):
                if s.get("layout") not in STRUCTURAL or i >= len(theirs):
                    continue
                texts = [spec_text(s[k]) for k in ("title", "subtitle", "quote", "attribution", "caption")
                         if k in s]
                # a box of several paragraphs: the n-th may sit 1.25 pt x n lower in quire's
                # preview, which sets lines 1.2 em apart as PowerPoint does (LibreOffice:
                # DejaVu Sans's 1.164 em, 1.0 pt less at 28 pt); its first line within 2 pt
                slack = {}
                for box in [s.get("items") or []] + [flatten((s.get(k) or {}).get("bullets"))
                                                     for k in ("left", "right")]:
                    for n, x in enumerate(box):
                        slack[spec_text(x)] = 1.25 * n
                        texts.append(spec_text(x))
                for k in ("left", "right"):  # a column's heading (the table: its words)
                    o = s.get(k) or {}
                    texts += [spec_text(o["heading"])] if "heading" in o else []
                for st in s.get("stats") or []:
                    texts += [spec_text(st[k]) for k in ("value", "label", "caption") if k in st]
                # the furniture: date, footer (the slide's own or the deck's), number
                if s.get("footer") is not False:
                    foot = s.get("footer") or spec.get("footer")
                    texts += [x for x in (spec.get("date"), foot) if x]
                    if spec.get("slide_numbers"):
                        texts.append(str(i + 1))
                for t in texts:
                    a, b = find_run(ours[i][2], t), find_run(theirs[i][2], t)
                    if not check(a is not None and b is not None, "%s: slide %d %r found in both PDFs" % (case, i + 1, t)):
                        continue
                    d = max(abs(a[k] - b[k]) for k in range(3))
                    most = 2.0 + (slack.get(t, 0) if s.get("layout") in ("two_content", "comparison", "agenda") else 0)
                    check(d <= most, "%s: slide %d %r at %s, LibreOffice %s: %.2f pt apart (at most %.2f)"
                          % (case, i + 1, t, a, b, d, most))
                compared.add((s["layout"], spec.get("size", "16:9")))
                if spec.get("footer") and s.get("footer") is not False:
                    compared.add(("furniture", spec.get("size", "16:9")))
        for lay in ("title", "title_content", "section", "blank"):
            for size in ("16:9", "4:3"):
                check((lay, size) in compared, "title position compared for %s at %s" % (lay, size))
        for lay in STRUCTURAL:
            check((lay, "16:9") in compared, "text boxes compared within 2 pt for %s" % lay)
        check(("furniture", "16:9") in compared, "the footer, date and number compared within 2 pt")

    # the overflowing deck: inside the box, at the .pptx's fontScale
    case = "deck-overflow"
    with zipfile.ZipFile(os.path.join(tmp, case + ".pptx")) as z:
        xml = z.read("ppt/slides/slide1.xml").decode()
    body = xml[xml.index('name="Content"'):]
    off = re.search(r'<a:off x="(\d+)" y="(\d+)"/><a:ext cx="(\d+)" cy="(\d+)"/>', body)
    x, y, cx, cy = [int(v) / 12700 for v in off.groups()]
    scale = int(re.search(r'fontScale="(\d+)"', body).group(1)) / 100000
    w, h, words = bbox_pages(os.path.join(tmp, case + ".pdf"))[0]
    title = spec_text(cases[case][1]["slides"][0]["title"])
    tb = find_run(words, title)
    body_words = [wd for wd in words if wd[1] > tb[3]]
    check(len(body_words) > 100, "overflow: the body's words are on the page")
    # top: 1.5 pt, the font's ascent (0.93 em, pdftotext's box) over a first line set at
    # 80 % line spacing reaches that far past the box; the glyphs' ink stays inside
    outside = [wd for wd in body_words if wd[0] < x - 0.5 or wd[2] > x + cx + 0.5 or wd[1] < y - 1.5 or wd[3] > y + cy + 0.5]
    check(not outside, "overflow: no word outside the body box (%g, %g, %g, %g): %s" % (x, y, cx, cy, outside[:3]))
    th = tb[3] - tb[1]
    bh = sorted(wd[3] - wd[1] for wd in body_words)[len(body_words) // 2]
    got = (bh / 28) / (th / 44)
    check(abs(got - scale) < 0.02, "overflow: body set at fontScale %.3f, the .pptx says %.3f" % (got, scale))

    # PNG
    path = cases["deck-layouts"][0]
    png = os.path.join(tmp, "s.png")
    p = run(["render", path, "-o", png, "--page", "2"])
    check(p.returncode == 0 and png_size(png) == (1280, 720), "png: slide 2 at 96 dpi is 1280 x 720")
    p = run(["render", path, "-o", png, "--page", "1", "--dpi", "48"])
    check(p.returncode == 0 and png_size(png) == (640, 360), "png: --dpi 48 gives 640 x 360")
    p = run(["render", cases["deck-4x3"][0], "-o", png, "--dpi", "72"])
    check(p.returncode == 0 and png_size(png) == (720, 540), "png: a 4:3 slide at 72 dpi is 720 x 540")
    p = run(["render", path, "-o", os.path.join(tmp, "all.png"), "--pages", "all"])
    n = len(cases["deck-layouts"][1]["slides"])
    check(p.returncode == 0 and all(os.path.exists(os.path.join(tmp, "all-%d.png" % k)) for k in range(1, n + 1)),
          "png: --pages all writes one file per slide")
    p = run(["render", path, "-o", png, "--page", "99"])
    check(p.returncode == 2 and "out of range" in p.stdout + p.stderr, "png: --page 99 is a usage error (exit 2, as for documents)")

    # --contact: every slide (or a document's or workbook's first pages) on one PNG <= 2000 px
    for case in ("deck-table-image", "deck-empty", "deck-4x3"):
        c1, c2 = os.path.join(tmp, "c1.png"), os.path.join(tmp, "c2.png")
        p = run(["render", cases[case][0], "-o", c1, "--contact", "--base-dir", os.path.dirname(cases[case][0])])
        run(["render", cases[case][0], "-o", c2, "--contact", "--base-dir", os.path.dirname(cases[case][0])])
        w, h = png_size(c1) if p.returncode == 0 else (0, 0)
        check(p.returncode == 0 and 0 < w <= 2000 and 0 < h <= 2000, "contact %s: %d x %d" % (case, w, h))
        with open(c1, "rb") as a, open(c2, "rb") as b:
            check(a.read() == b.read(), "contact %s: same bytes twice" % case)
    for fx in ("doc-every-block", "sheet-multi"):
        sp = os.path.join(SRC, "fixtures", fx, "spec.json")
        p = run(["render", sp, "-o", os.path.join(tmp, "c.png"), "--contact", "--base-dir", os.path.dirname(sp)])
        w, h = png_size(os.path.join(tmp, "c.png")) if p.returncode == 0 else (0, 0)
        check(p.returncode == 0 and 0 < w <= 2000 and 0 < h <= 2000, "contact %s: %d x %d" % (fx, w, h))
    p = run(["render", path, "-o", os.path.join(tmp, "c.pdf"), "--contact"])
    check(p.returncode == 2, "contact: only for .png (exit 2)")

    # --pages A-B: a PDF of some slides, PNGs of some pages
    rpdf = os.path.join(tmp, "range.pdf")
    p = run(["render", path, "-o", rpdf, "--pages", "2-3"])
    pages = pages_text(rpdf)
    info = subprocess.run(["pdfinfo", rpdf], capture_output=True, text=True).stdout
    check(p.returncode == 0 and re.search(r"^Pages:\s+2$", info, re.M) is not None, "range: 2 pages")
    sl = cases["deck-layouts"][1]["slides"]
    check(holds(pages[0], sl[1]["title"]) and holds(pages[1], sl[2]["title"]), "range: slides 2 and 3")
    p = run(["render", path, "-o", os.path.join(tmp, "r.png"), "--pages", "5-9"])
    check(p.returncode == 0 and os.path.exists(os.path.join(tmp, "r-5.png")) and os.path.exists(os.path.join(tmp, "r-6.png"))
          and not os.path.exists(os.path.join(tmp, "r-7.png")) and not os.path.exists(os.path.join(tmp, "r-4.png")),
          "range: PNGs of slides 5 and 6 (the last)")
    doc = os.path.join(SRC, "fixtures", "doc-every-block", "spec.json")
    p = run(["render", doc, "-o", rpdf, "--pages", "1-2"])
    check(p.returncode == 2, "range: a document's PDF refuses a range (exit 2)")
    p = run(["render", path, "-o", rpdf, "--pages", "3-1"])
    check(p.returncode == 2, "range: 3-1 is a usage error")

    # --notes: notes pages, the slide above its speaker notes
    case = "deck-notes"
    npdf = os.path.join(tmp, "notes.pdf")
    p = run(["render", cases[case][0], "-o", npdf, "--notes"])
    info = subprocess.run(["pdfinfo", npdf], capture_output=True, text=True).stdout
    check(p.returncode == 0 and re.search(r"Page size:\s+540 x 720 pts", info) is not None, "notes: 7.5 x 10 in pages")
    pages = pages_text(npdf)
    for i, s in enumerate(cases[case][1]["slides"]):
        for t in slide_texts(s) + [ln for ln in (s.get("notes") or "").splitlines() if ln.strip()]:
            check(holds(pages[i], t), "notes: page %d holds %r" % (i + 1, t))
    p = run(["render", cases[case][0], "-o", png, "--notes", "--dpi", "72"])
    check(p.returncode == 0 and png_size(png) == (540, 720), "notes: a PNG notes page is 540 x 720 at 72 dpi")

    # P1 (reported, not asserted)
    gen = need("bench/gen_specs.py")
    if gen:
        subprocess.run([sys.executable, gen, tmp, "P1"], check=True, capture_output=True)
        p1 = os.path.join(tmp, "P1.json")
        for out, extra in (("p1.pdf", []), ("p1.png", ["--page", "1"]), ("p1-contact.png", ["--contact"])):
            t0 = time.perf_counter()
            p = run(["render", p1, "-o", os.path.join(tmp, out)] + extra)
            dt = time.perf_counter() - t0
            check(p.returncode == 0, "P1 -> %s" % out)
            if "contact" in out:
                w, h = png_size(os.path.join(tmp, out))
                check(max(w, h) <= 2000 and min(w, h) > 1000, "P1 contact: 300 slides in %d x %d" % (w, h))
            print("report: P1 -> %s %.0f ms" % (out, dt * 1000))
    shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
