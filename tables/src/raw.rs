//! The integer API, for engines that bring their own types: squares are
//! `u8` (A1 = 0 … H8 = 63), bitboards `u64`, colours `0` (White) / `1`
//! (Black), piece kinds `0` (pawn) … `5` (king), castling rights the four
//! bits of [`CastlingRights`](crate::CastlingRights). The generated arrays
//! these functions read are here too, each with an example, and, for targets
//! with BMI2, the PEXT layout of the slider attacks (`pext`).
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

// The generated arrays, re-exported one by one: the build script's file gives
// each a one-line description, and the docs written here (shown first) add
// what the line leaves out and an example.

/// Relevant-occupancy mask of a rook on each square, indexed by square
/// (A1 = 0 … H8 = 63): the squares of its file and rank whose occupancy
/// can change its attacks, the board edges and the square itself excluded.
///
/// ```
/// use kiln_tables::raw::ROOK_MASKS;
///
/// // A rook on a1: b1-g1 and a2-a7.
/// assert_eq!(ROOK_MASKS[0], 0x0001_0101_0101_017e);
/// assert_eq!(ROOK_MASKS[0].count_ones(), 12);
/// ```
pub use crate::generated::ROOK_MASKS;

/// Magic multiplier of a rook on each square: the magic index of an
/// occupancy is
/// `((occupied & ROOK_MASKS[sq]).wrapping_mul(ROOK_MAGICS[sq]) >> ROOK_SHIFTS[sq])`,
/// and the attacks are at `ROOK_ATTACKS[ROOK_OFFSETS[sq] + index]`
/// ([`rook_attacks`] does exactly this).
///
/// ```
/// use kiln_tables::raw::{ROOK_ATTACKS, ROOK_MAGICS, ROOK_MASKS, ROOK_OFFSETS, ROOK_SHIFTS,
///     rook_attacks};
///
/// let (sq, occupied) = (27, 0x0000_0008_0200_0000_u64); // d4; blockers on d5 and b4
/// let index = (occupied & ROOK_MASKS[sq]).wrapping_mul(ROOK_MAGICS[sq]) >> ROOK_SHIFTS[sq];
/// let attacks = ROOK_ATTACKS[ROOK_OFFSETS[sq] as usize + index as usize];
/// assert_eq!(attacks, rook_attacks(sq as u8, occupied));
/// ```
pub use crate::generated::ROOK_MAGICS;

/// Right shift of a rook's magic product on each square: the magic index
/// of a square is below `1 << (64 - ROOK_SHIFTS[sq])`.
///
/// ```
/// use kiln_tables::raw::{ROOK_MAGICS, ROOK_MASKS, ROOK_SHIFTS};
///
/// // Every occupancy of the mask gives an index below 2^(64 - shift).
/// let (sq, full) = (0, ROOK_MASKS[0]);
/// let index = full.wrapping_mul(ROOK_MAGICS[sq]) >> ROOK_SHIFTS[sq];
/// assert!(index < 1 << (64 - ROOK_SHIFTS[sq]));
/// ```
pub use crate::generated::ROOK_SHIFTS;

/// Where each square's slice of [`ROOK_ATTACKS`] starts: entry `index` of
/// square `sq` is `ROOK_ATTACKS[ROOK_OFFSETS[sq] + index]`.
///
/// ```
/// use kiln_tables::raw::{ROOK_ATTACKS, ROOK_OFFSETS, rook_attacks};
///
/// // Index 0 is the empty occupancy: the attacks on an empty board.
/// let h8 = 63;
/// assert_eq!(ROOK_ATTACKS[ROOK_OFFSETS[h8] as usize], rook_attacks(h8 as u8, 0));
/// ```
pub use crate::generated::ROOK_OFFSETS;

/// Rook attacks in the fancy-magic layout, all squares' slices in one
/// array (see [`ROOK_MAGICS`] for the index and [`ROOK_OFFSETS`] for the
/// slices).
///
/// ```
/// use kiln_tables::raw::{ROOK_ATTACKS, ROOK_OFFSETS};
///
/// // A rook on a1 on an empty board sees 14 squares.
/// assert_eq!(ROOK_ATTACKS[ROOK_OFFSETS[0] as usize].count_ones(), 14);
/// assert!(ROOK_ATTACKS.len() > 64);
/// ```
pub use crate::generated::ROOK_ATTACKS;

/// Relevant-occupancy mask of a bishop on each square: its diagonals
/// without the board edges and the square itself.
///
/// ```
/// use kiln_tables::raw::BISHOP_MASKS;
///
/// // A bishop on a1: b2 to g7.
/// assert_eq!(BISHOP_MASKS[0], 0x0040_2010_0804_0200);
/// ```
pub use crate::generated::BISHOP_MASKS;

/// Magic multiplier of a bishop on each square, used as [`ROOK_MAGICS`]
/// is: [`bishop_attacks`] computes
/// `BISHOP_ATTACKS[BISHOP_OFFSETS[sq] + ((occupied & BISHOP_MASKS[sq]).wrapping_mul(BISHOP_MAGICS[sq]) >> BISHOP_SHIFTS[sq])]`.
///
/// ```
/// use kiln_tables::raw::{BISHOP_ATTACKS, BISHOP_MAGICS, BISHOP_MASKS, BISHOP_OFFSETS,
///     BISHOP_SHIFTS, bishop_attacks};
///
/// let (sq, occupied) = (27, 0x0000_2000_0000_0200_u64); // d4; blockers on f6 and b2
/// let index =
///     (occupied & BISHOP_MASKS[sq]).wrapping_mul(BISHOP_MAGICS[sq]) >> BISHOP_SHIFTS[sq];
/// let attacks = BISHOP_ATTACKS[BISHOP_OFFSETS[sq] as usize + index as usize];
/// assert_eq!(attacks, bishop_attacks(sq as u8, occupied));
/// ```
pub use crate::generated::BISHOP_MAGICS;

/// Right shift of a bishop's magic product on each square: the magic index
/// of a square is below `1 << (64 - BISHOP_SHIFTS[sq])`.
///
/// ```
/// use kiln_tables::raw::{BISHOP_MAGICS, BISHOP_MASKS, BISHOP_SHIFTS};
///
/// let (sq, full) = (27, BISHOP_MASKS[27]);
/// let index = full.wrapping_mul(BISHOP_MAGICS[sq]) >> BISHOP_SHIFTS[sq];
/// assert!(index < 1 << (64 - BISHOP_SHIFTS[sq]));
/// ```
pub use crate::generated::BISHOP_SHIFTS;

/// Where each square's slice of [`BISHOP_ATTACKS`] starts.
///
/// ```
/// use kiln_tables::raw::{BISHOP_ATTACKS, BISHOP_OFFSETS, bishop_attacks};
///
/// // Index 0 is the empty occupancy.
/// assert_eq!(BISHOP_ATTACKS[BISHOP_OFFSETS[27] as usize], bishop_attacks(27, 0));
/// ```
pub use crate::generated::BISHOP_OFFSETS;

/// Bishop attacks in the fancy-magic layout, all squares' slices in one
/// array (see [`BISHOP_MAGICS`]).
///
/// ```
/// use kiln_tables::raw::{BISHOP_ATTACKS, BISHOP_OFFSETS};
///
/// // A bishop on d4 on an empty board sees 13 squares.
/// assert_eq!(BISHOP_ATTACKS[BISHOP_OFFSETS[27] as usize].count_ones(), 13);
/// ```
pub use crate::generated::BISHOP_ATTACKS;

/// Knight attacks by square; [`knight_attacks`] reads it.
///
/// ```
/// use kiln_tables::raw::KNIGHT_ATTACKS;
///
/// // g1: e2, f3, h3.
/// assert_eq!(KNIGHT_ATTACKS[6], (1 << 12) | (1 << 21) | (1 << 23));
/// ```
pub use crate::generated::KNIGHT_ATTACKS;

/// King attacks by square; [`king_attacks`] reads it.
///
/// ```
/// use kiln_tables::raw::KING_ATTACKS;
///
/// assert_eq!(KING_ATTACKS[28].count_ones(), 8); // e4
/// assert_eq!(KING_ATTACKS[63].count_ones(), 3); // h8
/// ```
pub use crate::generated::KING_ATTACKS;

/// Pawn captures by colour (0 White, 1 Black) and square; [`pawn_attacks`]
/// reads it.
///
/// ```
/// use kiln_tables::raw::PAWN_ATTACKS;
///
/// // A Black pawn on e5 attacks d4 and f4.
/// assert_eq!(PAWN_ATTACKS[1][36], (1 << 27) | (1 << 29));
/// ```
pub use crate::generated::PAWN_ATTACKS;

/// The single push of a pawn by colour and square (0 on the last rank);
/// [`pawn_pushes`] reads it.
///
/// ```
/// use kiln_tables::raw::PAWN_PUSHES;
///
/// assert_eq!(PAWN_PUSHES[0][12], 1 << 20); // White e2 to e3
/// assert_eq!(PAWN_PUSHES[0][60], 0); // nothing beyond e8
/// ```
pub use crate::generated::PAWN_PUSHES;

/// Squares strictly between two squares that share a rank, file or
/// diagonal, else 0; [`between`] reads it.
///
/// ```
/// use kiln_tables::raw::BETWEEN;
///
/// assert_eq!(BETWEEN[4][28], (1 << 12) | (1 << 20)); // e1 to e4: e2, e3
/// assert_eq!(BETWEEN[4][21], 0); // e1 and f3 are not aligned
/// ```
pub use crate::generated::BETWEEN;

/// The whole line through two aligned squares, edge to edge, else 0;
/// [`line()`] reads it.
///
/// ```
/// use kiln_tables::raw::{FILE_MASKS, LINE};
///
/// assert_eq!(LINE[4][60], FILE_MASKS[4]); // e1 and e8: the e-file
/// assert_eq!(LINE[4][4], 0);
/// ```
pub use crate::generated::LINE;

/// The squares of each file, 0 (a) to 7 (h); [`file_mask`] reads it.
///
/// ```
/// use kiln_tables::raw::FILE_MASKS;
///
/// assert_eq!(FILE_MASKS[7], 0x8080_8080_8080_8080);
/// ```
pub use crate::generated::FILE_MASKS;

/// The squares of each rank, 0 (first) to 7 (eighth); [`rank_mask`] reads
/// it.
///
/// ```
/// use kiln_tables::raw::RANK_MASKS;
///
/// assert_eq!(RANK_MASKS[7], 0xff00_0000_0000_0000);
/// ```
pub use crate::generated::RANK_MASKS;

/// The files beside each file; [`adjacent_files`] reads it.
///
/// ```
/// use kiln_tables::raw::{ADJACENT_FILES, FILE_MASKS};
///
/// assert_eq!(ADJACENT_FILES[4], FILE_MASKS[3] | FILE_MASKS[5]);
/// ```
pub use crate::generated::ADJACENT_FILES;

/// The squares ahead on the same file, by colour and square;
/// [`forward_file`] reads it.
///
/// ```
/// use kiln_tables::raw::FORWARD_FILE;
///
/// // Black on c3 looks at c2 and c1.
/// assert_eq!(FORWARD_FILE[1][18], (1 << 10) | (1 << 2));
/// ```
pub use crate::generated::FORWARD_FILE;

/// The squares ahead on the same and the adjacent files, by colour and
/// square; [`passed_pawn_mask`] reads it.
///
/// ```
/// use kiln_tables::raw::PASSED_PAWN_MASKS;
///
/// // A White pawn on e5 is passed unless a Black pawn is on d6-f6, d7-f7 or d8-f8.
/// assert_eq!(PASSED_PAWN_MASKS[0][36].count_ones(), 9);
/// ```
pub use crate::generated::PASSED_PAWN_MASKS;

/// King-move distance between two squares, 0 to 7; [`distance`] reads it.
///
/// ```
/// use kiln_tables::raw::DISTANCE;
///
/// assert_eq!(DISTANCE[0][63], 7); // a1 to h8
/// assert_eq!(DISTANCE[28][45], 2); // e4 to f6
/// ```
pub use crate::generated::DISTANCE;

/// Castling rights (the four bits of [`CastlingRights`](crate::CastlingRights))
/// that survive a move from or to each square in standard chess;
/// [`castling_rights_mask`] reads it.
///
/// ```
/// use kiln_tables::raw::CASTLING_RIGHTS_MASKS;
///
/// assert_eq!(CASTLING_RIGHTS_MASKS[4], 0b1100); // e1: White loses both
/// assert_eq!(CASTLING_RIGHTS_MASKS[63], 0b1011); // h8: Black's short castling goes
/// assert_eq!(CASTLING_RIGHTS_MASKS[28], 0b1111); // e4: nothing changes
/// ```
pub use crate::generated::CASTLING_RIGHTS_MASKS;

/// Each square mirrored for the other colour (a1 ↔ a8): `square ^ 56`, as
/// [`Square::flip`](crate::Square::flip) computes it.
///
/// ```
/// use kiln_tables::raw::FLIP;
///
/// assert_eq!(FLIP[12], 52); // e2 ↔ e7
/// assert!((0..64).all(|sq| FLIP[sq] as usize == sq ^ 56));
/// ```
pub use crate::generated::FLIP;

/// Zobrist keys by colour (0 White, 1 Black), piece kind (0 pawn … 5 king)
/// and square; [`zobrist_piece`] reads it.
///
/// ```
/// use kiln_tables::raw::ZOBRIST_PIECES;
///
/// // 1. Nf3: the White knight leaves g1 and arrives on f3.
/// let change = ZOBRIST_PIECES[0][1][6] ^ ZOBRIST_PIECES[0][1][21];
/// assert_ne!(change, 0);
/// ```
pub use crate::generated::ZOBRIST_PIECES;

/// Zobrist key of each castling-rights set, indexed by its four bits; the
/// empty set (index 0) has a key too, so a position's key always holds
/// exactly one of these. [`zobrist_castling`] reads it.
///
/// ```
/// use kiln_tables::raw::ZOBRIST_CASTLING;
///
/// // White castles: KQkq (15) becomes kq (12).
/// let change = ZOBRIST_CASTLING[15] ^ ZOBRIST_CASTLING[12];
/// assert_ne!(change, 0);
/// assert_ne!(ZOBRIST_CASTLING[0], 0);
/// ```
pub use crate::generated::ZOBRIST_CASTLING;

/// Zobrist key of each en-passant file, 0 (a) to 7 (h);
/// [`zobrist_en_passant`] reads it. See the crate docs for when a position's
/// key holds one.
///
/// ```
/// use kiln_tables::raw::ZOBRIST_EN_PASSANT;
///
/// assert_ne!(ZOBRIST_EN_PASSANT[3], ZOBRIST_EN_PASSANT[4]);
/// ```
pub use crate::generated::ZOBRIST_EN_PASSANT;

/// Zobrist key XORed in when Black is to move; [`zobrist_side`] returns it.
///
/// ```
/// use kiln_tables::raw::{START_KEY, ZOBRIST_SIDE};
///
/// let black_to_move = START_KEY ^ ZOBRIST_SIDE;
/// assert_ne!(black_to_move, START_KEY);
/// ```
pub use crate::generated::ZOBRIST_SIDE;

/// The seed the Zobrist keys were drawn from: the same value as
/// [`crate::SEED`].
///
/// ```
/// assert_eq!(kiln_tables::raw::SEED, kiln_tables::SEED);
/// ```
pub use crate::generated::SEED;

/// The FNV-1a fingerprint over every generated table, the PEXT layout
/// included whether or not this build carries it: the same value as
/// [`crate::FINGERPRINT`].
///
/// ```
/// assert_eq!(kiln_tables::raw::FINGERPRINT, kiln_tables::FINGERPRINT);
/// ```
pub use crate::generated::FINGERPRINT;

/// The Zobrist key of the standard start position: the same value as
/// [`crate::START_KEY`]. It holds the 32 pieces' keys and the key of all
/// four castling rights (index 15 of [`ZOBRIST_CASTLING`]); no
/// [`ZOBRIST_SIDE`] (White is to move) and no en-passant key.
///
/// ```
/// use kiln_tables::raw::{START_KEY, ZOBRIST_CASTLING, ZOBRIST_PIECES};
///
/// const BACK_RANK: [usize; 8] = [3, 1, 2, 4, 5, 2, 1, 3]; // R N B Q K B N R
/// let mut key = ZOBRIST_CASTLING[0b1111];
/// for (file, kind) in BACK_RANK.into_iter().enumerate() {
///     key ^= ZOBRIST_PIECES[0][kind][file] ^ ZOBRIST_PIECES[0][0][8 + file];
///     key ^= ZOBRIST_PIECES[1][0][48 + file] ^ ZOBRIST_PIECES[1][kind][56 + file];
/// }
/// assert_eq!(key, START_KEY);
/// ```
pub use crate::generated::START_KEY;

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
/// BMI2 (`target_feature = "bmi2"`, for example with
/// `RUSTFLAGS="-C target-cpu=native"` on a CPU that has it).
///
/// `attacks = ROOK_ATTACKS[ROOK_OFFSETS[sq] + pext(occupied, ROOK_MASKS[sq])]`.
/// The masks are the same relevant-occupancy masks as the magic layout. The
/// generated arrays are named `ROOK_PEXT_ATTACKS`, `ROOK_PEXT_OFFSETS` and so
/// on; this module re-exports them without the `PEXT`.
///
/// Executing `pext` needs an `unsafe` call in Rust, which this crate
/// forbids, so the caller computes the index:
///
/// ```
/// use kiln_tables::raw::{self, pext};
///
/// /// Rook attacks through the PEXT layout, in a crate that allows `unsafe`.
/// fn rook(square: u8, occupied: u64) -> u64 {
///     let mask = pext::ROOK_MASKS[square as usize];
///     // SAFETY: `raw::pext` exists only when the target has BMI2.
///     let index = unsafe { core::arch::x86_64::_pext_u64(occupied, mask) };
///     pext::rook_attacks_at(square, index)
/// }
///
/// let occupied = 0x0000_1008_0420_8100;
/// assert!((0..64).all(|sq| rook(sq, occupied) == raw::rook_attacks(sq, occupied)));
/// ```
///
/// Its documentation is built only with BMI2 enabled: docs.rs does so
/// (this package's `[package.metadata.docs.rs]`), and locally
///
/// ```sh
/// RUSTFLAGS="-C target-feature=+bmi2" RUSTDOCFLAGS="-C target-feature=+bmi2" \
///     cargo doc -p kiln-tables
/// ```
#[cfg(target_feature = "bmi2")]
pub mod pext {
    /// Relevant-occupancy mask of a rook on each square, the `mask` of
    /// `pext(occupied, mask)`: the same array as
    /// [`raw::ROOK_MASKS`](crate::raw::ROOK_MASKS).
    ///
    /// ```
    /// use kiln_tables::raw::{self, pext};
    ///
    /// assert_eq!(pext::ROOK_MASKS, raw::ROOK_MASKS);
    /// assert_eq!(pext::ROOK_MASKS[0].count_ones(), 12);
    /// ```
    pub use crate::generated::ROOK_MASKS;

    /// Where each square's slice of the PEXT [`ROOK_ATTACKS`] starts.
    ///
    /// ```
    /// use kiln_tables::raw::{self, pext};
    ///
    /// // Index 0: no relevant blocker, the empty-board attacks.
    /// assert_eq!(pext::ROOK_ATTACKS[pext::ROOK_OFFSETS[9] as usize], raw::rook_attacks(9, 0));
    /// ```
    pub use crate::generated::ROOK_PEXT_OFFSETS as ROOK_OFFSETS;

    /// Rook attacks in the PEXT layout: entry
    /// `ROOK_OFFSETS[sq] + pext(occupied, ROOK_MASKS[sq])`.
    ///
    /// ```
    /// use kiln_tables::raw::{self, pext};
    ///
    /// // All relevant squares of a1 occupied: pext gives the all-ones index.
    /// let full = (1 << pext::ROOK_MASKS[0].count_ones()) - 1;
    /// let attacks = pext::ROOK_ATTACKS[pext::ROOK_OFFSETS[0] as usize + full];
    /// assert_eq!(attacks, raw::rook_attacks(0, pext::ROOK_MASKS[0]));
    /// ```
    pub use crate::generated::ROOK_PEXT_ATTACKS as ROOK_ATTACKS;

    /// Relevant-occupancy mask of a bishop on each square: the same array
    /// as [`raw::BISHOP_MASKS`](crate::raw::BISHOP_MASKS).
    ///
    /// ```
    /// use kiln_tables::raw::{self, pext};
    ///
    /// assert_eq!(pext::BISHOP_MASKS, raw::BISHOP_MASKS);
    /// ```
    pub use crate::generated::BISHOP_MASKS;

    /// Where each square's slice of the PEXT [`BISHOP_ATTACKS`] starts.
    ///
    /// ```
    /// use kiln_tables::raw::{self, pext};
    ///
    /// let d4 = 27;
    /// assert_eq!(
    ///     pext::BISHOP_ATTACKS[pext::BISHOP_OFFSETS[d4] as usize],
    ///     raw::bishop_attacks(d4 as u8, 0)
    /// );
    /// ```
    pub use crate::generated::BISHOP_PEXT_OFFSETS as BISHOP_OFFSETS;

    /// Bishop attacks in the PEXT layout: entry
    /// `BISHOP_OFFSETS[sq] + pext(occupied, BISHOP_MASKS[sq])`.
    ///
    /// ```
    /// use kiln_tables::raw::{self, pext};
    ///
    /// let full = (1 << pext::BISHOP_MASKS[0].count_ones()) - 1;
    /// let attacks = pext::BISHOP_ATTACKS[pext::BISHOP_OFFSETS[0] as usize + full];
    /// assert_eq!(attacks, raw::bishop_attacks(0, pext::BISHOP_MASKS[0]));
    /// ```
    pub use crate::generated::BISHOP_PEXT_ATTACKS as BISHOP_ATTACKS;

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
