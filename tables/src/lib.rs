//! Chess lookup tables generated at build time: fancy-magic and PEXT slider
//! attacks, leaper attacks, `BETWEEN`/`LINE`, file/rank/passed-pawn masks,
//! distances, castling-rights masks, the `FLIP` table and Zobrist keys.
//!
//! Every table is a `static` array emitted by this crate's build script (which
//! runs the `kiln-gen` generator); nothing is computed or initialised at
//! runtime, and the crate is `no_std` with no runtime dependencies.
//!
//! The API speaks plain integers so that any project can use it without
//! adopting Kiln's types:
//! - a square is a `u8` from 0 to 63 with A1 = 0, B1 = 1, …, H8 = 63
//!   (`square = rank * 8 + file`);
//! - a bitboard is a `u64` with bit `n` set for square `n`;
//! - a colour is `0` for White and `1` for Black;
//! - a piece kind is `0..6` for pawn, knight, bishop, rook, queen, king.
//!
//! Functions taking a square index the tables directly and panic on a square
//! above 63, like any slice index.
//!
//! # Example
//! ```
//! use kiln_tables as t;
//!
//! const E1: u8 = 4;
//! const E4: u8 = 28;
//! const E8: u8 = 60;
//! // A rook on e1 with a blocker on e4 sees e2, e3 and e4 up the file.
//! let occupied = 1u64 << E4;
//! let up_the_file = t::rook_attacks(E1, occupied) & t::file_mask(4);
//! assert_eq!(up_the_file, (1 << 12) | (1 << 20) | (1 << E4));
//! // BETWEEN excludes both ends; LINE spans the whole board.
//! assert_eq!(t::between(E1, E4), (1 << 12) | (1 << 20));
//! assert_eq!(t::line(E1, E8), t::file_mask(4));
//! // FLIP mirrors a square for the other colour.
//! assert_eq!(t::FLIP[E1 as usize], E8);
//! ```
//!
//! # Seed and fingerprint
//! The Zobrist keys are drawn from [`SEED`] (default fixed in `kiln-gen`, or
//! `KILN_SEED=<u64>` at build time). [`FINGERPRINT`] is a 64-bit FNV-1a hash of
//! every generated table, so two builds can tell whether they carry the same
//! tables.
//!
//! # Slider lookups: magic or PEXT
//! [`rook_attacks`] and [`bishop_attacks`] use fancy magic bitboards, which run
//! on every target. When the *target* has BMI2 (for example with
//! `RUSTFLAGS="-C target-cpu=native"` on a CPU that has it), the `pext`
//! module is compiled in too, with the same attacks laid out for
//! `index = pext(occupied, mask) + offset`. Executing the `pext` instruction
//! needs an `unsafe` call in Rust, which this crate forbids, so the caller
//! computes the index: see the `pext` module (documented when built for BMI2).

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod generated {
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

pub use generated::{FINGERPRINT, FLIP, SEED, START_KEY};

/// Number of squares on the board.
pub const SQUARES: usize = 64;

/// Squares attacked by a rook on `square` when the squares in `occupied` are
/// occupied (blockers are included in the attack set; own pieces are not
/// removed).
#[inline]
pub fn rook_attacks(square: u8, occupied: u64) -> u64 {
    let s = square as usize;
    let index = ((occupied & generated::ROOK_MASKS[s]).wrapping_mul(generated::ROOK_MAGICS[s])
        >> generated::ROOK_SHIFTS[s]) as usize;
    generated::ROOK_ATTACKS[generated::ROOK_OFFSETS[s] as usize + index]
}

/// Squares attacked by a bishop on `square` given the `occupied` squares.
#[inline]
pub fn bishop_attacks(square: u8, occupied: u64) -> u64 {
    let s = square as usize;
    let index = ((occupied & generated::BISHOP_MASKS[s]).wrapping_mul(generated::BISHOP_MAGICS[s])
        >> generated::BISHOP_SHIFTS[s]) as usize;
    generated::BISHOP_ATTACKS[generated::BISHOP_OFFSETS[s] as usize + index]
}

/// Squares attacked by a queen on `square` given the `occupied` squares.
#[inline]
pub fn queen_attacks(square: u8, occupied: u64) -> u64 {
    rook_attacks(square, occupied) | bishop_attacks(square, occupied)
}

/// Squares attacked by a knight on `square`.
#[inline]
pub fn knight_attacks(square: u8) -> u64 {
    generated::KNIGHT_ATTACKS[square as usize]
}

/// Squares attacked by a king on `square`.
#[inline]
pub fn king_attacks(square: u8) -> u64 {
    generated::KING_ATTACKS[square as usize]
}

/// Squares attacked by a pawn of `color` (0 White, 1 Black) on `square`.
#[inline]
pub fn pawn_attacks(color: u8, square: u8) -> u64 {
    generated::PAWN_ATTACKS[color as usize][square as usize]
}

/// The square in front of a pawn of `color` on `square` (empty on the last
/// rank).
#[inline]
pub fn pawn_pushes(color: u8, square: u8) -> u64 {
    generated::PAWN_PUSHES[color as usize][square as usize]
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise (and for `a == b`).
#[inline]
pub fn between(a: u8, b: u8) -> u64 {
    generated::BETWEEN[a as usize][b as usize]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge,
/// including both); empty when they are not aligned or are equal.
#[inline]
pub fn line(a: u8, b: u8) -> u64 {
    generated::LINE[a as usize][b as usize]
}

/// All squares of `file` (0 = a-file … 7 = h-file).
#[inline]
pub fn file_mask(file: u8) -> u64 {
    generated::FILE_MASKS[file as usize]
}

/// All squares of `rank` (0 = first rank … 7 = eighth rank).
#[inline]
pub fn rank_mask(rank: u8) -> u64 {
    generated::RANK_MASKS[rank as usize]
}

/// The files beside `file` (one or two files, not `file` itself).
#[inline]
pub fn adjacent_files(file: u8) -> u64 {
    generated::ADJACENT_FILES[file as usize]
}

/// Squares in front of a pawn of `color` on `square` on its own and the
/// adjacent files: no enemy pawn there means the pawn is passed.
#[inline]
pub fn passed_pawn_mask(color: u8, square: u8) -> u64 {
    generated::PASSED_PAWN_MASKS[color as usize][square as usize]
}

/// Squares in front of `square` on its own file, as seen by `color`.
#[inline]
pub fn forward_file(color: u8, square: u8) -> u64 {
    generated::FORWARD_FILE[color as usize][square as usize]
}

/// King-move (Chebyshev) distance between two squares, 0 to 7.
#[inline]
pub fn distance(a: u8, b: u8) -> u8 {
    generated::DISTANCE[a as usize][b as usize]
}

/// Castling rights (bit 0 White short, bit 1 White long, bit 2 Black short,
/// bit 3 Black long) that survive a move from or to `square` in standard chess:
/// `rights &= castling_rights_mask(from) & castling_rights_mask(to)`.
///
/// Chess960 positions put kings and rooks on other squares; an engine derives
/// its per-position mask from the castling rooks it parsed.
#[inline]
pub fn castling_rights_mask(square: u8) -> u8 {
    generated::CASTLING_RIGHTS_MASKS[square as usize]
}

/// Zobrist key of a piece of `color` (0/1) and `kind` (0 pawn … 5 king) on
/// `square`.
#[inline]
pub fn zobrist_piece(color: u8, kind: u8, square: u8) -> u64 {
    generated::ZOBRIST_PIECES[color as usize][kind as usize][square as usize]
}

/// Zobrist key of a castling-rights set (4 bits, see
/// [`castling_rights_mask`]); the key of the empty set is a real key too, so
/// XOR out the old set and XOR in the new one.
#[inline]
pub fn zobrist_castling(rights: u8) -> u64 {
    generated::ZOBRIST_CASTLING[rights as usize]
}

/// Zobrist key of an en-passant `file` (0 … 7).
#[inline]
pub fn zobrist_en_passant(file: u8) -> u64 {
    generated::ZOBRIST_EN_PASSANT[file as usize]
}

/// Zobrist key XORed in when Black is to move.
#[inline]
pub fn zobrist_side() -> u64 {
    generated::ZOBRIST_SIDE
}

/// Direct access to the generated arrays, for embedders that want to copy or
/// inspect them (the functions above are the usual way in).
pub mod raw {
    pub use super::generated::{
        ADJACENT_FILES, BETWEEN, BISHOP_ATTACKS, BISHOP_MAGICS, BISHOP_MASKS, BISHOP_OFFSETS,
        BISHOP_SHIFTS, CASTLING_RIGHTS_MASKS, DISTANCE, FILE_MASKS, FORWARD_FILE, KING_ATTACKS,
        KNIGHT_ATTACKS, LINE, PASSED_PAWN_MASKS, PAWN_ATTACKS, PAWN_PUSHES, RANK_MASKS,
        ROOK_ATTACKS, ROOK_MAGICS, ROOK_MASKS, ROOK_OFFSETS, ROOK_SHIFTS, ZOBRIST_CASTLING,
        ZOBRIST_EN_PASSANT, ZOBRIST_PIECES, ZOBRIST_SIDE,
    };
}

/// PEXT (BMI2) layout of the slider attacks, compiled only for targets with
/// BMI2.
///
/// `attacks = ROOK_ATTACKS[ROOK_OFFSETS[sq] + pext(occupied, ROOK_MASKS[sq])]`.
/// The masks are the same relevant-occupancy masks as the magic layout.
///
/// ```ignore
/// // In a crate that allows `unsafe`:
/// #[cfg(target_feature = "bmi2")]
/// fn rook(sq: u8, occ: u64) -> u64 {
///     let mask = kiln_tables::pext::ROOK_MASKS[sq as usize];
///     // SAFETY: this code is only compiled when the target has BMI2.
///     let index = unsafe { core::arch::x86_64::_pext_u64(occ, mask) };
///     kiln_tables::pext::rook_attacks_at(sq, index)
/// }
/// ```
#[cfg(target_feature = "bmi2")]
pub mod pext {
    pub use super::generated::{
        BISHOP_MASKS, BISHOP_PEXT_ATTACKS as BISHOP_ATTACKS, BISHOP_PEXT_OFFSETS as BISHOP_OFFSETS,
        ROOK_MASKS, ROOK_PEXT_ATTACKS as ROOK_ATTACKS, ROOK_PEXT_OFFSETS as ROOK_OFFSETS,
    };

    /// Rook attacks on `square` for a PEXT `index` (`pext(occupied, mask)`).
    #[inline]
    pub fn rook_attacks_at(square: u8, index: u64) -> u64 {
        ROOK_ATTACKS[ROOK_OFFSETS[square as usize] as usize + index as usize]
    }

    /// Bishop attacks on `square` for a PEXT `index` (`pext(occupied, mask)`).
    #[inline]
    pub fn bishop_attacks_at(square: u8, index: u64) -> u64 {
        BISHOP_ATTACKS[BISHOP_OFFSETS[square as usize] as usize + index as usize]
    }
}
