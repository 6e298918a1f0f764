//! OpenBench's data generation: `kiln "genfens N seed S book <None|file>"
//! quit` prints `N` lines `info string genfens <fen>`, and the binary takes
//! UCI input lines as arguments. The last test runs OpenBench's own client
//! module against the binary (skipped, with a message, where that module
//! or python3 is not beside the repository).

// This file uses part of the shared harness only.
#[allow(dead_code)]
mod support;

use std::collections::HashSet;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use kiln_board::Board;
use kiln_board::{MoveList, generate_all, has_legal_move};
use support::{EngineProcess, openbench};

/// What a finished `kiln` printed.
struct Finished {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `kiln args…` with an empty stdin to its end; panics if it has not
/// exited within `timeout`.
fn kiln(args: &[&str], timeout: Duration) -> Finished {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start kiln");
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("stdout")));
    let stderr = read_all(Box::new(child.stderr.take().expect("stderr")));
    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for kiln") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("kiln {args:?} did not exit within {timeout:?}");
        }
        thread::sleep(Duration::from_millis(5));
    };
    Finished {
        status,
        stdout: stdout.join().expect("stdout reader"),
        stderr: stderr.join().expect("stderr reader"),
    }
}

/// The openings of `genfens` output: what follows `info string genfens `.
fn openings(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix("info string genfens "))
        .map(str::to_string)
        .collect()
}

/// The first four fields of a FEN: the position without its move counters.
fn position(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// `kiln "genfens <count> seed <seed> book None" quit`'s openings, checked
/// to be `count` distinct legal positions with a move to play, printed
/// without anything else on stdout or stderr.
fn genfens(count: usize, seed: u64) -> Vec<String> {
    let command = format!("genfens {count} seed {seed} book None");
    let out = kiln(&[&command, "quit"], Duration::from_secs(60));
    assert!(out.status.success(), "{command}: {:?}", out.status);
    assert!(out.stderr.is_empty(), "{command}: {}", out.stderr);
    let fens = openings(&out.stdout);
    assert_eq!(fens.len(), count, "{command}:\n{}", out.stdout);
    assert_eq!(out.stdout.lines().count(), count, "{}", out.stdout);
    for fen in &fens {
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(has_legal_move(&board), "{fen} has no legal move");
        assert_eq!(board.to_fen(), *fen, "a FEN as Kiln writes it");
    }
    let distinct: HashSet<String> = fens.iter().map(|f| position(f)).collect();
    assert_eq!(distinct.len(), count, "repeated openings: {fens:?}");
    fens
}

#[test]
fn genfens_prints_distinct_legal_openings_quickly() {
    let started = Instant::now();
    let fens = genfens(20, 1_234_567_890_123);
    // Milliseconds each; the bound is for a loaded machine (OpenBench
    // waits 15 s for each opening).
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    for fen in &fens {
        // 8 or 9 random plies from the start position.
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(board.fullmove_number(), 5, "{fen}");
    }
}

#[test]
fn the_whole_seed_chooses_the_openings() {
    let seeds = [
        1_234_567_890_123,
        1_234_567_890_124,
        // Differs from the one above only in the high 32 bits.
        1_234_567_890_124 + (1 << 40),
        u64::MAX - 1,
        u64::MAX,
    ];
    let mut seen: Vec<Vec<String>> = Vec::new();
    for seed in seeds {
        let fens = genfens(8, seed);
        assert!(
            !seen.contains(&fens),
            "seed {seed} repeats an earlier seed's openings"
        );
        assert_eq!(genfens(8, seed), fens, "seed {seed} twice");
        seen.push(fens);
    }
}

/// Every position within `plies` moves of `start` (the start included), by
/// its first four FEN fields.
fn reachable(start: &str, plies: u32) -> HashSet<String> {
    fn walk(board: &mut Board, plies: u32, found: &mut HashSet<String>) {
        found.insert(position(&board.to_fen()));
        if plies == 0 {
            return;
        }
        let mut moves = MoveList::new();
        generate_all(board, &mut moves);
        for &mv in moves.iter() {
            board.make_move(mv);
            walk(board, plies - 1, found);
            board.unmake_move();
        }
    }
    let mut board = Board::from_fen(start).expect("book position");
    let mut found = HashSet::new();
    walk(&mut board, plies, &mut found);
    found
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-genfens-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn a_book_gives_the_starts_and_its_bad_lines_are_told_on_stderr() {
    let dir = scratch("book");
    let book = dir.join("endgames.epd");
    // Pawn endgames, whose few moves let the test list every position a
    // few plies away; an EPD line, a FEN line, and two lines to skip.
    let starts = [
        "4k3/4p3/8/8/8/8/4P3/4K3 w - -",
        "3k4/3p4/8/8/8/8/3P4/3K4 b - - 0 1",
    ];
    std::fs::write(
        &book,
        format!(
            "{} hmvc 0; fmvn 1;\n# a comment\n\n{}\nnot a position\n8/8 w\n",
            starts[0], starts[1]
        ),
    )
    .expect("write the book");
    let book = book.to_str().expect("a UTF-8 temporary path");
    let command = format!("genfens 12 seed 77 book {book} some extra words");
    let out = kiln(&[&command, "quit"], Duration::from_secs(60));
    assert!(out.status.success());
    let fens = openings(&out.stdout);
    assert_eq!(fens.len(), 12, "{}", out.stdout);
    assert_eq!(out.stdout.lines().count(), 12, "{}", out.stdout);
    let from_book: Vec<HashSet<String>> = starts.iter().map(|s| reachable(s, 4)).collect();
    let mut used = [false; 2];
    for fen in &fens {
        let start = from_book
            .iter()
            .position(|near| near.contains(&position(fen)))
            .unwrap_or_else(|| panic!("{fen} is not within four plies of the book"));
        used[start] = true;
    }
    assert_eq!(used, [true, true], "{fens:?}");
    let warnings: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(warnings.len(), 3, "{}", out.stderr);
    // Not an `info string genfens ` line: OpenBench, which reads stderr
    // too, would take it for an opening.
    assert_eq!(
        warnings[0],
        "info string unused genfens words (it takes seed and book): some extra words"
    );
    assert!(warnings[1].starts_with(&format!("info string book {book} line 5: ")));
    assert!(warnings[2].starts_with(&format!("info string book {book} line 6: ")));
    let again = kiln(&[&command, "quit"], Duration::from_secs(60));
    assert_eq!(openings(&again.stdout), fens, "the same seed and book");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_genfens_commands_are_info_strings_and_the_engine_goes_on() {
    let out = kiln(
        &[
            "genfens",
            "genfens many seed 1",
            "genfens 3 seed -1",
            "genfens 3 seed 18446744073709551616",
            "genfens 3 seed 1 book /no/such/book.epd",
            "isready",
            "genfens 1 seed 2",
            "quit",
        ],
        Duration::from_secs(60),
    );
    assert!(out.status.success());
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines.contains(&"readyok"), "{lines:?}");
    assert_eq!(openings(&out.stdout).len(), 1, "{lines:?}");
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string") && !l.starts_with("info string genfens "))
        .count();
    assert_eq!(errors, 5, "{lines:?}");
    assert!(
        out.stdout
            .contains("info string error: cannot read book '/no/such/book.epd'"),
        "{lines:?}"
    );
}

#[test]
fn genfens_typed_into_a_running_engine_answers_isready_and_stop() {
    let mut e = EngineProcess::start(&["isready"], Stdio::null());
    e.read_until(Duration::from_secs(10), "readyok", |l| l == "readyok");
    // Far more openings than can be made before `stop`: the loop answers
    // meanwhile, and `stop` ends the run with a count.
    e.send("genfens 100000 seed 3 book None");
    e.read_until(Duration::from_secs(10), "an opening", |l| {
        l.starts_with("info string genfens ")
    });
    e.send("isready");
    e.read_until(Duration::from_secs(10), "readyok", |l| l == "readyok");
    e.send("stop");
    let lines = e.read_until(Duration::from_secs(10), "the stop line", |l| {
        l.starts_with("info string stopped: ")
    });
    let last = lines.last().map(String::as_str).unwrap_or_default();
    assert!(last.ends_with(" of 100000 openings made"), "{last}");
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(10)).success());
}

#[test]
fn arguments_are_uci_lines_read_before_stdin() {
    let out = kiln(
        &["position startpos", "go depth 3", "quit"],
        Duration::from_secs(30),
    );
    assert!(out.status.success());
    assert!(
        out.stdout.lines().any(|l| l.starts_with("bestmove ")),
        "{}",
        out.stdout
    );
    // Without `quit`, stdin follows the arguments.
    let mut e = EngineProcess::start(&["uci", "position startpos moves e2e4"], Stdio::null());
    e.read_until(Duration::from_secs(10), "uciok", |l| l == "uciok");
    e.send("d");
    let lines = e.read_until(Duration::from_secs(10), "the Fen: line", |l| {
        l.starts_with("Fen: ")
    });
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(10)).success());
    // Kiln's own commands and unknown words keep their meaning.
    let out = kiln(&["Genfens", "quit"], Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        out.stderr,
        "kiln: unknown command 'Genfens' (see 'kiln --help')\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn openbench_client_module_builds_its_book_with_kiln() {
    if let Some(why) = openbench::missing_tools("genfens.py") {
        openbench::say_skipped(&why);
        return;
    }
    openbench::run_driver(
        "openbench_genfens",
        &["--engine", env!("CARGO_BIN_EXE_kiln")],
        "OpenBench's genfens module",
    );
}
