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
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use super::options::{flag_values, number};
pub use super::uci_client::MATE_LABEL;
use super::uci_client::UciClient;
use crate::board::Board;
use crate::protocol::options::HASH_MIB;

/// Usage text of `kiln label`.
pub const USAGE: &str = "usage: kiln label --data <file> --out <file> --engine <path> \
[--depth <n>] [--threads <n>] [--hash <MiB>]";

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
            hash_mib: HASH_MIB.default,
        };
        for (flag, value) in flag_values(args) {
            match flag {
                "--data" => data = Some(value?.to_string()),
                "--out" => out = Some(value?.to_string()),
                "--engine" => engine = Some(value?.to_string()),
                "--depth" => options.depth = number(flag, value?, 1, 64)?,
                "--threads" => options.threads = number(flag, value?, 1, 256)? as usize,
                "--hash" => options.hash_mib = number(flag, value?, HASH_MIB.min, HASH_MIB.max)?,
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

/// Labels `lines` with one engine; `None` for a line that could not be.
fn label_chunk(
    options: &Options,
    lines: &[String],
    done: &AtomicU64,
) -> Result<Vec<Option<String>>, String> {
    let mut engine = UciClient::start(&options.engine, options.hash_mib)?;
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
        let reply = engine.search(
            &format!("position fen {fen}"),
            &format!("go depth {}", options.depth),
        )?;
        let label = reply.score.map(|score| {
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
}
