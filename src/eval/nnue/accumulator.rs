//! The accumulator: the first layer's sums for both perspectives, built
//! from scratch ([`Accumulator::refresh`]) or updated from a parent by the
//! features a move changed ([`Delta`]).

use super::features::index;
use super::network::{Aligned, FEATURE_BIASES, FEATURE_WEIGHTS};
use super::simd::{self, Half};
use kiln_board::{Board, Color, ColoredPiece, Square};

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
    pub fn apply_from(&mut self, parent: &Accumulator, delta: &Delta) {
        let removed = &delta.removed[..delta.removed_len];
        let added = &delta.added[..delta.added_len];
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

/// The pieces a move lifts and drops: at most two each way (castling
/// moves king and rook; a capture removes the mover from its square and
/// the victim from its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    removed: [(ColoredPiece, Square); 2],
    removed_len: usize,
    added: [(ColoredPiece, Square); 2],
    added_len: usize,
}

/// Filler for the unused slots of a [`Delta`].
const NOTHING: (ColoredPiece, Square) = (ColoredPiece::WhitePawn, Square::A1);

impl Delta {
    /// No change (a null move).
    pub const NONE: Delta = Delta {
        removed: [NOTHING; 2],
        removed_len: 0,
        added: [NOTHING; 2],
        added_len: 0,
    };

    /// Records that `piece` left `square`.
    #[inline]
    pub fn remove(&mut self, piece: ColoredPiece, square: Square) {
        self.removed[self.removed_len] = (piece, square);
        self.removed_len += 1;
    }

    /// Records that `piece` arrived on `square`.
    #[inline]
    pub fn add(&mut self, piece: ColoredPiece, square: Square) {
        self.added[self.added_len] = (piece, square);
        self.added_len += 1;
    }
}
