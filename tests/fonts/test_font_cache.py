#!/usr/bin/python3
"""test_font_cache.py: the CLI's font table cache ($QUIRE_FONT_CACHE, issue 22).

For the multi-script fixtures and a tiny spec, to docx, pptx, xlsx, html and
pdf (xlsx needs no font table: fontconfig never starts): the bytes with the cache off, on its first use (fontconfig asked, the
file written) and read back (fontconfig never started: strace shows no read
of its configuration for the non-PDF formats) are the same, and so are
`quire fonts` answers. A damaged cache file is replaced, the output the same.

A docx with a table of contents lays its pages out with the PDF backend:
its faces' fontconfig answers are kept in the cache's side file
(fonts.bin.faces, pdf/face_answers.h), so on a hit a document whose texts
are all simple never starts fontconfig at all (no fonts.conf read, the
trace says "not asked"); one with other scripts still does. The bytes are
the same either way, and a damaged side file is replaced.
"""
import os
import shutil
import subprocess
import sys
import tempfile

QUIRE = os.environ.get("QUIRE")
SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
failures = []


def check(name, cond, detail=""):
    if not cond:
        failures.append("%s %s" % (name, detail))


def render(spec, out, cache, strace_log=None):
    env = dict(os.environ, QUIRE_FONT_CACHE=cache)
    argv = [QUIRE, "render", spec, "-o", out]
    if strace_log:
        argv = ["strace", "-f", "-e", "trace=open,openat", "-o", strace_log] + argv
        # LeakSanitizer cannot run under ptrace (ASan builds); the renders
        # below without strace keep the leak check
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
    p = subprocess.run(argv, capture_output=True, env=env)
    check("render %s" % out, p.returncode == 0, p.stdout[-300:])
    with open(out, "rb") as f:
        return f.read()


def read_fonts_conf(log):
    with open(log) as f:
        return any("fonts.conf" in l and "ENOENT" not in l for l in f)


def main():
    if not QUIRE or not os.path.exists(QUIRE):
        print("QUIRE is not set to the built binary", file=sys.stderr)
        return 1
    tmp = tempfile.mkdtemp(prefix="quire-fontcache-")
    try:
        cache = os.path.join(tmp, "c", "fonts.bin")
        tiny = os.path.join(tmp, "tiny.json")
        with open(tiny, "w") as f:
            f.write('{"title":"t","blocks":[{"type":"paragraph","text":"Hello"}]}')
        cases = [(os.path.join(SRC, "fixtures", "doc-multiscript", "spec.json"), ("docx", "html", "pdf")),
                 (os.path.join(SRC, "fixtures", "deck-multiscript", "spec.json"), ("pptx",)),
                 (os.path.join(SRC, "fixtures", "sheet-unicode", "spec.json"), ("xlsx",)),
                 (tiny, ("docx", "html"))]
        n = 0
        for spec, fmts in cases:
            for fmt in fmts:
                n += 1
                base = os.path.join(tmp, "%d.%s" % (n, fmt))
                off = render(spec, base + ".off." + fmt, "off")
                if os.path.exists(cache):
                    os.unlink(cache)
                miss_log, hit_log = base + ".miss.log", base + ".hit.log"
                miss = render(spec, base + ".miss." + fmt, cache, miss_log)
                hit = render(spec, base + ".hit." + fmt, cache, hit_log)
                check("%s %s: miss bytes" % (spec, fmt), miss == off)
                check("%s %s: hit bytes" % (spec, fmt), hit == off)
                if fmt == "xlsx":  # sheets need no font table at all
                    check("%s %s: no fontconfig" % (spec, fmt), not read_fonts_conf(miss_log))
                    continue
                check("%s %s: cache written" % (spec, fmt), os.path.exists(cache))
                check("%s %s: the miss starts fontconfig" % (spec, fmt), read_fonts_conf(miss_log))
                if fmt != "pdf":  # pango starts fontconfig for itself
                    check("%s %s: the hit does not" % (spec, fmt), not read_fonts_conf(hit_log))
        # `quire fonts` on a mixed text: the same answers from the cache
        text = "Hi हिन्दी مرحبا 中文 かな 한국어 ∀ 🙂 Ελληνικά"
        outs = []
        for c in ("off", cache, cache):
            p = subprocess.run([QUIRE, "fonts", text], capture_output=True,
                               env=dict(os.environ, QUIRE_FONT_CACHE=c))
            check("fonts rc", p.returncode == 0, p.returncode)
            outs.append(p.stdout)
        check("fonts answers", outs[0] == outs[1] == outs[2], outs)
        # a damaged file is replaced
        with open(cache, "r+b") as f:
            f.write(b"garbage!" * 8)
        spec = os.path.join(SRC, "fixtures", "doc-multiscript", "spec.json")
        off = render(spec, os.path.join(tmp, "d.off.docx"), "off")
        dmg = render(spec, os.path.join(tmp, "d.dmg.docx"), cache)
        check("damaged cache: same bytes", dmg == off)
        with open(cache, "rb") as f:
            check("damaged cache: replaced", f.read(7) == b"QRFONTS")
        hit = render(spec, os.path.join(tmp, "d.hit.docx"), cache)
        check("read back: same bytes", hit == off)
        # a docx with a toc: its layout's faces answered from the side file
        faces = cache + ".faces"
        for name, simple in (("docs-toc", True), ("docs-captions-ja", False)):
            spec = os.path.join(SRC, "fixtures", name, "spec.json")
            base = os.path.join(tmp, name)
            off = render(spec, base + ".off.docx", "off")
            for p in (cache, faces):
                if os.path.exists(p):
                    os.unlink(p)
            miss = render(spec, base + ".miss.docx", cache, base + ".miss.log")
            check("%s: side file written" % name, os.path.exists(faces))
            hit = render(spec, base + ".hit.docx", cache, base + ".hit.log")
            check("%s: miss bytes" % name, miss == off)
            check("%s: hit bytes" % name, hit == off)
            check("%s: the miss starts fontconfig" % name, read_fonts_conf(base + ".miss.log"))
            if simple:
                check("%s: the hit does not" % name, not read_fonts_conf(base + ".hit.log"))
                p = subprocess.run([QUIRE, "render", spec, "-o", base + ".t.docx"], capture_output=True,
                                   env=dict(os.environ, QUIRE_FONT_CACHE=cache, QUIRE_PDF_FACE_TRACE="1"))
                check("%s: trace" % name, b"quire: toc: fontconfig not asked" in p.stderr, p.stderr)
        with open(faces, "r+b") as f:
            f.write(b"garbage!" * 8)
        spec = os.path.join(SRC, "fixtures", "docs-toc", "spec.json")
        dmg = render(spec, os.path.join(tmp, "f.dmg.docx"), cache)
        check("damaged side file: same bytes", dmg == render(spec, os.path.join(tmp, "f.off.docx"), "off"))
        with open(faces, "rb") as f:
            check("damaged side file: replaced", f.read(16) == b"quire-side faces")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL", f)
    print("%d passed, %d failed" % (0 if failures else 1, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
