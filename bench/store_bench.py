#!/usr/bin/python3
"""bench/store_bench.py: the store workload (issue 16), folder store and
PostgreSQL side by side. Not a test: nothing asserts on time.

8 client processes, each with its own 20-slide deck (a presentation) in one
store, each making 100 edits through the Python binding: a JSON Patch that
replaces one slide's title, then render and store (every edit is a new
version of a .pptx). Reported per backend: edits/s over the whole run (8 x
100 edits / wall time), the p50 / p99 latency of one edit, and the CPU time
per edit: the clients' (user + system: for the folder store that is all of
it) and the PostgreSQL server's (its backends, reaped by the postmaster). On
a shared machine the latencies move with the load; the CPU times do not.

Both backends write durably: the folder store fsyncs (no_sync off), and the
PostgreSQL server (a throwaway one: initdb into a temp folder, Unix socket
only; tests/lib/pg.py) runs with fsync on and the default synchronous_commit.

Each backend runs plain edits and edits with an idempotency key each
(key=), alternated over --rounds rounds (2), and the keyed / unkeyed ratios
are printed.

Usage: bench/store_bench.py [--clients 8] [--edits 100] [--slides 20] [--out FILE.md]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
import pg  # noqa: E402

CLIENT = r'''
import json, sys, time
sys.path.insert(0, sys.argv[1])
import quire
store, w, edits, slides, keyed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
tag = "%s-%d-%d" % (keyed, w, time.time_ns())
st = quire.Store(store)
deck = {"title": "Deck %d" % w, "slides": [{"title": "Slide %d" % i, "bullets": ["point %d.%d" % (i, k) for k in range(4)]}
                                          for i in range(slides)]}
aid = st.create("presentation", deck, owner="client%d" % w)["artifact_id"]
print("ready", flush=True)
sys.stdin.readline()
lat = []
c0 = time.process_time()
for i in range(edits):
    t = time.perf_counter()
    ops = [{"op": "replace", "path": "/slides/%d/title" % (i % slides), "value": "Edit %d" % i}]
    if keyed == "k":
        r = st.edit(aid, ops=ops, key="%s-%d" % (tag, i))
    else:
        r = st.edit(aid, ops=ops)
    lat.append(time.perf_counter() - t)
    assert r["version"] == i + 2, r
cpu = time.process_time() - c0
st.close()
print(json.dumps({"lat": lat, "cpu": cpu}))
'''


def server_cpu(srv):
    """CPU seconds of a PostgreSQL server so far: the postmaster and the
    backends it has reaped (utime, stime, cutime, cstime)."""
    if srv is None:
        return 0.0
    with open(os.path.join(srv.data, "postmaster.pid")) as f:
        pid = int(f.readline())
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def run_clients(store, clients, edits, slides, srv=None, keyed=False):
    binding = os.path.join(ROOT, "bindings", "python")
    procs = [subprocess.Popen([sys.executable, "-c", CLIENT, binding, store, str(w), str(edits), str(slides),
                               "k" if keyed else "u"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for w in range(clients)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    s0 = server_cpu(srv)
    t0 = time.perf_counter()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    lat, cpu = [], 0.0
    for p in procs:
        out, _ = p.communicate()
        assert p.returncode == 0
        r = json.loads(out.strip().splitlines()[-1])
        lat += r["lat"]
        cpu += r["cpu"]
    wall = time.perf_counter() - t0
    time.sleep(0.2)  # the server reaps the backends of the closed connections
    scpu = server_cpu(srv) - s0
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    return {"edits": len(lat), "wall": wall, "eps": len(lat) / wall, "lat": lat,
            "p50": statistics.median(lat) * 1000,
            "p99": q[98] * 1000, "cpu": cpu / len(lat) * 1000, "scpu": scpu / len(lat) * 1000}


def merge(runs):
    """Several runs of one configuration as one: sums of edits and wall,
    latencies pooled, CPU per edit averaged."""
    edits = sum(r["edits"] for r in runs)
    wall = sum(r["wall"] for r in runs)
    lat = sorted(x for r in runs for x in r["lat"])
    q = statistics.quantiles(lat, n=100)
    return {"edits": edits, "wall": wall, "eps": edits / wall, "p50": statistics.median(lat) * 1000,
            "p99": q[98] * 1000, "cpu": sum(r["cpu"] * r["edits"] for r in runs) / edits,
            "scpu": sum(r["scpu"] * r["edits"] for r in runs) / edits}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--edits", type=int, default=100)
    ap.add_argument("--slides", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default="")
    a = ap.parse_args()
    if not os.environ.get("QUIRE_LIB"):
        cands = [os.path.join(ROOT, "build", "libquire.so")]
        for c in cands:
            if os.path.exists(c):
                os.environ["QUIRE_LIB"] = c
    rows = []
    with tempfile.TemporaryDirectory(prefix="quire-storebench-") as tmp:
        # each backend: plain edits and edits with an idempotency key each
        # (key= in the binding), on the same store, alternated over --rounds
        # rounds so that the load of the machine weighs on both alike
        def both(name, store, srv=None):
            runs = {False: [], True: []}
            for _ in range(a.rounds):
                for keyed in (False, True):
                    runs[keyed].append(run_clients(store, a.clients, a.edits, a.slides, srv, keyed=keyed))
            for keyed in (False, True):
                rows.append((name + (" keyed" if keyed else ""), merge(runs[keyed])))
        both("folder", os.path.join(tmp, "store"))
        srv = pg.Server(fsync=True)
        try:
            both("postgresql", srv.uri(srv.new_db()), srv)
        finally:
            srv.close()
    lines = ["| store | clients x edits | edits/s | p50 ms | p99 ms | client CPU ms/edit | server CPU ms/edit |",
             "|---|---|---|---|---|---|---|"]
    for name, r in rows:
        lines.append("| %s | %d x %d | %.1f | %.1f | %.1f | %.1f | %s |" % (
            name, a.clients, a.edits * a.rounds, r["eps"], r["p50"], r["p99"], r["cpu"],
            "%.1f" % r["scpu"] if name.startswith("postgresql") else ""))
    by = dict(rows)
    ratio = by["postgresql"]["eps"] / by["folder"]["eps"]
    lines.append("")
    lines.append("PostgreSQL / folder edits/s: %.0f%%" % (ratio * 100))
    for name in ("folder", "postgresql"):
        u, k = by[name], by[name + " keyed"]
        lines.append("%s keyed / unkeyed: p50 %.2fx, wall per edit %.2fx, CPU per edit (client + server) %.2fx"
                     % (name, k["p50"] / u["p50"], u["eps"] / k["eps"],
                        (k["cpu"] + k["scpu"]) / (u["cpu"] + u["scpu"])))
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
