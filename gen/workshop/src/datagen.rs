//! `kiln-workshop datagen`: self-play games, written whole to a game file
//! ([`kiln_format::game`]) for the network trainer and the Texel tuner.
//!
//! How the field makes its data, and so how this does:
//! - each game starts from an opening (the start position, a line of an
//!   EPD file, or a double Fischer random position) and a few random legal
//!   plies, checked by a short search (module `opening`);
//! - each move is searched by one thread with a soft and a hard node limit,
//!   the network evaluating by default, and every ply is stored with its
//!   score; games end by the rules, by adjudication on the scores, or by
//!   the Syzygy tables (module `play`);
//! - game `n` of a seed is the same game whoever plays it: its random
//!   choices come from a generator seeded by the seed and `n`, and its
//!   searcher is its own. Threads play games in parallel and the file
//!   receives them in game order (module `shard`), so a killed run
//!   resumes from its count of whole games and ends with the bytes one
//!   uninterrupted run writes, and different seeds are disjoint shards to
//!   merge.
//!
//! With `--opponent <engine>` Kiln plays another UCI engine instead of
//! itself; those games reach the positions a stronger engine steers Kiln
//! into, the ones Kiln misjudges.
//!
//! The options and what they do are in [`USAGE`].

mod opening;
mod options;
mod play;
mod shard;

use std::fmt;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::progress::Progress;
use super::uci_client::UciClientError;
use kiln::opening::BookLineError;
use kiln::syzygy::Tablebases;
use kiln_board::UciMoveError;
use kiln_format::FileError;
use kiln_format::game::GameFileError;
use opening::Openings;
use play::Setup;
use shard::{Shard, lock_output, open_output, worker};

pub use options::{HARD_NODES_FACTOR, Options, USAGE};

/// Why `kiln-workshop datagen` stopped.
#[derive(Debug)]
pub enum DatagenError {
    /// The openings or the output file could not be read or written.
    File(FileError),
    /// The output file could not be read or continued: corrupt games, or
    /// the system would not read or write it.
    Output(GameFileError),
    /// The output file holds something other than this seed's games.
    NotResumable {
        /// The file.
        path: String,
        /// What it holds instead.
        detail: String,
    },
    /// A line of the openings file is not an opening (read as `genfens`
    /// reads a book line: EPD or FEN, a legal position with a legal move).
    Opening {
        /// The openings file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the line.
        error: BookLineError,
    },
    /// The openings file holds no position (only blank or `#` lines).
    NoOpenings {
        /// The openings file.
        path: String,
    },
    /// No start for a game passed the verification search.
    NoStart {
        /// The game's number.
        game: u64,
        /// Starts tried.
        tries: u32,
        /// The score limit they failed (`--max-opening-score`).
        max_score: i32,
    },
    /// `--syzygy` names no tables that could be loaded.
    Tablebases {
        /// The path given.
        path: String,
        /// What the loader said.
        messages: Vec<String>,
    },
    /// The opponent engine could not be started or stopped answering.
    Opponent(UciClientError),
    /// The opponent ended a search without a move.
    OpponentNoMove {
        /// The position it was asked to move in.
        fen: String,
    },
    /// The opponent sent a move that is not legal in the position.
    OpponentMove {
        /// The move as sent.
        text: String,
        /// The position it was sent in.
        fen: String,
        /// Why it is not a legal move there.
        error: UciMoveError,
    },
    /// A thread playing games panicked (a bug in Kiln).
    WorkerPanicked,
    /// Another run holds the output file.
    Busy {
        /// The file.
        path: String,
    },
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::File(error) => error.fmt(f),
            DatagenError::Output(error) => error.fmt(f),
            DatagenError::NotResumable { path, detail } => write!(
                f,
                "cannot continue '{path}': {detail} (--overwrite starts it anew)"
            ),
            DatagenError::Opening { path, line, error } => {
                write!(f, "{path}:{line}: bad opening: {error}")
            }
            DatagenError::NoOpenings { path } => write!(
                f,
                "'{path}' holds no positions (expected one FEN or EPD line each)"
            ),
            DatagenError::NoStart {
                game,
                tries,
                max_score,
            } => write!(
                f,
                "game {game}: none of {tries} starts scored within {max_score} cp \
                 (--max-opening-score) with a legal move"
            ),
            DatagenError::Tablebases { path, messages } => {
                write!(f, "no Syzygy tables loaded from '{path}'")?;
                if !messages.is_empty() {
                    write!(f, ": {}", messages.join("; "))?;
                }
                Ok(())
            }
            DatagenError::Opponent(error) => write!(f, "the opponent: {error}"),
            DatagenError::OpponentNoMove { fen } => {
                write!(f, "the opponent sent no move in {fen}")
            }
            DatagenError::OpponentMove { text, fen, error } => {
                write!(f, "the opponent's move '{text}' in {fen}: {error}")
            }
            DatagenError::WorkerPanicked => f.write_str("a datagen thread panicked"),
            DatagenError::Busy { path } => write!(
                f,
                "another datagen is writing '{path}' (two runs on one file would \
                 write over each other's games)"
            ),
        }
    }
}

impl std::error::Error for DatagenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatagenError::File(error) => Some(error),
            DatagenError::Output(error) => Some(error),
            DatagenError::Opening { error, .. } => Some(error),
            DatagenError::Opponent(error) => Some(error),
            DatagenError::OpponentMove { error, .. } => Some(error),
            DatagenError::NotResumable { .. }
            | DatagenError::NoOpenings { .. }
            | DatagenError::NoStart { .. }
            | DatagenError::Tablebases { .. }
            | DatagenError::OpponentNoMove { .. }
            | DatagenError::WorkerPanicked
            | DatagenError::Busy { .. } => None,
        }
    }
}

impl From<FileError> for DatagenError {
    fn from(error: FileError) -> Self {
        DatagenError::File(error)
    }
}

impl From<UciClientError> for DatagenError {
    fn from(error: UciClientError) -> Self {
        DatagenError::Opponent(error)
    }
}

/// Loads the Syzygy tables of `--syzygy`, telling stderr what was found.
fn load_tablebases(path: &str) -> Result<Tablebases, DatagenError> {
    let loaded = Tablebases::load(path);
    match loaded.tables {
        Some(tables) => {
            for message in &loaded.messages {
                eprintln!("datagen: {message}");
            }
            Ok(tables)
        }
        None => Err(DatagenError::Tablebases {
            path: path.to_string(),
            messages: loaded.messages,
        }),
    }
}

/// Runs `kiln-workshop datagen`; progress goes to stderr. Returns the
/// number of positions the file holds (those of earlier runs included).
///
/// # Errors
/// A [`DatagenError`]: the openings, the tables or the output cannot be
/// read or written, the output holds another shard, no start passes the
/// verification, or the opponent fails.
pub fn run(options: &Options) -> Result<u64, DatagenError> {
    let openings = Openings::from_options(options.openings.as_deref(), options.dfrc)?;
    let tablebases = match &options.syzygy {
        Some(path) => Some(load_tablebases(path)?),
        None => None,
    };
    let _lock = lock_output(options)?;
    let (writer, held) = open_output(options)?;
    let shard = Shard::new(writer, held, options);
    let setup = Setup {
        options,
        openings: &openings,
        tablebases: tablebases.as_ref(),
        abort: &shard.abort,
    };

    // Progress in positions when that is the target, else in games; what
    // the file held before counts towards the target but not the rate.
    let (unit, total, before) = match (options.positions, options.games) {
        (Some(p), _) => ("positions", Some(p), held.positions),
        (None, g) => ("games", g, held.games),
    };
    // A file that holds the target already is left as it is: no progress
    // line to show (it would read "454721/1 games (45472100.0 %)").
    let done_before = total.is_some_and(|total| before >= total);
    if done_before {
        eprintln!(
            "datagen: '{}' holds {before} {unit} already, no fewer than the {} asked for: \
             nothing to play",
            options.out,
            total.unwrap_or(before)
        );
    }
    let mut progress = (!done_before).then(|| {
        let mut progress = Progress::new("datagen", unit, total);
        progress.resume_from(before);
        progress
    });
    let report = |progress: &mut Option<Progress>| {
        let Some(progress) = progress else {
            return;
        };
        let games = shard.games.load(Ordering::Relaxed);
        let positions = shard.positions.load(Ordering::Relaxed);
        let (done, mut message) = match options.positions {
            Some(_) => (positions, format!("{games} games")),
            None => (games, format!("{positions} positions")),
        };
        let played = shard.opponent_games.load(Ordering::Relaxed);
        if played > 0 {
            let half_points = shard.kiln_half_points.load(Ordering::Relaxed);
            let share = 50.0 * half_points as f64 / played as f64;
            message.push_str(&format!(", Kiln scored {share:.1} %"));
        }
        progress.update(done, &message);
    };

    let panicked = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..options.threads)
            .map(|_| scope.spawn(|| worker(&shard, &setup)))
            .collect();
        while handles.iter().any(|h| !h.is_finished()) {
            std::thread::sleep(Duration::from_millis(200));
            report(&mut progress);
        }
        // Joined here, so a panic is an error rather than the scope's.
        handles.into_iter().any(|h| h.join().is_err())
    });
    report(&mut progress);
    if let Some(progress) = &mut progress {
        progress.finish();
    }
    if panicked {
        return Err(DatagenError::WorkerPanicked);
    }
    shard.finish()
}
