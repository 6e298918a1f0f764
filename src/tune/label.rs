//! `kiln label`: re-scores training positions with another UCI engine.
//!
//! `kiln datagen` labels each position with the result of a fast self-play
//! game, a noisy signal: one game says little about one position, so the
//! tuner needs millions of them. A stronger engine's search score is a far
//! less noisy label. This command reads `datagen` output, asks a UCI engine
//! (for instance Stockfish) for a fixed-depth search of each position, and
//! writes the same lines with the score column replaced by that engine's
//! score (centipawns, White's view; mates as ±[`MATE_LABEL`]). The game
//! result is kept, so `kiln tune --lambda` can blend the two.
//!
//! Work is split into contiguous chunks, one engine process per thread, and
//! written in the input's order, so the output does not depend on the
//! thread count (beyond the engine's own determinism at a fixed depth).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::options::{flag_values, number};
use crate::board::Board;

/// Usage text of `kiln label`.
pub const USAGE: &str = "usage: kiln label --data <file> --out <file> --engine <path> \
[--depth <n>] [--threads <n>] [--hash <MiB>]";

/// The score written for a mate found by the labelling engine.
pub const MATE_LABEL: i32 = 2_000;

/// What to label; see [`USAGE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Input: `datagen` lines (`<fen> | <result> | <score>`).
    pub data: String,
    /// Output file (created or truncated).
    pub out: String,
    /// The UCI engine's executable.
    pub engine: String,
    /// Search depth per position.
    pub depth: u64,
    /// Engine processes run at once.
    pub threads: usize,
    /// Hash per engine process in MiB.
    pub hash_mib: u64,
}

impl Options {
    /// Parses the arguments after `label`; an `Err` is a message for the
    /// user (the caller prints it with [`USAGE`] and exits with status 2).
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let (mut data, mut out, mut engine) = (None, None, None);
        let mut options = Options {
            data: String::new(),
            out: String::new(),
            engine: String::new(),
            depth: 6,
            threads: 1,
            hash_mib: 16,
        };
        for (flag, value) in flag_values(args) {
            match flag {
                "--data" => data = Some(value?.to_string()),
                "--out" => out = Some(value?.to_string()),
                "--engine" => engine = Some(value?.to_string()),
                "--depth" => options.depth = number(flag, value?, 1, 64)?,
                "--threads" => options.threads = number(flag, value?, 1, 256)? as usize,
                "--hash" => options.hash_mib = number(flag, value?, 1, 65_536)?,
                other => return Err(format!("unknown option '{other}'")),
            }
        }
        options.data = data.ok_or("missing --data <file>")?;
        options.out = out.ok_or("missing --out <file>")?;
        options.engine = engine.ok_or("missing --engine <path>")?;
        Ok(options)
    }
}

/// How many lines were labelled and how many could not be (malformed
/// lines or FENs, or positions the engine returned no score for); the
/// latter are left out of the output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines written with the engine's score.
    pub labelled: u64,
    /// Lines skipped.
    pub skipped: u64,
}

/// Runs `kiln label`; progress goes to stderr.
pub fn run(options: &Options) -> Result<Summary, String> {
    let file =
        File::open(&options.data).map_err(|e| format!("cannot open '{}': {e}", options.data))?;
    let mut lines = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| format!("cannot read '{}': {e}", options.data))?;
        if !line.trim().is_empty() {
            lines.push(line);
        }
    }
    let mut out = BufWriter::new(
        File::create(&options.out).map_err(|e| format!("cannot create '{}': {e}", options.out))?,
    );
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let chunk = lines.len().div_ceil(options.threads).max(1);
    let results: Vec<Result<Vec<Option<String>>, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| scope.spawn(|| label_chunk(options, part, &done)))
            .collect();
        let total = lines.len() as u64;
        while handles.iter().any(|h| !h.is_finished()) {
            std::thread::sleep(std::time::Duration::from_millis(500));
            let n = done.load(Ordering::Relaxed);
            let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-3);
            eprint!("\rlabel: {n}/{total} positions, {rate:.0}/s   ");
        }
        eprintln!();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a labelling thread panicked".into()))
            })
            .collect()
    });
    let mut summary = Summary::default();
    for part in results {
        for line in part? {
            match line {
                Some(line) => {
                    writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
                    summary.labelled += 1;
                }
                None => summary.skipped += 1,
            }
        }
    }
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    Ok(summary)
}

/// A running UCI engine.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(options: &Options) -> Result<Engine, String> {
        let mut child = Command::new(&options.engine)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", options.engine))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("cannot talk to the engine".into());
        };
        let mut engine = Engine {
            child,
            input,
            output: BufReader::new(output),
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send(&format!("setoption name Hash value {}", options.hash_mib))?;
        engine.send("ucinewgame")?;
        engine.send("isready")?;
        engine.wait_for("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, command: &str) -> Result<(), String> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err("the engine exited".into()),
            Ok(_) => Ok(line),
            Err(e) => Err(format!("cannot read from the engine: {e}")),
        }
    }

    fn wait_for(&mut self, token: &str) -> Result<(), String> {
        while self.read_line()?.split_whitespace().next() != Some(token) {}
        Ok(())
    }

    /// The score of `fen` (side to move's view) after a `depth`-ply search.
    fn score(&mut self, fen: &str, depth: u64) -> Result<Option<i32>, String> {
        self.send(&format!("position fen {fen}"))?;
        self.send(&format!("go depth {depth}"))?;
        let mut score = None;
        loop {
            let line = self.read_line()?;
            match line.split_whitespace().next() {
                Some("bestmove") => return Ok(score),
                Some("info") => {
                    if let Some(s) = parse_score(&line) {
                        score = Some(s);
                    }
                }
                _ => {}
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// The score of a UCI `info` line (side to move's view): centipawns, or
/// ±[`MATE_LABEL`] for a mate; bounds (`lowerbound`/`upperbound`) are not
/// final and are ignored.
fn parse_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score")?;
    if words
        .get(at + 3)
        .is_some_and(|w| *w == "lowerbound" || *w == "upperbound")
    {
        return None;
    }
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value.clamp(-MATE_LABEL, MATE_LABEL)),
        "mate" => Some(if value > 0 { MATE_LABEL } else { -MATE_LABEL }),
        _ => None,
    }
}

/// Labels `lines` with one engine; `None` for a line that could not be.
fn label_chunk(
    options: &Options,
    lines: &[String],
    done: &AtomicU64,
) -> Result<Vec<Option<String>>, String> {
    let mut engine = Engine::start(options)?;
    let mut labelled = Vec::with_capacity(lines.len());
    for line in lines {
        let mut fields = line.split('|').map(str::trim);
        let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
            labelled.push(None);
            continue;
        };
        // Checked here: an engine given a bad FEN may crash, or quietly
        // search some other position.
        if Board::from_fen(fen).is_err() {
            labelled.push(None);
            continue;
        }
        let white_to_move = fen.split_whitespace().nth(1) == Some("w");
        let label = engine.score(fen, options.depth)?.map(|score| {
            let white = if white_to_move { score } else { -score };
            format!("{fen} | {result} | {white}")
        });
        labelled.push(label);
        done.fetch_add(1, Ordering::Relaxed);
    }
    Ok(labelled)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tune::split_args as args;

    #[test]
    fn options_parse_and_reject() {
        let o = Options::parse(&args("--data a --out b --engine sf --depth 8 --threads 2"))
            .expect("valid");
        assert_eq!((o.depth, o.threads, o.hash_mib), (8, 2, 16));
        assert!(
            Options::parse(&args("--out b --engine sf")).is_err(),
            "no --data"
        );
        assert!(
            Options::parse(&args("--data a --engine sf")).is_err(),
            "no --out"
        );
        assert!(
            Options::parse(&args("--data a --out b")).is_err(),
            "no --engine"
        );
        assert!(Options::parse(&args("--data a --out b --engine sf --depth 0")).is_err());
        assert!(Options::parse(&args("--data a --out b --engine sf --depth")).is_err());
        assert!(Options::parse(&args("--data a --out b --engine sf --x 1")).is_err());
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(
            parse_score("info depth 6 seldepth 7 multipv 1 score cp -35 nodes 900 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            parse_score("info depth 9 score mate -3 pv a1a2"),
            Some(-MATE_LABEL)
        );
        assert_eq!(parse_score("info depth 9 score cp 99999"), Some(MATE_LABEL));
        assert_eq!(parse_score("info depth 9 score cp 40 lowerbound"), None);
        assert_eq!(parse_score("info string hello"), None);
        assert_eq!(parse_score("info depth 3 score cp x"), None);
    }

    #[test]
    fn a_missing_engine_is_an_error() {
        let options = Options {
            data: String::new(),
            out: String::new(),
            engine: "/nonexistent/engine".into(),
            depth: 1,
            threads: 1,
            hash_mib: 1,
        };
        assert!(Engine::start(&options).is_err());
    }
}
