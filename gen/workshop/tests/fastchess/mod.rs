//! What the tests that play with fastchess share: fastchess itself, built
//! from its source (`../shared/third-party/fastchess` beside the
//! repository, or `FASTCHESS_SRC`) by `make fastchess` into
//! `target/fastchess/` the first time; openings from the engine's
//! `genfens`; and running a program with a time limit. Without the source,
//! `make` or a C++ compiler, [`fastchess`] says so and the test passes
//! without playing: fastchess is test tooling kept outside the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether `program --version` runs.
fn runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// The fastchess binary, built by the repository's `make fastchess` when
/// missing; `None` (with the reason on stderr) where it cannot be built.
pub fn fastchess() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let source = std::env::var_os("FASTCHESS_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/third-party/fastchess"));
    // target/<profile>/kiln-workshop: the target directory is two up.
    let target = Path::new(env!("CARGO_BIN_EXE_kiln-workshop"))
        .ancestors()
        .nth(2)
        .expect("a target directory")
        .to_path_buf();
    let dir = target.join("fastchess");
    let binary = dir.join(format!("fastchess{}", std::env::consts::EXE_SUFFIX));
    if binary.exists() {
        return Some(binary);
    }
    if !source.join("app/Makefile").exists() {
        say_skipped(&format!(
            "no fastchess source in {} (set FASTCHESS_SRC)",
            source.display()
        ));
        return None;
    }
    if !runs("make") || !runs("g++") {
        say_skipped("building fastchess needs make and g++");
        return None;
    }
    let start = Instant::now();
    let output = Command::new("make")
        .arg("-C")
        .arg(&root)
        .arg("-j2")
        .arg("fastchess")
        .arg(format!("FASTCHESS_SRC={}", source.display()))
        .arg(format!("FASTCHESS_DIR={}", dir.display()))
        .output()
        .expect("make runs");
    assert!(
        output.status.success() && binary.exists(),
        "make fastchess failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    eprintln!("built fastchess in {:.0?}", start.elapsed());
    Some(binary)
}

/// Openings from the engine's `genfens`, as OpenBench asks for them.
pub fn genfens(engine: &Path, count: usize) -> Vec<String> {
    let output = Command::new(engine)
        .arg(format!("genfens {count} seed 7 book None"))
        .arg("quit")
        .output()
        .expect("run kiln genfens");
    assert!(output.status.success(), "{output:?}");
    let fens: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_prefix("info string genfens "))
        .map(|fen| fen.trim().to_string())
        .collect();
    assert_eq!(fens.len(), count, "{output:?}");
    fens
}

/// Runs `command` to its end, killing it after `limit`.
pub fn run_with_limit(command: &mut Command, limit: Duration) -> std::process::Output {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let id = child.id();
    // The output is read as it comes (a full pipe would stall the child)
    // on a thread of its own; the limit is kept here.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(limit) {
        Ok(output) => output.expect("output"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(id.to_string()).status();
            panic!("still running after {limit:?}: {command:?}");
        }
    }
}

/// Says that a test was skipped, and why, where the test run shows it:
/// straight to the standard error, which the test harness does not capture
/// (it hides what `eprintln!` prints from a test that passes).
fn say_skipped(why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}
