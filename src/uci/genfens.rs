//! `genfens`: opening positions for OpenBench's data-generation workloads.
//!
//! OpenBench's client runs `kiln "genfens N seed S book <None|file> <extra>"
//! quit` on every machine of a workload and reads the `N` lines `info string
//! genfens <fen>`; the games of the workload start from those positions.
//! An opening is drawn so:
//!
//! 1. the start: without a book, the start position; with one, a line of
//!    the book drawn at random;
//! 2. random legal plies: [`RANDOM_PLIES`] plus 0 or 1 from the start
//!    position (8 or 9, as other engines of the field do), or
//!    [`BOOK_PLIES`] plus 0 to 2 (2 to 4) from a book line;
//! 3. the position is rejected, and another drawn, when the side to move
//!    has no legal move (mated or stalemated), when it was drawn before
//!    (the `N` openings are distinct by their first four FEN fields), or
//!    when a short search of [`VERIFY_NODES`] nodes on one thread with a
//!    [`VERIFY_HASH_MIB`] MiB table scores it beyond [`MAX_SCORE`]
//!    centipawns for either side (a game from a lost position teaches
//!    little).
//!
//! Everything is drawn from one [`Rng`] seeded with the whole 64-bit seed,
//! and every verifying search starts from an empty table and the default
//! evaluation, so the same count, seed and book give the same openings
//! whatever the engine's options. Each opening costs a few milliseconds,
//! far inside the 15 seconds OpenBench waits for the next one.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::command::GenfensParams;
use crate::eval::score::Score;
use crate::opening::{book_line, book_lines, play_random_plies};
use crate::rng::Rng;
use crate::search::limits::Limits;
use crate::search::{SearchShared, Searcher};
use kiln_board::Board;
use kiln_board::has_legal_move;

/// Random plies played from the start position: this many, plus 0 or 1.
pub const RANDOM_PLIES: u32 = 8;

/// Random plies played from a book line: this many, plus 0 to 2.
pub const BOOK_PLIES: u32 = 2;

/// Nodes of the search that checks an opening is balanced: a few
/// milliseconds, deep enough (depth 6 to 9 from an opening) to see a
/// piece hanging.
pub const VERIFY_NODES: u64 = 5_000;

/// Size of the verifying search's transposition table, in MiB: small, as
/// the search is, so that emptying it before each opening costs nothing.
pub const VERIFY_HASH_MIB: u64 = 1;

/// Openings the verifying search scores beyond this many centipawns, for
/// either side, are rejected (the field rejects beyond 500 to 1000; a book
/// such as UHO, whose openings are about +1.0 to +1.5, stays inside).
pub const MAX_SCORE: Score = 1000;

/// Candidates drawn per opening asked for (plus [`SPARE_ATTEMPTS`]) before
/// `genfens` gives up: a book too small to give `N` distinct openings ends
/// with an error instead of a loop that never ends.
pub const ATTEMPTS_PER_OPENING: u64 = 100;

/// Candidates drawn beyond `ATTEMPTS_PER_OPENING × N`.
pub const SPARE_ATTEMPTS: u64 = 1_000;

/// Book lines whose problem is told one by one; past these, a count.
const WARNED_LINES: usize = 5;

/// Why `genfens` could not make all its openings.
#[derive(Debug)]
pub enum GenfensError {
    /// The book could not be read.
    Book {
        /// The file as given.
        path: String,
        /// What the system said.
        error: std::io::Error,
    },
    /// The book holds no usable position.
    EmptyBook {
        /// The file as given.
        path: String,
    },
    /// Too many candidates were rejected (a small book, or one of lost
    /// positions).
    Exhausted {
        /// Openings printed.
        made: u64,
        /// Openings asked for.
        wanted: u64,
    },
    /// `stop` (or `quit`'s abandon) ended the run early.
    Stopped {
        /// Openings printed.
        made: u64,
        /// Openings asked for.
        wanted: u64,
    },
}

// The messages never start with `genfens `: OpenBench takes every line that
// starts with `info string genfens ` for an opening.
impl fmt::Display for GenfensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Book { path, error } => write!(f, "cannot read book '{path}': {error}"),
            Self::EmptyBook { path } => write!(f, "book '{path}' holds no usable position"),
            Self::Exhausted { made, wanted } => write!(
                f,
                "only {made} of {wanted} distinct balanced openings found; \
                 the book is too small or its positions too lopsided"
            ),
            Self::Stopped { made, wanted } => {
                write!(f, "stopped: {made} of {wanted} openings made")
            }
        }
    }
}

impl std::error::Error for GenfensError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Book { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Makes `params.count` openings, passing each FEN to `emit` as soon as it
/// is found; problems with book lines (skipped) go to `warn`. Checks `stop`
/// between candidates. Returns the number of openings made.
///
/// # Errors
/// A [`GenfensError`] when the book cannot be read or is empty (nothing is
/// emitted), or when fewer than `params.count` openings were made.
pub fn generate(
    params: &GenfensParams,
    stop: &AtomicBool,
    emit: &mut dyn FnMut(&str),
    warn: &mut dyn FnMut(&str),
) -> Result<u64, GenfensError> {
    let (starts, plies) = match &params.book {
        None => (
            vec![Board::startpos().to_fen()],
            RANDOM_PLIES..=RANDOM_PLIES + 1,
        ),
        Some(path) => (load_book(path, warn)?, BOOK_PLIES..=BOOK_PLIES + 2),
    };
    let mut rng = Rng::new(params.seed);
    let mut searcher = Searcher::new(VERIFY_HASH_MIB);
    let limits = Limits {
        nodes: Some(VERIFY_NODES),
        ..Limits::default()
    };
    let mut seen = HashSet::new();
    let mut made = 0;
    let mut attempts = params
        .count
        .saturating_mul(ATTEMPTS_PER_OPENING)
        .saturating_add(SPARE_ATTEMPTS);
    while made < params.count {
        if stop.load(Ordering::Relaxed) {
            return Err(GenfensError::Stopped {
                made,
                wanted: params.count,
            });
        }
        if attempts == 0 {
            return Err(GenfensError::Exhausted {
                made,
                wanted: params.count,
            });
        }
        attempts -= 1;
        let start = &starts[rng.index(starts.len())];
        let extra = u64::from(plies.end() - plies.start()) + 1;
        let count = plies.start() + rng.below(extra) as u32;
        let Some(fen) = random_plies(start, count, &mut rng) else {
            continue;
        };
        // Distinct as positions: the move counters do not count.
        if !seen.insert(epd_fields(&fen).to_string()) {
            continue;
        }
        // The FEN is checked as OpenBench's match runner will read it: a
        // fresh board, with no history to call a position repeated.
        let Ok(mut board) = Board::from_fen(&fen) else {
            continue;
        };
        if !has_legal_move(&board) {
            continue;
        }
        searcher.new_game();
        let result = searcher.search(
            &mut board,
            &limits,
            0,
            Arc::new(SearchShared::default()),
            &mut |_| {},
        );
        if result.score.abs() > MAX_SCORE {
            continue;
        }
        emit(&fen);
        made += 1;
    }
    Ok(made)
}

/// The FEN after `plies` random legal moves from `start`, or `None` when a
/// side runs out of moves on the way.
fn random_plies(start: &str, plies: u32, rng: &mut Rng) -> Option<String> {
    let mut board = Board::from_fen(start).ok()?;
    play_random_plies(&mut board, plies, rng).then(|| board.to_fen())
}

/// The first four fields of a FEN (placement, side, castling, en passant).
fn epd_fields(fen: &str) -> &str {
    match fen.match_indices(' ').nth(3) {
        Some((at, _)) => &fen[..at],
        None => fen,
    }
}

/// The positions of the book at `path`, as FENs; see [`parse_book`].
fn load_book(path: &str, warn: &mut dyn FnMut(&str)) -> Result<Vec<String>, GenfensError> {
    let bytes = std::fs::read(Path::new(path)).map_err(|error| GenfensError::Book {
        path: path.to_string(),
        error,
    })?;
    let starts = parse_book(path, &String::from_utf8_lossy(&bytes), warn);
    if starts.is_empty() {
        return Err(GenfensError::EmptyBook {
            path: path.to_string(),
        });
    }
    Ok(starts)
}

/// The positions of a book's text, as FENs, each line read by
/// [`book_line`]. Blank lines and `#` comments are skipped silently; a line
/// that is not a legal position, or whose side to move has no legal move,
/// is skipped with a warning (one per line for the first few, then a
/// count).
pub fn parse_book(name: &str, text: &str, warn: &mut dyn FnMut(&str)) -> Vec<String> {
    let mut starts = Vec::new();
    let mut skipped = 0;
    for (number, line) in book_lines(text) {
        match book_line(line) {
            Ok(board) => starts.push(board.to_fen()),
            Err(reason) => {
                skipped += 1;
                if skipped <= WARNED_LINES {
                    let shown: String = line.chars().take(80).collect();
                    warn(&format!(
                        "book {name} line {number}: {reason}; skipped: {shown}"
                    ));
                }
            }
        }
    }
    if skipped > WARNED_LINES {
        warn(&format!("book {name}: {skipped} lines skipped in all"));
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn openings(count: u64, seed: u64, book: Option<&str>) -> Result<Vec<String>, GenfensError> {
        let params = GenfensParams {
            count,
            seed,
            book: book.map(str::to_string),
            extra: Vec::new(),
        };
        let mut fens = Vec::new();
        let stop = AtomicBool::new(false);
        generate(
            &params,
            &stop,
            &mut |fen| fens.push(fen.to_string()),
            &mut |w| panic!("unexpected warning: {w}"),
        )?;
        Ok(fens)
    }

    #[test]
    fn openings_are_legal_distinct_balanced_and_repeatable() {
        let fens = openings(12, 1_234_567_890_123, None).unwrap();
        assert_eq!(fens.len(), 12);
        let distinct: HashSet<&str> = fens.iter().map(|f| epd_fields(f)).collect();
        assert_eq!(distinct.len(), 12, "{fens:?}");
        for fen in &fens {
            let board = Board::from_fen(fen).unwrap();
            assert!(has_legal_move(&board), "{fen}");
            // 8 or 9 plies from the start: White or Black to move at move 5.
            assert_eq!(board.fullmove_number(), 5, "{fen}");
        }
        assert_eq!(openings(12, 1_234_567_890_123, None).unwrap(), fens);
        assert_ne!(openings(12, 1_234_567_890_124, None).unwrap(), fens);
        assert_ne!(openings(12, u64::MAX, None).unwrap(), fens);
    }

    #[test]
    fn zero_openings_is_nothing_and_stop_ends_the_run() {
        assert_eq!(openings(0, 5, None).unwrap(), Vec::<String>::new());
        let params = GenfensParams {
            count: 3,
            ..GenfensParams::default()
        };
        let result = generate(&params, &AtomicBool::new(true), &mut |_| {}, &mut |_| {});
        assert!(matches!(
            result,
            Err(GenfensError::Stopped { made: 0, wanted: 3 })
        ));
    }

    #[test]
    fn book_lines_are_epd_or_fen_and_bad_ones_are_told() {
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;

r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
not a position
7k/5QQ1/8/8/8/8/8/K7 b - - 0 1
8/8/8/8 w";
        let mut warnings = Vec::new();
        let starts = parse_book("b.epd", text, &mut |w| warnings.push(w.to_string()));
        assert_eq!(
            starts,
            [
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            ]
        );
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(
            warnings[0].starts_with("book b.epd line 5: "),
            "{warnings:?}"
        );
        assert!(warnings[1].contains("no legal move"), "{warnings:?}");
        assert!(warnings.iter().all(|w| !w.starts_with("genfens ")));
        let many = "x\n".repeat(WARNED_LINES + 3);
        let mut warnings = Vec::new();
        assert!(parse_book("m", &many, &mut |w| warnings.push(w.to_string())).is_empty());
        assert_eq!(warnings.len(), WARNED_LINES + 1);
        assert_eq!(
            warnings.last().map(String::as_str),
            Some(&*format!(
                "book m: {} lines skipped in all",
                WARNED_LINES + 3
            ))
        );
    }

    #[test]
    fn a_small_book_runs_out_instead_of_looping() {
        let dir = std::env::temp_dir().join(format!("kiln-genfens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let book = dir.join("kings.epd");
        // Bare kings: a few hundred positions within four plies.
        std::fs::write(&book, "8/8/8/3k4/8/3K4/8/8 w - -\n").unwrap();
        let result = openings(5_000, 3, book.to_str());
        assert!(
            matches!(result, Err(GenfensError::Exhausted { wanted: 5_000, .. })),
            "{result:?}"
        );
        let missing = dir.join("missing.epd");
        assert!(matches!(
            openings(1, 3, missing.to_str()),
            Err(GenfensError::Book { .. })
        ));
        std::fs::write(&book, "# nothing\n").unwrap();
        assert!(matches!(
            openings(1, 3, book.to_str()),
            Err(GenfensError::EmptyBook { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
