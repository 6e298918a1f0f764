//! The accumulator: the first layer's sums for both perspectives, built
//! from scratch ([`Accumulator::refresh`]) or updated from a parent by the
//! pieces a move took off and put on ([`PlacementChanges`]).

use super::features::index;
use super::network::{Aligned, FEATURE_BIASES, FEATURE_WEIGHTS};
use super::simd::{self, Half};
use kiln_board::{Board, Color, ColoredPiece, PlacementChanges, Square};

/// The first layer's sums, `values.0[perspective.index()]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// White's half, then Black's.
    pub values: Aligned<[Half; 2]>,
}

impl Accumulator {
    /// All zeros: a placeholder that no evaluation reads before it is
    /// filled.
    pub const EMPTY: Accumulator = Accumulator {
        values: Aligned([[0; super::network::HIDDEN]; 2]),
    };

    /// The accumulator of `board`, from the biases and every piece.
    pub fn refresh(board: &Board) -> Accumulator {
        let mut acc = Accumulator {
            values: Aligned([FEATURE_BIASES.0; 2]),
        };
        for square in board.occupied() {
            if let Some(piece) = board.piece_on(square) {
                acc.add(piece, square);
            }
        }
        acc
    }

    /// The half seen from `perspective`.
    #[inline(always)]
    pub fn half(&self, perspective: Color) -> &Half {
        &self.values.0[perspective.index()]
    }

    /// Adds `piece` on `square` to both halves.
    #[inline(always)]
    pub fn add(&mut self, piece: ColoredPiece, square: Square) {
        for color in Color::ALL {
            let column = &FEATURE_WEIGHTS.0[index(color, piece, square)];
            simd::add(&mut self.values.0[color.index()], column);
        }
    }

    /// Takes `piece` on `square` out of both halves.
    #[inline(always)]
    pub fn sub(&mut self, piece: ColoredPiece, square: Square) {
        for color in Color::ALL {
            let column = &FEATURE_WEIGHTS.0[index(color, piece, square)];
            simd::sub(&mut self.values.0[color.index()], column);
        }
    }

    /// This accumulator set to `parent` with the changes of one move, in
    /// one pass over each half ([`simd::add_sub_into`]).
    #[inline]
    pub fn apply_from(&mut self, parent: &Accumulator, changes: &PlacementChanges) {
        let removed = changes.removed();
        let added = changes.added();
        for color in Color::ALL {
            let column = |&(piece, square): &(ColoredPiece, Square)| {
                &FEATURE_WEIGHTS.0[index(color, piece, square)]
            };
            let (mut on, mut off) = ([&FEATURE_WEIGHTS.0[0]; 2], [&FEATURE_WEIGHTS.0[0]; 2]);
            for (slot, feature) in on.iter_mut().zip(added) {
                *slot = column(feature);
            }
            for (slot, feature) in off.iter_mut().zip(removed) {
                *slot = column(feature);
            }
            simd::add_sub_into(
                &mut self.values.0[color.index()],
                &parent.values.0[color.index()],
                &on[..added.len()],
                &off[..removed.len()],
            );
        }
    }
}
