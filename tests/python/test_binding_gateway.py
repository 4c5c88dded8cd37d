#!/usr/bin/env python3
"""test_binding_gateway.py: what a gateway uses from the Python binding,
on both backends.

  - render() returns bytes with .pages and .warnings; png_page, dpi and
    base_dir choose the PNG page, its resolution and the image folder;
  - spec_edit() and spec_canonical() work without a store, with the same
    result as a stored edit, and errors name their paths;
  - Store.list / delete / log(limit=) work as the CLI's;
  - close() while 8 threads edit: no crash (3 runs); each call either
    finishes or raises QuireError "the store is closed"; the store is whole;
  - (folder run) `pip install ./bindings/python` into a venv gives a module
    that renders.
"""
import subprocess
import json
import os
import re
import shutil
import struct
import sys
import tempfile
import threading
import zlib

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "bindings", "python"))
import quire  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pg import backend, close_all, new_store  # noqa: E402


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def tiny_png(path):
    raw = b"\x00\xff\x00\x00" * 1
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    tmp = tempfile.mkdtemp(prefix="quire-gw-")
    print("backend: %s" % backend())
    try:
        doc = {"title": "T", "blocks": [{"type": "paragraph", "text": "one"}, {"type": "page_break"},
                                        {"type": "paragraph", "text": "two"}]}
        if quire.format_available("pdf"):
            pdf = quire.render(doc, "document", "pdf")
            assert pdf.startswith(b"%PDF") and pdf.pages == 2 and pdf.warnings == [], (pdf.pages, pdf.warnings)
            p1 = quire.render(doc, "document", "png", png_page=1, dpi=50)
            p2 = quire.render(doc, "document", "png", png_page=2, dpi=100)
            w1, h1 = png_size(p1)
            w2, h2 = png_size(p2)
            assert abs(w2 - 2 * w1) <= 1 and abs(h2 - 2 * h1) <= 1, (w1, h1, w2, h2)
            assert p1 != quire.render(doc, "document", "png", png_page=2, dpi=50)
            os.mkdir(os.path.join(tmp, "img"))
            tiny_png(os.path.join(tmp, "img", "dot.png"))
            img = {"title": "I", "blocks": [{"type": "image", "src": "dot.png"}]}
            with_img = quire.render(img, "document", "pdf", base_dir=os.path.join(tmp, "img"))
            assert with_img.startswith(b"%PDF") and with_img.pages == 1
            try:
                quire.render(img, "document", "pdf", base_dir=tmp)
                raise AssertionError("a missing image file must fail")
            except quire.QuireError as e:
                assert e.errors and e.errors[0]["path"] == "/blocks/0/src", e.errors
        html = quire.render(doc, "html")
        assert isinstance(html, bytes) and html.data == bytes(html)
        print("render: bytes with pages and warnings; png_page, dpi, base_dir")

        edited = quire.spec_edit(doc, "document", patch={"title": "New"},
                                 append={"blocks": [{"type": "paragraph", "text": "three"}]},
                                 ops=[{"op": "remove", "path": "/blocks/1"}])
        assert edited["title"] == "New" and [b.get("text") for b in edited["blocks"]] == ["one", "two", "three"]
        canon = quire.spec_canonical(edited, "document")
        assert canon == quire.spec_canonical(json.dumps(json.dumps(edited)))
        for bad, path in (({"ops": [{"op": "remove", "path": "/nope"}]}, "/ops/0/path"),
                          ({"ops": [{"op": "replace", "path": "/blocks/0/type", "value": "nonsense"}]}, None)):
            try:
                quire.spec_edit(doc, "document", **bad)
                raise AssertionError("must fail")
            except quire.QuireError as e:
                if path:
                    assert e.errors[0]["path"] == path, e.errors
                else:
                    assert e.status == "spec error" and e.errors[0]["path"].startswith("/blocks/0"), e.errors

        st = quire.Store(new_store(tmp), no_sync=True)
        a = st.create("document", doc, owner="user@example.com|x")
        r = st.edit(a["artifact_id"], patch={"title": "New"}, append={"blocks": [{"type": "paragraph", "text": "three"}]},
                    ops=[{"op": "remove", "path": "/blocks/1"}])
        assert st.show_text(a["artifact_id"]) == canon and r["version"] == 2
        print("spec_edit / spec_canonical: the stored edit's canonical text, without a store")

        for i in range(9):
            st.create("html", {"title": "L%d" % i, "blocks": []}, id="l%d" % i, owner="lister")
        page = st.list(owner="lister", limit=4)
        seen = [x["artifact_id"] for x in page["artifacts"]]
        while page["next"]:
            page = st.list(owner="lister", limit=4, cursor=page["next"])
            seen += [x["artifact_id"] for x in page["artifacts"]]
        assert sorted(seen) == ["l%d" % i for i in range(9)], seen
        for i in range(5):
            st.edit("l0", append={"blocks": [{"type": "paragraph", "text": str(i)}]})
        last = st.log("l0", limit=2)
        assert [v["version"] for v in last] == [5, 6] and all("pages" in v for v in last), last
        assert st.delete("l0")["versions"] == 6
        try:
            st.show("l0")
            raise AssertionError("deleted")
        except quire.QuireError as e:
            assert e.exit_code == 5 and isinstance(e, quire.NotFoundError), e
            assert re.match(r'no artifact "l0" in the (PostgreSQL database|store /)', e.message), e.message
        assert len(st.list(owner="lister")["artifacts"]) == 8
        st.close()
        print("list / delete / log(limit): ok")

        # close() while 8 threads edit
        for run in range(3):
            st = quire.Store(new_store(tmp, "c%d" % run), no_sync=True)
            aid = st.create("html", {"title": "C", "blocks": []})["artifact_id"]
            done, closed, other = [], [], []
            start = threading.Barrier(9)

            def work(t):
                start.wait()
                for i in range(200):
                    try:
                        r = st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "t%d-%d" % (t, i)}]})
                        done.append(r["version"])
                    except quire.QuireError as e:
                        (closed if e.message == "the store is closed" else other).append(e.message)
                        return

            threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
            for t in threads:
                t.start()
            start.wait()
            import time
            time.sleep(0.05 + 0.05 * run)
            st.close()
            for t in threads:
                t.join()
            assert other == [], other[:3]
            assert len(closed) == 8, (len(closed), len(done))
            assert sorted(done) == list(range(2, len(done) + 2)), "versions of finished edits"
            st2 = quire.Store(st.path, no_sync=True)
            assert len(st2.log(aid)) == len(done) + 1
            assert st2.fsck()["problems"] == []
            st2.close()
            print("close during 8 writers (run %d): %d edits finished, 8 threads told it is closed" % (run + 1, len(done)))
        if backend() == "folder":
            venv = os.path.join(tmp, "venv")
            subprocess.run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv], check=True)
            try:
                subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-build-isolation",
                                os.path.join(SRC, "bindings", "python")], check=True, cwd=tmp)
            finally:
                for leftover in ("build", "quire.egg-info"):
                    shutil.rmtree(os.path.join(SRC, "bindings", "python", leftover), ignore_errors=True)
            env = dict(os.environ)
            if env.get("QUIRE_LIB"):
                env["QUIRE_LIB"] = os.path.abspath(env["QUIRE_LIB"])
            p = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                                "import quire, sys; sys.stdout.write(quire.__file__ + ' %d' % "
                                "len(quire.render({'title': 'x', 'blocks': []}, 'html')))"],
                               capture_output=True, text=True, cwd=tmp, env=env)
            assert p.returncode == 0 and p.stdout.startswith(venv), (p.stdout, p.stderr)
            print("pip install ./bindings/python: %s" % p.stdout)
        print("ok")
    finally:
        shutil.rmtree(tmp)
        close_all()


if __name__ == "__main__":
    main()
