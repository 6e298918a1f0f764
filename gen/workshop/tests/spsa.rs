//! `kiln-workshop spsa` against the real thing: fastchess plays the games
//! of a short tune of one of Kiln's ordinary spin options (`MultiPV`, so
//! that the default build will do), which is stopped, refused with other
//! settings, resumed and shown. Without fastchess's source, `make` or a
//! C++ compiler the test says so and passes without playing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

mod fastchess;
mod support;

use fastchess::{fastchess, genfens, run_with_limit};
use support::engine;

/// A scratch directory of its own.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-spsa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `kiln-workshop spsa` with `args`, run in `dir`: its exit code, stdout
/// and stderr.
fn spsa(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kiln-workshop"));
    command.current_dir(dir).arg("spsa").args(args);
    let output = run_with_limit(&mut command, Duration::from_secs(300));
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn text(path: &Path) -> String {
    path.to_str().expect("a UTF-8 path").to_string()
}

#[test]
fn a_tune_plays_stops_resumes_and_keeps_its_settings() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let engine = engine();
    let dir = scratch();
    let book = dir.join("openings.epd");
    std::fs::write(&book, genfens(&engine, 4).join("\n") + "\n").expect("write openings");
    let params = dir.join("params.txt");
    std::fs::write(&params, "MultiPV, int, 2, 1, 4, 1, 0.002\n").expect("write params");
    let state = dir.join("tune.spsa");
    // The tune's own files by relative paths: fastchess plays in a
    // directory of its own, so each must still be found from there.
    let (state_arg, engine_arg, fastchess_arg, book_arg, params_arg) = (
        "tune.spsa",
        text(&engine),
        text(&fastchess),
        "openings.epd",
        "params.txt",
    );
    // fastchess refuses more games at once than hardware threads.
    let concurrency = std::thread::available_parallelism()
        .map_or(1, |n| n.get().min(2))
        .to_string();
    // A tune at `state` played by this engine, fastchess and book.
    let playing = |state: &'static str| {
        vec![
            "--state",
            state,
            "--engine",
            engine_arg.as_str(),
            "--fastchess",
            fastchess_arg.as_str(),
            "--book",
            book_arg,
        ]
    };
    let mut base = playing(state_arg);
    base.extend([
        "--params",
        params_arg,
        "--nodes",
        "300",
        "--iterations",
        "3",
        "--concurrency",
        &concurrency,
    ]);

    // Two of three iterations, one pair each, then a stop.
    let mut first = base.clone();
    first.extend(["--pairs-per", "1", "--stop-after", "2"]);
    let (code, out, err) = spsa(&dir, &first);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(err.contains("iteration 2/3:"), "{err}");
    assert!(out.starts_with("# 2 of 3 iterations, 4 games"), "{out}");
    let file = std::fs::read_to_string(&state).expect("state file");
    let iterations: Vec<&str> = file
        .lines()
        .filter(|l| l.starts_with("iteration "))
        .collect();
    assert_eq!(iterations.len(), 2, "{file}");
    for line in &iterations {
        let counts: Vec<u64> = line
            .split_whitespace()
            .skip(2)
            .take(4)
            .map(|w| w.parse().expect("a count"))
            .collect();
        assert_eq!(counts[0] + counts[1] + counts[2], 2, "{line}");
        assert_eq!(counts[3], 0, "no forfeits: {line}");
    }

    // The tune keeps its settings.
    let mut other = base.clone();
    other.extend(["--pairs-per", "2"]);
    let (code, _, err) = spsa(&dir, &other);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--pairs-per 2 differs"), "{err}");
    // ...and its engine (by name and bench signature) and openings.
    assert!(file.contains("\nengine Kiln "), "{file}");
    assert!(file.contains("\nbench "), "{file}");
    assert!(file.contains("\nbook "), "{file}");
    let openings = std::fs::read_to_string(&book).expect("read openings");
    let fewer = openings.lines().take(2).collect::<Vec<_>>().join("\n") + "\n";
    std::fs::write(dir.join("fewer.epd"), fewer).expect("write openings");
    let other_book: Vec<&str> = base
        .iter()
        .map(|&arg| if arg == book_arg { "fewer.epd" } else { arg })
        .collect();
    let (code, _, err) = spsa(&dir, &other_book);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--book") && err.contains("differs"), "{err}");

    // The same command without the stop finishes it.
    base.extend(["--pairs-per", "1"]);
    let (code, out, err) = spsa(&dir, &base);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(err.contains("goes on after iteration 2 of 3"), "{err}");
    assert!(out.starts_with("# 3 of 3 iterations, 6 games"), "{out}");
    let value: i64 = out
        .lines()
        .last()
        .and_then(|line| line.strip_prefix("MultiPV, "))
        .and_then(|v| v.parse().ok())
        .expect("a value line");
    assert!((1..=4).contains(&value), "{out}");
    let (code, shown, _) = spsa(&dir, &["--state", state_arg, "--show"]);
    assert_eq!((code, shown), (0, out));

    // Parameters must be the engine's spin options.
    std::fs::write(&params, "no_such_option, int, 2, 1, 4, 1, 0.002\n").expect("write");
    // A new tune, refused before anything is written.
    let new_tune = |extra: &[&str]| {
        let mut args = playing("other.spsa");
        args.extend_from_slice(extra);
        spsa(&dir, &args)
    };
    let (code, _, err) = new_tune(&["--params", params_arg]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("no_such_option") && err.contains("no spin option"),
        "{err}"
    );
    // Without --params the default build has no SPSA input to offer.
    let (code, _, err) = new_tune(&[]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--features spsa"), "{err}");
    assert!(!dir.join("other.spsa").exists());
    assert!(!dir.join("other.spsa.lock").exists());
    assert!(!dir.join("other.spsa.games").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
