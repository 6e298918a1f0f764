//! Static evaluation: tapered piece-square tables and a few classical terms,
//! all weighted from build-time tables.
//!
//! The piece-square tables (with material folded in) are parsed from
//! `src/eval/params.txt` (by the `kiln-format` crate) in the root build
//! script and emitted per colour,
//! pre-flipped and packed as `S(mg, eg)`; see [`psqt`]. The other weights
//! (pawn structure, mobility, king safety) come from the same file; see
//! [`terms`]. [`evaluate`] sums everything, blends middlegame and endgame
//! by the game phase, and returns the score from the side to move's point
//! of view.
//!
//! [`nnue`] is the other evaluation, a network; [`Evaluation`] says which
//! one the search uses.

pub mod endgame;
pub mod endgame_constants;
pub mod eval_cache;
pub mod evaluation;
pub mod explain;
mod masks;
pub mod nnue;
pub mod pawn_table;
pub mod psqt;
pub mod score;
pub mod terms;

mod evaluate;

/// The text of the parameter file the hand-written evaluation was built
/// from (`src/eval/params.txt`): where the workshop's tuner starts, so that
/// its fit begins at exactly the weights of the engine it is built with.
/// Only a program that reads it carries it; the engine does not.
pub const PARAMS_TXT: &str = include_str!("params.txt");

pub use evaluate::{
    TermShare, blend, evaluate, evaluate_white, evaluate_with, phase, psqt_sum, term_breakdown,
    trace_terms,
};
pub use evaluation::{Evaluation, USE_NNUE_DEFAULT};
