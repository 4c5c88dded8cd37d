#!/usr/bin/env python3
"""quire read gives a deck's grounds and furniture back (issue 34): the deck's
"background" (a colour or a picture, written on every slide) and a slide's own,
the deck's "date", "footer" and "slide_numbers", a slide's own footer text and
a slide bare of furniture ("footer": false, no logo either). The spec read
back renders to the same slides, byte for byte, as the one written; a foreign
deck's theme grounds (p:bgRef) are not read as a background."""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib

QUIRE = os.environ.get("QUIRE", "build/quire")
fails = []
tmp = tempfile.mkdtemp(prefix="qr-grounds-")


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        fails.append(what)
    return cond


def png(w, h, rgb):
    raw = b"".join(b"\x00" + bytes(rgb) * w for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


for name, rgb in (("ground.png", (200, 180, 150)), ("other.png", (20, 30, 60)), ("logo.png", (0, 90, 200))):
    with open(os.path.join(tmp, name), "wb") as f:
        f.write(png(320 if name != "logo.png" else 60, 180 if name != "logo.png" else 20, rgb))


def render(spec, out):
    p = os.path.join(tmp, "spec.json")
    with open(p, "w") as f:
        json.dump(spec, f)
    r = subprocess.run([QUIRE, "render", p, "-o", out], capture_output=True, text=True)
    return r.returncode == 0


def read(pptx):
    r = subprocess.run([QUIRE, "read", pptx], capture_output=True, text=True)
    return json.loads(r.stdout) if r.returncode == 0 else None


def slides_xml(pptx):
    with zipfile.ZipFile(pptx) as z:
        names = sorted((n for n in z.namelist() if n.startswith("ppt/slides/slide") and n.endswith(".xml")),
                       key=lambda n: int(n[16:-4]))
        media = sorted(z.read(n) for n in z.namelist() if n.startswith("ppt/media/"))
        return [z.read(n) for n in names], media


def round_trip(name, spec, want):
    a = os.path.join(tmp, name + ".pptx")
    if not check(render(spec, a), name + ": renders"):
        return
    got = read(a)
    if not check(got is not None, name + ": reads back"):
        return
    for key, value in want.items():
        v = got["slides"][int(key[5:])] if key[5:].isdigit() else got.get(key)
        check(v == value, "%s: %s is %s (got %s)" % (name, key, str(value)[:80], str(v)[:80]))
    b = os.path.join(tmp, name + "-again.pptx")
    with open(os.path.join(tmp, "again.json"), "w") as f:
        json.dump(got, f)
    r = subprocess.run([QUIRE, "render", os.path.join(tmp, "again.json"), "-o", b], capture_output=True, text=True)
    if check(r.returncode == 0, name + ": the spec read back renders: %s" % r.stdout[:200]):
        check(slides_xml(a) == slides_xml(b), name + ": its slides and pictures are the first render's, byte for byte")


def no_src(v):
    """A picture read back is a data: URI: compare its other keys."""
    return {k: x for k, x in v.items() if k != "src"} if isinstance(v, dict) else v


# colours: the deck's ground on every slide, one slide's own
round_trip("colours", {"title": "T", "background": "#FAF0E6",
                       "slides": [{"title": "a"}, {"title": "b", "background": "#0F172A"}, {"title": "c"}]},
           {"background": "#FAF0E6", "slide0": {"title": "a"}, "slide1": {"title": "b", "background": "#0F172A"}})

# pictures: the deck's and one slide's, each a picture of its own
spec = {"title": "T", "background": {"src": "ground.png"},
        "slides": [{"title": "a"}, {"title": "b", "background": {"src": "other.png"}}, {"title": "c"}]}
round_trip("pictures", spec, {})
got = read(os.path.join(tmp, "pictures.pptx"))
check(got and got["background"]["src"].startswith("data:image/png;base64,") and
      "background" not in got["slides"][0] and got["slides"][1]["background"]["src"] != got["background"]["src"],
      "pictures: the deck's ground at the top, the second slide's own on it")

# a slide's ground only: stays the slide's
round_trip("one slide", {"title": "T", "slides": [{"title": "a"}, {"title": "b", "background": "#FFF8E1"}]},
           {"slide1": {"title": "b", "background": "#FFF8E1"}})
check("background" not in (read(os.path.join(tmp, "one slide.pptx")) or {"background": 1}),
      "one slide: no deck background")

# furniture: date, the footer most slides show, numbers; a bare title slide, a slide's own footer
round_trip("furniture", {"title": "T", "footer": "ACME", "date": "2 Dec 2026", "slide_numbers": True,
                         "logo": {"src": "logo.png"},
                         "slides": [{"layout": "title", "title": "a", "footer": False},
                                    {"title": "b", "footer": "Board only"}, {"title": "c"}, {"title": "d"}]},
           {"footer": "ACME", "date": "2 Dec 2026", "slide_numbers": True,
            "slide0": {"layout": "title", "title": "a", "footer": False},
            "slide1": {"title": "b", "footer": "Board only"}, "slide2": {"title": "c"}})

# a logo alone: the bare slide is still told apart
round_trip("logo", {"title": "T", "logo": {"src": "logo.png"}, "slides": [{"title": "a", "footer": False}, {"title": "b"}]},
           {"slide0": {"title": "a", "footer": False}, "slide1": {"title": "b"}})

# nothing of the kind: nothing read
round_trip("plain", {"title": "T", "slides": [{"title": "a"}, {}]},
           {"slide0": {"title": "a"}, "slide1": {}})
got = read(os.path.join(tmp, "plain.pptx"))
check(got and not {"background", "footer", "date", "slide_numbers", "logo"} & set(got), "plain: no furniture keys")

# a foreign deck: the theme's ground (p:bgRef) on a slide is not a background
a = os.path.join(tmp, "plain.pptx")
f = os.path.join(tmp, "foreign.pptx")
with zipfile.ZipFile(a) as zin, zipfile.ZipFile(f, "w") as zout:
    for item in zin.infolist():
        data = zin.read(item.filename)
        if item.filename == "ppt/slides/slide1.xml":
            data = data.replace(b"<p:cSld>", b'<p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>', 1)
        zout.writestr(item, data)
got = read(f)
check(got and "background" not in got and "background" not in got["slides"][0], "foreign: a p:bgRef is no background")

sys.exit(1 if fails else 0)
