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
        for command in ["xboard", "bench", "perft", "help", "version"] {
            assert!(text.contains(&format!("\n  {command}")), "{command}");
        }
        assert!(
            text.contains("kiln-workshop"),
            "the help names the workshop binary"
        );
        assert!(stderr(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn every_command_has_its_own_help() {
    for command in ["xboard", "bench", "perft", "help", "version"] {
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
    // Help wins wherever it stands among a command's arguments.
    let out = kiln(&["perft", "3", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("usage: kiln perft"));
}

/// The tools that left the engine: `kiln <tool>` names the binary that has
/// it, on one line, with exit 2 (and runs nothing).
#[test]
fn workshop_commands_name_the_workshop_binary() {
    for tool in ["datagen", "label", "tune", "train", "wdl", "plot", "data"] {
        let out = kiln(&[tool, "--help"]);
        assert_eq!(out.status.code(), Some(2), "{tool}");
        assert_eq!(
            stderr(&out),
            format!(
                "kiln: '{tool}' is a command of the workshop binary: kiln-workshop {tool} \
                 (cargo build --release -p kiln-workshop)\n"
            )
        );
        assert!(out.stdout.is_empty(), "{tool}");
    }
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

/// A reader that leaves early (`kiln bench | head -1`) is no failure: no
/// panic, exit 0, for the commands that print many lines.
#[test]
fn a_reader_that_leaves_early_is_no_failure() {
    use std::io::{BufRead, BufReader};
    for args in [&["bench", "7"][..], &["perft", "6"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kiln runs");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("stdout");
        BufReader::new(stdout)
            .read_line(&mut first)
            .expect("a first line");
        // The read end is closed here, before kiln has written the rest.
        let out = child.wait_with_output().expect("kiln exits");
        assert!(!first.is_empty(), "{args:?}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("panicked"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}
