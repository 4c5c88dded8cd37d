"""What the store tests share: where quire and its source are, running the
command and reading its JSON line, writing spec files, the binding in a
child process, and (from pg.py) the store to run against.

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from store import QUIRE, SRC, call, new_store, close_all

    store = new_store(tmp)                       # a folder, or a fresh database (QUIRE_STORE_BACKEND=pg)
    rc, r = call("create", "-k", "document", "--store", store, spec)   # r: the JSON line, parsed
    rc, r, err = run_json("edit", ...)           # ... and stderr
    rc, out, err = run("show", ...)              # stdout and stderr as text
    r = ok("log", aid, "--store", store)         # asserts exit 0
    p = binding(CODE, store)                     # python3 -c CODE store, the binding importable

Every test of tests/store runs once per backend (pg.py says how).
"""
import json
import os
import subprocess
import sys
import threading
import time

from pg import Server, artifact_ids, backend, close_all, new_store, owner_bytes, server, spec_text, sql  # noqa: F401

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
BINDING_DIR = os.path.join(SRC, "bindings", "python")


def run(*args, **kw):
    """quire ARGS: (exit code, stdout, stderr), as text."""
    p = subprocess.run([QUIRE, *args], capture_output=True, text=True, **kw)
    return p.returncode, p.stdout, p.stderr


def parse(out):
    """A result line parsed; anything else (a spec, a diff) as it is."""
    return json.loads(out) if out.startswith("{") else out


def run_json(*args, **kw):
    """quire ARGS: (exit code, the result line parsed, stderr)."""
    rc, out, err = run(*args, **kw)
    return rc, parse(out), err


def call(*args, **kw):
    """quire ARGS: (exit code, the result line parsed)."""
    rc, out, _ = run_json(*args, **kw)
    return rc, out


def ok(*args):
    """quire ARGS, which must exit 0: the result line parsed."""
    rc, out, err = run(*args)
    assert rc == 0, (args, rc, out, err)
    return parse(out)


def repeat_keyed(args, unknown):
    """quire ARGS (a keyed write), repeated while the store is unavailable
    (exit 7) as a gateway would; each "while committing" answer is appended
    to unknown. (exit code, result) of the first other answer, or
    (None, None) after 400 tries."""
    for _ in range(400):
        rc, r = call(*args)
        if rc != 7:
            return rc, r
        if "while committing" in r.get("error", ""):
            unknown.append(r)
        time.sleep(0.05)
    return None, None


def under_restarts(worker, threads=4, restarts=3, settle=0.8):
    """worker(w, stop) on `threads` threads while the PostgreSQL server stops
    and starts `restarts` times; then stop is set and the threads joined."""
    stop = threading.Event()
    ts = [threading.Thread(target=worker, args=(w, stop)) for w in range(threads)]
    for t in ts:
        t.start()
    srv = server()
    for _ in range(restarts):
        time.sleep(0.8)
        srv.stop("fast")
        time.sleep(0.5)
        srv.start()
    time.sleep(settle)
    stop.set()
    for t in ts:
        t.join()


def write(path, obj):
    """obj as JSON into path; returns path."""
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


def versions(store, aid):
    """quire log: the versions of aid."""
    rc, r = call("log", aid, "--store", store)
    assert rc == 0, r
    return r["versions"]


def texts(store, aid):
    """The paragraph texts of aid's head, in order."""
    rc, out, err = run("show", aid, "--store", store)
    assert rc == 0, (out, err)
    return [b.get("text") for b in json.loads(out)["blocks"]]


def binding_env():
    """The environment of a child that imports the binding (QUIRE_SOURCE_DIR set)."""
    return dict(os.environ, QUIRE_SOURCE_DIR=SRC)


def binding(code, *argv):
    """python3 -c CODE ARGV with bindings/python importable as `quire`
    (the child's `import quire` finds it): the CompletedProcess, as text."""
    head = "import json, os, subprocess, sys\nsys.path.insert(0, %r)\nimport quire\n" % BINDING_DIR
    return subprocess.run([sys.executable, "-c", head + code, *argv], capture_output=True, text=True,
                          env=binding_env())


def has_binding():
    """The binding's tests need libquire (QUIRE_LIB, which the build sets)."""
    return bool(os.environ.get("QUIRE_LIB"))
