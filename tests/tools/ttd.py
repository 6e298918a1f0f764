#!/usr/bin/env python3
"""Time to depth, 1 vs N threads: every `kiln bench` position (after
`ucinewgame`, with a 64 MiB table) searched to a fixed depth; wall time from
`go` to `bestmove`. Runs alternate between thread counts so that whatever
else the machine does hits both alike.

usage: python3 tests/tools/ttd.py DEPTH RUNS ENGINE:THREADS [ENGINE:THREADS ...]
e.g.   python3 tests/tools/ttd.py 12 3 target/release/kiln:1 target/release/kiln:2
The first ENGINE:THREADS is the baseline of the speed-ups."""
import os, re, statistics, subprocess, sys, time

DEPTH, RUNS = int(sys.argv[1]), int(sys.argv[2])
THREADS = [(a.rsplit(":", 1)[0], int(a.rsplit(":", 1)[1])) for a in sys.argv[3:]]
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "uci", "bench.rs")).read()
fens = re.findall(r'^\s+"([^"]+ [wb] [^"]+)",$', src, re.M)
assert len(fens) == 50, len(fens)

def run(spec):
    engine, threads = spec
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    def send(s): p.stdin.write(s + "\n"); p.stdin.flush()
    def until(prefix):
        last_info = None
        while True:
            line = p.stdout.readline()
            if not line: raise SystemExit("engine died")
            if line.startswith("info depth"): last_info = line
            if line.startswith(prefix): return line, last_info
    send("uci"); until("uciok")
    send(f"setoption name Threads value {threads}"); send("setoption name Hash value 64")
    total, nodes = 0.0, 0
    for fen in fens:
        send("ucinewgame"); send(f"position fen {fen}"); send("isready"); until("readyok")
        t0 = time.perf_counter(); send(f"go depth {DEPTH}")
        _, info = until("bestmove")
        total += time.perf_counter() - t0
        m = info and re.search(r" nodes (\d+)", info)
        nodes += int(m.group(1)) if m else 0
    send("quit"); p.wait()
    return total, nodes

res = {t: [] for t in THREADS}
for r in range(RUNS):
    for t in (THREADS if r % 2 == 0 else THREADS[::-1]):
        secs, nodes = run(t)
        res[t].append((secs, nodes))
        print(f"run {r+1} {t[0].split('/')[-1]} threads {t[1]}: {secs:.2f} s, {nodes} nodes, {nodes/secs/1000:.0f} knps (last info line)", flush=True)
base = [s for s, _ in res[THREADS[0]]]
for t in THREADS:
    secs = [s for s, _ in res[t]]
    print(f"{t[0].split('/')[-1]} threads {t[1]}: mean {statistics.mean(secs):.2f} s, median {statistics.median(secs):.2f} s, "
          f"speed-up mean {statistics.mean(base)/statistics.mean(secs):.2f}x, median {statistics.median(base)/statistics.median(secs):.2f}x")
