//! The typed lookups: every table read through [`Square`], [`Color`],
//! [`PieceKind`], [`File`], [`Rank`] and [`Bitboard`], as `const fn`s over the
//! integer functions in [`raw`].

use crate::{Bitboard, CastlingRights, Color, File, PieceKind, Rank, Square, raw};

/// Squares attacked by a rook on `square` when the squares in `occupied`
/// are occupied. Blockers are included in the set and own pieces are not
/// removed: mask them off with `& !ours`.
///
/// ```
/// use kiln_tables::{Bitboard, Square, rook_attacks};
///
/// // A rook on e1 with a blocker on e4 sees e2, e3, e4 and the first rank.
/// let occupied = Square::E4.bitboard();
/// let seen = rook_attacks(Square::E1, occupied);
/// assert!(seen.contains(Square::E4) && !seen.contains(Square::E5));
/// assert_eq!(seen.count(), 3 + 7);
/// ```
#[inline]
pub const fn rook_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(raw::rook_attacks(square as u8, occupied.0))
}

/// Squares attacked by a bishop on `square` given the `occupied` squares.
///
/// ```
/// use kiln_tables::{Bitboard, Square, bishop_attacks};
///
/// const OPEN_D4: Bitboard = bishop_attacks(Square::D4, Bitboard::EMPTY);
/// assert_eq!(OPEN_D4.count(), 13);
/// ```
#[inline]
pub const fn bishop_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(raw::bishop_attacks(square as u8, occupied.0))
}

/// Squares attacked by a queen on `square` given the `occupied` squares.
///
/// ```
/// use kiln_tables::{Bitboard, Square, bishop_attacks, queen_attacks, rook_attacks};
///
/// let occ = Square::D6.bitboard();
/// assert_eq!(
///     queen_attacks(Square::D4, occ),
///     rook_attacks(Square::D4, occ) | bishop_attacks(Square::D4, occ)
/// );
/// ```
#[inline]
pub const fn queen_attacks(square: Square, occupied: Bitboard) -> Bitboard {
    Bitboard(raw::queen_attacks(square as u8, occupied.0))
}

/// Squares attacked by a knight on `square`.
///
/// ```
/// use kiln_tables::{Bitboard, Square, knight_attacks};
///
/// const G1: Bitboard = knight_attacks(Square::G1);
/// assert_eq!(G1, Bitboard::EMPTY.with(Square::E2).with(Square::F3).with(Square::H3));
/// ```
#[inline]
pub const fn knight_attacks(square: Square) -> Bitboard {
    Bitboard(raw::knight_attacks(square as u8))
}

/// Squares attacked by a king on `square`.
///
/// ```
/// use kiln_tables::{Square, king_attacks};
///
/// assert_eq!(king_attacks(Square::E4).count(), 8);
/// assert_eq!(king_attacks(Square::H8).count(), 3);
/// ```
#[inline]
pub const fn king_attacks(square: Square) -> Bitboard {
    Bitboard(raw::king_attacks(square as u8))
}

/// Squares attacked by a pawn of `color` on `square`.
///
/// ```
/// use kiln_tables::{Bitboard, Color, Square, pawn_attacks};
///
/// assert_eq!(
///     pawn_attacks(Color::Black, Square::E5),
///     Square::D4.bitboard() | Square::F4.bitboard()
/// );
/// // Which White pawns attack e5? Those a Black pawn on e5 would attack.
/// let white_pawns = Square::D4.bitboard() | Square::E4.bitboard();
/// assert_eq!(pawn_attacks(Color::Black, Square::E5) & white_pawns, Square::D4.bitboard());
/// ```
#[inline]
pub const fn pawn_attacks(color: Color, square: Square) -> Bitboard {
    Bitboard(raw::pawn_attacks(color as u8, square as u8))
}

/// The square in front of a pawn of `color` on `square` (empty on the last
/// rank).
///
/// ```
/// use kiln_tables::{Bitboard, Color, Square, pawn_pushes};
///
/// assert_eq!(pawn_pushes(Color::White, Square::E2), Square::E3.bitboard());
/// assert_eq!(pawn_pushes(Color::White, Square::E8), Bitboard::EMPTY);
/// ```
#[inline]
pub const fn pawn_pushes(color: Color, square: Square) -> Bitboard {
    Bitboard(raw::pawn_pushes(color as u8, square as u8))
}

/// Squares strictly between `a` and `b` when they share a rank, file or
/// diagonal; empty otherwise (and for `a == b`).
///
/// ```
/// use kiln_tables::{Bitboard, Square, between};
///
/// assert_eq!(between(Square::E1, Square::E4), Square::E2.bitboard() | Square::E3.bitboard());
/// assert_eq!(between(Square::E1, Square::F3), Bitboard::EMPTY);
/// ```
#[inline]
pub const fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(raw::between(a as u8, b as u8))
}

/// The whole rank, file or diagonal through `a` and `b`, edge to edge and
/// including both; empty when they are not aligned or are equal.
///
/// ```
/// use kiln_tables::{File, Square, file_mask, line};
///
/// assert_eq!(line(Square::E1, Square::E8), file_mask(File::E));
/// assert!(line(Square::E1, Square::F3).is_empty());
/// ```
#[inline]
pub const fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(raw::line(a as u8, b as u8))
}

/// All squares of `file`.
///
/// ```
/// use kiln_tables::{File, Square, file_mask};
///
/// assert!(file_mask(File::A).contains(Square::A8));
/// assert_eq!(file_mask(File::A).count(), 8);
/// ```
#[inline]
pub const fn file_mask(file: File) -> Bitboard {
    Bitboard(raw::file_mask(file as u8))
}

/// All squares of `rank`.
///
/// ```
/// use kiln_tables::{Bitboard, Rank, rank_mask};
///
/// assert_eq!(rank_mask(Rank::Second), Bitboard(0xff00));
/// ```
#[inline]
pub const fn rank_mask(rank: Rank) -> Bitboard {
    Bitboard(raw::rank_mask(rank as u8))
}

/// The files beside `file` (one or two whole files, not `file` itself).
///
/// ```
/// use kiln_tables::{File, adjacent_files, file_mask};
///
/// assert_eq!(adjacent_files(File::A), file_mask(File::B));
/// assert_eq!(adjacent_files(File::E), file_mask(File::D) | file_mask(File::F));
/// ```
#[inline]
pub const fn adjacent_files(file: File) -> Bitboard {
    Bitboard(raw::adjacent_files(file as u8))
}

/// Squares in front of a pawn of `color` on `square`, on its own and the
/// adjacent files: when no enemy pawn stands there, the pawn is passed.
///
/// ```
/// use kiln_tables::{Color, Square, passed_pawn_mask};
///
/// let span = passed_pawn_mask(Color::White, Square::E5);
/// assert_eq!(span.count(), 9); // d6-f6, d7-f7, d8-f8
/// let black_pawns = Square::C6.bitboard() | Square::H7.bitboard();
/// assert!((span & black_pawns).is_empty()); // e5 is passed
/// ```
#[inline]
pub const fn passed_pawn_mask(color: Color, square: Square) -> Bitboard {
    Bitboard(raw::passed_pawn_mask(color as u8, square as u8))
}

/// Squares in front of `square` on its own file, as seen by `color`.
///
/// ```
/// use kiln_tables::{Color, Square, forward_file};
///
/// assert_eq!(
///     forward_file(Color::Black, Square::C3),
///     Square::C2.bitboard() | Square::C1.bitboard()
/// );
/// ```
#[inline]
pub const fn forward_file(color: Color, square: Square) -> Bitboard {
    Bitboard(raw::forward_file(color as u8, square as u8))
}

/// King-move (Chebyshev) distance between two squares, 0 to 7.
///
/// ```
/// use kiln_tables::{Square, distance};
///
/// assert_eq!(distance(Square::A1, Square::H8), 7);
/// assert_eq!(distance(Square::E4, Square::F6), 2);
/// ```
#[inline]
pub const fn distance(a: Square, b: Square) -> u8 {
    raw::distance(a as u8, b as u8)
}

/// The castling rights that survive a move from or to `square` in standard
/// chess; [`CastlingRights::after_move`] applies it to both squares of a
/// move.
///
/// Chess960 positions put kings and rooks on other squares; an engine
/// derives its per-position mask from the castling rooks it parsed.
///
/// ```
/// use kiln_tables::{CastlingRights, Square, castling_rights_mask};
///
/// assert_eq!(castling_rights_mask(Square::E8).to_string(), "KQ");
/// assert_eq!(castling_rights_mask(Square::D4), CastlingRights::ALL);
/// ```
#[inline]
pub const fn castling_rights_mask(square: Square) -> CastlingRights {
    match CastlingRights::new(raw::castling_rights_mask(square as u8)) {
        Some(rights) => rights,
        None => panic!("the generated castling masks have four bits"),
    }
}

/// Zobrist key of a `piece` of `color` on `square`.
///
/// The key of a position is the XOR of the keys of its pieces, of its
/// castling rights ([`zobrist_castling`]), of its en-passant file when there
/// is one ([`zobrist_en_passant`]) and of [`zobrist_side`] when Black is to
/// move; a move XORs out what it removes and XORs in what it adds.
///
/// ```
/// use kiln_tables::{Color, PieceKind, Square, zobrist_piece};
///
/// const KING_E1: u64 = zobrist_piece(Color::White, PieceKind::King, Square::E1);
/// // Moving the king to e2 updates the key incrementally.
/// let key = KING_E1 ^ KING_E1 ^ zobrist_piece(Color::White, PieceKind::King, Square::E2);
/// assert_ne!(key, KING_E1);
/// ```
///
/// The arguments are typed, so putting them in the wrong order does not
/// compile:
///
/// ```compile_fail
/// use kiln_tables::{Color, PieceKind, Square, zobrist_piece};
///
/// let key = zobrist_piece(PieceKind::King, Color::White, Square::E1);
/// ```
///
/// ```compile_fail
/// use kiln_tables::{Color, PieceKind, Square, zobrist_piece};
///
/// let key = zobrist_piece(Color::White, Square::E1, PieceKind::King);
/// ```
#[inline]
pub const fn zobrist_piece(color: Color, piece: PieceKind, square: Square) -> u64 {
    raw::zobrist_piece(color as u8, piece as u8, square as u8)
}

/// Zobrist key of a set of castling rights. The empty set has a key too, so
/// a change of rights XORs out the old set's key and XORs in the new one's.
///
/// ```
/// use kiln_tables::{CastlingRights, Square, zobrist_castling};
///
/// let before = CastlingRights::ALL;
/// let after = before.after_move(Square::E1, Square::G1);
/// let change = zobrist_castling(before) ^ zobrist_castling(after);
/// assert_ne!(change, 0);
/// ```
#[inline]
pub const fn zobrist_castling(rights: CastlingRights) -> u64 {
    // The bits are below 16 by construction; the mask tells the compiler,
    // so the table read needs no bounds check.
    raw::zobrist_castling(rights.bits() & 15)
}

/// Zobrist key of an en-passant capture being possible on `file`.
///
/// ```
/// use kiln_tables::{File, zobrist_en_passant};
///
/// assert_ne!(zobrist_en_passant(File::D), zobrist_en_passant(File::E));
/// ```
#[inline]
pub const fn zobrist_en_passant(file: File) -> u64 {
    raw::zobrist_en_passant(file as u8)
}

/// Zobrist key XORed in when Black is to move.
///
/// ```
/// use kiln_tables::{START_KEY, zobrist_side};
///
/// let black_to_move = START_KEY ^ zobrist_side();
/// assert_ne!(black_to_move, START_KEY);
/// ```
#[inline]
pub const fn zobrist_side() -> u64 {
    raw::zobrist_side()
}
