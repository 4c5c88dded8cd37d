#!/usr/bin/env python3
"""test_folder_abuse.py: the folder store against hostile files and a full
disk (issue 17 items 3, 6 and 12). Every command must return within 10 s,
exit 0-4 (never a signal) and change nothing it should not.

  - item 3: a version's spec replaced by a FIFO, or by a 2 GB sparse file:
    show, edit, export and fsck answer at once (exit 3, "not a regular
    file" / "larger than the version limit"), print nothing of it, and an
    edit appends nothing; meta.json as a FIFO too;
  - item 6: a version file replaced by a symlink or by a directory: fsck
    reports it as a problem (exit 3), with and without --repair;
  - item 12: a write that fails for a full disk (RLIMIT_FSIZE, so the spec
    file cannot be written after the blob was) fails with exit 3 and leaves
    no blob no version references: the blob folder is as before and fsck
    lists nothing stray.
"""
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import QUIRE  # noqa: E402


def run(*args, limit_fsize=None):
    def pre():
        resource.setrlimit(resource.RLIMIT_CPU, (10, 10))
        if limit_fsize:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    p = subprocess.run([QUIRE, *args], capture_output=True, timeout=10, preexec_fn=pre)
    assert 0 <= p.returncode <= 4, (args, p.returncode)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def make(tmp, name, versions=2):
    store = os.path.join(tmp, name)
    spec = os.path.join(tmp, "s.json")
    with open(spec, "w") as f:
        json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "secret-marker"}]}, f)
    rc, out, err = run("create", "-k", "html", "--id", "a", "--store", store, spec)
    assert rc == 0, out
    app = os.path.join(tmp, "app.json")
    with open(app, "w") as f:
        json.dump({"blocks": [{"type": "paragraph", "text": "more"}]}, f)
    for _ in range(versions - 1):
        rc, out, err = run("edit", "a", "--append", app, "--store", store)
        assert rc == 0, out
    return store, app


def main():
    tmp = tempfile.mkdtemp(prefix="quire-abuse-")
    try:
        # item 3: a FIFO and a huge sparse file in place of the head's spec
        for what in ("fifo", "huge"):
            store, app = make(tmp, what)
            path = os.path.join(store, "a", "v000002.json")
            os.unlink(path)
            if what == "fifo":
                os.mkfifo(path)
            else:
                with open(path, "wb") as f:
                    f.truncate(2 << 30)
            want = "not a regular file" if what == "fifo" else "larger than the version limit"
            for cmd in (["show", "a"], ["edit", "a", "--append", app], ["show", "a", "--version", "2"]):
                rc, out, err = run(*cmd, "--store", store)
                assert rc == 3, (what, cmd, rc, out)
                assert want in json.loads(out)["error"], (what, cmd, out)
                assert len(out) < 2000, len(out)
            rc, out, err = run("fsck", "--store", store)
            assert rc == 3 and any(want in p["message"] for p in json.loads(out)["problems"]), out
            rc, out, err = run("log", "a", "--store", store)
            assert rc == 0 and json.loads(out)["head"] == 2, out  # the edit appended nothing
            rc, out, err = run("show", "a", "--version", "1", "--store", store)
            assert rc == 0 and "secret-marker" in out, out
        # a damaged spec (same size, other bytes) is refused before printing
        store, app = make(tmp, "flip")
        path = os.path.join(store, "a", "v000001.json")
        with open(path, "r+b") as f:
            data = f.read()
            f.seek(0)
            f.write(data.replace(b"secret-marker", b"SECRET-MARKER"))
        rc, out, err = run("show", "a", "--version", "1", "--store", store)
        assert rc == 3 and "SECRET" not in out and "damaged" in json.loads(out)["error"], out
        # meta.json as a FIFO
        store, app = make(tmp, "metafifo")
        os.unlink(os.path.join(store, "a", "meta.json"))
        os.mkfifo(os.path.join(store, "a", "meta.json"))
        for cmd in (["show", "a"], ["edit", "a", "--append", app], ["fsck"]):
            rc, out, err = run(*cmd, "--store", store)
            assert rc == 3, (cmd, rc, out)
        print("item 3: FIFOs and a 2 GB file in the store answer at once, exit 3, nothing printed")

        # item 6: a version replaced by a symlink or a directory
        for what in ("symlink", "dir"):
            for ext in ("json", "meta"):
                store, app = make(tmp, "%s-%s" % (what, ext))
                path = os.path.join(store, "a", "v000001." + ext)
                keep = path + ".orig"
                os.rename(path, os.path.join(tmp, "moved-%s-%s" % (what, ext)))
                if what == "symlink":
                    os.symlink(os.path.join(tmp, "moved-%s-%s" % (what, ext)), path)
                else:
                    os.mkdir(path)
                for repair in ([], ["--repair"]):
                    rc, out, err = run("fsck", *repair, "--store", store)
                    r = json.loads(out)
                    assert rc == 3 and r["status"] == "error", (what, ext, repair, out)
                    assert any(p["path"] == "a/v000001." + ext for p in r["problems"]), (what, ext, out)
                assert os.path.islink(path) if what == "symlink" else os.path.isdir(path)
                del keep
        print("item 6: a version replaced by a symlink or a directory is a problem, with and without --repair")

        # item 12: a full disk after the blob was written
        store = os.path.join(tmp, "full")
        spec = os.path.join(tmp, "sheet.json")
        with open(spec, "w") as f:
            json.dump({"title": "S", "sheets": [{"name": "S", "rows": [["x"]]}]}, f)
        rc, out, err = run("create", "-k", "spreadsheet", "--id", "s", "--store", store, spec)
        assert rc == 0, out
        blobs_before = sorted(os.listdir(os.path.join(store, "blobs")))
        rows = [["the same long cell text, shared in the xlsx, repeated in the spec"] * 4] * 1500
        app = os.path.join(tmp, "rows.json")
        with open(app, "w") as f:
            json.dump([{"op": "replace", "path": "/sheets/0/rows", "value": rows}], f)
        rc, out, err = run("edit", "s", "--ops", app, "--store", store, limit_fsize=150 * 1024)
        assert rc == 3, (rc, out)
        assert "File too large" in json.loads(out)["error"] or "cannot write" in json.loads(out)["error"], out
        assert sorted(os.listdir(os.path.join(store, "blobs"))) == blobs_before, os.listdir(os.path.join(store, "blobs"))
        rc, out, err = run("fsck", "--store", store)
        r = json.loads(out)
        assert rc == 0 and r["stray"] == [] and r["problems"] == [], out
        rc, out, err = run("edit", "s", "--ops", app, "--store", store)
        assert rc == 0 and json.loads(out)["version"] == 2, out
        size = json.loads(out)["size"]
        assert size < 150 * 1024, size  # the blob fitted under the limit: the spec file did not
        print("item 12: a write failing on a full disk leaves no blob (fsck clean)")
        print("ok")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
