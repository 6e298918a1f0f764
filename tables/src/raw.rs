//! The integer API, for engines that bring their own types: squares are
//! `u8` (A1 = 0 … H8 = 63), bitboards `u64`, colours `0` (White) / `1`
//! (Black), piece kinds `0` (pawn) … `5` (king), castling rights the four
//! bits of [`CastlingRights`](crate::CastlingRights). The generated arrays
//! themselves are here too.
//!
//! These functions index the tables directly and panic on an index out of
//! range, like any slice index; the typed functions at the crate root cannot
//! be given one.
//!
//! ```
//! use kiln_tables::raw;
//!
//! const G1: u8 = 6;
//! assert_eq!(raw::knight_attacks(G1), 0x0000_0000_00a0_1000);
//! assert_eq!(raw::knight_attacks(G1), raw::KNIGHT_ATTACKS[G1 as usize]);
//! ```

use crate::generated;

pub use crate::generated::{
    ADJACENT_FILES, BETWEEN, BISHOP_ATTACKS, BISHOP_MAGICS, BISHOP_MASKS, BISHOP_OFFSETS,
    BISHOP_SHIFTS, CASTLING_RIGHTS_MASKS, DISTANCE, FILE_MASKS, FINGERPRINT, FLIP, FORWARD_FILE,
    KING_ATTACKS, KNIGHT_ATTACKS, LINE, PASSED_PAWN_MASKS, PAWN_ATTACKS, PAWN_PUSHES, RANK_MASKS,
    ROOK_ATTACKS, ROOK_MAGICS, ROOK_MASKS, ROOK_OFFSETS, ROOK_SHIFTS, SEED, START_KEY,
    ZOBRIST_CASTLING, ZOBRIST_EN_PASSANT, ZOBRIST_PIECES, ZOBRIST_SIDE,
};

/// Squares attacked by a rook on `square` when the squares in `occupied`
/// are occupied (blockers included, own pieces not removed).
///
/// ```
/// // A rook on a1 in an empty corner sees the a-file and the first rank.
/// assert_eq!(kiln_tables::raw::rook_attacks(0, 0).count_ones(), 14);
/// ```
#[inline]
pub const fn rook_attacks(square: u8, occupied: u64) -> u64 {
    let s = square as usize;
    let index = ((occupied & generated::ROOK_MASKS[s]).wrapping_mul(generated::ROOK_MAGICS[s])
        >> generated::ROOK_SHIFTS[s]) as usize;
    generated::ROOK_ATTACKS[generated::ROOK_OFFSETS[s] as usize + index]
}

/// Squares attacked by a bishop on `square` given the `occupied` squares.
///
/// ```
/// // d4 sees 13 squares on an empty board.
/// assert_eq!(kiln_tables::raw::bishop_attacks(27, 0).count_ones(), 13);
/// ```
#[inline]
pub const fn bishop_attacks(square: u8, occupied: u64) -> u64 {
    let s = square as usize;
    let index = ((occupied & generated::BISHOP_MASKS[s]).wrapping_mul(generated::BISHOP_MAGICS[s])
        >> generated::BISHOP_SHIFTS[s]) as usize;
    generated::BISHOP_ATTACKS[generated::BISHOP_OFFSETS[s] as usize + index]
}

/// Squares attacked by a queen on `square` given the `occupied` squares.
///
/// ```
/// assert_eq!(kiln_tables::raw::queen_attacks(27, 0).count_ones(), 27);
/// ```
#[inline]
pub const fn queen_attacks(square: u8, occupied: u64) -> u64 {
    rook_attacks(square, occupied) | bishop_attacks(square, occupied)
}

/// Squares attacked by a knight on `square`.
///
/// ```
/// assert_eq!(kiln_tables::raw::knight_attacks(0), (1 << 10) | (1 << 17));
/// ```
#[inline]
pub const fn knight_attacks(square: u8) -> u64 {
    generated::KNIGHT_ATTACKS[square as usize]
}

/// Squares attacked by a king on `square`.
///
/// ```
/// assert_eq!(kiln_tables::raw::king_attacks(0), (1 << 1) | (1 << 8) | (1 << 9));
/// ```
#[inline]
pub const fn king_attacks(square: u8) -> u64 {
    generated::KING_ATTACKS[square as usize]
}

/// Squares attacked by a pawn of `color` (0 White, 1 Black) on `square`.
///
/// ```
/// // A White pawn on e2 attacks d3 and f3.
/// assert_eq!(kiln_tables::raw::pawn_attacks(0, 12), (1 << 19) | (1 << 21));
/// ```
#[inline]
pub const fn pawn_attacks(color: u8, square: u8) -> u64 {
    generated::PAWN_ATTACKS[color as usize][square as usize]
}

/// The square in front of a pawn of `color` on `square` (empty on the last
/// rank).
///
/// ```
/// // A Black pawn on e7 pushes to e6.
/// assert_eq!(kiln_tables::raw::pawn_pushes(1, 52), 1 << 44);
/// ```
#[inline]
pub const fn pawn_pushes(color: u8, square: u8) -> u64 {
    generated::PAWN_PUSHES[color as usize][square as usize]
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise (and for `a == b`).
///
/// ```
/// // a1 to d4: b2 and c3.
/// assert_eq!(kiln_tables::raw::between(0, 27), (1 << 9) | (1 << 18));
/// ```
#[inline]
pub const fn between(a: u8, b: u8) -> u64 {
    generated::BETWEEN[a as usize][b as usize]
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge,
/// including both); empty when they are not aligned or are equal.
///
/// ```
/// // b2 and c3 lie on the long diagonal a1-h8.
/// assert_eq!(kiln_tables::raw::line(9, 18), 0x8040_2010_0804_0201);
/// ```
#[inline]
pub const fn line(a: u8, b: u8) -> u64 {
    generated::LINE[a as usize][b as usize]
}

/// All squares of `file` (0 = a-file … 7 = h-file).
///
/// ```
/// assert_eq!(kiln_tables::raw::file_mask(0), 0x0101_0101_0101_0101);
/// ```
#[inline]
pub const fn file_mask(file: u8) -> u64 {
    generated::FILE_MASKS[file as usize]
}

/// All squares of `rank` (0 = first rank … 7 = eighth rank).
///
/// ```
/// assert_eq!(kiln_tables::raw::rank_mask(1), 0xff00);
/// ```
#[inline]
pub const fn rank_mask(rank: u8) -> u64 {
    generated::RANK_MASKS[rank as usize]
}

/// The files beside `file` (one or two files, not `file` itself).
///
/// ```
/// use kiln_tables::raw;
///
/// assert_eq!(raw::adjacent_files(0), raw::file_mask(1));
/// ```
#[inline]
pub const fn adjacent_files(file: u8) -> u64 {
    generated::ADJACENT_FILES[file as usize]
}

/// Squares in front of a pawn of `color` on `square` on its own and the
/// adjacent files: no enemy pawn there means the pawn is passed.
///
/// ```
/// // A White pawn on a6: a7, b7, a8, b8.
/// assert_eq!(kiln_tables::raw::passed_pawn_mask(0, 40), 0x0303_0000_0000_0000);
/// ```
#[inline]
pub const fn passed_pawn_mask(color: u8, square: u8) -> u64 {
    generated::PASSED_PAWN_MASKS[color as usize][square as usize]
}

/// Squares in front of `square` on its own file, as seen by `color`.
///
/// ```
/// // From a6 White looks at a7 and a8.
/// assert_eq!(kiln_tables::raw::forward_file(0, 40), 0x0101_0000_0000_0000);
/// ```
#[inline]
pub const fn forward_file(color: u8, square: u8) -> u64 {
    generated::FORWARD_FILE[color as usize][square as usize]
}

/// King-move (Chebyshev) distance between two squares, 0 to 7.
///
/// ```
/// assert_eq!(kiln_tables::raw::distance(0, 63), 7);
/// ```
#[inline]
pub const fn distance(a: u8, b: u8) -> u8 {
    generated::DISTANCE[a as usize][b as usize]
}

/// Castling rights (bit 0 White short, bit 1 White long, bit 2 Black short,
/// bit 3 Black long) that survive a move from or to `square` in standard chess:
/// `rights &= castling_rights_mask(from) & castling_rights_mask(to)`.
///
/// Chess960 positions put kings and rooks on other squares; an engine derives
/// its per-position mask from the castling rooks it parsed.
///
/// ```
/// // A move touching h1 gives up White's short castling only.
/// assert_eq!(kiln_tables::raw::castling_rights_mask(7), 0b1110);
/// ```
#[inline]
pub const fn castling_rights_mask(square: u8) -> u8 {
    generated::CASTLING_RIGHTS_MASKS[square as usize]
}

/// Zobrist key of a piece of `color` (0/1) and `kind` (0 pawn … 5 king) on
/// `square`.
///
/// ```
/// use kiln_tables::raw;
///
/// assert_eq!(raw::zobrist_piece(0, 5, 4), raw::ZOBRIST_PIECES[0][5][4]);
/// ```
#[inline]
pub const fn zobrist_piece(color: u8, kind: u8, square: u8) -> u64 {
    generated::ZOBRIST_PIECES[color as usize][kind as usize][square as usize]
}

/// Zobrist key of a castling-rights set (the 4 bits of
/// [`castling_rights_mask`]); the key of the empty set is a real key too, so
/// XOR out the old set and XOR in the new one.
///
/// ```
/// use kiln_tables::raw;
///
/// assert_ne!(raw::zobrist_castling(0), raw::zobrist_castling(15));
/// ```
#[inline]
pub const fn zobrist_castling(rights: u8) -> u64 {
    generated::ZOBRIST_CASTLING[rights as usize]
}

/// Zobrist key of an en-passant `file` (0 … 7).
///
/// ```
/// use kiln_tables::raw;
///
/// assert_eq!(raw::zobrist_en_passant(4), raw::ZOBRIST_EN_PASSANT[4]);
/// ```
#[inline]
pub const fn zobrist_en_passant(file: u8) -> u64 {
    generated::ZOBRIST_EN_PASSANT[file as usize]
}

/// Zobrist key XORed in when Black is to move.
///
/// ```
/// use kiln_tables::raw;
///
/// assert_eq!(raw::zobrist_side(), raw::ZOBRIST_SIDE);
/// ```
#[inline]
pub const fn zobrist_side() -> u64 {
    generated::ZOBRIST_SIDE
}

/// PEXT (BMI2) layout of the slider attacks, compiled only for targets with
/// BMI2.
///
/// `attacks = ROOK_ATTACKS[ROOK_OFFSETS[sq] + pext(occupied, ROOK_MASKS[sq])]`.
/// The masks are the same relevant-occupancy masks as the magic layout.
///
/// Executing `pext` needs an `unsafe` call in Rust, which this crate
/// forbids, so the caller computes the index:
///
/// ```ignore
/// // In a crate that allows `unsafe`, built with BMI2 enabled:
/// #[cfg(target_feature = "bmi2")]
/// fn rook(sq: u8, occ: u64) -> u64 {
///     let mask = kiln_tables::raw::pext::ROOK_MASKS[sq as usize];
///     // SAFETY: this code is only compiled when the target has BMI2.
///     let index = unsafe { core::arch::x86_64::_pext_u64(occ, mask) };
///     kiln_tables::raw::pext::rook_attacks_at(sq, index)
/// }
/// ```
#[cfg(target_feature = "bmi2")]
pub mod pext {
    pub use crate::generated::{
        BISHOP_MASKS, BISHOP_PEXT_ATTACKS as BISHOP_ATTACKS, BISHOP_PEXT_OFFSETS as BISHOP_OFFSETS,
        ROOK_MASKS, ROOK_PEXT_ATTACKS as ROOK_ATTACKS, ROOK_PEXT_OFFSETS as ROOK_OFFSETS,
    };

    /// Rook attacks on `square` for a PEXT `index` (`pext(occupied, mask)`).
    ///
    /// ```
    /// use kiln_tables::raw::pext;
    ///
    /// // Index 0: no relevant blocker, the empty-board attacks.
    /// assert_eq!(pext::rook_attacks_at(0, 0), kiln_tables::raw::rook_attacks(0, 0));
    /// ```
    #[inline]
    pub const fn rook_attacks_at(square: u8, index: u64) -> u64 {
        ROOK_ATTACKS[ROOK_OFFSETS[square as usize] as usize + index as usize]
    }

    /// Bishop attacks on `square` for a PEXT `index` (`pext(occupied, mask)`).
    ///
    /// ```
    /// use kiln_tables::raw::pext;
    ///
    /// assert_eq!(pext::bishop_attacks_at(0, 0), kiln_tables::raw::bishop_attacks(0, 0));
    /// ```
    #[inline]
    pub const fn bishop_attacks_at(square: u8, index: u64) -> u64 {
        BISHOP_ATTACKS[BISHOP_OFFSETS[square as usize] as usize + index as usize]
    }
}
