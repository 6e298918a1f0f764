//! The accumulator: the first layer's sums for both perspectives, built
//! from scratch ([`Accumulator::refresh`]) or updated, half by half, from
//! a parent by the pieces a move took off and put on
//! ([`PlacementChanges`]), as long as the move left that side's [`View`]
//! (its king's input bucket and mirroring) as it was.

use super::features::View;
use super::network::{Aligned, FEATURE_BIASES, FEATURE_WEIGHTS, KING_BUCKETS};
use super::simd::{self, Half};
use kiln_board::{Board, Color, ColoredPiece, PlacementChanges, Square};
use kiln_format::net::KingBuckets;

/// How `perspective` sees `board` under the king map `kings` (the
/// built-in network's is [`KING_BUCKETS`]).
#[inline(always)]
pub fn view(board: &Board, perspective: Color, kings: &KingBuckets) -> View {
    View::new(perspective, board.king_square(perspective), kings)
}

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
        Accumulator::refresh_under(board, &KING_BUCKETS)
    }

    /// [`Accumulator::refresh`] with each side's view taken from the king
    /// map `kings` (the tests' maps; the engine's is the network's).
    pub fn refresh_under(board: &Board, kings: &KingBuckets) -> Accumulator {
        let mut acc = Accumulator::EMPTY;
        for color in Color::ALL {
            acc.refresh_half(board, view(board, color, kings));
        }
        acc
    }

    /// Rebuilds the half of `view`'s perspective from the biases and
    /// every piece of `board`, as `view` sees them.
    pub fn refresh_half(&mut self, board: &Board, view: View) {
        let half = &mut self.values.0[view.color().index()];
        *half = FEATURE_BIASES.0;
        for square in board.occupied() {
            if let Some(piece) = board.piece_on(square) {
                simd::add(half, column(view, piece, square));
            }
        }
    }

    /// The half seen from `perspective`.
    #[inline(always)]
    pub fn half(&self, perspective: Color) -> &Half {
        &self.values.0[perspective.index()]
    }

    /// Sets the half of `view`'s perspective to `parent`'s with the
    /// changes of one move, in one pass ([`simd::add_sub_into`]). `view`
    /// must be how that side sees both positions.
    #[inline]
    pub fn apply_half_from(
        &mut self,
        parent: &Accumulator,
        view: View,
        changes: &PlacementChanges,
    ) {
        let removed = changes.removed();
        let added = changes.added();
        let side = view.color().index();
        let (mut on, mut off) = ([&FEATURE_WEIGHTS.0[0]; 2], [&FEATURE_WEIGHTS.0[0]; 2]);
        for (slot, &(piece, square)) in on.iter_mut().zip(added) {
            *slot = column(view, piece, square);
        }
        for (slot, &(piece, square)) in off.iter_mut().zip(removed) {
            *slot = column(view, piece, square);
        }
        simd::add_sub_into(
            &mut self.values.0[side],
            &parent.values.0[side],
            &on[..added.len()],
            &off[..removed.len()],
        );
    }
}

/// The weight column of `piece` on `square` in `view`.
#[inline(always)]
pub(super) fn column(view: View, piece: ColoredPiece, square: Square) -> &'static Half {
    &FEATURE_WEIGHTS.0[view.index(piece, square)]
}
