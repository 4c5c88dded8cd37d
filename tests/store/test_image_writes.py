#!/usr/bin/env python3
"""test_image_writes.py: the CLI's store writes (create, edit, rewrite,
restore) run on jansson's region allocator (issue 22 item 5), and the text
they get back from the library must still be malloc's: a spec naming image
files is rewritten with data: URIs (spec/inline.c) and then freed by the
CLI. Each write of such a spec succeeds, on both backends, and stores the
image inline.
"""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import SRC, backend, close_all, new_store, run  # noqa: E402

PNG = os.path.join(SRC, "fixtures", "chart-pie", "expected", "png", "page1.png")


def write(tmp, name, obj):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(obj, f)
    return path


def images(store, version=None):
    args = ["show", "img", "--store", store] + (["--version", str(version)] if version else [])
    rc, out, err = run(*args)
    assert rc == 0, err
    return [b["src"][:22] for b in json.loads(out)["blocks"] if b.get("type") == "image"]


def main():
    tmp = tempfile.mkdtemp(prefix="quire-imgw-")
    print("backend: %s" % backend())
    try:
        store = new_store(tmp)
        shutil.copy(PNG, os.path.join(tmp, "pic.png"))
        spec = write(tmp, "spec.json", {"title": "Img", "blocks": [
            {"type": "image", "src": "pic.png", "alt": "a pie"}, {"type": "paragraph", "text": "x"}]})
        rc, out, err = run("create", "-k", "document", "--id", "img", "--store", store, spec)
        assert rc == 0 and json.loads(out)["version"] == 1, (rc, out, err)
        app = write(tmp, "app.json", {"blocks": [{"type": "image", "src": "pic.png", "alt": "again"}]})
        rc, out, err = run("edit", "img", "--append", app, "--store", store)
        assert rc == 0 and json.loads(out)["version"] == 2, (rc, out, err)
        re = write(tmp, "re.json", {"title": "Img2", "blocks": [{"type": "image", "src": "pic.png", "alt": "b"}]})
        rc, out, err = run("rewrite", "img", re, "--store", store)
        assert rc == 0 and json.loads(out)["version"] == 3, (rc, out, err)
        rc, out, err = run("restore", "img", "1", "--store", store)
        assert rc == 0 and json.loads(out)["version"] == 4, (rc, out, err)
        assert images(store, 1) == ["data:image/png;base64,"], images(store, 1)
        assert images(store, 2) == ["data:image/png;base64,"] * 2, images(store, 2)
        assert images(store, 3) == ["data:image/png;base64,"], images(store, 3)
        assert images(store) == ["data:image/png;base64,"], images(store)
        print("create, edit, rewrite, restore with image files: stored as data: URIs")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
