//! Training data: a 16-byte header, then 32-byte records, each a position
//! with Kiln's own search score and the result of the game it was played
//! in.
//!
//! ```text
//! header  0..8   magic "KILNDATA"
//!         8..10  format version, u16 little-endian (1)
//!        10..12  record size in bytes, u16 (32)
//!        12..16  zero
//! record  0..8   occupancy: a u64 bitboard, bit n = square n (a1 = 0)
//!         8..24  the occupied squares' men in ascending square order,
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
//! self-play seed, u64s, and byte 30 its result. These markers make a file
//! appendable and resumable: self-play reads which games of its seed are
//! already in the file ([`games_in`]) and plays only the others, so an
//! interrupted run continues where it stopped and the finished file is the
//! same set of games whatever the interruptions.
//!
//! Castling rights are stored for standard chess only (rooks in their
//! corners), the positions self-play plays.
//!
//! This module knows no board: a position is a list of [`Man`]s and a few
//! numbers ([`Position`]), and [`Position::fen`] is how a reader turns one
//! into the board of its choice.
//!
//! ```
//! use kiln_format::record::{self, GameResult, Man, Position, Record};
//!
//! let kings = Position {
//!     men: vec![Man { square: 4, black: false, kind: 5 }, Man { square: 60, black: true, kind: 5 }],
//!     black_to_move: false,
//!     en_passant: None,
//!     halfmove_clock: 0,
//!     fullmove_number: 1,
//!     castling: 0,
//! };
//! let bytes = record::encode(&kings, 12, GameResult::Draw).unwrap();
//! let Ok(Record::Position { position, white_score, .. }) = record::decode(&bytes) else { panic!() };
//! assert_eq!((position.fen(), white_score), ("4k3/8/8/8/8/8/8/4K3 w - - 0 1".to_string(), 12));
//! ```

use std::fmt;
use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use crate::file_error::{FileAction, FileError};

/// The first eight bytes of a binary data file.
pub const MAGIC: [u8; 8] = *b"KILNDATA";
/// The format version this module writes and reads.
pub const VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 32;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;
/// The most men a record holds: two kings and thirty others.
pub const MAX_MEN: usize = 32;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White lost.
    Loss = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    Win = 2,
}

impl GameResult {
    /// The result as White's points: 0, ½ or 1 (not a search score).
    pub fn white_points(self) -> f64 {
        f64::from(self as u8) / 2.0
    }

    /// The result a byte stores, if it is 0, 1 or 2.
    pub fn from_byte(byte: u8) -> Option<GameResult> {
        match byte {
            0 => Some(GameResult::Loss),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::Win),
            _ => None,
        }
    }
}

/// One man on the board: where it stands, its colour and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    /// The square, 0 (a1) to 63 (h8), rank by rank.
    pub square: u8,
    /// Whether the man is Black's.
    pub black: bool,
    /// The kind: 0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king.
    pub kind: u8,
}

impl Man {
    /// The man's FEN letter (upper case for White).
    pub fn letter(self) -> char {
        let letter = b"pnbrqk"[usize::from(self.kind.min(5))];
        char::from(if self.black {
            letter
        } else {
            letter.to_ascii_uppercase()
        })
    }
}

/// The piece-placement field of a FEN (rank 8 first) of some men; a man
/// on a square out of range is left out. Both position formats of this
/// crate print their FEN through it.
pub(crate) fn placement(men: impl IntoIterator<Item = Man>) -> String {
    let mut board = [None::<Man>; 64];
    for man in men {
        if let Some(slot) = board.get_mut(usize::from(man.square)) {
            *slot = Some(man);
        }
    }
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0u8;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(man) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(man.letter());
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
    fen
}

/// A position as a record stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Every man on the board (any order when encoding; ascending squares
    /// when decoded).
    pub men: Vec<Man>,
    /// Whether Black is to move.
    pub black_to_move: bool,
    /// The en-passant square, 0..64, if there is one.
    pub en_passant: Option<u8>,
    /// Halfmoves since the last capture or pawn move (stored saturated at
    /// 255).
    pub halfmove_clock: u32,
    /// The fullmove number.
    pub fullmove_number: u16,
    /// Castling rights: bit 0 White short (rook h1), 1 White long (a1),
    /// 2 Black short (h8), 3 Black long (a8).
    pub castling: u8,
}

impl Position {
    /// The position in Forsyth–Edwards Notation (castling as `KQkq`).
    pub fn fen(&self) -> String {
        let mut fen = placement(self.men.iter().copied());
        fen.push_str(if self.black_to_move { " b " } else { " w " });
        let castling: String = "KQkq"
            .chars()
            .enumerate()
            .filter(|(bit, _)| self.castling >> bit & 1 == 1)
            .map(|(_, c)| c)
            .collect();
        fen.push_str(if castling.is_empty() { "-" } else { &castling });
        match self.en_passant {
            Some(square) if square < 64 => {
                fen.push(' ');
                fen.push(char::from(b'a' + square % 8));
                fen.push(char::from(b'1' + square / 8));
            }
            _ => fen.push_str(" -"),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        fen
    }
}

/// Bytes that are not a record this version writes, or a position it
/// cannot store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadRecord(pub String);

impl fmt::Display for BadRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad record: {}", self.0)
    }
}

impl std::error::Error for BadRecord {}

/// The record of a position, its search score (centipawns, White's view,
/// saturated to the i16 range) and its game's result.
///
/// # Errors
/// A [`BadRecord`] for a position with no men or more than [`MAX_MEN`], two
/// men on one square, a square, kind or en-passant square out of range.
pub fn encode(
    position: &Position,
    white_score: i32,
    result: GameResult,
) -> Result<[u8; RECORD_BYTES], BadRecord> {
    let mut record = [0u8; RECORD_BYTES];
    let mut codes = [None::<u8>; 64];
    for man in &position.men {
        let slot = codes
            .get_mut(usize::from(man.square))
            .ok_or_else(|| BadRecord(format!("square {}", man.square)))?;
        if man.kind > 5 {
            return Err(BadRecord(format!("piece kind {}", man.kind)));
        }
        if slot.replace(u8::from(man.black) * 8 + man.kind).is_some() {
            return Err(BadRecord(format!("two men on square {}", man.square)));
        }
    }
    if position.men.is_empty() || position.men.len() > MAX_MEN {
        return Err(BadRecord(format!("{} men", position.men.len())));
    }
    let mut occupied = 0u64;
    for (slot, (square, code)) in codes
        .iter()
        .enumerate()
        .filter_map(|(square, code)| code.map(|code| (square, code)))
        .enumerate()
    {
        occupied |= 1 << square;
        record[8 + slot / 2] |= code << (4 * (slot % 2));
    }
    record[..8].copy_from_slice(&occupied.to_le_bytes());
    let ep = match position.en_passant {
        None => NO_EP,
        Some(square) if square < 64 => square,
        Some(square) => return Err(BadRecord(format!("en-passant square {square}"))),
    };
    record[24] = u8::from(position.black_to_move) << 7 | ep;
    record[25] = position.halfmove_clock.min(255) as u8;
    record[26..28].copy_from_slice(&position.fullmove_number.to_le_bytes());
    let score = white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    record[28..30].copy_from_slice(&score.to_le_bytes());
    set_result(&mut record, result);
    record[31] = position.castling & 0b1111;
    Ok(record)
}

/// Sets the game's result in a record (for a position encoded before its
/// game ended).
pub fn set_result(record: &mut [u8; RECORD_BYTES], result: GameResult) {
    record[30] = result as u8;
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// A position.
    Position {
        /// The position.
        position: Position,
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

/// The little-endian `u64` at `bytes[at..at + 8]`.
fn word(record: &[u8; RECORD_BYTES], at: usize) -> u64 {
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&record[at..at + 8]);
    u64::from_le_bytes(bytes)
}

/// Reads a record. Whether the position is legal is the reader's to check
/// (through [`Position::fen`] and its board's parser).
///
/// # Errors
/// A [`BadRecord`] when the bytes are not a record this version writes.
pub fn decode(record: &[u8; RECORD_BYTES]) -> Result<Record, BadRecord> {
    let result = GameResult::from_byte(record[30])
        .ok_or_else(|| BadRecord(format!("result byte {}", record[30])))?;
    let occupied = word(record, 0);
    if occupied == 0 {
        return Ok(Record::GameEnd {
            game: word(record, 8),
            seed: word(record, 16),
            result,
        });
    }
    if occupied.count_ones() as usize > MAX_MEN {
        return Err(BadRecord(format!("{} men", occupied.count_ones())));
    }
    let mut men = Vec::with_capacity(occupied.count_ones() as usize);
    for (square, code) in codes(record) {
        if code & 7 > 5 {
            return Err(BadRecord(format!("piece code {code}")));
        }
        men.push(man(square, code));
    }
    let en_passant = match record[24] & 0x7F {
        NO_EP => None,
        square if square < 64 => Some(square),
        square => return Err(BadRecord(format!("en-passant square {square}"))),
    };
    Ok(Record::Position {
        position: Position {
            men,
            black_to_move: black_to_move(record),
            en_passant,
            halfmove_clock: u32::from(record[25]),
            fullmove_number: u16::from_le_bytes([record[26], record[27]]),
            castling: record[31] & 0b1111,
        },
        white_score: i32::from(i16::from_le_bytes([record[28], record[29]])),
        result,
    })
}

/// The man a nibble names at `square`.
fn man(square: u8, code: u8) -> Man {
    Man {
        square,
        black: code >> 3 == 1,
        kind: code & 7,
    }
}

/// The men of a position record in ascending square order, read straight
/// from its bytes (the trainer's inputs, with no board built). A nibble
/// that names no man, which [`decode`] rejects, is left out; a marker (zero
/// occupancy) has none.
pub fn men(record: &[u8; RECORD_BYTES]) -> impl Iterator<Item = Man> + '_ {
    codes(record)
        .filter(|&(_, code)| code & 7 <= 5)
        .map(|(square, code)| man(square, code))
}

/// The occupied squares of a record in ascending order, each with its
/// man's nibble (at most 32: the nibbles run out there).
fn codes(record: &[u8; RECORD_BYTES]) -> impl Iterator<Item = (u8, u8)> + '_ {
    let mut bits = word(record, 0);
    (0..MAX_MEN).map_while(move |slot| {
        if bits == 0 {
            return None;
        }
        let square = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Some((square, (record[8 + slot / 2] >> (4 * (slot % 2))) & 0xF))
    })
}

/// Whether Black is to move in a position record.
pub fn black_to_move(record: &[u8; RECORD_BYTES]) -> bool {
    record[24] >> 7 == 1
}

/// Whether either side of a position record may still castle.
pub fn has_castling_rights(record: &[u8; RECORD_BYTES]) -> bool {
    record[31] & 0b1111 != 0
}

/// Whether a record is an end-of-game marker.
pub fn is_game_end(record: &[u8; RECORD_BYTES]) -> bool {
    word(record, 0) == 0
}

/// Why training data could not be read.
#[derive(Debug)]
pub enum DataError {
    /// The file could not be opened or read.
    File(FileError),
    /// A binary file of another format or version, or bytes that are no
    /// record.
    Format {
        /// The file.
        path: String,
        /// What is wrong, with the byte offset where it matters.
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

/// Whether the file at `path` starts with the binary format's magic (the
/// text form, `<fen> | <result> | <score>` lines, does not).
///
/// # Errors
/// A [`FileError`] when the file cannot be opened or read.
pub fn is_binary(path: impl AsRef<Path>) -> Result<bool, FileError> {
    let path = path.as_ref();
    let mut file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
    let mut magic = [0u8; 8];
    match file.read_exact(&mut magic) {
        Ok(()) => Ok(magic == MAGIC),
        Err(error) if error.kind() == std::io::ErrorKind::UnexpectedEof => Ok(false),
        Err(error) => Err(FileError::on(FileAction::Read, path)(error)),
    }
}

/// Reads the records of a binary data file in order, after checking its
/// header.
pub struct Reader {
    reader: BufReader<File>,
    path: String,
    /// Byte offset of the next record.
    offset: u64,
    /// The bytes of a partial record found at the end (0 if none).
    partial: usize,
}

impl Reader {
    /// Opens a binary data file and checks its header.
    ///
    /// # Errors
    /// A [`DataError`] when the file cannot be read, has no `KILNDATA`
    /// header, or is of another version or record size.
    pub fn open(path: impl AsRef<Path>) -> Result<Reader, DataError> {
        let path = path.as_ref();
        let name = path.display().to_string();
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
                path: name,
                detail: "not a Kiln binary data file (no KILNDATA header)".into(),
            });
        }
        let version = u16::from_le_bytes([header[8], header[9]]);
        let size = u16::from_le_bytes([header[10], header[11]]);
        if version != VERSION || usize::from(size) != RECORD_BYTES {
            return Err(DataError::Format {
                path: name,
                detail: format!(
                    "data format version {version} with {size}-byte records; this Kiln reads \
                     version {VERSION} with {RECORD_BYTES}-byte records"
                ),
            });
        }
        Ok(Reader {
            reader,
            path: name,
            offset: HEADER_BYTES as u64,
            partial: 0,
        })
    }

    /// The file's name as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The byte offset of the next record.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next whole record, or `None` at the end of the file. A partial
    /// record at the end (a write cut short by a kill) ends the file too:
    /// it belongs to a game without its end marker, which every reader of
    /// games drops; [`partial_record_bytes`](Self::partial_record_bytes)
    /// says it was there.
    ///
    /// # Errors
    /// A [`DataError`] when the file cannot be read.
    pub fn next_record(&mut self) -> Result<Option<[u8; RECORD_BYTES]>, DataError> {
        let mut record = [0u8; RECORD_BYTES];
        let mut filled = 0;
        while filled < RECORD_BYTES {
            match self.reader.read(&mut record[filled..]) {
                Ok(0) => {
                    self.partial = filled;
                    return Ok(None);
                }
                Ok(n) => filled += n,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(FileError::on(FileAction::Read, &self.path)(error).into()),
            }
        }
        self.offset += RECORD_BYTES as u64;
        Ok(Some(record))
    }

    /// Once [`next_record`](Self::next_record) has returned `None`: the
    /// bytes of a partial record it found at the end (0: the file ended on
    /// a whole record).
    pub fn partial_record_bytes(&self) -> usize {
        self.partial
    }
}

/// What a binary data file already holds, for resuming self-play.
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
pub fn games_in(path: impl AsRef<Path>, seed: u64) -> Result<Existing, DataError> {
    let mut reader = Reader::open(path)?;
    let mut games = Vec::new();
    let (mut positions, mut positions_in_games) = (0, 0);
    // Positions after the last marker belong to a game cut short: they
    // are dropped, and the game is played again.
    let mut last_marker = reader.offset();
    while let Some(record) = reader.next_record()? {
        if is_game_end(&record) {
            let found = word(&record, 16);
            if found != seed {
                return Err(DataError::Format {
                    path: reader.path().to_string(),
                    detail: format!("holds games of seed {found}, not of seed {seed}"),
                });
            }
            games.push(word(&record, 8));
            last_marker = reader.offset();
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

/// One whole game of a data file: its positions' records and its marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The game's number (from its marker).
    pub number: u64,
    /// The self-play seed (from its marker).
    pub seed: u64,
    /// Its positions' records then its marker, as stored.
    pub records: Vec<[u8; RECORD_BYTES]>,
}

impl Game {
    /// The positions the game holds (its records but the marker).
    pub fn positions(&self) -> usize {
        self.records.len().saturating_sub(1)
    }
}

/// Every whole game of a binary data file, in file order. Records after
/// the last end-of-game marker (a game cut short) are left out, and their
/// number is returned beside the games.
///
/// # Errors
/// A [`DataError`] when the file cannot be read or is not binary data of
/// this version.
pub fn read_games(path: impl AsRef<Path>) -> Result<(Vec<Game>, usize), DataError> {
    let mut reader = Reader::open(path)?;
    let mut games = Vec::new();
    let mut records = Vec::new();
    while let Some(record) = reader.next_record()? {
        records.push(record);
        if is_game_end(&record) {
            games.push(Game {
                number: word(&record, 8),
                seed: word(&record, 16),
                records: std::mem::take(&mut records),
            });
        }
    }
    Ok((games, records.len()))
}

/// Writes games as a binary data file: the header, then each game's
/// records.
///
/// # Errors
/// A [`FileError`] when the file cannot be created or written.
pub fn write_games<'a>(
    path: impl AsRef<Path>,
    games: impl IntoIterator<Item = &'a Game>,
) -> Result<(), FileError> {
    use std::io::Write;
    let path = path.as_ref();
    let file = File::create(path).map_err(FileError::on(FileAction::Create, path))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    out.write_all(&header())
        .map_err(FileError::on(FileAction::Write, path))?;
    for game in games {
        for record in &game.records {
            out.write_all(record)
                .map_err(FileError::on(FileAction::Write, path))?;
        }
    }
    out.flush().map_err(FileError::on(FileAction::Write, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position's men.
    fn start() -> Position {
        let back = [3, 1, 2, 4, 5, 2, 1, 3];
        let mut men = Vec::new();
        for file in 0..8u8 {
            men.push(Man {
                square: file,
                black: false,
                kind: back[usize::from(file)],
            });
            men.push(Man {
                square: 8 + file,
                black: false,
                kind: 0,
            });
            men.push(Man {
                square: 48 + file,
                black: true,
                kind: 0,
            });
            men.push(Man {
                square: 56 + file,
                black: true,
                kind: back[usize::from(file)],
            });
        }
        Position {
            men,
            black_to_move: false,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            castling: 0b1111,
        }
    }

    #[test]
    fn positions_round_trip_with_sorted_men() {
        let mut position = start();
        position.en_passant = Some(44);
        position.black_to_move = true;
        let record = encode(&position, 40_000, GameResult::Win).unwrap();
        let Ok(Record::Position {
            position: back,
            white_score,
            result,
        }) = decode(&record)
        else {
            panic!("no position");
        };
        assert_eq!(
            back.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1"
        );
        assert_eq!((white_score, result), (32_767, GameResult::Win));
        let mut sorted = position.men.clone();
        sorted.sort_by_key(|man| man.square);
        assert_eq!(back.men, sorted);
        assert_eq!(men(&record).collect::<Vec<_>>(), sorted);
        assert!(black_to_move(&record) && has_castling_rights(&record));
    }

    #[test]
    fn markers_and_bad_records() {
        let marker = game_marker(41, 7, GameResult::Draw);
        assert!(is_game_end(&marker));
        assert_eq!(
            decode(&marker),
            Ok(Record::GameEnd {
                game: 41,
                seed: 7,
                result: GameResult::Draw
            })
        );
        assert_eq!(men(&marker).count(), 0);
        let mut bad = encode(&start(), 0, GameResult::Win).unwrap();
        bad[30] = 3;
        assert!(decode(&bad).is_err());
        let mut bad_kind = encode(&start(), 0, GameResult::Win).unwrap();
        bad_kind[8] = 0x77;
        assert!(decode(&bad_kind).is_err());
        let mut twice = start();
        twice.men.push(Man {
            square: 0,
            black: true,
            kind: 1,
        });
        assert!(encode(&twice, 0, GameResult::Draw).is_err());
        let mut empty = start();
        empty.men.clear();
        assert!(encode(&empty, 0, GameResult::Draw).is_err());
    }

    #[test]
    fn files_read_back_by_game_and_resume() {
        let dir = std::env::temp_dir().join(format!("kiln-format-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.bin");
        let position = encode(&start(), 5, GameResult::Win).unwrap();
        let games: Vec<Game> = (0..3)
            .map(|game| Game {
                number: game * 2,
                seed: 9,
                records: vec![
                    position,
                    position,
                    game_marker(game * 2, 9, GameResult::Win),
                ],
            })
            .collect();
        write_games(&path, &games).unwrap();
        let whole = std::fs::metadata(&path).unwrap().len();
        // A game cut short: a position without its marker, then half a record.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend(position);
        bytes.extend([1u8; 7]);
        std::fs::write(&path, &bytes).unwrap();
        let (read, cut_short) = read_games(&path).unwrap();
        assert_eq!((read, cut_short), (games, 1));
        assert_eq!(
            games_in(&path, 9).unwrap(),
            Existing {
                games: vec![0, 2, 4],
                positions: 6,
                length: whole
            }
        );
        assert!(games_in(&path, 8).is_err(), "another seed's file");
        bytes[8] = 2; // version 2
        std::fs::write(&path, &bytes).unwrap();
        let error = Reader::open(&path).err().unwrap();
        assert!(error.to_string().contains("version 2"), "{error}");
        assert!(is_binary(&path).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
