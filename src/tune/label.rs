//! `kiln label`: re-scores training positions with another UCI engine.
//!
//! `kiln datagen` labels each position with the result of a fast self-play
//! game, a noisy signal: one game says little about one position, so the
//! tuner needs millions of them. A stronger engine's search score is a far
//! less noisy label. This command reads `datagen` output (binary records or
//! text lines), asks a UCI engine (for instance Stockfish) for a fixed-depth
//! search of each position, and writes text lines whose score is that engine's
//! score (centipawns, White's view; mates as ±[`MATE_LABEL`]). The game
//! result is kept, so `kiln tune --lambda` can blend the two.
//!
//! Work is split into contiguous chunks, one engine process per thread, and
//! written in the input's order, so the output does not depend on the
//! thread count (beyond the engine's own determinism at a fixed depth).

use std::ffi::OsString;
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use super::file_error::{FileAction, FileError};
use super::options::{ArgError, Parsed, for_each_option};
use super::progress::Progress;
use super::record::{self, DataError};
pub use super::uci_client::MATE_LABEL;
use super::uci_client::{UciClient, UciClientError};
use crate::board::Color;
use crate::protocol::options::hash_mib;

/// Usage text of `kiln label`.
pub const USAGE: &str = "\
usage: kiln label --data <file> --out <file> --engine <path> [options]

Re-scores training positions (`kiln datagen` output) with a fixed-depth
search of another UCI engine: the output is `<fen> | <result> | <score>`
lines with that engine's score (centipawns, White's view); the game result
is kept.

  --data <file>            input: binary records or text lines
  --out <file>             output file (created or truncated)
  --engine <path>          the UCI engine's executable
  --depth <n>              search depth per position (default 6)
  --threads <n>            engine processes run at once (default 1)
  --hash <MiB>             hash per engine process (default 16)
  -h, --help               this help

Whole numbers are decimal or 0x hex; options also take --option=value.";

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
    /// Parses the arguments after `label`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let (mut data, mut out, mut engine) = (None, None, None);
        let mut options = Options {
            data: String::new(),
            out: String::new(),
            engine: String::new(),
            depth: 6,
            threads: 1,
            hash_mib: hash_mib().default,
        };
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--data" => data = Some(args.value(flag)?),
                "--out" => out = Some(args.value(flag)?),
                "--engine" => engine = Some(args.value(flag)?),
                "--depth" => options.depth = args.number(flag, 1, 64)?,
                "--threads" => options.threads = args.number(flag, 1, 256)? as usize,
                "--hash" => {
                    let range = hash_mib();
                    options.hash_mib = args.number(flag, range.min, range.max)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        options.data = data.ok_or(ArgError::Missing("--data <file>"))?;
        options.out = out.ok_or(ArgError::Missing("--out <file>"))?;
        options.engine = engine.ok_or(ArgError::Missing("--engine <path>"))?;
        Ok(Parsed::Run(options))
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

/// Why `kiln label` stopped.
#[derive(Debug)]
pub enum LabelError {
    /// The input could not be read or the output written.
    File(FileError),
    /// The input is binary data of another format version.
    Data(DataError),
    /// The engine could not be started or stopped answering.
    Engine(UciClientError),
    /// A labelling thread panicked (a bug in Kiln).
    WorkerPanicked,
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabelError::File(error) => error.fmt(f),
            LabelError::Data(error) => error.fmt(f),
            LabelError::Engine(error) => error.fmt(f),
            LabelError::WorkerPanicked => f.write_str("a labelling thread panicked"),
        }
    }
}

impl std::error::Error for LabelError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LabelError::File(error) => Some(error),
            LabelError::Data(error) => Some(error),
            LabelError::Engine(error) => Some(error),
            LabelError::WorkerPanicked => None,
        }
    }
}

impl From<FileError> for LabelError {
    fn from(error: FileError) -> Self {
        LabelError::File(error)
    }
}

impl From<UciClientError> for LabelError {
    fn from(error: UciClientError) -> Self {
        LabelError::Engine(error)
    }
}

/// A position to label: its FEN, its side to move and its game's result as
/// the output writes it.
struct Input {
    fen: String,
    white_to_move: bool,
    result: &'static str,
}

/// Runs `kiln label`; progress goes to stderr.
pub fn run(options: &Options) -> Result<Summary, LabelError> {
    // Binary records and text lines alike, through the one reader of
    // training data; what it cannot read is counted as skipped.
    let mut inputs = Vec::new();
    let unreadable = record::read_positions(&options.data, |position| {
        inputs.push(Input {
            fen: position.board.to_fen(),
            white_to_move: position.board.side_to_move() == Color::White,
            result: ["0.0", "0.5", "1.0"][(position.result * 2.0).round() as usize % 3],
        });
        true
    })
    .map_err(LabelError::Data)?;
    let mut out = BufWriter::new(
        File::create(&options.out).map_err(FileError::on(FileAction::Create, &options.out))?,
    );
    let done = AtomicU64::new(0);
    let chunk = inputs.len().div_ceil(options.threads).max(1);
    let total = inputs.len() as u64;
    let mut progress = Progress::new("label", "positions", Some(total));
    let results: Vec<Result<Vec<Option<String>>, LabelError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = inputs
            .chunks(chunk)
            .map(|part| scope.spawn(|| label_chunk(options, part, &done)))
            .collect();
        while handles.iter().any(|h| !h.is_finished()) {
            std::thread::sleep(std::time::Duration::from_millis(200));
            progress.update(done.load(Ordering::Relaxed), "");
        }
        progress.update(done.load(Ordering::Relaxed), "");
        progress.finish();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(LabelError::WorkerPanicked)))
            .collect()
    });
    let mut summary = Summary {
        labelled: 0,
        skipped: unreadable,
    };
    for part in results {
        for line in part? {
            match line {
                Some(line) => {
                    writeln!(out, "{line}")
                        .map_err(FileError::on(FileAction::Write, &options.out))?;
                    summary.labelled += 1;
                }
                None => summary.skipped += 1,
            }
        }
    }
    out.flush()
        .map_err(FileError::on(FileAction::Write, &options.out))?;
    Ok(summary)
}

/// Labels `inputs` with one engine; `None` for a position it gave no
/// score for.
fn label_chunk(
    options: &Options,
    inputs: &[Input],
    done: &AtomicU64,
) -> Result<Vec<Option<String>>, LabelError> {
    let mut engine = UciClient::start(&options.engine, options.hash_mib)?;
    let mut labelled = Vec::with_capacity(inputs.len());
    for input in inputs {
        let reply = engine.search(
            &format!("position fen {}", input.fen),
            &format!("go depth {}", options.depth),
        )?;
        let label = reply.score.map(|score| {
            let white = if input.white_to_move { score } else { -score };
            format!("{} | {} | {white}", input.fen, input.result)
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

    fn parse(text: &str) -> Result<Options, ArgError> {
        Options::parse(args(text)).map(|parsed| parsed.run().expect("not a help request"))
    }

    #[test]
    fn options_parse_and_reject() {
        let o = parse("--data a --out b --engine sf --depth 8 --threads 2").expect("valid");
        assert_eq!((o.depth, o.threads, o.hash_mib), (8, 2, 16));
        let o = parse("--data=a --out=b --engine=sf --depth=0xa --hash 0x40").expect("valid");
        assert_eq!((o.data.as_str(), o.depth, o.hash_mib), ("a", 10, 64));
        assert_eq!(Options::parse(args("-h --data a")), Ok(Parsed::Help));
        assert_eq!(
            parse("--out b --engine sf"),
            Err(ArgError::Missing("--data <file>"))
        );
        assert_eq!(
            parse("--data a --engine sf"),
            Err(ArgError::Missing("--out <file>"))
        );
        assert_eq!(
            parse("--data a --out b"),
            Err(ArgError::Missing("--engine <path>"))
        );
        assert!(parse("--data a --out b --engine sf --depth 0").is_err());
        assert!(parse("--data a --out b --engine sf --depth").is_err());
        assert_eq!(
            parse("--data a --out b --engine sf --x 1"),
            Err(ArgError::UnknownOption("--x".into()))
        );
    }

    #[test]
    fn usage_states_the_defaults() {
        use crate::tune::options::documented_default as default;
        let o = parse("--data a --out b --engine sf").unwrap();
        assert_eq!(default(USAGE, "--depth"), Some(&*o.depth.to_string()));
        assert_eq!(default(USAGE, "--threads"), Some(&*o.threads.to_string()));
        assert_eq!(default(USAGE, "--hash"), Some(&*o.hash_mib.to_string()));
    }
}
