//! Static evaluation: tapered piece-square tables from build-time tables.
//!
//! The piece-square tables (with material folded in) are parsed from
//! `src/eval/params.txt` by the root build script and emitted per colour,
//! pre-flipped and packed as `S(mg, eg)`; see [`psqt`]. [`evaluate`] sums
//! them, blends middlegame and endgame by the game phase, and returns the
//! score from the side to move's point of view.

pub mod psqt;
pub mod score;

mod evaluate;

pub use evaluate::{evaluate, evaluate_white, phase, psqt_sum};
