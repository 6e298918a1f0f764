//! The binary format of training data: a 16-byte header, then 32-byte
//! records, each a position with Kiln's own search score and the result of
//! the game it was played in.
//!
//! ```text
//! header  0..8   magic "KILNDATA"
//!         8..10  format version, u16 little-endian (1)
//!        10..12  record size in bytes, u16 (32)
//!        12..16  zero
//! record  0..8   occupancy: a u64 bitboard, bit n = square n (a1 = 0)
//!         8..24  the occupied squares' pieces in ascending square order,
//!                a nibble each, low nibble first: colour·8 + kind
//!                (kind 0 pawn … 5 king; colour 0 White, 1 Black)
//!        24      side to move in bit 7 (1 = Black); bits 0..7 the
//!                en-passant square, 64 for none
//!        25      halfmove clock (saturated at 255)
//!        26..28  fullmove number, u16
//!        28..30  the search score in centipawns, White's view, i16
//!        30      the game's result for White: 0 loss, 1 draw, 2 win
//!        31      castling rights: bit 0 White short, 1 White long,
//!                2 Black short, 3 Black long
//! ```
//!
//! A record whose occupancy is zero (no position has no kings) marks the
//! end of a game instead: bytes 8..16 hold the game's number and 16..24 the
//! `kiln datagen` seed, u64s, and byte 30 its result. These markers make a
//! file appendable and resumable: `kiln datagen --append` reads which games
//! of the seed are already in the file and plays only the others, so an
//! interrupted run continues where it stopped and the finished file is the
//! same set of games whatever the interruptions.
//!
//! Castling rights are stored for standard chess only (rooks in their
//! corners), the positions `kiln datagen` plays.
//!
//! The text form, one `<fen> | <result> | <score>` line each, stays for
//! inspection (`kiln datagen --text`); every reader of training data takes
//! both ([`read_positions`]).

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};

use super::file_error::{FileAction, FileError};
use crate::board::{Board, CastleSide, Color, Piece, PieceKind, Square};

/// The first eight bytes of a binary data file.
pub const MAGIC: [u8; 8] = *b"KILNDATA";
/// The format version this module writes and reads.
pub const VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 32;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;

/// The en-passant field's value when there is no en-passant square.
const NO_EP: u8 = 64;

/// The header of a version-1 file.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut header = [0u8; HEADER_BYTES];
    header[..8].copy_from_slice(&MAGIC);
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    header[10..12].copy_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
    header
}

/// A game's result from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White lost.
    Loss = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    Win = 2,
}

impl GameResult {
    /// The result as White's score: 0, ½ or 1.
    pub fn white_score(self) -> f64 {
        f64::from(self as u8) / 2.0
    }

    /// The result of a byte, if it is 0, 1 or 2.
    fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

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
pub fn encode(
    board: &Board,
    white_score: i32,
    result: GameResult,
) -> Result<[u8; RECORD_BYTES], NotStandardCastling> {
    let mut record = [0u8; RECORD_BYTES];
    let occupied = board.occupied();
    record[..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (slot, square) in occupied.into_iter().enumerate() {
        // 32 pieces at most: both kings plus 30 others.
        let piece = board
            .piece_on(square)
            .map_or(0, |p| (p.color() as u8) * 8 + p.kind() as u8);
        record[8 + slot / 2] |= piece << (4 * (slot % 2));
    }
    let ep = board
        .en_passant()
        .map_or(NO_EP, |square| square.index() as u8);
    let black = u8::from(board.side_to_move() == Color::Black);
    record[24] = black << 7 | ep;
    record[25] = board.halfmove_clock().min(255) as u8;
    record[26..28].copy_from_slice(&board.fullmove_number().to_le_bytes());
    let score = white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    record[28..30].copy_from_slice(&score.to_le_bytes());
    set_result(&mut record, result);
    record[31] = castling_bits(board)?;
    Ok(record)
}

/// Sets the game's result in a record (for a position encoded before its
/// game ended).
pub fn set_result(record: &mut [u8; RECORD_BYTES], result: GameResult) {
    record[30] = result as u8;
}

/// The rights as bits 0..4 (White short, White long, Black short, Black
/// long), if every right's rook is in its corner.
fn castling_bits(board: &Board) -> Result<u8, NotStandardCastling> {
    let mut bits = 0;
    let corners = [
        (Color::White, CastleSide::Short, "h1"),
        (Color::White, CastleSide::Long, "a1"),
        (Color::Black, CastleSide::Short, "h8"),
        (Color::Black, CastleSide::Long, "a8"),
    ];
    for (bit, (color, side, corner)) in corners.into_iter().enumerate() {
        if let Some(rook) = board.castling_rook(color, side) {
            if corner.parse::<Square>().ok() != Some(rook) {
                return Err(NotStandardCastling);
            }
            bits |= 1 << bit;
        }
    }
    Ok(bits)
}

/// The end-of-game marker of game `game` of `seed`.
pub fn game_marker(game: u64, seed: u64, result: GameResult) -> [u8; RECORD_BYTES] {
    let mut record = [0u8; RECORD_BYTES];
    record[8..16].copy_from_slice(&game.to_le_bytes());
    record[16..24].copy_from_slice(&seed.to_le_bytes());
    record[30] = result as u8;
    record
}

/// What a record holds.
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

/// A record that does not describe a legal position or game marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRecord(pub String);

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad record: {}", self.0)
    }
}

impl std::error::Error for BadRecord {}

/// Reads a record.
///
/// # Errors
/// A [`BadRecord`] when the bytes are not a record this version writes.
pub fn decode(record: &[u8; RECORD_BYTES]) -> Result<Record, BadRecord> {
    let word = |range: std::ops::Range<usize>| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&record[range]);
        u64::from_le_bytes(bytes)
    };
    let result = GameResult::from_byte(record[30])
        .ok_or_else(|| BadRecord(format!("result byte {}", record[30])))?;
    let occupied = word(0..8);
    if occupied == 0 {
        return Ok(Record::GameEnd {
            game: word(8..16),
            seed: word(16..24),
            result,
        });
    }
    if occupied.count_ones() > 32 {
        return Err(BadRecord(format!("{} pieces", occupied.count_ones())));
    }
    // The position as FEN, so that the board's own parser checks it.
    let mut squares = [None::<Piece>; 64];
    for (square, code) in piece_codes(record) {
        let piece = piece_of(code).ok_or_else(|| BadRecord(format!("piece code {code}")))?;
        squares[square.index()] = Some(piece);
    }
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match squares[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece.to_char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if side_to_move(record) == Color::Black {
        " b "
    } else {
        " w "
    });
    let castling: String = "KQkq"
        .chars()
        .enumerate()
        .filter(|(bit, _)| record[31] >> bit & 1 == 1)
        .map(|(_, c)| c)
        .collect();
    fen.push_str(if castling.is_empty() { "-" } else { &castling });
    let ep = record[24] & 0x7F;
    match ep {
        NO_EP => fen.push_str(" -"),
        square => {
            let name = Square::from_index(square)
                .ok_or_else(|| BadRecord(format!("en-passant square {square}")))?;
            fen.push(' ');
            fen.push_str(&name.to_string());
        }
    }
    let fullmove = u16::from_le_bytes([record[26], record[27]]);
    fen.push_str(&format!(" {} {}", record[25], fullmove));
    let board = Board::from_fen(&fen).map_err(|error| BadRecord(format!("{fen}: {error}")))?;
    Ok(Record::Position {
        board: Box::new(board),
        white_score: i32::from(i16::from_le_bytes([record[28], record[29]])),
        result,
    })
}

/// The pieces of a position record as (piece, square) pairs in ascending
/// square order, read straight from its bytes without building a
/// [`Board`] (the trainer's inputs). A nibble that names no piece, which
/// [`decode`] rejects, is left out; a marker (zero occupancy) has none.
pub fn pieces(record: &[u8; RECORD_BYTES]) -> impl Iterator<Item = (Piece, Square)> + '_ {
    piece_codes(record).filter_map(|(square, code)| piece_of(code).map(|piece| (piece, square)))
}

/// The occupied squares of a record in ascending order, each with its
/// piece's nibble (at most 32: the nibbles run out there).
fn piece_codes(record: &[u8; RECORD_BYTES]) -> impl Iterator<Item = (Square, u8)> + '_ {
    let mut occupied = [0u8; 8];
    occupied.copy_from_slice(&record[..8]);
    let mut bits = u64::from_le_bytes(occupied);
    (0..32).map_while(move |slot| {
        if bits == 0 {
            return None;
        }
        let square = Square::from_index_masked(bits.trailing_zeros());
        bits &= bits - 1;
        Some((square, (record[8 + slot / 2] >> (4 * (slot % 2))) & 0xF))
    })
}

/// The piece a nibble names (colour·8 + kind), if any.
fn piece_of(code: u8) -> Option<Piece> {
    let color = if code >> 3 == 0 {
        Color::White
    } else {
        Color::Black
    };
    let kind = *PieceKind::ALL.get(usize::from(code & 7))?;
    Some(Piece::new(color, kind))
}

/// The side to move of a position record.
pub fn side_to_move(record: &[u8; RECORD_BYTES]) -> Color {
    if record[24] >> 7 == 1 {
        Color::Black
    } else {
        Color::White
    }
}

/// Whether either side of a position record may still castle.
pub fn has_castling_rights(record: &[u8; RECORD_BYTES]) -> bool {
    record[31] & 0b1111 != 0
}

/// Why training data could not be read.
#[derive(Debug)]
pub enum DataError {
    /// The file could not be opened or read.
    File(FileError),
    /// A binary file of another format or version.
    Format {
        /// The file.
        path: String,
        /// What is wrong with its header.
        detail: String,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::File(error) => error.fmt(f),
            DataError::Format { path, detail } => write!(f, "'{path}': {detail}"),
        }
    }
}

impl std::error::Error for DataError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataError::File(error) => Some(error),
            DataError::Format { .. } => None,
        }
    }
}

impl From<FileError> for DataError {
    fn from(error: FileError) -> Self {
        DataError::File(error)
    }
}

/// Opens a binary data file and reads its header: the reader stands at
/// the first record.
fn open_binary(path: &str) -> Result<BufReader<File>, DataError> {
    let file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut header = [0u8; HEADER_BYTES];
    let truncated = match reader.read_exact(&mut header) {
        Ok(()) => false,
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => true,
        Err(error) => return Err(FileError::on(FileAction::Read, path)(error).into()),
    };
    if truncated || header[..8] != MAGIC {
        return Err(DataError::Format {
            path: path.to_string(),
            detail: "not a Kiln binary data file (no KILNDATA header)".into(),
        });
    }
    check_header(path, &header)?;
    Ok(reader)
}

/// Checks the version and record size of a header read from `path`.
fn check_header(path: &str, header: &[u8; HEADER_BYTES]) -> Result<(), DataError> {
    let version = u16::from_le_bytes([header[8], header[9]]);
    let size = u16::from_le_bytes([header[10], header[11]]);
    if version != VERSION || usize::from(size) != RECORD_BYTES {
        return Err(DataError::Format {
            path: path.to_string(),
            detail: format!(
                "data format version {version} with {size}-byte records; this Kiln reads \
                 version {VERSION} with {RECORD_BYTES}-byte records"
            ),
        });
    }
    Ok(())
}

/// Whether the file at `path` starts with the binary format's magic.
pub fn is_binary(path: &str) -> Result<bool, FileError> {
    let mut file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
    let mut magic = [0u8; 8];
    match file.read_exact(&mut magic) {
        Ok(()) => Ok(magic == MAGIC),
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(error) => Err(FileError::on(FileAction::Read, path)(error)),
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
    if is_binary(path)? {
        let mut reader = open_binary(path)?;
        let mut record = [0u8; RECORD_BYTES];
        loop {
            match read_record(&mut reader, &mut record) {
                Ok(true) => {}
                Ok(false) => break,
                Err(error) => return Err(FileError::on(FileAction::Read, path)(error).into()),
            }
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
            // Blank lines and `#` comments (`kiln label` writes one for a
            // position its engine gave no score) carry no position.
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

/// Reads one whole record; `Ok(false)` at the end of the file (a partial
/// record at the end, from a write that was cut short, ends it too).
fn read_record(reader: &mut impl Read, record: &mut [u8; RECORD_BYTES]) -> std::io::Result<bool> {
    match reader.read_exact(record) {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(error) => Err(error),
    }
}

/// What a binary data file already holds, for `kiln datagen --append`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Existing {
    /// The numbers of the games it holds, ascending.
    pub games: Vec<u64>,
    /// The positions of those games.
    pub positions: u64,
    /// The length of the file up to its last end-of-game marker: what
    /// follows is a game cut short, dropped when the file is appended to.
    pub length: u64,
}

/// The games of `seed` already in a binary data file, from its end-of-game
/// markers.
///
/// # Errors
/// A [`DataError`] when the file cannot be read, is not binary data of
/// this version, or holds games of another seed.
pub fn games_in(path: &str, seed: u64) -> Result<Existing, DataError> {
    let mut reader = open_binary(path)?;
    let mut games = Vec::new();
    let (mut positions, mut positions_in_games) = (0, 0);
    let mut offset = HEADER_BYTES as u64;
    // Positions after the last marker belong to a game cut short: they
    // are dropped, and the game is played again.
    let mut last_marker = offset;
    let mut record = [0u8; RECORD_BYTES];
    while read_record(&mut reader, &mut record).map_err(FileError::on(FileAction::Read, path))? {
        offset += RECORD_BYTES as u64;
        if let Ok(Record::GameEnd {
            game, seed: found, ..
        }) = decode(&record)
        {
            if found != seed {
                return Err(DataError::Format {
                    path: path.to_string(),
                    detail: format!("holds games of seed {found}, not of seed {seed}"),
                });
            }
            games.push(game);
            last_marker = offset;
            positions_in_games = positions;
        } else {
            positions += 1;
        }
    }
    games.sort_unstable();
    games.dedup();
    Ok(Existing {
        games,
        positions: positions_in_games,
        length: last_marker,
    })
}

/// Parses one text line (`<fen> | <result> | <score>`, as `kiln datagen
/// --text` writes) into a board, White's result and White's score.
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
            let expected: Vec<(Piece, Square)> = board
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
