#!/usr/bin/env python3
"""test_error_codes.py: every stable error code is reachable and maps to its exit code.

The README's "Error codes" table is the contract: this test reads it (code ->
exit), then makes the command fail once per code, and checks the result
line's "code", the exit code, "retryable" (only for unavailable) and that
the stderr hint names a CLI command, never a library function. The binding
raises the subclass of QuireError named after the same code. Runs on both
backends (not_found, conflict, damaged, quota on the store under test).
"""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import BINDING_DIR, SRC, backend, close_all, new_store, run, sql  # noqa: E402


def table():
    """code -> exit, from README.md's error-code table."""
    rows = {}
    with open(os.path.join(SRC, "README.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^\|\s*(\d+)\s*\|\s*([a-z_]+)\s*\|", line)
            if m:
                rows[m.group(2)] = int(m.group(1))
    return rows


def main():
    want = table()
    assert set(want) == {"ok", "invalid", "usage", "failed", "damaged", "limit", "quota", "not_found",
                         "conflict", "unavailable"}, want
    tmp = tempfile.mkdtemp(prefix="quire-codes-")
    try:
        store = new_store(tmp)
        good = os.path.join(tmp, "good.json")
        with open(good, "w") as f:
            json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "x"}]}, f)
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            json.dump({"blocks": [{"type": "heading", "level": 9, "text": "x"}]}, f)
        empty = tempfile.mkdtemp(prefix="quire-nosrv-")
        down = "postgresql:///nodb?host=%s&connect_timeout=2" % empty
        S = ["--store", store]
        rc, out, _ = run("create", "-k", "document", "--id", "a1", "--owner", "o1", *S, good)
        assert rc == 0 and json.loads(out)["status"] == "ok", out
        rc, out, _ = run("create", "-k", "document", "--id", "d1", *S, good)
        assert rc == 0, out
        # damage d1's version 1 spec
        if backend() == "pg":
            sql(store, "UPDATE quire_versions SET spec = spec || ' ' WHERE artifact_id = 'd1'")
        else:
            with open(os.path.join(store, "d1", "v000001.json"), "a") as f:
                f.write(" ")
        cases = {
            "invalid": ["create", "-k", "document", *S, bad],
            "usage": ["create", *S, good],
            "failed": ["create", "-k", "document", *S, os.path.join(tmp, "missing.json")],
            "damaged": ["show", "d1", *S],
            "limit": ["render", good, "-o", os.path.join(tmp, "x.docx"), "--max-input", "5"],
            "quota": ["create", "-k", "document", "--owner", "o1", "--max-artifacts", "1", *S, good],
            "not_found": ["show", "nope", *S],
            "conflict": ["create", "-k", "document", "--id", "a1", *S, good],
            "unavailable": ["list", "--store", down],
        }
        assert set(cases) == set(want) - {"ok"}
        for code, args in cases.items():
            rc, out, err = run(*args)
            r = json.loads(out)
            assert r["status"] == "error" and r["code"] == code, (code, out)
            assert rc == want[code], (code, rc, want[code], out)
            assert r.get("retryable", False) == (code == "unavailable"), (code, out)
            assert "qr_" not in err and "qr_" not in out, (code, out, err)  # CLI wording only
            if code in ("not_found", "conflict", "damaged", "unavailable"):
                assert "store folder postgresql" not in out, out
            print("%-11s exit %d: %s" % (code, rc, r["error"][:70]))
        shutil.rmtree(empty)

        # the binding: the subclass of the same name
        sys.path.insert(0, BINDING_DIR)
        import quire
        st = quire.Store(store)
        for code, call in (("not_found", lambda: st.show("nope")),
                           ("conflict", lambda: st.create("document", json.load(open(good)), id="a1")),
                           ("invalid", lambda: st.create("document", json.load(open(bad)))),
                           ("damaged", lambda: st.show("d1")),
                           ("usage", lambda: st.create("nokind", {}))):
            try:
                call()
                raise AssertionError(code + ": no error")
            except quire.QuireError as e:
                assert e.error_code == code and type(e).error_code == code, (code, type(e), e)
                assert e.exit_code == want[code], (code, e.exit_code)
                assert e.retryable is False
        st.close()
        print("binding: NotFoundError, ConflictError, InvalidError, DamagedError, UsageError")
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
