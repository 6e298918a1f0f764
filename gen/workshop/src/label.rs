//! `kiln-workshop label`: re-scores training positions with another UCI engine.
//!
//! `kiln-workshop datagen` labels each position with the result of a fast self-play
//! game, a noisy signal: one game says little about one position, so the
//! tuner needs millions of them. A stronger engine's search score is a far
//! less noisy label. This command reads `datagen` output (binary records or
//! text lines), asks a UCI engine (for instance Stockfish) for a fixed-depth
//! search of each position, and writes text lines whose score is that engine's
//! score (centipawns, White's view; mates as ±[`MATE_LABEL`]). The game
//! result is kept, so `kiln-workshop tune --lambda` can blend the two.
//!
//! One engine process per thread takes small batches of positions in turn;
//! finished batches are written as soon as every batch before them is, in
//! the input's order. Each batch starts from a cleared hash (`ucinewgame`),
//! so the output does not depend on the thread count or on timing (beyond
//! the engine's own determinism at a fixed depth), and a run that is
//! stopped keeps what it wrote. Every input position gives exactly one
//! output line (a `#` comment where the engine gave no score), so
//! `--append` knows from the output's whole lines where to go on.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::progress::Progress;
pub use super::uci_client::MATE_LABEL;
use super::uci_client::{UciClient, UciClientError};
use crate::positions::{self, DataError};
use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln::protocol::options::hash_mib;
use kiln_board::Color;
use kiln_format::{FileAction, FileError};

/// Usage text of `kiln-workshop label`.
pub const USAGE: &str = "\
usage: kiln-workshop label --data <file> --out <file> --engine <path> [options]

Re-scores training positions (`kiln-workshop datagen` output) with a fixed-depth
search of another UCI engine: the output is `<fen> | <result> | <score>`
lines with that engine's score (centipawns, White's view); the game result
is kept.

  --data <file>            input: a game file (through the default load
                           filter, as `kiln-workshop train` reads it), a file
                           of positions, or text lines
  --out <file>             output file (created or truncated)
  --engine <path>          the UCI engine's executable
  --depth <n>              search depth per position (default 6)
  --threads <n>            engine processes run at once (default 1)
  --hash <MiB>             hash per engine process (default 16)
  --append                 continue an output cut short: skip as many
                           positions as it has whole lines (a last line
                           cut short is removed), add the rest
  -h, --help               this help

Whole numbers are decimal or 0x hex; options also take --option=value.";

/// What to label; see [`USAGE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Input: `datagen` lines (`<fen> | <result> | <score>`).
    pub data: String,
    /// Output file (created or truncated, or continued with `append`).
    pub out: String,
    /// The UCI engine's executable.
    pub engine: String,
    /// Search depth per position.
    pub depth: u64,
    /// Engine processes run at once.
    pub threads: usize,
    /// Hash per engine process in MiB.
    pub hash_mib: u64,
    /// Continue an existing output instead of starting it again.
    pub append: bool,
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
            append: false,
        };
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--data" => data = Some(args.value(flag)?),
                "--out" => out = Some(args.value(flag)?),
                "--engine" => engine = Some(args.value(flag)?),
                "--depth" => options.depth = args.number(flag, 1, 64)?,
                "--threads" => options.threads = args.number(flag, 1, 256)? as usize,
                "--append" => options.append = true,
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
/// lines or FENs, left out; positions the engine returned no score for,
/// written as `#` comments).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Lines written with the engine's score by this run.
    pub labelled: u64,
    /// Lines skipped by this run.
    pub skipped: u64,
    /// Positions an earlier run had already written (`--append`).
    pub resumed: u64,
    /// Bytes of a last line without its newline that `--append` found
    /// (a run killed while writing it) and removed: that position is
    /// labelled again.
    pub cut_bytes_removed: u64,
}

/// Why `kiln-workshop label` stopped.
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

/// Positions a labelling thread takes at a time: small, so that little is
/// lost when a run is stopped and the threads finish close together.
const BATCH: usize = 256;

/// A finished batch as a labelling thread sends it: the batch's index and
/// its lines (`None` for a position the engine gave no score for), or the
/// error that stopped the thread.
type LabelledBatch = (usize, Result<Vec<Option<String>>, LabelError>);

/// Runs `kiln-workshop label`; progress goes to stderr.
pub fn run(options: &Options) -> Result<Summary, LabelError> {
    // Binary records and text lines alike, through the one reader of
    // training data; what it cannot read is counted as skipped.
    let mut inputs = Vec::new();
    let unreadable = positions::read_positions(&options.data, |position| {
        inputs.push(Input {
            fen: position.board.to_fen(),
            white_to_move: position.board.side_to_move() == Color::White,
            result: ["0.0", "0.5", "1.0"][(position.result * 2.0).round() as usize % 3],
        });
        true
    })
    .map_err(LabelError::Data)?;
    let whole = if options.append {
        whole_lines(&options.out)?
    } else {
        WholeLines::default()
    };
    let resumed = whole.lines.min(inputs.len() as u64);
    let file = OpenOptions::new()
        .create(true)
        .write(true)
        .append(options.append)
        .truncate(!options.append)
        .open(&options.out)
        .map_err(FileError::on(FileAction::Create, &options.out))?;
    // A cut last line would run into the first new one: both positions
    // would be lost in one malformed line.
    let cut_bytes_removed = whole.cut_bytes;
    if cut_bytes_removed > 0 {
        file.set_len(whole.bytes)
            .map_err(FileError::on(FileAction::Write, &options.out))?;
    }
    let mut out = BufWriter::new(file);
    let todo = &inputs[resumed as usize..];
    let mut summary = Summary {
        labelled: 0,
        skipped: unreadable,
        resumed,
        cut_bytes_removed,
    };
    let mut progress = Progress::new("label", "positions", Some(inputs.len() as u64));
    progress.resume_from(resumed);
    let next_batch = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<LabelledBatch>();
    let written = std::thread::scope(|scope| {
        let threads = options.threads.min(todo.len().div_ceil(BATCH)).max(1);
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let sender = sender.clone();
                let next_batch = &next_batch;
                scope.spawn(move || label_batches(options, todo, next_batch, &sender))
            })
            .collect();
        // Only the workers hold senders now: the receiving ends when the
        // last of them is done (or when writing fails, which drops the
        // receiver and so stops the workers at their next batch).
        drop(sender);
        let written = write_in_order(options, todo, receiver, &mut out, &mut summary, |done| {
            progress.update(resumed + done, "");
        });
        // Joined by hand, a panicked worker is an error rather than a panic
        // of the whole scope.
        let panicked = workers.into_iter().any(|worker| worker.join().is_err());
        match written {
            Ok(()) if panicked => Err(LabelError::WorkerPanicked),
            other => other,
        }
    });
    progress.finish();
    written?;
    Ok(summary)
}

/// Writes the batches `receiver` brings, each once all before it are
/// written, and reports the positions written so far to `done`.
fn write_in_order(
    options: &Options,
    todo: &[Input],
    receiver: mpsc::Receiver<LabelledBatch>,
    out: &mut impl Write,
    summary: &mut Summary,
    mut done: impl FnMut(u64),
) -> Result<(), LabelError> {
    let mut pending = BTreeMap::new();
    let mut next_to_write = 0;
    for (index, batch) in receiver {
        pending.insert(index, batch);
        while let Some(batch) = pending.remove(&next_to_write) {
            for (offset, line) in batch?.into_iter().enumerate() {
                let text = match line {
                    Some(line) => {
                        summary.labelled += 1;
                        line
                    }
                    None => {
                        summary.skipped += 1;
                        let input = &todo[next_to_write * BATCH + offset];
                        format!("# no score: {}", input.fen)
                    }
                };
                writeln!(out, "{text}").map_err(FileError::on(FileAction::Write, &options.out))?;
            }
            out.flush()
                .map_err(FileError::on(FileAction::Write, &options.out))?;
            next_to_write += 1;
            done((next_to_write * BATCH).min(todo.len()) as u64);
        }
    }
    // A worker that panicked sent nothing for its batch, so the batches
    // stop short; `run` learns of it when it joins the workers.
    Ok(())
}

/// What an output file to append to holds: its whole lines (each ended by
/// a newline), and what follows the last of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WholeLines {
    /// The whole lines.
    lines: u64,
    /// The bytes they take, from the start of the file.
    bytes: u64,
    /// The bytes after them: a line cut short by a killed run.
    cut_bytes: u64,
}

/// The whole lines of `path` (none if it does not exist).
fn whole_lines(path: &str) -> Result<WholeLines, LabelError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(WholeLines::default());
        }
        Err(error) => return Err(FileError::on(FileAction::Open, path)(error).into()),
    };
    let mut reader = BufReader::new(file);
    let (mut whole, mut read) = (WholeLines::default(), 0u64);
    loop {
        let buffer = reader
            .fill_buf()
            .map_err(FileError::on(FileAction::Read, path))?;
        if buffer.is_empty() {
            break;
        }
        for (at, _) in buffer
            .iter()
            .enumerate()
            .filter(|&(_, &byte)| byte == b'\n')
        {
            whole.lines += 1;
            whole.bytes = read + at as u64 + 1;
        }
        let length = buffer.len();
        read += length as u64;
        reader.consume(length);
    }
    whole.cut_bytes = read - whole.bytes;
    Ok(whole)
}

/// Labels batches of `inputs` with one engine, taking the next unclaimed
/// batch each time, and sends each batch's lines (`None` for a position it
/// gave no score for) with the batch's index; an error ends the thread
/// after it is sent.
fn label_batches(
    options: &Options,
    inputs: &[Input],
    next_batch: &AtomicUsize,
    sender: &mpsc::Sender<LabelledBatch>,
) {
    let mut engine = match UciClient::start(&options.engine, options.hash_mib) {
        Ok(engine) => engine,
        Err(error) => {
            let index = next_batch.fetch_add(1, Ordering::Relaxed);
            let _ = sender.send((index, Err(error.into())));
            return;
        }
    };
    loop {
        let index = next_batch.fetch_add(1, Ordering::Relaxed);
        let start = index.saturating_mul(BATCH);
        if start >= inputs.len() {
            return;
        }
        let batch = &inputs[start..(start + BATCH).min(inputs.len())];
        // Each batch starts from a cleared hash, so its scores do not depend
        // on which engine process, or which batches before it, searched
        // before: the output is the same for any thread count.
        if let Err(error) = engine.new_game() {
            let _ = sender.send((index, Err(error.into())));
            return;
        }
        let labelled = batch
            .iter()
            .map(|input| label_one(options, &mut engine, input))
            .collect::<Result<Vec<_>, _>>();
        let failed = labelled.is_err();
        if sender.send((index, labelled)).is_err() || failed {
            return;
        }
    }
}

/// One position's output line, or `None` when the engine gave no score.
fn label_one(
    options: &Options,
    engine: &mut UciClient,
    input: &Input,
) -> Result<Option<String>, LabelError> {
    let reply = engine.search(
        &format!("position fen {}", input.fen),
        &format!("go depth {}", options.depth),
    )?;
    Ok(reply.score.map(|score| {
        let white = if input.white_to_move { score } else { -score };
        format!("{} | {} | {white}", input.fen, input.result)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::split_args as args;

    fn parse(text: &str) -> Result<Options, ArgError> {
        Options::parse(args(text)).map(|parsed| parsed.run().expect("not a help request"))
    }

    #[test]
    fn options_parse_and_reject() {
        let o = parse("--data a --out b --engine sf --depth 8 --threads 2").expect("valid");
        assert_eq!((o.depth, o.threads, o.hash_mib), (8, 2, 16));
        let o = parse("--data=a --out=b --engine=sf --depth=0xa --hash 0x40").expect("valid");
        assert_eq!((o.data.as_str(), o.depth, o.hash_mib), ("a", 10, 64));
        assert!(!o.append);
        assert!(
            parse("--data a --out b --engine sf --append")
                .expect("valid")
                .append
        );
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
        use kiln::cli::documented_default as default;
        let o = parse("--data a --out b --engine sf").unwrap();
        assert_eq!(default(USAGE, "--depth"), Some(&*o.depth.to_string()));
        assert_eq!(default(USAGE, "--threads"), Some(&*o.threads.to_string()));
        assert_eq!(default(USAGE, "--hash"), Some(&*o.hash_mib.to_string()));
    }
}
