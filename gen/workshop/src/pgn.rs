//! Importing PGN games into a Kiln game file ([`kiln_format::game`]), the
//! form in which OpenBench's DATAGEN workloads return the games fastchess
//! (or cutechess) played: [`import_pgn`].
//!
//! **What is read.** Each file holds any number of games: tag pairs, then
//! movetext of SAN moves ([`kiln_board::parse_san`]) with move numbers
//! (`12.`, `12...`, also glued to the move, `12.Nf3`), `{comments}` (over
//! several lines too), `;` comments to the end of the line, `%` escape
//! lines, NAGs (`$1`), annotations (`!`, `?!`, also glued to the move), and
//! variations `( … )`, nested or not, which are skipped whole, and a
//! result (`1-0`, `0-1`, `1/2-1/2`, `*`) that ends the game. A game starts
//! from its `[FEN]` tag when it has one (standard, X-FEN or Shredder-FEN
//! castling, so Chess960 games read), else from the start position; a
//! `[Variant]` other than standard chess or Chess960 is not imported.
//! Files are read a line at a time and games are written as they are
//! read, so a file of any size takes the memory of one game.
//!
//! **Scores.** fastchess and cutechess write the search's score after each
//! move: `{+0.17/15 0.624s}`, `{-1.25/12 0.100s, White mates}`, mates as
//! `{+M5/20 …}` or `{-M4/9 …}` (the number counts plies, as fastchess
//! writes it), from the view of the side that played the move, in pawns
//! ([`comment_score`]). The game file stores the score of the position a
//! move was played in, in centipawns from White's view, so a Black move's
//! score changes sign. A mate becomes ±([`MATE`] − plies), the plies
//! capped at [`MAX_PLY`] so that the score stays at or beyond the engine's
//! mate bound and the filters applied when data is loaded drop it as they
//! drop the engine's own mate scores. Centipawn scores saturate at
//! ±`i16::MAX`.
//!
//! **Moves without a score** (`{book}`, no comment, a comment with no
//! score, or fastchess's `0.00/0` placeholder for a move the engine
//! reported nothing about): the unscored moves at the start of a game are
//! played on the start position, and the game is stored from the first
//! scored move on (an opening book's moves teach nothing). An unscored
//! move after a scored one is stored, so that the game still replays, with
//! the score [`UNSCORED`] (`i16::MIN`), which is beyond every filter's
//! bound and so is dropped when data is loaded.
//!
//! **Games not imported** are counted and listed in the
//! [`ImportSummary`] with their file, number and reason, never dropped
//! silently: an unfinished game (`*`, or the file ends first), a move that
//! does not read or is not legal (the game is dropped whole), a bad
//! `[FEN]`, another variant, a game whose termination says its result was
//! not played out on the board (`illegal move`, `abandoned`, `stalled
//! connection`, `unterminated`), and a game with no scored move at all.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use kiln::eval::score::{MATE, MAX_PLY};
use kiln_board::{Board, Color, parse_san};
use kiln_format::game::{GameWriter, Header};
use kiln_format::record::GameResult;
use kiln_format::{FileAction, FileError};

use crate::games::GameBuilder;

/// The score stored for an unscored move that follows a scored one: beyond
/// every load filter's bound, so such a position is never trained on, while
/// the game keeps its move and still replays.
pub const UNSCORED: i16 = i16::MIN;

/// How many skipped games an [`ImportSummary`] lists one by one; the count
/// beyond is kept exact. A file of nothing but unfinished games must not
/// fill the memory with reasons.
pub const MAX_LISTED_SKIPS: usize = 10_000;

/// Terminations (the `[Termination]` tag, lower case) whose result says
/// nothing about the position: the game is not imported.
const NOT_ON_THE_BOARD: [&str; 4] = [
    "illegal move",
    "abandoned",
    "stalled connection",
    "unterminated",
];

/// The score a move's comment gives, in centipawns from the view of the
/// side that played the move, or `None` when the comment has none: the
/// comment's first word up to `/` is `+0.17`, `-1.25`, `0.00` (pawns) or
/// `+M5`, `-M4` (mate in that many plies, becoming ±([`MATE`] − plies),
/// the plies capped at [`MAX_PLY`]). `book`, text, `ERR` and fastchess's
/// `0.00/0` (a move the engine said nothing about) have none.
pub fn comment_score(comment: &str) -> Option<i32> {
    let word = comment
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|word| !word.is_empty())?;
    let (score, depth) = match word.split_once('/') {
        Some((score, depth)) => (score, Some(depth)),
        None => (word, None),
    };
    let (negative, magnitude) = match score.as_bytes().first()? {
        b'+' => (false, &score[1..]),
        b'-' => (true, &score[1..]),
        _ => (false, score),
    };
    let sign = if negative { -1 } else { 1 };
    if let Some(plies) = magnitude.strip_prefix('M') {
        if plies.is_empty() || !plies.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let plies = plies.parse::<i32>().unwrap_or(MAX_PLY).min(MAX_PLY);
        return Some(sign * (MATE - plies));
    }
    let digits = magnitude.bytes().filter(u8::is_ascii_digit).count();
    let dots = magnitude.bytes().filter(|&b| b == b'.').count();
    if digits == 0 || digits + dots != magnitude.len() || dots > 1 {
        return None;
    }
    let pawns: f64 = magnitude.parse().ok()?;
    if pawns == 0.0 && depth == Some("0") {
        return None;
    }
    // Saturated short of i16::MIN, the unscored sentinel.
    let centipawns = (pawns * 100.0).round().min(f64::from(i16::MAX)) as i32;
    Some(sign * centipawns)
}

/// A game's termination marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    Finished(GameResult),
    /// `*`.
    Unfinished,
}

/// A token of PGN text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    /// `[Name "value"]`.
    Tag(String, String),
    /// `{…}`.
    Comment(String),
    /// `(`.
    Open,
    /// `)`.
    Close,
    /// A termination marker.
    Outcome(Outcome),
    /// A move (move numbers and annotations left out).
    Move(String),
    /// Text that is not PGN: a broken tag, a stray bracket.
    Bad(String),
}

/// One move of a game as read: its SAN and the score of its comment.
#[derive(Clone, Debug)]
struct RawMove {
    san: String,
    /// Centipawns, the mover's view ([`comment_score`]).
    score: Option<i32>,
}

/// One game of a PGN file as read, its moves not yet checked.
#[derive(Clone, Debug, Default)]
struct RawGame {
    /// Its number in its file, from 1.
    number: usize,
    /// The line it starts on.
    line: usize,
    tags: Vec<(String, String)>,
    moves: Vec<RawMove>,
    outcome: Option<Outcome>,
    /// Whether any movetext was seen (a tag after it starts a new game).
    movetext: bool,
    /// The first text that is not PGN.
    bad: Option<String>,
}

impl RawGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Reads PGN text a token at a time, a line at a time.
struct Lexer<R> {
    reader: R,
    line: String,
    pos: usize,
    line_number: usize,
    bytes: Vec<u8>,
}

/// Ends a move or other symbol.
fn ends_symbol(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';' | '$')
}

impl<R: BufRead> Lexer<R> {
    fn new(reader: R) -> Self {
        Lexer {
            reader,
            line: String::new(),
            pos: 0,
            line_number: 0,
            bytes: Vec::new(),
        }
    }

    /// Reads the next line; false at the end of the input. Bytes that are
    /// not UTF-8 (Latin-1 names in tags) are replaced: movetext is ASCII.
    fn next_line(&mut self) -> io::Result<bool> {
        self.bytes.clear();
        if self.reader.read_until(b'\n', &mut self.bytes)? == 0 {
            return Ok(false);
        }
        self.line = String::from_utf8_lossy(&self.bytes).into_owned();
        if self.line_number == 0
            && let Some(rest) = self.line.strip_prefix('\u{feff}')
        {
            self.line = rest.to_string();
        }
        self.line_number += 1;
        self.pos = 0;
        Ok(true)
    }

    /// The next token, or `None` at the end of the input.
    fn next_token(&mut self) -> io::Result<Option<Token>> {
        loop {
            let Some(c) = self.line[self.pos..].chars().next() else {
                if !self.next_line()? {
                    return Ok(None);
                }
                // An escape line: the rest of the line is not PGN.
                if self.line.starts_with('%') {
                    self.pos = self.line.len();
                }
                continue;
            };
            let start = self.pos;
            self.pos += c.len_utf8();
            match c {
                c if c.is_whitespace() => {}
                ';' => self.pos = self.line.len(),
                '{' => return self.comment().map(Some),
                '[' => return Ok(Some(self.tag(start))),
                '(' => return Ok(Some(Token::Open)),
                ')' => return Ok(Some(Token::Close)),
                '$' => {
                    let rest = &self.line[self.pos..];
                    self.pos +=
                        rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
                }
                '}' | ']' => return Ok(Some(Token::Bad(c.to_string()))),
                _ => {
                    let rest = &self.line[start..];
                    let end = rest.find(ends_symbol).unwrap_or(rest.len());
                    self.pos = start + end;
                    if let Some(token) = symbol(&rest[..end]) {
                        return Ok(Some(token));
                    }
                }
            }
        }
    }

    /// A `{…}` comment, the `{` read; over several lines if need be.
    fn comment(&mut self) -> io::Result<Token> {
        let mut text = String::new();
        loop {
            let rest = &self.line[self.pos..];
            if let Some(end) = rest.find('}') {
                text.push_str(&rest[..end]);
                self.pos += end + 1;
                return Ok(Token::Comment(text));
            }
            text.push_str(rest.trim_end());
            text.push(' ');
            if !self.next_line()? {
                return Ok(Token::Bad(format!("{{{}", text.trim_end())));
            }
        }
    }

    /// A tag pair on the rest of the line, the `[` at `start`.
    fn tag(&mut self, start: usize) -> Token {
        let rest = &self.line[self.pos..];
        match parse_tag(rest) {
            Some((name, value, used)) => {
                self.pos += used;
                Token::Tag(name, value)
            }
            None => {
                let text = self.line[start..].trim_end().to_string();
                self.pos = self.line.len();
                Token::Bad(text)
            }
        }
    }
}

/// `Name "value"]` (after the `[`): the name, the value with `\"` and `\\`
/// unescaped, and the bytes used.
fn parse_tag(text: &str) -> Option<(String, String, usize)> {
    let body = text.trim_start();
    let name_end = body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let name = &body[..name_end];
    let after = body[name_end..].trim_start();
    let mut chars = after.strip_prefix('"')?.char_indices();
    let mut value = String::new();
    let close = loop {
        match chars.next()? {
            (_, '\\') => value.push(chars.next()?.1),
            (at, '"') => break at,
            (_, c) => value.push(c),
        }
    };
    let tail = &after[1 + close + 1..];
    let bracket = tail.len() - tail.trim_start().len();
    if name.is_empty() || !tail[bracket..].starts_with(']') {
        return None;
    }
    let used = text.len() - tail.len() + bracket + 1;
    Some((name.to_string(), value, used))
}

/// What a symbol of movetext is: a result, a move, or nothing to keep (a
/// move number, an annotation).
fn symbol(text: &str) -> Option<Token> {
    let outcome = match text {
        "1-0" => Some(Outcome::Finished(GameResult::Win)),
        "0-1" => Some(Outcome::Finished(GameResult::Loss)),
        "1/2-1/2" | "½-½" => Some(Outcome::Finished(GameResult::Draw)),
        "*" => Some(Outcome::Unfinished),
        _ => None,
    };
    if let Some(outcome) = outcome {
        return Some(Token::Outcome(outcome));
    }
    // A move number, alone (`12.`, `12...`, `12`) or glued to its move.
    let after_number = text.trim_start_matches(|c: char| c.is_ascii_digit());
    let text = if after_number.is_empty() {
        return None;
    } else if after_number.len() < text.len() && after_number.starts_with('.') {
        after_number.trim_start_matches('.')
    } else {
        text
    };
    if text.is_empty() || text == "e.p." || text.chars().all(|c| c == '!' || c == '?') {
        return None;
    }
    Some(Token::Move(text.to_string()))
}

/// Reads the games of a PGN stream one at a time.
struct PgnReader<R> {
    lexer: Lexer<R>,
    /// A tag that ended the game before it (one without a result) and
    /// starts the next.
    pending: Option<Token>,
    games: usize,
}

impl<R: BufRead> PgnReader<R> {
    fn new(reader: R) -> Self {
        PgnReader {
            lexer: Lexer::new(reader),
            pending: None,
            games: 0,
        }
    }

    /// The next game, or `None` at the end of the input.
    fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        let mut game = RawGame::default();
        let mut depth = 0usize;
        let mut started = false;
        loop {
            let token = match self.pending.take() {
                Some(token) => Some(token),
                None => self.lexer.next_token()?,
            };
            let Some(token) = token else {
                return Ok(started.then_some(game));
            };
            if !started {
                // A comment between games (after a result) starts none.
                if matches!(token, Token::Comment(_)) {
                    continue;
                }
                started = true;
                self.games += 1;
                game.number = self.games;
                game.line = self.lexer.line_number;
            }
            match token {
                Token::Tag(name, value) => {
                    if game.movetext {
                        // A game without a result: the tag starts the next.
                        self.pending = Some(Token::Tag(name, value));
                        return Ok(Some(game));
                    }
                    game.tags.push((name, value));
                }
                Token::Open => {
                    game.movetext = true;
                    depth += 1;
                }
                Token::Close => {
                    game.movetext = true;
                    if depth == 0 {
                        game.bad.get_or_insert_with(|| ")".to_string());
                    }
                    depth = depth.saturating_sub(1);
                }
                // Everything inside a variation is another line of play.
                _ if depth > 0 => {}
                Token::Comment(text) => {
                    // A comment before the first move is about the game.
                    if let Some(last) = game.moves.last_mut() {
                        last.score = last.score.or_else(|| comment_score(&text));
                    }
                }
                Token::Move(san) => {
                    game.movetext = true;
                    game.moves.push(RawMove { san, score: None });
                }
                Token::Outcome(outcome) => {
                    game.outcome = Some(outcome);
                    return Ok(Some(game));
                }
                Token::Bad(text) => {
                    // Not movetext: a broken tag must not split its game.
                    game.bad.get_or_insert(text);
                }
            }
        }
    }
}

/// A game that was not imported: where it is and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedGame {
    /// The PGN file.
    pub path: PathBuf,
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line the game starts on.
    pub line: usize,
    /// Why it was not imported.
    pub reason: String,
}

impl fmt::Display for SkippedGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' game {} (line {}): {}",
            self.path.display(),
            self.game,
            self.line,
            self.reason
        )
    }
}

/// What an import read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportSummary {
    /// PGN files read.
    pub files: usize,
    /// Games found in them.
    pub games_read: u64,
    /// Games written.
    pub games_imported: u64,
    /// Positions (plies) written, the [`UNSCORED`] ones included.
    pub positions: u64,
    /// Unscored moves at the start of games, played on the start position
    /// rather than stored.
    pub leading_unscored: u64,
    /// Unscored moves after a scored one, stored with [`UNSCORED`].
    pub unscored_plies: u64,
    /// Games not imported.
    pub games_skipped: u64,
    /// The first [`MAX_LISTED_SKIPS`] of them, with their reasons.
    pub skipped: Vec<SkippedGame>,
}

impl fmt::Display for ImportSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games read from {} PGN files: {} imported ({} positions, {} of them unscored; \
             {} unscored opening plies folded into start positions), {} skipped",
            self.games_read,
            self.files,
            self.games_imported,
            self.positions,
            self.unscored_plies,
            self.leading_unscored,
            self.games_skipped
        )?;
        for skipped in &self.skipped {
            write!(f, "\n  skipped {skipped}")?;
        }
        let unlisted = self.games_skipped - self.skipped.len() as u64;
        if unlisted > 0 {
            write!(f, "\n  … and {unlisted} more skipped")?;
        }
        Ok(())
    }
}

/// Why an import failed (a game that cannot be imported is skipped and
/// listed in the [`ImportSummary`] instead).
#[derive(Debug)]
pub enum ImportError {
    /// A PGN file could not be opened.
    Open(FileError),
    /// Reading a PGN file failed.
    Read {
        /// The file.
        path: PathBuf,
        /// The game being read (from 1).
        game: usize,
        /// The line being read.
        line: usize,
        /// What the system said.
        source: io::Error,
    },
    /// The game file could not be created or written.
    Output(FileError),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::Open(error) | ImportError::Output(error) => error.fmt(f),
            ImportError::Read {
                path,
                game,
                line,
                source,
            } => write!(
                f,
                "reading '{}' at game {game} (line {line}): {source}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for ImportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ImportError::Open(error) | ImportError::Output(error) => Some(error),
            ImportError::Read { source, .. } => Some(source),
        }
    }
}

/// A converted game: the game and its counts.
struct Converted {
    game: kiln_format::game::Game,
    leading_unscored: u64,
    unscored: u64,
}

/// Converts a game as read, or says why it cannot be imported.
fn convert(raw: &RawGame) -> Result<Converted, String> {
    let result = match raw.outcome {
        Some(Outcome::Finished(result)) => result,
        Some(Outcome::Unfinished) => return Err("unfinished (result *)".into()),
        None => return Err("no result: the game is cut short".into()),
    };
    if let Some(bad) = &raw.bad {
        return Err(format!("not PGN: '{bad}'"));
    }
    if let Some(termination) = raw.tag("Termination")
        && NOT_ON_THE_BOARD.contains(&termination.to_ascii_lowercase().as_str())
    {
        return Err(format!("termination '{termination}'"));
    }
    if let Some(variant) = raw.tag("Variant") {
        let known = [
            "standard",
            "chess",
            "normal",
            "from position",
            "chess960",
            "chess 960",
            "fischerandom",
            "fischer random",
            "fischerrandom",
        ];
        if !known.contains(&variant.to_ascii_lowercase().as_str()) {
            return Err(format!("variant '{variant}'"));
        }
    }
    let mut board = match raw.tag("FEN") {
        Some(fen) => {
            Board::from_fen(fen.trim()).map_err(|error| format!("FEN '{fen}': {error}"))?
        }
        None => Board::startpos(),
    };
    let mut builder: Option<GameBuilder> = None;
    let (mut leading_unscored, mut unscored) = (0, 0);
    for (index, raw_move) in raw.moves.iter().enumerate() {
        let mv = parse_san(&board, &raw_move.san)
            .map_err(|error| format!("ply {}: {error} in {}", index + 1, board.to_fen()))?;
        if builder.is_none() && raw_move.score.is_none() {
            // Still in the unscored opening: it becomes the start.
            leading_unscored += 1;
        } else {
            let game = builder.get_or_insert_with(|| GameBuilder::new(&board));
            let white_score = match raw_move.score {
                Some(score) if board.side_to_move() == Color::White => score,
                Some(score) => -score,
                None => {
                    unscored += 1;
                    i32::from(UNSCORED)
                }
            };
            game.push(mv, white_score);
        }
        board.make_move(mv);
    }
    let builder = builder.ok_or_else(|| "no scored move".to_string())?;
    Ok(Converted {
        game: builder.finish(result),
        leading_unscored,
        unscored,
    })
}

/// Imports the games of PGN files (`inputs`, read in order, each a game at
/// a time) into a new Kiln game file at `output` (header without a seed),
/// one game per finished PGN game, as the module documentation describes:
/// moves resolved against the legal moves, scores converted to White's
/// centipawns, unscored opening moves folded into the start position, and
/// unfinished or unreadable games skipped and listed in the summary.
///
/// # Errors
/// An [`ImportError`] when a PGN file cannot be opened or read, or the
/// output cannot be created or written.
pub fn import_pgn(inputs: &[PathBuf], output: &Path) -> Result<ImportSummary, ImportError> {
    let mut writer =
        GameWriter::create(output, Header::NOT_A_SHARD).map_err(ImportError::Output)?;
    let mut summary = ImportSummary::default();
    for path in inputs {
        let file = File::open(path)
            .map_err(FileError::on(FileAction::Open, path))
            .map_err(ImportError::Open)?;
        let mut reader = PgnReader::new(BufReader::with_capacity(1 << 16, file));
        summary.files += 1;
        loop {
            let raw = reader.next_game().map_err(|source| ImportError::Read {
                path: path.clone(),
                game: reader.games.max(1),
                line: reader.lexer.line_number,
                source,
            })?;
            let Some(raw) = raw else { break };
            summary.games_read += 1;
            match convert(&raw) {
                Ok(converted) => {
                    writer
                        .write_game(&converted.game)
                        .map_err(ImportError::Output)?;
                    summary.games_imported += 1;
                    summary.positions += converted.game.moves.len() as u64;
                    summary.leading_unscored += converted.leading_unscored;
                    summary.unscored_plies += converted.unscored;
                }
                Err(reason) => {
                    summary.games_skipped += 1;
                    if summary.skipped.len() < MAX_LISTED_SKIPS {
                        summary.skipped.push(SkippedGame {
                            path: path.clone(),
                            game: raw.number,
                            line: raw.line,
                            reason,
                        });
                    }
                }
            }
        }
    }
    writer.flush().map_err(ImportError::Output)?;
    Ok(summary)
}

/// What a match runner's result needs of one game: who played which colour,
/// how it ended and why (PGN's `White`, `Black`, result and `Termination`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The result, `None` for an unfinished game (`*` or none).
    pub result: Option<GameResult>,
    /// The `Termination` tag (fastchess: `normal`, `adjudication`,
    /// `time forfeit`, `illegal move`, `abandoned`, ...).
    pub termination: Option<String>,
}

/// The games of PGN text read from `reader`, summarised ([`GameSummary`]);
/// their moves are not checked.
///
/// # Errors
/// The reader failed.
pub fn summarise_games(reader: impl BufRead) -> io::Result<Vec<GameSummary>> {
    let mut reader = PgnReader::new(reader);
    let mut games = Vec::new();
    while let Some(raw) = reader.next_game()? {
        games.push(GameSummary {
            white: raw.tag("White").map(String::from),
            black: raw.tag("Black").map(String::from),
            result: match raw.outcome {
                Some(Outcome::Finished(result)) => Some(result),
                Some(Outcome::Unfinished) | None => None,
            },
            termination: raw.tag("Termination").map(String::from),
        });
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_scores_read_centipawns_mates_and_nothing() {
        assert_eq!(comment_score("+0.17/15 0.624s"), Some(17));
        assert_eq!(comment_score("-1.25/12 0.100s, White mates"), Some(-125));
        assert_eq!(comment_score(" 0.00/7 0.010s"), Some(0));
        assert_eq!(comment_score("+3/7"), Some(300));
        assert_eq!(comment_score("+M5/20 0.5s"), Some(MATE - 5));
        assert_eq!(comment_score("-M4/9 0.5s"), Some(-(MATE - 4)));
        assert_eq!(comment_score("+M999/9"), Some(MATE - MAX_PLY));
        assert_eq!(comment_score("+400.00/3"), Some(i32::from(i16::MAX)));
        for none in [
            "book",
            "",
            "White mates",
            "ERR/0 0.000s",
            "0.00/0 0.000s",
            "+1.2.3/4",
            "M/3",
        ] {
            assert_eq!(comment_score(none), None, "{none}");
        }
    }

    fn read_all(text: &str) -> Vec<RawGame> {
        let mut reader = PgnReader::new(text.as_bytes());
        std::iter::from_fn(|| reader.next_game().unwrap()).collect()
    }

    const TWO_GAMES: &str = "\u{feff}[Event \"test \\\"one\\\"\"]\r\n\
        [White \"Kiln\"]\n\
        [Result \"1-0\"]\n\
        \n\
        % an escape line (e4 e5)\n\
        {A game comment.} 1. e4 {book} 1... e5 {book} 2. Nf3 {+0.30/10 0.1s}\n\
        Nc6 $1 {-0.20/9\n 0.1s} (2... d6 {+0.5/3} 3. d4 (3. Bc4) exd4) 3.Bb5!? ; a rest-of-line comment { not }\n\
        {+0.25/11 0.2s} a6 {+M3/12 0.1s} 1-0\n\
        \n\
        [Event \"two\"]\n\
        [SetUp \"1\"]\n\
        [FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\
        \n\
        1... Kd7 {-1.00/5} 2. e4 *\n";

    #[test]
    fn pgn_text_reads_into_games() {
        let games = read_all(TWO_GAMES);
        assert_eq!(games.len(), 2);
        let first = &games[0];
        assert_eq!(first.tag("event"), Some("test \"one\""));
        assert_eq!(first.bad, None);
        let sans: Vec<_> = first.moves.iter().map(|m| m.san.as_str()).collect();
        assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5!?", "a6"]);
        let scores: Vec<_> = first.moves.iter().map(|m| m.score).collect();
        assert_eq!(
            scores,
            [None, None, Some(30), Some(-20), Some(25), Some(MATE - 3)]
        );
        assert_eq!(first.outcome, Some(Outcome::Finished(GameResult::Win)));
        assert_eq!((games[1].number, games[1].line), (2, 11));
        assert_eq!(games[1].outcome, Some(Outcome::Unfinished));
    }

    #[test]
    fn games_summarise_to_players_results_and_terminations() {
        let text = "[White \"plus\"]\n[Black \"minus\"]\n[Termination \"time forfeit\"]\n\n1. e4 e5 1-0\n\n\
                    [White \"minus\"]\n[Black \"plus\"]\n\n1. d4 {+0.10/3} d5 1/2-1/2\n\n\
                    [White \"x\"]\n\n1. c4 *\n";
        let games = summarise_games(text.as_bytes()).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].white.as_deref(), Some("plus"));
        assert_eq!(games[0].black.as_deref(), Some("minus"));
        assert_eq!(games[0].result, Some(GameResult::Win));
        assert_eq!(games[0].termination.as_deref(), Some("time forfeit"));
        assert_eq!(games[1].result, Some(GameResult::Draw));
        assert_eq!(games[1].termination, None);
        assert_eq!((games[2].black.as_deref(), games[2].result), (None, None));
    }

    #[test]
    fn games_without_results_and_bad_text_are_kept_apart() {
        let text = "[Event \"a\"]\n1. e4 e5\n[Event \"b\"]\n1. d4 d5 1/2-1/2\n[Event \"c\"\n1. c4 0-1\n[Event \"d\"]\n1. f4";
        let games = read_all(text);
        assert_eq!(games.len(), 4);
        assert_eq!(games[0].outcome, None);
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[1].outcome, Some(Outcome::Finished(GameResult::Draw)));
        assert_eq!(games[1].tag("Event"), Some("b"));
        assert!(games[2].bad.is_some());
        assert_eq!(games[3].outcome, None);
    }

    #[test]
    fn import_writes_white_view_scores_and_lists_skips() {
        let dir = std::env::temp_dir().join(format!("kiln-pgn-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (pgn, out) = (dir.join("games.pgn"), dir.join("games.kiln"));
        let extra = "\n[Event \"illegal\"]\n1. e4 {+0.1/1} e4 {+0.1/1} 0-1\n\
            [Event \"unscored tail\"]\n1. d4 {+0.2/3} d5 2. c4 {+0.3/3} 1/2-1/2\n";
        std::fs::write(&pgn, format!("{TWO_GAMES}{extra}")).unwrap();
        let summary = import_pgn(std::slice::from_ref(&pgn), &out).unwrap();
        assert_eq!(
            (
                summary.games_read,
                summary.games_imported,
                summary.games_skipped
            ),
            (4, 2, 2)
        );
        assert_eq!(summary.positions, 4 + 3);
        assert_eq!((summary.leading_unscored, summary.unscored_plies), (2, 1));
        let reasons: Vec<_> = summary
            .skipped
            .iter()
            .map(|s| (s.game, s.reason.clone()))
            .collect();
        assert_eq!(reasons[0], (2, "unfinished (result *)".to_string()));
        assert_eq!(reasons[1].0, 3);
        assert!(
            reasons[1].1.starts_with("ply 2: 'e4' is not a legal move"),
            "{reasons:?}"
        );
        assert!(
            summary.to_string().contains("games.pgn' game 3 (line"),
            "{summary}"
        );

        let mut reader = kiln_format::game::GameReader::open(&out).unwrap();
        let first = reader.next_game().unwrap().unwrap();
        // Stored from 2. Nf3 on: White +30, Black -20 → +20, White +25,
        // Black mates in 3 → -(MATE - 3).
        let scores: Vec<i16> = first.moves.iter().map(|&(_, s)| s).collect();
        assert_eq!(scores, [30, 20, 25, -(MATE as i16 - 3)]);
        let mut fens = Vec::new();
        let result = crate::games::replay(&first, |ply| fens.push(ply.board.to_fen())).unwrap();
        assert_eq!(result, GameResult::Win);
        assert_eq!(
            fens[0],
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        let second = reader.next_game().unwrap().unwrap();
        let scores: Vec<i16> = second.moves.iter().map(|&(_, s)| s).collect();
        assert_eq!(scores, [20, UNSCORED, 30]);
        assert_eq!(second.result(), Some(GameResult::Draw));
        assert!(reader.next_game().unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
