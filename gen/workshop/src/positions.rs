//! Training data as the engine's boards: [`kiln_format::record`] owns
//! the bytes of the earlier position records, and this module turns a
//! [`Board`] into a record and back (through the board's own FEN parser, so
//! that a record that is no legal position is refused). It reads the
//! positions of every kind of data file (told apart by their first bytes,
//! [`kiln_format::marlin::detect`]): game files, replayed move by move
//! ([`crate::games::replay`]) through a [`LoadFilter`]; files of
//! marlinformat positions; the 32-byte records; and the text lines
//! `<fen> | <result> | <score>` that `kiln-workshop label` writes.
//!
//! The filter applies to game files only: they store every ply of a game,
//! and which positions a tool learns from is chosen when they are read.
//! Files of positions hold positions already chosen, by the run that wrote
//! them, and are read whole.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};

use kiln::cli::{ArgError, Args};
use kiln::eval::score::TB_BOUND;
use kiln_board::{Board, CastleSide, Color, ColoredPiece, PieceKind, Square};
use kiln_format::game::{GameFileError, GameReader};
use kiln_format::marlin::{DataKind, PositionReader, detect};
use kiln_format::record::{self as format, BadRecord, Reader};
pub use kiln_format::record::{
    DataError, Existing, GameResult, RECORD_BYTES, game_marker, games_in, has_castling_rights,
    header, set_result,
};
use kiln_format::{FileAction, FileError};

use crate::games::{self, Ply};

/// A position that has no record: castling with a rook outside its corner
/// (Chess960).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotStandardCastling;

impl fmt::Display for NotStandardCastling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("castling rights with a rook outside its corner cannot be stored")
    }
}

impl std::error::Error for NotStandardCastling {}

/// The record of a position, its search score (centipawns, White's view,
/// saturated to the i16 range) and its game's result.
///
/// # Errors
/// [`NotStandardCastling`] for a Chess960 position with castling rights.
pub fn encode(
    board: &Board,
    white_score: i32,
    result: GameResult,
) -> Result<[u8; RECORD_BYTES], NotStandardCastling> {
    // The same men, side and clocks a game file packs; only castling is
    // stored differently (corner bits here).
    let fields = crate::games::fields(board);
    let position = format::Position {
        men: fields.men,
        black_to_move: fields.black_to_move,
        en_passant: fields.en_passant,
        halfmove_clock: fields.halfmove_clock,
        fullmove_number: fields.fullmove_number,
        castling: castling_bits(board)?,
    };
    // A board always has two kings and at most 32 men on distinct squares:
    // the only record it cannot make is of Chess960 castling, refused above.
    format::encode(&position, white_score, result).map_err(|_| NotStandardCastling)
}

/// The rights as bits 0..4 (White short, White long, Black short, Black
/// long), if every right's rook is in its corner.
fn castling_bits(board: &Board) -> Result<u8, NotStandardCastling> {
    let mut bits = 0;
    let corners = [
        (Color::White, CastleSide::Short, Square::H1),
        (Color::White, CastleSide::Long, Square::A1),
        (Color::Black, CastleSide::Short, Square::H8),
        (Color::Black, CastleSide::Long, Square::A8),
    ];
    for (bit, (color, side, corner)) in corners.into_iter().enumerate() {
        if let Some(rook) = board.castling_rook(color, side) {
            if rook != corner {
                return Err(NotStandardCastling);
            }
            bits |= 1 << bit;
        }
    }
    Ok(bits)
}

/// What a record holds, the position as a board.
#[derive(Clone, Debug)]
pub enum Record {
    /// A position.
    Position {
        /// The position (boxed: a board is large beside a marker).
        board: Box<Board>,
        /// The search score in centipawns, White's view.
        white_score: i32,
        /// The game's result.
        result: GameResult,
    },
    /// The end of a game.
    GameEnd {
        /// The game's number.
        game: u64,
        /// The seed it was played with.
        seed: u64,
        /// Its result.
        result: GameResult,
    },
}

/// Reads a record, checking that its position is legal.
///
/// # Errors
/// A [`BadRecord`] when the bytes are not a record this version writes or
/// not a position the board accepts.
pub fn decode(record: &[u8; RECORD_BYTES]) -> Result<Record, BadRecord> {
    match format::decode(record)? {
        format::Record::GameEnd { game, seed, result } => {
            Ok(Record::GameEnd { game, seed, result })
        }
        format::Record::Position {
            position,
            white_score,
            result,
        } => {
            let fen = position.fen();
            let board =
                Board::from_fen(&fen).map_err(|error| BadRecord(format!("{fen}: {error}")))?;
            Ok(Record::Position {
                board: Box::new(board),
                white_score,
                result,
            })
        }
    }
}

/// The men of a position record as (piece, square) pairs in ascending
/// square order, read straight from its bytes without building a
/// [`Board`] (the trainer's inputs).
pub fn pieces(record: &[u8; RECORD_BYTES]) -> impl Iterator<Item = (ColoredPiece, Square)> + '_ {
    format::men(record).filter_map(|man| {
        let color = if man.black {
            Color::Black
        } else {
            Color::White
        };
        let kind = *PieceKind::ALL.get(usize::from(man.kind))?;
        let square = Square::from_index(man.square)?;
        Some((ColoredPiece::new(color, kind), square))
    })
}

/// The side to move of a position record.
pub fn side_to_move(record: &[u8; RECORD_BYTES]) -> Color {
    if format::black_to_move(record) {
        Color::Black
    } else {
        Color::White
    }
}

/// Which positions of a game file the readers hand on: each game's
/// every ply is stored, and these settings choose the positions a tool
/// learns from. The defaults keep quiet positions from past the opening,
/// as self-play kept them when it wrote positions instead of games, and as
/// the field's trainers filter games (viriformat's filter). Files of
/// positions are read whole: their positions were chosen when written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadFilter {
    /// Skip each game's first `min_ply` plies. A stored game starts after
    /// its opening and random plies (8 by default), so the default 8 skips
    /// what self-play skipped before it stored games, and lands, with the
    /// default random plies from the start position, where viriformat's
    /// default `min_ply` of 16 (counted from the initial position) does.
    pub min_ply: usize,
    /// Keep positions in check (default: skipped, as their score is about
    /// the escape, not the position).
    pub keep_check: bool,
    /// Keep positions whose played move is noisy, a capture (en passant
    /// too) or a promotion (default: skipped, as the score of a position
    /// with a capture pending is the capture's, not the quiet evaluation's
    /// a network or weights can learn).
    pub keep_noisy: bool,
    /// Skip positions whose score, either way, is this or more: mates and
    /// tablebase wins are not centipawns. Always set; the default is
    /// [`TB_BOUND`] (31 743), below Kiln's tablebase band, whose mates
    /// start at `MATE_BOUND` (31 872).
    pub decisive_score: i32,
    /// Skip positions whose score, either way, is above this (default: no
    /// limit, as self-play kept every score but mates).
    pub max_score: Option<i32>,
    /// Skip positions with fewer men on the board (default 2: none
    /// skipped; the tuner and the trainer skip the endgames the endgame
    /// table evaluates themselves).
    pub min_men: u32,
}

impl Default for LoadFilter {
    fn default() -> Self {
        LoadFilter {
            min_ply: 8,
            keep_check: false,
            keep_noisy: false,
            decisive_score: TB_BOUND,
            max_score: None,
            min_men: 2,
        }
    }
}

/// The usage lines of the load filter's options, for the commands that
/// read game files (a macro, so that each command's usage text is one
/// `concat!`ed constant).
macro_rules! load_filter_usage {
    () => {
        "  --min-ply <n>            skip each game's first n plies (default 8)
  --keep-check             keep positions in check (skipped by default)
  --keep-noisy             keep positions whose move captures (en passant
                           too) or promotes (skipped by default)
  --max-score <cp>         skip positions scored above cp either way
                           (default: no limit; mate and tablebase scores are
                           always skipped)
  --min-men <n>            skip positions with fewer men on the board (default 2)
"
    };
}
pub(crate) use load_filter_usage;

impl LoadFilter {
    /// Reads a load-filter option of a command line, if `flag` is one:
    /// returns whether it was.
    ///
    /// # Errors
    /// An [`ArgError`] for a value out of range.
    pub fn option(&mut self, flag: &str, args: &mut Args) -> Result<bool, ArgError> {
        match flag {
            "--min-ply" => self.min_ply = args.number(flag, 0, 10_000)? as usize,
            "--keep-check" => self.keep_check = true,
            "--keep-noisy" => self.keep_noisy = true,
            "--max-score" => {
                self.max_score = Some(args.number(flag, 0, i16::MAX as u64)? as i32);
            }
            "--min-men" => self.min_men = args.number(flag, 2, 32)? as u32,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Whether the position of a replayed ply is read.
    pub fn keeps(&self, ply: &Ply) -> bool {
        let score = i32::from(ply.white_score).abs();
        // The cheap tests first: the move generator is not needed for them.
        ply.index >= self.min_ply
            && score < self.decisive_score
            && self.max_score.is_none_or(|max| score <= max)
            && (self.keep_noisy || !(ply.mv.is_capture() || ply.mv.is_promotion()))
            && ply.board.occupied().count() >= self.min_men
            && (self.keep_check || !ply.board.in_check())
    }
}

/// Refuses a load filter other than the default when none of `paths` is
/// a game file: the filter chooses positions as games are replayed, and
/// files of positions are read whole, so it would go unused.
///
/// # Errors
/// A [`DataError`] naming the first file, or one that cannot be read.
pub fn check_filter_applies(paths: &[&str], filter: &LoadFilter) -> Result<(), DataError> {
    if *filter == LoadFilter::default() {
        return Ok(());
    }
    for path in paths {
        if detect(path)? == DataKind::Games {
            return Ok(());
        }
    }
    Err(DataError::Format {
        path: paths
            .first()
            .map_or_else(String::new, |path| path.to_string()),
        detail: "the load-filter options (--min-ply, --max-score, ...) choose the positions of \
                 game files, and no data file here is one"
            .into(),
    })
}

/// What [`read_positions`] hands on for each position.
#[derive(Clone, Debug)]
pub struct DataPosition {
    /// The position.
    pub board: Board,
    /// The game's result as White's score: 0, ½ or 1.
    pub result: f64,
    /// The search score in centipawns, White's view, when the data has one.
    pub white_score: Option<f64>,
}

/// What [`read_positions_filtered`] hands on for each position: the
/// board is borrowed (a game's replay goes on from it).
#[derive(Clone, Copy, Debug)]
pub struct Seen<'a> {
    /// The position.
    pub board: &'a Board,
    /// The game's result as White's score: 0, ½ or 1.
    pub result: f64,
    /// The search score in centipawns, White's view, when the data has one.
    pub white_score: Option<f64>,
}

/// What [`read_positions_filtered`] counted besides the positions it
/// handed on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadCounts {
    /// Records, positions or lines that could not be read as a position
    /// (game markers, blank lines and `#` comments are not counted), and a
    /// game cut short at the end of a game file (a self-play run killed
    /// while writing it).
    pub bad: u64,
    /// Positions of game files the load filter left out.
    pub filtered: u64,
}

/// Reads every position of a data file of any kind, game files through
/// the default [`LoadFilter`], handing each to `each` until it returns
/// `false`; returns the number of records or lines that could not be read
/// as a position ([`ReadCounts::bad`]).
///
/// # Errors
/// As [`read_positions_filtered`].
pub fn read_positions(
    path: &str,
    mut each: impl FnMut(DataPosition) -> bool,
) -> Result<u64, DataError> {
    let counts = read_positions_filtered(path, &LoadFilter::default(), |seen| {
        each(DataPosition {
            board: seen.board.clone(),
            result: seen.result,
            white_score: seen.white_score,
        })
    })?;
    Ok(counts.bad)
}

/// Reads the positions of a data file of any kind (told apart by its first
/// bytes), game files through `filter`, handing each to `each` until it
/// returns `false`.
///
/// # Errors
/// A [`DataError`] naming the file when it cannot be read, is binary data
/// of another format version, or (a game file) holds a corrupt game or a
/// move that is not legal where it is played (with the game's byte offset
/// and the ply).
pub fn read_positions_filtered(
    path: &str,
    filter: &LoadFilter,
    mut each: impl FnMut(Seen<'_>) -> bool,
) -> Result<ReadCounts, DataError> {
    let mut counts = ReadCounts::default();
    match detect(path)? {
        DataKind::Games => read_games(path, filter, &mut counts, &mut each)?,
        DataKind::Marlinformat => {
            let mut reader = PositionReader::open(path)?;
            while let Some(packed) = reader.next_position()? {
                // The reader checked the result byte.
                let result = packed.result().map_or(0.5, GameResult::white_points);
                let Ok(board) = games::unpack(&packed) else {
                    counts.bad += 1;
                    continue;
                };
                let seen = Seen {
                    board: &board,
                    result,
                    white_score: Some(f64::from(packed.white_score())),
                };
                if !each(seen) {
                    break;
                }
            }
        }
        DataKind::Records => {
            let mut reader = Reader::open(path)?;
            while let Some(record) = reader.next_record()? {
                match decode(&record) {
                    Ok(Record::Position {
                        board,
                        white_score,
                        result,
                    }) => {
                        let seen = Seen {
                            board: &board,
                            result: result.white_points(),
                            white_score: Some(f64::from(white_score)),
                        };
                        if !each(seen) {
                            break;
                        }
                    }
                    Ok(Record::GameEnd { .. }) => {}
                    Err(_) => counts.bad += 1,
                }
            }
        }
        DataKind::Text => {
            let file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
            for line in BufReader::new(file).lines() {
                let line = line.map_err(FileError::on(FileAction::Read, path))?;
                // Blank lines and `#` comments (`kiln-workshop label` writes
                // one for a position its engine gave no score) carry no
                // position.
                if line.trim().is_empty() || line.starts_with('#') {
                    continue;
                }
                let Some((board, result, white_score)) = parse_text_line(&line) else {
                    counts.bad += 1;
                    continue;
                };
                let seen = Seen {
                    board: &board,
                    result,
                    white_score,
                };
                if !each(seen) {
                    break;
                }
            }
        }
    }
    Ok(counts)
}

/// The positions of a game file that `filter` keeps, for
/// [`read_positions_filtered`].
fn read_games(
    path: &str,
    filter: &LoadFilter,
    counts: &mut ReadCounts,
    each: &mut impl FnMut(Seen<'_>) -> bool,
) -> Result<(), DataError> {
    let mut reader = GameReader::open(path)?;
    loop {
        let offset = reader.offset();
        let game = match reader.next_game() {
            Ok(Some(game)) => game,
            Ok(None) => break,
            // A game cut short at the end: a self-play run killed while
            // writing it, which a resumed run plays again. The games
            // before it are whole.
            Err(GameFileError::Truncated { .. }) => {
                counts.bad += 1;
                break;
            }
            Err(error) => return Err(error.into()),
        };
        let bad_game = |detail: String| DataError::Format {
            path: path.to_string(),
            detail: format!("the game at byte {offset}: {detail}"),
        };
        let result = game
            .result()
            .ok_or_else(|| bad_game("no result".into()))?
            .white_points();
        let mut going = true;
        games::replay(&game, |ply| {
            if !going {
                return;
            }
            if !filter.keeps(ply) {
                counts.filtered += 1;
                return;
            }
            going = each(Seen {
                board: &ply.board,
                result,
                white_score: Some(f64::from(ply.white_score)),
            });
        })
        .map_err(|error| bad_game(error.to_string()))?;
        if !going {
            break;
        }
    }
    Ok(())
}

/// Parses one text line (`<fen> | <result> | <score>`, as `kiln-workshop
/// datagen --text` writes) into a board, White's result and White's score.
/// The score may be left out (or empty); one that is there must be a
/// finite number, and anything after it makes the line bad (`None`), so
/// that a damaged line is counted, not read as one without a score.
pub fn parse_text_line(line: &str) -> Option<(Board, f64, Option<f64>)> {
    let mut fields = line.split('|').map(str::trim);
    let board = Board::from_fen(fields.next()?).ok()?;
    let result = match fields.next()? {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        _ => return None,
    };
    let score = match fields.next() {
        None | Some("") => None,
        Some(text) => Some(text.parse::<f64>().ok().filter(|score| score.is_finite())?),
    };
    if fields.next().is_some() {
        return None;
    }
    Some((board, result, score))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 99 300",
    ];

    #[test]
    fn positions_round_trip() {
        for (i, fen) in FENS.into_iter().enumerate() {
            let board = Board::from_fen(fen).unwrap();
            let result = [GameResult::Loss, GameResult::Draw, GameResult::Win][i % 3];
            let score = [-40_000, -12, 0, 317, 40_000][i];
            let record = encode(&board, score, result).unwrap();
            let Ok(Record::Position {
                board: back,
                white_score,
                result: back_result,
            }) = decode(&record)
            else {
                panic!("{fen} did not decode");
            };
            assert_eq!(back.to_fen(), fen);
            assert_eq!(back_result, result);
            assert_eq!(white_score, score.clamp(-32_768, 32_767));
        }
    }

    #[test]
    fn markers_and_bad_records() {
        let marker = game_marker(41, 7, GameResult::Draw);
        assert!(matches!(
            decode(&marker),
            Ok(Record::GameEnd {
                game: 41,
                seed: 7,
                result: GameResult::Draw
            })
        ));
        let mut bad = encode(&Board::startpos(), 0, GameResult::Win).unwrap();
        bad[30] = 3;
        assert!(decode(&bad).is_err());
        let mut no_king = encode(&Board::startpos(), 0, GameResult::Win).unwrap();
        no_king[8] = 0x66; // a1 and b1 black kings: three kings
        assert!(decode(&no_king).is_err());
    }

    #[test]
    fn pieces_and_side_to_move_read_without_a_board() {
        for fen in FENS {
            let board = Board::from_fen(fen).unwrap();
            let record = encode(&board, 0, GameResult::Draw).unwrap();
            let expected: Vec<(ColoredPiece, Square)> = board
                .occupied()
                .into_iter()
                .filter_map(|square| board.piece_on(square).map(|piece| (piece, square)))
                .collect();
            assert_eq!(pieces(&record).collect::<Vec<_>>(), expected, "{fen}");
            assert_eq!(side_to_move(&record), board.side_to_move());
        }
        assert_eq!(pieces(&game_marker(1, 2, GameResult::Win)).count(), 0);
    }

    #[test]
    fn chess960_castling_is_refused() {
        let board = Board::from_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").unwrap();
        assert_eq!(
            encode(&board, 0, GameResult::Draw),
            Err(NotStandardCastling)
        );
    }

    #[test]
    fn files_read_back_and_resume() {
        let dir = std::env::temp_dir().join(format!("kiln-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let path = path.to_str().unwrap();
        let mut bytes = header().to_vec();
        for (game, fen) in FENS.iter().enumerate().take(3) {
            let board = Board::from_fen(fen).unwrap();
            bytes.extend(encode(&board, 5, GameResult::Win).unwrap());
            bytes.extend(game_marker(game as u64 * 2, 9, GameResult::Win));
        }
        let whole = bytes.len() as u64;
        // A game cut short: a position without its marker, half a record.
        bytes.extend(encode(&Board::startpos(), 1, GameResult::Draw).unwrap());
        bytes.extend([1u8; 7]);
        std::fs::write(path, &bytes).unwrap();
        let mut read = Vec::new();
        let bad = read_positions(path, |p| {
            read.push(p.board.to_fen());
            true
        })
        .unwrap();
        assert_eq!((read.len(), bad), (4, 0));
        let existing = games_in(path, 9).unwrap();
        assert_eq!(
            existing,
            Existing {
                games: vec![0, 2, 4],
                positions: 3,
                length: whole
            }
        );
        assert!(games_in(path, 8).is_err(), "another seed's file");
        bytes[8] = 2; // version 2
        std::fs::write(path, &bytes).unwrap();
        assert!(matches!(
            read_positions(path, |_| true),
            Err(DataError::Format { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The Scandinavian, `1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Bb5+ c6 5. Bxc6+
    /// bxc6 6. Nf3`, scored 2000 at ply 4 and a mate at ply 5.
    fn scandinavian() -> kiln_format::game::Game {
        let line = [
            "e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "f1b5", "c7c6", "b5c6", "b7c6", "g1f3",
        ];
        let mut board = Board::startpos();
        let mut builder = games::GameBuilder::new(&board);
        for (index, text) in line.iter().enumerate() {
            let mv = kiln_board::parse_uci_move(&board, text).unwrap();
            let score = match index {
                4 => 2000,
                5 => -31_800,
                _ => 10 * index as i32,
            };
            builder.push(mv, score);
            board.make_move(mv);
        }
        builder.finish(GameResult::Win)
    }

    /// The indices of the plies of [`scandinavian`] that `filter` keeps.
    fn kept(filter: &LoadFilter) -> Vec<usize> {
        let mut kept = Vec::new();
        games::replay(&scandinavian(), |ply| {
            if filter.keeps(ply) {
                kept.push(ply.index);
            }
        })
        .unwrap();
        kept
    }

    #[test]
    fn the_load_filter_skips_what_it_says() {
        let all = LoadFilter {
            min_ply: 0,
            ..LoadFilter::default()
        };
        // Captures (2, 3, 8, 9), the mate score (5), in check (7, 9).
        assert_eq!(kept(&all), [0, 1, 4, 6, 10]);
        assert_eq!(kept(&LoadFilter::default()), [10]);
        let noisy = LoadFilter {
            keep_noisy: true,
            ..all.clone()
        };
        assert_eq!(kept(&noisy), [0, 1, 2, 3, 4, 6, 8, 10]);
        let check = LoadFilter {
            keep_check: true,
            ..noisy.clone()
        };
        assert_eq!(kept(&check), [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]);
        let max_score = LoadFilter {
            max_score: Some(1999),
            ..all.clone()
        };
        assert_eq!(kept(&max_score), [0, 1, 6, 10]);
        let full_board = LoadFilter {
            min_men: 32,
            ..all.clone()
        };
        assert_eq!(kept(&full_board), [0, 1]);
        let decisive = LoadFilter {
            decisive_score: 40_000,
            ..all
        };
        assert_eq!(kept(&decisive), [0, 1, 4, 5, 6, 10]);
    }

    #[test]
    fn game_files_are_read_through_the_filter() {
        use kiln_format::game::{GameWriter, Header};
        let dir = std::env::temp_dir().join(format!("kiln-positions-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.games");
        let game = scandinavian();
        let mut writer = GameWriter::create(
            &path,
            Header {
                shard_seed: Some(4),
                recipe: None,
            },
        )
        .unwrap();
        writer.write_game(&game).unwrap();
        writer.write_game(&game).unwrap();
        writer.flush().unwrap();
        drop(writer);
        // A game cut short at the end: counted as bad, the rest read.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(&game.to_bytes()[..40]);
        std::fs::write(&path, &bytes).unwrap();
        let path = path.to_str().unwrap();
        let all = LoadFilter {
            min_ply: 0,
            ..LoadFilter::default()
        };
        let mut seen = Vec::new();
        let counts = read_positions_filtered(path, &all, |position| {
            seen.push((
                position.board.to_fen(),
                position.result,
                position.white_score,
            ));
            true
        })
        .unwrap();
        assert_eq!(
            counts,
            ReadCounts {
                bad: 1,
                filtered: 12
            }
        );
        assert_eq!(seen.len(), 10);
        assert_eq!(seen[0], (kiln_board::STARTPOS.to_string(), 1.0, Some(0.0)));
        assert_eq!((seen[1].2, seen[2].2), (Some(10.0), Some(2000.0)));
        // The default filter, and a stop asked for.
        let mut default_read = 0;
        assert_eq!(
            read_positions(path, |_| {
                default_read += 1;
                true
            })
            .unwrap(),
            1
        );
        assert_eq!(default_read, 2);
        let mut first = 0;
        read_positions_filtered(path, &all, |_| {
            first += 1;
            first < 3
        })
        .unwrap();
        assert_eq!(first, 3);

        // A move that is not legal names the game's offset and the ply.
        let mut bytes = std::fs::read(path).unwrap();
        let second = kiln_format::game::HEADER_BYTES + game.to_bytes().len();
        // The second game's fourth move (d8d5) becomes d8d4, not legal.
        let at = second + 32 + 3 * 4;
        let mv = kiln_format::game::PackedMove::new(59, 27, kiln_format::game::MoveKind::Normal)
            .unwrap();
        bytes[at..at + 2].copy_from_slice(&mv.0.to_le_bytes());
        std::fs::write(path, &bytes).unwrap();
        let error = read_positions(path, |_| true).unwrap_err().to_string();
        assert!(
            error.contains("data.games")
                && error.contains(&format!("the game at byte {second}: ply 4")),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
