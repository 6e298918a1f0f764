//! `kiln-workshop datagen`: self-play games at a small fixed node count, writing
//! quiet positions labelled with the game's result for the Texel tuner.
//!
//! Each game starts from an opening (a line of an EPD file, or the start
//! position) plus a few random legal plies, all chosen by a generator seeded
//! from `--seed` and the game's number, so game `n` is the same game whatever
//! the number of threads. Games end by the rules (mate, stalemate, fifty
//! moves, threefold repetition, insufficient material) or by adjudication
//! (both sides' scores agreeing on a decisive or a dead-drawn position for
//! several plies), which saves most of the time long games would take.
//!
//! With `--opponent <engine>` Kiln plays another UCI engine instead of
//! itself (Kiln has White in even-numbered games, Black in odd ones; the
//! opponent searches `--opponent-nodes` nodes per move). Those games reach
//! the positions a stronger engine steers Kiln into, the ones Kiln
//! misjudges; both sides' positions are written, scored by whichever
//! engine moved (re-score them all with `kiln-workshop label` before tuning).
//!
//! Output: each kept position with the game's result and the score of the
//! search that chose the move there (Kiln's own score, centipawns, White's
//! view), in the binary format of [`kiln_format::record`] (32 bytes a
//! position, an end-of-game marker after each game), or with `--text` one
//! `<fen> | <result> | <score>` line each, the result White's (`1.0`,
//! `0.5`, `0.0`). Only quiet positions are kept: not in check, the chosen
//! move neither a capture nor a promotion, no mate score, and not among the
//! first plies of the game.
//!
//! `--append` continues a binary file of the same seed: the games it holds
//! are not played again, and a game cut short at its end is dropped and
//! replayed, so an interrupted run resumed with the same command line ends
//! with the same games as one that was never interrupted.

use std::ffi::OsString;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::progress::Progress;
use super::uci_client::{MATE_LABEL, UciClient, UciClientError};
use crate::positions::{self, DataError, Existing, GameResult, NotStandardCastling, RECORD_BYTES};
use kiln::board::{Board, Color, FenError, STARTPOS};
use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln::eval::Evaluation;
use kiln::eval::score::{MATE_BOUND, Score};
use kiln::movegen::{MoveList, MoveParseError, generate_all, parse_uci_move};
use kiln::protocol::options::hash_mib;
use kiln::rng::Rng;
use kiln::search::limits::Limits;
use kiln::search::{SearchShared, Searcher};
use kiln_format::{FileAction, FileError};

/// Usage text of `kiln-workshop datagen`.
pub const USAGE: &str = "\
usage: kiln-workshop datagen --out <file> (--games <n> | --positions <n>) [options]

Plays self-play games at a fixed node count and writes their quiet
positions with the game's result and Kiln's own search score (centipawns,
White's view): 32-byte binary records (docs/data.md), or with --text one
`<fen> | <result> | <score>` line each (White's result 1.0, 0.5 or 0.0).

  --out <file>             output file (created or truncated)
  --append                 continue a binary file of the same seed: games
                           already in it are not played again
  --text                   write text lines instead of binary records
  --games <n>              stop after n games
  --positions <n>          stop once n positions are written
  --nodes <n>              nodes per move (default 5000)
  --seed <n>               seed of the choice of openings and random plies (default 1)
  --threads <n>            games played at once (default 1)
  --openings <epd>         start from these positions (default: the start position)
  --random-plies <n>       random legal plies after the opening (default 8)
  --hash <MiB>             hash table per thread (default 16)
  --opponent <engine>      play this UCI engine instead of Kiln itself
  --opponent-nodes <n>     the opponent's nodes per move (default 10000)
  --eval <name>            Kiln's static evaluation: classical or nnue (default nnue)
  -h, --help               this help

Whole numbers and seeds are decimal or 0x hex; options also take
--option=value.";

/// What to generate; see [`USAGE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Output file (created or truncated).
    pub out: String,
    /// Stop after this many games (if set).
    pub games: Option<u64>,
    /// Stop once this many positions are written (if set).
    pub positions: Option<u64>,
    /// Nodes per move.
    pub nodes: u64,
    /// Seed of every random choice.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// EPD/FEN file of starting positions (else the start position).
    pub openings: Option<String>,
    /// Random legal plies played from the opening before the game starts.
    pub random_plies: u32,
    /// Transposition table per thread in MiB (the opponent's hash too).
    pub hash_mib: u64,
    /// A UCI engine Kiln plays instead of itself (if set).
    pub opponent: Option<String>,
    /// Write `<fen> | <result> | <score>` lines instead of binary records.
    pub text: bool,
    /// Continue an existing binary file instead of truncating it.
    pub append: bool,
    /// The opponent's nodes per move.
    pub opponent_nodes: u64,
    /// The static evaluation Kiln plays and scores positions with.
    pub evaluation: Evaluation,
}

impl Options {
    /// Parses the arguments after `datagen`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut options = Options {
            out: String::new(),
            games: None,
            positions: None,
            nodes: 5000,
            seed: 1,
            threads: 1,
            openings: None,
            random_plies: 8,
            hash_mib: hash_mib().default,
            opponent: None,
            opponent_nodes: 10_000,
            text: false,
            append: false,
            evaluation: Evaluation::DEFAULT,
        };
        let mut out = None;
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--out" => out = Some(args.value(flag)?),
                "--text" => options.text = true,
                "--append" => options.append = true,
                "--games" => options.games = Some(args.number(flag, 1, u64::MAX)?),
                "--positions" => options.positions = Some(args.number(flag, 1, u64::MAX)?),
                "--nodes" => options.nodes = args.number(flag, 1, 100_000_000)?,
                "--seed" => options.seed = args.number(flag, 0, u64::MAX)?,
                "--threads" => options.threads = args.number(flag, 1, 256)? as usize,
                "--openings" => options.openings = Some(args.value(flag)?),
                "--random-plies" => options.random_plies = args.number(flag, 0, 200)? as u32,
                "--hash" => {
                    let range = hash_mib();
                    options.hash_mib = args.number(flag, range.min, range.max)?;
                }
                "--opponent" => options.opponent = Some(args.value(flag)?),
                "--eval" => options.evaluation = args.evaluation(flag)?,
                "--opponent-nodes" => {
                    options.opponent_nodes = args.number(flag, 1, 100_000_000)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        options.out = out.ok_or(ArgError::Missing("--out <file>"))?;
        if options.games.is_none() && options.positions.is_none() {
            return Err(ArgError::Missing("--games <n> or --positions <n>"));
        }
        if options.text && options.append {
            return Err(ArgError::Conflict("--append", "--text"));
        }
        Ok(Parsed::Run(options))
    }
}

/// Why `kiln-workshop datagen` stopped.
#[derive(Debug)]
pub enum DatagenError {
    /// The openings or the output file could not be read or written.
    File(FileError),
    /// A line of the openings file is not a FEN or EPD position.
    Opening {
        /// The openings file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong with the position.
        error: FenError,
    },
    /// The openings file holds no position (only blank or `#` lines).
    NoOpenings {
        /// The openings file.
        path: String,
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
        error: MoveParseError,
    },
    /// The file to append to is not binary data of this seed and version.
    Append(DataError),
    /// A kept position cannot be stored in the binary format.
    Unstorable {
        /// The position.
        fen: String,
        /// Why.
        error: NotStandardCastling,
    },
    /// A thread playing games panicked (a bug in Kiln).
    WorkerPanicked,
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::File(error) => error.fmt(f),
            DatagenError::Opening { path, line, error } => {
                write!(f, "{path}:{line}: bad position: {error}")
            }
            DatagenError::NoOpenings { path } => write!(
                f,
                "'{path}' holds no positions (expected one FEN or EPD line each)"
            ),
            DatagenError::Opponent(error) => write!(f, "the opponent: {error}"),
            DatagenError::OpponentNoMove { fen } => {
                write!(f, "the opponent sent no move in {fen}")
            }
            DatagenError::OpponentMove { text, fen, error } => {
                write!(f, "the opponent's move '{text}' in {fen}: {error}")
            }
            DatagenError::Append(error) => write!(f, "cannot append: {error}"),
            DatagenError::Unstorable { fen, error } => write!(f, "{fen}: {error}"),
            DatagenError::WorkerPanicked => f.write_str("a datagen thread panicked"),
        }
    }
}

impl std::error::Error for DatagenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DatagenError::File(error) => Some(error),
            DatagenError::Opening { error, .. } => Some(error),
            DatagenError::Opponent(error) => Some(error),
            DatagenError::OpponentMove { error, .. } => Some(error),
            DatagenError::Append(error) => Some(error),
            DatagenError::Unstorable { error, .. } => Some(error),
            DatagenError::NoOpenings { .. }
            | DatagenError::OpponentNoMove { .. }
            | DatagenError::WorkerPanicked => None,
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

/// Plies from the game's start before positions are written.
const SKIP_PLIES: usize = 8;
/// A game is adjudicated as won once both sides' scores are beyond this...
const RESIGN_SCORE: Score = 1000;
/// ...for this many consecutive plies.
const RESIGN_PLIES: u32 = 6;
/// A game is adjudicated as drawn once every score is within this...
const DRAW_SCORE: Score = 10;
/// ...for this many consecutive plies...
const DRAW_PLIES: u32 = 12;
/// ...after this many plies.
const DRAW_MIN_PLY: usize = 60;
/// Games still running after this many plies are drawn.
const MAX_PLIES: usize = 400;
/// Openings whose first search scores beyond this are replaced: they teach
/// little and end at once.
const MAX_OPENING_SCORE: Score = 400;

/// Runs `kiln-workshop datagen`; progress goes to stderr. Returns the number of
/// positions written.
pub fn run(options: &Options) -> Result<u64, DatagenError> {
    let openings = match &options.openings {
        Some(path) => load_openings(path)?,
        None => vec![STARTPOS.to_string()],
    };
    let (file, existing) = open_output(options)?;
    let writer = Arc::new(Mutex::new(BufWriter::new(file)));
    let next_game = Arc::new(AtomicU64::new(0));
    let written = Arc::new(AtomicU64::new(existing.positions));
    let games_done = Arc::new(AtomicU64::new(existing.games.len() as u64));
    let done_before = Arc::new(existing.games);
    let kiln_half_points = Arc::new(AtomicU64::new(0));
    let openings = Arc::new(openings);

    let mut handles = Vec::new();
    for _ in 0..options.threads {
        let done_before = Arc::clone(&done_before);
        let (writer, next_game, written, games_done, kiln_half_points, openings, options) = (
            Arc::clone(&writer),
            Arc::clone(&next_game),
            Arc::clone(&written),
            Arc::clone(&games_done),
            Arc::clone(&kiln_half_points),
            Arc::clone(&openings),
            options.clone(),
        );
        handles.push(std::thread::spawn(move || -> Result<(), DatagenError> {
            let mut searcher = Searcher::new(options.hash_mib);
            searcher.set_evaluation(options.evaluation);
            let mut opponent = match &options.opponent {
                Some(path) => Some(UciClient::start(path, options.hash_mib)?),
                None => None,
            };
            loop {
                if options
                    .positions
                    .is_some_and(|p| written.load(Ordering::Relaxed) >= p)
                {
                    return Ok(());
                }
                let game = next_game.fetch_add(1, Ordering::Relaxed);
                if options.games.is_some_and(|g| game >= g) {
                    return Ok(());
                }
                if done_before.binary_search(&game).is_ok() {
                    continue;
                }
                let (kept, white_result) =
                    play_game(&mut searcher, opponent.as_mut(), &options, &openings, game)?;
                let kiln_result = match opponent_color(game) {
                    Color::Black => white_result,
                    Color::White => 2 - white_result,
                };
                kiln_half_points.fetch_add(u64::from(kiln_result), Ordering::Relaxed);
                let bytes = game_output(&options, game, &kept, white_result);
                // Poisoned only if another thread panicked holding it.
                let mut out = writer.lock().map_err(|_| DatagenError::WorkerPanicked)?;
                out.write_all(&bytes)
                    .and_then(|()| out.flush())
                    .map_err(FileError::on(FileAction::Write, &options.out))?;
                written.fetch_add(kept.len() as u64, Ordering::Relaxed);
                games_done.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }

    // Progress on stderr while the workers play: counted in positions
    // when that is the target, else in games.
    let (unit, total) = match (options.positions, options.games) {
        (Some(p), _) => ("positions", Some(p)),
        (None, g) => ("games", g),
    };
    let mut progress = Progress::new("datagen", unit, total);
    // With --append, what the file already holds counts towards the
    // target but not towards the rate.
    progress.resume_from(match options.positions {
        Some(_) => written.load(Ordering::Relaxed),
        None => games_done.load(Ordering::Relaxed),
    });
    let report = |progress: &mut Progress| {
        let games = games_done.load(Ordering::Relaxed);
        let written = written.load(Ordering::Relaxed);
        let (done, mut message) = match options.positions {
            Some(_) => (written, format!("{games} games")),
            None => (games, format!("{written} positions")),
        };
        if options.opponent.is_some() && games > 0 {
            let share = 50.0 * kiln_half_points.load(Ordering::Relaxed) as f64 / games as f64;
            message.push_str(&format!(", Kiln scored {share:.1} %"));
        }
        progress.update(done, &message);
    };
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(Duration::from_millis(200));
        report(&mut progress);
    }
    for handle in handles {
        handle.join().map_err(|_| DatagenError::WorkerPanicked)??;
    }
    report(&mut progress);
    progress.finish();
    Ok(written.load(Ordering::Relaxed))
}

/// Opens the output: created (or truncated) with a header, or with
/// `--append` an existing binary file of the same seed, cut back to its
/// last whole game; returns it with what it already holds.
fn open_output(options: &Options) -> Result<(File, Existing), DatagenError> {
    let path = &options.out;
    let exists = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if options.append && exists {
        let existing = positions::games_in(path, options.seed).map_err(DatagenError::Append)?;
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(FileError::on(FileAction::Open, path))?;
        file.set_len(existing.length)
            .map_err(FileError::on(FileAction::Write, path))?;
        let mut file = file;
        file.seek(SeekFrom::End(0))
            .map_err(FileError::on(FileAction::Write, path))?;
        return Ok((file, existing));
    }
    let mut file = File::create(path).map_err(FileError::on(FileAction::Create, path))?;
    if !options.text {
        file.write_all(&positions::header())
            .map_err(FileError::on(FileAction::Write, path))?;
    }
    let none = Existing {
        games: Vec::new(),
        positions: 0,
        length: 0,
    };
    Ok((file, none))
}

/// The bytes a finished game adds to the output: its positions (binary
/// records and an end-of-game marker, or text lines).
fn game_output(options: &Options, game: u64, kept: &[Kept], white_half_points: u8) -> Vec<u8> {
    let result = match white_half_points {
        0 => GameResult::Loss,
        1 => GameResult::Draw,
        _ => GameResult::Win,
    };
    let mut bytes = Vec::new();
    for position in kept {
        match position {
            Kept::Text(fen, score) => {
                let label = ["0.0", "0.5", "1.0"][result as usize];
                bytes.extend_from_slice(format!("{fen} | {label} | {score}\n").as_bytes());
            }
            Kept::Record(record) => {
                let mut record = *record;
                positions::set_result(&mut record, result);
                bytes.extend_from_slice(&record);
            }
        }
    }
    if !options.text {
        bytes.extend_from_slice(&positions::game_marker(game, options.seed, result));
    }
    bytes
}

/// A kept position in the form the output file takes, its game's result
/// still to come.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kept {
    /// `--text`: the FEN and White's score.
    Text(String, Score),
    /// Binary: the record, its result set when the game ends.
    Record([u8; RECORD_BYTES]),
}

/// Reads starting positions: one FEN (4 or 6 fields) or EPD line each;
/// blank lines and `#` comments are skipped.
fn load_openings(path: &str) -> Result<Vec<String>, DatagenError> {
    let text = std::fs::read_to_string(path).map_err(FileError::on(FileAction::Read, path))?;
    let mut fens = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = fields.join(" ");
        Board::from_fen(&fen).map_err(|error| DatagenError::Opening {
            path: path.to_string(),
            line: n + 1,
            error,
        })?;
        fens.push(fen);
    }
    if fens.is_empty() {
        return Err(DatagenError::NoOpenings {
            path: path.to_string(),
        });
    }
    Ok(fens)
}

/// A start position for game `game`: an opening plus random legal plies.
/// `attempt` varies the choice when an earlier one was rejected.
fn starting_board(options: &Options, openings: &[String], game: u64, attempt: u64) -> Board {
    let mut rng = Rng::new(
        options.seed
            ^ game.wrapping_mul(0xD6E8_FEB8_6659_FD93)
            ^ attempt.wrapping_mul(0xA076_1D64_78BD_642F),
    );
    loop {
        let fen = &openings[rng.below(openings.len() as u64) as usize];
        let Ok(mut board) = Board::from_fen(fen) else {
            continue;
        };
        let mut ok = true;
        for _ in 0..options.random_plies {
            let mut moves = MoveList::new();
            generate_all(&board, &mut moves);
            if moves.is_empty() {
                ok = false;
                break;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            board.make_move(mv);
        }
        let mut moves = MoveList::new();
        generate_all(&board, &mut moves);
        if ok && !moves.is_empty() {
            board.clear_history();
            return board;
        }
    }
}

/// The opponent's colour in game number `game`.
fn opponent_color(game: u64) -> Color {
    if game.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// Plays game number `game` (against `opponent` if given) and returns its
/// kept positions and White's result in half points; an `Err` is an
/// opponent that failed or sent an illegal move, or a kept position the
/// binary format cannot store.
fn play_game(
    searcher: &mut Searcher,
    mut opponent: Option<&mut UciClient>,
    options: &Options,
    openings: &[String],
    game: u64,
) -> Result<(Vec<Kept>, u8), DatagenError> {
    let limits = Limits {
        nodes: Some(options.nodes),
        ..Limits::default()
    };
    let mut attempt = 0;
    let mut board = loop {
        let board = starting_board(options, openings, game, attempt);
        attempt += 1;
        searcher.new_game();
        let mut probe = board.clone();
        let result = searcher.search(
            &mut probe,
            &limits,
            0,
            Arc::new(SearchShared::default()),
            &mut |_| {},
        );
        if result.score.abs() <= MAX_OPENING_SCORE || attempt >= 20 {
            break board;
        }
    };
    searcher.new_game();
    // The opponent's colour, and the game so far in its terms.
    let opponent_color = opponent_color(game);
    let start_fen = board.to_fen();
    let mut uci_moves = String::new();
    if let Some(engine) = opponent.as_deref_mut() {
        engine.new_game()?;
    }

    let mut kept: Vec<Kept> = Vec::new();
    let mut win_streak = 0u32;
    let mut win_side = Color::White;
    let mut draw_streak = 0u32;
    let mut ply = 0usize;
    // White's result: 2 = win, 1 = draw, 0 = loss.
    let result: u8 = loop {
        let mut moves = MoveList::new();
        generate_all(&board, &mut moves);
        if moves.is_empty() {
            break if !board.in_check() {
                1
            } else if board.side_to_move() == Color::White {
                0
            } else {
                2
            };
        }
        if board.is_fifty_move_draw()
            || board.is_repetition(2)
            || board.is_insufficient_material()
            || ply >= MAX_PLIES
        {
            break 1;
        }
        let (best, score) = match opponent.as_deref_mut() {
            Some(engine) if board.side_to_move() == opponent_color => {
                let reply = engine.search(
                    &format!("position fen {start_fen} moves{uci_moves}"),
                    &format!("go nodes {}", options.opponent_nodes),
                )?;
                let text = reply.best.ok_or_else(|| DatagenError::OpponentNoMove {
                    fen: board.to_fen(),
                })?;
                let best =
                    parse_uci_move(&board, &text).map_err(|error| DatagenError::OpponentMove {
                        fen: board.to_fen(),
                        text: text.clone(),
                        error,
                    })?;
                // Its mates, and no score at all, count as Kiln's mate
                // scores: the position is not kept.
                let score = match reply.score {
                    Some(s) if s.abs() < MATE_LABEL => s,
                    Some(s) if s < 0 => -MATE_BOUND,
                    _ => MATE_BOUND,
                };
                (best, score)
            }
            _ => {
                let found = searcher.search(
                    &mut board,
                    &limits,
                    0,
                    Arc::new(SearchShared::default()),
                    &mut |_| {},
                );
                (found.best, found.score)
            }
        };
        let white_score = match board.side_to_move() {
            Color::White => score,
            Color::Black => -score,
        };
        if ply >= SKIP_PLIES
            && !board.in_check()
            && !best.is_capture()
            && !best.is_promotion()
            && score.abs() < MATE_BOUND
        {
            kept.push(if options.text {
                Kept::Text(board.to_fen(), white_score)
            } else {
                // The result is not known yet: a draw until the game ends.
                let record =
                    positions::encode(&board, white_score, GameResult::Draw).map_err(|error| {
                        DatagenError::Unstorable {
                            fen: board.to_fen(),
                            error,
                        }
                    })?;
                Kept::Record(record)
            });
        }

        // Adjudication from the scores of consecutive plies.
        if white_score.abs() >= RESIGN_SCORE {
            let side = if white_score > 0 {
                Color::White
            } else {
                Color::Black
            };
            win_streak = if win_streak > 0 && side == win_side {
                win_streak + 1
            } else {
                1
            };
            win_side = side;
            if win_streak >= RESIGN_PLIES {
                break if side == Color::White { 2 } else { 0 };
            }
        } else {
            win_streak = 0;
        }
        if ply >= DRAW_MIN_PLY && white_score.abs() <= DRAW_SCORE {
            draw_streak += 1;
            if draw_streak >= DRAW_PLIES {
                break 1;
            }
        } else {
            draw_streak = 0;
        }

        if opponent.is_some() {
            uci_moves.push(' ');
            uci_moves.push_str(&best.to_uci(false));
        }
        board.make_move(best);
        ply += 1;
    };
    Ok((kept, result))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::split_args as args;

    fn parse(text: &str) -> Result<Options, ArgError> {
        Options::parse(args(text)).map(|parsed| parsed.run().expect("not a help request"))
    }

    #[test]
    fn options_parse_and_reject_bad_input() {
        let o = parse("--out x.txt --games 3 --nodes 100 --seed 7").unwrap();
        assert_eq!(
            (o.games, o.nodes, o.seed, o.out.as_str()),
            (Some(3), 100, 7, "x.txt")
        );
        // Seeds as the tools print them (hex), and --option=value.
        let o = parse("--out=x.txt --games=0x3 --seed 0x10 --nodes=1000").unwrap();
        assert_eq!(
            (o.games, o.seed, o.nodes, o.out.as_str()),
            (Some(3), 16, 1000, "x.txt")
        );
        assert_eq!(Options::parse(args("--out x -h")), Ok(Parsed::Help));
        assert_eq!(Options::parse(args("--help")), Ok(Parsed::Help));
        assert_eq!(parse("--games 3"), Err(ArgError::Missing("--out <file>")));
        assert_eq!(
            parse("--out x"),
            Err(ArgError::Missing("--games <n> or --positions <n>"))
        );
        assert!(parse("--out x --games 0").is_err());
        assert!(parse("--out x --games ten").is_err());
        assert_eq!(
            parse("--out x --games 1 --nodes"),
            Err(ArgError::MissingValue("--nodes".into()))
        );
        assert_eq!(
            parse("--out x --games 1 --frobnicate 2"),
            Err(ArgError::UnknownOption("--frobnicate".into()))
        );
        assert_eq!(
            parse("--out x --games 1 extra"),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
        let o = parse("--out x --games 1 --opponent sf --opponent-nodes 50").unwrap();
        assert_eq!((o.opponent.as_deref(), o.opponent_nodes), (Some("sf"), 50));
        assert!(parse("--out x --games 1 --opponent").is_err());
        assert!(parse("--out x --games 1 --opponent-nodes 0").is_err());
        let o = parse("--out x --games 1 --eval nnue").unwrap();
        assert_eq!(o.evaluation, Evaluation::Network);
        assert!(parse("--out x --games 1 --eval fast").is_err());
    }

    #[test]
    fn usage_states_the_defaults() {
        use kiln::cli::documented_default as default;
        let o = parse("--out x --games 1").unwrap();
        assert_eq!(default(USAGE, "--nodes"), Some(&*o.nodes.to_string()));
        assert_eq!(default(USAGE, "--eval"), Some(o.evaluation.name()));
        assert_eq!(default(USAGE, "--seed"), Some(&*o.seed.to_string()));
        assert_eq!(default(USAGE, "--threads"), Some(&*o.threads.to_string()));
        let plies = o.random_plies.to_string();
        assert_eq!(default(USAGE, "--random-plies"), Some(&*plies));
        assert_eq!(default(USAGE, "--hash"), Some(&*o.hash_mib.to_string()));
        let nodes = o.opponent_nodes.to_string();
        assert_eq!(default(USAGE, "--opponent-nodes"), Some(&*nodes));
    }

    #[test]
    fn games_are_reproducible_and_quiet() {
        let options = parse("--out unused --games 1 --nodes 300 --seed 5").unwrap();
        let openings = vec![STARTPOS.to_string()];
        let mut searcher = Searcher::new(1);
        let (a, _) = play_game(&mut searcher, None, &options, &openings, 3).unwrap();
        let (b, _) = play_game(&mut searcher, None, &options, &openings, 3).unwrap();
        assert_eq!(a, b, "same seed and game number, same game");
        assert!(!a.is_empty());
        for kept in &a {
            let Kept::Record(bytes) = kept else {
                panic!("binary output keeps records: {kept:?}")
            };
            let Ok(positions::Record::Position {
                board, white_score, ..
            }) = positions::decode(bytes)
            else {
                panic!("a position record: {bytes:?}")
            };
            assert!(!board.in_check(), "{board}");
            assert!(white_score.abs() < MATE_BOUND, "{board} {white_score}");
        }
        let text = parse("--out unused --games 1 --nodes 300 --seed 5 --text").unwrap();
        let (c, _) = play_game(&mut searcher, None, &text, &openings, 3).unwrap();
        assert_eq!(c.len(), a.len());
        assert!(c.iter().all(|kept| matches!(kept, Kept::Text(..))));
    }

    #[test]
    fn interrupted_runs_resume_to_the_same_file() {
        let dir = std::env::temp_dir().join(format!("kiln-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
        let (whole, resumed) = (path("whole.bin"), path("resumed.bin"));
        let options = |out: &str, games: u64, append: bool| Options {
            append,
            ..parse(&format!("--out {out} --games {games} --nodes 300 --seed 3")).unwrap()
        };
        run(&options(&whole, 3, false)).unwrap();
        run(&options(&resumed, 2, false)).unwrap();
        // A third game cut short in the middle of a record.
        let mut bytes = std::fs::read(&resumed).unwrap();
        bytes.extend(positions::encode(&Board::startpos(), 0, GameResult::Draw).unwrap());
        bytes.extend([7u8; 5]);
        std::fs::write(&resumed, &bytes).unwrap();
        run(&options(&resumed, 3, true)).unwrap();
        assert_eq!(
            std::fs::read(&whole).unwrap(),
            std::fs::read(&resumed).unwrap()
        );
        let existing = positions::games_in(&whole, 3).unwrap();
        assert_eq!(existing.games, vec![0, 1, 2]);
        // Another seed's file is refused, and so is a text file.
        let other_seed = Options {
            seed: 4,
            ..options(&whole, 3, true)
        };
        assert!(matches!(run(&other_seed), Err(DatagenError::Append(_))));
        let text = path("text.txt");
        run(&Options {
            text: true,
            ..options(&text, 1, false)
        })
        .unwrap();
        assert!(matches!(
            run(&options(&text, 2, true)),
            Err(DatagenError::Append(_))
        ));
        assert_eq!(
            parse("--out x --games 1 --text --append"),
            Err(ArgError::Conflict("--append", "--text"))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
