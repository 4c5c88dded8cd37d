#!/usr/bin/env python3
"""test_binding.py: the Python binding (bindings/python/quire.py) over
libquire ($QUIRE_LIB): render, check, and a Store's create / edit /
rewrite / restore / show / log / export / diff / fsck, errors as
QuireError with their paths, quotas, ids, unchanged edits, failed renders
that append nothing, threads sharing one Store, the injectable clock."""
import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

SRC = os.environ.get("QUIRE_SOURCE_DIR") or os.path.abspath(
    os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SRC, "bindings", "python"))

import quire  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from pg import artifact_ids, backend, new_store  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

DOC = {"title": "Services Agreement",
       "blocks": [{"type": "heading", "text": "Fees", "level": 1},
                  {"type": "paragraph", "runs": ["The ", {"text": "Client", "bold": True}, " pays."]}]}
FIXED = 1782907200  # 2026-07-01T12:00:00Z


class LayoutTest(unittest.TestCase):
    """Every structure the binding mirrors has the size and field offsets of
    the one in quire's headers (a copy that falls behind a header lets
    libquire write past the Python object)."""
    PAIRS = (("qr_error", "_Error"), ("qr_errlist", "_ErrList"),
             ("qr_layout_item", "_LayoutItem"), ("qr_layout_list", "_LayoutList"),
             ("qr_render_stats", "_RenderStats"), ("qr_result", "_Result"),
             ("qr_render_opts", "_RenderOpts"), ("qr_read_opts", "_ReadOpts"),
             ("qr_store_opts", "_StoreOpts"), ("qr_store_version", "_Version"),
             ("qr_store_item", "_Item"), ("qr_store_list_result", "_List"),
             ("qr_store_result", "_StoreResult"), ("qr_store_write", "_StoreWrite"),
             ("qr_store_diff", "_Diff"), ("qr_store_fsck", "_Fsck"),
             ("qr_store_purge_report", "_Purge"))

    def test_structures_match_the_headers(self):
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            self.skipTest("no C compiler to read the headers' layouts with")
        lines = ["#include <stddef.h>", "#include <stdio.h>", "#include <quire/quire.h>",
                 "#include <quire/store.h>", "int main(void) {"]
        for c_name, py_name in self.PAIRS:
            lines.append('printf("%s %%zu\\n", sizeof(%s));' % (py_name, c_name))
            for field in getattr(quire, py_name)._fields_:
                c_field = "from" if field[0] == "from_" else field[0]
                lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));'
                             % (py_name, field[0], c_name, c_field))
        lines.append("return 0; }")
        tmp = tempfile.mkdtemp()
        try:
            src, exe = os.path.join(tmp, "layout.c"), os.path.join(tmp, "layout")
            with open(src, "w") as f:
                f.write("\n".join(lines) + "\n")
            p = subprocess.run([cc, "-std=c11", "-I", os.path.join(SRC, "include"), src, "-o", exe],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            want = dict(line.split() for line in subprocess.run(
                [exe], capture_output=True, text=True, check=True).stdout.splitlines())
        finally:
            shutil.rmtree(tmp)
        for c_name, py_name in self.PAIRS:
            cls = getattr(quire, py_name)
            self.assertEqual(ctypes.sizeof(cls), int(want[py_name]), "sizeof(%s)" % c_name)
            for field in cls._fields_:
                self.assertEqual(getattr(cls, field[0]).offset, int(want[py_name + "." + field[0]]),
                                 "%s.%s" % (c_name, field[0]))


class RenderTest(unittest.TestCase):
    def test_html_and_string_spec(self):
        html = quire.render(DOC, "html")
        self.assertIn(b"Fees", html)
        self.assertIn(b"<b>Client</b>", html.replace(b"<strong>", b"<b>").replace(b"</strong>", b"</b>"))
        # a JSON string, and a JSON string holding the object, give the same bytes
        self.assertEqual(quire.render(json.dumps(DOC), "html"), html)
        self.assertEqual(quire.render(json.dumps(json.dumps(DOC)), "html"), html)

    def test_formats(self):
        checked = []
        for fmt, magic in (("docx", b"PK"), ("pdf", b"%PDF"), ("html", b"<!")):
            if not quire.format_available(fmt):
                continue
            data = quire.render(DOC, "document", fmt)
            self.assertTrue(data.startswith(magic), fmt)
            checked.append(fmt)
        print("render formats checked:", ", ".join(checked), file=sys.stderr)
        self.assertIn("html", checked)

    def test_errors(self):
        bad = {"title": "T", "blocks": [{"type": "heading", "text": "x", "level": 9}]}
        with self.assertRaises(quire.QuireError) as cm:
            quire.render(bad, "html")
        e = cm.exception
        self.assertEqual(e.status, "spec error")
        self.assertEqual(e.exit_code, 1)
        self.assertEqual(e.errors[0]["path"], "/blocks/0/level")
        with self.assertRaises(quire.QuireError) as cm:
            quire.check(bad, "document")
        self.assertEqual(cm.exception.errors[0]["path"], "/blocks/0/level")
        quire.check(DOC, "document")
        with self.assertRaises(quire.QuireError) as cm:
            quire.render(DOC, "nonsense")
        self.assertEqual(cm.exception.exit_code, 2)


class StoreTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="quire-py-")
        self.store = new_store(self.dir)
        self.st = quire.Store(self.store, now=lambda: FIXED)

    def tearDown(self):
        self.st.close()
        shutil.rmtree(self.dir)

    def test_lifecycle(self):
        st = self.st
        a = st.create("document", DOC, title="Q3 Deck", owner="alice")
        self.assertEqual(a["status"], "ok")
        self.assertEqual(a["version"], 1)
        self.assertEqual(a["filename"], "Q3_Deck.docx")
        self.assertEqual(a["mime_type"],
                         "application/vnd.openxmlformats-officedocument.wordprocessingml.document")
        self.assertEqual(len(a["artifact_id"]), 16)
        aid = a["artifact_id"]
        data = st.export(aid)
        self.assertEqual(len(data), a["size"])
        self.assertTrue(data.startswith(b"PK"))

        b = st.edit(aid, patch={"title": "New title"})
        self.assertEqual(b["version"], 2)
        self.assertEqual(b["filename"], "Q3_Deck.docx")  # stable across versions
        c = st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "Appended"}]},
                    ops=[{"op": "replace", "path": "/blocks/0/text", "value": "Charges"}])
        self.assertEqual(c["version"], 3)
        spec = st.show(aid)
        self.assertEqual(spec["title"], "New title")
        self.assertEqual(spec["blocks"][0]["text"], "Charges")
        self.assertEqual(spec["blocks"][-1], {"type": "paragraph", "text": "Appended"})
        self.assertTrue(st.show_text(aid, 1).endswith("\n"))
        self.assertEqual(st.show(aid, 1), json.loads(json.dumps(DOC)))

        # an edit that changes nothing appends nothing
        u = st.edit(aid, patch={"title": "New title"})
        self.assertTrue(u["unchanged"])
        self.assertEqual(u["version"], 3)

        r = st.restore(aid, 1)
        self.assertEqual(r["version"], 4)
        self.assertEqual(r["action"], "restore")
        self.assertEqual(st.export(aid, 4), st.export(aid, 1))
        w = st.rewrite(aid, json.dumps({"title": "Rewritten", "blocks": []}))
        self.assertEqual(w["version"], 5)

        log = st.log(aid)
        self.assertEqual([v["version"] for v in log], [1, 2, 3, 4, 5])
        self.assertEqual([v["action"] for v in log], ["create", "edit", "edit", "restore", "rewrite"])
        self.assertEqual([v["parent"] for v in log], [None, 1, 2, 3, 4])
        self.assertEqual(log[3]["restored_from"], 1)
        self.assertTrue(all(v["created"] == "2026-07-01T12:00:00Z" for v in log))

        d = st.diff(aid, 1, 3)
        self.assertEqual(d["changed"], ["/title", "/blocks/0/text"])
        self.assertEqual(d["added"], ["/blocks/2"])
        self.assertIn('-  "title": "Services Agreement",', d["diff"])
        self.assertIn('+  "title": "New title",', d["diff"])

        f = st.fsck()
        self.assertEqual(f["status"], "ok", f)
        self.assertEqual((f["artifacts"], f["versions"]), (1, 5))

    def test_import_file(self):
        """Store.import_file (quire import): the fields create returns, the
        file itself as version 1's bytes, key= replayed, conflict on another
        request; a path's name is the title."""
        st = self.st
        a = st.create("document", DOC, id="src", title="Source")
        docx = st.export("src")
        i = st.import_file(docx, owner="alice", key="imp-1")
        for k in ("status", "artifact_id", "version", "filename", "mime_type", "size", "pages", "head",
                  "kind", "title", "owner", "action", "unchanged", "replayed", "sha256", "warnings"):
            self.assertIn(k, i)
        self.assertEqual(set(i), set(a))  # the same fields as create
        self.assertEqual((i["version"], i["head"], i["action"], i["kind"]), (1, 1, "import", "document"))
        self.assertEqual((i["owner"], i["size"], i["replayed"]), ("alice", len(docx), False))
        self.assertEqual(st.export(i["artifact_id"]), docx)
        self.assertEqual(st.show(i["artifact_id"])["blocks"][0]["text"], "Fees")
        again = st.import_file(docx, owner="alice", key="imp-1")
        self.assertTrue(again["replayed"])
        self.assertEqual((again["artifact_id"], again["version"]), (i["artifact_id"], 1))
        with self.assertRaises(quire.ConflictError):
            st.import_file(docx, owner="bob", key="imp-1")
        path = os.path.join(self.dir, "Board minutes.docx")
        with open(path, "wb") as f:
            f.write(docx)
        p = st.import_file(path, id="minutes")
        self.assertEqual((p["artifact_id"], p["title"], p["filename"]), ("minutes", "Board minutes",
                                                                          "Board_minutes.docx"))
        pdf = quire.render(DOC, "pdf")
        q = st.import_file(bytes(pdf))
        self.assertEqual((q["kind"], q["mime_type"]), ("pdf", "application/pdf"))
        with self.assertRaises(quire.QuireError):
            st.import_file(b"not a document")
        self.assertEqual(len(st.list()["artifacts"]), 4)

    def test_keyed_delete(self):
        """delete/undelete(key=): a repeat answers as the first call did
        (replayed), also after an undelete and after a purge; another
        request under the key is a conflict."""
        st = self.st
        st.create("document", DOC, id="kd")
        d = st.delete("kd", key="del-kd")
        self.assertEqual((d["trash"], d["replayed"], d["head"]), (True, False, 1))
        self.assertTrue(st.delete("kd", key="del-kd")["replayed"])
        with self.assertRaises(quire.ConflictError):
            st.delete("kd", key="del-kd", if_version=1)
        u = st.undelete("kd", key="und-kd")
        self.assertEqual((u["undeleted"], u["replayed"]), (True, False))
        self.assertTrue(st.undelete("kd", key="und-kd")["replayed"])
        self.assertTrue(st.delete("kd", key="del-kd")["replayed"])
        self.assertEqual(st.get("kd")["head"], 1)  # still live: the repeat deleted nothing
        p = st.delete("kd", purge=True, key="pur-kd")
        self.assertEqual((p["trash"], p["replayed"]), (False, False))
        r = st.delete("kd", purge=True, key="pur-kd")
        self.assertEqual((r["artifact_id"], r["replayed"], r["head"], r["kind"]), ("kd", True, 1, None))
        with self.assertRaises(quire.NotFoundError):
            st.get("kd")

    def test_edit_errors(self):
        aid = self.st.create("html", DOC, id="page")["artifact_id"]
        self.assertEqual(aid, "page")
        cases = [
            (dict(ops=[{"op": "test", "path": "/title", "value": "Services Agreement"},
                       {"op": "remove", "path": "/blocks/7"}]), "/ops/1/path",
             'cannot remove "/blocks/7": index 7 is out of range: the array at "/blocks" has 2 items'),
            (dict(append={"blocks": {"type": "page_break"}}), "/spec_append/blocks",
             "spec_append['blocks'] must be a list of items to append."),
            (dict(append={"title": ["x"]}), "/spec_append/title",
             "spec_append target 'title' is not a list in the current spec."),
            (dict(), "", "edit needs spec_patch, spec_append and/or ops."),
        ]
        for kwargs, path, message in cases:
            with self.assertRaises(quire.QuireError) as cm:
                self.st.edit(aid, **kwargs)
            self.assertEqual(cm.exception.errors[0]["path"], path)
            self.assertEqual(cm.exception.errors[0]["message"], message)
            self.assertEqual(cm.exception.exit_code, 1)
        # an edit the compiler rejects names the spec path, and writes nothing
        with self.assertRaises(quire.QuireError) as cm:
            self.st.edit(aid, ops=[{"op": "replace", "path": "/blocks/0/level", "value": 9}])
        self.assertEqual(cm.exception.errors[0]["path"], "/blocks/0/level")
        # a patch sent as a JSON string holding the object is accepted
        ok = self.st.edit(aid, patch=json.dumps({"lang": "en"}))
        self.assertEqual(ok["version"], 2)
        self.assertEqual(len(self.st.log(aid)), 2)
        with self.assertRaises(quire.QuireError) as cm:
            self.st.log("nope")
        # the message names the store: its folder, or the database's URI
        self.assertRegex(cm.exception.message, r'^no artifact "nope" in the (store /|PostgreSQL database postgres)')
        self.assertEqual(cm.exception.exit_code, 5)
        self.assertIsInstance(cm.exception, quire.NotFoundError)
        self.assertEqual(cm.exception.error_code, "not_found")

    def test_ids(self):
        for bad in ("../x", "/etc/passwd", "", "a/b", "x" * 65):
            with self.assertRaises(quire.QuireError) as cm:
                self.st.create("html", DOC, id=bad)
            self.assertEqual(cm.exception.exit_code, 2, bad)
            with self.assertRaises(quire.QuireError):
                self.st.show(bad)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x")))
        if backend() == "folder":
            self.assertEqual(sorted(os.listdir(os.path.join(self.dir, "store"))), [".owners", "blobs"])
        self.assertEqual(artifact_ids(self.store), [])

    def test_failed_render_appends_nothing(self):
        aid = self.st.create("html", DOC)["artifact_id"]
        small = quire.Store(self.store, max_output=4000)
        try:
            big = [{"type": "paragraph", "text": "x" * 100}] * 50
            with self.assertRaises(quire.QuireError) as cm:
                small.edit(aid, append={"blocks": big})
            self.assertEqual(cm.exception.status, "limit exceeded")
            self.assertEqual(cm.exception.exit_code, 4)
            with self.assertRaises(quire.QuireError):
                small.create("html", {"title": "T", "blocks": big}, id="never")
        finally:
            small.close()
        self.assertEqual(len(self.st.log(aid)), 1)
        with self.assertRaises(quire.QuireError):
            self.st.log("never")
        self.assertEqual(self.st.fsck()["stray"], [])

    def test_quotas(self):
        st = quire.Store(new_store(self.dir, "q"), max_artifacts=2, max_version_bytes=3000)
        try:
            st.create("html", DOC, owner="o")
            st.create("html", DOC, owner="o")
            with self.assertRaises(quire.QuireError) as cm:
                st.create("html", DOC, owner="o")
            self.assertEqual(cm.exception.message,
                             "artifact count quota reached (2); delete artifacts to free space")
            self.assertEqual(cm.exception.status, "quota exceeded")
            self.assertEqual(cm.exception.exit_code, 4)
            st.create("html", DOC, owner="other")
            big = {"title": "T", "blocks": [{"type": "paragraph", "text": "y" * 4000}]}
            with self.assertRaises(quire.QuireError) as cm:
                st.create("html", big, owner="p")
            self.assertRegex(cm.exception.message,
                             r"^artifact is too large: \d+ bytes exceeds the 3000-byte per-file cap$")
        finally:
            st.close()

    def test_threads(self):
        aid = self.st.create("html", {"title": "T", "blocks": []})["artifact_id"]
        errors = []

        def work(t):
            try:
                for i in range(25):
                    self.st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "t%d-%d" % (t, i)}]})
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        log = self.st.log(aid)
        self.assertEqual([v["version"] for v in log], list(range(1, 202)))
        texts = [b["text"] for b in self.st.show(aid)["blocks"]]
        self.assertEqual(sorted(texts), sorted("t%d-%d" % (t, i) for t in range(8) for i in range(25)))
        for n in (2, 100, 201):
            self.assertEqual(len(self.st.show(aid, n)["blocks"]), n - 1)


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=2).result))
