#!/usr/bin/env python3
"""Checks an engine binary against OpenBench's own genfens client module.

Usage: openbench_genfens.py --client <OpenBench>/Client --engine <kiln binary>

OpenBench's worker builds the opening book of a data-generation workload
with Client/genfens.py: it runs `./Engines/<engine> "genfens N seed S book
<None|Books/file> <extra>" quit` once per thread, reads the lines `info
string genfens <fen>` and writes them as EPD to Books/openbench.genfens.epd.
This script makes the same calls as worker.py's
safe_create_genfens_opening_book(), with a stand-in for the worker's config
(only the fields genfens.py reads), in a scratch directory laid out as the
worker's (Engines/, Books/), twice: without a book and with a small EPD
book. It then checks each book written: N x threads lines, each an EPD with
the module's `hmvc`/`fmvn` operations, all distinct; with the book, every
opening keeps the book positions' material.

Exit status: 0 the checks passed; 1 one failed (the message says which);
77 skipped: the client directory is missing or one of OpenBench's own
Python dependencies is not installed (the message says which).
"""

import argparse
import os
import shutil
import signal
import sys
import tempfile

SKIP = 77

# Per-thread seeds as the server sends them: whole 64-bit numbers.
SEEDS = [1234567890123, 18446744073709551615, 9876543210987654321]

# A book of two balanced pawn endgames, one EPD line and one FEN line, and
# a line the engine must skip: within the 2 to 4 random plies Kiln adds to
# a book line, no capture is possible, so every opening keeps the material
# of a king and a pawn each.
BOOK = """\
4k3/4p3/8/8/8/8/4P3/4K3 w - - hmvc 0; fmvn 1;
3k4/3p4/8/8/8/8/3P4/3K4 b - - 0 1
this line is not a position
"""
BOOK_MATERIAL = sorted("KPkp")


class Config:
    """The worker's config object, reduced to what genfens.py reads."""

    def __init__(self, threads, book_name, extra):
        self.threads = threads
        self.workload = {
            "distribution": {"runner-count": 4, "rounds-per-runner": 16},
            "test": {
                "play_reverses": True,
                "book": {"name": book_name},
                "genfens_seeds": SEEDS[:threads],
                "genfens_args": extra,
            },
        }


def fail(message):
    print(f"openbench_genfens: FAILED: {message}")
    sys.exit(1)


def kill_this_engine_only(engine):
    """Stands in for utils.kill_process_by_name, which genfens.py calls when
    an engine stalls: OpenBench's runs `pkill -KILL -f <name>`, which would
    also end unrelated processes whose command line holds the name. This
    one ends only processes started as `./<engine>` in this directory."""
    wanted = os.path.join(".", engine).encode()
    here = os.getcwd()
    for pid in filter(str.isdigit, os.listdir("/proc") if os.path.isdir("/proc") else []):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv0 = f.read().split(b"\0")[0]
            if argv0 == wanted and os.readlink(f"/proc/{pid}/cwd") == here:
                os.kill(int(pid), signal.SIGKILL)
        except OSError:
            continue


def build_book(genfens, config, engine_name):
    """worker.py's safe_create_genfens_opening_book(), without the server."""
    path = os.path.join("Books", "openbench.genfens.epd")
    with open(path, "w") as fout:
        args = {
            "N": genfens.genfens_required_openings_each(config),
            "book": genfens.genfens_book_input_name(config),
            "seeds": config.workload["test"]["genfens_seeds"],
            "extra": config.workload["test"]["genfens_args"],
            "engine": os.path.join("Engines", engine_name),
            "threads": config.threads,
            "output": fout,
        }
        genfens.create_genfens_opening_book(args)
    with open(path) as f:
        return args["N"] * args["threads"], f.read().splitlines()


def check_book(label, expected, lines, material=None):
    if len(lines) != expected:
        fail(f"{label}: {len(lines)} openings written, {expected} expected")
    positions = set()
    for line in lines:
        fields = line.split()
        # convert_fen_to_epd(): four FEN fields, then `hmvc H; fmvn F;`.
        if len(fields) != 8 or fields[4] != "hmvc" or fields[6] != "fmvn":
            fail(f"{label}: not an EPD of the genfens module: {line!r}")
        if fields[1] not in ("w", "b") or fields[0].count("/") != 7:
            fail(f"{label}: not a position: {line!r}")
        pieces = sorted(c for c in fields[0] if c.isalpha())
        if material is not None and pieces != material:
            fail(f"{label}: {line!r} does not come from the book")
        positions.add(" ".join(fields[:4]))
    if len(positions) != len(lines):
        fail(f"{label}: {len(lines) - len(positions)} repeated openings")
    print(f"openbench_genfens: {label}: {len(lines)} distinct openings")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client", required=True, help="OpenBench's Client directory")
    parser.add_argument("--engine", required=True, help="the engine binary")
    parser.add_argument("--threads", type=int, default=2, help="engines run at once (1-3)")
    options = parser.parse_args()

    client = os.path.abspath(options.client)
    engine = os.path.abspath(options.engine)
    if not os.path.isfile(os.path.join(client, "genfens.py")):
        print(f"openbench_genfens: skipped: no genfens.py in {client}")
        sys.exit(SKIP)
    if not os.access(engine, os.X_OK):
        fail(f"{engine} is not an executable")
    if not 1 <= options.threads <= len(SEEDS):
        fail(f"--threads must be 1-{len(SEEDS)}")

    # The client's modules import each other by plain name.
    sys.path.insert(0, client)
    try:
        import genfens
        import utils
    except ModuleNotFoundError as error:
        print(f"openbench_genfens: skipped: OpenBench's client needs {error.name!r}: {error}")
        sys.exit(SKIP)
    utils.kill_process_by_name = kill_this_engine_only

    scratch = tempfile.mkdtemp(prefix="kiln-openbench-genfens-")
    try:
        os.chdir(scratch)
        os.mkdir("Engines")
        os.mkdir("Books")
        # A name of its own, so that no other process shares it.
        engine_name = f"kiln-genfens-{os.getpid()}"
        os.symlink(engine, os.path.join("Engines", engine_name))
        with open(os.path.join("Books", "kiln-test.epd"), "w") as f:
            f.write(BOOK)

        config = Config(options.threads, "NONE", "")
        expected, lines = build_book(genfens, config, engine_name)
        check_book("no book", expected, lines)

        # OpenBench passes the workload's extra arguments after the book.
        config = Config(options.threads, "kiln-test.epd", "extra words")
        expected, lines = build_book(genfens, config, engine_name)
        check_book("book kiln-test.epd", expected, lines, BOOK_MATERIAL)
    except utils.OpenBenchFailedGenfensException as error:
        fail(f"the client gave up: {error.message}")
    finally:
        os.chdir("/")
        shutil.rmtree(scratch, ignore_errors=True)
    print("openbench_genfens: ok")


if __name__ == "__main__":
    main()
