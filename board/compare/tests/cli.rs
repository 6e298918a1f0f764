//! Runs the `perft-compare` binary as a user would.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_perft-compare");

#[test]
fn quick_run_checks_both_crates_and_exits_zero() {
    let output = Command::new(BIN)
        .args(["--quick", "--rounds", "1"])
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "exit status {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    for name in ["kiln-board", "cozy-chess", "startpos", "kiwipete"] {
        assert!(stdout.contains(name), "no {name} in:\n{stdout}");
    }
}

#[test]
fn bad_arguments_are_a_usage_error() {
    for args in [
        &["--rounds", "0"][..],
        &["--rounds", "three"],
        &["--rounds"],
        &["--depth", "3"],
        &["extra"],
    ] {
        let output = Command::new(BIN)
            .args(args)
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("usage: perft-compare"),
            "{args:?}: {stderr}"
        );
    }
}
