//! The efficiently updatable neural network evaluation: a (768 → N)×2 → 1
//! network with a squared clipped ReLU, integer weights embedded at build
//! time ([`network`]). The file format and the integer formula are
//! `kiln_format::net`'s; docs/nnue.md describes the design.
//!
//! - [`features`]: the input feature of a piece on a square;
//! - [`network`]: the embedded weights and the header's constants;
//! - [`accumulator`]: the first layer's sums and their updates by move;
//! - [`stack`]: a search thread's accumulators, following the board's
//!   history lazily;
//! - [`refresh`]: the stack's cache of the last half built for each view,
//!   so that a refresh costs only the pieces that differ;
//! - [`simd`]: the inner loops, scalar and AVX2, bit-identical.
//!
//! The endgame table's exact verdicts ([`Verdict::Exact`]) stand with the
//! network as with the classical evaluation.

pub mod accumulator;
pub mod features;
pub mod network;
pub mod refresh;
pub mod simd;
pub mod stack;

use self::accumulator::Accumulator;
use self::network::{OUTPUT_BIASES, OUTPUT_BUCKETS, QA, QB, SCALE};
use self::stack::AccumulatorStack;
use super::endgame::{self, Verdict};
use super::score::{MAX_EVAL, Score};
use kiln_board::{Board, Color};

/// The network's evaluation of `board` from the side to move's point of
/// view, updating `stack` (this thread's accumulators) on the way.
#[inline]
pub fn evaluate(board: &Board, stack: &mut AccumulatorStack) -> Score {
    if let Some(score) = exact(board) {
        return score;
    }
    output(stack.update(board), board.side_to_move(), bucket(board))
}

/// [`evaluate`] from a freshly built accumulator (tests, checks, and one-off
/// evaluations outside a search).
pub fn evaluate_fresh(board: &Board) -> Score {
    if let Some(score) = exact(board) {
        return score;
    }
    output(
        &Accumulator::refresh(board),
        board.side_to_move(),
        bucket(board),
    )
}

/// The output bucket of `board`: which set of output weights reads its
/// accumulators, by the number of men on the board.
#[inline(always)]
pub fn bucket(board: &Board) -> usize {
    kiln_format::net::output_bucket(board.occupied().count() as usize, OUTPUT_BUCKETS)
}

/// The endgame table's exact verdict, side to move's view, if it has one.
#[inline(always)]
fn exact(board: &Board) -> Option<Score> {
    match endgame::probe(board) {
        Verdict::Exact(white) => Some(super::evaluate::from_side_to_move(board, white)),
        _ => None,
    }
}

/// The network's output for `acc` with `us` to move, read through output
/// bucket `bucket` ([`bucket`]), clamped to ±[`MAX_EVAL`].
#[inline]
pub fn output(acc: &Accumulator, us: Color, bucket: usize) -> Score {
    let sum = simd::output_sum(acc.half(us), acc.half(!us), bucket);
    centipawns(sum, bucket).clamp(i64::from(-MAX_EVAL), i64::from(MAX_EVAL)) as Score
}

/// The file format's last step: `(sum / QA + out_bias[bucket]) · scale /
/// (QA · QB)`, in 64 bits so that no network's sum can overflow it.
/// Divisions truncate toward zero, as Rust's (and the trainer's) integer
/// division.
#[inline(always)]
pub fn centipawns(sum: i32, bucket: usize) -> i64 {
    (i64::from(sum / QA) + i64::from(OUTPUT_BIASES[bucket])) * i64::from(SCALE) / i64::from(QA * QB)
}
