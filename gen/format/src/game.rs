//! Whole self-play games, the training data format: a 32-byte file header,
//! then games in viriformat, the format of viridithas and the engines that
//! train with bullet. A game is its packed start position and then four
//! bytes a ply (the move and the search score of the position it was
//! played in), so a position costs a little over four bytes, against 32
//! for a file of positions. Every position of a game is stored; which ones
//! a trainer learns from is decided when the data is read (filters), not
//! when it is written.
//!
//! ```text
//! header   0..8    magic "KILNGAME"
//!          8..10   format version, u16 little-endian (1)
//!         10..12   flags, u16: bit 0 = a self-play shard, games 0, 1, 2, …
//!                  of its seed in order
//!         12..16   zero
//!         16..24   the self-play seed, u64 (0 when not a shard)
//!         24..32   the shard's recipe, u64: a fingerprint of what shapes
//!                  its games (0 when not recorded)
//! game     0..32   start position, packed (below)
//!         32..     per ply: move u16, score i16 (centipawns, White's view)
//!                  of the position the move was played in
//!                  4 zero bytes: the end of the game
//! packed   0..8    occupancy u64, bit n = square n (a1 = 0)
//! position 8..24   the occupied squares' men in ascending square order, a
//!                  nibble each, low nibble first: colour·8 + code, code 0
//!                  pawn … 5 king, 6 a rook that may still castle
//!         24       side to move in bit 7 (1 = Black); bits 0..7 the
//!                  en-passant square, 64 for none
//!         25       halfmove clock
//!         26..28   fullmove number u16
//!         28..30   score i16 (unused in a game's start position: 0)
//!         30       the game's result for White: 0 loss, 1 draw, 2 win
//!         31       extra byte (0)
//! move     bits 0..6 from, 6..12 to (the rook's square for castling),
//!          12..14 promotion (0 knight … 3 queen), 14..16 kind: 0 normal,
//!          1 en passant, 2 castling, 3 promotion
//! ```
//!
//! Without its 32-byte header the file is a viriformat file byte for byte;
//! [`write_viriformat`] and [`read_viriformat`] convert. A self-play shard
//! holds games 0, 1, 2, … of its seed in that order, so a run killed at any
//! moment resumes from the number of whole games in its file ([`scan`]):
//! what follows the last whole game is a game cut short, dropped and played
//! again.

use std::fmt;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use crate::file_error::{FileAction, FileError};
use crate::record::{GameResult, Man, placement};

/// The first eight bytes of a game file.
pub const MAGIC: [u8; 8] = *b"KILNGAME";
/// The format version this module writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the file header.
pub const HEADER_BYTES: usize = 32;
/// Bytes of a packed position.
pub const PACKED_BYTES: usize = 32;
/// Bytes a ply takes: the move and the score.
pub const PLY_BYTES: usize = 4;
/// The header flag of a self-play shard.
const SHARD_FLAG: u16 = 1;
/// The nibble code of a rook that may still castle.
const CASTLING_ROOK: u8 = 6;
/// The en-passant field's value when there is no en-passant square.
const NO_EP: u8 = 64;

/// What a file header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The self-play seed whose games 0, 1, 2, … the file holds in order,
    /// or `None` for any other file (merged, imported, converted).
    pub shard_seed: Option<u64>,
    /// A shard's recipe: a fingerprint of what shapes its games besides
    /// the seed (the self-play settings and the engine that plays them),
    /// so that a run with another recipe is not appended to it. `None`
    /// when not recorded (other files, and shards from before it was).
    pub recipe: Option<u64>,
}

impl Header {
    /// The header of a file that is not a self-play shard.
    pub const NOT_A_SHARD: Header = Header {
        shard_seed: None,
        recipe: None,
    };

    /// The header's bytes.
    pub fn to_bytes(self) -> [u8; HEADER_BYTES] {
        let mut bytes = [0u8; HEADER_BYTES];
        bytes[..8].copy_from_slice(&MAGIC);
        bytes[8..10].copy_from_slice(&VERSION.to_le_bytes());
        if let Some(seed) = self.shard_seed {
            bytes[10..12].copy_from_slice(&SHARD_FLAG.to_le_bytes());
            bytes[16..24].copy_from_slice(&seed.to_le_bytes());
            bytes[24..32].copy_from_slice(&self.recipe.unwrap_or(0).to_le_bytes());
        }
        bytes
    }

    /// Reads a header, or says what is wrong with it.
    fn from_bytes(bytes: &[u8; HEADER_BYTES]) -> Result<Header, String> {
        if bytes[..8] != MAGIC {
            return Err("not a Kiln game file (no KILNGAME header)".into());
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != VERSION {
            return Err(format!(
                "game file version {version}; this Kiln reads version {VERSION}"
            ));
        }
        let flags = u16::from_le_bytes([bytes[10], bytes[11]]);
        if flags & !SHARD_FLAG != 0 {
            return Err(format!("unknown header flags {flags:#06x}"));
        }
        let word = |at: usize| {
            let mut word = [0u8; 8];
            word.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(word)
        };
        let shard = flags & SHARD_FLAG != 0;
        Ok(Header {
            shard_seed: shard.then(|| word(16)),
            recipe: Some(word(24)).filter(|&recipe| shard && recipe != 0),
        })
    }
}

/// Bytes that are not a game this version writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadGame(pub String);

impl fmt::Display for BadGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadGame {}

/// A position packed in 32 bytes (marlinformat, as viriformat and bullet
/// read it): the start of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedPosition(pub [u8; PACKED_BYTES]);

/// A position's fields, to pack: what a board knows, in plain numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionFields {
    /// Every man on the board.
    pub men: Vec<Man>,
    /// The squares of the rooks that may still castle (any files: Chess960
    /// too).
    pub castling_rooks: Vec<u8>,
    /// Whether Black is to move.
    pub black_to_move: bool,
    /// The en-passant square, if there is one.
    pub en_passant: Option<u8>,
    /// Halfmoves since the last capture or pawn move (saturated at 255).
    pub halfmove_clock: u32,
    /// The fullmove number.
    pub fullmove_number: u16,
}

impl PackedPosition {
    /// Packs a position with a score and a result.
    ///
    /// # Errors
    /// A [`BadGame`] for no men or more than 32, two men on a square, a
    /// square or kind out of range, or a castling rook that is not a rook.
    pub fn pack(
        fields: &PositionFields,
        white_score: i16,
        result: GameResult,
    ) -> Result<PackedPosition, BadGame> {
        let mut codes = [None::<u8>; 64];
        for man in &fields.men {
            let slot = codes
                .get_mut(usize::from(man.square))
                .ok_or_else(|| BadGame(format!("square {}", man.square)))?;
            if man.kind > 5 {
                return Err(BadGame(format!("piece kind {}", man.kind)));
            }
            if slot.replace(u8::from(man.black) << 3 | man.kind).is_some() {
                return Err(BadGame(format!("two men on square {}", man.square)));
            }
        }
        if fields.men.is_empty() || fields.men.len() > 32 {
            return Err(BadGame(format!("{} men", fields.men.len())));
        }
        for &square in &fields.castling_rooks {
            match codes.get_mut(usize::from(square)) {
                Some(Some(code)) if *code & 7 == 3 => *code = *code & 8 | CASTLING_ROOK,
                _ => {
                    return Err(BadGame(format!(
                        "no rook to castle with on square {square}"
                    )));
                }
            }
        }
        let mut bytes = [0u8; PACKED_BYTES];
        let mut occupied = 0u64;
        let men = codes
            .iter()
            .enumerate()
            .filter_map(|(square, code)| code.map(|code| (square, code)));
        for (slot, (square, code)) in men.enumerate() {
            occupied |= 1 << square;
            bytes[8 + slot / 2] |= code << (4 * (slot % 2));
        }
        bytes[..8].copy_from_slice(&occupied.to_le_bytes());
        let ep = match fields.en_passant {
            None => NO_EP,
            Some(square) if square < 64 => square,
            Some(square) => return Err(BadGame(format!("en-passant square {square}"))),
        };
        bytes[24] = u8::from(fields.black_to_move) << 7 | ep;
        bytes[25] = fields.halfmove_clock.min(255) as u8;
        bytes[26..28].copy_from_slice(&fields.fullmove_number.to_le_bytes());
        bytes[28..30].copy_from_slice(&white_score.to_le_bytes());
        bytes[30] = result as u8;
        Ok(PackedPosition(bytes))
    }

    /// The occupancy bitboard.
    fn occupancy(&self) -> u64 {
        let mut word = [0u8; 8];
        word.copy_from_slice(&self.0[..8]);
        u64::from_le_bytes(word)
    }

    /// The occupied squares in ascending order with their nibbles.
    fn codes(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let mut bits = self.occupancy();
        (0..32usize).map_while(move |slot| {
            if bits == 0 {
                return None;
            }
            let square = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some((square, (self.0[8 + slot / 2] >> (4 * (slot % 2))) & 0xF))
        })
    }

    /// The men in ascending square order (a castling rook is a rook).
    pub fn men(&self) -> impl Iterator<Item = Man> + '_ {
        self.codes().map(|(square, code)| Man {
            square,
            black: code >> 3 == 1,
            kind: if code & 7 == CASTLING_ROOK {
                3
            } else {
                code & 7
            },
        })
    }

    /// The squares of the rooks that may still castle.
    pub fn castling_rooks(&self) -> impl Iterator<Item = u8> + '_ {
        self.codes()
            .filter(|&(_, code)| code & 7 == CASTLING_ROOK)
            .map(|(square, _)| square)
    }

    /// Whether Black is to move.
    pub fn black_to_move(&self) -> bool {
        self.0[24] >> 7 == 1
    }

    /// The en-passant square, if any.
    pub fn en_passant(&self) -> Option<u8> {
        let square = self.0[24] & 0x7F;
        (square < 64).then_some(square)
    }

    /// The halfmove clock.
    pub fn halfmove_clock(&self) -> u8 {
        self.0[25]
    }

    /// The fullmove number.
    pub fn fullmove_number(&self) -> u16 {
        u16::from_le_bytes([self.0[26], self.0[27]])
    }

    /// The score stored with the position (centipawns, White's view).
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    /// The game's result, if the byte is one.
    pub fn result(&self) -> Option<GameResult> {
        GameResult::from_byte(self.0[30])
    }

    /// Sets the game's result.
    pub fn set_result(&mut self, result: GameResult) {
        self.0[30] = result as u8;
    }

    /// Checks what a reader can check without the rules of chess: 2 to 32
    /// men with known codes, one king a side, an en-passant square on the
    /// third or sixth rank, a result byte.
    ///
    /// # Errors
    /// A [`BadGame`] saying what is wrong.
    pub fn check(&self) -> Result<(), BadGame> {
        let men = self.occupancy().count_ones();
        if !(2..=32).contains(&men) {
            return Err(BadGame(format!("start position with {men} men")));
        }
        let mut kings = [0; 2];
        for (square, code) in self.codes() {
            if code & 7 == 7 {
                return Err(BadGame(format!("piece code {code} on square {square}")));
            }
            if code & 7 == 5 {
                kings[usize::from(code >> 3)] += 1;
            }
        }
        if kings != [1, 1] {
            return Err(BadGame(format!(
                "{} white and {} black kings",
                kings[0], kings[1]
            )));
        }
        let ep = self.0[24] & 0x7F;
        if ep != NO_EP && !(16..24).contains(&ep) && !(40..48).contains(&ep) {
            return Err(BadGame(format!("en-passant square {ep}")));
        }
        if self.result().is_none() {
            return Err(BadGame(format!("result byte {}", self.0[30])));
        }
        Ok(())
    }

    /// The position as FEN. Castling rights are written `KQkq` when every
    /// castling rook stands on its own corner and the kings on the e-file,
    /// else as the rooks' files (Shredder-FEN, `HAha`), so that Chess960
    /// positions read back.
    pub fn fen(&self) -> String {
        let mut board = [None::<Man>; 64];
        for man in self.men() {
            board[usize::from(man.square)] = Some(man);
        }
        let mut fen = placement(self.men());
        fen.push_str(if self.black_to_move() { " b " } else { " w " });
        fen.push_str(&self.castling_field(&board));
        match self.en_passant() {
            Some(square) => {
                fen.push(' ');
                fen.push(char::from(b'a' + square % 8));
                fen.push(char::from(b'1' + square / 8));
            }
            None => fen.push_str(" -"),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        fen
    }

    /// The castling field of [`fen`](Self::fen).
    fn castling_field(&self, board: &[Option<Man>; 64]) -> String {
        let king_on_e = |black: bool| {
            let e = if black { 60 } else { 4 };
            board[e].is_some_and(|man| man.kind == 5 && man.black == black)
        };
        let mut standard = String::new();
        let mut shredder = Vec::new();
        let mut all_standard = true;
        for square in self.castling_rooks() {
            let black = board[usize::from(square)].is_some_and(|man| man.black);
            let file = square % 8;
            let letter = char::from(b'a' + file);
            let letter = if black {
                letter
            } else {
                letter.to_ascii_uppercase()
            };
            shredder.push(letter);
            let corner = match (black, square) {
                (false, 7) => Some('K'),
                (false, 0) => Some('Q'),
                (true, 63) => Some('k'),
                (true, 56) => Some('q'),
                _ => None,
            };
            match corner {
                Some(letter) if king_on_e(black) => standard.push(letter),
                _ => all_standard = false,
            }
        }
        if shredder.is_empty() {
            return "-".into();
        }
        if all_standard {
            let order = |c: &char| "KQkq".find(*c);
            let mut letters: Vec<char> = standard.chars().collect();
            letters.sort_by_key(order);
            return letters.into_iter().collect();
        }
        // White's rooks first, each side from the h-file down.
        shredder.sort_by_key(|c| {
            (
                c.is_ascii_lowercase(),
                std::cmp::Reverse(c.to_ascii_lowercase()),
            )
        });
        shredder.into_iter().collect()
    }
}

/// What kind of move a [`PackedMove`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move but the three below.
    Normal,
    /// An en-passant capture.
    EnPassant,
    /// Castling: the move's `to` is the rook's square.
    Castling,
    /// A promotion, to the kind given (1 knight … 4 queen).
    Promotion(u8),
}

/// A move in 16 bits, as viriformat stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PackedMove(pub u16);

impl PackedMove {
    /// A move from `from` to `to` (for castling, the king's square and the
    /// rook's).
    ///
    /// # Errors
    /// A [`BadGame`] for a square out of range, `from == to` or a promotion
    /// to a kind other than knight, bishop, rook or queen.
    pub fn new(from: u8, to: u8, kind: MoveKind) -> Result<PackedMove, BadGame> {
        if from > 63 || to > 63 || from == to {
            return Err(BadGame(format!("move from {from} to {to}")));
        }
        let flags: u16 = match kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => 1 << 14,
            MoveKind::Castling => 2 << 14,
            MoveKind::Promotion(piece @ 1..=4) => 3 << 14 | u16::from(piece - 1) << 12,
            MoveKind::Promotion(piece) => {
                return Err(BadGame(format!("promotion to kind {piece}")));
            }
        };
        Ok(PackedMove(u16::from(from) | u16::from(to) << 6 | flags))
    }

    /// The square the move starts on.
    pub fn from(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// The square it goes to (for castling, the rook's).
    pub fn to(self) -> u8 {
        (self.0 >> 6 & 63) as u8
    }

    /// What kind of move it is.
    pub fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::EnPassant,
            2 => MoveKind::Castling,
            _ => MoveKind::Promotion((self.0 >> 12 & 3) as u8 + 1),
        }
    }
}

/// One game: where it started, and each move with the score of the
/// position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    /// The start position, with the game's result.
    pub start: PackedPosition,
    /// Each ply's move and score (centipawns, White's view).
    pub moves: Vec<(PackedMove, i16)>,
}

impl Game {
    /// The game's result (a game read from a file always has one).
    pub fn result(&self) -> Option<GameResult> {
        self.start.result()
    }

    /// The bytes of the game as a file stores it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(PACKED_BYTES + PLY_BYTES * (self.moves.len() + 1));
        bytes.extend_from_slice(&self.start.0);
        for (mv, score) in &self.moves {
            bytes.extend_from_slice(&mv.0.to_le_bytes());
            bytes.extend_from_slice(&score.to_le_bytes());
        }
        bytes.extend_from_slice(&[0; PLY_BYTES]);
        bytes
    }
}

/// Why a game file could not be read or written.
#[derive(Debug)]
pub enum GameFileError {
    /// The system would not open, read, create or write the file.
    File(FileError),
    /// The file's bytes are not what this version writes.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The byte offset of the header or game at fault.
        offset: u64,
        /// What is wrong.
        detail: String,
    },
    /// The file ends inside a game (a write cut short).
    Truncated {
        /// The file.
        path: PathBuf,
        /// The byte offset where the unfinished game starts.
        offset: u64,
    },
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameFileError::File(error) => error.fmt(f),
            GameFileError::Corrupt {
                path,
                offset,
                detail,
            } => write!(f, "'{}' at byte {offset}: {detail}", path.display()),
            GameFileError::Truncated { path, offset } => write!(
                f,
                "'{}' ends inside the game that starts at byte {offset} (cut short?)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for GameFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GameFileError::File(error) => Some(error),
            _ => None,
        }
    }
}

impl From<FileError> for GameFileError {
    fn from(error: FileError) -> Self {
        GameFileError::File(error)
    }
}

/// What reading the next game found.
enum Next {
    Game(Game),
    End,
    /// The stream ended inside a game.
    Cut,
}

/// Reads one game of viriformat bytes from `reader`; `Err` with what is
/// wrong (offsets are the caller's to add).
fn read_game(reader: &mut impl Read, moves_cap: usize) -> std::io::Result<Result<Next, String>> {
    let mut start = [0u8; PACKED_BYTES];
    match read_full(reader, &mut start)? {
        0 => return Ok(Ok(Next::End)),
        PACKED_BYTES => {}
        _ => return Ok(Ok(Next::Cut)),
    }
    let start = PackedPosition(start);
    if let Err(BadGame(detail)) = start.check() {
        return Ok(Err(detail));
    }
    let mut moves = Vec::with_capacity(moves_cap);
    loop {
        let mut ply = [0u8; PLY_BYTES];
        if read_full(reader, &mut ply)? != PLY_BYTES {
            return Ok(Ok(Next::Cut));
        }
        if ply == [0; PLY_BYTES] {
            return Ok(Ok(Next::Game(Game { start, moves })));
        }
        let mv = PackedMove(u16::from_le_bytes([ply[0], ply[1]]));
        if mv.from() == mv.to() {
            return Ok(Err(format!(
                "move {} of the game goes nowhere ({:#06x})",
                moves.len() + 1,
                mv.0
            )));
        }
        moves.push((mv, i16::from_le_bytes([ply[2], ply[3]])));
    }
}

/// Reads until `buffer` is full or the stream ends; the bytes read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// Reads the games of a game file in order.
pub struct GameReader {
    reader: BufReader<File>,
    path: PathBuf,
    header: Header,
    offset: u64,
}

impl GameReader {
    /// Opens a game file and reads its header.
    ///
    /// # Errors
    /// A [`GameFileError`] when the file cannot be read or has no header of
    /// this version.
    pub fn open(path: impl AsRef<Path>) -> Result<GameReader, GameFileError> {
        let path = path.as_ref().to_path_buf();
        let file = File::open(&path).map_err(FileError::on(FileAction::Open, &path))?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let mut bytes = [0u8; HEADER_BYTES];
        let read =
            read_full(&mut reader, &mut bytes).map_err(FileError::on(FileAction::Read, &path))?;
        let header = if read < HEADER_BYTES {
            Err("too short for a game file header".to_string())
        } else {
            Header::from_bytes(&bytes)
        };
        let header = header.map_err(|detail| GameFileError::Corrupt {
            path: path.clone(),
            offset: 0,
            detail,
        })?;
        Ok(GameReader {
            reader,
            path,
            header,
            offset: HEADER_BYTES as u64,
        })
    }

    /// The file's header.
    pub fn header(&self) -> Header {
        self.header
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The byte offset of the next game.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game, or `None` at the end of the file.
    ///
    /// # Errors
    /// A [`GameFileError`]: the file cannot be read, a game is corrupt, or
    /// the file ends inside a game ([`GameFileError::Truncated`]).
    pub fn next_game(&mut self) -> Result<Option<Game>, GameFileError> {
        let found = read_game(&mut self.reader, 256)
            .map_err(FileError::on(FileAction::Read, &self.path))?;
        match found {
            Ok(Next::End) => Ok(None),
            Ok(Next::Cut) => Err(GameFileError::Truncated {
                path: self.path.clone(),
                offset: self.offset,
            }),
            Ok(Next::Game(game)) => {
                self.offset += (PACKED_BYTES + PLY_BYTES * (game.moves.len() + 1)) as u64;
                Ok(Some(game))
            }
            Err(detail) => Err(GameFileError::Corrupt {
                path: self.path.clone(),
                offset: self.offset,
                detail,
            }),
        }
    }
}

/// What a game file holds, for resuming a shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The file's header.
    pub header: Header,
    /// Whole games.
    pub games: u64,
    /// Their positions (plies).
    pub positions: u64,
    /// The length of the file up to the end of its last whole game: what
    /// follows is a game cut short.
    pub whole_length: u64,
}

/// Counts the whole games of a game file, accepting a game cut short at
/// its end (a killed writer's), which [`GameWriter::resume`] drops.
///
/// A machine that stopped after the file grew but before its last bytes
/// reached the disk can leave zeros at the end instead. More zeros than a
/// game can end with ([`MAX_ZEROS_ENDING_A_GAME`]) mark such an end: the
/// game they begin in is dropped with them, whether the zeros made it
/// unreadable or read as its end marker, and so is a whole game just
/// before them (its own end marker is part of the run).
///
/// # Errors
/// A [`GameFileError`] when the file cannot be read or a game is corrupt.
pub fn scan(path: impl AsRef<Path>) -> Result<Scan, GameFileError> {
    let path = path.as_ref();
    let zeros_from = trailing_zeros_start(path)?;
    let mut reader = GameReader::open(path)?;
    let (mut games, mut positions) = (0, 0);
    let whole_length = loop {
        let start = reader.offset();
        if zeros_from.is_some_and(|zeros| start >= zeros) {
            break start;
        }
        match reader.next_game() {
            Ok(Some(game)) => {
                if zeros_from.is_some_and(|zeros| reader.offset() > zeros) {
                    // The zeros begin inside this game: not its own.
                    break start;
                }
                games += 1;
                positions += game.moves.len() as u64;
            }
            Ok(None) | Err(GameFileError::Truncated { .. }) => break reader.offset(),
            // The zeros begin inside this game and spoilt its start.
            Err(GameFileError::Corrupt { .. }) if zeros_from.is_some() => break start,
            Err(error) => return Err(error),
        }
    };
    Ok(Scan {
        header: reader.header(),
        games,
        positions,
        whole_length,
    })
}

/// The most zero bytes a whole game can end with: its end marker (4), the
/// score 0 of its last ply (2) and the high byte of that ply's move (1).
pub const MAX_ZEROS_ENDING_A_GAME: u64 = 7;

/// Where the run of zero bytes at the end of `path` begins, if it is longer
/// than a game can end with (and so marks a machine's stop, not a file's
/// last game).
fn trailing_zeros_start(path: &Path) -> Result<Option<u64>, GameFileError> {
    use std::io::{Seek, SeekFrom};
    let read_error = || FileError::on(FileAction::Read, path);
    let mut file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
    let length = file.seek(SeekFrom::End(0)).map_err(read_error())?;
    let mut end = length;
    let mut buffer = vec![0u8; 1 << 16];
    // Backwards a block at a time until a byte that is not zero.
    while end > HEADER_BYTES as u64 {
        let block = (end - HEADER_BYTES as u64).min(buffer.len() as u64);
        let from = end - block;
        file.seek(SeekFrom::Start(from)).map_err(read_error())?;
        let bytes = &mut buffer[..block as usize];
        file.read_exact(bytes).map_err(read_error())?;
        if let Some(last) = bytes.iter().rposition(|&byte| byte != 0) {
            end = from + last as u64 + 1;
            break;
        }
        end = from;
    }
    Ok((length - end > MAX_ZEROS_ENDING_A_GAME).then_some(end))
}

/// Writes games to a game file.
pub struct GameWriter {
    writer: BufWriter<File>,
    path: PathBuf,
}

impl GameWriter {
    /// Creates (or truncates) a game file and writes its header.
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be created or written.
    pub fn create(path: impl AsRef<Path>, header: Header) -> Result<GameWriter, FileError> {
        let path = path.as_ref().to_path_buf();
        let file = File::create(&path).map_err(FileError::on(FileAction::Create, &path))?;
        let mut writer = BufWriter::with_capacity(1 << 16, file);
        writer
            .write_all(&header.to_bytes())
            .map_err(FileError::on(FileAction::Write, &path))?;
        Ok(GameWriter { writer, path })
    }

    /// Opens an existing game file to append to, after dropping a game cut
    /// short at its end; returns the writer and what the file held.
    ///
    /// # Errors
    /// A [`GameFileError`] when the file cannot be read, is corrupt, or
    /// cannot be written.
    pub fn resume(path: impl AsRef<Path>) -> Result<(GameWriter, Scan), GameFileError> {
        let path = path.as_ref().to_path_buf();
        let found = scan(&path)?;
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(FileError::on(FileAction::Open, &path))?;
        file.set_len(found.whole_length)
            .map_err(FileError::on(FileAction::Write, &path))?;
        let mut file = file;
        std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0))
            .map_err(FileError::on(FileAction::Write, &path))?;
        Ok((
            GameWriter {
                writer: BufWriter::with_capacity(1 << 16, file),
                path,
            },
            found,
        ))
    }

    /// Appends a game (buffered: [`flush`](Self::flush) to make it
    /// durable).
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be written.
    pub fn write_game(&mut self, game: &Game) -> Result<(), FileError> {
        self.writer
            .write_all(&game.to_bytes())
            .map_err(FileError::on(FileAction::Write, &self.path))
    }

    /// Writes what is buffered to the file.
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be written.
    pub fn flush(&mut self) -> Result<(), FileError> {
        self.writer
            .flush()
            .map_err(FileError::on(FileAction::Write, &self.path))
    }

    /// Flushes, then waits until the games written are on the disk (not
    /// only with the operating system), so that a machine that stops
    /// keeps them.
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be written.
    pub fn sync(&mut self) -> Result<(), FileError> {
        self.flush()?;
        self.writer
            .get_ref()
            .sync_data()
            .map_err(FileError::on(FileAction::Write, &self.path))
    }
}

/// Writes the games of a game file as a plain viriformat file (no header),
/// the form viridithas's and bullet's tools read; returns the games
/// written.
///
/// # Errors
/// A [`GameFileError`] when a file cannot be read or written or a game is
/// corrupt.
pub fn write_viriformat(
    from: impl AsRef<Path>,
    to: impl AsRef<Path>,
) -> Result<u64, GameFileError> {
    let mut reader = GameReader::open(from)?;
    let to = to.as_ref();
    let file = File::create(to).map_err(FileError::on(FileAction::Create, to))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    let mut games = 0;
    while let Some(game) = reader.next_game()? {
        out.write_all(&game.to_bytes())
            .map_err(FileError::on(FileAction::Write, to))?;
        games += 1;
    }
    out.flush().map_err(FileError::on(FileAction::Write, to))?;
    Ok(games)
}

/// Reads a plain viriformat file (no header) into a game file with the
/// header of no shard; returns the games written.
///
/// # Errors
/// A [`GameFileError`] when a file cannot be read or written, or the
/// viriformat bytes are corrupt or end inside a game.
pub fn read_viriformat(from: impl AsRef<Path>, to: impl AsRef<Path>) -> Result<u64, GameFileError> {
    let from = from.as_ref();
    let file = File::open(from).map_err(FileError::on(FileAction::Open, from))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut writer = GameWriter::create(to, Header::NOT_A_SHARD)?;
    let (mut games, mut offset) = (0, 0u64);
    loop {
        let found = read_game(&mut reader, 256).map_err(FileError::on(FileAction::Read, from))?;
        match found {
            Ok(Next::End) => break,
            Ok(Next::Cut) => {
                return Err(GameFileError::Truncated {
                    path: from.to_path_buf(),
                    offset,
                });
            }
            Ok(Next::Game(game)) => {
                offset += (PACKED_BYTES + PLY_BYTES * (game.moves.len() + 1)) as u64;
                writer.write_game(&game)?;
                games += 1;
            }
            Err(detail) => {
                return Err(GameFileError::Corrupt {
                    path: from.to_path_buf(),
                    offset,
                    detail,
                });
            }
        }
    }
    writer.flush()?;
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The start position's fields, castling rooks in the corners.
    fn start_fields() -> PositionFields {
        let back = [3, 1, 2, 4, 5, 2, 1, 3];
        let mut men = Vec::new();
        for file in 0..8u8 {
            let kind = back[usize::from(file)];
            men.push(Man {
                square: file,
                black: false,
                kind,
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
                kind,
            });
        }
        PositionFields {
            men,
            castling_rooks: vec![0, 7, 56, 63],
            black_to_move: false,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }

    fn sample_game(result: GameResult) -> Game {
        let start = PackedPosition::pack(&start_fields(), 0, result).unwrap();
        let e4 = PackedMove::new(12, 28, MoveKind::Normal).unwrap();
        let e5 = PackedMove::new(52, 36, MoveKind::Normal).unwrap();
        Game {
            start,
            moves: vec![(e4, 20), (e5, -15)],
        }
    }

    #[test]
    fn the_start_position_packs_and_reads_back() {
        let packed = PackedPosition::pack(&start_fields(), 7, GameResult::Win).unwrap();
        assert_eq!(
            packed.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(packed.castling_rooks().collect::<Vec<_>>(), [0, 7, 56, 63]);
        assert_eq!(
            (packed.white_score(), packed.result()),
            (7, Some(GameResult::Win))
        );
        assert!(packed.check().is_ok());
        assert_eq!(packed.men().filter(|man| man.kind == 3).count(), 4);
    }

    #[test]
    fn chess960_castling_is_written_with_files() {
        // Kings on f1 and f8, rooks on b and g that may castle.
        let man = |square, black, kind| Man {
            square,
            black,
            kind,
        };
        let fields = PositionFields {
            men: vec![
                man(1, false, 3),
                man(5, false, 5),
                man(6, false, 3),
                man(57, true, 3),
                man(61, true, 5),
                man(62, true, 3),
            ],
            castling_rooks: vec![1, 6, 57, 62],
            black_to_move: false,
            en_passant: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        };
        let packed = PackedPosition::pack(&fields, 0, GameResult::Draw).unwrap();
        assert_eq!(packed.fen(), "1r3kr1/8/8/8/8/8/8/1R3KR1 w GBgb - 0 1");
        let mut no_rook = fields.clone();
        no_rook.castling_rooks = vec![5];
        assert!(PackedPosition::pack(&no_rook, 0, GameResult::Draw).is_err());
    }

    #[test]
    fn moves_pack_as_viriformat_does() {
        let castle = PackedMove::new(4, 7, MoveKind::Castling).unwrap();
        assert_eq!(
            (castle.from(), castle.to(), castle.kind()),
            (4, 7, MoveKind::Castling)
        );
        assert_eq!(castle.0, 4 | 7 << 6 | 0b10 << 14);
        let promo = PackedMove::new(52, 60, MoveKind::Promotion(4)).unwrap();
        assert_eq!(promo.0, 52 | 60 << 6 | 3 << 12 | 0b11 << 14);
        assert_eq!(promo.kind(), MoveKind::Promotion(4));
        let ep = PackedMove::new(36, 43, MoveKind::EnPassant).unwrap();
        assert_eq!(ep.kind(), MoveKind::EnPassant);
        assert!(PackedMove::new(3, 3, MoveKind::Normal).is_err());
        assert!(PackedMove::new(52, 60, MoveKind::Promotion(5)).is_err());
    }

    #[test]
    fn files_write_read_resume_and_convert() {
        let dir = std::env::temp_dir().join(format!("kiln-format-game-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.games");
        let games = [sample_game(GameResult::Win), sample_game(GameResult::Draw)];
        let mut writer = GameWriter::create(
            &path,
            Header {
                shard_seed: Some(u64::MAX),
                recipe: Some(0x1234_5678_9abc_def0),
            },
        )
        .unwrap();
        for game in &games {
            writer.write_game(game).unwrap();
        }
        writer.flush().unwrap();
        drop(writer);
        let whole = std::fs::metadata(&path).unwrap().len();
        assert_eq!(whole, (HEADER_BYTES + 2 * (32 + 3 * 4)) as u64);

        // A game cut short: its start position and half a ply.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend_from_slice(&games[0].to_bytes()[..34]);
        std::fs::write(&path, &bytes).unwrap();
        let mut reader = GameReader::open(&path).unwrap();
        assert_eq!(reader.header().shard_seed, Some(u64::MAX));
        assert_eq!(reader.header().recipe, Some(0x1234_5678_9abc_def0));
        assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[0]));
        assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[1]));
        let error = reader.next_game().unwrap_err();
        assert!(
            matches!(error, GameFileError::Truncated { offset, .. } if offset == whole),
            "{error}"
        );
        assert!(error.to_string().contains("shard.games"), "{error}");

        let (mut writer, found) = GameWriter::resume(&path).unwrap();
        assert_eq!(
            (found.games, found.positions, found.whole_length),
            (2, 4, whole)
        );
        writer.write_game(&games[0]).unwrap();
        writer.flush().unwrap();
        drop(writer);
        assert_eq!(scan(&path).unwrap().games, 3);

        // Zeros at the end (a machine stopped before the last bytes reached
        // the disk): the end of a run cut short. The game before them is
        // dropped too, as they may have cut it; resuming cuts both off.
        let three_games = std::fs::read(&path).unwrap();
        let third_start = whole;
        for zeros in [32, 100, 70_000] {
            let mut bytes = three_games.clone();
            bytes.extend(std::iter::repeat_n(0u8, zeros));
            std::fs::write(&path, &bytes).unwrap();
            let found = scan(&path).unwrap();
            assert_eq!(
                (found.games, found.positions, found.whole_length),
                (2, 4, third_start),
                "{zeros} zeros"
            );
        }
        // Zeros that begin inside the third game: in its moves, where the
        // first zero ply reads as its end (however few zeros follow), or
        // in its start position, which they spoil.
        for (kept, zeros) in [(32 + 4, 64), (32 + 4, 12), (10, 100), (1, 40)] {
            let mut bytes = three_games[..third_start as usize + kept].to_vec();
            bytes.extend(std::iter::repeat_n(0u8, zeros));
            std::fs::write(&path, &bytes).unwrap();
            let found = scan(&path).unwrap();
            assert_eq!(
                (found.games, found.whole_length),
                (2, third_start),
                "{kept} bytes of the game, then {zeros} zeros"
            );
        }
        // Anything not zero after the fault is damage, not a cut.
        let mut bytes = three_games.clone();
        bytes.extend([0u8; 40]);
        bytes.push(7);
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(scan(&path), Err(GameFileError::Corrupt { .. })));
        let (writer, _) = {
            let mut bytes = three_games.clone();
            bytes.extend([0u8; 50]);
            std::fs::write(&path, &bytes).unwrap();
            GameWriter::resume(&path).unwrap()
        };
        drop(writer);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), third_start);
        std::fs::write(&path, &three_games).unwrap();

        // Viriformat and back: the same games.
        let raw = dir.join("raw.vf");
        assert_eq!(write_viriformat(&path, &raw).unwrap(), 3);
        assert_eq!(
            std::fs::metadata(&raw).unwrap().len(),
            std::fs::metadata(&path).unwrap().len() - HEADER_BYTES as u64
        );
        let back = dir.join("back.games");
        assert_eq!(read_viriformat(&raw, &back).unwrap(), 3);
        let mut reader = GameReader::open(&back).unwrap();
        assert_eq!(reader.header().shard_seed, None);
        assert_eq!(reader.next_game().unwrap().as_ref(), Some(&games[0]));

        // Corruption is named with its offset.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_BYTES + 30] = 9; // the first game's result byte
        std::fs::write(&path, &bytes).unwrap();
        let error = GameReader::open(&path).unwrap().next_game().unwrap_err();
        assert!(
            error.to_string().contains("at byte 32: result byte 9"),
            "{error}"
        );
        std::fs::write(&path, b"KILNDATA").unwrap();
        let error = GameReader::open(&path).err().expect("a header cut short");
        assert!(
            error
                .to_string()
                .contains("too short for a game file header"),
            "{error}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
