//! The `kiln` command line: help on stdout with exit 0, and a command line
//! that cannot run answered by one line on stderr naming the word at fault,
//! with exit 2.

use std::process::{Command, Output, Stdio};

fn kiln(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kiln runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_in_every_spelling_prints_usage_and_exits_0() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let out = kiln(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = stdout(&out);
        assert!(text.contains("usage: kiln [<command>"), "{args:?}: {text}");
        for command in [
            "xboard", "bench", "perft", "datagen", "label", "tune", "train", "wdl", "plot", "help",
            "version",
        ] {
            assert!(text.contains(&format!("\n  {command}")), "{command}");
        }
        assert!(stderr(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn every_command_has_its_own_help() {
    for command in [
        "xboard", "bench", "perft", "datagen", "label", "tune", "train", "wdl", "plot", "help",
        "version",
    ] {
        for args in [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ] {
            let out = kiln(&args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            let text = stdout(&out);
            assert!(
                text.starts_with(&format!("usage: kiln {command}")),
                "{args:?}: {text}"
            );
        }
    }
    // Help wins wherever it stands among a command's options.
    let out = kiln(&["datagen", "--out", "x", "--games", "3", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("usage: kiln datagen"));
}

#[test]
fn version_prints_the_tables_seed_and_fingerprint() {
    for flag in ["--version", "-V", "version"] {
        let out = kiln(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        let text = stdout(&out);
        assert!(
            text.starts_with(&format!("kiln {} (tables seed ", env!("CARGO_PKG_VERSION"))),
            "{text}"
        );
        assert!(text.contains(" fingerprint "), "{text}");
        assert!(text.contains(", network fingerprint "), "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
    }
}

/// Every command line that cannot run: exit 2, nothing on stdout, and one
/// line on stderr that names the command, the word at fault and where the
/// help is.
#[test]
fn bad_command_lines_get_one_line_naming_the_word_and_exit_2() {
    for (args, line) in [
        (
            &["bogus"][..],
            "kiln: unknown command 'bogus' (see 'kiln --help')",
        ),
        (
            &["--bogus"],
            "kiln: unknown option '--bogus' (see 'kiln --help')",
        ),
        (
            &["--version", "extra"],
            "kiln: unexpected argument 'extra' (see 'kiln --help')",
        ),
        (
            &["help", "bogus"],
            "kiln: unknown command 'bogus' (see 'kiln --help')",
        ),
        (
            &["perft"],
            "kiln perft: missing <depth> (see 'kiln perft --help')",
        ),
        (
            &["perft", "x"],
            "kiln perft: bad value 'x' for <depth>: expected a number 0-64 (see 'kiln perft --help')",
        ),
        (
            &["bench", "3", "extra"],
            "kiln bench: unexpected argument 'extra' (see 'kiln bench --help')",
        ),
        (
            &["bench", "0"],
            "kiln bench: bad value '0' for <depth>: expected a number 1-64 (see 'kiln bench --help')",
        ),
        (
            &["xboard", "extra"],
            "kiln xboard: unexpected argument 'extra' (see 'kiln xboard --help')",
        ),
        (
            &["datagen", "--out", "x", "--games", "1", "--frobnicate", "2"],
            "kiln datagen: unknown option '--frobnicate' (see 'kiln datagen --help')",
        ),
        (
            &["datagen", "--out", "x"],
            "kiln datagen: missing --games <n> or --positions <n> (see 'kiln datagen --help')",
        ),
        (
            &["datagen", "--out", "x", "--games"],
            "kiln datagen: option '--games' needs a value (see 'kiln datagen --help')",
        ),
        (
            &["datagen", "--out=x", "--games=ten"],
            "kiln datagen: bad value 'ten' for --games: expected a number 1 or more \
             (decimal or 0x hex) (see 'kiln datagen --help')",
        ),
        (
            &["label", "--data", "a", "--out", "b"],
            "kiln label: missing --engine <path> (see 'kiln label --help')",
        ),
        (
            &["tune", "--data", "a", "--out", "b", "--lambda", "2"],
            "kiln tune: bad value '2' for --lambda: expected a number 0-1 (see 'kiln tune --help')",
        ),
        (
            &["tune", "--neutral", "--data", "a", "--out", "b"],
            "kiln tune: options '--neutral' and '--data' cannot be used together (see 'kiln tune --help')",
        ),
        (
            &["train", "--data", "a", "--out", "b", "--hidden", "100"],
            "kiln train: bad value '100' for --hidden: the hidden size is a multiple of 16 \
             (see 'kiln train --help')",
        ),
        (
            &["train", "--data", "a", "--out", "b", "--layers", "2"],
            "kiln train: unknown option '--layers' (see 'kiln train --help')",
        ),
        (
            &["tune", "--help=yes"],
            "kiln tune: option '--help' takes no value (see 'kiln tune --help')",
        ),
    ] {
        let out = kiln(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), format!("{line}\n"), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn perft_takes_depth_and_fen_in_hex_or_decimal() {
    let out = kiln(&["perft", "0x2"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stdout(&out).ends_with("Nodes searched: 400\n"),
        "{}",
        stdout(&out)
    );
    let out = kiln(&["perft", "1", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("Nodes searched: 3\n"));
    let out = kiln(&["perft", "1", "not a fen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    assert!(stderr(&out).starts_with("kiln perft: bad value 'not a fen' for <fen>"));
}

/// Runtime failures (here: a file that cannot be created) exit 1, not 2.
#[test]
fn a_failing_run_exits_1() {
    let out = kiln(&[
        "datagen",
        "--out",
        "/nonexistent/kiln/out.txt",
        "--games=0x1",
        "--nodes",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot create"), "{}", stderr(&out));
    let out = kiln(&[
        "train",
        "--data",
        "/nonexistent/kiln/data.bin",
        "--out",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("kiln train: ") && stderr(&out).contains("data.bin"),
        "{}",
        stderr(&out)
    );
}

/// Without the `plot` feature, `kiln plot` says how to get it; its help
/// works in every build.
#[cfg(not(feature = "plot"))]
#[test]
fn plot_without_the_feature_says_how_to_get_it() {
    let out = kiln(&["plot", "--params", "p", "--out", "d"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "kiln plot: this build has no plotting; rebuild with --features plot\n"
    );
}

#[test]
fn tune_neutral_writes_the_material_only_start() {
    let path = std::env::temp_dir().join(format!("kiln-neutral-{}.txt", std::process::id()));
    let out = kiln(&[
        "tune",
        "--neutral",
        "--out",
        path.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&path).expect("the neutral file is written");
    std::fs::remove_file(&path).ok();
    assert!(text.starts_with("# Kiln evaluation parameters (centipawns): the neutral start"));
    assert!(text.contains("\nqueen   900    900\n"), "{text}");
}
