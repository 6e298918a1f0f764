//! UCI protocol tests: drive the `kiln` binary through stdin/stdout as a GUI
//! would, including a battery of bad input that must neither crash nor hang
//! the engine nor change its state silently.

mod support;

use std::process::Stdio;
use std::thread;
use std::time::{Duration, Instant};

use support::EngineProcess;

/// `kiln` on the shared harness, its stderr discarded.
fn engine() -> EngineProcess {
    EngineProcess::start(&[], Stdio::null())
}

/// UCI conveniences on the shared harness.
trait Uci {
    /// Reads lines until one satisfies `done`; returns all lines read.
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String>;
    /// Sends `isready` and waits for `readyok`; returns all lines read.
    fn ready(&mut self) -> Vec<String>;
    /// The position's FEN, as the `d` command prints it.
    fn fen(&mut self) -> String;
}

impl Uci for EngineProcess {
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        self.read_until(timeout, "the awaited line", done)
    }

    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.read_until(Duration::from_secs(10), "readyok", |l| l == "readyok")
    }

    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(Duration::from_secs(5), "the Fen: line", |l| {
            l.starts_with("Fen: ")
        });
        lines
            .last()
            .map(|l| l["Fen: ".len()..].to_string())
            .unwrap_or_default()
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// How soon `stop`, `quit` or `ponderhit` must take effect: the engine
/// takes a few milliseconds, and the rest is room for a loaded machine
/// (this file's tests run two at a time beside the build). A search that
/// ignored them would run on for ever.
const PROMPT_STOP: Duration = Duration::from_secs(1);

/// The `wdl W D L` triple of an `info` line, if it has one.
fn wdl_of(line: &str) -> Option<[u32; 3]> {
    let mut words = line.split_whitespace().skip_while(|w| *w != "wdl").skip(1);
    let mut next = || words.next()?.parse().ok();
    Some([next()?, next()?, next()?])
}

#[test]
fn show_wdl_adds_odds_that_follow_the_score() {
    let mut e = engine();
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 4");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for line in infos {
        let odds = wdl_of(line).unwrap_or_else(|| panic!("no wdl in {line}"));
        assert_eq!(odds.iter().sum::<u32>(), 1000, "{line}");
    }
    // A queen up: a win is the likeliest outcome; mated: a certain loss.
    e.send("position fen 4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    e.send("go depth 4");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let odds = lines.iter().rev().find_map(|l| wdl_of(l)).expect("wdl");
    assert!(odds[0] > 900, "{lines:?}");
    e.send("position fen 8/8/8/8/8/6k1/r7/7K w - - 0 1");
    e.send("go depth 4");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let last = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .expect("info");
    assert!(
        last.contains("score mate") && wdl_of(last) == Some([0, 0, 1000]),
        "{last}"
    );
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

/// `UseNNUE` switches the evaluation: the same depth-6 search counts other
/// nodes with the network than with the hand-written evaluation, and the
/// same again when switched back. The network also searches on several
/// threads (each helper keeps its own accumulators), from a game's
/// position with moves.
#[test]
fn use_nnue_searches_with_the_network() {
    const POSITION: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1";
    let mut e = engine();
    let search = |e: &mut EngineProcess, use_nnue: bool, threads: u32| {
        e.send(&format!("setoption name UseNNUE value {use_nnue}"));
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        e.send(POSITION);
        e.send("go depth 6");
        let lines = e.until(Duration::from_secs(30), |l| l.starts_with("bestmove "));
        let last = lines.last().map(String::as_str).unwrap_or_default();
        assert!(
            last.starts_with("bestmove ") && last != "bestmove 0000",
            "{lines:?}"
        );
        most_nodes_reported(&lines)
    };
    let network = search(&mut e, true, 1);
    let classical = search(&mut e, false, 1);
    assert_ne!(network, classical, "UseNNUE changed nothing");
    assert_eq!(search(&mut e, true, 1), network, "switched back");
    search(&mut e, true, 3);
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

#[test]
fn handshake_identifies_and_declares_options() {
    let mut e = engine();
    e.send("uci");
    let lines = e.until(Duration::from_secs(5), |l| l == "uciok");
    assert!(lines[0].starts_with("id name Kiln "), "{lines:?}");
    assert!(lines[0].contains("(tables "), "{lines:?}");
    assert!(lines[0].contains(", net "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for option in [
        "option name Hash type spin default 16 min 1 max ",
        "option name Clear Hash type button",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name Move Overhead type spin",
        "option name Ponder type check",
        "option name UCI_Chess960 type check",
        "option name MultiPV type spin",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 600 max 3000",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name UseNNUE type check default ",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(option)),
            "missing {option}: {lines:?}"
        );
    }
    e.ready();
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

#[test]
fn bad_input_battery_never_crashes_or_changes_state() {
    let mut e = engine();
    e.send("position startpos moves e2e4");
    let after_e4 = e.fen();
    assert_eq!(
        after_e4,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );

    // Malformed: each one must be answered with an `info string`.
    let malformed = [
        "hello world",
        "GO",
        "position",
        "position fen",
        "position fen 8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen 9/8/8/8/8/8/8/8 w - - 0 1",
        "position fen k7/8/8/8/8/8/8/7K w - - 0 1 extra tokens",
        "position sideways",
        "setoption",
        "setoption name",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value lots",
        "setoption name Hash",
        "setoption name Ponder value maybe",
        "go depth",
        "go wtime",
        "go movetime abc",
        "go nodes -",
        "perft",
        "perft x",
        "perft 2 junk",
        "bench x",
        "bench 3 nnue",
        "debug sideways",
        "\u{0}\u{1}\u{7f}",
    ];
    for line in malformed {
        e.send(line);
        let lines = e.ready();
        assert!(
            lines.iter().any(|l| l.starts_with("info string")),
            "{line:?} was not reported: {lines:?}"
        );
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "{line:?}: {lines:?}"
        );
    }
    // A `go` with a usable limit searches and moves, and says what it left
    // out; one whose clock is only the other side's (Black is to move)
    // moves at once.
    for line in [
        "go depth 1 nonsense",
        "go wtime 1000.5 btime 1000 winc 10 binc 10",
        "go wtime 60000 winc 1000",
    ] {
        e.send(line);
        let sent = Instant::now();
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        assert!(
            lines.iter().any(|l| l.starts_with("info string go: ")),
            "{line:?}: {lines:?}"
        );
        assert!(
            lines
                .last()
                .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove 0000"),
            "{line:?}: {lines:?}"
        );
        assert!(
            sent.elapsed() < Duration::from_secs(2),
            "{line:?}: {:?}",
            sent.elapsed()
        );
    }
    // Blank lines, and commands that are well formed but have nothing to
    // act on, pass without a word and change nothing.
    for line in ["", "   ", "ponderhit", "stop", "debug", "debug off"] {
        e.send(line);
        let lines = e.ready();
        assert_eq!(lines, ["readyok"], "{line:?}");
    }
    // Invalid FENs left the position as it was.
    assert_eq!(e.fen(), after_e4);

    // Out-of-range values are clamped with a message.
    e.send("setoption name Hash value 999999999");
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l.contains("out of range")),
        "{lines:?}"
    );
    e.send("setoption name hash value 1");
    e.send("setoption name MOVE OVERHEAD value -5");
    let lines = e.ready();
    assert!(
        lines.iter().any(|l| l.contains("out of range")),
        "{lines:?}"
    );

    // Illegal moves: reported, position kept at the last legal one.
    e.send("position startpos moves e2e4 e7e5 e1e3 g1f3");
    let lines = e.ready();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string illegal move 'e1e3'")),
        "{lines:?}"
    );
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    e.send("position startpos moves e2e5");
    e.ready();
    assert_eq!(e.fen(), START);

    // Invalid UTF-8 and a 100 KB line.
    e.send_bytes(b"\xff\xfe position \xc3\x28 startpos\n");
    let long = "x".repeat(100 * 1024);
    e.send(&long);
    let mut long_moves = String::from("position startpos moves");
    while long_moves.len() < 100 * 1024 {
        long_moves.push_str(" g1f3 g8f6 f3g1 f6g8");
    }
    e.send(&long_moves);
    e.ready();
    assert!(
        e.fen()
            .starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ")
    );

    // A burst of 1,000 commands is answered in full and in order.
    let mut burst = String::new();
    for i in 0..1000 {
        burst.push_str(if i % 2 == 0 {
            "isready\n"
        } else {
            "position startpos moves d2d4\n"
        });
    }
    e.send_bytes(burst.as_bytes());
    let mut ready = 0;
    while ready < 500 {
        let lines = e.until(Duration::from_secs(10), |l| l == "readyok");
        ready += lines.iter().filter(|l| *l == "readyok").count();
    }
    assert_eq!(
        e.fen(),
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"
    );

    // Absurd numbers are clamped, not overflowed.
    for go in [
        "go depth 99999999999999999999999 nodes 2000",
        "go mate 4294967296 nodes 2000",
        "go wtime 18446744073709551615 btime 18446744073709551615 winc 18446744073709551615 binc 18446744073709551615 movestogo 18446744073709551615 depth 2",
        "go movetime 18446744073709551615 depth 2",
        "go wtime 0 btime 0",
    ] {
        e.send(go);
        let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
        assert!(
            lines.iter().all(|l| !l.contains("internal error")),
            "{go}: {lines:?}"
        );
        assert_ne!(lines.last().unwrap(), "bestmove 0000", "{go}");
    }

    // Still searching normally afterwards.
    e.send("go depth 3");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3")),
        "{lines:?}"
    );
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

#[test]
fn stop_and_isready_during_infinite_search() {
    let mut e = engine();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(200));
    // isready is answered while the search runs, before any bestmove.
    let before_stop = e.ready();
    assert!(
        before_stop.iter().all(|l| !l.starts_with("bestmove")),
        "{before_stop:?}"
    );
    thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    e.send("stop");
    let lines = e.until(Duration::from_secs(2), |l| l.starts_with("bestmove"));
    let latency = sent.elapsed();
    // Prompt, against a search that would never end; a second leaves room
    // for a loaded machine (the tests of this file run two at a time).
    assert!(latency < PROMPT_STOP, "stop took {latency:?}");
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove 0000",
        "{best}"
    );
    // Info lines carry the required fields. The last one may have come
    // before `isready` was answered: on a loaded machine no iteration need
    // finish between `readyok` and `stop`.
    let info = before_stop
        .iter()
        .chain(&lines)
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
    e.ready();
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

#[test]
fn quit_during_search_and_eof_exit_promptly() {
    let mut e = engine();
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    e.send("quit");
    let start = Instant::now();
    assert!(e.close_and_wait(Duration::from_secs(2)).success());
    assert!(start.elapsed() < PROMPT_STOP);

    let mut e = engine();
    e.send("position startpos");
    e.send("go infinite");
    thread::sleep(Duration::from_millis(100));
    assert!(e.close_and_wait(Duration::from_secs(2)).success());

    // A perft that would run for hours does not block the loop, and `stop`
    // abandons it, so `quit` after it exits at once.
    let mut e = engine();
    e.send("go perft 12");
    e.ready();
    e.send("stop");
    let lines = e.until(Duration::from_secs(2), |l| l == "info string perft stopped");
    assert!(
        !lines.iter().any(|l| l.starts_with("Nodes searched")),
        "{lines:#?}"
    );
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(2)).success());

    // So does a bench to depth 64, which gives no count once stopped.
    let mut e = engine();
    e.send("bench 64");
    e.ready();
    e.send("stop");
    let lines = e.until(Duration::from_secs(5), |l| l == "info string bench stopped");
    assert!(!lines.iter().any(|l| l.ends_with(" nps")), "{lines:#?}");
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(2)).success());
}

/// The largest `nodes` count of the `info` lines among `lines`.
fn most_nodes_reported(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| {
            l.split(" nodes ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<u64>()
                .ok()
        })
        .max()
        .expect("an info line with nodes")
}

/// Sends `isready` and asserts that `readyok` comes within `limit`.
fn ready_within(e: &mut EngineProcess, limit: Duration, after: &str) -> Vec<String> {
    let sent = Instant::now();
    let lines = e.ready();
    let took = sent.elapsed();
    assert!(took < limit, "readyok after {after} took {took:?}");
    lines
}

/// No option value stalls the loop: an absurd hash size is cut to the
/// machine's memory with a message, and neither clearing that table, nor
/// clearing one a search has filled, nor starting the most threads keeps
/// `isready` waiting; `quit` then exits at once. (The bounds are generous
/// for a loaded machine; the engine answers in about a millisecond.)
#[test]
fn absurd_hash_clear_hash_and_many_threads_answer_isready_at_once() {
    const PROMPT: Duration = Duration::from_secs(2);
    let mut e = engine();
    e.send("setoption name Hash value 99999999999999999999");
    e.send("setoption name Clear Hash");
    let lines = ready_within(&mut e, PROMPT, "an absurd Hash and Clear Hash");
    let note = lines
        .iter()
        .find(|l| l.starts_with("info string option 'Hash' value 99999999999999999999"))
        .unwrap_or_else(|| panic!("no message about the hash size: {lines:?}"));
    assert!(note.contains("out of range, set to "), "{note}");
    #[cfg(target_os = "linux")]
    assert!(note.contains("physical memory"), "{note}");

    // A large table a search has written to is replaced by a fresh one, a
    // small one zeroed at once; either way the next search plays.
    e.send("setoption name Hash value 128");
    e.send("go depth 8");
    e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    e.send("setoption name Clear Hash");
    ready_within(&mut e, PROMPT, "Clear Hash of a used table");
    e.send("go depth 6");
    e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    e.send("setoption name Hash value 16");
    e.send("go depth 6");
    e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    e.send("ucinewgame");
    e.send("setoption name Clear Hash");
    ready_within(&mut e, PROMPT, "ucinewgame and Clear Hash");
    e.send("go depth 4");
    let lines = e.until(Duration::from_secs(30), |l| l.starts_with("bestmove"));
    legal_bestmove(&lines, START, &[]);

    e.send("setoption name Threads value 1024");
    ready_within(&mut e, PROMPT, "Threads 1024");
    e.send("go depth 1");
    let lines = e.until(Duration::from_secs(30), |l| l.starts_with("bestmove"));
    legal_bestmove(&lines, START, &[]);
    e.send("setoption name Hash value 99999999999999999999");
    e.send("setoption name Clear Hash");
    ready_within(&mut e, PROMPT, "a second absurd Hash");

    e.send("quit");
    let sent = Instant::now();
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
    assert!(sent.elapsed() < PROMPT, "quit took {:?}", sent.elapsed());
}

#[test]
fn quit_or_end_of_input_after_go_perft_prints_the_count_first() {
    for ending in ["quit", ""] {
        let mut e = engine();
        e.send("position startpos");
        e.send("go perft 5");
        if !ending.is_empty() {
            e.send(ending);
        }
        e.close_input();
        let lines = e.until(Duration::from_secs(30), |l| l.starts_with("Nodes searched"));
        assert_eq!(
            lines.last().map(String::as_str),
            Some("Nodes searched: 4865609")
        );
        assert!(e.close_and_wait(Duration::from_secs(5)).success());
    }
}

#[test]
fn no_legal_moves_gives_bestmove_0000() {
    let mut e = engine();
    // Fool's mate: White is checkmated.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 5");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info") && l.contains("score mate 0")),
        "{lines:?}"
    );
    // Stalemate.
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info") && l.contains("score cp 0")),
        "{lines:?}"
    );
}

#[test]
fn go_variants() {
    let mut e = engine();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5");
    // movetime is respected.
    let start = Instant::now();
    e.send("go movetime 300");
    e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    let took = start.elapsed();
    assert!(
        took >= Duration::from_millis(150) && took < Duration::from_millis(300) + PROMPT_STOP,
        "{took:?}"
    );
    // nodes: the search ends within one node-check interval of the limit.
    e.send("go nodes 5000");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    let searched = most_nodes_reported(&lines);
    assert!(
        searched <= 5000 + kiln::search::CHECK_EVERY,
        "{searched} nodes: {lines:?}"
    );
    assert!(
        lines
            .last()
            .is_some_and(|l| l.starts_with("bestmove ") && l != "bestmove 0000")
    );
    // searchmoves restricts the root.
    e.send("position startpos");
    e.send("go depth 6 searchmoves a2a3 h2h3");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove a2a3") || best.starts_with("bestmove h2h3"),
        "{best}"
    );
    // mate
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go mate 1");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    assert_eq!(lines.last().unwrap(), "bestmove d1d8");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    // MultiPV: three distinct best lines per depth.
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    e.send("go depth 5");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let firsts: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        // Aspiration fail lines appear once a search has run a second: on
        // a loaded machine, not a line of their own.
        .filter(|l| !l.contains(" lowerbound ") && !l.contains(" upperbound "))
        .filter_map(|l| l.split(" pv ").nth(1)?.split_whitespace().next())
        .collect();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 5 ") && l.contains(" multipv 3 "))
    );
    e.send("setoption name MultiPV value 1");
    // perft through go.
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until(Duration::from_secs(10), |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    // ponder, then ponderhit: the best move comes only after ponderhit.
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 2000 btime 2000");
    thread::sleep(Duration::from_millis(200));
    let lines = e.ready();
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    e.until(Duration::from_secs(3), |l| l.starts_with("bestmove"));
    // A second go while searching ends the first search cleanly.
    e.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    e.send("go depth 2");
    let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    e.send("d");
    e.send("eval");
    let lines = e.until(Duration::from_secs(5), |l| {
        l.starts_with("Final evaluation")
    });
    assert!(lines.iter().any(|l| l.starts_with("Fen: ")));
    assert!(lines.iter().any(|l| l.starts_with("NNUE evaluation: ")));
}

/// A simulated game at 2+0.02 (and a 5-moves-in-1-second control): each
/// side's clock is charged the wall time from sending `go` to reading
/// `bestmove`, as a GUI would, and must never run out. The overhead is set
/// as on a loaded machine (this test shares its cores with other tests).
#[test]
fn time_management_never_flags() {
    let mut e = engine();
    e.send("setoption name Move Overhead value 150");
    e.send("ucinewgame");
    for (base, inc, movestogo) in [(2000u64, 20u64, None), (1000, 0, Some(5u64))] {
        let mut clocks = [base as i64, base as i64];
        let mut moves: Vec<String> = Vec::new();
        for ply in 0..30 {
            let side = ply % 2;
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            let moves_made = ply as u64 / 2;
            let mtg = movestogo
                .map(|m| format!(" movestogo {}", m - moves_made % m))
                .unwrap_or_default();
            let sent = Instant::now();
            e.send(&format!(
                "go wtime {} btime {} winc {inc} binc {inc}{mtg}",
                clocks[0].max(0),
                clocks[1].max(0)
            ));
            let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
            let used = sent.elapsed().as_millis() as i64;
            clocks[side] -= used;
            assert!(
                clocks[side] > 0,
                "flagged at ply {ply} ({clocks:?}, used {used} ms)"
            );
            clocks[side] += inc as i64;
            if let Some(m) = movestogo {
                if moves_made % m == m - 1 {
                    clocks[side] += base as i64;
                }
            }
            let best = lines
                .last()
                .unwrap()
                .split_whitespace()
                .nth(1)
                .unwrap()
                .to_string();
            if best == "0000" {
                break;
            }
            moves.push(best);
        }
    }
}

/// The `bestmove` of `lines`, checked to be legal in `fen` (after `moves`).
fn legal_bestmove(lines: &[String], fen: &str, moves: &[&str]) -> String {
    let last = lines.last().expect("a bestmove line");
    let best = last
        .strip_prefix("bestmove ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("not a bestmove: {last}"));
    let mut board = kiln_board::Board::from_fen(fen).expect("valid FEN");
    for mv in moves {
        let mv = kiln_board::parse_uci_move(&board, mv).expect("legal test move");
        board.make_move(mv);
    }
    assert!(
        kiln_board::parse_uci_move(&board, best).is_ok(),
        "illegal bestmove {best} in {fen} {moves:?}"
    );
    best.to_string()
}

/// `Threads`: the declared range, absurd values refused or clamped with a
/// message (and the engine keeps running), and searches with 2 and 4
/// threads that end on their own, on `stop`, on the clock and at a node
/// limit that counts every thread's nodes (the count reported stays below
/// the limit plus a check interval a thread), each with a legal move.
#[test]
fn threads_option_and_multi_threaded_searches() {
    let mut e = engine();
    e.send("uci");
    let lines = e.until(Duration::from_secs(5), |l| l == "uciok");
    let declared = lines
        .iter()
        .find(|l| l.starts_with("option name Threads type spin default 1 min 1 max "))
        .unwrap_or_else(|| panic!("Threads option: {lines:?}"));
    let max: u64 = declared.rsplit(' ').next().unwrap().parse().unwrap();
    assert_eq!(max, 1024, "{declared}");

    for (value, answer) in [
        ("0", "out of range, set to 1"),
        ("-5", "out of range, set to 1"),
        ("999999", &*format!("out of range, set to {max}")),
        ("lots", "needs an integer"),
        (
            "99999999999999999999999999999999999999999999",
            "needs an integer",
        ),
        ("", "needs an integer"),
    ] {
        e.send(&format!("setoption name Threads value {value}"));
        let lines = e.ready();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string ") && l.contains(answer)),
            "Threads {value}: {lines:?}"
        );
    }

    let moves = ["e2e4", "c7c5", "g1f3"];
    let position = format!("position startpos moves {}", moves.join(" "));
    for threads in [2, 4] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        e.send(&position);
        e.send("go depth 9");
        let lines = e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
        legal_bestmove(&lines, START, &moves);
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 9 ")),
            "{lines:?}"
        );

        let sent = Instant::now();
        e.send("go movetime 300");
        let lines = e.until(Duration::from_secs(10), |l| l.starts_with("bestmove"));
        let took = sent.elapsed();
        assert!(
            took < Duration::from_millis(1500),
            "{threads} threads: {took:?}"
        );
        legal_bestmove(&lines, START, &moves);

        e.send("go infinite");
        thread::sleep(Duration::from_millis(300));
        let sent = Instant::now();
        e.send("stop");
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        let latency = sent.elapsed();
        assert!(latency < PROMPT_STOP, "stop took {latency:?}");
        legal_bestmove(&lines, START, &moves);

        // A clock: the threads stop in time.
        let sent = Instant::now();
        e.send("go wtime 1000 btime 1000 winc 10 binc 10");
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        // Within the second on the clock (its hard limit is far less).
        assert!(
            sent.elapsed() < Duration::from_millis(1000),
            "{:?}",
            sent.elapsed()
        );
        legal_bestmove(&lines, START, &moves);

        // A node limit counts every thread's nodes: the search stops near
        // it, not after each thread has searched that many. Every thread
        // publishes its count every 1,024 nodes and stops the search when
        // the published total reaches the limit, so whatever the scheduler
        // does, T threads end below the limit plus T × 1,024 (the bound is
        // derived in src/search/threads.rs).
        e.send("go nodes 200000");
        let lines = e.until(Duration::from_secs(30), |l| l.starts_with("bestmove"));
        legal_bestmove(&lines, START, &moves);
        let reported = most_nodes_reported(&lines);
        assert!(
            reported < 200_000 + kiln::search::CHECK_EVERY * threads,
            "{threads} threads: {reported}"
        );

        // Resizing and clearing the table with helpers in place.
        e.send("setoption name Hash value 8");
        e.send("setoption name Clear Hash");
        e.send("go depth 6");
        let lines = e.until(Duration::from_secs(30), |l| l.starts_with("bestmove"));
        legal_bestmove(&lines, START, &moves);
    }
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

/// With one thread a node-limited search is reproducible: the same lines
/// (apart from timing, and the bound lines only a slow search shows) every
/// time, also after searching with more threads.
#[test]
fn go_nodes_is_deterministic_with_one_thread() {
    fn strip_timing(line: &str) -> String {
        let mut words = line.split_whitespace();
        let mut kept = Vec::new();
        while let Some(word) = words.next() {
            if matches!(word, "time" | "nps" | "hashfull") {
                words.next();
            } else {
                kept.push(word);
            }
        }
        kept.join(" ")
    }
    let mut runs = Vec::new();
    let mut e = engine();
    for threads in [1, 2, 1] {
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        e.send("position startpos moves d2d4 g8f6 c2c4");
        e.send("go nodes 60000");
        let lines = e.until(Duration::from_secs(30), |l| l.starts_with("bestmove"));
        if threads == 1 {
            // Aspiration fail lines (`lowerbound`, `upperbound`) are shown
            // only once a search has run a second, so whether they appear
            // depends on the machine's speed, not on the search.
            let lines = lines
                .iter()
                .filter(|l| !l.contains(" lowerbound ") && !l.contains(" upperbound "));
            runs.push(lines.map(|l| strip_timing(l)).collect::<Vec<_>>());
        }
    }
    e.send("quit");
    assert!(runs[0].len() > 3, "{:?}", runs[0]);
    assert_eq!(runs[0], runs[1]);
}

/// `UCI_LimitStrength`: a short game against itself on the clock plays
/// legal moves only; `go infinite` and `go ponder` still wait for `stop` or
/// `ponderhit` and then answer at once; only the MultiPV lines asked for
/// are printed, though more are searched to choose from.
#[test]
fn limited_strength_plays_legal_moves_and_obeys_stop_and_ponder() {
    let mut e = engine();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 100");
    let note = e.ready();
    assert!(
        note.iter()
            .any(|l| l.starts_with("info string option 'UCI_Elo' value 100 out of range")),
        "{note:?}"
    );
    e.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..24 {
        // Both sides limited, at different ratings.
        let elo = if ply % 2 == 0 { 800 } else { 2400 };
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go wtime 2000 btime 2000 winc 20 binc 20");
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        assert!(
            lines.iter().all(|l| !l.contains(" multipv 2 ")),
            "{lines:?}"
        );
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        moves.push(legal_bestmove(&lines, START, &refs));
    }

    e.send("setoption name UCI_Elo value 1500");
    e.send("setoption name MultiPV value 2");
    e.send("position startpos");
    for (go, release) in [
        ("go infinite", "stop"),
        ("go ponder wtime 2000 btime 2000", "ponderhit"),
    ] {
        e.send(go);
        thread::sleep(Duration::from_millis(300));
        let waiting = e.ready();
        assert!(
            waiting.iter().all(|l| !l.starts_with("bestmove")),
            "{go}: {waiting:?}"
        );
        let sent = Instant::now();
        e.send(release);
        let mut lines = e.until(Duration::from_secs(2), |l| l.starts_with("bestmove"));
        let latency = sent.elapsed();
        assert!(latency < PROMPT_STOP, "{release} took {latency:?}");
        legal_bestmove(&lines, START, &[]);
        lines.extend(waiting);
        let infos = || lines.iter().filter(|l| l.starts_with("info depth"));
        assert!(infos().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
        assert!(infos().all(|l| !l.contains(" multipv 3 ")), "{lines:?}");
    }
    e.send("quit");
    assert!(e.close_and_wait(Duration::from_secs(5)).success());
}

/// The move played starts the last line shown (GUIs and match runners
/// check it), also when a limited strength plays another line than the
/// best one it found.
#[test]
fn the_best_move_starts_the_last_line_shown() {
    let mut e = engine();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1500");
    for moves in [
        "",
        "e2e4",
        "e2e4 e7e5",
        "d2d4 d7d5 c2c4",
        "g1f3 g8f6",
        "e2e4 c7c5 g1f3",
    ] {
        e.send(&format!("position startpos moves {moves}"));
        e.send("go movetime 200");
        let lines = e.until(Duration::from_secs(5), |l| l.starts_with("bestmove"));
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or_default();
        let shown = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info ") && l.contains(" multipv 1 "))
            .and_then(|l| l.split(" pv ").nth(1)?.split_whitespace().next());
        assert_eq!(shown, Some(best), "after '{moves}': {lines:#?}");
    }
}
