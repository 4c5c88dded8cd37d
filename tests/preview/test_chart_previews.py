#!/usr/bin/python3
"""Charts in slide and sheet previews (.pdf, .png), against the .pptx and
against LibreOffice.

Decks: fixtures/chart-deck at 16:9 and 4:3, and a deck made here of a
picture with a chart below it (the plan's split), a chart on the blank
layout and a chart with Arabic, Hebrew, Chinese and Korean labels. For
every slide with a chart:
- pdftotext -bbox of the preview's page for that slide holds the chart's
  title, every category label and every series name, each inside the
  chart's frame as the .pptx places it (p:graphicFrame a:off/a:ext);
- LibreOffice's PDF export of quire's .pptx shows the title and the
  category labels inside the same frame, and its title lies within 5 % of
  the slide size of ours;
- the PNG of the slide has pixels of the series colours inside the frame
  and none outside it.
Sheets: fixtures/chart-sheet-ranges: each chart's title and category labels
lie in the box the .xlsx anchors it to (its cell, 432 x 252 pt by default)
on its sheet's first page, and a chart wider than the page goes on over the
next page across (its last category there).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from checks import check, done  # noqa: E402
from office import soffice_convert  # noqa: E402
from shared import need_tool  # noqa: E402


def run(args):
    return subprocess.run([QUIRE] + args, capture_output=True, text=True)


WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def unescape(s):
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&apos;", "'").replace("&amp;", "&")


def bbox_pages(pdf):
    out = subprocess.run(["pdftotext", "-bbox", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True).stdout
    return [(float(m.group(1)), float(m.group(2)),
             [(float(a), float(b), float(c), float(d), unescape(w)) for a, b, c, d, w in WORD.findall(m.group(3))])
            for m in PAGE.finditer(out)]


def find_runs(words, text):
    """Bounding boxes of every run of words spelling text (spaces ignored;
    right-to-left text: the words holding its characters, in any order)."""
    want = re.sub(r"\s+", "", text)
    if RTL.search(want):
        ws = [w for w in words if w[4] and set(w[4]) <= set(want)]
        got = "".join(w[4] for w in ws)
        if ws and all(got.count(ch) >= want.count(ch) for ch in set(want)):
            return [(min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws), max(w[3] for w in ws))]
        return []
    out = []
    for i in range(len(words)):
        got = ""
        for j in range(i, len(words)):
            got += words[j][4]
            if not want.startswith(got):
                break
            if got == want:
                ws = words[i:j + 1]
                out.append((min(w[0] for w in ws), min(w[1] for w in ws), max(w[2] for w in ws), max(w[3] for w in ws)))
                break
    return out


def inside(b, box, slack=1.0):
    x, y, w, h = box
    return b[0] >= x - slack and b[1] >= y - slack and b[2] <= x + w + slack and b[3] <= y + h + slack


def frames(pptx):
    """The chart frame of each slide (points), or None."""
    out = []
    with zipfile.ZipFile(pptx) as z:
        names = sorted((n for n in z.namelist() if re.fullmatch(r"ppt/slides/slide\d+\.xml", n)),
                       key=lambda n: int(re.search(r"(\d+)", n).group(1)))
        for n in names:
            xml = z.read(n).decode()
            m = re.search(r'<p:graphicFrame>(?:(?!</p:graphicFrame>).)*?<a:off x="(\d+)" y="(\d+)"/><a:ext cx="(\d+)" cy="(\d+)"/>'
                          r'(?:(?!</p:graphicFrame>).)*?drawingml/2006/chart', xml, re.S)
            out.append(tuple(int(v) / 12700 for v in m.groups()) if m else None)
    return out


def png_pixels(path):
    """(width, height, rows of (r, g, b) bytes) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line) if bpp == 3 else bytes(v for k, v in enumerate(line) if k % 4 != 3))
        prev = line
    return w, h, rows


PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAADklEQVR4nGNoAAMGCAUAKg4GARWeQtcAAAAASUVORK5CYII="  # a 2 x 2 grey PNG


def decks(tmp):
    with open(os.path.join(SRC, "fixtures", "chart-deck", "spec.json"), encoding="utf-8") as f:
        base = json.load(f)
    bar = {"chart": "column", "title": "Units sold", "categories": ["North", "South", "West"],
           "series": [{"name": "2025", "values": [12, 18, 9]}, {"name": "2026", "values": [14, 21, 11]}]}
    made = {"title": "Made here", "slides": [
        {"title": "Picture and chart", "image": {"src": "data:image/png;base64," + PIXEL, "alt": "a dot"}, "chart": bar},
        {"layout": "blank", "chart": dict(bar, title="Blank layout chart")},
        {"title": "Scripts", "chart": {"chart": "bar", "title": "各地区销售额",
                                       "categories": ["北京", "서울", "القاهرة", "תל אביב"],
                                       "series": [{"name": "销售额", "values": [1200, 1500, 980, 760]}]}}]}
    out = {}
    for name, spec in (("chart-deck", base), ("chart-deck-43", dict(base, size="4:3")), ("chart-deck-made", made)):
        p = os.path.join(tmp, name + ".json")
        with open(p, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        out[name] = (p, spec)
    return out


def chart_words(ch):
    """The title, the category labels, and the series names the legend shows
    (none for one series but on a pie; a pie's legend names categories)."""
    cats = list(ch.get("categories") or [])
    legend = len(ch["series"]) > 1 and ch["chart"] not in ("pie", "doughnut") and ch.get("legend") != "none"
    names = [s["name"] for s in ch["series"] if s.get("name")] if legend else []
    return ([ch["title"]] if ch.get("title") else []), cats, names


def slides(tmp):
    cases = decks(tmp)
    pptx = []
    for case, (path, spec) in cases.items():
        pdf, px = os.path.join(tmp, case + ".pdf"), os.path.join(tmp, case + ".pptx")
        p = run(["render", path, "-o", pdf])
        if not check(p.returncode == 0, "%s: render .pdf: %s" % (case, p.stdout + p.stderr)):
            continue
        p = run(["render", path, "-o", px])
        if not check(p.returncode == 0, "%s: render .pptx: %s" % (case, p.stdout + p.stderr)):
            continue
        pptx.append(px)
        boxes, pages = frames(px), bbox_pages(pdf)
        check(len(pages) == len(spec["slides"]), "%s: one page per slide" % case)
        for i, s in enumerate(spec["slides"]):
            ch = s.get("chart")
            if not ch or i >= len(pages):
                continue
            box = boxes[i]
            if not check(box is not None, "%s: slide %d has a chart frame in the .pptx" % (case, i + 1)):
                continue
            title, cats, names = chart_words(ch)
            for t in title + cats + names:
                runs = find_runs(pages[i][2], t)
                check(any(inside(b, box) for b in runs),
                      "%s: slide %d shows %r inside the chart frame %s: %s" % (case, i + 1, t, box, runs))
            for j, other in enumerate(pages):
                if j != i and title and spec["slides"][j].get("chart", {}).get("title") != title[0]:
                    check(not find_runs(other[2], title[0]), "%s: %r only on slide %d" % (case, title[0], i + 1))
            # PNG: the series colours inside the frame only
            png = os.path.join(tmp, "%s-%d.png" % (case, i + 1))
            p = run(["render", path, "-o", png, "--page", str(i + 1), "--dpi", "48"])
            if check(p.returncode == 0, "%s: render slide %d .png" % (case, i + 1)):
                w, h, rows = png_pixels(png)
                sx = w / pages[i][0]
                x0, y0, x1, y1 = [int(v * sx) for v in (box[0], box[1], box[0] + box[2], box[1] + box[3])]
                colour = (0x25, 0x63, 0xEB)  # the first series' (accent1)
                ins = outs = 0
                for y in range(h):
                    r = rows[y]
                    for x in range(w):
                        px3 = r[3 * x:3 * x + 3]
                        if all(abs(px3[k] - colour[k]) <= 8 for k in range(3)):
                            if x0 - 1 <= x <= x1 + 1 and y0 - 1 <= y <= y1 + 1:
                                ins += 1
                            else:
                                outs += 1
                check(ins >= 20 and outs == 0, "%s: slide %d PNG: %d series pixels inside the frame, %d outside"
                      % (case, i + 1, ins, outs))

    if not need_tool("soffice"):
        return
    lo = os.path.join(tmp, "lo")
    soffice_convert("pdf", pptx, lo)
    for case, (path, spec) in cases.items():
        lop = os.path.join(lo, case + ".pdf")
        if not check(os.path.exists(lop), "%s: LibreOffice exported a PDF" % case):
            continue
        theirs, ours = bbox_pages(lop), bbox_pages(os.path.join(tmp, case + ".pdf"))
        boxes = frames(os.path.join(tmp, case + ".pptx"))
        for i, s in enumerate(spec["slides"]):
            ch = s.get("chart")
            if not ch or i >= len(theirs) or i >= len(ours):
                continue
            title, cats, _ = chart_words(ch)
            for t in title + cats:
                if not t.isascii():
                    continue  # LibreOffice's fonts for these scripts vary
                runs = find_runs(theirs[i][2], t)
                check(any(inside(b, boxes[i], 2) for b in runs),
                      "%s: LibreOffice shows %r of slide %d inside the frame %s: %s" % (case, t, i + 1, boxes[i], runs))
            if title and title[0].isascii():
                a, b = find_runs(ours[i][2], title[0]), find_runs(theirs[i][2], title[0])
                if check(a and b, "%s: slide %d chart title in both PDFs" % (case, i + 1)):
                    w, h = ours[i][0], ours[i][1]
                    ca, cb = ((a[0][0] + a[0][2]) / 2, (a[0][1] + a[0][3]) / 2), ((b[0][0] + b[0][2]) / 2, (b[0][1] + b[0][3]) / 2)
                    check(abs(ca[0] - cb[0]) / w <= 0.05 and abs(ca[1] - cb[1]) / h <= 0.05,
                          "%s: slide %d chart title at %s, LibreOffice %s" % (case, i + 1, ca, cb))


def sheets(tmp):
    path = os.path.join(SRC, "fixtures", "chart-sheet-ranges", "spec.json")
    with open(path, encoding="utf-8") as f:
        spec = json.load(f)
    pdf = os.path.join(tmp, "sheet.pdf")
    p = run(["render", path, "-o", pdf])
    if not check(p.returncode == 0, "sheet: render .pdf: %s" % (p.stdout + p.stderr)):
        return
    pages = bbox_pages(pdf)
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", pdf, "-"], capture_output=True, text=True).stdout.split("\f")
    # the columns as the .xlsx declares them (layout/sheet_fit.h: the preview draws the same),
    # 6.3 pt a character, 8.43 characters by default
    xlsx = os.path.join(tmp, "sheet.xlsx")
    run(["render", path, "-o", xlsx])
    widths = []
    with zipfile.ZipFile(xlsx) as z:
        for k in range(len(spec["sheets"])):
            xml = z.read("xl/worksheets/sheet%d.xml" % (k + 1)).decode()
            ws = {int(a): float(b) for a, b in re.findall(r'<col min="(\d+)" max="\d+" width="([\d.]+)"', xml)}
            widths.append([ws.get(i + 1, 8.43) * 6.3 for i in range(64)])
    for si, sh in enumerate(spec["sheets"]):
        cols = widths[si]
        mine = [i for i, t in enumerate(text) if "%s \u2014 page" % sh["name"] in t]
        if not check(mine, "sheet %s has pages" % sh["name"]):
            continue
        for ch in sh["charts"]:
            m = re.fullmatch(r"([A-Z]+)(\d+)", ch["anchor"])
            c = ord(m.group(1)) - ord("A")
            r = int(m.group(2)) - 1
            x, y = 50.4 + sum(cols[:c]), 54.0 + r * 15.0
            w, h = ch.get("width", 432), ch.get("height", 252)
            # on the sheet's first page: the part left of the page's last whole column
            right, k = 50.4, 0
            while right + cols[k] <= 612 - 50.4:
                right += cols[k]
                k += 1
            box = (x, y, min(w, right - x), h)
            cats = ch["categories"]
            if isinstance(cats, str):  # a range of this sheet's first column
                a, b = [int(v) for v in re.findall(r"(\d+)", cats.split("!")[1])]
                cats = [sh["rows"][k - 2][0] for k in range(a, b + 1)]
            words = pages[mine[0]][2]
            for t in [ch["title"]] + cats[:4]:
                runs = find_runs(words, t)
                if t == ch["title"] and x + w > right:  # centred over the whole chart: it starts inside
                    runs = [(b[0], b[1], b[0], b[3]) for b in runs]
                check(any(inside(b, box) for b in runs),
                      "sheet %s: %r inside the chart's anchor box %s: %s" % (sh["name"], t, box, runs))
            if x + w > right:
                # wider than the page: it goes on over the next page across, at its left
                nxt = pages[mine[1]][2] if len(mine) > 1 else []
                # some of its text there (an axis label, the legend: which depends on the type)
                runs = [b[:4] for b in nxt if b[1] < 700]
                check(any(inside(b, (50.4, y, x + w - right, h)) for b in runs),
                      "sheet %s: the chart %r goes on over the next page: %s" % (sh["name"], ch["title"], runs))


def main():
    tmp = tempfile.mkdtemp(prefix="quire-chart-previews-")
    try:
        slides(tmp)
        sheets(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done()


if __name__ == "__main__":
    main()
