"""The harness of the abuse suite (tests/abuse/test_*.py, issue 17).

Every quire command a test runs goes through Case.quire(), which checks
what the suite promises for all of them:
  - it returns within CPU_BUDGET seconds of CPU (RLIMIT_CPU kills it past
    that, which fails the test) and WALL_BUDGET of wall time (a hang);
  - it exits 0-4, never by a signal;
  - it leaves no temp file (".NAME.XXXXXX") in its folder;
  - a failed run (exit != 0) changes no existing file of the folder.
Results are the JSON line quire prints last on stdout."""
import hashlib
import json
import os
import re
import resource
import selectors
import shutil
import signal
import struct
import tempfile
import time
import unittest
import zlib

QUIRE = os.environ.get("QUIRE", "build/quire")
# Under ASan (CI's sanitizer step sets ASAN_OPTIONS) every run costs several
# times the CPU and memory: the budgets scale, the promises stay.
SANITIZED = "ASAN_OPTIONS" in os.environ
SLOW = float(os.environ.get("QUIRE_ABUSE_SLOW", "30" if SANITIZED else "1"))
MEM_SLOW = 3 if SANITIZED else 1
CPU_BUDGET = 10.0
# The machine is shared (ctest runs two suites at once, LibreOffice among
# them): wall time only catches a hang, the CPU limit is the promise.
WALL_BUDGET = 240.0 * SLOW
TEMP_RE = re.compile(r"^\..+\.[A-Za-z0-9]{6}$")


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(w, h, rgb=(200, 40, 40), ppm=None):
    """An 8-bit RGB PNG of one colour (ppm: a pHYs chunk, pixels per metre)."""
    raw = (b"\0" + bytes(rgb) * w) * h
    s = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    if ppm is not None:
        s += chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    return s + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def big_png(i, size=8000):
    """A size x size 1-bit palette PNG (a few KB), distinct for each i."""
    raw = (b"\0" + b"\x0f" * (size // 8)) * size
    plte = bytes([i * 5 % 256, 255 - i * 5 % 256, i * 37 % 256, 255, 255, 255])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 1, 3, 0, 0, 0)) +
            chunk(b"PLTE", plte) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def snapshot(folder):
    """Every file under folder (not following links) and a hash of its bytes."""
    snap = {}
    for root, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            p = os.path.join(root, name)
            st = os.lstat(p)
            if not (st.st_mode & 0o170000 == 0o100000):
                snap[p] = ("special", st.st_mode)
                continue
            with open(p, "rb") as f:
                snap[p] = hashlib.sha256(f.read()).hexdigest()
    return snap


def temp_files(folder):
    found = []
    for root, dirs, files in os.walk(folder):
        found += [os.path.join(root, n) for n in files if TEMP_RE.match(n)]
    return found


class Run:
    def __init__(self, code, out, err, cpu, wall, rss):
        self.code, self.out, self.err, self.cpu, self.wall, self.rss = code, out, err, cpu, wall, rss
        self.result = None
        for ln in reversed(out.splitlines()):
            try:
                self.result = json.loads(ln) if ln.startswith("{") else None
            except ValueError:
                continue  # show prints the spec itself, over many lines
            if self.result is not None:
                break

    def messages(self, key="errors"):
        return [e["message"] for e in (self.result or {}).get(key, [])]

    def paths(self, key="errors"):
        return [e["path"] for e in (self.result or {}).get(key, [])]


def spawn(args, cwd, stdin_fd=None, cpu_budget=CPU_BUDGET):
    """fork + exec quire under RLIMIT_CPU; returns (pid, stdout fd, stderr fd)."""
    r_out, w_out = os.pipe()
    r_err, w_err = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.chdir(cwd)
            limit = int(cpu_budget) + 1
            resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))
            if stdin_fd is None:
                stdin_fd = os.open("/dev/null", os.O_RDONLY)
            os.dup2(stdin_fd, 0)
            os.dup2(w_out, 1)
            os.dup2(w_err, 2)
            os.execv(QUIRE, [QUIRE] + args)
        finally:
            os._exit(127)
    os.close(w_out)
    os.close(w_err)
    return pid, r_out, r_err


def collect(pid, r_out, r_err, t0, wall_budget=WALL_BUDGET):
    out = {r_out: b"", r_err: b""}
    sel = selectors.DefaultSelector()
    sel.register(r_out, selectors.EVENT_READ)
    sel.register(r_err, selectors.EVENT_READ)
    left, hung = 2, False
    while left:
        events = sel.select(timeout=1.0)
        if time.monotonic() - t0 > wall_budget and not hung:
            os.kill(pid, signal.SIGKILL)
            hung = True
        for key, _ in events:
            data = os.read(key.fd, 65536)
            if not data:
                sel.unregister(key.fd)
                os.close(key.fd)
                left -= 1
            elif len(out[key.fd]) < 1 << 20:
                out[key.fd] += data
    _, status, ru = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if hung:
        code = "hung"
    return Run(code, out[r_out].decode("utf-8", "replace"), out[r_err].decode("utf-8", "replace"),
               ru.ru_utime + ru.ru_stime, time.monotonic() - t0, ru.ru_maxrss * 1024)


class Case(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="quire-abuse-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, data):
        p = self.path(name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
        return p

    def spec(self, name, obj):
        return self.write(name, json.dumps(obj))

    def quire(self, *args, stdin_fd=None, cpu_budget=CPU_BUDGET):
        """Run quire in self.dir and check the promises of the module doc."""
        before = snapshot(self.dir)
        cpu_budget *= SLOW
        t0 = time.monotonic()
        pid, r_out, r_err = spawn(list(args), self.dir, stdin_fd, cpu_budget)
        run = collect(pid, r_out, r_err, t0)
        what = "quire %s" % " ".join(a if len(a) < 80 else a[:80] + "..." for a in args)
        self.assertNotEqual(run.code, "hung", "%s did not return within %.0f s" % (what, WALL_BUDGET))
        self.assertIsInstance(run.code, int)
        self.assertTrue(0 <= run.code <= 4, "%s exited %s (a signal?): %s" % (what, run.code, run.err[-500:]))
        self.assertLess(run.cpu, cpu_budget, "%s took %.1f s of CPU" % (what, run.cpu))
        self.assertEqual(temp_files(self.dir), [], "%s left a temp file" % what)
        if run.code != 0:
            after = snapshot(self.dir)
            changed = [p for p in before if after.get(p) != before[p]]
            self.assertEqual(changed, [], "%s failed (exit %d) and changed files" % (what, run.code))
            added = [p for p in after if p not in before and "lock" not in os.path.basename(p)]
            self.assertEqual(added, [], "%s failed (exit %d) and left files" % (what, run.code))
        return run
