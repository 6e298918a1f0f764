//! Typed attack lookups over the tables generated into `kiln-tables`.
//!
//! They live in `board` because the board itself needs them (check and
//! pin detection, FEN castling validation); move generation, evaluation and
//! search use these same functions.
//!
//! Nothing here computes a table: every function is one or two loads from a
//! `static` built at compile time. Sliders use the PEXT layout when the
//! target has BMI2 (e.g. `RUSTFLAGS="-C target-cpu=native"` on a CPU with
//! it) and fancy magic bitboards otherwise.
//!
//! ```
//! use kiln_board::{Bitboard, Square};
//! use kiln_board::attacks;
//!
//! // A rook on a1 with a blocker on a4 sees a2, a3, a4 and the first rank.
//! let seen = attacks::rook(Square::A1, Square::A4.bitboard());
//! assert!(seen.contains(Square::A4) && !seen.contains(Square::A5));
//! assert_eq!(attacks::between(Square::A1, Square::A4).count(), 2);
//! ```

use super::PieceKind;
use super::{Bitboard, Color, Square};
// The PEXT layout is only in the integer API.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
use kiln_tables::raw::pext;

/// Squares a rook on `square` attacks when `occupied` are occupied
/// (blockers included).
///
/// ```
/// use kiln_board::{Bitboard, Square, attacks};
///
/// // On an empty board a rook on d4 sees the whole d-file and fourth rank.
/// assert_eq!(attacks::rook(Square::D4, Bitboard::EMPTY).count(), 14);
/// // A blocker on d6 is attacked; d7 and d8 behind it are not.
/// let seen = attacks::rook(Square::D4, Square::D6.bitboard());
/// assert!(seen.contains(Square::D6) && !seen.contains(Square::D7));
/// assert_eq!(seen.count(), 12);
/// ```
#[inline(always)]
pub fn rook(square: Square, occupied: Bitboard) -> Bitboard {
    slider_rook(square, occupied)
}

/// Squares a bishop on `square` attacks when `occupied` are occupied.
///
/// ```
/// use kiln_board::{Bitboard, Square, attacks};
///
/// // The long diagonal from a1 on an empty board: b2 … h8.
/// assert_eq!(attacks::bishop(Square::A1, Bitboard::EMPTY).count(), 7);
/// // A piece on c3 stops it there: b2 and c3 only.
/// let seen = attacks::bishop(Square::A1, Square::C3.bitboard());
/// assert_eq!(seen, Square::B2.bitboard() | Square::C3.bitboard());
/// ```
#[inline(always)]
pub fn bishop(square: Square, occupied: Bitboard) -> Bitboard {
    slider_bishop(square, occupied)
}

/// Squares a queen on `square` attacks when `occupied` are occupied.
///
/// ```
/// use kiln_board::{Bitboard, Square, attacks};
///
/// let occupied = Square::D6.bitboard() | Square::F6.bitboard();
/// let seen = attacks::queen(Square::D4, occupied);
/// assert_eq!(
///     seen,
///     attacks::rook(Square::D4, occupied) | attacks::bishop(Square::D4, occupied)
/// );
/// assert_eq!(attacks::queen(Square::D4, Bitboard::EMPTY).count(), 27);
/// ```
#[inline(always)]
pub fn queen(square: Square, occupied: Bitboard) -> Bitboard {
    slider_rook(square, occupied) | slider_bishop(square, occupied)
}

/// Squares a knight on `square` attacks.
///
/// ```
/// use kiln_board::{Square, attacks};
///
/// assert_eq!(attacks::knight(Square::A1), Square::B3.bitboard() | Square::C2.bitboard());
/// assert_eq!(attacks::knight(Square::D4).count(), 8);
/// ```
#[inline(always)]
pub fn knight(square: Square) -> Bitboard {
    kiln_tables::knight_attacks(square)
}

/// Squares a king on `square` attacks.
///
/// ```
/// use kiln_board::{Square, attacks};
///
/// assert_eq!(attacks::king(Square::H8).count(), 3);
/// assert_eq!(attacks::king(Square::E4).count(), 8);
/// assert!(attacks::king(Square::E1).contains(Square::F2));
/// ```
#[inline(always)]
pub fn king(square: Square) -> Bitboard {
    kiln_tables::king_attacks(square)
}

/// Squares a pawn of `color` on `square` attacks (diagonally forward).
///
/// ```
/// use kiln_board::{Color, Square, attacks};
///
/// assert_eq!(attacks::pawn(Color::White, Square::E4), Square::D5.bitboard() | Square::F5.bitboard());
/// assert_eq!(attacks::pawn(Color::Black, Square::E4), Square::D3.bitboard() | Square::F3.bitboard());
/// // An edge pawn attacks one square.
/// assert_eq!(attacks::pawn(Color::White, Square::A2), Square::B3.bitboard());
/// ```
#[inline(always)]
pub fn pawn(color: Color, square: Square) -> Bitboard {
    kiln_tables::pawn_attacks(color, square)
}

/// Squares a piece of `kind` and `color` on `square` attacks.
///
/// Always inlined: callers loop over a fixed list of kinds (the evaluation's
/// piece loop, the opponent's attack map), and only when this is inlined
/// does the compiler unroll those loops, resolve the `match` at compile
/// time and keep each lookup a load or two instead of a call (measured:
/// −2.9 % instructions per searched node).
///
/// ```
/// use kiln_board::{Board, Color, PieceKind, Square, attacks};
///
/// let board = Board::startpos();
/// let occupied = board.occupied();
/// // The knight on g1 reaches f3 and h3 (e2 holds a pawn of its own, which
/// // attack sets include).
/// let knight = attacks::piece(PieceKind::Knight, Color::White, Square::G1, occupied);
/// assert_eq!(knight, attacks::knight(Square::G1));
/// assert!(knight.contains(Square::F3) && knight.contains(Square::H3));
/// // The queen on d1 is boxed in: it sees its neighbours only.
/// let queen = attacks::piece(PieceKind::Queen, Color::White, Square::D1, occupied);
/// assert_eq!(queen.count(), 5);
/// // Pawns depend on the colour.
/// assert!(attacks::piece(PieceKind::Pawn, Color::Black, Square::E7, occupied).contains(Square::D6));
/// ```
#[inline(always)]
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
///
/// ```
/// use kiln_board::{Bitboard, Square, attacks};
///
/// let diagonal = attacks::between(Square::A1, Square::H8);
/// assert_eq!(diagonal.count(), 6);
/// assert!(diagonal.contains(Square::D4) && !diagonal.contains(Square::H8));
/// // Neighbours and unaligned squares have nothing between them.
/// assert_eq!(attacks::between(Square::E1, Square::E2), Bitboard::EMPTY);
/// assert_eq!(attacks::between(Square::A1, Square::B3), Bitboard::EMPTY);
/// ```
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    kiln_tables::between(a, b)
}

/// The whole line (edge to edge) through `a` and `b`; empty if unaligned.
///
/// ```
/// use kiln_board::{Bitboard, Square, attacks};
///
/// // b2 and c3 lie on the long diagonal: the line is all of a1–h8.
/// let line = attacks::line(Square::B2, Square::C3);
/// assert_eq!(line.count(), 8);
/// assert!(line.contains(Square::A1) && line.contains(Square::H8));
/// assert_eq!(attacks::line(Square::A1, Square::B3), Bitboard::EMPTY);
/// ```
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    kiln_tables::line(a, b)
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[allow(unsafe_code)] // the one instruction PEXT needs (see the crate docs)
#[inline(always)]
fn slider_rook(square: Square, occupied: Bitboard) -> Bitboard {
    let mask = pext::ROOK_MASKS[square.index()];
    // SAFETY: `_pext_u64` needs the BMI2 instruction set, and this function
    // is only compiled when the target has it (`target_feature = "bmi2"`).
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, mask) };
    Bitboard(pext::rook_attacks_at(square as u8, index))
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[allow(unsafe_code)] // the one instruction PEXT needs (see the crate docs)
#[inline(always)]
fn slider_bishop(square: Square, occupied: Bitboard) -> Bitboard {
    let mask = pext::BISHOP_MASKS[square.index()];
    // SAFETY: as in `slider_rook`: compiled only for targets with BMI2.
    let index = unsafe { core::arch::x86_64::_pext_u64(occupied.0, mask) };
    Bitboard(pext::bishop_attacks_at(square as u8, index))
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn slider_rook(square: Square, occupied: Bitboard) -> Bitboard {
    kiln_tables::rook_attacks(square, occupied)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn slider_bishop(square: Square, occupied: Bitboard) -> Bitboard {
    kiln_tables::bishop_attacks(square, occupied)
}

/// `squares` moved one rank towards `color`'s opponent (White: up the
/// board); squares that would leave the board are dropped. A pawn push of
/// every pawn in `squares`, before asking whether the target is empty.
///
/// ```
/// use kiln_board::{Bitboard, Color, Square, attacks};
///
/// let pawns = Square::E2.bitboard() | Square::A7.bitboard();
/// let pushed = attacks::forward(pawns, Color::White);
/// assert!(pushed.contains(Square::E3) && pushed.contains(Square::A8));
/// assert_eq!(attacks::forward(Square::E8.bitboard(), Color::White), Bitboard::EMPTY);
/// ```
#[inline(always)]
pub const fn forward(squares: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard(squares.0 << 8),
        Color::Black => Bitboard(squares.0 >> 8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slider attacks by walking rays square by square.
    fn walk(square: Square, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
        let mut out = 0;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (square.file().index() as i32, square.rank().index() as i32);
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    break;
                }
                let bit = 1u64 << (r * 8 + f);
                out |= bit;
                if occupied & bit != 0 {
                    break;
                }
            }
        }
        out
    }

    /// Checks whichever slider path this build compiled (PEXT under BMI2,
    /// magics otherwise) against the ray walk.
    #[test]
    fn sliders_match_a_ray_walk() {
        const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for square in Square::ALL {
            for i in 0..300 {
                // Sparse and dense occupancies alike.
                let occupied = match i % 3 {
                    0 => next() & next(),
                    1 => next(),
                    _ => next() | next(),
                };
                let occ = Bitboard(occupied);
                assert_eq!(
                    rook(square, occ).0,
                    walk(square, occupied, &ROOK),
                    "{square}"
                );
                assert_eq!(
                    bishop(square, occ).0,
                    walk(square, occupied, &BISHOP),
                    "{square}"
                );
                assert_eq!(queen(square, occ), rook(square, occ) | bishop(square, occ));
            }
        }
    }
}
