//! OpenBench's client beside the repository (`../shared`), and the Python
//! drivers in `tests/tools/` that call its code on Kiln: where the client
//! is, whether a check can run here, and running a driver to its verdict.

// Each test binary that includes the harness uses part of it.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Says that a test was skipped, and why, where the test run shows it:
/// straight to the standard error, which the test harness does not capture
/// (it hides what `eprintln!` prints from a test that passes).
pub fn say_skipped(why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// OpenBench's client, beside the repository as `../shared`.
pub fn client() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/third-party/openbench/Client")
}

/// Why a check that needs the client's `module` (a file of `Client/`)
/// cannot run here, if it cannot: the client or python3 is missing.
pub fn missing_tools(module: &str) -> Option<String> {
    let client = client();
    if !client.join(module).is_file() {
        return Some(format!(
            "OpenBench's client is not at {} (the repository's ../shared)",
            client.display()
        ));
    }
    let python = Command::new("python3").arg("--version").output();
    if !python.is_ok_and(|out| out.status.success()) {
        return Some("python3 is not installed".to_string());
    }
    None
}

/// Runs `tests/tools/<driver>.py --client <client> args…` with an empty
/// stdin: passes on its `<driver>: ok`, reports its skip (exit 77: a
/// Python module the client imports is missing), and panics with its
/// output, saying what `rejected` kiln, on anything else.
pub fn run_driver<S: AsRef<OsStr>>(driver: &str, args: &[S], rejected: &str) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tools")
        .join(format!("{driver}.py"));
    let out = Command::new("python3")
        .arg(&script)
        .arg("--client")
        .arg(client())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run python3");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    match out.status.code() {
        Some(0) => {
            assert!(text.contains(&format!("{driver}: ok")), "{text}");
            eprintln!("{}", text.trim());
        }
        Some(77) => say_skipped(text.trim()),
        _ => panic!("{rejected} rejected kiln:\n{text}"),
    }
}
