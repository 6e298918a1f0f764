//! Training records as the engine's boards: [`kiln_format::record`] owns
//! the bytes, and this module turns a [`Board`] into a record and back
//! (through the board's own FEN parser, so a record that is no legal
//! position is refused), and reads the positions of a data file in either
//! form, binary or the text lines `<fen> | <result> | <score>` that
//! `kiln-workshop datagen --text` writes.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader};

use kiln::board::{Board, CastleSide, Color, ColoredPiece, PieceKind, Square};
use kiln_format::record::{self as format, BadRecord, Man, Reader};
pub use kiln_format::record::{
    DataError, Existing, GameResult, RECORD_BYTES, game_marker, games_in, has_castling_rights,
    header, set_result,
};
use kiln_format::{FileAction, FileError};

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
    let men = board
        .occupied()
        .into_iter()
        .filter_map(|square| {
            board.piece_on(square).map(|piece| Man {
                square: square.index() as u8,
                black: piece.color() == Color::Black,
                kind: piece.kind() as u8,
            })
        })
        .collect();
    let position = format::Position {
        men,
        black_to_move: board.side_to_move() == Color::Black,
        en_passant: board.en_passant().map(|square| square.index() as u8),
        halfmove_clock: u32::from(board.halfmove_clock()),
        fullmove_number: board.fullmove_number(),
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

/// Reads every position of a data file, binary or text (told apart by the
/// magic), handing each to `each` until it returns `false`; returns the
/// number of records or lines that could not be read as a position
/// (game markers, blank lines and `#` comments are not counted).
///
/// # Errors
/// A [`DataError`] when the file cannot be read or is binary data of
/// another format version.
pub fn read_positions(
    path: &str,
    mut each: impl FnMut(DataPosition) -> bool,
) -> Result<u64, DataError> {
    let mut bad = 0;
    if format::is_binary(path)? {
        let mut reader = Reader::open(path)?;
        while let Some(record) = reader.next_record()? {
            match decode(&record) {
                Ok(Record::Position {
                    board,
                    white_score,
                    result,
                }) => {
                    let position = DataPosition {
                        board: *board,
                        result: result.white_score(),
                        white_score: Some(f64::from(white_score)),
                    };
                    if !each(position) {
                        break;
                    }
                }
                Ok(Record::GameEnd { .. }) => {}
                Err(_) => bad += 1,
            }
        }
    } else {
        let file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
        for line in BufReader::new(file).lines() {
            let line = line.map_err(FileError::on(FileAction::Read, path))?;
            // Blank lines and `#` comments (`kiln-workshop label` writes one
            // for a position its engine gave no score) carry no position.
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((board, result, white_score)) = parse_text_line(&line) else {
                bad += 1;
                continue;
            };
            if !each(DataPosition {
                board,
                result,
                white_score,
            }) {
                break;
            }
        }
    }
    Ok(bad)
}

/// Parses one text line (`<fen> | <result> | <score>`, as `kiln-workshop
/// datagen --text` writes) into a board, White's result and White's score.
pub fn parse_text_line(line: &str) -> Option<(Board, f64, Option<f64>)> {
    let mut fields = line.split('|').map(str::trim);
    let board = Board::from_fen(fields.next()?).ok()?;
    let result = match fields.next()? {
        "1.0" | "1" | "1-0" => 1.0,
        "0.5" | "1/2-1/2" => 0.5,
        "0.0" | "0" | "0-1" => 0.0,
        _ => return None,
    };
    let score = fields.next().and_then(|s| s.parse::<f64>().ok());
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
}
