//! The network's inputs: one feature per (colour, kind, square), seen from
//! each side. From a perspective, "our" pieces come first (indices 0..384)
//! and "their" pieces after (384..768), and Black sees the board mirrored
//! top to bottom through the generated FLIP table (`Square::flip`, equal to
//! it by its doctest), so the same weights serve both sides. The engine's
//! accumulator and the trainer both index through [`index`]; nothing else
//! computes a feature number.

use kiln_board::{Color, ColoredPiece, Square};

/// Features per perspective.
pub const FEATURES: usize = kiln_format::net::INPUTS;

/// The feature of `piece` on `square` from `perspective`'s side.
#[inline(always)]
pub const fn index(perspective: Color, piece: ColoredPiece, square: Square) -> usize {
    let theirs = (piece.color().index() != perspective.index()) as usize;
    let relative = match perspective {
        Color::White => square,
        Color::Black => square.flip(),
    };
    theirs * 384 + piece.kind().index() * 64 + relative.index()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::PieceKind;

    #[test]
    fn a_position_and_its_colour_mirror_have_swapped_perspectives() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                for square in Square::ALL {
                    let piece = ColoredPiece::new(color, kind);
                    let mirrored = ColoredPiece::new(!color, kind);
                    assert_eq!(
                        index(Color::White, piece, square),
                        index(Color::Black, mirrored, square.flip())
                    );
                    assert!(index(color, piece, square) < FEATURES);
                }
            }
        }
        let wk = ColoredPiece::new(Color::White, PieceKind::King);
        assert_eq!(index(Color::White, wk, Square::E1), 5 * 64 + 4);
        assert_eq!(index(Color::Black, wk, Square::E1), 384 + 5 * 64 + 60);
    }
}
