//! Zobrist keys: typed access to the keys generated into `kiln-tables`.
//!
//! A position's key is the XOR of one key per (piece, square), the key of the
//! castling-rights set, the key of the en-passant file when an en-passant
//! capture is possible, and the side key when Black is to move. The board
//! keeps the key incrementally (see `make_move.rs`); [`Board::compute_key`]
//! recomputes it from scratch for checks.
//!
//! [`Board::compute_key`]: super::Board::compute_key

use super::piece::ColoredPiece;
use super::{CastlingRights, File, Square};

/// A 64-bit Zobrist hash of a position.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub u64);

impl core::fmt::Display for Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Key of `piece` standing on `square`.
#[inline(always)]
pub fn piece(piece: ColoredPiece, square: Square) -> u64 {
    kiln_tables::zobrist_piece(piece.color(), piece.kind(), square)
}

/// Key of a castling-rights set.
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    kiln_tables::zobrist_castling(rights)
}

/// Key of an en-passant capture being possible on `file`.
#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    kiln_tables::zobrist_en_passant(file)
}

/// Key XORed in when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    kiln_tables::zobrist_side()
}
