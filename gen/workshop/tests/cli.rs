//! The `kiln-workshop` command line: help on stdout with exit 0, a command
//! line that cannot run answered by one line on stderr naming the word at
//! fault, with exit 2, and a run that fails with exit 1.

use std::process::{Command, Output, Stdio};

fn workshop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiln-workshop"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kiln-workshop runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const COMMANDS: [&str; 9] = [
    "datagen", "data", "label", "tune", "train", "wdl", "plot", "help", "version",
];

#[test]
fn help_in_every_spelling_prints_usage_and_exits_0() {
    for args in [&["--help"][..], &["-h"], &["help"]] {
        let out = workshop(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = stdout(&out);
        assert!(
            text.contains("usage: kiln-workshop <command>"),
            "{args:?}: {text}"
        );
        for command in COMMANDS {
            assert!(text.contains(&format!("\n  {command}")), "{command}");
        }
        assert!(stderr(&out).is_empty(), "{args:?}");
    }
}

#[test]
fn every_command_has_its_own_help() {
    for command in COMMANDS {
        for args in [
            vec![command, "--help"],
            vec![command, "-h"],
            vec!["help", command],
        ] {
            let out = workshop(&args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            let text = stdout(&out);
            assert!(
                text.starts_with(&format!("usage: kiln-workshop {command}")),
                "{args:?}: {text}"
            );
        }
    }
    // Help wins wherever it stands among a command's options.
    let out = workshop(&["datagen", "--out", "x", "--games", "3", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("usage: kiln-workshop datagen"));
}

#[test]
fn version_names_the_engine_it_is_built_on() {
    let out = workshop(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "kiln-workshop {} (engine tables seed ",
            env!("CARGO_PKG_VERSION")
        )),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1, "{text}");
}

/// Every command line that cannot run: exit 2, nothing on stdout, and one
/// line on stderr that names the command, the word at fault and where the
/// help is.
#[test]
fn bad_command_lines_get_one_line_naming_the_word_and_exit_2() {
    for (args, line) in [
        (
            &[][..],
            "kiln-workshop: a command is needed (see 'kiln-workshop --help')",
        ),
        (
            &["bench"],
            "kiln-workshop: unknown command 'bench' (see 'kiln-workshop --help')",
        ),
        (
            &["datagen", "--out", "x", "--games", "1", "--frobnicate", "2"],
            "kiln-workshop datagen: unknown option '--frobnicate' (see 'kiln-workshop datagen --help')",
        ),
        (
            &["datagen", "--out", "x"],
            "kiln-workshop datagen: missing --games <n> or --positions <n> (see 'kiln-workshop datagen --help')",
        ),
        (
            &["datagen", "--out", "x", "--games"],
            "kiln-workshop datagen: option '--games' needs a value (see 'kiln-workshop datagen --help')",
        ),
        (
            &["datagen", "--out=x", "--games=ten"],
            "kiln-workshop datagen: bad value 'ten' for --games: expected a number 1 or more \
             (decimal or 0x hex) (see 'kiln-workshop datagen --help')",
        ),
        (
            &["label", "--data", "a", "--out", "b"],
            "kiln-workshop label: missing --engine <path> (see 'kiln-workshop label --help')",
        ),
        (
            &["tune", "--data", "a", "--out", "b", "--lambda", "2"],
            "kiln-workshop tune: bad value '2' for --lambda: expected a number 0-1 (see 'kiln-workshop tune --help')",
        ),
        (
            &["tune", "--neutral", "--data", "a", "--out", "b"],
            "kiln-workshop tune: options '--neutral' and '--data' cannot be used together (see 'kiln-workshop tune --help')",
        ),
        (
            &["train", "--data", "a", "--out", "b", "--hidden", "100"],
            "kiln-workshop train: bad value '100' for --hidden: the hidden size is a multiple of 16 \
             (see 'kiln-workshop train --help')",
        ),
        (
            &["train", "--data", "a", "--out", "b", "--layers", "2"],
            "kiln-workshop train: unknown option '--layers' (see 'kiln-workshop train --help')",
        ),
        (
            &["tune", "--help=yes"],
            "kiln-workshop tune: option '--help' takes no value (see 'kiln-workshop tune --help')",
        ),
    ] {
        let out = workshop(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), format!("{line}\n"), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Runtime failures (here: a file that cannot be created) exit 1, not 2.
#[test]
fn a_failing_run_exits_1() {
    let out = workshop(&[
        "datagen",
        "--out",
        "/nonexistent/kiln/out.txt",
        "--games=0x1",
        "--nodes",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("cannot create"), "{}", stderr(&out));
    let out = workshop(&[
        "train",
        "--data",
        "/nonexistent/kiln/data.bin",
        "--out",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("kiln-workshop train: ") && stderr(&out).contains("data.bin"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn tune_neutral_writes_the_material_only_start() {
    let path =
        std::env::temp_dir().join(format!("kiln-workshop-neutral-{}.txt", std::process::id()));
    let out = workshop(&[
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
