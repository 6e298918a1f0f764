#!/usr/bin/env python3
"""Builds Kiln and runs its bench with OpenBench's own client code.

Usage: openbench_bench.py --client <OpenBench>/Client
           (--source <repository> [--commit REV] [--target-dir DIR] [--build-dir DIR]
            | --engine <binary>)
           [--threads N] [--sets N] [--expected NODES]

OpenBench's worker gets an engine ready in two steps, both done here with
the client's own functions:

1. Build: Client/utils.py's prepare_engine() downloads the branch's source
   as a GitHub zip archive, unpacks it into a temporary directory, runs
   `make -j EXE=<Engine>-<SHA8>` in the engine's build path (for a Rust
   engine with no CC/CXX; EVALFILE= only for a workload with a network),
   and moves the binary to Engines/. With --source, this script calls
   prepare_engine() as worker.py's safe_download_engine() does, with the
   download replaced by a zip laid out as GitHub's archive (one top
   folder): `git archive` of --commit, or without it the working tree's
   files (tracked, and new ones git does not ignore). Nothing in the
   repository is touched. The makefile's cargo build uses
   CARGO_TARGET_DIR when set (--target-dir sets it for the build), and
   --build-dir fixes where the archive is unpacked (the client's own
   choice is a new temporary directory): the makefile passes that path to
   rustc, so with a fixed one a later run reuses the compiled dependencies
   (Kiln's own crates are built again: the unpacked files are new).
   Without --build-dir, every run builds everything. The binary is named
   after the commit (HEAD's, for a working tree).
2. Bench: Client/bench.py's run_benchmark() runs `./Engines/<binary>
   bench` N times at once (--threads, the worker's threads) in each of
   --sets rounds, reads the node count and the speed from the end of the
   output, and raises unless every run gave the same node count (and the
   expected one, with --expected). It gives up on a round after
   MAX_BENCH_TIME_SECONDS (60).

With --engine, the build is skipped and the given binary is benched.

Exit status: 0 the checks passed; 1 one failed (the message says which);
77 skipped: the client directory is missing or one of OpenBench's own
Python dependencies is not installed (the message says which).
"""

import argparse
import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import types
import zipfile

SKIP = 77
ENGINE = "Kiln"


def fail(message):
    print(f"openbench_bench: FAILED: {message}")
    sys.exit(1)


def kill_this_engine_only(binary):
    """Stands in for utils.kill_process_by_name, which bench.py calls when a
    bench overruns: OpenBench's runs `pkill -KILL -f <name>`, which would
    also end unrelated processes whose command line holds the name. This
    one ends only processes started as `./<binary>` in this directory (or
    an interpreter running it, for a script)."""
    wanted = os.path.join(".", binary).encode()
    here = os.getcwd()
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")[:2]
            if wanted in argv and os.readlink(f"/proc/{pid}/cwd") == here:
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            continue


def import_client(client):
    """The client's utils and bench modules. `requests` (which utils.py
    imports for its downloads) is replaced by a stand-in when it is not
    installed: this script makes no download, and the build's one call is
    answered by the archive below."""
    sys.path.insert(0, client)
    try:
        import requests  # noqa: F401
    except ModuleNotFoundError:
        stand_in = types.ModuleType("requests")

        def no_network(*args, **kwargs):
            raise RuntimeError("openbench_bench: no network here")

        stand_in.get = stand_in.post = no_network
        sys.modules["requests"] = stand_in
        print("openbench_bench: `requests` is not installed; a stand-in answers the client's download")
    try:
        import bench
        import utils
    except ModuleNotFoundError as error:
        print(f"openbench_bench: skipped: OpenBench's client needs {error.name!r}: {error}")
        sys.exit(SKIP)
    utils.kill_process_by_name = kill_this_engine_only
    return bench, utils


def git(source, *args):
    return subprocess.run(
        ["git", "-C", source, *args], check=True, stdout=subprocess.PIPE
    ).stdout


def source_archive(source, commit):
    """The repository's files as GitHub serves a commit: a zip with one top
    folder. With a commit, `git archive` of it (what GitHub's archive is);
    without, the working tree's tracked files and the new files that git
    does not ignore. Returns (zip bytes, commit SHA)."""
    try:
        sha = git(source, "rev-parse", "--verify", f"{commit or 'HEAD'}^{{commit}}").decode().strip()
        top = f"kiln-{sha}/"
        if commit:
            return git(source, "archive", "--format=zip", f"--prefix={top}", sha), sha
        names = git(source, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
        names = sorted({n for n in names.decode().split("\0") if n})
    except (OSError, subprocess.CalledProcessError) as error:
        fail(f"cannot read the sources of {source}: {error}")
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in names:
            path = os.path.join(source, name)
            if os.path.isfile(path):  # deleted files are skipped; links followed
                archive.write(path, top + name)
    return data.getvalue(), sha


class Download:
    """What requests.get() returns, as far as prepare_engine() reads it."""

    def __init__(self, content):
        self.content = content


@contextlib.contextmanager
def fixed_directory(path):
    """Stands in for tempfile.TemporaryDirectory() in prepare_engine():
    the same emptied directory every time (removed afterwards)."""
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def build(utils, source, commit, target_dir, build_dir):
    """worker.py's safe_download_engine() for a branch of Kiln, with the
    download answered from the repository; returns the binary's name in
    Engines/."""
    content, sha = source_archive(source, commit)
    url = f"https://github.com/owner/kiln/archive/{sha}.zip"

    def get(address, headers=None, **kwargs):
        if address != url:
            raise RuntimeError(f"openbench_bench: unexpected download {address}")
        return Download(content)

    utils.requests = types.SimpleNamespace(get=get, post=get)
    if build_dir:
        utils.tempfile = types.SimpleNamespace(
            TemporaryDirectory=lambda: fixed_directory(build_dir)
        )
    if target_dir:
        os.environ["CARGO_TARGET_DIR"] = target_dir

    name = utils.engine_binary_name(ENGINE, sha, None)
    out_path = os.path.join("Engines", name)
    # Engines/Kiln.json: build.path "" (the root makefile), compiler cargo
    # (not passed to make as CC/CXX), no network.
    started = time.monotonic()
    try:
        binary = utils.prepare_engine(ENGINE, None, "local", url, "", out_path, False, "cargo")
    except utils.OpenBenchBuildFailedException as error:
        print(error.logs)
        fail(f"the client could not build Kiln: {error.message}")
    seconds = time.monotonic() - started
    command = " ".join(utils.makefile_command(None, ".", name, "cargo"))
    print(f"openbench_bench: built Engines/{binary} with `{command}` in {seconds:.0f} s")
    if binary != name or not os.access(out_path, os.X_OK):
        fail(f"prepare_engine() left {binary!r}, not an executable {out_path}")
    return binary


def run_benches(bench, binary, threads, sets, expected):
    """run_benchmark() once per set, as safe_run_benchmarks() calls it, so
    that each set's time can be told; then all sets' node counts must
    agree (run_benchmark() already checks within a set)."""
    limit = bench.MAX_BENCH_TIME_SECONDS
    counts, slowest = set(), 0.0
    for index in range(sets):
        started = time.monotonic()
        try:
            speed, nodes = bench.run_benchmark(binary, threads, 1, expected)
        except Exception as error:  # utils.OpenBenchBadBenchException
            fail(f"set {index + 1}: {getattr(error, 'message', error)}")
        seconds = time.monotonic() - started
        slowest = max(slowest, seconds)
        counts.add(nodes)
        print(
            f"openbench_bench: set {index + 1}: {threads} benches at once, "
            f"{nodes} nodes, {speed} nps, {seconds:.1f} s"
        )
        if seconds >= limit:
            fail(f"set {index + 1} took {seconds:.1f} s; OpenBench allows {limit} s")
    if len(counts) != 1:
        fail(f"the node count changed between sets: {sorted(counts)}")
    nodes = counts.pop()
    print(
        f"openbench_bench: {sets * threads} benches, all {nodes} nodes; "
        f"slowest set {slowest:.1f} s of OpenBench's {limit} s"
    )
    return nodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", required=True, help="OpenBench's Client directory")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--source", help="the repository to build as OpenBench does")
    what.add_argument("--engine", help="a built engine binary to bench")
    parser.add_argument("--commit", help="build this commit of --source, not its working tree")
    parser.add_argument("--target-dir", help="CARGO_TARGET_DIR for the build")
    parser.add_argument("--build-dir", help="where to unpack the source (fixed, to reuse builds)")
    parser.add_argument("--threads", type=int, default=2, help="benches run at once")
    parser.add_argument("--sets", type=int, default=3, help="rounds of benches")
    parser.add_argument("--expected", type=int, help="the node count every bench must give")
    options = parser.parse_args()

    client = os.path.abspath(options.client)
    if not all(os.path.isfile(os.path.join(client, m)) for m in ("bench.py", "utils.py")):
        print(f"openbench_bench: skipped: no bench.py and utils.py in {client}")
        sys.exit(SKIP)
    if options.threads < 1 or options.sets < 1:
        fail("--threads and --sets must be at least 1")
    source = options.source and os.path.abspath(options.source)
    engine = options.engine and os.path.abspath(options.engine)
    if engine and not os.access(engine, os.X_OK):
        fail(f"{engine} is not an executable")
    build_dir = options.build_dir and os.path.abspath(options.build_dir)
    target_dir = options.target_dir and os.path.abspath(options.target_dir)

    bench, utils = import_client(client)

    scratch = tempfile.mkdtemp(prefix="kiln-openbench-bench-")
    try:
        # The worker's layout: binaries in Engines/, run as ./Engines/<name>.
        os.chdir(scratch)
        os.mkdir("Engines")
        if source:
            binary = build(utils, source, options.commit, target_dir, build_dir)
        else:
            # A name of its own, so that no other process shares it.
            binary = f"{ENGINE}-bench-{os.getpid()}"
            os.symlink(engine, os.path.join("Engines", binary))
        run_benches(
            bench, os.path.join("Engines", binary), options.threads, options.sets, options.expected
        )
    finally:
        os.chdir("/")
        shutil.rmtree(scratch, ignore_errors=True)
    print("openbench_bench: ok")


if __name__ == "__main__":
    main()
