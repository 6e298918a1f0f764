//! OpenBench's worker builds an engine with `make EXE=<name>` and checks it
//! with `./<name> bench`, reading the node count and the speed from the
//! last lines and refusing an engine whose count differs between runs or
//! from the test's. These tests run OpenBench's own client code
//! (`Client/bench.py`, `Client/utils.py`) through
//! `tests/tools/openbench_bench.py`; they are skipped, with a message,
//! where that client (the repository's `../shared`) or python3 is missing.
//!
//! The build through the client (`utils.prepare_engine`, a release build
//! of its own, about half a minute on 2 cores) is an ignored test: `cargo
//! test --test openbench -- --ignored`. CI runs the same driver on the
//! release build (`.ci/run`).

// This file uses part of the shared harness only.
#[allow(dead_code)]
mod support;

use std::path::Path;
use std::process::{Command, Stdio};

use support::openbench;

/// The node count `kiln bench` prints on its last line (`<N> nodes <M> nps`).
fn bench_nodes() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .arg("bench")
        .stdin(Stdio::null())
        .output()
        .expect("run kiln bench");
    assert!(out.status.success(), "kiln bench: {:?}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let mut words = last.split_whitespace();
    match (words.next().map(str::parse), words.next()) {
        (Some(Ok(nodes)), Some("nodes")) => nodes,
        _ => panic!("kiln bench's last line is not `<N> nodes <M> nps`: {last:?}"),
    }
}

/// Runs `tests/tools/openbench_bench.py` with `args` and the expected
/// node count (see [`openbench::run_driver`]).
fn run_driver(args: &[&str], expected: u64) {
    let expected = expected.to_string();
    let mut all = args.to_vec();
    all.extend(["--expected", expected.as_str()]);
    openbench::run_driver("openbench_bench", &all, "OpenBench's client");
}

#[test]
fn openbench_client_benches_kiln_deterministically() {
    if let Some(why) = openbench::missing_tools("bench.py") {
        openbench::say_skipped(&why);
        return;
    }
    let expected = bench_nodes();
    // Two benches at once, twice: every run must give Kiln's own count.
    run_driver(
        &[
            "--engine",
            env!("CARGO_BIN_EXE_kiln"),
            "--threads",
            "2",
            "--sets",
            "2",
        ],
        expected,
    );
}

#[test]
#[ignore = "a release build through OpenBench's client (half a minute); CI runs it from .ci/run"]
fn openbench_client_builds_kiln_with_make() {
    if let Some(why) = openbench::missing_tools("bench.py") {
        openbench::say_skipped(&why);
        return;
    }
    let expected = bench_nodes();
    // The working tree, built as OpenBench builds a commit, in a target
    // directory of its own: the makefile's path remapping makes it a
    // different build from cargo's, and target/release/kiln stays cargo's.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("openbench-target");
    run_driver(
        &[
            "--source",
            env!("CARGO_MANIFEST_DIR"),
            "--target-dir",
            target.to_str().expect("a UTF-8 target directory"),
        ],
        expected,
    );
}
