#!/usr/bin/env python3
"""test_idempotency_binding.py: idempotency keys through the Python binding
(key= on create, edit, rewrite, restore), their retention and fsck --repair,
on both backends.

  - key= repeated with the same call returns the first payload with
    "replayed": True and writes nothing; another call with it raises
    ConflictError;
  - 8 threads of one Store sending one keyed edit: one version;
  - retention: with the store's clock 24 hours and a second later, the key
    no longer answers (a new request under it writes a new version), and
    fsck(repair=True) removes the expired record (a fresh one stays).
"""
import json
import os
import shutil
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from store import BINDING_DIR, backend, close_all, new_store, sql  # noqa: E402
sys.path.insert(0, BINDING_DIR)
import quire  # noqa: E402

DAY = 24 * 3600


def key_records(store):
    if backend() == "pg":
        return int(sql(store, "SELECT count(*) FROM quire_keys"))
    d = os.path.join(store, ".keys")
    return len([n for n in os.listdir(d) if n.endswith(".json")]) if os.path.isdir(d) else 0


def main():
    tmp = tempfile.mkdtemp(prefix="quire-keyb-")
    clock = [1_800_000_000]
    try:
        loc = new_store(tmp)
        st = quire.Store(loc, now=lambda: clock[0])
        spec = {"title": "T", "blocks": [{"type": "paragraph", "text": "one"}]}
        a = st.create("document", spec, key="k-create")
        b = st.create("document", spec, key="k-create")
        assert not a["replayed"] and b["replayed"] and a["artifact_id"] == b["artifact_id"], (a, b)
        aid = a["artifact_id"]
        try:
            st.create("document", spec, title="other", key="k-create")
            raise AssertionError("a second request under one key was accepted")
        except quire.ConflictError as e:
            assert "was used for another request" in str(e), e
        e1 = st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "two"}]}, key="k-edit")
        e2 = st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "two"}]}, key="k-edit")
        assert e1["version"] == e2["version"] == 2 and e2["replayed"], (e1, e2)
        r1 = st.rewrite(aid, spec, key="k-rw")
        assert st.rewrite(aid, spec, key="k-rw")["version"] == r1["version"] == 3
        x1 = st.restore(aid, 2, key="k-rs")
        assert st.restore(aid, 2, key="k-rs")["version"] == x1["version"] == 4
        for bad in ("", "a b", 7):
            try:
                st.edit(aid, append={"blocks": []}, key=bad)
                raise AssertionError("key %r accepted" % (bad,))
            except quire.UsageError:
                pass
        print("key=: repeated calls return the first payload (replayed); another call: ConflictError")

        out = []
        ths = [threading.Thread(target=lambda: out.append(
            st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "burst"}]}, key="k-burst")))
            for _ in range(8)]
        for t in ths:
            t.start()
        for t in ths:
            t.join()
        assert len(out) == 8 and {r["version"] for r in out} == {5}, out
        assert len(st.log(aid)) == 5
        print("8 threads, one keyed edit: one version")

        # retention: the key's record is honoured for 24 hours by the store's clock
        n_before = key_records(loc)
        clock[0] += DAY - 1
        assert st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "two"}]}, key="k-edit")["replayed"]
        clock[0] += 2
        e3 = st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "three"}]}, key="k-edit")
        assert e3["version"] == 6 and not e3["replayed"], e3
        st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "fresh"}]}, key="k-fresh")
        assert key_records(loc) == n_before + 1, (key_records(loc), n_before)
        rep = st.fsck(repair=True)
        assert rep["status"] == "ok" and not rep["problems"], rep
        # every record but the two written a second ago expired
        assert key_records(loc) == 2, key_records(loc)
        assert st.edit(aid, append={"blocks": [{"type": "paragraph", "text": "fresh"}]},
                       key="k-fresh")["replayed"]
        assert st.create("document", spec, key="k-create")["artifact_id"] != aid  # expired: a new request
        print("retention: honoured for 24 h by the store's clock; fsck --repair removes expired records")
        st.close()
    finally:
        close_all()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
