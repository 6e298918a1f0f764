#!/usr/bin/env python3
"""Usage: isready_probe.py ENGINE CMD... ; each CMD is a line; 'isready' lines are timed; prints timings and RSS."""
import subprocess, sys, time
eng = sys.argv[1]
p = subprocess.Popen([eng], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def rss():
    for l in open(f"/proc/{p.pid}/status"):
        if l.startswith(("VmRSS", "Threads")): yield l.split(":")[0] + "=" + l.split(":")[1].strip()
def wait(prefix):
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit("eof")
        if l.startswith("info string"): print("   ", l.strip())
        if l.startswith(prefix): return l.strip()
for cmd in sys.argv[2:]:
    t = time.perf_counter()
    p.stdin.write(cmd + "\n"); p.stdin.flush()
    if cmd == "isready": wait("readyok")
    elif cmd.startswith("go"): print("   ", wait("bestmove"))
    elif cmd == "quit":
        p.wait()
    else: continue
    print(f"{cmd!r}: {1000*(time.perf_counter()-t):.1f} ms", *([] if cmd=="quit" else rss()))
