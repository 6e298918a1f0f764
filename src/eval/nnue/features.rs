//! The network's inputs: one feature per (colour, kind, square), seen from
//! each side, in one of K sets chosen by that side's king. From a
//! perspective, "our" pieces come first (0..384 of a set) and "their"
//! pieces after (384..768); Black sees the board mirrored top to bottom
//! (the square's index XOR 56, equal to the generated FLIP table's
//! `Square::flip`, as a test checks), so the same weights serve both
//! sides. The network's king map ([`KingBuckets`]) then says, for the
//! square of the perspective's own king as it sees the board, which set
//! of 768 features that perspective uses (its input bucket) and whether it
//! sees the files mirrored (a↔h) as well.
//!
//! A [`View`] is one perspective's way of seeing a position: the engine's
//! accumulator and the trainer both build one and index through
//! [`View::index`]; nothing else computes a feature number.

use kiln_board::{Color, ColoredPiece, Square};
use kiln_format::net::KingBuckets;

/// Features per input bucket and perspective.
pub const FEATURES: usize = kiln_format::net::INPUTS;

/// How one perspective sees the position: which input bucket its king
/// selects and which squares map to which. Two positions whose views of a
/// side are equal index that side's features alike, so an accumulator
/// half can be updated from one to the other; a different view needs a
/// fresh half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The perspective.
    color: Color,
    /// The first feature of the input bucket: bucket · 768.
    offset: u16,
    /// XORed into a square's index: 56 for Black (top to bottom), 7 more
    /// when the files are mirrored.
    square_xor: u8,
}

impl View {
    /// The view of `perspective`, whose king stands on `king`, under the
    /// king map `kings`.
    #[inline(always)]
    pub const fn new(perspective: Color, king: Square, kings: &KingBuckets) -> View {
        let vertical = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let relative_king = king.index() ^ vertical;
        let horizontal = if kings.mirrored(relative_king) { 7 } else { 0 };
        View {
            color: perspective,
            offset: (kings.bucket(relative_king) * FEATURES) as u16,
            square_xor: (vertical ^ horizontal) as u8,
        }
    }

    /// The perspective this view belongs to.
    #[inline(always)]
    pub const fn color(self) -> Color {
        self.color
    }

    /// The input bucket of this view (0 without a king map).
    #[inline(always)]
    pub const fn bucket(self) -> usize {
        self.offset as usize / FEATURES
    }

    /// Whether this view sees the files mirrored.
    #[inline(always)]
    pub const fn mirrored(self) -> bool {
        self.square_xor & 7 != 0
    }

    /// The feature of `piece` on `square` in this view.
    #[inline(always)]
    pub const fn index(self, piece: ColoredPiece, square: Square) -> usize {
        let theirs = (piece.color().index() != self.color.index()) as usize;
        let relative = square.index() ^ self.square_xor as usize;
        self.offset as usize + theirs * 384 + piece.kind().index() * 64 + relative
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::PieceKind;

    fn four_mirrored() -> KingBuckets {
        let mut halves = [3u8; 32];
        halves[..8].copy_from_slice(&[0, 0, 1, 1, 2, 2, 2, 2]);
        KingBuckets::mirrored_halves(&halves).expect("a king map")
    }

    #[test]
    fn a_position_and_its_colour_mirror_have_swapped_perspectives() {
        for kings in [KingBuckets::NONE, four_mirrored()] {
            for king in Square::ALL {
                for color in Color::ALL {
                    let ours = View::new(color, king, &kings);
                    let mirrored = View::new(!color, king.flip(), &kings);
                    for kind in PieceKind::ALL {
                        for square in Square::ALL {
                            let piece = ColoredPiece::new(color, kind);
                            let swapped = ColoredPiece::new(!color, kind);
                            assert_eq!(
                                ours.index(piece, square),
                                mirrored.index(swapped, square.flip())
                            );
                            assert!(ours.index(piece, square) < FEATURES * kings.count());
                        }
                    }
                }
            }
        }
        let wk = ColoredPiece::new(Color::White, PieceKind::King);
        let none = KingBuckets::NONE;
        assert_eq!(
            View::new(Color::White, Square::E1, &none).index(wk, Square::E1),
            5 * 64 + 4
        );
        assert_eq!(
            View::new(Color::Black, Square::E8, &none).index(wk, Square::E1),
            384 + 5 * 64 + 60
        );
    }

    /// Under a mirrored map a king on the e to h files sees the board
    /// mirrored a↔h, in the bucket of the square it mirrors to.
    #[test]
    fn kings_on_the_right_half_see_the_files_mirrored() {
        let kings = four_mirrored();
        let wn = ColoredPiece::new(Color::White, PieceKind::Knight);
        let g1 = View::new(Color::White, Square::G1, &kings);
        let b1 = View::new(Color::White, Square::B1, &kings);
        assert_ne!(g1, b1);
        assert_eq!(g1.index(wn, Square::H3), b1.index(wn, Square::A3));
        assert_eq!(b1.index(wn, Square::A3), 64 + 16);
        let e4 = View::new(Color::White, Square::E4, &kings);
        assert_eq!(e4.index(wn, Square::A1), 3 * FEATURES + 64 + 7);
        // Black's king on g8 is on its own g1.
        let black_g8 = View::new(Color::Black, Square::G8, &kings);
        assert_eq!(black_g8.index(wn, Square::H1), 384 + 64 + 56);
        assert_ne!(
            View::new(Color::White, Square::D1, &kings),
            View::new(Color::White, Square::E1, &kings)
        );
    }
}
