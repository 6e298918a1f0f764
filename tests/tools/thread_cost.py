#!/usr/bin/env python3
"""thread_cost.py ENGINE N: time for setoption Threads N + isready; then go infinite:
time until all N search threads run, RSS then and after 1 s; stop -> bestmove latency; time until helpers are gone."""
import subprocess, sys, time
eng, n = sys.argv[1], int(sys.argv[2])
p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def status():
    d = {}
    for l in open(f"/proc/{p.pid}/status"):
        k, v = l.split(":", 1); d[k] = v.strip()
    return int(d["Threads"]), int(d["VmRSS"].split()[0]) // 1024
def send(c): p.stdin.write(c + "\n"); p.stdin.flush()
def wait(prefix):
    while True:
        l = p.stdout.readline()
        if l.startswith(prefix): return
send("isready"); wait("readyok")
rss0 = status()[1]
t = time.perf_counter(); send(f"setoption name Threads value {n}"); send("isready"); wait("readyok")
setup = (time.perf_counter() - t) * 1000
t = time.perf_counter(); send("go infinite")
# engine threads while searching: input + search + starter (while starting) + n-1 helpers
while status()[0] < n + 1 and time.perf_counter() - t < 30: time.sleep(0.0005)
started = (time.perf_counter() - t) * 1000
th, rss1 = status()
time.sleep(1.0)
th2, rss2 = status()
t = time.perf_counter(); send("stop"); wait("bestmove"); stop = (time.perf_counter() - t) * 1000
while status()[0] > 1 and time.perf_counter() - t < 30: time.sleep(0.0005)
joined = (time.perf_counter() - t) * 1000
t = time.perf_counter(); send("quit"); p.wait(); quit_ms = (time.perf_counter() - t) * 1000
print(f"| {n} | {setup:.1f} | {started:.0f} | {rss0} | {rss2} | {(rss2 - rss0) * 1024 / n:.0f} | {stop:.0f} | {joined:.0f} | {quit_ms:.0f} |")
