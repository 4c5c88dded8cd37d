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
are printed; then --rounds runs where each client alternates an unkeyed and
a keyed edit, whose per-edit latency and CPU ratios (the two kinds under the
same load at the same moments) are the ones a shared machine does not move.

Usage: bench/store_bench.py [--clients 8] [--edits 100] [--slides 20] [--rounds 2]
                           [--backends folder,postgresql] [--out FILE.md]
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
# a deck of its own per run: every edit stores a new blob, as in a first run
deck = {"title": "Deck %s" % tag, "slides": [{"title": "Slide %d" % i, "bullets": ["point %d.%d" % (i, k) for k in range(4)]}
                                          for i in range(slides)]}
aid = st.create("presentation", deck, owner="client%d" % w)["artifact_id"]
print("ready", flush=True)
sys.stdin.readline()
lat, cpus, kinds = [], [], []
c0 = time.process_time()
for i in range(edits):
    # "k": every edit keyed; "m" (mixed): every other one, starting with an unkeyed one
    k = keyed == "k" or (keyed == "m" and i % 2 == 1)
    c = time.process_time()
    t = time.perf_counter()
    ops = [{"op": "replace", "path": "/slides/%d/title" % (i % slides), "value": "Edit %d" % i}]
    if k:
        r = st.edit(aid, ops=ops, key="%s-%d" % (tag, i))
    else:
        r = st.edit(aid, ops=ops)
    lat.append(time.perf_counter() - t)
    cpus.append(time.process_time() - c)
    kinds.append(k)
    assert r["version"] == i + 2, r
cpu = time.process_time() - c0
st.close()
print(json.dumps({"lat": lat, "cpu": cpu, "cpus": cpus, "kinds": kinds}))
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
    """keyed: False, True, or "mixed" (each client alternates an unkeyed
    and a keyed edit; the result then has "split": the two kinds apart)."""
    binding = os.path.join(ROOT, "bindings", "python")
    mode = "m" if keyed == "mixed" else "k" if keyed else "u"
    procs = [subprocess.Popen([sys.executable, "-c", CLIENT, binding, store, str(w), str(edits), str(slides),
                               mode],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for w in range(clients)]
    for p in procs:
        assert p.stdout.readline().strip() == "ready"
    s0 = server_cpu(srv)
    t0 = time.perf_counter()
    for p in procs:
        p.stdin.write("go\n")
        p.stdin.flush()
    lat, cpu = [], 0.0
    split = {False: ([], []), True: ([], [])}  # kind -> (latencies, CPU times)
    for p in procs:
        out, _ = p.communicate()
        assert p.returncode == 0
        r = json.loads(out.strip().splitlines()[-1])
        lat += r["lat"]
        cpu += r["cpu"]
        for k, t, c in zip(r["kinds"], r["lat"], r["cpus"]):
            split[k][0].append(t)
            split[k][1].append(c)
    wall = time.perf_counter() - t0
    time.sleep(0.2)  # the server reaps the backends of the closed connections
    scpu = server_cpu(srv) - s0
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    return {"edits": len(lat), "wall": wall, "eps": len(lat) / wall, "lat": lat, "split": split,
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
    ap.add_argument("--backends", default="folder,postgresql", help="folder, postgresql or both (comma)")
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
            # and keyed and unkeyed edits interleaved within each client: the
            # two kinds under the same load at the same moments
            mixed[name] = [run_clients(store, a.clients, a.edits, a.slides, srv, keyed="mixed")
                           for _ in range(a.rounds)]
        mixed = {}
        names = [n for n in ("folder", "postgresql") if n in a.backends.split(",")]
        if "folder" in names:
            both("folder", os.path.join(tmp, "store"))
        if "postgresql" in names:
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
    lines.append("")
    if len(names) == 2:
        lines.append("PostgreSQL / folder edits/s: %.0f%%" % (by["postgresql"]["eps"] / by["folder"]["eps"] * 100))
    for name in names:
        u, k = by[name], by[name + " keyed"]
        lines.append("%s keyed / unkeyed: p50 %.2fx, wall per edit %.2fx, CPU per edit (client + server) %.2fx"
                     % (name, k["p50"] / u["p50"], u["eps"] / k["eps"],
                        (k["cpu"] + k["scpu"]) / (u["cpu"] + u["scpu"])))
    for name in names:
        lat = {k: [x for r in mixed[name] for x in r["split"][k][0]] for k in (False, True)}
        cpu = {k: [x for r in mixed[name] for x in r["split"][k][1]] for k in (False, True)}
        mean = {k: statistics.mean(lat[k]) for k in lat}
        lines.append("%s interleaved (%d unkeyed + %d keyed edits, alternating in each client): keyed / unkeyed "
                     "mean latency %.2fx (%.1f / %.1f ms), p50 %.2fx, client CPU %.2fx (%.2f / %.2f ms)"
                     % (name, len(lat[False]), len(lat[True]), mean[True] / mean[False], mean[True] * 1000,
                        mean[False] * 1000, statistics.median(lat[True]) / statistics.median(lat[False]),
                        statistics.mean(cpu[True]) / statistics.mean(cpu[False]),
                        statistics.mean(cpu[True]) * 1000, statistics.mean(cpu[False]) * 1000))
    text = "\n".join(lines)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
