//! Zobrist keys: typed access to the keys generated into `kiln-tables`.
//!
//! A position's key is the XOR of one key per (piece, square), the key of the
//! castling-rights set, the key of the en-passant file when an en-passant
//! capture is possible, and the side key when Black is to move. The board
//! keeps the key incrementally (see `make_move.rs`); [`Board::compute_key`]
//! recomputes it from scratch for checks.
//!
//! [`Board::compute_key`]: super::Board::compute_key
//!
//! ```
//! use kiln_board::{Board, CastlingRights, zobrist};
//!
//! // The start position's key from its parts: each piece on its square and
//! // the four castling rights (White to move: no side key; no en passant).
//! let board = Board::startpos();
//! let mut key = zobrist::castling(CastlingRights::ALL);
//! for square in board.occupied() {
//!     let piece = board.piece_on(square).expect("an occupied square");
//!     key ^= zobrist::piece(piece, square);
//! }
//! assert_eq!(board.key().0, key);
//! assert_eq!(board.compute_key(), board.key());
//! ```

use super::piece::ColoredPiece;
use super::{CastlingRights, File, Square};

/// A 64-bit Zobrist hash of a position.
///
/// ```
/// use kiln_board::{Board, Key, parse_uci_move};
///
/// let mut board = Board::startpos();
/// let start: Key = board.key();
/// board.make_move(parse_uci_move(&board, "g1f3")?);
/// assert_ne!(board.key(), start);
/// board.unmake_move();
/// assert_eq!(board.key(), start);
///
/// // Written as 16 hex digits.
/// assert_eq!(Key(0xff).to_string(), "00000000000000ff");
/// # Ok::<(), kiln_board::UciMoveError>(())
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u64);

impl core::fmt::Display for Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Key of `piece` standing on `square`.
///
/// ```
/// use kiln_board::{Board, ColoredPiece, Square, zobrist};
///
/// // White's king steps from e1 to d1: its key moves with it, and the side
/// // to move changes.
/// let before: Board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse()?;
/// let after: Board = "4k3/8/8/8/8/8/8/3K4 b - - 1 1".parse()?;
/// let king = ColoredPiece::WhiteKing;
/// let change = zobrist::piece(king, Square::E1) ^ zobrist::piece(king, Square::D1) ^ zobrist::side();
/// assert_eq!(before.key().0 ^ change, after.key().0);
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline(always)]
pub fn piece(piece: ColoredPiece, square: Square) -> u64 {
    kiln_tables::zobrist_piece(piece.color(), piece.kind(), square)
}

/// Key of a castling-rights set.
///
/// ```
/// use kiln_board::{Board, CastlingRights, zobrist};
///
/// // The same placement with and without castling rights: the keys differ
/// // by the two sets' keys (the empty set has a key too).
/// let with: Board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
/// let without: Board = "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1".parse()?;
/// assert_eq!(
///     with.key().0 ^ without.key().0,
///     zobrist::castling(CastlingRights::ALL) ^ zobrist::castling(CastlingRights::NONE)
/// );
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    kiln_tables::zobrist_castling(rights)
}

/// Key of an en-passant capture being possible on `file`.
///
/// ```
/// use kiln_board::{Board, File, Square, zobrist};
///
/// // After e2-e4 the pawn on d4 can take en passant on e3: the file's key
/// // is in the position's key.
/// let capturable: Board = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1".parse()?;
/// let later: Board = "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1".parse()?;
/// assert_eq!(capturable.en_passant(), Some(Square::E3));
/// assert_eq!(capturable.key().0 ^ later.key().0, zobrist::en_passant(File::E));
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    kiln_tables::zobrist_en_passant(file)
}

/// Key XORed in when Black is to move.
///
/// ```
/// use kiln_board::{Board, zobrist};
///
/// let white = Board::startpos();
/// let black: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1".parse()?;
/// assert_eq!(white.key().0 ^ black.key().0, zobrist::side());
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline(always)]
pub fn side() -> u64 {
    kiln_tables::zobrist_side()
}
