//! Typed attack lookups over the tables generated into `kiln-tables`.
//!
//! Nothing here computes a table: every function is one or two loads from a
//! `static` built at compile time. Sliders use the PEXT layout when the
//! target has BMI2 (e.g. `RUSTFLAGS="-C target-cpu=native"` on a CPU with
//! it) and fancy magic bitboards otherwise.
//!
//! ```
//! use kiln::board::{Bitboard, Square};
//! use kiln::movegen::attacks;
//!
//! // A rook on a1 with a blocker on a4 sees a2, a3, a4 and the first rank.
//! let seen = attacks::rook(Square::A1, Square::A4.bitboard());
//! assert!(seen.contains(Square::A4) && !seen.contains(Square::A5));
//! assert_eq!(attacks::between(Square::A1, Square::A4).count(), 2);
//! ```

use crate::board::{Bitboard, Color, PieceKind, Square};

/// Squares a rook on `square` attacks when `occupied` are occupied
/// (blockers included).
#[inline(always)]
pub fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(rook_raw(square as u8, occupied.0))
}

/// Squares a bishop on `square` attacks when `occupied` are occupied.
#[inline(always)]
pub fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(bishop_raw(square as u8, occupied.0))
}

/// Squares a queen on `square` attacks when `occupied` are occupied.
#[inline(always)]
pub fn queen(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(rook_raw(square as u8, occupied.0) | bishop_raw(square as u8, occupied.0))
}

/// Squares a knight on `square` attacks.
#[inline(always)]
pub fn knight(square: Square) -> Bitboard {
    Bitboard(kiln_tables::knight_attacks(square as u8))
}

/// Squares a king on `square` attacks.
#[inline(always)]
pub fn king(square: Square) -> Bitboard {
    Bitboard(kiln_tables::king_attacks(square as u8))
}

/// Squares a pawn of `color` on `square` attacks (diagonally forward).
#[inline(always)]
pub fn pawn(color: Color, square: Square) -> Bitboard {
    Bitboard(kiln_tables::pawn_attacks(color as u8, square as u8))
}

/// Squares a piece of `kind` and `color` on `square` attacks.
#[inline]
pub fn piece(kind: PieceKind, color: Color, square: Square, occupied: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Pawn => pawn(color, square),
        PieceKind::Knight => knight(square),
        PieceKind::Bishop => bishop(square, occupied),
        PieceKind::Rook => rook(square, occupied),
        PieceKind::Queen => queen(square, occupied),
        PieceKind::King => king(square),
    }
}

/// Squares strictly between `a` and `b` on a shared line; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(kiln_tables::between(a as u8, b as u8))
}

/// The whole line (edge to edge) through `a` and `b`; empty if unaligned.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(kiln_tables::line(a as u8, b as u8))
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn rook_raw(square: u8, occupied: u64) -> u64 {
    let mask = kiln_tables::pext::ROOK_MASKS[square as usize];
    // SAFETY: `_pext_u64` needs the BMI2 instruction set, and this function
    // is only compiled when the target has it (`target_feature = "bmi2"`).
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied, mask) };
    kiln_tables::pext::rook_attacks_at(square, index)
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn bishop_raw(square: u8, occupied: u64) -> u64 {
    let mask = kiln_tables::pext::BISHOP_MASKS[square as usize];
    // SAFETY: as in `rook_raw`: compiled only for targets with BMI2.
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied, mask) };
    kiln_tables::pext::bishop_attacks_at(square, index)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn rook_raw(square: u8, occupied: u64) -> u64 {
    kiln_tables::rook_attacks(square, occupied)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn bishop_raw(square: u8, occupied: u64) -> u64 {
    kiln_tables::bishop_attacks(square, occupied)
}
