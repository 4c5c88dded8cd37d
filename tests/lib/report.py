"""report.py: what the layout report tests (tests/report) share: the quire
binary and the Python binding from the environment, a scratch folder, the
ok/FAIL check lines, a PNG of any size, and a render through the CLI.

    from report import check, done, png, render, scratch
    tmp = scratch("qr-report-")
    rc, res, exists = render({"title": "T", "slides": []}, "pptx")
    check(rc == 0, "render")
    done()   # exit 1 when a check failed, else 0

env: QUIRE (default quire), QUIRE_SOURCE_DIR (for the binding).
"""
import json
import os
import struct
import subprocess
import sys
import tempfile
import zlib

QUIRE = os.environ.get("QUIRE", "quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
fails = []
tmp = None


def binding():
    """The Python binding (bindings/python), imported."""
    sys.path.insert(0, os.path.join(SRC, "bindings", "python"))
    import quire
    return quire


def scratch(prefix):
    """A new temporary folder, where render() writes its spec and output."""
    global tmp
    tmp = tempfile.mkdtemp(prefix=prefix)
    return tmp


def check(cond, what):
    """Print "ok   what" or "FAIL what"; a failure is counted for done()."""
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        fails.append(what)


def done():
    sys.exit(1 if fails else 0)


def png(w, h):
    """A w x h RGB PNG of one colour."""
    raw = b"".join(b"\x00" + b"\x80\x40\x20" * w for _ in range(h))

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def render(spec, ext, *args):
    """(exit code, result line, output exists) of quire render of spec to
    scratch's out.EXT (removed first)."""
    p = os.path.join(tmp, "spec.json")
    with open(p, "w") as f:
        json.dump(spec, f)
    out = os.path.join(tmp, "out." + ext)
    if os.path.exists(out):
        os.unlink(out)
    r = subprocess.run([QUIRE, "render", p, "-o", out] + list(args), capture_output=True, text=True)
    return r.returncode, json.loads(r.stdout), os.path.exists(out)
