//! The lookups the evaluation reads, by name: masks, distances and attack
//! sets from `kiln-tables` and the pawn-attack shifts, all on raw `u64`
//! bitboards and `u8` squares as the term code counts with them. Every
//! evaluation file reads the chess tables through these functions only.

use kiln_board::{Bitboard, Color, File, Square};
// The terms count with `u8` squares and `u64` sets, so these read the
// integer API; the board's types are the typed API's own.
use ::kiln_tables::raw as kiln_tables;

/// The four centre squares d4, e4, d5 and e5.
pub(crate) const CENTRE: u64 = 0x0000_0018_1800_0000;

/// Every square of `file` (0 = a).
#[inline(always)]
pub(crate) fn file_mask(file: u8) -> u64 {
    kiln_tables::file_mask(file)
}

/// Every square of `rank` (0 = the first).
#[inline(always)]
pub(crate) fn rank_mask(rank: u8) -> u64 {
    kiln_tables::rank_mask(rank)
}

/// Every square of the files next to `file`.
#[inline(always)]
pub(crate) fn adjacent_files(file: u8) -> u64 {
    kiln_tables::adjacent_files(file)
}

/// `bb` moved one rank forward from `color`'s point of view (pawn pushes).
#[inline(always)]
pub(crate) fn forward(bb: u64, color: Color) -> u64 {
    kiln_board::attacks::forward(Bitboard(bb), color).0
}

/// The squares in front of `square` on its file, seen from `color`.
#[inline(always)]
pub(crate) fn forward_file(color: Color, square: u8) -> u64 {
    kiln_tables::forward_file(color as u8, square)
}

/// The squares in front of `square` on its own and the adjacent files, seen
/// from `color`: where an enemy pawn stops a pawn on `square` being passed.
#[inline(always)]
pub(crate) fn passed_span(color: Color, square: u8) -> u64 {
    kiln_tables::passed_pawn_mask(color as u8, square)
}

/// King moves (Chebyshev distance) between two squares.
#[inline(always)]
pub(crate) fn distance(a: u8, b: u8) -> u8 {
    kiln_tables::distance(a, b)
}

/// The squares next to `square`: a king's reach, the ring around a king.
#[inline(always)]
pub(crate) fn king_ring(square: u8) -> u64 {
    kiln_tables::king_attacks(square)
}

/// The squares a knight on `square` reaches.
#[inline(always)]
pub(crate) fn knight_reach(square: u8) -> u64 {
    kiln_tables::knight_attacks(square)
}

/// The squares a bishop on `square` reaches when `occupied` block.
#[inline(always)]
pub(crate) fn diagonal_reach(square: u8, occupied: u64) -> u64 {
    kiln_tables::bishop_attacks(square, occupied)
}

/// The squares a rook on `square` reaches when `occupied` block.
#[inline(always)]
pub(crate) fn straight_reach(square: u8, occupied: u64) -> u64 {
    kiln_tables::rook_attacks(square, occupied)
}

/// The squares strictly between `a` and `b` on a shared line.
#[inline(always)]
pub(crate) fn between(a: u8, b: u8) -> u64 {
    kiln_tables::between(a, b)
}

/// Squares attacked by the pawns of `color` towards the a-file and towards
/// the h-file.
pub(crate) fn pawn_attack_sides(pawns: Bitboard, color: Color) -> (u64, u64) {
    let p = pawns.0;
    let not_a = !file_mask(File::A as u8);
    let not_h = !file_mask(File::H as u8);
    match color {
        Color::White => ((p << 7) & not_h, (p << 9) & not_a),
        Color::Black => ((p >> 9) & not_h, (p >> 7) & not_a),
    }
}

/// Squares attacked by the pawns of `color`.
pub(crate) fn pawn_attacks(pawns: Bitboard, color: Color) -> u64 {
    let (west, east) = pawn_attack_sides(pawns, color);
    west | east
}

/// Squares attacked by two pawns of `color`.
pub(crate) fn pawn_double_attacks(pawns: Bitboard, color: Color) -> u64 {
    let (west, east) = pawn_attack_sides(pawns, color);
    west & east
}

/// The files of the king's wing for a king on `file`: a-c, a-d (b, c),
/// c-f (d, e), e-h (f, g) or f-h.
pub(crate) fn king_flank(file: u8) -> u64 {
    let files = |from: u8, to: u8| (from..=to).fold(0, |m, f| m | file_mask(f));
    match file {
        0 => files(0, 2),
        1 | 2 => files(0, 3),
        3 | 4 => files(2, 5),
        5 | 6 => files(4, 7),
        _ => files(5, 7),
    }
}

/// Every square on the ranks in front of `square`, seen from `color`.
pub(crate) fn ranks_ahead(color: Color, square: Square) -> u64 {
    let rank = square.rank().index();
    match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << ((rank + 1) * 8),
        Color::Black => (1u64 << (rank * 8)) - 1,
    }
}

/// The rank of `square` seen from `color`'s side (0 = its first rank).
pub(crate) fn relative_rank(square: Square, color: Color) -> usize {
    match color {
        Color::White => square.rank().index(),
        Color::Black => 7 - square.rank().index(),
    }
}
